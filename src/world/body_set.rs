//! The world's bodies: dense storage with generational ids.
//!
//! Bodies live contiguously in one `Vec` (so the step walks them without gaps); a slot table maps
//! each body's stable *key* (the index of its [`BodyId`]) to its place in that `Vec` and holds the
//! slot's generation and the body's broad-phase proxy. Removing a body moves the last one into its
//! place and bumps the slot's generation, so stale ids are rejected. Inside the step, bodies are
//! addressed by key: every key held by a contact, a proxy or a step buffer names a live body (they
//! are dropped with the body), so [`BodySet::at`] needs no `Option`.
//!
//! The set also keeps the *moving set*: the keys of the bodies a step moves (kinematic bodies and
//! awake dynamic ones), in storage order, so that the step's passes over bodies cost nothing per
//! static or sleeping body (Box2D v3's awake solver set, kept as a list of keys beside the
//! storage). A resting body handed out mutably ([`BodySet::at_mut`], [`BodySet::get_mut`]) is
//! remembered, and [`BodySet::refresh_moving`] lists it once it moves (a call or an impact woke
//! it); bodies that came to rest leave the list at the start of the next step, after their last
//! move was reported (see `docs/simulation.md`, "Sleeping").

use crate::broadphase::ProxyKey;
use crate::dynamics::{Body, BodyId};

/// Marks a slot with no body.
const FREE: u32 = u32::MAX;

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
struct Slot {
    generation: u32,
    /// Index into `BodySet::bodies`, or `FREE`.
    dense: u32,
    /// The body's broad-phase proxy (meaningless while the slot is free).
    proxy: ProxyKey,
}

/// Live bodies, their ids and proxies (see the module notes).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default)]
pub(crate) struct BodySet {
    /// The world's tag, carried by every id this set hands out (see [`BodyId::world`]).
    pub world: u32,
    slots: Vec<Slot>,
    bodies: Vec<Body>,
    /// Key of each dense body.
    keys: Vec<u32>,
    free: Vec<u32>,
    /// Some body's shapes or filters changed since the last step: contacts re-read their pairs'
    /// filters (see `step::update_pairs`).
    pub shapes_changed: bool,
    /// Number of sensor shapes over all bodies (the sensor pass runs only when there are some).
    pub sensor_shapes: usize,
    /// The moving set: keys of the bodies listed as moving, in storage order (see the module
    /// notes). Derived from the bodies, so not written to snapshots.
    #[cfg_attr(feature = "serde", serde(skip))]
    moving: Vec<u32>,
    /// Per key: whether the key is in `moving`.
    #[cfg_attr(feature = "serde", serde(skip))]
    listed: Vec<bool>,
    /// Keys of resting bodies handed out mutably since the last refresh (repeats allowed).
    #[cfg_attr(feature = "serde", serde(skip))]
    touched: Vec<u32>,
    /// The moving set must be rebuilt from every body (a set read from a snapshot).
    #[cfg_attr(feature = "serde", serde(skip, default = "rebuild"))]
    rebuild_moving: bool,
    /// Scratch of `refresh_moving`: the merged list.
    #[cfg_attr(feature = "serde", serde(skip))]
    merged: Vec<u32>,
    /// The resting bodies the last `start_step` gave their start pose (those that left the
    /// moving set, and resting bodies handed out since; repeats allowed).
    #[cfg_attr(feature = "serde", serde(skip))]
    stepped: Vec<u32>,
    /// The live keys the last refresh that dropped resting bodies dropped.
    #[cfg_attr(feature = "serde", serde(skip))]
    dropped: Vec<u32>,
    /// Some dynamic body may be asleep (or disabled): cleared by `any_asleep` when it finds none,
    /// set whenever a dynamic body is made or found resting. Lets a world with sleeping off
    /// skip looking for sleeping bodies at every step.
    #[cfg_attr(feature = "serde", serde(skip, default = "rebuild"))]
    maybe_asleep: bool,
}

/// A set read from a snapshot rebuilds its moving set at its first step.
#[cfg(feature = "serde")]
fn rebuild() -> bool {
    true
}

