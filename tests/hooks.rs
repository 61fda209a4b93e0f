//! Contact hooks: one-way platforms (up through, down onto; slow bodies through the solver, fast
//! ones through the continuous pass) and per-contact friction.

use sweep2d::{
    BodyDef, BodyId, BodyKind, ContactHooks, PreSolve, Shape, Transform, Vec2, World, WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// A one-way platform: its contacts count only with bodies coming from above (the contact normal
/// from the platform to the other body points up), as a platformer's hook would write it.
struct OneWay {
    platform: BodyId,
    asked: usize,
}

impl ContactHooks for OneWay {
    fn pre_solve(&mut self, c: &mut PreSolve) -> bool {
        self.asked += 1;
        let up = if c.body_a() == self.platform {
            c.normal
        } else if c.body_b() == self.platform {
            -c.normal
        } else {
            return true;
        };
        up.y > 0.7
    }
}

/// A world with a 0.2 m thick platform whose top is at y = 2, and a body of `shape` at `(0, y0)`
/// moving at `vy`.
fn platform_world(shape: Shape, y0: f64, vy: f64) -> (World, BodyId, BodyId) {
    let mut w = World::new(WorldConfig::default());
    let platform = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(2.0, 0.1).unwrap(),
            transform: Transform::new(v(0.0, 1.9), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let body = w
        .add_body(BodyDef {
            shape,
            transform: Transform::new(v(0.0, y0), 0.0),
            linear_velocity: v(0.0, vy),
            ..BodyDef::default()
        })
        .unwrap();
    (w, platform, body)
}

fn run(w: &mut World, hooks: &mut OneWay, steps: usize, body: BodyId) -> (f64, f64) {
    let mut highest = f64::NEG_INFINITY;
    for _ in 0..steps {
        w.step_with_hooks(hooks);
        highest = highest.max(w.body(body).unwrap().transform().translation.y);
    }
    (highest, w.body(body).unwrap().transform().translation.y)
}

#[test]
fn a_body_jumps_up_through_a_one_way_platform_and_lands_on_it() {
    // From below at 9 m/s (peak 4.1 m above the start): through the platform, then onto it.
    let (mut w, platform, body) = platform_world(Shape::rectangle(0.25, 0.25).unwrap(), 1.0, 9.0);
    let mut hooks = OneWay { platform, asked: 0 };
    let (highest, end) = run(&mut w, &mut hooks, 240, body);
    assert!(highest > 3.0, "it went up through: peak {highest}");
    assert!((end - 2.25).abs() < 0.02, "it rests on the platform: {end}");
    assert!(hooks.asked > 0);
    // Without the hook the platform is solid: the body stops under it and falls to the ground.
    let (mut plain, _, body) = platform_world(Shape::rectangle(0.25, 0.25).unwrap(), 1.0, 9.0);
    for _ in 0..30 {
        plain.step();
        let y = plain.body(body).unwrap().transform().translation.y;
        assert!(y < 1.55, "blocked from below: {y}");
    }
}

#[test]
fn fast_bodies_pass_up_and_land_down_through_the_continuous_pass() {
    // A bullet from below at 300 m/s passes; one from above at 300 m/s is stopped on top.
    let disc = || Shape::circle(0.02).unwrap();
    let (mut w, platform, up) = platform_world(disc(), 1.0, 300.0);
    let mut hooks = OneWay { platform, asked: 0 };
    w.step_with_hooks(&mut hooks);
    let y = w.body(up).unwrap().transform().translation.y;
    assert!(y > 2.0, "the upward bullet passed: {y}");
    let (mut w, platform, down) = platform_world(disc(), 3.0, -300.0);
    let mut hooks = OneWay { platform, asked: 0 };
    let mut impacts = 0;
    for _ in 0..30 {
        w.step_with_hooks(&mut hooks);
        impacts += w.events().impacts.len();
        let y = w.body(down).unwrap().transform().translation.y;
        assert!(y > 2.0 - 1e-3, "the downward bullet passed: {y}");
    }
    assert!(impacts > 0);
}

/// A world of a 100 m static floor (top at y = 0) and a unit box at `pose` moving at `velocity`.
fn box_on_ground(pose: Transform, velocity: Vec2) -> (World, BodyId) {
    let mut w = World::new(WorldConfig::default());
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(50.0, 0.5).unwrap(),
        transform: Transform::new(v(0.0, -0.5), 0.0),
        ..BodyDef::default()
    })
    .unwrap();
    let b = w
        .add_body(BodyDef {
            transform: pose,
            linear_velocity: velocity,
            ..BodyDef::default()
        })
        .unwrap();
    (w, b)
}

/// Friction changed per contact: the hook's zero friction lets a sliding box keep its speed.
#[test]
fn hooks_set_friction_per_contact() {
    struct Ice;
    impl ContactHooks for Ice {
        fn pre_solve(&mut self, c: &mut PreSolve) -> bool {
            assert!(
                (c.friction - 0.6).abs() < 1e-12,
                "the mixed friction is offered"
            );
            c.friction = 0.0;
            true
        }
    }
    let build = || box_on_ground(Transform::new(v(0.0, 0.5), 0.0), v(3.0, 0.0));
    let (mut icy, b) = build();
    for _ in 0..60 {
        icy.step_with_hooks(&mut Ice);
    }
    let vx = icy.body(b).unwrap().linear_velocity().x;
    assert!((vx - 3.0).abs() < 1e-6, "no friction: {vx}");
    let (mut rough, b) = build();
    for _ in 0..60 {
        rough.step();
    }
    let vx = rough.body(b).unwrap().linear_velocity().x;
    assert!(vx < 0.1, "friction 0.6 stops it within a second: {vx}");
}

/// A hook's friction and restitution outside a shape's ranges are ignored (the review: a hook's
/// restitution 1.5 took a resting box from 0 to 49 J; friction 1e300 or NaN made poses
/// non-finite).
#[test]
fn hook_values_outside_the_ranges_are_ignored() {
    struct Hostile(f64, f64);
    impl ContactHooks for Hostile {
        fn pre_solve(&mut self, c: &mut PreSolve) -> bool {
            c.friction = self.0;
            c.restitution = self.1;
            true
        }
    }
    for (friction, restitution) in [
        (1e300, 1.5),
        (f64::NAN, f64::NAN),
        (-1.0, 1e9),
        (0.3, 1.0 + 1e-9),
    ] {
        let (mut w, b) = box_on_ground(Transform::new(v(0.0, 2.5), 0.3), v(1.0, 0.0));
        let energy = |w: &World| {
            let body = w.body(b).unwrap();
            let (m, i) = (body.mass(), body.inertia());
            0.5 * m * body.linear_velocity().length_squared()
                + 0.5 * i * body.angular_velocity().powi(2)
                + m * 9.81 * body.center_of_mass().y
        };
        let start = energy(&w);
        for step in 0..180 {
            w.step_with_hooks(&mut Hostile(friction, restitution));
            let e = energy(&w);
            assert!(
                e.is_finite(),
                "({friction}, {restitution}) step {step}: energy {e}"
            );
            // The solver's contact softness may add a little; a restitution above 1 adds a lot.
            assert!(
                e <= start + 0.05,
                "({friction}, {restitution}) step {step}: {e} J from {start} J"
            );
        }
    }
}
