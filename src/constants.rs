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

/// Largest rotation (radians) between two sampled poses of a swept hull. The hull is grown by
/// `reach · step² / 8` to cover the arc between samples (0.019 × reach at π/8): smaller steps give
/// tighter hulls and more points.
pub const SWEEP_ANGLE_STEP: Real = core::f64::consts::PI / 8.0;

/// Most angle samples of a swept hull (two full turns at [`SWEEP_ANGLE_STEP`]); past it the hull is
/// the capsule of the bounding radius around the path, which holds every orientation.
pub const MAX_SWEEP_SAMPLES: usize = 16;

/// Default gap (metres) at which the conservative time of impact stops: the returned pose leaves
/// the shapes at most this far apart. Smaller costs more iterations near contact.
pub const TOI_TOLERANCE: Real = 1e-6;

/// Default iteration budget of a time-of-impact query. When it runs out (a long grazing approach),
/// the query returns the last safe time with `ToiStatus::BudgetExhausted`: never a miss.
pub const TOI_MAX_ITERATIONS: u32 = 64;

/// Step (in `t`) under which the exact translational time of impact has converged. The distance is
/// convex in `t`, so the Newton iterate approaches the root from below and the remaining error is at
/// most about one step.
pub const TOI_EXACT_STEP: Real = 1e-13;
