//! What one step of the fold reports: updates, renders, sleeps, drops, and controls.

use crate::values::id::ClockId;
use crate::values::rate::{Period, TimeScale};
use crate::values::time::{Lag, Nanos};

/// One fixed update the shell must run.
///
/// # Examples
///
/// ```
/// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// let (mut previous, mut current) = (0.0_f64, 0.0_f64); // a position moving at 3 units/s
/// let events = state.advance(Nanos::from_millis(70)); // ticks 0, 1 and 2 are due
/// for event in &events {
///     if let Event::Update(tick) = event {
///         assert_eq!(tick.clock, state.alpha_clock()); // the only clock here: "main"
///         assert_eq!(tick.dt, Period::from_hz(50)?);
///         assert_eq!(tick.t, Nanos::from_millis(20 * tick.index)); // index·dt, exactly
///         // How far simulation time was behind `now` (70 ms) when this tick ran.
///         assert_eq!(tick.lag.behind(), Nanos::from_millis(70 - 20 * tick.index));
///         if tick.last_in_step {
///             previous = current; // the capture rule: before the step's last update only
///         }
///         current += 3.0 * tick.dt_secs(); // the update: always the fixed dt
///     }
/// }
/// assert_eq!(events.updates().filter(|tick| tick.last_in_step).count(), 1);
/// assert!((previous - 0.12).abs() < 1e-12 && (current - 0.18).abs() < 1e-12);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tick {
    /// The clock this tick belongs to.
    pub clock: ClockId,
    /// The tick number: 0, 1, 2, … with jumps only across reported drops.
    pub index: u64,
    /// Simulation time at the start of this tick: the exact sum of the lengths of the ticks
    /// before it (run or dropped), rounded down to whole nanoseconds. While the period never
    /// changed this is `index`·dt, whatever resets or late [`Policy::Delay`] slots did to
    /// the grid (60 ticks at 60 Hz are exactly 1 s). After
    /// [`set_rate`](crate::ClockMut::set_rate), the ticks of the new period start at the
    /// old grid's boundary rounded up to a whole ns, the instant their due times (and so
    /// [`lag`](Self::lag)) are measured from: for a catch-up tick, `t + lag` is the step's
    /// virtual time, or one ns less when the tick's start is not a whole ns.
    ///
    /// [`Policy::Delay`]: crate::Policy::Delay
    pub t: Nanos,
    /// The fixed tick length.
    pub dt: Period,
    /// How far simulation time was behind virtual time just before this tick ran, rounded
    /// down: the `lag` of the purely functional Scheme loop's trace. For [`Policy::CatchUp`]
    /// it is `now` less the tick's start on the clock's grid (`index·dt`, shifted by the
    /// phase and by any control that moved the grid), exact at any distance; a tick the *nearest* rule fires early
    /// still has a positive lag (less than one tick), and one hysteresis fires before
    /// `index·dt` has a negative one. For the constant-rate policies it is the time since the
    /// slot started, 0 when the shell sleeps until the slot.
    ///
    /// **Not how late the tick ran.** It is measured from the tick's *start*, and a catch-up
    /// tick runs only once its whole length has passed (it is due at its end, `t + dt`), so
    /// a catch-up tick's lag is at least `dt` (less only when the nearest rule or hysteresis
    /// fired it early): at 10 Hz every tick's lag is 100 ms or more, and a check such as
    /// `tick.lag.behind() > 50 ms` is always true. How late a catch-up tick ran past its due
    /// time is `lag − dt`: a step at 250 ms at 10 Hz runs tick 0 (lag 250 ms, 150 ms late) and
    /// tick 1 (lag 150 ms, 50 ms late). For the constant-rate policies a slot is due at its
    /// start, so the lag is that lateness itself. [`Render::lag`] is another reading: the
    /// alpha clock's lag after the step's updates, measured from the start of the tick in
    /// progress, so within one tick (`alpha = lag / dt`).
    ///
    /// ```
    /// use core::time::Duration;
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(250));
    /// let dt = Duration::from_millis(100);
    /// let lags: Vec<u64> = events.updates().map(|t| t.lag.behind().0 / 1_000_000).collect();
    /// assert_eq!(lags, [250, 150]); // each at least dt: measured from the tick's start
    /// let late: Vec<u64> = events
    ///     .updates()
    ///     .map(|t| (Duration::from(t.lag.behind()).saturating_sub(dt)).as_millis() as u64)
    ///     .collect();
    /// assert_eq!(late, [150, 50]); // past each tick's due time, its end
    /// // The render's lag: 50 ms into tick 2, the one in progress.
    /// let render = events.render().expect("the first step draws");
    /// assert_eq!((render.lag.behind(), render.alpha), (Nanos::from_millis(50), 0.5));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    ///
    /// [`Policy::CatchUp`]: crate::Policy::CatchUp
    pub lag: Lag,
    /// `true` for the last update of its step on this tick's clock: the state before it is the
    /// one a renderer interpolates from, so it is the only update that needs a snapshot.
    ///
    /// **The capture rule.** A render blends the state before the step's last update with the
    /// state after it, so a snapshot for interpolation is taken before that update only; a
    /// step that catches up with N updates copies once, not N times (exactly the steps in
    /// which the machine is already behind). Nothing that happens in the earlier updates
    /// reaches the render: a teleport there is history by the time the previous state is
    /// captured, an entity spawned there has a previous value by then (its value after the
    /// update before last), one despawned there is gone from both states. Teleports, spawns
    /// and despawns during the last update itself are what a renderer must honour. The flag is
    /// per clock: with several clocks, capture for the clock whose state you interpolate and
    /// whose alpha the render carries ([`LoopConfig::alpha_clock`](crate::LoopConfig)), and
    /// ignore the others' flags. [`Columns::before_update`](crate::Columns::before_update)
    /// applies this rule, and every snapshot adapter goes through it.
    pub last_in_step: bool,
}

