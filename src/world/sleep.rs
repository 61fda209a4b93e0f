//! Islands and sleeping (the last stage of a step): which dynamic bodies rest, and which islands
//! fall asleep or wake.
//!
//! An island is a set of dynamic bodies connected by touching contacts and by joints (static and
//! kinematic bodies do not connect islands). The islands of awake bodies are found afresh at the
//! end of every step by union–find over the active touching contacts and the joints (near-linear
//! in their number), which gives the same islands as Box2D v3's persistent ones (union on touch,
//! lazy split) without their bookkeeping. A sleeping island is set aside whole: its bodies leave
//! the moving set (`world/body_set.rs`) and its contacts are parked (`world/contact_set.rs`), so it
//! costs a step nothing. When an awake body touches one of its bodies, the sleeping island joins
//! the awake body's, whole, by a walk over its touching contacts (parked ones included) and joints.
//!
//! A dynamic body *rests* while its speed is under `linear_sleep_tolerance` and its angular speed
//! under `angular_sleep_tolerance` (and it allows sleep, and no moving kinematic body touches it);
//! its `sleep_time` counts how long. An island in which every awake body has rested for
//! `time_to_sleep` falls asleep: its bodies stop, and the step's narrow phase, solver and refit skip
//! them (a sleeping body is immovable while asleep). An island with any awake body is woken whole:
//! a body woken by a call (`World::wake`, `set_velocity`, `apply_*`, `set_transform`, joint
//! changes) or by an impact (the continuous pass wakes a sleeping body a fast body meets, before
//! resolving the impact: a bullet never passes through a sleeping body) wakes everything it
//! touches at the end of that step. A sleeping island that an awake body meets at the start of a
//! step wakes before that step's solver (`wake_met_islands`), so the meeting shares momentum at
//! once.
//!
//! With sleeping off (`WorldConfig::sleep`) and no body asleep, no island can fall asleep or need
//! waking, so only the resting times are kept (at zero) and the islands are not built. Tested
//! against islands rebuilt from the public view, whatever a game does between steps
//! (`islands_sleep_and_wake_whole_whatever_the_game_does`).

use super::body_set::BodySet;
use super::contact_set::{row_offsets, ContactSet};
use super::events::StepEvents;
use super::joints::JointSet;
use super::WorldConfig;
use crate::dynamics::BodyKind;

/// The sleep stage's buffers, kept between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct SleepBuffers {
    /// Union–find parents, by body key.
    parent: Vec<u32>,
    /// Per island root: every awake body of the island has rested for `time_to_sleep`.
    all_tired: Vec<bool>,
    /// Sleeping bodies linked to an awake one, then their whole sleeping islands.
    sleepers: Vec<u32>,
    /// Per key: listed in `sleepers`.
    seen: Vec<bool>,
}

