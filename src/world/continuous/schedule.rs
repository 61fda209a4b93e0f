//! Scheduling: which pairs get a time of impact, and queueing it.
//!
//! A fast body is swept against every body its swept box reaches in the broad phase (static,
//! kinematic and dynamic alike). A pair is left to the solver when the solver owns it (manifold
//! points at the start and a small relative motion, `solver_owns`). A pair touching at the start
//! of its segment gets an impact now only if, left to the solver, it would overlap past the slop by
//! the end of the step; otherwise it is watched for pressing past `DEEP_IMPACT_DEPTH`.

use super::{ContinuousPass, PendingImpact, DEEP_IMPACT_DEPTH, DEEP_IMPACT_TOLERANCE};
use crate::constants::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::dynamics::contact_math::point_velocity;
use crate::dynamics::BodyKind;
use crate::math::{Aabb, Real, Vec2};
use crate::query::{time_of_impact, time_of_impact_unchecked, Toi, ToiOptions, ToiStatus};
use crate::world::proxy_type;
use std::cmp::Reverse;

/// Impacts a pair with a static or kinematic body may have in one step. A dynamic body squeezed
/// between two immovable ones (a box between a kinematic blade and the floor) meets them again and
/// again at the same time, which pairwise impulses cannot settle (measured: 2.8 million impacts in
/// 300 steps of the spinning-blade scene, 3.9 s); past this count the pair is left to the solver
/// and to the final check for the rest of the step. Pairs of two dynamic bodies are not capped: a
/// fast pair sliding along each other needs many small impacts (capping them at 64 held bodies in
/// 5.0% of random collisions instead of 3.0%).
pub(super) const MAX_IMPACTS_PER_PAIR: u32 = 128;

/// Relative motion (metres of the farthest point, both bodies together) up to which a pair that
/// had manifold points at the start of the step is left to the solver. Four speculative distances:
/// settling stacks move far less; a body turning a large angle or sliding fast moves far more.
const SOLVER_MOTION_LIMIT: Real = 4.0 * SPECULATIVE_DISTANCE;

