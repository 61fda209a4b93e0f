//! Queries on a world: ray casts (closest, all), shape casts, shape overlaps, point and box queries,
//! all through the broad phase's trees with the exact shape tests and a [`QueryFilter`], and
//! whole-world measures (energy, momentum, deepest overlap, counts).

use super::World;
use crate::dynamics::{Body, BodyId, Filter, ShapeDef, ShapeId};
use crate::math::{Aabb, Real, Transform, Vec2};
use crate::query::{
    contains_point, intersects, ray_cast, time_of_impact, visit_pieces_near, Motion, RayHit,
};
use crate::shape::Shape;

/// A ray-cast hit on a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit {
    /// The body hit.
    pub body: BodyId,
    /// The shape hit.
    pub shape: ShapeId,
    /// Where and how: fraction of the ray, point and surface normal (world).
    pub hit: RayHit,
}

/// Which shapes a world query sees: those whose filter and this one's collide
/// ([`Filter::should_collide`]), sensors only when `sensors` is set, and never the shapes of
/// `exclude` (the body casting the query, say). The default sees every solid shape.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct QueryFilter {
    /// The query's own category, mask and group.
    pub filter: Filter,
    /// Whether sensor shapes are reported too. Default false.
    pub sensors: bool,
    /// A body whose shapes are skipped.
    pub exclude: Option<BodyId>,
}

impl QueryFilter {
    /// Whether the query sees the shape `def` of body `body`.
    fn sees(&self, body: BodyId, def: &ShapeDef) -> bool {
        self.exclude != Some(body)
            && (self.sensors || !def.sensor)
            && self.filter.should_collide(&def.filter)
    }
}

/// The first shape a moving shape meets ([`World::shape_cast`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastHit {
    /// The body hit.
    pub body: BodyId,
    /// The shape hit.
    pub shape: ShapeId,
    /// Fraction of the translation at which the shapes touch, in `[0, 1]` (0 when they overlap
    /// at the start).
    pub fraction: Real,
    /// Contact point (world metres) at that moment.
    pub point: Vec2,
    /// Unit normal from the cast shape toward the shape hit (world).
    pub normal: Vec2,
}

impl World {
    /// Casts a ray from `origin` along `translation` (world metres) and returns the nearest solid
    /// shape hit (any filter).
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<WorldRayHit> {
        self.ray_cast_closest(origin, translation, &QueryFilter::default())
    }

