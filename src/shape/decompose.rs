//! Concave decomposition: a simple polygon split into convex pieces.
//!
//! Method: validate the outline (finite, no duplicates, no self-intersection: an O(n²) segment test),
//! orient it counter-clockwise and drop straight vertices; triangulate by ear clipping (Meisters'
//! two-ears theorem guarantees an ear exists at every step); then merge triangles across diagonals
//! while the union stays convex (Hertel–Mehlhorn), which yields at most 4× the optimal number of
//! pieces. Pieces are capped at [`MAX_POLYGON_VERTICES`] vertices.

use super::error::{check_points_finite, ShapeError};
use super::hull::{convex_hull_indices, left_distance, point_set_tolerance};
use crate::constants::MAX_POLYGON_VERTICES;
use crate::math::Real;
use crate::math::Vec2;

/// Splits the simple polygon `points` (either winding) into convex pieces, each a counter-clockwise
/// point list with 3 to [`MAX_POLYGON_VERTICES`] vertices.
pub(crate) fn decompose_simple_polygon(points: &[Vec2]) -> Result<Vec<Vec<Vec2>>, ShapeError> {
    let outline = validate_simple_outline(points)?;
    let tol = point_set_tolerance(&outline);
    let triangles = ear_clip(&outline, tol)?;
    let pieces = merge_convex(&outline, triangles, tol);
    Ok(pieces
        .into_iter()
        .map(|piece| piece.into_iter().map(|i| outline[i]).collect())
        .collect())
}

/// Checks the outline is simple and returns it counter-clockwise with straight vertices removed.
fn validate_simple_outline(points: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    check_points_finite(points)?;
    let n = points.len();
    if n < 3 {
        return Err(ShapeError::TooFewPoints { count: n });
    }
    let tol = point_set_tolerance(points);
    for i in 0..n {
        for j in i + 1..n {
            if points[i].distance(points[j]) <= tol {
                return Err(ShapeError::DuplicatePoints {
                    first: i,
                    second: j,
                });
            }
        }
    }
    if convex_hull_indices(points).len() < 3 {
        return Err(ShapeError::Collinear);
    }
    // Edge i runs from point i to point i+1.
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        // The next edge must not fold back onto this one.
        let c = points[(i + 2) % n];
        if left_distance(a, b, c).abs() <= tol && (b - a).dot(c - b) < 0.0 {
            return Err(ShapeError::SelfIntersecting {
                first_edge: i,
                second_edge: (i + 1) % n,
            });
        }
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue; // adjacent through the closing edge
            }
            if segments_meet(a, b, points[j], points[(j + 1) % n], tol) {
                return Err(ShapeError::SelfIntersecting {
                    first_edge: i,
                    second_edge: j,
                });
            }
        }
    }
    let twice_area: Real = (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum();
    let mut outline: Vec<Vec2> = points.to_vec();
    if twice_area < 0.0 {
        outline.reverse();
    }
    // Drop straight vertices (on the segment between their neighbours), repeatedly.
    let mut changed = true;
    while changed && outline.len() >= 3 {
        changed = false;
        let m = outline.len();
        for k in 0..m {
            let (a, b, c) = (outline[(k + m - 1) % m], outline[k], outline[(k + 1) % m]);
            if left_distance(a, c, b).abs() <= tol {
                outline.remove(k);
                changed = true;
                break;
            }
        }
    }
    if outline.len() < 3 {
        return Err(ShapeError::Collinear);
    }
    Ok(outline)
}

