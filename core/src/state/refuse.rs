//! Refusing a tick the shell could not run ([`LoopState::refuse`]): the tick stays due and
//! runs again at the next step. The other run-time controls of a clock (rate, cap, phase,
//! hysteresis, overstep, a reset of the grid) are [`ClockMut`](crate::ClockMut)'s, in
//! `state/clock_view.rs`; each takes effect at the next step, which reports what it changed.

use crate::error::RefuseError;
use crate::state::LoopState;
use crate::values::id::ClockRef;

/// Refusing a tick the shell could not run. The per-clock controls are on
/// [`ClockMut`](crate::ClockMut) ([`LoopState::clock_mut`]).
impl<T> LoopState<T> {
    /// Refuses tick number `index` of `clock` (a name or a [`ClockId`](crate::ClockId); a
    /// [`Tick`](crate::Tick) carries both as `tick.clock` and `tick.index`), which the shell
    /// could not run (a rollback session that was not ready, for example): the tick stays
    /// due and runs again, with the same number, at the next step (unless the cap's total
    /// order holds it back, see below).
    /// Tick numbers never drift from the shell's own count; the refusal is counted in
    /// [`ClockStats::ticks_refused`](crate::ClockStats::ticks_refused) and `ticks_run` does not
    /// count it, so the accounting identity holds.
    ///
    /// A tick can be refused only when all of these hold:
    ///
    /// * the latest step (the latest call of [`step`](LoopState::step),
    ///   [`advance`](LoopState::advance) or [`advance_into`](LoopState::advance_into)) ran it;
    /// * it is its clock's latest update of that step not yet refused: the step's last update
    ///   of that clock, or, once that one is refused, the one before it, and so on (refuse
    ///   several from the last one back). A tick refused and not run again since cannot be
    ///   refused twice;
    /// * no control has moved that clock's grid since the step:
    ///   [`set_rate`](crate::ClockMut::set_rate) to another period,
    ///   [`set_phase`](crate::ClockMut::set_phase) to another phase,
    ///   [`accumulate_overstep`](crate::ClockMut::accumulate_overstep) (even of zero time),
    ///   [`discard_overstep`](crate::ClockMut::discard_overstep) that dropped some time, or
    ///   [`reset_grid`](crate::ClockMut::reset_grid). Other controls (the cap, hysteresis, pause,
    ///   time scale, other clocks) do not matter.
    ///
    /// Step again soon: the deadline the step gave assumed the tick ran.
    ///
    /// A refused tick runs at the next step that runs its clock's ticks in the loop's order.
    /// Two things can hold it back or drop it, both reported:
    ///
    /// * the cap's total order: when another clock's cap defers a tick due before the refused
    ///   one, the refused tick waits behind it (as every tick due after it does) and its clock
    ///   reports [`Event::Deferred`](crate::Event::Deferred); it runs at a later step;
    /// * a step longer than the max frame delta drops the oldest ticks first, a refused one
    ///   among them, reported in its [`Event::DiscardedTime`](crate::Event::DiscardedTime) as
    ///   every such drop is. A control that drops ticks
    ///   ([`reset_grid`](crate::ClockMut::reset_grid),
    ///   [`discard_overstep`](crate::ClockMut::discard_overstep)) drops refused ones like any
    ///   other, reported.
    ///
    /// When the step gave up the clock's backlog after its last update (the overload bound of
    /// [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta), reported as
    /// [`Event::DiscardedTime`](crate::Event::DiscardedTime) after the updates), refusing
    /// that update undoes the give-up too: the clock owes those ticks again, its
    /// [`ClockStats::time_discarded`](crate::ClockStats::time_discarded) and `ticks_dropped`
    /// go back down, and the loop's
    /// [`VirtualTimeHandle::time_discarded`](crate::VirtualTimeHandle::time_discarded) takes
    /// back what the step counted for it (the step counts its largest `DiscardedTime`, so
    /// nothing when a drop before the updates or another clock's give-up is as large). The
    /// step that runs the tick again gives up what is then too old, reported again: a shell
    /// that sums `DiscardedTime` events counts the refused give-up twice unless it subtracts
    /// what `time_discarded` went down by.
    ///
    /// A refused constant-rate slot runs even when that step comes after the slot (or later
    /// ones) passed: it is not dropped. The slots that started meanwhile (the one in progress
    /// included) are dropped in that same step, on every path (single-stepping too), reported
    /// as [`DropReason::SlotMissed`](crate::DropReason::SlotMissed) after the slot's update
    /// (see [`Events`](crate::Events) for the order), so no slot is left pending after the
    /// step (under `Policy::Delay` the grid moves to the late slot instead and nothing is
    /// dropped). Such a slot can be refused again: the refusal undoes its run and that drop
    /// (the clock's `ticks_dropped` goes back down), and the step that runs it again drops the
    /// slots that passed by then, reported again. An [`InputQueue`](crate::InputQueue) gives a
    /// refused tick's inputs to it again when it runs again.
    ///
    /// # Errors
    ///
    /// [`RefuseError::NoSuchClock`] for no clock of this loop (the lookup's
    /// [`NoSuchClock`](crate::NoSuchClock)), [`RefuseError::NotRefusable`] for a tick that
    /// breaks the rules above; the state is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(40)); // ticks 0 and 1
    /// let last = events.updates().last().expect("two ticks ran");
    /// state.refuse(last.clock, last.index)?; // the session was not ready for tick 1
    /// let events = state.advance(Nanos::from_millis(41));
    /// assert_eq!(events.updates().map(|t| t.index).collect::<Vec<_>>(), [1]); // again
    /// assert_eq!(state.clock("main")?.stats().ticks_refused, 1);
    /// // By name, and only the latest update not yet refused: tick 0 is next.
    /// assert!(state.refuse("main", 0).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn refuse<'a>(
        &mut self,
        clock: impl Into<ClockRef<'a>>,
        index: u64,
    ) -> Result<(), RefuseError> {
        let clocks = &mut self.inner.clocks;
        let i = clocks.position(clock.into())?;
        if let Some(undone) = clocks.refuse(i, index) {
            // The overload bound's drop after the tick is undone with it; the loop's total
            // takes back what the step counted for it, which may be nothing (see
            // `Virtual::undo_shed`). The step that runs the tick again gives up what is then
            // too old.
            if undone > 0 {
                let id = clocks[i].id();
                self.inner.virt.undo_shed(id);
            }
            Ok(())
        } else {
            Err(RefuseError::NotRefusable {
                clock: clocks[i].id(),
                index,
            })
        }
    }
}
