//! Shared test helpers: an exact geometric reference that does not use SAT, and proptest strategies.
//!
//! The reference works on world-space cores (points, segments, polygons) and the swept radius:
//! two rounded cores intersect iff the distance between the cores is at most the summed radii, and
//! the core distance is 0 if a vertex of one lies inside the other polygon, else the minimum
//! segment–segment distance over all edge pairs (0 when two edges cross). None of that shares code
//! or method with the SAT kernels under test.
#![allow(dead_code)]

use proptest::prelude::*;
use sweep2d::{Shape, Transform, Vec2};

/// A convex piece in world space: its core points (1, 2 or ≥ 3, counter-clockwise) and radius.
#[derive(Clone, Debug)]
pub struct WorldCore {
    pub points: Vec<Vec2>,
    pub radius: f64,
}

/// The convex pieces of a placed shape, in world space.
pub fn world_cores(shape: &Shape, xf: &Transform) -> Vec<WorldCore> {
    match shape {
        Shape::Circle(c) => vec![WorldCore {
            points: vec![xf.transform_point(c.center())],
            radius: c.radius(),
        }],
        Shape::Capsule(c) => vec![WorldCore {
            points: vec![xf.transform_point(c.a()), xf.transform_point(c.b())],
            radius: c.radius(),
        }],
        Shape::Polygon(p) => vec![WorldCore {
            points: p
                .vertices()
                .iter()
                .map(|v| xf.transform_point(*v))
                .collect(),
            radius: p.radius(),
        }],
        Shape::Compound(c) => c
            .pieces()
            .iter()
            .flat_map(|p| world_cores(&p.shape, &(*xf * p.transform)))
            .collect(),
    }
}

pub fn point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let ab = b - a;
    let l2 = ab.length_squared();
    if l2 == 0.0 {
        return p.distance(a);
    }
    let t = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    p.distance(a + t * ab)
}

fn orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Do the closed segments cross (strictly, in their interiors)?
fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let (d1, d2) = (orient(c, d, a), orient(c, d, b));
    let (d3, d4) = (orient(a, b, c), orient(a, b, d));
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
}

