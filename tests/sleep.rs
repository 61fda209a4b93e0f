//! Islands and sleeping: resting islands fall asleep after `time_to_sleep`, hold still, and wake
//! with everything they touch on a call, a joint change or an impact (a bullet never passes a
//! sleeping body). The property test's case count follows `PROPTEST_CASES` (see
//! `tests/common/mod.rs`).

mod common;

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

/// What a script does to the world between two steps.
#[derive(Clone, Debug)]
enum Action {
    Impulse(usize, f64),
    Wake(usize),
    PutToSleep(usize),
    Remove(usize),
    Teleport(usize, f64),
    DropBox(f64),
    Bullet(f64, f64),
    Toggle(usize),
    MakeStatic(usize),
    MakeDynamic(usize),
    Join(usize, usize),
}

fn action() -> impl proptest::strategy::Strategy<Value = Action> {
    use proptest::prelude::*;
    prop_oneof![
        (0..64usize, -3.0..3.0f64).prop_map(|(k, j)| Action::Impulse(k, j)),
        (0..64usize).prop_map(Action::Wake),
        (0..64usize).prop_map(Action::PutToSleep),
        (0..64usize).prop_map(Action::Remove),
        (0..64usize, -12.0..12.0f64).prop_map(|(k, x)| Action::Teleport(k, x)),
        (-12.0..12.0f64).prop_map(Action::DropBox),
        (0.3..4.0f64, 20.0..400.0f64).prop_map(|(y, s)| Action::Bullet(y, s)),
        (0..64usize).prop_map(Action::Toggle),
        (0..64usize).prop_map(Action::MakeStatic),
        (0..64usize).prop_map(Action::MakeDynamic),
        (0..64usize, 0..64usize).prop_map(|(a, b)| Action::Join(a, b)),
    ]
}

/// Applies `action` to the world's `k`-th body but the ground (in storage order, modulo their
/// number); calls the world refuses (a disabled body pushed, a kind it already has) change
/// nothing and are skipped.
fn apply(w: &mut World, action: &Action) {
    let ids: Vec<BodyId> = w.bodies().map(|(id, _)| id).skip(1).collect();
    let pick = |k: usize| ids[k % ids.len()];
    let _ = match *action {
        Action::Impulse(k, j) => {
            let id = pick(k);
            let c = w.body(id).unwrap().center_of_mass();
            w.apply_impulse(id, v(j, 2.0 * j.abs()), c).map(drop)
        }
        Action::Wake(k) => w.wake(pick(k)),
        Action::PutToSleep(k) => w.put_to_sleep(pick(k)),
        Action::Remove(k) => {
            let id = pick(k);
            if ids.len() > 1 && w.body(id).unwrap().kind() == BodyKind::Dynamic {
                w.remove_body(id).map(drop)
            } else {
                Ok(())
            }
        }
        Action::Teleport(k, x) => w.set_transform(pick(k), Transform::new(v(x, 3.0), 0.2)),
        Action::DropBox(x) => w
            .add_body(BodyDef {
                transform: Transform::new(v(x, 6.0), 0.3),
                ..BodyDef::default()
            })
            .map(drop)
            .map_err(|_| unreachable!()),
        Action::Bullet(y, speed) => w
            .add_body(BodyDef {
                shape: Shape::circle(0.05).unwrap(),
                transform: Transform::new(v(-14.0, y), 0.0),
                linear_velocity: v(speed, 0.0),
                gravity_scale: 0.0,
                density: 5.0,
                ..BodyDef::default()
            })
            .map(drop)
            .map_err(|_| unreachable!()),
        Action::Toggle(k) => {
            let id = pick(k);
            let on = w.body(id).unwrap().is_enabled();
            w.set_enabled(id, !on)
        }
        Action::MakeStatic(k) => w.set_body_kind(pick(k), BodyKind::Static),
        Action::MakeDynamic(k) => w.set_body_kind(pick(k), BodyKind::Dynamic),
        Action::Join(a, b) => {
            let (a, b) = (pick(a), pick(b));
            let (pa, pb) = (
                w.body(a).unwrap().transform().translation,
                w.body(b).unwrap().transform().translation,
            );
            w.add_joint(sweep2d::DistanceJointDef::new(a, b, pa, pb))
                .map(drop)
                .map_err(|_| sweep2d::BodyError::UnknownBody(a))
        }
    };
}

