//! Ray casts against placed shapes.
//!
//! Sharp polygons clip the ray against each edge's half-plane (Cyrus–Beck, as Box2D's
//! `b2RayCastPolygon`): exact, closed form. Rounded shapes (circles, capsules, rounded polygons)
//! march along the ray with Newton steps on the distance to the core minus the radius, which is
//! convex along a line, so the iterate never passes the entry point (the same argument as the
//! exact translational time of impact in `toi.rs`).

use super::distance::point_core;
use crate::constants::TOI_EXACT_STEP;
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::Shape;

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Fraction of the ray's translation at the hit, in `[0, 1]`.
    pub fraction: Real,
    /// The hit point (world metres).
    pub point: Vec2,
    /// Unit surface normal at the hit (world), facing the ray's origin side. For a ray starting
    /// inside the shape, `fraction` is 0 and the normal points against the ray.
    pub normal: Vec2,
}

/// Casts the ray from `origin` along `translation` (world metres; the ray ends at
/// `origin + translation`) against `shape` placed at `xf`. `None` if it misses.
#[must_use]
pub fn ray_cast(shape: &Shape, xf: &Transform, origin: Vec2, translation: Vec2) -> Option<RayHit> {
    if !(xf.is_finite() && origin.is_finite() && translation.is_finite()) {
        return None;
    }
    match shape {
        Shape::Compound(c) => c
            .pieces()
            .iter()
            .filter_map(|p| ray_cast(&p.shape, &(*xf * p.transform), origin, translation))
            .min_by(|a, b| a.fraction.total_cmp(&b.fraction)),
        convex => {
            let o = xf.inv_transform_point(origin);
            let d = xf.inv_transform_vector(translation);
            let hit = local_ray_cast(convex, o, d)?;
            Some(RayHit {
                fraction: hit.0,
                point: origin + hit.0 * translation,
                normal: xf.transform_vector(hit.1),
            })
        }
    }
}

fn inside_normal(d: Vec2) -> Vec2 {
    -d.try_normalize().unwrap_or(Vec2::X)
}

/// Ray cast in the shape's frame: (fraction, local normal).
fn local_ray_cast(shape: &Shape, o: Vec2, d: Vec2) -> Option<(Real, Vec2)> {
    let core = shape.core()?;
    if core.radius == 0.0 && core.points.len() >= 3 {
        // Cyrus–Beck: the ray enters the latest entering half-plane, leaves at the earliest exit.
        let (mut lower, mut upper) = (0.0, 1.0);
        let mut entered = None;
        for (v, n) in core.points.iter().zip(core.normals) {
            let numerator = n.dot(*v - o);
            let denominator = n.dot(d);
            if denominator == 0.0 {
                if numerator < 0.0 {
                    return None; // parallel and outside this edge
                }
            } else if denominator < 0.0 && numerator < lower * denominator {
                lower = numerator / denominator;
                entered = Some(*n);
            } else if denominator > 0.0 && numerator < upper * denominator {
                upper = numerator / denominator;
            }
            if upper < lower {
                return None;
            }
        }
        return Some(match entered {
            Some(n) => (lower, n),
            None => (0.0, inside_normal(d)),
        });
    }
    if core.radius == 0.0 && core.points.len() == 2 {
        return segment_ray(core.points[0], core.points[1], o, d);
    }
    // Rounded: Newton steps on f(s) = dist(o + s·d, core) − r, convex in s.
    let mut s: Real = 0.0;
    for _ in 0..64 {
        let p = o + s * d;
        let (dist, normal) = if core.points.len() == 1 {
            let v = p - core.points[0];
            let len = v.length();
            (len, if len > 0.0 { v / len } else { inside_normal(d) })
        } else {
            let r = point_core(core.points, core.normals, p);
            (r.distance, r.normal)
        };
        let f = dist - core.radius;
        if f <= 0.0 {
            return Some((
                s,
                if s == 0.0 && f < 0.0 {
                    inside_normal(d)
                } else {
                    normal
                },
            ));
        }
        let slope = normal.dot(d);
        if slope >= 0.0 {
            return None;
        }
        let step = -f / slope;
        s += step;
        if s > 1.0 {
            return None;
        }
        if step <= TOI_EXACT_STEP {
            return Some((s, normal));
        }
    }
    None
}

