//! The world's joints: storage with generational ids, adding (definitions checked and converted
//! into the bodies' frames), removing, reading reactions, and the pairs of bodies that joints keep
//! from colliding (`collide_connected` off).
//!
//! A rejected call leaves the world as it was. Removing a body removes its joints.

use super::contact_set::PairMap;
use super::World;
use crate::dynamics::joint::{finite, finite_vec, Ends, Joint, JointDef, JointError, JointId};
use crate::dynamics::{Body, BodyId, BodyKind};
use crate::math::{Real, Vec2};

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
struct Slot {
    generation: u32,
    joint: Option<Joint>,
}

/// The joints, by slot.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default)]
pub(crate) struct JointSet {
    /// The world's tag, carried by every id this set hands out.
    pub world: u32,
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// Pairs of body keys (lower first) with joints that keep them from colliding, and how many.
    /// (A hash map with the contacts' pair hasher: asked for every candidate pair of the
    /// continuous pass, and iterated in the same order on every run, snapshots included.)
    blocked: PairMap<u32>,
    /// By body key, the slots of the body's joints, in no set order: removing a body costs its
    /// own joints, not a pass over all of them. Derived from `slots` (rebuilt after a restore,
    /// `JointSet::rebuild_by_body`).
    #[cfg_attr(feature = "serde", serde(skip))]
    by_body: Vec<Vec<u32>>,
}

fn ordered_pair(a: u32, b: u32) -> (u32, u32) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

impl JointSet {
    /// An empty set handing out ids with the world tag `world`.
    pub fn with_tag(world: u32) -> JointSet {
        JointSet {
            world,
            ..JointSet::default()
        }
    }

    /// Whether a joint keeps the bodies with keys `a` and `b` from colliding.
    #[inline]
    pub fn blocks(&self, a: u32, b: u32) -> bool {
        !self.blocked.is_empty() && self.blocked.contains_key(&ordered_pair(a, b))
    }

    /// The slots of body `key`'s joints, in no set order.
    pub fn slots_of(&self, key: u32) -> &[u32] {
        self.by_body.get(key as usize).map_or(&[], Vec::as_slice)
    }

    /// Whether body `key` has a joint.
    pub fn has_joint(&self, key: u32) -> bool {
        self.by_body
            .get(key as usize)
            .is_some_and(|s| !s.is_empty())
    }

    /// The bodies (keys) of `joint`: `body_a` (none for a mouse joint), then `body_b`.
    fn ends(joint: &Joint) -> impl Iterator<Item = u32> {
        joint
            .body_a
            .into_iter()
            .chain(std::iter::once(joint.body_b))
    }

    /// Lists the joint in `slot` under each of its bodies.
    fn link(&mut self, slot: u32) {
        let joint = self.slots[slot as usize]
            .joint
            .as_ref()
            .expect("a live joint");
        for key in Self::ends(joint) {
            if self.by_body.len() <= key as usize {
                self.by_body.resize_with(key as usize + 1, Vec::new);
            }
            self.by_body[key as usize].push(slot);
        }
    }

    /// Lists every joint under its bodies again (after a restore: the lists are not part of a
    /// snapshot).
    #[cfg(feature = "serde")]
    pub fn rebuild_by_body(&mut self) {
        self.by_body.clear();
        let live: Vec<u32> = self.iter().map(|(k, _)| k as u32).collect();
        for slot in live {
            self.link(slot);
        }
    }

