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

#[cfg(feature = "serde")]
impl Clock {
    /// Checks a clock read from a snapshot: time and the real time not yet simulated are not
    /// negative (finiteness is checked for every number of a snapshot before this).
    pub fn check_restored(&self) -> Result<(), String> {
        if self.time < 0.0 || self.accumulator < 0.0 {
            return Err(format!(
                "simulated time {} s and time not yet simulated {} s: neither can be negative",
                self.time, self.accumulator
            ));
        }
        Ok(())
    }
}
