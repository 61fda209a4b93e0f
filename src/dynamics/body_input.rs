//! What a body is given and why it may be refused: its kind, its id, the error every refused
//! body or shape edit returns, and the checks behind that error (finite numbers, unit rotations,
//! positions, speeds and materials within the documented ranges, names cut and escaped for
//! messages). Shared by the body (`body.rs`) and its shapes (`shape_def.rs`), below both.

use crate::math::{Real, Transform, Vec2};
use crate::shape::ShapeError;

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum BodyKind {
    /// Never moves; infinite mass.
    Static,
    /// Moved by gravity, forces and contacts.
    #[default]
    Dynamic,
    /// Moves with the velocity it is given, unaffected by forces and contacts; infinite mass.
    Kinematic,
}

/// Why a body could not be created or changed. The world is left as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BodyError {
    /// A number in the definition or call is NaN or infinite.
    #[error("{field} of body {body} is not finite ({}); give a finite number", crate::math::Num(*.value))]
    NonFinite {
        /// The body's name, or `#index` for the one being added.
        body: String,
        /// The field, down to the component (`linear_velocity.x`) where it is part of a vector.
        field: &'static str,
        /// The offending value (NaN or ±infinity).
        value: Real,
    },
    /// A rotation is not a unit complex number (`cos² + sin² ≠ 1`): it was written by hand rather
    /// than built with [`Rot::from_angle`](crate::Rot::from_angle) or
    /// [`Transform::new`](crate::Transform::new).
    #[error(
        "transform.rotation of body {body} is (cos {cos}, sin {sin}), of length {length}, which is \
         not a unit rotation; build it with Transform::new(translation, angle) or Rot::from_angle"
    )]
    InvalidRotation {
        /// The body's name, or `#index` for the one being added.
        body: String,
        /// The cosine given.
        cos: Real,
        /// The sine given.
        sin: Real,
        /// `sqrt(cos² + sin²)`, which must be 1 (within 1e-9).
        length: Real,
    },
    /// A value is out of its range.
    #[error("{field} of body {body} is {}, but it must be {expected}", crate::math::Num(*.value))]
    OutOfRange {
        /// The body's name, or a description.
        body: String,
        /// The field.
        field: &'static str,
        /// The value.
        value: Real,
        /// What it must be.
        expected: &'static str,
    },
    /// The body id is stale (the body was removed) or from another world.
    #[error("no body with id {0:?} in this world (it was removed, or belongs to another world)")]
    UnknownBody(BodyId),
    /// The shape id names no shape of its body (the shape was removed).
    #[error("body {body} has no shape number {index} (it was removed)")]
    UnknownShape {
        /// The body's name or id.
        body: String,
        /// The shape's number ([`ShapeId::index`](crate::ShapeId::index)).
        index: u32,
    },
    /// A body keeps at least one shape.
    #[error("shape {index} is the last shape of body {body}: a body needs a shape; remove the body instead")]
    LastShape {
        /// The body's name or id.
        body: String,
        /// The shape's number.
        index: u32,
    },
    /// A body may have at most [`MAX_SHAPES_PER_BODY`](crate::dynamics::MAX_SHAPES_PER_BODY)
    /// shapes.
    #[error("body {body} already has {limit} shapes, the most a body may have; split it into several bodies")]
    TooManyShapes {
        /// The body's name or id.
        body: String,
        /// The limit.
        limit: usize,
    },
    /// One shape of a list given to [`World::add_shapes`](crate::World::add_shapes) was refused
    /// (or the list as a whole, at the position of its last shape): `source` says why. None of
    /// the list's shapes was added.
    #[error("shape {position} of the list given to add_shapes (counting from 0): {source}")]
    InShapeList {
        /// Position in the list of the shape the error is about.
        position: usize,
        /// What is wrong with it.
        source: Box<BodyError>,
    },
    /// The operation does not apply to this kind of body.
    #[error("body {body} is {kind:?}: {reason}")]
    WrongKind {
        /// The body's name or id.
        body: String,
        /// Its kind.
        kind: BodyKind,
        /// Why the operation is refused.
        reason: &'static str,
    },
    /// Two settings of the body contradict each other.
    #[error("body {body}: {reason}")]
    Conflicting {
        /// The body's name or id.
        body: String,
        /// Which settings, and how to reconcile them.
        reason: &'static str,
    },
    /// The shape's mass properties could not be computed.
    #[error("shape of body {body}: {source}")]
    Shape {
        /// The body's name.
        body: String,
        /// The shape error.
        #[source]
        source: ShapeError,
    },
}

