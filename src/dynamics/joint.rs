//! Joints: their definitions (world-frame anchors and axes, public tunables), validation, and the
//! joint as the world keeps it (anchors and axes in the bodies' frames, warm-start impulses, the
//! reaction of the last step). The solver side is `joint_solver.rs`; the method, Box2D v3's soft
//! step joints, is described there and in `docs/joints.md`.
//!
//! Every definition is built from the two bodies and world-frame anchors (and axes) as they are
//! when the joint is added; [`World::add_joint`](crate::World::add_joint) converts them into the
//! bodies' frames and checks every number.

use crate::dynamics::BodyId;
use crate::math::{Real, Vec2};

/// A handle to a joint: an index plus a generation, so the id of a removed joint is rejected, and
/// the tag of the world that made it, so an id from another world is rejected too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
    /// The tag of the world that made it (an id from another world is rejected).
    pub(crate) world: u32,
}

impl JointId {
    /// The joint's slot in the world's storage (reused after a removal, with a new generation).
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }
}

/// Settings every joint has.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointCommon {
    /// Whether the two bodies still collide with each other. Default false.
    pub collide_connected: bool,
    /// Reaction force (N) above which the step reports a [`JointEvent`](crate::JointEvent)
    /// (breakable joints: the game removes the joint). Default infinity (never).
    pub force_threshold: Real,
    /// Reaction torque (N·m) above which the step reports a joint event. Default infinity.
    pub torque_threshold: Real,
}

impl Default for JointCommon {
    fn default() -> Self {
        Self {
            collide_connected: false,
            force_threshold: Real::INFINITY,
            torque_threshold: Real::INFINITY,
        }
    }
}

/// A pin: body B turns about a point of body A (a hinge, a pendulum, a wheel on an axle), with an
/// optional angle limit, motor and rotational spring.
#[derive(Clone, Debug, PartialEq)]
pub struct RevoluteJointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// The pin, in the world when the joint is added (metres).
    pub anchor: Vec2,
    /// The angle of B relative to A (radians) that counts as 0 for the limit and the spring;
    /// `None`: the relative angle when the joint is added.
    pub reference_angle: Option<Real>,
    /// Whether the angle is limited to `[lower_angle, upper_angle]` (radians, lower ≤ 0 ≤ upper
    /// is not required; lower ≤ upper is).
    pub enable_limit: bool,
    /// Lower angle limit (radians).
    pub lower_angle: Real,
    /// Upper angle limit (radians).
    pub upper_angle: Real,
    /// Whether the motor drives the relative angular velocity toward `motor_speed`.
    pub enable_motor: bool,
    /// Motor target speed of B relative to A (rad/s).
    pub motor_speed: Real,
    /// Largest torque the motor applies (N·m, ≥ 0).
    pub max_motor_torque: Real,
    /// Whether a rotational spring pulls the angle toward 0.
    pub enable_spring: bool,
    /// Spring frequency (Hz, ≥ 0).
    pub hertz: Real,
    /// Spring damping ratio (≥ 0; 1 is critical).
    pub damping_ratio: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl RevoluteJointDef {
    /// A free pin of `body_a` and `body_b` at the world point `anchor`.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, anchor: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            anchor,
            reference_angle: None,
            enable_limit: false,
            lower_angle: 0.0,
            upper_angle: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            common: JointCommon::default(),
        }
    }
}

/// A slider: body B moves along an axis fixed in body A and does not turn relative to it, with an
/// optional translation limit, motor and spring.
#[derive(Clone, Debug, PartialEq)]
pub struct PrismaticJointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// A point on the axis, in the world when the joint is added (metres).
    pub anchor: Vec2,
    /// The axis direction in the world when the joint is added (normalised; must not be zero).
    pub axis: Vec2,
    /// Relative angle held (radians); `None`: the angle when the joint is added.
    pub reference_angle: Option<Real>,
    /// Whether the translation along the axis is limited to `[lower, upper]` (metres).
    pub enable_limit: bool,
    /// Lower translation limit (metres).
    pub lower_translation: Real,
    /// Upper translation limit (metres).
    pub upper_translation: Real,
    /// Whether the motor drives the speed along the axis toward `motor_speed`.
    pub enable_motor: bool,
    /// Motor target speed (m/s).
    pub motor_speed: Real,
    /// Largest force the motor applies (N, ≥ 0).
    pub max_motor_force: Real,
    /// Whether a spring pulls the translation toward 0.
    pub enable_spring: bool,
    /// Spring frequency (Hz, ≥ 0).
    pub hertz: Real,
    /// Spring damping ratio (≥ 0).
    pub damping_ratio: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl PrismaticJointDef {
    /// A free slider of `body_b` along `axis` through the world point `anchor` of `body_a`.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, anchor: Vec2, axis: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            anchor,
            axis,
            reference_angle: None,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            common: JointCommon::default(),
        }
    }
}

