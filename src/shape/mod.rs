//! Shapes: circles, capsules, convex polygons (optionally rounded) and compounds of them.
//!
//! Each convex shape is a *core* point set swept by a radius: a circle is one point plus its radius,
//! a capsule a segment plus its radius, a polygon its vertices plus an optional rounding radius (as
//! in Box2D v3). The narrow phase and the mass computation work on that core view, so one kernel
//! serves several shape pairs. A [`Compound`] is a union of convex pieces and is how concave bodies
//! are built. All coordinates are in the shape's local frame, in metres.

mod capsule;
mod circle;
mod compound;
mod decompose;
mod error;
#[cfg(feature = "serde")]
pub(crate) mod exact;
pub(crate) mod hull;
mod mass;
pub(crate) mod piece_index;
pub(crate) mod polygon;
#[cfg(feature = "serde")]
pub(crate) mod spec;

pub use capsule::Capsule;
pub use circle::Circle;
pub use compound::{
    Compound, CompoundPiece, MAX_CHAIN_POINTS, MAX_COMPOUND_PIECES, MAX_OUTLINE_POINTS,
};
pub use error::ShapeError;
pub use mass::MassProperties;
pub use polygon::ConvexPolygon;
#[cfg(feature = "serde")]
pub use spec::{PieceSpec, ShapeSpec, MAX_SCENE_DECOMPOSITION_WORK};

use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};

/// Any collision shape, in its local frame. Build one with the validating constructors
/// ([`Shape::circle`], [`Shape::polygon`], [`Shape::rectangle`], [`Shape::capsule`],
/// [`Shape::concave`], …), which return a [`ShapeError`] for bad input instead of panicking.
// Polygons are stored inline (up to 16 vertices and normals): one shape per body, and the narrow
// phase reads vertices without chasing a pointer, as Box2D's `b2Polygon` does. The tag is an
// explicit first byte (`repr(C, u8)`): left to the compiler it hid in a niche of the polygon's
// `box_frame`, 288 bytes in, so a box computation missed the cache twice, once on the tag and
// once on the vertices (see `docs/history/benchmarks.md`, "Dense scenes, eighth round").
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "ShapeSpec", into = "ShapeSpec")
)]
#[repr(C, u8)]
pub enum Shape {
    /// A disc.
    Circle(Circle),
    /// A segment swept by a radius.
    Capsule(Capsule),
    /// A convex polygon with an optional rounding radius.
    Polygon(ConvexPolygon),
    /// A union of convex pieces (concave shapes).
    Compound(Compound),
}

/// The rounded-core view of a convex shape that the kernels consume: counter-clockwise core points
/// (1 for a circle, 2 for a capsule, n for a polygon), the outward normal of each core edge `i → i+1`
/// (none for a circle) and the radius swept around the core. Local frame, metres.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Core<'a> {
    pub points: &'a [Vec2],
    pub normals: &'a [Vec2],
    pub radius: Real,
    /// Bit `i` set when `normals[i]` lies on a line no earlier normal lies on: projecting on the
    /// set bits covers every axis once (a box has two, a capsule one). [`ALL_AXES`] when unknown.
    pub axes: u32,
}

/// An axis mask with every normal set.
pub(crate) const ALL_AXES: u32 = u32::MAX;

/// The mask of distinct axis lines among `normals` (see [`Core::axes`]).
pub(crate) fn distinct_axes(normals: &[Vec2]) -> u32 {
    let mut mask = 0u32;
    for (i, n) in normals.iter().enumerate() {
        let repeat = normals[..i]
            .iter()
            .any(|m| m.perp_dot(*n).abs() <= DISTINCT_AXIS_SIN);
        if !repeat {
            mask |= 1 << i;
        }
    }
    mask
}

/// Sine under which two edge normals lie on the same line (parallel or opposite).
const DISTINCT_AXIS_SIN: Real = 1e-12;

impl Shape {
    /// A disc of `radius` metres centred at the local origin.
    pub fn circle(radius: Real) -> Result<Shape, ShapeError> {
        Circle::new(radius).map(Shape::Circle)
    }

    /// A convex polygon from its outline (either winding); see [`ConvexPolygon::new`] for the
    /// checks. For a concave outline use [`Shape::concave`]; for a point cloud,
    /// [`Shape::convex_hull`].
    pub fn polygon(points: &[Vec2]) -> Result<Shape, ShapeError> {
        ConvexPolygon::new(points).map(Shape::Polygon)
    }

