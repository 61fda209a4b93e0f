//! The world on hand-checked scenes: ids and validation, resting and stacking, the time-loss test,
//! Newton's cradle, events, stepping and queries.

use approx::assert_relative_eq;
use sweep2d::analysis::scenes;
use sweep2d::{
    Aabb, BodyDef, BodyError, BodyKind, Shape, Transform, Vec2, World, WorldConfig, WorldError,
};

fn ground(world: &mut World) {
    world
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(20.0, 0.5).unwrap(),
            transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
            ..Default::default()
        })
        .unwrap();
}

#[test]
fn removed_ids_are_rejected_not_reused() {
    let mut w = World::new(WorldConfig::default());
    let a = w.add_body(BodyDef::default()).unwrap();
    w.remove_body(a).unwrap();
    let b = w.add_body(BodyDef::default()).unwrap();
    assert_eq!(a.index(), b.index(), "the slot is reused");
    assert!(w.body(a).is_none(), "the stale id names nothing");
    assert!(w.body(b).is_some());
    assert_eq!(w.remove_body(a).unwrap_err(), BodyError::UnknownBody(a));
    assert!(matches!(
        w.set_velocity(a, Vec2::X, 0.0),
        Err(BodyError::UnknownBody(_))
    ));
    assert_eq!(w.body_count(), 1);
}

#[test]
fn invalid_bodies_are_refused_and_leave_the_world_unchanged() {
    let mut w = World::new(WorldConfig::default());
    w.add_body(BodyDef::default()).unwrap();
    let before = w.body_count();
    let cases = [
        BodyDef {
            density: 0.0,
            ..Default::default()
        },
        BodyDef {
            density: -1.0,
            ..Default::default()
        },
        BodyDef {
            density: f64::NAN,
            ..Default::default()
        },
        BodyDef {
            friction: -0.1,
            ..Default::default()
        },
        BodyDef {
            restitution: f64::INFINITY,
            ..Default::default()
        },
        BodyDef {
            linear_velocity: Vec2::new(f64::NAN, 0.0),
            ..Default::default()
        },
        BodyDef {
            transform: Transform::new(Vec2::new(0.0, f64::INFINITY), 0.0),
            ..Default::default()
        },
        BodyDef {
            linear_damping: -1.0,
            ..Default::default()
        },
    ];
    for def in cases {
        let err = w.add_body(def).unwrap_err();
        assert!(!err.to_string().is_empty());
        assert_eq!(w.body_count(), before);
    }
    let named = BodyDef {
        density: 0.0,
        name: Some("crate 7".into()),
        ..Default::default()
    };
    let msg = w.add_body(named).unwrap_err().to_string();
    assert!(msg.contains("crate 7") && msg.contains("density"), "{msg}");
    // Static bodies need no density.
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        density: 0.0,
        ..Default::default()
    })
    .unwrap();
    // Bad settings.
    assert!(matches!(
        World::try_new(WorldConfig {
            dt: 0.0,
            ..Default::default()
        }),
        Err(WorldError::InvalidConfig { field: "dt", .. })
    ));
    assert!(World::try_new(WorldConfig {
        dt: -1.0 / 60.0,
        ..Default::default()
    })
    .is_err());
    assert!(World::try_new(WorldConfig {
        gravity: Vec2::new(f64::NAN, 0.0),
        ..Default::default()
    })
    .is_err());
    let config = *w.config();
    assert!(w
        .set_config(WorldConfig {
            substeps: 0,
            ..config
        })
        .is_err());
    assert_eq!(*w.config(), config, "a refused config leaves the old one");
    assert!(matches!(
        w.advance(-1.0),
        Err(WorldError::InvalidFrameTime(_))
    ));
    assert!(w.advance(f64::NAN).is_err());
    // Setters validate too.
    let id = w.add_body(BodyDef::default()).unwrap();
    assert!(w
        .set_transform(id, Transform::new(Vec2::new(f64::NAN, 0.0), 0.0))
        .is_err());
    assert!(w
        .apply_impulse(id, Vec2::new(f64::INFINITY, 0.0), Vec2::ZERO)
        .is_err());
    let s = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            ..Default::default()
        })
        .unwrap();
    assert!(matches!(
        w.apply_force(s, Vec2::X, Vec2::ZERO),
        Err(BodyError::WrongKind { .. })
    ));
    assert!(matches!(
        w.set_velocity(s, Vec2::X, 0.0),
        Err(BodyError::WrongKind { .. })
    ));
}

