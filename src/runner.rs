//! The imperative shell around the fold (feature `std`, on by default): read the time, step,
//! hand the events to user code, wait until the deadline.
//!
//! The runner does not take over control flow. [`Runner::frame`] does one frame and returns the
//! deadline; [`Runner::wait_until`] sleeps until it with the pluggable [`Sleeper`]. A plain
//! game loop calls both ([`Runner::run`] and [`Runner::run_with`] do exactly that; the latter
//! hands your game to the handler, which stops the loop with [`Control::exit`]); a winit
//! application calls `frame`
//! from `about_to_wait` and hands the deadline to `ControlFlow::WaitUntil`; a vsync-driven loop
//! uses [`NoSleep`] and calls `frame` once per presented frame.
//!
//! A sleeping runner draws at 60 Hz unless told otherwise (see [`Runner::new`]), so the
//! interpolation `alpha` is spread over the tick. [`ManualTime`] is a fake clock for tests
//! (time source and sleeper in one). [`RealNanos`] is the real clock read as
//! [`Nanos`], for a `LoopState<Nanos>` that saves and loads as it is; a
//! running `LoopState<Instant>` converts with [`LoopState::rebase`] and
//! [`LoopState::resume_at`].
//!
//! ```
//! use std::time::Instant;
//! use tickfold::runner::{Runner, SpinSleep, RealTime};
//! use tickfold::{Event, LoopConfig, LoopState, Period};
//!
//! let state = LoopState::new(LoopConfig::new(Period::from_hz(200)?), Instant::now())?;
//! let mut runner = Runner::new(state, RealTime, SpinSleep::default());
//! let mut updates = 0;
//! runner.run(
//!     |event, _state| {
//!         if let Event::Update(_) = event {
//!             updates += 1;
//!         }
//!     },
//!     |state| state.clock("main").map_or(0, |c| c.stats().ticks_run) < 4,
//! );
//! assert!(updates >= 4);
//! # Ok::<(), tickfold::ConfigError>(())
//! ```

use std::time::Duration;
// The browser has no `std::time::Instant::now()` (it panics on wasm32-unknown-unknown): the
// time sources and sleepers on `Instant` exist elsewhere only; `RealNanos` reads `web-time`'s
// `Instant` (`performance.now()`) there.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
use std::time::Instant;

use tickfold_core::{DeltaSmoother, Event, Events, LoopState, Nanos, Period, Timestamp};

mod manual;
mod real_nanos;

pub use manual::ManualTime;
pub use real_nanos::{RealNanos, SleepOn};

/// Where the runner reads the time.
pub trait TimeSource<T> {
    /// The current time.
    fn now(&mut self) -> T;
}

/// The real monotonic time, `Instant::now()`.
///
/// Not a time source on `wasm32-unknown-unknown`, where `std::time::Instant::now()` panics
/// ("time not implemented on this platform"): a browser loop uses [`RealNanos`] (which reads
/// `performance.now()` there) or `tickfold::web` (feature `web`), so the mistake is a compile
/// error instead of a panic in the page.
#[derive(Copy, Clone, Debug, Default)]
pub struct RealTime;

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl TimeSource<Instant> for RealTime {
    fn now(&mut self) -> Instant {
        Instant::now()
    }
}

/// The render rate, in Hz, that [`Runner::new`] sets on a state without one when the sleeper
/// sleeps: a common display's refresh rate, so a sleeping runner draws with interpolation
/// instead of once per tick.
pub const DEFAULT_RENDER_HZ: u64 = 60;

/// How many times [`Runner::frame`] asks the sleeper to sleep until a [`Event::Sleep`]'s time
/// before it gives up for this frame (see [`Runner::frame`]).
pub const SLEEP_TRIES: u32 = 8;

/// How the runner waits for a deadline.
///
/// A sleeper may wake early (a spurious wake-up, a coarse OS timer): the runner reads its
/// time after every sleep and asks again, so an update never runs before its slot.
pub trait Sleeper<T> {
    /// Returns no earlier than `deadline` (as well as the sleeper can), or at once if it has
    /// passed.
    fn sleep_until(&mut self, deadline: T);

