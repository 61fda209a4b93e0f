//! Box2D's `large_pyramid` benchmark scene (5,050 boxes by default): runs 500 steps and reports
//! the time per step, how far the top box moved (to show the pyramid stood) and the time per
//! stage of the step ([`sweep2d::StepProfile`]).
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
    let mut stages = sweep2d::StepProfile::default();
    for _ in 0..steps {
        scene.world.step();
        stages.accumulate(scene.world.profile());
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
    let per_step = |ms: f64| ms / steps as f64;
    println!(
        "per stage (ms/step): pairs {:.3}, narrow {:.3}, solve {:.3}, continuous {:.3}, refit {:.3}, total {:.3}",
        per_step(stages.pairs),
        per_step(stages.narrow),
        per_step(stages.solve),
        per_step(stages.continuous),
        per_step(stages.refit),
        per_step(stages.total)
    );
}
