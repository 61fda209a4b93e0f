//! The plugin's systems: the game's components into the world (what the game changed, by Bevy's
//! change ticks and by comparison with what the plugin last wrote, so a value the plugin wrote
//! back is never taken for a change), the step, the results back, and transform interpolation
//! between the last two step poses.

use crate::components::*;
use crate::messages::*;
use crate::{Gravity, Physics, PhysicsError};
use bevy_ecs::hierarchy::Children;
use bevy_ecs::prelude::*;
use bevy_math::{DVec2, Quat, Vec3};
use bevy_time::{Fixed, Time};
use bevy_transform::components::Transform;
use sweep2d::{BodyDef, BodyId, ShapeDef, World};

/// The 2D pose a `Transform` stands for: its x, y (m) and its turn about z (rad), in f64 (the
/// `Transform`'s f32 values widened exactly; the angle from the rotation's z and w).
#[must_use]
pub fn pose_of(t: &Transform) -> (DVec2, f64) {
    let q = t.rotation;
    let angle = 2.0 * f64::from(q.z).atan2(f64::from(q.w));
    (
        DVec2::new(f64::from(t.translation.x), f64::from(t.translation.y)),
        angle,
    )
}

/// `t` moved to a 2D pose, keeping its z and scale.
fn placed(t: &Transform, (p, angle): (DVec2, f64)) -> Transform {
    Transform {
        translation: Vec3::new(p.x as f32, p.y as f32, t.translation.z),
        rotation: Quat::from_rotation_z(angle as f32),
        scale: t.scale,
    }
}

fn engine_pose((p, angle): (DVec2, f64)) -> sweep2d::Transform {
    sweep2d::Transform::new(p, angle)
}

/// The body's pose now: its origin (m) and angle (rad), world frame.
fn pose_of_body(b: &sweep2d::Body) -> (DVec2, f64) {
    let x = b.transform();
    (x.translation, x.angle())
}

/// Removes the bodies of entities that lost their `RigidBody` or were despawned (their joints
/// go with them).
pub(crate) fn remove_bodies(
    mut removed: RemovedComponents<RigidBody>,
    mut physics: ResMut<Physics>,
    mut commands: Commands,
) {
    for entity in removed.read() {
        let Some(id) = physics.bodies.remove(&entity) else {
            continue;
        };
        physics.entities.remove(&id);
        physics.own_shapes.remove(&entity);
        let _ = physics.world_mut().remove_body(id);
        if let Ok(mut e) = commands.get_entity(entity) {
            e.try_remove::<(PhysicsBody, StepPoses)>();
        }
    }
}

/// A body's material and layer components, for its child colliders' shapes.
type BodyMaterial<'a> = (
    Option<&'a Density>,
    Option<&'a Friction>,
    Option<&'a Restitution>,
    Option<&'a CollisionLayers>,
    Has<Sensor>,
);

type ChildCollider<'a> = (
    Entity,
    Ref<'a, Collider>,
    Ref<'a, Transform>,
    &'a bevy_ecs::hierarchy::ChildOf,
);

/// Keeps the shapes of child entities in step with their `Collider`s after their body exists: a
/// child `Collider` added (or moved to a new body) adds a shape placed by the child's
/// `Transform`, a changed one (shape or `Transform`) replaces it, a removed one (or a despawned
/// child) removes it. The shape takes the body's material and layers.
pub(crate) fn sync_child_colliders(
    mut removed: RemovedComponents<Collider>,
    children: Query<ChildCollider<'_>, Without<RigidBody>>,
    materials: Query<BodyMaterial<'_>>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
) {
    for child in removed.read() {
        if let Some((shape, _)) = physics.child_shapes.remove(&child) {
            let _ = physics.world_mut().remove_shape(shape);
        }
    }
    for (child, collider, offset, parent) in &children {
        let Some(body) = physics.body(parent.parent()) else {
            continue; // its body is not in the world yet: created with it
        };
        let ticks = (collider.last_changed(), offset.last_changed());
        let known = physics.child_shapes.get(&child).copied();
        if known.is_some_and(|(shape, at)| shape.body() == body && at == ticks) {
            continue; // in the world as it is now
        }
        let world = physics.world_mut();
        if let Some((old, _)) = known {
            let _ = world.remove_shape(old);
        }
        let (density, friction, restitution, layers, sensor) = materials
            .get(parent.parent())
            .unwrap_or((None, None, None, None, false));
        let def = ShapeDef {
            shape: collider.0.clone(),
            offset: engine_pose(pose_of(&offset)),
            density: density.copied().unwrap_or_default().0,
            friction: friction.copied().unwrap_or_default().0,
            restitution: restitution.copied().unwrap_or_default().0,
            filter: layers.copied().unwrap_or_default().filter(),
            sensor,
        };
        match world.add_shape(body, def) {
            Ok(shape) => {
                physics.child_shapes.insert(child, (shape, ticks));
            }
            Err(e) => {
                physics.child_shapes.remove(&child);
                errors.write(PhysicsError {
                    entity: Some(child),
                    message: e.to_string(),
                });
            }
        }
    }
}

