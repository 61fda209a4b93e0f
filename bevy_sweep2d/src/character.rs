//! The character controller: sweep2d's `CharacterMover` (collide and slide, slopes, steps,
//! snapping; `docs/character.md`) driving a kinematic body. Each fixed step, before the world
//! steps, the plugin moves the character's shape by `velocity × dt` against the world (its own
//! body excluded), sends its body to where the move ended (so what it pushes sees its velocity),
//! pushes the dynamic bodies it ran into, and writes what it met to [`CharacterState`].

use crate::{Physics, PhysicsBody, PhysicsError, RigidBody};
use bevy_ecs::prelude::*;
use bevy_math::DVec2;
use bevy_time::{Fixed, Time};
use sweep2d::{CharacterMover, QueryFilter, Shape};

/// A character moved by collide and slide. Its entity also needs a `Collider` of the mover's
/// shape (what other bodies collide with), and gets a kinematic `RigidBody`.
#[derive(Component, Clone, Debug)]
#[require(RigidBody = RigidBody::Kinematic, CharacterState)]
pub struct CharacterController {
    /// The mover: its shape and settings (`up`, `skin`, `max_slope`, `step_height`, ...).
    pub mover: CharacterMover,
    /// The velocity the game wants this step (m/s, world): walking, jumping and its own
    /// gravity. The move is `velocity × dt`.
    pub velocity: DVec2,
}

impl CharacterController {
    /// A controller for `shape` (a circle, capsule or convex polygon) with the mover's default
    /// settings.
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        Self {
            mover: CharacterMover::new(shape),
            velocity: DVec2::ZERO,
        }
    }
}

/// What the last move met (written by the plugin).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct CharacterState {
    /// Standing on ground (a surface within `max_slope` of `up`).
    pub grounded: bool,
    /// What it stands on.
    pub ground: Option<Entity>,
    /// It ran into a wall or a slope too steep to climb.
    pub hit_wall: bool,
    /// It ran into a ceiling.
    pub hit_ceiling: bool,
    /// How far it moved (m).
    pub translation: DVec2,
}

/// Moves every character for the coming step (see the module notes). A move the mover refuses
/// (a setting out of range, a non-finite velocity) is a [`PhysicsError`] and leaves it put.
pub(crate) fn move_characters(
    time: Res<Time<Fixed>>,
    mut characters: Query<(
        Entity,
        &PhysicsBody,
        &CharacterController,
        &mut CharacterState,
    )>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
) {
    let dt = time.timestep().as_secs_f64();
    let (world, entity_of, _) = physics.parts();
    for (entity, body, controller, mut state) in &mut characters {
        let Some(pose) = world.body(body.0).map(|b| b.transform()) else {
            continue;
        };
        let filter = QueryFilter {
            exclude: Some(body.0),
            ..QueryFilter::default()
        };
        let moved = controller
            .mover
            .move_and_slide(world, pose, controller.velocity * dt, &filter);
        if let Some(e) = &moved.error {
            errors.write(PhysicsError {
                entity: Some(entity),
                message: e.to_string(),
            });
            continue;
        }
        let _ = controller
            .mover
            .push_bodies(world, &moved, controller.velocity);
        if let Err(e) = world.set_kinematic_target(body.0, moved.transform) {
            errors.write(PhysicsError {
                entity: Some(entity),
                message: e.to_string(),
            });
        }
        *state = CharacterState {
            grounded: moved.grounded,
            ground: moved.ground.and_then(|g| entity_of.get(&g.body).copied()),
            hit_wall: moved.hit_wall,
            hit_ceiling: moved.hit_ceiling,
            translation: moved.translation,
        };
    }
}
