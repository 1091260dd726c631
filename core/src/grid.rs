//! The one home of "tick `k` of a clock: when is it due, and where does it start". A clock's
//! grid segment ([`Grid`]) answers it for the fold, the input queue, single-stepping, the
//! ticks' `t` and `lag` and the save loader's checks alike: nothing else computes a due time
//! from a tick number.

use crate::clock::due_time;
use crate::rate::{GridPoint, Period};

/// One clock's grid segment: the tick length, where the segment's grid point 0 lies on the
/// virtual time axis, and which tick it is. Tick `k` of the segment starts at grid point
/// `m = k − base`, that is at virtual time `origin + ceil(m·dt) − shift`.
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Grid {
    pub(crate) rate: Period,
    /// Virtual time of grid point 0, before the shift (see `Clock::origin`).
    pub(crate) origin: u64,
    /// How far the grid is ahead of `origin` (see `Clock::shift`).
    pub(crate) shift: u64,
    /// The tick number at grid point 0.
    pub(crate) base: u64,
    /// Constant-rate policies: a tick is due at the start of its slot, not at its end.
    pub(crate) constant_rate: bool,
}

impl Grid {
    /// The grid point `(k − base)·dt` where tick `k` starts (tick numbers below `base` belong
    /// to an earlier segment and are taken as its grid point 0).
    #[inline]
    pub(crate) fn point(&self, k: u64) -> GridPoint {
        GridPoint::at(self.rate, k.saturating_sub(self.base))
    }

    /// The virtual time (ns since the loop's start) at which tick `k` comes due: the end of
    /// its interval for catch-up, the start of its slot for the constant-rate policies.
    /// `u64::MAX` past the end of time.
    #[inline]
    pub(crate) fn due(&self, k: u64) -> u64 {
        let start = self.point(k);
        let end = GridPoint::at(self.rate, start.m.saturating_add(1));
        due_time(
            self.rate,
            self.origin,
            self.shift,
            self.constant_rate,
            start,
            end,
        )
    }
}
