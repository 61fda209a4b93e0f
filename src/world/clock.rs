//! The world's clock: steps run, simulated time, and real time not yet simulated. Shared by the
//! step's stages (events, sensors, the solver, the continuous pass) and the snapshot format.

use crate::math::Real;

/// Where the world is in time.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Clock {
    /// Steps run.
    pub step: u64,
    /// Simulated time at the start of the current step (seconds).
    pub time: Real,
    /// Real time accumulated by `advance` and not yet simulated (seconds).
    pub accumulator: Real,
}