/// Updates resting times and puts islands to sleep or wakes them (see the module notes). Costs
/// the moving bodies and the active contacts and joints; a sleeping island costs nothing unless
/// an awake body touches it.
pub(crate) fn update_sleep(
    config: &WorldConfig,
    bodies: &mut BodySet,
    contacts: &mut ContactSet,
    joints: &JointSet,
    buf: &mut SleepBuffers,
    events: &mut StepEvents,
) {
    let n = bodies.key_bound();
    // Resting times (only awake bodies rest; the others keep theirs).
    let (lin, ang) = (
        config.linear_sleep_tolerance,
        config.angular_sleep_tolerance,
    );
    bodies.for_moving(|_, b| {
        if b.kind != BodyKind::Dynamic || !b.awake {
            return;
        }
        let rests = config.sleep
            && b.allow_sleep
            && b.linear_velocity.length_squared() <= lin * lin
            && b.angular_velocity.abs() <= ang;
        b.sleep_time = if rests { b.sleep_time + config.dt } else { 0.0 };
    });
    let asleep = |bodies: &BodySet, k: u32| {
        let b = bodies.at(k);
        b.kind == BodyKind::Dynamic && !b.awake
    };
    if !config.sleep && !bodies.any_asleep() {
        // Sleeping is off and every body is awake: no island can fall asleep or needs waking,
        // and every resting time is zero.
        return;
    }
    // A moving kinematic body keeps what it touches awake.
    for c in contacts.active().iter().filter(|c| c.touching) {
        for (k, other) in [(c.a, c.b), (c.b, c.a)] {
            let body = bodies.at(k);
            let moving = body.kind == BodyKind::Kinematic
                && (body.linear_velocity != crate::Vec2::ZERO || body.angular_velocity != 0.0);
            if moving && bodies.at(other).kind == BodyKind::Dynamic {
                bodies.at_mut(other).sleep_time = 0.0;
            }
        }
    }
    // Islands: union–find over dynamic bodies, by key, through the active touching contacts and
    // the joints. Sleeping bodies linked to an awake one are listed: their whole sleeping islands
    // (linked through parked contacts too) join below.
    let SleepBuffers {
        parent,
        all_tired,
        sleepers,
        seen,
    } = buf;
    parent.clear();
    parent.extend(0..n as u32);
    let dynamic = |bodies: &BodySet, k: u32| bodies.at(k).kind == BodyKind::Dynamic;
    sleepers.clear();
    for (a, b) in links(contacts.active(), joints) {
        if dynamic(bodies, a) && dynamic(bodies, b) {
            union(parent, a, b);
            match (asleep(bodies, a), asleep(bodies, b)) {
                (true, false) => sleepers.push(a),
                (false, true) => sleepers.push(b),
                _ => {}
            }
        }
    }
    if !sleepers.is_empty() {
        // The sleeping islands of the listed sleepers, whole, each joining the awake island.
        sleeping_islands(bodies, contacts, joints, sleepers, seen, |k, o| {
            union(parent, k, o)
        });
    }
    // Per island root: whether every awake body rested long enough (every island here has an
    // awake body: the sleepers joined one).
    all_tired.resize(n, true);
    for &k in bodies.moving() {
        all_tired[find(parent, k) as usize] = true;
    }
    for (k, b) in bodies.iter_moving() {
        if b.kind == BodyKind::Dynamic && b.awake && b.sleep_time < config.time_to_sleep {
            all_tired[find(parent, k) as usize] = false;
        }
    }
    let sleeps = |parent: &mut Vec<u32>, k: u32| {
        let root = find(parent, k) as usize;
        all_tired[root] && config.sleep
    };
    for i in 0..bodies.moving().len() {
        let k = bodies.moving()[i];
        if bodies.at(k).kind == BodyKind::Dynamic && bodies.at(k).awake && sleeps(parent, k) {
            events.fell_asleep.push(bodies.id(k));
            let b = bodies.at_mut(k);
            b.awake = false;
            b.linear_velocity = crate::Vec2::ZERO;
            b.angular_velocity = 0.0;
            // Its contacts may rest on both sides now.
            contacts.request_park();
        }
    }
    // Sleeping islands joined to an island that stays awake wake whole, in key order.
    sleepers.sort_unstable();
    for &k in sleepers.iter() {
        if !sleeps(parent, k) {
            bodies.at_mut(k).wake();
            events.woke.push(bodies.id(k));
        }
    }
    contacts.park_if_due(|k| bodies.at(k).is_resting());
}

/// Extends `found` (sleeping bodies, by key; sorted and without repeats on return of the ones
/// given) with every sleeping body linked to one of them through touching contacts (parked ones
/// included) and joints: their whole sleeping islands, each body once (`seen`, by key, is
/// scratch). `joined(k, o)` is told each link it follows, from `k` to the sleeping body `o` it
/// finds. Costs the world's contacts: called only when an awake body meets a sleeping one.
fn sleeping_islands(
    bodies: &BodySet,
    contacts: &ContactSet,
    joints: &JointSet,
    found: &mut Vec<u32>,
    seen: &mut Vec<bool>,
    mut joined: impl FnMut(u32, u32),
) {
    let asleep = |k: u32| {
        let b = bodies.at(k);
        b.kind == BodyKind::Dynamic && !b.awake
    };
    let graph = Links::new(bodies, contacts, joints, |_, _| true);
    seen.clear();
    seen.resize(bodies.key_bound(), false);
    found.sort_unstable();
    found.dedup();
    for &k in found.iter() {
        seen[k as usize] = true;
    }
    let mut i = 0;
    while i < found.len() {
        let k = found[i];
        for &o in graph.of(k) {
            if asleep(o) && !std::mem::replace(&mut seen[o as usize], true) {
                joined(k, o);
                found.push(o);
            }
        }
        i += 1;
    }
}

/// The root of `i`'s set in a union–find forest (`parent`, by body key), halving the path.
pub(super) fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

/// Joins the sets of `a` and `b` in a union–find forest (the lower root becomes the root).
pub(super) fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

/// The pairs of bodies islands link: those of the touching contacts among `contacts`, then those
/// of the joints between two bodies.
fn links<'a>(
    contacts: &'a [crate::dynamics::contact::PairContact],
    joints: &'a JointSet,
) -> impl Iterator<Item = (u32, u32)> + 'a {
    contacts
        .iter()
        .filter(|c| c.touching)
        .map(|c| (c.a, c.b))
        .chain(
            joints
                .iter()
                .filter_map(|(_, j)| j.body_a.map(|a| (a, j.body_b))),
        )
}