#[test]
fn a_box_resting_on_the_ground_drifts_less_than_a_millimetre_in_ten_seconds() {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let b = w
        .add_body(BodyDef {
            transform: Transform::new(Vec2::new(1.0, 0.5), 0.0),
            ..Default::default()
        })
        .unwrap();
    let start = w.body(b).unwrap().transform();
    for _ in 0..600 {
        w.step();
    }
    let end = w.body(b).unwrap().transform();
    let drift = (end.translation - start.translation).length();
    assert!(drift < 1e-3, "drifted {drift} m");
    assert!(end.angle().abs() < 1e-3);
    assert!(w.body(b).unwrap().linear_velocity().length() < 1e-6);
}

/// Regression: a body whose broad-phase box the continuous pass had grown (to hold a fast step)
/// was not queried for new pairs, so a disc that landed and came to rest inside that box never got
/// a contact with the wall under it and sank through it under gravity.
#[test]
fn a_disc_dropped_on_a_thin_wall_comes_to_rest_on_top() {
    let (radius, half_thickness) = (0.025, 0.005);
    for speed in [0.0, 1.0, 2.0, 5.0, 12.0, 40.0] {
        let mut w = World::new(WorldConfig::default());
        w.add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(1.0, half_thickness).unwrap(),
            ..Default::default()
        })
        .unwrap();
        let disc = w
            .add_body(BodyDef {
                shape: Shape::circle(radius).unwrap(),
                transform: Transform::new(Vec2::new(0.0, 0.5), 0.0),
                linear_velocity: Vec2::new(0.0, -speed),
                ..Default::default()
            })
            .unwrap();
        let resting = radius + half_thickness;
        for _ in 0..600 {
            w.step();
            let y = w.body(disc).unwrap().transform().translation.y;
            assert!(
                y > resting - sweep2d::constants::LINEAR_SLOP,
                "dropped at {speed} m/s: centre at {y} m, below the resting height {resting} m by more than the slop"
            );
        }
        let b = w.body(disc).unwrap();
        assert!(
            (b.transform().translation.y - resting).abs() < sweep2d::constants::LINEAR_SLOP,
            "dropped at {speed} m/s: does not rest on the wall (y = {})",
            b.transform().translation.y
        );
        assert!(b.linear_velocity().length() < 1e-3);
    }
}

#[test]
fn a_twenty_row_pyramid_stands_for_ten_seconds() {
    let mut scene = scenes::pyramid(20);
    let starts: Vec<_> = scene
        .world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(id, b)| (id, b.transform().translation))
        .collect();
    let top = scene.tracked[0];
    let top_start = scene.world.body(top).unwrap().transform().translation;
    for _ in 0..600 {
        scene.world.step();
    }
    // Every box is still in its place (the soft contacts compress a little under the load).
    for (id, p) in &starts {
        let d = scene.world.body(*id).unwrap().transform().translation - *p;
        assert!(
            d.x.abs() < 0.05 && d.y.abs() < 0.06,
            "box from {p:?} moved {d:?}"
        );
    }
    let top_drift = scene.world.body(top).unwrap().transform().translation - top_start;
    assert!(top_drift.length() < 0.05, "top box drifted {top_drift:?}");
    assert!(
        scene.world.kinetic_energy() < 1e-6,
        "still moving: {} J",
        scene.world.kinetic_energy()
    );
}

