//! Resolving an impact at its time: an impulse over the manifold points (restitution above the
//! threshold, Coulomb friction, inelastic where Newton's restitution would add energy), new
//! segments for the rest of the step, re-sweeps. Past the impact budget the bodies are held.

use super::group::{GroupContact, GroupPoint};
use super::schedule::{bounces, MAX_BOUNCES_PER_PAIR};
use super::{ContinuousPass, PendingImpact, PendingKind, DEEP_IMPACT_DEPTH, DEEP_IMPACT_TOLERANCE};
use crate::dynamics::body::bodies_relative_velocity;
use crate::math::{Real, Transform, Vec2};
use crate::query::{Toi, ToiStatus, MAX_MANIFOLD_POINTS};
use crate::world::contact_set::pair_key;
use crate::world::events::Impact;
use crate::world::hooks::PreSolve;

/// Impacts a pair of dynamic bodies may have in a row at one place (`impacts_in_row`: less than
/// the slop travelled between them) before the two move on together for the rest of the step
/// (see `join`). A body spinning or sliding fast along another closes on it again after every
/// impulse, as its turn brings the next point in (measured: 165 impacts in one step for a 1 m
/// bar spinning at 82 rad/s into another); the solver takes the contact over at the next step.
/// A pair that travels between its impacts (a light block shuttling between a ball and a wall,
/// dozens of times a step) bounces every time.
const MAX_IMPACTS_BEFORE_JOINING: u32 = 8;

/// Impacts of one instant up to which `restart` looks its pairs up one by one.
const FEW_PAIRS: usize = 8;

/// Relative kinetic-energy gain an impact may show from round-off alone: an elastic bounce
/// computed in floating point can end 1e-16 relative above where it began, which is not Kane's
/// paradox and must not turn the bounce inelastic (an elastic ball stopped dead at 110 m/s).
const ENERGY_ROUNDING: Real = 1e-9;

/// Which of the contact's material an impact's impulse applies (see `impulse_for`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Material {
    /// Restitution and friction.
    Full,
    /// Restitution without friction: never adds energy at one point.
    Frictionless,
    /// Friction without restitution: the pair stops closing.
    Inelastic,
}

/// What is left to do for an impact once its impulse is applied (see `ContinuousPass::strike`).
pub(super) enum Struck {
    /// Nothing: the pair did not need an impulse (or the hooks disabled it).
    Nothing,
    /// Settle the bodies around the impact, then new segments and re-sweeps.
    Settle,
    /// New segments for the two bodies only: held past the budget, or joined.
    Restart { over_budget: bool },
}

/// A body's key with its linear (m/s) and angular (rad/s) velocity, as saved before a trial solve.
pub(super) type SavedVelocity = (u32, Vec2, Real);

/// Where and how two bodies meet: keys, centres of mass at the impact, normal (A toward B) and
/// manifold points (world).
struct Hit<'p> {
    a: u32,
    b: u32,
    /// The pieces of A and B that met (see `Toi::piece_a`).
    piece_a: usize,
    piece_b: usize,
    /// Friction and restitution of the contact (the pieces' shapes' mixed, or the hooks').
    friction: Real,
    restitution: Real,
    ca: Vec2,
    cb: Vec2,
    normal: Vec2,
    points: &'p [Vec2],
}

