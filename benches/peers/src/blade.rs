//! The spinning-blade scene (`scenes/spinning_blade.json`: a kinematic blade 5 m long turning at
//! 6 rad/s about a pivot 1.5 m above the floor, its tip reaching 1 m below the floor's top, among
//! 32 falling boxes and balls between two walls) in the three engines, from the scene as written
//! and from nearby starts.
//!
//! The scene is chaotic: moving the dynamic bodies by under a millimetre changes which bodies the
//! blade meets, so one run's deepest overlap is one sample. Run `k` of `N` moves every dynamic
//! body along x by up to `k/N` mm (`LoadedScene::shift_dynamic_bodies`, seed `k`); run 0 is the
//! scene as written. After every step the same exact query (sweep2d's SAT contact) measures each
//! engine's poses: the deepest overlap of a dynamic body with the kinematic blade, with the floor
//! or a wall, and with another dynamic body, and whether each is past twice the linear slop
//! (1 cm). Sleeping is off in every engine, as in `worlds`.

use crate::engines::Engine;
use crate::spec::SceneSpec;
use crate::{make_engine, measure_overlaps, median};
use sweep2d::analysis::scene::SceneFile;
use sweep2d::analysis::scenes::Scene;

/// The largest start shift, at the last run (metres).
const SHIFT: f64 = 1e-3;

/// Twice the linear slop (metres): the depth the counts are measured against.
const TWICE_SLOP: f64 = 2.0 * sweep2d::constants::LINEAR_SLOP;

/// The kinds of pair measured apart.
const KINDS: [&str; 3] = [
    "with the blade",
    "with the floor or a wall",
    "of two dynamic bodies",
];

/// One engine's deepest overlap over one run per kind of pair (metres, in `KINDS` order), and the
/// steps that ended with such a pair past twice the slop.
#[derive(Clone, Copy, Default)]
struct Run {
    deepest: [f64; 3],
    steps_past: [usize; 3],
}

/// Runs `runs` starts of the scene in every engine and prints the spread.
pub fn run(runs: usize) {
    let file = SceneFile::from_json(include_str!("../../../scenes/spinning_blade.json"))
        .expect("the shipped spinning-blade scene");
    let names = ["sweep2d", "rapier2d-f64", "box2d"];
    let mut results = vec![Vec::new(); names.len()];
    println!(
        "\n## spinning blade ({} steps; {runs} starts, dynamic bodies moved by up to {:.0e} m)",
        file.steps, SHIFT
    );
    for k in 0..runs {
        let mut loaded = file.build().expect("the scene builds");
        loaded
            .shift_dynamic_bodies(k as u64, SHIFT * k as f64 / runs as f64)
            .expect("shifts well inside the world");
        let scene = Scene {
            world: loaded.world,
            tracked: Vec::new(),
        };
        let spec = SceneSpec::from_scene(&scene);
        for (which, out) in results.iter_mut().enumerate() {
            let mut engine: Box<dyn Engine> = make_engine(which, &scene, &spec, 1);
            let mut r = Run::default();
            for _ in 0..file.steps {
                engine.step();
                let o = measure_overlaps(&scene, &engine.poses());
                for (kind, depth) in [o.kinematic, o.fixed, o.dynamic].into_iter().enumerate() {
                    r.deepest[kind] = r.deepest[kind].max(depth);
                    r.steps_past[kind] += usize::from(depth > TWICE_SLOP);
                }
            }
            out.push(r);
        }
    }
    println!(
        "deepest overlap at the end of any step (metres): median over the starts (max), the scene \
         as written, starts that pass 2 slop, median steps past 2 slop per start"
    );
    for (name, of_engine) in names.iter().zip(&results) {
        for (kind, label) in KINDS.iter().enumerate() {
            let deepest: Vec<f64> = of_engine.iter().map(|r| r.deepest[kind]).collect();
            let steps: Vec<f64> = of_engine
                .iter()
                .map(|r| r.steps_past[kind] as f64)
                .collect();
            let max = deepest.iter().copied().fold(0.0, f64::max);
            let past = deepest.iter().filter(|&&d| d > TWICE_SLOP).count();
            println!(
                "  {:14} pairs {label:26} {:.4} ({max:.4})   as written {:.4}   {past} of {}   {} steps",
                if kind == 0 { name } else { "" },
                median(&deepest),
                deepest[0],
                of_engine.len(),
                median(&steps)
            );
        }
    }
}
