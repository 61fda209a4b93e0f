//! The trust rule's directional test: a pair whose gap, measured along an axis fixed in one of the
//! bodies, provably stays above a floor over the rest of the step cannot pass through itself, so
//! the solver owns it (`docs/continuous.md`, "Which pairs need a time of impact").
//!
//! Method: for each pair of convex pieces that can meet, take a separating axis at the start of
//! the segments (the SAT face of largest separation, or the closest-point direction where a circle
//! or two apart cores are involved) and its exact projected gap `g₀` (the gap between the pieces'
//! projections on the axis). Fix the axis in body K's frame; the other body O's points then move
//! along it, in K's frame, by at least `t·L − t²·Q` at step fraction `t` (the first-order term of
//! the rotations plus a bound of the rest), so the projected gap stays above
//! `g₀ + min(0, L) − Q` for the whole segment. A second bound reads the exact projected gap `g₁`
//! where the segments end and a bound `κ` of its second derivative: the gap stays above
//! `min(g₀, g₁) − κ/8` (a function stays above its chord less `κ/8`), which charges a turn only
//! at second order; the better bound is kept. Only the motion *along* the axis counts: a box
//! carried round by a turning drum, or sliding along a floor, approaches nothing.

use crate::math::{Real, Rot, Transform, Vec2};
use crate::query::{distance, separation_bound};
use crate::shape::Shape;

/// One body's motion over the rest of the step, as the bound reads it (world frame).
#[derive(Clone, Copy, Debug)]
pub(super) struct Drift {
    /// Centre of mass where the segment starts (metres).
    pub center: Vec2,
    /// Displacement of the centre of mass over the rest of the step (metres).
    pub lin: Vec2,
    /// Turn over the rest of the step (radians).
    pub ang: Real,
    /// Farthest point of the body's core from its centre of mass (metres, `Body::core_reach`):
    /// a piece's projection on an axis is its core's less its rounding, so only the core's points
    /// move the projected gap when the body turns.
    pub reach: Real,
    /// The turn `ang` as a rotation.
    pub turn: Rot,
}

impl Drift {
    /// The drift of a body whose centre of mass starts at `center` and moves by `lin` (metres)
    /// while it turns by `ang` (radians) about it; `reach` as the field.
    pub fn new(center: Vec2, lin: Vec2, ang: Real, reach: Real) -> Self {
        Self {
            center,
            lin,
            ang,
            reach,
            turn: Rot::from_angle(ang),
        }
    }
}

/// A lower bound (metres, ≤ 0 unless nothing moves toward K) of how much the projected gap along
/// the unit axis `u` (world at the segments' start, pointing from body K toward body O, and fixed
/// in K's frame) changes over the rest of the step, at any time of it.
///
/// O's point at `r` from O's centre sits, in K's frame, at `R(−θ_K)(c_O − c_K + R(θ_O)·r)`; along
/// `u` with `d = c_O − c_K`, `Δ = Δc_O − Δc_K`, `β = Δθ_K`, `α = Δθ_O − Δθ_K` (all over the rest of
/// the step) its change at fraction `t` is `u·[(R(−tβ) − I)·d + t·R(−tβ)·Δ + (R(tα) − I)·r]`.
/// With `R(x) − I = x·J + E(x)`, `|E(x)·v| ≤ ½x²|v|` (`J` the quarter turn), that is at least
/// `t·(u·Δ − β·u·Jd − |α|·reach_O) − t²·(½β²|d| + |β||Δ| + ½α²·reach_O)`, whose least value over
/// `t ∈ [0, 1]` is at least `min(0, L) − Q`.
pub(super) fn gap_change_floor(u: Vec2, k: &Drift, o: &Drift) -> Real {
    let d = o.center - k.center;
    let delta = o.lin - k.lin;
    let (beta, alpha) = (k.ang, o.ang - k.ang);
    let quarter = |v: Vec2| Vec2::new(-v.y, v.x);
    let linear = u.dot(delta) - beta * u.dot(quarter(d)) - alpha.abs() * o.reach;
    let quadratic = 0.5 * beta * beta * d.length()
        + beta.abs() * delta.length()
        + 0.5 * alpha * alpha * o.reach;
    linear.min(0.0) - quadratic
}

