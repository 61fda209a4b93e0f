//! The components a game puts on its entities, named as Avian names them (`RigidBody`,
//! `Collider`, `LinearVelocity`, ...). Each stands for one setting of a sweep2d body; the plugin
//! copies what the game changes into the world before each step and what the step changed back
//! out after it (`docs/bevy.md`). Units are SI in the world frame: metres, seconds, radians,
//! kilograms; vectors are f64 (`DVec2`, the engine's precision).

use bevy_ecs::prelude::*;
use bevy_math::DVec2;
use bevy_transform::components::Transform;
use sweep2d::{BodyId, BodyKind, Filter, Shape};

/// A rigid body: put it on an entity with a [`Collider`] and a `Transform`, and the plugin adds a
/// sweep2d body at that pose. Removing it (or despawning the entity) removes the body and its
/// joints.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[require(Transform, LinearVelocity, AngularVelocity)]
pub enum RigidBody {
    /// Moved by forces, contacts and joints.
    #[default]
    Dynamic,
    /// Never moves (ground, walls).
    Static,
    /// Moved only by its velocity, pushing dynamic bodies (platforms, paddles).
    Kinematic,
}

impl RigidBody {
    /// The engine's body kind.
    #[must_use]
    pub fn kind(self) -> BodyKind {
        match self {
            RigidBody::Dynamic => BodyKind::Dynamic,
            RigidBody::Static => BodyKind::Static,
            RigidBody::Kinematic => BodyKind::Kinematic,
        }
    }
}

/// The body's shape, in its frame (metres): any sweep2d shape (circle, box, polygon, rounded
/// polygon, capsule, segment, chain, concave, compound). Several shapes on one body: give the
/// child entities of the body a `Collider` each; a child's `Transform` places its shape in the
/// body's frame. Built from the engine's checked constructors: `Collider(Shape::circle(0.5)?)`.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Collider(pub Shape);

/// Velocity of the centre of mass (m/s, world frame). Written by the game, and by the plugin
/// after each step.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct LinearVelocity(pub DVec2);

/// Angular velocity (rad/s, counter-clockwise). Written by the game, and by the plugin after each
/// step.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct AngularVelocity(pub f64);

/// Restitution of the body's shapes (0: no bounce, 1: elastic; a contact takes the larger of
/// the two). Default 0.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Restitution(pub f64);

/// Coulomb friction of the body's shapes (≥ 0; a contact takes the geometric mean). Default 0.6.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Friction(pub f64);

impl Default for Friction {
    fn default() -> Self {
        Self(0.6)
    }
}

/// Density of the body's shapes (kg/m², > 0 for a dynamic body). Default 1.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Density(pub f64);

impl Default for Density {
    fn default() -> Self {
        Self(1.0)
    }
}

/// The body's mass (kg, > 0), overriding what its shapes' densities give; its rotational inertia
/// is scaled with it and its centre of mass stays the shapes'. Remove it to go back to the
/// densities.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Mass(pub f64);

/// Multiplies gravity for this body (0: floats). Default 1.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct GravityScale(pub f64);

impl Default for GravityScale {
    fn default() -> Self {
        Self(1.0)
    }
}

/// Axes the solver may not move the body along: translation in x or y (world), rotation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LockedAxes {
    /// No motion along world x.
    pub translation_x: bool,
    /// No motion along world y.
    pub translation_y: bool,
    /// No rotation.
    pub rotation: bool,
}

impl LockedAxes {
    /// Rotation locked (a character, a crate that must stay upright).
    pub const ROTATION_LOCKED: Self = Self {
        translation_x: false,
        translation_y: false,
        rotation: true,
    };
}

/// The body's shapes are sensors: they collide with nothing and report what enters and leaves
/// them ([`crate::SensorEntered`], [`crate::SensorExited`]), with the fraction of the step.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sensor;

/// Which layers the body's shapes are on (`memberships`, bits) and which layers they collide with
/// (`filters`). Two shapes collide when each one's filters include a layer of the other. Default:
/// layer 1, colliding with every layer.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionLayers {
    /// The layers the shapes are on.
    pub memberships: u64,
    /// The layers they collide with.
    pub filters: u64,
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self {
            memberships: 1,
            filters: u64::MAX,
        }
    }
}

impl CollisionLayers {
    /// The engine's filter for these layers.
    #[must_use]
    pub fn filter(self) -> Filter {
        Filter {
            category: self.memberships,
            mask: self.filters,
            group: 0,
        }
    }
}

/// Present while the body sleeps (its island rested for the world's sleep time); the plugin adds
/// and removes it. Insert it on a dynamic body to put its island to sleep; remove it to wake it.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sleeping;

/// A force (N, world frame) applied at the centre of mass in every step while present.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ExternalForce(pub DVec2);

/// An impulse (N·s, world frame) applied at the centre of mass once, before the next step; the
/// plugin sets it back to zero after applying it.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ExternalImpulse(pub DVec2);

/// Opts an entity out of transform interpolation: its `Transform` shows the last step's pose.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoInterpolation;

/// The entity's sweep2d body (added by the plugin; read it to call the world directly).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhysicsBody(pub BodyId);

/// The body's pose at the start and end of the last step (metres, radians, world frame), the
/// `Transform` the plugin last wrote (so a `Transform` the game writes is seen as a teleport) and
/// the sleep state it last wrote (so a `Sleeping` the game adds or removes is seen).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct StepPoses {
    /// Position and angle before the last step.
    pub previous: (DVec2, f64),
    /// Position and angle after it.
    pub current: (DVec2, f64),
    /// The `Transform` the plugin last wrote.
    pub written: Transform,
    /// Whether the entity had [`Sleeping`] when the plugin last wrote or read it.
    pub asleep: bool,
}
