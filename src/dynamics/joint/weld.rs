//! The weld joint: B keeps its pose relative to A, rigidly or through a linear and an angular
//! spring (Box2D v3's weld joint, soft step; `docs/joints.md`). A part whose spring has zero
//! frequency is rigid (the joint softness).
//!
//! Solve order in each pass: the angle, then the point.

use crate::dynamics::BodyId;
use crate::math::{Real, Vec2};

use super::error::JointError;
use super::parts::{point, rigid_vec, Pair, Spring, Substep};
use super::{Ends, Joint, JointCommon, JointImpulses, JointKind, RigidParts, Rules};

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

    /// Checks the definition and converts it for bodies `ends` (see `World::add_joint`).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        let name = Weld::NAME;
        let kind = || {
            Ok(JointKind::Weld(Weld {
                linear: Spring::checked(
                    name,
                    ("linear_hertz", "linear_damping_ratio"),
                    self.linear_hertz,
                    self.linear_damping_ratio,
                )?,
                angular: Spring::checked(
                    name,
                    ("angular_hertz", "angular_damping_ratio"),
                    self.angular_hertz,
                    self.angular_damping_ratio,
                )?,
            }))
        };
        ends.pinned(
            name,
            (self.anchor, self.reference_angle),
            &self.common,
            kind,
        )
    }
}

/// A weld joint's settings as the world keeps them: each part's spring (zero frequency: rigid).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Weld {
    /// The point's spring.
    pub linear: Spring,
    /// The angle's spring.
    pub angular: Spring,
}

impl Rules for Weld {
    const NAME: &'static str = "weld";

    fn reads_angle(&self) -> bool {
        // The angular part holds or springs the relative angle.
        true
    }

    fn check(&self, _local_axis: Vec2) -> Result<(), JointError> {
        self.linear.check(Self::NAME)?;
        self.angular.check(Self::NAME)
    }

    fn springs(&self) -> [Option<Spring>; 2] {
        let sprung = |s: Spring| (s.hertz > 0.0).then_some(s);
        [sprung(self.linear), sprung(self.angular)]
    }

    #[inline(always)]
    fn warm_start(&self, s: &Substep, i: &JointImpulses, v: &mut Pair) {
        s.apply_point(v, i.linear, i.angular);
    }

    #[inline(always)]
    fn solve(&self, s: &Substep, i: &mut JointImpulses, v: &mut Pair) {
        let angle = if self.angular.hertz > 0.0 {
            Substep::sprung(&s.second_spring, s.angle)
        } else {
            s.rigid(s.angle)
        };
        s.angular(v, &mut i.angular, angle);
        let linear = if self.linear.hertz > 0.0 {
            Substep::sprung_point(&s.spring, s.d)
        } else {
            rigid_vec(s.d, &s.soft, s.use_bias)
        };
        point(v, s.ma, s.mb, s.ra, s.rb, &mut i.linear, linear, None);
    }

    fn reaction(&self, s: &Substep, i: &JointImpulses) -> (Vec2, Real) {
        (i.linear * s.inv_h, i.angular * s.inv_h)
    }

    fn rigid_parts(&self) -> RigidParts {
        if self.linear.hertz == 0.0 {
            RigidParts::Point {
                angular: self.angular.hertz == 0.0,
            }
        } else {
            RigidParts::None
        }
    }
}