impl Tick {
    /// The tick length in seconds, for the simulation (`dt` never accumulates).
    #[must_use]
    pub fn dt_secs(&self) -> f64 {
        self.dt.dt_secs_f64()
    }
}

/// Where a tick a clock ran lies in simulation time: what
/// [`ClockHandle::latest_tick`](crate::ClockHandle::latest_tick) answers between steps.
///
/// `t` and `end` are the tick's [`Tick::t`] and its [`Events::tick_end`](crate::Events::tick_end),
/// exact and rounded down, so `end − t` is the tick's length in whole ns. A shell that shows a
/// clock's elapsed time between frames (Bevy's `Time<Fixed>`: elapsed `end`, delta `end − t`)
/// reads it here, from the state alone, instead of keeping it beside the state.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TickSpan};
///
/// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// assert_eq!(state.clock("main")?.latest_tick(), None); // nothing ran yet
/// let (state, _) = state.step(Nanos::from_millis(40));
/// let latest = state.clock("main")?.latest_tick().expect("ticks 0 and 1 ran");
/// assert_eq!((latest.index, latest.t, latest.end), (1, Nanos(16_666_666), Nanos(33_333_333)));
/// assert_eq!(latest.dt, Period::from_hz(60)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TickSpan {
    /// The tick number ([`Tick::index`]).
    pub index: u64,
    /// Simulation time at the tick's start ([`Tick::t`]).
    pub t: Nanos,
    /// Simulation time at the tick's end: the start of the grid point after it, rounded down
    /// (the next tick's `t` while the period holds).
    pub end: Nanos,
    /// The tick length the tick ran with ([`Tick::dt`]); the clock's rate may have changed
    /// since.
    pub dt: Period,
}

