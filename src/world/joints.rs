//! The world's joints: storage with generational ids, adding (definitions checked and converted
//! into the bodies' frames), removing, reading reactions, and the pairs of bodies that joints keep
//! from colliding (`collide_connected` off).
//!
//! A rejected call leaves the world as it was. Removing a body removes its joints.

use super::contact_set::PairMap;
use super::World;
use crate::constants::{MAX_FORCE, MAX_LENGTH};
use crate::dynamics::joint::{
    axis, check_common, finite, finite_vec, non_negative, ordered, JointCommon, JointDef,
    JointError, JointId,
};
use crate::dynamics::joint_solver::{Joint, JointImpulses, JointKind};
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

    /// Live joints with their slots.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Joint)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(k, s)| s.joint.as_ref().map(|j| (k, j)))
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

    /// Removes every joint of the body with key `key`.
    pub fn remove_body(&mut self, key: u32) {
        let ids: Vec<JointId> = self
            .iter()
            .filter(|(_, j)| j.body_a == Some(key) || j.body_b == key)
            .map(|(k, _)| self.id(k))
            .collect();
        for id in ids {
            self.remove(id);
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
    let live = |key: u32| {
        bodies
            .live(key)
            .ok_or(format!("body {key} is not in the world"))
    };
    let b = live(j.body_b)?;
    let mouse = matches!(j.kind, JointKind::Mouse { .. });
    match j.body_a {
        None if mouse => {}
        Some(a) if !mouse && a != j.body_b => {
            if live(a)?.kind != BodyKind::Dynamic && b.kind != BodyKind::Dynamic {
                return Err("neither body is dynamic".into());
            }
        }
        _ => return Err("its bodies are not two different ones (one for a mouse joint)".into()),
    }
    let name = j.kind.name();
    let text = |e: JointError| e.to_string();
    check_common(name, &j.common).map_err(text)?;
    let spring = |s: Option<(Real, Real)>| -> Result<(), JointError> {
        if let Some((hertz, zeta)) = s {
            non_negative(name, "hertz", hertz, MAX_FORCE)?;
            non_negative(name, "damping_ratio", zeta, MAX_FORCE)?;
        }
        Ok(())
    };
    let motor = |m: Option<(Real, Real)>| match m {
        Some((_, max)) => non_negative(name, "max motor force or torque", max, MAX_FORCE),
        None => Ok(()),
    };
    let limit = |l: Option<(Real, Real)>| match l {
        Some((lower, upper)) => ordered(name, "limits", lower, upper),
        None => Ok(()),
    };
    let unit_axis = || {
        if (j.local_axis.length() - 1.0).abs() > crate::constants::ROTATION_TOLERANCE {
            return Err(JointError::OutOfRange {
                joint: name,
                field: "axis",
                value: j.local_axis.length(),
                expected: "a unit vector",
            });
        }
        Ok(())
    };
    match j.kind {
        JointKind::Revolute {
            limit: l,
            motor: m,
            spring: s,
        } => limit(l).and(motor(m)).and(spring(s)),
        JointKind::Prismatic {
            limit: l,
            motor: m,
            spring: s,
        }
        | JointKind::Wheel {
            limit: l,
            motor: m,
            spring: s,
        } => unit_axis().and(limit(l)).and(motor(m)).and(spring(s)),
        JointKind::Distance {
            length,
            min,
            max,
            spring: s,
        } => non_negative(name, "min_length", min, MAX_LENGTH)
            .and(ordered(name, "min_length/length", min, length))
            .and(ordered(name, "length/max_length", length, max))
            .and(spring(s)),
        JointKind::Weld { linear, angular } => spring(Some(linear)).and(spring(Some(angular))),
        JointKind::Motor {
            max_force,
            max_torque,
            correction,
        } => non_negative(name, "max_force", max_force, MAX_FORCE)
            .and(non_negative(name, "max_torque", max_torque, MAX_FORCE))
            .and(non_negative(name, "correction_factor", correction, 1.0)),
        JointKind::Mouse {
            hertz,
            damping_ratio,
            max_force,
            ..
        } => non_negative(name, "hertz", hertz, MAX_FORCE)
            .and(non_negative(
                name,
                "damping_ratio",
                damping_ratio,
                MAX_FORCE,
            ))
            .and(non_negative(name, "max_force", max_force, MAX_FORCE)),
    }
    .map_err(text)
}

/// What a joint did in the last step ([`World::joint_reaction`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointReaction {
    /// Force on body B (N, world); A gets the opposite.
    pub force: Vec2,
    /// Torque on body B (N·m); A gets the opposite.
    pub torque: Real,
}

