"""Property testing from Python: Hypothesis strategies for shapes, bodies, motions and scenes in
the scene-file schema, and the engine's own checkers (the Python face of the Rust crate's
``testkit``).

Needs Hypothesis (``pip install hypothesis``)::

    from hypothesis import given
    import sweep2d
    from sweep2d import testing

    @given(testing.bullet_scenes(max_bullets=6, max_speed=2000.0))
    def test_nothing_tunnels(scene):
        world = sweep2d.load_scene(scene)
        testing.assert_no_tunnelling(world, steps=30)

Units are SI (metres, seconds, radians, kg/m²), world frame. Every drawn scene is valid: the
strategies stay inside the engine's documented ranges, so a ``SceneError`` from one is a bug.

The tunnelling check (the same code as the Rust ``testkit::assert_no_tunnelling``): a dynamic
body *tunnels* through another when, seen from the other body, its centre of mass crosses the
other's shape during a step while starting and ending outside it, with no impact between them.
Each body is taken to move its centre in a straight line and turn steadily over the step; bodies
that had an impact or were held in the step did not move straight, so their pairs are not judged
in that step.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Optional

from hypothesis import strategies as st

__all__ = [
    "TunnellingError",
    "OverlapError",
    "points",
    "shapes",
    "bullet_shapes",
    "motions",
    "bodies",
    "bullet_scenes",
    "poses",
    "assert_no_tunnelling",
    "assert_no_deep_overlap",
]


class TunnellingError(AssertionError):
    """A body passed through another during a step with no impact between them."""


class OverlapError(AssertionError):
    """Two bodies overlap deeper than the check's tolerance."""


def _finite(lo: float, hi: float):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def points(extent: float = 10.0):
    """A point ``[x, y]`` within ``extent`` metres of the origin on each axis."""
    return st.lists(_finite(-extent, extent), min_size=2, max_size=2)


@st.composite
def _convex_points(draw, min_radius=0.05, max_radius=1.0, max_points=8):
    """3 to ``max_points`` points on a circle (so in convex position), at least a third of the
    mean spacing apart, counter-clockwise."""
    n = draw(st.integers(3, max_points))
    radius = draw(_finite(min_radius, max_radius))
    weights = draw(st.lists(_finite(1.0, 2.0), min_size=n, max_size=n))
    start = draw(_finite(-math.pi, math.pi))
    total = sum(weights)
    out, angle = [], start
    for w in weights:
        out.append([radius * math.cos(angle), radius * math.sin(angle)])
        angle += 2.0 * math.pi * w / total
    return out


def shapes():
    """Any solid shape a body can have, in the scene-file form: circles (1 cm–1 m), rectangles
    (half extents 5 mm–1 m), convex polygons of 3–8 points (radius 5 cm–1 m), rounded polygons
    (rounding 5 mm–10 cm) and capsules."""
    extent = _finite(0.005, 1.0)
    return st.one_of(
        _finite(0.01, 1.0).map(lambda r: {"type": "circle", "radius": r}),
        st.tuples(extent, extent).map(
            lambda wh: {"type": "rectangle", "half_extents": list(wh)}),
        _convex_points().map(lambda p: {"type": "polygon", "points": p}),
        st.tuples(_convex_points(max_radius=0.8), _finite(0.005, 0.1)).map(
            lambda pr: {"type": "polygon", "points": pr[0], "radius": pr[1]}),
        st.tuples(_finite(0.05, 1.0), _finite(0.02, 0.5)).map(
            lambda hr: {"type": "capsule", "a": [-hr[0], 0.0], "b": [hr[0], 0.0],
                        "radius": hr[1]}),
    )


def bullet_shapes():
    """The shapes that tunnel in naive engines: discs of 2–10 cm, 1 m × 2 cm bars and hexagons
    of 5–30 cm."""
    def hexagon(r):
        return {"type": "polygon", "points": [
            [r * math.cos(k * math.pi / 3), r * math.sin(k * math.pi / 3)] for k in range(6)]}

    return st.one_of(
        _finite(0.02, 0.1).map(lambda r: {"type": "circle", "radius": r}),
        st.just({"type": "rectangle", "half_extents": [0.5, 0.01]}),
        _finite(0.05, 0.3).map(hexagon),
    )


@st.composite
def motions(draw, max_speed: float = 100.0, max_spin: float = 50.0, min_speed: float = 0.0):
    """``{"velocity": [vx, vy], "angular_velocity": w}``: a speed in [min_speed, max_speed] m/s
    in any direction and a spin up to ``max_spin`` rad/s either way."""
    speed = draw(_finite(min_speed, max(max_speed, min_speed)))
    direction = draw(_finite(-math.pi, math.pi))
    spin = draw(_finite(-max_spin, max_spin)) if max_spin > 0 else 0.0
    return {"velocity": [speed * math.cos(direction), speed * math.sin(direction)],
            "angular_velocity": spin}


