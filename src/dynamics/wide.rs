//! The wide contact solver: the soft-step solver's passes (`solver.rs`) run on [`LANES`] (eight)
//! constraints at once, one per SIMD lane (after Box2D v3's `contact_solver.c`,
//! `b2ContactConstraintSIMD`).
//!
//! The constraint graph is coloured (`graph.rs`) so that no two constraints of one colour share a
//! body that impulses move; a colour's constraints are packed eight at a time into [`Bundle`]s in
//! struct-of-arrays form. A pass over a bundle gathers its bodies' states into lanes (rows of four
//! values, transposed), solves the eight constraints side by side and scatters the velocities
//! back: with no body shared within a colour, this is exactly the sequential solve of those
//! constraints, in any order.
//!
//! The arithmetic is written once, generic over [`Lanes`]: [`Wide`] (two `wide::f64x4`: two AVX
//! registers where the target has AVX, four SSE2 halves otherwise, NEON on ARM) and [`Scalar`]
//! (eight plain `f64`s) perform the same IEEE operations in the same order, so both give
//! bit-identical results (tested in `world/solve.rs`). Lanes with no constraint (the tail of a
//! colour) have zero masses and move nothing.
//!
//! Bundles reach the body states through [`SharedStates`], so that the bundles of one colour can
//! run on several threads at once (`stages.rs`): a bundle writes back only the bodies that impulses
//! move, which no other bundle of its colour touches; static and kinematic bodies are only read.

use crate::dynamics::constraint::{BodyState, ConstraintPoint, ContactConstraint, Pass};
use crate::dynamics::stages::SharedSlice;
use crate::math::{Real, Vec2};
use core::ops::{Add, Mul, Sub};

/// Constraints per bundle.
pub(crate) const LANES: usize = 8;

/// [`LANES`] `f64` lanes with the few operations the solver needs. Implementations must give each lane
/// exactly the IEEE result of the scalar operation.
pub(crate) trait Lanes:
    Copy + Default + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    /// Every lane `x`.
    fn splat(x: Real) -> Self;
    /// Lanes to an array.
    fn to_array(self) -> [Real; LANES];
    /// Per lane: `self / other`.
    fn div(self, other: Self) -> Self;
    /// Per lane: `-self` (the sign flipped, zeros included).
    fn neg(self) -> Self;
    /// Per lane: `if self > other { then } else { otherwise }`.
    fn gt_select(self, other: Self, then: Self, otherwise: Self) -> Self;
    /// Lane `i` set to `f(i)`.
    fn from_fn(f: impl Fn(usize) -> Real) -> Self;
    /// Lanes from one row of four values per lane: lane `i` of result `j` is `rows[i][j]`.
    fn transpose(rows: [[Real; 4]; LANES]) -> [Self; 4];
    /// The inverse of [`Lanes::transpose`].
    fn rows(columns: [Self; 4]) -> [[Real; 4]; LANES];
}

/// The SIMD lanes: two `wide::f64x4` (one AVX register each, or two SSE2 halves), so that every
/// operation issues two independent instructions. A bundle's solve is one long dependent chain
/// per body pair (each point's impulse changes the velocities the next point reads); two halves
/// in flight at once keep the core busy where one chain would wait on latency.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Wide(wide::f64x4, wide::f64x4);

macro_rules! wide_op {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline(always)]
            fn $f(self, o: Wide) -> Wide {
                Wide(self.0 $op o.0, self.1 $op o.1)
            }
        }
    };
}
wide_op!(Add, add, +);
wide_op!(Sub, sub, -);
wide_op!(Mul, mul, *);

