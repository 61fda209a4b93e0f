//! Shape construction: validation errors, hulls, mirroring, decomposition and mass properties.

mod common;

use approx::assert_relative_eq;
use common::{point_in_simple_polygon, signed_area};
use proptest::prelude::*;
use std::f64::consts::PI;
use sweep2d::query::contains_point;
use sweep2d::{ConvexPolygon, Shape, ShapeError, Transform, Vec2, MAX_POLYGON_VERTICES};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

#[test]
fn polygon_validation_errors_name_the_problem() {
    let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
    assert!(Shape::polygon(&square).is_ok());
    assert_eq!(
        Shape::polygon(&square[..2]),
        Err(ShapeError::TooFewPoints { count: 2 })
    );
    assert_eq!(
        Shape::polygon(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)]),
        Err(ShapeError::DuplicatePoints {
            first: 1,
            second: 2
        })
    );
    assert_eq!(
        Shape::polygon(&[v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]),
        Err(ShapeError::Collinear)
    );
    let nan = Shape::polygon(&[v(0.0, 0.0), v(f64::NAN, 0.0), v(0.0, 1.0)]).unwrap_err();
    assert!(matches!(nan, ShapeError::NonFinite { .. }));
    assert!(nan.to_string().contains("point 1"), "{nan}");
    // A concave outline: the message points to the hull and decomposition constructors.
    let concave = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(1.0, 0.5),
        v(2.0, 2.0),
        v(0.0, 2.0),
    ];
    let err = Shape::polygon(&concave).unwrap_err();
    assert_eq!(err, ShapeError::NotConvex { index: 2 });
    let msg = err.to_string();
    assert!(
        msg.contains("from_hull") && msg.contains("concave"),
        "{msg}"
    );
    // Convex points in a crossing order (a bow tie) are not a convex outline either.
    let bow = [v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
    assert!(matches!(
        Shape::polygon(&bow),
        Err(ShapeError::NotConvex { .. })
    ));
    // Too many vertices.
    let many: Vec<Vec2> = (0..MAX_POLYGON_VERTICES + 1)
        .map(|i| Vec2::from_angle(i as f64 * 2.0 * PI / (MAX_POLYGON_VERTICES + 1) as f64))
        .collect();
    assert!(matches!(
        Shape::polygon(&many),
        Err(ShapeError::TooManyVertices { count, max }) if count == MAX_POLYGON_VERTICES + 1 && max == MAX_POLYGON_VERTICES
    ));
    // The largest allowed polygon works.
    assert!(Shape::polygon(&many[..MAX_POLYGON_VERTICES]).is_ok());
}

#[test]
fn polygon_accepts_either_winding_and_drops_edge_points() {
    let cw = [v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 0.0)];
    let Shape::Polygon(p) = Shape::polygon(&cw).unwrap() else {
        unreachable!()
    };
    assert!(signed_area(p.vertices()) > 0.0, "stored counter-clockwise");
    for (i, n) in p.normals().iter().enumerate() {
        let e = p.vertices()[(i + 1) % 4] - p.vertices()[i];
        assert_relative_eq!(n.length(), 1.0, epsilon = 1e-15);
        assert_relative_eq!(n.dot(e), 0.0, epsilon = 1e-15);
        assert!(n.dot(p.vertices()[i] - p.centroid()) > 0.0, "outward");
    }
    // A point in the middle of an edge is dropped, not rejected.
    let with_mid = [
        v(0.0, 0.0),
        v(0.5, 0.0),
        v(1.0, 0.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
    ];
    let Shape::Polygon(q) = Shape::polygon(&with_mid).unwrap() else {
        unreachable!()
    };
    assert_eq!(q.vertices().len(), 4);
    assert_relative_eq!(q.centroid(), v(0.5, 0.5), epsilon = 1e-15);
}

