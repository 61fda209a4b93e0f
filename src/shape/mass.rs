//! Mass properties (area, mass, centre of mass, rotational inertia) of rounded convex cores.
//!
//! Every convex shape here is a *core* (1 point for a circle, 2 for a capsule, n for a polygon)
//! swept by a disc of the rounding radius. Its area splits exactly into the core polygon, one
//! `length × radius` rectangle outside each edge and one circular sector at each vertex (the sector
//! angles sum to 2π), so one formula serves circles, capsules and rounded polygons with no
//! approximation. The polygon part follows the triangle-fan integration of Box2D's
//! `b2ComputePolygonMass`, taken about the first vertex for precision.

use crate::math::Real;
use crate::math::Vec2;

/// Mass properties of a shape for a given density, in the shape's local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MassProperties {
    /// Area (m²).
    pub area: Real,
    /// Mass (kg) = density × area.
    pub mass: Real,
    /// Centre of mass in the shape's local frame (metres).
    pub center: Vec2,
    /// Rotational inertia about the centre of mass (kg·m²).
    pub inertia: Real,
}

impl MassProperties {
    /// Rotational inertia about the shape's local origin (kg·m²), by the parallel-axis theorem.
    #[inline]
    #[must_use]
    pub fn inertia_about_origin(&self) -> Real {
        self.inertia + self.mass * self.center.length_squared()
    }
}

/// Area, first moment and polar second moment of a region, accumulated about a reference point.
#[derive(Clone, Copy, Default)]
pub(crate) struct MomentSum {
    area: Real,
    /// Σ area × (centroid − reference).
    first: Vec2,
    /// Σ polar second moment about the reference point.
    second: Real,
}

impl MomentSum {
    /// Adds a region of the given area, centroid offset from the reference, and polar second moment
    /// about its own centroid.
    #[inline]
    fn add(&mut self, area: Real, centroid_offset: Vec2, own_second: Real) {
        self.area += area;
        self.first += area * centroid_offset;
        self.second += own_second + area * centroid_offset.length_squared();
    }

    /// Final properties for a density, with the reference point at `reference` (local frame).
    pub(crate) fn finish(&self, reference: Vec2, density: Real) -> MassProperties {
        let c = if self.area > 0.0 {
            self.first / self.area
        } else {
            Vec2::ZERO
        };
        MassProperties {
            area: self.area,
            mass: density * self.area,
            center: reference + c,
            inertia: density * (self.second - self.area * c.length_squared()),
        }
    }
}

/// Moments of the rounded core (vertices counter-clockwise with outward normals `normals[i]` of edge
/// `i → i+1`) about `vertices[0]`.
pub(crate) fn rounded_core_moments(vertices: &[Vec2], normals: &[Vec2], radius: Real) -> MomentSum {
    let n = vertices.len();
    let r0 = vertices[0];
    let mut sum = MomentSum::default();
    // Core polygon: triangle fan from vertex 0.
    if n >= 3 {
        for i in 1..n - 1 {
            let e1 = vertices[i] - r0;
            let e2 = vertices[i + 1] - r0;
            let d = e1.perp_dot(e2);
            let area = 0.5 * d;
            let int_x2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x;
            let int_y2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y;
            let about_ref = (0.25 / 3.0) * d * (int_x2 + int_y2);
            let c = (e1 + e2) / 3.0;
            // Store as own-centroid moment so `add` can shift it back.
            sum.add(area, c, about_ref - area * c.length_squared());
        }
    }
    if radius > 0.0 {
        // One rectangle outside each edge.
        if n >= 2 {
            for i in 0..n {
                let a = vertices[i];
                let b = vertices[(i + 1) % n];
                let len = a.distance(b);
                let area = len * radius;
                let c = 0.5 * (a + b) + 0.5 * radius * normals[i] - r0;
                sum.add(area, c, area * (len * len + radius * radius) / 12.0);
            }
        }
        // One sector at each vertex, spanning the turn between its two edge normals.
        for i in 0..n {
            let theta = if n == 1 {
                core::f64::consts::TAU
            } else {
                let n_prev = normals[(i + n - 1) % n];
                let n_next = normals[i];
                let t = crate::trig::atan2(n_prev.perp_dot(n_next), n_prev.dot(n_next));
                if t <= 0.0 {
                    // Anti-parallel normals (a segment's ends): a half disc.
                    t + core::f64::consts::TAU
                } else {
                    t
                }
            };
            let area = 0.5 * theta * radius * radius;
            let bisector = if n == 1 {
                Vec2::ZERO
            } else {
                let n_prev = normals[(i + n - 1) % n];
                let b = n_prev + normals[i];
                // For a half disc the normals cancel: the bisector is along the edge, outward.
                b.try_normalize()
                    .unwrap_or_else(|| (vertices[i] - vertices[(i + 1) % n]).normalize())
            };
            let dist = 4.0 * radius * crate::trig::sin(0.5 * theta) / (3.0 * theta);
            let apex_second = 0.25 * theta * (radius * radius) * (radius * radius);
            let own = apex_second - area * dist * dist;
            sum.add(area, vertices[i] + dist * bisector - r0, own);
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use core::f64::consts::PI;

    #[test]
    fn disc() {
        let m =
            rounded_core_moments(&[Vec2::new(1.0, 2.0)], &[], 0.5).finish(Vec2::new(1.0, 2.0), 2.0);
        assert_relative_eq!(m.area, PI * 0.25, epsilon = 1e-12);
        assert_relative_eq!(m.mass, 2.0 * PI * 0.25, epsilon = 1e-12);
        assert_relative_eq!(m.center, Vec2::new(1.0, 2.0), epsilon = 1e-12);
        assert_relative_eq!(m.inertia, 0.5 * m.mass * 0.25, epsilon = 1e-12);
    }

    #[test]
    fn unit_square() {
        let v = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(0.0, 1.0),
        ];
        let n = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
        let m = rounded_core_moments(&v, &n, 0.0).finish(v[0], 1.0);
        assert_relative_eq!(m.area, 2.0, epsilon = 1e-12);
        assert_relative_eq!(m.center, Vec2::new(1.0, 0.5), epsilon = 1e-12);
        assert_relative_eq!(m.inertia, 2.0 * (4.0 + 1.0) / 12.0, epsilon = 1e-12);
    }

    #[test]
    fn stadium_matches_hand_formula() {
        // Capsule: segment of length 2 along x, radius 0.5.
        let (l, r) = (2.0, 0.5);
        let v = [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)];
        let n = [Vec2::NEG_Y, Vec2::Y];
        let m = rounded_core_moments(&v, &n, r).finish(v[0], 1.0);
        let rect_area = l * 2.0 * r;
        let disc_area = PI * r * r;
        assert_relative_eq!(m.area, rect_area + disc_area, epsilon = 1e-12);
        assert_relative_eq!(m.center, Vec2::ZERO, epsilon = 1e-12);
        // Rectangle about centre + two half discs (centroids at ±(l/2 + 4r/3π)).
        let rect_i = rect_area * (l * l + 4.0 * r * r) / 12.0;
        let half = 0.5 * disc_area;
        let d = 4.0 * r / (3.0 * PI);
        let half_own = half * r * r / 2.0 - half * d * d;
        let half_i = half_own + half * (l / 2.0 + d) * (l / 2.0 + d);
        assert_relative_eq!(m.inertia, rect_i + 2.0 * half_i, epsilon = 1e-12);
    }
}
