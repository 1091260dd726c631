//! Run-time controls of a running loop: a clock's rate, cap, phase and hysteresis, the loop's
//! max frame delta and render rate, overstep control (Bevy's `accumulate_overstep` and
//! `discard_overstep`), a reset of the grid (tokio's `Interval::reset`) and the refusal of a
//! tick the shell could not run. Each takes effect at the next step; what it changed is
//! reported there.

use core::time::Duration;

use crate::clock::Clock;
use crate::config::Policy;
use crate::error::{ClockError, ConfigError};
use crate::event::{DropReason, Event, Tick};
use crate::events::Events;
use crate::id::ClockId;
use crate::rate::{GridPoint, Period};
use crate::report::Report;
use crate::state::{Inner, LoopState, PENDING_CLOCKS};
use crate::time::Nanos;

/// A clock of a loop, by id or by name: what the per-clock controls take.
///
/// `ClockId` and `&'static str` convert into it, so `state.set_rate("main", rate)` and
/// `state.set_rate(id, rate)` both work.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClockRef {
    /// The clock with this id.
    Id(ClockId),
    /// The clock with this name.
    Name(&'static str),
}

impl From<ClockId> for ClockRef {
    fn from(id: ClockId) -> ClockRef {
        ClockRef::Id(id)
    }
}

impl From<&'static str> for ClockRef {
    fn from(name: &'static str) -> ClockRef {
        ClockRef::Name(name)
    }
}

impl<T> Inner<T> {
    fn position(&self, clock: ClockRef) -> Result<usize, ClockError> {
        match clock {
            ClockRef::Id(id) => self
                .clocks
                .iter()
                .position(|c| c.id == id)
                .ok_or(ClockError::UnknownId(id)),
            ClockRef::Name(name) => self
                .clocks
                .iter()
                .position(|c| c.config.name == name)
                .ok_or(ClockError::UnknownClock(name)),
        }
    }

    /// Clock `i`, about to have its grid moved by a control: the grid its latest step ran on
    /// is kept (input attribution of that step's ticks asks it), and the next step takes the
    /// general path, which lets it go.
    fn moving(&mut self, i: usize) -> &mut Clock {
        self.pending_controls |= PENDING_CLOCKS;
        let c = &mut self.clocks[i];
        c.keep_stepped_grid();
        c
    }

    fn clock_of(&self, clock: ClockRef) -> Option<&Clock> {
        self.position(clock).ok().map(|i| &self.clocks[i])
    }

    fn report(&mut self, report: Report) {
        self.pending_controls |= PENDING_CLOCKS;
        // Consecutive drops of one clock merge into one event.
        if let (
            Report::Dropped {
                clock,
                first,
                count,
            },
            Some(Report::Dropped {
                clock: c,
                first: f,
                count: n,
            }),
        ) = (report, self.reports.last_mut())
        {
            if *c == clock && f.saturating_add(*n) == first {
                *n = n.saturating_add(count);
                return;
            }
        }
        self.reports.push(report);
    }

    fn report_drop(&mut self, clock: ClockId, dropped: Option<(u64, u64)>) {
        if let Some((first, count)) = dropped {
            self.report(Report::Dropped {
                clock,
                first,
                count,
            });
        }
    }

    /// The clock controls' events, at the start of the step after them (the general path:
    /// [`PENDING_CLOCKS`] keeps the step off the fast path).
    pub(crate) fn emit_clock_reports(&mut self, ev: &mut Events<T>) {
        for report in self.reports.drain(..) {
            ev.before.push(match report {
                Report::Rate {
                    clock,
                    period,
                    from_tick,
                } => Event::RateChanged {
                    clock,
                    period,
                    from_tick,
                },
                Report::Dropped {
                    clock,
                    first,
                    count,
                } => Event::DroppedTicks {
                    clock,
                    first,
                    count,
                    reason: DropReason::Discarded,
                },
            });
        }
    }
}