/// A body whose `Collider` or `Sensor` changed (or was added).
type ShapeChanged = Or<(Changed<Collider>, Changed<Sensor>)>;

type BodyShape<'a> = (
    Entity,
    &'a PhysicsBody,
    Ref<'a, Collider>,
    Has<Sensor>,
    Option<&'a Children>,
);

/// A body's own shape follows its `Collider` after the body exists, and every shape of the body
/// its `Sensor`: a changed `Collider` replaces the shape (same material and layers); a `Sensor`
/// added or removed remakes the body's shapes with the flag (its child colliders' shapes are
/// remade by [`sync_child_colliders`], which runs next). A refused shape leaves the old one.
pub(crate) fn sync_body_shapes(
    changed: Query<BodyShape<'_>, ShapeChanged>,
    mut unsensed: RemovedComponents<Sensor>,
    all: Query<BodyShape<'_>>,
    materials: Query<BodyMaterial<'_>>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
) {
    // Only bodies whose `Collider` or `Sensor` changed or lost its `Sensor` (the ticks kept in
    // `own_shapes` make a change seen by both schedules' runs count once).
    let lost: Vec<Entity> = unsensed.read().collect();
    let bodies = changed
        .iter()
        .chain(lost.iter().filter_map(|e| all.get(*e).ok()));
    for (entity, body, collider, sensor, children) in bodies {
        let Some(&(old, tick, was_sensor)) = physics.own_shapes.get(&entity) else {
            continue;
        };
        if collider.last_changed() == tick && sensor == was_sensor {
            continue;
        }
        let (density, friction, restitution, layers, _) = materials
            .get(entity)
            .unwrap_or((None, None, None, None, false));
        let def = ShapeDef {
            shape: collider.0.clone(),
            offset: sweep2d::Transform::IDENTITY,
            density: density.copied().unwrap_or_default().0,
            friction: friction.copied().unwrap_or_default().0,
            restitution: restitution.copied().unwrap_or_default().0,
            filter: layers.copied().unwrap_or_default().filter(),
            sensor,
        };
        // The new shape first, so the body always has one.
        let world = physics.world_mut();
        match world.add_shape(body.0, def) {
            Ok(new) => {
                let _ = world.remove_shape(old);
                physics
                    .own_shapes
                    .insert(entity, (new, collider.last_changed(), sensor));
            }
            Err(e) => {
                physics
                    .own_shapes
                    .insert(entity, (old, collider.last_changed(), sensor));
                errors.write(PhysicsError {
                    entity: Some(entity),
                    message: e.to_string(),
                });
                continue;
            }
        }
        if sensor != was_sensor {
            for child in children.into_iter().flatten() {
                if let Some((shape, _)) = physics.child_shapes.remove(child) {
                    let _ = physics.world_mut().remove_shape(shape);
                }
            }
        }
    }
}

/// Marks an entity whose body the world refused, so it is not tried again every frame; a change
/// to its `RigidBody`, `Collider`, `Density`, `LinearVelocity` or `Transform` tries again.
#[derive(Component)]
pub(crate) struct Refused;

