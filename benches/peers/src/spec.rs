//! A neutral description of a scene (bodies, shapes in body frames, materials, world settings),
//! read off a sweep2d world so that every engine builds exactly the same bodies.

use sweep2d::analysis::scenes::Scene;
use sweep2d::{BodyKind, Shape, Transform, Vec2, World};

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Static,
    Kinematic,
    Dynamic,
}

/// One convex part of a body's shape, in the body's frame (metres).
#[derive(Clone, Debug)]
pub enum Part {
    Circle {
        center: [f64; 2],
        radius: f64,
    },
    Capsule {
        a: [f64; 2],
        b: [f64; 2],
        radius: f64,
    },
    /// Counter-clockwise vertices; `radius` rounds the polygon (0 for a sharp one).
    Polygon {
        points: Vec<[f64; 2]>,
        radius: f64,
    },
    /// A two-sided segment.
    Segment {
        a: [f64; 2],
        b: [f64; 2],
    },
    /// A chain of segments through `points` (counter-clockwise for a loop whose inside is
    /// solid: the bodies it holds are *inside* a clockwise loop, as Box2D's spinner ring).
    Chain {
        points: Vec<[f64; 2]>,
        closed: bool,
    },
}

/// A collision filter with Box2D's rule: the categories a body's shapes belong to, those they
/// collide with, and a group (shapes sharing a negative group never collide, a positive one
/// always; 0 is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterSpec {
    pub category: u64,
    pub mask: u64,
    pub group: i32,
}

/// A revolute joint: body indices, the pin in the world (metres), an optional motor (target
/// speed of B relative to A in rad/s, largest torque in N·m), optional limits on B's angle
/// relative to A's from where they were built (radians, lower and upper) and an optional spring
/// toward that angle (frequency in Hz, damping ratio). (Rapier measures the angle between the
/// body frames: the same wherever the suite uses limits and springs, whose bodies start at equal
/// angles.)
#[derive(Clone, Copy, Debug)]
pub struct JointSpec {
    pub a: usize,
    pub b: usize,
    pub anchor: [f64; 2],
    pub motor: Option<(f64, f64)>,
    pub limit: Option<(f64, f64)>,
    pub spring: Option<(f64, f64)>,
}

impl JointSpec {
    /// A plain pin between bodies `a` and `b` at `anchor` (world metres): no motor, limit or
    /// spring.
    pub fn pin(a: usize, b: usize, anchor: [f64; 2]) -> Self {
        Self {
            a,
            b,
            anchor,
            motor: None,
            limit: None,
            spring: None,
        }
    }
}

/// A part whose friction and filter differ from its body's (a ragdoll's foot).
#[derive(Clone, Copy, Debug)]
pub struct PartMaterial {
    /// Index into the body's `parts`.
    pub part: usize,
    pub friction: f64,
    pub filter: FilterSpec,
}

/// A body: pose of its frame (metres, radians), velocity (m/s, rad/s), material, parts.
#[derive(Clone, Debug)]
pub struct BodySpec {
    pub kind: Kind,
    pub position: [f64; 2],
    pub angle: f64,
    pub velocity: [f64; 2],
    pub angular_velocity: f64,
    pub density: f64,
    pub friction: f64,
    pub restitution: f64,
    pub parts: Vec<Part>,
    /// Followed for the quality line (the pyramid's top box).
    pub tracked: bool,
    /// The body's shapes' filter (`None`: collide with everything).
    pub filter: Option<FilterSpec>,
    /// Created asleep (Box2D's `isAwake = false`), where the engine can.
    pub asleep: bool,
    /// Linear damping (1/s). Default 0.
    pub linear_damping: f64,
    /// Parts with their own friction and filter.
    pub part_materials: Vec<PartMaterial>,
}

