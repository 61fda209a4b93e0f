//! Exact velocity projection for an impact group's rigid joints when they form a tree (a chain, a
//! ragdoll, a vehicle without closed loops): the velocities closest to the current ones, in the
//! bodies' mass metric, that every joint's rigid parts hold (`J·v = 0`), found in time linear in
//! the number of bodies.
//!
//! Method: Baraff's "Linear-time dynamics using Lagrange multipliers" (SIGGRAPH 1996). The
//! system `[M −Jᵀ; −J 0]·[v'; λ] = [M·v; c]` has one node per movable body (block `M`, 3×3) and
//! per joint (its rows, 1 to 3); the blocks off the diagonal join a joint to its bodies. When
//! these nodes form a tree, eliminating leaves first creates no fill-in, so the factorisation and
//! each solve cost a few small dense blocks per node. A joint to an immovable body (static,
//! kinematic, held) is a leaf whose other body's velocity moves into the right-hand side `c`.
//!
//! The group solve (`group.rs`) uses it instead of sweeping the joints one by one: Gauss–Seidel
//! needs about n² sweeps to carry a blow down a chain of n links, and never got there within its
//! cap on a 1,000-link chain (steps of 0.7 s, joints pulled 0.68 m apart where the soft solver
//! alone leaves 0.28 m).

// Small dense blocks read as the formulas do, with row and column indices.
#![allow(clippy::needless_range_loop)]

use crate::math::{Real, Vec2};

/// Compliance given to a leaf joint's block, relative to its effective inverse mass (see
/// `JointTree::build`); `project` removes the error it makes by iterative refinement.
const LEAF_COMPLIANCE: Real = 1e-8;

/// Refinements of each projection of a tree with a compliant leaf (a joint to an immovable body):
/// each multiplies the compliance's relative error by about `LEAF_COMPLIANCE`. A tree without one
/// is factorised exactly and projects with one solve.
const REFINEMENTS: usize = 2;

/// One rigid row of a joint: a relative velocity that must vanish.
#[derive(Clone, Copy, Debug)]
pub(super) enum Row {
    /// B's anchor relative to A's along this unit direction (world).
    Linear(Vec2),
    /// B's angular velocity relative to A's.
    Angular,
}

/// A joint between two bodies of the group (slots into the velocity arrays), with its anchors'
/// offsets from the centres of mass (metres, world) and its rigid rows.
#[derive(Clone, Debug)]
pub(super) struct TreeJoint {
    pub a: usize,
    pub b: usize,
    pub ra: Vec2,
    pub rb: Vec2,
    pub rows: Rows,
}

/// A joint's rigid rows (1 to 3), kept in place: a group's joints are built for every jointed
/// impact, and a list per joint would be an allocation per joint.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rows {
    rows: [Row; 3],
    count: usize,
}

impl Rows {
    /// The rows `rows` (at most 3).
    pub fn new(rows: &[Row]) -> Self {
        let mut out = Self {
            rows: [Row::Angular; 3],
            count: rows.len(),
        };
        out.rows[..rows.len()].copy_from_slice(rows);
        out
    }
}

impl core::ops::Deref for Rows {
    type Target = [Row];

    fn deref(&self) -> &[Row] {
        &self.rows[..self.count]
    }
}

/// A small dense block (at most 3×3), row-major.
#[derive(Clone, Copy, Debug, Default)]
struct Block {
    rows: usize,
    cols: usize,
    m: [[Real; 3]; 3],
}

