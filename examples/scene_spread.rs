//! How a scene's deepest overlaps spread over nearby starts: runs a scene file as written and then
//! with every dynamic body's start position moved by a small amount, and reports per run the
//! deepest overlap at the end of any step of a dynamic body with a kinematic one (a blade pressing
//! on bodies), with a static one (the floor, walls) and with another dynamic one (a pile's soft
//! contacts), how many steps end with such an overlap past twice the linear slop, the holds, and
//! the kinetic energy at the end.
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

/// The kinds of pair measured apart (the peer benchmark's `blade` mode measures the same three).
const KINDS: [&str; 3] = ["kinematic", "static", "dynamic"];

/// One run's deepest overlaps and counts, per kind of pair (`KINDS` order).
#[derive(Default)]
struct Run {
    /// Deepest overlap over all steps (metres).
    deepest: [f64; 3],
    /// Steps ending with such a pair deeper than twice the slop.
    steps_past: [u64; 3],
    /// Bodies held in the run (stopped for the rest of a step by the continuous pass's last
    /// resort).
    held: usize,
    /// Kinetic energy at the end (J).
    energy: f64,
}

/// The deepest overlap (metres) at the world's current poses of a dynamic body with a kinematic
/// one, with a static one, and with another dynamic one.
fn deepest(world: &World) -> [f64; 3] {
    let mut out = [0.0_f64; 3];
    for (ia, a) in world.bodies() {
        if a.kind() != BodyKind::Dynamic {
            continue; // every pair has a dynamic body, which finds it
        }
        for ib in world.query_aabb(&a.aabb()) {
            let b = world.body(ib).expect("a body the broad phase reported");
            let kind = match b.kind() {
                BodyKind::Kinematic => 0,
                BodyKind::Static => 1,
                BodyKind::Dynamic if ib > ia => 2,
                BodyKind::Dynamic => continue, // itself, or a pair found from its lower id
            };
            if let Some(k) =
                sweep2d::query::contact(a.shape(), &a.transform(), b.shape(), &b.transform())
            {
                out[kind] = out[kind].max(k.depth);
            }
        }
    }
    out
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
        for (kind, depth) in deepest(world).into_iter().enumerate() {
            out.deepest[kind] = out.deepest[kind].max(depth);
            out.steps_past[kind] += u64::from(depth > TWICE_SLOP);
        }
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
    println!(
        "deepest overlap of a dynamic body with a kinematic, a static and a dynamic one (m), \
         each with its steps past 2 slop"
    );
    println!("run  shift (m)       kinematic  steps       static  steps      dynamic  steps  held  energy (J)");
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
        let (d, n) = (r.deepest, r.steps_past);
        println!(
            "{k:>3}  {scale:>9.2e}   {:>12.4} {:>6} {:>12.4} {:>6} {:>12.4} {:>6}  {:>4}  {:>9.1}",
            d[0], n[0], d[1], n[1], d[2], n[2], r.held, r.energy
        );
        all.push(r);
    }
    for (kind, name) in KINDS.iter().enumerate() {
        let deepest: Vec<f64> = all.iter().map(|r| r.deepest[kind]).collect();
        let steps: Vec<f64> = all.iter().map(|r| r.steps_past[kind] as f64).collect();
        let max = deepest.iter().copied().fold(0.0, f64::max);
        let past = deepest.iter().filter(|&&d| d > TWICE_SLOP).count();
        println!(
            "{name:>9} pairs: median {:.4} m, max {max:.4} m, runs past 2 slop {past} of {runs}, \
             median steps past 2 slop {}",
            median(deepest),
            median(steps)
        );
    }
    println!("holds: {}", all.iter().map(|r| r.held).sum::<usize>());
}
