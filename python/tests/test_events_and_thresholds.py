"""Every kind of event reaches Python, with hand-checked numbers."""

import math
import unittest

import sweep2d

G = 9.81


def hanging_box():
    w = sweep2d.new_world()
    pin = w.add_body({"name": "pin", "kind": "static", "position": [0, 5],
                      "shape": {"type": "circle", "radius": 0.05}})
    box = w.add_body({"name": "box", "kind": "dynamic", "position": [0, 4],
                      "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]}})
    j = w.add_joint({"type": "revolute", "body_a": "pin", "body_b": "box", "anchor": [0, 5]})
    return w, pin, box, j


class Events(unittest.TestCase):
    def test_joint_events_past_a_threshold_carry_the_reaction(self):
        w, pin, box, j = hanging_box()
        self.assertEqual(j, 0)
        weight = 1.0 * G  # a 1 m × 1 m box of density 1
        w.step(30)
        self.assertEqual(w.events()["joint_events"], [])
        fx, fy, torque = w.joint_reaction(j)
        self.assertAlmostEqual(fy, weight, delta=1e-3 * weight)
        w.set_joint_event_thresholds(j, force=0.5 * weight)
        w.step()
        (e,) = w.events()["joint_events"]
        self.assertEqual((e["joint"], e["body_a"], e["body_b"]), (0, pin, box))
        self.assertAlmostEqual(e["force"], weight, delta=1e-3 * weight)
        self.assertEqual(e["step"], w.step_count - 1)  # the step taken, counted from 0
        with self.assertRaisesRegex(ValueError, "force_threshold"):
            w.set_joint_event_thresholds(j, force=-1.0)
        with self.assertRaisesRegex(IndexError, "no joint 3"):
            w.set_joint_event_thresholds(3, force=1.0)
        w.step()
        self.assertEqual(len(w.events()["joint_events"]), 1, "the refused call kept 0.5·weight")

    def test_contact_forces_sleep_and_wake(self):
        w = sweep2d.new_world()
        floor = w.add_body({"kind": "static", "position": [0, -0.5],
                            "shape": {"type": "rectangle", "half_extents": [5, 0.5]}})
        crate = w.add_body({"name": "crate", "kind": "dynamic", "position": [0, 0.5],
                            "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]}})
        w.set_contact_force_threshold(crate, 1.0)
        w.step(20)
        (f,) = w.events()["contact_forces"]
        self.assertEqual({f["body_a"], f["body_b"]}, {floor, crate})
        self.assertAlmostEqual(f["force"], G, delta=0.01 * G)  # its weight, 1 kg
        self.assertAlmostEqual(f["impulse"], G * w.dt, delta=0.01 * G * w.dt)
        self.assertIsNone(f["impact_fraction"])
        w.set_contact_force_threshold(crate, None)
        w.step()
        self.assertEqual(w.events()["contact_forces"], [])
        with self.assertRaisesRegex(ValueError, "contact_force_threshold"):
            w.set_contact_force_threshold(crate, -5.0)
        asleep = []
        for _ in range(300):
            w.step()
            asleep += w.events()["fell_asleep"]
        self.assertEqual(asleep, [crate])
        # A ball dropped on it wakes it in the step they meet.
        ball = w.add_body({"kind": "dynamic", "position": [0, 1.5], "velocity": [0, -30],
                           "shape": {"type": "circle", "radius": 0.2}})
        woke, impacts = [], []
        for _ in range(3):
            w.step()
            woke += w.events()["woke"]
            impacts += w.events()["impacts"]
            self.assertEqual(w.events()["held"], [])
        self.assertEqual({impacts[0]["body_a"], impacts[0]["body_b"]}, {ball, crate})
        self.assertEqual(woke, [crate])
        self.assertNotEqual(w.velocity(crate), (0.0, 0.0))


if __name__ == "__main__":
    unittest.main()


class Settings(unittest.TestCase):
    def test_world_settings_are_read_changed_and_checked(self):
        w = sweep2d.new_world()
        ball = w.add_body({"kind": "dynamic", "position": [0, 10],
                           "shape": {"type": "circle", "radius": 0.1}})
        self.assertEqual(w.config["substeps"], 4)
        w.configure(gravity=(0.0, -1.62), substeps=8)
        self.assertEqual(w.config["gravity"], [0.0, -1.62])
        w.step(60)
        # Semi-implicit Euler over 480 substeps of h = 1/480 s under 1.62 m/s²: v = -1.62,
        # y = 10 - 1.62·h²·(1 + 2 + ... + 480).
        h = 1.0 / 480.0
        self.assertAlmostEqual(w.velocity(ball)[1], -1.62, delta=1e-12)
        self.assertAlmostEqual(w.position(ball)[1], 10 - 1.62 * h * h * 480 * 481 / 2, delta=1e-9)
        before = w.config
        for bad in ({"dt": -1.0}, {"substeps": 0}, {"friction_mixing": "Bogus"}, {"gravty": (0, 0)}):
            with self.assertRaises(ValueError):
                w.configure(**bad)
            self.assertEqual(w.config, before, bad)


class Controls(unittest.TestCase):
    def world(self):
        w = sweep2d.new_world(gravity=(0.0, 0.0))
        w.add_body({"name": "ground", "kind": "static", "position": [0, 0],
                    "shape": {"type": "circle", "radius": 0.1}})
        return w

    def test_torque_kinematic_target_and_sleep(self):
        w = self.world()
        disc = w.add_body({"kind": "dynamic", "position": [5, 0],
                           "shape": {"type": "circle", "radius": 1.0}})
        w.apply_torque(disc, 3.0)
        w.step()
        inertia = 0.5 * math.pi * 1.0  # ½·m·r², m = π
        self.assertAlmostEqual(w.angular_velocity(disc), 3.0 / inertia / 60.0, delta=1e-12)
        paddle = w.add_body({"kind": "kinematic", "position": [0, 5],
                             "shape": {"type": "rectangle", "half_extents": [1, 0.1]}})
        w.set_kinematic_target(paddle, (2.0, 6.0), 0.5)
        w.step()
        self.assertAlmostEqual(w.position(paddle)[0], 2.0, delta=1e-9)
        self.assertAlmostEqual(w.position(paddle)[1], 6.0, delta=1e-9)
        self.assertAlmostEqual(w.angle(paddle), 0.5, delta=1e-12)
        w.put_to_sleep(disc)
        self.assertFalse(w.is_awake(disc))
        w.wake(disc)
        self.assertTrue(w.is_awake(disc))
        w.set_allow_sleep(disc, False)
        with self.assertRaises(ValueError):
            w.set_kinematic_target(disc, (0.0, 0.0))  # a dynamic body has no target

    def test_filters_and_materials_on_every_shape(self):
        w = sweep2d.new_world()
        floor = w.add_body({"kind": "static", "position": [0, -0.5],
                            "shape": {"type": "rectangle", "half_extents": [5, 0.5]}})
        ball = w.add_body({"kind": "dynamic", "position": [0, 1], "velocity": [0, -5],
                           "shape": {"type": "circle", "radius": 0.25}})
        w.set_material(ball, 0.2, 1.0)
        w.step(20)
        self.assertGreater(w.velocity(ball)[1], 0.0, "it bounced")
        w.set_filter(ball, category=2, mask=~1 & (2**64 - 1))  # ignores category 1: the floor
        w.step(120)
        self.assertLess(w.position(ball)[1], -1.0, "it fell through the floor")
        with self.assertRaises(ValueError):
            w.set_material(ball, -1.0, 0.0)
        self.assertNotEqual(floor, ball)

    def test_motor_and_mouse_joints_from_python(self):
        w = self.world()
        wheel = w.add_body({"kind": "dynamic", "position": [0, 0],
                            "shape": {"type": "circle", "radius": 0.5}})
        j = w.add_joint({"type": "revolute", "body_a": "ground", "body_b": wheel,
                         "anchor": [0, 0], "motor": {"speed": 1.0, "max": 1000.0}})
        w.step(30)
        self.assertAlmostEqual(w.angular_velocity(wheel), 1.0, delta=1e-6)
        w.set_motor_speed(j, -2.0)
        w.step(30)
        self.assertAlmostEqual(w.angular_velocity(wheel), -2.0, delta=1e-6)
        crate = w.add_body({"kind": "dynamic", "position": [3, 0],
                            "shape": {"type": "rectangle", "half_extents": [0.2, 0.2]}})
        m = w.add_joint({"type": "mouse", "body": crate, "anchor": [3, 0], "max_force": 100.0})
        self.assertEqual(m, 1)
        w.set_joint_target(m, (3.0, 2.0))
        w.step(300)
        self.assertAlmostEqual(w.position(crate)[1], 2.0, delta=1e-3)
        w.add_joint({"type": "motor", "body_a": "ground", "body_b": crate,
                     "linear_offset": [-2, 0], "max_force": 1e4, "max_torque": 1e3})
        w.set_joint_target(m, (-2.0, 0.0))
        w.step(300)
        self.assertLess(math.dist(w.position(crate), (-2.0, 0.0)), 1e-3)
        with self.assertRaisesRegex(ValueError, "only a mouse joint has a target"):
            w.set_joint_target(j, (0.0, 0.0))

    def test_an_explosion_pushes_what_is_in_reach_and_momentum_is_read(self):
        w = self.world()
        near = w.add_body({"kind": "dynamic", "position": [2, 0],
                           "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]}})
        far = w.add_body({"kind": "dynamic", "position": [20, 0],
                          "shape": {"type": "rectangle", "half_extents": [0.5, 0.5]}})
        self.assertEqual(w.explode((0.0, 0.0), 5.0, 2.0), [near])
        # Box2D's rule: 2 N·s per metre of the 1 m face toward the blast, on a 1 kg box.
        self.assertAlmostEqual(w.velocity(near)[0], 2.0, delta=1e-9)
        self.assertEqual(w.velocity(far), (0.0, 0.0))
        px, py = w.linear_momentum()
        self.assertAlmostEqual(px, 2.0, delta=1e-9)
        with self.assertRaises(ValueError):
            w.explode((0.0, 0.0), -1.0, 2.0)
