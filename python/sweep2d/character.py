"""The character mover: a player's shape moved through a world by collide and slide (the
engine's ``CharacterMover``; method, settings and guarantees in ``docs/character.md``).

    mover = sweep2d.CharacterMover({"type": "capsule", "a": [0, -0.5], "b": [0, 0.5],
                                    "radius": 0.3}, step_height=0.3)
    result = mover.move_and_slide(world, position, (vx * dt, vy * dt))
    position = result.position; result.grounded; result.collisions

The character is not a body: the game keeps its position. Every move is an exact translational
cast, so it never passes through anything it started outside of.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Optional, Tuple

from . import _native

Vec = Tuple[float, float]


def _native_world(world):
    return world._w if hasattr(world, "_w") else world


class CharacterMover:
    """A mover for ``shape`` (scene-file form: a circle, a capsule or a convex polygon) with
    settings given by name: ``up`` (unit vector, default (0, 1)), ``skin`` (m, 0.01),
    ``max_slope`` and ``min_slide_slope`` (rad, π/4), ``step_height`` and ``snap_distance`` (m,
    0.25), ``max_iterations`` (6), ``mass`` (kg, 80, for pushing bodies). Raises ``ValueError``
    for a shape or setting out of range."""

    def __init__(self, shape: Dict[str, Any], **settings):
        try:
            text = json.dumps(shape, allow_nan=True)
        except (TypeError, ValueError) as e:
            raise ValueError(f"the shape is not JSON data: {e}") from None
        self._m = _native.CharacterMover(text)
        if settings:
            self._m._configure(settings)

    def configure(self, **settings) -> None:
        """Changes settings by name; all are checked, and none changes if one is refused."""
        self._m._configure(settings)

    @property
    def settings(self) -> Dict[str, Any]:
        """The settings (SI units, radians)."""
        return self._m.settings()

    def move_and_slide(self, world, position: Vec, desired: Vec, angle: float = 0.0,
                       exclude: Optional[int] = None,
                       accept: Optional[Callable[[dict], bool]] = None):
        """Moves from ``position`` (m) by ``desired`` (m, this frame's velocity × dt), sliding
        along what it meets in ``world`` except body ``exclude`` (the character's own body, if it
        has one). ``accept(collision)`` may refuse a surface before the move stops at it (a
        one-way platform accepts ``collision["surface"] == "ground"`` when
        ``not collision["started_inside"]``). Returns a ``MoveResult``: ``position``,
        ``translation``, ``grounded``, ``ground``, ``hit_wall``, ``hit_ceiling``,
        ``collisions``."""
        return self._m.move_and_slide(_native_world(world), tuple(position), tuple(desired),
                                      angle, exclude, accept)

    def ride(self, world, position: Vec, last, angle: float = 0.0,
             exclude: Optional[int] = None):
        """Carries the character with what it stood on in ``last`` (the previous
        ``MoveResult``) over the world's last step: call after ``world.step()``, before the
        frame's own move."""
        return self._m.ride(_native_world(world), tuple(position), last, angle, exclude)

    def push_bodies(self, world, result, velocity: Vec) -> int:
        """Pushes the dynamic bodies ``result``'s move ran into, as an inelastic hit by a body
        of the mover's ``mass`` at ``velocity`` (m/s); returns how many."""
        return self._m.push_bodies(_native_world(world), result, tuple(velocity))
