//! One move of the character mover: push out of overlaps, slide along what the casts meet,
//! climb steps, snap to the ground, then look for ground under the end pose. Every motion is a
//! cast that stops `skin` short of the first surface (see `docs/character.md`).

use super::planes::{self, Plane};
use super::{CharacterMover, GroundContact, MoveCollision, MoveResult, Surface};
use crate::dynamics::{BodyId, ShapeId};
use crate::math::{Aabb, Real, Transform, Vec2};
use crate::query::{contact, time_of_impact_with, Motion, ToiOptions};
use crate::world::{QueryFilter, World};

/// Moves shorter than this (metres) are done.
const MIN_MOVE: Real = 1e-9;

/// A surface counts as being moved away from (the cast passes it) when the move goes into it by
/// at most this fraction of the move's length: a slide along a surface the mover sits `skin`
/// from goes into it by rounding only. Over a 1e5 m move that is 0.1 mm, well inside the skin.
const PARALLEL: Real = 1e-9;

/// What a move may do besides sliding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// A walk: climbs steps and snaps to the ground.
    Walk,
    /// Carried by a platform: slides only.
    Carry,
}

/// The first surface a cast meets.
#[derive(Clone, Copy, Debug)]
struct Hit {
    body: BodyId,
    shape: ShapeId,
    fraction: Real,
    /// Out of the surface, toward the mover.
    normal: Vec2,
    point: Vec2,
    started_inside: bool,
}

/// One move's state.
pub(super) struct Slide<'a> {
    mover: &'a CharacterMover,
    world: &'a World,
    filter: &'a QueryFilter,
    /// A body not cast against (the platform being ridden).
    ignore: Option<BodyId>,
    accept: &'a mut dyn FnMut(&MoveCollision) -> bool,
    collisions: Vec<MoveCollision>,
    /// `cos(max_slope)`: ground faces up at least this much.
    ground_cos: Real,
    /// `cos(min_slide_slope)`: ground facing up at least this much holds the character still.
    hold_cos: Real,
}

impl<'a> Slide<'a> {
    pub(super) fn new(
        mover: &'a CharacterMover,
        world: &'a World,
        filter: &'a QueryFilter,
        ignore: Option<BodyId>,
        accept: &'a mut dyn FnMut(&MoveCollision) -> bool,
    ) -> Self {
        Self {
            mover,
            world,
            filter,
            ignore,
            accept,
            collisions: Vec::new(),
            ground_cos: mover.max_slope.cos(),
            hold_cos: mover.min_slide_slope.cos(),
        }
    }

    /// Moves from `start` by `desired` (world metres).
    pub(super) fn run(mut self, start: Transform, desired: Vec2, mode: Mode) -> MoveResult {
        let up = self.mover.up;
        let mut pose = self.push_out(start);
        let on_ground = mode == Mode::Walk && self.ground_under(&pose).is_some();
        pose = self.slide(pose, desired, on_ground && self.mover.step_height > 0.0);
        if on_ground && desired.dot(up) <= 0.0 && self.mover.snap_distance > 0.0 {
            pose = self.snap_down(pose);
        }
        let ground = self.ground_under(&pose);
        let surface_met = |s| self.collisions.iter().any(|c| c.surface == s);
        MoveResult {
            transform: pose,
            translation: pose.translation - start.translation,
            grounded: ground.is_some(),
            ground,
            hit_wall: surface_met(Surface::Wall),
            hit_ceiling: surface_met(Surface::Ceiling),
            collisions: self.collisions,
            error: None,
        }
    }

    /// The sliding loop: cast what is left, stop short of the surface, make it a plane, bring
    /// the rest onto the planes, until nothing is left or the iterations run out.
    fn slide(&mut self, mut pose: Transform, desired: Vec2, climb: bool) -> Transform {
        let mut planes: Vec<Plane> = Vec::new();
        let mut left = desired;
        for _ in 0..self.mover.max_iterations {
            if left.length() <= MIN_MOVE {
                break;
            }
            let Some(hit) = self.cast(&pose, left) else {
                pose.translation += left;
                break;
            };
            pose.translation += left * hit.fraction;
            let rest = left * (1.0 - hit.fraction);
            let surface = self.record(&hit, &pose, left);
            if climb && surface == Surface::Wall {
                if let Some((stepped, after)) = self.step_up(pose, rest, &hit) {
                    pose = stepped;
                    left = after;
                    continue;
                }
            }
            self.add_planes(&mut planes, hit.normal, surface);
            left = planes::solve(&planes, rest);
        }
        pose
    }

    /// The planes a surface adds: itself, corrected along `up` when it is ground gentle enough
    /// to stand still on; and for an up-facing slope too steep to climb, also the vertical wall
    /// through it, so sliding along it never gains height.
    fn add_planes(&self, planes: &mut Vec<Plane>, normal: Vec2, surface: Surface) {
        let up = self.mover.up;
        let facing_up = normal.dot(up);
        let along = if surface == Surface::Ground && facing_up >= self.hold_cos {
            up
        } else {
            normal
        };
        planes.push(Plane { normal, along });
        if surface == Surface::Wall && facing_up > 0.0 {
            let level = normal - up * facing_up;
            if level.length() > MIN_MOVE {
                let wall = level.normalize();
                planes.push(Plane {
                    normal: wall,
                    along: wall,
                });
            }
        }
    }

