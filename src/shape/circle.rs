//! Circles (discs): a one-point core swept by a radius.

use super::error::{check_length, check_points_finite, check_positive, ShapeError};
use super::mass::{rounded_core_moments, MassProperties};
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};

/// A solid disc of `radius` metres centred at `center` in the local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::ShapeSpec", into = "super::ShapeSpec")
)]
pub struct Circle {
    pub(crate) center: Vec2,
    pub(crate) radius: Real,
}

impl Circle {
    /// A disc of `radius` metres centred at the local origin. Errors on a radius that is not finite
    /// and positive.
    pub fn new(radius: Real) -> Result<Self, ShapeError> {
        Self::with_center(Vec2::ZERO, radius)
    }

    /// A disc of `radius` metres centred at `center` (local frame, metres).
    pub fn with_center(center: Vec2, radius: Real) -> Result<Self, ShapeError> {
        check_length("radius", radius)?;
        check_points_finite(&[center])?;
        Ok(Self { center, radius })
    }

    /// The centre in the local frame (metres).
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The radius (metres).
    #[inline]
    #[must_use]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The centre as a one-point core (for the kernels, which treat every shape as a rounded core).
    #[inline]
    pub(crate) fn core_points(&self) -> &[Vec2] {
        core::slice::from_ref(&self.center)
    }

    /// The bounding box at `xf` (world metres).
    #[must_use]
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        Aabb::from_center_half_extents(xf.transform_point(self.center), Vec2::splat(self.radius))
    }

    /// Mass properties for `density` kg/m².
    pub fn mass_properties(&self, density: Real) -> Result<MassProperties, ShapeError> {
        check_positive("density", density)?;
        Ok(rounded_core_moments(self.core_points(), &[], self.radius).finish(self.center, density))
    }

    /// The disc flipped by the per-axis `scale` (±1 each): only its centre moves.
    pub(crate) fn mirrored(&self, scale: Vec2) -> Self {
        Self {
            center: self.center * scale,
            radius: self.radius,
        }
    }
}
