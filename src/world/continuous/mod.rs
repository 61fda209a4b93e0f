//! The continuous pass: impacts found by time of impact, processed in time order within the step.
//!
//! After the solver, each body has a motion over the step, x0 → x1, held here as a *segment*
//! (start time, start pose, displacement and turn per unit step). A body is **fast** when its
//! outline can move more than half the speculative distance in the step (displacement plus turn
//! times core reach: a disc spinning in place is not fast). Two slow bodies that
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
//! including bodies it was resting on. Impacts of one instant share one settling of the bodies
//! around them (`group.rs`) and one re-sweep per body (`resolve_instant`). After
//! `max_impacts_per_step` impacts, each further impact *holds* the bodies at the safe time instead
//! (they stop there for this step, never tunnelling).
//!
//! Vocabulary: a *pending impact* is a queued time of impact that may still be invalidated; an
//! *impact* is one resolved (and reported as [`Impact`](super::Impact)); a *hold* stops a body
//! still for the rest of the step (reported in `StepEvents::held`), the fallback past the impact
//! budget and in the final verification.
//!
//! Files: this one holds the pass's state and its run loop; `schedule.rs` decides which pairs get
//! a time of impact and queues them; `impact.rs` resolves impacts; `group.rs` settles the bodies
//! an instant's impacts touch, growing the group through a cascade; `squeeze.rs` solves a group
//! pinned against immovable bodies exactly; `verify.rs` is the final no-tunnelling check.

mod axis;
mod group;
mod group_joints;
mod impact;
mod joint_tree;
mod schedule;
mod squeeze;
mod verify;

use super::body_set::BodySet;
use super::clock::Clock;
use super::contact_set::ContactSet;
use super::contact_set::{pair_key, row_offsets, PairHasher, PairMap, PairSet};
use super::events::StepEvents;
use super::hooks::{ContactHooks, Verdicts};
use super::joints::JointSet;
use super::WorldConfig;
use crate::broadphase::BroadPhase;
use crate::constants::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::dynamics::contact_math::point_velocity;
use crate::dynamics::BodyKind;
use crate::math::{Aabb, Real, Rot, Transform, Vec2};
use crate::query::{Motion, Toi};
use impact::Struck;
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// Whether bodies `a` and `b` meet in isolation: `supported` (by key) marks neither as a dynamic
/// body the solver pressed against a third (see `ContinuousPass::isolated`).
pub(crate) fn isolated(supported: &[bool], a: u32, b: u32) -> bool {
    let pressed = |i: u32| supported.get(i as usize).copied().unwrap_or(false);
    !(pressed(a) || pressed(b))
}

/// Depth (metres) at which the final check (`verify.rs`) steps in: a little inside the slop, so that what the
/// resolution leaves (a fast-turning pair's time of impact at a penetrating target is only
/// conservative to within tens of micrometres) still ends within the slop.
pub(super) const VERIFY_DEPTH: Real = 0.9 * LINEAR_SLOP;

/// Overlap (metres) at which the continuous pass steps in for a pair that was touching at the
/// start of its motion and presses deeper (a spinning body swinging its far end through a
/// contact): half the slop, so that what it leaves to the solver ends within the slop.
const DEEP_IMPACT_DEPTH: Real = 0.5 * LINEAR_SLOP;

/// Deepening (metres) below which such a pressing pair is left to the solver: the closing speed
/// times the rest of the step. A body pressed between two others (a box landing on one that lies
/// on the ground) is resolved pair by pair, each round removing only part of the closing speed,
/// and round-off leaves closing speeds of 1e-14 m/s: without a floor the rounds never end.
const DEEP_IMPACT_TOLERANCE: Real = 0.01 * LINEAR_SLOP;

/// Settlings of one body at one instant after which the next settling there grows its group as
/// far as the blow pushes (`ContinuousPass::settle_group`): a blow running through a pile ring by
/// ring (a heavy ram into a wall of boxes) otherwise settles every ring again as the next one
/// pushes back, an impact per pair and ring.
const CASCADE_SETTLINGS: u32 = 8;

/// Events (impacts, holds, budget continuations) one pass may process per allowed impact before
/// it stops re-sweeping: a backstop that bounds the work of any pathological scene.
const RESWEEP_FACTOR: usize = 16;

/// Candidate pairs the pass may examine per pair of the step (contacts plus bodies) before it
/// stops re-sweeping: its work stays a bounded multiple of what the step's pairs imply, even for
/// a heap of bodies created at one point (each impact there would otherwise re-sweep its bodies
/// against every other body of the heap). At 32 (until 2026-11-29) Box2D's spinner reached it
/// in the steps its spawned overlaps burst apart and held 5,000 bodies there; the heap stress
/// scene costs the same at 128 (`docs/benchmarks.md`, "Twentieth round").
const WORK_PER_PAIR: usize = 128;

/// Pending impacts the queue may hold before it is first cleared of stale ones (those a new
/// segment of either body made obsolete, skipped when popped): after each clearing it may grow to
/// twice what was left, so its memory follows the impacts still pending, not every sweep of the
/// step (a cascade of 9,500 impacts in one step of the soak scene queued 155,000, 31 MB, almost
/// all stale).
const QUEUE_FLOOR: usize = 4_096;

/// Candidate pairs any pass may examine whatever the step's size (a bullet rain has few pairs at
/// the start of a step and many impacts within it): about 0.1 s of work.
const WORK_FLOOR: usize = 1 << 20;

/// Contacts both bodies must already have (counting only the contacts the pair update keeps)
/// before a new pair of them whose cores overlap ([`cores_overlap`]) gets no contact: a heap
/// created at one point then keeps about this many contacts per body for as long as it is a heap,
/// instead of one per pair of the heap (4,000 boxes at one point: 8 million contacts, 18 GB).
/// Above `schedule::HEAP_DEGREE`, so such bodies count as a heap's.
pub(crate) const HEAP_CONTACT_CAP: u32 = 64;

/// Whether the cores of bodies `a` and `b` overlap. A body's core is the disc of radius `extent`
/// about its anchor (the deepest point of the body, `extent` from its boundary), so it lies inside
/// the body: two overlapping cores mean the bodies overlap by at least as much as the cores do.
/// Bodies that do not overlap never pass this test, however they stand.
pub(crate) fn cores_overlap(a: &crate::dynamics::Body, b: &crate::dynamics::Body) -> bool {
    cores_overlap_at(a, &a.pose, b, &b.pose)
}

/// [`cores_overlap`] with the bodies' centre-of-mass frames at `xa` and `xb`.
fn cores_overlap_at(
    a: &crate::dynamics::Body,
    xa: &Transform,
    b: &crate::dynamics::Body,
    xb: &Transform,
) -> bool {
    let (pa, pb) = (xa.transform_point(a.anchor), xb.transform_point(b.anchor));
    (pa - pb).length() < a.extent + b.extent
}

/// The pass indexes and summarises every contact up front (`Neighbours::start`,
/// `Neighbours::summarise`) when its fast bodies' contacts number at least `1 / SUMMARY_SHARE` of
/// all contacts; otherwise it indexes only the bodies it looks at (`Neighbours::start_sparse`).
const SUMMARY_SHARE: usize = 8;

/// How many fast bodies ahead a pass over them asks the processor to load (see
/// `Body::prefetch_box_inputs`): far enough that the loads arrive before they are needed, near
/// enough that they are still in the cache then.
const PREFETCH_AHEAD: usize = 4;

