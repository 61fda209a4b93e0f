//! A static bounding-volume hierarchy over a compound's pieces, in the compound's frame: a
//! compound of many pieces (a tile map, a ground of hundreds of boxes on one body) is asked only
//! for the pieces near a box, in `O(log n + k)` instead of a pass over every piece.
//!
//! Method: built once with the compound, top down, splitting the pieces at the median of their
//! boxes' centres along the longer axis of those centres' bounds, down to leaves of at most
//! `LEAF_PIECES` pieces (a median split keeps the tree balanced whatever the layout). A query
//! walks the nodes whose boxes overlap the query box and returns the overlapping pieces' indices
//! in increasing order, so a caller visits exactly the pieces, in exactly the order, that a pass
//! over every piece with the same box test would (results are identical with or without the
//! index). Compounds of fewer than `MIN_INDEXED_PIECES` pieces keep no index.

use crate::math::{Aabb, Real};

/// Fewest pieces a compound needs to keep an index; smaller ones are walked whole.
pub(crate) const MIN_INDEXED_PIECES: usize = 16;

/// Most pieces in a leaf.
const LEAF_PIECES: usize = 4;

/// One node: its box (compound frame), and either two children or a run of `order`.
#[derive(Clone, Debug, PartialEq)]
struct Node {
    aabb: Aabb,
    /// Leaf: `order[first..first + count]`; inner node: `count` is 0 and the children are the
    /// next node and node `first`.
    first: u32,
    count: u32,
}

/// The index of a compound's pieces (empty for small compounds).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PieceIndex {
    nodes: Vec<Node>,
    /// Piece indices, grouped by leaf.
    order: Vec<u32>,
    /// Each piece's box (compound frame), by piece index.
    boxes: Vec<Aabb>,
}

