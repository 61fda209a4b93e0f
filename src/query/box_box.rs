//! Closed-form contact for two sharp rectangles (the oriented-box test plus analytic clipping).
//!
//! For boxes no loop over vertices is needed. With B's box frame expressed in A's as rotation
//! `(c, s)` and offset `t`, B's extent along A's x axis is `|c|·hB.x + |s|·hB.y`, so A's face `+x`
//! separates by `t.x − extent − hA.x`, and likewise for the other faces (Gottschalk's OBB test,
//! written as the eight signed face separations). The reference face is the one of maximum
//! separation with the same bias towards A as the general kernel; the incident face of the other
//! box is the one whose normal is most anti-parallel, and its two corners are clipped to the
//! reference face's side planes as in `manifold::clip`. The result equals the general kernel's
//! (same normal, depth, points and feature ids); `tests/static_properties.rs` holds them together.

use super::contact::{FeatureId, LocalManifold, LocalPoint};
use super::manifold::{clip_segment, collide_cores, end_id, with_ends, with_moved};
use super::FaceSeparation;
use crate::constants::FACE_CONTACT_TOLERANCE;
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::polygon::BoxFrame;
use crate::shape::{ConvexPolygon, Core};

/// Outward normals of a box's edges 0..3 in its own frame (vertex 0 is the (−x, −y) corner).
const FACE_NORMALS: [Vec2; 4] = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];

/// Index and value of the largest of four face separations (first one on ties, like the loop in
/// `sat::max_separation`).
#[inline(always)]
fn argmax4(s: [Real; 4]) -> (usize, Real) {
    let mut best = 0;
    for i in 1..4 {
        if s[i] > s[best] {
            best = i;
        }
    }
    (best, s[best])
}

/// Separations of the four faces of a box with half extents `h` against a box with half extents
/// `ho` whose centre is at `t` and rotation `(c, s)` in this box's frame.
#[inline(always)]
fn face_separations(h: Vec2, ho: Vec2, t: Vec2, c: Real, s: Real) -> [Real; 4] {
    let (c, s) = (c.abs(), s.abs());
    let (ex, ey) = (c * ho.x + s * ho.y, s * ho.x + c * ho.y);
    [
        -t.y - ey - h.y,
        t.x - ex - h.x,
        t.y - ey - h.y,
        -t.x - ex - h.x,
    ]
}

/// Returns `true` if two sharp rectangles intersect (touching counts); `b_in_a` maps B's local
/// frame into A's.
#[inline]
pub(crate) fn boxes_intersect(fa: &BoxFrame, fb: &BoxFrame, b_in_a: &Transform) -> bool {
    let box_a = Transform::from_parts(fa.center, fa.rotation);
    let box_b = b_in_a.mul_transform(&Transform::from_parts(fb.center, fb.rotation));
    let rel = box_a.inv_mul(&box_b);
    let (c, s) = (rel.rotation.cos, rel.rotation.sin);
    if argmax4(face_separations(fa.half, fb.half, rel.translation, c, s)).1 > 0.0 {
        return false;
    }
    let u = rel.rotation.inv_rotate(-rel.translation);
    argmax4(face_separations(fb.half, fa.half, u, c, -s)).1 <= 0.0
}

/// The largest face separation of two sharp rectangles (metres, a lower bound of their distance)
/// and its unit face normal in A's local frame, oriented from A toward B.
#[inline]
pub(crate) fn box_separation(fa: &BoxFrame, fb: &BoxFrame, b_in_a: &Transform) -> FaceSeparation {
    let box_a = Transform::from_parts(fa.center, fa.rotation);
    let box_b = b_in_a.mul_transform(&Transform::from_parts(fb.center, fb.rotation));
    let rel = box_a.inv_mul(&box_b);
    let (c, s) = (rel.rotation.cos, rel.rotation.sin);
    let (edge_a, sep_a) = argmax4(face_separations(fa.half, fb.half, rel.translation, c, s));
    let u = rel.rotation.inv_rotate(-rel.translation);
    let (edge_b, sep_b) = argmax4(face_separations(fb.half, fa.half, u, c, -s));
    if sep_b > sep_a {
        FaceSeparation {
            separation: sep_b,
            normal: -box_b.transform_vector(FACE_NORMALS[edge_b]),
            b_face: true,
        }
    } else {
        FaceSeparation {
            separation: sep_a,
            normal: box_a.transform_vector(FACE_NORMALS[edge_a]),
            b_face: false,
        }
    }
}