    /// A convex polygon with a rounding radius (metres, ≥ 0).
    pub fn rounded_polygon(points: &[Vec2], radius: Real) -> Result<Shape, ShapeError> {
        ConvexPolygon::new(points)?
            .with_radius(radius)
            .map(Shape::Polygon)
    }

    /// The convex hull of a point cloud; see [`ConvexPolygon::from_hull`].
    pub fn convex_hull(points: &[Vec2]) -> Result<Shape, ShapeError> {
        ConvexPolygon::from_hull(points).map(Shape::Polygon)
    }

    /// An axis-aligned rectangle centred on the local origin with half extents in metres.
    pub fn rectangle(half_width: Real, half_height: Real) -> Result<Shape, ShapeError> {
        ConvexPolygon::rectangle(half_width, half_height).map(Shape::Polygon)
    }

    /// A rectangle with half extents (metres) centred at `center` and turned by `angle` radians in
    /// the local frame.
    pub fn oriented_rectangle(
        half_width: Real,
        half_height: Real,
        center: Vec2,
        angle: Real,
    ) -> Result<Shape, ShapeError> {
        ConvexPolygon::oriented_rectangle(half_width, half_height, center, angle)
            .map(Shape::Polygon)
    }

    /// A regular polygon with `sides` vertices on a circle of `circumradius` metres.
    pub fn regular_polygon(sides: usize, circumradius: Real) -> Result<Shape, ShapeError> {
        ConvexPolygon::regular(sides, circumradius).map(Shape::Polygon)
    }

    /// A capsule around the segment `a`–`b` (local metres) with `radius` metres.
    pub fn capsule(a: Vec2, b: Vec2, radius: Real) -> Result<Shape, ShapeError> {
        Capsule::new(a, b, radius).map(Shape::Capsule)
    }

    /// The segment `a`–`b` (local frame, metres): zero thickness, two-sided, no mass (for static
    /// terrain and thin walls; see [`Capsule::segment`]).
    pub fn segment(a: Vec2, b: Vec2) -> Result<Shape, ShapeError> {
        Capsule::segment(a, b).map(Shape::Capsule)
    }

    /// A chain of segments through `points`, closed into a loop when `closed`: terrain whose
    /// interior vertices a sliding body does not catch on; see [`Compound::chain`].
    pub fn chain(points: &[Vec2], closed: bool) -> Result<Shape, ShapeError> {
        Compound::chain(points, closed).map(Shape::Compound)
    }

    /// A concave (or convex) simple polygon, split into convex pieces; see
    /// [`Compound::decompose`].
    pub fn concave(points: &[Vec2]) -> Result<Shape, ShapeError> {
        Compound::decompose(points).map(Shape::Compound)
    }

    /// A compound of `(transform, shape)` pieces; see [`Compound::new`].
    pub fn compound(pieces: Vec<(Transform, Shape)>) -> Result<Shape, ShapeError> {
        Compound::new(pieces).map(Shape::Compound)
    }

