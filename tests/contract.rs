//! The public contract (the entry points listed in `docs/architecture.md`), called exactly as
//! written there. If this file stops compiling, the contract was broken.

use sweep2d::{query, Shape, ShapeError, Transform, Vec2};

fn clone_debug<T: Clone + std::fmt::Debug>(_: &T) {}

#[test]
fn static_contract() -> Result<(), ShapeError> {
    let _: sweep2d::glam::DVec2 = Vec2::new(1.0, 2.0);
    let xf: Transform = Transform::new(Vec2::new(1.0, 0.0), 0.5);
    let _: Vec2 = xf.translation;
    let _: f64 = xf.rotation.angle();
    assert!((xf.angle() - 0.5).abs() < 1e-15);
    let id = Transform::IDENTITY;
    clone_debug(&xf);

    let circle: Shape = Shape::circle(0.5)?;
    let poly: Shape = Shape::polygon(&[Vec2::ZERO, Vec2::X, Vec2::Y])?;
    let rect: Shape = Shape::rectangle(1.0, 0.5)?;
    let cap: Shape = Shape::capsule(Vec2::ZERO, Vec2::X, 0.25)?;
    clone_debug(&circle);

    let hit: bool = query::intersects(&rect, &id, &circle, &xf);
    let c: Option<sweep2d::Contact> = query::contact(&rect, &id, &circle, &xf);
    assert!(hit && c.is_some());
    let c = c.unwrap();
    clone_debug(&c);
    let _: Vec2 = c.normal;
    let _: f64 = c.depth;
    let _: &[Vec2] = c.points();
    assert!(query::intersects(&poly, &id, &cap, &id));
    Ok(())
}

#[test]
fn continuous_contract() -> Result<(), ShapeError> {
    let start = Transform::new(Vec2::new(-5.0, 0.0), 0.0);
    let m: query::Motion = query::Motion::new(start, Vec2::new(10.0, 0.0), 0.0);
    clone_debug(&m);
    let still = query::Motion::new(Transform::IDENTITY, Vec2::ZERO, 0.0);
    let ball = Shape::circle(0.5)?;
    let wall = Shape::rectangle(0.1, 2.0)?;
    let toi: Option<query::Toi> = query::time_of_impact(&ball, &m, &wall, &still);
    let toi = toi.expect("the ball reaches the wall");
    clone_debug(&toi);
    let _: f64 = toi.t;
    let _: Vec2 = toi.normal;
    let _: Vec2 = toi.point;
    assert!((toi.t - 0.44).abs() < 1e-12);
    Ok(())
}
