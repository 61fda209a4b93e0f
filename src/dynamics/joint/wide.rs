//! Revolute joints in SIMD lanes: the warm start and the two passes of [`LANES`] (eight)
//! revolute joints at once, one per lane, with the lanes of the wide contact solver
//! (`dynamics/wide.rs`).
//!
//! The joints of one colour (`graph.rs`) share no body that moves, so solving eight of them side
//! by side is exactly solving them one after the other. Each lane performs the IEEE operations of
//! the one-joint path (`step.rs`, `parts.rs`, `revolute.rs`: spring, motor, the two one-sided
//! limits, then the point) in the same order, so results are bit for bit those of solving the
//! joints one by one: the determinism fingerprints of scenes with joints did not change when the
//! lanes came in. Free pins (no limit, motor or spring: chains, grids) come first in each colour,
//! in compact bundles that run the point alone ([`PinBundle`]); the revolute joints with a drive
//! (ragdolls) follow, in bundles that add the drive's lanes ([`DrivenBundle`]), where a part runs
//! only in the lanes whose joint has it and is skipped when no lane has it. The other kinds stay
//! one by one.
//!
//! Units and frames: anchors and offsets in metres (world orientation), angles in radians,
//! velocities in m/s and rad/s, impulses in N·s and N·m·s.

use super::parts::{Drive, Spring};
use super::step::{JointConstraint, JointStep};
use super::JointKind;
use crate::dynamics::constraint::Softness;
use crate::dynamics::contact_math::InverseMass;
use crate::dynamics::stages::SharedSlice;
use crate::dynamics::wide::{
    gather, lane_mask, rotate, scatter, Lanes, MassLanes, SharedStates, Velocities, LANES, V2,
};
use crate::math::{Real, Rot, Vec2};

/// Where a joint of kind `kind` goes in its colour: 0 for a free pin (a revolute joint without
/// limit, motor or spring: the point constraint alone, [`PinBundle`]), 1 for a revolute joint
/// with a drive ([`DrivenBundle`]), 2 for the other kinds (solved one by one).
pub(crate) fn lane_rank(kind: &JointKind) -> u8 {
    match kind {
        JointKind::Revolute(r) if r.0 == Drive::NONE => 0,
        JointKind::Revolute(_) => 1,
        _ => 2,
    }
}

