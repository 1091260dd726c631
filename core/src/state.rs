//! `LoopState` and the pure step `(LoopState, now) -> (LoopState, Events)`.

use smallvec::SmallVec;

use crate::clock::Clock;
use crate::config::{ClockConfig, ConfigError, LoopConfig, Policy};
use crate::event::{ClockId, Event, Events, Render, Tick};
use crate::rate::{GridPoint, TickRate, TimeScale};
use crate::time::{Lag, Nanos, Timestamp};
use crate::virt::SubNanos;

/// How many clocks a `LoopState` holds inline before its clock list moves to the heap.
const INLINE_CLOCKS: usize = 1;

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
///    run one fixed update with the [`Tick`](crate::Tick) it carries;
/// 4. capture or publish snapshots (only before the update marked [`Tick::last_in_step`](crate::Tick::last_in_step) if the
///    renderer interpolates);
/// 5. on [`Event::Render`], draw with its `alpha` between the previous and current tick;
/// 6. wait until [`Events::deadline`] (or the next vsync) and start again.
///
/// Time rules at the boundaries:
///
/// * The first step always renders, even at `now == start`.
/// * A step whose `now` equals the latest `now` renders nothing: time did not advance.
/// * A `now` earlier than the latest `now` (or than `start`) means no time passed: the step
///   reports [`Event::ClockBackwards`], renders nothing (unless it is the first step, which
///   always renders), makes no new tick due (only a backlog
///   the cap left behind keeps running), and the next step measures from the latest `now`, so
///   no span is counted twice.
/// * A step that moves virtual time further than the max frame delta works off only the ticks
///   due within it (or due by the deadline the fold gave, if that is later); the rest is
///   reported as [`Event::DiscardedTime`] with the ticks it cost (see
///   [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)). With the clamp off,
///   gaps of centuries are still fine: each step runs at most the update cap (or
///   [`MAX_UPDATES_PER_STEP`](crate::MAX_UPDATES_PER_STEP)), reporting the rest as
///   [`Event::Deferred`].
/// * Time ends at `u64::MAX` ns of virtual time (584 years): a tick whose exact due time does
///   not fit never comes due, the clock's grid stops there, and [`Event::EndOfTime`] says so
///   once. Tick indices never repeat and the deadline becomes `None` when no clock can tick.
///
/// A loop holds one or more named clocks, each with its own exact rate, cap, policy and firing
/// rule (the fixed-frequency sub-loops of "looping in time"). Within a step, updates come out ordered by due
/// time, ties broken by declaration order, so replays are bit-identical. The single-clock
/// accessors ([`ticks_run`](LoopState::ticks_run) and friends) describe the alpha clock; the
/// others are reached through [`clock_stats`](LoopState::clock_stats).
///
/// Cloning copies a few hundred bytes (the first clock is stored inline; from the second on,
/// the clock list lives on the heap and is copied too), so tests and replays can keep every
/// state.
///
/// # Examples
///
/// The second printed trace of the purely functional Scheme loop article: 50 Hz ticks, frames of 16 ms.
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
///     lags.extend(events.updates().map(|t| t.lag.behind().0 / 1_000_000));
///     assert!(events.render().is_some());
/// }
/// assert_eq!(lags, [32, 28, 24, 20]);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LoopState<T = Nanos> {
    pub(crate) start: T,
    pub(crate) clocks: SmallVec<[Clock; INLINE_CLOCKS]>,
    /// The clock whose alpha the Render event carries.
    pub(crate) alpha_clock: ClockId,
    next_id: u16,
    max_delta: Option<u64>,
    render_rate: Option<TickRate>,
    /// Latest real time seen, in ns since `start`; `None` before the first step.
    pub(crate) last_real: Option<u64>,
    /// Virtual time since start in whole ns, and the exact fraction of a ns it carries.
    pub(crate) virt: u64,
    virt_rem: SubNanos,
    /// Virtual length of the last frame that advanced time: the *nearest* rule's estimate.
    last_frame_v: u64,
    /// Next render slot, if renders are capped.
    render_next: Option<GridPoint>,
    pub(crate) paused: bool,
    pub(crate) scale: TimeScale,
    /// The scale the latest step used (a change back to it before the next step cancels out).
    reported_scale: TimeScale,
    pending_controls: u8,
}