    /// The nearest shape the ray `origin + s · translation`, `s ∈ [0, 1]` (world metres) hits
    /// among those `filter` sees. Through the broad phase's trees (the ray is clipped at each
    /// hit, so far boxes are never opened).
    #[must_use]
    pub fn ray_cast_closest(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Option<WorldRayHit> {
        if !(origin.is_finite() && translation.is_finite()) {
            return None;
        }
        let mut best: Option<WorldRayHit> = None;
        self.broad_phase.ray_cast(origin, translation, |key, max| {
            for hit in self.ray_hits(key, origin, translation, filter) {
                if hit.hit.fraction <= max && best.is_none_or(|b| hit.hit.fraction < b.hit.fraction)
                {
                    best = Some(hit);
                }
            }
            best.map_or(max, |b| b.hit.fraction.min(max))
        });
        best
    }

    /// Every shape the ray hits among those `filter` sees, nearest first (one hit per shape: where
    /// the ray enters it).
    #[must_use]
    pub fn ray_cast_all(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Vec<WorldRayHit> {
        let mut out = Vec::new();
        if !(origin.is_finite() && translation.is_finite()) {
            return out;
        }
        self.broad_phase.ray_cast(origin, translation, |key, max| {
            out.extend(self.ray_hits(key, origin, translation, filter));
            max
        });
        out.sort_by(|a, b| {
            a.hit
                .fraction
                .total_cmp(&b.hit.fraction)
                .then(a.shape.cmp(&b.shape))
        });
        out
    }

    /// The ray's hit on each shape of body `key` that `filter` sees (nearest piece per shape).
    fn ray_hits(
        &self,
        key: u32,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Vec<WorldRayHit> {
        let id = self.bodies.id(key);
        let mut hits: Vec<WorldRayHit> = Vec::new();
        self.visit_shapes(key, filter, None, &mut |shape_index, piece, xp| {
            let Some(hit) = ray_cast(piece, xp, origin, translation) else {
                return;
            };
            let shape = ShapeId {
                body: id,
                index: shape_index,
            };
            match hits.iter_mut().find(|h| h.shape == shape) {
                Some(h) if h.hit.fraction <= hit.fraction => {}
                Some(h) => h.hit = hit,
                None => hits.push(WorldRayHit {
                    body: id,
                    shape,
                    hit,
                }),
            }
        });
        hits
    }

    /// Calls `f(shape number, piece, piece pose)` for every convex piece of body `key`'s shapes
    /// that `filter` sees (sensors from the body's sensor list), world poses; only the pieces
    /// whose boxes meet `near` when it is given (a compound's piece index finds them).
    pub(super) fn visit_shapes(
        &self,
        key: u32,
        filter: &QueryFilter,
        near: Option<&Aabb>,
        f: &mut dyn FnMut(u32, &Shape, &Transform),
    ) {
        let body = self.bodies.at(key);
        let id = self.bodies.id(key);
        if body.disabled.is_some() {
            return; // out of the queries (`World::set_enabled`)
        }
        if body.solid {
            visit_pieces_near(&body.com_shape, &body.pose, near, &mut |piece, xp, j| {
                let def = body.piece_shape(j);
                if filter.sees(id, def) {
                    f(body.piece_shape_index(j), piece, xp);
                }
            });
        }
        if filter.sensors {
            for (slot, shape) in &body.sensors {
                let s = &body.shapes[*slot as usize];
                if filter.sees(id, &s.def) {
                    visit_pieces_near(shape, &body.pose, near, &mut |piece, xp, _| {
                        f(s.index, piece, xp);
                    });
                }
            }
        }
    }

    /// Calls `f(body, shape, piece, piece pose)` for every convex piece that `filter` sees whose
    /// box meets `near` (world metres, world poses): the broad phase, then the pieces' boxes.
    /// What the character mover (`character/`) casts and tests against.
    pub(crate) fn visit_pieces_in(
        &self,
        near: &Aabb,
        filter: &QueryFilter,
        f: &mut dyn FnMut(BodyId, ShapeId, &Shape, &Transform),
    ) {
        self.broad_phase.query(near, |key| {
            let id = self.bodies.id(key);
            self.visit_shapes(key, filter, Some(near), &mut |index, piece, xp| {
                f(id, ShapeId { body: id, index }, piece, xp);
            });
            true
        });
    }

    /// The first shape that `shape`, placed at `transform` and moved by `translation` (world
    /// metres, no rotation), meets among those `filter` sees: the exact translational time of
    /// impact against the shapes whose boxes the swept box meets in the broad phase. `None` if it
    /// meets nothing, or for non-finite input.
    #[must_use]
    pub fn shape_cast(
        &self,
        shape: &Shape,
        transform: &Transform,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Option<ShapeCastHit> {
        if !(transform.is_finite() && translation.is_finite()) {
            return None;
        }
        let start = shape.aabb(transform);
        let swept = start.union(&Aabb {
            min: start.min + translation,
            max: start.max + translation,
        });
        let motion = Motion::new(*transform, translation, 0.0);
        let mut best: Option<ShapeCastHit> = None;
        self.broad_phase.query(&swept, |key| {
            let id = self.bodies.id(key);
            self.visit_shapes(key, filter, Some(&swept), &mut |index, piece, xp| {
                let still = Motion::new(*xp, Vec2::ZERO, 0.0);
                let Some(toi) = time_of_impact(shape, &motion, piece, &still) else {
                    return;
                };
                if best.is_none_or(|b| toi.t < b.fraction) {
                    best = Some(ShapeCastHit {
                        body: id,
                        shape: ShapeId { body: id, index },
                        fraction: toi.t,
                        point: toi.point,
                        normal: toi.normal,
                    });
                }
            });
            true
        });
        best
    }

    /// The shapes that `shape` placed at `transform` (world) overlaps or touches, among those
    /// `filter` sees, sorted by id: a box query in the broad phase, then the exact SAT test.
    #[must_use]
    pub fn overlap_shape(
        &self,
        shape: &Shape,
        transform: &Transform,
        filter: &QueryFilter,
    ) -> Vec<ShapeId> {
        let mut out = Vec::new();
        if !transform.is_finite() {
            return out;
        }
        let near = shape.aabb(transform);
        self.broad_phase.query(&near, |key| {
            let id = self.bodies.id(key);
            self.visit_shapes(key, filter, Some(&near), &mut |index, piece, xp| {
                let sid = ShapeId { body: id, index };
                if !out.contains(&sid) && intersects(shape, transform, piece, xp) {
                    out.push(sid);
                }
            });
            true
        });
        out.sort();
        out
    }

    /// The bodies containing the world point `p`, sorted by id.
    #[must_use]
    pub fn query_point(&self, p: Vec2) -> Vec<BodyId> {
        let probe = Aabb { min: p, max: p };
        let mut out = Vec::new();
        self.query_proxies(&probe, |id, body| {
            if contains_point(&body.com_shape, &body.pose, p) {
                out.push(id);
            }
        });
        out.sort();
        out
    }

    /// The bodies whose world box overlaps `aabb` (world metres), sorted by id.
    #[must_use]
    pub fn query_aabb(&self, aabb: &Aabb) -> Vec<BodyId> {
        let mut out = Vec::new();
        self.query_proxies(aabb, |id, body| {
            if body.aabb().overlaps(aabb) {
                out.push(id);
            }
        });
        out.sort();
        out
    }

    fn query_proxies(&self, aabb: &Aabb, mut f: impl FnMut(BodyId, &Body)) {
        self.broad_phase.query(aabb, |key| {
            let body = self.bodies.at(key);
            if body.disabled.is_none() {
                f(self.bodies.id(key), body);
            }
            true
        });
    }

    /// Number of body pairs whose broad-phase boxes overlap (contacts the narrow phase tracks).
    #[must_use]
    pub fn pair_count(&self) -> usize {
        self.contacts.len()
    }

    /// Number of manifold points the solver saw in the last step (touching or speculative).
    #[must_use]
    pub fn contact_point_count(&self) -> usize {
        self.contacts
            .as_slice()
            .iter()
            .flat_map(|c| c.manifolds.iter())
            .map(|m| m.count)
            .sum()
    }

    /// The deepest overlap between any two bodies at their current poses (metres, ≥ 0) and the
    /// pair, or `None` when nothing overlaps. Exact shape queries over the pairs the broad phase
    /// tracks (every pair within the speculative distance), so it costs a contact query per pair:
    /// for analysis, not for every frame of a game.
    #[must_use]
    pub fn deepest_overlap(&self) -> Option<(Real, BodyId, BodyId)> {
        let mut deepest: Option<(Real, BodyId, BodyId)> = None;
        for c in self.contacts.as_slice() {
            let (a, b) = (self.bodies.at(c.a), self.bodies.at(c.b));
            if let Some(k) = crate::query::contact(&a.com_shape, &a.pose, &b.com_shape, &b.pose) {
                if k.depth > 0.0 && deepest.is_none_or(|d| k.depth > d.0) {
                    deepest = Some((k.depth, self.bodies.id(c.a), self.bodies.id(c.b)));
                }
            }
        }
        deepest
    }

    /// Total kinetic energy of all bodies (J).
    #[must_use]
    pub fn kinetic_energy(&self) -> Real {
        self.bodies().map(|(_, b)| b.kinetic_energy()).sum()
    }

    /// Total linear momentum of the dynamic bodies (kg·m/s).
    #[must_use]
    pub fn linear_momentum(&self) -> Vec2 {
        self.bodies().map(|(_, b)| b.mass * b.linear_velocity).sum()
    }
}
