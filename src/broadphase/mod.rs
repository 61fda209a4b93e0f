//! Broad phase: finds the pairs of bodies whose boxes overlap without O(n²) work.
//!
//! [`DynamicTree`] is the bounding-volume hierarchy (Box2D's `b2DynamicTree`). `BroadPhase` owns
//! one tree per proxy type (static, kinematic, dynamic: static proxies never move and cost nothing
//! per step), the *move buffer* (proxies created, moved or enlarged since the last pair update) and
//! the *pair buffer* of the last update, as Box2D v3's `broad_phase.c` does. It is the one place
//! where a shape's box is fattened: every proxy holds the shape's box grown by half the speculative
//! distance (so two shapes within the speculative distance always have overlapping proxies) and,
//! unless static, by a margin sized to the shape (an eighth of its box's half diagonal, at most
//! `MAX_AABB_MARGIN`, as Box2D v3) so small motions need no tree update.
//!
//! The broad phase knows nothing of bodies: a proxy carries a `u32` chosen by its owner (the world
//! stores the body's key) and a `ProxyType`. Pairs are reported only between types that can
//! collide: at least one of the two is dynamic.

mod tree;

pub use tree::{DynamicTree, ProxyId};

use crate::constants::SPECULATIVE_DISTANCE;
use crate::math::{Aabb, Real, Vec2};

/// Most margin (metres) added around a moving proxy's box so small motions need no tree update
/// (Box2D v3's `B2_MAX_AABB_MARGIN`). Larger margins mean fewer tree updates but more candidate
/// pairs, each a contact the narrow phase, the solver's bookkeeping and the continuous pass visit
/// every step.
const MAX_AABB_MARGIN: Real = 0.05;

/// A moving proxy's margin as a share of its box's half diagonal, up to `MAX_AABB_MARGIN` (Box2D
/// v3 sizes it by the shape's extent with the same fraction): a small body moves its own size in
/// fewer steps than a large one, and a fixed margin around it would pair it with every
/// neighbour of a dense pile (washer's 8,100 small boxes, 0.1 m of margin: 3.5 contacts where
/// Box2D keeps one).
const AABB_MARGIN_FRACTION: Real = 0.125;

/// A tree is rebuilt rather than updated leaf by leaf when more than one in `REBUILD_SHARE` of its
/// proxies must be re-inserted in one refit (see [`BroadPhase::move_proxies`]).
const REBUILD_SHARE: usize = 8;

/// How many moves ahead the refit asks for a proxy's fat box (see `crate::cache`): the boxes lie
/// in tree order, not in the order of the moves.
const PREFETCH_AHEAD: usize = 8;

/// Pairs are found by joining whole trees rather than by a query per moved proxy when more than
/// one in `JOIN_SHARE` of all proxies moved since the last update.
const JOIN_SHARE: usize = 4;

/// The trees (by proxy type) the dynamic tree is descended with in a joined pair search: itself,
/// the static tree and the kinematic tree.
const JOINED: [usize; 3] = [
    ProxyType::Dynamic as usize,
    ProxyType::Static as usize,
    ProxyType::Kinematic as usize,
];

/// What a joined search of the dynamic tree against tree `other` (by proxy type) does with two
/// overlapping leaves: keeps their values as a pair in `pairs` when either proxy moved (`flags`,
/// by tree and leaf).
fn keep_moved<'a>(
    flags: &'a [Vec<bool>; 3],
    other: usize,
    pairs: &'a mut Vec<(u32, u32)>,
) -> impl FnMut(ProxyId, &u32, ProxyId, &u32) + 'a {
    let dynamic = ProxyType::Dynamic as usize;
    move |ia, &a, ib, &b| {
        if flags[dynamic][ia.0 as usize] || flags[other][ib.0 as usize] {
            pairs.push((a.min(b), a.max(b)));
        }
    }
}

/// Fewest dynamic proxies for which the joined descent shares out over threads.
#[cfg(feature = "parallel")]
const PARALLEL_MIN_PROXIES: usize = 1024;

/// Half the speculative distance (metres): two boxes grown by it overlap whenever their shapes are
/// within the speculative distance, which keeps every such pair in the contact set.
const PAIR_MARGIN: Real = SPECULATIVE_DISTANCE / 2.0;

