//! The readings as of one update of a step: while a shell hands a handler an update with
//! [`LoopState::as_of`] (or [`LoopState::hand_on`]), the time and clock readings of the
//! `&LoopState` it gets are those of that tick's place in the loop's total order, not the
//! end of the step. The position is a cursor in the state that only those two methods set,
//! and they clear it before they return (a guard clears it even when a handler unwinds): the
//! step never reads it, a save never holds it, and `==` ignores it.

use core::fmt;

use crate::clock::Clock;
use crate::events::Events;
use crate::state::cursor::{At, Cursor};
use crate::state::{Inner, LoopState};
use crate::values::event::{Event, TickSpan};
use crate::values::time::Timestamp;

/// Why [`LoopState::as_of`] could not place the readings at an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsOfError {
    /// The update is not one of these events.
    NotInEvents,
    /// The events are not those of the state's latest step, or a control or a refusal since
    /// that step changed what its updates were (the clock's latest updates no longer match
    /// the events' runs): hand the events on before controlling the state.
    NotLatestStep,
}

impl fmt::Display for AsOfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AsOfError::NotInEvents => "the update is not one of these events",
            AsOfError::NotLatestStep => {
                "the events are not the state's latest step as it ran (a step, control or refusal came since)"
            }
        })
    }
}

impl core::error::Error for AsOfError {}

/// Clears the cursor when dropped: the state is never left positioned mid-step, even when the
/// handler unwinds.
struct Positioned<'a, T>(&'a mut LoopState<T>);

impl<T> Drop for Positioned<'_, T> {
    fn drop(&mut self) {
        self.0.inner.for_step().cursor = Cursor(None);
    }
}

