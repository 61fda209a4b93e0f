//! Convex hull of a point set: Andrew's monotone chain (O(n log n)).
//!
//! Points within [`POLYGON_RELATIVE_TOLERANCE`] × extent of each other are welded, and vertices that
//! lie on the segment between their neighbours (within the same tolerance) are dropped, so the hull
//! is strictly convex and counter-clockwise.

use crate::math::Real;
use crate::math::Vec2;

/// Relative tolerance (fraction of a point set's extent) under which two points are the same point
/// and a vertex counts as lying on the line through its neighbours. Small enough to keep every
/// real feature, large enough to reject exact duplicates produced by rounding.
const POLYGON_RELATIVE_TOLERANCE: Real = 1e-9;

/// The absolute tolerance (metres) for a point set: the relative tolerance times its extent.
pub(crate) fn point_set_tolerance(points: &[Vec2]) -> Real {
    let mut lo = Vec2::splat(Real::INFINITY);
    let mut hi = Vec2::splat(Real::NEG_INFINITY);
    for p in points {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let extent = (hi - lo)
        .max_element()
        .max(lo.abs().max_element())
        .max(hi.abs().max_element());
    POLYGON_RELATIVE_TOLERANCE * extent.max(Real::MIN_POSITIVE)
}

/// Signed distance-like turn test: positive when `c` lies to the left of the line `a → b`, scaled to
/// a distance (metres) from that line.
#[inline]
pub(crate) fn left_distance(a: Vec2, b: Vec2, c: Vec2) -> Real {
    let ab = b - a;
    let len = ab.length();
    if len == 0.0 {
        return 0.0;
    }
    ab.perp_dot(c - a) / len
}

/// Indices of the convex hull of `points`, counter-clockwise, starting at the lowest-then-leftmost
/// point. Duplicates and collinear points are dropped. Fewer than 3 indices means the points are
/// collinear (or fewer than 3 distinct ones).
pub(crate) fn convex_hull_indices(points: &[Vec2]) -> Vec<usize> {
    let tol = point_set_tolerance(points);
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&i, &j| {
        let (a, b) = (points[i], points[j]);
        a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
    });
    // Weld near-duplicates: in x-sorted order, a twin of `i` sits among the kept points whose x is
    // within `tol` of its own, which are at the end of `unique`.
    let mut unique: Vec<usize> = Vec::with_capacity(order.len());
    for &i in &order {
        let p = points[i];
        let twin = unique
            .iter()
            .rev()
            .take_while(|&&k| points[k].x >= p.x - tol)
            .any(|&k| points[k].distance(p) <= tol);
        if !twin {
            unique.push(i);
        }
    }
    if unique.len() < 3 {
        return unique;
    }
    let mut hull: Vec<usize> = Vec::with_capacity(2 * unique.len());
    // Lower chain, then upper chain.
    for pass in 0..2 {
        let start = hull.len();
        let seq: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(unique.iter())
        } else {
            Box::new(unique.iter().rev())
        };
        for &i in seq {
            while hull.len() >= start + 2 {
                let a = points[hull[hull.len() - 2]];
                let b = points[hull[hull.len() - 1]];
                if left_distance(a, points[i], b) >= -tol {
                    // b is right of or on a → i: not a strict left turn, drop it.
                    hull.pop();
                } else {
                    break;
                }
            }
            hull.push(i);
        }
        hull.pop(); // the last point of each chain starts the other
    }
    if hull.len() < 3 {
        return hull;
    }
    // Start at the lowest (then leftmost) point, for a stable order.
    let start = (0..hull.len())
        .min_by(|&i, &j| {
            let (a, b) = (points[hull[i]], points[hull[j]]);
            a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x))
        })
        .unwrap_or(0);
    hull.rotate_left(start);
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_square_with_interior_and_edge_points() {
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.5, 1.0), // on the top edge: dropped
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0), // duplicate
        ];
        let h = convex_hull_indices(&pts);
        assert_eq!(h, vec![0, 2, 3, 5]);
    }

    #[test]
    fn collinear_points_have_no_hull() {
        let pts = [
            Vec2::ZERO,
            Vec2::new(1.0, 1.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(3.0, 3.0),
        ];
        assert!(convex_hull_indices(&pts).len() < 3);
    }
}
