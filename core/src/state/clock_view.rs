//! One clock of a running loop, as a view (`state.clock("physics")?.rate()`) and a handle
//! (`state.clock_mut("physics")?.set_rate(..)`). The readers are written once, for both; the
//! per-clock controls are on the handle.

use core::fmt;

use crate::access::{Access, Exclusive, Shared};
use crate::clock::Clock;
use crate::config::{ClockConfig, Firing, Policy};
use crate::error::NoSuchClock;
use crate::state::stats::ClockStats;
use crate::state::{Inner, LoopState};
use crate::values::event::TickSpan;
use crate::values::id::ClockId;
use crate::values::id::ClockRef;
use crate::values::rate::Period;
use crate::values::time::Nanos;

mod controls;

/// One clock of a loop, borrowed for its numbers and settings, and with [`Exclusive`] access
/// for its controls: [`ClockView`] from [`LoopState::clock`], [`ClockMut`] from
/// [`LoopState::clock_mut`]. One type, so both read alike (see [`Access`]).
///
/// Every control takes effect at the next step and is reported there (a rate change as
/// [`Event::RateChanged`](crate::Event::RateChanged), dropped ticks as
/// [`Event::DroppedTicks`](crate::Event::DroppedTicks)). Controls that cannot fail return the
/// handle again, so they chain.
///
/// # Examples
///
/// ```
/// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
///
/// let config = LoopConfig::new(Period::from_hz(60)?)
///     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
/// let mut state = LoopState::new(config, Nanos(0))?;
/// let _ = state.advance(Nanos::from_millis(250));
/// // The AI thinks twice as often from its next tick on, and a stall is forgotten.
/// state.clock_mut("ai")?.set_rate(Period::from_hz(20)?).reset_grid();
/// assert_eq!(state.clock("ai")?.rate(), Period::from_hz(20)?);
/// assert!(state.clock_mut("nope").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ClockHandle<'a, T: 'a = Nanos, A: Access = Shared> {
    inner: A::Ref<'a, Inner<T>>,
    i: usize,
}

/// One clock of a loop, read-only: from [`LoopState::clock`] (`&LoopState` is enough). `Copy`.
/// Its readers are [`ClockHandle`]'s.
///
/// # Examples
///
/// ```
/// use tickfold_core::{ClockConfig, ClockView, LoopConfig, LoopState, Nanos, Period};
///
/// fn describe<T>(clock: ClockView<'_, T>) -> String {
///     format!("{}: tick {} next, phase {}", clock.name(), clock.stats().next_tick, clock.phase())
/// }
/// let config = LoopConfig::new(Period::from_hz(60)?)
///     .clock(ClockConfig::new("ai", Period::from_hz(10)?).phase(0.5));
/// let mut state = LoopState::new(config, Nanos(0))?;
/// let _ = state.advance(Nanos::from_millis(100));
/// assert_eq!(describe(state.clock("ai")?), "ai: tick 1 next, phase 0.5");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type ClockView<'a, T = Nanos> = ClockHandle<'a, T, Shared>;

/// One clock of a loop, with its controls: from [`LoopState::clock_mut`]. Its readers and
/// controls are [`ClockHandle`]'s.
///
/// # Examples
///
/// ```
/// use tickfold_core::{ClockMut, LoopConfig, LoopState, Nanos, Period};
///
/// fn slow_down(mut clock: ClockMut<'_>) {
///     if clock.rate() == Period::from_hz(60).expect("a valid rate") {
///         clock.set_rate(Period::from_hz(30).expect("a valid rate"));
///     }
/// }
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// slow_down(state.clock_mut("main")?);
/// assert_eq!(state.clock("main")?.rate(), Period::from_hz(30)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type ClockMut<'a, T = Nanos> = ClockHandle<'a, T, Exclusive>;

impl<T> Clone for ClockView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ClockView<'_, T> {}

impl<T, A: Access> fmt::Debug for ClockHandle<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClockHandle")
            .field("config", self.config())
            .field("stats", &self.stats())
            .finish()
    }
}