/// A handle to a body: an index plus a generation, so the id of a removed body is rejected rather
/// than silently naming a body created later in the same slot, plus the tag of the world that made
/// it, so an id from another world is rejected rather than naming some body of this one. A
/// [`World::clone`](crate::World) and a restored snapshot keep their original's tag: ids stay valid
/// in copies of the world they came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
    pub(crate) world: u32,
}

impl BodyId {
    /// The body's slot in the world's storage: unique among live bodies, reused after a removal
    /// (with a new [`generation`](BodyId::generation)). Useful as a compact key in the caller's
    /// tables; it does not say where the body is stored.
    #[inline]
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many bodies used this slot before this one: an id whose generation is not the slot's
    /// current one names a removed body and is rejected.
    #[inline]
    #[must_use]
    pub const fn generation(self) -> u32 {
        self.generation
    }

    /// The tag of the world that made this id (see [`World::tag`](crate::World::tag)).
    #[inline]
    #[must_use]
    pub const fn world(self) -> u32 {
        self.world
    }
}

/// Checks that a number is finite; `field` names it in errors.
pub(crate) fn check_finite(body: &str, field: &'static str, value: Real) -> Result<(), BodyError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(BodyError::NonFinite {
            body: body.to_string(),
            field,
            value,
        })
    }
}

/// Checks that a pose is finite and its rotation is a unit complex number (errors name the
/// component, `transform.translation.x`, or the rotation).
pub(crate) fn check_transform(body: &str, transform: &Transform) -> Result<(), BodyError> {
    let components = [
        ("transform.translation.x", transform.translation.x),
        ("transform.translation.y", transform.translation.y),
        ("transform.rotation.cos", transform.rotation.cos),
        ("transform.rotation.sin", transform.rotation.sin),
    ];
    for (name, v) in components {
        check_finite(body, name, v)?;
    }
    let length = crate::trig::length(transform.rotation.cos, transform.rotation.sin);
    if (length - 1.0).abs() > crate::constants::ROTATION_TOLERANCE {
        return Err(BodyError::InvalidRotation {
            body: body.to_string(),
            cos: transform.rotation.cos,
            sin: transform.rotation.sin,
            length,
        });
    }
    Ok(())
}

/// Checks that every component of a vector is finite; `field` names the vector (`force`).
pub(crate) fn check_vector(body: &str, field: &'static str, v: Vec2) -> Result<(), BodyError> {
    check_finite(body, field, v.x)?;
    check_finite(body, field, v.y)
}

pub(crate) fn non_negative(body: &str, field: &'static str, value: Real) -> Result<(), BodyError> {
    check_finite(body, field, value)?;
    if value < 0.0 {
        return Err(BodyError::OutOfRange {
            body: body.to_string(),
            field,
            value,
            expected: "zero or positive",
        });
    }
    Ok(())
}

/// Checks that `value` is finite and at most `max` in magnitude; `expected` says the range.
pub(crate) fn within(
    body: &str,
    field: &'static str,
    value: Real,
    max: Real,
    expected: &'static str,
) -> Result<(), BodyError> {
    check_finite(body, field, value)?;
    if value.abs() > max {
        return Err(BodyError::OutOfRange {
            body: body.to_string(),
            field,
            value,
            expected,
        });
    }
    Ok(())
}

/// Checks a position: each coordinate within ±`MAX_LENGTH`.
pub(crate) fn check_position(body: &str, field: &'static str, p: Vec2) -> Result<(), BodyError> {
    use crate::constants::MAX_LENGTH;
    let expected = "within ±1e5 m of the world's origin (MAX_LENGTH)";
    within(body, field, p.x, MAX_LENGTH, expected)?;
    within(body, field, p.y, MAX_LENGTH, expected)
}

/// Checks a velocity: speed at most `MAX_SPEED`, angular speed at most `MAX_ANGULAR_SPEED`.
pub(crate) fn check_speeds(body: &str, v: Vec2, w: Real) -> Result<(), BodyError> {
    use crate::constants::{MAX_ANGULAR_SPEED, MAX_SPEED};
    check_vector(body, "linear_velocity", v)?;
    let expected = "at most 1e5 m/s in speed (MAX_SPEED)";
    // Components first, so that the speed itself cannot overflow.
    within(body, "linear_velocity", v.x, MAX_SPEED, expected)?;
    within(body, "linear_velocity", v.y, MAX_SPEED, expected)?;
    within(body, "linear_velocity", v.length(), MAX_SPEED, expected)?;
    within(
        body,
        "angular_velocity",
        w,
        MAX_ANGULAR_SPEED,
        "at most 1e5 rad/s (MAX_ANGULAR_SPEED)",
    )
}