/// Whether a step moves the body: kinematic, or dynamic and awake (the moving set's members).
#[inline]
fn moves(b: &Body) -> bool {
    match b.kind {
        crate::dynamics::BodyKind::Static => false,
        crate::dynamics::BodyKind::Kinematic => true,
        crate::dynamics::BodyKind::Dynamic => b.awake,
    }
}

impl BodySet {
    /// An empty set handing out ids with the world tag `world`.
    pub fn with_tag(world: u32) -> BodySet {
        BodySet {
            world,
            ..BodySet::default()
        }
    }

    /// The id of the shape that piece `piece` of body `key`'s collision geometry belongs to.
    pub fn shape_id(&self, key: u32, piece: usize) -> crate::dynamics::ShapeId {
        crate::dynamics::ShapeId {
            body: self.id(key),
            index: self.at(key).piece_shape_index(piece),
        }
    }

    /// Checks a body set read from a snapshot against the broad phase read with it: the slot
    /// table, keys and free list agree (each free slot listed once), the sensor count is the
    /// bodies' own, every body's proxy is a live leaf of the tree for its kind that names it, and
    /// no leaf names anything else; then each body ([`Body::check_restored`]).
    #[cfg(feature = "serde")]
    pub fn check_restored(
        &self,
        broad_phase: &crate::broadphase::BroadPhase,
    ) -> Result<(), String> {
        use crate::broadphase::BroadPhase;
        if self.keys.len() != self.bodies.len() {
            return Err("body keys and bodies differ in number".into());
        }
        for (dense, &key) in self.keys.iter().enumerate() {
            match self.slots.get(key as usize) {
                Some(slot) if slot.dense as usize == dense => {}
                _ => return Err(format!("body {dense} has no slot pointing at it")),
            }
        }
        let live = self.slots.iter().filter(|s| s.dense != FREE).count();
        let mut listed = vec![false; self.slots.len()];
        let free_ok = self.free.iter().all(|&k| {
            self.slots.get(k as usize).is_some_and(|s| s.dense == FREE)
                && !std::mem::replace(&mut listed[k as usize], true)
        });
        if live != self.bodies.len() || !free_ok {
            return Err("the free-slot list does not match the slots".into());
        }
        let sensors: usize = self.bodies.iter().map(|b| b.sensors.len()).sum();
        if sensors != self.sensor_shapes {
            return Err(format!(
                "{} sensor shapes recorded, {sensors} on the bodies",
                self.sensor_shapes
            ));
        }
        if broad_phase.proxy_count() != self.bodies.len() {
            return Err(format!(
                "{} proxies for {} bodies",
                broad_phase.proxy_count(),
                self.bodies.len()
            ));
        }
        for (dense, (&key, body)) in self.keys.iter().zip(&self.bodies).enumerate() {
            let proxy = self.slots[key as usize].proxy;
            if broad_phase.leaf_value(proxy) != Some(key)
                || !BroadPhase::is_of(proxy, super::proxy_type(body.kind))
            {
                return Err(format!("body {dense}'s proxy is not its own"));
            }
            body.check_restored()
                .map_err(|e| format!("body {dense}: {e}"))?;
        }
        Ok(())
    }

    /// The live body with key `key`, or `None` (for checking references read from a snapshot).
    #[cfg(feature = "serde")]
    pub fn live(&self, key: u32) -> Option<&Body> {
        let dense = self.slots.get(key as usize)?.dense;
        self.bodies.get(dense as usize)
    }

    /// Number of live bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// One past the largest key ever used: the length of per-key tables.
    pub fn key_bound(&self) -> usize {
        self.slots.len()
    }

    /// The key the next inserted body will get.
    pub fn next_key(&self) -> u32 {
        self.free.last().copied().unwrap_or(self.slots.len() as u32)
    }