/// Up to [`LANES`] free pins of one colour (or the point of a [`DrivenBundle`]), lane by lane
/// (see [`JointConstraint`]): what their passes read, and the point impulses they accumulate over
/// the step.
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
        debug_assert!(members.iter().all(|j| lane_rank(&j.kind) < 2));
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

    /// The bodies' velocities, the anchors turned with the bodies so far this step, their
    /// separation, and the two bodies' turns so far (`[cos A, sin A, cos B, sin B]`).
    ///
    /// # Safety
    /// No other thread writes the lanes' states meanwhile.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    unsafe fn load(
        &self,
        states: &SharedStates<'_>,
    ) -> (Velocities<L>, V2<L>, V2<L>, V2<L>, [L; 4]) {
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
        (v, ra, rb, d, [sa.cos, sa.sin, sb.cos, sb.sin])
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
        let (mut v, ra, rb, _, _) = unsafe { self.load(states) };
        v.apply(&self.mass, ra, rb, self.linear);
        v.wa = v.wa - self.mass.inv_inertia_a * self.angular;
        v.wb = v.wb + self.mass.inv_inertia_b * self.angular;
        // SAFETY: the caller's contract.
        unsafe { self.store(states, &v, u8::MAX) };
    }

    /// One pass of the point constraint: the biased one (`use_bias`, softness `soft`) or the
    /// relaxing one. A lane whose effective mass matrix is singular (neither body can move its
    /// anchor) is left as it is, as the one-joint path returns early.
    ///
    /// # Safety
    /// As [`JointConstraint::solve`]: the joints of one colour.
    pub unsafe fn solve(&mut self, states: &SharedStates<'_>, use_bias: bool, soft: &Softness) {
        // SAFETY: the caller's contract.
        let (mut v, ra, rb, d, _) = unsafe { self.load(states) };
        let valid = self.point(&mut v, (ra, rb, d), use_bias, soft, false);
        // SAFETY: the caller's contract.
        unsafe { self.store(states, &v, valid) };
    }

    /// The point constraint (`Substep::rigid_point`: `parts::point` without a length cap) on
    /// velocities `v`, with the anchors and their separation `(ra, rb, d)`. Returns the lanes
    /// whose matrix is regular. A singular lane keeps its impulse; its velocities are only equal
    /// to the old ones but for the sign of a zero, so they must not be written back, or
    /// (`pick_back`, after other parts changed them) are picked back lane by lane.
    #[inline(always)]
    fn point(
        &mut self,
        v: &mut Velocities<L>,
        (ra, rb, d): (V2<L>, V2<L>, V2<L>),
        use_bias: bool,
        soft: &Softness,
        pick_back: bool,
    ) -> u8 {
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
        let relative = relative(v, ra, rb);
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
        // Singular lanes (and empty ones) keep their impulse.
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
        let before = *v;
        v.apply(m, ra, rb, applied);
        if pick_back {
            *v = Velocities {
                va: V2 {
                    x: keep(v.va.x, before.va.x),
                    y: keep(v.va.y, before.va.y),
                },
                wa: keep(v.wa, before.wa),
                vb: V2 {
                    x: keep(v.vb.x, before.vb.x),
                    y: keep(v.vb.y, before.vb.y),
                },
                wb: keep(v.wb, before.wb),
            };
        }
        valid
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

/// Three soft-constraint coefficients in lanes (see `Softness`).
#[derive(Clone, Copy, Debug, Default)]
struct SoftLanes<L> {
    bias_rate: L,
    mass_scale: L,
    impulse_scale: L,
}

/// What the lanes of a bundle with some drive read besides the point: per lane, 1 where its joint
/// has the part and 0 where not (`has_*`), and the part's settings.
#[derive(Clone, Copy, Debug, Default)]
struct DriveLanes<L> {
    has_spring: L,
    spring: SoftLanes<L>,
    has_motor: L,
    /// Motor target speed (rad/s) and largest impulse over a substep (N·m·s).
    motor_speed: L,
    motor_max: L,
    has_limit: L,
    lower: L,
    upper: L,
    /// The relative angle minus the reference at the step's start (radians).
    delta_angle: L,
    /// `1 / (1/IA + 1/IB)`, or 0 when neither turns.
    inv_k: L,
}

/// Per lane: `new` where `mask` is 1, `old` where it is 0.
#[inline(always)]
fn pick<L: Lanes>(mask: L, new: L, old: L) -> L {
    mask.gt_select(L::default(), new, old)
}

/// Applies angular impulse `l` (B gets `l`, A `−l`) in the lanes where `mask` is 1, as
/// `Pair::apply_angular` does; the other lanes are left as they were.
#[inline(always)]
fn apply_angular<L: Lanes>(v: &mut Velocities<L>, m: &MassLanes<L>, l: L, mask: L) {
    v.wa = pick(mask, v.wa - m.inv_inertia_a * l, v.wa);
    v.wb = pick(mask, v.wb + m.inv_inertia_b * l, v.wb);
}

/// `one_sided_angular` with `Substep::limit`, in the lanes with a limit (`drive.has_limit`): the
/// lower limit (margin `c` = angle − lower, sign +1) or the upper one (`upper`: margin upper −
/// angle, sign −1), with accumulated impulse `acc`. Returns the new accumulated impulse.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn one_sided<L: Lanes>(
    v: &mut Velocities<L>,
    m: &MassLanes<L>,
    drive: &DriveLanes<L>,
    acc: L,
    c: L,
    upper: bool,
    use_bias: bool,
    step: &JointStep<'_>,
) -> L {
    // Within the limit (c > 0): speculative; past it: the rigid softness.
    let zero = L::default();
    let (rigid_bias, rigid_ms, rigid_is) = if use_bias {
        let s = &step.soft;
        (L::splat(s.bias_rate) * c, s.mass_scale, s.impulse_scale)
    } else {
        (zero, 1.0, 0.0)
    };
    let bias = c.gt_select(zero, c * L::splat(step.inv_h), rigid_bias);
    let ms = c.gt_select(zero, L::splat(1.0), L::splat(rigid_ms));
    let is = c.gt_select(zero, zero, L::splat(rigid_is));
    let relative = v.wb - v.wa;
    let cdot = if upper { relative.neg() } else { relative };
    let impulse = ms.neg() * drive.inv_k * (cdot + bias) - is * acc;
    // `f64::max(x, 0.0)` lane by lane, as the one-joint path clamps.
    let sum = (acc + impulse).to_array();
    let new = L::from_fn(|i| sum[i].max(0.0));
    let applied = new - acc;
    let push = if upper { applied.neg() } else { applied };
    apply_angular(v, m, push, drive.has_limit);
    pick(drive.has_limit, new, acc)
}

