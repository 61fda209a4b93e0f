//! Determinism you can rely on (`docs/reliability.md`, "Determinism"): fixed scenes stepped a
//! fixed number of times end in exactly the state whose [`World::state_hash`] is committed here.
//! The step uses only IEEE-754 basic operations and the crate's own sine, cosine and arctangent
//! (`sweep2d::trig`), so these values hold on every platform, with or without the `parallel`
//! feature, at any optimisation level.
//!
//! A change that moves results by even one bit fails this test. If the change is meant to (a
//! new solver detail, a different contact order), print the new values with
//! `cargo test --release --all-features --test determinism -- --nocapture`, replace them below,
//! and say in the commit message that results changed and why.
#![cfg(feature = "serde")]

use sweep2d::analysis::scene::SceneFile;
use sweep2d::analysis::scenes;
use sweep2d::World;

/// Steps `world` `steps` times and returns its state hash, checking on the way that a second
/// run of the same construction is identical step for step (a cheap guard against hidden state
/// such as hash-map iteration order).
fn hash_after(make: impl Fn() -> World, steps: usize) -> u64 {
    let (mut a, mut b) = (make(), make());
    for step in 0..steps {
        a.step();
        b.step();
        if step % 50 == 0 {
            assert_eq!(
                a.state_hash(),
                b.state_hash(),
                "two runs parted at step {step}"
            );
        }
    }
    assert_eq!(a.state_hash(), b.state_hash());
    a.state_hash()
}

fn shipped(name: &str) -> World {
    let path = format!("{}/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("a shipped scene");
    SceneFile::load(&text).expect("shipped scenes load").world
}

/// The committed fingerprints: (scene, steps, state hash).
const EXPECTED: [(&str, usize, u64); 7] = [
    ("falling_mixed(300)", 240, 0xa3356b2a60015131),
    ("pyramid(20)", 240, 0xd0bf4cdc28546da2),
    ("hanging_chains(3, 10)", 240, 0x200012540c2ca96f),
    ("bullet_through_thin_walls.json", 120, 0x0406abf27625cfb9),
    ("spinning_blade.json", 240, 0x0af94130bbd038ae),
    ("newtons_cradle.json", 240, 0xe981926fd40fbe4e),
    ("joints.json", 240, 0x09f81c9de533399d),
];

fn world_for(scene: &str) -> World {
    match scene {
        "falling_mixed(300)" => scenes::falling_mixed(300).world,
        "pyramid(20)" => scenes::pyramid(20).world,
        "hanging_chains(3, 10)" => scenes::hanging_chains(3, 10).world,
        file => shipped(file),
    }
}

#[test]
fn fixed_scenes_end_in_their_committed_states() {
    let mut wrong = Vec::new();
    for (scene, steps, expected) in EXPECTED {
        let got = hash_after(|| world_for(scene), steps);
        println!("    (\"{scene}\", {steps}, {got:#018x}),");
        if got != expected {
            wrong.push(format!("{scene}: {got:#018x}, committed {expected:#018x}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "results changed (see the module notes):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_state_hash_sees_one_bit() {
    let mut a = scenes::pyramid(5).world;
    a.step();
    let b = a.clone();
    assert_eq!(a.state_hash(), b.state_hash());
    let mut c = a.clone();
    let (id, body) = c.bodies().nth(7).map(|(id, b)| (id, b.clone())).unwrap();
    let v = body.linear_velocity();
    let nudged = sweep2d::Vec2::new(f64::from_bits(v.x.to_bits() ^ 1), v.y);
    c.set_velocity(id, nudged, body.angular_velocity()).unwrap();
    assert_ne!(a.state_hash(), c.state_hash());
}
