//! Joints: one file per kind, each holding the kind's public definition, its checks and
//! conversion into the bodies' frames (`build`), its settings as the world keeps them, and its
//! velocity constraints in the soft-step solver (after Box2D v3's joints and Catto's Solver2D
//! notes; `docs/joints.md`). This file holds what every kind shares (ids, common settings, the
//! stored joint, the [`Rules`] each kind follows) and the one place that dispatches on the kind
//! ([`JointKind`], through `each_kind!`); `parts.rs` the named limits, motors and springs and
//! the constraint pieces the kinds are written with; `step.rs` a joint prepared for one step;
//! `error.rs` the errors and number checks.
//!
//! ```text
//! add       definition checked, anchors and axes into the bodies' frames (`build`)
//! prepare   anchors from each centre of mass (world orientation at the step's start), the
//!           centres' offset and relative angle at the start, softness (`step.rs`)
//! per substep:
//!   warm start   the accumulated impulses again
//!   solve        springs and motors (always), limits (speculative when apart), then the rigid
//!                parts with a soft bias toward zero error
//!   relax        the same without the bias (the bias's velocity removed)
//! store     accumulated impulses kept for the next step; reaction force = impulse / substep
//! ```
//!
//! Positions inside the step are tracked from the bodies' deltas (`dp`, `dq`), as the contacts
//! do: the anchor separation is `(dpB − dpA) + (cB − cA)₀ + dqB·rB − dqA·rA`, the relative angle
//! the start angle plus the two bodies' turns. Rigid parts use the joint softness
//! (`WorldConfig::joint_hertz`, `joint_damping_ratio`); springs their own frequency and damping
//! ratio; limits are speculative (a limit still apart only stops the motion that would pass it);
//! motors are clamped to their largest force or torque times the substep.

pub(crate) mod distance;
mod error;
pub(crate) mod motor;
pub(crate) mod mouse;
pub(crate) mod parts;
pub(crate) mod prismatic;
pub(crate) mod revolute;
#[allow(unsafe_code)] // joints of one colour read and write body states through `SharedSlice`
mod step;
pub(crate) mod weld;
pub(crate) mod wheel;
// (Revolute joints of one colour read and write body states through `SharedSlice`.)
#[allow(unsafe_code)]
mod wide;

pub use distance::DistanceJointDef;
pub use error::JointError;
pub use motor::MotorJointDef;
pub use mouse::MouseJointDef;
pub use prismatic::PrismaticJointDef;
pub use revolute::RevoluteJointDef;
pub use weld::WeldJointDef;
pub use wheel::WheelJointDef;

pub(crate) use error::{check_common, finite, finite_vec};
pub(crate) use parts::Motor;
pub(crate) use step::{two_body_frames, Frames, JointConstraint, JointStep};
pub(crate) use wide::{lane_rank, DrivenBundle, PinBundle};

use crate::dynamics::{Body, BodyId};
use crate::math::{Real, Vec2};
use parts::{Pair, Spring, Substep};

/// A handle to a joint: an index plus a generation, so the id of a removed joint is rejected, and
/// the tag of the world that made it, so an id from another world is rejected too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
    /// The tag of the world that made it (an id from another world is rejected).
    pub(crate) world: u32,
}

impl JointId {
    /// The joint's slot in the world's storage (reused after a removal, with a new generation).
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }
}

/// Settings every joint has.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointCommon {
    /// Whether the two bodies still collide with each other. Default false.
    pub collide_connected: bool,
    /// Reaction force (N) above which the step reports a [`JointEvent`](crate::JointEvent)
    /// (breakable joints: the game removes the joint). Default infinity (never).
    pub force_threshold: Real,
    /// Reaction torque (N·m) above which the step reports a joint event. Default infinity.
    pub torque_threshold: Real,
}

impl Default for JointCommon {
    fn default() -> Self {
        Self {
            collide_connected: false,
            force_threshold: Real::INFINITY,
            torque_threshold: Real::INFINITY,
        }
    }
}

