//! A ragdoll hit by bullets: ten bodies (head, torso, arms and legs in two parts) on revolute
//! joints with angle limits, standing on the ground; three 10 g bullets at 350 m/s hit its head,
//! chest and knee. Prints what the impacts did and how well the joints held.
//!
//! `cargo run --release --example ragdoll`

use sweep2d::{
    BodyDef, BodyId, BodyKind, JointId, RevoluteJointDef, Shape, Transform, Vec2, World,
    WorldConfig,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let v = Vec2::new;
    let mut world = World::new(WorldConfig::default());
    world.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(20.0, 0.5)?,
        transform: Transform::new(v(0.0, -0.5), 0.0),
        ..BodyDef::default()
    })?;
    // A limb: a capsule from `a` to `b` (world), radius `r`.
    // Density 100 kg/m² makes a 70 kg ragdoll of this size.
    let limb = |world: &mut World,
                a: Vec2,
                b: Vec2,
                r: f64|
     -> Result<BodyId, Box<dyn std::error::Error>> {
        let c = 0.5 * (a + b);
        Ok(world.add_body(BodyDef {
            shape: Shape::capsule(a - c, b - c, r)?,
            transform: Transform::new(c, 0.0),
            density: 100.0,
            ..BodyDef::default()
        })?)
    };
    let torso = limb(&mut world, v(0.0, 1.0), v(0.0, 1.5), 0.15)?;
    let head = world.add_body(BodyDef {
        shape: Shape::circle(0.12)?,
        transform: Transform::new(v(0.0, 1.8), 0.0),
        density: 100.0,
        ..BodyDef::default()
    })?;
    let upper_arm_l = limb(&mut world, v(-0.2, 1.55), v(-0.5, 1.55), 0.05)?;
    let lower_arm_l = limb(&mut world, v(-0.5, 1.55), v(-0.8, 1.55), 0.045)?;
    let upper_arm_r = limb(&mut world, v(0.2, 1.55), v(0.5, 1.55), 0.05)?;
    let lower_arm_r = limb(&mut world, v(0.5, 1.55), v(0.8, 1.55), 0.045)?;
    let thigh_l = limb(&mut world, v(-0.08, 0.9), v(-0.08, 0.5), 0.07)?;
    let shin_l = limb(&mut world, v(-0.08, 0.5), v(-0.08, 0.07), 0.06)?;
    let thigh_r = limb(&mut world, v(0.08, 0.9), v(0.08, 0.5), 0.07)?;
    let shin_r = limb(&mut world, v(0.08, 0.5), v(0.08, 0.07), 0.06)?;
    let mut joints: Vec<JointId> = Vec::new();
    let mut pin = |world: &mut World,
                   a,
                   b,
                   at: Vec2,
                   lo: f64,
                   hi: f64|
     -> Result<(), Box<dyn std::error::Error>> {
        let mut def = RevoluteJointDef::new(a, b, at);
        def.enable_limit = true;
        def.lower_angle = lo;
        def.upper_angle = hi;
        joints.push(world.add_joint(def)?);
        Ok(())
    };
    pin(&mut world, torso, head, v(0.0, 1.66), -0.5, 0.5)?;
    pin(&mut world, torso, upper_arm_l, v(-0.2, 1.55), -1.5, 1.5)?;
    pin(
        &mut world,
        upper_arm_l,
        lower_arm_l,
        v(-0.5, 1.55),
        -2.0,
        0.0,
    )?;
    pin(&mut world, torso, upper_arm_r, v(0.2, 1.55), -1.5, 1.5)?;
    pin(&mut world, upper_arm_r, lower_arm_r, v(0.5, 1.55), 0.0, 2.0)?;
    pin(&mut world, torso, thigh_l, v(-0.08, 0.9), -1.2, 0.6)?;
    pin(&mut world, thigh_l, shin_l, v(-0.08, 0.5), -0.1, 2.0)?;
    pin(&mut world, torso, thigh_r, v(0.08, 0.9), -1.2, 0.6)?;
    pin(&mut world, thigh_r, shin_r, v(0.08, 0.5), -0.1, 2.0)?;
    let parts = [
        torso,
        head,
        upper_arm_l,
        lower_arm_l,
        upper_arm_r,
        lower_arm_r,
        thigh_l,
        shin_l,
        thigh_r,
        shin_r,
    ];
    let mass: f64 = parts
        .iter()
        .map(|&p| world.body(p).expect("a part").mass())
        .sum();
    for _ in 0..10 {
        world.step();
    }
    let mut bullets = Vec::new();
    for (k, y) in [1.8, 1.3, 0.5].into_iter().enumerate() {
        bullets.push(world.add_body(BodyDef {
            shape: Shape::circle(0.02)?,
            density: 8.0, // 10 g: 3.5 N·s each
            transform: Transform::new(v(-3.0 - k as f64, y), 0.0),
            linear_velocity: v(350.0, 0.0),
            gravity_scale: 0.0,
            ..BodyDef::default()
        })?);
    }
    let (mut hits, mut worst_gap) = (0, 0.0f64);
    for step in 0..240 {
        world.step();
        // Hits: the bullets' impacts faster than 50 m/s (later ones are the spent bullets
        // rolling about).
        hits += world
            .events()
            .impacts
            .iter()
            .filter(|i| {
                (bullets.contains(&i.body_a) || bullets.contains(&i.body_b))
                    && i.relative_speed > 50.0
            })
            .count();
        if step > 60 {
            for j in &joints {
                let (a, b) = world.joint_anchors(*j).expect("a joint");
                worst_gap = worst_gap.max(a.distance(b));
            }
        }
    }
    let torso_at = world.body(torso).expect("the torso").center_of_mass();
    let head_at = world.body(head).expect("the head").center_of_mass();
    println!(
        "ragdoll of {mass:.1} kg: {hits} bullet hits; after 4 s its torso is at \
         ({:.2}, {:.2}) m and its head at ({:.2}, {:.2}) m (it stood at x = 0); largest joint gap \
         after 1 s {:.1} mm",
        torso_at.x,
        torso_at.y,
        head_at.x,
        head_at.y,
        worst_gap * 1000.0
    );
    Ok(())
}
