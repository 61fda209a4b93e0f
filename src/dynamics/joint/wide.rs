//! Free pins in SIMD lanes: the warm start and the two passes of [`LANES`] (eight) revolute
//! joints without limit, motor or spring at once, one per lane, with the lanes of the wide contact
//! solver (`dynamics/wide.rs`).
//!
//! The joints of one colour (`graph.rs`) share no body that moves, so solving eight of them side
//! by side is exactly solving them one after the other. Each lane performs the IEEE operations of
//! the one-joint path (`step.rs` and `parts.rs`: `Revolute::warm_start`, `Substep::rigid_point`)
//! in the same order, so results are bit for bit those of solving the joints one by one: the
//! determinism fingerprints of scenes with joints did not change when the lanes came in. A free
//! pin is the commonest joint (chains, ragdolls, grids, Box2D's joint grid); the other kinds stay
//! one by one.
//!
//! Units and frames: anchors and offsets in metres (world orientation), velocities in m/s and
//! rad/s, impulses in N·s.

use super::step::JointConstraint;
use super::JointKind;
use crate::dynamics::constraint::Softness;
use crate::dynamics::contact_math::InverseMass;
use crate::dynamics::stages::SharedSlice;
use crate::dynamics::wide::{
    gather, lane_mask, rotate, scatter, Lanes, MassLanes, SharedStates, Velocities, LANES, V2,
};
use crate::math::Vec2;

/// Whether `kind` is a free pin: a revolute joint without limit, motor or spring, whose every
/// pass is the rigid point constraint alone (what [`PinBundle`] solves).
pub(crate) fn is_free_pin(kind: &JointKind) -> bool {
    matches!(kind, JointKind::Revolute(r) if r.0.limit.is_none() && r.0.motor.is_none() && r.0.spring.is_none())
}

/// Up to [`LANES`] free pins of one colour, lane by lane (see [`JointConstraint`]): what their
/// passes read, and the point impulses they accumulate over the step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PinBundle<L> {
    /// Solver state index of each lane's body A and B (0, the static entry, for empty lanes);
    /// checked against the state count by `pack`, so the passes index states unchecked.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Bit `lane` set when impulses move that lane's body A (B): the states written back.
    moves_a: u8,
    moves_b: u8,
    mass: MassLanes<L>,
    /// The anchors from the centres of mass at the step's start (world orientation, metres).
    frame_a: V2<L>,
    frame_b: V2<L>,
    /// `cB − cA` at the step's start (metres).
    delta_center: V2<L>,
    /// The point impulse accumulated so far (N·s, world).
    linear: V2<L>,
    /// The angular impulses the one-joint warm start applies besides (spring + motor + lower −
    /// upper, as it sums them; zero unless a drive was switched off with impulses left).
    angular: L,
    /// The joint (index into the step's joint constraints) in each lane; `u32::MAX` for empty
    /// lanes.
    source: [u32; LANES],
}

/// Velocity of B's anchor at `rb` relative to A's at `ra`, as the one-joint path computes it
/// (`Pair::relative`: `vB + ωB × rB − vA − ωA × rA`, with `ω × r = (−ω·r.y, ω·r.x)`; the contacts'
/// lanes negate differently, which can differ in the sign of a zero).
#[inline(always)]
fn relative<L: Lanes>(v: &Velocities<L>, ra: V2<L>, rb: V2<L>) -> V2<L> {
    V2 {
        x: v.vb.x + v.wb.neg() * rb.y - v.va.x - v.wa.neg() * ra.y,
        y: v.vb.y + v.wb * rb.x - v.va.y - v.wa * ra.x,
    }
}

