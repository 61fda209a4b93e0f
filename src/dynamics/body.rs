//! Rigid bodies: definitions, validation, mass properties and the state the world integrates.
//!
//! A body's shape is given in the body's frame (the frame its `transform` places). Internally the
//! body keeps a copy of the shape re-centred on its centre of mass, so that every motion the world
//! builds rotates about the centre of mass (the convention of `query::Motion`); the public pose is
//! always the user's frame.

use crate::dynamics::body_input::{
    check_finite, check_locked_motion, check_locked_spin, check_material, check_position,
    check_speeds, check_transform, error_label, non_negative, within,
};
pub use crate::dynamics::body_input::{BodyError, BodyId, BodyKind};
use crate::dynamics::contact_math::{point_velocity, relative_velocity, InverseMass};
use crate::dynamics::shape_def::{
    assemble, check_shape_def, Assembly, BodyShape, Filter, MassData, ShapeDef, ShapeId,
};
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::Shape;

/// How far a jointed body's proxy box stretches along its predicted motion, in multiples of its
/// reach (see `Body::predicted_box`): far enough for a link falling many times its own thickness
/// per step (a chain dropped from 200 m), near enough that a fast body's box stays a few times
/// its size.
const PROXY_SWEEP_REACHES: Real = 4.0;

/// Everything needed to create a body. `BodyDef::default()` is a dynamic unit box at the origin.
///
/// `shape`, `density`, `restitution`, `friction`, `filter` and `sensor` describe the body's first
/// shape (at the body's origin); more shapes come from [`World::add_shape`](crate::World::add_shape).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDef {
    /// Static, dynamic or kinematic.
    pub kind: BodyKind,
    /// The first shape, in the body's frame (metres).
    pub shape: Shape,
    /// Pose of the body's frame in the world.
    pub transform: Transform,
    /// Velocity of the centre of mass (m/s, world frame).
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s, counter-clockwise).
    pub angular_velocity: Real,
    /// Density (kg/m²); must be positive for a dynamic body. Default 1.
    pub density: Real,
    /// Coefficient of restitution (≥ 0): 0 is perfectly inelastic, 1 perfectly elastic. Default 0.
    pub restitution: Real,
    /// Coulomb friction coefficient (≥ 0). Default 0.6.
    pub friction: Real,
    /// Which shapes the first shape collides with. Default: everything.
    pub filter: Filter,
    /// The first shape is a sensor (never collides; reports what enters and leaves it). Default
    /// false.
    pub sensor: bool,
    /// Linear damping (1/s, ≥ 0): velocity decays as `v / (1 + h·c)` each substep of `h = dt /
    /// substeps` (about `e^(−c·dt)` a step). Default 0.
    pub linear_damping: Real,
    /// Angular damping (1/s, ≥ 0). Default 0.
    pub angular_damping: Real,
    /// Multiplier of the world's gravity for this body. Default 1.
    pub gravity_scale: Real,
    /// Whether the body may fall asleep when it and its island rest (see
    /// [`WorldConfig::sleep`](crate::WorldConfig::sleep)). Default true.
    pub allow_sleep: bool,
    /// Whether the body's rotation is locked: it never turns, whatever hits it, pulls on it or
    /// twists it (its inverse rotational inertia is zero in the solver and the continuous pass),
    /// and its angular velocity stays 0 (`angular_velocity` must then be 0). A player body, a
    /// crate that must stay upright. Default false. Change it with
    /// [`World::set_fixed_rotation`](crate::World::set_fixed_rotation).
    pub fixed_rotation: bool,
    /// Whether the body's translation along the world x axis is locked: no contact, joint,
    /// force or gravity moves it along x (its inverse mass along x is zero in the solver and the
    /// continuous pass), and its velocity along x stays 0 (`linear_velocity.x` must then be 0).
    /// A door on vertical rails, a piston. Default false. Change it with
    /// [`World::set_locked_translation`](crate::World::set_locked_translation).
    pub lock_x: bool,
    /// As `lock_x`, along the world y axis (a platform that moves only sideways).
    pub lock_y: bool,
    /// Whether a dynamic body starts awake. Default true. A body created asleep (a wall of
    /// 9,600 boxes waiting for a ram, a level's crates) costs no solver or narrow-phase work
    /// until something wakes it: a body that meets it, an impact from the continuous pass, or a
    /// call; its island then wakes with it in that step and takes its share of the blow. It must
    /// be at rest (zero velocity) and allowed to sleep. Static and kinematic bodies are always
    /// awake.
    pub awake: bool,
    /// A number of the caller's (an entity id, say), returned untouched.
    pub user_tag: Option<u64>,
    /// A name for reports, plots and error messages.
    pub name: Option<String>,
}

impl Default for BodyDef {
    fn default() -> Self {
        Self {
            kind: BodyKind::Dynamic,
            shape: Shape::rectangle(0.5, 0.5).expect("a valid default box"),
            transform: Transform::IDENTITY,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            density: 1.0,
            restitution: 0.0,
            friction: 0.6,
            filter: Filter::DEFAULT,
            sensor: false,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            allow_sleep: true,
            fixed_rotation: false,
            lock_x: false,
            lock_y: false,
            awake: true,
            user_tag: None,
            name: None,
        }
    }
}

/// How the shapes of two bodies are filtered against each other.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairFilter {
    /// No shape of one collides with any of the other's (or one has only sensors).
    Never,
    /// Every solid shape of one collides with every solid shape of the other.
    All,
    /// Some piece pairs collide: check each with [`Body::pieces_collide`].
    Pieces,
}

/// A body's solid box at one pose, kept so that it is computed once per pose (see
/// [`Body::solid_box_at`]). A pure cache: reading it gives the bits a fresh computation would.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolidBox {
    /// The centre-of-mass frame's pose (world) the box is for; NaN when none is.
    pose: Transform,
    /// The box (world metres).
    aabb: crate::Aabb,
}

impl Default for SolidBox {
    fn default() -> Self {
        Self {
            pose: Transform::from_translation(Vec2::splat(Real::NAN)),
            aabb: crate::Aabb {
                min: Vec2::ZERO,
                max: Vec2::ZERO,
            },
        }
    }
}