/// The projected gap (metres) of two convex shapes along a unit axis (world, from A toward B), and
/// that axis: the gap between the shapes' projections on it, exact for that axis (negative when
/// the projections overlap). `None` where no axis is at hand (coincident circle centres).
pub(super) fn axis_gap(
    a: &Shape,
    xa: &Transform,
    b: &Shape,
    xb: &Transform,
) -> Option<(Real, Vec2)> {
    let (ca, cb) = (a.core()?, b.core()?);
    let radii = ca.radius + cb.radius;
    match (ca.points.len(), cb.points.len()) {
        (1, 1) => {
            let d = xb.transform_point(cb.points[0]) - xa.transform_point(ca.points[0]);
            let len = d.length();
            (len > 0.0).then(|| (len - radii, d / len))
        }
        (1, _) | (_, 1) => {
            // A point core against a segment or polygon core: the direction from the core's
            // closest feature to the point (the exit face's normal when inside). The core's support
            // along it is that feature, so the gap along it is the point's signed distance.
            let point_is_a = ca.points.len() == 1;
            let (point, core, frame) = if point_is_a {
                (xa.transform_point(ca.points[0]), &cb, xb)
            } else {
                (xb.transform_point(cb.points[0]), &ca, xa)
            };
            let local = frame.inv_transform_point(point);
            let r = distance::point_core(core.points, core.normals, local);
            let toward_point = frame.transform_vector(r.normal);
            let axis = if point_is_a {
                -toward_point
            } else {
                toward_point
            };
            Some((r.distance - radii, axis))
        }
        _ => {
            if let Some(face) = separation_bound(a, xa, b, xb) {
                return Some((face.separation, xa.transform_vector(face.normal)));
            }
            // Two segment-like cores whose faces do not bound the gap: they are apart (the bound
            // says so), and the line through their closest points separates them by the distance.
            let b_in_a = xa.inv_mul(xb);
            let d = crate::query::manifold::with_moved(&cb, &b_in_a, |cb| {
                distance::core_distance(&ca, cb)
            });
            let dir = d.point_b - d.point_a;
            let len = dir.length();
            (len > 0.0).then(|| (d.distance - radii, xa.transform_vector(dir / len)))
        }
    }
}

/// A lower bound (metres) of the projected gap along the unit axis `u` (world at the segments'
/// start, from piece `k` toward piece `o`, fixed in body K's frame) at any time of the rest of the
/// step, from the gap's two ends: `min(g₀, g₁) − κ/8`, with `g₁` the exact projected gap along the
/// turned axis at the segments' end and `κ` a bound of the gap's second derivative.
///
/// Each point of O moves along the axis, in K's frame, as
/// `f(t) = u·[R(−tβ)·(d + tΔ) + R(tα)·ρ]` plus a constant (`d`, `Δ`, `β`, `α` as in
/// [`gap_change_floor`], `ρ` the point from O's centre in K's turning frame), whose second
/// derivative is at most `κ = β²·max|d + tΔ| + 2|β|·|Δ| + α²·reach_O` (`|d + tΔ|` is largest at an
/// end). A function with `|f''| ≤ κ` stays above its chord less `t(1 − t)·κ/2 ≤ κ/8`, so every
/// point's projection stays above the lesser of its end values less `κ/8`, and so does the least
/// of them, which is the gap (K's own support along an axis fixed in K does not move). Unlike the
/// first-order bound, a turn of O only enters through `α²`: a tumbling body whose faces end as far
/// from K as they started is not charged `|α|·reach` for the turn.
pub(super) fn gap_floor_from_ends(
    u: Vec2,
    g0: Real,
    (kp, xk, k): (&Shape, &Transform, &Drift),
    (op, xo, o): (&Shape, &Transform, &Drift),
) -> Real {
    let (Some(ck), Some(co)) = (kp.core(), op.core()) else {
        return Real::NEG_INFINITY;
    };
    let end = |x: &Transform, d: &Drift| {
        Transform::from_parts(
            d.center + d.lin + d.turn.rotate(x.translation - d.center),
            d.turn.mul_rot(x.rotation),
        )
    };
    let (xk1, xo1) = (end(xk, k), end(xo, o));
    let u1 = k.turn.rotate(u);
    let (uk, uo) = (xk1.rotation.inv_rotate(u1), xo1.rotation.inv_rotate(u1));
    let reach_k = ck
        .points
        .iter()
        .map(|p| p.dot(uk))
        .fold(Real::NEG_INFINITY, Real::max);
    let near_o = co
        .points
        .iter()
        .map(|p| p.dot(uo))
        .fold(Real::INFINITY, Real::min);
    let g1 = (xo1.translation.dot(u1) + near_o)
        - (xk1.translation.dot(u1) + reach_k)
        - ck.radius
        - co.radius;
    let d = o.center - k.center;
    let delta = o.lin - k.lin;
    let (beta, alpha) = (k.ang, o.ang - k.ang);
    let span = d.length().max((d + delta).length());
    let curvature =
        beta * beta * span + 2.0 * beta.abs() * delta.length() + alpha * alpha * o.reach;
    g0.min(g1) - 0.125 * curvature
}

