//! Segments and chains: zero-thickness terrain that bullets never pass and that a sliding body
//! does not catch on at interior vertices (ghost-collision removal).

use proptest::prelude::*;
use sweep2d::{BodyDef, BodyError, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn world(gravity: Vec2) -> World {
    World::new(WorldConfig {
        gravity,
        ..WorldConfig::default()
    })
}

/// A frictionless box of half size 0.25 sliding at `speed` along flat ground `ground` (at y = 0):
/// the largest vertical speed after it has settled, and where it ends.
fn slide(ground: Shape, speed: f64) -> (f64, f64) {
    let mut w = world(v(0.0, -10.0));
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: ground,
        friction: 0.0,
        ..BodyDef::default()
    })
    .unwrap();
    let b = w
        .add_body(BodyDef {
            shape: Shape::rectangle(0.25, 0.25).unwrap(),
            transform: Transform::new(v(-19.0, 0.25), 0.0),
            linear_velocity: v(speed, 0.0),
            friction: 0.0,
            ..BodyDef::default()
        })
        .unwrap();
    let mut vy: f64 = 0.0;
    for step in 0..(30.0 / speed * 60.0) as usize {
        w.step();
        if step > 5 {
            vy = vy.max(w.body(b).unwrap().linear_velocity().y.abs());
        }
    }
    (vy, w.body(b).unwrap().transform().translation.x)
}

fn flat_points(spacing: f64) -> Vec<Vec2> {
    let n = (40.0 / spacing).round() as usize;
    (0..=n)
        .map(|i| v(-20.0 + i as f64 * spacing, 0.0))
        .collect()
}

#[test]
fn a_box_slides_across_a_chain_without_bumps_at_its_vertices() {
    for spacing in [1.0, 0.25, 0.05] {
        let chain = Shape::chain(&flat_points(spacing), false).unwrap();
        let (vy, x) = slide(chain, 10.0);
        assert!(vy < 0.01, "spacing {spacing}: vertical speed {vy} m/s");
        assert!(x > 10.0, "spacing {spacing}: stopped at {x}");
    }
    // The control: the same segments as a plain compound (no links) catch the box.
    let pts = flat_points(0.05);
    let loose = Shape::compound(
        pts.windows(2)
            .map(|w| (Transform::IDENTITY, Shape::segment(w[0], w[1]).unwrap()))
            .collect(),
    )
    .unwrap();
    let (vy, _) = slide(loose, 10.0);
    assert!(vy > 0.1, "unlinked segments should catch the box: {vy}");
}

#[test]
fn a_ball_rolls_down_into_the_valley_and_settles_there() {
    let mut w = world(v(0.0, -10.0));
    // A valley (concave vertex at the origin) and, to the right, a hill (convex vertex at x = 6).
    let chain = Shape::chain(
        &[
            v(-4.0, 2.0),
            v(0.0, 0.0),
            v(4.0, 2.0),
            v(6.0, 3.0),
            v(8.0, 2.0),
        ],
        false,
    )
    .unwrap();
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: chain,
        ..BodyDef::default()
    })
    .unwrap();
    let ball = w
        .add_body(BodyDef {
            shape: Shape::circle(0.2).unwrap(),
            transform: Transform::new(v(-2.0, 2.0), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    for _ in 0..600 {
        w.step();
    }
    let p = w.body(ball).unwrap().transform().translation;
    // Rolled down into the valley and settled there, on top of the chain.
    assert!(p.x.abs() < 0.5 && p.y > 0.0 && p.y < 0.6, "{p:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Bullets at up to 1,000 m/s from either side never end on the far side of a segment or a
    /// chain (the continuous pass sweeps them against every segment).
    #[test]
    fn bullets_never_pass_segments_or_chains(
        speed in 100.0..1_000.0f64,
        angle in -1.2..1.2f64,
        from_below in any::<bool>(),
        x0 in -3.0..3.0f64,
        use_chain in any::<bool>(),
    ) {
        let mut w = world(Vec2::ZERO);
        let ground = if use_chain {
            Shape::chain(&flat_points(0.5), false).unwrap()
        } else {
            Shape::segment(v(-20.0, 0.0), v(20.0, 0.0)).unwrap()
        };
        w.add_body(BodyDef { kind: BodyKind::Static, shape: ground, ..BodyDef::default() }).unwrap();
        let side = if from_below { -1.0 } else { 1.0 };
        let dir = v(angle.sin(), -side * angle.cos());
        let bullet = w
            .add_body(BodyDef {
                shape: Shape::circle(0.01).unwrap(),
                transform: Transform::new(v(x0, side * 2.0), 0.0),
                linear_velocity: speed * dir,
                restitution: 0.5,
                ..BodyDef::default()
            })
            .unwrap();
        for _ in 0..10 {
            w.step();
            let y = w.body(bullet).unwrap().transform().translation.y;
            prop_assert!(y * side > 0.0, "bullet crossed to y = {}", y);
        }
    }
}

#[test]
fn segments_and_chains_have_no_mass_and_refuse_bad_points() {
    let mut w = world(Vec2::ZERO);
    let err = w
        .add_body(BodyDef {
            shape: Shape::segment(v(0.0, 0.0), v(1.0, 0.0)).unwrap(),
            ..BodyDef::default()
        })
        .unwrap_err();
    assert!(matches!(err, BodyError::OutOfRange { .. }), "{err}");
    assert!(Shape::segment(v(1.0, 1.0), v(1.0, 1.0)).is_err());
    assert!(Shape::segment(v(f64::NAN, 0.0), v(1.0, 0.0)).is_err());
    let e = Shape::chain(&[v(0.0, 0.0)], false).unwrap_err();
    assert!(e.to_string().contains("at least 2"), "{e}");
    let e = Shape::chain(&[v(0.0, 0.0), v(1.0, 0.0)], true).unwrap_err();
    assert!(e.to_string().contains("at least 3"), "{e}");
    let e = Shape::chain(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0)], false).unwrap_err();
    assert!(e.to_string().contains("points 1 and 2"), "{e}");
    assert_eq!(
        Shape::chain(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)], true)
            .unwrap()
            .kind_name(),
        "a chain"
    );
}
