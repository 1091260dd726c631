//! The render cap's grid, the one home of "which render slot": slot `k` starts at `k`·rate
//! of real time since the loop's start, on a fixed grid that never slips. The cap's state
//! (`Inner::render_next`, and its save) keeps the next slot a frame may render in; the step
//! moves it strictly past `now` when it renders, and a new rate starts at the slot in progress.

use crate::rate::{GridPoint, Period};

/// The render slot `ahead` slots after the one real time `real` (ns since the loop's start)
/// falls in: `ahead = 0` is the slot in progress, `ahead = 1` the first slot strictly after
/// `real`.
#[inline]
pub(crate) fn render_slot(rate: Period, real: u64, ahead: u64) -> GridPoint {
    slot(rate, rate.ticks_in(real).saturating_add(ahead))
}

/// Render slot number `k` (a saved state keeps the number).
#[inline]
pub(crate) fn slot(rate: Period, k: u64) -> GridPoint {
    GridPoint::at(rate, k)
}
