//! How a scene's deepest overlaps spread over nearby starts: runs a scene file as written and then
//! with every dynamic body's start position moved by a small amount, and reports per run the
//! deepest overlap at the end of any step, separately for pairs with a kinematic body (a blade
//! pressing on bodies) and for all other pairs (a pile's soft contacts), how many steps end with
//! an overlap past twice the linear slop, the holds, and the kinetic energy at the end.
//!
//! A scene whose bodies collide many times is chaotic: moving one body by a tenth of a millimetre
//! changes which bodies meet later, so the deepest overlap of a single run is one sample, not a
//! property of the engine. The figures in `docs/benchmarks.md` ("The spinning blade, measured as a
//! spread") come from:
//!
//! ```sh
//! cargo run --release --features serde --example scene_spread -- scenes/spinning_blade.json 20
//! ```
//!
//! Arguments: the scene file, the number of runs (default 10), and the largest start shift in
//! metres (default 1e-3). Run 0 is the scene as written; run `k` moves every dynamic body along x
//! by up to `shift · k / runs` ([`LoadedScene::shift_dynamic_bodies`] with seed `k`).
//! Overlaps are measured with exact shape queries over the pairs whose boxes overlap (the broad
//! phase's), after every step.
//!
//! [`LoadedScene::shift_dynamic_bodies`]: sweep2d::analysis::scene::LoadedScene::shift_dynamic_bodies

use sweep2d::analysis::scene::SceneFile;
use sweep2d::{BodyKind, World};

/// Twice the linear slop (metres): the depth the reported counts are measured against.
const TWICE_SLOP: f64 = 2.0 * sweep2d::constants::LINEAR_SLOP;

/// The deepest overlaps of one run (metres).
#[derive(Default)]
struct Run {
    /// Deepest overlap of a pair with a kinematic body, over all steps.
    kinematic: f64,
    /// Deepest overlap of any other pair, over all steps.
    other: f64,
    /// Steps ending with a kinematic pair deeper than twice the slop.
    kinematic_steps: u64,
    /// Steps ending with another pair deeper than twice the slop.
    other_steps: u64,
    /// Bodies held in the run (stopped dead by the continuous pass's last resort).
    held: usize,
    /// Kinetic energy at the end (J).
    energy: f64,
}

/// The deepest overlap (metres) of pairs with a kinematic body, and of the other pairs, at the
/// world's current poses.
fn deepest(world: &World) -> (f64, f64) {
    let (mut kinematic, mut other) = (0.0_f64, 0.0_f64);
    for (ia, a) in world.bodies() {
        for ib in world.query_aabb(&a.aabb()) {
            if ib <= ia {
                continue; // each pair once
            }
            let b = world.body(ib).expect("a body the broad phase reported");
            if a.kind() != BodyKind::Dynamic && b.kind() != BodyKind::Dynamic {
                continue;
            }
            let Some(k) =
                sweep2d::query::contact(a.shape(), &a.transform(), b.shape(), &b.transform())
            else {
                continue;
            };
            if a.kind() == BodyKind::Kinematic || b.kind() == BodyKind::Kinematic {
                kinematic = kinematic.max(k.depth);
            } else {
                other = other.max(k.depth);
            }
        }
    }
    (kinematic, other)
}

/// Runs the scene once from start `index`, its dynamic bodies moved by up to `scale` metres.
fn run(file: &SceneFile, index: u64, scale: f64) -> Result<Run, String> {
    let mut loaded = file.build().map_err(|e| e.to_string())?;
    loaded
        .shift_dynamic_bodies(index, scale)
        .map_err(|e| e.to_string())?;
    let world = &mut loaded.world;
    let mut out = Run::default();
    for _ in 0..loaded.steps {
        world.try_step().map_err(|e| e.to_string())?;
        out.held += world.events().held.len();
        let (kinematic, other) = deepest(world);
        out.kinematic = out.kinematic.max(kinematic);
        out.other = out.other.max(other);
        out.kinematic_steps += u64::from(kinematic > TWICE_SLOP);
        out.other_steps += u64::from(other > TWICE_SLOP);
    }
    out.energy = world.kinetic_energy();
    Ok(out)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .map_or("scenes/spinning_blade.json", String::as_str);
    let runs: u64 = args
        .get(1)
        .map_or(10, |s| s.parse().expect("a number of runs"));
    let shift: f64 = args
        .get(2)
        .map_or(1e-3, |s| s.parse().expect("a shift in metres"));
    if runs == 0 || !(shift.is_finite() && shift >= 0.0) {
        eprintln!("usage: scene_spread [scene.json] [runs ≥ 1] [largest shift in metres ≥ 0]");
        std::process::exit(2);
    }
    let file = match SceneFile::read(path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "{path}: {runs} runs of {} steps, start shifts up to {shift} m",
        file.steps
    );
    println!("run  shift (m)   kinematic pair (m)  steps > 2 slop   other pair (m)  steps > 2 slop  held  energy (J)");
    let mut all = Vec::new();
    for k in 0..runs {
        let scale = shift * k as f64 / runs as f64;
        let r = match run(&file, k, scale) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("run {k}: {e}");
                std::process::exit(1);
            }
        };
        println!(
            "{k:>3}  {scale:>9.2e}   {:>18.4}  {:>14}   {:>14.4}  {:>14}  {:>4}  {:>9.1}",
            r.kinematic, r.kinematic_steps, r.other, r.other_steps, r.held, r.energy
        );
        all.push(r);
    }
    let of = |f: fn(&Run) -> f64| all.iter().map(f).collect::<Vec<_>>();
    let max = |v: Vec<f64>| v.into_iter().fold(0.0, f64::max);
    let jammed = all.iter().filter(|r| r.kinematic > TWICE_SLOP).count();
    println!(
        "kinematic pairs: median {:.4} m, max {:.4} m, runs past 2 slop {jammed} of {runs}",
        median(of(|r| r.kinematic)),
        max(of(|r| r.kinematic))
    );
    println!(
        "other pairs: median {:.4} m, max {:.4} m; median steps past 2 slop {}; holds {}",
        median(of(|r| r.other)),
        max(of(|r| r.other)),
        median(of(|r| r.other_steps as f64)),
        all.iter().map(|r| r.held).sum::<usize>()
    );
}
