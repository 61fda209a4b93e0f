//! The jointed bodies an impact's group takes with it (`group.rs`): gathered breadth first along
//! the joints from the bodies the impact touches, each joint's rigid parts as velocity
//! constraints at the impact time, and whether those close loops. A tree of joints (a chain, a
//! ragdoll) is solved exactly in time linear in its bodies (`joint_tree.rs`), so it takes the
//! blow whole up to a thousand bodies; joints that close loops are swept one by one and stop
//! sooner.

use super::ContinuousPass;
use crate::math::{Real, Vec2};
use std::collections::{HashMap, HashSet};

/// Most bodies settled with one impact in all, joints' included, when the joints close loops
/// (swept one by one, `MAX_JOINT_SWEEPS`): an articulated body (a bridge, a grid) takes the blow
/// whole up to this size.
const MAX_JOINT_GROUP_BODIES: usize = 128;

/// The same for joints that form a tree (a chain, a ragdoll without closed loops), solved in
/// time linear in the bodies (`joint_tree.rs`). A chain cut at 128 links let the links beyond
/// the cut go on as the blow changed the rest: a 1,000-link chain drawn over an edge by its
/// hanging end opened its joints 0.72 m there, against 0.25 m with the soft solver alone; whole,
/// 0.27 m.
const MAX_TREE_GROUP_BODIES: usize = 1024;

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

impl ContinuousPass<'_> {
    /// The joints among `members` and the dynamic bodies jointed to them (added to `members`,
    /// and woken), as rigid velocity constraints at step fraction `t`: up to
    /// `MAX_TREE_GROUP_BODIES` bodies when the joints form a tree the exact projection takes, up to
    /// `MAX_JOINT_GROUP_BODIES` otherwise.
    pub(super) fn group_joints(&mut self, members: &mut Vec<u32>, t: Real) -> Vec<GroupJoint> {
        let Some(all) = self.joints else {
            return Vec::new();
        };
        if all.len() == 0 {
            return Vec::new();
        }
        let adjacency = match self.buf.joint_adjacency.take() {
            Some(adjacency) => adjacency,
            None => JointAdjacency::new(all, self.bodies.key_bound()),
        };
        // A tree of joints is solved in time linear in its bodies, so it takes the blow whole up
        // to `MAX_TREE_GROUP_BODIES`; joints with loops are swept one by one, in time that grows
        // faster, and stop at `MAX_JOINT_GROUP_BODIES`.
        let (mut joined, mut joints) =
            self.gather_joints(all, &adjacency, members, t, MAX_TREE_GROUP_BODIES);
        // (A body the tree cannot take, one that does not turn or has a locked axis, sends the
        // group to the sweeps too: see `GroupTable::joint_tree`.)
        let tree_body = |i: &u32| {
            let m = self.inv_mass(*i);
            m.linear > 0.0 && m.angular > 0.0 && m.axes == Vec2::ONE
        };
        if joined.len() + members.len() > MAX_JOINT_GROUP_BODIES
            && (has_loop(members, &joined, &joints)
                || !members.iter().chain(&joined).all(tree_body))
        {
            (joined, joints) =
                self.gather_joints(all, &adjacency, members, t, MAX_JOINT_GROUP_BODIES);
        }
        self.buf.joint_adjacency = Some(adjacency);
        for &i in &joined {
            self.wake_body(i); // jointed to the blow: it moves with it
        }
        members.extend(joined);
        joints
    }

    /// The joints among `members` and the dynamic bodies jointed to them, breadth first along
    /// the joints (`adjacency`) until the group holds `cap` bodies: the bodies it adds (not yet
    /// woken) and the joints' rigid parts at step fraction `t`.
    fn gather_joints(
        &self,
        all: &crate::world::joints::JointSet,
        adjacency: &JointAdjacency,
        members: &[u32],
        t: Real,
        cap: usize,
    ) -> (Vec<u32>, Vec<GroupJoint>) {
        let mut group: Vec<u32> = members.to_vec();
        let mut in_group: HashSet<u32> = members.iter().copied().collect();
        let mut seen: HashSet<usize> = HashSet::new();
        let mut out = Vec::new();
        let mut k = 0;
        while k < group.len() {
            let i = group[k];
            k += 1;
            for &slot in adjacency.of(i) {
                let slot = slot as usize;
                let j = all.at(slot);
                let Some(a) = j.body_a else { continue };
                if seen.contains(&slot) {
                    continue;
                }
                let other = if a == i { j.body_b } else { a };
                if self.movable(other) && !in_group.contains(&other) {
                    if group.len() >= cap {
                        continue;
                    }
                    group.push(other);
                    in_group.insert(other);
                }
                seen.insert(slot);
                if let Some(g) = self.group_joint(j, a, t) {
                    out.push(g);
                }
            }
        }
        group.drain(..members.len());
        (group, out)
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
}

/// The joints of each body (slots into the world's joints, ascending), by body key: a jointed
/// impact gathers its group along them instead of reading every joint once per member (a
/// 1,000-link chain: a million joint reads per impact).
#[derive(Debug, Default)]
pub(super) struct JointAdjacency {
    /// `slots[offsets[k]..offsets[k + 1]]`: the joints of body `k`.
    offsets: Vec<u32>,
    slots: Vec<u32>,
}

impl JointAdjacency {
    /// The adjacency of `joints` over body keys below `key_bound`.
    fn new(joints: &crate::world::joints::JointSet, key_bound: usize) -> Self {
        let mut offsets = vec![0u32; key_bound + 1];
        let ends = |j: &crate::dynamics::joint::Joint| [j.body_a, Some(j.body_b)];
        for (_, j) in joints.iter() {
            for key in ends(j).into_iter().flatten() {
                offsets[key as usize + 1] += 1;
            }
        }
        for k in 0..key_bound {
            offsets[k + 1] += offsets[k];
        }
        let mut next = offsets.clone();
        let mut slots = vec![0u32; offsets[key_bound] as usize];
        for (slot, j) in joints.iter() {
            for key in ends(j).into_iter().flatten() {
                slots[next[key as usize] as usize] = slot as u32;
                next[key as usize] += 1;
            }
        }
        Self { offsets, slots }
    }

    /// The joints of body `key`, by slot.
    fn of(&self, key: u32) -> &[u32] {
        let k = key as usize;
        &self.slots[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }
}

/// Whether the rigid `joints` close a loop among the movable bodies of a group (`members` and
/// `joined`): two bodies already connected through other joints. (Joints to immovable bodies
/// close none: each such body is a fixed point of its own.)
fn has_loop(members: &[u32], joined: &[u32], joints: &[GroupJoint]) -> bool {
    let index: HashMap<u32, usize> = members
        .iter()
        .chain(joined)
        .enumerate()
        .map(|(k, &key)| (key, k))
        .collect();
    let mut parent: Vec<usize> = (0..index.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for j in joints {
        let (Some(&a), Some(&b)) = (index.get(&j.a), index.get(&j.b)) else {
            continue;
        };
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra == rb {
            return true;
        }
        parent[ra] = rb;
    }
    false
}
