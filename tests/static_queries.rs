//! Hand-computed cases for every shape pair, each checked in both argument orders.

mod common;

use approx::assert_relative_eq;
use common::{gap, shifted};
use sweep2d::query::{contact, contains_point, intersects};
use sweep2d::{Contact, Shape, Transform, Vec2};

fn at(x: f64, y: f64, angle: f64) -> Transform {
    Transform::new(Vec2::new(x, y), angle)
}

/// Runs `contact` in both orders, checks they agree (normal flipped, same depth and points) and
/// that `intersects` agrees, then returns the A-first contact.
fn both_orders(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Option<Contact> {
    let ab = contact(a, xa, b, xb);
    let ba = contact(b, xb, a, xa);
    assert_eq!(ab.is_some(), ba.is_some(), "contact differs between orders");
    assert_eq!(
        intersects(a, xa, b, xb),
        ab.is_some(),
        "intersects(a,b) vs contact"
    );
    assert_eq!(
        intersects(b, xb, a, xa),
        ab.is_some(),
        "intersects(b,a) vs contact"
    );
    if let (Some(c1), Some(c2)) = (&ab, &ba) {
        assert_relative_eq!(c1.depth, c2.depth, epsilon = 1e-12);
        assert_relative_eq!(c1.normal, -c2.normal, epsilon = 1e-12);
        assert_relative_eq!(c1.normal.length(), 1.0, epsilon = 1e-12);
        assert!(!c1.points().is_empty() && c1.points().len() <= 2);
        assert_eq!(c1.points().len(), c1.point_depths().len());
    }
    ab
}

/// Moving B by the MTV must leave the pair touching and not overlapping.
fn assert_mtv_resolves(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform, c: &Contact) {
    let moved = shifted(xb, c.normal * c.depth);
    let g = gap(a, xa, b, &moved);
    assert!(
        g.abs() <= 1e-9 || (g <= 0.0 && c.depth == 0.0),
        "gap after MTV: {g}"
    );
    assert!(
        gap(a, xa, b, &shifted(&moved, c.normal * 1e-7)) > 0.0,
        "still overlapping after MTV"
    );
}

#[test]
fn circle_circle() {
    let (a, b) = (Shape::circle(1.0).unwrap(), Shape::circle(0.5).unwrap());
    let (xa, xb) = (at(0.0, 0.0, 0.0), at(1.2, 0.0, 0.3));
    let c = both_orders(&a, &xa, &b, &xb).unwrap();
    assert_relative_eq!(c.depth, 0.3, epsilon = 1e-12);
    assert_relative_eq!(c.normal, Vec2::X);
    // Halfway between the surfaces x = 1.0 (A) and x = 0.7 (B).
    assert_relative_eq!(c.points()[0], Vec2::new(0.85, 0.0), epsilon = 1e-12);
    assert_mtv_resolves(&a, &xa, &b, &xb, &c);
    // Exactly touching counts; a hair apart does not.
    let touching = both_orders(&a, &xa, &b, &at(1.5, 0.0, 0.0)).unwrap();
    assert_eq!(touching.depth, 0.0);
    assert!(both_orders(&a, &xa, &b, &at(1.5 + 1e-12, 0.0, 0.0)).is_none());
}

#[test]
fn circle_box_face_and_the_corner_gap_of_naive_sat() {
    let bx = Shape::rectangle(1.0, 1.0).unwrap();
    let ball = Shape::circle(0.5).unwrap();
    let xa = Transform::IDENTITY;
    let c = both_orders(&bx, &xa, &ball, &at(0.0, 1.4, 0.0)).unwrap();
    assert_relative_eq!(c.depth, 0.1, epsilon = 1e-12);
    assert_relative_eq!(c.normal, Vec2::Y);
    // Off the corner: both face axes overlap (|x|, |y| < 1.5) but the centre is 0.566 m from the
    // corner, more than the radius. Only the centre-to-vertex axis separates them.
    let off = at(1.4, 1.4, 0.0);
    assert!(both_orders(&bx, &xa, &ball, &off).is_none());
    assert!(gap(&bx, &xa, &ball, &off) > 0.0);
    // Closer to the corner they touch along the diagonal.
    let near = at(1.3, 1.3, 0.0);
    let c = both_orders(&bx, &xa, &ball, &near).unwrap();
    assert_relative_eq!(c.normal, Vec2::new(1.0, 1.0).normalize(), epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.5 - 0.3 * 2f64.sqrt(), epsilon = 1e-12);
    assert_mtv_resolves(&bx, &xa, &ball, &near, &c);
    // Centre inside the box: pushed out through the nearest face.
    let inside = at(0.8, 0.1, 0.0);
    let c = both_orders(&bx, &xa, &ball, &inside).unwrap();
    assert_relative_eq!(c.normal, Vec2::X);
    assert_relative_eq!(c.depth, 0.2 + 0.5, epsilon = 1e-12);
}

#[test]
fn box_box_resting_gives_two_points() {
    let ground = Shape::rectangle(5.0, 0.5).unwrap();
    let crate_ = Shape::rectangle(0.5, 0.5).unwrap();
    let xg = Transform::IDENTITY;
    let xc = at(1.0, 0.99, 0.0);
    let c = both_orders(&ground, &xg, &crate_, &xc).unwrap();
    assert_relative_eq!(c.normal, Vec2::Y);
    assert_relative_eq!(c.depth, 0.01, epsilon = 1e-12);
    assert_eq!(c.points().len(), 2);
    let mut xs: Vec<f64> = c.points().iter().map(|p| p.x).collect();
    xs.sort_by(f64::total_cmp);
    assert_relative_eq!(xs[0], 0.5, epsilon = 1e-12);
    assert_relative_eq!(xs[1], 1.5, epsilon = 1e-12);
    for (p, d) in c.points().iter().zip(c.point_depths()) {
        assert_relative_eq!(p.y, 0.495, epsilon = 1e-12);
        assert_relative_eq!(*d, 0.01, epsilon = 1e-12);
    }
    assert_mtv_resolves(&ground, &xg, &crate_, &xc, &c);
    // Exactly resting: touching, depth 0, still two points.
    let c = both_orders(&ground, &xg, &crate_, &at(1.0, 1.0, 0.0)).unwrap();
    assert_eq!(c.depth, 0.0);
    assert_eq!(c.points().len(), 2);
}

#[test]
fn box_corner_into_box_face() {
    let a = Shape::rectangle(1.0, 1.0).unwrap();
    let b = Shape::rectangle(0.5, 0.5).unwrap();
    let xa = Transform::IDENTITY;
    // B turned 45°: its lowest corner is 0.5·√2 below its centre.
    let xb = at(
        0.2,
        1.0 + 0.5 * 2f64.sqrt() - 0.05,
        std::f64::consts::FRAC_PI_4,
    );
    let c = both_orders(&a, &xa, &b, &xb).unwrap();
    assert_relative_eq!(c.normal, Vec2::Y, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
    assert_eq!(c.points().len(), 1);
    assert_relative_eq!(c.points()[0], Vec2::new(0.2, 0.975), epsilon = 1e-12);
    assert_mtv_resolves(&a, &xa, &b, &xb, &c);
}

#[test]
fn rotated_and_mirrored_boxes() {
    let a = Shape::oriented_rectangle(1.0, 0.25, Vec2::new(0.5, 0.0), 0.3).unwrap();
    let b = Shape::rectangle(0.4, 0.4).unwrap();
    let xa = at(-0.2, 0.1, 0.4);
    let xb = at(1.0, 0.6, -0.2);
    let c = both_orders(&a, &xa, &b, &xb).unwrap();
    assert_mtv_resolves(&a, &xa, &b, &xb, &c);
    // Mirroring both shapes and their placements in x mirrors the contact.
    let mirror =
        |x: &Transform| Transform::new(Vec2::new(-x.translation.x, x.translation.y), -x.angle());
    let m = both_orders(&a.mirrored_x(), &mirror(&xa), &b.mirrored_x(), &mirror(&xb)).unwrap();
    assert_relative_eq!(m.depth, c.depth, epsilon = 1e-12);
    assert_relative_eq!(
        m.normal,
        Vec2::new(-c.normal.x, c.normal.y),
        epsilon = 1e-12
    );
}

#[test]
fn capsule_pairs() {
    let cap = Shape::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25).unwrap();
    let bx = Shape::rectangle(0.5, 0.5).unwrap();
    let ball = Shape::circle(0.5).unwrap();
    let x0 = Transform::IDENTITY;

    // Capsule lying on a box top.
    let xc = at(0.3, 0.7, 0.0);
    let c = both_orders(&bx, &x0, &cap, &xc).unwrap();
    assert_relative_eq!(c.normal, Vec2::Y, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
    assert_eq!(c.points().len(), 2, "flat capsule on a face: two points");
    assert_mtv_resolves(&bx, &x0, &cap, &xc, &c);

    // Capsule end cap against the box side, end-on.
    let xe = at(1.7, 0.2, 0.0);
    let c = both_orders(&bx, &x0, &cap, &xe).unwrap();
    assert_relative_eq!(c.normal, Vec2::X, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);

    // Capsule end cap off the box corner (vertex–vertex region): apart, then touching.
    let diag = Vec2::new(1.0, 1.0).normalize();
    let cap_v = Shape::capsule(Vec2::ZERO, Vec2::new(1.0, 1.0), 0.25).unwrap();
    let corner = Vec2::new(0.5, 0.5);
    let xa_far = Transform::new(corner + diag * 0.26, 0.0);
    assert!(both_orders(&bx, &x0, &cap_v, &xa_far).is_none());
    let xa_near = Transform::new(corner + diag * 0.2, 0.0);
    let c = both_orders(&bx, &x0, &cap_v, &xa_near).unwrap();
    assert_relative_eq!(c.normal, diag, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);

    // Capsule–circle: circle above the middle, and past an end.
    let c = both_orders(&cap, &x0, &ball, &at(0.3, 0.6, 0.0)).unwrap();
    assert_relative_eq!(c.normal, Vec2::Y, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.15, epsilon = 1e-12);
    let c = both_orders(&cap, &x0, &ball, &at(1.7, 0.0, 0.0)).unwrap();
    assert_relative_eq!(c.normal, Vec2::X, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);

    // Capsule–capsule: crossing at right angles, parallel overlapping, end to end.
    // Crossing at right angles, B's centre 0.3 m up: pushing B up needs 0.7 + 0.5, sideways 1.5.
    let cross = at(0.0, 0.3, std::f64::consts::FRAC_PI_2);
    let c = both_orders(&cap, &x0, &cap, &cross).unwrap();
    assert_relative_eq!(c.normal, Vec2::Y, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 1.2, epsilon = 1e-12);
    assert_mtv_resolves(&cap, &x0, &cap, &cross, &c);
    let parallel = at(0.5, 0.4, 0.0);
    let c = both_orders(&cap, &x0, &cap, &parallel).unwrap();
    assert_relative_eq!(c.normal, Vec2::Y, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.1, epsilon = 1e-12);
    assert_eq!(c.points().len(), 2);
    let end_to_end = at(2.45, 0.0, 0.0);
    let c = both_orders(&cap, &x0, &cap, &end_to_end).unwrap();
    assert_relative_eq!(c.normal, Vec2::X, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
}

#[test]
fn rounded_polygon_pairs() {
    let rb = Shape::rounded_polygon(
        &[
            Vec2::new(-0.5, -0.5),
            Vec2::new(0.5, -0.5),
            Vec2::new(0.5, 0.5),
            Vec2::new(-0.5, 0.5),
        ],
        0.1,
    )
    .unwrap();
    let bx = Shape::rectangle(0.5, 0.5).unwrap();
    let x0 = Transform::IDENTITY;
    // Face to face: cores apart by 0.05 + rounding 0.1 → overlap 0.05.
    let c = both_orders(&bx, &x0, &rb, &at(1.05, 0.0, 0.0)).unwrap();
    assert_relative_eq!(c.normal, Vec2::X, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
    assert_eq!(c.points().len(), 2);
    // Corner to corner along the diagonal: core corners 0.1·√2 apart > 0.1 rounding → apart,
    // though every face axis overlaps.
    let corner = at(1.1, 1.1, 0.0);
    assert!(both_orders(&bx, &x0, &rb, &corner).is_none());
    let corner = at(1.05, 1.05, 0.0);
    let c = both_orders(&bx, &x0, &rb, &corner).unwrap();
    assert_relative_eq!(c.normal, Vec2::new(1.0, 1.0).normalize(), epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.1 - 0.05 * 2f64.sqrt(), epsilon = 1e-12);
    assert_mtv_resolves(&bx, &x0, &rb, &corner, &c);
    // Rounded vs rounded and vs circle.
    let c = both_orders(&rb, &x0, &rb, &at(0.0, 1.15, 0.0)).unwrap();
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
    let ball = Shape::circle(0.2).unwrap();
    let c = both_orders(&rb, &x0, &ball, &at(0.0, 0.75, 0.0)).unwrap();
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
}

#[test]
fn compound_pairs() {
    // An L made of two boxes, and the same L by concave decomposition.
    let l_outline = [
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(0.0, 2.0),
    ];
    let l = Shape::concave(&l_outline).unwrap();
    let ball = Shape::circle(0.25).unwrap();
    let x0 = Transform::IDENTITY;
    // In the notch of the L: inside its convex hull but outside the shape.
    let notch = at(1.5, 1.5, 0.0);
    assert!(both_orders(&l, &x0, &ball, &notch).is_none());
    assert!(!contains_point(&l, &x0, Vec2::new(1.5, 1.5)));
    assert!(contains_point(&l, &x0, Vec2::new(0.5, 1.5)));
    // Touching the inner corner region from the notch.
    let c = both_orders(&l, &x0, &ball, &at(1.2, 1.5, 0.0)).unwrap();
    assert_relative_eq!(c.normal, Vec2::X, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
    // Compound vs capsule, polygon, and compound.
    let cap = Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.1).unwrap();
    let c = both_orders(&l, &x0, &cap, &at(1.0, -0.05, 0.0)).unwrap();
    assert_relative_eq!(c.normal, -Vec2::Y, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.05, epsilon = 1e-12);
    let bx = Shape::rectangle(0.2, 0.2).unwrap();
    assert!(both_orders(&l, &x0, &bx, &at(0.5, 2.1, 0.0)).is_some());
    let c = both_orders(&l, &x0, &l, &at(1.9, 0.0, 0.0)).unwrap();
    assert_relative_eq!(c.normal, Vec2::X, epsilon = 1e-12);
    assert_relative_eq!(c.depth, 0.1, epsilon = 1e-12);
    assert!(both_orders(&l, &x0, &l, &at(2.1, 0.0, 0.0)).is_none());
}

#[test]
fn point_containment() {
    let bx = Shape::rectangle(1.0, 0.5).unwrap();
    let xf = at(2.0, 0.0, std::f64::consts::FRAC_PI_2);
    assert!(contains_point(&bx, &xf, Vec2::new(2.0, 0.9)));
    assert!(
        contains_point(&bx, &xf, Vec2::new(2.5, 1.0)),
        "corner counts"
    );
    assert!(!contains_point(&bx, &xf, Vec2::new(2.6, 0.0)));
    let cap = Shape::capsule(Vec2::ZERO, Vec2::X, 0.5).unwrap();
    assert!(contains_point(
        &cap,
        &Transform::IDENTITY,
        Vec2::new(1.4, 0.0)
    ));
    assert!(!contains_point(
        &cap,
        &Transform::IDENTITY,
        Vec2::new(1.4, 0.4)
    ));
    let ball = Shape::circle(1.0).unwrap();
    assert!(contains_point(
        &ball,
        &Transform::IDENTITY,
        Vec2::new(0.6, 0.8)
    ));
}

#[test]
fn aabb_test() {
    let bx = Shape::rectangle(1.0, 1.0).unwrap();
    let ball = Shape::circle(0.5).unwrap();
    let x0 = Transform::IDENTITY;
    // AABBs overlap at the corner while the shapes do not: the broad test is conservative.
    let xb = at(1.45, 1.45, 0.0);
    assert!(sweep2d::query::aabbs_overlap(&bx, &x0, &ball, &xb));
    assert!(!intersects(&bx, &x0, &ball, &xb));
    assert!(!sweep2d::query::aabbs_overlap(
        &bx,
        &x0,
        &ball,
        &at(1.6, 0.0, 0.0)
    ));
}

/// Warm starting matches manifold points by feature id. A box resting half over another is nearly
/// flush: a tiny tilt either way makes a different box the reference, but the two touching
/// features (B's corner on A's top face, A's corner on B's bottom face) are the same, and so must
/// their ids be. (The ids once named the reference edge: every such flip dropped the warm start of
/// a loaded contact, and a 100-row pyramid crept sideways.)
#[test]
fn feature_ids_survive_a_flip_of_the_reference_face() {
    let unit = Shape::rectangle(0.5, 0.5).unwrap();
    let polygon = Shape::polygon(&[
        Vec2::new(-0.5, -0.5),
        Vec2::new(0.5, -0.5),
        Vec2::new(0.5, 0.5),
        Vec2::new(-0.5, 0.5),
    ])
    .unwrap();
    for shape in [&unit, &polygon] {
        let xa = at(0.0, 0.0, 0.0);
        let mut seen: Vec<(Vec2, sweep2d::query::FeatureId)> = Vec::new();
        for tilt in [-3e-3, -1e-3, 1e-3, 3e-3] {
            let xb = at(0.5, 0.99, tilt);
            let c = contact(shape, &xa, shape, &xb).expect("overlapping");
            assert_eq!(c.points().len(), 2, "tilt {tilt}");
            for (p, id) in c.points().iter().zip(c.feature_ids()) {
                // The same physical feature pair lies within a few millimetres at every tilt.
                for (q, other) in &seen {
                    if p.distance(*q) < 0.01 {
                        assert_eq!(id, other, "tilt {tilt}: point {p:?} changed its id");
                    } else {
                        assert_ne!(id, other, "tilt {tilt}: distinct points share an id");
                    }
                }
                seen.push((*p, *id));
            }
        }
    }
}
