//! The `queries` mode: sweep2d's narrow-phase queries against parry's (`parry2d-f64`) on the same
//! fixed-seed inputs, timed in interleaved rounds, with a check that the answers agree.
//!
//! * Contact with manifold, B within ±1 m of A at random angles (most pairs overlap): sweep2d
//!   `query::contact` against parry's `contact_manifold_*` with no prediction distance (the
//!   manifold is cleared before each call so parry cannot reuse the previous one). Agreement: the
//!   same overlap verdict, and the penetration depth (parry: the deepest point's distance).
//! * Time of impact under translation: B starts 2–4 m from A and moves 6 m toward it (random
//!   sideways offset), sweep2d `query::time_of_impact` against parry's `cast_shapes`.
//! * Rotating time of impact: the same with up to ±3 rad of turn for both over the step, against
//!   parry's `cast_shapes_nonlinear`. Both promise never to report a contact later than the truth
//!   within their tolerances; the check reports how far apart the two times are.

use crate::common;
use parry2d_f64::math::{Pose, Vector};
use parry2d_f64::query::{
    cast_shapes, cast_shapes_nonlinear, ContactManifold, NonlinearRigidMotion, ShapeCastOptions,
};
use parry2d_f64::shape::{Ball, ConvexPolygon, Cuboid, Shape as ParryShape};
use std::hint::black_box;
use std::time::Instant;
use sweep2d::query::{contact, time_of_impact, Motion};
use sweep2d::{Shape, Transform};

/// One shape in both libraries (same geometry, centred on the origin).
struct Both {
    ours: Shape,
    theirs: Box<dyn ParryShape>,
    /// Parry's manifold routine for this shape against the other of the pair.
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Cuboid,
    Polygon,
    Ball,
}

fn cuboid(hx: f64, hy: f64) -> Both {
    Both {
        ours: Shape::rectangle(hx, hy).expect("positive extents"),
        theirs: Box::new(Cuboid::new(Vector::new(hx, hy))),
        kind: Kind::Cuboid,
    }
}

fn octagon(radius: f64) -> Both {
    let ours = Shape::regular_polygon(8, radius).expect("a valid polygon");
    let Shape::Polygon(p) = &ours else {
        unreachable!("a regular polygon is a polygon")
    };
    let points: Vec<Vector> = p.vertices().iter().map(|v| Vector::new(v.x, v.y)).collect();
    Both {
        theirs: Box::new(ConvexPolygon::from_convex_polyline(points).expect("convex")),
        ours,
        kind: Kind::Polygon,
    }
}

fn ball(radius: f64) -> Both {
    Both {
        ours: Shape::circle(radius).expect("positive radius"),
        theirs: Box::new(Ball::new(radius)),
        kind: Kind::Ball,
    }
}

fn pose(t: &Transform) -> Pose {
    let angle = t.rotation.sin.atan2(t.rotation.cos);
    Pose::new(Vector::new(t.translation.x, t.translation.y), angle)
}

/// Parry's manifold for the pair at `pos12` (B in A's frame), recomputed from scratch.
fn parry_manifold(a: &Both, b: &Both, pos12: &Pose, m: &mut ContactManifold<(), ()>) {
    use parry2d_f64::query::details::{
        contact_manifold_convex_ball, contact_manifold_cuboid_cuboid, contact_manifold_pfm_pfm,
    };
    m.points.clear();
    match (a.kind, b.kind) {
        (Kind::Cuboid, Kind::Cuboid) => {
            let (ca, cb) = (
                a.theirs.as_cuboid().expect("a cuboid"),
                b.theirs.as_cuboid().expect("a cuboid"),
            );
            contact_manifold_cuboid_cuboid(pos12, ca, cb, 0.0, m);
        }
        (_, Kind::Ball) => {
            let bb = b.theirs.as_ball().expect("a ball");
            match a.kind {
                Kind::Cuboid => {
                    let ca = a.theirs.as_cuboid().expect("a cuboid");
                    contact_manifold_convex_ball(pos12, ca, bb, None, None, 0.0, m, false);
                }
                _ => {
                    let pa = a.theirs.as_convex_polygon().expect("a polygon");
                    contact_manifold_convex_ball(pos12, pa, bb, None, None, 0.0, m, false);
                }
            }
        }
        _ => {
            let (pa, pb) = (
                a.theirs.as_convex_polygon().expect("a polygon"),
                b.theirs.as_convex_polygon().expect("a polygon"),
            );
            contact_manifold_pfm_pfm(pos12, pa, 0.0, None, pb, 0.0, None, 0.0, m);
        }
    }
}

