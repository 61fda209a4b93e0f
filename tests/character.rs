//! The character mover against hand-computed cases: thin walls at any speed, sliding, slopes
//! just under and over the climb limit, steps just under and over the step height, snapping down
//! stairs, corners, ceilings, one-way platforms, moving and turning platforms, pushing, a crowd,
//! and refused input. The property tests are in `character_properties.rs`.

use sweep2d::{
    BodyDef, BodyId, BodyKind, CharacterMover, MoveResult, MoverError, QueryFilter, Shape, Surface,
    Transform, Vec2, World, WorldConfig,
};

const DT: f64 = 1.0 / 60.0;
const GRAVITY: f64 = -9.81;

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn world() -> World {
    World::new(WorldConfig::default())
}

fn fixed(w: &mut World, shape: Shape, x: Transform) -> BodyId {
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape,
        transform: x,
        ..BodyDef::default()
    })
    .unwrap()
}

/// A static box from `min` to `max` (world metres).
fn block(w: &mut World, min: Vec2, max: Vec2) -> BodyId {
    let c = 0.5 * (min + max);
    let h = 0.5 * (max - min);
    fixed(
        w,
        Shape::rectangle(h.x, h.y).unwrap(),
        Transform::new(c, 0.0),
    )
}

/// A capsule character 1.6 m tall and 0.6 m wide, its frame at its centre.
fn capsule_mover() -> CharacterMover {
    CharacterMover::new(Shape::capsule(v(0.0, -0.5), v(0.0, 0.5), 0.3).unwrap())
}

/// A box character 0.6 m wide and 1.6 m tall.
fn box_mover() -> CharacterMover {
    CharacterMover::new(Shape::rectangle(0.3, 0.8).unwrap())
}

fn at(x: f64, y: f64) -> Transform {
    Transform::new(v(x, y), 0.0)
}

/// A simple platformer controller: walks at `speed` (m/s, along x), falls under gravity when
/// not grounded, for `frames` frames; returns every frame's result.
fn walk(
    w: &World,
    mover: &CharacterMover,
    start: Transform,
    speed: f64,
    frames: usize,
) -> Vec<MoveResult> {
    let mut pose = start;
    let mut fall = 0.0;
    let mut out = Vec::new();
    for _ in 0..frames {
        fall += GRAVITY * DT;
        let r = mover.move_and_slide(w, pose, v(speed * DT, fall * DT), &QueryFilter::default());
        assert!(r.error.is_none(), "{:?}", r.error);
        if r.grounded {
            fall = 0.0;
        }
        pose = r.transform;
        out.push(r);
    }
    out
}

#[test]
fn a_mover_at_200_m_s_stops_at_a_1_cm_wall_and_at_1_m_s_slides_along_it() {
    let mut w = world();
    block(&mut w, v(5.0, -5.0), v(5.01, 5.0));
    let mover = capsule_mover();
    // 200 m/s over a tenth of a second: 20 m, through where the wall is.
    let r = mover.move_and_slide(&w, at(0.0, 0.0), v(20.0, 0.0), &QueryFilter::default());
    let stop = 5.0 - 0.3 - mover.skin;
    assert!((r.transform.translation.x - stop).abs() < 1e-9, "{r:?}");
    assert_eq!(r.transform.translation.y, 0.0);
    assert!(r.hit_wall && !r.grounded);
    assert_eq!(r.collisions.len(), 1);
    assert_eq!(r.collisions[0].surface, Surface::Wall);
    assert!((r.collisions[0].normal - v(-1.0, 0.0)).length() < 1e-12);
    assert!((r.collisions[0].fraction - stop / 20.0).abs() < 1e-9);

    // 1 m/s diagonally into it from 4 cm away: 4 cm along x and y, then the rest slides up.
    let start = at(stop - 0.04, 0.0);
    let d = v(1.0, 1.0) * 0.1;
    let r = mover.move_and_slide(&w, start, d, &QueryFilter::default());
    assert!((r.transform.translation.x - stop).abs() < 1e-9, "{r:?}");
    assert!((r.transform.translation.y - 0.1).abs() < 1e-9, "{r:?}");
}

