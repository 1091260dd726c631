//! The resources: [`Tickfold`] (the loop and its clocks' schedules) and [`CurrentTick`].

use core::ops::Deref;
use core::time::Duration;
use std::sync::Arc;

use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy_time::{Fixed, Time};
use tickfold_core::{
    ClockConfig, ClockId, ClockMut, ClockRef, ConfigError, Events, LoopState, Nanos, NoSuchClock,
    Period, RemoveClockError, Render, Tick,
};

/// The tickfold loop of the app, stepped once per frame by [`TickfoldPlugin`](crate::TickfoldPlugin),
/// and which schedule each of its clocks runs.
///
/// tickfold's own controls are reachable here: the per-clock handle
/// ([`clock_mut`](Self::clock_mut): rate, cap, phase, hysteresis, overstep, grid reset),
/// clocks added and removed at run time ([`add_clock`](Self::add_clock),
/// [`remove_clock`](Self::remove_clock)), and each clock's `Time<Fixed>`
/// ([`fixed_time`](Self::fixed_time)). Every control takes effect at the next frame's step and
/// is reported there (as a [`LoopNotice`](crate::LoopNotice) or
/// [`TicksDropped`](crate::TicksDropped) message).
///
/// Pause, speed and max delta are Bevy's: the loop follows `Time<Virtual>`, so
/// `ResMut<Time<Virtual>>`'s `pause()`, `set_relative_speed(..)` and `set_max_delta(..)` act on
/// every tickfold clock.
#[derive(Resource, Debug)]
pub struct Tickfold {
    pub(crate) state: LoopState,
    pub(crate) clocks: Vec<ClockEntry>,
    pub(crate) events: Events<Nanos>,
    pub(crate) render: Option<Render>,
    pub(crate) frame_updates: u64,
    /// The loop's `now` at the latest step.
    pub(crate) now: Nanos,
    /// The schedules a frame's ticks run, out of `Schedules` during the frame's runs (empty
    /// between frames: its buffers are kept).
    pub(crate) taken: crate::schedules::Taken,
    /// The loop as it was before the frame's step, kept only for a step that may run some
    /// clock twice or more: a write to `Time<Fixed>` in a run that is not the step's last
    /// goes back to it and steps again from that run (see `crate::writes`).
    pub(crate) snapshot: Option<LoopState>,
    /// The events of such a step back to a run.
    pub(crate) scratch: Events<Nanos>,
    /// The loop may have changed since its latest step other than by stepping (a control, a
    /// load, a write to `Time<Fixed>`): the previous step's deadline says nothing then.
    pub(crate) touched: bool,
    /// The shortest tick any clock has (whole ns, less one), `None` until asked again after a
    /// rate change or a control.
    pub(crate) min_tick: Option<u64>,
    /// Some clock's schedule is not yet ordered by `ClockSystems` (see
    /// `crate::clock_schedule`).
    pub(crate) unprepared: bool,
    /// The loop was handed out by [`state_mut`](Self::state_mut) since the plugin last
    /// checked that the main clock is still there.
    pub(crate) lent: bool,
}

/// One clock's schedule and the time its runs see.
#[derive(Debug)]
pub(crate) struct ClockEntry {
    pub(crate) id: ClockId,
    /// The clock's name, shared by the ticks and messages that carry it.
    pub(crate) name: Arc<str>,
    pub(crate) label: Option<InternedScheduleLabel>,
    pub(crate) frame_updates: u64,
    /// The clock's `Time<Fixed>`: its latest tick and the overstep past it.
    pub(crate) fixed: Time<Fixed>,
    /// When the clock's latest tick came due, at its end, in virtual time: the overstep is
    /// virtual time past it. The tick's end in simulation time (`elapsed`) is this only while
    /// no overstep was written: a discarded overstep moves the grid later, an accumulated one
    /// earlier, and simulation time goes on by whole ticks, as Bevy's does.
    pub(crate) due_end: u64,
    /// The clock's grid moved since its latest tick (an overstep written to `Time<Fixed>`):
    /// the overstep between frames is the loop's own lag for the clock.
    pub(crate) moved: bool,
    /// Its schedule is ordered by `ClockSystems` (or is the main clock's `FixedMain`).
    pub(crate) prepared: bool,
    /// It ran a tick since Bevy last updated its message buffers.
    pub(crate) ran: bool,
    /// It reached the end of its time axis: it never runs again.
    pub(crate) ended: bool,
}

