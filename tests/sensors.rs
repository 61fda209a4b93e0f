//! Sensors: shapes that never collide and report what enters and leaves them, with the moment of
//! entry and exit even when both fall within one step. References: the entry and exit times of a
//! box moving straight through a strip, computed by hand.

use proptest::prelude::*;
use sweep2d::{
    BodyDef, BodyKind, Filter, SensorEvent, Shape, ShapeDef, Transform, Vec2, World, WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

const DT: f64 = 1.0 / 60.0;

fn world(gravity: Vec2) -> World {
    World::new(WorldConfig {
        gravity,
        dt: DT,
        ..WorldConfig::default()
    })
}

/// A static sensor strip of width `width` (metres) from x = 0, 2 m tall, with `filter`.
fn strip(w: &mut World, width: f64, filter: Filter) -> sweep2d::BodyId {
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(width / 2.0, 1.0).unwrap(),
        transform: Transform::new(v(width / 2.0, 0.0), 0.0),
        sensor: true,
        filter,
        ..BodyDef::default()
    })
    .unwrap()
}

/// Runs `steps` steps and returns every sensor begin and end event.
fn run(w: &mut World, steps: usize) -> (Vec<SensorEvent>, Vec<SensorEvent>) {
    let (mut begin, mut end) = (Vec::new(), Vec::new());
    for _ in 0..steps {
        w.step();
        begin.extend_from_slice(&w.events().sensor_begin);
        end.extend_from_slice(&w.events().sensor_end);
    }
    (begin, end)
}

/// When (in steps since the start, fraction included) an event happened.
fn at(e: &SensorEvent) -> f64 {
    e.step as f64 + e.fraction
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A box of half size `h` at x = −1 moving at `speed` through a strip `width` wide: it enters
    /// when its front face reaches x = 0, at (1 − h)/d steps (d the distance per step), and leaves
    /// when its back face passes x = width, at (1 + h + width)/d. Both are reported, once, within
    /// 1e-6 of a step, whether they fall in one step or not; the box is not slowed.
    #[test]
    fn a_fast_visitor_reports_entry_and_exit_at_the_exact_moments(
        speed in 20.0..2_000.0f64,
        h in 0.005..0.05f64,
        width in 0.005..0.05f64,
        y in -0.9..0.9f64,
    ) {
        let mut w = world(Vec2::ZERO);
        let sensor = strip(&mut w, width, Filter::DEFAULT);
        let visitor = w
            .add_body(BodyDef {
                shape: Shape::rectangle(h, h).unwrap(),
                transform: Transform::new(v(-1.0, y), 0.0),
                linear_velocity: v(speed, 0.0),
                ..BodyDef::default()
            })
            .unwrap();
        let d = speed * DT;
        let (t_in, t_out) = ((1.0 - h) / d, (1.0 + h + width) / d);
        let steps = t_out.ceil() as usize + 2;
        let (begin, end) = run(&mut w, steps);
        prop_assert_eq!(begin.len(), 1, "{:?}", begin);
        prop_assert_eq!(end.len(), 1, "{:?}", end);
        let (b, e) = (&begin[0], &end[0]);
        prop_assert_eq!((b.sensor_body, b.visitor_body), (sensor, visitor));
        prop_assert_eq!((e.sensor_body, e.visitor_body), (sensor, visitor));
        prop_assert!((at(b) - t_in).abs() < 1e-6, "entry {} vs {}", at(b), t_in);
        prop_assert!((at(e) - t_out).abs() < 1e-6, "exit {} vs {}", at(e), t_out);
        prop_assert!((e.time - t_out * DT).abs() < 1e-6 * DT);
        let vx = w.body(visitor).unwrap().linear_velocity().x;
        prop_assert_eq!(vx, speed, "a sensor never pushes");
        prop_assert!(w.events().impacts.is_empty());
    }
}

#[test]
fn the_bullet_through_the_strip_of_the_issue() {
    // A 2 cm bullet at 1,000 m/s through a 1 cm strip: enters and leaves within one step.
    let mut w = world(Vec2::ZERO);
    strip(&mut w, 0.01, Filter::DEFAULT);
    w.add_body(BodyDef {
        shape: Shape::circle(0.01).unwrap(),
        transform: Transform::new(v(-5.0, 0.0), 0.0),
        linear_velocity: v(1_000.0, 0.0),
        ..BodyDef::default()
    })
    .unwrap();
    let (begin, end) = run(&mut w, 2);
    assert_eq!((begin.len(), end.len()), (1, 1));
    assert_eq!(begin[0].step, end[0].step);
    let d = 1_000.0 * DT;
    assert!((begin[0].fraction - 4.99 / d).abs() < 1e-6);
    assert!((end[0].fraction - 5.02 / d).abs() < 1e-6);
}

