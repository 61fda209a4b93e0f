//! Colouring of the constraint graph, so that the wide solver (`wide.rs`) can solve the
//! constraints of one colour side by side (after Box2D v3's `constraint_graph.c`).
//!
//! Bodies are the graph's nodes and constraints its edges; a colour is a set of constraints no two
//! of which share a body that impulses move. Static and kinematic bodies never block (their
//! velocity is never written), so a whole row of boxes resting on the ground can share one colour.
//! The colouring is greedy, in constraint order, with a mask of used colours per body: a
//! constraint takes the first colour in which neither of its moving bodies is taken yet; constraints against
//! the static world start at colour 1, which keeps colour 0 for the pairs of moving bodies (as
//! Box2D). A constraint that fits in none of the [`COLOURS`] colours, or that the caller excludes,
//! goes to the *overflow*, solved one by one by the scalar loop before the colours.
//!
//! The contacts and the joints are coloured separately (the joints, solved before the contacts,
//! in a graph of their own, and laid out colour by colour by [`Colouring::order`]), so that the
//! joints of one colour can also share out over threads (`docs/simulation.md`, "Joints").
//!
//! It is rebuilt every step: O(1) per constraint (two masks, one bit scan) and four bytes per body,
//! small against one solver pass.

use crate::dynamics::constraint::ContactConstraint;
use core::ops::Range;

/// Number of colours (as Box2D's `B2_GRAPH_COLOR_COUNT`). A body in more constraints than this
/// sends the excess to the overflow.
pub(crate) const COLOURS: usize = 24;

/// The constraints of each colour and the overflow, by index into the constraint array, each
/// in ascending order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Colouring {
    /// Per body state: bit `c` is set when the body is in a constraint of colour `c`.
    used: Vec<u32>,
    /// Constraint indices of each colour.
    pub colours: Vec<Vec<u32>>,
    /// Constraints solved one by one (excluded, or no colour left).
    pub overflow: Vec<u32>,
}

impl Colouring {
    /// Colours `constraints` over `body_count` solver states; the constraints listed in
    /// `excluded` (ascending indices) go to the overflow.
    pub fn build(
        &mut self,
        constraints: &[ContactConstraint],
        body_count: usize,
        excluded: &[usize],
    ) {
        let edges = constraints.iter().map(|c| {
            (
                c.mass_a.responds().then_some(c.a),
                c.mass_b.responds().then_some(c.b),
            )
        });
        self.build_edges(edges, body_count, excluded);
    }

    /// Colours the edges `edges` (each constraint's two solver states, `None` for a body its
    /// impulses never move) over `body_count` solver states; the edges listed in `excluded`
    /// (ascending indices) go to the overflow. Contacts and joints are coloured this way, each
    /// in a colouring of their own.
    pub fn build_edges(
        &mut self,
        edges: impl Iterator<Item = (Option<usize>, Option<usize>)>,
        body_count: usize,
        excluded: &[usize],
    ) {
        const ALL: u32 = (1 << COLOURS) - 1;
        self.used.clear();
        self.used.resize(body_count, 0);
        self.colours.resize_with(COLOURS, Vec::new);
        for colour in &mut self.colours {
            colour.clear();
        }
        self.overflow.clear();
        let mut excluded = excluded.iter().copied().peekable();
        for (k, (a, b)) in edges.enumerate() {
            if excluded.peek() == Some(&k) {
                excluded.next();
                self.overflow.push(k as u32);
                continue;
            }
            let taken = |body: Option<usize>| body.map_or(0, |i| self.used[i]);
            // Colour 0 only for pairs of moving bodies.
            let allowed = if a.is_some() && b.is_some() {
                ALL
            } else {
                ALL & !1
            };
            let free = allowed & !(taken(a) | taken(b));
            if free == 0 {
                self.overflow.push(k as u32);
                continue;
            }
            let colour = free.trailing_zeros() as usize;
            for i in [a, b].into_iter().flatten() {
                self.used[i] |= 1 << colour;
            }
            self.colours[colour].push(k as u32);
        }
    }

    /// Colours `edges` (as [`Colouring::build_edges`], nothing excluded) and lists them in
    /// `order` (by index into `edges`), the overflow first, then colour after colour, with one
    /// range of `order` per list in `ranges` (the overflow's first, then each colour's).
    pub fn order(
        &mut self,
        edges: impl Iterator<Item = (Option<usize>, Option<usize>)>,
        body_count: usize,
        order: &mut Vec<u32>,
        ranges: &mut Vec<Range<u32>>,
    ) {
        self.build_edges(edges, body_count, &[]);
        order.clear();
        ranges.clear();
        for list in core::iter::once(&self.overflow).chain(&self.colours) {
            let start = order.len() as u32;
            order.extend_from_slice(list);
            ranges.push(start..order.len() as u32);
        }
    }
}