/// What the pass knows of which bodies can meet without asking the broad phase's trees: each
/// body's contacts at the start of the pass, the fat boxes its proxy had then (for proxies the pass
/// has enlarged since), and the pairs found by tree queries of bodies that left their boxes.
///
/// The contacts are indexed in one of two ways, with the same answers. Dense (`start`): every
/// body's row, built over all contacts at once, and a contact's *entry* is its slot in
/// `partners`. Sparse (`start_sparse`, when the fast bodies are few among many contacts): only
/// the rows the pass asks for (`ensure_row`), and an entry is the contact's index in the contact
/// set. A sleeping world of 9,600 boxes with one moving body (Box2D's smash before its ram
/// arrives) spent 0.8 ms a step indexing its 19,000 contacts.
#[derive(Debug, Default)]
struct Neighbours {
    /// Dense: `partners[offsets[k]..offsets[k + 1]]` are the bodies body `k` has a contact with.
    offsets: Vec<u32>,
    /// Dense: each body's row in turn; sparse: the rows built so far, each where `rows` says.
    partners: Vec<u32>,
    /// The contact (index into the contact set) of each entry of `partners`.
    contact_ids: Vec<u32>,
    /// Whether the index is sparse (see above).
    sparse: bool,
    /// Sparse: where each built row starts in `partners`, and its length, by body key.
    rows: HashMap<u32, (u32, u32), BuildHasherDefault<PairHasher>>,
    /// What the trust rule reads of each entry's contact (`ContactSummary`), next to the partner
    /// list the lookup has just searched: the contacts themselves are large and their manifolds
    /// live on the heap, and reading them per candidate pair missed the cache (in a landing
    /// pile of 16,000 bodies, a fifth of the step). Empty when the pass looks up few contacts
    /// (`Neighbours::summarise`).
    summaries: Vec<ContactSummary>,
    /// Fat proxy boxes before the pass first enlarged them, by key.
    start_boxes: HashMap<u32, Aabb, BuildHasherDefault<PairHasher>>,
    /// What the tree queries of bodies whose motion left their start boxes recorded, by body
    /// key (`Found`; dense and kept between passes, so its lists keep their memory;
    /// `found_touched` lists the keys to clear).
    found: Vec<Found>,
    found_touched: Vec<u32>,
    /// Scratch of `start`: one summary per contact, the (partner, contact) entries grouped by
    /// body in contact order, and each body's next free slot.
    per_contact: Vec<ContactSummary>,
    grouped: Vec<(u32, u32)>,
    cursor: Vec<u32>,
}

/// What the pass's tree queries recorded about one body (`Neighbours::found`).
#[derive(Debug, Default)]
struct Found {
    /// Bodies whose tree queries this pass found this body.
    by: Vec<u32>,
    /// This body's last tree query this pass, if any.
    query: Option<Aabb>,
    /// Every body this body's queries this pass found, sorted. A body re-swept after each of its
    /// impacts queries again and meets the same bodies: each found body learns of it once,
    /// checked against this list (against the found body's `by` list instead, a blade or a
    /// ground met by thousands of bodies would cost the square of their number; a set of every
    /// found pair, one hash per pair, was a quarter of a heap's step). A query within the last
    /// box is answered from this list.
    finds: Vec<u32>,
}

impl Neighbours {
    /// Indexes the contacts of a world whose body keys are below `key_bound`: each body's
    /// partners in increasing order (for `contact_between`'s binary search), built without
    /// sorting. A first counting pass groups the entries by body in contact order; a second
    /// walks the bodies in key order and appends each to its partners' rows, so every row
    /// receives its partners in increasing key order (a transpose of the first grouping; a pair
    /// has one contact, so no row holds a partner twice).
    fn start(&mut self, contacts: &ContactSet, key_bound: usize) {
        let pairs = contacts.as_slice().iter().map(|c| (c.a, c.b));
        row_offsets(&mut self.offsets, key_bound, pairs);
        let entries = self.offsets[key_bound] as usize;
        // First grouping, in contact order: `grouped[cursor[k]..]` are body k's (partner,
        // contact) entries.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.offsets[..key_bound]);
        // (Both groupings write every one of their `entries` slots: the buffers keep whatever
        // they held instead of being zeroed first.)
        self.grouped.resize(entries, (0, 0));
        for (k, c) in contacts.as_slice().iter().enumerate() {
            for (i, j) in [(c.a, c.b), (c.b, c.a)] {
                let slot = &mut self.cursor[i as usize];
                self.grouped[*slot as usize] = (j, k as u32);
                *slot += 1;
            }
        }
        // The transpose: body j, in increasing order, appended to the row of each partner.
        self.partners.resize(entries, 0);
        self.contact_ids.resize(entries, 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.offsets[..key_bound]);
        for j in 0..key_bound {
            let range = self.offsets[j] as usize..self.offsets[j + 1] as usize;
            for &(i, k) in &self.grouped[range] {
                let slot = &mut self.cursor[i as usize];
                self.partners[*slot as usize] = j as u32;
                self.contact_ids[*slot as usize] = k;
                *slot += 1;
            }
        }
        self.sparse = false;
        self.clear_pass_state();
    }

    /// Starts a sparse index (see [`Neighbours`]): no row until `ensure_row` builds it.
    fn start_sparse(&mut self) {
        self.sparse = true;
        self.partners.clear();
        self.contact_ids.clear();
        self.rows.clear();
        self.clear_pass_state();
    }

    /// Forgets what the last pass added: summaries, start boxes, found bodies.
    fn clear_pass_state(&mut self) {
        self.summaries.clear();
        self.start_boxes.clear();
        for k in self.found_touched.drain(..) {
            let found = &mut self.found[k as usize];
            found.by.clear();
            found.finds.clear();
            found.query = None;
        }
    }

    /// Body `k`'s record (see `Found`), made and marked for clearing on first use this pass.
    fn found_mut(&mut self, k: u32) -> &mut Found {
        let i = k as usize;
        if i >= self.found.len() {
            self.found.resize_with(i + 1, Found::default);
        }
        let found = &mut self.found[i];
        if found.by.is_empty() && found.query.is_none() {
            self.found_touched.push(k);
        }
        found
    }

    /// Bodies whose tree queries this pass found body `k`.
    fn found_by(&self, k: u32) -> &[u32] {
        self.found.get(k as usize).map_or(&[], |f| f.by.as_slice())
    }

    /// What body `k`'s queries this pass found, if its last query's box holds `query`.
    fn finds_within(&self, k: u32, query: &Aabb) -> Option<&[u32]> {
        let found = self.found.get(k as usize)?;
        found
            .query
            .is_some_and(|last| last.contains(query))
            .then_some(found.finds.as_slice())
    }

    /// Records body `finder`'s tree query with box `query`, which found `bodies`: each found
    /// body learns of `finder` once a pass (checked against what its earlier queries found).
    fn record_query(&mut self, finder: u32, query: Aabb, bodies: &[u32]) {
        let mut finds = std::mem::take(&mut self.found_mut(finder).finds);
        let known = finds.len();
        for &c in bodies {
            if finds[..known].binary_search(&c).is_err() {
                self.found_mut(c).by.push(finder);
                finds.push(c);
            }
        }
        if finds.len() > known {
            finds.sort_unstable();
        }
        // (Made by the first call above.)
        let record = &mut self.found[finder as usize];
        record.finds = finds;
        record.query = Some(query);
    }

