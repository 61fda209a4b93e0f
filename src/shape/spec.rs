//! The serialized form of a [`Shape`] (feature `serde`): the shape objects of the scene-file
//! schema in `docs/scenes.md`, `{"type": "circle", "radius": r}` and so on, plus the forms every
//! shape needs to round-trip (an offset circle, a rounded polygon, a concave outline, a compound).
//! Deserializing goes through the validating constructors, so a file can never hold a shape the
//! library would refuse (a non-convex polygon, a negative radius): the error says what is wrong.

use super::{Capsule, Circle, Compound, ConvexPolygon, Shape, ShapeError};
use crate::math::Vec2;
use crate::math::{Real, Transform};
use serde::{Deserialize, Serialize};

/// A shape as written in a scene file (local metres). `Shape` serializes to and from this form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// A disc of `radius` metres centred at `center` (default the origin).
    Circle {
        /// Radius (metres, > 0).
        radius: Real,
        /// Centre in the body frame (metres).
        #[serde(default, skip_serializing_if = "is_origin")]
        center: [Real; 2],
    },
    /// An axis-aligned rectangle centred on the origin with half extents `[w, h]` (metres, > 0).
    Rectangle {
        /// Half width and half height (metres).
        half_extents: [Real; 2],
    },
    /// A convex polygon (either winding), optionally rounded by `radius` metres.
    Polygon {
        /// Vertices in the body frame (metres).
        points: Vec<[Real; 2]>,
        /// Rounding radius (metres, ≥ 0; default 0).
        #[serde(default, skip_serializing_if = "is_zero")]
        radius: Real,
    },
    /// A capsule around the segment `a`–`b` with `radius` metres.
    Capsule {
        /// One end of the core segment (body frame, metres).
        a: [Real; 2],
        /// The other end.
        b: [Real; 2],
        /// Radius (metres, > 0).
        radius: Real,
    },
    /// A segment `a`–`b` (zero thickness, no mass; static terrain and thin walls).
    Segment {
        /// One end (body frame, metres).
        a: [Real; 2],
        /// The other end.
        b: [Real; 2],
    },
    /// A chain of segments through `points`, a loop when `closed` (terrain without ghost
    /// collisions at its vertices).
    Chain {
        /// The vertices in order (body frame, metres).
        points: Vec<[Real; 2]>,
        /// Whether the last point joins the first (default false).
        #[serde(default)]
        closed: bool,
    },
    /// A simple (possibly concave) outline, split into convex pieces on loading.
    Concave {
        /// The outline's vertices in order (body frame, metres).
        points: Vec<[Real; 2]>,
    },
    /// A rigid union of convex pieces, each placed in the body frame.
    Compound {
        /// The pieces.
        pieces: Vec<PieceSpec>,
    },
}

/// One piece of a [`ShapeSpec::Compound`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// Piece origin in the body frame (metres; default the origin).
    #[serde(default)]
    pub position: [Real; 2],
    /// Piece rotation (radians, counter-clockwise; default 0).
    #[serde(default)]
    pub angle: Real,
    /// The piece (not itself a compound).
    pub shape: ShapeSpec,
}

fn is_origin(p: &[Real; 2]) -> bool {
    p[0] == 0.0 && p[1] == 0.0
}

fn is_zero(r: &Real) -> bool {
    *r == 0.0
}

/// Decomposition work one scene file may ask for: the sum over its concave outlines of their
/// point counts cubed (the decomposition's cost grows about so), at most what one outline at
/// [`MAX_OUTLINE_POINTS`](super::MAX_OUTLINE_POINTS) costs (about 0.2 s). A 16 MiB file could
/// otherwise hold 1,300 such outlines, over four minutes of work.
pub const MAX_SCENE_DECOMPOSITION_WORK: u64 = (super::MAX_OUTLINE_POINTS as u64).pow(3);

thread_local! {
    /// Decomposition work left while a scene file is read on this thread (`None` outside one).
    static WORK_LEFT: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `read` (the reading of one scene file) with the decomposition budget in force.
pub(crate) fn with_scene_budget<R>(read: impl FnOnce() -> R) -> R {
    /// Restores the budget of an enclosing read, even if `read` unwinds.
    struct Restore(Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            WORK_LEFT.set(self.0);
        }
    }
    let _restore = Restore(WORK_LEFT.replace(Some(MAX_SCENE_DECOMPOSITION_WORK)));
    read()
}

/// Takes the work of decomposing an outline of `points` points from the budget, if one is in
/// force.
fn charge_decomposition(points: usize) -> Result<(), ShapeError> {
    let Some(left) = WORK_LEFT.get() else {
        return Ok(());
    };
    let cost = (points as u64).saturating_pow(3);
    if cost > left {
        return Err(ShapeError::TooManyPoints {
            what: "a scene file's decomposition work (its concave outlines' point counts cubed, summed)",
            count: (MAX_SCENE_DECOMPOSITION_WORK - left).saturating_add(cost) as usize,
            max: MAX_SCENE_DECOMPOSITION_WORK as usize,
            hint: "simplify the outlines, or give convex pieces as compounds",
        });
    }
    WORK_LEFT.set(Some(left - cost));
    Ok(())
}

