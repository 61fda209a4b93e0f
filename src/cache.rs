//! Cache hints: asking the processor to start loading memory that a pass will read soon.
//!
//! Passes over thousands of bodies read a few cache lines of each body, and bodies lie about a
//! kilobyte apart: the processor's own prefetchers, which follow a stream only within a page,
//! lose it every few bodies, and each body's first read then waits on memory. A pass that knows
//! which body comes next asks for it a few bodies ahead (`prefetch`). The hints change no
//! result; they only move cache lines (see `docs/history/benchmarks.md`, "Dense scenes, eighth round").

/// Asks the processor to start loading the cache line holding `address` into its caches. A hint:
/// it never faults, whatever the address, and has no effect on the program's state; a no-op off
/// x86-64.
#[inline]
#[allow(unsafe_code)] // the prefetch intrinsic, which is a hint (see the SAFETY note)
pub(crate) fn prefetch<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` reads nothing into the program and never faults, even on an invalid
    // address; it only moves a cache line closer to the core.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            address.cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
