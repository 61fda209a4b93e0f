//! The contact solver: sequential impulses with soft constraints and substepping ("soft step",
//! after Box2D v3's `solver.c` and `contact_solver.c`, and Catto's "Solver2D" comparison).
//!
//! Per step of `dt`, with `n` substeps of `h = dt/n`:
//!
//! ```text
//! prepare: anchors, effective masses, closing speed (for restitution), warm-start impulses
//! repeat n times:
//!     integrate velocities (gravity, forces, damping) over h
//!     warm start: apply the accumulated impulses (joints, then contacts)
//!     solve  (with bias): joints (`joint/`), then soft non-penetration + Coulomb
//!            friction, accumulated-impulse clamping
//!     integrate positions over h
//!     relax  (no bias): remove the velocity the soft bias added (joints, then contacts)
//! restitution: for points that closed faster than the threshold, restore e × that speed
//! store impulses for the next step's warm start
//! ```
//!
//! The soft constraint is a damped spring (stiffness `CONTACT_HERTZ`, damping ratio
//! `CONTACT_DAMPING_RATIO`) written as a bias velocity and a mass/impulse scale, which is stable
//! for any mass ratio and lets a large pyramid settle without jitter. Overlap is recovered no faster
//! than `CONTACT_PUSH_MAX_VELOCITY`; a positive gap is *speculative*: the constraint only allows the
//! bodies to close it exactly. Separation is tracked within the step from the bodies' position
//! deltas, so points need no re-collision between substeps.
//!
//! Other solvers can replace this one by implementing [`ContactSolver`] over the same constraints.

use crate::dynamics::constraint::{
    BodySim, BodyState, ConstraintPoint, ContactConstraint, Pass, Softness,
};
use crate::dynamics::contact_math::{inverse_effective_mass, relative_velocity, InverseMass};
use crate::dynamics::graph::Colouring;
use crate::dynamics::joint::{DrivenBundle, JointConstraint, JointStep, PinBundle};
use crate::dynamics::stages::{self, SharedSlice, Stage};
use crate::dynamics::wide::{Bundle, Lanes, Scalar, Wide, LANES};
use crate::math::Vec2;
use crate::math::{Real, Rot};
use core::ops::Range;

/// Solver settings for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverSettings<'a> {
    pub dt: Real,
    pub substeps: u32,
    pub contact_hertz: Real,
    pub damping_ratio: Real,
    pub push_velocity: Real,
    pub restitution_threshold: Real,
    /// Constraints (indices) between a body that a kinematic body presses on and the static world:
    /// after every pass they are solved again rigidly (see [`hold_out`]).
    pub pinned: &'a [usize],
    /// The softness of the joints' rigid parts over a substep.
    pub joint_soft: Softness,
    /// The joints' stages, as ranges of the joints given to [`ContactSolver::solve`]: the
    /// overflow (solved alone), then each colour (`graph.rs`: the joints of one colour share no
    /// body that moves). Empty without joints.
    pub joint_ranges: &'a [Range<u32>],
    /// How many free pins, and after them revolute joints with a drive, begin each of
    /// `joint_ranges` (`joint/wide.rs`; none in the overflow): they are solved [`LANES`] at a
    /// time.
    pub joint_pins: &'a [(u32, u32)],
    /// Each solver state's inverse masses (index 0, the shared static entry: none).
    pub masses: &'a [InverseMass],
}

/// A contact solver over the shared constraint type, so solvers can be swapped and compared.
pub(crate) trait ContactSolver {
    /// Advances `states` (with their cold data `sims`, same indices) by one step, solving
    /// `constraints`.
    fn solve(
        &mut self,
        settings: &SolverSettings<'_>,
        states: &mut [BodyState],
        sims: &mut [BodySim],
        constraints: &mut [ContactConstraint],
        joints: &mut [JointConstraint],
    );
}

