//! The world: bodies, a fixed-timestep pipeline, events and queries.
//!
//! A [`World`] is made of parts that a step borrows separately (see `docs/architecture.md`):
//!
//! * `body_set.rs`: the bodies, densely stored, with generational [`BodyId`]s;
//! * `contact_set.rs`: the persistent contacts, one per pair of overlapping proxies;
//! * the broad phase ([`crate::broadphase`]): trees, move buffer, pair finding;
//! * `step.rs` (the pipeline), `solve.rs` (the solver's stages) and `continuous/` (the continuous
//!   pass), working in reused step buffers;
//! * `events.rs`: what the last step reports; `queries.rs`: ray, point and box queries.
//!
//! One [`World::step`] advances every body by exactly `dt` seconds (see `docs/simulation.md`);
//! [`World::advance`] accumulates real time and runs whole steps, returning the fraction of a step
//! left over for interpolated rendering. Every setter validates its input and leaves the world
//! unchanged on error.

mod body_controls;
mod body_set;
mod clock;
mod config;
mod contact_data;
mod contact_set;
mod continuous;
mod debug_draw;
mod events;
mod explode;
mod hooks;
mod joints;
mod profile;
mod queries;
mod sensors;
mod shapes;
mod sleep;
#[cfg(feature = "serde")]
mod snapshot;
mod solve;
mod step;

pub use config::{WorldConfig, WorldError};
pub use contact_data::ContactData;
pub use debug_draw::{
    draw_shape, Color, DebugDraw, DrawCommand, DrawList, DrawOptions, DrawRole, DrawStyle,
};
pub use events::{
    BodyMove, ContactBegin, ContactEnd, ContactForceEvent, Impact, JointEvent, SensorEvent,
    StepEvents,
};
pub use explode::{ExplosionDef, ExplosionError};
pub use hooks::{ContactHooks, PreSolve};
pub use joints::JointReaction;
pub use profile::{ProfileClock, StepProfile};
pub use queries::{QueryFilter, ShapeCastHit, WorldRayHit};
#[cfg(feature = "serde")]
pub use snapshot::SnapshotError;

use crate::broadphase::{BroadPhase, ProxyType};
use crate::constants::MAX_FORCE;
use crate::dynamics::body::build_body;
use crate::dynamics::body_input::{
    check_finite, check_locked_motion, check_locked_spin, check_position, check_speeds,
    check_transform, check_vector, within,
};

/// The range of forces, torques and impulses, for errors.
const FORCE_RANGE: &str = "at most 1e15 in magnitude (MAX_FORCE; N, N·m or N·s)";
use crate::dynamics::{Body, BodyDef, BodyError, BodyId, BodyKind};
use crate::math::{Real, Transform, Vec2};
use body_set::BodySet;
use clock::Clock;
use contact_set::ContactSet;
use step::StepBuffers;

/// A 2D rigid-body world with continuous collision. See the module notes.
#[derive(Clone, Debug)]
pub struct World {
    config: WorldConfig,
    bodies: BodySet,
    contacts: ContactSet,
    broad_phase: BroadPhase,
    /// Buffers the step reuses, so a step allocates nothing once they have grown. Scratch: every
    /// step writes what it reads, so snapshots leave them out.
    buffers: StepBuffers,
    events: StepEvents,
    clock: Clock,
    /// Time spent in each stage of the last step.
    profile: StepProfile,
    /// The clock the profile reads (see `profile.rs`); `None`: no timing.
    profile_clock: Option<ProfileClock>,
    /// Sensor shapes and the shapes inside them (see `sensors.rs`).
    sensor_overlaps: sensors::SensorOverlaps,
    /// The joints (see `joints.rs`).
    joints: joints::JointSet,
    /// How many shapes have a contact-force threshold (counted when one is set; at least the
    /// true count): the contact-force pass runs only when it is not 0 (`contact_data.rs`).
    force_thresholds: usize,
}

/// The broad-phase proxy type of a body kind.
pub(crate) fn proxy_type(kind: BodyKind) -> ProxyType {
    match kind {
        BodyKind::Static => ProxyType::Static,
        BodyKind::Kinematic => ProxyType::Kinematic,
        BodyKind::Dynamic => ProxyType::Dynamic,
    }
}

/// How error messages name body `id`: its name, escaped and cut (`body_input::error_label`),
/// or `#index` when it has none.
fn body_label(body: &Body, id: BodyId) -> String {
    body.name.as_deref().map_or_else(
        || format!("#{}", id.index),
        crate::dynamics::body_input::error_label,
    )
}

