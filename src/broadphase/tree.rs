//! A dynamic AABB tree: a binary bounding-volume hierarchy over fattened boxes.
//!
//! Follows Box2D's `b2DynamicTree`: leaves hold a user value and a *fat* box (the tight box grown by
//! a margin) so small motions need no update; insertion walks down choosing the child that grows
//! the least in perimeter (the surface-area heuristic in 2D, with the branch-and-bound cost of
//! Bittner et al.), and every node on the way back up is rebalanced by tree rotations when one
//! child is more than one level taller than the other (AVL-style). Queries and ray casts prune
//! whole subtrees whose boxes miss. When many leaves move at once the tree is refitted in its
//! shape, or rebuilt top down by median splits once the refit has grown loose. Node storage is a
//! free-listed `Vec`, so proxies are stable indices and nothing allocates after warm-up.

use crate::math::Vec2;
use crate::math::{Aabb, Real};

/// Index of a leaf in a [`DynamicTree`]; stable until the leaf is removed.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId(pub u32);

const NULL: u32 = u32::MAX;

/// How much looser than after its last full build a refitted tree may grow before
/// [`DynamicTree::refit_with`] rebuilds it (ratio of internal to leaf perimeters).
const REFIT_LOOSENESS: Real = 1.25;

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
struct Node<T> {
    aabb: Aabb,
    parent: u32,
    left: u32,
    right: u32,
    /// Leaf height 0; free nodes −1.
    height: i32,
    value: Option<T>,
}

/// A dynamic AABB tree holding one `T` per leaf. Boxes in world metres.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
pub struct DynamicTree<T> {
    nodes: Vec<Node<T>>,
    root: u32,
    free: Vec<u32>,
    leaves: usize,
    /// Leaves of the last rebuild with their box centres, kept so a rebuild allocates nothing once
    /// grown.
    rebuild_leaves: Vec<(Vec2, u32)>,
    /// Perimeters of the internal nodes over those of the leaves, at the last full build
    /// (infinite before any): the quality a refit is measured against.
    built_ratio: Real,
}

impl<T> Default for DynamicTree<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> DynamicTree<T> {
    /// An empty tree.
    #[must_use]
    pub fn new() -> Self {
        Self {
            nodes: Vec::new(),
            root: NULL,
            free: Vec::new(),
            leaves: 0,
            rebuild_leaves: Vec::new(),
            built_ratio: Real::INFINITY,
        }
    }

