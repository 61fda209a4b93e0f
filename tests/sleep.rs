//! Islands and sleeping: resting islands fall asleep after `time_to_sleep`, hold still, and wake
//! with everything they touch on a call, a joint change or an impact (a bullet never passes a
//! sleeping body).

use sweep2d::analysis::scenes;
use sweep2d::{BodyDef, BodyId, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn ground(w: &mut World) -> BodyId {
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(160.0, 0.5).unwrap(),
        transform: Transform::new(v(0.0, -0.5), 0.0),
        ..BodyDef::default()
    })
    .unwrap()
}

#[test]
fn a_resting_box_falls_asleep_after_the_sleep_time_and_holds_still() {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let b = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 1.0), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let mut asleep_at = None;
    let mut rest_started = None;
    for step in 0..180 {
        w.step();
        let body = w.body(b).unwrap();
        if rest_started.is_none() && body.linear_velocity().length() < 0.05 && step > 5 {
            rest_started = Some(step);
        }
        if asleep_at.is_none() && !body.is_awake() {
            asleep_at = Some(step);
            assert_eq!(
                w.events().fell_asleep,
                vec![b],
                "reported in the step it slept"
            );
        }
    }
    let (rest, sleep) = (rest_started.unwrap(), asleep_at.expect("it sleeps"));
    // 0.5 s of rest is 30 steps.
    assert!(
        (29..=32).contains(&(sleep - rest)),
        "rested at {rest}, slept at {sleep}"
    );
    let body = w.body(b).unwrap();
    assert_eq!(body.linear_velocity(), Vec2::ZERO);
    let y = body.transform().translation.y;
    for _ in 0..60 {
        w.step();
    }
    assert_eq!(
        w.body(b).unwrap().transform().translation.y,
        y,
        "held still"
    );
}

#[test]
fn a_sleeping_pyramid_wakes_when_a_bullet_hits_it_and_the_bullet_does_not_pass() {
    let mut w = scenes::pyramid(8).world;
    for _ in 0..300 {
        w.step();
    }
    let boxes: Vec<BodyId> = w
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(id, _)| id)
        .collect();
    assert!(
        boxes.iter().all(|&b| !w.body(b).unwrap().is_awake()),
        "all asleep"
    );
    let far_side = boxes
        .iter()
        .map(|&b| w.body(b).unwrap().aabb().max.x)
        .fold(f64::MIN, f64::max);
    let bullet = w
        .add_body(BodyDef {
            shape: Shape::circle(0.02).unwrap(),
            transform: Transform::new(v(-20.0, 0.5), 0.0),
            linear_velocity: v(600.0, 0.0),
            density: 8.0,
            gravity_scale: 0.0,
            ..BodyDef::default()
        })
        .unwrap();
    let mut impacts = 0;
    let mut woke: Vec<BodyId> = Vec::new();
    for _ in 0..10 {
        w.step();
        impacts += w.events().impacts.len();
        woke.extend(&w.events().woke);
        let x = w.body(bullet).unwrap().transform().translation.x;
        assert!(x < far_side, "the bullet passed the sleeping pyramid: {x}");
    }
    assert!(impacts > 0);
    let awake: Vec<BodyId> = boxes
        .iter()
        .copied()
        .filter(|&b| w.body(b).unwrap().is_awake())
        .collect();
    assert!(!awake.is_empty(), "the pyramid woke");
    // Every box that woke was reported once, whether the impact woke it or its island did.
    woke.sort();
    let mut unique = woke.clone();
    unique.dedup();
    assert_eq!(woke, unique, "a body is reported once when it wakes");
    for b in &awake {
        assert!(woke.contains(b), "{b:?} woke without a woke event");
    }
}

