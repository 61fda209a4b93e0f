"""The character mover from Python, against hand-computed positions."""

import math
import unittest

import sweep2d

CAPSULE = {"type": "capsule", "a": [0, -0.5], "b": [0, 0.5], "radius": 0.3}


def level():
    w = sweep2d.new_world()
    w.add_body({"name": "floor", "kind": "static", "position": [0, -0.5],
                "shape": {"type": "rectangle", "half_extents": [20, 0.5]}})
    w.add_body({"name": "wall", "kind": "static", "position": [5.005, 2],
                "shape": {"type": "rectangle", "half_extents": [0.005, 2]}})
    w.add_body({"name": "step", "kind": "static", "position": [-3, 0.1],
                "shape": {"type": "rectangle", "half_extents": [0.5, 0.1]}})
    w.add_body({"name": "barrel", "kind": "dynamic", "position": [2, 0.25], "friction": 0.0,
                "shape": {"type": "circle", "radius": 0.25}})
    return w


class Mover(unittest.TestCase):
    def test_it_stands_walks_and_stops_skin_short_of_a_1_cm_wall(self):
        w = level()
        w.set_body_kind(3, "static")  # the crate out of the way for this test
        w.set_transform(3, (-10.0, 0.25), 0.0)
        m = sweep2d.CharacterMover(CAPSULE)
        skin = m.settings["skin"]
        # Dropped from 1 m up, it lands on the floor (capsule bottom at y = 0, skin above).
        r = m.move_and_slide(w, (0.0, 1.8), (0.0, -2.0))
        self.assertTrue(r.grounded)
        self.assertEqual(r.ground["body"], 0)
        self.assertAlmostEqual(r.position[1], 0.8 + skin, delta=1e-9)
        # A 1,000 m move right in one frame stops skin short of the 1 cm wall's face at x = 5.
        r = m.move_and_slide(w, r.position, (1000.0, 0.0))
        self.assertTrue(r.hit_wall)
        self.assertAlmostEqual(r.position[0], 5.0 - 0.3 - skin, delta=1e-9)
        (wall,) = [c for c in r.collisions if c["surface"] == "wall"]
        self.assertEqual(wall["body"], 1)
        self.assertAlmostEqual(wall["normal"][0], -1.0, delta=1e-12)

    def test_it_climbs_a_step_lower_than_step_height_only(self):
        w = level()
        low = sweep2d.CharacterMover(CAPSULE, step_height=0.25)
        r = low.move_and_slide(w, (-1.5, 0.81), (-1.2, 0.0))
        self.assertAlmostEqual(r.position[0], -2.7, delta=1e-9)
        self.assertGreater(r.position[1], 0.8 + 0.2)  # on top of the 0.2 m step
        flat = sweep2d.CharacterMover(CAPSULE, step_height=0.1)
        r = flat.move_and_slide(w, (-1.5, 0.81), (-1.2, 0.0))
        # The capsule's lower cap (centre 0.31 m up, radius 0.3) stops skin short of the step's
        # top corner (-2.5, 0.2): 0.31 m from it.
        self.assertTrue(r.hit_wall)
        self.assertAlmostEqual(r.position[0], -2.5 + math.sqrt(0.31**2 - 0.11**2), delta=1e-9)
        self.assertAlmostEqual(r.position[1], 0.81, delta=1e-12)

    def test_a_one_way_platform_and_pushing_a_crate(self):
        w = level()
        m = sweep2d.CharacterMover(CAPSULE)
        asked = []

        def accept(c):
            asked.append(c["body"])
            return c["body"] != 0  # the floor lets it through

        r = m.move_and_slide(w, (0.0, 0.9), (0.0, -3.0), accept=accept)
        self.assertIn(0, asked)
        self.assertAlmostEqual(r.position[1], -2.1, delta=1e-9)
        # Walking into the barrel at 2 m/s pushes it: an inelastic hit by the 80 kg mover along
        # the collision normal n (which passes through the disc's centre, so no spin): the
        # impulse u / (1/m + 1/M), u = 2·(-n_x), gives the barrel u·M/(m + M) along -n.
        r = m.move_and_slide(w, (1.0, 0.81), (1.0, 0.0))
        (hit,) = [c for c in r.collisions if c["body"] == 3]
        self.assertEqual(m.push_bodies(w, r, (2.0, 0.0)), 1)
        mass, big = math.pi * 0.25**2, 80.0
        nx, ny = hit["normal"]
        u = -2.0 * nx
        speed = u * big / (mass + big)
        vx, vy = w.velocity(3)
        self.assertAlmostEqual(vx, -nx * speed, delta=1e-9)
        self.assertAlmostEqual(vy, -ny * speed, delta=1e-9)
        self.assertGreater(vx, 0.5)

    def test_bad_settings_and_moves_are_refused(self):
        with self.assertRaisesRegex(ValueError, "circle, a capsule or a convex polygon"):
            sweep2d.CharacterMover({"type": "segment", "a": [0, 0], "b": [1, 0]})
        with self.assertRaisesRegex(ValueError, "skin"):
            sweep2d.CharacterMover(CAPSULE, skin=-1.0)
        with self.assertRaisesRegex(ValueError, 'no setting "jump"'):
            sweep2d.CharacterMover(CAPSULE, jump=3.0)
        m = sweep2d.CharacterMover(CAPSULE)
        with self.assertRaisesRegex(ValueError, "max_slope"):
            m.configure(max_slope=2.0, skin=0.02)
        self.assertEqual(m.settings["skin"], 0.01, "a refused configure changes nothing")
        w = level()
        with self.assertRaisesRegex(ValueError, "not finite"):
            m.move_and_slide(w, (0.0, 1.0), (math.nan, 0.0))
        with self.assertRaises(IndexError):
            m.move_and_slide(w, (0.0, 1.0), (1.0, 0.0), exclude=99)

        def broken(c):
            raise RuntimeError("game code failed")

        with self.assertRaisesRegex(RuntimeError, "game code failed"):
            m.move_and_slide(w, (0.0, 0.9), (0.0, -3.0), accept=broken)


if __name__ == "__main__":
    unittest.main()
