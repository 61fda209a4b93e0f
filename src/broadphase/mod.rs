//! Broad phase: a dynamic AABB tree that finds candidate pairs without O(n²) work.
//!
//! The world keeps two trees: one for static bodies, which never change and cost nothing per step,
//! and one for moving bodies, whose fat boxes are updated only when a body leaves its box (or, for a
//! fast body, to its swept box for the continuous pass).

mod tree;

pub use tree::{DynamicTree, ProxyId};