    /// Live joints with their slots.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Joint)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(k, s)| s.joint.as_ref().map(|j| (k, j)))
    }

    /// The joint in `slot` (a live one: a slot from [`JointSet::iter`]).
    pub fn at(&self, slot: usize) -> &Joint {
        self.slots[slot].joint.as_ref().expect("a live joint")
    }

    /// The joint in `slot`, mutably.
    pub fn at_mut(&mut self, slot: usize) -> &mut Joint {
        self.slots[slot].joint.as_mut().expect("a live joint")
    }

    /// The id of the joint in `slot`.
    pub fn id(&self, slot: usize) -> JointId {
        JointId {
            index: slot as u32,
            generation: self.slots[slot].generation,
            world: self.world,
        }
    }

    /// Number of live joints.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    pub fn get(&self, id: JointId) -> Option<&Joint> {
        let slot = self.slots.get(id.index as usize)?;
        (slot.generation == id.generation && id.world == self.world).then_some(slot.joint.as_ref()?)
    }

    fn get_mut(&mut self, id: JointId) -> Option<&mut Joint> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation == id.generation && id.world == self.world {
            slot.joint.as_mut()
        } else {
            None
        }
    }

    fn insert(&mut self, joint: Joint) -> JointId {
        if !joint.common.collide_connected {
            if let Some(a) = joint.body_a {
                *self
                    .blocked
                    .entry(ordered_pair(a, joint.body_b))
                    .or_default() += 1;
            }
        }
        let index = match self.free.pop() {
            Some(k) => {
                self.slots[k as usize].joint = Some(joint);
                k
            }
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    joint: Some(joint),
                });
                (self.slots.len() - 1) as u32
            }
        };
        self.link(index);
        JointId {
            index,
            generation: self.slots[index as usize].generation,
            world: self.world,
        }
    }

    fn remove(&mut self, id: JointId) -> Option<Joint> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation != id.generation || id.world != self.world || slot.joint.is_none() {
            return None;
        }
        let joint = slot.joint.take()?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(id.index);
        for key in Self::ends(&joint) {
            if let Some(list) = self.by_body.get_mut(key as usize) {
                if let Some(i) = list.iter().position(|&s| s == id.index) {
                    list.swap_remove(i);
                }
            }
        }
        if !joint.common.collide_connected {
            if let Some(a) = joint.body_a {
                let key = ordered_pair(a, joint.body_b);
                if let Some(n) = self.blocked.get_mut(&key) {
                    *n -= 1;
                    if *n == 0 {
                        self.blocked.remove(&key);
                    }
                }
            }
        }
        Some(joint)
    }

    /// Removes every joint of the body with key `key`, in slot order.
    pub fn remove_body(&mut self, key: u32) {
        // (In slot order, as a scan of the slots: the free list, and so the slots later joints
        // take, come out the same.)
        let mut slots = self.slots_of(key).to_vec();
        slots.sort_unstable();
        for slot in slots {
            self.remove(self.id(slot as usize));
        }
    }
}

#[cfg(feature = "serde")]
impl JointSet {
    /// Checks joints read from a snapshot against the bodies read with them: slots and the free
    /// list agree (each free slot empty and listed once), each joint joins two different live
    /// bodies (a mouse joint one, and only it), its settings lie in the ranges
    /// [`World::add_joint`] checks, and the pairs kept from colliding are exactly those its
    /// joints keep.
    pub fn check_restored(&self, bodies: &super::body_set::BodySet) -> Result<(), String> {
        let mut listed = vec![false; self.slots.len()];
        for &k in &self.free {
            let free = self
                .slots
                .get(k as usize)
                .is_some_and(|s| s.joint.is_none());
            if !free || std::mem::replace(&mut listed[k as usize], true) {
                return Err(format!("free slot {k} is not an empty slot listed once"));
            }
        }
        let mut blocked: PairMap<u32> = PairMap::default();
        for (k, j) in self.iter() {
            check_stored_joint(j, bodies)
                .map_err(|e| format!("joint {k} ({}): {e}", j.kind.name()))?;
            if let (Some(a), false) = (j.body_a, j.common.collide_connected) {
                *blocked.entry(ordered_pair(a, j.body_b)).or_default() += 1;
            }
        }
        let empty = self.slots.iter().filter(|s| s.joint.is_none()).count();
        if empty != self.free.len() {
            return Err(format!(
                "{empty} empty slots, {} listed free",
                self.free.len()
            ));
        }
        if blocked != self.blocked {
            return Err("the pairs kept from colliding are not the joints' own".into());
        }
        Ok(())
    }
}

