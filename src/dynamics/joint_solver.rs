//! Joints in the soft-step solver (after Box2D v3's joints and Catto's Solver2D notes; our own
//! code): every joint is a set of velocity constraints solved with accumulated impulses in the
//! same substeps as the contacts, before them in each pass.
//!
//! ```text
//! prepare    anchors from each centre of mass (world orientation at the step's start), the
//!            centres' offset and relative angle at the start, effective masses, softness
//! per substep:
//!   warm start   the accumulated impulses again
//!   solve        springs and motors (always), limits (speculative when apart), then the rigid
//!                part with a soft bias toward zero error
//!   relax        the same without the bias (the bias's velocity removed)
//! store      accumulated impulses kept for the next step; reaction force = impulse / substep
//! ```
//!
//! Positions inside the step are tracked from the bodies' deltas (`dp`, `dq`), as the contacts do:
//! the anchor separation is `(dpB − dpA) + (cB − cA)₀ + dqB·rB − dqA·rA`, the relative angle the
//! start angle plus the two bodies' turns. Rigid parts use the joint softness (`WorldConfig::
//! joint_hertz`, `joint_damping_ratio`); springs use their own frequency and damping ratio; limits
//! are speculative (a limit still apart only stops the motion that would pass it), and motors are
//! clamped to their maximum force or torque times the substep.

use crate::dynamics::constraint::{BodyState, Softness};
use crate::dynamics::contact_math::InverseMass;
use crate::dynamics::joint::JointCommon;
use crate::math::{Real, Vec2};

/// Joint kinds with their settings, frames as the solver needs them (see `Joint`).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum JointKind {
    Revolute {
        limit: Option<(Real, Real)>,
        motor: Option<(Real, Real)>,
        spring: Option<(Real, Real)>,
    },
    Prismatic {
        limit: Option<(Real, Real)>,
        motor: Option<(Real, Real)>,
        spring: Option<(Real, Real)>,
    },
    Distance {
        length: Real,
        min: Real,
        max: Real,
        spring: Option<(Real, Real)>,
    },
    Weld {
        linear: (Real, Real),
        angular: (Real, Real),
    },
    Wheel {
        limit: Option<(Real, Real)>,
        motor: Option<(Real, Real)>,
        spring: Option<(Real, Real)>,
    },
    Motor {
        max_force: Real,
        max_torque: Real,
        correction: Real,
    },
    Mouse {
        target: Vec2,
        hertz: Real,
        damping_ratio: Real,
        max_force: Real,
    },
}

impl JointKind {
    /// The kind's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Revolute { .. } => "revolute",
            JointKind::Prismatic { .. } => "prismatic",
            JointKind::Distance { .. } => "distance",
            JointKind::Weld { .. } => "weld",
            JointKind::Wheel { .. } => "wheel",
            JointKind::Motor { .. } => "motor",
            JointKind::Mouse { .. } => "mouse",
        }
    }
}

/// Accumulated impulses of a joint (N·s per substep; N·m·s for the angular ones), kept between
/// steps for warm starting.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct JointImpulses {
    /// Point constraint (revolute, weld, motor, mouse).
    pub linear: Vec2,
    /// Angular lock (weld, prismatic, motor).
    pub angular: Real,
    /// Along the perpendicular (prismatic, wheel) or the rod (distance).
    pub axial: Real,
    pub spring: Real,
    pub motor: Real,
    pub lower: Real,
    pub upper: Real,
}

/// A joint as the world keeps it: bodies by key, anchors in the bodies' frames.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
pub(crate) struct Joint {
    /// Body keys; a mouse joint's A is `None` (the world).
    pub body_a: Option<u32>,
    pub body_b: u32,
    /// Anchor in A's and B's body frames (metres); for a motor joint, A's is the target position
    /// of B's origin.
    pub local_a: Vec2,
    pub local_b: Vec2,
    /// Axis in A's body frame (unit; prismatic and wheel joints).
    pub local_axis: Vec2,
    /// Relative angle (B − A) that counts as zero (radians).
    pub reference_angle: Real,
    pub kind: JointKind,
    pub common: JointCommon,
    pub impulses: JointImpulses,
    /// Reaction on B in the last step: force (N, world) and torque (N·m).
    pub force: Vec2,
    pub torque: Real,
}

