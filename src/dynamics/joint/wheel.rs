//! The wheel joint: B (the wheel) held on a line along an axis fixed in A (the chassis), sprung
//! along it, free to turn or driven by a motor (Box2D v3's wheel joint, soft step;
//! `docs/joints.md`). It is the prismatic joint's slider without the angular lock, its motor
//! turning the wheel: its settings and solve are `prismatic.rs`'s [`Slider`], told it serves a
//! wheel.

use crate::dynamics::BodyId;
use crate::math::{Real, Vec2};

use super::error::JointError;
use super::parts::Drive;
use super::prismatic::{slider_joint, Slider};
use super::{Ends, Joint, JointCommon, JointKind, Rules};

/// A wheel on a suspension: body B (the wheel) stays on a line along `axis` through `anchor` of
/// body A (the chassis), sprung along it, turning freely or driven by a motor.
#[derive(Clone, Debug, PartialEq)]
pub struct WheelJointDef {
    /// The chassis.
    pub body_a: BodyId,
    /// The wheel.
    pub body_b: BodyId,
    /// The wheel's centre, in the world when the joint is added (metres).
    pub anchor: Vec2,
    /// The suspension axis in the world when the joint is added (normalised; not zero).
    pub axis: Vec2,
    /// Whether the suspension spring is on. Default true.
    pub enable_spring: bool,
    /// Suspension frequency (Hz, ≥ 0). Default 4.
    pub hertz: Real,
    /// Suspension damping ratio (≥ 0). Default 0.7.
    pub damping_ratio: Real,
    /// Whether the travel along the axis is limited to `[lower, upper]` (metres).
    pub enable_limit: bool,
    /// Lower translation limit (metres).
    pub lower_translation: Real,
    /// Upper translation limit (metres).
    pub upper_translation: Real,
    /// Whether the motor drives the wheel's angular velocity relative to the chassis.
    pub enable_motor: bool,
    /// Motor target speed (rad/s).
    pub motor_speed: Real,
    /// Largest motor torque (N·m, ≥ 0).
    pub max_motor_torque: Real,
    /// Collision and break thresholds.
    pub common: JointCommon,
}

impl WheelJointDef {
    /// A wheel `body_b` at the world point `anchor`, sprung along `axis` on the chassis `body_a`.
    #[must_use]
    pub fn new(body_a: BodyId, body_b: BodyId, anchor: Vec2, axis: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            anchor,
            axis,
            enable_spring: true,
            hertz: 4.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            common: JointCommon::default(),
        }
    }

    /// Checks the definition and converts it for bodies `ends` (see `World::add_joint`).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        let name = Wheel::NAME;
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
                    "max_motor_torque",
                    self.enable_motor,
                    self.motor_speed,
                    self.max_motor_torque,
                ),
                (self.enable_spring, self.hertz, self.damping_ratio),
            )
        };
        slider_joint(
            ends,
            name,
            (self.anchor, self.axis),
            &self.common,
            drive,
            |d| JointKind::Wheel(Slider(d)),
        )
    }
}

/// A wheel joint's settings as the world keeps them (the slider of `prismatic.rs`).
pub(crate) type Wheel = Slider<true>;
