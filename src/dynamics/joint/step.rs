//! A joint prepared for one step of the soft-step solver: its frames at the step's start, the
//! bodies' solver entries and inverse masses, the softness of its rigid parts and springs, and
//! the accumulated impulses; warm start, solve and reaction hand the current geometry of each
//! substep to the kind's [`Rules`](super::Rules) (see the notes of `mod.rs`).

use crate::dynamics::constraint::{BodyState, Softness};
use crate::dynamics::contact_math::InverseMass;
use crate::dynamics::Body;
use crate::math::{Real, Vec2};

use super::parts::{Pair, Spring, Substep};
use super::{each_kind, Joint, JointImpulses, JointKind, Rules};

/// A joint's frames at the step's start: anchors from the centres of mass (world orientation;
/// metres), the centres' offset `cB − cA` (for a mouse joint `cB − target`), the relative angle
/// minus the reference (radians, wrapped into (−π, π]), and the axis in the world (prismatic,
/// wheel; X for the others).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frames {
    pub frame_a: Vec2,
    pub frame_b: Vec2,
    pub delta_center: Vec2,
    pub delta_angle: Real,
    pub axis: Vec2,
}

/// The frames of a joint between bodies `a` and `b` whose B frame is `frame_b` (for a joint
/// without body A: the offset is B's centre itself).
pub(crate) fn two_body_frames(j: &Joint, a: Option<&Body>, b: &Body, frame_b: Vec2) -> Frames {
    match a {
        Some(a) => Frames {
            frame_a: a.pose.rotation.rotate(j.local_a - a.local_center),
            frame_b,
            delta_center: b.pose.translation - a.pose.translation,
            delta_angle: wrap(
                b.pose.rotation.angle() - a.pose.rotation.angle() - j.reference_angle,
            ),
            axis: a.pose.rotation.rotate(j.local_axis),
        },
        None => Frames {
            frame_a: Vec2::ZERO,
            frame_b,
            delta_center: b.pose.translation,
            delta_angle: 0.0,
            axis: Vec2::X,
        },
    }
}

/// An angle wrapped into (−π, π].
fn wrap(a: Real) -> Real {
    let t = a.rem_euclid(std::f64::consts::TAU);
    if t > std::f64::consts::PI {
        t - std::f64::consts::TAU
    } else {
        t
    }
}

/// A joint prepared for one step (see the module notes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointConstraint {
    /// The joint's slot (to store impulses back).
    pub slot: usize,
    /// Solver state indices (0: the static entry).
    pub a: usize,
    pub b: usize,
    pub mass_a: InverseMass,
    pub mass_b: InverseMass,
    /// The frames at the step's start.
    pub frames: Frames,
    pub kind: JointKind,
    pub impulses: JointImpulses,
    /// Rigid-part softness and the springs'.
    pub soft: Softness,
    pub spring: Softness,
    pub second_spring: Softness,
    /// `1 / (1/IA + 1/IB)` (the inverses of the bodies' inverse inertias summed), or 0 when
    /// neither turns: constant over the step, so computed once.
    pub inv_k_angular: Real,
    /// Whether the kind's solve reads the relative angle ([`Rules::reads_angle`]); when it does
    /// not, the passes skip computing it (an arctangent per joint and pass).
    pub reads_angle: bool,
}

