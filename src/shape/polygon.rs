//! Convex polygons, optionally rounded: counter-clockwise vertices with outward unit normals.
//!
//! Stored inline (no heap) with at most [`MAX_POLYGON_VERTICES`] vertices, like Box2D's `b2Polygon`,
//! so a polygon is `Copy` and cache friendly. Constructors accept either winding, drop vertices that
//! lie on the segment between their neighbours, and reject everything that is not a convex outline.

use super::error::{
    check_length, check_non_negative, check_points_finite, check_positive, ShapeError,
};
use super::hull::{convex_hull_indices, point_set_tolerance};
use super::mass::{rounded_core_moments, MassProperties};
use crate::constants::MAX_POLYGON_VERTICES;
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};

/// A convex polygon in its local frame, with an optional rounding radius.
///
/// Vertices are counter-clockwise; `normals()[i]` is the outward unit normal of the edge from
/// vertex `i` to vertex `i + 1`. With a rounding radius `r > 0` the shape is the polygon grown by `r`
/// in every direction (its *core* is the polygon itself). Lengths in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::ShapeSpec", into = "super::ShapeSpec")
)]
#[repr(C)]
pub struct ConvexPolygon {
    // Laid out in this order (`repr(C)`): the count, radius and vertices that a bounding box
    // reads, together and first (right behind the shape's tag), not behind 512 bytes of vertex
    // and normal arrays (a box's bounding box reads two cache lines instead of four).
    pub(crate) count: usize,
    pub(crate) radius: Real,
    pub(crate) vertices: [Vec2; MAX_POLYGON_VERTICES],
    /// Radius of the core about the centroid (metres), without rounding.
    pub(crate) core_bound: Real,
    /// Edge normals on distinct lines (bit mask), see `Core::axes`.
    pub(crate) axes: u32,
    /// Set when the polygon is a rectangle, for the closed-form box–box kernel.
    pub(crate) box_frame: Option<BoxFrame>,
    pub(crate) centroid: Vec2,
    pub(crate) normals: [Vec2; MAX_POLYGON_VERTICES],
}

/// A rectangle's own frame inside its polygon's local frame: centre, rotation whose x axis is the
/// normal of edge 1, and half extents (metres). With this labelling vertex 0 is the (−x, −y)
/// corner and edges 0..3 have normals −y, +x, +y, −x, as for [`ConvexPolygon::rectangle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoxFrame {
    pub center: Vec2,
    pub rotation: crate::math::Rot,
    pub half: Vec2,
}

/// Cosine tolerance under which two edge normals of a quadrilateral count as perpendicular or
/// opposite when recognising a rectangle.
const RECTANGLE_TOLERANCE: Real = 1e-12;

fn detect_box(v: &[Vec2], n: &[Vec2]) -> Option<BoxFrame> {
    if v.len() != 4 {
        return None;
    }
    let square = n[0].dot(n[1]).abs() <= RECTANGLE_TOLERANCE
        && (n[0] + n[2]).length() <= RECTANGLE_TOLERANCE
        && (n[1] + n[3]).length() <= RECTANGLE_TOLERANCE;
    if !square {
        return None;
    }
    let center = 0.25 * (v[0] + v[1] + v[2] + v[3]);
    let (x, y) = (n[1], n[2]);
    Some(BoxFrame {
        center,
        rotation: crate::math::Rot { cos: x.x, sin: x.y },
        half: Vec2::new(x.dot(v[1] - center), y.dot(v[2] - center)),
    })
}

