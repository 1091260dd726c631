//! The trace tool: the fold's decisions on a fake clock, as JSON, text or SVG.
//!
//! For a first look, the second printed trace of the purely functional Scheme loop article
//! (50 Hz ticks, frames of 16 ms):
//!
//! ```sh
//! cargo run --example trace -- --tick-ms 20 --frame-ms 16 --max-frame-ms none --max-updates none --steps 16 --format text
//! ```
//!
//! `examples/trace.rs` folds the loop on a fake clock and prints, one JSON object per line and in
//! the order the fold decides them, each step (a `step` line at the `now` it was called with,
//! carrying the deadline it returned) and then that step's events at the fake time each is handled.
//! `--format text` prints the lines of the purely functional Scheme loop article; `--format svg`
//! draws a timeline like the constant-rate loop article's figures: a row per step, updates in their
//! slots, renders with α, dropped slots in red, sleeps as dashed gaps. Run
//! `cargo run --example trace -- --help` for the flags; `--clock NAME=HZ` (or `NAME=ms:F`,
//! repeatable) and `--firing late|nearest` run several clocks, and update lines then carry the
//! clock's name. The reference scenarios, checked in CI against `core/tests/golden/` by
//! `.ci/trace-scenarios`:
//!
//! ```sh
//! # the Scheme loop article's first printed trace: 2 ticks per second, frames of 1 s
//! cargo run --example trace -- --tick-ms 500 --frame-ms 1000 --max-frame-ms none --max-updates none --steps 11 --format text
//! # constant-rate loop, drop & rest: work of 3 ms then 15 ms at a 10 ms rate; iteration 2 is
//! # lost and iteration 3 starts at its slot, 30 ms
//! cargo run --example trace -- --policy drop-and-rest --tick-ms 10 --update-ms 3,15,3,3 --steps 4
//! # constant-rate loop, keep working: iteration 2 starts late at 25 ms, nothing lost
//! cargo run --example trace -- --policy keep-working --tick-ms 10 --update-ms 3,15,3,3 --steps 4
//! ```
