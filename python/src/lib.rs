//! `sweep2d._native`: the Python extension module of sweep2d (PyO3), wrapped by the package in
//! `python/sweep2d/`. It loads scene files (the command line's validation and messages, raised as
//! `sweep2d.SceneError`, a `ValueError`), steps worlds, records trajectories into NumPy arrays,
//! pickles worlds through the snapshot format (bit for bit), and runs ensembles of perturbed
//! starts on every core with the interpreter's lock released.
//!
//! Bodies are named in Python by their index in the scene file's `bodies` list (a scene's
//! character, when it has one, comes last). Units are SI, world frame, as in the engine.

mod ensemble;
mod mover;

use numpy::PyArray1;
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::collections::HashMap;
use sweep2d::analysis::record::EventRecord;
use sweep2d::analysis::replay::HtmlReplay;
use sweep2d::analysis::scene::{
    BodySpec, CharacterState, JointSpec, LoadedScene, SceneCharacter, SceneFile,
};
use sweep2d::analysis::testkit;
use sweep2d::{BodyId, QueryFilter, Shape, Transform, Vec2, World};

create_exception!(
    _native,
    SceneError,
    PyValueError,
    "A scene file or dict that cannot be read or built; the message names the body and the field."
);

create_exception!(
    _native,
    SimulationError,
    PyRuntimeError,
    "A step that could not be taken: it would have left a non-finite state and was undone."
);

/// Every body's pose at one moment (the testkit's `Snapshot`), to check a step against.
#[pyclass(module = "sweep2d._native", name = "Poses", frozen)]
struct Poses(testkit::Snapshot);

/// A world built from a scene, with its bodies in file order. The engine's world keeps scratch
/// caches that are not shared between threads: a mutex (never contended, as the interpreter calls
/// one method at a time on an object) makes the object safe to pass between Python threads.
#[pyclass(module = "sweep2d._native", name = "World")]
struct PyWorld {
    scene: std::sync::Mutex<LoadedScene>,
}

impl PyWorld {
    fn new(scene: LoadedScene) -> Self {
        Self {
            scene: std::sync::Mutex::new(scene),
        }
    }