/// A joint prepared for one step (see the module notes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointConstraint {
    /// The joint's slot (to store impulses back).
    pub slot: usize,
    /// Solver state indices (0: the static entry).
    pub a: usize,
    pub b: usize,
    pub mass_a: InverseMass,
    pub mass_b: InverseMass,
    /// Anchors from the centres of mass, world orientation at the step's start.
    pub frame_a: Vec2,
    pub frame_b: Vec2,
    /// `(cB − cA)` at the step's start (for a mouse joint: `cB − target`).
    pub delta_center: Vec2,
    /// Relative angle minus the reference at the step's start (radians).
    pub delta_angle: Real,
    /// Axis in the world at the step's start (prismatic, wheel).
    pub axis: Vec2,
    pub kind: JointKind,
    pub impulses: JointImpulses,
    /// Rigid-part softness and the spring's.
    pub soft: Softness,
    pub spring: Softness,
    pub second_spring: Softness,
}

/// Velocities of a joint's two bodies while it is solved.
struct Pair {
    va: Vec2,
    wa: Real,
    vb: Vec2,
    wb: Real,
}

/// `ω × r`.
#[inline]
fn cross_sv(w: Real, r: Vec2) -> Vec2 {
    Vec2::new(-w * r.y, w * r.x)
}

