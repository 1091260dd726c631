//! The resources: [`Tickfold`] (the loop and its clocks' schedules) and [`CurrentTick`].

use core::ops::Deref;
use core::time::Duration;
use std::sync::Arc;

use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy_time::Time;
use tickfold_core::{
    ClockConfig, ClockError, ClockId, ClockMut, ClockRef, Events, LoopState, Nanos, Period, Render,
    Tick, TimeScale,
};

/// The tickfold loop of the app, stepped once per frame by [`TickfoldPlugin`](crate::TickfoldPlugin),
/// and which schedule each of its clocks runs.
///
/// Everything tickfold's [`LoopState`] offers is reachable here: the per-clock handle
/// ([`clock_mut`](Self::clock_mut): rate, cap, phase, hysteresis, overstep, grid reset),
/// clocks added and removed at run time ([`add_clock`](Self::add_clock),
/// [`remove_clock`](Self::remove_clock)), and the loop's pause, time scale and single-stepping
/// ([`set_paused`](Self::set_paused), [`set_time_scale`](Self::set_time_scale),
/// [`step_ticks`](Self::step_ticks)). Every control takes effect at the next frame's step and
/// is reported there (as a [`LoopNotice`](crate::LoopNotice) or
/// [`TicksDropped`](crate::TicksDropped) message).
///
/// These are tickfold's own controls: the loop reads Bevy's `Time<Real>`, so pausing or
/// slowing Bevy's `Time<Virtual>` does not pause or slow the tickfold clocks.
#[derive(Resource, Debug)]
pub struct Tickfold {
    pub(crate) state: LoopState,
    pub(crate) clocks: Vec<ClockEntry>,
    pub(crate) events: Events<Nanos>,
    pub(crate) render: Option<Render>,
    pub(crate) frame_updates: u64,
    /// Added to `Time<Real>`'s elapsed time to give the loop's `now`: nonzero after a loaded
    /// state put its latest reading at the app's clock.
    pub(crate) real_offset: i128,
}

/// One clock's schedule and the time its runs see.
#[derive(Debug)]
pub(crate) struct ClockEntry {
    pub(crate) id: ClockId,
    /// The clock's name, shared by the ticks and messages that carry it.
    pub(crate) name: Arc<str>,
    pub(crate) label: Option<InternedScheduleLabel>,
    /// Where the clock's current period started: `t` of tick `index` is
    /// `base_t + period.tick_start_nanos(index - base_index)`.
    base_index: u64,
    base_t: u64,
    period: Option<Period>,
    /// A rate change took effect from this tick: rebase there.
    rate_from: Option<u64>,
    pub(crate) frame_updates: u64,
    pub(crate) ticks_run: u64,
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
            base_index: 0,
            base_t: 0,
            period: None,
            rate_from: None,
            frame_updates: 0,
            ticks_run: 0,
        }
    }

    /// Where the clock's current period started, a pending rate change and the ticks run:
    /// what a save keeps so that a loaded run sets `Time` exactly as the original.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn grid(&self) -> (u64, u64, Option<Period>, Option<u64>, u64) {
        (
            self.base_index,
            self.base_t,
            self.period,
            self.rate_from,
            self.ticks_run,
        )
    }

    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn set_grid(&mut self, grid: (u64, u64, Option<Period>, Option<u64>, u64)) {
        (
            self.base_index,
            self.base_t,
            self.period,
            self.rate_from,
            self.ticks_run,
        ) = grid;
    }

    pub(crate) fn rate_changed(&mut self, from_tick: u64) {
        self.rate_from = Some(from_tick);
    }

    /// The tick's exact span on the clock's grid in whole ns: `(t, end)`, where `end` is the
    /// next tick's `t` (the grid's next boundary, rounded down like `t`).
    pub(crate) fn span(&mut self, tick: &Tick) -> (u64, u64) {
        let on_grid = |e: &ClockEntry| {
            e.period == Some(tick.dt)
                && tick.index >= e.base_index
                && e.base_t + tick.dt.tick_start_nanos(tick.index - e.base_index) == tick.t.0
        };
        if self.rate_from.is_some() || !on_grid(self) {
            // The period started at `from`, whose start is a whole ns B; later ticks start at
            // B + floor(j·dt), so B is exact whichever tick of the period comes first.
            let from = self.rate_from.take().filter(|&f| f <= tick.index);
            let (index, t) = match from {
                Some(f) => (f, tick.t.0 - tick.dt.tick_start_nanos(tick.index - f)),
                None => (tick.index, tick.t.0),
            };
            self.base_index = index;
            self.base_t = t;
            self.period = Some(tick.dt);
            debug_assert!(on_grid(self));
        }
        let end = self.base_t + tick.dt.tick_start_nanos(tick.index + 1 - self.base_index);
        (tick.t.0, end)
    }
}

