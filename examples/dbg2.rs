use sweep2d::*;
fn main() {
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
    let mut ids = vec![];
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
            ids.push((id, Vec2::new(x, y)));
            top = Some((id, Vec2::new(x, y)));
        }
    }
    let (id, p0) = top.unwrap();
    for s in 1..=1200 {
        w.step();
        if s % 120 == 0 {
            let maxdx = ids
                .iter()
                .map(|(i, p)| (w.body(*i).unwrap().transform().translation.x - p.x).abs())
                .fold(0.0, f64::max);
            let ke = w.kinetic_energy();
            println!(
                "t={:.0}s top {:?} max|dx| {:.4} KE {:.2e} contacts {}",
                s as f64 / 60.0,
                w.body(id).unwrap().transform().translation - p0,
                maxdx,
                ke,
                w.events().contact_begin.len()
            );
        }
    }
}
