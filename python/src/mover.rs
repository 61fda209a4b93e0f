//! The character mover from Python (`sweep2d.CharacterMover`): collide-and-slide moves against a
//! world's shapes, as `sweep2d::CharacterMover` does them (method and guarantees in
//! `docs/character.md`). Bodies are named by their index in the scene's `bodies` list.

use crate::{shape_from, PyWorld};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::HashMap;
use sweep2d::analysis::scene::LoadedScene;
use sweep2d::{BodyId, CharacterMover, MoveResult, QueryFilter, Surface, Vec2};

/// A character mover: its shape (scene-file form: circle, capsule or convex polygon) and
/// settings, each checked when set (`docs/character.md` lists their ranges and defaults).
#[pyclass(module = "sweep2d._native", name = "CharacterMover")]
pub(crate) struct Mover {
    mover: CharacterMover,
}

/// The outcome of one move: where the character ends and what it met.
#[pyclass(module = "sweep2d._native", name = "MoveResult", frozen)]
pub(crate) struct Moved {
    result: MoveResult,
    /// The scene index of each body the move met.
    index: HashMap<BodyId, usize>,
}

fn refused(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The filter for a move: every solid shape except body `exclude`'s (the character's own).
fn filter(
    scene: &sweep2d::analysis::scene::LoadedScene,
    exclude: Option<usize>,
) -> PyResult<QueryFilter> {
    let exclude =
        match exclude {
            None => None,
            Some(k) => {
                Some(scene.bodies.get(k).map(|(id, _)| *id).ok_or_else(|| {
                    pyo3::exceptions::PyIndexError::new_err(format!("no body {k}"))
                })?)
            }
        };
    Ok(QueryFilter {
        exclude,
        ..QueryFilter::default()
    })
}

#[pymethods]
impl Mover {
    /// A mover for `shape` (JSON text of a scene-file shape) with the default settings.
    #[new]
    fn new(shape: &str) -> PyResult<Self> {
        let mover = CharacterMover::new(shape_from(shape)?);
        mover.validate().map_err(refused)?;
        Ok(Self { mover })
    }

    /// Changes settings by name (`up`, `skin`, `max_slope`, `min_slide_slope`, `step_height`,
    /// `snap_distance`, `max_iterations`, `mass`); all are checked together and nothing changes
    /// if one is refused.
    fn _configure(&mut self, settings: &Bound<'_, PyDict>) -> PyResult<()> {
        let mut m = self.mover.clone();
        for (key, value) in settings.iter() {
            let key: String = key.extract()?;
            match key.as_str() {
                "up" => {
                    let (x, y): (f64, f64) = value.extract()?;
                    m.up = Vec2::new(x, y);
                }
                "skin" => m.skin = value.extract()?,
                "max_slope" => m.max_slope = value.extract()?,
                "min_slide_slope" => m.min_slide_slope = value.extract()?,
                "step_height" => m.step_height = value.extract()?,
                "snap_distance" => m.snap_distance = value.extract()?,
                "max_iterations" => m.max_iterations = value.extract()?,
                "mass" => m.mass = value.extract()?,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "the character mover has no setting {other:?}; its settings are up, \
                         skin, max_slope, min_slide_slope, step_height, snap_distance, \
                         max_iterations, mass"
                    )))
                }
            }
        }
        m.validate().map_err(refused)?;
        self.mover = m;
        Ok(())
    }

    /// The settings as a dict (SI units, radians).
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let m = &self.mover;
        let d = PyDict::new(py);
        d.set_item("up", (m.up.x, m.up.y))?;
        d.set_item("skin", m.skin)?;
        d.set_item("max_slope", m.max_slope)?;
        d.set_item("min_slide_slope", m.min_slide_slope)?;
        d.set_item("step_height", m.step_height)?;
        d.set_item("snap_distance", m.snap_distance)?;
        d.set_item("max_iterations", m.max_iterations)?;
        d.set_item("mass", m.mass)?;
        Ok(d)
    }

    /// Moves the character from `position` (m) and `angle` (rad) by `desired` (world metres:
    /// this frame's velocity × dt), sliding along what it meets in `world` except body
    /// `exclude`. `accept(collision) -> bool`, if given, is asked about each surface before the
    /// move stops at it (one-way platforms). Raises `ValueError` for a refused move (nothing
    /// moves then).
    #[pyo3(signature = (world, position, desired, angle = 0.0, exclude = None, accept = None))]
    fn move_and_slide(
        &self,
        world: &PyWorld,
        position: (f64, f64),
        desired: (f64, f64),
        angle: f64,
        exclude: Option<usize>,
        accept: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Moved> {
        let scene = world.lock();
        let filter = filter(&scene, exclude)?;
        let start = crate::pose(position, angle)?;
        let desired = Vec2::new(desired.0, desired.1);
        let mut failure: Option<PyErr> = None;
        let result = match &accept {
            None => self
                .mover
                .move_and_slide(&scene.world, start, desired, &filter),
            Some(f) => {
                let mut ask = |c: &sweep2d::MoveCollision| -> bool {
                    if failure.is_some() {
                        return true;
                    }
                    let one = indices(&scene, [c.body]);
                    let answer =
                        collision(f.py(), c, &one).and_then(|d| f.call1((d,))?.is_truthy());
                    answer.unwrap_or_else(|e| {
                        failure = Some(e);
                        true
                    })
                };
                self.mover
                    .move_and_slide_with(&scene.world, start, desired, &filter, &mut ask)
            }
        };
        if let Some(e) = failure {
            return Err(e);
        }
        Moved::of(&scene, result)
    }

    /// Carries the character with what it stood on in `last` (a `MoveResult`) over the world's
    /// last step (call after `world.step()`), sliding against everything else except `exclude`.
    /// A `MoveResult` with no ground carries nothing.
    #[pyo3(signature = (world, position, last, angle = 0.0, exclude = None))]
    fn ride(
        &self,
        world: &PyWorld,
        position: (f64, f64),
        last: &Moved,
        angle: f64,
        exclude: Option<usize>,
    ) -> PyResult<Moved> {
        let scene = world.lock();
        let filter = filter(&scene, exclude)?;
        let start = crate::pose(position, angle)?;
        let result = match &last.result.ground {
            Some(ground) => self.mover.ride(&scene.world, start, ground, &filter),
            None => self
                .mover
                .move_and_slide(&scene.world, start, Vec2::ZERO, &filter),
        };
        Moved::of(&scene, result)
    }

    /// Pushes the dynamic bodies `result`'s move ran into, as a body of the mover's `mass`
    /// moving at `velocity` (m/s) would in an inelastic hit; returns how many were pushed.
    fn push_bodies(
        &self,
        world: &PyWorld,
        result: &Moved,
        velocity: (f64, f64),
    ) -> PyResult<usize> {
        let mut scene = world.lock();
        self.mover
            .push_bodies(
                &mut scene.world,
                &result.result,
                Vec2::new(velocity.0, velocity.1),
            )
            .map_err(refused)
    }
}