type RefusedBody<'a> = (
    Entity,
    Ref<'a, Refused>,
    Ref<'a, RigidBody>,
    Ref<'a, Collider>,
    Ref<'a, Transform>,
    Ref<'a, LinearVelocity>,
    Option<Ref<'a, Density>>,
);

/// Lets the world try a refused body again once the game changed one of its components.
pub(crate) fn retry_refused(
    refused: Query<RefusedBody<'_>>,
    ticks: bevy_ecs::system::SystemChangeTick,
    mut commands: Commands,
) {
    for (entity, mark, kind, shape, transform, v, density) in &refused {
        let since = mark.added();
        let newer = |t: bevy_ecs::change_detection::Tick| t.is_newer_than(since, ticks.this_run());
        let changed = newer(kind.last_changed())
            || newer(shape.last_changed())
            || newer(transform.last_changed())
            || newer(v.last_changed())
            || density.is_some_and(|d| newer(d.last_changed()));
        if changed {
            commands.entity(entity).remove::<Refused>();
        }
    }
}

/// The materials and filter a body's shapes get from its components.
struct Material {
    density: f64,
    friction: f64,
    restitution: f64,
    filter: sweep2d::Filter,
    sensor: bool,
}

type NewBody<'a> = (
    Entity,
    &'a RigidBody,
    Ref<'a, Collider>,
    &'a Transform,
    &'a LinearVelocity,
    &'a AngularVelocity,
    (
        Option<&'a Density>,
        Option<&'a Friction>,
        Option<&'a Restitution>,
        Option<&'a CollisionLayers>,
        Option<&'a Sensor>,
    ),
    (
        Option<&'a GravityScale>,
        Option<&'a LockedAxes>,
        Option<&'a Sleeping>,
        Option<&'a Children>,
    ),
);

/// Adds a body for each new `RigidBody` entity with a `Collider`: its pose from `Transform`, its
/// settings from the other components, and a shape for each child entity with a `Collider`
/// (placed by the child's `Transform`). A refused body is reported once as a [`PhysicsError`]
/// and adds nothing.
pub(crate) fn create_bodies(
    new: Query<NewBody<'_>, (Without<PhysicsBody>, Without<Refused>)>,
    child_colliders: Query<(Ref<Collider>, Ref<Transform>)>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
    mut commands: Commands,
) {
    let mut child_shapes = Vec::new();
    for (entity, kind, collider, transform, v, w, material, (gravity, locks, sleeping, children)) in
        &new
    {
        let (density, friction, restitution, layers, sensor) = material;
        let m = Material {
            density: density.copied().unwrap_or_default().0,
            friction: friction.copied().unwrap_or_default().0,
            restitution: restitution.copied().unwrap_or_default().0,
            filter: layers.copied().unwrap_or_default().filter(),
            sensor: sensor.is_some(),
        };
        let locks = locks.copied().unwrap_or_default();
        let pose = pose_of(transform);
        let def = BodyDef {
            kind: kind.kind(),
            shape: collider.0.clone(),
            transform: engine_pose(pose),
            linear_velocity: v.0,
            angular_velocity: w.0,
            density: m.density,
            restitution: m.restitution,
            friction: m.friction,
            filter: m.filter,
            sensor: m.sensor,
            gravity_scale: gravity.copied().unwrap_or_default().0,
            fixed_rotation: locks.rotation,
            lock_x: locks.translation_x,
            lock_y: locks.translation_y,
            awake: sleeping.is_none(),
            user_tag: Some(entity.to_bits()),
            ..BodyDef::default()
        };
        let world = physics.world_mut();
        let id = match world.add_body(def) {
            Ok(id) => id,
            Err(e) => {
                errors.write(PhysicsError {
                    entity: Some(entity),
                    message: e.to_string(),
                });
                commands.entity(entity).insert(Refused);
                continue;
            }
        };
        for child in children.into_iter().flatten() {
            let Ok((shape, offset)) = child_colliders.get(*child) else {
                continue;
            };
            let extra = ShapeDef {
                shape: shape.0.clone(),
                offset: engine_pose(pose_of(&offset)),
                density: m.density,
                friction: m.friction,
                restitution: m.restitution,
                filter: m.filter,
                sensor: m.sensor,
            };
            match world.add_shape(id, extra) {
                Ok(s) => {
                    child_shapes.push((*child, (s, (shape.last_changed(), offset.last_changed()))))
                }
                Err(e) => {
                    errors.write(PhysicsError {
                        entity: Some(*child),
                        message: e.to_string(),
                    });
                }
            }
        }
        let pose = world.body(id).map_or(pose, pose_of_body);
        if let Some(&own) = world.shape_ids(id).first() {
            let own = (own, collider.last_changed(), m.sensor);
            physics.own_shapes.insert(entity, own);
        }
        physics.child_shapes.extend(child_shapes.drain(..));
        physics.entities.insert(id, entity);
        physics.bodies.insert(entity, id);
        commands.entity(entity).remove::<Refused>().insert((
            PhysicsBody(id),
            StepPoses {
                previous: pose,
                current: pose,
                written: *transform,
                asleep: sleeping.is_some(),
            },
        ));
    }
}

