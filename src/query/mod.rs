//! Geometric queries between placed shapes: AABB and point tests, SAT intersection, and the
//! contact (MTV plus manifold).
//!
//! # What SAT is
//! Two convex shapes are disjoint exactly when some line (an *axis*) has their projections apart.
//! For polygons the candidate axes are the edge normals of both; for a circle against a polygon the
//! axis from the circle centre to the nearest polygon vertex must be added, or a circle just off a
//! corner is reported as touching. Here every convex shape is a *core* (point, segment or polygon)
//! swept by a radius, and the kernels handle the rounded cases exactly through the point–core and
//! core–core distances (`distance.rs`), which contain that vertex axis.
//!
//! # The MTV
//! When two convex shapes overlap, the axis of least overlap is the minimum translation vector:
//! [`Contact::normal`] points from A toward B and moving B by `normal * depth` leaves them exactly
//! touching. For polygons it is the reference face of maximum separation found by SAT (`sat.rs`);
//! the manifold comes from clipping the other shape's incident edge against that face
//! (`manifold.rs`).
//!
//! # Continuous queries
//! [`Motion`] describes a shape's motion over a step; [`swept_hull`] and [`swept_aabb`] bound what
//! it covers; [`swept_intersects`] rejects pairs that cannot meet; [`time_of_impact`] finds the
//! first contact, exactly under translation and never late with rotation (see `toi.rs` and
//! `docs/continuous.md`).
//!
//! # Frames
//! Public functions take shapes with world transforms and return world-space results; the kernels
//! move B into A's local frame once (`xa.inv_mul(xb)`) and work there. A compound is the union of
//! its pieces: it intersects when any piece does, and its contact is that of the deepest piece pair.

mod box_box;
mod contact;
pub(crate) mod distance;
pub(crate) mod manifold;
mod motion;
mod ray;
pub(crate) mod sat;
mod swept;
mod toi;

pub use contact::{Contact, FeatureId, MAX_MANIFOLD_POINTS};
pub use distance::{distance, Distance};
pub(crate) use motion::turn_bulge;
pub use motion::Motion;
pub use ray::{ray_cast, RayHit};
pub(crate) use swept::swept_hull_of;
pub use swept::{swept_aabb, swept_hull, swept_intersects, SweptHull};
pub use toi::{time_of_impact, time_of_impact_with, Toi, ToiError, ToiOptions, ToiStatus};
pub(crate) use toi::{time_of_impact_filtered, PieceRules};

use crate::constants::{MANIFOLD_TOLERANCE, REFERENCE_FACE_BIAS};
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};
use crate::shape::{Core, Shape};
pub(crate) use contact::LocalManifold;
use manifold::{collide_core_point, collide_cores, with_moved};

