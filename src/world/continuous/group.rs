//! Settling the bodies an impact touches: after an impact's impulse, the two bodies and the
//! dynamic bodies touching them at the impact time are solved together (sequential impulses,
//! non-penetration and Coulomb friction over every contact among them at that moment, static and
//! kinematic neighbours immovable), as Box2D v2.4's time-of-impact sub-step solved the touching
//! island. A bullet that drives a crate into a wall stops with the crate against the wall instead of
//! pushing it in; a body hit while resting between two others shares the blow with them; momentum is
//! kept (the impulses act between the bodies). A contact that must bounce (restitution, closing
//! faster than the threshold) is left out: its bounce is an impact of its own, resolved next in
//! time order, so a bounce still travels down a row of touching bodies (Newton's cradle).
//!
//! The impacts of one instant are settled as one group. Where a blow runs on through a pile
//! (a body settled `CASCADE_SETTLINGS` times at one instant), the group grows by constraint
//! generation: solved, then joined by the neighbours its members now push into, and solved again,
//! until nothing closes across its boundary or it is full (`docs/continuous.md`, "Impacts of one
//! instant").
//!
//! Bodies jointed to the group move with it (`group_joints.rs`). When their joints form a tree
//! and the group has few contact rows, the contacts are solved exactly through the tree (each
//! row's response carried by the joints, then a small complementarity problem:
//! `GroupTable::solve_through_tree`); otherwise sequential-impulse sweeps over the contacts
//! alternate with the tree's exact projection, or with the joints swept one by one when they
//! close loops.

use super::group_joints::{GroupJoint, GroupJointKind};
use super::impact::SavedVelocity;
use super::joint_tree::{JointTree, Row, Rows, TreeJoint};
use super::schedule::bounces;
use super::{ContinuousPass, VERIFY_DEPTH};
use crate::constants::LINEAR_SLOP;
use crate::dynamics::body::{bodies_relative_velocity, PairFilter};
use crate::dynamics::contact::is_ghost;
use crate::dynamics::contact_math::{inverse_effective_mass, relative_velocity, InverseMass};
use crate::dynamics::BodyKind;
use crate::math::{Real, Vec2};
use crate::query::{for_each_piece_pair, local_manifold, MAX_MANIFOLD_POINTS};
use crate::world::contact_set::{pair_key, PairHasher};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Largest distance (metres) a group settling's change of a member's velocity may move any point
/// of it over the rest of the step for the member to keep its segment (a *nudge*; see
/// `settle_group`): a tenth of the slop.
const NUDGE_DEPTH: Real = 0.1 * LINEAR_SLOP;

/// Sequential-impulse sweeps over a group's contacts.
const GROUP_ITERATIONS: usize = 8;

/// Largest change of a point's normal velocity (m/s) in a sweep at which the sweeps of a group
/// solved again after it grew stop early (it starts from the impulses it has).
const GROUP_TOLERANCE: Real = 1e-4;

/// Most bodies settled with one impact through contacts (the two and their touching neighbours):
/// a bound on the work of one impact in a dense pile.
const MAX_GROUP_BODIES: usize = 32;

/// Most bodies one settling takes in, however many impacts of one instant it settles: a bound on
/// the work of one settling (its solves and its members' re-sweeps).
const MAX_SETTLING_BODIES: usize = 256;

/// Most contacts (counted at the start of the pass) the bodies of one impact's group may have
/// together before it stops taking members: the group's cost is its members' candidates, and in a
/// heap of bodies created overlapping each has hundreds. A pile's bodies have a handful each, so
/// there `MAX_GROUP_BODIES` decides.
const MAX_GROUP_DEGREE: u32 = 512;

/// Most contact rows (a normal and a tangent per point) a group whose joints form a tree solves
/// exactly through the tree (`GroupTable::solve_through_tree`): each row costs one projection of
/// the tree, as one sweep of the iterative solve does. Larger groups (a jointed body landing in
/// a pile) take the sweeps.
const MAX_EXACT_ROWS: usize = 16;

/// Most projected Gauss–Seidel iterations of an exact solve through a tree; it stops earlier once
/// no row's velocity changes by more than `EXACT_TOLERANCE`.
const MAX_EXACT_ITERATIONS: usize = 512;

/// Largest change of a row's velocity (relative to the group's largest row velocity, or m/s
/// when that is below 1 m/s) at which the exact solve's iterations stop.
const EXACT_TOLERANCE: Real = 1e-12;

/// Largest relative speed (m/s, rad/s) a group joint may keep when its sweeps stop early.
const GROUP_JOINT_TOLERANCE: Real = 1e-4;

/// Most sweeps of a group's joints in one impact.
const MAX_JOINT_SWEEPS: usize = 4096;

/// Largest condition estimate (`k11² / det K`) of a two-point contact's matrix that is solved
/// as a block (`GroupTable::solve_two_points`); past it the points are solved one by one. As
/// Box2D v2.4's block solver.
const MAX_BLOCK_CONDITION: Real = 1000.0;

/// Relative round-off allowed when checking a block solution's complementarity.
const BLOCK_TOLERANCE: Real = 1e-12;

/// Reference-face bias of the group's manifolds (metres), as the narrow phase's.
const GROUP_FACE_BIAS: Real = 0.1 * LINEAR_SLOP;

/// One point of a group contact (world).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct GroupPoint {
    /// Offsets from A's and B's centres of mass at the impact time (metres).
    pub ra: Vec2,
    pub rb: Vec2,
    /// Least normal velocity (m/s): 0 when touching, or closing the gap over the rest of the step.
    pub target: Real,
    pub normal_impulse: Real,
    pub tangent_impulse: Real,
}

/// A group contact's inverse effective masses (1/kg), fixed while its group is solved.
#[derive(Clone, Copy, Debug, Default)]
struct ContactMasses {
    /// Per point, along the contact normal and along its tangent.
    normal: [Real; MAX_MANIFOLD_POINTS],
    tangent: [Real; MAX_MANIFOLD_POINTS],
    /// A two-point contact's coupling `k12` and the determinant of its 2×2 normal block, when
    /// the block is well enough conditioned to solve (`solve_two_points`).
    block: Option<(Real, Real)>,
}

/// A contact between two bodies of a group at the impact time.
#[derive(Clone, Copy, Debug)]
pub(super) struct GroupContact {
    pub a: u32,
    pub b: u32,
    /// Unit normal from A toward B (world).
    pub normal: Vec2,
    pub friction: Real,
    pub points: [GroupPoint; MAX_MANIFOLD_POINTS],
    pub count: usize,
}