/// What a proxy's owner is, which decides the tree it lives in and what it can pair with.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ProxyType {
    /// Never moves; pairs only with dynamic proxies.
    Static = 0,
    /// Moves with a prescribed velocity; pairs only with dynamic proxies.
    Kinematic = 1,
    /// Moves under forces and contacts; pairs with everything.
    Dynamic = 2,
}

impl ProxyType {
    /// The trees holding proxies this type can pair with.
    fn partners(self) -> &'static [ProxyType] {
        match self {
            ProxyType::Dynamic => &[ProxyType::Static, ProxyType::Kinematic, ProxyType::Dynamic],
            ProxyType::Static | ProxyType::Kinematic => &[ProxyType::Dynamic],
        }
    }
}

/// A proxy's handle: its tree and its leaf. Stable until the proxy is destroyed.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ProxyKey {
    kind: ProxyType,
    id: ProxyId,
}

/// The broad phase of a world: trees by proxy type, the move buffer and the pair buffer (see the
/// module notes). Boxes are world boxes in metres.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default)]
pub(crate) struct BroadPhase {
    trees: [DynamicTree<u32>; 3],
    /// Proxies created, moved or enlarged since the last [`BroadPhase::update_pairs`].
    move_buffer: Vec<ProxyKey>,
    /// The new pairs of the last update: `(lower value, higher value)`, sorted, no duplicates.
    pairs: Vec<(u32, u32)>,
    /// Per tree, by leaf: in the move buffer of the last update (see `joined_pairs` and
    /// [`BroadPhase::moved_last`]); cleared when the next update starts.
    moved_flags: [Vec<bool>; 3],
    /// The tasks of a parallel pair search: the tree a task pairs the dynamic tree with (its
    /// proxy type; dynamic for pairs within it) and the task's two nodes.
    /// Scratch, not part of a snapshot.
    #[cfg(feature = "parallel")]
    #[cfg_attr(feature = "serde", serde(skip))]
    tasks: Vec<(usize, u32, u32)>,
    /// Scratch for one tree's tasks.
    #[cfg(feature = "parallel")]
    #[cfg_attr(feature = "serde", serde(skip))]
    tree_tasks: Vec<(u32, u32)>,
    /// Each task's pairs (kept from update to update, so that no task allocates once they grew).
    #[cfg(feature = "parallel")]
    #[cfg_attr(feature = "serde", serde(skip))]
    task_pairs: Vec<Vec<(u32, u32)>>,
    /// How many pair updates shared their search out over threads (for tests).
    #[cfg(all(test, feature = "parallel"))]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub shared_out: usize,
}

impl BroadPhase {
    fn tree(&self, kind: ProxyType) -> &DynamicTree<u32> {
        &self.trees[kind as usize]
    }

    fn tree_mut(&mut self, kind: ProxyType) -> &mut DynamicTree<u32> {
        &mut self.trees[kind as usize]
    }

    /// The proxy box for a shape box `aabb` of a proxy of type `kind`: grown by the pair margin
    /// and, unless static (a static proxy never moves), by the fat margin (`fat_margin`).
    fn fatten(aabb: &Aabb, kind: ProxyType) -> Aabb {
        match kind {
            ProxyType::Static => aabb.grown(PAIR_MARGIN),
            _ => aabb.grown(PAIR_MARGIN + Self::fat_margin(aabb)),
        }
    }

    /// The margin (metres) a moving proxy's box keeps around a shape box `aabb`: a share of its
    /// half diagonal, at most `MAX_AABB_MARGIN`.
    fn fat_margin(aabb: &Aabb) -> Real {
        (0.5 * AABB_MARGIN_FRACTION * (aabb.max - aabb.min).length()).min(MAX_AABB_MARGIN)
    }

    /// Adds a proxy for a shape whose world box is `aabb`; `value` comes back in pairs and queries.
    pub fn create_proxy(&mut self, aabb: &Aabb, kind: ProxyType, value: u32) -> ProxyKey {
        let id = self.tree_mut(kind).insert(Self::fatten(aabb, kind), value);
        let key = ProxyKey { kind, id };
        self.move_buffer.push(key);
        key
    }

    /// Removes a proxy (and forgets that it moved).
    pub fn destroy_proxy(&mut self, key: ProxyKey) {
        self.tree_mut(key.kind).remove(key.id);
        self.move_buffer.retain(|&k| k != key);
    }

