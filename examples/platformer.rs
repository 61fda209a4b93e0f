//! A platformer level played by a scripted player on the character mover (`docs/character.md`).
//!
//! The player walks right at 4 m/s and jumps at 9 m/s. On the way it meets:
//! * stairs of 0.2 m steps, up and down (steps climbed, snapped down);
//! * a 30° ramp up and a 50° ramp it cannot climb (it jumps over);
//! * a barrel it pushes along;
//! * a one-way platform it jumps up through and lands on;
//! * a coin (a sensor shape) it picks up;
//! * an elevator (a kinematic platform) that carries it up to a ledge.
//!
//! `cargo run --example platformer` plays 16 seconds at 60 Hz and prints what happened.

use sweep2d::{
    BodyDef, BodyId, BodyKind, CharacterMover, GroundContact, MoveCollision, QueryFilter, Shape,
    Surface, Transform, Vec2, World, WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// A static box from `min` to `max` (world metres).
fn block(w: &mut World, min: Vec2, max: Vec2, name: &str) -> Result<BodyId, sweep2d::BodyError> {
    let (c, h) = (0.5 * (min + max), 0.5 * (max - min));
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(h.x, h.y).expect("a box"),
        transform: Transform::new(c, 0.0),
        name: Some(name.into()),
        ..BodyDef::default()
    })
}

/// The level's bodies the script looks at.
struct Level {
    barrel: BodyId,
    one_way: BodyId,
    coin: BodyId,
    elevator: BodyId,
}

fn build(w: &mut World) -> Result<Level, Box<dyn std::error::Error>> {
    block(w, v(-5.0, -1.0), v(60.0, 0.0), "ground")?;
    // Stairs: four 0.2 m steps up from x = 3, a landing, four down to x = 9.5.
    for i in 0..4 {
        let rise = 0.2 * f64::from(i + 1);
        let up = 3.0 + 0.5 * f64::from(i);
        block(w, v(up, 0.0), v(up + 0.5, rise), "stair")?;
        let down = 9.0 - 0.5 * f64::from(i);
        block(w, v(down, 0.0), v(down + 0.5, rise), "stair")?;
    }
    block(w, v(5.0, 0.0), v(7.5, 0.8), "landing")?;
    // A 30° ramp up to a plateau 1.5 m high, and a 50° ramp up from the ground beyond it.
    let run = 1.5 / 30f64.to_radians().tan();
    let ramp = |a: Vec2, b: Vec2, c: Vec2| Shape::polygon(&[a, b, c]);
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: ramp(v(12.0, 0.0), v(12.0 + run, 0.0), v(12.0 + run, 1.5))?,
        name: Some("30° ramp".into()),
        ..BodyDef::default()
    })?;
    block(w, v(12.0 + run, 0.0), v(17.5, 1.5), "plateau")?;
    let steep = 1.0 / 50f64.to_radians().tan();
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: ramp(v(21.0, 0.0), v(21.0 + steep, 0.0), v(21.0 + steep, 1.0))?,
        name: Some("50° ramp".into()),
        ..BodyDef::default()
    })?;
    block(w, v(21.0 + steep, 0.0), v(22.5, 1.0), "block")?;
    // A 20 kg barrel (a disc 0.8 m across) on the ground.
    let barrel = w.add_body(BodyDef {
        shape: Shape::circle(0.4)?,
        density: 20.0 / (std::f64::consts::PI * 0.16),
        friction: 0.6,
        linear_damping: 1.0,
        angular_damping: 3.0,
        transform: Transform::new(v(28.0, 0.4), 0.0),
        name: Some("barrel".into()),
        ..BodyDef::default()
    })?;
    let one_way = block(w, v(36.0, 2.0), v(42.0, 2.2), "one-way platform")?;
    let coin = w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::circle(0.3)?,
        transform: Transform::new(v(40.0, 3.0), 0.0),
        sensor: true,
        name: Some("coin".into()),
        ..BodyDef::default()
    })?;
    // The elevator: 2 m wide, its top at y = 0.1; it rises at 1 m/s to the ledge (top 4 m) once
    // the player stands on it.
    let elevator = w.add_body(BodyDef {
        kind: BodyKind::Kinematic,
        shape: Shape::rectangle(1.0, 0.1)?,
        transform: Transform::new(v(46.0, 0.0), 0.0),
        name: Some("elevator".into()),
        ..BodyDef::default()
    })?;
    block(w, v(47.05, 0.0), v(60.0, 4.0), "ledge")?;
    Ok(Level {
        barrel,
        one_way,
        coin,
        elevator,
    })
}

