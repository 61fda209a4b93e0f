//! Scheduling: which pairs get a time of impact, and queueing it.
//!
//! A fast body is swept against every body its swept box reaches in the broad phase (static,
//! kinematic and dynamic alike). A pair is left to the solver when the solver can be trusted with
//! it (`solver_owns`, the rule of `docs/continuous.md`): it cannot meet this step, or its motion is
//! small against both bodies' extents, so neither centre of mass can reach the other body whatever
//! the solver does. Every other pair gets a time of impact. A pair touching at the start of its
//! segment gets an impact now only if, left to the solver, it would overlap past the slop by the
//! end of the step; otherwise it is watched for pressing past `DEEP_IMPACT_DEPTH`.

use super::axis::{depth, gap_floor, Drift};
use super::{
    CachedBox, ContinuousPass, PendingImpact, PendingKind, Segment, DEEP_IMPACT_DEPTH,
    DEEP_IMPACT_TOLERANCE, QUEUE_FLOOR, VERIFY_DEPTH,
};
use crate::broadphase::BroadPhase;
use crate::constants::LINEAR_SLOP;
use crate::dynamics::body::{Body, PairFilter};
use crate::dynamics::contact::is_ghost;
use crate::dynamics::BodyKind;
use crate::math::{Aabb, Real, Vec2};
use crate::query::{
    contact as contact_query, contains_point, for_each_piece_pair, time_of_impact_filtered,
    PieceRules, Toi, ToiOptions, ToiStatus,
};
use crate::query::{turn_bulge, Motion};
use crate::shape::Shape;
use crate::world::contact_set::pair_key;
use crate::world::proxy_type;
use crate::world::WorldConfig;
use std::cmp::Reverse;

/// Impacts a pair with a static or kinematic body may have in one step. A dynamic body squeezed
/// between two immovable ones (a box between a kinematic blade and the floor) meets them again and
/// again at the same time, which pairwise impulses cannot settle (measured: 2.8 million impacts in
/// 300 steps of the spinning-blade scene, 3.9 s). Past this count, against a static body the
/// dynamic body is *pinned*: held still where it is and immovable to the pass's impulses for the
/// rest of the step (a body driving it into a wall meets it as it would the wall); leaving the pair
/// to the solver let a circle driven by a fast body end inside a 0.5 m wall (`tests/soak.rs`).
/// Against a kinematic body the kinematic body *yields* instead, as in a jam (`squeeze.rs`): it
/// passes the dynamic body, which keeps its motion (pinning it there stopped it dead as well, 13
/// held bodies over 20 nearby starts of the spinning-blade scene). Pairs of two dynamic bodies are
/// not capped: a fast pair sliding along each other needs many small impacts (capping them at 64
/// held bodies in 5.0% of random collisions instead of 3.0%).
pub(super) const MAX_IMPACTS_PER_PAIR: u32 = 128;

/// Bounces a pair may have in a row at one place (see `ContinuousPass::impacts_in_row`) before
/// the group settles it inelastically: a body pressed between two others (a crate between a
/// bullet and a wall) otherwise bounces between them again and again at the same moment. A pair
/// that travels on between its bounces (a ball between two walls) bounces as often as it meets.
pub(super) const MAX_BOUNCES_PER_PAIR: u32 = 2;

/// Fraction of a body's extent (the distance from its centre of mass to its boundary) that the
/// other body may move into it in a step the solver owns: with half, neither centre of mass can
/// reach the other body, and what overlap the solver leaves is shallow enough for its push-out to
/// take the right way. Along an axis (`axis_gaps_hold`), the fraction of what is left between a
/// pair's start and the thinner piece's depth that the pair may sink by in a step.
const TRUSTED_FRACTION: Real = 0.5;

/// Contacts both bodies of a deeply overlapping pair must have at the start of the pass for the
/// pair to count as part of a heap (see `in_heap`). Bodies that do not overlap have a handful of
/// neighbours each (a box in a pile of equal boxes: 8 at most, a dozen counting the broad phase's
/// margins); only a body among much smaller ones has more, and then its small neighbours do not.
const HEAP_DEGREE: u32 = 32;

