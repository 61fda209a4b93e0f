//! Continuous queries on hand-computed cases, and fast thin shapes that must never tunnel.

mod common;

use approx::assert_relative_eq;
use common::{gap, ref_first_contact, RefContact};
use std::f64::consts::{PI, TAU};
use sweep2d::query::{
    swept_aabb, swept_hull, swept_intersects, time_of_impact, time_of_impact_with, Motion,
    ToiError, ToiOptions, ToiStatus,
};
use sweep2d::{Shape, Transform, Vec2};

fn at(x: f64, y: f64, angle: f64) -> Transform {
    Transform::new(Vec2::new(x, y), angle)
}

fn moving(x: f64, y: f64, angle: f64, dx: f64, dy: f64, turn: f64) -> Motion {
    Motion::new(at(x, y, angle), Vec2::new(dx, dy), turn)
}

fn still(x: f64, y: f64, angle: f64) -> Motion {
    Motion::stationary(at(x, y, angle))
}

#[test]
fn circles_head_on() {
    let c = Shape::circle(0.5).unwrap();
    // One moving: gap 4 closed at 10 m per step → t = 0.4.
    let toi = time_of_impact(
        &c,
        &moving(0.0, 0.0, 0.0, 10.0, 0.0, 0.0),
        &c,
        &still(5.0, 0.0, 0.0),
    )
    .unwrap();
    assert_eq!(toi.status, ToiStatus::Hit);
    assert_relative_eq!(toi.t, 0.4, epsilon = 1e-12);
    assert_relative_eq!(toi.normal, Vec2::X, epsilon = 1e-12);
    assert_relative_eq!(toi.point, Vec2::new(4.5, 0.0), epsilon = 1e-9);
    // Both moving toward each other: closing at 20 m per step → t = 0.2; swapped order flips n.
    let (ma, mb) = (
        moving(0.0, 0.0, 0.0, 10.0, 0.0, 0.0),
        moving(5.0, 0.0, 0.0, -10.0, 0.0, 0.0),
    );
    let ab = time_of_impact(&c, &ma, &c, &mb).unwrap();
    let ba = time_of_impact(&c, &mb, &c, &ma).unwrap();
    assert_relative_eq!(ab.t, 0.2, epsilon = 1e-12);
    assert_relative_eq!(ba.t, 0.2, epsilon = 1e-12);
    assert_relative_eq!(ab.normal, -ba.normal, epsilon = 1e-12);
    // Off-centre: |(5 − 10t, 0.6)| = 1 → t = (5 − 0.8)/10.
    let off = time_of_impact(
        &c,
        &moving(0.0, 0.0, 0.0, 10.0, 0.0, 0.0),
        &c,
        &still(5.0, 0.6, 0.0),
    )
    .unwrap();
    assert_relative_eq!(off.t, 0.42, epsilon = 1e-12);
    assert_relative_eq!(off.normal, Vec2::new(0.8, 0.6), epsilon = 1e-12);
}

#[test]
fn box_hits_box_face_and_corner_hits_face() {
    let b = Shape::rectangle(0.5, 0.5).unwrap();
    // Face on face: gap 2 closed at 4 per step.
    let toi = time_of_impact(
        &b,
        &moving(0.0, 0.0, 0.0, 4.0, 0.0, 0.0),
        &b,
        &still(3.0, 0.3, 0.0),
    )
    .unwrap();
    assert_relative_eq!(toi.t, 0.5, epsilon = 1e-12);
    assert_relative_eq!(toi.normal, Vec2::X, epsilon = 1e-12);
    assert_eq!(
        toi.contact.points().len(),
        2,
        "face on face: two points at the moment of impact"
    );
    assert_relative_eq!(toi.point, Vec2::new(2.5, 0.15), epsilon = 1e-9);
    // A box turned 45° falling corner-first onto a wide box: the corner is √2/2 below its centre.
    let ground = Shape::rectangle(5.0, 0.5).unwrap();
    let drop = 3.0 - 0.5 - 0.5 * 2f64.sqrt();
    let toi = time_of_impact(
        &ground,
        &still(0.0, 0.0, 0.0),
        &b,
        &moving(0.7, 3.0, PI / 4.0, 0.0, -4.0, 0.0),
    )
    .unwrap();
    assert_relative_eq!(toi.t, drop / 4.0, epsilon = 1e-12);
    assert_relative_eq!(toi.normal, Vec2::Y, epsilon = 1e-12);
    assert_relative_eq!(toi.point, Vec2::new(0.7, 0.5), epsilon = 1e-9);
}