/// The soft-step solver described in the module notes, on the coloured wide path (`graph.rs`,
/// `wide.rs`) with the scalar loop for the overflow, run as a list of stages (`stages.rs`) that
/// may share out over threads.
#[derive(Clone, Debug, Default)]
pub(crate) struct SoftStepSolver {
    colouring: Colouring,
    /// Every colour's constraints, colour after colour (what the bundles pack).
    order: Vec<u32>,
    /// Each bundle's constraints: a range of `order`.
    members: Vec<(u32, u32)>,
    /// This step's stages.
    stages: Vec<Stage<Op>>,
    /// Bundles of [`Wide`] lanes, colour after colour.
    wide: Vec<Bundle<Wide>>,
    /// The same bundles on [`Scalar`] lanes, when `scalar_lanes` is set.
    scalar: Vec<Bundle<Scalar>>,
    /// Each pin bundle's and each driven bundle's joints: a range of the joints given to
    /// [`ContactSolver::solve`].
    pin_members: Vec<(u32, u32)>,
    driven_members: Vec<(u32, u32)>,
    /// What the joint stages run over: pin bundles, driven bundles and single joints, colour
    /// after colour.
    joint_units: Vec<JointUnit>,
    /// The joint stages' ranges of `joint_units` (the overflow, then each colour).
    unit_ranges: Vec<Range<u32>>,
    /// Free pins and driven revolute joints on [`Wide`] lanes (or [`Scalar`] ones, with
    /// `scalar_lanes`), colour after colour.
    wide_pins: Vec<PinBundle<Wide>>,
    scalar_pins: Vec<PinBundle<Scalar>>,
    wide_driven: Vec<DrivenBundle<Wide>>,
    scalar_driven: Vec<DrivenBundle<Scalar>>,
    /// Run the bundles on scalar lanes instead of SIMD (bit-identical; for tests).
    pub scalar_lanes: bool,
    /// Solve every constraint one by one, in colour order, instead of in bundles (for tests).
    #[cfg(test)]
    pub one_by_one: bool,
}

/// The bundles a step's solve packs, on lanes `L`: the contacts', the free pins', the driven
/// revolute joints'.
type JointLanes<'v, L> = (
    &'v mut Vec<Bundle<L>>,
    &'v mut Vec<PinBundle<L>>,
    &'v mut Vec<DrivenBundle<L>>,
);

/// One item of a joint stage: a bundle of free pins (index into the pin bundles), of driven
/// revolute joints (index into the driven bundles), or one joint solved alone (index into the
/// joints).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JointUnit {
    Pins(u32),
    Driven(u32),
    One(u32),
}

/// The work of one solver stage (see `stages.rs`); the items it runs over are in brackets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// Effective masses, softness, closing speeds [constraints].
    Prepare,
    /// Constraints into lanes [bundles].
    Pack,
    /// Gravity, forces, damping over a substep [states].
    IntegrateVelocities,
    /// Motion over a substep [states].
    IntegratePositions,
    /// Warm start [bundles of one colour].
    WarmStart,
    /// Biased pass [bundles of one colour].
    Solve,
    /// Relaxing pass [bundles of one colour].
    Relax,
    /// Restitution [bundles of one colour].
    Restitution,
    /// Impulses back to the constraints [bundles].
    Unpack,
    /// The overflow's warm start, biased pass, relaxing pass, restitution (alone).
    WarmStartOverflow,
    SolveOverflow,
    RelaxOverflow,
    RestitutionOverflow,
    /// Revolute joints into lanes [pin bundles, then driven bundles].
    PackJointBundles,
    /// The joints' warm start, biased pass and relaxing pass [joint units of one colour, or the
    /// joints' overflow alone], before the contacts.
    WarmStartJoints,
    SolveJoints,
    RelaxJoints,
    /// The revolute joints' impulses back to the joints [pin bundles, then driven bundles].
    UnpackJointBundles,
    /// `hold_out` after the biased / relaxing pass (alone).
    HoldOutSolve,
    HoldOutRelax,
}

/// Fewest bundles for which the solver shares out over threads: below it, one thread is faster.
pub(crate) const PARALLEL_MIN_BUNDLES: usize = 64;

/// A step's work in bundles, for [`PARALLEL_MIN_BUNDLES`]: its `bundles`, with its `joints`
/// counted as a lane of a bundle each (about what one costs).
fn parallel_work(bundles: usize, joints: usize) -> usize {
    bundles + joints / LANES
}