type Synced<'a> = (
    Entity,
    &'a PhysicsBody,
    Ref<'a, RigidBody>,
    &'a Transform,
    &'a mut StepPoses,
    Ref<'a, LinearVelocity>,
    Ref<'a, AngularVelocity>,
    (
        Option<Ref<'a, Friction>>,
        Option<Ref<'a, Restitution>>,
        Option<Ref<'a, CollisionLayers>>,
        Option<Ref<'a, GravityScale>>,
        Option<Ref<'a, LockedAxes>>,
    ),
    (
        Option<&'a mut ExternalImpulse>,
        Has<Sleeping>,
        Option<Ref<'a, Mass>>,
    ),
);

/// Copies what the game changed into the world: a `Transform` other than the one the plugin
/// wrote (a teleport), velocities the game wrote (not the plugin's write-back: a velocity set on
/// the world directly stays), the kind, materials, layers, gravity scale, locks and `Sleeping`
/// added or removed; applies impulses (once: it zeroes them). A refused value is a
/// [`PhysicsError`] and changes nothing. An entity the game did not touch since the last sync
/// costs a few comparisons and no look-up in the world.
pub(crate) fn sync_changes(
    mut bodies: Query<Synced<'_>>,
    gravity: Res<Gravity>,
    settings: Res<crate::PhysicsConfig>,
    written: Res<WriteTick>,
    mut refused: Local<Option<sweep2d::WorldConfig>>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
) {
    let world = physics.world_mut();
    let wanted = sweep2d::WorldConfig {
        gravity: gravity.0,
        dt: world.config().dt,
        ..settings.0
    };
    if *world.config() != wanted && *refused != Some(wanted) {
        match world.set_config(wanted) {
            Ok(()) => *refused = None,
            Err(e) => {
                *refused = Some(wanted); // reported once, until the settings change again
                errors.write(PhysicsError {
                    entity: None,
                    message: e.to_string(),
                });
            }
        }
    }
    // Changed since this system last ran, and not by the write-back.
    let by_game =
        |tick: bevy_ecs::change_detection::Tick, changed: bool| changed && tick != written.0;
    for (entity, body, kind, transform, mut poses, v, w, settings, (impulse, sleeping, mass)) in
        &mut bodies
    {
        let (friction, restitution, layers, gravity_scale, locks) = settings;
        let velocity_set =
            by_game(v.last_changed(), v.is_changed()) || by_game(w.last_changed(), w.is_changed());
        let touched = kind.is_changed()
            || *transform != poses.written
            || velocity_set
            || changed(&friction)
            || changed(&restitution)
            || changed(&layers)
            || changed(&gravity_scale)
            || changed(&locks)
            || changed(&mass)
            || sleeping != poses.asleep
            || impulse.as_ref().is_some_and(|j| j.0 != DVec2::ZERO);
        if !touched {
            continue;
        }
        let id = body.0;
        let mut report = |r: Result<(), sweep2d::BodyError>| {
            if let Err(e) = r {
                errors.write(PhysicsError {
                    entity: Some(entity),
                    message: e.to_string(),
                });
            }
        };
        let Some((lv, av, engine_kind)) = world
            .body(id)
            .map(|b| (b.linear_velocity(), b.angular_velocity(), b.kind()))
        else {
            continue;
        };
        if kind.is_changed() && engine_kind != kind.kind() {
            report(world.set_body_kind(id, kind.kind()));
        }
        if *transform != poses.written {
            let to = pose_of(transform);
            report(world.set_transform(id, engine_pose(to)));
            poses.previous = to;
            poses.current = to;
            poses.written = *transform;
        }
        if velocity_set && (v.0, w.0) != (lv, av) && *kind != RigidBody::Static {
            report(world.set_velocity(id, v.0, w.0));
        }
        let material_changed = changed(&friction) || changed(&restitution);
        if material_changed {
            let f = friction.map_or(Friction::default().0, |f| f.0);
            let r = restitution.map_or(0.0, |r| r.0);
            for shape in world.shape_ids(id) {
                report(world.set_shape_material(shape, f, r));
            }
        }
        if let Some(layers) = layers.filter(|l| l.is_changed()) {
            for shape in world.shape_ids(id) {
                report(world.set_filter(shape, layers.filter()));
            }
        }
        if let Some(g) = gravity_scale.filter(|g| g.is_changed()) {
            report(world.set_gravity_scale(id, g.0));
        }
        if let Some(l) = locks.filter(|l| l.is_changed()) {
            report(world.set_fixed_rotation(id, l.rotation));
            report(world.set_locked_translation(id, l.translation_x, l.translation_y));
        }
        if let Some(m) = mass.filter(|m| m.is_changed()) {
            report(set_mass(world, id, Some(m.0)));
        }
        // `Sleeping` added or removed by the game (the write-back's own are in `poses.asleep`).
        if sleeping != poses.asleep {
            poses.asleep = sleeping;
            let awake = world.body(id).is_some_and(|b| b.is_awake());
            if *kind == RigidBody::Dynamic && sleeping && awake {
                report(world.put_to_sleep(id));
            } else if *kind == RigidBody::Dynamic && !sleeping && !awake {
                report(world.wake(id));
            }
        }
        if let Some(mut j) = impulse.filter(|j| j.0 != DVec2::ZERO) {
            report(world.apply_impulse_to_center(id, j.0));
            j.bypass_change_detection().0 = DVec2::ZERO;
        }
    }
}

