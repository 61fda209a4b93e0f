//! Explosions (`World::explode`): an impulse on every shape near a point, as Box2D v3's
//! `b2World_Explode` describes it. Each solid piece of a dynamic body within `radius + falloff`
//! of the centre is pushed away from the centre, at its point nearest to it, by
//! `impulse_per_length × (the piece's width seen from the centre) × scale`, where the width is
//! the piece's extent across the direction to the centre (a wide wall facing the blast takes
//! more than a thin post) and `scale` is 1 within `radius` and falls linearly to 0 over
//! `falloff`. A negative impulse per length pulls (an implosion). See `docs/bodies.md`.

use super::{QueryFilter, World};
use crate::constants::{MAX_FORCE, MAX_LENGTH};
use crate::dynamics::body_input::clamp_speeds;
use crate::dynamics::{BodyId, BodyKind};
use crate::math::{Aabb, Real, Transform, Vec2};
use crate::query::distance::point_core;
use crate::shape::Shape;

/// An explosion for [`World::explode`] (world frame, SI units).
#[derive(Clone, Debug, PartialEq)]
pub struct ExplosionDef {
    /// The centre (world metres).
    pub position: Vec2,
    /// Radius of full strength (metres, ≥ 0).
    pub radius: Real,
    /// Distance beyond `radius` over which the strength falls linearly to 0 (metres, ≥ 0).
    /// Default 0.
    pub falloff: Real,
    /// Impulse per metre of a shape's width facing the centre (N·s/m); negative pulls toward
    /// the centre.
    pub impulse_per_length: Real,
    /// Which shapes it reaches (sensors never: an explosion pushes solid shapes). Default: all.
    pub filter: QueryFilter,
}

impl ExplosionDef {
    /// An explosion at `position` of full strength within `radius`, no falloff, reaching every
    /// shape.
    #[must_use]
    pub fn new(position: Vec2, radius: Real, impulse_per_length: Real) -> Self {
        Self {
            position,
            radius,
            falloff: 0.0,
            impulse_per_length,
            filter: QueryFilter::default(),
        }
    }
}

/// Why an explosion was refused. Nothing was pushed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExplosionError {
    /// A number is NaN or infinite.
    #[error("{field} of the explosion is not finite ({}); give a finite number", crate::math::Num(*.value))]
    NonFinite {
        /// The field.
        field: &'static str,
        /// The value.
        value: Real,
    },
    /// A number is out of its range.
    #[error("{field} of the explosion is {}, but it must be {expected}", crate::math::Num(*.value))]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// The value.
        value: Real,
        /// What it must be.
        expected: &'static str,
    },
}

impl ExplosionDef {
    /// Checks every number (see the fields' ranges and `docs/reliability.md`).
    fn check(&self) -> Result<(), ExplosionError> {
        let fields = [
            ("position.x", self.position.x, -MAX_LENGTH, "within ±1e5 m"),
            ("position.y", self.position.y, -MAX_LENGTH, "within ±1e5 m"),
            ("radius", self.radius, 0.0, "between 0 and 1e5 m"),
            ("falloff", self.falloff, 0.0, "between 0 and 1e5 m"),
        ];
        for (field, value, lowest, expected) in fields {
            if !value.is_finite() {
                return Err(ExplosionError::NonFinite { field, value });
            }
            if value < lowest || value > MAX_LENGTH {
                return Err(ExplosionError::OutOfRange {
                    field,
                    value,
                    expected,
                });
            }
        }
        let j = self.impulse_per_length;
        if !j.is_finite() {
            return Err(ExplosionError::NonFinite {
                field: "impulse_per_length",
                value: j,
            });
        }
        if j.abs() > MAX_FORCE {
            return Err(ExplosionError::OutOfRange {
                field: "impulse_per_length",
                value: j,
                expected: "within ±1e15 N·s/m",
            });
        }
        Ok(())
    }
}