impl ConvexPolygon {
    /// A convex polygon from its outline, in either winding. The vertices are stored
    /// counter-clockwise starting from the first point given (the same order as given, when that
    /// is counter-clockwise).
    ///
    /// Vertices on the segment between their neighbours are dropped. Errors: non-finite
    /// coordinates, fewer than 3 points, duplicate points, all points collinear, a non-convex
    /// outline or points out of boundary order ([`ShapeError::NotConvex`], which points to
    /// [`ConvexPolygon::from_hull`] and [`Shape::concave`](crate::Shape::concave)), and more than
    /// [`MAX_POLYGON_VERTICES`] vertices.
    pub fn new(points: &[Vec2]) -> Result<Self, ShapeError> {
        // The checks below compare every pair of points: bounded before they run.
        if points.len() > super::MAX_OUTLINE_POINTS {
            return Err(ShapeError::TooManyPoints {
                what: "a convex polygon's outline (points)",
                count: points.len(),
                max: super::MAX_OUTLINE_POINTS,
                hint: "give its corners only (at most 16), or use Shape::convex_hull for a \
                       point cloud",
            });
        }
        check_points_finite(points)?;
        if points.len() < 3 {
            return Err(ShapeError::TooFewPoints {
                count: points.len(),
            });
        }
        let tol = point_set_tolerance(points);
        for i in 0..points.len() {
            for j in i + 1..points.len() {
                if points[i].distance(points[j]) <= tol {
                    return Err(ShapeError::DuplicatePoints {
                        first: i,
                        second: j,
                    });
                }
            }
        }
        let hull = convex_hull_indices(points);
        if hull.len() < 3 {
            return Err(ShapeError::Collinear);
        }
        // Every input point must be a hull vertex or lie on a hull edge, and the hull vertices must
        // appear in the input in boundary order (either winding).
        let on_hull = |i: usize| hull.contains(&i);
        for (i, p) in points.iter().enumerate() {
            if !on_hull(i) && !on_hull_boundary(points, &hull, *p, tol) {
                return Err(ShapeError::NotConvex { index: i });
            }
        }
        let kept: Vec<usize> = (0..points.len()).filter(|&i| on_hull(i)).collect();
        if !same_cycle(&kept, &hull) {
            let mut reversed = kept.clone();
            reversed.reverse();
            if !same_cycle(&reversed, &hull) {
                // Name the first input point whose successor on the outline is wrong.
                let index = first_out_of_order(&kept, &hull).unwrap_or(0);
                return Err(ShapeError::NotConvex { index });
            }
        }
        // A point on a hull edge must also sit between that edge's endpoints in the input order;
        // checking the cyclic order of the full input against the hull with edge points inserted
        // is covered by requiring the non-vertex points to lie on the edge joining their input
        // neighbours among the kept points.
        for (i, p) in points.iter().enumerate() {
            if on_hull(i) {
                continue;
            }
            let prev = (1..points.len())
                .map(|k| (i + points.len() - k) % points.len())
                .find(|&k| on_hull(k));
            let next = (1..points.len())
                .map(|k| (i + k) % points.len())
                .find(|&k| on_hull(k));
            if let (Some(a), Some(b)) = (prev, next) {
                if !on_segment(points[a], points[b], *p, tol) {
                    return Err(ShapeError::NotConvex { index: i });
                }
            }
        }
        // Counter-clockwise from the first input point that is a vertex, so a polygon given in
        // counter-clockwise order keeps its vertices (and their indices in feature ids) as given,
        // and a polygon written out and read back is the same to the bit.
        let start = hull.iter().position(|&i| i == kept[0]).unwrap_or(0);
        let hull_points: Vec<Vec2> = (0..hull.len())
            .map(|k| points[hull[(start + k) % hull.len()]])
            .collect();
        Self::from_ccw_unchecked(&hull_points)
    }

    /// The convex hull of `points` (any order; interior, duplicate and collinear points ignored).
    ///
    /// Errors: non-finite coordinates, fewer than 3 distinct points, collinear points, or a hull
    /// with more than [`MAX_POLYGON_VERTICES`] vertices.
    pub fn from_hull(points: &[Vec2]) -> Result<Self, ShapeError> {
        if points.len() > super::MAX_CHAIN_POINTS {
            return Err(ShapeError::TooManyPoints {
                what: "a convex hull's point cloud (points)",
                count: points.len(),
                max: super::MAX_CHAIN_POINTS,
                hint: "thin the cloud first",
            });
        }
        check_points_finite(points)?;
        let hull = convex_hull_indices(points);
        if hull.len() < 3 {
            let distinct = if points.is_empty() {
                0
            } else {
                hull.len().max(1)
            };
            return Err(if points.len() >= 3 && distinct >= 2 {
                ShapeError::Collinear
            } else {
                ShapeError::TooFewPoints { count: distinct }
            });
        }
        let hull_points: Vec<Vec2> = hull.iter().map(|&i| points[i]).collect();
        Self::from_ccw_unchecked(&hull_points)
    }

