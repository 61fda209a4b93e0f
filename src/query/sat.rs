//! The Separating Axis Theorem on rounded convex cores.
//!
//! Two convex polygons are disjoint exactly when some edge normal of one of them separates their
//! projections (in 2D the Minkowski difference of two polygons has only those normals as faces).
//! [`max_separation`] finds, for one polygon's edges, the edge whose normal separates the other
//! polygon the most: its separation is the signed face distance, and the maximum over both
//! polygons is the negated penetration depth when they overlap (the MTV). [`cores_intersect`] is
//! the boolean test: one projection per distinct axis direction (a box has two), early exit on the
//! first separating axis, then the exact core distance for rounded shapes whose cores are apart.

use super::distance::{core_distance, point_core};
use crate::math::Real;
use crate::math::Vec2;
use crate::shape::Core;

/// Cosine above which two axis directions are treated as the same line (parallel or
/// anti-parallel) and projected only once.
const PARALLEL_AXIS_COS: Real = 1.0 - 1e-12;

/// The edge of `a` whose outward normal separates `b` the most, and that separation (metres):
/// `max_i min_j nᵢ·(b_j − a_i)`. Both cores in the same frame; `a` has at least 2 points.
#[inline]
pub(crate) fn max_separation(a: &Core<'_>, b: &Core<'_>) -> (usize, Real) {
    let mut best = 0;
    let mut best_s = Real::NEG_INFINITY;
    for (i, (&n, &p)) in a.normals.iter().zip(a.points).enumerate() {
        // Plain comparisons, not `f64::min`: inputs are finite, and the NaN-aware `min` costs
        // several instructions per call in this innermost loop.
        let mut s = Real::INFINITY;
        for &q in b.points {
            let d = n.dot(q - p);
            if d < s {
                s = d;
            }
        }
        if s > best_s {
            best_s = s;
            best = i;
        }
    }
    (best, best_s)
}

/// Returns `true` if two cores whose best face separation is `face_separation` are nevertheless
/// apart. Face normals decide for every pair except two segment cores on one line: their Minkowski
/// difference is itself a segment, whose end normals (the segment's own direction) are not among
/// the face normals, so that axis is tested here.
#[inline]
pub(crate) fn cores_apart(a: &Core<'_>, b: &Core<'_>, face_separation: Real) -> bool {
    if face_separation > 0.0 {
        return true;
    }
    if a.points.len() == 2 && b.points.len() == 2 {
        let axis = (a.points[1] - a.points[0]).normalize();
        let (a_lo, a_hi) = project(a.points, axis);
        let (b_lo, b_hi) = project(b.points, axis);
        return b_lo > a_hi || a_lo > b_hi;
    }
    false
}

/// Projects `points` onto `axis`: (min, max).
#[inline]
pub(crate) fn project(points: &[Vec2], axis: Vec2) -> (Real, Real) {
    let mut lo = Real::INFINITY;
    let mut hi = Real::NEG_INFINITY;
    for &p in points {
        let d = axis.dot(p);
        if d < lo {
            lo = d;
        }
        if d > hi {
            hi = d;
        }
    }
    (lo, hi)
}

/// Returns `true` if the axis was already tested (same line as an earlier one).
#[inline]
fn seen(tested: &[Vec2], axis: Vec2) -> bool {
    tested
        .iter()
        .any(|t| t.dot(axis).abs() >= PARALLEL_AXIS_COS)
}

/// Boolean intersection of two rounded convex cores given in the same frame (touching counts).
pub(crate) fn cores_intersect(a: &Core<'_>, b: &Core<'_>) -> bool {
    let margin = a.radius + b.radius;
    match (a.points.len(), b.points.len()) {
        (1, 1) => a.points[0].distance_squared(b.points[0]) <= margin * margin,
        (_, 1) => point_core(a.points, a.normals, b.points[0]).distance <= margin,
        (1, _) => point_core(b.points, b.normals, a.points[0]).distance <= margin,
        _ => {
            // Distinct axes of both cores, each projected once, early exit on a gap.
            let mut tested = [Vec2::ZERO; 2 * crate::MAX_POLYGON_VERTICES];
            let mut count = 0;
            for &axis in a.normals.iter().chain(b.normals) {
                if seen(&tested[..count], axis) {
                    continue;
                }
                // Cores of any size reach here (swept hulls too): remember as many axes as fit.
                if count < tested.len() {
                    tested[count] = axis;
                    count += 1;
                }
                let (a_lo, a_hi) = project(a.points, axis);
                let (b_lo, b_hi) = project(b.points, axis);
                if b_lo - a_hi > margin || a_lo - b_hi > margin {
                    return false;
                }
            }
            if margin == 0.0 {
                return true;
            }
            // The rounded shapes may still be apart in a vertex–vertex region: if the cores are
            // separated, compare their exact distance with the summed radii.
            let (_, sa) = max_separation(a, b);
            let (_, sb) = max_separation(b, a);
            if !cores_apart(a, b, sa.max(sb)) {
                return true;
            }
            core_distance(a, b).distance <= margin
        }
    }
}