/// A group being gathered (`ContinuousPass::settle_group`): its members in the order they
/// joined, with their velocities before the settling, where each is listed, whether its contacts
/// are in, and its contacts.
#[derive(Debug, Default)]
pub(super) struct GroupBuild {
    members: Vec<u32>,
    saved: Vec<SavedVelocity>,
    index: HashMap<u32, usize, BuildHasherDefault<PairHasher>>,
    expanded: Vec<bool>,
    contacts: Vec<GroupContact>,
    /// The members' contacts at the start of the pass (`Neighbours::degree`), summed.
    degree: u32,
    /// Members' contacts as `expand` found them, by `found_at` (the range of the `k`-th
    /// member's, once found).
    found: Vec<GroupContact>,
    found_at: Vec<Option<std::ops::Range<usize>>>,
}

impl GroupBuild {
    /// Empties the group, keeping its containers' memory.
    fn clear(&mut self) {
        self.members.clear();
        self.saved.clear();
        self.index.clear();
        self.expanded.clear();
        self.contacts.clear();
        self.degree = 0;
        self.found.clear();
        self.found_at.clear();
    }

    /// Makes dynamic body `i` a member (not yet expanded).
    fn add(&mut self, pass: &ContinuousPass<'_>, i: u32) {
        self.index.insert(i, self.members.len());
        self.members.push(i);
        self.saved.push(pass.saved_velocity(i));
        self.expanded.push(false);
        self.found_at.push(None);
        self.degree += pass.buf.neighbours.degree(i, pass.contacts);
    }
}

