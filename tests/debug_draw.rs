//! The debug-draw API against independent geometry: what `World::debug_draw` reports is compared
//! with the shapes' own vertices placed by hand, the events' impacts, the joints' anchors and
//! brute-force containment.

use approx::assert_relative_eq;
use sweep2d::query;
use sweep2d::{
    BodyDef, BodyKind, DrawCommand, DrawList, DrawOptions, DrawRole, RevoluteJointDef, Shape,
    ShapeDef, Transform, Vec2, World, WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// A static 10 m × 1 m ground whose top face is y = 0.
fn add_ground(w: &mut World) -> sweep2d::BodyId {
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(5.0, 0.5).unwrap(),
        transform: Transform::new(v(0.0, -0.5), 0.0),
        ..BodyDef::default()
    })
    .unwrap()
}

fn drawn(world: &World, options: &DrawOptions) -> DrawList {
    let mut list = DrawList::new();
    world.debug_draw(&mut list, options);
    list
}

fn only(layer: impl Fn(&mut DrawOptions)) -> DrawOptions {
    let mut o = DrawOptions::none();
    layer(&mut o);
    o
}

#[test]
fn shapes_are_drawn_where_they_are_with_their_kind() {
    let mut w = World::new(WorldConfig::default());
    let ground = add_ground(&mut w);
    let pose = Transform::new(v(1.0, 3.0), 0.7);
    let tri = Shape::polygon(&[v(0.0, 0.0), v(1.0, 0.0), v(0.2, 0.8)]).unwrap();
    let body = w
        .add_body(BodyDef {
            shape: tri.clone(),
            transform: pose,
            ..BodyDef::default()
        })
        .unwrap();
    let offset = Transform::new(v(0.5, 0.5), 0.0);
    w.add_shape(
        body,
        ShapeDef {
            shape: Shape::circle(0.25).unwrap(),
            offset,
            ..ShapeDef::default()
        },
    )
    .unwrap();
    let blade = w
        .add_body(BodyDef {
            kind: BodyKind::Kinematic,
            shape: Shape::capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.1).unwrap(),
            transform: Transform::new(v(-3.0, 2.0), 0.3),
            ..BodyDef::default()
        })
        .unwrap();

    let list = drawn(&w, &only(|o| o.shapes = true));
    assert_eq!(list.commands.len(), 4, "{:#?}", list.commands);
    for c in &list.commands {
        let style = c.style();
        assert!(style.fill);
        assert_eq!(style.color, style.role.color());
        match c {
            DrawCommand::Polygon {
                vertices, style, ..
            } if style.body == Some(body) => {
                let Shape::Polygon(p) = &tri else {
                    unreachable!()
                };
                // The body's frame is the one the shape was given in: place its vertices by hand.
                let (s, co) = 0.7f64.sin_cos();
                for (got, local) in vertices.iter().zip(p.vertices()) {
                    let want =
                        v(1.0, 3.0) + v(co * local.x - s * local.y, s * local.x + co * local.y);
                    assert_relative_eq!(got.x, want.x, epsilon = 1e-12);
                    assert_relative_eq!(got.y, want.y, epsilon = 1e-12);
                }
                assert_eq!(style.role, DrawRole::DynamicShape);
            }
            DrawCommand::Polygon {
                style, vertices, ..
            } => {
                assert_eq!(style.body, Some(ground));
                assert_eq!(style.role, DrawRole::StaticShape);
                assert_eq!(vertices.len(), 4);
            }
            DrawCommand::Circle {
                center,
                radius,
                axis,
                style,
            } => {
                assert_eq!(style.body, Some(body));
                let want = (pose * offset).translation;
                assert_relative_eq!(center.x, want.x, epsilon = 1e-12);
                assert_relative_eq!(center.y, want.y, epsilon = 1e-12);
                assert_eq!(*radius, 0.25);
                assert_relative_eq!(axis.x, 0.7f64.cos(), epsilon = 1e-12);
            }
            DrawCommand::Capsule {
                a,
                b,
                radius,
                style,
            } => {
                assert_eq!(style.body, Some(blade));
                assert_eq!(style.role, DrawRole::KinematicShape);
                assert_eq!(*radius, 0.1);
                assert_relative_eq!((*a - *b).length(), 2.0, epsilon = 1e-12);
                assert_relative_eq!(((*a + *b) * 0.5).x, -3.0, epsilon = 1e-12);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    // Nothing else is drawn when every layer is off, and the default draws the shapes.
    assert!(drawn(&w, &DrawOptions::none()).commands.is_empty());
    assert_eq!(drawn(&w, &DrawOptions::default()).commands.len(), 4);
}

#[test]
fn sleeping_bodies_and_sensors_have_their_own_roles() {
    let mut w = World::new(WorldConfig::default());
    add_ground(&mut w);
    let boxed = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 0.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(1.0, 1.0).unwrap(),
        transform: Transform::new(v(3.0, 1.0), 0.0),
        sensor: true,
        ..BodyDef::default()
    })
    .unwrap();
    for _ in 0..120 {
        w.step();
    }
    assert!(
        !w.body(boxed).unwrap().is_awake(),
        "the box rests and sleeps"
    );
    let list = drawn(&w, &only(|o| o.shapes = true));
    assert_eq!(list.with_role(DrawRole::SleepingShape).count(), 1);
    assert_eq!(list.with_role(DrawRole::DynamicShape).count(), 0);
    assert_eq!(list.with_role(DrawRole::SensorShape).count(), 1);
}

