//! Virtual time of a running loop, as a view (`state.virtual_time().elapsed()`) and a handle
//! (`state.virtual_time_mut().pause()`), like Bevy's `Time<Virtual>`. The readings are written
//! once, for both; the controls are on the handle (the layer itself is in `time/virtual_time.rs`).

use core::fmt;

use crate::access::{Access, Exclusive, Shared};
use crate::state::{Inner, LoopState};
use crate::time::span::StepSpan;
use crate::time::virtual_time::Virtual;
use crate::values::rate::wrap;
use crate::values::rate::{Period, TimeScale};
use crate::values::time::Nanos;

/// A loop's virtual time, borrowed for its readings, and with [`Exclusive`] access for its
/// controls: [`VirtualTimeView`] from [`LoopState::virtual_time`], [`VirtualTimeMut`] from
/// [`LoopState::virtual_time_mut`]. One type, so both read alike (see [`Access`]).
///
/// Virtual time is real time less pauses, scaled exactly (Bevy's `Time<Virtual>`); the clocks
/// tick on it. Every control takes effect from the latest `now` and is reported at the next
/// step ([`Event::Paused`](crate::Event::Paused), [`Event::Resumed`](crate::Event::Resumed),
/// [`Event::ScaleChanged`](crate::Event::ScaleChanged)); a change undone before that step
/// reports nothing. Controls return the handle again, so they chain.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TimeScale};
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// state.virtual_time_mut().set_scale(TimeScale::ratio(1, 2)?); // slow motion
/// let _ = state.advance(Nanos::from_millis(200));
/// let time = state.virtual_time();
/// assert_eq!(time.elapsed(), Nanos::from_millis(100)); // half of 200 ms of real time
/// assert_eq!(time.delta(), Nanos::from_millis(100));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct VirtualTimeHandle<'a, A: Access = Shared> {
    virt: A::Ref<'a, Virtual>,
    span: &'a StepSpan,
    /// The elapsed time and delta as of the update a handler is given (see
    /// [`LoopState::as_of`]); `None` at the end of the step.
    at: Option<(u64, u64)>,
}

/// A loop's virtual time, read-only: from [`LoopState::virtual_time`] (`&LoopState` is
/// enough). `Copy`. Its readers are [`VirtualTimeHandle`]'s.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, VirtualTimeView};
///
/// fn clock_text(time: VirtualTimeView<'_>) -> String {
///     let paused = if time.is_paused() { " (paused)" } else { "" };
///     format!("{} ms{paused}", time.elapsed().0 / 1_000_000)
/// }
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// let _ = state.advance(Nanos::from_millis(40));
/// assert_eq!(clock_text(state.virtual_time()), "40 ms");
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
pub type VirtualTimeView<'a> = VirtualTimeHandle<'a, Shared>;

/// A loop's virtual time, with its controls: from [`LoopState::virtual_time_mut`]. Its
/// readers and controls are [`VirtualTimeHandle`]'s.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, VirtualTimeMut};
///
/// fn toggle_pause(mut time: VirtualTimeMut<'_>) {
///     let paused = time.is_paused();
///     time.set_paused(!paused);
/// }
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// toggle_pause(state.virtual_time_mut());
/// assert!(state.virtual_time().is_paused());
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
pub type VirtualTimeMut<'a> = VirtualTimeHandle<'a, Exclusive>;

impl Clone for VirtualTimeView<'_> {
    fn clone(&self) -> Self {
        *self
    }
}

impl Copy for VirtualTimeView<'_> {}

impl<A: Access> fmt::Debug for VirtualTimeHandle<'_, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VirtualTimeHandle")
            .field("elapsed", &self.elapsed())
            .field("delta", &self.delta())
            .field("scale", &self.scale())
            .field("paused", &self.is_paused())
            .field("step_ticks_pending", &self.step_ticks_pending())
            .finish()
    }
}

