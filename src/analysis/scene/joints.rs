//! The joints of a scene file (`docs/scenes.md`, "Joints"): their schema, and each turned into
//! the library's joint definition, which the world then checks and adds exactly as
//! [`World::add_joint`](crate::World::add_joint) does for a program (one path for both).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::SceneError;
use crate::dynamics::{
    BodyId, DistanceJointDef, JointDef, MotorJointDef, MouseJointDef, PrismaticJointDef,
    RevoluteJointDef, WeldJointDef, WheelJointDef,
};
use crate::math::{Real, Vec2};

/// A body named in a joint: its index in `bodies`, or its name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BodyRef {
    /// Index in `bodies` (0-based).
    Index(usize),
    /// The body's `name`.
    Name(String),
}

/// A joint's motor: target speed (rad/s, or m/s for a prismatic joint) and the most torque (N·m)
/// or force (N) it applies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotorSpec {
    /// Target speed.
    pub speed: Real,
    /// Largest torque or force.
    pub max: Real,
}

/// A joint's spring: frequency (Hz) and damping ratio.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpringSpec {
    /// Frequency (Hz, ≥ 0).
    pub hertz: Real,
    /// Damping ratio (≥ 0; default 0.7).
    #[serde(default = "default_damping_ratio")]
    pub damping_ratio: Real,
}

fn default_damping_ratio() -> Real {
    0.7
}