impl SolidBox {
    /// The box, if it is for exactly `pose` (bit for bit).
    fn at(&self, pose: &Transform) -> Option<crate::Aabb> {
        let same = |a: Real, b: Real| a.to_bits() == b.to_bits();
        let (p, q) = (&self.pose, pose);
        (same(p.translation.x, q.translation.x)
            && same(p.translation.y, q.translation.y)
            && same(p.rotation.cos, q.rotation.cos)
            && same(p.rotation.sin, q.rotation.sin))
        .then_some(self.aabb)
    }
}

/// A body in the world. Read it through [`World::body`](crate::World::body); change it through the
/// world's setters, which validate.
///
/// Laid out in declaration order (`repr(C)`), starting on a cache line, with what every step reads
/// of every body first (poses, velocities, the sizes the continuous pass uses, the box cache), then
/// the collision shape, then what only edits and queries read: a pass over thousands of bodies then
/// touches the first few cache lines of each instead of lines scattered over its kilobyte
/// (falling mixed 16,000: see `docs/history/benchmarks.md`, "Dense scenes, seventh round").
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Body {
    /// Pose of the centre-of-mass frame in the world.
    pub(crate) pose: Transform,
    /// Pose of the centre-of-mass frame at the start of the last step (for interpolation).
    pub(crate) previous_pose: Transform,
    pub(crate) linear_velocity: Vec2,
    pub(crate) angular_velocity: Real,
    /// Farthest point of the shape from the centre of mass (metres).
    pub(crate) reach: Real,
    /// Farthest point of the shape's core from the centre of mass (metres): `reach` less the
    /// rounding (`Shape::core_reach`). A turn moves the outline only through the core, so the
    /// bounds on how fast two bodies close read this one (a disc turning about its centre
    /// approaches nothing).
    pub(crate) core_reach: Real,
    /// Distance from the anchor to the shape's boundary (metres): how far another body can move
    /// into this one before it reaches the anchor.
    pub(crate) extent: Real,
    pub(crate) inv_mass: Real,
    pub(crate) inv_inertia: Real,
    pub(crate) kind: BodyKind,
    /// Awake: simulated. A sleeping dynamic body is held still, costs no solver or narrow-phase
    /// work, and wakes with its island (see `world/sleep.rs`).
    pub(crate) awake: bool,
    /// Whether some shape is solid (not a sensor): a body of sensors only collides with nothing.
    pub(crate) solid: bool,
    /// Whether the collision shape has chain segments (their ghost contacts are removed).
    pub(crate) has_chain: bool,
    /// Whether it may sleep.
    pub(crate) allow_sleep: bool,
    /// Whether its rotation is locked (`inv_inertia` is then 0, and its angular velocity 0).
    pub(crate) fixed_rotation: bool,
    /// Whether its translation along world x / y is locked (`BodyDef::lock_x`, `lock_y`).
    pub(crate) lock_x: bool,
    pub(crate) lock_y: bool,
    pub(crate) force: Vec2,
    pub(crate) torque: Real,
    pub(crate) gravity_scale: Real,
    pub(crate) linear_damping: Real,
    pub(crate) angular_damping: Real,
    /// How long the body has rested (seconds, under the sleep tolerances).
    pub(crate) sleep_time: Real,
    /// The solid shape's box at the last pose it was computed for (see [`SolidBox`]); not
    /// state: a snapshot leaves it out and a restored body computes it afresh.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) solid_box: SolidBox,
    /// The sensor shapes (centre-of-mass frame) and their index in `shapes`.
    pub(crate) sensors: Vec<(u16, Shape)>,
    /// The solid shapes' union re-centred on the centre of mass (what the world collides; the
    /// sensors' union when no shape is solid). Right behind the sensors, whose count every box
    /// reads too: a rectangle's tag, count, radius and vertices lie in the fifth and sixth cache
    /// lines.
    #[cfg_attr(feature = "serde", serde(with = "crate::shape::exact"))]
    pub(crate) com_shape: Shape,
    /// Bumped whenever shapes or filters change (contacts then compute their manifolds afresh).
    /// Read with `com_shape` when a contact updates its manifold, so it sits right behind it.
    pub(crate) shape_version: u32,
    /// The body's *anchor*: its deepest point among the centre of mass and its pieces' centres
    /// (centre-of-mass frame, metres). For a convex shape, the centre of mass.
    pub(crate) anchor: Vec2,
    pub(crate) mass: Real,
    pub(crate) inertia: Real,
    /// Centre of mass in the body's frame (metres).
    pub(crate) local_center: Vec2,
    /// The body's shapes, the first described by its `BodyDef` (see `shape_def.rs`).
    pub(crate) shapes: Vec<BodyShape>,
    /// The number the next added shape gets (see [`ShapeId::index`]).
    pub(crate) next_shape: u32,
    /// A kinematic body's pose (its frame's, world) to be at by the end of the next step (see
    /// `World::set_kinematic_target`); taken when that step ends. (Cold: out of the first cache
    /// lines, which the per-step fields fill.)
    pub(crate) kinematic_target: Option<Transform>,
    /// Mass properties given instead of the shapes' (`World::set_mass_data`); used while the
    /// body is dynamic, kept through kind changes and shape edits.
    pub(crate) mass_override: Option<MassData>,
    /// Disabled (`World::set_enabled`): out of the simulation and the queries, at rest, holding
    /// here the velocities it had (centre of mass, m/s; rad/s) to take again when enabled.
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) disabled: Option<(Vec2, Real)>,
    /// For each piece of `com_shape`, the index in `shapes` of the shape it belongs to.
    pub(crate) piece_owner: Vec<u16>,
    /// The distinct filters of the solid shapes, ordered (`Assembly::filters`): one when they
    /// all share it (pairs are then filtered body by body).
    pub(crate) filters: Vec<Filter>,
    /// `filters`' one filter when there is one, kept in the body for the pair filter's common
    /// case (read for every pair the broad phase reports).
    pub(crate) uniform_filter: Option<Filter>,
    pub(crate) user_tag: Option<u64>,
    pub(crate) name: Option<String>,
}

/// What a body does over the next step if nothing pushes it, as the narrow phase predicts it: the
/// step `dt` (seconds) whose gravity and applied force and torque act, the `horizon` (seconds) the
/// velocities are carried over, and the world's `gravity` (m/s²).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prediction {
    pub dt: Real,
    pub horizon: Real,
    pub gravity: Vec2,
}

impl Body {
    /// The body's kind.
    #[must_use]
    pub fn kind(&self) -> BodyKind {
        self.kind
    }

    /// Whether the body takes part in the simulation and the queries (`World::set_enabled`).
    #[must_use]
    pub fn is_enabled(&self) -> bool {
        self.disabled.is_none()
    }