#[test]
fn contact_points_lie_on_the_touching_faces_and_normals_are_unit_long() {
    let mut w = World::new(WorldConfig::default());
    add_ground(&mut w);
    w.add_body(BodyDef {
        transform: Transform::new(v(0.0, 0.6), 0.0),
        ..BodyDef::default()
    })
    .unwrap();
    for _ in 0..30 {
        w.step();
    }
    let mut options = only(|o| {
        o.contact_points = true;
        o.contact_normals = true;
    });
    options.normal_length = 0.5;
    let list = drawn(&w, &options);
    let points: Vec<Vec2> = list
        .with_role(DrawRole::ContactPoint)
        .map(|c| match c {
            DrawCommand::Point { p, .. } => *p,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        points.len(),
        2,
        "a box on the ground has two contact points"
    );
    for p in &points {
        assert!(
            p.y.abs() < 0.01,
            "contact point {p:?} off the ground's top face"
        );
        assert!(
            (p.x.abs() - 0.5).abs() < 0.01,
            "contact point {p:?} not at a corner"
        );
    }
    for c in list.with_role(DrawRole::ContactNormal) {
        let DrawCommand::Segment { a, b, .. } = c else {
            panic!("{c:?}")
        };
        assert_relative_eq!((*b - *a).length(), 0.5, epsilon = 1e-9);
        assert!(
            (*b - *a).y > 0.49,
            "normal from the ground up toward the box"
        );
    }
}

#[test]
fn contact_points_move_with_a_sliding_body() {
    let mut w = World::new(WorldConfig::default());
    // The box first, so that it is body A of its contact with the ground.
    let slider = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 0.5), 0.0),
            friction: 0.0,
            ..BodyDef::default()
        })
        .unwrap();
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(50.0, 0.5).unwrap(),
        transform: Transform::new(v(0.0, -0.5), 0.0),
        friction: 0.0,
        ..BodyDef::default()
    })
    .unwrap();
    w.step();
    w.set_velocity(slider, v(6.0, 0.0), 0.0).unwrap();
    for _ in 0..10 {
        w.step();
        let x = w.body(slider).unwrap().center_of_mass().x;
        let list = drawn(&w, &only(|o| o.contact_points = true));
        let mut xs: Vec<f64> = list
            .commands
            .iter()
            .map(|c| match c {
                DrawCommand::Point { p, .. } => p.x,
                other => panic!("{other:?}"),
            })
            .collect();
        xs.sort_by(f64::total_cmp);
        assert_eq!(xs.len(), 2);
        // The box moves 10 cm a step: points left where the step started would be that far off.
        assert!((xs[0] - (x - 0.5)).abs() < 0.01, "{xs:?} for a box at {x}");
        assert!((xs[1] - (x + 0.5)).abs() < 0.01, "{xs:?} for a box at {x}");
    }
}

