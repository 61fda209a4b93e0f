//! Time of impact: a bullet, a spinning blade and a sliding box meet thin walls. For each, the
//! first contact time within the step, the pose there and the normal; the static test at the end
//! of the step (which misses the bullet) is printed alongside.
//! Run with `cargo run --release --example time_of_impact`.

use std::f64::consts::TAU;
use sweep2d::query::{intersects, swept_intersects, time_of_impact, Motion};
use sweep2d::{Shape, ShapeError, Transform, Vec2};

fn main() -> Result<(), ShapeError> {
    let wall = Shape::rectangle(0.005, 2.0)?; // 1 cm thick, 4 m tall
    let at_wall = Motion::stationary(Transform::IDENTITY);

    let cases = [
        (
            "bullet, 1000 m per step",
            Shape::circle(0.025)?,
            Motion::new(
                Transform::new(Vec2::new(-500.0, 0.2), 0.0),
                Vec2::new(1000.0, 0.0),
                0.0,
            ),
        ),
        (
            "blade, 50 turns per step",
            Shape::rectangle(0.5, 0.01)?,
            Motion::new(
                Transform::new(Vec2::new(-2.0, -0.3), 0.0),
                Vec2::new(4.0, 0.0),
                50.0 * TAU,
            ),
        ),
        (
            "box sliding in at 30°",
            Shape::rectangle(0.25, 0.25)?,
            Motion::new(
                Transform::new(Vec2::new(-1.0, -0.6), 0.5),
                Vec2::new(2.0, 1.15),
                0.0,
            ),
        ),
    ];

    for (name, shape, motion) in &cases {
        let end_overlap = intersects(shape, &motion.end(), &wall, &Transform::IDENTITY);
        let may_meet = swept_intersects(shape, motion, &wall, &at_wall);
        println!("{name}");
        println!(
            "  overlaps the wall at the end of the step: {end_overlap}  (a discrete engine's view)"
        );
        println!("  swept hulls intersect: {may_meet}");
        match time_of_impact(shape, motion, &wall, &at_wall) {
            Some(toi) => {
                let pose = motion.pose_at(toi.t);
                println!(
                    "  first contact at t = {:.9} ({:?}, {} iterations): centre ({:.4}, {:.4}), angle {:.3} rad",
                    toi.t,
                    toi.status,
                    toi.iterations,
                    pose.translation.x,
                    pose.translation.y,
                    pose.angle()
                );
                println!(
                    "  normal ({:.3}, {:.3}) from the moving shape to the wall, point ({:.4}, {:.4}), gap {:.1e} m",
                    toi.normal.x, toi.normal.y, toi.point.x, toi.point.y, toi.separation
                );
            }
            None => println!("  no contact during the step"),
        }
    }
    Ok(())
}