/// Whether an optional component is there and changed since the system last ran.
fn changed<T: Component>(c: &Option<Ref<'_, T>>) -> bool {
    c.as_ref().is_some_and(|c| c.is_changed())
}

/// The change tick of the write-back's last run: a velocity component last changed then holds
/// the world's own value, not a change by the game.
#[derive(Resource, Default)]
pub(crate) struct WriteTick(pub(crate) bevy_ecs::change_detection::Tick);

/// Gives body `id` the mass `mass` (kg) with its shapes' centre and their inertia scaled to it,
/// or its shapes' own mass data for `None`. A refused mass leaves the body as it was.
fn set_mass(world: &mut World, id: BodyId, mass: Option<f64>) -> Result<(), sweep2d::BodyError> {
    let before = world.body(id).and_then(|b| b.mass_data());
    world.set_mass_data(id, None)?;
    let Some(mass) = mass else { return Ok(()) };
    let Some(b) = world.body(id) else {
        return Ok(());
    };
    let (m0, i0, center) = (b.mass(), b.inertia(), b.local_center_of_mass());
    let data = sweep2d::MassData {
        mass,
        inertia: if m0 > 0.0 { i0 * mass / m0 } else { 0.0 },
        center,
    };
    world.set_mass_data(id, Some(data)).inspect_err(|_| {
        let _ = world.set_mass_data(id, before);
    })
}

