//! Real time of a running loop, as a handle: `state.real_time_mut().set_max_frame_delta(..)`,
//! like Bevy's `Time<Real>`, with the two settings measured against it (the max frame delta
//! and the render cap). The readings and controls live here once; `LoopState`'s older methods
//! for them call these.

use core::time::Duration;

use crate::error::ConfigError;
use crate::rate::{GridPoint, Period};
use crate::state::{Inner, LoopState};
use crate::time::Nanos;

/// A loop's real time, borrowed for its readings and the settings that apply to it: from
/// [`LoopState::real_time_mut`].
///
/// Real time is the clock the shell reads, as ns since the loop's start; the loop only sees
/// it at each step's `now`. Settings take effect from the next step.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// let _ = state.advance(Nanos::from_millis(30));
/// let _ = state.advance(Nanos::from_millis(50));
/// let mut real = state.real_time_mut();
/// assert_eq!((real.elapsed(), real.delta()), (Nanos::from_millis(50), Nanos::from_millis(20)));
/// real.set_max_frame_delta(Some(Duration::from_millis(100)))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct RealTimeMut<'a, T = Nanos> {
    inner: &'a mut Inner<T>,
}

impl<T> Inner<T> {
    /// The real ns the latest step covered.
    fn real_delta(&self) -> Nanos {
        Nanos(self.real.now().saturating_sub(self.span.real0))
    }

    fn max_frame_delta(&self) -> Option<Duration> {
        self.real.max_delta().map(Duration::from_nanos)
    }
}

impl<T> LoopState<T> {
    /// A handle on real time for its readings (start, elapsed, delta) and the settings
    /// measured on it (the max frame delta, the render cap), like Bevy's `Time<Real>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(5))?;
    /// let _ = state.advance(Nanos(105));
    /// let real = state.real_time_mut();
    /// assert_eq!((*real.start(), real.elapsed()), (Nanos(5), Nanos(100)));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn real_time_mut(&mut self) -> RealTimeMut<'_, T> {
        RealTimeMut {
            inner: &mut self.inner,
        }
    }
}

impl<T> RealTimeMut<'_, T> {
    /// The loop's start, as given to [`LoopState::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// // `Instant::now()` in a real loop.
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(7))?;
    /// assert_eq!(*state.real_time_mut().start(), Nanos(7));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn start(&self) -> &T {
        self.inner.real.start()
    }

    /// The latest real time seen, in ns since the start (0 before the first step; a clock
    /// that went backwards leaves it where it was).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(70));
    /// let _ = state.advance(Nanos::from_millis(40)); // backwards: no time passes
    /// assert_eq!(state.real_time_mut().elapsed(), Nanos::from_millis(70));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn elapsed(&self) -> Nanos {
        Nanos(self.inner.real.now())
    }

    /// The real time the latest step covered: its `now` less the previous `now` (the first
    /// step measures from the start). 0 before the first step, for a step whose `now` repeats
    /// the latest one, and for one whose clock went backwards (no time passed). Exact: the
    /// real deltas of all steps add up to [`elapsed`](Self::elapsed).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let _ = state.advance(Nanos(10));
    /// let _ = state.advance(Nanos(25));
    /// assert_eq!(state.real_time_mut().delta(), Nanos(15));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn delta(&self) -> Nanos {
        self.inner.real_delta()
    }

    /// The max frame delta (see
    /// [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)); `None`: no clamp.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// assert_eq!(state.real_time_mut().max_frame_delta(), Some(Duration::from_millis(250)));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn max_frame_delta(&self) -> Option<Duration> {
        self.inner.max_frame_delta()
    }

    /// Changes the max frame delta from the next step on (`None`: no clamp).
    ///
    /// # Errors
    ///
    /// [`ConfigError::ZeroMaxFrameDelta`] for a zero duration; the state is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tickfold_core::{ConfigError, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(10)?).max_updates(None);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// state.real_time_mut().set_max_frame_delta(None)?; // a 10 s stall runs all 100 ticks
    /// assert_eq!(state.advance(Nanos::from_secs(10)).update_count(), 100);
    /// let zero = state.real_time_mut().set_max_frame_delta(Some(Duration::ZERO)).err();
    /// assert_eq!(zero, Some(ConfigError::ZeroMaxFrameDelta));
    /// # Ok::<(), ConfigError>(())
    /// ```
    pub fn set_max_frame_delta(&mut self, max: Option<Duration>) -> Result<&mut Self, ConfigError> {
        match max {
            Some(d) if d.is_zero() => Err(ConfigError::ZeroMaxFrameDelta),
            d => {
                self.inner.real.set_max_delta(d.map(|d| Nanos::from(d).0));
                Ok(self)
            }
        }
    }

    /// The render cap (see [`LoopConfig::render_rate`](crate::LoopConfig::render_rate));
    /// `None`: render every step that advances time.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?).render_rate(Some(Period::from_hz(30)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// assert_eq!(state.real_time_mut().render_rate(), Some(Period::from_hz(30)?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn render_rate(&self) -> Option<Period> {
        self.inner.render_rate
    }

    /// Changes the render cap. Its slots stay on a fixed grid of real time from the loop's
    /// start; the next step may render.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// state.real_time_mut().set_render_rate(Some(Period::from_hz(10)?)); // a slot per 100 ms
    /// assert!(state.advance(Nanos::from_millis(10)).render().is_some()); // the first step renders
    /// assert!(state.advance(Nanos::from_millis(50)).render().is_none());
    /// assert!(state.advance(Nanos::from_millis(100)).render().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_render_rate(&mut self, rate: Option<Period>) -> &mut Self {
        let s = &mut *self.inner;
        if rate != s.render_rate {
            s.render_rate = rate;
            let now = s.real.now();
            s.render_next = rate.map(|r| GridPoint::at(r, r.ticks_in(now)));
        }
        self
    }
}

// `LoopState`'s older real-time methods: each calls the handle (or, reading through
// `&self`, the same readings). Left off the docs page.
impl<T> LoopState<T> {
    /// [`RealTimeMut::start`].
    #[doc(hidden)]
    #[must_use]
    pub fn start(&self) -> &T {
        self.inner.real.start()
    }

    /// [`RealTimeMut::elapsed`].
    #[doc(hidden)]
    #[must_use]
    pub fn real_time(&self) -> Nanos {
        Nanos(self.inner.real.now())
    }

    /// [`RealTimeMut::delta`].
    #[doc(hidden)]
    #[must_use]
    pub fn real_delta(&self) -> Nanos {
        self.inner.real_delta()
    }

    /// [`RealTimeMut::max_frame_delta`].
    #[doc(hidden)]
    #[must_use]
    pub fn max_frame_delta(&self) -> Option<Duration> {
        self.inner.max_frame_delta()
    }

    /// `real_time_mut().`[`set_max_frame_delta`](RealTimeMut::set_max_frame_delta)`(max)`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::ZeroMaxFrameDelta`] for a zero duration; the state is unchanged.
    #[doc(hidden)]
    pub fn set_max_frame_delta(&mut self, max: Option<Duration>) -> Result<(), ConfigError> {
        self.real_time_mut().set_max_frame_delta(max)?;
        Ok(())
    }

    /// [`RealTimeMut::render_rate`].
    #[doc(hidden)]
    #[must_use]
    pub fn render_rate(&self) -> Option<Period> {
        self.inner.render_rate
    }

    /// `real_time_mut().`[`set_render_rate`](RealTimeMut::set_render_rate)`(rate)`.
    #[doc(hidden)]
    pub fn set_render_rate(&mut self, rate: Option<Period>) {
        self.real_time_mut().set_render_rate(rate);
    }
}