/// The manifold of two sharp rectangles in A's local frame, or `None` when farther apart than
/// `max_distance`. `b_in_a` maps B's local frame into A's.
#[inline]
pub(crate) fn collide_boxes(
    pa: &ConvexPolygon,
    fa: &BoxFrame,
    pb: &ConvexPolygon,
    fb: &BoxFrame,
    b_in_a: &Transform,
    max_distance: Real,
    bias: Real,
) -> Option<LocalManifold> {
    // Rectangles built by `rectangle` sit at their local origin unrotated: skip the identities.
    let centered =
        |f: &BoxFrame| f.center == Vec2::ZERO && f.rotation.sin == 0.0 && f.rotation.cos == 1.0;
    let box_a = Transform::from_parts(fa.center, fa.rotation);
    let box_b = if centered(fb) {
        *b_in_a
    } else {
        b_in_a.mul_transform(&Transform::from_parts(fb.center, fb.rotation))
    };
    let a_centered = centered(fa);
    let rel = if a_centered {
        box_b
    } else {
        box_a.inv_mul(&box_b)
    }; // B's box frame in A's
    let (c, s) = (rel.rotation.cos, rel.rotation.sin);
    let (edge_a, sep_a) = argmax4(face_separations(fa.half, fb.half, rel.translation, c, s));
    if sep_a > max_distance {
        return None;
    }
    let u = rel.rotation.inv_rotate(-rel.translation); // A's centre in B's box frame
    let (edge_b, sep_b) = argmax4(face_separations(fb.half, fa.half, u, c, -s));
    if sep_b > max_distance {
        return None;
    }
    let flip = sep_b > sep_a + bias;
    let sep = if flip { sep_b } else { sep_a };
    let (m, overlaps) = if flip {
        // Reference on B: work in B's box frame with A incident, then map into A's frame.
        let inc = Transform::from_parts(u, rel.rotation.inverse());
        let (m, overlaps) = clip_boxes(fb.half, fa.half, &inc, edge_b, sep, max_distance, true);
        (mapped(&m, -m.normal, &box_b), overlaps)
    } else {
        let (m, overlaps) = clip_boxes(fa.half, fb.half, &rel, edge_a, sep, max_distance, false);
        if a_centered {
            (m, overlaps)
        } else {
            (mapped(&m, m.normal, &box_a), overlaps)
        }
    };
    if sep > FACE_CONTACT_TOLERANCE {
        // Apart but within a speculative margin. When the incident vertex nearest the reference
        // face clips inside the face, the SAT separation is the exact distance (that vertex's
        // foot lies on the face, and no two convex shapes are closer than a separating axis
        // says): the clipped manifold is the answer, as for touching boxes. Otherwise (corners
        // nearest each other) the general kernel finds the closest features. Rows of boxes side by
        // side, a pyramid's neighbours, take the first branch.
        let nearest = m.points[..m.count]
            .iter()
            .map(|p| p.separation)
            .fold(Real::INFINITY, Real::min);
        if overlaps && nearest <= sep + APART_CLIP_TOLERANCE {
            return Some(m);
        }
        return boxes_apart(pa, pb, b_in_a, max_distance, bias);
    }
    Some(m)
}

/// How far (metres) the nearest clipped point's separation may exceed the SAT separation and the
/// clipped manifold still count as exact for apart boxes: rounding only.
const APART_CLIP_TOLERANCE: Real = 1e-12;

/// Boxes apart but within `max_distance`: the general kernel's closest-feature path. Kept out of
/// line so the common overlapping path stays small.
#[cold]
#[inline(never)]
fn boxes_apart(
    pa: &ConvexPolygon,
    pb: &ConvexPolygon,
    b_in_a: &Transform,
    max_distance: Real,
    bias: Real,
) -> Option<LocalManifold> {
    let a_core = Core {
        points: pa.vertices(),
        normals: pa.normals(),
        radius: 0.0,
        axes: pa.distinct_axes(),
    };
    let b_core = Core {
        points: pb.vertices(),
        normals: pb.normals(),
        radius: 0.0,
        axes: pb.distinct_axes(),
    };
    with_moved(&b_core, b_in_a, |b| {
        collide_cores(&a_core, b, max_distance, bias)
    })
}