#[test]
fn it_never_tunnels_at_any_speed_from_any_distance() {
    let mut w = world();
    block(&mut w, v(5.0, -5.0), v(5.01, 5.0));
    for mover in [capsule_mover(), box_mover()] {
        let half = mover.shape.aabb(&Transform::IDENTITY).max.x;
        for i in 0..200 {
            let speed = 0.1 * 1.05_f64.powi(i); // 0.1 to ~1,700 m/s
            let start = at(5.0 - half - 0.001 - 0.37 * f64::from(i % 7), 0.3);
            let r = mover.move_and_slide(&w, start, v(speed * DT, 0.0), &QueryFilter::default());
            // It moves freely until it is `skin` from the wall, and never toward it from closer.
            let free = start.translation.x + speed * DT;
            let stop = (5.0 - half - mover.skin).max(start.translation.x);
            let x = r.transform.translation.x;
            assert!(
                (x - free.min(stop)).abs() < 1e-9,
                "speed {speed}: at {x}, expected {}",
                free.min(stop)
            );
            assert!(
                r.transform.translation.x + half < 5.0,
                "speed {speed}: through the wall"
            );
        }
    }
}

#[test]
fn slopes_just_under_the_limit_are_climbed_and_just_over_are_not() {
    for (degrees, climbs) in [(43.0_f64, true), (47.0, false)] {
        let mut w = world();
        block(&mut w, v(-10.0, -1.0), v(30.0, 0.0));
        // A ramp rising from x = 2 at `degrees`, 3 m high.
        let run = 3.0 / degrees.to_radians().tan();
        fixed(
            &mut w,
            Shape::polygon(&[v(2.0, 0.0), v(2.0 + run, 0.0), v(2.0 + run, 3.0)]).unwrap(),
            Transform::IDENTITY,
        );
        block(&mut w, v(2.0 + run, 0.0), v(30.0, 3.0)); // the plateau it leads to
        let mut mover = box_mover();
        mover.step_height = 0.0;
        let start = at(0.0, 0.8 + mover.skin);
        let frames = walk(&w, &mover, start, 3.0, 240);
        let end = frames.last().unwrap().transform.translation;
        if climbs {
            assert!(end.y > 0.8 + 2.9, "{degrees}°: ended at {end}");
            assert!(
                frames.iter().skip(1).all(|r| r.grounded),
                "{degrees}°: left the ground"
            );
        } else {
            assert!(end.y < 0.8 + 0.05, "{degrees}°: climbed to {end}");
            assert!(end.x < 2.0, "{degrees}°: {end}");
        }
    }
}

#[test]
fn steps_just_under_the_step_height_are_climbed_and_just_over_are_not() {
    for capsule in [false, true] {
        for (height, climbs) in [(0.24, true), (0.26, false)] {
            let mut w = world();
            block(&mut w, v(-10.0, -1.0), v(30.0, 0.0));
            block(&mut w, v(2.0, 0.0), v(30.0, height));
            let mover = if capsule {
                capsule_mover()
            } else {
                box_mover()
            };
            assert_eq!(mover.step_height, 0.25);
            let skin = mover.skin;
            let start = at(0.0, 0.8 + skin);
            let frames = walk(&w, &mover, start, 2.0, 120);
            let end = frames.last().unwrap();
            let p = end.transform.translation;
            let case = format!("capsule {capsule}, step {height}: {p}");
            if climbs {
                assert!((p.y - (height + 0.8 + skin)).abs() < 1e-6, "{case}");
                assert!((p.x - 4.0).abs() < 1e-6, "{case}");
                assert!(end.grounded, "{case}");
                assert!(frames.iter().all(|r| r.grounded), "{case}: left the ground");
            } else {
                // Stopped `skin` from the step's face (box) or its corner (the capsule's lower
                // cap, centred 0.3 + skin above the floor).
                let stop = if capsule {
                    let dy = 0.3 + skin - height;
                    2.0 - ((0.3 + skin).powi(2) - dy * dy).sqrt()
                } else {
                    2.0 - 0.3 - skin
                };
                assert!((p.x - stop).abs() < 1e-6, "{case}, expected x = {stop}");
                assert!((p.y - (0.8 + skin)).abs() < 1e-6, "{case}");
            }
        }
    }
}

