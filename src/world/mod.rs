//! The world: bodies, a fixed-timestep pipeline, events and queries.
//!
//! One [`World::step`] advances every body by exactly `dt` seconds (see `step.rs` for the pipeline
//! and `docs/simulation.md`); [`World::advance`] accumulates real time and runs whole steps, returning
//! the fraction of a step left over for interpolated rendering. Bodies are addressed by generational
//! [`BodyId`]s. Every setter validates its input and leaves the world unchanged on error.

mod continuous;
mod events;
mod step;

pub use events::{ContactBegin, ContactEnd, Impact, StepEvents};

use crate::broadphase::{DynamicTree, ProxyId};
use crate::constants::{
    AABB_MARGIN, CONTACT_DAMPING_RATIO, CONTACT_HERTZ, CONTACT_PUSH_MAX_VELOCITY, DEFAULT_SUBSTEPS,
    MAX_IMPACTS_PER_STEP, MAX_STEPS_PER_ADVANCE, RESTITUTION_THRESHOLD, SPECULATIVE_DISTANCE,
};
use crate::dynamics::body::{build_body, check_transform, check_vector};
use crate::dynamics::contact::PairContact;
use crate::dynamics::{Body, BodyDef, BodyError, BodyId, BodyKind};
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};
use crate::query::{contains_point, ray_cast, RayHit};
use std::collections::HashMap;

/// World settings. `WorldConfig::default()`: gravity (0, −9.81) m/s², `dt` = 1/60 s, 4 substeps,
/// continuous collision on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldConfig {
    /// Gravitational acceleration (m/s², world frame).
    pub gravity: Vec2,
    /// Fixed step (seconds, > 0).
    pub dt: Real,
    /// Solver substeps per step (≥ 1). Default [`DEFAULT_SUBSTEPS`].
    pub substeps: u32,
    /// Most steps one [`World::advance`] call runs (≥ 1); the rest of a long frame is dropped.
    pub max_steps_per_advance: u32,
    /// Run the continuous pass (time of impact for every pair that could tunnel). Default on.
    pub continuous: bool,
    /// Most impacts processed per step before motion is clamped at the safe time (≥ 1).
    pub max_impacts_per_step: usize,
    /// Contact stiffness (Hz, > 0). Default [`CONTACT_HERTZ`].
    pub contact_hertz: Real,
    /// Contact damping ratio (≥ 0). Default [`CONTACT_DAMPING_RATIO`].
    pub contact_damping_ratio: Real,
    /// Fastest overlap recovery (m/s, > 0). Default [`CONTACT_PUSH_MAX_VELOCITY`].
    pub contact_push_velocity: Real,
    /// Closing speed (m/s, ≥ 0) under which contacts do not bounce. Default
    /// [`RESTITUTION_THRESHOLD`].
    pub restitution_threshold: Real,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            gravity: Vec2::new(0.0, -9.81),
            dt: 1.0 / 60.0,
            substeps: DEFAULT_SUBSTEPS,
            max_steps_per_advance: MAX_STEPS_PER_ADVANCE,
            continuous: true,
            max_impacts_per_step: MAX_IMPACTS_PER_STEP,
            contact_hertz: CONTACT_HERTZ,
            contact_damping_ratio: CONTACT_DAMPING_RATIO,
            contact_push_velocity: CONTACT_PUSH_MAX_VELOCITY,
            restitution_threshold: RESTITUTION_THRESHOLD,
        }
    }
}

/// Why a world operation was refused. The world is left as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// A configuration value is out of range.
    #[error("WorldConfig::{field} is {value}, but it must be {expected}")]
    InvalidConfig {
        /// The field.
        field: &'static str,
        /// Its value.
        value: Real,
        /// What it must be.
        expected: &'static str,
    },
    /// `advance` was given a frame time that is negative or not finite.
    #[error("frame time {0} s is not a finite, non-negative number of seconds")]
    InvalidFrameTime(Real),
}

