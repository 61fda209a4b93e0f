//! The plugin headless: `TaskPoolPlugin`, `TimePlugin` and `SweepPlugin`, a manual clock that runs
//! exactly one fixed step per `App::update` (or a chosen duration), and the world checked through
//! the `Physics` resource.

use bevy_app::prelude::*;
use bevy_app::TaskPoolPlugin;
use bevy_ecs::prelude::*;
use bevy_sweep2d::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use std::time::Duration;
use sweep2d::{DistanceJointDef, RevoluteJointDef};

const DT: f64 = 1.0 / 60.0;

/// An app with the plugin, no gravity unless set, one fixed step per update.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        SweepPlugin::default(),
    ))
    .insert_resource(Time::<Fixed>::from_seconds(DT))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .insert_resource(Gravity(DVec2::ZERO))
    .init_resource::<Seen>()
    .add_systems(Update, collect);
    app
}

/// Every message the plugin wrote, gathered each frame.
#[derive(Resource, Default)]
struct Seen {
    impacts: Vec<Impact>,
    started: Vec<CollisionStarted>,
    entered: Vec<SensorEntered>,
    slept: Vec<BodySlept>,
    errors: Vec<PhysicsError>,
}

fn collect(
    mut seen: ResMut<Seen>,
    mut impacts: MessageReader<Impact>,
    mut started: MessageReader<CollisionStarted>,
    mut entered: MessageReader<SensorEntered>,
    mut slept: MessageReader<BodySlept>,
    mut errors: MessageReader<PhysicsError>,
) {
    seen.impacts.extend(impacts.read().copied());
    seen.started.extend(started.read().copied());
    seen.entered.extend(entered.read().copied());
    seen.slept.extend(slept.read().copied());
    seen.errors.extend(errors.read().cloned());
}

/// The world's step: Bevy's fixed timestep, a whole number of nanoseconds.
fn step_of(app: &App) -> f64 {
    app.world()
        .resource::<Time<Fixed>>()
        .timestep()
        .as_secs_f64()
}

/// The engine body of entity `e` (which must have one).
fn body_id(app: &App, e: Entity) -> sweep2d::BodyId {
    app.world()
        .get::<PhysicsBody>(e)
        .expect("the entity has a body")
        .0
}

fn x_of(app: &App, e: Entity) -> f64 {
    let t = app.world().get::<Transform>(e).unwrap();
    f64::from(t.translation.x)
}

fn wall(app: &mut App, x: f64) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Static,
            Collider(Shape::rectangle(0.005, 2.0).unwrap()),
            Transform::from_xyz(x as f32, 0.0, 0.0),
            Restitution(1.0),
        ))
        .id()
}

fn ball(app: &mut App, x: f64, v: f64, r: f64) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider(Shape::circle(r).unwrap()),
            Transform::from_xyz(x as f32, 0.0, 0.0),
            LinearVelocity(DVec2::new(v, 0.0)),
            Restitution(1.0),
            Friction(0.0),
            NoInterpolation,
        ))
        .id()
}

#[test]
fn a_300_m_s_bullet_bounces_off_a_1_cm_wall_and_the_impact_names_both() {
    let mut app = app();
    let w = wall(&mut app, 5.0);
    let b = ball(&mut app, 0.0, 300.0, 0.05);
    for _ in 0..4 {
        app.update();
        assert!(x_of(&app, b) < 5.0 - 0.005, "the bullet passed the wall");
    }
    let seen = app.world().resource::<Seen>();
    assert_eq!(seen.impacts.len(), 1, "{:?}", seen.impacts);
    let i = seen.impacts[0];
    assert_eq!((i.a, i.b), (b, w));
    // It meets the wall's face (x = 4.995) with its 5 cm radius after (4.995 − 0.05)/300 s.
    let dt = step_of(&app);
    assert!((i.time - 4.945 / 300.0).abs() < 1e-9, "{}", i.time);
    assert!(
        (i.fraction - 4.945 / 300.0 / dt).abs() < 1e-9,
        "{}",
        i.fraction
    );
    let v = app.world().get::<LinearVelocity>(b).unwrap().0;
    assert!((v.x + 300.0).abs() < 1e-9, "elastic: {v}");
    assert!(seen.errors.is_empty(), "{:?}", seen.errors);
}

