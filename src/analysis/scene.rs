//! Scene files (feature `serde`): a whole simulation set-up as JSON, in the schema of `docs/scenes.md`,
//! read with errors that name the body, the field and the reason, and built into a [`World`]
//! all at once or not at all.
//!
//! ```json
//! {"gravity": [0, -9.81], "dt": 0.0166667, "steps": 240,
//!  "bodies": [
//!    {"name": "ground", "kind": "static", "position": [0, -0.5],
//!     "shape": {"type": "rectangle", "half_extents": [10, 0.5]}},
//!    {"name": "ball", "kind": "dynamic", "position": [0, 3], "velocity": [2, 0],
//!     "restitution": 0.5, "shape": {"type": "circle", "radius": 0.25}}]}
//! ```
//!
//! Top-level fields: `bodies` (required), `gravity` (m/s², default `[0, -9.81]`), `dt` (s, default
//! 1/60), `steps` (default 600). Body fields: `kind` (`"static"`, `"dynamic"` or `"kinematic"`),
//! `position` (m) and `shape` are required; `name`, `angle` (rad, 0), `velocity` (m/s, `[0, 0]`),
//! `angular_velocity` (rad/s, 0), `density` (kg/m², 1), `restitution` (0), `friction` (0.6),
//! `filter` (`{"category", "mask", "group"}`, default `{1, all bits, 0}`), `sensor` (false) and
//! `shapes` (more shapes: [`ShapeDefSpec`]) are optional. Shapes: see [`ShapeSpec`]. Unknown
//! fields are errors, so a typo never passes silently.
//!
//! Method: the text is read with serde in one pass, tracking the path of the value being read
//! (`serde_path_to_error`), so a wrong type or a missing field reports `bodies[3].shape.radius`
//! with its line and column; then every body goes through [`World::add_body`]'s validation in a
//! fresh world, which is returned only if every body was accepted.

use crate::dynamics::{BodyDef, BodyId, BodyKind, Filter, ShapeDef};
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::{Shape, ShapeSpec};
use crate::world::{World, WorldConfig};
use serde::{Deserialize, Serialize};

/// Largest scene file read (bytes): 16 MiB.
pub const MAX_SCENE_BYTES: u64 = 16 << 20;

/// Most steps a scene may ask for (10⁷: about 46 hours simulated at 60 Hz).
pub const MAX_SCENE_STEPS: u64 = 10_000_000;

/// Most bodies a scene file may describe: 50,000 are read and built in about 0.8 s on one core
/// (130,000, 14 MB of JSON, took 2.5 s and 650 MB). Larger worlds: build them with the API.
pub const MAX_SCENE_BODIES: usize = 50_000;

/// Most joints a scene file may describe (see [`MAX_SCENE_BODIES`]).
pub const MAX_SCENE_JOINTS: usize = 50_000;

/// A scene file: world settings and bodies (see the module notes for the schema and defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    /// Gravitational acceleration (m/s², world frame).
    #[serde(default = "default_gravity")]
    pub gravity: [Real; 2],
    /// Fixed step (seconds, > 0).
    #[serde(default = "default_dt")]
    pub dt: Real,
    /// Steps a run simulates.
    #[serde(default = "default_steps")]
    pub steps: u64,
    /// The bodies, in order (their index is their number in messages and outputs); at most
    /// [`MAX_SCENE_BODIES`], refused while reading past it.
    #[serde(deserialize_with = "capped::<_, _, MAX_SCENE_BODIES>")]
    pub bodies: Vec<BodySpec>,
    /// Joints between the bodies (default none); at most [`MAX_SCENE_JOINTS`].
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "capped::<_, _, MAX_SCENE_JOINTS>"
    )]
    pub joints: Vec<JointSpec>,
}

/// An array read only up to `CAP` entries: one more is an error at once, so a file far past the
/// cap costs no more to refuse than one at it.
fn capped<'de, D, T, const CAP: usize>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Capped<T, const CAP: usize>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>, const CAP: usize> serde::de::Visitor<'de> for Capped<T, CAP> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "an array of at most {CAP} entries")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::new();
            while let Some(x) = seq.next_element()? {
                if out.len() == CAP {
                    return Err(serde::de::Error::custom(format!(
                        "more than {CAP} entries; a scene file holds at most {CAP} (split the \
                         scene, or build larger worlds with the library)"
                    )));
                }
                out.push(x);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Capped::<T, CAP>(std::marker::PhantomData))
}

/// A body named in a joint: its index in `bodies`, or its name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BodyRef {
    /// Index in `bodies` (0-based).
    Index(usize),
    /// The body's `name`.
    Name(String),
}

/// A joint's motor: target speed (rad/s, or m/s for a prismatic joint) and the most torque (N·m)
/// or force (N) it applies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotorSpec {
    /// Target speed.
    pub speed: Real,
    /// Largest torque or force.
    pub max: Real,
}

/// A joint's spring: frequency (Hz) and damping ratio.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpringSpec {
    /// Frequency (Hz, ≥ 0).
    pub hertz: Real,
    /// Damping ratio (≥ 0; default 0.7).
    #[serde(default = "default_damping_ratio")]
    pub damping_ratio: Real,
}

fn default_damping_ratio() -> Real {
    0.7
}

