//! The loop in a browser (feature `web`): the fold driven by `requestAnimationFrame` stamps,
//! never sleeping, with one setting for hidden tabs.
//!
//! [`WebLoop`] is the whole logic, plain Rust on every target (so its tests run on the host):
//! it turns the page's stamps into steps of a [`LoopState<Nanos>`] and hands every event to
//! your code in order, as [`Runner`](crate::runner::Runner) does (updates, the render with its
//! `alpha`, drops, pauses, the deadline). On `wasm32`, `web::start` (built for that target only) is the thin glue that feeds it:
//! a `requestAnimationFrame` loop, a `visibilitychange` listener and, for
//! [`Hidden::KeepTicking`], a dedicated Worker's `setInterval`.
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
//! **Bad stamps.** A stamp that is not a finite number of milliseconds at or after 0 is refused
//! with [`BadStamp`] and the fold does not step. A stamp earlier than the one before (devtools
//! throttling can reorder them) is stepped as it is: the fold reports
//! [`Event::TimeBackwards`] and keeps its time; a repeated stamp steps by zero.
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

#[cfg(target_arch = "wasm32")]
mod glue;
#[cfg(target_arch = "wasm32")]
pub use glue::{KEEP_TICKING_INTERVAL_MS, start};

/// What the loop does while the page is hidden (`document.visibilityState` is `hidden`).
///
/// Whichever mode, nothing is silent: a pause is reported as [`Event::Paused`] and
/// [`Event::Resumed`], a gap as [`Event::DiscardedTime`], and ticks run while hidden are
/// ordinary [`Event::Update`]s.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hidden {
    /// Pause virtual time while the page is hidden, with the loop's own pause control
    /// ([`VirtualTimeMut::pause`](tickfold_core::VirtualTimeMut::pause)) from the latest
    /// frame, and resumed at the moment the page shows again, so the hidden stretch never
    /// counts. The fold reports [`Event::Paused`] and then
    /// [`Event::Resumed`]. A pause of your own (a menu) is left alone: the page showing again
    /// does not resume it.
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
    /// Worker whose `setInterval` posts a message every `KEEP_TICKING_INTERVAL_MS` (10 ms) (a
    /// Worker's timers are not stopped in a hidden tab, unlike `requestAnimationFrame`; the
    /// workaround `bevy_web_keepalive` uses), and each message steps the fold with renders
    /// left out ([`WebLoop::timer_tick`]). For networked games, whose peers do not wait.
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
/// not finite or before 0.
///
/// ```
/// use tickfold::Nanos;
/// use tickfold::web::stamp_to_nanos;
///
/// assert_eq!(stamp_to_nanos(16.7), Some(Nanos(16_700_000)));
/// assert_eq!(stamp_to_nanos(f64::NAN), None);
/// ```
#[must_use]
pub fn stamp_to_nanos(ms: f64) -> Option<Nanos> {
    if !ms.is_finite() || ms < 0.0 {
        return None;
    }
    // Exact for stamps below 2^53 ns (104 days of a page); `as` saturates beyond u64.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(Nanos((ms * 1e6).round() as u64))
}

