//! `bevy_sweep2d`: the sweep2d engine in Bevy 0.20, in the style of Avian and bevy_rapier.
//!
//! A game puts components on entities ([`RigidBody`], [`Collider`], [`LinearVelocity`], ...);
//! [`SweepPlugin`] keeps one sweep2d [`World`] in the [`Physics`] resource as the single source of
//! truth. In Bevy's `FixedPostUpdate` it copies what the game added, changed or removed into the
//! world, takes one step of the fixed timestep (the world's `dt` follows `Time<Fixed>`), and
//! writes poses, velocities, sleep states and the step's events (as messages carrying entities)
//! back. In `PostUpdate` it interpolates each body's `Transform` between its last two step poses
//! for rendering. A `Transform` the game writes itself is a teleport. Setup and the component
//! table: `docs/bevy.md`.
//!
//! ```no_run
//! use bevy_app::prelude::*;
//! use bevy_ecs::prelude::*;
//! use bevy_sweep2d::prelude::*;
//! use bevy_transform::components::Transform;
//!
//! fn setup(mut commands: Commands) -> Result<(), sweep2d::ShapeError> {
//!     commands.spawn((RigidBody::Static, Collider(Shape::rectangle(0.005, 2.0)?),
//!                     Transform::from_xyz(5.0, 0.0, 0.0)));
//!     commands.spawn((RigidBody::Dynamic, Collider(Shape::circle(0.05)?),
//!                     LinearVelocity(DVec2::new(300.0, 0.0)), Restitution(1.0)));
//!     Ok(())
//! }
//! # fn main() {
//! App::new()
//!     .add_plugins((bevy_time::TimePlugin, SweepPlugin::default()))
//!     .add_systems(Startup, |c: Commands| { let _ = setup(c); })
//!     .run();
//! # }
//! ```

mod character;
mod components;
#[cfg(feature = "debug-render")]
mod debug_render;
mod joints;
mod messages;
mod query;
mod systems;

pub use character::{CharacterController, CharacterState};
pub use components::*;
#[cfg(feature = "debug-render")]
pub use debug_render::{PhysicsDebug, PhysicsDebugPlugin};
pub use joints::{Joint, JointBroken, MakeJoint, PhysicsJoint};
pub use messages::*;
pub use query::{CastHit, SpatialQuery, SpatialQueryFilter};
pub use systems::pose_of;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy_math::DVec2;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use sweep2d::{BodyId, JointId, World, WorldConfig};

/// The names a game needs: the plugin, its components, messages and resources, and the engine's
/// shapes and vectors.
pub mod prelude {
    pub use crate::{
        AngularVelocity, BodySlept, BodyWoke, CastHit, CharacterController, CharacterState,
        Collider, CollisionEnded, CollisionLayers, CollisionStarted, Density, ExternalForce,
        ExternalImpulse, Friction, Gravity, GravityScale, Impact, Joint, JointBroken,
        LinearVelocity, LockedAxes, Mass, NoInterpolation, Physics, PhysicsBody, PhysicsConfig,
        PhysicsError, PhysicsJoint, PhysicsSchedule, PhysicsSet, Restitution, RigidBody, Sensor,
        SensorEntered, SensorExited, Sleeping, SpatialQuery, SpatialQueryFilter, SweepPlugin,
    };
    pub use bevy_math::DVec2;
    pub use sweep2d::Shape;
}

/// Adds the physics: the [`Physics`] and [`Gravity`] resources, the messages, and the systems in
/// `FixedPostUpdate` ([`PhysicsSet`]) and `PostUpdate` (the game's changes of the frame, then
/// interpolation).
#[derive(Clone, Debug, Default)]
pub struct SweepPlugin {
    /// The world's settings (its `dt` and `gravity` are then kept equal to Bevy's fixed
    /// timestep and the [`Gravity`] resource).
    pub config: WorldConfig,
    /// Step with `World::try_step`, which undoes a step that would leave a non-finite number
    /// (reported as a [`PhysicsError`]) at the cost of a copy of the world per step. Off by
    /// default: inputs are range-checked, so this guards only against the engine's own bugs.
    pub checked_steps: bool,
}