#[test]
fn a_stack_of_boxes_comes_to_rest() {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let ids: Vec<_> = (0..10)
        .map(|i| {
            w.add_body(BodyDef {
                transform: Transform::new(Vec2::new(0.0, 0.5 + i as f64 * 1.05), 0.0),
                ..Default::default()
            })
            .unwrap()
        })
        .collect();
    for _ in 0..600 {
        w.step();
    }
    // Dropped 5 cm onto each other, the ten boxes land, rock on their soft contacts and settle:
    // after 10 s every box moves slower than 1 cm/s and the column stands within 5 cm.
    for (i, id) in ids.iter().enumerate() {
        let b = w.body(*id).unwrap();
        let p = b.transform().translation;
        assert!(
            b.linear_velocity().length() < 0.01,
            "box {i} still moving at {:?}",
            b.linear_velocity()
        );
        assert!(p.x.abs() < 0.05, "box {i} slid to {p:?}");
        // Soft contacts compress about 3.5 mm each under the load above them.
        assert!(
            (p.y - (0.5 + i as f64)).abs() < 0.05,
            "box {i} at height {}",
            p.y
        );
        assert!(
            b.transform().angle().abs() < 0.02,
            "box {i} tilted {}",
            b.transform().angle()
        );
    }
}

/// Runs `scenes::tall_stack(count)` for `steps` steps and returns (the top box's sideways drift,
/// how far it sank, the largest tilt of any box), metres and radians.
fn tall_stack_after(
    count: usize,
    steps: usize,
    config: impl Fn(&mut WorldConfig),
) -> (f64, f64, f64) {
    let scene = scenes::tall_stack(count);
    let mut world = scene.world;
    let mut c = *world.config();
    config(&mut c);
    world.set_config(c).unwrap();
    let top = scene.tracked[0];
    let start = world.body(top).unwrap().transform().translation;
    for _ in 0..steps {
        world.step();
    }
    let end = world.body(top).unwrap().transform().translation;
    let tilt = world
        .bodies()
        .map(|(_, b)| b.transform().angle().abs())
        .fold(0.0, f64::max);
    ((end.x - start.x).abs(), start.y - end.y, tilt)
}

#[test]
fn a_column_of_fifty_boxes_stands_for_twenty_seconds() {
    // A single column of 1 m boxes, flush: the soft contacts compress under the weight above
    // (0.87 m in all at the top, as in Box2D), and the column must neither buckle nor creep
    // sideways. Before contact recycling it fell over within ten seconds (20 boxes as well).
    let (sideways, sank, tilt) = tall_stack_after(50, 1200, |_| {});
    assert!(sideways < 0.1, "top box drifted {sideways} m sideways");
    assert!(sank < 1.0, "top box sank {sank} m");
    assert!(tilt < 0.01, "a box tilted {tilt} rad");
}

#[test]
fn without_contact_recycling_a_tall_column_buckles() {
    // The control for the test above: the same column with recycling off falls within 20 s (the
    // failure the recycled manifolds remove). If this starts standing, the stability has another
    // source and docs/simulation.md should say so.
    let (sideways, _, tilt) = tall_stack_after(50, 1200, |c| c.contact_recycle_distance = 0.0);
    assert!(
        sideways > 1.0 || tilt > 0.3,
        "drift {sideways} m, tilt {tilt} rad"
    );
}

#[test]
fn elastic_ball_between_walls_keeps_its_speed_and_the_analytic_path() {
    let speed = 500.0;
    let mut scene = scenes::bouncing_ball(speed);
    let ball = scene.tracked[0];
    let dt = scene.world.config().dt;
    let mut bounces = 0;
    for step in 1..=1000 {
        scene.world.step();
        bounces += scene.world.events().impacts.len();
        let b = scene.world.body(ball).unwrap();
        let v = b.linear_velocity();
        assert!(
            (v.length() - speed).abs() <= 1e-3 * speed,
            "speed {} at step {step}",
            v.length()
        );
        let expected = scenes::bouncing_ball_x(speed, step as f64 * dt);
        let x = b.transform().translation.x;
        assert!(
            (x - expected).abs() <= 1e-6 * (bounces as f64 + 1.0),
            "step {step}: x {x} vs analytic {expected} after {bounces} bounces"
        );
        assert!(b.transform().translation.y.abs() < 1e-9);
    }
    // 500 m/s over 1000/60 s between walls 9.5 m apart: 877 bounces.
    assert_eq!(
        bounces,
        ((speed * 1000.0 * dt + 4.75) / 9.5).floor() as usize
    );
}