impl JointConstraint {
    /// Joint `j` in slot `slot` prepared for a step of substep `h` (s): its bodies `a` (none for
    /// a mouse joint) and `b` with their solver entries `(a, b)`, rigid parts of softness `soft`.
    pub fn prepare(
        slot: usize,
        j: &Joint,
        (a, b): (Option<&Body>, &Body),
        states: (usize, usize),
        soft: Softness,
        h: Real,
    ) -> Self {
        let mass = |body: Option<&Body>| body.map_or(InverseMass::default(), |b| b.inverse_mass());
        let [first, second] = each_kind!(&j.kind, k => k.springs());
        let (mass_a, mass_b) = (mass(a), mass(Some(b)));
        let k_angular = mass_a.angular + mass_b.angular;
        Self {
            slot,
            a: states.0,
            b: states.1,
            mass_a,
            mass_b,
            frames: j.frames(a, b),
            kind: j.kind,
            impulses: j.impulses,
            soft,
            spring: Spring::softness_of(first, h),
            second_spring: Spring::softness_of(second, h),
            inv_k_angular: if k_angular > 0.0 {
                1.0 / k_angular
            } else {
                0.0
            },
            reads_angle: each_kind!(&j.kind, k => k.reads_angle()),
        }
    }

    /// The geometry of the current substep `h` (s, with its inverse `inv_h`) from the bodies'
    /// solver states (see [`Substep`]); the relative angle only for a pass of a kind that reads
    /// it (`solving`: warm starts and reactions do not).
    #[inline]
    fn substep(
        &self,
        (sa, sb): (&BodyState, &BodyState),
        solving: bool,
        use_bias: bool,
        (h, inv_h): (Real, Real),
    ) -> Substep {
        let f = &self.frames;
        let (ra, rb) = (sa.dq.rotate(f.frame_a), sb.dq.rotate(f.frame_b));
        let d = (sb.dp - sa.dp) + f.delta_center + rb - ra;
        let angle = if solving && self.reads_angle {
            f.delta_angle + sa.dq.inv_mul_rot(sb.dq).angle()
        } else {
            0.0
        };
        Substep {
            ma: self.mass_a,
            mb: self.mass_b,
            ra,
            rb,
            d,
            angle,
            axis: sa.dq.rotate(f.axis),
            inv_k_angular: self.inv_k_angular,
            soft: self.soft,
            spring: self.spring,
            second_spring: self.second_spring,
            use_bias,
            h,
            inv_h,
        }
    }

    /// The velocities of the joint's bodies.
    #[inline]
    fn velocities(&self, states: &[BodyState]) -> Pair {
        let (sa, sb) = (&states[self.a], &states[self.b]);
        Pair {
            va: sa.v,
            wa: sa.w,
            vb: sb.v,
            wb: sb.w,
        }
    }

    /// Writes the velocities back to the bodies that move.
    fn write(&self, states: &mut [BodyState], v: &Pair) {
        if self.mass_a.responds() {
            states[self.a].v = v.va;
            states[self.a].w = v.wa;
        }
        if self.mass_b.responds() {
            states[self.b].v = v.vb;
            states[self.b].w = v.wb;
        }
    }

    /// Applies the accumulated impulses (warm start); `h` is the substep (s) and its inverse.
    pub fn warm_start(&self, states: &mut [BodyState], h: (Real, Real)) {
        let s = self.substep((&states[self.a], &states[self.b]), false, true, h);
        let mut v = self.velocities(states);
        each_kind!(&self.kind, k => k.warm_start(&s, &self.impulses, &mut v));
        self.write(states, &v);
    }

    /// One pass: the biased one (`use_bias`) or the relaxing one; `h` is the substep (s) and its
    /// inverse.
    pub fn solve(&mut self, states: &mut [BodyState], use_bias: bool, h: (Real, Real)) {
        let s = self.substep((&states[self.a], &states[self.b]), true, use_bias, h);
        let mut v = self.velocities(states);
        let impulses = &mut self.impulses;
        each_kind!(&self.kind, k => k.solve(&s, impulses, &mut v));
        self.write(states, &v);
    }

    /// The reaction on B over the last substep `h` (s): force (N, world) and torque (N·m).
    pub fn reaction(&self, states: &[BodyState], h: Real) -> (Vec2, Real) {
        let s = self.substep(
            (&states[self.a], &states[self.b]),
            false,
            false,
            (h, 1.0 / h),
        );
        each_kind!(&self.kind, k => k.reaction(&s, &self.impulses))
    }
}
