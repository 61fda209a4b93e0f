//! Swept hulls: a convex region that holds a shape at every pose of a motion, and the swept SAT
//! rejection test built on it.
//!
//! * A translating convex shape sweeps exactly the convex hull of its start and end poses (a circle
//!   sweeps a capsule), rounding radius kept.
//! * With rotation, the hull of the core at `k + 1` evenly spaced angles is grown by a bound on how
//!   far a point strays from the chord between two samples. Between samples the translation is
//!   linear and cancels against the linear interpolant, so only the rotation part remains:
//!   `g(s) = R(θᵢ + sΔθ)q − lerp(R(θᵢ)q, R(θᵢ₊₁)q, s)` has `g(0) = g(1) = 0` and `|g''| ≤ |q|Δθ²`,
//!   hence `|g| ≤ |q|Δθ²/8` (the interpolation-error bound, applied along the direction of `g`).
//!   That bound is at least the chord sagitta `|q|(1 − cos(Δθ/2))`, and it is proven for every `s`.
//! * Past a full turn the shape can take any orientation, so the hull is the capsule of its
//!   bounding radius around the path of its local origin: no cap on the angle turned per step.
//!
//! Swept SAT: two motions can only meet if the swept regions intersect. Under pure translation
//! the test uses A's hull swept by the *relative* motion against B at rest, which is exact; with
//! rotation both hulls are swept in the world, which is conservative (never rejects a pair that
//! meets).

use super::manifold::with_moved;
use super::motion::Motion;
use super::sat::cores_intersect;
use super::visit_pieces;
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};
use crate::shape::hull::convex_hull_indices;
use crate::shape::{Core, Shape};

/// Largest rotation (radians) between two sampled poses of a swept hull. The hull is grown by
/// `reach · step² / 8` to cover the arc between samples (0.019 × reach at π/8): smaller steps give
/// tighter hulls and more points.
const SWEEP_ANGLE_STEP: Real = core::f64::consts::PI / 8.0;

/// Most angle samples of a swept hull (two full turns at [`SWEEP_ANGLE_STEP`]); past it the hull is
/// the capsule of the bounding radius around the path, which holds every orientation.
const MAX_SWEEP_SAMPLES: usize = 16;

/// A convex region in the world frame (metres): the convex hull of `vertices` grown by `radius`.
/// Holds a shape at every pose of a motion over `t ∈ [0, 1]`. With one vertex it is a disc, with
/// two a capsule.
#[derive(Clone, Debug, PartialEq)]
pub struct SweptHull {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
    radius: Real,
}

impl SweptHull {
    /// The hull of `points` grown by `radius` (metres).
    pub(crate) fn from_points(points: &[Vec2], radius: Real) -> Self {
        let idx = convex_hull_indices(points);
        // Collinear points give their two extremes (a segment core), coincident ones a single point.
        let vertices: Vec<Vec2> = if idx.is_empty() {
            points.first().copied().into_iter().collect()
        } else {
            idx.iter().map(|&i| points[i]).collect()
        };
        let n = vertices.len();
        let normals = match n {
            0 | 1 => Vec::new(),
            _ => (0..n)
                .map(|i| {
                    let e = vertices[(i + 1) % n] - vertices[i];
                    Vec2::new(e.y, -e.x).normalize()
                })
                .collect(),
        };
        Self {
            vertices,
            normals,
            radius,
        }
    }

    /// The hull's core vertices, counter-clockwise, world frame (metres).
    #[must_use]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// The radius the core is grown by (metres).
    #[must_use]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The world bounding box of the hull (metres).
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::from_points(&self.vertices)
            .unwrap_or(Aabb {
                min: Vec2::ZERO,
                max: Vec2::ZERO,
            })
            .grown(self.radius)
    }

    /// Returns `true` if the world point `p` lies in the hull (boundary included).
    #[must_use]
    pub fn contains_point(&self, p: Vec2) -> bool {
        match self.vertices.len() {
            0 => false,
            1 => p.distance(self.vertices[0]) <= self.radius,
            _ => {
                super::distance::point_core(&self.vertices, &self.normals, p).distance
                    <= self.radius
            }
        }
    }

    /// The hull as a core for the SAT kernels.
    pub(crate) fn core(&self) -> Core<'_> {
        Core {
            points: &self.vertices,
            normals: &self.normals,
            radius: self.radius,
            axes: crate::shape::ALL_AXES,
        }
    }
}

