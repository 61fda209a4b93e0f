//! The plane solver of the character mover: the surfaces met during one move are half-planes
//! `v · n ≥ 0` of the allowed moves (world frame, metres), and what is left of the move is
//! brought to the allowed move nearest to it.
//!
//! Method: in 2D the allowed moves form a convex cone with at most two edges. Its point nearest
//! to `v` is `v` itself when allowed, else lies on an edge (the projection of `v` onto one
//! plane's line that every other plane allows), else is the apex 0. Each plane carries the
//! direction it moves `v` along to reach its line: its normal (a true projection) or `up` for
//! ground the character stands on (the push into it is taken out vertically, so gravity does not
//! creep it down a gentle slope and a walk keeps its level speed up it). So the solver tries each
//! plane's correction, keeps the allowed one that changes `v` least, and returns 0 when none is
//! allowed: in a 90° corner a move into both walls stops instead of bouncing between them. With
//! only true projections this is exactly the nearest allowed move.

use crate::math::{Real, Vec2};

/// One surface as a constraint on the move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Plane {
    /// Unit normal (world), out of the surface: allowed moves have `v · normal ≥ 0`.
    pub normal: Vec2,
    /// The direction a move is corrected along to reach the plane (`along · normal > 0`).
    pub along: Vec2,
}

/// How far (relative to the move's length) a move may point into a plane and still count as
/// allowed: rounding of the projections, never more.
const ALLOWED_ROUNDING: Real = 1e-12;

/// The allowed move nearest to `v` (see the module notes).
pub(super) fn solve(planes: &[Plane], v: Vec2) -> Vec2 {
    let tolerance = ALLOWED_ROUNDING * v.length();
    let allowed = |w: Vec2| planes.iter().all(|p| w.dot(p.normal) >= -tolerance);
    if allowed(v) {
        return v;
    }
    let mut best: Option<(Real, Vec2)> = None;
    for p in planes {
        let into = v.dot(p.normal);
        if into >= 0.0 {
            continue;
        }
        let w = v - p.along * (into / p.along.dot(p.normal));
        let change = (w - v).length_squared();
        if allowed(w) && best.is_none_or(|(c, _)| change < c) {
            best = Some((change, w));
        }
    }
    best.map_or(Vec2::ZERO, |(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(normal: Vec2) -> Plane {
        Plane {
            normal,
            along: normal,
        }
    }

    #[test]
    fn a_move_into_one_wall_keeps_its_sliding_part() {
        let v = solve(&[wall(Vec2::new(-1.0, 0.0))], Vec2::new(3.0, 2.0));
        assert_eq!(v, Vec2::new(0.0, 2.0));
    }

    #[test]
    fn a_move_into_a_corner_stops() {
        let planes = [wall(Vec2::new(-1.0, 0.0)), wall(Vec2::Y)];
        assert_eq!(solve(&planes, Vec2::new(1.0, -0.1)), Vec2::ZERO);
        // Along the floor and away from the wall is allowed as it is.
        assert_eq!(solve(&planes, Vec2::new(-1.0, 0.0)), Vec2::new(-1.0, 0.0));
    }

    #[test]
    fn ground_takes_a_push_out_vertically() {
        // A 30° slope rising to the right; gravity alone leaves nothing, a walk keeps its
        // horizontal speed and rises along the slope.
        let (s, c) = (30f64.to_radians().sin(), 30f64.to_radians().cos());
        let ground = Plane {
            normal: Vec2::new(-s, c),
            along: Vec2::Y,
        };
        let still = solve(&[ground], Vec2::new(0.0, -0.1));
        assert!(still.length() < 1e-15, "{still}");
        let walk = solve(&[ground], Vec2::new(1.0, -0.1));
        assert!((walk.x - 1.0).abs() < 1e-15);
        assert!((walk.y - s / c).abs() < 1e-12);
    }

    #[test]
    fn a_closing_wedge_stops_a_move_into_it() {
        // A floor and a ceiling sloping down to meet it on the right: the projection onto the
        // ceiling, (0.5, -0.5), would go into the floor, so the move stops.
        let ceiling = Vec2::new(-1.0, -1.0).normalize();
        let planes = [wall(Vec2::Y), wall(ceiling)];
        assert_eq!(solve(&planes, Vec2::new(1.0, 0.0)), Vec2::ZERO);
        // Moving up-left out of the wedge is allowed unchanged.
        assert_eq!(solve(&planes, Vec2::new(-1.0, 0.5)), Vec2::new(-1.0, 0.5));
    }
}
