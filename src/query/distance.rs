//! Exact closest features between rounded cores: point–core and core–core distance.
//!
//! Point vs convex core: take the edge of maximum separation `nᵢ·(c − vᵢ)`; if the point projects
//! outside that edge, the closest feature is the edge's nearer vertex. This is exact: for a point in
//! the normal cone of vertex `v`, every non-adjacent edge normal is farther in angle from the
//! direction `c − v` than one of `v`'s two edge normals, so the maximum lands on an edge of `v`. It is
//! also the polygon–circle SAT axis that naive SAT misses: the axis from the circle centre to the
//! nearest vertex.
//!
//! Core vs core (both separated): the closest pair of two disjoint convex polygons always has a
//! vertex on at least one side, so the distance is the least point–core distance over the vertices
//! of both cores. A lower bound along one direction skips the vertices that cannot be closest, so
//! only a few are measured.

use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::{Core, Shape};

/// Closest features of a point and a core (the core's radius is not applied).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointCoreResult {
    /// Signed distance (metres) from the core polygon to the point: negative inside.
    pub distance: Real,
    /// Unit direction from the core toward the point (for an inside point, the exit face normal).
    pub normal: Vec2,
    /// Closest point on the core boundary (metres, same frame as the input).
    pub closest: Vec2,
    /// Feature of the core: the edge index, or `0x80 | vertex` for a vertex region.
    pub feature: u8,
}

/// Distance from `c` to the convex core `points`/`normals` (at least 2 points), same frame.
/// Always inlined: a polygon–circle query is little more than this loop (measured, 10% of the
/// query's time went to the call).
#[inline(always)]
pub(crate) fn point_core(points: &[Vec2], normals: &[Vec2], c: Vec2) -> PointCoreResult {
    let n = points.len();
    let mut best = 0;
    let mut best_s = Real::NEG_INFINITY;
    for i in 0..n {
        let s = normals[i].dot(c - points[i]);
        if s > best_s {
            best_s = s;
            best = i;
        }
    }
    let next = if best + 1 == n { 0 } else { best + 1 };
    let v1 = points[best];
    let v2 = points[next];
    // A segment core (two points) has no inside: a point on its line, where rounding can make
    // both sides' separations slightly negative, may still lie past an end, in a vertex region.
    // For a polygon, `>=`: a point on an edge's line past its end is in a vertex region too.
    if best_s >= 0.0 || n == 2 {
        if (c - v1).dot(v2 - v1) < 0.0 {
            return vertex_result(c, v1, best);
        }
        if (c - v2).dot(v1 - v2) < 0.0 {
            return vertex_result(c, v2, next);
        }
    }
    PointCoreResult {
        distance: best_s,
        normal: normals[best],
        closest: c - best_s * normals[best],
        feature: best as u8,
    }
}

#[inline]
fn vertex_result(c: Vec2, v: Vec2, index: usize) -> PointCoreResult {
    let d = c - v;
    let len = d.length();
    PointCoreResult {
        distance: len,
        normal: d / len,
        closest: v,
        feature: 0x80 | index as u8,
    }
}

/// Closest points of two disjoint convex cores (each with at least 2 points), same frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreDistance {
    /// Distance between the cores (metres).
    pub distance: Real,
    /// Closest point on core A.
    pub point_a: Vec2,
    /// Closest point on core B.
    pub point_b: Vec2,
}

