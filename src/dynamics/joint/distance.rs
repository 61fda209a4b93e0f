//! The distance joint: the distance between two anchors kept within `[min, max]` and pulled
//! toward a rest length by an optional spring; a rod when `min = max`, a rope when `min = 0`
//! (Box2D v3's distance joint, soft step; `docs/joints.md`).
//!
//! Solve order in each pass: with room between the limits, the spring and then the two
//! one-sided limits (lower pushes apart, upper pulls together); a rod is one rigid part along
//! the anchors' line.

use crate::constants::MAX_LENGTH;
use crate::dynamics::BodyId;
use crate::math::{Real, Vec2};

use super::error::{check_common, finite_vec, non_negative, ordered, JointError};
use super::parts::{Pair, Spring, Substep};
use super::{Ends, Joint, JointCommon, JointImpulses, JointKind, RigidParts, Rules};

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

    /// Checks the definition and converts it for bodies `ends` (see `World::add_joint`).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        let name = Distance::NAME;
        let ((ka, a), (kb, b)) = ends.two();
        finite_vec(name, "anchor_a", self.anchor_a)?;
        finite_vec(name, "anchor_b", self.anchor_b)?;
        check_common(name, &self.common)?;
        non_negative(name, "length", self.length, MAX_LENGTH)?;
        non_negative(name, "min_length", self.min_length, MAX_LENGTH)?;
        ordered(
            name,
            "min_length/max_length",
            self.min_length,
            self.max_length,
        )?;
        if self.length <= 0.0 && self.min_length >= self.max_length {
            return Err(JointError::OutOfRange {
                joint: name,
                field: "length",
                value: self.length,
                expected: "positive for a rod (min_length = max_length)",
            });
        }
        let kind = Distance {
            length: self.length.clamp(self.min_length, self.max_length),
            min: self.min_length,
            max: self.max_length,
            spring: Spring::from_def(name, self.enable_spring, self.hertz, self.damping_ratio)?,
        };
        Ok(Joint::new(
            Some(ka),
            kb,
            (ends.local(a, self.anchor_a), ends.local(b, self.anchor_b)),
            JointKind::Distance(kind),
            self.common,
        ))
    }
}

/// A distance joint's settings as the world keeps them (metres).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Distance {
    /// Rest length, within `[min, max]`.
    pub length: Real,
    /// Shortest allowed distance.
    pub min: Real,
    /// Longest allowed distance.
    pub max: Real,
    /// The spring toward `length`.
    pub spring: Option<Spring>,
}

impl Rules for Distance {
    const NAME: &'static str = "distance";

    fn check(&self, _local_axis: Vec2) -> Result<(), JointError> {
        let name = Self::NAME;
        non_negative(name, "min_length", self.min, MAX_LENGTH)?;
        ordered(name, "min_length/length", self.min, self.length)?;
        ordered(name, "length/max_length", self.length, self.max)?;
        match &self.spring {
            Some(s) => s.check(name),
            None => Ok(()),
        }
    }

    fn springs(&self) -> [Option<Spring>; 2] {
        [self.spring, None]
    }

    #[inline(always)]
    fn warm_start(&self, s: &Substep, i: &JointImpulses, v: &mut Pair) {
        let u = s.d.normalize_or(Vec2::X);
        v.apply(
            s.ma,
            s.mb,
            s.ra,
            s.rb,
            (i.axial + i.spring + i.lower - i.upper) * u,
        );
    }

    #[inline(always)]
    fn solve(&self, s: &Substep, i: &mut JointImpulses, v: &mut Pair) {
        let (ma, mb, ra, rb) = (s.ma, s.mb, s.ra, s.rb);
        let l = s.d.length();
        let u = s.d.normalize_or(Vec2::X);
        let (cra, crb) = (ra.perp_dot(u), rb.perp_dot(u));
        let k = ma.linear_along(u)
            + mb.linear_along(u)
            + ma.angular * cra * cra
            + mb.angular * crb * crb;
        let inv_k = if k > 0.0 { 1.0 / k } else { 0.0 };
        let along = |v: &Pair| v.relative(ra, rb).dot(u);
        if self.min < self.max {
            if self.spring.is_some() {
                let sp = &s.spring;
                let c = l - self.length;
                let impulse = -sp.mass_scale * inv_k * (along(v) + sp.bias_rate * c)
                    - sp.impulse_scale * i.spring;
                i.spring += impulse;
                v.apply(ma, mb, ra, rb, impulse * u);
            }
            // Lower: keep l ≥ min (push apart); upper: keep l ≤ max (pull together).
            let (bias, ms, is) = s.limit(l - self.min);
            let impulse = -ms * inv_k * (along(v) + bias) - is * i.lower;
            let new = (i.lower + impulse).max(0.0);
            v.apply(ma, mb, ra, rb, (new - i.lower) * u);
            i.lower = new;
            let (bias, ms, is) = s.limit(self.max - l);
            let impulse = -ms * inv_k * (-along(v) + bias) - is * i.upper;
            let new = (i.upper + impulse).max(0.0);
            v.apply(ma, mb, ra, rb, -(new - i.upper) * u);
            i.upper = new;
        } else {
            let (bias, ms, is) = s.rigid(l - self.length);
            let impulse = -ms * inv_k * (along(v) + bias) - is * i.axial;
            i.axial += impulse;
            v.apply(ma, mb, ra, rb, impulse * u);
        }
    }

    fn reaction(&self, s: &Substep, i: &JointImpulses) -> (Vec2, Real) {
        (
            (i.axial + i.spring + i.lower - i.upper) * s.inv_h * s.d.normalize_or(Vec2::X),
            0.0,
        )
    }

    fn rigid_parts(&self) -> RigidParts {
        if self.min == self.max {
            RigidParts::Along
        } else {
            RigidParts::None
        }
    }
}
