//! Debug single-stepping, per-step deltas and shader time.
//!
//! On the virtual-time handle, `step_ticks(n)` single-steps a paused loop (like Bevy's stepping):
//! the next step runs exactly `n` ticks of the alpha clock as ordinary updates, moving virtual
//! time to exactly the `n`-th tick's due time, then the loop stays paused (it pauses a running
//! loop first). `delta()` on the real-time and virtual-time handles is the exact span the latest
//! step covered (the deltas add up to their `elapsed()`), and `elapsed_wrapped(period)` is
//! virtual time modulo an exact period, like Bevy's `wrap_period`, with `elapsed_secs_wrapped` as
//! the `f32` a shader wants: its precision never decays with the loop's age.
//!
//! ```rust
//! use tickfold::{LoopConfig, LoopState, Nanos, Period};
//!
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
//! state.virtual_time_mut().pause();
//! let _ = state.advance(Nanos::from_secs(3)); // paused: no virtual time
//! state.virtual_time_mut().step_ticks(2);
//! let events = state.advance(Nanos::from_secs(3));
//! assert_eq!(events.updates().map(|t| t.index).collect::<Vec<_>>(), [0, 1]);
//! assert_eq!(state.real_time().delta(), Nanos(0));
//! let time = state.virtual_time();
//! assert!(time.is_paused());
//! assert_eq!(time.delta(), Nanos::from_millis(40)); // exactly two ticks
//! let third = Period::from_secs_ratio(1, 3)?;
//! assert_eq!(time.elapsed_wrapped(third), Nanos::from_millis(40));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
