//! The revolute joint (a pin): B's anchor held on A's, with an optional angle limit, motor and
//! rotational spring (Box2D v3's revolute joint, soft step; `docs/joints.md`).
//!
//! Solve order in each pass: spring, motor, the two one-sided limits, then the point.

use crate::dynamics::BodyId;
use crate::math::{Real, Vec2};

use super::error::JointError;
use super::parts::{one_sided_angular, Drive, Limit, Motor, Pair, Spring, Substep};
use super::{Ends, Joint, JointCommon, JointImpulses, JointKind, RigidParts, Rules};

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

    /// Checks the definition and converts it for bodies `ends` (see `World::add_joint`).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        let name = Revolute::NAME;
        let kind = || {
            let drive = Drive::from_def(
                name,
                (
                    "angle limits",
                    self.enable_limit,
                    self.lower_angle,
                    self.upper_angle,
                ),
                (
                    "max_motor_torque",
                    self.enable_motor,
                    self.motor_speed,
                    self.max_motor_torque,
                ),
                (self.enable_spring, self.hertz, self.damping_ratio),
            )?;
            Ok(JointKind::Revolute(Revolute(drive)))
        };
        ends.pinned(
            name,
            (self.anchor, self.reference_angle),
            &self.common,
            kind,
        )
    }
}

/// A revolute joint's settings as the world keeps them.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Revolute(pub Drive);

impl Rules for Revolute {
    const NAME: &'static str = "revolute";

    fn check(&self, _local_axis: Vec2) -> Result<(), JointError> {
        self.0.check(Self::NAME)
    }

    fn springs(&self) -> [Option<Spring>; 2] {
        [self.0.spring, None]
    }

    fn reads_angle(&self) -> bool {
        // Only the spring and the limit act on the angle; a free pin never reads it.
        self.0.spring.is_some() || self.0.limit.is_some()
    }

    #[inline(always)]
    fn warm_start(&self, s: &Substep, i: &JointImpulses, v: &mut Pair) {
        v.apply(s.ma, s.mb, s.ra, s.rb, i.linear);
        v.apply_angular(s.ma, s.mb, i.spring + i.motor + i.lower - i.upper);
    }

    #[inline(always)]
    fn solve(&self, s: &Substep, i: &mut JointImpulses, v: &mut Pair) {
        let Drive {
            limit,
            motor,
            spring,
        } = self.0;
        if spring.is_some() {
            s.angular(v, &mut i.spring, Substep::sprung(&s.spring, s.angle));
        }
        if let Some(m) = motor {
            s.angular_motor(v, &mut i.motor, m);
        }
        if let Some(Limit { lower, upper }) = limit {
            one_sided_angular(v, s, &mut i.lower, s.limit(s.angle - lower), 1.0);
            one_sided_angular(v, s, &mut i.upper, s.limit(upper - s.angle), -1.0);
        }
        s.rigid_point(v, &mut i.linear, None);
    }

    fn reaction(&self, s: &Substep, i: &JointImpulses) -> (Vec2, Real) {
        (
            i.linear * s.inv_h,
            (i.spring + i.motor + i.lower - i.upper) * s.inv_h,
        )
    }

    fn rigid_parts(&self) -> RigidParts {
        RigidParts::Point { angular: false }
    }

    fn motor_mut(&mut self) -> Option<&mut Motor> {
        self.0.motor.as_mut()
    }
}