impl Block {
    fn zero(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            m: [[0.0; 3]; 3],
        }
    }

    fn transpose(&self) -> Self {
        let mut t = Self::zero(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t.m[j][i] = self.m[i][j];
            }
        }
        t
    }

    fn mul(&self, o: &Self) -> Self {
        let mut p = Self::zero(self.rows, o.cols);
        for i in 0..self.rows {
            for j in 0..o.cols {
                p.m[i][j] = (0..self.cols).map(|k| self.m[i][k] * o.m[k][j]).sum();
            }
        }
        p
    }

    fn apply(&self, x: &[Real; 3]) -> [Real; 3] {
        let mut y = [0.0; 3];
        for (i, yi) in y.iter_mut().enumerate().take(self.rows) {
            *yi = (0..self.cols).map(|k| self.m[i][k] * x[k]).sum();
        }
        y
    }

    fn sub_assign(&mut self, o: &Self) {
        for i in 0..self.rows {
            for j in 0..self.cols {
                self.m[i][j] -= o.m[i][j];
            }
        }
    }

    /// The inverse of a square block (Gauss–Jordan with partial pivoting), or `None` when a
    /// pivot vanishes against the block's scale (rows that constrain the same motion twice).
    fn inverse(&self) -> Option<Self> {
        let n = self.rows;
        let scale = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| self.m[i][j].abs())
            .fold(0.0, Real::max);
        if scale == 0.0 {
            return None;
        }
        let (mut a, mut inv) = (self.m, [[0.0; 3]; 3]);
        for (i, row) in inv.iter_mut().enumerate().take(n) {
            row[i] = 1.0;
        }
        for col in 0..n {
            let pivot = (col..n)
                .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
                .expect("a row");
            if a[pivot][col].abs() <= 1e-12 * scale {
                return None;
            }
            a.swap(col, pivot);
            inv.swap(col, pivot);
            let d = a[col][col];
            for j in 0..n {
                a[col][j] /= d;
                inv[col][j] /= d;
            }
            for r in 0..n {
                if r != col {
                    let f = a[r][col];
                    for j in 0..n {
                        a[r][j] -= f * a[col][j];
                        inv[r][j] -= f * inv[col][j];
                    }
                }
            }
        }
        Some(Self {
            rows: n,
            cols: n,
            m: inv,
        })
    }
}

/// The joint's Jacobian block for one of its bodies (`rows × 3`: vx, vy, w), with the sign the
/// body has in the relative velocity (−1 for A, +1 for B) and its anchor offset `r`.
fn jacobian(rows: &[Row], sign: Real, r: Vec2) -> Block {
    let mut j = Block::zero(rows.len(), 3);
    for (i, row) in rows.iter().enumerate() {
        j.m[i] = match *row {
            Row::Linear(n) => [sign * n.x, sign * n.y, sign * r.perp_dot(n)],
            Row::Angular => [0.0, 0.0, sign],
        };
    }
    j
}

/// The factorised system of one group's joints (see the module notes); reused for every
/// projection of the group solve, since masses and anchors stay fixed during it.
pub(super) struct JointTree {
    /// Nodes in elimination order (children before parents): the body slot or the joint index.
    order: Vec<Node>,
    /// Per node (by position in `order`): its parent's position, if any.
    parent: Vec<Option<usize>>,
    /// Per node: the block joining it to its parent (`size × parent size`).
    up: Vec<Block>,
    /// Per node: the inverse of its eliminated diagonal block.
    d_inv: Vec<Block>,
    /// Per body slot: its node position (movable bodies only).
    body_node: Vec<Option<usize>>,
    /// Per body slot: its mass matrix's diagonal (kg, kg, kg·m²); movable bodies only.
    mass: Vec<[Real; 3]>,
    /// The joints, for the right-hand side.
    joints: Vec<TreeJoint>,
    /// Whether a leaf joint got a compliance (`leaf_compliance`), whose error `project` refines
    /// away; without one the factorisation is exact and `project` solves once.
    compliant: bool,
}

#[derive(Clone, Copy, Debug)]
enum Node {
    Body(usize),
    Joint(usize),
}

/// The graph of `joints` over the bodies (nodes: bodies `0..bodies`, then the joints; an edge
/// joins a joint to each of its movable bodies) as adjacency lists, or `None` when it is not a
/// forest (a loop, two joints between the same bodies), a joint has no rows or joins a body to
/// itself, or a joint joins two immovable bodies.
fn forest(bodies: usize, movable: &[bool], joints: &[TreeJoint]) -> Option<Vec<Vec<usize>>> {
    let total = bodies + joints.len();
    let mut link: Vec<usize> = (0..total).collect();
    fn root(link: &mut [usize], mut i: usize) -> usize {
        while link[i] != i {
            link[i] = link[link[i]];
            i = link[i];
        }
        i
    }
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); total];
    for (k, j) in joints.iter().enumerate() {
        if j.rows.is_empty() || j.a == j.b {
            return None;
        }
        let node = bodies + k;
        for body in [j.a, j.b].into_iter().filter(|&b| movable[b]) {
            let (x, y) = (root(&mut link, node), root(&mut link, body));
            if x == y {
                return None; // a loop
            }
            link[x] = y;
            adjacent[node].push(body);
            adjacent[body].push(node);
        }
        if adjacent[node].is_empty() {
            return None; // between two immovable bodies: nothing to solve
        }
    }
    Some(adjacent)
}

