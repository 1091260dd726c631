//! Exact rational tick lengths and time scales, and the integer walk over a tick grid.

use core::fmt;
use core::time::Duration;

const NANOS_PER_SEC: u64 = 1_000_000_000;

/// An invalid tick rate or time scale, from the constructors of
/// [`Period`](crate::Period) and [`TimeScale`](crate::TimeScale).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RateError {
    /// A tick rate (or one of its parts) was zero.
    Zero,
    /// A tick rate was NaN, infinite or negative.
    Invalid,
    /// A tick would be shorter than one nanosecond (a rate above 1 GHz).
    TooHigh,
    /// A positive rate given as a float was below 1 µHz, the resolution of
    /// [`Period::from_hz_f64`](crate::Period::from_hz_f64).
    TooLow,
    /// A tick length does not fit in 64-bit nanoseconds.
    OutOfRange,
    /// A time scale was NaN, infinite, negative, above 4,000 or had a zero denominator.
    InvalidScale,
}

impl fmt::Display for RateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RateError::Zero => "tick rate must be greater than zero",
            RateError::Invalid => "tick rate must be a finite, positive number",
            RateError::TooHigh => "tick rate is too high: a tick must last at least 1 ns",
            RateError::TooLow => {
                "tick rate is too low: from_hz_f64 resolves 1 µHz (use from_duration for slower clocks)"
            }
            RateError::OutOfRange => "tick length does not fit in 64-bit nanoseconds (584 years)",
            RateError::InvalidScale => {
                "time scale must be a finite number in [0, 4000] with a non-zero denominator"
            }
        })
    }
}

impl core::error::Error for RateError {}

/// Rounds a finite, non-negative float to the nearest integer (halves up), saturating; `core`
/// has no `f64::round` without `std`.
pub(crate) fn round_nonneg(x: f64) -> u64 {
    (x + 0.5) as u64
}

/// The greatest common divisor (shared with the exact scaled-time remainder in `time/sub_nanos.rs`).
pub(crate) const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// A fixed tick length, kept as an exact fraction of nanoseconds.
///
/// 60 Hz is exactly 50,000,000/3 ns, not 16,666,667 ns: tick *k* starts at exactly *k*·dt, so
/// 60 ticks at 60 Hz are exactly one second and the grid never drifts. All constructors check
/// their input and return a [`RateError`] for a zero, negative, NaN or infinite rate, and for a
/// tick shorter than one nanosecond.
///
/// # Examples
///
/// ```
/// use tickfold_core::Period;
/// use core::time::Duration;
///
/// let r = Period::from_hz(60)?;
/// assert_eq!(r.as_nanos_ratio(), (50_000_000, 3));
/// assert_eq!(r.tick_start_nanos(60), 1_000_000_000);
/// assert_eq!(Period::from_duration(Duration::from_millis(20))?, Period::from_hz(50)?);
/// assert!(Period::from_hz(0).is_err());
/// assert!(Period::from_hz_f64(f64::NAN).is_err());
/// # Ok::<(), tickfold_core::RateError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Numerator of the period in nanoseconds (reduced).
    num: u64,
    /// Denominator of the period in nanoseconds (reduced, never zero).
    den: u64,
}

impl Period {
    /// One tick per second.
    pub const ONE_SECOND: Period = Period {
        num: NANOS_PER_SEC,
        den: 1,
    };

    /// A tick of `num / den` nanoseconds, reduced. Fails if it is zero, undefined, shorter than
    /// 1 ns or does not fit.
    pub(crate) fn from_ns_ratio(num: u128, den: u128) -> Result<Period, RateError> {
        if num == 0 || den == 0 {
            return Err(RateError::Zero);
        }
        let g = gcd(num, den);
        let (num, den) = (num / g, den / g);
        if num < den {
            return Err(RateError::TooHigh);
        }
        match (u64::try_from(num), u64::try_from(den)) {
            (Ok(num), Ok(den)) => Ok(Period { num, den }),
            _ => Err(RateError::OutOfRange),
        }
    }

