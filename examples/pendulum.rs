//! A pendulum: a disc on a revolute pin, released from 30°; prints its measured period against
//! the physical pendulum's small-angle period `2π√((L² + r²/2)/(gL))` and the amplitude
//! correction of the finite angle.
//!
//! `cargo run --release --example pendulum`

use std::f64::consts::PI;
use sweep2d::{BodyDef, BodyKind, RevoluteJointDef, Shape, Transform, Vec2, World, WorldConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let g = 9.81;
    let mut world = World::new(WorldConfig {
        gravity: Vec2::new(0.0, -g),
        ..WorldConfig::default()
    });
    let pivot = Vec2::new(0.0, 5.0);
    let ceiling = world.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(1.0, 0.05)?,
        transform: Transform::new(pivot + Vec2::new(0.0, 0.05), 0.0),
        ..BodyDef::default()
    })?;
    let (l, r, theta0): (f64, f64, f64) = (2.0, 0.2, 30f64.to_radians());
    let bob = world.add_body(BodyDef {
        shape: Shape::circle(r)?,
        transform: Transform::new(pivot + l * Vec2::new(theta0.sin(), -theta0.cos()), 0.0),
        ..BodyDef::default()
    })?;
    world.add_joint(RevoluteJointDef::new(ceiling, bob, pivot))?;
    let dt = world.config().dt;
    let energy = |w: &World| {
        let b = w.body(bob).expect("the bob");
        b.kinetic_energy() + b.mass() * g * b.center_of_mass().y
    };
    let start = energy(&world);
    let (mut last_x, mut crossings) = (f64::NAN, Vec::new());
    for k in 0..1200 {
        world.step();
        let x = world.body(bob).expect("the bob").center_of_mass().x;
        if last_x < 0.0 && x >= 0.0 {
            crossings.push((k as f64 + last_x / (last_x - x)) * dt);
        }
        last_x = x;
    }
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    let small = 2.0 * PI * ((l * l + 0.5 * r * r) / (g * l)).sqrt();
    // The period grows with amplitude: T ≈ T₀ (1 + θ₀²/16 + 11θ₀⁴/3072).
    let large = small * (1.0 + theta0.powi(2) / 16.0 + 11.0 * theta0.powi(4) / 3072.0);
    println!(
        "pendulum of {l} m, disc of {r} m, released from 30°: period {measured:.4} s; \
         theory {large:.4} s ({:+.2}%); mechanical energy after 20 s {:+.3}% of the start",
        100.0 * (measured / large - 1.0),
        100.0 * (energy(&world) / start - 1.0)
    );
    Ok(())
}
