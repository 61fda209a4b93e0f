//! The peer benchmark: sweep2d, Rapier (`rapier2d-f64`) and Box2D v3 (`boxdd`) on the same scenes.
//!
//! ```text
//! cargo run --release -p peers -- [queries|worlds|ccd|blade|suite|all] [--rounds N]
//!                                  [--only NAME] [--sleep] [--threads N] [--runs N] [--steps N]
//! ```
//!
//! `suite` runs Box2D v3's own benchmark scenes (`suite.rs`) in the three engines, with Box2D's
//! step counts (`--steps N` shortens them for a quick look, `--only NAME` picks one scene).
//!
//! `queries` races sweep2d's contact and time-of-impact queries against parry's (`queries.rs`);
//! `worlds` runs whole scenes in the three engines (below); `ccd` counts tunnels and time loss of
//! fast bodies in the three engines (`ccd.rs`); `blade` measures how deep bodies end up in the
//! spinning-blade scene from nearby starts (`blade.rs`, `--runs N` starts, default 10); `all`
//! does all four.
//!
//! Each scene is built once by `sweep2d::analysis::scenes` and copied body by body into the other
//! engines (`spec.rs`: shapes in body frames, poses, densities, frictions, restitutions), so all
//! engines simulate the same bodies with the same gravity, step and substeps. A round runs every
//! engine on a fresh copy of the scene, one after the other, in an order that rotates from round
//! to round (A B C, B C A, C A B, …), so slow drifts of the machine fall on all of them. For each
//! phase of a scene (a range of steps) a round gives the mean time per step; the table prints the
//! median and the best over the rounds, the ratio of each peer's median to sweep2d's, and the
//! median over rounds of the ratio within each round (steadier on a machine whose speed drifts
//! between rounds, as the engines of one round run seconds apart). A quality
//! line per engine follows (kinetic energy, lowest body, the deepest overlapping pair by one exact
//! query for every engine, the tracked body's drift), read at the
//! end of the last round. Pin the process to one core (`taskset -c 1`) for stable figures: every
//! engine here runs on one thread, except the extra row `--threads N` adds: sweep2d with its
//! `parallel` feature on N threads (run that without `taskset`, or pinned to N cores); in `suite`,
//! `--threads N` runs sweep2d itself on N threads.
//!
//! Box2D's C sources are compiled with `NDEBUG` (the workspace's `.cargo/config.toml`) so its
//! assertions are off, as in its release builds.

mod blade;
mod ccd;
/// The criterion benches' shared inputs (deterministic poses and motions), so the peers race on
/// the same kind of inputs.
#[path = "../../common/mod.rs"]
mod common;
mod engines;
mod queries;
mod spec;
mod suite;

use engines::{Box2d, Engine, Rapier, State, Sweep2d};
use spec::SceneSpec;
use std::time::Instant;
use sweep2d::analysis::scenes::{self, Scene};

/// A range of steps timed as one figure: steps `from..=to` (1-based).
struct Phase {
    name: &'static str,
    from: usize,
    to: usize,
}

/// A scene of the `worlds` mode.
struct WorldScene {
    name: &'static str,
    build: fn() -> Scene,
    phases: Vec<Phase>,
}

fn world_scenes() -> Vec<WorldScene> {
    let falling_phases = || {
        vec![
            Phase {
                name: "first second (steps 2-61)",
                from: 2,
                to: 61,
            },
            Phase {
                name: "landing (steps 2-151)",
                from: 2,
                to: 151,
            },
            Phase {
                name: "start to rest (steps 2-330)",
                from: 2,
                to: 330,
            },
            Phase {
                name: "at 5 s (steps 271-330)",
                from: 271,
                to: 330,
            },
        ]
    };
    vec![
        WorldScene {
            name: "large_pyramid",
            build: || scenes::pyramid(100),
            phases: vec![Phase {
                name: "steps 2-500",
                from: 2,
                to: 500,
            }],
        },
        WorldScene {
            name: "falling_mixed_1k",
            build: || scenes::falling_mixed(1_000),
            phases: falling_phases(),
        },
        WorldScene {
            name: "falling_mixed_4k",
            build: || scenes::falling_mixed(4_000),
            phases: falling_phases(),
        },
        WorldScene {
            name: "falling_mixed_16k",
            build: || scenes::falling_mixed(16_000),
            phases: falling_phases(),
        },
        WorldScene {
            name: "hanging_chains_500",
            build: || scenes::hanging_chains(20, 25),
            phases: vec![Phase {
                name: "steps 2-301",
                from: 2,
                to: 301,
            }],
        },
        WorldScene {
            name: "tall_stack_200",
            build: || scenes::tall_stack(200),
            phases: vec![Phase {
                name: "20 s (steps 2-1200)",
                from: 2,
                to: 1200,
            }],
        },
    ]
}

