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

#[cfg(test)]
mod tests {
    use super::*;
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
}