impl<T> LoopState<T> {
    /// Virtual time, read-only, through `&self`: its readings (elapsed, delta, wrapped, scale,
    /// pause), the same as [`virtual_time_mut`](Self::virtual_time_mut)'s.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(30));
    /// let _ = state.advance(Nanos::from_millis(50));
    /// let shared = &state; // what a `Runner` handler gets
    /// let time = shared.virtual_time();
    /// assert_eq!((time.elapsed(), time.delta()), (Nanos::from_millis(50), Nanos::from_millis(20)));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn virtual_time(&self) -> VirtualTimeView<'_> {
        self.inner.virtual_view()
    }

    /// A handle on virtual time for its controls (pause, time scale, debug stepping) and its
    /// readings (elapsed, delta, wrapped), like Bevy's `Time<Virtual>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(100)); // ticks 0 to 4
    /// state.virtual_time_mut().pause();
    /// let events = state.advance(Nanos::from_millis(300)); // 200 ms paused: no updates
    /// assert_eq!(events.iter().next(), Some(Event::Paused));
    /// assert_eq!(events.update_count(), 0);
    /// assert_eq!(state.virtual_time().elapsed(), Nanos::from_millis(100));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn virtual_time_mut(&mut self) -> VirtualTimeMut<'_> {
        let s = &mut *self.inner;
        VirtualTimeHandle {
            virt: &mut s.virt,
            span: &s.span,
            at: None,
        }
    }
}

impl VirtualTimeMut<'_> {
    /// Pauses virtual time from the latest `now`: while paused no updates run, alpha is
    /// frozen, renders carry `paused: true` and the deadline is `None` (nothing comes due).
    /// The next step reports [`Event::Paused`](crate::Event::Paused). Pausing a paused loop
    /// does nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// state.virtual_time_mut().pause();
    /// let events = state.advance(Nanos::from_secs(1));
    /// assert!(events.render().is_some_and(|r| r.paused));
    /// assert_eq!((events.update_count(), events.deadline()), (0, None));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn pause(&mut self) -> &mut Self {
        self.set_paused(true)
    }

    /// Resumes virtual time from the latest `now` (the real time paused never counts); the
    /// next step reports [`Event::Resumed`](crate::Event::Resumed). Resuming cancels a
    /// [`step_ticks`](Self::step_ticks) request not taken yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(50)?).paused(true);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let _ = state.advance(Nanos::from_secs(10)); // paused: no virtual time
    /// state.virtual_time_mut().resume();
    /// let events = state.advance(Nanos::from_millis(10_020)); // 20 ms since resuming
    /// assert_eq!(events.iter().next(), Some(Event::Resumed));
    /// assert_eq!(events.update_count(), 1);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn resume(&mut self) -> &mut Self {
        self.set_paused(false)
    }

    /// [`pause`](Self::pause) or [`resume`](Self::resume). A change undone before the next
    /// step reports nothing, since no step saw it.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let menu_open = true;
    /// state.virtual_time_mut().set_paused(menu_open);
    /// assert!(state.virtual_time().is_paused());
    /// state.virtual_time_mut().set_paused(false); // undone: the next step reports nothing
    /// let events = state.advance(Nanos::from_millis(20));
    /// assert!(matches!(events.iter().next(), Some(Event::Update(_))));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn set_paused(&mut self, paused: bool) -> &mut Self {
        self.virt.set_paused(paused);
        self
    }

    /// Changes the time scale. It applies to all real time after the latest `now`, exactly
    /// (the fraction of a ns it leaves is carried, never lost, across any sequence of
    /// changes); the next step reports [`Event::ScaleChanged`](crate::Event::ScaleChanged)
    /// (unless the scale was set back to the one the previous step used). Ticks keep their
    /// length: at half speed there are half as many.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period, TimeScale};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let slow = TimeScale::ratio(1, 2)?; // half speed: slow motion
    /// state.virtual_time_mut().set_scale(slow);
    /// let events = state.advance(Nanos::from_millis(200));
    /// assert_eq!(events.iter().next(), Some(Event::ScaleChanged(slow)));
    /// assert_eq!(events.update_count(), 5); // 100 ms of 20 ms ticks
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_scale(&mut self, scale: TimeScale) -> &mut Self {
        self.virt.set_scale(scale);
        self
    }

    /// Runs exactly `n` more ticks of the alpha clock at the next step, then stays paused:
    /// debug single-stepping, like Bevy's stepping. Pauses the loop first if it is running
    /// (the next step then reports [`Event::Paused`](crate::Event::Paused); the real time
    /// since the latest `now` does not count). `n = 0` cancels a request not taken yet, as
    /// does [`resume`](Self::resume); calling it twice adds up (saturating).
    ///
    /// The step moves virtual time, at the end of its span, to exactly the due time of the
    /// `n`-th next tick of the alpha clock (the time at which it would have run unpaused), and
    /// then runs every clock's ticks due by then, reported as ordinary
    /// [`Event::Update`](crate::Event::Update)s ([`Tick::last_in_step`](crate::Tick::last_in_step)
    /// as usual), followed by a render (with `paused: true`) at the new virtual time. So
    /// interpolation, lags and [`ClockStats`](crate::ClockStats) stay consistent: the identity
    /// `ticks_run + ticks_dropped + pending == ticks_due + ticks_early` holds, and
    /// [`delta`](Self::delta) is the time stepped. Other clocks run the ticks that fall due by
    /// that virtual time (a constant-rate clock among several skips the slots it passed,
    /// reported as usual).
    ///
    /// Exactly `n`, whatever the firing rule: ticks are fired on their due time only (the
    /// *nearest* rule and hysteresis fire nothing early or late while stepping). The update
    /// cap still applies: past it, the rest runs in the following steps (each reporting
    /// [`Event::Deferred`](crate::Event::Deferred) as usual, with a deadline of "now"). A
    /// constant-rate alpha clock runs one slot per step (its one update per step), so `n` of
    /// them take `n` steps. If the paused loop already has a backlog (ticks due that a cap
    /// deferred), stepping runs those first, `n` at most.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// state.virtual_time_mut().pause();
    /// let _ = state.advance(Nanos::from_secs(5));
    /// state.virtual_time_mut().step_ticks(3);
    /// let events = state.advance(Nanos::from_secs(5));
    /// let ticks: Vec<u64> = events.updates().map(|t| t.index).collect();
    /// assert_eq!(ticks, [0, 1, 2]);
    /// let time = state.virtual_time_mut();
    /// assert!(time.is_paused() && events.render().is_some_and(|r| r.paused));
    /// // Virtual time moved by exactly three ticks of 100 ms.
    /// assert_eq!(time.elapsed(), Nanos::from_millis(300));
    /// assert_eq!(state.advance(Nanos::from_secs(6)).updates().count(), 0);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn step_ticks(&mut self, n: u64) -> &mut Self {
        self.virt.request_steps(n);
        self
    }
}

