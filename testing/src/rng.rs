//! A seeded generator for tests, benches and simulated networks: [`SplitMix64`].

/// `SplitMix64` (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators",
/// OOPSLA 2014; the `splitmix64.c` seeding generator of Vigna's xoshiro family): 64 bits of
/// state, a Weyl step and a 64-bit finalizer, the same numbers on every platform and in every
/// build. Use it where a test, a bench or a simulated network needs reproducible noise (frame
/// jitter, packet loss, write patterns) without a dependency and without OS randomness; it is
/// not cryptographic.
///
/// # Examples
///
/// ```
/// use tickfold_testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(0);
/// // The reference sequence of splitmix64.c seeded with 0.
/// assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
/// assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
/// // A frame time of 12 to 20 ms, the same on every run.
/// let ms = 12 + rng.below(9);
/// assert!((12..=20).contains(&ms));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator from `seed` (every seed is fine, 0 included).
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`next_u64() % n`, with the slight modulo bias that implies for an
    /// `n` that is not a power of two); 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// A number in `[0, 1)` from the top 24 bits of [`next_u64`](SplitMix64::next_u64): every
    /// value is exact in an `f32`, so the same bits give the same float on every platform. For
    /// positions, speeds and other noise a game or an example scales it itself:
    /// `unit_f32() * 2.0 - 1.0` is in `[-1, 1)`.
    ///
    /// ```
    /// use tickfold_testing::SplitMix64;
    ///
    /// let mut rng = SplitMix64::new(7);
    /// let x = rng.unit_f32();
    /// assert!((0.0..1.0).contains(&x));
    /// // The same 24 bits of the next 64.
    /// assert_eq!(x, (SplitMix64::new(7).next_u64() >> 40) as f32 / 16_777_216.0);
    /// ```
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// The whole state: `SplitMix64::new(rng.state())` continues with exactly the numbers `rng`
    /// would give next. For a generator kept inside saved or rolled-back state as a plain `u64`.
    ///
    /// ```
    /// use tickfold_testing::SplitMix64;
    ///
    /// let mut rng = SplitMix64::new(42);
    /// rng.next_u64();
    /// let mut resumed = SplitMix64::new(rng.state());
    /// assert_eq!(resumed.next_u64(), rng.next_u64());
    /// ```
    #[must_use]
    pub const fn state(&self) -> u64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn unit_f32_spans_zero_to_one_from_the_top_bits() {
        let mut rng = SplitMix64::new(0x5EED);
        let mut reference = SplitMix64::new(0x5EED);
        let (mut low, mut high) = (1.0f32, 0.0f32);
        for _ in 0..100_000 {
            let x = rng.unit_f32();
            let bits = reference.next_u64() >> 40;
            assert_eq!(x, bits as f32 / 16_777_216.0);
            assert!((0.0..1.0).contains(&x), "{x}");
            low = low.min(x);
            high = high.max(x);
        }
        // 100,000 draws come within 0.001 of both ends.
        assert!(low < 0.001 && high > 0.999, "{low} {high}");
        // The largest value stays below 1: 24 bits are exact in an f32.
        assert!(((1u64 << 24) - 1) as f32 / 16_777_216.0 < 1.0);
    }

    #[test]
    fn a_generator_resumes_from_its_state() {
        let mut rng = SplitMix64::new(0);
        for _ in 0..10 {
            let mut resumed = SplitMix64::new(rng.state());
            assert_eq!(resumed, rng);
            assert_eq!(resumed.next_u64(), rng.next_u64());
        }
        // The reference sequence of splitmix64.c seeded with 0, through saved states.
        let mut rng = SplitMix64::new(0);
        rng.next_u64();
        assert_eq!(
            SplitMix64::new(rng.state()).next_u64(),
            0x6E78_9E6A_A1B9_65F4
        );
    }
}
