//! Loop configuration, checked once at construction, and its typed error.

use core::fmt;
use core::time::Duration;

use crate::rate::{TickRate, TimeScale};
use crate::time::Nanos;

/// The most updates one step runs when the cap is disabled with [`LoopConfig::max_updates`]`(None)`.
///
/// Without any cap a gap of years would ask for billions of updates in one step. With the cap
/// disabled the fold still stops after this many, keeps the backlog, reports it with
/// [`Event::Deferred`](crate::Event::Deferred) and asks to be called again at once.
pub const MAX_UPDATES_PER_STEP: u32 = 1 << 16;

/// What the loop does when it falls behind its tick grid.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Fixed-timestep accumulator ("Fix Your Timestep"): run every due tick, up to the per-step
    /// cap, carry the rest as lag, and render with `alpha = lag / dt`. Tick *k* covers
    /// `[k·dt, (k+1)·dt)` and runs once real time has reached its end.
    #[default]
    CatchUp,
    /// Constant rate, *drop & rest*: one update per step at the start of its slot. A slot whose
    /// start has passed before its update could run is lost; the loop sleeps until the next
    /// slot starts and the tick number jumps over the lost ones.
    DropAndRest,
    /// Constant rate, *keep working*: one update per step, at the start of its slot when ahead;
    /// when behind, the slot in progress runs at once and only slots that passed entirely are lost.
    KeepWorking,
}

/// The tickfold loop's settings: a builder, checked by [`LoopState::new`](crate::LoopState::new).
///
/// Defaults: [`Policy::CatchUp`], at most 8 updates per step, a 250 ms max frame delta, no
/// phase, no hysteresis, no render cap, time scale 1, not paused.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, TickRate};
/// use core::time::Duration;
///
/// let config = LoopConfig::new(TickRate::from_hz(60)?)
///     .max_updates(Some(4))
///     .max_frame_delta(Some(Duration::from_millis(100)))
///     .phase(0.5);
/// let state = LoopState::new(config, Nanos(0))?;
/// # let _ = state;
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LoopConfig {
    pub(crate) rate: TickRate,
    pub(crate) max_updates: Option<u32>,
    pub(crate) max_frame_delta: Option<Duration>,
    pub(crate) policy: Policy,
    pub(crate) phase: f64,
    pub(crate) hysteresis: f64,
    pub(crate) render_rate: Option<TickRate>,
    pub(crate) scale: TimeScale,
    pub(crate) paused: bool,
}

impl LoopConfig {
    /// The default settings at tick rate `rate`.
    #[must_use]
    pub fn new(rate: TickRate) -> LoopConfig {
        LoopConfig {
            rate,
            max_updates: Some(8),
            max_frame_delta: Some(Duration::from_millis(250)),
            policy: Policy::CatchUp,
            phase: 0.0,
            hysteresis: 0.0,
            render_rate: None,
            scale: TimeScale::ONE,
            paused: false,
        }
    }

    /// The most updates one step may run before it keeps the rest as backlog (simloop's N).
    /// `None` lifts the cap, up to the backstop [`MAX_UPDATES_PER_STEP`]. Default `Some(8)`.
    /// `Some(0)` is rejected at construction.
    #[must_use]
    pub fn max_updates(mut self, cap: Option<u32>) -> LoopConfig {
        self.max_updates = cap;
        self
    }

    /// The longest real time one step may account for; anything beyond is discarded and
    /// reported as [`Event::DiscardedTime`](crate::Event::DiscardedTime). `None` keeps every
    /// nanosecond. Default 250 ms (Bevy's). A zero duration is rejected at construction.
    #[must_use]
    pub fn max_frame_delta(mut self, max: Option<Duration>) -> LoopConfig {
        self.max_frame_delta = max;
        self
    }

    /// What to do when behind. Default [`Policy::CatchUp`].
    #[must_use]
    pub fn policy(mut self, policy: Policy) -> LoopConfig {
        self.policy = policy;
        self
    }

    /// Start the accumulator this fraction of a tick in (anti-aliasing, default 0).
    ///
    /// With ticks and frames at the same rate, frames land right on tick boundaries and jitter
    /// makes them alternate between 0 and 2 updates. A phase of ½ moves the boundaries half a
    /// frame away from the frames. Must be in `[0, 1)`; only for [`Policy::CatchUp`].
    #[must_use]
    pub fn phase(mut self, fraction: f64) -> LoopConfig {
        self.phase = fraction;
        self
    }

    /// Snap to the previous step's update count when the accumulator is within this fraction of
    /// a tick of a boundary (Godot's `physics_jitter_fix`; default 0 = off).
    ///
    /// A tick may then run up to `fraction`·dt early or late, so the lag can leave `[0, dt)`;
    /// the render alpha is clamped to `[0, 1]` and the exact lag stays available. Must be in
    /// `[0, 0.5]`; only for [`Policy::CatchUp`].
    #[must_use]
    pub fn hysteresis(mut self, fraction: f64) -> LoopConfig {
        self.hysteresis = fraction;
        self
    }

