//! Near misses are not collisions: a body whose path passes close by another body, without ever
//! coming within the slop of it, keeps its velocity exactly and touches nothing, at any speed.
//!
//! The solver's speculative contacts act along the normal found at the start of a step; past a
//! corner that normal points at the corner, and a body moving fast enough along it closes more
//! than its gap along that line even though its path misses (a *ghost* collision: a ball passing
//! a box's corner 1 cm away at 5 m/s left at 3.3 m/s, deflected by 13°). The reference here is
//! exact geometry: the path is a line placed `miss` beyond the box's support along the line's
//! normal, so no point of the ball ever comes closer than `miss` to the box, and free flight is
//! `x₀ + v·t` (`docs/continuous.md`, "The speculative margin").
//!
//! Ranges: speeds 0.5–2,000 m/s, ball radii 1 cm–1 m, box half sizes 5 cm–2 m at any angle, any
//! direction of the path, misses from 1.5 times the slop to 30 cm, any start phase; static and
//! dynamic boxes; restitution 0 or 0.5 (friction default). Case counts follow `PROPTEST_CASES`.

mod common;

use proptest::prelude::*;
use sweep2d::constants::LINEAR_SLOP;
use sweep2d::{BodyDef, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

const DT: f64 = 1.0 / 60.0;

fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.ln()..=hi.ln()).prop_map(f64::exp)
}

proptest! {
    #![proptest_config(common::simulation_config(256))]

    #[test]
    fn a_ball_passing_a_box_by_more_than_the_slop_keeps_its_velocity(
        speed in log_uniform(0.5, 2000.0),
        radius in log_uniform(0.01, 1.0),
        half in log_uniform(0.05, 2.0),
        box_angle in -3.2f64..3.2,
        heading in -3.2f64..3.2,
        miss in log_uniform(1.5 * LINEAR_SLOP, 0.3),
        phase in 0.0f64..1.0,
        dynamic_box in any::<bool>(),
        bouncy in any::<bool>(),
    ) {
        let mut w = World::new(WorldConfig {
            gravity: Vec2::ZERO,
            ..WorldConfig::default()
        });
        let box_pose = Transform::new(Vec2::ZERO, box_angle);
        let target = w
            .add_body(BodyDef {
                kind: if dynamic_box { BodyKind::Dynamic } else { BodyKind::Static },
                shape: Shape::rectangle(half, half).unwrap(),
                transform: box_pose,
                ..BodyDef::default()
            })
            .unwrap();
        // The path: direction `d`, on the line whose normal `nu` (pointing away from the box)
        // sits `radius + miss` beyond the box's support along `nu`.
        let d = Vec2::new(heading.cos(), heading.sin());
        let nu = Vec2::new(-d.y, d.x);
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| box_pose.transform_point(Vec2::new(x * half, y * half)));
        let nearest = corners
            .iter()
            .copied()
            .max_by(|a, b| nu.dot(*a).total_cmp(&nu.dot(*b)))
            .unwrap();
        let closest = nearest - d * d.dot(nearest) + nu * (nu.dot(nearest) + radius + miss);
        // Start one to two steps' travel (and at least the pair's size) before the closest
        // point, so the pass-by falls anywhere within a step.
        let lead = (speed * DT * (1.0 + phase)).max(2.0 * (half * 2f64.sqrt() + radius));
        let start = closest - d * lead;
        let velocity = d * speed;
        let ball = w
            .add_body(BodyDef {
                shape: Shape::circle(radius).unwrap(),
                transform: Transform::new(start, 0.0),
                linear_velocity: velocity,
                restitution: if bouncy { 0.5 } else { 0.0 },
                ..BodyDef::default()
            })
            .unwrap();
        let steps = (2.0 * lead / (speed * DT)).ceil() as usize + 2;
        for step in 1..=steps {
            w.step();
            let b = w.body(ball).unwrap();
            let v = b.linear_velocity();
            prop_assert!(
                (v - velocity).length() <= 1e-12 * speed,
                "step {step}: velocity {v:?}, was {velocity:?}"
            );
            let expected = start + velocity * (DT * step as f64);
            let at = b.transform().translation;
            prop_assert!(
                (at - expected).length() <= 1e-9 * (1.0 + expected.length()),
                "step {step}: at {at:?}, free flight puts it at {expected:?}"
            );
            prop_assert!(w.events().impacts.is_empty(), "step {step}: an impact");
            let t = w.body(target).unwrap();
            prop_assert!(t.linear_velocity() == Vec2::ZERO && t.angular_velocity() == 0.0);
        }
    }
}
