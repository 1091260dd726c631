//! [`ManualTime`]: a fake clock for tests, which is also the sleeper.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tickfold_core::{LoopState, Nanos};

use super::{Sleeper, TimeSource};

/// A clock that moves only when told: the runner's fake clock for tests and replays.
///
/// It is both the [`TimeSource`] and the [`Sleeper`]: sleeping moves the clock to the deadline
/// at once (never back), so a [`Runner`](super::Runner) on it runs hours of a loop in
/// milliseconds, exactly on the fold's deadlines. Clones share one clock: give one clone to the
/// runner as its time source, one as its sleeper, and keep one to [`advance`](Self::advance)
/// the time by hand (the time an update or a draw takes, say). It is `Send` and `Sync`.
///
/// # Examples
///
/// ```
/// use tickfold::runner::{ManualTime, Runner};
/// use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
///
/// let clock = ManualTime::new();
/// let state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// let mut runner = Runner::new(state, clock.clone(), clock.clone());
/// let mut updates = 0;
/// runner.run(
///     |event, _| {
///         if let Event::Update(_) = event {
///             updates += 1;
///             clock.advance(Nanos::from_millis(3)); // each update takes 3 ms
///         }
///     },
///     |state| state.real_time().elapsed() < Nanos::from_secs(10),
/// );
/// // Ten seconds of a 50 Hz loop, run at once on the fake clock.
/// assert_eq!(updates, 500);
/// assert!(clock.now() >= Nanos::from_secs(10));
/// # Ok::<(), tickfold::ConfigError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ManualTime(Arc<AtomicU64>);

impl ManualTime {
    /// A clock at `Nanos(0)`.
    #[must_use]
    pub fn new() -> ManualTime {
        ManualTime::default()
    }

    /// A clock at `now`.
    #[must_use]
    pub fn starting_at(now: Nanos) -> ManualTime {
        ManualTime(Arc::new(AtomicU64::new(now.0)))
    }

    /// A clock at `state`'s latest time (its start plus its
    /// [`real_time`](LoopState::real_time)'s elapsed time), like
    /// [`RealNanos::resuming`](super::RealNanos::resuming): a loaded state goes on from
    /// exactly where it was saved, so a test that saves, loads and steps on a fake clock sees
    /// the same steps as one that never saved.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold::runner::{ManualTime, Runner};
    /// use tickfold::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let clock = ManualTime::starting_at(Nanos::from_millis(500));
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), clock.now())?;
    /// let mut runner = Runner::new(state, clock.clone(), clock.clone());
    /// runner.run(|_, _| {}, |s| s.real_time().elapsed() < Nanos::from_millis(70));
    /// let saved = runner.into_state(); // saved, then loaded (here or in another process)
    ///
    /// let clock = ManualTime::resuming(&saved);
    /// assert_eq!(clock.now(), Nanos(500_000_000 + saved.real_time().elapsed().0));
    /// let mut runner = Runner::new(saved, clock.clone(), clock.clone());
    /// let _ = runner.frame(|_, _| {}); // no time passed since the save: no tick is due
    /// assert_eq!(runner.state().real_time().delta(), Nanos(0));
    /// # Ok::<(), tickfold::ConfigError>(())
    /// ```
    #[must_use]
    pub fn resuming(state: &LoopState<Nanos>) -> ManualTime {
        ManualTime::starting_at(super::real_nanos::latest_time(state))
    }

    /// The time it reads now.
    #[must_use]
    pub fn now(&self) -> Nanos {
        Nanos(self.0.load(Ordering::Relaxed))
    }

    /// Moves the clock `by` later (saturating at `u64::MAX` ns); accepts [`Nanos`] and
    /// [`Duration`](std::time::Duration).
    pub fn advance(&self, by: impl Into<Nanos>) {
        let by = by.into().0;
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(by))
            });
    }

    /// Sets the clock to `now`, earlier or later (to test a clock that goes back).
    pub fn set(&self, now: Nanos) {
        self.0.store(now.0, Ordering::Relaxed);
    }
}

impl TimeSource<Nanos> for ManualTime {
    fn now(&mut self) -> Nanos {
        ManualTime::now(self)
    }
}

impl Sleeper<Nanos> for ManualTime {
    /// Moves the clock to `deadline`, or leaves it if it is already there or later.
    fn sleep_until(&mut self, deadline: Nanos) {
        self.0.fetch_max(deadline.0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleeping_moves_the_shared_clock_to_the_deadline_and_never_back() {
        let clock = ManualTime::starting_at(Nanos(5));
        let mut sleeper = clock.clone();
        sleeper.sleep_until(Nanos(100));
        assert_eq!(clock.now(), Nanos(100));
        sleeper.sleep_until(Nanos(50));
        assert_eq!(clock.now(), Nanos(100));
        clock.advance(std::time::Duration::from_nanos(7));
        assert_eq!(TimeSource::now(&mut sleeper), Nanos(107));
        clock.set(Nanos(1));
        assert_eq!(clock.now(), Nanos(1));
        clock.advance(Nanos(u64::MAX));
        assert_eq!(clock.now(), Nanos(u64::MAX));
    }
}
