//! Debug drawing: the world describes what it holds to a drawing back end the caller provides
//! (the idea of Box2D's `b2DebugDraw`), with no drawing dependency in the crate. The back end
//! implements [`DebugDraw`] (a canvas, a game's line renderer, a plot, a test's recorder) and
//! receives world-frame geometry in metres: shapes by body kind and state, contact points and
//! normals, the last step's impacts with the fraction of the step they happened at, bounding
//! boxes, the swept hulls of the last step, joints, sensor overlaps and centres of mass.
//! [`DrawOptions`] chooses the layers; every item carries a [`DrawStyle`] saying what it is
//! ([`DrawRole`]), a suggested colour and the body it belongs to, so a back end can restyle or
//! filter. [`DrawList`] records the calls (for tests, or to send a frame elsewhere).
//! Described in `docs/debug-draw.md`.

use super::World;
use crate::dynamics::{Body, BodyId, BodyKind, ShapeId};
use crate::math::{Real, Transform, Vec2};
use crate::query::{swept_hull_of, Motion};
use crate::shape::Shape;

/// An 8-bit RGBA colour (`a = 255` opaque).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
    /// Opacity, 0 (transparent) to 255 (opaque).
    pub a: u8,
}

impl Color {
    /// An opaque colour.
    #[must_use]
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b, a: 255 }
    }

    /// The colour as CSS understands it: `#rrggbb`, or `#rrggbbaa` when not opaque.
    #[must_use]
    pub fn css(self) -> String {
        if self.a == 255 {
            format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
        } else {
            format!("#{:02x}{:02x}{:02x}{:02x}", self.r, self.g, self.b, self.a)
        }
    }
}

/// What a drawn item is: a back end may style or hide items by role.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawRole {
    /// A shape of a static body.
    StaticShape,
    /// A shape of a kinematic body.
    KinematicShape,
    /// A shape of an awake dynamic body.
    DynamicShape,
    /// A shape of a sleeping dynamic body.
    SleepingShape,
    /// A sensor shape (any body kind).
    SensorShape,
    /// A contact point (manifold point within the speculative distance at the last step).
    ContactPoint,
    /// A contact normal, drawn from a contact point toward body B.
    ContactNormal,
    /// An impact of the last step (point, normal, and the step fraction as text).
    Impact,
    /// A shape's bounding box at the end of the last step.
    BoundingBox,
    /// The region a body's shapes covered during the last step.
    SweptHull,
    /// A joint: the line between its two anchors, and the anchors.
    Joint,
    /// A shape inside a sensor: the line from the sensor to it.
    SensorOverlap,
    /// A body's centre of mass.
    CenterOfMass,
}

impl DrawRole {
    /// The role of a body's solid (non-sensor) shapes: by its kind, and for a dynamic body by
    /// whether it is awake.
    #[must_use]
    pub fn of_body(body: &Body) -> DrawRole {
        match body.kind() {
            BodyKind::Static => DrawRole::StaticShape,
            BodyKind::Kinematic => DrawRole::KinematicShape,
            BodyKind::Dynamic if body.is_awake() => DrawRole::DynamicShape,
            BodyKind::Dynamic => DrawRole::SleepingShape,
        }
    }

    /// The colour the engine suggests for the role (Box2D's palette in spirit: static green,
    /// kinematic blue, awake dynamic rose, asleep grey).
    #[must_use]
    pub const fn color(self) -> Color {
        match self {
            DrawRole::StaticShape => Color::rgb(127, 230, 127),
            DrawRole::KinematicShape => Color::rgb(127, 127, 230),
            DrawRole::DynamicShape => Color::rgb(230, 160, 160),
            DrawRole::SleepingShape => Color::rgb(150, 150, 150),
            DrawRole::SensorShape => Color::rgb(255, 204, 0),
            DrawRole::ContactPoint => Color::rgb(255, 64, 64),
            DrawRole::ContactNormal => Color::rgb(230, 230, 76),
            DrawRole::Impact => Color::rgb(255, 0, 255),
            DrawRole::BoundingBox => Color::rgb(255, 140, 0),
            DrawRole::SweptHull => Color::rgb(0, 191, 255),
            DrawRole::Joint => Color::rgb(128, 205, 205),
            DrawRole::SensorOverlap => Color::rgb(255, 255, 0),
            DrawRole::CenterOfMass => Color::rgb(255, 255, 255),
        }
    }
}

