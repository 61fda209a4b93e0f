//! Rigid-body dynamics: bodies, persistent contacts with their manifolds, and the contact solver.
//!
//! `body.rs` holds definitions and validation; `joint/` the joints (one file per kind); `contact.rs` the narrow phase that refreshes each
//! contact's manifolds with warm-start impulses; `solver.rs` the soft-step sequential-impulse solver
//! over the shared constraint data of `constraint.rs`,
//! which runs on coloured constraints (`graph.rs`) eight at a time in SIMD lanes (`wide.rs`), in
//! stages that may share out over threads (`stages.rs`).
//! The world (`crate::world`) drives them.

pub(crate) mod body;
pub(crate) mod body_input;
pub(crate) mod constraint;
pub(crate) mod contact;
pub(crate) mod contact_math;
pub(crate) mod graph;
pub(crate) mod joint;
pub(crate) mod shape_def;
#[allow(unsafe_code)] // shares body states among a stage's blocks: see `stages.rs`
pub(crate) mod solver;
#[allow(unsafe_code)] // `SharedSlice`
pub(crate) mod stages;
#[allow(unsafe_code)] // bundles read and write body states through `SharedSlice`
pub(crate) mod wide;

pub use body::{Body, BodyDef, BodyError, BodyId, BodyKind};
pub use contact_math::MixingRule;
pub use joint::{
    DistanceJointDef, JointCommon, JointDef, JointError, JointId, MotorJointDef, MouseJointDef,
    PrismaticJointDef, RevoluteJointDef, WeldJointDef, WheelJointDef,
};
pub use shape_def::{Filter, MassData, ShapeDef, ShapeId, MAX_SHAPES_PER_BODY};