    /// Checks a broad phase read from a snapshot: each tree (`DynamicTree::check_restored`),
    /// every proxy in the move buffer a live leaf, no proxy flagged as moved between updates.
    #[cfg(feature = "serde")]
    pub fn check_restored(&self) -> Result<(), String> {
        for (kind, tree) in self.trees.iter().enumerate() {
            tree.check_restored()
                .map_err(|e| format!("tree {kind}: {e}"))?;
        }
        if let Some(k) = self
            .move_buffer
            .iter()
            .find(|k| self.leaf_value(**k).is_none())
        {
            return Err(format!(
                "the move buffer names proxy {} that no tree holds",
                k.id.0
            ));
        }
        Ok(())
    }

    /// The value of proxy `key`, or `None` when its tree holds no such leaf.
    #[cfg(feature = "serde")]
    pub fn leaf_value(&self, key: ProxyKey) -> Option<u32> {
        self.tree(key.kind).leaf_value(key.id).copied()
    }

    /// Number of proxies over all trees.
    #[cfg(feature = "serde")]
    pub fn proxy_count(&self) -> usize {
        self.trees.iter().map(DynamicTree::len).sum()
    }

    /// Whether proxy `key` lives in the tree for `kind`.
    #[cfg(feature = "serde")]
    pub fn is_of(key: ProxyKey, kind: ProxyType) -> bool {
        key.kind == kind
    }

    /// The stored (fat) box of a proxy.
    pub fn fat_aabb(&self, key: ProxyKey) -> Aabb {
        self.tree(key.kind).fat_aabb(key.id)
    }

    /// Whether a proxy whose fat box is `fat` holds a shape that stays within `swept`: every proxy
    /// a shape within the speculative distance of it can have then overlaps `fat`.
    pub fn holds(fat: &Aabb, swept: &Aabb) -> bool {
        fat.contains(&swept.grown(PAIR_MARGIN))
    }

    /// The box a shape's box must meet for a proxy made for that shape to overlap proxy box
    /// `fat`: a body that pairs piece by piece (`Body::reached_by`) asks its pieces with it.
    /// (The largest margin a proxy can have: a piece with a smaller one is reached a little early.)
    pub fn proxy_reach(fat: &Aabb) -> Aabb {
        fat.grown(PAIR_MARGIN + MAX_AABB_MARGIN)
    }

    /// Places a proxy anew for a shape box `aabb` (after a teleport), whatever its old box.
    pub fn reset_proxy(&mut self, key: ProxyKey, aabb: &Aabb) {
        let fat = Self::fatten(aabb, key.kind);
        self.tree_mut(key.kind).set_fat_aabb(key.id, fat);
        self.move_buffer.push(key);
    }

    /// Follows many shapes at once (the end-of-step refit): a proxy whose shape left its fat box
    /// (or whose box is far too big for it, see `refitted`) gets a new fat box and is re-inserted,
    /// except that when more than `1 / REBUILD_SHARE` of a tree's proxies must be re-inserted,
    /// that tree is rebuilt once instead (`DynamicTree::rebuild_with`): a falling
    /// pile leaves its fat boxes all on the same step. `moves` pairs each proxy with its shape's
    /// new box; `scratch` is reused between calls.
    pub fn move_proxies(&mut self, moves: &[(ProxyKey, Aabb)], scratch: &mut Vec<(ProxyId, Aabb)>) {
        for kind in [ProxyType::Kinematic, ProxyType::Dynamic] {
            scratch.clear();
            for (k, (key, aabb)) in moves
                .iter()
                .enumerate()
                .filter(|(_, (k, _))| k.kind == kind)
            {
                if let Some((ahead, _)) = moves.get(k + PREFETCH_AHEAD) {
                    self.tree(ahead.kind).prefetch(ahead.id);
                }
                if let Some(fat) = Self::refitted(self.tree(kind).fat_aabb(key.id), aabb) {
                    scratch.push((key.id, fat));
                    self.move_buffer.push(*key);
                }
            }
            let tree = self.tree_mut(kind);
            if scratch.len() * REBUILD_SHARE > tree.len() {
                tree.refit_with(scratch);
            } else {
                for &(id, fat) in scratch.iter() {
                    tree.set_fat_aabb(id, fat);
                }
            }
        }
    }

