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
//! `std::time::Instant`. The errors, one per operation ([`RateError`], [`ConfigError`],
//! [`NoSuchClock`], [`RemoveClockError`], [`RefuseError`]), implement `core::error::Error`
//! either way.
//!
//! # Features
//!
#![cfg_attr(
    feature = "document-features",
    doc = document_features::document_features!()
)]
#![cfg_attr(
    not(feature = "document-features"),
    doc = "See the `[features]` table of this crate's `Cargo.toml` (rendered on docs.rs)."
)]
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

extern crate alloc;

// The modules that add `LoopState`'s methods, in the order its docs page lists them: make it
// and step it, its handles (virtual time, real time, one clock), the clocks' numbers, then the
// rest.
// (One module a group, so that rustfmt keeps the order.)
mod state;

mod step;

mod virtual_handle;

mod real_handle;
mod render_grid;

mod handle;

mod stats;

mod clocks;

mod controls;

mod access;
mod anchor;
mod as_of;
mod cursor;

mod clock;
mod clock_set;
mod columns;
mod config;
mod deltas;
mod error;
mod event;
mod events;
mod extrapolate;
#[cfg(test)]
mod fast_path_tests;
mod few;
mod general;
#[cfg(feature = "glam")]
mod glam_impls;
mod grid;
mod id;
mod input;
mod interpolate;
mod jitter;
#[cfg(feature = "mint")]
mod mint;
mod rate;
mod real;
mod report;
#[cfg(feature = "serde")]
mod serde_impls;
#[cfg(feature = "serde")]
mod serde_state;
mod several;
#[cfg(test)]
mod several_tests;
mod smooth;
mod span;
#[cfg(feature = "serde")]
mod state_error;
mod step_rules;
mod stepping;
mod time;
mod virt;
mod virtual_time;
mod walk;

/// The glam crate itself (feature `glam`), re-exported so that your glam types are the ones
/// the [`Interpolate`] impls are written for.
#[cfg(feature = "glam")]
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
pub use ::glam;
pub use access::{Access, Exclusive, Shared};
pub use as_of::AsOfError;
pub use columns::{BlendColumns, Columns};
pub use config::{ClockConfig, Firing, LoopConfig, MAX_UPDATES_PER_STEP, Policy};
pub use error::{ConfigError, NoSuchClock, RateError, RefuseError, RemoveClockError};
pub use event::{DropReason, Event, Render, Tick, TickSpan};
pub use events::{Events, IntoIter, Iter, Updates};
pub use extrapolate::Extrapolate;
#[cfg(feature = "glam")]
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
pub use glam_impls::Nlerp;
pub use handle::{ClockHandle, ClockMut, ClockView};
pub use id::{ClockId, ClockRef};
pub use input::{InputQueue, TickInputs};
pub use interpolate::Interpolate;
pub use rate::{Period, TimeScale};
pub use real_handle::{RealTimeHandle, RealTimeMut, RealTimeView};
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use serde_state::SavedState;
pub use smooth::{DeltaSmoother, SmootherStats};
pub use state::LoopState;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use state_error::StateError;
pub use stats::ClockStats;
pub use time::{Lag, Nanos, Timestamp};
pub use virtual_handle::{VirtualTimeHandle, VirtualTimeMut, VirtualTimeView};