    /// Whether [`sleep_until`](Sleeper::sleep_until) waits at all. `false` for [`NoSleep`]:
    /// the runner then never asks and leaves the waiting to its caller.
    fn can_sleep(&self) -> bool {
        true
    }
}

/// `spin_sleep`'s hybrid sleep: the OS sleep for the bulk, then a spin for the last stretch.
/// The default: accurate to microseconds at the cost of a little CPU.
///
/// Not a sleeper on `wasm32-unknown-unknown`: a browser's main thread must never block (the
/// page would freeze), so there the runner takes [`NoSleep`] and the browser paces the frames
/// (`tickfold::web`, feature `web`).
#[derive(Copy, Clone, Debug, Default)]
pub struct SpinSleep(pub spin_sleep::SpinSleeper);

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl Sleeper<Instant> for SpinSleep {
    fn sleep_until(&mut self, deadline: Instant) {
        self.0.sleep_until(deadline);
    }
}

/// Plain `std::thread::sleep`: no spinning, so cheaper on CPU and later to wake (the OS timer
/// slack, typically 50 µs to 1 ms). Not a sleeper on `wasm32-unknown-unknown` (see
/// [`SpinSleep`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct ThreadSleep;

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl Sleeper<Instant> for ThreadSleep {
    fn sleep_until(&mut self, deadline: Instant) {
        if let Some(d) = deadline.checked_duration_since(Instant::now()) {
            std::thread::sleep(d);
        }
    }
}

/// Never sleeps: for loops paced by vsync (a blocking present) or by an outer event loop.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoSleep;

impl<T> Sleeper<T> for NoSleep {
    fn sleep_until(&mut self, _deadline: T) {}

    fn can_sleep(&self) -> bool {
        false
    }
}

/// What an event handler of [`Runner::run_with`] can ask of the runner: to stop.
///
/// Like game-loop's `exit()`: call [`exit`](Control::exit) from the handler and `run_with`
/// returns right after this event (see [`Runner::run_with`] for the events left pending).
#[derive(Clone, Debug, Default)]
pub struct Control {
    exit: bool,
}

impl Control {
    /// Stops the loop after the event being handled.
    pub fn exit(&mut self) {
        self.exit = true;
    }

    /// Whether [`exit`](Control::exit) was called.
    #[must_use]
    pub fn is_exiting(&self) -> bool {
        self.exit
    }
}

/// Sleeps with `sleeper` until `time` reads `until` or later, at most [`SLEEP_TRIES`] times;
/// whether the time got there.
fn reach<T: Timestamp>(
    time: &mut impl TimeSource<T>,
    sleeper: &mut impl Sleeper<T>,
    until: T,
) -> bool {
    for _ in 0..SLEEP_TRIES {
        if time.now().nanos_since(until).is_some() {
            return true;
        }
        if !sleeper.can_sleep() {
            return false;
        }
        sleeper.sleep_until(until);
    }
    time.now().nanos_since(until).is_some()
}

/// `deadline`, or `now` if the deadline is earlier.
fn not_before<T: Timestamp>(deadline: T, now: T) -> T {
    if deadline.nanos_since(now).is_some() {
        deadline
    } else {
        now
    }
}

/// Drives a [`LoopState`] with a time source and a sleeper.
///
/// Each [`frame`](Runner::frame): read the time, [`LoopState::advance_into`] (no allocation
/// per frame), then hand every event in order to the handler, carrying out
/// [`Event::Sleep`] with the sleeper before the events after it. The handler also gets the
/// state, for clock names and per-clock alpha: for an [`Event::Update`] the state *as of that
/// tick* ([`LoopState::as_of`]: the virtual time, every clock's latest tick and counts are
/// those of the tick's place in the total order, the same however frames fall), for the
/// other events the end of the step. The end-of-step readings stay under names that say so
/// (`elapsed_at_step_end`, `latest_tick_at_step_end`, `stats_at_step_end`).
#[derive(Debug)]
pub struct Runner<T, C, S> {
    state: LoopState<T>,
    time: C,
    sleeper: S,
    events: Events<T>,
    /// The index of the next event to hand on; below `events.len()` while a `Sleep` waits.
    next: usize,
    idle: Duration,
    /// The frame-delta smoother and the first time read (its origin), if smoothing is on.
    smoothing: Option<(DeltaSmoother, Option<T>)>,
    /// Smoothing was not chosen with `with_smoothing` and no frame has decided it yet.
    smoothing_undecided: bool,
}

