//! The backlog bound under sustained overload: a catch-up clock never owes more than the max
//! frame delta's worth of ticks after a step (see
//! [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)). The cap defers the
//! ticks a step cannot run; without this bound that backlog would grow for ever when every
//! frame brings more ticks than the cap lets run.

use super::Clock;
use crate::config::Policy;

impl Clock {
    /// Gives up the oldest ticks of this clock's backlog that are due at or before `floor`
    /// (virtual time: the step's virtual time less the max frame delta), so that the ticks it
    /// still owes are the ones due in `(floor, v]`. Every clock of the loop sheds at the same
    /// `floor`, so the kept backlogs start at one point of the loop's total order. Returns
    /// `(first, ticks, time)`: the first tick given up, how many, and the virtual time they
    /// cover on the clock's grid (`ticks × dt`, the grid's whole ns). `None` when nothing is
    /// due by `floor` (constant-rate clocks and `Delay` never owe a backlog).
    #[cold]
    #[inline(never)]
    pub(crate) fn shed_backlog(&mut self, floor: u64) -> Option<(u64, u64, u64)> {
        if self.config.policy != Policy::CatchUp || self.ended() || self.due() > floor {
            return None;
        }
        let first = self.next_tick;
        let upto = self.ticks_at(floor);
        if upto <= first {
            return None;
        }
        let ticks = upto - first;
        // The span of the grid given up: from the start of the oldest owed tick's interval
        // to the start of the first kept one (`ticks × dt`, on the grid's whole ns), so that
        // drops never count the same time twice.
        let from = self.boundary();
        self.jump_to(upto);
        let time = u64::try_from(self.boundary().saturating_sub(from)).unwrap_or(u64::MAX);
        self.clamp_dropped = self.clamp_dropped.saturating_add(ticks);
        self.clamp_time = self.clamp_time.saturating_add(time);
        // The oldest ticks go first: refused ones among them (see `LoopState::refuse`).
        self.spare = self
            .spare
            .saturating_sub(u32::try_from(ticks).unwrap_or(u32::MAX));
        Some((first, ticks, time))
    }

    /// Undoes the overload bound's drop of the latest step (the ticks after the latest one
    /// run, given up by [`Clock::shed_backlog`]), for a refusal of that tick (see
    /// `Clock::refuse`): the clock owes them again and its counts go back down, so the
    /// accounting identity holds; the step that runs the refused tick again gives up what is
    /// by then too old, reported again. Returns the time undone (the grid span, as counted).
    #[cold]
    #[inline(never)]
    pub(crate) fn undo_shed(&mut self) -> u64 {
        let ticks = self.next_tick.saturating_sub(self.latest);
        let to = self.boundary();
        self.jump_to(self.latest);
        let time = u64::try_from(to.saturating_sub(self.boundary())).unwrap_or(u64::MAX);
        self.clamp_dropped = self.clamp_dropped.saturating_sub(ticks);
        self.clamp_time = self.clamp_time.saturating_sub(time);
        time
    }
}