#[test]
fn newtons_cradle_transfers_momentum() {
    let mut scene = scenes::newtons_cradle(5, 4.0);
    let p0 = scene.world.linear_momentum();
    for _ in 0..60 {
        scene.world.step();
    }
    let v: Vec<f64> = scene
        .tracked
        .iter()
        .map(|id| scene.world.body(*id).unwrap().linear_velocity().x)
        .collect();
    assert_relative_eq!(
        scene.world.linear_momentum(),
        p0,
        epsilon = 1e-9 * p0.length()
    );
    assert!((v[4] - 4.0).abs() < 0.05, "last disc moves at {v:?}");
    for vi in &v[..4] {
        assert!(vi.abs() < 0.05, "the others rest: {v:?}");
    }
}

#[test]
fn contact_and_impact_events() {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let ball = w
        .add_body(BodyDef {
            shape: Shape::circle(0.25).unwrap(),
            transform: Transform::new(Vec2::new(0.0, 3.0), 0.0),
            linear_velocity: Vec2::new(0.0, -200.0), // 3.3 m per step: reaches the ground at t ≈ 0.83
            ..Default::default()
        })
        .unwrap();
    w.step();
    let impacts = &w.events().impacts;
    assert_eq!(
        impacts.len(),
        1,
        "the fast ball hits the ground inside the step"
    );
    let hit = impacts[0];
    assert!(hit.body_a == ball || hit.body_b == ball);
    assert!(hit.fraction > 0.0 && hit.fraction < 1.0);
    assert_relative_eq!(hit.point.y, 0.0, epsilon = 1e-6);
    assert!(hit.relative_speed > 100.0 && hit.impulse > 0.0);
    let p = w.body(ball).unwrap().transform().translation;
    assert!(p.y >= 0.25 - 0.005, "ball above the ground: {p:?}");
    let mut began = false;
    for _ in 0..30 {
        w.step();
        began |= !w.events().contact_begin.is_empty();
    }
    assert!(began, "resting contact reported");
    w.set_transform(ball, Transform::new(Vec2::new(0.0, 5.0), 0.0))
        .unwrap();
    w.step();
    w.step();
    assert!(!w.events().contact_end.is_empty() || w.events().contact_begin.is_empty());
}

#[test]
fn advance_runs_whole_steps_and_returns_alpha() {
    let mut w = World::new(WorldConfig::default());
    let dt = w.config().dt;
    let a = w.advance(2.5 * dt).unwrap();
    assert_eq!(w.step_count(), 2);
    assert_relative_eq!(a, 0.5, epsilon = 1e-9);
    let a = w.advance(0.6 * dt).unwrap();
    assert_eq!(w.step_count(), 3);
    assert_relative_eq!(a, 0.1, epsilon = 1e-9);
    // A stall: at most max_steps_per_advance steps run, the rest is dropped.
    let before = w.step_count();
    w.advance(100.0).unwrap();
    assert_eq!(
        w.step_count() - before,
        w.config().max_steps_per_advance as u64
    );
    // Interpolation between the last two poses.
    let id = w
        .add_body(BodyDef {
            linear_velocity: Vec2::new(6.0, 0.0),
            gravity_scale: 0.0,
            ..Default::default()
        })
        .unwrap();
    w.step();
    let b = w.body(id).unwrap();
    let mid = b.interpolated_transform(0.5);
    assert_relative_eq!(mid.translation.x, 0.05, epsilon = 1e-12);
}

#[test]
fn queries_find_bodies() {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let b = w
        .add_body(BodyDef {
            transform: Transform::new(Vec2::new(3.0, 2.0), 0.0),
            ..Default::default()
        })
        .unwrap();
    let hit = w
        .ray_cast(Vec2::new(3.0, 10.0), Vec2::new(0.0, -20.0))
        .unwrap();
    assert_eq!(hit.body, b);
    assert_relative_eq!(hit.hit.point.y, 2.5, epsilon = 1e-12);
    assert_relative_eq!(hit.hit.normal, Vec2::Y, epsilon = 1e-12);
    let through = w
        .ray_cast(Vec2::new(-3.0, 10.0), Vec2::new(0.0, -20.0))
        .unwrap();
    assert_ne!(through.body, b, "misses the box and hits the ground");
    assert_eq!(w.query_point(Vec2::new(3.2, 2.1)), vec![b]);
    assert!(w.query_point(Vec2::new(3.6, 2.1)).is_empty());
    let found = w.query_aabb(&Aabb::new(Vec2::new(2.0, 1.0), Vec2::new(2.6, 1.6)));
    assert_eq!(found, vec![b]);
}