/// Up to [`LANES`] revolute joints of one colour with a drive (or without: their lanes skip it),
/// lane by lane: the point's lanes ([`PinBundle`]), the drive's settings, and the angular
/// impulses they accumulate over the step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DrivenBundle<L> {
    pin: PinBundle<L>,
    spring_impulse: L,
    motor_impulse: L,
    lower_impulse: L,
    upper_impulse: L,
    /// Which parts some lane has (the others are skipped), and their settings.
    any_spring: bool,
    any_motor: bool,
    any_limit: bool,
    drive: DriveLanes<L>,
}

impl<L: Lanes> DrivenBundle<L> {
    /// Packs the revolute joints `joints[range]` (at most [`LANES`]) for substeps of `h` seconds,
    /// with their bodies' inverse masses by solver entry `masses` (see [`PinBundle::pack`]).
    pub fn pack(
        &mut self,
        joints: &[JointConstraint],
        range: (u32, u32),
        masses: &[InverseMass],
        h: Real,
    ) {
        self.pin.pack(joints, range, masses);
        // The drive's values, each into its lane; lanes without a part (and empty lanes) are
        // zeros there.
        let mut d = [[0.0; LANES]; 16];
        let (mut any_spring, mut any_motor, mut any_limit) = (false, false, false);
        for (lane, j) in joints[range.0 as usize..range.1 as usize]
            .iter()
            .enumerate()
        {
            let JointKind::Revolute(r) = &j.kind else {
                unreachable!("only revolute joints are packed into lanes");
            };
            let Drive {
                limit,
                motor,
                spring,
            } = r.0;
            any_spring |= spring.is_some();
            any_motor |= motor.is_some();
            any_limit |= limit.is_some();
            let soft = Spring::softness_of(spring, h);
            let on = |x: bool| if x { 1.0 } else { 0.0 };
            let i = &j.impulses;
            let values = [
                on(spring.is_some()),
                soft.bias_rate,
                soft.mass_scale,
                soft.impulse_scale,
                on(motor.is_some()),
                motor.map_or(0.0, |m| m.speed),
                motor.map_or(0.0, |m| m.max * h),
                on(limit.is_some()),
                limit.map_or(0.0, |l| l.lower),
                limit.map_or(0.0, |l| l.upper),
                j.frames.delta_angle,
                j.inv_k_angular,
                i.spring,
                i.motor,
                i.lower,
                i.upper,
            ];
            for (field, value) in d.iter_mut().zip(values) {
                field[lane] = value;
            }
        }
        let [hs, sbr, sms, sis, hm, speed, most, hl, lower, upper, angle, inv_k, si, mi, li, ui] =
            d.map(|field| L::from_fn(|lane| field[lane]));
        (self.spring_impulse, self.motor_impulse) = (si, mi);
        (self.lower_impulse, self.upper_impulse) = (li, ui);
        (self.any_spring, self.any_motor, self.any_limit) = (any_spring, any_motor, any_limit);
        self.drive = DriveLanes {
            has_spring: hs,
            spring: SoftLanes {
                bias_rate: sbr,
                mass_scale: sms,
                impulse_scale: sis,
            },
            has_motor: hm,
            motor_speed: speed,
            motor_max: most,
            has_limit: hl,
            lower,
            upper,
            delta_angle: angle,
            inv_k,
        };
    }

