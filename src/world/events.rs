//! Events a step reports: contacts beginning and ending, and impacts found by the continuous pass.

use super::clock::Clock;
use crate::dynamics::{BodyId, ShapeId};
use crate::math::Real;
use crate::math::Vec2;

/// Two bodies started touching: a manifold point within
/// [`LINEAR_SLOP`](crate::constants::LINEAR_SLOP) at the start of a step, or a pair that was apart
/// at the start (within its speculative margin, which grows with how fast the pair closes) and
/// pushed on each other in the solver, so it met during the step: a fast body that does not bounce
/// (restitution 0, or closing slower than the restitution threshold) and whose contact saw the
/// meeting coming is stopped there by the solver. Impacts found by the continuous pass are
/// reported as [`Impact`]s.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactBegin {
    /// First body (lower slot index).
    pub body_a: BodyId,
    /// Second body.
    pub body_b: BodyId,
    /// The shape of A at `point`.
    pub shape_a: ShapeId,
    /// The shape of B at `point`.
    pub shape_b: ShapeId,
    /// Step in which it was found.
    pub step: u64,
    /// Simulated time at the start of that step (seconds).
    pub time: Real,
    /// Unit normal from A toward B (world).
    pub normal: Vec2,
    /// A contact point (world metres).
    pub point: Vec2,
}

/// Two bodies stopped touching: no manifold point within the speculative distance, or their
/// broad-phase boxes separated. (Removing a body drops its contacts without this event.)
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactEnd {
    /// First body.
    pub body_a: BodyId,
    /// Second body.
    pub body_b: BodyId,
    /// Step in which it was found.
    pub step: u64,
    /// Simulated time at the start of that step (seconds).
    pub time: Real,
}

/// An impact resolved inside a step by the continuous pass, at the moment the shapes met: every
/// bounce, and every meeting the solver could not be trusted with (`docs/continuous.md`). A
/// non-bouncing meeting the solver's speculative contact stopped is a [`ContactBegin`] instead.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// First body of the pair.
    pub body_a: BodyId,
    /// Second body.
    pub body_b: BodyId,
    /// The shape of A that was hit.
    pub shape_a: ShapeId,
    /// The shape of B that was hit.
    pub shape_b: ShapeId,
    /// Step in which it happened.
    pub step: u64,
    /// Fraction of the step at which the shapes met, in `[0, 1]`.
    pub fraction: Real,
    /// Simulated time of the impact (seconds): step start + `fraction × dt`.
    pub time: Real,
    /// Unit normal from A toward B (world).
    pub normal: Vec2,
    /// Contact point (world metres).
    pub point: Vec2,
    /// Closing speed along the normal before the impact (m/s, ≥ 0).
    pub relative_speed: Real,
    /// Normal impulse applied (N·s); 0 when the budget ran out and the bodies were held instead.
    pub impulse: Real,
}

/// A pair of shapes pushed on each other at least as hard as a threshold set on either of them
/// (`World::set_contact_force_threshold`), as Rapier's contact-force events and Box2D's hit
/// events report (world frame, SI units).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactForceEvent {
    /// The first body (the contact's A) and its shape.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// The shape of A.
    pub shape_a: ShapeId,
    /// The shape of B.
    pub shape_b: ShapeId,
    /// Step in which it happened.
    pub step: u64,
    /// Every normal impulse between the two shapes over the step (N·s): the solver's (all its
    /// substeps and passes) and the continuous pass's impacts.
    pub total_impulse: Real,
    /// `total_impulse / dt` (N): the mean force over the step.
    pub total_force: Real,
    /// Unit normal from A toward B (world): the contact's, or the first impact's.
    pub normal: Vec2,
    /// When the continuous pass resolved an impact between the two shapes in the step: the
    /// earliest one's fraction of the step, in `[0, 1]`.
    pub impact_fraction: Option<Real>,
}

/// A shape entered or left a sensor during a step (see `world/sensors.rs`: found on the bodies'
/// straight motions over the step, so a visitor crossing a thin sensor within one step reports
/// both its entry and its exit).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SensorEvent {
    /// The sensor's body.
    pub sensor_body: BodyId,
    /// The sensor shape.
    pub sensor_shape: ShapeId,
    /// The visiting body.
    pub visitor_body: BodyId,
    /// The visiting shape.
    pub visitor_shape: ShapeId,
    /// Step in which it happened.
    pub step: u64,
    /// Fraction of the step, in `[0, 1]`, at which the shapes first touched (begin) or last
    /// touched (end).
    pub fraction: Real,
    /// Simulated time of that moment (seconds): step start + `fraction × dt`.
    pub time: Real,
}

