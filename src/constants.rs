//! Named tolerances and limits shared by every layer.
//!
//! No algorithm in this crate uses a bare epsilon: each tolerance lives here with what it trades.
//! Lengths are in metres; the engine is tuned for objects from a few centimetres to a few hundred
//! metres, like Box2D (whose `B2_LINEAR_SLOP` is 0.005 m).

use crate::math::Real;

/// The largest number of vertices a [`ConvexPolygon`](crate::shape::ConvexPolygon) may have.
pub const MAX_POLYGON_VERTICES: usize = 16;

/// Relative tolerance (fraction of a point set's extent) under which two points are the same point
/// and a vertex counts as lying on the line through its neighbours. Small enough to keep every
/// real feature, large enough to reject exact duplicates produced by rounding.
pub const POLYGON_RELATIVE_TOLERANCE: Real = 1e-9;

/// Distance (metres) within which a manifold point of a static [`contact`](crate::query::contact)
/// query is kept although its own separation is slightly positive. Keeps both points of a box
/// resting exactly flat on another box despite rounding in the frame change.
pub const MANIFOLD_TOLERANCE: Real = 1e-9;

/// Distance (metres) under which the closest points of two rounded cores are treated as a face
/// contact (normal of the reference face, two clipped points) rather than a vertex contact.
pub const FACE_CONTACT_TOLERANCE: Real = 1e-9;

/// Bias (metres) that keeps the reference face on shape A unless B's face separates more by at
/// least this much: keeps the choice stable between faces of equal separation, such as two boxes
/// resting flat. Kept tiny so the reported depth stays the exact minimum (within this bias).
pub const REFERENCE_FACE_BIAS: Real = 1e-10;
