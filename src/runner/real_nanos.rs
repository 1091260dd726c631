//! [`RealNanos`]: the real clock read as [`Nanos`], so a `LoopState<Nanos>` (which saves and
//! loads as it is) runs in real time.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
use std::time::Instant;
// `performance.now()` in the browser, where `std::time::Instant::now()` panics.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use web_time::Instant;

use tickfold_core::{LoopState, Nanos, Timestamp};

use super::{Sleeper, TimeSource};

/// The real monotonic clock, read as [`Nanos`]: `at` at the instant `anchor`, and the real
/// time since then added.
///
/// A game that saves runs its loop as a `LoopState<Nanos>` on this clock: the state then holds
/// no `Instant` and serializes as it is (feature `serde`). After loading,
/// [`RealNanos::resuming`] reads the state's latest time at once, so the loop goes on as if no
/// time had passed between the save and the load. To sleep for its deadlines, wrap any
/// `Instant` sleeper with [`RealNanos::sleeper`] (a `Nanos` deadline means nothing without the
/// clock's anchor, so `SpinSleep` cannot take one alone); [`NoSleep`](super::NoSleep) works
/// on any time axis.
///
/// On `wasm32-unknown-unknown` it reads `web-time`'s `Instant` (the browser's
/// `performance.now()`), so it works in a page where `std::time::Instant::now()` panics.
///
/// # Examples
///
/// ```
/// use tickfold::runner::{RealNanos, Runner, SpinSleep};
/// use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
///
/// // A new game: the loop's time starts at 0 now.
/// let clock = RealNanos::new();
/// let state = LoopState::new(LoopConfig::new(Period::from_hz(200)?), Nanos(0))?;
/// let mut runner = Runner::new(state, clock, clock.sleeper(SpinSleep::default()));
/// runner.run(|_, _| {}, |state| state.clock("main").map_or(0, |c| c.stats().ticks_run) < 4);
/// let saved: LoopState<Nanos> = runner.into_state(); // what a save game stores
///
/// // Loaded later (in this process or the next): the clock reads the state's latest time now.
/// let clock = RealNanos::resuming(&saved);
/// let mut runner = Runner::new(saved, clock, clock.sleeper(SpinSleep::default()));
/// runner.run(|_, _| {}, |state| state.clock("main").map_or(0, |c| c.stats().ticks_run) < 8);
/// assert!(runner.state().clock("main").map_or(0, |c| c.stats().ticks_run) >= 8);
/// // Only the time the two runs took counts, not the time between them.
/// assert!(runner.state().real_time().elapsed() < Nanos::from_secs(5));
/// # Ok::<(), tickfold::ConfigError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RealNanos {
    anchor: Instant,
    at: Nanos,
}

impl Default for RealNanos {
    fn default() -> RealNanos {
        RealNanos::new()
    }
}

impl RealNanos {
    /// A clock that reads `Nanos(0)` now.
    #[must_use]
    pub fn new() -> RealNanos {
        RealNanos::starting_at(Nanos::ZERO)
    }

    /// A clock that reads `at` now.
    #[must_use]
    pub fn starting_at(at: Nanos) -> RealNanos {
        RealNanos::anchored(Instant::now(), at)
    }

    /// A clock that reads `at` at the instant `anchor`.
    #[must_use]
    pub fn anchored(anchor: Instant, at: Nanos) -> RealNanos {
        RealNanos { anchor, at }
    }

    /// A clock that reads `state`'s latest time now (its start plus its
    /// [`real_time`](LoopState::real_time)'s elapsed time): the clock for a loaded state, which
    /// then goes on as if no time had passed since its latest step.
    #[must_use]
    pub fn resuming(state: &LoopState<Nanos>) -> RealNanos {
        RealNanos::starting_at(latest_time(state))
    }

    /// The time it reads now.
    #[must_use]
    pub fn now(&self) -> Nanos {
        self.at.add_nanos(Nanos::from(self.anchor.elapsed()).0)
    }

    /// The instant at which it reads `t`: for a time before the anchor, the anchor (it has
    /// passed either way), unless `Instant` reaches that far back.
    #[must_use]
    pub fn instant_of(&self, t: Nanos) -> Instant {
        match t.nanos_since(self.at) {
            Some(after) => later(self.anchor, after),
            None => {
                let before = std::time::Duration::from_nanos(self.at.0 - t.0);
                self.anchor.checked_sub(before).unwrap_or(self.anchor)
            }
        }
    }

    /// `sleeper` (e.g. [`SpinSleep`](super::SpinSleep)) sleeping until this clock's `Nanos`
    /// deadlines.
    #[must_use]
    pub fn sleeper<S: Sleeper<Instant>>(&self, sleeper: S) -> SleepOn<S> {
        SleepOn {
            clock: *self,
            sleeper,
        }
    }
}

/// `anchor` moved `nanos` later, saturating (core's `Timestamp::add_nanos`, for the `Instant`
/// of the target: `web-time`'s in the browser).
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
fn later(anchor: Instant, nanos: u64) -> Instant {
    anchor.add_nanos(nanos)
}

/// `anchor` moved `nanos` later; the latest `Instant` that fits when it does not.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
fn later(anchor: Instant, nanos: u64) -> Instant {
    let (mut lo, mut hi) = (0, nanos);
    if let Some(t) = anchor.checked_add(std::time::Duration::from_nanos(nanos)) {
        return t;
    }
    // `lo` fits, `hi` does not.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if anchor
            .checked_add(std::time::Duration::from_nanos(mid))
            .is_some()
        {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    anchor + std::time::Duration::from_nanos(lo)
}

impl TimeSource<Nanos> for RealNanos {
    fn now(&mut self) -> Nanos {
        RealNanos::now(self)
    }
}

/// An `Instant` sleeper that sleeps until the `Nanos` deadlines of a [`RealNanos`] clock: made
/// by [`RealNanos::sleeper`].
#[derive(Copy, Clone, Debug)]
pub struct SleepOn<S> {
    clock: RealNanos,
    sleeper: S,
}

impl<S: Sleeper<Instant>> Sleeper<Nanos> for SleepOn<S> {
    fn sleep_until(&mut self, deadline: Nanos) {
        self.sleeper.sleep_until(self.clock.instant_of(deadline));
    }

    fn can_sleep(&self) -> bool {
        self.sleeper.can_sleep()
    }
}

/// `state`'s latest time on its own axis: its start plus the real time it has seen. The time a
/// clock resuming it reads (here and in [`ManualTime::resuming`](super::ManualTime::resuming)).
pub(super) fn latest_time(state: &LoopState<Nanos>) -> Nanos {
    let real = state.real_time();
    real.start().add_nanos(real.elapsed().0)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn reads_from_its_anchor_and_maps_deadlines_back_to_instants() {
        let anchor = Instant::now();
        let clock = RealNanos::anchored(anchor, Nanos::from_secs(3600));
        assert!(clock.now() >= Nanos::from_secs(3600));
        let t = Nanos::from_secs(3600).add_nanos(1_500);
        assert_eq!(clock.instant_of(t), anchor + Duration::from_nanos(1_500));
        assert!(clock.instant_of(Nanos(0)) <= anchor);
        // A sleep until a deadline 2 ms ahead lasts until then.
        let mut sleeper = clock.sleeper(super::super::ThreadSleep);
        let deadline = clock.now().add_nanos(2_000_000);
        sleeper.sleep_until(deadline);
        assert!(clock.now() >= deadline);
    }
}