/// A body's angle (radians; its frame's, which is its centre-of-mass frame's).
fn angle_of(b: &Body) -> Real {
    b.pose.rotation.angle()
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
        let pa = match (j.body_a, j.kind) {
            (_, JointKind::Mouse { target, .. }) => target,
            (Some(a), _) => self.bodies.at(a).transform().transform_point(j.local_a),
            (None, _) => j.local_a,
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
        match &mut j.kind {
            JointKind::Mouse { target: t, .. } => {
                *t = target;
                Ok(())
            }
            other => Err(JointError::WrongKind {
                kind: other.name(),
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
        match &mut j.kind {
            JointKind::Revolute {
                motor: Some((s, _)),
                ..
            }
            | JointKind::Prismatic {
                motor: Some((s, _)),
                ..
            }
            | JointKind::Wheel {
                motor: Some((s, _)),
                ..
            } => {
                *s = speed;
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

    /// Checks a definition and converts it (see `add_joint`).
    fn build_joint(&self, def: JointDef) -> Result<Joint, JointError> {
        // Two bodies, distinct, one of them moving.
        type Keyed<'b> = (u32, &'b Body);
        let pair = |a: BodyId, b: BodyId| -> Result<(Keyed<'_>, Keyed<'_>), JointError> {
            if a == b {
                return Err(JointError::SameBody(a));
            }
            let (ja, jb) = (self.joint_body(a)?, self.joint_body(b)?);
            if ja.1.kind != BodyKind::Dynamic && jb.1.kind != BodyKind::Dynamic {
                return Err(JointError::NoDynamicBody);
            }
            Ok((ja, jb))
        };
        let spring = |name, on: bool, hertz: Real, zeta: Real| -> Result<_, JointError> {
            non_negative(name, "hertz", hertz, MAX_FORCE)?;
            non_negative(name, "damping_ratio", zeta, MAX_FORCE)?;
            Ok((on && hertz > 0.0).then_some((hertz, zeta)))
        };
        let motor = |name, on: bool, speed: Real, max: Real, field| -> Result<_, JointError> {
            finite(name, "motor_speed", speed)?;
            non_negative(name, field, max, MAX_FORCE)?;
            Ok(on.then_some((speed, max)))
        };
        let limit = |name, on: bool, lower: Real, upper: Real, field| -> Result<_, JointError> {
            ordered(name, field, lower, upper)?;
            Ok(on.then_some((lower, upper)))
        };
        let reference = |name, r: Option<Real>, a: &Body, b: &Body| -> Result<Real, JointError> {
            match r {
                Some(r) => {
                    finite(name, "reference_angle", r)?;
                    Ok(r)
                }
                None => Ok(angle_of(b) - angle_of(a)),
            }
        };
        let local = |b: &Body, p: Vec2| b.transform().inv_transform_point(p);
        let joint = |a: Option<u32>, b: u32, local_a, local_b, kind, common: JointCommon| Joint {
            body_a: a,
            body_b: b,
            local_a,
            local_b,
            local_axis: Vec2::X,
            reference_angle: 0.0,
            kind,
            common,
            impulses: JointImpulses::default(),
            force: Vec2::ZERO,
            torque: 0.0,
        };
        Ok(match def {
            JointDef::Revolute(d) => {
                let name = "revolute";
                let ((ka, a), (kb, b)) = pair(d.body_a, d.body_b)?;
                finite_vec(name, "anchor", d.anchor)?;
                check_common(name, &d.common)?;
                let kind = JointKind::Revolute {
                    limit: limit(
                        name,
                        d.enable_limit,
                        d.lower_angle,
                        d.upper_angle,
                        "angle limits",
                    )?,
                    motor: motor(
                        name,
                        d.enable_motor,
                        d.motor_speed,
                        d.max_motor_torque,
                        "max_motor_torque",
                    )?,
                    spring: spring(name, d.enable_spring, d.hertz, d.damping_ratio)?,
                };
                Joint {
                    reference_angle: reference(name, d.reference_angle, a, b)?,
                    ..joint(
                        Some(ka),
                        kb,
                        local(a, d.anchor),
                        local(b, d.anchor),
                        kind,
                        d.common,
                    )
                }
            }
            JointDef::Prismatic(d) => {
                let name = "prismatic";
                let ((ka, a), (kb, b)) = pair(d.body_a, d.body_b)?;
                finite_vec(name, "anchor", d.anchor)?;
                let ax = axis(name, d.axis)?;
                check_common(name, &d.common)?;
                let kind = JointKind::Prismatic {
                    limit: limit(
                        name,
                        d.enable_limit,
                        d.lower_translation,
                        d.upper_translation,
                        "translation limits",
                    )?,
                    motor: motor(
                        name,
                        d.enable_motor,
                        d.motor_speed,
                        d.max_motor_force,
                        "max_motor_force",
                    )?,
                    spring: spring(name, d.enable_spring, d.hertz, d.damping_ratio)?,
                };
                Joint {
                    reference_angle: reference(name, d.reference_angle, a, b)?,
                    local_axis: a.transform().rotation.inv_rotate(ax),
                    ..joint(
                        Some(ka),
                        kb,
                        local(a, d.anchor),
                        local(b, d.anchor),
                        kind,
                        d.common,
                    )
                }
            }
            JointDef::Distance(d) => {
                let name = "distance";
                let ((ka, a), (kb, b)) = pair(d.body_a, d.body_b)?;
                finite_vec(name, "anchor_a", d.anchor_a)?;
                finite_vec(name, "anchor_b", d.anchor_b)?;
                check_common(name, &d.common)?;
                non_negative(name, "length", d.length, MAX_LENGTH)?;
                non_negative(name, "min_length", d.min_length, MAX_LENGTH)?;
                ordered(name, "min_length/max_length", d.min_length, d.max_length)?;
                if d.length <= 0.0 && d.min_length >= d.max_length {
                    return Err(JointError::OutOfRange {
                        joint: name,
                        field: "length",
                        value: d.length,
                        expected: "positive for a rod (min_length = max_length)",
                    });
                }
                let kind = JointKind::Distance {
                    length: d.length.clamp(d.min_length, d.max_length),
                    min: d.min_length,
                    max: d.max_length,
                    spring: spring(name, d.enable_spring, d.hertz, d.damping_ratio)?,
                };
                joint(
                    Some(ka),
                    kb,
                    local(a, d.anchor_a),
                    local(b, d.anchor_b),
                    kind,
                    d.common,
                )
            }
            JointDef::Weld(d) => {
                let name = "weld";
                let ((ka, a), (kb, b)) = pair(d.body_a, d.body_b)?;
                finite_vec(name, "anchor", d.anchor)?;
                check_common(name, &d.common)?;
                non_negative(name, "linear_hertz", d.linear_hertz, MAX_FORCE)?;
                non_negative(
                    name,
                    "linear_damping_ratio",
                    d.linear_damping_ratio,
                    MAX_FORCE,
                )?;
                non_negative(name, "angular_hertz", d.angular_hertz, MAX_FORCE)?;
                non_negative(
                    name,
                    "angular_damping_ratio",
                    d.angular_damping_ratio,
                    MAX_FORCE,
                )?;
                let kind = JointKind::Weld {
                    linear: (d.linear_hertz, d.linear_damping_ratio),
                    angular: (d.angular_hertz, d.angular_damping_ratio),
                };
                Joint {
                    reference_angle: reference(name, d.reference_angle, a, b)?,
                    ..joint(
                        Some(ka),
                        kb,
                        local(a, d.anchor),
                        local(b, d.anchor),
                        kind,
                        d.common,
                    )
                }
            }
            JointDef::Wheel(d) => {
                let name = "wheel";
                let ((ka, a), (kb, b)) = pair(d.body_a, d.body_b)?;
                finite_vec(name, "anchor", d.anchor)?;
                let ax = axis(name, d.axis)?;
                check_common(name, &d.common)?;
                let kind = JointKind::Wheel {
                    limit: limit(
                        name,
                        d.enable_limit,
                        d.lower_translation,
                        d.upper_translation,
                        "translation limits",
                    )?,
                    motor: motor(
                        name,
                        d.enable_motor,
                        d.motor_speed,
                        d.max_motor_torque,
                        "max_motor_torque",
                    )?,
                    spring: spring(name, d.enable_spring, d.hertz, d.damping_ratio)?,
                };
                Joint {
                    local_axis: a.transform().rotation.inv_rotate(ax),
                    ..joint(
                        Some(ka),
                        kb,
                        local(a, d.anchor),
                        local(b, d.anchor),
                        kind,
                        d.common,
                    )
                }
            }
            JointDef::Motor(d) => {
                let name = "motor";
                let ((ka, a), (kb, b)) = pair(d.body_a, d.body_b)?;
                check_common(name, &d.common)?;
                non_negative(name, "max_force", d.max_force, MAX_FORCE)?;
                non_negative(name, "max_torque", d.max_torque, MAX_FORCE)?;
                finite(name, "correction_factor", d.correction_factor)?;
                if !(0.0..=1.0).contains(&d.correction_factor) {
                    return Err(JointError::OutOfRange {
                        joint: name,
                        field: "correction_factor",
                        value: d.correction_factor,
                        expected: "within [0, 1]",
                    });
                }
                let offset = match d.linear_offset {
                    Some(o) => {
                        finite_vec(name, "linear_offset", o)?;
                        o
                    }
                    None => local(a, b.transform().translation),
                };
                let kind = JointKind::Motor {
                    max_force: d.max_force,
                    max_torque: d.max_torque,
                    correction: d.correction_factor,
                };
                Joint {
                    reference_angle: reference(name, d.angular_offset, a, b)?,
                    ..joint(Some(ka), kb, offset, Vec2::ZERO, kind, d.common)
                }
            }
            JointDef::Mouse(d) => {
                let name = "mouse";
                let (kb, b) = self.joint_body(d.body)?;
                if b.kind != BodyKind::Dynamic {
                    return Err(JointError::NoDynamicBody);
                }
                finite_vec(name, "anchor", d.anchor)?;
                finite_vec(name, "target", d.target)?;
                check_common(name, &d.common)?;
                non_negative(name, "max_force", d.max_force, MAX_FORCE)?;
                non_negative(name, "damping_ratio", d.damping_ratio, MAX_FORCE)?;
                finite(name, "hertz", d.hertz)?;
                if d.hertz <= 0.0 {
                    return Err(JointError::OutOfRange {
                        joint: name,
                        field: "hertz",
                        value: d.hertz,
                        expected: "positive (Hz)",
                    });
                }
                let kind = JointKind::Mouse {
                    target: d.target,
                    hertz: d.hertz,
                    damping_ratio: d.damping_ratio,
                    max_force: d.max_force,
                };
                let common = JointCommon {
                    collide_connected: true,
                    ..d.common
                };
                joint(None, kb, Vec2::ZERO, local(b, d.anchor), kind, common)
            }
        })
    }
}

/// The joint's frames for one step: anchors from the centres of mass (world orientation), the
/// centres' offset and the relative angle minus the reference (see `joint_solver.rs`).
pub(crate) fn step_frames(j: &Joint, a: Option<&Body>, b: &Body) -> (Vec2, Vec2, Vec2, Real, Vec2) {
    let frame_of = |body: &Body, local: Vec2| body.pose.rotation.rotate(local - body.local_center);
    let frame_b = frame_of(b, j.local_b);
    match (a, j.kind) {
        (_, JointKind::Mouse { target, .. }) => (
            Vec2::ZERO,
            frame_b,
            b.pose.translation - target,
            0.0,
            Vec2::X,
        ),
        (Some(a), _) => {
            let frame_a = frame_of(a, j.local_a);
            let delta_center = b.pose.translation - a.pose.translation;
            let delta_angle = wrap(angle_of(b) - angle_of(a) - j.reference_angle);
            let axis = a.pose.rotation.rotate(j.local_axis);
            let frame_b = if matches!(j.kind, JointKind::Motor { .. }) {
                // B's origin from its centre of mass.
                b.pose.rotation.rotate(-b.local_center)
            } else {
                frame_b
            };
            (frame_a, frame_b, delta_center, delta_angle, axis)
        }
        (None, _) => (Vec2::ZERO, frame_b, b.pose.translation, 0.0, Vec2::X),
    }
}

/// An angle wrapped into (−π, π].
fn wrap(a: Real) -> Real {
    let t = a.rem_euclid(std::f64::consts::TAU);
    if t > std::f64::consts::PI {
        t - std::f64::consts::TAU
    } else {
        t
    }
}
