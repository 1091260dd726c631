//! `LoopState` and the pure step `(LoopState, now) -> (LoopState, Events)`.

use crate::config::{Checked, ConfigError, LoopConfig, Policy};
use crate::event::{ClockId, DropReason, Event, Events, Render, Tick};
use crate::rate::{GridPoint, TickRate, TimeScale};
use crate::time::{Nanos, Timestamp};

const PENDING_PAUSED: u8 = 1;
const PENDING_RESUMED: u8 = 2;
const PENDING_SCALE: u8 = 4;

/// The whole state of a main loop, as a value: step it with [`LoopState::step`].
///
/// `LoopState` never reads a clock and never sleeps. The shell that drives it makes these calls,
/// in this order, every frame:
///
/// 1. read the clock (`Instant::now()`, a vsync timestamp, a replay log, a fake clock);
/// 2. call [`step`](LoopState::step) with that `now`;
/// 3. handle the events in order: [`Event::Sleep`] means wait until then, [`Event::Update`] means
///    run one fixed update with the [`Tick`] it carries;
/// 4. capture or publish snapshots (only before the update marked [`Tick::last_in_step`] if the
///    renderer interpolates);
/// 5. on [`Event::Render`], draw with its `alpha` between the previous and current tick;
/// 6. wait until [`Events::deadline`] (or the next vsync) and start again.
///
/// Time rules at the boundaries:
///
/// * The first step always renders, even at `now == start`.
/// * A step whose `now` equals the latest `now` renders nothing: time did not advance.
/// * A `now` earlier than the latest `now` (or than `start`) means no time passed: the step
///   reports [`Event::ClockBackwards`], runs nothing new, renders nothing, and the next step
///   measures from the latest `now`, so no span is counted twice.
/// * A gap longer than the max frame delta is cut to it; the rest is reported as
///   [`Event::DiscardedTime`] with the ticks it cost. With the clamp off, gaps of centuries are
///   still fine: time saturates at 584 years and each step runs at most the update cap (or
///   [`MAX_UPDATES_PER_STEP`](crate::MAX_UPDATES_PER_STEP)), reporting the rest as
///   [`Event::Deferred`].
///
/// Cloning is a copy of a few dozen words, so tests and replays can keep every state.
///
/// # Examples
///
/// The second printed trace of the Scheme seed: 50 Hz ticks, frames of 16 ms.
///
/// ```
/// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, TickRate};
///
/// let config = LoopConfig::new(TickRate::from_hz(50)?).max_updates(None).max_frame_delta(None);
/// let mut state = LoopState::new(config, Nanos(0))?;
/// let mut lags = Vec::new();
/// for frame in 1..=6 {
///     let (next, events) = state.step(Nanos::from_millis(16 * frame));
///     state = next;
///     lags.extend(events.updates().map(|t| t.lag.0 / 1_000_000));
///     assert!(events.render().is_some());
/// }
/// assert_eq!(lags, [32, 28, 24, 20]);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LoopState<T = Nanos> {
    start: T,
    config: LoopConfig,
    checked: Checked,
    /// Latest real time seen, in ns since `start`; `None` before the first step.
    last_real: Option<u64>,
    /// Virtual time since start, and the scaled remainder (units of 1/scale.den ns).
    virt: u64,
    virt_rem: u64,
    /// Virtual time discarded by the max frame delta, in total.
    discarded_virt: u64,
    /// Ticks the discarded time cost, in total.
    clamp_gap: u64,
    /// Main clock: next tick number, its start `k·dt` and its end `(k+1)·dt`.
    next_tick: u64,
    tick_start: GridPoint,
    tick_end: GridPoint,
    ran: u64,
    dropped_slots: u64,
    /// Updates run by the previous step (hysteresis prefers it).
    last_count: u32,
    /// Next render slot, if renders are capped.
    render_next: Option<GridPoint>,
    paused: bool,
    scale: TimeScale,
    pending_controls: u8,
}

impl<T: Timestamp> LoopState<T> {
    /// A loop that starts at `start`, checked against its configuration.
    ///
    /// The start is explicit: no clock is read. Tick 0 covers `[start, start + dt)`.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the first invalid setting: a zero update cap, a zero max frame
    /// delta, a phase outside `[0, 1)`, a hysteresis outside `[0, ½]`, or a phase or hysteresis
    /// on a constant-rate policy. (Invalid rates and scales are refused by their own
    /// constructors.)
    pub fn new(config: LoopConfig, start: T) -> Result<LoopState<T>, ConfigError> {
        let checked = config.validate()?;
        let rate = config.rate;
        Ok(LoopState {
            start,
            config,
            checked,
            last_real: None,
            virt: 0,
            virt_rem: 0,
            discarded_virt: 0,
            clamp_gap: 0,
            next_tick: 0,
            tick_start: GridPoint::at(rate, 0),
            tick_end: GridPoint::at(rate, 1),
            ran: 0,
            dropped_slots: 0,
            last_count: 0,
            render_next: config.render_rate.map(|r| GridPoint::at(r, 0)),
            paused: config.paused,
            scale: config.scale,
            pending_controls: 0,
        })
    }

