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
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
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
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl Timestamp for std::time::Instant {
    #[inline]
    fn nanos_since(self, earlier: Self) -> Option<u64> {
        self.checked_duration_since(earlier)
            .map(|d| Nanos::from(d).0)
    }

    /// `self` moved `nanos` later, or as far as `Instant` can go: the largest span that still
    /// fits is found by binary search, so the result is never earlier than `self`.
    #[inline]
    fn add_nanos(self, nanos: u64) -> Self {
        if let Some(t) = self.checked_add(Duration::from_nanos(nanos)) {
            return t;
        }
        // Invariant: `lo` fits, `hi` does not.
        let (mut lo, mut hi) = (0u64, nanos);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.checked_add(Duration::from_nanos(mid)).is_some() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        self.checked_add(Duration::from_nanos(lo)).unwrap_or(self)
    }
}

/// How far a clock's simulation time is behind virtual time, exactly, in whole nanoseconds
/// (rounded down): positive when the simulation is behind, negative ("early") when a tick ran
/// before virtual time reached it (the *nearest* firing rule or hysteresis).
///
/// Kept as a magnitude and a sign, 12 bytes aligned to 4, so that [`Tick`](crate::Tick) and
/// [`Render`](crate::Render) stay as small as with a plain `u64`/`i64` lag; the magnitude
/// saturates at `u64::MAX` ns (584 years), which only the end of the time axis can reach.
///
/// # Examples
///
/// ```
/// use tickfold_core::{Lag, Nanos};
///
/// let behind = Lag::from(Nanos(5));
/// assert_eq!(behind.as_nanos(), 5);
/// assert_eq!(behind.behind(), Nanos(5));
/// let early = Lag::early_by(Nanos(3));
/// assert!(early.is_early() && early < behind);
/// assert_eq!((early.as_nanos(), early.behind()), (-3, Nanos(0)));
/// assert_eq!(early.to_string(), "-3ns");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C, packed(4))]
pub struct Lag {
    magnitude: u64,
    /// Never set with a zero magnitude, so equal lags compare equal.
    early: bool,
}

impl Lag {
    /// No lag.
    pub const ZERO: Lag = Lag {
        magnitude: 0,
        early: false,
    };

    /// The simulation is `n` ahead of virtual time (a tick ran `n` early).
    #[must_use]
    pub const fn early_by(n: Nanos) -> Lag {
        Lag {
            magnitude: n.0,
            early: n.0 != 0,
        }
    }

    /// `x − y` ns, saturating at `±u64::MAX` ns.
    #[inline]
    pub(crate) fn between(x: u128, y: u128) -> Lag {
        let (magnitude, early) = if x >= y {
            (x - y, false)
        } else {
            (y - x, true)
        };
        Lag {
            magnitude: u64::try_from(magnitude).unwrap_or(u64::MAX),
            early,
        }
    }

    /// `x − y` ns (the 64-bit case of [`between`](Self::between)).
    #[inline(always)]
    pub(crate) fn between_u64(x: u64, y: u64) -> Lag {
        let (magnitude, early) = if x >= y {
            (x - y, false)
        } else {
            (y - x, true)
        };
        Lag { magnitude, early }
    }

    /// The lag in signed nanoseconds: negative when early.
    #[must_use]
    pub const fn as_nanos(self) -> i128 {
        if self.early {
            -(self.magnitude as i128)
        } else {
            self.magnitude as i128
        }
    }

    /// How far the simulation is behind; 0 when it is early.
    #[must_use]
    pub const fn behind(self) -> Nanos {
        if self.early {
            Nanos(0)
        } else {
            Nanos(self.magnitude)
        }
    }

    /// Whether a tick ran before virtual time reached it.
    #[must_use]
    pub const fn is_early(self) -> bool {
        self.early
    }
}

impl From<Nanos> for Lag {
    /// A lag of `n` behind.
    fn from(n: Nanos) -> Lag {
        Lag {
            magnitude: n.0,
            early: false,
        }
    }
}

impl PartialOrd for Lag {
    fn partial_cmp(&self, other: &Lag) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Lag {
    fn cmp(&self, other: &Lag) -> core::cmp::Ordering {
        self.as_nanos().cmp(&other.as_nanos())
    }
}

impl fmt::Display for Lag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.early {
            f.write_str("-")?;
        }
        let magnitude = self.magnitude;
        write!(f, "{magnitude}ns")
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

    #[cfg(feature = "std")]
    #[test]
    fn instant_add_never_goes_back() {
        // Find (by doubling) an Instant near the end of the type, then ask for more than fits:
        // the answer is the largest reachable Instant, at least as late as the input.
        let mut t = std::time::Instant::now();
        let mut step = Duration::from_secs(1);
        loop {
            match t.checked_add(step) {
                Some(next) => {
                    t = next;
                    step = step.saturating_mul(2);
                }
                None if step > Duration::from_nanos(1) => step /= 2,
                None => break,
            }
        }
        let back = t.checked_sub(Duration::from_millis(700)).unwrap();
        let d = back.add_nanos(u64::MAX);
        assert!(d >= back);
        assert_eq!(d, t, "the largest addable span");
    }

    #[test]
    fn lag_is_exact_and_ordered() {
        assert_eq!(Lag::between(0, 7).as_nanos(), -7);
        assert_eq!(
            Lag::between(u128::from(u64::MAX) + 9, 0).as_nanos(),
            i128::from(u64::MAX)
        );
        assert_eq!(Lag::early_by(Nanos(0)), Lag::ZERO);
        assert!(Lag::between(0, 1) < Lag::ZERO && Lag::ZERO < Lag::from(Nanos(1)));
    }
}