/// The loop of a page: a [`LoopState<Nanos>`] stepped at the page's frame stamps, with the
/// [`Hidden`] rule for hidden tabs. See the [module docs](self).
#[derive(Debug)]
pub struct WebLoop {
    state: LoopState<Nanos>,
    events: Events<Nanos>,
    hidden: Hidden,
    /// The first stamp and the loop time it maps to; `None` before the first stamp.
    origin: Option<(Nanos, Nanos)>,
    visible: bool,
    /// This shell paused the loop for a hidden page (and so resumes it).
    paused_by_hiding: bool,
    /// The frame-delta smoother every stamp goes through, if smoothing is on.
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
        if hidden == Hidden::Report && state.real_time().max_frame_delta().is_none() {
            return Err(WebError::ReportNeedsMaxFrameDelta);
        }
        Ok(WebLoop {
            state,
            events: Events::new(),
            hidden,
            origin: None,
            visible: true,
            paused_by_hiding: false,
            smoother: None,
        })
    }

    /// Turns frame-delta smoothing on (`Some`) or off (`None`, the default): every page stamp
    /// (frames, visibility changes, keep-alive beats) goes through `smoother` before the fold
    /// sees it, so frames whose `requestAnimationFrame` stamps jitter around the display's
    /// refresh (and are coarsened to 100 µs without cross-origin isolation) step by whole
    /// refresh intervals, while the loop's time never strays from the page's by more than the
    /// smoother's [bound](DeltaSmoother::bound) and never goes backwards. A hidden tab's gap
    /// passes through unsmoothed, so [`Hidden`]'s rule sees it whole. See [`DeltaSmoother`]
    /// for the rules and the figures (60 Hz ticks on 60 Hz web stamps: 8 irregular frames of
    /// 36,000 smoothed, against about 18,000 for `game-loop` and Bevy's loop).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold::web::{Hidden, WebLoop};
    /// use tickfold::{DeltaSmoother, Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?).phase(0.5), Nanos(0))?;
    /// let mut page = WebLoop::new(state, Hidden::Pause)?.with_smoothing(Some(DeltaSmoother::new()));
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
    /// in [`Hidden::KeepTicking`] the render is left out. Returns the fold's deadline (the
    /// browser paces the frames; it is for a caller that wants to know).
    ///
    /// # Errors
    ///
    /// [`BadStamp`] when `stamp_ms` is not a time; the fold does not step.
    pub fn frame(
        &mut self,
        stamp_ms: f64,
        on_event: impl FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) -> Result<Option<Nanos>, BadStamp> {
        let now = self.loop_time(stamp_ms)?;
        let render = self.visible || self.hidden != Hidden::KeepTicking;
        self.step(now, render, on_event);
        Ok(self.events.deadline().copied())
    }

    /// The page became hidden (`visible` false) or visible again at `stamp_ms`
    /// (`performance.now()` in the `visibilitychange` handler), with what [`Hidden`] says:
    /// [`Hidden::Pause`] pauses virtual time from the latest frame (the last picture shown;
    /// browsers stop the frames before they tell the page, Chromium up to about 0.4 s
    /// before), and on showing steps to `stamp_ms` (paused) and resumes; the other modes step
    /// the fold to the moment of hiding. Telling the loop what it already knows does nothing.
    ///
    /// # Errors
    ///
    /// [`BadStamp`] when `stamp_ms` is not a time; nothing changes.
    pub fn set_visible(
        &mut self,
        visible: bool,
        stamp_ms: f64,
        on_event: impl FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) -> Result<(), BadStamp> {
        let now = self.loop_time(stamp_ms)?;
        if visible == self.visible {
            return Ok(());
        }
        if !visible {
            if self.hidden == Hidden::Pause {
                // Paused from the latest frame, the last picture the player saw: the browser
                // stops the frames first and tells the page later (Chromium: up to ~0.4 s).
                if !self.state.virtual_time().is_paused() {
                    self.state.virtual_time_mut().pause();
                    self.paused_by_hiding = true;
                }
            } else {
                // Account for the time up to the moment of hiding (no render: nobody sees it).
                self.step(now, false, on_event);
            }
        } else if self.paused_by_hiding {
            // Up to the moment of showing, paused: reports `Paused`, counts no virtual time.
            self.step(now, false, on_event);
            self.state.virtual_time_mut().resume();
            self.paused_by_hiding = false;
        }
        self.visible = visible;
        Ok(())
    }

    /// A beat of the keep-alive timer at `stamp_ms`: steps the fold, renders left out, only
    /// while the page is hidden in [`Hidden::KeepTicking`] (otherwise the frames drive the
    /// loop, and this does nothing). Whether it stepped.
    ///
    /// # Errors
    ///
    /// [`BadStamp`] when `stamp_ms` is not a time.
    pub fn timer_tick(
        &mut self,
        stamp_ms: f64,
        on_event: impl FnMut(&Event<Nanos>, &LoopState<Nanos>),
    ) -> Result<bool, BadStamp> {
        let now = self.loop_time(stamp_ms)?;
        if self.visible || self.hidden != Hidden::KeepTicking {
            return Ok(false);
        }
        self.step(now, false, on_event);
        Ok(true)
    }

    /// The rule for hidden tabs.
    #[must_use]
    pub fn hidden(&self) -> Hidden {
        self.hidden
    }

    /// Whether the page is visible, as the loop was last told.
    #[must_use]
    pub fn is_visible(&self) -> bool {
        self.visible
    }

    /// The loop state.
    #[must_use]
    pub fn state(&self) -> &LoopState<Nanos> {
        &self.state
    }

    /// The loop state, to pause, change the scale or add clocks between frames.
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

    /// The loop time of a page stamp: the first stamp maps to the state's latest time, later
    /// ones by their distance from it (an earlier one saturates at 0; the fold reports it as
    /// going backwards either way).
    fn loop_time(&mut self, stamp_ms: f64) -> Result<Nanos, BadStamp> {
        let stamp = stamp_to_nanos(stamp_ms).ok_or(BadStamp(stamp_ms))?;
        let (first, at) = *self.origin.get_or_insert_with(|| {
            let real = self.state.real_time();
            (stamp, real.start().add_nanos(real.elapsed().0))
        });
        let raw = match stamp.nanos_since(first) {
            Some(after) => at.add_nanos(after),
            None => Nanos(at.0.saturating_sub(first.0 - stamp.0)),
        };
        Ok(self.smoother.as_mut().map_or(raw, |s| s.smooth(raw)))
    }

    fn step(
        &mut self,
        now: Nanos,
        render: bool,
        mut on_event: impl FnMut(&Event<Nanos>, &LoopState<Nanos>),
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

#[cfg(test)]
mod tests;