#[test]
fn calls_wake_a_body_and_its_island_follows() {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let lower = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 0.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let upper = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 1.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let loner = w
        .add_body(BodyDef {
            transform: Transform::new(v(5.0, 0.5), 0.0),
            allow_sleep: false,
            ..BodyDef::default()
        })
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    assert!(!w.body(lower).unwrap().is_awake() && !w.body(upper).unwrap().is_awake());
    assert!(
        w.body(loner).unwrap().is_awake(),
        "allow_sleep false never sleeps"
    );
    // Kick the lower box: it wakes at once, the box on it at the end of the step.
    w.apply_impulse(lower, v(0.5, 0.0), w.body(lower).unwrap().center_of_mass())
        .unwrap();
    assert!(w.body(lower).unwrap().is_awake());
    w.step();
    assert!(w.body(upper).unwrap().is_awake(), "the island woke");
    assert!(w.events().woke.contains(&upper));
    // And sleeps again once it rests.
    for _ in 0..240 {
        w.step();
    }
    assert!(!w.body(upper).unwrap().is_awake());
    w.wake(upper).unwrap();
    assert!(w.body(upper).unwrap().is_awake());
}

#[test]
fn a_moving_kinematic_body_keeps_what_it_carries_awake() {
    let mut w = World::new(WorldConfig::default());
    let platform = w
        .add_body(BodyDef {
            kind: BodyKind::Kinematic,
            shape: Shape::rectangle(3.0, 0.2).unwrap(),
            linear_velocity: v(0.02, 0.0), // slower than the sleep tolerance
            ..BodyDef::default()
        })
        .unwrap();
    let rider = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 0.7), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    for _ in 0..180 {
        w.step();
    }
    assert!(w.body(rider).unwrap().is_awake());
    let dx = w.body(rider).unwrap().transform().translation.x;
    assert!(dx > 0.04, "carried along: {dx}");
    let _ = platform;
}

/// Ten walls of 100 boxes (4 rows of 25, 3 m apart): a resting pile of 1,000 boxes in ten
/// islands.
fn towers() -> (World, Vec<Vec<BodyId>>) {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let towers = (0..10)
        .map(|t| {
            let x0 = -140.0 + 28.0 * t as f64;
            let mut ids = Vec::new();
            for row in 0..4 {
                for col in 0..25 {
                    ids.push(
                        w.add_body(BodyDef {
                            shape: Shape::rectangle(0.5, 0.5).unwrap(),
                            transform: Transform::new(v(x0 + col as f64, 0.5 + row as f64), 0.0),
                            ..BodyDef::default()
                        })
                        .unwrap(),
                    );
                }
            }
            ids
        })
        .collect();
    (w, towers)
}

#[test]
fn a_resting_pile_sleeps_within_two_seconds_and_a_bullet_wakes_only_its_island() {
    let (mut w, towers) = towers();
    let all = |w: &World, ids: &[BodyId], awake: bool| {
        ids.iter().all(|&b| w.body(b).unwrap().is_awake() == awake)
    };
    for _ in 0..120 {
        w.step();
    }
    for t in &towers {
        assert!(all(&w, t, false), "the pile sleeps within 2 s");
    }
    // A 10 g bullet at 1,000 m/s into the fourth tower's third row.
    let target = &towers[3];
    let right_edge = target
        .iter()
        .map(|&b| w.body(b).unwrap().aabb().max.x)
        .fold(f64::MIN, f64::max);
    let left_edge = target
        .iter()
        .map(|&b| w.body(b).unwrap().aabb().min.x)
        .fold(f64::MAX, f64::min);
    let bullet = w
        .add_body(BodyDef {
            shape: Shape::circle(0.02).unwrap(),
            density: 8.0,
            transform: Transform::new(v(left_edge - 1.5, 2.5), 0.0), // in the 3 m gap
            linear_velocity: v(1_000.0, 0.0),
            gravity_scale: 0.0,
            ..BodyDef::default()
        })
        .unwrap();
    for _ in 0..3 {
        w.step();
        let x = w.body(bullet).unwrap().transform().translation.x;
        assert!(
            x < right_edge,
            "the bullet tunnelled through the tower: {x}"
        );
    }
    assert!(
        target.iter().any(|&b| w.body(b).unwrap().is_awake()),
        "hit tower woke"
    );
    for (k, t) in towers.iter().enumerate() {
        if k != 3 {
            assert!(all(&w, t, false), "tower {k} was not touched and sleeps on");
        }
    }
}
