//! The balls demo in a browser: the world of `examples/balls` (the `tickfold-balls` crate) ticked at 20 Hz by
//! `tickfold::web` and drawn in a `<canvas>` at the display's rate, each ball blended between
//! its previous and current tick with the fold's `alpha`. A line of counters under the canvas
//! (ticks, frames, drops, alpha, pauses) is what the browser test (`examples/web/test.mjs`)
//! reads; it also carries them as `data-*` attributes.
//!
//! The page's query string chooses the rule for hidden tabs (`?hidden=pause`, the default,
//! `report` or `keep`) and can make the game's update panic at a given tick (`?panic_at=40`),
//! to show that a panic reaches the console once. `?hz=60` sets the tick rate, `?smooth=on` or
//! `off` frame-delta smoothing, `?refuse_at=10` refuses that tick once from the handler. Keys
//! drive the loop through its handle after `start`: `p` pause, `f` double speed, `a` add a
//! 5 Hz clock, `k` keep ticking in hidden tabs, `x` stop.
//!
//! Built for `wasm32-unknown-unknown` only (`bash examples/web/build.sh`); elsewhere empty.
#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
mod page;
