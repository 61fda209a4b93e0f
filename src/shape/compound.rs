//! Compound shapes: several convex pieces at local transforms, acting as one rigid shape.
//!
//! This is how concave bodies are built: [`Compound::decompose`] splits a simple polygon into convex
//! pieces (see `decompose.rs`), and every query treats a compound as the union of its pieces.

use super::decompose::decompose_simple_polygon;
use super::error::{check_positive, ShapeError};
use super::mass::MassProperties;
use super::piece_index::PieceIndex;
use super::polygon::ConvexPolygon;
use super::Shape;
use crate::math::Vec2;

/// How far outside an edge (as a fraction of the compound's box perimeter) the inner-radius test
/// probes for a neighbouring piece.
const INTERNAL_EDGE_PROBE: Real = 1e-9;
use crate::math::{Aabb, Real, Transform};

/// Most points a concave outline ([`Compound::decompose`], `Shape::concave`) may have, and most a
/// convex polygon's outline may give (its checks compare every pair): the decomposition's cost
/// grows about as n³, and a 500-point star takes about 0.2 s (1,000 points took 1.5 s).
pub const MAX_OUTLINE_POINTS: usize = 500;

/// Most points a chain takes (a chain this long and the static body holding it are built in
/// about 0.2 s; see `docs/reliability.md`, "Bounded work"). Larger terrain: several chains.
pub const MAX_CHAIN_POINTS: usize = 50_000;

/// Most pieces a compound holds (built with its body in about 0.4 s at this count).
pub const MAX_COMPOUND_PIECES: usize = 50_000;

/// One convex piece of a [`Compound`]: a circle, capsule or polygon placed by `transform`, which maps
/// the piece's frame into the compound's local frame.
// Laid out in this order (`repr(C)`): a box reads the transform and the shape's head together.
#[derive(Clone, Debug, PartialEq)]
#[repr(C)]
pub struct CompoundPiece {
    /// Piece frame → compound local frame.
    pub transform: Transform,
    /// The convex piece (never itself a compound).
    pub shape: Shape,
    /// For a segment of a chain: its neighbours' far ends (see [`ChainLink`]).
    pub(crate) link: Option<ChainLink>,
}

/// Where a chain segment's neighbours go, for ghost-collision removal (see `docs/shapes-and-filters.md`):
/// the vertex before the segment's first end and the one after its second end, in the piece's frame;
/// `None` at the open ends of a chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ChainLink {
    pub prev: Option<Vec2>,
    pub next: Option<Vec2>,
}

/// A box (compound frame) that holds the piece and stays a valid filter whatever the compound's
/// turn: the square of half side `√2·|h|` about the centre of the piece's box (half extents
/// `h`). If the piece's world box at any pose meets a world box `q`, its box centre lies within
/// `|h|` (per axis) of `q`, so within `√2·|h|` of `q` turned into the compound's frame: the
/// square then meets the compound-frame box around `q`'s turned corners. Asking the index with
/// that box finds a superset of the pieces whose world boxes meet `q`, which the caller then
/// tests exactly as a pass over every piece would.
fn turn_proof_box(p: &CompoundPiece) -> Aabb {
    let b = p.shape.aabb(&p.transform);
    let r = std::f64::consts::SQRT_2 * (0.5 * (b.max - b.min)).length();
    let c = b.center();
    Aabb::new(c - Vec2::splat(r), c + Vec2::splat(r))
}

/// Growth (metres) of a box turned into a compound's frame before its piece index is asked.
const LOCAL_BOX_ROUNDING: Real = 1e-9;

/// A rigid union of convex pieces, in one local frame (metres).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::ShapeSpec", into = "super::ShapeSpec")
)]
pub struct Compound {
    pub(crate) pieces: Vec<CompoundPiece>,
    pub(crate) local_aabb: Aabb,
    /// The pieces' boxes in a bounding-volume hierarchy (empty for a few pieces): what is near a
    /// box, without a pass over every piece (`piece_index.rs`).
    pub(crate) index: PieceIndex,
}