impl Lanes for Wide {
    #[inline(always)]
    fn splat(x: Real) -> Self {
        let h = wide::f64x4::splat(x);
        Wide(h, h)
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        Wide(self.0 / o.0, self.1 / o.1)
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Wide(-self.0, -self.1)
    }
    #[inline(always)]
    fn to_array(self) -> [Real; LANES] {
        let (lo, hi) = (self.0.to_array(), self.1.to_array());
        core::array::from_fn(|i| if i < 4 { lo[i] } else { hi[i - 4] })
    }
    #[inline(always)]
    fn gt_select(self, other: Self, then: Self, otherwise: Self) -> Self {
        Wide(
            self.0.simd_gt(other.0).select(then.0, otherwise.0),
            self.1.simd_gt(other.1).select(then.1, otherwise.1),
        )
    }
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> Real) -> Self {
        Wide(
            wide::f64x4::new([f(0), f(1), f(2), f(3)]),
            wide::f64x4::new([f(4), f(5), f(6), f(7)]),
        )
    }
    #[inline(always)]
    fn transpose(rows: [[Real; 4]; LANES]) -> [Self; 4] {
        let half = |k: usize| {
            wide::f64x4::transpose(core::array::from_fn(|i| wide::f64x4::new(rows[k + i])))
        };
        let (lo, hi) = (half(0), half(4));
        core::array::from_fn(|j| Wide(lo[j], hi[j]))
    }
    #[inline(always)]
    fn rows(columns: [Self; 4]) -> [[Real; 4]; LANES] {
        let lo = wide::f64x4::transpose(columns.map(|c| c.0)).map(wide::f64x4::to_array);
        let hi = wide::f64x4::transpose(columns.map(|c| c.1)).map(wide::f64x4::to_array);
        core::array::from_fn(|i| if i < 4 { lo[i] } else { hi[i - 4] })
    }
}

/// Scalar lanes: the portable reference path, bit-identical to [`Wide`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Scalar(pub [Real; LANES]);

macro_rules! scalar_op {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for Scalar {
            type Output = Scalar;
            #[inline(always)]
            fn $f(self, o: Scalar) -> Scalar {
                Scalar(core::array::from_fn(|i| self.0[i] $op o.0[i]))
            }
        }
    };
}
scalar_op!(Add, add, +);
scalar_op!(Sub, sub, -);
scalar_op!(Mul, mul, *);

impl Lanes for Scalar {
    #[inline(always)]
    fn splat(x: Real) -> Self {
        Scalar([x; LANES])
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        Scalar(core::array::from_fn(|i| self.0[i] / o.0[i]))
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Scalar(self.0.map(|x| -x))
    }
    #[inline(always)]
    fn to_array(self) -> [Real; LANES] {
        self.0
    }
    #[inline(always)]
    fn gt_select(self, other: Self, then: Self, otherwise: Self) -> Self {
        Scalar(core::array::from_fn(|i| {
            if self.0[i] > other.0[i] {
                then.0[i]
            } else {
                otherwise.0[i]
            }
        }))
    }
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> Real) -> Self {
        Scalar(core::array::from_fn(f))
    }
    #[inline(always)]
    fn transpose(rows: [[Real; 4]; LANES]) -> [Self; 4] {
        core::array::from_fn(|j| Scalar(core::array::from_fn(|i| rows[i][j])))
    }
    #[inline(always)]
    fn rows(columns: [Self; 4]) -> [[Real; 4]; LANES] {
        core::array::from_fn(|i| core::array::from_fn(|j| columns[j].0[i]))
    }
}

/// `x` where positive, else zero.
#[inline(always)]
fn positive_part<L: Lanes>(x: L) -> L {
    let zero = L::default();
    x.gt_select(zero, x, zero)
}

/// A 2D vector in lanes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct V2<L> {
    pub x: L,
    pub y: L,
}

impl<L: Lanes> V2<L> {
    #[inline(always)]
    fn dot(self, o: Self) -> L {
        self.x * o.x + self.y * o.y
    }
    /// `self × o` (z of the 3D cross product).
    #[inline(always)]
    pub(crate) fn cross(self, o: Self) -> L {
        self.x * o.y - self.y * o.x
    }

    /// `k · self`.
    #[inline(always)]
    fn scaled(self, k: L) -> Self {
        V2 {
            x: k * self.x,
            y: k * self.y,
        }
    }

    /// The tangent of a contact normal: the normal turned a quarter clockwise, `(n.y, −n.x)`.
    #[inline(always)]
    fn tangent(self) -> Self {
        V2 {
            x: self.y,
            y: L::default() - self.x,
        }
    }
}

/// One manifold point of a bundle's constraints (see `ConstraintPoint`): hot fields first.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PointLanes<L> {
    ra: V2<L>,
    rb: V2<L>,
    base_separation: L,
    normal_mass: L,
    tangent_mass: L,
    normal_impulse: L,
    tangent_impulse: L,
    max_normal_impulse: L,
    /// Every normal impulse applied over the step (see `ConstraintPoint`).
    total_normal_impulse: L,
    relative_velocity: L,
}