impl<T> Event<T> {
    /// The same event with its time (a [`Sleep`](Event::Sleep)'s `until`, the only field of
    /// type `T`) mapped through `f`; every other event is copied as it is. The one place that
    /// rewraps an event, for a shell that converts times or compares events by reference.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, Nanos};
    ///
    /// let sleep = Event::Sleep { until: Nanos(1_500) };
    /// assert_eq!(sleep.map_time(|until| until.0 / 1_000), Event::Sleep { until: 1 });
    /// let paused: Event<Nanos> = Event::Paused;
    /// assert_eq!(paused.map_time(|until| until.0), Event::Paused);
    /// ```
    #[must_use]
    pub fn map_time<'a, U>(&'a self, f: impl FnOnce(&'a T) -> U) -> Event<U> {
        match *self {
            Event::TimeBackwards { by } => Event::TimeBackwards { by },
            Event::DiscardedTime {
                clock,
                time,
                first,
                ticks,
            } => Event::DiscardedTime {
                clock,
                time,
                first,
                ticks,
            },
            Event::DroppedTicks {
                clock,
                first,
                count,
                reason,
            } => Event::DroppedTicks {
                clock,
                first,
                count,
                reason,
            },
            Event::Sleep { ref until } => Event::Sleep { until: f(until) },
            Event::Update(tick) => Event::Update(tick),
            Event::Deferred { clock, ticks } => Event::Deferred { clock, ticks },
            Event::Render(render) => Event::Render(render),
            Event::EndOfTime { clock, next_tick } => Event::EndOfTime { clock, next_tick },
            Event::Paused => Event::Paused,
            Event::Resumed => Event::Resumed,
            Event::ScaleChanged(scale) => Event::ScaleChanged(scale),
            Event::RateChanged {
                clock,
                period,
                from_tick,
            } => Event::RateChanged {
                clock,
                period,
                from_tick,
            },
        }
    }
}

/// A frame to draw.
///
/// # Examples
///
/// ```
/// use tickfold_core::{Interpolate, LoopConfig, LoopState, Nanos, Period};
///
/// let state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// let (_, events) = state.step(Nanos::from_millis(50)); // ticks 0 and 1, 10 ms of lag
/// let render = *events.render().expect("the first step always renders");
/// assert_eq!(render.alpha, 0.5);
/// assert_eq!(render.lag.behind(), Nanos::from_millis(10));
/// assert_eq!(render.ticks, 2);
/// assert!(!render.paused);
/// // Draw between the state before tick 1 (2.0) and after it (3.0).
/// assert_eq!(2.0_f64.interpolate(&3.0, render.alpha), 2.5);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Render {
    /// Where to draw between the previous tick's state (0) and the current tick's state (1).
    /// Always in `[0, 1]`: `lag / dt` for [`Policy::CatchUp`](crate::Policy::CatchUp), clamped
    /// when a cap or hysteresis leaves the lag outside one tick; `1` for the constant-rate
    /// policies, which draw the state the update just produced.
    pub alpha: f64,
    /// The alpha clock's exact lag behind virtual time after this step's updates, rounded down:
    /// virtual time less the start of the tick in progress (the next one to run), so within
    /// `[0, dt)` when the clock is caught up, and `alpha = lag / dt`. At 10 Hz and 250 ms it is
    /// 50 ms (alpha 0.5), while the step's two ticks had lags of 250 and 150 ms: a
    /// [`Tick::lag`] is measured from *that* tick's start, so it includes the tick itself.
    /// More than `dt` only when ticks are owed (a cap deferred them; alpha is then clamped to
    /// 1). Early (negative) only when a tick ran before its due time (hysteresis or the
    /// nearest rule); 0 for the constant-rate policies.
    pub lag: Lag,
    /// Ticks run so far on the alpha clock (see
    /// [`LoopConfig::alpha_clock`](crate::LoopConfig::alpha_clock)): the current state is the
    /// result of tick `ticks − 1` when no tick was dropped.
    pub ticks: u64,
    /// The loop is paused: no updates ran and alpha is frozen.
    pub paused: bool,
    /// The frame's delta: the virtual time this step moved, exactly (0 while paused, scaled
    /// by the time scale; after single-stepping, the ticks stepped). The max frame delta does
    /// not shorten it: virtual time moves the whole frame, and the ticks beyond the limit are
    /// dropped and reported as [`Event::DiscardedTime`] (after a 1 s hitch with the default
    /// 250 ms limit, `delta` is 1 s, and 750 ms of ticks are discarded). An animation that
    /// must not jump after a hitch clamps `delta` itself. Virtual, not real, because what a
    /// render animates with it (particles, easing, a camera's smoothing) lives in the same
    /// time as the ticks it blends between: a pause freezes it and slow motion slows it. The
    /// real delta is [`RealTimeMut::delta`](crate::RealTimeMut::delta). The same value as
    /// [`VirtualTimeMut::delta`](crate::VirtualTimeMut::delta) after the step.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let _ = state.advance(Nanos(0));
    /// let events = state.advance(Nanos::from_secs(1)); // a 1 s hitch, a 250 ms limit
    /// assert_eq!(events.render().map(|r| r.delta), Some(Nanos::from_secs(1)));
    /// let discarded = events.iter().find_map(|e| match e {
    ///     Event::DiscardedTime { time, .. } => Some(time),
    ///     _ => None,
    /// });
    /// assert_eq!(discarded, Some(Nanos::from_millis(750)));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub delta: Nanos,
}

