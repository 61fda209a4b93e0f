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
    let shape = build(raw, depth)?;
    check_stored(&shape)?;
    Ok(shape)
}

/// How far (relative to the shape's size, plus 1e-9 m) a stored normal, corner or box may be
/// from what the shape's points say: far above rounding (a moved shape's derived data is moved
/// with it, not recomputed), far below any real inconsistency.
const STORED_TOLERANCE: Real = 1e-9;

/// Checks what the kernels rely on in a shape read from its exact form (these bytes may be
/// forged): points and sizes within the constructors' ranges; unit normals that are the edges'
/// outward normals; a convex, counter-clockwise polygon with its centroid inside, its core radius
/// and rectangle frame matching its points and its axis mask naming only its own edges; a
/// capsule's normals perpendicular to its segment; compound pieces placed by rotations within
/// range, inside the compound's box.
fn check_stored(shape: &Shape) -> Result<(), String> {
    use super::error::{check_length, check_points_finite};
    use crate::constants::{MAX_LENGTH, MIN_LENGTH, ROTATION_TOLERANCE};
    let text = |e: super::ShapeError| e.to_string();
    let radius_ok = |r: Real| {
        if r == 0.0 {
            Ok(())
        } else {
            check_length("radius", r).map_err(text)
        }
    };
    let unit = |v: Vec2| (v.length() - 1.0).abs() <= ROTATION_TOLERANCE;
    match shape {
        Shape::Circle(c) => {
            check_points_finite(&[c.center]).map_err(text)?;
            check_length("radius", c.radius).map_err(text)?;
        }
        Shape::Capsule(c) => {
            check_points_finite(&c.points).map_err(text)?;
            radius_ok(c.radius)?;
            let along = c.points[1] - c.points[0];
            let tol =
                STORED_TOLERANCE * (1.0 + c.points[0].abs().max(c.points[1].abs()).max_element());
            let outward = Vec2::new(along.y, -along.x) / along.length();
            if along.length() < MIN_LENGTH
                || (c.normals[0] - outward).length() > tol.max(ROTATION_TOLERANCE)
                || (c.normals[1] + outward).length() > tol.max(ROTATION_TOLERANCE)
            {
                return Err("a segment shorter than 1e-4 m or with normals not its own".into());
            }
        }
        Shape::Polygon(p) => {
            let v = &p.vertices[..p.count];
            let n = &p.normals[..p.count];
            check_points_finite(v).map_err(text)?;
            radius_ok(p.radius)?;
            let scale = v
                .iter()
                .fold(0.0, |m: Real, q| m.max(q.abs().max_element()));
            let tol = STORED_TOLERANCE * (1.0 + scale);
            for i in 0..p.count {
                let edge = v[(i + 1) % p.count] - v[i];
                let length = edge.length();
                if length < MIN_LENGTH || !unit(n[i]) {
                    return Err(format!(
                        "polygon edge {i} is shorter than 1e-4 m or its normal is not unit"
                    ));
                }
                let outward = Vec2::new(edge.y, -edge.x) / length;
                if (n[i] - outward).length() > ROTATION_TOLERANCE.max(tol / length) {
                    return Err(format!(
                        "polygon normal {i} is not its edge's outward normal"
                    ));
                }
                // Convex: every other vertex strictly behind the edge.
                let behind = (0..p.count)
                    .filter(|&j| j != i && j != (i + 1) % p.count)
                    .all(|j| n[i].dot(v[j] - v[i]) < -tol);
                if !behind || n[i].dot(p.centroid - v[i]) >= 0.0 {
                    return Err(format!(
                        "the polygon is not convex (or its centroid is outside) at edge {i}"
                    ));
                }
            }
            let bound = v
                .iter()
                .fold(0.0, |m: Real, q| m.max(q.distance(p.centroid)));
            if (p.core_bound - bound).abs() > tol {
                return Err(format!(
                    "a core radius of {} m for points reaching {bound} m",
                    p.core_bound
                ));
            }
            let own_axes = if p.count >= 32 {
                u32::MAX
            } else {
                (1u32 << p.count) - 1
            };
            if p.axes != super::ALL_AXES && (p.axes == 0 || p.axes & !own_axes != 0) {
                return Err(format!("an axis mask {:#x} for {} edges", p.axes, p.count));
            }
            if let Some(b) = &p.box_frame {
                let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
                let fits = p.count == 4
                    && b.half.x > 0.0
                    && b.half.y > 0.0
                    && b.half.max_element() <= MAX_LENGTH
                    && unit(Vec2::new(b.rotation.cos, b.rotation.sin))
                    && corners.iter().zip(v).all(|(&(sx, sy), q)| {
                        let local = Vec2::new(sx * b.half.x, sy * b.half.y);
                        (b.center + b.rotation.rotate(local) - *q).length() <= tol
                    });
                if !fits {
                    return Err("a rectangle frame that is not the polygon's".into());
                }
            }
        }
        Shape::Compound(c) => {
            let b = &c.local_aabb;
            if !(b.min.x <= b.max.x && b.min.y <= b.max.y) {
                return Err("a compound box with its corners swapped".into());
            }
            for (i, piece) in c.pieces.iter().enumerate() {
                let xf = &piece.transform;
                check_points_finite(&[xf.translation]).map_err(text)?;
                if !unit(Vec2::new(xf.rotation.cos, xf.rotation.sin)) {
                    return Err(format!(
                        "piece {i} is placed by a rotation that is not unit"
                    ));
                }
                let own = piece.shape.aabb(xf);
                let tol = STORED_TOLERANCE * (1.0 + own.max.abs().max(own.min.abs()).max_element());
                if !b.grown(tol).contains(&own) {
                    return Err(format!("piece {i} lies outside the compound's box"));
                }
            }
        }
    }
    Ok(())
}

/// The shape a raw form describes, its own parts checked (each piece by [`from_raw`]).
fn build(raw: Raw, depth: usize) -> Result<Shape, String> {
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
            if pieces.is_empty() || pieces.len() > super::MAX_COMPOUND_PIECES {
                return Err(format!(
                    "a compound of {} pieces (1 to {})",
                    pieces.len(),
                    super::MAX_COMPOUND_PIECES
                ));
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
