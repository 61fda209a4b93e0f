"""The package's recordings equal the command line's (`sweep2d run`), bit for bit, on every
shipped scene: the same engine, the same steps, the same numbers.

The command line writes each number in its shortest form that reads back to the same double, so
the CSV files compare exactly. The binary is ``$SWEEP2D_BIN``, else the newer of the workspace's
``target/{release,debug}/sweep2d`` (built by ``cargo build --features cli`` or ``cargo test
--all-features``). Without one these tests are skipped, unless ``SWEEP2D_REQUIRE_CLI=1`` (as in
CI), which makes a missing binary a failure.
"""

import csv
import glob
import os
import subprocess
import tempfile
import unittest

import numpy as np

import sweep2d

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STEPS = 240
EVERY = 3


def command_line():
    given = os.environ.get("SWEEP2D_BIN")
    if given:
        return given
    built = [os.path.join(ROOT, "target", kind, "sweep2d") for kind in ("release", "debug")]
    found = [c for c in built if os.path.isfile(c) and os.access(c, os.X_OK)]
    if found:
        return max(found, key=os.path.getmtime)  # the newer build
    if os.environ.get("SWEEP2D_REQUIRE_CLI") == "1":
        raise AssertionError(
            "SWEEP2D_REQUIRE_CLI=1 but no sweep2d binary: set SWEEP2D_BIN or run "
            "`cargo build --release --features cli`"
        )
    raise unittest.SkipTest("no sweep2d binary (cargo build --release --features cli)")


class MatchesTheCommandLine(unittest.TestCase):
    def test_every_shipped_scene_bit_for_bit(self):
        binary = command_line()
        scenes = sorted(glob.glob(os.path.join(ROOT, "scenes", "*.json")))
        self.assertGreaterEqual(len(scenes), 8)
        self.kinds = set()
        for path in scenes:
            with self.subTest(scene=os.path.basename(path)), tempfile.TemporaryDirectory() as out:
                subprocess.run(
                    [binary, "run", path, "--steps", str(STEPS), "--out", out, "--plot", "none",
                     "--record-every", str(EVERY)],
                    check=True, capture_output=True,
                )
                rec = sweep2d.load_scene(path).run(STEPS, record_every=EVERY)
                self.compare_frames(rec, os.path.join(out, "trajectory.csv"))
                self.compare_impacts(rec, os.path.join(out, "events.csv"))
        # The shipped scenes between them have every kind but a hold (which they never need).
        kinds = {"contact_begin", "contact_end", "impact", "sensor_begin", "sensor_end", "sleep",
                 "wake"}
        self.assertEqual(self.kinds & kinds, kinds)

    def test_the_demo_scene_bit_for_bit(self):
        binary = command_line()
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([binary, "demo", "--out", out, "--plot", "none"], check=True,
                           capture_output=True)
            scene = sweep2d.demo_scene()
            rec = sweep2d.load_scene(scene).run(scene["steps"])
            self.compare_frames(rec, os.path.join(out, "trajectory.csv"))
            self.kinds = set()
            self.compare_impacts(rec, os.path.join(out, "events.csv"))
            self.assertGreater(len(rec.impacts), 10)

    def compare_frames(self, rec, path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        n = len(rec.names)
        t = len(rec.time)
        self.assertEqual(len(rows), t * n)
        self.assertEqual([r["body"] for r in rows[:n]], list(rec.names))
        column = lambda name: np.array([float(r[name]) for r in rows]).reshape(t, n)
        self.assertTrue(np.array_equal(column("time")[:, 0], rec.time))
        self.assertTrue(np.array_equal(column("x"), rec.positions[:, :, 0]))
        self.assertTrue(np.array_equal(column("y"), rec.positions[:, :, 1]))
        self.assertTrue(np.array_equal(column("angle"), rec.angles))
        self.assertTrue(np.array_equal(column("vx"), rec.velocities[:, :, 0]))
        self.assertTrue(np.array_equal(column("vy"), rec.velocities[:, :, 1]))
        self.assertTrue(np.array_equal(column("omega"), rec.angular_velocities))

    def compare_events(self, rec, path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(rec.events))
        index = {name: i for i, name in enumerate(rec.names)}
        pairs = [("time", "time"), ("fraction", "fraction"), ("normal_x", "nx"),
                 ("normal_y", "ny"), ("point_x", "x"), ("point_y", "y"),
                 ("relative_speed", "speed"), ("impulse", "impulse")]
        for r, e in zip(rows, rec.events):
            self.assertEqual(r["kind"], e["kind"])
            self.assertEqual(int(r["step"]), e["step"])
            self.assertEqual(index.get(r["body_a"], -1), e["body_a"])
            self.assertEqual(index.get(r["body_b"], -1), e["body_b"])
            for csv_name, field in pairs:
                self.assertEqual(float(r[csv_name]), float(e[field]), csv_name)
        return {r["kind"] for r in rows}

    def compare_impacts(self, rec, path):
        self.kinds |= self.compare_events(rec, path)
        with open(path, newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["kind"] == "impact"]
        self.assertEqual(len(rows), len(rec.impacts))
        index = {name: i for i, name in enumerate(rec.names)}
        for r, i in zip(rows, rec.impacts):
            self.assertEqual(index[r["body_a"]], i["body_a"])
            self.assertEqual(index[r["body_b"]], i["body_b"])
            pairs = [("time", "time"), ("fraction", "fraction"), ("normal_x", "nx"),
                     ("normal_y", "ny"), ("point_x", "x"), ("point_y", "y"),
                     ("relative_speed", "speed"), ("impulse", "impulse")]
            for csv_name, field in pairs:
                self.assertEqual(float(r[csv_name]), float(i[field]), csv_name)


if __name__ == "__main__":
    unittest.main()