    /// The mass properties given with `World::set_mass_data` instead of the shapes', if any.
    #[must_use]
    pub fn mass_data(&self) -> Option<MassData> {
        self.mass_override
    }

    /// Pose of the body's frame (the frame its shape was given in) in the world.
    #[must_use]
    pub fn transform(&self) -> Transform {
        self.pose * Transform::from_translation(-self.local_center)
    }

    /// Pose of the body's frame in the world at the start of the last step (where
    /// [`Body::transform`] was before it): the two give the body's motion over the step.
    #[must_use]
    pub fn previous_transform(&self) -> Transform {
        self.previous_pose * Transform::from_translation(-self.local_center)
    }

    /// The body's pose interpolated between the start (`alpha = 0`) and the end (`alpha = 1`) of the
    /// last step, for rendering between fixed steps (see [`World::advance`](crate::World::advance)).
    /// The centre of mass moves linearly and the angle along the shorter arc.
    #[must_use]
    pub fn interpolated_transform(&self, alpha: Real) -> Transform {
        let a = alpha.clamp(0.0, 1.0);
        let p0 = self.previous_pose;
        let p1 = self.pose;
        let turn = p0.rotation.inv_mul_rot(p1.rotation).angle();
        let com = Transform::new(
            p0.translation.lerp(p1.translation, a),
            p0.angle() + a * turn,
        );
        com * Transform::from_translation(-self.local_center)
    }

    /// World position of the centre of mass (metres).
    #[must_use]
    pub fn center_of_mass(&self) -> Vec2 {
        self.pose.translation
    }

    /// Centre of mass in the body's frame (metres).
    #[must_use]
    pub fn local_center_of_mass(&self) -> Vec2 {
        self.local_center
    }

    /// Velocity of the centre of mass (m/s, world).
    #[must_use]
    pub fn linear_velocity(&self) -> Vec2 {
        self.linear_velocity
    }

    /// Angular velocity (rad/s, counter-clockwise).
    #[must_use]
    pub fn angular_velocity(&self) -> Real {
        self.angular_velocity
    }

    /// Velocity of the material point at world position `p` (m/s).
    #[must_use]
    pub fn velocity_at(&self, p: Vec2) -> Vec2 {
        point_velocity(
            self.linear_velocity,
            self.angular_velocity,
            p - self.pose.translation,
        )
    }

    /// Mass (kg); 0 for static and kinematic bodies.
    #[must_use]
    pub fn mass(&self) -> Real {
        self.mass
    }

    /// Rotational inertia about the centre of mass (kg·m²); 0 for static and kinematic bodies.
    #[must_use]
    pub fn inertia(&self) -> Real {
        self.inertia
    }

    /// Kinetic energy (J): `½ m v² + ½ I ω²`.
    #[must_use]
    pub fn kinetic_energy(&self) -> Real {
        0.5 * self.mass * self.linear_velocity.length_squared()
            + 0.5 * self.inertia * self.angular_velocity * self.angular_velocity
    }

    /// The body's first shape (the one its `BodyDef` described, or the oldest left after
    /// removals), in the body's frame with its offset not applied (see [`Body::shapes`]).
    #[must_use]
    pub fn shape(&self) -> &Shape {
        &self.shapes[0].def.shape
    }

    /// The body's shapes, oldest first, with each one's number ([`ShapeId::index`]); shapes and
    /// offsets in the body's frame (metres).
    pub fn shapes(&self) -> impl ExactSizeIterator<Item = (u32, &ShapeDef)> {
        self.shapes.iter().map(|s| (s.index, &s.def))
    }

    /// Every shape of the body (sensors included) as one shape in the body's frame, offsets
    /// applied: the first shape itself for a body of one shape at its origin, else a compound of
    /// all their convex pieces. For drawing and exporting.
    #[must_use]
    pub fn combined_shape(&self) -> Shape {
        if self.shapes.len() == 1 && self.shapes[0].def.offset == Transform::IDENTITY {
            return self.shapes[0].def.shape.clone();
        }
        // Each shape as a piece placed at its offset (no point is moved, so nothing can leave
        // its range).
        let pieces = self
            .shapes
            .iter()
            .map(|s| (s.def.offset, s.def.shape.clone()))
            .collect();
        Shape::Compound(
            crate::shape::Compound::new(pieces).expect("a body's shapes are valid pieces"),
        )
    }

    /// The solid shapes' union in the body's frame, or `None` for a body of sensors only.
    #[cfg_attr(not(feature = "proptest"), allow(dead_code))]
    pub(crate) fn solid_shape(&self) -> Option<Shape> {
        self.solid.then(|| {
            // As a piece placed at the centre of mass (moving the points back could round a
            // coordinate at the range's edge past it).
            let at = Transform::from_translation(self.local_center);
            Shape::Compound(
                crate::shape::Compound::new(vec![(at, self.com_shape.clone())])
                    .expect("a finite translation places a valid shape"),
            )
        })
    }

    /// Number of shapes.
    #[must_use]
    pub fn shape_count(&self) -> usize {
        self.shapes.len()
    }

    /// Density of the first shape (kg/m²).
    #[must_use]
    pub fn density(&self) -> Real {
        self.shapes[0].def.density
    }

    /// Restitution coefficient of the first shape.
    #[must_use]
    pub fn restitution(&self) -> Real {
        self.shapes[0].def.restitution
    }

    /// Friction coefficient of the first shape.
    #[must_use]
    pub fn friction(&self) -> Real {
        self.shapes[0].def.friction
    }

    /// The definition of the shape that piece `piece` of the collision geometry belongs to.
    #[inline]
    pub(crate) fn piece_shape(&self, piece: usize) -> &ShapeDef {
        &self.shapes[self.piece_owner[piece] as usize].def
    }

    /// The number ([`ShapeId::index`]) of the shape piece `piece` belongs to.
    #[inline]
    pub(crate) fn piece_shape_index(&self, piece: usize) -> u32 {
        self.shapes[self.piece_owner[piece] as usize].index
    }

    /// Whether piece `pa` of this body and piece `pb` of `other` may collide (their shapes'
    /// filters; sensors never).
    #[inline]
    pub(crate) fn pieces_collide(&self, pa: usize, other: &Body, pb: usize) -> bool {
        let (sa, sb) = (self.piece_shape(pa), other.piece_shape(pb));
        !sa.sensor && !sb.sensor && sa.filter.should_collide(&sb.filter)
    }

