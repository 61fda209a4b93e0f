//! One fixed step of the world: the pipeline and its stages outside the solver.
//!
//! ```text
//! 1. pairs      new contacts for proxies that moved (broad phase); contacts whose proxies
//!               separated are dropped (contact-end events)                        update_pairs
//! 2. narrow     manifolds at the start poses, points within SPECULATIVE_DISTANCE, warm-start
//!               impulses matched by feature id (contact-begin/end events); sleeping
//!               islands an awake body meets wake before the solver      narrow_phase, sleep.rs
//! 3. solve      soft-step solver over dt: velocities (gravity, forces, damping), contacts,
//!               positions; gives each body its motion x0 → x1 over the step       solve.rs
//! 4. continuous time of impact for the pairs the solver cannot be trusted with; impacts
//!               processed in time order with re-sweeps, so no body loses the rest of its step
//!                                                                                 continuous/
//!    sensors    shapes entering and leaving sensors during the step, with the fractions
//!               at which they did (only when some body has a sensor)            sensors.rs
//! 5. refit      broad-phase proxies at the final poses; the step's forces cleared   refit
//! 6. sleep      resting islands fall asleep, islands with an awake body wake      sleep.rs
//! ```
//!
//! Why the solver runs before the continuous pass: the solver decides where each body actually goes
//! this step (contacts push, friction drags), and the continuous pass then guards exactly that
//! motion. Pairs within the speculative distance at the start are the solver's (its speculative
//! constraint lets them close the gap, no more); every other pair is the continuous pass's.

use super::body_set::BodySet;
use super::clock::Clock;
use super::contact_set::ContactSet;
use super::continuous::{cores_overlap, isolated, ContinuousPass, PassBuffers, HEAP_CONTACT_CAP};
use super::events::{BodyMove, StepEvents};
use super::hooks::{ContactHooks, Verdicts};
use super::joints::JointSet;
use super::profile::Laps;
use super::sensors::sensor_pass;
use super::sleep::{update_sleep, wake_met_islands, SleepBuffers};
use super::solve::{solve, SolverBuffers};
use super::{World, WorldConfig};
use crate::broadphase::{BroadPhase, ProxyId, ProxyKey};
use crate::constants::SPECULATIVE_DISTANCE;
use crate::dynamics::body::{PairFilter, Prediction};
use crate::dynamics::contact::PairContact;
use crate::math::{Aabb, Real, Vec2};

/// Per-step working buffers, kept between steps so a step allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub(crate) struct StepBuffers {
    /// The solver's states, cold data, constraints and body-to-state map.
    pub solver: SolverBuffers,
    /// The angle each body turned in the solver (radians, unwrapped), by body key.
    pub angles: Vec<Real>,
    /// The dynamic bodies of this step's bounces (`list_bouncing`), sorted.
    pub bouncing: Vec<u32>,
    /// Per body key, whether it is a dynamic body the solver pressed against another body at the
    /// last step (some contact of it, not a bounce, carried a normal impulse past
    /// `SUPPORT_SPEED`: `PairContact::supports`; written by the narrow phase's walk of its
    /// contacts, read by `list_bouncing` and the continuous pass).
    pub supported: Vec<bool>,
    /// Per contact, what the narrow phase's update found (`Touched`).
    pub touched: Vec<Touched>,
    /// The contact hooks' verdicts of this step.
    pub verdicts: Verdicts,
    /// The refit's proxies and their shapes' new boxes, and the broad phase's scratch list.
    pub proxy_moves: Vec<(ProxyKey, crate::math::Aabb)>,
    pub proxy_scratch: Vec<(ProxyId, crate::math::Aabb)>,
    /// The refit's flags of bodies with joints, by key (empty without joints).
    pub jointed: Vec<bool>,
    /// The refit's kinematic bodies that pair piece by piece, whose pairs are found anew at every
    /// pair update (`refit`).
    pub piece_movers: Vec<ProxyKey>,
    /// The continuous pass's containers.
    pub pass: PassBuffers,
    /// Bodies the last refresh of the moving set listed (`BodySet::refresh_moving`).
    pub newly_moving: Vec<u32>,
    /// The sleep stage's buffers.
    pub sleep: SleepBuffers,
}