#[test]
fn changing_velocity_or_kind_takes_effect_next_step() {
    let mut app = app();
    let b = ball(&mut app, 0.0, 1.0, 0.1);
    app.update();
    let x1 = x_of(&app, b);
    let steps = app.world().resource::<Physics>().read(|w| w.step_count());
    assert!(
        (x1 - steps as f64 * DT).abs() < 1e-6,
        "{x1} after {steps} steps"
    );
    app.world_mut().get_mut::<LinearVelocity>(b).unwrap().0 = DVec2::new(-3.0, 0.0);
    app.update();
    assert!((x_of(&app, b) - (x1 - 3.0 * DT)).abs() < 1e-6);
    *app.world_mut().get_mut::<RigidBody>(b).unwrap() = RigidBody::Static;
    app.update();
    let x2 = x_of(&app, b);
    app.update();
    assert_eq!(x_of(&app, b), x2, "a static body stays");
    let id = body_id(&app, b);
    let kind = app
        .world_mut()
        .resource_mut::<Physics>()
        .world_mut()
        .body(id)
        .unwrap()
        .kind();
    assert_eq!(kind, sweep2d::BodyKind::Static);
}

#[test]
fn joint_entities_join_bodies_and_despawning_removes_them() {
    let mut app = app();
    let a = ball(&mut app, 0.0, 0.0, 0.1);
    let b = ball(&mut app, 1.0, 0.0, 0.1);
    let c = ball(&mut app, 3.0, 0.0, 0.1);
    let rod = app
        .world_mut()
        .spawn(Joint::new(a, b, |a, b| {
            DistanceJointDef::new(a, b, DVec2::ZERO, DVec2::new(1.0, 0.0)).into()
        }))
        .id();
    let pin = app
        .world_mut()
        .spawn(Joint::new(b, c, |b, c| {
            RevoluteJointDef::new(b, c, DVec2::new(2.0, 0.0)).into()
        }))
        .id();
    app.update();
    let counts = |app: &App| {
        app.world()
            .resource::<Physics>()
            .read(|w| (w.body_count(), w.joint_count()))
    };
    assert_eq!(counts(&app), (3, 2));
    assert!(app.world().get::<PhysicsJoint>(rod).is_some());
    // The rod holds: pull a away and b follows at 1 m.
    app.world_mut().get_mut::<LinearVelocity>(a).unwrap().0 = DVec2::new(-2.0, 0.0);
    for _ in 0..30 {
        app.update();
    }
    let gap = x_of(&app, b) - x_of(&app, a);
    assert!((gap - 1.0).abs() < 1e-3, "{gap}");
    // Despawning the joint entity removes the joint; despawning a body removes its joints.
    app.world_mut().entity_mut(rod).despawn();
    app.update();
    assert_eq!(counts(&app), (3, 1));
    app.world_mut().entity_mut(c).despawn();
    app.update();
    assert_eq!(counts(&app), (2, 0));
    assert!(
        app.world().get::<PhysicsJoint>(pin).is_none(),
        "its body gone, the joint is too"
    );
    let physics = app.world().resource::<Physics>();
    assert_eq!((physics.body(c), physics.joint(pin)), (None, None));
}

#[test]
fn a_joint_past_its_threshold_is_reported_as_broken() {
    let mut app = app();
    app.insert_resource(Gravity(DVec2::new(0.0, -9.81)));
    let ceiling = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider(Shape::circle(0.05).unwrap()),
            Transform::from_xyz(0.0, 5.0, 0.0),
        ))
        .id();
    let lamp = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider(Shape::rectangle(0.5, 0.5).unwrap()),
            Transform::from_xyz(0.0, 4.0, 0.0),
        ))
        .id();
    let hook = app
        .world_mut()
        .spawn(Joint::new(ceiling, lamp, |a, b| {
            let mut d = RevoluteJointDef::new(a, b, DVec2::new(0.0, 5.0));
            d.common.force_threshold = 5.0; // the 1 kg lamp weighs 9.81 N
            d.into()
        }))
        .id();
    app.init_resource::<Broken>().add_systems(
        Update,
        |mut r: MessageReader<JointBroken>, mut b: ResMut<Broken>| {
            b.0.extend(r.read().copied());
        },
    );
    for _ in 0..10 {
        app.update();
    }
    let broken = &app.world().resource::<Broken>().0;
    assert!(!broken.is_empty());
    assert!(broken.iter().all(|j| j.joint == hook && j.force > 5.0));
    assert!((broken.last().unwrap().force - 9.81).abs() < 0.1);
}