/// One stored joint's checks (see [`JointSet::check_restored`]).
#[cfg(feature = "serde")]
fn check_stored_joint(j: &Joint, bodies: &super::body_set::BodySet) -> Result<(), String> {
    use crate::dynamics::joint::check_common;
    let live = |key: u32| {
        bodies
            .live(key)
            .ok_or(format!("body {key} is not in the world"))
    };
    let b = live(j.body_b)?;
    let mouse = j.kind.target().is_some();
    match j.body_a {
        None if mouse => {}
        Some(a) if !mouse && a != j.body_b => {
            if live(a)?.kind != BodyKind::Dynamic && b.kind != BodyKind::Dynamic {
                return Err("neither body is dynamic".into());
            }
        }
        _ => return Err("its bodies are not two different ones (one for a mouse joint)".into()),
    }
    check_common(j.kind.name(), &j.common)
        .and_then(|()| j.kind.check(j.local_axis))
        .map_err(|e| e.to_string())
}

/// What a joint did in the last step ([`World::joint_reaction`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointReaction {
    /// Force on body B (N, world); A gets the opposite.
    pub force: Vec2,
    /// Torque on body B (N·m); A gets the opposite.
    pub torque: Real,
}

impl World {
    /// Adds a joint (any `…JointDef`, converted with `into()`). The definition's world-frame
    /// anchors and axes are taken at the bodies' current poses. Errors (world unchanged): stale
    /// bodies, the same body twice, two bodies that cannot move, non-finite or out-of-range
    /// numbers (negative forces, frequencies or lengths, lower above upper limits, a zero axis).
    pub fn add_joint(&mut self, def: impl Into<JointDef>) -> Result<JointId, JointError> {
        let joint = self.build_joint(def.into())?;
        self.wake_joint_bodies(&joint);
        let id = self.joints.insert(joint);
        // Pairs the new joint stops from colliding drop their contacts on the next step.
        self.bodies.shapes_changed = true;
        Ok(id)
    }

    /// Removes a joint; its id (and any copy of it) is rejected from now on.
    pub fn remove_joint(&mut self, id: JointId) -> Result<(), JointError> {
        let joint = self.joints.remove(id).ok_or(JointError::UnknownJoint(id))?;
        self.wake_joint_bodies(&joint);
        self.bodies.shapes_changed = true;
        Ok(())
    }

    /// Sets the reaction force (N) and torque (N·m, magnitude) above which a step reports a
    /// [`JointEvent`](crate::JointEvent) for this joint, as
    /// [`JointCommon`](crate::dynamics::joint::JointCommon)'s thresholds do when it is added;
    /// `Real::INFINITY` for never. Breakable joints: the game removes the joint on its event.
    ///
    /// # Errors
    /// [`JointError::UnknownJoint`] for a stale id; [`JointError::OutOfRange`] for a negative
    /// threshold, [`JointError::NonFinite`] for a NaN one. Nothing changes then.
    pub fn set_joint_event_thresholds(
        &mut self,
        id: JointId,
        force: Real,
        torque: Real,
    ) -> Result<(), JointError> {
        let j = self
            .joints
            .get_mut(id)
            .ok_or(JointError::UnknownJoint(id))?;
        let common = crate::dynamics::joint::JointCommon {
            force_threshold: force,
            torque_threshold: torque,
            ..j.common
        };
        crate::dynamics::joint::check_common(j.kind.name(), &common)?;
        j.common = common;
        Ok(())
    }

    /// The ids of every joint, in slot order.
    #[must_use]
    pub fn joint_ids(&self) -> Vec<JointId> {
        self.joints.iter().map(|(k, _)| self.joints.id(k)).collect()
    }

    /// Wakes a joint's bodies (a joint added, removed or changed).
    fn wake_joint_bodies(&mut self, j: &Joint) {
        for k in j.body_a.into_iter().chain([j.body_b]) {
            self.bodies.at_mut(k).wake();
        }
    }

    /// Number of joints.
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// The force and torque the joint applied to its body B in the last step (zero before the
    /// first), or `None` for a removed joint.
    #[must_use]
    pub fn joint_reaction(&self, id: JointId) -> Option<JointReaction> {
        self.joints.get(id).map(|j| JointReaction {
            force: j.force,
            torque: j.torque,
        })
    }

