//! Motion of a shape over one step: where it is at each `t` in `[0, 1]`.

use crate::math::Vec2;
use crate::math::{Real, Rot, Transform};

/// A rigid motion over a step, parameterised by `t ∈ [0, 1]`.
///
/// The translation moves linearly by `linear` (metres over the step) and the angle grows linearly by
/// `angular` (radians over the step, counter-clockwise), the rotation being about the shape's local
/// origin (bodies put it at their centre of mass). `pose_at(0) == start`. No limit is put on the
/// angle: fifty turns in one step is a valid motion.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Motion {
    /// Pose at `t = 0` (local → world).
    pub start: Transform,
    /// Displacement of the local origin over the step (metres, world frame).
    pub linear: Vec2,
    /// Rotation over the step (radians, counter-clockwise).
    pub angular: Real,
}

impl Motion {
    /// A motion from `start`, moving by `linear` metres and turning by `angular` radians over the
    /// step.
    #[inline]
    #[must_use]
    pub const fn new(start: Transform, linear: Vec2, angular: Real) -> Self {
        Self {
            start,
            linear,
            angular,
        }
    }

    /// A motion that stays at `pose` (a static or sleeping shape).
    #[inline]
    #[must_use]
    pub const fn stationary(pose: Transform) -> Self {
        Self::new(pose, Vec2::ZERO, 0.0)
    }

    /// The pose at `t` (`t` is not clamped: values outside `[0, 1]` extrapolate).
    #[inline]
    #[must_use]
    pub fn pose_at(&self, t: Real) -> Transform {
        let rotation = if self.angular == 0.0 {
            self.start.rotation
        } else {
            Rot::turn(t * self.angular).mul_rot(self.start.rotation)
        };
        Transform {
            translation: self.start.translation + t * self.linear,
            rotation,
        }
    }

    /// The pose at `t = 1`.
    #[inline]
    #[must_use]
    pub fn end(&self) -> Transform {
        self.pose_at(1.0)
    }

    /// Returns `true` if the motion does not rotate (`angular == 0`): queries are then exact.
    #[inline]
    #[must_use]
    pub fn is_translation(&self) -> bool {
        self.angular == 0.0
    }

    /// Returns `true` if every number in the motion is finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.start.is_finite() && self.linear.is_finite() && self.angular.is_finite()
    }

    /// The remainder of this motion from `t` to 1, re-parameterised over `[0, 1]`: the motion a
    /// body continues with after an impact at `t`.
    #[must_use]
    pub fn remainder_from(&self, t: Real) -> Self {
        let rest = 1.0 - t;
        Self::new(self.pose_at(t), self.linear * rest, self.angular * rest)
    }
}