impl ContinuousPass<'_> {
    /// Whether the solver owns this pair this step: it had manifold points at the start and the
    /// pair's relative motion is small enough (`SOLVER_MOTION_LIMIT`) for the solver's constraint,
    /// linearised at the start pose, to describe it. Such pairs may compress past the slop under
    /// load, which is the soft contact's business, not an impact.
    pub(super) fn solver_owns(&self, a: u32, b: u32) -> bool {
        let in_solver = self
            .contacts
            .find(a.min(b), a.max(b))
            .is_some_and(|c| c.in_solver());
        in_solver && self.relative_motion_bound(a, b) <= SOLVER_MOTION_LIMIT
    }

    /// Farthest any point of `a` moves relative to `b` over the rest of the step (metres):
    /// relative displacement plus each body's |turn|·reach. Frame-independent, so two bodies
    /// travelling together fast (a disc carried on a spinning bar) count as the slow pair they are.
    fn relative_motion_bound(&self, a: u32, b: u32) -> Real {
        let part = |i: u32| {
            let reach = self.bodies.at(i).reach;
            let s = &self.segments[i as usize];
            (s.lin * (1.0 - s.t0), s.ang.abs() * reach * (1.0 - s.t0))
        };
        let ((la, ta), (lb, tb)) = (part(a), part(b));
        (la - lb).length() + ta + tb
    }

    /// A box around body `i`'s motion from `t` to the end of the step (metres). A turn of `θ`
    /// moves a point at distance `r` from the centre by at most `min(|θ|, 2)·r`.
    fn swept_box(&self, i: u32, t: Real) -> Aabb {
        let body = self.bodies.at(i);
        let seg = &self.segments[i as usize];
        let (x0, x1) = (seg.pose_at(t), seg.pose_at(1.0));
        let turn = (seg.ang * (1.0 - t)).abs();
        body.com_shape
            .aabb(&x0)
            .union(&body.com_shape.aabb(&x1))
            .grown(2.0 * turn.min(2.0) * body.reach)
    }

    /// Makes the broad-phase proxy of a moving body hold its motion from `t` on.
    pub(super) fn enlarge_proxy(&mut self, i: u32, t: Real) {
        if self.bodies.at(i).kind == BodyKind::Static {
            return;
        }
        let swept = self.swept_box(i, t);
        self.broad_phase.enlarge_proxy(self.bodies.proxy(i), &swept);
    }

    /// Bodies whose proxies meet body `i`'s swept box from `t` and that can collide with it
    /// (at least one of the two dynamic), sorted.
    pub(super) fn candidates(&self, i: u32, t: Real) -> Vec<u32> {
        let query = self.swept_box(i, t);
        let mut out = Vec::new();
        self.broad_phase
            .query_partners(&query, proxy_type(self.bodies.at(i).kind), |c| {
                if c != i {
                    out.push(c);
                }
            });
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Velocity at world point `p` of body `i`'s *motion in this step* (its segment), which differs
    /// from its velocity once it was held: a held body stands still for the rest of the step.
    pub(super) fn segment_velocity(&self, i: u32, center: Vec2, p: Vec2) -> Vec2 {
        let s = &self.segments[i as usize];
        let inv_dt = 1.0 / self.config.dt;
        point_velocity(s.lin, s.ang, p - center) * inv_dt
    }

    /// Computes the time of impact of `a` and `b` from `t` and queues it. A pair already touching
    /// at `t` gets an impact now only if its motion would overlap it past the slop by the end of
    /// the step (a resting contact is the solver's).
    pub(super) fn schedule(&mut self, a: u32, b: u32, t: Real) {
        let key = (a.min(b), a.max(b));
        if self.pair_impacts.get(&key).copied().unwrap_or(0) >= MAX_IMPACTS_PER_PAIR {
            return; // a sustained contact against an immovable body: see MAX_IMPACTS_PER_PAIR
        }
        let (sa, sb) = (self.segments[a as usize], self.segments[b as usize]);
        let (shape_a, shape_b) = (&self.bodies.at(a).com_shape, &self.bodies.at(b).com_shape);
        let Some(toi) = time_of_impact(shape_a, &sa.motion_from(t), shape_b, &sb.motion_from(t))
        else {
            return;
        };
        // A hit at the very start of the segment is a pair touching now, like an overlap.
        let touching_now =
            toi.status == ToiStatus::Overlapping || (toi.status == ToiStatus::Hit && toi.t <= 0.0);
        if !touching_now {
            self.queue_impact(a, b, t + toi.t * (1.0 - t), toi, false);
            return;
        }
        // Touching now: an impact is needed now only if, left to the solver, the pair would
        // overlap by more than the slop before the step ends ...
        let (ca, cb) = (sa.pose_at(t).translation, sb.pose_at(t).translation);
        let rel = self.segment_velocity(b, cb, toi.point) - self.segment_velocity(a, ca, toi.point);
        if -rel.dot(toi.normal) * (1.0 - t) * self.config.dt > LINEAR_SLOP {
            self.queue_impact(a, b, t, toi, false);
            return;
        }
        // ... but touching now hides what comes later in the step (a spinning body pivoting
        // about the contact swings its far end through): ask when the pair would first overlap
        // past half the slop (DEEP_IMPACT_DEPTH). A pair already that deep (left there by an
        // earlier impact this step) is watched for pressing deeper still.
        let deep = ToiOptions {
            target_separation: -DEEP_IMPACT_DEPTH.max(toi.contact.depth + DEEP_IMPACT_TOLERANCE),
            ..ToiOptions::default()
        };
        let later = time_of_impact_unchecked(
            shape_a,
            &sa.motion_from(t),
            shape_b,
            &sb.motion_from(t),
            &deep,
        );
        if let Some(toi) = later.filter(|toi| toi.status != ToiStatus::Overlapping) {
            self.queue_impact(a, b, t + toi.t * (1.0 - t), toi, true);
        }
    }

    /// Queues a pending impact of `a` and `b` at step fraction `t`.
    fn queue_impact(&mut self, a: u32, b: u32, t: Real, toi: Toi, deep: bool) {
        self.seq += 1;
        self.queue.push(Reverse(PendingImpact {
            t,
            seq: self.seq,
            a,
            b,
            version_a: self.segments[a as usize].version,
            version_b: self.segments[b as usize].version,
            toi,
            deep,
        }));
    }
}
