//! What the game-engine parts cost (criterion): filtered pair finding, the swept sensor pass, and
//! world queries through the broad phase.
//!
//! * `game/filters/*`: falling mixed 1,000, first second (steps 2–61, per step), with default
//!   filters, and with the dynamic bodies in two categories that do not collide with each other
//!   (every other body; each still collides with the ground and walls and with its own category).
//! * `game/sensors/*`: the bullet rain (1,000 discs at 300 m/s through three 1 cm walls), per
//!   step, without and with 40 static 1 cm sensor strips across the bullets' paths.
//! * `game/queries/*`: on the settled 100-row pyramid (5,050 boxes), per query: the nearest hit
//!   and every hit of rays across the pyramid, a box swept 5 m, and a disc's overlaps.
//! * `game/sleep/*`: ten resting walls of 100 boxes after 2.5 s, per step, with sleeping off and
//!   on (all asleep), and asleep with one 200 m/s bullet flying over them.
//! * `game/character/*`: one `CharacterMover::move_and_slide` of a capsule walking at 5 m/s
//!   under gravity over rolling ground of 1,000 segments (slopes up to 35°), per call, from each
//!   of the 600 poses of a walk along it: the segments as 1,000 static bodies, and as one chain.
//! * `game/remove/*`: `World::remove_body` of 100 bodies from the middle of falling mixed 4,000
//!   after 2 s (about 12,000 contacts), per body; and of the 40 links of the middle chain of 20
//!   hanging chains of 40 links, per body. A removal costs the body's own contacts and joints.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};
use sweep2d::analysis::scenes;
use sweep2d::{
    BodyDef, BodyKind, CharacterMover, Filter, QueryFilter, Shape, Transform, Vec2, World,
};

/// Times `work` on fresh clones of `world` (the clone not timed), per one of its `count` items.
fn bench_on_clones(
    c: &mut Criterion,
    name: &str,
    world: &World,
    count: u32,
    work: impl Fn(&mut World),
) {
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut w = world.clone();
                let start = Instant::now();
                work(&mut w);
                total += start.elapsed();
            }
            total / count
        })
    });
}

/// Times the 60 steps after `snapshot`, per step.
fn bench_steps(c: &mut Criterion, name: &str, snapshot: &World) {
    bench_on_clones(c, name, snapshot, 60, |w| {
        for _ in 0..60 {
            w.step();
        }
    });
}

fn filters(c: &mut Criterion) {
    let mut plain = scenes::falling_mixed(1_000).world;
    let mut split = plain.clone();
    let ids: Vec<_> = split
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(id, _)| id)
        .collect();
    for (k, id) in ids.into_iter().enumerate() {
        let category = if k % 2 == 0 { 2 } else { 4 };
        let filter = Filter {
            category,
            mask: !(6 ^ category),
            group: 0,
        };
        let shape = split.shape_ids(id)[0];
        split.set_filter(shape, filter).expect("a live shape");
    }
    plain.step();
    split.step();
    bench_steps(c, "game/filters/falling_mixed_1k_default", &plain);
    bench_steps(c, "game/filters/falling_mixed_1k_two_categories", &split);
}

fn sensors(c: &mut Criterion) {
    let plain = scenes::bullet_rain(1000, 300.0).world;
    let mut with = plain.clone();
    for k in 0..40 {
        with.add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(10.0, 0.005).expect("a strip"),
            transform: Transform::new(Vec2::new(0.0, -2.0 + 0.25 * k as f64), 0.0),
            sensor: true,
            ..BodyDef::default()
        })
        .expect("a valid sensor");
    }
    bench_steps(c, "game/sensors/bullet_rain_1000_no_sensors", &plain);
    bench_steps(c, "game/sensors/bullet_rain_1000_40_sensor_strips", &with);
}

fn queries(c: &mut Criterion) {
    let mut world = scenes::pyramid(100).world;
    for _ in 0..120 {
        world.step();
    }
    let all = QueryFilter::default();
    // Rays from the left of the pyramid to the right at 64 heights, and 64 down from above.
    let rays: Vec<(Vec2, Vec2)> = (0..64)
        .map(|k| {
            (
                Vec2::new(-60.0, 0.5 + 1.5 * k as f64),
                Vec2::new(120.0, 0.0),
            )
        })
        .chain((0..64).map(|k| {
            (
                Vec2::new(-48.0 + 1.5 * k as f64, 120.0),
                Vec2::new(0.0, -130.0),
            )
        }))
        .collect();
    let mut k = 0;
    let mut next = || {
        k = (k + 1) % rays.len();
        rays[k]
    };
    c.bench_function("game/queries/ray_cast_closest", |b| {
        b.iter(|| {
            let (o, d) = next();
            black_box(world.ray_cast_closest(o, d, &all))
        })
    });
    c.bench_function("game/queries/ray_cast_all", |b| {
        b.iter(|| {
            let (o, d) = next();
            black_box(world.ray_cast_all(o, d, &all).len())
        })
    });
    let probe = Shape::rectangle(0.25, 0.25).expect("a box");
    let disc = Shape::circle(1.5).expect("a disc");
    c.bench_function("game/queries/shape_cast_5m", |b| {
        b.iter(|| {
            let (o, _) = next();
            let from = Transform::new(Vec2::new(o.x.max(-45.0), 60.0), 0.3);
            black_box(world.shape_cast(&probe, &from, Vec2::new(0.0, -5.0), &all))
        })
    });
    c.bench_function("game/queries/overlap_shape_disc_1_5m", |b| {
        b.iter(|| {
            let (o, _) = next();
            let at = Transform::new(Vec2::new(o.x.clamp(-45.0, 45.0), 20.0), 0.0);
            black_box(world.overlap_shape(&disc, &at, &all).len())
        })
    });
}