#[derive(Resource, Default)]
struct Broken(Vec<JointBroken>);

#[test]
fn spatial_queries_return_entities() {
    let mut app = app();
    let w = wall(&mut app, 5.0);
    let b = ball(&mut app, 2.0, 0.0, 0.5);
    app.update();
    #[derive(Resource, Default)]
    struct Answers(
        Option<CastHit>,
        Option<CastHit>,
        Vec<Entity>,
        Vec<Entity>,
        Option<CastHit>,
    );
    app.init_resource::<Answers>().add_systems(
        Update,
        move |q: SpatialQuery, mut out: ResMut<Answers>| {
            let all = SpatialQueryFilter::default();
            out.0 = q.cast_ray(DVec2::ZERO, DVec2::new(10.0, 0.0), &all);
            let past_ball = SpatialQueryFilter {
                exclude: Some(b),
                ..all
            };
            out.1 = q.cast_ray(DVec2::ZERO, DVec2::new(10.0, 0.0), &past_ball);
            out.2 = q.overlaps(
                &Shape::circle(3.5).unwrap(),
                DVec2::new(2.0, 0.0),
                0.0,
                &all,
            );
            out.3 = q.point(DVec2::new(2.2, 0.1));
            let disc = Shape::circle(0.25).unwrap();
            out.4 = q.cast_shape(
                &disc,
                DVec2::new(0.0, 1.0),
                0.0,
                DVec2::new(10.0, 0.0),
                &all,
            );
        },
    );
    app.update();
    let a = app.world().resource::<Answers>();
    let hit = a.0.unwrap();
    assert_eq!(hit.entity, b);
    assert!(
        (hit.fraction - 0.15).abs() < 1e-9,
        "the ball's face at x = 1.5: {}",
        hit.fraction
    );
    let hit = a.1.unwrap();
    assert_eq!(hit.entity, w);
    assert!((hit.fraction - 0.4995).abs() < 1e-9);
    let mut near = a.2.clone();
    near.sort();
    let mut both = vec![w, b];
    both.sort();
    assert_eq!(near, both);
    assert_eq!(a.3, vec![b]);
    // The 0.25 m disc moving along y = 1 passes the 0.5 m ball (centres 1 m apart, more than
    // 0.25 + 0.5) and meets the wall's face at x = 4.995.
    let hit = a.4.unwrap();
    assert_eq!(hit.entity, w);
    assert!(
        (hit.fraction - (4.995 - 0.25) / 10.0).abs() < 1e-9,
        "{}",
        hit.fraction
    );
}

#[test]
fn a_character_walks_up_a_slope_and_stops_at_a_wall() {
    let mut app = app();
    // A 30° ramp rising to the right from x = 0, and a wall at x = 6.
    let ramp = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider(
                Shape::polygon(&[
                    DVec2::new(0.0, 0.0),
                    DVec2::new(8.0, 0.0),
                    DVec2::new(8.0, 8.0 * (30f64).to_radians().tan()),
                ])
                .unwrap(),
            ),
            Transform::default(),
        ))
        .id();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider(Shape::rectangle(0.05, 10.0).unwrap()),
        Transform::from_xyz(6.05, 0.0, 0.0),
    ));
    let capsule = Shape::capsule(DVec2::new(0.0, -0.5), DVec2::new(0.0, 0.5), 0.3).unwrap();
    let hero = app
        .world_mut()
        .spawn((
            CharacterController::new(capsule.clone()),
            Collider(capsule),
            Transform::from_xyz(1.0, 1.4, 0.0),
        ))
        .id();
    let mut heights = Vec::new();
    for _ in 0..240 {
        let grounded = app.world().get::<CharacterState>(hero).unwrap().grounded;
        let mut c = app
            .world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap();
        // Walk right at 2 m/s; fall under gravity until grounded.
        c.velocity.x = 2.0;
        c.velocity.y = if grounded {
            0.0
        } else {
            c.velocity.y - 9.81 * DT
        };
        app.update();
        heights.push(f64::from(
            app.world().get::<Transform>(hero).unwrap().translation.y,
        ));
    }
    let state = *app.world().get::<CharacterState>(hero).unwrap();
    assert!(state.grounded && state.ground == Some(ramp));
    assert!(state.hit_wall, "it stopped at the wall");
    let t = app.world().get::<Transform>(hero).unwrap();
    let x = f64::from(t.translation.x);
    assert!(
        (x - (6.0 - 0.3 - 0.01)).abs() < 1e-3,
        "skin short of the wall: {x}"
    );
    // Up the ramp: higher at the wall than where it started walking, by about tan 30° per metre.
    let climbed = heights.last().unwrap() - heights[10];
    assert!(climbed > 2.0, "{climbed}");
}

