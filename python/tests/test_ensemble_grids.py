"""Parameter-grid ensembles and recorded paths, against exact answers and single runs."""

import math
import unittest

import numpy as np

import sweep2d

HALF_GAP = 5.0 - 0.5  # inner faces of the walls at x = ±4.5


def walls_scene(radius=0.5, speed=100.0, restitution=1.0, wall_restitution=1.0, start=0.0):
    """No gravity; an elastic ball on the x axis between two static walls (the exact answer is a
    triangle wave between ±(4.5 − r)), starting at x = `start`. A contact's restitution is the
    larger of the two."""
    wall = {"kind": "static", "restitution": wall_restitution, "friction": 0.0,
            "shape": {"type": "rectangle", "half_extents": [0.5, 3.0]}}
    return {
        "gravity": [0.0, 0.0],
        "bodies": [
            dict(wall, name="left", position=[-5.0, 0.0]),
            dict(wall, name="right", position=[5.0, 0.0]),
            {"name": "ball", "kind": "dynamic", "position": [start, 0.0],
             "velocity": [speed, 0.0], "restitution": restitution, "friction": 0.0,
             "shape": {"type": "circle", "radius": radius}},
        ],
    }


def triangle_wave(x0, v, t, reach):
    """Where a point starting at x0 with speed v is after t seconds bouncing elastically
    between ±reach (unfold the path, fold it back)."""
    period = 4.0 * reach
    s = (x0 + reach + v * t) % period
    return s - reach if s <= 2.0 * reach else 3.0 * reach - s