    /// Applies the accumulated impulses (warm start), as `Revolute::warm_start`.
    ///
    /// # Safety
    /// As [`JointConstraint::solve`]: the joints of one colour.
    pub unsafe fn warm_start(&mut self, states: &SharedStates<'_>) {
        self.pin.angular =
            self.spring_impulse + self.motor_impulse + self.lower_impulse - self.upper_impulse;
        // SAFETY: the caller's contract.
        unsafe { self.pin.warm_start(states) };
    }

    /// One pass, as `Revolute::solve`: the spring, the motor, the two one-sided limits, then the
    /// point; the biased pass (`use_bias`) or the relaxing one, with `step`'s substep and rigid
    /// softness.
    ///
    /// # Safety
    /// As [`JointConstraint::solve`]: the joints of one colour.
    pub unsafe fn solve(
        &mut self,
        states: &SharedStates<'_>,
        use_bias: bool,
        step: &JointStep<'_>,
    ) {
        // SAFETY: the caller's contract.
        let (mut v, ra, rb, d, [ca, sa, cb, sb]) = unsafe { self.pin.load(states) };
        let angle = if self.any_spring || self.any_limit {
            // The angle as `JointConstraint::substep` computes it, lane by lane (an arctangent
            // each).
            let (ca, sa, cb, sb) = (ca.to_array(), sa.to_array(), cb.to_array(), sb.to_array());
            let delta = self.drive.delta_angle.to_array();
            L::from_fn(|i| {
                let qa = Rot {
                    cos: ca[i],
                    sin: sa[i],
                };
                let qb = Rot {
                    cos: cb[i],
                    sin: sb[i],
                };
                delta[i] + qa.inv_mul_rot(qb).angle()
            })
        } else {
            L::default()
        };
        self.drive_parts(&mut v, angle, use_bias, step);
        // The drive's parts may have changed a singular lane's velocities: picked back.
        self.pin
            .point(&mut v, (ra, rb, d), use_bias, &step.soft, true);
        // SAFETY: the caller's contract.
        unsafe { self.pin.store(states, &v, u8::MAX) };
    }

    /// The parts before the point, in the lanes whose joints have them: the spring, the motor,
    /// then the two one-sided limits, at relative angle `angle`.
    #[inline(always)]
    fn drive_parts(
        &mut self,
        v: &mut Velocities<L>,
        angle: L,
        use_bias: bool,
        step: &JointStep<'_>,
    ) {
        let (m, dr) = (&self.pin.mass, &self.drive);
        if self.any_spring {
            // `Substep::angular` with `Substep::sprung`.
            let (s, mask, acc) = (&dr.spring, dr.has_spring, self.spring_impulse);
            let bias = s.bias_rate * angle;
            let cdot = v.wb - v.wa;
            let impulse = s.mass_scale.neg() * dr.inv_k * (cdot + bias) - s.impulse_scale * acc;
            self.spring_impulse = pick(mask, acc + impulse, acc);
            apply_angular(v, m, impulse, mask);
        }
        if self.any_motor {
            // `Substep::angular_motor`: the accumulated impulse clamped to `[−max, max]`, as
            // `f64::clamp` (lower bound first).
            let cdot = v.wb - v.wa - dr.motor_speed;
            let (acc, max) = (self.motor_impulse, dr.motor_max);
            let x = acc - dr.inv_k * cdot;
            let low = max.neg();
            let x = low.gt_select(x, low, x);
            let new = x.gt_select(max, max, x);
            let applied = new - acc;
            self.motor_impulse = pick(dr.has_motor, new, acc);
            apply_angular(v, m, applied, dr.has_motor);
        }
        if self.any_limit {
            let lower = angle - dr.lower;
            self.lower_impulse =
                one_sided(v, m, dr, self.lower_impulse, lower, false, use_bias, step);
            let upper = dr.upper - angle;
            self.upper_impulse =
                one_sided(v, m, dr, self.upper_impulse, upper, true, use_bias, step);
        }
    }

