//! What the latest step covered, exactly: the span recorded at the top of every step (read by
//! the real and virtual deltas and by [`InputQueue`](crate::InputQueue)), and virtual time
//! wrapped around a period for shaders.

use crate::state::Inner;
use crate::values::rate::Period;

impl<T> Inner<T> {
    /// Records the span the coming step starts from (the hook at the top of every step).
    #[inline(always)]
    pub(crate) fn begin_span(&mut self) {
        self.span = self.virt.span_from(self.real.now());
    }

    /// [`begin_span`](Self::begin_span) on the fast path, where virtual time is real time
    /// (see [`Virtual::is_plain`](crate::time::virtual_time::Virtual::is_plain)): the plain mapping
    /// is not copied.
    #[inline(always)]
    pub(crate) fn begin_plain_span(&mut self) {
        self.span.begin_plain(self.real.now(), self.virt.now());
    }
}

/// `floor(v mod period)` for a period of `num/den` ns: `v − ceil(k·num/den)` with `k` the
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
