//! A car on chain terrain: a chassis on two wheel joints (sprung suspension, the rear wheel
//! driven by a motor) over rolling hills made of one chain. Prints how far it drove, its top
//! speed and the suspension's travel.
//!
//! `cargo run --release --example car`

use sweep2d::{BodyDef, BodyKind, Shape, Transform, Vec2, WheelJointDef, World, WorldConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let v = Vec2::new;
    let mut world = World::new(WorldConfig::default());
    // Hills: a chain through 481 points, 0.25 m apart (120 m).
    let terrain: Vec<Vec2> = (0..=480)
        .map(|i| {
            let x = -10.0 + 0.25 * i as f64;
            let y = 0.6 * (0.35 * x).sin() + 0.2 * (1.3 * x).sin();
            v(x, y)
        })
        .collect();
    world.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::chain(&terrain, false)?,
        friction: 0.9,
        ..BodyDef::default()
    })?;
    let start = v(-8.0, 2.0);
    let chassis = world.add_body(BodyDef {
        shape: Shape::rectangle(1.2, 0.25)?,
        transform: Transform::new(start, 0.0),
        density: 2.0,
        ..BodyDef::default()
    })?;
    let mut axles = Vec::new();
    for (dx, motor) in [(-0.8, true), (0.8, false)] {
        let at = start + v(dx, -0.55);
        let wheel = world.add_body(BodyDef {
            shape: Shape::circle(0.35)?,
            transform: Transform::new(at, 0.0),
            friction: 0.9,
            ..BodyDef::default()
        })?;
        let mut def = WheelJointDef::new(chassis, wheel, at, v(0.0, 1.0));
        def.hertz = 4.0;
        def.damping_ratio = 0.7;
        def.enable_limit = true;
        def.lower_translation = -0.25;
        def.upper_translation = 0.25;
        if motor {
            def.enable_motor = true;
            def.motor_speed = -20.0; // clockwise: forward
            def.max_motor_torque = 60.0;
        }
        axles.push(world.add_joint(def)?);
    }
    let (mut top_speed, mut travel): (f64, f64) = (0.0, 0.0);
    for _ in 0..600 {
        world.step();
        let body = world.body(chassis).expect("the chassis");
        top_speed = top_speed.max(body.linear_velocity().length());
        for joint in &axles {
            // The wheel's centre relative to its rest point on the chassis, along the axis.
            let (a, b) = world.joint_anchors(*joint).expect("a wheel joint");
            let axis = body.transform().rotation.rotate(v(0.0, 1.0));
            travel = travel.max((b - a).dot(axis).abs());
        }
    }
    let end = world.body(chassis).expect("the chassis").center_of_mass();
    println!(
        "car drove {:.1} m over the hills in 10 s (top speed {top_speed:.1} m/s); suspension \
         travel up to {:.0} mm of its ±250 mm",
        end.x - start.x,
        travel * 1000.0
    );
    Ok(())
}