impl ContactSolver for SoftStepSolver {
    fn solve(
        &mut self,
        settings: &SolverSettings<'_>,
        states: &mut [BodyState],
        sims: &mut [BodySim],
        constraints: &mut [ContactConstraint],
        joints: &mut [JointConstraint],
    ) {
        if self.scalar_lanes {
            let mut bundles = core::mem::take(&mut self.scalar);
            let mut pins = core::mem::take(&mut self.scalar_pins);
            let mut driven = core::mem::take(&mut self.scalar_driven);
            let lanes = (&mut bundles, &mut pins, &mut driven);
            self.solve_lanes(settings, states, sims, constraints, joints, lanes);
            (self.scalar, self.scalar_pins, self.scalar_driven) = (bundles, pins, driven);
        } else {
            let mut bundles = core::mem::take(&mut self.wide);
            let mut pins = core::mem::take(&mut self.wide_pins);
            let mut driven = core::mem::take(&mut self.wide_driven);
            let lanes = (&mut bundles, &mut pins, &mut driven);
            self.solve_lanes(settings, states, sims, constraints, joints, lanes);
            (self.wide, self.wide_pins, self.wide_driven) = (bundles, pins, driven);
        }
    }
}

impl SoftStepSolver {
    /// The last step's work, as [`parallel_work`] counts it, for a step with `joints` joints.
    #[cfg(all(test, feature = "parallel"))]
    pub fn work(&self, joints: usize) -> usize {
        parallel_work(self.wide.len().max(self.scalar.len()), joints)
    }

    /// The solver of the module notes with bundles on lanes `L`.
    fn solve_lanes<L: Lanes + Send + Sync>(
        &mut self,
        settings: &SolverSettings<'_>,
        states: &mut [BodyState],
        sims: &mut [BodySim],
        constraints: &mut [ContactConstraint],
        joints: &mut [JointConstraint],
        (bundles, pins, driven): JointLanes<'_, L>,
    ) {
        let n = settings.substeps.max(1);
        let h = settings.dt / n as Real;
        let inv_h = 1.0 / h;
        let hertz = settings.contact_hertz.min(0.25 * n as Real / settings.dt);
        let soft = Softness::new(hertz, settings.damping_ratio, h);
        let static_soft = Softness::new(2.0 * hertz, settings.damping_ratio, h);
        // Constraints of pinned bodies are re-solved rigidly after every pass (`hold_out`): they
        // stay in the scalar overflow.
        self.colouring
            .build(constraints, states.len(), settings.pinned);
        #[cfg(test)]
        if self.one_by_one {
            let colours = &mut self.colouring.colours;
            self.colouring
                .overflow
                .extend(colours.iter().flatten().copied());
            colours.iter_mut().for_each(Vec::clear);
        }
        // Bundles: eight constraints of one colour each, colour after colour. Within a colour the
        // two-point constraints come first: a bundle whose lanes all have one point skips the
        // second (in a settled pile of mixed shapes three constraints in four have one point).
        // The constraints of a colour share no body that moves, so their order within it does
        // not change what the solver computes.
        self.order.clear();
        self.members.clear();
        let mut colour_bundles = Vec::with_capacity(self.colouring.colours.len());
        for colour in &self.colouring.colours {
            let first = self.members.len() as u32;
            let start = self.order.len();
            let points = |k: u32| constraints[k as usize].count;
            self.order
                .extend(colour.iter().copied().filter(|&k| points(k) > 1));
            self.order
                .extend(colour.iter().copied().filter(|&k| points(k) <= 1));
            for from in (start..self.order.len()).step_by(LANES) {
                let to = (from + LANES).min(self.order.len());
                self.members.push((from as u32, to as u32));
            }
            colour_bundles.push(first..self.members.len() as u32);
        }
        // Every bundle is packed whole: last step's are reused as they are (no clearing copy).
        bundles.resize(self.members.len(), Bundle::default());
        self.joint_units(settings);
        pins.resize(self.pin_members.len(), PinBundle::default());
        driven.resize(self.driven_members.len(), DrivenBundle::default());
        let threads = if parallel_work(bundles.len(), joints.len()) >= PARALLEL_MIN_BUNDLES {
            stages::thread_count()
        } else {
            1
        };
        self.build_stages(
            n,
            threads,
            constraints.len(),
            states.len(),
            &colour_bundles,
            settings,
        );

        let pass = |use_bias| Pass {
            inv_h,
            push_velocity: settings.push_velocity,
            use_bias,
            rigid: false,
        };
        let data = StageData {
            states: SharedSlice::new(states),
            sims: SharedSlice::new(sims),
            constraints: SharedSlice::new(constraints),
            bundles: SharedSlice::new(&mut bundles[..]),
            joints: SharedSlice::new(joints),
            pins: SharedSlice::new(&mut pins[..]),
            pin_members: &self.pin_members[..],
            driven: SharedSlice::new(&mut driven[..]),
            driven_members: &self.driven_members[..],
            joint_units: &self.joint_units[..],
            joint_step: JointStep {
                h,
                inv_h,
                soft: settings.joint_soft,
                masses: settings.masses,
            },
            overflow: &self.colouring.overflow[..],
            pinned: settings.pinned,
            order: &self.order[..],
            members: &self.members[..],
            soft,
            static_soft,
            solve: pass(true),
            relax: pass(false),
            threshold: settings.restitution_threshold,
            h,
        };
        // SAFETY: the stages run one after the other; the blocks of one stage touch disjoint
        // items (constraints, bundles, joints, states by range), the bundles (and the joints) of
        // one colour move disjoint bodies and read no body another moves (colouring), and a stage
        // of an overflow or `hold_out` runs alone (one block). What a stage only reads, none of
        // its blocks writes.
        let run = |op: Op, items: Range<usize>| unsafe { data.run(op, items) };
        stages::run_stages(&self.stages, threads, &run);
    }

