//! World queries (ray casts, shape casts, overlaps) against brute force over every shape of every
//! body, and `query::distance` against densely sampled boundaries.

use proptest::prelude::*;
use sweep2d::query::{self, Motion};
use sweep2d::{
    BodyDef, BodyKind, Filter, QueryFilter, Shape, ShapeDef, ShapeId, Transform, Vec2, World,
    WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.1..0.6f64).prop_map(|r| Shape::circle(r).unwrap()),
        (0.1..0.6f64, 0.1..0.6f64).prop_map(|(w, h)| Shape::rectangle(w, h).unwrap()),
        (0.1..0.5f64, 0.05..0.3f64)
            .prop_map(|(l, r)| Shape::capsule(v(-l, 0.0), v(l, 0.0), r).unwrap()),
    ]
}

fn place() -> impl Strategy<Value = Transform> {
    (-5.0..5.0f64, -5.0..5.0f64, -3.2..3.2f64).prop_map(|(x, y, a)| Transform::new(v(x, y), a))
}

fn small_filter() -> impl Strategy<Value = Filter> {
    (1u64..4, 1u64..4, -1i32..=1).prop_map(|(category, mask, group)| Filter {
        category,
        mask,
        group,
    })
}

/// One shape of a generated body: shape, offset, filter, sensor flag.
type Part = (Shape, Transform, Filter, bool);
/// A generated body: its pose and shapes.
type BodyParts = (Transform, Vec<Part>);

/// A world of bodies with one to three shapes each (some sensors, random filters), and every
/// shape's world placement for brute force.
fn build(bodies: &[BodyParts]) -> (World, Vec<(ShapeId, Shape, Transform, ShapeDef)>) {
    let mut w = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    let mut all = Vec::new();
    for (pose, shapes) in bodies {
        let (s0, _, f0, sensor0) = &shapes[0];
        let id = w
            .add_body(BodyDef {
                kind: BodyKind::Static,
                shape: s0.clone(),
                transform: *pose,
                filter: *f0,
                sensor: *sensor0,
                ..BodyDef::default()
            })
            .unwrap();
        for (s, offset, f, sensor) in &shapes[1..] {
            w.add_shape(
                id,
                ShapeDef {
                    shape: s.clone(),
                    offset: *offset,
                    filter: *f,
                    sensor: *sensor,
                    ..ShapeDef::default()
                },
            )
            .unwrap();
        }
        for sid in w.shape_ids(id) {
            let def = w.shape(sid).unwrap().clone();
            let at = w.body(id).unwrap().transform() * def.offset;
            all.push((sid, def.shape.clone(), at, def));
        }
    }
    (w, all)
}

fn scene() -> impl Strategy<Value = Vec<BodyParts>> {
    let part = (
        shape(),
        place().prop_map(|x| Transform::new(x.translation * 0.2, x.angle())),
        small_filter(),
        prop::bool::weighted(0.2),
    );
    prop::collection::vec((place(), prop::collection::vec(part, 1..=3)), 1..12)
}

