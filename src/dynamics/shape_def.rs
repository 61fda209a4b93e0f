//! A body's shapes: their definitions (shape, offset in the body frame, density, friction,
//! restitution, collision filter, sensor flag), the collision filter rule (Box2D's category /
//! mask / group), and how a body's shapes combine into its mass properties and collision geometry.
//!
//! A body has one or more shapes. Its mass properties are the exact sum of its shapes' (each
//! shape's centre and inertia placed by its offset, combined with the parallel-axis theorem). Its
//! collision geometry is the union of its solid (non-sensor) shapes, re-centred on the centre of
//! mass: the shape itself when there is one, else a compound of every solid shape's convex pieces,
//! each piece remembering the shape it came from (for per-shape material, filter and events).
//! Sensor shapes never collide; they are kept apart for the sensor pass.

use crate::dynamics::body_input::{check_position, check_transform, BodyError, BodyId, BodyKind};
use crate::math::{Real, Transform, Vec2};
use crate::shape::Shape;

/// Which shapes may collide, with Box2D's semantics. Two shapes collide when each one's
/// `category` has a bit in the other's `mask`, except that two shapes with the same non-zero
/// `group` always collide (positive group) or never do (negative group), whatever their
/// categories. The default (category 1, every mask bit, group 0) collides with everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct Filter {
    /// The categories this shape belongs to (bits; usually one).
    pub category: u64,
    /// The categories this shape collides with (bits).
    pub mask: u64,
    /// Group: shapes sharing a positive group always collide, a negative group never; 0 is none.
    pub group: i32,
}

impl Filter {
    /// The default filter: category 1, collides with every category, no group.
    pub const DEFAULT: Filter = Filter {
        category: 1,
        mask: u64::MAX,
        group: 0,
    };

    /// Whether shapes with filters `self` and `other` collide (the rule of the type's notes). The
    /// relation is symmetric.
    #[inline]
    #[must_use]
    pub fn should_collide(&self, other: &Filter) -> bool {
        if self.group == other.group && self.group != 0 {
            return self.group > 0;
        }
        self.mask & other.category != 0 && other.mask & self.category != 0
    }
}

impl Default for Filter {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// One shape of a body: for [`World::add_shape`](crate::World::add_shape). (The body's first shape
/// is described by its [`BodyDef`](crate::BodyDef).) `ShapeDef::default()` is a unit box (half
/// extents 0.5 m) at the body's origin, density 1, friction 0.6, no restitution, default filter.
/// With the `serde` feature it serializes in the exact form world snapshots use (every stored
/// field of the shape); scene files describe shapes in their own form (`docs/scenes.md`).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeDef {
    /// The shape, in its own frame (metres).
    #[cfg_attr(feature = "serde", serde(with = "crate::shape::exact"))]
    pub shape: Shape,
    /// Where the shape's frame sits in the body's frame.
    pub offset: Transform,
    /// Density (kg/m², ≥ 0). A dynamic body needs some shape with positive density; a sensor's
    /// density counts towards the body's mass like any shape's (set 0 for a massless sensor).
    pub density: Real,
    /// Coulomb friction coefficient (≥ 0), mixed with the other shape's by the world's rule.
    pub friction: Real,
    /// Coefficient of restitution (≥ 0), mixed with the other shape's by the world's rule.
    pub restitution: Real,
    /// Which shapes this one collides with (and, for a sensor, which it detects).
    pub filter: Filter,
    /// A sensor never collides: it reports the shapes that enter and leave it
    /// ([`StepEvents::sensor_begin`](crate::StepEvents::sensor_begin) and
    /// [`sensor_end`](crate::StepEvents::sensor_end)).
    pub sensor: bool,
}

impl Default for ShapeDef {
    fn default() -> Self {
        Self {
            shape: Shape::rectangle(0.5, 0.5).expect("a valid default box"),
            offset: Transform::IDENTITY,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: Filter::DEFAULT,
            sensor: false,
        }
    }
}