#[test]
fn deepest_overlap_matches_the_exact_query() {
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..Default::default()
    });
    ground(&mut w);
    let sunk = w
        .add_body(BodyDef {
            shape: Shape::rectangle(0.5, 0.5).unwrap(),
            transform: Transform::new(Vec2::new(0.0, 0.2), 0.0),
            ..Default::default()
        })
        .unwrap();
    let free = w
        .add_body(BodyDef {
            shape: Shape::circle(0.5).unwrap(),
            transform: Transform::new(Vec2::new(5.0, 3.0), 0.0),
            ..Default::default()
        })
        .unwrap();
    w.step();
    let (depth, a, b) = w
        .deepest_overlap()
        .expect("the box is sunk into the ground");
    assert!(a == sunk || b == sunk);
    assert!(a != free && b != free);
    let body = w.body(sunk).unwrap();
    // Ground top at y = 0: the depth is how far the lowest corner is below it.
    let x = body.transform();
    let exact = -[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
        .iter()
        .map(|&(cx, cy)| x.transform_point(Vec2::new(cx, cy)).y)
        .fold(f64::INFINITY, f64::min);
    assert!((depth - exact).abs() < 1e-9, "{depth} vs {exact}");
    assert!(depth > 0.2, "recovery is gradual: {depth}");
}

/// Errors name the component that is wrong and carry its value, and a rotation that is not a unit
/// complex number is reported as such (not as a non-finite number).
#[test]
fn errors_name_the_offending_component_and_value() {
    let mut w = World::new(WorldConfig::default());
    let id = w.add_body(BodyDef::default()).unwrap();
    let stretched = Transform::from_parts(Vec2::ZERO, sweep2d::Rot { cos: 2.0, sin: 0.0 });
    match w.set_transform(id, stretched) {
        Err(BodyError::InvalidRotation { length, cos, .. }) => {
            assert_eq!(length, 2.0);
            assert_eq!(cos, 2.0);
        }
        other => panic!("expected a rotation error, got {other:?}"),
    }
    let refused = w.add_body(BodyDef {
        transform: stretched,
        ..Default::default()
    });
    assert!(matches!(refused, Err(BodyError::InvalidRotation { .. })));
    assert_eq!(w.body_count(), 1, "a refused body is not added");
    match w.set_velocity(id, Vec2::new(1.0, f64::NAN), 0.0) {
        Err(BodyError::NonFinite { field, value, .. }) => {
            assert_eq!(field, "linear velocity");
            assert!(value.is_nan());
        }
        other => panic!("expected a non-finite error, got {other:?}"),
    }
    match w.apply_force(id, Vec2::new(f64::NEG_INFINITY, 0.0), Vec2::ZERO) {
        Err(BodyError::NonFinite { field, value, .. }) => {
            assert_eq!(field, "force");
            assert_eq!(value, f64::NEG_INFINITY);
        }
        other => panic!("expected a non-finite error, got {other:?}"),
    }
    let message = w
        .set_transform(id, Transform::new(Vec2::new(0.0, f64::INFINITY), 0.0))
        .unwrap_err()
        .to_string();
    assert!(message.contains("transform.translation.y"), "{message}");
    let config = WorldConfig {
        gravity: Vec2::new(0.0, f64::INFINITY),
        ..WorldConfig::default()
    };
    match World::try_new(config) {
        Err(WorldError::InvalidConfig { field, value, .. }) => {
            assert_eq!(field, "gravity.y");
            assert_eq!(value, f64::INFINITY);
        }
        other => panic!("expected a config error, got {other:?}"),
    }
}

