//! Scene files: every shipped scene loads and builds, the demo round-trips, and each kind of bad
//! input gives an error that names the body, the field and the reason (with line and column where
//! the text is at fault), building nothing.
#![cfg(feature = "serde")]

use sweep2d::analysis::scene::{SceneError, SceneFile};
use sweep2d::{Shape, Vec2};

fn error_of(text: &str) -> SceneError {
    match SceneFile::load(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

const GOOD: &str = r#"{
  "gravity": [0, -9.81], "dt": 0.02, "steps": 10,
  "bodies": [
    {"name": "ground", "kind": "static", "position": [0, -0.5],
     "shape": {"type": "rectangle", "half_extents": [10, 0.5]}},
    {"name": "ball", "kind": "dynamic", "position": [0, 3], "velocity": [2, 0],
     "restitution": 0.5, "shape": {"type": "circle", "radius": 0.25}}
  ]
}"#;

#[test]
fn a_scene_builds_with_its_values_and_defaults() {
    let scene = SceneFile::load(GOOD).unwrap();
    assert_eq!(scene.steps, 10);
    assert_eq!(scene.world.config().dt, 0.02);
    assert_eq!(scene.bodies.len(), 2);
    assert_eq!(scene.bodies[1].1, "ball");
    let ball = scene.world.body(scene.bodies[1].0).unwrap();
    assert_eq!(ball.transform().translation, Vec2::new(0.0, 3.0));
    assert_eq!(ball.linear_velocity(), Vec2::new(2.0, 0.0));
    assert_eq!(ball.restitution(), 0.5);
    assert_eq!(ball.friction(), 0.6, "default friction");
    assert_eq!(ball.density(), 1.0, "default density");
    assert_eq!(ball.shape(), &Shape::circle(0.25).unwrap());
}

#[test]
fn every_shipped_scene_loads_and_the_demo_round_trips() {
    let mut count = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let file = SceneFile::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let built = file
                .build()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let character = usize::from(file.character.is_some());
            assert_eq!(built.world.body_count(), file.bodies.len() + character);
            // Writing and reading back gives the same scene.
            assert_eq!(SceneFile::from_json(&file.to_json()).unwrap(), file);
            count += 1;
        }
    }
    assert!(count >= 5, "{count} scenes shipped");
    let demo = sweep2d::analysis::scene::demo();
    assert_eq!(SceneFile::from_json(&demo.to_json()).unwrap(), demo);
    demo.build().unwrap();
}

#[test]
fn every_shape_kind_round_trips() {
    let shapes = [
        Shape::circle(0.5).unwrap(),
        Shape::circle(0.5)
            .unwrap()
            .translated(Vec2::new(1.0, -2.0))
            .unwrap(),
        Shape::rectangle(1.0, 0.25).unwrap(),
        Shape::rounded_polygon(
            &[
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 1.0),
            ],
            0.1,
        )
        .unwrap(),
        Shape::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.5), 0.2).unwrap(),
        Shape::concave(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 0.5),
            Vec2::new(0.5, 0.5),
            Vec2::new(0.5, 2.0),
            Vec2::new(0.0, 2.0),
        ])
        .unwrap(),
        Shape::segment(Vec2::new(-1.0, 0.0), Vec2::new(2.0, 0.5)).unwrap(),
        Shape::chain(
            &[
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.2),
                Vec2::new(2.0, 0.0),
            ],
            false,
        )
        .unwrap(),
        Shape::chain(
            &[
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 1.0),
            ],
            true,
        )
        .unwrap(),
    ];
    for shape in shapes {
        let json = serde_json::to_string(&shape).unwrap();
        let back: Shape = serde_json::from_str(&json).unwrap();
        let again = serde_json::to_string(&back).unwrap();
        assert_eq!(json, again, "stable form");
        assert_eq!(back.kind_name(), shape.kind_name());
        assert!((back.bounding_radius() - shape.bounding_radius()).abs() < 1e-12);
    }
}