impl ContinuousPass<'_> {
    /// Whether the solver can be trusted with this pair over the rest of the step (the rule of
    /// `docs/continuous.md`), so it needs no time of impact:
    ///
    /// * its contact had no manifold point within its margin `M` at the start (the pair was
    ///   farther apart than `M`) and the pair cannot close that far (`cannot_meet`, which also
    ///   counts how far replaced segments took either body from the solver's motion);
    /// * or it had points, is not a propagating bounce, and on their segments neither body's
    ///   centre of mass moves, in the other body's frame, more than `TRUSTED_FRACTION` of its own
    ///   extent minus the overlap they start with (`centres_stay_out`);
    /// * or, either way, the pair's gap along an axis fixed in one body provably stays above its
    ///   floor (`axis_gaps_hold`): the pair cannot touch if the solver had no point for it, and no
    ///   piece's deep point can reach the other body if it had.
    ///
    /// Pairs without a contact (their proxies were apart at the start) are the solver's only if
    /// their boxes stay apart (`boxes_stay_apart`) or they cannot touch along an axis, or as a
    /// heap's pair. A body a kinematic body presses on is trusted against static and kinematic
    /// bodies only while their gap provably stays within the slop. The contact's manifold
    /// describes the start of the step; once an impact has given either body a new segment, the
    /// overlap is measured at the segment's start instead.
    pub(super) fn solver_owns(&self, a: u32, b: u32) -> bool {
        self.solver_owns_at(a, b, self.buf.neighbours.entry_between(a, b, self.contacts))
    }

    /// [`solver_owns`](Self::solver_owns) with the entry of the pair's contact in the pass's
    /// neighbour index (`Neighbours`) already known (`None`: the pair has no contact).
    pub(super) fn solver_owns_at(&self, a: u32, b: u32, entry: Option<usize>) -> bool {
        let summary = entry.map(|slot| self.buf.neighbours.summary_at(slot, self.contacts));
        // (`is_pressed` first: it reads the pass's own flags, and almost never holds, so the
        // bodies are rarely read from memory here.)
        let fixed = |i: u32| self.bodies.at(i).kind != BodyKind::Dynamic;
        if (self.is_pressed(b) && fixed(a)) || (self.is_pressed(a) && fixed(b)) {
            // Pressed by a kinematic body (see `ContinuousPass::pressed`), against the static
            // world or the kinematic body itself: the solver cannot always stop a body squeezed
            // between immovable ones, so it is trusted only while the pair's gap provably stays
            // within the slop; deeper presses are the time of impact's, which resolves a squeeze
            // before it goes deep (`squeeze.rs`). A bounce stays the pass's.
            let swept = summary.is_some_and(|c| c.always_swept);
            return !swept && self.axis_gaps_hold(a, b, entry, true);
        }
        let Some(contact) = summary else {
            // Two bodies of a heap inside each other (their cores overlap) whose contact the pair
            // update left out (`HEAP_CONTACT_CAP`): inside already, as the heap rule below says.
            // Others (their proxies were apart) only if their boxes stay apart.
            return (self.in_heap(a, b) && self.cores_overlap_now(a, b))
                || self.boxes_stay_apart(a, b)
                || self.axis_gaps_hold(a, b, None, false);
        };
        if contact.always_swept {
            // (Pairs of bodies whose shapes are filtered piece by piece are always swept: the
            // shortcuts below measure whole bodies.)
            return false;
        }
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        let from_start = !(sa.changed || sb.changed);
        if !contact.has_points {
            return self.cannot_meet(a, b, contact.margin)
                || self.axis_gaps_hold(a, b, entry, false);
        }
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let overlap = if from_start {
            // A recycled manifold tracks its points exactly; what it does not track may have
            // closed in by as much as the pair moved since it was computed.
            (-contact.min_separation).max(0.0) + contact.recycled_motion
        } else {
            let t = sa.t0.max(sb.t0);
            contact_query(&ba.com_shape, &sa.pose_at(t), &bb.com_shape, &sb.pose_at(t))
                .map_or(0.0, |k| k.depth)
        };
        // Bodies inside each other, one's anchor within the other (a heap created at one point),
        // have nothing left to tunnel through while they move slowly against each other: the
        // solver pushes them apart. Sweeping them would cost a time of impact per pair of the
        // heap and resolve nothing. A body driven through another at speed (squeezed into a wall
        // by a fast one) is not that case: no point of either may move by more than half the
        // thinner extent relative to the other. In a heap (`in_heap`) the speed is the solver's
        // own push-out and the pair is trusted whatever it is.
        let thinner = ba.extent.min(bb.extent);
        if overlap > TRUSTED_FRACTION * thinner {
            if self.in_heap(a, b) {
                return true;
            }
            if self.approach_bound(a, b) <= TRUSTED_FRACTION * thinner {
                let t = sa.t0.max(sb.t0);
                let (xa, xb) = (sa.pose_at(t), sb.pose_at(t));
                let inside = contains_point(&bb.com_shape, &xb, xa.transform_point(ba.anchor))
                    || contains_point(&ba.com_shape, &xa, xb.transform_point(bb.anchor));
                if inside {
                    return true;
                }
            }
        }
        self.centres_stay_out(a, b, overlap) || self.axis_gaps_hold(a, b, entry, false)
    }

    /// Whether every pair of the bodies' convex pieces that can meet over the rest of the step
    /// keeps its gap, projected on an axis fixed in one of the bodies, above a floor (`axis.rs`):
    /// 0 for pieces the solver had no manifold point for (they cannot touch), and for pieces it
    /// had points for, `TRUSTED_FRACTION` of the way from where they start (their overlap, 0 if
    /// apart) to the thinner piece's depth, closing by at least the slop and never past that
    /// depth. Then neither piece's deep point reaches the other piece (each lies at least its
    /// depth inside its piece, and the other piece's material stays short of it along the
    /// axis), so no piece passes through another, however many steps a pile stays pressed. A
    /// body a kinematic body presses (`pressed`, against an immovable body) is held to the slop
    /// instead.
    /// `entry` is the pair's contact in the pass's neighbour index, if it has one. Only motion
    /// along the axis counts: a box carried round by a turning drum, or sliding along a wall, is
    /// the solver's however fast.
    fn axis_gaps_hold(&self, a: u32, b: u32, entry: Option<usize>, pressed: bool) -> bool {
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        let t = sa.t0.max(sb.t0);
        let rest = 1.0 - t;
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let (xa, xb) = (sa.pose_at(t), sb.pose_at(t));
        let drift = |x: &crate::math::Transform, s: &Segment, body: &Body| {
            Drift::new(x.translation, s.lin * rest, s.ang * rest, body.core_reach)
        };
        let (da, db) = (drift(&xa, sa, ba), drift(&xb, sb, bb));
        let contact =
            entry.map(|slot| &self.contacts.as_slice()[self.buf.neighbours.contact_at(slot)]);
        let has_points = |ia: usize, ib: usize| {
            contact.is_some_and(|c| {
                let (pa, pb) = if c.a == a { (ia, ib) } else { (ib, ia) };
                c.manifolds.iter().any(|m| {
                    usize::from(m.piece_a) == pa && usize::from(m.piece_b) == pb && m.count > 0
                })
            })
        };
        let approach = self.approach_bound(a, b);
        // The fastest the pair can close at any instant of the rest of the step (m/s): no point
        // of either closes faster than the approach bound per unit time.
        let fastest_closing = if rest > 0.0 {
            approach / (rest * self.config.dt)
        } else {
            Real::INFINITY
        };
        let mut holds = true;
        for_each_piece_pair(
            &ba.com_shape,
            &xa,
            &bb.com_shape,
            &xb,
            approach,
            &mut |pa, xpa, pb, xpb, ia, ib| {
                if !holds {
                    return;
                }
                let Some((gap, change)) = gap_floor(pa, xpa, pb, xpb, &da, &db) else {
                    holds = false;
                    return;
                };
                let floor = if !has_points(ia, ib) {
                    // Pieces the solver has no point for may still touch by as little as the
                    // final check lets any pair overlap (`VERIFY_DEPTH`: an impact that would
                    // sink a pair no deeper by the end of the step is not resolved either), unless
                    // they could bounce, whose time the pass keeps exact, or a kinematic body
                    // presses one of them.
                    let restitution = self.config.piece_material(ba, ia, bb, ib).1;
                    if pressed || bounces(self.config, restitution, fastest_closing, 0) {
                        0.0
                    } else {
                        -VERIFY_DEPTH
                    }
                } else if pressed {
                    -LINEAR_SLOP
                } else {
                    // May close by `TRUSTED_FRACTION` of what is left between where the pair
                    // starts (0 if apart) and the thinner piece's depth, at least by the slop,
                    // and never past that depth (or the slop, for pieces thinner than it).
                    let thinner = depth(pa).min(depth(pb));
                    let start = gap.min(0.0);
                    let sink = (TRUSTED_FRACTION * (thinner + start)).max(LINEAR_SLOP);
                    (start - sink).max(-thinner.max(LINEAR_SLOP))
                };
                holds = gap + change > floor;
            },
        );
        holds
    }

    /// Whether both bodies had more than `HEAP_DEGREE` contacts at the start of the pass: no
    /// arrangement of bodies that do not overlap gives two bodies that many neighbours *and* a
    /// deep overlap with each other, so they belong to a heap created overlapping (bodies spawned
    /// at one point). There every body's speed comes from the solver pushing hundreds of overlaps
    /// apart at once, sweeping each pair of the heap would cost a time of impact per pair (and
    /// resolve nothing: the pair is inside already), and the heap is left to the solver to push
    /// apart (see `docs/continuous.md`, "Heaps").
    fn in_heap(&self, a: u32, b: u32) -> bool {
        let degree = |k: u32| self.buf.neighbours.degree(k, self.contacts);
        degree(a) > HEAP_DEGREE && degree(b) > HEAP_DEGREE
    }

    /// Whether `a` and `b` are two bodies of a heap (`in_heap`) that started the pass more than
    /// `TRUSTED_FRACTION` of the thinner one's extent inside each other: a pair the solver pushes
    /// apart, which the group solve around an impact leaves out (with hundreds of such contacts
    /// per body, gathering them would cost the heap's every pair per impact).
    pub(super) fn heap_pair(&self, a: u32, b: u32) -> bool {
        if !self.in_heap(a, b) {
            return false;
        }
        let Some(contact) = self.buf.neighbours.summary_between(a, b, self.contacts) else {
            return self.cores_overlap_now(a, b);
        };
        let thinner = self.bodies.at(a).extent.min(self.bodies.at(b).extent);
        contact.has_points && -contact.min_separation > TRUSTED_FRACTION * thinner
    }

    /// Whether the pair is never swept again this step: joined (moving on as one) or yielded (a
    /// pinned body letting a kinematic body pass).
    pub(super) fn set_aside(&self, a: u32, b: u32) -> bool {
        let key = pair_key(a, b);
        self.buf.joined.contains(&key)
            || self.buf.yielded.contains(&key)
            || self.buf.disabled.contains(&key)
    }

    /// Impacts the pair has had this step.
    pub(super) fn impacts_of(&self, a: u32, b: u32) -> u32 {
        self.buf
            .pair_impacts
            .get(&pair_key(a, b))
            .copied()
            .unwrap_or(0)
    }

    /// How many impacts in a row the pair has had *at one place* before an impact at step
    /// fraction `t` closing at `speed` (m/s): impacts count in a row while the pair covers less
    /// than `LINEAR_SLOP` at that speed between them (a body squeezed between two others bounces
    /// between them again and again at one instant; a bar grinding along another meets it again
    /// and again); a pair that travelled on since its last impact (a ball between two walls, any
    /// number of times a step) starts a new row. Read by `MAX_BOUNCES_PER_PAIR` and
    /// `impact::MAX_IMPACTS_BEFORE_JOINING`.
    pub(super) fn impacts_in_row(&self, a: u32, b: u32, t: Real, speed: Real) -> u32 {
        in_row(self.row_of(a, b), t, speed, self.config.dt)
    }

    /// The pair's last row of impacts: how many, and the step fraction of the last (0 and −∞
    /// when it has had none this step).
    pub(super) fn row_of(&self, a: u32, b: u32) -> (u32, Real) {
        self.buf
            .pair_rows
            .get(&pair_key(a, b))
            .copied()
            .unwrap_or((0, Real::NEG_INFINITY))
    }

    /// Records an impact of the pair at step fraction `t` closing at `speed` (m/s); returns the
    /// impacts in a row at that place, this one included (see `impacts_in_row`).
    pub(super) fn record_impact(&mut self, a: u32, b: u32, t: Real, speed: Real) -> u32 {
        let count = self.impacts_in_row(a, b, t, speed) + 1;
        self.buf.pair_rows.insert(pair_key(a, b), (count, t));
        count
    }

    /// Whether bodies `a` and `b`, farther apart than `margin` at the start of the step, cannot
    /// touch before its end: under the solver's motions their outlines close by at most
    /// `|ΔcA − ΔcB| + |ΔθA|·RA + |ΔθB|·RB` over the step (`R` the core reach, see
    /// `approach_bound`), and since then each body's replaced
    /// segments have put its points at most its `deviation` away from where the solver's motion
    /// would have them, at any time. So their gap stays above `margin` less those three. Failing
    /// that, the gap between their bounding boxes where their segments start (a lower bound of
    /// their distance) against the approach over the rest of the segments.
    fn cannot_meet(&self, a: u32, b: u32, margin: Real) -> bool {
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        let turn = |s: &super::Segment, i: u32| s.solver_ang.abs() * self.bodies.at(i).core_reach;
        let solver = (sa.solver_lin - sb.solver_lin).length() + turn(sa, a) + turn(sb, b);
        solver + sa.deviation + sb.deviation < margin || self.boxes_stay_apart(a, b)
    }

    /// Whether the gap between the bodies' bounding boxes where their segments start (a lower
    /// bound of their distance: a box holds its body) exceeds how much closer they can come over
    /// the rest of the segments (`approach_bound`): then they cannot meet.
    fn boxes_stay_apart(&self, a: u32, b: u32) -> bool {
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        let t = sa.t0.max(sb.t0);
        let (box_a, box_b) = (self.box_at(a, t), self.box_at(b, t));
        let gap = (box_b.min - box_a.max)
            .max(box_a.min - box_b.max)
            .max_element();
        let approach = self.approach_bound(a, b);
        if approach < gap {
            return true;
        }
        // A static or kinematic body of many pieces holds the other body's box in its own
        // without being near it: its pieces' boxes, where its segment stands, bound the gap
        // (`Body::piece_gap_bound`).
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let pieces = ba
            .piece_gap_bound(&sa.pose_at(t), &box_b)
            .or_else(|| bb.piece_gap_bound(&sb.pose_at(t), &box_a));
        pieces.is_some_and(|gap| approach < gap)
    }

    /// Body `i`'s box (world metres) where its segment stands at step fraction `t`, remembered
    /// for the segment's version and `t` (`PassBuffers::boxes_at`).
    fn box_at(&self, i: u32, t: Real) -> Aabb {
        let seg = &self.buf.segments[i as usize];
        let cell = &self.buf.boxes_at[i as usize];
        if let Some(aabb) = cell.get().get(self.buf.pass, seg.version, t) {
            return aabb;
        }
        let aabb = self.bodies.at(i).com_shape.aabb(&seg.pose_at(t));
        cell.set(CachedBox::new(self.buf.pass, seg.version, t, aabb));
        aabb
    }

    /// How much closer the outlines of bodies `a` and `b` can come over the rest of their segments
    /// (metres): `|ΔcA − ΔcB| + |ΔθA|·RA + |ΔθB|·RB` with `R` each body's core reach. The outlines'
    /// distance is their cores' less the roundings, and for core points `pA − pB` is
    /// `(cA − cB) + R(θA)·rA − R(θB)·rB`, where a turn of `θ` moves `R(θ)·r` by at most `|θ|·|r|`.
    /// Relative, so a pair falling side by side at any speed does not approach at all, and a disc
    /// spinning about its centre approaches nothing.
    fn approach_bound(&self, a: u32, b: u32) -> Real {
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        let rest = 1.0 - sa.t0.max(sb.t0);
        let turn = |s: &super::Segment, i: u32| s.ang.abs() * self.bodies.at(i).core_reach;
        ((sa.lin - sb.lin).length() + turn(sa, a) + turn(sb, b)) * rest
    }

    /// Whether, over the rest of the step, each body's anchor (its deepest point, `extent` from its
    /// boundary) moves in the other body's frame by at most `TRUSTED_FRACTION` of that extent less
    /// `overlap`. In B's frame A's anchor moves by at most `|ΔcA − ΔcB| + |ΔθA|·|anchorA| +
    /// |ΔθB|·(reachB + extentA)` while it is within its extent of B (A's turn swings the anchor
    /// round A's centre; B's carries it round B's centre at that distance).
    fn centres_stay_out(&self, a: u32, b: u32, overlap: Real) -> bool {
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let rest = 1.0 - sa.t0.max(sb.t0);
        let shift = ((sa.lin - sb.lin) * rest).length();
        let (turn_a, turn_b) = ((sa.ang * rest).abs(), (sb.ang * rest).abs());
        let a_in_b = shift + turn_a * ba.anchor.length() + turn_b * (bb.reach + ba.extent);
        let b_in_a = shift + turn_b * bb.anchor.length() + turn_a * (ba.reach + bb.extent);
        a_in_b + overlap <= TRUSTED_FRACTION * ba.extent
            && b_in_a + overlap <= TRUSTED_FRACTION * bb.extent
    }

    /// A box around body `i`'s motion from `t` to the end of the step (metres): the boxes at both
    /// ends, grown for the turn (`turn_bulge`).
    /// Remembered for the segment's version and `t` (the pass asks for the same box when it
    /// enlarges a proxy, finds candidates and verifies).
    fn swept_box(&mut self, i: u32, t: Real) -> Aabb {
        let seg = &self.buf.segments[i as usize];
        let cached = &mut self.buf.swept_boxes[i as usize];
        if let Some(aabb) = cached.get(self.buf.pass, seg.version, t) {
            return aabb;
        }
        let body = self.bodies.at_mut(i);
        // The solver's own motion ends where the solver left the body.
        let x1 = if seg.changed {
            seg.pose_at(1.0)
        } else {
            body.pose
        };
        let x0 = seg.pose_at(t);
        let turn = (seg.ang * (1.0 - t)).abs();
        // The start box is usually the last refit's (the same pose); the end box, computed here,
        // is usually this step's refit's.
        let start = body.solid_box_at(&x0);
        let swept = start
            .union(&body.solid_box_at(&x1))
            .grown(turn_bulge(turn, body.core_reach));
        *cached = CachedBox::new(self.buf.pass, seg.version, t, swept);
        swept
    }

    /// Makes the broad-phase proxy of a moving body hold its motion from `t` on (remembering the
    /// box it had at the start of the pass). Returns whether the box had to grow: on a body's
    /// first call in a pass, whether its motion leaves the box it had at the start of the pass.
    pub(super) fn enlarge_proxy(&mut self, i: u32, t: Real) -> bool {
        if self.bodies.at(i).kind == BodyKind::Static {
            return false;
        }
        let swept = self.swept_box(i, t);
        let proxy = self.bodies.proxy(i);
        let fat = self.broad_phase.fat_aabb(proxy);
        let grows = self.broad_phase.enlarge_proxy(proxy, &swept);
        if grows {
            self.buf.neighbours.start_boxes.entry(i).or_insert(fat);
        }
        grows
    }

    /// The proxy box body `i` had at the start of the pass.
    fn start_box(&self, i: u32) -> Aabb {
        match self.buf.neighbours.start_boxes.get(&i) {
            Some(fat) => *fat,
            None => self.broad_phase.fat_aabb(self.bodies.proxy(i)),
        }
    }

    /// Bodies that body `i` can meet on its motion from `t` and can collide with (at least one of
    /// the two dynamic), sorted: a superset of those whose proxies meet its swept box. The list
    /// comes from a pool: hand it back with `give_back` when done.
    ///
    /// While the swept box stays within the proxy box `i` had at the start of the pass, these
    /// are its contacts then plus what the tree queries of other bodies found it with, and no
    /// tree is walked. Why that misses nothing: if `i` can meet `j`, their swept boxes meet.
    /// If `j`'s also stays within its start box, the two start boxes overlapped at the pair
    /// update, so the pair has a contact (the broad phase keeps one for every overlapping pair).
    /// Otherwise `j` left its start box, and its proxy was enlarged and its tree query made when
    /// it got that motion; that query met `i`'s proxy box, which holds the start box and so `i`'s
    /// swept box, and recorded `i` for `j`. A body whose swept box leaves its start box queries
    /// the trees (its proxy was enlarged to hold the motion first) and records itself for every
    /// body it finds.
    pub(super) fn candidates(&mut self, i: u32, t: Real) -> Vec<u32> {
        let query = self.swept_box(i, t);
        let start_box = self.start_box(i);
        // Partners from the start of the step's contacts can collide (the pair update removes
        // contacts whose shapes cannot: filters, sensors); the others are filtered below.
        let mut out = self.buf.lists.pop().unwrap_or_default();
        let mut others = self.buf.lists.pop().unwrap_or_default();
        out.clear();
        others.clear();
        if BroadPhase::holds(&start_box, &query) {
            self.buf.neighbours.ensure_row(i, self.contacts);
            out.extend_from_slice(self.buf.neighbours.contacts_of(i));
            others.extend_from_slice(self.buf.neighbours.found_by(i));
        } else if let Some(found) = self.buf.neighbours.finds_within(i, &query) {
            // Within the box of this body's last tree query: what its queries found, and every
            // body whose query found it since. (A body that can meet `i` now either had its proxy
            // box in the tree then, meeting that larger box, or enlarged it later, and its query
            // met `i`'s proxy, which holds that box.)
            others.extend_from_slice(found);
            others.extend_from_slice(self.buf.neighbours.found_by(i));
        } else {
            // (A static or kinematic body of many pieces is a candidate only where a piece is
            // near at some moment of the step: `Body::reached_by`.)
            let reach = BroadPhase::proxy_reach(&query);
            let (bodies, dt) = (&*self.bodies, self.config.dt);
            self.broad_phase
                .query_partners(&query, proxy_type(bodies.at(i).kind), |c| {
                    if c != i && bodies.at(c).reached_by(&reach, dt) {
                        others.push(c);
                    }
                });
            self.buf.neighbours.record_query(i, query, &others);
        }
        if !others.is_empty() {
            let body = self.bodies.at(i);
            others.retain(|&c| body.pair_filter(self.bodies.at(c)) != PairFilter::Never);
            // (The contacts' partners come sorted and without repeats.)
            out.append(&mut others);
            out.sort_unstable();
            out.dedup();
        }
        self.buf.lists.push(others);
        // Nor are the bodies of a joint that keeps them from colliding swept.
        if let Some(j) = self.joints {
            out.retain(|&c| !j.blocks(i, c));
        }
        self.work.set(self.work.get() + out.len());
        out
    }

    /// Takes back a list [`ContinuousPass::candidates`] gave, to reuse its memory.
    pub(super) fn give_back(&mut self, list: Vec<u32>) {
        self.buf.lists.push(list);
    }

    /// Velocity at world point `p` of body `i`'s *motion in this step* (its segment), which differs
    /// from its velocity once it was held: a held body stands still for the rest of the step.
    pub(super) fn segment_velocity(&self, i: u32, center: Vec2, p: Vec2) -> Vec2 {
        self.buf.segments[i as usize].velocity_at(center, p, self.config.dt)
    }

    /// Computes the time of impact of `a` and `b` from `t` and queues it. A pair already touching
    /// at `t` gets an impact now only if its motion would overlap it past the slop by the end of
    /// the step (a resting contact is the solver's).
    pub(super) fn schedule(&mut self, a: u32, b: u32, t: Real) {
        if self.set_aside(a, b) {
            return; // moving as one for the rest of the step
        }
        let immovable = !(self.movable(a) && self.movable(b));
        if immovable && self.impacts_of(a, b) >= MAX_IMPACTS_PER_PAIR {
            // A sustained contact against an immovable body (see MAX_IMPACTS_PER_PAIR). A
            // kinematic body yields: it passes the dynamic body for the rest of the step, which
            // keeps its motion (and its other contacts). Against a static body the dynamic body
            // is pinned where it is, so that nothing drives it on into the static one.
            let kinematic = |i: u32| self.bodies.at(i).kind == BodyKind::Kinematic;
            if kinematic(a) || kinematic(b) {
                self.buf.yielded.insert(pair_key(a, b));
                return;
            }
            for i in [a, b] {
                if self.movable(i) {
                    self.pin(i, t);
                }
            }
            return;
        }
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        self.swept.set(self.swept.get() + 1);
        let row = self.row_of(a, b);
        let swept = sweep_pair(ba, sa, bb, sb, t, self.config, (row, self.isolated(a, b)));
        self.take_sweep(a, b, t, swept);
    }

    /// Takes the result of sweeping `a` and `b` from step fraction `t` on their current segments:
    /// queues an impact, or remembers that the pair stays clear (`ContinuousPass::clear`).
    pub(super) fn take_sweep(&mut self, a: u32, b: u32, t: Real, swept: Sweep) {
        match swept {
            Sweep::Impact(at, toi, kind) => self.queue_impact(a, b, at, toi, kind),
            known if known.settles_final_check() => {
                let (lo, hi) = pair_key(a, b);
                let versions = (
                    self.buf.segments[lo as usize].version,
                    self.buf.segments[hi as usize].version,
                );
                self.buf.clear.insert((lo, hi), (versions, t));
            }
            _ => {} // a touch: the final check asks again
        }
    }

    /// Whether a sweep of `a` and `b` on their current segments, from no later than where the
    /// later of the two starts, found that they never touch (`Sweep::Clear`) or never overlap
    /// past the final check's least depth (`Sweep::Shallow`): then the final check has nothing
    /// to ask of them.
    pub(super) fn known_clear(&self, a: u32, b: u32) -> bool {
        let (lo, hi) = pair_key(a, b);
        let (sl, sh) = (
            &self.buf.segments[lo as usize],
            &self.buf.segments[hi as usize],
        );
        self.buf.clear.get(&(lo, hi)).is_some_and(|&(versions, t)| {
            versions == (sl.version, sh.version) && t <= sl.t0.max(sh.t0)
        })
    }

    /// Queues a pending impact of `a` and `b` at step fraction `t`.
    pub(super) fn queue_impact(&mut self, a: u32, b: u32, t: Real, toi: Toi, kind: PendingKind) {
        self.seq += 1;
        self.buf.queue.push(Reverse(PendingImpact {
            t,
            seq: self.seq,
            a,
            b,
            version_a: self.buf.segments[a as usize].version,
            version_b: self.buf.segments[b as usize].version,
            toi,
            kind,
        }));
        if self.buf.queue.len() > self.buf.queue_limit {
            // (Stale entries are skipped when popped: dropping them now changes no result.)
            let segments = &self.buf.segments;
            self.buf.queue.retain(|Reverse(p)| p.is_live(segments));
            self.buf.queue_limit = (2 * self.buf.queue.len()).max(QUEUE_FLOOR);
        }
    }
}