impl<T> LoopState<T> {
    /// `clock` (a name or a [`ClockId`]), read-only, through `&self`: its id, name, rate,
    /// settings (cap, phase, hysteresis, policy, firing rule) and numbers, the same as
    /// [`clock_mut`](Self::clock_mut)'s.
    ///
    /// # Errors
    ///
    /// [`NoSuchClock::Name`] or [`NoSuchClock::Id`]: no clock of the loop answers to `clock`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?)
    ///     .clock(ClockConfig::new("ai", Period::from_hz(10)?).max_updates(Some(2)));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(250));
    /// let shared = &state; // what a `Runner` handler gets
    /// let ai = shared.clock("ai")?;
    /// assert_eq!((ai.rate(), ai.max_updates()), (Period::from_hz(10)?, Some(2)));
    /// // Main's cap (8) defers its ticks from 133 ms on, so AI's tick 1 (due at 200 ms) waits:
    /// // a step runs a prefix of the loop's due-time order.
    /// assert_eq!((ai.stats().ticks_run, ai.stats().pending), (1, 1));
    /// assert!(shared.clock("physics").is_err()); // no such clock
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clock<'a>(
        &self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<ClockView<'_, T>, NoSuchClock> {
        let i = self.inner.clocks.position(clock.into())?;
        Ok(ClockHandle {
            inner: &self.inner,
            i,
        })
    }

    /// A handle on `clock` (a name or a [`ClockId`]) for its run-time controls: rate, cap,
    /// phase, hysteresis, overstep and grid reset.
    ///
    /// # Errors
    ///
    /// [`NoSuchClock::Name`] or [`NoSuchClock::Id`]: no clock of the loop answers to `clock`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(30)?), Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(100));
    /// // By name or by `ClockId`; the change is reported and applied at the next step.
    /// state.clock_mut("main")?.set_rate(Period::from_hz(60)?);
    /// let events = state.advance(Nanos::from_millis(120));
    /// assert!(events.iter().any(|e| matches!(e, Event::RateChanged { from_tick: 3, .. })));
    /// assert_eq!(state.clock("main")?.rate(), Period::from_hz(60)?);
    /// assert!(state.clock_mut("physics").is_err()); // no such clock
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clock_mut<'a>(
        &mut self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<ClockMut<'_, T>, NoSuchClock> {
        let i = self.inner.clocks.position(clock.into())?;
        Ok(ClockHandle {
            inner: &mut self.inner,
            i,
        })
    }
}

