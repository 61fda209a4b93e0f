//! Why a joint is refused, and the number checks every joint kind's definition goes through: one
//! vocabulary for the messages (`<field> of the <kind> joint is …, but it must be …`).

use crate::constants::{MAX_FORCE, MAX_LENGTH};
use crate::dynamics::BodyId;
use crate::math::{Real, Vec2};

use super::{JointCommon, JointId};

/// Why a joint could not be added or changed. The world is left as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum JointError {
    /// A body id is stale or from another world.
    #[error("no body with id {0:?} in this world (it was removed, or belongs to another world)")]
    UnknownBody(BodyId),
    /// Both bodies are the same.
    #[error(
        "a joint needs two different bodies; body #{} was given as both body_a and body_b",
        .0.index
    )]
    SameBody(BodyId),
    /// Neither body can move.
    #[error("both bodies of the joint are static or kinematic: a joint between them does nothing; make one dynamic")]
    NoDynamicBody,
    /// A number is NaN or infinite.
    #[error("{field} of the {joint} joint is not finite ({}); give a finite number", crate::math::Num(*.value))]
    NonFinite {
        /// The joint's kind.
        joint: &'static str,
        /// The field.
        field: &'static str,
        /// The value.
        value: Real,
    },
    /// A number is out of its range.
    #[error("{field} of the {joint} joint is {}, but it must be {expected}", crate::math::Num(*.value))]
    OutOfRange {
        /// The joint's kind.
        joint: &'static str,
        /// The field.
        field: &'static str,
        /// The value.
        value: Real,
        /// What it must be.
        expected: &'static str,
    },
    /// The joint id is stale (the joint or one of its bodies was removed).
    #[error("no joint with id {0:?} in this world (it was removed, or one of its bodies was)")]
    UnknownJoint(JointId),
    /// The operation does not apply to this kind of joint.
    #[error("the joint is a {kind} joint: {reason}")]
    WrongKind {
        /// Its kind.
        kind: &'static str,
        /// Why.
        reason: &'static str,
    },
}

/// Checks that `value` is finite and within ±[`MAX_LENGTH`] (1e5): every signed joint number is a
/// coordinate (metres), an angle (rad), a limit or a motor speed (m/s, rad/s;
/// [`MAX_SPEED`](crate::constants::MAX_SPEED) is the same 1e5).
pub(crate) fn finite(
    joint: &'static str,
    field: &'static str,
    value: Real,
) -> Result<(), JointError> {
    if !value.is_finite() {
        return Err(JointError::NonFinite {
            joint,
            field,
            value,
        });
    }
    if value.abs() > MAX_LENGTH {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value,
            expected: "within ±1e5 (metres, radians, m/s or rad/s; see docs/reliability.md)",
        });
    }
    Ok(())
}

/// Checks that `value` is finite (infinity allowed when `max` is infinite: thresholds), ≥ 0 and
/// at most `max` ([`MAX_LENGTH`] for lengths, [`MAX_FORCE`] for forces, torques, frequencies and
/// ratios).
pub(crate) fn non_negative(
    joint: &'static str,
    field: &'static str,
    value: Real,
    max: Real,
) -> Result<(), JointError> {
    if value.is_nan() || (max.is_finite() && value.is_infinite()) {
        return Err(JointError::NonFinite {
            joint,
            field,
            value,
        });
    }
    if value < 0.0 {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value,
            expected: "zero or positive",
        });
    }
    if value > max {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value,
            expected: if max == MAX_LENGTH {
                "at most 1e5 (metres; see docs/reliability.md)"
            } else {
                "at most 1e15 (see docs/reliability.md)"
            },
        });
    }
    Ok(())
}

/// Checks a force, torque, frequency or ratio: finite, ≥ 0, at most [`MAX_FORCE`].
pub(crate) fn bounded(
    joint: &'static str,
    field: &'static str,
    value: Real,
) -> Result<(), JointError> {
    non_negative(joint, field, value, MAX_FORCE)
}

/// Checks a vector's components.
pub(crate) fn finite_vec(
    joint: &'static str,
    field: &'static str,
    v: Vec2,
) -> Result<(), JointError> {
    finite(joint, field, v.x)?;
    finite(joint, field, v.y)
}

/// Checks the common settings.
pub(crate) fn check_common(joint: &'static str, c: &JointCommon) -> Result<(), JointError> {
    non_negative(joint, "force_threshold", c.force_threshold, Real::INFINITY)?;
    non_negative(
        joint,
        "torque_threshold",
        c.torque_threshold,
        Real::INFINITY,
    )
}

/// Checks `lower ≤ upper` (both finite).
pub(crate) fn ordered(
    joint: &'static str,
    field: &'static str,
    lower: Real,
    upper: Real,
) -> Result<(), JointError> {
    finite(joint, field, lower)?;
    finite(joint, field, upper)?;
    if lower > upper {
        return Err(JointError::OutOfRange {
            joint,
            field,
            value: lower - upper,
            expected: "lower ≤ upper (the value given is lower − upper)",
        });
    }
    Ok(())
}

/// Checks a unit-able axis (finite, not zero) and returns it normalised.
pub(crate) fn axis(joint: &'static str, v: Vec2) -> Result<Vec2, JointError> {
    finite_vec(joint, "axis", v)?;
    let length = v.length();
    if length < 1e-12 {
        return Err(JointError::OutOfRange {
            joint,
            field: "axis",
            value: length,
            expected: "a direction (a vector of non-zero length)",
        });
    }
    Ok(v / length)
}

/// Checks that a stored axis (a snapshot's) is a unit vector.
#[cfg_attr(not(feature = "serde"), allow(dead_code))] // snapshots' checks
pub(crate) fn unit_axis(joint: &'static str, v: Vec2) -> Result<(), JointError> {
    if (v.length() - 1.0).abs() > crate::constants::ROTATION_TOLERANCE {
        return Err(JointError::OutOfRange {
            joint,
            field: "axis",
            value: v.length(),
            expected: "a unit vector",
        });
    }
    Ok(())
}
