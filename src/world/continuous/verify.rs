//! The final verification, the guarantee behind the event loop: each fast or re-swept body's final
//! segment is checked against everything it reaches (except the pairs the solver is trusted with)
//! for an overlap past the slop before the step ends, or, for a pair already past the slop, for
//! pressing a slop deeper. What it finds is queued as an impact at the time the overlap reaches
//! the slop and resolved like any other (with the group it touches), and the check runs again.
//! Only if overlaps remain after `VERIFY_ROUNDS` rounds are those bodies held at the start of their
//! segments, each after meeting the body it overlaps inelastically: the last resort, which keeps
//! the no-tunnelling guarantee and momentum, and loses time.

use super::{ContinuousPass, PendingKind, DEEP_IMPACT_TOLERANCE, VERIFY_DEPTH};
use crate::constants::LINEAR_SLOP;
use crate::dynamics::body::PairFilter;
use crate::math::Real;
use crate::query::{time_of_impact_filtered, PieceRules, Toi, ToiOptions, ToiStatus};

/// Rounds of the final check that queue what they find as impacts; what is still found after
/// them is held.
const VERIFY_ROUNDS: usize = 8;

/// Rounds of holding (each holds what it finds; held bodies stand still).
const HOLD_ROUNDS: usize = 8;

/// Times the final check's query may carry on from a safe time when it runs out of iterations.
const VERIFY_TOI_RESTARTS: usize = 16;

