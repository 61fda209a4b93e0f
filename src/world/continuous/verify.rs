//! The final verification, the guarantee behind the event loop: each fast or re-swept body's final
//! segment is checked against everything it reaches for an overlap past the slop before the step
//! ends. A body that would get one is held at the start of its segment (a pose that overlapped
//! nothing past the slop) for the rest of the step, and the check repeats for what changed.

use super::ContinuousPass;
use crate::constants::LINEAR_SLOP;
use crate::query::{contact, time_of_impact_unchecked, ToiOptions, ToiStatus};

/// Rounds of the final no-tunnelling check (each holds what it finds; held bodies stand still).
const VERIFY_ROUNDS: usize = 8;

/// Times the final check's query may carry on from a safe time when it runs out of iterations.
const VERIFY_TOI_RESTARTS: usize = 16;

impl ContinuousPass<'_> {
    /// Checks the fast bodies and every body whose segment changed; holds those that would overlap
    /// something past the slop, and checks again what could reach them.
    pub(super) fn verify(&mut self, fast: &[u32]) {
        let mut watch: Vec<u32> = fast.to_vec();
        watch.extend(
            self.segments
                .iter()
                .enumerate()
                .filter(|(_, s)| s.changed)
                .map(|(i, _)| i as u32),
        );
        watch.sort_unstable();
        watch.dedup();
        for _round in 0..VERIFY_ROUNDS {
            let hold: Vec<u32> = watch
                .iter()
                .copied()
                .filter(|&i| self.would_overlap(i))
                .collect();
            if hold.is_empty() {
                return;
            }
            for &i in &hold {
                let t0 = self.segments[i as usize].t0;
                self.hold(i, t0);
            }
            // Bodies whose motion reaches a held body must be checked again.
            watch = hold;
            watch.extend_from_slice(fast);
            watch.sort_unstable();
            watch.dedup();
        }
    }

    /// Whether dynamic body `i`'s segment overlaps something past the slop before the step ends.
    fn would_overlap(&self, i: u32) -> bool {
        if !self.bodies.at(i).is_dynamic() {
            return false;
        }
        let si = self.segments[i as usize];
        if !si.moves() {
            return false; // already standing still
        }
        // The solver's pairs cannot pass through each other (see `solver_owns`); every other pair
        // is checked on its segments.
        self.candidates(i, si.t0)
            .into_iter()
            .any(|c| !self.solver_owns(i, c) && self.reaches_past_slop(i, c))
    }

    /// Whether bodies `i` and `c` come closer than `-LINEAR_SLOP` on their segments. A query that
    /// runs out of iterations (a pair sliding along each other close to the target gives
    /// conservative advancement tiny steps) returns only a safe time: carry on from there a few
    /// times before calling it a hit.
    fn reaches_past_slop(&self, i: u32, c: u32) -> bool {
        let deep = ToiOptions {
            target_separation: -LINEAR_SLOP,
            ..ToiOptions::default()
        };
        let (si, sc) = (self.segments[i as usize], self.segments[c as usize]);
        let (shape_i, shape_c) = (&self.bodies.at(i).com_shape, &self.bodies.at(c).com_shape);
        let mut from = si.t0.max(sc.t0);
        // A pair already past the slop (a pile compressed under load) is flagged only if it
        // presses a slop deeper still.
        let start_depth = contact(shape_i, &si.pose_at(from), shape_c, &sc.pose_at(from))
            .map_or(0.0, |k| k.depth);
        let deep = if start_depth > LINEAR_SLOP {
            ToiOptions {
                target_separation: -(start_depth + LINEAR_SLOP),
                ..deep
            }
        } else {
            deep
        };
        let mut found = false;
        for _ in 0..VERIFY_TOI_RESTARTS {
            let Some(toi) = time_of_impact_unchecked(
                shape_i,
                &si.motion_from(from),
                shape_c,
                &sc.motion_from(from),
                &deep,
            ) else {
                return false; // no contact from the safe time on
            };
            let at = from + toi.t * (1.0 - from);
            found = true;
            if toi.status != ToiStatus::BudgetExhausted || at >= 1.0 {
                break;
            }
            from = at;
        }
        found
    }
}
