//! Named tolerances and limits shared by every layer.
//!
//! No algorithm in this crate uses a bare epsilon: each tolerance lives here with what it trades.
//! Lengths are in metres; the engine is tuned for objects from a few centimetres to a few hundred
//! metres, like Box2D (whose `B2_LINEAR_SLOP` is 0.005 m).

use crate::math::Real;

/// The largest number of vertices a [`ConvexPolygon`](crate::shape::ConvexPolygon) may have.
pub const MAX_POLYGON_VERTICES: usize = 16;

/// Distance (metres) within which a manifold point of a static [`contact`](crate::query::contact)
/// query is kept although its own separation is slightly positive. Keeps both points of a box
/// resting exactly flat on another box despite rounding in the frame change.
pub(crate) const MANIFOLD_TOLERANCE: Real = 1e-9;

/// Distance (metres) under which the closest points of two rounded cores are treated as a face
/// contact (normal of the reference face, two clipped points) rather than a vertex contact.
pub(crate) const FACE_CONTACT_TOLERANCE: Real = 1e-9;

/// Bias (metres) that keeps the reference face on shape A unless B's face separates more by at
/// least this much: keeps the choice stable between faces of equal separation, such as two boxes
/// resting flat. Kept tiny so the reported depth stays the exact minimum (within this bias).
pub(crate) const REFERENCE_FACE_BIAS: Real = 1e-10;

/// Default gap (metres) at which the conservative time of impact stops: the returned pose leaves
/// the shapes at most this far apart. Smaller costs more iterations near contact.
pub const TOI_TOLERANCE: Real = 1e-6;

/// Default iteration budget of a time-of-impact query. When it runs out (a long grazing approach),
/// the query returns the last safe time with `ToiStatus::BudgetExhausted`: never a miss.
pub const TOI_MAX_ITERATIONS: u32 = 128;

/// Step (in `t`) under which the exact translational time of impact has converged. The distance is
/// convex in `t`, so the Newton iterate approaches the root from below and the remaining error is at
/// most about one step.
pub(crate) const TOI_EXACT_STEP: Real = 1e-13;

/// Penetration (metres) the solver tolerates in resting contact, as Box2D's `B2_LINEAR_SLOP`. Sets
/// the scale of the contact tolerances below; too small makes stacks jitter.
pub const LINEAR_SLOP: Real = 0.005;

/// Gap (metres) within which a pair gets a speculative manifold at the start of a step, so the
/// solver stops it before it touches. Pairs farther apart are the continuous pass's.
pub const SPECULATIVE_DISTANCE: Real = 4.0 * LINEAR_SLOP;

/// Default solver substeps per step (Box2D v3's soft step): more is stiffer and costlier.
pub const DEFAULT_SUBSTEPS: u32 = 4;

/// Default contact stiffness (Hz) of the soft contact constraints; capped at a quarter of the
/// substep rate.
pub const CONTACT_HERTZ: Real = 30.0;

/// Default damping ratio of the soft contact constraints (heavily over-damped, as Box2D v3).
pub const CONTACT_DAMPING_RATIO: Real = 10.0;

/// Fastest the solver pushes overlapping bodies apart (m/s): bounds the energy added by recovering
/// from overlap.
pub const CONTACT_PUSH_MAX_VELOCITY: Real = 3.0;

/// Closing speed (m/s) under which a contact is treated as inelastic whatever the restitution, so
/// resting bodies do not jitter.
pub const RESTITUTION_THRESHOLD: Real = 1.0;

/// Default most impacts the continuous pass processes in one step; past it, remaining impacts hold
/// the bodies at their safe time of impact (they lose the rest of that step, but never tunnel).
/// A bound on a pathological step's work, not a per-step allowance: a wall of 9,600 boxes struck
/// at 40 m/s (Box2D's smash) takes up to 9,602 impacts in a step of its compression wave, a pile
/// of 6,000 churned by a blade (Box2D's spinner) up to 16,921, and the old default of 4,096 held
/// thousands of bodies in those steps (`docs/benchmarks.md`, "Twentieth round"). Lower it where a
/// step's worst time matters more than a held body's lost time.
pub const MAX_IMPACTS_PER_STEP: usize = 32_768;

/// Default most fixed steps one call to `World::advance` runs, so a stalled frame cannot make the
/// next one slower still (the spiral of death); the rest of the time is dropped.
pub const MAX_STEPS_PER_ADVANCE: u32 = 8;

/// Default [`WorldConfig::contact_recycle_distance`](crate::WorldConfig::contact_recycle_distance)
/// (metres): a touching pair whose relative pose moved less than this since its manifold was
/// computed keeps the manifold (Box2D v3.1's contact recycling uses `10 × B2_LINEAR_SLOP`).
pub const CONTACT_RECYCLE_DISTANCE: Real = 10.0 * LINEAR_SLOP;

/// Cosine of the largest turn (of either body, since its manifold was computed) for which a
/// contact is recycled: 0.98, about 11.5° (as Box2D's `B2_CONTACT_RECYCLE_COS_ANGLE`).
pub const CONTACT_RECYCLE_COS_ANGLE: Real = 0.98;

// Valid ranges of what a user gives (see `docs/reliability.md` for why each is what it is). Every
// constructor, `add_body`, setter, `WorldConfig::validate` and the scene loader checks against them
// and names the field, the value and the range in its error.

/// Smallest length (metres) a shape may have: radii, half extents, segment lengths. Shorter ones
/// square to under 1e-8 m², below what the solver's 5 mm slop and the 1e-6 m time-of-impact
/// tolerance can resolve.
pub const MIN_LENGTH: Real = 1e-4;
/// Largest coordinate (metres) of a shape's points in its frame and of a body's position in the
/// world: f64 keeps 1e-11 m of resolution there, far under the 1e-6 m tolerance, and squared sizes
/// (areas, inertias) stay far from overflow.
pub const MAX_LENGTH: Real = 1e5;
/// Fastest linear speed (m/s) a body may be given: 100 km/s moves 1.7 km per step at 60 Hz.
pub const MAX_SPEED: Real = 1e5;
/// Fastest angular speed (rad/s) a body may be given.
pub const MAX_ANGULAR_SPEED: Real = 1e5;
/// Density range (kg/m²) of a shape with mass: a positive density at least this …
pub const MIN_DENSITY: Real = 1e-6;
/// … and at most this.
pub const MAX_DENSITY: Real = 1e8;
/// Largest friction coefficient.
pub const MAX_FRICTION: Real = 1e3;
/// Largest restitution: 1 is perfectly elastic; more would create energy.
pub const MAX_RESTITUTION: Real = 1.0;
/// Largest damping (1/s).
pub const MAX_DAMPING: Real = 1e6;
/// Largest gravity scale (either sign).
pub const MAX_GRAVITY_SCALE: Real = 1e3;
/// Largest force (N), torque (N·m) and impulse (N·s) a call may apply, and a body may have
/// accumulated.
pub const MAX_FORCE: Real = 1e15;
/// Largest gravitational acceleration (m/s², per component).
pub const MAX_GRAVITY: Real = 1e4;
/// Longest step (seconds).
pub const MAX_DT: Real = 1.0;
/// Most substeps per step.
pub const MAX_SUBSTEPS: u32 = 64;

/// How far (relative) the length of a given rotation's `(cos, sin)` may be from 1.
pub(crate) const ROTATION_TOLERANCE: Real = 1e-9;