/// The islands the public view shows: dynamic bodies linked by touching contacts and joints, by
/// union–find over `World::contacts` and `World::joints` (a touching pair the view leaves out
/// only splits an island, so a check over these islands is no weaker).
fn islands(w: &World) -> Vec<Vec<BodyId>> {
    let ids: Vec<BodyId> = w
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic && b.is_enabled())
        .map(|(id, _)| id)
        .collect();
    let index = |id: BodyId| ids.iter().position(|&i| i == id);
    let mut parent: Vec<usize> = (0..ids.len()).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            i = p[i];
        }
        i
    }
    let links =
        w.contacts()
            .map(|c| (c.body_a, c.body_b))
            .chain(w.joint_ids().into_iter().filter_map(|j| {
                let (a, b) = w.joint_bodies(j)?;
                a.map(|a| (a, b))
            }));
    for (a, b) in links.collect::<Vec<_>>() {
        if let (Some(i), Some(j)) = (index(a), index(b)) {
            let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
            parent[ri.max(rj)] = ri.min(rj);
        }
    }
    let mut out: Vec<Vec<BodyId>> = vec![Vec::new(); ids.len()];
    for (i, &id) in ids.iter().enumerate() {
        let r = find(&mut parent, i);
        out[r].push(id);
    }
    out.retain(|g| !g.is_empty());
    out
}

proptest::proptest! {
    #![proptest_config(common::simulation_config(48))]

    /// Whatever a game does between steps (impulses, wakes, sleeps, removals, teleports, new
    /// bodies, bullets, disabling, kind changes, joints), after every step each island is
    /// wholly awake or wholly asleep, sleeping bodies stand still (bit for bit) with no
    /// velocity, and nothing passes the ground. The islands are found from the public view,
    /// independently of the engine's own bookkeeping (moving set, parked contacts, islands met
    /// through them).
    #[test]
    fn islands_sleep_and_wake_whole_whatever_the_game_does(
        towers in proptest::collection::vec((-10.0..10.0f64, 1usize..7), 1..6),
        script in proptest::collection::vec((0usize..400, action()), 0..30),
        sleep_off_at in proptest::option::of(0usize..400),
    ) {
        let mut w = World::new(WorldConfig::default());
        ground(&mut w);
        for &(x, height) in &towers {
            for i in 0..height {
                w.add_body(BodyDef {
                    transform: Transform::new(v(x, 0.5 + 1.02 * i as f64), 0.0),
                    ..BodyDef::default()
                })
                .unwrap();
            }
        }
        let mut script = script;
        script.sort_by_key(|(step, _)| *step);
        let mut next = 0;
        let mut asleep_before: Vec<(BodyId, Transform)> = Vec::new();
        let mut slept = 0;
        for step in 0..400 {
            while next < script.len() && script[next].0 == step {
                apply(&mut w, &script[next].1);
                next += 1;
            }
            if sleep_off_at == Some(step) {
                let mut config = *w.config();
                config.sleep = false;
                w.set_config(config).unwrap();
            }
            // Bodies asleep before the step that nothing woke stand still through it.
            let before: Vec<(BodyId, Transform)> = w
                .bodies()
                .filter(|(_, b)| b.kind() == BodyKind::Dynamic && !b.is_awake() && b.is_enabled())
                .map(|(id, b)| (id, b.transform()))
                .collect();
            asleep_before.clone_from(&before);
            w.step();
            for (id, xf) in &asleep_before {
                if let Some(b) = w.body(*id) {
                    if !b.is_awake() && b.kind() == BodyKind::Dynamic {
                        proptest::prop_assert_eq!(b.transform(), *xf, "{:?} slept but moved", id);
                    }
                }
            }
            for island in islands(&w) {
                let awake = island.iter().filter(|&&id| w.body(id).unwrap().is_awake()).count();
                proptest::prop_assert!(
                    awake == 0 || awake == island.len(),
                    "step {}: island of {} with {} awake", step, island.len(), awake
                );
            }
            for (id, b) in w.bodies() {
                if b.kind() == BodyKind::Dynamic && !b.is_awake() && b.is_enabled() {
                    slept += 1;
                    proptest::prop_assert!(
                        b.linear_velocity() == Vec2::ZERO && b.angular_velocity() == 0.0,
                        "{:?} sleeps with a velocity", id
                    );
                }
                if b.kind() == BodyKind::Dynamic && b.is_enabled() {
                    let y = b.transform().translation.y;
                    proptest::prop_assert!(y > -0.1, "{:?} passed the ground: y = {}", id, y);
                }
            }
        }
        // The scene is one that sleeps: without a late `sleep: false`, something slept.
        if sleep_off_at.is_none_or(|s| s > 200) {
            proptest::prop_assert!(slept > 0, "nothing ever slept");
        }
    }
}