    /// Number of leaves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.leaves
    }

    /// Returns `true` if the tree has no leaves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.leaves == 0
    }

    /// The height of the tree (0 for a single leaf, −1 when empty).
    #[must_use]
    pub fn height(&self) -> i32 {
        if self.root == NULL {
            -1
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// The stored (fat) box of a leaf.
    #[must_use]
    pub fn fat_aabb(&self, id: ProxyId) -> Aabb {
        self.nodes[id.0 as usize].aabb
    }

    /// Asks the processor to start loading leaf `id`'s fat box (a hint for passes over many
    /// proxies, see `crate::cache`); nothing for an id out of range.
    #[inline]
    pub(crate) fn prefetch(&self, id: ProxyId) {
        if let Some(node) = self.nodes.get(id.0 as usize) {
            crate::cache::prefetch(&raw const node.aabb);
        }
    }

    /// The value of a leaf.
    #[must_use]
    pub fn value(&self, id: ProxyId) -> &T {
        self.nodes[id.0 as usize]
            .value
            .as_ref()
            .expect("a live leaf")
    }

    fn allocate(&mut self, aabb: Aabb, value: Option<T>) -> u32 {
        let node = Node {
            aabb,
            parent: NULL,
            left: NULL,
            right: NULL,
            height: 0,
            value,
        };
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn release(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.height = -1;
        n.value = None;
        n.parent = NULL;
        self.free.push(i);
    }

    /// Inserts a leaf with the given (already fattened) box.
    pub fn insert(&mut self, fat: Aabb, value: T) -> ProxyId {
        let leaf = self.allocate(fat, Some(value));
        self.insert_leaf(leaf);
        self.leaves += 1;
        ProxyId(leaf)
    }

    /// Removes a leaf, returning its value.
    pub fn remove(&mut self, id: ProxyId) -> T {
        self.remove_leaf(id.0);
        let value = self.nodes[id.0 as usize].value.take().expect("a live leaf");
        self.release(id.0);
        self.leaves -= 1;
        value
    }

    /// Moves a leaf whose tight box is now `tight`: if the stored fat box still contains it, nothing
    /// changes and `false` is returned; otherwise the leaf is re-inserted with `tight` grown by
    /// `margin` metres and `true` is returned.
    pub fn move_proxy(&mut self, id: ProxyId, tight: Aabb, margin: Real) -> bool {
        if self.nodes[id.0 as usize].aabb.contains(&tight) {
            return false;
        }
        self.remove_leaf(id.0);
        self.nodes[id.0 as usize].aabb = tight.grown(margin);
        self.insert_leaf(id.0);
        true
    }

    /// Replaces a leaf's box unconditionally (re-inserting it).
    pub fn set_fat_aabb(&mut self, id: ProxyId, fat: Aabb) {
        self.remove_leaf(id.0);
        self.nodes[id.0 as usize].aabb = fat;
        self.insert_leaf(id.0);
    }

    /// Gives the leaves in `updates` their new fat boxes and rebuilds the tree from all its leaves,
    /// top down: each node splits its leaves at the median of their box centres along the wider
    /// axis of those centres. O(n log n) with no pointer chasing, so when a large share of the
    /// leaves move at once (a falling pile) it costs less than re-inserting them one by one, and
    /// it restores the tree's quality after many greedy insertions. The result is balanced (the
    /// two halves differ by at most one leaf), so it keeps the AVL property.
    pub fn rebuild_with(&mut self, updates: &[(ProxyId, Aabb)]) {
        for &(id, fat) in updates {
            self.nodes[id.0 as usize].aabb = fat;
        }
        let mut leaves = std::mem::take(&mut self.rebuild_leaves);
        leaves.clear();
        for i in 0..self.nodes.len() {
            let node = &self.nodes[i];
            if node.height > 0 {
                self.release(i as u32);
            } else if node.height == 0 && node.value.is_some() {
                // Twice the centre: only the order matters.
                leaves.push((node.aabb.min + node.aabb.max, i as u32));
            }
        }
        self.root = if leaves.is_empty() {
            NULL
        } else {
            self.build(&mut leaves)
        };
        if self.root != NULL {
            self.nodes[self.root as usize].parent = NULL;
        }
        self.rebuild_leaves = leaves;
        self.built_ratio = self.looseness();
    }

    /// The sum of the internal nodes' box perimeters over the leaves' (infinite without leaves):
    /// how loose the tree is. [`refit_with`](Self::refit_with) compares it with its value after
    /// the last full build.
    fn looseness(&self) -> Real {
        let (mut internal, mut leaf) = (0.0, 0.0);
        for node in &self.nodes {
            if node.height > 0 {
                internal += node.aabb.perimeter();
            } else if node.height == 0 && node.value.is_some() {
                leaf += node.aabb.perimeter();
            }
        }
        if leaf > 0.0 {
            internal / leaf
        } else {
            Real::INFINITY
        }
    }

    /// Gives the leaves in `updates` their new fat boxes and refits every internal node's box to
    /// its children, keeping the tree's shape: O(n) and no selection, where a rebuild is
    /// O(n log n). A falling pile moves its leaves together, so the shape stays good; when the
    /// refitted tree has grown loose (its internal perimeters over its leaves' more than
    /// `REFIT_LOOSENESS` times what they were after the last full build: bodies that moved
    /// apart or through each other), it is rebuilt ([`rebuild_with`](Self::rebuild_with)).
    pub fn refit_with(&mut self, updates: &[(ProxyId, Aabb)]) {
        for &(id, fat) in updates {
            self.nodes[id.0 as usize].aabb = fat;
        }
        if self.root == NULL {
            return;
        }
        let (internal, leaves) = self.refit_subtree(self.root);
        // (A tree never built in full, grown by insertions alone, is rebuilt on its first refit.)
        if self.built_ratio.is_infinite() || internal > REFIT_LOOSENESS * self.built_ratio * leaves
        {
            self.rebuild_with(&[]);
        }
    }

    /// Refits the boxes under node `i` (children first) and returns the sums of the perimeters
    /// of its internal nodes and of its leaves (metres). Recursion depth is the tree's height.
    fn refit_subtree(&mut self, i: u32) -> (Real, Real) {
        let node = &self.nodes[i as usize];
        if node.height == 0 {
            return (0.0, node.aabb.perimeter());
        }
        let (left, right) = (node.left, node.right);
        let (li, ll) = self.refit_subtree(left);
        let (ri, rl) = self.refit_subtree(right);
        let aabb = self.nodes[left as usize]
            .aabb
            .union(&self.nodes[right as usize].aabb);
        self.nodes[i as usize].aabb = aabb;
        (li + ri + aabb.perimeter(), ll + rl)
    }

    /// Builds a subtree over `leaves` (non-empty; each with twice its box centre, read here
    /// instead of the nodes so that the median selection compares values in one array) and
    /// returns its root.
    fn build(&mut self, leaves: &mut [(Vec2, u32)]) -> u32 {
        if let [(_, leaf)] = leaves {
            return *leaf;
        }
        let (mut lo, mut hi) = (Vec2::splat(Real::INFINITY), Vec2::splat(Real::NEG_INFINITY));
        for (c, _) in leaves.iter() {
            lo = lo.min(*c);
            hi = hi.max(*c);
        }
        let axis = usize::from(hi.y - lo.y > hi.x - lo.x);
        let mid = leaves.len() / 2;
        leaves.select_nth_unstable_by(mid, |a, b| a.0[axis].total_cmp(&b.0[axis]));
        let (left_leaves, right_leaves) = leaves.split_at_mut(mid);
        let left = self.build(left_leaves);
        let right = self.build(right_leaves);
        let parent = self.allocate(
            self.nodes[left as usize]
                .aabb
                .union(&self.nodes[right as usize].aabb),
            None,
        );
        let height = 1 + self.nodes[left as usize]
            .height
            .max(self.nodes[right as usize].height);
        let p = &mut self.nodes[parent as usize];
        p.left = left;
        p.right = right;
        p.height = height;
        self.nodes[left as usize].parent = parent;
        self.nodes[right as usize].parent = parent;
        parent
    }

    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        // Find the best sibling: branch and bound on the perimeter cost (SAH in 2D).
        let sibling = self.best_sibling(&leaf_box);
        let merged = leaf_box.union(&self.nodes[sibling as usize].aabb);
        let new_parent = self.allocate(merged, None);
        let sibling_height = self.nodes[sibling as usize].height;
        {
            let p = &mut self.nodes[new_parent as usize];
            p.left = sibling;
            p.right = leaf;
            p.height = sibling_height + 1;
        }
        self.take_place(sibling, new_parent);
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.refit_from(new_parent);
    }

    /// The sibling for a new leaf box, found by one greedy descent on the surface-area cost (in 2D,
    /// perimeter): choosing node `n` costs the perimeter of `n ∪ leaf` plus the growth of every
    /// ancestor of `n`. At each internal node the descent compares that cost with a lower bound for
    /// anything under each child (the growth inherited so far, plus the child's own growth, plus
    /// the least a new parent there can cost), stops when neither child can do better, and
    /// otherwise goes down the more promising child. One path, O(height), as Box2D v3's insertion:
    /// a full branch-and-bound search finds slightly better siblings but, in a dense heap whose
    /// boxes all overlap, visits most of the tree.
    fn best_sibling(&self, leaf_box: &Aabb) -> u32 {
        let leaf_area = leaf_box.perimeter();
        let mut i = self.root;
        let root_box = self.nodes[i as usize].aabb;
        let mut area = root_box.perimeter();
        let mut direct = leaf_box.union(&root_box).perimeter();
        let mut inherited = 0.0;
        let mut best = i;
        let mut best_cost = direct;
        while self.nodes[i as usize].height > 0 {
            let node = &self.nodes[i as usize];
            // Growth of this node (and so of every ancestor of what lies below it).
            inherited += direct - area;
            let mut lower = [Real::INFINITY; 2];
            let mut directs = [0.0; 2];
            let mut areas = [0.0; 2];
            for (k, child) in [node.left, node.right].into_iter().enumerate() {
                let c = &self.nodes[child as usize];
                directs[k] = leaf_box.union(&c.aabb).perimeter();
                let cost = directs[k] + inherited;
                if cost < best_cost {
                    best_cost = cost;
                    best = child;
                }
                if c.height > 0 {
                    areas[k] = c.aabb.perimeter();
                    // Below the child: its growth, and a new parent at least the leaf's size.
                    lower[k] = inherited + directs[k] - areas[k] + leaf_area;
                }
            }
            let k = if lower[0] <= lower[1] { 0 } else { 1 };
            if lower[k] >= best_cost {
                break;
            }
            i = if k == 0 { node.left } else { node.right };
            direct = directs[k];
            area = areas[k];
        }
        best
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let sibling = if self.nodes[parent as usize].left == leaf {
            self.nodes[parent as usize].right
        } else {
            self.nodes[parent as usize].left
        };
        self.take_place(parent, sibling);
        if grand != NULL {
            self.refit_from(grand);
        }
        self.release(parent);
        self.nodes[leaf as usize].parent = NULL;
    }

    /// Puts node `new` where node `old` hangs: under `old`'s parent (same side), or as the root.
    fn take_place(&mut self, old: u32, new: u32) {
        let parent = self.nodes[old as usize].parent;
        self.nodes[new as usize].parent = parent;
        if parent == NULL {
            self.root = new;
        } else if self.nodes[parent as usize].left == old {
            self.nodes[parent as usize].left = new;
        } else {
            self.nodes[parent as usize].right = new;
        }
    }

    /// Walks from `i` to the root, rebalancing and refitting boxes and heights.
    fn refit_from(&mut self, mut i: u32) {
        while i != NULL {
            i = self.balance(i);
            self.refit_node(i);
            i = self.nodes[i as usize].parent;
        }
    }

    /// If `a`'s children differ in height by more than one, rotates the taller child up; returns
    /// the node now at `a`'s place.
    fn balance(&mut self, a: u32) -> u32 {
        let node = &self.nodes[a as usize];
        // Decide from the children's heights: `a`'s own height is stale while walking up.
        if node.left == NULL {
            return a;
        }
        let (b, c) = (node.left, node.right);
        let diff = self.nodes[c as usize].height - self.nodes[b as usize].height;
        let up = if diff > 1 {
            self.rotate_up(a, c, true)
        } else if diff < -1 {
            self.rotate_up(a, b, false)
        } else {
            return a;
        };
        // `a` moved down under `up` and may itself be out of balance now (a leaf inserted beside a
        // tall sibling leaves it so by more than one): fix it, then refit `up`.
        self.balance(a);
        self.refit_node(up);
        up
    }

    /// Recomputes a node's height and box from its children.
    fn refit_node(&mut self, n: u32) {
        let (l, r) = (self.nodes[n as usize].left, self.nodes[n as usize].right);
        let h = 1 + self.nodes[l as usize]
            .height
            .max(self.nodes[r as usize].height);
        let bb = self.nodes[l as usize]
            .aabb
            .union(&self.nodes[r as usize].aabb);
        self.nodes[n as usize].height = h;
        self.nodes[n as usize].aabb = bb;
    }

    /// Rotates child `up` of `a` into `a`'s place (`up_is_right` says which side it was on). The
    /// shorter grandchild of `up` moves down to `a`.
    fn rotate_up(&mut self, a: u32, up: u32, up_is_right: bool) -> u32 {
        let (f, g) = (self.nodes[up as usize].left, self.nodes[up as usize].right);
        self.take_place(a, up);
        self.nodes[a as usize].parent = up;
        // The taller grandchild stays with `up`; the shorter replaces `up` under `a`.
        let (keep, give) = if self.nodes[f as usize].height > self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        self.nodes[up as usize].left = a;
        self.nodes[up as usize].right = keep;
        if up_is_right {
            self.nodes[a as usize].right = give;
        } else {
            self.nodes[a as usize].left = give;
        }
        self.nodes[give as usize].parent = a;
        self.nodes[keep as usize].parent = up;
        self.refit_node(a);
        self.refit_node(up);
        up
    }

    /// One more than the largest leaf index ([`ProxyId`]) the tree can hold now: a bound for
    /// tables indexed by leaf.
    #[must_use]
    pub fn id_bound(&self) -> usize {
        self.nodes.len()
    }

    /// Calls `f` for every pair of leaves whose fat boxes overlap, by a simultaneous descent:
    /// pairs of distinct leaves of this tree, each once, when `other` is `None`; pairs of a leaf of
    /// this tree and a leaf of `other` otherwise. When most leaves must be paired anew (a falling
    /// pile), one traversal costs less than a query per leaf.
    ///
    /// A pair of distinct nodes goes on the stack only once their boxes are known to overlap
    /// (tested before the push, not after the pop), so the pairs that fail, most of those a
    /// descent meets, cost one box test and no trip through the stack.
    pub fn for_each_overlap(
        &self,
        other: Option<&DynamicTree<T>>,
        f: impl FnMut(ProxyId, &T, ProxyId, &T),
    ) {
        if let Some(task) = self.root_task(other) {
            self.for_each_overlap_in(other, task, f);
        }
    }

    /// The whole search of [`for_each_overlap`](Self::for_each_overlap) as one task: the two
    /// roots, or `None` when either tree is empty or (two trees) their roots' boxes are apart.
    fn root_task(&self, other: Option<&DynamicTree<T>>) -> Option<(u32, u32)> {
        let tree = other.unwrap_or(self);
        if self.root == NULL || tree.root == NULL {
            return None;
        }
        let apart = other.is_some()
            && !self.nodes[self.root as usize]
                .aabb
                .overlaps(&tree.nodes[tree.root as usize].aabb);
        (!apart).then_some((self.root, tree.root))
    }

    /// The simultaneous descent from the tasks on `stack`: pairs of node `a` of this tree and
    /// node `b` of `other` whose boxes overlap, and, when `other` is this tree (`same`), a node
    /// paired with itself for every pair within its subtree. Calls `f` for every pair of leaves
    /// whose fat boxes overlap, each once.
    fn walk(
        &self,
        other: &DynamicTree<T>,
        same: bool,
        stack: &mut Vec<(u32, u32)>,
        f: &mut impl FnMut(ProxyId, &T, ProxyId, &T),
    ) {
        while let Some((a, b)) = stack.pop() {
            if same && a == b {
                self.split_self(a, stack);
            } else {
                self.descend_pair(a, b, other, stack, f);
            }
        }
    }

    /// The pairs within node `a`'s subtree as tasks: each child with itself, and the two children
    /// together when their boxes overlap (nothing for a leaf).
    fn split_self(&self, a: u32, stack: &mut Vec<(u32, u32)>) {
        let na = &self.nodes[a as usize];
        if na.height > 0 {
            stack.push((na.left, na.left));
            stack.push((na.right, na.right));
            let (left, right) = (
                &self.nodes[na.left as usize],
                &self.nodes[na.right as usize],
            );
            if left.aabb.overlaps(&right.aabb) {
                stack.push((na.left, na.right));
            }
        }
    }

    /// Splits the search for overlapping pairs of leaves (within this tree when `other` is
    /// `None`, else between this tree and `other`) into at least `want` independent tasks where
    /// the trees are deep enough, written to `tasks` (cleared first): walking each with
    /// [`DynamicTree::for_each_overlap_in`] reports every pair that
    /// [`for_each_overlap`](Self::for_each_overlap) would, each in exactly one task.
    /// The descent is split a level at a time, by the rules the walk itself follows.
    pub fn overlap_tasks(
        &self,
        other: Option<&DynamicTree<T>>,
        want: usize,
        tasks: &mut Vec<(u32, u32)>,
    ) {
        tasks.clear();
        let (tree, same) = (other.unwrap_or(self), other.is_none());
        tasks.extend(self.root_task(other));
        if tasks.is_empty() {
            return;
        }
        let mut next = Vec::with_capacity(2 * want);
        while tasks.len() < want {
            next.clear();
            let mut split = false;
            for &(a, b) in tasks.iter() {
                let (leaf_a, leaf_b) = (
                    self.nodes[a as usize].height == 0,
                    tree.nodes[b as usize].height == 0,
                );
                if same && a == b {
                    // (A leaf with itself holds no pair.)
                    if !leaf_a {
                        self.split_self(a, &mut next);
                        split = true;
                    }
                } else if leaf_a && leaf_b {
                    next.push((a, b));
                } else {
                    self.descend_pair(a, b, tree, &mut next, &mut |_, _, _, _| {});
                    split = true;
                }
            }
            std::mem::swap(tasks, &mut next);
            if !split {
                break;
            }
        }
    }

    /// Walks one task of [`overlap_tasks`](Self::overlap_tasks) (made with the same `other`),
    /// calling `f` for every pair of leaves of it whose fat boxes overlap.
    pub fn for_each_overlap_in(
        &self,
        other: Option<&DynamicTree<T>>,
        task: (u32, u32),
        mut f: impl FnMut(ProxyId, &T, ProxyId, &T),
    ) {
        let mut stack = Vec::with_capacity(128);
        stack.push(task);
        match other {
            Some(other) => self.walk(other, false, &mut stack, &mut f),
            None => self.walk(self, true, &mut stack, &mut f),
        }
    }

    /// One step of a simultaneous descent: node `a` of this tree against node `b` of `other`
    /// (distinct nodes whose boxes overlap). Reports two leaves, or splits the larger internal
    /// node and pushes those of its children whose boxes overlap the other node's.
    fn descend_pair(
        &self,
        a: u32,
        b: u32,
        other: &DynamicTree<T>,
        stack: &mut Vec<(u32, u32)>,
        f: &mut impl FnMut(ProxyId, &T, ProxyId, &T),
    ) {
        let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
        match (na.height == 0, nb.height == 0) {
            (true, true) => f(
                ProxyId(a),
                na.value.as_ref().expect("a live leaf"),
                ProxyId(b),
                nb.value.as_ref().expect("a live leaf"),
            ),
            (false, leaf_b) if leaf_b || na.aabb.perimeter() >= nb.aabb.perimeter() => {
                for child in [na.left, na.right] {
                    if self.nodes[child as usize].aabb.overlaps(&nb.aabb) {
                        stack.push((child, b));
                    }
                }
            }
            _ => {
                for child in [nb.left, nb.right] {
                    if other.nodes[child as usize].aabb.overlaps(&na.aabb) {
                        stack.push((a, child));
                    }
                }
            }
        }
    }

    /// Calls `f` for every leaf whose fat box overlaps `aabb`; `f` returns `false` to stop.
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(ProxyId, &T) -> bool) {
        if self.root == NULL {
            return;
        }
        let mut stack = Vec::with_capacity(64);
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            if !node.aabb.overlaps(aabb) {
                continue;
            }
            if node.height == 0 {
                if !f(ProxyId(i), node.value.as_ref().expect("a live leaf")) {
                    return;
                }
            } else {
                stack.push(node.left);
                stack.push(node.right);
            }
        }
    }

    /// Casts the ray `origin + s · direction`, `s ∈ [0, max_s]`, through the tree. `f` is called for
    /// each leaf whose box the ray reaches, nearest boxes first is not guaranteed; it returns the new
    /// `max_s` (the fraction of a hit, to clip the ray) or a negative number to stop.
    pub fn ray_cast(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_s: Real,
        mut f: impl FnMut(ProxyId, &T, Real) -> Real,
    ) {
        if self.root == NULL {
            return;
        }
        let mut max_s = max_s;
        let mut stack = Vec::with_capacity(64);
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            if node.aabb.ray_cast(origin, direction, max_s).is_none() {
                continue;
            }
            if node.height == 0 {
                let s = f(ProxyId(i), node.value.as_ref().expect("a live leaf"), max_s);
                if s < 0.0 {
                    return;
                }
                max_s = max_s.min(s);
            } else {
                stack.push(node.left);
                stack.push(node.right);
            }
        }
    }

    /// The value of leaf `id`, or `None` when `id` is not a live leaf (for checking references
    /// into a tree read from a snapshot).
    #[must_use]
    pub fn leaf_value(&self, id: ProxyId) -> Option<&T> {
        self.nodes
            .get(id.0 as usize)
            .filter(|n| n.height == 0)
            .and_then(|n| n.value.as_ref())
    }

    /// Checks a tree read from a snapshot without trusting any of its links: every index in
    /// range, every node reached once from the root (no cycle, no shared child) or on the free
    /// list once, parents, heights, balance, boxes ordered and containing their children, the
    /// leaf count. Linear in the node count; returns the first violation.
    pub fn check_restored(&self) -> Result<(), String> {
        let n = self.nodes.len();
        let mut seen = vec![false; n];
        let mut mark = |i: u32, what: &str| -> Result<(), String> {
            match seen.get_mut(i as usize) {
                None => Err(format!("{what} {i} is not a node (the tree has {n})")),
                Some(true) => Err(format!("node {i} is reached twice")),
                Some(s) => {
                    *s = true;
                    Ok(())
                }
            }
        };
        if self.built_ratio.is_nan() || self.built_ratio < 0.0 {
            return Err(format!("a build quality of {}", self.built_ratio));
        }
        let mut leaves = 0usize;
        if self.root != NULL {
            mark(self.root, "the root")?;
            if self.nodes[self.root as usize].parent != NULL {
                return Err("the root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                let node = &self.nodes[i as usize];
                if !(node.aabb.min.x <= node.aabb.max.x && node.aabb.min.y <= node.aabb.max.y) {
                    return Err(format!("node {i}'s box has its corners swapped"));
                }
                if node.height == 0 {
                    if node.value.is_none() {
                        return Err(format!("leaf {i} has no value"));
                    }
                    leaves += 1;
                    continue;
                }
                if node.height < 0 {
                    return Err(format!("node {i} is in the tree but marked free"));
                }
                for c in [node.left, node.right] {
                    mark(c, "a child")?;
                    let child = &self.nodes[c as usize];
                    if child.parent != i {
                        return Err(format!(
                            "child {c} of node {i} names {} as its parent",
                            child.parent
                        ));
                    }
                    if !node.aabb.contains(&child.aabb) {
                        return Err(format!("node {i}'s box does not hold its child {c}'s"));
                    }
                }
                let (hl, hr) = (
                    self.nodes[node.left as usize].height,
                    self.nodes[node.right as usize].height,
                );
                if hl < 0 || hr < 0 || node.height != 1 + hl.max(hr) || (hl - hr).abs() > 1 {
                    return Err(format!(
                        "node {i} has height {} over children of heights {hl} and {hr}",
                        node.height
                    ));
                }
                stack.push(node.left);
                stack.push(node.right);
            }
        }
        if leaves != self.leaves {
            return Err(format!(
                "{leaves} leaves in the tree, {} recorded",
                self.leaves
            ));
        }
        for &i in &self.free {
            mark(i, "a free entry")?;
            if self.nodes[i as usize].height != -1 {
                return Err(format!("free node {i} is not marked free"));
            }
        }
        if let Some(lost) = seen.iter().position(|s| !s) {
            return Err(format!("node {lost} is neither in the tree nor free"));
        }
        Ok(())
    }

    /// Checks every structural invariant (parents, heights, boxes containing children, balance, leaf
    /// count); for tests. Returns a description of the first violation.
    pub fn validate(&self) -> Result<(), String> {
        if self.root == NULL {
            return if self.leaves == 0 {
                Ok(())
            } else {
                Err("empty root with leaves".into())
            };
        }
        if self.nodes[self.root as usize].parent != NULL {
            return Err("root has a parent".into());
        }
        let mut count = 0;
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if n.height == 0 {
                count += 1;
                if n.value.is_none() {
                    return Err(format!("leaf {i} without value"));
                }
                continue;
            }
            let (l, r) = (n.left, n.right);
            for c in [l, r] {
                if self.nodes[c as usize].parent != i {
                    return Err(format!(
                        "child {c} of {i} has parent {}",
                        self.nodes[c as usize].parent
                    ));
                }
                if !n.aabb.contains(&self.nodes[c as usize].aabb) {
                    return Err(format!("node {i} box does not contain child {c}"));
                }
            }
            let (hl, hr) = (self.nodes[l as usize].height, self.nodes[r as usize].height);
            if n.height != 1 + hl.max(hr) {
                return Err(format!(
                    "node {i} height {} vs children {hl}, {hr}",
                    n.height
                ));
            }
            if (hl - hr).abs() > 1 {
                return Err(format!("node {i} unbalanced: {hl} vs {hr}"));
            }
            stack.push(l);
            stack.push(r);
        }
        if count != self.leaves {
            return Err(format!(
                "{count} leaves reachable, {} recorded",
                self.leaves
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_box(k: usize, shift: Vec2) -> Aabb {
        let c = Vec2::new((k % 16) as Real * 2.0, (k / 16) as Real * 2.0) + shift;
        Aabb::from_center_half_extents(c, Vec2::splat(0.5))
    }

    #[test]
    fn a_refit_keeps_the_shape_while_leaves_move_together_and_rebuilds_once_they_scatter() {
        let mut tree = DynamicTree::new();
        let ids: Vec<ProxyId> = (0..256)
            .map(|k| tree.insert(grid_box(k, Vec2::ZERO), k))
            .collect();
        // Grown by insertions alone: the first refit rebuilds.
        tree.refit_with(&[]);
        let built = tree.looseness();
        assert_eq!(tree.built_ratio, built);

        // The whole grid falls 3 m: same shape, same looseness, no rebuild.
        let fall = Vec2::new(0.0, -3.0);
        let moved: Vec<(ProxyId, Aabb)> = ids
            .iter()
            .enumerate()
            .map(|(k, &id)| (id, grid_box(k, fall)))
            .collect();
        let root = tree.root;
        tree.refit_with(&moved);
        assert!(tree.validate().is_ok());
        assert_eq!(tree.root, root, "a coherent motion keeps the tree");
        assert!((tree.looseness() - built).abs() < 1e-9 * built);

        // The leaves trade places (each takes the box of the leaf 137 further on): refitted in
        // the old shape the tree would be far looser, so it is rebuilt, as tight as before.
        let scattered: Vec<(ProxyId, Aabb)> = ids
            .iter()
            .enumerate()
            .map(|(k, &id)| (id, grid_box((k * 137 + 11) % 256, fall)))
            .collect();
        let mut kept_shape = tree.clone();
        for &(id, fat) in &scattered {
            kept_shape.nodes[id.0 as usize].aabb = fat;
        }
        kept_shape.refit_subtree(kept_shape.root);
        assert!(kept_shape.looseness() > REFIT_LOOSENESS * built);
        tree.refit_with(&scattered);
        assert!(tree.validate().is_ok());
        assert!(
            tree.looseness() <= REFIT_LOOSENESS * built,
            "{}",
            tree.looseness()
        );
        for &(id, fat) in &scattered {
            assert_eq!(tree.fat_aabb(id), fat);
        }
    }
}