    /// `hz` ticks per second.
    ///
    /// # Errors
    ///
    /// [`RateError::Zero`] for 0 and [`RateError::TooHigh`] above 1 GHz.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Period, RateError};
    ///
    /// let dt = Period::from_hz(60)?;
    /// assert_eq!(dt.as_nanos_ratio(), (50_000_000, 3)); // 16.666… ms, kept exactly
    /// assert_eq!(dt.tick_start_nanos(60), 1_000_000_000); // 60 ticks are exactly one second
    /// assert_eq!(Period::from_hz(0), Err(RateError::Zero));
    /// # Ok::<(), RateError>(())
    /// ```
    pub fn from_hz(hz: u64) -> Result<Period, RateError> {
        Period::from_ns_ratio(u128::from(NANOS_PER_SEC), u128::from(hz))
    }

    /// `num / den` ticks per second, exactly: `from_hz_ratio(60_000, 1_001)` is NTSC's 59.94 Hz.
    ///
    /// # Errors
    ///
    /// [`RateError::Zero`] if either part is 0; [`RateError::TooHigh`] above 1 GHz.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::Period;
    ///
    /// let ntsc = Period::from_hz_ratio(60_000, 1_001)?; // 59.94 Hz
    /// assert_eq!(ntsc.as_nanos_ratio(), (50_050_000, 3));
    /// assert_eq!(ntsc.tick_start_nanos(60_000), 1_001_000_000_000); // 60,000 ticks in 1,001 s
    /// assert_eq!(Period::from_hz_ratio(120, 2)?, Period::from_hz(60)?);
    /// # Ok::<(), tickfold_core::RateError>(())
    /// ```
    pub fn from_hz_ratio(num: u64, den: u64) -> Result<Period, RateError> {
        if num == 0 || den == 0 {
            return Err(RateError::Zero);
        }
        Period::from_ns_ratio(u128::from(NANOS_PER_SEC) * u128::from(den), u128::from(num))
    }

    /// `hz` ticks per second given as a float, rounded once to a whole number of micro-hertz
    /// (so `59.94` becomes exactly 5,994/100 Hz). Nothing is accumulated in floating point.
    ///
    /// # Errors
    ///
    /// [`RateError::Invalid`] for NaN, infinite or negative input,
    /// [`RateError::Zero`] for 0, [`RateError::TooLow`] for a positive rate that
    /// rounds to 0 µHz, [`RateError::TooHigh`] above 1 GHz.
    pub fn from_hz_f64(hz: f64) -> Result<Period, RateError> {
        if !hz.is_finite() || hz < 0.0 {
            return Err(RateError::Invalid);
        }
        if hz == 0.0 {
            return Err(RateError::Zero);
        }
        let micro = hz * 1e6;
        if micro >= u64::MAX as f64 {
            return Err(RateError::TooHigh);
        }
        let micro = round_nonneg(micro);
        if micro == 0 {
            return Err(RateError::TooLow);
        }
        Period::from_hz_ratio(micro, 1_000_000)
    }

    /// One tick every `period`.
    ///
    /// # Errors
    ///
    /// [`RateError::Zero`] for a zero period; [`RateError::OutOfRange`] above 584 years.
    pub fn from_duration(period: Duration) -> Result<Period, RateError> {
        Period::from_ns_ratio(period.as_nanos(), 1)
    }

    /// One tick every `num / den` seconds, exactly: `from_secs_ratio(1, 60)` is 60 Hz.
    ///
    /// # Errors
    ///
    /// [`RateError::Zero`] if either part is 0; [`RateError::TooHigh`] below 1 ns.
    pub fn from_secs_ratio(num: u64, den: u64) -> Result<Period, RateError> {
        Period::from_ns_ratio(u128::from(num) * u128::from(NANOS_PER_SEC), u128::from(den))
    }

