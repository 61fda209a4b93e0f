//! Result types of the static queries: [`Contact`] (the MTV plus a manifold) and feature ids.

use crate::math::Vec2;
use crate::math::{Real, Transform};

/// The most points a manifold between two convex shapes holds.
pub const MAX_MANIFOLD_POINTS: usize = 2;

/// Identifies the pair of features that produced a manifold point (for clipped polygon points: a
/// vertex of one shape and the edge of the other it touches), so a solver can match points from
/// one step to the next for warm starting. Stable while the same features touch, including when
/// a near-flush pair swaps which shape provides the reference face.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FeatureId(u32);

impl FeatureId {
    /// The packed id: compare ids for equality, do not decode them (the packing may change).
    #[inline]
    #[must_use]
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// Packs a reference feature of one shape and an incident feature of the other; `flip` says
    /// the reference was shape B. `piece` distinguishes compound pieces.
    #[inline]
    #[must_use]
    pub(crate) const fn new(reference: u8, incident: u8, flip: bool) -> Self {
        Self((reference as u32) | ((incident as u32) << 8) | ((flip as u32) << 16))
    }

    /// The vertex `a` of shape A and the vertex `b` of shape B at one end of two touching edges
    /// (a clipped manifold point). Tagged by bit 17, so it never equals an id of another kind.
    #[inline]
    #[must_use]
    pub(crate) const fn vertex_pair(a: u8, b: u8) -> Self {
        Self((a as u32) | ((b as u32) << 8) | (1 << 17))
    }

    /// The same id tagged with the compound piece indices it came from.
    #[inline]
    #[must_use]
    pub(crate) const fn with_pieces(self, piece_a: usize, piece_b: usize) -> Self {
        Self(self.0 ^ (((piece_a as u32 & 0x3f) << 20) | ((piece_b as u32 & 0x3f) << 26)))
    }
}

/// The contact between two intersecting shapes: the minimum translation vector (MTV) and a manifold.
///
/// * `normal` is a unit vector in the world frame pointing from shape A toward shape B.
/// * `depth ≥ 0` (metres): translating B by `normal * depth` (or A by `-normal * depth`) leaves the
///   shapes exactly touching. Touching shapes have `depth == 0`.
/// * [`Contact::points`] are 1 or 2 world points where the shapes touch or overlap, each halfway
///   between the two surfaces, with their own depth along `normal` in [`Contact::point_depths`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Unit MTV direction, world frame, from A toward B.
    pub normal: Vec2,
    /// Penetration depth along `normal` (metres, ≥ 0).
    pub depth: Real,
    points: [Vec2; MAX_MANIFOLD_POINTS],
    point_depths: [Real; MAX_MANIFOLD_POINTS],
    ids: [FeatureId; MAX_MANIFOLD_POINTS],
    count: usize,
}

impl Contact {
    /// The manifold points in world space (metres), 1 or 2 of them.
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }

    /// The penetration depth (metres) at each manifold point, along `normal`; matches
    /// [`Contact::points`] index for index.
    #[inline]
    #[must_use]
    pub fn point_depths(&self) -> &[Real] {
        &self.point_depths[..self.count]
    }

    /// The feature id of each manifold point; matches [`Contact::points`] index for index.
    #[inline]
    #[must_use]
    pub fn feature_ids(&self) -> &[FeatureId] {
        &self.ids[..self.count]
    }

    /// Tags every point's feature id with the compound pieces it came from.
    pub(crate) fn tag_pieces(&mut self, piece_a: usize, piece_b: usize) {
        for id in &mut self.ids[..self.count] {
            *id = id.with_pieces(piece_a, piece_b);
        }
    }

    /// The same contact seen with A and B swapped: the normal flips, points stay.
    #[must_use]
    pub fn flipped(&self) -> Self {
        Self {
            normal: -self.normal,
            ..*self
        }
    }
}

/// One manifold point in A's local frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LocalPoint {
    /// Halfway between the surfaces, A's frame (metres).
    pub point: Vec2,
    /// Signed distance between the surfaces along the normal (metres): negative when overlapping.
    pub separation: Real,
    pub id: FeatureId,
}