    /// The scene, locked (a poisoned lock, left by a panic in a step, still holds a whole world:
    /// every step either finishes or is undone).
    fn lock(&self) -> std::sync::MutexGuard<'_, LoadedScene> {
        self.scene
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn scene_error(e: impl std::fmt::Display) -> PyErr {
    SceneError::new_err(e.to_string())
}

/// Reads a scene from JSON text and builds it.
#[pyfunction]
fn load_scene_json(text: &str) -> PyResult<PyWorld> {
    let scene = SceneFile::load(text).map_err(scene_error)?;
    Ok(PyWorld::new(scene))
}

/// Reads a scene file (at most 16 MiB) and builds it.
/// One of the engine's benchmark scenes (`sweep2d::analysis::scenes`) as a world, its bodies in
/// creation order (named by their names, or `body <index>`): `pyramid` (rows = `count`),
/// `tall_stack`, `falling_mixed`, `hanging_chains` (`count` chains of 10 links), `bullet_rain`
/// and `newtons_cradle` (`count` bodies at `speed` m/s), `bouncing_ball` (at `speed`).
#[pyfunction]
#[pyo3(signature = (name, count = 10, speed = 10.0))]
fn _builtin(name: &str, count: usize, speed: f64) -> PyResult<PyWorld> {
    use sweep2d::analysis::scenes;
    if count == 0 || count > 100_000 || !(speed.is_finite() && speed > 0.0 && speed <= 1e5) {
        return Err(PyValueError::new_err(format!(
            "count must be from 1 to 100000 and speed a positive number of m/s up to 1e5; got \
             count {count}, speed {speed}"
        )));
    }
    let scene = match name {
        "pyramid" => scenes::pyramid(count),
        "tall_stack" => scenes::tall_stack(count),
        "falling_mixed" => scenes::falling_mixed(count),
        "hanging_chains" => scenes::hanging_chains(count, 10),
        "bullet_rain" => scenes::bullet_rain(count, speed),
        "newtons_cradle" => scenes::newtons_cradle(count, speed),
        "bouncing_ball" => scenes::bouncing_ball(speed),
        _ => {
            return Err(PyValueError::new_err(format!(
                "no built-in scene {name:?}; they are pyramid, tall_stack, falling_mixed, \
                 hanging_chains, bullet_rain, newtons_cradle, bouncing_ball"
            )))
        }
    };
    let world = scene.world;
    let bodies = world
        .bodies()
        .enumerate()
        .map(|(k, (id, b))| {
            (
                id,
                b.name().map_or_else(|| format!("body {k}"), str::to_string),
            )
        })
        .collect();
    Ok(PyWorld::new(LoadedScene {
        world,
        bodies,
        steps: 600,
        character: None,
    }))
}

/// The built-in demonstration scene (`sweep2d demo`) as scene-file JSON text.
#[pyfunction]
fn _demo_scene_json() -> PyResult<String> {
    serde_json::to_string(&sweep2d::analysis::scene::demo()).map_err(scene_error)
}

#[pyfunction]
fn load_scene_file(path: std::path::PathBuf) -> PyResult<PyWorld> {
    let file = SceneFile::read(&path).map_err(scene_error)?;
    let scene = file.build().map_err(scene_error)?;
    Ok(PyWorld::new(scene))
}

/// What a pickle holds besides the world's snapshot: the bodies in file order (name, slot and
/// generation: a restored world keeps every body's slot and generation) and the scene's
/// character, if it has one.
#[derive(serde::Serialize, serde::Deserialize)]
struct PickleHead {
    bodies: Vec<(String, u32, u32)>,
    character: Option<CharacterState>,
}

/// The pickled form of a world: the length of its [`PickleHead`] (8 bytes, little-endian), the
/// head as JSON, then the world's snapshot.
fn pickled(scene: &LoadedScene) -> PyResult<Vec<u8>> {
    let head = PickleHead {
        bodies: scene
            .bodies
            .iter()
            .map(|(id, n)| (n.clone(), id.index(), id.generation()))
            .collect(),
        character: scene.character.as_ref().map(SceneCharacter::state),
    };
    let head = serde_json::to_string(&head).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut out = (head.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(head.as_bytes());
    out.extend_from_slice(&scene.world.snapshot());
    Ok(out)
}

/// A world from its pickled form (see [`pickled`]).
#[pyfunction]
fn _restore(state: &[u8]) -> PyResult<PyWorld> {
    let bad = |what: &str| PyValueError::new_err(format!("not a pickled sweep2d world: {what}"));
    let head: [u8; 8] = state
        .get(..8)
        .and_then(|h| h.try_into().ok())
        .ok_or_else(|| bad("too short"))?;
    let len = usize::try_from(u64::from_le_bytes(head)).map_err(|_| bad("bad length"))?;
    let head = state
        .get(8..8usize.saturating_add(len))
        .ok_or_else(|| bad("cut short"))?;
    let head: PickleHead = std::str::from_utf8(head)
        .ok()
        .and_then(|t| serde_json::from_str(t).ok())
        .ok_or_else(|| bad("its head (bodies and character)"))?;
    let world = World::restore(&state[8 + len..]).map_err(|e| bad(&e.to_string()))?;
    let by_slot: HashMap<(u32, u32), BodyId> = world
        .bodies()
        .map(|(id, _)| ((id.index(), id.generation()), id))
        .collect();
    let bodies = head
        .bodies
        .into_iter()
        .map(|(n, slot, generation)| by_slot.get(&(slot, generation)).map(|id| (*id, n)))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| bad("a body listed in it is not in its world"))?;
    let character = head
        .character
        .map(|c| SceneCharacter::from_state(&c, &world))
        .transpose()
        .map_err(|e| bad(&e.to_string()))?;
    Ok(PyWorld::new(LoadedScene {
        world,
        bodies,
        steps: 0,
        character,
    }))
}

/// Body `index` of `scene` (its place in the file) read by `f`, or an `IndexError`.
fn with_body<T>(
    scene: &LoadedScene,
    index: usize,
    f: impl FnOnce(&sweep2d::Body) -> T,
) -> PyResult<T> {
    let id = scene.bodies.get(index).map(|(id, _)| *id).ok_or_else(|| {
        PyIndexError::new_err(format!(
            "no body {index}: the scene has {} (ids 0 to {})",
            scene.bodies.len(),
            scene.bodies.len().saturating_sub(1)
        ))
    })?;
    scene
        .world
        .body(id)
        .map(f)
        .ok_or_else(|| PyIndexError::new_err(format!("body {index} was removed")))
}

/// Steps `scene` `n` times, stopping at the first step that fails.
fn advance(scene: &mut LoadedScene, n: u64) -> Result<(), String> {
    for _ in 0..n {
        scene.step(None).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A body's error (a refused call) as a Python `ValueError`.
fn body_error(e: sweep2d::BodyError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A shape from its scene-file form (JSON text of `{"type": "circle", "radius": 0.5}` and the
/// like).
fn shape_from(text: &str) -> PyResult<Shape> {
    serde_json::from_str(text).map_err(|e| SceneError::new_err(format!("shape: {e}")))
}

/// A pose: position (metres) and angle (radians), checked finite.
fn pose(position: (f64, f64), angle: f64) -> PyResult<Transform> {
    let x = Transform::new(Vec2::new(position.0, position.1), angle);
    if x.is_finite() {
        Ok(x)
    } else {
        Err(PyValueError::new_err("position and angle must be finite"))
    }
}

impl PyWorld {
    /// Runs a world call on body `id`, turning a refusal into `ValueError`.
    fn with_id(
        &self,
        id: usize,
        f: impl FnOnce(&mut World, BodyId) -> Result<(), sweep2d::BodyError>,
    ) -> PyResult<()> {
        let mut scene = self.lock();
        with_body(&scene, id, |_| ())?;
        let body = scene.bodies[id].0;
        f(&mut scene.world, body).map_err(body_error)
    }
}

/// The id of the `k`-th joint (in the order they were added).
fn joint_id(world: &World, k: usize) -> PyResult<sweep2d::JointId> {
    let ids = world.joint_ids();
    ids.get(k).copied().ok_or_else(|| {
        PyIndexError::new_err(format!(
            "no joint {k}: the world has {} joints (0..{})",
            ids.len(),
            ids.len()
        ))
    })
}

/// One convex piece of an outline: its points (metres) and rounding radius.
type Piece = (Vec<(f64, f64)>, f64);

/// The convex pieces of `shape` placed at `x`, each as (points, rounding radius) in the frame
/// `x` maps into: a circle is its centre, a capsule its two ends, a polygon its vertices.
fn outline(shape: &Shape, x: &Transform, out: &mut Vec<Piece>) {
    let pts = |ps: &[Vec2]| {
        ps.iter()
            .map(|p| {
                let q = x.transform_point(*p);
                (q.x, q.y)
            })
            .collect::<Vec<_>>()
    };
    match shape {
        Shape::Circle(c) => out.push((pts(&[c.center()]), c.radius())),
        Shape::Capsule(c) => out.push((pts(&[c.a(), c.b()]), c.radius())),
        Shape::Polygon(p) => out.push((pts(p.vertices()), p.radius())),
        Shape::Compound(c) => {
            for piece in c.pieces() {
                outline(&piece.shape, &(*x * piece.transform), out);
            }
        }
    }
}

/// The world point `point`, or body `b`'s centre of mass when it is `None`.
fn at_point(world: &World, b: BodyId, point: Option<(f64, f64)>) -> Vec2 {
    point.map_or_else(
        || {
            world
                .body(b)
                .map_or(Vec2::ZERO, |body| body.center_of_mass())
        },
        |p| Vec2::new(p.0, p.1),
    )
}

/// A query hit as a dict: the body's id, the fraction, the point and the normal.
fn hit_dict<'py>(
    py: Python<'py>,
    body: Option<usize>,
    fraction: f64,
    point: Vec2,
    normal: Vec2,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("body", body)?;
    d.set_item("fraction", fraction)?;
    d.set_item("point", (point.x, point.y))?;
    d.set_item("normal", (normal.x, normal.y))?;
    Ok(d)
}

/// An event row: the two bodies' ids and the time (seconds).
fn pair_row<'py>(
    py: Python<'py>,
    a: Option<usize>,
    b: Option<usize>,
    time: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let r = PyDict::new(py);
    r.set_item("body_a", a)?;
    r.set_item("body_b", b)?;
    r.set_item("time", time)?;
    Ok(r)
}

/// Body ids to their index in the scene's list.
fn index_of(scene: &LoadedScene) -> HashMap<BodyId, usize> {
    scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect()
}

/// What `World.run` records, column by column (assembled into arrays by the package).
struct Frames {
    time: Vec<f64>,
    positions: Vec<f64>,
    angles: Vec<f64>,
    velocities: Vec<f64>,
    angular_velocities: Vec<f64>,
    /// Every event of the run, as `events.csv` has them (the package takes the impacts from
    /// them).
    events: Vec<EventRecord>,
}

impl Frames {
    fn record(&mut self, scene: &LoadedScene) {
        self.time.push(scene.world.time());
        for (id, _) in &scene.bodies {
            let (p, a, v, w) = scene.world.body(*id).map_or(
                (sweep2d::Vec2::NAN, f64::NAN, sweep2d::Vec2::NAN, f64::NAN),
                |b| {
                    let x = b.transform();
                    (
                        x.translation,
                        x.angle(),
                        b.linear_velocity(),
                        b.angular_velocity(),
                    )
                },
            );
            self.positions.extend([p.x, p.y]);
            self.angles.push(a);
            self.velocities.extend([v.x, v.y]);
            self.angular_velocities.push(w);
        }
    }
}

/// An event field's column name and how to read it.
type EventColumn = (&'static str, fn(&EventRecord) -> f64);

/// A run's events as columns (bodies by their scene index, -1 for none): `step`, `time`,
/// `kind`, `body_a`, `body_b`, `fraction`, `nx`, `ny`, `x`, `y`, `speed`, `impulse`.
fn event_columns<'py>(
    py: Python<'py>,
    scene: &LoadedScene,
    events: &[EventRecord],
) -> PyResult<Bound<'py, PyDict>> {
    let by_name: HashMap<&str, i64> = scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, (_, n))| (n.as_str(), i as i64))
        .collect();
    let body = |n: &str| by_name.get(n).copied().unwrap_or(-1);
    let d = PyDict::new(py);
    let ints: [(&str, Vec<i64>); 3] = [
        ("step", events.iter().map(|e| e.step as i64).collect()),
        ("body_a", events.iter().map(|e| body(&e.body_a)).collect()),
        ("body_b", events.iter().map(|e| body(&e.body_b)).collect()),
    ];
    for (name, column) in ints {
        d.set_item(name, PyArray1::from_vec(py, column))?;
    }
    let floats: [EventColumn; 8] = [
        ("time", |e| e.time),
        ("fraction", |e| e.fraction),
        ("nx", |e| e.normal[0]),
        ("ny", |e| e.normal[1]),
        ("x", |e| e.point[0]),
        ("y", |e| e.point[1]),
        ("speed", |e| e.relative_speed),
        ("impulse", |e| e.impulse),
    ];
    for (name, f) in floats {
        d.set_item(name, PyArray1::from_vec(py, events.iter().map(f).collect()))?;
    }
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    d.set_item("kind", kinds)?;
    Ok(d)
}

