"""sweep2d for Python: 2D continuous collision and rigid-body simulation.

Load a scene (a scene file's path, or the same schema as a dict), step it, and get trajectories
as NumPy arrays::

    import sweep2d
    w = sweep2d.load_scene("scenes/newtons_cradle.json")
    rec = w.run(240, record_every=2)
    rec.positions.shape      # (T, N, 2): metres, world frame
    rec.impacts["time"]      # the continuous pass's impacts, with their sub-step times

Bodies are named by their index in the scene's ``bodies`` list (``w.body_ids()``,
``w.body_names()``). Units are SI: metres, seconds, radians, kilograms. Bad scenes raise
``SceneError`` (a ``ValueError``) with the command line's message, naming the body and the field.
Worlds pickle through the engine's snapshot format and continue bit for bit. ``ensemble`` runs a
scene from many nearby starts on every core.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Union

import numpy as np

from . import _native
from ._native import SceneError, SimulationError
from .character import CharacterMover
from .ensemble import (
    BODY_FIELDS,
    SCENE_FIELDS,
    Ensemble,
    Grid,
    apply_variation,
    ensemble,
    ensemble_tasks,
    grid,
    join_ensemble,
    run_ensemble_task,
)
from .ensemble import scene_text as _scene_text

__all__ = [
    "CharacterMover",
    "BODY_FIELDS",
    "SCENE_FIELDS",
    "Ensemble",
    "Grid",
    "apply_variation",
    "grid",
    "ensemble_tasks",
    "join_ensemble",
    "run_ensemble_task",
    "new_world",
    "Recording",
    "SceneError",
    "SimulationError",
    "World",
    "ensemble",
    "builtin_scene",
    "demo_scene",
    "load_scene",
]

_EVENT_FIELDS = [
    "step", "time", "kind", "body_a", "body_b", "fraction", "nx", "ny", "x", "y", "speed",
    "impulse",
]
_EVENT_TYPES = dict({f: "f8" for f in _EVENT_FIELDS}, step="i8", body_a="i8", body_b="i8",
                    kind="U13")

_IMPACT_FIELDS = [
    "step", "fraction", "time", "body_a", "body_b", "x", "y", "nx", "ny", "speed", "impulse",
]


def _json(value: Dict[str, Any], what: str) -> str:
    try:
        return json.dumps(value, allow_nan=True)
    except (TypeError, ValueError) as e:
        raise SceneError(f"the {what} is not JSON data: {e}") from None


def load_scene(scene: Union[str, os.PathLike, Dict[str, Any]]) -> World:
    """Builds a world from a scene file's path or a dict in the scene-file schema.

    Raises ``SceneError`` (a ``ValueError``) naming the body and the field when the scene is
    wrong, exactly as ``sweep2d check`` reports it; nothing is built then.
    """
    if isinstance(scene, (str, os.PathLike)):
        return World(_native.load_scene_file(os.fspath(scene)))
    return World(_native.load_scene_json(_scene_text(scene)))


def demo_scene() -> Dict[str, Any]:
    """The built-in demonstration scene (``sweep2d demo``: a 6 cm bullet at 45 m/s in a room of
    1 cm walls, a spinning bar on a ramp, a thrown box, a ball off a ledge; 180 steps at 60 Hz)
    as a scene dict, to load, vary or run as an ensemble."""
    return json.loads(_native._demo_scene_json())


def builtin_scene(name: str, count: int = 10, speed: float = 10.0) -> "World":
    """One of the engine's benchmark scenes as a world (the ones ``docs/benchmarks.md``
    measures): ``"pyramid"`` (``count`` rows), ``"tall_stack"``, ``"falling_mixed"`` (``count``
    mixed shapes dropped on a floor), ``"hanging_chains"`` (``count`` chains of 10 links),
    ``"bullet_rain"`` and ``"newtons_cradle"`` (``count`` bodies at ``speed`` m/s),
    ``"bouncing_ball"`` (at ``speed`` m/s). Bodies are numbered in creation order."""
    return World(_native._builtin(name, count, speed))


def new_world(gravity=(0.0, -9.81), dt: float = 1.0 / 60.0) -> "World":
    """An empty world with this gravity (m/s², world frame) and fixed step (seconds); add bodies
    with ``World.add_body``. Raises ``SceneError`` for a bad gravity or step."""
    return load_scene({"gravity": list(gravity), "dt": dt, "bodies": []})


@dataclass
class Recording:
    """Frames of a run (``World.run``): the start, then every ``record_every``-th step.

    ``time`` (T,) seconds; ``positions`` (T, N, 2) metres and ``angles`` (T, N) radians of each
    body's frame; ``velocities`` (T, N, 2) m/s and ``angular_velocities`` (T, N) rad/s;
    ``names`` and ``ids`` of the N bodies; ``impacts``, a structured array of every impact of the
    continuous pass during the run (step, its fraction of the step, time in seconds, the two
    bodies' ids, the point and the normal from A to B, the closing speed in m/s and the impulse in
    N·s); ``events``, a structured array of every event in time order, as ``events.csv`` has
    them: ``kind`` (``contact_begin``, ``contact_end``, ``impact``, ``held``, ``sensor_begin``,
    ``sensor_end``, ``sleep``, ``wake``), step, time, the bodies' ids (-1 for none; a sensor
    event's A is the sensor), fraction, normal, point, speed and impulse (0 where they do not
    apply).
    """

    time: np.ndarray
    positions: np.ndarray
    angles: np.ndarray
    velocities: np.ndarray
    angular_velocities: np.ndarray
    names: List[str]
    ids: List[int]
    impacts: np.ndarray
    events: np.ndarray = None
    outlines: list = None
    html: str = ""

    def to_html(self, path: Union[str, os.PathLike, None] = None):
        """The run as a self-contained HTML replay (the player ``sweep2d run --html`` writes:
        play, pause, scrub, slow motion, click a body for its path; no network needed). Written
        to ``path`` when given (and the path returned), else returned as a string."""
        if path is None:
            return self.html
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(self.html)
        return path

    def _repr_html_(self) -> str:
        """Shows the replay inside Jupyter."""
        import html as _html

        return (
            '<iframe style="width:100%;height:480px;border:0" srcdoc="'
            + _html.escape(self.html, quote=True)
            + '"></iframe>'
        )

    def plot(self, ax=None, frames: int = 2):
        """Draws the run with matplotlib (optional: ``pip install matplotlib``): each body's path,
        its shapes at the start (faint) and the end (solid; ``frames`` evenly spaced poses in
        all), and the impacts as crosses. Returns the axes. Metres, world frame, equal scale."""
        import matplotlib.pyplot as plt
        from matplotlib.patches import Circle, Polygon

        if ax is None:
            _, ax = plt.subplots(figsize=(8, 6))
        t, n = self.angles.shape
        picks = np.unique(np.linspace(0, t - 1, max(frames, 2)).round().astype(int))
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for b in range(n):
            color = colors[b % len(colors)]
            moving = np.ptp(self.positions[:, b, :], axis=0).max() > 0
            if moving:
                ax.plot(self.positions[:, b, 0], self.positions[:, b, 1], color=color, lw=1)
            for k, f in enumerate(picks):
                alpha = 0.25 + 0.75 * (k == len(picks) - 1)
                x, y = self.positions[f, b]
                c, s = math.cos(self.angles[f, b]), math.sin(self.angles[f, b])
                for points, radius in (self.outlines or [[]] * n)[b]:
                    world = [(x + c * px - s * py, y + s * px + c * py) for px, py in points]
                    style = dict(fill=False, color=color if moving else "0.4", alpha=alpha, lw=1)
                    if len(world) == 1:
                        ax.add_patch(Circle(world[0], radius, **style))
                    elif len(world) == 2:
                        (ax_, ay_), (bx_, by_) = world
                        ax.plot([ax_, bx_], [ay_, by_], color=style["color"], alpha=alpha,
                                lw=max(1.0, radius * 72 / 4))
                    else:
                        ax.add_patch(Polygon(world, closed=True, **style))
                if not moving:
                    break
        if len(self.impacts):
            ax.plot(self.impacts["x"], self.impacts["y"], "x", color="crimson", ms=5,
                    label=f"{len(self.impacts)} impacts")
            ax.legend(loc="upper right")
        ax.set_aspect("equal")
        ax.autoscale_view()
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        return ax

    def to_pandas(self):
        """The frames as a long pandas DataFrame (one row per frame and body), with columns
        ``time, body, name, x, y, angle, vx, vy, omega``. Needs pandas (``pip install pandas``)."""
        import pandas as pd

        t, n = self.angles.shape
        return pd.DataFrame(
            {
                "time": np.repeat(self.time, n),
                "body": np.tile(np.asarray(self.ids), t),
                "name": np.tile(np.asarray(self.names, dtype=object), t),
                "x": self.positions[:, :, 0].ravel(),
                "y": self.positions[:, :, 1].ravel(),
                "angle": self.angles.ravel(),
                "vx": self.velocities[:, :, 0].ravel(),
                "vy": self.velocities[:, :, 1].ravel(),
                "omega": self.angular_velocities.ravel(),
            }
        )


class World:
    """A world built from a scene (``load_scene``), its bodies named by their index in the
    scene's ``bodies`` list.

    Methods: ``step(n=1)``; ``body_ids()``, ``body_names()``, ``body_id(name)``;
    ``position(id)`` and ``velocity(id)`` as ``(x, y)`` tuples (metres, m/s, world frame),
    ``angle(id)`` (rad), ``angular_velocity(id)`` (rad/s); ``time``, ``step_count`` and ``dt``
    (seconds); ``kinetic_energy()`` (J); ``run(steps, record_every=1)``; ``add_body(dict)`` and
    ``add_joint(dict)`` in the scene-file schema; ``set_velocity``, ``set_transform``,
    ``apply_impulse``, ``apply_force``; ``set_body_kind``, ``set_enabled``,
    ``set_fixed_rotation``, ``set_locked_translation``, ``set_gravity_scale``, ``set_damping``,
    ``set_mass_data``; ``ray_cast``, ``shape_cast``, ``overlap``; ``events()`` of the last step.
    Pickles bit for bit.
    """

    __slots__ = ("_w",)

    def __init__(self, native: "_native.World"):
        self._w = native

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_w":
            raise AttributeError(name)
        return getattr(self._w, name)

    def __getstate__(self):
        return self._w

    def __setstate__(self, state):
        self._w = state

    def __repr__(self) -> str:
        return repr(self._w)

    @property
    def config(self) -> Dict[str, Any]:
        """The world's settings as a dict (a copy): ``gravity`` (m/s²), ``dt`` (s),
        ``substeps``, ``continuous`` (the continuous pass on or off), ``max_impacts_per_step``,
        contact softness (``contact_hertz``, ``contact_damping_ratio``,
        ``contact_push_velocity`` m/s), ``restitution_threshold`` (m/s), ``friction_mixing``
        and ``restitution_mixing``, joint softness, sleeping (``sleep``, ``time_to_sleep`` s,
        tolerances). See ``docs/simulation.md``."""
        return json.loads(self._w._config())

    def configure(self, **settings) -> None:
        """Changes world settings by name (the keys of ``config``), checked together: raises
        ``ValueError`` naming the field for a refused value or an unknown name, and changes
        nothing then. ``w.configure(substeps=8, sleep=False)``."""
        current = self.config
        unknown = set(settings) - set(current)
        if unknown:
            raise ValueError(
                f"unknown world setting(s) {sorted(unknown)}; the settings are {sorted(current)}"
            )
        current.update({k: list(v) if k == "gravity" else v for k, v in settings.items()})
        self._w._set_config(_json(current, "settings"))

    def add_body(self, body: Dict[str, Any]) -> int:
        """Adds a body written as a scene file writes one (``{"kind": "dynamic", "position": [x,
        y], "shape": {"type": "circle", "radius": 0.5}, ...}``, see ``docs/scenes.md``) and
        returns its id. Raises ``SceneError`` naming the field; nothing is added then."""
        return self._w._add_body(_json(body, "body"))

    def add_joint(self, joint: Dict[str, Any]) -> int:
        """Adds a joint written as a scene file writes one (``{"type": "revolute", "body_a": 0,
        "body_b": "arm", "anchor": [x, y], ...}``), its bodies by id or name, and returns its
        index (joints are numbered in the order they were added, the scene's first). Raises
        ``SceneError`` naming the field; nothing is added then."""
        return self._w._add_joint(_json(joint, "joint"))

    def shape_cast(self, shape, position, angle, translation):
        """The first body ``shape`` (scene-file form) placed at ``position`` (m) and ``angle``
        (rad) meets when moved by ``translation`` (m): ``{"body", "fraction", "point",
        "normal"}`` or ``None``. The time of impact is exact for a translation."""
        return self._w._shape_cast(_json(shape, "shape"), tuple(position), angle, tuple(translation))

    def overlap(self, shape, position, angle=0.0) -> List[int]:
        """The ids of the bodies ``shape`` (scene-file form) at ``position``/``angle`` overlaps
        or touches, sorted."""
        return self._w._overlap(_json(shape, "shape"), tuple(position), angle)

    def run(self, steps: int, record_every: int = 1) -> Recording:
        """Steps ``steps`` times and records the start and every ``record_every``-th step.

        Raises ``SimulationError`` if a step would leave a non-finite state (it is undone; the
        frames recorded up to there are lost with the exception).
        """
        raw = self._w._run(steps, record_every)
        names = list(raw["names"])
        n = len(names)
        t = len(raw["time"])
        raw_events = raw["events"]
        events = np.zeros(
            len(raw_events["time"]),
            dtype=[(f, _EVENT_TYPES[f]) for f in _EVENT_FIELDS],
        )
        for f in _EVENT_FIELDS:
            events[f] = raw_events[f]
        # The impacts are the events of kind "impact", packed into their own fields.
        packed = [(f, events.dtype[f]) for f in _IMPACT_FIELDS]
        impacts = events[events["kind"] == "impact"][_IMPACT_FIELDS].astype(packed)
        return Recording(
            time=np.asarray(raw["time"]),
            positions=np.asarray(raw["positions"]).reshape(t, n, 2),
            angles=np.asarray(raw["angles"]).reshape(t, n),
            velocities=np.asarray(raw["velocities"]).reshape(t, n, 2),
            angular_velocities=np.asarray(raw["angular_velocities"]).reshape(t, n),
            names=names,
            ids=list(range(n)),
            impacts=impacts,
            events=events,
            outlines=self._w._outlines(),
            html=raw["html"],
        )