#[test]
fn a_filtered_visitor_is_not_reported_and_sensors_ignore_sensors() {
    let mut w = world(Vec2::ZERO);
    strip(
        &mut w,
        0.5,
        Filter {
            mask: 1,
            ..Filter::DEFAULT
        },
    );
    // Category 2: not in the strip's mask.
    w.add_body(BodyDef {
        shape: Shape::circle(0.1).unwrap(),
        transform: Transform::new(v(-1.0, 0.0), 0.0),
        linear_velocity: v(30.0, 0.0),
        filter: Filter {
            category: 2,
            ..Filter::DEFAULT
        },
        ..BodyDef::default()
    })
    .unwrap();
    // A sensor crossing the strip.
    w.add_body(BodyDef {
        shape: Shape::circle(0.1).unwrap(),
        transform: Transform::new(v(-1.0, 0.5), 0.0),
        linear_velocity: v(30.0, 0.0),
        sensor: true,
        ..BodyDef::default()
    })
    .unwrap();
    let (begin, end) = run(&mut w, 10);
    assert!(begin.is_empty() && end.is_empty(), "{begin:?} {end:?}");
}

#[test]
fn a_slow_visitor_begins_once_and_ends_once_steps_later() {
    let mut w = world(Vec2::ZERO);
    strip(&mut w, 1.0, Filter::DEFAULT);
    w.add_body(BodyDef {
        shape: Shape::rectangle(0.1, 0.1).unwrap(),
        transform: Transform::new(v(-0.5, 0.0), 0.0),
        linear_velocity: v(3.0, 0.0),
        ..BodyDef::default()
    })
    .unwrap();
    let (begin, end) = run(&mut w, 60);
    assert_eq!((begin.len(), end.len()), (1, 1));
    // Front face at x = 0 after 0.4 m: 8 steps; back face past x = 1 after 1.6 m: 32 steps.
    assert!((at(&begin[0]) - 8.0).abs() < 1e-6, "{}", at(&begin[0]));
    assert!((at(&end[0]) - 32.0).abs() < 1e-6, "{}", at(&end[0]));
}

/// A "foot" sensor on a falling box: it touches the ground before the box does, the box lands
/// on its solid shape, and the sensor does not hold it up.
#[test]
fn a_sensor_shape_rides_on_a_body_and_detects_the_ground() {
    let mut w = world(v(0.0, -10.0));
    let ground = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(5.0, 0.5).unwrap(),
            transform: Transform::new(v(0.0, -0.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let player = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 2.0), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let foot = w
        .add_shape(
            player,
            ShapeDef {
                shape: Shape::rectangle(0.4, 0.1).unwrap(),
                offset: Transform::new(v(0.0, -0.5), 0.0),
                density: 0.0,
                sensor: true,
                ..ShapeDef::default()
            },
        )
        .unwrap();
    let (mut sensed, mut landed) = (None, None);
    for step in 0..120 {
        w.step();
        if sensed.is_none() && !w.events().sensor_begin.is_empty() {
            let e = w.events().sensor_begin[0];
            assert_eq!((e.sensor_shape, e.visitor_body), (foot, ground));
            sensed = Some(step);
        }
        if landed.is_none() && !w.events().contact_begin.is_empty() {
            landed = Some(step);
        }
    }
    let (sensed, landed) = (sensed.expect("the foot senses"), landed.expect("lands"));
    assert!(sensed <= landed, "{sensed} {landed}");
    let y = w.body(player).unwrap().transform().translation.y;
    assert!(
        (y - 0.5).abs() < 0.02,
        "rests on its solid box, not the sensor: {y}"
    );
    // Still inside: no end event; moving it away ends the overlap.
    w.set_transform(player, Transform::new(v(0.0, 10.0), 0.0))
        .unwrap();
    w.step();
    assert_eq!(w.events().sensor_end.len(), 1);
}