impl<T: Timestamp> LoopState<T> {
    /// A loop that starts at `start`, checked against its configuration.
    ///
    /// The start is explicit: no clock is read. Tick 0 of every configured clock covers
    /// `[start, start + dt)`.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the first invalid setting: a zero update cap, a zero max frame
    /// delta, a phase outside `[0, 1)`, a hysteresis outside `[0, ½]`, a phase or hysteresis
    /// on a constant-rate policy, two clocks with one name, or an alpha clock that does not
    /// exist. (Invalid rates and scales are refused by their own constructors.)
    pub fn new(config: LoopConfig, start: T) -> Result<LoopState<T>, ConfigError> {
        let max_delta = config.checked_max_delta()?;
        let mut state = LoopState {
            start,
            clocks: SmallVec::new(),
            alpha_clock: ClockId(0),
            next_id: 0,
            max_delta,
            render_rate: config.render_rate,
            last_real: None,
            virt: 0,
            virt_rem: SubNanos::new(config.scale),
            last_frame_v: 0,
            render_next: config.render_rate.map(|r| GridPoint::at(r, 0)),
            paused: config.paused,
            scale: config.scale,
            reported_scale: config.scale,
            pending_controls: 0,
        };
        for clock in &config.clocks {
            state.push_clock(*clock, 0)?;
        }
        if let Some(name) = config.alpha_clock {
            state.alpha_clock = state
                .clock_id(name)
                .ok_or(ConfigError::UnknownClock(name))?;
        }
        Ok(state)
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
        self.advance_into(now, &mut ev);
        ev
    }

    /// [`advance`](LoopState::advance) into a buffer the caller reuses: `events` is cleared,
    /// then filled. This skips moving the events out of the call (a few hundred bytes), the
    /// fastest way to drive the fold.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Events, LoopConfig, LoopState, Nanos, TickRate};
    ///
    /// // 60 Hz ticks, frames every 1/60 s (rounded down to whole ns): the phase of ½ keeps
    /// // the frames off the tick boundaries, so each frame runs exactly one update.
    /// let config = LoopConfig::new(TickRate::from_hz(60)?).phase(0.5);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let mut events = Events::new();
    /// for frame in 1..=60u64 {
    ///     state.advance_into(Nanos(frame * 1_000_000_000 / 60), &mut events);
    ///     assert_eq!(events.updates().count(), 1);
    /// }
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn advance_into(&mut self, now: T, events: &mut Events<T>) {
        events.list.clear();
        events.deadline = None;
        if self.is_plain() {
            self.advance_plain(now, events);
        } else {
            self.advance_general(now, events);
        }
    }

    /// Whether this step can take the fast path: one catch-up clock with late firing and no
    /// hysteresis, real-time scale, no render cap, not paused and no control to report (the
    /// default configuration). The fast path gives exactly the general path's events and state
    /// (a property test in this module checks it on random schedules).
    #[inline]
    pub(crate) fn is_plain(&self) -> bool {
        self.clocks.len() == 1
            && self.clocks[0].plain
            && self.pending_controls == 0
            && !self.paused
            && self.scale == TimeScale::ONE
            && self.virt_rem.is_zero()
            && self.render_rate.is_none()
    }

    /// [`advance_general`](Self::advance_general) specialised to [`is_plain`](Self::is_plain):
    /// no clock merging, no scale arithmetic, no render slot.
    #[inline]
    pub(crate) fn advance_plain(&mut self, now: T, ev: &mut Events<T>) {
        let first = self.last_real.is_none();
        let (elapsed, behind) = self.read_clock(now, ev);
        if elapsed > 0 {
            let before = self.virt;
            // At a scale of 1 the virtual advance is the real one.
            if self.max_delta.is_some_and(|max| elapsed > max) {
                self.add_real(elapsed, ev);
            } else {
                self.virt = before.saturating_add(elapsed);
            }
            self.last_frame_v = self.virt - before;
        }
        let v = self.virt;
        let clock = &mut self.clocks[0];
        let from = ev.list.len();
        while clock.count < clock.checked.cap && v >= clock.due() && !clock.ended() {
            let tick = clock.fire(v, ev.list.len());
            ev.list.push(Event::Update(Tick {
                last_in_step: false,
                ..tick
            }));
        }
        if ev.list.len() > from {
            if let Some(Event::Update(last)) = ev.list.last_mut() {
                last.last_in_step = true;
            }
        }
        let deadline = match clock.end_step(v) {
            Some(ticks) => {
                ev.list.push(Event::Deferred {
                    clock: clock.id,
                    ticks,
                });
                Some(0)
            }
            None if clock.ended() => None,
            None => Some(clock.due().saturating_sub(v)),
        };
        if let Some(next_tick) = clock.end_of_time() {
            ev.list.push(Event::EndOfTime {
                clock: clock.id,
                next_tick,
            });
        }
        if first || elapsed > 0 {
            let (alpha, lag) = clock.alpha(v);
            ev.list.push(Event::Render(Render {
                alpha,
                lag,
                ticks: clock.ran,
                paused: false,
            }));
        }
        ev.deadline = deadline.map(|after| deadline_from(now, behind, after));
    }