impl ShapeDef {
    /// A definition of `shape` at the body's origin with the default material and filter.
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            ..Self::default()
        }
    }
}

/// A handle to one shape of a body: the body's id and a number the body never gives to another
/// shape (so the id of a removed shape is rejected).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeId {
    pub(crate) body: BodyId,
    pub(crate) index: u32,
}

impl ShapeId {
    /// The body the shape belongs to.
    #[inline]
    #[must_use]
    pub const fn body(self) -> BodyId {
        self.body
    }

    /// The shape's number within its body: 0 for the shape its `BodyDef` described, then 1, 2, …
    /// in the order shapes were added (never reused).
    #[inline]
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }
}

/// A shape of a body with its number (see [`ShapeId::index`]).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BodyShape {
    pub index: u32,
    pub def: ShapeDef,
    /// The contact force (N) past which this shape's contacts are reported as contact-force
    /// events (`World::set_contact_force_threshold`); `None`: never.
    #[cfg_attr(feature = "serde", serde(default))]
    pub contact_force_threshold: Option<crate::math::Real>,
}

/// A body's shapes combined: mass properties and collision geometry (module notes).
#[derive(Clone, Debug)]
pub(crate) struct Assembly {
    /// Mass (kg), rotational inertia about the centre of mass (kg·m²); zero unless dynamic.
    pub mass: Real,
    pub inertia: Real,
    /// Centre of mass in the body frame (metres). For static and kinematic bodies, the
    /// area-weighted centre of the shapes.
    pub local_center: Vec2,
    /// The solid shapes' union in the centre-of-mass frame (the sensors' when no shape is solid).
    pub com_shape: Shape,
    /// For each piece of `com_shape` (0 for a convex one), the index in the body's shape list of
    /// the shape it came from.
    pub piece_owner: Vec<u16>,
    /// Whether some shape is solid (not a sensor).
    pub solid: bool,
    /// The sensor shapes, centre-of-mass frame, with their index in the shape list.
    pub sensors: Vec<(u16, Shape)>,
    /// The distinct filters of the solid shapes (of every shape when none is solid), ordered by
    /// category, mask and group: one when they all share it.
    pub filters: Vec<Filter>,
    /// Whether some piece of `com_shape` is a chain segment (see `contact::is_ghost`).
    pub has_chain: bool,
}

/// A dynamic body's mass properties given instead of those of its shapes
/// (`World::set_mass_data`): mass (kg), rotational inertia about the centre of mass (kg·m²) and
/// the centre of mass in the body's frame (metres).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassData {
    /// Mass (kg, positive).
    pub mass: Real,
    /// Rotational inertia about the centre of mass (kg·m², positive; lock the rotation with
    /// `fixed_rotation` rather than a zero inertia).
    pub inertia: Real,
    /// Centre of mass in the body's frame (metres, within ±1e5).
    pub center: Vec2,
}

/// Most shapes a body may have. Each shape change re-combines the body's shapes (work linear in
/// their count, and up to quadratic when they all overlap at one place), so a body of many shapes
/// is given them at once with [`World::add_shapes`](crate::World::add_shapes); a larger ground
/// is several bodies, or one compound shape of up to
/// [`MAX_COMPOUND_PIECES`](crate::shape::MAX_COMPOUND_PIECES) pieces.
pub const MAX_SHAPES_PER_BODY: usize = 4096;

