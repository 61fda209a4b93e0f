//! Spatial queries as a system parameter, returning entities: ray casts, shape casts (exact time
//! of impact for a translation), overlaps and point queries against the world as it stands
//! (after the last step and the frame's changes), with layer filters.

use crate::{CollisionLayers, Physics};
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_math::DVec2;
use sweep2d::{QueryFilter, Shape, Transform};

/// What a query sees: shapes on a layer in `layers.filters` whose own filters include one of
/// `layers.memberships`; sensors only with `sensors`; never `exclude`'s body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpatialQueryFilter {
    /// The query's layers, as a shape's (default: layer 1, seeing every layer).
    pub layers: CollisionLayers,
    /// Whether sensors are seen.
    pub sensors: bool,
    /// An entity whose body is skipped (the caster's own).
    pub exclude: Option<Entity>,
}

/// A ray or shape cast's first hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// The entity hit.
    pub entity: Entity,
    /// Fraction of the cast's translation before the hit, in [0, 1].
    pub fraction: f64,
    /// Contact point (m, world).
    pub point: DVec2,
    /// Unit normal of the surface hit, against the cast.
    pub normal: DVec2,
}

/// Ray casts, shape casts, overlaps and point queries for systems:
/// `fn aim(query: SpatialQuery) { query.cast_ray(origin, translation, &filter) }`.
#[derive(SystemParam)]
pub struct SpatialQuery<'w> {
    physics: Res<'w, Physics>,
}

impl SpatialQuery<'_> {
    fn filter(&self, f: &SpatialQueryFilter) -> QueryFilter {
        QueryFilter {
            filter: f.layers.filter(),
            sensors: f.sensors,
            exclude: f.exclude.and_then(|e| self.physics.body(e)),
        }
    }

    /// The first shape the ray from `origin` along `translation` (m, world) meets.
    #[must_use]
    pub fn cast_ray(
        &self,
        origin: DVec2,
        translation: DVec2,
        filter: &SpatialQueryFilter,
    ) -> Option<CastHit> {
        let q = self.filter(filter);
        let hit = self
            .physics
            .read(|w| w.ray_cast_closest(origin, translation, &q))?;
        Some(CastHit {
            entity: self.physics.entity(hit.body)?,
            fraction: hit.hit.fraction,
            point: hit.hit.point,
            normal: hit.hit.normal,
        })
    }

    /// The first shape `shape`, at `position` (m) and `angle` (rad), meets when moved by
    /// `translation` (m): the exact time of impact.
    #[must_use]
    pub fn cast_shape(
        &self,
        shape: &Shape,
        position: DVec2,
        angle: f64,
        translation: DVec2,
        filter: &SpatialQueryFilter,
    ) -> Option<CastHit> {
        let q = self.filter(filter);
        let at = Transform::new(position, angle);
        let hit = self
            .physics
            .read(|w| w.shape_cast(shape, &at, translation, &q))?;
        Some(CastHit {
            entity: self.physics.entity(hit.body)?,
            fraction: hit.fraction,
            point: hit.point,
            normal: hit.normal,
        })
    }

    /// The entities whose shapes `shape` at `position`/`angle` overlaps or touches, each once.
    #[must_use]
    pub fn overlaps(
        &self,
        shape: &Shape,
        position: DVec2,
        angle: f64,
        filter: &SpatialQueryFilter,
    ) -> Vec<Entity> {
        let q = self.filter(filter);
        let at = Transform::new(position, angle);
        let shapes = self.physics.read(|w| w.overlap_shape(shape, &at, &q));
        let mut out: Vec<Entity> = shapes
            .iter()
            .filter_map(|s| self.physics.entity(s.body()))
            .collect();
        out.dedup();
        out
    }

    /// The entities whose bodies contain the world point `point` (m).
    #[must_use]
    pub fn point(&self, point: DVec2) -> Vec<Entity> {
        let bodies = self.physics.read(|w| w.query_point(point));
        bodies
            .iter()
            .filter_map(|b| self.physics.entity(*b))
            .collect()
    }
}