#[test]
fn interpolated_transforms_lie_between_the_two_step_poses() {
    let mut app = app();
    let b = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider(Shape::circle(0.1).unwrap()),
            Transform::default(),
            LinearVelocity(DVec2::new(6.0, 0.0)),
            AngularVelocity(3.0),
        ))
        .id();
    app.update();
    app.update();
    // Half a step more of frame time: the fixed loop runs none, and the transform is drawn
    // halfway between the last two step poses.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        0.5 * DT,
    )));
    app.update();
    let poses = *app.world().get::<bevy_sweep2d::StepPoses>(b).unwrap();
    let t = app.world().get::<Transform>(b).unwrap();
    let x = f64::from(t.translation.x);
    let (x0, x1) = (poses.previous.0.x, poses.current.0.x);
    assert!(x0 < x && x < x1, "{x0} < {x} < {x1}");
    assert!((x - 0.5 * (x0 + x1)).abs() < 1e-5, "halfway: {x}");
    let angle = 2.0 * f64::from(t.rotation.z).atan2(f64::from(t.rotation.w));
    assert!(poses.previous.1 < angle && angle < poses.current.1);
}

/// The `Transform` x a `PostUpdate` system saw, before and after the plugin's interpolation.
#[derive(Resource, Default)]
struct SeenX {
    before: f32,
    after: f32,
}

#[test]
fn a_camera_ordered_after_interpolation_sees_the_drawn_pose() {
    let mut app = app();
    let b = ball(&mut app, 0.0, 6.0, 0.1);
    app.world_mut().entity_mut(b).remove::<NoInterpolation>();
    app.init_resource::<SeenX>().add_systems(
        PostUpdate,
        (
            (move |q: Query<&Transform>, mut seen: ResMut<SeenX>| {
                seen.before = q.get(b).unwrap().translation.x;
            })
            .before(PhysicsSet::Interpolation),
            (move |q: Query<&Transform>, mut seen: ResMut<SeenX>| {
                seen.after = q.get(b).unwrap().translation.x;
            })
            .after(PhysicsSet::Interpolation),
        ),
    );
    app.update();
    app.update();
    let last_frame = app.world().get::<Transform>(b).unwrap().translation.x;
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        0.5 * DT,
    )));
    app.update();
    let drawn = app.world().get::<Transform>(b).unwrap().translation.x;
    let seen = app.world().resource::<SeenX>();
    // Half a step on, the frame draws the ball 0.05 m further: a system before the set still
    // sees the last frame's pose, one after it the pose this frame draws.
    assert!(
        (drawn - last_frame - 0.05).abs() < 1e-5,
        "{last_frame} -> {drawn}"
    );
    assert_eq!(seen.before, last_frame);
    assert_eq!(seen.after, drawn);
}

#[test]
fn writing_a_transform_teleports_the_body() {
    let mut app = app();
    let b = ball(&mut app, 0.0, 0.0, 0.1);
    app.update();
    app.world_mut()
        .get_mut::<Transform>(b)
        .unwrap()
        .translation
        .x = 7.0;
    app.update();
    let id = body_id(&app, b);
    let x = app
        .world_mut()
        .resource_mut::<Physics>()
        .world_mut()
        .body(id)
        .unwrap()
        .transform()
        .translation
        .x;
    assert_eq!(x, 7.0);
}