class GridEnsembles(unittest.TestCase):
    def test_every_run_is_the_varied_scene_run_alone(self):
        base = walls_scene()
        g = sweep2d.grid(restitution=[0.0, 0.5, 1.0], speed=[3.0, 40.0, 333.0], bodies=["ball"])
        self.assertEqual(len(g), 9)
        runs = sweep2d.ensemble(base, steps=45, perturb=g, threads=2,
                                outputs={"paths": ["ball"], "record_every": 5})
        self.assertEqual(runs.final_positions.shape, (9, 3, 2))
        self.assertEqual(runs.paths.shape, (9, 10, 1, 2))
        self.assertEqual(runs.path_angles.shape, (9, 10, 1))
        self.assertEqual(runs.path_bodies, [2])
        np.testing.assert_array_equal(runs.path_time, np.arange(0, 46, 5) / 60.0)
        np.testing.assert_array_equal(runs.parameters["restitution"], np.repeat([0.0, 0.5, 1.0], 3))
        np.testing.assert_array_equal(runs.parameters["speed"], np.tile([3.0, 40.0, 333.0], 3))
        for k, scene in enumerate(g.scenes(base)):
            rec = sweep2d.load_scene(scene).run(45, record_every=5)
            self.assertTrue(np.array_equal(rec.positions[-1], runs.final_positions[k]), k)
            self.assertTrue(np.array_equal(rec.positions[:, 2:3, :], runs.paths[k]), k)
            self.assertEqual(rec.positions.shape[0], runs.paths.shape[1])
        # The base scene is not changed by building the grid's scenes.
        self.assertEqual(base["bodies"][2]["velocity"], [100.0, 0.0])
        one = sweep2d.ensemble(base, steps=45, perturb=g, threads=1, _chunk=4,
                               outputs={"paths": ["ball"], "record_every": 5})
        self.assertTrue(np.array_equal(one.paths, runs.paths))
        self.assertTrue(np.array_equal(one.kinetic_energy, runs.kinetic_energy))

    def test_elastic_ball_paths_follow_the_triangle_wave_at_every_speed(self):
        speeds = np.linspace(0.5, 1000.0, 37)
        radii = [0.05, 0.5]
        g = sweep2d.grid(speed=speeds, bodies=["ball"])
        for r in radii:
            runs = sweep2d.ensemble(walls_scene(radius=r), steps=120, perturb=g,
                                    outputs={"paths": ["ball"]})
            reach = HALF_GAP - r
            for k, v in enumerate(speeds):
                want = [triangle_wave(0.0, v, t, reach) for t in runs.path_time]
                np.testing.assert_allclose(runs.paths[k, :, 0, 0], want, rtol=0, atol=1e-6,
                                           err_msg=f"radius {r}, speed {v}")
                # Energy kept: 0.5·m·v² with m = ρ·π·r².
                m = math.pi * r * r
                self.assertAlmostEqual(runs.kinetic_energy[k] / (0.5 * m * v * v), 1.0, delta=1e-9)
                self.assertEqual(runs.held[k], 0)

    def test_one_fast_bounce_keeps_its_restitution(self):
        # 200 m/s: the bounce is the continuous pass's, isolated and exact: speed e·v after it
        # (the walls' restitution 0, so the contact takes the ball's). With restitution 0 there
        # is no bounce, and the ball ends at rest against the wall either way: from x = 0 the
        # ball starts the step it meets the wall 0.67 m away, beyond what the broad phase pairs
        # it with, so the meeting is an impact of the pass at its exact time; from x = 0.5 it
        # starts that step 0.17 m away, its contact with the wall exists, and the solver's
        # speculative contact, which sees the wall coming, stops it (a contact, not an impact;
        # docs/continuous.md, "The speculative margin").
        g = sweep2d.grid(restitution=[0.0, 0.3, 0.7, 1.0], bodies=["ball"])
        m = math.pi * 0.25
        for start in (0.0, 0.5):
            scene = walls_scene(speed=200.0, wall_restitution=0.0, start=start)
            runs = sweep2d.ensemble(scene, steps=2, perturb=g)
            for k, e in enumerate(g.parameters["restitution"]):
                want = 0.5 * m * (e * 200.0) ** 2
                self.assertLessEqual(abs(runs.kinetic_energy[k] - want),
                                     1e-9 * 0.5 * m * 200.0**2, (start, e))
                if e == 0.0 and start == 0.5:
                    self.assertEqual(runs.impacts[k], 0)
                    continue
                self.assertEqual(runs.impacts[k], 1, (start, e))
                # The wall is reached at (4.5 − 0.5 − start) / 200 s.
                self.assertAlmostEqual(runs.first_impact_time[k], (4.0 - start) / 200.0,
                                       delta=1e-12)

    def test_variations_as_a_list_and_scene_fields(self):
        base = walls_scene(speed=10.0)
        variations = [{"position": [1.0, 0.0]}, {"velocity": [-10.0, 0.0], "gravity": [0, -1]}]
        runs = sweep2d.ensemble(base, steps=30, perturb=variations, outputs={"paths": [2]})
        self.assertEqual(runs.paths.shape, (2, 31, 1, 2))
        self.assertEqual(runs.paths[0, 0, 0, 0], 1.0)
        self.assertLess(runs.paths[1, 1, 0, 0], 0.0)
        self.assertLess(runs.paths[1, -1, 0, 1], 0.0)  # gravity pulled it down
        self.assertEqual(sorted(runs.parameters), [])  # no field common to every run

    def test_a_pandas_table_has_a_row_per_run(self):
        g = sweep2d.grid(friction=[0.1, 0.9], velocity=[[1, 0], [2, 0]], bodies=["ball"])
        df = sweep2d.ensemble(walls_scene(), steps=5, perturb=g).to_pandas()
        self.assertEqual(list(df.columns[:3]), ["friction", "velocity_x", "velocity_y"])
        self.assertEqual(len(df), 4)
        self.assertEqual(list(df["velocity_x"]), [1.0, 2.0, 1.0, 2.0])

    def test_bad_perturbations_raise_before_anything_runs(self):
        base = walls_scene()
        with self.assertRaisesRegex(ValueError, "unknown variation field"):
            sweep2d.grid(bounciness=[1.0])
        with self.assertRaisesRegex(ValueError, "has no values"):
            sweep2d.grid(restitution=[])
        with self.assertRaisesRegex(ValueError, "no body named 'bal'"):
            sweep2d.ensemble(base, steps=2, perturb=sweep2d.grid(speed=[1.0], bodies=["bal"]))
        with self.assertRaisesRegex(ValueError, "no velocity to rescale"):
            sweep2d.ensemble(base, steps=2, perturb=sweep2d.grid(speed=[1.0], bodies=["left"]))
        with self.assertRaisesRegex(ValueError, "leave n out"):
            sweep2d.ensemble(base, n=3, steps=2, perturb=sweep2d.grid(speed=[1.0, 2.0]))
        with self.assertRaisesRegex(sweep2d.SceneError, "run 1: .*restitution"):
            sweep2d.ensemble(base, steps=2, perturb=sweep2d.grid(restitution=[0.5, -1.0]))
        with self.assertRaisesRegex(ValueError, "no body named 'nobody'"):
            sweep2d.ensemble(base, n=2, steps=2, outputs={"paths": ["nobody"]})
        with self.assertRaisesRegex(ValueError, "unknown outputs"):
            sweep2d.ensemble(base, n=2, steps=2, outputs={"path": ["ball"]})
        with self.assertRaisesRegex(ValueError, "unknown perturbation"):
            sweep2d.ensemble(base, n=2, steps=2, perturb={"jitter": 1.0})
        with self.assertRaisesRegex(ValueError, "need n"):
            sweep2d.ensemble(base, steps=2)

    def test_grid_tasks_pickle_and_join_bit_for_bit(self):
        import pickle

        base = walls_scene()
        g = sweep2d.grid(speed=[10.0, 20.0, 30.0, 40.0, 50.0], bodies=["ball"])
        whole = sweep2d.ensemble(base, steps=20, perturb=g, outputs={"paths": ["ball"]})
        tasks = sweep2d.ensemble_tasks(base, steps=20, perturb=g, chunk=2,
                                       outputs={"paths": ["ball"]})
        self.assertEqual([t["count"] for t in tasks], [2, 2, 1])
        parts = [sweep2d.run_ensemble_task(pickle.loads(pickle.dumps(t))) for t in tasks]
        joined = sweep2d.join_ensemble(list(reversed(parts)))
        self.assertTrue(np.array_equal(joined.paths, whole.paths))
        np.testing.assert_array_equal(joined.parameters["speed"], g.parameters["speed"])


if __name__ == "__main__":
    unittest.main()