/// A rod, rope or spring between two anchor points: their distance kept within
/// `[min_length, max_length]`, and pulled toward `length` by an optional spring.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceJointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// The anchor on A, in the world when the joint is added (metres).
    pub anchor_a: Vec2,
    /// The anchor on B, in the world when the joint is added (metres).
    pub anchor_b: Vec2,
    /// Rest length (metres, > 0): the spring's target, and the rod's length when the spring is
    /// off. Default: the anchors' distance.
    pub length: Real,
    /// Shortest allowed distance (metres, ≥ 0). Default `length` (a rod); 0 with `max_length =
    /// length` makes a rope.
    pub min_length: Real,
    /// Longest allowed distance (metres, ≥ `min_length`). Default `length`.
    pub max_length: Real,
    /// Whether a spring pulls the distance toward `length` (between the limits).
    pub enable_spring: bool,
    /// Spring frequency (Hz, ≥ 0).
    pub hertz: Real,
    /// Spring damping ratio (≥ 0).
    pub damping_ratio: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl DistanceJointDef {
    /// A rod between the world points `anchor_a` (on `body_a`) and `anchor_b` (on `body_b`), of
    /// their current distance.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, anchor_a: Vec2, anchor_b: Vec2) -> Self {
        let length = anchor_a.distance(anchor_b);
        Self {
            body_a,
            body_b,
            anchor_a,
            anchor_b,
            length,
            min_length: length,
            max_length: length,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            common: JointCommon::default(),
        }
    }
}

/// Glue: body B keeps its pose relative to body A, rigidly or through linear and angular springs.
#[derive(Clone, Debug, PartialEq)]
pub struct WeldJointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// The weld point, in the world when the joint is added (metres).
    pub anchor: Vec2,
    /// Relative angle held (radians); `None`: the angle when the joint is added.
    pub reference_angle: Option<Real>,
    /// Frequency of the linear spring (Hz, ≥ 0); 0 is as stiff as the solver allows.
    pub linear_hertz: Real,
    /// Damping ratio of the linear spring (≥ 0).
    pub linear_damping_ratio: Real,
    /// Frequency of the angular spring (Hz, ≥ 0); 0 is as stiff as the solver allows.
    pub angular_hertz: Real,
    /// Damping ratio of the angular spring (≥ 0).
    pub angular_damping_ratio: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl WeldJointDef {
    /// A rigid weld of `body_a` and `body_b` at the world point `anchor`.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, anchor: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            anchor,
            reference_angle: None,
            linear_hertz: 0.0,
            linear_damping_ratio: 0.0,
            angular_hertz: 0.0,
            angular_damping_ratio: 0.0,
            common: JointCommon::default(),
        }
    }
}

/// A wheel on a suspension: body B (the wheel) stays on a line along `axis` through `anchor` of
/// body A (the chassis), sprung along it, turning freely or driven by a motor.
#[derive(Clone, Debug, PartialEq)]
pub struct WheelJointDef {
    /// The chassis.
    pub body_a: BodyId,
    /// The wheel.
    pub body_b: BodyId,
    /// The wheel's centre, in the world when the joint is added (metres).
    pub anchor: Vec2,
    /// The suspension axis in the world when the joint is added (normalised; not zero).
    pub axis: Vec2,
    /// Whether the suspension spring is on. Default true.
    pub enable_spring: bool,
    /// Suspension frequency (Hz, ≥ 0). Default 4.
    pub hertz: Real,
    /// Suspension damping ratio (≥ 0). Default 0.7.
    pub damping_ratio: Real,
    /// Whether the travel along the axis is limited to `[lower, upper]` (metres).
    pub enable_limit: bool,
    /// Lower translation limit (metres).
    pub lower_translation: Real,
    /// Upper translation limit (metres).
    pub upper_translation: Real,
    /// Whether the motor drives the wheel's angular velocity relative to the chassis.
    pub enable_motor: bool,
    /// Motor target speed (rad/s).
    pub motor_speed: Real,
    /// Largest motor torque (N·m, ≥ 0).
    pub max_motor_torque: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl WheelJointDef {
    /// A wheel `body_b` at the world point `anchor`, sprung along `axis` on the chassis `body_a`.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, anchor: Vec2, axis: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            anchor,
            axis,
            enable_spring: true,
            hertz: 4.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            common: JointCommon::default(),
        }
    }
}

