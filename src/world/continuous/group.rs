//! Settling the bodies an impact touches: after an impact's impulse, the two bodies and the
//! dynamic bodies touching them at the impact time are solved together (sequential impulses,
//! non-penetration and Coulomb friction over every contact among them at that moment, static and
//! kinematic neighbours immovable), as Box2D v2.4's time-of-impact sub-step solved the touching
//! island. A bullet that drives a crate into a wall stops with the crate against the wall instead of
//! pushing it in; a body hit while resting between two others shares the blow with them; momentum is
//! kept (the impulses act between the bodies). A contact that must bounce (restitution, closing
//! faster than the threshold) is left out: its bounce is an impact of its own, resolved next in
//! time order, so a bounce still travels down a row of touching bodies (Newton's cradle).

use super::joint_tree::{JointTree, Row, Rows, TreeJoint};
use super::schedule::bounces;
use super::ContinuousPass;
use crate::constants::LINEAR_SLOP;
use crate::dynamics::body::{bodies_relative_velocity, PairFilter};
use crate::dynamics::contact::is_ghost;
use crate::dynamics::contact_math::{inverse_effective_mass, relative_velocity, InverseMass};
use crate::dynamics::BodyKind;
use crate::math::{Real, Vec2};
use crate::query::{for_each_piece_pair, local_manifold, MAX_MANIFOLD_POINTS};
use crate::world::contact_set::pair_key;

/// Sequential-impulse sweeps over a group's contacts.
const GROUP_ITERATIONS: usize = 8;

/// Most bodies settled with one impact through contacts (the two and their touching neighbours):
/// a bound on the work of one impact in a dense pile.
const MAX_GROUP_BODIES: usize = 32;

/// Most contacts (counted at the start of the pass) the bodies of one impact's group may have
/// together before it stops taking members: the group's cost is its members' candidates, and in a
/// heap of bodies created overlapping each has hundreds. A pile's bodies have a handful each, so
/// there `MAX_GROUP_BODIES` decides.
const MAX_GROUP_DEGREE: u32 = 512;

/// Most bodies settled with one impact in all, joints' included: an articulated body (a chain, a
/// ragdoll) takes the blow whole up to this size.
const MAX_JOINT_GROUP_BODIES: usize = 128;

/// Largest relative speed (m/s, rad/s) a group joint may keep when its sweeps stop early.
const GROUP_JOINT_TOLERANCE: Real = 1e-4;

/// Most sweeps of a group's joints in one impact.
const MAX_JOINT_SWEEPS: usize = 4096;

/// A joint among a group's bodies, as velocity constraints at the impact time: the parts of the
/// joint that are rigid (see `GroupJointKind`).
#[derive(Clone, Copy, Debug)]
pub(super) struct GroupJoint {
    pub a: u32,
    pub b: u32,
    /// Anchor offsets from A's and B's centres of mass at the impact time (metres, world).
    pub ra: Vec2,
    pub rb: Vec2,
    pub kind: GroupJointKind,
}

/// What a joint holds rigidly during an impact.
#[derive(Clone, Copy, Debug)]
pub(super) enum GroupJointKind {
    /// The two anchors move together (revolute; weld with `angular`).
    Point { angular: bool },
    /// No relative velocity along `n` (a rod: a distance joint with min = max).
    Along { n: Vec2 },
    /// No relative velocity across `n`'s perpendicular, and no relative turn when `angular`
    /// (prismatic; a wheel without `angular`).
    Across { n: Vec2, angular: bool },
}

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

