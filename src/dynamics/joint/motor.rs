//! The motor joint: drives B's origin toward a position in A's frame and B's angle toward an
//! offset from A's, with a bounded force and torque, correcting a fraction of the error per step
//! (Box2D v3's motor joint; `docs/joints.md`).
//!
//! Solve order in each pass: the angle, then the point (its impulse clamped to the largest force
//! times the substep).

use crate::dynamics::{Body, BodyId};
use crate::math::{Real, Vec2};

use super::error::{bounded, check_common, finite, finite_vec, non_negative, JointError};
use super::parts::{point, Pair, Substep};
use super::{two_body_frames, Ends, Frames, Joint, JointCommon, JointImpulses, JointKind, Rules};

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

    /// Checks the definition and converts it for bodies `ends` (see `World::add_joint`).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        let name = MotorJoint::NAME;
        let ((ka, a), (kb, b)) = ends.two();
        check_common(name, &self.common)?;
        bounded(name, "max_force", self.max_force)?;
        bounded(name, "max_torque", self.max_torque)?;
        finite(name, "correction_factor", self.correction_factor)?;
        if !(0.0..=1.0).contains(&self.correction_factor) {
            return Err(JointError::OutOfRange {
                joint: name,
                field: "correction_factor",
                value: self.correction_factor,
                expected: "within [0, 1]",
            });
        }
        let offset = match self.linear_offset {
            Some(o) => {
                finite_vec(name, "linear_offset", o)?;
                o
            }
            None => ends.local(a, b.transform().translation),
        };
        let kind = MotorJoint {
            max_force: self.max_force,
            max_torque: self.max_torque,
            correction: self.correction_factor,
        };
        Ok(Joint {
            reference_angle: ends.reference(name, "angular_offset", self.angular_offset)?,
            ..Joint::new(
                Some(ka),
                kb,
                (offset, Vec2::ZERO),
                JointKind::Motor(kind),
                self.common,
            )
        })
    }
}

/// A motor joint's settings as the world keeps them. Its `local_a` is B's target position in A's
/// frame and its reference angle the angular offset.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MotorJoint {
    /// Largest force (N).
    pub max_force: Real,
    /// Largest torque (N·m).
    pub max_torque: Real,
    /// Fraction of the error corrected per step.
    pub correction: Real,
}

impl Rules for MotorJoint {
    const NAME: &'static str = "motor";

    fn reads_angle(&self) -> bool {
        // The angular correction drives the relative angle toward the target.
        true
    }

    fn check(&self, _local_axis: Vec2) -> Result<(), JointError> {
        let name = Self::NAME;
        bounded(name, "max_force", self.max_force)?;
        bounded(name, "max_torque", self.max_torque)?;
        non_negative(name, "correction_factor", self.correction, 1.0)
    }

    fn frames(&self, j: &Joint, a: Option<&Body>, b: &Body) -> Frames {
        // B's frame is its origin, seen from its centre of mass.
        two_body_frames(
            j,
            a,
            b,
            b.pose.rotation.rotate(-b.local_center),
            self.reads_angle(),
        )
    }

    #[inline(always)]
    fn warm_start(&self, s: &Substep, i: &JointImpulses, v: &mut Pair) {
        s.apply_point(v, i.linear, i.angular);
    }

    #[inline(always)]
    fn solve(&self, s: &Substep, i: &mut JointImpulses, v: &mut Pair) {
        let bias_angle = if s.use_bias {
            self.correction * s.inv_h * s.angle
        } else {
            0.0
        };
        let cdot = v.wb - v.wa;
        let max = self.max_torque * s.h;
        let new = (i.angular - s.inv_k_angular * (cdot + bias_angle)).clamp(-max, max);
        let applied = new - i.angular;
        i.angular = new;
        v.apply_angular(s.ma, s.mb, applied);
        let bias = if s.use_bias {
            self.correction * s.inv_h * s.d
        } else {
            Vec2::ZERO
        };
        let max_impulse = Some(self.max_force * s.h);
        point(
            v,
            s.ma,
            s.mb,
            s.ra,
            s.rb,
            &mut i.linear,
            (bias, 1.0, 0.0),
            max_impulse,
        );
    }

    fn reaction(&self, s: &Substep, i: &JointImpulses) -> (Vec2, Real) {
        (i.linear * s.inv_h, i.angular * s.inv_h)
    }
}