#[test]
fn layers_and_sensors_by_components() {
    let mut app = app();
    let w = wall(&mut app, 1.0);
    app.world_mut().entity_mut(w).insert(CollisionLayers {
        memberships: 0b10,
        filters: u64::MAX,
    });
    // The ghost collides only with layer 1: it passes the wall on layer 2.
    let ghost = ball(&mut app, 0.0, 60.0, 0.05);
    app.world_mut().entity_mut(ghost).insert(CollisionLayers {
        memberships: 1,
        filters: 1,
    });
    let gate = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider(Shape::rectangle(0.5, 2.0).unwrap()),
            Transform::from_xyz(3.0, 0.0, 0.0),
            Sensor,
        ))
        .id();
    for _ in 0..10 {
        app.update();
    }
    assert!(x_of(&app, ghost) > 5.0, "passed the wall and the sensor");
    let seen = app.world().resource::<Seen>();
    assert!(seen.impacts.is_empty() && seen.started.is_empty());
    assert_eq!(seen.entered.len(), 1);
    assert_eq!(
        (seen.entered[0].sensor, seen.entered[0].visitor),
        (gate, ghost)
    );
    // It enters at x = 2.5 − 0.05 after 2.45/60 s: 2.45 steps (of Bevy's fixed step, a whole
    // number of nanoseconds), so 0.45 into the third.
    let steps = 2.45 / 60.0 / step_of(&app);
    let want = steps - steps.floor();
    assert!(
        (seen.entered[0].fraction - want).abs() < 1e-9,
        "{}",
        seen.entered[0].fraction
    );
}

#[test]
fn a_refused_component_is_a_message_and_adds_nothing() {
    let mut app = app();
    let bad = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider(Shape::circle(0.1).unwrap()),
            Density(0.0),
        ))
        .id();
    for _ in 0..3 {
        app.update();
    }
    let seen = app.world().resource::<Seen>();
    assert_eq!(seen.errors.len(), 1, "reported once: {:?}", seen.errors);
    assert_eq!(seen.errors[0].entity, Some(bad));
    assert!(
        seen.errors[0].message.contains("density"),
        "{}",
        seen.errors[0].message
    );
    assert!(app.world().get::<PhysicsBody>(bad).is_none());
    let count = app
        .world_mut()
        .resource_mut::<Physics>()
        .world_mut()
        .body_count();
    assert_eq!(count, 0);
    // Fixed, it is tried again and added.
    app.world_mut().get_mut::<Density>(bad).unwrap().0 = 2.0;
    app.update();
    assert!(app.world().get::<PhysicsBody>(bad).is_some());
}

#[test]
fn a_resting_body_sleeps_and_an_impulse_wakes_it() {
    let (mut app, crate_) = sleeping_crate();
    assert_eq!(app.world().resource::<Seen>().slept.len(), 1);
    app.world_mut()
        .entity_mut(crate_)
        .insert(ExternalImpulse(DVec2::new(0.0, 3.0)));
    app.update();
    assert!(app.world().get::<Sleeping>(crate_).is_none());
    let v = app.world().get::<LinearVelocity>(crate_).unwrap().0;
    assert!(v.y > 2.0, "{v}");
    assert_eq!(
        app.world().get::<ExternalImpulse>(crate_).unwrap().0,
        DVec2::ZERO
    );
}