    /// The new fat box of a proxy whose fat box is `fat` for a shape whose box is now `aabb`, or
    /// `None` when it may stay: it is replaced when the shape left it, or when it is far too big
    /// for the shape (after a fast step enlarged it to the swept box).
    fn refitted(fat: Aabb, aabb: &Aabb) -> Option<Aabb> {
        let tight = aabb.grown(PAIR_MARGIN);
        let fresh = tight.grown(Self::fat_margin(aabb));
        let oversized = fat.perimeter() > 2.0 * fresh.perimeter();
        (oversized || !fat.contains(&tight)).then_some(fresh)
    }

    /// Makes a proxy's box hold `swept` (a box around a fast shape's motion), growing it only if
    /// needed. A grown box can reach proxies it did not reach before, so it joins the move buffer:
    /// the next pair update must query it. Returns whether it grew.
    pub fn enlarge_proxy(&mut self, key: ProxyKey, swept: &Aabb) -> bool {
        let tree = self.tree_mut(key.kind);
        let fat = tree.fat_aabb(key.id);
        if Self::holds(&fat, swept) {
            return false;
        }
        // The old box stays inside the new one: the continuous pass finds a body's candidates
        // among the bodies whose proxies its motion's box meets, and a proxy that held the
        // body's start box must go on holding it when a later motion of the same step grows it
        // (a block sent back the way it came was missed by a ball whose query came between).
        tree.set_fat_aabb(
            key.id,
            fat.union(&swept.grown(PAIR_MARGIN + Self::fat_margin(swept))),
        );
        self.move_buffer.push(key);
        true
    }

    /// Makes the next pair update query proxy `key` again (its pairs that are not tracked are
    /// reported again), as if it had moved.
    pub fn touch_proxy(&mut self, key: ProxyKey) {
        self.move_buffer.push(key);
    }

    /// Finds the new pairs: every pair of proxies whose fat boxes overlap, at least one of which is
    /// in the move buffer, that can collide by type and that `tracked` does not already know.
    /// Returns them as `(lower value, higher value)`, sorted, without duplicates; empties the move
    /// buffer.
    pub fn update_pairs(&mut self, tracked: impl Fn(u32, u32) -> bool) -> &[(u32, u32)] {
        let mut moved = std::mem::take(&mut self.move_buffer);
        // Each moved proxy once (a flag per proxy; the pairs are sorted below, so the order of
        // the moved proxies does not matter). The last update's flags are cleared first.
        let flags = &mut self.moved_flags;
        for (kind, flag) in flags.iter_mut().enumerate() {
            flag.fill(false);
            flag.resize(self.trees[kind].id_bound(), false);
        }
        moved.retain(|key| {
            let flag = &mut flags[key.kind as usize][key.id.0 as usize];
            !std::mem::replace(flag, true)
        });
        self.pairs.clear();
        let proxies: usize = self.trees.iter().map(DynamicTree::len).sum();
        if moved.len() * JOIN_SHARE > proxies {
            self.joined_pairs();
        } else {
            self.queried_pairs(&moved);
        }
        // Most pairs found are tracked already: dropping them first leaves few to sort.
        self.pairs.retain(|&(a, b)| !tracked(a, b));
        self.pairs.sort_unstable();
        self.pairs.dedup();
        moved.clear();
        self.move_buffer = moved;
        &self.pairs
    }

    /// Whether proxy `key` was in the move buffer of the last
    /// [`update_pairs`](Self::update_pairs) (created, moved, enlarged or touched since the update
    /// before): a pair of proxies neither of which did overlaps as it did then.
    pub fn moved_last(&self, key: ProxyKey) -> bool {
        self.moved_flags[key.kind as usize]
            .get(key.id.0 as usize)
            .copied()
            .unwrap_or(true)
    }

    /// The new pairs the last [`update_pairs`](Self::update_pairs) found (proxy ids, each pair
    /// once, `a < b`, ascending), read through a shared borrow.
    pub fn new_pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Pair finding when many proxies moved: every overlapping pair of trees that can pair
    /// (dynamic with itself, with static and with kinematic) by simultaneous descent, kept when
    /// one of the two moved (flagged in `moved_flags`).
    fn joined_pairs(&mut self) {
        #[cfg(feature = "parallel")]
        if crate::dynamics::stages::thread_count() > 1
            && self.trees[ProxyType::Dynamic as usize].len() >= PARALLEL_MIN_PROXIES
        {
            self.joined_pairs_shared_out();
            return;
        }
        let dynamic = ProxyType::Dynamic as usize;
        for other in JOINED {
            let with = (other != dynamic).then(|| &self.trees[other]);
            let keep = keep_moved(&self.moved_flags, other, &mut self.pairs);
            self.trees[dynamic].for_each_overlap(with, keep);
        }
    }