impl ClockEntry {
    pub(crate) fn new(
        id: ClockId,
        name: Arc<str>,
        label: Option<InternedScheduleLabel>,
    ) -> ClockEntry {
        ClockEntry {
            id,
            name,
            label,
            frame_updates: 0,
            fixed: Time::<Fixed>::default(),
            due_end: 0,
            moved: false,
            prepared: false,
            ran: false,
            ended: false,
        }
    }

    /// The clock's `Time<Fixed>` before its first tick: timestep the first tick's length.
    pub(crate) fn with_first_tick(mut self, rate: Period) -> ClockEntry {
        self.fixed = Time::<Fixed>::from_duration(first_tick(rate));
        self
    }

    /// The clock's `Time<Fixed>` between frames, from the loop alone (a loaded save): its
    /// latest tick's (`latest`, the core's [`ClockHandle::latest_tick`]) as that tick's run
    /// left it, or the timestep alone before the first tick, with the overstep reaching
    /// virtual time `now`; the app's wrap period stays. A rate changed since the latest tick
    /// shows as the timestep, as [`rate_changed`](Self::rate_changed) sets it.
    ///
    /// [`ClockHandle::latest_tick`]: tickfold_core::ClockHandle::latest_tick
    #[cfg(feature = "serde")]
    pub(crate) fn restore(
        &mut self,
        latest: Option<tickfold_core::TickSpan>,
        rate: Period,
        now: Nanos,
        lag: Option<tickfold_core::Lag>,
    ) {
        let mut fixed = Time::<Fixed>::default();
        fixed.set_wrap_period(self.fixed.wrap_period());
        fixed.set_timestep(first_tick(rate));
        if let Some(tick) = latest {
            fixed_time(&mut fixed, tick.t.0, tick.end.0, Duration::ZERO);
        }
        self.fixed = fixed;
        if latest.is_some_and(|tick| tick.dt != rate) {
            self.rate_changed(rate);
        }
        // The overstep: virtual time past the latest tick's end, or, when the loop's lag for
        // the clock puts its grid elsewhere (an overstep written to `Time<Fixed>` moved it;
        // not the 1 ns the lag's rounding down gives at a fractional-ns period), past where
        // the lag puts it.
        self.due_end = latest.map_or(0, |tick| tick.end.0);
        let grid = lag.map(|lag| i128::from(now.0) - lag.as_nanos());
        let moved = grid.is_some_and(|g| g.abs_diff(i128::from(self.due_end)) > 1);
        self.settle(now, lag.filter(|_| moved));
    }

    /// The clock's rate changed (the loop reported it, or the app wrote `Time<Fixed>`'s
    /// timestep): the timestep is the new rate's first tick from now on, as Bevy's
    /// `set_timestep` shows at once; elapsed and delta stay the latest tick's.
    pub(crate) fn rate_changed(&mut self, rate: Period) {
        let step = first_tick(rate);
        if self.fixed.timestep() != step {
            self.fixed.set_timestep(step);
        }
    }

    /// A tick spanning `start .. end` (the core's [`Tick::t`] and [`Events::tick_end`]) of a
    /// step to virtual time `step`, `lag` past its start's due time then ([`Tick::lag`]), runs
    /// in the frame whose virtual time is `now`: see [`fixed_time`] for what `Time<Fixed>`
    /// becomes; the overstep is `now` past the tick's due end.
    #[inline]
    pub(crate) fn run(
        &mut self,
        (start, end): (u64, u64),
        step: Nanos,
        lag: tickfold_core::Lag,
        now: Nanos,
    ) {
        let len = end.saturating_sub(start).max(1);
        // The tick's end, unless an overstep written moved the clock's grid from it (the lag,
        // rounded down at a fractional-ns period, may put it 1 ns off: not a move).
        let due_end = i128::from(step.0) - lag.as_nanos() + i128::from(len);
        self.due_end = if due_end.abs_diff(i128::from(end)) > 1 {
            u64::try_from(due_end.max(0)).unwrap_or(u64::MAX)
        } else {
            end
        };
        let over = now.0.saturating_sub(self.due_end);
        fixed_time(&mut self.fixed, start, end, Duration::from_nanos(over));
        self.moved = false;
        self.ran = true;
    }