/// Bodies whose game removed a setting's component go back to its default: `Mass` to the
/// densities', `Restitution` to 0 and `Friction` to 0.6, `CollisionLayers` to layer 1 seeing all,
/// `GravityScale` to 1, `LockedAxes` to none.
#[allow(clippy::too_many_arguments)]
pub(crate) fn reset_removed(
    mut mass: RemovedComponents<Mass>,
    mut restitution: RemovedComponents<Restitution>,
    mut friction: RemovedComponents<Friction>,
    mut layers: RemovedComponents<CollisionLayers>,
    mut gravity: RemovedComponents<GravityScale>,
    mut locks: RemovedComponents<LockedAxes>,
    materials: Query<(Option<&Friction>, Option<&Restitution>)>,
    mut physics: ResMut<Physics>,
) {
    let (world, _, bodies) = physics.parts();
    let of = |e: Entity| bodies.get(&e).copied();
    for id in mass.read().filter_map(of) {
        let _ = set_mass(world, id, None);
    }
    let material: Vec<Entity> = restitution.read().chain(friction.read()).collect();
    for e in material {
        let Some(id) = of(e) else { continue };
        let (f, r) = materials.get(e).unwrap_or((None, None));
        let (f, r) = (f.copied().unwrap_or_default().0, r.map_or(0.0, |r| r.0));
        for shape in world.shape_ids(id) {
            let _ = world.set_shape_material(shape, f, r);
        }
    }
    for id in layers.read().filter_map(of) {
        for shape in world.shape_ids(id) {
            let _ = world.set_filter(shape, CollisionLayers::default().filter());
        }
    }
    for id in gravity.read().filter_map(of) {
        let _ = world.set_gravity_scale(id, 1.0);
    }
    for id in locks.read().filter_map(of) {
        let _ = world.set_fixed_rotation(id, false);
        let _ = world.set_locked_translation(id, false, false);
    }
}

/// Applies each [`ExternalForce`] for the coming step (only here, once per step).
pub(crate) fn apply_forces(
    forces: Query<(Entity, &PhysicsBody, &ExternalForce)>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
) {
    let world = physics.world_mut();
    for (entity, body, force) in &forces {
        if force.0 == DVec2::ZERO {
            continue;
        }
        let Some(centre) = world.body(body.0).map(|b| b.center_of_mass()) else {
            continue;
        };
        if let Err(e) = world.apply_force(body.0, force.0, centre) {
            errors.write(PhysicsError {
                entity: Some(entity),
                message: e.to_string(),
            });
        }
    }
}

/// One step of the world, with its `dt` kept equal to Bevy's fixed timestep.
pub(crate) fn step(
    time: Res<Time<Fixed>>,
    mut physics: ResMut<Physics>,
    mut errors: MessageWriter<PhysicsError>,
) {
    let checked = physics.checked_steps;
    let world = physics.world_mut();
    let dt = time.timestep().as_secs_f64();
    if world.config().dt != dt {
        let config = sweep2d::WorldConfig {
            dt,
            ..*world.config()
        };
        if let Err(e) = world.set_config(config) {
            errors.write(PhysicsError {
                entity: None,
                message: e.to_string(),
            });
            return;
        }
    }
    if !checked {
        world.step();
    } else if let Err(e) = world.try_step() {
        errors.write(PhysicsError {
            entity: None,
            message: e.to_string(),
        });
    }
}

/// The step's message writers.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct StepMessages<'w> {
    started: MessageWriter<'w, CollisionStarted>,
    ended: MessageWriter<'w, CollisionEnded>,
    impacts: MessageWriter<'w, Impact>,
    entered: MessageWriter<'w, SensorEntered>,
    exited: MessageWriter<'w, SensorExited>,
    slept: MessageWriter<'w, BodySlept>,
    woke: MessageWriter<'w, BodyWoke>,
    broken: MessageWriter<'w, crate::JointBroken>,
}

type WrittenBack<'a> = (
    Entity,
    &'a PhysicsBody,
    &'a mut Transform,
    &'a mut StepPoses,
    &'a mut LinearVelocity,
    &'a mut AngularVelocity,
    Has<Sleeping>,
);

