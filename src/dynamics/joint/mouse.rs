//! The mouse joint: a point of one body pulled toward a target in the world by a soft spring of
//! bounded force (Box2D v3's mouse joint; `docs/joints.md`). Its body A is the world: it has no
//! first body, and the target moves with `World::set_joint_target`.

use crate::dynamics::{Body, BodyId};
use crate::math::{Real, Vec2};

use super::error::{bounded, check_common, finite, finite_vec, JointError};
use super::parts::{point, Pair, Spring, Substep};
use super::{Ends, Frames, Joint, JointCommon, JointImpulses, JointKind, Rules};

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

    /// Checks the definition and converts it for the body `ends.b` (see `World::add_joint`).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        let name = Mouse::NAME;
        let (kb, b) = ends.b;
        finite_vec(name, "anchor", self.anchor)?;
        finite_vec(name, "target", self.target)?;
        check_common(name, &self.common)?;
        bounded(name, "max_force", self.max_force)?;
        bounded(name, "damping_ratio", self.damping_ratio)?;
        finite(name, "hertz", self.hertz)?;
        if self.hertz <= 0.0 {
            return Err(JointError::OutOfRange {
                joint: name,
                field: "hertz",
                value: self.hertz,
                expected: "positive (Hz)",
            });
        }
        let kind = Mouse {
            target: self.target,
            spring: Spring {
                hertz: self.hertz,
                damping_ratio: self.damping_ratio,
            },
            max_force: self.max_force,
        };
        let common = JointCommon {
            collide_connected: true,
            ..self.common
        };
        Ok(Joint::new(
            None,
            kb,
            (Vec2::ZERO, ends.local(b, self.anchor)),
            JointKind::Mouse(kind),
            common,
        ))
    }
}

/// A mouse joint's settings as the world keeps them.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Mouse {
    /// Where B's anchor is pulled (world metres).
    pub target: Vec2,
    /// The pull's spring.
    pub spring: Spring,
    /// Largest force (N).
    pub max_force: Real,
}

impl Rules for Mouse {
    const NAME: &'static str = "mouse";

    fn check(&self, _local_axis: Vec2) -> Result<(), JointError> {
        self.spring.check(Self::NAME)?;
        bounded(Self::NAME, "max_force", self.max_force)
    }

    fn springs(&self) -> [Option<Spring>; 2] {
        [Some(self.spring), None]
    }

    fn frames(&self, j: &Joint, _a: Option<&Body>, b: &Body) -> Frames {
        Frames {
            frame_a: Vec2::ZERO,
            frame_b: b.pose.rotation.rotate(j.local_b - b.local_center),
            delta_center: b.pose.translation - self.target,
            delta_angle: 0.0,
            axis: Vec2::X,
        }
    }

    #[inline(always)]
    fn warm_start(&self, s: &Substep, i: &JointImpulses, v: &mut Pair) {
        s.apply_point(v, i.linear, i.angular);
    }

    #[inline(always)]
    fn solve(&self, s: &Substep, i: &mut JointImpulses, v: &mut Pair) {
        let pull = Substep::sprung_point(&s.spring, s.d);
        let max_impulse = Some(self.max_force * s.h);
        point(v, s.ma, s.mb, s.ra, s.rb, &mut i.linear, pull, max_impulse);
    }

    fn reaction(&self, s: &Substep, i: &JointImpulses) -> (Vec2, Real) {
        (i.linear * s.inv_h, i.angular * s.inv_h)
    }
}