/// [`LANES`] contact constraints of one colour, lane by lane (see `ContactConstraint`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bundle<L> {
    /// Solver state index of each lane's body A and B (0, the static entry, for empty lanes);
    /// checked against the state count by `pack`, so the passes index states unchecked.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Bit `lane` set when impulses move that lane's body A (B): the states written back.
    moves_a: u8,
    moves_b: u8,
    mass: MassLanes<L>,
    normal: V2<L>,
    friction: L,
    bias_rate: L,
    mass_scale: L,
    impulse_scale: L,
    points: [PointLanes<L>; 2],
    /// How many of `points` some lane uses (the most points of its constraints): the passes
    /// skip the rest, whose lanes are all empty (zero masses and impulses).
    used: usize,
    restitution: L,
    /// Whether some lane has restitution (the restitution pass skips the bundle otherwise).
    bounces: bool,
    /// The constraint (index into the constraint array) in each lane; `u32::MAX` for empty lanes.
    pub source: [u32; LANES],
}

/// Inverse masses (1/kg) and inertias (1/(kg·m²)) of a bundle's bodies A and B.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MassLanes<L> {
    /// Inverse mass along x and y (a translation lock zeroes one; equal otherwise).
    pub inv_mass_a: V2<L>,
    pub inv_inertia_a: L,
    pub inv_mass_b: V2<L>,
    pub inv_inertia_b: L,
}

/// The velocities of a bundle's bodies A and B while its constraints are solved.
#[derive(Clone, Copy)]
pub(crate) struct Velocities<L> {
    pub va: V2<L>,
    pub wa: L,
    pub vb: V2<L>,
    pub wb: L,
}

impl<L: Lanes> Velocities<L> {
    /// Velocity of B's point at `rb` relative to A's point at `ra`.
    #[inline(always)]
    fn relative(&self, ra: V2<L>, rb: V2<L>) -> V2<L> {
        let (ca, cb) = (cross_sv(self.wa, ra), cross_sv(self.wb, rb));
        V2 {
            x: self.vb.x + cb.x - self.va.x - ca.x,
            y: self.vb.y + cb.y - self.va.y - ca.y,
        }
    }

    /// Applies an impulse `j` to B (and `−j` to A) at anchors `ra`, `rb`.
    #[inline(always)]
    pub(crate) fn apply(&mut self, mass: &MassLanes<L>, ra: V2<L>, rb: V2<L>, j: V2<L>) {
        self.va.x = self.va.x - mass.inv_mass_a.x * j.x;
        self.va.y = self.va.y - mass.inv_mass_a.y * j.y;
        self.wa = self.wa - mass.inv_inertia_a * ra.cross(j);
        self.vb.x = self.vb.x + mass.inv_mass_b.x * j.x;
        self.vb.y = self.vb.y + mass.inv_mass_b.y * j.y;
        self.wb = self.wb + mass.inv_inertia_b * rb.cross(j);
    }
}

/// Body velocities and step motion in lanes.
pub(crate) struct BodyLanes<L> {
    pub v: V2<L>,
    pub w: L,
    pub dp: V2<L>,
    pub cos: L,
    pub sin: L,
}

/// The solver's body states, shared by the bundles of one colour while they run, possibly on
/// several threads: each bundle reads its bodies and writes back the ones impulses move.
pub(crate) type SharedStates<'a> = SharedSlice<'a, BodyState>;

/// The states of one body per lane: each body's velocities and its motion are loaded as two
/// rows of four and transposed.
///
/// # Safety
/// The indices are in bounds (checked by `Bundle::pack`), and no other thread writes the states
/// they name meanwhile.
#[inline(always)]
pub(crate) unsafe fn gather<L: Lanes>(
    states: &SharedStates<'_>,
    index: &[u32; LANES],
) -> BodyLanes<L> {
    // SAFETY: the caller's contract.
    let s: [&BodyState; LANES] = core::array::from_fn(|i| unsafe { states.get(index[i]) });
    let [vx, vy, w, _] = L::transpose(s.map(|s| [s.v.x, s.v.y, s.w, s.spare]));
    let [dpx, dpy, cos, sin] = L::transpose(s.map(|s| [s.dp.x, s.dp.y, s.dq.cos, s.dq.sin]));
    BodyLanes {
        v: V2 { x: vx, y: vy },
        w,
        dp: V2 { x: dpx, y: dpy },
        cos,
        sin,
    }
}

