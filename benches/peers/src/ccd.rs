//! The `ccd` mode: fast bodies in sweep2d, Rapier (CCD on every dynamic body) and Box2D v3 (every
//! dynamic body a bullet, its maximum speed raised above the scene's), built from the same sweep2d
//! worlds. It counts tunnels and measures what happens to speed and path, not time.
//!
//! * Bullets at a wall: 200 discs (radius 2.5 cm) fired along +x at a static wall 1 cm thick, at
//!   300 and 1,000 m/s, no gravity. A bullet tunnels if its centre is ever past the wall's
//!   mid-plane at the end of a step.
//! * Head-on bullets: 500 pairs of discs (radius 2.5 cm) in separate lanes, fired at each other at
//!   300 m/s each, no gravity, restitution 0.5. A pair tunnels if the two ever swap sides.
//! * The time-loss test: a ball at 500 m/s bouncing elastically between two walls 10 m apart for
//!   10 s. Its speed should stay 500 m/s and its centre on the analytic triangle wave
//!   (`scenes::bouncing_ball_x`).

use crate::engines::{Box2d, Engine, Rapier, Sweep2d};
use crate::spec::SceneSpec;
use sweep2d::analysis::scenes::{self, Scene};
use sweep2d::{BodyDef, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

const ENGINES: [&str; 3] = ["sweep2d", "rapier2d-f64", "box2d"];

/// The three engines on one scene, every dynamic body a bullet for Box2D.
fn engines(scene: &Scene) -> Vec<Box<dyn Engine>> {
    let spec = SceneSpec::from_scene(scene);
    vec![
        Box::new(Sweep2d::new(scene)),
        Box::new(Rapier::new(&spec)),
        Box::new(Box2d::new(&spec, |_| true)),
    ]
}

fn no_gravity() -> World {
    World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    })
}

fn disc(world: &mut World, x: f64, y: f64, vx: f64, restitution: f64) {
    world
        .add_body(BodyDef {
            shape: Shape::circle(0.025).expect("positive radius"),
            transform: Transform::new(Vec2::new(x, y), 0.0),
            linear_velocity: Vec2::new(vx, 0.0),
            restitution,
            ..Default::default()
        })
        .expect("a valid bullet");
}

/// 200 bullets in a column at x = −2 fired along +x at a 1 cm wall at x = 0.
fn wall_scene(speed: f64) -> Scene {
    let mut world = no_gravity();
    world
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(0.005, 6.0).expect("positive extents"),
            ..Default::default()
        })
        .expect("a valid wall");
    for k in 0..200 {
        disc(&mut world, -2.0, -5.0 + 0.05 * k as f64, speed, 0.0);
    }
    Scene {
        world,
        tracked: Vec::new(),
    }
}

/// 500 pairs of bullets, one lane each (0.2 m apart), fired at each other.
fn head_on_scene(speed: f64) -> Scene {
    let mut world = no_gravity();
    for k in 0..500 {
        let y = 0.2 * k as f64;
        disc(&mut world, -1.0, y, speed, 0.5);
        disc(&mut world, 1.0, y, -speed, 0.5);
    }
    Scene {
        world,
        tracked: Vec::new(),
    }
}

/// Runs `scene` for 60 steps in every engine and prints, per engine, how many of `flags` events
/// happened: after each step `mark` sets the flags of what it sees in the bodies' positions and
/// velocities (a flag once set stays set).
fn count_events(
    scene: &Scene,
    flags: usize,
    mark: impl Fn(&[([f64; 2], [f64; 2])], &mut [bool]),
    what: &str,
) {
    for (name, mut engine) in ENGINES.iter().zip(engines(scene)) {
        let mut flagged = vec![false; flags];
        for _ in 0..60 {
            engine.step();
            mark(&engine.bodies(), &mut flagged);
        }
        let n = flagged.iter().filter(|&&f| f).count();
        println!("  {name:14} {n:4} of {flags} {what}");
    }
}

fn wall(speed: f64) {
    println!("bullets at a 1 cm wall, 200 discs at {speed} m/s, 60 steps:");
    // Body 0 is the wall; a disc past x = 0 went through it.
    count_events(
        &wall_scene(speed),
        200,
        |bodies, tunnelled| {
            for (t, (p, _)) in tunnelled.iter_mut().zip(&bodies[1..]) {
                *t |= p[0] > 0.0;
            }
        },
        "bullets tunnelled",
    );
}

fn head_on(speed: f64) {
    println!("head-on bullets, 500 pairs at {speed} m/s each, 60 steps:");
    // Pair k is bodies 2k (from the left) and 2k + 1 (from the right).
    count_events(
        &head_on_scene(speed),
        500,
        |bodies, crossed| {
            for (k, c) in crossed.iter_mut().enumerate() {
                *c |= bodies[2 * k].0[0] > bodies[2 * k + 1].0[0];
            }
        },
        "pairs passed through each other",
    );
}

fn ball() {
    let speed = 500.0;
    let scene = scenes::bouncing_ball(speed);
    let dt = scene.world.config().dt;
    let steps = 600;
    println!("the time-loss test: a ball at {speed} m/s between walls 10 m apart, {steps} steps:");
    for (name, mut engine) in ENGINES.iter().zip(engines(&scene)) {
        let (mut worst_path, mut worst_speed) = (0.0f64, 0.0f64);
        let mut end = ([0.0; 2], [0.0; 2]);
        for step in 1..=steps {
            engine.step();
            let bodies = engine.bodies();
            let (p, v) = bodies[2];
            let expected = scenes::bouncing_ball_x(speed, step as f64 * dt);
            worst_path = worst_path.max((p[0] - expected).abs());
            worst_speed = worst_speed.max(((v[0] * v[0] + v[1] * v[1]).sqrt() - speed).abs());
            end = (p, v);
        }
        let final_speed = (end.1[0] * end.1[0] + end.1[1] * end.1[1]).sqrt();
        println!(
            "  {name:14} speed at the end {final_speed:8.3} m/s (largest change {worst_speed:.3e}); largest distance from the analytic path {worst_path:.3e} m"
        );
    }
}

/// Runs the `ccd` mode.
pub fn run() {
    println!(
        "\n## ccd (Rapier: ccd_enabled on every dynamic body; Box2D: every dynamic body a bullet)"
    );
    wall(300.0);
    wall(1000.0);
    head_on(300.0);
    ball();
}
