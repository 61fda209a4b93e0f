//! Contact hooks: the game's say over contacts during a step, passed to the step as an argument
//! (so the world holds no callbacks and stays `Clone`), after Box2D's pre-solve callback and
//! Rapier's physics hooks.
//!
//! Before the solver, every manifold with points (one per pair of shapes that touch or are about
//! to) is offered to [`ContactHooks::pre_solve`]; the continuous pass offers each impact before it
//! resolves it. The hook may disable the contact for the step (the shapes pass through each other
//! until the next step asks again: one-way platforms) or change its friction and restitution. A
//! pair's verdict is asked once per step and kept for the rest of it; in the continuous pass a
//! disabled pair of bodies is never swept again that step.

use crate::constants::{MAX_FRICTION, MAX_RESTITUTION};
use crate::dynamics::{BodyId, ShapeId};
use crate::math::{Real, Transform, Vec2};
use std::collections::HashMap;

/// A contact offered to [`ContactHooks::pre_solve`] (world frame, SI units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PreSolve {
    /// The first shape (on body A).
    pub shape_a: ShapeId,
    /// The second shape (on body B).
    pub shape_b: ShapeId,
    /// Unit normal from A toward B.
    pub normal: Vec2,
    /// A contact point (metres): the deepest manifold point, or the impact point.
    pub point: Vec2,
    /// The smallest gap over the manifold's points (metres; negative when overlapping).
    pub separation: Real,
    /// Body A's and B's frames at the start of the step.
    pub transform_a: Transform,
    /// See `transform_a`.
    pub transform_b: Transform,
    /// Velocities (m/s) of A's and B's centres of mass when the contact is offered: at the start
    /// of the step for the solver's contacts, after the solver for impacts.
    pub velocity_a: Vec2,
    /// See `velocity_a`.
    pub velocity_b: Vec2,
    /// Friction coefficient of the contact (the two shapes' mixed); the hook may change it within
    /// 0 to 1e3 (`MAX_FRICTION`; a value outside, or NaN, is ignored and the mixed one kept).
    pub friction: Real,
    /// Restitution of the contact (mixed); the hook may change it within 0 to 1
    /// (`MAX_RESTITUTION`: more would create energy; a value outside is ignored).
    pub restitution: Real,
    /// Offered by the continuous pass, at the moment of an impact (rather than by the solver).
    pub impact: bool,
}

impl PreSolve {
    /// The body of shape A.
    #[must_use]
    pub fn body_a(&self) -> BodyId {
        self.shape_a.body()
    }

    /// The body of shape B.
    #[must_use]
    pub fn body_b(&self) -> BodyId {
        self.shape_b.body()
    }
}

/// The game's contact hooks, passed to [`World::step_with_hooks`](crate::World::step_with_hooks).
pub trait ContactHooks {
    /// Decides whether `contact` takes part in this step (return `false` to disable it until the
    /// next step) and may change its `friction` and `restitution`. Called once per pair of shapes
    /// and step, before the solver or the impact that first needs it.
    fn pre_solve(&mut self, contact: &mut PreSolve) -> bool;
}

/// What the hooks decided this step, per pair of shapes: `None` if disabled, else the contact's
/// friction and restitution.
#[derive(Clone, Debug, Default)]
pub(crate) struct Verdicts {
    map: HashMap<(ShapeId, ShapeId), Option<(Real, Real)>>,
}

impl Verdicts {
    pub fn clear(&mut self) {
        self.map.clear();
    }

    /// The verdict already given this step for the pair of shapes, if any.
    pub fn get(&self, a: ShapeId, b: ShapeId) -> Option<Option<(Real, Real)>> {
        self.map.get(&(a, b)).copied()
    }

    /// The verdict for `contact`, asking `hooks` the first time this step. Friction and
    /// restitution the hook sets are kept only within a shape's ranges (friction 0 to 1e3,
    /// restitution 0 to 1: more would create energy); otherwise the mixed value stays.
    pub fn ask(
        &mut self,
        hooks: &mut dyn ContactHooks,
        mut contact: PreSolve,
    ) -> Option<(Real, Real)> {
        let key = (contact.shape_a, contact.shape_b);
        if let Some(v) = self.map.get(&key) {
            return *v;
        }
        let (friction, restitution) = (contact.friction, contact.restitution);
        let keep = hooks.pre_solve(&mut contact);
        // Within the ranges a shape's own values must lie in (NaN fails both comparisons).
        let valid = |x: Real, max: Real, default: Real| {
            if (0.0..=max).contains(&x) {
                x
            } else {
                default
            }
        };
        let verdict = keep.then(|| {
            (
                valid(contact.friction, MAX_FRICTION, friction),
                valid(contact.restitution, MAX_RESTITUTION, restitution),
            )
        });
        self.map.insert(key, verdict);
        verdict
    }
}
