//! Several fixed rates in one loop: named clocks, their one total order, firing rules and anti-aliasing.
//!
//! One `LoopState` can hold any number of named clocks (fixed-frequency loops inside one outer loop, as in "looping in time"): physics
//! at 120 Hz, AI at 10 Hz and networking at 30 Hz inside one outer loop, each with its own exact
//! rate, cap, policy, firing rule and alpha.
//!
//! ```rust
//! use tickfold::{ClockConfig, Firing, LoopConfig, LoopState, Nanos, Period};
//!
//! let hz = |n| Period::from_hz(n);
//! let config = LoopConfig::from_clock(ClockConfig::new("physics", hz(120)?))
//!     .clock(ClockConfig::new("ai", hz(10)?))
//!     .clock(ClockConfig::new("net", hz(30)?).firing(Firing::Nearest));
//! let state = LoopState::new(config, Nanos(0))?;
//! let (state, events) = state.step(Nanos::from_millis(100));
//! let count = |events: &tickfold::Events<Nanos>, name| {
//!     let id = state.clock(name).expect("a clock of this loop").id();
//!     events.updates().filter(|t| t.clock == id).count()
//! };
//! // Physics' cap (8) stops it at the tick due at 66.7 ms; its tick due at 75 ms is deferred.
//! assert_eq!(count(&events, "physics"), 8);
//! // A step runs a prefix of the loop's due-time order: once a tick is deferred, no tick of any
//! // clock due after it runs in that step. So net runs its ticks due at 33.3 and 66.7 ms, and
//! // AI's tick due at 100 ms waits, with net's, for the next step, however the frames fall.
//! assert_eq!((count(&events, "ai"), count(&events, "net")), (0, 2));
//! let (state, events) = state.clone().step(Nanos::from_millis(101));
//! assert_eq!(count(&events, "physics"), 4); // the deferred ones, due at 75 to 100 ms
//! assert_eq!((count(&events, "ai"), count(&events, "net")), (1, 1));
//! # let _ = state;
//! # Ok::<(), tickfold::ConfigError>(())
//! ```
//!
//! * **One total order.** Within a step, updates come out by due time (the first whole nanosecond
//!   at which the tick is due), ties by declaration order, so replays are bit-identical.
//! * **Reading another clock inside a tick.** A handler that reads the loop while it handles an
//!   update reads it *as of that tick* in this order: `virtual_time().elapsed()` is the tick's due
//!   time, `delta()` its length, another clock's `latest_tick()` and `stats()` stand where that
//!   clock was when the tick came up. The runner and winit hand on the state that way; a pure fold
//!   does it with `state.hand_on(&events, |event, state| ...)` (or `state.as_of(&events, &event,
//!   ...)` for one event). Outside, and for the other events, the readings are the end of the
//!   step, which is also what `elapsed_at_step_end`, `latest_tick_at_step_end` and
//!   `stats_at_step_end` give inside. So the AI's decisions depend on the ticks, not on the frames:
//!
//!   ```rust
//!   use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
//!
//!   let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
//!       .clock(ClockConfig::new("ai", Period::from_hz(10)?));
//!   let seen = |frames: &[u64]| -> Result<Vec<(u64, u64)>, Box<dyn std::error::Error>> {
//!       let mut state = LoopState::new(config.clone(), Nanos(0))?;
//!       let ai = state.clock("ai").expect("declared above").id();
//!       let mut seen = Vec::new();
//!       for &ms in frames {
//!           let events = state.advance(Nanos::from_millis(ms));
//!           state.hand_on(&events, |event, state| {
//!               if matches!(event, Event::Update(tick) if tick.clock == ai) {
//!                   let physics = state.clock("physics").expect("declared");
//!                   seen.push((physics.stats().ticks_run, state.virtual_time().elapsed().0 / 1_000_000));
//!               }
//!           })?;
//!       }
//!       Ok(seen)
//!   };
//!   // Physics has run 3 ticks when AI's tick 0 (due at 100 ms) comes up, 6 at its tick 1, in one
//!   // 250 ms frame or in frames of 16 ms.
//!   let frames: Vec<u64> = (1..=16).map(|i| 16 * i).collect();
//!   assert_eq!(seen(&[250])?, [(3, 100), (6, 200)]);
//!   assert_eq!(seen(&frames)?, seen(&[250])?);
//!   # Ok::<(), Box<dyn std::error::Error>>(())
//!   ```
//! * **Firing rules.** `Firing::Late` (default) never fires early: the error is at most one outer
//!   period. `Firing::Nearest` fires now if `now` is closer to the due time than the next step is
//!   expected to be (the estimate is the frame that just ended, counted as at most two ticks, so
//!   at most one tick per step runs early, by less than a tick): the error is at most half an outer
//!   period. A shell that sleeps until the deadline wakes at the due time itself. Both pay time forward: the grid stays at `origin + k·dt` exactly, so nothing drifts.
//! * **Clocks join and leave** a running loop with `add_clock(config, start)` and `remove_clock(name)`.
//!   A start in the past follows the clock's policy: a catch-up clock catches up, at most its cap per
//!   step (reported as `Deferred`); a constant-rate clock drops the passed slots (`DroppedTicks`).
//!   A duplicate name is `ConfigError::DuplicateClock` (as in `LoopState::new`), an unknown name
//!   or id `NoSuchClock` (in `RemoveClockError::NoSuchClock`), removing the last clock
//!   `RemoveClockError::LastClock`.
//! * **Alpha** is per clock (`state.clock(clock)?.alpha()` after a step); the `Render` event carries the alpha of the
//!   clock named by `LoopConfig::alpha_clock`, by default the *fastest* clock (the shortest period;
//!   clocks of exactly one rate tie to the first declared, since their alpha grids differ only by a
//!   phase), so declaring the clocks in another order never changes what a render draws. It is
//!   chosen when the loop is built and kept: a clock added at run time, even a faster one, does
//!   not take it; removing the alpha clock hands it to the fastest remaining one. The deadline is
//!   the earliest of all clocks' next due times and the render slot.
//! * **Settings per clock** go on each `ClockConfig`. `LoopConfig`'s own `max_updates`, `policy`,
//!   `phase`, `hysteresis` and `firing` are shorthands for a loop of one clock; in a loop of
//!   several they would read as settings for the whole loop (or for whichever clock came first),
//!   before or after the other `.clock(..)` calls, so `LoopState::new` refuses them with
//!   [`ConfigError::ClockSettingOnLoop`](crate::ConfigError::ClockSettingOnLoop), naming the
//!   clock they would set. The first clock's settings go on the `ClockConfig` given to
//!   `LoopConfig::from_clock`.
//! * With several clocks nobody sleeps: a constant-rate clock runs its slot in progress once per
//!   step (`Sleep` events come only from a loop whose single clock is constant-rate).
//! * Clocks live in a plain `Vec` inside the state's box (allocated when the clock is added, never
//!   per step), not in an `im::Vector`: cloning an `im::Vector` of 16 clock-sized
//!   records takes 11.7 ns, but the first step after the clone writes every clock, and clone+write
//!   costs 240.8 ns against 114.3 ns for the inline array (see [`performance`](super::performance)).
//!
//! # Anti-aliasing and the render cap
//!
//! * **Anti-aliasing** (default off). At matched rates (60 Hz ticks, 60 Hz frames with ±50 µs jitter)
//!   about half of all frames run 0 or 2 updates. `.phase(0.5)` starts the accumulator half a tick
//!   in and removes them all; `.hysteresis(f)` handles any pair of rates, see below.
//! * **Render cap**: `.render_rate(Some(rate))` renders at most once per slot of a fixed grid that
//!   never slips.
//!
//! ## Hysteresis against frame jitter
//!
//! When a frame lands within its jitter of a tick boundary, a plain accumulator runs that tick in
//! this frame or the next at random. `.hysteresis(f)` keeps frames on their steady update pattern
//! instead, after the idea of Godot's `physics_jitter_fix` (`main/main_timer_sync.cpp`, which
//! estimates the typical number of physics steps per frame over its last 12 frames). The clock
//! measures the average frame length `P` (integer ns); a steady pattern runs `⌊L·P/dt⌋` or
//! `⌈L·P/dt⌉` updates in any `L` consecutive frames (exactly `L·P/dt` when that is within 1/16 of a
//! whole number, as at matched rates). When a frame's count, with the counts of the frames before
//! it, would break that for a window of 1 to 6 frames, one tick runs early or waits for the next
//! frame.
//! It moves by at most `f`·dt **and by no more than the frame jitter measured so far** (¾ of the
//! largest recent gap between a frame's length and `P`), so:
//!
//! * perfectly regular frames are never moved, and the first 13 frames run as without hysteresis;
//! * a hitch or dropped frame (off the average by half a frame or more) is not jitter and widens
//!   nothing; a dozen in a row mean a new refresh rate, and the average starts over;
//! * alpha stays in `[0, 1]` and the state drawn is at most that budget away from the clock (the
//!   exact lag stays in `Render::lag`), about the jitter itself rather than half a tick;
//! * every tick runs and is reported, and the tick count stays what virtual time gives;
//! * the decision is integer arithmetic on the frames seen, so runs replay exactly.
//!
//! Measured on seeded frames (14,400 per row, each frame at `k/R` plus uniform ±J jitter) against
//! plain tickfold and a model of Godot 4's `advance_checked` with `physics_jitter_fix = 0.5`.
//! *Irregular*: frames ending a run of 1 to 4 frames whose update count is not `⌊L·r⌋` or `⌈L·r⌉`
//! for `r` ticks per frame (a 0 or 2 where 1 is due, updates bunched into adjacent frames, a gap too
//! long). *Error*: the drawn time `(ticks − 1 + alpha)·dt` against the clock `v − dt`; Godot's is
//! the time deficit it carries into its process step.
//!
//! | frames | ticks | jitter | plain: irregular, worst error | `.hysteresis(0.5)` | Godot: irregular, frames > 1 ms off |
//! |---|---|---|---|---|---|
//! | 144 Hz | 60 Hz | ±50 µs | 0, 0 ms | 0, 0 ms | 0, 67 |
//! | 59.94 Hz | 60 Hz | ±50 µs | 12, 0 ms | 1, 0.054 ms | 0, 1,444 |
//! | 59.94 Hz | 60 Hz | ±500 µs | 260, 0 ms | 3, 0.624 ms | 4, 426 |
//! | 60 Hz | 60 Hz | ±50 µs | 13,491, 0 ms | 33, 0.050 ms | 4, 0 |
//! | 60 Hz | 60 Hz | ±500 µs | 13,457, 0 ms | 29, 0.500 ms | 4, 0 |
//! | 144 Hz | 144 Hz | ±50 µs | 13,491, 0 ms | 33, 0.050 ms | 4, 0 |
//! | 360 Hz | 240 Hz | ±500 µs | 2,365, 0 ms | 8, 0.500 ms | 2, 11 |
//! | 144 Hz | 100 Hz | ±500 µs | 0, 0 ms | 0, 0 ms | 0, 102 |
//!
//! Over the whole grid (refresh 30, 50, 59.94, 60, 72, 75, 90, 100, 120, 144, 165, 240 and 360 Hz
//! against ticks of 20, 24, 30, 50, 60, 100, 120, 144 and 240 Hz, at ±50 µs and ±500 µs: 234 rows)
//! hysteresis has fewer irregular frames than plain in 87 rows and as many in the rest (0, or the 4
//! that the default cap of 8 updates per step causes with 30 Hz frames on 240 Hz ticks), 1,147
//! against 511,989 in all, no frame drawn more than 1 ms from the clock, and a worst error of
//! 0.70 ms (72 Hz frames, 100 Hz ticks, ±500 µs). The previous rule (snap to the previous frame's
//! count within `f`·dt) bunched 60 Hz ticks on 144 Hz frames in 8,400 of 14,400 frames with a worst
//! error of 8.33 ms, and was worse than plain in 204 of the 234 rows. The full table:
//! `cargo run --release -p tickfold-core --example hysteresis`; `core/tests/hysteresis.rs` checks
//! the whole grid.