impl<L: Lanes> PinBundle<L> {
    /// Packs the free pins `joints[range]` (at most [`LANES`]) with their bodies' inverse masses
    /// by solver entry `masses`; the lanes past the range stay empty (zero masses: they move
    /// nothing). Every joint's body indices must be below `masses.len()` (checked).
    pub fn pack(&mut self, joints: &[JointConstraint], range: (u32, u32), masses: &[InverseMass]) {
        let (from, to) = (range.0 as usize, range.1 as usize);
        debug_assert!(from < to && to - from <= LANES);
        let members = &joints[from..to];
        debug_assert!(members.iter().all(|j| is_free_pin(&j.kind)));
        assert!(
            members
                .iter()
                .all(|j| (j.a as usize) < masses.len() && (j.b as usize) < masses.len()),
            "a joint names a body state past the solver's"
        );
        // One pass over the joints, each value into its lane; empty lanes are zeros (no mass:
        // they move nothing).
        let mut v = [[0.0; LANES]; 16];
        let (mut a, mut b, mut source) = ([0; LANES], [0; LANES], [u32::MAX; LANES]);
        let (mut moves_a, mut moves_b) = (0, 0);
        for (lane, j) in members.iter().enumerate() {
            let (ma, mb) = (masses[j.a as usize], masses[j.b as usize]);
            let (f, i) = (&j.frames, &j.impulses);
            let values = [
                ma.linear_along(Vec2::X),
                ma.linear_along(Vec2::Y),
                ma.angular,
                mb.linear_along(Vec2::X),
                mb.linear_along(Vec2::Y),
                mb.angular,
                f.frame_a.x,
                f.frame_a.y,
                f.frame_b.x,
                f.frame_b.y,
                f.delta_center.x,
                f.delta_center.y,
                i.linear.x,
                i.linear.y,
                i.spring + i.motor + i.lower - i.upper,
                0.0,
            ];
            for (field, value) in v.iter_mut().zip(values) {
                field[lane] = value;
            }
            (a[lane], b[lane], source[lane]) = (j.a, j.b, (from + lane) as u32);
            moves_a |= u8::from(ma.responds()) << lane;
            moves_b |= u8::from(mb.responds()) << lane;
        }
        let [max, may, ia, mbx, mby, ib, fax, fay, fbx, fby, dcx, dcy, lx, ly, angular, _] =
            v.map(|field| L::from_fn(|lane| field[lane]));
        *self = PinBundle {
            a,
            b,
            moves_a,
            moves_b,
            mass: MassLanes {
                inv_mass_a: V2 { x: max, y: may },
                inv_inertia_a: ia,
                inv_mass_b: V2 { x: mbx, y: mby },
                inv_inertia_b: ib,
            },
            frame_a: V2 { x: fax, y: fay },
            frame_b: V2 { x: fbx, y: fby },
            delta_center: V2 { x: dcx, y: dcy },
            linear: V2 { x: lx, y: ly },
            angular,
            source,
        };
    }

    /// The bodies' velocities and the anchors turned with the bodies so far this step.
    ///
    /// # Safety
    /// No other thread writes the lanes' states meanwhile.
    #[inline(always)]
    unsafe fn load(&self, states: &SharedStates<'_>) -> (Velocities<L>, V2<L>, V2<L>, V2<L>) {
        // SAFETY: the caller's contract; the indices were checked by `pack`.
        let (sa, sb) = unsafe { (gather::<L>(states, &self.a), gather::<L>(states, &self.b)) };
        let ra = rotate(sa.cos, sa.sin, self.frame_a);
        let rb = rotate(sb.cos, sb.sin, self.frame_b);
        // The anchors' separation, `((dpB − dpA) + (cB − cA) + rB) − rA`.
        let d = V2 {
            x: sb.dp.x - sa.dp.x + self.delta_center.x + rb.x - ra.x,
            y: sb.dp.y - sa.dp.y + self.delta_center.y + rb.y - ra.y,
        };
        let v = Velocities {
            va: sa.v,
            wa: sa.w,
            vb: sb.v,
            wb: sb.w,
        };
        (v, ra, rb, d)
    }

    /// Writes back the velocities of the lanes set in `moves_a` / `moves_b` and `valid`.
    ///
    /// # Safety
    /// No other thread reads or writes the states of the bodies the lanes move meanwhile.
    #[inline(always)]
    unsafe fn store(&self, states: &SharedStates<'_>, v: &Velocities<L>, valid: u8) {
        // SAFETY: the caller's contract.
        unsafe {
            scatter(states, &self.a, self.moves_a & valid, v.va, v.wa);
            scatter(states, &self.b, self.moves_b & valid, v.vb, v.wb);
        }
    }

    /// Applies the accumulated impulses (warm start).
    ///
    /// # Safety
    /// As [`JointConstraint::solve`]: the joints of one colour.
    pub unsafe fn warm_start(&self, states: &SharedStates<'_>) {
        // SAFETY: the caller's contract.
        let (mut v, ra, rb, _) = unsafe { self.load(states) };
        v.apply(&self.mass, ra, rb, self.linear);
        v.wa = v.wa - self.mass.inv_inertia_a * self.angular;
        v.wb = v.wb + self.mass.inv_inertia_b * self.angular;
        // SAFETY: the caller's contract.
        unsafe { self.store(states, &v, u8::MAX) };
    }