/// The projected gap (metres) of two convex pieces along `axis_gap`'s axis where the segments
/// start, and a lower bound (metres, ≤ 0 unless nothing approaches) of its change over the rest of
/// the step: the best of the two frames' bounds (the axis fixed in A, or in B), each the better of
/// the first-order bound (`gap_change_floor`) and the bound from the gap's two ends
/// (`gap_floor_from_ends`). Their sum bounds the projected gap from below at every instant of the
/// rest of the step.
pub(super) fn gap_floor(
    a: &Shape,
    xa: &Transform,
    b: &Shape,
    xb: &Transform,
    da: &Drift,
    db: &Drift,
) -> Option<(Real, Real)> {
    let (gap, n) = axis_gap(a, xa, b, xb)?;
    let change = gap_change_floor(n, da, db).max(gap_change_floor(-n, db, da));
    if change >= 0.0 {
        return Some((gap, change));
    }
    let ends = gap_floor_from_ends(n, gap, (a, xa, da), (b, xb, db)).max(gap_floor_from_ends(
        -n,
        gap,
        (b, xb, db),
        (a, xa, da),
    ));
    Some((gap, change.max(ends - gap)))
}

/// A lower bound (metres) of a convex shape's depth: the distance from a point inside it (the mean
/// of its core's points) to its boundary. For a circle or capsule it is the radius; for a polygon,
/// at least its rounding.
pub(super) fn depth(s: &Shape) -> Real {
    let Some(core) = s.core() else {
        return 0.0;
    };
    let inside = core.points.iter().copied().sum::<Vec2>() / core.points.len() as Real;
    let to_core = if core.normals.len() >= 3 {
        core.points
            .iter()
            .zip(core.normals)
            .map(|(&p, &n)| n.dot(p - inside))
            .fold(Real::INFINITY, Real::min)
            .max(0.0)
    } else {
        0.0
    };
    to_core + core.radius
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose_at(x0: &Transform, lin: Vec2, ang: Real, t: Real) -> Transform {
        Transform::new(x0.translation + lin * t, x0.angle() + ang * t)
    }

    /// The bound against sampled exact gaps along the axis fixed in K: boxes and circles, with
    /// random motions over the whole range the pass meets (displacements up to 10 m, turns up to a
    /// full turn either way; the bound holds for any turn, it only loosens), never above the
    /// sampled least change. The drifts carry the core reach, as the pass's do: a spinning circle
    /// is charged nothing for its turn, and the sampled gaps check that this is sound.
    #[test]
    fn the_floor_never_exceeds_the_sampled_change() {
        let mut seed = 0x5eed_u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as Real / (1u64 << 53) as Real) * 2.0 - 1.0
        };
        let shapes = [
            Shape::rectangle(0.5, 0.2).unwrap(),
            Shape::circle(0.3).unwrap(),
            Shape::capsule(Vec2::new(-0.4, 0.0), Vec2::new(0.4, 0.1), 0.1).unwrap(),
            Shape::rectangle(3.0, 0.25).unwrap(),
        ];
        let (mut checked, mut tight) = (0, 0);
        for case in 0..4000 {
            let (sa, sb) = (&shapes[case % 4], &shapes[(case / 4) % 4]);
            let xa = Transform::new(Vec2::new(rnd(), rnd()), 3.0 * rnd());
            let xb = Transform::new(Vec2::new(2.0 + rnd(), rnd()), 3.0 * rnd());
            let scale = [0.01, 0.3, 3.0, 10.0][(case / 64) % 4];
            let (la, lb) = (
                scale * Vec2::new(rnd(), rnd()),
                scale * Vec2::new(rnd(), rnd()),
            );
            let turn = [0.01, 0.5, 2.0, core::f64::consts::TAU][(case / 16) % 4];
            let (aa, ab) = (turn * rnd(), turn * rnd());
            let Some((g0, n)) = axis_gap(sa, &xa, sb, &xb) else {
                continue;
            };
            let drift = |x: &Transform, lin, ang, s: &Shape| {
                Drift::new(x.translation, lin, ang, s.core_reach())
            };
            let (da, db) = (drift(&xa, la, aa, sa), drift(&xb, lb, ab, sb));
            // The axis fixed in B (K = B, pointing from B toward A), then in A.
            for (k_is_b, floor, from_ends) in [
                (
                    true,
                    gap_change_floor(-n, &db, &da),
                    gap_floor_from_ends(-n, g0, (sb, &xb, &db), (sa, &xa, &da)),
                ),
                (
                    false,
                    gap_change_floor(n, &da, &db),
                    gap_floor_from_ends(n, g0, (sa, &xa, &da), (sb, &xb, &db)),
                ),
            ] {
                let (u_local, kx0) = if k_is_b {
                    (xb.rotation.inv_rotate(-n), (&xb, lb, ab))
                } else {
                    (xa.rotation.inv_rotate(n), (&xa, la, aa))
                };
                let support = |s: &Shape, x: &Transform, dir: Vec2| {
                    let core = s.core().unwrap();
                    core.points
                        .iter()
                        .map(|p| x.transform_point(*p).dot(dir))
                        .fold(Real::NEG_INFINITY, Real::max)
                        + core.radius
                };
                // Projected gap along the K-fixed axis `u` (from K toward O): O's near side less
                // K's far side.
                let gap_at = |t: Real| {
                    let xk = pose_at(kx0.0, kx0.1, kx0.2, t);
                    let u = xk.rotation.rotate(u_local);
                    let (xa_t, xb_t) = (pose_at(&xa, la, aa, t), pose_at(&xb, lb, ab, t));
                    let ((sk, xk_t), (so, xo_t)) = if k_is_b {
                        ((sb, xb_t), (sa, xa_t))
                    } else {
                        ((sa, xa_t), (sb, xb_t))
                    };
                    -support(so, &xo_t, -u) - support(sk, &xk_t, u)
                };
                let start = gap_at(0.0);
                assert!((start - g0).abs() < 1e-9, "case {case}: {start} vs {g0}");
                let least = (0..=400)
                    .map(|i| gap_at(i as Real / 400.0) - start)
                    .fold(Real::INFINITY, Real::min);
                assert!(
                    floor <= least + 1e-9,
                    "case {case}: floor {floor} above the sampled least change {least}"
                );
                // The bound from the two ends is absolute, and meets the end value.
                assert!(
                    from_ends <= start + least + 1e-9,
                    "case {case}: floor from the ends {from_ends} above the sampled least gap {}",
                    start + least
                );
                let end = gap_at(1.0);
                assert!(from_ends <= end + 1e-9 && from_ends <= start + 1e-9);
                if turn <= 0.5 {
                    tight += usize::from(from_ends > start + floor);
                }
                checked += 1;
            }
        }
        assert!(checked > 7000, "{checked}");
        // For small turns the bound from the ends is the better one in most cases: it charges a
        // turn only at second order.
        assert!(tight > 1000, "{tight}");
    }

    /// The axis gap equals the shapes' distance when the closest features set the axis, and is a
    /// lower bound of it otherwise.
    #[test]
    fn the_axis_gap_is_exact_along_its_axis_and_bounds_the_distance() {
        let boxes = Shape::rectangle(1.0, 0.5).unwrap();
        let ball = Shape::circle(0.5).unwrap();
        let (g, n) = axis_gap(
            &boxes,
            &Transform::IDENTITY,
            &ball,
            &Transform::from_translation(Vec2::new(0.0, 1.25)),
        )
        .unwrap();
        assert!((g - 0.25).abs() < 1e-12 && (n - Vec2::Y).length() < 1e-12);
        // A ball off the box's corner: the axis runs from the corner to the centre.
        let (g, n) = axis_gap(
            &boxes,
            &Transform::IDENTITY,
            &ball,
            &Transform::from_translation(Vec2::new(2.0, 1.5)),
        )
        .unwrap();
        assert!((g - (2.0f64.sqrt() - 0.5)).abs() < 1e-12);
        assert!((n - Vec2::new(1.0, 1.0).normalize()).length() < 1e-12);
        // Two turned boxes: at most their distance.
        let xb = Transform::new(Vec2::new(2.4, 1.3), 0.7);
        let (g, _) = axis_gap(&boxes, &Transform::IDENTITY, &boxes, &xb).unwrap();
        let exact = crate::query::distance(&boxes, &Transform::IDENTITY, &boxes, &xb).distance;
        assert!(g <= exact + 1e-12 && g > 0.0, "{g} vs {exact}");
    }

    #[test]
    fn depth_is_the_inner_distance_of_simple_shapes() {
        assert!((depth(&Shape::rectangle(1.0, 0.25).unwrap()) - 0.25).abs() < 1e-12);
        assert!((depth(&Shape::circle(0.3).unwrap()) - 0.3).abs() < 1e-12);
        let seg = Shape::segment(Vec2::ZERO, Vec2::X).unwrap();
        assert_eq!(depth(&seg), 0.0);
    }
}