/// A world with a box sliding on the ground, and with `chain` a pendulum of two boxes jointed to
/// the ground and to each other, far from it, resting on a ledge until it sleeps.
fn slider_beside(chain: bool) -> (World, BodyId) {
    let mut w = World::new(WorldConfig::default());
    let g = ground(&mut w);
    let slider = w
        .add_body(BodyDef {
            transform: Transform::new(v(-40.0, 0.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    if chain {
        // Two boxes lying on the ground, joined to it and to each other slightly off their
        // rest positions, so the joints keep a small error while the pair sleeps.
        let a = w
            .add_body(BodyDef {
                transform: Transform::new(v(40.0, 0.5), 0.0),
                ..BodyDef::default()
            })
            .unwrap();
        let b = w
            .add_body(BodyDef {
                transform: Transform::new(v(41.2, 0.5), 0.0),
                ..BodyDef::default()
            })
            .unwrap();
        w.add_joint(sweep2d::RevoluteJointDef::new(g, a, v(39.6, 0.45)))
            .unwrap();
        w.add_joint(sweep2d::DistanceJointDef::new(
            a,
            b,
            v(40.3, 0.5),
            v(40.9, 0.5),
        ))
        .unwrap();
    }
    for _ in 0..240 {
        w.step();
    }
    (w, slider)
}

#[test]
fn a_sleeping_jointed_pair_leaves_the_static_world_alone() {
    // The solver's shared static entry (every static and sleeping body's) must never take a
    // joint's impulse: joints read their bodies' inverse masses by solver entry, and the shared
    // entry has none. Were a sleeping jointed pair's joints (which hold a small error) to push on
    // it, the ground would move under every body on it for the steps the pair sleeps.
    let (mut alone, slider) = slider_beside(false);
    let (mut beside, slider_b) = slider_beside(true);
    let asleep = beside
        .bodies()
        .filter(|(id, b)| *id != slider_b && b.kind() == BodyKind::Dynamic)
        .all(|(_, b)| !b.is_awake());
    assert!(asleep, "the jointed pair sleeps");
    alone.set_velocity(slider, v(3.0, 0.0), 0.0).unwrap();
    beside.set_velocity(slider_b, v(3.0, 0.0), 0.0).unwrap();
    for step in 0..120 {
        alone.step();
        beside.step();
        let (p, q) = (
            alone.body(slider).unwrap().transform(),
            beside.body(slider_b).unwrap().transform(),
        );
        assert_eq!(p, q, "step {step}: the slider moves as it does alone");
    }
}