    /// Builds body `k`'s row if the index is sparse and it has none yet: its partners in
    /// increasing order, each with its contact. (A dense index has every row.)
    fn ensure_row(&mut self, k: u32, contacts: &ContactSet) {
        if !self.sparse || self.rows.contains_key(&k) {
            return;
        }
        let start = self.partners.len();
        self.partners.extend_from_slice(contacts.partners_of(k));
        self.partners[start..].sort_unstable();
        for i in start..self.partners.len() {
            // (Every partner listed has its contact: the contact set keeps both in step.)
            let contact = contacts.index_of(k, self.partners[i]).unwrap_or(usize::MAX);
            self.contact_ids.push(contact as u32);
        }
        let len = self.partners.len() - start;
        self.rows.insert(k, (start as u32, len as u32));
    }

    /// Summarises every contact of a dense index next to its entries (`summaries`), for a pass
    /// that will look up many: the contacts of the fast bodies number at least
    /// `1 / SUMMARY_SHARE` of all contacts. Otherwise the index is sparse and each lookup
    /// summarises its contact when asked (a settled pile with a few sliding bodies looks up a few
    /// dozen of its ten thousand contacts). Same answers either way.
    fn summarise(&mut self, contacts: &ContactSet) {
        // Each contact summarised once, then copied to both of its entries.
        self.per_contact.clear();
        self.per_contact
            .extend(contacts.as_slice().iter().map(ContactSummary::of));
        let per_contact = &self.per_contact;
        self.summaries
            .extend(self.contact_ids.iter().map(|&k| per_contact[k as usize]));
    }

    /// How many contacts body `k` had at the start of the pass.
    fn degree(&self, k: u32, contacts: &ContactSet) -> u32 {
        if self.sparse {
            contacts.partners_of(k).len() as u32
        } else {
            self.offsets[k as usize + 1] - self.offsets[k as usize]
        }
    }

    /// Where body `k`'s row is in `partners` (sparse: empty until `ensure_row` built it).
    fn row(&self, k: u32) -> std::ops::Range<usize> {
        if self.sparse {
            let (start, len) = self.rows.get(&k).copied().unwrap_or_default();
            start as usize..(start + len) as usize
        } else {
            self.offsets[k as usize] as usize..self.offsets[k as usize + 1] as usize
        }
    }

    /// The bodies body `k` had a contact with at the start of the pass, in increasing order. A
    /// sparse index must have built the row (`ensure_row`).
    fn contacts_of(&self, k: u32) -> &[u32] {
        debug_assert!(
            !self.sparse || self.rows.contains_key(&k),
            "row {k} not built"
        );
        &self.partners[self.row(k)]
    }

    /// The index of the contact between bodies `a` and `b` at the start of the pass, if any: a
    /// binary search of the shorter of their two (sorted) partner lists, cheaper than hashing the
    /// pair into the contact set's index (a third of the pass in a forming pile, where the index
    /// misses the cache).
    fn contact_between(&self, a: u32, b: u32, contacts: &ContactSet) -> Option<usize> {
        self.entry_between(a, b, contacts)
            .map(|slot| self.contact_at(slot))
    }

    /// The index (in the contact set) of the contact at entry `slot`.
    fn contact_at(&self, slot: usize) -> usize {
        if self.sparse {
            slot
        } else {
            self.contact_ids[slot] as usize
        }
    }

    /// [`Neighbours::contact_between`]'s summary of the contact (`ContactSummary`), from
    /// `summaries` when `summarise` made them, else from the contact in `contacts`.
    fn summary_between(&self, a: u32, b: u32, contacts: &ContactSet) -> Option<ContactSummary> {
        Some(self.summary_at(self.entry_between(a, b, contacts)?, contacts))
    }

    /// The summary of the contact at entry `slot`.
    fn summary_at(&self, slot: usize, contacts: &ContactSet) -> ContactSummary {
        match self.summaries.get(slot) {
            Some(summary) => *summary,
            None => ContactSummary::of(&contacts.as_slice()[self.contact_at(slot)]),
        }
    }

    /// The entry of body `a`'s `k`-th partner in `contacts_of(a)`.
    fn entry_of(&self, a: u32, k: usize) -> usize {
        let slot = self.row(a).start + k;
        if self.sparse {
            self.contact_ids[slot] as usize
        } else {
            slot
        }
    }

    /// The entry of the contact between `a` and `b`: a binary search of the shorter of their
    /// rows (sparse: of the shorter built one, or the contact set's own index when neither is).
    fn entry_between(&self, a: u32, b: u32, contacts: &ContactSet) -> Option<usize> {
        if self.sparse {
            let row = |k: u32| self.rows.get(&k).map(|&(start, len)| (len, start, k));
            let Some((_, start, from)) = (match (row(a), row(b)) {
                (Some(ra), Some(rb)) => Some(ra.min(rb)),
                (ra, rb) => ra.or(rb),
            }) else {
                return contacts.index_of(a, b);
            };
            let other = if from == a { b } else { a };
            return self
                .contacts_of(from)
                .binary_search(&other)
                .ok()
                .map(|i| self.contact_ids[start as usize + i] as usize);
        }
        let (from, other) = if self.degree(a, contacts) <= self.degree(b, contacts) {
            (a, b)
        } else {
            (b, a)
        };
        let start = self.offsets[from as usize] as usize;
        self.contacts_of(from)
            .binary_search(&other)
            .ok()
            .map(|i| start + i)
    }
}

/// What the continuous pass's trust rule (`schedule::solver_owns`), heap rule and bounce test
/// (`impact::passes_bounce_on`) read of a contact at the start of the pass.
#[derive(Clone, Copy, Debug)]
struct ContactSummary {
    /// Always swept: a bounce (`PairContact::bounce`, the pass's to resolve), or bodies whose shapes
    /// are filtered piece by piece.
    always_swept: bool,
    /// Some manifold point within the margin.
    has_points: bool,
    /// Some manifold has restitution (`PairContact::bouncy`).
    bouncy: bool,
    /// Least separation of the manifold points (metres; +∞ without points).
    min_separation: Real,
    /// How far the pair moved since its manifold was computed (`PairContact::recycled_motion`).
    recycled_motion: Real,
    /// The margin of the last update (`PairContact::margin`).
    margin: Real,
}

impl ContactSummary {
    fn of(c: &crate::dynamics::contact::PairContact) -> Self {
        Self {
            always_swept: c.bounce || c.filter == crate::dynamics::body::PairFilter::Pieces,
            has_points: c.has_points(),
            bouncy: c.bouncy(),
            min_separation: c.min_separation(),
            recycled_motion: c.recycled_motion,
            margin: c.margin,
        }
    }
}

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
    /// Bumped whenever the segment is replaced: pending impacts of older versions are stale.
    version: u32,
    /// The segment differs from the solver's motion (the body's end pose must be rewritten).
    changed: bool,
    /// The solver's motion of the body over the whole step (displacement, turn), which the first
    /// segment is.
    solver_lin: Vec2,
    solver_ang: Real,
    /// How far (metres) any point of the body can be, at any time of the step, from where the
    /// solver's motion puts it: the sum over the segment's replacements of the change in motion
    /// times the rest of the step (`|Δℓ| + |Δθ|·R`, per unit step). 0 for the solver's segment.
    deviation: Real,
}