impl WorldConfig {
    /// Checks every field, naming the first bad one.
    pub fn validate(&self) -> Result<(), WorldError> {
        let bad = |field, value, expected| {
            Err(WorldError::InvalidConfig {
                field,
                value,
                expected,
            })
        };
        if !self.gravity.x.is_finite() {
            return bad("gravity.x", self.gravity.x, "finite (m/s²)");
        }
        if !self.gravity.y.is_finite() {
            return bad("gravity.y", self.gravity.y, "finite (m/s²)");
        }
        if !(self.dt.is_finite() && self.dt > 0.0) {
            return bad("dt", self.dt, "a positive, finite number of seconds");
        }
        if self.substeps == 0 {
            return bad("substeps", 0.0, "at least 1");
        }
        if self.max_steps_per_advance == 0 {
            return bad("max_steps_per_advance", 0.0, "at least 1");
        }
        if self.max_impacts_per_step == 0 {
            return bad("max_impacts_per_step", 0.0, "at least 1");
        }
        if !(self.contact_hertz.is_finite() && self.contact_hertz > 0.0) {
            return bad("contact_hertz", self.contact_hertz, "positive (Hz)");
        }
        if !(self.contact_damping_ratio.is_finite() && self.contact_damping_ratio >= 0.0) {
            return bad(
                "contact_damping_ratio",
                self.contact_damping_ratio,
                "zero or positive",
            );
        }
        if !(self.contact_push_velocity.is_finite() && self.contact_push_velocity > 0.0) {
            return bad(
                "contact_push_velocity",
                self.contact_push_velocity,
                "positive (m/s)",
            );
        }
        if !(self.restitution_threshold.is_finite() && self.restitution_threshold >= 0.0) {
            return bad(
                "restitution_threshold",
                self.restitution_threshold,
                "zero or positive (m/s)",
            );
        }
        Ok(())
    }
}

/// Which broad-phase tree holds a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TreeKind {
    Static,
    Moving,
}

#[derive(Clone, Debug)]
pub(crate) struct Slot {
    pub generation: u32,
    pub body: Option<Body>,
    pub proxy: Option<(TreeKind, ProxyId)>,
}

/// A ray-cast hit on a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit {
    /// The body hit.
    pub body: BodyId,
    /// Where and how: fraction of the ray, point and surface normal (world).
    pub hit: RayHit,
}

/// A 2D rigid-body world with continuous collision. See the module notes.
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) config: WorldConfig,
    pub(crate) slots: Vec<Slot>,
    pub(crate) free: Vec<u32>,
    pub(crate) live: usize,
    pub(crate) moving_tree: DynamicTree<u32>,
    pub(crate) static_tree: DynamicTree<u32>,
    pub(crate) contacts: Vec<PairContact>,
    pub(crate) contact_index: HashMap<(u32, u32), usize>,
    /// Bodies whose broad-phase box was re-inserted since pairs were last updated.
    pub(crate) moved: Vec<u32>,
    pub(crate) events: StepEvents,
    pub(crate) accumulator: Real,
    pub(crate) time: Real,
    pub(crate) step_count: u64,
    /// Buffers the step reuses (solver state, constraints, turned angles).
    pub(crate) scratch: StepScratch,
}

