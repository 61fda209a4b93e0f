//! Wall-clock time of each stage of the last step, for profiling a scene (as Box2D's
//! `b2World_GetProfile`). Measured with [`std::time::Instant`] around each stage of
//! [`World::step`](super::World::step); the cost of measuring is a few tens of nanoseconds per
//! step.

use std::time::Instant;

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

/// Times consecutive stages: each `lap` returns the milliseconds since the previous one.
pub(crate) struct Laps {
    start: Instant,
    last: Instant,
}

impl Laps {
    pub fn start() -> Self {
        let now = Instant::now();
        Self {
            start: now,
            last: now,
        }
    }

    /// Milliseconds since the previous lap (or the start).
    pub fn lap(&mut self) -> f64 {
        let now = Instant::now();
        let ms = 1e3 * (now - self.last).as_secs_f64();
        self.last = now;
        ms
    }

    /// Milliseconds since the start.
    pub fn total(&self) -> f64 {
        1e3 * self.start.elapsed().as_secs_f64()
    }
}