impl BodySpec {
    /// A body of `kind` at `position` (no turn, at rest) made of `parts`, density 1, friction 0.6,
    /// no restitution (Box2D's default shape definition).
    pub fn new(kind: Kind, position: [f64; 2], parts: Vec<Part>) -> Self {
        Self {
            kind,
            position,
            angle: 0.0,
            velocity: [0.0, 0.0],
            angular_velocity: 0.0,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            parts,
            tracked: false,
            filter: None,
            asleep: false,
            linear_damping: 0.0,
            part_materials: Vec::new(),
        }
    }

    /// Part `i`'s friction and filter (`None`: collide with everything).
    pub fn material_of(&self, i: usize) -> (f64, Option<FilterSpec>) {
        match self.part_materials.iter().find(|m| m.part == i) {
            Some(m) => (m.friction, Some(m.filter)),
            None => (self.friction, self.filter),
        }
    }
}

/// A scene: world settings (gravity m/s², step s, substeps) and bodies.
#[derive(Clone, Debug)]
pub struct SceneSpec {
    pub gravity: [f64; 2],
    pub dt: f64,
    pub substeps: u32,
    pub bodies: Vec<BodySpec>,
    /// Revolute joints (the scenes' only joint kind).
    pub joints: Vec<JointSpec>,
}

fn point(t: &Transform, p: Vec2) -> [f64; 2] {
    let q = t.transform_point(p);
    [q.x, q.y]
}

/// The convex parts of `shape` placed by `t` (shape frame → body frame).
fn parts(shape: &Shape, t: &Transform, out: &mut Vec<Part>) {
    match shape {
        Shape::Circle(c) => out.push(Part::Circle {
            center: point(t, c.center()),
            radius: c.radius(),
        }),
        Shape::Capsule(c) => out.push(Part::Capsule {
            a: point(t, c.a()),
            b: point(t, c.b()),
            radius: c.radius(),
        }),
        Shape::Polygon(p) => out.push(Part::Polygon {
            points: p.vertices().iter().map(|&v| point(t, v)).collect(),
            radius: p.radius(),
        }),
        Shape::Compound(c) => {
            for piece in c.pieces() {
                parts(&piece.shape, &(*t * piece.transform), out);
            }
        }
    }
}

impl SceneSpec {
    /// Reads a sweep2d scene's world (its bodies as they are now) and settings.
    pub fn from_scene(scene: &Scene) -> Self {
        Self::from_world(&scene.world, &scene.tracked)
    }

    fn from_world(world: &World, tracked: &[sweep2d::BodyId]) -> Self {
        let config = world.config();
        let bodies = world
            .bodies()
            .map(|(id, b)| {
                let x = b.transform();
                let mut out = Vec::new();
                parts(b.shape(), &Transform::IDENTITY, &mut out);
                BodySpec {
                    kind: match b.kind() {
                        BodyKind::Static => Kind::Static,
                        BodyKind::Kinematic => Kind::Kinematic,
                        _ => Kind::Dynamic,
                    },
                    position: [x.translation.x, x.translation.y],
                    angle: x.rotation.sin.atan2(x.rotation.cos),
                    velocity: [b.linear_velocity().x, b.linear_velocity().y],
                    angular_velocity: b.angular_velocity(),
                    density: b.density(),
                    friction: b.friction(),
                    restitution: b.restitution(),
                    parts: out,
                    tracked: tracked.contains(&id),
                    filter: None,
                    asleep: false,
                    linear_damping: 0.0,
                    part_materials: Vec::new(),
                }
            })
            .collect();
        let index: Vec<sweep2d::BodyId> = world.bodies().map(|(id, _)| id).collect();
        let at = |id: sweep2d::BodyId| index.iter().position(|&b| b == id).expect("a body");
        let joints = world
            .joint_ids()
            .into_iter()
            .filter(|&j| world.joint_kind(j) == Some("revolute"))
            .filter_map(|j| {
                let (a, b) = world.joint_bodies(j)?;
                let (p, _) = world.joint_anchors(j)?;
                Some(JointSpec::pin(at(a?), at(b), [p.x, p.y]))
            })
            .collect();
        Self {
            gravity: [config.gravity.x, config.gravity.y],
            dt: config.dt,
            substeps: config.substeps,
            bodies,
            joints,
        }
    }
}