/// Per-step working buffers, kept between steps so a step allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub(crate) struct StepScratch {
    pub states: Vec<crate::dynamics::solver::BodyState>,
    pub constraints: Vec<crate::dynamics::solver::ContactConstraint>,
    pub angles: Vec<Real>,
}

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
        Ok(World {
            config,
            slots: Vec::new(),
            free: Vec::new(),
            live: 0,
            moving_tree: DynamicTree::new(),
            static_tree: DynamicTree::new(),
            contacts: Vec::new(),
            contact_index: HashMap::new(),
            moved: Vec::new(),
            events: StepEvents::default(),
            accumulator: 0.0,
            time: 0.0,
            step_count: 0,
            scratch: StepScratch::default(),
        })
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
        self.time
    }

    /// Number of steps run.
    #[must_use]
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    /// Number of bodies.
    #[must_use]
    pub fn body_count(&self) -> usize {
        self.live
    }

    /// Adds a body. Errors (world unchanged): non-finite numbers, density ≤ 0 on a dynamic body,
    /// negative or non-finite restitution, friction or damping.
    pub fn add_body(&mut self, def: BodyDef) -> Result<BodyId, BodyError> {
        let index = self.free.last().copied().unwrap_or(self.slots.len() as u32);
        let body = build_body(def, &format!("#{index}"))?;
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    body: None,
                    proxy: None,
                });
                (self.slots.len() - 1) as u32
            }
        };
        let fat = body.aabb().grown(SPECULATIVE_DISTANCE / 2.0 + AABB_MARGIN);
        let proxy = if body.kind == BodyKind::Static {
            (TreeKind::Static, self.static_tree.insert(fat, index))
        } else {
            (TreeKind::Moving, self.moving_tree.insert(fat, index))
        };
        let slot = &mut self.slots[index as usize];
        slot.body = Some(body);
        slot.proxy = Some(proxy);
        self.live += 1;
        self.moved.push(index);
        Ok(BodyId {
            index,
            generation: slot.generation,
        })
    }

    /// Removes a body; its id (and any copy of it) is rejected from now on. Its contacts end.
    pub fn remove_body(&mut self, id: BodyId) -> Result<Body, BodyError> {
        self.check(id)?;
        let slot = &mut self.slots[id.index as usize];
        let body = slot.body.take().expect("checked");
        if let Some((tree, proxy)) = slot.proxy.take() {
            match tree {
                TreeKind::Static => self.static_tree.remove(proxy),
                TreeKind::Moving => self.moving_tree.remove(proxy),
            };
        }
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(id.index);
        self.live -= 1;
        self.moved.retain(|&i| i != id.index);
        self.destroy_contacts_of(id.index);
        Ok(body)
    }

    /// The body with this id, or `None` if it was removed.
    #[must_use]
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        let slot = self.slots.get(id.index as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.body.as_ref()
    }

    /// Every live body with its id, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyId, &Body)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.body.as_ref().map(|b| {
                (
                    BodyId {
                        index: i as u32,
                        generation: s.generation,
                    },
                    b,
                )
            })
        })
    }

    pub(crate) fn check(&self, id: BodyId) -> Result<(), BodyError> {
        match self.slots.get(id.index as usize) {
            Some(s) if s.generation == id.generation && s.body.is_some() => Ok(()),
            _ => Err(BodyError::UnknownBody(id)),
        }
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body, BodyError> {
        self.check(id)?;
        Ok(self.slots[id.index as usize]
            .body
            .as_mut()
            .expect("checked"))
    }

    fn label(&self, id: BodyId) -> String {
        self.body(id)
            .and_then(|b| b.name.clone())
            .unwrap_or_else(|| format!("#{}", id.index))
    }

    /// Teleports a body: its frame is placed at `transform` (validated; velocity kept).
    pub fn set_transform(&mut self, id: BodyId, transform: Transform) -> Result<(), BodyError> {
        self.check(id)?;
        let label = self.label(id);
        check_transform(&label, &transform)?;
        let body = self.body_mut(id)?;
        body.pose = transform * Transform::from_translation(body.local_center);
        body.previous_pose = body.pose;
        self.refresh_proxy(id.index);
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
        self.check(id)?;
        let label = self.label(id);
        check_vector(&label, "linear velocity", linear)?;
        check_vector(&label, "angular velocity", Vec2::new(angular, 0.0))?;
        let body = self.body_mut(id)?;
        if body.kind == BodyKind::Static {
            return Err(BodyError::WrongKind {
                body: label,
                kind: BodyKind::Static,
                reason: "a static body cannot move; make it kinematic to move it with a velocity",
            });
        }
        body.linear_velocity = linear;
        body.angular_velocity = angular;
        Ok(())
    }

    /// Applies a force (N, world) at a world point (metres) for the next step; accumulates.
    /// Ignored by non-dynamic bodies (returns an error saying so).
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), BodyError> {
        self.check_dynamic_input(id, "force", force, point)?;
        let body = self.body_mut(id)?;
        body.force += force;
        body.torque += (point - body.pose.translation).perp_dot(force);
        Ok(())
    }

    /// Applies a torque (N·m) for the next step; accumulates.
    pub fn apply_torque(&mut self, id: BodyId, torque: Real) -> Result<(), BodyError> {
        self.check_dynamic_input(id, "torque", Vec2::new(torque, 0.0), Vec2::ZERO)?;
        self.body_mut(id)?.torque += torque;
        Ok(())
    }

    /// Applies an impulse (N·s, world) at a world point (metres): changes the velocity at once.
    pub fn apply_impulse(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), BodyError> {
        self.check_dynamic_input(id, "impulse", impulse, point)?;
        let body = self.body_mut(id)?;
        body.linear_velocity += body.inv_mass * impulse;
        body.angular_velocity +=
            body.inv_inertia * (point - body.pose.translation).perp_dot(impulse);
        Ok(())
    }

    fn check_dynamic_input(
        &self,
        id: BodyId,
        field: &'static str,
        v: Vec2,
        p: Vec2,
    ) -> Result<(), BodyError> {
        self.check(id)?;
        let label = self.label(id);
        check_vector(&label, field, v)?;
        check_vector(&label, "point", p)?;
        let kind = self.body(id).expect("checked").kind;
        if kind != BodyKind::Dynamic {
            return Err(BodyError::WrongKind {
                body: label,
                kind,
                reason: "only dynamic bodies respond to forces and impulses",
            });
        }
        Ok(())
    }

    /// Re-fits a body's broad-phase box after a teleport.
    fn refresh_proxy(&mut self, index: u32) {
        let slot = &self.slots[index as usize];
        let (Some(body), Some((tree, proxy))) = (slot.body.as_ref(), slot.proxy) else {
            return;
        };
        let fat = body.aabb().grown(SPECULATIVE_DISTANCE / 2.0 + AABB_MARGIN);
        match tree {
            TreeKind::Static => self.static_tree.set_fat_aabb(proxy, fat),
            TreeKind::Moving => self.moving_tree.set_fat_aabb(proxy, fat),
        }
        self.moved.push(index);
    }

    pub(crate) fn destroy_contacts_of(&mut self, index: u32) {
        let mut k = 0;
        while k < self.contacts.len() {
            let c = &self.contacts[k];
            if c.a == index || c.b == index {
                self.remove_contact(k);
            } else {
                k += 1;
            }
        }
    }

    /// Removes contact `k` (swap-remove), keeping the index map in sync.
    pub(crate) fn remove_contact(&mut self, k: usize) {
        let c = self.contacts.swap_remove(k);
        self.contact_index.remove(&(c.a, c.b));
        if k < self.contacts.len() {
            let moved = &self.contacts[k];
            self.contact_index.insert((moved.a, moved.b), k);
        }
    }

    /// Events of the last [`World::step`], or of every step of the last [`World::advance`].
    #[must_use]
    pub fn events(&self) -> &StepEvents {
        &self.events
    }

    /// Runs exactly one step of `config.dt` seconds.
    pub fn step(&mut self) {
        self.events.clear();
        self.step_once();
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
        self.accumulator += frame_time;
        let dt = self.config.dt;
        let mut steps = 0;
        while self.accumulator >= dt && steps < self.config.max_steps_per_advance {
            self.step_once();
            self.accumulator -= dt;
            steps += 1;
        }
        if self.accumulator >= dt {
            self.accumulator %= dt; // drop what could not be simulated in time
        }
        Ok(self.accumulator / dt)
    }

    /// Casts a ray from `origin` along `translation` (world metres) and returns the nearest body hit.
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<WorldRayHit> {
        let mut best: Option<WorldRayHit> = None;
        for tree in [&self.static_tree, &self.moving_tree] {
            tree.ray_cast(origin, translation, 1.0, |_, &index, max| {
                let slot = &self.slots[index as usize];
                let body = slot.body.as_ref().expect("live proxy");
                if let Some(hit) = ray_cast(&body.com_shape, &body.pose, origin, translation) {
                    if hit.fraction <= max && best.is_none_or(|b| hit.fraction < b.hit.fraction) {
                        best = Some(WorldRayHit {
                            body: BodyId {
                                index,
                                generation: slot.generation,
                            },
                            hit,
                        });
                        return hit.fraction;
                    }
                }
                max
            });
        }
        best
    }

    /// The bodies containing the world point `p`.
    #[must_use]
    pub fn query_point(&self, p: Vec2) -> Vec<BodyId> {
        let probe = Aabb { min: p, max: p };
        let mut out = Vec::new();
        self.query_proxies(&probe, |id, body| {
            if contains_point(&body.com_shape, &body.pose, p) {
                out.push(id);
            }
        });
        out.sort();
        out
    }

    /// The bodies whose world box overlaps `aabb`.
    #[must_use]
    pub fn query_aabb(&self, aabb: &Aabb) -> Vec<BodyId> {
        let mut out = Vec::new();
        self.query_proxies(aabb, |id, body| {
            if body.aabb().overlaps(aabb) {
                out.push(id);
            }
        });
        out.sort();
        out
    }

    fn query_proxies(&self, aabb: &Aabb, mut f: impl FnMut(BodyId, &Body)) {
        for tree in [&self.static_tree, &self.moving_tree] {
            tree.query(aabb, |_, &index| {
                let slot = &self.slots[index as usize];
                let id = BodyId {
                    index,
                    generation: slot.generation,
                };
                f(id, slot.body.as_ref().expect("live proxy"));
                true
            });
        }
    }

    /// Number of body pairs whose broad-phase boxes overlap (contacts the narrow phase tracks).
    #[must_use]
    pub fn pair_count(&self) -> usize {
        self.contacts.len()
    }

    /// Number of manifold points the solver saw in the last step (touching or speculative).
    #[must_use]
    pub fn contact_point_count(&self) -> usize {
        self.contacts
            .iter()
            .flat_map(|c| c.manifolds.iter())
            .map(|m| m.count)
            .sum()
    }

    /// The deepest overlap between any two bodies at their current poses (metres, ≥ 0) and the
    /// pair, or `None` when nothing overlaps. Exact shape queries over the pairs the broad phase
    /// tracks (every pair within the speculative distance), so it costs a contact query per pair:
    /// for analysis, not for every frame of a game.
    #[must_use]
    pub fn deepest_overlap(&self) -> Option<(Real, BodyId, BodyId)> {
        let mut deepest: Option<(Real, BodyId, BodyId)> = None;
        for c in &self.contacts {
            let (Some(a), Some(b)) = (
                self.slots[c.a as usize].body.as_ref(),
                self.slots[c.b as usize].body.as_ref(),
            ) else {
                continue;
            };
            if let Some(k) = crate::query::contact(&a.com_shape, &a.pose, &b.com_shape, &b.pose) {
                if k.depth > 0.0 && deepest.is_none_or(|d| k.depth > d.0) {
                    deepest = Some((k.depth, self.id_of(c.a), self.id_of(c.b)));
                }
            }
        }
        deepest
    }

    /// Total kinetic energy of all bodies (J).
    #[must_use]
    pub fn kinetic_energy(&self) -> Real {
        self.bodies().map(|(_, b)| b.kinetic_energy()).sum()
    }

    /// Total linear momentum of the dynamic bodies (kg·m/s).
    #[must_use]
    pub fn linear_momentum(&self) -> Vec2 {
        self.bodies().map(|(_, b)| b.mass * b.linear_velocity).sum()
    }
}