/// The nodes of the forest `adjacent` (bodies `0..bodies`, then joints; immovable bodies left
/// out), each component from a root with parents before children, then reversed so that children
/// come first; and each node's parent as a position in that order.
fn order_from_roots(
    bodies: usize,
    movable: &[bool],
    adjacent: &[Vec<usize>],
) -> (Vec<usize>, Vec<Option<usize>>) {
    let total = adjacent.len();
    let mut position = vec![usize::MAX; total];
    let mut order = Vec::with_capacity(total);
    let mut parent_of = Vec::with_capacity(total);
    for start in 0..total {
        let used = start >= bodies || movable[start];
        if !used || position[start] != usize::MAX {
            continue;
        }
        position[start] = order.len();
        order.push(start);
        parent_of.push(None);
        let mut next = order.len() - 1;
        while next < order.len() {
            let node = order[next];
            for &other in &adjacent[node] {
                if position[other] == usize::MAX {
                    position[other] = order.len();
                    order.push(other);
                    parent_of.push(Some(node));
                }
            }
            next += 1;
        }
    }
    order.reverse();
    parent_of.reverse();
    for (p, &node) in order.iter().enumerate() {
        position[node] = p;
    }
    let parent: Vec<Option<usize>> = parent_of
        .iter()
        .map(|p| p.map(|node| position[node]))
        .collect();
    (order, parent)
}

/// The compliance (diagonal entry, negative) given to a leaf joint's zero block so that it can be
/// eliminated first: `LEAF_COMPLIANCE` times the mean diagonal of the joint's effective inverse
/// mass through its body (`h`: the joint–body block, `mass`: the body's masses, `rows`: the
/// joint's rows), far below the scale `project` refines away.
fn leaf_compliance(h: &Block, mass: &[Real; 3], rows: usize) -> Real {
    let w = [1.0 / mass[0], 1.0 / mass[1], 1.0 / mass[2]];
    let trace: Real = (0..rows)
        .map(|row| {
            (0..3)
                .map(|c| h.m[row][c] * h.m[row][c] * w[c])
                .sum::<Real>()
        })
        .sum();
    -LEAF_COMPLIANCE * trace / rows as Real
}

