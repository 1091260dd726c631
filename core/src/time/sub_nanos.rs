//! Scaled time without rounding: the sub-nanosecond remainder of virtual time, kept as an exact
//! fraction across any sequence of time scale changes.

use crate::values::rate::{TimeScale, gcd};

/// The largest denominator the remainder may take before the documented fallback.
const MAX_DEN: u128 = 1 << 127;

/// The fraction `rem / den` of a nanosecond that virtual time carries beyond its whole ns.
///
/// Invariants: `rem < den`, and `den` is a multiple of the current scale's denominator, so a
/// scaled increment `real·num/sden` adds exactly `(real·num mod sden)·(den/sden)` to `rem`.
/// On a scale change `den` becomes `lcm(den, new den)` (the remainder is rescaled exactly);
/// whenever `rem` returns to 0, `den` resets to the current scale's denominator. The lcm only
/// grows while the remainder stays non-zero across changes between scales with coprime
/// denominators; if it would pass 2^127 (four or more large coprime denominators in a row
/// without the remainder ever clearing), the remainder is rounded down to the new scale's
/// unit instead, losing less than `1/den` ns once. That is the only rounding virtual time
/// ever does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct SubNanos {
    rem: u128,
    den: u128,
}

impl SubNanos {
    /// No remainder, in units of `1/scale.den` ns.
    pub(crate) fn new(scale: TimeScale) -> SubNanos {
        SubNanos {
            rem: 0,
            den: u128::from(scale.as_ratio().1),
        }
    }

    /// Whether a loaded remainder keeps the invariants above for `scale`.
    #[cfg(feature = "serde")]
    pub(crate) fn is_valid_for(self, scale: TimeScale) -> bool {
        let sden = u128::from(scale.as_ratio().1);
        self.den != 0 && self.den <= MAX_DEN && self.rem < self.den && self.den % sden == 0
    }

    /// Scales `real` ns by `scale`, carrying the remainder; returns the whole virtual ns to add
    /// (saturating at `u64::MAX`).
    #[inline]
    pub(crate) fn advance(&mut self, scale: TimeScale, real: u64) -> u64 {
        let (num, sden) = scale.as_ratio();
        if sden == 1 {
            // An integer scale adds no fraction.
            return match num {
                1 => real,
                n => real.saturating_mul(u64::from(n)),
            };
        }
        let t = u128::from(real) * u128::from(num);
        let sden = u128::from(sden);
        let (mut q, r) = (t / sden, t % sden);
        // r·(den/sden) < den ≤ 2^127 and rem < den, so the sum stays below 2^128.
        self.rem += r * (self.den / sden);
        if self.rem >= self.den {
            self.rem -= self.den;
            q += 1;
        }
        if self.rem == 0 {
            self.den = sden;
        }
        u64::try_from(q).unwrap_or(u64::MAX)
    }

    /// Re-expresses the remainder for a change to `new` (exactly, except the fallback above).
    pub(crate) fn rescale(&mut self, new: TimeScale) {
        let nden = u128::from(new.as_ratio().1);
        if self.rem == 0 {
            self.den = nden;
            return;
        }
        let lcm = (self.den / gcd(self.den, nden)).checked_mul(nden);
        match lcm {
            Some(lcm) if lcm <= MAX_DEN => {
                self.rem *= lcm / self.den;
                self.den = lcm;
            }
            _ => {
                self.rem = mul_div_floor(self.rem, nden, self.den);
                self.den = nden;
            }
        }
    }