/// Ray against the segment `a`–`b` (a core of radius 0): the exact crossing of the two lines,
/// with the segment's normal facing the ray. (Newton steps on the distance land on the line only
/// to rounding, where the side, and so the slope's sign, is a coin toss: rays missed turned
/// segments.) A ray along the segment's own line hits its nearer end.
fn segment_ray(a: Vec2, b: Vec2, o: Vec2, d: Vec2) -> Option<(Real, Vec2)> {
    let cross = |u: Vec2, v: Vec2| u.x * v.y - u.y * v.x;
    let e = b - a;
    let ao = a - o;
    let denominator = cross(d, e);
    if denominator == 0.0 {
        let dd = d.length_squared();
        if cross(ao, d) != 0.0 || dd == 0.0 {
            return None; // parallel beside it, or no ray
        }
        let (sa, sb) = (ao.dot(d) / dd, (b - o).dot(d) / dd);
        let (near, far) = (sa.min(sb), sa.max(sb));
        if far < 0.0 || near > 1.0 {
            return None;
        }
        return Some((near.max(0.0), inside_normal(d)));
    }
    // o + s·d = a + u·e: cross with e and with d.
    let s = cross(ao, e) / denominator;
    let u = cross(ao, d) / denominator;
    if !((0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u)) {
        return None;
    }
    let n = Vec2::new(e.y, -e.x).normalize();
    Some((s, if n.dot(d) > 0.0 { -n } else { n }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn rays_against_each_shape() {
        let bx = Shape::rectangle(1.0, 1.0).unwrap();
        let xf = Transform::new(Vec2::new(5.0, 0.0), 0.0);
        let hit = ray_cast(&bx, &xf, Vec2::ZERO, Vec2::new(10.0, 0.0)).unwrap();
        assert_relative_eq!(hit.fraction, 0.4);
        assert_relative_eq!(hit.normal, -Vec2::X);
        assert!(ray_cast(&bx, &xf, Vec2::ZERO, Vec2::new(3.0, 0.0)).is_none());
        assert!(ray_cast(&bx, &xf, Vec2::new(0.0, 1.5), Vec2::new(10.0, 0.0)).is_none());
        let c = Shape::circle(1.0).unwrap();
        let hit = ray_cast(&c, &xf, Vec2::new(0.0, 0.6), Vec2::new(10.0, 0.0)).unwrap();
        assert_relative_eq!(hit.fraction, (5.0 - 0.8) / 10.0, epsilon = 1e-12);
        assert_relative_eq!(hit.normal, Vec2::new(-0.8, 0.6), epsilon = 1e-12);
        let cap = Shape::capsule(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.5).unwrap();
        let hit = ray_cast(&cap, &xf, Vec2::new(0.0, 0.3), Vec2::new(10.0, 0.0)).unwrap();
        assert_relative_eq!(hit.fraction, 0.45, epsilon = 1e-12);
        // From inside.
        let hit = ray_cast(&bx, &xf, Vec2::new(5.0, 0.0), Vec2::new(1.0, 0.0)).unwrap();
        assert_eq!(hit.fraction, 0.0);
    }
    /// Rays across segments at every angle hit them at the lines' crossing (the exact answer),
    /// with the normal facing the ray; rays that pass an end miss.
    #[test]
    fn rays_cross_turned_segments_where_the_lines_cross() {
        let mut hits = 0;
        for i in 0..360 {
            let angle = i as Real * 0.0174533 + 0.01;
            let xf = Transform::new(Vec2::new(0.2, -0.2), angle);
            let seg = Shape::segment(Vec2::new(-1.0, 0.0), Vec2::new(-1.0, 1.0)).unwrap();
            for k in 0..5 {
                let along = -0.25 + 0.375 * k as Real; // -0.25 and 1.25 pass the ends
                let target = xf.transform_point(Vec2::new(-1.0, along));
                let dir = xf.rotation.rotate(Vec2::new(1.0, 0.1 * k as Real - 0.2));
                let hit = ray_cast(&seg, &xf, target - 2.0 * dir, 4.0 * dir);
                if (0.0..=1.0).contains(&along) {
                    let hit = hit.unwrap_or_else(|| panic!("angle {angle}, k {k}: missed"));
                    assert_relative_eq!(hit.fraction, 0.5, epsilon = 1e-12);
                    assert!(hit.normal.dot(dir) < 0.0);
                    hits += 1;
                } else {
                    assert!(hit.is_none(), "angle {angle}, k {k}: {hit:?}");
                }
            }
        }
        assert_eq!(hits, 360 * 3);
    }
}
