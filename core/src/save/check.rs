//! Why a loaded [`LoopState`](crate::LoopState) is refused (feature `serde`), and the rules it
//! is checked against: the ones every state the fold builds keeps. Each check asks the clock
//! for what the fold itself computes (its grid segment's end, its accounting), so a rule has
//! one home.

use core::fmt;

use crate::clock::Clock;
use crate::error::ConfigError;
use crate::events::report::Report;
use crate::state::PENDING_CLOCKS;
use crate::time::virtual_time::{PENDING_PAUSED, PENDING_RESUMED, PENDING_SCALE};
use crate::values::id::ClockId;
use crate::values::rate::TimeScale;

/// The version of the `LoopState` format written by this crate.
pub(crate) const FORMAT: u32 = 1;

/// (Feature `serde`.) Why a loaded [`LoopState`](crate::LoopState) was refused: it breaks a rule every state built
/// by the fold keeps (corrupted or edited data), so stepping it could go wrong.
///
/// Deserializing a `LoopState` reports it as the deserializer's own error, with this message;
/// `LoopState::try_from` a [`SavedState`](crate::SavedState) returns it as a value (see there
/// for an example).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
#[non_exhaustive]
pub enum StateError {
    /// The data was written by a format version this crate does not read.
    UnsupportedVersion(u32),
    /// The state has no clock.
    NoClocks,
    /// A clock's settings are invalid (as [`LoopState::new`](crate::LoopState::new) would
    /// refuse them).
    InvalidClock(ClockId, ConfigError),
    /// Two clocks share an id, or an id is not below the next id to hand out.
    BadClockId(ClockId),
    /// Loop settings [`LoopState::new`](crate::LoopState::new) refuses, with its error (the one
    /// home of each case): two clocks that share a name ([`ConfigError::DuplicateClock`]), a
    /// zero max frame delta ([`ConfigError::ZeroMaxFrameDelta`]).
    Config(ConfigError),
    /// The alpha clock is not one of the clocks.
    UnknownAlphaClock(ClockId),
    /// A render slot without a render rate.
    RenderSlotWithoutRate,
    /// A render rate without a render slot (the fold keeps one whenever renders are capped).
    MissingRenderSlot,
    /// The sub-nanosecond remainder of virtual time is not a proper fraction in units of the
    /// time scale.
    BadRemainder,
    /// The latest step's discarded time, which a refusal of its updates may take back, is
    /// more than the loop's total discarded time.
    BadDiscarded,
    /// The pending controls hold unknown bits, or bits the rest of the state contradicts: a
    /// pause and a resume at once, a pause reported for a running loop (or a resume for a
    /// paused one), a scale change flagged exactly when the scale is the one last reported, or
    /// control reports without their flag.
    BadControls(u8),
    /// A clock's grid segment (from a rate change, a reset or added lag) starts after its next
    /// tick, ends later than its grid allows (or earlier, though the clock has not reached that
    /// end), or carries simulation time while it is the clock's first segment.
    BadGrid(ClockId),
    /// A clock's counters break its accounting: every tick below its next tick number ran or
    /// was dropped, so `ticks_run + ticks_dropped` must equal
    /// [`ClockStats::next_tick`](crate::ClockStats::next_tick) (which is what makes
    /// `ticks_run + ticks_dropped + pending == ticks_due + ticks_early` hold).
    Accounting(ClockId),
    /// A clock's latest step ran more updates (that a shell may still refuse) than the clock
    /// has run, or than its grid segment holds.
    BadStepCount(ClockId),
    /// A pending control report names a clock the loop does not have.
    UnknownReportClock(ClockId),
    /// A pending control report contradicts its clock: discarded ticks it has not reached or
    /// did not count as dropped, or a rate change after its grid segment's start or to a rate
    /// it does not have.
    BadReport(ClockId),
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
            StateError::Config(e) => write!(f, "invalid loop settings: {e}"),
            StateError::UnknownAlphaClock(id) => write!(f, "alpha clock {} does not exist", id.0),
            StateError::RenderSlotWithoutRate => f.write_str("render slot without a render rate"),
            StateError::MissingRenderSlot => f.write_str("render rate without a render slot"),
            StateError::BadRemainder => {
                f.write_str("virtual time remainder is not a proper fraction")
            }
            StateError::BadDiscarded => f.write_str(
                "the latest step's discarded time is more than the loop's total discarded time",
            ),
            StateError::BadControls(b) if b & !KNOWN_CONTROLS != 0 => {
                write!(f, "unknown pending control bits {b:#04x}")
            }
            StateError::BadControls(b) => {
                write!(f, "pending control bits {b:#04x} contradict the loop state")
            }
            StateError::BadGrid(id) => {
                write!(f, "clock {}: its grid segment is inconsistent", id.0)
            }
            StateError::Accounting(id) => write!(
                f,
                "clock {}: its ticks run and dropped do not add up to its next tick number",
                id.0
            ),
            StateError::BadStepCount(id) => write!(
                f,
                "clock {}: its latest step ran more updates than the clock has run",
                id.0
            ),
            StateError::UnknownReportClock(id) => write!(
                f,
                "a pending control report names clock {}, which the loop does not have",
                id.0
            ),
            StateError::BadReport(id) => write!(
                f,
                "clock {}: a pending control report contradicts the clock's ticks or rate",
                id.0
            ),
        }
    }
}