    /// The step for every configuration.
    pub(crate) fn advance_general(&mut self, now: T, ev: &mut Events<T>) {
        self.emit_controls(ev);
        let first = self.last_real.is_none();
        let (elapsed, behind) = self.read_clock(now, ev);
        if !self.paused && elapsed > 0 {
            let before = self.virt;
            self.add_real(elapsed, ev);
            self.last_frame_v = self.virt - before;
        }
        // The nearest rule expects the next frame to last as long as the one that just ended.
        let x_est = self.last_frame_v;
        let now_real = self.last_real.unwrap_or(0);
        let mut deadline_real = if self.paused {
            None
        } else if self.clocks.len() == 1 && self.clocks[0].config.policy != Policy::CatchUp {
            self.run_lone_constant_rate(ev, now, behind, now_real)
        } else {
            self.run_merged(ev, now_real, x_est)
        };
        for clock in &mut self.clocks {
            if let Some(next_tick) = clock.end_of_time() {
                ev.list.push(Event::EndOfTime {
                    clock: clock.id,
                    next_tick,
                });
            }
        }
        if (first || elapsed > 0) && self.render_slot_open(now_real) {
            let render = self.render_event();
            ev.list.push(Event::Render(render));
        }
        if let Some(slot) = self.render_next {
            let r = slot.ceil();
            deadline_real = Some(deadline_real.map_or(r, |d| d.min(r)));
        }
        ev.deadline = deadline_real.map(|d| deadline_from(now, behind, d.saturating_sub(now_real)));
    }

    /// Applies the time rules to `now`; returns the real ns that passed and how far `now` is
    /// behind the latest `now` (0 unless the clock went backwards).
    fn read_clock(&mut self, now: T, ev: &mut Events<T>) -> (u64, u64) {
        let last = self.last_real.unwrap_or(0);
        match now.nanos_since(self.start) {
            Some(real) if real >= last => {
                self.last_real = Some(real);
                (real - last, 0)
            }
            Some(real) => {
                ev.list.push(Event::ClockBackwards {
                    by: Nanos(last - real),
                });
                self.last_real = Some(last);
                (0, last - real)
            }
            None => {
                let by = self
                    .start
                    .nanos_since(now)
                    .unwrap_or(0)
                    .saturating_add(last);
                ev.list.push(Event::ClockBackwards { by: Nanos(by) });
                self.last_real = Some(last);
                (0, by)
            }
        }
    }