    /// Render at most at `rate`, on a fixed grid of slots that never slips. Default: no cap.
    #[must_use]
    pub fn render_rate(mut self, rate: Option<TickRate>) -> LoopConfig {
        self.render_rate = rate;
        self
    }

    /// The initial time scale. Default 1.
    #[must_use]
    pub fn time_scale(mut self, scale: TimeScale) -> LoopConfig {
        self.scale = scale;
        self
    }

    /// Start paused. Default `false`.
    #[must_use]
    pub fn paused(mut self, paused: bool) -> LoopConfig {
        self.paused = paused;
        self
    }

    /// The tick rate.
    #[must_use]
    pub fn rate(&self) -> TickRate {
        self.rate
    }

    /// Checks the settings and turns the fractional ones into exact nanoseconds.
    pub(crate) fn validate(&self) -> Result<Checked, ConfigError> {
        if self.max_updates == Some(0) {
            return Err(ConfigError::ZeroUpdateCap);
        }
        if self.max_frame_delta == Some(Duration::ZERO) {
            return Err(ConfigError::ZeroMaxFrameDelta);
        }
        if !(0.0..1.0).contains(&self.phase) {
            return Err(ConfigError::InvalidPhase);
        }
        if !(0.0..=0.5).contains(&self.hysteresis) {
            return Err(ConfigError::InvalidHysteresis);
        }
        if self.policy != Policy::CatchUp {
            if self.phase != 0.0 {
                return Err(ConfigError::CatchUpOnly("phase"));
            }
            if self.hysteresis != 0.0 {
                return Err(ConfigError::CatchUpOnly("hysteresis"));
            }
        }
        let (num, den) = self.rate.period_ratio();
        // Rounded once here; from now on everything is integer. phase < 1 so this is < dt.
        // Truncation is the floor for these non-negative values.
        let of_tick = |f: f64| ((num as f64 / den as f64) * f) as u64;
        Ok(Checked {
            cap: self
                .max_updates
                .unwrap_or(MAX_UPDATES_PER_STEP)
                .min(MAX_UPDATES_PER_STEP),
            max_delta: self.max_frame_delta.map(|d| Nanos::from(d).0),
            phase_ns: of_tick(self.phase),
            hysteresis_ns: of_tick(self.hysteresis),
        })
    }
}

/// The validated, integer form of the fractional settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Checked {
    pub(crate) cap: u32,
    pub(crate) max_delta: Option<u64>,
    pub(crate) phase_ns: u64,
    pub(crate) hysteresis_ns: u64,
}

/// An invalid loop setting, reported when the loop or a rate is constructed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfigError {
    /// A tick rate (or one of its parts) was zero.
    ZeroRate,
    /// A tick rate was NaN, infinite or negative.
    InvalidRate,
    /// A tick would be shorter than one nanosecond.
    RateTooHigh,
    /// A tick length does not fit in 64-bit nanoseconds.
    RateOutOfRange,
    /// The per-step update cap was 0.
    ZeroUpdateCap,
    /// The max frame delta was zero.
    ZeroMaxFrameDelta,
    /// A time scale was NaN, infinite, negative, above 4,000 or had a zero denominator.
    InvalidScale,
    /// The phase was outside `[0, 1)` or NaN.
    InvalidPhase,
    /// The hysteresis was outside `[0, 0.5]` or NaN.
    InvalidHysteresis,
    /// The named option only applies to [`Policy::CatchUp`].
    CatchUpOnly(&'static str),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::ZeroRate => f.write_str("tick rate must be greater than zero"),
            ConfigError::InvalidRate => f.write_str("tick rate must be a finite, positive number"),
            ConfigError::RateTooHigh => {
                f.write_str("tick rate is too high: a tick must last at least 1 ns")
            }
            ConfigError::RateOutOfRange => {
                f.write_str("tick length does not fit in 64-bit nanoseconds (584 years)")
            }
            ConfigError::ZeroUpdateCap => {
                f.write_str("max updates per step must be at least 1 (use None for no cap)")
            }
            ConfigError::ZeroMaxFrameDelta => {
                f.write_str("max frame delta must be greater than zero (use None for no clamp)")
            }
            ConfigError::InvalidScale => f.write_str(
                "time scale must be a finite number in [0, 4000] with a non-zero denominator",
            ),
            ConfigError::InvalidPhase => {
                f.write_str("phase must be a fraction of a tick in [0, 1)")
            }
            ConfigError::InvalidHysteresis => {
                f.write_str("hysteresis must be a fraction of a tick in [0, 0.5]")
            }
            ConfigError::CatchUpOnly(what) => {
                write!(f, "{what} only applies to the catch-up policy")
            }
        }
    }
}

impl core::error::Error for ConfigError {}