/// Any joint definition, for [`World::add_joint`](crate::World::add_joint).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum JointDef {
    Revolute(RevoluteJointDef),
    Prismatic(PrismaticJointDef),
    Distance(DistanceJointDef),
    Weld(WeldJointDef),
    Wheel(WheelJointDef),
    Motor(MotorJointDef),
    Mouse(MouseJointDef),
}

macro_rules! into_joint_def {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for JointDef {
            fn from(d: $t) -> Self {
                JointDef::$v(d)
            }
        }
    )*};
}
into_joint_def!(
    RevoluteJointDef => Revolute,
    PrismaticJointDef => Prismatic,
    DistanceJointDef => Distance,
    WeldJointDef => Weld,
    WheelJointDef => Wheel,
    MotorJointDef => Motor,
    MouseJointDef => Mouse
);

impl JointDef {
    /// The bodies the definition names: `(A, B)`; a mouse joint has no A (the world).
    pub(crate) fn bodies(&self) -> (Option<BodyId>, BodyId) {
        match self {
            JointDef::Revolute(d) => (Some(d.body_a), d.body_b),
            JointDef::Prismatic(d) => (Some(d.body_a), d.body_b),
            JointDef::Distance(d) => (Some(d.body_a), d.body_b),
            JointDef::Weld(d) => (Some(d.body_a), d.body_b),
            JointDef::Wheel(d) => (Some(d.body_a), d.body_b),
            JointDef::Motor(d) => (Some(d.body_a), d.body_b),
            JointDef::Mouse(d) => (None, d.body),
        }
    }

    /// Checks the definition and converts it into the joint the world keeps, for the bodies
    /// `ends` found from [`JointDef::bodies`] (two different ones, one of them dynamic; the
    /// world checks that).
    pub(crate) fn build(&self, ends: &Ends<'_>) -> Result<Joint, JointError> {
        match self {
            JointDef::Revolute(d) => d.build(ends),
            JointDef::Prismatic(d) => d.build(ends),
            JointDef::Distance(d) => d.build(ends),
            JointDef::Weld(d) => d.build(ends),
            JointDef::Wheel(d) => d.build(ends),
            JointDef::Motor(d) => d.build(ends),
            JointDef::Mouse(d) => d.build(ends),
        }
    }
}