    /// A rectangle centred on the local origin, axis aligned, with the given half extents (metres).
    pub fn rectangle(half_width: Real, half_height: Real) -> Result<Self, ShapeError> {
        Self::oriented_rectangle(half_width, half_height, Vec2::ZERO, 0.0)
    }

    /// A rectangle with half extents (metres) centred at `center` and rotated by `angle` radians,
    /// both in the local frame: a box placed off-centre inside a body or a compound.
    pub fn oriented_rectangle(
        half_width: Real,
        half_height: Real,
        center: Vec2,
        angle: Real,
    ) -> Result<Self, ShapeError> {
        check_length("half_width", half_width)?;
        check_length("half_height", half_height)?;
        check_points_finite(&[center])?;
        if !angle.is_finite() {
            return Err(ShapeError::NonFinite {
                what: "angle".into(),
                value: angle,
            });
        }
        let xf = Transform::new(center, angle);
        let (w, h) = (half_width, half_height);
        let corners = [
            Vec2::new(-w, -h),
            Vec2::new(w, -h),
            Vec2::new(w, h),
            Vec2::new(-w, h),
        ]
        .map(|p| xf.transform_point(p));
        Self::from_ccw_unchecked(&corners)
    }

    /// A regular polygon with `sides` vertices on a circle of `circumradius` metres about the
    /// origin, the first vertex on the +x axis.
    pub fn regular(sides: usize, circumradius: Real) -> Result<Self, ShapeError> {
        check_length("circumradius", circumradius)?;
        if !(3..=MAX_POLYGON_VERTICES).contains(&sides) {
            return Err(ShapeError::BadSideCount {
                sides,
                max: MAX_POLYGON_VERTICES,
            });
        }
        let pts: Vec<Vec2> = (0..sides)
            .map(|i| {
                let a = core::f64::consts::TAU * i as Real / sides as Real;
                circumradius * Vec2::new(crate::trig::cos(a), crate::trig::sin(a))
            })
            .collect();
        Self::from_ccw_unchecked(&pts)
    }

    /// This polygon with a rounding radius (metres: 0 for sharp corners, else between 1e-4 and
    /// 1e5): the core grown by `radius` everywhere.
    pub fn with_radius(mut self, radius: Real) -> Result<Self, ShapeError> {
        check_non_negative("rounding radius", radius)?;
        if radius != 0.0
            && !(crate::constants::MIN_LENGTH..=crate::constants::MAX_LENGTH).contains(&radius)
        {
            return Err(ShapeError::OutOfRange {
                what: "rounding radius".into(),
                value: radius,
                expected: "0 (sharp corners) or between 1e-4 m and 1e5 m (MIN_LENGTH, MAX_LENGTH)",
            });
        }
        self.radius = radius;
        Ok(self)
    }

    /// Builds from strictly convex counter-clockwise points (checked only for count).
    pub(crate) fn from_ccw_unchecked(points: &[Vec2]) -> Result<Self, ShapeError> {
        let count = points.len();
        if count > MAX_POLYGON_VERTICES {
            return Err(ShapeError::TooManyVertices {
                count,
                max: MAX_POLYGON_VERTICES,
            });
        }
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        vertices[..count].copy_from_slice(points);
        for i in 0..count {
            let e = points[(i + 1) % count] - points[i];
            normals[i] = Vec2::new(e.y, -e.x).normalize();
        }
        let mut poly = Self {
            vertices,
            normals,
            count,
            centroid: Vec2::ZERO,
            radius: 0.0,
            box_frame: detect_box(&vertices[..count], &normals[..count]),
            core_bound: 0.0,
            axes: super::distinct_axes(&normals[..count]),
        };
        poly.centroid = rounded_core_moments(poly.vertices(), poly.normals(), 0.0)
            .finish(points[0], 1.0)
            .center;
        poly.core_bound = points
            .iter()
            .map(|p| p.distance(poly.centroid))
            .fold(0.0, Real::max);
        Ok(poly)
    }

    /// The vertices, counter-clockwise, in the local frame (metres).
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    /// The outward unit normals; `normals()[i]` belongs to the edge from vertex `i` to `i + 1`.
    #[inline]
    #[must_use]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }

    /// The area centroid of the core polygon in the local frame (metres).
    #[inline]
    #[must_use]
    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// The rectangle frame when this is a sharp rectangle (for the box–box kernel).
    #[inline]
    pub(crate) fn box_frame(&self) -> Option<&BoxFrame> {
        if self.radius == 0.0 {
            self.box_frame.as_ref()
        } else {
            None
        }
    }