/// The readers, the same for the view and the handle.
impl<T, A: Access> ClockHandle<'_, T, A> {
    fn clock(&self) -> &Clock {
        &self.inner.clocks[self.i]
    }

    /// The clock's id.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let id = state.clock("main")?.id();
    /// assert_eq!(id, state.alpha_clock()); // the only clock
    /// assert_eq!(state.clock(id)?.name(), "main");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn id(&self) -> ClockId {
        self.clock().id()
    }

    /// The clock's name.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let id = state.alpha_clock();
    /// assert_eq!(state.clock(id)?.name(), "main");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn name(&self) -> &str {
        self.clock().config().name()
    }

    /// The clock's tick length.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// assert_eq!(state.clock("main")?.rate(), Period::from_hz(60)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn rate(&self) -> Period {
        self.clock().rate()
    }

    /// The clock's configuration as it stands (its rate, cap, phase, hysteresis, policy).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let mut main = state.clock_mut("main")?;
    /// main.set_phase(0.5)?;
    /// assert_eq!(*main.config(), ClockConfig::new("main", Period::from_hz(60)?).phase(0.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn config(&self) -> &ClockConfig {
        self.clock().config()
    }

    /// The clock's numbers at the latest step (see [`ClockStats`]).
    ///
    /// **When.** Outside a handler, the end of the latest step. In a handler given an update
    /// through [`LoopState::as_of`] (the runner's and winit's handlers,
    /// [`LoopState::hand_on`]), the counts as of that tick in the loop's total order (see
    /// there which); the end of the step is [`stats_at_step_end`](Self::stats_at_step_end).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(50));
    /// let stats = state.clock("main")?.stats();
    /// assert_eq!((stats.ticks_run, stats.alpha), (2, 0.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn stats(&self) -> ClockStats {
        self.inner.stats_of(self.clock())
    }

    /// The clock's numbers at the end of the latest step, wherever the readings stand: what
    /// [`stats`](Self::stats) gives outside a handler.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(250)); // ticks 0 and 1
    /// let mut seen = Vec::new();
    /// state.hand_on(&events, |event, state| {
    ///     if let Event::Update(_) = event {
    ///         let main = state.clock("main").expect("the loop's clock");
    ///         seen.push((main.stats().ticks_run, main.stats_at_step_end().ticks_run));
    ///     }
    /// })?;
    /// assert_eq!(seen, [(1, 2), (2, 2)]); // as of each tick, then the step's end
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn stats_at_step_end(&self) -> ClockStats {
        self.inner.stats_at_step_end(self.clock())
    }

    /// Where a renderer stands between this clock's previous and current tick after the
    /// latest step, in `[0, 1]`: [`Render::alpha`](crate::Render::alpha) for the alpha clock.
    /// Allocates nothing (unlike [`stats`](Self::stats), which copies the name).
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(150));
    /// let render = events.render().expect("a frame");
    /// assert_eq!((render.alpha, state.clock("main")?.alpha()), (0.5, 0.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn alpha(&self) -> f64 {
        self.clock().alpha(self.inner.virt.now()).0
    }

    /// The latest tick this clock ran, with where it starts and ends in simulation time
    /// (see [`TickSpan`]); `None` before its first tick. A tick a shell
    /// [refused](LoopState::refuse) no longer counts (the one before it does), and controls
    /// that restart the grid after it (a rate change, a reset) leave it as it ran. It is part
    /// of the state, so a loaded save answers the same: a shell that shows a clock's time
    /// between frames (Bevy's `Time<Fixed>`) needs nothing besides the state.
    ///
    /// **When.** Outside a handler, the end of the latest step. In a handler given an update
    /// through [`LoopState::as_of`] (the runner's and winit's handlers,
    /// [`LoopState::hand_on`]), the latest tick as of that update in the loop's total order:
    /// the update itself for its own clock, for another clock its last tick that comes before
    /// it (by due time, ties to the clock declared first), the same however frames slice
    /// time. The end of the step is [`latest_tick_at_step_end`](Self::latest_tick_at_step_end).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(20)); // tick 0 runs
    /// state.clock_mut("main")?.set_rate(Period::from_hz(50)?);
    /// let latest = state.clock("main")?.latest_tick().expect("tick 0 ran");
    /// // Tick 0 as it ran, at 60 Hz: from 0 to 16,666,666 ns.
    /// assert_eq!((latest.index, latest.t.0, latest.end.0), (0, 0, 16_666_666));
    /// assert_eq!(latest.dt, Period::from_hz(60)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn latest_tick(&self) -> Option<TickSpan> {
        self.clock()
            .latest_tick_back(self.inner.back_of(self.clock()))
    }

    /// The latest tick this clock ran, at the end of the latest step, wherever the readings
    /// stand: what [`latest_tick`](Self::latest_tick) gives outside a handler.
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
    /// let events = state.advance(Nanos::from_millis(250));
    /// let mut seen = Vec::new();
    /// state.hand_on(&events, |event, state| {
    ///     if matches!(event, Event::Update(tick) if tick.clock == ai) {
    ///         let physics = state.clock("physics").expect("declared");
    ///         let index = |t: Option<tickfold_core::TickSpan>| t.map(|t| t.index);
    ///         seen.push((index(physics.latest_tick()), index(physics.latest_tick_at_step_end())));
    ///     }
    /// })?;
    /// assert_eq!(seen, [(Some(2), Some(6)), (Some(5), Some(6))]); // AI's ticks 0 and 1
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn latest_tick_at_step_end(&self) -> Option<TickSpan> {
        self.clock().latest_tick()
    }

    /// The clock's update cap per step (see
    /// [`ClockConfig::max_updates`](crate::ClockConfig::max_updates)); `None`: no cap.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// assert_eq!(state.clock("main")?.max_updates(), Some(8)); // the default
    /// state.clock_mut("main")?.set_max_updates(None)?;
    /// assert_eq!(state.clock("main")?.max_updates(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn max_updates(&self) -> Option<u32> {
        self.config().max_updates
    }

    /// The clock's phase, in `[0, 1)` of a tick (see
    /// [`ClockConfig::phase`](crate::ClockConfig::phase)).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// state.clock_mut("main")?.set_phase(0.25)?;
    /// assert_eq!(state.clock("main")?.phase(), 0.25);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn phase(&self) -> f64 {
        self.config().phase
    }

    /// The clock's hysteresis, in `[0, ½]` of a tick (see
    /// [`ClockConfig::hysteresis`](crate::ClockConfig::hysteresis)).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// state.clock_mut("main")?.set_hysteresis(0.1)?;
    /// assert_eq!(state.clock("main")?.hysteresis(), 0.1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn hysteresis(&self) -> f64 {
        self.config().hysteresis
    }

    /// The clock's policy for late ticks (see
    /// [`ClockConfig::policy`](crate::ClockConfig::policy)).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period, Policy};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?)
    ///     .clock(ClockConfig::new("net", Period::from_hz(20)?).policy(Policy::DropAndRest));
    /// let state = LoopState::new(config, Nanos(0))?;
    /// assert_eq!(state.clock("net")?.policy(), Policy::DropAndRest);
    /// assert_eq!(state.clock("main")?.policy(), Policy::CatchUp);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn policy(&self) -> Policy {
        self.config().policy
    }

    /// The clock's firing rule (see [`ClockConfig::firing`](crate::ClockConfig::firing)).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, Firing, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::from_clock(
    ///     ClockConfig::new("main", Period::from_hz(60)?).firing(Firing::Nearest));
    /// let state = LoopState::new(config, Nanos(0))?;
    /// assert_eq!(state.clock("main")?.firing(), Firing::Nearest);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn firing(&self) -> Firing {
        self.config().firing
    }
}