/// A joint's bodies as the world found them: key and body; A is `None` for a mouse joint.
pub(crate) struct Ends<'a> {
    /// Body A.
    pub a: Option<(u32, &'a Body)>,
    /// Body B.
    pub b: (u32, &'a Body),
}

impl<'a> Ends<'a> {
    /// Both bodies of a two-body joint (the world finds both for every kind but the mouse).
    fn two(&self) -> ((u32, &'a Body), (u32, &'a Body)) {
        let a = self.a.expect("the world finds body A of a two-body joint");
        (a, self.b)
    }

    /// A joint of both bodies at one world `anchor` (metres) with a reference angle (given, or
    /// as the bodies are now): the anchor, the common settings, then the kind's settings
    /// (`kind`) and the reference checked in that order. The revolute and weld joints.
    fn pinned(
        &self,
        joint: &'static str,
        (anchor, reference): (Vec2, Option<Real>),
        common: &JointCommon,
        kind: impl FnOnce() -> Result<JointKind, JointError>,
    ) -> Result<Joint, JointError> {
        let ((ka, a), (kb, b)) = self.two();
        finite_vec(joint, "anchor", anchor)?;
        check_common(joint, common)?;
        let kind = kind()?;
        Ok(Joint {
            reference_angle: self.reference(joint, "reference_angle", reference)?,
            ..Joint::new(
                Some(ka),
                kb,
                (self.local(a, anchor), self.local(b, anchor)),
                kind,
                *common,
            )
        })
    }

    /// A world point in `body`'s frame (metres).
    fn local(&self, body: &Body, p: Vec2) -> Vec2 {
        body.transform().inv_transform_point(p)
    }

    /// The reference angle (radians): the one given (in the definition's `field`), checked, or
    /// B's angle minus A's now.
    fn reference(
        &self,
        joint: &'static str,
        field: &'static str,
        given: Option<Real>,
    ) -> Result<Real, JointError> {
        match given {
            Some(r) => {
                finite(joint, field, r)?;
                Ok(r)
            }
            None => {
                let ((_, a), (_, b)) = self.two();
                Ok(angle_of(b) - angle_of(a))
            }
        }
    }
}

/// A body's angle (radians; its frame's, which is its centre-of-mass frame's).
fn angle_of(b: &Body) -> Real {
    b.pose.rotation.angle()
}

/// What every joint kind's settings provide: their checks, springs and velocity constraints.
/// Each kind's file implements it; [`JointKind`] dispatches to it.
pub(crate) trait Rules {
    /// The kind's name, for messages (`"revolute"`, …).
    const NAME: &'static str;

    /// Checks stored settings (a snapshot's) against the ranges `build` enforces; `local_axis`
    /// is the joint's axis in A's frame (used by the kinds that have one).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // snapshots' checks
    fn check(&self, local_axis: Vec2) -> Result<(), JointError>;

    /// The springs whose softness the constraint carries: the first, and a second (the weld's
    /// angular one).
    fn springs(&self) -> [Option<Spring>; 2] {
        [None, None]
    }

    /// The joint's frames for one step (see [`Frames`]); the relative angle only if the kind
    /// reads it.
    fn frames(&self, j: &Joint, a: Option<&Body>, b: &Body) -> Frames {
        let frame_b = b.pose.rotation.rotate(j.local_b - b.local_center);
        two_body_frames(j, a, b, frame_b, self.reads_angle())
    }

    /// Whether [`Rules::solve`] reads the relative angle (`Substep::angle`); when not, it is
    /// left at 0 and not computed.
    fn reads_angle(&self) -> bool {
        false
    }

    /// Applies the accumulated impulses `i` to the velocities `v`.
    fn warm_start(&self, s: &Substep, i: &JointImpulses, v: &mut Pair);

    /// One pass over the kind's parts (see the module notes), accumulating into `i`.
    fn solve(&self, s: &Substep, i: &mut JointImpulses, v: &mut Pair);

    /// The reaction on B of accumulated impulses `i` over a substep: force (N, world) and torque
    /// (N·m).
    fn reaction(&self, s: &Substep, i: &JointImpulses) -> (Vec2, Real);

    /// The parts that are rigid, for the continuous pass's impacts.
    fn rigid_parts(&self) -> RigidParts {
        RigidParts::None
    }

    /// The motor, when the kind has one and it is enabled.
    fn motor_mut(&mut self) -> Option<&mut Motor> {
        None
    }
}

/// Joint kinds with their settings, as the world keeps them.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub(crate) enum JointKind {
    Revolute(revolute::Revolute),
    Prismatic(prismatic::Prismatic),
    Distance(distance::Distance),
    Weld(weld::Weld),
    Wheel(wheel::Wheel),
    Motor(motor::MotorJoint),
    Mouse(mouse::Mouse),
}

/// `$body` with `$k` bound to the settings of whatever kind `$kind` is: the one dispatch on the
/// joint's kind.
macro_rules! each_kind {
    ($kind:expr, $k:ident => $body:expr) => {
        match $kind {
            JointKind::Revolute($k) => $body,
            JointKind::Prismatic($k) => $body,
            JointKind::Distance($k) => $body,
            JointKind::Weld($k) => $body,
            JointKind::Wheel($k) => $body,
            JointKind::Motor($k) => $body,
            JointKind::Mouse($k) => $body,
        }
    };
}
pub(crate) use each_kind;

/// The kind's name of settings `_k` (a helper for `each_kind!`).
fn name_of<R: Rules>(_k: &R) -> &'static str {
    R::NAME
}

