//! The determinism kit for tickfold loops: prove in your own tests that your simulation gives
//! the same result however frames fall.
//!
//! ```
//! use tickfold_testing::{Schedule, Sim};
//! use tickfold_core::{LoopConfig, Tick, Period};
//!
//! #[derive(Clone, Debug, PartialEq)]
//! struct Ball { y: f64, vy: f64 }
//!
//! // Semi-implicit Euler at a fixed dt: the state depends only on the ticks, never on frames.
//! fn update(b: &mut Ball, tick: &Tick) {
//!     let dt = tick.dt_secs();
//!     b.vy -= 9.81 * dt;
//!     b.y += b.vy * dt;
//! }
//!
//! let config = LoopConfig::new(Period::from_hz(60)?).max_frame_delta(None);
//! let sim = Sim::new(config, Ball { y: 10.0, vy: 0.0 }, update)?;
//! let schedules = [
//!     Schedule::vsync(144u64, 288)?,                          // 2 s of 144 Hz frames
//!     Schedule::vsync((60_000u64, 1_001u64), 120)?,           // 2.002 s at 59.94 Hz
//!     Schedule::from_millis(&[16.7, 0.0, -3.0, 250.0, 1700.0])?, // a zero frame, backwards time, a spike
//! ];
//! // Every schedule is folded, brought to a common end time and compared, bit for bit, with
//! // a reference run of one frame per tick.
//! sim.same_across_schedules(&schedules)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What the kit offers:
//!
//! * [`Schedule`]: frame schedules (the `now`s a shell would pass), with an `Arbitrary` impl
//!   for quickcheck covering vsync rates from 30 to 360 Hz (59.94 Hz included), jitter, missed
//!   vsyncs, hitches, zero-length frames, long stalls and time going backwards; failing
//!   schedules shrink to short ones that print as frame lengths in milliseconds with markers.
//! * [`Sim`]: fold a user `update(&mut S, &Tick)` over a schedule ([`Sim::fold`] gives the
//!   final state and the event [`Trace`]) and check [`Sim::same_across_schedules`]
//!   (bit-identical under `PartialEq`) or [`Sim::same_across_schedules_by`] (under a checksum).
//!   Any loop can be checked through the [`Driver`] trait, not only tickfold's.
//! * [`ReadingSim`]: the same check for an update that also reads the loop
//!   (`update(&mut S, &Tick, &LoopState)`: the virtual time, another clock's latest tick),
//!   handed the state as of each tick as the runner and winit shells hand it.
//! * [`FrameSim`]: the same check for *your own frame code*, the walk over a step's events your
//!   game runs after each step (`frame(&mut S, &mut LoopState, &Events)`): it catches the plain
//!   `for event in events` loop that hands an update the state at the end of the step, where
//!   `state.hand_on(events, |event, state| ...)` hands it the state as of its tick.
//! * [`ThroughSave`]: a world that is not `Clone` (a hecs `World` with its trackers) made
//!   `Clone` through its own save and load and compared by a fingerprint, so that it reaches
//!   [`ReadingSim`], [`FrameSim`] and [`Sim`] in a few lines.
//! * [`WorldSim`]: the same schedule check for a state that is not `Clone`, such as a hecs
//!   `World` with its `Interpolated<T>` trackers: a fresh world is built for each run and the
//!   runs' ends are compared by a fingerprint you compute, the trackers' rendered values
//!   included, so the check covers the adapter's capture rule and not only the simulation.
//! * [`Timestep`]: run the same span at several tick rates and compare within `approx`
//!   tolerances, reporting the largest deviation (the "Main Loops, Refresh Rates, and
//!   Determinism" article's `Update(1/30)` against `Update(1/60)` twice).
//! * [`smoothing_rate`] and [`smooth`]: frame-rate independent exponential smoothing,
//!   `1 - 2^(-k·dt)`, next to the naive rule ([`smooth_naive`]) that is not independent.
//! * [`Recorder`] and [`Recording`]: record each step's `now` and inputs, replay them and
//!   compare trace hashes ([`Fnv1a`], 64-bit FNV-1a over a fixed little-endian encoding).
//! * [`Recorder::with_saves`] and [`Player`]: recordings with periodic saves of the loop and
//!   your world ([`Rewind`]), played back with seeks to any tick (cost bounded by the save
//!   interval) at the speed, pause and single steps of the loop that drives the player; with
//!   `serde`, a versioned replay file checked on load ([`ReplayError`]).
//! * [`SplitMix64`]: a seeded generator with the same numbers everywhere, for frame jitter,
//!   packet loss or write patterns in tests and benches.
//!
//! The kit is also re-exported by the `tickfold` facade as `tickfold::testing` (its feature
//! `quickcheck`); add `tickfold-testing` (usually as a dev-dependency) to use it on
//! `tickfold-core` alone.
//!
//! Failures are [`Failure`] values whose `Display` (and `Debug`, so quickcheck prints it) names
//! the schedule, the step and the first differing field. Bad input is a [`KitError`].