#[test]
fn size_errors() {
    assert!(matches!(
        Shape::circle(0.0),
        Err(ShapeError::NonPositive { .. })
    ));
    assert!(matches!(
        Shape::circle(-1.0),
        Err(ShapeError::NonPositive { .. })
    ));
    assert!(matches!(
        Shape::circle(f64::INFINITY),
        Err(ShapeError::NonFinite { .. })
    ));
    assert!(matches!(
        Shape::rectangle(1.0, 0.0),
        Err(ShapeError::NonPositive {
            what: "half_height",
            ..
        })
    ));
    assert!(matches!(
        Shape::rectangle(f64::NAN, 1.0),
        Err(ShapeError::NonFinite { .. })
    ));
    assert_eq!(
        Shape::capsule(v(1.0, 1.0), v(1.0, 1.0), 0.5),
        Err(ShapeError::ZeroLength)
    );
    assert!(Shape::capsule(v(0.0, 0.0), v(1.0, 0.0), -0.1).is_err());
    assert!(matches!(
        Shape::rounded_polygon(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)], -0.1),
        Err(ShapeError::Negative { .. })
    ));
    assert!(matches!(
        Shape::regular_polygon(2, 1.0),
        Err(ShapeError::BadSideCount { .. })
    ));
    assert_eq!(Shape::compound(vec![]), Err(ShapeError::EmptyCompound));
    let square = Shape::rectangle(1.0, 1.0).unwrap();
    assert!(matches!(
        square.mass_properties(0.0),
        Err(ShapeError::NonPositive {
            what: "density",
            ..
        })
    ));
    assert!(matches!(
        square.mass_properties(f64::NAN),
        Err(ShapeError::NonFinite { .. })
    ));
    let bad_xf = Transform::new(v(f64::NAN, 0.0), 0.0);
    assert!(matches!(
        Shape::compound(vec![(bad_xf, square)]),
        Err(ShapeError::NonFinite { .. })
    ));
}

#[test]
fn hull_and_regular_polygons() {
    let cloud = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(1.0, 0.3),
        v(2.0, 2.0),
        v(0.0, 2.0),
        v(1.0, 1.0),
        v(2.0, 2.0),
    ];
    let Shape::Polygon(h) = Shape::convex_hull(&cloud).unwrap() else {
        unreachable!()
    };
    assert_eq!(h.vertices().len(), 4);
    assert_relative_eq!(signed_area(h.vertices()), 4.0);
    assert_eq!(
        ConvexPolygon::from_hull(&[v(0.0, 0.0), v(0.0, 0.0)]),
        Err(ShapeError::TooFewPoints { count: 1 })
    );
    assert_eq!(
        ConvexPolygon::from_hull(&[v(0.0, 0.0), v(1.0, 0.0), v(3.0, 0.0)]),
        Err(ShapeError::Collinear)
    );
    let hex = ConvexPolygon::regular(6, 2.0).unwrap();
    // Regular hexagon area: (3√3/2) R².
    assert_relative_eq!(
        hex.mass_properties(1.0).unwrap().area,
        1.5 * 3f64.sqrt() * 4.0,
        epsilon = 1e-12
    );
}

#[test]
fn mirroring_keeps_ccw_and_flips_geometry() {
    let tri = ConvexPolygon::new(&[v(0.0, 0.0), v(2.0, 0.0), v(0.5, 1.0)]).unwrap();
    for m in [tri.mirrored_x(), tri.mirrored_y()] {
        assert!(signed_area(m.vertices()) > 0.0);
        assert_relative_eq!(
            signed_area(m.vertices()),
            signed_area(tri.vertices()),
            epsilon = 1e-12
        );
    }
    let mx = tri.mirrored_x();
    assert_relative_eq!(
        mx.centroid(),
        v(-tri.centroid().x, tri.centroid().y),
        epsilon = 1e-12
    );
    // Mirroring twice is the identity (as a set of vertices).
    let back = mx.mirrored_x();
    for p in tri.vertices() {
        assert!(back.vertices().iter().any(|q| q.distance(*p) < 1e-15));
    }
    // A compound mirrors piece by piece, placements included.
    let comp = Shape::compound(vec![
        (Transform::new(v(1.0, 0.5), 0.4), Shape::Polygon(tri)),
        (
            Transform::new(v(-1.0, 0.0), 0.0),
            Shape::capsule(v(0.0, 0.0), v(0.5, 0.5), 0.1).unwrap(),
        ),
    ])
    .unwrap();
    let mirrored = comp.mirrored_x();
    for p in [v(1.2, 0.7), v(-0.8, 0.3), v(0.0, 0.0), v(1.5, 0.9)] {
        assert_eq!(
            contains_point(&comp, &Transform::IDENTITY, p),
            contains_point(&mirrored, &Transform::IDENTITY, v(-p.x, p.y)),
            "{p:?}"
        );
    }
}