    /// The joint stages' units (`joint_units`, `unit_ranges`) and the bundles' joints
    /// (`pin_members`, `driven_members`): in each colour its free pins, then its revolute joints
    /// with a drive (which `settings.joint_pins` counts at the start of its range), [`LANES`] at a
    /// time, then its other joints one by one.
    fn joint_units(&mut self, settings: &SolverSettings<'_>) {
        self.joint_units.clear();
        self.unit_ranges.clear();
        self.pin_members.clear();
        self.driven_members.clear();
        for (range, &(pins, driven)) in settings.joint_ranges.iter().zip(settings.joint_pins) {
            let first = self.joint_units.len() as u32;
            let (driven_start, singles) = (range.start + pins, range.start + pins + driven);
            for from in (range.start..driven_start).step_by(LANES) {
                let bundle = self.pin_members.len() as u32;
                self.pin_members
                    .push((from, (from + LANES as u32).min(driven_start)));
                self.joint_units.push(JointUnit::Pins(bundle));
            }
            for from in (driven_start..singles).step_by(LANES) {
                let bundle = self.driven_members.len() as u32;
                self.driven_members
                    .push((from, (from + LANES as u32).min(singles)));
                self.joint_units.push(JointUnit::Driven(bundle));
            }
            self.joint_units
                .extend((singles..range.end).map(JointUnit::One));
            self.unit_ranges.push(first..self.joint_units.len() as u32);
        }
    }

    /// This step's stages: the module notes' sequence, with the overflows (solved one by one,
    /// before the colours) and `hold_out` as stages that run alone.
    fn build_stages(
        &mut self,
        substeps: u32,
        threads: usize,
        constraint_count: usize,
        state_count: usize,
        colour_bundles: &[Range<u32>],
        settings: &SolverSettings<'_>,
    ) {
        // About four blocks per thread, so a thread that falls behind leaves work to the others.
        let over = |items: Range<u32>, op: Op, min_block: u32| Stage {
            block: (items.end - items.start)
                .div_ceil(4 * threads as u32)
                .max(min_block),
            items,
            op,
        };
        let bundle_count = self.members.len() as u32;
        let joint_bundles = (self.pin_members.len() + self.driven_members.len()) as u32;
        let overflow = !self.colouring.overflow.is_empty();
        let pinned = !settings.pinned.is_empty();
        let stages = &mut self.stages;
        stages.clear();
        stages.push(over(0..constraint_count as u32, Op::Prepare, 64));
        stages.push(over(0..bundle_count, Op::Pack, 8));
        if joint_bundles > 0 {
            stages.push(over(0..joint_bundles, Op::PackJointBundles, 16));
        }
        let colours = |stages: &mut Vec<Stage<Op>>, op: Op| {
            for range in colour_bundles.iter().filter(|r| !r.is_empty()) {
                stages.push(over(range.clone(), op, 4));
            }
        };
        let alone = |stages: &mut Vec<Stage<Op>>, on: bool, op: Op| {
            if on {
                stages.push(Stage::alone(op));
            }
        };
        // The joints' overflow (the first range) runs alone, as one block; their colours share out.
        let unit_ranges = &self.unit_ranges;
        let joints = |stages: &mut Vec<Stage<Op>>, op: Op| {
            for (k, range) in unit_ranges.iter().enumerate() {
                if range.is_empty() {
                    continue;
                }
                stages.push(if k == 0 {
                    Stage {
                        op,
                        items: range.clone(),
                        block: range.end - range.start,
                    }
                } else {
                    over(range.clone(), op, 16)
                });
            }
        };
        let bodies = 1..state_count as u32; // past the shared static entry
        for _ in 0..substeps {
            stages.push(over(bodies.clone(), Op::IntegrateVelocities, 256));
            joints(stages, Op::WarmStartJoints);
            alone(stages, overflow, Op::WarmStartOverflow);
            colours(stages, Op::WarmStart);
            joints(stages, Op::SolveJoints);
            alone(stages, overflow, Op::SolveOverflow);
            colours(stages, Op::Solve);
            alone(stages, pinned, Op::HoldOutSolve);
            stages.push(over(bodies.clone(), Op::IntegratePositions, 256));
            // Both passes go overflow first, then colour by colour. (Relaxing in the reverse order,
            // which cancels the one-by-one loop's Gauss–Seidel bias to first order, unsettles
            // coloured stacks: the 100-row pyramid ends with 1.4 J of kinetic energy, not 9e-3 J.)
            joints(stages, Op::RelaxJoints);
            alone(stages, overflow, Op::RelaxOverflow);
            colours(stages, Op::Relax);
            alone(stages, pinned, Op::HoldOutRelax);
        }
        alone(stages, overflow, Op::RestitutionOverflow);
        colours(stages, Op::Restitution);
        stages.push(over(0..bundle_count, Op::Unpack, 8));
        if joint_bundles > 0 {
            stages.push(over(0..joint_bundles, Op::UnpackJointBundles, 16));
        }
    }
}

