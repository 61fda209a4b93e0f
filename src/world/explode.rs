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

/// Where an explosion at `c` (world) meets a convex piece placed at `x`: the piece's point nearest
/// to `c` (world; its centre when `c` is inside it), their distance (metres, 0 inside), and the
/// piece's width across the direction from `c` to that point (metres; `None` when `c` is the
/// piece's centre, which gives no direction). Worked in the piece's frame: nothing allocated.
fn blast_on(piece: &Shape, x: &Transform, c: Vec2) -> Option<(Vec2, Real, Vec2, Real)> {
    let core = piece.core()?;
    let local = x.inv_transform_point(c);
    let (closest, distance) = if core.points.len() == 1 {
        let centre = core.points[0];
        let outward = (local - centre).normalize_or_zero();
        (
            centre + core.radius * outward,
            local.distance(centre) - core.radius,
        )
    } else {
        let r = point_core(core.points, core.normals, local);
        (r.closest + core.radius * r.normal, r.distance - core.radius)
    };
    let at = if distance > 0.0 {
        closest
    } else {
        core.points.iter().copied().sum::<Vec2>() / core.points.len() as Real
    };
    let direction = (at - local).try_normalize()?;
    let line = direction.perp();
    let (lo, hi) = core
        .points
        .iter()
        .fold((Real::MAX, Real::MIN), |(lo, hi), p| {
            let s = p.dot(line);
            (lo.min(s), hi.max(s))
        });
    let width = hi - lo + 2.0 * core.radius;
    Some((
        x.transform_point(at),
        distance.max(0.0),
        x.transform_vector(direction),
        width,
    ))
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
        let filter = QueryFilter {
            sensors: false,
            ..def.filter
        };
        let mut pushed = Vec::new();
        for id in self.query_aabb(&probe) {
            let key = id.index;
            if self.bodies.at(key).kind != BodyKind::Dynamic {
                continue;
            }
            let b = self.bodies.at(key);
            let (inv_inertia, centre) = (b.inv_inertia, b.pose.translation);
            // The velocity change the pieces' impulses add up to, and whether any piece was hit.
            let (mut dv, mut dw, mut hit) = (Vec2::ZERO, 0.0, false);
            self.visit_shapes(key, &filter, None, &mut |_, piece, xp| {
                let Some((at, distance, direction, width)) = blast_on(piece, xp, c) else {
                    return; // not convex, or the centre is the piece's own: no way to push it
                };
                if distance > reach {
                    return;
                }
                let scale = if distance <= def.radius || def.falloff <= 0.0 {
                    1.0
                } else {
                    ((reach - distance) / def.falloff).clamp(0.0, 1.0)
                };
                let j = def.impulse_per_length * width * scale * direction;
                dv += b.linear_response(j);
                dw += inv_inertia * (at - centre).perp_dot(j);
                hit = true;
            });
            if !hit {
                continue;
            }
            let body = self.bodies.at_mut(key);
            (body.linear_velocity, body.angular_velocity) =
                clamp_speeds(body.linear_velocity + dv, body.angular_velocity + dw);
            body.wake();
            pushed.push(id);
        }
        Ok(pushed)
    }
}
