//! The prismatic joint (a slider): B's anchor held on a line along an axis fixed in A, the
//! relative angle locked, with an optional translation limit, motor and spring (Box2D v3's
//! prismatic joint, soft step; `docs/joints.md`).
//!
//! The slider is shared with the wheel joint (`wheel.rs`), which is the same line without the
//! angular lock and with a motor that turns the wheel: [`Slider`] serves both, told which by its
//! parameter. Solve order in each
//! pass: spring, motor, the two one-sided limits, the angular lock (prismatic only), then the
//! line (the perpendicular).

use crate::dynamics::BodyId;
use crate::math::{Real, Vec2};

use super::error::{axis, check_common, finite_vec, unit_axis, JointError};
use super::parts::{left, Drive, Limit, Motor, Pair, Spring, Substep};
use super::{Ends, Joint, JointCommon, JointImpulses, JointKind, RigidParts, Rules};

/// A slider: body B moves along an axis fixed in body A and does not turn relative to it, with an
/// optional translation limit, motor and spring.
#[derive(Clone, Debug, PartialEq)]
pub struct PrismaticJointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// A point on the axis, in the world when the joint is added (metres).
    pub anchor: Vec2,
    /// The axis direction in the world when the joint is added (normalised; must not be zero).
    pub axis: Vec2,
    /// Relative angle held (radians); `None`: the angle when the joint is added.
    pub reference_angle: Option<Real>,
    /// Whether the translation along the axis is limited to `[lower, upper]` (metres).
    pub enable_limit: bool,
    /// Lower translation limit (metres).
    pub lower_translation: Real,
    /// Upper translation limit (metres).
    pub upper_translation: Real,
    /// Whether the motor drives the speed along the axis toward `motor_speed`.
    pub enable_motor: bool,
    /// Motor target speed (m/s).
    pub motor_speed: Real,
    /// Largest force the motor applies (N, ≥ 0).
    pub max_motor_force: Real,
    /// Whether a spring pulls the translation toward 0.
    pub enable_spring: bool,
    /// Spring frequency (Hz, ≥ 0).
    pub hertz: Real,
    /// Spring damping ratio (≥ 0).
    pub damping_ratio: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl PrismaticJointDef {
    /// A free slider of `body_b` along `axis` through the world point `anchor` of `body_a`.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, anchor: Vec2, axis: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            anchor,
            axis,
            reference_angle: None,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            common: JointCommon::default(),
        }
    }

    /// Checks the definition and converts it for bodies `ends` (see `World::add_joint`).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        let name = Prismatic::NAME;
        let drive = || {
            Drive::from_def(
                name,
                (
                    "translation limits",
                    self.enable_limit,
                    self.lower_translation,
                    self.upper_translation,
                ),
                (
                    "max_motor_force",
                    self.enable_motor,
                    self.motor_speed,
                    self.max_motor_force,
                ),
                (self.enable_spring, self.hertz, self.damping_ratio),
            )
        };
        let joint = slider_joint(
            ends,
            name,
            (self.anchor, self.axis),
            &self.common,
            drive,
            |d| JointKind::Prismatic(Slider(d)),
        )?;
        Ok(Joint {
            reference_angle: ends.reference(name, "reference_angle", self.reference_angle)?,
            ..joint
        })
    }
}

/// A slider's settings as the world keeps them: its drive. `WHEEL` tells a wheel joint (no
/// angular lock; the motor turns the wheel) from a prismatic one.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Slider<const WHEEL: bool>(pub Drive);

/// A prismatic joint's settings.
pub(crate) type Prismatic = Slider<false>;

impl<const WHEEL: bool> Rules for Slider<WHEEL> {
    const NAME: &'static str = if WHEEL { "wheel" } else { "prismatic" };

    fn check(&self, local_axis: Vec2) -> Result<(), JointError> {
        unit_axis(Self::NAME, local_axis)?;
        self.0.check(Self::NAME)
    }

    fn springs(&self) -> [Option<Spring>; 2] {
        [self.0.spring, None]
    }

    fn reads_angle(&self) -> bool {
        // The prismatic joint holds the angle rigidly; the wheel leaves it free.
        !WHEEL
    }

    #[inline(always)]
    fn warm_start(&self, s: &Substep, i: &JointImpulses, v: &mut Pair) {
        let (along, turn) = slider_impulses(i, WHEEL);
        let p = along * s.axis + i.axial * left(s.axis);
        v.apply(s.ma, s.mb, s.d + s.ra, s.rb, p);
        v.apply_angular(s.ma, s.mb, turn);
    }

    #[inline(always)]
    fn solve(&self, s: &Substep, i: &mut JointImpulses, v: &mut Pair) {
        solve_slider(&self.0, s, i, v, WHEEL);
    }