impl Segment {
    /// A body standing still at `pose` (also the filler for keys without a body).
    const fn still(pose: Transform) -> Self {
        Self {
            t0: 0.0,
            pose0: pose,
            lin: Vec2::ZERO,
            ang: 0.0,
            version: 0,
            changed: false,
            solver_lin: Vec2::ZERO,
            solver_ang: 0.0,
            deviation: 0.0,
        }
    }

    /// The segment that replaces this one from `t` with displacement `lin` and turn `ang` per
    /// unit step, for a body whose core reaches `core_reach` metres from its centre of mass (a
    /// turn moves the outline only through the core: see `Body::core_reach`).
    fn replaced(&self, t: Real, lin: Vec2, ang: Real, core_reach: Real) -> Self {
        let change = (lin - self.lin).length() + (ang - self.ang).abs() * core_reach;
        Self {
            t0: t,
            pose0: self.pose_at(t),
            lin,
            ang,
            version: self.version + 1,
            changed: true,
            deviation: self.deviation + change * (1.0 - t),
            ..*self
        }
    }

    fn pose_at(&self, t: Real) -> Transform {
        let d = t - self.t0;
        if d == 0.0 {
            return self.pose0; // (what the formula gives there, bit for bit, without the turn)
        }
        let rotation = if self.ang == 0.0 {
            self.pose0.rotation
        } else {
            Rot::turn(d * self.ang).mul_rot(self.pose0.rotation)
        };
        Transform::from_parts(self.pose0.translation + d * self.lin, rotation)
    }

    fn motion_from(&self, t: Real) -> Motion {
        Motion::new(self.pose_at(t), self.lin * (1.0 - t), self.ang * (1.0 - t))
    }

    /// Velocity (m/s) at world point `p` of the segment's motion about its centre of mass at
    /// `center`, over a step of `dt` seconds.
    fn velocity_at(&self, center: Vec2, p: Vec2, dt: Real) -> Vec2 {
        point_velocity(self.lin, self.ang, p - center) * (1.0 / dt)
    }

    /// Whether the segment moves at all.
    fn moves(&self) -> bool {
        self.lin != Vec2::ZERO || self.ang != 0.0
    }
}

/// A queued time of impact between bodies `a` and `b` (keys), valid while both segments keep the
/// versions it was computed for.
#[derive(Debug)]
struct PendingImpact {
    t: Real,
    seq: u64,
    a: u32,
    b: u32,
    version_a: u32,
    version_b: u32,
    toi: Toi,
    /// How it was found, which decides how it is resolved.
    kind: PendingKind,
}

/// How a pending impact was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PendingKind {
    /// The first contact of a pair (or a touching pair closing fast): resolved if the pair would
    /// overlap past the final check's depth (0.9 × slop) by the end of the step.
    Contact,
    /// A touching pair pressing past `DEEP_IMPACT_DEPTH`: resolved if it would deepen by more than
    /// `DEEP_IMPACT_TOLERANCE`, and left separating at the speed that undoes its excess depth.
    Deep,
    /// Found by the final check (a pair reaching past the slop): always resolved, like `Deep`.
    Verified,
}

impl PendingImpact {
    /// Whether neither body has had a new segment in `segments` (by key) since the impact was
    /// queued: one queued with an older segment is stale.
    fn is_live(&self, segments: &[Segment]) -> bool {
        segments[self.a as usize].version == self.version_a
            && segments[self.b as usize].version == self.version_b
    }
}

impl PartialEq for PendingImpact {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for PendingImpact {}
impl PartialOrd for PendingImpact {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PendingImpact {
    fn cmp(&self, other: &Self) -> Ordering {
        self.t.total_cmp(&other.t).then(self.seq.cmp(&other.seq))
    }
}

/// What `ContinuousPass::resolve_instant` keeps while it resolves an instant, and from one
/// instant to the next while they share a time (kept in the pass's buffers between drains).
#[derive(Debug, Default)]
struct Instant {
    /// The instant's impacts whose bodies are settled together, and their moving bodies.
    seeds: Vec<(u32, u32)>,
    struck: HashSet<u32, BuildHasherDefault<PairHasher>>,
    /// Impacts of the instant with a static or kinematic body, met while gathering the others.
    deferred: Vec<PendingImpact>,
    /// How often each body was settled at the time `settled_at`.
    settled: HashMap<u32, u32, BuildHasherDefault<PairHasher>>,
    settled_at: Real,
}

/// The continuous pass's containers, kept by the world between steps so that a step's pass
/// allocates nothing once they have grown (the pass takes them at its start, clears each, and
/// puts them back when it ends). Their contents mean nothing between steps, so a clone of the
/// world starts with empty ones.
#[derive(Debug, Default)]
pub(crate) struct PassBuffers {
    /// Each body's motion for the rest of the step, by key. A body at rest keeps the still
    /// segment an earlier pass wrote for it while it stays at rest (`ContinuousPass::start`).
    segments: Vec<Segment>,
    /// The step (`Clock::step`) the last pass ran in.
    last_step: Option<u64>,
    /// Pending impacts, earliest first.
    queue: BinaryHeap<Reverse<PendingImpact>>,
    /// Length past which the queue is cleared of pending impacts that a new segment has made
    /// stale (`schedule::queue_impact`).
    queue_limit: usize,
    /// Impulses applied per pair this step (see `schedule::MAX_IMPACTS_PER_PAIR`).
    pair_impacts: PairMap<u32>,
    /// Per pair, its impacts in a row at one place and the step fraction of the last (see
    /// `ContinuousPass::impacts_in_row`).
    pair_rows: PairMap<(u32, Real)>,
    /// Bodies given a new segment since the final check last looked (its next round's watch list).
    restarted: Vec<u32>,
    /// Every body whose segment differs from the solver's motion (`Segment::changed`), in the
    /// order they first changed: the final check watches them and the pass rewrites their end
    /// poses, without scanning every body.
    changed: Vec<u32>,
    /// The pass's number (1 for the first): the per-body box caches below hold entries of
    /// earlier passes, which never match, instead of being emptied every step.
    pass: u64,
    /// The last swept box computed per body (see `schedule::swept_box`).
    swept_boxes: Vec<CachedBox>,
    /// Per body key: its box where its segment stands at a step fraction, for
    /// `boxes_stay_apart`, which asks for the same body at the same time once per candidate pair
    /// (a `Cell`: the trust rule reads the pass without changing it).
    boxes_at: Vec<std::cell::Cell<CachedBox>>,
    /// Where candidate pairs come from (see `schedule::candidates`).
    neighbours: Neighbours,
    /// Pairs a sweep found never touching, or never past the final check's least depth, with the
    /// segment versions (lower key's, higher key's) and the step fraction it swept them from (see
    /// `schedule::known_clear`): the final check skips them while those segments stand.
    clear: PairMap<((u32, u32), Real)>,
    /// Pairs of dynamic bodies that move on together for the rest of the step (see
    /// `impact::MAX_IMPACTS_BEFORE_JOINING`): never swept against each other again this step.
    joined: PairSet,
    /// Pairs of a dynamic body and a kinematic body that the dynamic body yields to for the rest
    /// of the step: jammed against the static world with no way out, it cannot get out of the
    /// kinematic body's way, so the static contact wins and the kinematic body passes it (see
    /// `squeeze.rs`); or met `schedule::MAX_IMPACTS_PER_PAIR` times in the step. Never swept
    /// against each other again this step.
    yielded: PairSet,
    /// Pairs of bodies whose impact the hooks disabled: never swept against each other again
    /// this step.
    disabled: PairSet,
    /// Dynamic bodies pinned against an immovable body for the rest of the step (see
    /// `schedule::MAX_IMPACTS_PER_PAIR`): held still, and immovable to every other body from then
    /// on, so nothing can drive them into what pins them.
    pinned: Vec<u32>,
    /// Per body key: some pair of the body got a time of impact in the first sweeps that found
    /// an impact or a touch (neither `Sweep::Clear` nor `Sweep::Shallow`), or it may reach a body
    /// held still since. Every pair of a body without either was the solver's (or set aside), or
    /// swept and found never reaching the final check's depth, then, and stays so while neither
    /// segment changes (`solver_owns` reads only the segments and the start of the step, and a
    /// sweep's finding holds for the segments it swept); a pair with a body given a new motion is
    /// checked from that body's side. The final check skips such bodies.
    swept_first: Vec<bool>,
    /// Per body key: held (`ContinuousPass::stop_at`) in this pass, so that each body is reported
    /// once without searching the step's list of held bodies.
    held: Vec<bool>,
    /// Per body key: a group settling changed its velocity this pass by too little to give it a
    /// new segment (`ContinuousPass::settle_group`); its next change gets one.
    nudged: Vec<bool>,
    /// The group a settling gathers (`ContinuousPass::settle_group`).
    group: group::GroupBuild,
    /// The instant being resolved (`ContinuousPass::drain_queue`).
    instant: Instant,
    /// The fast bodies of the step, the pairs the first sweeps have seen, and those they sweep.
    fast: Vec<u32>,
    seen: PairSet,
    /// Per body key, where the first sweeps take its candidates from (`FirstList`).
    first_list: Vec<FirstList>,
    pairs: Vec<(u32, u32)>,
    /// Candidate lists to reuse (see `schedule::candidates`).
    lists: Vec<Vec<u32>>,
    /// The joints of each body, built by the first jointed impact of a pass (see
    /// `group_joints::JointAdjacency`); `None` until then.
    joint_adjacency: Option<group_joints::JointAdjacency>,
}

impl Clone for PassBuffers {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PassBuffers {
    /// Empties what the pass expects empty at its start (segments, swept boxes, neighbours and
    /// the first sweeps' lists are reset where they are filled).
    fn reset(&mut self) {
        self.queue.clear();
        self.queue_limit = QUEUE_FLOOR;
        self.pair_impacts.clear();
        self.pair_rows.clear();
        self.restarted.clear();
        self.changed.clear();
        self.clear.clear();
        self.joined.clear();
        self.yielded.clear();
        self.disabled.clear();
        self.pinned.clear();
        self.joint_adjacency = None;
    }
}

/// A box the pass computed for a body (world metres): for the segment of version `version` of
/// pass `pass`, from step fraction `t`.
#[derive(Clone, Copy, Debug)]
struct CachedBox {
    pass: u64,
    version: u32,
    t: Real,
    aabb: Aabb,
}

impl CachedBox {
    /// No box: pass 0 never runs.
    const NONE: Self = Self {
        pass: 0,
        version: 0,
        t: 0.0,
        aabb: Aabb {
            min: Vec2::ZERO,
            max: Vec2::ZERO,
        },
    };