/// The engines of the `worlds` table: the three, and sweep2d on `threads` threads when more
/// than one.
fn engine_names(threads: usize) -> Vec<String> {
    let mut names: Vec<String> = ["sweep2d", "rapier2d-f64", "box2d"]
        .map(String::from)
        .into();
    if threads > 1 {
        names.push(format!("sweep2d {threads}thr"));
    }
    names
}

fn make_engine(which: usize, scene: &Scene, spec: &SceneSpec, threads: usize) -> Box<dyn Engine> {
    match which {
        0 => Box::new(Sweep2d::new(scene)),
        1 => Box::new(Rapier::new(spec)),
        2 => Box::new(Box2d::new(spec, |_| false)),
        _ => Box::new(Sweep2d::with_threads(scene, threads)),
    }
}

/// Runs one engine over the scene's steps; returns each phase's mean ms/step and the end state.
fn run_once(engine: &mut dyn Engine, phases: &[Phase]) -> (Vec<f64>, State) {
    let last = phases.iter().map(|p| p.to).max().unwrap_or(0);
    let mut times = Vec::with_capacity(last);
    for _ in 1..=last {
        let start = Instant::now();
        engine.step();
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let means = phases
        .iter()
        .map(|p| {
            let window = &times[p.from - 1..p.to];
            window.iter().sum::<f64>() / window.len() as f64
        })
        .collect();
    (means, engine.state())
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        0.5 * (s[n / 2 - 1] + s[n / 2])
    }
}