/// A kinematic slab 6 m wide and 10 cm thick, centred `height` metres above the origin, tilted by
/// `tilt` radians and moving down at `speed` m/s.
fn descending_slab(w: &mut World, height: f64, tilt: f64, speed: f64) -> sweep2d::BodyId {
    w.add_body(BodyDef {
        kind: BodyKind::Kinematic,
        shape: Shape::rectangle(3.0, 0.05).unwrap(),
        transform: Transform::new(Vec2::new(0.0, height), tilt),
        linear_velocity: Vec2::new(0.0, -speed),
        ..Default::default()
    })
    .unwrap()
}

/// The shape and pose `ground` gives the floor (for exact depth queries against it).
fn ground_shape() -> (Shape, Transform) {
    (
        Shape::rectangle(20.0, 0.5).unwrap(),
        Transform::new(Vec2::new(0.0, -0.5), 0.0),
    )
}

/// A disc on the ground under a kinematic slab that comes down tilted by `α` is squeezed out of
/// the wedge along the ground: with no friction left to jam it, the slab's closing speed `V` along
/// its normal (`V cos α`) is met by a sideways speed `u` with `u sin α = V cos α`, so the disc leaves
/// at `V / tan α` (hand-computed: 19.33 m/s for 6 m/s at 0.3 rad), and never ends a step inside the
/// slab or the ground.
#[test]
fn a_body_in_a_closing_wedge_is_squeezed_out_along_the_free_direction() {
    use sweep2d::constants::LINEAR_SLOP;
    use sweep2d::query::contact;
    for (speed, alpha) in [(6.0_f64, 0.3_f64), (12.0, 0.5), (3.0, -0.4)] {
        let mut w = World::new(WorldConfig::default());
        ground(&mut w);
        let disc = w
            .add_body(BodyDef {
                shape: Shape::circle(0.3).unwrap(),
                transform: Transform::new(Vec2::new(0.0, 0.3), 0.0),
                ..Default::default()
            })
            .unwrap();
        let slab = descending_slab(&mut w, 1.0, alpha, speed);
        let (floor, floor_pose) = ground_shape();
        let expected = speed / alpha.tan().abs();
        let mut fastest: f64 = 0.0;
        for _ in 0..(60.0 * 3.0 / speed) as usize {
            w.step();
            let (d, s) = (w.body(disc).unwrap(), w.body(slab).unwrap());
            let depth = |k: Option<sweep2d::Contact>| k.map_or(0.0, |k| k.depth);
            let in_slab = depth(contact(
                d.shape(),
                &d.transform(),
                s.shape(),
                &s.transform(),
            ));
            let in_floor = depth(contact(d.shape(), &d.transform(), &floor, &floor_pose));
            assert!(
                in_slab <= 2.0 * LINEAR_SLOP && in_floor <= 2.0 * LINEAR_SLOP,
                "{speed} m/s at {alpha} rad, step {}: disc {in_slab} m inside the slab, \
                 {in_floor} m inside the ground",
                w.step_count()
            );
            fastest = fastest.max(d.linear_velocity().x.abs());
            // It leaves toward the wedge's open side: away from where the slab meets the ground.
            assert!(
                d.linear_velocity().x * alpha.signum() >= -1e-9,
                "{speed} m/s at {alpha} rad: the disc moves into the wedge ({:?})",
                d.linear_velocity()
            );
        }
        assert!(
            (fastest - expected).abs() <= 0.02 * expected,
            "{speed} m/s at {alpha} rad: squeezed out at {fastest} m/s, V / tan α = {expected}"
        );
    }
}