impl<T: Timestamp> LoopState<T> {
    /// Calls `f` with this state as of `event`, one of `events`, the latest step's: for an
    /// [`Event::Update`], every time and clock reading `f` makes through `&LoopState` is the
    /// value as of that tick in the loop's total order, the same however frames slice time
    /// (wherever the ticks themselves are: with late firing, the default, and no ticks
    /// dropped by the max frame delta; caps only defer);
    /// for any other event, the readings are the end of the step (as they are outside this
    /// call). The state is back at the end of the step when this returns.
    ///
    /// As of an update of clock `x`, tick `k`, due at virtual time `d` on `x`'s grid:
    ///
    /// * [`virtual_time().elapsed()`](crate::VirtualTimeHandle::elapsed) is `d` (the end of
    ///   a catch-up tick's interval, the start of a constant-rate slot; a tick the *nearest*
    ///   rule or hysteresis fired early is ahead of the step's end), and
    ///   [`delta()`](crate::VirtualTimeHandle::delta) is the tick's length in whole ns
    ///   (`end − t`): the `Time` Bevy gives a `FixedUpdate` system;
    /// * a clock's [`latest_tick()`](crate::ClockHandle::latest_tick) is its last tick that
    ///   comes before this one in the order (by due time, ties to the clock declared first):
    ///   tick `k` itself for `x`, for another clock its last update of the step before this
    ///   one, or its latest tick before the step;
    /// * a clock's [`stats()`](crate::ClockHandle::stats) counts as of that place: `ticks_run` and
    ///   `next_tick` leave out the clock's updates after this one, and `ticks_due`, `pending`
    ///   and `ticks_early` are worked out at `d`, so the identity
    ///   `ticks_run + ticks_dropped + pending == ticks_due + ticks_early` holds as of the
    ///   tick too. Drops, discarded time and refusals are the step's (the events report them
    ///   before the updates); `alpha` and `lag` are for the render, so the end of the step's.
    ///
    /// The end-of-step values stay available under names that say so:
    /// [`elapsed_at_step_end`](crate::VirtualTimeHandle::elapsed_at_step_end),
    /// [`delta_at_step_end`](crate::VirtualTimeHandle::delta_at_step_end),
    /// [`latest_tick_at_step_end`](crate::ClockHandle::latest_tick_at_step_end),
    /// [`stats_at_step_end`](crate::ClockHandle::stats_at_step_end). Real time is the
    /// shell's clock reading, the frame's, either way.
    ///
    /// [`hand_on`](Self::hand_on) calls this for every event in order, and the runner and
    /// winit shells of the `tickfold` crate hand on their events through it.
    ///
    /// # Errors
    ///
    /// For an update only, without calling `f`: [`AsOfError::NotInEvents`] if it is not one
    /// of `events`, [`AsOfError::NotLatestStep`] if `events` are not the latest step's as it
    /// ran (another step came since, or a control or refusal changed its updates).
    ///
    /// # Examples
    ///
    /// Physics at 30 Hz and AI at 10 Hz, one 250 ms frame: AI's tick 0 comes due at 100 ms,
    /// after physics' ticks 0 to 2 (due at 33, 67 and 100 ms: a tie goes to physics, declared
    /// first), before its tick 3.
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
    ///     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let ai = state.clock("ai").expect("declared above").id();
    /// let events = state.advance(Nanos::from_millis(250));
    /// let tick = events.updates().find(|t| t.clock == ai && t.index == 0).expect("AI's tick 0");
    /// let seen = state.as_of(&events, &Event::Update(tick), |state| {
    ///     let physics = state.clock("physics").expect("declared").latest_tick().expect("ran");
    ///     (physics.index, state.virtual_time().elapsed())
    /// })?;
    /// assert_eq!(seen, (2, Nanos::from_millis(100)));
    /// // At the end of the step (and outside `as_of`): physics' tick 6, the frame's 250 ms.
    /// assert_eq!(state.clock("physics")?.latest_tick().map(|t| t.index), Some(6));
    /// assert_eq!(state.virtual_time().elapsed(), Nanos::from_millis(250));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_of<R>(
        &mut self,
        events: &Events<T>,
        event: &Event<T>,
        f: impl FnOnce(&LoopState<T>) -> R,
    ) -> Result<R, AsOfError> {
        let Event::Update(tick) = event else {
            // The handler's span (feature `tracing`, `state/traced.rs`): `render`, or none.
            #[cfg(feature = "tracing")]
            let _span = crate::state::traced::handler_span(&self.inner.clocks, event);
            return Ok(f(self));
        };
        let run = events
            .runs
            .as_slice()
            .iter()
            .find(|run| run.clock == tick.clock)
            .ok_or(AsOfError::NotInEvents)?;
        let (Some(due), Some(end)) = (run.due_of_index(tick.index), run.end(tick.index)) else {
            return Err(AsOfError::NotInEvents);
        };
        let clock = self.latest_step_of(events, tick.clock)?;
        let at = At {
            clock,
            index: tick.index,
            due,
            length: end.0.saturating_sub(tick.t.0),
        };
        // The step's own reach (`for_step`): positioning changes no fact the fast path
        // depends on.
        #[cfg(feature = "tracing")]
        let _span = crate::state::traced::handler_span(&self.inner.clocks, event);
        self.inner.for_step().cursor = Cursor(Some(at));
        let positioned = Positioned(self);
        Ok(f(positioned.0))
    }

    /// Hands every event of `events` (the latest step's) to `f` in order, each with this state
    /// as of it (see [`as_of`](Self::as_of)): the pure fold's counterpart of the runner.
    ///
    /// # Errors
    ///
    /// [`AsOfError::NotLatestStep`] if `events` are not the latest step's as it ran, before
    /// any event is handed on.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
    ///     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let ai = state.clock("ai").expect("declared above").id();
    /// let mut seen = Vec::new(); // what each AI tick sees of physics and of the time
    /// for now in [250, 300] {
    ///     let events = state.advance(Nanos::from_millis(now));
    ///     state.hand_on(&events, |event, state| {
    ///         if let Event::Update(tick) = event {
    ///             if tick.clock == ai {
    ///                 let physics = state.clock("physics").expect("declared");
    ///                 let time = state.virtual_time().elapsed().0 / 1_000_000;
    ///                 seen.push((tick.index, physics.latest_tick().map(|t| t.index), time));
    ///             }
    ///         }
    ///     })?;
    /// }
    /// // The same whatever the frames: AI's tick k sees physics' tick 3k + 2 and (k + 1)·100 ms.
    /// assert_eq!(seen, [(0, Some(2), 100), (1, Some(5), 200), (2, Some(8), 300)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hand_on(
        &mut self,
        events: &Events<T>,
        mut f: impl FnMut(Event<T>, &LoopState<T>),
    ) -> Result<(), AsOfError> {
        for run in events.runs.as_slice() {
            self.latest_step_of(events, run.clock)?;
        }
        for event in events {
            let handled = self.as_of(events, &event, |state| f(event, state));
            debug_assert!(handled.is_ok(), "every update was checked above");
        }
        Ok(())
    }

    /// The update the readings are as of (inside [`as_of`](Self::as_of)), with where it
    /// starts and ends in simulation time; `None` at the end of the step (everywhere else).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(45));
    /// let mut seen = Vec::new();
    /// state.hand_on(&events, |_, state| seen.push(state.as_of_tick().map(|t| t.index)))?;
    /// assert_eq!(seen, [Some(0), Some(1), None]); // two updates, then the render
    /// assert_eq!(state.as_of_tick(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn as_of_tick(&self) -> Option<TickSpan> {
        let at = self.inner.cursor.0?;
        self.inner.clocks.as_slice()[at.clock].latest_tick_back(self.inner.back(
            &self.inner.clocks.as_slice()[at.clock],
            at.clock,
            &at,
        ))
    }

    /// The place in declaration order of clock `id`, after checking that every clock's latest
    /// updates are those `events` describe (the clock's run, or none).
    fn latest_step_of(&self, events: &Events<T>, id: crate::ClockId) -> Result<usize, AsOfError> {
        let runs = events.runs.as_slice();
        let mut place = None;
        for (i, c) in self.inner.clocks.as_slice().iter().enumerate() {
            let run = runs.iter().find(|run| run.clock == c.id());
            let (count, end) = run.map_or((0, c.latest_end()), |run| {
                let first = run.base.saturating_add(run.start.m);
                (run.count, first.saturating_add(u64::from(run.count)))
            });
            if c.last_count() != count || c.latest_end() != end {
                return Err(AsOfError::NotLatestStep);
            }
            if c.id() == id {
                place = Some(i);
            }
        }
        if runs
            .iter()
            .any(|run| self.inner.clocks.position(run.clock.into()).is_err())
        {
            return Err(AsOfError::NotLatestStep);
        }
        place.ok_or(AsOfError::NotInEvents)
    }
}

