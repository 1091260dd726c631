//! Changing a running loop: pause, time scale, rate, overstep, grid resets and refused ticks.
//!
//! Every setting can change while the loop runs; each control takes effect at the next step and is
//! reported there. Invalid values are typed errors, one type per operation (`ConfigError` for a
//! setting, `RefuseError` for `refuse`), and leave the state unchanged. Per-clock controls are on
//! a handle, `state.clock_mut("physics")?` (a name or a `ClockId`; an unknown clock is the
//! lookup's error, `NoSuchClock::Name` or `NoSuchClock::Id`), whose controls chain:
//! `state.clock_mut("ai")?.set_rate(rate).reset_grid();`.
//!
//! * **Pause and time scale**: on the virtual-time handle (Bevy's `Time<Virtual>`),
//!   `state.virtual_time_mut().pause()`, `.resume()` and `.set_scale(scale)` (an exact fraction;
//!   no nanosecond is lost across any sequence of changes) change virtual time from the latest
//!   `now`; the next step reports `Paused`, `Resumed` or `ScaleChanged`, and renders carry
//!   `paused`.
//! * **A clock's rate** (`set_rate`, like Bevy's `Time<Fixed>::set_timestep` and Godot's run-time
//!   `physics_ticks_per_second`): tick numbers and `Tick::t` continue, the next tick starts where
//!   the previous one ended and every later tick follows the new period exactly; the lag is kept.
//!   Reported as `Event::RateChanged { clock, period, from_tick }`.
//! * **Caps and rules**: on the handle `set_max_updates`, `set_phase` (the grid moves by the
//!   difference) and `set_hysteresis`, read back with `config()`, `rate()` and `stats()`; on the
//!   real-time handle (Bevy's `Time<Real>`), `state.real_time_mut().set_max_frame_delta(..)` and
//!   `.set_render_rate(..)`, with the getters `max_frame_delta()` and `render_rate()`.
//! * **Overstep** (Bevy's `accumulate_overstep` / `discard_overstep`): `accumulate_overstep(time)`
//!   adds lag without a clock reading (make up for a loading screen); `discard_overstep(time)`
//!   drops up to `time` of it, and whole ticks in the dropped span are reported as `DroppedTicks`
//!   with `DropReason::Discarded`.
//! * **`reset_grid()`** (tokio's `Interval::reset`): the grid restarts now, the backlog is
//!   dropped (`DroppedTicks`, `Discarded`) and tick numbers continue.
//! * **`refuse(&tick)`**: the shell could not run the latest update (a rollback session not ready):
//!   it stays due and runs again at the next step with the same number (`ClockStats::ticks_refused`),
//!   unless another clock's capped tick due before it holds it back in the loop's order (its clock
//!   then reports `Deferred`). Only a clock's latest update of the latest step not yet refused can
//!   be refused (refuse several from the last one back), and only before a control moves that
//!   clock's grid; any other tick is `RefuseError::NotRefusable`. A refused constant-rate slot runs
//!   even after later slots passed; those are dropped in that step, reported (`SlotMissed`) after
//!   its update, and the slot can be refused again.
//!
//! The identity `ticks_run + ticks_dropped + pending == ticks_due + ticks_early` holds across all
//! of them.
//!
//! Two of them are checked against the peers they come from (`BENCHMARKS.md`, section 3). Driven
//! by the same frames, with the timestep changed mid-tick (20 → 10 → 25 ms), `set_rate` fires
//! every fixed update in the same frame at the same virtual time as Bevy's `set_timestep` in a
//! real `App`, and carries the same overstep: Bevy spends its overstep with the new timestep, and
//! tickfold's grid restarts at the boundary the lag is measured from, the same rule in whole
//! nanoseconds. (One difference: a `set_timestep` inside a `FixedUpdate` system changes the rest
//! of that frame's runs in Bevy; `set_rate` applies from the next step.) `Policy::Delay`, fed the
//! clock readings of a real `spin_sleep_util` `Interval` run with `MissedTickBehavior::Delay`,
//! schedules every tick where the interval does, up to the gap between the two loops' readings of
//! the clock at the latest late call (the interval reads it again inside `tick()`).
//!
//! ```rust
//! use tickfold::{DropReason, Event, LoopConfig, LoopState, Nanos, Period};
//!
//! let config = LoopConfig::new(Period::from_hz(10)?).max_frame_delta(None);
//! let mut state = LoopState::new(config, Nanos(0))?;
//! let _ = state.advance(Nanos::from_millis(250)); // ticks 0 and 1, 50 ms of lag
//!
//! // Bullet time: 50 ms ticks from the boundary at 200 ms; tick numbers continue.
//! state.clock_mut("main")?.set_rate(Period::from_hz(20)?);
//! let events = state.advance(Nanos::from_millis(300));
//! let ticks: Vec<(u64, u64)> = events.updates().map(|t| (t.index, t.t.0 / 1_000_000)).collect();
//! assert_eq!(ticks, [(2, 200), (3, 250)]);
//!
//! // A loading screen took 120 ms the clock should make up: two more ticks are due at once.
//! state.clock_mut("main")?.accumulate_overstep(Nanos::from_millis(120));
//! assert_eq!(state.advance(Nanos::from_millis(300)).updates().count(), 2);
//!
//! // A menu that did not pause: drop the backlog instead of catching up.
//! let _ = state.advance(Nanos::from_secs(2)); // the cap runs 8 of the 34 due ticks
//! assert_eq!(state.clock("main")?.stats().pending, 26);
//! state.clock_mut("main")?.reset_grid();
//! let events = state.advance(Nanos::from_secs(2));
//! assert!(events.iter().any(|e| matches!(e,
//!     Event::DroppedTicks { reason: DropReason::Discarded, .. })));
//! assert_eq!(state.clock("main")?.stats().pending, 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