impl World {
    /// Runs one step: the five stages of the module notes, each borrowing only the parts it needs.
    pub(crate) fn step_once(&mut self, mut hooks: Option<&mut (dyn ContactHooks + '_)>) {
        let World {
            config,
            bodies,
            contacts,
            broad_phase,
            buffers,
            events,
            clock,
            profile,
            profile_clock,
            sensor_overlaps,
            joints,
            force_thresholds,
        } = self;
        let mut laps = Laps::start(*profile_clock);
        // Only the moving set's bodies move (see `world/body_set.rs`): its refresh also gives
        // back to the active contacts the parked ones of bodies woken since the last step.
        if bodies.start_step(&mut buffers.newly_moving) {
            // Bodies came to rest: their contacts may rest on both sides now (those of islands
            // that fell asleep are parked already; a call may have put others to sleep).
            contacts.request_park();
        }
        unpark_listed(bodies, contacts, &buffers.newly_moving);
        #[cfg(debug_assertions)]
        bodies.assert_moving_set();
        update_pairs(broad_phase, contacts, bodies, joints, events, config, clock);
        profile.pairs = laps.lap();
        narrow_phase(contacts, bodies, events, config, clock, buffers);
        wake_met_islands(config, bodies, contacts, joints, events);
        list_woken(bodies, contacts, &mut buffers.newly_moving);
        profile.narrow = laps.lap();
        buffers.verdicts.clear();
        solve(
            config,
            bodies,
            contacts,
            joints,
            (
                &mut buffers.solver,
                &mut buffers.verdicts,
                &mut buffers.angles,
            ),
            events,
            clock,
            hooks.as_deref_mut(),
        );
        profile.solve = laps.lap();
        (profile.swept_pairs, profile.candidate_pairs) = if config.continuous {
            ContinuousPass::new(
                config,
                bodies,
                contacts,
                broad_phase,
                events,
                clock,
                &mut buffers.pass,
            )
            .with_hooks(hooks, &mut buffers.verdicts)
            .with_joints(joints)
            .with_pressed(buffers.solver.pressed())
            .with_bouncing(&buffers.bouncing, &buffers.supported)
            .run(&buffers.angles)
        } else {
            (0, 0)
        };
        if bodies.sensor_shapes > 0 || !sensor_overlaps.is_empty() {
            sensor_pass(
                bodies,
                broad_phase,
                sensor_overlaps,
                events,
                clock,
                config.dt,
                &buffers.angles,
            );
        }
        if *force_thresholds > 0 {
            super::contact_data::contact_force_events(
                bodies, contacts, events, config.dt, clock.step,
            );
        }
        // Bodies the pass woke (met by a fast body) move from now on.
        list_woken(bodies, contacts, &mut buffers.newly_moving);
        // Impacts can leave a light body faster than the speed limits: held to them, as every
        // integrated velocity is (`body_input::clamp_speeds`). A kinematic body driven to a
        // target ends the step exactly there, and stops (`World::set_kinematic_target`).
        bodies.for_moving(|_, b| {
            if let Some(target) = b.kinematic_target.take() {
                b.pose = target * crate::math::Transform::from_translation(b.local_center);
                b.linear_velocity = Vec2::ZERO;
                b.angular_velocity = 0.0;
            }
            if b.is_dynamic() && b.awake {
                (b.linear_velocity, b.angular_velocity) = crate::dynamics::body_input::clamp_speeds(
                    b.linear_velocity,
                    b.angular_velocity,
                );
            }
        });
        profile.continuous = laps.lap();
        refit(broad_phase, bodies, joints, config, buffers);
        update_sleep(config, bodies, contacts, joints, &mut buffers.sleep, events);
        profile.refit = laps.lap();
        // (The bodies that fell asleep in this step are still in the moving set: their last
        // move is reported.)
        for (key, b) in bodies.iter_moving() {
            if b.kind != crate::dynamics::BodyKind::Static && b.pose != b.previous_pose {
                events.moved.push(BodyMove {
                    body: bodies.id(key),
                    transform: b.transform(),
                    fell_asleep: !b.awake,
                });
            }
        }
        clock.time += config.dt;
        clock.step += 1;
        profile.total = laps.total();
    }
}

/// Gives back to the active contacts the parked contacts of the bodies the moving set has just
/// listed (`newly`): they move again, so their contacts are the step's again.
fn unpark_listed(bodies: &BodySet, contacts: &mut ContactSet, newly: &[u32]) {
    if !newly.is_empty() && contacts.parked_len() > 0 {
        contacts.unpark(|k| bodies.is_listed(k));
    }
}

/// Lists in the moving set the bodies woken during the step (by a meeting before the solver, by
/// an impact in the continuous pass), with their parked contacts (`newly` is scratch).
fn list_woken(bodies: &mut BodySet, contacts: &mut ContactSet, newly: &mut Vec<u32>) {
    bodies.refresh_moving(false, newly);
    unpark_listed(bodies, contacts, newly);
}

/// Fewest contacts a thread takes in the parallel narrow phase.
#[cfg(feature = "parallel")]
const PARALLEL_MIN_CONTACTS: usize = 64;

/// Stage 1: contacts for new proxy overlaps, and removal of contacts whose proxies separated.
fn update_pairs(
    broad_phase: &mut BroadPhase,
    contacts: &mut ContactSet,
    bodies: &mut BodySet,
    joints: &JointSet,
    events: &mut StepEvents,
    config: &WorldConfig,
    clock: &Clock,
) {
    let mixing = config.mixing();
    // Pairs whose shapes cannot collide (filters, sensors, a joint between them) never become
    // contacts.
    let never = |a: u32, b: u32| {
        joints.blocks(a, b) || bodies.at(a).pair_filter(bodies.at(b)) == PairFilter::Never
    };
    let known_or_filtered = |a: u32, b: u32| contacts.contains(a, b) || never(a, b);
    broad_phase.update_pairs(known_or_filtered);
    let new_pairs = broad_phase.new_pairs();
    // In a heap of bodies created inside each other, a body that already has
    // `HEAP_CONTACT_CAP` contacts gets no contact with another such body whose core overlaps its
    // own (`cores_overlap`: the two are inside each other): memory and work then grow with the
    // heap's bodies, not with its pairs (see `docs/continuous.md`, "Heaps"). The skipped bodies
    // are queried again next step, so a pair that has come out of each other, or one of whose
    // bodies has fewer contacts by then, gets its contact then.
    // Contacts per body, counted only once a new pair's cores overlap (rare outside heaps).
    let mut degree: Vec<u32> = Vec::new();
    let mut requery: Vec<u32> = Vec::new();
    for &(a, b) in new_pairs {
        let (fa, fb) = (
            broad_phase.fat_aabb(bodies.proxy(a)),
            broad_phase.fat_aabb(bodies.proxy(b)),
        );
        if !pieces_reached(bodies, config, (a, &fa), (b, &fb)) {
            continue;
        }
        if cores_overlap(bodies.at(a), bodies.at(b)) {
            if degree.is_empty() {
                degree.resize(bodies.key_bound(), 0);
                // (Only the contacts the removal below keeps: a fast body's contacts with the
                // bodies it left behind do not count.)
                for c in contacts.as_slice() {
                    if proxies_overlap(broad_phase, bodies, config, c.a, c.b) {
                        degree[c.a as usize] += 1;
                        degree[c.b as usize] += 1;
                    }
                }
            }
            let capped = |k: u32| degree[k as usize] >= HEAP_CONTACT_CAP;
            if capped(a) && capped(b) {
                requery.push(a);
                continue;
            }
        }
        if !degree.is_empty() {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let filter = bodies.at(a).pair_filter(bodies.at(b));
        contacts.insert(PairContact::new(a, b, filter, mixing));
        if bodies.at(a).is_resting() && bodies.at(b).is_resting() {
            // (Bodies created asleep against each other or the static world: their contact
            // rests from the start.)
            contacts.request_park();
        }
    }
    requery.dedup();
    for k in requery {
        broad_phase.touch_proxy(bodies.proxy(k));
    }
    // After shapes or filters changed, every contact's filter is looked at again; otherwise only
    // the active ones can have separated (a parked contact's bodies have not moved).
    let refilter = std::mem::take(&mut bodies.shapes_changed);
    let end = |contacts: &ContactSet| {
        if refilter {
            contacts.len()
        } else {
            contacts.active_len()
        }
    };
    let mut k = 0;
    while k < end(contacts) {
        let c = &mut contacts.as_mut_slice()[k];
        let (a, b) = (c.a, c.b);
        let overlap = proxies_overlap(broad_phase, bodies, config, a, b);
        if refilter {
            c.filter = if joints.blocks(a, b) {
                PairFilter::Never
            } else {
                bodies.at(a).pair_filter(bodies.at(b))
            };
        }
        if overlap && c.filter != PairFilter::Never {
            k += 1;
            continue;
        }
        if c.touching {
            events.contact_ended(bodies.id(a), bodies.id(b), clock);
        }
        contacts.remove(k);
    }
}

/// Whether the fat boxes of bodies `a`'s and `b`'s proxies overlap and each reaches the other's
/// shapes (a static ground of many pieces pairs piece by piece: `Body::reached_by`): a contact is
/// made and kept while they do. Asked right after the broad phase's pair update.
fn proxies_overlap(
    broad_phase: &BroadPhase,
    bodies: &BodySet,
    config: &WorldConfig,
    a: u32,
    b: u32,
) -> bool {
    let (pa, pb) = (bodies.proxy(a), bodies.proxy(b));
    let (fa, fb) = (broad_phase.fat_aabb(pa), broad_phase.fat_aabb(pb));
    // When neither proxy moved since the update before, the contact is kept: the proxy boxes are
    // those it was made or kept with by this same test (what the bodies' motion adds to the
    // reach may have changed since; keeping a contact longer is always safe).
    let moved = broad_phase.moved_last(pa) || broad_phase.moved_last(pb);
    fa.overlaps(&fb) && (!moved || pieces_reached(bodies, config, (a, &fa), (b, &fb)))
}

/// Whether bodies `a` and `b`, whose proxy boxes `fa` and `fb` overlap, reach each other's
/// shapes (see [`proxies_overlap`]). Each proxy box is grown by how far the two may close over
/// the step (`Body::predicted_relative_motion`, the motion the narrow phase's speculative margin
/// reads): a body falling onto a tile faster than its proxy box was swept ahead gets its contact,
/// and the solver's speculative points, before it arrives, as it did when the whole ground had
/// one proxy.
fn pieces_reached(
    bodies: &BodySet,
    config: &WorldConfig,
    (a, fa): (u32, &Aabb),
    (b, fb): (u32, &Aabb),
) -> bool {
    let (ba, bb) = (bodies.at(a), bodies.at(b));
    if !(ba.pairs_by_piece() || bb.pairs_by_piece()) {
        return true; // (most pairs: no predicted motion to compute)
    }
    let reach = |fat: &Aabb| {
        BroadPhase::proxy_reach(fat).grown(ba.predicted_relative_motion(
            bb,
            config.dt,
            config.gravity,
        ))
    };
    ba.reached_by(&reach(fb), config.dt) && bb.reached_by(&reach(fa), config.dt)
}

/// What the narrow phase's update of one contact found.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Touched {
    /// Whether the contact touched before the update.
    was: bool,
    /// Whether it touches after it.
    is: bool,
    /// Per body (A, B): a dynamic body the solver pressed against the other at the last step
    /// (`PairContact::supports`).
    supported: (bool, bool),
    /// The contact is a bounce (`PairContact::bounce`), before `list_bouncing` keeps only the
    /// isolated ones.
    bounce: bool,
}

/// Stage 2: manifolds at the start poses, and contact begin/end events. Each pair's speculative
/// margin grows with how far its bodies may close this step, whatever the speed, so the solver
/// sees every meeting its start-of-step contacts can see and stops it at the surface; points of a
/// pair whose predicted motions miss each other are dropped (no ghost collisions). The continuous
/// pass then checks, from the solver's motion, which pairs it cannot trust (`docs/continuous.md`,
/// "The speculative margin").
fn narrow_phase(
    contacts: &mut ContactSet,
    bodies: &BodySet,
    events: &mut StepEvents,
    config: &WorldConfig,
    clock: &Clock,
    buffers: &mut StepBuffers,
) {
    // Speculative points are judged over this step and the next: the solver's last relaxing pass
    // already looks a substep past the step's end (it sets the velocities a next substep would
    // start with), and a pair whose motions meet early in the next step keeps its points (and
    // their warm start) rather than losing them for one step. Points whose motions miss over both
    // are ghosts.
    let prediction = Prediction {
        dt: config.dt,
        horizon: 2.0 * config.dt,
        gravity: config.gravity,
    };
    let update = |contact: &mut PairContact| {
        let (ba, bb) = (bodies.at(contact.a), bodies.at(contact.b));
        let (was, is) = if ba.is_resting() && bb.is_resting() && contact.is_computed() {
            // Both asleep (or one static): nothing moved, the manifold stands as it was. (Two
            // bodies created asleep touching each other get theirs once: without points, a wall
            // created asleep and woken by a blow was the continuous pass's pair by pair.)
            (contact.touching, contact.touching)
        } else {
            let margin =
                SPECULATIVE_DISTANCE + ba.predicted_relative_motion(bb, config.dt, config.gravity);
            contact.update(
                ba,
                bb,
                margin,
                config.restitution_threshold,
                config.contact_recycle_distance,
                Some(&prediction),
            )
        };
        // Whether the solver pressed the pair together at the last step, read here while the
        // two bodies are at hand.
        let pressed = !contact.bounce && contact.supports(|| ba.inv_mass + bb.inv_mass);
        Touched {
            was,
            is,
            supported: (pressed && ba.is_dynamic(), pressed && bb.is_dynamic()),
            bounce: contact.bounce,
        }
    };
    // Each contact's update is its own: with the `parallel` feature they share out over rayon's
    // threads (same results), and the events follow in contact order.
    let touched = &mut buffers.touched;
    touched.clear();
    #[cfg(feature = "parallel")]
    if crate::dynamics::stages::thread_count() > 1 {
        use rayon::prelude::*;
        contacts
            .active_mut()
            .par_iter_mut()
            .with_min_len(PARALLEL_MIN_CONTACTS)
            .map(update)
            .collect_into_vec(touched);
    } else {
        touched.extend(contacts.active_mut().iter_mut().map(update));
    }
    #[cfg(not(feature = "parallel"))]
    touched.extend(contacts.active_mut().iter_mut().map(update));
    // The same walk marks the dynamic bodies the solver pressed against another body at the last
    // step (`supported`, read by `list_bouncing` and the continuous pass).
    let supported = &mut buffers.supported;
    supported.clear();
    supported.resize(bodies.key_bound(), false);
    for (contact, t) in contacts.active().iter().zip(touched.iter()) {
        let (a, b) = (contact.a, contact.b);
        supported[a as usize] |= t.supported.0;
        supported[b as usize] |= t.supported.1;
        let (was, is) = (t.was, t.is);
        if !was && is {
            if let Some(m) = contact.first_manifold() {
                let (sa, sb) = (
                    bodies.shape_id(a, m.piece_a as usize),
                    bodies.shape_id(b, m.piece_b as usize),
                );
                events.contact_began(sa, sb, clock, m.normal, m.points[0].point);
            }
        } else if was && !is {
            events.contact_ended(bodies.id(a), bodies.id(b), clock);
        }
    }
    list_bouncing(contacts, bodies, buffers);
}

/// Keeps only the isolated bounces and lists in `bouncing` (sorted, without repeats) their
/// dynamic bodies (see `PairContact::bounce`): the solver leaves those contacts to the continuous
/// pass, which checks these bodies whatever their speed.
///
/// A bounce is isolated when neither of its dynamic bodies is pressed against a third body by
/// the solver (some other contact of it carried a normal impulse at the last step,
/// `PairContact::supports`: resting on the ground, pushed in a pile; `continuous::isolated`). A
/// pressed body shares a blow with what it presses on at the same instant, which a simultaneous
/// solve answers and a pairwise impact does not: in a churning pile of bouncy bodies every new
/// contact closed past the restitution threshold, and resolving each as the pass's impact
/// (Box2D's spinner: 8,500 a step) spent the impact budget and held most of the pile. Touching without pressure (a row of discs at rest, Newton's
/// cradle) keeps a bounce isolated (`docs/continuous.md`, "Bounces: exact, and the pass's
/// alone").
fn list_bouncing(contacts: &mut ContactSet, bodies: &BodySet, buffers: &mut StepBuffers) {
    let (supported, bouncing) = (&buffers.supported, &mut buffers.bouncing);
    bouncing.clear();
    // (Only the contacts the update found bouncing are read again.)
    let active = contacts.active_mut();
    let bounces = buffers.touched.iter().enumerate().filter(|(_, t)| t.bounce);
    for (k, _) in bounces {
        let c = &mut active[k];
        if !isolated(supported, c.a, c.b) {
            c.bounce = false;
        } else {
            bouncing.extend(
                [c.a, c.b]
                    .into_iter()
                    .filter(|&k| bodies.at(k).is_dynamic()),
            );
        }
    }
    bouncing.sort_unstable();
    bouncing.dedup();
}

/// Stage 5: proxies follow the final poses, swept along the motion predicted for the next step
/// (moving bodies only; static proxies never move). The step's applied forces and torques,
/// which that prediction reads, are then spent: the same pass over the bodies clears them.
fn refit(
    broad_phase: &mut BroadPhase,
    bodies: &mut BodySet,
    joints: &JointSet,
    config: &WorldConfig,
    buffers: &mut StepBuffers,
) {
    // Jointed bodies' boxes cover their whole predicted motion (`Body::predicted_box`).
    let jointed = &mut buffers.jointed;
    jointed.clear();
    if joints.len() > 0 {
        jointed.resize(bodies.key_bound(), false);
        for (_, j) in joints.iter() {
            for key in [j.body_a, Some(j.body_b)].into_iter().flatten() {
                jointed[key as usize] = true;
            }
        }
    }
    let moves = &mut buffers.proxy_moves;
    moves.clear();
    let piece_movers = &mut buffers.piece_movers;
    piece_movers.clear();
    // (A resting body's applied force is zero: every call that applies one wakes it.)
    bodies.for_moving_with_proxies(|key, proxy, body| {
        if !body.is_resting() {
            let whole = jointed.get(key as usize).copied().unwrap_or(false);
            moves.push((proxy, body.predicted_box(config.dt, config.gravity, whole)));
        }
        if body.pairs_by_piece() {
            piece_movers.push(proxy);
        }
        body.force = Vec2::ZERO;
        body.torque = 0.0;
    });
    broad_phase.move_proxies(moves, &mut buffers.proxy_scratch);
    // A kinematic body of many pieces pairs where its pieces reach over the coming step, at the
    // velocities it then has (`Body::reached_by`): its pieces move while its proxy box may not
    // (a turning drum), so its pairs are found and checked again at every pair update, whether
    // its proxy moved or not. (The moving set holds no static body.)
    for &proxy in piece_movers.iter() {
        broad_phase.touch_proxy(proxy);
    }
}
