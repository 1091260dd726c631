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
}
