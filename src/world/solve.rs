//! Stage 3 of the step: the solver, in named stages around the soft-step solver
//! (`dynamics/solver.rs`).
//!
//! ```text
//! gather_states      one hot state per moving body (awake dynamic and kinematic), index 0 shared
//!                    by every static body; gravity, forces and damping as per-substep terms;
//!                    each state's inverse masses in a short array of their own
//! build_constraints  one constraint per manifold of the contacts the solver owns this step, with
//!                    the two bodies' state indices and inverse masses (from that array: the
//!                    bodies' own records are not read per contact)
//! SoftStepSolver     substeps: integrate, warm start, solve, relax; restitution
//! store_impulses     accumulated impulses back to the manifolds (next step's warm start); pairs
//!                    apart at the start that the solver pushed on: contact begins
//! finalize_poses     velocities and end poses back to the bodies; angles turned, for the
//!                    continuous pass
//! ```

use super::body_set::BodySet;
use super::clock::Clock;
use super::contact_set::ContactSet;
use super::events::JointEvent;
use super::events::StepEvents;
use super::hooks::{ContactHooks, PreSolve, Verdicts};
use super::joints::JointSet;
use super::sleep::{find, union};
use super::WorldConfig;
use crate::dynamics::constraint::{
    BodySim, BodyState, ConstraintPoint, ContactConstraint, Softness,
};
use crate::dynamics::contact_math::InverseMass;
use crate::dynamics::graph::Colouring;
use crate::dynamics::joint::{lane_rank, JointConstraint, JointStep};
use crate::dynamics::solver::{ContactSolver, SoftStepSolver, SolverSettings};
use crate::dynamics::BodyKind;
use crate::math::{Real, Transform};
use crate::query::MAX_MANIFOLD_POINTS;
use core::ops::Range;

/// The solver's reused buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct SolverBuffers {
    /// Hot states; index 0 is the shared static entry.
    states: Vec<BodyState>,
    /// Cold data, indexed like `states`.
    sims: Vec<BodySim>,
    /// Each moving body's inverse masses, indexed like `states` (index 0, the shared static entry:
    /// none). Read per constraint from this short array instead of from the bodies, whose records
    /// are far larger and scattered.
    masses: Vec<InverseMass>,
    constraints: Vec<ContactConstraint>,
    /// The state index of each body, by key (0 for static bodies and free keys).
    state_of: Vec<u32>,
    /// Constraints between a body a kinematic body presses on and a static body (`hold_out`).
    pinned: Vec<usize>,
    /// Per body key: pressed by a kinematic body this step.
    pressed: Vec<bool>,
    /// `find_pinned`'s union–find parents by body key, and per group root the kinematic body the
    /// group touches (`u32::MAX`: none) and whether something else immovable holds it.
    press_parent: Vec<u32>,
    press_kinematic: Vec<u32>,
    press_held: Vec<bool>,
    /// `find_pinned`'s copy of every body's kind, by key: its walks over the contacts read two
    /// kinds per contact, and the bodies' own records are large and scattered.
    press_kinds: Vec<BodyKind>,
    /// Whether the world has a kinematic body this step (`find_pinned` has nothing to do
    /// otherwise).
    any_kinematic: bool,
    /// The contact solver and its buffers (colouring, bundles).
    solver: SoftStepSolver,
    /// The joints prepared for this step, overflow first, then colour after colour
    /// (`joint_ranges`).
    joints: Vec<JointConstraint>,
    /// The joints' colouring (a graph of their own: the solver takes the joints before the
    /// contacts), their slots in storage order with their two solver entries and lane rank
    /// (`lane_rank`), this step's edges
    /// (the solver entries each joint moves, `None` for a body it does not), the edges the
    /// order was computed from, their order by colour (indices into `joint_slots`), and the
    /// ranges of `joints` the solver's joint stages run over.
    joint_colouring: Colouring,
    joint_slots: Vec<(u32, u32, u32, u8)>,
    joint_edges: Vec<(Option<u32>, Option<u32>)>,
    coloured_edges: Vec<(Option<u32>, Option<u32>)>,
    joint_order: Vec<u32>,
    joint_ranges: Vec<Range<u32>>,
    /// How many free pins, and after them revolute joints with a drive (`joint/wide.rs`, solved
    /// in lanes), begin each range of `joint_ranges` (none in the overflow's).
    joint_pins: Vec<(u32, u32)>,
    /// The softness of the joints' rigid parts over a substep, this step.
    joint_soft: Softness,
}

impl SolverBuffers {
    /// Per body key, whether a kinematic body presses on it this step (a manifold point with it,
    /// or with a body so pressed); empty when no body is pressed.
    pub(super) fn pressed(&self) -> &[bool] {
        &self.pressed
    }
}