/// The impacts in a row at one place of a pair whose last row is `row` (count, step fraction of
/// the last) before an impact at step fraction `t` closing at `speed` (m/s), in a step of `dt`
/// seconds: the row goes on while the pair covers less than `LINEAR_SLOP` at that speed between
/// the two (see `ContinuousPass::impacts_in_row`).
pub(super) fn in_row(row: (u32, Real), t: Real, speed: Real, dt: Real) -> u32 {
    let (count, last) = row;
    if (t - last) * dt * speed.abs() < LINEAR_SLOP {
        count
    } else {
        0
    }
}

/// Whether an impact closing at `closing` (m/s) with `restitution` bounces: there is restitution
/// to apply, it closes at least as fast as the world's threshold, and the pair has had fewer than
/// `MAX_BOUNCES_PER_PAIR` impacts in a row at that place before it (`in_row`). The one test the
/// sweeps, the impacts and the group solve share.
pub(super) fn bounces(config: &WorldConfig, restitution: Real, closing: Real, in_row: u32) -> bool {
    restitution > 0.0 && closing >= config.restitution_threshold && in_row < MAX_BOUNCES_PER_PAIR
}

/// What sweeping a pair over the rest of its segments found.
pub(super) enum Sweep {
    /// An impact to queue: the step fraction it happens at, the time of impact, its kind.
    Impact(Real, Toi, PendingKind),
    /// The pair never touches over the rest of the step (found without chain ghosts, which a
    /// deeper query might see differently).
    Clear,
    /// Nothing to queue, and the pair never overlaps past the final check's least depth
    /// (`VERIFY_DEPTH`): it touches but neither closes fast nor presses past the deep
    /// target, which lies within that depth (found without chain ghosts).
    Shallow,
    /// Nothing to queue: the pair touches but neither closes fast nor presses past
    /// `DEEP_IMPACT_DEPTH` (the solver's), or it never touches except at chain ghosts.
    Nothing,
}

