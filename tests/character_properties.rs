//! Property tests of the character mover over random levels (thin walls, segments and boxes at
//! any angle) and random moves at 0.1 to 200 m/s in any direction, each checked against an
//! independent gap computation (`common::gap`, core-to-core distance by brute force):
//!
//! * the mover never ends inside geometry, and keeps at least half its skin from it;
//! * it never crosses a wall: every straight leg of its path (start, each stop, end) is clear of
//!   every shape at every sampled point and by an exact shape cast;
//! * it never leaves the closed room the level is built in.
//!
//! Case counts follow `PROPTEST_CASES` (see `tests/common/mod.rs`).

mod common;

use common::gap;
use proptest::prelude::*;
use sweep2d::{
    BodyDef, BodyKind, CharacterMover, MoveResult, QueryFilter, Shape, Transform, Vec2, World,
    WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

const DT: f64 = 1.0 / 60.0;
/// The room: walls 1 cm thick around [-ROOM, ROOM]².
const ROOM: f64 = 10.0;

/// A level piece: shape and pose.
type Piece = (Shape, Transform);

fn segment() -> impl Strategy<Value = Piece> {
    (-8.0..8.0f64, -8.0..8.0f64, 0.25..2.0f64, -3.2..3.2f64).prop_map(|(x, y, half, a)| {
        let shape = Shape::segment(v(-half, 0.0), v(half, 0.0)).unwrap();
        (shape, Transform::new(v(x, y), a))
    })
}

fn box_piece() -> impl Strategy<Value = Piece> {
    (
        -8.0..8.0f64,
        -8.0..8.0f64,
        0.005..1.0f64,
        0.1..1.0f64,
        -3.2..3.2f64,
    )
        .prop_map(|(x, y, w, h, a)| (Shape::rectangle(w, h).unwrap(), Transform::new(v(x, y), a)))
}

fn mover() -> impl Strategy<Value = CharacterMover> {
    let shape = prop_oneof![
        (0.1..0.5f64).prop_map(|r| Shape::circle(r).unwrap()),
        (0.1..0.5f64, 0.1..0.4f64)
            .prop_map(|(h, r)| Shape::capsule(v(0.0, -h), v(0.0, h), r).unwrap()),
        (0.1..0.5f64, 0.1..0.8f64).prop_map(|(w, h)| Shape::rectangle(w, h).unwrap()),
    ];
    (shape, 0.001..0.05f64, prop::bool::ANY).prop_map(|(shape, skin, walk)| {
        let mut m = CharacterMover::new(shape);
        m.skin = skin;
        if !walk {
            m.step_height = 0.0;
            m.snap_distance = 0.0;
        }
        m
    })
}

/// A move: direction (radians) and speed (m/s, 0.1 to 200, spread evenly in its logarithm).
fn moves() -> impl Strategy<Value = Vec<(f64, f64)>> {
    prop::collection::vec((-3.2..3.2f64, (0.1f64.ln())..(200f64.ln())), 30)
}

/// The level: the room's four walls and the pieces, every one with its shape and pose.
fn level(pieces: &[Piece]) -> (World, Vec<Piece>) {
    let mut all: Vec<Piece> = vec![
        (
            Shape::rectangle(ROOM, 0.005).unwrap(),
            Transform::new(v(0.0, -ROOM), 0.0),
        ),
        (
            Shape::rectangle(ROOM, 0.005).unwrap(),
            Transform::new(v(0.0, ROOM), 0.0),
        ),
        (
            Shape::rectangle(0.005, ROOM).unwrap(),
            Transform::new(v(-ROOM, 0.0), 0.0),
        ),
        (
            Shape::rectangle(0.005, ROOM).unwrap(),
            Transform::new(v(ROOM, 0.0), 0.0),
        ),
    ];
    all.extend(pieces.iter().cloned());
    let mut w = World::new(WorldConfig::default());
    for (shape, x) in &all {
        w.add_body(BodyDef {
            kind: BodyKind::Static,
            shape: shape.clone(),
            transform: *x,
            ..BodyDef::default()
        })
        .unwrap();
    }
    (w, all)
}

/// The smallest gap from the mover at `x` to any level piece (independent brute force).
fn clearance(m: &CharacterMover, x: &Transform, all: &[Piece]) -> f64 {
    all.iter()
        .map(|(s, xs)| gap(&m.shape, x, s, xs))
        .fold(f64::INFINITY, f64::min)
}

/// A start pose clear of everything by at least the skin, searched outward from `seed`.
fn clear_start(m: &CharacterMover, all: &[Piece], seed: Vec2) -> Option<Transform> {
    for ring in 0..40 {
        for k in 0..16 {
            let a = f64::from(k) * std::f64::consts::TAU / 16.0;
            let r = 0.4 * f64::from(ring);
            let p = seed + r * v(a.cos(), a.sin());
            if p.x.abs() > ROOM - 1.0 || p.y.abs() > ROOM - 1.0 {
                continue;
            }
            let x = Transform::new(p, 0.0);
            if clearance(m, &x, all) > m.skin {
                return Some(x);
            }
        }
    }
    None
}

/// Checks one move: the end clear of everything, each leg of its path clear.
fn check_move(
    w: &World,
    m: &CharacterMover,
    all: &[Piece],
    start: &Transform,
    r: &MoveResult,
) -> Result<(), TestCaseError> {
    prop_assert!(r.error.is_none(), "{:?}", r.error);
    let end = r.transform;
    let c = clearance(m, &end, all);
    prop_assert!(
        c >= 0.5 * m.skin,
        "ends {c} m from geometry (skin {}): {r:?}",
        m.skin
    );
    let p = end.translation;
    prop_assert!(p.x.abs() < ROOM && p.y.abs() < ROOM, "left the room: {p}");
    if m.step_height > 0.0 {
        // Steps go up, forward and down between recorded stops; only the stops are checked.
        return Ok(());
    }
    let mut stops: Vec<Transform> = vec![*start];
    stops.extend(r.collisions.iter().map(|c| c.transform));
    stops.push(end);
    for leg in stops.windows(2) {
        let (a, b) = (leg[0], leg[1]);
        let d = b.translation - a.translation;
        if d.length() == 0.0 {
            continue;
        }
        let hit = w.shape_cast(&m.shape, &a, d, &QueryFilter::default());
        prop_assert!(hit.is_none(), "a leg {a:?} → {b:?} touches {hit:?}");
        for i in 0..=32 {
            let x = Transform::new(a.translation + d * (f64::from(i) / 32.0), 0.0);
            let c = clearance(m, &x, all);
            prop_assert!(c > 0.0, "a leg passes through geometry ({c} m) at {x:?}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::simulation_config(256))]

    #[test]
    fn a_mover_never_ends_inside_geometry_nor_crosses_a_wall(
        segments in prop::collection::vec(segment(), 0..10),
        boxes in prop::collection::vec(box_piece(), 0..8),
        m in mover(),
        seed in (-6.0..6.0f64, -6.0..6.0f64),
        steps in moves(),
        gravity in prop::bool::ANY,
    ) {
        let mut pieces = segments;
        pieces.extend(boxes);
        let (w, all) = level(&pieces);
        let start = clear_start(&m, &all, v(seed.0, seed.1));
        prop_assume!(start.is_some());
        let mut pose = start.unwrap();
        let mut fall = 0.0;
        for (angle, log_speed) in steps {
            let speed = log_speed.exp();
            let mut d = speed * DT * v(angle.cos(), angle.sin());
            if gravity {
                fall -= 9.81 * DT;
                d.y += fall * DT;
            }
            let r = m.move_and_slide(&w, pose, d, &QueryFilter::default());
            check_move(&w, &m, &all, &pose, &r)?;
            if r.grounded {
                fall = 0.0;
            }
            pose = r.transform;
        }
    }
}