impl ContinuousPass<'_> {
    /// Friction and restitution of bodies `a` and `b` meeting as `toi` says: its pieces' shapes'
    /// mixed, or what the hooks say (asked once per pair of shapes and step); `None` when the
    /// hooks disabled the contact.
    fn impact_material(&mut self, a: u32, b: u32, toi: &Toi) -> Option<(Real, Real)> {
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let (friction, restitution) = self.config.piece_material(ba, toi.piece_a, bb, toi.piece_b);
        let Some((hooks, verdicts)) = self.hooks.as_mut() else {
            return Some((friction, restitution));
        };
        let frame =
            |b: &crate::Body| b.previous_pose * Transform::from_translation(-b.local_center);
        let mut offer = PreSolve {
            shape_a: self.bodies.shape_id(a, toi.piece_a),
            shape_b: self.bodies.shape_id(b, toi.piece_b),
            normal: toi.normal,
            point: toi.point,
            separation: toi.separation,
            transform_a: frame(ba),
            transform_b: frame(bb),
            velocity_a: ba.linear_velocity,
            velocity_b: bb.linear_velocity,
            friction,
            restitution,
            impact: true,
        };
        // The same orientation as the pair's contact (lower key first), so a pair of shapes is
        // asked once per step whoever found it.
        if a > b {
            std::mem::swap(&mut offer.shape_a, &mut offer.shape_b);
            std::mem::swap(&mut offer.transform_a, &mut offer.transform_b);
            std::mem::swap(&mut offer.velocity_a, &mut offer.velocity_b);
            offer.normal = -offer.normal;
        }
        verdicts.ask(&mut **hooks, offer)
    }

    /// Wakes body `k` if it is a sleeping dynamic body, and lists it in the step's `woke`
    /// events.
    pub(super) fn wake_body(&mut self, k: u32) {
        let body = self.bodies.at_mut(k);
        if body.is_dynamic() && !body.awake && body.disabled.is_none() {
            body.wake();
            let id = self.bodies.id(k);
            self.events.woke.push(id);
        }
    }

    /// Applies one pending impact's impulse at the contact (or holds the pair past the budget)
    /// and says what is left to do: settle the bodies around it, or only give the two new
    /// segments (held, or joined), or nothing (the pair did not need an impulse).
    pub(super) fn strike(&mut self, pending: &PendingImpact) -> Struck {
        let (a, b, t) = (pending.a, pending.b, pending.t);
        // A sleeping body met by a moving one wakes before the impact (its island follows at the
        // end of the step): it takes the blow instead of standing still like a wall.
        for i in [a, b] {
            self.wake_body(i);
        }
        let Some(hit) = self.meeting(a, b, t, &pending.toi) else {
            return Struck::Nothing;
        };
        let (n, p) = (hit.normal, pending.toi.point);
        let over_budget =
            self.impacts >= self.config.max_impacts_per_step || self.work.get() > self.work_budget;
        // Decide on the motion the bodies actually have this step (a held body stands still), at
        // the fastest-closing point of the manifold: a bar turning along another closes at its
        // swinging end, not at the point the time of impact reports.
        let closing_at = |q: Vec2| {
            -(self.segment_velocity(b, hit.cb, q) - self.segment_velocity(a, hit.ca, q)).dot(n)
        };
        let closing = hit
            .points
            .iter()
            .map(|&q| closing_at(q))
            .fold(closing_at(p), Real::max);
        let allowed = match pending.kind {
            // The depth the final check steps in at, not the slop: a pair closing to between
            // the two by the end of the step was let through here and then held by the check
            // (a 59 m/s bullet meeting a wall at 0.995 of the step lost its whole step).
            PendingKind::Contact => super::VERIFY_DEPTH,
            PendingKind::Deep => DEEP_IMPACT_TOLERANCE,
            PendingKind::Verified => -1.0, // the final check saw it overlap: always resolve
        };
        // A bounce (restitution, closing past the threshold) is resolved at its time however
        // little it would overlap by the end of the step: left to the next step it would bounce
        // from where the pair had sunk in, late, and off the exact path.
        let in_row = self.impacts_in_row(a, b, t, closing);
        if !bounces(self.config, hit.restitution, closing, in_row)
            && closing * (1.0 - t) * self.config.dt <= allowed
        {
            // Met while separating, sliding, or too slowly to overlap past that depth by the end of
            // the step: no impulse. A time from an exhausted budget is only a safe time, not a
            // contact: carry on from there (bounded by the work bound, not the impact budget). A
            // pair that did meet is swept on from here as a touching pair, which watches it for
            // pressing deeper (a bar turning along another presses in at its swinging end).
            let exhausted = pending.toi.status == ToiStatus::BudgetExhausted;
            if (exhausted || pending.kind == PendingKind::Contact)
                && !over_budget
                && !self.past_backstop()
            {
                self.schedule(a, b, t);
            }
            return Struck::Nothing;
        }
        let vn = self.normal_velocity(&hit, p);
        let both_dynamic = self.movable(a) && self.movable(b);
        let impulse = if over_budget {
            // Past the budget the pair meets inelastically (an impulse between the two: momentum
            // kept) and both stop at the safe time for the rest of the step, keeping their new
            // velocities for the next one, and are not re-swept: the step loses time, never
            // momentum (a 512 kg block at 40 m/s into a wall of 9,600 boxes spent the budget in
            // its first step of contact and, stopped dead, came to rest at the wall).
            self.apply_impact(&hit, Material::Inelastic, 0.0)
        } else if both_dynamic && self.impacts_in_row(a, b, t, vn) >= MAX_IMPACTS_BEFORE_JOINING {
            self.impacts += 1;
            self.join(&hit)
        } else {
            self.impulse_for(pending, &hit, vn)
        };
        self.report_impact(&hit, t, p, vn, impulse);
        // A joined pair moves on as it is (settling it with its neighbours would give the two
        // different motions again); anything it drives into is swept and met as a new impact.
        if over_budget || self.buf.joined.contains(&pair_key(a, b)) {
            Struck::Restart { over_budget }
        } else {
            Struck::Settle
        }
    }

    /// Where bodies `a` and `b` meet at step fraction `t`, as `toi` says: their centres of mass on
    /// their segments then, its normal and manifold points, with the contact's friction and
    /// restitution. `None` when the hooks disabled the contact: the pair then passes through
    /// each other for the rest of the step.
    fn meeting<'p>(&mut self, a: u32, b: u32, t: Real, toi: &'p Toi) -> Option<Hit<'p>> {
        let Some((friction, restitution)) = self.impact_material(a, b, toi) else {
            self.buf.disabled.insert(pair_key(a, b));
            return None;
        };
        let (sa, sb) = (self.buf.segments[a as usize], self.buf.segments[b as usize]);
        Some(Hit {
            a,
            b,
            piece_a: toi.piece_a,
            piece_b: toi.piece_b,
            friction,
            restitution,
            ca: sa.pose_at(t).translation,
            cb: sb.pose_at(t).translation,
            normal: toi.normal,
            points: toi.contact.points(),
        })
    }

    /// The velocity of B relative to A along the hit's normal at world point `p` (m/s; negative
    /// when closing).
    fn normal_velocity(&self, hit: &Hit, p: Vec2) -> Real {
        self.relative_velocity_of(hit.a, p - hit.ca, hit.b, p - hit.cb)
            .dot(hit.normal)
    }

    /// Lists an impact of the pass in the step's events: at step fraction `t` and world point
    /// `p`, closing at `-vn` (m/s) before an impulse of `impulse` (N·s).
    fn report_impact(&mut self, hit: &Hit, t: Real, p: Vec2, vn: Real, impulse: Real) {
        let (a, b) = (hit.a, hit.b);
        self.events.impacts.push(Impact {
            body_a: self.bodies.id(a),
            body_b: self.bodies.id(b),
            shape_a: self.bodies.shape_id(a, hit.piece_a),
            shape_b: self.bodies.shape_id(b, hit.piece_b),
            step: self.clock.step,
            fraction: t,
            time: self.clock.time + t * self.config.dt,
            normal: hit.normal,
            point: p,
            relative_speed: (-vn).max(0.0),
            impulse,
        });
    }

    /// The final check's last resort for dynamic body `i`, still found overlapping body `c` past
    /// the slop (see `verify.rs`): the pair meets inelastically where the overlap reaches the
    /// slop (an impulse between the two, so momentum is kept and the pair stops closing), and
    /// `i` is held at the start of its segment for the rest of the step, keeping its new velocity
    /// for the next. Reported as an impact and in [`StepEvents::held`].
    ///
    /// [`StepEvents::held`]: crate::StepEvents::held
    pub(super) fn hold_meeting(&mut self, i: u32, c: u32, t: Real, toi: Toi) {
        // A sleeping partner wakes and takes its share, as in `strike`.
        self.wake_body(c);
        let Some(hit) = self.meeting(i, c, t, &toi) else {
            return; // the hooks disabled the contact: nothing to hold it against
        };
        let vn = self.normal_velocity(&hit, toi.point);
        let impulse = self.apply_impact(&hit, Material::Inelastic, 0.0);
        self.report_impact(&hit, t, toi.point, vn, impulse);
        let t0 = self.buf.segments[i as usize].t0;
        self.stop_at(i, t0);
    }

    /// Gives two dynamic bodies one motion from the impact on: both move at the velocity of
    /// their common centre of mass, without spin (a plastic grab: linear momentum is kept exactly;
    /// the spin that kept the two grinding is dissipated, as straight segments cannot follow two
    /// bodies turning together about a common centre). Returns the impulse magnitude (N·s) that
    /// took B to its new velocity.
    fn join(&mut self, hit: &Hit) -> Real {
        let (a, b) = (hit.a, hit.b);
        self.buf.joined.insert(pair_key(a, b));
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let (ma, mb) = (ba.mass, bb.mass);
        let v = (ma * ba.linear_velocity + mb * bb.linear_velocity) / (ma + mb);
        let impulse = mb * (v - bb.linear_velocity).length();
        for i in [a, b] {
            let body = self.bodies.at_mut(i);
            body.linear_velocity = v;
            body.angular_velocity = 0.0;
        }
        impulse
    }

    /// Counts an impact and applies its impulse; returns the total normal impulse (N·s).
    fn impulse_for(&mut self, pending: &PendingImpact, hit: &Hit, vn: Real) -> Real {
        self.impacts += 1;
        let (a, b) = (hit.a, hit.b);
        // Counted against MAX_IMPACTS_PER_PAIR (see schedule.rs) and
        // MAX_IMPACTS_BEFORE_JOINING.
        *self.buf.pair_impacts.entry(pair_key(a, b)).or_insert(0) += 1;
        // A pair pressing past DEEP_IMPACT_DEPTH leaves separating at the speed that would undo
        // its excess depth over one step (as the solver's soft contact does, and no faster than
        // its push limit): a body spinning or sliding fast along another turns tangential speed
        // into approach as the normal turns, and a pair left at zero normal speed digs in again at
        // once, a little deeper each time.
        let separate = if pending.kind != PendingKind::Contact {
            let excess = (pending.toi.contact.depth - 0.5 * DEEP_IMPACT_DEPTH).max(0.0);
            ((excess + DEEP_IMPACT_TOLERANCE) / self.config.dt)
                .min(self.config.contact_push_velocity)
        } else {
            0.0
        };
        if !(vn < 0.0 || hit.points.len() > 1 || pending.kind == PendingKind::Verified) {
            return 0.0;
        }
        // A pair that already bounced `MAX_BOUNCES_PER_PAIR` times in a row at one place
        // (squeezed between two bodies) is resolved inelastically, as the group settles it.
        if self.record_impact(a, b, pending.t, vn) > MAX_BOUNCES_PER_PAIR {
            return self.apply_impact(hit, Material::Inelastic, separate);
        }
        // Newton's restitution with Coulomb friction can add energy on eccentric hits (Kane's
        // paradox). If it would (past round-off), the impact is resolved without friction: a
        // frictionless Newton impulse at one point changes the energy by `½·j·vn·(1 − e) ≤ 0`, so
        // the restitution is kept and nothing is stopped that the restitution says bounces. Only
        // a manifold whose points' sequential impulses still add energy falls back to inelastic.
        let saved = [a, b].map(|i| self.saved_velocity(i));
        let before = self.pair_energy(hit);
        let gains = |pass: &Self| pass.pair_energy(hit) > before * (1.0 + ENERGY_ROUNDING);
        let impulse = self.apply_impact(hit, Material::Full, separate);
        if !gains(self) {
            return impulse;
        }
        self.restore_velocities(&saved);
        let impulse = self.apply_impact(hit, Material::Frictionless, separate);
        if !gains(self) {
            return impulse;
        }
        self.restore_velocities(&saved);
        self.apply_impact(hit, Material::Inelastic, separate)
    }

    /// New segments from `t` for the dynamic bodies the impacts `pairs` of one instant moved (or
    /// holds past the budget), and re-sweeps against everything their new swept boxes reach.
    pub(super) fn restart(
        &mut self,
        members: &[u32],
        pairs: &[(u32, u32)],
        t: Real,
        over_budget: bool,
    ) {
        // A new motion ends the joins of the bodies that get one (their partners no longer move
        // with them), except a pair just joined.
        // (A set's `retain` visits all its slots: skipped while nothing is joined, as in most
        // steps.)
        if !self.buf.joined.is_empty() {
            let just_joined = |key: &(u32, u32)| pairs.iter().any(|&(a, b)| pair_key(a, b) == *key);
            self.buf.joined.retain(|key| {
                just_joined(key) || !(members.contains(&key.0) || members.contains(&key.1))
            });
        }
        for &i in members {
            if !self.movable(i) {
                continue;
            }
            if over_budget {
                self.stop_at(i, t);
                self.enlarge_proxy(i, t);
                continue;
            }
            let body = self.bodies.at(i);
            let (lin, ang) = (
                body.linear_velocity * self.config.dt,
                body.angular_velocity * self.config.dt,
            );
            self.replace_segment(i, t, lin, ang);
            self.enlarge_proxy(i, t);
        }
        // The impacts' pairs and first bodies, sorted for lookup when there are many.
        let (mut firsts, mut keys) = (Vec::new(), Vec::new());
        if pairs.len() > FEW_PAIRS {
            firsts.extend(pairs.iter().map(|p| p.0));
            keys.extend(pairs.iter().map(|&(a, b)| pair_key(a, b)));
            firsts.sort_unstable();
            keys.sort_unstable();
        }
        for &i in members {
            if !self.movable(i) {
                continue;
            }
            // The trust rule is geometric (it bounds the new motion against the bodies' extents,
            // whoever set it), so it also decides here which pairs the new motion needs a time of
            // impact for; but a bounce the impulse passes on to a neighbour (Newton's cradle) is
            // resolved here, in order, as the solver has finished its step.
            // Each impact's pair itself is always swept again: its impulse only stopped the closing
            // at the contact point, and a pair sliding or turning along each other closes again. So
            // is every member of the group against each impact's first body (the one whose sweep
            // found it, often the driver of the cascade), trusted or not: without that the
            // washer and junkyard made 13-15% fewer impacts, but over the 20 nearby starts of the
            // spinning-blade scene bodies ended steps deeper inside the blade (median 0.30 m
            // against 0.25, deepest 0.47 against 0.39) and one was held
            // (`docs/history/benchmarks.md`, "Thirteenth round").
            let forced = |c: u32| {
                if pairs.len() <= FEW_PAIRS {
                    pairs
                        .iter()
                        .any(|&(a, b)| c == a || pair_key(a, b) == pair_key(i, c))
                } else {
                    firsts.binary_search(&c).is_ok() || keys.binary_search(&pair_key(i, c)).is_ok()
                }
            };
            let list = self.candidates(i, t);
            for &c in &list {
                if forced(c) || !self.solver_owns(i, c) || self.passes_bounce_on(i, c) {
                    self.schedule(i, c, t);
                }
            }
            self.give_back(list);
        }
    }

    /// Whether body `i`, given an impulse, now closes on its neighbour `c` faster than the
    /// restitution threshold at one of their contact's points, with restitution to apply, and
    /// the two meet in isolation (`isolated`: in a pile the group solve shares the blow).
    fn passes_bounce_on(&self, i: u32, c: u32) -> bool {
        if !self.isolated(i, c) {
            return false;
        }
        if !self
            .buf
            .neighbours
            .summary_between(i, c, self.contacts)
            .is_some_and(|s| s.bouncy && s.has_points)
        {
            return false;
        }
        let Some(contact) = self
            .buf
            .neighbours
            .contact_between(i, c, self.contacts)
            .map(|k| &self.contacts.as_slice()[k])
        else {
            return false;
        };
        let (ba, bb) = (self.bodies.at(contact.a), self.bodies.at(contact.b));
        contact.manifolds.iter().any(|m| {
            m.points[..m.count].iter().any(|p| {
                let v = bodies_relative_velocity(ba, p.anchor_a, bb, p.anchor_b);
                -v.dot(m.normal) > self.config.restitution_threshold
            })
        })
    }

    /// Applies the impact impulse over every manifold point: a one-contact group solve (see
    /// `group.rs`; iterated, so a two-point contact such as a bar landing flat is resolved at both
    /// ends) whose targets are the restitution bounce above the threshold (with the contact's
    /// friction and restitution as `material` says), and at least `separate` (m/s). Returns the
    /// total normal impulse (N·s).
    fn apply_impact(&mut self, hit: &Hit, material: Material, separate: Real) -> Real {
        let (a, b) = (hit.a, hit.b);
        let friction = if material == Material::Frictionless {
            0.0
        } else {
            hit.friction
        };
        let restitution = if material == Material::Inelastic {
            0.0
        } else {
            hit.restitution
        };
        let mut contact = GroupContact {
            a,
            b,
            normal: hit.normal,
            friction,
            points: [GroupPoint::default(); MAX_MANIFOLD_POINTS],
            count: 0,
        };
        // Target normal velocity per point: −e × the closing speed it had, or 0 below threshold.
        for &p in hit.points.iter().take(MAX_MANIFOLD_POINTS) {
            let (ra, rb) = (p - hit.ca, p - hit.cb);
            let vn = self.relative_velocity_of(a, ra, b, rb).dot(hit.normal);
            let bounce = if -vn >= self.config.restitution_threshold {
                -restitution * vn
            } else {
                0.0
            };
            contact.points[contact.count] = GroupPoint {
                ra,
                rb,
                target: bounce.max(separate),
                ..GroupPoint::default()
            };
            contact.count += 1;
        }
        self.solve_group(std::slice::from_mut(&mut contact), &mut []);
        contact.points[..contact.count]
            .iter()
            .map(|p| p.normal_impulse)
            .sum()
    }

    /// Kinetic energy (J) of an impact's pair in the frame that an impulse between them cannot
    /// feed: of both bodies when both move under the impulse (the energy in their centre of
    /// mass's frame differs by a constant), else of the movable one relative to the motion of
    /// the other (its velocity less the velocity field of the static or kinematic body, its spin
    /// less that one's). In either frame an impulse `J` changes the energy by
    /// `½·J·(v_rel before + v_rel after)` at the contact, so a frictionless bounce with
    /// restitution at most 1 never adds to it, while a kinematic wall moving into a ball does
    /// add to the plain kinetic energy, as it should.
    fn pair_energy(&self, hit: &Hit) -> Real {
        let (a, b) = (hit.a, hit.b);
        let relative = |d: u32, cd: Vec2, f: u32, cf: Vec2| {
            let (d, f) = (self.bodies.at(d), self.bodies.at(f));
            let u = d.linear_velocity - (f.linear_velocity + f.angular_velocity * (cd - cf).perp());
            let spin = d.angular_velocity - f.angular_velocity;
            0.5 * (d.mass * u.length_squared() + d.inertia * spin * spin)
        };
        match (self.movable(a), self.movable(b)) {
            (true, true) => self.bodies.at(a).kinetic_energy() + self.bodies.at(b).kinetic_energy(),
            (true, false) => relative(a, hit.ca, b, hit.cb),
            (false, true) => relative(b, hit.cb, a, hit.ca),
            (false, false) => 0.0,
        }
    }

    /// Body `i`'s key and velocities (m/s, rad/s), to put back with `restore_velocities`.
    pub(super) fn saved_velocity(&self, i: u32) -> SavedVelocity {
        let body = self.bodies.at(i);
        (i, body.linear_velocity, body.angular_velocity)
    }

    /// Puts the saved velocities back.
    pub(super) fn restore_velocities(&mut self, saved: &[SavedVelocity]) {
        for &(i, v, w) in saved {
            let body = self.bodies.at_mut(i);
            body.linear_velocity = v;
            body.angular_velocity = w;
        }
    }

    /// Applies impulse `j` (N·s, world) at offsets `ra`, `rb`: −j to A, +j to B (dynamic only).
    pub(super) fn push_impulse(&mut self, a: u32, b: u32, ra: Vec2, rb: Vec2, j: Vec2) {
        if self.movable(a) {
            let body = self.bodies.at_mut(a);
            let (dv, dw) = body.inverse_mass().response(ra, j);
            body.linear_velocity -= dv;
            body.angular_velocity -= dw;
        }
        if self.movable(b) {
            let body = self.bodies.at_mut(b);
            let (dv, dw) = body.inverse_mass().response(rb, j);
            body.linear_velocity += dv;
            body.angular_velocity += dw;
        }
    }
}