/// Writes the velocities of the lanes set in `moves` back. The other lanes' bodies are ones that
/// impulses do not move (static, kinematic, empty lanes; zero inverse masses): their velocities
/// are unchanged, and other bundles may be reading them.
///
/// # Safety
/// The indices are in bounds (checked by `Bundle::pack`), and no other thread reads or writes the
/// states of the lanes set in `moves` meanwhile.
#[inline(always)]
pub(crate) unsafe fn scatter<L: Lanes>(
    states: &SharedStates<'_>,
    index: &[u32; LANES],
    moves: u8,
    v: V2<L>,
    w: L,
) {
    let rows = L::rows([v.x, v.y, w, L::default()]);
    for (i, [vx, vy, w, _]) in rows.into_iter().enumerate() {
        if moves & (1 << i) == 0 {
            continue;
        }
        // SAFETY: the caller's contract.
        let s = unsafe { states.get_mut(index[i]) };
        s.v.x = vx;
        s.v.y = vy;
        s.w = w;
    }
}

/// The mask with bit `lane` set where `f(lane)`.
pub(crate) fn lane_mask(f: impl Fn(usize) -> bool) -> u8 {
    (0..LANES)
        .filter(|&lane| f(lane))
        .fold(0, |m, lane| m | 1 << lane)
}

/// Rotates `r` by the rotation `(cos, sin)`.
#[inline(always)]
pub(crate) fn rotate<L: Lanes>(cos: L, sin: L, r: V2<L>) -> V2<L> {
    V2 {
        x: cos * r.x - sin * r.y,
        y: sin * r.x + cos * r.y,
    }
}

/// `ω × r`.
#[inline(always)]
fn cross_sv<L: Lanes>(w: L, r: V2<L>) -> V2<L> {
    V2 {
        x: L::default() - w * r.y,
        y: w * r.x,
    }
}

impl<L: Lanes> Bundle<L> {
    /// Packs up to [`LANES`] prepared constraints (`constraints[k]` for each `k` of `members`) into
    /// this bundle, which must be empty (`Default`): the lanes past `members.len()` stay empty
    /// (zero masses: they move nothing). `state_count` is the number of solver states: every
    /// constraint's body indices must be below it (checked).
    pub fn pack(&mut self, constraints: &[ContactConstraint], members: &[u32], state_count: usize) {
        debug_assert!(!members.is_empty() && members.len() <= LANES);
        // Points past a constraint's count are zero (see `build_constraints`), and empty lanes
        // read the empty constraint: every field is one gather of eight values, no branches.
        let c: [&ContactConstraint; LANES] = core::array::from_fn(|lane| {
            members
                .get(lane)
                .map_or(&ContactConstraint::EMPTY, |&k| &constraints[k as usize])
        });
        let lanes = |f: fn(&ContactConstraint) -> Real| L::from_fn(|lane| f(c[lane]));
        let point = |j: usize| {
            let p = |f: fn(&ConstraintPoint) -> Real| L::from_fn(|lane| f(&c[lane].points[j]));
            PointLanes {
                ra: V2 {
                    x: p(|p| p.anchor_a.x),
                    y: p(|p| p.anchor_a.y),
                },
                rb: V2 {
                    x: p(|p| p.anchor_b.x),
                    y: p(|p| p.anchor_b.y),
                },
                base_separation: p(|p| p.base_separation),
                normal_mass: p(|p| p.normal_mass),
                tangent_mass: p(|p| p.tangent_mass),
                normal_impulse: p(|p| p.normal_impulse),
                tangent_impulse: p(|p| p.tangent_impulse),
                max_normal_impulse: L::default(),
                total_normal_impulse: L::default(),
                relative_velocity: p(|p| p.relative_velocity),
            }
        };
        assert!(
            c.iter().all(|c| c.a < state_count && c.b < state_count),
            "a contact constraint names a body state past the solver's"
        );
        *self = Bundle {
            a: core::array::from_fn(|lane| c[lane].a as u32),
            b: core::array::from_fn(|lane| c[lane].b as u32),
            moves_a: lane_mask(|lane| c[lane].mass_a.responds()),
            moves_b: lane_mask(|lane| c[lane].mass_b.responds()),
            mass: MassLanes {
                inv_mass_a: V2 {
                    x: lanes(|c| c.mass_a.linear_along(Vec2::X)),
                    y: lanes(|c| c.mass_a.linear_along(Vec2::Y)),
                },
                inv_inertia_a: lanes(|c| c.mass_a.angular),
                inv_mass_b: V2 {
                    x: lanes(|c| c.mass_b.linear_along(Vec2::X)),
                    y: lanes(|c| c.mass_b.linear_along(Vec2::Y)),
                },
                inv_inertia_b: lanes(|c| c.mass_b.angular),
            },
            normal: V2 {
                x: lanes(|c| c.normal.x),
                y: lanes(|c| c.normal.y),
            },
            friction: lanes(|c| c.friction),
            bias_rate: lanes(|c| c.soft.bias_rate),
            mass_scale: lanes(|c| c.soft.mass_scale),
            impulse_scale: lanes(|c| c.soft.impulse_scale),
            points: [point(0), point(1)],
            used: c.iter().map(|c| c.count).max().unwrap_or(0).min(2),
            restitution: lanes(|c| c.restitution),
            bounces: c.iter().any(|c| c.restitution != 0.0),
            source: core::array::from_fn(|lane| members.get(lane).copied().unwrap_or(u32::MAX)),
        };
    }

