//! The real-time layer: where the loop's time axis starts, the latest clock reading, and the
//! max frame delta. Only this module writes them; the fold reads the clock through
//! [`Real::read`], which applies the rule for a clock that goes backwards.

use crate::values::event::Event;
use crate::values::time::{Nanos, Timestamp};

/// Real time as the loop has seen it. All readings are kept as ns since `start`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Real<T> {
    start: T,
    /// The latest `now`, in ns since `start`; 0 before the first step.
    latest: u64,
    /// Whether a step has read the clock: `latest` is then a reading. (Apart from `latest`,
    /// not an `Option` of it: the step reads `latest` with no look at whether it is one.)
    read: bool,
    /// The max frame delta in ns of virtual time (`None`: no clamp).
    max_delta: Option<u64>,
}

impl<T> Real<T> {
    pub(crate) fn new(start: T, max_delta: Option<u64>) -> Real<T> {
        Real {
            start,
            latest: 0,
            read: false,
            max_delta,
        }
    }

    /// A loaded state's real time (the loader checks nothing here: any reading is valid).
    #[cfg(feature = "serde")]
    pub(crate) fn loaded(start: T, latest: Option<u64>, max_delta: Option<u64>) -> Real<T> {
        Real {
            start,
            latest: latest.unwrap_or(0),
            read: latest.is_some(),
            max_delta,
        }
    }

    /// Where the loop's time axis starts.
    #[inline]
    pub(crate) fn start(&self) -> &T {
        &self.start
    }

    /// The latest `now` in ns since the start; `None` before the first step.
    #[inline]
    pub(crate) fn latest(&self) -> Option<u64> {
        self.read.then_some(self.latest)
    }

    /// The latest `now` in ns since the start, 0 before the first step.
    #[inline]
    pub(crate) fn now(&self) -> u64 {
        self.latest
    }

    /// The max frame delta, in ns of virtual time.
    #[inline]
    pub(crate) fn max_delta(&self) -> Option<u64> {
        self.max_delta
    }

    /// The same readings on another time axis: `start` stands for the old start (see
    /// `LoopState::rebase`).
    pub(crate) fn rebase<U>(self, start: U) -> Real<U> {
        Real {
            start,
            latest: self.latest,
            read: self.read,
            max_delta: self.max_delta,
        }
    }

    pub(crate) fn set_max_delta(&mut self, max: Option<u64>) {
        self.max_delta = max;
    }
}

impl<T: Timestamp> Real<T> {
    /// Applies the time rules to `now`; returns the real ns that passed and how far `now` is
    /// behind the latest `now` (0 unless the clock went backwards, reported then as
    /// [`Event::TimeBackwards`]: no time passes and the latest `now` is kept).
    #[inline]
    pub(crate) fn read(&mut self, now: T, out: impl Extend<Event<T>>) -> (u64, u64) {
        let last = self.now();
        match now.nanos_since(self.start) {
            Some(real) if real >= last => {
                self.latest = real;
                self.read = true;
                (real - last, 0)
            }
            _ => self.read_backwards(now, last, out),
        }
    }

    /// [`read`](Self::read) when the clock went backwards.
    #[cold]
    #[inline(never)]
    fn read_backwards(&mut self, now: T, last: u64, mut out: impl Extend<Event<T>>) -> (u64, u64) {
        let by = match now.nanos_since(self.start) {
            Some(real) => last - real,
            None => self
                .start
                .nanos_since(now)
                .unwrap_or(0)
                .saturating_add(last),
        };
        out.extend(Some(Event::TimeBackwards { by: Nanos(by) }));
        self.read = true;
        (0, by)
    }
}
