//! The falling-mixed scenes in phases: median milliseconds per step over the first second (steps
//! 2–61) and settled at 5 s (steps 271–330), and the kinetic energy at 5.5 s, for 1,000, 4,000 and
//! 16,000 shapes (the figures in `docs/benchmarks.md`), and the mean time per stage of the step
//! in each phase ([`sweep2d::StepProfile`]).
//!
//! ```sh
//! cargo run --release --example falling_phases            # all three sizes
//! cargo run --release --example falling_phases -- 1000    # one size
//! ```

use std::time::Instant;
use sweep2d::analysis::scenes;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let sizes: Vec<usize> = match std::env::args().nth(1) {
        Some(n) => vec![n.parse().expect("a number of shapes")],
        None => vec![1000, 4000, 16000],
    };
    for n in sizes {
        let mut scene = scenes::falling_mixed(n);
        let (mut first, mut settled, mut held) = (Vec::new(), Vec::new(), 0);
        let (mut first_stages, mut settled_stages) = (
            sweep2d::StepProfile::default(),
            sweep2d::StepProfile::default(),
        );
        for step in 1..=330 {
            let start = Instant::now();
            scene.world.step();
            let ms = start.elapsed().as_secs_f64() * 1e3;
            held += scene.world.events().held.len();
            if (2..=61).contains(&step) {
                first.push(ms);
                first_stages.accumulate(scene.world.profile());
            }
            if (271..=330).contains(&step) {
                settled.push(ms);
                settled_stages.accumulate(scene.world.profile());
            }
        }
        println!(
            "falling mixed {n}: first second {:.2} ms/step, at 5 s {:.2} ms/step (medians), \
             kinetic energy at 5.5 s {:.3e} J, held bodies {held}",
            median(first),
            median(settled),
            scene.world.kinetic_energy()
        );
        for (name, stages) in [("first second", first_stages), ("at 5 s", settled_stages)] {
            let per = |ms: f64| ms / 60.0;
            println!(
                "  {name} per stage (mean ms/step): pairs {:.3}, narrow {:.3}, solve {:.3}, \
                 continuous {:.3}, refit {:.3}",
                per(stages.pairs),
                per(stages.narrow),
                per(stages.solve),
                per(stages.continuous),
                per(stages.refit)
            );
        }
    }
}