#[test]
fn decomposition_rejects_bad_outlines() {
    assert!(matches!(
        Shape::concave(&[v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)]),
        Err(ShapeError::SelfIntersecting { .. })
    ));
    // An outline that touches itself at a vertex.
    let pinched = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(1.0, 1.0),
        v(2.0, 2.0),
        v(0.0, 2.0),
        v(1.0, 1.0),
    ];
    assert!(Shape::concave(&pinched).is_err());
    // A spike that folds back along itself.
    let spike = [v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)];
    assert!(matches!(
        Shape::concave(&spike),
        Err(ShapeError::SelfIntersecting { .. })
    ));
    assert_eq!(
        Shape::concave(&[v(0.0, 0.0), v(1.0, 0.0)]),
        Err(ShapeError::TooFewPoints { count: 2 })
    );
    assert_eq!(
        Shape::concave(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]),
        Err(ShapeError::Collinear)
    );
}

#[test]
fn decomposition_of_a_comb() {
    // A comb with 5 teeth: deeply concave, 22 vertices (more than one polygon can hold).
    let mut outline = vec![v(0.0, 0.0), v(10.0, 0.0)];
    for i in (0..5).rev() {
        let x = 2.0 * i as f64;
        outline.extend([
            v(x + 2.0, 3.0),
            v(x + 1.5, 3.0),
            v(x + 1.5, 1.0),
            v(x + 0.5, 1.0),
        ]);
        outline.push(v(x + 0.5, 3.0));
        outline.push(v(x, 3.0));
    }
    outline.dedup_by(|a, b| a.distance(*b) < 1e-12);
    if outline.last().unwrap().distance(outline[0]) < 1e-12 {
        outline.pop();
    }
    let shape = Shape::concave(&outline).unwrap();
    let Shape::Compound(c) = &shape else {
        unreachable!()
    };
    let area = signed_area(&outline).abs();
    let total: f64 = c
        .pieces()
        .iter()
        .map(|p| p.shape.mass_properties(1.0).unwrap().area)
        .sum();
    assert_relative_eq!(total, area, max_relative = 1e-12);
    for y in [0.5, 1.5, 2.5] {
        for k in 0..40 {
            let p = v(0.13 + 0.25 * k as f64, y);
            assert_eq!(
                point_in_simple_polygon(&outline, p),
                contains_point(&shape, &Transform::IDENTITY, p),
                "{p:?}"
            );
        }
    }
}

#[test]
fn mass_of_standard_shapes() {
    let d = 2.5;
    let c = Shape::circle(0.5).unwrap().mass_properties(d).unwrap();
    assert_relative_eq!(c.mass, d * PI * 0.25, epsilon = 1e-12);
    assert_relative_eq!(c.inertia, 0.5 * c.mass * 0.25, epsilon = 1e-12);
    let b = Shape::rectangle(1.0, 0.5)
        .unwrap()
        .mass_properties(d)
        .unwrap();
    assert_relative_eq!(b.mass, d * 2.0, epsilon = 1e-12);
    assert_relative_eq!(b.inertia, b.mass * (4.0 + 1.0) / 12.0, epsilon = 1e-12);
    assert_relative_eq!(b.center, Vec2::ZERO, epsilon = 1e-12);
    // Off-centre box: centre of mass follows, inertia about it does not change.
    let ob = Shape::oriented_rectangle(1.0, 0.5, v(3.0, -1.0), 0.7)
        .unwrap()
        .mass_properties(d)
        .unwrap();
    assert_relative_eq!(ob.center, v(3.0, -1.0), epsilon = 1e-12);
    assert_relative_eq!(ob.inertia, b.inertia, epsilon = 1e-12);
    assert_relative_eq!(
        ob.inertia_about_origin(),
        b.inertia + ob.mass * 10.0,
        epsilon = 1e-9
    );
}