/// How to draw one item: its role, the suggested colour, whether a closed outline is meant to be
/// filled (shapes are; hulls and boxes are outlines), and the body it belongs to, if any.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawStyle {
    /// What the item is.
    pub role: DrawRole,
    /// Suggested colour ([`DrawRole::color`]).
    pub color: Color,
    /// Fill the outline (shapes) or only stroke it.
    pub fill: bool,
    /// The body the item belongs to (`None` for joints and impacts, which involve two).
    pub body: Option<BodyId>,
}

impl DrawStyle {
    /// The style of an item with `role` (its suggested colour), filled or not, of `body`.
    #[must_use]
    pub fn new(role: DrawRole, body: Option<BodyId>, fill: bool) -> Self {
        Self {
            role,
            color: role.color(),
            fill,
            body,
        }
    }
}

/// A drawing back end. Every position is in world metres (y up); the back end maps them to its
/// own frame. All methods must be implemented; none is called with non-finite numbers as long as
/// the world's state is finite (which the step keeps).
pub trait DebugDraw {
    /// A convex polygon: its core vertices counter-clockwise, rounded by `radius` metres (0 for a
    /// sharp polygon), closed (the last vertex joins the first).
    fn polygon(&mut self, vertices: &[Vec2], radius: Real, style: &DrawStyle);
    /// A disc of `radius` metres about `center`; `axis` is the unit vector of the body's x axis,
    /// for drawing a radius line that shows rotation.
    fn circle(&mut self, center: Vec2, radius: Real, axis: Vec2, style: &DrawStyle);
    /// A capsule: the segment `a`–`b` rounded by `radius` metres (0 for a plain segment, as chain
    /// links are).
    fn capsule(&mut self, a: Vec2, b: Vec2, radius: Real, style: &DrawStyle);
    /// A line from `a` to `b`.
    fn segment(&mut self, a: Vec2, b: Vec2, style: &DrawStyle);
    /// A point at `p`, drawn `size` pixels across whatever the zoom.
    fn point(&mut self, p: Vec2, size: Real, style: &DrawStyle);
    /// A short label anchored at `at`.
    fn text(&mut self, at: Vec2, text: &str, style: &DrawStyle);
}

/// Which layers [`World::debug_draw`] draws. [`Default`]: shapes, joints and impacts.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawOptions {
    /// Every shape, by body kind and awake state (sensors apart).
    pub shapes: bool,
    /// Contact points of the last step's manifolds (those within the speculative distance).
    pub contact_points: bool,
    /// Contact normals at those points, [`DrawOptions::normal_length`] long.
    pub contact_normals: bool,
    /// The last step's impacts: point, normal, and the fraction of the step as text.
    pub impacts: bool,
    /// Each shape's bounding box.
    pub bounding_boxes: bool,
    /// The region each moving body covered during the last step (its swept hull).
    pub swept_hulls: bool,
    /// Joints: anchors and the line between them.
    pub joints: bool,
    /// Shapes inside sensors: a line from the sensor to each.
    pub sensor_overlaps: bool,
    /// Centres of mass of dynamic and kinematic bodies.
    pub centers_of_mass: bool,
    /// Length of drawn normals (metres, > 0). Default 0.3.
    pub normal_length: Real,
    /// Where between the start (0) and the end (1) of the last step shapes and centres of mass
    /// are drawn, as [`Body::interpolated_transform`] (for rendering between fixed steps with
    /// [`World::advance`]). Default 1; clamped to `[0, 1]`. The other layers show the step's end.
    pub alpha: Real,
}

impl Default for DrawOptions {
    fn default() -> Self {
        Self {
            shapes: true,
            contact_points: false,
            contact_normals: false,
            impacts: true,
            bounding_boxes: false,
            swept_hulls: false,
            joints: true,
            sensor_overlaps: false,
            centers_of_mass: false,
            normal_length: 0.3,
            alpha: 1.0,
        }
    }
}

impl DrawOptions {
    /// Every layer on.
    #[must_use]
    pub fn all() -> Self {
        Self {
            shapes: true,
            contact_points: true,
            contact_normals: true,
            impacts: true,
            bounding_boxes: true,
            swept_hulls: true,
            joints: true,
            sensor_overlaps: true,
            centers_of_mass: true,
            ..Self::default()
        }
    }