#[test]
fn snapping_keeps_it_on_stairs_going_down() {
    let mut w = world();
    // Ten stairs, each 0.2 m down and 0.6 m deep, from x = 0.
    for i in 0..10 {
        let x = 0.6 * f64::from(i);
        let top = -0.2 * f64::from(i);
        block(&mut w, v(x, top - 5.0), v(x + 0.6, top));
    }
    block(&mut w, v(-5.0, -5.0), v(0.0, 0.0));
    let walked = |snap: f64| {
        let mut mover = box_mover();
        mover.snap_distance = snap;
        walk(&w, &mover, at(-1.0, 0.8 + mover.skin), 2.0, 150)
    };
    let snapped = walked(0.25);
    assert!(snapped.iter().all(|r| r.grounded), "lost the ground");
    let end = snapped.last().unwrap().transform.translation;
    // Five metres in 2.5 s: on the seventh stair (x from 3.6 to 4.2, top at -1.2).
    assert!((end - v(4.0, -1.2 + 0.8 + 0.01)).length() < 1e-6, "{end}");
    // Without snapping, walking off each stair leaves the ground for some frames.
    let falling = walked(0.0);
    assert!(falling.iter().filter(|r| !r.grounded).count() >= 9);
}

#[test]
fn walking_into_a_corner_stops_without_jitter() {
    let mut w = world();
    block(&mut w, v(-10.0, -1.0), v(10.0, 0.0));
    block(&mut w, v(3.0, 0.0), v(4.0, 5.0));
    for mover in [capsule_mover(), box_mover()] {
        let h = mover.shape.aabb(&Transform::IDENTITY).max;
        let frames = walk(&w, &mover, at(0.0, h.y + mover.skin), 4.0, 120);
        let rest = v(3.0 - h.x - mover.skin, h.y + mover.skin);
        for r in &frames[60..] {
            assert!((r.transform.translation - rest).length() < 1e-9, "{r:?}");
            assert!(r.grounded && r.hit_wall);
        }
        let first = frames[60].transform;
        assert!(frames[60..].iter().all(|r| r.transform == first), "jitter");
    }
}

#[test]
fn a_jump_stops_under_a_ceiling() {
    let mut w = world();
    block(&mut w, v(-10.0, 2.0), v(10.0, 3.0));
    let mover = capsule_mover();
    let r = mover.move_and_slide(&w, at(0.0, 0.0), v(0.5, 3.0), &QueryFilter::default());
    assert!(r.hit_ceiling && !r.grounded);
    let top = 2.0 - 0.8 - mover.skin;
    assert!((r.transform.translation.y - top).abs() < 1e-9, "{r:?}");
    // It keeps the level part of the move: the ceiling is met after 1.19/3 of it.
    assert!((r.transform.translation.x - 0.5).abs() < 1e-9, "{r:?}");
}