    /// [`joined_pairs`](Self::joined_pairs) over rayon's threads: each descent is split into tasks
    /// (`DynamicTree::overlap_tasks`, several per thread) that share out, and their pairs are
    /// gathered in task order. The pairs found are those of the serial descent (each once); their
    /// order differs, and `update_pairs` sorts them, so the result is the same on any thread count.
    #[cfg(feature = "parallel")]
    fn joined_pairs_shared_out(&mut self) {
        use rayon::prelude::*;
        #[cfg(test)]
        {
            self.shared_out += 1;
        }
        let dynamic = ProxyType::Dynamic as usize;
        let want = 8 * crate::dynamics::stages::thread_count();
        self.tasks.clear();
        for other in JOINED {
            let with = (other != dynamic).then(|| &self.trees[other]);
            self.trees[dynamic].overlap_tasks(with, want, &mut self.tree_tasks);
            let tasks = self.tree_tasks.iter().map(|&(a, b)| (other, a, b));
            self.tasks.extend(tasks);
        }
        if self.task_pairs.len() < self.tasks.len() {
            self.task_pairs.resize_with(self.tasks.len(), Vec::new);
        }
        let (trees, flags) = (&self.trees, &self.moved_flags);
        self.task_pairs
            .par_iter_mut()
            .zip(self.tasks.par_iter())
            .for_each(|(pairs, &(other, a, b))| {
                pairs.clear();
                let with = (other != dynamic).then(|| &trees[other]);
                trees[dynamic].for_each_overlap_in(with, (a, b), keep_moved(flags, other, pairs));
            });
        for pairs in &self.task_pairs[..self.tasks.len()] {
            self.pairs.extend_from_slice(pairs);
        }
    }

    /// Pair finding when few proxies moved: each moved proxy queries the trees it can pair with.
    fn queried_pairs(&mut self, moved: &[ProxyKey]) {
        for &key in moved {
            let tree = self.tree(key.kind);
            let value = *tree.value(key.id);
            let fat = tree.fat_aabb(key.id);
            for &partner in key.kind.partners() {
                self.trees[partner as usize].query(&fat, |_, &other| {
                    if other != value {
                        self.pairs.push((value.min(other), value.max(other)));
                    }
                    true
                });
            }
        }
    }

