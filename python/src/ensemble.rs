//! Ensembles: many runs of a scene, spread over threads with the interpreter's lock released.
//!
//! Two kinds of run list, with one runner: nearby starts (one scene, run `k` with its dynamic
//! bodies shifted by a pseudo-random amount drawn from `seed + k`, as `examples/scene_spread.rs`
//! does) and explicit variations (one scene text per run, which the package writes from a
//! parameter grid). Run `k` always goes to the same slot, and each run builds its own world, so
//! the results are bit-identical for any number of threads and equal to running each scene alone.

use crate::{scene_error, SceneError, SimulationError};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sweep2d::analysis::scene::{LoadedScene, SceneFile};

/// What one run ends with, and the chosen bodies' recorded paths.
#[derive(Clone, Debug, Default)]
struct Outcome {
    /// Final positions of the bodies' frames, flat (metres, world frame).
    positions: Vec<f64>,
    /// Impacts the continuous pass resolved, and bodies its fallback held, over the run.
    impacts: u64,
    held: u64,
    /// Simulated time of the first impact (seconds), NaN if none.
    first_impact: f64,
    /// The deepest overlap between two bodies at the end of any step (metres), 0 if none.
    deepest: f64,
    /// Kinetic energy at the end (J).
    energy: f64,
    /// The chosen bodies' positions (x, y per body per frame, metres) and angles (rad) at the
    /// start and every `record_every`-th step.
    path: Vec<f64>,
    path_angles: Vec<f64>,
}

/// One run's end, or why it stopped.
type RunOutcome = Result<Outcome, String>;

/// What to record of each run besides its end.
struct Outputs<'a> {
    /// Indices (into the scene's `bodies`) of the bodies whose paths are kept.
    paths: &'a [usize],
    /// Keep every `every`-th step's poses (and the start).
    every: u64,
}

impl Outputs<'_> {
    fn record(&self, scene: &LoadedScene, o: &mut Outcome) {
        for &i in self.paths {
            let x = scene
                .bodies
                .get(i)
                .and_then(|(id, _)| scene.world.body(*id));
            let (p, a) = x.map_or((sweep2d::Vec2::NAN, f64::NAN), |b| {
                (b.transform().translation, b.transform().angle())
            });
            o.path.extend([p.x, p.y]);
            o.path_angles.push(a);
        }
    }
}

/// Runs one built scene `steps` steps and gathers its outcome.
fn run(mut scene: LoadedScene, steps: u64, out: &Outputs<'_>) -> RunOutcome {
    let mut o = Outcome {
        first_impact: f64::NAN,
        ..Outcome::default()
    };
    out.record(&scene, &mut o);
    for k in 1..=steps {
        scene.step(None).map_err(|e| e.to_string())?;
        let events = scene.world.events();
        if o.first_impact.is_nan() {
            o.first_impact = events.impacts.first().map_or(f64::NAN, |i| i.time);
        }
        o.impacts += events.impacts.len() as u64;
        o.held += events.held.len() as u64;
        if let Some((depth, _, _)) = scene.world.deepest_overlap() {
            o.deepest = o.deepest.max(depth);
        }
        if k % out.every == 0 {
            out.record(&scene, &mut o);
        }
    }
    o.positions.reserve(2 * scene.bodies.len());
    for (id, _) in &scene.bodies {
        let p = scene
            .world
            .body(*id)
            .map_or(sweep2d::Vec2::NAN, |b| b.transform().translation);
        o.positions.extend([p.x, p.y]);
    }
    o.energy = scene.world.kinetic_energy();
    Ok(o)
}

/// Runs `n` runs on `threads` threads (0: every core), run `k` built by `build(k)`, with the
/// interpreter's lock released. Threads take the next run from a shared counter as they finish
/// one (runs differ in cost, so a fixed split would leave a thread idle), and run `k`'s outcome
/// lands in slot `k` whatever the thread count or timing.
fn run_all(
    py: Python<'_>,
    n: usize,
    threads: usize,
    steps: u64,
    out: &Outputs<'_>,
    build: &(dyn Fn(usize) -> Result<LoadedScene, String> + Sync),
) -> Vec<RunOutcome> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |c| c.get())
    } else {
        threads
    }
    .clamp(1, n.max(1));
    let next = AtomicUsize::new(0);
    py.detach(|| {
        let mut slots: Vec<Option<RunOutcome>> = vec![None; n];
        let done: Vec<Vec<(usize, RunOutcome)>> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut mine = Vec::new();
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            if k >= n {
                                break mine;
                            }
                            mine.push((k, build(k).and_then(|scene| run(scene, steps, out))));
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_default())
                .collect()
        });
        for (k, outcome) in done.into_iter().flatten() {
            slots[k] = Some(outcome);
        }
        slots
            .into_iter()
            .map(|s| s.unwrap_or_else(|| Err("not run (its thread stopped)".into())))
            .collect()
    })
}

