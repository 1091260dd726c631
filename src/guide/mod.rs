//! The tickfold guide: a tutorial, then one chapter per topic.
//!
//! This module holds no code, only pages. It exists in the documentation (`cargo doc --open`,
//! or docs.rs) and in the doctests (`cargo test --doc -p tickfold --all-features` runs every
//! example here), never in a normal build, like clap's `_tutorial`. Every example is compiled
//! and run; an example that needs a feature says so and runs when the feature is on (docs.rs
//! and CI build with all features).
//!
//! # Start here
//!
//! - [`tutorial`]: build a complete game step by step, from an empty project to a two-clock
//!   hecs world with interpolated rendering on the real clock; then
//!   [`tutorial_testing`]: a fake-clock test, a determinism property and a save resumed in a
//!   new process.
//! - [`coming_from`]: the same small program on Bevy's `FixedUpdate`, the `game-loop` crate, a
//!   hand-written "Fix Your Timestep!" accumulator and tickfold, and what maps to what.
//!
//! # The loop
//!
//! - [`interpolation`]: how a shell drives the fold; `Interpolate`, glam and mint,
//!   extrapolation and Hermite, `#[derive(Interpolate)]`.
//! - [`clocks`]: several fixed rates in one loop, their one total order, firing rules,
//!   anti-aliasing (phase, hysteresis), the render cap.
//! - [`falling_behind`]: the policies, the per-step cap, the max frame delta, what is dropped
//!   and how it is reported, what that means for determinism; bad input.
//! - [`controls`]: changing a running loop: pause, time scale, rate, overstep, grid reset,
//!   refused ticks.
//! - [`input`]: input given to exactly one tick.
//! - [`stepping`]: debug single-stepping, per-step deltas, shader time.
//! - [`saves`]: save games and replays with serde, on `Nanos` or `Instant`.
//! - [`replays`]: replays with seek: keyframes, jumping to any tick, playing at 0.25× to 8×,
//!   paused or one tick at a time, replay files checked on load.
//!
//! # Worlds, engines and tools
//!
//! - [`hecs`]: the hecs adapter (feature `hecs`).
//! - [`snapshots`]: plain-data worlds: double buffers, the rollback ring (feature `snapshot`).
//! - [`rollback`]: rollback netcode over ggrs (feature `ggrs`).
//! - [`bevy`]: the Bevy plugin `tickfold-bevy` (a separate crate).
//! - [`runner`]: the runner that reads the clock and sleeps, and winit (feature `winit`).
//! - [`web`]: the loop in a browser, hidden tabs, the web demo tested in headless Chromium
//!   (feature `web`).
//! - [`determinism`]: the determinism kit: test your own simulation (feature `quickcheck`).
//! - [`trace`]: the trace tool, the fold's decisions printed on a fake clock.
//! - [`profiling`]: the loop in `tracing`: a span per frame, step, update and render, drops as
//!   warnings, seen in Tracy, puffin or a Chrome trace (feature `tracing`).
//!
//! # For the curious
//!
//! - [`design`]: architecture, exactness, how tickfold compares with its peers, fuzzing,
//!   layout, minimum Rust version.
//! - [`performance`]: the measured figures: the fold against the peers, pacing, the demo.
//!
//! The repository's `BENCHMARKS.md` holds the peers bench's full report.

pub mod tutorial;

pub mod tutorial_testing;

pub mod coming_from;

pub mod interpolation;

pub mod clocks;

pub mod falling_behind;

pub mod controls;

pub mod input;

pub mod stepping;

pub mod saves;

pub mod replays;

pub mod hecs;

pub mod snapshots;

pub mod rollback;

pub mod bevy;

pub mod runner;

pub mod web;

pub mod determinism;

pub mod trace;

pub mod profiling;

pub mod design;

pub mod performance;