/// One joint of a [`SceneFile`] (world frame at the start, SI units; see `docs/joints.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum JointSpec {
    /// A pin at `anchor`; optional angle `limit` `[lower, upper]` (rad), `motor`, `spring`.
    Revolute {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// The pin (m).
        anchor: [Real; 2],
        /// Angle limits (rad).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<[Real; 2]>,
        /// Motor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorSpec>,
        /// Rotational spring.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A slider along `axis` through `anchor`; optional translation `limit` (m), `motor`,
    /// `spring`.
    Prismatic {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// A point on the axis (m).
        anchor: [Real; 2],
        /// The axis direction.
        axis: [Real; 2],
        /// Translation limits (m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<[Real; 2]>,
        /// Motor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorSpec>,
        /// Spring.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A rod, rope or spring between `anchor_a` and `anchor_b`.
    Distance {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// Anchor on A (m).
        anchor_a: [Real; 2],
        /// Anchor on B (m).
        anchor_b: [Real; 2],
        /// Rest length (m; default the anchors' distance).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        length: Option<Real>,
        /// Shortest distance (m; default `length`; 0 for a rope).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_length: Option<Real>,
        /// Longest distance (m; default `length`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_length: Option<Real>,
        /// Spring toward `length`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A weld at `anchor`, rigid unless given springs.
    Weld {
        /// First body.
        body_a: BodyRef,
        /// Second body.
        body_b: BodyRef,
        /// The weld point (m).
        anchor: [Real; 2],
        /// Linear spring (default rigid).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        linear_spring: Option<SpringSpec>,
        /// Angular spring (default rigid).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        angular_spring: Option<SpringSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
    /// A wheel (`body_b`) on a suspension along `axis` of the chassis (`body_a`).
    Wheel {
        /// The chassis.
        body_a: BodyRef,
        /// The wheel.
        body_b: BodyRef,
        /// The wheel's centre (m).
        anchor: [Real; 2],
        /// Suspension axis.
        axis: [Real; 2],
        /// Suspension spring (default 4 Hz, 0.7).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Travel limits (m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<[Real; 2]>,
        /// Motor (rad/s, N·m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorSpec>,
        /// Whether the two bodies collide (default false).
        #[serde(default)]
        collide_connected: bool,
    },
}

/// One body of a [`SceneFile`] (world frame, SI units).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// Name used in messages, outputs and plot legends (default `body <index>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// How the body moves.
    pub kind: KindSpec,
    /// Origin of the body frame (metres).
    pub position: [Real; 2],
    /// Rotation (radians, counter-clockwise).
    #[serde(default)]
    pub angle: Real,
    /// Linear velocity of the centre of mass (m/s).
    #[serde(default)]
    pub velocity: [Real; 2],
    /// Angular velocity (rad/s).
    #[serde(default)]
    pub angular_velocity: Real,
    /// Density (kg/m², > 0 for dynamic bodies).
    #[serde(default = "default_density")]
    pub density: Real,
    /// Restitution (≥ 0; 1 is elastic).
    #[serde(default)]
    pub restitution: Real,
    /// Coulomb friction coefficient (≥ 0).
    #[serde(default = "default_friction")]
    pub friction: Real,
    /// The first shape, in the body frame.
    pub shape: Shape,
    /// Collision filter of the first shape (default: category 1, collides with everything).
    #[serde(default, skip_serializing_if = "is_default_filter")]
    pub filter: Filter,
    /// The first shape is a sensor (default false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub sensor: bool,
    /// More shapes of the body, each placed in the body frame (default none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<ShapeDefSpec>,
}

/// One more shape of a body in a [`SceneFile`] (body frame, SI units).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapeDefSpec {
    /// The shape, in its own frame.
    pub shape: Shape,
    /// Where the shape's frame sits in the body frame (metres, default `[0, 0]`).
    #[serde(default)]
    pub offset: [Real; 2],
    /// Its rotation in the body frame (radians, default 0).
    #[serde(default)]
    pub angle: Real,
    /// Density (kg/m², ≥ 0, default 1).
    #[serde(default = "default_density")]
    pub density: Real,
    /// Restitution (≥ 0, default 0).
    #[serde(default)]
    pub restitution: Real,
    /// Coulomb friction coefficient (≥ 0, default 0.6).
    #[serde(default = "default_friction")]
    pub friction: Real,
    /// Collision filter (default: collides with everything).
    #[serde(default, skip_serializing_if = "is_default_filter")]
    pub filter: Filter,
    /// A sensor (default false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub sensor: bool,
}

fn is_default_filter(f: &Filter) -> bool {
    *f == Filter::DEFAULT
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A body's kind as written in a scene file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KindSpec {
    /// Never moves.
    Static,
    /// Moved by forces and contacts.
    Dynamic,
    /// Moves at its set velocity, unaffected by contacts.
    Kinematic,
}

impl From<KindSpec> for BodyKind {
    fn from(k: KindSpec) -> BodyKind {
        match k {
            KindSpec::Static => BodyKind::Static,
            KindSpec::Dynamic => BodyKind::Dynamic,
            KindSpec::Kinematic => BodyKind::Kinematic,
        }
    }
}

impl From<BodyKind> for KindSpec {
    fn from(k: BodyKind) -> KindSpec {
        match k {
            BodyKind::Static => KindSpec::Static,
            BodyKind::Dynamic => KindSpec::Dynamic,
            BodyKind::Kinematic => KindSpec::Kinematic,
        }
    }
}

fn default_gravity() -> [Real; 2] {
    WorldConfig::default().gravity.to_array()
}
fn default_dt() -> Real {
    WorldConfig::default().dt
}
fn default_steps() -> u64 {
    600
}
fn default_density() -> Real {
    BodyDef::default().density
}
fn default_friction() -> Real {
    BodyDef::default().friction
}

/// Why a scene could not be read or built. Nothing is built when this is returned.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// The text is not valid JSON.
    #[error("not valid JSON at line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON reader found.
        message: String,
    },
    /// A body is wrong: an unknown or missing field, a value of the wrong type, an invalid shape,
    /// or a value the world refuses (a negative density, a NaN).
    #[error("{}{}: {reason}{}", who(*.index, .name), field_part(.field), at(.location))]
    Body {
        /// Index of the body in `bodies` (0-based).
        index: usize,
        /// Its name, when it has one.
        name: Option<String>,
        /// The field, as a path inside the body (`shape.radius`), or empty for the body itself.
        field: String,
        /// What is wrong and how to fix it.
        reason: String,
        /// Where in the text (1-based line, column), when the problem is in the text itself.
        location: Option<(usize, usize)>,
    },
    /// A top-level field is wrong (`gravity`, `dt`, `steps`, `bodies`, or an unknown one).
    #[error("{}: {reason}{}", top_field(.field), at(.location))]
    Field {
        /// The field's path.
        field: String,
        /// What is wrong and how to fix it.
        reason: String,
        /// Where in the text (1-based line, column), when known.
        location: Option<(usize, usize)>,
    },
    /// The file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// The system's message.
        message: String,
    },
}