#[test]
fn grazing_pass_with_zero_penetration_counts_at_the_grazing_time() {
    let b = Shape::rectangle(0.5, 0.5).unwrap();
    // A box sliding along the top face, exactly flush: it touches from the moment the x ranges meet.
    let toi = time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &b,
        &moving(-4.0, 1.0, 0.0, 8.0, 0.0, 0.0),
    )
    .unwrap();
    assert_eq!(toi.status, ToiStatus::Hit);
    assert_relative_eq!(toi.t, 3.0 / 8.0, epsilon = 1e-12);
    // A circle whose path is tangent to the top face passes over the corner first: t = 2.5/6.
    let c = Shape::circle(0.5).unwrap();
    let toi = time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &c,
        &moving(-3.0, 1.0, 0.0, 6.0, 0.0, 0.0),
    )
    .unwrap();
    assert!((toi.t - 2.5 / 6.0).abs() <= 1e-9, "t = {}", toi.t);
    assert!(toi.t <= 2.5 / 6.0 + 1e-15, "never later than the truth");
    // A hair higher and it is a miss.
    assert!(time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &c,
        &moving(-3.0, 1.0 + 1e-9, 0.0, 6.0, 0.0, 0.0)
    )
    .is_none());
}

#[test]
fn starting_overlap_reports_t_zero_with_the_mtv() {
    let b = Shape::rectangle(0.5, 0.5).unwrap();
    let c = Shape::circle(0.5).unwrap();
    for (mb, spin) in [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0)] {
        let toi = time_of_impact(
            &b,
            &still(0.0, 0.0, 0.0),
            &c,
            &moving(0.8, 0.0, 0.0, mb, 0.0, spin),
        )
        .unwrap();
        assert_eq!(toi.status, ToiStatus::Overlapping);
        assert_eq!(toi.t, 0.0);
        assert_relative_eq!(toi.contact.depth, 0.2, epsilon = 1e-12);
        assert_relative_eq!(toi.normal, Vec2::X, epsilon = 1e-12);
    }
    let toi = time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &b,
        &moving(0.5, 0.2, 0.0, 3.0, 0.0, 0.0),
    )
    .unwrap();
    assert_eq!(toi.status, ToiStatus::Overlapping);
}

#[test]
fn moving_apart_or_parallel_never_meets() {
    let b = Shape::rectangle(0.5, 0.5).unwrap();
    let c = Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.2).unwrap();
    assert!(time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &c,
        &moving(2.0, 0.0, 0.0, 5.0, 0.0, 0.0)
    )
    .is_none());
    assert!(time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &b,
        &moving(0.0, 1.5, 0.0, 9.0, 0.0, 0.0)
    )
    .is_none());
    assert!(time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &c,
        &moving(0.0, 2.0, 0.0, 9.0, 0.0, 1.0)
    )
    .is_none());
    // Stops short: meets only if the step were longer.
    assert!(time_of_impact(
        &b,
        &still(0.0, 0.0, 0.0),
        &b,
        &moving(3.0, 0.0, 0.0, -1.9, 0.0, 0.0)
    )
    .is_none());
}

#[test]
fn rotation_only_contact_is_found_before_the_truth() {
    // A 2 m bar pivoting about its centre 0.8 m above the ground sweeps down to it.
    let bar = Shape::rectangle(1.0, 0.05).unwrap();
    let ground = Shape::rectangle(5.0, 0.5).unwrap();
    let mb = moving(0.0, 1.3, 0.0, 0.0, 0.0, -PI / 2.0);
    let toi = time_of_impact(&ground, &still(0.0, 0.0, 0.0), &bar, &mb).unwrap();
    // The bar's lower corner (1, −0.05) in its frame reaches y = 0.5 when 1.3 + (−0.05cosθ + 1·sinθ)
    // = 0.5 with θ = −πt/2: find it by bisection on the exact expression.
    let corner_y = |t: f64| {
        let th = -PI / 2.0 * t;
        1.3 + (-0.05 * th.cos() + th.sin())
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if corner_y(mid) > 0.5 {
            lo = mid
        } else {
            hi = mid
        }
    }
    assert!(toi.t <= hi, "{} later than {}", toi.t, hi);
    assert!(
        toi.separation <= 1e-6 && toi.separation >= 0.0,
        "gap at t: {}",
        toi.separation
    );
    assert!(hi - toi.t < 1e-5, "and not much earlier");
    assert_relative_eq!(toi.normal, Vec2::Y, epsilon = 1e-6);
}

