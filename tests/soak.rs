//! Soak, small (the long run is `examples/soak.rs`): 3,000 steps of the soak scene
//! (`analysis::soak`: a mixed pile, a spinning kinematic blade, a hanging chain, a bullet every
//! 25 steps at 100–400 m/s with the oldest removed) with every pose and velocity finite, no
//! dynamic body out of its box, and memory that stops growing once the scene is under way.

use sweep2d::analysis::soak::Soak;

/// The process's resident memory in bytes (Linux; `None` elsewhere).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[test]
fn a_busy_scene_stays_finite_inside_its_box_and_bounded_in_memory() {
    let mut soak = Soak::new(7, 200);
    let mut bodies_at = Vec::new();
    // The most resident memory over the first 2,000 steps: buffers grow to the scene's busiest
    // steps (when depends on the build: 17 → 44 MiB at step 1,000 and 50 MiB at 1,750 in one, 35
    // MiB by step 250 and 50 MiB at 1,250 in another, 52 MiB at the end in both), and must not
    // keep growing after that.
    let mut early = None;
    for _ in 0..3_000 {
        soak.step().unwrap_or_else(|e| panic!("{e}"));
        if soak.steps <= 2_000 && soak.steps.is_multiple_of(50) {
            early = early.max(resident_bytes());
        }
        if soak.steps.is_multiple_of(500) {
            bodies_at.push(soak.world.body_count());
        }
    }
    assert_eq!(soak.fired, 120);
    // The number of bodies stops growing once the oldest bullets are being removed.
    let last = *bodies_at.last().unwrap();
    assert!(bodies_at[2..].iter().all(|&n| n == last), "{bodies_at:?}");
    if let (Some(early), Some(late)) = (early, resident_bytes()) {
        let growth = late.saturating_sub(early);
        assert!(
            growth < 16 << 20,
            "resident memory grew by {} MiB from its most over the first 2,000 steps to step 3,000",
            growth >> 20
        );
        assert!(late < 128 << 20, "{} MiB resident", late >> 20);
    }
}
