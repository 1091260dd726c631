//! [`Fnv1a`], the kit's one hash: the recordings' trace hashes and the replay files' digest
//! both feed it.

use core::hash::Hasher;

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a, the kit's one hash: fixed, seedless and the same on every platform.
///
/// As a [`Hasher`] it feeds integers in little-endian byte order (std's default would use the
/// platform's order), so `value.hash(&mut Fnv1a::new())` is portable for integers, strings,
/// slices and derived `Hash` impls built from them. Hash floats through `to_bits()`.
///
/// # Examples
///
/// ```
/// use core::hash::{Hash, Hasher};
/// use tickfold_testing::Fnv1a;
///
/// let mut h = Fnv1a::new();
/// h.write(b"a");
/// assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c); // FNV-1a 64 of "a"
/// let mut h = Fnv1a::new();
/// (1u32, 2.5f64.to_bits()).hash(&mut h);
/// assert_ne!(h.finish(), Fnv1a::new().finish());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fnv1a(u64);

impl Fnv1a {
    /// The empty hash (the FNV offset basis).
    #[must_use]
    pub const fn new() -> Fnv1a {
        Fnv1a(FNV_OFFSET)
    }

    /// Feeds `x` as 8 little-endian bytes.
    pub fn write_u64_le(&mut self, x: u64) {
        self.write(&x.to_le_bytes());
    }

    /// The hash so far.
    #[must_use]
    pub const fn value(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a::new()
    }
}

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }
    fn write_u16(&mut self, i: u16) {
        self.write(&i.to_le_bytes());
    }
    fn write_u32(&mut self, i: u32) {
        self.write(&i.to_le_bytes());
    }
    fn write_u64(&mut self, i: u64) {
        self.write(&i.to_le_bytes());
    }
    fn write_u128(&mut self, i: u128) {
        self.write(&i.to_le_bytes());
    }
    fn write_usize(&mut self, i: usize) {
        self.write(&(i as u64).to_le_bytes());
    }
}