#[test]
fn compound_takes_the_earliest_piece() {
    let u = Shape::concave(&[
        Vec2::new(-1.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.6, 1.0),
        Vec2::new(0.6, 0.3),
        Vec2::new(-0.6, 0.3),
        Vec2::new(-0.6, 1.0),
        Vec2::new(-1.0, 1.0),
    ])
    .unwrap();
    let ball = Shape::circle(0.2).unwrap();
    // Dropped into the cup of the U: it passes the rims and lands on the floor at y = 0.3.
    let toi = time_of_impact(
        &u,
        &still(0.0, 0.0, 0.0),
        &ball,
        &moving(0.0, 3.0, 0.0, 0.0, -4.0, 0.0),
    )
    .unwrap();
    assert_relative_eq!(toi.t, (3.0 - 0.5) / 4.0, epsilon = 1e-12);
    // Dropped onto a rim it stops at y = 1.
    let toi = time_of_impact(
        &u,
        &still(0.0, 0.0, 0.0),
        &ball,
        &moving(0.8, 3.0, 0.0, 0.0, -4.0, 0.0),
    )
    .unwrap();
    assert_relative_eq!(toi.t, (3.0 - 1.2) / 4.0, epsilon = 1e-12);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let c = Shape::circle(0.5).unwrap();
    let nan = Motion::new(at(0.0, 0.0, 0.0), Vec2::new(f64::NAN, 0.0), 0.0);
    let ok = still(3.0, 0.0, 0.0);
    assert!(matches!(
        time_of_impact_with(&c, &nan, &c, &ok, &ToiOptions::default()),
        Err(ToiError::NonFiniteMotion { which: "A" })
    ));
    assert!(time_of_impact(&c, &ok, &c, &nan).is_none());
    for bad in [
        ToiOptions {
            tolerance: 0.0,
            ..Default::default()
        },
        ToiOptions {
            tolerance: f64::NAN,
            ..Default::default()
        },
        ToiOptions {
            target_separation: -1.0,
            ..Default::default()
        },
        ToiOptions {
            max_iterations: 0,
            ..Default::default()
        },
    ] {
        let err = time_of_impact_with(&c, &ok, &c, &ok, &bad).unwrap_err();
        assert!(err.to_string().contains("ToiOptions::"), "{err}");
    }
}

#[test]
fn target_separation_stops_short() {
    let c = Shape::circle(0.5).unwrap();
    let opts = ToiOptions {
        target_separation: 0.1,
        ..Default::default()
    };
    let toi = time_of_impact_with(
        &c,
        &moving(0.0, 0.0, 0.0, 10.0, 0.0, 0.0),
        &c,
        &still(5.0, 0.0, 0.0),
        &opts,
    )
    .unwrap()
    .unwrap();
    assert_relative_eq!(toi.t, 0.39, epsilon = 1e-12);
    assert_relative_eq!(toi.separation, 0.1, epsilon = 1e-12);
    let b = Shape::rectangle(0.5, 0.5).unwrap();
    let toi = time_of_impact_with(
        &b,
        &moving(0.0, 0.0, 0.0, 4.0, 0.0, 0.0),
        &b,
        &still(3.0, 0.0, 0.0),
        &opts,
    )
    .unwrap()
    .unwrap();
    assert_relative_eq!(toi.t, 0.475, epsilon = 1e-12);
}

#[test]
fn iteration_budget_gives_a_safe_time() {
    // A spinning bar approaching a wall, with a budget of 2 iterations.
    let bar = Shape::rectangle(0.5, 0.01).unwrap();
    let wall = Shape::rectangle(0.005, 5.0).unwrap();
    let mb = moving(-3.0, 0.0, 0.3, 6.0, 0.0, 40.0);
    let opts = ToiOptions {
        max_iterations: 2,
        ..Default::default()
    };
    let toi = time_of_impact_with(&wall, &still(0.0, 0.0, 0.0), &bar, &mb, &opts)
        .unwrap()
        .unwrap();
    assert_eq!(toi.status, ToiStatus::BudgetExhausted);
    let full = time_of_impact(&wall, &still(0.0, 0.0, 0.0), &bar, &mb).unwrap();
    assert!(
        toi.t <= full.t && toi.separation > 0.0,
        "a safe, earlier time"
    );
}

