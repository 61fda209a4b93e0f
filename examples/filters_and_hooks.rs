//! Filters, sensors, chains and contact hooks in a small level of rigid bodies
//! (`docs/shapes-and-filters.md`); the player here is a dynamic body steered by its velocity.
//! `examples/platformer.rs` plays a level with the character mover instead.
//!
//! * terrain: a chain of segments over rolling ground (no bumps at its vertices);
//! * a one-way platform: a contact hook lets the player jump up through it and land on it;
//! * a coin: a sensor that reports when the player touches it;
//! * a player of two shapes (a body and a massless foot sensor that tells when it stands);
//! * bullets that ignore their owner (a shared negative group) and hit a crate.
//!
//! `cargo run --example filters_and_hooks` runs four seconds at 60 Hz and prints what happened.

use sweep2d::{
    BodyDef, BodyId, BodyKind, ContactHooks, Filter, PreSolve, Shape, ShapeDef, Transform, Vec2,
    World, WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// The player's filter group: the player and its bullets never collide with each other.
const PLAYER_GROUP: i32 = -1;

/// Contacts with one-way platforms count only for bodies coming from above.
struct OneWayPlatforms {
    platforms: Vec<BodyId>,
}

impl ContactHooks for OneWayPlatforms {
    fn pre_solve(&mut self, c: &mut PreSolve) -> bool {
        let up = if self.platforms.contains(&c.body_a()) {
            c.normal
        } else if self.platforms.contains(&c.body_b()) {
            -c.normal
        } else {
            return true;
        };
        up.y > 0.7
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(WorldConfig::default());

    // Rolling terrain: a chain through 81 points from x = −20 to 20.
    let ground: Vec<Vec2> = (0..=80)
        .map(|i| {
            let x = -20.0 + 0.5 * i as f64;
            v(x, 0.3 * (0.4 * x).sin())
        })
        .collect();
    world.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::chain(&ground, false)?,
        name: Some("terrain".into()),
        ..BodyDef::default()
    })?;

    // A one-way platform 2.5 m up.
    let platform = world.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(1.5, 0.1)?,
        transform: Transform::new(v(-6.0, 2.5), 0.0),
        name: Some("one-way platform".into()),
        ..BodyDef::default()
    })?;

    // A coin above the platform: a sensor.
    let coin = world.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::circle(0.3)?,
        transform: Transform::new(v(-6.0, 3.4), 0.0),
        sensor: true,
        name: Some("coin".into()),
        ..BodyDef::default()
    })?;

    // A crate to shoot at.
    let crate_ = world.add_body(BodyDef {
        shape: Shape::rectangle(0.4, 0.4)?,
        transform: Transform::new(v(6.0, 1.0), 0.0),
        name: Some("crate".into()),
        ..BodyDef::default()
    })?;

    // The player: a capsule body with a foot sensor below it, in the player's group.
    let player_filter = Filter {
        group: PLAYER_GROUP,
        ..Filter::DEFAULT
    };
    let player = world.add_body(BodyDef {
        shape: Shape::capsule(v(0.0, -0.3), v(0.0, 0.3), 0.25)?,
        transform: Transform::new(v(-9.0, 1.2), 0.0),
        filter: player_filter,
        friction: 0.2,
        angular_damping: 50.0,
        name: Some("player".into()),
        ..BodyDef::default()
    })?;
    let foot = world.add_shape(
        player,
        ShapeDef {
            shape: Shape::rectangle(0.15, 0.05)?,
            offset: Transform::new(v(0.0, -0.58), 0.0),
            density: 0.0,
            sensor: true,
            filter: player_filter,
            ..ShapeDef::default()
        },
    )?;

    let mut hooks = OneWayPlatforms {
        platforms: vec![platform],
    };
    let dt = world.config().dt;
    let (mut standing, mut coins, mut crate_hits, mut highest) = (0i32, 0, 0, f64::MIN);
    for step in 0..240 {
        let t = step as f64 * dt;
        let body = world.body(player).expect("the player");
        let (p, vel) = (body.transform().translation, body.linear_velocity());
        highest = highest.max(p.y);
        // Walk right towards the platform, jump through it at 0.5 s, then stand; fire at 2.5 s.
        let run: f64 = if t < 0.45 { 6.0 } else { 0.0 };
        let jump = if step == 30 && standing > 0 {
            9.0
        } else {
            vel.y
        };
        world.set_velocity(player, v(run.max(vel.x * 0.8), jump), 0.0)?;
        if step == 150 {
            let target = world.body(crate_).expect("the crate").center_of_mass();
            let aim = (target - p).normalize();
            for k in -1..=1 {
                // Fired from inside the player: the shared group keeps them apart.
                world.add_body(BodyDef {
                    shape: Shape::circle(0.03)?,
                    transform: Transform::new(p + v(0.0, 0.1 * f64::from(k)), 0.0),
                    linear_velocity: 250.0 * aim,
                    gravity_scale: 0.0,
                    filter: player_filter,
                    name: Some(format!("bullet {}", k + 1)),
                    ..BodyDef::default()
                })?;
            }
        }
        world.step_with_hooks(&mut hooks);
        let events = world.events();
        for e in &events.sensor_begin {
            if e.sensor_shape == foot {
                standing += 1;
            }
            if e.sensor_body == coin && e.visitor_body == player && coins == 0 {
                coins += 1;
                println!(
                    "t = {:.3} s: coin picked up (at {:.0}% of the step)",
                    e.time,
                    100.0 * e.fraction
                );
            }
        }
        for e in &events.sensor_end {
            if e.sensor_shape == foot {
                standing -= 1;
            }
        }
        for i in &events.impacts {
            if (i.body_a == crate_ || i.body_b == crate_) && i.relative_speed > 1.0 {
                crate_hits += 1;
                println!(
                    "t = {:.4} s: a bullet hit the crate at {:.0} m/s",
                    i.time, i.relative_speed
                );
            }
        }
        if coins == 1 && world.body(coin).is_some() {
            world.remove_body(coin)?; // picked up: gone
        }
    }
    let body = world.body(player).expect("the player");
    let end = body.transform().translation;
    println!(
        "after 4 s: the player rose to {highest:.2} m through the one-way platform and stands at \
         ({:.2}, {:.2}) m{}; {coins} coin(s); the crate was hit {crate_hits} time(s) and moved to \
         x = {:.2} m",
        end.x,
        end.y,
        if end.y > 2.5 { " on it" } else { "" },
        world
            .body(crate_)
            .expect("the crate")
            .transform()
            .translation
            .x,
    );
    Ok(())
}