/// Closed segments `a–b` and `c–d` share a point (within `tol` metres).
fn segments_meet(a: Vec2, b: Vec2, c: Vec2, d: Vec2, tol: Real) -> bool {
    let d1 = left_distance(c, d, a);
    let d2 = left_distance(c, d, b);
    let d3 = left_distance(a, b, c);
    let d4 = left_distance(a, b, d);
    if ((d1 > tol && d2 < -tol) || (d1 < -tol && d2 > tol))
        && ((d3 > tol && d4 < -tol) || (d3 < -tol && d4 > tol))
    {
        return true;
    }
    let near = |p: Vec2, s0: Vec2, s1: Vec2| {
        let e = s1 - s0;
        let t = ((p - s0).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        (s0 + t * e).distance(p) <= tol
    };
    near(a, c, d) || near(b, c, d) || near(c, a, b) || near(d, a, b)
}

/// Triangulates a counter-clockwise simple outline by ear clipping. Returns index triples.
fn ear_clip(outline: &[Vec2], tol: Real) -> Result<Vec<Vec<usize>>, ShapeError> {
    let mut ring: Vec<usize> = (0..outline.len()).collect();
    let mut triangles = Vec::with_capacity(outline.len());
    while ring.len() > 3 {
        let m = ring.len();
        let ear = (0..m).find(|&k| {
            let (a, b, c) = (ring[(k + m - 1) % m], ring[k], ring[(k + 1) % m]);
            let (pa, pb, pc) = (outline[a], outline[b], outline[c]);
            if left_distance(pa, pb, pc) <= tol {
                return false; // reflex or straight
            }
            ring.iter()
                .filter(|&&i| i != a && i != b && i != c)
                .all(|&i| !in_triangle(pa, pb, pc, outline[i], tol))
        });
        let Some(k) = ear else {
            // Only possible when what is left has no area (all straight vertices).
            let rest: Real = (0..m)
                .map(|k| outline[ring[k]].perp_dot(outline[ring[(k + 1) % m]]))
                .sum();
            if rest.abs() <= tol * tol {
                break;
            }
            return Err(ShapeError::SelfIntersecting {
                first_edge: ring[0],
                second_edge: ring[m - 1],
            });
        };
        triangles.push(vec![ring[(k + m - 1) % m], ring[k], ring[(k + 1) % m]]);
        ring.remove(k);
    }
    if ring.len() == 3 {
        let (a, b, c) = (outline[ring[0]], outline[ring[1]], outline[ring[2]]);
        if left_distance(a, b, c) > tol {
            triangles.push(ring);
        }
    }
    Ok(triangles)
}

/// `p` inside or on the counter-clockwise triangle `a, b, c`.
fn in_triangle(a: Vec2, b: Vec2, c: Vec2, p: Vec2, tol: Real) -> bool {
    left_distance(a, b, p) >= -tol
        && left_distance(b, c, p) >= -tol
        && left_distance(c, a, p) >= -tol
}

/// Hertel–Mehlhorn: greedily removes diagonals whose two sides union to a convex piece.
fn merge_convex(outline: &[Vec2], mut pieces: Vec<Vec<usize>>, tol: Real) -> Vec<Vec<usize>> {
    loop {
        let mut merged = None;
        'search: for p in 0..pieces.len() {
            for q in p + 1..pieces.len() {
                if let Some(m) = try_merge(outline, &pieces[p], &pieces[q], tol) {
                    merged = Some((p, q, m));
                    break 'search;
                }
            }
        }
        match merged {
            Some((p, q, m)) => {
                pieces[p] = m;
                pieces.swap_remove(q);
            }
            None => return pieces,
        }
    }
}

/// The union of two pieces sharing an edge, if it is convex and small enough.
fn try_merge(outline: &[Vec2], p: &[usize], q: &[usize], tol: Real) -> Option<Vec<usize>> {
    let (np, nq) = (p.len(), q.len());
    for i in 0..np {
        let (u, v) = (p[i], p[(i + 1) % np]);
        // q must hold the same edge the other way round: v → u.
        let Some(j) = (0..nq).find(|&j| q[j] == v && q[(j + 1) % nq] == u) else {
            continue;
        };
        let mut m: Vec<usize> = (1..=np).map(|k| p[(i + k) % np]).collect(); // v … u
        m.extend((2..nq).map(|k| q[(j + k) % nq])); // q after u, up to before v
        let mut cleaned: Vec<usize> = Vec::with_capacity(m.len());
        let len = m.len();
        for k in 0..len {
            let (a, b, c) = (
                outline[m[(k + len - 1) % len]],
                outline[m[k]],
                outline[m[(k + 1) % len]],
            );
            let turn = left_distance(a, b, c);
            if turn < -tol {
                return None; // reflex: the union is not convex
            }
            if turn > tol {
                cleaned.push(m[k]);
            }
        }
        return (cleaned.len() <= MAX_POLYGON_VERTICES).then_some(cleaned);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(p: &[Vec2]) -> Real {
        0.5 * (0..p.len())
            .map(|i| p[i].perp_dot(p[(i + 1) % p.len()]))
            .sum::<Real>()
    }

    #[test]
    fn l_shape_splits_into_two_convex_pieces() {
        let l = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let pieces = decompose_simple_polygon(&l).unwrap();
        assert_eq!(pieces.len(), 2);
        let total: Real = pieces.iter().map(|p| area(p)).sum();
        assert!((total - 3.0).abs() < 1e-12);
    }

    #[test]
    fn clockwise_input_is_accepted() {
        let mut l = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        l.reverse();
        let pieces = decompose_simple_polygon(&l).unwrap();
        assert!(pieces.iter().all(|p| area(p) > 0.0));
    }

    #[test]
    fn bow_tie_is_rejected() {
        let bow = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
        ];
        assert!(matches!(
            decompose_simple_polygon(&bow),
            Err(ShapeError::SelfIntersecting { .. })
        ));
    }
}
