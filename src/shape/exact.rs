//! A shape's exact serialized form, for world snapshots (feature `serde`): every stored field,
//! derived ones included (edge normals, centroid, box frame, bounds, chain links), so a restored
//! shape is the same to the bit as the one written. The scene-file form ([`super::ShapeSpec`])
//! rebuilds derived data from the outline and may store it differently (a shape moved to its
//! body's centre of mass keeps its pieces' offsets here, and is re-centred there), which is right
//! for files people write and wrong for continuing a simulation.
//!
//! Use as `#[serde(with = "crate::shape::exact")]` on a `Shape` field.

use super::compound::ChainLink;
use super::polygon::BoxFrame;
use super::{Capsule, Circle, Compound, CompoundPiece, ConvexPolygon, Shape};
use crate::math::{Aabb, Real, Rot, Transform, Vec2};
use crate::MAX_POLYGON_VERTICES;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Serialize, Deserialize)]
struct RawBox {
    center: Vec2,
    rotation: Rot,
    half: Vec2,
}

#[derive(Serialize, Deserialize)]
struct RawPolygon {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
    centroid: Vec2,
    radius: Real,
    box_frame: Option<RawBox>,
    core_bound: Real,
    axes: u32,
}

#[derive(Serialize, Deserialize)]
struct RawPiece {
    transform: Transform,
    shape: Raw,
    link: Option<(Option<Vec2>, Option<Vec2>)>,
}

#[derive(Serialize, Deserialize)]
enum Raw {
    Circle {
        center: Vec2,
        radius: Real,
    },
    Capsule {
        points: [Vec2; 2],
        normals: [Vec2; 2],
        radius: Real,
    },
    Polygon(RawPolygon),
    Compound {
        pieces: Vec<RawPiece>,
        local_aabb: Aabb,
    },
}

fn to_raw(shape: &Shape) -> Raw {
    match shape {
        Shape::Circle(c) => Raw::Circle {
            center: c.center,
            radius: c.radius,
        },
        Shape::Capsule(c) => Raw::Capsule {
            points: c.points,
            normals: c.normals,
            radius: c.radius,
        },
        Shape::Polygon(p) => Raw::Polygon(RawPolygon {
            vertices: p.vertices[..p.count].to_vec(),
            normals: p.normals[..p.count].to_vec(),
            centroid: p.centroid,
            radius: p.radius,
            box_frame: p.box_frame.map(|b| RawBox {
                center: b.center,
                rotation: b.rotation,
                half: b.half,
            }),
            core_bound: p.core_bound,
            axes: p.axes,
        }),
        Shape::Compound(c) => Raw::Compound {
            pieces: c
                .pieces
                .iter()
                .map(|p| RawPiece {
                    transform: p.transform,
                    shape: to_raw(&p.shape),
                    link: p.link.map(|l| (l.prev, l.next)),
                })
                .collect(),
            local_aabb: c.local_aabb,
        },
    }
}

fn from_raw(raw: Raw, depth: usize) -> Result<Shape, String> {
    Ok(match raw {
        Raw::Circle { center, radius } => Shape::Circle(Circle { center, radius }),
        Raw::Capsule {
            points,
            normals,
            radius,
        } => Shape::Capsule(Capsule {
            points,
            normals,
            radius,
        }),
        Raw::Polygon(p) => {
            let count = p.vertices.len();
            if !(3..=MAX_POLYGON_VERTICES).contains(&count) || p.normals.len() != count {
                return Err(format!(
                    "a polygon with {count} vertices and {} normals",
                    p.normals.len()
                ));
            }
            let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
            let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
            vertices[..count].copy_from_slice(&p.vertices);
            normals[..count].copy_from_slice(&p.normals);
            Shape::Polygon(ConvexPolygon {
                vertices,
                normals,
                count,
                centroid: p.centroid,
                radius: p.radius,
                box_frame: p.box_frame.map(|b| BoxFrame {
                    center: b.center,
                    rotation: b.rotation,
                    half: b.half,
                }),
                core_bound: p.core_bound,
                axes: p.axes,
            })
        }
        Raw::Compound { pieces, local_aabb } => {
            if depth > 0 {
                return Err("a compound inside a compound".into());
            }
            if pieces.is_empty() {
                return Err("a compound with no pieces".into());
            }
            let pieces = pieces
                .into_iter()
                .map(|p| {
                    Ok(CompoundPiece {
                        transform: p.transform,
                        shape: from_raw(p.shape, depth + 1)?,
                        link: p.link.map(|(prev, next)| ChainLink { prev, next }),
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Shape::Compound(Compound::assemble(pieces, local_aabb))
        }
    })
}

/// Writes `shape` in its exact form.
pub(crate) fn serialize<S: Serializer>(shape: &Shape, s: S) -> Result<S::Ok, S::Error> {
    to_raw(shape).serialize(s)
}

/// Reads a shape written by [`serialize`].
pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
    from_raw(Raw::deserialize(d)?, 0).map_err(serde::de::Error::custom)
}