/// Checks one shape definition's numbers; `body` names the body and `which` the shape in errors.
pub(crate) fn check_shape_def(body: &str, def: &ShapeDef) -> Result<(), BodyError> {
    check_transform(body, &def.offset).map_err(|e| match e {
        BodyError::NonFinite { body, value, .. } => BodyError::NonFinite {
            body,
            field: "shape offset",
            value,
        },
        other => other,
    })?;
    use crate::constants::{MAX_DENSITY, MAX_FRICTION, MAX_RESTITUTION, MIN_DENSITY};
    let ranges = [
        (
            "shape density",
            def.density,
            MAX_DENSITY,
            "between 1e-6 and 1e8 kg/m², or 0 (massless)",
        ),
        (
            "shape friction",
            def.friction,
            MAX_FRICTION,
            "between 0 and 1e3 (MAX_FRICTION)",
        ),
        (
            "shape restitution",
            def.restitution,
            MAX_RESTITUTION,
            "between 0 and 1 (1 is perfectly elastic; more would create energy)",
        ),
    ];
    for (field, value, max, expected) in ranges {
        let too_light = field == "shape density" && value > 0.0 && value < MIN_DENSITY;
        if value.is_finite() && (value > max || too_light) {
            return Err(BodyError::OutOfRange {
                body: body.to_string(),
                field,
                value,
                expected,
            });
        }
    }
    check_position(body, "shape offset", def.offset.translation)?;
    for (field, value) in [
        ("shape density", def.density),
        ("shape friction", def.friction),
        ("shape restitution", def.restitution),
    ] {
        if !value.is_finite() {
            return Err(BodyError::NonFinite {
                body: body.to_string(),
                field,
                value,
            });
        }
        if value < 0.0 {
            return Err(BodyError::OutOfRange {
                body: body.to_string(),
                field,
                value,
                expected: "zero or positive",
            });
        }
    }
    Ok(())
}

/// The body's mass (kg), rotational inertia about its centre of mass (kg·m²) and centre of mass
/// (body frame, metres) from its `shapes`: each shape's at its density (at density 1 for bodies
/// without mass, to place the centre), moved to the body frame by its offset, summed with the
/// parallel-axis theorem. Static and kinematic bodies have no mass.
fn mass_properties(
    kind: BodyKind,
    shapes: &[BodyShape],
    body: &str,
) -> Result<(Real, Real, Vec2), BodyError> {
    let shape_error = |source| BodyError::Shape {
        body: body.to_string(),
        source,
    };
    let dynamic = kind == BodyKind::Dynamic;
    let mut parts = Vec::with_capacity(shapes.len());
    let nothing = crate::shape::MassProperties {
        area: 0.0,
        mass: 0.0,
        center: Vec2::ZERO,
        inertia: 0.0,
    };
    for s in shapes {
        let m = if !dynamic {
            // Only the centre matters (no mass): a shape whose area cannot be computed counts
            // for nothing.
            s.def.shape.mass_properties(1.0).unwrap_or(nothing)
        } else if s.def.density > 0.0 {
            s.def
                .shape
                .mass_properties(s.def.density)
                .map_err(shape_error)?
        } else {
            nothing
        };
        parts.push((m.mass, s.def.offset.transform_point(m.center), m.inertia));
    }
    let total: Real = parts.iter().map(|p| p.0).sum();
    if !(total.is_finite()) {
        return Err(BodyError::OutOfRange {
            body: body.to_string(),
            field: "mass",
            value: total,
            expected: "finite: the shapes are too large for their density",
        });
    }
    if dynamic && total <= 0.0 {
        return Err(BodyError::OutOfRange {
            body: body.to_string(),
            field: "density",
            value: 0.0,
            expected: "positive for some shape of a dynamic body (kg/m²)",
        });
    }
    let local_center = if parts.len() == 1 {
        parts[0].1 // (exactly the shape's centre)
    } else if total > 0.0 {
        parts.iter().map(|p| p.0 * p.1).sum::<Vec2>() / total
    } else {
        Vec2::ZERO
    };
    let (mass, inertia) = if dynamic {
        let inertia = parts
            .iter()
            .map(|(m, c, i)| i + m * (*c - local_center).length_squared())
            .sum();
        (total, inertia)
    } else {
        (0.0, 0.0)
    };
    Ok((mass, inertia, local_center))
}

