//! The character mover: moves a shape through a [`World`] the way gameplay code moves a player
//! (slides along walls, walks up slopes and steps, snaps down to the ground, rides platforms,
//! pushes what it walks into) with the world's exact translational shape casts, so it never
//! passes through geometry at any speed.
//!
//! Method: collide and slide with a plane solver (the scheme of Quake's `PM_SlideMove`, and of
//! Box2D v3.1's mover). Each iteration casts the shape along what is left of the move and stops it
//! `skin` metres short of the first surface (the time of impact with that target gap, exact for a
//! translation). The surface becomes a plane the rest of the move may not cross, and what is left
//! is brought onto the region every plane of the call allows (`planes.rs`). A walls-only rule
//! would let the character climb any slope, so an up-facing slope too steep to climb also adds
//! its horizontal wall, and a slope gentle enough to stand on takes the move's push into it out
//! along `up` (the character stands still on it instead of creeping down). Steps, ground
//! snapping and platforms are more casts (`slide.rs`). The algorithm, its guarantees and how it
//! differs from Box2D's and Rapier's movers are in `docs/character.md`.

mod planes;
mod slide;

use crate::constants::{MAX_LENGTH, MAX_SPEED, ROTATION_TOLERANCE};
use crate::dynamics::{BodyId, BodyKind, ShapeId};
use crate::math::{Num, Real, Transform, Vec2};
use crate::shape::Shape;
use crate::world::{QueryFilter, World};
use slide::{Mode, Slide};

/// A character mover: the shape and the settings of a character moved by
/// [`CharacterMover::move_and_slide`]. It holds no state between calls: the game keeps the
/// character's [`Transform`] and passes it in. Units: metres and radians, world frame.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterMover {
    /// The character's shape, in the frame of the transform given to the calls: a circle, a
    /// capsule or a convex polygon (a box), optionally rounded. The mover never turns it.
    pub shape: Shape,
    /// Unit "up" direction (world): what ground, walls and ceilings are measured against.
    /// Default +y.
    pub up: Vec2,
    /// The gap (metres) the mover keeps from every surface it stops at, so that sliding along a
    /// surface never starts inside it. Default 0.01 m; within 1e-6 to 1 m.
    pub skin: Real,
    /// The steepest slope (radians from horizontal) the character walks up and stands on as
    /// ground. Default π/4 (45°); within 0 to π/2.
    pub max_slope: Real,
    /// Slopes up to this steepness (radians) hold the character still under a downward push
    /// (gravity): the push into the slope is taken out along `up`, not along the slope's normal.
    /// Ground steeper than this (but no steeper than `max_slope`) lets it slide down. Default π/4;
    /// within 0 to π/2.
    pub min_slide_slope: Real,
    /// The tallest step (metres) the character walks up while on the ground; 0 for none.
    /// Default 0.25 m; within 0 to 1e5 m.
    pub step_height: Real,
    /// How far down (metres) the character is pulled to stay on the ground after a move that
    /// started on it and does not go up (walking down slopes and stairs); 0 for none.
    /// Default 0.25 m; within 0 to 1e5 m.
    pub snap_distance: Real,
    /// The most casts a move slides through (each surface met costs one). Default 6; 1 to 64.
    pub max_iterations: u32,
    /// The character's mass (kg), used only by [`CharacterMover::push_bodies`]. Default 80 kg;
    /// positive, at most 1e12 kg.
    pub mass: Real,
}