/// A manifold between two convex shapes in A's local frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LocalManifold {
    /// Unit normal from A toward B, A's frame.
    pub normal: Vec2,
    /// Signed distance of the pair (metres): −depth of the MTV when overlapping.
    pub separation: Real,
    pub points: [LocalPoint; MAX_MANIFOLD_POINTS],
    pub count: usize,
}

impl LocalManifold {
    /// A manifold with a single point.
    #[inline]
    pub fn single(normal: Vec2, separation: Real, point: Vec2, id: FeatureId) -> Self {
        // Built whole (no write into a default afterwards): the copies of the result that follow
        // then read what was stored in one piece.
        let first = LocalPoint {
            point,
            separation,
            id,
        };
        Self {
            normal,
            separation,
            points: [first, LocalPoint::default()],
            count: 1,
        }
    }

    /// A manifold computed with the shapes' roles swapped (in B's frame, normal from B to A), turned
    /// into A's frame: `b_in_a` maps B's frame into A's; the normal is flipped.
    #[inline]
    pub fn swapped_into(self, b_in_a: &Transform) -> Self {
        self.rebuilt(-b_in_a.transform_vector(self.normal), |p| LocalPoint {
            point: b_in_a.transform_point(p.point),
            separation: p.separation,
            id: FeatureId(p.id.0 ^ (1 << 16)),
        })
    }

    /// This manifold with `normal` and each of its `count` points passed through `f` (the unused
    /// slot as it was). Built whole, not changed in place: a manifold whose fields were just
    /// stored one by one and is then copied out whole stalls the copy (see
    /// [`LocalManifold::world_contact`]).
    #[inline(always)]
    pub fn rebuilt(&self, normal: Vec2, f: impl Fn(LocalPoint) -> LocalPoint) -> Self {
        let at = |k: usize| {
            if k < self.count {
                f(self.points[k])
            } else {
                self.points[k]
            }
        };
        Self {
            normal,
            separation: self.separation,
            points: [at(0), at(1)],
            count: self.count,
        }
    }

    /// The world-space [`Contact`] of an overlapping manifold, keeping the points whose separation
    /// is at most `keep` metres (always at least the deepest one). By reference: a manifold just
    /// built field by field and then copied whole into an argument stalls the copy (the store
    /// cannot be forwarded to the wider load), about a third of a box–circle query's time.
    #[inline]
    pub fn world_contact(&self, xa: &Transform, keep: Real) -> Contact {
        if self.count == 1 {
            // One point is kept whatever its depth: the contact is built whole, with no write at
            // a computed index (such a write stalls the copy of the result that follows).
            let p = &self.points[0];
            return Contact {
                normal: xa.transform_vector(self.normal),
                depth: (-self.separation).max(0.0),
                points: [xa.transform_point(p.point), Vec2::ZERO],
                point_depths: [(-p.separation).max(0.0), 0.0],
                ids: [p.id, FeatureId::default()],
                count: 1,
            };
        }
        let mut c = Contact {
            normal: xa.transform_vector(self.normal),
            depth: (-self.separation).max(0.0),
            points: [Vec2::ZERO; MAX_MANIFOLD_POINTS],
            point_depths: [0.0; MAX_MANIFOLD_POINTS],
            ids: [FeatureId::default(); MAX_MANIFOLD_POINTS],
            count: 0,
        };
        let pts = &self.points[..self.count];
        for p in pts.iter().filter(|p| p.separation <= keep) {
            c.points[c.count] = xa.transform_point(p.point);
            c.point_depths[c.count] = (-p.separation).max(0.0);
            c.ids[c.count] = p.id;
            c.count += 1;
        }
        if c.count == 0 {
            if let Some(p) = pts
                .iter()
                .min_by(|a, b| a.separation.total_cmp(&b.separation))
            {
                c.points[0] = xa.transform_point(p.point);
                c.point_depths[0] = (-p.separation).max(0.0);
                c.ids[0] = p.id;
                c.count = 1;
            }
        }
        c
    }
}
