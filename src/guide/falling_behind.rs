//! Falling behind: the policies, the per-step cap, the max frame delta, and what is dropped.
//!
//! | setting | default | what it does | how it is reported |
//! |---|---|---|---|
//! | `Policy::CatchUp` | yes | fixed-timestep accumulator (Fiedler's "Fix Your Timestep", the purely functional Scheme loop): one update per whole tick of lag, `alpha = lag/dt` | — |
//! | `max_updates(Some(n))` | 8 | at most `n` updates per step; the backlog is kept and the deadline becomes "now" | `Event::Deferred { ticks }` |
//! | `max_frame_delta(Some(d))` | 250 ms | a step owes at most `d` of *virtual* time (whatever the time scale, as in Bevy): it keeps due as many ticks as came due by the later of "step start + `d`" and "the tick the fold told the shell to wait for"; the others are dropped oldest first (the clock's next tick numbers, which it jumps over), so the ticks that run are the newest | `Event::DiscardedTime { time, first, ticks }` (`time`: virtual time discarded for that clock) |
//! | `Policy::DropAndRest` | | constant rate (the "Constant Rate Loop" article's *drop & rest*): one update per step at its slot start; slots already started are lost | `Event::DroppedTicks`, then `Event::Sleep` |
//! | `Policy::KeepWorking` | | constant rate: when behind, the slot in progress runs at once; only wholly passed slots are lost | `Event::DroppedTicks` |
//! | `Policy::Delay` | | constant rate, tokio's and spin_sleep's `MissedTickBehavior::Delay`: when behind, the slot runs at once and the grid moves with it (the next slot starts one period later); nothing is dropped, the max frame delta does not apply | — |
//!
//! With the cap disabled a step still stops after `MAX_UPDATES_PER_STEP` (65,536) updates and
//! defers the rest, so a gap of years never turns into one unbounded step. For every clock, policy,
//! firing rule and hysteresis, `ticks_run + ticks_dropped + pending == ticks_due + ticks_early`
//! holds after every step, exactly (`ticks_early`: ticks run before virtual time made them due, by
//! the nearest rule, hysteresis or a constant-rate sleep; 0 for late firing without hysteresis).
//!
//! # Sustained overload
//!
//! When every frame brings more ticks than the cap lets run, the cap's backlog would grow for
//! ever. The max frame delta bounds it too: when a step ends with a backlog whose oldest tick is
//! more than the max frame delta behind, every catch-up clock gives up its ticks due by the
//! step's virtual time less half the max frame delta (one point for all clocks: they stay
//! together in the total order), reported as `Event::DiscardedTime` (`time`: the grid span of
//! the ticks given up). The world runs slower than real time, as the cap allows (Unity's
//! maximum delta time), but never more than the max frame delta behind. With
//! `max_frame_delta(None)` nothing is given up and the backlog may grow without bound.
//!
//! ```
//! use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
//!
//! // Main 60 Hz, physics 240 Hz, AI 10 Hz, the defaults (cap 8, 250 ms), frames at 20 fps:
//! // 12 physics ticks come due per frame, 8 may run.
//! let config = LoopConfig::new(Period::from_hz(60)?)
//!     .clock(ClockConfig::new("physics", Period::from_hz(240)?))
//!     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
//! let mut state = LoopState::new(config, Nanos(0))?;
//! let mut given_up = 0;
//! for frame in 1..=1_200u64 {
//!     for event in &state.advance(Nanos::from_millis(50 * frame)) {
//!         if let Event::DiscardedTime { ticks, .. } = event {
//!             given_up += ticks;
//!         }
//!     }
//! }
//! let main = state.clock("main")?.stats();
//! // After 60 s: 2/3 of the ticks ran, at most 250 ms of ticks are owed (not 1,200), and
//! // every other due tick was reported given up.
//! assert_eq!(main.ticks_run, 2_400);
//! assert!(main.pending <= 15);
//! assert_eq!(main.ticks_run + main.ticks_dropped + main.pending, main.ticks_due);
//! assert!(given_up >= main.ticks_dropped);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Bad input
//!
//! * Invalid settings are refused at construction with a typed `ConfigError`: a zero, negative, NaN
//!   or sub-nanosecond tick rate (and, from `from_hz_f64`, a rate below 1 µHz); a cap of 0; a max
//!   frame delta of 0; a NaN, negative or time scale above 4,000; a phase outside `[0, 1)`; a hysteresis outside `[0, ½]`; phase or hysteresis on a
//!   constant-rate policy.
//! * `now` earlier than the latest `now`: no time passes (only a backlog left by the cap runs), `Event::TimeBackwards { by }` is
//!   reported, nothing renders, and the next step measures from the latest `now`.
//! * `now` equal to the latest `now`: no render (simloop's invariant), though a backlog may run.
//! * Huge gaps: clamped and reported (default), or with the clamp off, each step runs at most the
//!   cap. Time ends at `u64::MAX` ns (584 years): a tick whose due time does not fit never comes
//!   due, nor does tick number `u64::MAX` (where tick numbers end: with 1 ns constant-rate slots
//!   it would start at exactly `u64::MAX` ns), the clock stops and
//!   `Event::EndOfTime { clock, next_tick }` is reported once.
//! * `step` never panics after construction.