/// The outcomes as a dict of arrays: `final_positions` (n, N, 2), `impacts`, `held`,
/// `first_impact_time`, `deepest_overlap`, `kinetic_energy` (n,), and `paths` (n, T, k, 2) and
/// `path_angles` (n, T, k) for the `k` chosen bodies over `T` frames.
fn arrays<'py>(
    py: Python<'py>,
    results: Vec<RunOutcome>,
    bodies: usize,
    out: &Outputs<'_>,
    steps: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let n = results.len();
    let frames = (steps / out.every) as usize + 1;
    let chosen = out.paths.len();
    let mut positions = Vec::with_capacity(n * bodies * 2);
    let mut path = Vec::with_capacity(n * frames * chosen * 2);
    let mut path_angles = Vec::with_capacity(n * frames * chosen);
    let mut columns: [Vec<f64>; 5] = Default::default();
    for (k, r) in results.into_iter().enumerate() {
        let o = r.map_err(|e| SimulationError::new_err(format!("run {k}: {e}")))?;
        positions.extend(o.positions);
        path.extend(o.path);
        path_angles.extend(o.path_angles);
        for (column, value) in columns.iter_mut().zip([
            o.impacts as f64,
            o.held as f64,
            o.first_impact,
            o.deepest,
            o.energy,
        ]) {
            column.push(value);
        }
    }
    let d = PyDict::new(py);
    let shaped = PyArray1::from_vec(py, positions).reshape([n, bodies, 2])?;
    d.set_item("final_positions", shaped)?;
    let names = [
        "impacts",
        "held",
        "first_impact_time",
        "deepest_overlap",
        "kinetic_energy",
    ];
    for (name, column) in names.into_iter().zip(columns) {
        d.set_item(name, PyArray1::from_vec(py, column))?;
    }
    let path = PyArray1::from_vec(py, path).reshape([n, frames, chosen, 2])?;
    d.set_item("paths", path)?;
    let angles = PyArray1::from_vec(py, path_angles).reshape([n, frames, chosen])?;
    d.set_item("path_angles", angles)?;
    Ok(d)
}

/// Checks the recorded bodies' indices and the recording interval against a scene of `bodies`
/// bodies.
fn outputs(paths: &[usize], every: u64, bodies: usize) -> PyResult<Outputs<'_>> {
    if every == 0 {
        return Err(PyValueError::new_err("record_every must be at least 1"));
    }
    if let Some(&bad) = paths.iter().find(|&&i| i >= bodies) {
        return Err(PyValueError::new_err(format!(
            "paths names body {bad}, but the scene has {bodies} bodies (ids 0..{bodies})"
        )));
    }
    Ok(Outputs { paths, every })
}

/// Runs `n` copies of a scene (JSON text) from nearby starts, run `k` shifted with seed
/// `seed + k` by up to `shift` metres, on `threads` threads (0: every core). Returns the arrays
/// of [`arrays`].
#[pyfunction]
#[pyo3(signature = (text, n, steps, seed, shift, threads = 0, paths = Vec::new(), record_every = 1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _ensemble<'py>(
    py: Python<'py>,
    text: &str,
    n: usize,
    steps: u64,
    seed: u64,
    shift: f64,
    threads: usize,
    paths: Vec<usize>,
    record_every: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let file = SceneFile::from_json(text).map_err(scene_error)?;
    // Build and shift once up front so a bad scene or shift is a SceneError, not a failed run.
    let mut probe = file.build().map_err(scene_error)?;
    probe
        .shift_dynamic_bodies(seed, shift)
        .map_err(scene_error)?;
    let bodies = probe.bodies.len();
    let out = outputs(&paths, record_every, bodies)?;
    let build = |k: usize| -> Result<LoadedScene, String> {
        let mut scene = file.build().map_err(|e| e.to_string())?;
        scene
            .shift_dynamic_bodies(seed.wrapping_add(k as u64), shift)
            .map_err(|e| e.to_string())?;
        Ok(scene)
    };
    let results = run_all(py, n, threads, steps, &out, &build);
    arrays(py, results, bodies, &out, steps)
}

/// Runs one scene (JSON text) per run, as written (the package writes them from a parameter
/// grid), on `threads` threads (0: every core). Every scene must build and have the same number
/// of bodies; the first that does not is a `SceneError` naming its run. Returns the arrays of
/// [`arrays`].
#[pyfunction]
#[pyo3(signature = (texts, steps, threads = 0, paths = Vec::new(), record_every = 1))]
pub(crate) fn _ensemble_scenes<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    steps: u64,
    threads: usize,
    paths: Vec<usize>,
    record_every: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let mut files = Vec::with_capacity(texts.len());
    let mut bodies = None;
    for (k, text) in texts.iter().enumerate() {
        let run_error = |e: &dyn std::fmt::Display| SceneError::new_err(format!("run {k}: {e}"));
        let file = SceneFile::from_json(text).map_err(|e| run_error(&e))?;
        let count = file.build().map_err(|e| run_error(&e))?.bodies.len();
        if *bodies.get_or_insert(count) != count {
            return Err(run_error(&format!(
                "the scene has {count} bodies where run 0's has {}; every run of an ensemble \
                 must have the same bodies",
                bodies.unwrap_or(0)
            )));
        }
        files.push(file);
    }
    let bodies = bodies.unwrap_or(0);
    let out = outputs(&paths, record_every, bodies)?;
    let build = |k: usize| files[k].build().map_err(|e| e.to_string());
    let results = run_all(py, files.len(), threads, steps, &out, &build);
    arrays(py, results, bodies, &out, steps)
}