    /// How a surface of this normal faces.
    fn surface(&self, normal: Vec2) -> Surface {
        let facing_up = normal.dot(self.mover.up);
        if facing_up >= self.ground_cos {
            Surface::Ground
        } else if -facing_up >= self.ground_cos {
            Surface::Ceiling
        } else {
            Surface::Wall
        }
    }

    /// Adds `hit` (met when the mover reached `pose` on a cast of `translation`) to the
    /// collisions; returns how it faces.
    fn record(&mut self, hit: &Hit, pose: &Transform, translation: Vec2) -> Surface {
        let collision = self.collision(hit, pose, translation);
        self.collisions.push(collision);
        collision.surface
    }

    fn collision(&self, hit: &Hit, pose: &Transform, translation: Vec2) -> MoveCollision {
        MoveCollision {
            body: hit.body,
            shape: hit.shape,
            point: hit.point,
            normal: hit.normal,
            surface: self.surface(hit.normal),
            fraction: hit.fraction,
            translation,
            transform: *pose,
            started_inside: hit.started_inside,
        }
    }

    /// Walks up a step: up by at most `step_height`, forward by the level part of `rest`, then
    /// down onto ground. Taken only when it gets forward and lands on ground; then returns the
    /// landing pose and what is left of the level move.
    fn step_up(&mut self, pose: Transform, rest: Vec2, wall: &Hit) -> Option<(Transform, Vec2)> {
        let up = self.mover.up;
        let level = rest - up * rest.dot(up);
        if level.length() <= MIN_MOVE || level.dot(wall.normal) >= 0.0 {
            return None;
        }
        let lift = up * self.mover.step_height;
        let raised = self.moved(pose, lift).0;
        let (ahead, forward) = self.moved(raised, level);
        if forward.is_some_and(|f| f.fraction * level.length() <= self.mover.skin) {
            return None;
        }
        let drop = raised.translation - pose.translation;
        let landing = self.cast(&ahead, -drop)?;
        let mut landed = ahead;
        landed.translation -= drop * landing.fraction;
        // The step's top, measured from the ground the mover stood on (`skin` below its lowest
        // point): no taller than `step_height`, whatever the shape's rounding lets it reach.
        let rise =
            (landing.point - pose.translation).dot(up) - (self.lowest(&pose) - self.mover.skin);
        if rise > self.mover.step_height || !self.stands_on(&landing, &landed) {
            return None;
        }
        self.record(&landing, &landed, -drop);
        let done = forward.map_or(1.0, |f| f.fraction);
        Some((landed, level * (1.0 - done)))
    }

    /// The mover's lowest point at `pose`, as a height along `up` relative to `pose`'s origin
    /// (metres, negative below it).
    fn lowest(&self, pose: &Transform) -> Real {
        let up = self.mover.up;
        // Validated convex, so it has a core; a shape without one has no lowest point below 0.
        let Some(core) = self.mover.shape.core() else {
            return 0.0;
        };
        let r = pose.rotation;
        core.points
            .iter()
            .map(|p| r.rotate(*p).dot(up))
            .fold(Real::INFINITY, Real::min)
            - core.radius
    }

    /// After a walk that started on the ground and did not go up: if no ground is under the end
    /// pose, pull down by up to `snap_distance` onto ground.
    fn snap_down(&mut self, pose: Transform) -> Transform {
        if self.ground_under(&pose).is_some() {
            return pose;
        }
        let drop = -self.mover.up * self.mover.snap_distance;
        let Some(hit) = self.cast(&pose, drop) else {
            return pose;
        };
        let mut snapped = pose;
        snapped.translation += drop * hit.fraction;
        if !self.stands_on(&hit, &snapped) {
            return pose;
        }
        self.record(&hit, &snapped, drop);
        snapped
    }

    /// The ground within `2 × skin` below `pose`, if any: the first surface below that is
    /// ground (see [`Slide::stands_on`]).
    fn ground_under(&mut self, pose: &Transform) -> Option<GroundContact> {
        let hits = self.hits(pose, -self.mover.up * self.mover.skin);
        let hit = hits.into_iter().find(|h| self.stands_on(h, pose))?;
        Some(GroundContact {
            body: hit.body,
            shape: hit.shape,
            normal: hit.normal,
            point: hit.point,
        })
    }

