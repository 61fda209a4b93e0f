//! World step benchmarks on the shared scenes (`sweep2d::analysis::scenes`): Box2D's `large_pyramid`, falling
//! mixed shapes, and a bullet rain. Each criterion iteration is one `World::step` of a scene that
//! keeps evolving between iterations, so the figure is milliseconds per step over the first few
//! hundred steps (the pyramid settling, the shapes falling and piling, the bullets hitting).

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};
use sweep2d::analysis::scenes::{self, Scene};

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

fn benches(c: &mut Criterion) {
    bench_scene(c, "world/large_pyramid_5050", || scenes::pyramid(100));
    bench_scene(c, "world/falling_mixed_1k", || scenes::falling_mixed(1000));
    bench_scene(c, "world/falling_mixed_4k", || scenes::falling_mixed(4000));
    bench_scene(c, "world/falling_mixed_16k", || {
        scenes::falling_mixed(16000)
    });
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
