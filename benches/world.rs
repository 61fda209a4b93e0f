//! World step benchmarks on the shared scenes (`sweep2d::analysis::scenes`): Box2D's `large_pyramid`,
//! falling mixed shapes in two phases, and a bullet rain.
//!
//! The pyramid and the bullet rain keep evolving between iterations (one iteration is one
//! `World::step`), so their figures are milliseconds per step over the first few hundred steps.
//! The falling scenes are measured in fixed phases, as the dense-scenes work compares them with
//! the peers (`benches/peers`): *first second* (steps 2–61, the shapes falling and the first rows
//! landing) and *at 5 s* (steps 271–330). Each iteration clones a snapshot taken before the phase
//! (untimed) and runs its 60 steps; the reported time is per step.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};
use sweep2d::analysis::scenes::{self, Scene};
use sweep2d::World;

fn bench_scene(c: &mut Criterion, name: &str, build: impl Fn() -> Scene) {
    let mut scene = build();
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                scene.world.step();
            }
            start.elapsed()
        })
    });
}

/// Steps per phase.
const PHASE: u32 = 60;

/// Times the `PHASE` steps that follow `snapshot`, per step.
fn bench_phase(c: &mut Criterion, name: &str, snapshot: &World) {
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut world = snapshot.clone();
                let start = Instant::now();
                for _ in 0..PHASE {
                    world.step();
                }
                total += start.elapsed();
            }
            total / PHASE
        })
    });
}

fn benches(c: &mut Criterion) {
    bench_scene(c, "world/large_pyramid_5050", || scenes::pyramid(100));
    for (label, n) in [("1k", 1_000), ("4k", 4_000), ("16k", 16_000)] {
        let mut world = scenes::falling_mixed(n).world;
        world.step(); // the first step builds every pair: not part of either phase
        bench_phase(
            c,
            &format!("world/falling_mixed_{label}/first_second"),
            &world,
        );
        for _ in 1..270 {
            world.step();
        }
        bench_phase(c, &format!("world/falling_mixed_{label}/at_5s"), &world);
    }
    bench_scene(c, "world/bullet_rain_1000", || {
        scenes::bullet_rain(1000, 300.0)
    });
}

criterion_group! {
    name = world_benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(world_benches);