impl CharacterMover {
    /// A mover for `shape` with the default settings (see each field).
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            up: Vec2::Y,
            skin: 0.01,
            max_slope: std::f64::consts::FRAC_PI_4,
            min_slide_slope: std::f64::consts::FRAC_PI_4,
            step_height: 0.25,
            snap_distance: 0.25,
            max_iterations: 6,
            mass: 80.0,
        }
    }

    /// Checks the settings against their documented ranges; every move checks them first.
    ///
    /// # Errors
    /// [`MoverError::Shape`] for a shape that is not a circle, capsule or convex polygon,
    /// [`MoverError::NonFinite`] or [`MoverError::OutOfRange`] for a setting outside its range.
    pub fn validate(&self) -> Result<(), MoverError> {
        if !self.shape.is_convex() || matches!(self.shape, Shape::Capsule(c) if c.radius == 0.0) {
            return Err(MoverError::Shape {
                kind: shape_kind(&self.shape),
            });
        }
        check_vector("up", self.up)?;
        if (self.up.length() - 1.0).abs() > ROTATION_TOLERANCE {
            return Err(MoverError::OutOfRange {
                field: "up",
                value: self.up.length(),
                expected: "a unit vector (length 1): normalize it",
            });
        }
        let half_turn = std::f64::consts::FRAC_PI_2;
        let ranges = [
            ("skin", self.skin, 1e-6, 1.0, "between 1e-6 and 1 m"),
            (
                "max_slope",
                self.max_slope,
                0.0,
                half_turn,
                "between 0 and π/2 rad",
            ),
            (
                "min_slide_slope",
                self.min_slide_slope,
                0.0,
                half_turn,
                "between 0 and π/2 rad",
            ),
            (
                "step_height",
                self.step_height,
                0.0,
                MAX_LENGTH,
                "between 0 and 1e5 m",
            ),
            (
                "snap_distance",
                self.snap_distance,
                0.0,
                MAX_LENGTH,
                "between 0 and 1e5 m",
            ),
            (
                "mass",
                self.mass,
                Real::MIN_POSITIVE,
                1e12,
                "positive, at most 1e12 kg",
            ),
        ];
        for (field, value, lo, hi, expected) in ranges {
            check_number(field, value)?;
            if !(lo..=hi).contains(&value) {
                return Err(MoverError::OutOfRange {
                    field,
                    value,
                    expected,
                });
            }
        }
        if !(1..=MAX_MOVER_ITERATIONS).contains(&self.max_iterations) {
            return Err(MoverError::OutOfRange {
                field: "max_iterations",
                value: Real::from(self.max_iterations),
                expected: "between 1 and 64",
            });
        }
        Ok(())
    }

    /// Moves the character from `transform` (its shape's frame in the world) by `desired`
    /// (world metres, this frame's move: velocity × dt, gravity included), sliding along what it
    /// meets among the shapes `filter` sees. The result's `transform` is where it ends, never
    /// inside or past anything it started outside of, and at least `skin` from what it stopped at.
    ///
    /// A call that is refused (a setting out of range, a non-finite or non-unit `transform`, a
    /// non-finite `desired` or one longer than 1e5 m) leaves the character where it was and says
    /// why in [`MoveResult::error`]; it never panics.
    #[must_use]
    pub fn move_and_slide(
        &self,
        world: &World,
        transform: Transform,
        desired: Vec2,
        filter: &QueryFilter,
    ) -> MoveResult {
        self.move_and_slide_with(world, transform, desired, filter, &mut |_| true)
    }

    /// [`CharacterMover::move_and_slide`] with the game's say over each surface: `accept` is asked
    /// about every surface the move would stop at (before it stops there) and about every overlap
    /// it would push out of; returning `false` lets the character pass through that shape for
    /// this call. A one-way platform accepts only `Surface::Ground` met from outside
    /// (`!collision.started_inside`); see `docs/character.md`.
    #[must_use]
    pub fn move_and_slide_with(
        &self,
        world: &World,
        transform: Transform,
        desired: Vec2,
        filter: &QueryFilter,
        accept: &mut dyn FnMut(&MoveCollision) -> bool,
    ) -> MoveResult {
        if let Err(error) = self.check_move(&transform, desired) {
            return MoveResult::refused(transform, error);
        }
        Slide::new(self, world, filter, None, accept).run(transform, desired, Mode::Walk)
    }

    /// Carries the character along with the body it stands on over the world's last step: the
    /// ground's point under it (`ground.point`) goes where that body's motion took it (its
    /// translation and turn about its centre), and the character is moved by the same
    /// translation, sliding against everything else (the ground body itself is not cast
    /// against). Call it after [`World::step`] and before the frame's own move. The character
    /// keeps its angle (it stays upright on a turning platform).
    ///
    /// Refused (character unmoved, [`MoveResult::error`] set) for invalid settings or transform, or
    /// a ground body that is no longer in `world`.
    #[must_use]
    pub fn ride(
        &self,
        world: &World,
        transform: Transform,
        ground: &GroundContact,
        filter: &QueryFilter,
    ) -> MoveResult {
        if let Err(error) = self.check_move(&transform, Vec2::ZERO) {
            return MoveResult::refused(transform, error);
        }
        let Some(body) = world.body(ground.body) else {
            return MoveResult::refused(transform, MoverError::UnknownBody { body: ground.body });
        };
        let carry = body.transform() * body.previous_transform().inverse();
        let d = carry.transform_point(ground.point) - ground.point;
        Slide::new(self, world, filter, Some(ground.body), &mut |_| true).run(
            transform,
            d,
            Mode::Carry,
        )
    }

    /// Pushes the dynamic bodies the move `result` ran into: each such body (once, at its first
    /// collision) gets the impulse of a perfectly inelastic hit along the collision normal by a
    /// body of the mover's `mass` moving at `velocity` (world m/s: the character's velocity this
    /// frame), at the collision point. A light crate is shoved to the character's speed, a heavy
    /// one barely moves: the impulse `u / (1/m + w)` (approach speed `u`, the body's inverse
    /// mass `w` at the point along the normal) is limited by the ratio of the two masses. Returns
    /// how many bodies were pushed.
    ///
    /// # Errors
    /// [`MoverError`] for invalid settings or a non-finite `velocity` (or faster than 1e5 m/s);
    /// nothing is pushed then.
    pub fn push_bodies(
        &self,
        world: &mut World,
        result: &MoveResult,
        velocity: Vec2,
    ) -> Result<usize, MoverError> {
        self.validate()?;
        check_vector("velocity", velocity)?;
        if velocity.length() > MAX_SPEED {
            return Err(MoverError::OutOfRange {
                field: "velocity",
                value: velocity.length(),
                expected: "at most 1e5 m/s",
            });
        }
        let mut pushed: Vec<BodyId> = Vec::new();
        for c in &result.collisions {
            if pushed.contains(&c.body) {
                continue;
            }
            let Some(body) = world.body(c.body) else {
                continue;
            };
            if body.kind() != BodyKind::Dynamic {
                continue;
            }
            let into = -c.normal;
            let approach = (velocity - body.velocity_at(c.point)).dot(into);
            if approach <= 0.0 {
                continue;
            }
            let arm = (c.point - body.center_of_mass()).perp_dot(into);
            let w = body.linear_response(into).dot(into) + body.inv_inertia * arm * arm;
            let impulse = into * (approach / (1.0 / self.mass + w));
            if world.apply_impulse(c.body, impulse, c.point).is_ok() {
                pushed.push(c.body);
            }
        }
        Ok(pushed.len())
    }

    /// The checks every move makes before it starts.
    fn check_move(&self, transform: &Transform, desired: Vec2) -> Result<(), MoverError> {
        self.validate()?;
        check_vector("transform.translation", transform.translation)?;
        let r = transform.rotation;
        check_number("transform.rotation", r.cos)?;
        check_number("transform.rotation", r.sin)?;
        let length = r.cos.hypot(r.sin);
        if (length - 1.0).abs() > ROTATION_TOLERANCE {
            return Err(MoverError::OutOfRange {
                field: "transform.rotation",
                value: length,
                expected: "a unit rotation: build it with Transform::new(translation, angle)",
            });
        }
        for (field, v) in [
            ("transform.translation", transform.translation),
            ("desired", desired),
        ] {
            check_vector(field, v)?;
            let far = v.x.abs().max(v.y.abs());
            if far > MAX_LENGTH {
                return Err(MoverError::OutOfRange {
                    field,
                    value: far,
                    expected: "within ±1e5 m",
                });
            }
        }
        Ok(())
    }
}