//!
//! # Features
//!
//! Documented in the `[features]` table of this crate's `Cargo.toml`, and listed here when the
//! docs are built with the `document-features` feature (docs.rs builds them with all features).
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

mod check;
mod diff;
#[cfg(feature = "serde")]
mod digest;
mod fnv;
mod fold;
mod frame;
mod keyframe;
mod reading;
mod replay;
mod replay_file;
mod rng;
mod schedule;
mod seek;
mod smoothing;
mod through_save;
mod timestep;
mod world;

use core::fmt;

use tickfold_core::{ConfigError, Period, RateError};

/// The quickcheck version the kit's `Arbitrary` impls are written for: use it for your own
/// `Arbitrary` types and `QuickCheck` runners so that both sides agree.
pub use quickcheck;

pub use check::{Failure, MismatchKind, ScheduleMismatch};
pub use diff::debug_diff;
pub use fnv::Fnv1a;
pub use fold::{Driver, Run, Sim, Trace, TraceStep};
pub use frame::FrameSim;
pub use keyframe::{Keyframe, Rewind};
pub use reading::ReadingSim;
pub use replay::{RecordedStep, Recorder, Recording, Replayed};
pub use replay_file::ReplayError;
#[cfg(feature = "serde")]
pub use replay_file::SavedRecording;
pub use rng::SplitMix64;
pub use schedule::Schedule;
pub use seek::{Played, Player, Position, SeekError};
pub use smoothing::{smooth, smooth_naive, smoothing_rate};
pub use through_save::ThroughSave;
pub use timestep::{Deviation, Timestep, TimestepReport, Tolerance};
pub use world::WorldSim;

/// Invalid input to the kit, reported before anything runs.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum KitError {
    /// A schedule needs at least one frame.
    EmptySchedule,
    /// A check needs at least one schedule.
    NoSchedules,
    /// A timestep check needs at least one tick rate.
    NoRates,
    /// Frame `index` of a schedule was NaN or infinite.
    InvalidFrame {
        /// Position of the frame in the input.
        index: usize,
    },
    /// A timestep check needs a span longer than zero.
    ZeroSpan,
    /// The timestep check's span is not a whole number of ticks at this rate, so the runs would
    /// end at different simulated times.
    SpanNotWhole {
        /// The offending tick rate.
        rate: Period,
        /// The span in nanoseconds.
        span_ns: u64,
    },
    /// A loop setting or rate was invalid (a zero tick rate is [`ConfigError::Rate`]`(`[`RateError::Zero`]`)`).
    Config(ConfigError),
    /// A [`ThroughSave`] world could not be cloned through its save and load: the save or the
    /// load failed, or the loaded world's fingerprint is not the saved world's (the reason).
    RoundTrip(String),
}

