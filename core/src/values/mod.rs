//! The values the API speaks in, with no behaviour beyond their own arithmetic: rates and
//! time scales as exact fractions ([`Period`](crate::Period), [`TimeScale`](crate::TimeScale)),
//! times ([`Nanos`](crate::Nanos), [`Lag`](crate::Lag), [`Timestamp`](crate::Timestamp)), clock
//! ids and the ways to name a clock ([`ClockId`](crate::ClockId), [`ClockRef`](crate::ClockRef)),
//! the event vocabulary a step reports in ([`Event`](crate::Event), [`Tick`](crate::Tick),
//! [`Render`](crate::Render), ...), and blending ([`Interpolate`](crate::Interpolate),
//! [`Extrapolate`](crate::Extrapolate), the glam and mint impls).
//!
//! The bottom layer. A rate's error, [`RateError`](crate::RateError), lives beside it in
//! `rate.rs`. Its files: `rate.rs`, `time.rs`, `id.rs`, `event.rs`, `interpolate.rs`,
//! `extrapolate.rs`, `glam.rs` and `mint.rs` (the two crates' impls).
//!
//! May call: nothing. Called by: `clock`, `clocks`, `config`, `error`, `events`, `grid`,
//! `input`, `save`, `state`, `step`, `time`.

pub(crate) mod event;
pub(crate) mod extrapolate;
#[cfg(feature = "glam")]
pub(crate) mod glam;
pub(crate) mod id;
pub(crate) mod interpolate;
#[cfg(feature = "mint")]
pub(crate) mod mint;
pub(crate) mod rate;
pub(crate) mod time;