#[test]
fn a_one_way_platform_lets_it_jump_through_and_land_on_top() {
    let mut w = world();
    block(&mut w, v(-10.0, -1.0), v(10.0, 0.0));
    let platform = block(&mut w, v(-2.0, 2.0), v(2.0, 2.2));
    let mover = box_mover();
    let mut one_way = |c: &sweep2d::MoveCollision| {
        c.body != platform || (c.surface == Surface::Ground && !c.started_inside)
    };
    let filter = QueryFilter::default();
    let mut pose = at(0.0, 0.8 + mover.skin);
    let mut vy = 9.0; // rises 4.1 m: through the platform and above it
    let mut landed_on_platform = false;
    let mut peak: f64 = 0.0;
    for _ in 0..180 {
        vy += GRAVITY * DT;
        let r = mover.move_and_slide_with(&w, pose, v(0.0, vy * DT), &filter, &mut one_way);
        pose = r.transform;
        peak = peak.max(pose.translation.y);
        if r.grounded {
            vy = 0.0;
            landed_on_platform = r.ground.unwrap().body == platform;
        }
    }
    assert!(peak > 2.2 + 0.8, "never got above the platform: {peak}");
    assert!(landed_on_platform);
    assert!(
        (pose.translation.y - (2.2 + 0.8 + mover.skin)).abs() < 1e-9,
        "{pose:?}"
    );
    // Without the hook the platform is solid: the jump stops under it.
    let r = mover.move_and_slide(&w, at(0.0, 0.8 + mover.skin), v(0.0, 2.0), &filter);
    assert!(r.hit_ceiling);
    assert!((r.transform.translation.y - (2.0 - 0.8 - mover.skin)).abs() < 1e-9);
}

/// A kinematic platform, 4 m × 0.2 m, its top at y = 0.1 + `y`.
fn platform(w: &mut World, centre: Vec2, velocity: Vec2, spin: f64) -> BodyId {
    w.add_body(BodyDef {
        kind: BodyKind::Kinematic,
        shape: Shape::rectangle(2.0, 0.1).unwrap(),
        transform: Transform::new(centre, 0.0),
        linear_velocity: velocity,
        angular_velocity: spin,
        ..BodyDef::default()
    })
    .unwrap()
}

/// Stands a character at `x` on the deck (top at y = 0.1) and rides it for 60 steps, moving
/// under gravity after each; returns its pose and ground at the end.
fn ride_for_a_second(
    w: &mut World,
    mover: &CharacterMover,
    x: f64,
) -> (Transform, sweep2d::GroundContact) {
    let filter = QueryFilter::default();
    let mut pose = at(x, 0.1 + 0.8 + mover.skin);
    let mut ground = mover
        .move_and_slide(w, pose, v(0.0, -0.01), &filter)
        .ground
        .expect("stands on the platform");
    for _ in 0..60 {
        w.step();
        pose = mover.ride(w, pose, &ground, &filter).transform;
        let r = mover.move_and_slide(w, pose, v(0.0, GRAVITY * DT * DT), &filter);
        pose = r.transform;
        ground = r.ground.expect("still on the platform");
    }
    (pose, ground)
}

#[test]
fn a_moving_platform_carries_it() {
    let mut w = world();
    let deck = platform(&mut w, v(0.0, 0.0), v(2.0, 0.5), 0.0);
    let mover = box_mover();
    let (pose, ground) = ride_for_a_second(&mut w, &mover, 0.5);
    assert_eq!(ground.body, deck);
    // One second at (2, 0.5) m/s: it stands where it stood on the deck.
    let expected = v(0.5 + 2.0, 0.1 + 0.8 + mover.skin + 0.5);
    assert!((pose.translation - expected).length() < 1e-6, "{pose:?}");
}