    /// Advances the loop to `now` and says what happened: the pure fold.
    ///
    /// Returns the next state and the events, in the order the shell must handle them. See the
    /// type-level docs for the call order and the rules for `now` going backwards, big gaps and
    /// repeated `now`s. Never panics and, while the events stay under
    /// [`INLINE_EVENTS`](crate::INLINE_EVENTS), never allocates.
    #[must_use = "the returned state replaces the old one; dropping it loses the step"]
    pub fn step(mut self, now: T) -> (LoopState<T>, Events<T>) {
        let events = self.advance(now);
        (self, events)
    }

    /// [`step`](LoopState::step) in place, for shells that keep the state in a field.
    pub fn advance(&mut self, now: T) -> Events<T> {
        let mut ev = Events::new();
        self.emit_controls(&mut ev);
        let first = self.last_real.is_none();
        let last = self.last_real.unwrap_or(0);
        let elapsed = match now.nanos_since(self.start) {
            Some(real) if real >= last => {
                self.last_real = Some(real);
                real - last
            }
            Some(real) => {
                ev.list.push(Event::ClockBackwards {
                    by: Nanos(last - real),
                });
                self.last_real = Some(last);
                0
            }
            None => {
                let by = self
                    .start
                    .nanos_since(now)
                    .unwrap_or(0)
                    .saturating_add(last);
                ev.list.push(Event::ClockBackwards { by: Nanos(by) });
                self.last_real = Some(last);
                0
            }
        };
        if !self.paused {
            self.add_real(elapsed, &mut ev);
        }
        let now_real = self.last_real.unwrap_or(0);
        let mut deadline_real = if self.paused {
            None
        } else {
            match self.config.policy {
                Policy::CatchUp => self.run_catch_up(&mut ev, now_real),
                Policy::DropAndRest | Policy::KeepWorking => {
                    self.run_constant_rate(&mut ev, now_real);
                    Some(now_real)
                }
            }
        };
        if (first || elapsed > 0) && self.render_slot_open(now_real) {
            let render = self.render_event();
            ev.list.push(Event::Render(render));
        }
        if let Some(slot) = self.render_next {
            let r = slot.ceil();
            deadline_real = Some(deadline_real.map_or(r, |d| d.min(r)));
        }
        ev.deadline = deadline_real.map(|d| self.start.add_nanos(d));
        ev
    }

    /// Moves virtual time by `elapsed` real ns, applying the max frame delta and the scale.
    fn add_real(&mut self, elapsed: u64, ev: &mut Events<T>) {
        let kept = match self.checked.max_delta {
            Some(max) if elapsed > max => max,
            _ => elapsed,
        };
        let (dv, rem) = self.scale.apply(kept, self.virt_rem);
        if kept < elapsed {
            let (full, _) = self.scale.apply(elapsed, self.virt_rem);
            self.discarded_virt = self.discarded_virt.saturating_add(full - dv);
            self.virt = self.virt.saturating_add(dv);
            let gap = self.ticks_at(self.virt.saturating_add(self.discarded_virt))
                - self.ticks_at(self.virt);
            let ticks = gap.saturating_sub(self.clamp_gap);
            self.clamp_gap = gap;
            ev.list.push(Event::DiscardedTime {
                time: Nanos(elapsed - kept),
                ticks,
            });
        } else {
            self.virt = self.virt.saturating_add(dv);
        }
        self.virt_rem = rem;
    }

    /// How many ticks the clock has made due by virtual time `v` (ignoring hysteresis).
    fn ticks_at(&self, v: u64) -> u64 {
        match self.config.policy {
            Policy::CatchUp => self
                .config
                .rate
                .ticks_in(v.saturating_add(self.checked.phase_ns)),
            // A slot is due once it has started; slot 0 starts at 0.
            Policy::DropAndRest | Policy::KeepWorking => {
                self.config.rate.ticks_in(v).saturating_add(1)
            }
        }
    }

    fn emit_controls(&mut self, ev: &mut Events<T>) {
        if self.pending_controls == 0 {
            return;
        }
        if self.pending_controls & PENDING_PAUSED != 0 {
            ev.list.push(Event::Paused);
        }
        if self.pending_controls & PENDING_RESUMED != 0 {
            ev.list.push(Event::Resumed);
        }
        if self.pending_controls & PENDING_SCALE != 0 {
            ev.list.push(Event::ScaleChanged(self.scale));
        }
        self.pending_controls = 0;
    }