impl ContinuousPass<'_> {
    /// Settles the bodies around the impacts `seeds` (pairs of bodies) of one instant, step
    /// fraction `t` (after their impulses), as one group. Returns the dynamic bodies whose
    /// velocity the settling changed (the seeds' always), for new segments.
    ///
    /// The group starts as the seeds' bodies and the bodies touching them. With `grow` (a
    /// cascade, see `resolve_instant`), once solved, a member that now closes on a body it has
    /// not been settled with (a neighbour outside the group, or another member it was not solved
    /// against) brings its contacts and touching neighbours in and the group is solved again,
    /// until no member closes on anything outside or the group is full: a blow travels through
    /// a pile in one settling instead of an impact per ring (`docs/continuous.md`, "Impacts of
    /// one instant"). A group with joints or pressed on a static or kinematic body does not grow.
    pub(super) fn settle_group(&mut self, seeds: &[(u32, u32)], t: Real, grow: bool) -> Vec<u32> {
        // (The group's containers are the pass's, kept between settlings.)
        let mut group = std::mem::take(&mut self.buf.group);
        group.clear();
        for &(a, b) in seeds {
            for i in [a, b] {
                if self.movable(i) && !group.index.contains_key(&i) {
                    group.add(self, i);
                }
            }
        }
        let seeded = group.members.len();
        // Each impact brings up to `MAX_GROUP_BODIES` bodies and `MAX_GROUP_DEGREE` contacts, and
        // one settling takes at most `MAX_SETTLING_BODIES`.
        let caps = (
            (MAX_GROUP_BODIES * seeds.len()).min(MAX_SETTLING_BODIES),
            MAX_GROUP_DEGREE * seeds.len() as u32,
        );
        // The seeds' touching neighbours join them; when the group touches a kinematic body, so
        // do theirs, and so on (a kinematic body presses through a whole stack to the static
        // world, and the group must see that to squeeze it out; see `squeeze.rs`).
        let mut transitive = false;
        let mut next = 0;
        while next < group.members.len() && (next < seeded || transitive) {
            transitive |= self.expand(&mut group, next, t, caps, false).1;
            next += 1;
        }
        // Bodies jointed to the group take the blow with it: an articulated body moves whole.
        let mut joints = self.group_joints(&mut group.members, t);
        for k in group.saved.len()..group.members.len() {
            let i = group.members[k];
            group.saved.push(self.saved_velocity(i));
            group.index.insert(i, k);
            group.expanded.push(true);
            group.found_at.push(None);
        }
        if !(group.contacts.is_empty() && joints.is_empty()) {
            // Contacts with a body that did not make it into the group are left out (kept
            // immovable there would not conserve momentum).
            let index = &group.index;
            let inside = |i: u32| !self.movable(i) || index.contains_key(&i);
            group.contacts.retain(|k| inside(k.a) && inside(k.b));
            self.solve_group(&mut group.contacts, &mut joints);
            // (A jointed group is solved once, with its joints, as it was gathered.)
            // (A group pressed on something immovable is the squeeze's: see `squeeze.rs`. Only
            // a group free of static and kinematic contacts grows.)
            let free = |this: &Self, contacts: &[GroupContact]| {
                contacts
                    .iter()
                    .all(|k| this.movable(k.a) && this.movable(k.b))
            };
            while grow
                && joints.is_empty()
                && group.members.len() < caps.0
                && free(self, &group.contacts)
            {
                let mut grew = false;
                for k in 0..group.members.len() {
                    if !group.expanded[k] && group.members.len() < caps.0 {
                        grew |= self.expand(&mut group, k, t, caps, true).0;
                    }
                }
                if !grew {
                    break;
                }
                self.solve_group_from(&mut group.contacts, &mut joints, true);
            }
            // Pressed against immovable bodies beyond what a few sweeps settle: see `squeeze.rs`.
            if self.pinned_group(&group.contacts) {
                self.squeeze(&mut group.contacts, &mut joints, &group.saved);
            }
        }
        // A neighbour the settling left as it was keeps its motion: a new segment for it would
        // only trade the solver's motion for its velocity times the rest of the step, and
        // re-sweep pairs that nothing changed. So does one it *nudged*, changing its velocity by
        // less than would move any point of it by `NUDGE_DEPTH` over the rest of the step: its
        // path stays the one the pass has checked, and the solver starts the next step from the
        // new velocity. A body is nudged once a pass; its next change gives it a new segment.
        let rest_of_step = self.rest_of_step(t);
        let mut moved = Vec::with_capacity(group.members.len());
        for (k, (&i, saved)) in group.members.iter().zip(&group.saved).enumerate() {
            let body = self.bodies.at(i);
            let unchanged = (body.linear_velocity, body.angular_velocity) == (saved.1, saved.2);
            if k < seeded {
                moved.push(i);
            } else if !unchanged {
                let change = self.velocity_change(saved) * rest_of_step;
                let nudged = &mut self.buf.nudged[i as usize];
                if change > NUDGE_DEPTH || *nudged {
                    moved.push(i);
                } else {
                    *nudged = true;
                }
            }
        }
        self.buf.group = group;
        moved
    }

    /// Gathers the contacts of the group's `k`-th member at step fraction `t` with every body its
    /// swept box reaches (but members already expanded, whose contact with it is in), and brings
    /// the dynamic bodies it touches into the group, up to `caps` (bodies, contacts at the start
    /// of the pass). With `if_closing`, only if one of those contacts closes faster than its
    /// target. Returns whether it expanded the member, and whether it touches a kinematic body.
    fn expand(
        &mut self,
        group: &mut GroupBuild,
        k: usize,
        t: Real,
        (most_bodies, most_degree): (usize, u32),
        if_closing: bool,
    ) -> (bool, bool) {
        let i = group.members[k];
        // Only the settling's own push can make a member close on a body outside: one it moved
        // too little to sink anything by `VERIFY_DEPTH` is not looked at (nor are its contacts
        // gathered).
        if if_closing
            && self.velocity_change(&group.saved[k]) * self.rest_of_step(t) <= VERIFY_DEPTH
        {
            return (false, false);
        }
        // The bodies' poses at `t` do not change while the group settles: a member's contacts
        // are found once, and only their velocities are read again.
        let range = match group.found_at[k].clone() {
            Some(range) => range,
            None => {
                let start = group.found.len();
                let list = self.candidates(i, t);
                for &c in &list {
                    if group.index.get(&c).is_some_and(|&m| group.expanded[m]) {
                        continue; // their contact was added when `c` was expanded
                    }
                    if self.heap_pair(i, c) {
                        continue; // deep inside each other in a heap: the solver's to push apart
                    }
                    // An impact pair's own contact is in too (just resolved, it only acts if
                    // another contact would push the two back into each other).
                    self.group_contact(i, c, t, &mut group.found);
                }
                self.give_back(list);
                let range = start..group.found.len();
                group.found_at[k] = Some(range.clone());
                range
            }
        };
        let other = |contact: &GroupContact| if contact.a == i { contact.b } else { contact.a };
        // (A contact with a member expanded since it was found is in already.)
        let outside = |group: &GroupBuild, contact: &GroupContact| {
            !group
                .index
                .get(&other(contact))
                .is_some_and(|&m| group.expanded[m])
        };
        if if_closing
            && !group.found[range.clone()]
                .iter()
                .any(|c| outside(group, c) && self.closes(c, t))
        {
            return (false, false);
        }
        group.expanded[k] = true;
        let mut kinematic = false;
        for f in range {
            let contact = group.found[f];
            if !outside(group, &contact) {
                continue;
            }
            let c = other(&contact);
            kinematic |= self.bodies.at(c).kind == BodyKind::Kinematic;
            if self.movable(c) && !group.index.contains_key(&c) {
                if group.members.len() >= most_bodies || group.degree >= most_degree {
                    continue; // left out with its contact (see `settle_group`)
                }
                self.wake_body(c); // (asleep: it takes its share of the blow)
                group.add(self, c);
            }
            group.contacts.push(contact);
        }
        (true, kinematic)
    }

    /// Seconds left in the step from step fraction `t` (never zero: it divides).
    fn rest_of_step(&self, t: Real) -> Real {
        ((1.0 - t) * self.config.dt).max(Real::MIN_POSITIVE)
    }

    /// How fast (m/s) a point of body `i`'s core can move now relative to how it moved at the
    /// velocities `saved` (its key, linear and angular velocity then): `|Δv| + |Δω|·core reach`.
    fn velocity_change(&self, &(i, v, w): &SavedVelocity) -> Real {
        let body = self.bodies.at(i);
        (body.linear_velocity - v).length() + (body.angular_velocity - w).abs() * body.core_reach
    }

    /// Whether some point of a group contact, at the bodies' present velocities, closes past its
    /// target by enough to sink more than `VERIFY_DEPTH` over the rest of the step from step
    /// fraction `t`: what the pass would resolve as an impact (`strike`).
    fn closes(&self, contact: &GroupContact, t: Real) -> bool {
        let (ba, bb) = (self.bodies.at(contact.a), self.bodies.at(contact.b));
        let allowed = VERIFY_DEPTH / self.rest_of_step(t);
        contact.points[..contact.count].iter().any(|p| {
            let vn = bodies_relative_velocity(ba, p.ra, bb, p.rb).dot(contact.normal);
            vn < p.target - allowed
        })
    }

    /// Appends the contact of bodies `i` and `c` at step fraction `t` if they touch (within the
    /// slop) and it is not a bounce of its own.
    fn group_contact(&self, i: u32, c: u32, t: Real, out: &mut Vec<GroupContact>) {
        let (a, b) = pair_key(i, c);
        if self.buf.disabled.contains(&(a, b)) || self.buf.yielded.contains(&(a, b)) {
            return; // the hooks disabled the pair's impact, or a kinematic body passes this step
        }
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        let (xa, xb) = (
            self.buf.segments[a as usize].pose_at(t),
            self.buf.segments[b as usize].pose_at(t),
        );
        let pieces_filtered = ba.pair_filter(bb) == PairFilter::Pieces;
        let rest_of_step = self.rest_of_step(t);
        let (ca, cb) = (xa.translation, xb.translation);
        let isolated = self.isolated(a, b);
        for_each_piece_pair(
            &ba.com_shape,
            &xa,
            &bb.com_shape,
            &xb,
            LINEAR_SLOP,
            &mut |sa, xsa, sb, xsb, ia, ib| {
                if pieces_filtered && !ba.pieces_collide(ia, bb, ib) {
                    return;
                }
                let Some(m) = local_manifold(sa, xsa, sb, xsb, LINEAR_SLOP, GROUP_FACE_BIAS) else {
                    return;
                };
                let (mut friction, mut restitution) = self.config.piece_material(ba, ia, bb, ib);
                // What the hooks said of this pair of shapes this step, if they were asked.
                if let Some((_, verdicts)) = &self.hooks {
                    let shapes = (self.bodies.shape_id(a, ia), self.bodies.shape_id(b, ib));
                    match verdicts.get(shapes.0, shapes.1) {
                        Some(None) => return, // disabled
                        Some(Some(m)) => (friction, restitution) = m,
                        None => {}
                    }
                }
                let normal = xsa.transform_vector(m.normal);
                let points = || {
                    m.points[..m.count]
                        .iter()
                        .map(|p| xsa.transform_point(p.point))
                };
                if is_ghost(&ba.com_shape, ia, sa, xsa, normal, points())
                    || is_ghost(&bb.com_shape, ib, sb, xsb, -normal, points())
                {
                    return; // a chain's ghost contact (see `contact::is_ghost`)
                }
                let mut contact = GroupContact {
                    a,
                    b,
                    normal,
                    friction,
                    points: [GroupPoint::default(); MAX_MANIFOLD_POINTS],
                    count: 0,
                };
                for p in m.points[..m.count]
                    .iter()
                    .filter(|p| p.separation <= LINEAR_SLOP)
                {
                    let world = xsa.transform_point(p.point);
                    let (ra, rb) = (world - ca, world - cb);
                    let vn = bodies_relative_velocity(ba, ra, bb, rb).dot(normal);
                    let push_out = -p.separation.max(0.0) / rest_of_step;
                    let target = if bounces(
                        self.config,
                        restitution,
                        -vn,
                        self.impacts_in_row(a, b, t, vn),
                    ) {
                        if isolated {
                            return; // a bounce of its own: resolved as an impact, in time order
                        }
                        // In a pile the group shares the blow, with the restitution it says.
                        push_out.max(-restitution * vn)
                    } else {
                        push_out
                    };
                    contact.points[contact.count] = GroupPoint {
                        ra,
                        rb,
                        target,
                        ..GroupPoint::default()
                    };
                    contact.count += 1;
                }
                if contact.count > 0 {
                    out.push(contact);
                }
            },
        );
    }

    /// Sequential impulses over the group's contacts: non-penetration up to each point's target
    /// and Coulomb friction, accumulated and clamped.
    ///
    /// Contacts with static bodies are solved last in every iteration, so the static world wins
    /// where a few sweeps cannot satisfy every contact; a group left closing on an immovable body
    /// is then solved exactly (`squeeze.rs`).
    pub(super) fn solve_group(&mut self, contacts: &mut [GroupContact], joints: &mut [GroupJoint]) {
        self.solve_group_from(contacts, joints, false);
    }

    /// [`solve_group`](Self::solve_group); `warm` for a group solved again after it grew, which
    /// starts from the impulses it has and stops sweeping once a sweep changes no point's normal
    /// velocity by `GROUP_TOLERANCE`.
    fn solve_group_from(
        &mut self,
        contacts: &mut [GroupContact],
        joints: &mut [GroupJoint],
        warm: bool,
    ) {
        let kind = |i: u32| self.bodies.at(i).kind;
        contacts.sort_by_key(|k| kind(k.a) == BodyKind::Static || kind(k.b) == BodyKind::Static);
        // The sweeps work on a table of the group's bodies (velocities, inverse masses, whether
        // impulses move them), written back at the end: the same arithmetic, without looking
        // each body up twice per impulse.
        let mut table = GroupTable {
            bodies: Vec::with_capacity(2 * (contacts.len() + joints.len())),
            ..GroupTable::default()
        };
        let contact_slots: Vec<(usize, usize)> = contacts
            .iter()
            .map(|k| (table.slot(self, k.a), table.slot(self, k.b)))
            .collect();
        let joint_slots: Vec<(usize, usize)> = joints
            .iter()
            .map(|j| (table.slot(self, j.a), table.slot(self, j.b)))
            .collect();
        // Joints that form a tree are projected exactly each sweep (`joint_tree.rs`), in time
        // linear in the group's bodies; others (closed loops) are swept one by one.
        let tree = (!joints.is_empty())
            .then(|| table.joint_tree(joints, &joint_slots))
            .flatten();
        // Swept joints: sequential impulses spread a blow down a chain of n joints only in about
        // n² sweeps (Gauss–Seidel on a path): enough of them, capped (30 links: 1,800 sweeps of
        // 30 joints, about 0.3 ms), with their rows' effective masses, fixed during the sweeps.
        let swept: &[GroupJoint] = if tree.is_some() { &[] } else { joints };
        let iterations = if swept.is_empty() {
            GROUP_ITERATIONS
        } else {
            GROUP_ITERATIONS
                .max(2 * swept.len() * swept.len())
                .min(MAX_JOINT_SWEEPS)
        };
        let joint_rows: Vec<JointRows> = swept
            .iter()
            .zip(&joint_slots)
            .map(|(j, &(a, b))| JointRows::new(j, table.inv(a), table.inv(b)))
            .collect();
        // A tree of joints with a few contact rows is solved exactly (`solve_through_tree`); the
        // sweeps below alternate the tree's projection with the contacts, which converges slowly
        // when the joints pull a body back into its contact (a chain drawn over a corner kept two
        // thirds of its closing speed after each impact, a dozen impacts in a row at one place).
        if let Some(tree) = &tree {
            let rows: usize = contacts.iter().map(|k| 2 * k.count).sum();
            if rows <= MAX_EXACT_ROWS {
                table.solve_through_tree(tree, contacts, &contact_slots);
                table.write_back(self);
                return;
            }
        }
        let masses = table.contact_masses(contacts, &contact_slots);
        for sweep in 0..iterations {
            if let Some(tree) = &tree {
                table.project(tree);
            } else {
                // Joints converged (no relative velocity left to remove) after the contacts'
                // usual sweeps: done. A gentle touch of a jointed body stops after a few sweeps;
                // only a hard blow runs the long ones.
                let mut residual: Real = 0.0;
                for ((j, &(a, b)), rows) in swept.iter().zip(&joint_slots).zip(&joint_rows) {
                    residual = residual.max(table.solve_joint(j, a, b, rows));
                }
                if sweep >= GROUP_ITERATIONS && residual < GROUP_JOINT_TOLERANCE {
                    break;
                }
            }
            let residual = table.sweep_contacts(contacts, &contact_slots, &masses);
            if warm && swept.is_empty() && residual < GROUP_TOLERANCE {
                break;
            }
        }
        if let Some(tree) = &tree {
            // The joints hold exactly at the end; the contacts to the sweeps' accuracy.
            table.project(tree);
        }
        table.write_back(self);
    }

    /// Velocity of B's point at offset `rb` relative to A's point at offset `ra` (m/s).
    pub(super) fn relative_velocity_of(&self, a: u32, ra: Vec2, b: u32, rb: Vec2) -> Vec2 {
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(b));
        bodies_relative_velocity(ba, ra, bb, rb)
    }
}

