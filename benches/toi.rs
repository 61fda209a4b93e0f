//! Time of impact per shape pair, under translation and with rotation.
//!
//! Each iteration runs one `query::time_of_impact` on the next motion pair of a fixed set of 1,024:
//! B starts 2–4 m from A and moves 6 m toward it with a random sideways offset, so most pairs
//! hit and some miss. "rotating" adds up to ±3 rad of turn to both over the step.

mod common;

use common::Rng;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use sweep2d::query::{time_of_impact, Motion};
use sweep2d::{Shape, Transform, Vec2};

fn motions(n: usize, spin: f64, seed: u64) -> Vec<(Motion, Motion)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let a0 = Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
            let dir = Vec2::from_angle(rng.range(-std::f64::consts::PI, std::f64::consts::PI));
            let b0 = a0 + dir * rng.range(2.0, 4.0) + dir.perp() * rng.range(-1.0, 1.0);
            let ma = Motion::new(
                Transform::new(a0, rng.range(-3.0, 3.0)),
                Vec2::ZERO,
                rng.range(-spin, spin),
            );
            let mb = Motion::new(
                Transform::new(b0, rng.range(-3.0, 3.0)),
                -dir * 6.0,
                rng.range(-spin, spin),
            );
            (ma, mb)
        })
        .collect()
}

fn bench_pair(c: &mut Criterion, name: &str, a: &Shape, b: &Shape) {
    let mut g = c.benchmark_group(format!("toi/{name}"));
    for (label, spin) in [("translation", 0.0), ("rotating", 3.0)] {
        let set = motions(1024, spin, 5);
        g.bench_function(label, |bench| {
            let mut i = 0;
            bench.iter(|| {
                i = (i + 1) & 1023;
                let (ma, mb) = &set[i];
                black_box(time_of_impact(a, ma, b, mb))
            })
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    let bx = Shape::rectangle(0.5, 0.5).unwrap();
    let oct = Shape::regular_polygon(8, 0.6).unwrap();
    let ball = Shape::circle(0.4).unwrap();
    let cap = Shape::capsule(Vec2::new(-0.4, 0.0), Vec2::new(0.4, 0.0), 0.2).unwrap();
    bench_pair(c, "box_box", &bx, &bx);
    bench_pair(c, "polygon8_polygon8", &oct, &oct);
    bench_pair(c, "circle_polygon", &ball, &bx);
    bench_pair(c, "capsule_polygon", &cap, &bx);
}

criterion_group! {
    name = toi_benches;
    config = Criterion::default().sample_size(50).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(toi_benches);
