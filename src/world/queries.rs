//! Queries on a world: ray casts, point and box queries through the broad phase with the exact
//! shape tests, and whole-world measures (energy, momentum, deepest overlap, counts).

use super::World;
use crate::dynamics::{Body, BodyId};
use crate::math::{Aabb, Real, Vec2};
use crate::query::{contains_point, ray_cast, RayHit};

/// A ray-cast hit on a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit {
    /// The body hit.
    pub body: BodyId,
    /// Where and how: fraction of the ray, point and surface normal (world).
    pub hit: RayHit,
}

impl World {
    /// Casts a ray from `origin` along `translation` (world metres) and returns the nearest body hit.
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<WorldRayHit> {
        let mut best: Option<WorldRayHit> = None;
        self.broad_phase.ray_cast(origin, translation, |key, max| {
            let body = self.bodies.at(key);
            if let Some(hit) = ray_cast(&body.com_shape, &body.pose, origin, translation) {
                if hit.fraction <= max && best.is_none_or(|b| hit.fraction < b.hit.fraction) {
                    best = Some(WorldRayHit {
                        body: self.bodies.id(key),
                        hit,
                    });
                    return hit.fraction;
                }
            }
            max
        });
        best
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
            f(self.bodies.id(key), self.bodies.at(key));
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