    /// Whether the mover at `pose` stands on the surface `hit`: its contact normal is ground,
    /// or it rests on an edge (a corner of a step or a ledge, where a round shape's contact
    /// normal leans toward the mover) whose surface just beyond the edge is ground. That surface
    /// is found by a short ray down, starting `skin` past the contact point on the far side from
    /// the mover's centre.
    fn stands_on(&self, hit: &Hit, pose: &Transform) -> bool {
        let up = self.mover.up;
        if self.surface(hit.normal) == Surface::Ground {
            return true;
        }
        if hit.normal.dot(up) <= 0.0 {
            return false;
        }
        let outward = hit.point - pose.translation;
        let level = outward - up * outward.dot(up);
        if level.length() <= MIN_MOVE {
            return false;
        }
        let skin = self.mover.skin;
        let origin = hit.point + level.normalize() * skin + up * skin;
        self.world
            .ray_cast_closest(origin, -up * (3.0 * skin), self.filter)
            .is_some_and(|r| {
                // A ray that starts inside the shape (fraction 0) found no surface beyond the
                // edge: the contact is on a rounded side, not an edge.
                r.shape == hit.shape
                    && r.hit.fraction > 0.0
                    && self.surface(r.hit.normal) == Surface::Ground
            })
    }

    /// Pushes the mover out of the shapes it starts inside: along each overlap's minimum
    /// translation, the deepest first, by the depth plus `skin`; each push is itself a cast, so
    /// it cannot be pushed through anything else.
    fn push_out(&mut self, mut pose: Transform) -> Transform {
        for _ in 0..self.mover.max_iterations {
            let Some(out) = self.deepest_overlap(&pose) else {
                break;
            };
            let (moved, _) = self.moved(pose, out);
            if moved == pose {
                break;
            }
            pose = moved;
        }
        pose
    }

    /// The push (world metres) out of the deepest shape the mover overlaps at `pose`.
    fn deepest_overlap(&mut self, pose: &Transform) -> Option<Vec2> {
        let shape = &self.mover.shape;
        let near = shape.aabb(pose);
        let mut found: Vec<(Hit, Real)> = Vec::new();
        let ignore = self.ignore;
        self.world
            .visit_pieces_in(&near, self.filter, &mut |body, id, piece, xp| {
                if ignore == Some(body) {
                    return;
                }
                if let Some(c) = contact(shape, pose, piece, xp) {
                    if c.depth > 0.0 {
                        let hit = Hit {
                            body,
                            shape: id,
                            fraction: 0.0,
                            normal: -c.normal,
                            point: c.points().first().copied().unwrap_or(pose.translation),
                            started_inside: true,
                        };
                        found.push((hit, c.depth));
                    }
                }
            });
        found.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (hit, depth) in found {
            let collision = self.collision(&hit, pose, Vec2::ZERO);
            if (self.accept)(&collision) {
                return Some(hit.normal * (depth + self.mover.skin));
            }
        }
        None
    }

    /// `pose` moved by `d` as far as a cast lets it, and the surface that stopped it.
    fn moved(&mut self, mut pose: Transform, d: Vec2) -> (Transform, Option<Hit>) {
        let hit = self.cast(&pose, d);
        pose.translation += d * hit.map_or(1.0, |h| h.fraction);
        (pose, hit)
    }

    /// The first surface the mover at `pose` meets moving by `d` (world metres): see
    /// [`Slide::hits`].
    fn cast(&mut self, pose: &Transform, d: Vec2) -> Option<Hit> {
        self.hits(pose, d).into_iter().next()
    }

    /// The surfaces the mover at `pose` meets moving by `d` (world metres), earliest first: for
    /// each shape the filter sees and the game accepts, the time at which the mover comes within
    /// `skin` of it. A shape within `skin` (or overlapping) at the start that the move does not
    /// go into is passed: along its separating axis the gap can only grow.
    fn hits(&mut self, pose: &Transform, d: Vec2) -> Vec<Hit> {
        let length = d.length();
        if length <= MIN_MOVE {
            return Vec::new();
        }
        let mover = self.mover;
        let skin = mover.skin;
        let start = mover.shape.aabb(pose);
        let near = start
            .union(&Aabb::new(start.min + d, start.max + d))
            .grown(skin);
        let motion = Motion::new(*pose, d, 0.0);
        let options = ToiOptions {
            target_separation: skin,
            ..ToiOptions::default()
        };
        let ignore = self.ignore;
        let mut candidates: Vec<Hit> = Vec::new();
        self.world
            .visit_pieces_in(&near, self.filter, &mut |body, id, piece, xp| {
                if ignore == Some(body) {
                    return;
                }
                let still = Motion::new(*xp, Vec2::ZERO, 0.0);
                let toi = time_of_impact_with(&mover.shape, &motion, piece, &still, &options);
                let Ok(Some(toi)) = toi else {
                    return;
                };
                if toi.t == 0.0 && toi.normal.dot(d) <= PARALLEL * length {
                    return;
                }
                candidates.push(Hit {
                    body,
                    shape: id,
                    fraction: toi.t,
                    normal: -toi.normal,
                    point: toi.point,
                    started_inside: toi.t == 0.0 && toi.separation < 0.0,
                });
            });
        candidates.sort_by(|a, b| a.fraction.total_cmp(&b.fraction));
        let mut at = *pose;
        candidates.retain(|hit| {
            at.translation = pose.translation + d * hit.fraction;
            let collision = self.collision(hit, &at, d);
            (self.accept)(&collision)
        });
        candidates
    }
}