/// Times `f` over `reps` passes of `n` inputs; ns per input.
fn time_ns(n: usize, reps: usize, mut f: impl FnMut(usize)) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        for i in 0..n {
            f(i);
        }
    }
    start.elapsed().as_secs_f64() * 1e9 / (n * reps) as f64
}

/// Runs `ours` and `theirs` in `rounds` interleaved rounds (ours first in even rounds) and
/// prints the median and best ns/query of each and the ratio of the medians.
fn race(
    name: &str,
    n: usize,
    rounds: usize,
    mut ours: impl FnMut(usize),
    mut theirs: impl FnMut(usize),
) {
    let reps = 200_000 / n.max(1) + 1;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for r in 0..rounds {
        if r % 2 == 0 {
            a.push(time_ns(n, reps, &mut ours));
            b.push(time_ns(n, reps, &mut theirs));
        } else {
            b.push(time_ns(n, reps, &mut theirs));
            a.push(time_ns(n, reps, &mut ours));
        }
    }
    let (ma, mb) = (crate::median(&a), crate::median(&b));
    println!(
        "  {name:34} sweep2d {ma:8.1} ns (best {:8.1})   parry {mb:8.1} ns (best {:8.1})   parry / sweep2d {:5.2}",
        crate::best(&a),
        crate::best(&b),
        mb / ma
    );
}

/// The contact part: timing and agreement for one shape pair.
fn contacts(name: &str, a: &Both, b: &Both, rounds: usize) {
    let n = 1024;
    let poses = common::random_pose_pairs(n, 1.0, 0x5eed_c0de);
    let rel: Vec<Pose> = poses
        .iter()
        .map(|(xa, xb)| pose(xa).inv_mul(&pose(xb)))
        .collect();
    let mut m = ContactManifold::<(), ()>::new();
    // Agreement first.
    let (mut verdicts, mut worst_depth, mut overlapping) = (0, 0.0f64, 0);
    for (i, (xa, xb)) in poses.iter().enumerate() {
        let ours = contact(&a.ours, xa, &b.ours, xb);
        parry_manifold(a, b, &rel[i], &mut m);
        let theirs = m
            .points
            .iter()
            .map(|p| p.dist)
            .fold(f64::INFINITY, f64::min);
        let theirs_hit = theirs <= 0.0;
        if ours.is_some() != theirs_hit {
            verdicts += 1;
        }
        if let (Some(c), true) = (&ours, theirs_hit) {
            overlapping += 1;
            worst_depth = worst_depth.max((c.depth + theirs).abs());
        }
    }
    race(
        &format!("{name} contact + manifold"),
        n,
        rounds,
        |i| {
            let (xa, xb) = &poses[i];
            black_box(contact(&a.ours, xa, &b.ours, xb));
        },
        |i| {
            parry_manifold(a, b, &rel[i], &mut m);
            black_box(m.points.len());
        },
    );
    println!(
        "  {:34} {overlapping} of {n} overlap; verdicts differ on {verdicts}; largest depth difference {worst_depth:.2e} m",
        ""
    );
}

/// Whether the two shapes touch at any of 20,001 instants of their motions (parry's exact
/// distance at each sampled pose): the judge of a disagreement. Sampling can miss a graze that
/// lasts less than 1/20,000 of the step, never report a contact that is not there.
fn touches(a: &Both, b: &Both, (ma, mb): &(Motion, Motion)) -> bool {
    (0..=20_000).any(|k| {
        let t = k as f64 / 20_000.0;
        parry2d_f64::query::distance(
            &pose(&ma.pose_at(t)),
            a.theirs.as_ref(),
            &pose(&mb.pose_at(t)),
            b.theirs.as_ref(),
        )
        .expect("parry supports the pair")
        .distance
            <= 0.0
    })
}