/// Bevy's generic `Time` during a run of a clock's schedule, set as `run_fixed_main_schedule`
/// sets it from `Time<Fixed>`: `elapsed` is the end of the tick (the first run of a 64 Hz
/// clock sees 15.625 ms), `delta` the tick's length. On an exact grid that length is the
/// tick's whole-ns span (16,666,666 or 16,666,667 ns at 60 Hz, summing to exactly 1 s per
/// 60 ticks); [`Tick::dt`] is the exact fraction.
pub(crate) fn fixed_time(start: u64, end: u64) -> Time {
    let mut time = Time::<()>::default();
    time.advance_to(Duration::from_nanos(start));
    time.advance_by(Duration::from_nanos(end - start));
    time
}

impl Tickfold {
    pub(crate) fn new(state: LoopState, labels: &[InternedScheduleLabel]) -> Tickfold {
        let clocks = state
            .clock_names()
            .zip(labels)
            .map(|(name, &label)| {
                let id = state.clock_id(name).expect("the loop's own clock");
                ClockEntry::new(id, Arc::from(name), Some(label))
            })
            .collect();
        Tickfold {
            state,
            clocks,
            events: Events::new(),
            render: None,
            frame_updates: 0,
            real_offset: 0,
        }
    }

    /// The loop's `now` for a `Time<Real>` elapsed time.
    pub(crate) fn loop_now(&self, elapsed: Duration) -> Nanos {
        let now = i128::try_from(elapsed.as_nanos()).unwrap_or(i128::MAX) + self.real_offset;
        Nanos(u64::try_from(now.max(0)).unwrap_or(u64::MAX))
    }

    /// The loop.
    #[must_use]
    pub fn state(&self) -> &LoopState {
        &self.state
    }

    /// The loop, for any control of [`LoopState`]. A clock added here, rather than with
    /// [`add_clock`](Self::add_clock), has no schedule: its ticks are counted and set
    /// [`CurrentTick`] but run nothing.
    pub fn state_mut(&mut self) -> &mut LoopState {
        &mut self.state
    }

    /// A handle on one clock's run-time controls: `tickfold.clock_mut("physics")?.set_rate(..)`.
    ///
    /// # Errors
    ///
    /// [`ClockError::UnknownClock`] or [`ClockError::UnknownId`].
    pub fn clock_mut<'a>(
        &mut self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<ClockMut<'_>, ClockError> {
        self.state.clock_mut(clock)
    }

    /// Adds a clock that runs schedule `label` (created empty if the app has none yet), its
    /// tick 0 starting at virtual time `start` (`None`: now). See [`LoopState::add_clock`].
    ///
    /// # Errors
    ///
    /// Those of [`LoopState::add_clock`].
    pub fn add_clock(
        &mut self,
        label: impl ScheduleLabel,
        config: ClockConfig,
        start: Option<Nanos>,
    ) -> Result<ClockId, ClockError> {
        let name: Arc<str> = Arc::from(config.name());
        let id = self.state.add_clock(config, start)?;
        self.clocks
            .push(ClockEntry::new(id, name, Some(label.intern())));
        Ok(id)
    }

    /// Removes clock `clock` (by name or id): its schedule stops running (the schedule itself
    /// stays in the app). See [`LoopState::remove_clock`].
    ///
    /// # Errors
    ///
    /// Those of [`LoopState::remove_clock`].
    pub fn remove_clock<'a>(
        &mut self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<ClockId, ClockError> {
        let id = self.state.remove_clock(clock)?;
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

    /// Pauses or resumes the tickfold clocks ([`VirtualTimeMut::set_paused`]). While paused no
    /// clock schedule runs.
    pub fn set_paused(&mut self, paused: bool) {
        self.state.virtual_time_mut().set_paused(paused);
    }

    /// Changes the time scale of the tickfold clocks, exactly ([`VirtualTimeMut::set_scale`]).
    pub fn set_time_scale(&mut self, scale: TimeScale) {
        self.state.virtual_time_mut().set_scale(scale);
    }

    /// Runs exactly `n` more ticks of the alpha clock at the next frame, then stays paused
    /// ([`VirtualTimeMut::step_ticks`]); the other clocks run the ticks due by then.
    pub fn step_ticks(&mut self, n: u64) {
        self.state.virtual_time_mut().step_ticks(n);
    }

    /// The render of the latest frame: alpha and lag of the alpha clock, for interpolation.
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

    /// Updates run by clock `id` since it joined the app (0 for a clock it does not have).
    #[must_use]
    pub fn clock_ticks_run(&self, id: ClockId) -> u64 {
        self.clocks
            .iter()
            .find(|c| c.id == id)
            .map_or(0, |c| c.ticks_run)
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