/// A body name as messages show it: quoted, control characters escaped (no terminal escape
/// sequences reach the user's terminal), cut at 64 characters.
pub(crate) fn shown_name(name: &str) -> String {
    let (cut, more) = crate::dynamics::body_input::cut_name(name);
    format!("{cut:?}{}", if more { "…" } else { "" })
}

/// The FNV-1a 64 starting value (the hash of no bytes).
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a 64: the hash `h` continued over `bytes` (start from [`FNV_OFFSET`]). Used for
/// [`World::state_hash`] and the snapshot checksum.
pub(crate) fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The tag the next world gets (see [`World::tag`]); starts at 1 so that 0 is never a live tag.
static NEXT_WORLD_TAG: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

impl World {
    /// A world with the given settings.
    ///
    /// # Panics
    /// If the configuration is invalid (for example `dt ≤ 0`); the message names the field. Use
    /// [`World::try_new`] to get the error instead.
    #[must_use]
    pub fn new(config: WorldConfig) -> World {
        World::try_new(config)
            .unwrap_or_else(|e| panic!("{e} (use World::try_new to handle this as an error)"))
    }

    /// A world with the given settings, or the first invalid setting.
    pub fn try_new(config: WorldConfig) -> Result<World, WorldError> {
        config.validate()?;
        let tag = NEXT_WORLD_TAG.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(World {
            config,
            bodies: BodySet::with_tag(tag),
            contacts: ContactSet::default(),
            broad_phase: BroadPhase::default(),
            buffers: StepBuffers::default(),
            events: StepEvents::default(),
            clock: Clock::default(),
            profile: StepProfile::default(),
            profile_clock: profile::default_clock(),
            sensor_overlaps: Default::default(),
            joints: joints::JointSet::with_tag(tag),
            force_thresholds: 0,
        })
    }

    /// This world's tag: a number carried by every [`BodyId`], [`ShapeId`](crate::ShapeId) and
    /// [`JointId`](crate::JointId) it hands out, so that an id from another world is rejected
    /// (as a stale id is) instead of naming some body of this one. Worlds made in one process get
    /// different tags; a clone keeps its original's tag, so ids stay valid in copies. The tag never
    /// affects the simulation.
    #[must_use]
    pub fn tag(&self) -> u32 {
        self.bodies.world
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Replaces the settings (validated; the world is unchanged on error).
    pub fn set_config(&mut self, config: WorldConfig) -> Result<(), WorldError> {
        config.validate()?;
        self.config = config;
        Ok(())
    }

    /// Simulated time (seconds) since the world was created.
    #[must_use]
    pub fn time(&self) -> Real {
        self.clock.time
    }

    /// Wall-clock milliseconds spent in each stage of the last step (all zero before the first,
    /// and without a profile clock), and the continuous pass's counts.
    #[must_use]
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }

    /// Sets the clock the step's profile reads (seconds, monotonic; see [`ProfileClock`]), or
    /// `None` to read no clock at all: the stage times are then zero and the counts still
    /// kept. A new or restored world uses `std::time::Instant`, except on
    /// `wasm32-unknown-unknown`, where it has none (`Instant::now` panics there); give it one
    /// that reads `performance.now()` to profile in a browser. The clock never affects the
    /// simulation.
    pub fn set_profile_clock(&mut self, clock: Option<ProfileClock>) {
        self.profile_clock = clock;
    }

    /// Number of steps run.
    #[must_use]
    pub fn step_count(&self) -> u64 {
        self.clock.step
    }

    /// Number of bodies.
    #[must_use]
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// Adds a body. Errors (world unchanged): non-finite numbers, a rotation that is not a unit
    /// rotation, density ≤ 0 on a dynamic body, negative or non-finite restitution, friction or
    /// damping.
    pub fn add_body(&mut self, def: BodyDef) -> Result<BodyId, BodyError> {
        let key = self.bodies.next_key();
        let body = build_body(def, &format!("#{key}"))?;
        let proxy = self
            .broad_phase
            .create_proxy(&body.aabb(), proxy_type(body.kind), key);
        Ok(self.bodies.insert(body, proxy))
    }

