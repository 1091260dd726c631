//! Timestamps the fold accepts, and the integer nanosecond type it counts in.

use core::fmt;
use core::time::Duration;

/// A whole number of nanoseconds: the unit of every duration and timestamp inside the fold.
///
/// `Nanos` doubles as a caller-supplied monotonic [`Timestamp`] (nanoseconds since an epoch of
/// the caller's choosing), which is what `no_std` targets, wasm and replays use instead of
/// [`std::time::Instant`]. A `u64` of nanoseconds covers 584 years; arithmetic on it saturates.
///
/// # Examples
///
/// ```
/// use tickfold_core::Nanos;
/// use core::time::Duration;
///
/// assert_eq!(Nanos::from_millis(16), Nanos(16_000_000));
/// assert_eq!(Duration::from(Nanos(1_500)), Duration::from_nanos(1_500));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nanos(pub u64);

impl Nanos {
    /// Zero nanoseconds.
    pub const ZERO: Nanos = Nanos(0);

    /// `ms` milliseconds, saturating at `u64::MAX` nanoseconds.
    #[must_use]
    pub const fn from_millis(ms: u64) -> Nanos {
        Nanos(ms.saturating_mul(1_000_000))
    }

    /// `us` microseconds, saturating at `u64::MAX` nanoseconds.
    #[must_use]
    pub const fn from_micros(us: u64) -> Nanos {
        Nanos(us.saturating_mul(1_000))
    }

    /// `s` seconds, saturating at `u64::MAX` nanoseconds.
    #[must_use]
    pub const fn from_secs(s: u64) -> Nanos {
        Nanos(s.saturating_mul(1_000_000_000))
    }

    /// This many nanoseconds as seconds in an `f64` (for display and simulation inputs only).
    #[must_use]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
}

impl From<Duration> for Nanos {
    /// Converts, saturating at `u64::MAX` nanoseconds (584 years).
    fn from(d: Duration) -> Nanos {
        Nanos(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
    }
}

impl From<Nanos> for Duration {
    fn from(n: Nanos) -> Duration {
        Duration::from_nanos(n.0)
    }
}

impl fmt::Display for Nanos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}ns", self.0)
    }
}

/// A point on a monotonic time axis that the fold can measure from.
///
/// The fold never reads a clock: the caller passes `now` to every step. Anything that can say
/// how many nanoseconds separate two of its values works. Implemented for
/// [`std::time::Instant`] (with the `std` feature), for [`Nanos`] and for [`Duration`] (both read
/// as "time since an epoch the caller chose").
pub trait Timestamp: Copy + fmt::Debug {
    /// Nanoseconds from `earlier` to `self`, or `None` when `self` is before `earlier`.
    ///
    /// Saturates at `u64::MAX` for spans longer than 584 years.
    fn nanos_since(self, earlier: Self) -> Option<u64>;

    /// `self` moved `nanos` later, saturating at the largest representable value.
    #[must_use]
    fn add_nanos(self, nanos: u64) -> Self;
}

impl Timestamp for Nanos {
    #[inline]
    fn nanos_since(self, earlier: Self) -> Option<u64> {
        self.0.checked_sub(earlier.0)
    }

    #[inline]
    fn add_nanos(self, nanos: u64) -> Self {
        Nanos(self.0.saturating_add(nanos))
    }
}

impl Timestamp for Duration {
    #[inline]
    fn nanos_since(self, earlier: Self) -> Option<u64> {
        self.checked_sub(earlier).map(|d| Nanos::from(d).0)
    }

    #[inline]
    fn add_nanos(self, nanos: u64) -> Self {
        self.saturating_add(Duration::from_nanos(nanos))
    }
}

#[cfg(feature = "std")]
impl Timestamp for std::time::Instant {
    #[inline]
    fn nanos_since(self, earlier: Self) -> Option<u64> {
        self.checked_duration_since(earlier)
            .map(|d| Nanos::from(d).0)
    }

    #[inline]
    fn add_nanos(self, nanos: u64) -> Self {
        // `Instant` has no saturating add; fall back to halving until it fits, which only
        // matters for deadlines centuries away.
        let mut d = Duration::from_nanos(nanos);
        loop {
            if let Some(t) = self.checked_add(d) {
                return t;
            }
            if d.is_zero() {
                return self;
            }
            d /= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nanos_since_is_none_backwards() {
        assert_eq!(Nanos(5).nanos_since(Nanos(7)), None);
        assert_eq!(Nanos(7).nanos_since(Nanos(5)), Some(2));
        assert_eq!(
            Duration::from_secs(1).nanos_since(Duration::from_millis(500)),
            Some(500_000_000)
        );
        assert_eq!(Duration::ZERO.nanos_since(Duration::from_nanos(1)), None);
    }

    #[test]
    fn add_saturates() {
        assert_eq!(Nanos(u64::MAX - 1).add_nanos(5), Nanos(u64::MAX));
        assert_eq!(Nanos::from_secs(u64::MAX), Nanos(u64::MAX));
    }

    #[cfg(feature = "std")]
    #[test]
    fn instant_roundtrip() {
        let t0 = std::time::Instant::now();
        let t1 = t0.add_nanos(1_000);
        assert_eq!(t1.nanos_since(t0), Some(1_000));
        assert_eq!(t0.nanos_since(t1), None);
    }
}