impl ContinuousPass<'_> {
    /// Settles the bodies around an impact of `a` and `b` at step fraction `t` (after its impulse).
    /// Returns the dynamic bodies whose velocity the settling may have changed (`a` and `b`
    /// included), for new segments.
    pub(super) fn settle_group(&mut self, a: u32, b: u32, t: Real) -> Vec<u32> {
        let mut members: Vec<u32> = [a, b].into_iter().filter(|&i| self.movable(i)).collect();
        let mut contacts: Vec<GroupContact> = Vec::new();
        let mut degree: u32 = members.iter().map(|&i| self.buf.neighbours.degree(i)).sum();
        // The two bodies' touching neighbours join them; when the group touches a kinematic body,
        // so do theirs, and so on (a kinematic body presses through a whole stack to the static
        // world, and the group must see that to squeeze it out; see `squeeze.rs`).
        let first_ring = members.len();
        let mut transitive = false;
        let mut next = 0;
        while next < members.len() && (next < first_ring || transitive) {
            let i = members[next];
            next += 1;
            let list = self.candidates(i, t);
            for &c in &list {
                if members[..next - 1].contains(&c) {
                    continue; // their contact was added when `c` took its turn
                }
                if self.heap_pair(i, c) {
                    continue; // deep inside each other in a heap: the solver's to push apart
                }
                // The impact pair's own contact is in too (just resolved, it only acts if another
                // contact would push the two back into each other).
                let before = contacts.len();
                self.group_contact(i, c, t, &mut contacts);
                let touches = contacts.len() > before;
                transitive |= touches && self.bodies.at(c).kind == BodyKind::Kinematic;
                if touches
                    && self.movable(c)
                    && !members.contains(&c)
                    && members.len() < MAX_GROUP_BODIES
                    && degree < MAX_GROUP_DEGREE
                {
                    self.wake_body(c); // (asleep: it takes its share of the blow)
                    degree += self.buf.neighbours.degree(c);
                    members.push(c);
                }
            }
            self.give_back(list);
        }
        // Bodies jointed to the group take the blow with it: an articulated body moves whole.
        let mut joints = self.group_joints(&mut members, t);
        if contacts.is_empty() && joints.is_empty() {
            return members;
        }
        // Drop contacts with a body that did not make it into the group (kept immovable there
        // would not conserve momentum).
        contacts.retain(|k| {
            let inside = |i: u32| !self.movable(i) || members.contains(&i);
            inside(k.a) && inside(k.b)
        });
        let saved: Vec<_> = members.iter().map(|&i| self.saved_velocity(i)).collect();
        self.solve_group(&mut contacts, &mut joints);
        // Pressed against immovable bodies beyond what a few sweeps settle: see `squeeze.rs`.
        if self.pinned_group(&contacts) {
            self.squeeze(&mut contacts, &mut joints, &saved);
        }
        members
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
        let rest_of_step = ((1.0 - t) * self.config.dt).max(Real::MIN_POSITIVE);
        let (ca, cb) = (xa.translation, xb.translation);
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
                    if bounces(
                        self.config,
                        restitution,
                        -vn,
                        self.impacts_in_row(a, b, t, vn),
                    ) {
                        return; // a bounce of its own: resolved as an impact, in time order
                    }
                    contact.points[contact.count] = GroupPoint {
                        ra,
                        rb,
                        target: -p.separation.max(0.0) / rest_of_step,
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
        let kind = |i: u32| self.bodies.at(i).kind;
        contacts.sort_by_key(|k| kind(k.a) == BodyKind::Static || kind(k.b) == BodyKind::Static);
        // The sweeps work on a table of the group's bodies (velocities, inverse masses, whether
        // impulses move them), written back at the end: the same arithmetic, without looking
        // each body up twice per impulse.
        let mut table = GroupTable::default();
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
        // Without contacts, the final projection below is the exact answer: no sweeps.
        let sweeps = if contacts.is_empty() && tree.is_some() {
            0
        } else {
            iterations
        };
        for sweep in 0..sweeps {
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
            for (k, &(a, b)) in contacts.iter_mut().zip(&contact_slots) {
                let (ma, mb) = (table.inv(a), table.inv(b));
                let (n, tangent) = (k.normal, k.normal.perp());
                let together = k.count == 2 && table.solve_two_points(a, b, k);
                for p in &mut k.points[..k.count] {
                    let kn = inverse_effective_mass(ma, p.ra, mb, p.rb, n);
                    if kn <= 0.0 {
                        continue;
                    }
                    if !together {
                        let vn = table.relative_velocity(a, p.ra, b, p.rb).dot(n);
                        let total = (p.normal_impulse + (p.target - vn) / kn).max(0.0);
                        let dj = total - p.normal_impulse;
                        p.normal_impulse = total;
                        table.push_impulse(a, b, p.ra, p.rb, dj * n);
                    }
                    let kt = inverse_effective_mass(ma, p.ra, mb, p.rb, tangent);
                    if kt <= 0.0 {
                        continue;
                    }
                    let vt = table.relative_velocity(a, p.ra, b, p.rb).dot(tangent);
                    let max = k.friction * p.normal_impulse;
                    let total_t = (p.tangent_impulse - vt / kt).clamp(-max, max);
                    let djt = total_t - p.tangent_impulse;
                    p.tangent_impulse = total_t;
                    table.push_impulse(a, b, p.ra, p.rb, djt * tangent);
                }
            }
        }
        if let Some(tree) = &tree {
            // The joints hold exactly at the end; the contacts to the sweeps' accuracy.
            table.project(tree);
        }
        table.write_back(self);
    }

    /// The joints among `members` and the dynamic bodies jointed to them (added to `members`, up
    /// to `MAX_JOINT_GROUP_BODIES`), as rigid velocity constraints at step fraction `t`.
    fn group_joints(&mut self, members: &mut Vec<u32>, t: Real) -> Vec<GroupJoint> {
        let Some(all) = self.joints else {
            return Vec::new();
        };
        if all.len() == 0 {
            return Vec::new();
        }
        let mut woken = Vec::new();
        let mut out = Vec::new();
        let mut seen = Vec::new();
        let mut k = 0;
        while k < members.len() {
            let i = members[k];
            k += 1;
            for (slot, j) in all.iter() {
                let Some(a) = j.body_a else { continue };
                if (a != i && j.body_b != i) || seen.contains(&slot) {
                    continue;
                }
                let other = if a == i { j.body_b } else { a };
                if self.movable(other) && !members.contains(&other) {
                    if members.len() >= MAX_JOINT_GROUP_BODIES {
                        continue;
                    }
                    woken.push(other);
                    members.push(other);
                }
                seen.push(slot);
                if let Some(g) = self.group_joint(j, a, t) {
                    out.push(g);
                }
            }
        }
        for i in woken {
            self.wake_body(i); // jointed to the blow: it moves with it
        }
        out
    }

    /// A joint's rigid parts at step fraction `t` (`None` for joints with nothing rigid:
    /// springs, ropes, motor and mouse joints).
    fn group_joint(
        &self,
        j: &crate::dynamics::joint::Joint,
        a: u32,
        t: Real,
    ) -> Option<GroupJoint> {
        use crate::dynamics::joint::RigidParts;
        let (ba, bb) = (self.bodies.at(a), self.bodies.at(j.body_b));
        let (xa, xb) = (
            self.buf.segments[a as usize].pose_at(t),
            self.buf.segments[j.body_b as usize].pose_at(t),
        );
        let lever = |x: &crate::math::Transform, body: &crate::Body, local: Vec2| {
            x.rotation.rotate(local - body.local_center)
        };
        let (ra, rb) = (lever(&xa, ba, j.local_a), lever(&xb, bb, j.local_b));
        let kind = match j.kind.rigid_parts() {
            RigidParts::Point { angular } => GroupJointKind::Point { angular },
            RigidParts::Along => {
                let d = (xb.translation + rb) - (xa.translation + ra);
                GroupJointKind::Along {
                    n: d.normalize_or(Vec2::X),
                }
            }
            RigidParts::Across { angular } => GroupJointKind::Across {
                n: xa.rotation.rotate(j.local_axis),
                angular,
            },
            RigidParts::None => return None,
        };
        Some(GroupJoint {
            a,
            b: j.body_b,
            ra,
            rb,
            kind,
        })
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
struct GroupBody {
    key: u32,
    v: Vec2,
    w: Real,
    inv: InverseMass,
    movable: bool,
    dynamic: bool,
}

/// The bodies of one group solve, by slot.
#[derive(Default)]
struct GroupTable {
    bodies: Vec<GroupBody>,
}

impl GroupTable {
    /// The slot of body `key`, added on first sight.
    fn slot(&mut self, pass: &ContinuousPass<'_>, key: u32) -> usize {
        if let Some(i) = self.bodies.iter().position(|b| b.key == key) {
            return i;
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
    /// m/s). Returns `false`, changing nothing, when `K` is too ill-conditioned to invert (the
    /// two points nearly the same constraint): the caller solves the points one by one.
    fn solve_two_points(&mut self, a: usize, b: usize, k: &mut GroupContact) -> bool {
        let (ma, mb) = (self.inv(a), self.inv(b));
        let n = k.normal;
        let (p1, p2) = (k.points[0], k.points[1]);
        let k11 = inverse_effective_mass(ma, p1.ra, mb, p1.rb, n);
        let k22 = inverse_effective_mass(ma, p2.ra, mb, p2.rb, n);
        let k12 = ma.linear_along(n)
            + mb.linear_along(n)
            + ma.angular * p1.ra.perp_dot(n) * p2.ra.perp_dot(n)
            + mb.angular * p1.rb.perp_dot(n) * p2.rb.perp_dot(n);
        let det = k11 * k22 - k12 * k12;
        if !(k11 > 0.0 && k22 > 0.0 && k11 * k11 < MAX_BLOCK_CONDITION * det) {
            return false;
        }
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