/// Every core point of a shape in its local frame and the largest rounding radius among them
/// (a compound contributes all its pieces).
fn core_points(shape: &Shape) -> (Vec<Vec2>, Real) {
    match shape {
        Shape::Compound(c) => {
            let mut pts = Vec::new();
            let mut r: Real = 0.0;
            for p in c.pieces() {
                let core = p.shape.core().expect("compound pieces are convex");
                pts.extend(core.points.iter().map(|q| p.transform.transform_point(*q)));
                r = r.max(core.radius);
            }
            (pts, r)
        }
        convex => {
            let core = convex.core().expect("convex shape");
            (core.points.to_vec(), core.radius)
        }
    }
}

/// The swept hull of `shape` (placed by `piece` in its body's frame) under the body's `motion`.
pub(crate) fn swept_hull_of(shape: &Shape, piece: &Transform, motion: &Motion) -> SweptHull {
    let (local, radius) = core_points(shape);
    let local: Vec<Vec2> = local.iter().map(|q| piece.transform_point(*q)).collect();
    let turn = motion.angular.abs();
    let samples = (turn / SWEEP_ANGLE_STEP).ceil() as usize;
    if samples > MAX_SWEEP_SAMPLES {
        // Any orientation is reached: the disc of the bounding radius about the local origin,
        // swept along the origin's straight path.
        let reach = local.iter().map(|q| q.length()).fold(0.0, Real::max) + radius;
        let a = motion.start.translation;
        return SweptHull::from_points(&[a, a + motion.linear], reach);
    }
    let k = samples.max(1);
    let mut pts = Vec::with_capacity((k + 1) * local.len());
    for i in 0..=k {
        let xf = motion.pose_at(i as Real / k as Real);
        pts.extend(local.iter().map(|q| xf.transform_point(*q)));
    }
    let step = turn / k as Real;
    let reach = local.iter().map(|q| q.length()).fold(0.0, Real::max);
    SweptHull::from_points(&pts, radius + reach * step * step / 8.0)
}

/// The convex region `shape` covers while moving by `motion` over `t ∈ [0, 1]` (world frame).
///
/// Exact (the convex hull of start and end) under pure translation; with rotation, a hull proven to
/// hold every intermediate pose (see the module notes). For a compound, one hull holds all pieces.
#[must_use]
pub fn swept_hull(shape: &Shape, motion: &Motion) -> SweptHull {
    swept_hull_of(shape, &Transform::IDENTITY, motion)
}

/// The world bounding box of everything `shape` covers during `motion` (metres): the box of its
/// swept hull. Under pure translation it is the union of the start and end boxes.
#[must_use]
pub fn swept_aabb(shape: &Shape, motion: &Motion) -> Aabb {
    if motion.is_translation() {
        return shape.aabb(&motion.start).union(&shape.aabb(&motion.end()));
    }
    swept_hull(shape, motion).aabb()
}

/// Returns `false` only if the two shapes cannot touch at any `t ∈ [0, 1]` of their motions: the
/// swept SAT rejection test. Exact under pure translation (a `true` means they do meet);
/// conservative with rotation (a `true` means they may meet). Compounds are tested piece by piece.
#[must_use]
pub fn swept_intersects(a: &Shape, ma: &Motion, b: &Shape, mb: &Motion) -> bool {
    // Pieces are visited in their body's frame (identity placement): `x` is the piece's placement.
    let mut hit = false;
    visit_pieces(a, &Transform::IDENTITY, &mut |pa, xa, _| {
        if hit {
            return;
        }
        visit_pieces(b, &Transform::IDENTITY, &mut |pb, xb, _| {
            if !hit {
                hit = pieces_swept_intersect(pa, xa, ma, pb, xb, mb);
            }
        });
    });
    hit
}

/// Swept SAT for two convex pieces placed by `xa`/`xb` in bodies moving by `ma`/`mb`.
pub(crate) fn pieces_swept_intersect(
    a: &Shape,
    xa: &Transform,
    ma: &Motion,
    b: &Shape,
    xb: &Transform,
    mb: &Motion,
) -> bool {
    if ma.is_translation() && mb.is_translation() {
        // A swept by the relative translation, against B at its start pose: exact.
        let rel = Motion::new(ma.start, ma.linear - mb.linear, 0.0);
        let hull = swept_hull_of(a, xa, &rel);
        let b_core = b.core().expect("pieces are convex");
        return with_moved(&b_core, &(mb.start * *xb), |bc| {
            cores_intersect(&hull.core(), bc)
        });
    }
    let ha = swept_hull_of(a, xa, ma);
    let hb = swept_hull_of(b, xb, mb);
    ha.aabb().overlaps(&hb.aabb()) && cores_intersect(&ha.core(), &hb.core())
}
