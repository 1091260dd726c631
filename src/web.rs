//! The loop in a browser (feature `web`): the fold driven by `requestAnimationFrame` stamps,
//! never sleeping, with one setting for hidden tabs.
//!
//! [`WebLoop`] is the whole logic, plain Rust on every target (so its tests run on the host):
//! it turns the page's stamps into steps of a [`LoopState<Nanos>`] and hands every event to
//! your code in order, as [`Runner`](crate::runner::Runner) does (updates, the render with its
//! `alpha`, drops, pauses, the deadline). On `wasm32`, `web::start` (built for that target
//! only) is the thin glue that feeds it: on the web the frames are `requestAnimationFrame`'s,
//! with a `visibilitychange` listener and, while a page is hidden under
//! [`Hidden::KeepTicking`], a dedicated Worker's `setInterval`. `start` gives back a
//! `WebHandle` the game keeps (and its handler gets) to pause, change the time scale, add
//! clocks, refuse a tick, switch the hidden rule or stop the loop: the control the
//! [`Runner`](crate::runner::Runner) gives a native game. A panic stops the loop once.
//!
//! **Time.** A frame's stamp is the `DOMHighResTimeStamp` that `requestAnimationFrame` passes
//! (milliseconds as an `f64`, on the same axis as `performance.now()`), turned into whole
//! nanoseconds by [`stamp_to_nanos`]; the loop runs as a `LoopState<Nanos>`. Not an `Instant`:
//! the stamp is the time the browser says the frame began (all callbacks of a frame see the
//! same one), which is the moment to draw for, and reading a clock again (`web-time`'s
//! `Instant::now()`) would add the script's own delay to every frame. `Nanos` also keeps the
//! state saveable as it is and bit-identical to a native run fed the same stamps. The first
//! stamp is mapped to the state's latest time (its start, for a new state), so the first frame,
//! which has no previous stamp, steps by zero and draws at `alpha` 0.
//!
//! **Smoothing.** By default every stamp goes through a [`DeltaSmoother`] before the fold sees
//! it, so a 60 Hz game on a 60 Hz display runs one update a frame instead of 0 or 2 by the
//! stamps' jitter; [`WebLoop::with_smoothing`] says what it costs and turns it off.
//!
//! **One time axis.** The fold is fed only stamps of one axis: the frames' rAF stamps and,
//! while a hidden page keeps ticking, the Worker's beats; never a listener's
//! `performance.now()`, which runs up to a frame ahead of the next rAF stamp (the time that
//! frame *began*). A frame at or before the latest beat steps 1 ns past it, so the first
//! frame after a hidden stretch always renders.
//!
//! **Bad stamps.** A stamp that is not a finite number of milliseconds at or after 0, or so
//! far ahead that its time does not fit in a `u64` of nanoseconds (about 1.8e13 ms, 584
//! years), is refused with [`BadStamp`] and the fold does not step. A stamp earlier than the
//! one before (devtools throttling can reorder them; a bogus one far ahead makes every
//! honest one after it look early) is stepped as it is, once: the fold reports
//! [`Event::TimeBackwards`] (by how far the page's stamps went back) and draws nothing, and
//! the page's axis is anchored again at that stamp, so the frames after it step from there
//! and the game goes on. A forward jump, bogus or not, is what a hidden tab's gap looks like:
//! the max frame delta reports what it drops. A repeated stamp steps by zero.
//!
//! **Hidden tabs.** Browsers stop `requestAnimationFrame` in a hidden tab, so the first frame
//! back can come minutes later. [`Hidden`] chooses what that gap means; see there.
//!
//! ```
//! use tickfold::web::{Hidden, WebLoop};
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! let state = LoopState::new(LoopConfig::new(Period::from_hz(20)?), Nanos(0))?;
//! let mut web = WebLoop::new(state, Hidden::Pause)?;
//! let (mut ticks, mut alphas) = (0, Vec::new());
//! let mut on_event = |event: &Event<Nanos>, _: &LoopState<Nanos>| match event {
//!     Event::Update(_) => ticks += 1,
//!     Event::Render(r) => alphas.push(r.alpha),
//!     _ => {}
//! };
//! // rAF stamps of a 60 Hz display; the page was open 1.2 s before the first frame.
//! for frame in 0..=60 {
//!     web.frame(1200.0 + frame as f64 * 1000.0 / 60.0, &mut on_event)?;
//! }
//! assert_eq!(ticks, 20); // one second of 20 Hz ticks, counted from the first frame
//! assert_eq!(alphas.len(), 61); // one render per frame
//! assert!(alphas.iter().all(|a| (0.0..=1.0).contains(a)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use tickfold_core::{DeltaSmoother, Event, Events, LoopState, Nanos, Timestamp};