/// A convex piece's point nearest to `c` (world) and their distance (metres; 0 when `c` is
/// inside it, the point then being the piece's centre), and the piece's width across `line`
/// (a unit direction) as a function of it.
fn nearest(piece: &Shape, x: &Transform, c: Vec2) -> Option<(Vec2, Real, Vec<Vec2>, Real)> {
    let core = piece.core()?;
    let points: Vec<Vec2> = core.points.iter().map(|p| x.transform_point(*p)).collect();
    let (closest, distance) = if points.len() == 1 {
        let d = c.distance(points[0]) - core.radius;
        let dir = (c - points[0]).normalize_or_zero();
        (points[0] + core.radius * dir, d)
    } else {
        let normals: Vec<Vec2> = core
            .normals
            .iter()
            .map(|n| x.transform_vector(*n))
            .collect();
        let r = point_core(&points, &normals, c);
        (r.closest + core.radius * r.normal, r.distance - core.radius)
    };
    if distance <= 0.0 {
        let centre = points.iter().copied().sum::<Vec2>() / points.len() as Real;
        return Some((centre, 0.0, points, core.radius));
    }
    Some((closest, distance, points, core.radius))
}

impl World {
    /// Pushes every solid shape of the dynamic bodies near `def.position` away from it (see the
    /// module notes of `world/explode.rs` and `docs/bodies.md`); sleeping bodies it reaches wake.
    /// Returns the bodies it pushed, sorted. A speed past the limits (1e5 m/s, 1e5 rad/s) is held
    /// to them, as every step does. Refused, changing nothing, for a non-finite or out-of-range
    /// number.
    pub fn explode(&mut self, def: &ExplosionDef) -> Result<Vec<BodyId>, ExplosionError> {
        def.check()?;
        let c = def.position;
        let reach = def.radius + def.falloff;
        let probe = Aabb {
            min: c - Vec2::splat(reach),
            max: c + Vec2::splat(reach),
        };
        let mut keys = Vec::new();
        self.broad_phase.query(&probe, |key| {
            keys.push(key);
            true
        });
        keys.sort_unstable();
        keys.dedup();
        let filter = QueryFilter {
            sensors: false,
            ..def.filter
        };
        let mut pushed = Vec::new();
        for key in keys {
            if self.bodies.at(key).kind != BodyKind::Dynamic {
                continue;
            }
            // The impulses on this body's pieces: (point, impulse).
            let mut blows: Vec<(Vec2, Vec2)> = Vec::new();
            self.visit_shapes(key, &filter, &mut |_, piece, xp| {
                let Some((at, distance, points, radius)) = nearest(piece, xp, c) else {
                    return;
                };
                if distance > reach {
                    return;
                }
                let Some(direction) = (at - c).try_normalize() else {
                    return; // the centre is the piece's own centre: no way to push it
                };
                let line = direction.perp();
                let (lo, hi) = points.iter().fold((Real::MAX, Real::MIN), |(lo, hi), p| {
                    let s = p.dot(line);
                    (lo.min(s), hi.max(s))
                });
                let width = hi - lo + 2.0 * radius;
                let scale = if distance <= def.radius || def.falloff <= 0.0 {
                    1.0
                } else {
                    ((reach - distance) / def.falloff).clamp(0.0, 1.0)
                };
                blows.push((at, def.impulse_per_length * width * scale * direction));
            });
            if blows.is_empty() {
                continue;
            }
            let body = self.bodies.at_mut(key);
            let (mut v, mut w) = (body.linear_velocity, body.angular_velocity);
            for (at, j) in blows {
                v += body.inv_mass * j;
                w += body.inv_inertia * (at - body.pose.translation).perp_dot(j);
            }
            (body.linear_velocity, body.angular_velocity) = clamp_speeds(v, w);
            body.wake();
            pushed.push(self.bodies.id(key));
        }
        pushed.sort();
        Ok(pushed)
    }
}