    /// Removes a body; its id (and any copy of it) is rejected from now on. Its contacts are
    /// dropped (no contact-end event is reported for them), and so are its joints. The bodies it
    /// touched or was jointed to wake (a pile whose support is removed falls). It costs the
    /// body's own contacts and joints, not the world's (each body lists its partners).
    pub fn remove_body(&mut self, id: BodyId) -> Result<Body, BodyError> {
        let key = self.bodies.key(id).ok_or(BodyError::UnknownBody(id))?;
        self.wake_neighbours(key, true);
        let (body, proxy) = self.bodies.remove(id).ok_or(BodyError::UnknownBody(id))?;
        self.broad_phase.destroy_proxy(proxy);
        self.contacts.remove_involving(key);
        self.joints.remove_body(key);
        Ok(body)
    }

    /// Wakes the bodies that body `key` touches and, when `jointed`, those its joints tie it to
    /// (a body removed or changed: what rested on it must move again).
    fn wake_neighbours(&mut self, key: u32, jointed: bool) {
        // (Waking sets flags only: the order does not matter.)
        for &p in self.contacts.partners_of(key) {
            let touching = self
                .contacts
                .index_of(key, p)
                .is_some_and(|k| self.contacts.as_slice()[k].touching);
            if touching {
                self.bodies.at_mut(p).wake();
            }
        }
        if jointed {
            for &slot in self.joints.slots_of(key) {
                let j = self.joints.at(slot as usize);
                let other = if j.body_b == key {
                    j.body_a
                } else {
                    Some(j.body_b)
                };
                if let Some(other) = other {
                    self.bodies.at_mut(other).wake();
                }
            }
        }
    }