/// A joint whose reaction passed one of its thresholds in a step
/// ([`JointCommon::force_threshold`](crate::JointCommon), `torque_threshold`): a breakable joint
/// the game may now remove.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointEvent {
    /// The joint.
    pub joint: crate::dynamics::JointId,
    /// Its body A (`None` for a mouse joint) and body B.
    pub body_a: Option<BodyId>,
    /// Its body B.
    pub body_b: BodyId,
    /// Step in which it happened.
    pub step: u64,
    /// The reaction force's magnitude (N) and torque's (N·m) in that step.
    pub force: Real,
    /// See `force`.
    pub torque: Real,
}

/// A body that moved in a step, with where it ended: what an engine syncs its own copies from
/// (Box2D's body move events).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMove {
    /// The body.
    pub body: BodyId,
    /// Its frame's pose in the world at the end of the step.
    pub transform: crate::math::Transform,
    /// Whether it fell asleep at the end of that step (it will not move again until woken).
    pub fell_asleep: bool,
}

/// The events of one step (or of all steps of one `advance`).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepEvents {
    /// Contacts that began.
    pub contact_begin: Vec<ContactBegin>,
    /// Contacts that ended.
    pub contact_end: Vec<ContactEnd>,
    /// Impacts, in time order within each step.
    pub impacts: Vec<Impact>,
    /// Shapes that entered a sensor (sensor by sensor, visitors in id order).
    pub sensor_begin: Vec<SensorEvent>,
    /// Shapes that left a sensor (a visitor that crossed it within the step has both events).
    pub sensor_end: Vec<SensorEvent>,
    /// Joints whose reaction passed a threshold, in the order of their ids' indices.
    pub joint_events: Vec<JointEvent>,
    /// Bodies that fell asleep at the end of the step (their island rested long enough).
    pub fell_asleep: Vec<BodyId>,
    /// Sleeping bodies the step woke: met by a moving body (with the rest of their island), or
    /// the rest of an island one of whose bodies a call (an impulse, a setter) woke before the
    /// step. The body a call woke is not listed: the call did it, and the caller knows.
    pub woke: Vec<BodyId>,
    /// Bodies the continuous pass had to hold still for the rest of the step (its fallback),
    /// each stopped at a pose that overlaps nothing past the slop. Past the impact budget
    /// (`WorldConfig::max_impacts_per_step`) the pairs still to meet do so inelastically and
    /// keep their velocities for the next step: the step loses time, not momentum. So does a body
    /// the final check could not resolve in time: it meets the body it overlaps inelastically and
    /// is held at the start of its motion. Only a body pinned against a static one is stopped with
    /// its velocity zeroed. Each body once, in the order of its first hold (over all the steps of one
    /// [`World::advance`](crate::World::advance)). Normally empty.
    pub held: Vec<BodyId>,
    /// Pairs of shapes whose contact force over the step reached a threshold set on either
    /// (`World::set_contact_force_threshold`), in contact order, then pairs met only by impacts.
    pub contact_forces: Vec<ContactForceEvent>,
    /// The dynamic and kinematic bodies whose pose changed in the step, in storage order, with
    /// their new pose (after [`World::advance`](crate::World::advance): each body once, with its
    /// last pose). Static bodies never move; sleeping ones neither.
    pub moved: Vec<BodyMove>,
}

impl StepEvents {
    /// Forgets every event.
    pub fn clear(&mut self) {
        self.contact_begin.clear();
        self.contact_end.clear();
        self.impacts.clear();
        self.sensor_begin.clear();
        self.sensor_end.clear();
        self.joint_events.clear();
        self.fell_asleep.clear();
        self.woke.clear();
        self.held.clear();
        self.contact_forces.clear();
        self.moved.clear();
    }

    /// Returns `true` if there is no event.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.contact_begin.is_empty()
            && self.contact_end.is_empty()
            && self.impacts.is_empty()
            && self.sensor_begin.is_empty()
            && self.sensor_end.is_empty()
            && self.joint_events.is_empty()
            && self.fell_asleep.is_empty()
            && self.woke.is_empty()
            && self.held.is_empty()
            && self.contact_forces.is_empty()
            && self.moved.is_empty()
    }
}

impl StepEvents {
    /// Records that two bodies began touching in the step that `clock` is running.
    pub(crate) fn contact_began(
        &mut self,
        shape_a: ShapeId,
        shape_b: ShapeId,
        clock: &Clock,
        normal: Vec2,
        point: Vec2,
    ) {
        self.contact_begin.push(ContactBegin {
            body_a: shape_a.body,
            body_b: shape_b.body,
            shape_a,
            shape_b,
            step: clock.step,
            time: clock.time,
            normal,
            point,
        });
    }

    /// Records that two bodies stopped touching in the step that `clock` is running.
    pub(crate) fn contact_ended(&mut self, body_a: BodyId, body_b: BodyId, clock: &Clock) {
        self.contact_end.push(ContactEnd {
            body_a,
            body_b,
            step: clock.step,
            time: clock.time,
        });
    }
}