impl core::error::Error for StateError {}

/// Every pending-control bit the fold sets.
const KNOWN_CONTROLS: u8 = PENDING_PAUSED | PENDING_RESUMED | PENDING_SCALE | PENDING_CLOCKS;

/// Checks the pending-control bits against the rest of the state, as the controls set them.
pub(crate) fn check_controls(
    pending: u8,
    paused: bool,
    scale: TimeScale,
    reported_scale: TimeScale,
    reports: &[Report],
) -> Result<(), StateError> {
    let has = |bit: u8| pending & bit != 0;
    if pending & !KNOWN_CONTROLS != 0
        || (has(PENDING_PAUSED) && !paused)
        || (has(PENDING_RESUMED) && paused)
        || has(PENDING_SCALE) != (scale != reported_scale)
        || (!reports.is_empty() && !has(PENDING_CLOCKS))
    {
        return Err(StateError::BadControls(pending));
    }
    Ok(())
}

/// Checks the pending control reports against the clocks they name, as the controls of
/// `ClockMut` (`state/clock_view.rs`) make them: discarded ticks below the clock's next tick and counted in its
/// dropped ticks, a rate change from a tick at or before its segment's start, and the latest
/// change to the rate it has.
pub(crate) fn check_reports(clocks: &[Clock], reports: &[Report]) -> Result<(), StateError> {
    for report in reports {
        let id = report.clock();
        let clock = clocks
            .iter()
            .find(|c| c.id() == id)
            .ok_or(StateError::UnknownReportClock(id))?;
        let fits = match *report {
            Report::Dropped { first, count, .. } => {
                count > 0
                    && first
                        .checked_add(count)
                        .is_some_and(|e| e <= clock.next_tick())
            }
            Report::Rate { from_tick, .. } => from_tick <= clock.segment_base(),
        };
        if !fits {
            return Err(StateError::BadReport(id));
        }
    }
    for clock in clocks {
        let mine = || reports.iter().filter(|r| r.clock() == clock.id());
        let dropped: u128 = mine()
            .map(|r| match *r {
                Report::Dropped { count, .. } => u128::from(count),
                Report::Rate { .. } => 0,
            })
            .sum();
        let latest_rate = mine().rev().find_map(|r| match *r {
            Report::Rate { period, .. } => Some(period),
            Report::Dropped { .. } => None,
        });
        if dropped > u128::from(clock.dropped_slots())
            || latest_rate.is_some_and(|p| p != clock.rate())
        {
            return Err(StateError::BadReport(clock.id()));
        }
    }
    Ok(())
}