    /// One pass of the point constraint: the biased one (`use_bias`, softness `soft`) or the
    /// relaxing one. A lane whose effective mass matrix is singular (neither body responds) is
    /// left as it is, as the one-joint path returns early.
    ///
    /// # Safety
    /// As [`JointConstraint::solve`]: the joints of one colour.
    pub unsafe fn solve(&mut self, states: &SharedStates<'_>, use_bias: bool, soft: &Softness) {
        // SAFETY: the caller's contract.
        let (mut v, ra, rb, d) = unsafe { self.load(states) };
        let (bias, ms, is) = if use_bias {
            let rate = L::splat(soft.bias_rate);
            (
                V2 {
                    x: rate * d.x,
                    y: rate * d.y,
                },
                soft.mass_scale,
                soft.impulse_scale,
            )
        } else {
            (V2::default(), 1.0, 0.0)
        };
        let m = &self.mass;
        let (ia, ib) = (m.inv_inertia_a, m.inv_inertia_b);
        let mx = m.inv_mass_a.x + m.inv_mass_b.x;
        let my = m.inv_mass_a.y + m.inv_mass_b.y;
        let k11 = mx + ia * ra.y * ra.y + ib * rb.y * rb.y;
        let k12 = ia.neg() * ra.x * ra.y - ib * rb.x * rb.y;
        let k22 = my + ia * ra.x * ra.x + ib * rb.x * rb.x;
        let det = k11 * k22 - k12 * k12;
        let relative = relative(&v, ra, rb);
        let rhs = V2 {
            x: relative.x + bias.x,
            y: relative.y + bias.y,
        };
        // K⁻¹ · rhs.
        let solved = V2 {
            x: (k22 * rhs.x - k12 * rhs.y).div(det),
            y: (k11 * rhs.y - k12 * rhs.x).div(det),
        };
        let (ms, is) = (L::splat(-ms), L::splat(is));
        let acc = self.linear;
        let new = V2 {
            x: acc.x + (ms * solved.x - is * acc.x),
            y: acc.y + (ms * solved.y - is * acc.y),
        };
        // Singular lanes (and empty ones) keep their impulse and move nothing.
        let zero = L::default();
        let valid = lane_mask({
            let det = det.to_array();
            move |lane| det[lane] > 0.0
        });
        let keep = |new: L, old: L| det.gt_select(zero, new, old);
        let new = V2 {
            x: keep(new.x, acc.x),
            y: keep(new.y, acc.y),
        };
        let applied = V2 {
            x: new.x - acc.x,
            y: new.y - acc.y,
        };
        self.linear = new;
        v.apply(m, ra, rb, applied);
        // SAFETY: the caller's contract.
        unsafe { self.store(states, &v, valid) };
    }

