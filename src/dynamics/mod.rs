//! Rigid-body dynamics: bodies, persistent contacts with their manifolds, and the contact solver.
//!
//! `body.rs` holds definitions and validation; `contact.rs` the narrow phase that refreshes each
//! contact's manifolds with warm-start impulses; `solver.rs` the soft-step sequential-impulse solver,
//! which runs on coloured constraints (`graph.rs`) eight at a time in SIMD lanes (`wide.rs`).
//! The world (`crate::world`) drives them.

pub(crate) mod body;
pub(crate) mod contact;
pub(crate) mod contact_math;
pub(crate) mod graph;
pub(crate) mod solver;
pub(crate) mod wide;

pub use body::{Body, BodyDef, BodyError, BodyId, BodyKind};
pub use contact_math::MixingRule;