/// `m` (normal `normal`) mapped by `xf`: its points and its normal moved.
#[inline(always)]
fn mapped(m: &LocalManifold, normal: Vec2, xf: &Transform) -> LocalManifold {
    m.rebuilt(xf.transform_vector(normal), |p| LocalPoint {
        point: xf.transform_point(p.point),
        ..p
    })
}

/// Clips the incident box (half extents `hi`, placed by `inc` in the reference box's frame) against
/// face `edge` of the reference box (half extents `hr`). Result in the reference box's frame.
#[inline(always)]
fn clip_boxes(
    hr: Vec2,
    hi: Vec2,
    inc: &Transform,
    edge: usize,
    separation: Real,
    max_distance: Real,
    flip: bool,
) -> (LocalManifold, bool) {
    let normal = FACE_NORMALS[edge];
    let tangent = normal.perp();
    // Reference face: centre `depth·normal`, half length `width` along the tangent.
    let (depth, width) = if edge & 1 == 1 {
        (hr.x, hr.y)
    } else {
        (hr.y, hr.x)
    };
    // Incident face: the incident box's face whose normal is most anti-parallel to `normal`.
    let local_n = inc.rotation.inv_rotate(normal);
    let inc_edge = if local_n.x.abs() > local_n.y.abs() {
        if local_n.x > 0.0 {
            3
        } else {
            1
        }
    } else if local_n.y > 0.0 {
        0
    } else {
        2
    };
    let m_local = FACE_NORMALS[inc_edge];
    let (inc_depth, inc_width) = if inc_edge & 1 == 1 {
        (hi.x, hi.y)
    } else {
        (hi.y, hi.x)
    };
    let face_mid = inc_depth * m_local;
    let along = inc_width * m_local.perp();
    // Edge `inc_edge` runs from its vertex `inc_edge` to vertex `inc_edge + 1`.
    let v21 = inc.transform_point(face_mid - along);
    let v22 = inc.transform_point(face_mid + along);
    let (i21, i22) = (inc_edge, (inc_edge + 1) & 3);

    let (lower1, upper1) = (-width, width);
    let upper2 = v21.dot(tangent);
    let lower2 = v22.dot(tangent);
    // The incident edge's span along the face overlaps the face's: the clipped ends lie on the
    // face's slab (otherwise clipping extrapolates, and only the nearest corners are exact).
    let overlaps = upper2 >= lower1 && lower2 <= upper1;
    let (v_lower, v_upper) = clip_segment(v21, v22, lower2, upper2, lower1, upper1);

    let ends = [
        (v_lower, end_id(edge, i22, flip)),
        (v_upper, end_id((edge + 1) & 3, i21, flip)),
    ];
    // A point halfway between the two surfaces.
    let at = |(v, id): (Vec2, FeatureId)| {
        let s = v.dot(normal) - depth;
        LocalPoint {
            point: v - (0.5 * s) * normal,
            separation: s,
            id,
        }
    };
    (
        with_ends(normal, separation, [at(ends[0]), at(ends[1])], max_distance),
        overlaps,
    )
}

#[cfg(test)]
mod tests {
    use super::super::test_strategies::transform;
    use super::super::{contact, contact_general, local_manifold, local_manifold_general};
    use crate::math::{Transform, Vec2};
    use crate::shape::Shape;
    use proptest::prelude::*;

    /// Axis-aligned and oriented, off-centre rectangles (both take the box kernel).
    fn rectangle() -> impl Strategy<Value = Shape> {
        prop_oneof![
            (0.05..2.0f64, 0.05..2.0f64).prop_map(|(w, h)| Shape::rectangle(w, h).unwrap()),
            (
                0.05..2.0f64,
                0.05..2.0f64,
                -0.5..0.5f64,
                -0.5..0.5f64,
                -3.2..3.2f64
            )
                .prop_map(|(w, h, x, y, a)| Shape::oriented_rectangle(
                    w,
                    h,
                    Vec2::new(x, y),
                    a
                )
                .unwrap()),
        ]
    }