/// One body of a group solve: its key, velocities (m/s, rad/s), inverse masses (zero for
/// immovable bodies, as `ContinuousPass::inv_mass`), whether impulses move it
/// (`ContinuousPass::movable`) and whether it is dynamic.
#[derive(Clone)]
struct GroupBody {
    key: u32,
    v: Vec2,
    w: Real,
    inv: InverseMass,
    movable: bool,
    dynamic: bool,
}

/// The bodies of one group solve, by slot.
#[derive(Clone, Default)]
struct GroupTable {
    bodies: Vec<GroupBody>,
    /// The slot of each body key in the table once it holds more than `SCANNED_SLOTS` bodies
    /// (the pass's cheap integer hash: a group is built per impact, and the standard hasher
    /// was 7% of the group solves' instructions); empty before, when the keys are scanned.
    slots: HashMap<u32, usize, BuildHasherDefault<PairHasher>>,
}

/// Bodies up to which a group table finds a key's slot by scanning its bodies: most groups
/// hold a few (an impact's pair alone, or with its touching neighbours), and a scan of a few
/// keys costs less than hashing one.
const SCANNED_SLOTS: usize = 16;

impl GroupTable {
    /// The slot of body `key`, added on first sight.
    fn slot(&mut self, pass: &ContinuousPass<'_>, key: u32) -> usize {
        let found = if self.bodies.len() <= SCANNED_SLOTS {
            self.bodies.iter().position(|b| b.key == key)
        } else {
            self.slots.get(&key).copied()
        };
        if let Some(i) = found {
            return i;
        }
        if self.bodies.len() == SCANNED_SLOTS {
            // Past the scanned size: the map takes over, with every key so far.
            self.slots
                .extend(self.bodies.iter().enumerate().map(|(i, b)| (b.key, i)));
        }
        if self.bodies.len() >= SCANNED_SLOTS {
            self.slots.insert(key, self.bodies.len());
        }
        let body = pass.bodies.at(key);
        self.bodies.push(GroupBody {
            key,
            v: body.linear_velocity,
            w: body.angular_velocity,
            inv: pass.inv_mass(key),
            movable: pass.movable(key),
            dynamic: body.is_dynamic(),
        });
        self.bodies.len() - 1
    }