#[test]
fn mass_and_removed_settings() {
    let mut app = app();
    let b = ball(&mut app, 0.0, 0.0, 0.5);
    app.world_mut()
        .entity_mut(b)
        .insert((Mass(10.0), GravityScale(0.0)));
    app.update();
    let id = body_id(&app, b);
    let read = |app: &App| {
        app.world().resource::<Physics>().read(|w| {
            w.body(id)
                .map(|b| (b.mass(), b.inertia(), b.gravity_scale()))
                .unwrap()
        })
    };
    // A 0.5 m disc of density 1: π/4 kg, inertia ½·m·r²; overridden to 10 kg, inertia scaled.
    let (m, i, g) = read(&app);
    assert!((m - 10.0).abs() < 1e-12);
    assert!((i - 0.5 * 10.0 * 0.25).abs() < 1e-12, "{i}");
    assert_eq!(g, 0.0);
    // An impulse of 5 N·s gives 0.5 m/s.
    app.world_mut()
        .entity_mut(b)
        .insert(ExternalImpulse(DVec2::new(5.0, 0.0)));
    app.update();
    let v = app.world().get::<LinearVelocity>(b).unwrap().0;
    assert!((v.x - 0.5).abs() < 1e-12, "{v}");
    // Removed, the settings go back to the densities' and the defaults.
    app.world_mut()
        .entity_mut(b)
        .remove::<(Mass, GravityScale, Restitution)>();
    app.update();
    let (m, _, g) = read(&app);
    assert!((m - std::f64::consts::PI * 0.25).abs() < 1e-12, "{m}");
    assert_eq!(g, 1.0);
    let r = app
        .world()
        .resource::<Physics>()
        .read(|w| w.body(id).unwrap().restitution());
    assert_eq!(r, 0.0);
}

/// The plugin adds nothing to the physics: falling_mixed(150) spawned as entities (from the poses
/// their f32 `Transform`s hold) ends bit-identical to the same bodies in a bare world stepped as
/// often, with Bevy's nanosecond-rounded step.
#[test]
fn the_plugin_world_steps_bit_identical_to_the_bare_world() {
    use bevy_math::Quat;
    let source = sweep2d::analysis::scenes::falling_mixed(150).world;
    let mut config = *source.config();
    config.dt = Duration::from_secs_f64(config.dt).as_secs_f64();
    let mut bare = sweep2d::World::new(config);
    let mut app = app();
    app.insert_resource(Gravity(config.gravity))
        .insert_resource(Time::<Fixed>::from_seconds(config.dt));
    for (_, b) in source.bodies() {
        let x = b.transform();
        let t = Transform::from_xyz(x.translation.x as f32, x.translation.y as f32, 0.0)
            .with_rotation(Quat::from_rotation_z(x.angle() as f32));
        let (p, angle) = bevy_sweep2d::pose_of(&t);
        let shape = b.shapes().next().unwrap().1.shape.clone();
        bare.add_body(sweep2d::BodyDef {
            kind: b.kind(),
            shape: shape.clone(),
            transform: sweep2d::Transform::new(p, angle),
            linear_velocity: b.linear_velocity(),
            density: b.density(),
            friction: b.friction(),
            restitution: b.restitution(),
            ..sweep2d::BodyDef::default()
        })
        .unwrap();
        let kind = match b.kind() {
            sweep2d::BodyKind::Static => RigidBody::Static,
            sweep2d::BodyKind::Kinematic => RigidBody::Kinematic,
            sweep2d::BodyKind::Dynamic => RigidBody::Dynamic,
        };
        app.world_mut().spawn((
            kind,
            Collider(shape),
            t,
            LinearVelocity(b.linear_velocity()),
            Density(b.density()),
            Friction(b.friction()),
            Restitution(b.restitution()),
        ));
    }
    for _ in 0..45 {
        app.update();
    }
    let (steps, hash) = app
        .world()
        .resource::<Physics>()
        .read(|w| (w.step_count(), w.state_hash()));
    assert!(steps >= 44, "one step per update after the first: {steps}");
    while bare.step_count() < steps {
        bare.step();
    }
    assert_eq!(hash, bare.state_hash(), "after {steps} steps");
}

