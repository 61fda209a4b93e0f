use sweep2d::*;
fn main() {
    // 1. box resting
    let mut w = World::new(WorldConfig::default());
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(10.0, 0.5).unwrap(),
        transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
        ..Default::default()
    })
    .unwrap();
    let b = w
        .add_body(BodyDef {
            transform: Transform::new(Vec2::new(0.0, 0.5), 0.0),
            ..Default::default()
        })
        .unwrap();
    for _ in 0..600 {
        w.step();
    }
    println!(
        "box after 10 s: {:?} v {:?}",
        w.body(b).unwrap().transform(),
        w.body(b).unwrap().linear_velocity()
    );
    // 2. pyramid 20 rows
    let mut w = World::new(WorldConfig::default());
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(40.0, 0.5).unwrap(),
        transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
        ..Default::default()
    })
    .unwrap();
    let rows = 20;
    let mut top = None;
    for i in 0..rows {
        for j in i..rows {
            let x = (i as f64 + 1.0) * 0.5 + (j - i) as f64 * 1.0 - rows as f64 / 2.0;
            let y = (2 * i + 1) as f64 * 0.5;
            let id = w
                .add_body(BodyDef {
                    transform: Transform::new(Vec2::new(x, y), 0.0),
                    ..Default::default()
                })
                .unwrap();
            top = Some((id, Vec2::new(x, y)));
        }
    }
    let t0 = std::time::Instant::now();
    for _ in 0..600 {
        w.step();
    }
    let (id, p0) = top.unwrap();
    println!(
        "pyramid top drift {:?} ({:.2} ms/step)",
        w.body(id).unwrap().transform().translation - p0,
        t0.elapsed().as_secs_f64() * 1000.0 / 600.0
    );
    // 3. elastic ball between walls, no gravity
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..Default::default()
    });
    for x in [-5.5, 5.5] {
        w.add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(0.5, 5.0).unwrap(),
            transform: Transform::new(Vec2::new(x, 0.0), 0.0),
            restitution: 1.0,
            ..Default::default()
        })
        .unwrap();
    }
    let ball = w
        .add_body(BodyDef {
            shape: Shape::circle(0.25).unwrap(),
            linear_velocity: Vec2::new(500.0, 0.0),
            restitution: 1.0,
            friction: 0.0,
            ..Default::default()
        })
        .unwrap();
    for _ in 0..1000 {
        w.step();
    }
    let bb = w.body(ball).unwrap();
    println!(
        "ball after 1000 steps: x {:.6} v {:?}",
        bb.transform().translation.x,
        bb.linear_velocity()
    );
    // analytic: position with reflections between x in [-4.75, 4.75]
    let t = 1000.0 / 60.0;
    let d = 500.0 * t;
    let span = 9.5;
    let u = (d + 4.75) % (2.0 * span);
    let x = if u <= span {
        -4.75 + u
    } else {
        4.75 - (u - span)
    };
    println!("analytic x {:.6}", x);
}