    /// Every layer off (turn on what you want).
    #[must_use]
    pub fn none() -> Self {
        Self {
            shapes: false,
            impacts: false,
            joints: false,
            ..Self::default()
        }
    }
}

/// One recorded [`DebugDraw`] call (see [`DrawList`]). Positions in world metres.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub enum DrawCommand {
    /// [`DebugDraw::polygon`].
    Polygon {
        /// Core vertices, counter-clockwise.
        vertices: Vec<Vec2>,
        /// Rounding (metres).
        radius: Real,
        /// Style.
        style: DrawStyle,
    },
    /// [`DebugDraw::circle`].
    Circle {
        /// Centre.
        center: Vec2,
        /// Radius (metres).
        radius: Real,
        /// The body's x axis (unit).
        axis: Vec2,
        /// Style.
        style: DrawStyle,
    },
    /// [`DebugDraw::capsule`].
    Capsule {
        /// One end of the core segment.
        a: Vec2,
        /// The other end.
        b: Vec2,
        /// Rounding (metres).
        radius: Real,
        /// Style.
        style: DrawStyle,
    },
    /// [`DebugDraw::segment`].
    Segment {
        /// Start.
        a: Vec2,
        /// End.
        b: Vec2,
        /// Style.
        style: DrawStyle,
    },
    /// [`DebugDraw::point`].
    Point {
        /// Where.
        p: Vec2,
        /// Size (pixels).
        size: Real,
        /// Style.
        style: DrawStyle,
    },
    /// [`DebugDraw::text`].
    Text {
        /// Anchor.
        at: Vec2,
        /// The label.
        text: String,
        /// Style.
        style: DrawStyle,
    },
}

impl DrawCommand {
    /// The command's style.
    #[must_use]
    pub fn style(&self) -> &DrawStyle {
        match self {
            DrawCommand::Polygon { style, .. }
            | DrawCommand::Circle { style, .. }
            | DrawCommand::Capsule { style, .. }
            | DrawCommand::Segment { style, .. }
            | DrawCommand::Point { style, .. }
            | DrawCommand::Text { style, .. } => style,
        }
    }
}

/// A [`DebugDraw`] back end that records every call, in order: for tests, or to ship a frame to
/// another process (with the `serde` feature the commands serialise).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawList {
    /// The calls, in the order the world made them.
    pub commands: Vec<DrawCommand>,
}

impl DrawList {
    /// An empty list.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The commands with role `role`.
    pub fn with_role(&self, role: DrawRole) -> impl Iterator<Item = &DrawCommand> {
        self.commands.iter().filter(move |c| c.style().role == role)
    }
}

impl DebugDraw for DrawList {
    fn polygon(&mut self, vertices: &[Vec2], radius: Real, style: &DrawStyle) {
        self.commands.push(DrawCommand::Polygon {
            vertices: vertices.to_vec(),
            radius,
            style: *style,
        });
    }
    fn circle(&mut self, center: Vec2, radius: Real, axis: Vec2, style: &DrawStyle) {
        self.commands.push(DrawCommand::Circle {
            center,
            radius,
            axis,
            style: *style,
        });
    }
    fn capsule(&mut self, a: Vec2, b: Vec2, radius: Real, style: &DrawStyle) {
        self.commands.push(DrawCommand::Capsule {
            a,
            b,
            radius,
            style: *style,
        });
    }
    fn segment(&mut self, a: Vec2, b: Vec2, style: &DrawStyle) {
        self.commands.push(DrawCommand::Segment {
            a,
            b,
            style: *style,
        });
    }
    fn point(&mut self, p: Vec2, size: Real, style: &DrawStyle) {
        self.commands.push(DrawCommand::Point {
            p,
            size,
            style: *style,
        });
    }
    fn text(&mut self, at: Vec2, text: &str, style: &DrawStyle) {
        self.commands.push(DrawCommand::Text {
            at,
            text: text.to_owned(),
            style: *style,
        });
    }
}

/// Size (pixels) of drawn contact points, impact points, anchors and centres of mass.
const POINT_SIZE: Real = 5.0;