    /// Writes the accumulated impulses back to the joints the lanes came from.
    ///
    /// # Safety
    /// As [`PinBundle::unpack`].
    pub unsafe fn unpack(&self, joints: &SharedSlice<'_, JointConstraint>) {
        // SAFETY: the caller's contract.
        unsafe { self.pin.unpack(joints) };
        let (spring, motor) = (
            self.spring_impulse.to_array(),
            self.motor_impulse.to_array(),
        );
        let (lower, upper) = (self.lower_impulse.to_array(), self.upper_impulse.to_array());
        for (lane, &k) in self.pin.source.iter().enumerate() {
            if k == u32::MAX {
                continue;
            }
            // SAFETY: the caller's contract.
            let i = &mut unsafe { joints.get_mut(k) }.impulses;
            (i.spring, i.motor, i.lower, i.upper) =
                (spring[lane], motor[lane], lower[lane], upper[lane]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::constraint::{BodyState, Softness};
    use crate::dynamics::joint::parts::{Limit, Motor};
    use crate::dynamics::joint::revolute::Revolute;
    use crate::dynamics::joint::{Frames, JointImpulses};
    use crate::dynamics::wide::{Scalar, Wide};

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

    /// A random drive for joint `k`: none for a third of the joints (free pins), otherwise each
    /// of a limit (sometimes already passed), a motor and a spring with even odds.
    fn drive(n: &mut Numbers, k: usize) -> Drive {
        if k.is_multiple_of(3) {
            return Drive::NONE;
        }
        let on = |n: &mut Numbers| n.next() > 0.0;
        let limit = on(n).then(|| {
            let lower = n.next() * 0.6;
            Limit {
                lower,
                upper: lower + n.next().abs() * 0.5,
            }
        });
        let motor = on(n).then(|| Motor {
            speed: n.next() * 4.0,
            max: n.next().abs() * 50.0,
        });
        let spring = on(n).then(|| Spring {
            hertz: 1.0 + 8.0 * n.next().abs(),
            damping_ratio: n.next().abs(),
        });
        Drive {
            limit,
            motor,
            spring,
        }
    }

    /// `count` revolute joints, each between two bodies of its own (a colour: no body shared),
    /// with every case the lanes must match the one-by-one path on: a joint to the static entry,
    /// a body that does not turn (zero inverse inertia), one whose translation is locked along an
    /// axis, a joint between two bodies that do not respond, a body locked along both axes pinned
    /// to the static entry (a singular point matrix), stale angular impulses on a free pin (a
    /// drive switched off), drives of every combination; random anchors, offsets, angles,
    /// velocities, turns and impulses. Ordered as `build_joints` lays out a colour: free pins
    /// first.
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
        let mut joints: Vec<JointConstraint> = (0..count)
            .map(|k| {
                let case = k % 6;
                let a = match case {
                    0 | 4 => 0,
                    5 => body(&mut n, 0),
                    _ => body(&mut n, case),
                };
                let b = body(&mut n, if case >= 3 { case } else { (k / 6) % 3 });
                let drive = drive(&mut n, k);
                let stale = |n: &mut Numbers| n.next() * 0.2;
                JointConstraint {
                    slot: k as u32,
                    a,
                    b,
                    reads_angle: drive.spring.is_some() || drive.limit.is_some(),
                    frames: Frames {
                        frame_a: n.vec(0.6),
                        frame_b: n.vec(0.6),
                        delta_center: n.vec(1.2),
                        delta_angle: n.next() * 0.8,
                        axis: Vec2::X,
                    },
                    kind: JointKind::Revolute(Revolute(drive)),
                    impulses: JointImpulses {
                        linear: n.vec(0.3),
                        spring: stale(&mut n),
                        motor: stale(&mut n),
                        lower: stale(&mut n).abs(),
                        upper: stale(&mut n).abs(),
                        ..JointImpulses::default()
                    },
                    inv_k_angular: 0.0,
                }
            })
            .collect();
        for j in &mut joints {
            // As `JointConstraint::prepare`.
            let k = masses[j.a as usize].angular + masses[j.b as usize].angular;
            j.inv_k_angular = if k > 0.0 { 1.0 / k } else { 0.0 };
        }
        joints.sort_by_key(|j| lane_rank(&j.kind));
        (joints, states, masses)
    }

    /// What the runner below calls: a joint one by one, or a bundle of them.
    trait Passes {
        /// # Safety
        /// One thread; the items share no body.
        unsafe fn warm(&mut self, states: &SharedStates<'_>, step: &JointStep<'_>);
        /// # Safety
        /// As `warm`.
        unsafe fn pass(&mut self, states: &SharedStates<'_>, use_bias: bool, step: &JointStep<'_>);
    }
    impl Passes for JointConstraint {
        unsafe fn warm(&mut self, states: &SharedStates<'_>, step: &JointStep<'_>) {
            unsafe { self.warm_start(states, step) }
        }
        unsafe fn pass(&mut self, states: &SharedStates<'_>, use_bias: bool, step: &JointStep<'_>) {
            unsafe { self.solve(states, use_bias, step) }
        }
    }
    impl<L: Lanes> Passes for PinBundle<L> {
        unsafe fn warm(&mut self, states: &SharedStates<'_>, _: &JointStep<'_>) {
            unsafe { self.warm_start(states) }
        }
        unsafe fn pass(&mut self, states: &SharedStates<'_>, use_bias: bool, step: &JointStep<'_>) {
            unsafe { self.solve(states, use_bias, &step.soft) }
        }
    }
    impl<L: Lanes> Passes for DrivenBundle<L> {
        unsafe fn warm(&mut self, states: &SharedStates<'_>, _: &JointStep<'_>) {
            unsafe { self.warm_start(states) }
        }
        unsafe fn pass(&mut self, states: &SharedStates<'_>, use_bias: bool, step: &JointStep<'_>) {
            unsafe { self.solve(states, use_bias, step) }
        }
    }

    /// Warm start, the biased pass and the relaxing pass, twice, of `items` on `states`.
    fn run<T: Passes>(
        items: &mut [T],
        mut states: Vec<BodyState>,
        step: &JointStep<'_>,
    ) -> Vec<BodyState> {
        let shared = SharedSlice::new(&mut states);
        // SAFETY: one thread; the joints share no body.
        unsafe {
            for _ in 0..2 {
                items.iter_mut().for_each(|j| j.warm(&shared, step));
                for use_bias in [true, false] {
                    items
                        .iter_mut()
                        .for_each(|j| j.pass(&shared, use_bias, step));
                }
            }
        }
        states
    }

    /// `joints` packed by `pack` into bundles of [`LANES`], run (`run`), unpacked by `unpack`:
    /// the states and the joints after.
    fn in_lanes<B: Passes + Default>(
        mut joints: Vec<JointConstraint>,
        states: Vec<BodyState>,
        step: &JointStep<'_>,
        pack: impl Fn(&mut B, &[JointConstraint], (u32, u32)),
        unpack: impl Fn(&B, &SharedSlice<'_, JointConstraint>),
    ) -> (Vec<BodyState>, Vec<JointConstraint>) {
        let count = joints.len() as u32;
        let mut bundles: Vec<B> = (0..count)
            .step_by(LANES)
            .map(|from| {
                let mut b = B::default();
                pack(&mut b, &joints, (from, (from + LANES as u32).min(count)));
                b
            })
            .collect();
        let states = run(&mut bundles, states, step);
        let joint_slice = SharedSlice::new(&mut joints);
        bundles.iter().for_each(|b| unpack(b, &joint_slice));
        (states, joints)
    }

    /// [`in_lanes`] with driven bundles on lanes `L`.
    fn driven_in_lanes<L: Lanes>(
        joints: Vec<JointConstraint>,
        states: Vec<BodyState>,
        step: &JointStep<'_>,
    ) -> (Vec<BodyState>, Vec<JointConstraint>) {
        let pack =
            |b: &mut DrivenBundle<L>, j: &[JointConstraint], r| b.pack(j, r, step.masses, step.h);
        // SAFETY: one thread, each joint in one bundle.
        in_lanes(joints, states, step, pack, |b, j| unsafe { b.unpack(j) })
    }

    #[test]
    fn revolute_joints_in_lanes_are_the_one_by_one_solve_to_the_bit() {
        let bits = |s: &[BodyState]| -> Vec<u64> {
            s.iter()
                .flat_map(|s| [s.v.x, s.v.y, s.w].map(Real::to_bits))
                .collect()
        };
        let impulses = |j: &JointConstraint| {
            let i = &j.impulses;
            [i.linear.x, i.linear.y, i.spring, i.motor, i.lower, i.upper].map(Real::to_bits)
        };
        let (mut limited, mut moved) = (0, 0);
        for seed in 0..60 {
            // Partly filled bundles too: 1 to 21 joints.
            let (joints, states, masses) = scene(seed, 1 + (seed as usize * 5) % 21);
            let step = JointStep {
                h: 1.0 / 240.0,
                inv_h: 240.0,
                soft: Softness::new(60.0, 2.0, 1.0 / 240.0),
                masses: &masses,
            };
            let mut one = joints.clone();
            let by_one = run(&mut one, states.clone(), &step);
            let wide = driven_in_lanes::<Wide>(joints.clone(), states.clone(), &step);
            let scalar = driven_in_lanes::<Scalar>(joints.clone(), states.clone(), &step);
            // The free pins alone (`lane_rank` 0, first in the scene's order) in pin bundles.
            let free = joints.iter().filter(|j| lane_rank(&j.kind) == 0).count();
            let mut one_pins = joints[..free].to_vec();
            let pins_by_one = run(&mut one_pins, states.clone(), &step);
            let pack =
                |b: &mut PinBundle<Wide>, j: &[JointConstraint], r| b.pack(j, r, step.masses);
            // SAFETY: one thread, each joint in one bundle.
            let pins = in_lanes(
                joints[..free].to_vec(),
                states.clone(),
                &step,
                pack,
                |b, j| unsafe { b.unpack(j) },
            );
            assert_eq!(
                bits(&pins.0),
                bits(&pins_by_one),
                "pin lanes, seed {seed}: states"
            );
            for (x, y) in pins.1.iter().zip(&one_pins) {
                assert_eq!(impulses(x), impulses(y), "pin lanes, seed {seed}: impulses");
            }
            for (name, (s, j)) in [("wide", wide), ("scalar", scalar)] {
                assert_eq!(bits(&s), bits(&by_one), "{name} lanes, seed {seed}: states");
                for (x, y) in j.iter().zip(&one) {
                    assert_eq!(
                        impulses(x),
                        impulses(y),
                        "{name} lanes, seed {seed}: impulses"
                    );
                }
            }
            // The hard cases happen: limits pushing, states moved off where they started.
            limited += one
                .iter()
                .zip(&joints)
                .filter(|(after, before)| after.impulses.lower != before.impulses.lower)
                .count();
            moved += usize::from(bits(&by_one) != bits(&states));
        }
        assert!(limited > 20, "only {limited} lower limits acted");
        assert_eq!(moved, 60);
    }
}
