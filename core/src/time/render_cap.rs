//! The render cap's grid, the one home of "which render slot": slot `k` starts at `k`·rate
//! of real time since the loop's start, on a fixed grid that never slips. The cap's state
//! ([`RenderCap`], and its save) keeps the next slot a frame may render in; the step moves it
//! strictly past `now` when it renders, and a new rate starts at the slot in progress.

use crate::values::rate::{GridPoint, Period};

/// The render cap of a loop: its rate (`None`: no cap) and the next slot a frame may render
/// in (set exactly when the rate is). Its fields are private: the step asks
/// [`open_at`](RenderCap::open_at) and [`next_slot`](RenderCap::next_slot), the real-time
/// handle changes the rate.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RenderCap {
    rate: Option<Period>,
    /// Next render slot, if renders are capped.
    next: Option<GridPoint>,
}

impl RenderCap {
    /// A cap of `rate` at the loop's start (slot 0 is open).
    pub(crate) fn new(rate: Option<Period>) -> RenderCap {
        RenderCap {
            rate,
            next: rate.map(|r| render_slot(r, 0, 0)),
        }
    }

    /// A saved cap: its rate and the next slot's number, both or neither (`save/state.rs`
    /// refuses a save with one of them only).
    #[cfg(feature = "serde")]
    pub(crate) fn loaded(saved: Option<(Period, u64)>) -> RenderCap {
        RenderCap {
            rate: saved.map(|(r, _)| r),
            next: saved.map(|(r, m)| slot(r, m)),
        }
    }

    /// The rate and the next slot's number, as the save writes them.
    #[cfg(feature = "serde")]
    pub(crate) fn saved(&self) -> (Option<Period>, Option<u64>) {
        (self.rate, self.next.map(|p| p.m))
    }

    /// The cap (`None`: every step that moved real time renders).
    #[inline]
    pub(crate) fn rate(&self) -> Option<Period> {
        self.rate
    }

    /// Changes the cap at real time `now` (ns since the start): a new rate starts at the slot
    /// in progress.
    pub(crate) fn set_rate(&mut self, rate: Option<Period>, now: u64) {
        if rate != self.rate {
            self.rate = rate;
            self.next = rate.map(|r| render_slot(r, now, 0));
        }
    }

    /// Whether the cap allows a frame at `now_real`; moves the slot past `now_real` if so.
    #[inline]
    pub(crate) fn open_at(&mut self, now_real: u64) -> bool {
        let (Some(rate), Some(_)) = (self.rate, self.next) else {
            return true;
        };
        if self.next.is_some_and(|slot| now_real < slot.ceil()) {
            return false;
        }
        // Next slot: the first one strictly after now.
        self.next = Some(render_slot(rate, now_real, 1));
        true
    }

    /// When the next slot opens (real ns since the start), if renders are capped.
    #[inline]
    pub(crate) fn next_slot(&self) -> Option<u64> {
        self.next.map(|slot| slot.ceil())
    }
}

/// The render slot `ahead` slots after the one real time `real` (ns since the loop's start)
/// falls in: `ahead = 0` is the slot in progress, `ahead = 1` the first slot strictly after
/// `real`.
#[inline]
fn render_slot(rate: Period, real: u64, ahead: u64) -> GridPoint {
    slot(rate, rate.ticks_in(real).saturating_add(ahead))
}

/// Render slot number `k` (a saved state keeps the number).
#[inline]
fn slot(rate: Period, k: u64) -> GridPoint {
    GridPoint::at(rate, k)
}
