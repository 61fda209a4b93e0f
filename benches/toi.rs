//! Time of impact per shape pair, under translation and with rotation.
//!
//! Each iteration runs one `query::time_of_impact` on the next motion pair of a fixed set of 1,024:
//! B starts 2–4 m from A and moves 6 m toward it with a random sideways offset, so most pairs
//! hit and some miss. "rotating" adds up to ±3 rad of turn to both over the step.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use sweep2d::query::time_of_impact;
use sweep2d::{Shape, Vec2};

fn bench_pair(c: &mut Criterion, name: &str, a: &Shape, b: &Shape) {
    let mut g = c.benchmark_group(format!("toi/{name}"));
    for (label, spin) in [("translation", 0.0), ("rotating", 3.0)] {
        let set = common::toi_motions(1024, spin, 5);
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
