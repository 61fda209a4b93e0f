//! Contact manifolds between rounded convex cores, in A's local frame (reference/incident clipping).
//!
//! One kernel, [`collide_cores`], serves every convex pair because every convex shape is a rounded
//! core (see `shape/mod.rs`):
//!
//! * point–point (circle–circle): the centre line.
//! * core–point (polygon or capsule vs circle): the exact point–core distance (`distance.rs`),
//!   which includes the centre-to-nearest-vertex axis.
//! * core–core (polygon, capsule, rounded polygon pairs): SAT over both cores' edge normals picks
//!   the *reference face* of maximum separation (the MTV axis). If the cores are apart, their exact
//!   distance decides between a face contact and a vertex–vertex contact (a single point along the
//!   line of closest points). For a face contact, the *incident edge* of the other core (the one
//!   whose normal is most anti-parallel to the reference normal) is clipped to the slab of the
//!   reference face, giving up to two points, each placed halfway between the two surfaces. This is
//!   the Sutherland–Hodgman clip as used by Box2D (`b2ClipPolygons`).
//!
//! Points whose separation exceeds `max_distance` are dropped; `max_distance` is zero for the static
//! [`contact`](super::contact) query and the speculative margin for a solver.

use super::contact::{FeatureId, LocalManifold, LocalPoint};
use super::distance::{core_distance, point_core};
use super::sat::{cores_apart, max_separation};
use crate::constants::{FACE_CONTACT_TOLERANCE, MAX_POLYGON_VERTICES};
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::Core;

/// A core copied into another frame (B's core moved into A's frame), on the stack. `N` is the
/// capacity: callers pick the smallest of 1, 4, 8 or 16 that holds the core (see [`with_moved`]),
/// so moving a circle's centre or a box does not fill a 16-vertex buffer.
pub(crate) struct MovedCore<const N: usize> {
    points: [Vec2; N],
    normals: [Vec2; N],
    count: usize,
    normal_count: usize,
    radius: Real,
    axes: u32,
}

impl<const N: usize> MovedCore<N> {
    /// `core` (at most `N` points) mapped by `xf`.
    #[inline(always)]
    pub fn new(core: &Core<'_>, xf: &Transform) -> Self {
        debug_assert!(core.points.len() <= N, "core larger than its buffer");
        let mut out = Self {
            points: [Vec2::ZERO; N],
            normals: [Vec2::ZERO; N],
            count: core.points.len(),
            normal_count: core.normals.len(),
            radius: core.radius,
            axes: core.axes,
        };
        for (dst, src) in out.points.iter_mut().zip(core.points) {
            *dst = xf.transform_point(*src);
        }
        for (dst, src) in out.normals.iter_mut().zip(core.normals) {
            *dst = xf.transform_vector(*src);
        }
        out
    }

    /// The moved core as a view.
    #[inline(always)]
    pub fn view(&self) -> Core<'_> {
        Core {
            points: &self.points[..self.count],
            normals: &self.normals[..self.normal_count],
            radius: self.radius,
            axes: self.axes,
        }
    }
}

/// Calls `f` with `core` mapped by `xf`, in the smallest stack buffer that holds it.
#[inline(always)]
pub(crate) fn with_moved<R>(core: &Core<'_>, xf: &Transform, f: impl FnOnce(&Core<'_>) -> R) -> R {
    match core.points.len() {
        1 => f(&MovedCore::<1>::new(core, xf).view()),
        2..=4 => f(&MovedCore::<4>::new(core, xf).view()),
        5..=8 => f(&MovedCore::<8>::new(core, xf).view()),
        _ => f(&MovedCore::<MAX_POLYGON_VERTICES>::new(core, xf).view()),
    }
}

/// What the closest-feature phase of the kernel found for two cores.
pub(crate) enum Closest<'c, 'v> {
    /// A single-point contact, already complete (point–point, core–point, vertex–vertex).
    Point(LocalManifold),
    /// A face contact: clip `incident` against face `edge` of `reference` to finish it.
    Face {
        reference: &'c Core<'v>,
        incident: &'c Core<'v>,
        edge: usize,
        /// Signed separation of the pair (metres, radii applied).
        separation: Real,
        /// The reference face is B's.
        flip: bool,
    },
}

impl Closest<'_, '_> {
    /// The pair's signed separation (metres) and unit normal from A toward B, A's frame.
    #[inline]
    pub fn separation_and_normal(&self) -> (Real, Vec2) {
        match self {
            Closest::Point(m) => (m.separation, m.normal),
            Closest::Face {
                reference,
                edge,
                separation,
                flip,
                ..
            } => {
                let n = reference.normals[*edge];
                (*separation, if *flip { -n } else { n })
            }
        }
    }
}