    /// One tick every `ms` milliseconds, given as a float and rounded once to whole nanoseconds.
    ///
    /// # Errors
    ///
    /// [`RateError::Invalid`] for NaN, infinite or negative input,
    /// [`RateError::Zero`] for 0, [`RateError::TooHigh`] for a positive period that
    /// rounds to 0 ns (a tick shorter than 1 ns), [`RateError::OutOfRange`] above 584 years.
    pub fn from_millis_f64(ms: f64) -> Result<Period, RateError> {
        if !ms.is_finite() || ms < 0.0 {
            return Err(RateError::Invalid);
        }
        if ms == 0.0 {
            return Err(RateError::Zero);
        }
        let ns = ms * 1e6;
        if ns >= u64::MAX as f64 {
            return Err(RateError::OutOfRange);
        }
        match round_nonneg(ns) {
            0 => Err(RateError::TooHigh),
            ns => Period::from_ns_ratio(u128::from(ns), 1),
        }
    }

    /// The tick length as a reduced fraction `(num, den)` of nanoseconds.
    #[must_use]
    pub const fn as_nanos_ratio(self) -> (u64, u64) {
        (self.num, self.den)
    }

    /// Whether a tick of this period is strictly shorter than one of `other` (exact: the two
    /// ratios compared by cross-multiplying in 128 bits).
    pub(crate) fn is_shorter_than(self, other: Period) -> bool {
        u128::from(self.num) * u128::from(other.den) < u128::from(other.num) * u128::from(self.den)
    }

    /// The tick length in seconds as an `f64`: a constant to hand to the simulation, never summed.
    #[must_use]
    pub fn dt_secs_f64(self) -> f64 {
        self.num as f64 / self.den as f64 / 1e9
    }

    /// The tick length in seconds as an `f32`.
    #[must_use]
    pub fn dt_secs_f32(self) -> f32 {
        self.dt_secs_f64() as f32
    }

    /// The tick length rounded down to whole nanoseconds.
    #[must_use]
    pub const fn floor_nanos(self) -> u64 {
        self.num / self.den
    }

    /// Ticks per second as an `f64`.
    #[must_use]
    pub fn hz_f64(self) -> f64 {
        1e9 * self.den as f64 / self.num as f64
    }

    /// Exact start of tick `k` (that is `k`·dt) in whole nanoseconds, rounded down and
    /// saturating at `u64::MAX`.
    #[must_use]
    pub fn tick_start_nanos(self, k: u64) -> u64 {
        let v = u128::from(k) * u128::from(self.num) / u128::from(self.den);
        u64::try_from(v).unwrap_or(u64::MAX)
    }

    /// The largest `k` with `k`·dt ≤ `x` nanoseconds: how many whole ticks fit in `x`.
    #[must_use]
    #[inline]
    pub fn ticks_in(self, x: u64) -> u64 {
        let v = u128::from(x) * u128::from(self.den) / u128::from(self.num);
        u64::try_from(v).unwrap_or(u64::MAX)
    }

    /// [`ticks_in`](Self::ticks_in) for an `x` wider than 64 bits (a time past `u64::MAX` ns
    /// on a clock's own axis), saturating. Split so that nothing overflows.
    pub(crate) fn ticks_in_wide(self, x: u128) -> u64 {
        let (num, den) = (u128::from(self.num), u128::from(self.den));
        // x = q·num + r: x·den/num = q·den + r·den/num, with r·den < num·den < 2^128.
        let (q, r) = (x / num, x % num);
        let v = q.saturating_mul(den).saturating_add(r * den / num);
        u64::try_from(v).unwrap_or(u64::MAX)
    }

    /// `ceil(k·dt)` in ns, exactly, as a `u128`.
    pub(crate) fn ceil_wide(self, k: u64) -> u128 {
        (u128::from(k) * u128::from(self.num)).div_ceil(u128::from(self.den))
    }
}

/// The period of a [`Period`] as whole ns plus a remainder, for walking a grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct GridStep {
    /// `num / den`: whole ns per tick.
    pq: u64,
    /// `num % den`.
    pr: u64,
    den: u64,
}

impl GridStep {
    /// The period of `rate` split for [`GridPoint::advance_by`] (two divisions, done once).
    pub(crate) fn of(rate: Period) -> GridStep {
        GridStep {
            pq: rate.num / rate.den,
            pr: rate.num % rate.den,
            den: rate.den,
        }
    }

    /// The period's denominator (ns).
    #[inline(always)]
    pub(crate) fn den(self) -> u64 {
        self.den
    }

