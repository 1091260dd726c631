//! What a clock control did, kept until the next step reports it (the controls are [`ClockMut`](crate::ClockMut)'s, in `state/clock_view.rs`).

use crate::values::event::{DropReason, Event};
use crate::values::id::ClockId;
use crate::values::rate::Period;

/// What a clock control did, reported at the next step.
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Report {
    Rate {
        clock: ClockId,
        period: Period,
        from_tick: u64,
    },
    Dropped {
        clock: ClockId,
        first: u64,
        count: u64,
    },
}

impl Report {
    /// The clock the report is about.
    pub(crate) fn clock(&self) -> ClockId {
        match *self {
            Report::Rate { clock, .. } | Report::Dropped { clock, .. } => clock,
        }
    }
}

impl Report {
    /// The event the next step reports for it: the one place a report becomes an event.
    pub(crate) fn event<U>(self) -> Event<U> {
        match self {
            Report::Rate {
                clock,
                period,
                from_tick,
            } => Event::RateChanged {
                clock,
                period,
                from_tick,
            },
            Report::Dropped {
                clock,
                first,
                count,
            } => Event::DroppedTicks {
                clock,
                first,
                count,
                reason: DropReason::Discarded,
            },
        }
    }
}