#[test]
fn impacts_swept_hulls_and_boxes_show_the_last_step() {
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(0.01, 2.0).unwrap(),
        transform: Transform::new(v(3.0, 0.0), 0.0),
        ..BodyDef::default()
    })
    .unwrap();
    let bullet_shape = Shape::circle(0.05).unwrap();
    let bullet = w
        .add_body(BodyDef {
            shape: bullet_shape.clone(),
            transform: Transform::new(v(0.0, 0.0), 0.0),
            linear_velocity: v(300.0, 0.0),
            restitution: 0.5,
            ..BodyDef::default()
        })
        .unwrap();
    let start = w.body(bullet).unwrap().center_of_mass();
    w.step(); // 5 m in the step: through the wall at x = 3 without the continuous pass
    let impact = *w
        .events()
        .impacts
        .first()
        .expect("the bullet hits the wall");
    let list = drawn(&w, &only(|o| o.impacts = true));
    let mut texts = list.commands.iter().filter_map(|c| match c {
        DrawCommand::Text { text, at, .. } => Some((text.clone(), *at)),
        _ => None,
    });
    let (text, at) = texts.next().expect("the impact's time is labelled");
    assert_eq!(text, format!("t={:.3}", impact.fraction));
    assert_eq!(at, impact.point);
    assert!(list
        .commands
        .iter()
        .any(|c| matches!(c, DrawCommand::Point { p, .. } if *p == impact.point)));

    // The swept hull of the bullet holds where it started and where it ended.
    let end = w.body(bullet).unwrap().center_of_mass();
    let list = drawn(&w, &only(|o| o.swept_hulls = true));
    let hulls: Vec<_> = list
        .commands
        .iter()
        .filter(|c| c.style().body == Some(bullet))
        .collect();
    assert_eq!(
        hulls.len(),
        1,
        "one hull for the moving bullet, none for the wall"
    );
    let DrawCommand::Polygon {
        vertices, radius, ..
    } = hulls[0]
    else {
        panic!("{:?}", hulls[0])
    };
    let hull = Shape::rounded_polygon(vertices, *radius)
        .or_else(|_| Shape::capsule(vertices[0], vertices[vertices.len() - 1], *radius))
        .unwrap();
    for p in [start, end] {
        assert!(
            query::contains_point(&hull, &Transform::IDENTITY, p),
            "{p:?} outside the swept hull"
        );
    }

    // Bounding boxes hold their shapes (brute force: the circle's boundary points).
    let list = drawn(&w, &only(|o| o.bounding_boxes = true));
    let boxes: Vec<_> = list
        .commands
        .iter()
        .filter(|c| c.style().body == Some(bullet))
        .collect();
    let DrawCommand::Polygon { vertices, .. } = boxes[0] else {
        panic!()
    };
    for k in 0..64 {
        let q = end + Vec2::from_angle(k as f64 / 64.0 * std::f64::consts::TAU) * 0.05;
        assert!(q.x >= vertices[0].x - 1e-12 && q.x <= vertices[2].x + 1e-12);
        assert!(q.y >= vertices[0].y - 1e-12 && q.y <= vertices[2].y + 1e-12);
    }
}

#[test]
fn joints_overlaps_and_centres_of_mass() {
    let mut w = World::new(WorldConfig::default());
    let hook = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(0.1, 0.1).unwrap(),
            transform: Transform::new(v(0.0, 5.0), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let bob = w
        .add_body(BodyDef {
            shape: Shape::circle(0.2).unwrap(),
            transform: Transform::new(v(1.0, 5.0), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let joint = w
        .add_joint(RevoluteJointDef::new(hook, bob, v(0.0, 5.0)))
        .unwrap();
    // A sensor the bob swings through.
    let sensor = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(0.3, 3.0).unwrap(),
            transform: Transform::new(v(0.0, 3.0), 0.0),
            sensor: true,
            ..BodyDef::default()
        })
        .unwrap();
    let mut inside = false;
    for _ in 0..60 {
        w.step();
        let list = drawn(&w, &only(|o| o.sensor_overlaps = true));
        let drawn_overlap = list.with_role(DrawRole::SensorOverlap).count() > 0;
        let bob_at = w.body(bob).unwrap().center_of_mass();
        let truly_inside = bob_at.x.abs() < 0.3 + 0.2;
        // The sensor's report lags the bob's edge a little at the boundary: check the clear cases.
        if bob_at.x.abs() < 0.25 {
            assert!(
                drawn_overlap,
                "bob at {bob_at:?} inside the sensor, no overlap drawn"
            );
        }
        if bob_at.x.abs() > 0.55 {
            assert!(!drawn_overlap, "bob at {bob_at:?} outside, overlap drawn");
        }
        inside |= truly_inside && drawn_overlap;
    }
    assert!(inside, "the bob swung through the sensor");
    let _ = sensor;

    let list = drawn(&w, &only(|o| o.joints = true));
    let (a, b) = w.joint_anchors(joint).unwrap();
    assert!(list
        .with_role(DrawRole::Joint)
        .any(|c| matches!(c, DrawCommand::Segment { a: p, b: q, .. } if *p == a && *q == b)));

    let list = drawn(&w, &only(|o| o.centers_of_mass = true));
    let coms: Vec<_> = list.with_role(DrawRole::CenterOfMass).collect();
    assert_eq!(coms.len(), 1, "static bodies have none drawn");
    assert!(
        matches!(coms[0], DrawCommand::Point { p, .. } if *p == w.body(bob).unwrap().center_of_mass())
    );
}

#[test]
fn interpolated_shapes_follow_the_bodys_interpolated_pose() {
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    let b = w
        .add_body(BodyDef {
            shape: Shape::circle(0.5).unwrap(),
            linear_velocity: v(6.0, 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    w.step();
    let mut options = only(|o| o.shapes = true);
    options.alpha = 0.5;
    let list = drawn(&w, &options);
    let DrawCommand::Circle { center, .. } = &list.commands[0] else {
        panic!()
    };
    let want = w.body(b).unwrap().interpolated_transform(0.5).translation;
    assert_relative_eq!(center.x, want.x, epsilon = 1e-12);
    assert_relative_eq!(center.x, 0.05, epsilon = 1e-9);
}