    /// The rate this step was split from (no division: `num = pq·den + pr` fits, as `num` did).
    #[inline]
    pub(crate) fn rate(self) -> Period {
        Period {
            num: self.pq * self.den + self.pr,
            den: self.den,
        }
    }
}

/// An exact multiple `m`·dt on a tick grid, walked forward with one add and one compare per
/// tick instead of a 128-bit division.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GridPoint {
    /// Which multiple of dt.
    pub(crate) m: u64,
    /// `floor(m·num / den)`, saturating.
    q: u64,
    /// `m·num mod den`.
    r: u64,
}

impl GridPoint {
    /// The origin, 0·dt.
    pub(crate) const ZERO: GridPoint = GridPoint { m: 0, q: 0, r: 0 };

    /// The point `m`·dt, computed with one division.
    pub(crate) fn at(rate: Period, m: u64) -> GridPoint {
        let prod = u128::from(m) * u128::from(rate.num);
        let den = u128::from(rate.den);
        let q = u64::try_from(prod / den).unwrap_or(u64::MAX);
        // The remainder is < den ≤ u64::MAX, so it always fits.
        let r = (prod % den) as u64;
        GridPoint { m, q, r }
    }

    /// The next point, `(m + 1)`·dt.
    #[cfg(test)]
    pub(crate) fn advance(&mut self, rate: Period) {
        self.advance_by(GridStep::of(rate));
    }

    /// The next point, `(m + 1)`·dt, with the period's quotient and remainder precomputed:
    /// no division.
    #[inline]
    pub(crate) fn advance_by(&mut self, step: GridStep) {
        let GridStep { pq, pr, den } = step;
        self.m = self.m.saturating_add(1);
        self.q = self.q.saturating_add(pq);
        // r < den and pr < den, so r + pr < 2·den: at most one carry. Compare before adding so
        // that nothing overflows even when den is close to u64::MAX.
        if self.r >= den - pr {
            self.r -= den - pr;
            self.q = self.q.saturating_add(1);
        } else {
            self.r += pr;
        }
    }

    /// The point `m·dt + r0/den` (`r0 < den`, `den` this grid's denominator): a grid point
    /// shifted by a fraction of a ns, in which a run of ticks carries its simulation time's
    /// fraction (so that a tick's `t` is the whole ns of its point, as without one).
    #[inline(always)]
    pub(crate) fn with_offset(self, r0: u64, den: u64) -> GridPoint {
        // r < den and r0 < den: at most one carry, compared before adding (no overflow).
        if self.r >= den - r0 {
            GridPoint {
                m: self.m,
                q: self.q.saturating_add(1),
                r: self.r - (den - r0),
            }
        } else {
            GridPoint {
                m: self.m,
                q: self.q,
                r: self.r + r0,
            }
        }
    }

    /// The plain point `m·dt` of a point [`with_offset`](Self::with_offset)`(r0, den)`.
    #[inline(always)]
    pub(crate) fn without_offset(self, r0: u64, den: u64) -> GridPoint {
        if self.r >= r0 {
            GridPoint {
                m: self.m,
                q: self.q,
                r: self.r - r0,
            }
        } else {
            GridPoint {
                m: self.m,
                q: self.q.saturating_sub(1),
                r: self.r + (den - r0),
            }
        }
    }

    /// `m·num mod den` (plus the offset, for a point with one).
    #[inline(always)]
    pub(crate) fn remainder(self) -> u64 {
        self.r
    }

    /// `floor` of this point: for a point with an offset, the whole ns of `m·dt + r0/den`.
    #[inline(always)]
    pub(crate) fn floor(self) -> u64 {
        self.q
    }

    /// `ceil(m·dt)` of a point [`with_offset`](Self::with_offset)`(r0, _)`: the offset is
    /// taken back out by comparing the remainder with `r0` instead of with 0 (as cheap as
    /// [`ceil`](Self::ceil)).
    #[inline(always)]
    pub(crate) fn ceil_from(self, r0: u64) -> u64 {
        self.q.saturating_add(u64::from(self.r > r0))
    }