/// `x` limited to `[-limit, limit]` (`limit ≥ 0`), without `f64::clamp`'s checks.
#[inline(always)]
fn limit(x: Real, limit: Real) -> Real {
    if x > limit {
        limit
    } else if x < -limit {
        -limit
    } else {
        x
    }
}

fn prepare(
    states: &[BodyState],
    constraints: &mut [ContactConstraint],
    soft: Softness,
    static_soft: Softness,
) {
    for c in constraints.iter_mut() {
        let (sa, sb) = (&states[c.a], &states[c.b]);
        let (ma, mb) = (c.mass_a, c.mass_b);
        c.soft = if ma.linear == 0.0 || mb.linear == 0.0 {
            static_soft
        } else {
            soft
        };
        let n = c.normal;
        let t = Vec2::new(n.y, -n.x);
        for p in &mut c.points[..c.count] {
            let (ra, rb) = (p.anchor_a, p.anchor_b);
            let kn = inverse_effective_mass(ma, ra, mb, rb, n);
            p.normal_mass = if kn > 0.0 { 1.0 / kn } else { 0.0 };
            let kt = inverse_effective_mass(ma, ra, mb, rb, t);
            p.tangent_mass = if kt > 0.0 { 1.0 / kt } else { 0.0 };
            let dv = relative_velocity(sa.v, sa.w, ra, sb.v, sb.w, rb);
            p.relative_velocity = n.dot(dv);
            p.max_normal_impulse = 0.0;
            p.total_normal_impulse = 0.0;
        }
    }
}

/// Velocities after one substep of gravity, forces and damping, held to the engine's speed limits
/// (`body_input::clamp_speeds`) (bodies of a range past the shared static entry). Kinematic bodies have the static
/// entry's terms (no change, damping factor 1), so their prescribed velocity stays exactly as is.
fn integrate_velocities(states: &mut [BodyState], sims: &[BodySim]) {
    for (s, sim) in states.iter_mut().zip(sims) {
        (s.v, s.w) = crate::dynamics::body_input::clamp_speeds(
            sim.dv + sim.linear_damping * s.v,
            sim.dw + sim.angular_damping * s.w,
        );
    }
}

/// Moves bodies by one substep `h` (never the shared static entry, index 0: not in the range).
fn integrate_positions(states: &mut [BodyState], sims: &mut [BodySim], h: Real) {
    for (s, sim) in states.iter_mut().zip(sims) {
        s.dp += h * s.v;
        let turn = h * s.w;
        if turn != 0.0 {
            sim.angle += turn;
            // Exact rotation: spinning bodies may turn many radians in one substep.
            s.dq = Rot::turn(turn).mul_rot(s.dq);
        }
    }
}