    /// Writes the accumulated impulses back to the constraints the lanes came from (their indices
    /// were checked by `pack`, which read them).
    ///
    /// # Safety
    /// `constraints` is the array `pack` read, and no other thread reads or writes those
    /// constraints meanwhile (each constraint is in one bundle: bundles may unpack at once).
    pub unsafe fn unpack(&self, constraints: &SharedSlice<'_, ContactConstraint>) {
        for (j, pt) in self.points[..self.used].iter().enumerate() {
            let (ni, ti, mi, total) = (
                pt.normal_impulse.to_array(),
                pt.tangent_impulse.to_array(),
                pt.max_normal_impulse.to_array(),
                pt.total_normal_impulse.to_array(),
            );
            for lane in 0..LANES {
                let k = self.source[lane];
                if k == u32::MAX {
                    continue;
                }
                // SAFETY: the caller's contract.
                let c = unsafe { constraints.get_mut(k) };
                if j < c.count {
                    let p = &mut c.points[j];
                    p.normal_impulse = ni[lane];
                    p.tangent_impulse = ti[lane];
                    p.max_normal_impulse = mi[lane];
                    p.total_normal_impulse = total[lane];
                }
            }
        }
    }

    /// The states of the bundle's bodies A and B, and their velocities to solve with.
    ///
    /// # Safety
    /// As [`Bundle::solve`].
    #[inline(always)]
    unsafe fn bodies(
        &self,
        states: &SharedStates<'_>,
    ) -> (BodyLanes<L>, BodyLanes<L>, Velocities<L>) {
        // SAFETY: the caller's contract.
        let (a, b) = unsafe { (gather::<L>(states, &self.a), gather::<L>(states, &self.b)) };
        let v = Velocities {
            va: a.v,
            wa: a.w,
            vb: b.v,
            wb: b.w,
        };
        (a, b, v)
    }

    /// Writes solved velocities back to the bundle's bodies that impulses move.
    ///
    /// # Safety
    /// As [`Bundle::solve`].
    #[inline(always)]
    unsafe fn write(&self, states: &SharedStates<'_>, v: &Velocities<L>) {
        // SAFETY: the caller's contract.
        unsafe {
            scatter(states, &self.a, self.moves_a, v.va, v.wa);
            scatter(states, &self.b, self.moves_b, v.vb, v.wb);
        }
    }

    /// Applies the accumulated impulses (warm start).
    ///
    /// # Safety
    /// As [`Bundle::solve`].
    #[inline(always)]
    pub unsafe fn warm_start(&mut self, states: &SharedStates<'_>) {
        // SAFETY: the caller's contract.
        let (_, _, mut v) = unsafe { self.bodies(states) };
        let (n, t) = (self.normal, self.normal.tangent());
        for p in &mut self.points[..self.used] {
            p.total_normal_impulse = p.total_normal_impulse + p.normal_impulse;
            let impulse = V2 {
                x: p.normal_impulse * n.x + p.tangent_impulse * t.x,
                y: p.normal_impulse * n.y + p.tangent_impulse * t.y,
            };
            v.apply(&self.mass, p.ra, p.rb, impulse);
        }
        // SAFETY: the caller's contract.
        unsafe { self.write(states, &v) };
    }