/// Why a step could not account for a stretch of time.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum DropReason {
    /// Constant-rate policies: these slots passed before their update could run.
    SlotMissed,
    /// A control threw these ticks away on request:
    /// [`ClockMut::discard_overstep`](crate::ClockMut::discard_overstep) or
    /// [`ClockMut::reset_grid`](crate::ClockMut::reset_grid).
    Discarded,
}

/// Something the shell must do or know, in the order it happened.
///
/// New kinds of events may be added: a `match` outside this crate needs a `_ =>` arm.
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Event<T> {
    /// The clock moved backwards by `by` ns. The rule: no time passes, the loop keeps its latest
    /// `now` and measures the next step from there, nothing renders.
    TimeBackwards {
        /// How far before the latest `now` the step's `now` was.
        by: Nanos,
    },
    /// The step moved virtual time further than the max frame delta allows, and `clock` lost
    /// ticks to it. Virtual time still advances in full, but `clock` keeps due only as many
    /// ticks as were due by the later of the step's start plus the max frame delta and the due
    /// time of its next tick at the start of the step (the time the fold asked the shell to
    /// wait for is never a stall). The others, as many as came due after that, are dropped
    /// oldest first: `first .. first + ticks` are the clock's next tick numbers, and they will
    /// never run (the tick number jumps over them, like the dropped iterations of a
    /// constant-rate loop). The ticks that do run are the newest due, up to the step's virtual
    /// time. Reported for each clock that drops at least one tick.
    ///
    /// Also reported after the updates (before any [`Deferred`](Event::Deferred)) when the
    /// backlog the cap deferred falls more than the max frame delta behind under sustained
    /// overload: every catch-up clock then gives up its oldest owed ticks, those due by the
    /// step's virtual time less half the max frame delta; `time` is then the span of the
    /// clock's grid they cover (`ticks × dt`, on the grid's whole ns). See
    /// [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta).
    ///
    /// A give-up after the updates can be taken back: refusing the step's last update of
    /// that clock ([`LoopState::refuse`](crate::LoopState::refuse)) undoes it with the run,
    /// the clock owes those ticks again, and the step that runs the refused tick again gives
    /// up what is then too old, in a new `DiscardedTime`. So a sum of these events counts a
    /// refused give-up twice: after a refusal, subtract what the clock's
    /// [`ClockStats::time_discarded`](crate::ClockStats::time_discarded) went down by, or
    /// read the totals the loop keeps (that one, and
    /// [`VirtualTimeHandle::time_discarded`](crate::VirtualTimeHandle::time_discarded)),
    /// which a refusal corrects.
    DiscardedTime {
        /// The clock.
        clock: ClockId,
        /// The virtual time discarded for this clock: the step's virtual time less the limit
        /// described above. The dropped ticks are the ones due within that span, so `ticks ×
        /// dt` is within one tick of `time`, not equal to it: 10 Hz, a 250 ms max frame delta
        /// and a first step at 300 ms discard 50 ms and drop one tick (tick 2, due at 300 ms).
        /// Virtual time itself advances in full. Counted in
        /// [`ClockStats::time_discarded`](crate::ClockStats::time_discarded), and for the loop
        /// in [`VirtualTimeHandle::time_discarded`](crate::VirtualTimeHandle::time_discarded).
        time: Nanos,
        /// The first dropped tick number.
        first: u64,
        /// How many ticks were dropped.
        ticks: u64,
    },
    /// Ticks `first .. first + count` of `clock` will never run.
    DroppedTicks {
        /// The clock whose ticks were dropped.
        clock: ClockId,
        /// The first dropped tick number.
        first: u64,
        /// How many consecutive ticks were dropped.
        count: u64,
        /// Why.
        reason: DropReason,
    },
    /// Sleep until `until` before handling the next event (constant-rate policies).
    Sleep {
        /// When the next update's slot starts.
        until: T,
    },
    /// Run one fixed update.
    Update(Tick),
    /// The per-step cap stopped this step with `ticks` ticks of `clock` still due: its own
    /// cap, or another clock's, whose deferred tick holds back every tick due after it (a step
    /// runs a prefix of the loop's due-time order, see
    /// [`ClockConfig::max_updates`](crate::ClockConfig::max_updates)). They stay in the
    /// backlog and run in later steps; the deadline is "now". A constant-rate clock's slot held
    /// back that way is reported too (a refused slot that waits to run late counts the slots
    /// started since as due); every clock left with due ticks reports one, after the updates.
    /// With a max frame delta the backlog never holds more than its worth of ticks: older ones
    /// are given up first ([`Event::DiscardedTime`], just before this event), and `ticks`
    /// counts what is left.
    Deferred {
        /// The clock with a backlog.
        clock: ClockId,
        /// How many ticks are due but not yet run.
        ticks: u64,
    },
    /// Draw a frame.
    Render(Render),
    /// `clock` has reached the end of the time axis: its tick `next_tick` and every later one
    /// never run. Either that tick would come due after `u64::MAX` ns of virtual time (584
    /// years after the loop's start), or its number is `u64::MAX`, the last a tick number can
    /// hold, which never runs even when it comes due in time (with 1 ns constant-rate slots
    /// from the loop's start, slot `u64::MAX` starts at exactly `u64::MAX` ns). The clock's
    /// grid stops there; it runs and drops nothing more. Reported once per clock, at the first
    /// step that finds it there.
    EndOfTime {
        /// The clock that ran out of time.
        clock: ClockId,
        /// The first tick that never comes due.
        next_tick: u64,
    },
    /// The loop was paused since the previous step.
    Paused,
    /// The loop was resumed since the previous step.
    Resumed,
    /// The time scale changed since the previous step, taking effect from the previous `now`.
    ScaleChanged(TimeScale),
    /// [`ClockMut::set_rate`](crate::ClockMut::set_rate) changed `clock`'s tick length since
    /// the previous step. Tick numbers continue: tick `from_tick` is the first of the new
    /// period, and its interval starts where the previous tick's ended.
    RateChanged {
        /// The clock.
        clock: ClockId,
        /// Its new tick length.
        period: Period,
        /// The first tick of the new period.
        from_tick: u64,
    },
}