    /// Stores a body with its proxy under [`BodySet::next_key`].
    pub fn insert(&mut self, body: Body, proxy: ProxyKey) -> BodyId {
        self.sensor_shapes += body.sensors.len();
        let dense = self.bodies.len() as u32;
        let key = match self.free.pop() {
            Some(key) => {
                let slot = &mut self.slots[key as usize];
                slot.dense = dense;
                slot.proxy = proxy;
                key
            }
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    dense,
                    proxy,
                });
                (self.slots.len() - 1) as u32
            }
        };
        self.maybe_asleep |= body.kind == crate::dynamics::BodyKind::Dynamic && !body.awake;
        self.bodies.push(body);
        self.keys.push(key);
        self.touched.push(key);
        self.id(key)
    }

    /// Removes a body, returning it and its proxy; `None` for a stale id.
    pub fn remove(&mut self, id: BodyId) -> Option<(Body, ProxyKey)> {
        let key = self.key(id)?;
        let slot = &mut self.slots[key as usize];
        let dense = slot.dense as usize;
        let proxy = slot.proxy;
        slot.dense = FREE;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(key);
        let body = self.bodies.swap_remove(dense);
        self.sensor_shapes -= body.sensors.len();
        self.keys.swap_remove(dense);
        if let Some(&moved) = self.keys.get(dense) {
            self.slots[moved as usize].dense = dense as u32;
        }
        Some((body, proxy))
    }

    /// The key of a live body, or `None` for a stale id.
    pub fn key(&self, id: BodyId) -> Option<u32> {
        let slot = self.slots.get(id.index as usize)?;
        (slot.generation == id.generation && slot.dense != FREE && id.world == self.world)
            .then_some(id.index)
    }

    /// The id of the live body with this key.
    pub fn id(&self, key: u32) -> BodyId {
        BodyId {
            index: key,
            generation: self.slots[key as usize].generation,
            world: self.world,
        }
    }

    /// The body with this id, or `None` if it was removed.
    pub fn get(&self, id: BodyId) -> Option<&Body> {
        self.key(id).map(|key| self.at(key))
    }

    /// The body with this id, mutably, or `None` if it was removed.
    pub fn get_mut(&mut self, id: BodyId) -> Option<&mut Body> {
        self.key(id).map(|key| self.at_mut(key))
    }

    /// The live body with this key.
    #[inline]
    pub fn at(&self, key: u32) -> &Body {
        &self.bodies[self.slots[key as usize].dense as usize]
    }

    /// The live body with this key, mutably. A resting body handed out is remembered: if the
    /// caller sets it moving, the next [`BodySet::refresh_moving`] lists it.
    #[inline]
    pub fn at_mut(&mut self, key: u32) -> &mut Body {
        let body = &mut self.bodies[self.slots[key as usize].dense as usize];
        if !moves(body) {
            self.touched.push(key);
        }
        body
    }

    /// Gives the body with key `key` a new proxy (its kind changed: proxies live in a tree per
    /// kind).
    pub fn set_proxy(&mut self, key: u32, proxy: ProxyKey) {
        self.slots[key as usize].proxy = proxy;
    }

    /// The broad-phase proxy of the live body with this key.
    #[inline]
    pub fn proxy(&self, key: u32) -> ProxyKey {
        self.slots[key as usize].proxy
    }

    /// The moving set: keys of the bodies the step moves, in storage order (see the module
    /// notes). Between a step's start and its last stage it may also hold bodies that came to
    /// rest during the step (they leave at the next step's start).
    pub fn moving(&self) -> &[u32] {
        &self.moving
    }

    /// Whether body `key` is in the moving set.
    #[inline]
    pub fn is_listed(&self, key: u32) -> bool {
        self.listed.get(key as usize).copied().unwrap_or(false)
    }

    /// The start of a step: every body that may have moved or been moved since the last step
    /// started (the moving set, and the resting bodies handed out mutably since) takes its pose
    /// as the step's start pose (`previous_pose`), so every body's start pose is its pose; then
    /// the moving set is refreshed, dropping the bodies at rest (`refresh_moving`). Keys newly
    /// listed go to `newly`. Returns whether a body came to rest and left the set (it fell
    /// asleep, or a call put it to sleep, disabled it or made it static).
    pub fn start_step(&mut self, newly: &mut Vec<u32>) -> bool {
        self.stepped.clear();
        if self.rebuild_moving {
            for b in &mut self.bodies {
                b.previous_pose = b.pose;
            }
        } else {
            for &k in self.moving.iter().chain(&self.touched) {
                let dense = self.slots[k as usize].dense;
                if let Some(b) = self.bodies.get_mut(dense as usize) {
                    b.previous_pose = b.pose;
                }
            }
            // The resting bodies among them: those handed out (kept if they still rest after
            // the refresh) and those the refresh drops.
            self.stepped.extend_from_slice(&self.touched);
        }
        self.refresh_moving(true, newly);
        let (slots, listed) = (&self.slots, &self.listed);
        self.stepped
            .retain(|&k| slots[k as usize].dense != FREE && !listed[k as usize]);
        self.stepped.extend_from_slice(&self.dropped);
        !self.dropped.is_empty()
    }

    /// The resting bodies the last [`BodySet::start_step`] gave their start pose: those that left
    /// the moving set and those handed out since the step before started. Any other resting body
    /// has rested, untouched, since before the previous step, so whatever a pass wrote of it then
    /// (a still motion at its pose) holds. (After a set is read from a snapshot, with the world's
    /// step buffers new, no pass has written anything: the first pass writes every body.)
    pub fn stepped(&self) -> &[u32] {
        &self.stepped
    }

    /// Lists in the moving set the remembered resting bodies that now move (a call or an impact
    /// woke them), and, when `drop_resting`, drops the listed bodies that no longer move or no
    /// longer exist. Keys newly listed go to `newly`, in storage order. Costs the moving set's
    /// length and the number of bodies remembered, not the number of bodies.
    pub fn refresh_moving(&mut self, drop_resting: bool, newly: &mut Vec<u32>) {
        newly.clear();
        if self.listed.len() < self.slots.len() {
            self.listed.resize(self.slots.len(), false);
        }
        let (slots, bodies, listed) = (&self.slots, &self.bodies, &mut self.listed);
        let dense = |k: u32| slots[k as usize].dense;
        if std::mem::take(&mut self.rebuild_moving) {
            self.maybe_asleep = true;
            self.dropped.clear();
            self.touched.clear();
            listed.fill(false);
            self.moving.clear();
            for (&k, b) in self.keys.iter().zip(bodies) {
                if moves(b) {
                    listed[k as usize] = true;
                    self.moving.push(k);
                }
            }
            newly.extend_from_slice(&self.moving);
            return;
        }
        if drop_resting {
            let (dropped, maybe_asleep) = (&mut self.dropped, &mut self.maybe_asleep);
            dropped.clear();
            self.moving.retain(|&k| {
                let live = dense(k) != FREE;
                let keep = live && moves(&bodies[dense(k) as usize]);
                listed[k as usize] = keep;
                if live && !keep {
                    dropped.push(k);
                    *maybe_asleep |=
                        bodies[dense(k) as usize].kind == crate::dynamics::BodyKind::Dynamic;
                }
                keep
            });
            // A removal moves the storage's last body into the removed one's place.
            if !self.moving.is_sorted_by_key(|&k| dense(k)) {
                self.moving.sort_unstable_by_key(|&k| dense(k));
            }
        }
        for &k in &self.touched {
            if dense(k) == FREE || listed[k as usize] {
                continue;
            }
            let body = &bodies[dense(k) as usize];
            if moves(body) {
                listed[k as usize] = true;
                newly.push(k);
            } else {
                self.maybe_asleep |= body.kind == crate::dynamics::BodyKind::Dynamic;
            }
        }
        self.touched.clear();
        if newly.is_empty() {
            return;
        }
        newly.sort_unstable_by_key(|&k| dense(k));
        // Both lists in storage order: merged.
        let merged = &mut self.merged;
        merged.clear();
        let (mut i, mut j) = (0, 0);
        while i < self.moving.len() && j < newly.len() {
            if dense(self.moving[i]) < dense(newly[j]) {
                merged.push(self.moving[i]);
                i += 1;
            } else {
                merged.push(newly[j]);
                j += 1;
            }
        }
        merged.extend_from_slice(&self.moving[i..]);
        merged.extend_from_slice(&newly[j..]);
        std::mem::swap(&mut self.moving, merged);
    }

    /// Whether some dynamic body is asleep (or disabled): a walk over every body, skipped while
    /// no dynamic body can have come to rest since the last walk that found none.
    pub fn any_asleep(&mut self) -> bool {
        if !self.maybe_asleep {
            return false;
        }
        let dynamic = crate::dynamics::BodyKind::Dynamic;
        self.maybe_asleep = self.bodies.iter().any(|b| b.kind == dynamic && !b.awake);
        self.maybe_asleep
    }

    /// Checks the moving set against every body (debug builds): it lists exactly the bodies
    /// that move, at most once, in storage order, and every body's start pose is its pose. Call
    /// right after [`BodySet::start_step`].
    #[cfg(debug_assertions)]
    pub fn assert_moving_set(&self) {
        let expected: Vec<u32> = self
            .keys
            .iter()
            .zip(&self.bodies)
            .filter(|(_, b)| moves(b))
            .map(|(&k, _)| k)
            .collect();
        assert_eq!(
            self.moving, expected,
            "the moving set lists the moving bodies"
        );
        for (&k, b) in self.keys.iter().zip(&self.bodies) {
            assert_eq!(self.listed[k as usize], moves(b), "body {k}'s listing");
            // (Bit for bit: a pose blown up to NaN, by a forged snapshot's contact, is not equal
            // to itself.)
            let bits = |x: &crate::math::Transform| {
                [
                    x.translation.x,
                    x.translation.y,
                    x.rotation.cos,
                    x.rotation.sin,
                ]
                .map(f64::to_bits)
            };
            assert!(
                bits(&b.previous_pose) == bits(&b.pose),
                "body {k} starts the step where it is"
            );
        }
    }

    /// The bodies of the moving set with their keys, in storage order (see `moving`), asking
    /// for the cache lines most passes read a few bodies ahead (see `Ahead`).
    pub fn iter_moving(&self) -> impl Iterator<Item = (u32, &Body)> {
        let (lines, distance) = Ahead::STEP_FIELDS;
        self.moving.iter().enumerate().map(move |(i, &k)| {
            if let Some(&ahead) = self.moving.get(i + distance) {
                let dense = self.slots[ahead as usize].dense as usize;
                Body::prefetch_lines(self.bodies.as_ptr().wrapping_add(dense), lines.clone());
            }
            (k, self.at(k))
        })
    }

    /// Calls `f` with the key, proxy and body of each body of the moving set, in storage order,
    /// asking for the cache lines of the bodies a few ahead (`fields`: what the pass reads, see
    /// `Ahead`).
    fn each_moving_mut(
        &mut self,
        (lines, distance): (std::ops::Range<usize>, usize),
        mut f: impl FnMut(u32, ProxyKey, &mut Body),
    ) {
        for i in 0..self.moving.len() {
            if let Some(&ahead) = self.moving.get(i + distance) {
                let dense = self.slots[ahead as usize].dense as usize;
                Body::prefetch_lines(self.bodies.as_ptr().wrapping_add(dense), lines.clone());
            }
            let k = self.moving[i];
            let slot = &self.slots[k as usize];
            f(k, slot.proxy, &mut self.bodies[slot.dense as usize]);
        }
    }

    /// [`BodySet::each_moving_mut`] for passes reading what most passes read.
    pub fn for_moving(&mut self, mut f: impl FnMut(u32, &mut Body)) {
        self.each_moving_mut(Ahead::STEP_FIELDS, |k, _, b| f(k, b));
    }

    /// [`BodySet::each_moving_mut`] for the refit, which reads the box cache and shapes too,
    /// with each body's proxy.
    pub fn for_moving_with_proxies(&mut self, f: impl FnMut(u32, ProxyKey, &mut Body)) {
        self.each_moving_mut(Ahead::BOX_FIELDS, f);
    }

    /// Every live body with its key, in storage order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Body)> {
        let ahead = Ahead::new(&self.bodies, Ahead::STEP_FIELDS);
        ahead.ask_along(self.keys.iter().copied().zip(&self.bodies))
    }
}