impl PieceIndex {
    /// The index of pieces whose boxes (compound frame) are `boxes`; empty when there are fewer
    /// than `MIN_INDEXED_PIECES`.
    pub(crate) fn build(boxes: Vec<Aabb>) -> Self {
        if boxes.len() < MIN_INDEXED_PIECES {
            return Self::default();
        }
        let mut index = Self {
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF_PIECES + 1),
            order: (0..boxes.len() as u32).collect(),
            boxes,
        };
        index.split(0, index.order.len());
        index
    }

    /// Whether the compound is indexed.
    #[inline]
    pub(crate) fn is_built(&self) -> bool {
        !self.nodes.is_empty()
    }

    /// Appends the node over `order[start..end]` and its subtree; returns its index.
    fn split(&mut self, start: usize, end: usize) -> usize {
        let boxes = &self.boxes;
        let run = &mut self.order[start..end];
        let aabb = run
            .iter()
            .map(|&i| boxes[i as usize])
            .reduce(|a, b| a.union(&b))
            .expect("a non-empty run");
        let me = self.nodes.len();
        if run.len() <= LEAF_PIECES {
            self.nodes.push(Node {
                aabb,
                first: start as u32,
                count: run.len() as u32,
            });
            return me;
        }
        // Median of the centres along the longer axis of the centres' bounds.
        let centre = |i: u32| boxes[i as usize].center();
        let (lo, hi) = run.iter().fold(
            (
                crate::math::Vec2::splat(f64::INFINITY),
                crate::math::Vec2::splat(f64::NEG_INFINITY),
            ),
            |(lo, hi), &i| (lo.min(centre(i)), hi.max(centre(i))),
        );
        let axis = usize::from(hi.y - lo.y > hi.x - lo.x);
        let mid = run.len() / 2;
        run.select_nth_unstable_by(mid, |&p, &q| {
            centre(p)[axis].total_cmp(&centre(q)[axis]).then(p.cmp(&q))
        });
        self.nodes.push(Node {
            aabb,
            first: 0,
            count: 0,
        });
        self.split(start, start + mid);
        let right = self.split(start + mid, end);
        self.nodes[me].first = right as u32;
        me
    }

    /// The least `f(piece)` over the pieces, where `f(piece)` is at least the gap between that
    /// piece's box and `query` (compound frame), or anything when the two boxes overlap:
    /// subtrees whose box is farther from `query` than the least found so far are skipped, as no
    /// piece in them can go below it (once the least is 0 or below, only pieces whose boxes
    /// overlap `query` are looked at, and the least may then stop short of the most negative).
    /// `INFINITY` for an unbuilt index (the caller walks the pieces itself).
    pub(crate) fn least(&self, query: &Aabb, f: &mut dyn FnMut(usize) -> Real) -> Real {
        let mut best = Real::INFINITY;
        let mut stack = [0u32; 64];
        let mut top = usize::from(self.is_built());
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            if box_gap(&node.aabb, query) >= best {
                continue;
            }
            if node.count > 0 {
                let run = &self.order[node.first as usize..(node.first + node.count) as usize];
                for &i in run {
                    if box_gap(&self.boxes[i as usize], query) < best {
                        best = best.min(f(i as usize));
                    }
                }
            } else {
                stack[top] += 1;
                stack[top + 1] = node.first;
                top += 2;
            }
        }
        best
    }

    /// The least gap (metres, ≥ 0; the larger of the separations along x and y) between `query`
    /// and a piece's box (compound frame): a lower bound of the distance from anything `query`
    /// holds to every piece. The index must be built.
    pub(crate) fn least_box_gap(&self, query: &Aabb) -> Real {
        self.least(query, &mut |i| box_gap(&self.boxes[i], query))
    }

    /// Whether `f(piece)` holds for some piece whose box overlaps `query` (compound frame),
    /// asking `f` about such pieces until one answers `true`. The index must be built.
    pub(crate) fn any(&self, query: &Aabb, f: impl FnMut(usize) -> bool) -> bool {
        self.walk(query, f)
    }

    /// Appends to `out` the indices of the pieces whose boxes overlap `query` (compound frame),
    /// in increasing order. The index must be built.
    pub(crate) fn query(&self, query: &Aabb, out: &mut Vec<u32>) {
        let start = out.len();
        self.walk(query, |i| {
            out.push(i as u32);
            false
        });
        out[start..].sort_unstable();
    }

    /// Calls `f` with each piece whose box overlaps `query` (compound frame), leaf by leaf,
    /// until it returns `true`; returns whether it did. The index must be built.
    fn walk(&self, query: &Aabb, mut f: impl FnMut(usize) -> bool) -> bool {
        let mut stack = [0u32; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            if !node.aabb.overlaps(query) {
                continue;
            }
            if node.count > 0 {
                let run = &self.order[node.first as usize..(node.first + node.count) as usize];
                if run
                    .iter()
                    .any(|&i| self.boxes[i as usize].overlaps(query) && f(i as usize))
                {
                    return true;
                }
            } else {
                // (A balanced tree of at most 2^32 pieces is far shallower than the stack.)
                stack[top] += 1;
                stack[top + 1] = node.first;
                top += 2;
            }
        }
        false
    }
}