/// The manifold of two rounded convex cores in the same frame (A's), or `None` if they are farther
/// apart than `max_distance` metres. The normal points from `a` toward `b`. The reference face is
/// B's only if it separates more than A's by `bias` metres (see `REFERENCE_FACE_BIAS` and
/// `SOLVER_REFERENCE_FACE_BIAS`).
pub(crate) fn collide_cores(
    a: &Core<'_>,
    b: &Core<'_>,
    max_distance: Real,
    bias: Real,
) -> Option<LocalManifold> {
    // Point cases are complete after the closest-feature phase: answer them directly.
    match (a.points.len(), b.points.len()) {
        (1, 1) => return collide_points(a, b, max_distance),
        (_, 1) => return collide_core_point(a, b.points[0], b.radius, max_distance, false),
        (1, _) => return collide_core_point(b, a.points[0], a.radius, max_distance, true),
        _ => {}
    }
    Some(match closest_features(a, b, max_distance, bias)? {
        Closest::Point(m) => m,
        Closest::Face {
            reference,
            incident,
            edge,
            separation,
            flip,
        } => {
            let mut m = clip(reference, incident, edge, separation, max_distance, flip);
            if flip {
                m.normal = -m.normal;
            }
            m
        }
    })
}

/// The closest-feature phase of [`collide_cores`]: everything but the clipping.
#[inline]
pub(crate) fn closest_features<'c, 'v>(
    a: &'c Core<'v>,
    b: &'c Core<'v>,
    max_distance: Real,
    bias: Real,
) -> Option<Closest<'c, 'v>> {
    let radii = a.radius + b.radius;
    match (a.points.len(), b.points.len()) {
        (1, 1) => collide_points(a, b, max_distance).map(Closest::Point),
        (_, 1) => {
            collide_core_point(a, b.points[0], b.radius, max_distance, false).map(Closest::Point)
        }
        (1, _) => {
            collide_core_point(b, a.points[0], a.radius, max_distance, true).map(Closest::Point)
        }
        _ => {
            let (edge_a, sep_a) = max_separation(a, b);
            if sep_a - radii > max_distance {
                return None;
            }
            let (edge_b, sep_b) = max_separation(b, a);
            if sep_b - radii > max_distance {
                return None;
            }
            let flip = sep_b > sep_a + bias;
            let (reference, incident, edge, sep) = if flip {
                (b, a, edge_b, sep_b)
            } else {
                (a, b, edge_a, sep_a)
            };
            // The pair's separation: the face's, or, when the cores are apart, their exact distance
            // (the face separation can sit up to FACE_CONTACT_TOLERANCE below it).
            let mut separation = sep - radii;
            if cores_apart(a, b, sep) {
                // Cores apart: the exact distance tells a face contact from a vertex contact.
                let d = core_distance(a, b);
                if d.distance - radii > max_distance {
                    return None;
                }
                // Compare with the larger face separation, not the (biased) reference's: a vertex
                // contact is one whose distance exceeds every face separation.
                if d.distance - sep_a.max(sep_b) > FACE_CONTACT_TOLERANCE {
                    let normal = (d.point_b - d.point_a) / d.distance;
                    let pa = d.point_a + a.radius * normal;
                    let pb = d.point_b - b.radius * normal;
                    let id = FeatureId::new(0xff, 0xff, false);
                    return Some(Closest::Point(LocalManifold::single(
                        normal,
                        d.distance - radii,
                        0.5 * (pa + pb),
                        id,
                    )));
                }
                separation = d.distance - radii;
            }
            Some(Closest::Face {
                reference,
                incident,
                edge,
                separation,
                flip,
            })
        }
    }
}

fn collide_points(a: &Core<'_>, b: &Core<'_>, max_distance: Real) -> Option<LocalManifold> {
    let d = b.points[0] - a.points[0];
    let dist = d.length();
    let separation = dist - a.radius - b.radius;
    if separation > max_distance {
        return None;
    }
    // Coincident centres: any direction is a minimum; pick +x for determinism.
    let normal = if dist > 0.0 { d / dist } else { Vec2::X };
    let pa = a.points[0] + a.radius * normal;
    let pb = b.points[0] - b.radius * normal;
    Some(LocalManifold::single(
        normal,
        separation,
        0.5 * (pa + pb),
        FeatureId::default(),
    ))
}

/// Core (≥ 2 points) against a point swept by `point_radius`. With `flip`, the core is shape B and
/// the point shape A, and the returned normal is flipped to point from A to B.
#[inline(always)]
pub(crate) fn collide_core_point(
    core: &Core<'_>,
    c: Vec2,
    point_radius: Real,
    max_distance: Real,
    flip: bool,
) -> Option<LocalManifold> {
    let r = point_core(core.points, core.normals, c);
    let separation = r.distance - core.radius - point_radius;
    if separation > max_distance {
        return None;
    }
    let on_core = r.closest + core.radius * r.normal;
    let on_point = c - point_radius * r.normal;
    let point = 0.5 * (on_core + on_point);
    let normal = if flip { -r.normal } else { r.normal };
    Some(LocalManifold::single(
        normal,
        separation,
        point,
        FeatureId::new(r.feature, 0, flip),
    ))
}

