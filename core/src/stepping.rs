//! Single-stepping while paused (debug stepping, like Bevy's `Stepping`): the next step runs
//! exactly N ticks of the alpha clock, moving virtual time by exactly those ticks, then the
//! loop stays paused.

use crate::config::Policy;
use crate::event::Event;
use crate::events::Events;
use crate::state::{Inner, LoopState};
use crate::time::Timestamp;

impl<T> LoopState<T> {
    /// Runs exactly `n` more ticks of the alpha clock at the next step, then stays paused:
    /// debug single-stepping, like Bevy's stepping. Pauses the loop first if it is running
    /// (the next step then reports [`Event::Paused`]; the real time since the latest `now`
    /// does not count). `n = 0` cancels a request not taken yet, as does resuming with
    /// [`set_paused(false)`](Self::set_paused); calling it twice adds up (saturating).
    ///
    /// The step moves virtual time, at the end of its span, to exactly the due time of the
    /// `n`-th next tick of the alpha clock (the time at which it would have run unpaused), and
    /// then runs every clock's ticks due by then, reported as ordinary
    /// [`Event::Update`]s ([`Tick::last_in_step`](crate::Tick::last_in_step) as usual), followed
    /// by a render (with `paused: true`) at the new virtual time. So interpolation, lags and
    /// [`ClockStats`](crate::ClockStats) stay consistent: the identity
    /// `ticks_run + ticks_dropped + pending == ticks_due + ticks_early` holds, and
    /// [`virtual_delta`](Self::virtual_delta) is the time stepped. Other clocks run the ticks
    /// that fall due by that virtual time (a constant-rate clock among several skips the
    /// slots it passed, reported as usual).
    ///
    /// Exactly `n`, whatever the firing rule: ticks are fired on their due time only (the
    /// *nearest* rule and hysteresis fire nothing early or late while stepping). The update
    /// cap still applies: past it, the rest runs in the following steps (each reporting
    /// [`Event::Deferred`] as usual, with a deadline of "now"). A constant-rate alpha clock
    /// runs one slot per step (its one update per step), so `n` of them take `n` steps. If
    /// the paused loop already has a backlog (ticks due that a cap deferred), stepping runs
    /// those first, `n` at most.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// state.set_paused(true);
    /// let _ = state.advance(Nanos::from_secs(5));
    /// state.step_ticks(3);
    /// let events = state.advance(Nanos::from_secs(5));
    /// let ticks: Vec<u64> = events.updates().map(|t| t.index).collect();
    /// assert_eq!(ticks, [0, 1, 2]);
    /// assert!(state.is_paused() && events.render().is_some_and(|r| r.paused));
    /// // Virtual time moved by exactly three ticks of 100 ms.
    /// assert_eq!(state.virtual_time(), Nanos::from_millis(300));
    /// assert_eq!(state.advance(Nanos::from_secs(6)).updates().count(), 0);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn step_ticks(&mut self, n: u64) {
        if n == 0 {
            self.inner.step_request = 0;
            return;
        }
        self.set_paused(true);
        let s = &mut *self.inner;
        s.step_request = s.step_request.saturating_add(n);
    }

    /// Alpha-clock ticks a [`step_ticks`](Self::step_ticks) request still has to run.
    #[must_use]
    pub fn step_ticks_pending(&self) -> u64 {
        self.inner.step_request
    }
}

impl<T: Timestamp> Inner<T> {
    /// The paused step: runs a pending [`LoopState::step_ticks`] request, if any. Returns the
    /// real deadline: "now" while some of the request is left, else `None` (paused).
    pub(crate) fn run_stepping(&mut self, ev: &mut Events<T>, now_real: u64) -> Option<u64> {
        if self.step_request == 0 {
            return None;
        }
        let Some(a) = self.clocks.iter().position(|c| c.id() == self.alpha_clock) else {
            self.step_request = 0;
            return None;
        };
        let alpha = &self.clocks[a];
        if alpha.ended() {
            self.step_request = 0;
            return None;
        }
        let constant_rate = alpha.config().policy != Policy::CatchUp;
        // One slot per step for a constant-rate clock; else the n-th next tick's due time.
        let ahead = if constant_rate {
            0
        } else {
            self.step_request - 1
        };
        let target = alpha.due_of(alpha.next_tick().saturating_add(ahead));
        // The fraction of a ns virtual time carries is kept: the jump is whole ns.
        self.virt = self.virt.max(target);
        ev.v = self.virt;
        let v = self.virt;
        let limit = self.step_request.min(u64::from(alpha.checked().cap));
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        for clock in &mut self.clocks {
            if clock.config().policy != Policy::CatchUp && !clock.ended() {
                clock.skip_missed(v, false, &mut ev.before);
            }
        }
        // Each clock is worked off on its own; the lazy merge of `Events` orders the runs by
        // due time (ties to the clock declared first), as on the general path.
        for (i, clock) in self.clocks.iter_mut().enumerate() {
            let cap = if clock.config().policy != Policy::CatchUp {
                1
            } else if i == a {
                limit
            } else {
                clock.checked().cap
            };
            let mut run = clock.run();
            while !clock.ended() && v >= clock.due() && clock.count() < cap {
                clock.fire();
            }
            if clock.count() > 0 {
                run.count = clock.count();
                ev.runs.push(run);
            }
        }
        let ran = u64::from(self.clocks[a].count());
        self.step_request = if self.clocks[a].ended() {
            0
        } else {
            self.step_request.saturating_sub(ran.max(1))
        };
        // A backlog the cap left is reported only while the request goes on (the deadline is
        // then "now"); once it is done the loop stays paused and the backlog waits, counted
        // in `ClockStats::pending`, for the loop to resume.
        let going_on = self.step_request > 0;
        for clock in &mut self.clocks {
            if let (Some(ticks), true) = (clock.end_step(v), going_on) {
                ev.before.push_after(Event::Deferred {
                    clock: clock.id(),
                    ticks,
                });
            }
        }
        going_on.then_some(now_real)
    }
}