    /// `ceil(m·dt)` in whole nanoseconds.
    #[inline]
    pub(crate) fn ceil(self) -> u64 {
        self.q.saturating_add(u64::from(self.r != 0))
    }

    /// Whether `floor(m·dt)` saturated: the point lies at or past `u64::MAX` ns.
    #[inline]
    pub(crate) fn saturated(self) -> bool {
        self.q == u64::MAX
    }

    /// `ceil(m·dt)` in whole ns, exact even past `u64::MAX` (a division only then).
    #[inline]
    pub(crate) fn ceil_exact(self, rate: Period) -> u128 {
        if self.saturated() {
            rate.ceil_wide(self.m)
        } else {
            u128::from(self.ceil())
        }
    }

    /// `(x − m·dt) / dt` as an `f64`: one float division, computed from the exact integer
    /// parts (`x − m·dt = (x − q) − r/den` and `dt = num/den`); `num_f` and `den_f` are the
    /// rate's parts as floats, converted once by the caller.
    #[inline]
    pub(crate) fn lag_fraction(self, num_f: f64, den_f: f64, x: u64) -> f64 {
        // Lags beyond ±2^63 ns saturate; the caller clamps alpha to [0, 1] anyway.
        let whole = if x >= self.q {
            i64::try_from(x - self.q).unwrap_or(i64::MAX)
        } else {
            i64::try_from(self.q - x).map_or(i64::MIN, |d| -d)
        };
        let r = i64::try_from(self.r).map_or(self.r as f64, |r| r as f64);
        (whole as f64 * den_f - r) / num_f
    }
}

/// The largest time scale accepted.
const MAX_SCALE: u64 = 4_000;

/// How fast virtual (simulation) time runs against real time: an exact fraction `num / den`.
///
/// A scale of 1 is real time; ½ is slow motion; 0 stops virtual time without pausing renders.
/// Scaled time is carried with its remainder, so no nanosecond is ever lost or invented.
///
/// # Examples
///
/// ```
/// use tickfold_core::TimeScale;
/// assert_eq!(TimeScale::from_f64(0.5)?, TimeScale::ratio(1, 2)?);
/// assert!(TimeScale::from_f64(f64::NAN).is_err());
/// # Ok::<(), tickfold_core::RateError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeScale {
    num: u32,
    den: u32,
}

impl TimeScale {
    /// Real time: a scale of exactly 1.
    pub const ONE: TimeScale = TimeScale { num: 1, den: 1 };

    /// The scale `num / den`, reduced.
    ///
    /// # Errors
    ///
    /// [`RateError::InvalidScale`] when `den` is 0 or the scale is above 4,000.
    pub fn ratio(num: u32, den: u32) -> Result<TimeScale, RateError> {
        if den == 0 {
            return Err(RateError::InvalidScale);
        }
        let g = gcd(u128::from(num), u128::from(den)).max(1) as u32;
        let (num, den) = (num / g, den / g);
        if u64::from(num) > MAX_SCALE * u64::from(den) {
            return Err(RateError::InvalidScale);
        }
        Ok(TimeScale { num, den })
    }

    /// `scale` rounded once to a whole number of millionths, then kept exactly.
    ///
    /// # Errors
    ///
    /// [`RateError::InvalidScale`] for NaN, infinite, negative or values above 4,000.
    pub fn from_f64(scale: f64) -> Result<TimeScale, RateError> {
        if !scale.is_finite() || !(0.0..=MAX_SCALE as f64).contains(&scale) {
            return Err(RateError::InvalidScale);
        }
        TimeScale::ratio(round_nonneg(scale * 1e6) as u32, 1_000_000)
    }

    /// The reduced fraction `(num, den)`.
    #[must_use]
    pub const fn as_ratio(self) -> (u32, u32) {
        (self.num, self.den)
    }
}

impl Default for TimeScale {
    fn default() -> Self {
        TimeScale::ONE
    }
}