/// The unit vector 90° counter-clockwise of `v`.
#[inline]
fn left(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

impl Pair {
    /// Applies `p` (N·s) at B's lever `rb` and `−p` at A's lever `ra`.
    #[inline]
    fn apply(&mut self, ma: InverseMass, mb: InverseMass, ra: Vec2, rb: Vec2, p: Vec2) {
        self.va -= ma.linear * p;
        self.wa -= ma.angular * ra.perp_dot(p);
        self.vb += mb.linear * p;
        self.wb += mb.angular * rb.perp_dot(p);
    }

    /// Applies an angular impulse `l` to B and `−l` to A.
    #[inline]
    fn apply_angular(&mut self, ma: InverseMass, mb: InverseMass, l: Real) {
        self.wa -= ma.angular * l;
        self.wb += mb.angular * l;
    }

    /// Velocity of B's point at `rb` relative to A's at `ra`.
    #[inline]
    fn relative(&self, ra: Vec2, rb: Vec2) -> Vec2 {
        self.vb + cross_sv(self.wb, rb) - self.va - cross_sv(self.wa, ra)
    }
}

/// The bias, mass scale and impulse scale of a rigid part with error `c`: soft toward zero in
/// the biased pass, none in the relaxing one.
#[inline]
fn rigid(c: Real, soft: &Softness, use_bias: bool) -> (Real, Real, Real) {
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
fn limit(c: Real, soft: &Softness, use_bias: bool, inv_h: Real) -> (Real, Real, Real) {
    if c > 0.0 {
        (c * inv_h, 1.0, 0.0)
    } else {
        rigid(c, soft, use_bias)
    }
}

impl JointConstraint {
    /// The solver states' current anchor levers, anchor separation (B − A) and relative angle.
    #[inline]
    fn geometry(&self, sa: &BodyState, sb: &BodyState) -> (Vec2, Vec2, Vec2, Real) {
        let (ra, rb) = (sa.dq.rotate(self.frame_a), sb.dq.rotate(self.frame_b));
        let d = (sb.dp - sa.dp) + self.delta_center + rb - ra;
        let angle = self.delta_angle + sa.dq.inv_mul_rot(sb.dq).angle();
        (ra, rb, d, angle)
    }

    /// Applies the accumulated impulses (warm start).
    pub fn warm_start(&self, states: &mut [BodyState]) {
        let (sa, sb) = (states[self.a], states[self.b]);
        let (ra, rb, d, _) = self.geometry(&sa, &sb);
        let mut v = Pair {
            va: sa.v,
            wa: sa.w,
            vb: sb.v,
            wb: sb.w,
        };
        let (ma, mb) = (self.mass_a, self.mass_b);
        let i = &self.impulses;
        match self.kind {
            JointKind::Revolute { .. } => {
                v.apply(ma, mb, ra, rb, i.linear);
                v.apply_angular(ma, mb, i.spring + i.motor + i.lower - i.upper);
            }
            JointKind::Weld { .. } | JointKind::Motor { .. } | JointKind::Mouse { .. } => {
                v.apply(ma, mb, ra, rb, i.linear);
                v.apply_angular(ma, mb, i.angular);
            }
            JointKind::Distance { .. } => {
                let u = d.normalize_or(Vec2::X);
                v.apply(ma, mb, ra, rb, (i.axial + i.spring + i.lower - i.upper) * u);
            }
            JointKind::Prismatic { .. } | JointKind::Wheel { .. } => {
                let axis = sa.dq.rotate(self.axis);
                let along = i.spring + i.motor_along(self.kind) + i.lower - i.upper;
                let p = along * axis + i.axial * left(axis);
                v.apply(ma, mb, d + ra, rb, p);
                let turn = i.angular
                    + if matches!(self.kind, JointKind::Wheel { .. }) {
                        i.motor
                    } else {
                        0.0
                    };
                v.apply_angular(ma, mb, turn);
            }
        }
        self.write(states, &v);
    }

    fn write(&self, states: &mut [BodyState], v: &Pair) {
        if self.mass_a.responds() {
            states[self.a].v = v.va;
            states[self.a].w = v.wa;
        }
        if self.mass_b.responds() {
            states[self.b].v = v.vb;
            states[self.b].w = v.wb;
        }
    }

    /// One pass: the biased one (`use_bias`) or the relaxing one; `h` is the substep (s).
    pub fn solve(&mut self, states: &mut [BodyState], use_bias: bool, h: Real) {
        let inv_h = 1.0 / h;
        let (sa, sb) = (states[self.a], states[self.b]);
        let (ra, rb, d, angle) = self.geometry(&sa, &sb);
        let mut v = Pair {
            va: sa.v,
            wa: sa.w,
            vb: sb.v,
            wb: sb.w,
        };
        let (ma, mb) = (self.mass_a, self.mass_b);
        let k_angular = ma.angular + mb.angular;
        let inv_k_angular = if k_angular > 0.0 {
            1.0 / k_angular
        } else {
            0.0
        };
        let soft = self.soft;
        let spring_soft = self.spring;
        let i = &mut self.impulses;
        // An angular part: error `c` handled by (bias, mass scale, impulse scale), accumulated in
        // `acc`; returns the impulse applied.
        let angular =
            |v: &mut Pair, acc: &mut Real, c: Real, (bias, ms, is): (Real, Real, Real)| -> Real {
                let _ = c;
                let cdot = v.wb - v.wa;
                let impulse = -ms * inv_k_angular * (cdot + bias) - is * *acc;
                *acc += impulse;
                v.apply_angular(ma, mb, impulse);
                impulse
            };
        match self.kind {
            JointKind::Revolute {
                limit: lim,
                motor,
                spring,
            } => {
                if spring.is_some() {
                    let s = (
                        spring_soft.bias_rate * angle,
                        spring_soft.mass_scale,
                        spring_soft.impulse_scale,
                    );
                    angular(&mut v, &mut i.spring, angle, s);
                }
                if let Some((speed, max_torque)) = motor {
                    let cdot = v.wb - v.wa - speed;
                    let max = max_torque * h;
                    let new = (i.motor - inv_k_angular * cdot).clamp(-max, max);
                    let applied = new - i.motor;
                    i.motor = new;
                    v.apply_angular(ma, mb, applied);
                }
                if let Some((lower, upper)) = lim {
                    one_sided_angular(
                        &mut v,
                        ma,
                        mb,
                        inv_k_angular,
                        &mut i.lower,
                        limit(angle - lower, &soft, use_bias, inv_h),
                        1.0,
                    );
                    one_sided_angular(
                        &mut v,
                        ma,
                        mb,
                        inv_k_angular,
                        &mut i.upper,
                        limit(upper - angle, &soft, use_bias, inv_h),
                        -1.0,
                    );
                }
                point(
                    &mut v,
                    ma,
                    mb,
                    ra,
                    rb,
                    &mut i.linear,
                    rigid_vec(d, &soft, use_bias),
                    None,
                );
            }
            JointKind::Weld {
                linear,
                angular: ang,
            } => {
                let s = part_softness(ang, &soft, &self.second_spring, angle, use_bias);
                angular(&mut v, &mut i.angular, angle, s);
                let (bias, ms, is) = if linear.0 > 0.0 {
                    let sp = &self.spring;
                    (sp.bias_rate * d, sp.mass_scale, sp.impulse_scale)
                } else {
                    rigid_vec(d, &soft, use_bias)
                };
                point(&mut v, ma, mb, ra, rb, &mut i.linear, (bias, ms, is), None);
            }
            JointKind::Motor {
                max_force,
                max_torque,
                correction,
            } => {
                let bias_angle = if use_bias {
                    correction * inv_h * angle
                } else {
                    0.0
                };
                let cdot = v.wb - v.wa;
                let max = max_torque * h;
                let new = (i.angular - inv_k_angular * (cdot + bias_angle)).clamp(-max, max);
                let applied = new - i.angular;
                i.angular = new;
                v.apply_angular(ma, mb, applied);
                let bias = if use_bias {
                    correction * inv_h * d
                } else {
                    Vec2::ZERO
                };
                point(
                    &mut v,
                    ma,
                    mb,
                    ra,
                    rb,
                    &mut i.linear,
                    (bias, 1.0, 0.0),
                    Some(max_force * h),
                );
            }
            JointKind::Mouse { max_force, .. } => {
                let sp = &self.spring;
                let s = (sp.bias_rate * d, sp.mass_scale, sp.impulse_scale);
                point(
                    &mut v,
                    ma,
                    mb,
                    ra,
                    rb,
                    &mut i.linear,
                    s,
                    Some(max_force * h),
                );
            }
            JointKind::Distance {
                length,
                min,
                max,
                spring,
            } => {
                let l = d.length();
                let u = d.normalize_or(Vec2::X);
                let (cra, crb) = (ra.perp_dot(u), rb.perp_dot(u));
                let k = ma.linear + mb.linear + ma.angular * cra * cra + mb.angular * crb * crb;
                let inv_k = if k > 0.0 { 1.0 / k } else { 0.0 };
                let along = |v: &Pair| v.relative(ra, rb).dot(u);
                if min < max {
                    if spring.is_some() {
                        let c = l - length;
                        let impulse = -spring_soft.mass_scale
                            * inv_k
                            * (along(&v) + spring_soft.bias_rate * c)
                            - spring_soft.impulse_scale * i.spring;
                        i.spring += impulse;
                        v.apply(ma, mb, ra, rb, impulse * u);
                    }
                    // Lower: keep l ≥ min (push apart); upper: keep l ≤ max (pull together).
                    let (bias, ms, is) = limit(l - min, &soft, use_bias, inv_h);
                    let impulse = -ms * inv_k * (along(&v) + bias) - is * i.lower;
                    let new = (i.lower + impulse).max(0.0);
                    v.apply(ma, mb, ra, rb, (new - i.lower) * u);
                    i.lower = new;
                    let (bias, ms, is) = limit(max - l, &soft, use_bias, inv_h);
                    let impulse = -ms * inv_k * (-along(&v) + bias) - is * i.upper;
                    let new = (i.upper + impulse).max(0.0);
                    v.apply(ma, mb, ra, rb, -(new - i.upper) * u);
                    i.upper = new;
                } else {
                    let (bias, ms, is) = rigid(l - length, &soft, use_bias);
                    let impulse = -ms * inv_k * (along(&v) + bias) - is * i.axial;
                    i.axial += impulse;
                    v.apply(ma, mb, ra, rb, impulse * u);
                }
            }
            JointKind::Prismatic {
                limit: lim,
                motor,
                spring,
            }
            | JointKind::Wheel {
                limit: lim,
                motor,
                spring,
            } => {
                let wheel = matches!(self.kind, JointKind::Wheel { .. });
                let axis = sa.dq.rotate(self.axis);
                let perp = left(axis);
                let arm_a = d + ra;
                let translation = axis.dot(d);
                // A linear part along `n`: its velocity error and effective mass.
                let along_n = |v: &Pair, n: Vec2| {
                    n.dot(v.vb - v.va) + v.wb * rb.perp_dot(n) - v.wa * arm_a.perp_dot(n)
                };
                let inv_k_n = |n: Vec2| {
                    let (sa_, sb_) = (arm_a.perp_dot(n), rb.perp_dot(n));
                    let k = ma.linear + mb.linear + ma.angular * sa_ * sa_ + mb.angular * sb_ * sb_;
                    if k > 0.0 {
                        1.0 / k
                    } else {
                        0.0
                    }
                };
                let inv_k_axis = inv_k_n(axis);
                if spring.is_some() {
                    let impulse = -spring_soft.mass_scale
                        * inv_k_axis
                        * (along_n(&v, axis) + spring_soft.bias_rate * translation)
                        - spring_soft.impulse_scale * i.spring;
                    i.spring += impulse;
                    v.apply(ma, mb, arm_a, rb, impulse * axis);
                }
                if let Some((speed, max_effort)) = motor {
                    let max = max_effort * h;
                    if wheel {
                        let cdot = v.wb - v.wa - speed;
                        let new = (i.motor - inv_k_angular * cdot).clamp(-max, max);
                        v.apply_angular(ma, mb, new - i.motor);
                        i.motor = new;
                    } else {
                        let cdot = along_n(&v, axis) - speed;
                        let new = (i.motor - inv_k_axis * cdot).clamp(-max, max);
                        v.apply(ma, mb, arm_a, rb, (new - i.motor) * axis);
                        i.motor = new;
                    }
                }
                if let Some((lower, upper)) = lim {
                    let (bias, ms, is) = limit(translation - lower, &soft, use_bias, inv_h);
                    let impulse = -ms * inv_k_axis * (along_n(&v, axis) + bias) - is * i.lower;
                    let new = (i.lower + impulse).max(0.0);
                    v.apply(ma, mb, arm_a, rb, (new - i.lower) * axis);
                    i.lower = new;
                    let (bias, ms, is) = limit(upper - translation, &soft, use_bias, inv_h);
                    let impulse = -ms * inv_k_axis * (-along_n(&v, axis) + bias) - is * i.upper;
                    let new = (i.upper + impulse).max(0.0);
                    v.apply(ma, mb, arm_a, rb, -(new - i.upper) * axis);
                    i.upper = new;
                }
                if !wheel {
                    let s = rigid(angle, &soft, use_bias);
                    angular(&mut v, &mut i.angular, angle, s);
                }
                let (bias, ms, is) = rigid(perp.dot(d), &soft, use_bias);
                let impulse = -ms * inv_k_n(perp) * (along_n(&v, perp) + bias) - is * i.axial;
                i.axial += impulse;
                v.apply(ma, mb, arm_a, rb, impulse * perp);
            }
        }
        self.write(states, &v);
    }

    /// The reaction on B over the last substep: force (N, world) and torque (N·m).
    pub fn reaction(&self, states: &[BodyState], h: Real) -> (Vec2, Real) {
        let inv_h = 1.0 / h;
        let i = &self.impulses;
        let (sa, sb) = (states[self.a], states[self.b]);
        let (_, _, d, _) = self.geometry(&sa, &sb);
        match self.kind {
            JointKind::Revolute { .. } => (
                i.linear * inv_h,
                (i.spring + i.motor + i.lower - i.upper) * inv_h,
            ),
            JointKind::Weld { .. } | JointKind::Motor { .. } | JointKind::Mouse { .. } => {
                (i.linear * inv_h, i.angular * inv_h)
            }
            JointKind::Distance { .. } => (
                (i.axial + i.spring + i.lower - i.upper) * inv_h * d.normalize_or(Vec2::X),
                0.0,
            ),
            JointKind::Prismatic { .. } | JointKind::Wheel { .. } => {
                let axis = sa.dq.rotate(self.axis);
                let along = i.spring + i.motor_along(self.kind) + i.lower - i.upper;
                let torque = i.angular
                    + if matches!(self.kind, JointKind::Wheel { .. }) {
                        i.motor
                    } else {
                        0.0
                    };
                (
                    (along * axis + i.axial * left(axis)) * inv_h,
                    torque * inv_h,
                )
            }
        }
    }
}

impl JointImpulses {
    /// The motor impulse that acts along the axis (prismatic), or none (a wheel's motor turns).
    fn motor_along(&self, kind: JointKind) -> Real {
        if matches!(kind, JointKind::Prismatic { .. }) {
            self.motor
        } else {
            0.0
        }
    }
}

/// The rigid or spring softness of a weld part: its own spring when it has a frequency, else the
/// joint softness (biased pass only).
fn part_softness(
    (hertz, _): (Real, Real),
    soft: &Softness,
    spring: &Softness,
    c: Real,
    use_bias: bool,
) -> (Real, Real, Real) {
    if hertz > 0.0 {
        (
            spring.bias_rate * c,
            spring.mass_scale,
            spring.impulse_scale,
        )
    } else {
        rigid(c, soft, use_bias)
    }
}

/// [`rigid`] for a vector error.
fn rigid_vec(c: Vec2, soft: &Softness, use_bias: bool) -> (Vec2, Real, Real) {
    if use_bias {
        (soft.bias_rate * c, soft.mass_scale, soft.impulse_scale)
    } else {
        (Vec2::ZERO, 1.0, 0.0)
    }
}

/// A one-sided angular limit: `sign` +1 keeps the angle above the lower limit (impulse on B
/// positive), −1 below the upper one.
fn one_sided_angular(
    v: &mut Pair,
    ma: InverseMass,
    mb: InverseMass,
    inv_k: Real,
    acc: &mut Real,
    (bias, ms, is): (Real, Real, Real),
    sign: Real,
) {
    let cdot = sign * (v.wb - v.wa);
    let impulse = -ms * inv_k * (cdot + bias) - is * *acc;
    let new = (*acc + impulse).max(0.0);
    let applied = new - *acc;
    *acc = new;
    v.apply_angular(ma, mb, sign * applied);
}

/// The point constraint (B's anchor on A's): a 2×2 solve of `(bias, mass scale, impulse scale)`,
/// the accumulated impulse clamped to `max` in length when given.
#[allow(clippy::too_many_arguments)]
fn point(
    v: &mut Pair,
    ma: InverseMass,
    mb: InverseMass,
    ra: Vec2,
    rb: Vec2,
    acc: &mut Vec2,
    (bias, ms, is): (Vec2, Real, Real),
    max: Option<Real>,
) {
    let (m, ia, ib) = (ma.linear + mb.linear, ma.angular, mb.angular);
    let k11 = m + ia * ra.y * ra.y + ib * rb.y * rb.y;
    let k12 = -ia * ra.x * ra.y - ib * rb.x * rb.y;
    let k22 = m + ia * ra.x * ra.x + ib * rb.x * rb.x;
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