    /// The fixed-timestep accumulator. Returns the real deadline (ns since start).
    fn run_catch_up(&mut self, ev: &mut Events<T>, now_real: u64) -> Option<u64> {
        let rate = self.config.rate;
        let phase = self.checked.phase_ns;
        let h = self.checked.hysteresis_ns;
        let vp = self.virt.saturating_add(phase);
        let cap = self.checked.cap;
        let prefer = self.last_count;
        let mut n = 0u32;
        while n < cap {
            // Tick k is due once virtual time reaches (k+1)·dt, shifted earlier by the phase.
            let due = self.tick_end.ceil();
            let run = if h == 0 {
                vp >= due
            } else {
                vp >= due.saturating_add(h) || (n < prefer && vp.saturating_add(h) >= due)
            };
            if !run {
                break;
            }
            let lag = self
                .tick_start
                .lag_from(rate, vp)
                .div_euclid(i128::from(rate.period_ratio().1));
            self.push_update(ev, lag, n);
            n += 1;
        }
        self.last_count = n;
        let due = self.tick_end.ceil();
        if n == cap && vp >= due {
            let pending = rate.ticks_in(vp).saturating_sub(self.next_tick).max(1);
            ev.list.push(Event::Deferred {
                clock: ClockId(0),
                ticks: pending,
            });
            return Some(now_real);
        }
        let due_v = if h == 0 {
            due
        } else if n > 0 {
            due.saturating_sub(h)
        } else {
            due.saturating_add(h)
        };
        let wait_v = due_v.saturating_sub(vp);
        self.scale
            .real_needed(wait_v, self.virt_rem)
            .map(|r| now_real.saturating_add(r))
    }

    /// Constant-rate policies: one update per step, at the start of its slot.
    fn run_constant_rate(&mut self, ev: &mut Events<T>, now_real: u64) {
        let rate = self.config.rate;
        let v = self.virt;
        let slot = self.tick_start.ceil();
        if v > slot {
            let j = match self.config.policy {
                // The first slot that has not started yet (a slot starting exactly now is on time).
                Policy::DropAndRest => rate.ticks_in(v - 1).saturating_add(1),
                // The slot in progress.
                _ => rate.ticks_in(v),
            };
            if j > self.next_tick {
                let count = j - self.next_tick;
                ev.list.push(Event::DroppedTicks {
                    clock: ClockId(0),
                    first: self.next_tick,
                    count,
                    reason: DropReason::SlotMissed,
                });
                self.dropped_slots = self.dropped_slots.saturating_add(count);
                self.next_tick = j;
                self.tick_start = GridPoint::at(rate, j);
                self.tick_end = GridPoint::at(rate, j.saturating_add(1));
            }
        }
        let slot = self.tick_start.ceil();
        let lag = if v < slot {
            if let Some(real) = self.scale.real_needed(slot - v, self.virt_rem) {
                let until = self.start.add_nanos(now_real.saturating_add(real));
                ev.list.push(Event::Sleep { until });
            }
            0
        } else {
            i128::from(v - slot)
        };
        self.push_update(ev, lag, 0);
        self.last_count = 1;
    }

    fn push_update(&mut self, ev: &mut Events<T>, lag: i128, n: u32) {
        if n > 0 {
            if let Some(Event::Update(prev)) = ev.list.last_mut() {
                prev.last_in_step = false;
            }
        }
        let rate = self.config.rate;
        let t = rate.tick_start_nanos(self.tick_start.m);
        ev.list.push(Event::Update(Tick {
            clock: ClockId(0),
            index: self.next_tick,
            t: Nanos(t),
            dt: rate,
            lag: Nanos(u64::try_from(lag.max(0)).unwrap_or(u64::MAX)),
            last_in_step: true,
        }));
        self.next_tick = self.next_tick.saturating_add(1);
        self.ran = self.ran.saturating_add(1);
        self.tick_start = self.tick_end;
        self.tick_end.advance(rate);
    }

    /// Whether the render cap allows a frame at `now_real`; moves the slot past `now_real` if so.
    fn render_slot_open(&mut self, now_real: u64) -> bool {
        let (Some(rate), Some(slot)) = (self.config.render_rate, self.render_next) else {
            return true;
        };
        if now_real < slot.ceil() {
            return false;
        }
        // Next slot: the first one strictly after now, on the fixed grid (it never slips).
        let m = rate.ticks_in(now_real).saturating_add(1);
        let mut next = GridPoint::at(rate, m);
        if next.ceil() <= now_real {
            next.advance(rate);
        }
        self.render_next = Some(next);
        true
    }

