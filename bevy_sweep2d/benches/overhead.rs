//! The plugin's overhead: one fixed step through Bevy (sync, step, write-back, messages,
//! interpolation: `App::update` with one fixed step per frame) against the bare world's step, on
//! falling_mixed(1000) built the same way in both, from the start. Rounds interleaved with the
//! order alternating; medians of ms/step. Also checks that both worlds end bit-identical (the
//! plugin changes nothing the engine computes).
//!
//! `cargo bench -p bevy_sweep2d --bench overhead [-- --rounds 7 --steps 120]`

use bevy_app::prelude::*;
use bevy_app::TaskPoolPlugin;
use bevy_math::Quat;
use bevy_sweep2d::{pose_of, prelude::*};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use std::time::Instant;
use sweep2d::analysis::scenes;

/// One body of the scene as it is spawned: the engine's definition with its pose rounded through
/// the `Transform` an entity holds (f32), and that `Transform`.
fn bodies() -> Vec<(sweep2d::BodyDef, Transform)> {
    let source = scenes::falling_mixed(1000).world;
    source
        .bodies()
        .map(|(_, b)| {
            let x = b.transform();
            let t = Transform::from_xyz(x.translation.x as f32, x.translation.y as f32, 0.0)
                .with_rotation(Quat::from_rotation_z(x.angle() as f32));
            let (p, angle) = pose_of(&t);
            let def = sweep2d::BodyDef {
                kind: b.kind(),
                shape: b
                    .shapes()
                    .next()
                    .expect("every body has a shape")
                    .1
                    .shape
                    .clone(),
                transform: sweep2d::Transform::new(p, angle),
                linear_velocity: b.linear_velocity(),
                angular_velocity: b.angular_velocity(),
                density: b.density(),
                friction: b.friction(),
                restitution: b.restitution(),
                ..sweep2d::BodyDef::default()
            };
            (def, t)
        })
        .collect()
}

/// The bare world's ms per step over its last `steps` of `total` steps from the start, and its
/// final state hash.
fn bare(steps: u32, total: u64) -> (f64, u64) {
    let mut config = *scenes::falling_mixed(1).world.config();
    // Bevy's fixed timestep is a whole number of nanoseconds, and the plugin's world steps by it.
    config.dt = std::time::Duration::from_secs_f64(config.dt).as_secs_f64();
    let mut world = sweep2d::World::new(config);
    for (def, _) in bodies() {
        world.add_body(def).expect("the scene's bodies are valid");
    }
    while world.step_count() + u64::from(steps) < total {
        world.step();
    }
    let t = Instant::now();
    while world.step_count() < total {
        world.step();
    }
    (
        t.elapsed().as_secs_f64() * 1e3 / f64::from(steps),
        world.state_hash(),
    )
}

/// The same bodies as entities, stepped through the app: ms per step over `steps` steps after
/// the first update (which creates the bodies), the final state hash and the steps taken in all.
fn plugin(steps: u32) -> (f64, u64, u64) {
    let config = *scenes::falling_mixed(1).world.config();
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        SweepPlugin {
            config,
            ..SweepPlugin::default()
        },
    ))
    .insert_resource(Time::<Fixed>::from_seconds(config.dt))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .insert_resource(Gravity(config.gravity));
    for (def, transform) in bodies() {
        let kind = match def.kind {
            sweep2d::BodyKind::Static => RigidBody::Static,
            sweep2d::BodyKind::Kinematic => RigidBody::Kinematic,
            sweep2d::BodyKind::Dynamic => RigidBody::Dynamic,
        };
        app.world_mut().spawn((
            kind,
            Collider(def.shape),
            transform,
            LinearVelocity(def.linear_velocity),
            AngularVelocity(def.angular_velocity),
            Density(def.density),
            Friction(def.friction),
            Restitution(def.restitution),
        ));
    }
    // The first update creates the bodies (and may take a step).
    app.update();
    let count = |app: &App| app.world().resource::<Physics>().read(|w| w.step_count());
    let start = count(&app);
    let t = Instant::now();
    while count(&app) < start + u64::from(steps) {
        app.update();
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / (count(&app) - start) as f64;
    let hash = app.world().resource::<Physics>().read(|w| w.state_hash());
    (ms, hash, count(&app))
}

/// Bevy's own frame with no physics: the same app (task pools, time, one fixed step per update,
/// the plugin's messages registered) without the plugin, ms per update over `steps` updates. A
/// game pays it with or without physics; it is reported beside the plugin's frame.
fn empty_frame(steps: u32) -> f64 {
    let config = *scenes::falling_mixed(1).world.config();
    let mut app = App::new();
    app.add_plugins((TaskPoolPlugin::default(), TimePlugin))
        .insert_resource(Time::<Fixed>::from_seconds(config.dt))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .add_message::<Impact>()
        .add_message::<CollisionStarted>()
        .add_message::<CollisionEnded>()
        .add_message::<SensorEntered>()
        .add_message::<SensorExited>()
        .add_message::<BodySlept>()
        .add_message::<BodyWoke>()
        .add_message::<JointBroken>()
        .add_message::<PhysicsError>();
    app.update();
    let t = Instant::now();
    for _ in 0..steps {
        app.update();
    }
    t.elapsed().as_secs_f64() * 1e3 / f64::from(steps)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: u32| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (rounds, steps) = (arg("--rounds", 5), arg("--steps", 120));
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        // The plugin's first update may take a step: the bare world runs the same total. The
        // order alternates between rounds.
        let (x, y) = if r % 2 == 0 {
            let y = plugin(steps);
            (bare(steps, y.2), y)
        } else {
            let total = plugin(1).2 + u64::from(steps) - 1;
            let x = bare(steps, total);
            let y = plugin(steps);
            assert_eq!(y.2, total);
            (x, y)
        };
        assert_eq!(
            x.1, y.1,
            "the plugin's world ended as the bare world's, bit for bit"
        );
        let z = empty_frame(steps);
        a.push(x.0);
        b.push(y.0);
        c.push(z);
        println!(
            "round {r}: bare {:.3} ms/step, plugin {:.3} ms/step, Bevy's empty frame {z:.3} ms",
            x.0, y.0
        );
    }
    let (bare_ms, plugin_ms, empty_ms) = (median(a), median(b), median(c));
    println!(
        "falling_mixed(1000), {steps} steps from the start, median of {rounds}: bare world \
         {bare_ms:.3} ms/step, plugin {plugin_ms:.3} ms/step, ratio {:.3} (target <= 1.25); \
         Bevy's empty frame {empty_ms:.3} ms, so the plugin's own share {:.3}",
        plugin_ms / bare_ms,
        (plugin_ms - empty_ms) / bare_ms
    );
}