/// Writes each body's new pose (to `Transform`: interpolation then moves it between steps),
/// velocities and sleep state back, and the step's events as messages with entities.
pub(crate) fn write_back(
    mut bodies: Query<WrittenBack<'_>>,
    physics: Res<Physics>,
    mut out: StepMessages<'_>,
    mut commands: Commands,
    ticks: bevy_ecs::system::SystemChangeTick,
    mut written: ResMut<WriteTick>,
) {
    written.0 = ticks.this_run();
    physics.read(|world| {
        for (entity, body, mut transform, mut poses, mut v, mut w, sleeping) in &mut bodies {
            let Some(b) = world.body(body.0) else {
                continue;
            };
            let pose = pose_of_body(b);
            let (lv, av, awake) = (b.linear_velocity(), b.angular_velocity(), b.is_awake());
            poses.previous = poses.current;
            poses.current = pose;
            let t = placed(&transform, pose);
            if *transform != t {
                *transform = t;
            }
            poses.written = t;
            if v.0 != lv {
                v.0 = lv;
            }
            if w.0 != av {
                w.0 = av;
            }
            poses.asleep = !awake;
            if awake == sleeping {
                if awake {
                    commands.entity(entity).remove::<Sleeping>();
                } else {
                    commands.entity(entity).insert(Sleeping);
                }
            }
        }
        let entity = |id: BodyId| physics.entity(id);
        let events = world.events();
        for c in &events.contact_begin {
            if let (Some(a), Some(b)) = (entity(c.body_a), entity(c.body_b)) {
                out.started.write(CollisionStarted {
                    a,
                    b,
                    point: c.point,
                    normal: c.normal,
                });
            }
        }
        for c in &events.contact_end {
            if let (Some(a), Some(b)) = (entity(c.body_a), entity(c.body_b)) {
                out.ended.write(CollisionEnded { a, b });
            }
        }
        for i in &events.impacts {
            if let (Some(a), Some(b)) = (entity(i.body_a), entity(i.body_b)) {
                out.impacts.write(Impact {
                    a,
                    b,
                    time: i.time,
                    fraction: i.fraction,
                    point: i.point,
                    normal: i.normal,
                    speed: i.relative_speed,
                    impulse: i.impulse,
                });
            }
        }
        for (list, enter) in [(&events.sensor_begin, true), (&events.sensor_end, false)] {
            for s in list {
                if let (Some(sensor), Some(visitor)) =
                    (entity(s.sensor_body), entity(s.visitor_body))
                {
                    let fraction = s.fraction;
                    if enter {
                        out.entered.write(SensorEntered {
                            sensor,
                            visitor,
                            fraction,
                        });
                    } else {
                        out.exited.write(SensorExited {
                            sensor,
                            visitor,
                            fraction,
                        });
                    }
                }
            }
        }
        for e in events.fell_asleep.iter().filter_map(|id| entity(*id)) {
            out.slept.write(BodySlept(e));
        }
        for e in events.woke.iter().filter_map(|id| entity(*id)) {
            out.woke.write(BodyWoke(e));
        }
        for j in &events.joint_events {
            if let Some(&joint) = physics.joint_entities.get(&j.joint) {
                out.broken.write(crate::JointBroken {
                    joint,
                    force: j.force,
                    torque: j.torque,
                });
            }
        }
    });
}

/// Moves each moving body's `Transform` between its last two step poses by how far the frame
/// is into the next fixed step (`Time<Fixed>::overstep_fraction`), for smooth rendering at any
/// frame rate. Entities with [`NoInterpolation`] keep the last step's pose.
pub(crate) fn interpolate(
    time: Res<Time<Fixed>>,
    mut bodies: Query<(&RigidBody, &mut Transform, &mut StepPoses), Without<NoInterpolation>>,
) {
    let alpha = time.overstep_fraction_f64().clamp(0.0, 1.0);
    for (kind, mut transform, mut poses) in &mut bodies {
        if *kind == RigidBody::Static || poses.previous == poses.current {
            continue;
        }
        let (p0, a0) = poses.previous;
        let (p1, a1) = poses.current;
        let turn = (a1 - a0 + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
            - std::f64::consts::PI;
        let t = placed(&transform, (p0.lerp(p1, alpha), a0 + turn * alpha));
        *transform = t;
        poses.written = t;
    }
}
