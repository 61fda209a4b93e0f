"""The Hypothesis strategies draw valid scenes over their whole ranges, and the no-tunnelling
checker holds on them and catches a real crossing."""

import math
import unittest

from hypothesis import given, strategies as st

import sweep2d
from sweep2d import testing


class Strategies(unittest.TestCase):
    @given(testing.bodies(max_speed=500.0))
    def test_every_drawn_body_is_accepted(self, body):
        w = sweep2d.new_world()
        k = w.add_body(body)
        self.assertEqual(w.body_ids(), [k])
        # The body keeps its centre of mass and gives its origin back from it: exact up to the
        # rounding of the shape's centroid (~1e-16 m).
        x, y = w.position(k)
        self.assertAlmostEqual(x, body["position"][0], delta=1e-12)
        self.assertAlmostEqual(y, body["position"][1], delta=1e-12)
        vx, vy = w.velocity(k)
        # The velocity is of the centre of mass; the shapes here are centred on the origin.
        self.assertAlmostEqual(math.hypot(vx, vy), math.hypot(*body["velocity"]), delta=1e-9)

    @given(testing.bodies(kind="static"), testing.bodies(kind="kinematic"))
    def test_static_and_kinematic_bodies_are_accepted(self, a, b):
        w = sweep2d.new_world()
        w.add_body(a)
        w.add_body(b)
        self.assertEqual(len(w.body_ids()), 2)


class NoTunnelling(unittest.TestCase):
    @given(testing.bullet_scenes(max_bullets=6, max_speed=2000.0))
    def test_bullets_in_a_thin_walled_room_never_tunnel(self, scene):
        world = sweep2d.load_scene(scene)
        testing.assert_no_tunnelling(world, steps=30)
        # And every bullet is still inside the room (the walls' inner faces at ±9.995 m).
        for k in world.body_ids()[4:]:
            x, y = world.position(k)
            self.assertLess(max(abs(x), abs(y)), 9.995, world.body_names()[k])
        testing.assert_no_deep_overlap(world, tolerance=0.05)

    @given(st.floats(1.0, 5000.0), st.floats(0.02, 0.5))
    def test_a_disc_at_any_speed_stops_at_a_1_cm_wall(self, speed, radius):
        scene = {"gravity": [0, 0], "bodies": [
            {"kind": "static", "position": [5.0, 0.0],
             "shape": {"type": "rectangle", "half_extents": [0.005, 2.0]}},
            {"kind": "dynamic", "position": [0.0, 0.0], "velocity": [speed, 0.0],
             "shape": {"type": "circle", "radius": radius}}]}
        world = sweep2d.load_scene(scene)
        testing.assert_no_tunnelling(world, steps=20)
        self.assertLess(world.position(1)[0], 5.0 - 0.005)

    def test_the_checker_catches_a_body_moved_through_a_wall(self):
        scene = {"gravity": [0, 0], "bodies": [
            {"kind": "static", "position": [0.0, 0.0],
             "shape": {"type": "rectangle", "half_extents": [0.005, 2.0]}},
            {"name": "ghost", "kind": "dynamic", "position": [-1.0, 0.0],
             "shape": {"type": "circle", "radius": 0.1}}]}
        world = sweep2d.load_scene(scene)
        before = testing.poses(world)
        world.set_transform(1, (1.0, 0.0), 0.0)  # through the wall, with no step between
        with self.assertRaisesRegex(testing.TunnellingError, "ghost passed through body 0"):
            testing.assert_no_tunnelling(world, before=before)
        # Moved around the wall's end instead: no crossing.
        world.set_transform(1, (-1.0, 0.0), 0.0)
        before = testing.poses(world)
        world.set_transform(1, (-1.0, 3.0), 0.0)
        testing.assert_no_tunnelling(world, before=before)

    def test_the_overlap_check_names_the_bodies(self):
        scene = {"gravity": [0, 0], "bodies": [
            {"name": "a", "kind": "static", "position": [0.0, 0.0],
             "shape": {"type": "circle", "radius": 1.0}},
            {"name": "b", "kind": "dynamic", "position": [1.5, 0.0],
             "shape": {"type": "circle", "radius": 1.0}}]}
        world = sweep2d.load_scene(scene)
        # The pairs are found by the first step (which starts pushing b out).
        self.assertIsNone(world.deepest_overlap())
        world.step()
        depth, a, b = world.deepest_overlap()
        gap = math.dist(world.position(0), world.position(1))
        self.assertAlmostEqual(depth, 2.0 - gap, delta=1e-12)
        self.assertGreater(depth, 0.4)
        self.assertEqual({a, b}, {0, 1})
        with self.assertRaisesRegex(testing.OverlapError, "a and b overlap by 0.4"):
            testing.assert_no_deep_overlap(world, tolerance=0.1)
        testing.assert_no_deep_overlap(world, tolerance=0.6)


if __name__ == "__main__":
    unittest.main()
