//! A scene file's character (`"character"`, see `docs/scenes.md`): a [`CharacterMover`] with a
//! kinematic body of its shape in the world (so bodies collide with it, sensors see it and the
//! outputs record it), walked and jumped by a script of inputs over time, or by the testbed's
//! arrow keys. After each world step it rides the ground it stands on, moves by its walk, jump and
//! gravity with `move_and_slide` and pushes what it ran into; its body is then driven to where it
//! ended by the next step (`World::set_kinematic_target`, so what it pushes sees its velocity).

use super::SceneError;
use crate::character::{CharacterMover, GroundContact};
use crate::dynamics::{BodyDef, BodyId, BodyKind};
use crate::math::{Real, Transform, Vec2};
use crate::shape::Shape;
use crate::world::{QueryFilter, World};
use serde::{Deserialize, Serialize};

/// The character of a scene file (world frame, SI units).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSpec {
    /// Its name in the outputs (default `character`); no body may have it too.
    #[serde(default = "default_name")]
    pub name: String,
    /// Its shape: a circle, capsule or convex polygon (default a capsule 1.6 m tall, 0.6 m wide).
    #[serde(default = "default_shape")]
    pub shape: Shape,
    /// Where its shape's frame starts (metres).
    pub position: [Real; 2],
    /// Walking speed at full input (m/s, default 4, at most 1e3).
    #[serde(default = "default_walk")]
    pub walk_speed: Real,
    /// Speed a jump starts up with (m/s, default 7, at most 1e3).
    #[serde(default = "default_jump")]
    pub jump_speed: Real,
    /// The mover's settings (see `docs/character.md`); each defaults to the mover's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<Real>,
    /// Steepest slope walked up (radians).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_slope: Option<Real>,
    /// Steepest slope stood still on (radians).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_slide_slope: Option<Real>,
    /// Tallest step walked up (metres).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_height: Option<Real>,
    /// How far down it is kept on the ground (metres).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snap_distance: Option<Real>,
    /// Inputs over time, each holding from its `time` until the next (default: stand still).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub script: Vec<InputSpec>,
}

/// One entry of a character's script.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    /// When it starts (seconds of simulated time, ≥ 0, in increasing order).
    pub time: Real,
    /// Walk input from −1 (full left) to 1 (full right), along the level direction (default 0).
    #[serde(default)]
    pub walk: Real,
    /// Jump at this time if standing (default false).
    #[serde(default)]
    pub jump: bool,
}

/// What drives a character in one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CharacterInput {
    /// Walk input from −1 (left) to 1 (right); outside that range it is clamped.
    pub walk: Real,
    /// Jump now, if standing.
    pub jump: bool,
}

fn default_name() -> String {
    "character".into()
}
fn default_shape() -> Shape {
    Shape::capsule(Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.3).expect("a valid capsule")
}
fn default_walk() -> Real {
    4.0
}
fn default_jump() -> Real {
    7.0
}

/// Fastest walk or jump a scene may give a character (m/s).
const MAX_CHARACTER_SPEED: Real = 1e3;

/// A scene's character while it runs.
#[derive(Clone, Debug)]
pub struct SceneCharacter {
    /// The mover (its `up` is against the world's gravity).
    pub mover: CharacterMover,
    /// Its kinematic body in the world.
    pub body: BodyId,
    walk_speed: Real,
    jump_speed: Real,
    script: Vec<InputSpec>,
    /// Where the mover is (its body gets there by the end of the next step).
    pose: Transform,
    /// Its velocity (m/s): the walk, and the jump and fall since it last stood.
    velocity: Vec2,
    ground: Option<GroundContact>,
    /// The script entry whose jump was last taken (each jumps once).
    jumped: Option<usize>,
}

impl CharacterSpec {
    /// The character's error, naming its field.
    fn error(&self, field: &str, reason: String) -> SceneError {
        SceneError::Field {
            field: format!("character.{field}"),
            reason,
            location: None,
        }
    }