    /// Real ns needed for virtual time to advance by `virt` whole ns at `scale`, given this
    /// remainder; `None` at a scale of 0.
    #[inline]
    pub(crate) fn real_needed(self, scale: TimeScale, virt: u64) -> Option<u64> {
        let (num, sden) = scale.as_ratio();
        if num == 0 {
            return None;
        }
        if sden == 1 {
            // No fraction can be carried in units of a whole ns: rem/den < 1 never adds a ns
            // by itself, and each real ns adds num whole ones.
            return Some(virt.div_ceil(u64::from(num)));
        }
        // After r real ns virtual time gains floor(rem/den + r·num/sden) ns; the least r that
        // reaches virt is ceil((virt·sden − floor(rem/m)) / num) with m = den/sden.
        let sden = u128::from(sden);
        let carried = self.rem / (self.den / sden);
        let need = (u128::from(virt) * sden).saturating_sub(carried);
        Some(u64::try_from(need.div_ceil(u128::from(num))).unwrap_or(u64::MAX))
    }
}

/// `floor(a·b / d)` for `a < d`, without overflow (shift-and-add over the bits of `b`).
fn mul_div_floor(a: u128, b: u128, d: u128) -> u128 {
    let (mut q, mut r) = (0u128, 0u128);
    for bit in (0..128 - b.leading_zeros()).rev() {
        // Invariant: q·d + r == a·(b >> (bit + 1)), r < d ≤ 2^127.
        q <<= 1;
        r <<= 1;
        if r >= d {
            r -= d;
            q += 1;
        }
        if (b >> bit) & 1 == 1 {
            // r < d and a < d, so the sum stays below 2^128.
            r += a;
            if r >= d {
                r -= d;
                q += 1;
            }
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(num: u32, den: u32) -> TimeScale {
        TimeScale::ratio(num, den).unwrap()
    }

    #[test]
    fn a_third_carries_exactly() {
        let third = s(1, 3);
        let mut sub = SubNanos::new(third);
        let v: u64 = (0..3_000).map(|_| sub.advance(third, 1)).sum();
        assert_eq!(v, 1_000);
        assert_eq!(sub, SubNanos::new(third)); // no fraction, in thirds again
        assert_eq!(sub.real_needed(third, 1), Some(3));
        sub.advance(third, 2);
        assert_eq!(sub.real_needed(third, 1), Some(1));
        assert_eq!(sub.real_needed(s(0, 1), 1), None);
    }

    #[test]
    fn changes_keep_every_fraction() {
        // 1 ns at 1/3, then 1/5, then 1/7, then 1/2 …: the sum is exact.
        let scales = [s(1, 3), s(1, 5), s(1, 7), s(1, 2), s(2, 3), s(1, 1)];
        let mut sub = SubNanos::new(scales[0]);
        let mut v = 0u64;
        let mut exact_num = 0u128; // in units of 1/210 ns
        for _ in 0..1_000 {
            for sc in scales {
                sub.rescale(sc);
                v += sub.advance(sc, 1);
                let (n, d) = sc.as_ratio();
                exact_num += u128::from(n) * 210 / u128::from(d);
            }
        }
        assert_eq!(u128::from(v), exact_num / 210);
    }

    #[test]
    fn the_fallback_rounds_down_once_and_keeps_the_invariant() {
        // Four primes just below 2^32: their lcm passes 2^127 on the fourth change.
        let primes = [
            4_294_967_291u32,
            4_294_967_279,
            4_294_967_231,
            4_294_967_197,
        ];
        let mut sub = SubNanos::new(s(1, primes[0]));
        let mut v = 0u64;
        let mut exact = 0f64;
        for p in primes {
            let sc = s(1, p);
            sub.rescale(sc);
            v += sub.advance(sc, 3);
            exact += 3.0 / f64::from(p);
            assert!(sub.rem < sub.den && sub.den % u128::from(p) == 0);
        }
        assert_eq!(
            sub.den,
            u128::from(primes[3]),
            "the fallback reset the unit"
        );
        assert_eq!(v, exact as u64);
    }

    #[test]
    fn mul_div_matches_wide_math() {
        for (a, b, d) in [
            (5u128, 7u128, 9u128),
            (1 << 100, 3, (1 << 101) + 1),
            (0, 9, 4),
        ] {
            assert_eq!(mul_div_floor(a, b, d), a * b / d);
        }
    }
}
