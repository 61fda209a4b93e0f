//! Joints as entities: a [`Joint`] names its two body entities and says how to build the
//! engine's joint between their bodies (any of sweep2d's seven kinds with every option:
//! `docs/joints.md`). The plugin adds it once both bodies exist, removes it when the joint entity
//! loses the component or is despawned, and reports a reaction past its thresholds as
//! [`JointBroken`] (the game despawns the joint to break it).

use crate::{Physics, PhysicsError};
use bevy_ecs::prelude::*;
use std::sync::Arc;
use sweep2d::{BodyId, JointDef, JointId};

/// Builds the engine's joint definition from the two bodies' ids (body B's alone for a mouse
/// joint).
pub type MakeJoint = Arc<dyn Fn(BodyId, BodyId) -> JointDef + Send + Sync>;

/// A joint between the bodies of two entities (world-frame anchors as the bodies stand when it is
/// added):
///
/// ```
/// # use bevy_ecs::prelude::*;
/// # use bevy_sweep2d::prelude::*;
/// # use sweep2d::RevoluteJointDef;
/// # fn f(mut commands: Commands, ceiling: Entity, lamp: Entity) {
/// commands.spawn(Joint::new(ceiling, lamp, |a, b| {
///     RevoluteJointDef::new(a, b, DVec2::new(0.0, 5.0)).into()
/// }));
/// # }
/// ```
#[derive(Component, Clone)]
pub struct Joint {
    /// Body A's entity (the same as B for a mouse joint).
    pub a: Entity,
    /// Body B's entity.
    pub b: Entity,
    /// The definition, from the bodies' ids.
    pub make: MakeJoint,
}

impl Joint {
    /// A joint between `a`'s and `b`'s bodies, built by `make(body_a, body_b)`.
    pub fn new(
        a: Entity,
        b: Entity,
        make: impl Fn(BodyId, BodyId) -> JointDef + Send + Sync + 'static,
    ) -> Self {
        Self {
            a,
            b,
            make: Arc::new(make),
        }
    }

    /// A joint on one body (a mouse joint), built by `make(body)`.
    pub fn single(body: Entity, make: impl Fn(BodyId) -> JointDef + Send + Sync + 'static) -> Self {
        Self::new(body, body, move |_, b| make(b))
    }
}

impl std::fmt::Debug for Joint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Joint")
            .field("a", &self.a)
            .field("b", &self.b)
            .finish_non_exhaustive()
    }
}

/// The joint's engine id (added by the plugin once the joint is in the world).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhysicsJoint(pub JointId);

/// A joint's reaction passed its thresholds (`JointCommon::force_threshold` /
/// `torque_threshold` in its definition): force (N) and torque (N·m) on body B in the step.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct JointBroken {
    /// The joint's entity.
    pub joint: Entity,
    /// Reaction force (N).
    pub force: f64,
    /// Reaction torque (N·m).
    pub torque: f64,
}

/// Joints whose entity lost the `Joint` or was despawned leave the world.
pub(crate) fn remove_joints(
    mut removed: RemovedComponents<Joint>,
    mut physics: ResMut<Physics>,
    mut commands: Commands,
) {
    for entity in removed.read() {
        let Some(id) = physics.joints.remove(&entity) else {
            continue;
        };
        physics.joint_entities.remove(&id);
        let _ = physics.world_mut().remove_joint(id);
        if let Ok(mut e) = commands.get_entity(entity) {
            e.try_remove::<PhysicsJoint>();
        }
    }
}

/// Adds each new joint whose bodies exist; a joint the world refuses is a [`PhysicsError`] and
/// is not tried again until the `Joint` changes. A joint whose body was removed (and the engine
/// with it removed the joint) loses its [`PhysicsJoint`].
pub(crate) fn create_joints(
    joints: Query<(Entity, Ref<Joint>, Option<&PhysicsJoint>)>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
    mut commands: Commands,
) {
    for (entity, joint, added) in &joints {
        if let Some(PhysicsJoint(id)) = added {
            if physics.read(|w| w.joint_kind(*id).is_none()) {
                physics.joints.remove(&entity);
                physics.joint_entities.remove(id);
                commands.entity(entity).remove::<PhysicsJoint>();
            }
            continue;
        }
        if physics.joints.contains_key(&entity) {
            continue;
        }
        let (Some(a), Some(b)) = (physics.body(joint.a), physics.body(joint.b)) else {
            continue; // a body is not in the world yet (or any more)
        };
        if physics.refused_joints.get(&entity) == Some(&joint.last_changed()) {
            continue; // refused as it is now
        }
        match physics.world_mut().add_joint((joint.make)(a, b)) {
            Ok(id) => {
                physics.refused_joints.remove(&entity);
                physics.joints.insert(entity, id);
                physics.joint_entities.insert(id, entity);
                commands.entity(entity).insert(PhysicsJoint(id));
            }
            Err(e) => {
                physics.refused_joints.insert(entity, joint.last_changed());
                errors.write(PhysicsError {
                    entity: Some(entity),
                    message: e.to_string(),
                });
            }
        }
    }
}