    /// Checks the character and adds its body to `world` (whose gravity sets its `up`).
    pub(super) fn build(&self, world: &mut World) -> Result<SceneCharacter, SceneError> {
        let mut mover = CharacterMover::new(self.shape.clone());
        let g = world.config().gravity;
        if g.length() > 0.0 {
            mover.up = -g.normalize();
        }
        let settings = [
            (self.skin, &mut mover.skin),
            (self.max_slope, &mut mover.max_slope),
            (self.min_slide_slope, &mut mover.min_slide_slope),
            (self.step_height, &mut mover.step_height),
            (self.snap_distance, &mut mover.snap_distance),
        ];
        for (given, setting) in settings {
            if let Some(v) = given {
                *setting = v;
            }
        }
        mover.validate().map_err(|e| {
            let text = e.to_string();
            let field = match &e {
                crate::MoverError::NonFinite { field, .. }
                | crate::MoverError::OutOfRange { field, .. } => *field,
                _ => "shape",
            };
            self.error(field, text.replace(" of the character mover", ""))
        })?;
        for (field, v) in [
            ("walk_speed", self.walk_speed),
            ("jump_speed", self.jump_speed),
        ] {
            if !(v.is_finite() && (0.0..=MAX_CHARACTER_SPEED).contains(&v)) {
                return Err(self.error(
                    field,
                    format!("{} is not a speed from 0 to 1e3 m/s", crate::math::Num(v)),
                ));
            }
        }
        self.check_script()?;
        let body = world
            .add_body(BodyDef {
                kind: BodyKind::Kinematic,
                shape: self.shape.clone(),
                transform: Transform::new(Vec2::from_array(self.position), 0.0),
                name: Some(self.name.clone()),
                ..BodyDef::default()
            })
            .map_err(|e| {
                let text = e
                    .to_string()
                    .replace(&format!(" of body {}", self.name), "");
                self.error(super::body_error_field(&e), text)
            })?;
        Ok(SceneCharacter {
            mover,
            body,
            pose: Transform::new(Vec2::from_array(self.position), 0.0),
            walk_speed: self.walk_speed,
            jump_speed: self.jump_speed,
            script: self.script.clone(),
            velocity: Vec2::ZERO,
            ground: None,
            jumped: None,
        })
    }

    /// The script's times: finite, not negative, in increasing order; walks within −1 to 1.
    fn check_script(&self) -> Result<(), SceneError> {
        check_script(&self.script).map_err(|(field, reason)| self.error(&field, reason))
    }
}

/// A script's entries checked: times finite, not negative, in increasing order; walks within
/// −1 to 1. The error names the entry's field and says what is wrong.
fn check_script(script: &[InputSpec]) -> Result<(), (String, String)> {
    let mut last = 0.0;
    for (k, entry) in script.iter().enumerate() {
        if !(entry.time.is_finite() && entry.time >= last) {
            return Err((
                format!("script[{k}].time"),
                format!(
                    "{} is not a time ≥ {last} s: give the entries in increasing time order",
                    crate::math::Num(entry.time)
                ),
            ));
        }
        if !(entry.walk.is_finite() && (-1.0..=1.0).contains(&entry.walk)) {
            return Err((
                format!("script[{k}].walk"),
                format!(
                    "{} is not a walk input from -1 (left) to 1 (right)",
                    crate::math::Num(entry.walk)
                ),
            ));
        }
        last = entry.time;
    }
    Ok(())
}

/// A running scene character's whole state, free of its world's identity (bodies by slot and
/// generation, which a restored snapshot keeps): saved beside a world's snapshot
/// ([`SceneCharacter::state`]) and put back against the restored world
/// ([`SceneCharacter::from_state`]), so a run with a character continues bit for bit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CharacterState {
    /// The mover and its settings.
    pub mover: CharacterMover,
    /// Its kinematic body: slot and generation.
    pub body: (u32, u32),
    /// Walking and jumping speeds (m/s).
    pub walk_speed: Real,
    /// Jump speed (m/s).
    pub jump_speed: Real,
    /// The script.
    pub script: Vec<InputSpec>,
    /// Where the mover is (world frame).
    pub pose: Transform,
    /// Its velocity (m/s).
    pub velocity: Vec2,
    /// What it stands on: the body's slot and generation, the shape's index on it, the normal
    /// and the point (world frame).
    pub ground: Option<((u32, u32), u32, Vec2, Vec2)>,
    /// The script entry whose jump was last taken.
    pub jumped: Option<usize>,
}

impl SceneCharacter {
    /// The character's whole state, to save beside its world's snapshot.
    #[must_use]
    pub fn state(&self) -> CharacterState {
        let slot = |id: BodyId| (id.index(), id.generation());
        CharacterState {
            mover: self.mover.clone(),
            body: slot(self.body),
            walk_speed: self.walk_speed,
            jump_speed: self.jump_speed,
            script: self.script.clone(),
            pose: self.pose,
            velocity: self.velocity,
            ground: self
                .ground
                .map(|g| (slot(g.body), g.shape.index(), g.normal, g.point)),
            jumped: self.jumped,
        }
    }