    /// How the pair of this body and `other` is filtered (see [`PairFilter`]).
    pub(crate) fn pair_filter(&self, other: &Body) -> PairFilter {
        if !self.solid || !other.solid || self.disabled.is_some() || other.disabled.is_some() {
            return PairFilter::Never;
        }
        if let (Some(fa), Some(fb)) = (self.uniform_filter, other.uniform_filter) {
            return if fa.should_collide(&fb) {
                PairFilter::All
            } else {
                PairFilter::Never
            };
        }
        // Whether two solid pieces collide depends only on their filters, so every pair of the
        // two bodies' distinct filters stands for the pairs of pieces carrying them. When all of
        // them collide (a ragdoll's shin and foot, which differ only in what else they skip,
        // against the ground), the pair is `All`, and the narrow phase and the continuous pass
        // treat it as a whole; `Pieces` only when some collide and some do not.
        let (mut any, mut all) = (false, true);
        for fa in &self.filters {
            for fb in &other.filters {
                if fa.should_collide(fb) {
                    any = true;
                } else {
                    all = false;
                }
            }
        }
        match (any, all) {
            (false, _) => PairFilter::Never,
            (true, true) => PairFilter::All,
            (true, false) => PairFilter::Pieces,
        }
    }

    /// Takes the combined shapes `a` (mass, centre, geometry), keeping the body's frame where it
    /// is and the velocity of every material point (the centre of mass's velocity follows it).
    pub(crate) fn take_assembly(&mut self, a: Assembly) {
        let frame = self.transform();
        let previous_frame = self.previous_pose * Transform::from_translation(-self.local_center);
        let shift = frame.rotation.rotate(a.local_center - self.local_center);
        self.linear_velocity += self.angular_velocity * Vec2::new(-shift.y, shift.x);
        self.local_center = a.local_center;
        self.pose = frame * Transform::from_translation(a.local_center);
        self.previous_pose = previous_frame * Transform::from_translation(a.local_center);
        self.mass = a.mass;
        self.inv_mass = if a.mass > 0.0 { 1.0 / a.mass } else { 0.0 };
        self.inertia = a.inertia;
        self.inv_inertia = inverse_inertia(a.inertia, self.fixed_rotation);
        self.reach = a.com_shape.bounding_radius();
        self.core_reach = a.com_shape.core_reach();
        (self.anchor, self.extent) = deepest_anchor(&a.com_shape);
        self.com_shape = a.com_shape;
        self.solid_box = SolidBox::default();
        self.piece_owner = a.piece_owner;
        self.solid = a.solid;
        self.sensors = a.sensors;
        self.uniform_filter = uniform(&a.filters);
        self.filters = a.filters;
        self.has_chain = a.has_chain;
        self.shape_version = self.shape_version.wrapping_add(1);
    }

    /// Checks a body read from a snapshot: its shapes (1 to [`MAX_SHAPES_PER_BODY`], numbered in
    /// increasing order below `next_shape`, each within the ranges [`World::add_shape`]
    /// checks), its poses (unit rotations), its settings' ranges, and everything derived from
    /// its shapes (mass, inertia, centre of mass, the combined collision shape, the pieces'
    /// owners, the sensors, the reach and anchor) equal, bit for bit, to what combining those
    /// shapes gives: a forged derived value cannot pass as the body's own.
    ///
    /// [`MAX_SHAPES_PER_BODY`]: crate::dynamics::shape_def::MAX_SHAPES_PER_BODY
    /// [`World::add_shape`]: crate::World::add_shape
    #[cfg(feature = "serde")]
    pub(crate) fn check_restored(&self) -> Result<(), String> {
        use crate::constants::{MAX_DAMPING, MAX_GRAVITY_SCALE};
        use crate::dynamics::shape_def::MAX_SHAPES_PER_BODY;
        let label = self
            .name
            .as_deref()
            .map_or_else(|| "in the snapshot".to_string(), error_label);
        let b = label.as_str();
        if self.shapes.is_empty() || self.shapes.len() > MAX_SHAPES_PER_BODY {
            return Err(format!(
                "{} shapes (a body has 1 to {MAX_SHAPES_PER_BODY})",
                self.shapes.len()
            ));
        }
        let numbered = self.shapes.windows(2).all(|w| w[0].index < w[1].index)
            && self
                .shapes
                .last()
                .is_some_and(|s| s.index < self.next_shape);
        if !numbered {
            return Err("its shapes' numbers are not increasing below the next number".into());
        }
        let text = |e: BodyError| e.to_string();
        for s in &self.shapes {
            check_shape_def(b, &s.def).map_err(text)?;
            if let Some(t) = s.contact_force_threshold {
                crate::dynamics::body_input::check_force_threshold(b, t).map_err(text)?;
            }
        }
        check_transform(b, &self.pose).map_err(text)?;
        check_transform(b, &self.previous_pose).map_err(text)?;
        if let Some(target) = &self.kinematic_target {
            check_transform(b, target).map_err(text)?;
            if self.kind != BodyKind::Kinematic {
                return Err("a kinematic target on a body that is not kinematic".into());
            }
        }
        within(
            b,
            "gravity_scale",
            self.gravity_scale,
            MAX_GRAVITY_SCALE,
            "within ±1e3",
        )
        .map_err(text)?;
        for (field, value) in [
            ("linear_damping", self.linear_damping),
            ("angular_damping", self.angular_damping),
            ("sleep_time", self.sleep_time),
        ] {
            non_negative(b, field, value).map_err(text)?;
        }
        within(
            b,
            "linear_damping",
            self.linear_damping,
            MAX_DAMPING,
            "at most 1e6",
        )
        .map_err(text)?;
        within(
            b,
            "angular_damping",
            self.angular_damping,
            MAX_DAMPING,
            "at most 1e6",
        )
        .map_err(text)?;
        // The step never leaves a body faster than the limits (`clamp_speeds`; the scaled speed
        // is the limit to rounding).
        {
            use crate::constants::{MAX_ANGULAR_SPEED, MAX_SPEED};
            let slack = 1.0 + 1e-12;
            if self.linear_velocity.length() > MAX_SPEED * slack
                || self.angular_velocity.abs() > MAX_ANGULAR_SPEED
            {
                return Err(format!(
                    "a speed of {} m/s or {} rad/s, beyond the limits (1e5 m/s, 1e5 rad/s) the \
                     step holds every body to",
                    self.linear_velocity.length(),
                    self.angular_velocity
                ));
            }
        }
        if self.disabled.is_some()
            && (self.awake || self.linear_velocity != Vec2::ZERO || self.angular_velocity != 0.0)
        {
            return Err("a disabled body that is awake or moving".into());
        }
        if let Some((v, w)) = self.disabled {
            crate::dynamics::body_input::check_vector(b, "disabled velocity", v).map_err(text)?;
            check_finite(b, "disabled angular velocity", w).map_err(text)?;
        }
        if (self.lock_x && self.linear_velocity.x != 0.0)
            || (self.lock_y && self.linear_velocity.y != 0.0)
        {
            return Err("a velocity along an axis its translation is locked on".into());
        }
        if self.fixed_rotation && self.angular_velocity != 0.0 {
            return Err(format!(
                "an angular velocity of {} rad/s on a body whose rotation is locked",
                self.angular_velocity
            ));
        }
        if let Some(m) = &self.mass_override {
            crate::dynamics::body_input::check_mass_data(b, m).map_err(text)?;
        }
        let a = assemble(self.kind, &self.shapes, b, self.mass_override.as_ref()).map_err(text)?;
        let (anchor, extent) = deepest_anchor(&a.com_shape);
        let inverse = |m: Real| if m > 0.0 { 1.0 / m } else { 0.0 };
        let own = a.mass == self.mass
            && a.inertia == self.inertia
            && inverse(a.mass) == self.inv_mass
            && inverse_inertia(a.inertia, self.fixed_rotation) == self.inv_inertia
            && a.local_center == self.local_center
            && a.com_shape == self.com_shape
            && a.piece_owner == self.piece_owner
            && a.solid == self.solid
            && a.sensors == self.sensors
            && a.filters == self.filters
            && uniform(&a.filters) == self.uniform_filter
            && a.has_chain == self.has_chain
            && a.com_shape.bounding_radius() == self.reach
            && a.com_shape.core_reach() == self.core_reach
            && anchor == self.anchor
            && extent == self.extent;
        if !own {
            return Err(
                "its mass, inertia, centre of mass or collision shape is not what its shapes make"
                    .into(),
            );
        }
        Ok(())
    }