impl<T: Timestamp, C: TimeSource<T>, S: Sleeper<T>> Runner<T, C, S> {
    /// A runner for `state`.
    ///
    /// **Draws at the display rate by default.** If `sleeper` sleeps (anything but
    /// [`NoSleep`]) and `state` has no render cap
    /// ([`LoopConfig::render_rate`](tickfold_core::LoopConfig::render_rate) `None`, the
    /// configuration's default), the runner sets one of [`DEFAULT_RENDER_HZ`] (60 Hz) on the
    /// state: its deadlines then include a render slot every 1/60 s, so it wakes and draws 60
    /// times a second with the interpolation `alpha` spread over the tick, whatever the tick
    /// rate. Without a cap a sleeping runner would sleep from tick to tick and draw once per
    /// tick at `alpha` ≈ 0 (30 draws a second at 30 Hz): interpolation would silently do
    /// nothing. A cap set on the state is kept, and a tick rate above 60 Hz still runs every
    /// tick (only the draws are capped). Choose another rate with
    /// [`with_render_rate`](Runner::with_render_rate) (`Some(144 Hz)` for a 144 Hz display,
    /// `None` to draw only when ticks run, the behaviour before this default). With
    /// [`NoSleep`] the state is left as it is: vsync or an outer event loop paces the draws.
    /// The cap is part of the state: [`state`](Runner::state) and
    /// [`into_state`](Runner::into_state) show it, and a save game keeps it.
    ///
    /// **Smooths vsync-paced frames by default.** A runner that does not sleep ([`NoSleep`])
    /// on a state without a render cap is paced from outside, one [`frame`](Runner::frame) per
    /// presented frame: from its first frame it passes every time read through a
    /// [`DeltaSmoother`] (see [`with_smoothing`](Runner::with_smoothing), which also turns it
    /// off). A sleeping runner, or one with a render cap (an outer event loop waiting for the
    /// deadlines), wakes at its own deadlines and does not smooth.
    ///
    /// When nothing is due by time alone (paused with no render cap) [`run`](Runner::run)
    /// waits `1/60 s` between frames; see [`Runner::with_idle`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold::runner::{ManualTime, Runner};
    /// use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let clock = ManualTime::new(); // sleeps exactly to each deadline
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(30)?), Nanos(0))?;
    /// let mut runner = Runner::new(state, clock.clone(), clock);
    /// let mut alphas = Vec::new();
    /// runner.run(
    ///     |event, _| {
    ///         if let Event::Render(frame) = event {
    ///             alphas.push(frame.alpha);
    ///         }
    ///     },
    ///     |state| state.real_time().elapsed() < Nanos::from_secs(1),
    /// );
    /// // 60 draws a second (and the first), every other one halfway between two ticks
    /// // (to within the rounding of the render slots to whole ns).
    /// assert_eq!(alphas.len(), 61);
    /// for (i, alpha) in alphas.iter().enumerate() {
    ///     assert!((alpha - [0.0, 0.5][i % 2]).abs() < 1e-6);
    /// }
    /// # Ok::<(), tickfold::ConfigError>(())
    /// ```
    pub fn new(mut state: LoopState<T>, time: C, sleeper: S) -> Runner<T, C, S> {
        if sleeper.can_sleep() && state.real_time().render_rate().is_none() {
            if let Ok(rate) = Period::from_hz(DEFAULT_RENDER_HZ) {
                state.real_time_mut().set_render_rate(Some(rate));
            }
        }
        let mut runner = Runner {
            state,
            time,
            sleeper,
            events: Events::new(),
            next: 0,
            idle: Duration::from_nanos(16_666_667),
            smoothing: None,
            smoothing_undecided: true,
        };
        runner.default_smoothing();
        runner
    }

    /// Sets the default smoothing, unless `with_smoothing` chose or a frame has run: on for a
    /// runner paced from outside (it does not sleep) that draws every frame (no render cap).
    fn default_smoothing(&mut self) {
        if self.smoothing_undecided {
            let paced = !self.sleeper.can_sleep() && self.state.real_time().render_rate().is_none();
            if paced != self.smoothing.is_some() {
                self.smoothing = paced.then(|| (DeltaSmoother::new(), None));
            }
        }
    }

    /// Smooths the frame times the fold sees with `smoother` (`Some`), or not (`None`): each
    /// time read is snapped to a whole number of the display's measured refresh intervals, the
    /// remainder carried, never more than [`DeltaSmoother::bound`] from the time read (see
    /// [`DeltaSmoother`] for the rules: gaps pass through, repeats hold). For vsync-paced
    /// runners ([`NoSleep`], one `frame` per presented frame), where the frames really are whole
    /// refresh intervals apart but the times read jitter: at matched tick and refresh rates the
    /// ticks then fall one per frame instead of 0 or 2 by the noise. The sleeps still read the
    /// real time.
    ///
    /// **The default**, when this is not called: on with [`DeltaSmoother::new`] for a runner
    /// that does not sleep on a state without a render cap, off otherwise; a render cap set
    /// after [`new`](Runner::new) counts until the first [`frame`](Runner::frame), which
    /// decides for good. Your call always wins. Measured in `BENCHMARKS.md` ("Defaults against defaults": 60 Hz ticks
    /// on 36,000 jittered 60 Hz frames): 17 irregular frames (0 or 2 updates, or the frames
    /// after them) with the default against 33,738 with `None`, all of them in the first 2 s
    /// while the smoother measures the refresh; none on 144 Hz or 50 Hz frames either way.
    /// What it costs: a tick runs at most the bound (4 ms) earlier or later than it would
    /// unsmoothed, the render's `alpha` is for the smoothed time, and at every frame the ticks
    /// run are those due at the time read within one tick (at 60 Hz); none is lost or invented.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold::runner::{NoSleep, Runner, TimeSource};
    /// use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // 60 Hz vsync frames read with ±0.9 ms of noise, landing on the 60 Hz tick boundaries.
    /// struct Vsync(u64);
    /// impl TimeSource<Nanos> for Vsync {
    ///     fn now(&mut self) -> Nanos {
    ///         self.0 += 1;
    ///         let noise = [900_000, -900_000, 400_000, -100_000, 0, -700_000, 800_000];
    ///         Nanos((self.0 * 1_000_000_000 / 60).wrapping_add_signed(noise[self.0 as usize % 7]))
    ///     }
    /// }
    ///
    /// let irregular = |smooth: bool| {
    ///     let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    ///     let mut runner = Runner::new(state, Vsync(0), NoSleep); // smooths: the default
    ///     if !smooth {
    ///         runner = runner.with_smoothing(None); // off
    ///     }
    ///     let mut irregular = 0;
    ///     for _ in 0..600 {
    ///         let mut updates = 0;
    ///         runner.frame(|event, _| updates += u32::from(matches!(event, Event::Update(_))));
    ///         irregular += u32::from(updates != 1);
    ///     }
    ///     Ok::<u32, tickfold::ConfigError>(irregular)
    /// };
    /// assert!(irregular(false)? > 100); // 0 and 2 updates by the noise
    /// assert!(irregular(true)? < 20); // the warm-up and a few more
    /// # Ok::<(), tickfold::ConfigError>(())
    /// ```
    #[must_use]
    pub fn with_smoothing(mut self, smoother: Option<DeltaSmoother>) -> Runner<T, C, S> {
        self.smoothing = smoother.map(|s| (s, None));
        self.smoothing_undecided = false;
        self
    }

    /// The frame-delta smoother, if smoothing is on (its measured interval and counts). Left
    /// to the default (see [`with_smoothing`](Runner::with_smoothing)), it is what the runner
    /// would do now: the first frame decides for good.
    #[must_use]
    pub fn smoother(&self) -> Option<&DeltaSmoother> {
        self.smoothing.as_ref().map(|(s, _)| s)
    }

    /// The time for this frame: read, and smoothed if smoothing is on.
    fn frame_time(&mut self) -> T {
        let now = self.time.now();
        // The default as the runner stands at its first frame (a cap set through `state_mut`
        // since `new` counts), then kept.
        self.default_smoothing();
        self.smoothing_undecided = false;
        let Some((smoother, origin)) = &mut self.smoothing else {
            return now;
        };
        let origin = *origin.get_or_insert(now);
        // Times before the origin count as the origin: the smoother treats them as repeats.
        let raw = now.nanos_since(origin).unwrap_or(0);
        origin.add_nanos(smoother.smooth(Nanos(raw)).0)
    }

    /// Sets the state's render cap: the runner wakes and draws at most at `rate`, on a fixed
    /// grid of slots (see [`Runner::new`] for the default a sleeping runner sets). `None`
    /// removes the cap: a sleeping runner then draws only when it wakes for a tick.
    #[must_use]
    pub fn with_render_rate(mut self, rate: Option<Period>) -> Runner<T, C, S> {
        self.state.real_time_mut().set_render_rate(rate);
        self.default_smoothing();
        self
    }

    /// How long [`run`](Runner::run) waits between frames when the fold has no deadline.
    #[must_use]
    pub fn with_idle(mut self, idle: Duration) -> Runner<T, C, S> {
        self.idle = idle;
        self
    }

    /// One frame: reads the time, steps the fold, and hands each event to `on_event` in order,
    /// sleeping on [`Event::Sleep`] before going on. Returns the deadline for the next frame,
    /// or `None` when nothing is due by time alone.
    ///
    /// On an [`Event::Sleep`] the runner reads the time after every sleep and sleeps again
    /// while it is early, so the update after it never runs before its slot. If the time has
    /// still not reached the slot after [`SLEEP_TRIES`] sleeps, or the sleeper cannot sleep
    /// ([`NoSleep`]), `frame` stops before that `Sleep` and returns its time. The next call
    /// does not step the fold: it reads the time again and hands on the rest of the events
    /// once their time has come (a vsync-paced shell simply calls `frame` on its next vsync).
    ///
    /// The deadline returned is never earlier than the time read at the start of the call: when
    /// the events handed on were stepped in an earlier call, a deadline that has passed since
    /// comes back as that reading (call again at once). So does a `Sleep`'s time when the frame
    /// stops before it and it is earlier than that reading (the time source went back within
    /// the frame).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold::runner::{NoSleep, Runner, TimeSource};
    /// use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // A fake clock that reads 25 ms later each time: frames come from an outer loop.
    /// struct Frames(Nanos);
    /// impl TimeSource<Nanos> for Frames {
    ///     fn now(&mut self) -> Nanos {
    ///         self.0 = Nanos(self.0.0 + 25_000_000);
    ///         self.0
    ///     }
    /// }
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let mut runner = Runner::new(state, Frames(Nanos(0)), NoSleep);
    /// let mut updates = 0;
    /// // One frame, e.g. from winit's `about_to_wait` (then `ControlFlow::WaitUntil(deadline)`).
    /// let deadline = runner.frame(|event, _state| {
    ///     if let Event::Update(_tick) = event {
    ///         updates += 1; // run the fixed update here
    ///     }
    /// });
    /// assert_eq!(updates, 1); // read at 25 ms: tick 0 (0 to 20 ms) was due
    /// assert_eq!(deadline, Some(Nanos::from_millis(40))); // tick 1 comes due at 40 ms
    /// # Ok::<(), tickfold::ConfigError>(())
    /// ```
    pub fn frame(&mut self, mut on_event: impl FnMut(&Event<T>, &LoopState<T>)) -> Option<T> {
        self.frame_ctl(&mut Control::default(), |e, s, _| on_event(e, s))
    }

    /// [`frame`](Runner::frame) with a [`Control`]: once the handler calls
    /// [`Control::exit`], the frame hands on no more events and returns; the ones left wait
    /// for the next call (then the deadline returned is the time read at the start).
    fn frame_ctl(
        &mut self,
        ctl: &mut Control,
        mut on_event: impl FnMut(&Event<T>, &LoopState<T>, &mut Control),
    ) -> Option<T> {
        // Feature `tracing`: the frame's span, around the step's and the handlers' (the core's).
        #[cfg(feature = "tracing")]
        let _frame = frame_span();
        let now = self.frame_time();
        if self.next >= self.events.len() {
            self.state.advance_into(now, &mut self.events);
            self.next = 0;
        }
        // Resuming after a Sleep skips only the few events before it (they come first).
        for event in self.events.iter().skip(self.next) {
            if let Event::Sleep { until } = event {
                if !reach(&mut self.time, &mut self.sleeper, until) {
                    return Some(not_before(until, now));
                }
            }
            // The handler reads the state as of the event (an update: its place in the
            // total order; see `LoopState::as_of`), and the state is at the step's end again
            // after it, whether or not it exits.
            let events = &self.events;
            let handled = self
                .state
                .as_of(events, &event, |state| on_event(&event, state, ctl));
            if handled.is_err() {
                // Only when the state was controlled (`state_mut`) between a handler's exit
                // and the frame that hands on the rest: those events read the step's end.
                on_event(&event, &self.state, ctl);
            }
            self.next += 1;
            if ctl.exit && self.next < self.events.len() {
                return Some(now);
            }
        }
        self.events.deadline().map(|&d| not_before(d, now))
    }

    /// Sleeps until `deadline`; returns how late the wake-up was, in ns (0 if on time or early).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Instant;
    /// use tickfold::runner::{RealTime, Runner, SpinSleep};
    /// use tickfold::{LoopConfig, LoopState, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Instant::now())?;
    /// let mut runner = Runner::new(state, RealTime, SpinSleep::default());
    /// let mut worst_ns = 0;
    /// // What `run` does, written out: a frame, then sleep until its deadline.
    /// while runner.state().clock("main").map_or(0, |c| c.stats().ticks_run) < 3 {
    ///     if let Some(deadline) = runner.frame(|_event, _state| {}) {
    ///         worst_ns = worst_ns.max(runner.wait_until(deadline)); // how late the wake-up was
    ///     }
    /// }
    /// assert!(worst_ns < 1_000_000_000);
    /// # Ok::<(), tickfold::ConfigError>(())
    /// ```
    pub fn wait_until(&mut self, deadline: T) -> u64 {
        self.sleeper.sleep_until(deadline);
        self.time.now().nanos_since(deadline).unwrap_or(0)
    }

    /// Frames until `keep_going` says stop: `frame`, then wait for the deadline (or the idle
    /// time when there is none). `keep_going` is asked before every frame.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Instant;
    /// use tickfold::runner::{RealTime, Runner, ThreadSleep};
    /// use tickfold::{Event, LoopConfig, LoopState, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Instant::now())?;
    /// let mut runner = Runner::new(state, RealTime, ThreadSleep);
    /// let (mut position, mut drawn) = (0.0_f64, 0);
    /// runner.run(
    ///     |event, _state| match event {
    ///         Event::Update(tick) => position += tick.dt_secs(), // 1 unit/s
    ///         Event::Render(_frame) => drawn += 1,               // draw at `_frame.alpha`
    ///         _ => {}
    ///     },
    ///     |state| state.clock("main").map_or(0, |c| c.stats().ticks_run) < 5, // asked before every frame: 50 ms of real time
    /// );
    /// assert!(runner.state().clock("main").map_or(0, |c| c.stats().ticks_run) >= 5 && drawn >= 1);
    /// assert!((position - runner.state().clock("main").map_or(0, |c| c.stats().ticks_run) as f64 * 0.01).abs() < 1e-9);
    /// # Ok::<(), tickfold::ConfigError>(())
    /// ```
    pub fn run(
        &mut self,
        mut on_event: impl FnMut(&Event<T>, &LoopState<T>),
        mut keep_going: impl FnMut(&LoopState<T>) -> bool,
    ) {
        while keep_going(&self.state) {
            let deadline = self.frame(&mut on_event);
            self.wait_for(deadline);
        }
    }

    /// Frames until the handler calls [`Control::exit`], handing it `game` with every event:
    /// one place where the handler both changes the game and decides to stop (with
    /// [`run`](Runner::run)'s second closure, the stop condition cannot read what the handler
    /// changes).
    ///
    /// The loop stops right after the event whose handler called `exit`: no later event of
    /// that step is handed on, and the runner does not wait. Those events are not lost: they
    /// stay in the runner (see [`has_pending_events`](Runner::has_pending_events)) and the next
    /// [`frame`](Runner::frame), [`run`](Runner::run) or `run_with` hands them on before the
    /// fold steps again. A [`Event::Render`] is always a step's last event, so exiting on a
    /// render leaves nothing pending (the state then matches what the game saw: the moment to
    /// save).
    ///
    /// ```
    /// use tickfold::runner::{ManualTime, Runner};
    /// use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// struct Game {
    ///     x: f64,
    ///     updates: u32,
    /// }
    ///
    /// let clock = ManualTime::new();
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let mut runner = Runner::new(state, clock.clone(), clock);
    /// let mut game = Game { x: 0.0, updates: 0 };
    /// runner.run_with(&mut game, |game, event, _state, ctl| match event {
    ///     Event::Update(tick) => {
    ///         game.x += tick.dt_secs();
    ///         game.updates += 1;
    ///     }
    ///     // e.g. the player quit, or the level ended: stop after this frame's draw
    ///     Event::Render(_) if game.updates >= 120 => ctl.exit(),
    ///     Event::Render(_frame) => { /* draw */ }
    ///     _ => {}
    /// });
    /// assert_eq!(game.updates, 120);
    /// assert_eq!(runner.state().clock("main").map_or(0, |c| c.stats().ticks_run), 120);
    /// assert!(!runner.has_pending_events()); // exited on a render: ready to save
    /// # Ok::<(), tickfold::ConfigError>(())
    /// ```
    pub fn run_with<G: ?Sized>(
        &mut self,
        game: &mut G,
        mut on_event: impl FnMut(&mut G, &Event<T>, &LoopState<T>, &mut Control),
    ) {
        let mut ctl = Control::default();
        loop {
            let deadline = self.frame_ctl(&mut ctl, |e, s, c| on_event(game, e, s, c));
            if ctl.exit {
                return;
            }
            self.wait_for(deadline);
        }
    }

    /// Waits until `deadline`, or the idle time when there is none.
    fn wait_for(&mut self, deadline: Option<T>) {
        let wake = match deadline {
            Some(d) => d,
            None => {
                let now = self.time.now();
                now.add_nanos(u64::try_from(self.idle.as_nanos()).unwrap_or(u64::MAX))
            }
        };
        self.wait_until(wake);
    }

    /// Whether events of the latest step still wait to be handed on: after a frame stopped
    /// before an [`Event::Sleep`], or a [`run_with`](Runner::run_with) handler exited before
    /// the step's last event. The next [`frame`](Runner::frame) hands them on first.
    #[must_use]
    pub fn has_pending_events(&self) -> bool {
        self.next < self.events.len()
    }

    /// The loop state.
    pub fn state(&self) -> &LoopState<T> {
        &self.state
    }

    /// The loop state, to pause, change the scale or add clocks between frames.
    pub fn state_mut(&mut self) -> &mut LoopState<T> {
        &mut self.state
    }

    /// The events of the latest step of the fold (some may still wait for their time, see
    /// [`frame`](Runner::frame)).
    pub fn events(&self) -> &Events<T> {
        &self.events
    }

    /// The time source, e.g. to read it for statistics.
    pub fn time_source_mut(&mut self) -> &mut C {
        &mut self.time
    }

    /// Gives back the state.
    pub fn into_state(self) -> LoopState<T> {
        self.state
    }
}

/// The span of one frame of a shell (feature `tracing`): the runner's (so winit's), the web
/// shell's. The step's, the updates' and the render's spans, tickfold-core's, are its children.
#[cfg(feature = "tracing")]
pub(crate) fn frame_span() -> tracing::span::EnteredSpan {
    tracing::info_span!(target: "tickfold", "frame").entered()
}