    /// The inverse masses of slot `i`.
    fn inv(&self, i: usize) -> InverseMass {
        self.bodies[i].inv
    }

    /// The group's joints (at slots `slots`) factorised as a tree, or `None` when they do not
    /// form one (see `joint_tree.rs`).
    fn joint_tree(&self, joints: &[GroupJoint], slots: &[(usize, usize)]) -> Option<JointTree> {
        // The tree's rows take one inverse mass per body: a body with a locked translation
        // (`BodyDef::lock_x`) is left to the iterative solve, which takes its inverse mass per
        // axis.
        if self
            .bodies
            .iter()
            .any(|b| b.inv.linear != 0.0 && b.inv.axes != Vec2::ONE)
        {
            return None;
        }
        let inv: Vec<(Real, Real)> = self
            .bodies
            .iter()
            .map(|b| (b.inv.linear, b.inv.angular))
            .collect();
        let movable: Vec<bool> = self.bodies.iter().map(|b| b.movable).collect();
        let tree_joints = joints
            .iter()
            .zip(slots)
            .map(|(j, &(a, b))| {
                let (x, y, turn) = (Row::Linear(Vec2::X), Row::Linear(Vec2::Y), Row::Angular);
                let rows = match j.kind {
                    GroupJointKind::Point { angular: false } => Rows::new(&[x, y]),
                    GroupJointKind::Point { angular: true } => Rows::new(&[x, y, turn]),
                    GroupJointKind::Along { n } => Rows::new(&[Row::Linear(n)]),
                    GroupJointKind::Across { n, angular: false } => {
                        Rows::new(&[Row::Linear(n.perp())])
                    }
                    GroupJointKind::Across { n, angular: true } => {
                        Rows::new(&[Row::Linear(n.perp()), turn])
                    }
                };
                TreeJoint {
                    a,
                    b,
                    ra: j.ra,
                    rb: j.rb,
                    rows,
                }
            })
            .collect();
        JointTree::build(&inv, &movable, tree_joints)
    }

    /// The movable bodies' velocities replaced by the closest ones the joints of `tree` hold.
    fn project(&mut self, tree: &JointTree) {
        let mut v: Vec<[Real; 3]> = self.bodies.iter().map(|b| [b.v.x, b.v.y, b.w]).collect();
        tree.project(&mut v);
        for (b, v) in self.bodies.iter_mut().zip(v) {
            if b.movable {
                (b.v, b.w) = (Vec2::new(v[0], v[1]), v[2]);
            }
        }
    }