/// Combines `shapes` (non-empty, each checked by [`check_shape_def`]) of a body of `kind`; `body`
/// names it in errors.
pub(crate) fn assemble(
    kind: BodyKind,
    shapes: &[BodyShape],
    body: &str,
    mass_data: Option<&MassData>,
) -> Result<Assembly, BodyError> {
    debug_assert!(!shapes.is_empty());
    let shape_error = |source| BodyError::Shape {
        body: body.to_string(),
        source,
    };
    let (mass, inertia, local_center) = match mass_data {
        Some(m) if kind == BodyKind::Dynamic => (m.mass, m.inertia, m.center),
        _ => mass_properties(kind, shapes, body)?,
    };
    // Geometry in the centre-of-mass frame.
    let to_com = |def: &ShapeDef| {
        if def.offset == Transform::IDENTITY {
            def.shape.translated(-local_center)
        } else {
            def.shape
                .transformed(&(Transform::from_translation(-local_center) * def.offset))
        }
        .map_err(shape_error)
    };
    let solid: Vec<usize> = (0..shapes.len())
        .filter(|&i| !shapes[i].def.sensor)
        .collect();
    let sensors = shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| s.def.sensor)
        .map(|(i, s)| Ok((i as u16, to_com(&s.def)?)))
        .collect::<Result<_, BodyError>>()?;
    let members: &[usize] = if solid.is_empty() {
        &(0..shapes.len()).collect::<Vec<_>>()
    } else {
        &solid
    };
    let (com_shape, piece_owner) = if members.len() == 1 {
        let i = members[0];
        let shape = to_com(&shapes[i].def)?;
        let pieces = match &shape {
            Shape::Compound(c) => c.pieces().len(),
            _ => 1,
        };
        (shape, vec![i as u16; pieces])
    } else {
        let mut pieces = Vec::new();
        let mut owner = Vec::new();
        for &i in members {
            match to_com(&shapes[i].def)? {
                Shape::Compound(c) => {
                    // Whole, so that its pieces keep what they know (chain links).
                    owner.extend(std::iter::repeat_n(i as u16, c.pieces().len()));
                    pieces.push((Transform::IDENTITY, Shape::Compound(c)));
                }
                convex => {
                    pieces.push((Transform::IDENTITY, convex));
                    owner.push(i as u16);
                }
            }
        }
        let compound = crate::shape::Compound::new(pieces).map_err(shape_error)?;
        (Shape::Compound(compound), owner)
    };
    let mut filters: Vec<Filter> = members.iter().map(|&i| shapes[i].def.filter).collect();
    filters.sort_unstable_by_key(|f| (f.category, f.mask, f.group));
    filters.dedup();
    let has_chain =
        matches!(&com_shape, Shape::Compound(c) if c.pieces().iter().any(|p| p.link.is_some()));
    Ok(Assembly {
        has_chain,
        mass,
        inertia,
        local_center,
        com_shape,
        piece_owner,
        solid: !solid.is_empty(),
        sensors,
        filters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_rule_is_boxes() {
        let f = |category, mask, group| Filter {
            category,
            mask,
            group,
        };
        assert!(Filter::default().should_collide(&Filter::default()));
        // Categories and masks must both agree.
        assert!(f(1, 2, 0).should_collide(&f(2, 1, 0)));
        assert!(!f(1, 2, 0).should_collide(&f(2, 2, 0)));
        assert!(!f(1, 0, 0).should_collide(&f(1, u64::MAX, 0)));
        // A shared positive group always collides, a shared negative one never.
        assert!(f(1, 0, 3).should_collide(&f(1, 0, 3)));
        assert!(!f(1, u64::MAX, -3).should_collide(&f(1, u64::MAX, -3)));
        // Different groups fall back to the masks.
        assert!(f(1, u64::MAX, -3).should_collide(&f(1, u64::MAX, -4)));
        assert!(!f(1, 0, 3).should_collide(&f(1, 0, 4)));
    }
}
