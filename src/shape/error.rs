//! The error every shape constructor returns: what was wrong with the input and how to fix it.

use crate::math::Real;

/// Why a shape could not be built. Every constructor validates its input and returns this instead
/// of panicking; the message names the offending value and suggests the fix.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A coordinate, radius or other number was NaN or infinite.
    #[error("{what} is not finite ({}); every coordinate and size must be a finite number of metres", crate::math::Num(*.value))]
    NonFinite {
        /// Which input (for example `"point 3"` or `"radius"`).
        what: String,
        /// The offending value (its x or y for points).
        value: Real,
    },
    /// A radius, extent or density was zero or negative where it must be positive.
    #[error("{what} must be positive, got {}", crate::math::Num(*.value))]
    NonPositive {
        /// Which input (for example `"radius"` or `"half_width"`).
        what: &'static str,
        /// The offending value.
        value: Real,
    },
    /// A size that may be zero (such as a rounding radius) was negative.
    #[error("{what} must be zero or positive, got {}", crate::math::Num(*.value))]
    Negative {
        /// Which input.
        what: &'static str,
        /// The offending value.
        value: Real,
    },
    /// A number is outside the range the engine can honour (see `docs/reliability.md`).
    #[error("{what} is {}, but it must be {expected}", crate::math::Num(*.value))]
    OutOfRange {
        /// Which input.
        what: String,
        /// The offending value.
        value: Real,
        /// The range.
        expected: &'static str,
    },
    /// Fewer than three distinct points were given for a polygon.
    #[error("a polygon needs at least 3 distinct points, got {count}")]
    TooFewPoints {
        /// How many distinct points there were.
        count: usize,
    },
    /// Too few points for a chain (2 for an open chain, 3 for a loop).
    #[error("a chain needs at least {needed} points ({kind}), got {got}")]
    TooFewChainPoints {
        /// How many it needs.
        needed: usize,
        /// `"open"` or `"closed"`.
        kind: &'static str,
        /// How many were given.
        got: usize,
    },
    /// More vertices than a convex polygon can hold.
    #[error(
        "a convex polygon holds at most {max} vertices, got {count}; simplify the outline or split it \
         with Shape::concave / Compound::decompose"
    )]
    TooManyVertices {
        /// How many vertices were given (after dropping collinear ones).
        count: usize,
        /// The limit, [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES).
        max: usize,
    },
    /// More points or pieces than a constructor takes: checked before any work that grows
    /// faster than their count (`docs/reliability.md`, "Bounded work").
    #[error("{what} takes at most {max}, got {count}; {hint}")]
    TooManyPoints {
        /// What was being built, with what it counts (`"a convex polygon's outline (points)"`).
        what: &'static str,
        /// How many were given.
        count: usize,
        /// The limit.
        max: usize,
        /// How to stay within it.
        hint: &'static str,
    },
    /// A concave outline with more points than the decomposition takes.
    #[error(
        "a concave outline holds at most {max} points, got {count}; simplify it or build the \
         shape from convex pieces with Shape::compound"
    )]
    TooManyOutlinePoints {
        /// How many were given.
        count: usize,
        /// The limit, [`MAX_OUTLINE_POINTS`](crate::shape::MAX_OUTLINE_POINTS).
        max: usize,
    },
    /// Two input points coincide.
    #[error("points {first} and {second} are the same point; remove the duplicate")]
    DuplicatePoints {
        /// Index of the first copy in the input.
        first: usize,
        /// Index of the second copy in the input.
        second: usize,
    },
    /// All points lie on one line, so the polygon has no area.
    #[error("the points are collinear, so the polygon has no area; use Shape::capsule for a thin segment")]
    Collinear,
    /// The outline is not convex (or its points are not in boundary order).
    #[error(
        "the outline is not convex at point {index}; use ConvexPolygon::from_hull for its convex hull, \
         or Shape::concave / Compound::decompose to split a concave outline into convex pieces"
    )]
    NotConvex {
        /// Index in the input of a point that breaks convexity.
        index: usize,
    },
    /// Two edges of a polygon outline cross or touch.
    #[error(
        "the outline intersects itself: edge {first_edge} meets edge {second_edge} (edge i runs from \
         point i to point i+1); reorder the points into a simple outline"
    )]
    SelfIntersecting {
        /// Index of the first edge.
        first_edge: usize,
        /// Index of the second edge.
        second_edge: usize,
    },
    /// A capsule's two centres coincide.
    #[error("the capsule's segment has zero length; use Shape::circle for a disc")]
    ZeroLength,
    /// A compound shape was given no pieces.
    #[error("a compound shape needs at least one piece")]
    EmptyCompound,
    /// A serialized shape held a different kind than the type being read (feature `serde`).
    #[error("expected {expected}, found {found}")]
    WrongKind {
        /// What the reader expected (for example `"a circle"`).
        expected: &'static str,
        /// What the data held.
        found: &'static str,
    },
    /// A regular polygon was asked for with an unusable number of sides.
    #[error("a regular polygon needs 3 to {max} sides, got {sides}")]
    BadSideCount {
        /// The requested number of sides.
        sides: usize,
        /// The limit, [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES).
        max: usize,
    },
}

/// Checks that `value` is finite and strictly positive.
pub(crate) fn check_positive(what: &'static str, value: Real) -> Result<(), ShapeError> {
    if !value.is_finite() {
        return Err(ShapeError::NonFinite {
            what: what.to_string(),
            value,
        });
    }
    if value <= 0.0 {
        return Err(ShapeError::NonPositive { what, value });
    }
    Ok(())
}

/// Checks that `value` is finite and not negative.
pub(crate) fn check_non_negative(what: &'static str, value: Real) -> Result<(), ShapeError> {
    if !value.is_finite() {
        return Err(ShapeError::NonFinite {
            what: what.to_string(),
            value,
        });
    }
    if value < 0.0 {
        return Err(ShapeError::Negative { what, value });
    }
    Ok(())
}

/// Checks that every point is finite, naming the first bad one.
pub(crate) fn check_points_finite(points: &[crate::math::Vec2]) -> Result<(), ShapeError> {
    use crate::constants::MAX_LENGTH;
    for (i, p) in points.iter().enumerate() {
        if !p.is_finite() {
            let value = if p.x.is_finite() { p.y } else { p.x };
            return Err(ShapeError::NonFinite {
                what: format!("point {i}"),
                value,
            });
        }
        let far = p.x.abs().max(p.y.abs());
        if far > MAX_LENGTH {
            return Err(ShapeError::OutOfRange {
                what: format!("a coordinate of point {i}"),
                value: far,
                expected: "within ±1e5 m of the shape's origin (MAX_LENGTH)",
            });
        }
    }
    Ok(())
}

/// Checks a length (radius, half extent): finite, within `[MIN_LENGTH, MAX_LENGTH]`.
pub(crate) fn check_length(what: &'static str, value: Real) -> Result<(), ShapeError> {
    use crate::constants::{MAX_LENGTH, MIN_LENGTH};
    check_positive(what, value)?;
    if !(MIN_LENGTH..=MAX_LENGTH).contains(&value) {
        return Err(ShapeError::OutOfRange {
            what: what.to_string(),
            value,
            expected: "between 1e-4 m and 1e5 m (MIN_LENGTH, MAX_LENGTH)",
        });
    }
    Ok(())
}
