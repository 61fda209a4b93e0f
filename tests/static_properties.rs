//! Property tests of the static queries against the exact, SAT-free reference in `common`.
//!
//! Case counts follow proptest's `PROPTEST_CASES` (256 by default, as CI runs them); run
//! `PROPTEST_CASES=100000 cargo test --release --test static_properties` for a long local sweep.

mod common;

use approx::assert_relative_eq;
use common::*;
use proptest::prelude::*;
use sweep2d::query::{contact, contains_point, intersects};
use sweep2d::{Shape, Transform, Vec2};

/// Relative tolerance of the MTV checks: 1e-9 of the pair's size.
fn tol(a: &Shape, b: &Shape) -> f64 {
    1e-9 * (a.bounding_radius() + b.bounding_radius()).max(1.0)
}

proptest! {
    /// `intersects` and `contact` agree with the reference predicate, in both argument orders.
    /// Pairs within 1e-9 m of touching are exactly where floating point may decide either way, so
    /// they are checked by the hand-built touching cases in `static_queries.rs` instead.
    #[test]
    fn intersects_matches_reference(
        a in any_shape(), xa in transform(2.0), b in any_shape(), xb in transform(2.0)
    ) {
        let g = gap(&a, &xa, &b, &xb);
        prop_assume!(g == 0.0 || g.abs() > 1e-9);
        let expected = g <= 0.0;
        prop_assert_eq!(intersects(&a, &xa, &b, &xb), expected, "gap {}", g);
        prop_assert_eq!(intersects(&b, &xb, &a, &xa), expected, "gap {} (swapped)", g);
        prop_assert_eq!(contact(&a, &xa, &b, &xb).is_some(), expected, "contact, gap {}", g);
        prop_assert_eq!(contact(&b, &xb, &a, &xa).is_some(), expected, "contact swapped, gap {}", g);
    }

    /// Moving B by `normal * depth` leaves the convex pair touching and not overlapping, and no
    /// sampled direction needs a shorter push (the MTV is minimal).
    #[test]
    fn mtv_separates_and_is_minimal(
        a in convex_shape(), xa in transform(1.5), b in convex_shape(), xb in transform(1.5)
    ) {
        let Some(c) = contact(&a, &xa, &b, &xb) else { return Ok(()); };
        let t = tol(&a, &b);
        prop_assert!(c.depth >= 0.0);
        prop_assert!((c.normal.length() - 1.0).abs() < 1e-12);
        let moved = shifted(&xb, c.normal * c.depth);
        // Touching: a hair less than the MTV still intersects ...
        if c.depth > t {
            prop_assert!(gap(&a, &xa, &b, &shifted(&xb, c.normal * (c.depth - t))) <= 0.0,
                "not touching after MTV");
        }
        // ... and a hair more separates.
        prop_assert!(gap(&a, &xa, &b, &shifted(&moved, c.normal * t)) > 0.0,
            "still overlapping after MTV: depth {}", c.depth);
        // Minimal over 72 sampled directions.
        for k in 0..72 {
            let dir = Vec2::from_angle(k as f64 * std::f64::consts::TAU / 72.0);
            let d = directional_depth(&a, &xa, &b, &xb, dir);
            prop_assert!(c.depth <= d + t, "direction {:?} needs only {} < {}", dir, d, c.depth);
        }
        // Every manifold point lies in the overlap region, within the tolerance.
        // (A point gap, not a probe circle: a touching pair's depth + 10 t is below the
        // smallest circle a shape constructor accepts.)
        let near = c.depth.max(0.0) + 10.0 * t;
        for p in c.points() {
            prop_assert!(point_gap(&a, &xa, *p) <= near && point_gap(&b, &xb, *p) <= near,
                "manifold point {:?} far from the overlap", p);
        }
    }

    /// Swapping A and B flips the normal and keeps the depth.
    #[test]
    fn contact_is_symmetric(
        a in any_shape(), xa in transform(1.5), b in any_shape(), xb in transform(1.5)
    ) {
        let ab = contact(&a, &xa, &b, &xb);
        let ba = contact(&b, &xb, &a, &xa);
        prop_assert_eq!(ab.is_some(), ba.is_some());
        if let (Some(ab), Some(ba)) = (ab, ba) {
            let t = tol(&a, &b);
            prop_assert!((ab.depth - ba.depth).abs() <= t, "{} vs {}", ab.depth, ba.depth);
            // Equal-depth ties (two axes with the same overlap) may pick different axes; otherwise
            // the normal must flip.
            if (ab.normal + ba.normal).length() > 1e-6 {
                let alt = shifted(&xb, -ba.normal * ba.depth);
                prop_assert!(gap(&a, &xa, &b, &shifted(&alt, -ba.normal * t)) > 0.0,
                    "normals differ without a tie: {:?} vs {:?}", ab.normal, ba.normal);
            }
        }
    }

    /// Mirroring the whole scene in x or y mirrors the answer; turning a body by a whole turn
    /// changes nothing.
    #[test]
    fn mirror_and_full_turn_invariance(
        a in any_shape(), xa in transform(1.5), b in any_shape(), xb in transform(1.5), flip_x: bool
    ) {
        let s = if flip_x { Vec2::new(-1.0, 1.0) } else { Vec2::new(1.0, -1.0) };
        let mirror_shape = |sh: &Shape| if flip_x { sh.mirrored_x() } else { sh.mirrored_y() };
        let mirror_xf = |x: &Transform| Transform::new(x.translation * s, -x.angle());
        let c = contact(&a, &xa, &b, &xb);
        let m = contact(&mirror_shape(&a), &mirror_xf(&xa), &mirror_shape(&b), &mirror_xf(&xb));
        prop_assert_eq!(c.is_some(), m.is_some());
        let t = tol(&a, &b);
        if let (Some(c), Some(m)) = (c, m) {
            prop_assert!((c.depth - m.depth).abs() <= t);
        }
        let turned = Transform::new(xa.translation, xa.angle() + std::f64::consts::TAU);
        let r = contact(&a, &turned, &b, &xb);
        prop_assert_eq!(contact(&a, &xa, &b, &xb).is_some(), r.is_some());
        if let (Some(c), Some(r)) = (contact(&a, &xa, &b, &xb), r) {
            prop_assert!((c.depth - r.depth).abs() <= t);
        }
    }

    /// Point containment agrees with the reference: a probe disc of the smallest radius shapes
    /// may have (1e-4 m), whose gap plus its radius is the point's signed distance.
    #[test]
    fn contains_point_matches_reference(s in any_shape(), xf in transform(1.0), p in vec2(3.0)) {
        let r = sweep2d::constants::MIN_LENGTH;
        let probe = Shape::circle(r).unwrap();
        let d = gap(&s, &xf, &probe, &Transform::from_translation(p)) + r;
        prop_assume!(d.abs() > 1e-9);
        prop_assert_eq!(contains_point(&s, &xf, p), d <= 0.0);
    }

    /// Concave decomposition: pieces are convex, their areas sum to the outline's area, and a point
    /// is inside the outline exactly when it is inside some piece.
    #[test]
    fn decomposition_is_an_exact_convex_partition(pts in star_points(), probes in prop::collection::vec(vec2(2.0), 64)) {
        let shape = Shape::concave(&pts).unwrap();
        let Shape::Compound(c) = &shape else { panic!("concave gives a compound") };
        let mut total = 0.0;
        for piece in c.pieces() {
            let Shape::Polygon(p) = &piece.shape else { panic!("pieces are polygons") };
            let v = p.vertices();
            prop_assert!(v.len() >= 3 && v.len() <= sweep2d::MAX_POLYGON_VERTICES);
            for i in 0..v.len() {
                let turn = (v[(i + 1) % v.len()] - v[i]).perp_dot(v[(i + 2) % v.len()] - v[(i + 1) % v.len()]);
                prop_assert!(turn > 0.0, "piece not strictly convex");
            }
            total += signed_area(v);
        }
        let area = signed_area(&pts).abs();
        prop_assert!((total - area).abs() <= 1e-9 * area, "pieces {} vs outline {}", total, area);
        for p in probes {
            let near_edge = (0..pts.len()).any(|i| point_segment_distance(p, pts[i], pts[(i + 1) % pts.len()]) < 1e-9);
            if near_edge { continue; }
            prop_assert_eq!(point_in_simple_polygon(&pts, p), contains_point(&shape, &Transform::IDENTITY, p));
        }
        // Mass properties of the pieces match the outline's area.
        let m = shape.mass_properties(2.0).unwrap();
        assert_relative_eq!(m.mass, 2.0 * area, max_relative = 1e-9);
    }
}

proptest! {
    /// Every point of a shape lies in its bounding circle (the circle the early-out relies on).
    #[test]
    fn bounding_circle_holds_the_shape(s in any_shape(), probes in prop::collection::vec(vec2(3.0), 200)) {
        let (c, r) = s.bounding_circle();
        for p in probes {
            if contains_point(&s, &Transform::IDENTITY, p) {
                prop_assert!(p.distance(c) <= r * (1.0 + 1e-12), "{:?} outside ({:?}, {})", p, c, r);
            }
        }
        // And the circle is not loose: some core point or rim reaches it (within 1e-9).
        let far = world_cores(&s, &Transform::IDENTITY)
            .iter()
            .flat_map(|k| k.points.iter().map(move |q| q.distance(c) + k.radius))
            .fold(0.0, f64::max);
        prop_assert!(far >= r - 1e-9 && far <= r + 1e-9 || !s.is_convex());
    }
}