fn best(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

fn worlds(rounds: usize, only: Option<&str>, threads: usize) {
    let engines = engine_names(threads);
    for ws in world_scenes() {
        if only.is_some_and(|o| o != ws.name) {
            continue;
        }
        let scene = (ws.build)();
        let spec = SceneSpec::from_scene(&scene);
        let start_tracked = spec.bodies.iter().find(|b| b.tracked).map(|b| b.position);
        let dynamic = spec
            .bodies
            .iter()
            .filter(|b| b.kind == spec::Kind::Dynamic)
            .count();
        println!(
            "\n## {} ({} bodies, {} dynamic; dt {:.4} s, {} substeps, {} rounds)",
            ws.name,
            spec.bodies.len(),
            dynamic,
            spec.dt,
            spec.substeps,
            rounds
        );
        // times[engine][phase][round]
        let mut times = vec![vec![Vec::new(); ws.phases.len()]; engines.len()];
        let mut states = vec![State::default(); engines.len()];
        let mut overlaps = vec![(0.0, 0); engines.len()];
        for round in 0..rounds {
            for k in 0..engines.len() {
                let which = (round + k) % engines.len();
                let mut engine = make_engine(which, &scene, &spec, threads);
                let (means, state) = run_once(engine.as_mut(), &ws.phases);
                for (p, m) in means.into_iter().enumerate() {
                    times[which][p].push(m);
                }
                states[which] = state;
                overlaps[which] = deepest_overlaps(&scene, &engine.poses());
            }
        }
        for (p, phase) in ws.phases.iter().enumerate() {
            println!("{}:", phase.name);
            let reference = median(&times[0][p]);
            for (e, name) in engines.iter().enumerate() {
                let med = median(&times[e][p]);
                // Each round runs the engines one after the other, so the ratio within a round
                // sees the same machine; its median over rounds is steadier than the ratio of
                // the medians when the machine's speed drifts between rounds.
                let paired: Vec<f64> = times[e][p]
                    .iter()
                    .zip(&times[0][p])
                    .map(|(t, ours)| t / ours)
                    .collect();
                println!(
                    "  {name:14} median {med:9.3} ms/step   best {:9.3}   {:6.2}x sweep2d's time   \
                     (per round {:.2}x)",
                    best(&times[e][p]),
                    med / reference,
                    median(&paired)
                );
            }
        }
        let steps = ws.phases.iter().map(|p| p.to).max().unwrap_or(0);
        println!("quality after {steps} steps:");
        for (e, name) in engines.iter().enumerate() {
            let s = &states[e];
            let drift = match (start_tracked, s.tracked) {
                (Some(a), Some(b)) => format!(
                    "   tracked body drift {:.3e} m, sideways {:+.3e} m, angle {:+.2e} rad",
                    ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt(),
                    b[0] - a[0],
                    b[2]
                ),
                _ => String::new(),
            };
            let (deepest, past_cm) = overlaps[e];
            println!(
                "  {name:14} kinetic energy {:.3e} J   lowest body {:+.3} m   deepest pair {:.2e} m ({past_cm} pairs past 1 cm){drift}",
                s.kinetic_energy, s.lowest_y, deepest
            );
        }
    }
}

/// The deepest overlap (metres) between any two bodies at the given poses (each body's origin and
/// angle, in the scene's order), and how many pairs overlap by more than 1 cm: the same exact
/// query (sweep2d's SAT contact) for every engine's end state, over the pairs whose boxes overlap
/// (sorted by the boxes' left edges and swept). Pairs without a dynamic body are skipped (a
/// kinematic blade may pass through the floor by design).
fn deepest_overlaps(scene: &Scene, poses: &[[f64; 3]]) -> (f64, usize) {
    let o = measure_overlaps(scene, poses);
    (o.kinematic.max(o.fixed).max(o.dynamic), o.past_cm)
}

/// Overlaps of one engine's poses, measured by [`measure_overlaps`].
#[derive(Clone, Copy, Debug, Default)]
struct Overlaps {
    /// Deepest overlap of a pair with a kinematic body (metres).
    kinematic: f64,
    /// Deepest overlap of a dynamic body with a static one (metres).
    fixed: f64,
    /// Deepest overlap of two dynamic bodies (metres).
    dynamic: f64,
    /// Pairs overlapping by more than 1 cm.
    past_cm: usize,
}

/// The overlaps of `deepest_overlaps`, by the kind of pair.
fn measure_overlaps(scene: &Scene, poses: &[[f64; 3]]) -> Overlaps {
    use sweep2d::{BodyKind, Transform, Vec2};
    let placed: Vec<_> = scene
        .world
        .bodies()
        .zip(poses)
        .map(|((_, b), p)| {
            let x = Transform::new(Vec2::new(p[0], p[1]), p[2]);
            (b.shape(), x, b.shape().aabb(&x), b.kind())
        })
        .collect();
    let mut order: Vec<usize> = (0..placed.len()).collect();
    order.sort_by(|&i, &j| placed[i].2.min.x.total_cmp(&placed[j].2.min.x));
    let mut out = Overlaps::default();
    for (k, &i) in order.iter().enumerate() {
        let (shape_i, xi, box_i, kind_i) = &placed[i];
        for &j in &order[k + 1..] {
            let (shape_j, xj, box_j, kind_j) = &placed[j];
            if box_j.min.x > box_i.max.x {
                break;
            }
            let dynamic = |k: &BodyKind| *k == BodyKind::Dynamic;
            if !(dynamic(kind_i) || dynamic(kind_j)) || !box_i.overlaps(box_j) {
                continue;
            }
            if let Some(c) = sweep2d::query::contact(shape_i, xi, shape_j, xj) {
                let deepest = if *kind_i == BodyKind::Kinematic || *kind_j == BodyKind::Kinematic {
                    &mut out.kinematic
                } else if *kind_i == BodyKind::Static || *kind_j == BodyKind::Static {
                    &mut out.fixed
                } else {
                    &mut out.dynamic
                };
                *deepest = deepest.max(c.depth);
                if c.depth > 0.01 {
                    out.past_cm += 1;
                }
            }
        }
    }
    out
}

/// CPU model and logical core count, from /proc/cpuinfo where there is one.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{model}, {cores} logical cores available to this process")
}