/// The stages of one physics step in `FixedPostUpdate`, in order: the game's changes go into the
/// world, the world steps, its results come back. Order game systems against them. Each holds one
/// system that runs the [`PhysicsSchedule`] of the same name.
#[derive(bevy_ecs::schedule::SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSet {
    /// Bodies added, removed and changed by the game reach the world.
    Sync,
    /// Characters move, [`ExternalForce`]s are applied, and the world takes one step of the
    /// fixed timestep.
    Step,
    /// Poses, velocities, sleep states and messages come back.
    Writeback,
    /// In `PostUpdate`: the frame's changes reach the world and every moving body's `Transform`
    /// is interpolated. Order a camera that follows a body after it.
    Interpolation,
}

/// The plugin's own schedules. Their systems form one chain that cannot run in parallel, so each
/// schedule runs whole on the calling thread (single-threaded executor, as Avian's physics
/// schedule does): handing each of the chain's systems to a pool thread cost a Bevy frame more
/// than the systems' own work (`docs/bevy.md`, "Overhead"). Game systems order against
/// [`PhysicsSet`] instead.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSchedule {
    /// The game's changes into the world: run in [`PhysicsSet::Sync`] before each step and in
    /// `PostUpdate` once a frame (so queries see this frame's changes without waiting for a
    /// step). It acts only on what the game changed since it last ran, so running twice changes
    /// nothing twice.
    Sync,
    /// Characters, forces and the step ([`PhysicsSet::Step`]).
    Step,
    /// Poses, velocities, sleep states and messages back ([`PhysicsSet::Writeback`]).
    Writeback,
    /// `Transform`s interpolated between the last two step poses (`PostUpdate`, after `Sync`).
    Interpolate,
}

/// The world's other settings (`WorldConfig`: substeps, the continuous pass, contact and joint
/// softness, restitution threshold, mixing rules, sleeping; `docs/simulation.md`), applied when
/// changed. Its `gravity` and `dt` are ignored: they come from [`Gravity`] and `Time<Fixed>`. A
/// refused value is a [`PhysicsError`] and leaves the world's settings as they were.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PhysicsConfig(pub WorldConfig);

/// Gravity (m/s², world frame). Default (0, −9.81).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Gravity(pub DVec2);

impl Default for Gravity {
    fn default() -> Self {
        Self(DVec2::new(0.0, -9.81))
    }
}

/// A component the world refused (a zero density, a non-finite velocity, ...) or a step it could
/// not take: the entity and the engine's message. The world is left as it was for that call.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PhysicsError {
    /// The entity whose component was refused (`None` for a step).
    pub entity: Option<Entity>,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// The sweep2d world and which entity each body belongs to. The world sits behind a mutex
/// because its scratch caches are not shared between threads; systems with `ResMut<Physics>`
/// reach it without locking ([`Physics::world_mut`]).
#[derive(Resource)]
pub struct Physics {
    world: Mutex<World>,
    /// Steps go through `World::try_step` (see [`SweepPlugin::checked_steps`]).
    pub checked_steps: bool,
    pub(crate) entities: HashMap<BodyId, Entity>,
    pub(crate) bodies: HashMap<Entity, BodyId>,
    pub(crate) joints: HashMap<Entity, JointId>,
    pub(crate) joint_entities: HashMap<JointId, Entity>,
    /// Each body entity's own shape, with its `Collider`'s change tick and whether it was a
    /// sensor then (a newer `Collider` or a `Sensor` added or removed remakes it).
    pub(crate) own_shapes:
        HashMap<Entity, (sweep2d::ShapeId, bevy_ecs::change_detection::Tick, bool)>,
    /// The shape each child entity's `Collider` became, with the change ticks of that `Collider`
    /// and the child's `Transform` then (a newer one replaces the shape).
    pub(crate) child_shapes: HashMap<
        Entity,
        (
            sweep2d::ShapeId,
            (
                bevy_ecs::change_detection::Tick,
                bevy_ecs::change_detection::Tick,
            ),
        ),
    >,
    /// Joints the world refused, with the `Joint`'s change tick then (tried again once changed).
    pub(crate) refused_joints: HashMap<Entity, bevy_ecs::change_detection::Tick>,
}

impl Physics {
    /// An empty world with these settings.
    #[must_use]
    pub fn new(config: WorldConfig) -> Self {
        Self {
            world: Mutex::new(World::new(config)),
            checked_steps: false,
            entities: HashMap::new(),
            bodies: HashMap::new(),
            joints: HashMap::new(),
            joint_entities: HashMap::new(),
            child_shapes: HashMap::new(),
            own_shapes: HashMap::new(),
            refused_joints: HashMap::new(),
        }
    }