/// Runs stage 3: see the module notes.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve(
    config: &WorldConfig,
    bodies: &mut BodySet,
    contacts: &mut ContactSet,
    joints: &mut JointSet,
    (solver, verdicts, angles): (&mut SolverBuffers, &mut Verdicts, &mut Vec<Real>),
    events: &mut StepEvents,
    clock: &Clock,
    hooks: Option<&mut (dyn ContactHooks + '_)>,
) {
    gather_states(config, bodies, solver);
    let hooked = hooks.map(|h| (h, verdicts));
    build_constraints(contacts, bodies, solver, hooked);
    build_joints(config, joints, bodies, solver);
    find_pinned(contacts, bodies, joints, config.dt, solver);
    let settings = SolverSettings {
        dt: config.dt,
        substeps: config.substeps,
        contact_hertz: config.contact_hertz,
        damping_ratio: config.contact_damping_ratio,
        push_velocity: config.contact_push_velocity,
        restitution_threshold: config.restitution_threshold,
        pinned: &solver.pinned,
        joint_soft: solver.joint_soft,
        joint_ranges: &solver.joint_ranges,
        joint_pins: &solver.joint_pins,
        masses: &solver.masses,
    };
    solver.solver.solve(
        &settings,
        &mut solver.states,
        &mut solver.sims,
        &mut solver.constraints,
        &mut solver.joints,
    );
    store_impulses(&solver.constraints, contacts, bodies, events, clock);
    store_joints(config, joints, bodies, solver, events, clock);
    finalize_poses(bodies, solver, angles);
}

/// One state per moving body (the moving set: static and sleeping bodies have none), in storage
/// order after the shared static entry.
fn gather_states(config: &WorldConfig, bodies: &BodySet, solver: &mut SolverBuffers) {
    let h = config.dt / config.substeps as Real;
    solver.states.clear();
    solver.sims.clear();
    solver.masses.clear();
    solver.states.push(BodyState::STATIC);
    solver.sims.push(BodySim::STATIC);
    solver.masses.push(InverseMass::default());
    solver.state_of.clear();
    solver.state_of.resize(bodies.key_bound(), 0);
    solver.any_kinematic = false;
    for (key, b) in bodies.iter_moving() {
        let sim = match b.kind {
            BodyKind::Static => continue, // (never in the moving set)
            BodyKind::Kinematic => {
                solver.any_kinematic = true;
                BodySim::STATIC
            }
            BodyKind::Dynamic => BodySim {
                dv: {
                    let dv = h * (b.gravity_scale * config.gravity + b.inv_mass * b.force);
                    // Along a locked axis nothing accelerates the body (`BodyDef::lock_x`).
                    if b.lock_x || b.lock_y {
                        dv * b.free_axes()
                    } else {
                        dv
                    }
                },
                dw: h * b.inv_inertia * b.torque,
                linear_damping: 1.0 / (1.0 + h * b.linear_damping),
                angular_damping: 1.0 / (1.0 + h * b.angular_damping),
                angle: 0.0,
            },
        };
        solver.state_of[key as usize] = solver.states.len() as u32;
        solver.states.push(BodyState {
            v: b.linear_velocity,
            w: b.angular_velocity,
            ..BodyState::STATIC
        });
        solver.sims.push(sim);
        solver.masses.push(b.inverse_mass());
    }
}