/// Draws `shape` placed at `xf` (its frame's pose in the world, or in whatever frame the caller
/// draws in) the way [`World::debug_draw`] draws shapes: a circle, capsule or polygon call per
/// convex piece.
pub fn draw_shape(draw: &mut dyn DebugDraw, shape: &Shape, xf: &Transform, style: &DrawStyle) {
    match shape {
        Shape::Circle(c) => draw.circle(
            xf.transform_point(c.center()),
            c.radius(),
            xf.rotation.x_axis(),
            style,
        ),
        Shape::Capsule(c) => draw.capsule(
            xf.transform_point(c.a()),
            xf.transform_point(c.b()),
            c.radius(),
            style,
        ),
        Shape::Polygon(p) => {
            let world: Vec<Vec2> = p
                .vertices()
                .iter()
                .map(|&v| xf.transform_point(v))
                .collect();
            draw.polygon(&world, p.radius(), style);
        }
        Shape::Compound(c) => {
            for piece in c.pieces() {
                draw_shape(draw, &piece.shape, &(*xf * piece.transform), style);
            }
        }
    }
}

/// The angle (radians) body `key` turned in the last step: the turn from its start pose to its end
/// pose that is nearest the solver's (so spins of more than half a turn per step keep their
/// turns, and a turn the continuous pass changed is still the one the poses show).
fn last_turn(body: &Body, solver_angle: Option<Real>) -> Real {
    let shortest = body
        .previous_pose
        .rotation
        .inv_mul_rot(body.pose.rotation)
        .angle();
    match solver_angle {
        Some(s) if s.is_finite() => {
            let tau = std::f64::consts::TAU;
            shortest + ((s - shortest) / tau).round() * tau
        }
        _ => shortest,
    }
}

impl World {
    /// Describes the world to `draw`, layer by layer as `options` chooses (see
    /// `docs/debug-draw.md`): shapes (at the poses `options.alpha` picks in the last step; by
    /// body kind and awake state, sensors apart), bounding boxes, swept hulls of the last step,
    /// contact points and normals (from the last step's manifolds, carried with body A to its
    /// end position), the last step's impacts (point, normal, fraction of the step), joints, sensor
    /// overlaps and centres of mass. World frame, metres. Reads only: the world is unchanged.
    pub fn debug_draw(&self, draw: &mut impl DebugDraw, options: &DrawOptions) {
        self.debug_draw_dyn(draw, options);
    }

    fn debug_draw_dyn(&self, draw: &mut dyn DebugDraw, options: &DrawOptions) {
        let alpha = if options.alpha.is_finite() {
            options.alpha.clamp(0.0, 1.0)
        } else {
            1.0
        };
        let normal_length = if options.normal_length.is_finite() && options.normal_length > 0.0 {
            options.normal_length
        } else {
            DrawOptions::default().normal_length
        };
        if options.swept_hulls {
            self.draw_swept_hulls(draw);
        }
        if options.shapes || options.bounding_boxes {
            for (key, body) in self.bodies.iter() {
                let id = self.bodies.id(key);
                let xf = if alpha == 1.0 {
                    body.transform()
                } else {
                    body.interpolated_transform(alpha)
                };
                for (_, def) in body.shapes() {
                    let placed = xf * def.offset;
                    if options.shapes {
                        let role = if def.sensor {
                            DrawRole::SensorShape
                        } else {
                            DrawRole::of_body(body)
                        };
                        draw_shape(
                            draw,
                            &def.shape,
                            &placed,
                            &DrawStyle::new(role, Some(id), true),
                        );
                    }
                    if options.bounding_boxes {
                        let b = def.shape.aabb(&placed);
                        let corners = [
                            b.min,
                            Vec2::new(b.max.x, b.min.y),
                            b.max,
                            Vec2::new(b.min.x, b.max.y),
                        ];
                        let style = DrawStyle::new(DrawRole::BoundingBox, Some(id), false);
                        draw.polygon(&corners, 0.0, &style);
                    }
                }
            }
        }
        if options.contact_points || options.contact_normals {
            self.draw_contacts(draw, options, normal_length);
        }
        if options.joints {
            let style = DrawStyle::new(DrawRole::Joint, None, false);
            for id in self.joint_ids() {
                let (Some((a, b)), Some((body_a, body_b))) =
                    (self.joint_anchors(id), self.joint_bodies(id))
                else {
                    continue;
                };
                // Each body's centre of mass to its anchor, then anchor to anchor (a pin's two
                // anchors coincide; a distance joint's line is its rod).
                let centre = |body: BodyId| self.body(body).map(Body::center_of_mass);
                if let Some(ca) = body_a.and_then(centre) {
                    draw.segment(ca, a, &style);
                }
                draw.segment(a, b, &style);
                if let Some(cb) = centre(body_b) {
                    draw.segment(b, cb, &style);
                }
                draw.point(a, POINT_SIZE, &style);
                draw.point(b, POINT_SIZE, &style);
            }
        }
        if options.sensor_overlaps {
            let style = DrawStyle::new(DrawRole::SensorOverlap, None, false);
            for &(sensor, visitor) in &self.sensor_overlaps {
                if let (Some(a), Some(b)) = (self.shape_center(sensor), self.shape_center(visitor))
                {
                    draw.segment(a, b, &style);
                    draw.point(b, POINT_SIZE, &style);
                }
            }
        }
        if options.impacts {
            let style = DrawStyle::new(DrawRole::Impact, None, false);
            for impact in &self.events.impacts {
                draw.point(impact.point, POINT_SIZE, &style);
                draw.segment(
                    impact.point,
                    impact.point + impact.normal * normal_length,
                    &style,
                );
                draw.text(impact.point, &format!("t={:.3}", impact.fraction), &style);
            }
        }
        if options.centers_of_mass {
            for (key, body) in self.bodies.iter() {
                if body.kind() == BodyKind::Static {
                    continue;
                }
                let style =
                    DrawStyle::new(DrawRole::CenterOfMass, Some(self.bodies.id(key)), false);
                let c = if alpha == 1.0 {
                    body.center_of_mass()
                } else {
                    body.interpolated_transform(alpha)
                        .transform_point(body.local_center_of_mass())
                };
                draw.point(c, POINT_SIZE, &style);
            }
        }
    }

