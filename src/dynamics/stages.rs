//! A step's solver work as an ordered list of stages, each split into blocks that may run in any
//! order or at once (after Box2D v3's solver stages and blocks in `solver.c`).
//!
//! A stage is one pass over one colour's bundles, one pass over the bodies, or one piece of work
//! that must run alone (the overflow constraints). Stages run strictly one after the other; the
//! blocks of one stage share no body, so running them on several threads gives exactly the result
//! of running them on one, in any order: **results are bit-identical for any thread count.**
//!
//! Without the `parallel` feature, or with one thread, the stages run in order on the calling
//! thread. With it, the calling thread and `rayon::current_num_threads() − 1` helpers spawned on
//! rayon's pool walk the same stage list: each claims blocks of the current stage (an atomic flag
//! per block; each thread starts at its own share, so it tends to get the same bodies every
//! stage), runs them, counts them done, and waits (spinning, then yielding) until every block of
//! the stage is done before it moves on. No thread ever waits for a particular thread, only for
//! blocks already claimed, so a helper that starts late (a busy pool) simply finds the stages done
//! and the calling thread does the work alone: no deadlock, whatever the pool is doing.

use core::ops::Range;

/// One stage: `items` (bundles or bodies, by index) cut into blocks of `block` items, all run by
/// the same operation `op`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stage<Op> {
    /// What to run on each block.
    pub op: Op,
    /// The items of the stage.
    pub items: Range<u32>,
    /// Items per block (at least 1). A stage that must run alone has one block of all its items.
    pub block: u32,
}

#[cfg_attr(not(any(feature = "parallel", test)), allow(dead_code))]
impl<Op> Stage<Op> {
    /// A stage of one block: its work runs on one thread.
    pub fn alone(op: Op) -> Self {
        Self {
            op,
            items: 0..1,
            block: 1,
        }
    }

    /// Number of blocks.
    pub fn blocks(&self) -> u32 {
        (self.items.end - self.items.start).div_ceil(self.block)
    }

    /// The items of block `k`.
    pub fn block_items(&self, k: u32) -> Range<usize> {
        let start = self.items.start + k * self.block;
        start as usize..(start + self.block).min(self.items.end) as usize
    }
}

/// A `&mut [T]` shared by the blocks of a stage, which may run on several threads: each block
/// touches only its own elements (or reads elements no block writes), as each use states.
#[derive(Debug)]
pub(crate) struct SharedSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _slice: core::marker::PhantomData<&'a mut [T]>,
}

impl<T> Clone for SharedSlice<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SharedSlice<'_, T> {}

// SAFETY: a `SharedSlice` is a `&mut [T]` split among threads; every accessor is `unsafe` and its
// callers keep the blocks that run at once on disjoint elements (see each accessor).
unsafe impl<T: Send> Send for SharedSlice<'_, T> {}
unsafe impl<T: Send + Sync> Sync for SharedSlice<'_, T> {}

