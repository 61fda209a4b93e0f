//! Box2D's `large_pyramid` benchmark scene (5,050 boxes by default): runs 500 steps and reports
//! the time per step and how far the top box moved, to show the pyramid stood.
//! Run with `cargo run --release --example pyramid [rows] [steps]`.

use std::time::Instant;
use sweep2d::analysis::scenes;

fn main() {
    let mut args = std::env::args().skip(1);
    let rows: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let steps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(500);
    let mut scene = scenes::pyramid(rows);
    let top = scene.tracked[0];
    let start = scene
        .world
        .body(top)
        .expect("top box")
        .transform()
        .translation;
    let clock = Instant::now();
    for _ in 0..steps {
        scene.world.step();
    }
    let elapsed = clock.elapsed().as_secs_f64();
    let end = scene
        .world
        .body(top)
        .expect("top box")
        .transform()
        .translation;
    let drift = end - start;
    println!(
        "{} boxes, {} steps: {:.3} ms per step; top box moved ({:.4}, {:.4}) m; {} contact points; kinetic energy {:.3e} J",
        scene.world.body_count() - 1,
        steps,
        1000.0 * elapsed / steps as f64,
        drift.x,
        drift.y,
        scene.world.contact_point_count(),
        scene.world.kinetic_energy()
    );
}