#[test]
fn swept_hulls_and_boxes() {
    let c = Shape::circle(0.5).unwrap();
    // A moving circle sweeps a capsule.
    let h = swept_hull(&c, &moving(0.0, 0.0, 0.0, 4.0, 0.0, 0.0));
    assert_eq!(h.vertices().len(), 2);
    assert_relative_eq!(h.radius(), 0.5);
    assert!(h.contains_point(Vec2::new(2.0, 0.5)) && !h.contains_point(Vec2::new(2.0, 0.51)));
    let b = Shape::rectangle(1.0, 0.1).unwrap();
    let bx = swept_aabb(&b, &moving(0.0, 0.0, 0.0, 2.0, 1.0, 0.0));
    assert_relative_eq!(bx.min, Vec2::new(-1.0, -0.1));
    assert_relative_eq!(bx.max, Vec2::new(3.0, 1.1));
    // A quarter turn in place: the box of the swept hull holds the 45° pose (reach √(1 + 0.01)).
    let q = swept_aabb(&b, &moving(0.0, 0.0, 0.0, 0.0, 0.0, PI / 2.0));
    let corner = Transform::new(Vec2::ZERO, PI / 4.0).transform_point(Vec2::new(1.0, 0.1));
    assert!(q.contains_point(corner));
    // Fifty turns: the capsule of the bounding radius.
    let spin = swept_hull(&b, &moving(0.0, 0.0, 0.0, 10.0, 0.0, 50.0 * TAU));
    assert_eq!(spin.vertices().len(), 2);
    assert_relative_eq!(spin.radius(), (1.0f64 + 0.01).sqrt(), epsilon = 1e-12);
    // Swept rejection: a bullet passing a wall is caught, one stopping short is not.
    let wall = Shape::rectangle(0.005, 1.0).unwrap();
    let bullet = Shape::circle(0.025).unwrap();
    assert!(swept_intersects(
        &bullet,
        &moving(-500.0, 0.0, 0.0, 1000.0, 0.0, 0.0),
        &wall,
        &still(0.0, 0.0, 0.0)
    ));
    assert!(!swept_intersects(
        &bullet,
        &moving(-500.0, 0.0, 0.0, 499.0, 0.0, 0.0),
        &wall,
        &still(0.0, 0.0, 0.0)
    ));
}

/// Checks one fast, thin case: the TOI exists, is not later than the brute-force first contact,
/// and at its pose the bullet has not crossed or entered the wall.
fn assert_caught(bullet: &Shape, mb: &Motion, wall: &Shape, mw: &Motion) {
    let toi = time_of_impact(wall, mw, bullet, mb)
        .expect("a fast bullet crossing the wall must be caught");
    match ref_first_contact(wall, mw, bullet, mb) {
        RefContact::At(t) => assert!(
            toi.t <= t + 1e-12,
            "TOI {} later than first contact {}",
            toi.t,
            t
        ),
        other => panic!("the reference must find the crossing: {other:?}"),
    }
    let g = gap(wall, &mw.pose_at(toi.t), bullet, &mb.pose_at(toi.t));
    assert!(g >= -1e-9, "overlapping at the returned pose: gap {g}");
    assert!(
        g <= 1e-6 + 1e-9 || toi.status == ToiStatus::Overlapping,
        "gap {g} larger than the tolerance"
    );
}

#[test]
fn fast_thin_shapes_never_tunnel() {
    let wall = Shape::rectangle(0.005, 3.0).unwrap(); // 1 cm thick
    let still_wall = still(0.0, 0.0, 0.0);
    let circle = Shape::circle(0.025).unwrap(); // 5 cm across
    let bar = Shape::rectangle(0.5, 0.01).unwrap(); // 1 m × 2 cm
    for k in 0..24 {
        // Every direction that crosses the wall: ±60° around the x axis, from both sides.
        let ang = (k as f64 / 23.0 - 0.5) * (2.0 * PI / 3.0);
        for side in [1.0, -1.0] {
            let dir = Vec2::from_angle(ang) * side;
            let start = -dir * 500.0 + Vec2::new(0.0, 0.37);
            for spin in [0.0, 3.0, 50.0 * TAU] {
                let m = Motion::new(Transform::new(start, 0.2 * k as f64), dir * 1000.0, spin);
                assert_caught(&circle, &m, &wall, &still_wall);
                assert_caught(&bar, &m, &wall, &still_wall);
            }
        }
    }
}