/// How far (metres) a box around a shape's motion (a [`Motion`], or what is left of one) must
/// reach past the union of the shape's boxes at its two ends, for a turn of `θ = turn` radians
/// over it by a shape whose core points lie within `r = core_reach` metres of the centre it
/// turns about: `r·min(θ²/8, 2)`.
///
/// Why that is enough: the centre moves along a line and the angle turns evenly, so at fraction
/// `s` of the way a core point `q` (about the centre) is at `c(s) + R(sθ)q`, and the point moving
/// evenly from its place at the start to its place at the end is at `c(s) + (1−s)q + sR(θ)q`.
/// The centre's motion cancels from their difference `g(s) = R(sθ)q − (1−s)q − sR(θ)q`, which is
/// 0 at both ends and has `|g''| = |q|θ²`, so `|g(s)| ≤ |q|θ²·s(1−s)/2 ≤ |q|θ²/8` (the
/// interpolation-error bound of the swept hulls, `docs/continuous.md`, "Swept hulls"), and never
/// more than `2|q|`. The evenly moving point lies in the union of the end boxes (a box is convex);
/// a polygon's box is its vertices' box, and the outline moves under a turn only through its core
/// (the rounding is the same disc about each core point at every pose). The unit test below checks
/// this against sampled poses.
pub(crate) fn turn_bulge(turn: Real, core_reach: Real) -> Real {
    (0.125 * turn * turn).min(2.0) * core_reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;
    use approx::assert_relative_eq;

    #[test]
    fn pose_interpolates_translation_and_angle() {
        let m = Motion::new(
            Transform::new(Vec2::new(1.0, 0.0), 0.5),
            Vec2::new(2.0, -4.0),
            3.0,
        );
        assert_eq!(m.pose_at(0.0).translation, m.start.translation);
        let mid = m.pose_at(0.5);
        assert_relative_eq!(mid.translation, Vec2::new(2.0, -2.0), epsilon = 1e-15);
        assert_relative_eq!(mid.angle(), 2.0, epsilon = 1e-12);
        // Rotation is about the local origin: the origin follows the translation only.
        assert_relative_eq!(mid.transform_point(Vec2::ZERO), mid.translation);
        let rest = m.remainder_from(0.25);
        assert_relative_eq!(rest.end().translation, m.end().translation, epsilon = 1e-12);
        assert_relative_eq!(rest.end().angle(), m.end().angle(), epsilon = 1e-12);
    }

    /// `turn_bulge` against brute force: for random shapes (rounded polygons, capsules, discs off
    /// centre), start poses, displacements and turns up to ±12 rad, the shape's box at 2,001
    /// evenly spaced instants of the segment lies within the union of the end boxes grown by it;
    /// and some case needs more than four fifths of it (the bound is close to tight).
    #[test]
    fn swept_boxes_hold_every_pose_of_a_turning_segment() {
        let mut word = crate::math::xorshift64(0x005e_ed0f_5a7e_b0c5);
        let mut uniform =
            |lo: Real, hi: Real| lo + (hi - lo) * (word() >> 11) as Real / (1u64 << 53) as Real;
        let mut worst: Real = 0.0;
        for case in 0..400 {
            let shape = match case % 3 {
                0 => {
                    let (w, h) = (uniform(0.05, 2.0), uniform(0.05, 2.0));
                    let offset = Vec2::new(uniform(-1.0, 1.0), uniform(-1.0, 1.0));
                    let corners =
                        [(-w, -h), (w, -h), (w, h), (-w, h)].map(|(x, y)| Vec2::new(x, y) + offset);
                    Shape::rounded_polygon(&corners, uniform(0.0, 0.3)).unwrap()
                }
                1 => Shape::capsule(
                    Vec2::new(uniform(-2.0, 2.0), uniform(-2.0, 2.0)),
                    Vec2::new(uniform(-2.0, 2.0), uniform(-2.0, 2.0)),
                    uniform(0.01, 0.5),
                )
                .unwrap(),
                _ => Shape::capsule(
                    Vec2::new(uniform(-1.0, 1.0), uniform(-1.0, 1.0)),
                    Vec2::new(uniform(-1.0, 1.0), uniform(-1.0, 1.0)) * 1e-3,
                    uniform(0.05, 1.0),
                )
                .unwrap(),
            };
            let (centre, angle) = (
                Vec2::new(uniform(-5.0, 5.0), uniform(-5.0, 5.0)),
                uniform(-3.2, 3.2),
            );
            let lin = Vec2::new(uniform(-3.0, 3.0), uniform(-3.0, 3.0));
            let turn = if case % 4 == 0 {
                uniform(-12.0, 12.0)
            } else {
                uniform(-1.0, 1.0)
            };
            let pose = |s: Real| Transform::new(centre + lin * s, angle + turn * s);
            let growth = turn_bulge(turn, shape.core_reach());
            let hull = shape.aabb(&pose(0.0)).union(&shape.aabb(&pose(1.0)));
            let allowed = hull.grown(growth + 1e-12);
            for k in 0..=2000 {
                let at = shape.aabb(&pose(k as Real / 2000.0));
                assert!(
                    allowed.contains(&at),
                    "case {case}: turn {turn}, box at {k}/2000 {at:?} leaves {allowed:?}"
                );
                let past = (hull.min - at.min).max(at.max - hull.max).max_element();
                if growth > 0.0 {
                    worst = worst.max(past / growth);
                }
            }
        }
        assert!(worst > 0.8, "the growth is never nearly needed: {worst}");
    }
}
