//! The typed errors, one per kind of operation, each with the cases those operations can have
//! and no case repeated across them:
//!
//! * building a rate or a scale: [`RateError`], beside the rate in `values/rate.rs`;
//! * checking a clock set and its settings: [`ConfigError`], from
//!   [`LoopState::new`](crate::LoopState::new), [`LoopState::add_clock`](crate::LoopState::add_clock)
//!   and the run-time settings ([`ClockMut::set_max_updates`](crate::ClockMut::set_max_updates),
//!   [`set_phase`](crate::ClockMut::set_phase), [`set_hysteresis`](crate::ClockMut::set_hysteresis));
//! * looking a clock up by name or id: [`NoSuchClock`], from
//!   [`LoopState::clock`](crate::LoopState::clock) and
//!   [`LoopState::clock_mut`](crate::LoopState::clock_mut);
//! * removing a clock: [`RemoveClockError`], from
//!   [`LoopState::remove_clock`](crate::LoopState::remove_clock);
//! * refusing a tick: [`RefuseError`], from [`LoopState::refuse`](crate::LoopState::refuse).
//!
//! The operations that look a clock up wrap [`NoSuchClock`] (a `From` impl each, so `?` on a
//! lookup converts).
//!
//! May call: `values`. Called by: `config`, `clocks`, `state`, `input`, `save`.

use alloc::borrow::Cow;
use core::fmt;

use crate::values::id::ClockId;
use crate::values::rate::RateError;

/// An invalid clock set or setting: from [`LoopState::new`](crate::LoopState::new), from
/// [`LoopState::add_clock`](crate::LoopState::add_clock) (which asks the same question of the
/// set with the new clock) and from the run-time settings of
/// [`ClockMut`](crate::ClockMut) (`set_max_updates`, `set_phase`, `set_hysteresis`).
///
/// A case about one clock names it (`clock`) and, for a number, says the value refused; the
/// messages (`Display`) say both.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ConfigError {
    /// A rate or scale was invalid (`?` on a rate constructor converts into this).
    Rate(RateError),
    /// The clock's per-step update cap was `Some(0)`.
    ZeroUpdateCap {
        /// The clock's name.
        clock: Cow<'static, str>,
    },
    /// The max frame delta was zero.
    ZeroMaxFrameDelta,
    /// The clock's phase was outside `[0, 1)` (−0.0 included) or NaN.
    InvalidPhase {
        /// The clock's name.
        clock: Cow<'static, str>,
        /// The phase refused.
        phase: f64,
    },
    /// The clock's hysteresis was outside `[0, 0.5]` (−0.0 included) or NaN.
    InvalidHysteresis {
        /// The clock's name.
        clock: Cow<'static, str>,
        /// The hysteresis refused.
        hysteresis: f64,
    },
    /// The setting (`"phase"` or `"hysteresis"`, not zero) only applies to
    /// [`Policy::CatchUp`](crate::Policy::CatchUp), and the clock has another policy.
    CatchUpOnly {
        /// The clock's name.
        clock: Cow<'static, str>,
        /// `"phase"` or `"hysteresis"`.
        setting: &'static str,
    },
    /// A clock's name was empty: a clock is looked up by its name, so it needs one.
    EmptyClockName,
    /// Two clocks of one loop would share this name: declared twice, or added under a name
    /// the loop already has.
    DuplicateClock(Cow<'static, str>),
    /// The alpha clock ([`LoopConfig::alpha_clock`](crate::LoopConfig::alpha_clock)) is not
    /// one of the loop's clocks: the lookup of its name failed
    /// ([`NoSuchClock::Name`], which the message names).
    AlphaClock(NoSuchClock),
    /// A loop has at most 65,535 clock ids over its life (declared or added; ids are never
    /// reused).
    TooManyClocks,
    /// A per-clock setting (`setting`: `"max_updates"`, `"policy"`, `"phase"`, `"hysteresis"`
    /// or `"firing"`) was made on the [`LoopConfig`](crate::LoopConfig) of a loop of `clocks`
    /// clocks (two or more), before or after the others were added. `LoopConfig`'s per-clock
    /// setters set the loop's first clock (`clock`: `LoopConfig::new`'s `"main"`, or
    /// `from_clock`'s) and no other, so with several clocks the call reads as a setting for
    /// the whole loop, which it is not. Set it on each [`ClockConfig`](crate::ClockConfig)
    /// instead (the first clock's on the `ClockConfig` given to
    /// [`LoopConfig::from_clock`](crate::LoopConfig::from_clock)).
    ClockSettingOnLoop {
        /// The setter called: `"max_updates"`, `"policy"`, `"phase"`, `"hysteresis"` or
        /// `"firing"`.
        setting: &'static str,
        /// The clock it set, the loop's first.
        clock: Cow<'static, str>,
        /// How many clocks the loop has.
        clocks: usize,
    },
}