    /// The kind of shape, for messages: `"a circle"`, `"a capsule"`, `"a convex polygon"` or
    /// `"a compound"`.
    #[must_use]
    pub fn kind_name(&self) -> &'static str {
        match self {
            Shape::Circle(_) => "a circle",
            Shape::Capsule(c) if c.radius() == 0.0 => "a segment",
            Shape::Capsule(_) => "a capsule",
            Shape::Polygon(_) => "a convex polygon",
            Shape::Compound(c) if c.is_chain() => "a chain",
            Shape::Compound(_) => "a compound",
        }
    }

    /// The bounding box of the shape placed at `xf` (world metres).
    #[must_use]
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        match self {
            Shape::Circle(c) => c.aabb(xf),
            Shape::Capsule(c) => c.aabb(xf),
            Shape::Polygon(p) => p.aabb(xf),
            Shape::Compound(c) => c.aabb(xf),
        }
    }

    /// Mass properties for `density` kg/m² (must be finite and positive), in the local frame.
    pub fn mass_properties(&self, density: Real) -> Result<MassProperties, ShapeError> {
        match self {
            Shape::Circle(c) => c.mass_properties(density),
            Shape::Capsule(c) => c.mass_properties(density),
            Shape::Polygon(p) => p.mass_properties(density),
            Shape::Compound(c) => c.mass_properties(density),
        }
    }

    /// The radius (metres) of the largest disc about the local point `p` that lies inside the
    /// shape: how far `p` is from the shape's boundary, 0 when `p` is outside or on it. For a
    /// compound of sharp polygons (a concave outline's pieces) it is the distance to the edges not
    /// shared with another piece; for other compounds, the largest over the pieces (a lower bound
    /// for the union). With `p` the centre of
    /// mass this is the body's *inner extent*, which the continuous pass compares motions with.
    #[must_use]
    pub fn inner_radius(&self, p: Vec2) -> Real {
        match self {
            Shape::Compound(c) => c.inner_radius(p),
            convex => {
                let core = convex.core().expect("convex shape");
                (core.radius - core_distance(&core, p)).max(0.0)
            }
        }
    }

    /// The largest distance (metres) from the local origin to any point of the shape: the radius
    /// of a bounding circle about the origin, used for early-outs and rotation bounds.
    #[must_use]
    pub fn bounding_radius(&self) -> Real {
        self.farthest_point(true)
    }

    /// The largest distance (metres) from the local origin to any point of the shape's *core*
    /// (for a compound, of any piece's core): the shape's [`bounding_radius`](Self::bounding_radius)
    /// less its rounding. A turn of `θ` about the origin moves the outline only through the core
    /// (the rounding is the same in every direction), so no point of the outline closes on another
    /// shape by more than `|θ|` times this: a disc turning about its centre approaches nothing.
    #[must_use]
    pub fn core_reach(&self) -> Real {
        self.farthest_point(false)
    }

    /// The largest distance (metres) from the local origin to any core point of any piece, plus
    /// that piece's rounding when `rounded`.
    fn farthest_point(&self, rounded: bool) -> Real {
        let piece = |core: &Core<'_>, place: &dyn Fn(Vec2) -> Vec2| {
            let r = core
                .points
                .iter()
                .map(|v| place(*v).length())
                .fold(0.0, Real::max);
            if rounded {
                r + core.radius
            } else {
                r
            }
        };
        match self {
            Shape::Compound(c) => c
                .pieces()
                .iter()
                .map(|p| {
                    let core = p.shape.core().expect("compound pieces are convex");
                    piece(&core, &|v| p.transform.transform_point(v))
                })
                .fold(0.0, Real::max),
            convex => piece(&convex.core().expect("convex shape"), &|v| v),
        }
    }

    /// A circle holding the whole shape: (centre in the local frame, radius), metres. Exact for
    /// circles and capsules, about the centroid for polygons, about the box centre for compounds.
    #[must_use]
    pub fn bounding_circle(&self) -> (Vec2, Real) {
        match self {
            Shape::Circle(c) => (c.center(), c.radius()),
            Shape::Capsule(c) => (
                0.5 * (c.a() + c.b()),
                0.5 * c.a().distance(c.b()) + c.radius(),
            ),
            Shape::Polygon(p) => p.bounding_circle(),
            Shape::Compound(c) => {
                let center = c.local_aabb().center();
                let r = c
                    .pieces()
                    .iter()
                    .map(|p| {
                        let (pc, pr) = p.shape.bounding_circle();
                        p.transform.transform_point(pc).distance(center) + pr
                    })
                    .fold(0.0, Real::max);
                (center, r)
            }
        }
    }

    /// The shape placed by `xf` within its own frame: every point `p` moved to `xf · p` (a rigid
    /// motion; a convex shape stays the same kind of shape).
    ///
    /// Errors: the moved shape leaves the range a shape may occupy (a circle's centre, a capsule's
    /// or a polygon's points beyond ±1e5 m of its origin, `MAX_LENGTH`) or `xf` is not finite.
    pub fn transformed(&self, xf: &Transform) -> Result<Shape, ShapeError> {
        Ok(match self {
            Shape::Circle(c) => Shape::Circle(Circle::with_center(
                xf.transform_point(c.center()),
                c.radius(),
            )?),
            // (`with_radius`: a segment is a capsule of radius 0, which `Capsule::new` refuses.)
            Shape::Capsule(c) => Shape::Capsule(Capsule::with_radius(
                xf.transform_point(c.a()),
                xf.transform_point(c.b()),
                c.radius(),
            )?),
            Shape::Polygon(p) => {
                // The constructors' check of the points: finite and within range.
                let moved = p.transformed(xf);
                error::check_points_finite(moved.vertices())?;
                Shape::Polygon(moved)
            }
            Shape::Compound(c) => {
                Shape::Compound(Compound::new(vec![(*xf, Shape::Compound(c.clone()))])?)
            }
        })
    }

    /// The shape moved by `offset` metres within its own frame (every point shifted).
    ///
    /// Errors: as [`Shape::transformed`].
    pub fn translated(&self, offset: Vec2) -> Result<Shape, ShapeError> {
        self.transformed(&Transform::from_translation(offset))
    }

    /// The shape flipped in x (x → −x, a horizontal sprite flip), winding kept counter-clockwise.
    #[must_use]
    pub fn mirrored_x(&self) -> Shape {
        self.mirrored(Vec2::new(-1.0, 1.0))
    }

    /// The shape flipped in y (y → −y, a vertical sprite flip), winding kept counter-clockwise.
    #[must_use]
    pub fn mirrored_y(&self) -> Shape {
        self.mirrored(Vec2::new(1.0, -1.0))
    }

    pub(crate) fn mirrored(&self, scale: Vec2) -> Shape {
        match self {
            Shape::Circle(c) => Shape::Circle(c.mirrored(scale)),
            Shape::Capsule(c) => Shape::Capsule(c.mirrored(scale)),
            Shape::Polygon(p) => Shape::Polygon(if scale.x < 0.0 {
                p.mirrored_x()
            } else {
                p.mirrored_y()
            }),
            Shape::Compound(c) => Shape::Compound(c.mirrored(scale)),
        }
    }

    /// Returns `true` for circles, capsules and polygons; `false` for compounds.
    #[inline]
    #[must_use]
    pub fn is_convex(&self) -> bool {
        !matches!(self, Shape::Compound(_))
    }

    /// The rounding radius swept around the core (metres): the radius of a circle or capsule, the
    /// rounding of a polygon, zero for a compound.
    #[must_use]
    pub fn radius(&self) -> Real {
        self.core().map_or(0.0, |c| c.radius)
    }

    /// The rounded-core view of a convex shape; `None` for a compound.
    #[inline(always)]
    pub(crate) fn core(&self) -> Option<Core<'_>> {
        match self {
            Shape::Circle(c) => Some(Core {
                points: c.core_points(),
                normals: &[],
                radius: c.radius(),
                axes: 0,
            }),
            Shape::Capsule(c) => Some(Core {
                points: c.core_points(),
                normals: c.core_normals(),
                radius: c.radius(),
                axes: 1,
            }),
            Shape::Polygon(p) => Some(Core {
                points: p.vertices(),
                normals: p.normals(),
                radius: p.radius(),
                axes: p.distinct_axes(),
            }),
            Shape::Compound(_) => None,
        }
    }
}