#[test]
fn child_colliders_add_move_and_remove_shapes() {
    let mut app = app();
    let body = ball(&mut app, 0.0, 0.0, 0.5);
    app.update();
    let id = body_id(&app, body);
    let read = |app: &App| {
        app.world().resource::<Physics>().read(|w| {
            let b = w.body(id).unwrap();
            (b.mass(), b.local_center_of_mass(), b.shapes().len())
        })
    };
    let disc = std::f64::consts::PI * 0.25;
    assert_eq!(read(&app).2, 1);
    // A 1 m × 1 m box as a child, 2 m to the right: one more shape, 1 kg more, the centre moved.
    let child = app
        .world_mut()
        .spawn((
            Collider(Shape::rectangle(0.5, 0.5).unwrap()),
            Transform::from_xyz(2.0, 0.0, 0.0),
            bevy_ecs::hierarchy::ChildOf(body),
        ))
        .id();
    app.update();
    let (m, c, n) = read(&app);
    assert_eq!(n, 2);
    assert!((m - (disc + 1.0)).abs() < 1e-12, "{m}");
    assert!((c.x - 2.0 / (disc + 1.0)).abs() < 1e-12, "{c}");
    // Moved to 4 m: the shape follows.
    app.world_mut()
        .get_mut::<Transform>(child)
        .unwrap()
        .translation
        .x = 4.0;
    app.update();
    let (_, c, n) = read(&app);
    assert_eq!(n, 2);
    assert!((c.x - 4.0 / (disc + 1.0)).abs() < 1e-12, "{c}");
    // Removed: back to the disc alone.
    app.world_mut().entity_mut(child).remove::<Collider>();
    app.update();
    let (m, c, n) = read(&app);
    assert_eq!(n, 1);
    assert!((m - disc).abs() < 1e-12 && c.x.abs() < 1e-12);

    // A body spawned with a child collider gets both shapes at once, and keeps them.
    let other = ball(&mut app, 10.0, 0.0, 0.5);
    app.world_mut().spawn((
        Collider(Shape::rectangle(0.5, 0.5).unwrap()),
        Transform::from_xyz(2.0, 0.0, 0.0),
        bevy_ecs::hierarchy::ChildOf(other),
    ));
    for _ in 0..3 {
        app.update();
    }
    let oid = body_id(&app, other);
    let shapes = app.world().resource::<Physics>().read(|w| {
        w.body(oid)
            .unwrap()
            .shapes()
            .map(|(k, _)| k)
            .collect::<Vec<_>>()
    });
    assert_eq!(
        shapes,
        vec![0, 1],
        "created once with its body, not replaced since"
    );
}

#[test]
fn world_settings_follow_the_config_resource() {
    let mut app = app();
    ball(&mut app, 0.0, 0.0, 0.1);
    app.update();
    app.world_mut().resource_mut::<PhysicsConfig>().0.substeps = 8;
    app.world_mut().resource_mut::<PhysicsConfig>().0.sleep = false;
    app.update();
    let (substeps, sleep, g) = app
        .world()
        .resource::<Physics>()
        .read(|w| (w.config().substeps, w.config().sleep, w.config().gravity));
    assert_eq!(
        (substeps, sleep, g),
        (8, false, DVec2::ZERO),
        "gravity still the resource's"
    );
    app.world_mut().resource_mut::<PhysicsConfig>().0.substeps = 0;
    for _ in 0..3 {
        app.update();
    }
    let seen = app.world().resource::<Seen>();
    assert!(
        !seen.errors.is_empty() && seen.errors.len() <= 2,
        "{:?}",
        seen.errors
    );
    assert!(
        seen.errors[0].message.contains("substeps"),
        "{}",
        seen.errors[0].message
    );
    let substeps = app
        .world()
        .resource::<Physics>()
        .read(|w| w.config().substeps);
    assert_eq!(
        substeps, 8,
        "the refused settings left the world's as they were"
    );
}

#[test]
fn changing_a_body_collider_or_sensor_remakes_its_shapes() {
    let mut app = app();
    let b = ball(&mut app, 0.0, 0.0, 0.1);
    app.update();
    let id = body_id(&app, b);
    let mass = |app: &App| {
        app.world()
            .resource::<Physics>()
            .read(|w| w.body(id).unwrap().mass())
    };
    assert!((mass(&app) - std::f64::consts::PI * 0.01).abs() < 1e-12);
    app.world_mut().get_mut::<Collider>(b).unwrap().0 = Shape::circle(0.5).unwrap();
    app.update();
    assert!(
        (mass(&app) - std::f64::consts::PI * 0.25).abs() < 1e-12,
        "{}",
        mass(&app)
    );
    let shapes = app
        .world()
        .resource::<Physics>()
        .read(|w| w.shape_ids(id).len());
    assert_eq!(shapes, 1);

    // A wall made a sensor lets a ball through; made solid again, it stops the next one.
    let w = wall(&mut app, 3.0);
    app.update();
    app.world_mut().entity_mut(w).insert(Sensor);
    let ghost = ball(&mut app, 0.0, 2.0 * 60.0, 0.05);
    app.world_mut()
        .entity_mut(ghost)
        .insert(Transform::from_xyz(0.0, 1.5, 0.0));
    for _ in 0..3 {
        app.update();
    }
    assert!(
        x_of(&app, ghost) > 3.1,
        "through the sensor wall: {}",
        x_of(&app, ghost)
    );
    app.world_mut().entity_mut(w).remove::<Sensor>();
    let bullet = ball(&mut app, 0.0, 2.0 * 60.0, 0.05);
    app.world_mut()
        .entity_mut(bullet)
        .insert(Transform::from_xyz(0.0, -1.5, 0.0));
    for _ in 0..3 {
        app.update();
    }
    assert!(
        x_of(&app, bullet) < 3.0,
        "stopped by the solid wall: {}",
        x_of(&app, bullet)
    );
}

