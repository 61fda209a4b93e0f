//! The continuous pass: impacts found by time of impact, processed in time order within the step.
//!
//! After the solver, each body has a motion over the step, x0 → x1, held here as a *segment*
//! (start time, start pose, displacement and turn per unit step). A body is **fast** when some
//! point of it can move more than half the speculative distance in the step. Two slow bodies that
//! were farther apart than the speculative distance at the start cannot touch by the end (each
//! closes at most half of it), and pairs closer than that were in the solver, whose speculative
//! constraint stops them closing more than the gap; so only pairs with a fast body need a time of
//! impact, and each fast body queries the broad phase with its swept box. That includes pairs the
//! solver also had: its constraint is linearised at the start pose, and a body turning a large
//! angle in the step brings other features through that the constraint never saw. Dynamic–dynamic
//! and fast–fast pairs included.
//!
//! Impacts go into a priority queue by time. The earliest is resolved at the moment of contact:
//! both bodies are moved to their poses at `t`, a restitution-and-friction impulse is applied at the
//! contact point, and each changed body gets a new segment from `t` to the end of the step with its
//! new velocity (so it keeps the rest of its step: no time loss). Its pending impacts are
//! invalidated (segment versions) and it is re-swept against everything its new swept box reaches,
//! including bodies it was resting on. After `max_impacts_per_step` impacts, each further impact
//! clamps the bodies at the safe time instead (they stop there for this step, never tunnelling).

use super::events::Impact;
use super::World;
use crate::constants::{
    AABB_MARGIN, DEEP_IMPACT_DEPTH, DEEP_IMPACT_TOLERANCE, LINEAR_SLOP, SPECULATIVE_DISTANCE,
};
use crate::dynamics::BodyKind;
use crate::math::Vec2;
use crate::math::{Aabb, Real, Rot, Transform};
use crate::query::{
    contact, time_of_impact, time_of_impact_unchecked, Motion, Toi, ToiOptions, ToiStatus,
};
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, HashSet};

/// A body's motion for the rest of the step.
#[derive(Clone, Copy, Debug)]
struct Segment {
    /// Start time (fraction of the step).
    t0: Real,
    /// Centre-of-mass pose at `t0`.
    pose0: Transform,
    /// Displacement per unit of step fraction (metres).
    lin: Vec2,
    /// Turn per unit of step fraction (radians).
    ang: Real,
    version: u32,
    changed: bool,
}

impl Segment {
    fn pose_at(&self, t: Real) -> Transform {
        let d = t - self.t0;
        let rotation = if self.ang == 0.0 {
            self.pose0.rotation
        } else {
            Rot::from_angle(d * self.ang).mul_rot(self.pose0.rotation)
        };
        Transform::from_parts(self.pose0.translation + d * self.lin, rotation)
    }

    fn motion_from(&self, t: Real) -> Motion {
        Motion::new(self.pose_at(t), self.lin * (1.0 - t), self.ang * (1.0 - t))
    }
}

/// A pending impact.
struct Event {
    t: Real,
    seq: u64,
    a: u32,
    b: u32,
    version_a: u32,
    version_b: u32,
    toi: Toi,
    /// Found by the past-the-slop query: resolve whenever the pair is still approaching.
    deep: bool,
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        self.t.total_cmp(&other.t).then(self.seq.cmp(&other.seq))
    }
}

struct Pass {
    segs: Vec<Option<Segment>>,
    heap: BinaryHeap<Reverse<Event>>,
    seq: u64,
    impacts: usize,
    /// Events processed; past `RESWEEP_FACTOR × max_impacts_per_step` nothing is re-swept any more.
    events: usize,
    /// Impulses applied per pair this step (see `MAX_IMPACTS_PER_PAIR`).
    pair_impacts: HashMap<(u32, u32), u32>,
}

/// Impacts a pair with a static or kinematic body may have in one step. A dynamic body squeezed
/// between two immovable ones (a box between a kinematic blade and the floor) meets them again and
/// again at the same time, which pairwise impulses cannot settle (measured: 2.8 million impacts in
/// 300 steps of the spinning-blade scene, 3.9 s); past this count the pair is left to the solver
/// and to the final check for the rest of the step. Pairs of two dynamic bodies are not capped: a
/// fast pair sliding along each other needs many small impacts (capping them at 64 held bodies in
/// 5.0% of random collisions instead of 3.0%).
const MAX_IMPACTS_PER_PAIR: u32 = 128;