/// Where the elevator stops: its top level with the ledge's.
const ELEVATOR_TOP: f64 = 3.9;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(WorldConfig::default());
    let level = build(&mut world)?;
    let dt = world.config().dt;
    let gravity = world.config().gravity;
    let mover = CharacterMover::new(Shape::capsule(v(0.0, -0.5), v(0.0, 0.5), 0.3)?);
    let solid = QueryFilter::default();
    let sensors = QueryFilter {
        sensors: true,
        ..QueryFilter::default()
    };
    let mut pose = Transform::new(v(0.0, 0.81), 0.0);
    let mut velocity = Vec2::ZERO;
    let mut ground = None;
    let mut log = Vec::new();
    let mut coin_taken = false;
    let mut highest_step = 0.0_f64;
    let one_way = level.one_way;
    // One-way: the platform holds only what lands on it from above.
    let mut from_above = |c: &MoveCollision| {
        c.body != one_way || (c.surface == Surface::Ground && !c.started_inside)
    };
    for frame in 0..(16 * 60) {
        let t = f64::from(frame) * dt;
        let x = pose.translation.x;
        // The script: wait on the elevator while it rises; jump before the steep ramp and before
        // the one-way platform.
        let on_elevator = ground.is_some_and(|g: GroundContact| g.body == level.elevator);
        let elevator_y = world
            .body(level.elevator)
            .expect("elevator")
            .transform()
            .translation
            .y;
        let rising = on_elevator && elevator_y < ELEVATOR_TOP;
        velocity.x = if rising { 0.0 } else { 4.0 };
        let jump_here = (19.6..19.8).contains(&x) || (34.0..34.2).contains(&x);
        if ground.is_some() && jump_here {
            velocity.y = 7.5;
            log.push(format!("t = {t:5.2} s: jumps at x = {x:.2} m"));
        }
        if on_elevator && elevator_y >= ELEVATOR_TOP && !log.iter().any(|l| l.contains("elevator"))
        {
            log.push(format!(
                "t = {t:5.2} s: rides the elevator up to the ledge, 4 m up"
            ));
        }
        if on_elevator {
            let y = (elevator_y + dt).min(ELEVATOR_TOP);
            world.set_kinematic_target(level.elevator, Transform::new(v(46.0, y), 0.0))?;
        }
        world.step();
        if let Some(g) = ground {
            pose = mover.ride(&world, pose, &g, &solid).transform;
        }
        velocity.y += gravity.y * dt;
        let moved = mover.move_and_slide_with(&world, pose, velocity * dt, &solid, &mut from_above);
        if let Some(e) = &moved.error {
            return Err(e.clone().into());
        }
        mover.push_bodies(&mut world, &moved, velocity)?;
        if moved.grounded {
            velocity.y = 0.0;
        }
        if moved.hit_ceiling {
            velocity.y = velocity.y.min(0.0);
        }
        for c in moved
            .collisions
            .iter()
            .filter(|c| c.surface == Surface::Wall)
        {
            if c.body == level.barrel && log.iter().all(|l| !l.contains("barrel")) {
                log.push(format!("t = {t:5.2} s: pushes the barrel"));
            }
        }
        if ground.is_none() && moved.grounded {
            let body = moved.ground.expect("grounded").body;
            let name = world
                .body(body)
                .and_then(|b| b.name())
                .unwrap_or("?")
                .to_string();
            log.push(format!(
                "t = {t:5.2} s: lands on the {name} at x = {:.2} m",
                moved.transform.translation.x
            ));
        }
        ground = moved.ground;
        pose = moved.transform;
        highest_step = highest_step.max(pose.translation.y);
        let milestones = [
            (5.0, 7.5, 0.8, "climbs the stairs to the landing, 0.8 m up"),
            (
                12.0 + 1.5 / 30f64.to_radians().tan(),
                17.5,
                1.5,
                "walks up the 30° ramp to the plateau",
            ),
        ];
        for (from, to, top, what) in milestones {
            let p = pose.translation;
            let there = (from..to).contains(&p.x) && (p.y - (top + 0.81)).abs() < 1e-6;
            if there && moved.grounded && !log.iter().any(|l| l.contains(what)) {
                log.push(format!("t = {t:5.2} s: {what}"));
            }
        }
        if !coin_taken
            && world
                .overlap_shape(&mover.shape, &pose, &sensors)
                .iter()
                .any(|s| s.body() == level.coin)
        {
            coin_taken = true;
            world.remove_body(level.coin)?;
            log.push(format!("t = {t:5.2} s: picks up the coin"));
        }
    }
    for line in &log {
        println!("{line}");
    }
    let barrelx = world
        .body(level.barrel)
        .expect("barrel")
        .transform()
        .translation
        .x;
    println!(
        "after 16 s: the player stands at ({:.2}, {:.2}) m{}; highest {:.2} m; the barrel moved \
         from x = 28.00 to {barrelx:.2} m; coin {}",
        pose.translation.x,
        pose.translation.y,
        if ground.is_some() {
            " on the ground"
        } else {
            " in the air"
        },
        highest_step,
        if coin_taken { "taken" } else { "missed" },
    );
    Ok(())
}