    /// Writes the accumulated impulses back to the joints the lanes came from.
    ///
    /// # Safety
    /// `joints` is the array `pack` read, and no other thread reads or writes those joints
    /// meanwhile (each joint is in one bundle: bundles may unpack at once).
    pub unsafe fn unpack(&self, joints: &SharedSlice<'_, JointConstraint>) {
        let (x, y) = (self.linear.x.to_array(), self.linear.y.to_array());
        for lane in 0..LANES {
            let k = self.source[lane];
            if k == u32::MAX {
                continue;
            }
            // SAFETY: the caller's contract.
            unsafe { joints.get_mut(k) }.impulses.linear = Vec2::new(x[lane], y[lane]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::constraint::BodyState;
    use crate::dynamics::joint::parts::Drive;
    use crate::dynamics::joint::revolute::Revolute;
    use crate::dynamics::joint::{Frames, JointImpulses, JointStep};
    use crate::dynamics::wide::{Scalar, Wide};
    use crate::math::{Real, Rot};

    /// A deterministic stream of numbers in [−1, 1) (a linear congruential generator).
    struct Numbers(u64);
    impl Numbers {
        fn next(&mut self) -> Real {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as Real / (1u64 << 52) as Real - 1.0
        }
        fn vec(&mut self, scale: Real) -> Vec2 {
            Vec2::new(self.next() * scale, self.next() * scale)
        }
    }

    /// `count` free pins, each between two bodies of its own (a colour: no body shared), with
    /// every case the lanes must match the one-by-one path on: a pin to the static entry, a
    /// body that does not turn (zero inverse inertia), one whose translation is locked along an
    /// axis, a pin between two bodies that do not respond, a body locked along both axes pinned
    /// to the static entry (a singular matrix: left as it is), stale angular impulses from a
    /// drive switched off; random anchors, offsets, velocities, turns.
    fn scene(seed: u64, count: usize) -> (Vec<JointConstraint>, Vec<BodyState>, Vec<InverseMass>) {
        let mut n = Numbers(seed);
        let mut states = vec![BodyState::STATIC];
        let mut masses = vec![InverseMass::default()];
        let mut body = |n: &mut Numbers, kind: usize| {
            let mut m = InverseMass {
                linear: 0.5 + n.next().abs(),
                angular: 0.2 + n.next().abs(),
                axes: Vec2::ONE,
            };
            match kind {
                1 => m.angular = 0.0,
                2 => m.axes = Vec2::new(0.0, 1.0),
                3 => m = InverseMass::default(),
                4 => m.axes = Vec2::ZERO,
                _ => {}
            }
            states.push(BodyState {
                v: n.vec(5.0),
                w: n.next() * 3.0,
                spare: 0.0,
                dp: n.vec(0.1),
                dq: Rot::from_angle(n.next() * 0.2),
            });
            masses.push(m);
            (states.len() - 1) as u32
        };
        let drive = Drive {
            limit: None,
            motor: None,
            spring: None,
        };
        let joints = (0..count)
            .map(|k| {
                let case = k % 6;
                let a = match case {
                    0 | 4 => 0,
                    5 => body(&mut n, 0),
                    _ => body(&mut n, case),
                };
                let b = body(&mut n, if case >= 3 { case } else { (k / 6) % 3 });
                JointConstraint {
                    slot: k as u32,
                    a,
                    b,
                    reads_angle: false,
                    frames: Frames {
                        frame_a: n.vec(0.6),
                        frame_b: n.vec(0.6),
                        delta_center: n.vec(1.2),
                        delta_angle: 0.0,
                        axis: Vec2::X,
                    },
                    kind: JointKind::Revolute(Revolute(drive)),
                    impulses: JointImpulses {
                        linear: n.vec(0.3),
                        motor: if case == 5 { n.next() } else { 0.0 },
                        ..JointImpulses::default()
                    },
                    inv_k_angular: 0.0,
                }
            })
            .collect();
        (joints, states, masses)
    }

    /// Warm start, the biased pass and the relaxing pass, twice, of `joints` in bundles of
    /// [`LANES`] on lanes `L`; the states and the joints' impulses after.
    fn in_lanes<L: Lanes>(
        mut joints: Vec<JointConstraint>,
        mut states: Vec<BodyState>,
        masses: &[InverseMass],
        soft: &Softness,
    ) -> (Vec<BodyState>, Vec<JointConstraint>) {
        let count = joints.len() as u32;
        let ranges: Vec<(u32, u32)> = (0..count)
            .step_by(LANES)
            .map(|from| (from, (from + LANES as u32).min(count)))
            .collect();
        let mut bundles: Vec<PinBundle<L>> = ranges
            .iter()
            .map(|&r| {
                let mut b = PinBundle::default();
                b.pack(&joints, r, masses);
                b
            })
            .collect();
        let shared = SharedSlice::new(&mut states);
        // SAFETY: one thread; the pins share no body.
        unsafe {
            for _ in 0..2 {
                bundles.iter().for_each(|b| b.warm_start(&shared));
                for use_bias in [true, false] {
                    bundles
                        .iter_mut()
                        .for_each(|b| b.solve(&shared, use_bias, soft));
                }
            }
            let joint_slice = SharedSlice::new(&mut joints);
            bundles.iter().for_each(|b| b.unpack(&joint_slice));
        }
        (states, joints)
    }

    #[test]
    fn pins_in_lanes_are_the_one_by_one_solve_to_the_bit() {
        let soft = Softness::new(60.0, 2.0, 1.0 / 240.0);
        let bits = |s: &[BodyState]| -> Vec<u64> {
            s.iter()
                .flat_map(|s| [s.v.x, s.v.y, s.w].map(Real::to_bits))
                .collect()
        };
        for seed in 0..40 {
            // Partly filled bundles too: 1 to 21 pins.
            let (joints, states, masses) = scene(seed, 1 + (seed as usize * 5) % 21);
            let step = JointStep {
                h: 1.0 / 240.0,
                inv_h: 240.0,
                soft,
                masses: &masses,
            };
            let (mut one, mut by_one) = (joints.clone(), states.clone());
            let shared = SharedSlice::new(&mut by_one);
            // SAFETY: one thread.
            unsafe {
                for _ in 0..2 {
                    one.iter().for_each(|j| j.warm_start(&shared, &step));
                    for use_bias in [true, false] {
                        one.iter_mut()
                            .for_each(|j| j.solve(&shared, use_bias, &step));
                    }
                }
            }
            let wide = in_lanes::<Wide>(joints.clone(), states.clone(), &masses, &soft);
            let scalar = in_lanes::<Scalar>(joints, states.clone(), &masses, &soft);
            for (name, (s, j)) in [("wide", wide), ("scalar", scalar)] {
                assert_eq!(bits(&s), bits(&by_one), "{name} lanes, seed {seed}: states");
                for (x, y) in j.iter().zip(&one) {
                    let linear =
                        |j: &JointConstraint| j.impulses.linear.to_array().map(Real::to_bits);
                    assert_eq!(linear(x), linear(y), "{name} lanes, seed {seed}: impulses");
                }
            }
            // The solve did something: the states moved off where they started.
            assert_ne!(bits(&by_one), bits(&states), "seed {seed}");
        }
    }
}