impl JointTree {
    /// Factorises the joints over bodies whose inverse masses are `inv` (1/kg, 1/(kg·m²); a body
    /// is movable when `movable`). `None` when the joints do not form a tree over the movable
    /// bodies (a closed loop, two joints between the same bodies), a movable body has a zero
    /// inverse mass or inertia, or a joint's rows are dependent: the caller then sweeps.
    pub(super) fn build(
        inv: &[(Real, Real)],
        movable: &[bool],
        joints: Vec<TreeJoint>,
    ) -> Option<JointTree> {
        let bodies = inv.len();
        if (0..bodies).any(|i| movable[i] && !(inv[i].0 > 0.0 && inv[i].1 > 0.0)) {
            return None;
        }
        // Graph nodes: bodies 0..bodies, joints after; edges joint–movable body.
        let adjacent = forest(bodies, movable, &joints)?;
        let (order, parent) = order_from_roots(bodies, movable, &adjacent);
        let mass: Vec<[Real; 3]> = inv
            .iter()
            .map(|&(linear, angular)| {
                if linear > 0.0 && angular > 0.0 {
                    [1.0 / linear, 1.0 / linear, 1.0 / angular]
                } else {
                    [0.0; 3]
                }
            })
            .collect();
        let nodes: Vec<Node> = order
            .iter()
            .map(|&n| {
                if n < bodies {
                    Node::Body(n)
                } else {
                    Node::Joint(n - bodies)
                }
            })
            .collect();
        // The block joining each node to its parent: −J (joint × body) or −Jᵀ (body × joint).
        let block = |joint: usize, body: usize| -> Block {
            let j = &joints[joint];
            let (sign, r) = if body == j.a {
                (-1.0, j.ra)
            } else {
                (1.0, j.rb)
            };
            let mut b = jacobian(&j.rows, sign, r);
            for row in b.m.iter_mut() {
                for x in row.iter_mut() {
                    *x = -*x;
                }
            }
            b
        };
        let up: Vec<Block> = nodes
            .iter()
            .zip(&parent)
            .map(|(&node, p)| match (node, p.map(|p| nodes[p])) {
                (Node::Joint(k), Some(Node::Body(b))) => block(k, b),
                (Node::Body(b), Some(Node::Joint(k))) => block(k, b).transpose(),
                _ => Block::default(),
            })
            .collect();
        // Eliminate, children first.
        let mut diag: Vec<Block> = nodes
            .iter()
            .map(|&node| match node {
                Node::Body(b) => {
                    let mut d = Block::zero(3, 3);
                    for i in 0..3 {
                        d.m[i][i] = mass[b][i];
                    }
                    d
                }
                Node::Joint(k) => {
                    let r = joints[k].rows.len();
                    Block::zero(r, r)
                }
            })
            .collect();
        let mut has_child = vec![false; nodes.len()];
        for p in parent.iter().flatten() {
            has_child[*p] = true;
        }
        let mut d_inv = Vec::with_capacity(nodes.len());
        let mut compliant = false;
        for i in 0..nodes.len() {
            if let (Node::Joint(k), Some(p)) = (nodes[i], parent[i]) {
                if !has_child[i] {
                    // A leaf joint (to an immovable body) has a zero block, which cannot be
                    // eliminated first: it gets a compliance far below its effective mass's
                    // scale, whose error `project` refines away.
                    let Node::Body(b) = nodes[p] else {
                        return None;
                    };
                    let r = joints[k].rows.len();
                    let compliance = leaf_compliance(&up[i], &mass[b], r);
                    for row in 0..r {
                        diag[i].m[row][row] = compliance;
                    }
                    compliant = true;
                }
            }
            let inverse = diag[i].inverse()?;
            if let Some(p) = parent[i] {
                let h = &up[i];
                let schur = h.transpose().mul(&inverse).mul(h);
                diag[p].sub_assign(&schur);
            }
            d_inv.push(inverse);
        }
        let mut body_node = vec![None; bodies];
        for (p, node) in nodes.iter().enumerate() {
            if let Node::Body(b) = *node {
                body_node[b] = Some(p);
            }
        }
        Some(JointTree {
            order: nodes,
            parent,
            up,
            d_inv,
            body_node,
            mass,
            joints,
            compliant,
        })
    }

    /// Replaces the movable bodies' velocities `v` (vx, vy, w by slot) by the closest ones the
    /// joints hold; immovable bodies' velocities are read, never written.
    pub(super) fn project(&self, v: &mut [[Real; 3]]) {
        // Right-hand side: M·v for bodies; for joints, what their immovable bodies' velocities
        // contribute (J·v of those, moved across).
        let b: Vec<[Real; 3]> = self
            .order
            .iter()
            .map(|&node| match node {
                Node::Body(b) => {
                    let m = &self.mass[b];
                    [m[0] * v[b][0], m[1] * v[b][1], m[2] * v[b][2]]
                }
                Node::Joint(k) => {
                    let j = &self.joints[k];
                    let mut c = [0.0; 3];
                    for (body, sign, r) in [(j.a, -1.0, j.ra), (j.b, 1.0, j.rb)] {
                        if self.body_node[body].is_none() {
                            let jv = jacobian(&j.rows, sign, r).apply(&v[body]);
                            for i in 0..3 {
                                c[i] += jv[i];
                            }
                        }
                    }
                    c
                }
            })
            .collect();
        let mut x = self.solve(b.clone());
        let refinements = if self.compliant { REFINEMENTS } else { 0 };
        for _ in 0..refinements {
            let residual = self.residual(&b, &x);
            let dx = self.solve(residual);
            for (xi, di) in x.iter_mut().zip(&dx) {
                for k in 0..3 {
                    xi[k] += di[k];
                }
            }
        }
        for (body, node) in self.body_node.iter().enumerate() {
            if let Some(p) = node {
                v[body] = x[*p];
            }
        }
    }