    /// A circle holding the whole polygon, rounding included: (centre in the local frame, radius),
    /// metres. Centred on the centroid.
    #[inline]
    #[must_use]
    pub fn bounding_circle(&self) -> (Vec2, Real) {
        (self.centroid, self.core_bound + self.radius)
    }

    /// Bit mask of the edge normals that lie on distinct lines.
    #[inline]
    pub(crate) fn distinct_axes(&self) -> u32 {
        self.axes
    }

    /// The rounding radius (metres); zero for a sharp polygon.
    #[inline]
    #[must_use]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The polygon flipped in x (x → −x: a sprite flipped horizontally; mirror line is the local y
    /// axis). The vertex order is reversed so the winding stays counter-clockwise.
    #[must_use]
    pub fn mirrored_x(&self) -> Self {
        self.mirrored(Vec2::new(-1.0, 1.0))
    }

    /// The polygon flipped in y (y → −y: a sprite flipped vertically; mirror line is the local x
    /// axis). The vertex order is reversed so the winding stays counter-clockwise.
    #[must_use]
    pub fn mirrored_y(&self) -> Self {
        self.mirrored(Vec2::new(1.0, -1.0))
    }

    fn mirrored(&self, scale: Vec2) -> Self {
        let mut pts: Vec<Vec2> = self.vertices().iter().map(|v| *v * scale).collect();
        pts.reverse();
        let mut out = Self::from_ccw_unchecked(&pts).expect("mirroring keeps the vertex count");
        out.radius = self.radius;
        out
    }

    /// This polygon with every vertex moved by `xf` (a rigid motion of the outline itself).
    #[must_use]
    pub fn transformed(&self, xf: &Transform) -> Self {
        let pts: Vec<Vec2> = self
            .vertices()
            .iter()
            .map(|v| xf.transform_point(*v))
            .collect();
        let mut out =
            Self::from_ccw_unchecked(&pts).expect("a rigid motion keeps the vertex count");
        out.radius = self.radius;
        out
    }

    /// The bounding box of the polygon (rounding included) placed at `xf`, in world metres.
    #[must_use]
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        let mut lo = Vec2::splat(Real::INFINITY);
        let mut hi = Vec2::splat(Real::NEG_INFINITY);
        for v in self.vertices() {
            let w = xf.transform_point(*v);
            lo = lo.min(w);
            hi = hi.max(w);
        }
        Aabb { min: lo, max: hi }.grown(self.radius)
    }

    /// Mass properties for `density` kg/m², exact for the rounded outline.
    pub fn mass_properties(&self, density: Real) -> Result<MassProperties, ShapeError> {
        check_positive("density", density)?;
        Ok(
            rounded_core_moments(self.vertices(), self.normals(), self.radius)
                .finish(self.vertices[0], density),
        )
    }
}

/// Returns `true` if `p` lies on the segment `a`–`b` within `tol` metres.
fn on_segment(a: Vec2, b: Vec2, p: Vec2, tol: Real) -> bool {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    (a + t * ab).distance(p) <= tol
}

fn on_hull_boundary(points: &[Vec2], hull: &[usize], p: Vec2, tol: Real) -> bool {
    (0..hull.len()).any(|k| on_segment(points[hull[k]], points[hull[(k + 1) % hull.len()]], p, tol))
}

/// Whether `seq` is a cyclic rotation of `cycle`.
fn same_cycle(seq: &[usize], cycle: &[usize]) -> bool {
    if seq.len() != cycle.len() {
        return false;
    }
    let Some(offset) = seq.iter().position(|&i| i == cycle[0]) else {
        return false;
    };
    (0..seq.len()).all(|k| seq[(offset + k) % seq.len()] == cycle[k])
}

fn first_out_of_order(kept: &[usize], hull: &[usize]) -> Option<usize> {
    let pos = |i: usize| hull.iter().position(|&h| h == i);
    let n = kept.len();
    (0..n).find_map(|k| {
        let (a, b) = (pos(kept[k])?, pos(kept[(k + 1) % n])?);
        let fwd = (a + 1) % hull.len() == b;
        let back = (b + 1) % hull.len() == a;
        (!fwd && !back).then_some(kept[(k + 1) % n])
    })
}
