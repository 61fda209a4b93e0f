//! Capsules (stadiums): a segment core swept by a radius.
//!
//! Treated by the kernels as a two-vertex rounded polygon, as in Box2D v3, so one pair function
//! serves capsules and polygons alike.

use super::error::{check_length, check_points_finite, check_positive, ShapeError};
use super::hull::point_set_tolerance;
use super::mass::{rounded_core_moments, MassProperties};
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};

/// A capsule: every point within `radius` metres of the segment from `a` to `b` (local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::ShapeSpec", into = "super::ShapeSpec")
)]
#[repr(C)]
pub struct Capsule {
    // In this order (`repr(C)`): the radius next to the segment, in the first cache line.
    pub(crate) radius: Real,
    pub(crate) points: [Vec2; 2],
    /// Outward normals of the two "edges" a→b and b→a of the segment core.
    pub(crate) normals: [Vec2; 2],
}

impl Capsule {
    /// A capsule around the segment `a`–`b` (local frame, metres) with `radius` metres.
    ///
    /// Errors: non-finite input, radius not positive, or `a == b` (use a circle instead).
    pub fn new(a: Vec2, b: Vec2, radius: Real) -> Result<Self, ShapeError> {
        check_length("radius", radius)?;
        Self::with_radius(a, b, radius)
    }

    /// The segment `a`–`b` (local frame, metres): a capsule of radius 0, for static terrain, thin
    /// walls and chains. It has no area, so no mass: give it to static or kinematic bodies, or to
    /// a dynamic body as a massless extra shape.
    ///
    /// Errors: non-finite input or `a == b`.
    pub fn segment(a: Vec2, b: Vec2) -> Result<Self, ShapeError> {
        Self::with_radius(a, b, 0.0)
    }

    /// A capsule or segment with a radius already checked (≥ 0).
    pub(crate) fn with_radius(a: Vec2, b: Vec2, radius: Real) -> Result<Self, ShapeError> {
        check_points_finite(&[a, b])?;
        if a.distance(b) <= point_set_tolerance(&[a, b]) {
            return Err(ShapeError::ZeroLength);
        }
        if a.distance(b) < crate::constants::MIN_LENGTH {
            return Err(ShapeError::OutOfRange {
                what: "the segment's length".into(),
                value: a.distance(b),
                expected: "at least 1e-4 m (MIN_LENGTH)",
            });
        }
        let d = (b - a).normalize();
        let n = Vec2::new(d.y, -d.x);
        Ok(Self {
            points: [a, b],
            normals: [n, -n],
            radius,
        })
    }

    /// First centre of the segment (local frame, metres).
    #[inline]
    #[must_use]
    pub fn a(&self) -> Vec2 {
        self.points[0]
    }

    /// Second centre of the segment (local frame, metres).
    #[inline]
    #[must_use]
    pub fn b(&self) -> Vec2 {
        self.points[1]
    }

    /// The radius (metres).
    #[inline]
    #[must_use]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The two segment ends as a core.
    #[inline]
    pub(crate) fn core_points(&self) -> &[Vec2] {
        &self.points
    }

    /// The outward normals of the core's two sides.
    #[inline]
    pub(crate) fn core_normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// The bounding box at `xf` (world metres).
    #[must_use]
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        let (a, b) = (
            xf.transform_point(self.points[0]),
            xf.transform_point(self.points[1]),
        );
        Aabb::new(a, b).grown(self.radius)
    }

    /// Mass properties for `density` kg/m² (rectangle plus two half discs, exact).
    pub fn mass_properties(&self, density: Real) -> Result<MassProperties, ShapeError> {
        check_positive("density", density)?;
        Ok(
            rounded_core_moments(&self.points, &self.normals, self.radius)
                .finish(self.points[0], density),
        )
    }

    /// The capsule flipped by the per-axis `scale` (±1 each).
    pub(crate) fn mirrored(&self, scale: Vec2) -> Self {
        Self::with_radius(self.points[0] * scale, self.points[1] * scale, self.radius)
            .expect("mirroring keeps a valid capsule valid")
    }
}
