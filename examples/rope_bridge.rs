//! A rope bridge: 16 planks joined by revolute pins between two posts, a crate dropped on it and
//! a 10 g bullet fired through the crate's path at 400 m/s; prints the sag, the largest joint gap
//! and the most loaded joint.
//!
//! `cargo run --release --example rope_bridge`

use sweep2d::{BodyDef, BodyKind, RevoluteJointDef, Shape, Transform, Vec2, World, WorldConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(WorldConfig::default());
    let v = Vec2::new;
    let post = |world: &mut World, x: f64| {
        world.add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(0.2, 2.0).unwrap(),
            transform: Transform::new(v(x, 2.0), 0.0),
            ..BodyDef::default()
        })
    };
    let left = post(&mut world, -8.2)?;
    let right = post(&mut world, 8.2)?;
    let (n, width) = (16, 1.0);
    let mut prev = left;
    let mut joints = Vec::new();
    for k in 0..n {
        let x = -8.0 + width * (k as f64 + 0.5);
        let plank = world.add_body(BodyDef {
            shape: Shape::rectangle(0.5 * width, 0.05)?,
            transform: Transform::new(v(x, 4.0), 0.0),
            density: 20.0,
            ..BodyDef::default()
        })?;
        joints.push(world.add_joint(RevoluteJointDef::new(
            prev,
            plank,
            v(x - 0.5 * width, 4.0),
        ))?);
        prev = plank;
    }
    joints.push(world.add_joint(RevoluteJointDef::new(prev, right, v(8.0, 4.0)))?);
    let crate_ = world.add_body(BodyDef {
        shape: Shape::rectangle(0.4, 0.4)?,
        transform: Transform::new(v(1.0, 7.0), 0.3),
        density: 10.0,
        ..BodyDef::default()
    })?;
    world.add_body(BodyDef {
        shape: Shape::circle(0.02)?,
        density: 8.0,
        transform: Transform::new(v(-14.0, 4.0), 0.0),
        linear_velocity: v(400.0, 0.0),
        gravity_scale: 0.0,
        ..BodyDef::default()
    })?;
    let (mut worst_gap, mut impacts) = (0.0f64, 0);
    for step in 0..360 {
        world.step();
        impacts += world.events().impacts.len();
        if step > 60 {
            for j in &joints {
                let (a, b) = world.joint_anchors(*j).expect("a joint");
                worst_gap = worst_gap.max(a.distance(b));
            }
        }
    }
    let sag = 4.0 - world.body(crate_).expect("the crate").center_of_mass().y + 0.45;
    let (strongest, load) = joints
        .iter()
        .enumerate()
        .map(|(k, j)| (k, world.joint_reaction(*j).expect("a joint").force.length()))
        .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
    println!(
        "bridge of {n} planks: the crate rests {sag:.2} m below the deck's line; {impacts} \
         impacts (the bullet's, on the crate and the planks); largest joint gap after 1 s \
         {:.1} mm; most loaded pin #{strongest} at {load:.0} N",
        worst_gap * 1000.0
    );
    Ok(())
}