#[test]
fn a_turning_platform_carries_it_round_with_its_point() {
    let mut w = world();
    // Turning at 0.3 rad/s about its centre for one second: tilts 0.3 rad (17°), under the
    // slide limit, so the character stays where it stands on the deck.
    let deck = platform(&mut w, v(0.0, 0.0), Vec2::ZERO, 0.3);
    let mover = box_mover();
    // Where it first stands, in the deck's frame: the point under it, 1 m from the centre.
    let start_local = v(1.0, 0.1);
    let (pose, ground) = ride_for_a_second(&mut w, &mover, 1.0);
    let deck_pose = w.body(deck).unwrap().transform();
    assert!((deck_pose.angle() - 0.3).abs() < 1e-9);
    // The character stays where it stood on the deck: tilted up to the right, the deck now
    // touches the upright box at its lower right corner, half the box's width (0.3 m) from where
    // the middle of its base stood, to within 1 cm.
    let local = deck_pose.inv_transform_point(ground.point);
    assert!(
        (local.x - (start_local.x + 0.3)).abs() < 0.01,
        "{local} vs {start_local}"
    );
    assert!(pose.translation.y > 0.8 + 0.1, "{pose:?}");
    assert_eq!(pose.angle(), 0.0);
}

#[test]
fn pushing_a_crate_gives_it_the_inelastic_share() {
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    // A 20 kg crate (1 m × 1 m at 20 kg/m²) in front of an 80 kg character walking at 2 m/s.
    let crate_body = w
        .add_body(BodyDef {
            shape: Shape::rectangle(0.5, 0.5).unwrap(),
            density: 20.0,
            transform: at(2.0, 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let mover = box_mover();
    let r = mover.move_and_slide(
        &w,
        at(0.0, 0.0),
        v(2.0 * DT * 100.0, 0.0),
        &QueryFilter::default(),
    );
    assert_eq!(r.collisions.len(), 1);
    assert_eq!(mover.push_bodies(&mut w, &r, v(2.0, 0.0)).unwrap(), 1);
    let b = w.body(crate_body).unwrap();
    // u / (1/M + 1/m) / m = 2 · (1/20) / (1/80 + 1/20) = 1.6 m/s, no spin (pushed through its
    // centre's line).
    assert!(
        (b.linear_velocity() - v(1.6, 0.0)).length() < 1e-12,
        "{}",
        b.linear_velocity()
    );
    assert!(b.angular_velocity().abs() < 1e-12);
    // A static wall is never pushed.
    let mut w2 = world();
    block(&mut w2, v(1.0, -1.0), v(2.0, 1.0));
    let r = mover.move_and_slide(&w2, at(0.0, 0.0), v(3.0, 0.0), &QueryFilter::default());
    assert_eq!(mover.push_bodies(&mut w2, &r, v(3.0, 0.0)).unwrap(), 0);
}

#[test]
fn a_crowd_of_100_movers_never_overlaps_in_a_level() {
    let mut w = world();
    // A walled yard with pillars.
    block(&mut w, v(-20.0, -1.0), v(20.0, 0.0));
    block(&mut w, v(-21.0, 0.0), v(-20.0, 10.0));
    block(&mut w, v(20.0, 0.0), v(21.0, 10.0));
    for i in 0..6 {
        let x = -15.0 + 6.0 * f64::from(i);
        block(&mut w, v(x, 0.0), v(x + 0.5, 0.3 + 0.2 * f64::from(i)));
    }
    let mover = CharacterMover::new(Shape::capsule(v(0.0, -0.2), v(0.0, 0.2), 0.15).unwrap());
    let mut bodies = Vec::new();
    for i in 0..100 {
        let x = -19.0 + 0.38 * f64::from(i);
        let y = if i % 2 == 0 { 0.36 } else { 1.6 };
        bodies.push(
            w.add_body(BodyDef {
                kind: BodyKind::Kinematic,
                shape: mover.shape.clone(),
                transform: at(x, y),
                ..BodyDef::default()
            })
            .unwrap(),
        );
    }
    let mut fall = vec![0.0; 100];
    for frame in 0..180 {
        for (i, &id) in bodies.iter().enumerate() {
            let pose = w.body(id).unwrap().transform();
            let filter = QueryFilter {
                exclude: Some(id),
                ..QueryFilter::default()
            };
            let dir = if (i + frame / 60) % 2 == 0 { 1.0 } else { -1.0 };
            fall[i] += GRAVITY * DT;
            let r = mover.move_and_slide(&w, pose, v(dir * 3.0 * DT, fall[i] * DT), &filter);
            if r.grounded {
                fall[i] = 0.0;
            }
            w.set_transform(id, r.transform).unwrap();
        }
    }
    for &id in &bodies {
        let pose = w.body(id).unwrap().transform();
        let filter = QueryFilter {
            exclude: Some(id),
            ..QueryFilter::default()
        };
        let touching = w.overlap_shape(&mover.shape, &pose, &filter);
        assert!(
            touching.is_empty(),
            "{id:?} at {pose:?} overlaps {touching:?}"
        );
        assert!(pose.translation.x.abs() < 20.0 && pose.translation.y > 0.0);
    }
}

#[test]
fn bad_input_is_refused_and_leaves_the_character_where_it_was() {
    let w = world();
    let filter = QueryFilter::default();
    let start = at(1.0, 2.0);
    let check = |mover: &CharacterMover, x: Transform, d: Vec2, says: &str| {
        let r = mover.move_and_slide(&w, x, d, &filter);
        let e = r.error.expect("refused");
        assert_eq!(r.transform, x);
        assert!(r.collisions.is_empty() && r.translation == Vec2::ZERO);
        let text = e.to_string();
        assert!(text.contains(says), "{text}");
        e
    };
    let ok = capsule_mover();
    check(&ok, start, v(f64::NAN, 0.0), "desired");
    check(&ok, start, v(2e5, 0.0), "desired");
    check(
        &ok,
        Transform::new(v(f64::INFINITY, 0.0), 0.0),
        Vec2::ZERO,
        "transform.translation",
    );
    let mut bad_rotation = start;
    bad_rotation.rotation.cos = 2.0;
    check(&ok, bad_rotation, Vec2::ZERO, "unit rotation");
    type Spoil = fn(&mut CharacterMover);
    let settings: [(&str, Spoil); 7] = [
        ("skin", |m| m.skin = 0.0),
        ("max_slope", |m| m.max_slope = 2.0),
        ("min_slide_slope", |m| m.min_slide_slope = f64::NAN),
        ("step_height", |m| m.step_height = -0.1),
        ("snap_distance", |m| m.snap_distance = f64::INFINITY),
        ("max_iterations", |m| m.max_iterations = 0),
        ("up", |m| m.up = v(0.0, 2.0)),
    ];
    for (field, spoil) in settings {
        let mut m = capsule_mover();
        spoil(&mut m);
        check(&m, start, v(1.0, 0.0), field);
        assert!(m.validate().is_err());
    }
    let chain =
        CharacterMover::new(Shape::chain(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 1.0)], false).unwrap());
    let e = check(&chain, start, v(1.0, 0.0), "capsule");
    assert!(matches!(e, MoverError::Shape { .. }));
    let segment = CharacterMover::new(Shape::segment(v(0.0, 0.0), v(1.0, 0.0)).unwrap());
    check(&segment, start, v(1.0, 0.0), "segment");
    let mut w2 = world();
    let mut crate_world = world();
    let r = ok.move_and_slide(&w2, start, v(1.0, 0.0), &filter);
    let err = ok
        .push_bodies(&mut crate_world, &r, v(f64::NAN, 0.0))
        .unwrap_err();
    assert!(err.to_string().contains("velocity"), "{err}");
    // Riding a body that is gone is refused too.
    let gone = block(&mut w2, v(0.0, -1.0), v(1.0, 0.0));
    let ground = ok
        .move_and_slide(&w2, at(0.5, 0.81), v(0.0, -0.1), &filter)
        .ground
        .unwrap();
    w2.remove_body(gone).unwrap();
    let r = ok.ride(&w2, at(0.5, 0.81), &ground, &filter);
    assert!(matches!(r.error, Some(MoverError::UnknownBody { .. })));
}