pub fn segment_distance(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> f64 {
    if segments_cross(a, b, c, d) {
        return 0.0;
    }
    point_segment_distance(a, c, d)
        .min(point_segment_distance(b, c, d))
        .min(point_segment_distance(c, a, b))
        .min(point_segment_distance(d, a, b))
}

/// Point strictly or on-boundary inside a counter-clockwise convex polygon (≥ 3 points).
pub fn point_in_convex(poly: &[Vec2], p: Vec2) -> bool {
    (0..poly.len()).all(|i| orient(poly[i], poly[(i + 1) % poly.len()], p) >= 0.0)
}

fn edges(points: &[Vec2]) -> Vec<(Vec2, Vec2)> {
    match points.len() {
        1 => vec![(points[0], points[0])],
        2 => vec![(points[0], points[1])],
        n => (0..n).map(|i| (points[i], points[(i + 1) % n])).collect(),
    }
}

/// Distance between two cores (0 if they overlap).
pub fn core_distance(a: &[Vec2], b: &[Vec2]) -> f64 {
    if a.len() >= 3 && b.iter().any(|p| point_in_convex(a, *p)) {
        return 0.0;
    }
    if b.len() >= 3 && a.iter().any(|p| point_in_convex(b, *p)) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for (a0, a1) in edges(a) {
        for (b0, b1) in edges(b) {
            best = best.min(segment_distance(a0, a1, b0, b1));
        }
    }
    best
}

/// Gap between two placed shapes (metres): positive when apart, ≤ 0 when they intersect. For
/// overlapping rounded cores it is `−(rA + rB)`, not a penetration depth: use its sign only.
pub fn gap(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> f64 {
    let (ca, cb) = (world_cores(a, xa), world_cores(b, xb));
    let mut best = f64::INFINITY;
    for pa in &ca {
        for pb in &cb {
            best = best.min(core_distance(&pa.points, &pb.points) - pa.radius - pb.radius);
        }
    }
    best
}

/// Gap from a world point to a placed shape (metres): positive outside, ≤ 0 inside; like [`gap`],
/// inside a rounded core it is `−r`, not a depth: use it as a distance only when positive.
pub fn point_gap(shape: &Shape, xf: &Transform, p: Vec2) -> f64 {
    world_cores(shape, xf)
        .iter()
        .map(|c| core_distance(&c.points, &[p]) - c.radius)
        .fold(f64::INFINITY, f64::min)
}

/// Reference intersection predicate (touching counts).
pub fn ref_intersects(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> bool {
    gap(a, xa, b, xb) <= 0.0
}

/// Translates a transform by `d` (metres, world).
pub fn shifted(xf: &Transform, d: Vec2) -> Transform {
    Transform::from_parts(xf.translation + d, xf.rotation)
}

/// Smallest `t ≥ 0` such that B moved by `t * dir` no longer overlaps A beyond touching, by bisection
/// on the reference predicate. For convex pairs the overlap set along a line is an interval, so this
/// is the directional penetration depth.
pub fn directional_depth(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform, dir: Vec2) -> f64 {
    let mut hi = 1.0;
    while gap(a, xa, b, &shifted(xb, dir * hi)) <= 0.0 {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if gap(a, xa, b, &shifted(xb, dir * mid)) <= 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

// ----- strategies -------------------------------------------------------------------------------

pub fn vec2(range: f64) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

pub fn transform(range: f64) -> impl Strategy<Value = Transform> {
    (vec2(range), -std::f64::consts::PI..std::f64::consts::PI)
        .prop_map(|(t, a)| Transform::new(t, a))
}

pub fn circle() -> impl Strategy<Value = Shape> {
    (0.05..2.0f64).prop_map(|r| Shape::circle(r).unwrap())
}

pub fn capsule() -> impl Strategy<Value = Shape> {
    (0.1..3.0f64, -3.2..3.2f64, 0.05..1.0f64).prop_map(|(len, ang, r)| {
        let d = Vec2::from_angle(ang) * len * 0.5;
        Shape::capsule(-d, d, r).unwrap()
    })
}

/// A convex polygon: 3 to 12 points at sorted random angles on a jittered circle, via the hull.
pub fn convex_points() -> impl Strategy<Value = Vec<Vec2>> {
    (3usize..=12, 0.2..2.5f64).prop_flat_map(|(n, size)| {
        prop::collection::vec((0.0..1.0f64, 0.5..1.0f64), n).prop_map(move |raw| {
            let mut ang: Vec<(f64, f64)> = raw;
            ang.sort_by(|a, b| a.0.total_cmp(&b.0));
            ang.iter()
                .map(|(u, r)| Vec2::from_angle(u * std::f64::consts::TAU) * r * size)
                .collect()
        })
    })
}

pub fn polygon() -> impl Strategy<Value = Shape> {
    convex_points().prop_filter_map("degenerate hull", |pts| {
        let s = Shape::convex_hull(&pts).ok()?;
        // Keep polygons whose every edge is longer than 1 mm and that have some area.
        match &s {
            Shape::Polygon(p) if p.mass_properties(1.0).ok()?.area > 1e-3 => Some(s),
            _ => None,
        }
    })
}

pub fn rounded_polygon() -> impl Strategy<Value = Shape> {
    (polygon(), 0.01..0.5f64).prop_map(|(s, r)| match s {
        Shape::Polygon(p) => Shape::Polygon(p.with_radius(r).unwrap()),
        _ => unreachable!(),
    })
}

pub fn boxes() -> impl Strategy<Value = Shape> {
    (0.05..2.0f64, 0.05..2.0f64).prop_map(|(w, h)| Shape::rectangle(w, h).unwrap())
}

pub fn convex_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![circle(), capsule(), polygon(), rounded_polygon(), boxes()]
}

/// A star-shaped simple polygon (often concave): sorted angles, random radii.
pub fn star_points() -> impl Strategy<Value = Vec<Vec2>> {
    (4usize..=24).prop_flat_map(|n| {
        prop::collection::vec(0.3..2.0f64, n).prop_map(move |radii| {
            radii
                .iter()
                .enumerate()
                .map(|(i, r)| Vec2::from_angle(i as f64 * std::f64::consts::TAU / n as f64) * *r)
                .collect()
        })
    })
}

pub fn compound() -> impl Strategy<Value = Shape> {
    prop_oneof![
        star_points().prop_map(|p| Shape::concave(&p).unwrap()),
        prop::collection::vec((convex_shape(), transform(1.0)), 1..4).prop_map(|pieces| {
            Shape::compound(pieces.into_iter().map(|(s, x)| (x, s)).collect()).unwrap()
        }),
    ]
}

pub fn any_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![4 => convex_shape(), 1 => compound()]
}

/// Shoelace area of a closed outline (positive when counter-clockwise).
pub fn signed_area(p: &[Vec2]) -> f64 {
    0.5 * (0..p.len())
        .map(|i| p[i].perp_dot(p[(i + 1) % p.len()]))
        .sum::<f64>()
}

/// Even–odd point-in-polygon for any simple outline (crossing number).
pub fn point_in_simple_polygon(poly: &[Vec2], p: Vec2) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

// ----- continuous reference -----------------------------------------------------------------------

use sweep2d::query::Motion;

/// Farthest point of a shape from its local origin, from the reference cores (metres).
pub fn reach(shape: &Shape) -> f64 {
    world_cores(shape, &Transform::IDENTITY)
        .iter()
        .flat_map(|c| c.points.iter().map(move |p| p.length() + c.radius))
        .fold(0.0, f64::max)
}

/// Outcome of the brute-force first-contact search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RefContact {
    /// First contact (gap ≤ 0) at this `t`, to within `REF_RESOLUTION`.
    At(f64),
    /// No contact in [0, 1].
    Never,
    /// The evaluation budget ran out (a long near-grazing approach): inconclusive.
    Unknown,
}

pub const REF_RESOLUTION: f64 = 1e-12;

/// Brute-force first contact: 256 uniform samples of the motion, each interval either excluded by
/// a full-speed Lipschitz bound on the gap (`|ΔℓA − ΔℓB| + |ωA|·RA + |ωB|·RB` per unit t, with no
/// projection on any normal) or bisected. Uses only the SAT-free `gap`.
pub fn ref_first_contact(a: &Shape, ma: &Motion, b: &Shape, mb: &Motion) -> RefContact {
    let lip = (ma.linear - mb.linear).length()
        + ma.angular.abs() * reach(a)
        + mb.angular.abs() * reach(b);
    let g = |t: f64| gap(a, &ma.pose_at(t), b, &mb.pose_at(t));
    let mut budget = 400_000usize;
    // Returns the first contact time in [t0, t1] given g(t0) = g0.
    fn search(
        g: &dyn Fn(f64) -> f64,
        lip: f64,
        t0: f64,
        t1: f64,
        g0: f64,
        budget: &mut usize,
    ) -> Option<Option<f64>> {
        if g0 <= 0.0 {
            return Some(Some(t0));
        }
        if g0 > lip * (t1 - t0) {
            return Some(None);
        }
        if t1 - t0 < REF_RESOLUTION {
            let g1 = g(t1);
            return Some(if g1 <= 0.0 { Some(t1) } else { None });
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mid = 0.5 * (t0 + t1);
        let gm = g(mid);
        match search(g, lip, t0, mid, g0, budget)? {
            Some(t) => Some(Some(t)),
            None => search(g, lip, mid, t1, gm, budget),
        }
    }
    let n = 256;
    let mut prev = g(0.0);
    for i in 0..n {
        let (t0, t1) = (i as f64 / n as f64, (i + 1) as f64 / n as f64);
        let g1 = g(t1);
        match search(&g, lip, t0, t1, prev, &mut budget) {
            None => return RefContact::Unknown,
            Some(Some(t)) => return RefContact::At(t),
            Some(None) => {}
        }
        prev = g1;
    }
    RefContact::Never
}

pub fn motion(range: f64, spin: f64) -> impl Strategy<Value = Motion> {
    (transform(range), vec2(range), -spin..=spin).prop_map(|(x, l, w)| Motion::new(x, l, w))
}

/// The configuration of the property suites that run simulations: `cases` cases (or
/// `PROPTEST_CASES`), drawn from a fixed seed so that every run, CI's included, checks the same
/// scenes (set `PROPTEST_RNG_SEED` to explore others; failures found that way are kept in the
/// suite's `.proptest-regressions` file).
#[allow(dead_code)]
pub fn simulation_config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(cases),
    );
    if std::env::var("PROPTEST_RNG_SEED").is_err() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(0x005e_ed2d);
    }
    config
}