    /// The joint's kind (`"revolute"`, `"prismatic"`, `"distance"`, `"weld"`, `"wheel"`,
    /// `"motor"`, `"mouse"`), or `None` for a removed joint.
    #[must_use]
    pub fn joint_kind(&self, id: JointId) -> Option<&'static str> {
        self.joints.get(id).map(|j| j.kind.name())
    }

    /// The joint's bodies (A is `None` for a mouse joint), or `None` for a removed joint.
    #[must_use]
    pub fn joint_bodies(&self, id: JointId) -> Option<(Option<BodyId>, BodyId)> {
        self.joints.get(id).map(|j| {
            (
                j.body_a.map(|k| self.bodies.id(k)),
                self.bodies.id(j.body_b),
            )
        })
    }

    /// The joint's anchors in the world at the bodies' current poses (metres; A's is the target
    /// for a mouse joint), or `None` for a removed joint. For drawing.
    #[must_use]
    pub fn joint_anchors(&self, id: JointId) -> Option<(Vec2, Vec2)> {
        let j = self.joints.get(id)?;
        let b = self.bodies.at(j.body_b);
        let pb = b.transform().transform_point(j.local_b);
        let pa = match (j.body_a, j.kind.target()) {
            (_, Some(target)) => target,
            (Some(a), None) => self.bodies.at(a).transform().transform_point(j.local_a),
            (None, None) => j.local_a,
        };
        Some((pa, pb))
    }

    /// Moves a mouse joint's target (world metres).
    pub fn set_joint_target(&mut self, id: JointId, target: Vec2) -> Result<(), JointError> {
        finite_vec("mouse", "target", target)?;
        let j = self
            .joints
            .get_mut(id)
            .ok_or(JointError::UnknownJoint(id))?;
        let kind = j.kind.name();
        match j.kind.target_mut() {
            Some(t) => {
                *t = target;
                Ok(())
            }
            None => Err(JointError::WrongKind {
                kind,
                reason: "only a mouse joint has a target",
            }),
        }
    }

    /// Sets a revolute, prismatic or wheel joint's motor speed (rad/s or m/s; the motor must be
    /// enabled in its definition).
    pub fn set_motor_speed(&mut self, id: JointId, speed: Real) -> Result<(), JointError> {
        let j = self
            .joints
            .get_mut(id)
            .ok_or(JointError::UnknownJoint(id))?;
        let name = j.kind.name();
        finite(name, "motor_speed", speed)?;
        match j.kind.motor_mut() {
            Some(motor) => {
                motor.speed = speed;
                let (a, b) = (j.body_a, j.body_b);
                for k in a.into_iter().chain([b]) {
                    self.bodies.at_mut(k).wake();
                }
                Ok(())
            }
            _ => Err(JointError::WrongKind {
                kind: name,
                reason: "it has no enabled motor",
            }),
        }
    }

    /// The key of a live body for a joint.
    fn joint_body(&self, id: BodyId) -> Result<(u32, &Body), JointError> {
        let key = self.bodies.key(id).ok_or(JointError::UnknownBody(id))?;
        Ok((key, self.bodies.at(key)))
    }

    /// Checks a definition and converts it (see `add_joint`): its bodies first (live, two
    /// different ones and one of them dynamic; a mouse joint's one body dynamic), then the
    /// definition itself (`dynamics/joint/`, each kind's `build`).
    fn build_joint(&self, def: JointDef) -> Result<Joint, JointError> {
        let ends = match def.bodies() {
            (Some(a), b) => {
                if a == b {
                    return Err(JointError::SameBody(a));
                }
                let (ja, jb) = (self.joint_body(a)?, self.joint_body(b)?);
                if ja.1.kind != BodyKind::Dynamic && jb.1.kind != BodyKind::Dynamic {
                    return Err(JointError::NoDynamicBody);
                }
                Ends { a: Some(ja), b: jb }
            }
            (None, b) => {
                let jb = self.joint_body(b)?;
                if jb.1.kind != BodyKind::Dynamic {
                    return Err(JointError::NoDynamicBody);
                }
                Ends { a: None, b: jb }
            }
        };
        def.build(&ends)
    }
}
