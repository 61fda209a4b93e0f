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

#[test]
fn game_parts_contract() -> Result<(), Box<dyn std::error::Error>> {
    use sweep2d::{BodyDef, BodyId, BodyKind, Filter, ShapeDef, ShapeId, World, WorldConfig};
    let f: Filter = Filter::default();
    let copy = f;
    assert_eq!((copy.category, copy.mask, copy.group), (1, u64::MAX, 0));
    let mut world = World::new(WorldConfig::default());
    let strip = world.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(0.005, 1.0)?,
        sensor: true,
        filter: Filter::default(),
        ..BodyDef::default()
    })?;
    let bullet: BodyId = world.add_body(BodyDef {
        shape: Shape::circle(0.01)?,
        transform: Transform::new(Vec2::new(-5.0, 0.0), 0.0),
        linear_velocity: Vec2::new(1_000.0, 0.0),
        ..BodyDef::default()
    })?;
    let def = ShapeDef {
        shape: Shape::circle(0.01)?,
        offset: Transform::new(Vec2::new(0.0, 0.05), 0.0),
        density: 1.0,
        friction: 0.6,
        restitution: 0.0,
        filter: Filter::default(),
        sensor: false,
    };
    let _: ShapeId = world.add_shape(bullet, def)?;
    world.step();
    let events = world.events();
    let (begin, end): (&[sweep2d::SensorEvent], &[sweep2d::SensorEvent]) =
        (&events.sensor_begin, &events.sensor_end);
    assert_eq!(
        begin.len(),
        2,
        "both of the bullet's shapes cross the strip"
    );
    assert_eq!(end.len(), 2);
    let e = begin[0];
    let (_, _, _): (BodyId, BodyId, f64) = (e.sensor_body, e.visitor_body, e.fraction);
    assert_eq!((e.sensor_body, e.visitor_body), (strip, bullet));
    let d: query::Distance = query::distance(
        &Shape::circle(1.0)?,
        &Transform::IDENTITY,
        &Shape::circle(1.0)?,
        &Transform::new(Vec2::new(3.0, 0.0), 0.0),
    );
    let (_, _, _): (f64, Vec2, Vec2) = (d.distance, d.point_a, d.point_b);
    let _: Shape = Shape::segment(Vec2::ZERO, Vec2::X)?;
    let _: Shape = Shape::chain(&[Vec2::ZERO, Vec2::X, Vec2::ONE], false)?;
    assert!((d.distance - 1.0).abs() < 1e-12);
    Ok(())
}

#[test]
fn gameplay_contract() -> Result<(), Box<dyn std::error::Error>> {
    use sweep2d::{BodyDef, BodyError, BodyId, World, WorldConfig};
    let mut world = World::new(WorldConfig::default());
    let player: BodyId = world.add_body(BodyDef {
        fixed_rotation: true,
        ..BodyDef::default()
    })?;
    let set: Result<(), BodyError> = world.set_fixed_rotation(player, false);
    set?;
    assert!(!world
        .body(player)
        .map(|b| b.fixed_rotation())
        .unwrap_or(true));
    world.set_fixed_rotation(player, true)?;
    world.step();
    assert_eq!(world.body(player).map(|b| b.angular_velocity()), Some(0.0));
    let platform = world.add_body(BodyDef {
        kind: sweep2d::BodyKind::Kinematic,
        transform: Transform::new(Vec2::new(0.0, -3.0), 0.0),
        ..BodyDef::default()
    })?;
    let target = Transform::new(Vec2::new(0.5, -3.0), 0.0);
    let driven: Result<(), BodyError> = world.set_kinematic_target(platform, target);
    driven?;
    world.step();
    let at = world.body(platform).map(|b| b.transform().translation);
    assert!(at.is_some_and(|p| (p - target.translation).length() < 1e-12));
    let crate_ = world.add_body(BodyDef {
        transform: Transform::new(Vec2::new(5.0, 0.0), 0.0),
        awake: false,
        ..BodyDef::default()
    })?;
    assert_eq!(world.body(crate_).map(|b| b.is_awake()), Some(false));
    world.put_to_sleep(player)?;
    for c in world.contacts() {
        let _: sweep2d::ContactData = c.clone();
        let (_, _, _, _, _): (BodyId, BodyId, Vec2, Vec<Vec2>, f64) =
            (c.body_a, c.body_b, c.normal, c.points, c.normal_impulse);
    }
    let kind: Result<(), BodyError> = world.set_body_kind(platform, sweep2d::BodyKind::Dynamic);
    kind?;
    assert_eq!(
        world.body(platform).map(|b| b.kind()),
        Some(sweep2d::BodyKind::Dynamic)
    );
    // The character mover, as the contract writes it.
    let mover: sweep2d::CharacterMover = sweep2d::CharacterMover::new(Shape::circle(0.25)?);
    let from = Transform::new(Vec2::new(-20.0, 5.0), 0.0);
    let moved: sweep2d::MoveResult = mover.move_and_slide(
        &world,
        from,
        Vec2::new(0.0, -1.0),
        &sweep2d::QueryFilter::default(),
    );
    let (_, _, _): (Transform, bool, Vec<sweep2d::MoveCollision>) =
        (moved.transform, moved.grounded, moved.collisions.clone());
    assert!(moved.error.is_none());
    Ok(())
}
