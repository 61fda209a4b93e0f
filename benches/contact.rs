//! Static contact (SAT + MTV + manifold) per shape pair, resting and random configurations.
//!
//! Each iteration runs one `query::contact` on the next pose pair of a fixed set, so the reported
//! time is nanoseconds per pair. Random sets place B within ±1 m of A at random angles (most pairs
//! overlap, some are apart and exit early).

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use sweep2d::query::{contact, intersects};
use sweep2d::{Shape, Transform, Vec2};

fn bench_pair(
    c: &mut Criterion,
    name: &str,
    a: &Shape,
    b: &Shape,
    resting: (Transform, Transform),
) {
    let mut g = c.benchmark_group(format!("contact/{name}"));
    g.bench_function("resting", |bench| {
        let (xa, xb) = resting;
        bench.iter(|| {
            black_box(contact(
                black_box(a),
                black_box(&xa),
                black_box(b),
                black_box(&xb),
            ))
        })
    });
    let pairs = common::random_pose_pairs(1024, 1.0, 7);
    g.bench_function("random", |bench| {
        let mut i = 0;
        bench.iter(|| {
            i = (i + 1) & 1023;
            let (xa, xb) = &pairs[i];
            black_box(contact(a, xa, b, xb))
        })
    });
    let sparse = common::random_pose_pairs(1024, 3.0, 11);
    g.bench_function("sparse", |bench| {
        let mut i = 0;
        bench.iter(|| {
            i = (i + 1) & 1023;
            let (xa, xb) = &sparse[i];
            black_box(contact(a, xa, b, xb))
        })
    });
    g.bench_function("random_intersects", |bench| {
        let mut i = 0;
        bench.iter(|| {
            i = (i + 1) & 1023;
            let (xa, xb) = &pairs[i];
            black_box(intersects(a, xa, b, xb))
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let bx = Shape::rectangle(0.5, 0.5).unwrap();
    let ground = Shape::rectangle(5.0, 0.5).unwrap();
    let oct = Shape::regular_polygon(8, 0.6).unwrap();
    let ball = Shape::circle(0.4).unwrap();
    let cap = Shape::capsule(Vec2::new(-0.4, 0.0), Vec2::new(0.4, 0.0), 0.2).unwrap();
    let on_top = |h: f64| (Transform::IDENTITY, Transform::new(Vec2::new(0.3, h), 0.0));
    // Box–box: a box resting on a box (2-point manifold); Box2D's case.
    bench_pair(c, "box_box", &bx, &bx, on_top(0.995));
    bench_pair(
        c,
        "polygon8_polygon8",
        &oct,
        &oct,
        (
            Transform::IDENTITY,
            Transform::new(Vec2::new(0.1, 1.1), 0.0),
        ),
    );
    bench_pair(c, "polygon_circle", &ground, &ball, on_top(0.895));
    bench_pair(c, "capsule_polygon", &ground, &cap, on_top(0.695));
}

criterion_group! {
    name = contact_benches;
    config = Criterion::default().sample_size(50).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(contact_benches);
