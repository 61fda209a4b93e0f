//! World settings ([`WorldConfig`]) with their validation, and the world's error type.

use crate::constants::{
    CONTACT_DAMPING_RATIO, CONTACT_HERTZ, CONTACT_PUSH_MAX_VELOCITY, CONTACT_RECYCLE_DISTANCE,
    DEFAULT_SUBSTEPS, MAX_IMPACTS_PER_STEP, MAX_STEPS_PER_ADVANCE, RESTITUTION_THRESHOLD,
};
use crate::dynamics::contact::ContactMixing;
use crate::dynamics::contact_math::MixingRule;
use crate::math::{Real, Vec2};

/// World settings. `WorldConfig::default()`: gravity (0, −9.81) m/s², `dt` = 1/60 s, 4 substeps,
/// continuous collision on.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldConfig {
    /// Gravitational acceleration (m/s², world frame).
    pub gravity: Vec2,
    /// Fixed step (seconds, > 0).
    pub dt: Real,
    /// Solver substeps per step (≥ 1). Default [`DEFAULT_SUBSTEPS`].
    pub substeps: u32,
    /// Most steps one [`World::advance`](super::World::advance) call runs (≥ 1); the rest of a long frame is dropped.
    pub max_steps_per_advance: u32,
    /// Run the continuous pass (time of impact for every pair that could tunnel). Default on.
    pub continuous: bool,
    /// Most impacts processed per step before bodies are held at the safe time (≥ 1).
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
    /// How two bodies' friction coefficients combine. Default [`MixingRule::GeometricMean`]
    /// (`√(a·b)`, as Box2D). Applies to contacts created after it is set.
    pub friction_mixing: MixingRule,
    /// How two bodies' restitution coefficients combine. Default [`MixingRule::Max`] (as Box2D).
    /// Applies to contacts created after it is set.
    pub restitution_mixing: MixingRule,
    /// Contact recycling (metres, ≥ 0; 0 turns it off). A touching pair of convex bodies whose
    /// relative pose has moved less than this since its manifold was computed (and neither body
    /// turned more than about 11°) keeps that manifold: its points stay the same material points,
    /// their separations follow the bodies, and the narrow phase skips the pair. Stacks stand
    /// (points that follow every small tilt feed it back: a 20-box column buckles without this)
    /// and resting scenes cost less. Pairs other than a two-point face contact of two convex
    /// bodies (one-point contacts, compound bodies) recycle only within the speculative distance,
    /// so a feature or piece they do not track cannot reach them unseen. Default
    /// [`CONTACT_RECYCLE_DISTANCE`] (5 cm, as Box2D v3.1). See `docs/simulation.md`.
    pub contact_recycle_distance: Real,
    /// Stiffness of joints' rigid parts (Hz, > 0; capped at a quarter of the substep rate).
    /// Default 60 (as Box2D v3).
    pub joint_hertz: Real,
    /// Damping ratio of joints' rigid parts (≥ 0). Default 2 (as Box2D v3).
    pub joint_damping_ratio: Real,
    /// Whether resting islands fall asleep (see `docs/simulation.md`, "Islands and sleeping").
    /// Default true.
    pub sleep: bool,
    /// How long (seconds, > 0) every body of an island must rest before it sleeps. Default 0.5.
    pub time_to_sleep: Real,
    /// Largest speed (m/s, ≥ 0) of a resting body. Default 0.05 (as Box2D).
    pub linear_sleep_tolerance: Real,
    /// Largest angular speed (rad/s, ≥ 0) of a resting body. Default 2°/s (as Box2D).
    pub angular_sleep_tolerance: Real,
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
            friction_mixing: MixingRule::GeometricMean,
            restitution_mixing: MixingRule::Max,
            contact_recycle_distance: CONTACT_RECYCLE_DISTANCE,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            sleep: true,
            time_to_sleep: 0.5,
            linear_sleep_tolerance: 0.05,
            angular_sleep_tolerance: 2.0_f64.to_radians(),
        }
    }
}

/// Why a world operation was refused. The world is left as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// A configuration value is out of range.
    #[error("WorldConfig::{field} is {}, but it must be {expected}", crate::math::Num(*.value))]
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
    /// [`World::try_step`](crate::World::try_step) found a body whose pose or velocity would
    /// not have been finite after the step; the step was undone.
    #[error(
        "step {step} would have left body {body} with a non-finite pose or velocity; the world \
         is as it was before that step (this is a bug in sweep2d if every input was in range: \
         please report the scene)"
    )]
    NonFiniteStep {
        /// The step that was undone (the world's step count before it).
        step: u64,
        /// The body, by name or `#index`.
        body: String,
    },
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
        use crate::constants::{MAX_DT, MAX_GRAVITY, MAX_SUBSTEPS};
        for (field, g) in [("gravity.x", self.gravity.x), ("gravity.y", self.gravity.y)] {
            if g.abs() > MAX_GRAVITY {
                return bad(field, g, "at most 1e4 m/s² in magnitude (MAX_GRAVITY)");
            }
        }
        if !(self.dt.is_finite() && self.dt > 0.0) {
            return bad("dt", self.dt, "a positive, finite number of seconds");
        }
        if self.dt > MAX_DT {
            return bad("dt", self.dt, "at most 1 s (MAX_DT)");
        }
        if self.substeps == 0 {
            return bad("substeps", 0.0, "at least 1");
        }
        if self.substeps > MAX_SUBSTEPS {
            return bad(
                "substeps",
                self.substeps as Real,
                "at most 64 (MAX_SUBSTEPS)",
            );
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
        if !(self.time_to_sleep.is_finite() && self.time_to_sleep > 0.0) {
            return bad("time_to_sleep", self.time_to_sleep, "positive (s)");
        }
        for (field, value) in [
            ("linear_sleep_tolerance", self.linear_sleep_tolerance),
            ("angular_sleep_tolerance", self.angular_sleep_tolerance),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return bad(field, value, "zero or positive");
            }
        }
        if !(self.joint_hertz.is_finite() && self.joint_hertz > 0.0) {
            return bad("joint_hertz", self.joint_hertz, "positive (Hz)");
        }
        if !(self.joint_damping_ratio.is_finite() && self.joint_damping_ratio >= 0.0) {
            return bad(
                "joint_damping_ratio",
                self.joint_damping_ratio,
                "zero or positive",
            );
        }
        if !(self.contact_recycle_distance.is_finite() && self.contact_recycle_distance >= 0.0) {
            return bad(
                "contact_recycle_distance",
                self.contact_recycle_distance,
                "zero (off) or positive (m)",
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

    /// The mixing rules of contacts.
    pub(crate) fn mixing(&self) -> ContactMixing {
        ContactMixing {
            friction: self.friction_mixing,
            restitution: self.restitution_mixing,
        }
    }

    /// Friction and restitution of piece `pa` of `ba` against piece `pb` of `bb`: their shapes'
    /// values mixed by the world's rules.
    pub(crate) fn piece_material(
        &self,
        ba: &crate::Body,
        pa: usize,
        bb: &crate::Body,
        pb: usize,
    ) -> (crate::Real, crate::Real) {
        let (da, db) = (ba.piece_shape(pa), bb.piece_shape(pb));
        (
            self.friction_mixing.mix(da.friction, db.friction),
            self.restitution_mixing.mix(da.restitution, db.restitution),
        )
    }
}