impl From<RateError> for ConfigError {
    fn from(e: RateError) -> ConfigError {
        ConfigError::Rate(e)
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Rate(e) => fmt::Display::fmt(e, f),
            ConfigError::ZeroUpdateCap { clock } => write!(
                f,
                "clock {clock:?}: max updates per step must be at least 1, not 0 (use None for \
                 no cap)"
            ),
            ConfigError::ZeroMaxFrameDelta => {
                f.write_str("max frame delta must be greater than zero (use None for no clamp)")
            }
            ConfigError::InvalidPhase { clock, phase } => write!(
                f,
                "clock {clock:?}: phase must be a fraction of a tick in [0, 1), not {phase:?}"
            ),
            ConfigError::InvalidHysteresis { clock, hysteresis } => write!(
                f,
                "clock {clock:?}: hysteresis must be a fraction of a tick in [0, 0.5], not \
                 {hysteresis:?}"
            ),
            ConfigError::CatchUpOnly { clock, setting } => write!(
                f,
                "clock {clock:?}: {setting} only applies to the catch-up policy (Policy::CatchUp)"
            ),
            ConfigError::EmptyClockName => {
                f.write_str("a clock's name must not be empty: clocks are looked up by name")
            }
            ConfigError::DuplicateClock(name) => {
                write!(
                    f,
                    "the clock name {name:?} is taken: a loop's clock names are unique"
                )
            }
            ConfigError::AlphaClock(e) => {
                write!(f, "the alpha clock is not one of the loop's clocks: {e}")
            }
            ConfigError::TooManyClocks => f.write_str(
                "a loop can have at most 65,535 clocks over its life (clock ids are never reused)",
            ),
            ConfigError::ClockSettingOnLoop {
                setting,
                clock,
                clocks,
            } => write!(
                f,
                "LoopConfig::{setting} sets only the loop's first clock ({clock:?}), but the loop \
                 has {clocks} clocks: set {setting} on each ClockConfig instead (the first \
                 clock's on the ClockConfig given to LoopConfig::from_clock)"
            ),
        }
    }
}

impl core::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ConfigError::Rate(e) => Some(e),
            ConfigError::AlphaClock(e) => Some(e),
            _ => None,
        }
    }
}

/// No clock of the loop answers to this [`ClockRef`](crate::ClockRef): the error of every
/// lookup of a clock ([`LoopState::clock`](crate::LoopState::clock),
/// [`LoopState::clock_mut`](crate::LoopState::clock_mut)), and the first case of the
/// operations that look a clock up ([`RemoveClockError`], [`RefuseError`]). A lookup has
/// these two cases, by name and by id, and no other.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NoSuchClock {
    /// No clock of the loop has this name.
    Name(Cow<'static, str>),
    /// No clock of the loop has this id (it was removed, or never existed).
    Id(ClockId),
}

impl fmt::Display for NoSuchClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoSuchClock::Name(name) => write!(f, "no clock is named {name:?}"),
            NoSuchClock::Id(id) => write!(f, "no clock has id {}", id.0),
        }
    }
}

impl core::error::Error for NoSuchClock {}

/// Why [`LoopState::remove_clock`](crate::LoopState::remove_clock) refused; the state is
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RemoveClockError {
    /// No clock of the loop answers to the name or id given.
    NoSuchClock(NoSuchClock),
    /// The loop's only clock cannot be removed.
    LastClock,
}

impl From<NoSuchClock> for RemoveClockError {
    fn from(e: NoSuchClock) -> RemoveClockError {
        RemoveClockError::NoSuchClock(e)
    }
}

impl fmt::Display for RemoveClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoveClockError::NoSuchClock(e) => write!(f, "nothing to remove: {e}"),
            RemoveClockError::LastClock => {
                f.write_str("the loop's only clock cannot be removed: a loop needs a clock")
            }
        }
    }
}

impl core::error::Error for RemoveClockError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            RemoveClockError::NoSuchClock(e) => Some(e),
            RemoveClockError::LastClock => None,
        }
    }
}

/// Why [`LoopState::refuse`](crate::LoopState::refuse) refused; the state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RefuseError {
    /// No clock of the loop answers to the name or id given.
    NoSuchClock(NoSuchClock),
    /// The tick cannot be taken back. Only a clock's latest update of the latest step not yet
    /// refused can be refused, and only before a control moves that clock's grid. This tick is
    /// an earlier update of the step than one not refused (refuse from the last one back), an
    /// update of an earlier step, one already refused, or one that never ran; or since the
    /// step its clock's grid moved (`set_rate` to another period, `set_phase` to another
    /// phase, `accumulate_overstep`, a `discard_overstep` that dropped time, `reset_grid`).
    NotRefusable {
        /// The tick's clock.
        clock: ClockId,
        /// The tick's number.
        index: u64,
    },
}

impl From<NoSuchClock> for RefuseError {
    fn from(e: NoSuchClock) -> RefuseError {
        RefuseError::NoSuchClock(e)
    }
}

impl fmt::Display for RefuseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefuseError::NoSuchClock(e) => write!(f, "no tick to refuse: {e}"),
            RefuseError::NotRefusable { clock, index } => write!(
                f,
                "tick {index} of clock {} cannot be refused: only the clock's latest update of \
                 the latest step not yet refused can be, before a control moves its grid",
                clock.0
            ),
        }
    }
}

impl core::error::Error for RefuseError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            RefuseError::NoSuchClock(e) => Some(e),
            RefuseError::NotRefusable { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_name_the_problem_and_wrap_the_cause() {
        let e = RemoveClockError::from(NoSuchClock::Name("ai".into()));
        assert_eq!(e.to_string(), "nothing to remove: no clock is named \"ai\"");
        let source = core::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(source.as_deref(), Some("no clock is named \"ai\""));
        let e = ConfigError::from(RateError::Zero);
        let source = core::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(
            source.as_deref(),
            Some("tick rate must be greater than zero")
        );
    }
}