/// Events (impacts, clamps, budget continuations) one pass may process per allowed impact before
/// it stops re-sweeping: a backstop that bounds the work of any pathological scene.
const RESWEEP_FACTOR: usize = 16;

/// Relative motion (metres of the farthest point, both bodies together) up to which a pair that
/// had manifold points at the start of the step is left to the solver. Four speculative distances:
/// settling stacks move far less; a body turning a large angle or sliding fast moves far more.
const SOLVER_MOTION_LIMIT: Real = 4.0 * SPECULATIVE_DISTANCE;

/// Rounds of the final no-tunnelling check (each clamps what it finds; clamped bodies stand still).
const VERIFY_ROUNDS: usize = 8;

/// Times the final check's query may carry on from a safe time when it runs out of iterations.
const VERIFY_TOI_RESTARTS: usize = 16;

/// Sequential-impulse sweeps over an impact's manifold points (two points converge in a few).
const IMPACT_ITERATIONS: usize = 8;

impl World {
    /// Step 4 of the pipeline; `angles` is the angle each body turned in the solver (by slot).
    pub(crate) fn continuous_pass(&mut self, angles: &[Real]) {
        let half = SPECULATIVE_DISTANCE / 2.0;
        let segs: Vec<Option<Segment>> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, slot)| {
                slot.body.as_ref().map(|b| Segment {
                    t0: 0.0,
                    pose0: b.previous_pose,
                    lin: b.pose.translation - b.previous_pose.translation,
                    ang: if b.kind == BodyKind::Static {
                        0.0
                    } else {
                        angles[i]
                    },
                    version: 0,
                    changed: false,
                })
            })
            .collect();
        let fast: Vec<u32> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| {
                let b = slot.body.as_ref()?;
                let s = segs[i]?;
                (b.kind != BodyKind::Static && s.lin.length() + s.ang.abs() * b.reach > half)
                    .then_some(i as u32)
            })
            .collect();
        if fast.is_empty() {
            return;
        }
        let mut pass = Pass {
            segs,
            heap: BinaryHeap::new(),
            seq: 0,
            impacts: 0,
            events: 0,
            pair_impacts: HashMap::new(),
        };
        // Fast bodies' boxes must hold their whole motion before anyone queries.
        for &f in &fast {
            self.enlarge_box(&pass, f, 0.0);
        }
        let mut seen: HashSet<(u32, u32)> = HashSet::new();
        for &f in &fast {
            for c in self.candidates(&pass, f, 0.0) {
                let key = (f.min(c), f.max(c));
                if !seen.insert(key) || self.solver_owns(&pass, f, c) {
                    continue;
                }
                self.schedule(&mut pass, f, c, 0.0);
            }
        }
        while let Some(Reverse(event)) = pass.heap.pop() {
            let valid = |i: u32, v: u32| pass.segs[i as usize].is_some_and(|s| s.version == v);
            if !(valid(event.a, event.version_a) && valid(event.b, event.version_b)) {
                continue;
            }
            pass.events += 1;
            if pass.events > RESWEEP_FACTOR * self.config.max_impacts_per_step {
                // The backstop: a kinematic body driving into bodies that are already held
                // would otherwise meet them again at the same time forever. What is left is the
                // final check's (it holds whatever would still overlap).
                break;
            }
            self.resolve(&mut pass, &event);
        }
        self.verify(&mut pass, &fast);
        for (slot, seg) in self.slots.iter_mut().zip(&pass.segs) {
            if let (Some(b), Some(s)) = (slot.body.as_mut(), seg) {
                if s.changed {
                    b.pose = s.pose_at(1.0);
                }
            }
        }
    }

    /// The guarantee behind the event loop: each fast or re-swept body's final segment is checked
    /// against everything it reaches for an overlap past the slop before the step ends. A body that
    /// would get one is clamped at the start of its segment (a pose that overlapped nothing past
    /// the slop) for the rest of the step, and the check repeats for what changed. The body keeps
    /// its velocity; the next step's solver and continuous pass take it from there.
    fn verify(&mut self, pass: &mut Pass, fast: &[u32]) {
        let deep = ToiOptions {
            target_separation: -LINEAR_SLOP,
            ..ToiOptions::default()
        };
        let mut watch: Vec<u32> = fast.to_vec();
        watch.extend(
            pass.segs
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_some_and(|s| s.changed))
                .map(|(i, _)| i as u32),
        );
        watch.sort_unstable();
        watch.dedup();
        for _round in 0..VERIFY_ROUNDS {
            let mut clamp: Vec<u32> = Vec::new();
            for &i in &watch {
                let body = self.slots[i as usize].body.as_ref().expect("live");
                if !body.is_dynamic() {
                    continue;
                }
                let si = pass.segs[i as usize].expect("live");
                if si.lin == Vec2::ZERO && si.ang == 0.0 {
                    continue; // already standing still
                }
                for c in self.candidates(pass, i, si.t0) {
                    let sc = pass.segs[c as usize].expect("live");
                    if self.solver_owns(pass, i, c) {
                        // The solver's pair may compress under load, but not jump: flag it only if
                        // this step deepened the overlap by more than the slop (a body shoved into
                        // a thin wall by a hard hit on the solver's side).
                        let other = &self.slots[c as usize]
                            .body
                            .as_ref()
                            .expect("live")
                            .com_shape;
                        let depth = |t: Real| {
                            contact(&body.com_shape, &si.pose_at(t), other, &sc.pose_at(t))
                                .map_or(0.0, |k| k.depth)
                        };
                        if depth(1.0) - depth(si.t0.max(sc.t0)) > LINEAR_SLOP {
                            clamp.push(i);
                            break;
                        }
                        continue;
                    }
                    let t = si.t0.max(sc.t0);
                    let other = &self.slots[c as usize]
                        .body
                        .as_ref()
                        .expect("live")
                        .com_shape;
                    // A query that runs out of iterations (a pair sliding along each other
                    // close to the target gives conservative advancement tiny steps) returns
                    // only a safe time: carry on from there a few times before calling it a hit.
                    let mut from = t;
                    let mut found = false;
                    for _ in 0..VERIFY_TOI_RESTARTS {
                        let Some(toi) = time_of_impact_unchecked(
                            &body.com_shape,
                            &si.motion_from(from),
                            other,
                            &sc.motion_from(from),
                            &deep,
                        ) else {
                            found = false; // no contact from the safe time on
                            break;
                        };
                        let at = from + toi.t * (1.0 - from);
                        found = true;
                        if toi.status != ToiStatus::BudgetExhausted || at >= 1.0 {
                            break;
                        }
                        from = at;
                    }
                    if found {
                        clamp.push(i);
                        break;
                    }
                }
            }
            if clamp.is_empty() {
                return;
            }
            for &i in &clamp {
                let s = pass.segs[i as usize].expect("live");
                self.hold(pass, i, s.t0);
            }
            // Bodies whose motion reaches a clamped body must be checked again.
            watch = clamp;
            let fast_movers: Vec<u32> = fast.to_vec();
            watch.extend(fast_movers);
            watch.sort_unstable();
            watch.dedup();
        }
    }

    /// Holds body `i` still from `t` to the end of the step (a clamp: the safe fallback past the
    /// impact budget and in the final check) and zeroes its velocity: a body whose pose stands
    /// still while it keeps a velocity would carry that velocity into the next step's contacts
    /// (and, clamped step after step, gain speed under gravity without moving). Reported in
    /// [`StepEvents::held`](super::events::StepEvents::held).
    fn hold(&mut self, pass: &mut Pass, i: u32, t: Real) {
        let old = pass.segs[i as usize].expect("live");
        pass.segs[i as usize] = Some(Segment {
            t0: t,
            pose0: old.pose_at(t),
            lin: Vec2::ZERO,
            ang: 0.0,
            version: old.version + 1,
            changed: true,
        });
        if let Some(b) = self.slots[i as usize].body.as_mut() {
            b.linear_velocity = Vec2::ZERO;
            b.angular_velocity = 0.0;
        }
        let id = self.id_of(i);
        if !self.events.held.contains(&id) {
            self.events.held.push(id);
        }
    }

    /// Whether the solver owns this pair this step: it had manifold points at the start and the
    /// pair's relative motion is small enough (`SOLVER_MOTION_LIMIT`) for the solver's constraint,
    /// linearised at the start pose, to describe it. Such pairs may compress past the slop under
    /// load, which is the soft contact's business, not an impact.
    fn solver_owns(&self, pass: &Pass, a: u32, b: u32) -> bool {
        let key = (a.min(b), a.max(b));
        let in_solver = self
            .contact_index
            .get(&key)
            .is_some_and(|&k| self.contacts[k].in_solver());
        in_solver && self.relative_motion_bound(pass, a, b) <= SOLVER_MOTION_LIMIT
    }

    /// Farthest any point of `a` moves relative to `b` over the rest of the step (metres):
    /// relative displacement plus each body's |turn|·reach. Frame-independent, so two bodies
    /// travelling together fast (a disc carried on a spinning bar) count as the slow pair they are.
    fn relative_motion_bound(&self, pass: &Pass, a: u32, b: u32) -> Real {
        let part = |i: u32| {
            let body = self.slots[i as usize].body.as_ref().expect("live");
            let s = pass.segs[i as usize].expect("live");
            (
                s.lin * (1.0 - s.t0),
                s.ang.abs() * body.reach * (1.0 - s.t0),
            )
        };
        let ((la, ta), (lb, tb)) = (part(a), part(b));
        (la - lb).length() + ta + tb
    }

    /// A box around body `i`'s motion from `t` to the end of the step (metres). A turn of `θ`
    /// moves a point at distance `r` from the centre by at most `min(|θ|, 2)·r`.
    fn swept_box(&self, pass: &Pass, i: u32, t: Real) -> Aabb {
        let body = self.slots[i as usize].body.as_ref().expect("live");
        let seg = pass.segs[i as usize].expect("live");
        let (x0, x1) = (seg.pose_at(t), seg.pose_at(1.0));
        let turn = (seg.ang * (1.0 - t)).abs();
        body.com_shape
            .aabb(&x0)
            .union(&body.com_shape.aabb(&x1))
            .grown(2.0 * turn.min(2.0) * body.reach)
    }

    /// Makes the broad-phase box of a moving body hold its motion from `t` on (and marks the body
    /// for the next pair update).
    fn enlarge_box(&mut self, pass: &Pass, i: u32, t: Real) {
        let need = self.swept_box(pass, i, t).grown(SPECULATIVE_DISTANCE / 2.0);
        if let Some((super::TreeKind::Moving, proxy)) = self.slots[i as usize].proxy {
            if !self.moving_tree.fat_aabb(proxy).contains(&need) {
                self.moving_tree
                    .set_fat_aabb(proxy, need.grown(AABB_MARGIN));
                // A grown box can reach bodies it did not reach before: the next step's pair
                // update must query it, or a pair inside the new box would never get a contact.
                self.moved.push(i);
            }
        }
    }

    /// Bodies whose boxes meet body `i`'s swept box from `t`, that can collide with it.
    fn candidates(&self, pass: &Pass, i: u32, t: Real) -> Vec<u32> {
        let query = self.swept_box(pass, i, t);
        let dynamic_i = self.slots[i as usize]
            .body
            .as_ref()
            .is_some_and(|b| b.is_dynamic());
        let mut out = Vec::new();
        let mut push = |c: u32| {
            if c != i {
                let dynamic_c = self.slots[c as usize]
                    .body
                    .as_ref()
                    .is_some_and(|b| b.is_dynamic());
                if dynamic_i || dynamic_c {
                    out.push(c);
                }
            }
            true
        };
        self.moving_tree.query(&query, |_, &c| push(c));
        self.static_tree.query(&query, |_, &c| push(c));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Velocity of body `i` at world point `p` (COM at `center`).
    fn point_velocity(&self, i: u32, center: Vec2, p: Vec2) -> Vec2 {
        let b = self.slots[i as usize].body.as_ref().expect("live");
        b.linear_velocity + b.angular_velocity * (p - center).perp()
    }

    /// Velocity at world point `p` of body `i`'s *motion in this step* (its segment), which differs
    /// from its velocity once it was clamped: a clamped body stands still for the rest of the step.
    fn segment_velocity(&self, pass: &Pass, i: u32, center: Vec2, p: Vec2) -> Vec2 {
        let s = pass.segs[i as usize].expect("live");
        let inv_dt = 1.0 / self.config.dt;
        (s.lin + s.ang * (p - center).perp()) * inv_dt
    }

    /// Computes the time of impact of `a` and `b` from `t` and queues it. A pair already touching
    /// at `t` gets an impact now only if its motion would overlap it past the slop by the end of
    /// the step (a resting contact is the solver's).
    fn schedule(&self, pass: &mut Pass, a: u32, b: u32, t: Real) {
        let key = (a.min(b), a.max(b));
        if pass.pair_impacts.get(&key).copied().unwrap_or(0) >= MAX_IMPACTS_PER_PAIR {
            return; // a sustained contact against an immovable body: see MAX_IMPACTS_PER_PAIR
        }
        let (sa, sb) = (
            pass.segs[a as usize].expect("live"),
            pass.segs[b as usize].expect("live"),
        );
        let (ba, bb) = (
            self.slots[a as usize].body.as_ref().expect("live"),
            self.slots[b as usize].body.as_ref().expect("live"),
        );
        let Some(toi) = time_of_impact(
            &ba.com_shape,
            &sa.motion_from(t),
            &bb.com_shape,
            &sb.motion_from(t),
        ) else {
            return;
        };
        // A hit at the very start of the segment is a pair touching now, like an overlap.
        let touching_now =
            toi.status == ToiStatus::Overlapping || (toi.status == ToiStatus::Hit && toi.t <= 0.0);
        let when = match toi.status {
            _ if touching_now => {
                // Touching now: an impact is needed now only if, left to the solver, the pair
                // would overlap by more than the slop before the step ends ...
                let (ca, cb) = (sa.pose_at(t).translation, sb.pose_at(t).translation);
                let rel = self.segment_velocity(pass, b, cb, toi.point)
                    - self.segment_velocity(pass, a, ca, toi.point);
                if -rel.dot(toi.normal) * (1.0 - t) * self.config.dt > LINEAR_SLOP {
                    t
                } else {
                    // ... but touching now hides what comes later in the step (a spinning body
                    // pivoting about the contact swings its far end through): ask when the pair
                    // would first overlap past half the slop (DEEP_IMPACT_DEPTH).
                    // A pair already that deep (left there by an earlier impact this step) is
                    // watched for pressing deeper still.
                    let deep = ToiOptions {
                        target_separation: -DEEP_IMPACT_DEPTH
                            .max(toi.contact.depth + DEEP_IMPACT_TOLERANCE),
                        ..ToiOptions::default()
                    };
                    let later = time_of_impact_unchecked(
                        &ba.com_shape,
                        &sa.motion_from(t),
                        &bb.com_shape,
                        &sb.motion_from(t),
                        &deep,
                    );
                    match later {
                        Some(toi) if toi.status != ToiStatus::Overlapping => {
                            self.push_event(pass, a, b, t + toi.t * (1.0 - t), toi, true);
                        }
                        _ => {}
                    }
                    return;
                }
            }
            _ => t + toi.t * (1.0 - t),
        };
        self.push_event(pass, a, b, when, toi, false);
    }

    fn push_event(&self, pass: &mut Pass, a: u32, b: u32, t: Real, toi: Toi, deep: bool) {
        let (sa, sb) = (
            pass.segs[a as usize].expect("live"),
            pass.segs[b as usize].expect("live"),
        );
        pass.seq += 1;
        pass.heap.push(Reverse(Event {
            t,
            seq: pass.seq,
            a,
            b,
            version_a: sa.version,
            version_b: sb.version,
            toi,
            deep,
        }));
    }

    /// Resolves one impact: an impulse at the contact (or a clamp past the budget), new segments,
    /// re-sweeps.
    fn resolve(&mut self, pass: &mut Pass, event: &Event) {
        let (a, b, t) = (event.a, event.b, event.t);
        let (sa, sb) = (
            pass.segs[a as usize].expect("live"),
            pass.segs[b as usize].expect("live"),
        );
        let (ca, cb) = (sa.pose_at(t).translation, sb.pose_at(t).translation);
        let (n, p) = (event.toi.normal, event.toi.point);
        let clamp = pass.impacts >= self.config.max_impacts_per_step;
        // Decide on the motion the bodies actually have this step (a clamped body stands still).
        let seg_rel = self.segment_velocity(pass, b, cb, p) - self.segment_velocity(pass, a, ca, p);
        let closing = -seg_rel.dot(n);
        let negligible = if event.deep {
            closing * (1.0 - t) * self.config.dt <= DEEP_IMPACT_TOLERANCE
        } else {
            closing * (1.0 - t) * self.config.dt <= LINEAR_SLOP
        };
        if negligible {
            // Met while separating, sliding, or too slowly to overlap past the slop by the end of
            // the step: the solver takes it from here. But a time from an exhausted budget is only
            // a safe time, not a contact: carry on from there (counting against the budget).
            if event.toi.status == ToiStatus::BudgetExhausted
                && !clamp
                && pass.events <= RESWEEP_FACTOR * self.config.max_impacts_per_step
            {
                pass.impacts += 1;
                self.schedule(pass, a, b, t);
            }
            return;
        }
        let vn = (self.point_velocity(b, cb, p) - self.point_velocity(a, ca, p)).dot(n);
        let mut impulse = 0.0;
        if clamp {
            // Past the budget the bodies stop at the safe time and are not re-swept.
        } else {
            pass.impacts += 1;
            let immovable = |i: u32| {
                !self.slots[i as usize]
                    .body
                    .as_ref()
                    .expect("live")
                    .is_dynamic()
            };
            if immovable(a) || immovable(b) {
                *pass.pair_impacts.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
            // A pair pressing past DEEP_IMPACT_DEPTH leaves separating at the speed that would
            // undo its excess depth over one step (as the solver's soft contact does, and no
            // faster than its push limit): a body spinning or sliding fast along another turns
            // tangential speed into approach as the normal turns, and a pair left at zero normal
            // speed digs in again at once, a little deeper each time.
            let separate = if event.deep {
                let excess = (event.toi.contact.depth - 0.5 * DEEP_IMPACT_DEPTH).max(0.0);
                ((excess + DEEP_IMPACT_TOLERANCE) / self.config.dt)
                    .min(self.config.contact_push_velocity)
            } else {
                0.0
            };
            if vn < 0.0 || event.toi.contact.points().len() > 1 {
                // Newton's restitution with Coulomb friction can add energy on eccentric hits
                // (Kane's paradox): if it would, resolve the impact as inelastic instead.
                let saved = self.save_velocities(a, b);
                let before = self.pair_energy(a, b);
                impulse =
                    self.apply_impact(a, b, ca, cb, n, event.toi.contact.points(), true, separate);
                if self.pair_energy(a, b) > before {
                    self.restore_velocities(a, b, saved);
                    impulse = self.apply_impact(
                        a,
                        b,
                        ca,
                        cb,
                        n,
                        event.toi.contact.points(),
                        false,
                        separate,
                    );
                }
            }
        }
        self.events.impacts.push(Impact {
            body_a: self.id_of(a),
            body_b: self.id_of(b),
            step: self.step_count,
            fraction: t,
            time: self.time + t * self.config.dt,
            normal: n,
            point: p,
            relative_speed: (-vn).max(0.0),
            impulse,
        });
        for i in [a, b] {
            let body = self.slots[i as usize].body.as_ref().expect("live");
            if !body.is_dynamic() {
                continue;
            }
            if clamp {
                self.hold(pass, i, t);
                self.enlarge_box(pass, i, t);
                continue;
            }
            let old = pass.segs[i as usize].expect("live");
            let (lin, ang) = (
                body.linear_velocity * self.config.dt,
                body.angular_velocity * self.config.dt,
            );
            pass.segs[i as usize] = Some(Segment {
                t0: t,
                pose0: old.pose_at(t),
                lin,
                ang,
                version: old.version + 1,
                changed: true,
            });
            self.enlarge_box(pass, i, t);
        }
        for i in [a, b] {
            if !self.slots[i as usize]
                .body
                .as_ref()
                .expect("live")
                .is_dynamic()
            {
                continue;
            }
            // No solver ownership here: the solver has finished its step, and an impulse changed
            // these bodies' motion after it (a hit ball pushing into its resting neighbour).
            for c in self.candidates(pass, i, t) {
                self.schedule(pass, i, c, t);
            }
        }
    }

    /// Applies the impact impulse over every manifold point (sequential impulses with accumulated
    /// clamping, iterated so a two-point contact such as a bar landing flat is resolved at both
    /// ends); restitution above the threshold (unless `elastic` is false) and Coulomb friction.
    /// Returns the total normal impulse.
    #[allow(clippy::too_many_arguments)]
    fn apply_impact(
        &mut self,
        a: u32,
        b: u32,
        ca: Vec2,
        cb: Vec2,
        n: Vec2,
        points: &[Vec2],
        elastic: bool,
        separate: Real,
    ) -> Real {
        let (ba, bb) = (
            self.slots[a as usize].body.as_ref().expect("live"),
            self.slots[b as usize].body.as_ref().expect("live"),
        );
        let (ma, ia, mb, ib) = (ba.inv_mass, ba.inv_inertia, bb.inv_mass, bb.inv_inertia);
        let restitution = if elastic {
            ba.restitution.max(bb.restitution)
        } else {
            0.0
        };
        let friction = (ba.friction * bb.friction).sqrt();
        let tangent = n.perp();
        // Target normal velocity per point: −e × the closing speed it had, or 0 below threshold.
        let mut targets = [0.0; 2];
        let mut normal_acc = [0.0; 2];
        let mut tangent_acc = [0.0; 2];
        let count = points.len().min(2);
        for k in 0..count {
            let p = points[k];
            let vn = (self.point_velocity(b, cb, p) - self.point_velocity(a, ca, p)).dot(n);
            if -vn >= self.config.restitution_threshold {
                targets[k] = -restitution * vn;
            }
            targets[k] = targets[k].max(separate);
        }
        for _ in 0..IMPACT_ITERATIONS {
            for k in 0..count {
                let p = points[k];
                let (ra, rb) = (p - ca, p - cb);
                let kn = ma + mb + ia * ra.perp_dot(n).powi(2) + ib * rb.perp_dot(n).powi(2);
                if kn <= 0.0 {
                    continue;
                }
                let vn = (self.point_velocity(b, cb, p) - self.point_velocity(a, ca, p)).dot(n);
                let new = (normal_acc[k] + (targets[k] - vn) / kn).max(0.0);
                let dj = new - normal_acc[k];
                normal_acc[k] = new;
                self.push_impulse(a, b, ra, rb, dj * n);
                let kt =
                    ma + mb + ia * ra.perp_dot(tangent).powi(2) + ib * rb.perp_dot(tangent).powi(2);
                if kt > 0.0 {
                    let vt = (self.point_velocity(b, cb, p) - self.point_velocity(a, ca, p))
                        .dot(tangent);
                    let max = friction * normal_acc[k];
                    let new_t = (tangent_acc[k] - vt / kt).clamp(-max, max);
                    let djt = new_t - tangent_acc[k];
                    tangent_acc[k] = new_t;
                    self.push_impulse(a, b, ra, rb, djt * tangent);
                }
            }
        }
        normal_acc.iter().sum()
    }

    /// Kinetic energy of two bodies (J).
    fn pair_energy(&self, a: u32, b: u32) -> Real {
        [a, b]
            .iter()
            .map(|&i| {
                self.slots[i as usize]
                    .body
                    .as_ref()
                    .expect("live")
                    .kinetic_energy()
            })
            .sum()
    }

    fn save_velocities(&self, a: u32, b: u32) -> [(Vec2, Real); 2] {
        [a, b].map(|i| {
            let body = self.slots[i as usize].body.as_ref().expect("live");
            (body.linear_velocity, body.angular_velocity)
        })
    }

    fn restore_velocities(&mut self, a: u32, b: u32, saved: [(Vec2, Real); 2]) {
        for (i, (v, w)) in [a, b].into_iter().zip(saved) {
            let body = self.slots[i as usize].body.as_mut().expect("live");
            body.linear_velocity = v;
            body.angular_velocity = w;
        }
    }

    fn push_impulse(&mut self, a: u32, b: u32, ra: Vec2, rb: Vec2, j: Vec2) {
        if let Some(body) = self.slots[a as usize]
            .body
            .as_mut()
            .filter(|b| b.is_dynamic())
        {
            body.linear_velocity -= body.inv_mass * j;
            body.angular_velocity -= body.inv_inertia * ra.perp_dot(j);
        }
        if let Some(body) = self.slots[b as usize]
            .body
            .as_mut()
            .filter(|b| b.is_dynamic())
        {
            body.linear_velocity += body.inv_mass * j;
            body.angular_velocity += body.inv_inertia * rb.perp_dot(j);
        }
    }
}