/// Where the bodies of a pass lie, for asking for the cache lines of the bodies a few ahead of
/// the one it is at (see `crate::cache`). Bodies are about a kilobyte apart, so the processor's
/// own prefetchers, which stop at page boundaries, lose the stream every four bodies; asking
/// explicitly keeps a pass over thousands of bodies from waiting on memory for each (falling
/// mixed 16,000: see `docs/history/benchmarks.md`, "Dense scenes, eighth round"). No reference is held:
/// the pass may hold the bodies mutably.
#[derive(Clone)]
struct Ahead {
    start: *const Body,
    len: usize,
    /// The cache lines asked for, of each body.
    lines: std::ops::Range<usize>,
    /// How many bodies ahead.
    distance: usize,
}

impl Ahead {
    /// What most passes read: poses, velocities, kind and sizes, forces and resting time (the
    /// first three cache lines), twelve bodies ahead.
    const STEP_FIELDS: (std::ops::Range<usize>, usize) = (0..3, 12);
    /// What the refit reads: the above, the box cache, and the sensors' count and the shape's
    /// head, eight bodies ahead.
    const BOX_FIELDS: (std::ops::Range<usize>, usize) = (0..5, 8);

    fn new(bodies: &[Body], (lines, distance): (std::ops::Range<usize>, usize)) -> Self {
        Self {
            start: bodies.as_ptr(),
            len: bodies.len(),
            lines,
            distance,
        }
    }

