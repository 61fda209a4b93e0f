//! The public property-test kit: its checkers catch what they claim to catch (on a world with the
//! continuous pass turned off, a bullet does pass through a wall and the checker says so), and the
//! engine passes them on the kit's own random scenes.
#![cfg(feature = "proptest")]

mod common;

use proptest::prelude::*;
use sweep2d::analysis::testkit::{self, Snapshot};
use sweep2d::constants::LINEAR_SLOP;
use sweep2d::{BodyDef, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

fn wall_and_bullet(continuous: bool) -> World {
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        continuous,
        ..Default::default()
    });
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(0.005, 2.0).unwrap(),
        name: Some("wall".into()),
        ..Default::default()
    })
    .unwrap();
    w.add_body(BodyDef {
        shape: Shape::circle(0.02).unwrap(),
        transform: Transform::new(Vec2::new(-3.0, 0.3), 0.0),
        linear_velocity: Vec2::new(300.0, 0.0),
        name: Some("bullet".into()),
        ..Default::default()
    })
    .unwrap();
    w
}

#[test]
fn the_tunnelling_checker_catches_a_naive_engine_and_passes_ours() {
    let mut naive = wall_and_bullet(false);
    let mut caught = None;
    for _ in 0..3 {
        let before = Snapshot::of(&naive);
        naive.step();
        if let Err(e) = testkit::assert_no_tunnelling(&before, &naive) {
            caught = Some(e.to_string());
            break;
        }
    }
    let msg =
        caught.expect("without the continuous pass the bullet tunnels, and the checker sees it");
    assert!(msg.contains("bullet passed through wall"), "{msg}");

    let mut ours = wall_and_bullet(true);
    for _ in 0..10 {
        let before = Snapshot::of(&ours);
        ours.step();
        testkit::assert_no_tunnelling(&before, &ours).unwrap();
    }
}

#[test]
fn the_overlap_and_energy_checkers_fail_when_they_should() {
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..Default::default()
    });
    let a = w
        .add_body(BodyDef {
            shape: Shape::circle(0.5).unwrap(),
            ..Default::default()
        })
        .unwrap();
    w.add_body(BodyDef {
        shape: Shape::circle(0.5).unwrap(),
        transform: Transform::new(Vec2::new(0.8, 0.0), 0.0),
        ..Default::default()
    })
    .unwrap();
    w.step(); // pairs are found in a step; the soft contact recovers the 0.2 m overlap slowly
    assert!(testkit::assert_no_deep_overlap(&w, LINEAR_SLOP).is_err());
    assert!(testkit::assert_no_deep_overlap(&w, 0.5).is_ok());

    let e0 = testkit::mechanical_energy(&w);
    w.set_velocity(a, Vec2::new(3.0, 0.0), 0.0).unwrap();
    assert!(testkit::assert_energy_not_increasing(e0, &w, 1e-9).is_err());
}

#[test]
fn mechanical_energy_counts_gravity() {
    let mut w = World::new(WorldConfig::default());
    w.add_body(BodyDef {
        shape: Shape::circle(0.1).unwrap(),
        transform: Transform::new(Vec2::new(0.0, 10.0), 0.0),
        ..Default::default()
    })
    .unwrap();
    let e0 = testkit::mechanical_energy(&w);
    for _ in 0..30 {
        w.step();
        // Free fall: kinetic energy grows, mechanical energy does not (semi-implicit Euler loses
        // a little).
        testkit::assert_energy_not_increasing(e0, &w, 1e-9).unwrap();
    }
    assert!(
        w.kinetic_energy() > 0.3,
        "fell 1.2 m: {}",
        w.kinetic_energy()
    );
}

proptest! {
    #![proptest_config(common::simulation_config(24))]

    /// Up to 8 bullets at up to 500 m/s in a box of 1 cm walls, for half a second: nothing ever
    /// passes through anything.
    #[test]
    fn bullets_in_a_thin_walled_box_never_tunnel(scene in testkit::bullet_scene(8, 500.0)) {
        let mut world = scene.build();
        for _ in 0..30 {
            let before = Snapshot::of(&world);
            world.step();
            testkit::assert_no_tunnelling(&before, &world)?;
        }
    }

    /// The same scenes never end a step overlapping past the slop, and no body is ever held: a
    /// bullet pressing another against a wall (a sandwich against an immovable body) is settled
    /// with the bodies it touches (measured: 0 of 3,000 seeded cases past the slop). Runs with
    /// random seeds still find about one case in a thousand that fails: they are kept, commented
    /// as known open, in `testkit.proptest-regressions` (see `docs/simulation.md`).
    #[test]
    fn bullets_in_a_thin_walled_box_stay_within_the_slop(scene in testkit::bullet_scene(8, 500.0)) {
        let mut world = scene.build();
        for _ in 0..30 {
            world.step();
            testkit::assert_no_deep_overlap(&world, LINEAR_SLOP)?;
            prop_assert!(world.events().held.is_empty(), "a body was held");
        }
    }

    /// The strategies produce only valid input.
    #[test]
    fn strategies_produce_valid_bodies_and_motions(
        def in testkit::body_def(10.0, 100.0),
        m in testkit::motion(5.0, 3.0, 2.0),
    ) {
        let mut w = World::new(WorldConfig::default());
        prop_assert!(w.add_body(def).is_ok());
        prop_assert!(m.start.translation.is_finite());
    }
}
