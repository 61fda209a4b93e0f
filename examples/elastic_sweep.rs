//! The elastic ball between two walls over a sweep of speeds and radii: no gravity, static boxes
//! of half extents (0.5, 3) at x = ±5, restitution 1 and no friction everywhere, a disc starting
//! at the origin along +x, default settings, 300 steps. The exact answer is known: the speed never
//! changes and the centre follows the unfolded triangle wave between ±(4.5 − r). Prints, over 400
//! speeds from 0.5 to the top speed for each radius, how many runs end stopped, how many leave the
//! path by more than 1 mm and by more than 1e-6 m, and the worst path error (metres).
//!
//! ```sh
//! cargo run --release --example elastic_sweep            # to 1,000 m/s, radii 0.5 and 0.05
//! cargo run --release --example elastic_sweep -- 2000 0.5 0.05 0.01 1
//! ```

use sweep2d::{BodyDef, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

/// The centre at time `t` (s) of a disc starting at 0 with speed `v` (m/s) between ±`l`.
fn triangle_wave(v: f64, t: f64, l: f64) -> f64 {
    let u = (l + v * t).rem_euclid(4.0 * l);
    if u > 2.0 * l {
        3.0 * l - u
    } else {
        u - l
    }
}

/// Runs one ball; returns (stopped, worst path error in metres).
fn run(speed: f64, radius: f64) -> (bool, f64) {
    let mut world = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    for x in [-5.0, 5.0] {
        world
            .add_body(BodyDef {
                kind: BodyKind::Static,
                shape: Shape::rectangle(0.5, 3.0).expect("positive extents"),
                transform: Transform::new(Vec2::new(x, 0.0), 0.0),
                restitution: 1.0,
                friction: 0.0,
                ..Default::default()
            })
            .expect("a valid wall");
    }
    let ball = world
        .add_body(BodyDef {
            shape: Shape::circle(radius).expect("positive radius"),
            linear_velocity: Vec2::new(speed, 0.0),
            restitution: 1.0,
            friction: 0.0,
            ..Default::default()
        })
        .expect("a valid ball");
    let dt = world.config().dt;
    let mut worst: f64 = 0.0;
    for step in 1..=300 {
        world.step();
        let x = world
            .body(ball)
            .expect("the ball")
            .transform()
            .translation
            .x;
        let want = triangle_wave(speed, step as f64 * dt, 4.5 - radius);
        worst = worst.max((x - want).abs());
    }
    let v = world
        .body(ball)
        .expect("the ball")
        .linear_velocity()
        .length();
    (v < 1e-3, worst)
}

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: top speed (m/s), then radii (m)"))
        .collect();
    let top = args.first().copied().unwrap_or(1000.0);
    let radii = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        vec![0.5, 0.05]
    };
    let (mut stopped, mut off_mm, mut off_um, mut worst) = (0, 0, 0, 0.0_f64);
    for &r in &radii {
        for i in 0..400 {
            let speed = 0.5 + (top - 0.5) * f64::from(i) / 399.0;
            let (dead, err) = run(speed, r);
            stopped += usize::from(dead);
            off_mm += usize::from(err > 1e-3);
            off_um += usize::from(err > 1e-6);
            worst = worst.max(err);
        }
    }
    println!(
        "{} runs (speeds 0.5-{top} m/s, radii {radii:?} m): {stopped} stopped, {off_mm} more than \
         1 mm off the path, {off_um} more than 1e-6 m off, worst {worst:.2e} m",
        400 * radii.len()
    );
}