#[test]
fn syntax_errors_give_line_and_column() {
    let e = error_of("{\n  \"bodies\": [\n    {\"kind\": \"static\",, }\n  ]\n}");
    match e {
        SceneError::Syntax { line, column, .. } => {
            assert_eq!(line, 3);
            assert!(column > 10, "column {column}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(error_of(""), SceneError::Syntax { .. }));
    assert!(matches!(
        error_of("{\"bodies\": []} trailing"),
        SceneError::Syntax { .. }
    ));
}

#[test]
fn unknown_fields_are_refused_and_named() {
    let e = error_of(&GOOD.replace("\"steps\": 10", "\"stepz\": 10"));
    let msg = e.to_string();
    assert!(matches!(e, SceneError::Field { .. }), "{e:?}");
    assert!(msg.contains("stepz"), "{msg}");

    let e = error_of(&GOOD.replace("\"restitution\": 0.5", "\"bounciness\": 0.5"));
    match &e {
        SceneError::Body {
            index,
            name,
            reason,
            location,
            ..
        } => {
            assert_eq!(*index, 1);
            assert_eq!(name.as_deref(), Some("ball"));
            assert!(reason.contains("bounciness"), "{reason}");
            assert!(location.is_some());
        }
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().starts_with("body 1 (\"ball\")"), "{e}");
}

#[test]
fn missing_fields_and_wrong_types_name_the_body_and_field() {
    let e = error_of(&GOOD.replace("\"kind\": \"dynamic\", ", ""));
    assert!(
        matches!(&e, SceneError::Body { index: 1, reason, .. } if reason.contains("missing field `kind`")),
        "{e:?}"
    );
    let e = error_of(&GOOD.replace("\"velocity\": [2, 0]", "\"velocity\": \"fast\""));
    assert!(
        matches!(&e, SceneError::Body { index: 1, field, .. } if field == "velocity"),
        "{e:?}"
    );
    let e = error_of(&GOOD.replace("\"kind\": \"dynamic\"", "\"kind\": \"floating\""));
    assert!(
        matches!(&e, SceneError::Body { index: 1, field, reason, .. } if field == "kind" && reason.contains("floating")),
        "{e:?}"
    );
    let e = error_of(&GOOD.replace("\"dt\": 0.02", "\"dt\": \"small\""));
    assert!(
        matches!(&e, SceneError::Field { field, .. } if field == "dt"),
        "{e:?}"
    );
    let e = error_of(&GOOD.replace("[0, 3]", "[0, 3, 4]"));
    assert!(
        matches!(&e, SceneError::Body { index: 1, field, location: Some(_), .. } if field == "position"),
        "{e:?}"
    );
    let e = error_of("{\"dt\": 0.01}");
    assert!(e.to_string().contains("bodies"), "{e}");
}

#[test]
fn invalid_shapes_are_refused_with_the_reason() {
    let cases = [
        ("\"radius\": 0.25", "\"radius\": -0.25", "positive"),
        (
            "{\"type\": \"circle\", \"radius\": 0.25}",
            "{\"type\": \"polygon\", \"points\": [[0,0],[2,0],[1,0.2],[2,2],[0,2]]}",
            "convex",
        ),
        (
            "{\"type\": \"circle\", \"radius\": 0.25}",
            "{\"type\": \"hexagon\", \"radius\": 0.25}",
            "hexagon",
        ),
        (
            "{\"type\": \"circle\", \"radius\": 0.25}",
            "{\"type\": \"capsule\", \"a\": [0,0], \"b\": [0,0], \"radius\": 0.1}",
            "zero length",
        ),
    ];
    for (from, to, expect) in cases {
        let e = error_of(&GOOD.replace(from, to));
        match &e {
            SceneError::Body {
                index,
                field,
                reason,
                ..
            } => {
                assert_eq!(*index, 1, "{e}");
                assert!(field.starts_with("shape"), "{e}");
                assert!(reason.contains(expect), "{e}");
            }
            other => panic!("{to}: {other:?}"),
        }
    }
}

#[test]
fn values_the_world_refuses_name_the_field_and_nothing_is_built() {
    let e = error_of(&GOOD.replace("\"restitution\": 0.5", "\"density\": -2"));
    assert!(
        matches!(&e, SceneError::Body { index: 1, field, .. } if field == "density"),
        "{e:?}"
    );
    let e = error_of(&GOOD.replace("\"restitution\": 0.5", "\"friction\": -1"));
    assert!(
        matches!(&e, SceneError::Body { field, .. } if field == "friction"),
        "{e:?}"
    );
    let e = error_of(&GOOD.replace("\"dt\": 0.02", "\"dt\": 0"));
    assert!(
        matches!(&e, SceneError::Field { field, .. } if field == "dt"),
        "{e:?}"
    );
    // A number too large for f64 is a syntax-level error with its position, not an infinity.
    let e = error_of(&GOOD.replace("\"restitution\": 0.5", "\"restitution\": 1e999"));
    assert!(e.to_string().contains("line"), "{e}");
}

#[test]
fn more_shapes_filters_and_sensors_load_and_their_errors_name_the_shape() {
    let with_shapes = GOOD.replace(
        "\"restitution\": 0.5",
        "\"restitution\": 0.5, \"filter\": {\"category\": 2, \"group\": -1}, \
         \"shapes\": [{\"shape\": {\"type\": \"circle\", \"radius\": 0.1}, \"offset\": [0.5, 0], \
         \"density\": 3}, {\"shape\": {\"type\": \"circle\", \"radius\": 1}, \"sensor\": true, \
         \"density\": 0}]",
    );
    let scene = SceneFile::load(&with_shapes).expect("loads");
    let (id, _) = &scene.bodies[1];
    let body = scene.world.body(*id).unwrap();
    assert_eq!(body.shape_count(), 3);
    let ids = scene.world.shape_ids(*id);
    let first = scene.world.shape(ids[0]).unwrap();
    assert_eq!((first.filter.category, first.filter.group), (2, -1));
    assert!(scene.world.shape(ids[2]).unwrap().sensor);
    // An extra shape's bad value names the shape and the field; an unknown field is refused.
    let bad = with_shapes.replace("\"density\": 3", "\"density\": -3");
    let e = error_of(&bad);
    assert!(
        matches!(&e, SceneError::Body { index: 1, field, .. } if field == "shapes[0].density"),
        "{e:?}"
    );
    let typo = with_shapes.replace("\"offset\"", "\"ofset\"");
    assert!(error_of(&typo).to_string().contains("ofset"));
    let mask = GOOD.replace("\"restitution\": 0.5", "\"filter\": {\"mask\": -1}");
    assert!(
        error_of(&mask).to_string().contains("mask"),
        "{}",
        error_of(&mask)
    );
}

#[test]
fn joints_load_by_name_or_index_and_their_errors_name_the_joint() {
    let with_joints = GOOD.replace(
        "\n  ]\n}",
        "\n  ],\n  \"joints\": [{\"type\": \"revolute\", \"body_a\": \"ground\", \"body_b\": 1, \
         \"anchor\": [0, 4], \"limit\": [-1, 1]}]\n}",
    );
    let scene = SceneFile::load(&with_joints).expect("loads");
    assert_eq!(scene.world.joint_count(), 1);
    let unknown = with_joints.replace("\"body_a\": \"ground\"", "\"body_a\": \"gruond\"");
    let e = error_of(&unknown);
    assert!(
        matches!(&e, SceneError::Field { field, .. } if field == "joints[0].body_a"),
        "{e:?}"
    );
    assert!(e.to_string().contains("gruond"), "{e}");
    let bad = with_joints.replace("[-1, 1]", "[1, -1]");
    let e = error_of(&bad);
    assert!(
        matches!(&e, SceneError::Field { field, .. } if field == "joints[0]"),
        "{e:?}"
    );
    let typo = with_joints.replace("\"anchor\"", "\"anchr\"");
    assert!(error_of(&typo).to_string().contains("anchr"));
    // A motor or spring of the wrong kind of value: the example in the message has the fields
    // the file format reads, so following it loads.
    for (part, fixed) in [
        ("\"motor\": 5", "\"motor\": {\"speed\": 1, \"max\": 10}"),
        (
            "\"spring\": 5",
            "\"spring\": {\"hertz\": 2, \"damping_ratio\": 0.7}",
        ),
    ] {
        let wrong = with_joints.replace("\"limit\": [-1, 1]", part);
        let e = error_of(&wrong).to_string();
        let example = &fixed[fixed.find('{').unwrap()..];
        assert!(e.contains(example), "{e}");
        let followed = with_joints.replace("\"limit\": [-1, 1]", fixed);
        assert_eq!(
            SceneFile::load(&followed)
                .expect("loads")
                .world
                .joint_count(),
            1
        );
    }
}

#[test]
fn wrong_kinds_of_value_and_huge_numbers_name_their_field() {
    let e = error_of(&GOOD.replace("\"kind\": \"dynamic\"", "\"kind\": 3"));
    assert!(
        matches!(&e, SceneError::Body { index: 1, field, .. } if field == "kind"),
        "{e:?}"
    );
    assert!(e.to_string().contains("\"kinematic\""), "{e}");
    let e = error_of(&GOOD.replace("\"position\": [0, 3]", "\"position\": [1e999, 3]"));
    assert!(
        matches!(&e, SceneError::Body { index: 1, field, .. } if field.starts_with("position")),
        "{e:?}"
    );
    assert!(e.to_string().contains("too large"), "{e}");
}

/// The spinning-blade scene (a kinematic blade turning at 6 rad/s, its tips 15 m/s, sweeping
/// through the floor among 32 falling boxes and discs): bodies it presses into the floor or a
/// stack are squeezed out along the free direction or, jammed, let it pass; none is ever held
/// (stopped for the rest of a step), and no body ends any step inside the blade deeper than the
/// jams of the 20 nearby starts measured (0.43 m at most; Rapier and Box2D 0.39–0.47 m on the
/// same starts; it was 0.46 m with the blade passing pinned bodies, and 53 holds). Checked with
/// the exact contact query against the blade at the end of every one of its 300 steps.
///
/// This is the scene as written, one trajectory of a chaotic scene. From nearby starts (dynamic
/// bodies moved by under a millimetre, `examples/scene_spread.rs`) the blade's tip often comes
/// down on the top face of a box lying on the floor, a jam with no free direction, and passes
/// through the box (`docs/continuous.md`, "Pinned bodies"; `docs/history/benchmarks.md`, "The spinning
/// blade, measured as a spread"). Until 2026-11-26 this test held the written trajectory to twice
/// the slop, which it met by chance of the trajectory; since bounces became exact the written
/// start meets such a jam too (0.19 m at step 130), as 16 of the 20 nearby starts did before.
#[test]
fn the_spinning_blade_holds_nothing_and_never_ends_a_step_inside_a_body() {
    use sweep2d::query::contact;
    /// The deepest a jammed body ended a step inside the blade over the 20 nearby starts of
    /// `examples/scene_spread.rs` (metres). Re-measured 2026-11-29, when the rotating time of
    /// impact's attached bound gained its third-derivative form (the same times to within its
    /// tolerance, so other trajectories of this chaotic scene): 0.433 m at most, median 0.24 m,
    /// 16 of 20 runs past twice the slop, no holds; the code before, on the same starts: 0.39 m,
    /// median 0.25 m, 16 of 20. (2026-11-28's spread gave 0.387 m; Rapier and Box2D 0.39–0.47 m.)
    const JAMMED_BLADE_DEPTH: f64 = 0.434;
    let path = format!("{}/scenes/spinning_blade.json", env!("CARGO_MANIFEST_DIR"));
    let scene = SceneFile::read(&path).expect("a shipped scene");
    let mut loaded = scene.build().expect("it builds");
    let blade = loaded
        .bodies
        .iter()
        .find(|(_, name)| name == "blade")
        .expect("the scene has a blade")
        .0;
    let world = &mut loaded.world;
    let mut deepest: (f64, u64) = (0.0, 0);
    for _ in 0..scene.steps {
        world.step();
        assert!(
            world.events().held.is_empty(),
            "step {}: held {:?}",
            world.step_count(),
            world.events().held
        );
        let b = world.body(blade).unwrap();
        for (_, body) in world.bodies() {
            if body.kind() != sweep2d::BodyKind::Dynamic {
                continue;
            }
            let depth = contact(b.shape(), &b.transform(), body.shape(), &body.transform())
                .map_or(0.0, |k| k.depth);
            if depth > deepest.0 {
                deepest = (depth, world.step_count());
            }
        }
    }
    assert!(
        deepest.0 <= JAMMED_BLADE_DEPTH,
        "a body ended step {} {} m inside the blade",
        deepest.1,
        deepest.0
    );
}

/// Three dynamic bodies between a static and a kinematic one, for the start shifts.
const SHIFTED: &str = r#"{
  "bodies": [
    {"name": "ground", "kind": "static", "position": [0, -0.5],
     "shape": {"type": "rectangle", "half_extents": [10, 0.5]}},
    {"name": "a", "kind": "dynamic", "position": [-2, 1], "shape": {"type": "circle", "radius": 0.25}},
    {"name": "b", "kind": "dynamic", "position": [0, 1], "velocity": [1, 2],
     "shape": {"type": "rectangle", "half_extents": [0.3, 0.2]}},
    {"name": "c", "kind": "dynamic", "position": [2, 1], "angle": 0.5,
     "shape": {"type": "circle", "radius": 0.25}},
    {"name": "paddle", "kind": "kinematic", "position": [0, 4], "angular_velocity": 2,
     "shape": {"type": "rectangle", "half_extents": [1, 0.1]}}
  ]
}"#;

fn poses(scene: &sweep2d::analysis::scene::LoadedScene) -> Vec<(sweep2d::Transform, Vec2)> {
    scene
        .bodies
        .iter()
        .map(|&(id, _)| {
            let b = scene.world.body(id).unwrap();
            (b.transform(), b.linear_velocity())
        })
        .collect()
}

#[test]
fn start_shifts_move_only_dynamic_bodies_along_x_within_the_scale() {
    let original = SceneFile::load(SHIFTED).unwrap();
    let before = poses(&original);
    let shifted = |seed: u64, scale: f64| {
        let mut scene = SceneFile::load(SHIFTED).unwrap();
        scene.shift_dynamic_bodies(seed, scale).unwrap();
        poses(&scene)
    };
    assert_eq!(shifted(3, 0.0), before, "a zero scale moves nothing");
    let scale = 1e-3;
    let after = shifted(3, scale);
    for (k, ((x0, v0), (x1, v1))) in before.iter().zip(&after).enumerate() {
        let dx = x1.translation.x - x0.translation.x;
        assert_eq!(x1.translation.y, x0.translation.y, "body {k}: only x moves");
        assert_eq!(x1.rotation, x0.rotation, "body {k}: the angle stays");
        assert_eq!(v1, v0, "body {k}: the velocity stays");
        if (1..=3).contains(&k) {
            assert!(dx != 0.0 && dx.abs() <= scale, "body {k}: moved by {dx}");
        } else {
            assert_eq!(dx, 0.0, "static and kinematic bodies stay");
        }
    }
    // The shifts are fixed by the seed, differ between bodies and between seeds.
    assert_eq!(shifted(3, scale), after);
    assert_ne!(shifted(4, scale), after);
    let dx = |k: usize| after[k].0.translation.x - before[k].0.translation.x;
    assert_ne!(dx(1), dx(3), "bodies draw their own shifts");
}

#[test]
fn a_bad_start_shift_is_refused_and_moves_nothing() {
    for bad in [-1e-3, f64::NAN, f64::INFINITY] {
        let mut scene = SceneFile::load(SHIFTED).unwrap();
        let before = poses(&scene);
        match scene.shift_dynamic_bodies(1, bad) {
            Err(SceneError::Field { field, reason, .. }) => {
                assert_eq!(field, "shift");
                assert!(reason.contains("finite distance ≥ 0"), "{reason}");
            }
            other => panic!("scale {bad}: {other:?}"),
        }
        assert_eq!(poses(&scene), before);
    }
    // Body "c", the last dynamic one, 1 mm inside the world's coordinate range (1e5 m): a 1 m
    // shift takes it out for about half the seeds, after "a" and "b" have moved; they are put
    // back. The other seeds are accepted.
    let near_edge = SHIFTED.replace("[2, 1], \"angle\"", "[99999.999, 1], \"angle\"");
    let (mut refused, mut accepted) = (0, 0);
    for seed in 0..16 {
        let mut scene = SceneFile::load(&near_edge).unwrap();
        let before = poses(&scene);
        match scene.shift_dynamic_bodies(seed, 1.0) {
            Ok(()) => accepted += 1,
            Err(SceneError::Body {
                index,
                name,
                field,
                reason,
                ..
            }) => {
                refused += 1;
                assert_eq!((index, name.as_deref()), (3, Some("c")));
                assert_eq!(field, "position");
                assert!(reason.contains("1e5 m"), "{reason}");
                assert_eq!(poses(&scene), before, "seed {seed}: nothing moved");
            }
            Err(other) => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!(
        refused > 0 && accepted > 0,
        "{refused} refused, {accepted} accepted"
    );
}

/// From nearby starts the spinning blade comes down on bodies lying on a stack and meets them
/// again and again in one step (128 impacts of one pair, `MAX_IMPACTS_PER_PAIR`). The blade then
/// passes the body, which keeps its motion; it is never held (stopped for the rest of a step).
/// Before, these three starts held 3, 4 and 3 bodies.
#[test]
fn the_blade_passes_a_body_it_keeps_meeting_instead_of_holding_it() {
    let path = format!("{}/scenes/spinning_blade.json", env!("CARGO_MANIFEST_DIR"));
    let scene = SceneFile::read(&path).expect("a shipped scene");
    for start in [6_u64, 7, 15] {
        let mut loaded = scene.build().expect("it builds");
        loaded
            .shift_dynamic_bodies(start, 1e-3 * start as f64 / 20.0)
            .expect("a small shift");
        for _ in 0..scene.steps {
            loaded.world.step();
            assert!(
                loaded.world.events().held.is_empty(),
                "start {start}, step {}: held {:?}",
                loaded.world.step_count(),
                loaded.world.events().held
            );
        }
    }
}

const CHARACTER: &str = r#"{
  "steps": 240,
  "bodies": [
    {"name": "ground", "kind": "static", "position": [0, -0.5],
     "shape": {"type": "rectangle", "half_extents": [20, 0.5]}},
    {"name": "step", "kind": "static", "position": [5, 0.1],
     "shape": {"type": "rectangle", "half_extents": [1, 0.1]}}
  ],
  "character": {"name": "hero", "position": [0, 0.81], "walk_speed": 3,
                "script": [{"time": 0, "walk": 1}, {"time": 1.0, "walk": 1, "jump": true},
                           {"time": 2.0, "walk": 0}]}
}"#;

#[test]
fn a_character_walks_by_its_script_up_a_step_and_jumps_once() {
    let mut scene = SceneFile::load(CHARACTER).unwrap();
    assert_eq!(scene.bodies.len(), 3);
    assert_eq!(scene.bodies[2].1, "hero");
    let body = scene.bodies[2].0;
    assert_eq!(
        scene.world.body(body).unwrap().kind(),
        sweep2d::BodyKind::Kinematic
    );
    let mut peak: f64 = 0.0;
    let mut jumps = 0;
    let mut was_grounded = true;
    for _ in 0..240 {
        scene.step(None).unwrap();
        let c = scene.character.as_ref().unwrap();
        peak = peak.max(c.transform().translation.y);
        if was_grounded && c.velocity().y > 1.0 {
            jumps += 1;
        }
        was_grounded = c.grounded();
    }
    let c = scene.character.as_ref().unwrap();
    // Two seconds at 3 m/s, then standing: x = 6 m, on the 0.2 m step (4 to 6 m).
    let p = c.transform().translation;
    assert!((p.x - 6.0).abs() < 1e-9, "{p}");
    assert!((p.y - (0.2 + 0.81)).abs() < 1e-9, "{p}");
    assert!(c.grounded());
    // The jump at 1 s starts at 7 m/s: it rises 7²/(2 · 9.81) = 2.50 m (less a step's worth of
    // gravity), once.
    assert_eq!(jumps, 1);
    assert!(peak > 0.81 + 2.3 && peak < 0.81 + 2.5, "peak {peak}");
    // The body follows the mover one step behind, with the mover's velocity.
    scene.step(None).unwrap();
    let b = scene.world.body(body).unwrap();
    assert!((b.transform().translation - p).length() < 1e-9);
}

#[test]
fn a_bad_character_is_refused_naming_its_field() {
    let with = |character: &str| {
        format!(
            r#"{{"bodies": [{{"name": "ground", "kind": "static", "position": [0, 0],
                "shape": {{"type": "circle", "radius": 1}}}}], "character": {character}}}"#
        )
    };
    let cases = [
        (
            r#"{"position": [0, 3], "walk_speed": -1}"#,
            "character.walk_speed",
        ),
        (r#"{"position": [0, 3], "skin": 0}"#, "character.skin"),
        (
            r#"{"position": [0, 3], "max_slope": 3}"#,
            "character.max_slope",
        ),
        (
            r#"{"name": "ground", "position": [0, 3]}"#,
            "character.name",
        ),
        (
            r#"{"position": [0, 3], "script": [{"time": 2}, {"time": 1}]}"#,
            "character.script[1].time",
        ),
        (
            r#"{"position": [0, 3], "script": [{"time": 0, "walk": 2}]}"#,
            "character.script[0].walk",
        ),
        (
            r#"{"position": [0, 3], "shape": {"type": "chain", "points": [[0, 0], [1, 0], [2, 1]]}}"#,
            "character.shape",
        ),
        (r#"{"position": [1e9, 3]}"#, "character.position"),
    ];
    for (character, field) in cases {
        let e = error_of(&with(character)).to_string();
        assert!(e.contains(field), "{character}: {e}");
    }
    // An unknown field names itself.
    let e = error_of(&with(r#"{"position": [0, 3], "speed": 2}"#)).to_string();
    assert!(e.contains("speed"), "{e}");
}

/// A scene with a character, saved mid-run (the world's snapshot and the character's state) and
/// restored, continues bit for bit: the character's body and its own state (pose, velocity,
/// ground, the script's jumps taken) come back. A state that does not fit the world is refused.
#[test]
fn a_character_scene_saved_mid_run_continues_bit_for_bit() {
    use sweep2d::analysis::scene::{LoadedScene, SceneCharacter};
    use sweep2d::World;
    let file = SceneFile::read(std::path::Path::new("scenes/character.json")).unwrap();
    let mut scene = file.build().unwrap();
    for _ in 0..75 {
        scene.step(None).unwrap();
    }
    let state = scene.character.as_ref().unwrap().state();
    let world = World::restore(&scene.world.snapshot()).unwrap();
    let character = SceneCharacter::from_state(&state, &world).unwrap();
    let mut copy = LoadedScene {
        bodies: world
            .bodies()
            .map(|(id, b)| (id, b.name().unwrap_or("").to_string()))
            .collect(),
        world,
        steps: 0,
        character: Some(character),
    };
    let body = scene.character.as_ref().unwrap().body;
    let start = scene.world.body(body).unwrap().transform().translation;
    for _ in 0..120 {
        scene.step(None).unwrap();
        copy.step(None).unwrap();
        let (a, b) = (&scene.world, &copy.world);
        for ((_, x), (_, y)) in a.bodies().zip(b.bodies()) {
            assert_eq!(x.transform(), y.transform());
            assert_eq!(x.linear_velocity(), y.linear_velocity());
        }
    }
    let end = scene.world.body(body).unwrap().transform().translation;
    assert!(
        end.distance(start) > 0.5,
        "the character moved: {start} → {end}"
    );

    // A state whose body is not in the world, or with a bad setting, is refused.
    let mut wrong = state.clone();
    wrong.body.1 += 1;
    let e = SceneCharacter::from_state(&wrong, &copy.world).unwrap_err();
    assert!(e.to_string().contains("not in the world"), "{e}");
    let mut wrong = state;
    wrong.mover.skin = -1.0;
    let e = SceneCharacter::from_state(&wrong, &copy.world).unwrap_err();
    assert!(e.to_string().contains("skin"), "{e}");
}

/// The motor and mouse joints in a scene file: a mouse joint pulls its body to the target, a
/// motor joint holds its body at the offset from the other; bad ones name the joint's field.
#[test]
fn motor_and_mouse_joints_load_and_act() {
    let text = r#"{"gravity": [0, 0], "bodies": [
        {"name": "anchor", "kind": "static", "position": [0, 0], "shape": {"type": "circle", "radius": 0.1}},
        {"name": "follower", "kind": "dynamic", "position": [3, 0], "shape": {"type": "circle", "radius": 0.2}},
        {"name": "grabbed", "kind": "dynamic", "position": [-3, 0], "shape": {"type": "circle", "radius": 0.2}}],
      "joints": [
        {"type": "motor", "body_a": "anchor", "body_b": "follower", "linear_offset": [1, 2],
         "max_force": 1000, "max_torque": 100},
        {"type": "mouse", "body": "grabbed", "anchor": [-3, 0], "target": [-3, 4], "max_force": 1000,
         "spring": {"hertz": 4, "damping_ratio": 1}}]}"#;
    let mut scene = SceneFile::from_json(text).unwrap().build().unwrap();
    assert_eq!(scene.world.joint_count(), 2);
    for _ in 0..600 {
        scene.step(None).unwrap();
    }
    let at = |k: usize| {
        scene
            .world
            .body(scene.bodies[k].0)
            .unwrap()
            .transform()
            .translation
    };
    assert!(at(1).distance(Vec2::new(1.0, 2.0)) < 1e-3, "{}", at(1));
    assert!(at(2).distance(Vec2::new(-3.0, 4.0)) < 1e-3, "{}", at(2));
    let bad = text.replace(
        r#""max_force": 1000, "max_torque""#,
        r#""max_force": -1, "max_torque""#,
    );
    let e = SceneFile::from_json(&bad)
        .unwrap()
        .build()
        .unwrap_err()
        .to_string();
    assert!(e.contains("joints[0]") && e.contains("max_force"), "{e}");
    let bad = text.replace(r#""body": "grabbed""#, r#""body": "nobody""#);
    let e = SceneFile::from_json(&bad)
        .unwrap()
        .build()
        .unwrap_err()
        .to_string();
    assert!(e.contains("joints[1].body"), "{e}");
}