    /// `aabb`, for segment version `version` of pass `pass` from `t`.
    fn new(pass: u64, version: u32, t: Real, aabb: Aabb) -> Self {
        Self {
            pass,
            version,
            t,
            aabb,
        }
    }

    /// The box, if it is for segment version `version` of pass `pass` from `t`.
    fn get(&self, pass: u64, version: u32, t: Real) -> Option<Aabb> {
        (self.pass == pass && self.version == version && self.t == t).then_some(self.aabb)
    }
}

/// Where the first sweeps take a body's candidates from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FirstList {
    /// Not a fast body: the first sweeps meet it only in fast bodies' lists.
    NotFast,
    /// A fast body whose motion stays in its start box: its contacts' partners.
    Contacts,
    /// A fast body that left its start box: a tree query (`schedule::candidates`).
    Tree,
}

/// Stage 4 of the step: the continuous pass over the parts of the world it borrows, with its own
/// segments, queue and counters (see the module notes).
pub(crate) struct ContinuousPass<'w> {
    config: &'w WorldConfig,
    bodies: &'w mut BodySet,
    contacts: &'w ContactSet,
    broad_phase: &'w mut BroadPhase,
    events: &'w mut StepEvents,
    clock: &'w Clock,
    /// Insertion counter: equal times resolve in the order they were found.
    seq: u64,
    /// Impacts resolved with an impulse (against `max_impacts_per_step`).
    impacts: usize,
    /// Pending impacts processed (against the re-sweep backstop).
    processed: usize,
    /// Candidate pairs examined so far (against `work_budget`).
    work: std::cell::Cell<usize>,
    /// Pairs swept so far (each a time-of-impact query over the rest of the step).
    swept: std::cell::Cell<usize>,
    /// `WORK_PER_PAIR` × (contacts + bodies) of this step.
    work_budget: usize,
    /// The game's contact hooks and their verdicts of this step (see `world/hooks.rs`).
    hooks: Option<(&'w mut dyn ContactHooks, &'w mut Verdicts)>,
    /// The joints, whose bodies (`collide_connected` off) are never swept against each other.
    joints: Option<&'w JointSet>,
    /// Per body key, whether a kinematic body presses on it this step, directly or through other
    /// dynamic bodies (the solver's list, `SolverBuffers::pressed`; empty when none is). Its
    /// pairs with static and kinematic bodies are never the solver's (`solver_owns`): pressed from
    /// both sides, the solver's soft contacts would let a kinematic body push it into the static
    /// world, and its constraint with the kinematic body follows that body's turn only to first
    /// order.
    pressed: &'w [bool],
    /// The dynamic bodies of this step's bounces (`PairContact::bounce`), by key: the solver
    /// left those contacts out, so the pass checks these bodies whatever their speed (two
    /// bodies closing at 1.2 m/s bounce, though neither moves half the speculative distance).
    bouncing: &'w [u32],
    /// Per body key, whether it is a dynamic body the solver pressed against another at the last
    /// step (see `StepBuffers::supported`): a bounce of a pressed body is not isolated, and the pass
    /// neither bounces it on its own nor passes a bounce on to it (`isolated`).
    supported: &'w [bool],
    /// The pass's containers (see `PassBuffers`).
    buf: PassBuffers,
    /// Where the containers come from and go back to.
    store: &'w mut PassBuffers,
}

impl<'w> ContinuousPass<'w> {
    /// The pass with the world's joints (their bodies are not swept against each other).
    pub fn with_joints(mut self, joints: &'w JointSet) -> Self {
        self.joints = Some(joints);
        self
    }

    /// The pass with the dynamic bodies of this step's bounces (by key, sorted; see
    /// `bouncing`) and the bodies the solver pressed against others (by key; see `supported`).
    pub fn with_bouncing(mut self, bouncing: &'w [u32], supported: &'w [bool]) -> Self {
        self.bouncing = bouncing;
        self.supported = supported;
        self
    }

    /// The pass with the bodies kinematic bodies press on this step (by key).
    pub fn with_pressed(mut self, pressed: &'w [bool]) -> Self {
        self.pressed = pressed;
        self
    }