/// Changing a running loop: rates, caps, phase, hysteresis, the max frame delta, the render
/// rate, overstep, the grid, and refused ticks.
impl<T> LoopState<T> {
    /// Changes `clock`'s tick length from its current tick boundary on, like Bevy's
    /// `Time<Fixed>::set_timestep` or Godot's `physics_ticks_per_second` at run time (bullet
    /// time for one clock, a physics rate picked in the settings).
    ///
    /// Tick numbers and simulation time ([`Tick::t`]) continue. The next tick starts where the
    /// last one ended (its boundary, rounded up to a whole ns: the instant virtual time reaches
    /// it; its [`Tick::t`] is that same whole ns, so `t` and `lag` agree) and lasts the new
    /// period; every later tick follows the new grid exactly. Ticks that ran before the change
    /// keep the due times they ran with (an [`InputQueue`](crate::InputQueue) drained after
    /// the change still attributes their inputs by them). The lag
    /// already accumulated is kept, as in Bevy: if it exceeds the new period, the next step
    /// catches up as usual. The next step reports [`Event::RateChanged`] (one per change).
    /// Setting the rate the clock already has does nothing.
    ///
    /// # Errors
    ///
    /// [`ClockError::UnknownClock`] or [`ClockError::UnknownId`]; the state is unchanged.
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
    /// state.set_rate("main", Period::from_hz(20)?)?; // 50 ms ticks from 200 ms on
    /// let events = state.advance(Nanos::from_millis(300));
    /// let rate = Period::from_hz(20)?;
    /// assert!(events.iter().any(|e| e == Event::RateChanged {
    ///     clock: state.alpha_clock(), period: rate, from_tick: 2 }));
    /// // Tick 2 covers [200, 250) ms, tick 3 [250, 300) ms.
    /// let ticks: Vec<(u64, u64)> = events.updates().map(|t| (t.index, t.t.0 / 1_000_000)).collect();
    /// assert_eq!(ticks, [(2, 200), (3, 250)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_rate(
        &mut self,
        clock: impl Into<ClockRef>,
        period: Period,
    ) -> Result<(), ClockError> {
        let s = &mut *self.inner;
        let i = s.position(clock.into())?;
        if s.clocks[i].rate() == period {
            return Ok(());
        }
        let c = s.moving(i);
        c.change_rate(period);
        c.last_count = 0;
        let (id, from_tick) = (c.id, c.next_tick);
        // Every change is reported, in order, even several before one step.
        s.report(Report::Rate {
            clock: id,
            period,
            from_tick,
        });
        Ok(())
    }

    /// Changes `clock`'s update cap (see [`ClockConfig::max_updates`](crate::ClockConfig::max_updates)).
    ///
    /// # Errors
    ///
    /// An unknown clock, or `Some(0)` ([`ConfigError::ZeroUpdateCap`] in [`ClockError::Config`]);
    /// the state is unchanged.
    pub fn set_max_updates(
        &mut self,
        clock: impl Into<ClockRef>,
        cap: Option<u32>,
    ) -> Result<(), ClockError> {
        self.update_config(clock.into(), |c| c.max_updates(cap))
    }

    /// Changes `clock`'s phase (see [`ClockConfig::phase`](crate::ClockConfig::phase)): its grid
    /// moves by the difference, exactly; tick numbers continue. A larger phase makes ticks due
    /// sooner (possibly at once), a smaller one later.
    ///
    /// # Errors
    ///
    /// An unknown clock, a phase outside `[0, 1)` ([`ConfigError::InvalidPhase`]) or a phase on
    /// a constant-rate clock ([`ConfigError::CatchUpOnly`]); the state is unchanged.
    pub fn set_phase(
        &mut self,
        clock: impl Into<ClockRef>,
        fraction: f64,
    ) -> Result<(), ClockError> {
        self.update_config(clock.into(), |c| c.phase(fraction))
    }

    /// Changes `clock`'s hysteresis (see
    /// [`ClockConfig::hysteresis`](crate::ClockConfig::hysteresis)).
    ///
    /// # Errors
    ///
    /// An unknown clock, a value outside `[0, ½]` ([`ConfigError::InvalidHysteresis`]) or
    /// hysteresis on a constant-rate clock ([`ConfigError::CatchUpOnly`]); the state is
    /// unchanged.
    pub fn set_hysteresis(
        &mut self,
        clock: impl Into<ClockRef>,
        fraction: f64,
    ) -> Result<(), ClockError> {
        self.update_config(clock.into(), |c| c.hysteresis(fraction))
    }

    fn update_config(
        &mut self,
        clock: ClockRef,
        f: impl FnOnce(crate::ClockConfig) -> crate::ClockConfig,
    ) -> Result<(), ClockError> {
        let s = &mut *self.inner;
        let i = s.position(clock)?;
        let c = &mut s.clocks[i];
        let config = f(c.config);
        let checked = config.validate()?;
        let old_phase = c.checked.phase_ns;
        c.config = config;
        c.checked = checked;
        c.plain = config.policy == Policy::CatchUp
            && config.firing == crate::Firing::Late
            && checked.hysteresis_ns == 0;
        if checked.phase_ns != old_phase {
            let by = i128::from(checked.phase_ns) - i128::from(old_phase);
            let c = s.moving(i);
            c.shift_lead(by);
            c.last_count = 0;
        }
        Ok(())
    }

    /// `clock`'s update cap (`None` for no cap), or `None` if there is no such clock.
    #[must_use]
    pub fn max_updates(&self, clock: impl Into<ClockRef>) -> Option<Option<u32>> {
        self.inner
            .clock_of(clock.into())
            .map(|c| c.config.max_updates)
    }

    /// `clock`'s phase, or `None` if there is no such clock.
    #[must_use]
    pub fn phase(&self, clock: impl Into<ClockRef>) -> Option<f64> {
        self.inner.clock_of(clock.into()).map(|c| c.config.phase)
    }

    /// `clock`'s hysteresis, or `None` if there is no such clock.
    #[must_use]
    pub fn hysteresis(&self, clock: impl Into<ClockRef>) -> Option<f64> {
        self.inner
            .clock_of(clock.into())
            .map(|c| c.config.hysteresis)
    }

    /// `clock`'s tick length, or `None` if there is no such clock.
    #[must_use]
    pub fn rate_of(&self, clock: impl Into<ClockRef>) -> Option<Period> {
        self.inner.clock_of(clock.into()).map(Clock::rate)
    }

    /// Changes the max frame delta (see
    /// [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)) from the next step on.
    ///
    /// # Errors
    ///
    /// [`ConfigError::ZeroMaxFrameDelta`] for a zero duration; the state is unchanged.
    pub fn set_max_frame_delta(&mut self, max: Option<Duration>) -> Result<(), ConfigError> {
        match max {
            Some(d) if d.is_zero() => Err(ConfigError::ZeroMaxFrameDelta),
            d => {
                self.inner.max_delta = d.map(|d| Nanos::from(d).0);
                Ok(())
            }
        }
    }

    /// The max frame delta (`None`: no clamp).
    #[must_use]
    pub fn max_frame_delta(&self) -> Option<Duration> {
        self.inner.max_delta.map(Duration::from_nanos)
    }

    /// Changes the render cap (see [`LoopConfig::render_rate`](crate::LoopConfig::render_rate)).
    /// The slots stay on a fixed grid from the loop's start; the next step may render.
    pub fn set_render_rate(&mut self, rate: Option<Period>) {
        let s = &mut *self.inner;
        if rate == s.render_rate {
            return;
        }
        s.render_rate = rate;
        let now = s.last_real.unwrap_or(0);
        s.render_next = rate.map(|r| GridPoint::at(r, r.ticks_in(now)));
    }

    /// The render cap (`None`: render every step that advances time).
    #[must_use]
    pub fn render_rate(&self) -> Option<Period> {
        self.inner.render_rate
    }

    /// Adds `time` of virtual time to `clock`'s lag without a clock reading, like Bevy's
    /// `Time<Fixed>::accumulate_overstep`: its grid moves `time` earlier, so the ticks of that
    /// span come due (at the next step, up to the cap per step, the rest
    /// [`Event::Deferred`]). Use it to make up for time a loading screen did not count. Other
    /// clocks and virtual time itself are unchanged; the max frame delta does not apply to it.
    ///
    /// # Errors
    ///
    /// An unknown clock; the state is unchanged.
    pub fn accumulate_overstep(
        &mut self,
        clock: impl Into<ClockRef>,
        time: Nanos,
    ) -> Result<(), ClockError> {
        let s = &mut *self.inner;
        let i = s.position(clock.into())?;
        let c = s.moving(i);
        c.accumulate(time.0);
        c.last_count = 0;
        Ok(())
    }

    /// Drops up to `time` of `clock`'s lag (never below zero), like Bevy's
    /// `Time<Fixed>::discard_overstep`: its grid moves later by the time dropped. Whole ticks
    /// in the dropped span never run: the tick number jumps over them and the next step reports
    /// them as [`Event::DroppedTicks`] with [`DropReason::Discarded`]. Returns the time dropped
    /// (`Nanos::MAX`-like values drop all the lag).
    ///
    /// # Errors
    ///
    /// An unknown clock; the state is unchanged.
    pub fn discard_overstep(
        &mut self,
        clock: impl Into<ClockRef>,
        time: Nanos,
    ) -> Result<Nanos, ClockError> {
        let s = &mut *self.inner;
        let i = s.position(clock.into())?;
        let v = s.virt;
        let c = s.moving(i);
        let (dropped_ns, dropped) = c.discard(time.0, v);
        if dropped_ns > 0 {
            c.last_count = 0;
        }
        let id = c.id;
        s.report_drop(id, dropped);
        Ok(Nanos(dropped_ns))
    }

    /// Restarts `clock`'s grid at the latest virtual time, like tokio's `Interval::reset`: no
    /// backlog is left (after a menu that did not pause the loop, a reconnect, a debugger
    /// stop). Ticks due and not run are dropped, reported at the next step as
    /// [`Event::DroppedTicks`] with [`DropReason::Discarded`]; tick numbers continue. The next
    /// tick's interval (catch-up: due one period from now) or slot (constant rate) starts now:
    /// at the latest virtual time, or, for a lone constant-rate clock that had the shell sleep
    /// until its latest slot, at that slot's start (where the shell is; no slot starts before
    /// one that ran). Under [`Policy::KeepWorking`](crate::Policy::KeepWorking) and
    /// [`Policy::Delay`](crate::Policy::Delay) (which re-phases the grid to a late step) that
    /// slot runs at the next step. Under [`Policy::DropAndRest`](crate::Policy::DropAndRest)
    /// it runs only if the next step comes at its start; a later step drops it, reported as
    /// [`Event::DroppedTicks`] with [`DropReason::SlotMissed`], and rests until the next slot a
    /// period after the reset (the timing of tokio's `Interval::reset`).
    ///
    /// # Errors
    ///
    /// An unknown clock; the state is unchanged.
    pub fn reset_grid(&mut self, clock: impl Into<ClockRef>) -> Result<(), ClockError> {
        let s = &mut *self.inner;
        let i = s.position(clock.into())?;
        let v = s.virt;
        let c = s.moving(i);
        let dropped = c.reset_at(v);
        c.last_count = 0;
        let id = c.id;
        s.report_drop(id, dropped);
        Ok(())
    }

    /// Refuses `tick`, which the shell could not run (a rollback session that was not ready,
    /// for example): the tick stays due and runs again at the next step, with the same number.
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
    ///   [`set_rate`](LoopState::set_rate) to another period,
    ///   [`set_phase`](LoopState::set_phase) to another phase,
    ///   [`accumulate_overstep`](LoopState::accumulate_overstep) (even of zero time),
    ///   [`discard_overstep`](LoopState::discard_overstep) that dropped some time, or
    ///   [`reset_grid`](LoopState::reset_grid). Other controls (the cap, hysteresis, pause,
    ///   time scale, other clocks) do not matter.
    ///
    /// Step again soon: the deadline the step gave assumed the tick ran.
    ///
    /// A refused constant-rate slot runs at the next step even when that step comes after
    /// the slot (or later ones) passed: nothing is dropped in its place. The one exception is
    /// a step longer than the max frame delta, which drops the oldest ticks first, a refused
    /// one among them, reported in its [`Event::DiscardedTime`] as every such drop is. A
    /// control that drops ticks ([`reset_grid`](Self::reset_grid),
    /// [`discard_overstep`](Self::discard_overstep)) drops refused ones like any other,
    /// reported. An [`InputQueue`](crate::InputQueue) gives a refused tick's inputs to it
    /// again when it runs again.
    ///
    /// # Errors
    ///
    /// [`ClockError::UnknownId`] for a tick of no clock of this loop,
    /// [`ClockError::NotRefusable`] for any other tick that breaks the rules above; the state
    /// is unchanged.
    pub fn refuse(&mut self, tick: &Tick) -> Result<(), ClockError> {
        let s = &mut *self.inner;
        let i = s.position(ClockRef::Id(tick.clock))?;
        if s.clocks[i].refuse(tick.index) {
            // The next step spares the refused tick (see `Clock::spare`) on the general path.
            s.pending_controls |= PENDING_CLOCKS;
            Ok(())
        } else {
            Err(ClockError::NotRefusable {
                clock: tick.clock,
                index: tick.index,
            })
        }
    }
}