fn usage() -> ! {
    eprintln!(
        "usage: peers queries|worlds|ccd|blade|suite|asleep|all [--rounds N] [--only NAME] [--sleep]\n\
         \x20            [--threads N] [--runs N] [--steps N] [--engine NAME]\n\
         \x20            [--profile]\n\
         \n\
         worlds   large_pyramid and falling_mixed 1k/4k/16k in sweep2d, Rapier and Box2D\n\
         queries  contact manifolds and times of impact, sweep2d against parry (at least 5 rounds)\n\
         ccd      bullets at a thin wall, head-on bullets, a 500 m/s ball: tunnels and time loss\n\
         blade    the spinning-blade scene from --runs N nearby starts (default 10): how deep bodies\n\
                  end a step inside the blade and inside each other, in the three engines\n\
         suite    Box2D v3's benchmark scenes (compounds, joint_grid, junkyard, large_pyramid,\n\
                  many_pyramids, rain, smash, spinner, tumbler, washer; and heap) in the three\n\
                  engines, Box2D's step counts (--steps N shortens them)\n\
         all      all five\n\
         --rounds interleaved rounds per scene (default 3)\n\
         --engine in suite, run one engine only: sweep2d, rapier2d-f64 or box2d (for profiling;\n\
                  no ratio is printed)\n\
         --profile in suite, also each engine's own stage times (ms/step): sweep2d's and Box2D's\n\
                  profiles (Rapier's stages are not read)\n\
         --sleep  let every engine put resting bodies to sleep (default: off everywhere)\n\
         --only   one scene: large_pyramid, falling_mixed_1k, falling_mixed_4k, falling_mixed_16k,\n\
                  hanging_chains_500, tall_stack_200\n\
         --threads in worlds, also run sweep2d with its `parallel` feature on N threads (an extra\n\
                  row; every other row is single-threaded); in suite, run sweep2d on N threads\n\
                  (the peers stay on one)"
    );
    std::process::exit(2);
}

/// A count given on the command line (at least 1), or the usage message.
fn positive(arg: Option<&String>) -> usize {
    arg.and_then(|n| n.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| usage())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut mode = None;
    let mut rounds = 3;
    let mut only = None;
    let mut threads = 1;
    let mut runs = 10;
    let mut steps = None;
    let mut engine = None;
    let mut profile = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rounds" => rounds = positive(it.next()),
            "--only" => only = Some(it.next().unwrap_or_else(|| usage()).clone()),
            "--sleep" => engines::set_peers_sleep(true),
            "--profile" => profile = true,
            "--threads" => threads = positive(it.next()),
            "--runs" => runs = positive(it.next()),
            "--steps" => steps = Some(positive(it.next())),
            "--engine" => {
                let name = it.next().unwrap_or_else(|| usage());
                engine = Some(suite::engine_index(name).unwrap_or_else(|| usage()));
            }
            "worlds" | "queries" | "ccd" | "blade" | "suite" | "asleep" | "all" => {
                mode = Some(a.clone())
            }
            _ => usage(),
        }
    }
    if mode.is_none() {
        usage();
    }
    if let Some(o) = &only {
        let known = if mode.as_deref() == Some("suite") {
            suite::names().contains(&o.as_str())
        } else {
            world_scenes().iter().any(|s| s.name == o)
        };
        if !known {
            usage();
        }
    }
    // Every engine but the `--threads` row runs on the calling thread: sweep2d's `parallel`
    // feature takes its thread count from rayon's global pool, set here to one thread.
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("rayon's global pool is set once, here");
    println!("# peer benchmark");
    println!("machine: {}", machine());
    println!(
        "versions: sweep2d {}, rapier2d-f64 {}, parry2d-f64 {}, boxdd {} / boxdd-sys {} (Box2D v3, {})",
        env!("PEER_VERSION_SWEEP2D"),
        env!("PEER_VERSION_RAPIER2D_F64"),
        env!("PEER_VERSION_PARRY2D_F64"),
        env!("PEER_VERSION_BOXDD"),
        env!("PEER_VERSION_BOXDD_SYS"),
        if cfg!(feature = "box2d-f64") {
            "f64"
        } else {
            "f32"
        }
    );
    println!(
        "sleeping: {}",
        if engines::peers_sleep() {
            "on in every engine (--sleep)"
        } else {
            "off in every engine (--sleep lets them sleep)"
        }
    );
    let mode = mode.unwrap_or_default();
    if mode == "queries" || mode == "all" {
        queries::run(rounds.max(5));
    }
    if mode == "worlds" || mode == "all" {
        worlds(rounds, only.as_deref(), threads);
    }
    if mode == "ccd" || mode == "all" {
        ccd::run();
    }
    if mode == "blade" || mode == "all" {
        blade::run(runs);
    }
    if mode == "asleep" || mode == "all" {
        suite::run_asleep(if mode == "asleep" { rounds } else { 1 });
    }
    if mode == "suite" || mode == "all" {
        let only = only.as_deref().filter(|_| mode == "suite");
        suite::run(
            if mode == "suite" { rounds } else { 1 },
            only,
            steps,
            engine,
            profile,
            threads,
        );
    }
}