#[pymethods]
impl PyWorld {
    /// Advances `n` fixed steps (the interpreter's lock is released meanwhile). Raises
    /// `SimulationError` if a step would leave a non-finite state (that step is undone).
    #[pyo3(signature = (n = 1))]
    fn step(&self, py: Python<'_>, n: u64) -> PyResult<()> {
        let mut guard = self.lock();
        let scene: &mut LoadedScene = &mut guard;
        py.detach(|| advance(scene, n))
            .map_err(SimulationError::new_err)
    }

    /// The body ids: their places in the scene's `bodies` list (the character last).
    fn body_ids(&self) -> Vec<usize> {
        (0..self.lock().bodies.len()).collect()
    }

    /// The bodies' names, in id order.
    fn body_names(&self) -> Vec<String> {
        self.lock().bodies.iter().map(|(_, n)| n.clone()).collect()
    }

    /// The id of the body called `name`.
    fn body_id(&self, name: &str) -> PyResult<usize> {
        self.lock()
            .bodies
            .iter()
            .position(|(_, n)| n == name)
            .ok_or_else(|| PyIndexError::new_err(format!("no body is named {name:?}")))
    }

    /// Position of body `id`'s frame (metres, world): `(x, y)`.
    fn position(&self, id: usize) -> PyResult<(f64, f64)> {
        let p = with_body(&self.lock(), id, |b| b.transform().translation)?;
        Ok((p.x, p.y))
    }