/// Clips the incident edge `v22 → v21` (at tangent coordinates `lower2 ≤ upper2` along the
/// reference face) to the face's slab `[lower1, upper1]`: the Sutherland–Hodgman step with the two
/// side planes. Returns the (lower, upper) ends; a degenerate edge is returned unclipped.
#[inline(always)]
pub(crate) fn clip_segment(
    v21: Vec2,
    v22: Vec2,
    lower2: Real,
    upper2: Real,
    lower1: Real,
    upper1: Real,
) -> (Vec2, Vec2) {
    let span = upper2 - lower2;
    let inv_span = if span > 0.0 { 1.0 / span } else { 0.0 };
    let lerp = |s: Real| v22 + ((s - lower2) * inv_span) * (v21 - v22);
    let lower = if lower2 < lower1 && span > 0.0 {
        lerp(lower1)
    } else {
        v22
    };
    let upper = if upper2 > upper1 && span > 0.0 {
        lerp(upper1)
    } else {
        v21
    };
    (lower, upper)
}

/// The manifold of `normal` and `separation` with the clipped ends whose separation is within
/// `max_distance`; when neither is (both lie beyond although the faces do not), the deeper one, so
/// an overlapping pair always reports a point. On a tie the first end is kept. (Built whole, with
/// no write at a computed index: such a write stalls the copy of the result that follows.)
#[inline(always)]
pub(crate) fn with_ends(
    normal: Vec2,
    separation: Real,
    ends: [LocalPoint; 2],
    max_distance: Real,
) -> LocalManifold {
    let [e0, e1] = ends;
    let (points, count) = match (e0.separation <= max_distance, e1.separation <= max_distance) {
        (true, true) => ([e0, e1], 2),
        (true, false) => ([e0, LocalPoint::default()], 1),
        (false, true) => ([e1, LocalPoint::default()], 1),
        (false, false) if e0.separation <= e1.separation => ([e0, LocalPoint::default()], 1),
        (false, false) => ([e1, LocalPoint::default()], 1),
    };
    LocalManifold {
        normal,
        separation,
        points,
        count,
    }
}

/// The id of one end of a clipped manifold: the pair of vertices, one of each shape, at that end
/// of the two touching edges (as Box2D's ids). It does not depend on which of the two was clipped,
/// which flips with rounding when the corners coincide (two equal boxes stacked flush), nor on
/// which shape provides the reference face (a near-flush pair may swap it from one step to the
/// next): either way the solver keeps the point's warm-start impulses. `flip`: the reference is
/// shape B.
#[inline(always)]
pub(crate) fn end_id(ref_vertex: usize, inc_vertex: usize, flip: bool) -> FeatureId {
    if flip {
        FeatureId::vertex_pair(inc_vertex as u8, ref_vertex as u8)
    } else {
        FeatureId::vertex_pair(ref_vertex as u8, inc_vertex as u8)
    }
}

/// Clips the incident edge of `incident` against the reference face `edge` of `reference`.
/// `separation` is the pair's separation along the face normal (radii applied).
pub(crate) fn clip(
    reference: &Core<'_>,
    incident: &Core<'_>,
    edge: usize,
    separation: Real,
    max_distance: Real,
    flip: bool,
) -> LocalManifold {
    let nr = reference.points.len();
    let normal = reference.normals[edge];
    let v11 = reference.points[edge];
    let v12 = reference.points[if edge + 1 == nr { 0 } else { edge + 1 }];
    // Incident edge: the one whose normal is most anti-parallel to the reference normal.
    let ni = incident.points.len();
    let mut inc = 0;
    let mut min_dot = Real::INFINITY;
    for (k, n) in incident.normals.iter().enumerate() {
        let d = n.dot(normal);
        if d < min_dot {
            min_dot = d;
            inc = k;
        }
    }
    let i21 = inc;
    let i22 = if inc + 1 == ni { 0 } else { inc + 1 };
    let v21 = incident.points[i21];
    let v22 = incident.points[i22];

    // Edges run counter-clockwise with the outward normal on their right, so the unit tangent is
    // the normal turned a quarter turn left: no square root needed.
    let tangent = normal.perp();
    let lower1 = 0.0;
    let upper1 = (v12 - v11).dot(tangent);
    // The incident edge runs against the tangent: v21 is at its upper end, v22 at its lower end.
    let upper2 = (v21 - v11).dot(tangent);
    let lower2 = (v22 - v11).dot(tangent);
    let (v_lower, v_upper) = clip_segment(v21, v22, lower2, upper2, lower1, upper1);
    let i12 = if edge + 1 == nr { 0 } else { edge + 1 };
    let ends = [
        (v_lower, end_id(edge, i22, flip)),
        (v_upper, end_id(i12, i21, flip)),
    ];

    let (rr, ri) = (reference.radius, incident.radius);
    // A point halfway between the reference surface and the incident surface.
    let at = |(v, id): (Vec2, FeatureId)| {
        let s = (v - v11).dot(normal) - rr - ri;
        LocalPoint {
            point: v + (0.5 * (rr - ri - (s + rr + ri))) * normal,
            separation: s,
            id,
        }
    };
    with_ends(normal, separation, [at(ends[0]), at(ends[1])], max_distance)
}