/// Applies `impulse` at offsets `ra`, `rb` of constraint `c`'s bodies (−impulse to A, +impulse
/// to B); bodies that do not respond (static, kinematic) are not written.
#[inline]
fn apply(states: &mut [BodyState], c: &ContactConstraint, ra: Vec2, rb: Vec2, impulse: Vec2) {
    if c.mass_a.responds() {
        let (dv, dw) = c.mass_a.response(ra, impulse);
        let sa = &mut states[c.a];
        sa.v -= dv;
        sa.w -= dw;
    }
    if c.mass_b.responds() {
        let (dv, dw) = c.mass_b.response(rb, impulse);
        let sb = &mut states[c.b];
        sb.v += dv;
        sb.w += dw;
    }
}

fn warm_start(states: &mut [BodyState], constraints: &mut [ContactConstraint], members: &[u32]) {
    for &k in members {
        let c = &mut constraints[k as usize];
        let n = c.normal;
        let t = Vec2::new(n.y, -n.x);
        for k in 0..c.count {
            let p = &mut c.points[k];
            p.total_normal_impulse += p.normal_impulse;
            let impulse = p.normal_impulse * n + p.tangent_impulse * t;
            let (ra, rb) = (p.anchor_a, p.anchor_b);
            apply(states, c, ra, rb, impulse);
        }
    }
}

/// Local copies of a constraint's two body velocities while its points are solved.
struct PairVelocity {
    va: Vec2,
    wa: Real,
    vb: Vec2,
    wb: Real,
}

impl PairVelocity {
    /// Velocity of B's material point at point `p` relative to A's (m/s, world).
    #[inline(always)]
    fn relative(&self, p: &ConstraintPoint) -> Vec2 {
        relative_velocity(self.va, self.wa, p.anchor_a, self.vb, self.wb, p.anchor_b)
    }

    /// Applies an impulse `j` (N·s) on B, and `−j` on A, at point `p`'s anchors.
    #[inline(always)]
    fn push(&mut self, ma: InverseMass, mb: InverseMass, p: &ConstraintPoint, j: Vec2) {
        let ((dva, dwa), (dvb, dwb)) = (ma.response(p.anchor_a, j), mb.response(p.anchor_b, j));
        self.va -= dva;
        self.wa -= dwa;
        self.vb += dvb;
        self.wb += dwb;
    }
}

/// One pass over the constraints `members`, in order.
fn solve_contacts(
    states: &mut [BodyState],
    constraints: &mut [ContactConstraint],
    members: &[u32],
    pass: &Pass,
) {
    for &k in members {
        let c = &mut constraints[k as usize];
        let n = c.normal;
        let t = Vec2::new(n.y, -n.x);
        let (a, b) = (c.a, c.b);
        // Work on local copies of both bodies' state; write back once.
        let sa = states[a];
        let sb = states[b];
        let (ma, mb) = (c.mass_a, c.mass_b);
        let mut v = PairVelocity {
            va: sa.v,
            wa: sa.w,
            vb: sb.v,
            wb: sb.w,
        };
        let d = sb.dp - sa.dp;
        // Non-penetration.
        for p in &mut c.points[..c.count] {
            let s = separation(&sa, &sb, d, n, p);
            let vn = v.relative(p).dot(n);
            let applied = pass.normal_impulse(p, s, vn, &c.soft);
            v.push(ma, mb, p, applied * n);
        }
        // Coulomb friction, bounded by each point's normal impulse.
        for p in &mut c.points[..c.count] {
            let vt = v.relative(p).dot(t);
            let impulse = -p.tangent_mass * vt;
            let max = c.friction * p.normal_impulse;
            let new_impulse = limit(p.tangent_impulse + impulse, max);
            let applied = new_impulse - p.tangent_impulse;
            p.tangent_impulse = new_impulse;
            v.push(ma, mb, p, applied * t);
        }
        // Bodies that do not respond (static, kinematic) are not written: no false dependency.
        if ma.responds() {
            states[a].v = v.va;
            states[a].w = v.wa;
        }
        if mb.responds() {
            states[b].v = v.vb;
            states[b].w = v.wb;
        }
    }
}