impl From<Circle> for Shape {
    fn from(c: Circle) -> Self {
        Shape::Circle(c)
    }
}
impl From<Capsule> for Shape {
    fn from(c: Capsule) -> Self {
        Shape::Capsule(c)
    }
}
impl From<ConvexPolygon> for Shape {
    fn from(p: ConvexPolygon) -> Self {
        Shape::Polygon(p)
    }
}
impl From<Compound> for Shape {
    fn from(c: Compound) -> Self {
        Shape::Compound(c)
    }
}

/// Signed distance (metres) from the point `p` to a core (point, segment or convex polygon, same
/// frame): negative inside a polygon core.
pub(crate) fn core_distance(core: &Core<'_>, p: Vec2) -> Real {
    let segment = |a: Vec2, b: Vec2| {
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        p.distance(a + t * ab)
    };
    match core.points {
        [c] => p.distance(*c),
        [a, b] => segment(*a, *b),
        points => {
            // Inside: the nearest face plane; outside: the nearest edge.
            let inside = core
                .normals
                .iter()
                .zip(points)
                .map(|(n, v)| n.dot(*v - p))
                .fold(Real::INFINITY, Real::min);
            if inside >= 0.0 {
                -inside
            } else {
                (0..points.len())
                    .map(|i| segment(points[i], points[(i + 1) % points.len()]))
                    .fold(Real::INFINITY, Real::min)
            }
        }
    }
}