/// One joint of a [`SceneFile`](super::SceneFile) (world frame at the start, SI units; see `docs/joints.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum JointSpec {
    /// A pin at `anchor`; optional angle `limit` `[lower, upper]` (rad), `motor`, `spring`.
    Revolute {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// The pin (m).
        anchor: [Real; 2],
        /// Angle limits (rad).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<[Real; 2]>,
        /// Motor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorSpec>,
        /// Rotational spring.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A slider along `axis` through `anchor`; optional translation `limit` (m), `motor`,
    /// `spring`.
    Prismatic {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// A point on the axis (m).
        anchor: [Real; 2],
        /// The axis direction.
        axis: [Real; 2],
        /// Translation limits (m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<[Real; 2]>,
        /// Motor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorSpec>,
        /// Spring.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A rod, rope or spring between `anchor_a` and `anchor_b`.
    Distance {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// Anchor on A (m).
        anchor_a: [Real; 2],
        /// Anchor on B (m).
        anchor_b: [Real; 2],
        /// Rest length (m; default the anchors' distance).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        length: Option<Real>,
        /// Shortest distance (m; default `length`; 0 for a rope).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_length: Option<Real>,
        /// Longest distance (m; default `length`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_length: Option<Real>,
        /// Spring toward `length`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A weld at `anchor`, rigid unless given springs.
    Weld {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// The weld point (m).
        anchor: [Real; 2],
        /// Linear spring (default rigid).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        linear_spring: Option<SpringSpec>,
        /// Angular spring (default rigid).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        angular_spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A wheel (`body_b`) on a suspension along `axis` of the chassis (`body_a`).
    Wheel {
        /// The chassis.
        body_a: BodyRef,
        /// The wheel.
        body_b: BodyRef,
        /// The wheel's centre (m).
        anchor: [Real; 2],
        /// Suspension axis.
        axis: [Real; 2],
        /// Suspension spring (default 4 Hz, 0.7).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Travel limits (m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<[Real; 2]>,
        /// Motor (rad/s, N·m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A motor joint driving `body_b` toward an offset from `body_a` (a top-down character, a
    /// follower), with at most `max_force` (N) and `max_torque` (N·m).
    Motor {
        /// The reference body.
        body_a: BodyRef,
        /// The driven body.
        body_b: BodyRef,
        /// B's origin in A's frame (m; default: where it is when added).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        linear_offset: Option<[Real; 2]>,
        /// B's angle minus A's (rad; default: as when added).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        angular_offset: Option<Real>,
        /// Most force (N).
        max_force: Real,
        /// Most torque (N·m).
        max_torque: Real,
        /// How much of the offset error it closes per step, 0 to 1 (default 0.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        correction_factor: Option<Real>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A mouse joint: `body` grabbed at the world point `anchor` and pulled toward `target`
    /// (m, world; default the anchor) by a spring of at most `max_force` (N).
    Mouse {
        /// The grabbed body.
        body: BodyRef,
        /// The grabbed point (m, world).
        anchor: [Real; 2],
        /// Where it is pulled (m, world; default the anchor).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<[Real; 2]>,
        /// Most force (N).
        max_force: Real,
        /// Stiffness (Hz, default 5) and damping ratio (default 0.7).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
    },
}

/// Finds the body a joint names (`joints[k].<which>`): by index in `bodies` or by name.
pub(super) fn find_body(
    k: usize,
    which: &'static str,
    r: &BodyRef,
    bodies: &[(BodyId, String)],
    by_name: &HashMap<&str, BodyId>,
) -> Result<BodyId, SceneError> {
    let found = match r {
        BodyRef::Index(i) => bodies.get(*i).map(|b| b.0),
        BodyRef::Name(n) => by_name.get(n.as_str()).copied(),
    };
    found.ok_or_else(|| SceneError::Field {
        field: format!("joints[{k}].{which}"),
        reason: match r {
            BodyRef::Index(i) => format!(
                "there is no body {i} (the scene has {} bodies, numbered from 0)",
                bodies.len()
            ),
            BodyRef::Name(n) => format!("no body is named {}", super::shown_name(n)),
        },
        location: None,
    })
}

/// A limit as the definitions take it: enabled, lower, upper (off when the file gives none).
fn limit(l: &Option<[Real; 2]>) -> (bool, Real, Real) {
    l.map_or((false, 0.0, 0.0), |[lo, hi]| (true, lo, hi))
}

/// A motor as the definitions take it: enabled, speed, largest torque or force.
fn motor(m: &Option<MotorSpec>) -> (bool, Real, Real) {
    m.map_or((false, 0.0, 0.0), |m| (true, m.speed, m.max))
}

/// A spring as the definitions take it: enabled, frequency, damping ratio (`default` when the
/// file gives none).
fn spring(s: &Option<SpringSpec>, default: (bool, Real, Real)) -> (bool, Real, Real) {
    s.map_or(default, |s| (true, s.hertz, s.damping_ratio))
}

/// Looks up a joint's body: `which` (`"body_a"`, `"body_b"`) and the file's reference to it.
type Find<'a> = dyn Fn(&'static str, &BodyRef) -> Result<BodyId, SceneError> + 'a;

impl JointSpec {
    /// The library's definition of this joint, its bodies found by `find`. The numbers are
    /// checked when the world adds it.
    pub(super) fn to_def(&self, find: &Find<'_>) -> Result<JointDef, SceneError> {
        let v = Vec2::from_array;
        let bodies = |a: &BodyRef, b: &BodyRef| {
            Ok::<_, SceneError>((find("body_a", a)?, find("body_b", b)?))
        };
        Ok(match self {
            JointSpec::Revolute {
                body_a,
                body_b,
                anchor,
                limit: l,
                motor: m,
                spring: s,
                collide_connected,
            } => {
                let (a, b) = bodies(body_a, body_b)?;
                let mut d = RevoluteJointDef::new(a, b, v(*anchor));
                (d.enable_limit, d.lower_angle, d.upper_angle) = limit(l);
                (d.enable_motor, d.motor_speed, d.max_motor_torque) = motor(m);
                (d.enable_spring, d.hertz, d.damping_ratio) = spring(s, (false, 0.0, 0.0));
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Prismatic {
                body_a,
                body_b,
                anchor,
                axis,
                limit: l,
                motor: m,
                spring: s,
                collide_connected,
            } => {
                let (a, b) = bodies(body_a, body_b)?;
                let mut d = PrismaticJointDef::new(a, b, v(*anchor), v(*axis));
                (d.enable_limit, d.lower_translation, d.upper_translation) = limit(l);
                (d.enable_motor, d.motor_speed, d.max_motor_force) = motor(m);
                (d.enable_spring, d.hertz, d.damping_ratio) = spring(s, (false, 0.0, 0.0));
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Distance {
                body_a,
                body_b,
                anchor_a,
                anchor_b,
                length,
                min_length,
                max_length,
                spring: s,
                collide_connected,
            } => {
                let (a, b) = bodies(body_a, body_b)?;
                let mut d = DistanceJointDef::new(a, b, v(*anchor_a), v(*anchor_b));
                if let Some(l) = length {
                    (d.length, d.min_length, d.max_length) = (*l, *l, *l);
                }
                d.min_length = min_length.unwrap_or(d.min_length);
                d.max_length = max_length.unwrap_or(d.max_length);
                (d.enable_spring, d.hertz, d.damping_ratio) = spring(s, (false, 0.0, 0.0));
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Weld {
                body_a,
                body_b,
                anchor,
                linear_spring,
                angular_spring,
                collide_connected,
            } => {
                let (a, b) = bodies(body_a, body_b)?;
                let mut d = WeldJointDef::new(a, b, v(*anchor));
                (_, d.linear_hertz, d.linear_damping_ratio) =
                    spring(linear_spring, (false, 0.0, 0.0));
                (_, d.angular_hertz, d.angular_damping_ratio) =
                    spring(angular_spring, (false, 0.0, 0.0));
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Wheel {
                body_a,
                body_b,
                anchor,
                axis,
                spring: s,
                limit: l,
                motor: m,
                collide_connected,
            } => {
                let (a, b) = bodies(body_a, body_b)?;
                let mut d = WheelJointDef::new(a, b, v(*anchor), v(*axis));
                let suspension = (d.enable_spring, d.hertz, d.damping_ratio);
                (d.enable_spring, d.hertz, d.damping_ratio) = spring(s, suspension);
                (d.enable_limit, d.lower_translation, d.upper_translation) = limit(l);
                (d.enable_motor, d.motor_speed, d.max_motor_torque) = motor(m);
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Motor {
                body_a,
                body_b,
                linear_offset,
                angular_offset,
                max_force,
                max_torque,
                correction_factor,
                collide_connected,
            } => {
                let (a, b) = bodies(body_a, body_b)?;
                let mut d = MotorJointDef::new(a, b, *max_force, *max_torque);
                d.linear_offset = linear_offset.map(v);
                d.angular_offset = *angular_offset;
                d.correction_factor = correction_factor.unwrap_or(d.correction_factor);
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Mouse {
                body,
                anchor,
                target,
                max_force,
                spring: s,
            } => {
                let mut d = MouseJointDef::new(find("body", body)?, v(*anchor), *max_force);
                d.target = target.map_or(d.target, v);
                (_, d.hertz, d.damping_ratio) = spring(s, (true, d.hertz, d.damping_ratio));
                d.into()
            }
        })
    }
}