    /// After the frame's runs: the overstep reaches virtual time `now` from the latest tick's
    /// due end, as Bevy's accumulator; `lag` is the loop's own lag for the clock, asked when
    /// its grid moved since that tick (the due end is then `now − lag`).
    pub(crate) fn settle(&mut self, now: Nanos, lag: Option<tickfold_core::Lag>) {
        if let Some(lag) = lag {
            let due_end = i128::from(now.0) - lag.as_nanos();
            self.due_end = u64::try_from(due_end.max(0)).unwrap_or(u64::MAX);
            self.moved = false;
        }
        set_overstep(
            &mut self.fixed,
            Duration::from_nanos(now.0.saturating_sub(self.due_end)),
        );
    }
}

/// The length of a clock's first tick at `rate` (whole ns, at least 1): the timestep
/// `Time<Fixed>` shows before a tick of that rate has run.
fn first_tick(rate: Period) -> Duration {
    Duration::from_nanos(rate.tick_start_nanos(1).max(1))
}

/// Sets `time` for a tick spanning `start .. end` ns with overstep `over`, in place (the wrap
/// period and everything else of the resource stay): timestep and delta the tick's whole-ns
/// length `end − start` (at least 1 ns), elapsed its end.
///
/// Elapsed is the core's tick end, so it never goes backwards (ticks start where the
/// previous ones ended or later) and may move forward by more than `delta`: over ticks
/// dropped since the previous run, and by the 1 ns the first tick after a rate change may
/// start past the old period's last tick end (the new period starts at the old grid's
/// boundary rounded up). Elapsed stays the exact simulation time of the tick's end; it is the
/// sum of the deltas only while no tick is dropped and the rate never changes. A start before
/// the current elapsed (after an overstep accumulated: the grid moved earlier) advances by the
/// tick's length, so elapsed stays the sum of the ticks' lengths, ahead of the tick's end, as
/// Bevy's does.
pub(crate) fn fixed_time(time: &mut Time<Fixed>, start: u64, end: u64, over: Duration) {
    let len = Duration::from_nanos(end.saturating_sub(start).max(1));
    if time.timestep() != len {
        time.set_timestep(len);
    }
    let start = Duration::from_nanos(start);
    if start > time.elapsed() {
        time.advance_to(start);
    }
    time.advance_by(len);
    set_overstep(time, over);
}

/// Sets `time`'s overstep to `over`.
#[inline]
fn set_overstep(time: &mut Time<Fixed>, over: Duration) {
    let had = time.overstep();
    if had != over {
        time.discard_overstep(had);
        time.accumulate_overstep(over);
    }
}

impl Tickfold {
    /// The plugin's resource for loop `state`, whose clocks, in order, run the schedules
    /// `labels` (the main clock first, `FixedMain`).
    pub(crate) fn new(state: LoopState, labels: &[InternedScheduleLabel]) -> Tickfold {
        let ids: Vec<ClockId> = state
            .clock_names()
            .filter_map(|name| state.clock(name).ok().map(|c| c.id()))
            .collect();
        let mut tf = Tickfold {
            state,
            clocks: Vec::with_capacity(ids.len()),
            events: Events::new(),
            render: None,
            frame_updates: 0,
            now: Nanos(0),
            taken: crate::schedules::Taken::default(),
            snapshot: None,
            scratch: Events::new(),
            touched: true,
            min_tick: None,
            unprepared: false,
            lent: false,
        };
        for (id, &label) in ids.into_iter().zip(labels) {
            tf.join(id, label);
        }
        // The main clock runs Bevy's `FixedMain`, in Bevy's own order.
        if let Some(main) = tf.clocks.first_mut() {
            main.prepared = true;
        }
        tf
    }

    /// Clock `id` of the loop joins the app, running schedule `label`: the one way in for
    /// declared clocks and clocks added at run time. Its schedule gets the `ClockSystems`
    /// order before the clocks next run (`crate::clock_schedule`).
    fn join(&mut self, id: ClockId, label: InternedScheduleLabel) {
        let Ok(clock) = self.state.clock(id) else {
            return;
        };
        let (name, rate) = (Arc::from(clock.name()), clock.rate());
        self.clocks
            .push(ClockEntry::new(id, name, Some(label)).with_first_tick(rate));
        self.unprepared = true;
    }

