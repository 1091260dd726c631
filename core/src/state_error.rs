//! Why a loaded [`LoopState`](crate::LoopState) is refused (feature `serde`).

use core::fmt;

use crate::error::ConfigError;
use crate::event::ClockId;
use crate::serde_state::FORMAT;

/// Why a loaded [`LoopState`] was refused: it breaks a rule every state built by the fold
/// keeps, so stepping it could go wrong. Deserializers report it as their own error, with
/// this message.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
#[non_exhaustive]
pub enum StateError {
    /// The data was written by a format version this crate does not read.
    UnsupportedVersion(u32),
    /// The state has no clock.
    NoClocks,
    /// A clock's settings are invalid (as [`LoopState::new`] would refuse them).
    InvalidClock(ClockId, ConfigError),
    /// Two clocks share an id, or an id is not below the next id to hand out.
    BadClockId(ClockId),
    /// Two clocks share a name.
    DuplicateClock(&'static str),
    /// The alpha clock is not one of the clocks.
    UnknownAlphaClock(ClockId),
    /// A zero max frame delta.
    ZeroMaxFrameDelta,
    /// A render slot without a render rate.
    RenderSlotWithoutRate,
    /// The sub-nanosecond remainder of virtual time is not a proper fraction in units of the
    /// time scale.
    BadRemainder,
    /// Unknown bits in the pending controls.
    BadControls(u8),
    /// A clock's grid segment (from a rate change, a reset or added lag) starts after its next
    /// tick or ends later than its grid allows.
    BadGrid(ClockId),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "loop state format version {v} is not supported (this crate reads {FORMAT})"
                )
            }
            StateError::NoClocks => f.write_str("loop state has no clock"),
            StateError::InvalidClock(id, e) => write!(f, "clock {}: {e}", id.0),
            StateError::BadClockId(id) => {
                write!(f, "clock id {} is repeated or out of range", id.0)
            }
            StateError::DuplicateClock(n) => write!(f, "two clocks are called {n:?}"),
            StateError::UnknownAlphaClock(id) => write!(f, "alpha clock {} does not exist", id.0),
            StateError::ZeroMaxFrameDelta => f.write_str("max frame delta is zero"),
            StateError::RenderSlotWithoutRate => f.write_str("render slot without a render rate"),
            StateError::BadRemainder => {
                f.write_str("virtual time remainder is not a proper fraction")
            }
            StateError::BadControls(b) => write!(f, "unknown pending control bits {b:#04x}"),
            StateError::BadGrid(id) => {
                write!(f, "clock {}: its grid segment is inconsistent", id.0)
            }
        }
    }
}

impl core::error::Error for StateError {}