/// ``field `dt` `` for a top-level field, `the scene` for the file as a whole.
fn top_field(field: &str) -> String {
    if field.is_empty() {
        "the scene".to_string()
    } else {
        format!("field `{field}`")
    }
}

/// `body 3 ("ball")` or `body 3`, for error messages.
fn who(index: usize, name: &Option<String>) -> String {
    match name {
        Some(n) => format!("body {index} ({})", shown_name(n)),
        None => format!("body {index}"),
    }
}

pub(crate) use crate::world::shown_name;

/// `, field `x`` for a named field, nothing for the body as a whole.
fn field_part(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!(", field `{field}`")
    }
}

/// ` (line l, column c)` when the place in the text is known.
fn at(location: &Option<(usize, usize)>) -> String {
    match location {
        Some((l, c)) => format!(" (line {l}, column {c})"),
        None => String::new(),
    }
}

/// A scene built into a world, with each body's id and name in file order.
#[derive(Debug)]
pub struct LoadedScene {
    /// The world, holding every body of the file.
    pub world: World,
    /// `(id, name)` per body, in file order; unnamed bodies are called `body <index>`.
    pub bodies: Vec<(BodyId, String)>,
    /// Steps a run simulates (from the file).
    pub steps: u64,
}

impl LoadedScene {
    /// Moves every dynamic body's start position along the world x axis by a fixed pseudo-random
    /// amount in `[-scale, scale]` metres, drawn from `(seed, the body's index in the file)`:
    /// nearby starts of the same scene. A scene whose bodies collide many times is chaotic (a
    /// tenth of a millimetre changes which bodies meet later), so a figure measured on one run
    /// is one sample; `examples/scene_spread.rs` measures its spread over such starts. Static and
    /// kinematic bodies stay where they are, and so do velocities; `scale = 0` changes nothing.
    ///
    /// # Errors
    /// [`SceneError::Field`] (field `shift`) if `scale` is negative or not finite;
    /// [`SceneError::Body`] if a moved body would leave the world's coordinate range. Either way
    /// no body has moved.
    pub fn shift_dynamic_bodies(&mut self, seed: u64, scale: Real) -> Result<(), SceneError> {
        if !(scale.is_finite() && scale >= 0.0) {
            return Err(SceneError::Field {
                field: "shift".into(),
                reason: format!(
                    "the shift scale {} is not a finite distance ≥ 0; give metres, e.g. 1e-3",
                    crate::math::Num(scale)
                ),
                location: None,
            });
        }
        let mut moved: Vec<(BodyId, Transform)> = Vec::new();
        for (index, (id, name)) in self.bodies.iter().enumerate() {
            let Some(body) = self.world.body(*id) else {
                continue; // removed by the caller since loading
            };
            if body.kind() != BodyKind::Dynamic {
                continue;
            }
            let before = body.transform();
            let mut after = before;
            after.translation.x += scale * unit_noise(seed, index as u64);
            if let Err(e) = self.world.set_transform(*id, after) {
                for (id, before) in moved.into_iter().rev() {
                    self.world
                        .set_transform(id, before)
                        .expect("a body's own earlier transform is accepted again");
                }
                return Err(SceneError::Body {
                    index,
                    name: Some(name.clone()),
                    field: "position".into(),
                    reason: e.to_string(),
                    location: None,
                });
            }
            moved.push((*id, before));
        }
        Ok(())
    }
}

/// A number in `[-1, 1]` fixed by `(seed, index)`: SplitMix64's finaliser on the two mixed.
fn unit_noise(seed: u64, index: u64) -> Real {
    let mut z =
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as Real / (1u64 << 53) as Real * 2.0 - 1.0
}

