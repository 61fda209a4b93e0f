//! Steps `scenes::falling_mixed(n)` to a range of steps and runs that range alone inside one
//! function, `measured`, so that an instruction counter can count just those steps; prints the
//! mean milliseconds per step of the range and the world's state hash after it (a change that
//! is meant to keep results identical must keep the hash). Sleeping is off, as in the peer
//! benchmark; `--sleep` turns it on. The instruction counts in `docs/benchmarks.md` come from:
//!
//! ```sh
//! cargo build --release --example step_range
//! valgrind --tool=callgrind --toggle-collect='*measured*' \
//!     target/release/examples/step_range 1000 1 61       # falling mixed 1k, steps 1-61
//! valgrind --tool=callgrind --toggle-collect='*measured*' \
//!     target/release/examples/step_range 4000 271 330    # the settled 4k pile
//! ```

use sweep2d::analysis::scenes;

/// Steps `world` from step `from` to step `to` (inclusive).
#[inline(never)]
fn measured(world: &mut sweep2d::World, from: usize, to: usize) {
    for _ in from..=to {
        world.step();
    }
}

fn usage() -> ! {
    eprintln!("usage: step_range <shapes> <first step> <last step> [--sleep]");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |k: usize| -> usize {
        args.get(k)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| usage())
    };
    let (n, from, to) = (number(0), number(1), number(2));
    if from == 0 || to < from {
        usage();
    }
    let mut scene = scenes::falling_mixed(n);
    let mut config = *scene.world.config();
    config.sleep = args.iter().any(|a| a == "--sleep");
    scene
        .world
        .set_config(config)
        .expect("the scene's configuration with sleeping switched");
    for _ in 1..from {
        scene.world.step();
    }
    let start = std::time::Instant::now();
    measured(&mut scene.world, from, to);
    let ms = start.elapsed().as_secs_f64() * 1e3 / (to + 1 - from) as f64;
    println!(
        "falling mixed {n}, steps {from}-{to}: {ms:.4} ms/step, state hash {:016x}",
        scene.world.state_hash()
    );
}
