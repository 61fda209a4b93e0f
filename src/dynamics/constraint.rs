//! The data the contact and joint solvers share: each moving body's hot state and cold
//! integration data, the contact constraint with its points, the soft-constraint coefficients
//! (Box2D v3's `b2Softness`) and how one pass solves non-penetration. Kept apart from the solvers
//! themselves (`solver.rs`, its SIMD lanes in `wide.rs`, the colouring in `graph.rs`, the joints in
//! `joint/`) so that each imports these types from here rather than from the others.

use crate::dynamics::contact_math::InverseMass;
use crate::math::{Real, Rot, Vec2};
use crate::query::MAX_MANIFOLD_POINTS;

/// The hot state of one moving body during a step: only what the contact loop reads and writes
/// (64 bytes, one cache line). Index 0 of the state array is one shared entry for every static
/// body (zero velocity, identity deltas), never written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyState {
    /// Linear velocity (m/s, world).
    pub v: Vec2,
    /// Angular velocity (rad/s).
    pub w: Real,
    /// Unused: pads the velocities to four `f64`s, which the wide solver loads and stores as one
    /// vector.
    pub spare: Real,
    /// Translation since the start of the step (metres).
    pub dp: Vec2,
    /// Rotation since the start of the step.
    pub dq: Rot,
}

impl BodyState {
    /// The shared state of static bodies (and the start state of every body).
    pub const STATIC: Self = Self {
        v: Vec2::ZERO,
        w: 0.0,
        spare: 0.0,
        dp: Vec2::ZERO,
        dq: Rot::IDENTITY,
    };
}

/// The cold part of a moving body's solver data, indexed like the states: what the integration
/// loops need once per substep.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BodySim {
    /// Per-substep velocity change from gravity and forces (m/s).
    pub dv: Vec2,
    /// Per-substep angular velocity change from torque (rad/s).
    pub dw: Real,
    /// Linear damping factor per substep.
    pub linear_damping: Real,
    /// Angular damping factor per substep.
    pub angular_damping: Real,
    /// Total angle turned since the start of the step (radians, unwrapped).
    pub angle: Real,
}

impl BodySim {
    /// The entry of static bodies (and of kinematic ones: no forces, no damping).
    pub const STATIC: Self = Self {
        dv: Vec2::ZERO,
        dw: 0.0,
        linear_damping: 1.0,
        angular_damping: 1.0,
        angle: 0.0,
    };
}

/// One point of a contact constraint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstraintPoint {
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    /// Separation at the start of the step minus the anchors' projection, so that
    /// `s = (dpB − dpA + rB' − rA')·n + base_separation` is the current separation.
    pub base_separation: Real,
    pub normal_impulse: Real,
    pub tangent_impulse: Real,
    pub max_normal_impulse: Real,
    /// Every normal impulse applied to the point over the step, warm starts included (N·s): the
    /// contact's total push, for contact-force events.
    pub total_normal_impulse: Real,
    pub normal_mass: Real,
    pub tangent_mass: Real,
    /// Normal closing speed at the start of the step (m/s; negative when approaching).
    pub relative_velocity: Real,
}

/// A contact constraint: one manifold between two bodies, with their inverse masses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactConstraint {
    /// Solver state index of body A (0: a static body).
    pub a: usize,
    /// Solver state index of body B.
    pub b: usize,
    /// Inverse mass and inertia of A (zero for static and kinematic bodies).
    pub mass_a: InverseMass,
    /// Inverse mass and inertia of B.
    pub mass_b: InverseMass,
    pub normal: Vec2,
    pub friction: Real,
    pub restitution: Real,
    pub points: [ConstraintPoint; MAX_MANIFOLD_POINTS],
    pub count: usize,
    /// Soft constraint coefficients (against a static or kinematic body: twice as stiff).
    pub soft: Softness,
    /// Where the impulses go back to: (pair contact index, manifold index).
    pub source: (usize, usize),
}