    /// The character of `state` in `world` (the world restored from the snapshot saved with it).
    ///
    /// # Errors
    /// [`SceneError::Field`] (field `character...`) if the state does not fit the world (its
    /// body missing or not kinematic, its ground's shape missing) or holds a setting, speed,
    /// pose or script entry out of range.
    pub fn from_state(state: &CharacterState, world: &World) -> Result<Self, SceneError> {
        let error = |field: &str, reason: String| SceneError::Field {
            field: format!("character.{field}"),
            reason,
            location: None,
        };
        let find = |(index, generation): (u32, u32)| {
            world
                .bodies()
                .find(|(id, _)| id.index() == index && id.generation() == generation)
        };
        state
            .mover
            .validate()
            .map_err(|e| error("mover", e.to_string()))?;
        check_script(&state.script).map_err(|(field, reason)| error(&field, reason))?;
        let (body, b) =
            find(state.body).ok_or_else(|| error("body", "its body is not in the world".into()))?;
        if b.kind() != BodyKind::Kinematic {
            return Err(error("body", "its body is not kinematic".into()));
        }
        let speeds = [state.walk_speed, state.jump_speed];
        if speeds
            .iter()
            .any(|v| !(v.is_finite() && (0.0..=MAX_CHARACTER_SPEED).contains(v)))
        {
            return Err(error(
                "walk_speed",
                "a speed is outside 0 to 1e3 m/s".into(),
            ));
        }
        let pose_ok = state.pose.translation.is_finite()
            && (state.pose.rotation.cos.hypot(state.pose.rotation.sin) - 1.0).abs()
                <= crate::constants::ROTATION_TOLERANCE;
        if !pose_ok || !state.velocity.is_finite() {
            return Err(error("pose", "its pose or velocity is not finite".into()));
        }
        if state.jumped.is_some_and(|k| k >= state.script.len()) {
            return Err(error("jumped", "it names no script entry".into()));
        }
        let ground = match state.ground {
            None => None,
            Some((slot, shape, normal, point)) => {
                let (gb, _) = find(slot)
                    .ok_or_else(|| error("ground", "its ground body is not in the world".into()))?;
                let shape = world
                    .shape_ids(gb)
                    .into_iter()
                    .find(|s| s.index() == shape)
                    .ok_or_else(|| {
                        error("ground", "its ground shape is not in the world".into())
                    })?;
                if !(normal.is_finite() && point.is_finite()) {
                    return Err(error("ground", "its normal or point is not finite".into()));
                }
                Some(GroundContact {
                    body: gb,
                    shape,
                    normal,
                    point,
                })
            }
        };
        Ok(Self {
            mover: state.mover.clone(),
            body,
            walk_speed: state.walk_speed,
            jump_speed: state.jump_speed,
            script: state.script.clone(),
            pose: state.pose,
            velocity: state.velocity,
            ground,
            jumped: state.jumped,
        })
    }

    /// The script's input at simulated time `time` (seconds): the walk of the last entry at or
    /// before it, and its jump if that entry's jump has not been taken.
    #[must_use]
    pub fn scripted_input(&self, time: Real) -> CharacterInput {
        let current = self.script.iter().rposition(|e| e.time <= time);
        current.map_or_else(CharacterInput::default, |k| CharacterInput {
            walk: self.script[k].walk,
            jump: self.script[k].jump && self.jumped != Some(k),
        })
    }

    /// Moves the character for the step `world` just took (call after each step): rides its
    /// ground, walks and jumps by `input` (the script's when `None`), falls under gravity, slides,
    /// pushes what it ran into, and puts its body where it ended.
    pub fn update(&mut self, world: &mut World, input: Option<CharacterInput>) {
        if world.body(self.body).is_none() {
            return; // removed from the world: nothing to move
        }
        let dt = world.config().dt;
        let gravity = world.config().gravity;
        // The script's entry now, when the script drives (its jump is taken once).
        let scripted = input
            .is_none()
            .then(|| self.script.iter().rposition(|e| e.time <= world.time()))
            .flatten();
        let input = input.unwrap_or_else(|| self.scripted_input(world.time()));
        let up = self.mover.up;
        let filter = QueryFilter {
            exclude: Some(self.body),
            ..QueryFilter::default()
        };
        let mut pose = self.pose;
        if let Some(ground) = self.ground {
            pose = self.mover.ride(world, pose, &ground, &filter).transform;
        }
        let level = Vec2::new(up.y, -up.x); // to the right of up
        let rising = self.velocity.dot(up);
        self.velocity = level * (input.walk.clamp(-1.0, 1.0) * self.walk_speed) + up * rising;
        if input.jump && self.ground.is_some() {
            self.velocity = level * self.velocity.dot(level) + up * self.jump_speed;
            if scripted.is_some() {
                self.jumped = scripted;
            }
        }
        self.velocity += gravity * dt;
        let moved = self
            .mover
            .move_and_slide(world, pose, self.velocity * dt, &filter);
        // The character's mover and body are valid by construction; a refusal leaves it put.
        if moved.error.is_some() {
            return;
        }
        let _ = self.mover.push_bodies(world, &moved, self.velocity);
        let rising = self.velocity.dot(up);
        if (moved.grounded && rising <= 0.0) || (moved.hit_ceiling && rising > 0.0) {
            self.velocity -= up * rising;
        }
        self.ground = moved.ground;
        self.pose = moved.transform;
        let _ = world.set_kinematic_target(self.body, moved.transform);
    }

    /// Where the mover is after the last update (its shape's frame, world); its body reaches it
    /// by the end of the next step.
    #[must_use]
    pub fn transform(&self) -> Transform {
        self.pose
    }

    /// Whether it stands on ground after the last update.
    #[must_use]
    pub fn grounded(&self) -> bool {
        self.ground.is_some()
    }

    /// Its velocity after the last update (m/s, world).
    #[must_use]
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }
}