/// Virtual time `v` wrapped around `period`, for shaders (see
/// [`VirtualTimeView::elapsed_wrapped`](crate::VirtualTimeView::elapsed_wrapped)):
/// `floor(v mod period)` for a period of `num/den` ns, `v − ceil(k·num/den)` with `k` the
/// whole periods in `v` (`k·num ≤ v·den < 2^128`, so nothing overflows).
pub(crate) fn wrap(v: u64, period: Period) -> u64 {
    let (num, den) = period.as_nanos_ratio();
    let k = u128::from(v) * u128::from(den) / u128::from(num);
    let start = (k * u128::from(num)).div_ceil(u128::from(den));
    // start ≤ v since k·num/den ≤ v.
    v - u64::try_from(start).unwrap_or(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_matches_division() {
        for (num, den) in [
            (50_000_000u64, 3u64),
            (7, 7),
            (1_000_000_007, 997),
            (u64::MAX / 3, 5),
        ] {
            let rate = Period { num, den };
            let mut g = GridPoint::at(rate, 0);
            for m in 0..2_000u64 {
                assert_eq!(g, GridPoint::at(rate, m), "rate {num}/{den} m {m}");
                g.advance(rate);
            }
        }
    }

    #[test]
    fn sixty_hz_is_exact() {
        let r = Period::from_hz(60).unwrap();
        assert_eq!(r.tick_start_nanos(60), 1_000_000_000);
        assert_eq!(r.tick_start_nanos(3_600 * 60), 3_600_000_000_000);
        assert_eq!(r.ticks_in(1_000_000_000), 60);
        assert_eq!(r.ticks_in(999_999_999), 59);
        assert_eq!(
            Period::from_hz_f64(59.94).unwrap(),
            Period::from_hz_ratio(5994, 100).unwrap()
        );
    }

    #[test]
    fn bad_rates_are_typed_errors() {
        assert_eq!(Period::from_hz(0), Err(RateError::Zero));
        assert_eq!(Period::from_hz(2_000_000_000), Err(RateError::TooHigh));
        assert_eq!(Period::from_hz_f64(-1.0), Err(RateError::Invalid));
        assert_eq!(Period::from_hz_f64(f64::INFINITY), Err(RateError::Invalid));
        assert_eq!(Period::from_hz_f64(0.0), Err(RateError::Zero));
        assert_eq!(Period::from_duration(Duration::ZERO), Err(RateError::Zero));
        assert_eq!(Period::from_secs_ratio(1, 0), Err(RateError::Zero));
        assert_eq!(Period::from_millis_f64(f64::NAN), Err(RateError::Invalid));
    }

    #[test]
    fn scales_above_4000_are_refused() {
        assert_eq!(TimeScale::ratio(u32::MAX, 1), Err(RateError::InvalidScale));
        assert_eq!(TimeScale::ratio(4_001, 1), Err(RateError::InvalidScale));
        assert!(TimeScale::ratio(4_000, 1).is_ok());
        // Reduced first: 8,000/2 is 4,000.
        assert_eq!(TimeScale::ratio(8_000, 2), TimeScale::ratio(4_000, 1));
        assert_eq!(TimeScale::ratio(u32::MAX, u32::MAX), Ok(TimeScale::ONE));
    }

    #[test]
    fn wide_tick_counts_match() {
        let r = Period::from_hz(60).unwrap();
        for x in [0u64, 1, 16_666_666, 16_666_667, 1_000_000_000, u64::MAX] {
            assert_eq!(r.ticks_in_wide(u128::from(x)), r.ticks_in(x));
        }
        let one = Period::from_hz(1_000_000_000).unwrap();
        assert_eq!(one.ticks_in_wide(u128::from(u64::MAX) + 5), u64::MAX);
    }

    #[test]
    fn wrap_is_exact_for_fractional_periods() {
        let third = Period::from_secs_ratio(1, 3).unwrap();
        // 1/3 s = 333 333 333.33… ns: 1 s is exactly three periods.
        assert_eq!(wrap(1_000_000_000, third), 0);
        assert_eq!(wrap(999_999_999, third), 333_333_332);
        assert_eq!(wrap(333_333_334, third), 0);
        assert_eq!(wrap(333_333_333, third), 333_333_333);
        assert_eq!(
            wrap(u64::MAX, Period::from_hz(1).unwrap()),
            u64::MAX % 1_000_000_000
        );
    }
}