/// Most iterations a mover may be given.
const MAX_MOVER_ITERATIONS: u32 = 64;

/// What a shape is called in an error.
fn shape_kind(shape: &Shape) -> &'static str {
    match shape {
        Shape::Compound(_) => "compound (concave shape or chain)",
        Shape::Capsule(_) => "segment",
        _ => "shape",
    }
}

fn check_number(field: &'static str, value: Real) -> Result<(), MoverError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(MoverError::NonFinite { field, value })
    }
}

fn check_vector(field: &'static str, v: Vec2) -> Result<(), MoverError> {
    check_number(field, v.x)?;
    check_number(field, v.y)
}

/// Why a mover call was refused. The character was not moved and nothing was pushed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MoverError {
    /// A number is NaN or infinite.
    #[error("{field} of the character mover is not finite ({}); give a finite number", Num(*.value))]
    NonFinite {
        /// The setting or argument.
        field: &'static str,
        /// The value.
        value: Real,
    },
    /// A number is outside its range.
    #[error("{field} of the character mover is {}, but it must be {expected}", Num(*.value))]
    OutOfRange {
        /// The setting or argument.
        field: &'static str,
        /// The value (a vector's length or largest component).
        value: Real,
        /// What it must be.
        expected: &'static str,
    },
    /// The mover's shape cannot be moved as a character.
    #[error(
        "the character mover's shape is a {kind}; give it a circle, a capsule or a convex polygon \
         (Shape::capsule, Shape::circle, Shape::rectangle)"
    )]
    Shape {
        /// What it is.
        kind: &'static str,
    },
    /// The ground body of [`CharacterMover::ride`] is not in the world.
    #[error("body {body:?} is not in this world (removed, or from another world); ride only what the last move stood on")]
    UnknownBody {
        /// The id given.
        body: BodyId,
    },
}

