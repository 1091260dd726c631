//! One clock's accounting, as [`ClockHandle::stats`](crate::ClockHandle::stats) reports it.

use alloc::borrow::Cow;

use crate::clock::Clock;
use crate::state::{Inner, LoopState};
use crate::values::id::ClockId;
use crate::values::rate::Period;
use crate::values::time::{Lag, Nanos};

/// The clocks' numbers after the latest step.
impl<T> LoopState<T> {
    /// The clock that drives the render alpha: the one named by
    /// [`LoopConfig::alpha_clock`](crate::LoopConfig::alpha_clock), else the fastest clock
    /// when the loop was built (ties to the first declared), kept until it is removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?)
    ///     .clock(ClockConfig::new("physics", Period::from_hz(120)?));
    /// let state = LoopState::new(config.clone(), Nanos(0))?;
    /// assert_eq!(state.clock("physics").map(|c| c.id()), Ok(state.alpha_clock())); // the fastest
    /// let state = LoopState::new(config.alpha_clock("main"), Nanos(0))?;
    /// assert_eq!(state.clock("main").map(|c| c.id()), Ok(state.alpha_clock())); // named
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn alpha_clock(&self) -> ClockId {
        self.inner.clocks.alpha_clock()
    }

    /// The clocks' names, in declaration order.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?)
    ///     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
    /// let state = LoopState::new(config, Nanos(0))?;
    /// assert!(state.clock_names().eq(["main", "ai"]));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn clock_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.inner.clocks.iter().map(|c| c.config().name())
    }
}

/// One clock's accounting, from [`ClockHandle::stats`](crate::ClockHandle::stats)
/// (`state.clock(c)?.stats()`).
///
/// Every tick below `next_tick` either ran or was dropped, which gives one exact identity for
/// every clock, policy, firing rule and hysteresis, after every step and between steps:
///
/// `ticks_run + ticks_dropped + pending == ticks_due + ticks_early`
///
/// At most one of `pending` (due, not yet run) and `ticks_early` (run, not yet due) is non-zero.
/// Under saturation at `u64::MAX` (584 years of 1 ns ticks) the counters stop rather than wrap.
///
/// It owns a copy of the clock's name, so it outlives the state and the steps after it (to
/// compare before and after a step): for a literal name the copy is free, for a name chosen
/// at run time or loaded it is one allocation.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ClockStats {
    /// The clock's id.
    pub id: ClockId,
    /// The clock's name.
    pub name: Cow<'static, str>,
    /// Its tick rate.
    pub rate: Period,
    /// The number its next update will carry.
    pub next_tick: u64,
    /// Updates run so far.
    pub ticks_run: u64,
    /// Ticks reported dropped so far (missed slots and ticks lost to the max frame delta).
    pub ticks_dropped: u64,
    /// Virtual time the max frame delta discarded for this clock so far: the sum of the
    /// `time` of its [`Event::DiscardedTime`](crate::Event::DiscardedTime) events (see there
    /// how it relates to the ticks dropped). Drops by the controls and missed slots drop ticks,
    /// counted in `ticks_dropped`, and no time.
    pub time_discarded: Nanos,
    /// Ticks due that have neither run nor been dropped: for a catch-up clock, the backlog
    /// the cap deferred (see [`ClockConfig::max_updates`](crate::ClockConfig::max_updates)).
    /// For the constant-rate policies, 0 after every step that ran the clock: late slots are
    /// dropped (reported) in the step that finds them, even when a refused slot runs late in
    /// their place (see [`LoopState::refuse`](crate::LoopState::refuse)).
    pub pending: u64,
    /// Ticks due by the virtual clock: for [`Policy::CatchUp`](crate::Policy::CatchUp), ticks
    /// whose interval `[k·dt, (k+1)·dt)` (shifted by the phase) has ended; for the
    /// constant-rate policies, slots that have started.
    pub ticks_due: u64,
    /// Ticks run (or dropped) before virtual time made them due: the *nearest* rule and
    /// hysteresis fire ticks early, a lone constant-rate clock runs its next slot after the
    /// [`Event::Sleep`](crate::Event::Sleep) it asks for, and a smaller phase
    /// ([`ClockMut::set_phase`](crate::ClockMut::set_phase)) moves the grid later, so ticks
    /// that already ran are due later. 0 for a catch-up clock with late firing and no
    /// hysteresis, unless its phase was lowered.
    pub ticks_early: u64,
    /// Ticks the shell refused with [`LoopState::refuse`](crate::LoopState::refuse): each ran
    /// again later with the same number (not counted in `ticks_run` until it did).
    pub ticks_refused: u64,
    /// Where a renderer stands between its previous and current tick, in `[0, 1]`.
    pub alpha: f64,
    /// The exact lag behind virtual time after the latest step (rounded down; early when a
    /// tick ran before its due time).
    pub lag: Lag,
}

impl Default for ClockStats {
    fn default() -> Self {
        ClockStats {
            id: ClockId(0),
            name: Cow::Borrowed(""),
            rate: Period::ONE_SECOND,
            next_tick: 0,
            ticks_run: 0,
            ticks_dropped: 0,
            time_discarded: Nanos(0),
            pending: 0,
            ticks_due: 0,
            ticks_early: 0,
            ticks_refused: 0,
            alpha: 0.0,
            lag: Lag::ZERO,
        }
    }
}

impl<T> Inner<T> {
    /// `clock`'s numbers where the readings stand: as of the update a handler is given (see
    /// [`LoopState::as_of`]), else at the end of the latest step.
    pub(crate) fn stats_of(&self, c: &Clock) -> ClockStats {
        let end = self.stats_at_step_end(c);
        let Some(at) = self.cursor.0 else {
            return end;
        };
        // The clock's updates after the cursor's have not run yet: every tick below
        // `next_tick` ran or was dropped, as at the end of the step, so the identity
        // `ran + dropped + pending == due + early` holds as of the tick too.
        let back = self.back_of(c);
        let next_tick = end.next_tick.saturating_sub(back);
        let ticks_due = c.ticks_due(at.due);
        ClockStats {
            next_tick,
            ticks_run: end.ticks_run.saturating_sub(back),
            ticks_due,
            pending: ticks_due.saturating_sub(next_tick),
            ticks_early: next_tick.saturating_sub(ticks_due),
            ..end
        }
    }

    /// `clock`'s numbers at the end of the latest step.
    pub(crate) fn stats_at_step_end(&self, c: &Clock) -> ClockStats {
        ClockStats {
            name: c.config().name.clone(),
            ..self.numbers_of(c)
        }
    }

    /// `clock`'s numbers at the latest virtual time, its name left empty.
    fn numbers_of(&self, c: &Clock) -> ClockStats {
        let v = self.virt.now();
        let (alpha, lag) = c.alpha(v);
        ClockStats {
            id: c.id(),
            name: Cow::Borrowed(""),
            rate: c.rate(),
            next_tick: c.next_tick(),
            ticks_run: c.ran(),
            ticks_dropped: c.dropped_slots().saturating_add(c.clamp_dropped()),
            time_discarded: Nanos(c.clamp_time()),
            pending: c.pending(v),
            ticks_due: c.ticks_due(v),
            ticks_early: c.early(v),
            ticks_refused: c.refused(),
            alpha,
            lag,
        }
    }
}