/// The scene indices of `ids` (bodies the move met: a few), found in one pass over the scene's
/// bodies instead of an index of every body per call.
fn indices(scene: &LoadedScene, ids: impl IntoIterator<Item = BodyId>) -> HashMap<BodyId, usize> {
    let mut out: HashMap<BodyId, usize> = ids.into_iter().map(|id| (id, usize::MAX)).collect();
    for (k, (id, _)) in scene.bodies.iter().enumerate() {
        if let Some(slot) = out.get_mut(id) {
            *slot = k;
        }
    }
    out.retain(|_, k| *k != usize::MAX);
    out
}

impl Moved {
    /// The move's result, or the error of a refused move (nothing moved then).
    fn of(scene: &LoadedScene, result: MoveResult) -> PyResult<Self> {
        if let Some(e) = &result.error {
            return Err(refused(e));
        }
        let met = result.collisions.iter().map(|c| c.body);
        let index = indices(scene, met.chain(result.ground.map(|g| g.body)));
        Ok(Self { result, index })
    }
}

/// One collision of a move as a dict (bodies by scene index).
fn collision<'py>(
    py: Python<'py>,
    c: &sweep2d::MoveCollision,
    index: &HashMap<BodyId, usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("body", index.get(&c.body).copied())?;
    d.set_item("point", (c.point.x, c.point.y))?;
    d.set_item("normal", (c.normal.x, c.normal.y))?;
    let surface = match c.surface {
        Surface::Ground => "ground",
        Surface::Wall => "wall",
        Surface::Ceiling => "ceiling",
    };
    d.set_item("surface", surface)?;
    d.set_item("fraction", c.fraction)?;
    d.set_item("translation", (c.translation.x, c.translation.y))?;
    d.set_item("started_inside", c.started_inside)?;
    Ok(d)
}

#[pymethods]
impl Moved {
    /// Where the character ends: its position (m).
    #[getter]
    fn position(&self) -> (f64, f64) {
        let p = self.result.transform.translation;
        (p.x, p.y)
    }

    /// Its angle (rad; the mover never turns it).
    #[getter]
    fn angle(&self) -> f64 {
        self.result.transform.angle()
    }

    /// How far it moved (m).
    #[getter]
    fn translation(&self) -> (f64, f64) {
        (self.result.translation.x, self.result.translation.y)
    }

    /// Whether it stands on ground (a surface within `max_slope` of `up`).
    #[getter]
    fn grounded(&self) -> bool {
        self.result.grounded
    }

    /// What it stands on: `{"body", "normal", "point"}`, or `None`.
    #[getter]
    fn ground<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.result
            .ground
            .as_ref()
            .map(|g| {
                let d = PyDict::new(py);
                d.set_item("body", self.index.get(&g.body).copied())?;
                d.set_item("normal", (g.normal.x, g.normal.y))?;
                d.set_item("point", (g.point.x, g.point.y))?;
                Ok(d)
            })
            .transpose()
    }

    /// Whether it ran into a wall (or a slope too steep to climb).
    #[getter]
    fn hit_wall(&self) -> bool {
        self.result.hit_wall
    }

    /// Whether it ran into a ceiling.
    #[getter]
    fn hit_ceiling(&self) -> bool {
        self.result.hit_ceiling
    }

    /// Every surface the move stopped at, in order, as dicts: `body`, `point`, `normal`,
    /// `surface` (`"ground"`, `"wall"`, `"ceiling"`), `fraction` of its cast, `translation`,
    /// `started_inside`.
    #[getter]
    fn collisions<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.result
            .collisions
            .iter()
            .map(|c| collision(py, c, &self.index))
            .collect()
    }

    fn __repr__(&self) -> String {
        let (x, y) = self.position();
        format!(
            "sweep2d.MoveResult(position=({x}, {y}), grounded={}, hit_wall={}, hit_ceiling={}, \
             {} collisions)",
            self.result.grounded,
            self.result.hit_wall,
            self.result.hit_ceiling,
            self.result.collisions.len()
        )
    }
}