    /// The pass with the game's contact hooks (and the verdicts the solver's contacts got).
    pub fn with_hooks(
        mut self,
        hooks: Option<&'w mut (dyn ContactHooks + '_)>,
        verdicts: &'w mut Verdicts,
    ) -> Self {
        self.hooks = hooks.map(|h| (h as &'w mut dyn ContactHooks, verdicts));
        self
    }

    /// A pass over the world's parts for the step `clock` is running, with the containers kept
    /// in `store`.
    pub fn new(
        config: &'w WorldConfig,
        bodies: &'w mut BodySet,
        contacts: &'w ContactSet,
        broad_phase: &'w mut BroadPhase,
        events: &'w mut StepEvents,
        clock: &'w Clock,
        store: &'w mut PassBuffers,
    ) -> Self {
        let work_budget = WORK_PER_PAIR * (contacts.len() + bodies.len()) + WORK_FLOOR;
        let mut buf = std::mem::take(store);
        buf.reset();
        Self {
            buf,
            store,
            config,
            bodies,
            contacts,
            broad_phase,
            events,
            clock,
            seq: 0,
            impacts: 0,
            processed: 0,
            work: std::cell::Cell::new(0),
            swept: std::cell::Cell::new(0),
            work_budget,
            hooks: None,
            joints: None,
            pressed: &[],
            bouncing: &[],
            supported: &[],
        }
    }

    /// Runs the pass; `angles` is the angle each body turned in the solver, by key. Returns the
    /// pairs it swept and the candidate pairs it examined (`StepProfile`'s counts).
    pub fn run(mut self, angles: &[Real]) -> (usize, usize) {
        // The fast bodies' list is read while the pass changes itself: out of `buf` meanwhile.
        let mut fast = std::mem::take(&mut self.buf.fast);
        self.start(angles, &mut fast);
        if !fast.is_empty() {
            self.sweep_fast(&fast);
        }
        self.buf.fast = fast;
        // The containers go back to the world's store for the next step's pass.
        *self.store = std::mem::take(&mut self.buf);
        (self.swept.get(), self.work.get())
    }

    /// The pass proper, once segments are built and `fast` (not empty) lists the fast bodies:
    /// the first sweeps, the impacts in time order, the final check, and the end poses.
    fn sweep_fast(&mut self, fast: &[u32]) {
        // Index every contact when the fast bodies will look up many of them, else only the rows
        // the pass asks for (see `Neighbours`): the fast bodies' now, the rest as they come.
        let lookups: usize = fast
            .iter()
            .map(|&f| self.contacts.partners_of(f).len())
            .sum();
        if lookups * SUMMARY_SHARE >= self.contacts.len() {
            self.buf
                .neighbours
                .start(self.contacts, self.bodies.key_bound());
            self.buf.neighbours.summarise(self.contacts);
        } else {
            self.buf.neighbours.start_sparse();
            for &f in fast {
                self.buf.neighbours.ensure_row(f, self.contacts);
            }
        }
        // The first sweeps: every pair of a fast body and a candidate the solver does not own.
        // They read only the solver's segments, so with the `parallel` feature they share out
        // over rayon's threads; their impacts are queued in pair order either way (same results).
        let mut seen = std::mem::take(&mut self.buf.seen);
        let mut pairs = std::mem::take(&mut self.buf.pairs);
        seen.clear();
        pairs.clear();
        self.buf.swept_first.clear();
        self.buf.swept_first.resize(self.bodies.key_bound(), false);
        self.buf.held.clear();
        self.buf.held.resize(self.bodies.key_bound(), false);
        self.buf.nudged.clear();
        self.buf.nudged.resize(self.bodies.key_bound(), false);
        // Fast bodies' boxes must hold their whole motion before anyone queries. A body whose
        // box did not have to grow stays in its start box: it has its contacts' partners for
        // candidates, read in place. (What tree queries of other bodies found it with,
        // `candidates` adds too; in these first sweeps each such pair is in the querying body's
        // own list already.)
        let mut first_list = std::mem::take(&mut self.buf.first_list);
        first_list.clear();
        first_list.resize(self.bodies.key_bound(), FirstList::NotFast);
        for (k, &f) in fast.iter().enumerate() {
            if let Some(&ahead) = fast.get(k + PREFETCH_AHEAD) {
                self.bodies.at(ahead).prefetch_box_inputs();
            }
            if let Some(&ahead) = fast.get(k + PREFETCH_AHEAD / 2) {
                self.bodies.at(ahead).prefetch_piece_inputs();
            }
            first_list[f as usize] = if self.enlarge_proxy(f, 0.0) {
                FirstList::Tree
            } else {
                FirstList::Contacts
            };
        }
        for &f in fast {
            let in_place = first_list[f as usize] == FirstList::Contacts;
            let list = (!in_place).then(|| self.candidates(f, 0.0));
            let partners = match &list {
                Some(list) => &list[..],
                None => self.buf.neighbours.contacts_of(f),
            };
            if in_place {
                self.work.set(self.work.get() + partners.len());
            }
            for (k, &c) in partners.iter().enumerate() {
                // Each pair once: two bodies that both read their contacts meet in both lists
                // (the lower key takes it); a pair with a body whose list came from the trees is
                // remembered; a partner that is not fast lists nobody.
                let first = match (in_place, first_list[c as usize]) {
                    (true, FirstList::Contacts) => f < c,
                    (true, FirstList::NotFast) => true,
                    _ => seen.insert(pair_key(f, c)),
                };
                // (`candidates` leaves out the bodies a joint keeps apart; contacts do not.)
                if !first || (in_place && self.joints.is_some_and(|j| j.blocks(f, c))) {
                    continue;
                }
                // A partner read in place is the `k`-th of `f`'s row: its contact's entry is
                // known without a search.
                let entry = if in_place {
                    Some(self.buf.neighbours.entry_of(f, k))
                } else {
                    self.buf.neighbours.entry_between(f, c, self.contacts)
                };
                if !self.solver_owns_at(f, c, entry) && !self.set_aside(f, c) {
                    pairs.push((f, c));
                }
            }
            if let Some(list) = list {
                self.give_back(list);
            }
        }
        self.buf.first_list = first_list;
        let (bodies, segments, config) = (&*self.bodies, &self.buf.segments, self.config);
        let supported = self.supported;
        let sweep = |&(a, b): &(u32, u32)| {
            let (ua, ub) = (a as usize, b as usize);
            let (ba, bb) = (bodies.at(a), bodies.at(b));
            // (Nothing has bounced yet at the start of the step.)
            let row = (0, Real::NEG_INFINITY);
            let isolated = isolated(supported, a, b);
            schedule::sweep_pair(
                ba,
                &segments[ua],
                bb,
                &segments[ub],
                0.0,
                config,
                (row, isolated),
            )
        };
        #[cfg(feature = "parallel")]
        let impacts: Vec<_> = if crate::dynamics::stages::thread_count() > 1 {
            use rayon::prelude::*;
            pairs.par_iter().with_min_len(8).map(sweep).collect()
        } else {
            pairs.iter().map(sweep).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let impacts: Vec<_> = pairs.iter().map(sweep).collect();
        self.swept.set(self.swept.get() + pairs.len());
        for (&(a, b), swept) in pairs.iter().zip(impacts) {
            // A pair found clear or shallow stays so while neither segment changes (see
            // `swept_first`); the others are the final check's.
            if !swept.settles_final_check() {
                self.buf.swept_first[a as usize] = true;
                self.buf.swept_first[b as usize] = true;
            }
            self.take_sweep(a, b, 0.0, swept);
        }
        (self.buf.seen, self.buf.pairs) = (seen, pairs);
        self.drain_queue();
        self.verify(fast);
        for &key in &self.buf.changed {
            self.bodies.at_mut(key).pose = self.buf.segments[key as usize].pose_at(1.0);
        }
    }

    /// Resolves pending impacts in time order until none is left (or the backstop is reached),
    /// an instant at a time (`resolve_instant`).
    fn drain_queue(&mut self) {
        // (The instant's containers are the pass's, kept between drains.)
        let mut instant = std::mem::take(&mut self.buf.instant);
        instant.settled.clear();
        instant.settled_at = Real::NAN;
        while let Some(Reverse(first)) = self.buf.queue.pop() {
            if first.is_live(&self.buf.segments) && !self.resolve_instant(first, &mut instant) {
                // A kinematic body driving into bodies that are already stopped would otherwise
                // meet them again at the same time forever. What is left is the final check's.
                self.buf.queue.clear();
                break;
            }
        }
        self.buf.instant = instant;
    }

    /// Resolves the impacts of one instant (the time of `first`, a live pending impact) together
    /// (`docs/continuous.md`, "Impacts of one instant"): each gets its impulse, in queue order,
    /// then the bodies around all of them are settled as one group, and those it moved are
    /// re-swept once. An impact of the instant sharing a moving body with one already struck
    /// gets no impulse of its own: between bodies that press on others it joins the settling,
    /// which solves its contact with the rest; between isolated bodies (a bounce passed on down a
    /// row) it is left, stale, to the re-sweep of the new segment the struck one gives that body,
    /// in time order. An impact with a static or kinematic body is resolved on its own, and those
    /// of the instant met while gathering others go back to the queue, for after them (a group
    /// pressed on an immovable body is the squeeze's, which solves one impact's group exactly).
    /// Returns `false` when the backstop was reached.
    fn resolve_instant(&mut self, first: PendingImpact, instant: &mut Instant) -> bool {
        let t = first.t;
        let alone = !(self.movable(first.a) && self.movable(first.b));
        instant.seeds.clear();
        instant.struck.clear();
        let mut within_backstop = true;
        let mut next = Some(first);
        while let Some(pending) = next.take() {
            let (a, b) = (pending.a, pending.b);
            let shares = [a, b]
                .iter()
                .any(|&i| self.movable(i) && instant.struck.contains(&i));
            let joins = shares && !self.isolated(a, b);
            if !shares || joins {
                self.processed += 1;
                if self.past_backstop() {
                    within_backstop = false;
                    break;
                }
            }
            let settle = if shares {
                if joins {
                    // (Woken, as `strike` wakes the bodies it strikes.)
                    self.wake_body(a);
                    self.wake_body(b);
                }
                joins
            } else {
                match self.strike(&pending) {
                    Struck::Nothing => false,
                    Struck::Settle => true,
                    Struck::Restart { over_budget } => {
                        self.restart(&[a, b], &[(a, b)], t, over_budget);
                        false
                    }
                }
            };
            if settle {
                instant.struck.extend([a, b]);
                instant.seeds.push((a, b));
            }
            // The next live impact of the instant between two dynamic bodies.
            while !alone && self.buf.queue.peek().is_some_and(|Reverse(p)| p.t == t) {
                let Some(Reverse(p)) = self.buf.queue.pop() else {
                    break;
                };
                if !p.is_live(&self.buf.segments) {
                    continue;
                }
                if self.movable(p.a) && self.movable(p.b) {
                    next = Some(p);
                    break;
                }
                instant.deferred.push(p);
            }
        }
        for p in instant.deferred.drain(..) {
            self.buf.queue.push(Reverse(p));
        }
        if !instant.seeds.is_empty() {
            if t != instant.settled_at {
                instant.settled.clear();
                instant.settled_at = t;
            }
            // A body settled `CASCADE_SETTLINGS` times at this instant is in a cascade: the blow
            // runs on through a pile ring by ring, each ring's settling pushing the next into its
            // neighbours. Its group grows as far as the blow pushes.
            let times = |i: u32| instant.settled.get(&i).copied().unwrap_or(0);
            let grow = instant
                .seeds
                .iter()
                .any(|&(a, b)| times(a).max(times(b)) >= CASCADE_SETTLINGS);
            let seeds = std::mem::take(&mut instant.seeds);
            let members = self.settle_group(&seeds, t, grow);
            for &i in &members {
                *instant.settled.entry(i).or_insert(0) += 1;
            }
            self.restart(&members, &seeds, t, false);
            instant.seeds = seeds;
        }
        within_backstop
    }

    /// Builds every body's segment from the solver's motion and lists the fast bodies in `fast`:
    /// those whose outline moves more than half the speculative distance.
    fn start(&mut self, angles: &[Real], fast: &mut Vec<u32>) {
        let half = SPECULATIVE_DISTANCE / 2.0;
        // Every body's segment is written below or still holds; keys without a body keep what
        // they held (nothing asks for them), so the buffer is not refilled first.
        self.buf
            .segments
            .resize(self.bodies.key_bound(), Segment::still(Transform::IDENTITY));
        // The per-body box caches keep their entries: those of earlier passes never match.
        self.buf.pass += 1;
        let (none, key_bound) = (CachedBox::NONE, self.bodies.key_bound());
        if self.buf.boxes_at.len() < key_bound {
            self.buf
                .boxes_at
                .resize(key_bound, std::cell::Cell::new(none));
            self.buf.swept_boxes.resize(key_bound, none);
        }
        fast.clear();
        let segments = &mut self.buf.segments;
        let mut write = |key: u32, b: &crate::dynamics::Body| {
            let lin = b.pose.translation - b.previous_pose.translation;
            let ang = if b.kind == BodyKind::Static {
                0.0
            } else {
                angles[key as usize]
            };
            let s = Segment {
                lin,
                ang,
                solver_lin: lin,
                solver_ang: ang,
                ..Segment::still(b.previous_pose)
            };
            segments[key as usize] = s;
            if b.kind != BodyKind::Static && s.lin.length() + s.ang.abs() * b.core_reach > half {
                fast.push(key);
            }
        };
        // When the last pass ran in the previous step, only the moving set and the resting bodies
        // that came to rest or were touched since need a new segment (`BodySet::stepped`; a new
        // body is a touched one): any other resting body keeps the still segment a pass wrote.
        if self.buf.last_step.is_some_and(|s| s + 1 == self.clock.step) {
            for &key in self.bodies.stepped() {
                write(key, self.bodies.at(key));
            }
            for (key, b) in self.bodies.iter_moving() {
                write(key, b);
            }
        } else {
            for (key, b) in self.bodies.iter() {
                write(key, b);
            }
        }
        self.buf.last_step = Some(self.clock.step);
        #[cfg(debug_assertions)]
        for (key, b) in self.bodies.iter() {
            if b.is_resting() {
                let s = &self.buf.segments[key as usize];
                assert!(
                    s.pose0 == b.pose && s.lin == Vec2::ZERO && s.ang == 0.0 && s.version == 0,
                    "body {key} rests with a still segment at its pose"
                );
            }
        }
        // Bodies a kinematic body presses on, and the bodies of bounces (the pass's to resolve),
        // are checked whatever their speed (see `pressed` and `bouncing`).
        fast.extend((0..self.pressed.len() as u32).filter(|&i| self.is_pressed(i)));
        fast.extend_from_slice(self.bouncing);
        fast.sort_unstable();
        fast.dedup();
    }

    /// Whether a meeting of bodies `a` and `b` is an isolated one: neither is a dynamic body the
    /// solver pressed against a third at the last step (`supported`). Only an isolated meeting
    /// bounces as the pass's own impact, in time order (an exact bounce, Newton's cradle); in a
    /// pile a blow is shared with what the bodies press on at the same instant, and the group
    /// solve and the solver apply restitution there (`docs/continuous.md`, "Bounces").
    pub(super) fn isolated(&self, a: u32, b: u32) -> bool {
        isolated(self.supported, a, b)
    }

    /// Gives body `i` a new segment from step fraction `t` with displacement `lin` and turn
    /// `ang` per unit step (`Segment::replaced`, with the body's core reach), and lists it for the
    /// final check.
    pub(super) fn replace_segment(&mut self, i: u32, t: Real, lin: Vec2, ang: Real) {
        let old = self.buf.segments[i as usize];
        if !old.changed {
            self.buf.changed.push(i);
        }
        let core_reach = self.bodies.at(i).core_reach;
        self.buf.segments[i as usize] = old.replaced(t, lin, ang, core_reach);
        self.buf.restarted.push(i);
    }

    /// Whether a kinematic body presses on body `i` this step (see `pressed`).
    pub(super) fn is_pressed(&self, i: u32) -> bool {
        self.pressed.get(i as usize).copied().unwrap_or(false)
    }

    /// Whether impulses may move body `i` in this pass: dynamic and not pinned.
    pub(super) fn movable(&self, i: u32) -> bool {
        self.bodies.at(i).is_dynamic() && !self.buf.pinned.contains(&i)
    }

    /// Body `i`'s inverse mass for the pass's impulses: zero when it is pinned (or asleep,
    /// static or kinematic).
    pub(super) fn inv_mass(&self, i: u32) -> crate::dynamics::contact_math::InverseMass {
        if self.buf.pinned.contains(&i) {
            crate::dynamics::contact_math::InverseMass::default()
        } else {
            self.bodies.at(i).inverse_mass()
        }
    }

    /// Pins dynamic body `i` at step fraction `t` for the rest of the step: held still there
    /// (reported in [`StepEvents::held`]), immovable to the pass's impulses from then on (see
    /// `pinned`), and with its velocity zeroed: it is pressed against a static body, and a body
    /// whose pose stands still while it keeps a velocity into that body would carry it into the
    /// next step's contacts (and, pinned step after step, gain speed under gravity without moving).
    pub(super) fn pin(&mut self, i: u32, t: Real) {
        if !self.buf.pinned.contains(&i) {
            self.buf.pinned.push(i);
            self.stop_at(i, t);
            let body = self.bodies.at_mut(i);
            body.linear_velocity = Vec2::ZERO;
            body.angular_velocity = 0.0;
        }
    }

    /// Whether the cores of bodies `a` and `b` overlap ([`cores_overlap`]) where their segments
    /// stand at the later of their start times.
    pub(super) fn cores_overlap_now(&self, a: u32, b: u32) -> bool {
        let (sa, sb) = (
            &self.buf.segments[a as usize],
            &self.buf.segments[b as usize],
        );
        let t = sa.t0.max(sb.t0);
        cores_overlap_at(
            self.bodies.at(a),
            &sa.pose_at(t),
            self.bodies.at(b),
            &sb.pose_at(t),
        )
    }

    /// Whether the pass has processed so many pending impacts, or examined so many candidate
    /// pairs, that it stops re-sweeping.
    fn past_backstop(&self) -> bool {
        self.processed > RESWEEP_FACTOR * self.config.max_impacts_per_step
            || self.work.get() > self.work_budget
    }

    /// Stops body `i`'s motion at `t` for the rest of the step, keeping its velocity for the next
    /// (it loses time, not momentum), and reports it as held: the pass's answer once its impact
    /// budget is spent (see `impact.rs`, `resolve`) and the final check's last resort (see
    /// `verify.rs`).
    pub(super) fn stop_at(&mut self, i: u32, t: Real) {
        // A body that stands still is not checked from its own side (`verify::find_overlaps`):
        // whatever can reach it is checked from theirs.
        let list = self.candidates(i, t);
        for &c in &list {
            if let Some(flag) = self.buf.swept_first.get_mut(c as usize) {
                *flag = true;
            }
        }
        self.give_back(list);
        self.replace_segment(i, t, Vec2::ZERO, 0.0);
        if !std::mem::replace(&mut self.buf.held[i as usize], true) {
            let id = self.bodies.id(i);
            self.events.held.push(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbour index against brute force, dense and sparse: for random contact sets
    /// (inserted in random order, either body first), every body's partners are exactly the
    /// other bodies of its contacts, in increasing order, each with its own contact's index, found
    /// from either body; a body without a contact with it finds none.
    #[test]
    fn neighbours_are_every_contact_in_key_order() {
        let mut word = crate::math::xorshift64(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u32| (word() % u64::from(n)) as u32;
        let mut neighbours = Neighbours::default();
        for case in 0..50 {
            let bodies = 2 + next(40);
            let tries = next(200);
            let contacts = crate::world::contact_set::random_contacts(&mut next, bodies, tries);
            let sparse = case % 2 == 1;
            if sparse {
                neighbours.start_sparse();
                // Before any row is built, from the contact set's own index.
                for (k, c) in contacts.as_slice().iter().enumerate() {
                    assert_eq!(neighbours.entry_between(c.b, c.a, &contacts), Some(k));
                }
                for k in (0..bodies).rev() {
                    neighbours.ensure_row(k, &contacts);
                }
            } else {
                neighbours.start(&contacts, bodies as usize);
            }
            for k in 0..bodies {
                let mut expected: Vec<(u32, u32)> = contacts
                    .as_slice()
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| match (c.a == k, c.b == k) {
                        (true, _) => Some((c.b, i as u32)),
                        (_, true) => Some((c.a, i as u32)),
                        _ => None,
                    })
                    .collect();
                expected.sort_unstable();
                let got: Vec<(u32, u32)> = neighbours
                    .contacts_of(k)
                    .iter()
                    .map(|&p| {
                        (
                            p,
                            neighbours.contact_between(k, p, &contacts).unwrap() as u32,
                        )
                    })
                    .collect();
                assert_eq!(got, expected, "case {case} (sparse: {sparse}), body {k}");
                assert_eq!(neighbours.degree(k, &contacts) as usize, expected.len());
                for (n, &(p, contact)) in expected.iter().enumerate() {
                    let entry = neighbours.entry_of(k, n);
                    assert_eq!(neighbours.contact_at(entry), contact as usize);
                    let from_p = neighbours.entry_between(p, k, &contacts);
                    assert_eq!(
                        from_p.map(|e| neighbours.contact_at(e)),
                        Some(contact as usize)
                    );
                }
                let stranger = (0..bodies).find(|&o| o != k && !expected.iter().any(|e| e.0 == o));
                if let Some(o) = stranger {
                    assert_eq!(neighbours.entry_between(k, o, &contacts), None);
                }
            }
        }
    }
}
