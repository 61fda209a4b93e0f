//! Bullets through thin walls: 1,000 discs at 300 m/s rain onto three 1 cm walls (20 m wide, at
//! y = 0, 1, 2). Each step, every bullet is checked: crossing a wall's line inside its span during
//! a step is a tunnel. Prints the impacts resolved and the tunnels counted (0 on this machine;
//! docs/simulation.md has the figures).
//! Run with `cargo run --release --example bullets`.

use sweep2d::analysis::scenes;

fn main() {
    let mut scene = scenes::bullet_rain(1000, 300.0);
    let bullets = scene.tracked.clone();
    let (mut impacts, mut tunnels) = (0usize, 0usize);
    let mut fastest_hit: f64 = 0.0;
    let mut last: Vec<_> = bullets
        .iter()
        .map(|id| {
            scene
                .world
                .body(*id)
                .expect("bullet")
                .transform()
                .translation
        })
        .collect();
    for _ in 0..120 {
        scene.world.step();
        for i in &scene.world.events().impacts {
            impacts += 1;
            fastest_hit = fastest_hit.max(i.relative_speed);
        }
        for (k, id) in bullets.iter().enumerate() {
            let now = scene
                .world
                .body(*id)
                .expect("bullet")
                .transform()
                .translation;
            let before = last[k];
            for wall_y in [0.0, 1.0, 2.0] {
                let crossed = (before.y - wall_y) * (now.y - wall_y) < 0.0;
                if crossed {
                    // Where the straight path crossed the wall's line: inside the wall's span?
                    let s = (before.y - wall_y) / (before.y - now.y);
                    let x = before.x + s * (now.x - before.x);
                    if x.abs() < 10.0 {
                        tunnels += 1;
                        if std::env::var("TRACE").is_ok() {
                            eprintln!("step {}: bullet {k} crossed y={wall_y} at x={x:.3}: {before:?} -> {now:?}, step impacts {}", scene.world.step_count(), scene.world.events().impacts.len());
                        }
                    }
                }
            }
            last[k] = now;
        }
    }
    println!(
        "{} bullets at 300 m/s, 2 s simulated: {impacts} impacts resolved inside steps (fastest {fastest_hit:.0} m/s), {tunnels} tunnels",
        bullets.len()
    );
}