/// Exact distance between two separated convex cores given in the same frame.
///
/// The least point–core distance over the vertices of both cores, in the order B's vertices then
/// A's, the first least one kept. A vertex whose lower bound already exceeds a distance found
/// beforehand, or the best one so far, is skipped: for any unit `u`, a point `q` lies at least
/// `u·q − max(u·A)` from A (and `p` at least `min(u·B) − u·p` from B). The beforehand distance is
/// that of B's vertex deepest toward A, with `u` the direction from A to it, so only the vertices
/// near the closest features are measured (two octagons at their time of impact: 3.6 of 16 on
/// average), and the answer is the full loop's to the bit: a skipped vertex is farther than the
/// answer.
pub(crate) fn core_distance(a: &Core<'_>, b: &Core<'_>) -> CoreDistance {
    // A first distance and a direction to bound with: B's vertex deepest toward A (along the
    // line between the cores' vertex means), measured against A.
    let mean = |points: &[Vec2]| points.iter().copied().sum::<Vec2>() / points.len() as Real;
    let toward_b = mean(b.points) - mean(a.points);
    let mut first = 0;
    let mut first_d = toward_b.dot(b.points[0]);
    for (i, &q) in b.points.iter().enumerate().skip(1) {
        let d = toward_b.dot(q);
        if d < first_d {
            (first, first_d) = (i, d);
        }
    }
    let probe = point_core(a.points, a.normals, b.points[first]);
    let u = probe.normal;
    let (mut a_hi, mut a_scale) = (Real::NEG_INFINITY, 0.0 as Real);
    for &p in a.points {
        let d = u.dot(p);
        a_hi = a_hi.max(d);
        a_scale = a_scale.max(d.abs());
    }
    let (mut b_lo, mut b_scale) = (Real::INFINITY, 0.0 as Real);
    for &q in b.points {
        let d = u.dot(q);
        b_lo = b_lo.min(d);
        b_scale = b_scale.max(d.abs());
    }
    // Rounding in the bounds and in `point_core` (far below this at any sane coordinate).
    let slack = 1e-9 + 1e-12 * (a_scale + b_scale);
    // A vertex is measured unless its bound exceeds the probe's distance or the best so far:
    // either way it could not replace the best (only a strictly smaller distance does).
    let mut cutoff = probe.distance + slack;
    let mut best = CoreDistance {
        distance: Real::INFINITY,
        point_a: Vec2::ZERO,
        point_b: Vec2::ZERO,
    };
    for (i, &q) in b.points.iter().enumerate() {
        if u.dot(q) - a_hi > cutoff {
            continue;
        }
        let r = if i == first {
            probe
        } else {
            point_core(a.points, a.normals, q)
        };
        if r.distance < best.distance {
            best = CoreDistance {
                distance: r.distance,
                point_a: r.closest,
                point_b: q,
            };
            cutoff = cutoff.min(best.distance + slack);
        }
    }
    for &p in a.points {
        if b_lo - u.dot(p) > cutoff {
            continue;
        }
        let r = point_core(b.points, b.normals, p);
        if r.distance < best.distance {
            best = CoreDistance {
                distance: r.distance,
                point_a: p,
                point_b: r.closest,
            };
            cutoff = cutoff.min(best.distance + slack);
        }
    }
    best
}

/// The distance between two placed shapes and the closest points ([`distance`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance {
    /// Gap between the shapes (metres); 0 when they touch or overlap.
    pub distance: Real,
    /// The point of A closest to B (world metres); for overlapping shapes, a contact point.
    pub point_a: Vec2,
    /// The point of B closest to A (world metres); for overlapping shapes, the same point.
    pub point_b: Vec2,
    /// Unit vector from A toward B (world): along `point_b − point_a` when apart, the contact
    /// normal (minimum translation direction) when overlapping.
    pub normal: Vec2,
}