/// Ten walls of 100 boxes (4 rows of 25) resting on the ground: 1,000 boxes in ten islands.
fn walls(sleep: bool) -> World {
    let mut w = World::new(sweep2d::WorldConfig {
        sleep,
        ..sweep2d::WorldConfig::default()
    });
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(160.0, 0.5).expect("ground"),
        transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
        ..BodyDef::default()
    })
    .expect("ground");
    for t in 0..10 {
        for row in 0..4 {
            for col in 0..25 {
                let x = -140.0 + 28.0 * t as f64 + col as f64;
                w.add_body(BodyDef {
                    shape: Shape::rectangle(0.5, 0.5).expect("a box"),
                    transform: Transform::new(Vec2::new(x, 0.5 + row as f64), 0.0),
                    ..BodyDef::default()
                })
                .expect("a box");
            }
        }
    }
    for _ in 0..150 {
        w.step();
    }
    w
}

fn sleeping(c: &mut Criterion) {
    bench_steps(c, "game/sleep/walls_1000_awake", &walls(false));
    let asleep = walls(true);
    bench_steps(c, "game/sleep/walls_1000_asleep", &asleep);
    // One bullet over the sleeping walls: the continuous pass runs for it alone.
    let mut bullet = asleep.clone();
    bullet
        .add_body(BodyDef {
            shape: Shape::circle(0.1).expect("a disc"),
            transform: Transform::new(Vec2::new(-150.0, 20.0), 0.0),
            linear_velocity: Vec2::new(200.0, 0.0),
            ..BodyDef::default()
        })
        .expect("the bullet");
    bench_steps(c, "game/sleep/walls_1000_asleep_one_bullet", &bullet);
}

/// Rolling ground: 1,001 points 0.5 m apart along x, heights on two sines (slopes up to 35°).
fn rolling_ground() -> Vec<Vec2> {
    (0..=1000)
        .map(|i| {
            let x = 0.5 * f64::from(i);
            Vec2::new(x, 1.2 * (0.3 * x).sin() + 0.4 * (1.1 * x).sin())
        })
        .collect()
}

/// A world with the rolling ground as 1,000 static segment bodies, or as one chain.
fn level(chain: bool) -> World {
    let mut w = World::new(sweep2d::WorldConfig::default());
    let points = rolling_ground();
    let stat = |shape| BodyDef {
        kind: BodyKind::Static,
        shape,
        ..BodyDef::default()
    };
    if chain {
        let ground = Shape::chain(&points, false).expect("a chain");
        w.add_body(stat(ground)).expect("the ground");
    } else {
        for pair in points.windows(2) {
            let segment = Shape::segment(pair[0], pair[1]).expect("a segment");
            w.add_body(stat(segment)).expect("a segment");
        }
    }
    w
}

fn character(c: &mut Criterion) {
    const DT: f64 = 1.0 / 60.0;
    for (name, chain) in [("segments_1000", false), ("chain_1000", true)] {
        let w = level(chain);
        let mover = CharacterMover::new(
            Shape::capsule(Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.3).expect("a capsule"),
        );
        let filter = QueryFilter::default();
        // A walk along the ground: the poses and moves the bench replays.
        let mut pose = Transform::new(Vec2::new(5.0, 4.0), 0.0);
        let mut fall = 0.0;
        let mut frames = Vec::new();
        for _ in 0..600 {
            fall -= 9.81 * DT;
            let desired = Vec2::new(5.0 * DT, fall * DT);
            frames.push((pose, desired));
            let r = mover.move_and_slide(&w, pose, desired, &filter);
            if r.grounded {
                fall = 0.0;
            }
            pose = r.transform;
        }
        let mut k = 0;
        c.bench_function(&format!("game/character/{name}"), |b| {
            b.iter(|| {
                k = (k + 1) % frames.len();
                let (pose, desired) = frames[k];
                black_box(mover.move_and_slide(&w, pose, desired, &filter).transform)
            })
        });
    }
}

/// Times removing `ids` from clones of `world`, per body.
fn bench_removals(c: &mut Criterion, name: &str, world: &World, ids: &[sweep2d::BodyId]) {
    bench_on_clones(c, name, world, ids.len() as u32, |w| {
        for &id in ids {
            black_box(w.remove_body(id).expect("a live body"));
        }
    });
}

fn removals(c: &mut Criterion) {
    let mut pile = scenes::falling_mixed(4_000).world;
    for _ in 0..120 {
        pile.step();
    }
    let ids: Vec<_> = pile.bodies().map(|(id, _)| id).collect();
    let middle = &ids[ids.len() / 2..ids.len() / 2 + 100];
    bench_removals(c, "game/remove/pile_4000", &pile, middle);
    let mut chains = scenes::hanging_chains(20, 40).world;
    for _ in 0..60 {
        chains.step();
    }
    let ids: Vec<_> = chains
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(id, _)| id)
        .collect();
    bench_removals(c, "game/remove/chain_links", &chains, &ids[400..440]);
}

fn benches(c: &mut Criterion) {
    removals(c);
    character(c);
    filters(c);
    sensors(c);
    queries(c);
    sleeping(c);
}

criterion_group! {
    name = game_benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(game_benches);
