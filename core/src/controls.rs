//! Run-time controls of a running loop: a clock's rate, cap, phase and hysteresis, overstep
//! control (Bevy's `accumulate_overstep` and
//! `discard_overstep`), a reset of the grid (tokio's `Interval::reset`) and the refusal of a
//! tick the shell could not run. Each takes effect at the next step; what it changed is
//! reported there.

use crate::error::ClockError;
use crate::id::ClockRef;
use crate::state::LoopState;

/// Refusing a tick the shell could not run. The per-clock controls are on
/// [`ClockMut`](crate::ClockMut) ([`LoopState::clock_mut`]).
impl<T> LoopState<T> {
    /// Refuses tick number `index` of `clock` (a name or a [`ClockId`](crate::ClockId); a
    /// [`Tick`](crate::Tick) carries both as `tick.clock` and `tick.index`), which the shell
    /// could not run (a rollback session that was not ready, for example): the tick stays due and runs again at the next step, with the same number.
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
    /// A refused constant-rate slot runs at the next step even when that step comes after
    /// the slot (or later ones) passed: it is not dropped. The slots that started meanwhile
    /// are dropped in that same step, reported as
    /// [`DropReason::SlotMissed`](crate::DropReason::SlotMissed) (under `Policy::Delay` the
    /// grid moves to the late slot instead and nothing is dropped), so no slot is left
    /// pending after the step. The one exception to the refused slot running is
    /// a step longer than the max frame delta, which drops the oldest ticks first, a refused
    /// one among them, reported in its [`Event::DiscardedTime`](crate::Event::DiscardedTime) as every such drop is. A
    /// control that drops ticks ([`reset_grid`](crate::ClockMut::reset_grid),
    /// [`discard_overstep`](crate::ClockMut::discard_overstep)) drops refused ones like any other,
    /// reported. An [`InputQueue`](crate::InputQueue) gives a refused tick's inputs to it
    /// again when it runs again.
    ///
    /// # Errors
    ///
    /// [`ClockError::UnknownClock`] or [`ClockError::UnknownId`] for no clock of this loop,
    /// [`ClockError::NotRefusable`] for a tick that breaks the rules above; the state
    /// is unchanged.
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
    ) -> Result<(), ClockError> {
        let clocks = &mut self.inner.clocks;
        let i = clocks.position(clock.into())?;
        if clocks.refuse(i, index) {
            Ok(())
        } else {
            Err(ClockError::NotRefusable {
                clock: clocks[i].id(),
                index,
            })
        }
    }
}