    /// Solves `contacts` (at `slots`) and the joints of `tree` together, exactly up to the
    /// iterations' tolerance: the velocities are first projected onto the joints (they hold),
    /// then each contact row `r` (a point's normal or tangent) gets its response `u_r`, the
    /// velocity change a unit impulse along it causes once the tree's joints carry it (a
    /// projection of the impulse's free response, which is linear: the immovable bodies do not
    /// move). The rows' coupled effective masses `A[s][r] = J_s·u_r` form a small system whose
    /// impulses projected Gauss–Seidel finds (normal impulses ≥ 0 up to each point's target,
    /// friction within the cone); the velocities are the projected ones plus `Σ u_r·λ_r`, so the
    /// joints hold exactly and every contact to the tolerance. The impulses are left in the
    /// contacts' points.
    fn solve_through_tree(
        &mut self,
        tree: &JointTree,
        contacts: &mut [GroupContact],
        slots: &[(usize, usize)],
    ) {
        self.project(tree);
        // Rows: (contact, point, direction, normal row?), a point's normal before its tangent.
        let mut rows: Vec<(usize, usize, Vec2, bool)> = Vec::new();
        for (k, contact) in contacts.iter().enumerate() {
            for p in 0..contact.count {
                rows.push((k, p, contact.normal, true));
                rows.push((k, p, contact.normal.perp(), false));
            }
        }
        let n = self.bodies.len();
        // The velocity of row `s`'s direction at its point, relative (B's point less A's), for
        // body velocities `v`.
        let along = |s: usize, v: &[[Real; 3]]| {
            let (k, p, dir, _) = rows[s];
            let (a, b) = slots[k];
            let point = &contacts[k].points[p];
            let (va, vb) = (Vec2::new(v[a][0], v[a][1]), Vec2::new(v[b][0], v[b][1]));
            relative_velocity(va, v[a][2], point.ra, vb, v[b][2], point.rb).dot(dir)
        };
        let responses: Vec<Vec<[Real; 3]>> = (0..rows.len())
            .map(|s| {
                let (k, p, dir, _) = rows[s];
                let (a, b) = slots[k];
                let point = &contacts[k].points[p];
                let mut u = vec![[0.0; 3]; n];
                for (i, r, sign) in [(a, point.ra, -1.0), (b, point.rb, 1.0)] {
                    if self.bodies[i].movable {
                        let (dv, dw) = self.bodies[i].inv.response(r, sign * dir);
                        u[i] = [u[i][0] + dv.x, u[i][1] + dv.y, u[i][2] + dw];
                    }
                }
                tree.project(&mut u);
                u
            })
            .collect();
        let coupled: Vec<Vec<Real>> = (0..rows.len())
            .map(|s| responses.iter().map(|u| along(s, u)).collect())
            .collect();
        let current: Vec<[Real; 3]> = self.bodies.iter().map(|b| [b.v.x, b.v.y, b.w]).collect();
        let start: Vec<Real> = (0..rows.len()).map(|s| along(s, &current)).collect();
        let scale = start.iter().fold(1.0, |m: Real, v| m.max(v.abs()));
        let mut impulse = vec![0.0; rows.len()];
        for _ in 0..MAX_EXACT_ITERATIONS {
            let mut change: Real = 0.0;
            for s in 0..rows.len() {
                let diagonal = coupled[s][s];
                if diagonal <= 0.0 {
                    continue;
                }
                let (k, p, _, normal) = rows[s];
                let velocity = start[s]
                    + coupled[s]
                        .iter()
                        .zip(&impulse)
                        .map(|(c, l)| c * l)
                        .sum::<Real>();
                let new = if normal {
                    (impulse[s] + (contacts[k].points[p].target - velocity) / diagonal).max(0.0)
                } else {
                    // (The point's normal row is the one just before.)
                    let max = contacts[k].friction * impulse[s - 1];
                    (impulse[s] - velocity / diagonal).clamp(-max, max)
                };
                change = change.max((new - impulse[s]).abs() * diagonal);
                impulse[s] = new;
            }
            if change <= EXACT_TOLERANCE * scale {
                break;
            }
        }
        for (b, body) in self.bodies.iter_mut().enumerate() {
            if !body.movable {
                continue;
            }
            let mut v = [body.v.x, body.v.y, body.w];
            for (u, l) in responses.iter().zip(&impulse) {
                for i in 0..3 {
                    v[i] += u[b][i] * l;
                }
            }
            (body.v, body.w) = (Vec2::new(v[0], v[1]), v[2]);
        }
        for (s, &(k, p, _, normal)) in rows.iter().enumerate() {
            let point = &mut contacts[k].points[p];
            if normal {
                point.normal_impulse = impulse[s];
            } else {
                point.tangent_impulse = impulse[s];
            }
        }
    }

    /// The effective masses of `contacts` (at `slots`), which stay fixed while the group is
    /// solved: the offsets and the bodies' inverse masses do not change between sweeps.
    fn contact_masses(
        &self,
        contacts: &[GroupContact],
        slots: &[(usize, usize)],
    ) -> Vec<ContactMasses> {
        contacts
            .iter()
            .zip(slots)
            .map(|(k, &(a, b))| {
                let (ma, mb) = (self.inv(a), self.inv(b));
                let (n, tangent) = (k.normal, k.normal.perp());
                let mut masses = ContactMasses::default();
                for (i, p) in k.points[..k.count].iter().enumerate() {
                    masses.normal[i] = inverse_effective_mass(ma, p.ra, mb, p.rb, n);
                    masses.tangent[i] = inverse_effective_mass(ma, p.ra, mb, p.rb, tangent);
                }
                if k.count == 2 {
                    let (p1, p2) = (k.points[0], k.points[1]);
                    let (k11, k22) = (masses.normal[0], masses.normal[1]);
                    let k12 = ma.linear_along(n)
                        + mb.linear_along(n)
                        + ma.angular * p1.ra.perp_dot(n) * p2.ra.perp_dot(n)
                        + mb.angular * p1.rb.perp_dot(n) * p2.rb.perp_dot(n);
                    let det = k11 * k22 - k12 * k12;
                    if k11 > 0.0 && k22 > 0.0 && k11 * k11 < MAX_BLOCK_CONDITION * det {
                        masses.block = Some((k12, det));
                    }
                }
                masses
            })
            .collect()
    }

    /// One sweep of sequential impulses over `contacts` (at `slots`, with their effective
    /// `masses`): each point's normal impulse (a two-point contact's pair together when it can,
    /// `solve_two_points`), then its friction, accumulated and clamped.
    fn sweep_contacts(
        &mut self,
        contacts: &mut [GroupContact],
        slots: &[(usize, usize)],
        masses: &[ContactMasses],
    ) -> Real {
        let mut residual: Real = 0.0;
        for ((k, &(a, b)), m) in contacts.iter_mut().zip(slots).zip(masses) {
            let (n, tangent) = (k.normal, k.normal.perp());
            let before = [k.points[0].normal_impulse, k.points[1].normal_impulse];
            let together = m
                .block
                .is_some_and(|block| self.solve_two_points(a, b, k, m.normal, block));
            if together {
                for ((p, was), kn) in k.points.iter().zip(before).zip(m.normal) {
                    residual = residual.max((p.normal_impulse - was).abs() * kn);
                }
            }
            for (i, p) in k.points[..k.count].iter_mut().enumerate() {
                let kn = m.normal[i];
                if kn <= 0.0 {
                    continue;
                }
                if !together {
                    let vn = self.relative_velocity(a, p.ra, b, p.rb).dot(n);
                    let total = (p.normal_impulse + (p.target - vn) / kn).max(0.0);
                    let dj = total - p.normal_impulse;
                    p.normal_impulse = total;
                    self.push_impulse(a, b, p.ra, p.rb, dj * n);
                    residual = residual.max(dj.abs() * kn);
                }
                let kt = m.tangent[i];
                if kt <= 0.0 {
                    continue;
                }
                let vt = self.relative_velocity(a, p.ra, b, p.rb).dot(tangent);
                let max = k.friction * p.normal_impulse;
                let total_t = (p.tangent_impulse - vt / kt).clamp(-max, max);
                let djt = total_t - p.tangent_impulse;
                p.tangent_impulse = total_t;
                self.push_impulse(a, b, p.ra, p.rb, djt * tangent);
            }
        }
        residual
    }

