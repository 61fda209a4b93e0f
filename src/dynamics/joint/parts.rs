//! The parts joint kinds are made of: the named settings (a [`Limit`], a [`Motor`], a
//! [`Spring`], the three of them as a [`Drive`]) with the checks that build them from a
//! definition, and the velocity-constraint pieces every kind's solve is written with (a point
//! constraint, a one-sided angular limit, soft and speculative biases; after Box2D v3's soft step,
//! see `docs/joints.md`).

use crate::dynamics::constraint::Softness;
use crate::dynamics::contact_math::InverseMass;
use crate::math::{Real, Vec2};

use super::error::{bounded, finite, ordered, JointError};

/// A limit on an angle (radians) or a translation (metres): `lower ≤ upper`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Limit {
    /// Smallest allowed value (rad or m).
    pub lower: Real,
    /// Largest allowed value (rad or m).
    pub upper: Real,
}

impl Limit {
    /// The limit of a definition (checked whether enabled or not), `None` when not enabled.
    fn from_def(
        joint: &'static str,
        field: &'static str,
        on: bool,
        lower: Real,
        upper: Real,
    ) -> Result<Option<Self>, JointError> {
        ordered(joint, field, lower, upper)?;
        Ok(on.then_some(Self { lower, upper }))
    }

    /// Checks a stored limit (a snapshot's).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // snapshots' checks
    fn check(&self, joint: &'static str) -> Result<(), JointError> {
        ordered(joint, "limits", self.lower, self.upper)
    }
}

/// A motor: the target speed (rad/s, or m/s along an axis) and the largest torque (N·m) or force
/// (N) it applies.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Motor {
    /// Target speed of B relative to A (rad/s or m/s).
    pub speed: Real,
    /// Largest torque or force (N·m or N, ≥ 0).
    pub max: Real,
}

impl Motor {
    /// The motor of a definition (checked whether enabled or not), `None` when not enabled;
    /// `field` names its largest torque or force.
    fn from_def(
        joint: &'static str,
        field: &'static str,
        on: bool,
        speed: Real,
        max: Real,
    ) -> Result<Option<Self>, JointError> {
        finite(joint, "motor_speed", speed)?;
        bounded(joint, field, max)?;
        Ok(on.then_some(Self { speed, max }))
    }

    /// Checks a stored motor (a snapshot's).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // snapshots' checks
    fn check(&self, joint: &'static str) -> Result<(), JointError> {
        finite(joint, "motor_speed", self.speed)?;
        bounded(joint, "max motor force or torque", self.max)
    }
}

/// A spring: frequency (Hz, ≥ 0; 0 is off, or as stiff as the solver allows where the spring
/// replaces a rigid part) and damping ratio (≥ 0; 1 is critical).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Spring {
    /// Frequency (Hz).
    pub hertz: Real,
    /// Damping ratio.
    pub damping_ratio: Real,
}

impl Spring {
    /// A spring of a definition's numbers, checked.
    pub fn checked(
        joint: &'static str,
        (hertz_field, ratio_field): (&'static str, &'static str),
        hertz: Real,
        damping_ratio: Real,
    ) -> Result<Self, JointError> {
        bounded(joint, hertz_field, hertz)?;
        bounded(joint, ratio_field, damping_ratio)?;
        Ok(Self {
            hertz,
            damping_ratio,
        })
    }

    /// The spring of a definition (checked whether enabled or not), `None` when not enabled or
    /// of zero frequency.
    pub fn from_def(
        joint: &'static str,
        on: bool,
        hertz: Real,
        damping_ratio: Real,
    ) -> Result<Option<Self>, JointError> {
        let s = Self::checked(joint, ("hertz", "damping_ratio"), hertz, damping_ratio)?;
        Ok((on && hertz > 0.0).then_some(s))
    }

