//! Static SAT queries: intersection, the minimum translation vector and the contact manifold for a
//! few shape pairs, printed as a table. Run with `cargo run --release --example sat_query`.

use sweep2d::query::{contact, intersects};
use sweep2d::{Shape, ShapeError, Transform, Vec2};

fn main() -> Result<(), ShapeError> {
    let ground = Shape::rectangle(5.0, 0.5)?;
    let crate_ = Shape::rectangle(0.5, 0.5)?;
    let ball = Shape::circle(0.5)?;
    let pill = Shape::capsule(Vec2::new(-0.6, 0.0), Vec2::new(0.6, 0.0), 0.25)?;
    let l_shape = Shape::concave(&[
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(0.0, 2.0),
    ])?;

    let at = |x: f64, y: f64, angle: f64| Transform::new(Vec2::new(x, y), angle);
    let cases: [(&str, &Shape, Transform, &Shape, Transform); 6] = [
        (
            "box resting on ground",
            &ground,
            at(0.0, 0.0, 0.0),
            &crate_,
            at(1.0, 0.99, 0.0),
        ),
        (
            "box corner into ground",
            &ground,
            at(0.0, 0.0, 0.0),
            &crate_,
            at(0.0, 1.2, 0.785),
        ),
        (
            "ball off a box corner",
            &crate_,
            at(0.0, 0.0, 0.0),
            &ball,
            at(0.9, 0.9, 0.0),
        ),
        (
            "capsule on ground",
            &ground,
            at(0.0, 0.0, 0.0),
            &pill,
            at(-2.0, 0.7, 0.0),
        ),
        (
            "ball in the notch of an L",
            &l_shape,
            at(0.0, 0.0, 0.0),
            &ball,
            at(1.6, 1.6, 0.0),
        ),
        (
            "ball on the L's arm",
            &l_shape,
            at(0.0, 0.0, 0.0),
            &ball,
            at(1.4, 1.5, 0.0),
        ),
    ];

    println!(
        "{:<28} {:>10} {:>18} {:>9}  points (world, m)",
        "pair", "intersects", "normal (A→B)", "depth m"
    );
    for (name, a, xa, b, xb) in cases {
        let hit = intersects(a, &xa, b, &xb);
        match contact(a, &xa, b, &xb) {
            Some(c) => {
                let pts: Vec<String> = c
                    .points()
                    .iter()
                    .map(|p| format!("({:.3}, {:.3})", p.x, p.y))
                    .collect();
                println!(
                    "{:<28} {:>10} {:>18} {:>9.4}  {}",
                    name,
                    hit,
                    format!("({:.3}, {:.3})", c.normal.x, c.normal.y),
                    c.depth,
                    pts.join(" ")
                );
            }
            None => println!("{name:<28} {hit:>10} {:>18} {:>9}", "-", "-"),
        }
    }
    Ok(())
}
