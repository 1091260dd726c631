//! The typed errors of the loop's operations: checking a loop's settings ([`ConfigError`]) and
//! adding or removing a clock at run time ([`ClockError`]). Building a rate or a scale has its
//! own, [`RateError`](crate::RateError), beside the rate in `values/rate.rs`. May call only
//! `values`.

use alloc::borrow::Cow;
use core::fmt;

use crate::values::id::ClockId;
use crate::values::rate::RateError;

/// An invalid loop setting, from [`LoopState::new`](crate::LoopState::new) (or a clock's
/// settings, wrapped in [`ClockError::Config`] by
/// [`LoopState::add_clock`](crate::LoopState::add_clock)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfigError {
    /// A rate or scale was invalid (`?` on a rate constructor converts into this).
    Rate(RateError),
    /// The per-step update cap was 0.
    ZeroUpdateCap,
    /// The max frame delta was zero.
    ZeroMaxFrameDelta,
    /// The phase was outside `[0, 1)` or NaN.
    InvalidPhase,
    /// The hysteresis was outside `[0, 0.5]` or NaN.
    InvalidHysteresis,
    /// The named option only applies to [`Policy::CatchUp`](crate::Policy::CatchUp).
    CatchUpOnly(&'static str),
    /// Two clocks of one loop share this name.
    DuplicateClock(Cow<'static, str>),
    /// The alpha clock named here is not one of the loop's clocks.
    UnknownClock(Cow<'static, str>),
    /// A loop cannot hold more than 65,535 clocks.
    TooManyClocks,
    /// A per-clock setting (`setting`: `"max_updates"`, `"policy"`, `"phase"`, `"hysteresis"`
    /// or `"firing"`) was made on the [`LoopConfig`](crate::LoopConfig) when it already held
    /// `clocks` clocks (two or more). `LoopConfig`'s per-clock setters set the clock the config
    /// was made with (`LoopConfig::new`'s `"main"`, or `from_clock`'s), and no other: once
    /// another clock is declared, the call reads as a setting for the whole loop, which it is
    /// not. Set it on each [`ClockConfig`](crate::ClockConfig) instead, or on the `LoopConfig`
    /// before its first [`clock`](crate::LoopConfig::clock) call.
    ClockSettingOnLoop {
        /// The setter called: `"max_updates"`, `"policy"`, `"phase"`, `"hysteresis"` or
        /// `"firing"`.
        setting: &'static str,
        /// How many clocks the config held when it was called.
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
            ConfigError::ZeroUpdateCap => {
                f.write_str("max updates per step must be at least 1 (use None for no cap)")
            }
            ConfigError::ZeroMaxFrameDelta => {
                f.write_str("max frame delta must be greater than zero (use None for no clamp)")
            }
            ConfigError::InvalidPhase => {
                f.write_str("phase must be a fraction of a tick in [0, 1)")
            }
            ConfigError::InvalidHysteresis => {
                f.write_str("hysteresis must be a fraction of a tick in [0, 0.5]")
            }
            ConfigError::CatchUpOnly(what) => {
                write!(f, "{what} only applies to the catch-up policy")
            }
            ConfigError::DuplicateClock(name) => write!(f, "two clocks are named {name:?}"),
            ConfigError::UnknownClock(name) => {
                write!(
                    f,
                    "the alpha clock {name:?} is not one of the loop's clocks"
                )
            }
            ConfigError::TooManyClocks => f.write_str("a loop can hold at most 65,535 clocks"),
            ConfigError::ClockSettingOnLoop { setting, clocks } => write!(
                f,
                "LoopConfig::{setting} was called on a loop of {clocks} clocks: it sets only the \
                 first clock, which is ambiguous here; set {setting} on each ClockConfig (or on \
                 the LoopConfig before adding clocks)"
            ),
        }
    }
}

impl core::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ConfigError::Rate(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a control on one clock refused: [`LoopState::add_clock`](crate::LoopState::add_clock),
/// [`LoopState::remove_clock`](crate::LoopState::remove_clock), the run-time settings
/// ([`ClockMut::set_rate`](crate::ClockMut::set_rate) and friends) or
/// [`LoopState::refuse`](crate::LoopState::refuse). The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClockError {
    /// The loop already has a clock with this name.
    DuplicateClock(Cow<'static, str>),
    /// No clock of the loop has this name.
    UnknownClock(Cow<'static, str>),
    /// The loop's only clock cannot be removed.
    LastClock,
    /// A loop has had 65,535 clocks added: clock ids are never reused.
    TooManyClocks,
    /// The new clock's settings are invalid.
    Config(ConfigError),
    /// No clock of the loop has this id (it was removed, or never existed).
    UnknownId(ClockId),
    /// [`LoopState::refuse`](crate::LoopState::refuse) was given a tick it cannot take back.
    /// Only a clock's latest update of the latest step not yet refused can be refused, and
    /// only before a control moves that clock's grid. This tick is an earlier update of the
    /// step than one not refused (refuse from the last one back), an update of an earlier
    /// step, one already refused, or one that never ran; or since the step its clock's grid moved
    /// (`set_rate` to another period, `set_phase` to another phase, `accumulate_overstep`,
    /// a `discard_overstep` that dropped time, `reset_grid`).
    NotRefusable {
        /// The tick's clock.
        clock: ClockId,
        /// The tick's number.
        index: u64,
    },
}

impl From<ConfigError> for ClockError {
    fn from(e: ConfigError) -> ClockError {
        ClockError::Config(e)
    }
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::DuplicateClock(name) => {
                write!(f, "the loop already has a clock named {name:?}")
            }
            ClockError::UnknownClock(name) => write!(f, "no clock is named {name:?}"),
            ClockError::LastClock => f.write_str("a loop needs at least one clock"),
            ClockError::TooManyClocks => {
                f.write_str("a loop can add at most 65,535 clocks (ids are never reused)")
            }
            ClockError::Config(e) => write!(f, "invalid clock settings: {e}"),
            ClockError::UnknownId(id) => write!(f, "no clock has id {}", id.0),
            ClockError::NotRefusable { clock, index } => write!(
                f,
                "tick {index} of clock {} cannot be refused: only the clock's latest update of \
                 the latest step not yet refused can be, before a control moves its grid",
                clock.0
            ),
        }
    }
}

impl core::error::Error for ClockError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ClockError::Config(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_name_the_problem_and_wrap_the_cause() {
        let e = ClockError::from(ConfigError::from(RateError::Zero));
        assert_eq!(
            e.to_string(),
            "invalid clock settings: tick rate must be greater than zero"
        );
        let source = core::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(
            source.as_deref(),
            Some("tick rate must be greater than zero")
        );
        assert!(
            ConfigError::UnknownClock("ai".into())
                .to_string()
                .contains("\"ai\"")
        );
    }
}