proptest! {
    /// Rounded polygon area follows Steiner's formula A + P·r + π r², and the centre of mass and
    /// inertia match a numerical integration over a fine grid.
    #[test]
    fn rounded_polygon_mass_matches_steiner_and_integration(
        pts in common::convex_points(), r in 0.0..0.4f64
    ) {
        let Ok(poly) = ConvexPolygon::from_hull(&pts) else { return Ok(()); };
        let poly = poly.with_radius(r).unwrap();
        let v = poly.vertices();
        let perimeter: f64 = (0..v.len()).map(|i| v[i].distance(v[(i + 1) % v.len()])).sum();
        let m = poly.mass_properties(1.0).unwrap();
        let steiner = signed_area(v) + perimeter * r + PI * r * r;
        prop_assert!((m.area - steiner).abs() <= 1e-12 * steiner.max(1.0));
        // Grid integration of the moments.
        let shape = Shape::Polygon(poly);
        let bb = shape.aabb(&Transform::IDENTITY);
        let n = 300;
        let h = (bb.max - bb.min) / n as f64;
        let (mut a, mut first, mut second) = (0.0, Vec2::ZERO, 0.0);
        for i in 0..n {
            for j in 0..n {
                let p = bb.min + h * Vec2::new(i as f64 + 0.5, j as f64 + 0.5);
                if contains_point(&shape, &Transform::IDENTITY, p) {
                    let da = h.x * h.y;
                    a += da;
                    first += p * da;
                    second += p.length_squared() * da;
                }
            }
        }
        let c = first / a;
        let inertia = second - a * c.length_squared();
        let size = (bb.max - bb.min).max_element();
        // A grid misjudges only the cells the boundary crosses: about perimeter × cell diagonal of
        // area. That, not a fixed percentage, is what a grid can resolve (thin slivers need it).
        let boundary = (perimeter + 2.0 * PI * r) * h.length();
        let rel = boundary / m.area;
        prop_assert!((a - m.area).abs() <= boundary, "area {} vs {} (grid bound {})", a, m.area, boundary);
        prop_assert!(c.distance(m.center) <= rel * size, "centre {:?} vs {:?}", c, m.center);
        prop_assert!((inertia - m.inertia).abs() <= 3.0 * rel * m.inertia, "{} vs {}", inertia, m.inertia);
    }
}

/// The core reach is the bounding radius less the rounding, computed by hand: a disc turning
/// about its centre moves no point of its outline closer to anything.
#[test]
fn core_reach_by_hand() {
    assert_eq!(Shape::circle(0.35).unwrap().core_reach(), 0.0);
    let off = Shape::compound(vec![(
        Transform::from_translation(Vec2::new(3.0, 4.0)),
        Shape::circle(0.5).unwrap(),
    )])
    .unwrap();
    assert_relative_eq!(off.core_reach(), 5.0, epsilon = 1e-12);
    assert_relative_eq!(off.bounding_radius(), 5.5, epsilon = 1e-12);
    let k = Shape::capsule(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2).unwrap();
    assert_relative_eq!(k.core_reach(), 0.3, epsilon = 1e-12);
    assert_relative_eq!(k.bounding_radius(), 0.5, epsilon = 1e-12);
    let b = Shape::rectangle(0.4, 0.3).unwrap();
    assert_relative_eq!(b.core_reach(), 0.5, epsilon = 1e-12);
    assert_relative_eq!(b.core_reach(), b.bounding_radius());
    let square = [
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    ];
    let rounded = Shape::rounded_polygon(&square, 0.5).unwrap();
    assert_relative_eq!(rounded.core_reach(), 2f64.sqrt(), epsilon = 1e-12);
    assert_relative_eq!(
        rounded.bounding_radius(),
        2f64.sqrt() + 0.5,
        epsilon = 1e-12
    );
}