/// A resting crate on the ground, stepped until it sleeps: the app and the crate's entity.
fn sleeping_crate() -> (App, Entity) {
    let mut app = app();
    app.insert_resource(Gravity(DVec2::new(0.0, -9.81)));
    app.world_mut().spawn((
        RigidBody::Static,
        Collider(Shape::rectangle(5.0, 0.5).unwrap()),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let crate_ = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider(Shape::rectangle(0.5, 0.5).unwrap()),
            Transform::from_xyz(0.0, 0.5, 0.0),
            Friction(0.0),
            NoInterpolation,
        ))
        .id();
    for _ in 0..120 {
        app.update();
    }
    assert!(app.world().get::<Sleeping>(crate_).is_some());
    (app, crate_)
}

#[test]
fn a_velocity_given_to_a_sleeping_body_wakes_it() {
    let (mut app, crate_) = sleeping_crate();
    let x0 = x_of(&app, crate_);
    app.world_mut().get_mut::<LinearVelocity>(crate_).unwrap().0 = DVec2::new(2.0, 0.0);
    for _ in 0..10 {
        app.update();
    }
    assert!(app.world().get::<Sleeping>(crate_).is_none());
    // Frictionless: ten steps at 2 m/s.
    let moved = x_of(&app, crate_) - x0;
    let expected = 10.0 * step_of(&app) * 2.0;
    assert!(
        (moved - expected).abs() < 1e-4,
        "{moved} against {expected}"
    );
}

#[test]
fn sleeping_is_put_and_taken_by_the_component() {
    let (mut app, crate_) = sleeping_crate();
    let id = body_id(&app, crate_);
    let awake = |app: &App| {
        app.world()
            .resource::<Physics>()
            .read(|w| w.body(id).unwrap().is_awake())
    };
    assert!(!awake(&app));
    app.world_mut().entity_mut(crate_).remove::<Sleeping>();
    app.update();
    assert!(awake(&app));
    app.world_mut().entity_mut(crate_).insert(Sleeping);
    app.update();
    assert!(!awake(&app));
    assert!(app.world().get::<Sleeping>(crate_).is_some());
}

#[test]
fn a_velocity_set_on_the_world_by_a_system_is_not_undone() {
    // The world is the single source of truth between frames: a system that sets a velocity
    // through `Physics` keeps it, and the stale `LinearVelocity` is not copied back over it.
    let mut app = app();
    let b = ball(&mut app, 0.0, 1.0, 0.5);
    app.update();
    let id = body_id(&app, b);
    app.add_systems(Update, move |mut physics: ResMut<Physics>| {
        physics
            .world_mut()
            .set_velocity(id, DVec2::new(-3.0, 0.0), 0.0)
            .unwrap();
    });
    // The system runs in `Update`, after this frame's step: the next frame's step uses it.
    app.update();
    let x0 = x_of(&app, b);
    app.update();
    let v = app.world().get::<LinearVelocity>(b).unwrap().0;
    assert_eq!(v, DVec2::new(-3.0, 0.0));
    let moved = x_of(&app, b) - x0;
    assert!(
        (moved + 3.0 * step_of(&app)).abs() < 1e-5,
        "moved {moved}: the step ran at −3 m/s"
    );
}
