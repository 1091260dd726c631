//! Adding and removing clocks while the loop runs.

use crate::config::ClockConfig;
use crate::error::{ConfigError, RemoveClockError};
use crate::state::LoopState;
use crate::values::id::ClockId;
use crate::values::id::ClockRef;
use crate::values::time::Nanos;

impl<T> LoopState<T> {
    /// Adds a clock to a running loop. Its tick 0 starts at virtual time `start` (ns since the
    /// loop's start; `None` means the latest virtual time, so it starts now).
    ///
    /// A start in the past follows the clock's policy: a catch-up clock catches up, at most its
    /// cap per step, reporting the backlog as [`Event::Deferred`](crate::Event::Deferred); a
    /// constant-rate clock drops the slots that passed, reported as
    /// [`Event::DroppedTicks`](crate::Event::DroppedTicks) at the next step.
    ///
    /// # Errors
    ///
    /// [`ConfigError`], as [`LoopState::new`] gives for the same clock set:
    /// [`ConfigError::DuplicateClock`] if the name is taken, the setting's variant for invalid
    /// settings, [`ConfigError::TooManyClocks`] after 65,535 clocks. The state is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // No cap: the main clock leaves no backlog for the AI clock's ticks to wait behind.
    /// let config = LoopConfig::new(Period::from_hz(60)?).max_updates(None);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(500));
    /// // An AI clock from now on: its tick 0 covers [500, 600) ms of virtual time.
    /// let ai = state.add_clock(ClockConfig::new("ai", Period::from_hz(10)?), None)?;
    /// let events = state.advance(Nanos::from_millis(600));
    /// assert_eq!(events.updates().filter(|t| t.clock == ai).count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_clock(
        &mut self,
        config: ClockConfig,
        start: Option<Nanos>,
    ) -> Result<ClockId, ConfigError> {
        let s = &mut *self.inner;
        let checked = config.validate()?;
        if s.clocks.clock_id(&config.name).is_some() {
            return Err(ConfigError::DuplicateClock(config.name));
        }
        let origin = start.map_or(s.virt.now(), |s| s.0);
        s.clocks
            .push_clock(config, checked, origin)
            .ok_or(ConfigError::TooManyClocks)
    }

    /// Removes the clock called `clock` (a name as `&str`, `&String` or `String`), or with id
    /// `clock`. If it drove the render alpha, the fastest remaining clock does from now on (ties to
    /// the first declared; see [`LoopConfig::alpha_clock`](crate::LoopConfig::alpha_clock)). Ids
    /// are never reused. What the controls did to it that no step has reported yet (a rate
    /// change, discarded ticks) is not reported: no event names a clock the loop does not
    /// have. Its name goes with it (the loop keeps no other copy).
    ///
    /// # Errors
    ///
    /// [`RemoveClockError::NoSuchClock`] if no clock has that name or id (the lookup's
    /// [`NoSuchClock`](crate::NoSuchClock)), [`RemoveClockError::LastClock`] if it is the only
    /// one. The state is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{
    ///     ClockConfig, LoopConfig, LoopState, Nanos, NoSuchClock, Period, RemoveClockError,
    /// };
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?)
    ///     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let ai = state.remove_clock("ai")?;
    /// assert_eq!(state.clock(ai).err(), Some(NoSuchClock::Id(ai)));
    /// assert_eq!(state.remove_clock("main"), Err(RemoveClockError::LastClock));
    /// let gone = RemoveClockError::NoSuchClock(NoSuchClock::Name("ai".into()));
    /// assert_eq!(state.remove_clock("ai"), Err(gone));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove_clock<'a>(
        &mut self,
        clock: impl Into<ClockRef<'a>>,
    ) -> Result<ClockId, RemoveClockError> {
        let clocks = &mut self.inner.clocks;
        let i = clocks.position(clock.into())?;
        clocks.remove(i)
    }
}
