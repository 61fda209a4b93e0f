//! The recorder: what it keeps (all, every k-th, a ring), the events with their sub-step times,
//! and the CSV and JSON round trips.

use sweep2d::analysis::record::{EventKind, Recorder, RecorderConfig, Recording};
use sweep2d::{BodyDef, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

/// A ball thrown at a thin wall: one impact, then it falls, bounces on the ground and rolls.
fn world() -> World {
    let mut w = World::new(WorldConfig::default());
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(40.0, 0.5).unwrap(),
        transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
        name: Some("ground, flat".into()),
        ..Default::default()
    })
    .unwrap();
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(0.005, 2.0).unwrap(),
        transform: Transform::new(Vec2::new(3.0, 2.0), 0.0),
        name: Some("wall \"thin\"".into()),
        ..Default::default()
    })
    .unwrap();
    w.add_body(BodyDef {
        shape: Shape::circle(0.1).unwrap(),
        transform: Transform::new(Vec2::new(0.0, 1.0), 0.0),
        linear_velocity: Vec2::new(30.0, 0.0),
        restitution: 0.5,
        name: Some("ball".into()),
        ..Default::default()
    })
    .unwrap();
    w
}

fn run(config: RecorderConfig, steps: usize) -> (Recorder, World) {
    let mut w = world();
    let mut r = Recorder::new(config);
    r.record_initial(&w);
    for _ in 0..steps {
        w.step();
        r.record(&w);
    }
    (r, w)
}

#[test]
fn records_every_step_with_events_at_their_sub_step_times() {
    let (r, w) = run(RecorderConfig::default(), 120);
    let rec = r.recording();
    assert_eq!(rec.frames.len(), 121, "initial state + 120 steps");
    assert!(rec.frames.iter().all(|f| f.bodies.len() == 3));
    let last = rec.frames.last().unwrap();
    let ball = last.bodies.iter().find(|b| b.body == "ball").unwrap();
    let body = w
        .bodies()
        .find(|(_, b)| b.name() == Some("ball"))
        .unwrap()
        .1;
    assert_eq!(ball.x, body.transform().translation.x);
    assert_eq!(ball.vy, body.linear_velocity().y);
    let impacts: Vec<_> = rec
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Impact)
        .collect();
    assert!(!impacts.is_empty(), "the ball hits the wall");
    let hit = impacts[0];
    assert_eq!(hit.body_b, "wall \"thin\"");
    let dt = w.config().dt;
    assert!((0.0..=1.0).contains(&hit.fraction));
    assert!((hit.time - (hit.step as f64 + hit.fraction) * dt).abs() < 1e-12);
    // The wall's face is at x = 2.995; the ball (radius 0.1) meets it with its centre at 2.895:
    // at 30 m/s from x = 0 that is after 2.895/30 s.
    assert!((hit.point[0] - 2.995).abs() < 1e-6, "{:?}", hit.point);
    assert!((hit.time - 2.895 / 30.0).abs() < 1e-9, "{}", hit.time);
    assert!(rec.events.windows(2).all(|p| p[0].time <= p[1].time));
    assert!(rec.events.iter().any(|e| e.kind == EventKind::ContactBegin));
}

#[test]
fn every_kth_step_and_a_ring_bound_what_is_kept() {
    let (r, _) = run(
        RecorderConfig {
            every: 10,
            keep_last: None,
        },
        120,
    );
    let steps: Vec<u64> = r.frames().map(|f| f.step).collect();
    assert_eq!(steps, (0..=12).map(|k| k * 10).collect::<Vec<_>>());
    let all_events = run(RecorderConfig::default(), 120).0.recording().events;
    assert_eq!(
        r.recording().events,
        all_events,
        "events are kept for every step"
    );

    let (r, _) = run(
        RecorderConfig {
            every: 1,
            keep_last: Some(5),
        },
        120,
    );
    let steps: Vec<u64> = r.frames().map(|f| f.step).collect();
    assert_eq!(steps, vec![116, 117, 118, 119, 120]);
    assert!(r.events().all(|e| e.step >= 116));
}