impl SceneFile {
    /// Reads a scene from JSON text. Errors name the body (index and name), the field and the
    /// reason, with line and column where the text is at fault.
    pub fn from_json(text: &str) -> Result<SceneFile, SceneError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let parsed: Result<SceneFile, _> =
            crate::shape::spec::with_scene_budget(|| serde_path_to_error::deserialize(&mut de));
        let scene = match parsed {
            Ok(scene) => scene,
            Err(err) => {
                // Valid JSON that is not an object at all: say so, rather than what serde
                // found wrong deep inside it.
                if let Ok(document) = serde_json::from_str::<serde_json::Value>(text) {
                    if !document.is_object() {
                        return Err(SceneError::Field {
                            field: String::new(),
                            reason: format!(
                                "a scene file is one JSON object such as {{\"bodies\": [...]}}, \
                                 but this file holds {}",
                                match document {
                                    serde_json::Value::Array(_) => "an array",
                                    serde_json::Value::String(_) => "a string",
                                    serde_json::Value::Number(_) => "a number",
                                    serde_json::Value::Bool(_) => "a boolean",
                                    _ => "null",
                                }
                            ),
                            location: Some((1, 1)),
                        });
                    }
                }
                return Err(describe(text, &err));
            }
        };
        if let Err(e) = de.end() {
            return Err(SceneError::Syntax {
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            });
        }
        // serde reads a struct from an array of its fields in order too, which would let
        // `["ball", "dynamic", ...]` bypass the unknown-field check and depend on field order:
        // wherever the scene has an object, the text must have one.
        if let Ok(document) = serde_json::from_str::<serde_json::Value>(text) {
            let canonical = serde_json::to_value(&scene).expect("a scene always serializes");
            if let Some(path) = positional_struct(&document, &canonical, String::new()) {
                return Err(at_path(
                    text,
                    &path,
                    "write this as an object with named fields ({\"field\": value, ...}), not \
                     as an array of values"
                        .to_string(),
                    None,
                ));
            }
        }
        Ok(scene)
    }

    /// Reads a scene file from disk (see [`SceneFile::from_json`]).
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<SceneFile, SceneError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |message: String| SceneError::Io {
            path: path.display().to_string(),
            message,
        };
        // Read at most one byte past the cap: a file (or a device like /dev/zero) longer than
        // that is refused without reading it whole.
        let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
        let mut bytes = Vec::new();
        file.take(MAX_SCENE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| io(e.to_string()))?;
        if bytes.len() as u64 > MAX_SCENE_BYTES {
            return Err(io(format!(
                "the file is larger than {} MiB, the most a scene file may be",
                MAX_SCENE_BYTES >> 20
            )));
        }
        let text =
            String::from_utf8(bytes).map_err(|e| io(format!("the file is not UTF-8 text: {e}")))?;
        SceneFile::from_json(&text)
    }

    /// The scene as pretty-printed JSON (readable back with [`SceneFile::from_json`]).
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a scene always serializes")
    }

    /// The world settings of the file: its gravity and step, the rest at their defaults.
    #[must_use]
    pub fn config(&self) -> WorldConfig {
        WorldConfig {
            gravity: Vec2::from_array(self.gravity),
            dt: self.dt,
            ..WorldConfig::default()
        }
    }

    /// The name body `index` goes by in messages and outputs.
    #[must_use]
    pub fn body_name(&self, index: usize) -> String {
        self.bodies
            .get(index)
            .and_then(|b| b.name.clone())
            .unwrap_or_else(|| format!("body {index}"))
    }

    /// Builds the world: every body is validated by [`World::add_body`]. Returns the first
    /// problem, naming the body and the field; nothing is returned half-built.
    pub fn build(&self) -> Result<LoadedScene, SceneError> {
        for (field, count, cap) in [
            ("bodies", self.bodies.len(), MAX_SCENE_BODIES),
            ("joints", self.joints.len(), MAX_SCENE_JOINTS),
        ] {
            if count > cap {
                return Err(SceneError::Field {
                    field: field.into(),
                    reason: format!(
                        "{count} {field} is more than a scene file may hold ({cap}); split the \
                         scene, or build larger worlds with the library"
                    ),
                    location: None,
                });
            }
        }
        if self.steps > MAX_SCENE_STEPS {
            return Err(SceneError::Field {
                field: "steps".into(),
                reason: format!(
                    "{} steps is more than {MAX_SCENE_STEPS} (about 46 hours simulated at 60 Hz); \
                     run a shorter scene, or several",
                    self.steps
                ),
                location: None,
            });
        }
        let mut world = World::try_new(self.config()).map_err(|e| SceneError::Field {
            field: match &e {
                crate::WorldError::InvalidConfig { field, .. } => (*field).to_string(),
                _ => String::new(),
            },
            // The field is named already; the type's name means nothing in a file.
            reason: e.to_string().replace("WorldConfig::", ""),
            location: None,
        })?;
        // Names identify bodies in trajectory.csv, events.csv and joints: each must be unique
        // (an unnamed body goes by `body <index>`, which a named one must not take either).
        let mut seen = std::collections::HashMap::with_capacity(self.bodies.len());
        for index in 0..self.bodies.len() {
            if let Some(first) = seen.insert(self.body_name(index), index) {
                return Err(SceneError::Body {
                    index,
                    name: self.bodies[index].name.clone(),
                    field: "name".into(),
                    reason: format!(
                        "body {first} already goes by this name; names identify bodies in \
                         trajectory.csv, events.csv and joints, so give each body its own (an \
                         unnamed body is called `body <index>`)"
                    ),
                    location: None,
                });
            }
        }
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for (index, spec) in self.bodies.iter().enumerate() {
            let name = self.body_name(index);
            let def = BodyDef {
                kind: spec.kind.into(),
                shape: spec.shape.clone(),
                transform: Transform::new(Vec2::from_array(spec.position), spec.angle),
                linear_velocity: Vec2::from_array(spec.velocity),
                angular_velocity: spec.angular_velocity,
                density: spec.density,
                restitution: spec.restitution,
                friction: spec.friction,
                filter: spec.filter,
                sensor: spec.sensor,
                name: Some(name.clone()),
                ..BodyDef::default()
            };
            // The message's prefix names the body already: drop the error's own "of body …".
            let reason =
                |e: &dyn std::fmt::Display| e.to_string().replace(&format!(" of body {name}"), "");
            let id = world.add_body(def).map_err(|e| SceneError::Body {
                index,
                name: spec.name.clone(),
                field: body_error_field(&e).to_string(),
                reason: reason(&e),
                location: None,
            })?;
            let extras = spec
                .shapes
                .iter()
                .map(|extra| ShapeDef {
                    shape: extra.shape.clone(),
                    offset: Transform::new(Vec2::from_array(extra.offset), extra.angle),
                    density: extra.density,
                    friction: extra.friction,
                    restitution: extra.restitution,
                    filter: extra.filter,
                    sensor: extra.sensor,
                })
                .collect();
            world
                .add_shapes_at_once(id, extras)
                .map_err(|(k, e)| SceneError::Body {
                    index,
                    name: spec.name.clone(),
                    field: shape_error_field(k, &e),
                    reason: reason(&e),
                    location: None,
                })?;
            bodies.push((id, name));
        }
        // Names to bodies, the first body of a name winning (as a search in order would).
        let mut by_name: std::collections::HashMap<&str, BodyId> =
            std::collections::HashMap::with_capacity(bodies.len());
        for (id, name) in &bodies {
            by_name.entry(name.as_str()).or_insert(*id);
        }
        for (k, spec) in self.joints.iter().enumerate() {
            let def = self.joint_def(k, spec, &bodies, &by_name)?;
            world.add_joint(def).map_err(|e| SceneError::Field {
                field: format!("joints[{k}]"),
                reason: e.to_string(),
                location: None,
            })?;
        }
        Ok(LoadedScene {
            world,
            bodies,
            steps: self.steps,
        })
    }

    /// The joint definition of `spec` (joint `k`), its bodies looked up in `bodies`.
    fn joint_def(
        &self,
        k: usize,
        spec: &JointSpec,
        bodies: &[(BodyId, String)],
        by_name: &std::collections::HashMap<&str, BodyId>,
    ) -> Result<crate::dynamics::JointDef, SceneError> {
        use crate::dynamics::{
            DistanceJointDef, PrismaticJointDef, RevoluteJointDef, WeldJointDef, WheelJointDef,
        };
        let find = |which: &str, r: &BodyRef| -> Result<BodyId, SceneError> {
            let found = match r {
                BodyRef::Index(i) => bodies.get(*i).map(|b| b.0),
                BodyRef::Name(n) => by_name.get(n.as_str()).copied(),
            };
            found.ok_or_else(|| SceneError::Field {
                field: format!("joints[{k}].{which}"),
                reason: match r {
                    BodyRef::Index(i) => format!(
                        "there is no body {i} (the scene has {} bodies, numbered from 0)",
                        bodies.len()
                    ),
                    BodyRef::Name(n) => format!("no body is named {}", shown_name(n)),
                },
                location: None,
            })
        };
        let v = Vec2::from_array;
        Ok(match spec {
            JointSpec::Revolute {
                body_a,
                body_b,
                anchor,
                limit,
                motor,
                spring,
                collide_connected,
            } => {
                let mut d = RevoluteJointDef::new(
                    find("body_a", body_a)?,
                    find("body_b", body_b)?,
                    v(*anchor),
                );
                if let Some([lo, hi]) = limit {
                    (d.enable_limit, d.lower_angle, d.upper_angle) = (true, *lo, *hi);
                }
                if let Some(m) = motor {
                    (d.enable_motor, d.motor_speed, d.max_motor_torque) = (true, m.speed, m.max);
                }
                if let Some(sp) = spring {
                    (d.enable_spring, d.hertz, d.damping_ratio) =
                        (true, sp.hertz, sp.damping_ratio);
                }
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Prismatic {
                body_a,
                body_b,
                anchor,
                axis,
                limit,
                motor,
                spring,
                collide_connected,
            } => {
                let mut d = PrismaticJointDef::new(
                    find("body_a", body_a)?,
                    find("body_b", body_b)?,
                    v(*anchor),
                    v(*axis),
                );
                if let Some([lo, hi]) = limit {
                    (d.enable_limit, d.lower_translation, d.upper_translation) = (true, *lo, *hi);
                }
                if let Some(m) = motor {
                    (d.enable_motor, d.motor_speed, d.max_motor_force) = (true, m.speed, m.max);
                }
                if let Some(sp) = spring {
                    (d.enable_spring, d.hertz, d.damping_ratio) =
                        (true, sp.hertz, sp.damping_ratio);
                }
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Distance {
                body_a,
                body_b,
                anchor_a,
                anchor_b,
                length,
                min_length,
                max_length,
                spring,
                collide_connected,
            } => {
                let mut d = DistanceJointDef::new(
                    find("body_a", body_a)?,
                    find("body_b", body_b)?,
                    v(*anchor_a),
                    v(*anchor_b),
                );
                if let Some(l) = length {
                    (d.length, d.min_length, d.max_length) = (*l, *l, *l);
                }
                d.min_length = min_length.unwrap_or(d.min_length);
                d.max_length = max_length.unwrap_or(d.max_length);
                if let Some(sp) = spring {
                    (d.enable_spring, d.hertz, d.damping_ratio) =
                        (true, sp.hertz, sp.damping_ratio);
                }
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Weld {
                body_a,
                body_b,
                anchor,
                linear_spring,
                angular_spring,
                collide_connected,
            } => {
                let mut d =
                    WeldJointDef::new(find("body_a", body_a)?, find("body_b", body_b)?, v(*anchor));
                if let Some(sp) = linear_spring {
                    (d.linear_hertz, d.linear_damping_ratio) = (sp.hertz, sp.damping_ratio);
                }
                if let Some(sp) = angular_spring {
                    (d.angular_hertz, d.angular_damping_ratio) = (sp.hertz, sp.damping_ratio);
                }
                d.common.collide_connected = *collide_connected;
                d.into()
            }
            JointSpec::Wheel {
                body_a,
                body_b,
                anchor,
                axis,
                spring,
                limit,
                motor,
                collide_connected,
            } => {
                let mut d = WheelJointDef::new(
                    find("body_a", body_a)?,
                    find("body_b", body_b)?,
                    v(*anchor),
                    v(*axis),
                );
                if let Some(sp) = spring {
                    (d.hertz, d.damping_ratio) = (sp.hertz, sp.damping_ratio);
                }
                if let Some([lo, hi]) = limit {
                    (d.enable_limit, d.lower_translation, d.upper_translation) = (true, *lo, *hi);
                }
                if let Some(m) = motor {
                    (d.enable_motor, d.motor_speed, d.max_motor_torque) = (true, m.speed, m.max);
                }
                d.common.collide_connected = *collide_connected;
                d.into()
            }
        })
    }

    /// Reads and builds in one call.
    pub fn load(text: &str) -> Result<LoadedScene, SceneError> {
        SceneFile::from_json(text)?.build()
    }
}

/// The scene-file field an error of the body's extra shape `k` is about (`shapes[k].density`).
fn shape_error_field(k: usize, e: &crate::BodyError) -> String {
    use crate::BodyError as E;
    let field = match e {
        E::NonFinite { field, .. } | E::OutOfRange { field, .. } => match *field {
            "shape offset" => "offset",
            "shape density" | "density" => "density",
            "shape friction" => "friction",
            "shape restitution" => "restitution",
            other => other,
        },
        E::InvalidRotation { .. } => "angle",
        E::Shape { .. } => "shape",
        _ => "",
    };
    format!("shapes[{k}].{field}")
}

/// The scene-file field a body error is about.
fn body_error_field(e: &crate::BodyError) -> &'static str {
    use crate::BodyError as E;
    let field = match e {
        E::NonFinite { field, .. } | E::OutOfRange { field, .. } => *field,
        E::Shape { .. } => "shape",
        E::InvalidRotation { .. } => "transform.rotation",
        _ => "",
    };
    // BodyDef's names → the file's names.
    match field {
        f if f.starts_with("transform.translation") => "position",
        f if f.starts_with("transform.rotation") => "angle",
        f if f.starts_with("linear_velocity") => "velocity",
        other => other,
    }
}

/// Turns a serde error with its path into a [`SceneError`] naming the body and the field.
fn describe(text: &str, err: &serde_path_to_error::Error<serde_json::Error>) -> SceneError {
    let inner = err.inner();
    let path = err.path().to_string();
    // serde_json reports an array with too many elements (`"position": [0, 3, 4]`) as trailing
    // characters, a syntax error; inside a field it is that field's mistake.
    let too_long = inner.to_string().starts_with("trailing characters") && path != ".";
    // A number too large for f64 (`1e999`), and a value of the wrong kind where serde_json can
    // only say "expected value" (`"kind": 3`), are reported as syntax by serde_json; inside a
    // field of otherwise valid JSON they are that field's mistake, said in the user's words.
    let out_of_range = inner.to_string().starts_with("number out of range") && path != ".";
    let document: Option<serde_json::Value> = serde_json::from_str(text).ok();
    let wrong_kind = inner.is_syntax() && document.is_some() && path != ".";
    if (inner.is_syntax() || inner.is_eof()) && !too_long && !out_of_range && !wrong_kind {
        return SceneError::Syntax {
            line: inner.line(),
            column: inner.column(),
            message: strip_location(&inner.to_string()),
        };
    }
    let location = (inner.line() > 0).then(|| (inner.line(), inner.column()));
    let reason = if too_long {
        "too many values; a point or vector is written [x, y]".to_string()
    } else if out_of_range {
        "the number is too large for a 64-bit float (above about 1.8e308); give a finite number"
            .to_string()
    } else if wrong_kind {
        let pointer = format!(
            "/{}",
            path.replace('[', "/").replace(']', "").replace('.', "/")
        );
        let value = document
            .as_ref()
            .and_then(|d| d.pointer(&pointer))
            .map_or_else(
                || "this value".to_string(),
                |v| {
                    let shown = v.to_string();
                    if shown.chars().count() > 40 {
                        format!("{}…", shown.chars().take(40).collect::<String>())
                    } else {
                        shown
                    }
                },
            );
        let expected = if path.ends_with(".kind") {
            "; expected one of \"static\", \"dynamic\", \"kinematic\""
        } else {
            ""
        };
        format!("{value} is not a valid value here{expected}")
    } else {
        user_words(&strip_location(&inner.to_string()))
    };
    at_path(text, &path, reason, location)
}

/// The path of the first place where `document` (the text as read) has an array and `canonical`
/// (the parsed scene written back) has an object: a struct given as positional values.
fn positional_struct(
    document: &serde_json::Value,
    canonical: &serde_json::Value,
    path: String,
) -> Option<String> {
    use serde_json::Value;
    match (document, canonical) {
        (Value::Array(_), Value::Object(_)) => Some(path),
        (Value::Object(d), Value::Object(c)) => d.iter().find_map(|(key, dv)| {
            let cv = c.get(key)?;
            let sub = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            positional_struct(dv, cv, sub)
        }),
        (Value::Array(d), Value::Array(c)) => d
            .iter()
            .zip(c)
            .enumerate()
            .find_map(|(i, (dv, cv))| positional_struct(dv, cv, format!("{path}[{i}]"))),
        _ => None,
    }
}

/// The error for `reason` at serde path `path` (`bodies[3].shape.radius` names body 3, field
/// `shape.radius`; anything else is a top-level field).
fn at_path(text: &str, path: &str, reason: String, location: Option<(usize, usize)>) -> SceneError {
    // `bodies[3].shape.radius` → body 3, field `shape.radius`.
    if let Some(rest) = path.strip_prefix("bodies[") {
        if let Some((index, field)) = rest.split_once(']') {
            if let Ok(index) = index.parse::<usize>() {
                return SceneError::Body {
                    index,
                    name: body_name_in(text, index),
                    field: field.trim_start_matches('.').to_string(),
                    reason,
                    location,
                };
            }
        }
    }
    SceneError::Field {
        field: if path == "." || path.is_empty() {
            String::new()
        } else {
            path.to_string()
        },
        reason,
        location,
    }
}

/// What serde calls the types a scene is read into, said in the file's words.
fn expected_in_user_words(expected: &str) -> String {
    let named = [
        ("internally tagged enum ShapeSpec", "a shape object such as {\"type\": \"circle\", \"radius\": 0.5}"),
        ("internally tagged enum JointSpec", "a joint object such as {\"type\": \"revolute\", \"body_a\": 0, \"body_b\": 1, \"anchor\": [0, 0]}"),
        ("untagged enum BodyRef", "a body's index (0, 1, ...) or its name"),
        ("struct SceneFile", "a scene object such as {\"bodies\": [...]}"),
        ("struct BodySpec", "a body object such as {\"kind\": \"dynamic\", \"position\": [0, 0], \"shape\": {...}}"),
        ("struct ShapeDefSpec", "a shape entry such as {\"shape\": {...}, \"offset\": [0, 0]}"),
        ("struct PieceSpec", "a piece such as {\"shape\": {...}, \"offset\": [0, 0]}"),
        ("struct MotorSpec", "a motor object such as {\"speed\": 1, \"max_torque\": 10}"),
        ("struct SpringSpec", "a spring object such as {\"frequency\": 2, \"damping_ratio\": 0.7}"),
        ("struct Filter", "a filter object such as {\"category\": 1, \"mask\": 255, \"group\": 0}"),
        ("enum KindSpec", "one of \"static\", \"dynamic\", \"kinematic\""),
        ("f64", "a number"),
        ("f32", "a number"),
        ("u64", "a whole number, 0 or more"),
        ("u32", "a whole number, 0 or more"),
        ("usize", "a whole number, 0 or more"),
        ("u16", "a whole number, 0 or more"),
        ("u8", "a whole number, 0 or more"),
        ("i64", "a whole number"),
        ("i32", "a whole number"),
        ("a sequence", "an array"),
        ("a map", "an object"),
    ];
    if let Some((_, words)) = named.iter().find(|(serde, _)| *serde == expected) {
        return (*words).to_string();
    }
    // Any other struct or enum of ours: say what kind of JSON value it is.
    if expected.starts_with("struct ") {
        return "an object with named fields".to_string();
    }
    if expected.contains("enum ") {
        return "one of the names this field takes".to_string();
    }
    expected.to_string()
}

/// A value serde describes (`string "abc"`, `integer \`3\``, `map`) as the user wrote it, cut to
/// 40 characters with control characters escaped.
fn found_in_user_words(found: &str) -> String {
    let quoted = |v: &str| {
        let cut: String = v.chars().take(40).flat_map(char::escape_debug).collect();
        if v.chars().count() > 40 {
            format!("{cut}…")
        } else {
            cut
        }
    };
    if let Some(v) = found.strip_prefix("string \"") {
        return format!("the text \"{}\"", quoted(v.strip_suffix('"').unwrap_or(v)));
    }
    for prefix in ["integer `", "floating point `", "boolean `"] {
        if let Some(v) = found.strip_prefix(prefix) {
            return quoted(v.strip_suffix('`').unwrap_or(v));
        }
    }
    match found {
        "map" => "an object".to_string(),
        "sequence" => "an array".to_string(),
        "null" | "unit value" | "unit" => "null".to_string(),
        other => quoted(other),
    }
}

/// serde's messages about a value (`invalid type: string "x", expected f64`) in the file's words
/// (`the text "x" is not a number`); messages serde words plainly (missing or unknown fields,
/// unknown names) pass through.
pub(crate) fn user_words(message: &str) -> String {
    for (prefix, verb) in [("invalid type: ", "is not"), ("invalid value: ", "is not")] {
        if let Some(rest) = message.strip_prefix(prefix) {
            if let Some((found, expected)) = rest.rsplit_once(", expected ") {
                return format!(
                    "{} {verb} {}",
                    found_in_user_words(found),
                    expected_in_user_words(expected)
                );
            }
        }
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        if let Some((_, expected)) = rest.split_once(", expected ") {
            if expected.starts_with("struct ") || expected.contains("enum ") {
                return "write this as an object with named fields ({\"field\": value, ...}), \
                        not as an array of values"
                    .to_string();
            }
            let (n, _) = rest.split_once(',').unwrap_or((rest, ""));
            return format!("{n} values is not {expected}");
        }
    }
    if message.starts_with("data did not match any variant of untagged enum BodyRef") {
        return "expected a body's index (0, 1, ...) or its name".to_string();
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        return format!("unknown name {}", tame_quoted(rest));
    }
    if message.starts_with("unknown field ") || message.starts_with("duplicate field ") {
        return tame_quoted(message);
    }
    // Whatever else names one of our types: replace the type's name.
    let mut out = message.to_string();
    for t in [
        "internally tagged enum ",
        "untagged enum ",
        "struct ",
        "enum ",
    ] {
        while let Some(i) = out.find(t) {
            let end = out[i + t.len()..]
                .find(|c: char| !c.is_alphanumeric() && c != '_')
                .map_or(out.len(), |j| i + t.len() + j);
            let words = expected_in_user_words(&out[i..end]);
            out.replace_range(i..end, &words);
        }
    }
    out
}

/// `message` with each `` `quoted` `` part cut to 40 characters and control characters escaped
/// (a hostile key or name must not drive the terminal or flood the screen).
fn tame_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    for (k, part) in message.split('`').enumerate() {
        if k > 0 {
            out.push('`');
        }
        let escaped = part.chars().flat_map(|c| {
            let e: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            e
        });
        if k % 2 == 1 && part.chars().count() > 40 {
            out.extend(escaped.take(40));
            out.push('…');
        } else {
            out.extend(escaped);
        }
    }
    out
}