    /// Velocity of B's point at offset `rb` relative to A's point at offset `ra` (m/s).
    #[inline]
    fn relative_velocity(&self, a: usize, ra: Vec2, b: usize, rb: Vec2) -> Vec2 {
        let (a, b) = (&self.bodies[a], &self.bodies[b]);
        relative_velocity(a.v, a.w, ra, b.v, b.w, rb)
    }

    /// Applies impulse `j` (N·s, world) at offsets `ra`, `rb`: −j to A, +j to B (movable only).
    #[inline]
    fn push_impulse(&mut self, a: usize, b: usize, ra: Vec2, rb: Vec2, j: Vec2) {
        let a = &mut self.bodies[a];
        if a.movable {
            let (dv, dw) = a.inv.response(ra, j);
            a.v -= dv;
            a.w -= dw;
        }
        let b = &mut self.bodies[b];
        if b.movable {
            let (dv, dw) = b.inv.response(rb, j);
            b.v += dv;
            b.w += dw;
        }
    }

    /// The normal impulses of a two-point contact `k` (slots `a`, `b`) solved together: the
    /// accumulated impulses `λ ≥ 0` with each point's normal velocity at or above its target and
    /// complementary to its impulse, `w = K·λ + b ≥ 0`, `λ·w = 0`, for the 2×2 matrix `K` of the
    /// points' coupled effective masses. The four cases (both points pushing, either alone,
    /// neither) are tried in turn, as Box2D v2.4's block solver does; one holds, so a flat face
    /// meeting a wall bounces in one pass with no spin left over, where point-by-point sweeps
    /// leave a residue (a block bouncing off a wall at 460 m/s kept 0.004 rad/s and lost 0.02
    /// m/s). `K` comes from `contact_masses`, which leaves it out when it is too ill-conditioned
    /// to invert (the two points nearly the same constraint): the caller then solves the points
    /// one by one, as it does when no case holds (this returns `false`, changing nothing).
    fn solve_two_points(
        &mut self,
        a: usize,
        b: usize,
        k: &mut GroupContact,
        [k11, k22]: [Real; MAX_MANIFOLD_POINTS],
        (k12, det): (Real, Real),
    ) -> bool {
        let n = k.normal;
        let (p1, p2) = (k.points[0], k.points[1]);
        let acc = [p1.normal_impulse, p2.normal_impulse];
        let vn = |this: &Self, p: &GroupPoint| this.relative_velocity(a, p.ra, b, p.rb).dot(n);
        // w = K·λ + b at the solution, with b the velocities above target less K·(what is
        // already applied).
        let b1 = vn(self, &p1) - p1.target - (k11 * acc[0] + k12 * acc[1]);
        let b2 = vn(self, &p2) - p2.target - (k12 * acc[0] + k22 * acc[1]);
        let both = [(k12 * b2 - k22 * b1) / det, (k12 * b1 - k11 * b2) / det];
        let candidates = [both, [-b1 / k11, 0.0], [0.0, -b2 / k22], [0.0, 0.0]];
        let holds = |x: &[Real; 2]| {
            let w1 = k11 * x[0] + k12 * x[1] + b1;
            let w2 = k12 * x[0] + k22 * x[1] + b2;
            // (Each case sets the velocity of its pushing points exactly; the others must not
            // be left below their targets, nor any impulse pull.)
            let tolerance = BLOCK_TOLERANCE * (b1.abs() + b2.abs());
            x[0] >= 0.0
                && x[1] >= 0.0
                && (x[0] > 0.0 || w1 >= -tolerance)
                && (x[1] > 0.0 || w2 >= -tolerance)
        };
        let Some(x) = candidates.iter().find(|x| holds(x)) else {
            return false;
        };
        for (i, p) in k.points[..2].iter_mut().enumerate() {
            let dj = x[i] - p.normal_impulse;
            p.normal_impulse = x[i];
            self.push_impulse(a, b, p.ra, p.rb, dj * n);
        }
        true
    }

    /// One sweep over a group joint (slots `a`, `b`): the relative velocity of its rigid parts
    /// removed. Returns the largest relative speed it removed (m/s, or rad/s for a turn).
    fn solve_joint(&mut self, j: &GroupJoint, a: usize, b: usize, rows: &JointRows) -> Real {
        let dir = |this: &mut Self, n: Vec2, k: Real| -> Real {
            if k <= 0.0 {
                return 0.0;
            }
            let vn = this.relative_velocity(a, j.ra, b, j.rb).dot(n);
            this.push_impulse(a, b, j.ra, j.rb, (-vn / k) * n);
            vn.abs()
        };
        let angular = |this: &mut Self| -> Real {
            let k = rows.angular;
            if k <= 0.0 {
                return 0.0;
            }
            let dw = this.bodies[b].w - this.bodies[a].w;
            let l = -dw / k;
            for (i, sign) in [(a, -1.0), (b, 1.0)] {
                let body = &mut this.bodies[i];
                if body.dynamic {
                    body.w += sign * body.inv.angular * l;
                }
            }
            dw.abs()
        };
        match j.kind {
            GroupJointKind::Point { angular: turn } => {
                let w = if turn { angular(self) } else { 0.0 };
                w.max(dir(self, Vec2::X, rows.first))
                    .max(dir(self, Vec2::Y, rows.second))
            }
            GroupJointKind::Along { n } => dir(self, n, rows.first),
            GroupJointKind::Across { n, angular: turn } => {
                let w = if turn { angular(self) } else { 0.0 };
                w.max(dir(self, n.perp(), rows.first))
            }
        }
    }

    /// Writes the velocities back to the dynamic bodies.
    fn write_back(&self, pass: &mut ContinuousPass<'_>) {
        for b in self.bodies.iter().filter(|b| b.dynamic) {
            let body = pass.bodies.at_mut(b.key);
            body.linear_velocity = b.v;
            body.angular_velocity = b.w;
        }
    }
}

/// The inverse effective masses of a group joint's rows (1/kg, and 1/(kg·m²) for the turn): for
/// a point joint along x then y, for the other kinds along their one direction.
struct JointRows {
    first: Real,
    second: Real,
    angular: Real,
}