@st.composite
def bodies(draw, extent: float = 10.0, max_speed: float = 100.0, kind: str = "dynamic",
           shape=None):
    """A body dict: a shape (``shapes()`` unless given), a pose within ``extent`` metres, and for
    dynamic and kinematic bodies a motion up to ``max_speed`` m/s and 50 rad/s; density 0.5–5
    kg/m², restitution 0–1, friction 0–1."""
    body: Dict[str, Any] = {
        "kind": kind,
        "shape": draw(shape if shape is not None else shapes()),
        "position": draw(points(extent)),
        "angle": draw(_finite(-math.pi, math.pi)),
        "density": draw(_finite(0.5, 5.0)),
        "restitution": draw(_finite(0.0, 1.0)),
        "friction": draw(_finite(0.0, 1.0)),
    }
    if kind != "static":
        body.update(draw(motions(max_speed)))
    return body


def _reach(shape: Dict[str, Any]) -> float:
    """The distance from a shape's origin to its farthest point (m)."""
    t = shape["type"]
    if t == "circle":
        return shape["radius"]
    if t == "rectangle":
        return math.hypot(*shape["half_extents"])
    if t == "capsule":
        return max(math.hypot(*shape["a"]), math.hypot(*shape["b"])) + shape["radius"]
    return max(math.hypot(*p) for p in shape["points"]) + shape.get("radius", 0.0)


@st.composite
def bullet_scenes(draw, max_bullets: int = 8, max_speed: float = 1000.0):
    """A closed 20 m × 20 m room of four 1 cm static walls with 1 to ``max_bullets`` bullets
    inside, starting clear of each other, fired in any direction at 10–100% of ``max_speed``
    m/s, spinning up to 100 rad/s, restitution 0–1, no gravity: every bullet can cross a wall
    many times over in one step if anything tunnels."""
    def wall(x, y, w, h):
        return {"kind": "static", "position": [x, y],
                "shape": {"type": "rectangle", "half_extents": [w, h]}}

    scene_bodies = [wall(-10, 0, 0.005, 10), wall(10, 0, 0.005, 10),
                    wall(0, -10, 10, 0.005), wall(0, 10, 10, 0.005)]
    kept = []
    for _ in range(draw(st.integers(1, max(1, max_bullets)))):
        shape = draw(bullet_shapes())
        position = draw(points(8.0))
        clear = all(
            math.dist(position, k["position"]) > _reach(shape) + _reach(k["shape"]) + 0.05
            for k in kept
        )
        motion = draw(motions(max_speed, 100.0, min_speed=0.1 * max_speed))
        if clear:
            kept.append(dict(kind="dynamic", shape=shape, position=position,
                             angle=draw(_finite(-math.pi, math.pi)),
                             restitution=draw(_finite(0.0, 1.0)), **motion))
    for i, b in enumerate(kept):
        b["name"] = f"bullet {i}"
    return {"gravity": [0.0, 0.0], "bodies": scene_bodies + kept}


def poses(world):
    """Every body's pose now, to check a step against: ``assert_no_tunnelling(world,
    before=poses(world))`` after stepping or moving bodies yourself."""
    return world._w._poses() if hasattr(world, "_w") else world._poses()


def assert_no_tunnelling(world, steps: int = 1, before=None) -> None:
    """Steps ``world`` ``steps`` times, checking after each step that no dynamic body passed
    through another; raises ``TunnellingError`` naming the bodies and the step.

    With ``before`` (from ``poses``), checks the world's state now against it instead, without
    stepping (for a step you took yourself)."""
    native = world._w if hasattr(world, "_w") else world
    if before is not None:
        why = native._tunnel_error(before)
        if why:
            raise TunnellingError(why)
        return
    for _ in range(steps):
        start = native._poses()
        native.step()
        why = native._tunnel_error(start)
        if why:
            raise TunnellingError(why)


def assert_no_deep_overlap(world, tolerance: float = 0.05) -> None:
    """Raises ``OverlapError`` if two bodies overlap now by more than ``tolerance`` metres (the
    engine keeps resting overlaps within its slop of 5 mm; soft contacts under heavy load may
    compress more)."""
    deepest: Optional[tuple] = world.deepest_overlap()
    if deepest is not None and deepest[0] > tolerance:
        depth, a, b = deepest
        names = world.body_names()
        label = lambda k: names[k] if k is not None else "a body added outside the scene"
        raise OverlapError(
            f"step {world.step_count}: {label(a)} and {label(b)} overlap by {depth} m (more "
            f"than {tolerance} m)"
        )