    proptest! {
        /// The closed-form box–box kernel gives the general kernel's contact: same normal, depth,
        /// points and feature ids (boxes near each other, including resting and flush poses).
        #[test]
        fn box_kernel_matches_general_kernel(
            a in rectangle(), xa in transform(1.0), b in rectangle(), xb in transform(1.0), flush: bool
        ) {
            // Half of the cases turn B to A's angle, where faces are parallel and manifolds have
            // two points: the case where clipping matters most.
            let xb = if flush { Transform::new(xb.translation, xa.angle()) } else { xb };
            let fast = contact(&a, &xa, &b, &xb);
            let general = contact_general(&a, &xa, &b, &xb);
            prop_assert_eq!(fast.is_some(), general.is_some());
            if let (Some(f), Some(g)) = (fast, general) {
                prop_assert!((f.depth - g.depth).abs() <= 1e-12, "{} vs {}", f.depth, g.depth);
                prop_assert!((f.normal - g.normal).length() <= 1e-9, "{:?} vs {:?}", f.normal, g.normal);
                prop_assert_eq!(f.points().len(), g.points().len());
                for (p, q) in f.points().iter().zip(g.points()) {
                    prop_assert!(p.distance(*q) <= 1e-9, "{:?} vs {:?}", p, q);
                }
                prop_assert_eq!(f.feature_ids(), g.feature_ids());
            }
        }

        /// With a speculative margin (as the world's narrow phase asks), boxes apart but within
        /// it get the general kernel's manifold too: the clipped face manifold when the nearest
        /// incident vertex clips inside the face, the closest corners otherwise.
        #[test]
        fn box_kernel_matches_general_kernel_within_a_margin(
            a in rectangle(), xa in transform(1.5), b in rectangle(), xb in transform(1.5),
            flush: bool, margin in 0.0..0.2f64
        ) {
            let xb = if flush { Transform::new(xb.translation, xa.angle()) } else { xb };
            let bias = 5e-4;
            let fast = local_manifold(&a, &xa, &b, &xb, margin, bias);
            let general = local_manifold_general(&a, &b, &xa, &xb, &xa.inv_mul(&xb), margin, bias);
            // An independent reference: the distance between the two boundaries, over every
            // vertex–edge pair (equal to the separation when the boxes are apart).
            let corners = |shape: &Shape, x: &Transform| -> Vec<Vec2> {
                match shape {
                    Shape::Polygon(p) => p.vertices().iter().map(|v| x.transform_point(*v)).collect(),
                    _ => unreachable!("rectangles are polygons"),
                }
            };
            let (wa, wb) = (corners(&a, &xa), corners(&b, &xb));
            let to_segment = |p: Vec2, s0: Vec2, s1: Vec2| {
                let t = ((p - s0).dot(s1 - s0) / (s1 - s0).length_squared()).clamp(0.0, 1.0);
                (s0 + t * (s1 - s0)).distance(p)
            };
            let mut brute = f64::INFINITY;
            for i in 0..wa.len() {
                for j in 0..wb.len() {
                    brute = brute.min(to_segment(wa[i], wb[j], wb[(j + 1) % wb.len()]));
                    brute = brute.min(to_segment(wb[j], wa[i], wa[(i + 1) % wa.len()]));
                }
            }
            prop_assert_eq!(fast.is_some(), general.is_some(), "fast {:?} general {:?}", fast, general);
            if let (Some(f), Some(g)) = (fast, general) {
                prop_assert!((f.separation - g.separation).abs() <= 1e-12, "{} vs {}", f.separation, g.separation);
                if f.separation > 1e-9 {
                    prop_assert!((f.separation - brute).abs() <= 1e-9, "{} vs brute force {}", f.separation, brute);
                }
                prop_assert!((f.normal - g.normal).length() <= 1e-9, "{:?} vs {:?}", f.normal, g.normal);
                prop_assert_eq!(f.count, g.count);
                for (p, q) in f.points[..f.count].iter().zip(&g.points[..g.count]) {
                    prop_assert!(p.point.distance(q.point) <= 1e-9, "{:?} vs {:?}", p, q);
                    prop_assert!((p.separation - q.separation).abs() <= 1e-9);
                    prop_assert_eq!(p.id, q.id);
                }
            }
        }
    }
}