impl ContinuousPass<'_> {
    /// Checks the fast bodies and every body whose segment changed: overlaps found become impacts
    /// (then the event loop runs again); after `VERIFY_ROUNDS` rounds, bodies still overlapping
    /// are held, and the check repeats for what could reach them.
    pub(super) fn verify(&mut self, fast: &[u32]) {
        // Later rounds look only at what the previous one changed: a pair's overlap can only have
        // changed if one of its bodies got a new segment.
        let mut watch = self.watched(fast);
        for _round in 0..VERIFY_ROUNDS {
            let found = self.find_overlaps(&watch);
            if found.is_empty() {
                return;
            }
            self.buf.restarted.clear();
            for (i, c, t, toi) in found {
                self.queue_impact(i, c, t, toi, PendingKind::Verified);
            }
            self.drain_queue();
            watch = self.take_restarted();
            if watch.is_empty() {
                break; // nothing was resolved (past the backstop): what was found is held below
            }
        }
        let mut watch = self.watched(fast);
        for _round in 0..HOLD_ROUNDS {
            let found = self.find_overlaps(&watch);
            if found.is_empty() {
                return;
            }
            watch.clear();
            for (i, c, t, toi) in found {
                self.hold_meeting(i, c, t, toi);
                watch.push(i);
            }
            // Bodies whose motion reaches a held body must be checked again.
            for k in 0..watch.len() {
                let reached = self.candidates(watch[k], 0.0);
                watch.extend_from_slice(&reached);
                self.give_back(reached);
            }
            watch.sort_unstable();
            watch.dedup();
        }
    }

    /// The bodies given new segments since the last call, sorted.
    fn take_restarted(&mut self) -> Vec<u32> {
        let mut list = std::mem::take(&mut self.buf.restarted);
        list.sort_unstable();
        list.dedup();
        list
    }

    /// The fast bodies and every body whose segment changed, sorted.
    fn watched(&mut self, fast: &[u32]) -> Vec<u32> {
        // Both lists sorted, then merged.
        self.buf.changed.sort_unstable();
        let mut changed = self.buf.changed.iter().copied().peekable();
        let mut watch = Vec::with_capacity(fast.len());
        for &f in fast {
            while let Some(c) = changed.next_if(|&c| c < f) {
                watch.push(c);
            }
            changed.next_if_eq(&f);
            watch.push(f);
        }
        watch.extend(changed);
        watch
    }

    /// For each watched dynamic body that would overlap something past the slop: the body, the
    /// other body, the step fraction where the overlap reaches the slop, and that time of impact.
    fn find_overlaps(&mut self, watch: &[u32]) -> Vec<(u32, u32, Real, Toi)> {
        let mut found = Vec::new();
        for &i in watch {
            // (The pass's own arrays first: most watched bodies stop there, without the body
            // being read from memory.)
            let si = self.buf.segments[i as usize];
            if !si.moves() {
                continue; // already standing still
            }
            if !(si.changed || self.buf.swept_first[i as usize]) {
                continue; // all its pairs were the solver's, and still are (see `swept_first`)
            }
            if !self.bodies.at(i).is_dynamic() {
                continue;
            }
            // The solver's pairs cannot pass through each other (see `solver_owns`); every other
            // pair is checked on its segments.
            let list = self.candidates(i, si.t0);
            let hit = list
                .iter()
                .copied()
                .filter(|&c| {
                    !(self.known_clear(i, c) || self.solver_owns(i, c) || self.set_aside(i, c))
                })
                .find_map(|c| self.reaches_past_slop(i, c).map(|(t, toi)| (i, c, t, toi)));
            self.give_back(list);
            found.extend(hit);
        }
        found
    }

    /// When bodies `i` and `c` come closer than `-LINEAR_SLOP` on their segments (step fraction
    /// and time of impact), or `None`. A pair already past the slop (a pile compressed under load)
    /// counts only if it presses a slop deeper. A query that runs out of iterations (a pair
    /// sliding along each other close to the target gives conservative advancement tiny steps)
    /// returns only a safe time: carry on from there a few times before calling it a hit.
    fn reaches_past_slop(&self, i: u32, c: u32) -> Option<(Real, Toi)> {
        self.swept.set(self.swept.get() + 1);
        let (si, sc) = (self.buf.segments[i as usize], self.buf.segments[c as usize]);
        let (bi, bc) = (self.bodies.at(i), self.bodies.at(c));
        let (shape_i, shape_c) = (&bi.com_shape, &bc.com_shape);
        let accept = |p: usize, q: usize| bi.pieces_collide(p, bc, q);
        let accept = (bi.pair_filter(bc) == PairFilter::Pieces)
            .then_some(&accept as &dyn Fn(usize, usize) -> bool);
        // Hysteresis, pair of pieces by pair of pieces (`PieceRules::deepen`): pieces that start
        // their segments near or past the check depth (ones the check just resolved, which now
        // separate) count only if they press deeper: within the slop by `DEEP_IMPACT_TOLERANCE`,
        // past it by a whole slop. The margin is always the tolerance at least, fifty times the
        // time of impact's: a pair the check stopped at the slop (to within that query's 1e-6 m)
        // that now leaves is not met again at once. (Capped at the slop, a pair starting a hair
        // under it was "met" at its start whatever its motion, every round, and held: Box2D's
        // junkyard, 800 steps, 1,026 holds, now none.) Each pair of pieces keeps the target of
        // where the check started when the query carries on from a safe time.
        let target_of = |depth: Real| {
            if depth > LINEAR_SLOP {
                depth + LINEAR_SLOP
            } else {
                (depth + DEEP_IMPACT_TOLERANCE).max(VERIFY_DEPTH)
            }
        };
        // (The first query records each pair of pieces' target; the queries that carry on from
        // a safe time read it back.)
        CHECK_TARGETS.with(|cell| cell.borrow_mut().clear());
        let carrying_on = std::cell::Cell::new(false);
        let deepen = |p: usize, q: usize, depth: Real| {
            CHECK_TARGETS.with(|cell| {
                let mut targets = cell.borrow_mut();
                if carrying_on.get() {
                    if let Some(&(_, target)) = targets.iter().find(|(k, _)| *k == (p, q)) {
                        return target;
                    }
                }
                let target = target_of(depth);
                targets.push(((p, q), target));
                target
            })
        };
        let mut from = si.t0.max(sc.t0);
        let mut found = None;
        for _ in 0..VERIFY_TOI_RESTARTS {
            let (mi, mc) = (si.motion_from(from), sc.motion_from(from));
            let ghost = |toi: &Toi| super::schedule::chain_ghost(bi, &mi, bc, &mc, toi);
            let rules = PieceRules {
                accept,
                ghost: (bi.has_chain || bc.has_chain).then_some(&ghost as &dyn Fn(&Toi) -> bool),
                deepen: Some(&deepen),
            };
            let options = ToiOptions::default();
            let toi = time_of_impact_filtered(shape_i, &mi, shape_c, &mc, &options, rules)?;
            let at = from + toi.t * (1.0 - from);
            let done = toi.status != ToiStatus::BudgetExhausted || at >= 1.0;
            found = Some((at, toi));
            if done {
                break;
            }
            from = at;
            carrying_on.set(true);
        }
        found
    }
}

thread_local! {
    /// The target of each pair of pieces where the final check's query of a pair started
    /// (`reaches_past_slop`), kept per thread so that a query allocates nothing.
    static CHECK_TARGETS: std::cell::RefCell<Vec<((usize, usize), Real)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}