    /// One solve (`pass.use_bias`) or relax pass over the bundle's constraints: non-penetration, then
    /// Coulomb friction, as `solver.rs`'s scalar loop.
    ///
    /// # Safety
    /// While it runs, no other thread writes a state this bundle reads, or reads or writes a state
    /// it moves: other threads run only bundles of the same colour.
    #[inline(always)]
    pub unsafe fn solve(&mut self, states: &SharedStates<'_>, pass: &Pass) {
        // SAFETY: the caller's contract.
        let (a, b, mut v) = unsafe { self.bodies(states) };
        let zero = L::default();
        let one = L::splat(1.0);
        let (n, t) = (self.normal, self.normal.tangent());
        let d = V2 {
            x: b.dp.x - a.dp.x,
            y: b.dp.y - a.dp.y,
        };
        let inv_h = L::splat(pass.inv_h);
        let (soft_bias, soft_mass, soft_impulse) = if pass.use_bias {
            (self.bias_rate, self.mass_scale, self.impulse_scale)
        } else {
            (zero, one, zero)
        };
        let min_bias = L::splat(-pass.push_velocity);
        let mass = self.mass;
        for p in &mut self.points[..self.used] {
            let (pa, pb) = (rotate(a.cos, a.sin, p.ra), rotate(b.cos, b.sin, p.rb));
            let gap = V2 {
                x: d.x + pb.x - pa.x,
                y: d.y + pb.y - pa.y,
            };
            let s = n.dot(gap) + p.base_separation;
            let vn = v.relative(p.ra, p.rb).dot(n);
            // A speculative gap is closed exactly; an overlap pushed out softly (biased pass).
            let soft_target = (soft_bias * s).gt_select(min_bias, soft_bias * s, min_bias);
            let bias = s.gt_select(zero, s * inv_h, soft_target);
            let mass_scale = s.gt_select(zero, one, soft_mass);
            let impulse_scale = s.gt_select(zero, zero, soft_impulse);
            let impulse =
                zero - p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
            let new_impulse = positive_part(p.normal_impulse + impulse);
            let applied = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse =
                applied.gt_select(p.max_normal_impulse, applied, p.max_normal_impulse);
            p.total_normal_impulse = p.total_normal_impulse + applied;
            v.apply(&mass, p.ra, p.rb, n.scaled(applied));
        }
        for p in &mut self.points[..self.used] {
            let vt = v.relative(p.ra, p.rb).dot(t);
            let max = self.friction * p.normal_impulse;
            let min = zero - max;
            let wanted = p.tangent_impulse - p.tangent_mass * vt;
            let limited = wanted.gt_select(max, max, min.gt_select(wanted, min, wanted));
            let applied = limited - p.tangent_impulse;
            p.tangent_impulse = limited;
            v.apply(&mass, p.ra, p.rb, t.scaled(applied));
        }
        // SAFETY: the caller's contract.
        unsafe { self.write(states, &v) };
    }

    /// Restitution: for points that closed faster than `threshold` (m/s) and were pushed, restore
    /// `restitution ×` the closing speed.
    ///
    /// # Safety
    /// As [`Bundle::solve`].
    #[inline(always)]
    pub unsafe fn restitution(&mut self, states: &SharedStates<'_>, threshold: Real) {
        if !self.bounces {
            return;
        }
        // SAFETY: the caller's contract.
        let (_, _, mut v) = unsafe { self.bodies(states) };
        let zero = L::default();
        let n = self.normal;
        let below = L::splat(-threshold);
        let mass = self.mass;
        for p in &mut self.points[..self.used] {
            // Lanes that bounce: restitution, closed fast, pushed.
            let fast = p.relative_velocity.gt_select(below, zero, L::splat(1.0));
            let pushed = p.max_normal_impulse.gt_select(zero, fast, zero);
            let bouncy = self.restitution.gt_select(zero, pushed, zero);
            let vn = v.relative(p.ra, p.rb).dot(n);
            let impulse = zero - p.normal_mass * (vn + self.restitution * p.relative_velocity);
            let new_impulse = positive_part(p.normal_impulse + impulse);
            let applied = bouncy.gt_select(zero, new_impulse - p.normal_impulse, zero);
            p.normal_impulse = p.normal_impulse + applied;
            p.max_normal_impulse =
                applied.gt_select(p.max_normal_impulse, applied, p.max_normal_impulse);
            p.total_normal_impulse = p.total_normal_impulse + applied;
            v.apply(&mass, p.ra, p.rb, n.scaled(applied));
        }
        // SAFETY: the caller's contract.
        unsafe { self.write(states, &v) };
    }
}
