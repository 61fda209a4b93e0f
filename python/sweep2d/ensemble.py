"""Ensembles: one scene run many times, on every core or as picklable tasks for any task runner.

Two kinds of perturbation (``perturb=``):

* nearby starts, ``{"shift": metres}`` (the default, 1 mm): run ``k`` moves every dynamic body's
  start along x by a fixed pseudo-random amount within ±shift drawn from ``seed + k``;
* explicit variations: a ``Grid`` (``grid(restitution=[0, 0.5, 1], speed=[10, 20])``, every
  combination) or a list of override dicts, one per run. Each run's scene is the base scene with
  its overrides written in, so run ``k`` equals ``load_scene(grid.scenes(base)[k]).run(steps)``
  bit for bit.

Every run builds its own world and lands in its own row, so results are the same, bit for bit, on
any number of threads or machines.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np

from . import _native
from ._native import SceneError

Scene = Union[str, os.PathLike, Dict[str, Any]]

#: Overrides applied to each selected body (scene-file fields and units: ``restitution`` and
#: ``friction`` ≥ 0, ``density`` kg/m², ``velocity`` [vx, vy] m/s, ``speed`` m/s along the body's
#: written velocity, ``position`` [x, y] m, ``angle`` rad, ``angular_velocity`` rad/s).
BODY_FIELDS = (
    "restitution", "friction", "density", "velocity", "speed", "position", "angle",
    "angular_velocity",
)
#: Overrides applied to the scene itself (``gravity`` [x, y] m/s², ``dt`` s).
SCENE_FIELDS = ("gravity", "dt")
_MATERIAL = ("restitution", "friction", "density")


def read_scene(scene: Scene) -> Dict[str, Any]:
    """The scene as a dict (a path is read as JSON)."""
    if isinstance(scene, dict):
        return scene
    if isinstance(scene, (str, os.PathLike)):
        with open(os.fspath(scene), encoding="utf-8") as f:
            try:
                return json.load(f)
            except ValueError as e:
                raise SceneError(f"{os.fspath(scene)}: not valid JSON: {e}") from None
    raise TypeError("a scene is a path (str or os.PathLike) or a dict")


def scene_text(scene: Scene) -> str:
    """The scene as JSON text, raising ``SceneError`` if a dict holds something JSON cannot."""
    if isinstance(scene, (str, os.PathLike)):
        with open(os.fspath(scene), encoding="utf-8") as f:
            return f.read()
    if not isinstance(scene, dict):
        raise TypeError("a scene is a path (str or os.PathLike) or a dict")
    try:
        return json.dumps(scene, allow_nan=True)
    except (TypeError, ValueError) as e:
        raise SceneError(f"the scene dict is not JSON data: {e}") from None


def _body_index(bodies: List[Dict[str, Any]], who) -> int:
    if isinstance(who, (int, np.integer)) and not isinstance(who, bool):
        if 0 <= who < len(bodies):
            return int(who)
        raise ValueError(f"body {who} is not in the scene: it has {len(bodies)} bodies (ids 0..)")
    for i, b in enumerate(bodies):
        if b.get("name", f"body {i}") == who:
            return i
    names = [b.get("name", f"body {i}") for i, b in enumerate(bodies)]
    raise ValueError(f"no body named {who!r} in the scene; its bodies are {names}")


def apply_variation(scene: Scene, variation: Dict[str, Any]) -> Dict[str, Any]:
    """The scene (a new dict; the argument is not changed) with one run's overrides written in.

    ``variation`` maps names of ``BODY_FIELDS`` and ``SCENE_FIELDS`` to values, plus optionally
    ``bodies``: the names or ids of the bodies the body fields apply to (default: every dynamic
    body). A material field is written on the body and on each of its extra ``shapes``;
    ``speed`` rescales the body's written velocity (which must not be zero). Raises
    ``ValueError`` for an unknown field, an unknown body or a zero velocity to rescale.
    """
    base = read_scene(scene)
    out = copy.deepcopy(base)
    unknown = set(variation) - set(BODY_FIELDS) - set(SCENE_FIELDS) - {"bodies"}
    if unknown:
        raise ValueError(
            f"unknown variation field(s) {sorted(unknown)}: a variation sets "
            f"{list(BODY_FIELDS)} on bodies, {list(SCENE_FIELDS)} on the scene, and may name "
            f"the bodies it applies to in 'bodies'"
        )
    for key in SCENE_FIELDS:
        if key in variation:
            value = variation[key]
            out[key] = list(map(float, value)) if key == "gravity" else float(value)
    bodies = out.get("bodies", [])
    if "bodies" in variation and variation["bodies"] is not None:
        chosen = [_body_index(bodies, who) for who in variation["bodies"]]
    else:
        chosen = [i for i, b in enumerate(bodies) if b.get("kind") == "dynamic"]
    for i in chosen:
        body = bodies[i]
        for key in BODY_FIELDS:
            if key not in variation:
                continue
            value = variation[key]
            if key in _MATERIAL:
                body[key] = float(value)
                for extra in body.get("shapes", []):
                    extra[key] = float(value)
            elif key == "speed":
                vx, vy = body.get("velocity", [0.0, 0.0])
                norm = float(np.hypot(vx, vy))
                if norm == 0.0:
                    name = body.get("name", f"body {i}")
                    raise ValueError(
                        f"body {i} ({name!r}) has no velocity to rescale to speed {value}: give "
                        f"it a velocity in the scene, or vary 'velocity' instead"
                    )
                body["velocity"] = [vx * float(value) / norm, vy * float(value) / norm]
            elif key in ("velocity", "position"):
                body[key] = list(map(float, value))
            else:
                body[key] = float(value)
    return out


class Grid:
    """Every combination of parameter values, one run each (the last axis varies fastest).

    ``grid(restitution=[0, 0.5, 1], speed=[10, 20, 40], bodies=["ball"])`` is 9 runs. Axes are
    the fields of ``apply_variation``; ``bodies`` picks the bodies the body fields apply to
    (default: every dynamic body). ``len(g)`` runs; ``g.variations`` the override dicts;
    ``g.parameters`` a dict of arrays, one entry per run for each axis (vectors as (n, 2));
    ``g.scenes(base)`` the run scenes as dicts.
    """

    def __init__(self, bodies: Optional[Sequence] = None, **axes: Iterable):
        if not axes:
            raise ValueError("a grid needs at least one axis, e.g. grid(restitution=[0, 1])")
        self.axes = {k: list(v) for k, v in axes.items()}
        for k, v in self.axes.items():
            if not v:
                raise ValueError(f"grid axis {k!r} has no values")
        self.bodies = None if bodies is None else list(bodies)
        names = list(self.axes)
        self.variations = []
        for combo in itertools.product(*self.axes.values()):
            v = dict(zip(names, combo))
            if self.bodies is not None:
                v["bodies"] = self.bodies
            self.variations.append(v)
        # Checks the field names now, not in the middle of an ensemble.
        apply_variation({"bodies": []}, {k: v for k, v in self.variations[0].items() if k != "bodies"})

    def __len__(self) -> int:
        return len(self.variations)

    def __repr__(self) -> str:
        axes = ", ".join(f"{k}={len(v)} values" for k, v in self.axes.items())
        return f"sweep2d.Grid({axes}: {len(self)} runs)"

    @property
    def parameters(self) -> Dict[str, np.ndarray]:
        return {k: np.asarray([v[k] for v in self.variations], dtype=float) for k in self.axes}

    def scenes(self, scene: Scene) -> List[Dict[str, Any]]:
        base = read_scene(scene)
        return [apply_variation(base, v) for v in self.variations]


def grid(bodies: Optional[Sequence] = None, **axes: Iterable) -> Grid:
    """A parameter grid for ``ensemble(perturb=...)``: see ``Grid``."""
    return Grid(bodies=bodies, **axes)


@dataclass
class Ensemble:
    """Results of ``ensemble``, one row per run.

    ``final_positions`` (n, N, 2) metres, world frame; the number of ``impacts`` the continuous
    pass resolved and of bodies ``held`` by its fallback; ``first_impact_time`` (s, NaN when
    none); ``deepest_overlap`` between two bodies at the end of any step (m); final
    ``kinetic_energy`` (J). With ``outputs={"paths": [...]}``: ``paths`` (n, T, k, 2) metres and
    ``path_angles`` (n, T, k) rad of the k chosen bodies (``path_bodies``, their ids) at the times
    ``path_time`` (T,) s. ``parameters``: each varied field's value per run (n,) or (n, 2), empty
    for nearby starts.
    """

    final_positions: np.ndarray
    impacts: np.ndarray
    held: np.ndarray
    first_impact_time: np.ndarray
    deepest_overlap: np.ndarray
    kinetic_energy: np.ndarray
    paths: np.ndarray = None
    path_angles: np.ndarray = None
    path_time: np.ndarray = None
    path_bodies: List[int] = field(default_factory=list)
    parameters: Dict[str, np.ndarray] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.impacts)

    def to_pandas(self):
        """One row per run: the varied parameters (vectors as ``name_x``/``name_y``), impacts,
        held, first_impact_time, deepest_overlap, kinetic_energy. Needs pandas."""
        import pandas as pd

        columns = {}
        for k, v in self.parameters.items():
            if v.ndim == 2:
                columns[f"{k}_x"], columns[f"{k}_y"] = v[:, 0], v[:, 1]
            else:
                columns[k] = v
        for k in ("impacts", "held", "first_impact_time", "deepest_overlap", "kinetic_energy"):
            columns[k] = getattr(self, k)
        return pd.DataFrame(columns)


def _outputs(outputs, names: List[str]) -> tuple:
    """(indices of the bodies whose paths are kept, record_every) from ``outputs``."""
    if outputs is None:
        return [], 1
    if not isinstance(outputs, dict):
        raise TypeError('outputs is a dict: {"paths": [names or ids], "record_every": 1}')
    unknown = set(outputs) - {"paths", "record_every"}
    if unknown:
        raise ValueError(f"unknown outputs {sorted(unknown)}: give 'paths' and 'record_every'")
    every = int(outputs.get("record_every", 1))
    if every < 1:
        raise ValueError("outputs['record_every'] must be at least 1")
    bodies = [{"name": n} for n in names]
    return [_body_index(bodies, who) for who in outputs.get("paths", [])], every


def ensemble_tasks(
    scene: Scene,
    n: Optional[int] = None,
    steps: Optional[int] = None,
    seed: int = 0,
    shift: float = 1e-3,
    chunk: int = 100,
    threads: int = 0,
    perturb=None,
    outputs=None,
) -> List[dict]:
    """The ensemble ``ensemble(scene, n, steps, seed, shift, perturb=..., outputs=...)`` as
    independent tasks of at most ``chunk`` runs each: plain dicts that pickle, for any task runner
    (a process pool, Dask's ``Client.map``, a batch system). Run each with ``run_ensemble_task``
    (``threads`` threads per task, 0 for every core) and put the results together with
    ``join_ensemble``: the same arrays, bit for bit, as ``ensemble`` gives in one process."""
    text = scene_text(scene)
    # Built once here, so a bad scene raises the command line's SceneError before any task.
    names = _native.load_scene_json(text).body_names()
    base = json.loads(text)
    if steps is None:
        steps = int(base.get("steps", 600))
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    if steps < 0:
        raise ValueError("steps must not be negative")
    if perturb is None:
        perturb = {"shift": shift}
    paths, every = _outputs(outputs, names)
    common = {"steps": int(steps), "threads": int(threads), "paths": paths, "every": every}
    if isinstance(perturb, dict):
        unknown = set(perturb) - {"shift"}
        if unknown:
            raise ValueError(
                f"unknown perturbation {sorted(unknown)}: give {{'shift': metres}} for nearby "
                f"starts, or a grid(...) or a list of variation dicts"
            )
        if n is None or n < 0:
            raise ValueError("nearby starts need n, the number of runs (≥ 0)")
        shift = float(perturb.get("shift", shift))
        return [
            dict(common, kind="shift", text=text, start=s, count=min(chunk, n - s),
                 seed=seed + s, shift=shift, parameters={})
            for s in range(0, n, chunk)
        ]
    variations = perturb.variations if isinstance(perturb, Grid) else list(perturb)
    if n is not None and n != len(variations):
        raise ValueError(f"n is {n} but the perturbation lists {len(variations)} runs; leave n out")
    texts = [json.dumps(apply_variation(base, v), allow_nan=True) for v in variations]
    parameters = _parameters(variations)
    return [
        dict(common, kind="scenes", texts=texts[s:s + chunk], start=s,
             count=len(texts[s:s + chunk]),
             parameters={k: v[s:s + chunk] for k, v in parameters.items()})
        for s in range(0, len(texts), chunk)
    ]


def _parameters(variations: List[Dict[str, Any]]) -> Dict[str, np.ndarray]:
    keys = [k for k in (BODY_FIELDS + SCENE_FIELDS) if all(k in v for v in variations)]
    return {k: np.asarray([v[k] for v in variations], dtype=float) for k in keys} if variations else {}


def run_ensemble_task(task: dict) -> Dict[str, Any]:
    """Runs one task of ``ensemble_tasks``; returns its arrays (and where they start)."""
    if task["kind"] == "shift":
        raw = _native._ensemble(task["text"], task["count"], task["steps"], task["seed"],
                                task["shift"], task["threads"], task["paths"], task["every"])
    else:
        raw = _native._ensemble_scenes(task["texts"], task["steps"], task["threads"],
                                       task["paths"], task["every"])
    out = {k: np.asarray(v) for k, v in raw.items()}
    out["start"] = task["start"]
    out["parameters"] = task["parameters"]
    out["meta"] = (task["steps"], task["paths"], task["every"], _dt(task))
    return out


def _dt(task: dict) -> float:
    text = task["text"] if task["kind"] == "shift" else (task["texts"] or ["{}"])[0]
    return float(json.loads(text).get("dt", 1.0 / 60.0))


def join_ensemble(parts: List[Dict[str, Any]], scene: Optional[Scene] = None) -> Ensemble:
    """Puts the results of ``run_ensemble_task`` back together in run order (``scene`` shapes
    an ensemble of no runs)."""
    parts = sorted(parts, key=lambda p: p["start"])
    if not parts:
        if scene is None:
            raise ValueError("no results to join: give the scene to shape an empty ensemble")
        empty = dict(kind="shift", text=scene_text(scene), start=0, count=0, steps=0, seed=0,
                     shift=0.0, threads=1, paths=[], every=1, parameters={})
        parts = [run_ensemble_task(empty)]
    arrays = ("final_positions", "impacts", "held", "first_impact_time", "deepest_overlap",
              "kinetic_energy", "paths", "path_angles")
    joined = {k: np.concatenate([p[k] for p in parts]) for k in arrays}
    parameters = {
        k: np.concatenate([p["parameters"][k] for p in parts]) for k in parts[0]["parameters"]
    }
    steps, paths, every, dt = parts[0]["meta"]
    return Ensemble(
        final_positions=joined["final_positions"],
        impacts=joined["impacts"].astype(np.int64),
        held=joined["held"].astype(np.int64),
        first_impact_time=joined["first_impact_time"],
        deepest_overlap=joined["deepest_overlap"],
        kinetic_energy=joined["kinetic_energy"],
        paths=joined["paths"],
        path_angles=joined["path_angles"],
        path_time=np.arange(0, steps + 1, every, dtype=float) * dt,
        path_bodies=list(paths),
        parameters=parameters,
    )


def ensemble(
    scene: Scene,
    n: Optional[int] = None,
    steps: Optional[int] = None,
    seed: int = 0,
    perturb=None,
    outputs=None,
    shift: float = 1e-3,
    threads: int = 0,
    progress: bool = False,
    _chunk: int = 0,
) -> Ensemble:
    """Runs a scene many times, ``steps`` steps each (default: the scene's ``steps``), on
    ``threads`` threads (0: every core) with the interpreter's lock released.

    ``perturb``: ``None`` or ``{"shift": metres}`` for ``n`` nearby starts (run ``k`` moves every
    dynamic body's start along x by a pseudo-random amount within ±shift drawn from ``seed + k``;
    ``shift = 0`` repeats the scene as written); a ``grid(...)`` or a list of variation dicts
    (see ``apply_variation``) for one run per variation (``n`` may be left out).
    ``outputs``: ``{"paths": [names or ids], "record_every": k}`` keeps those bodies' poses at the
    start and every k-th step. The same arguments give the same result, bit for bit, on any number
    of threads. With ``progress=True`` and tqdm installed, a progress bar counts the runs (they
    then go in chunks: the same results).
    """
    chunk = 1 << 62
    total = n
    if perturb is not None and not isinstance(perturb, dict):
        total = len(perturb)
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=total, unit="run")
        except ImportError:
            bar = None
        chunk = max(1, min(total or 1, 4 * (threads or os.cpu_count() or 1)))
    if _chunk:
        chunk = _chunk
    tasks = ensemble_tasks(scene, n, steps, seed, shift, chunk, threads, perturb, outputs)
    parts = []
    for task in tasks:
        parts.append(run_ensemble_task(task))
        if bar is not None:
            bar.update(task["count"])
    if bar is not None:
        bar.close()
    return join_ensemble(parts, scene)