    /// The body with this id, or `None` if it was removed.
    #[must_use]
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        self.bodies.get(id)
    }

    /// Every live body with its id, in storage order (creation order until a body is removed:
    /// removing one moves the last body into its place).
    pub fn bodies(&self) -> impl Iterator<Item = (BodyId, &Body)> {
        self.bodies.iter().map(|(key, b)| (self.bodies.id(key), b))
    }

    /// A 64-bit fingerprint of the world's motion state: the bits of every live body's pose
    /// (position, rotation) and velocities, in storage order, and the simulated time, hashed with
    /// FNV-1a. Two worlds with equal hashes are (but for a 2⁻⁶⁴ chance) in the same state; one
    /// differing bit anywhere changes it. Lockstep games compare it between machines to detect a
    /// desync; the determinism test compares it with a committed value (`docs/reliability.md`,
    /// "Determinism"). It does not depend on the world's tag or on body names.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = FNV_OFFSET;
        let mut eat = |v: Real| h = fnv1a(h, &v.to_bits().to_le_bytes());
        eat(self.clock.time);
        for (_, b) in self.bodies.iter() {
            let xf = b.transform();
            let v = b.linear_velocity();
            for x in [
                xf.translation.x,
                xf.translation.y,
                xf.rotation.cos,
                xf.rotation.sin,
                v.x,
                v.y,
                b.angular_velocity(),
            ] {
                eat(x);
            }
        }
        h
    }

    /// The body, mutably, and its label for error messages; the error for a stale id.
    fn body_mut(&mut self, id: BodyId) -> Result<(&mut Body, String), BodyError> {
        let body = self.bodies.get_mut(id).ok_or(BodyError::UnknownBody(id))?;
        let label = body_label(body, id);
        Ok((body, label))
    }

    /// Teleports a body: its frame is placed at `transform` (validated; velocity kept).
    pub fn set_transform(&mut self, id: BodyId, transform: Transform) -> Result<(), BodyError> {
        let (body, label) = self.body_mut(id)?;
        check_transform(&label, &transform)?;
        check_position(&label, "transform.translation", transform.translation)?;
        body.pose = transform * Transform::from_translation(body.local_center);
        body.previous_pose = body.pose;
        body.wake();
        let aabb = body.aabb();
        let key = id.index;
        self.broad_phase.reset_proxy(self.bodies.proxy(key), &aabb);
        Ok(())
    }

    /// Sets the velocity of the centre of mass (m/s) and the angular velocity (rad/s). Refused for
    /// static bodies.
    pub fn set_velocity(
        &mut self,
        id: BodyId,
        linear: Vec2,
        angular: Real,
    ) -> Result<(), BodyError> {
        let (body, label) = self.body_mut(id)?;
        check_vector(&label, "linear velocity", linear)?;
        check_finite(&label, "angular velocity", angular)?;
        check_speeds(&label, linear, angular)?;
        if body.fixed_rotation {
            check_locked_spin(&label, angular)?;
        }
        check_locked_motion(&label, body.lock_x, body.lock_y, linear)?;
        body_controls::check_enabled(body, &label)?;
        if body.kind == BodyKind::Static {
            return Err(BodyError::WrongKind {
                body: label,
                kind: BodyKind::Static,
                reason: "a static body cannot move; make it kinematic to move it with a velocity",
            });
        }
        body.linear_velocity = linear;
        body.angular_velocity = angular;
        body.wake();
        Ok(())
    }

    /// Wakes a sleeping body (its island wakes with it at the end of the next step). Every
    /// setter, force, torque and impulse wakes its body too.
    pub fn wake(&mut self, id: BodyId) -> Result<(), BodyError> {
        let (body, _) = self.body_mut(id)?;
        body.wake();
        Ok(())
    }

    /// Allows or forbids a body to sleep (forbidding wakes it).
    pub fn set_allow_sleep(&mut self, id: BodyId, allow: bool) -> Result<(), BodyError> {
        let (body, _) = self.body_mut(id)?;
        body.allow_sleep = allow;
        if !allow {
            body.wake();
        }
        Ok(())
    }

    /// Applies a force (N, world) at a world point (metres) for the next step; accumulates.
    /// Ignored by non-dynamic bodies (returns an error saying so).
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), BodyError> {
        let body = self.dynamic_body(id, |label| {
            check_vector(label, "force", force)?;
            within(label, "force", force.x, MAX_FORCE, FORCE_RANGE)?;
            within(label, "force", force.y, MAX_FORCE, FORCE_RANGE)?;
            check_position(label, "point", point)
        })?;
        let (total, torque) = (
            body.force + force,
            body.torque + (point - body.pose.translation).perp_dot(force),
        );
        let label = body_label(body, id);
        within(&label, "force", total.length(), MAX_FORCE, FORCE_RANGE)?;
        within(&label, "torque", torque, MAX_FORCE, FORCE_RANGE)?;
        body.force = total;
        body.torque = torque;
        Ok(())
    }

    /// [`World::apply_force`] by the name Box2D and Rapier use for a force at a point: a force
    /// (N, world) at a world point (metres) for the next step.
    pub fn apply_force_at_point(
        &mut self,
        id: BodyId,
        force: Vec2,
        point: Vec2,
    ) -> Result<(), BodyError> {
        self.apply_force(id, force, point)
    }

    /// [`World::apply_impulse`] by the name Box2D and Rapier use: an impulse (N·s, world) at a
    /// world point (metres).
    pub fn apply_impulse_at_point(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), BodyError> {
        self.apply_impulse(id, impulse, point)
    }

    /// An impulse (N·s, world) at the body's centre of mass: its velocity changes by
    /// `impulse / mass` and its spin not at all.
    pub fn apply_impulse_to_center(&mut self, id: BodyId, impulse: Vec2) -> Result<(), BodyError> {
        let centre = self
            .bodies
            .get(id)
            .ok_or(BodyError::UnknownBody(id))?
            .pose
            .translation;
        self.apply_impulse(id, impulse, centre)
    }

    /// Applies a torque (N·m) for the next step; accumulates.
    pub fn apply_torque(&mut self, id: BodyId, torque: Real) -> Result<(), BodyError> {
        let body = self.dynamic_body(id, |label| check_finite(label, "torque", torque))?;
        let total = body.torque + torque;
        let label = body_label(body, id);
        within(&label, "torque", total, MAX_FORCE, FORCE_RANGE)?;
        body.torque = total;
        Ok(())
    }

    /// Applies an impulse (N·s, world) at a world point (metres): changes the velocity at once.
    pub fn apply_impulse(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), BodyError> {
        let body = self.dynamic_body(id, |label| {
            check_vector(label, "impulse", impulse)?;
            within(label, "impulse", impulse.x, MAX_FORCE, FORCE_RANGE)?;
            within(label, "impulse", impulse.y, MAX_FORCE, FORCE_RANGE)?;
            check_position(label, "point", point)?;
            within(label, "impulse", impulse.length(), MAX_FORCE, FORCE_RANGE)
        })?;
        let v = body.linear_velocity + body.linear_response(impulse);
        let w = body.angular_velocity
            + body.inv_inertia * (point - body.pose.translation).perp_dot(impulse);
        let label = body_label(body, id);
        check_speeds(&label, v, w)?;
        body.linear_velocity = v;
        body.angular_velocity = w;
        Ok(())
    }

    /// The dynamic body a force, torque or impulse is for, once `check` (given the body's label
    /// for its errors) has accepted the values.
    fn dynamic_body(
        &mut self,
        id: BodyId,
        check: impl FnOnce(&str) -> Result<(), BodyError>,
    ) -> Result<&mut Body, BodyError> {
        let (body, label) = self.body_mut(id)?;
        check(&label)?;
        body_controls::check_enabled(body, &label)?;
        if body.kind != BodyKind::Dynamic {
            return Err(BodyError::WrongKind {
                body: label,
                kind: body.kind,
                reason: "only dynamic bodies respond to forces and impulses",
            });
        }
        body.wake();
        Ok(body)
    }

    /// Events of the last [`World::step`], or of every step of the last [`World::advance`].
    #[must_use]
    pub fn events(&self) -> &StepEvents {
        &self.events
    }

    /// [`World::step`] that never leaves a non-finite number behind: if any body's pose or
    /// velocity would not be finite after the step, the step is undone (the world is exactly as
    /// it was before it) and [`WorldError::NonFiniteStep`] names the body. Inputs are checked
    /// against their ranges (`docs/reliability.md`), so this is a guard against the engine's own
    /// bugs, for applications that must not go on with a broken state. Costs a copy of the world
    /// per step on top of the step.
    pub fn try_step(&mut self) -> Result<(), WorldError> {
        let before = self.clone();
        self.step();
        let bad = self.bodies.iter().find(|(_, b)| {
            let (xf, v) = (b.transform(), b.linear_velocity());
            !(xf.is_finite() && v.is_finite() && b.angular_velocity().is_finite())
        });
        if let Some((key, b)) = bad {
            let body = b
                .name
                .as_deref()
                .map_or_else(|| format!("#{key}"), shown_name);
            *self = before;
            return Err(WorldError::NonFiniteStep {
                step: self.clock.step,
                body,
            });
        }
        Ok(())
    }

    /// Runs exactly one step of `config.dt` seconds.
    ///
    /// With the `parallel` feature the step shares its solver stages, narrow phase and first
    /// sweeps out over the current rayon pool (`rayon::current_num_threads()`: the global pool, or
    /// the one a `ThreadPool::install` runs it in); the result is bit-identical for any number of
    /// threads (see `docs/simulation.md`, "Stages and threads").
    pub fn step(&mut self) {
        self.events.clear();
        self.step_once(None);
    }

    /// [`World::step`] with the game's contact hooks: each contact is offered to
    /// [`ContactHooks::pre_solve`] before it is used (once per pair of shapes and step), which may
    /// disable it for the step or change its friction and restitution (see `docs/shapes-and-filters.md`).
    pub fn step_with_hooks(&mut self, hooks: &mut dyn ContactHooks) {
        self.events.clear();
        self.step_once(Some(hooks));
    }

    /// Accumulates `frame_time` seconds of real time and runs as many whole steps as fit (at most
    /// `config.max_steps_per_advance`; any excess time is dropped so a stall cannot snowball).
    /// Returns the interpolation factor `alpha ∈ [0, 1)`: the leftover time as a fraction of a step,
    /// for [`Body::interpolated_transform`]. Events of all steps run are kept in
    /// [`World::events`].
    pub fn advance(&mut self, frame_time: Real) -> Result<Real, WorldError> {
        if !(frame_time.is_finite() && frame_time >= 0.0) {
            return Err(WorldError::InvalidFrameTime(frame_time));
        }
        self.events.clear();
        self.clock.accumulator += frame_time;
        let dt = self.config.dt;
        let mut steps = 0;
        while self.clock.accumulator >= dt && steps < self.config.max_steps_per_advance {
            self.step_once(None);
            self.clock.accumulator -= dt;
            steps += 1;
        }
        if self.clock.accumulator >= dt {
            self.clock.accumulator %= dt; // drop what could not be simulated in time
        }
        if steps > 1 {
            // Each body's last move only, in the order of those; each held body once, in the
            // order of its first hold.
            let mut seen = std::collections::HashSet::new();
            let moved = &mut self.events.moved;
            moved.reverse();
            moved.retain(|m| seen.insert(m.body));
            moved.reverse();
            seen.clear();
            self.events.held.retain(|&id| seen.insert(id));
        }
        Ok(self.clock.accumulator / dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Aabb;
    use crate::{Shape, ShapeDef};

    /// A tile of the ground in the piece-pairing test: centre, half extents, angle (ground frame).
    type Tile = (Real, Real, Real, Real, Real);

    /// The tile's box shape, centred on the origin, and its place in the ground's frame.
    fn tile(&(x, y, hx, hy, angle): &Tile) -> (Shape, Transform) {
        let shape = Shape::rectangle(hx, hy).unwrap();
        (shape, Transform::new(Vec2::new(x, y), angle))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// A ground of many tiles on one (turned) body, static or kinematic (moving at up to
        /// 8 m/s and turning at up to 4 rad/s), pairs with a moving body exactly when the body's
        /// proxy box reaches a tile over the step, as if each tile had its own proxy: after the
        /// first step the same bodies pair with the ground as in a world where each tile is its
        /// own body, and over the next steps (bodies falling and flying at up to 60 m/s, so that
        /// proxies move, grow for the continuous pass and shrink) every step's contacts with the
        /// ground are exactly those that brute force over the tiles' world boxes predicts from
        /// the proxy boxes, the ground's pose and the velocities the step started with (for a
        /// kinematic ground, the reach grown by how far its farthest tile corner can move).
        #[test]
        fn a_ground_of_many_tiles_pairs_piece_by_piece(
            tiles in proptest::collection::vec(
                (-20.0..20.0f64, -20.0..20.0f64, 0.05..2.0f64, 0.05..2.0f64, -3.2..3.2f64),
                16..60,
            ),
            movers in proptest::collection::vec(
                (-25.0..25.0f64, -25.0..25.0f64, 0.05..1.5f64, -40.0..40.0f64, -40.0..40.0f64),
                1..30,
            ),
            ground in (-3.0..3.0f64, -3.0..3.0f64, -3.2..3.2f64),
            motion in proptest::option::of((-8.0..8.0f64, -8.0..8.0f64, -4.0..4.0f64)),
        ) {
            let place = Transform::new(Vec2::new(ground.0, ground.1), ground.2);
            let (kind, velocity, spin) = match motion {
                Some((vx, vy, w)) => (BodyKind::Kinematic, Vec2::new(vx, vy), w),
                None => (BodyKind::Static, Vec2::ZERO, 0.0),
            };
            let mover = |w: &mut World, &(x, y, r, vx, vy): &(Real, Real, Real, Real, Real)| {
                w.add_body(BodyDef {
                    shape: Shape::circle(r).unwrap(),
                    transform: Transform::from_translation(Vec2::new(x, y)),
                    linear_velocity: Vec2::new(vx, vy),
                    ..Default::default()
                })
                .unwrap()
            };
            let tile_def = |t: &Tile| {
                let (shape, offset) = tile(t);
                ShapeDef { shape, offset, ..Default::default() }
            };
            // One ground body of every tile.
            let mut one = World::new(WorldConfig::default());
            let (first, rest) = tiles.split_first().unwrap();
            let (shape, offset) = tile(first);
            let g = one
                .add_body(BodyDef {
                    kind,
                    shape: shape.transformed(&offset).unwrap(),
                    transform: place,
                    linear_velocity: velocity,
                    angular_velocity: spin,
                    ..Default::default()
                })
                .unwrap();
            one.add_shapes(g, rest.iter().map(tile_def)).unwrap();
            for m in &movers {
                mover(&mut one, m);
            }
            // A body per tile (moving as the ground does at the start).
            let mut many = World::new(WorldConfig::default());
            for t in &tiles {
                let (shape, offset) = tile(t);
                many.add_body(BodyDef {
                    kind,
                    shape,
                    transform: place * offset,
                    linear_velocity: velocity,
                    angular_velocity: spin,
                    ..Default::default()
                })
                .unwrap();
            }
            for m in &movers {
                mover(&mut many, m);
            }
            // The tiles' world boxes with the ground at `at`, and how far a point of a tile can
            // move over a step: the farthest corner from the ground's centre of mass turns
            // along an arc no longer than `|ω|·dt` times its distance.
            let tile_boxes = |at: &Transform| -> Vec<Aabb> {
                tiles
                    .iter()
                    .map(|t| {
                        let (shape, offset) = tile(t);
                        shape.aabb(&(*at * offset))
                    })
                    .collect()
            };
            let ground_motion = |w: &World| -> Real {
                let body = w.body(g).unwrap();
                let (at, centre) = (body.transform(), body.pose.translation);
                let farthest = tiles
                    .iter()
                    .flat_map(|&(x, y, hx, hy, angle)| {
                        let corner = Transform::new(Vec2::new(x, y), angle);
                        [(hx, hy), (-hx, hy), (hx, -hy), (-hx, -hy)]
                            .map(|(cx, cy)| (at * corner).transform_point(Vec2::new(cx, cy)))
                    })
                    .map(|p| (p - centre).length())
                    .fold(0.0, Real::max);
                (body.linear_velocity.length() + body.angular_velocity.abs() * farthest)
                    * w.config.dt
            };
            let ground = one.bodies.key(g).unwrap();
            let movers_of = |w: &World| -> Vec<u32> {
                w.bodies()
                    .filter(|(_, b)| b.kind == BodyKind::Dynamic)
                    .map(|(id, _)| w.bodies.key(id).unwrap())
                    .collect()
            };
            let tile_bodies = |w: &World| -> Vec<u32> {
                w.bodies()
                    .filter(|(_, b)| b.kind == kind)
                    .map(|(id, _)| w.bodies.key(id).unwrap())
                    .collect()
            };
            // What brute force over the tiles predicts from the proxy boxes and velocities a
            // step starts with (the pass and the refit move the boxes later in the step), for
            // each mover: whether its proxy box, grown as a proxy of a tile would be and then by
            // `ahead` (how far the two may close over the step, or more), meets a tile's box;
            // and that box (the ground's proxy must overlap it too).
            let reaches = |w: &World, m: u32, ahead: Real| {
                let fat = w.broad_phase.fat_aabb(w.bodies.proxy(m));
                let ground_fat = w.broad_phase.fat_aabb(w.bodies.proxy(ground));
                let reach = BroadPhase::proxy_reach(&fat).grown(ahead + ground_motion(w));
                let boxes = tile_boxes(&w.body(g).unwrap().transform());
                fat.overlaps(&ground_fat) && boxes.iter().any(|b| b.overlaps(&reach))
            };
            let ahead = |w: &World, m: u32| {
                w.bodies
                    .at(m)
                    .predicted_relative_motion(w.bodies.at(ground), w.config.dt, w.config.gravity)
            };
            let found = |w: &World, m: u32| w.contacts.contains(m.min(ground), m.max(ground));
            // The most any step so far added to each mover's reach.
            let mut most_ahead: Vec<Real> = vec![0.0; movers.len()];
            for step in 0..7 {
                let ms = movers_of(&one);
                let before: Vec<(bool, bool, bool)> = ms
                    .iter()
                    .enumerate()
                    .map(|(k, &m)| {
                        let now = ahead(&one, m);
                        most_ahead[k] = most_ahead[k].max(now);
                        (
                            reaches(&one, m, now),
                            reaches(&one, m, 0.0),
                            reaches(&one, m, most_ahead[k]),
                        )
                    })
                    .collect();
                one.step();
                if step == 0 {
                    many.step();
                }
                for (k, (&m, &(exact, least, most))) in ms.iter().zip(&before).enumerate() {
                    let here = found(&one, m);
                    let moved = |k: u32| one.broad_phase.moved_last(one.bodies.proxy(k));
                    // (A kinematic ground's pairs are found and checked at every update.)
                    proptest::prop_assert!(moved(ground) || kind == BodyKind::Static);
                    if moved(m) || moved(ground) {
                        // A proxy moved: the contact was made or kept by the test just now.
                        proptest::prop_assert_eq!(here, exact, "mover {} at step {}", k, step);
                    } else {
                        // Kept as it was: never missing where the proxy box alone reaches a
                        // tile, never present where no reach of any step so far did.
                        proptest::prop_assert!(!least || here, "mover {k} at step {step}");
                        proptest::prop_assert!(!here || most, "mover {k} at step {step}");
                    }
                    if step == 0 {
                        // Every body that pairs with a tile body in the world of one body per
                        // tile pairs with the ground here.
                        let mm = movers_of(&many)[k];
                        let there = tile_bodies(&many)
                            .iter()
                            .any(|&s| many.contacts.contains(mm.min(s), mm.max(s)));
                        proptest::prop_assert!(here || !there, "mover {k} pairs with a tile body only");
                    }
                }
            }
        }
    }

    #[test]
    fn try_step_undoes_a_step_that_would_leave_a_non_finite_state() {
        let mut scene = crate::analysis::scenes::pyramid(4);
        let world = &mut scene.world;
        world.step();
        let mut clean = world.clone();
        // A normal step: the same as `step`.
        clean.try_step().unwrap();
        let mut plain = world.clone();
        plain.step();
        assert_eq!(clean.state_hash(), plain.state_hash());
        // A NaN slipped past every check (here, by hand, into a force accumulator): the step is
        // undone and the error names the body.
        let top = *scene.tracked.last().unwrap();
        let key = world.bodies.key(top).unwrap();
        world.bodies.at_mut(key).force = Vec2::new(Real::NAN, 0.0);
        let before = world.state_hash();
        let steps = world.step_count();
        let e = world.try_step().unwrap_err();
        assert!(
            matches!(&e, WorldError::NonFiniteStep { step, .. } if *step == steps),
            "{e}"
        );
        assert_eq!(world.state_hash(), before);
        assert_eq!(world.step_count(), steps);
    }

    /// A body whose shapes have different filters is filtered against another as a whole when
    /// every pair of their solid shapes collides (`All`: the narrow phase and the continuous pass
    /// then skip the per-piece checks), piece by piece only when some pairs collide and some do
    /// not, and never when none does; sensors do not count. Each case is checked against the
    /// filter rule applied to every shape pair directly.
    #[test]
    fn bodies_with_mixed_filters_are_filtered_whole_when_every_shape_pair_collides() {
        use crate::dynamics::body::PairFilter;
        use crate::{BodyDef, Filter, Shape, ShapeDef, Transform};
        let filter = |category: u64, mask: u64| Filter {
            category,
            mask,
            group: 0,
        };
        // A shin (category 2, colliding with 1 and 2) and its foot (category 2, colliding with 1
        // only), as Box2D's ragdoll has them; a sensor of category 4 that collides with nothing.
        let leg = |world: &mut World, sensor: bool| {
            let id = world
                .add_body(BodyDef {
                    shape: Shape::capsule(Vec2::new(0.0, -0.15), Vec2::new(0.0, 0.12), 0.05)
                        .unwrap(),
                    filter: filter(2, 1 | 2),
                    ..BodyDef::default()
                })
                .unwrap();
            let foot = Shape::rectangle(0.07, 0.02).unwrap();
            let offset = Transform::new(Vec2::new(0.04, -0.18), 0.0);
            world
                .add_shape(
                    id,
                    ShapeDef {
                        shape: foot,
                        offset,
                        filter: filter(2, 1),
                        ..ShapeDef::default()
                    },
                )
                .unwrap();
            if sensor {
                world
                    .add_shape(
                        id,
                        ShapeDef {
                            shape: Shape::circle(0.3).unwrap(),
                            filter: filter(4, 0),
                            sensor: true,
                            ..ShapeDef::default()
                        },
                    )
                    .unwrap();
            }
            id
        };
        let single = |world: &mut World, f: Filter| {
            world
                .add_body(BodyDef {
                    shape: Shape::rectangle(0.5, 0.5).unwrap(),
                    filter: f,
                    ..BodyDef::default()
                })
                .unwrap()
        };
        for sensor in [false, true] {
            let mut world = World::new(WorldConfig::default());
            let shin = leg(&mut world, sensor);
            let other_leg = leg(&mut world, sensor);
            let ground = single(&mut world, filter(1, u64::MAX));
            let part = single(&mut world, filter(2, 1 | 2));
            let ghost = single(&mut world, filter(8, 8));
            let body = |id| world.bodies.at(world.bodies.key(id).unwrap());
            // The rule applied to every solid shape pair, independently of `pair_filter`.
            let expected = |a: BodyId, b: BodyId| {
                let solid = |id: BodyId| -> Vec<Filter> {
                    let b = world.body(id).unwrap();
                    b.shapes
                        .iter()
                        .filter(|s| !s.def.sensor)
                        .map(|s| s.def.filter)
                        .collect()
                };
                let results: Vec<bool> = solid(a)
                    .iter()
                    .flat_map(|fa| solid(b).into_iter().map(move |fb| fa.should_collide(&fb)))
                    .collect();
                match (results.iter().any(|&c| c), results.iter().all(|&c| c)) {
                    (false, _) => PairFilter::Never,
                    (true, true) => PairFilter::All,
                    (true, false) => PairFilter::Pieces,
                }
            };
            let cases = [
                (shin, ground, PairFilter::All),
                (ground, shin, PairFilter::All),
                (shin, part, PairFilter::Pieces),
                (shin, other_leg, PairFilter::Pieces),
                (shin, ghost, PairFilter::Never),
            ];
            for (a, b, want) in cases {
                assert_eq!(expected(a, b), want, "the reference, sensor {sensor}");
                assert_eq!(body(a).pair_filter(body(b)), want, "sensor {sensor}");
            }
        }
    }
}