    /// The index in `shapes` of shape `id` (whose body must be this one).
    pub(crate) fn shape_slot(&self, id: ShapeId) -> Option<usize> {
        self.shapes.iter().position(|s| s.index == id.index)
    }

    /// Gravity multiplier.
    #[must_use]
    pub fn gravity_scale(&self) -> Real {
        self.gravity_scale
    }

    /// The caller's tag.
    #[must_use]
    pub fn user_tag(&self) -> Option<u64> {
        self.user_tag
    }

    /// The body's name, if it was given one.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The world box of the body's shapes (sensors included) at its current pose (metres).
    #[must_use]
    pub fn aabb(&self) -> crate::Aabb {
        self.with_sensors(self.com_shape.aabb(&self.pose))
    }

    /// The compound of a body that pairs piece by piece: a static or kinematic body without
    /// sensors whose shape is a compound with a piece index (a ground of many tiles, a turning
    /// drum). It pairs with another body only where that body's proxy box reaches one of its
    /// pieces, as if each piece had its own proxy (see `docs/collision.md`, "Many pieces"). A
    /// static body never moves during a step; a kinematic body's motion over the step is its
    /// prescribed velocity's, bounded in advance (`Body::piece_motion_bound`), which the reach is
    /// grown by. A dynamic body's motion depends on the solver, so it pairs as a whole.
    fn paired_by_piece(&self) -> Option<&crate::shape::Compound> {
        match &self.com_shape {
            Shape::Compound(c)
                if self.kind != BodyKind::Dynamic
                    && self.sensors.is_empty()
                    && c.index.is_built() =>
            {
                Some(c)
            }
            _ => None,
        }
    }

    /// Whether this body pairs piece by piece (see [`Body::reached_by`]).
    pub(crate) fn pairs_by_piece(&self) -> bool {
        self.paired_by_piece().is_some()
    }

    /// How far (metres) any point of a static or kinematic body moves over a step of `dt`
    /// seconds at its current velocities: `|v|·dt + |ω|·dt·reach` (a turn of `|ω|·dt` moves a
    /// point at distance `r` from the centre of mass along a chord no longer than its arc). Zero
    /// for a static body, whose velocities are zero.
    pub(crate) fn piece_motion_bound(&self, dt: Real) -> Real {
        (self.linear_velocity.length() + self.angular_velocity.abs() * self.reach) * dt
    }

    /// Whether a broad-phase box `reach` (world, metres) reaches this body's shapes at some
    /// moment of a step of `dt` seconds that has the body at its current pose: always, except
    /// for a body that pairs piece by piece, one of whose pieces' world boxes must meet `reach`
    /// grown by how far the body moves over the step (`piece_motion_bound`).
    pub(crate) fn reached_by(&self, reach: &crate::Aabb, dt: Real) -> bool {
        self.paired_by_piece()
            .and_then(|c| {
                let reach = reach.grown(self.piece_motion_bound(dt));
                c.some_piece_meets(&self.pose, &reach)
            })
            .unwrap_or(true)
    }

    /// For a body that pairs piece by piece, placed at `x` (its centre-of-mass pose), a lower
    /// bound (metres) of the distance from anything world box `b` holds to its shapes, through
    /// its piece index; `None` for others.
    pub(crate) fn piece_gap_bound(&self, x: &Transform, b: &crate::Aabb) -> Option<Real> {
        self.paired_by_piece().and_then(|c| c.gap_bound(x, b))
    }

    /// `solid` (the solid shape's box at the current pose) grown to hold the sensors there too:
    /// the broad phase's proxy must hold them for sensor queries.
    fn with_sensors(&self, solid: crate::Aabb) -> crate::Aabb {
        self.sensors
            .iter()
            .fold(solid, |b, (_, s)| b.union(&s.aabb(&self.pose)))
    }

    /// Inverse mass and inertia (zero for static and kinematic bodies, and while asleep: a
    /// sleeping body is held still until it wakes).
    #[inline]
    pub(crate) fn inverse_mass(&self) -> InverseMass {
        if !self.awake {
            return InverseMass::default();
        }
        self.masses()
    }