/// A kinematic body that drives bodies into the static world (a slab moving down through the
/// ground, a blade whose tips sweep below the floor) must never push them through it. Where the
/// slab meets the ground at an angle (a wedge), the pinned bodies are squeezed out along the free
/// direction and never end a step inside the slab either; where it is parallel to the ground (no
/// free direction: boxes, a disc and a thin plank under a flat slab) the static contact wins and
/// the slab passes them. Checked with the exact contact query against the ground and the slab at
/// the end of every step, at several speeds.
#[test]
fn a_kinematic_body_never_drives_a_body_through_the_ground() {
    use sweep2d::constants::LINEAR_SLOP;
    use sweep2d::query::contact;
    for (speed, tilt) in [
        (2.0, 0.0),
        (6.0, 0.0),
        (12.0, 0.0),
        (6.0, 0.3),
        (12.0, -0.2),
    ] {
        let mut w = World::new(WorldConfig::default());
        ground(&mut w);
        let mut pinned = Vec::new();
        for (i, shape) in [
            Shape::rectangle(0.3, 0.3).unwrap(),
            Shape::circle(0.3).unwrap(),
            Shape::rectangle(0.5, 0.1).unwrap(),
        ]
        .into_iter()
        .enumerate()
        {
            let half_height = shape.aabb(&Transform::IDENTITY).max.y;
            pinned.push(
                w.add_body(BodyDef {
                    shape,
                    transform: Transform::new(Vec2::new(-1.5 + 1.5 * i as f64, half_height), 0.0),
                    ..Default::default()
                })
                .unwrap(),
            );
        }
        // (High enough that nothing overlaps it at the start.)
        let slab = descending_slab(&mut w, 2.0, tilt, speed);
        let (floor, floor_pose) = ground_shape();
        let (mut deepest_floor, mut deepest_slab): (f64, f64) = (0.0, 0.0);
        // Long enough for the slab to pass well below the ground.
        let steps = (60.0 * 4.0 / speed) as usize + 30;
        for _ in 0..steps {
            w.step();
            let slab_body = w.body(slab).unwrap();
            for &id in &pinned {
                let body = w.body(id).unwrap();
                let depth = |k: Option<sweep2d::Contact>| k.map_or(0.0, |k| k.depth);
                let floor_depth = depth(contact(
                    body.shape(),
                    &body.transform(),
                    &floor,
                    &floor_pose,
                ));
                let slab_depth = depth(contact(
                    body.shape(),
                    &body.transform(),
                    slab_body.shape(),
                    &slab_body.transform(),
                ));
                deepest_floor = deepest_floor.max(floor_depth);
                deepest_slab = deepest_slab.max(slab_depth);
            }
        }
        assert!(
            deepest_floor <= 2.0 * LINEAR_SLOP,
            "speed {speed}, tilt {tilt}: a pinned body ended a step {deepest_floor} m inside the ground"
        );
        if tilt != 0.0 {
            assert!(
                deepest_slab <= 2.0 * LINEAR_SLOP,
                "speed {speed}, tilt {tilt}: a body in the wedge ended a step {deepest_slab} m inside \
                 the slab instead of being squeezed out"
            );
        } else {
            // No free direction: the slab passes (the bodies stay out of the ground above).
            assert!(
                deepest_slab > 0.05,
                "speed {speed}: the flat slab should have passed the pinned bodies (deepest {deepest_slab} m)"
            );
        }
    }
}