/// The inner radius about a point, by hand: the distance to the nearest face or rim.
#[test]
fn inner_radius_by_hand() {
    let b = Shape::rectangle(0.4, 0.3).unwrap();
    assert_relative_eq!(b.inner_radius(Vec2::ZERO), 0.3);
    assert_relative_eq!(b.inner_radius(Vec2::new(0.3, 0.0)), 0.1, epsilon = 1e-12);
    assert_eq!(b.inner_radius(Vec2::new(1.0, 0.0)), 0.0, "outside");
    let c = Shape::circle(0.35).unwrap();
    assert_relative_eq!(c.inner_radius(Vec2::new(0.1, 0.0)), 0.25, epsilon = 1e-12);
    let k = Shape::capsule(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2).unwrap();
    assert_relative_eq!(k.inner_radius(Vec2::ZERO), 0.2);
    assert_relative_eq!(k.inner_radius(Vec2::new(0.4, 0.0)), 0.1, epsilon = 1e-12);
    let rounded = Shape::rounded_polygon(
        &[
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        ],
        0.5,
    )
    .unwrap();
    assert_relative_eq!(rounded.inner_radius(Vec2::ZERO), 1.5);
    // An L made of two pieces: deep in the corner square the larger piece decides.
    let l = Shape::concave(&[
        Vec2::new(0.0, 0.0),
        Vec2::new(3.0, 0.0),
        Vec2::new(3.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 3.0),
        Vec2::new(0.0, 3.0),
    ])
    .unwrap();
    assert_relative_eq!(l.inner_radius(Vec2::new(0.5, 0.5)), 0.5, epsilon = 1e-12);
    assert_relative_eq!(l.inner_radius(Vec2::new(2.0, 0.5)), 0.5, epsilon = 1e-12);
}

proptest! {
    /// Against sampling: the disc of the inner radius lies inside the shape, and a slightly
    /// larger one reaches outside in some direction (convex shapes: exact).
    #[test]
    fn inner_radius_is_the_distance_to_the_boundary(
        s in common::convex_shape(), px in -1.0..1.0f64, py in -1.0..1.0f64
    ) {
        let p = Vec2::new(px, py);
        let r = s.inner_radius(p);
        prop_assert!(r >= 0.0);
        let dirs = (0..3600).map(|k| Vec2::from_angle(k as f64 * std::f64::consts::TAU / 3600.0));
        if r > 0.0 {
            let xf = Transform::IDENTITY;
            for d in dirs.clone().step_by(50) {
                prop_assert!(contains_point(&s, &xf, p + d * r * (1.0 - 1e-9)), "disc of {} not inside", r);
            }
            let beyond = r * 1.001 + 1e-9;
            prop_assert!(
                dirs.into_iter().any(|d| !contains_point(&s, &xf, p + d * beyond)),
                "a disc of {} also fits", beyond
            );
        } else {
            // Outside, or on the boundary: points nearby are outside in some direction.
            let near_outside =
                dirs.into_iter().any(|d| !contains_point(&s, &Transform::IDENTITY, p + d * 1e-6));
            prop_assert!(near_outside, "inner radius 0 at {:?}, deep inside", p);
        }
    }
}

proptest! {
    /// Concave outlines (compounds of sharp pieces): the inner radius is the distance to the
    /// outline itself (an independent reference: the pieces' shared diagonals are not boundary),
    /// and 0 outside it.
    #[test]
    fn inner_radius_of_concave_outlines(
        outline in common::star_points(), px in -1.0..1.0f64, py in -1.0..1.0f64
    ) {
        let s = Shape::concave(&outline).unwrap();
        let p = Vec2::new(px, py) * 0.5;
        let r = s.inner_radius(p);
        let n = outline.len();
        let to_outline = (0..n)
            .map(|i| {
                let (a, b) = (outline[i], outline[(i + 1) % n]);
                let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                p.distance(a + t * (b - a))
            })
            .fold(f64::INFINITY, f64::min);
        if point_in_simple_polygon(&outline, p) {
            prop_assert!((r - to_outline).abs() <= 1e-9, "{} vs the outline's {}", r, to_outline);
        } else {
            prop_assert!(r <= 1e-9, "{} outside the outline", r);
        }
    }
}