impl JointKind {
    /// The kind's name, for messages.
    pub fn name(&self) -> &'static str {
        each_kind!(self, k => name_of(k))
    }

    /// Checks stored settings (see [`Rules::check`]).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // snapshots' checks
    pub fn check(&self, local_axis: Vec2) -> Result<(), JointError> {
        each_kind!(self, k => k.check(local_axis))
    }

    /// The parts that are rigid (see [`Rules::rigid_parts`]).
    pub fn rigid_parts(&self) -> RigidParts {
        each_kind!(self, k => k.rigid_parts())
    }

    /// The enabled motor, if any.
    pub fn motor_mut(&mut self) -> Option<&mut Motor> {
        each_kind!(self, k => k.motor_mut())
    }

    /// The target of a mouse joint (world metres).
    pub fn target_mut(&mut self) -> Option<&mut Vec2> {
        match self {
            JointKind::Mouse(m) => Some(&mut m.target),
            _ => None,
        }
    }

    /// The target of a mouse joint (world metres).
    pub fn target(&self) -> Option<Vec2> {
        match self {
            JointKind::Mouse(m) => Some(m.target),
            _ => None,
        }
    }
}

/// Which parts of a joint are rigid, for the continuous pass's impacts: a point (and the angle,
/// when `angular`: a rigid weld), a distance along the anchors' line (a rod), a line across the
/// axis (prismatic and wheel; the angle too for a prismatic joint), or nothing rigid (springs,
/// ropes, motor and mouse joints).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RigidParts {
    None,
    Point { angular: bool },
    Along,
    Across { angular: bool },
}

/// Accumulated impulses of a joint (N·s per substep; N·m·s for the angular ones), kept between
/// steps for warm starting.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct JointImpulses {
    /// Point constraint (revolute, weld, motor, mouse).
    pub linear: Vec2,
    /// Angular lock (weld, prismatic, motor).
    pub angular: Real,
    /// Along the perpendicular (prismatic, wheel) or the rod (distance).
    pub axial: Real,
    /// The spring.
    pub spring: Real,
    /// The motor.
    pub motor: Real,
    /// The lower limit.
    pub lower: Real,
    /// The upper limit.
    pub upper: Real,
}

/// A joint as the world keeps it: bodies by key, anchors in the bodies' frames.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
pub(crate) struct Joint {
    /// Body keys; a mouse joint's A is `None` (the world).
    pub body_a: Option<u32>,
    pub body_b: u32,
    /// Anchor in A's and B's body frames (metres); for a motor joint, A's is the target position
    /// of B's origin.
    pub local_a: Vec2,
    pub local_b: Vec2,
    /// Axis in A's body frame (unit; prismatic and wheel joints).
    pub local_axis: Vec2,
    /// Relative angle (B − A) that counts as zero (radians).
    pub reference_angle: Real,
    pub kind: JointKind,
    pub common: JointCommon,
    pub impulses: JointImpulses,
    /// Reaction on B in the last step: force (N, world) and torque (N·m).
    pub force: Vec2,
    pub torque: Real,
}

impl Joint {
    /// A joint of bodies `a` and `b` with anchors `(local_a, local_b)` in their frames, axis X,
    /// reference angle 0, no impulses yet.
    fn new(
        a: Option<u32>,
        b: u32,
        (local_a, local_b): (Vec2, Vec2),
        kind: JointKind,
        common: JointCommon,
    ) -> Self {
        Self {
            body_a: a,
            body_b: b,
            local_a,
            local_b,
            local_axis: Vec2::X,
            reference_angle: 0.0,
            kind,
            common,
            impulses: JointImpulses::default(),
            force: Vec2::ZERO,
            torque: 0.0,
        }
    }

    /// The joint's frames for one step, given its bodies (A `None` for a mouse joint).
    pub fn frames(&self, a: Option<&Body>, b: &Body) -> Frames {
        each_kind!(&self.kind, k => k.frames(self, a, b))
    }
}
