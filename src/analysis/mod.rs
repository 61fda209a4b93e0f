//! Analysis tooling built on the engine, apart from it: nothing in the engine's modules
//! (`math`, `shape`, `query`, `broadphase`, `dynamics`, `world`) imports this one.
//!
//! * [`scenes`]: built-in scenes shared by the tests, the benchmarks, the examples and the command
//!   line (Box2D's `large_pyramid`, falling mixed shapes, a bullet rain, Newton's cradle, ...).
//! * [`soak`]: a long, busy, changing scene with its checks, for soak tests.
//! * [`record`]: recording a run (poses, velocities, events) with CSV and JSON export.
//! * [`scene`] (feature `serde`): JSON scene files with errors that name the body and field.
//! * [`plot`] (feature `plot`): trajectory and time-series plots.
//! * [`replay`] (feature `serde`): a self-contained HTML replay of a run, written as it goes.
//! * [`testkit`] (feature `proptest`): proptest strategies and no-tunnelling checkers for users'
//!   own property tests.
//!
//! The optional parts are behind features, so `cargo add sweep2d` builds only the engine, the
//! scenes and the recorder (no serde, plotters or proptest).

#[cfg(feature = "plot")]
pub mod plot;
pub mod record;
#[cfg(feature = "serde")]
pub mod replay;
#[cfg(feature = "serde")]
pub mod scene;
pub mod scenes;
pub mod soak;
#[cfg(feature = "proptest")]
pub mod testkit;
