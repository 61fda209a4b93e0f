//! Snapshots continue bit for bit: run a scene N steps, snapshot, run M more; restore the
//! snapshot, run M; every pose and velocity, every step, equals the original's to the last bit.
//! Bad bytes get a typed error, never a panic (`docs/reliability.md`, "Snapshots").
#![cfg(feature = "serde")]

use sweep2d::analysis::scene::SceneFile;
use sweep2d::analysis::scenes;
use sweep2d::{SnapshotError, World};

/// Every body's pose and velocity bits, in storage order.
fn bits(w: &World) -> Vec<u64> {
    w.bodies()
        .flat_map(|(_, b)| {
            let xf = b.transform();
            let v = b.linear_velocity();
            [
                xf.translation.x,
                xf.translation.y,
                xf.rotation.cos,
                xf.rotation.sin,
                v.x,
                v.y,
                b.angular_velocity(),
            ]
        })
        .map(f64::to_bits)
        .collect()
}

fn continues_bit_for_bit(name: &str, mut world: World, before: usize, after: usize) {
    for _ in 0..before {
        world.step();
    }
    let snapshot = world.snapshot();
    let mut restored = World::restore(&snapshot).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        bits(&restored),
        bits(&world),
        "{name}: restored state differs"
    );
    for step in 0..after {
        world.step();
        restored.step();
        assert!(
            bits(&restored) == bits(&world),
            "{name}: parted {step} steps after the snapshot"
        );
        assert_eq!(
            format!("{:?}", restored.events()),
            format!("{:?}", world.events()),
            "{name}: events differ"
        );
    }
    assert_eq!(restored.state_hash(), world.state_hash());
    assert_eq!(
        restored.contact_point_count(),
        world.contact_point_count(),
        "{name}"
    );
}

#[test]
fn shipped_scenes_continue_bit_for_bit_after_a_restore() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 7);
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap();
        let world = SceneFile::load(&text).unwrap().world;
        continues_bit_for_bit(&p.display().to_string(), world, 37, 120);
    }
}

#[test]
fn piles_chains_and_sleeping_bodies_continue_bit_for_bit() {
    // A pile while it lands (many contacts, impacts, warm starts), a resting pyramid partly
    // asleep, and jointed chains swinging into each other.
    continues_bit_for_bit(
        "falling_mixed(400)",
        scenes::falling_mixed(400).world,
        90,
        90,
    );
    continues_bit_for_bit("pyramid(12)", scenes::pyramid(12).world, 200, 100);
    continues_bit_for_bit(
        "hanging_chains(4, 8)",
        scenes::hanging_chains(4, 8).world,
        60,
        120,
    );
}

#[test]
fn a_sleeping_pile_woken_after_a_restore_continues_bit_for_bit() {
    // Asleep, the pyramid's contacts are set aside (parked) and its bodies leave the moving set;
    // a bullet then wakes it, bringing them back in an order the restored world must repeat.
    let mut world = scenes::pyramid(8).world;
    for _ in 0..300 {
        world.step();
    }
    assert!(
        world
            .bodies()
            .all(|(_, b)| b.kind() != sweep2d::BodyKind::Dynamic || !b.is_awake()),
        "the pyramid is asleep"
    );
    world
        .add_body(sweep2d::BodyDef {
            shape: sweep2d::Shape::circle(0.1).unwrap(),
            transform: sweep2d::Transform::new(sweep2d::Vec2::new(-15.0, 1.5), 0.0),
            linear_velocity: sweep2d::Vec2::new(200.0, 0.0),
            density: 20.0,
            gravity_scale: 0.0,
            ..sweep2d::BodyDef::default()
        })
        .unwrap();
    continues_bit_for_bit("a sleeping pyramid hit by a ball", world, 0, 90);
}

#[test]
fn ids_stay_valid_after_a_restore() {
    let mut scene = scenes::pyramid(4);
    scene.world.step();
    let top = *scene.tracked.last().unwrap();
    let restored = World::restore(&scene.world.snapshot()).unwrap();
    assert_eq!(restored.tag(), scene.world.tag());
    assert_eq!(
        restored.body(top).unwrap().transform().translation,
        scene.world.body(top).unwrap().transform().translation
    );
}

