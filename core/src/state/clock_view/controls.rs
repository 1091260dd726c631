//! [`ClockMut`]'s controls: a clock's rate, cap, phase and hysteresis, overstep (Bevy's
//! `accumulate_overstep` and `discard_overstep`) and a reset of its grid (tokio's
//! `Interval::reset`). Each takes effect at the next step, which reports what it changed.

use alloc::borrow::Cow;

use super::ClockMut;
use crate::config::ClockConfig;
use crate::error::ConfigError;
use crate::events::report::Report;
use crate::values::rate::Period;
use crate::values::time::Nanos;

impl<T> ClockMut<'_, T> {
    /// Changes this clock's tick length from its current tick boundary on, like Bevy's
    /// `Time<Fixed>::set_timestep` or Godot's `physics_ticks_per_second` at run time (bullet
    /// time for one clock, a physics rate picked in the settings).
    ///
    /// Tick numbers and simulation time ([`Tick::t`](crate::Tick::t)) continue. The next tick starts where the
    /// last one ended (its boundary, rounded up to a whole ns: the instant virtual time reaches
    /// it; its [`Tick::t`](crate::Tick::t) is that same whole ns, so `t` and `lag` agree) and lasts the new
    /// period; every later tick follows the new grid exactly. Ticks that ran before the change
    /// keep the due times they ran with (an [`InputQueue`](crate::InputQueue) drained after
    /// the change still attributes their inputs by them). The lag
    /// already accumulated is kept, as in Bevy: if it exceeds the new period, the next step
    /// catches up as usual. The next step reports [`Event::RateChanged`](crate::Event::RateChanged) (one per change).
    /// Setting the rate the clock already has does nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(10)?).max_frame_delta(None);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(250)); // ticks 0 and 1; 50 ms of lag
    /// assert_eq!(events.updates().count(), 2);
    /// state.clock_mut("main")?.set_rate(Period::from_hz(20)?); // 50 ms ticks from 200 ms on
    /// let events = state.advance(Nanos::from_millis(300));
    /// let rate = Period::from_hz(20)?;
    /// assert!(events.iter().any(|e| e == Event::RateChanged {
    ///     clock: state.alpha_clock(), period: rate, from_tick: 2 }));
    /// // Tick 2 covers [200, 250) ms, tick 3 [250, 300) ms.
    /// let ticks: Vec<(u64, u64)> = events.updates().map(|t| (t.index, t.t.0 / 1_000_000)).collect();
    /// assert_eq!(ticks, [(2, 200), (3, 250)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_rate(&mut self, period: Period) -> &mut Self {
        if self.rate() == period {
            return self;
        }
        let c = self.inner.clocks.moving(self.i);
        c.change_rate(period);
        c.forget_latest_step();
        let (clock, from_tick) = (c.id(), c.next_tick());
        // Every change is reported, in order, even several before one step.
        self.inner.clocks.report(Report::Rate {
            clock,
            period,
            from_tick,
        });
        self
    }

    /// Changes this clock's update cap (see [`ClockConfig::max_updates`](crate::ClockConfig::max_updates)).
    ///
    /// # Errors
    ///
    /// `Some(0)` ([`ConfigError::ZeroUpdateCap`]); the clock is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(100)?).max_frame_delta(None);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// state.clock_mut("main")?.set_max_updates(Some(3))?;
    /// let events = state.advance(Nanos::from_millis(100)); // 10 ticks due, 3 run
    /// assert_eq!(events.update_count(), 3);
    /// assert!(state.clock_mut("main")?.set_max_updates(Some(0)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_max_updates(&mut self, cap: Option<u32>) -> Result<&mut Self, ConfigError> {
        self.update_config(|c| c.max_updates(cap))
    }

    /// Changes this clock's phase (see [`ClockConfig::phase`](crate::ClockConfig::phase)): its grid
    /// moves by the difference, exactly; tick numbers continue. A larger phase makes ticks due
    /// sooner (possibly at once), a smaller one later.
    ///
    /// # Errors
    ///
    /// A phase outside `[0, 1)` ([`ConfigError::InvalidPhase`](crate::ConfigError::InvalidPhase))
    /// or a phase on a constant-rate clock
    /// ([`ConfigError::CatchUpOnly`](crate::ConfigError::CatchUpOnly)); the clock is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// // Half a tick earlier: tick 0 is due at 50 ms instead of 100 ms.
    /// state.clock_mut("main")?.set_phase(0.5)?;
    /// assert_eq!(state.advance(Nanos::from_millis(50)).update_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_phase(&mut self, fraction: f64) -> Result<&mut Self, ConfigError> {
        self.update_config(|c| c.phase(fraction))
    }

    /// Changes this clock's hysteresis (see
    /// [`ClockConfig::hysteresis`](crate::ClockConfig::hysteresis)).
    ///
    /// # Errors
    ///
    /// A value outside `[0, ½]`
    /// ([`ConfigError::InvalidHysteresis`](crate::ConfigError::InvalidHysteresis)) or hysteresis
    /// on a constant-rate clock ([`ConfigError::CatchUpOnly`](crate::ConfigError::CatchUpOnly));
    /// the clock is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let mut main = state.clock_mut("main")?;
    /// main.set_hysteresis(0.1)?;
    /// assert!(main.set_hysteresis(0.7).is_err()); // outside [0, ½]: unchanged
    /// let expected = ClockConfig::new("main", Period::from_hz(60)?).hysteresis(0.1);
    /// assert_eq!(*main.config(), expected);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_hysteresis(&mut self, fraction: f64) -> Result<&mut Self, ConfigError> {
        self.update_config(|c| c.hysteresis(fraction))
    }

    fn update_config(
        &mut self,
        f: impl FnOnce(ClockConfig) -> ClockConfig,
    ) -> Result<&mut Self, ConfigError> {
        let c = &mut self.inner.clocks[self.i];
        // `f` sets a number: the name stays in the clock (`Clock::reconfigure` keeps it), so
        // an owned one is never copied.
        let config = f(ClockConfig {
            name: Cow::Borrowed(""),
            ..*c.config()
        });
        let checked = config.validate_as(&c.config().name)?;
        let old_phase = c.checked().phase_ns;
        c.reconfigure(config, checked);
        if checked.phase_ns != old_phase {
            let by = i128::from(checked.phase_ns) - i128::from(old_phase);
            let c = self.inner.clocks.moving(self.i);
            c.shift_lead(by);
            c.forget_latest_step();
        }
        Ok(self)
    }

    /// Adds `time` of virtual time to this clock's lag without a clock reading, like Bevy's
    /// `Time<Fixed>::accumulate_overstep`: its grid moves `time` earlier, so the ticks of that
    /// span come due (at the next step, up to the cap per step, the rest
    /// [`Event::Deferred`](crate::Event::Deferred)). Use it to make up for time a loading screen did not count. Other
    /// clocks and virtual time itself are unchanged; the max frame delta does not apply to it.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// // 60 ms a loading screen did not count: three 20 ms ticks come due at the next step.
    /// state.clock_mut("main")?.accumulate_overstep(Nanos::from_millis(60));
    /// assert_eq!(state.advance(Nanos::from_millis(1)).update_count(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn accumulate_overstep(&mut self, time: Nanos) -> &mut Self {
        let c = self.inner.clocks.moving(self.i);
        c.accumulate(time.0);
        c.forget_latest_step();
        self
    }

    /// Drops up to `time` of this clock's lag (never below zero), like Bevy's
    /// `Time<Fixed>::discard_overstep`: its grid moves later by the time dropped. Whole ticks
    /// in the dropped span never run: the tick number jumps over them and the next step reports
    /// them as [`Event::DroppedTicks`](crate::Event::DroppedTicks) with [`DropReason::Discarded`](crate::DropReason::Discarded). Returns the time dropped
    /// (`Nanos::MAX`-like values drop all the lag).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(30)); // tick 0 ran; 10 ms of lag
    /// let dropped = state.clock_mut("main")?.discard_overstep(Nanos::from_millis(25));
    /// assert_eq!(dropped, Nanos::from_millis(10)); // never below zero
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn discard_overstep(&mut self, time: Nanos) -> Nanos {
        let v = self.inner.virt.now();
        let c = self.inner.clocks.moving(self.i);
        let (dropped_ns, dropped) = c.discard(time.0, v);
        if dropped_ns > 0 {
            c.forget_latest_step();
        }
        let id = c.id();
        self.inner.clocks.report_drop(id, dropped);
        Nanos(dropped_ns)
    }

    /// Restarts this clock's grid at the latest virtual time, like tokio's `Interval::reset`: no
    /// backlog is left (after a menu that did not pause the loop, a reconnect, a debugger
    /// stop). Ticks due and not run are dropped, reported at the next step as
    /// [`Event::DroppedTicks`](crate::Event::DroppedTicks) with [`DropReason::Discarded`](crate::DropReason::Discarded); tick numbers continue. The next
    /// tick's interval (catch-up: due one period from now) or slot (constant rate) starts now:
    /// at the latest virtual time, or, for a lone constant-rate clock that had the shell sleep
    /// until its latest slot, at that slot's start (where the shell is; no slot starts before
    /// one that ran). Under [`Policy::KeepWorking`](crate::Policy::KeepWorking) and
    /// [`Policy::Delay`](crate::Policy::Delay) (which re-phases the grid to a late step) that
    /// slot runs at the next step. Under [`Policy::DropAndRest`](crate::Policy::DropAndRest)
    /// it runs only if the next step comes at its start; a later step drops it, reported as
    /// [`Event::DroppedTicks`](crate::Event::DroppedTicks) with [`DropReason::SlotMissed`](crate::DropReason::SlotMissed), and rests until the next slot a
    /// period after the reset (the timing of tokio's `Interval::reset`).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(10)?).max_updates(Some(1)).max_frame_delta(None);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(500)); // 5 ticks due, 1 ran: a backlog of 4
    /// state.clock_mut("main")?.reset_grid(); // forget it
    /// let events = state.advance(Nanos::from_millis(550));
    /// assert!(events.iter().any(|e| matches!(e, Event::DroppedTicks { count: 4, .. })));
    /// assert_eq!(events.update_count(), 0); // the next tick is due at 600 ms
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset_grid(&mut self) -> &mut Self {
        let v = self.inner.virt.now();
        let c = self.inner.clocks.moving(self.i);
        let dropped = c.reset_at(v);
        c.forget_latest_step();
        let id = c.id();
        self.inner.clocks.report_drop(id, dropped);
        self
    }
}