    /// `b − H·x` for the exact system (joints' diagonal blocks zero).
    fn residual(&self, b: &[[Real; 3]], x: &[[Real; 3]]) -> Vec<[Real; 3]> {
        let mut r: Vec<[Real; 3]> = b.to_vec();
        for (i, node) in self.order.iter().enumerate() {
            if let Node::Body(body) = *node {
                for k in 0..3 {
                    r[i][k] -= self.mass[body][k] * x[i][k];
                }
            }
            if let Some(p) = self.parent[i] {
                let down = self.up[i].apply(&x[p]);
                let up = self.up[i].transpose().apply(&x[i]);
                for k in 0..3 {
                    r[i][k] -= down[k];
                    r[p][k] -= up[k];
                }
            }
        }
        r
    }

    /// The factorised system solved for right-hand side `y` (by node position).
    fn solve(&self, mut y: Vec<[Real; 3]>) -> Vec<[Real; 3]> {
        let n = self.order.len();
        // Forward: children into parents.
        for i in 0..n {
            if let Some(p) = self.parent[i] {
                let z = self.d_inv[i].apply(&y[i]);
                let moved = self.up[i].transpose().apply(&z);
                for k in 0..3 {
                    y[p][k] -= moved[k];
                }
            }
        }
        // Back: parents into children.
        let mut x = vec![[0.0; 3]; n];
        for i in (0..n).rev() {
            let mut rhs = y[i];
            if let Some(p) = self.parent[i] {
                let from_parent = self.up[i].apply(&x[p]);
                for k in 0..3 {
                    rhs[k] -= from_parent[k];
                }
            }
            x[i] = self.d_inv[i].apply(&rhs);
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative velocity of joint `j`'s rows at velocities `v`.
    fn residual(j: &TreeJoint, v: &[[Real; 3]]) -> Real {
        let ja = jacobian(&j.rows, -1.0, j.ra).apply(&v[j.a]);
        let jb = jacobian(&j.rows, 1.0, j.rb).apply(&v[j.b]);
        (0..j.rows.len())
            .map(|i| (ja[i] + jb[i]).abs())
            .fold(0.0, Real::max)
    }

    /// A chain of `n` rods (length 0.5 m, mass and inertia varied) pinned end to end, the first
    /// pinned to a moving kinematic body (slot `n`).
    fn chain(n: usize) -> (Vec<(Real, Real)>, Vec<bool>, Vec<TreeJoint>) {
        let inv: Vec<(Real, Real)> = (0..n)
            .map(|i| {
                let m = 1.0 + (i % 7) as Real;
                (1.0 / m, 12.0 / (m * 0.25))
            })
            .chain([(0.0, 0.0)])
            .collect();
        let mut movable = vec![true; n];
        movable.push(false);
        let mut joints: Vec<TreeJoint> = (1..n)
            .map(|i| TreeJoint {
                a: i - 1,
                b: i,
                ra: Vec2::new(0.25, 0.01 * i as Real),
                rb: Vec2::new(-0.25, 0.0),
                rows: Rows::new(&[Row::Linear(Vec2::X), Row::Linear(Vec2::Y)]),
            })
            .collect();
        joints.push(TreeJoint {
            a: n,
            b: 0,
            ra: Vec2::ZERO,
            rb: Vec2::new(-0.25, 0.0),
            rows: Rows::new(&[Row::Linear(Vec2::X), Row::Linear(Vec2::Y), Row::Angular]),
        });
        (inv, movable, joints)
    }

    #[test]
    fn a_projected_chain_holds_every_joint_and_is_the_closest_velocity_in_the_mass_metric() {
        for n in [1, 2, 5, 40, 300] {
            let (inv, movable, joints) = chain(n);
            let tree = JointTree::build(&inv, &movable, joints.clone()).expect("a tree");
            // A blow on the last link, the kinematic anchor moving.
            let mut v: Vec<[Real; 3]> = (0..=n)
                .map(|i| [0.1 * (i % 3) as Real, -0.2, 0.05 * (i % 5) as Real])
                .collect();
            v[n - 1] = [30.0, -12.0, 4.0];
            v[n] = [0.5, 0.25, 0.0];
            let before = v.clone();
            tree.project(&mut v);
            for j in &joints {
                assert!(
                    residual(j, &v) < 1e-9,
                    "n {n}: joint residual {}",
                    residual(j, &v)
                );
            }
            assert_eq!(v[n], before[n], "the kinematic body is not moved");
            // Closest: the change is M⁻¹·Jᵀ·λ, so it is orthogonal (in the mass metric) to
            // every velocity the joints allow; check against allowed perturbations (a motion
            // that satisfies the joints): projecting it again must leave it unchanged.
            let mut again = v.clone();
            tree.project(&mut again);
            for (a, b) in again.iter().zip(&v) {
                for k in 0..3 {
                    assert!(
                        (a[k] - b[k]).abs() < 1e-9 * (1.0 + b[k].abs()),
                        "n {n}: not idempotent"
                    );
                }
            }
            // Impulses between the bodies and the anchor: momentum changes only through the
            // anchor's joint, so with the anchor's joint removed it is conserved.
            let free: Vec<TreeJoint> = joints[..joints.len() - 1].to_vec();
            if let Some(tree) = JointTree::build(&inv, &movable, free) {
                let mut w = before.clone();
                tree.project(&mut w);
                let momentum = |v: &[[Real; 3]]| {
                    (0..n).fold([0.0, 0.0], |m, i| {
                        [m[0] + v[i][0] / inv[i].0, m[1] + v[i][1] / inv[i].0]
                    })
                };
                let (p0, p1) = (momentum(&before), momentum(&w));
                assert!(
                    (p0[0] - p1[0]).abs() < 1e-9 * (1.0 + p0[0].abs()),
                    "n {n}: {p0:?} {p1:?}"
                );
                assert!(
                    (p0[1] - p1[1]).abs() < 1e-9 * (1.0 + p0[1].abs()),
                    "n {n}: {p0:?} {p1:?}"
                );
            }
        }
    }

    #[test]
    fn the_projection_is_the_least_kinetic_energy_change() {
        // Against brute force: minimise ½ Σ m|v' − v|² subject to J v' = c by sampling motions
        // the joints allow around the projection: none comes closer.
        let (inv, movable, joints) = chain(4);
        let tree = JointTree::build(&inv, &movable, joints.clone()).unwrap();
        let mut v: Vec<[Real; 3]> = vec![
            [1.0, -2.0, 0.5],
            [0.0, 3.0, -1.0],
            [2.0, 0.0, 0.0],
            [-1.0, 1.0, 2.0],
            [0.0, 0.0, 0.0],
        ];
        let before = v.clone();
        tree.project(&mut v);
        let distance = |x: &[[Real; 3]]| -> Real {
            (0..4)
                .map(|i| {
                    let m = [1.0 / inv[i].0, 1.0 / inv[i].0, 1.0 / inv[i].1];
                    (0..3)
                        .map(|k| m[k] * (x[i][k] - before[i][k]).powi(2))
                        .sum::<Real>()
                })
                .sum()
        };
        let best = distance(&v);
        // Allowed motions: project arbitrary velocities with the anchor at rest, then add them.
        let mut state = 12345u64;
        let mut rand = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as Real / (1u64 << 31) as Real) - 0.5
        };
        for _ in 0..200 {
            let mut d: Vec<[Real; 3]> = (0..5).map(|_| [rand(), rand(), rand()]).collect();
            d[4] = [0.0; 3];
            tree.project(&mut d);
            let trial: Vec<[Real; 3]> = (0..5)
                .map(|i| {
                    [
                        v[i][0] + 0.1 * d[i][0],
                        v[i][1] + 0.1 * d[i][1],
                        v[i][2] + 0.1 * d[i][2],
                    ]
                })
                .collect();
            assert!(
                distance(&trial) >= best - 1e-12,
                "{} < {best}",
                distance(&trial)
            );
        }
    }

    #[test]
    fn loops_and_redundant_joints_are_left_to_the_sweeps() {
        let (inv, movable, mut joints) = chain(5);
        let closing = TreeJoint {
            a: 4,
            b: 0,
            ra: Vec2::ZERO,
            rb: Vec2::ZERO,
            rows: Rows::new(&[Row::Linear(Vec2::X)]),
        };
        joints.push(closing);
        assert!(JointTree::build(&inv, &movable, joints).is_none());
    }
}