    /// The swept hull of every body that moved in the last step, for its collision shape's
    /// pieces (and sensors) one by one.
    fn draw_swept_hulls(&self, draw: &mut dyn DebugDraw) {
        for (key, body) in self.bodies.iter() {
            if body.previous_pose == body.pose {
                continue;
            }
            let style = DrawStyle::new(DrawRole::SweptHull, Some(self.bodies.id(key)), false);
            let solver_angle = self.buffers.angles.get(key as usize).copied();
            let turn = last_turn(body, solver_angle);
            let start = body.previous_pose;
            let motion = Motion::new(start, body.pose.translation - start.translation, turn);
            let mut hull = |shape: &Shape, placement: &Transform| {
                let h = swept_hull_of(shape, placement, &motion);
                draw.polygon(h.vertices(), h.radius(), &style);
            };
            match &body.com_shape {
                Shape::Compound(c) => {
                    for piece in c.pieces() {
                        hull(&piece.shape, &piece.transform);
                    }
                }
                convex => hull(convex, &Transform::IDENTITY),
            }
        }
    }

    /// Contact points and normals of the last step's manifolds, each point carried with body A's
    /// centre of mass from where the narrow phase found it (the start of the step) to A's end
    /// position, keeping its offset's direction (a rolling disc's contact stays at its bottom).
    fn draw_contacts(&self, draw: &mut dyn DebugDraw, options: &DrawOptions, normal_length: Real) {
        let point_style = DrawStyle::new(DrawRole::ContactPoint, None, false);
        let normal_style = DrawStyle::new(DrawRole::ContactNormal, None, false);
        for contact in self.contacts.as_slice() {
            let centre = self.bodies.at(contact.a).pose.translation;
            for m in &contact.manifolds {
                for p in &m.points[..m.count] {
                    let at = centre + p.anchor_a;
                    if options.contact_points {
                        draw.point(at, POINT_SIZE, &point_style);
                    }
                    if options.contact_normals {
                        draw.segment(at, at + m.normal * normal_length, &normal_style);
                    }
                }
            }
        }
    }

    /// The centre of a shape's bounding box at its body's current pose (world metres).
    fn shape_center(&self, id: ShapeId) -> Option<Vec2> {
        let def = self.shape(id)?;
        let body = self.body(id.body())?;
        let b = def.shape.aabb(&(body.transform() * def.offset));
        Some(0.5 * (b.min + b.max))
    }
}