/// Drives body B toward a pose relative to body A with a bounded force and torque (a character
/// controller on a moving platform, a top-down body with friction).
#[derive(Clone, Debug, PartialEq)]
pub struct MotorJointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// B's target position (its frame's origin) in A's frame (metres); `None`: where it is when
    /// the joint is added.
    pub linear_offset: Option<Vec2>,
    /// B's target angle relative to A (radians); `None`: as when the joint is added.
    pub angular_offset: Option<Real>,
    /// Largest force (N, ≥ 0).
    pub max_force: Real,
    /// Largest torque (N·m, ≥ 0).
    pub max_torque: Real,
    /// Fraction of the pose error corrected per second… per step (in `[0, 1]`). Default 0.3.
    pub correction_factor: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl MotorJointDef {
    /// A motor joint holding `body_b` where it is relative to `body_a` with `max_force` and
    /// `max_torque`.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, max_force: Real, max_torque: Real) -> Self {
        Self {
            body_a,
            body_b,
            linear_offset: None,
            angular_offset: None,
            max_force,
            max_torque,
            correction_factor: 0.3,
            common: JointCommon::default(),
        }
    }
}

/// Drags a point of a body toward a target with a soft spring of bounded force (the mouse in a
/// testbed, a grab in a game). Move the target with
/// [`World::set_joint_target`](crate::World::set_joint_target).
#[derive(Clone, Debug, PartialEq)]
pub struct MouseJointDef {
    /// The body dragged.
    pub body: BodyId,
    /// The grabbed point of the body, in the world when the joint is added (metres).
    pub anchor: Vec2,
    /// Where the point is pulled (world metres).
    pub target: Vec2,
    /// Spring frequency (Hz, > 0). Default 5.
    pub hertz: Real,
    /// Spring damping ratio (≥ 0). Default 0.7.
    pub damping_ratio: Real,
    /// Largest force (N, ≥ 0).
    pub max_force: Real,
    /// Break thresholds (`collide_connected` does not apply).
    pub common: JointCommon,
}

impl MouseJointDef {
    /// A mouse joint grabbing `body` at the world point `anchor`, pulling it toward that point
    /// with at most `max_force`.
    #[must_use]
    pub fn new(body: BodyId, anchor: Vec2, max_force: Real) -> Self {
        Self {
            body,
            anchor,
            target: anchor,
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force,
            common: JointCommon::default(),
        }
    }
}

/// Any joint definition, for [`World::add_joint`](crate::World::add_joint).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum JointDef {
    Revolute(RevoluteJointDef),
    Prismatic(PrismaticJointDef),
    Distance(DistanceJointDef),
    Weld(WeldJointDef),
    Wheel(WheelJointDef),
    Motor(MotorJointDef),
    Mouse(MouseJointDef),
}

macro_rules! into_joint_def {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for JointDef {
            fn from(d: $t) -> Self {
                JointDef::$v(d)
            }
        }
    )*};
}
into_joint_def!(
    RevoluteJointDef => Revolute,
    PrismaticJointDef => Prismatic,
    DistanceJointDef => Distance,
    WeldJointDef => Weld,
    WheelJointDef => Wheel,
    MotorJointDef => Motor,
    MouseJointDef => Mouse
);