impl Sweep {
    /// Whether the sweep answered the final check's question for the pair on these segments:
    /// it never touches, or never overlaps past the check's least depth (`known_clear`).
    pub(super) fn settles_final_check(&self) -> bool {
        matches!(self, Sweep::Clear | Sweep::Shallow)
    }
}

/// The impact that [`ContinuousPass::schedule`] queues for bodies `ba`, `bb` on segments `sa`,
/// `sb` from step fraction `t` (a step of `dt` seconds), or why there is none. `bounce` is the
/// pair's last row of impacts at one place (`ContinuousPass::row_of`) and whether the meeting is
/// isolated (`ContinuousPass::isolated`): only an isolated pair touching now bounces now. It
/// reads only its arguments, so the first sweeps of a step can run side by side.
pub(super) fn sweep_pair(
    ba: &Body,
    sa: &Segment,
    bb: &Body,
    sb: &Segment,
    t: Real,
    config: &WorldConfig,
    bounce: ((u32, Real), bool),
) -> Sweep {
    let (row, isolated) = bounce;
    let dt = config.dt;
    let (shape_a, shape_b) = (&ba.com_shape, &bb.com_shape);
    let accept = |i: usize, j: usize| ba.pieces_collide(i, bb, j);
    let (ma, mb) = (sa.motion_from(t), sb.motion_from(t));
    let ghost = |toi: &Toi| chain_ghost(ba, &ma, bb, &mb, toi);
    let rules = PieceRules {
        accept: (ba.pair_filter(bb) == PairFilter::Pieces)
            .then_some(&accept as &dyn Fn(usize, usize) -> bool),
        ghost: (ba.has_chain || bb.has_chain).then_some(&ghost as &dyn Fn(&Toi) -> bool),
        deepen: None,
    };
    let options = ToiOptions::default();
    let Some(toi) = time_of_impact_filtered(shape_a, &ma, shape_b, &mb, &options, rules) else {
        return if rules.ghost.is_none() {
            Sweep::Clear
        } else {
            Sweep::Nothing
        };
    };
    // A hit at the very start of the segment is a pair touching now, like an overlap.
    let touching_now =
        toi.status == ToiStatus::Overlapping || (toi.status == ToiStatus::Hit && toi.t <= 0.0);
    if !touching_now {
        return Sweep::Impact(t + toi.t * (1.0 - t), toi, PendingKind::Contact);
    }
    // Touching now: an impact is needed now only if, left to the solver, the pair would overlap
    // by more than the slop before the step ends ...
    let (ca, cb) = (sa.pose_at(t).translation, sb.pose_at(t).translation);
    // ... or if it bounces (restitution, closing past the threshold, an isolated pair), which is
    // resolved now, at its exact time, however little it would overlap (a ball that ends a step
    // exactly touching a wall bounces at the start of the next, losing no time) ...
    let rel = sb.velocity_at(cb, toi.point, dt) - sa.velocity_at(ca, toi.point, dt);
    let closing = -rel.dot(toi.normal);
    let restitution = config.piece_material(ba, toi.piece_a, bb, toi.piece_b).1;
    let bounce = isolated && bounces(config, restitution, closing, in_row(row, t, closing, dt));
    if bounce || closing * (1.0 - t) * dt > LINEAR_SLOP {
        return Sweep::Impact(t, toi, PendingKind::Contact);
    }
    // ... but touching now hides what comes later in the step (a spinning body pivoting about the
    // contact swings its far end through): ask when the pair would first overlap past half the
    // slop (DEEP_IMPACT_DEPTH). A pair already that deep (left there by an earlier impact this
    // step) is watched for pressing deeper still, each pair of pieces from its own depth: a body
    // deep in one segment of a chain is watched against the next from that one's.
    // (Two convex shapes are one pair of pieces, whose depth the query above measured already.)
    let deeper =
        |_: usize, _: usize, depth: Real| DEEP_IMPACT_DEPTH.max(depth + DEEP_IMPACT_TOLERANCE);
    let one_pair = shape_a.is_convex() && shape_b.is_convex();
    let deep_options = ToiOptions {
        target_separation: -deeper(0, 0, toi.contact.depth),
        ..options
    };
    let deep_rules = PieceRules {
        deepen: (!one_pair).then_some(&deeper as &dyn Fn(usize, usize, Real) -> Real),
        ..rules
    };
    match time_of_impact_filtered(shape_a, &ma, shape_b, &mb, &deep_options, deep_rules) {
        Some(later) if later.status != ToiStatus::Overlapping => {
            Sweep::Impact(t + later.t * (1.0 - t), later, PendingKind::Deep)
        }
        // Never that deep: when the deepest pieces' target is within the final check's least
        // depth (less both queries' tolerance), the final check cannot find the pair past its
        // depth either.
        None if rules.ghost.is_none()
            && -deep_options.target_separation <= VERIFY_DEPTH - 2.0 * options.tolerance =>
        {
            Sweep::Shallow
        }
        _ => Sweep::Nothing,
    }
}

/// Whether a time of impact of bodies `ba` (moving by `ma`) and `bb` (by `mb`) met a chain segment
/// of either at a ghost contact (`contact::is_ghost`): the neighbouring segment carries it.
pub(super) fn chain_ghost(ba: &Body, ma: &Motion, bb: &Body, mb: &Motion, toi: &Toi) -> bool {
    let points = toi.contact.points();
    let on = |body: &Body, m: &Motion, piece: usize, normal: Vec2| {
        let Shape::Compound(c) = &body.com_shape else {
            return false;
        };
        let p = &c.pieces()[piece];
        let x = m.pose_at(toi.t) * p.transform;
        is_ghost(
            &body.com_shape,
            piece,
            &p.shape,
            &x,
            normal,
            points.iter().copied(),
        )
    };
    on(ba, ma, toi.piece_a, toi.normal) || on(bb, mb, toi.piece_b, -toi.normal)
}
