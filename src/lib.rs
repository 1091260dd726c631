//! Game and simulation main loops as a pure fold: `step(LoopState, now) -> (LoopState, Events)`.
//!
//! tickfold never reads a clock and never sleeps. You pass `now`; it tells you, in order, which
//! fixed updates to run, when to sleep, what was dropped and why, when to render and with which
//! interpolation `alpha`, and when to call again. Time is integer nanoseconds and the tick length
//! an exact fraction, so the tick count never depends on how frames slice time, and a whole run
//! replays exactly on a fake clock. It is the fixed-timestep accumulator of Glenn Fiedler's
//! "Fix Your Timestep!", written as the purely functional Scheme loop article's recursion.
//!
//! ```
//! use tickfold::{Event, Interpolate, LoopConfig, LoopState, Nanos, Period};
//!
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
//! let (mut previous, mut current, mut ticks_at) = (0.0_f64, 0.0_f64, Vec::new());
//! for frame in 1..=6u64 {
//!     let events;
//!     (state, events) = state.step(Nanos::from_millis(16 * frame)); // a fake 62.5 Hz clock
//!     // Each event with the state as of it: an update reads its own tick's moment.
//!     state.hand_on(&events, |event, state| match event {
//!         Event::Update(tick) => {
//!             (previous, current) = (current, current + tick.dt_secs());
//!             ticks_at.push(state.virtual_time().elapsed());
//!         }
//!         Event::Render(r) => assert!(previous.interpolate(&current, r.alpha) <= current),
//!         _ => {} // Sleep, drops, pauses: see `Event`
//!     })?;
//! }
//! assert_eq!(state.clock("main")?.stats().ticks_run, 4); // 96 ms hold four whole 20 ms ticks
//! assert_eq!(ticks_at, [20, 40, 60, 80].map(Nanos::from_millis)); // each its due time
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A real loop passes `Instant::now()` instead, or lets [`runner`] read the clock and sleep.
//!
//! # Crates
//!
//! This facade re-exports the others; each can also be used alone.
//!
//! | crate | here | what it holds |
//! |---|---|---|
//! | [`tickfold_core`] | the crate root | the fold: [`LoopState`], [`LoopConfig`], [`Events`], exact [`Period`]s, [`Interpolate`]; `no_std` without the `std` feature |
//! | `tickfold` | [`runner`] | the imperative shell: read a clock, step, hand events to your code, sleep until the deadline |
//! | `tickfold` | `tickfold::web` (feature `web`) | the loop in a browser: `requestAnimationFrame` stamps, never sleeping, one setting for hidden tabs |
//! | `tickfold` | `tickfold::winit` (feature `winit`) | the runner inside winit's event loop: `WaitUntil` the deadline, redraw on `Render`, quiet while occluded |
//! | `tickfold-testing` | `tickfold::testing` (feature `quickcheck`) | the determinism kit: arbitrary frame schedules, bit-for-bit schedule checks, timestep checks, replay |
//! | `tickfold-hecs` | `tickfold::hecs_adapter` (feature `hecs`) | capture tracked hecs components before a step's last update ([`Tick::last_in_step`]), read blended values at render |
//! | `tickfold-ggrs` | `tickfold::ggrs_adapter` (feature `ggrs`) | rollback netcode over ggrs 0.13: one ggrs frame per tick, refused ticks back to the loop, saves and loads through the snapshot ring |
//! | `tickfold-derive` | the derive `Interpolate` (feature `derive`) | `#[derive(Interpolate)]`: blend a struct field by field |
//! | `tickfold-snapshot` | `tickfold::snapshot` (feature `snapshot`) | double buffers with dirty chunks, a rollback ring with checksums, `im::Vector` captures |
//!
//! The Bevy plugin, `tickfold-bevy`, is a crate of its own (see [`guide::bevy`]).
//!
//! # The guide
//!
//! [`guide`] is the manual: a [tutorial](guide::tutorial) that builds a complete two-clock game
//! step by step (interpolation, a fake-clock test, a determinism property, a save resumed
//! exactly), a page for readers [coming from](guide::coming_from) Bevy's `FixedUpdate`,
//! `game-loop` or a hand-written accumulator, and one chapter per topic: [several
//! clocks](guide::clocks), [falling behind](guide::falling_behind), [run-time
//! controls](guide::controls), [input](guide::input), [saves](guide::saves), the adapters, the
//! runner, the determinism kit, the design and the measured figures. Every example in it is a
//! doctest.
//!
//! # Features
//!
//! Documented in the `[features]` table of this crate's `Cargo.toml`, and listed here when the
//! docs are built with the `document-features` feature (docs.rs builds them with all features).
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

pub use tickfold_core::*;

/// `#[derive(Interpolate)]` (feature `derive`): the `tickfold-derive` crate. It lives in the
/// macro namespace beside the trait of the same name, so `use tickfold::Interpolate;` brings
/// both. See [`guide::interpolation`].
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use tickfold_derive::Interpolate;

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod runner;
#[cfg(feature = "web")]
#[cfg_attr(docsrs, doc(cfg(feature = "web")))]
pub mod web;
#[cfg(feature = "winit")]
#[cfg_attr(docsrs, doc(cfg(feature = "winit")))]
pub mod winit;
/// Rollback netcode over ggrs (feature `ggrs`): the `tickfold-ggrs` crate — each tick of the
/// frame clock is one ggrs frame, refused ticks go back to the loop, saves and loads through
/// the snapshot ring, time sync through the fold. See [`guide::rollback`].
#[cfg(feature = "ggrs")]
#[cfg_attr(docsrs, doc(cfg(feature = "ggrs")))]
#[doc(inline)]
pub use tickfold_ggrs as ggrs_adapter;
/// The hecs adapter (feature `hecs`): the `tickfold-hecs` crate — capture tracked components
/// before a step's last update only (the capture rule of [`Tick::last_in_step`]), read blended
/// values at render. See [`guide::hecs`].
#[cfg(feature = "hecs")]
#[cfg_attr(docsrs, doc(cfg(feature = "hecs")))]
#[doc(inline)]
pub use tickfold_hecs as hecs_adapter;
/// Snapshots of plain-data worlds (feature `snapshot`): the `tickfold-snapshot` crate —
/// double buffers with dirty chunks, a rollback ring with checksums, `im::Vector` captures.
/// See [`guide::snapshots`].
#[cfg(feature = "snapshot")]
#[cfg_attr(docsrs, doc(cfg(feature = "snapshot")))]
#[doc(inline)]
pub use tickfold_snapshot as snapshot;
/// The determinism kit (feature `quickcheck`): the `tickfold-testing` crate — arbitrary frame
/// schedules, bit-for-bit schedule checks, timestep checks, record and replay. See
/// [`guide::determinism`].
#[cfg(feature = "quickcheck")]
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
#[doc(inline)]
pub use tickfold_testing as testing;

#[cfg(any(doc, doctest))]
pub mod guide;

/// The README's examples, compiled and run as doctests (never part of the public API).
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