impl<'a, T> SharedSlice<'a, T> {
    /// Shares `slice` for as long as it is borrowed.
    pub fn new(slice: &'a mut [T]) -> Self {
        Self {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _slice: core::marker::PhantomData,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Element `i`, which must be in bounds (not checked: for hot loops whose indices were checked
    /// once, see `Bundle::pack`).
    ///
    /// # Safety
    /// `i < self.len()`, and no other thread writes element `i` while the reference lives.
    #[inline(always)]
    pub unsafe fn get(&self, i: u32) -> &T {
        let i = i as usize;
        debug_assert!(
            i < self.len,
            "shared slice index {i} out of bounds ({})",
            self.len
        );
        // SAFETY: in bounds; no concurrent writer (the caller's contract).
        unsafe { &*self.ptr.add(i) }
    }

    /// Element `i`, to write; it must be in bounds (not checked, as [`SharedSlice::get`]).
    ///
    /// # Safety
    /// `i < self.len()`, and no other thread reads or writes element `i` while the reference
    /// lives.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get_mut(&self, i: u32) -> &mut T {
        let i = i as usize;
        debug_assert!(
            i < self.len,
            "shared slice index {i} out of bounds ({})",
            self.len
        );
        // SAFETY: in bounds; exclusive (the caller's contract).
        unsafe { &mut *self.ptr.add(i) }
    }

    /// Elements `range`, to write.
    ///
    /// # Safety
    /// No other thread reads or writes these elements while the slice lives.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut(&self, range: Range<usize>) -> &mut [T] {
        assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds; exclusive (the caller's contract).
        unsafe { core::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// The whole slice, to read.
    ///
    /// # Safety
    /// No other thread writes any element while the slice lives.
    #[inline(always)]
    pub unsafe fn all(&self) -> &[T] {
        // SAFETY: in bounds; no concurrent writer (the caller's contract).
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The whole slice, to write: for a stage that runs alone.
    ///
    /// # Safety
    /// No other thread reads or writes any element while the slice lives.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn all_mut(&self) -> &mut [T] {
        // SAFETY: the caller's contract.
        unsafe { self.slice_mut(0..self.len) }
    }
}

/// How many threads the stages may use: rayon's pool size with the `parallel` feature, else 1.
pub(crate) fn thread_count() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads().max(1)
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Runs `stages` in order, calling `run(op, items)` on every block of each. With `threads > 1`
/// (and the `parallel` feature), blocks of one stage run on several threads at once: `run` must be
/// safe to call concurrently on different blocks of one stage.
pub(crate) fn run_stages<Op: Copy + Sync>(
    stages: &[Stage<Op>],
    threads: usize,
    run: &(dyn Fn(Op, Range<usize>) + Sync),
) {
    #[cfg(feature = "parallel")]
    if threads > 1 {
        parallel::run(stages, threads, run);
        return;
    }
    let _ = threads;
    for stage in stages {
        if stage.items.is_empty() {
            continue;
        }
        run(
            stage.op,
            stage.items.start as usize..stage.items.end as usize,
        );
    }
}

#[cfg(feature = "parallel")]
mod parallel {
    use super::Stage;
    use core::ops::Range;
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

    /// The shared progress of a walk: a claim flag per block of every stage, and per stage the
    /// number of its blocks done.
    struct Progress {
        /// Index of each stage's first block in `claimed`.
        first: Vec<usize>,
        claimed: Vec<AtomicBool>,
        done: Vec<AtomicU32>,
    }

    pub(super) fn run<Op: Copy + Sync>(
        stages: &[Stage<Op>],
        threads: usize,
        run: &(dyn Fn(Op, Range<usize>) + Sync),
    ) {
        let mut first = Vec::with_capacity(stages.len());
        let mut blocks = 0;
        for stage in stages {
            first.push(blocks);
            blocks += stage.blocks() as usize;
        }
        let progress = &Progress {
            first,
            claimed: (0..blocks).map(|_| AtomicBool::new(false)).collect(),
            done: stages.iter().map(|_| AtomicU32::new(0)).collect(),
        };
        rayon::in_place_scope(|scope| {
            for worker in 1..threads {
                scope.spawn(move |_| walk(stages, progress, run, worker, threads));
            }
            walk(stages, progress, run, 0, threads);
        });
    }

    /// Worker `worker` of `workers`' walk through the stages (see the module notes). Within a
    /// stage a worker starts at its own share of the blocks (the `worker`-th of `workers` equal
    /// parts) and goes on round the stage claiming what is left: each worker tends to get the same
    /// blocks in every stage, so the bodies they move stay in its cache.
    fn walk<Op: Copy>(
        stages: &[Stage<Op>],
        progress: &Progress,
        run: &(dyn Fn(Op, Range<usize>) + Sync),
        worker: usize,
        workers: usize,
    ) {
        for (s, stage) in stages.iter().enumerate() {
            let blocks = stage.blocks();
            let claimed = &progress.claimed[progress.first[s]..][..blocks as usize];
            let start = (worker * blocks as usize / workers) as u32;
            for i in 0..blocks {
                let k = (start + i) % blocks;
                // Relaxed: a block is claimed once; what it reads was published by the previous
                // stage's `done` (acquired below), what it writes is published by its own `done`.
                if claimed[k as usize].swap(true, Ordering::Relaxed) {
                    continue;
                }
                run(stage.op, stage.block_items(k));
                // Release: this block's writes happen before any thread sees the stage done.
                progress.done[s].fetch_add(1, Ordering::Release);
            }
            let mut spins = 0u32;
            while progress.done[s].load(Ordering::Acquire) < blocks {
                if spins < 2_000 {
                    spins += 1;
                    core::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn blocks_cover_the_items_once() {
        let stage = Stage {
            op: (),
            items: 3..20,
            block: 5,
        };
        assert_eq!(stage.blocks(), 4);
        let covered: Vec<usize> = (0..stage.blocks())
            .flat_map(|k| stage.block_items(k))
            .collect();
        assert_eq!(covered, (3..20).collect::<Vec<_>>());
        assert_eq!(Stage::alone(()).blocks(), 1);
    }

    /// Every stage sees all of the previous stage's writes, and every block runs exactly once:
    /// stage pairs (read s, write s) over 64 cells in blocks of 3; read s checks that a cell
    /// another block wrote holds the sum of the writes before it, write s adds s to each cell.
    #[test]
    fn stages_run_in_order_and_blocks_run_once() {
        let cells: Vec<AtomicU64> = (0..64).map(|_| AtomicU64::new(0)).collect();
        let stages: Vec<Stage<(bool, u64)>> = (1..=50u64)
            .flat_map(|s| {
                [false, true].map(|write| Stage {
                    op: (write, s),
                    items: 0..64,
                    block: 3,
                })
            })
            .collect();
        let stale = AtomicU64::new(0);
        let run = |(write, s): (bool, u64), items: Range<usize>| {
            for i in items {
                if write {
                    cells[i].fetch_add(s, Ordering::Relaxed);
                } else if cells[(i + 7) % 64].load(Ordering::Relaxed) != (s - 1) * s / 2 {
                    stale.fetch_add(1, Ordering::Relaxed);
                }
            }
        };
        for threads in [1, 2, 4] {
            cells.iter().for_each(|c| c.store(0, Ordering::Relaxed));
            run_stages(&stages, threads, &run);
            assert_eq!(stale.load(Ordering::Relaxed), 0, "{threads} threads");
            assert!(cells
                .iter()
                .all(|c| c.load(Ordering::Relaxed) == 50 * 51 / 2));
        }
    }
}