    /// The world, to call the engine directly (queries, joints, the mover, hooks).
    pub fn world_mut(&mut self) -> &mut World {
        self.world.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    /// The world and the two maps (body → entity, entity → body), borrowed together.
    pub(crate) fn parts(
        &mut self,
    ) -> (
        &mut World,
        &HashMap<BodyId, Entity>,
        &HashMap<Entity, BodyId>,
    ) {
        (
            self.world.get_mut().unwrap_or_else(PoisonError::into_inner),
            &self.entities,
            &self.bodies,
        )
    }

    /// Reads the world from a shared reference (`Res<Physics>`).
    pub fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.world.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The entity of a body, if the plugin made it.
    #[must_use]
    pub fn entity(&self, body: BodyId) -> Option<Entity> {
        self.entities.get(&body).copied()
    }

    /// The body of an entity, if it has one.
    #[must_use]
    pub fn body(&self, entity: Entity) -> Option<BodyId> {
        self.bodies.get(&entity).copied()
    }

    /// The engine joint of a [`Joint`] entity, once it is in the world.
    #[must_use]
    pub fn joint(&self, entity: Entity) -> Option<JointId> {
        self.joints.get(&entity).copied()
    }
}

impl Plugin for SweepPlugin {
    fn build(&self, app: &mut App) {
        let mut physics = Physics::new(self.config);
        physics.checked_steps = self.checked_steps;
        app.insert_resource(physics)
            .insert_resource(Gravity(self.config.gravity))
            .insert_resource(PhysicsConfig(self.config))
            .init_resource::<systems::WriteTick>()
            .add_message::<CollisionStarted>()
            .add_message::<CollisionEnded>()
            .add_message::<Impact>()
            .add_message::<SensorEntered>()
            .add_message::<SensorExited>()
            .add_message::<BodySlept>()
            .add_message::<BodyWoke>()
            .add_message::<JointBroken>()
            .add_message::<PhysicsError>()
            .configure_sets(
                FixedPostUpdate,
                (PhysicsSet::Sync, PhysicsSet::Step, PhysicsSet::Writeback).chain(),
            )
            .add_systems(
                FixedPostUpdate,
                (
                    run(PhysicsSchedule::Sync).in_set(PhysicsSet::Sync),
                    run(PhysicsSchedule::Step).in_set(PhysicsSet::Step),
                    run(PhysicsSchedule::Writeback).in_set(PhysicsSet::Writeback),
                ),
            )
            .add_systems(
                PostUpdate,
                (
                    run(PhysicsSchedule::Sync),
                    run(PhysicsSchedule::Interpolate),
                )
                    .chain()
                    .in_set(PhysicsSet::Interpolation),
            );
        for label in [
            PhysicsSchedule::Sync,
            PhysicsSchedule::Step,
            PhysicsSchedule::Writeback,
            PhysicsSchedule::Interpolate,
        ] {
            let mut schedule = Schedule::new(label);
            schedule.set_executor(SingleThreadedExecutor::new());
            app.add_schedule(schedule);
        }
        app.add_systems(PhysicsSchedule::Sync, sync())
            .add_systems(
                PhysicsSchedule::Step,
                (
                    character::move_characters,
                    systems::apply_forces,
                    systems::step,
                )
                    .chain(),
            )
            .add_systems(PhysicsSchedule::Writeback, systems::write_back)
            .add_systems(PhysicsSchedule::Interpolate, systems::interpolate);
    }
}

/// An exclusive system that runs `label` whole on the calling thread.
fn run(label: PhysicsSchedule) -> impl FnMut(&mut bevy_ecs::world::World) {
    move |world| world.run_schedule(label)
}

/// The game's changes into the world, in order: removals, retries, additions, changes, resets.
fn sync() -> bevy_ecs::schedule::ScheduleConfigs<bevy_ecs::system::ScheduleSystem> {
    (
        joints::remove_joints,
        systems::remove_bodies,
        systems::retry_refused,
        systems::create_bodies,
        systems::sync_body_shapes,
        systems::sync_child_colliders,
        joints::create_joints,
        systems::sync_changes,
        systems::reset_removed,
    )
        .chain()
}