/// Returns `true` if the world bounding boxes of the two placed shapes overlap (touching counts).
/// The cheapest test; a broad-phase filter before [`intersects`].
#[must_use]
pub fn aabbs_overlap(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> bool {
    a.aabb(xa).overlaps(&b.aabb(xb))
}

/// Returns `true` if the world point `p` (metres) lies inside or on the shape placed at `xf`.
///
/// Sharp polygons use the side-of-line test (the cross product `(vᵢ₊₁ − vᵢ) × (p − vᵢ) ≥ 0` for
/// every counter-clockwise edge); rounded shapes use the exact point–core distance.
#[must_use]
pub fn contains_point(shape: &Shape, xf: &Transform, p: Vec2) -> bool {
    let local = xf.inv_transform_point(p);
    match shape {
        Shape::Compound(c) => c
            .pieces()
            .iter()
            .any(|piece| contains_point(&piece.shape, &piece.transform, local)),
        Shape::Circle(c) => local.distance_squared(c.center()) <= c.radius() * c.radius(),
        Shape::Polygon(poly) if poly.radius() == 0.0 => {
            let v = poly.vertices();
            (0..v.len()).all(|i| (v[(i + 1) % v.len()] - v[i]).perp_dot(local - v[i]) >= 0.0)
        }
        convex => {
            let core = convex.core().expect("convex shape");
            distance::point_core(core.points, core.normals, local).distance <= core.radius
        }
    }
}

/// Returns `true` if the two placed shapes share at least one point (touching counts).
///
/// SAT with one projection per distinct axis and an early exit on the first separating axis;
/// exact for rounded shapes (circles, capsules, rounded polygons). Compounds intersect when any
/// pair of pieces does (pieces whose boxes are apart are skipped).
#[must_use]
pub fn intersects(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> bool {
    if !(xa.is_finite() && xb.is_finite()) {
        return false;
    }
    match (a, b) {
        (Shape::Compound(ca), _) => {
            let bb = b.aabb(xb);
            ca.pieces().iter().any(|p| {
                let xp = *xa * p.transform;
                p.shape.aabb(&xp).overlaps(&bb) && intersects(&p.shape, &xp, b, xb)
            })
        }
        (_, Shape::Compound(_)) => intersects(b, xb, a, xa),
        _ => {
            let b_in_a = xa.inv_mul(xb);
            if let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) {
                if let (Some(fa), Some(fb)) = (pa.box_frame(), pb.box_frame()) {
                    return box_box::boxes_intersect(fa, fb, &b_in_a);
                }
            }
            let (ca, cb) = (convex_core(a), convex_core(b));
            // Move the smaller core into the larger one's frame.
            if ca.points.len() < cb.points.len() {
                with_moved(&ca, &xb.inv_mul(xa), |a| sat::cores_intersect(a, &cb))
            } else {
                with_moved(&cb, &b_in_a, |b| sat::cores_intersect(&ca, b))
            }
        }
    }
}

/// The contact of two placed shapes if they intersect: the MTV (`normal` from A toward B, `depth`)
/// and up to two manifold points per convex pair, all in world space. `None` when they are apart.
///
/// Touching shapes give `depth == 0`. Swapping A and B flips the normal. For a compound, the
/// result is the contact of its deepest overlapping piece pair.
#[must_use]
pub fn contact(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Option<Contact> {
    if !(xa.is_finite() && xb.is_finite()) {
        return None; // no contact can be reported at a pose that is not a number
    }
    match (a, b) {
        (Shape::Compound(_), _) | (_, Shape::Compound(_)) => {
            let mut best: Option<(Contact, Real)> = None;
            for_each_piece_pair(a, xa, b, xb, 0.0, &mut |pa, xpa, pb, xpb, ia, ib| {
                if let Some(m) = local_manifold(pa, xpa, pb, xpb, 0.0, REFERENCE_FACE_BIAS) {
                    let mut c = m.world_contact(xpa, MANIFOLD_TOLERANCE);
                    c.tag_pieces(ia, ib);
                    if best.as_ref().is_none_or(|(_, s)| m.separation < *s) {
                        best = Some((c, m.separation));
                    }
                }
            });
            best.map(|(c, _)| c)
        }
        _ => local_manifold(a, xa, b, xb, 0.0, REFERENCE_FACE_BIAS)
            .as_ref()
            .map(|m| m.world_contact(xa, MANIFOLD_TOLERANCE)),
    }
}

/// A visitor of piece pairs: `(piece_a, world_a, piece_b, world_b, index_a, index_b)`.
pub(crate) type PiecePairFn<'f> =
    dyn FnMut(&Shape, &Transform, &Shape, &Transform, usize, usize) + 'f;

/// Calls `f` for every pair of convex pieces (a convex shape is its own single piece) whose world
/// boxes come within `margin` metres, with each piece's world transform and piece indices. Two
/// convex shapes are passed straight through (the kernels do their own early-outs).
pub(crate) fn for_each_piece_pair(
    a: &Shape,
    xa: &Transform,
    b: &Shape,
    xb: &Transform,
    margin: Real,
    f: &mut PiecePairFn<'_>,
) {
    if a.is_convex() && b.is_convex() {
        f(a, xa, b, xb, 0, 0);
        return;
    }
    if b.is_convex() {
        // A compound against one convex shape (a box in a drum of four walls): B's box is the
        // same for every piece of A, so it is made once, not once per piece. The calls are those
        // of the general walk below, in the same order.
        let box_b = b.aabb(xb);
        let near_b = indexed(a).then(|| box_b.grown(margin));
        with_indices(|outer, _| {
            pieces_meeting(a, xa, near_b.as_ref(), outer, &mut |sa, xsa, ia| {
                if sa.aabb(xsa).grown(margin).overlaps(&box_b) {
                    f(sa, xsa, b, xb, ia, 0);
                }
            });
        });
        return;
    }
    // The pieces of A that can meet B at all, and for each the pieces of B near it: through the
    // compounds' piece indices where they have them (`shape/piece_index.rs`), which return a
    // superset of what the box test below passes, in increasing order, so the calls are exactly
    // those of a pass over every pair, in the same order. B's whole box (a pass over all of B's
    // pieces) is made only to ask A's index.
    let near_b = indexed(a).then(|| b.aabb(xb).grown(margin));
    with_indices(|outer, inner| {
        pieces_meeting(a, xa, near_b.as_ref(), outer, &mut |sa, xsa, ia| {
            let box_a = sa.aabb(xsa).grown(margin);
            pieces_meeting(b, xb, Some(&box_a), inner, &mut |sb, xsb, ib| {
                if box_a.overlaps(&sb.aabb(xsb)) {
                    f(sa, xsa, sb, xsb, ia, ib);
                }
            });
        });
    });
}

/// Whether `s` is a compound with a piece index (`shape/piece_index.rs`).
fn indexed(s: &Shape) -> bool {
    matches!(s, Shape::Compound(c) if c.index.is_built())
}

/// Calls `f` with each convex piece of `s` placed at `x` that may have a world box meeting `near`
/// (every piece, unless `s` is a compound with a piece index and `near` is given), in increasing
/// order. `scratch` holds the candidates meanwhile.
fn pieces_meeting(
    s: &Shape,
    x: &Transform,
    near: Option<&Aabb>,
    scratch: &mut Vec<u32>,
    f: &mut dyn FnMut(&Shape, &Transform, usize),
) {
    match (s, near) {
        (Shape::Compound(c), Some(near)) if c.index.is_built() => {
            scratch.clear();
            c.index.query(&c.local_box(near, x), scratch);
            for &i in scratch.iter() {
                let p = &c.pieces()[i as usize];
                f(&p.shape, &(*x * p.transform), i as usize);
            }
        }
        _ => visit_pieces(s, x, f),
    }
}

thread_local! {
    /// Candidate lists for `for_each_piece_pair`, kept per thread so that a step allocates none.
    static PIECE_SCRATCH: std::cell::RefCell<(Vec<u32>, Vec<u32>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` with this thread's two candidate lists (fresh ones if a caller up the stack holds
/// them).
fn with_indices(f: impl FnOnce(&mut Vec<u32>, &mut Vec<u32>)) {
    PIECE_SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut lists) => {
            let (outer, inner) = &mut *lists;
            f(outer, inner);
        }
        Err(_) => f(&mut Vec::new(), &mut Vec::new()),
    });
}

/// Calls `f` with each convex piece of `s` placed at `x` whose world box meets `near` (every
/// piece for `None`), in increasing piece order, through the compound's piece index when it has
/// one: a query near a ground of a thousand pieces opens only the pieces near it.
pub(crate) fn visit_pieces_near(
    s: &Shape,
    x: &Transform,
    near: Option<&Aabb>,
    f: &mut dyn FnMut(&Shape, &Transform, usize),
) {
    let Some(near) = near else {
        return visit_pieces(s, x, f);
    };
    if s.is_convex() {
        if s.aabb(x).overlaps(near) {
            f(s, x, 0);
        }
        return;
    }
    // The thread's candidate list (no allocation per query), as `for_each_piece_pair` uses it.
    with_indices(|scratch, _| {
        pieces_meeting(s, x, Some(near), scratch, &mut |piece, xp, i| {
            if piece.aabb(xp).overlaps(near) {
                f(piece, xp, i);
            }
        });
    });
}

/// Calls `f` with each convex piece of `s` placed at `x` (a convex shape is its own piece 0).
pub(crate) fn visit_pieces(s: &Shape, x: &Transform, f: &mut dyn FnMut(&Shape, &Transform, usize)) {
    match s {
        Shape::Compound(c) => {
            for (i, p) in c.pieces().iter().enumerate() {
                f(&p.shape, &(*x * p.transform), i);
            }
        }
        convex => f(convex, x, 0),
    }
}

/// The manifold of two convex shapes in A's frame, or `None` when farther apart than
/// `max_distance` metres.
#[inline(always)]
pub(crate) fn local_manifold(
    a: &Shape,
    xa: &Transform,
    b: &Shape,
    xb: &Transform,
    max_distance: Real,
    bias: Real,
) -> Option<LocalManifold> {
    let b_in_a = xa.inv_mul(xb);
    match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb)) => {
            if let (Some(fa), Some(fb)) = (pa.box_frame(), pb.box_frame()) {
                return box_box::collide_boxes(pa, fa, pb, fb, &b_in_a, max_distance, bias);
            }
        }
        // A polygon or capsule against a circle: the circle's centre moved into the other's frame
        // and tested against its core directly, the same arithmetic as the general kernel's point
        // case (bit for bit) without building and copying cores.
        (Shape::Polygon(_) | Shape::Capsule(_), Shape::Circle(cb)) => {
            let centre = b_in_a.transform_point(cb.center);
            return collide_core_point(&convex_core(a), centre, cb.radius(), max_distance, false);
        }
        (Shape::Circle(ca), Shape::Polygon(_) | Shape::Capsule(_)) => {
            let centre = xb.inv_mul(xa).transform_point(ca.center);
            return collide_core_point(&convex_core(b), centre, ca.radius(), max_distance, false)
                .map(|m| m.swapped_into(&b_in_a));
        }
        _ => {}
    }
    local_manifold_general(a, b, xa, xb, &b_in_a, max_distance, bias)
}

/// Vertex-pair count (n·m) above which the general kernel first tests bounding circles.
const BOUNDING_CIRCLE_MIN_SWEEP: usize = 16;

/// The general rounded-core kernel. Out of line on purpose: inlined, its four stack buffers (one
/// per core size) would enlarge the frame of every caller, box pairs included.
#[inline(never)]
pub(crate) fn local_manifold_general(
    a: &Shape,
    b: &Shape,
    xa: &Transform,
    xb: &Transform,
    b_in_a: &Transform,
    max_distance: Real,
    bias: Real,
) -> Option<LocalManifold> {
    let (ca, cb) = (convex_core(a), convex_core(b));
    // Bounding-circle early-out where it pays: measured, it saves ~64% on apart 8-gon pairs and
    // costs ~10% on the cheap pairs (circle, capsule, box sizes), so only for larger sweeps.
    if ca.points.len() * cb.points.len() > BOUNDING_CIRCLE_MIN_SWEEP {
        let ((ka, ra), (kb, rb)) = (a.bounding_circle(), b.bounding_circle());
        let reach = ra + rb + max_distance;
        if ka.distance_squared(b_in_a.transform_point(kb)) > reach * reach {
            return None;
        }
    }
    if ca.points.len() < cb.points.len() {
        // Fewer points to move the other way: solve in B's frame, then map into A's.
        let m = with_moved(&ca, &xb.inv_mul(xa), |a| {
            collide_cores(&cb, a, max_distance, bias)
        })?;
        return Some(m.swapped_into(b_in_a));
    }
    with_moved(&cb, b_in_a, |b| collide_cores(&ca, b, max_distance, bias))
}

/// The largest SAT face separation of two convex shapes: which face, and by how much.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FaceSeparation {
    /// The separation (metres): a lower bound of the gap.
    pub separation: Real,
    /// The face's unit normal in A's frame, from A toward B.
    pub normal: Vec2,
    /// `true` if the face is B's, `false` if A's.
    pub b_face: bool,
}

/// A lower bound of the gap between two convex shapes (metres) with the fixed unit axis it is
/// measured along (A's frame, from A toward B): the largest SAT face separation minus the radii.
/// Cheaper than a manifold (no clipping, no closest features). `None` where face normals do not
/// bound the gap (a circle is involved, or two segment cores on one line): use the manifold then.
#[inline]
pub(crate) fn separation_bound(
    a: &Shape,
    xa: &Transform,
    b: &Shape,
    xb: &Transform,
) -> Option<FaceSeparation> {
    let b_in_a = xa.inv_mul(xb);
    if let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) {
        if let (Some(fa), Some(fb)) = (pa.box_frame(), pb.box_frame()) {
            return Some(box_box::box_separation(fa, fb, &b_in_a));
        }
    }
    let (ca, cb) = (convex_core(a), convex_core(b));
    if ca.points.len() < 2 || cb.points.len() < 2 {
        return None;
    }
    with_moved(&cb, &b_in_a, |cb| {
        let (ea, sa) = sat::max_separation(&ca, cb);
        let (eb, sb) = sat::max_separation(cb, &ca);
        let (sep, normal, b_face) = if sb > sa {
            (sb, -cb.normals[eb], true)
        } else {
            (sa, ca.normals[ea], false)
        };
        if sep <= 0.0 && sat::cores_apart(&ca, cb, sep) {
            return None;
        }
        Some(FaceSeparation {
            separation: sep - ca.radius - cb.radius,
            normal,
            b_face,
        })
    })
}

/// A lower bound of the gap (metres) between shapes `a` at `xa` and `b` at `xb` (world frames):
/// for convex shapes, the exact gap when the cores are apart (their closest features, less the
/// radii), the largest face separation ([`separation_bound`]) when they are not, the exact gap
/// where either core is a point (a circle), `-∞` for two segment cores on one line; for
/// compounds, the least over their pieces' pairs.
pub(crate) fn gap_lower_bound(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Real {
    if a.is_convex() && b.is_convex() {
        return convex_gap_lower_bound(a, xa, b, xb);
    }
    // A compound with a piece index against a convex shape: its subtrees farther from the shape
    // (box against box, in the compound's frame) than the least gap found so far cannot lower it.
    if indexed(b) && a.is_convex() {
        return gap_lower_bound(b, xb, a, xa);
    }
    if let (Shape::Compound(c), true) = (a, b.is_convex() && indexed(a)) {
        let near = c.local_box(&b.aabb(xb), xa);
        return c.index.least(&near, &mut |i| {
            let p = &c.pieces()[i];
            convex_gap_lower_bound(&p.shape, &(*xa * p.transform), b, xb)
        });
    }
    let mut gap = Real::INFINITY;
    visit_pieces(a, xa, &mut |sa, xsa, _| {
        visit_pieces(b, xb, &mut |sb, xsb, _| {
            gap = gap.min(convex_gap_lower_bound(sa, xsa, sb, xsb));
        });
    });
    gap
}

/// [`gap_lower_bound`] of two convex shapes.
fn convex_gap_lower_bound(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Real {
    let (ca, cb) = (convex_core(a), convex_core(b));
    let radii = ca.radius + cb.radius;
    if ca.points.len() >= 2 && cb.points.len() >= 2 {
        let Some(gap) = separation_bound(a, xa, b, xb).map(|face| face.separation) else {
            return Real::NEG_INFINITY;
        };
        if gap + radii <= 0.0 {
            return gap; // the cores touch or overlap
        }
        // A face separates the cores: they are apart, and their closest features give the gap
        // (a face separation alone can be far below it for shapes apart corner to corner).
        let exact = with_moved(&cb, &xa.inv_mul(xb), |cb| distance::core_distance(&ca, cb));
        return gap.max(exact.distance - radii);
    }
    let (pa, pb) = (
        xa.transform_point(ca.points[0]),
        xb.transform_point(cb.points[0]),
    );
    if ca.points.len() == 1 && cb.points.len() == 1 {
        return pa.distance(pb) - radii;
    }
    // A point core (a circle) against a segment or polygon core: the point's signed distance.
    let (point, core, frame) = if ca.points.len() == 1 {
        (pa, &cb, xb)
    } else {
        (pb, &ca, xa)
    };
    let local = frame.inv_transform_point(point);
    distance::point_core(core.points, core.normals, local).distance - radii
}

/// The general kernel only, bypassing the box–box fast path (the box kernel's tests hold the two
/// together).
#[cfg(test)]
pub(crate) fn contact_general(
    a: &Shape,
    xa: &Transform,
    b: &Shape,
    xb: &Transform,
) -> Option<Contact> {
    let (ca, cb) = (convex_core(a), convex_core(b));
    with_moved(&cb, &xa.inv_mul(xb), |b| {
        collide_cores(&ca, b, 0.0, REFERENCE_FACE_BIAS)
    })
    .map(|m| m.world_contact(xa, MANIFOLD_TOLERANCE))
}

#[inline]
fn convex_core(s: &Shape) -> Core<'_> {
    s.core()
        .expect("compounds are split into pieces before the convex kernels")
}

/// Strategies the query kernels' unit tests share.
#[cfg(test)]
pub(crate) mod test_strategies {
    use crate::math::{Transform, Vec2};
    use proptest::prelude::*;
    use std::f64::consts::PI;

    /// A pose: translation within `range` metres on each axis, any angle.
    pub(crate) fn transform(range: f64) -> impl Strategy<Value = Transform> {
        (-range..range, -range..range, -PI..PI)
            .prop_map(|(x, y, a)| Transform::new(Vec2::new(x, y), a))
    }
}

#[cfg(test)]
mod point_kernel_tests {
    use super::test_strategies::transform;
    use super::*;
    use crate::shape::Circle;
    use proptest::prelude::*;

    /// Convex shapes with a core of two or more points: regular polygons of 3 to 16 sides (every
    /// size a polygon may have), rounded squares and capsules.
    fn convex() -> impl Strategy<Value = Shape> {
        prop_oneof![
            (3usize..17, 0.1..2.0f64).prop_map(|(n, r)| Shape::regular_polygon(n, r).unwrap()),
            (0.05..1.0f64, 0.01..0.3f64).prop_map(|(h, r)| {
                let square = [(-h, -h), (h, -h), (h, h), (-h, h)].map(|(x, y)| Vec2::new(x, y));
                Shape::rounded_polygon(&square, r).unwrap()
            }),
            (-1.0..1.0f64, -1.0..1.0f64, 0.01..0.5f64).prop_map(|(x, y, r)| {
                Shape::capsule(Vec2::new(-x, -y), Vec2::new(x, y + 0.1), r).unwrap()
            }),
        ]
    }

    /// Discs of 1 cm to 1.5 m, centred up to 0.5 m off their body's origin.
    fn disc() -> impl Strategy<Value = Shape> {
        (-0.5..0.5f64, -0.5..0.5f64, 0.01..1.5f64)
            .prop_map(|(x, y, r)| Shape::from(Circle::with_center(Vec2::new(x, y), r).unwrap()))
    }

    /// The signed distance (metres) from world point `p` to the boundary of the world core of
    /// `s` at `x`, less the radii: every edge's segment distance outside, the nearest face plane
    /// inside (a brute-force reference, independent of the kernels).
    fn reference_separation(s: &Shape, x: &Transform, p: Vec2, point_radius: Real) -> Real {
        let core = s.core().unwrap();
        let pts: Vec<Vec2> = core.points.iter().map(|v| x.transform_point(*v)).collect();
        let n = pts.len();
        let to_segment = |a: Vec2, b: Vec2| {
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            p.distance(a + t * (b - a))
        };
        let outside = (0..n)
            .map(|i| to_segment(pts[i], pts[(i + 1) % n]))
            .fold(Real::INFINITY, Real::min);
        let planes: Vec<Real> = (0..n)
            .map(|i| {
                let edge = pts[(i + 1) % n] - pts[i];
                Vec2::new(edge.y, -edge.x).normalize().dot(p - pts[i])
            })
            .collect();
        let inside = n > 2 && planes.iter().all(|&d| d <= 0.0);
        let d = if inside {
            planes.iter().copied().fold(Real::NEG_INFINITY, Real::max)
        } else {
            outside
        };
        d - core.radius - point_radius
    }

    proptest! {
        /// The direct polygon–circle and capsule–circle path of `local_manifold` gives the general
        /// kernel's manifold bit for bit, in both orders, with and without a speculative margin,
        /// and its separation is the brute-force distance from the disc's centre to the core.
        #[test]
        fn the_point_kernel_path_matches_the_general_kernel(
            a in convex(), xa in transform(2.0), b in disc(), xb in transform(2.0),
            margin in prop_oneof![Just(0.0), 0.0..0.3f64]
        ) {
            for bias in [REFERENCE_FACE_BIAS, 5e-4] {
                let fast = local_manifold(&a, &xa, &b, &xb, margin, bias);
                let general = local_manifold_general(&a, &b, &xa, &xb, &xa.inv_mul(&xb), margin, bias);
                prop_assert_eq!(fast, general);
                let fast = local_manifold(&b, &xb, &a, &xa, margin, bias);
                let general = local_manifold_general(&b, &a, &xb, &xa, &xb.inv_mul(&xa), margin, bias);
                prop_assert_eq!(fast, general);
            }
            let Shape::Circle(c) = &b else { unreachable!("a disc") };
            let reference = reference_separation(&a, &xa, xb.transform_point(c.center), c.radius());
            match local_manifold(&a, &xa, &b, &xb, margin, REFERENCE_FACE_BIAS) {
                Some(m) => prop_assert!(
                    (m.separation - reference).abs() <= 1e-9,
                    "{} against {}", m.separation, reference
                ),
                None => prop_assert!(reference > margin - 1e-9, "missed at {}", reference),
            }
        }
    }
}