fn nonlinear(m: &Motion) -> NonlinearRigidMotion {
    NonlinearRigidMotion {
        start: pose(&m.start),
        local_center: Vector::ZERO,
        linvel: Vector::new(m.linear.x, m.linear.y),
        angvel: m.angular,
    }
}

/// The time-of-impact part: timing and agreement for one shape pair, translating or turning.
fn tois(name: &str, a: &Both, b: &Both, spin: f64, rounds: usize) {
    let set = common::toi_motions(1024, spin, 0x70e_5eed + spin as u64);
    let n = set.len();
    let theirs_at = |i: usize| {
        let (ma, mb) = &set[i];
        if spin == 0.0 {
            let options = ShapeCastOptions::with_max_time_of_impact(1.0);
            cast_shapes(
                &pose(&ma.start),
                Vector::new(ma.linear.x, ma.linear.y),
                a.theirs.as_ref(),
                &pose(&mb.start),
                Vector::new(mb.linear.x, mb.linear.y),
                b.theirs.as_ref(),
                options,
            )
        } else {
            cast_shapes_nonlinear(
                &nonlinear(ma),
                a.theirs.as_ref(),
                &nonlinear(mb),
                b.theirs.as_ref(),
                0.0,
                1.0,
                true,
            )
        }
        .expect("parry supports the pair")
        .map(|hit| hit.time_of_impact)
    };
    let (mut verdicts, mut worst, mut hits, mut ours_earlier) = (0, 0.0f64, 0, 0);
    let (mut only_ours, mut only_theirs) = (0, 0);
    // Disagreements are judged by sampling the motion (`touches`).
    let (mut confirmed_ours, mut confirmed_theirs) = (0, 0);
    for (i, (ma, mb)) in set.iter().enumerate() {
        let ours = time_of_impact(&a.ours, ma, &b.ours, mb).map(|t| t.t);
        let theirs = theirs_at(i);
        match (ours, theirs) {
            (Some(x), Some(y)) => {
                hits += 1;
                worst = worst.max((x - y).abs());
                if x < y {
                    ours_earlier += 1;
                }
            }
            (None, None) => {}
            (Some(_), None) => {
                verdicts += 1;
                only_ours += 1;
                confirmed_ours += usize::from(touches(a, b, &set[i]));
            }
            (None, Some(_)) => {
                verdicts += 1;
                only_theirs += 1;
                confirmed_theirs += usize::from(touches(a, b, &set[i]));
            }
        }
    }
    let label = if spin == 0.0 {
        format!("{name} TOI, translation")
    } else {
        format!("{name} TOI, ±{spin} rad")
    };
    race(
        &label,
        n,
        rounds,
        |i| {
            let (ma, mb) = &set[i];
            black_box(time_of_impact(&a.ours, ma, &b.ours, mb));
        },
        |i| {
            black_box(theirs_at(i));
        },
    );
    println!(
        "  {:34} {hits} of {n} hit in both; largest time difference {worst:.2e} (sweep2d earlier on {ours_earlier})",
        ""
    );
    println!(
        "  {:34} verdicts differ on {verdicts}: a hit for sweep2d only on {only_ours} ({confirmed_ours} of them touch when sampled), for parry only on {only_theirs} ({confirmed_theirs} touch)",
        ""
    );
}

/// Runs the `queries` mode.
pub fn run(rounds: usize) {
    println!("\n## queries (1,024 fixed-seed inputs per row, {rounds} interleaved rounds)");
    let pairs = [
        ("box-box", cuboid(0.5, 0.5), cuboid(0.5, 0.5)),
        ("8-gon-8-gon", octagon(0.6), octagon(0.6)),
        ("box-circle", cuboid(0.5, 0.5), ball(0.4)),
    ];
    for (name, a, b) in &pairs {
        contacts(name, a, b, rounds);
    }
    for (name, a, b) in &pairs {
        tois(name, a, b, 0.0, rounds);
        tois(name, a, b, 3.0, rounds);
    }
}