fn points(ps: &[[Real; 2]]) -> Vec<Vec2> {
    ps.iter().map(|p| Vec2::from_array(*p)).collect()
}

impl TryFrom<ShapeSpec> for Shape {
    type Error = ShapeError;

    fn try_from(spec: ShapeSpec) -> Result<Shape, ShapeError> {
        match spec {
            ShapeSpec::Circle { radius, center } => {
                Circle::with_center(Vec2::from_array(center), radius).map(Shape::Circle)
            }
            ShapeSpec::Rectangle { half_extents } => {
                Shape::rectangle(half_extents[0], half_extents[1])
            }
            ShapeSpec::Polygon { points: p, radius } => {
                if radius == 0.0 {
                    Shape::polygon(&points(&p))
                } else {
                    Shape::rounded_polygon(&points(&p), radius)
                }
            }
            ShapeSpec::Capsule { a, b, radius } => {
                Shape::capsule(Vec2::from_array(a), Vec2::from_array(b), radius)
            }
            ShapeSpec::Segment { a, b } => Shape::segment(Vec2::from_array(a), Vec2::from_array(b)),
            ShapeSpec::Chain { points: p, closed } => Shape::chain(&points(&p), closed),
            ShapeSpec::Concave { points: p } => {
                if p.len() <= super::MAX_OUTLINE_POINTS {
                    charge_decomposition(p.len())?;
                }
                Shape::concave(&points(&p))
            }
            ShapeSpec::Compound { pieces } => {
                let mut built = Vec::with_capacity(pieces.len());
                for piece in pieces {
                    let xf = Transform::new(Vec2::from_array(piece.position), piece.angle);
                    built.push((xf, Shape::try_from(piece.shape)?));
                }
                Shape::compound(built)
            }
        }
    }
}

impl From<&Shape> for ShapeSpec {
    fn from(shape: &Shape) -> ShapeSpec {
        let arr = |v: Vec2| v.to_array();
        match shape {
            Shape::Circle(c) => ShapeSpec::Circle {
                radius: c.radius(),
                center: arr(c.center()),
            },
            Shape::Capsule(c) if c.radius() == 0.0 => ShapeSpec::Segment {
                a: arr(c.a()),
                b: arr(c.b()),
            },
            Shape::Compound(c) if c.is_chain() => {
                // Every piece of a chain is a segment (`Compound::is_chain`).
                let ends: Vec<(Vec2, Vec2)> = c
                    .pieces()
                    .iter()
                    .filter_map(|p| match &p.shape {
                        Shape::Capsule(s) => Some((
                            p.transform.transform_point(s.a()),
                            p.transform.transform_point(s.b()),
                        )),
                        _ => None,
                    })
                    .collect();
                let closed = c.pieces()[0].link.is_some_and(|l| l.prev.is_some());
                let mut pts: Vec<[Real; 2]> = ends.iter().map(|e| arr(e.0)).collect();
                if !closed {
                    pts.extend(ends.last().map(|e| arr(e.1)));
                }
                ShapeSpec::Chain {
                    points: pts,
                    closed,
                }
            }
            Shape::Capsule(c) => ShapeSpec::Capsule {
                a: arr(c.a()),
                b: arr(c.b()),
                radius: c.radius(),
            },
            Shape::Polygon(p) => ShapeSpec::Polygon {
                points: p.vertices().iter().map(|v| arr(*v)).collect(),
                radius: p.radius(),
            },
            Shape::Compound(c) => ShapeSpec::Compound {
                pieces: c
                    .pieces()
                    .iter()
                    .map(|piece| PieceSpec {
                        position: arr(piece.transform.translation),
                        angle: piece.transform.angle(),
                        shape: ShapeSpec::from(&piece.shape),
                    })
                    .collect(),
            },
        }
    }
}

impl From<Shape> for ShapeSpec {
    fn from(shape: Shape) -> ShapeSpec {
        ShapeSpec::from(&shape)
    }
}

/// Serde for the concrete shape types: the same form as [`Shape`], refused when the file holds a
/// different kind ("expected a circle, found a capsule").
macro_rules! concrete {
    ($ty:ident, $variant:ident, $name:literal) => {
        impl TryFrom<ShapeSpec> for $ty {
            type Error = ShapeError;

            fn try_from(spec: ShapeSpec) -> Result<$ty, ShapeError> {
                match Shape::try_from(spec)? {
                    Shape::$variant(s) => Ok(s),
                    other => Err(ShapeError::WrongKind {
                        expected: $name,
                        found: other.kind_name(),
                    }),
                }
            }
        }

        impl From<$ty> for ShapeSpec {
            fn from(s: $ty) -> ShapeSpec {
                ShapeSpec::from(&Shape::$variant(s))
            }
        }
    };
}

concrete!(Circle, Circle, "a circle");
concrete!(Capsule, Capsule, "a capsule");
concrete!(ConvexPolygon, Polygon, "a convex polygon");
concrete!(Compound, Compound, "a compound");