/// Distance and closest points of shapes `a` at `xa` and `b` at `xb` (world frame). Exact: the
/// distance between the rounded cores' closest features (a vertex of one against a vertex or edge
/// of the other), less the radii; for compounds, the nearest pair of pieces. Overlapping shapes
/// give distance 0 with their contact point and normal ([`contact`](crate::query::contact)).
#[must_use]
pub fn distance(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Distance {
    if let Some(c) = crate::query::contact(a, xa, b, xb) {
        let pts = c.points();
        let p = pts.iter().copied().sum::<Vec2>() / pts.len().max(1) as Real;
        return Distance {
            distance: 0.0,
            point_a: p,
            point_b: p,
            normal: c.normal,
        };
    }
    let mut best: Option<Distance> = None;
    crate::query::visit_pieces(a, xa, &mut |pa, xpa, _| {
        crate::query::visit_pieces(b, xb, &mut |pb, xpb, _| {
            let d = convex_distance(pa, xpa, pb, xpb);
            if best.is_none_or(|best| d.distance < best.distance) {
                best = Some(d);
            }
        });
    });
    best.expect("every shape has a piece")
}

/// [`distance`] of two disjoint convex shapes.
fn convex_distance(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Distance {
    let (ca, cb) = (
        a.core().expect("pieces are convex"),
        b.core().expect("pieces are convex"),
    );
    // Both cores in world coordinates.
    let world = |core: &Core<'_>, x: &Transform| {
        let points: Vec<Vec2> = core.points.iter().map(|p| x.transform_point(*p)).collect();
        let normals: Vec<Vec2> = core
            .normals
            .iter()
            .map(|n| x.transform_vector(*n))
            .collect();
        (points, normals)
    };
    let ((pa, na), (pb, nb)) = (world(&ca, xa), world(&cb, xb));
    // The closest features of two disjoint convex cores include a vertex of one of them: each
    // vertex against the other core (a disc's core is its one point).
    let closest_on = |points: &[Vec2], normals: &[Vec2], q: Vec2| -> (Real, Vec2) {
        if points.len() == 1 {
            (q.distance(points[0]), points[0])
        } else {
            let r = point_core(points, normals, q);
            (r.distance, r.closest)
        }
    };
    let mut d = CoreDistance {
        distance: Real::INFINITY,
        point_a: Vec2::ZERO,
        point_b: Vec2::ZERO,
    };
    for &q in &pb {
        let (dist, on_a) = closest_on(&pa, &na, q);
        if dist < d.distance {
            d = CoreDistance {
                distance: dist,
                point_a: on_a,
                point_b: q,
            };
        }
    }
    for &p in &pa {
        let (dist, on_b) = closest_on(&pb, &nb, p);
        if dist < d.distance {
            d = CoreDistance {
                distance: dist,
                point_a: p,
                point_b: on_b,
            };
        }
    }
    let gap = d.point_b - d.point_a;
    let length = gap.length();
    let normal = if length > 0.0 { gap / length } else { Vec2::X };
    Distance {
        distance: (d.distance - ca.radius - cb.radius).max(0.0),
        point_a: d.point_a + ca.radius * normal,
        point_b: d.point_b - cb.radius * normal,
        normal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use proptest::prelude::*;

    /// The reference for [`core_distance`]: every vertex of B against A, then every vertex of A
    /// against B, the first least distance kept (no vertex skipped).
    fn every_vertex_distance(a: &Core<'_>, b: &Core<'_>) -> CoreDistance {
        let of_b = b.points.iter().map(|&q| {
            let r = point_core(a.points, a.normals, q);
            (r.distance, r.closest, q)
        });
        let of_a = a.points.iter().map(|&p| {
            let r = point_core(b.points, b.normals, p);
            (r.distance, p, r.closest)
        });
        let mut candidates = of_b.chain(of_a);
        let first = candidates.next().expect("cores have points");
        // The first of the least (a later equal distance does not replace it).
        let (distance, point_a, point_b) =
            candidates.fold(first, |best, c| if c.0 < best.0 { c } else { best });
        CoreDistance {
            distance,
            point_a,
            point_b,
        }
    }

    /// Shapes with cores of 2 to 16 points: segments and capsules, boxes, regular polygons and
    /// irregular hulls, sizes 1 cm to 10 m.
    fn core_shape() -> impl Strategy<Value = Shape> {
        let size = 0.01..10.0f64;
        prop_oneof![
            (size.clone(), 0.001..3.0f64).prop_map(|(l, r)| Shape::capsule(
                Vec2::new(-l, 0.0),
                Vec2::new(l, 0.0),
                (r * l).max(0.001)
            )
            .expect("valid")),
            (size.clone(), 0.05..1.0f64)
                .prop_map(|(w, k)| Shape::rectangle(w, w * k).expect("valid")),
            (3usize..=16, size.clone())
                .prop_map(|(n, r)| Shape::regular_polygon(n, r).expect("valid")),
            (
                prop::collection::vec((-1.0..1.0f64, -1.0..1.0f64), 3..12),
                size
            )
                .prop_filter_map("a hull with an area", |(points, scale)| {
                    let points: Vec<Vec2> = points
                        .iter()
                        .map(|&(x, y)| Vec2::new(x, y) * scale)
                        .collect();
                    Shape::convex_hull(&points).ok()
                }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The skipping distance is the full loop's to the bit, for cores far apart, close, and
        /// a hair apart (gaps 1e-12 m to 20 m, where ties between vertices are common), at
        /// coordinates up to 10 km from the origin.
        #[test]
        fn core_distance_is_the_every_vertex_distance_to_the_bit(
            sa in core_shape(),
            sb in core_shape(),
            turn in -4.0..4.0f64,
            direction in -4.0..4.0f64,
            gap_exponent in -12.0..1.3f64,
            far in prop::bool::ANY,
            origin in (-1e4..1e4f64, -1e4..1e4f64),
            snap in 0u8..3,
        ) {
            let (ca, cb) = (sa.core().expect("convex"), sb.core().expect("convex"));
            // Turns that are multiples of a quarter turn put edges exactly parallel (ties).
            let turn = match snap {
                0 => turn,
                1 => (turn * 2.0).round() * core::f64::consts::FRAC_PI_2,
                _ => 0.0,
            };
            let u = Vec2::from_angle(direction);
            let gap = Real::powf(10.0, gap_exponent);
            let origin = Vec2::new(origin.0, origin.1);
            // B placed apart along u beyond both reaches, then brought back along u until its
            // core is `gap` from A's (the distance falls by at most the move).
            let reach = sa.bounding_radius() + sb.bounding_radius();
            let placed = |offset: Real| Transform::new(origin + u * offset, turn);
            let xa = Transform::new(origin, 0.0);
            let (moved_a, far_b) = (
                crate::query::manifold::with_moved(&ca, &xa, |c| {
                    (c.points.to_vec(), c.normals.to_vec())
                }),
                placed(2.0 * reach + 1.0),
            );
            let a = Core { points: &moved_a.0, normals: &moved_a.1, radius: ca.radius, axes: ca.axes };
            let start = crate::query::manifold::with_moved(&cb, &far_b, |b| {
                every_vertex_distance(&a, b).distance
            });
            let offset = if far { 2.0 * reach + 1.0 } else { 2.0 * reach + 1.0 - (start - gap) };
            crate::query::manifold::with_moved(&cb, &placed(offset), |b| {
                let expected = every_vertex_distance(&a, b);
                prop_assume!(expected.distance > 0.0);
                let got = core_distance(&a, b);
                prop_assert_eq!(got.distance.to_bits(), expected.distance.to_bits());
                prop_assert_eq!(got.point_a, expected.point_a);
                prop_assert_eq!(got.point_b, expected.point_b);
                Ok(())
            })?;
        }
    }

    #[test]
    fn a_point_on_a_segments_line_past_its_end_is_its_ends_distance_away() {
        // A box corner that lies on a tilted segment's line, 0.41 m past its end: rounding puts
        // it a hair behind both sides (the case a character mover's leg check found, where the
        // segment's line passed exactly through the box's corner).
        let points = [
            Vec2::new(-0.06124542517411191, -0.7570652940023723),
            Vec2::new(-1.694421126244368, -2.1687053846152757),
        ];
        let n = Vec2::new(-0.6539303027299218, 0.7565547958816684);
        let corner = Vec2::new(0.2506395600811933, -0.48748661452649933);
        let r = point_core(&points, &[n, -n], corner);
        assert_relative_eq!(r.distance, (corner - points[0]).length(), epsilon = 1e-12);
        assert_eq!(r.closest, points[0]);
        // Across the whole segment's line, beyond either end, the same holds.
        for k in 1..50 {
            let along = points[0] - points[1];
            let past = points[0] + along * (0.01 * Real::from(k));
            let r = point_core(&points, &[n, -n], past);
            assert_relative_eq!(r.distance, (past - points[0]).length(), epsilon = 1e-12);
        }
    }

    fn unit_square() -> ([Vec2; 4], [Vec2; 4]) {
        (
            [
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(-1.0, 1.0),
            ],
            [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X],
        )
    }

    #[test]
    fn point_in_vertex_region_uses_the_vertex_axis() {
        let (v, n) = unit_square();
        let r = point_core(&v, &n, Vec2::new(2.0, 3.0));
        assert_relative_eq!(r.distance, (1.0f64 + 4.0).sqrt(), epsilon = 1e-12);
        assert_relative_eq!(r.closest, Vec2::new(1.0, 1.0));
        assert_relative_eq!(r.normal, Vec2::new(1.0, 2.0).normalize(), epsilon = 1e-12);
    }

    #[test]
    fn point_inside_exits_through_nearest_face() {
        let (v, n) = unit_square();
        let r = point_core(&v, &n, Vec2::new(0.2, 0.9));
        assert_relative_eq!(r.distance, -0.1, epsilon = 1e-12);
        assert_relative_eq!(r.normal, Vec2::Y);
    }

    #[test]
    fn segment_core_end_region() {
        let v = [Vec2::ZERO, Vec2::X];
        let n = [Vec2::NEG_Y, Vec2::Y];
        let r = point_core(&v, &n, Vec2::new(2.0, 0.0));
        assert_relative_eq!(r.distance, 1.0);
        assert_relative_eq!(r.normal, Vec2::X);
    }
}