/// The readings, the same for the view and the handle.
impl<A: Access> VirtualTimeHandle<'_, A> {
    /// Whether virtual time is paused.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?).paused(true);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// assert!(state.virtual_time().is_paused());
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.virt.is_paused()
    }

    /// The time scale (1 unless changed).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TimeScale};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// assert_eq!(state.virtual_time().scale(), TimeScale::ONE);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn scale(&self) -> TimeScale {
        self.virt.scale()
    }

    /// Alpha-clock ticks a [`step_ticks`](Self::step_ticks) request still has to run.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// state.virtual_time_mut().step_ticks(2);
    /// assert_eq!(state.virtual_time().step_ticks_pending(), 2);
    /// let _ = state.advance(Nanos::from_secs(1));
    /// assert_eq!(state.virtual_time().step_ticks_pending(), 0);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn step_ticks_pending(&self) -> u64 {
        self.virt.step_request()
    }

    /// Virtual time in which clocks lost ticks to the max frame delta, in total: for each step
    /// that reported [`Event::DiscardedTime`](crate::Event::DiscardedTime), the largest
    /// `time` among its events (the span past the max frame delta where at least one clock
    /// dropped ticks). Each clock's own total is its
    /// [`ClockStats::time_discarded`](crate::ClockStats::time_discarded). Virtual time itself
    /// is never cut: this is time whose ticks did not run. A refusal that undoes a give-up
    /// of the latest step ([`LoopState::refuse`](crate::LoopState::refuse)) takes back
    /// exactly what that step counted for it: the step's count becomes its largest
    /// `DiscardedTime` still in effect.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // 10 Hz and 3 Hz, a 250 ms max frame delta, a 1 s stall.
    /// let config = LoopConfig::new(Period::from_hz(10)?)
    ///     .clock(ClockConfig::new("slow", Period::from_hz(3)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let events = state.advance(Nanos::from_secs(1));
    /// let times: Vec<(u64, u64)> = events.iter().filter_map(|e| match e {
    ///     Event::DiscardedTime { time, ticks, .. } => Some((time.0 / 1_000_000, ticks)),
    ///     _ => None,
    /// }).collect();
    /// // main keeps the ticks due by 250 ms and drops ticks 2 to 9 (due 300 ms to 1 s):
    /// // 750 ms. slow keeps its tick 0 (due at 333.3 ms, its next tick when the step began)
    /// // and drops ticks 1 and 2 (due 666.7 ms and 1 s): 666.7 ms.
    /// assert_eq!(times, [(750, 8), (666, 2)]);
    /// assert_eq!(state.virtual_time().time_discarded(), Nanos::from_millis(750));
    /// assert_eq!(state.clock("main")?.stats().time_discarded, Nanos::from_millis(750));
    /// assert_eq!(state.virtual_time().elapsed(), Nanos::from_secs(1)); // not cut
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn time_discarded(&self) -> Nanos {
        Nanos(self.virt.discarded())
    }

    /// Virtual time since the start, in whole ns (rounded down; the fraction of a ns a time
    /// scale leaves is carried): real time less pauses, scaled, plus any ticks single-stepped.
    ///
    /// **When.** Outside a handler, the end of the latest step. In a handler given an update
    /// through [`LoopState::as_of`] (the runner's and winit's handlers,
    /// [`LoopState::hand_on`]), the time as of that tick: the virtual time at which it came
    /// due on its clock's grid, the same however frames slice time. The end of the step is
    /// [`elapsed_at_step_end`](Self::elapsed_at_step_end) there.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TimeScale};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?).time_scale(TimeScale::ratio(1, 3)?);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let _ = state.advance(Nanos(10));
    /// assert_eq!(state.virtual_time().elapsed(), Nanos(3)); // 10/3 ns, rounded down
    /// let _ = state.advance(Nanos(20));
    /// assert_eq!(state.virtual_time().elapsed(), Nanos(6)); // 20/3: the third was kept
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn elapsed(&self) -> Nanos {
        Nanos(self.now())
    }

    /// Virtual time since the start at the end of the latest step, wherever the readings
    /// stand: what [`elapsed`](Self::elapsed) gives outside a handler. Inside
    /// [`LoopState::as_of`] (the runner's and winit's handlers, [`LoopState::hand_on`]),
    /// `elapsed` is the time as of the update handled, and this is the frame's.
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
    ///         let time = state.virtual_time();
    ///         seen.push((time.elapsed().0 / 1_000_000, time.elapsed_at_step_end().0 / 1_000_000));
    ///     }
    /// })?;
    /// assert_eq!(seen, [(100, 250), (200, 250)]); // each tick's due time, the frame's end
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn elapsed_at_step_end(&self) -> Nanos {
        Nanos(self.virt.now())
    }

    /// The virtual time the readings stand at: the update's due time inside
    /// [`LoopState::as_of`], else the end of the step.
    #[inline]
    fn now(&self) -> u64 {
        match self.at {
            Some((due, _)) => due,
            None => self.virt.now(),
        }
    }

    /// The virtual time the latest step covered: the difference of the whole ns of
    /// [`elapsed`](Self::elapsed) before and after it, so the deltas of all steps add up to
    /// `elapsed()` exactly, and a pause gives 0. Like Bevy's `Time<Virtual>::delta`, but
    /// exact: use `delta().as_secs_f64()` for effects that want seconds, never a sum of float
    /// deltas.
    ///
    /// **When.** In a handler given an update through [`LoopState::as_of`] (the runner's and
    /// winit's handlers, [`LoopState::hand_on`]), the tick's own length in whole ns (as
    /// Bevy's `Time` in `FixedUpdate` is the timestep); the step's is
    /// [`delta_at_step_end`](Self::delta_at_step_end) there.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TimeScale};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// state.virtual_time_mut().set_scale(TimeScale::ratio(1, 3)?);
    /// let _ = state.advance(Nanos(10));
    /// let _ = state.advance(Nanos(20));
    /// // 20/3 ns of virtual time so far: 3 (rounded down) after the first step, 6 now.
    /// assert_eq!(state.virtual_time().delta(), Nanos(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn delta(&self) -> Nanos {
        match self.at {
            Some((_, length)) => Nanos(length),
            None => self.delta_at_step_end(),
        }
    }

    /// The virtual time the latest step covered, wherever the readings stand: what
    /// [`delta`](Self::delta) gives outside a handler. Inside [`LoopState::as_of`], `delta`
    /// is the length of the update handled (as Bevy's `Time` in `FixedUpdate` is the
    /// timestep), and this is the frame's.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(250));
    /// let mut seen = Vec::new();
    /// state.hand_on(&events, |event, state| {
    ///     if let Event::Update(_) = event {
    ///         let time = state.virtual_time();
    ///         seen.push((time.delta().0 / 1_000_000, time.delta_at_step_end().0 / 1_000_000));
    ///     }
    /// })?;
    /// assert_eq!(seen, [(100, 250), (100, 250)]); // the tick's length, the frame's
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn delta_at_step_end(&self) -> Nanos {
        Nanos(self.virt.now().saturating_sub(self.span.virtual_start()))
    }

    /// Virtual time since the start modulo `period`, rounded down to whole ns: in
    /// `[0, period)`, exact at any distance (no float ever accumulates), like Bevy's
    /// `Time::elapsed_wrapped` with its `wrap_period`. Feed it to shaders that animate
    /// periodically: an `f32` of seconds since the start loses precision after hours, this
    /// does not. `period` is an exact [`Period`], so wrapping at 1/60 s or 1/3 s does not
    /// drift.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// // A day and 1.25 s later (the max frame delta drops ticks, not virtual time).
    /// let _ = state.advance(Nanos(86_401_250_000_000));
    /// let time = state.virtual_time_mut();
    /// assert_eq!(time.elapsed_wrapped(Period::from_secs_ratio(1, 1)?), Nanos::from_millis(250));
    /// // A third of a second, exactly: 86 401.25 s is 259 203 thirds and 0.25 s.
    /// let third = Period::from_secs_ratio(1, 3)?;
    /// assert_eq!(time.elapsed_wrapped(third), Nanos(250_000_000));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn elapsed_wrapped(&self, period: Period) -> Nanos {
        Nanos(wrap(self.now(), period))
    }

    /// [`elapsed_wrapped`](Self::elapsed_wrapped) in seconds as an `f32`, for a shader
    /// uniform: computed from the exact wrapped ns, so its precision depends on the period,
    /// never on how long the loop has run (like Bevy's `elapsed_secs_wrapped`).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let _ = state.advance(Nanos(86_401_250_000_000));
    /// let wrap = Period::from_secs_ratio(1, 1)?;
    /// assert_eq!(state.virtual_time().elapsed_secs_wrapped(wrap), 0.25);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn elapsed_secs_wrapped(&self, period: Period) -> f32 {
        (wrap(self.now(), period) as f64 / 1e9) as f32
    }
}

impl<T> Inner<T> {
    /// The read-only view of virtual time, for the step's own readings (the render's delta).
    pub(crate) fn virtual_view(&self) -> VirtualTimeView<'_> {
        VirtualTimeHandle {
            virt: &self.virt,
            span: &self.span,
            at: self.cursor.0.map(|at| (at.due, at.length)),
        }
    }

    /// The render's delta: the end of the step's (the step is never positioned).
    #[inline]
    pub(crate) fn delta_at_step_end(&self) -> Nanos {
        Nanos(self.virt.now().saturating_sub(self.span.virtual_start()))
    }
}