    fn render_event(&self) -> Render {
        let rate = self.config.rate;
        let den = rate.period_ratio().1;
        match self.config.policy {
            Policy::CatchUp => {
                let vp = self.virt.saturating_add(self.checked.phase_ns);
                let lag = self.tick_start.lag_from(rate, vp);
                Render {
                    alpha: rate.fraction(lag).clamp(0.0, 1.0),
                    lag_ns: i64::try_from(lag.div_euclid(i128::from(den))).unwrap_or(i64::MAX),
                    ticks: self.ran,
                    paused: self.paused,
                }
            }
            Policy::DropAndRest | Policy::KeepWorking => Render {
                alpha: 1.0,
                lag_ns: 0,
                ticks: self.ran,
                paused: self.paused,
            },
        }
    }
}

impl<T> LoopState<T> {
    /// Pauses or resumes virtual time from the latest `now`. While paused no updates run,
    /// alpha is frozen and renders carry `paused: true`. The next step reports
    /// [`Event::Paused`] or [`Event::Resumed`].
    pub fn set_paused(&mut self, paused: bool) {
        if paused != self.paused {
            self.paused = paused;
            self.pending_controls &= !(PENDING_PAUSED | PENDING_RESUMED);
            self.pending_controls |= if paused {
                PENDING_PAUSED
            } else {
                PENDING_RESUMED
            };
        }
    }

    /// Changes the time scale. It applies to all real time after the latest `now`, exactly;
    /// the next step reports [`Event::ScaleChanged`].
    pub fn set_time_scale(&mut self, scale: TimeScale) {
        if scale != self.scale {
            let (_, old_den) = self.scale.as_ratio();
            let (_, new_den) = scale.as_ratio();
            // Keep the carried sub-nanosecond remainder in the new unit (loses < 1/den ns).
            self.virt_rem = self.virt_rem * u64::from(new_den) / u64::from(old_den);
            self.scale = scale;
            self.pending_controls |= PENDING_SCALE;
        }
    }

    /// Whether virtual time is paused.
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The current time scale.
    #[must_use]
    pub fn time_scale(&self) -> TimeScale {
        self.scale
    }

    /// The configuration the loop was built with (pause and scale as they were at the start).
    #[must_use]
    pub fn config(&self) -> &LoopConfig {
        &self.config
    }

    /// The main clock's tick rate.
    #[must_use]
    pub fn rate(&self) -> TickRate {
        self.config.rate
    }

    /// The loop's start, as given to [`LoopState::new`].
    #[must_use]
    pub fn start(&self) -> &T {
        &self.start
    }

    /// Virtual time since the start, in ns: real time less pauses and discarded spans, scaled.
    #[must_use]
    pub fn virtual_time(&self) -> Nanos {
        Nanos(self.virt)
    }

    /// Latest real time seen, in ns since the start (0 before the first step).
    #[must_use]
    pub fn real_time(&self) -> Nanos {
        Nanos(self.last_real.unwrap_or(0))
    }

    /// The number the next update will carry.
    #[must_use]
    pub fn next_tick(&self) -> u64 {
        self.next_tick
    }

    /// Updates run so far.
    #[must_use]
    pub fn ticks_run(&self) -> u64 {
        self.ran
    }

    /// Ticks reported dropped so far: missed constant-rate slots plus ticks lost to the max
    /// frame delta.
    #[must_use]
    pub fn ticks_dropped(&self) -> u64 {
        self.dropped_slots.saturating_add(self.clamp_gap)
    }

    /// Ticks due by the clock that have neither run nor been dropped: the backlog a capped
    /// step left. Zero for the constant-rate policies and whenever the loop has caught up.
    #[must_use]
    pub fn pending(&self) -> u64 {
        if self.config.policy != Policy::CatchUp {
            return 0;
        }
        let vp = self.virt.saturating_add(self.checked.phase_ns);
        self.config.rate.ticks_in(vp).saturating_sub(self.next_tick)
    }

    /// Ticks due by the undiscarded virtual clock: for [`Policy::CatchUp`] without hysteresis,
    /// `ticks_run() + ticks_dropped() + pending() == ticks_due()` after every step, exactly.
    /// With a scale of 1 and no pauses the undiscarded virtual clock is real time.
    #[must_use]
    pub fn ticks_due(&self) -> u64 {
        let shadow = self.virt.saturating_add(self.discarded_virt);
        match self.config.policy {
            Policy::CatchUp => self
                .config
                .rate
                .ticks_in(shadow.saturating_add(self.checked.phase_ns)),
            Policy::DropAndRest | Policy::KeepWorking => {
                self.config.rate.ticks_in(shadow).saturating_add(1)
            }
        }
    }
}
