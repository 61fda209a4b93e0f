//! The long soak (the CI test `tests/soak.rs` runs 3,000 steps of the same scene): the soak
//! scene of `sweep2d::analysis::soak` (a mixed pile in a closed box, a spinning kinematic blade,
//! a hanging chain, a bullet every 25 steps at 100–400 m/s) stepped for a long time, checking
//! every step that all poses and velocities are finite and no dynamic body has left the box, and
//! printing every 5,000 steps the time per step, the bodies, the impacts and holds, and the
//! process's resident memory.
//!
//! ```sh
//! cargo run --release --example soak                  # 100,000 steps, seed 1
//! cargo run --release --example soak -- 20000 7       # 20,000 steps, seed 7
//! ```

use std::time::Instant;
use sweep2d::analysis::soak::Soak;

fn resident_mib() -> f64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(f64::NAN, |pages| pages * 4096.0 / (1 << 20) as f64)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let steps: u64 = args
        .next()
        .map_or(100_000, |s| s.parse().expect("a number of steps"));
    let seed: u64 = args.next().map_or(1, |s| s.parse().expect("a seed"));
    let mut soak = Soak::new(seed, 200);
    let (mut impacts, mut held) = (0usize, 0usize);
    let mut clock = Instant::now();
    println!("soak: {steps} steps, seed {seed}");
    while soak.steps < steps {
        if let Err(e) = soak.step() {
            eprintln!("FAILED: {e}");
            std::process::exit(1);
        }
        impacts += soak.world.events().impacts.len();
        held += soak.world.events().held.len();
        if soak.steps.is_multiple_of(5_000) {
            let ms = clock.elapsed().as_secs_f64() * 1e3 / 5_000.0;
            println!(
                "step {:>7}: {ms:.3} ms/step, {} bodies, {} bullets fired, {impacts} impacts, \
                 {held} held, kinetic energy {:.1} J, resident {:.1} MiB",
                soak.steps,
                soak.world.body_count(),
                soak.fired,
                soak.world.kinetic_energy(),
                resident_mib()
            );
            clock = Instant::now();
        }
    }
    println!("soak passed: {steps} steps, every state finite, no body left the box");
}