/// Wakes, before the solver runs, every sleeping island that an awake body meets this step: a
/// contact with manifold points (touching, or within its speculative margin) between a sleeping
/// dynamic body and an awake dynamic or moving kinematic body wakes the sleeping body and,
/// through touching contacts and joints, the rest of its island. The solver then moves the whole
/// island in this step, so a body that runs into a sleeping pile shares its momentum with it
/// instead of meeting an immovable wall for a step (as Box2D wakes an island when one of its
/// contacts begins touching, before it solves). Cheap when nothing sleeps: one pass over the
/// bodies, or none while sleeping is on and no contact meets a sleeping body.
pub(crate) fn wake_met_islands(
    config: &WorldConfig,
    bodies: &mut BodySet,
    contacts: &ContactSet,
    joints: &JointSet,
    events: &mut StepEvents,
) {
    let asleep = |b: &crate::Body| b.kind == BodyKind::Dynamic && !b.awake;
    if !config.sleep && !bodies.any_asleep() {
        return;
    }
    let moves = |b: &crate::Body| match b.kind {
        BodyKind::Dynamic => b.awake,
        BodyKind::Kinematic => b.linear_velocity != crate::Vec2::ZERO || b.angular_velocity != 0.0,
        BodyKind::Static => false,
    };
    let mut stack: Vec<u32> = Vec::new();
    // (A parked contact rests on both sides.)
    for c in contacts.active() {
        let (ba, bb) = (bodies.at(c.a), bodies.at(c.b));
        if asleep(ba) == asleep(bb) || !c.has_points() {
            continue;
        }
        if asleep(ba) && moves(bb) {
            stack.push(c.a);
        } else if asleep(bb) && moves(ba) {
            stack.push(c.b);
        }
    }
    if stack.is_empty() {
        return;
    }
    // The islands of the met bodies, walked only now that some island must wake; they wake in
    // key order.
    sleeping_islands(
        bodies,
        contacts,
        joints,
        &mut stack,
        &mut Vec::new(),
        |_, _| {},
    );
    stack.sort_unstable();
    for k in stack {
        bodies.at_mut(k).wake();
        events.woke.push(bodies.id(k));
    }
}

/// The bodies linked by touching contacts and joints (those `keep` accepts), as one flat
/// adjacency: the links of body `k` are `adjacent[offsets[k]..offsets[k + 1]]`, by key.
struct Links {
    offsets: Vec<u32>,
    adjacent: Vec<u32>,
}

impl Links {
    fn new(
        bodies: &BodySet,
        contacts: &ContactSet,
        joints: &JointSet,
        keep: impl Fn(u32, u32) -> bool,
    ) -> Self {
        let pairs: Vec<(u32, u32)> = links(contacts.as_slice(), joints)
            .filter(|&(a, b)| keep(a, b))
            .collect();
        let n = bodies.key_bound();
        let mut offsets = Vec::new();
        row_offsets(&mut offsets, n, pairs.iter().copied());
        let mut fill = offsets.clone();
        let mut adjacent = vec![0u32; offsets[n] as usize];
        for &(a, b) in &pairs {
            for (from, to) in [(a, b), (b, a)] {
                adjacent[fill[from as usize] as usize] = to;
                fill[from as usize] += 1;
            }
        }
        Self { offsets, adjacent }
    }

    /// The bodies linked to body `k`.
    fn of(&self, k: u32) -> &[u32] {
        &self.adjacent[self.offsets[k as usize] as usize..self.offsets[k as usize + 1] as usize]
    }
}

/// The island of dynamic body `start`: it and every dynamic body linked to it, through touching
/// contacts and joints between dynamic bodies, by key.
pub(crate) fn island_of(
    bodies: &BodySet,
    contacts: &ContactSet,
    joints: &JointSet,
    start: u32,
) -> Vec<u32> {
    let dynamic = |k: u32| bodies.at(k).kind == BodyKind::Dynamic;
    let links = Links::new(bodies, contacts, joints, |a, b| dynamic(a) && dynamic(b));
    let mut seen = vec![false; bodies.key_bound()];
    let (mut island, mut stack) = (Vec::new(), vec![start]);
    seen[start as usize] = true;
    while let Some(k) = stack.pop() {
        island.push(k);
        for &o in links.of(k) {
            if !std::mem::replace(&mut seen[o as usize], true) {
                stack.push(o);
            }
        }
    }
    island
}