    /// The loop's `now` for a `Time<Virtual>` elapsed time: the same time, in whole ns (a
    /// load puts the saved reading back into `Time<Virtual>`).
    #[allow(clippy::unused_self)]
    pub(crate) fn loop_now(&self, elapsed: Duration) -> Nanos {
        Nanos(u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX))
    }

    /// The loop.
    #[must_use]
    pub fn state(&self) -> &LoopState {
        &self.state
    }

    /// The loop, for any control of [`LoopState`]. A clock added here, rather than with
    /// [`add_clock`](Self::add_clock), has no schedule: its ticks are counted and set
    /// [`CurrentTick`] but run nothing. Remove clocks with [`remove_clock`](Self::remove_clock),
    /// which refuses the main clock: removed here, `FixedMain` would stop and `Time<Fixed>`
    /// would be no clock's, so the plugin's next frame panics.
    pub fn state_mut(&mut self) -> &mut LoopState {
        self.touch();
        self.lent = true;
        &mut self.state
    }

    /// The main clock is still the loop's: [`remove_clock`](Self::remove_clock) refuses to
    /// remove it, but [`state_mut`](Self::state_mut) hands out the loop itself. Without it
    /// `FixedMain` would stop and every write to `Time<Fixed>` would go nowhere, silently.
    ///
    /// # Panics
    ///
    /// Once, at the frame after the main clock was removed through `state_mut`.
    pub(crate) fn check_main_clock(&mut self) {
        self.lent = false;
        if let Some(main) = self.clocks.first() {
            assert!(
                self.state.clock(main.id).is_ok(),
                "the main clock {:?} was removed through Tickfold::state_mut: it runs Bevy's FixedMain and is Time<Fixed>, so it stays (Tickfold::remove_clock refuses it with RemoveError::MainClock)",
                &*main.name
            );
        }
    }

    /// The loop changes other than by stepping: see [`touched`](Self::touched).
    pub(crate) fn touch(&mut self) {
        self.touched = true;
        self.min_tick = None;
    }

    /// A handle on one clock's run-time controls: `tickfold.clock_mut("physics")?.set_rate(..)`.
    ///
    /// # Errors
    ///
    /// [`NoSuchClock`]: no clock of the loop answers to `clock`.
    pub fn clock_mut<'a>(
        &mut self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<ClockMut<'_>, NoSuchClock> {
        self.touch();
        self.state.clock_mut(clock)
    }

    /// Adds a clock that runs schedule `label`, its tick 0 starting at virtual time `start`
    /// (`None`: now). See [`LoopState::add_clock`]. Like a clock declared on the plugin, its
    /// schedule is ordered by [`ClockSystems`](crate::ClockSystems) (and made, empty, if the
    /// app has none) before the clocks next run.
    ///
    /// # Errors
    ///
    /// Those of [`LoopState::add_clock`].
    pub fn add_clock(
        &mut self,
        label: impl ScheduleLabel,
        config: ClockConfig,
        start: Option<Nanos>,
    ) -> Result<ClockId, ConfigError> {
        self.touch();
        let id = self.state.add_clock(config, start)?;
        self.join(id, label.intern());
        Ok(id)
    }

    /// Removes clock `clock` (by name or id): its schedule stops running (the schedule itself
    /// stays in the app). See [`LoopState::remove_clock`].
    ///
    /// # Errors
    ///
    /// [`RemoveError::MainClock`] for the main clock: it runs Bevy's `FixedMain` and is
    /// `Time<Fixed>` between the runs, so every other clock, and the writes to `Time<Fixed>`
    /// in `Update`, depend on it. [`RemoveError::Loop`] for those of
    /// [`LoopState::remove_clock`]. Nothing changes on an error.
    pub fn remove_clock<'a>(
        &mut self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<ClockId, RemoveError> {
        let id = self
            .state
            .clock(clock)
            .map_err(|e| RemoveError::Loop(RemoveClockError::NoSuchClock(e)))?
            .id();
        if self.clocks.first().is_some_and(|main| main.id == id) {
            return Err(RemoveError::MainClock(id));
        }
        self.touch();
        let id = self.state.remove_clock(id).map_err(RemoveError::Loop)?;
        self.clocks.retain(|c| c.id != id);
        Ok(id)
    }

    /// The schedule clock `id` runs.
    #[must_use]
    pub fn schedule_of(&self, id: ClockId) -> Option<InternedScheduleLabel> {
        self.clocks
            .iter()
            .find(|c| c.id == id)
            .and_then(|c| c.label)
    }

    /// Clock `clock`'s `Time<Fixed>` (by name or id): its latest tick (elapsed its end,
    /// delta and timestep its whole-ns length) and the overstep past it to the latest frame's
    /// virtual time. Inside a run of the clock's schedule, `Res<Time<Fixed>>` is this; outside
    /// the runs `Res<Time<Fixed>>` is the main clock's, so read the other clocks' here (their
    /// `overstep_fraction()` for drawing between their ticks).
    ///
    /// # Errors
    ///
    /// [`NoSuchClock::Name`] or [`NoSuchClock::Id`]: no clock of the loop answers to `clock`.
    pub fn fixed_time<'a>(
        &self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<&Time<Fixed>, NoSuchClock> {
        let id = self.state.clock(clock)?.id();
        self.clocks
            .iter()
            .find(|c| c.id == id)
            .map(|c| &c.fixed)
            .ok_or(NoSuchClock::Id(id))
    }

    /// The render of the latest frame in which time passed: alpha and lag of the alpha clock
    /// (`None` before the first such frame and after `load_world` (feature `serde`) until
    /// the next). Any clock's alpha at the latest step is
    /// [`ClockHandle::alpha`](tickfold_core::ClockHandle::alpha) on [`state`](Self::state), which
    /// interpolated transforms read.
    #[must_use]
    pub fn render(&self) -> Option<Render> {
        self.render
    }

    /// Updates run in the latest frame, all clocks together.
    #[must_use]
    pub fn frame_updates(&self) -> u64 {
        self.frame_updates
    }

    /// Updates run in the latest frame by clock `id`.
    #[must_use]
    pub fn clock_frame_updates(&self, id: ClockId) -> u64 {
        self.clocks
            .iter()
            .find(|c| c.id == id)
            .map_or(0, |c| c.frame_updates)
    }

    /// Updates run by clock `id` since it joined the app (0 for a clock it does not have):
    /// the loop's own count, [`ClockStats::ticks_run`](tickfold_core::ClockStats::ticks_run).
    #[must_use]
    pub fn clock_ticks_run(&self, id: ClockId) -> u64 {
        self.state.clock(id).map_or(0, |c| c.stats().ticks_run)
    }

    /// Clock `id`'s name, shared (empty for a clock the loop does not have).
    pub(crate) fn name_of(&self, id: ClockId) -> Arc<str> {
        match self.clocks.iter().find(|c| c.id == id) {
            Some(c) => Arc::clone(&c.name),
            None => self
                .state
                .clock(id)
                .map_or_else(|_| Arc::from(""), |c| Arc::from(c.name())),
        }
    }

    pub(crate) fn entry(&mut self, id: ClockId) -> &mut ClockEntry {
        let i = match self.clocks.iter().position(|c| c.id == id) {
            Some(i) => i,
            None => {
                // A clock added through `state_mut`: no schedule.
                let name = self
                    .state
                    .clock(id)
                    .map_or_else(|_| Arc::from(""), |c| Arc::from(c.name()));
                self.clocks.push(ClockEntry::new(id, name, None));
                self.clocks.len() - 1
            }
        };
        &mut self.clocks[i]
    }
}