impl fmt::Display for KitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KitError::EmptySchedule => f.write_str("a schedule needs at least one frame"),
            KitError::NoSchedules => f.write_str("the check needs at least one schedule"),
            KitError::NoRates => f.write_str("the timestep check needs at least one tick rate"),
            KitError::InvalidFrame { index } => {
                write!(f, "frame {index} of the schedule is NaN or infinite")
            }
            KitError::ZeroSpan => f.write_str("the timestep check needs a span longer than zero"),
            KitError::SpanNotWhole { rate, span_ns } => write!(
                f,
                "a span of {span_ns} ns is not a whole number of ticks at {} Hz; \
                 choose a span every rate divides (1 s for 30/60/120/240 Hz)",
                fmt_hz(*rate)
            ),
            KitError::Config(e) => write!(f, "invalid loop setting: {e}"),
            KitError::RoundTrip(why) => {
                write!(
                    f,
                    "the world's clone through its save and load failed: {why}"
                )
            }
        }
    }
}

impl std::error::Error for KitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KitError::Config(e) => Some(e),
            _ => None,
        }
    }
}

impl From<RateError> for KitError {
    fn from(e: RateError) -> KitError {
        KitError::Config(ConfigError::Rate(e))
    }
}

impl From<ConfigError> for KitError {
    fn from(e: ConfigError) -> KitError {
        KitError::Config(e)
    }
}

/// A value the kit accepts as a rate: a [`Period`], whole hertz (`144u64`) or an exact
/// `(num, den)` ratio of hertz (`(60_000u64, 1_001u64)` is 59.94 Hz).
///
/// Zero gives [`KitError::Config`]`(`[`ConfigError::Rate`]`(`[`RateError::Zero`]`)``)`.
pub trait IntoPeriod {
    /// The rate, checked.
    ///
    /// # Errors
    ///
    /// [`KitError::Config`] for a zero or out-of-range rate.
    fn into_tick_rate(self) -> Result<Period, KitError>;
}

impl IntoPeriod for Period {
    fn into_tick_rate(self) -> Result<Period, KitError> {
        Ok(self)
    }
}

impl IntoPeriod for u64 {
    fn into_tick_rate(self) -> Result<Period, KitError> {
        Ok(Period::from_hz(self)?)
    }
}

impl IntoPeriod for (u64, u64) {
    fn into_tick_rate(self) -> Result<Period, KitError> {
        Ok(Period::from_hz_ratio(self.0, self.1)?)
    }
}

/// A rate in hertz for messages: whole numbers bare, others with two decimals (59.94).
pub(crate) fn fmt_hz(rate: Period) -> String {
    let hz = rate.hz_f64();
    if hz < 0.01 {
        // Periods of minutes to centuries: "0" would hide the rate.
        format!("{hz:.3e}")
    } else if (hz - hz.round()).abs() < 1e-9 {
        format!("{}", hz.round())
    } else {
        format!("{hz:.2}")
    }
}

/// Nanoseconds as milliseconds with up to six decimals, trailing zeros trimmed: `16.666666`,
/// `250`, `-3`, `0`.
pub(crate) fn fmt_ms(ns: i128) -> String {
    let sign = if ns < 0 { "-" } else { "" };
    let abs = ns.unsigned_abs();
    let (whole, frac) = (abs / 1_000_000, abs % 1_000_000);
    if frac == 0 {
        format!("{sign}{whole}")
    } else {
        let frac = format!("{frac:06}");
        format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ms_formatting_is_exact_and_short() {
        assert_eq!(fmt_ms(16_666_666), "16.666666");
        assert_eq!(fmt_ms(250_000_000), "250");
        assert_eq!(fmt_ms(-3_000_000), "-3");
        assert_eq!(fmt_ms(0), "0");
        assert_eq!(fmt_ms(1_500), "0.0015");
        assert_eq!(
            fmt_hz(Period::from_hz_ratio(60_000, 1_001).unwrap()),
            "59.94"
        );
        assert_eq!(fmt_hz(Period::from_hz(144).unwrap()), "144");
    }

    #[test]
    fn zero_rates_are_typed_errors() {
        assert_eq!(
            0u64.into_tick_rate(),
            Err(KitError::Config(ConfigError::Rate(RateError::Zero)))
        );
        assert_eq!(
            (60u64, 0u64).into_tick_rate(),
            Err(KitError::Config(ConfigError::Rate(RateError::Zero)))
        );
        assert!(
            KitError::Config(ConfigError::Rate(RateError::Zero))
                .to_string()
                .contains("greater than zero")
        );
    }
}