impl<T> Inner<T> {
    /// How many of clock `c`'s (at place `place`) latest-step updates come after the cursor's
    /// update in the total order: 0 at the end of the step.
    pub(crate) fn back(&self, c: &Clock, place: usize, at: &At) -> u64 {
        let count = u64::from(c.last_count());
        let Some(last) = c.latest_end().checked_sub(1) else {
            return 0;
        };
        if place == at.clock {
            return last.saturating_sub(at.index).min(count);
        }
        // The clock's own due times, on the grid its latest step ran on: walked back from its
        // last update while they come after the cursor's (later, or tied and declared after).
        let mut back = 0;
        while back < count {
            let due = c.due_in_latest_step(last - back);
            if due < at.due || (due == at.due && place < at.clock) {
                break;
            }
            back += 1;
        }
        back
    }

    /// How many of `c`'s latest-step updates are still to come as of the readings' place: 0
    /// at the end of the step.
    pub(crate) fn back_of(&self, c: &Clock) -> u64 {
        match self.cursor.0 {
            None => 0,
            Some(at) => {
                let place = self
                    .clocks
                    .as_slice()
                    .iter()
                    .position(|other| other.id() == c.id())
                    .unwrap_or(at.clock);
                self.back(c, place, &at)
            }
        }
    }
}
