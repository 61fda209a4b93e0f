use sweep2d::*;
fn main() {
    let cap = Shape::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25).unwrap();
    let x0 = Transform::IDENTITY;
    for xb in [
        Transform::new(Vec2::new(0.0, 0.3), std::f64::consts::FRAC_PI_2),
        Transform::new(Vec2::new(0.5, 0.4), 0.0),
        Transform::new(Vec2::new(2.45, 0.0), 0.0),
    ] {
        println!("{:?}", query::contact(&cap, &x0, &cap, &xb));
        println!("{:?}\n", query::contact(&cap, &xb, &cap, &x0));
    }
}