impl Compound {
    /// A compound from `(transform, shape)` pieces, each transform mapping the piece into the
    /// compound's frame. Nested compounds are flattened (their transforms composed).
    ///
    /// Errors: no pieces ([`ShapeError::EmptyCompound`]), a non-finite transform, a piece placed
    /// beyond ±1e5 m (`MAX_LENGTH`), or a transform whose rotation is not unit length.
    pub fn new(pieces: Vec<(Transform, Shape)>) -> Result<Self, ShapeError> {
        let count = pieces
            .iter()
            .map(|(_, s)| match s {
                Shape::Compound(inner) => inner.pieces.len(),
                _ => 1,
            })
            .sum::<usize>();
        if count > MAX_COMPOUND_PIECES {
            return Err(ShapeError::TooManyPoints {
                what: "a compound (pieces)",
                count,
                max: MAX_COMPOUND_PIECES,
                hint: "split it over several shapes or bodies",
            });
        }
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
            let far = xf.translation.x.abs().max(xf.translation.y.abs());
            if far > crate::constants::MAX_LENGTH {
                return Err(ShapeError::OutOfRange {
                    what: format!("a coordinate of piece {i}'s position"),
                    value: far,
                    expected: "within ±1e5 m of the compound's origin (MAX_LENGTH)",
                });
            }
            let length = crate::trig::length(xf.rotation.cos, xf.rotation.sin);
            if (length - 1.0).abs() > crate::constants::ROTATION_TOLERANCE {
                return Err(ShapeError::OutOfRange {
                    what: format!("the length of piece {i}'s rotation (cos, sin)"),
                    value: length,
                    expected: "1 within 1e-9 (a rotation, not a scale: build it with \
                               Rot::from_angle)",
                });
            }
            match shape {
                Shape::Compound(inner) => {
                    flat.extend(inner.pieces.into_iter().map(|p| CompoundPiece {
                        transform: xf * p.transform,
                        ..p
                    }))
                }
                shape => flat.push(CompoundPiece {
                    transform: xf,
                    shape,
                    link: None,
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
        Ok(Self::assemble(pieces, local_aabb))
    }

    /// The compound of `pieces` (not empty) whose box in its own frame is `local_aabb`, with its
    /// piece index built over each piece's *turn-proof box* (`turn_proof_box`).
    pub(crate) fn assemble(pieces: Vec<CompoundPiece>, local_aabb: Aabb) -> Self {
        let index = PieceIndex::build(pieces.iter().map(turn_proof_box).collect());
        Self {
            pieces,
            local_aabb,
            index,
        }
    }

    /// A chain of segments through `points` (local frame, metres), closed into a loop when
    /// `closed`: terrain. Each segment knows its neighbours, so a body sliding across an interior
    /// vertex does not catch on it (ghost-collision removal, `docs/shapes-and-filters.md`).
    /// Segments are two-sided.
    ///
    /// Errors: fewer than 2 points (3 for a loop), non-finite points, or two consecutive points
    /// that coincide.
    pub fn chain(points: &[Vec2], closed: bool) -> Result<Self, ShapeError> {
        let n = points.len();
        if n > MAX_CHAIN_POINTS {
            return Err(ShapeError::TooManyPoints {
                what: "a chain (points)",
                count: n,
                max: MAX_CHAIN_POINTS,
                hint: "split the terrain into several chains",
            });
        }
        let least = if closed { 3 } else { 2 };
        if n < least {
            return Err(ShapeError::TooFewChainPoints {
                needed: least,
                kind: if closed { "closed" } else { "open" },
                got: n,
            });
        }
        let segments = if closed { n } else { n - 1 };
        let at = |i: usize| points[i % n];
        let mut pieces = Vec::with_capacity(segments);
        for i in 0..segments {
            let (a, b) = (at(i), at(i + 1));
            let shape = super::Capsule::segment(a, b).map_err(|e| match e {
                ShapeError::ZeroLength => ShapeError::DuplicatePoints {
                    first: i,
                    second: (i + 1) % n,
                },
                other => other,
            })?;
            let prev = (closed || i > 0).then(|| at(i + n - 1));
            let next = (closed || i + 2 < n).then(|| at(i + 2));
            pieces.push(CompoundPiece {
                transform: Transform::IDENTITY,
                shape: Shape::Capsule(shape),
                link: Some(ChainLink { prev, next }),
            });
        }
        Self::from_pieces(pieces)
    }

    /// Whether this compound is a chain (every piece a linked segment).
    #[must_use]
    pub fn is_chain(&self) -> bool {
        self.pieces
            .iter()
            .all(|p| p.link.is_some() && matches!(p.shape, Shape::Capsule(_)))
    }

    /// Splits a simple polygon outline (either winding, no self-intersection) into convex polygon
    /// pieces by ear clipping and Hertel–Mehlhorn merging.
    ///
    /// Errors: fewer than 3 points, non-finite or duplicate points, a self-intersecting outline
    /// (naming the two edges that meet), or zero area.
    pub fn decompose(points: &[Vec2]) -> Result<Self, ShapeError> {
        // The decomposition's cost grows about as n³ (5,000 points took 73 s): capped.
        if points.len() > MAX_OUTLINE_POINTS {
            return Err(ShapeError::TooManyOutlinePoints {
                count: points.len(),
                max: MAX_OUTLINE_POINTS,
            });
        }
        let pieces = decompose_simple_polygon(points)?
            .into_iter()
            .map(|pts| {
                ConvexPolygon::from_hull(&pts).map(|p| CompoundPiece {
                    transform: Transform::IDENTITY,
                    shape: Shape::Polygon(p),
                    link: None,
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

    /// The box, in this compound's frame placed at `x`, of the corners of world box `b` (a box
    /// holding `b` seen from that frame, grown by a nanometre against rounding): what its piece
    /// index is asked with for the pieces whose world boxes may meet `b`.
    pub(crate) fn local_box(&self, b: &Aabb, x: &Transform) -> Aabb {
        let corners = [
            b.min,
            Vec2::new(b.max.x, b.min.y),
            b.max,
            Vec2::new(b.min.x, b.max.y),
        ]
        .map(|c| x.inv_transform_point(c));
        Aabb::from_points(&corners)
            .expect("four corners")
            .grown(LOCAL_BOX_ROUNDING)
    }

    /// A lower bound (metres) of the distance from anything world box `b` holds to the compound
    /// placed at `x`, asked through the piece index (0 when `b` may touch a piece); `None` when the
    /// compound keeps no index. A ground of many tiles is far from a body between its tiles even
    /// where its own box holds the body.
    pub(crate) fn gap_bound(&self, x: &Transform, b: &Aabb) -> Option<Real> {
        self.index
            .is_built()
            .then(|| self.index.least_box_gap(&self.local_box(b, x)))
    }

    /// Whether the world box (metres) of some piece, with the compound placed at `x`, meets world
    /// box `b`; `None` when the compound keeps no piece index (the caller then decides by the
    /// whole compound's box). Costs about log n + k for n pieces and k near `b`.
    pub(crate) fn some_piece_meets(&self, x: &Transform, b: &Aabb) -> Option<bool> {
        if !self.index.is_built() {
            return None;
        }
        let near = self.local_box(b, x);
        Some(self.index.any(&near, |i| {
            let p = &self.pieces[i];
            p.shape.aabb(&(*x * p.transform)).overlaps(b)
        }))
    }

    /// See [`Shape::inner_radius`]: the distance (metres) from the compound-frame point `p` to the
    /// union's boundary, 0 outside.
    pub(crate) fn inner_radius(&self, p: Vec2) -> Real {
        self.inner_radii(&[p])[0]
    }

    /// [`Compound::inner_radius`] at each of `points` (compound frame), the union's outline
    /// found once for all of them.
    pub(crate) fn inner_radii(&self, points: &[Vec2]) -> Vec<Real> {
        let pieces = self.pieces();
        let sharp: Option<Vec<(Transform, &ConvexPolygon)>> = pieces
            .iter()
            .map(|piece| match &piece.shape {
                Shape::Polygon(poly) if poly.radius() == 0.0 => Some((piece.transform, poly)),
                _ => None,
            })
            .collect();
        let Some(polys) = sharp else {
            // Rounded or curved pieces: the deepest single piece (a lower bound). A piece whose
            // index box does not hold the point gives 0, so only those that do are asked.
            let mut near = Vec::new();
            return points
                .iter()
                .map(|&p| {
                    let depth = |k: usize| {
                        let piece = &pieces[k];
                        piece
                            .shape
                            .inner_radius(piece.transform.inv_transform_point(p))
                    };
                    if self.index.is_built() {
                        near.clear();
                        self.index.query(&Aabb::new(p, p), &mut near);
                        near.iter().map(|&k| depth(k as usize)).fold(0.0, Real::max)
                    } else {
                        (0..pieces.len()).map(depth).fold(0.0, Real::max)
                    }
                })
                .collect();
        };
        // Whether `q` lies in some piece other than `skip`: the pieces whose index boxes hold it
        // (all of them without an index), each tested exactly.
        let mut near = Vec::new();
        let mut inside = |q: Vec2, skip: usize| {
            let in_piece = |k: usize| {
                let (xf, poly) = &polys[k];
                let local = xf.inv_transform_point(q);
                let v = poly.vertices();
                (0..v.len()).all(|i| (v[(i + 1) % v.len()] - v[i]).perp_dot(local - v[i]) >= 0.0)
            };
            if self.index.is_built() {
                near.clear();
                self.index.query(&Aabb::new(q, q), &mut near);
                near.iter()
                    .any(|&k| k as usize != skip && in_piece(k as usize))
            } else {
                (0..polys.len()).any(|k| k != skip && in_piece(k))
            }
        };
        // An edge is external unless points just outside it, along its length, all lie in
        // another piece (a diagonal the decomposition cut). Partly covered edges count as
        // external: the result can only be smaller than the true distance.
        let scale = self.local_aabb().perimeter();
        // The external edges, grouped by piece (`first[k]..first[k + 1]` are piece k's).
        let mut outline = Vec::new();
        let mut first = Vec::with_capacity(polys.len() + 1);
        for (k, (xf, poly)) in polys.iter().enumerate() {
            first.push(outline.len());
            let v = poly.vertices();
            for i in 0..v.len() {
                let (a, b) = (
                    xf.transform_point(v[i]),
                    xf.transform_point(v[(i + 1) % v.len()]),
                );
                let out = (b - a).perp().normalize_or_zero() * -(INTERNAL_EDGE_PROBE * scale);
                let covered = [0.1, 0.5, 0.9]
                    .iter()
                    .all(|&f| inside(a.lerp(b, f) + out, k));
                if !covered {
                    outline.push((a, b));
                }
            }
        }
        first.push(outline.len());
        let nearest = |p: Vec2, edges: &[(Vec2, Vec2)]| {
            edges
                .iter()
                .map(|&(a, b)| {
                    let ab = b - a;
                    let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
                    p.distance(a + t * ab)
                })
                .fold(Real::INFINITY, Real::min)
        };
        let mut pieces_near = Vec::new();
        points
            .iter()
            .map(|&p| {
                if !inside(p, usize::MAX) {
                    return 0.0;
                }
                if !self.index.is_built() {
                    return nearest(p, &outline);
                }
                // The nearest external edge through the index: the edges of the pieces whose
                // boxes meet a box of half side `r` about `p` hold every edge within `r` of it,
                // so a nearest one found within `r` is the nearest of all (the same minimum, to
                // the bit, as a pass over every edge). `r` doubles from a small start.
                let mut r = 1e-3 * scale;
                loop {
                    pieces_near.clear();
                    self.index
                        .query(&Aabb::new(p, p).grown(r), &mut pieces_near);
                    let best = pieces_near
                        .iter()
                        .map(|&k| nearest(p, &outline[first[k as usize]..first[k as usize + 1]]))
                        .fold(Real::INFINITY, Real::min);
                    if best <= r || r > scale {
                        break best;
                    }
                    r *= 2.0;
                }
            })
            .collect()
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
        let center = if mass > 0.0 {
            parts.iter().map(|m| m.mass * m.center).sum::<Vec2>() / mass
        } else {
            // No area (a chain of segments): the mean of the pieces' centres.
            parts.iter().map(|m| m.center).sum::<Vec2>() / parts.len() as Real
        };
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
                // The neighbours' ends, in the piece's frame, mirror with it (the piece's own
                // frame is mirrored about its origin).
                let flip = |v: Option<Vec2>| v.map(|v| v * scale);
                CompoundPiece {
                    transform,
                    shape: p.shape.mirrored(scale),
                    link: p.link.map(|l| ChainLink {
                        prev: flip(l.prev),
                        next: flip(l.next),
                    }),
                }
            })
            .collect();
        Self::from_pieces(pieces).expect("mirroring keeps the pieces")
    }
}