/// serde_json appends " at line L column C" to its messages; the error carries them separately.
fn strip_location(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// The `name` of body `index`, read leniently from text that failed strict reading.
fn body_name_in(text: &str, index: usize) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value
        .get("bodies")?
        .get(index)?
        .get("name")?
        .as_str()
        .map(str::to_string)
}

/// The built-in demonstration scene `sweep2d demo` runs (3 s at 60 Hz): a 6 cm bullet fired at
/// 45 m/s (75 cm per step) inside a room whose side walls and ceiling are 1 cm thick, so an engine
/// without continuous collision would lose it through a wall on its first hit; a bar spinning at
/// 25 rad/s dropped onto a ramp; a box thrown across the floor; and a ball rolling off a ledge.
#[must_use]
pub fn demo() -> SceneFile {
    let rect = |w: Real, h: Real| ShapeSpec::Rectangle {
        half_extents: [w, h],
    };
    let disc = |r: Real| ShapeSpec::Circle {
        radius: r,
        center: [0.0, 0.0],
    };
    let body = |name: &str, kind: KindSpec, position: [Real; 2], s: ShapeSpec| BodySpec {
        name: Some(name.to_string()),
        kind,
        position,
        angle: 0.0,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
        density: 1.0,
        restitution: 0.0,
        friction: 0.6,
        shape: Shape::try_from(s).expect("the demo's shapes are valid"),
        filter: Filter::DEFAULT,
        sensor: false,
        shapes: Vec::new(),
    };
    let bodies = vec![
        body("floor", KindSpec::Static, [0.0, -0.25], rect(6.0, 0.25)),
        body(
            "left wall (1 cm)",
            KindSpec::Static,
            [-6.005, 3.0],
            rect(0.005, 3.0),
        ),
        body(
            "right wall (1 cm)",
            KindSpec::Static,
            [6.005, 3.0],
            rect(0.005, 3.0),
        ),
        body(
            "ceiling (1 cm)",
            KindSpec::Static,
            [0.0, 6.005],
            rect(6.01, 0.005),
        ),
        BodySpec {
            angle: -0.3,
            ..body("ramp", KindSpec::Static, [3.0, 1.0], rect(1.8, 0.05))
        },
        body("ledge", KindSpec::Static, [-4.5, 3.5], rect(1.5, 0.05)),
        BodySpec {
            velocity: [45.0, 18.0],
            restitution: 0.8,
            friction: 0.1,
            density: 7.8,
            ..body("bullet", KindSpec::Dynamic, [-5.0, 1.0], disc(0.03))
        },
        BodySpec {
            angular_velocity: 25.0,
            velocity: [1.0, 0.0],
            restitution: 0.2,
            ..body(
                "spinning bar",
                KindSpec::Dynamic,
                [2.0, 4.5],
                rect(0.6, 0.03),
            )
        },
        BodySpec {
            velocity: [5.0, 3.0],
            angle: 0.4,
            restitution: 0.3,
            ..body("box", KindSpec::Dynamic, [-3.0, 0.6], rect(0.3, 0.3))
        },
        BodySpec {
            velocity: [2.0, 0.0],
            restitution: 0.5,
            ..body("ball", KindSpec::Dynamic, [-5.5, 3.8], disc(0.25))
        },
    ];
    SceneFile {
        gravity: [0.0, -9.81],
        dt: 1.0 / 60.0,
        steps: 180,
        bodies,
        joints: Vec::new(),
    }
}
