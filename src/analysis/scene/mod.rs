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
//! `shapes` (more shapes: [`ShapeDefSpec`]) are optional. Shapes: see [`ShapeSpec`](crate::shape::ShapeSpec). Unknown
//! fields are errors, so a typo never passes silently.
//!
//! Method: the text is read with serde in one pass, tracking the path of the value being read
//! (`serde_path_to_error`), so a wrong type or a missing field reports `bodies[3].shape.radius`
//! with its line and column; then every body goes through [`World::add_body`]'s validation in a
//! fresh world, which is returned only if every body was accepted.

use crate::dynamics::{BodyDef, BodyId, BodyKind, Filter, ShapeDef};
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::Shape;
use crate::world::{World, WorldConfig};
use serde::{Deserialize, Serialize};

mod character;
mod demo;
mod joints;
mod messages;

pub use character::{CharacterInput, CharacterSpec, CharacterState, InputSpec, SceneCharacter};
pub use demo::demo;
use joints::find_body;
pub use joints::{BodyRef, JointSpec, MotorSpec, SpringSpec};
use messages::{at_path, body_error_field, describe, positional_struct, shape_error_field};

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
    /// A character moved by the character mover (default none; see [`CharacterSpec`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<CharacterSpec>,
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
    /// The body's rotation is locked: it never turns (default false; `angular_velocity` must
    /// then be 0).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fixed_rotation: bool,
    /// The body's translation along world x is locked (default false; `velocity[0]` must then
    /// be 0).
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_x: bool,
    /// As `lock_x`, along world y.
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_y: bool,
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
    /// The scene's character, if it declares one (its body is the last of `bodies`).
    pub character: Option<SceneCharacter>,
}

impl LoadedScene {
    /// Advances one step: the world, then the character (by `input`, or its script for `None`).
    ///
    /// # Errors
    /// As [`World::try_step`]: a step that would leave a non-finite state is undone.
    pub fn step(&mut self, input: Option<CharacterInput>) -> Result<(), crate::WorldError> {
        self.world.try_step()?;
        if let Some(c) = self.character.as_mut() {
            c.update(&mut self.world, input);
        }
        Ok(())
    }

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

/// Adds body `index` of a scene, described by `spec` and called `name`, with its extra shapes;
/// on error the world is as it was, and the error names the body and the field.
fn add_spec_body(
    world: &mut World,
    index: usize,
    spec: &BodySpec,
    name: &str,
) -> Result<BodyId, SceneError> {
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
        fixed_rotation: spec.fixed_rotation,
        lock_x: spec.lock_x,
        lock_y: spec.lock_y,
        name: Some(name.to_string()),
        ..BodyDef::default()
    };
    // The message's prefix names the body already: drop the error's own "of body …".
    let reason = |e: &dyn std::fmt::Display| e.to_string().replace(&format!(" of body {name}"), "");
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
    if let Err((k, e)) = world.add_shapes_at_once(id, extras) {
        world
            .remove_body(id)
            .expect("the body just added is in the world");
        return Err(SceneError::Body {
            index,
            name: spec.name.clone(),
            field: shape_error_field(k, &e),
            reason: reason(&e),
            location: None,
        });
    }
    Ok(id)
}

impl LoadedScene {
    /// Adds a body described as a scene file describes one (`BodySpec`): it gets the next index
    /// in `bodies`, and its name (default `body <index>`) must be new. Errors name the body and
    /// the field, and add nothing.
    pub fn add_body(&mut self, spec: &BodySpec) -> Result<usize, SceneError> {
        let index = self.bodies.len();
        let name = spec.name.clone().unwrap_or_else(|| format!("body {index}"));
        if let Some(first) = self.bodies.iter().position(|(_, n)| *n == name) {
            return Err(SceneError::Body {
                index,
                name: spec.name.clone(),
                field: "name".into(),
                reason: format!("body {first} already goes by this name; give each body its own"),
                location: None,
            });
        }
        let id = add_spec_body(&mut self.world, index, spec, &name)?;
        self.bodies.push((id, name));
        Ok(index)
    }

    /// Adds a joint described as a scene file describes one (`JointSpec`), its bodies named by
    /// name or index in `bodies`. Errors name the joint (as number `k` of the caller's list)
    /// and add nothing.
    pub fn add_joint(&mut self, k: usize, spec: &JointSpec) -> Result<crate::JointId, SceneError> {
        let by_name: std::collections::HashMap<&str, BodyId> = self
            .bodies
            .iter()
            .rev()
            .map(|(id, n)| (n.as_str(), *id))
            .collect();
        let bodies = &self.bodies;
        let find = |which: &'static str, r: &BodyRef| find_body(k, which, r, bodies, &by_name);
        let def = spec.to_def(&find)?;
        self.world.add_joint(def).map_err(|e| SceneError::Field {
            field: format!("joints[{k}]"),
            reason: e.to_string(),
            location: None,
        })
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
        self.check_sizes_and_names()?;
        let mut world = World::try_new(self.config()).map_err(|e| SceneError::Field {
            field: match &e {
                crate::WorldError::InvalidConfig { field, .. } => (*field).to_string(),
                _ => String::new(),
            },
            // The field is named already; the type's name means nothing in a file.
            reason: e.to_string().replace("WorldConfig::", ""),
            location: None,
        })?;
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for (index, spec) in self.bodies.iter().enumerate() {
            let name = self.body_name(index);
            let id = add_spec_body(&mut world, index, spec, &name)?;
            bodies.push((id, name));
        }
        // Names to bodies, the first body of a name winning (as a search in order would).
        let mut by_name: std::collections::HashMap<&str, BodyId> =
            std::collections::HashMap::with_capacity(bodies.len());
        for (id, name) in &bodies {
            by_name.entry(name.as_str()).or_insert(*id);
        }
        for (k, spec) in self.joints.iter().enumerate() {
            let find = |which: &'static str, r: &BodyRef| find_body(k, which, r, &bodies, &by_name);
            let def = spec.to_def(&find)?;
            world.add_joint(def).map_err(|e| SceneError::Field {
                field: format!("joints[{k}]"),
                reason: e.to_string(),
                location: None,
            })?;
        }
        let character = match &self.character {
            Some(spec) => {
                let c = spec.build(&mut world)?;
                bodies.push((c.body, spec.name.clone()));
                Some(c)
            }
            None => None,
        };
        Ok(LoadedScene {
            world,
            bodies,
            steps: self.steps,
            character,
        })
    }

    /// The checks a scene passes before anything is built: no more bodies, joints or steps than
    /// a scene file may hold, and every body's name its own.
    fn check_sizes_and_names(&self) -> Result<(), SceneError> {
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
        // Names identify bodies in trajectory.csv, events.csv and joints: each must be unique
        // (an unnamed body goes by `body <index>`, which a named one must not take either).
        let mut seen = std::collections::HashMap::with_capacity(self.bodies.len());
        if let Some(c) = &self.character {
            if let Some(index) = (0..self.bodies.len()).find(|&i| self.body_name(i) == c.name) {
                return Err(SceneError::Field {
                    field: "character.name".into(),
                    reason: format!(
                        "body {index} already goes by `{}`; give the character its own name",
                        shown_name(&c.name)
                    ),
                    location: None,
                });
            }
        }
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
        Ok(())
    }

    /// Reads and builds in one call.
    pub fn load(text: &str) -> Result<LoadedScene, SceneError> {
        SceneFile::from_json(text)?.build()
    }
}
