//! Real time of a running loop, as a view (`state.real_time().elapsed()`) and a handle
//! (`state.real_time_mut().set_max_frame_delta(..)`), like Bevy's `Time<Real>`, with the two
//! settings measured against it (the max frame delta and the render cap). The readings are
//! written once, for both; the settings are on the handle.

use core::fmt;
use core::time::Duration;

use crate::access::{Access, Exclusive, Shared};

use crate::error::ConfigError;
use crate::state::{Inner, LoopState};
use crate::values::rate::Period;
use crate::values::time::Nanos;

/// A loop's real time, borrowed for its readings, and with [`Exclusive`] access for the
/// settings that apply to it: [`RealTimeView`] from [`LoopState::real_time`], [`RealTimeMut`]
/// from [`LoopState::real_time_mut`]. One type, so both read alike (see [`Access`]).
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
/// let real = state.real_time();
/// assert_eq!((real.elapsed(), real.delta()), (Nanos::from_millis(50), Nanos::from_millis(20)));
/// state.real_time_mut().set_max_frame_delta(Some(Duration::from_millis(100)))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RealTimeHandle<'a, T: 'a = Nanos, A: Access = Shared> {
    inner: A::Ref<'a, Inner<T>>,
}

/// A loop's real time, read-only: from [`LoopState::real_time`] (`&LoopState` is enough).
/// `Copy`. Its readers are [`RealTimeHandle`]'s.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, RealTimeView};
///
/// fn frame_ms<T>(real: RealTimeView<'_, T>) -> u64 {
///     real.delta().0 / 1_000_000
/// }
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// let _ = state.advance(Nanos::from_millis(17));
/// assert_eq!(frame_ms(state.real_time()), 17);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
pub type RealTimeView<'a, T = Nanos> = RealTimeHandle<'a, T, Shared>;

/// A loop's real time, with the settings measured on it: from [`LoopState::real_time_mut`].
/// Its readers and settings are [`RealTimeHandle`]'s.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, RealTimeMut};
///
/// fn cap_renders(mut real: RealTimeMut<'_>) {
///     real.set_render_rate(Some(Period::from_hz(30).expect("a valid rate")));
/// }
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// cap_renders(state.real_time_mut());
/// assert_eq!(state.real_time().render_rate(), Some(Period::from_hz(30)?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type RealTimeMut<'a, T = Nanos> = RealTimeHandle<'a, T, Exclusive>;

impl<T> Clone for RealTimeView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for RealTimeView<'_, T> {}

impl<T: fmt::Debug, A: Access> fmt::Debug for RealTimeHandle<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RealTimeHandle")
            .field("start", self.start())
            .field("elapsed", &self.elapsed())
            .field("delta", &self.delta())
            .field("max_frame_delta", &self.max_frame_delta())
            .field("render_rate", &self.render_rate())
            .finish()
    }
}

impl<T> LoopState<T> {
    /// Real time, read-only, through `&self`: its readings (start, elapsed, delta) and the
    /// settings measured on it (the max frame delta, the render cap), the same as
    /// [`real_time_mut`](Self::real_time_mut)'s.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(5))?;
    /// let _ = state.advance(Nanos(105));
    /// let shared = &state; // what a `Runner` handler gets
    /// let real = shared.real_time();
    /// assert_eq!((*real.start(), real.elapsed()), (Nanos(5), Nanos(100)));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn real_time(&self) -> RealTimeView<'_, T> {
        RealTimeHandle { inner: &self.inner }
    }

    /// A handle on real time for its readings (start, elapsed, delta) and the settings
    /// measured on it (the max frame delta, the render cap), like Bevy's `Time<Real>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(5))?;
    /// state.real_time_mut().set_max_frame_delta(None)?;
    /// assert_eq!(state.real_time().max_frame_delta(), None);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn real_time_mut(&mut self) -> RealTimeMut<'_, T> {
        RealTimeHandle {
            inner: &mut self.inner,
        }
    }
}

/// The readings, the same for the view and the handle.
impl<T, A: Access> RealTimeHandle<'_, T, A> {
    /// The loop's start, as given to [`LoopState::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// // `Instant::now()` in a real loop.
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(7))?;
    /// assert_eq!(*state.real_time().start(), Nanos(7));
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
    /// assert_eq!(state.real_time().elapsed(), Nanos::from_millis(70));
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
    /// assert_eq!(state.real_time().delta(), Nanos(15));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn delta(&self) -> Nanos {
        Nanos(
            self.inner
                .real
                .now()
                .saturating_sub(self.inner.span.real_start()),
        )
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
    /// assert_eq!(state.real_time().max_frame_delta(), Some(Duration::from_millis(250)));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn max_frame_delta(&self) -> Option<Duration> {
        self.inner.real.max_delta().map(Duration::from_nanos)
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
    /// assert_eq!(state.real_time().render_rate(), Some(Period::from_hz(30)?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn render_rate(&self) -> Option<Period> {
        self.inner.render.rate()
    }
}

impl<T> RealTimeMut<'_, T> {
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
        s.render.set_rate(rate, s.real.now());
        self
    }
}