/// A bullet that flies past a post without touching it gets one time of impact for the pair, in
/// the first sweeps; the final check knows the pair never touches on those motions and does not
/// ask again. Another bullet aimed at the post is swept, stopped, and checked as before.
#[test]
fn a_near_miss_is_swept_once_and_a_hit_is_still_resolved() {
    // A 0.1 m × 1 m post centred at x = 1 m (top at y = 0.5) and a 2 cm bullet at 90 m/s (1.5 m a
    // step) starting at x = 0, height `y`; the world after one step.
    let shoot = |y: f64| {
        let mut w = World::new(WorldConfig {
            gravity: Vec2::ZERO,
            ..WorldConfig::default()
        });
        w.add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(0.05, 0.5).unwrap(),
            transform: Transform::new(Vec2::new(1.0, 0.0), 0.0),
            ..Default::default()
        })
        .unwrap();
        let bullet = w
            .add_body(BodyDef {
                shape: Shape::circle(0.02).unwrap(),
                transform: Transform::new(Vec2::new(0.0, y), 0.0),
                linear_velocity: Vec2::new(90.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        w.step();
        (w, bullet)
    };
    // 1 cm of daylight over the post's top (within the speculative distance, so the broad phase
    // pairs the two and the pass must look).
    let (w, bullet) = shoot(0.53);
    assert_eq!(w.profile().swept_pairs, 1, "one sweep, no second look");
    assert!(w.events().impacts.is_empty());
    let b = w.body(bullet).unwrap();
    assert_relative_eq!(b.transform().translation.x, 1.5, epsilon = 1e-9);
    assert_relative_eq!(b.linear_velocity().x, 90.0, epsilon = 1e-9);
    assert_relative_eq!(b.transform().translation.y, 0.53, epsilon = 1e-12);

    // 10 cm lower, it hits the post's face within the step and bounces back.
    let (w, bullet) = shoot(0.44);
    assert_eq!(w.events().impacts.len(), 1);
    let b = w.body(bullet).unwrap();
    assert!(
        b.transform().translation.x <= 0.95 - 0.02 + 1e-9,
        "stopped at the post's face"
    );
    assert!(
        b.linear_velocity().x <= 0.0,
        "no longer moving into the post"
    );
}

/// Box2D's smash in miniature: a heavy block at 40 m/s into a free-floating wall of 30 × 30
/// touching boxes (3,200 times heavier per box, no gravity, created awake). The blow runs through
/// the packed wall ring by ring at the instants the block meets it; the pass settles each such
/// cascade as one growing group (`docs/continuous.md`, "Impacts of one instant"). Checked against
/// what holds for any resolution: momentum is kept to round-off, nothing is held, no box ends a
/// step more than half inside another (their deep points never reached), and the wall moves off
/// ahead of the block. And the cascades cost fewer impacts: 2,414 over the run, where settling
/// each impact on its own (until 2026-11-30) took 6,232.
#[test]
fn a_heavy_block_driven_into_a_packed_wall_settles_its_cascades() {
    let mut world = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    let ram = world
        .add_body(BodyDef {
            kind: BodyKind::Dynamic,
            shape: Shape::rectangle(1.0, 1.0).unwrap(),
            density: 8.0 * 40.0,
            transform: Transform::new(Vec2::new(-3.0, 0.0), 0.0),
            linear_velocity: Vec2::new(40.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let (d, n) = (0.4, 30);
    let mut wall = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let at = Vec2::new(i as f64 * d, (j as f64 - (n - 1) as f64 / 2.0) * d);
            wall.push(
                world
                    .add_body(BodyDef {
                        kind: BodyKind::Dynamic,
                        shape: Shape::rectangle(0.5 * d, 0.5 * d).unwrap(),
                        transform: Transform::new(at, 0.0),
                        ..Default::default()
                    })
                    .unwrap(),
            );
        }
    }
    let p0 = world.linear_momentum();
    let mut impacts = 0;
    for step in 0..60 {
        world.step();
        let events = world.events();
        assert!(
            events.held.is_empty(),
            "step {step}: held {:?}",
            events.held
        );
        impacts += events.impacts.len();
        let boxes: Vec<_> = wall
            .iter()
            .map(|&id| world.body(id).unwrap().transform())
            .collect();
        let shape = Shape::rectangle(0.5 * d, 0.5 * d).unwrap();
        for (a, xa) in boxes.iter().enumerate() {
            for xb in &boxes[a + 1..] {
                if (xa.translation - xb.translation).length() > 2.0 * d {
                    continue;
                }
                let depth =
                    sweep2d::query::contact(&shape, xa, &shape, xb).map_or(0.0, |c| c.depth);
                assert!(
                    depth < 0.5 * d,
                    "step {step}: two boxes {depth} m into each other"
                );
            }
        }
    }
    let p1 = world.linear_momentum();
    assert!((p1 - p0).length() <= 1e-9 * p0.length(), "{p0:?} -> {p1:?}");
    let ram_x = world.body(ram).unwrap().transform().translation.x;
    let mean_x = wall
        .iter()
        .map(|&id| world.body(id).unwrap().transform().translation.x)
        .sum::<f64>()
        / wall.len() as f64;
    assert!(
        mean_x > 0.5 * (n - 1) as f64 * d + 1.0,
        "the wall moved off: {mean_x} m"
    );
    assert!(ram_x > 0.0, "the block went on: {ram_x} m");
    assert!(impacts < 4_000, "{impacts} impacts");
}
