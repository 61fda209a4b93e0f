//! Wall-clock time of each stage of the last step, for profiling a scene (as Box2D's
//! `b2World_GetProfile`). Read from the world's [`ProfileClock`] around each stage of
//! [`World::step`](super::World::step): by default `std::time::Instant` (a few tens of
//! nanoseconds per step), none on `wasm32-unknown-unknown`, where `Instant::now` panics (the
//! times then stay zero unless the caller gives a clock, `World::set_profile_clock`). Nothing
//! else on the step's path reads a clock.

/// A monotonic clock for the step's profile: seconds since any fixed origin (in a browser,
/// `performance.now() / 1000`). Only differences between two readings are used.
pub type ProfileClock = fn() -> f64;

/// The clock a new world profiles with (see the module notes).
pub(crate) fn default_clock() -> Option<ProfileClock> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        Some(instant_seconds)
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        None
    }
}

/// Seconds since the first reading in this process, from `std::time::Instant`.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn instant_seconds() -> f64 {
    static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    ORIGIN
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// Milliseconds (wall clock) spent in each stage of the last step (see `docs/architecture.md` for
/// the stages), and the continuous pass's work in counts (which, unlike times, do not move with
/// the machine's load). Zero before the first step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepProfile {
    /// Stage 1: new pairs from the broad phase, dropped contacts (ms).
    pub pairs: f64,
    /// Stage 2: manifolds at the start poses (narrow phase) (ms).
    pub narrow: f64,
    /// Stage 3: the contact solver, including gathering states and building constraints (ms).
    pub solve: f64,
    /// Stage 4: the continuous pass (times of impact and their resolution) (ms).
    pub continuous: f64,
    /// Stage 5: broad-phase proxies refitted to the final poses (ms).
    pub refit: f64,
    /// The whole step (ms), at least the sum of the stages.
    pub total: f64,
    /// Pairs the continuous pass swept (count): each a time-of-impact query of two bodies over
    /// the rest of the step (see `docs/continuous.md` for which pairs need one).
    pub swept_pairs: usize,
    /// Candidate pairs the continuous pass examined (count): the work its backstop bounds (see
    /// `docs/simulation.md`, the continuous pass's bounded work).
    pub candidate_pairs: usize,
}

impl StepProfile {
    /// Adds `other` stage by stage (to accumulate over many steps).
    pub fn accumulate(&mut self, other: &StepProfile) {
        self.pairs += other.pairs;
        self.narrow += other.narrow;
        self.solve += other.solve;
        self.continuous += other.continuous;
        self.refit += other.refit;
        self.total += other.total;
        self.swept_pairs += other.swept_pairs;
        self.candidate_pairs += other.candidate_pairs;
    }
}

/// Times consecutive stages: each `lap` returns the milliseconds since the previous one (zero
/// without a clock).
pub(crate) struct Laps {
    clock: Option<ProfileClock>,
    start: f64,
    last: f64,
}

impl Laps {
    pub fn start(clock: Option<ProfileClock>) -> Self {
        let now = clock.map_or(0.0, |c| c());
        Self {
            clock,
            start: now,
            last: now,
        }
    }

    /// Milliseconds since the previous lap (or the start).
    pub fn lap(&mut self) -> f64 {
        let Some(clock) = self.clock else {
            return 0.0;
        };
        let now = clock();
        let ms = 1e3 * (now - self.last);
        self.last = now;
        ms
    }

    /// Milliseconds since the start.
    pub fn total(&self) -> f64 {
        self.clock.map_or(0.0, |c| 1e3 * (c() - self.start))
    }
}