/// A velocity held to the speeds the engine simulates: speed at most `MAX_SPEED` (the direction
/// kept), angular speed at most `MAX_ANGULAR_SPEED`. The solver applies it to every velocity it
/// integrates and the step to every velocity it ends with (as Box2D clamps its integrated
/// velocities), so no combination of in-range inputs (a large force or torque on a tiny body,
/// say) produces a speed whose step the continuous pass cannot bound (`docs/reliability.md`).
#[inline]
pub(crate) fn clamp_speeds(v: Vec2, w: Real) -> (Vec2, Real) {
    use crate::constants::{MAX_ANGULAR_SPEED, MAX_SPEED};
    let speed_squared = v.length_squared();
    let v = if speed_squared > MAX_SPEED * MAX_SPEED {
        v * (MAX_SPEED / speed_squared.sqrt())
    } else {
        v
    };
    (v, w.clamp(-MAX_ANGULAR_SPEED, MAX_ANGULAR_SPEED))
}

/// Checks friction and restitution against their ranges.
/// Checks given mass properties: a positive finite mass and inertia (at most 1e15), a centre
/// within ±1e5 m.
pub(crate) fn check_mass_data(body: &str, m: &crate::dynamics::MassData) -> Result<(), BodyError> {
    for (field, value) in [("mass_data.mass", m.mass), ("mass_data.inertia", m.inertia)] {
        within(body, field, value, 1e15, "positive, at most 1e15")?;
        if value <= 0.0 {
            return Err(BodyError::OutOfRange {
                body: body.to_string(),
                field,
                value,
                expected: "positive, at most 1e15 (to stop a body turning, lock its rotation \
                           with set_fixed_rotation)",
            });
        }
    }
    check_position(body, "mass_data.center", m.center)
}

/// Checks a contact-force threshold: a finite force from 0 to `MAX_FORCE` (N).
pub(crate) fn check_force_threshold(body: &str, threshold: Real) -> Result<(), BodyError> {
    use crate::constants::MAX_FORCE;
    non_negative(body, "contact_force_threshold", threshold)?;
    within(
        body,
        "contact_force_threshold",
        threshold,
        MAX_FORCE,
        "a force from 0 to 1e15 N",
    )
}

pub(crate) fn check_material(
    body: &str,
    friction: Real,
    restitution: Real,
) -> Result<(), BodyError> {
    use crate::constants::{MAX_FRICTION, MAX_RESTITUTION};
    non_negative(body, "friction", friction)?;
    within(
        body,
        "friction",
        friction,
        MAX_FRICTION,
        "between 0 and 1e3 (MAX_FRICTION)",
    )?;
    non_negative(body, "restitution", restitution)?;
    within(
        body,
        "restitution",
        restitution,
        MAX_RESTITUTION,
        "between 0 and 1 (1 is perfectly elastic; more would create energy)",
    )
}

/// Characters of a body's name that messages show; longer names are cut there and get `…`.
const SHOWN_NAME_CHARS: usize = 64;

/// A body's name cut for messages: its first [`SHOWN_NAME_CHARS`] characters, and whether more
/// were cut off.
pub(crate) fn cut_name(name: &str) -> (String, bool) {
    let cut = name.chars().take(SHOWN_NAME_CHARS).collect();
    (cut, name.chars().nth(SHOWN_NAME_CHARS).is_some())
}

/// A body's name as errors show it: control characters escaped (no terminal escape sequence gets
/// through), cut at 64 characters.
pub(crate) fn error_label(name: &str) -> String {
    let (cut, more) = cut_name(name);
    let mut out: String = cut
        .chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_debug().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if more {
        out.push('…');
    }
    out
}

/// Checks an angular velocity (rad/s) given to body `body` whose rotation is locked: it must be 0.
/// Refuses a velocity along an axis whose translation is locked (`BodyDef::lock_x`, `lock_y`).
pub(crate) fn check_locked_motion(
    body: &str,
    lock_x: bool,
    lock_y: bool,
    v: Vec2,
) -> Result<(), BodyError> {
    for (locked, field, value) in [
        (lock_x, "linear_velocity.x", v.x),
        (lock_y, "linear_velocity.y", v.y),
    ] {
        if locked && value != 0.0 {
            return Err(BodyError::OutOfRange {
                body: body.to_string(),
                field,
                value,
                expected: "0 along an axis whose translation is locked (unlock it first)",
            });
        }
    }
    Ok(())
}

pub(crate) fn check_locked_spin(body: &str, angular_velocity: Real) -> Result<(), BodyError> {
    if angular_velocity != 0.0 {
        return Err(BodyError::OutOfRange {
            body: body.to_string(),
            field: "angular_velocity",
            value: angular_velocity,
            expected: "0 for a body with fixed rotation (unlock it with \
                       World::set_fixed_rotation first)",
        });
    }
    Ok(())
}
