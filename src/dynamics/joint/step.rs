//! A joint prepared for one step of the soft-step solver: its frames at the step's start, the
//! bodies' solver entries and inverse masses, the softness of its rigid parts and springs, and
//! the accumulated impulses; warm start, solve and reaction hand the current geometry of each
//! substep to the kind's [`Rules`](super::Rules) (see the notes of `mod.rs`).

use crate::dynamics::constraint::{BodyState, Softness};
use crate::dynamics::contact_math::InverseMass;
use crate::dynamics::wide::SharedStates;
use crate::dynamics::Body;
use crate::math::{Real, Vec2};

use super::parts::{Pair, Spring, Substep};
use super::{each_kind, Joint, JointImpulses, JointKind, Rules};

/// A joint's frames at the step's start: anchors from the centres of mass (world orientation;
/// metres), the centres' offset `cB − cA` (for a mouse joint `cB − target`), the relative angle
/// minus the reference (radians, wrapped into (−π, π]; 0 for a kind that never reads it), and the
/// axis in the world (prismatic, wheel; X for the others).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frames {
    pub frame_a: Vec2,
    pub frame_b: Vec2,
    pub delta_center: Vec2,
    pub delta_angle: Real,
    pub axis: Vec2,
}

/// The frames of a joint between bodies `a` and `b` whose B frame is `frame_b` (for a joint
/// without body A: the offset is B's centre itself). The relative angle only for a kind that
/// reads it (`reads_angle`; 0 otherwise, saving two arctangents per joint and step).
pub(crate) fn two_body_frames(
    j: &Joint,
    a: Option<&Body>,
    b: &Body,
    frame_b: Vec2,
    reads_angle: bool,
) -> Frames {
    match a {
        Some(a) => Frames {
            frame_a: a.pose.rotation.rotate(j.local_a - a.local_center),
            frame_b,
            delta_center: b.pose.translation - a.pose.translation,
            delta_angle: if reads_angle {
                wrap(b.pose.rotation.angle() - a.pose.rotation.angle() - j.reference_angle)
            } else {
                0.0
            },
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

/// What every joint of a step shares: the substep (s) and its inverse, the softness of the joints'
/// rigid parts, and the bodies' inverse masses by solver entry (index 0, the shared static entry:
/// none, so a body without an entry of its own, static or asleep, never moves).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointStep<'a> {
    pub h: Real,
    pub inv_h: Real,
    pub soft: Softness,
    pub masses: &'a [InverseMass],
}

/// A joint prepared for one step (see the module notes): only what differs from joint to joint,
/// since every pass of every substep reads all of it (a grid of 20,000 joints is 4.8 MB of them;
/// the masses and the shared softness are looked up, the springs' softness recomputed).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointConstraint {
    /// The joint's slot (to store impulses back).
    pub slot: u32,
    /// Solver state indices (0: the static entry).
    pub a: u32,
    pub b: u32,
    /// Whether the kind's solve reads the relative angle ([`Rules::reads_angle`]); when it does
    /// not, the passes skip computing it (an arctangent per joint and pass).
    pub reads_angle: bool,
    /// The frames at the step's start.
    pub frames: Frames,
    pub kind: JointKind,
    pub impulses: JointImpulses,
    /// `1 / (1/IA + 1/IB)` (the inverses of the bodies' inverse inertias summed), or 0 when
    /// neither turns: constant over the step, so computed once.
    pub inv_k_angular: Real,
}

impl JointConstraint {
    /// Joint `j` in slot `slot` prepared for a step: its bodies `a` (none for a mouse joint) and
    /// `b` with their solver entries `(a, b)`, whose inverse masses `masses` holds.
    pub fn prepare(
        slot: usize,
        j: &Joint,
        (a, b): (Option<&Body>, &Body),
        states: (usize, usize),
        masses: &[InverseMass],
    ) -> Self {
        let k_angular = masses[states.0].angular + masses[states.1].angular;
        Self {
            slot: slot as u32,
            a: states.0 as u32,
            b: states.1 as u32,
            reads_angle: each_kind!(&j.kind, k => k.reads_angle()),
            frames: j.frames(a, b),
            kind: j.kind,
            impulses: j.impulses,
            inv_k_angular: if k_angular > 0.0 {
                1.0 / k_angular
            } else {
                0.0
            },
        }
    }

    /// The joint's slot.
    pub fn slot(&self) -> usize {
        self.slot as usize
    }

    /// The geometry of the current substep `h` (s, with its inverse `inv_h`) from the bodies'
    /// solver states (see [`Substep`]) for a joint of kind `k`; the relative angle only for a
    /// pass of a kind that reads it (`solving`: warm starts and reactions do not).
    ///
    /// Generic over the kind and inlined into each pass, so that a pass is one function per kind:
    /// the springs' softness and the parts of the geometry the kind never reads are not computed
    /// (a free pin's pass reads its anchors, offset and masses only).
    #[inline(always)]
    fn substep<K: Rules>(
        &self,
        k: &K,
        (sa, sb): (&BodyState, &BodyState),
        solving: bool,
        use_bias: bool,
        step: &JointStep<'_>,
    ) -> Substep {
        let f = &self.frames;
        let h = step.h;
        let [first, second] = k.springs();
        let (ra, rb) = (sa.dq.rotate(f.frame_a), sb.dq.rotate(f.frame_b));
        let d = (sb.dp - sa.dp) + f.delta_center + rb - ra;
        let angle = if solving && self.reads_angle {
            f.delta_angle + sa.dq.inv_mul_rot(sb.dq).angle()
        } else {
            0.0
        };
        Substep {
            ma: step.masses[self.a as usize],
            mb: step.masses[self.b as usize],
            ra,
            rb,
            d,
            angle,
            axis: sa.dq.rotate(f.axis),
            inv_k_angular: self.inv_k_angular,
            soft: step.soft,
            spring: Spring::softness_of(first, h),
            second_spring: Spring::softness_of(second, h),
            use_bias,
            h,
            inv_h: step.inv_h,
        }
    }

    /// The joint's two solver states, copied out of the shared states.
    ///
    /// # Safety
    /// No other thread writes either state meanwhile (see [`JointConstraint::solve`]).
    #[inline(always)]
    unsafe fn read(&self, states: &SharedStates<'_>) -> (BodyState, BodyState) {
        // SAFETY: the caller's contract.
        unsafe { (*states.get(self.a), *states.get(self.b)) }
    }

    /// Writes the velocities back to the bodies that move (their masses in `s`).
    ///
    /// # Safety
    /// No other thread reads or writes the states of the bodies that move meanwhile.
    #[inline(always)]
    unsafe fn write(&self, states: &SharedStates<'_>, s: &Substep, v: &Pair) {
        if s.ma.responds() {
            // SAFETY: the caller's contract.
            let state = unsafe { states.get_mut(self.a) };
            state.v = v.va;
            state.w = v.wa;
        }
        if s.mb.responds() {
            // SAFETY: the caller's contract.
            let state = unsafe { states.get_mut(self.b) };
            state.v = v.vb;
            state.w = v.wb;
        }
    }

    /// Applies the accumulated impulses (warm start).
    ///
    /// # Safety
    /// As [`JointConstraint::solve`].
    pub unsafe fn warm_start(&self, states: &SharedStates<'_>, step: &JointStep<'_>) {
        // SAFETY: the caller's contract.
        each_kind!(&self.kind, k => unsafe { self.warm_start_kind(k, states, step) });
    }

    /// [`warm_start`](Self::warm_start) for a joint of kind `k`.
    #[inline(always)]
    unsafe fn warm_start_kind<K: Rules>(
        &self,
        k: &K,
        states: &SharedStates<'_>,
        step: &JointStep<'_>,
    ) {
        // SAFETY: the caller's contract.
        let (sa, sb) = unsafe { self.read(states) };
        let s = self.substep(k, (&sa, &sb), false, true, step);
        let mut v = velocities(&sa, &sb);
        k.warm_start(&s, &self.impulses, &mut v);
        // SAFETY: the caller's contract.
        unsafe { self.write(states, &s, &v) };
    }

    /// One pass: the biased one (`use_bias`) or the relaxing one.
    ///
    /// # Safety
    /// No other thread writes the joint's two states meanwhile, nor reads the state of a body the
    /// joint moves (a body whose inverse mass in `step.masses` responds): the joints solved side
    /// by side are those of one colour (`graph.rs`), which share no body that moves.
    pub unsafe fn solve(
        &mut self,
        states: &SharedStates<'_>,
        use_bias: bool,
        step: &JointStep<'_>,
    ) {
        let kind = self.kind;
        // SAFETY: the caller's contract.
        each_kind!(&kind, k => unsafe { self.solve_kind(k, states, use_bias, step) });
    }

    /// [`solve`](Self::solve) for a joint of kind `k`.
    #[inline(always)]
    unsafe fn solve_kind<K: Rules>(
        &mut self,
        k: &K,
        states: &SharedStates<'_>,
        use_bias: bool,
        step: &JointStep<'_>,
    ) {
        // SAFETY: the caller's contract.
        let (sa, sb) = unsafe { self.read(states) };
        let s = self.substep(k, (&sa, &sb), true, use_bias, step);
        let mut v = velocities(&sa, &sb);
        k.solve(&s, &mut self.impulses, &mut v);
        // SAFETY: the caller's contract.
        unsafe { self.write(states, &s, &v) };
    }

    /// The reaction on B over the last substep (`step.h`, s): force (N, world) and torque (N·m).
    pub fn reaction(&self, states: &[BodyState], step: &JointStep<'_>) -> (Vec2, Real) {
        let (sa, sb) = (&states[self.a as usize], &states[self.b as usize]);
        each_kind!(&self.kind, k => {
            let s = self.substep(k, (sa, sb), false, false, step);
            k.reaction(&s, &self.impulses)
        })
    }
}

/// The velocities of a joint's two bodies.
#[inline(always)]
fn velocities(sa: &BodyState, sb: &BodyState) -> Pair {
    Pair {
        va: sa.v,
        wa: sa.w,
        vb: sb.v,
        wb: sb.w,
    }
}