mod axis;
#[cfg(target_arch = "wasm32")]
mod glue;

use axis::{Axis, Mapped, Source};
#[cfg(target_arch = "wasm32")]
pub use glue::{HandleError, KEEP_TICKING_INTERVAL_MS, WebHandle, start};

/// What the loop does while the page is hidden (`document.visibilityState` is `hidden`).
///
/// Whichever mode, nothing is silent: a pause is reported as [`Event::Paused`] and
/// [`Event::Resumed`], a gap as [`Event::DiscardedTime`], and ticks run while hidden are
/// ordinary [`Event::Update`]s.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hidden {
    /// Pause virtual time while the page is hidden, with the loop's own pause control
    /// ([`VirtualTimeMut::pause`](tickfold_core::VirtualTimeMut::pause)) from the latest
    /// frame, and resumed at the first frame after the page shows again, so the hidden
    /// stretch never counts. [`Event::Paused`] reaches your code when the page hides (mute the
    /// sound, tell the other players), [`Event::Resumed`] with the first frame back, which
    /// draws. A pause of your own (a menu) is left alone: the page showing again does not
    /// resume it.
    ///
    /// The default: it is what the browser itself does with the page's animations and
    /// `requestAnimationFrame`, and what a Bevy game on the web does in effect (its virtual
    /// clock's 250 ms max delta throws the hidden time away), said here with events instead of
    /// a silent clamp. A single-player game picks up where the player left it.
    #[default]
    Pause,
    /// Keep virtual time running and report the gap as a long frame: the first frame back
    /// moves virtual time by the whole gap and the state's max frame delta
    /// ([`LoopConfig::max_frame_delta`](tickfold_core::LoopConfig::max_frame_delta), 250 ms by
    /// default) keeps at most that many ticks and reports the rest as
    /// [`Event::DiscardedTime`], with the exact ticks dropped. [`WebLoop::new`] refuses this
    /// mode on a state with no max frame delta ([`WebError::ReportNeedsMaxFrameDelta`]): a
    /// ten-minute gap would otherwise be run tick by tick.
    Report,
    /// Keep the clocks ticking while hidden, rendering off: `start` (wasm32) runs a dedicated
    /// Worker whose `setInterval` posts a message every `KEEP_TICKING_INTERVAL_MS` (10 ms)
    /// while the page is hidden, and only then (a Worker's timers are not stopped in a hidden
    /// tab, unlike `requestAnimationFrame`; the workaround `bevy_web_keepalive` uses); each
    /// message steps the fold with renders left out ([`WebLoop::timer_tick`]). While the page
    /// is visible the frames drive the loop and the Worker is silent. For networked games,
    /// whose peers do not wait.
    /// Measured in headless Chromium (the CI's browser test, `examples/web/test.mjs`: the
    /// 20 Hz web demo behind another tab for 3 s): 60 ticks in 3.004 s hidden, 19.97 per
    /// second, the full rate, with no frame drawn.
    KeepTicking,
}

/// A stamp that is not a time: not finite, or before 0 ms.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BadStamp(pub f64);

impl fmt::Display for BadStamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a page time stamp: {} ms", self.0)
    }
}

impl std::error::Error for BadStamp {}

/// Why [`WebLoop::new`] refused a state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WebError {
    /// [`Hidden::Report`] with a state that has no max frame delta: the gap of a hidden tab
    /// would not be reported but run, tick by tick.
    ReportNeedsMaxFrameDelta,
}

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebError::ReportNeedsMaxFrameDelta => f.write_str(
                "Hidden::Report needs a max frame delta on the state to report a hidden tab's gap",
            ),
        }
    }
}

impl std::error::Error for WebError {}

/// A page's `DOMHighResTimeStamp` (milliseconds, as `requestAnimationFrame` and
/// `performance.now()` give it) as whole nanoseconds, rounded to the nearest; `None` when it is
/// not finite, before 0, or too large for a `u64` of nanoseconds (about 1.8e13 ms).
///
/// ```
/// use tickfold::Nanos;
/// use tickfold::web::stamp_to_nanos;
///
/// assert_eq!(stamp_to_nanos(16.7), Some(Nanos(16_700_000)));
/// assert_eq!(stamp_to_nanos(f64::NAN), None);
/// assert_eq!(stamp_to_nanos(2e13), None); // 634 years: no page is that old
/// ```
#[must_use]
pub fn stamp_to_nanos(ms: f64) -> Option<Nanos> {
    /// 2^64: the first number of nanoseconds a `u64` does not hold (exact in an `f64`).
    const TOO_FAR_NS: f64 = 18_446_744_073_709_551_616.0;
    let ns = ms * 1e6;
    if !ns.is_finite() || !(0.0..TOO_FAR_NS).contains(&ns) {
        return None;
    }
    // Exact for stamps below 2^53 ns (104 days of a page); `as` saturates at u64::MAX for the
    // few stamps just under 2^64 ns that round up to it.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(Nanos(ns.round() as u64))
}