/// The static world wins over kinematic bodies: a body pressed by a kinematic body into a static
/// one has no motion that satisfies both contacts (a blade sweeping down onto the ground), and
/// the soft solver would settle on a compromise that drives it into the ground a little more at
/// every substep, until its push-out turns the other way and it falls through. So after every
/// pass its static contacts are solved once more, rigidly (full effective mass, the pass's
/// target: close a speculative gap exactly, leave an overlap at up to the push velocity): its
/// velocity into the static body is undone and the kinematic body passes it instead.
fn hold_out(
    states: &mut [BodyState],
    constraints: &mut [ContactConstraint],
    pinned: &[usize],
    pass: &Pass,
) {
    for &k in pinned {
        let n = constraints[k].normal;
        for i in 0..constraints[k].count {
            let c = &mut constraints[k];
            let (sa, sb) = (states[c.a], states[c.b]);
            let p = &mut c.points[i];
            let (ra, rb) = (p.anchor_a, p.anchor_b);
            let s = separation(&sa, &sb, sb.dp - sa.dp, n, p);
            let vn = relative_velocity(sa.v, sa.w, ra, sb.v, sb.w, rb).dot(n);
            let applied = pass.normal_impulse(p, s, vn, &c.soft);
            apply(states, &constraints[k], ra, rb, applied * n);
        }
    }
}

/// Current separation (metres) of a constraint point whose bodies have moved by `d = dpB − dpA`
/// and turned by their `dq` in this step: `(d + rB' − rA')·n + base_separation`.
#[inline(always)]
fn separation(sa: &BodyState, sb: &BodyState, d: Vec2, n: Vec2, p: &ConstraintPoint) -> Real {
    n.dot(d + sb.dq.rotate(p.anchor_b) - sa.dq.rotate(p.anchor_a)) + p.base_separation
}

fn apply_restitution(
    states: &mut [BodyState],
    constraints: &mut [ContactConstraint],
    members: &[u32],
    threshold: Real,
) {
    for &k in members {
        let c = &mut constraints[k as usize];
        if c.restitution == 0.0 {
            continue;
        }
        let n = c.normal;
        for k in 0..c.count {
            let p = &mut c.points[k];
            // Only points that closed fast and actually pushed.
            if p.relative_velocity > -threshold || p.max_normal_impulse == 0.0 {
                continue;
            }
            let (ra, rb) = (p.anchor_a, p.anchor_b);
            let (sa, sb) = (&states[c.a], &states[c.b]);
            let dv = relative_velocity(sa.v, sa.w, ra, sb.v, sb.w, rb);
            let vn = dv.dot(n);
            let impulse = -p.normal_mass * (vn + c.restitution * p.relative_velocity);
            let new_impulse = (p.normal_impulse + impulse).max(0.0);
            let applied = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            p.total_normal_impulse += applied;
            apply(states, c, ra, rb, applied * n);
        }
    }
}

/// What the stages of one step share: the buffers they split among their blocks (through
/// [`SharedSlice`]), the bundles' membership, and the step's coefficients (substep `h` in
/// seconds, softness, the two passes, the restitution threshold in m/s).
struct StageData<'a, L: Lanes> {
    states: SharedSlice<'a, BodyState>,
    sims: SharedSlice<'a, BodySim>,
    constraints: SharedSlice<'a, ContactConstraint>,
    bundles: SharedSlice<'a, Bundle<L>>,
    joints: SharedSlice<'a, JointConstraint>,
    /// The free pins in lanes, each bundle's joints (a range of `joints`), and the joint stages'
    /// items.
    pins: SharedSlice<'a, PinBundle<L>>,
    pin_members: &'a [(u32, u32)],
    driven: SharedSlice<'a, DrivenBundle<L>>,
    driven_members: &'a [(u32, u32)],
    joint_units: &'a [JointUnit],
    /// What the joints share over a substep.
    joint_step: JointStep<'a>,
    overflow: &'a [u32],
    pinned: &'a [usize],
    order: &'a [u32],
    members: &'a [(u32, u32)],
    soft: Softness,
    static_soft: Softness,
    solve: Pass,
    relax: Pass,
    threshold: Real,
    h: Real,
}