/// The tick being run, while a clock's schedule runs: which clock, its exact tick number,
/// start `t`, length `dt`, lag and whether it is the clock's last update of the frame.
/// Derefs to tickfold's [`Tick`].
///
/// Inserted at the first tick; outside the runs it holds the latest tick run (with
/// [`is_running`](Self::is_running) false), so systems outside the clock schedules read it as
/// `Option<Res<CurrentTick>>`.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct CurrentTick {
    pub(crate) tick: Tick,
    pub(crate) name: Arc<str>,
    pub(crate) running: bool,
}

impl CurrentTick {
    /// The tick.
    #[must_use]
    pub fn tick(&self) -> Tick {
        self.tick
    }

    /// The name of its clock.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a clock schedule is running this tick now.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.running
    }
}

impl Deref for CurrentTick {
    type Target = Tick;
    fn deref(&self) -> &Tick {
        &self.tick
    }
}

/// Why [`Tickfold::remove_clock`] refused to remove a clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoveError {
    /// The main clock: it runs Bevy's `FixedMain` (what physics and other plugins on
    /// `FixedUpdate` rely on) and is `Time<Fixed>` between the runs, so it stays as long as
    /// the plugin does. To stop `FixedUpdate`'s systems, give them a run condition.
    MainClock(ClockId),
    /// The loop's own refusal ([`LoopState::remove_clock`]): no clock answers to the name or
    /// id given.
    Loop(RemoveClockError),
}

impl core::fmt::Display for RemoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RemoveError::MainClock(id) => write!(
                f,
                "clock {id:?} is the main clock, which runs Bevy's FixedMain and is Time<Fixed>: it cannot be removed"
            ),
            RemoveError::Loop(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for RemoveError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            RemoveError::MainClock(_) => None,
            RemoveError::Loop(e) => Some(e),
        }
    }
}