    /// The body's inverse masses whether or not it is awake (an impulse applied by a call, which
    /// wakes it).
    fn masses(&self) -> InverseMass {
        InverseMass {
            linear: self.inv_mass,
            angular: self.inv_inertia,
            axes: self.free_axes(),
        }
    }

    /// 1 for each world axis the body may move along, 0 for a locked one (see
    /// [`BodyDef::lock_x`]).
    #[inline]
    pub(crate) fn free_axes(&self) -> Vec2 {
        Vec2::new(
            if self.lock_x { 0.0 } else { 1.0 },
            if self.lock_y { 0.0 } else { 1.0 },
        )
    }

    /// The linear velocity change (m/s) an impulse `p` (N·s) gives the body, awake or not:
    /// `p / mass`, with nothing along a locked axis.
    pub(crate) fn linear_response(&self, p: Vec2) -> Vec2 {
        self.masses().linear_response(p)
    }

    /// Whether the body's translation is locked along the world x and y axes (see
    /// [`BodyDef::lock_x`]).
    #[must_use]
    pub fn locked_translation(&self) -> (bool, bool) {
        (self.lock_x, self.lock_y)
    }

    /// Whether the body's rotation is locked (see [`BodyDef::fixed_rotation`]).
    #[must_use]
    pub fn fixed_rotation(&self) -> bool {
        self.fixed_rotation
    }

    /// Whether the body is awake (simulated). Static bodies are always "awake"; a dynamic body
    /// falls asleep when its island has rested for `WorldConfig::time_to_sleep`.
    #[must_use]
    pub fn is_awake(&self) -> bool {
        self.awake
    }

    /// Whether the body may fall asleep.
    #[must_use]
    pub fn allow_sleep(&self) -> bool {
        self.allow_sleep
    }

    /// Wakes the body (its island follows at the end of the next step).
    pub(crate) fn wake(&mut self) {
        if self.disabled.is_some() {
            return; // a disabled body stays out of the simulation until enabled
        }
        self.awake = true;
        self.sleep_time = 0.0;
    }

    /// Whether the body takes no part in the step's work: static, or a sleeping dynamic body.
    #[inline]
    pub(crate) fn is_resting(&self) -> bool {
        self.kind == BodyKind::Static || !self.awake
    }

    /// The motion (world metres and radians, about the centre of mass, from the current pose) the
    /// body makes over `p.horizon` seconds if nothing pushes it: its velocities plus one step of
    /// `p.dt` seconds of gravity and the applied force and torque.
    pub(crate) fn predicted_motion(&self, p: &Prediction) -> crate::query::Motion {
        let (a, alpha) = self.acceleration(p.gravity);
        crate::query::Motion::new(
            self.pose,
            (self.linear_velocity + a * p.dt) * p.horizon,
            (self.angular_velocity + alpha * p.dt) * p.horizon,
        )
    }

    /// A bound (metres) on how much any point of this body and any point of `other` close on each
    /// other in the next step of `dt` seconds if nothing pushes them: `|vA − vB|·dt +
    /// |aA − aB|·dt²` plus each body's `(|ω| + |α|·dt)·dt·reach`, with the accelerations from
    /// gravity and the applied forces and torques. (The full reach, not the core reach the
    /// continuous pass's bounds use: the wider margin gives the solver a swinging body's points a
    /// step earlier, and a 1,000-link chain whipping over an edge stretched its joints three
    /// times as far when its links' margins used the core reach.)
    pub(crate) fn predicted_relative_motion(&self, other: &Body, dt: Real, gravity: Vec2) -> Real {
        let ((a, alpha), (b, beta)) = (self.acceleration(gravity), other.acceleration(gravity));
        let linear =
            ((self.linear_velocity - other.linear_velocity).length() + (a - b).length() * dt) * dt;
        let turn = |body: &Body, alpha: Real| {
            (body.angular_velocity.abs() + alpha.abs() * dt) * dt * body.reach
        };
        linear + turn(self, alpha) + turn(other, beta)
    }

    /// Linear (m/s²) and angular (rad/s²) acceleration from gravity and the applied force and
    /// torque; zero for static and kinematic bodies.
    fn acceleration(&self, gravity: Vec2) -> (Vec2, Real) {
        if self.kind != BodyKind::Dynamic {
            return (Vec2::ZERO, 0.0);
        }
        (
            self.gravity_scale * gravity + self.inv_mass * self.force,
            self.inv_inertia * self.torque,
        )
    }

    /// The body's world box swept along its predicted motion over the next step of `dt` seconds
    /// (metres): the proxy box that keeps the pairs the solver may own next step in the contact
    /// set. Each part of the sweep is capped at the body's extent (pairs that close farther are
    /// mostly the continuous pass's, which sweeps them itself), or, for a body with joints
    /// (`jointed`), at `PROXY_SWEEP_REACHES` times its reach.
    ///
    /// Why jointed bodies differ: an impact of a jointed body settles its whole articulated body
    /// with it (up to a thousand bodies, `world/continuous/group_joints.rs`), so letting the
    /// solver's speculative contacts land it pays (a chain of 1,000 links landing flat at 20 m/s
    /// moves 0.33 m a step, seven times its thickness: with the extent cap the ground was not
    /// among the links' contacts and the pass resolved 800 landings as impacts, 540 ms for the
    /// step against a 1 ms median; covered, none). A free body's impact is cheap, and larger
    /// boxes for free bodies cost more than they save (junkyard's rain of 8,000 pentagons: twice
    /// the impacts and three times the holds). The extent cap, not half of it, keeps a body
    /// falling a little faster than the solver trusts within its box, so the pass finds its
    /// candidates among its contacts instead of walking the trees (falling mixed 4,000, first
    /// second: 3.6 → 2.8 ms per step).
    pub(crate) fn predicted_box(&mut self, dt: Real, gravity: Vec2, jointed: bool) -> crate::Aabb {
        let pose = self.pose;
        let solid = self.solid_box_at(&pose);
        let aabb = self.with_sensors(solid);
        if self.kind == BodyKind::Static {
            return aabb;
        }
        let cap = if jointed {
            PROXY_SWEEP_REACHES * self.reach
        } else {
            self.extent
        };
        let (a, _) = self.acceleration(gravity);
        let d = (self.linear_velocity + a * dt) * dt;
        // Well inside the cap (by far more than a root's rounding), the root and the division
        // are not needed: the same `d` as the full test gives.
        let d = if d.length_squared() < 0.99 * cap * cap {
            d
        } else {
            let length = d.length();
            if length > cap {
                d * (cap / length)
            } else {
                d
            }
        };
        let turn = (self.angular_velocity.abs() * dt * self.reach).min(cap);
        let moved = crate::Aabb {
            min: aabb.min + d,
            max: aabb.max + d,
        };
        aabb.union(&moved).grown(turn)
    }