#[test]
fn bad_bytes_are_refused_with_a_reason() {
    let mut scene = scenes::pyramid(4);
    scene.world.step();
    let good = scene.world.snapshot();
    assert!(matches!(
        World::restore(b"hello"),
        Err(SnapshotError::NotASnapshot)
    ));
    assert!(matches!(
        World::restore(&[]),
        Err(SnapshotError::NotASnapshot)
    ));
    // Cut short anywhere: damaged (or, inside the header, not a snapshot).
    for cut in [10, 20, 30, 50, good.len() / 2, good.len() - 1] {
        let e = World::restore(&good[..cut]).unwrap_err();
        assert!(
            matches!(e, SnapshotError::Damaged(_) | SnapshotError::NotASnapshot),
            "cut at {cut}: {e:?}"
        );
    }
    // One bit flipped in the state: the checksum sees it.
    let mut flipped = good.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x10;
    assert!(matches!(
        World::restore(&flipped),
        Err(SnapshotError::Damaged(_))
    ));
    // Another version's snapshot.
    let mut other = good.clone();
    let at = 24; // the version string follows the 24-byte head
    other[at] = b'9';
    let e = World::restore(&other).unwrap_err();
    assert!(
        matches!(e, SnapshotError::WrongVersion { .. }) && e.to_string().contains("version"),
        "{e}"
    );
}

/// The body controls of the gameplay round survive a snapshot: translation locks, given mass
/// data, a disabled body and a contact-force threshold, with the world continuing bit for bit
/// (contact-force events included).
#[test]
fn body_controls_continue_bit_for_bit_after_a_restore() {
    use sweep2d::{BodyDef, BodyKind, MassData, Shape, Transform, Vec2};
    let mut world = scenes::pyramid(6).world;
    let slider = world
        .add_body(BodyDef {
            shape: Shape::rectangle(0.4, 0.4).unwrap(),
            transform: Transform::new(Vec2::new(-4.0, 3.0), 0.0),
            lock_x: true,
            ..BodyDef::default()
        })
        .unwrap();
    let heavy = world
        .add_body(BodyDef {
            shape: Shape::circle(0.3).unwrap(),
            transform: Transform::new(Vec2::new(4.0, 3.0), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    world
        .set_mass_data(
            heavy,
            Some(MassData {
                mass: 5.0,
                inertia: 0.4,
                center: Vec2::new(0.1, 0.0),
            }),
        )
        .unwrap();
    let parked = world
        .add_body(BodyDef {
            kind: BodyKind::Kinematic,
            shape: Shape::rectangle(1.0, 0.1).unwrap(),
            transform: Transform::new(Vec2::new(0.0, 8.0), 0.0),
            linear_velocity: Vec2::new(1.0, 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    world.set_enabled(parked, false).unwrap();
    let ground_shape = world.shape_ids(world.bodies().next().unwrap().0)[0];
    world
        .set_contact_force_threshold(ground_shape, Some(1.0))
        .unwrap();
    for _ in 0..20 {
        world.step();
    }
    let restored = World::restore(&world.snapshot()).unwrap();
    let s = restored.body(slider).unwrap();
    assert_eq!(s.locked_translation(), (true, false));
    assert_eq!(restored.body(heavy).unwrap().mass(), 5.0);
    assert!(!restored.body(parked).unwrap().is_enabled());
    assert_eq!(restored.contact_force_threshold(ground_shape), Some(1.0));
    continues_bit_for_bit("body controls", world, 0, 60);
}

/// A restored world lists each body's contacts and joints afresh (the lists are not part of a
/// snapshot): bodies removed after a restore take exactly the contacts and joints they take from
/// the original, and both worlds go on bit for bit. Chains swinging into each other (joints and
/// contacts) and a landing pile (many contacts a body, some parked).
#[test]
fn bodies_removed_after_a_restore_leave_as_from_the_original() {
    for (name, mut world, steps) in [
        (
            "hanging_chains(4, 8)",
            scenes::hanging_chains(4, 8).world,
            60,
        ),
        ("falling_mixed(400)", scenes::falling_mixed(400).world, 90),
    ] {
        for _ in 0..steps {
            world.step();
        }
        let mut restored = World::restore(&world.snapshot()).unwrap();
        let ids: Vec<_> = world.bodies().map(|(id, _)| id).collect();
        let (joints, points) = (world.joint_ids().len(), world.contact_point_count());
        // Every third body: links in the middle of each chain, bodies inside the pile.
        for &id in ids.iter().skip(1).step_by(3) {
            world.remove_body(id).unwrap();
            restored.remove_body(id).unwrap();
        }
        assert_eq!(restored.joint_ids(), world.joint_ids(), "{name}");
        assert_eq!(
            restored.contact_point_count(),
            world.contact_point_count(),
            "{name}"
        );
        assert!(
            world.joint_ids().len() < joints || joints == 0,
            "{name}: joints went"
        );
        assert!(
            world.contact_point_count() < points,
            "{name}: contacts went"
        );
        for step in 0..60 {
            world.step();
            restored.step();
            assert!(
                bits(&restored) == bits(&world),
                "{name}: parted {step} steps after the removals"
            );
        }
    }
}
