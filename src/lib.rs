//! # sweep2d
//!
//! A 2D continuous collision and rigid-body engine in `f64`, built on the Separating Axis Theorem.
//!
//! * [`math`]: [`Transform`], [`Rot`], [`Aabb`] over [`Vec2`] (= [`glam::DVec2`]).
//! * [`shape`]: [`Shape`] — circles, capsules, convex polygons (optionally rounded), compounds of
//!   convex pieces (concave shapes) — with validating constructors and mass properties.
//! * [`query`]: AABB and point tests, [`query::intersects`] and [`query::contact`] (the minimum
//!   translation vector and a contact manifold) for every pair of shapes; continuous queries:
//!   [`query::Motion`], swept hulls and [`query::time_of_impact`].
//! * [`broadphase`]: the dynamic AABB tree and the broad phase that finds candidate pairs.
//! * [`dynamics`] and [`world`]: bodies, contact arithmetic, the fixed-step [`World`] with its
//!   soft-step contact solver, continuous pass (impacts in time order, no time loss), events and
//!   queries.
//! * [`character`]: [`CharacterMover`], which moves a character's shape through a world by
//!   shape casts (slides, slopes, steps, ground snapping, platforms) without ever passing
//!   through geometry.
//! * [`analysis`]: tooling on top of the engine: built-in scenes, scene files, a recorder, plots
//!   and a proptest kit (the optional parts behind features).
//!
//! The layers, the step pipeline and the file that holds each stage are described in
//! `docs/architecture.md`; lower layers never import higher ones.
//!
//! Conventions (see `docs/collision.md`): metres, seconds, kilograms, radians; counter-clockwise
//! positive, y up. A contact normal points from shape A toward shape B, and moving B by
//! `normal * depth` leaves the two exactly touching. Touching counts as intersecting.
//!
//! ```
//! use sweep2d::{query, Shape, Transform, Vec2};
//!
//! let ground = Shape::rectangle(5.0, 0.5)?;
//! let ball = Shape::circle(0.5)?;
//! let xg = Transform::IDENTITY;
//! let xb = Transform::new(Vec2::new(0.0, 0.9), 0.0); // sunk 0.1 m into the ground
//! let c = query::contact(&ground, &xg, &ball, &xb).expect("they overlap");
//! assert!((c.depth - 0.1).abs() < 1e-12);
//! assert_eq!(c.normal, Vec2::Y); // from the ground toward the ball
//! # Ok::<(), sweep2d::ShapeError>(())
//! ```
#![warn(missing_docs)]
// `unsafe` only where the solver shares its body states among the blocks of a stage, which may
// run on several threads (`dynamics::stages::SharedSlice`, and its users in `dynamics/wide.rs` and
// `dynamics/solver.rs`); every other module is safe Rust.
#![deny(unsafe_code)]

pub mod analysis;
pub mod broadphase;
mod cache;
pub mod character;
pub mod constants;
pub mod dynamics;
pub mod math;
pub mod query;
pub mod shape;
pub mod trig;
pub mod world;

#[cfg(feature = "nalgebra")]
mod nalgebra_interop;

pub use glam;

pub use character::{
    CharacterMover, GroundContact, MoveCollision, MoveResult, MoverError, Surface,
};
pub use constants::MAX_POLYGON_VERTICES;
pub use dynamics::{
    Body, BodyDef, BodyError, BodyId, BodyKind, DistanceJointDef, Filter, JointCommon, JointDef,
    JointError, JointId, MassData, MixingRule, MotorJointDef, MouseJointDef, PrismaticJointDef,
    RevoluteJointDef, ShapeDef, ShapeId, WeldJointDef, WheelJointDef,
};
pub use math::{Aabb, Real, Rot, Transform, Vec2};
pub use query::{Contact, Motion, Toi};
pub use shape::{
    Capsule, Circle, Compound, CompoundPiece, ConvexPolygon, MassProperties, Shape, ShapeError,
};
#[cfg(feature = "serde")]
pub use world::SnapshotError;
pub use world::{
    BodyMove, Color, ContactData, ContactForceEvent, ContactHooks, DebugDraw, DrawCommand,
    DrawList, DrawOptions, DrawRole, DrawStyle, ExplosionDef, ExplosionError, JointEvent,
    JointReaction, PreSolve, ProfileClock, QueryFilter, SensorEvent, ShapeCastHit, StepEvents,
    StepProfile, World, WorldConfig, WorldError, WorldRayHit,
};

/// The README's Rust examples compile and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The character mover's guide runs as a doctest too.
#[cfg(doctest)]
#[doc = include_str!("../docs/character.md")]
struct CharacterDoctests;