impl JointRows {
    fn new(j: &GroupJoint, ma: InverseMass, mb: InverseMass) -> Self {
        let along = |n: Vec2| inverse_effective_mass(ma, j.ra, mb, j.rb, n);
        let (first, second) = match j.kind {
            GroupJointKind::Point { .. } => (along(Vec2::X), along(Vec2::Y)),
            GroupJointKind::Along { n } => (along(n), 0.0),
            GroupJointKind::Across { n, .. } => (along(n.perp()), 0.0),
        };
        Self {
            first,
            second,
            angular: ma.angular + mb.angular,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A static body (slot 0) and a chain of five links 1 m long along x (slots 1–5, 1 kg,
    /// 1/12 kg·m²), pinned end to end, falling and turning; link 1's left end presses on the
    /// static body's top face (normal +y, friction `friction`). Returns the table, the joints with
    /// their slots, and the contact with its slots.
    #[allow(clippy::type_complexity)]
    fn falling_chain(
        friction: Real,
    ) -> (
        GroupTable,
        Vec<GroupJoint>,
        Vec<(usize, usize)>,
        Vec<GroupContact>,
        Vec<(usize, usize)>,
    ) {
        let mut table = GroupTable::default();
        table.bodies.push(GroupBody {
            key: 0,
            v: Vec2::ZERO,
            w: 0.0,
            inv: InverseMass::default(),
            movable: false,
            dynamic: false,
        });
        for i in 0..5 {
            let i_f = i as Real;
            table.bodies.push(GroupBody {
                key: i + 1,
                v: Vec2::new(0.7 - 0.3 * i_f, -3.0 + 0.4 * i_f),
                w: 0.9 - 0.35 * i_f,
                inv: InverseMass::free(1.0, 12.0),
                movable: true,
                dynamic: true,
            });
        }
        let joints: Vec<GroupJoint> = (1..5)
            .map(|i| GroupJoint {
                a: i,
                b: i + 1,
                ra: Vec2::new(0.5, 0.0),
                rb: Vec2::new(-0.5, 0.0),
                kind: GroupJointKind::Point { angular: false },
            })
            .collect();
        let joint_slots = (1..5).map(|i| (i, i + 1)).collect();
        let mut contact = GroupContact {
            a: 0,
            b: 1,
            normal: Vec2::Y,
            friction,
            points: [GroupPoint::default(); MAX_MANIFOLD_POINTS],
            count: 1,
        };
        contact.points[0] = GroupPoint {
            ra: Vec2::new(-0.5, 1.0),
            rb: Vec2::new(-0.5, -0.05),
            ..GroupPoint::default()
        };
        (table, joints, joint_slots, vec![contact], vec![(0, 1)])
    }

    /// Each joint's anchors' relative velocity (m/s), the largest.
    fn joint_error(table: &GroupTable, joints: &[GroupJoint], slots: &[(usize, usize)]) -> Real {
        joints
            .iter()
            .zip(slots)
            .map(|(j, &(a, b))| table.relative_velocity(a, j.ra, b, j.rb).length())
            .fold(0.0, Real::max)
    }

    /// The contact point's relative velocity (m/s, world).
    fn contact_velocity(table: &GroupTable, k: &GroupContact, slot: (usize, usize)) -> Vec2 {
        let p = &k.points[0];
        table.relative_velocity(slot.0, p.ra, slot.1, p.rb)
    }

    /// Frictionless, the exact solve through the tree lands where the alternating sweeps (the
    /// tree's projection, then sequential impulses, repeated) converge after 200,000 rounds:
    /// the same velocities to 1e-9 m/s.
    #[test]
    fn a_contact_through_a_joint_tree_is_solved_as_the_sweeps_converge() {
        let (mut exact, joints, joint_slots, mut contacts, slots) = falling_chain(0.0);
        let tree = exact
            .joint_tree(&joints, &joint_slots)
            .expect("a chain is a tree");
        let (mut swept, mut swept_contacts) = (exact.clone(), contacts.clone());
        let masses = swept.contact_masses(&swept_contacts, &slots);
        exact.solve_through_tree(&tree, &mut contacts, &slots);
        for _ in 0..200_000 {
            swept.project(&tree);
            swept.sweep_contacts(&mut swept_contacts, &slots, &masses);
        }
        swept.project(&tree);
        let distance = |t: &GroupTable| {
            t.bodies
                .iter()
                .zip(&exact.bodies)
                .map(|(a, b)| (a.v - b.v).length() + (a.w - b.w).abs())
                .fold(0.0, Real::max)
        };
        assert!(distance(&swept) < 1e-9, "{}", distance(&swept));
        // The exact solve holds the joints and stops the contact (it presses: impulse > 0).
        assert!(joint_error(&exact, &joints, &joint_slots) < 1e-12);
        let vn = contact_velocity(&exact, &contacts[0], slots[0]).y;
        assert!(
            vn.abs() < 1e-12 && contacts[0].points[0].normal_impulse > 0.0,
            "{vn}"
        );
    }

    /// With friction, over friction coefficients from 0 to 2: the joints hold, the contact does
    /// not close, its normal impulse pushes and is complementary to its velocity, and friction
    /// stays within the cone, sticking (no sliding) wherever it is inside it.
    #[test]
    fn a_contact_through_a_joint_tree_keeps_coulomb_friction() {
        for step in 0..=20 {
            let friction = 0.1 * step as Real;
            let (mut table, joints, joint_slots, mut contacts, slots) = falling_chain(friction);
            let tree = table.joint_tree(&joints, &joint_slots).unwrap();
            table.solve_through_tree(&tree, &mut contacts, &slots);
            let p = contacts[0].points[0];
            let v = contact_velocity(&table, &contacts[0], slots[0]);
            assert!(joint_error(&table, &joints, &joint_slots) < 1e-12);
            assert!(
                v.y > -1e-12 && p.normal_impulse >= 0.0,
                "μ {friction}: {v:?} {p:?}"
            );
            assert!(
                p.normal_impulse == 0.0 || v.y.abs() < 1e-12,
                "μ {friction}: {v:?}"
            );
            let cone = friction * p.normal_impulse;
            assert!(
                p.tangent_impulse.abs() <= cone * (1.0 + 1e-12),
                "μ {friction}: {p:?}"
            );
            // (The tangent impulse acts along the normal's perpendicular.)
            let vt = v.dot(contacts[0].normal.perp());
            if p.tangent_impulse.abs() < cone * (1.0 - 1e-9) {
                assert!(
                    vt.abs() < 1e-9,
                    "μ {friction}: slides at {vt} m/s inside the cone"
                );
            } else {
                // On the cone's edge friction opposes the sliding.
                assert!(vt * p.tangent_impulse <= 1e-12, "μ {friction}: {v:?} {p:?}");
            }
        }
    }
}
