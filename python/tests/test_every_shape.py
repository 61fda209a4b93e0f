"""Every shape kind from Python, with masses against hand-computed areas, and the recording's
documented shapes and dtypes."""

import math
import unittest

import numpy as np

import sweep2d

# (shape, its area in m²: the mass at density 1 kg/m²)
SOLIDS = [
    ({"type": "circle", "radius": 0.5}, math.pi * 0.25),
    ({"type": "rectangle", "half_extents": [1.0, 0.5]}, 2.0),
    ({"type": "polygon", "points": [[0, 0], [2, 0], [0, 1]]}, 1.0),
    # A unit square rounded by 0.1: its area, its sides pushed out (4 × 1 × 0.1), the corners'
    # quarter circles (π·0.01).
    ({"type": "polygon", "points": [[0, 0], [1, 0], [1, 1], [0, 1]], "radius": 0.1},
     1.0 + 0.4 + math.pi * 0.01),
    ({"type": "capsule", "a": [-1, 0], "b": [1, 0], "radius": 0.5}, 2.0 + math.pi * 0.25),
    # An L of three unit squares.
    ({"type": "concave", "points": [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]}, 3.0),
    ({"type": "compound", "pieces": [
        {"position": [0, 0], "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]}},
        {"position": [3, 0], "angle": 0.3, "shape": {"type": "circle", "radius": 1.0}}]},
     1.0 + math.pi),
]


class EveryShape(unittest.TestCase):
    def test_every_solid_kind_has_its_hand_computed_mass(self):
        w = sweep2d.new_world(gravity=(0.0, 0.0))
        for k, (shape, area) in enumerate(SOLIDS):
            b = w.add_body({"kind": "dynamic", "position": [10.0 * k, 0.0],
                            "velocity": [1.0, 0.0], "shape": shape})
            self.assertEqual(b, k)
            # Kinetic energy ½·m·v² at 1 m/s and no spin: the bodies' masses so far sum to twice
            # the world's energy.
            with self.subTest(shape=shape["type"]):
                total = sum(a for _, a in SOLIDS[:k + 1])
                self.assertAlmostEqual(2.0 * w.kinetic_energy(), total, delta=1e-9)

    def test_segments_chains_and_several_shapes_per_body(self):
        w = sweep2d.new_world()
        w.add_body({"kind": "static", "position": [0, 0],
                    "shape": {"type": "chain", "points": [[-10, 1], [-5, 0], [5, 0], [10, 1]]}})
        w.add_body({"kind": "static", "position": [0, 0],
                    "shape": {"type": "segment", "a": [-1, 3], "b": [3, 3]}})
        dumbbell = w.add_body({
            "kind": "dynamic", "position": [0, 6], "shape": {"type": "circle", "radius": 0.3},
            "shapes": [{"shape": {"type": "circle", "radius": 0.3}, "offset": [2, 0]},
                       {"shape": {"type": "rectangle", "half_extents": [1, 0.05]},
                        "offset": [1, 0], "density": 2.0}]})
        # The dumbbell (shapes over x -0.3..2.3) comes to rest on the segment shelf at y = 3
        # (x -1..3), its discs' centres 0.3 m above it; the ball on the chain's flat part.
        ball = w.add_body({"kind": "dynamic", "position": [3, 2],
                           "shape": {"type": "circle", "radius": 0.2}})
        w.step(240)
        x, y = w.position(ball)
        self.assertAlmostEqual(y, 0.2, delta=0.01)
        _, yd = w.position(dumbbell)
        self.assertAlmostEqual(yd, 3.3, delta=0.01)
        self.assertEqual(len(w.body_ids()), 4)

    def test_recording_arrays_have_the_documented_shapes_and_dtypes(self):
        rec = sweep2d.load_scene(sweep2d.demo_scene()).run(30, record_every=3)
        t, n = 11, 10
        for name, shape in [("time", (t,)), ("positions", (t, n, 2)), ("angles", (t, n)),
                            ("velocities", (t, n, 2)), ("angular_velocities", (t, n))]:
            array = getattr(rec, name)
            self.assertEqual(array.shape, shape, name)
            self.assertEqual(array.dtype, np.float64, name)
        self.assertEqual(rec.impacts.dtype["step"], np.int64)
        self.assertEqual(rec.impacts.dtype["fraction"], np.float64)
        self.assertEqual(rec.events.dtype["kind"].kind, "U")
        self.assertEqual(len(rec.names), n)
        self.assertEqual(rec.ids, list(range(n)))


if __name__ == "__main__":
    unittest.main()
