//! Profiling: the loop in `tracing`, seen in Tracy, puffin or a Chrome trace (feature `tracing`).
//!
//! Engine developers read their frames in a profiler, and Bevy emits a span per schedule run
//! for that. With the feature `tracing` (tickfold-core's and the facade's), the loop does the
//! same through the [`tracing`](https://docs.rs/tracing) crate: whatever subscriber the game
//! installs (`tracing-chrome` for a Chrome trace, `tracing-tracy`, `puffin` through a layer, or
//! `tracing-subscriber`'s `fmt` for a log) sees each frame as a tree of spans, with the step's
//! losses as events inside it.
//!
//! ```toml
//! [dependencies]
//! tickfold = { version = "0.1", features = ["tracing"] }
//! ```
//!
//! # What the loop emits
//!
//! Spans, all at INFO with the target `tickfold`:
//!
//! | span | where | fields |
//! |---|---|---|
//! | `frame` | each frame of the runner ([`Runner::frame`](crate::runner::Runner::frame) and [`run`](crate::runner::Runner::run)), the winit shell and the web shell | none |
//! | `step` | around the fold, [`LoopState::step`](crate::LoopState::step), `advance` or `advance_into` | `updates` (over every clock) and `by_clock` (each clock's, in declaration order), recorded when the step ends |
//! | `update` | around the handler given an update: [`LoopState::as_of`](crate::LoopState::as_of) and [`hand_on`](crate::LoopState::hand_on), which every shell uses | `clock` (its name), `tick` (its index) |
//! | `render` | around the handler given the render | `alpha` |
//!
//! Your own spans and events inside a handler are children of its `update` or `render` span.
//! The step's events, children of its `step` span, at the level a log reader expects:
//!
//! | level | event |
//! |---|---|
//! | WARN | ticks dropped by the max frame delta ([`Event::DiscardedTime`](crate::Event::DiscardedTime)), slots missed by a constant-rate clock ([`Event::DroppedTicks`](crate::Event::DroppedTicks)), time going backwards ([`Event::TimeBackwards`](crate::Event::TimeBackwards)), a clock at the end of time ([`Event::EndOfTime`](crate::Event::EndOfTime)) |
//! | INFO | ticks a control discarded on request (`discard_overstep`, `reset_grid`) |
//! | DEBUG | ticks deferred to the next step by the per-step cap (nothing is lost; under sustained overload the backlog bound discards, a WARN), pause, resume, time scale and rate changes |
//!
//! The core builds the feature without `std` (`tracing` with its default features off).
//! Without a subscriber (no dispatcher, every level off) a step loads `tracing`'s maximum
//! level once and skips the rest: callgrind counts 220.1 / 409.7 / 822.3 instructions per
//! frame at 0 / 1 / 8 updates for `advance_into`, against 211.1 / 415.3 / 835.0 without the
//! feature (the differences are mostly code layout; the repository's `BENCHMARKS.md` §4,
//! `bash benches/peers/tracing_cost.sh`). Without the feature the step is the same code.
//!
//! ## One frame, as a subscriber sees it
//!
//! Physics at 20 Hz and AI at 10 Hz, a max frame delta of 100 ms, and the runner's first frame
//! 150 ms after the start: physics' ticks 0, 1 and 2 are due, but only 100 ms may count, so
//! tick 0 is dropped (a WARN inside the step) and ticks 1 and 2 run, with AI's tick 0 between
//! them (both are due at 100 ms; the tie goes to physics, declared first). `tests/tracing.rs`
//! records this frame with a subscriber that keeps each span's and event's fields and parent,
//! and checks that the tree is exactly this one:
//!
//! ```text
//! frame
//!   step updates=3 by_clock=physics: 2, ai: 1
//!     WARN ticks dropped: the step passed the max frame delta clock="physics" time_ns=50000000 first=0 ticks=1
//!   update clock="physics" tick=1
//!   update clock="ai" tick=0
//!   update clock="physics" tick=2
//!   render alpha=0.0
//! ```
//!
//! The same frame, with the setup a game writes (the subscriber here is `tracing`'s no-op
//! default, so it runs anywhere; a game installs its own first):
//!
//! ```
//! # #[cfg(all(feature = "std", feature = "tracing"))]
//! # {
//! use std::time::Duration;
//! use tickfold::runner::{NoSleep, Runner, TimeSource};
//! use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
//!
//! struct At150ms;
//! impl TimeSource<Nanos> for At150ms {
//!     fn now(&mut self) -> Nanos {
//!         Nanos::from_millis(150)
//!     }
//! }
//!
//! let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(20)?))
//!     .clock(ClockConfig::new("ai", Period::from_hz(10)?))
//!     .max_frame_delta(Some(Duration::from_millis(100)));
//! let mut runner = Runner::new(LoopState::new(config, Nanos(0))?, At150ms, NoSleep);
//! let mut updates = 0;
//! runner.frame(|event, _state| {
//!     if let Event::Update(_tick) = event {
//!         updates += 1; // the handler's work is inside the `update` span
//!     }
//! });
//! assert_eq!(updates, 3);
//! # }
//! # Ok::<(), tickfold::ConfigError>(())
//! ```
//!
//! ## A frame in a trace viewer
//!
//! `examples/profile/` (its own package, so `tracing-chrome` and `tracing-subscriber` stay out
//! of every other build) runs a two-clock loop on the real clock through the runner, with some
//! work in each update and a stall that makes the loop drop ticks, and records it with
//! `tracing-chrome` into a Chrome trace (`trace.json`, which `ui.perfetto.dev` or
//! `chrome://tracing` open). Its `--svg` draws one frame of that trace as the viewers do: one
//! row per nesting level, a bar per span, the WARN as a marker. The picture below is the frame
//! after the hitch from one run on the project's shared 2-core machine (so the work's
//! durations stretch with the load): the step, a sliver at the start, drops physics' oldest
//! ticks and runs six physics updates and AI's tick 5 in their total order, then the render:
//!
//! ```sh
//! cargo run --release -p tickfold-profile -- --trace target/trace.json --svg target/frame.svg
//! ```
//!
//! ![one frame of the profile example, drawn from its Chrome trace](examples/profile/frame.svg)