/// Boxes turning up to 100π rad (50 turns) per step while closing at 6 m per step: every query
/// finishes on the default budget (none returns `BudgetExhausted`; 7.4% did with the fixed-axis
/// bound and a budget of 64), and each time of impact is never later than the brute-force first
/// contact (checked on the first 40 hits, where the reference is conclusive) and leaves the boxes
/// apart by at most the tolerance.
/// A seeded xorshift64* stream of uniform numbers in `[lo, hi)`, the same draws on every run.
fn uniform(mut seed: u64) -> impl FnMut(f64, f64) -> f64 {
    move |lo, hi| {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        let u = (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

/// Every pair of a box, a thin plank (2 m × 5 cm), an octagon, a capsule and a disc, each turning
/// up to ±3, ±30 and ±100π rad over the step while they close: no query runs out of its budget
/// (the rotating method's grows with the turns; 128 flat let a plank against a box exhaust it at
/// ±100π), and every hit leaves the pair within the tolerance of touching.
#[test]
fn queries_of_every_shape_pair_spinning_up_to_fifty_turns_a_step_never_run_out_of_budget() {
    let shapes = [
        Shape::rectangle(0.5, 0.5).unwrap(),
        Shape::rectangle(2.0, 0.05).unwrap(),
        Shape::regular_polygon(8, 0.6).unwrap(),
        Shape::capsule(Vec2::new(-0.4, 0.0), Vec2::new(0.4, 0.0), 0.2).unwrap(),
        Shape::circle(0.3).unwrap(),
    ];
    let mut next = uniform(0x9e37_79b9_7f4a_7c15);
    let mut hits = 0;
    for spin in [3.0, 30.0, 100.0 * PI] {
        for a in &shapes {
            for b in &shapes {
                for _ in 0..160 {
                    let dir = Vec2::from_angle(next(-PI, PI));
                    let b0 = dir * next(2.0, 4.0) + dir.perp() * next(-1.0, 1.0);
                    let ma = moving(0.0, 0.0, next(-3.0, 3.0), 0.0, 0.0, next(-spin, spin));
                    let mb = Motion::new(
                        at(b0.x, b0.y, next(-3.0, 3.0)),
                        -dir * 6.0,
                        next(-spin, spin),
                    );
                    let Some(toi) = time_of_impact(a, &ma, b, &mb) else {
                        continue;
                    };
                    assert_ne!(
                        toi.status,
                        ToiStatus::BudgetExhausted,
                        "{a:?} {b:?} {ma:?} {mb:?}: stopped after {} iterations",
                        toi.iterations
                    );
                    if toi.status == ToiStatus::Overlapping {
                        continue; // a plank placed across the other shape at the start
                    }
                    let g = gap(a, &ma.pose_at(toi.t), b, &mb.pose_at(toi.t));
                    assert!((-1e-9..=2e-6).contains(&g), "gap {g} at the time of impact");
                    hits += 1;
                }
            }
        }
    }
    assert!(hits > 10_000, "{hits} hits");
}

#[test]
fn box_box_queries_spinning_up_to_fifty_turns_a_step_finish_within_the_default_budget() {
    let b = Shape::rectangle(0.5, 0.5).unwrap();
    let mut next = uniform(0x2545_f491_4f6c_dd1d);
    let (mut hits, mut checked) = (0, 0);
    for _ in 0..2048 {
        let dir = Vec2::from_angle(next(-PI, PI));
        let b0 = dir * next(2.0, 4.0) + dir.perp() * next(-1.0, 1.0);
        let ma = moving(
            0.0,
            0.0,
            next(-3.0, 3.0),
            0.0,
            0.0,
            next(-100.0 * PI, 100.0 * PI),
        );
        let mb = Motion::new(
            at(b0.x, b0.y, next(-3.0, 3.0)),
            -dir * 6.0,
            next(-100.0 * PI, 100.0 * PI),
        );
        let Some(toi) = time_of_impact(&b, &ma, &b, &mb) else {
            continue;
        };
        hits += 1;
        assert_ne!(
            toi.status,
            ToiStatus::BudgetExhausted,
            "{ma:?} {mb:?}: stopped after {} iterations",
            toi.iterations
        );
        let g = gap(&b, &ma.pose_at(toi.t), &b, &mb.pose_at(toi.t));
        assert!((-1e-9..=2e-6).contains(&g), "gap {g} at the time of impact");
        if checked < 40 {
            if let RefContact::At(truth) = ref_first_contact(&b, &ma, &b, &mb) {
                checked += 1;
                assert!(
                    toi.t <= truth + 1e-9,
                    "{} is later than the first contact {truth}",
                    toi.t
                );
            }
        }
    }
    assert!(hits > 1800, "{hits} hits");
    assert_eq!(checked, 40, "the reference was conclusive on 40 hits");
}
