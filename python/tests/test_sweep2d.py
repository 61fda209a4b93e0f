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


class BuildingAndDriving(unittest.TestCase):
    def test_bodies_and_joints_from_dicts_and_impulses_by_hand(self):
        w = sweep2d.new_world(gravity=(0.0, 0.0))
        # A 1 kg unit box (1 kg/m²): an impulse of 2 N·s gives 2 m/s.
        box = w.add_body(
            {"name": "box", "kind": "dynamic", "position": [0, 0],
             "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]}}
        )
        self.assertEqual(box, 0)
        w.apply_impulse(box, (2.0, 0.0))
        self.assertEqual(w.velocity(box), (2.0, 0.0))
        w.set_velocity(box, (0.0, 0.0))
        # A force of 6 N for one step: 6 · dt m/s.
        w.apply_force(box, (6.0, 0.0))
        w.step()
        self.assertAlmostEqual(w.velocity(box)[0], 6.0 * w.dt, delta=1e-12)
        w.set_transform(box, (5.0, 1.0), 0.5)
        self.assertEqual(w.position(box), (5.0, 1.0))
        # A pendulum: a bob on a revolute joint keeps its distance to the pin.
        pin = w.add_body({"name": "pin", "kind": "static", "position": [0, 10],
                          "shape": {"type": "circle", "radius": 0.05}})
        bob = w.add_body({"name": "bob", "kind": "dynamic", "position": [2, 10],
                          "velocity": [0, -3], "shape": {"type": "circle", "radius": 0.2}})
        w.add_joint({"type": "distance", "body_a": "pin", "body_b": bob,
                     "anchor_a": [0, 10], "anchor_b": [2, 10]})
        w.step(60)
        x, y = w.position(bob)
        self.assertAlmostEqual(math.hypot(x, y - 10), 2.0, delta=1e-3)
        self.assertNotEqual((x, y), (2.0, 10.0))
        self.assertEqual(w.body_names(), ["box", "pin", "bob"])
        self.assertEqual(pin, 1)

    def test_a_bad_body_or_joint_adds_nothing(self):
        w = sweep2d.new_world()
        with self.assertRaises(sweep2d.SceneError) as caught:
            w.add_body({"kind": "dynamic", "position": [0, 0], "density": -1,
                        "shape": {"type": "circle", "radius": 1}})
        self.assertIn("density", str(caught.exception))
        with self.assertRaises(sweep2d.SceneError):
            w.add_body({"kind": "dynamic", "position": [0, 0], "shape": {"type": "blob"}})
        with self.assertRaises(sweep2d.SceneError):
            w.add_joint({"type": "revolute", "body_a": 0, "body_b": 1, "anchor": [0, 0]})
        self.assertEqual(w.body_ids(), [])
        w.add_body({"name": "a", "kind": "static", "position": [0, 0],
                    "shape": {"type": "circle", "radius": 1}})
        with self.assertRaises(sweep2d.SceneError) as caught:
            w.add_body({"name": "a", "kind": "static", "position": [3, 0],
                        "shape": {"type": "circle", "radius": 1}})
        self.assertIn("name", str(caught.exception))
        self.assertEqual(w.body_ids(), [0])
        with self.assertRaises(ValueError):
            w.set_velocity(0, (1.0, 0.0))  # a static body cannot move

    def test_gameplay_setters_change_the_simulation(self):
        w = sweep2d.new_world()
        w.add_body({"name": "floor", "kind": "static", "position": [0, -0.5],
                    "shape": {"type": "rectangle", "half_extents": [10, 0.5]}})
        crate = w.add_body({"name": "crate", "kind": "dynamic", "position": [0, 3],
                            "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]}})
        # Static: it stays where it is.
        w.set_body_kind(crate, "static")
        w.step(30)
        self.assertEqual(w.position(crate), (0.0, 3.0))
        # Dynamic with gravity scale 0 and locked along y: a push along x moves it, one along y
        # does nothing.
        w.set_body_kind(crate, "dynamic")
        w.set_gravity_scale(crate, 0.0)
        w.set_locked_translation(crate, False, True)
        w.apply_impulse(crate, (1.0, 5.0))
        self.assertEqual(w.velocity(crate), (1.0, 0.0))
        # Given 4 kg: the same impulse gives a quarter of the speed.
        w.set_locked_translation(crate, False, False)
        w.set_velocity(crate, (0.0, 0.0))
        w.set_mass_data(crate, mass=4.0, inertia=1.0, center=(0.0, 0.0))
        w.apply_impulse(crate, (1.0, 0.0))
        self.assertEqual(w.velocity(crate), (0.25, 0.0))
        # Disabled: out of the queries; enabled: back.
        w.set_enabled(crate, False)
        self.assertEqual(w.overlap({"type": "circle", "radius": 0.1}, w.position(crate)), [])
        w.set_enabled(crate, True)
        self.assertEqual(w.overlap({"type": "circle", "radius": 0.1}, w.position(crate)), [crate])
        with self.assertRaises(ValueError):
            w.set_body_kind(crate, "wobbly")
        with self.assertRaises(ValueError):
            w.set_mass_data(crate, mass=-1.0, inertia=1.0, center=(0.0, 0.0))
        with self.assertRaises(ValueError):
            w.set_mass_data(crate, mass=1.0)
        w.set_mass_data(crate)
        w.set_fixed_rotation(crate, True)
        w.set_damping(crate, 0.5, 0.5)

    def test_queries_match_the_geometry(self):
        w = sweep2d.new_world(gravity=(0.0, 0.0))
        wall = w.add_body({"name": "wall", "kind": "static", "position": [5, 0],
                           "shape": {"type": "rectangle", "half_extents": [0.5, 2]}})
        hit = w.ray_cast((0.0, 0.0), (10.0, 0.0))
        self.assertEqual(hit["body"], wall)
        self.assertAlmostEqual(hit["fraction"], 0.45, delta=1e-12)
        self.assertEqual(hit["normal"], (-1.0, 0.0))
        self.assertIsNone(w.ray_cast((0.0, 3.0), (10.0, 0.0)))
        # A disc of radius 0.5 swept 10 m along x meets the wall's face at x = 4.5: at 4 m.
        cast = w.shape_cast({"type": "circle", "radius": 0.5}, (0.0, 0.0), 0.0, (10.0, 0.0))
        self.assertAlmostEqual(cast["fraction"], 0.4, delta=1e-9)
        self.assertEqual(w.overlap({"type": "circle", "radius": 0.6}, (4.0, 0.0)), [wall])
        self.assertEqual(w.overlap({"type": "circle", "radius": 0.4}, (4.0, 0.0)), [])

    def test_events_report_the_last_step(self):
        w = sweep2d.load_scene(os.path.join(SCENES, "bullet_through_thin_walls.json"))
        seen = {"impacts": 0, "contact_begin": 0}
        for _ in range(60):
            w.step()
            e = w.events()
            for key in seen:
                seen[key] += len(e[key])
            for i in e["impacts"]:
                self.assertTrue(0.0 <= i["fraction"] <= 1.0)
                self.assertGreater(i["speed"], 0.0)
        self.assertGreater(seen["impacts"], 0)


class Recordings(unittest.TestCase):
    def test_impacts_come_as_a_structured_array_with_sub_step_times(self):
        w = sweep2d.load_scene(os.path.join(SCENES, "bullet_through_thin_walls.json"))
        rec = w.run(120)
        self.assertGreater(len(rec.impacts), 0)
        dt = w.dt
        for row in rec.impacts:
            # The impact's time lies inside its step.
            start = (row["step"]) * dt
            self.assertTrue(0.0 <= row["fraction"] <= 1.0)
            self.assertAlmostEqual(row["time"], start + row["fraction"] * dt, delta=1e-12)
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

    def test_a_scene_with_a_character_pickles_and_continues_bit_for_bit(self):
        w = sweep2d.load_scene(os.path.join(SCENES, "character.json"))
        for steps in (37, 53):  # walking, then mid-script with jumps behind it
            w.step(steps)
            copy = pickle.loads(pickle.dumps(w))
            self.assertEqual(copy.step_count, w.step_count)
            a, b = w.run(150), copy.run(150)
            self.assertEqual(a.names[-1], "player")  # the scene's character
            self.assertTrue(np.array_equal(a.positions, b.positions))
            self.assertTrue(np.array_equal(a.velocities, b.velocities))
            # The character moved over those steps: its state, not only its body, came across.
            self.assertGreater(np.ptp(a.positions[:, -1, 0]), 0.5)
            w = copy

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

    def test_chunks_and_outcomes_are_those_of_each_run(self):
        scene = pile_scene()
        whole = sweep2d.ensemble(scene, n=5, steps=90, seed=3, threads=2)
        chunked = sweep2d.ensemble(scene, n=5, steps=90, seed=3, threads=2, _chunk=2)
        shown = sweep2d.ensemble(scene, n=5, steps=90, seed=3, threads=1, progress=True)
        self.assertTrue(np.array_equal(whole.final_positions, shown.final_positions))
        for field in ("final_positions", "impacts", "held", "first_impact_time",
                      "deepest_overlap", "kinetic_energy"):
            a, b = getattr(whole, field), getattr(chunked, field)
            self.assertTrue(np.array_equal(a, b, equal_nan=True), field)
        # Run 0 with no shift: the plain run's energy at the end, and its first impact.
        plain = sweep2d.ensemble(scene, n=1, steps=90, shift=0.0)
        w = sweep2d.load_scene(scene)
        first = math.nan
        for _ in range(90):
            w.step()
            if math.isnan(first) and w.events()["impacts"]:
                first = w.events()["impacts"][0]["time"]
        self.assertEqual(plain.kinetic_energy[0], w.kinetic_energy())
        if math.isnan(first):
            self.assertTrue(math.isnan(plain.first_impact_time[0]))
        else:
            self.assertEqual(plain.first_impact_time[0], first)
        self.assertGreaterEqual(plain.deepest_overlap[0], 0.0)

    def test_tasks_run_in_other_processes_give_the_same_ensemble(self):
        import concurrent.futures

        scene = pile_scene()
        whole = sweep2d.ensemble(scene, n=7, steps=60, seed=11, threads=1)
        tasks = sweep2d.ensemble_tasks(scene, n=7, steps=60, seed=11, chunk=3, threads=1)
        self.assertEqual([t["count"] for t in tasks], [3, 3, 1])
        with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
            parts = list(pool.map(sweep2d.run_ensemble_task, tasks))
        joined = sweep2d.join_ensemble(list(reversed(parts)))
        self.assertTrue(np.array_equal(whole.final_positions, joined.final_positions))
        self.assertTrue(np.array_equal(whole.kinetic_energy, joined.kinetic_energy))

    def test_a_dask_local_cluster_gives_the_same_ensemble(self):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            self.skipTest("dask.distributed is optional and is not installed")
        scene = pile_scene()
        whole = sweep2d.ensemble(scene, n=6, steps=60, seed=5, threads=1)
        tasks = sweep2d.ensemble_tasks(scene, n=6, steps=60, seed=5, chunk=2, threads=1)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None, host="127.0.0.1") as cluster:
            with Client(cluster) as client:
                parts = client.gather(client.map(sweep2d.run_ensemble_task, tasks))
        joined = sweep2d.join_ensemble(parts)
        for field in ("final_positions", "impacts", "kinetic_energy", "deepest_overlap"):
            self.assertTrue(np.array_equal(getattr(whole, field), getattr(joined, field)), field)

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


class Replays(unittest.TestCase):
    def test_a_recording_writes_the_html_replay(self):
        import tempfile

        w = sweep2d.load_scene(pile_scene())
        rec = w.run(30, record_every=3)
        text = rec.to_html()
        self.assertTrue(text.lstrip().lower().startswith("<!doctype html"))
        for name in rec.names:
            self.assertIn(name, text)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "replay.html")
            self.assertEqual(rec.to_html(path), path)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), text)
        self.assertIn("<iframe", rec._repr_html_())


class Plotting(unittest.TestCase):
    def test_a_recording_plots_its_shapes_paths_and_impacts(self):
        try:
            import matplotlib

            matplotlib.use("Agg")
        except ImportError:
            self.skipTest("matplotlib is an optional dependency and is not installed")
        w = sweep2d.load_scene(os.path.join(SCENES, "bullet_through_thin_walls.json"))
        rec = w.run(90, record_every=3)
        self.assertEqual(len(rec.outlines), len(rec.names))
        ax = rec.plot()
        # One path per moving body, one marker line for the impacts, and a patch or line for
        # every piece of every body drawn.
        moving = sum(np.ptp(rec.positions[:, b, :], axis=0).max() > 0 for b in rec.ids)
        self.assertGreaterEqual(len(ax.lines), moving + 1)
        self.assertGreater(len(ax.patches), 0)
        x0, x1 = ax.get_xlim()
        self.assertLessEqual(x0, rec.positions[:, :, 0].min())
        self.assertGreaterEqual(x1, rec.positions[:, :, 0].max())