    /// The box (world metres) of the solid shape (`com_shape`) with its centre-of-mass frame at
    /// `pose`, computed once per pose: the end-of-step refit, the continuous pass's swept boxes
    /// and the next step's pass ask for the box at the same pose in turn.
    pub(crate) fn solid_box_at(&mut self, pose: &Transform) -> crate::Aabb {
        if let Some(aabb) = self.solid_box.at(pose) {
            return aabb;
        }
        let aabb = self.com_shape.aabb(pose);
        self.solid_box = SolidBox { pose: *pose, aabb };
        aabb
    }

    /// Asks the processor to start loading what a box computation reads of this body (its kind,
    /// its box cache, and its shape's tag, count, radius and first vertices: cache lines 1 to 5),
    /// so that a pass over many bodies can ask for the next ones' while it works on this one. A
    /// hint only: it reads nothing into the program and changes no result.
    #[inline]
    pub(crate) fn prefetch_box_inputs(&self) {
        Self::prefetch_lines(self, 1..6);
    }

    /// Asks the processor to start loading cache lines `lines` of the body at `body` (line 0
    /// its first 64 bytes; see `per_step_fields_lead_the_body` for what each holds). A hint
    /// only; `body` need not point at a body (nothing is read through it).
    #[inline]
    pub(crate) fn prefetch_lines(body: *const Body, lines: std::ops::Range<usize>) {
        let start = body.cast::<u8>();
        for line in lines {
            crate::cache::prefetch(start.wrapping_add(64 * line));
        }
    }

    /// For a compound shape, what [`Body::prefetch_box_inputs`] asks for the body, asked for its
    /// pieces (stored apart from the body): call it a little after that one, once the shape's
    /// piece list has arrived. Nothing for other shapes. A hint only.
    #[inline]
    pub(crate) fn prefetch_piece_inputs(&self) {
        if let Shape::Compound(c) = &self.com_shape {
            for piece in c.pieces.iter().take(4) {
                let start = std::ptr::from_ref(piece).cast::<u8>();
                // A piece's transform, tag, count, radius and first vertices: its first 120
                // bytes, over at most three cache lines.
                for offset in [0, 64, 119] {
                    crate::cache::prefetch(start.wrapping_add(offset));
                }
            }
        }
    }

    /// Returns `true` for a dynamic body.
    #[inline]
    pub(crate) fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }
}

/// The inverse rotational inertia (1/(kg·m²)) of a body of inertia `inertia` (kg·m²): zero when
/// it has none or its rotation is locked (`fixed`).
pub(crate) fn inverse_inertia(inertia: Real, fixed: bool) -> Real {
    if inertia > 0.0 && !fixed {
        1.0 / inertia
    } else {
        0.0
    }
}

/// Checks that a definition's motion settings agree: a locked rotation has no spin, and a body
/// created asleep may sleep and is at rest.
fn check_motion_state(body: &str, def: &BodyDef) -> Result<(), BodyError> {
    if def.fixed_rotation {
        check_locked_spin(body, def.angular_velocity)?;
    }
    check_locked_motion(body, def.lock_x, def.lock_y, def.linear_velocity)?;
    let asleep = !def.awake && def.kind == BodyKind::Dynamic;
    if asleep && !def.allow_sleep {
        return Err(BodyError::Conflicting {
            body: body.to_string(),
            reason: "awake is false but allow_sleep is false too: a body that may not sleep \
                     cannot start asleep (allow it to sleep, or create it awake)",
        });
    }
    if asleep && (def.linear_velocity != Vec2::ZERO || def.angular_velocity != 0.0) {
        return Err(BodyError::Conflicting {
            body: body.to_string(),
            reason: "awake is false but the body is given a velocity: a body created asleep is \
                     at rest (set its velocity when it wakes, or create it awake)",
        });
    }
    Ok(())
}

/// Checks a definition and builds the body; `label` names it in errors.
pub(crate) fn build_body(def: BodyDef, label: &str) -> Result<Body, BodyError> {
    let body = def
        .name
        .as_deref()
        .map_or_else(|| label.to_string(), error_label);
    let b = body.as_str();
    check_transform(b, &def.transform)?;
    for (field, v) in [
        ("linear_velocity.x", def.linear_velocity.x),
        ("linear_velocity.y", def.linear_velocity.y),
        ("angular_velocity", def.angular_velocity),
        ("gravity_scale", def.gravity_scale),
    ] {
        check_finite(b, field, v)?;
    }
    check_position(b, "transform.translation", def.transform.translation)?;
    check_speeds(b, def.linear_velocity, def.angular_velocity)?;
    check_motion_state(b, &def)?;
    let asleep = !def.awake && def.kind == BodyKind::Dynamic;
    within(
        b,
        "gravity_scale",
        def.gravity_scale,
        crate::constants::MAX_GRAVITY_SCALE,
        "between −1e3 and 1e3 (MAX_GRAVITY_SCALE)",
    )?;
    check_material(b, def.friction, def.restitution)?;
    for (field, value) in [
        ("linear_damping", def.linear_damping),
        ("angular_damping", def.angular_damping),
    ] {
        non_negative(b, field, value)?;
        within(
            b,
            field,
            value,
            crate::constants::MAX_DAMPING,
            "between 0 and 1e6 (1/s)",
        )?;
    }
    check_finite(b, "density", def.density)?;
    let dynamic = def.kind == BodyKind::Dynamic;
    if dynamic && def.density <= 0.0 {
        return Err(BodyError::OutOfRange {
            body,
            field: "density",
            value: def.density,
            expected: "positive for a dynamic body (kg/m²)",
        });
    }
    let shapes = vec![BodyShape {
        index: 0,
        contact_force_threshold: None,
        def: ShapeDef {
            shape: def.shape,
            offset: Transform::IDENTITY,
            density: def.density,
            friction: def.friction,
            restitution: def.restitution,
            filter: def.filter,
            sensor: def.sensor,
        },
    }];
    check_shape_def(b, &shapes[0].def)?;
    let a = assemble(def.kind, &shapes, b, None)?;
    let reach = a.com_shape.bounding_radius();
    let core_reach = a.com_shape.core_reach();
    let (anchor, extent) = deepest_anchor(&a.com_shape);
    let pose = def.transform * Transform::from_translation(a.local_center);
    let (linear_velocity, angular_velocity) = if def.kind == BodyKind::Static {
        (Vec2::ZERO, 0.0)
    } else {
        (def.linear_velocity, def.angular_velocity)
    };
    Ok(Body {
        kind: def.kind,
        shapes,
        next_shape: 1,
        com_shape: a.com_shape,
        piece_owner: a.piece_owner,
        solid: a.solid,
        sensors: a.sensors,
        uniform_filter: uniform(&a.filters),
        filters: a.filters,
        shape_version: 0,
        awake: !asleep,
        sleep_time: 0.0,
        allow_sleep: def.allow_sleep,
        has_chain: a.has_chain,
        local_center: a.local_center,
        pose,
        previous_pose: pose,
        linear_velocity,
        angular_velocity,
        force: Vec2::ZERO,
        torque: 0.0,
        mass: a.mass,
        inv_mass: if a.mass > 0.0 { 1.0 / a.mass } else { 0.0 },
        inertia: a.inertia,
        inv_inertia: inverse_inertia(a.inertia, def.fixed_rotation),
        fixed_rotation: def.fixed_rotation,
        lock_x: def.lock_x,
        lock_y: def.lock_y,
        kinematic_target: None,
        mass_override: None,
        disabled: None,
        linear_damping: def.linear_damping,
        angular_damping: def.angular_damping,
        gravity_scale: def.gravity_scale,
        user_tag: def.user_tag,
        name: def.name,
        reach,
        core_reach,
        anchor,
        extent,
        solid_box: SolidBox::default(),
    })
}