impl<L: Lanes> StageData<'_, L> {
    /// Runs stage `op` on its items `items` (constraints, bundles or states, by stage).
    ///
    /// # Safety
    /// As [`SharedSlice`]'s accessors: no other block of the same stage touches these items, and
    /// what this stage reads, no block writes (see `solve_lanes`).
    unsafe fn run(&self, op: Op, items: Range<usize>) {
        let (states, constraints, bundles) = (&self.states, &self.constraints, &self.bundles);
        let (overflow, pinned) = (self.overflow, self.pinned);
        match op {
            Op::Prepare => prepare(
                states.all(),
                constraints.slice_mut(items),
                self.soft,
                self.static_soft,
            ),
            Op::Pack => {
                for j in items {
                    let (start, end) = self.members[j];
                    bundles.get_mut(j as u32).pack(
                        constraints.all(),
                        &self.order[start as usize..end as usize],
                        states.len(),
                    );
                }
            }
            Op::IntegrateVelocities => {
                integrate_velocities(states.slice_mut(items.clone()), self.sims.slice_mut(items))
            }
            Op::IntegratePositions => integrate_positions(
                states.slice_mut(items.clone()),
                self.sims.slice_mut(items),
                self.h,
            ),
            Op::WarmStart => bundles
                .slice_mut(items)
                .iter_mut()
                .for_each(|b| b.warm_start(states)),
            Op::Solve => bundles
                .slice_mut(items)
                .iter_mut()
                .for_each(|b| b.solve(states, &self.solve)),
            Op::Relax => bundles
                .slice_mut(items)
                .iter_mut()
                .for_each(|b| b.solve(states, &self.relax)),
            Op::Restitution => bundles
                .slice_mut(items)
                .iter_mut()
                .for_each(|b| b.restitution(states, self.threshold)),
            Op::Unpack => bundles
                .slice_mut(items)
                .iter()
                .for_each(|b| b.unpack(constraints)),
            Op::WarmStartOverflow => warm_start(states.all_mut(), constraints.all_mut(), overflow),
            Op::SolveOverflow => solve_contacts(
                states.all_mut(),
                constraints.all_mut(),
                overflow,
                &self.solve,
            ),
            Op::RelaxOverflow => solve_contacts(
                states.all_mut(),
                constraints.all_mut(),
                overflow,
                &self.relax,
            ),
            Op::RestitutionOverflow => apply_restitution(
                states.all_mut(),
                constraints.all_mut(),
                overflow,
                self.threshold,
            ),
            Op::PackJointBundles => {
                let (pins, joints, step) =
                    (self.pin_members.len(), self.joints.all(), &self.joint_step);
                for k in items {
                    if k < pins {
                        self.pins
                            .get_mut(k as u32)
                            .pack(joints, self.pin_members[k], step.masses);
                    } else {
                        let members = self.driven_members[k - pins];
                        let bundle = self.driven.get_mut((k - pins) as u32);
                        bundle.pack(joints, members, step.masses, step.h);
                    }
                }
            }
            // The joints of one colour move disjoint bodies and read none another moves; the
            // overflow's run alone.
            Op::WarmStartJoints => {
                let step = &self.joint_step;
                for &unit in &self.joint_units[items] {
                    match unit {
                        JointUnit::Pins(k) => self.pins.get(k).warm_start(states),
                        JointUnit::Driven(k) => self.driven.get_mut(k).warm_start(states),
                        JointUnit::One(j) => self.joints.get(j).warm_start(states, step),
                    }
                }
            }
            Op::SolveJoints | Op::RelaxJoints => {
                let (use_bias, step) = (op == Op::SolveJoints, &self.joint_step);
                for &unit in &self.joint_units[items] {
                    match unit {
                        JointUnit::Pins(k) => {
                            self.pins.get_mut(k).solve(states, use_bias, &step.soft);
                        }
                        JointUnit::Driven(k) => {
                            self.driven.get_mut(k).solve(states, use_bias, step)
                        }
                        JointUnit::One(j) => self.joints.get_mut(j).solve(states, use_bias, step),
                    }
                }
            }
            Op::UnpackJointBundles => {
                let pins = self.pin_members.len();
                for k in items {
                    if k < pins {
                        self.pins.get(k as u32).unpack(&self.joints);
                    } else {
                        self.driven.get((k - pins) as u32).unpack(&self.joints);
                    }
                }
            }
            Op::HoldOutSolve => {
                hold_out(states.all_mut(), constraints.all_mut(), pinned, &self.solve)
            }
            Op::HoldOutRelax => {
                hold_out(states.all_mut(), constraints.all_mut(), pinned, &self.relax)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_turns_match_the_library_rotation_to_an_ulp() {
        for k in -2000..=2000 {
            let angle = k as Real * 1e-5 + 1e-9 * (k as Real).sin();
            let (sin, cos) = angle.sin_cos();
            let r = Rot::turn(angle);
            assert!(
                (r.sin - sin).abs() <= 2.0 * Real::EPSILON * sin.abs(),
                "{angle}"
            );
            assert!((r.cos - cos).abs() <= Real::EPSILON, "{angle}");
        }
        // Past the Taylor range: the library call.
        assert_eq!(Rot::turn(0.5), Rot::from_angle(0.5));
    }
}