impl ContactConstraint {
    /// A constraint with no points and zero masses: what an empty lane of a bundle holds.
    pub const EMPTY: Self = {
        const POINT: ConstraintPoint = ConstraintPoint {
            anchor_a: Vec2::ZERO,
            anchor_b: Vec2::ZERO,
            base_separation: 0.0,
            normal_impulse: 0.0,
            tangent_impulse: 0.0,
            max_normal_impulse: 0.0,
            total_normal_impulse: 0.0,
            normal_mass: 0.0,
            tangent_mass: 0.0,
            relative_velocity: 0.0,
        };
        const NO_MASS: InverseMass = InverseMass {
            linear: 0.0,
            angular: 0.0,
            axes: Vec2::ZERO,
        };
        Self {
            a: 0,
            b: 0,
            mass_a: NO_MASS,
            mass_b: NO_MASS,
            normal: Vec2::ZERO,
            friction: 0.0,
            restitution: 0.0,
            points: [POINT; MAX_MANIFOLD_POINTS],
            count: 0,
            soft: Softness {
                bias_rate: 0.0,
                mass_scale: 0.0,
                impulse_scale: 0.0,
            },
            source: (0, 0),
        }
    };
}

/// Coefficients of a soft constraint (Box2D v3 `b2Softness`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Softness {
    pub bias_rate: Real,
    pub mass_scale: Real,
    pub impulse_scale: Real,
}

impl Softness {
    /// A spring of `hertz` and `zeta` (damping ratio) integrated with step `h`.
    pub fn new(hertz: Real, zeta: Real, h: Real) -> Self {
        if hertz == 0.0 {
            return Self {
                bias_rate: 0.0,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            };
        }
        let omega = 2.0 * core::f64::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// How one pass over the contacts solves non-penetration.
#[derive(Clone, Copy)]
pub(crate) struct Pass {
    /// 1 / substep (1/s).
    pub inv_h: Real,
    /// Fastest push-out of an overlap (m/s).
    pub push_velocity: Real,
    /// The biased pass (overlaps pushed out softly) rather than the relaxing one.
    pub use_bias: bool,
    /// Full effective mass and no impulse decay even where the point overlaps (`hold_out`).
    pub rigid: bool,
}

impl Pass {
    /// Updates a point's accumulated normal impulse for its separation `s` (metres) and normal
    /// relative velocity `vn` (m/s): a speculative gap is closed exactly, an overlap is pushed out
    /// softly (`soft`) in the biased pass. Returns the impulse applied (N·s).
    #[inline(always)]
    pub(crate) fn normal_impulse(
        &self,
        p: &mut ConstraintPoint,
        s: Real,
        vn: Real,
        soft: &Softness,
    ) -> Real {
        let (mut bias, mut mass_scale, mut impulse_scale) = (0.0, 1.0, 0.0);
        if s > 0.0 {
            bias = s * self.inv_h; // speculative: close the gap exactly
        } else if self.use_bias {
            bias = (soft.bias_rate * s).max(-self.push_velocity);
            if !self.rigid {
                mass_scale = soft.mass_scale;
                impulse_scale = soft.impulse_scale;
            }
        }
        let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
        let new_impulse = positive_part(p.normal_impulse + impulse);
        let applied = new_impulse - p.normal_impulse;
        p.normal_impulse = new_impulse;
        p.total_normal_impulse += applied;
        if applied > p.max_normal_impulse {
            p.max_normal_impulse = applied;
        }
        applied
    }
}

/// `x.max(0.0)` without the NaN handling of `f64::max` (inputs are finite): a hot-loop cost.
#[inline(always)]
fn positive_part(x: Real) -> Real {
    if x > 0.0 {
        x
    } else {
        0.0
    }
}

// The hot state stays one cache line.
const _: () = assert!(std::mem::size_of::<BodyState>() == 64);