/// One constraint per manifold with points, for contacts that are not bounces (those are the
/// continuous pass's impacts, see `PairContact::bounce`).
fn build_constraints(
    contacts: &ContactSet,
    bodies: &BodySet,
    solver: &mut SolverBuffers,
    mut hooks: Option<(&mut (dyn ContactHooks + '_), &mut Verdicts)>,
) {
    solver.constraints.clear();
    // (A parked contact rests on both sides: it has no constraint.)
    for (ci, c) in contacts.active().iter().enumerate() {
        if c.bounce {
            continue;
        }
        if solver.state_of[c.a as usize] == 0 && solver.state_of[c.b as usize] == 0 {
            continue; // static or asleep on both sides
        }
        for (mi, m) in c.manifolds.iter().enumerate() {
            if m.count == 0 {
                continue;
            }
            let (mut friction, mut restitution) = (m.friction, m.restitution);
            if let Some((hooks, verdicts)) = hooks.as_mut() {
                let (ba, bb) = (bodies.at(c.a), bodies.at(c.b));
                let deepest = m.points[..m.count]
                    .iter()
                    .min_by(|p, q| p.separation.total_cmp(&q.separation))
                    .expect("a manifold with points");
                let offer = PreSolve {
                    shape_a: bodies.shape_id(c.a, m.piece_a as usize),
                    shape_b: bodies.shape_id(c.b, m.piece_b as usize),
                    normal: m.normal,
                    point: deepest.point,
                    separation: deepest.separation,
                    transform_a: ba.transform(),
                    transform_b: bb.transform(),
                    velocity_a: ba.linear_velocity,
                    velocity_b: bb.linear_velocity,
                    friction,
                    restitution,
                    impact: false,
                };
                match verdicts.ask(&mut **hooks, offer) {
                    Some((f, r)) => (friction, restitution) = (f, r),
                    None => continue, // disabled for this step
                }
            }
            let mut points = [ConstraintPoint::default(); MAX_MANIFOLD_POINTS];
            for (dst, src) in points.iter_mut().zip(&m.points[..m.count]) {
                *dst = ConstraintPoint {
                    anchor_a: src.anchor_a,
                    anchor_b: src.anchor_b,
                    base_separation: src.separation - (src.anchor_b - src.anchor_a).dot(m.normal),
                    normal_impulse: src.normal_impulse,
                    tangent_impulse: src.tangent_impulse,
                    ..Default::default()
                };
            }
            let (sa, sb) = (
                solver.state_of[c.a as usize] as usize,
                solver.state_of[c.b as usize] as usize,
            );
            solver.constraints.push(ContactConstraint {
                a: sa,
                b: sb,
                mass_a: solver.masses[sa],
                mass_b: solver.masses[sb],
                normal: m.normal,
                friction,
                restitution,
                points,
                count: m.count,
                soft: Default::default(),
                source: (ci, mi),
            });
        }
    }
}

/// The bodies a kinematic body presses on, and the constraints between those and static bodies:
/// the solver holds such bodies out of the static world (`hold_out`), and the continuous pass trusts
/// their contacts with immovable bodies to the solver only within the slop (`docs/continuous.md`,
/// "Pinned bodies").
///
/// A body is pressed when, through pairs of dynamic bodies with manifold points (a stack under a
/// blade), it touches a kinematic body *and* something else that does not give way: a static body,
/// a second kinematic body, or a joint to either. Only then can it be squeezed. Bodies that touch
/// one kinematic body and nothing else immovable (boxes tumbling in a turning drum) can always move
/// with it, as one rigid body: the solver's contacts hold them, and they are not pressed.
fn find_pinned(
    contacts: &ContactSet,
    bodies: &BodySet,
    joints: &JointSet,
    dt: Real,
    solver: &mut SolverBuffers,
) {
    solver.pinned.clear();
    solver.pressed.clear();
    if !solver.any_kinematic {
        return;
    }
    let mut kinds = std::mem::take(&mut solver.press_kinds);
    kinds.clear();
    kinds.resize(bodies.key_bound(), BodyKind::Static);
    for (k, b) in bodies.iter() {
        kinds[k as usize] = b.kind;
    }
    mark_pressed(contacts, bodies, joints, dt, solver, &kinds);
    solver.press_kinds = kinds;
}

/// [`find_pinned`] once the world has a kinematic body, with every body's kind by key.
fn mark_pressed(
    contacts: &ContactSet,
    bodies: &BodySet,
    joints: &JointSet,
    dt: Real,
    solver: &mut SolverBuffers,
    kinds: &[BodyKind],
) {
    let kind = |k: u32| kinds[k as usize];
    let with = |c: &crate::dynamics::contact::PairContact, other: BodyKind| {
        (kind(c.a) == other)
            .then_some(c.b)
            .or((kind(c.b) == other).then_some(c.a))
    };
    let touching = || contacts.active().iter().filter(|c| c.has_points());
    if !touching().any(|c| with(c, BodyKind::Kinematic).is_some()) {
        return;
    }
    // The groups of dynamic bodies linked by pairs with points or by joints, by union–find (linear
    // in the pairs, however long the chain of bodies).
    let key_bound = bodies.key_bound();
    let parent = &mut solver.press_parent;
    parent.clear();
    parent.extend(0..key_bound as u32);
    let dynamic = |k: u32| kind(k) == BodyKind::Dynamic;
    for c in touching().filter(|c| dynamic(c.a) && dynamic(c.b)) {
        union(parent, c.a, c.b);
    }
    for (_, j) in joints.iter() {
        if let Some(a) = j.body_a.filter(|&a| dynamic(a) && dynamic(j.body_b)) {
            union(parent, a, j.body_b);
        }
    }
    // Per group root: the kinematic body it touches (`NONE`: none yet), and whether it also meets
    // something else immovable.
    const NONE: u32 = u32::MAX;
    let (kinematic, held) = (&mut solver.press_kinematic, &mut solver.press_held);
    kinematic.clear();
    kinematic.resize(key_bound, NONE);
    held.clear();
    held.resize(key_bound, false);
    let mut meets = |parent: &mut Vec<u32>, d: u32, other: Option<u32>| {
        let root = find(parent, d) as usize;
        match other {
            Some(k) if kinematic[root] == NONE || kinematic[root] == k => kinematic[root] = k,
            _ => held[root] = true,
        }
    };
    let pressed = &mut solver.pressed;
    pressed.resize(key_bound, false);
    let mut any = false;
    for c in touching() {
        if let Some(d) = with(c, BodyKind::Kinematic) {
            let k = if d == c.a { c.b } else { c.a };
            // (A kinematic body turning fast presses on what it touches whatever holds it: the
            // solver's contact, linearised at the step's start, follows its turn only to first
            // order, off by up to `reach·(1 − cos ω·dt)` by the step's end.)
            let body = bodies.at(k);
            if body.reach * (1.0 - (body.angular_velocity * dt).cos())
                > crate::constants::LINEAR_SLOP
            {
                pressed[d as usize] = true;
                any = true;
            }
            meets(parent, d, Some(k));
        } else if let Some(d) = with(c, BodyKind::Static) {
            meets(parent, d, None);
        }
    }
    for (_, j) in joints.iter() {
        // (A joint to the world or to a static or kinematic body holds its dynamic body: taken
        // as held even when that kinematic body is the one pressing, which cannot squeeze.)
        let ends = [j.body_a, Some(j.body_b)];
        if let Some(d) = ends.into_iter().flatten().find(|&k| dynamic(k)) {
            if ends.iter().any(|e| e.is_none_or(|k| !dynamic(k))) {
                meets(parent, d, None);
            }
        }
    }
    // Every dynamic body of a group that is held and touches a kinematic body is pressed (each
    // is an end of a pair with points or of a joint).
    let ends = touching().flat_map(|c| [c.a, c.b]).chain(
        joints
            .iter()
            .flat_map(|(_, j)| [j.body_a, Some(j.body_b)])
            .flatten(),
    );
    for k in ends.filter(|&k| dynamic(k)) {
        let root = find(parent, k) as usize;
        if kinematic[root] != NONE && held[root] {
            pressed[k as usize] = true;
            any = true;
        }
    }
    if !any {
        pressed.clear();
        return;
    }
    for (k, c) in solver.constraints.iter().enumerate() {
        let contact = &contacts.as_slice()[c.source.0];
        if with(contact, BodyKind::Static).is_some_and(|d| pressed[d as usize]) {
            solver.pinned.push(k);
        }
    }
}

/// One prepared constraint per joint (see `dynamics/joint/step.rs`), coloured (`graph.rs`) and
/// laid out overflow first, then colour after colour, so that each of the solver's joint stages
/// runs over a contiguous range and the joints of one colour can share out over threads.
fn build_joints(
    config: &WorldConfig,
    joints: &JointSet,
    bodies: &BodySet,
    solver: &mut SolverBuffers,
) {
    solver.joints.clear();
    if joints.len() == 0 {
        solver.joint_ranges.clear();
        solver.joint_pins.clear();
        solver.coloured_edges.clear();
        return;
    }
    let n = config.substeps.max(1) as Real;
    let h = config.dt / n;
    let hertz = config.joint_hertz.min(0.25 * n / config.dt);
    solver.joint_soft = Softness::new(hertz, config.joint_damping_ratio, h);
    let (state_of, masses) = (&solver.state_of, &solver.masses);
    let state = |k: Option<u32>| k.map_or(0, |k| state_of[k as usize]);
    // A body moves under the joint's impulses when its solver entry has mass to respond with
    // (static, kinematic and sleeping bodies do not: they never block a colour).
    let node = |s: u32| masses[s as usize].responds().then_some(s);
    solver.joint_slots.clear();
    solver.joint_edges.clear();
    for (slot, j) in joints.iter() {
        let (a, b) = (state(j.body_a), state(Some(j.body_b)));
        solver
            .joint_slots
            .push((slot as u32, a, b, lane_rank(&j.kind)));
        solver.joint_edges.push((node(a), node(b)));
    }
    // The colouring depends on the edges alone: while the joints and the bodies they move are
    // those of the last step (the common case), its order stands as it is.
    if solver.joint_edges != solver.coloured_edges {
        let edge = |k: Option<u32>| k.map(|k| k as usize);
        let edges = solver.joint_edges.iter().map(|&(a, b)| (edge(a), edge(b)));
        solver.joint_colouring.order(
            edges,
            masses.len(),
            &mut solver.joint_order,
            &mut solver.joint_ranges,
        );
        std::mem::swap(&mut solver.joint_edges, &mut solver.coloured_edges);
    }
    // Within each colour the revolute joints come first, for the solver's lanes
    // (`joint/wide.rs`): the free pins, then those with a drive, then the other kinds. The joints
    // of one colour share no body that moves, so their order within it does not change what the
    // solver computes. The overflow keeps its order: it is solved one by one.
    solver.joint_pins.clear();
    for (colour, range) in solver.joint_ranges.iter().enumerate() {
        let order = &solver.joint_order[range.start as usize..range.end as usize];
        let slots = &solver.joint_slots;
        // (The overflow, colour 0, is solved one by one: all of it ranks with the other kinds.)
        let rank_of = |k: u32| if colour > 0 { slots[k as usize].3 } else { 2 };
        // Rank by rank; the joints of ranks 0 and 1 (free and driven pins) are counted as they
        // are placed.
        let mut counts = [0u32; 3];
        for rank in 0..3u8 {
            for &k in order.iter().filter(|&&k| rank_of(k) == rank) {
                let (slot, a, b, _) = slots[k as usize];
                let j = joints.at(slot as usize);
                let on = (j.body_a.map(|k| bodies.at(k)), bodies.at(j.body_b));
                let states = (a as usize, b as usize);
                let c = JointConstraint::prepare(slot as usize, j, on, states, masses);
                solver.joints.push(c);
                counts[usize::from(rank)] += 1;
            }
        }
        solver.joint_pins.push((counts[0], counts[1]));
    }
}

/// Joints' impulses back for the next step's warm start, their reactions, and the events of those
/// past a threshold.
fn store_joints(
    config: &WorldConfig,
    joints: &mut JointSet,
    bodies: &BodySet,
    solver: &SolverBuffers,
    events: &mut StepEvents,
    clock: &Clock,
) {
    let h = config.dt / config.substeps.max(1) as Real;
    let step = JointStep {
        h,
        inv_h: 1.0 / h,
        soft: solver.joint_soft,
        masses: &solver.masses,
    };
    let first_event = events.joint_events.len();
    for c in &solver.joints {
        let (force, torque) = c.reaction(&solver.states, &step);
        let id = joints.id(c.slot());
        let j = joints.at_mut(c.slot());
        j.impulses = c.impulses;
        j.force = force;
        j.torque = torque;
        if force.length() > j.common.force_threshold || torque.abs() > j.common.torque_threshold {
            events.joint_events.push(JointEvent {
                joint: id,
                body_a: j.body_a.map(|k| bodies.id(k)),
                body_b: bodies.id(j.body_b),
                step: clock.step,
                force: force.length(),
                torque,
            });
        }
    }
    // In slot order, as the joints are stored (the solver took them colour by colour).
    events.joint_events[first_event..].sort_unstable_by_key(|e| e.joint.index);
}

/// Accumulated impulses back to the manifold points they came from (next step's warm start), and
/// the meetings the solver resolved: a pair that was apart at the start of the step (within the
/// speculative distance) but pushed on each other in the solver met during the step, and its
/// contact is reported as begun, so a collision the solver resolved is never silent. One walk
/// over the constraints, each contact visited once.
fn store_impulses(
    constraints: &[ContactConstraint],
    contacts: &mut ContactSet,
    bodies: &BodySet,
    events: &mut StepEvents,
    clock: &Clock,
) {
    let stored = contacts.as_mut_slice();
    for c in constraints {
        let contact = &mut stored[c.source.0];
        let m = &mut contact.manifolds[c.source.1];
        for (dst, src) in m.points[..c.count].iter_mut().zip(&c.points) {
            dst.normal_impulse = src.normal_impulse;
            dst.tangent_impulse = src.tangent_impulse;
            dst.total_normal_impulse = src.total_normal_impulse;
        }
        // Pushed at any time during the step: the accumulated impulse at the end may be back to
        // zero (a fast pair meets in the first substep and has separated by the last).
        if contact.touching {
            continue;
        }
        let Some(k) = c.points[..c.count]
            .iter()
            .position(|p| p.max_normal_impulse > 0.0)
        else {
            continue;
        };
        contact.touching = true;
        let m = &contact.manifolds[c.source.1];
        events.contact_began(
            bodies.shape_id(contact.a, m.piece_a as usize),
            bodies.shape_id(contact.b, m.piece_b as usize),
            clock,
            c.normal,
            m.points[k].point,
        );
    }
}

/// Velocities and end poses back to the moving bodies; the angle each turned, by key.
fn finalize_poses(bodies: &mut BodySet, solver: &SolverBuffers, angles: &mut Vec<Real>) {
    angles.clear();
    angles.resize(bodies.key_bound(), 0.0);
    bodies.for_moving(|key, b| {
        // (Every body of the moving set got a state in `gather_states`.)
        let index = solver.state_of[key as usize] as usize;
        let s = &solver.states[index];
        b.linear_velocity = s.v;
        b.angular_velocity = s.w;
        b.pose = Transform::from_parts(
            b.previous_pose.translation + s.dp,
            s.dq.mul_rot(b.previous_pose.rotation),
        );
        angles[key as usize] = solver.sims[index].angle;
    });
}

#[cfg(test)]
mod tests {
    use crate::analysis::scenes;
    use crate::dynamics::graph::Colouring;
    use crate::math::Vec2;
    use crate::World;

    /// Poses and velocities of every body, as bits.
    fn state_bits(world: &World) -> Vec<[u64; 6]> {
        world
            .bodies
            .iter()
            .map(|(_, b)| {
                let (p, v) = (b.pose, b.linear_velocity);
                [
                    p.translation.x.to_bits(),
                    p.translation.y.to_bits(),
                    p.rotation.sin.to_bits(),
                    v.x.to_bits(),
                    v.y.to_bits(),
                    b.angular_velocity.to_bits(),
                ]
            })
            .collect()
    }

    #[test]
    fn a_kinematic_pusher_presses_a_whole_row_whatever_its_order() {
        // A row of 40 touching boxes on the ground, made from the far end towards the pusher (so
        // a spread in contact order would need a sweep per box), pushed by a kinematic box: every
        // box of the row is pressed, and the boxes of a row elsewhere are not.
        use crate::{BodyDef, BodyKind, Shape, Transform};
        let mut world = World::new(crate::WorldConfig::default());
        let add = |world: &mut World, kind, x: f64, y: f64| {
            world
                .add_body(BodyDef {
                    kind,
                    shape: Shape::rectangle(0.5, 0.5).unwrap(),
                    transform: Transform::new(Vec2::new(x, y), 0.0),
                    ..BodyDef::default()
                })
                .unwrap()
        };
        world
            .add_body(BodyDef {
                kind: BodyKind::Static,
                shape: Shape::rectangle(200.0, 0.5).unwrap(),
                transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
                ..BodyDef::default()
            })
            .unwrap();
        let row: Vec<_> = (0..40)
            .rev()
            .map(|i| add(&mut world, BodyKind::Dynamic, i as f64, 0.5))
            .collect();
        let apart: Vec<_> = (0..5)
            .map(|i| add(&mut world, BodyKind::Dynamic, 100.0 + i as f64, 0.5))
            .collect();
        let pusher = add(&mut world, BodyKind::Kinematic, -1.0, 0.5);
        world
            .set_velocity(pusher, Vec2::new(1.0, 0.0), 0.0)
            .unwrap();
        world.step();
        let pressed = world.buffers.solver.pressed();
        for id in &row {
            assert!(pressed[id.index() as usize], "{id:?} is pressed");
        }
        for id in &apart {
            assert!(!pressed[id.index() as usize], "{id:?} is not");
        }
    }

    #[test]
    fn a_body_is_pressed_only_when_something_else_immovable_holds_its_group() {
        // A floating row of five touching boxes (no gravity) pushed by a kinematic box: the row
        // can move with the pusher, so nothing is pressed. With a second kinematic box at the far
        // end, or the far box pinned to a static body by a joint, the row can be squeezed: every
        // box of it is pressed. A pusher turning at 20 rad/s (its corners 3.9 cm off the
        // linearised contact by the step's end) presses the box it touches, and only that one.
        use crate::{BodyDef, BodyKind, RevoluteJointDef, Shape, Transform};
        /// What the row meets besides the pusher.
        #[derive(PartialEq)]
        enum Far {
            Nothing,
            Kinematic,
            Joint,
            SpinningPusher,
        }
        let pressed_row = |far: Far| {
            let config = crate::WorldConfig {
                gravity: Vec2::ZERO,
                ..Default::default()
            };
            let mut world = World::new(config);
            let mut add = |kind, x: f64| {
                world
                    .add_body(BodyDef {
                        kind,
                        shape: Shape::rectangle(0.5, 0.5).unwrap(),
                        transform: Transform::new(Vec2::new(x, 0.0), 0.0),
                        ..BodyDef::default()
                    })
                    .unwrap()
            };
            let row: Vec<_> = (0..5).map(|i| add(BodyKind::Dynamic, i as f64)).collect();
            let pusher = add(BodyKind::Kinematic, -1.0);
            match far {
                Far::Kinematic => {
                    add(BodyKind::Kinematic, 5.0);
                }
                Far::Joint => {
                    let anchor = add(BodyKind::Static, 4.0);
                    world
                        .add_joint(RevoluteJointDef::new(anchor, row[4], Vec2::new(4.0, 0.0)))
                        .unwrap();
                }
                Far::Nothing | Far::SpinningPusher => {}
            }
            let spin = if far == Far::SpinningPusher {
                20.0
            } else {
                0.0
            };
            world
                .set_velocity(pusher, Vec2::new(1.0, 0.0), spin)
                .unwrap();
            world.step();
            let pressed = world.buffers.solver.pressed();
            row.iter()
                .map(|id| pressed.get(id.index() as usize).copied().unwrap_or(false))
                .collect::<Vec<bool>>()
        };
        assert_eq!(pressed_row(Far::Nothing), [false; 5]);
        assert_eq!(pressed_row(Far::Kinematic), [true; 5]);
        assert_eq!(pressed_row(Far::Joint), [true; 5]);
        let touching_only = [true, false, false, false, false];
        assert_eq!(pressed_row(Far::SpinningPusher), touching_only);
    }

    fn pyramid_after(steps: usize, setup: impl Fn(&mut World)) -> World {
        let mut world = scenes::pyramid(12).world;
        setup(&mut world);
        for _ in 0..steps {
            world.step();
        }
        world
    }

    #[test]
    fn scalar_lanes_match_simd_lanes_bit_for_bit() {
        let wide = pyramid_after(90, |_| {});
        let scalar = pyramid_after(90, |w| w.buffers.solver.solver.scalar_lanes = true);
        assert!(wide.contact_point_count() > 100);
        assert_eq!(state_bits(&wide), state_bits(&scalar));
    }

    #[test]
    fn bundles_solve_as_the_one_by_one_loop_in_colour_order() {
        // Within a colour no moving body is shared, so four lanes at once must give what the
        // scalar loop gives constraint after constraint (up to rounding: the two paths group a few
        // sums differently).
        let wide = pyramid_after(30, |_| {});
        let one = pyramid_after(30, |w| w.buffers.solver.solver.one_by_one = true);
        for ((_, a), (_, b)) in wide.bodies.iter().zip(one.bodies.iter()) {
            let d = (a.pose.translation - b.pose.translation).length();
            let dv = (a.linear_velocity - b.linear_velocity).length();
            assert!(d < 1e-9 && dv < 1e-7, "{d} m, {dv} m/s apart");
        }
    }

    /// The `parallel` feature's promise: a step gives the same bits on any number of threads.
    /// The pyramid exercises the solver's stages (more bundles than the parallel threshold) and
    /// the narrow phase; the falling pile the continuous pass's first sweeps as well; the chains
    /// the joints' colours and the pair search's tasks.
    #[cfg(feature = "parallel")]
    #[test]
    fn steps_are_bit_identical_for_any_thread_count() {
        let run = |threads: usize, scene: fn() -> World, steps: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            pool.install(|| {
                assert_eq!(crate::dynamics::stages::thread_count(), threads);
                let mut world = scene();
                let mut impacts = 0;
                for _ in 0..steps {
                    world.step();
                    impacts += world.events().impacts.len();
                }
                let solver = &world.buffers.solver;
                let work = solver.solver.work(solver.joints.len());
                let shared_out = world.broad_phase.shared_out;
                (state_bits(&world), (work, shared_out), impacts)
            })
        };
        // (Sleep off: the pyramid would be asleep, with no bundles, by the end.)
        fn awake(mut w: World) -> World {
            let mut c = *w.config();
            c.sleep = false;
            w.set_config(c).expect("a valid config");
            w
        }
        let scenes: [(fn() -> World, usize); 3] = [
            (|| awake(scenes::pyramid(30).world), 120),
            (|| awake(scenes::falling_mixed(400).world), 150),
            // 1,200 joints, whose colours share out too.
            (|| awake(scenes::hanging_chains(40, 30).world), 120),
        ];
        let mut shared_pair_searches = 0;
        for (scene, steps) in scenes {
            let (one, (work, _), impacts) = run(1, scene, steps);
            assert!(
                work >= crate::dynamics::solver::PARALLEL_MIN_BUNDLES,
                "{work}"
            );
            for threads in [2, 4] {
                let (many, (_, shared_out), many_impacts) = run(threads, scene, steps);
                if threads == 2 {
                    shared_pair_searches += shared_out;
                }
                assert_eq!(many_impacts, impacts, "{threads} threads");
                assert!(many == one, "{threads} threads: poses differ");
            }
        }
        // The chains' 1,200 links searched their pairs on several threads too.
        assert!(shared_pair_searches > 0, "no pair search shared out");
    }

    /// Manifold point ids of every contact, in contact order.
    fn point_ids(world: &World) -> Vec<(u32, u32, Vec<u32>)> {
        world
            .contacts
            .as_slice()
            .iter()
            .map(|c| {
                let ids = c
                    .manifolds
                    .iter()
                    .flat_map(|m| m.points[..m.count].iter().map(|p| p.id.to_bits()))
                    .collect();
                (c.a, c.b, ids)
            })
            .collect()
    }

    #[test]
    fn flush_stacked_boxes_keep_their_point_ids_and_impulses() {
        // Equal boxes stacked flush: each manifold end is a corner of both boxes, and whether the
        // clipping counts it as clipped flips with rounding from step to step. The ids must not
        // (they carry the warm-start impulses that hold the stack up).
        let mut world = scenes::tall_stack(12).world;
        world.step();
        let first = point_ids(&world);
        assert_eq!(first.len(), 12);
        assert!(first.iter().all(|(_, _, ids)| ids.len() == 2));
        for step in 0..120 {
            world.step();
            assert_eq!(point_ids(&world), first, "ids changed at step {step}");
            for c in world.contacts.as_slice() {
                let m = &c.manifolds[0];
                assert!(m.points[..m.count].iter().all(|p| p.normal_impulse > 0.0));
            }
        }
    }

    #[test]
    fn a_recycled_manifold_measures_what_a_fresh_one_does_after_a_small_shift() {
        // A box resting on a static box; then the box is moved (not turned) by a few millimetres:
        // the recycled points are the same corners, so their separations must equal the fresh
        // manifold's; and a move past the recycle distance is computed afresh.
        let mut world = scenes::tall_stack(1).world;
        world.step();
        world.step();
        let contact = world.contacts.as_slice()[0].clone();
        assert!(contact.touching && contact.manifolds[0].count == 2);
        let (a, b) = (contact.a, contact.b);
        for (shift, recycled) in [
            (Vec2::new(0.004, 0.003), true),
            (Vec2::new(-0.002, -0.001), true),
            (Vec2::new(0.06, 0.0), false),
        ] {
            let mut moved = world.clone();
            moved.bodies.at_mut(b).pose.translation += shift;
            let (ba, bb) = (moved.bodies.at(a), moved.bodies.at(b));
            let mut kept = contact.clone();
            let mut fresh = contact.clone();
            kept.update(ba, bb, 0.02, 1.0, 0.05, None);
            fresh.update(ba, bb, 0.02, 1.0, 0.0, None);
            let (k, f) = (&kept.manifolds[0], &fresh.manifolds[0]);
            assert_eq!(k.count, f.count);
            let before = &contact.manifolds[0].points;
            for (i, (p, q)) in k.points[..k.count]
                .iter()
                .zip(&f.points[..f.count])
                .enumerate()
            {
                assert_eq!(p.id, q.id);
                if recycled {
                    // The same material points (anchors kept), measured anew.
                    assert_eq!(
                        (p.anchor_a, p.anchor_b),
                        (before[i].anchor_a, before[i].anchor_b)
                    );
                    assert!(
                        (p.separation - q.separation).abs() < 1e-12,
                        "{} vs {}",
                        p.separation,
                        q.separation
                    );
                } else {
                    assert_eq!(
                        p, q,
                        "past the recycle distance the manifold is computed afresh"
                    );
                }
            }
        }
    }

    #[test]
    fn no_colour_holds_two_constraints_on_one_moving_body() {
        let mut world = pyramid_after(20, |_| {});
        world.step();
        let solver = &world.buffers.solver;
        let mut colouring = Colouring::default();
        let pinned = [3, 7];
        colouring.build(&solver.constraints, solver.states.len(), &pinned);
        let mut seen = vec![0; solver.constraints.len()];
        for colour in &colouring.colours {
            let mut bodies = std::collections::HashSet::new();
            for &k in colour {
                seen[k as usize] += 1;
                let c = &solver.constraints[k as usize];
                for (body, mass) in [(c.a, c.mass_a), (c.b, c.mass_b)] {
                    if mass.responds() {
                        assert!(bodies.insert(body), "body {body} twice in one colour");
                    }
                }
            }
        }
        for &k in &colouring.overflow {
            seen[k as usize] += 1;
        }
        assert!(
            seen.iter().all(|&n| n == 1),
            "every constraint exactly once"
        );
        assert!(pinned
            .iter()
            .all(|k| colouring.overflow.contains(&(*k as u32))));
        // A pyramid needs few colours: nothing overflows but the excluded constraints.
        assert_eq!(colouring.overflow.len(), pinned.len());
    }

    /// The joints as the solver takes them: every joint once, no two joints of one colour's
    /// range moving the same body, and the order kept from an earlier step the colouring of this
    /// step's joints, as a joint is removed, a body put to sleep and woken, and a joint added.
    #[test]
    fn each_joint_colour_moves_a_body_once_and_a_kept_order_is_this_steps() {
        let scene = scenes::hanging_chains(4, 12);
        let mut world = scene.world;
        let check = |world: &World, what: &str| {
            let solver = &world.buffers.solver;
            let joints = &solver.joints;
            let mut slots: Vec<usize> = joints.iter().map(|j| j.slot()).collect();
            slots.sort_unstable();
            let mut live: Vec<usize> = world.joints.iter().map(|(slot, _)| slot).collect();
            live.sort_unstable();
            assert_eq!(slots, live, "{what}: every live joint once");
            assert_eq!(solver.joint_ranges[0].start, 0, "{what}");
            assert_eq!(
                solver.joint_ranges.last().map(|r| r.end as usize),
                Some(joints.len()),
                "{what}"
            );
            for range in &solver.joint_ranges[1..] {
                let mut moved = std::collections::HashSet::new();
                for j in &joints[range.start as usize..range.end as usize] {
                    for state in [j.a, j.b] {
                        if solver.masses[state as usize].responds() {
                            assert!(
                                moved.insert(state),
                                "{what}: body {state} twice in a colour"
                            );
                        }
                    }
                }
            }
            // The kept order is what colouring this step's edges gives.
            assert_eq!(solver.coloured_edges.len(), joints.len(), "{what}");
            let edge = |k: Option<u32>| k.map(|k| k as usize);
            let edges = solver
                .coloured_edges
                .iter()
                .map(|&(a, b)| (edge(a), edge(b)));
            let (mut order, mut ranges) = (Vec::new(), Vec::new());
            Colouring::default().order(edges, solver.masses.len(), &mut order, &mut ranges);
            assert_eq!(order, solver.joint_order, "{what}");
            assert_eq!(ranges, solver.joint_ranges, "{what}");
            let fresh: Vec<(Option<u32>, Option<u32>)> = world
                .joints
                .iter()
                .map(|(_, j)| {
                    let node = |k: Option<u32>| {
                        let s = k.map_or(0, |k| solver.state_of[k as usize]);
                        solver.masses[s as usize].responds().then_some(s)
                    };
                    (node(j.body_a), node(Some(j.body_b)))
                })
                .collect();
            assert_eq!(
                fresh, solver.coloured_edges,
                "{what}: the order is this step's"
            );
        };
        for _ in 0..3 {
            world.step();
        }
        check(&world, "unchanged");
        let ids = world.joint_ids();
        world.remove_joint(ids[5]).expect("a live joint");
        world.step();
        check(&world, "a joint removed");
        let link = scene.tracked[0];
        world.put_to_sleep(link).expect("a live body");
        world.step();
        check(&world, "a chain asleep");
        world.wake(link).expect("a live body");
        world.step();
        check(&world, "woken");
        let (a, b) = (ids[0], ids[20]);
        let body_a = world.joint_bodies(a).expect("a live joint").1;
        let body_b = world.joint_bodies(b).expect("a live joint").1;
        let at = world.body(body_a).expect("a live body").pose.translation;
        world
            .add_joint(crate::RevoluteJointDef::new(body_a, body_b, at))
            .expect("a valid joint");
        world.step();
        check(&world, "a joint added");
    }
}