/// The loop of a page: a [`LoopState<Nanos>`] stepped at the page's frame stamps, with the
/// [`Hidden`] rule for hidden tabs. See the [module docs](self).
#[derive(Debug)]
pub struct WebLoop {
    state: LoopState<Nanos>,
    events: Events<Nanos>,
    /// The rule for the next hidden stretch.
    hidden: Hidden,
    /// The rule in force while the page is hidden; `None` while it is visible.
    hiding: Option<Hidden>,
    axis: Axis,
    /// This shell paused the loop for a hidden page (and so resumes it at the first frame
    /// back).
    paused_by_hiding: bool,
    /// The frame-delta smoother every frame stamp goes through, if smoothing is on (the
    /// default).
    smoother: Option<DeltaSmoother>,
}

impl WebLoop {
    /// A loop over `state` with the rule `hidden` for hidden tabs; the page starts visible.
    ///
    /// # Errors
    ///
    /// [`WebError::ReportNeedsMaxFrameDelta`] for [`Hidden::Report`] on a state without a max
    /// frame delta.
    pub fn new(state: LoopState<Nanos>, hidden: Hidden) -> Result<WebLoop, WebError> {
        check_rule(&state, hidden)?;
        Ok(WebLoop {
            state,
            events: Events::new(),
            hidden,
            hiding: None,
            axis: Axis::default(),
            paused_by_hiding: false,
            smoother: Some(DeltaSmoother::new()),
        })
    }

