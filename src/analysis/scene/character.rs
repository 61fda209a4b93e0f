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
        let mut last = 0.0;
        for (k, entry) in self.script.iter().enumerate() {
            if !(entry.time.is_finite() && entry.time >= last) {
                return Err(self.error(
                    &format!("script[{k}].time"),
                    format!(
                        "{} is not a time ≥ {last} s: give the entries in increasing time order",
                        crate::math::Num(entry.time)
                    ),
                ));
            }
            if !(entry.walk.is_finite() && (-1.0..=1.0).contains(&entry.walk)) {
                return Err(self.error(
                    &format!("script[{k}].walk"),
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
}

impl SceneCharacter {
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