    /// Calls `f` with the value of every proxy whose fat box overlaps `aabb`, in every tree;
    /// `f` returns `false` to stop.
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(u32) -> bool) {
        for tree in &self.trees {
            let mut go_on = true;
            tree.query(aabb, |_, &v| {
                go_on = f(v);
                go_on
            });
            if !go_on {
                return;
            }
        }
    }

    /// Like [`BroadPhase::query`], but only over the proxies a proxy of type `kind` can pair with.
    pub fn query_partners(&self, aabb: &Aabb, kind: ProxyType, mut f: impl FnMut(u32)) {
        for &partner in kind.partners() {
            self.tree(partner).query(aabb, |_, &v| {
                f(v);
                true
            });
        }
    }

    /// Casts the ray `origin + s · translation`, `s ∈ [0, 1]`, through every tree. `f` gets each
    /// proxy value whose box the ray reaches and the current `max_s`, and returns the new `max_s`
    /// (the fraction of a hit, to clip the ray), or a negative number to stop.
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2, mut f: impl FnMut(u32, Real) -> Real) {
        let mut max_s = 1.0;
        for tree in &self.trees {
            let mut stopped = false;
            tree.ray_cast(origin, translation, max_s, |_, &v, max| {
                let s = f(v, max);
                if s < 0.0 {
                    stopped = true;
                } else {
                    max_s = max_s.min(s);
                }
                s
            });
            if stopped {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn kind(k: u8) -> ProxyType {
        match k % 3 {
            0 => ProxyType::Static,
            1 => ProxyType::Kinematic,
            _ => ProxyType::Dynamic,
        }
    }

    fn aabb(x: Real, y: Real, w: Real, h: Real) -> Aabb {
        Aabb {
            min: Vec2::new(x, y),
            max: Vec2::new(x + w, y + h),
        }
    }

    /// Every pair of proxies whose fat boxes overlap and that can collide (one dynamic), among
    /// those with `moved[i]` for at least one of the two.
    fn brute_pairs(
        bp: &BroadPhase,
        keys: &[(ProxyKey, u32)],
        moved: &[bool],
    ) -> BTreeSet<(u32, u32)> {
        let mut out = BTreeSet::new();
        for (i, &(ki, vi)) in keys.iter().enumerate() {
            for (j, &(kj, vj)) in keys.iter().enumerate().skip(i + 1) {
                let dynamic = ki.kind == ProxyType::Dynamic || kj.kind == ProxyType::Dynamic;
                if (moved[i] || moved[j]) && dynamic && bp.fat_aabb(ki).overlaps(&bp.fat_aabb(kj)) {
                    out.insert((vi.min(vj), vi.max(vj)));
                }
            }
        }
        out
    }

    proptest! {
        /// Pair finding matches brute force: first over every new proxy, then, after some moves,
        /// over the moved ones minus the pairs already tracked. Box queries match too.
        #[test]
        fn pairs_and_queries_match_brute_force(
            boxes in prop::collection::vec((0u8..3, -20.0..20.0f64, -20.0..20.0f64, 0.0..4.0f64, 0.0..4.0f64), 1..60),
            moves in prop::collection::vec((0usize..60, -3.0..3.0f64, -3.0..3.0f64), 0..30),
            probe in (-20.0..20.0f64, -20.0..20.0f64, 0.0..10.0f64, 0.0..10.0f64),
        ) {
            let mut bp = BroadPhase::default();
            let mut shapes: Vec<Aabb> = Vec::new();
            let mut keys = Vec::new();
            for (i, &(k, x, y, w, h)) in boxes.iter().enumerate() {
                let b = aabb(x, y, w, h);
                shapes.push(b);
                keys.push((bp.create_proxy(&b, kind(k), i as u32 * 7), i as u32 * 7));
            }
            let all_moved = vec![true; keys.len()];
            let expected = brute_pairs(&bp, &keys, &all_moved);
            let found: BTreeSet<_> = bp.update_pairs(|_, _| false).iter().copied().collect();
            prop_assert_eq!(&found, &expected);
            let tracked = found;
            // Two refits: the first moves a varying share of the proxies at once (past one in
            // eight the tree is rebuilt), the second moves one proxy (re-inserted alone).
            let mut moved = vec![false; keys.len()];
            let mut scratch = Vec::new();
            for batch in [&moves[..], &moves[moves.len().min(1)..moves.len().min(2)]] {
                let mut refit = Vec::new();
                for &(i, dx, dy) in batch {
                    let i = i % keys.len();
                    if keys[i].0.kind == ProxyType::Static {
                        continue;
                    }
                    let b = &mut shapes[i];
                    b.min += Vec2::new(dx, dy);
                    b.max += Vec2::new(dx, dy);
                    refit.retain(|&(k, _)| k != keys[i].0);
                    refit.push((keys[i].0, *b));
                }
                let before: Vec<Aabb> = keys.iter().map(|&(k, _)| bp.fat_aabb(k)).collect();
                bp.move_proxies(&refit, &mut scratch);
                for (i, &(k, _)) in keys.iter().enumerate() {
                    // The fat box always holds the shape's box; it changes only when it must.
                    prop_assert!(bp.fat_aabb(k).contains(&shapes[i]));
                    if bp.fat_aabb(k) != before[i] {
                        prop_assert!(refit.iter().any(|&(r, _)| r == k));
                        moved[i] = true;
                    }
                }
                for tree in &bp.trees {
                    prop_assert_eq!(tree.validate(), Ok(()));
                }
            }
            let expected: BTreeSet<_> = brute_pairs(&bp, &keys, &moved)
                .difference(&tracked)
                .copied()
                .collect();
            let found: BTreeSet<_> = bp
                .update_pairs(|a, b| tracked.contains(&(a, b)))
                .iter()
                .copied()
                .collect();
            prop_assert_eq!(found, expected);
            let q = aabb(probe.0, probe.1, probe.2, probe.3);
            let mut hits = BTreeSet::new();
            bp.query(&q, |v| {
                hits.insert(v);
                true
            });
            let brute: BTreeSet<u32> = keys
                .iter()
                .filter(|(k, _)| bp.fat_aabb(*k).overlaps(&q))
                .map(|&(_, v)| v)
                .collect();
            prop_assert_eq!(hits, brute);
        }
    }

    proptest! {
        /// The simultaneous descents find exactly the overlapping leaf pairs (brute force), within
        /// a tree (each pair once) and across two trees, also after leaves were removed; so do
        /// the same descents split into any number of tasks (the parallel pair search), each
        /// pair in one task only.
        #[test]
        fn tree_joins_match_brute_force(
            boxes in prop::collection::vec((any::<bool>(), -20.0..20.0f64, -20.0..20.0f64, 0.0..5.0f64, 0.0..5.0f64), 0..80),
            removed in prop::collection::vec(0usize..80, 0..20),
            want in 1usize..200,
        ) {
            let mut trees = [DynamicTree::new(), DynamicTree::new()];
            let mut leaves: Vec<(usize, ProxyId, Aabb, u32)> = Vec::new();
            for (i, &(which, x, y, w, h)) in boxes.iter().enumerate() {
                let b = aabb(x, y, w, h);
                let t = usize::from(which);
                leaves.push((t, trees[t].insert(b, i as u32), b, i as u32));
            }
            for r in removed {
                if r < leaves.len() {
                    let (t, id, _, _) = leaves.remove(r);
                    trees[t].remove(id);
                }
            }
            let brute = |ta: usize, tb: usize| {
                let mut out = BTreeSet::new();
                for (i, a) in leaves.iter().enumerate().filter(|(_, l)| l.0 == ta) {
                    for (j, b) in leaves.iter().enumerate().filter(|(_, l)| l.0 == tb) {
                        if (ta != tb || i < j) && a.2.overlaps(&b.2) {
                            out.insert((a.3.min(b.3), a.3.max(b.3)));
                        }
                    }
                }
                out
            };
            let mut within = Vec::new();
            trees[0].for_each_overlap(None, |_, &a, _, &b| within.push((a.min(b), a.max(b))));
            let count = within.len();
            let within: BTreeSet<_> = within.into_iter().collect();
            prop_assert_eq!(count, within.len(), "each pair once");
            prop_assert_eq!(&within, &brute(0, 0));
            let mut across = BTreeSet::new();
            trees[0].for_each_overlap(Some(&trees[1]), |_, &a, _, &b| {
                across.insert((a.min(b), a.max(b)));
            });
            prop_assert_eq!(&across, &brute(0, 1));
            let mut tasks = Vec::new();
            for (other, expected) in [(None, &within), (Some(&trees[1]), &across)] {
                trees[0].overlap_tasks(other, want, &mut tasks);
                let mut found = Vec::new();
                for &task in &tasks {
                    trees[0].for_each_overlap_in(other, task, |_, &a, _, &b| {
                        found.push((a.min(b), a.max(b)));
                    });
                }
                let count = found.len();
                let found: BTreeSet<_> = found.into_iter().collect();
                prop_assert_eq!(count, found.len(), "each pair in one task");
                prop_assert_eq!(&found, expected, "{} tasks", tasks.len());
            }
        }
    }

    #[test]
    fn destroyed_proxies_leave_no_pairs_and_enlarging_marks_a_move() {
        let mut bp = BroadPhase::default();
        let a = bp.create_proxy(&aabb(0.0, 0.0, 1.0, 1.0), ProxyType::Dynamic, 1);
        let b = bp.create_proxy(&aabb(0.5, 0.0, 1.0, 1.0), ProxyType::Dynamic, 2);
        let far = bp.create_proxy(&aabb(50.0, 0.0, 1.0, 1.0), ProxyType::Static, 3);
        bp.destroy_proxy(b);
        assert!(bp.update_pairs(|_, _| false).is_empty(), "b was destroyed");
        // Growing a to reach the far static proxy reports the pair at the next update.
        assert!(bp.enlarge_proxy(a, &aabb(0.0, 0.0, 51.0, 1.0)));
        assert!(
            !bp.enlarge_proxy(a, &aabb(0.0, 0.0, 2.0, 1.0)),
            "already holds it"
        );
        assert_eq!(bp.update_pairs(|_, _| false), &[(1, 3)]);
        // Two static proxies never pair.
        let _ = bp.create_proxy(&aabb(50.5, 0.0, 1.0, 1.0), ProxyType::Static, 4);
        assert_eq!(bp.update_pairs(|a, b| (a, b) == (1, 3)), &[(1, 4)]);
        let _ = far;
    }
}
