//! Compound shapes: several convex pieces at local transforms, acting as one rigid shape.
//!
//! This is how concave bodies are built: [`Compound::decompose`] splits a simple polygon into convex
//! pieces (see `decompose.rs`), and every query treats a compound as the union of its pieces.

use super::decompose::decompose_simple_polygon;
use super::error::{check_positive, ShapeError};
use super::mass::MassProperties;
use super::polygon::ConvexPolygon;
use super::Shape;
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};

/// One convex piece of a [`Compound`]: a circle, capsule or polygon placed by `transform`, which maps
/// the piece's frame into the compound's local frame.
#[derive(Clone, Debug, PartialEq)]
pub struct CompoundPiece {
    /// Piece frame → compound local frame.
    pub transform: Transform,
    /// The convex piece (never itself a compound).
    pub shape: Shape,
}

/// A rigid union of convex pieces, in one local frame (metres).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::ShapeSpec", into = "super::ShapeSpec")
)]
pub struct Compound {
    pieces: Vec<CompoundPiece>,
    local_aabb: Aabb,
}

impl Compound {
    /// A compound from `(transform, shape)` pieces, each transform mapping the piece into the
    /// compound's frame. Nested compounds are flattened (their transforms composed).
    ///
    /// Errors: no pieces ([`ShapeError::EmptyCompound`]) or a non-finite transform.
    pub fn new(pieces: Vec<(Transform, Shape)>) -> Result<Self, ShapeError> {
        let mut flat = Vec::with_capacity(pieces.len());
        for (i, (xf, shape)) in pieces.into_iter().enumerate() {
            if !xf.is_finite() {
                return Err(ShapeError::NonFinite {
                    what: format!("transform of piece {i}"),
                    value: if xf.translation.is_finite() {
                        xf.rotation.cos
                    } else {
                        xf.translation.x
                    },
                });
            }
            match shape {
                Shape::Compound(inner) => {
                    flat.extend(inner.pieces.into_iter().map(|p| CompoundPiece {
                        transform: xf * p.transform,
                        shape: p.shape,
                    }))
                }
                shape => flat.push(CompoundPiece {
                    transform: xf,
                    shape,
                }),
            }
        }
        Self::from_pieces(flat)
    }

    fn from_pieces(pieces: Vec<CompoundPiece>) -> Result<Self, ShapeError> {
        let local_aabb = pieces
            .iter()
            .map(|p| p.shape.aabb(&p.transform))
            .reduce(|a, b| a.union(&b))
            .ok_or(ShapeError::EmptyCompound)?;
        Ok(Self { pieces, local_aabb })
    }

    /// Splits a simple polygon outline (either winding, no self-intersection) into convex polygon
    /// pieces by ear clipping and Hertel–Mehlhorn merging.
    ///
    /// Errors: fewer than 3 points, non-finite or duplicate points, a self-intersecting outline
    /// (naming the two edges that meet), or zero area.
    pub fn decompose(points: &[Vec2]) -> Result<Self, ShapeError> {
        let pieces = decompose_simple_polygon(points)?
            .into_iter()
            .map(|pts| {
                ConvexPolygon::from_hull(&pts).map(|p| CompoundPiece {
                    transform: Transform::IDENTITY,
                    shape: Shape::Polygon(p),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::from_pieces(pieces)
    }

    /// The pieces, each with its transform into the compound's frame.
    #[inline]
    #[must_use]
    pub fn pieces(&self) -> &[CompoundPiece] {
        &self.pieces
    }

    /// The bounding box in the compound's own frame (metres).
    #[inline]
    #[must_use]
    pub fn local_aabb(&self) -> Aabb {
        self.local_aabb
    }

    /// The bounding box at `xf` (world metres): the union of the pieces' boxes.
    #[must_use]
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        self.pieces
            .iter()
            .map(|p| p.shape.aabb(&(*xf * p.transform)))
            .reduce(|a, b| a.union(&b))
            .unwrap_or(Aabb {
                min: xf.translation,
                max: xf.translation,
            })
    }

    /// Mass properties for `density` kg/m²: the pieces' properties combined by the parallel-axis
    /// theorem. Overlapping pieces count twice, as they would for separate fixtures.
    pub fn mass_properties(&self, density: Real) -> Result<MassProperties, ShapeError> {
        check_positive("density", density)?;
        let parts: Vec<MassProperties> = self
            .pieces
            .iter()
            .map(|p| {
                p.shape.mass_properties(density).map(|m| MassProperties {
                    center: p.transform.transform_point(m.center),
                    ..m
                })
            })
            .collect::<Result<_, _>>()?;
        let area: Real = parts.iter().map(|m| m.area).sum();
        let mass: Real = parts.iter().map(|m| m.mass).sum();
        let center = parts.iter().map(|m| m.mass * m.center).sum::<Vec2>() / mass;
        let inertia = parts
            .iter()
            .map(|m| m.inertia + m.mass * m.center.distance_squared(center))
            .sum();
        Ok(MassProperties {
            area,
            mass,
            center,
            inertia,
        })
    }

    /// The compound flipped by the per-axis `scale` (±1 each), every piece mirrored in place.
    pub(crate) fn mirrored(&self, scale: Vec2) -> Self {
        let pieces = self
            .pieces
            .iter()
            .map(|p| {
                // Mirror the piece's placement: M ∘ T ∘ M keeps a rigid transform (angle negated).
                let t = p.transform;
                let transform = Transform::new(t.translation * scale, -t.angle());
                CompoundPiece {
                    transform,
                    shape: p.shape.mirrored(scale),
                }
            })
            .collect();
        Self::from_pieces(pieces).expect("mirroring keeps the pieces")
    }
}
