"""Tests of the Python package against hand-computed cases and the engine's own guarantees.

Run after ``pip install ./python``: ``python -m unittest discover -s python/tests``.
"""

import json
import math
import os
import pickle
import unittest

import numpy as np

import sweep2d

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SCENES = os.path.join(ROOT, "scenes")


def ball_scene(y0=10.0, vx=0.0):
    """A ball falling in empty space: no ground, default gravity and step."""
    return {
        "bodies": [
            {
                "name": "ball",
                "kind": "dynamic",
                "position": [0.0, y0],
                "velocity": [vx, 0.0],
                "shape": {"type": "circle", "radius": 0.25},
            }
        ]
    }


def pile_scene():
    """A floor and a column of boxes dropped on it: collisions, a chaotic end."""
    boxes = [
        {
            "name": f"box {k}",
            "kind": "dynamic",
            "position": [0.2 * (k % 3), 1.0 + 1.2 * k],
            "angle": 0.3 * k,
            "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]},
        }
        for k in range(8)
    ]
    floor = {
        "name": "floor",
        "kind": "static",
        "position": [0, -0.5],
        "shape": {"type": "rectangle", "half_extents": [10, 0.5]},
    }
    return {"steps": 120, "bodies": [floor] + boxes}


class LoadAndStep(unittest.TestCase):
    def test_a_dict_builds_with_its_values(self):
        w = sweep2d.load_scene(ball_scene(y0=3.0, vx=2.0))
        self.assertEqual(w.body_ids(), [0])
        self.assertEqual(w.body_names(), ["ball"])
        self.assertEqual(w.position(0), (0.0, 3.0))
        self.assertEqual(w.velocity(0), (2.0, 0.0))
        self.assertEqual(w.body_id("ball"), 0)
        w.step(3)
        self.assertEqual(w.step_count, 3)
        self.assertAlmostEqual(w.time, 3 * w.dt, places=15)

    def test_a_scene_file_loads_by_path(self):
        path = os.path.join(SCENES, "newtons_cradle.json")
        with open(path, encoding="utf-8") as f:
            written = json.load(f)
        w = sweep2d.load_scene(path)
        self.assertEqual(w.body_names(), [b["name"] for b in written["bodies"]])
        first = written["bodies"][0]
        x, y = w.position(0)
        self.assertEqual((x, y), tuple(first["position"]))
        w.step()

    def test_free_fall_follows_the_integrator_exactly(self):
        # Semi-implicit Euler over n substeps of h: y = y0 - g h^2 n (n + 1) / 2, v = -g h n.
        w = sweep2d.load_scene(ball_scene(y0=10.0))
        rec = w.run(60, record_every=10)
        self.assertEqual(rec.positions.shape, (7, 1, 2))
        self.assertEqual(rec.time.shape, (7,))
        h = w.dt / 4
        for frame, t in enumerate(rec.time):
            n = round(t / h)
            y = 10.0 - 9.81 * h * h * n * (n + 1) / 2
            self.assertAlmostEqual(rec.positions[frame, 0, 1], y, delta=1e-9)
            self.assertAlmostEqual(rec.velocities[frame, 0, 1], -9.81 * h * n, delta=1e-9)
        self.assertEqual(rec.positions[-1, 0, 1], w.position(0)[1])


class Errors(unittest.TestCase):
    def test_a_bad_scene_raises_scene_error_naming_body_and_field(self):
        scene = ball_scene()
        scene["bodies"][0]["shape"]["radius"] = -1
        with self.assertRaises(sweep2d.SceneError) as caught:
            sweep2d.load_scene(scene)
        self.assertIsInstance(caught.exception, ValueError)
        text = str(caught.exception)
        self.assertIn("body 0", text)
        self.assertIn("ball", text)
        self.assertIn("shape", text)
        scene = ball_scene()
        scene["bodies"][0]["bounciness"] = 2
        with self.assertRaises(sweep2d.SceneError) as caught:
            sweep2d.load_scene(scene)
        self.assertIn("bounciness", str(caught.exception))

    def test_misuse_raises_and_never_crashes(self):
        w = sweep2d.load_scene(ball_scene())
        with self.assertRaises(IndexError):
            w.position(5)
        with self.assertRaises(ValueError):
            w.run(10, record_every=0)
        with self.assertRaises(sweep2d.SceneError):
            sweep2d.load_scene(os.path.join(SCENES, "no_such_scene.json"))
        with self.assertRaises(TypeError):
            sweep2d.load_scene(42)


class Recordings(unittest.TestCase):
    def test_impacts_come_as_a_structured_array_with_sub_step_times(self):
        w = sweep2d.load_scene(os.path.join(SCENES, "bullet_through_thin_walls.json"))
        rec = w.run(120)
        self.assertGreater(len(rec.impacts), 0)
        dt = w.dt
        for row in rec.impacts:
            # The impact's time lies inside its step.
            start = (row["step"]) * dt
            self.assertGreaterEqual(row["time"], start - 1e-12)
            self.assertLessEqual(row["time"], start + dt + 1e-12)
            self.assertGreater(row["speed"], 0.0)
            self.assertAlmostEqual(math.hypot(row["nx"], row["ny"]), 1.0, places=12)
            self.assertIn(row["body_a"], rec.ids)

    def test_to_pandas_is_one_row_per_frame_and_body(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is an optional dependency and is not installed")
        rec = sweep2d.load_scene(pile_scene()).run(20, record_every=5)
        df = rec.to_pandas()
        self.assertEqual(len(df), len(rec.time) * len(rec.names))
        self.assertEqual(list(df["x"][:9]), list(rec.positions[0, :, 0]))


class Pickling(unittest.TestCase):
    def test_a_pickled_world_continues_bit_for_bit(self):
        w = sweep2d.load_scene(pile_scene())
        w.step(40)
        copy = pickle.loads(pickle.dumps(w))
        self.assertEqual(copy.body_names(), w.body_names())
        a = w.run(80)
        b = copy.run(80)
        self.assertTrue(np.array_equal(a.positions, b.positions))
        self.assertTrue(np.array_equal(a.velocities, b.velocities))
        self.assertTrue(np.array_equal(a.angles, b.angles))

    def test_garbage_is_refused(self):
        with self.assertRaises(ValueError):
            sweep2d._native._restore(b"not a world")


class Ensembles(unittest.TestCase):
    def test_same_seed_same_result_on_any_number_of_threads(self):
        scene = pile_scene()
        one = sweep2d.ensemble(scene, n=6, steps=60, seed=7, threads=1)
        two = sweep2d.ensemble(scene, n=6, steps=60, seed=7, threads=2)
        self.assertEqual(one.final_positions.shape, (6, 9, 2))
        self.assertTrue(np.array_equal(one.final_positions, two.final_positions))
        self.assertTrue(np.array_equal(one.impacts, two.impacts))
        # Each run is the scene loaded alone and shifted by its own seed.
        other = sweep2d.ensemble(scene, n=6, steps=60, seed=8, threads=2)
        self.assertTrue(np.array_equal(other.final_positions[0], two.final_positions[1]))
        self.assertFalse(np.array_equal(other.final_positions, two.final_positions))

    def test_no_shift_repeats_the_plain_run(self):
        scene = pile_scene()
        runs = sweep2d.ensemble(scene, n=3, steps=50, shift=0.0)
        w = sweep2d.load_scene(scene)
        w.step(50)
        plain = np.array([w.position(i) for i in w.body_ids()])
        for k in range(3):
            self.assertTrue(np.array_equal(runs.final_positions[k], plain))


if __name__ == "__main__":
    unittest.main()