    /// Moves virtual time by `elapsed` real ns (scaled exactly), applying the max frame delta
    /// to the virtual advance: beyond it, each clock drops its oldest due ticks (see
    /// [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)).
    fn add_real(&mut self, elapsed: u64, ev: &mut Events<T>) {
        let before = self.virt;
        let dv = self.virt_rem.advance(self.scale, elapsed);
        self.virt = before.saturating_add(dv);
        if let Some(max) = self.max_delta.filter(|max| self.virt - before > *max) {
            let limit = before.saturating_add(max);
            for clock in &mut self.clocks {
                if let Some((first, ticks, time)) = clock.clamp(limit, self.virt) {
                    ev.list.push(Event::DiscardedTime {
                        clock: clock.id,
                        time: Nanos(time),
                        first,
                        ticks,
                    });
                }
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
            self.reported_scale = self.scale;
        }
        self.pending_controls = 0;
    }

    /// Every clock's due ticks, merged by (due time, declaration order). Returns the real
    /// deadline (ns since start).
    fn run_merged(&mut self, ev: &mut Events<T>, now_real: u64, x_est: u64) -> Option<u64> {
        let v = self.virt;
        for clock in &mut self.clocks {
            if clock.config.policy != Policy::CatchUp && !clock.ended() && v > clock.due() {
                clock.skip_missed(v, false, &mut ev.list);
            }
        }
        loop {
            let mut best: Option<(u64, usize)> = None;
            for (i, clock) in self.clocks.iter().enumerate() {
                if !clock.ended() && clock.ready(v, x_est, false) {
                    let due = clock.due();
                    if best.is_none_or(|(d, _)| due < d) {
                        best = Some((due, i));
                    }
                }
            }
            let Some((_, i)) = best else { break };
            self.fire(ev, i, v);
        }
        let mut wake = u64::MAX;
        let mut backlog = false;
        for clock in &mut self.clocks {
            if let Some(ticks) = clock.end_step(v) {
                backlog = true;
                ev.list.push(Event::Deferred {
                    clock: clock.id,
                    ticks,
                });
            }
            if !clock.ended() {
                wake = wake.min(clock.wake());
            }
        }
        if backlog {
            return Some(now_real);
        }
        if self.clocks.iter().all(Clock::ended) {
            return None;
        }
        self.virt_rem
            .real_needed(self.scale, wake.saturating_sub(v))
            .map(|r| now_real.saturating_add(r))
    }

    /// Fires clock `i`'s next tick and keeps `last_in_step` true only on its latest update.
    fn fire(&mut self, ev: &mut Events<T>, i: usize, v: u64) {
        let clock = &mut self.clocks[i];
        if let Some(Event::Update(prev)) = clock.previous_event().and_then(|p| ev.list.get_mut(p)) {
            prev.last_in_step = false;
        }
        let tick = clock.fire(v, ev.list.len());
        ev.list.push(Event::Update(tick));
    }

    /// A loop with one constant-rate clock: one update per step at the start of its slot, with a
    /// [`Event::Sleep`] until then (the *drop & rest* and *keep working* constant-rate loops).
    /// A slot that virtual time can never reach (a time scale of 0, the end of time) does not
    /// run: the deadline is then `None`. Returns the real deadline.
    fn run_lone_constant_rate(
        &mut self,
        ev: &mut Events<T>,
        now: T,
        behind: u64,
        now_real: u64,
    ) -> Option<u64> {
        let v = self.virt;
        let clock = &mut self.clocks[0];
        if clock.ended() {
            return None;
        }
        let slot = clock.skip_missed(v, true, &mut ev.list);
        if clock.ended() {
            return None;
        }
        if v < slot {
            let real = self.virt_rem.real_needed(self.scale, slot - v)?;
            let until = deadline_from(now, behind, real);
            ev.list.push(Event::Sleep { until });
        }
        self.fire(ev, 0, v);
        let clock = &mut self.clocks[0];
        clock.end_step(v);
        // The next slot needs a step at once (it sleeps there), if virtual time can reach it.
        if clock.ended() || self.scale.as_ratio().0 == 0 {
            None
        } else {
            Some(now_real)
        }
    }

    /// Whether the render cap allows a frame at `now_real`; moves the slot past `now_real` if so.
    fn render_slot_open(&mut self, now_real: u64) -> bool {
        let (Some(rate), Some(_)) = (self.render_rate, self.render_next) else {
            return true;
        };
        if self.render_next.is_some_and(|slot| now_real < slot.ceil()) {
            return false;
        }
        // Next slot: the first one strictly after now, on the fixed grid (it never slips).
        self.render_next = Some(GridPoint::at(
            rate,
            rate.ticks_in(now_real).saturating_add(1),
        ));
        true
    }

    fn render_event(&self) -> Render {
        let (alpha, lag) = self
            .alpha_clock_ref()
            .map_or((0.0, Lag::ZERO), |c| c.alpha(self.virt));
        Render {
            alpha,
            lag,
            ticks: self.alpha_clock_ref().map_or(0, |c| c.ran),
            paused: self.paused,
        }
    }

    /// Adds a clock to a running loop. Its tick 0 starts at virtual time `start` (ns since the
    /// loop's start; `None` means the latest virtual time, so it starts now).
    ///
    /// A start in the past follows the clock's policy: a catch-up clock catches up, at most its
    /// cap per step, reporting the backlog as [`Event::Deferred`]; a constant-rate clock drops
    /// the slots that passed, reported as [`Event::DroppedTicks`] at the next step.
    ///
    /// # Errors
    ///
    /// [`ConfigError::DuplicateClock`] if the name is taken, any error of the clock's settings,
    /// or [`ConfigError::TooManyClocks`] after 65,535 clocks.
    pub fn add_clock(
        &mut self,
        config: ClockConfig,
        start: Option<Nanos>,
    ) -> Result<ClockId, ConfigError> {
        let origin = start.map_or(self.virt, |s| s.0);
        self.push_clock(config, origin)
    }
}

impl<T> LoopState<T> {
    fn push_clock(&mut self, config: ClockConfig, origin: u64) -> Result<ClockId, ConfigError> {
        let checked = config.validate()?;
        if self.clock_id(config.name).is_some() {
            return Err(ConfigError::DuplicateClock(config.name));
        }
        let id = ClockId(self.next_id);
        self.next_id = self
            .next_id
            .checked_add(1)
            .ok_or(ConfigError::TooManyClocks)?;
        self.clocks.push(Clock::new(id, config, checked, origin));
        Ok(id)
    }