    fn reaction(&self, s: &Substep, i: &JointImpulses) -> (Vec2, Real) {
        let (along, turn) = slider_impulses(i, WHEEL);
        (
            (along * s.axis + i.axial * left(s.axis)) * s.inv_h,
            turn * s.inv_h,
        )
    }

    fn rigid_parts(&self) -> RigidParts {
        RigidParts::Across { angular: !WHEEL }
    }

    fn motor_mut(&mut self) -> Option<&mut Motor> {
        self.0.motor.as_mut()
    }
}

/// A slider joint (prismatic, wheel) for bodies `ends` on the line through `anchor` along `axis`
/// (world, when the joint is added): the anchor, the axis, the common settings and then the
/// drive (`drive`) checked in that order, the kind made by `kind`.
pub(super) fn slider_joint(
    ends: &Ends<'_>,
    name: &'static str,
    (anchor, axis_v): (Vec2, Vec2),
    common: &JointCommon,
    drive: impl FnOnce() -> Result<Drive, JointError>,
    kind: impl FnOnce(Drive) -> JointKind,
) -> Result<Joint, JointError> {
    let ((ka, a), (kb, b)) = ends.two();
    finite_vec(name, "anchor", anchor)?;
    let ax = axis(name, axis_v)?;
    check_common(name, common)?;
    let drive = drive()?;
    Ok(Joint {
        local_axis: a.transform().rotation.inv_rotate(ax),
        ..Joint::new(
            Some(ka),
            kb,
            (ends.local(a, anchor), ends.local(b, anchor)),
            kind(drive),
            *common,
        )
    })
}

/// The impulse along the axis and the angular impulse a slider's accumulated impulses make
/// (`wheel`: the motor turns rather than pushes, and nothing locks the angle but the impulses).
#[inline]
fn slider_impulses(i: &JointImpulses, wheel: bool) -> (Real, Real) {
    let motor_along = if wheel { 0.0 } else { i.motor };
    let along = i.spring + motor_along + i.lower - i.upper;
    let turn = i.angular + if wheel { i.motor } else { 0.0 };
    (along, turn)
}

/// One pass of a slider (prismatic, or a wheel when `wheel`; see the module notes).
fn solve_slider(drive: &Drive, s: &Substep, i: &mut JointImpulses, v: &mut Pair, wheel: bool) {
    let (ma, mb, rb, axis) = (s.ma, s.mb, s.rb, s.axis);
    let perp = left(axis);
    let arm_a = s.d + s.ra;
    let translation = axis.dot(s.d);
    // A linear part along `n`: its velocity error and effective mass.
    let along_n =
        |v: &Pair, n: Vec2| n.dot(v.vb - v.va) + v.wb * rb.perp_dot(n) - v.wa * arm_a.perp_dot(n);
    let inv_k_n = |n: Vec2| {
        let (sa_, sb_) = (arm_a.perp_dot(n), rb.perp_dot(n));
        let k = ma.linear_along(n)
            + mb.linear_along(n)
            + ma.angular * sa_ * sa_
            + mb.angular * sb_ * sb_;
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    };
    let inv_k_axis = inv_k_n(axis);
    if drive.spring.is_some() {
        let sp = &s.spring;
        let impulse = -sp.mass_scale * inv_k_axis * (along_n(v, axis) + sp.bias_rate * translation)
            - sp.impulse_scale * i.spring;
        i.spring += impulse;
        v.apply(ma, mb, arm_a, rb, impulse * axis);
    }
    if let Some(m) = drive.motor {
        if wheel {
            s.angular_motor(v, &mut i.motor, m);
        } else {
            let max = m.max * s.h;
            let cdot = along_n(v, axis) - m.speed;
            let new = (i.motor - inv_k_axis * cdot).clamp(-max, max);
            v.apply(ma, mb, arm_a, rb, (new - i.motor) * axis);
            i.motor = new;
        }
    }
    if let Some(Limit { lower, upper }) = drive.limit {
        let (bias, ms, is) = s.limit(translation - lower);
        let impulse = -ms * inv_k_axis * (along_n(v, axis) + bias) - is * i.lower;
        let new = (i.lower + impulse).max(0.0);
        v.apply(ma, mb, arm_a, rb, (new - i.lower) * axis);
        i.lower = new;
        let (bias, ms, is) = s.limit(upper - translation);
        let impulse = -ms * inv_k_axis * (-along_n(v, axis) + bias) - is * i.upper;
        let new = (i.upper + impulse).max(0.0);
        v.apply(ma, mb, arm_a, rb, -(new - i.upper) * axis);
        i.upper = new;
    }
    if !wheel {
        s.angular(v, &mut i.angular, s.rigid(s.angle));
    }
    let (bias, ms, is) = s.rigid(perp.dot(s.d));
    let impulse = -ms * inv_k_n(perp) * (along_n(v, perp) + bias) - is * i.axial;
    i.axial += impulse;
    v.apply(ma, mb, arm_a, rb, impulse * perp);
}
