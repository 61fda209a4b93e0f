//! What a step reports, as Bevy messages carrying entities (read them with `MessageReader`). They
//! are the world's step events (`sweep2d::StepEvents`) with each body replaced by its entity;
//! times are the world's simulated seconds, fractions the part of the step before the event.

use bevy_ecs::prelude::*;
use bevy_math::DVec2;

/// Two bodies began touching (at the start of the step).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct CollisionStarted {
    /// The first body's entity.
    pub a: Entity,
    /// The second body's entity.
    pub b: Entity,
    /// Contact point (m, world).
    pub point: DVec2,
    /// Unit normal from A toward B.
    pub normal: DVec2,
}

/// Two bodies stopped touching.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionEnded {
    /// The first body's entity.
    pub a: Entity,
    /// The second body's entity.
    pub b: Entity,
}

/// An impact the continuous pass resolved inside a step, at its exact sub-step time.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The first body's entity.
    pub a: Entity,
    /// The second body's entity.
    pub b: Entity,
    /// Simulated time of the impact (s).
    pub time: f64,
    /// Fraction of the step before it, in [0, 1].
    pub fraction: f64,
    /// Contact point (m, world).
    pub point: DVec2,
    /// Unit normal from A toward B.
    pub normal: DVec2,
    /// Closing speed (m/s).
    pub speed: f64,
    /// Normal impulse (N·s).
    pub impulse: f64,
}

/// A body's shape entered a sensor during a step.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct SensorEntered {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The visitor's entity.
    pub visitor: Entity,
    /// Fraction of the step at which it entered.
    pub fraction: f64,
}

/// A body's shape left a sensor during a step.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct SensorExited {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The visitor's entity.
    pub visitor: Entity,
    /// Fraction of the step at which it left.
    pub fraction: f64,
}

/// A body fell asleep (its island rested for the world's sleep time).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodySlept(pub Entity);

/// A sleeping body woke.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyWoke(pub Entity);