    /// Frame-delta smoothing on (`Some`, the default: [`DeltaSmoother::new`]) or off
    /// (`None`): every frame stamp goes through the smoother before the fold sees it (the
    /// keep-alive beats, which are no display frames, pass by it), so frames whose
    /// `requestAnimationFrame` stamps jitter around the display's refresh (and are coarsened to
    /// 100 µs without cross-origin isolation) step by whole refresh intervals, while the loop's
    /// time never strays from the page's by more than the smoother's
    /// [bound](DeltaSmoother::bound) (4 ms) and never goes backwards. A hidden tab's gap passes
    /// through unsmoothed, so [`Hidden`]'s rule sees it whole. A stamp earlier than the latest
    /// is the page's axis's business, before the smoother: see "Bad stamps" in the module docs.
    ///
    /// On by default because a 60 Hz game on a 60 Hz display otherwise alternates 0 and 2
    /// updates by the stamps' noise (Godot ships its delta smoothing on too). Measured in
    /// `BENCHMARKS.md` ("Defaults against defaults", 36,000 frames of 60 Hz web stamps): 4
    /// irregular frames with the default against 5,872 with `None`, 33,738 for a plain
    /// accumulator and `game-loop`, all 4 in the first 2 s while the smoother measures the
    /// refresh (snapping meanwhile to the interval measured so far); on 3,004
    /// `requestAnimationFrame` stamps recorded in headless Chromium, 51 against 360 (Godot's
    /// jitter fix: 51); none changed on 144 Hz or 50 Hz frames. What it costs: a tick runs at most 4 ms
    /// earlier or later than unsmoothed, and the ticks run are within one of those due at the
    /// page's time (at 60 Hz); none is lost or invented.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold::web::{Hidden, WebLoop};
    /// use tickfold::{DeltaSmoother, Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let mut page = WebLoop::new(state, Hidden::Pause)?; // smooths by default
    /// // A 60 Hz display whose stamps jitter by up to ±0.9 ms, coarsened to 0.1 ms.
    /// let (mut irregular, mut seed) = (0, 7_u64);
    /// for frame in 0..600_u32 {
    ///     seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    ///     let jitter = ((seed >> 33) % 19) as f64 / 10.0 - 0.9;
    ///     let stamp = ((f64::from(frame) * 1000.0 / 60.0 + jitter) * 10.0).round() / 10.0;
    ///     let mut updates = 0;
    ///     page.frame(stamp.max(0.0), |event, _| updates += u32::from(matches!(event, Event::Update(_))))?;
    ///     irregular += u32::from(frame >= 100 && updates != 1);
    /// }
    /// assert!(page.smoother().and_then(DeltaSmoother::interval).is_some()); // it measured the refresh
    /// assert!(irregular < 10, "{irregular} frames ran 0 or 2+ updates");
    /// // Off: the stamps reach the fold as they are.
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// assert!(WebLoop::new(state, Hidden::Pause)?.with_smoothing(None).smoother().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_smoothing(mut self, smoother: Option<DeltaSmoother>) -> WebLoop {
        self.smoother = smoother;
        self
    }

    /// The frame-delta smoother, if smoothing is on (its measured interval and counts).
    #[must_use]
    pub fn smoother(&self) -> Option<&DeltaSmoother> {
        self.smoother.as_ref()
    }

    /// One frame at the page stamp `stamp_ms` (a `requestAnimationFrame` callback's argument):
    /// steps the fold and hands every event to `on_event` in order. While the page is hidden
    /// in [`Hidden::KeepTicking`] the render is left out. The first frame after a hidden
    /// stretch in [`Hidden::Pause`] resumes virtual time at its stamp and renders (see
    /// [`set_visible`](WebLoop::set_visible)). A stamp before the latest one is reported and
    /// the page's axis moves to it (see the [module docs](self)). Returns the fold's deadline
    /// (the browser paces the frames; it is for a caller that wants to know).
    ///
    /// # Errors
    ///
    /// [`BadStamp`] when `stamp_ms` is not a time; the fold does not step.
    pub fn frame(
        &mut self,
        stamp_ms: f64,
        mut on_event: impl FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) -> Result<Option<Nanos>, BadStamp> {
        let render = self.hiding != Some(Hidden::KeepTicking);
        let Some(now) = self.stamp(stamp_ms, Source::Frame, render, &mut on_event)? else {
            return Ok(self.events.deadline().copied());
        };
        if self.paused_by_hiding && self.hiding.is_none() {
            // The first frame back: paused up to 1 ns before it (the hidden stretch never
            // counts), then resumed, and the frame itself steps 1 ns, so it renders and
            // reports `Resumed`.
            let before = Nanos(now.0.saturating_sub(1));
            if before > self.latest_time() {
                self.step(before, false, &mut on_event);
            }
            self.state.virtual_time_mut().resume();
            self.paused_by_hiding = false;
        }
        self.step(now, render, &mut on_event);
        Ok(self.events.deadline().copied())
    }

    /// The page became hidden (`visible` false) or visible again (the `visibilitychange`
    /// event), with what [`Hidden`] says. Takes no stamp: the listener's `performance.now()`
    /// is often later than the next frame's `requestAnimationFrame` stamp (by up to a frame,
    /// measured in Chromium), and feeding both would make that frame a
    /// [`Event::TimeBackwards`] that draws nothing.
    ///
    /// On hiding, [`Hidden::Pause`] pauses virtual time from the latest frame (the last
    /// picture shown; browsers stop the frames before they tell the page, Chromium up to about
    /// 0.4 s before) and steps the fold there at once, so [`Event::Paused`] reaches `on_event`
    /// when the page hides (to mute the sound, tell the other players); the first frame after
    /// the page shows again resumes it ([`frame`](WebLoop::frame)). The other modes step
    /// nothing here: [`Hidden::Report`]'s first frame back sees the gap, and
    /// [`Hidden::KeepTicking`]'s beats ([`timer_tick`](WebLoop::timer_tick)) run only while
    /// hidden. Telling the loop what it already knows does nothing.
    pub fn set_visible(
        &mut self,
        visible: bool,
        mut on_event: impl FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) {
        if visible == self.is_visible() {
            return;
        }
        if visible {
            self.hiding = None;
            return;
        }
        self.hiding = Some(self.hidden);
        if self.hidden == Hidden::Pause && !self.state.virtual_time().is_paused() {
            self.state.virtual_time_mut().pause();
            self.paused_by_hiding = true;
            if self.axis.started() {
                let now = self.latest_time();
                self.step(now, false, &mut on_event);
            }
        }
    }

    /// A beat of the keep-alive timer at `stamp_ms` (`performance.now()` when the Worker's
    /// message is handled): steps the fold, renders left out, only while the page is hidden in
    /// [`Hidden::KeepTicking`] ([`keeps_ticking`](WebLoop::keeps_ticking); otherwise the
    /// frames drive the loop, and this does nothing). Whether it stepped. The frame after a
    /// beat never steps back to before it: a frame stamped at or before the latest beat steps
    /// 1 ns past it, so it renders.
    ///
    /// # Errors
    ///
    /// [`BadStamp`] when `stamp_ms` is not a time.
    pub fn timer_tick(
        &mut self,
        stamp_ms: f64,
        mut on_event: impl FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) -> Result<bool, BadStamp> {
        if !self.keeps_ticking() {
            if stamp_to_nanos(stamp_ms).is_none() {
                return Err(BadStamp(stamp_ms));
            }
            return Ok(false);
        }
        if let Some(now) = self.stamp(stamp_ms, Source::Beat, false, &mut on_event)? {
            self.step(now, false, &mut on_event);
        }
        Ok(true)
    }

    /// Whether the keep-alive beats are wanted now: the page is hidden under
    /// [`Hidden::KeepTicking`]. `start` (wasm32) runs its Worker's timer only then.
    #[must_use]
    pub fn keeps_ticking(&self) -> bool {
        self.hiding == Some(Hidden::KeepTicking)
    }

    /// The rule for hidden tabs.
    #[must_use]
    pub fn hidden(&self) -> Hidden {
        self.hidden
    }

    /// Changes the rule for hidden tabs (a setting in the game's menu). It applies from the
    /// next time the page hides; a hidden stretch under way keeps the rule it began with.
    ///
    /// # Errors
    ///
    /// [`WebError::ReportNeedsMaxFrameDelta`] for [`Hidden::Report`] on a state without a max
    /// frame delta; the rule is unchanged.
    pub fn set_hidden(&mut self, hidden: Hidden) -> Result<(), WebError> {
        check_rule(&self.state, hidden)?;
        self.hidden = hidden;
        Ok(())
    }

    /// Whether the page is visible, as the loop was last told.
    #[must_use]
    pub fn is_visible(&self) -> bool {
        self.hiding.is_none()
    }

    /// The loop state.
    #[must_use]
    pub fn state(&self) -> &LoopState<Nanos> {
        &self.state
    }

    /// The loop state, to pause, change the scale, add clocks or refuse a tick between frames.
    pub fn state_mut(&mut self) -> &mut LoopState<Nanos> {
        &mut self.state
    }

    /// The events of the latest step.
    #[must_use]
    pub fn events(&self) -> &Events<Nanos> {
        &self.events
    }

    /// Gives back the state.
    #[must_use]
    pub fn into_state(self) -> LoopState<Nanos> {
        self.state
    }

    /// The loop's latest time: where the fold stands.
    fn latest_time(&self) -> Nanos {
        let real = self.state.real_time();
        real.start().add_nanos(real.elapsed().0)
    }

    /// The loop time to step to for a page stamp, smoothed if smoothing is on; `None` when the
    /// stamp went back, which is stepped here (the fold reports it, at the distance the page's
    /// stamps went back) and moves the axis.
    fn stamp(
        &mut self,
        stamp_ms: f64,
        source: Source,
        render: bool,
        on_event: &mut dyn FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) -> Result<Option<Nanos>, BadStamp> {
        let latest = self.latest_time();
        match self.axis.map(stamp_ms, source, latest)? {
            // Only display frames are smoothed: a beat is no frame, and the smoother would
            // snap beats to a 10 ms grid and could then hold the first frame back (no render).
            Mapped::At(raw) => Ok(Some(match (&mut self.smoother, source) {
                (Some(smoother), Source::Frame) => smoother.smooth(raw),
                _ => raw,
            })),
            Mapped::Back(by) => {
                // At the loop's start (time 0) the fold cannot go further back: it then sees a
                // repeated time, and the axis has moved all the same.
                self.step(Nanos(latest.0.saturating_sub(by.0)), render, on_event);
                Ok(None)
            }
        }
    }

    /// One step of the fold to `now`, its events handed to `on_event` (one body for every
    /// caller: a `dyn` handler keeps the fold's code once in a `.wasm`).
    fn step(
        &mut self,
        now: Nanos,
        render: bool,
        on_event: &mut dyn FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) {
        #[cfg(feature = "tracing")]
        let _frame = crate::runner::frame_span();
        self.state.advance_into(now, &mut self.events);
        // Each update's handler reads the state as of its tick (`LoopState::hand_on`, as the
        // runner does); the events are the latest step's, so this cannot fail.
        let handed = self.state.hand_on(&self.events, |event, state| {
            if render || !matches!(event, Event::Render(_)) {
                on_event(&event, state);
            }
        });
        debug_assert!(handed.is_ok(), "the events of the step just taken");
    }
}

/// Refuses [`Hidden::Report`] on a state with no max frame delta.
fn check_rule(state: &LoopState<Nanos>, hidden: Hidden) -> Result<(), WebError> {
    if hidden == Hidden::Report && state.real_time().max_frame_delta().is_none() {
        return Err(WebError::ReportNeedsMaxFrameDelta);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