    /// Angle of body `id`'s frame (radians, counter-clockwise).
    fn angle(&self, id: usize) -> PyResult<f64> {
        with_body(&self.lock(), id, |b| b.transform().angle())
    }

    /// Velocity of body `id`'s centre of mass (m/s): `(vx, vy)`.
    fn velocity(&self, id: usize) -> PyResult<(f64, f64)> {
        let v = with_body(&self.lock(), id, |b| b.linear_velocity())?;
        Ok((v.x, v.y))
    }

    /// Angular velocity of body `id` (rad/s).
    fn angular_velocity(&self, id: usize) -> PyResult<f64> {
        with_body(&self.lock(), id, |b| b.angular_velocity())
    }

    /// Simulated time (seconds).
    #[getter]
    fn time(&self) -> f64 {
        self.lock().world.time()
    }

    /// Steps taken.
    #[getter]
    fn step_count(&self) -> u64 {
        self.lock().world.step_count()
    }

    /// The fixed step (seconds).
    #[getter]
    fn dt(&self) -> f64 {
        self.lock().world.config().dt
    }

    /// The number of steps the scene file asks for (0 for an unpickled world).
    #[getter]
    fn scene_steps(&self) -> u64 {
        self.lock().steps
    }

    /// The world's settings (`WorldConfig`, see `docs/simulation.md`) as JSON text: gravity
    /// (m/s²), `dt` (s), substeps, the continuous pass, contact and joint softness, restitution
    /// threshold (m/s), mixing rules, sleeping.
    fn _config(&self) -> PyResult<String> {
        serde_json::to_string(self.lock().world.config())
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Replaces the world's settings with `text` (JSON of every field, as `_config` gives
    /// them). Raises `ValueError` naming a field the engine refuses; nothing changes then.
    fn _set_config(&self, text: &str) -> PyResult<()> {
        let config: sweep2d::WorldConfig = serde_json::from_str(text)
            .map_err(|e| PyValueError::new_err(format!("world settings: {e}")))?;
        self.lock()
            .world
            .set_config(config)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Total kinetic energy (J).
    fn kinetic_energy(&self) -> f64 {
        self.lock().world.kinetic_energy()
    }

    /// The deepest overlap between two bodies now: `(depth in metres, id a, id b)`, or `None`
    /// when nothing overlaps. Exact shape queries over the pairs the broad phase tracks: for
    /// analysis and checks, not for every frame.
    fn deepest_overlap(&self) -> Option<(f64, Option<usize>, Option<usize>)> {
        let scene = self.lock();
        let index = index_of(&scene);
        let (depth, a, b) = scene.world.deepest_overlap()?;
        Some((depth, index.get(&a).copied(), index.get(&b).copied()))
    }

    /// Every body's pose and centre of mass now, for `_tunnel_error` after a step
    /// (`sweep2d.testing.assert_no_tunnelling`).
    fn _poses(&self) -> Poses {
        Poses(testkit::Snapshot::of(&self.lock().world))
    }

    /// Why some dynamic body passed through another since `before` (the engine's testkit check,
    /// see `docs/reliability.md`), or `None`.
    fn _tunnel_error(&self, before: &Poses) -> Option<String> {
        testkit::assert_no_tunnelling(&before.0, &self.lock().world)
            .err()
            .map(|e| match e {
                proptest::test_runner::TestCaseError::Fail(why)
                | proptest::test_runner::TestCaseError::Reject(why) => why.to_string(),
            })
    }

    /// Steps `steps` times, recording every `record_every`-th step (and the start): a dict of
    /// flat columns (frames, and every event as `events.csv` has it) the package shapes into
    /// arrays (`sweep2d.Recording`).
    #[pyo3(signature = (steps, record_every = 1))]
    fn _run<'py>(
        &self,
        py: Python<'py>,
        steps: u64,
        record_every: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        if record_every == 0 {
            return Err(PyValueError::new_err("record_every must be at least 1"));
        }
        let mut guard = self.lock();
        let scene = &mut *guard;
        let mut frames = Frames {
            time: Vec::new(),
            positions: Vec::new(),
            angles: Vec::new(),
            velocities: Vec::new(),
            angular_velocities: Vec::new(),
            events: Vec::new(),
        };
        let outcome = py.detach(|| {
            frames.record(scene);
            // The same run as a self-contained HTML replay (`Recording.to_html`), in memory.
            let io = |e: std::io::Error| e.to_string();
            let mut replay = HtmlReplay::new(
                Vec::new(),
                &scene.world,
                &scene.bodies,
                "sweep2d",
                record_every,
            )
            .map_err(io)?;
            for k in 1..=steps {
                scene.step(None).map_err(|e| e.to_string())?;
                frames
                    .events
                    .extend(sweep2d::analysis::record::events_of(&scene.world));
                replay.record(&scene.world).map_err(io)?;
                if k % record_every == 0 {
                    frames.record(scene);
                }
            }
            let html = replay.finish(&scene.world).map_err(io)?;
            String::from_utf8(html).map_err(|e| e.to_string())
        });
        let html = outcome.map_err(SimulationError::new_err)?;
        let d = PyDict::new(py);
        d.set_item("time", PyArray1::from_vec(py, frames.time))?;
        d.set_item("positions", PyArray1::from_vec(py, frames.positions))?;
        d.set_item("angles", PyArray1::from_vec(py, frames.angles))?;
        d.set_item("velocities", PyArray1::from_vec(py, frames.velocities))?;
        d.set_item(
            "angular_velocities",
            PyArray1::from_vec(py, frames.angular_velocities),
        )?;
        d.set_item("events", event_columns(py, scene, &frames.events)?)?;
        d.set_item("html", html)?;
        let names: Vec<String> = scene.bodies.iter().map(|(_, n)| n.clone()).collect();
        d.set_item("names", names)?;
        Ok(d)
    }

    /// Adds a body described as a scene file describes one (JSON text of the dict): returns its
    /// id. Raises `SceneError` naming the field.
    fn _add_body(&self, spec: &str) -> PyResult<usize> {
        let spec: BodySpec =
            serde_json::from_str(spec).map_err(|e| SceneError::new_err(format!("body: {e}")))?;
        self.lock().add_body(&spec).map_err(scene_error)
    }

    /// Adds a joint described as a scene file describes one (JSON text), its bodies named by
    /// id or name. Raises `SceneError` naming the field.
    fn _add_joint(&self, spec: &str) -> PyResult<usize> {
        let spec: JointSpec =
            serde_json::from_str(spec).map_err(|e| SceneError::new_err(format!("joint: {e}")))?;
        let mut scene = self.lock();
        let k = scene.world.joint_count();
        scene.add_joint(k, &spec).map(|_| k).map_err(scene_error)
    }

    /// Sets the reaction force (N) and torque (N·m) above which a step reports joint `joint`
    /// (its index in the order joints were added) in `events()["joint_events"]`; infinity for
    /// never.
    #[pyo3(signature = (joint, force = f64::INFINITY, torque = f64::INFINITY))]
    fn set_joint_event_thresholds(&self, joint: usize, force: f64, torque: f64) -> PyResult<()> {
        let mut scene = self.lock();
        let id = joint_id(&scene.world, joint)?;
        scene
            .world
            .set_joint_event_thresholds(id, force, torque)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The force (N, world frame) and torque (N·m) joint `joint` applied to its body B in the
    /// last step: `(fx, fy, torque)`.
    fn joint_reaction(&self, joint: usize) -> PyResult<(f64, f64, f64)> {
        let scene = self.lock();
        let id = joint_id(&scene.world, joint)?;
        let r = scene
            .world
            .joint_reaction(id)
            .ok_or_else(|| PyIndexError::new_err(format!("joint {joint} was removed")))?;
        Ok((r.force.x, r.force.y, r.torque))
    }

    /// Reports contact forces on body `id`'s shapes from `threshold` newtons up (in
    /// `events()["contact_forces"]`), or stops them with `None`.
    #[pyo3(signature = (id, threshold))]
    fn set_contact_force_threshold(&self, id: usize, threshold: Option<f64>) -> PyResult<()> {
        self.with_id(id, |w, b| {
            // One check for all (the same value), so a refused threshold changes nothing.
            for shape in w.shape_ids(b) {
                w.set_contact_force_threshold(shape, threshold)?;
            }
            Ok(())
        })
    }

    /// Sets body `id`'s velocity (m/s) and angular velocity (rad/s).
    #[pyo3(signature = (id, velocity, angular_velocity = 0.0))]
    fn set_velocity(&self, id: usize, velocity: (f64, f64), angular_velocity: f64) -> PyResult<()> {
        let v = Vec2::new(velocity.0, velocity.1);
        self.with_id(id, |w, b| w.set_velocity(b, v, angular_velocity))
    }

    /// Places body `id`'s frame at `position` (metres) and `angle` (radians).
    #[pyo3(signature = (id, position, angle = 0.0))]
    fn set_transform(&self, id: usize, position: (f64, f64), angle: f64) -> PyResult<()> {
        let x = pose(position, angle)?;
        self.with_id(id, |w, b| w.set_transform(b, x))
    }

    /// Applies an impulse (N·s, world) at a world point (metres; the centre of mass by default).
    #[pyo3(signature = (id, impulse, point = None))]
    fn apply_impulse(
        &self,
        id: usize,
        impulse: (f64, f64),
        point: Option<(f64, f64)>,
    ) -> PyResult<()> {
        let j = Vec2::new(impulse.0, impulse.1);
        self.with_id(id, |w, b| w.apply_impulse(b, j, at_point(w, b, point)))
    }

    /// Applies a torque (N·m) for the next step.
    fn apply_torque(&self, id: usize, torque: f64) -> PyResult<()> {
        self.with_id(id, |w, b| w.apply_torque(b, torque))
    }

    /// Drives kinematic body `id` to `position` (m) and `angle` (rad) by the end of the next
    /// step, with the velocity that takes it there (what it pushes sees that velocity).
    #[pyo3(signature = (id, position, angle = 0.0))]
    fn set_kinematic_target(&self, id: usize, position: (f64, f64), angle: f64) -> PyResult<()> {
        let target = pose(position, angle)?;
        self.with_id(id, |w, b| w.set_kinematic_target(b, target))
    }

    /// Puts body `id`'s whole island to sleep now.
    fn put_to_sleep(&self, id: usize) -> PyResult<()> {
        self.with_id(id, |w, b| w.put_to_sleep(b))
    }

    /// Wakes body `id` (and, at the end of the next step, its island).
    fn wake(&self, id: usize) -> PyResult<()> {
        self.with_id(id, |w, b| w.wake(b))
    }

    /// Whether body `id` is awake.
    fn is_awake(&self, id: usize) -> PyResult<bool> {
        with_body(&self.lock(), id, |b| b.is_awake())
    }

    /// Lets body `id` sleep (the default) or keeps it awake.
    fn set_allow_sleep(&self, id: usize, allow: bool) -> PyResult<()> {
        self.with_id(id, |w, b| w.set_allow_sleep(b, allow))
    }

    /// Sets the collision filter of every shape of body `id` (`category` and `mask` bits,
    /// `group`: shapes of one positive group always collide, of one negative group never).
    #[pyo3(signature = (id, category = 1, mask = u64::MAX, group = 0))]
    fn set_filter(&self, id: usize, category: u64, mask: u64, group: i32) -> PyResult<()> {
        let filter = sweep2d::Filter {
            category,
            mask,
            group,
        };
        self.with_id(id, |w, b| {
            w.shape_ids(b)
                .into_iter()
                .try_for_each(|s| w.set_filter(s, filter))
        })
    }

    /// Sets the friction (≥ 0) and restitution (≥ 0) of every shape of body `id`.
    fn set_material(&self, id: usize, friction: f64, restitution: f64) -> PyResult<()> {
        self.with_id(id, |w, b| {
            // One check for all (the same values), so a refused call changes nothing.
            w.shape_ids(b)
                .into_iter()
                .try_for_each(|s| w.set_shape_material(s, friction, restitution))
        })
    }

    /// Sets joint `joint`'s motor speed (rad/s for revolute, m/s for prismatic and wheel; the
    /// motor must be enabled in its definition).
    fn set_motor_speed(&self, joint: usize, speed: f64) -> PyResult<()> {
        let mut scene = self.lock();
        let id = joint_id(&scene.world, joint)?;
        scene
            .world
            .set_motor_speed(id, speed)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Moves mouse joint `joint`'s target to `target` (m, world).
    fn set_joint_target(&self, joint: usize, target: (f64, f64)) -> PyResult<()> {
        let mut scene = self.lock();
        let id = joint_id(&scene.world, joint)?;
        scene
            .world
            .set_joint_target(id, Vec2::new(target.0, target.1))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// An explosion at `position` (m): bodies within `radius` (m) get an impulse of
    /// `impulse_per_length` (N·s per metre of their outline facing it), fading to 0 over
    /// `falloff` metres past the radius (Box2D's rule, `docs/bodies.md`). Returns the ids pushed.
    #[pyo3(signature = (position, radius, impulse_per_length, falloff = 0.0))]
    fn explode(
        &self,
        position: (f64, f64),
        radius: f64,
        impulse_per_length: f64,
        falloff: f64,
    ) -> PyResult<Vec<usize>> {
        let mut scene = self.lock();
        let def = sweep2d::world::ExplosionDef {
            position: Vec2::new(position.0, position.1),
            radius,
            falloff,
            impulse_per_length,
            filter: QueryFilter::default(),
        };
        let pushed = scene
            .world
            .explode(&def)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let index = index_of(&scene);
        let mut ids: Vec<usize> = pushed
            .iter()
            .filter_map(|b| index.get(b).copied())
            .collect();
        ids.sort_unstable();
        Ok(ids)
    }

    /// Total linear momentum of the dynamic bodies (kg·m/s).
    fn linear_momentum(&self) -> (f64, f64) {
        let p = self.lock().world.linear_momentum();
        (p.x, p.y)
    }

    /// Applies a force (N, world) for the next step at a world point (metres; the centre of
    /// mass by default).
    #[pyo3(signature = (id, force, point = None))]
    fn apply_force(&self, id: usize, force: (f64, f64), point: Option<(f64, f64)>) -> PyResult<()> {
        let f = Vec2::new(force.0, force.1);
        self.with_id(id, |w, b| w.apply_force(b, f, at_point(w, b, point)))
    }

    /// Changes body `id`'s kind: `"static"`, `"kinematic"` or `"dynamic"`.
    fn set_body_kind(&self, id: usize, kind: &str) -> PyResult<()> {
        let kind = match kind {
            "static" => sweep2d::BodyKind::Static,
            "kinematic" => sweep2d::BodyKind::Kinematic,
            "dynamic" => sweep2d::BodyKind::Dynamic,
            other => {
                return Err(PyValueError::new_err(format!(
                    "kind {other:?}: give \"static\", \"kinematic\" or \"dynamic\""
                )))
            }
        };
        self.with_id(id, |w, b| w.set_body_kind(b, kind))
    }

    /// Takes body `id` out of the simulation and the queries (`False`) or puts it back.
    fn set_enabled(&self, id: usize, enabled: bool) -> PyResult<()> {
        self.with_id(id, |w, b| w.set_enabled(b, enabled))
    }

    /// Locks (or unlocks) body `id`'s rotation.
    fn set_fixed_rotation(&self, id: usize, fixed: bool) -> PyResult<()> {
        self.with_id(id, |w, b| w.set_fixed_rotation(b, fixed))
    }

    /// Locks (or unlocks) body `id`'s translation along world x and y.
    fn set_locked_translation(&self, id: usize, lock_x: bool, lock_y: bool) -> PyResult<()> {
        self.with_id(id, |w, b| w.set_locked_translation(b, lock_x, lock_y))
    }

    /// Sets body `id`'s gravity scale (within ±1e3).
    fn set_gravity_scale(&self, id: usize, scale: f64) -> PyResult<()> {
        self.with_id(id, |w, b| w.set_gravity_scale(b, scale))
    }

    /// Sets body `id`'s linear and angular damping (1/s).
    fn set_damping(&self, id: usize, linear: f64, angular: f64) -> PyResult<()> {
        self.with_id(id, |w, b| w.set_damping(b, linear, angular))
    }

    /// Gives dynamic body `id` a mass (kg), inertia about its centre of mass (kg·m²) and centre
    /// of mass (metres, body frame) instead of its shapes'; `None` for all three goes back.
    #[pyo3(signature = (id, mass = None, inertia = None, center = None))]
    fn set_mass_data(
        &self,
        id: usize,
        mass: Option<f64>,
        inertia: Option<f64>,
        center: Option<(f64, f64)>,
    ) -> PyResult<()> {
        let data = match (mass, inertia, center) {
            (None, None, None) => None,
            (Some(mass), Some(inertia), Some(c)) => Some(sweep2d::MassData {
                mass,
                inertia,
                center: Vec2::new(c.0, c.1),
            }),
            _ => {
                return Err(PyValueError::new_err(
                    "give mass, inertia and center together, or none of them",
                ))
            }
        };
        self.with_id(id, |w, b| w.set_mass_data(b, data))
    }

    /// Each body's solid outline in its own frame (metres): a list per body of convex pieces,
    /// each `(points, radius)` (a circle's centre, a capsule's ends, a polygon's vertices, and
    /// the rounding radius), for drawing.
    fn _outlines(&self) -> Vec<Vec<Piece>> {
        let scene = self.lock();
        scene
            .bodies
            .iter()
            .map(|(id, _)| {
                let mut pieces = Vec::new();
                if let Some(b) = scene.world.body(*id) {
                    for (_, def) in b.shapes().filter(|(_, d)| !d.sensor) {
                        outline(&def.shape, &def.offset, &mut pieces);
                    }
                }
                pieces
            })
            .collect()
    }

    /// The first body the ray from `origin` along `translation` (metres) hits: a dict with
    /// `body`, `fraction`, `point` and `normal`, or `None`.
    fn ray_cast<'py>(
        &self,
        py: Python<'py>,
        origin: (f64, f64),
        translation: (f64, f64),
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let scene = self.lock();
        let hit = scene.world.ray_cast(
            Vec2::new(origin.0, origin.1),
            Vec2::new(translation.0, translation.1),
        );
        let Some(hit) = hit else {
            return Ok(None);
        };
        let body = index_of(&scene).get(&hit.body).copied();
        hit_dict(py, body, hit.hit.fraction, hit.hit.point, hit.hit.normal).map(Some)
    }

    /// The first body a shape (scene-file form, JSON text) at `position`/`angle` meets moving by
    /// `translation` (metres): a dict with `body`, `fraction`, `point`, `normal`, or `None`.
    fn _shape_cast<'py>(
        &self,
        py: Python<'py>,
        shape: &str,
        position: (f64, f64),
        angle: f64,
        translation: (f64, f64),
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let shape = shape_from(shape)?;
        let scene = self.lock();
        let hit = scene.world.shape_cast(
            &shape,
            &pose(position, angle)?,
            Vec2::new(translation.0, translation.1),
            &QueryFilter::default(),
        );
        let Some(hit) = hit else {
            return Ok(None);
        };
        let body = index_of(&scene).get(&hit.body).copied();
        hit_dict(py, body, hit.fraction, hit.point, hit.normal).map(Some)
    }

    /// The ids of the bodies a shape (scene-file form, JSON text) at `position`/`angle` overlaps
    /// or touches, sorted.
    fn _overlap(&self, shape: &str, position: (f64, f64), angle: f64) -> PyResult<Vec<usize>> {
        let shape = shape_from(shape)?;
        let scene = self.lock();
        let index = index_of(&scene);
        let mut ids: Vec<usize> = scene
            .world
            .overlap_shape(&shape, &pose(position, angle)?, &QueryFilter::default())
            .into_iter()
            .filter_map(|s| index.get(&s.body()).copied())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }

    /// The last step's events as lists of dicts (bodies by id): `contact_begin`, `contact_end`,
    /// `impacts`, `sensor_begin`, `sensor_end`, `joint_events` (joints by index, reaction force
    /// N and torque N·m past their thresholds), `contact_forces` (total normal impulse N·s and
    /// force N past a shape's threshold); and lists of body ids: `fell_asleep`, `woke`, `held`.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let scene = self.lock();
        let index = index_of(&scene);
        let id = |b: &BodyId| index.get(b).copied();
        let events = scene.world.events();
        let d = PyDict::new(py);
        let mut begin = Vec::new();
        for e in &events.contact_begin {
            let r = pair_row(py, id(&e.body_a), id(&e.body_b), e.time)?;
            r.set_item("point", (e.point.x, e.point.y))?;
            r.set_item("normal", (e.normal.x, e.normal.y))?;
            begin.push(r);
        }
        d.set_item("contact_begin", begin)?;
        let mut end = Vec::new();
        for e in &events.contact_end {
            end.push(pair_row(py, id(&e.body_a), id(&e.body_b), e.time)?);
        }
        d.set_item("contact_end", end)?;
        let mut impacts = Vec::new();
        for e in &events.impacts {
            let r = pair_row(py, id(&e.body_a), id(&e.body_b), e.time)?;
            r.set_item("fraction", e.fraction)?;
            r.set_item("point", (e.point.x, e.point.y))?;
            r.set_item("normal", (e.normal.x, e.normal.y))?;
            r.set_item("speed", e.relative_speed)?;
            r.set_item("impulse", e.impulse)?;
            impacts.push(r);
        }
        d.set_item("impacts", impacts)?;
        for (key, sensor_events) in [
            ("sensor_begin", &events.sensor_begin),
            ("sensor_end", &events.sensor_end),
        ] {
            let mut rows = Vec::new();
            for e in sensor_events {
                let r = PyDict::new(py);
                r.set_item("sensor", id(&e.sensor_body))?;
                r.set_item("visitor", id(&e.visitor_body))?;
                r.set_item("time", e.time)?;
                r.set_item("fraction", e.fraction)?;
                rows.push(r);
            }
            d.set_item(key, rows)?;
        }
        let joint_index: HashMap<sweep2d::JointId, usize> = scene
            .world
            .joint_ids()
            .into_iter()
            .enumerate()
            .map(|(k, j)| (j, k))
            .collect();
        let mut joints = Vec::new();
        for e in &events.joint_events {
            let r = PyDict::new(py);
            r.set_item("joint", joint_index.get(&e.joint).copied())?;
            r.set_item("step", e.step)?;
            r.set_item("body_a", e.body_a.as_ref().and_then(id))?;
            r.set_item("body_b", id(&e.body_b))?;
            r.set_item("force", e.force)?;
            r.set_item("torque", e.torque)?;
            joints.push(r);
        }
        d.set_item("joint_events", joints)?;
        let mut forces = Vec::new();
        for e in &events.contact_forces {
            let r = PyDict::new(py);
            r.set_item("body_a", id(&e.body_a))?;
            r.set_item("body_b", id(&e.body_b))?;
            r.set_item("step", e.step)?;
            r.set_item("impulse", e.total_impulse)?;
            r.set_item("force", e.total_force)?;
            r.set_item("normal", (e.normal.x, e.normal.y))?;
            r.set_item("impact_fraction", e.impact_fraction)?;
            forces.push(r);
        }
        d.set_item("contact_forces", forces)?;
        for (key, list) in [
            ("fell_asleep", &events.fell_asleep),
            ("woke", &events.woke),
            ("held", &events.held),
        ] {
            let ids: Vec<Option<usize>> = list.iter().map(id).collect();
            d.set_item(key, ids)?;
        }
        Ok(d)
    }

    /// Pickling: the world's snapshot (see `docs/reliability.md`, "Snapshots"), restored bit for
    /// bit by `sweep2d._native._restore`.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let state = pickled(&slf.borrow().lock())?;
        let restore = py.import("sweep2d._native")?.getattr("_restore")?;
        Ok((restore, (PyBytes::new(py, &state),)))
    }

    fn __repr__(&self) -> String {
        let scene = self.lock();
        format!(
            "sweep2d.World({} bodies, t = {} s, step {})",
            scene.bodies.len(),
            scene.world.time(),
            scene.world.step_count()
        )
    }
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyWorld>()?;
    m.add_class::<Poses>()?;
    m.add_class::<mover::Mover>()?;
    m.add_class::<mover::Moved>()?;
    m.add_function(wrap_pyfunction!(load_scene_json, m)?)?;
    m.add_function(wrap_pyfunction!(load_scene_file, m)?)?;
    m.add_function(wrap_pyfunction!(_demo_scene_json, m)?)?;
    m.add_function(wrap_pyfunction!(_builtin, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add_function(wrap_pyfunction!(ensemble::_ensemble, m)?)?;
    m.add_function(wrap_pyfunction!(ensemble::_ensemble_scenes, m)?)?;
    m.add("SceneError", m.py().get_type::<SceneError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    Ok(())
}