/// The point of a (centre-of-mass-frame) shape with the largest inner radius among the centre of
/// mass and, for a compound, its pieces' centres, with that radius (metres). The centre of mass of
/// a concave body can lie outside it (an L's lies in its notch); a piece's centre never does.
fn deepest_anchor(shape: &Shape) -> (Vec2, Real) {
    let Shape::Compound(c) = shape else {
        return (Vec2::ZERO, shape.inner_radius(Vec2::ZERO));
    };
    // The centre of mass, then each piece's centre; the compound's outline is found once for
    // all of them (`Compound::inner_radii`).
    let candidates: Vec<Vec2> = std::iter::once(Vec2::ZERO)
        .chain(c.pieces().iter().map(|piece| {
            piece.transform.transform_point(
                piece
                    .shape
                    .mass_properties(1.0)
                    .map_or(Vec2::ZERO, |m| m.center),
            )
        }))
        .collect();
    let depths = c.inner_radii(&candidates);
    let mut best = (candidates[0], depths[0]);
    for (&centre, &depth) in candidates.iter().zip(&depths).skip(1) {
        if depth > best.1 {
            best = (centre, depth);
        }
    }
    best
}

/// [`relative_velocity`](crate::dynamics::contact_math::relative_velocity) of two bodies at their current velocities (m/s, world).
#[inline(always)]
pub(crate) fn bodies_relative_velocity(a: &Body, ra: Vec2, b: &Body, rb: Vec2) -> Vec2 {
    relative_velocity(
        a.linear_velocity,
        a.angular_velocity,
        ra,
        b.linear_velocity,
        b.angular_velocity,
        rb,
    )
}

/// The one filter of a body's distinct solid filters (`Body::uniform_filter`), if there is one.
fn uniform(filters: &[Filter]) -> Option<Filter> {
    match filters {
        [one] => Some(*one),
        _ => None,
    }
}

#[cfg(test)]
mod layout_tests {
    use super::Body;
    use std::mem::{align_of, offset_of, size_of};

    /// What every step reads of every body lies in the body's first four cache lines, and each
    /// body starts on a line: a change that scatters these fields over the kilobyte a body takes
    /// (its inline collision shape) makes dense scenes pay several more cache misses per body.
    #[test]
    fn per_step_fields_lead_the_body() {
        assert_eq!(align_of::<Body>(), 64);
        let line = |offset: usize| offset / 64;
        for (name, offset, size) in [
            ("pose", offset_of!(Body, pose), 32),
            ("previous_pose", offset_of!(Body, previous_pose), 32),
            ("linear_velocity", offset_of!(Body, linear_velocity), 16),
            ("angular_velocity", offset_of!(Body, angular_velocity), 8),
            ("reach", offset_of!(Body, reach), 8),
            ("core_reach", offset_of!(Body, core_reach), 8),
            ("extent", offset_of!(Body, extent), 8),
            ("inv_mass", offset_of!(Body, inv_mass), 8),
            ("inv_inertia", offset_of!(Body, inv_inertia), 8),
            ("gravity_scale", offset_of!(Body, gravity_scale), 8),
            ("force", offset_of!(Body, force), 16),
            ("torque", offset_of!(Body, torque), 8),
            ("kind", offset_of!(Body, kind), 1),
            ("awake", offset_of!(Body, awake), 1),
            ("linear_damping", offset_of!(Body, linear_damping), 8),
            ("angular_damping", offset_of!(Body, angular_damping), 8),
            ("sleep_time", offset_of!(Body, sleep_time), 8),
            ("allow_sleep", offset_of!(Body, allow_sleep), 1),
            ("solid_box", offset_of!(Body, solid_box), 64),
        ] {
            assert!(
                offset + size <= 4 * 64 && line(offset) == line(offset + size - 1),
                "{name} at bytes {offset}..{} of a {}-byte body",
                offset + size,
                size_of::<Body>()
            );
        }
        // A box reads the sensors' count, then the shape's tag, count, radius and vertices: for
        // a rectangle, the two cache lines right behind the first four.
        assert_eq!(offset_of!(Body, sensors), 4 * 64);
        let shape = offset_of!(Body, com_shape);
        let rectangle = crate::Shape::rectangle(1.0, 0.5).expect("valid");
        let crate::Shape::Polygon(p) = &rectangle else {
            unreachable!("a rectangle is a polygon")
        };
        let start = |field: *const u8| field as usize - std::ptr::from_ref(&rectangle) as usize;
        assert!(start(std::ptr::from_ref(&p.count).cast()) < 16);
        let end = start(std::ptr::from_ref(&p.vertices[3]).cast()) + 16;
        assert_eq!(line(shape + end - 1), 5, "vertices end at {end}");
    }
}