/// The gap (metres) between two boxes: the largest of their separations along x and y, 0 when
/// they overlap. A lower bound of the distance between any shapes they hold.
fn box_gap(a: &Aabb, b: &Aabb) -> Real {
    (b.min - a.max).max(a.min - b.max).max_element().max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    /// Numbers spread evenly over [0, 1) from a seed (xorshift64).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut word = crate::math::xorshift64(seed);
        move || (word() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Against a pass over every box: random boxes and random queries, the same indices in the
    /// same order.
    #[test]
    fn queries_match_a_pass_over_every_piece() {
        let mut next = uniform(0x2545_f491_4f6c_dd1d);
        for n in [16, 17, 50, 261, 1000] {
            let boxes: Vec<Aabb> = (0..n)
                .map(|_| {
                    let c = Vec2::new(next() * 100.0 - 50.0, next() * 20.0);
                    let h = Vec2::new(next() * 2.0 + 0.01, next() * 2.0 + 0.01);
                    Aabb::new(c - h, c + h)
                })
                .collect();
            let index = PieceIndex::build(boxes.clone());
            assert!(index.is_built());
            for _ in 0..200 {
                let c = Vec2::new(next() * 120.0 - 60.0, next() * 30.0 - 5.0);
                let h = Vec2::new(next() * 10.0, next() * 10.0);
                let query = Aabb::new(c - h, c + h);
                let mut got = Vec::new();
                index.query(&query, &mut got);
                let want: Vec<u32> = (0..n as u32)
                    .filter(|&i| boxes[i as usize].overlaps(&query))
                    .collect();
                assert_eq!(got, want, "{n} pieces, query {query:?}");
            }
        }
        assert!(!PieceIndex::build(vec![Aabb::new(Vec2::ZERO, Vec2::ONE); 15]).is_built());
    }

    /// `least` finds the same least value as a pass over every piece, for a value that is at
    /// least the box gap (here the distance between the boxes' centres).
    #[test]
    fn least_matches_a_pass_over_every_piece() {
        let mut next = uniform(0x9e37_79b9_7f4a_7c15);
        let boxes: Vec<Aabb> = (0..300)
            .map(|_| {
                let c = Vec2::new(next() * 100.0, next() * 100.0);
                let h = Vec2::new(next() + 0.01, next() + 0.01);
                Aabb::new(c - h, c + h)
            })
            .collect();
        let index = PieceIndex::build(boxes.clone());
        for _ in 0..200 {
            let c = Vec2::new(next() * 140.0 - 20.0, next() * 140.0 - 20.0);
            let query = Aabb::new(c - Vec2::splat(0.5), c + Vec2::splat(0.5));
            let value = |i: usize| boxes[i].center().distance(query.center());
            let want = (0..boxes.len()).map(value).fold(Real::INFINITY, Real::min);
            let mut calls = 0;
            let got = index.least(&query, &mut |i| {
                calls += 1;
                value(i)
            });
            assert_eq!(got, want);
            assert!(calls < boxes.len(), "{calls} pieces looked at");
        }
    }

    /// `least_box_gap` is the least box gap over every piece (0 where the query overlaps one),
    /// and `any` answers as a pass over the overlapping pieces, asking `f` only about those.
    #[test]
    fn box_gaps_and_any_match_a_pass_over_every_piece() {
        let mut next = uniform(0x51_7cc1_b727_220a);
        let boxes: Vec<Aabb> = (0..400)
            .map(|_| {
                let c = Vec2::new(next() * 200.0, next() * 50.0);
                let h = Vec2::new(next() * 0.5 + 0.01, next() * 0.5 + 0.01);
                Aabb::new(c - h, c + h)
            })
            .collect();
        let index = PieceIndex::build(boxes.clone());
        for _ in 0..300 {
            let c = Vec2::new(next() * 240.0 - 20.0, next() * 90.0 - 20.0);
            let h = Vec2::new(next() * 3.0, next() * 3.0);
            let query = Aabb::new(c - h, c + h);
            let want = boxes
                .iter()
                .map(|b| box_gap(b, &query))
                .fold(Real::INFINITY, Real::min);
            assert_eq!(index.least_box_gap(&query), want);
            // `any` with a test that accepts only odd pieces: true exactly when an odd piece
            // overlaps, and never asked about a piece that does not.
            let want_odd = (0..boxes.len()).any(|i| i % 2 == 1 && boxes[i].overlaps(&query));
            let got_odd = index.any(&query, |i| {
                assert!(boxes[i].overlaps(&query), "asked about piece {i}");
                i % 2 == 1
            });
            assert_eq!(got_odd, want_odd);
        }
    }
}