fn sees(q: &QueryFilter, def: &ShapeDef) -> bool {
    (q.sensors || !def.sensor) && q.filter.should_collide(&def.filter)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn ray_casts_match_brute_force(
        bodies in scene(),
        from in place(),
        to in place(),
        qf in small_filter(),
        sensors in any::<bool>(),
    ) {
        let (w, all) = build(&bodies);
        let q = QueryFilter { filter: qf, sensors, exclude: None };
        let (o, d) = (from.translation, to.translation - from.translation);
        let mut brute: Vec<(f64, ShapeId)> = all
            .iter()
            .filter(|(_, _, _, def)| sees(&q, def))
            .filter_map(|(id, s, x, _)| query::ray_cast(s, x, o, d).map(|h| (h.fraction, *id)))
            .collect();
        brute.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let hits = w.ray_cast_all(o, d, &q);
        prop_assert_eq!(hits.len(), brute.len(), "{:?} vs {:?}", hits, brute);
        for (h, (f, id)) in hits.iter().zip(&brute) {
            prop_assert!((h.hit.fraction - f).abs() < 1e-12);
            prop_assert_eq!(h.shape.body(), id.body());
        }
        let closest = w.ray_cast_closest(o, d, &q).map(|h| h.hit.fraction);
        match (closest, brute.first()) {
            (Some(c), Some(b)) => prop_assert!((c - b.0).abs() < 1e-12, "{} vs {}", c, b.0),
            (c, b) => prop_assert!(c.is_none() && b.is_none()),
        }
    }

    #[test]
    fn shape_casts_and_overlaps_match_brute_force(
        bodies in scene(),
        probe in shape(),
        from in place(),
        to in place(),
        qf in small_filter(),
    ) {
        let (w, all) = build(&bodies);
        let q = QueryFilter { filter: qf, ..QueryFilter::default() };
        let d = to.translation - from.translation;
        let m = Motion::new(from, d, 0.0);
        let brute = all
            .iter()
            .filter(|(_, _, _, def)| sees(&q, def))
            .filter_map(|(_, s, x, _)| {
                query::time_of_impact(&probe, &m, s, &Motion::new(*x, Vec2::ZERO, 0.0)).map(|t| t.t)
            })
            .fold(None, |best: Option<f64>, t| Some(best.map_or(t, |b| b.min(t))));
        let hit = w.shape_cast(&probe, &from, d, &q).map(|h| h.fraction);
        match (hit, brute) {
            (Some(h), Some(b)) => prop_assert!((h - b).abs() < 1e-12, "{} vs {}", h, b),
            (h, b) => prop_assert!(h.is_none() && b.is_none(), "{:?} vs {:?}", h, b),
        }
        let mut inside: Vec<ShapeId> = all
            .iter()
            .filter(|(_, s, x, def)| sees(&q, def) && query::intersects(&probe, &from, s, x))
            .map(|(id, ..)| *id)
            .collect();
        inside.sort();
        inside.dedup();
        prop_assert_eq!(w.overlap_shape(&probe, &from, &q), inside);
    }

    /// The exact distance is never more than any pair of boundary samples' distance, and within
    /// the sampling step of the closest pair; its points lie on the shapes and are that far apart.
    #[test]
    fn distance_matches_sampled_boundaries(a in shape(), b in shape(), xa in place(), xb in place()) {
        let d = query::distance(&a, &xa, &b, &xb);
        if query::intersects(&a, &xa, &b, &xb) {
            prop_assert_eq!(d.distance, 0.0);
            return Ok(());
        }
        let (sa, step_a) = boundary(&a, &xa);
        let (sb, step_b) = boundary(&b, &xb);
        let sampled = sa
            .iter()
            .flat_map(|p| sb.iter().map(move |q| p.distance(*q)))
            .fold(f64::INFINITY, f64::min);
        prop_assert!(d.distance <= sampled + 1e-9, "{} > {}", d.distance, sampled);
        prop_assert!(d.distance >= sampled - step_a - step_b, "{} << {}", d.distance, sampled);
        prop_assert!(((d.point_b - d.point_a).length() - d.distance).abs() < 1e-9);
        prop_assert!(((d.point_b - d.point_a).dot(d.normal) - d.distance).abs() < 1e-9);
    }
}

/// Points along a shape's boundary (world) and the largest gap between neighbours.
fn boundary(s: &Shape, x: &Transform) -> (Vec<Vec2>, f64) {
    // March along rays from the centre: the boundary point of a convex shape in direction θ,
    // found by bisection on containment.
    let c = x.translation;
    let n = 720;
    let pts: Vec<Vec2> = (0..n)
        .map(|k| {
            let dir = Vec2::from_angle(k as f64 * std::f64::consts::TAU / n as f64);
            let (mut lo, mut hi) = (0.0, 3.0);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if query::contains_point(s, x, c + mid * dir) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            c + lo * dir
        })
        .collect();
    let gap = pts
        .iter()
        .zip(pts.iter().cycle().skip(1))
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f64::max);
    (pts, gap)
}
