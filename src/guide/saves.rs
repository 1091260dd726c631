//! Save games and replays: the whole `LoopState` through serde, resumed exactly.
//!
//! With the feature `serde` (off by default; `tickfold-core` builds it without `std`), the
//! configurations, `Period`, `TimeScale`, `Nanos`, `Lag`, the events (`Events` as the list of its
//! `Event`s) and the whole `LoopState` implement `Serialize` and `Deserialize`. A saved
//! `LoopState` holds every private field (each clock's tick number, grid and counters, the
//! sub-nanosecond remainder of a time scale, the hysteresis history, the render slot, pending
//! pauses), so a save game resumes exactly where it stopped: the loaded copy folds the rest of any
//! schedule with the same events and the same state as the original (a property test checks this
//! over random schedules with several clocks, pauses, time scales with a remainder, hysteresis and
//! a render cap, in JSON and in bincode).
//!
//! Loading is checked: data that breaks one of the fold's rules (a zero period, a remainder that
//! is not a proper fraction, an alpha clock that does not exist, two clocks with one name, a
//! format version it does not know) is refused with a `StateError` as the deserializer's error,
//! never accepted to go wrong later. A loaded clock name is an owned `String`, freed with the
//! state: loading keeps no global table of names, so a server that loads many saves holds only the
//! names of the states it still has.
//! A state's `start` is saved as it is: a save game uses `LoopState<Nanos>` (nanoseconds since an
//! epoch you choose, as replays do), since an `Instant` means nothing in the next process.
//!
//! **Real-time games.** Every time inside a state is kept in ns since its `start`, the only
//! timestamp it holds, so a running state moves to another time axis exactly:
//! `state.rebase(Nanos::ZERO)` turns a `LoopState<Instant>` (which cannot be serialized) into a
//! `LoopState<Nanos>` to save, and after loading, `saved.resume_at(Instant::now())` puts its latest
//! reading at the new process's now, so it goes on as if no time had passed between the save and
//! the load (a test saves a real-time loop mid-run through `serde_json` and checks that the loaded
//! one goes on with the events and the state of the run that was never interrupted).
//! `resume_at` fails (giving the state back) when the platform's `Instant`s do not reach back the
//! state's whole real time (they usually count from boot). Simpler still, and without that limit:
//! run the game as a `LoopState<Nanos>` on the real clock, `runner::RealNanos`, with
//! `RealNanos::sleeper(SpinSleep::default())` for its deadlines; then the state saves and loads as
//! it is, and `RealNanos::resuming(&loaded)` continues from its latest time.
//!
//! ```rust
//! # #[cfg(all(feature = "serde", feature = "std"))]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Instant;
//! use tickfold::runner::{RealNanos, RealTime, Runner, SpinSleep};
//! use tickfold::{LoopConfig, LoopState, Nanos, Period};
//!
//! // Ticks run so far on the main clock (a loop's only clock is named "main").
//! fn ticks<T>(state: &LoopState<T>) -> u64 {
//!     state.clock("main").map_or(0, |main| main.stats().ticks_run)
//! }
//!
//! // A game on Instants: rebase to save, resume_at to load.
//! let state = LoopState::new(LoopConfig::new(Period::from_hz(200)?), Instant::now())?;
//! let mut runner = Runner::new(state, RealTime, SpinSleep::default());
//! runner.run(|_, _| {}, |state| ticks(state) < 3);
//! let file = serde_json::to_string(&runner.state().clone().rebase(Nanos::ZERO))?;
//! let loaded: LoopState<Nanos> = serde_json::from_str(&file)?;
//! let state = loaded.resume_at(Instant::now()).map_err(|_| "Instant cannot reach back")?;
//! let mut runner = Runner::new(state, RealTime, SpinSleep::default());
//! runner.run(|_, _| {}, |state| ticks(state) < 6);
//!
//! // A game on RealNanos: the state saves and loads as it is.
//! let clock = RealNanos::new();
//! let state = LoopState::new(LoopConfig::new(Period::from_hz(200)?), Nanos(0))?;
//! let mut runner = Runner::new(state, clock, clock.sleeper(SpinSleep::default()));
//! runner.run(|_, _| {}, |state| ticks(state) < 3);
//! let file = serde_json::to_string(runner.state())?;
//! let loaded: LoopState<Nanos> = serde_json::from_str(&file)?;
//! let clock = RealNanos::resuming(&loaded);
//! let mut runner = Runner::new(loaded, clock, clock.sleeper(SpinSleep::default()));
//! runner.run(|_, _| {}, |state| ticks(state) < 6);
//! assert!(ticks(runner.state()) >= 6);
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "serde", feature = "std")))]
//! # fn main() {}
//! ```
//!
//! ```rust
//! # #[cfg(feature = "serde")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use serde::{Deserialize, Serialize};
//! use tickfold::{LoopConfig, LoopState, Nanos, Period, TimeScale};
//!
//! #[derive(Serialize, Deserialize)]
//! struct SaveGame {
//!     clock: LoopState<Nanos>,
//!     score: u32,
//! }
//!
//! let config = LoopConfig::new(Period::from_hz(60)?);
//! let mut state = LoopState::new(config, Nanos(0))?;
//! state.virtual_time_mut().set_scale(TimeScale::ratio(1, 3)?); // slow motion: 1/3 ns carried exactly
//! (state, _) = state.step(Nanos::from_millis(100));
//!
//! let file = serde_json::to_string(&SaveGame { clock: state.clone(), score: 7 })?;
//! let loaded: SaveGame = serde_json::from_str(&file)?;
//!
//! // Both copies run the same ticks from here on.
//! let (a, ea) = state.step(Nanos::from_millis(250));
//! let (b, eb) = loaded.clock.step(Nanos::from_millis(250));
//! assert_eq!(ea.iter().collect::<Vec<_>>(), eb.iter().collect::<Vec<_>>());
//! assert_eq!(a, b);
//!
//! // A corrupted save is an error, not a loop that panics later.
//! let broken = file.replace(r#""den":3"#, r#""den":0"#);
//! assert!(serde_json::from_str::<SaveGame>(&broken).is_err());
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "serde"))]
//! # fn main() {}
//! ```
//!
//! Use a format that reads floats back exactly (binary formats do; `serde_json` needs its
//! `float_roundtrip` feature), since a clock's phase and hysteresis are `f64` settings.
//!
//! **Replay files.** With `quickcheck` and `serde`, the determinism kit's `Recording` (the
//! configuration, the start, each step's `now` and inputs, the running trace hash, and the
//! keyframes a replay seeks from) is a replay file, versioned and checked on load like a save
//! (see [`replays`](super::replays)), and the kit's `Trace` serializes too. The state checksum a recorder used is a function,
//! not data: give it back with `Recording::with_checksum` after loading, or the replay reports the
//! first step whose hash differs.
