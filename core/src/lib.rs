//! The tickfold main loop as a pure fold: `(LoopState, now) -> (LoopState, Events)`.
//!
//! No clock, no sleeping, no global state: the caller passes `now` and gets back what to do.
//! Everything a loop knows, its clock names included, lives in its `LoopState` and goes with
//! it (a name is a literal or an owned `String`, loaded saves included).
//! Time is kept in integer nanoseconds and the tick length as an exact fraction, so 60 ticks at
//! 60 Hz are exactly one second and the tick count never depends on how frames slice time.
//!
//! ```
//! use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! // 2 ticks per second, frames of 1 s: the first printed trace of the purely functional Scheme loop article.
//! let config = LoopConfig::new(Period::from_hz(2)?).max_frame_delta(None);
//! let state = LoopState::new(config, Nanos(0))?;
//! let (state, events) = state.step(Nanos::from_secs(1));
//! let lags: Vec<u64> = events.updates().map(|t| t.lag.behind().0 / 1_000_000).collect();
//! assert_eq!(lags, [1000, 500]);
//! assert_eq!(events.render().map(|r| r.alpha), Some(0.0));
//! assert_eq!(state.clock("main").map(|c| c.stats().ticks_run), Ok(2));
//! # Ok::<(), tickfold_core::ConfigError>(())
//! ```
//!
//! With default features off the crate is `#![no_std]` (it needs `alloc` for the state's box,
//! allocated once by [`LoopState::new`]); the `std` feature adds the [`Timestamp`] impl for
//! `std::time::Instant`. The errors, one per kind of operation ([`RateError`], [`ConfigError`],
//! [`NoSuchClock`], [`RemoveClockError`], [`RefuseError`]), implement `core::error::Error`
//! either way.
//!
//! # Features
//!
//! Documented in the `[features]` table of this crate's `Cargo.toml`, and listed here when the
//! docs are built with the `document-features` feature (docs.rs builds them with all features).
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

extern crate alloc;

// The layers, in the order `LoopState`'s docs page lists the methods they add: make it and
// step it, its handles (virtual time, real time, one clock), the clocks' numbers, then the
// rest. ARCHITECTURE.md draws the map.
// (One module a group, so that rustfmt keeps the order.)
mod state;

mod step;

mod time;

mod clock;

mod clocks;

mod access;
mod config;
mod error;
mod events;
mod grid;
mod input;
#[cfg(feature = "serde")]
mod save;
mod values;

/// The glam crate itself (feature `glam`), re-exported so that your glam types are the ones
/// the [`Interpolate`] impls are written for.
#[cfg(feature = "glam")]
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
pub use ::glam;
pub use access::{Access, Exclusive, Shared};
pub use config::{ClockConfig, Firing, LoopConfig, MAX_UPDATES_PER_STEP, Policy};
pub use error::{ConfigError, NoSuchClock, RefuseError, RemoveClockError};
pub use events::{Events, IntoIter, Iter, Updates};
pub use input::columns::{BlendColumns, Columns};
pub use input::{InputQueue, TickInputs};
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use save::check::StateError;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use save::state::SavedState;
pub use state::LoopState;
pub use state::as_of::AsOfError;
pub use state::clock_view::{ClockHandle, ClockMut, ClockView};
pub use state::real_view::{RealTimeHandle, RealTimeMut, RealTimeView};
pub use state::stats::ClockStats;
pub use state::virtual_view::{VirtualTimeHandle, VirtualTimeMut, VirtualTimeView};
pub use time::smooth::{DeltaSmoother, SmootherStats};
pub use values::event::{DropReason, Event, Render, Tick, TickSpan};
pub use values::extrapolate::Extrapolate;
#[cfg(feature = "glam")]
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
pub use values::glam::Nlerp;
pub use values::id::{ClockId, ClockRef};
pub use values::interpolate::Interpolate;
pub use values::rate::{Period, RateError, TimeScale};
pub use values::time::{Lag, Nanos, Timestamp};
