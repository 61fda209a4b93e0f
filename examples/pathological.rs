//! Pathological scenes, timed: 2,000 boxes created at one point (50 steps) and a 1,000-link chain
//! dropped flat on the ground (450 steps; the ground is 800 m long and the chain 500 m, so its last
//! 100 m hang over the edge): per-step times, the median and the worst, and the chain's largest
//! joint gap.
//!
//! `cargo run --release --example pathological`
use std::time::Instant;
use sweep2d::{BodyDef, BodyKind, RevoluteJointDef, Shape, Transform, Vec2, World, WorldConfig};

fn ground(w: &mut World) {
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(400.0, 0.5).unwrap(),
        transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
        ..BodyDef::default()
    })
    .unwrap();
}

fn report(name: &str, times: &mut [f64], extra: &str) {
    let total: f64 = times.iter().sum();
    let worst = times.iter().copied().fold(0.0, f64::max);
    let worst_at = times.iter().position(|&t| t == worst).unwrap_or(0);
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "{name}: {} steps, {total:.2} s in all, median {:.2} ms, worst {:.1} ms (step {worst_at}, {:.1}× the median){extra}",
        times.len(),
        median * 1e3,
        worst * 1e3,
        worst / median
    );
}

fn main() {
    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    for _ in 0..2000 {
        w.add_body(BodyDef {
            transform: Transform::new(Vec2::new(0.0, 5.0), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    }
    let mut times = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        w.step();
        times.push(t.elapsed().as_secs_f64());
    }
    report("2,000 boxes at one point", &mut times, "");

    let mut w = World::new(WorldConfig::default());
    ground(&mut w);
    let (mut links, mut joints) = (Vec::new(), Vec::new());
    for i in 0..1000 {
        let x = i as f64 * 0.5;
        let link = w
            .add_body(BodyDef {
                shape: Shape::capsule(Vec2::new(-0.25, 0.0), Vec2::new(0.25, 0.0), 0.05).unwrap(),
                transform: Transform::new(Vec2::new(x, 20.0), 0.0),
                density: 20.0,
                ..BodyDef::default()
            })
            .unwrap();
        if let Some(&p) = links.last() {
            joints.push(
                w.add_joint(RevoluteJointDef::new(p, link, Vec2::new(x - 0.25, 20.0)))
                    .unwrap(),
            );
        }
        links.push(link);
    }
    let mut times = Vec::new();
    let (mut impacts, mut held, mut gap) = (0, 0, 0.0f64);
    for _ in 0..450 {
        let t = Instant::now();
        w.step();
        times.push(t.elapsed().as_secs_f64());
        impacts += w.events().impacts.len();
        held += w.events().held.len();
        for &j in &joints {
            let (a, b) = w.joint_anchors(j).unwrap();
            gap = gap.max(a.distance(b));
        }
    }
    report(
        "1,000-link chain dropped flat",
        &mut times,
        &format!("; {impacts} impacts, {held} holds, largest joint gap {gap:.3} m"),
    );
}