/// Why a joint could not be added or changed. The world is left as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum JointError {
    /// A body id is stale or from another world.
    #[error("no body with id {0:?} in this world (it was removed, or belongs to another world)")]
    UnknownBody(BodyId),
    /// Both bodies are the same.
    #[error(
        "a joint needs two different bodies; body #{} was given as both body_a and body_b",
        .0.index
    )]
    SameBody(BodyId),
    /// Neither body can move.
    #[error("both bodies of the joint are static or kinematic: a joint between them does nothing; make one dynamic")]
    NoDynamicBody,
    /// A number is NaN or infinite.
    #[error("{field} of the {joint} joint is not finite ({}); give a finite number", crate::math::Num(*.value))]
    NonFinite {
        /// The joint's kind.
        joint: &'static str,
        /// The field.
        field: &'static str,
        /// The value.
        value: Real,
    },
    /// A number is out of its range.
    #[error("{field} of the {joint} joint is {}, but it must be {expected}", crate::math::Num(*.value))]
    OutOfRange {
        /// The joint's kind.
        joint: &'static str,
        /// The field.
        field: &'static str,
        /// The value.
        value: Real,
        /// What it must be.
        expected: &'static str,
    },
    /// The joint id is stale (the joint or one of its bodies was removed).
    #[error("no joint with id {0:?} in this world (it was removed, or one of its bodies was)")]
    UnknownJoint(JointId),
    /// The operation does not apply to this kind of joint.
    #[error("the joint is a {kind} joint: {reason}")]
    WrongKind {
        /// Its kind.
        kind: &'static str,
        /// Why.
        reason: &'static str,
    },
}

/// Checks that `value` is finite and within ±[`MAX_LENGTH`](crate::constants::MAX_LENGTH)
/// (1e5): every signed joint number is a coordinate (metres), an angle (rad), a limit or a motor
/// speed (m/s, rad/s; [`MAX_SPEED`](crate::constants::MAX_SPEED) is the same 1e5).
pub(crate) fn finite(
    joint: &'static str,
    field: &'static str,
    value: Real,
) -> Result<(), JointError> {
    if !value.is_finite() {
        return Err(JointError::NonFinite {
            joint,
            field,
            value,
        });
    }
    if value.abs() > crate::constants::MAX_LENGTH {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value,
            expected: "within ±1e5 (metres, radians, m/s or rad/s; see docs/reliability.md)",
        });
    }
    Ok(())
}

/// Checks that `value` is finite (infinity allowed when `max` is infinite: thresholds), ≥ 0 and
/// at most `max` ([`MAX_LENGTH`](crate::constants::MAX_LENGTH) for lengths,
/// [`MAX_FORCE`](crate::constants::MAX_FORCE) for forces, torques, frequencies and ratios).
pub(crate) fn non_negative(
    joint: &'static str,
    field: &'static str,
    value: Real,
    max: Real,
) -> Result<(), JointError> {
    if value.is_nan() || (max.is_finite() && value.is_infinite()) {
        return Err(JointError::NonFinite {
            joint,
            field,
            value,
        });
    }
    if value < 0.0 {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value,
            expected: "zero or positive",
        });
    }
    if value > max {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value,
            expected: if max == crate::constants::MAX_LENGTH {
                "at most 1e5 (metres; see docs/reliability.md)"
            } else {
                "at most 1e15 (see docs/reliability.md)"
            },
        });
    }
    Ok(())
}

/// Checks a vector's components.
pub(crate) fn finite_vec(
    joint: &'static str,
    field: &'static str,
    v: Vec2,
) -> Result<(), JointError> {
    finite(joint, field, v.x)?;
    finite(joint, field, v.y)
}

/// Checks the common settings.
pub(crate) fn check_common(joint: &'static str, c: &JointCommon) -> Result<(), JointError> {
    non_negative(joint, "force_threshold", c.force_threshold, Real::INFINITY)?;
    non_negative(
        joint,
        "torque_threshold",
        c.torque_threshold,
        Real::INFINITY,
    )
}

/// Checks `lower ≤ upper` (both finite).
pub(crate) fn ordered(
    joint: &'static str,
    field: &'static str,
    lower: Real,
    upper: Real,
) -> Result<(), JointError> {
    finite(joint, field, lower)?;
    finite(joint, field, upper)?;
    if lower > upper {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value: lower - upper,
            expected: "lower ≤ upper (the value given is lower − upper)",
        });
    }
    Ok(())
}

/// Checks a unit-able axis (finite, not zero) and returns it normalised.
pub(crate) fn axis(joint: &'static str, v: Vec2) -> Result<Vec2, JointError> {
    finite_vec(joint, "axis", v)?;
    let length = v.length();
    if length < 1e-12 {
        return Err(JointError::OutOfRange {
            joint,
            field: "axis",
            value: length,
            expected: "a direction (a vector of non-zero length)",
        });
    }
    Ok(v / length)
}