    /// `items` (one per body, in storage order), asking for the lines of body `k + distance`
    /// on reaching body `k`.
    fn ask_along<I: Iterator>(self, items: I) -> impl Iterator<Item = I::Item> {
        items.enumerate().map(move |(k, item)| {
            if k + self.distance < self.len {
                Body::prefetch_lines(
                    self.start.wrapping_add(k + self.distance),
                    self.lines.clone(),
                );
            }
            item
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broadphase::{BroadPhase, ProxyType};
    use crate::dynamics::body::build_body;
    use crate::dynamics::BodyDef;
    use crate::math::{Transform, Vec2};

    fn body(x: f64) -> crate::dynamics::Body {
        build_body(
            BodyDef {
                transform: Transform::new(Vec2::new(x, 0.0), 0.0),
                ..Default::default()
            },
            "test",
        )
        .unwrap()
    }

    #[test]
    fn removal_keeps_keys_stable_and_rejects_stale_ids() {
        let mut bp = BroadPhase::default();
        let mut set = BodySet::default();
        let ids: Vec<BodyId> = (0..5)
            .map(|i| {
                let b = body(i as f64);
                let p = bp.create_proxy(&b.aabb(), ProxyType::Dynamic, set.next_key());
                set.insert(b, p)
            })
            .collect();
        // Remove the second: the last body moves into its dense place, keys stay.
        let (removed, _) = set.remove(ids[1]).unwrap();
        assert_eq!(removed.pose.translation.x, 1.0);
        assert!(set.get(ids[1]).is_none() && set.remove(ids[1]).is_none());
        for (i, &id) in ids.iter().enumerate().filter(|(i, _)| *i != 1) {
            assert_eq!(set.get(id).unwrap().pose.translation.x, i as f64);
            assert_eq!(set.at(id.index()).pose.translation.x, i as f64);
        }
        assert_eq!(set.len(), 4);
        let mut keys: Vec<u32> = set.iter().map(|(k, _)| k).collect();
        keys.sort_unstable();
        assert_eq!(keys, vec![0, 2, 3, 4]);
        // The freed slot is reused with a new generation.
        let b = body(9.0);
        let p = bp.create_proxy(&b.aabb(), ProxyType::Dynamic, set.next_key());
        let id = set.insert(b, p);
        assert_eq!(id.index(), 1);
        assert_eq!(id.generation(), ids[1].generation() + 1);
        assert!(set.get(ids[1]).is_none(), "the old id stays stale");
        assert_eq!(set.get(id).unwrap().pose.translation.x, 9.0);
        assert_eq!(set.key_bound(), 5);
    }
}