/// How a surface the character met faces, measured against the mover's `up`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// Faces up within `max_slope`: the character stands and walks on it.
    Ground,
    /// Anything between ground and ceiling, including slopes too steep to climb.
    Wall,
    /// Faces down within `max_slope` of straight down.
    Ceiling,
}

/// One surface a move stopped at (world frame, SI units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveCollision {
    /// The body hit.
    pub body: BodyId,
    /// The shape hit.
    pub shape: ShapeId,
    /// Contact point (world metres) when the character stopped.
    pub point: Vec2,
    /// Unit normal of the surface, pointing out of it toward the character (world).
    pub normal: Vec2,
    /// How the surface faces.
    pub surface: Surface,
    /// Time of impact: the fraction, in `[0, 1]`, of this cast's translation at which the
    /// character came within `skin` of the surface.
    pub fraction: Real,
    /// The translation (world metres) this cast tried: the part of the move left when it began.
    pub translation: Vec2,
    /// Where the character stopped (its frame, world).
    pub transform: Transform,
    /// The character overlapped the shape where this cast began (it was pushed into it, or is
    /// passing through a one-way platform).
    pub started_inside: bool,
}

/// The ground under a character (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundContact {
    /// The body the character stands on.
    pub body: BodyId,
    /// Its shape.
    pub shape: ShapeId,
    /// Unit normal of the ground, pointing up out of it.
    pub normal: Vec2,
    /// The point of the ground under the character (metres).
    pub point: Vec2,
}

/// What a move did ([`CharacterMover::move_and_slide`]); world frame, SI units.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveResult {
    /// Where the character ends (its frame, world).
    pub transform: Transform,
    /// How far it moved (metres): the end position minus the start.
    pub translation: Vec2,
    /// It ends standing on ground (a surface within `max_slope`, within `2 × skin` below it).
    pub grounded: bool,
    /// That ground, when grounded.
    pub ground: Option<GroundContact>,
    /// It met a wall (or a slope too steep to climb) during the move.
    pub hit_wall: bool,
    /// It met a ceiling during the move (a jump should stop rising).
    pub hit_ceiling: bool,
    /// The surfaces it stopped at, in the order met (the steps climbed and the snap included).
    pub collisions: Vec<MoveCollision>,
    /// Why the call was refused, if it was (the character is then where it started).
    pub error: Option<MoverError>,
}

impl MoveResult {
    /// The result of a refused call: unmoved, the reason given.
    fn refused(transform: Transform, error: MoverError) -> Self {
        Self {
            transform,
            translation: Vec2::ZERO,
            grounded: false,
            ground: None,
            hit_wall: false,
            hit_ceiling: false,
            collisions: Vec::new(),
            error: Some(error),
        }
    }
}