    /// Checks a stored spring (a snapshot's).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // snapshots' checks
    pub fn check(&self, joint: &'static str) -> Result<(), JointError> {
        Self::checked(
            joint,
            ("hertz", "damping_ratio"),
            self.hertz,
            self.damping_ratio,
        )
        .map(|_| ())
    }

    /// Its soft-constraint coefficients for substep `h` (s).
    pub fn softness(&self, h: Real) -> Softness {
        Softness::new(self.hertz, self.damping_ratio, h)
    }

    /// The softness of an optional spring (the default, unused, when there is none).
    pub fn softness_of(spring: Option<Self>, h: Real) -> Softness {
        spring.map_or(Softness::default(), |s| s.softness(h))
    }
}

/// What drives a revolute, prismatic or wheel joint besides its rigid parts: an optional limit,
/// motor and spring.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Drive {
    /// The limit (rad or m).
    pub limit: Option<Limit>,
    /// The motor.
    pub motor: Option<Motor>,
    /// The spring toward zero (angle or translation).
    pub spring: Option<Spring>,
}

impl Drive {
    /// No limit, motor or spring.
    pub const NONE: Self = Self {
        limit: None,
        motor: None,
        spring: None,
    };
}

/// A limit as a definition gives it: `(field name, enabled, lower, upper)`.
pub(crate) type LimitDef = (&'static str, bool, Real, Real);
/// A motor as a definition gives it: `(name of its largest torque or force, enabled, speed,
/// largest torque or force)`.
pub(crate) type MotorDef = (&'static str, bool, Real, Real);
/// A spring as a definition gives it: `(enabled, hertz, damping ratio)`.
pub(crate) type SpringDef = (bool, Real, Real);

impl Drive {
    /// The drive of a definition, each part checked whether enabled or not (limit, motor,
    /// spring, in that order).
    pub fn from_def(
        joint: &'static str,
        (limit_field, limit_on, lower, upper): LimitDef,
        (motor_field, motor_on, speed, max): MotorDef,
        (spring_on, hertz, damping_ratio): SpringDef,
    ) -> Result<Self, JointError> {
        Ok(Self {
            limit: Limit::from_def(joint, limit_field, limit_on, lower, upper)?,
            motor: Motor::from_def(joint, motor_field, motor_on, speed, max)?,
            spring: Spring::from_def(joint, spring_on, hertz, damping_ratio)?,
        })
    }

    /// Checks a stored drive (a snapshot's).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // snapshots' checks
    pub fn check(&self, joint: &'static str) -> Result<(), JointError> {
        if let Some(l) = &self.limit {
            l.check(joint)?;
        }
        if let Some(m) = &self.motor {
            m.check(joint)?;
        }
        match &self.spring {
            Some(s) => s.check(joint),
            None => Ok(()),
        }
    }
}

/// Velocities of a joint's two bodies while it is solved (m/s, rad/s; world).
pub(crate) struct Pair {
    pub va: Vec2,
    pub wa: Real,
    pub vb: Vec2,
    pub wb: Real,
}

/// `ω × r`.
#[inline]
fn cross_sv(w: Real, r: Vec2) -> Vec2 {
    Vec2::new(-w * r.y, w * r.x)
}

/// The unit vector 90° counter-clockwise of `v`.
#[inline]
pub(crate) fn left(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

impl Pair {
    /// Applies `p` (N·s) at B's lever `rb` and `−p` at A's lever `ra`.
    #[inline]
    pub fn apply(&mut self, ma: InverseMass, mb: InverseMass, ra: Vec2, rb: Vec2, p: Vec2) {
        self.va -= ma.linear_response(p);
        self.wa -= ma.angular * ra.perp_dot(p);
        self.vb += mb.linear_response(p);
        self.wb += mb.angular * rb.perp_dot(p);
    }

    /// Applies an angular impulse `l` (N·m·s) to B and `−l` to A.
    #[inline]
    pub fn apply_angular(&mut self, ma: InverseMass, mb: InverseMass, l: Real) {
        self.wa -= ma.angular * l;
        self.wb += mb.angular * l;
    }

    /// Velocity of B's point at `rb` relative to A's at `ra` (m/s).
    #[inline]
    pub fn relative(&self, ra: Vec2, rb: Vec2) -> Vec2 {
        self.vb + cross_sv(self.wb, rb) - self.va - cross_sv(self.wa, ra)
    }
}

/// `(bias, mass scale, impulse scale)` of one scalar part in one pass.
pub(crate) type Coefficients = (Real, Real, Real);

/// What a kind's solve reads in one substep: the bodies' inverse masses, the current anchor
/// levers (`ra`, `rb`, world orientation), anchor separation `d` (B − A, metres), relative angle
/// minus the reference (`angle`, radians) and the axis in the world (`axis`; prismatic and
/// wheel), the softness of the rigid parts and of the springs, and the pass.
pub(crate) struct Substep {
    pub ma: InverseMass,
    pub mb: InverseMass,
    pub ra: Vec2,
    pub rb: Vec2,
    pub d: Vec2,
    pub angle: Real,
    pub axis: Vec2,
    /// `1 / (1/IA + 1/IB)`, or 0 when neither turns.
    pub inv_k_angular: Real,
    pub soft: Softness,
    pub spring: Softness,
    pub second_spring: Softness,
    /// The biased pass (true) or the relaxing one.
    pub use_bias: bool,
    /// Substep (s) and its inverse.
    pub h: Real,
    pub inv_h: Real,
}

impl Substep {
    /// An angular part with coefficients `(bias, ms, is)`, accumulated in `acc`.
    #[inline]
    pub fn angular(&self, v: &mut Pair, acc: &mut Real, (bias, ms, is): Coefficients) {
        let cdot = v.wb - v.wa;
        let impulse = -ms * self.inv_k_angular * (cdot + bias) - is * *acc;
        *acc += impulse;
        v.apply_angular(self.ma, self.mb, impulse);
    }

    /// The angular motor part: drives `ωB − ωA` toward `motor.speed` with at most `motor.max`.
    #[inline]
    pub fn angular_motor(&self, v: &mut Pair, acc: &mut Real, motor: Motor) {
        let cdot = v.wb - v.wa - motor.speed;
        let max = motor.max * self.h;
        let new = (*acc - self.inv_k_angular * cdot).clamp(-max, max);
        let applied = new - *acc;
        *acc = new;
        v.apply_angular(self.ma, self.mb, applied);
    }

    /// The coefficients of a rigid part with error `c` (see [`rigid`]).
    #[inline]
    pub fn rigid(&self, c: Real) -> Coefficients {
        rigid(c, &self.soft, self.use_bias)
    }

    /// The coefficients of a one-sided limit with margin `c` (see [`limit`]).
    #[inline]
    pub fn limit(&self, c: Real) -> Coefficients {
        limit(c, &self.soft, self.use_bias, self.inv_h)
    }

    /// The coefficients of a spring part with error `c` (its own softness, in both passes).
    #[inline]
    pub fn sprung(spring: &Softness, c: Real) -> Coefficients {
        (
            spring.bias_rate * c,
            spring.mass_scale,
            spring.impulse_scale,
        )
    }

    /// [`Substep::sprung`] for a point's error `c` (metres).
    #[inline]
    pub fn sprung_point(spring: &Softness, c: Vec2) -> (Vec2, Real, Real) {
        (
            spring.bias_rate * c,
            spring.mass_scale,
            spring.impulse_scale,
        )
    }

    /// Applies a point impulse `linear` (N·s, at the anchors) and an angular one (N·m·s): the
    /// warm start of the weld, motor and mouse joints.
    #[inline]
    pub fn apply_point(&self, v: &mut Pair, linear: Vec2, angular: Real) {
        v.apply(self.ma, self.mb, self.ra, self.rb, linear);
        v.apply_angular(self.ma, self.mb, angular);
    }

    /// The point constraint with the rigid softness on error `d` (see [`point`]).
    #[inline(always)]
    pub fn rigid_point(&self, v: &mut Pair, acc: &mut Vec2, max: Option<Real>) {
        let c = rigid_vec(self.d, &self.soft, self.use_bias);
        point(v, self.ma, self.mb, self.ra, self.rb, acc, c, max);
    }
}

/// The bias, mass scale and impulse scale of a rigid part with error `c`: soft toward zero in
/// the biased pass, none in the relaxing one.
#[inline]
pub(crate) fn rigid(c: Real, soft: &Softness, use_bias: bool) -> Coefficients {
    if use_bias {
        (soft.bias_rate * c, soft.mass_scale, soft.impulse_scale)
    } else {
        (0.0, 1.0, 0.0)
    }
}

/// The bias and scales of a one-sided limit with margin `c` (≥ 0 when within it): speculative
/// while within (only the motion that would pass the limit in this substep is stopped), soft
/// when past it.
#[inline]
fn limit(c: Real, soft: &Softness, use_bias: bool, inv_h: Real) -> Coefficients {
    if c > 0.0 {
        (c * inv_h, 1.0, 0.0)
    } else {
        rigid(c, soft, use_bias)
    }
}

/// [`rigid`] for a vector error.
pub(crate) fn rigid_vec(c: Vec2, soft: &Softness, use_bias: bool) -> (Vec2, Real, Real) {
    if use_bias {
        (soft.bias_rate * c, soft.mass_scale, soft.impulse_scale)
    } else {
        (Vec2::ZERO, 1.0, 0.0)
    }
}

/// A one-sided angular limit: `sign` +1 keeps the angle above the lower limit (impulse on B
/// positive), −1 below the upper one.
pub(crate) fn one_sided_angular(
    v: &mut Pair,
    s: &Substep,
    acc: &mut Real,
    (bias, ms, is): Coefficients,
    sign: Real,
) {
    let cdot = sign * (v.wb - v.wa);
    let impulse = -ms * s.inv_k_angular * (cdot + bias) - is * *acc;
    let new = (*acc + impulse).max(0.0);
    let applied = new - *acc;
    *acc = new;
    v.apply_angular(s.ma, s.mb, sign * applied);
}

/// The point constraint (B's anchor on A's): a 2×2 solve of `(bias, mass scale, impulse scale)`,
/// the accumulated impulse clamped to `max` in length when given.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn point(
    v: &mut Pair,
    ma: InverseMass,
    mb: InverseMass,
    ra: Vec2,
    rb: Vec2,
    acc: &mut Vec2,
    (bias, ms, is): (Vec2, Real, Real),
    max: Option<Real>,
) {
    let (ia, ib) = (ma.angular, mb.angular);
    let (mx, my) = (
        ma.linear_along(Vec2::X) + mb.linear_along(Vec2::X),
        ma.linear_along(Vec2::Y) + mb.linear_along(Vec2::Y),
    );
    let k11 = mx + ia * ra.y * ra.y + ib * rb.y * rb.y;
    let k12 = -ia * ra.x * ra.y - ib * rb.x * rb.y;
    let k22 = my + ia * ra.x * ra.x + ib * rb.x * rb.x;
    let det = k11 * k22 - k12 * k12;
    if det <= 0.0 {
        return;
    }
    let rhs = v.relative(ra, rb) + bias;
    // K⁻¹ · rhs.
    let solved = Vec2::new(k22 * rhs.x - k12 * rhs.y, k11 * rhs.y - k12 * rhs.x) / det;
    let impulse = -ms * solved - is * *acc;
    let mut new = *acc + impulse;
    if let Some(max) = max {
        let length = new.length();
        if length > max {
            new *= max / length;
        }
    }
    let applied = new - *acc;
    *acc = new;
    v.apply(ma, mb, ra, rb, applied);
}