    /// Removes the clock called `name`. If it drove the render alpha, the first remaining clock
    /// does from now on. Ids are never reused.
    ///
    /// # Errors
    ///
    /// [`ConfigError::UnknownClock`] if no clock has that name, [`ConfigError::LastClock`] if it
    /// is the only one.
    pub fn remove_clock(&mut self, name: &'static str) -> Result<ClockId, ConfigError> {
        let i = self
            .clocks
            .iter()
            .position(|c| c.config.name == name)
            .ok_or(ConfigError::UnknownClock(name))?;
        if self.clocks.len() == 1 {
            return Err(ConfigError::LastClock);
        }
        let id = self.clocks.remove(i).id;
        if id == self.alpha_clock {
            self.alpha_clock = self.clocks[0].id;
        }
        Ok(id)
    }

    pub(crate) fn clock_ref(&self, id: ClockId) -> Option<&Clock> {
        self.clocks.iter().find(|c| c.id == id)
    }

    pub(crate) fn alpha_clock_ref(&self) -> Option<&Clock> {
        self.clock_ref(self.alpha_clock)
    }

    /// The id of the clock called `name`.
    #[must_use]
    pub fn clock_id(&self, name: &str) -> Option<ClockId> {
        self.clocks
            .iter()
            .find(|c| c.config.name == name)
            .map(|c| c.id)
    }

    /// The name of clock `id`.
    #[must_use]
    pub fn clock_name(&self, id: ClockId) -> Option<&'static str> {
        self.clock_ref(id).map(|c| c.config.name)
    }

    /// The clocks' names, in declaration order.
    pub fn clock_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.clocks.iter().map(|c| c.config.name)
    }

    /// Pauses or resumes virtual time from the latest `now`. While paused no updates run,
    /// alpha is frozen and renders carry `paused: true`. The next step reports
    /// [`Event::Paused`] or [`Event::Resumed`]; a change undone before the next step reports
    /// nothing, since no step saw it.
    pub fn set_paused(&mut self, paused: bool) {
        if paused == self.paused {
            return;
        }
        self.paused = paused;
        let (flag, opposite) = if paused {
            (PENDING_PAUSED, PENDING_RESUMED)
        } else {
            (PENDING_RESUMED, PENDING_PAUSED)
        };
        // Undone before the next step: no step saw the change, so nothing is reported.
        if self.pending_controls & opposite != 0 {
            self.pending_controls &= !opposite;
        } else {
            self.pending_controls |= flag;
        }
    }

    /// Changes the time scale. It applies to all real time after the latest `now`, exactly;
    /// the next step reports [`Event::ScaleChanged`] (unless the scale was set back to the one
    /// the previous step used).
    pub fn set_time_scale(&mut self, scale: TimeScale) {
        if scale != self.scale {
            // The carried fraction of a ns is kept exactly (see `SubNanos`).
            self.virt_rem.rescale(scale);
            self.scale = scale;
            if scale == self.reported_scale {
                self.pending_controls &= !PENDING_SCALE;
            } else {
                self.pending_controls |= PENDING_SCALE;
            }
        }
    }
}

/// A deadline `after` ns past the latest `now`, as a timestamp measured from the step's `now`
/// (which is `behind` ns before the latest `now` if the clock went backwards), so that it is
/// never earlier than `now`, even where `start + deadline` would not fit the timestamp type.
#[inline]
fn deadline_from<T: Timestamp>(now: T, behind: u64, after: u64) -> T {
    now.add_nanos(after.saturating_add(behind))
}