#[test]
fn csv_round_trips_with_the_documented_columns() {
    let (r, _) = run(RecorderConfig::default(), 60);
    let rec = r.recording();
    let (mut traj, mut events) = (Vec::new(), Vec::new());
    rec.write_trajectory_csv(&mut traj).unwrap();
    rec.write_events_csv(&mut events).unwrap();
    let text = String::from_utf8(traj.clone()).unwrap();
    assert!(text.starts_with("step,time,body,x,y,angle,vx,vy,omega\n"));
    assert!(
        text.contains("\"ground, flat\""),
        "names with commas are quoted"
    );
    let back = Recording::read_csv(&traj[..], &events[..]).unwrap();
    assert_eq!(back.events, rec.events);
    assert_eq!(back.frames.len(), rec.frames.len());
    for (a, b) in back.frames.iter().zip(&rec.frames) {
        assert_eq!((a.step, a.time), (b.step, b.time));
        for (sa, sb) in a.bodies.iter().zip(&b.bodies) {
            assert_eq!(sa.body, sb.body);
            assert_eq!(
                [sa.x, sa.y, sa.angle, sa.vx, sa.vy, sa.omega],
                [sb.x, sb.y, sb.angle, sb.vx, sb.vy, sb.omega]
            );
        }
    }
    // Malformed input is an error with its line, not a panic.
    let bad = b"step,time,body,x,y,angle,vx,vy,omega\n0,0.0,ball,1.0,2.0\n";
    let err = Recording::read_csv(&bad[..], &events[..]).unwrap_err();
    assert!(err.to_string().contains("line 2"), "{err}");
    let err = Recording::read_csv(&b"x,y\n"[..], &events[..]).unwrap_err();
    assert!(err.to_string().contains("header"), "{err}");
}

#[cfg(feature = "serde")]
#[test]
fn json_round_trips_exactly() {
    let (r, _) = run(
        RecorderConfig {
            every: 3,
            keep_last: None,
        },
        60,
    );
    let rec = r.recording();
    assert_eq!(Recording::from_json(&rec.to_json()).unwrap(), rec);
    assert!(Recording::from_json("{\"frames\": 3}").is_err());
}

#[test]
fn names_that_spreadsheets_would_run_are_escaped_and_read_back() {
    use sweep2d::analysis::record::{Recorder, RecorderConfig, Recording};
    use sweep2d::{BodyDef, World, WorldConfig};
    let mut w = World::new(WorldConfig::default());
    for name in ["=HYPERLINK(\"x\")", "+1", "-box", "@cmd", "plain"] {
        w.add_body(BodyDef {
            name: Some(name.to_string()),
            ..BodyDef::default()
        })
        .unwrap();
    }
    let mut rec = Recorder::new(RecorderConfig::default());
    rec.record_initial(&w);
    w.step();
    rec.record(&w);
    let recording = rec.recording();
    let mut traj = Vec::new();
    recording.write_trajectory_csv(&mut traj).unwrap();
    let text = String::from_utf8(traj.clone()).unwrap();
    for line in text.lines().skip(1) {
        let body = line.split(',').nth(2).unwrap().trim_start_matches('"');
        assert!(!body.starts_with(['=', '+', '-', '@']), "{line}");
    }
    let mut events = Vec::new();
    recording.write_events_csv(&mut events).unwrap();
    let back = Recording::read_csv(&traj[..], &events[..]).unwrap();
    let names: Vec<String> = back.frames[0]
        .bodies
        .iter()
        .map(|b| b.body.clone())
        .collect();
    assert_eq!(names, ["=HYPERLINK(\"x\")", "+1", "-box", "@cmd", "plain"]);
}

/// The streamed CSV (`CsvStream`, what `sweep2d run` writes as it goes) is byte for byte what a
/// recording of the same run writes.
#[test]
fn streamed_csv_equals_the_recordings() {
    use sweep2d::analysis::record::{CsvStream, Recorder, RecorderConfig};
    use sweep2d::analysis::scenes;
    for every in [1, 3] {
        let mut w = scenes::bullet_rain(20, 300.0).world;
        let mut rec = Recorder::new(RecorderConfig {
            every,
            keep_last: None,
        });
        let mut stream = CsvStream::new(Vec::new(), Vec::new(), every).unwrap();
        rec.record_initial(&w);
        stream.record_initial(&w).unwrap();
        for _ in 0..40 {
            w.step();
            rec.record(&w);
            stream.record(&w).unwrap();
        }
        let (traj, events) = stream.finish().unwrap();
        let recording = rec.recording();
        let (mut t2, mut e2) = (Vec::new(), Vec::new());
        recording.write_trajectory_csv(&mut t2).unwrap();
        recording.write_events_csv(&mut e2).unwrap();
        assert!(recording.events.len() > 10, "the run has events");
        assert_eq!(traj, t2, "trajectory, every {every}");
        assert_eq!(events, e2, "events, every {every}");
    }
}
