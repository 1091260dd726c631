//! The snapshot crate's error types: [`SnapshotError`] for bad arguments (at construction and
//! in checked calls), [`TickNotInRing`] for a rollback to a tick the ring no longer holds.

use core::fmt;

/// What a snapshot constructor or checked call refused to do: an argument out of its range.
/// New variants may be added as the crate grows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The dirty-chunk size was 0 bytes.
    ChunkSizeZero,
    /// The dirty-chunk size was not a power of two.
    ChunkSizeNotPowerOfTwo {
        /// The size asked for, in bytes.
        bytes: usize,
    },
    /// A ring of 0 snapshots was asked for.
    EmptyRing,
    /// The memory for a ring of this many slots (each sized for the state) could not be
    /// reserved.
    RingTooLarge {
        /// The number of slots asked for.
        slots: usize,
    },
    /// A full-copy threshold above 100 percent.
    BadThreshold {
        /// The percentage asked for.
        percent: u8,
    },
    /// Two buffers that must have the same length did not.
    LengthMismatch {
        /// The length the buffer has.
        expected: usize,
        /// The length it was given.
        got: usize,
    },
    /// An index or range reached past the end of the data.
    OutOfBounds {
        /// The first index past the end that was asked for (a range's end).
        index: usize,
        /// The data's length.
        len: usize,
    },
    /// A range whose start lies after its end.
    BadRange {
        /// The range's start.
        start: usize,
        /// The range's end.
        end: usize,
    },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::ChunkSizeZero => write!(f, "the dirty-chunk size must not be 0 bytes"),
            SnapshotError::ChunkSizeNotPowerOfTwo { bytes } => {
                write!(
                    f,
                    "the dirty-chunk size must be a power of two bytes, got {bytes}"
                )
            }
            SnapshotError::EmptyRing => write!(f, "a snapshot ring needs at least one slot"),
            SnapshotError::RingTooLarge { slots } => write!(
                f,
                "a snapshot ring of {slots} slots does not fit in memory (each slot holds a copy of the state)"
            ),
            SnapshotError::BadThreshold { percent } => {
                write!(
                    f,
                    "the full-copy threshold is a percentage up to 100, got {percent}"
                )
            }
            SnapshotError::LengthMismatch { expected, got } => {
                write!(
                    f,
                    "length mismatch: the buffer holds {expected} elements, got {got}"
                )
            }
            SnapshotError::OutOfBounds { index, len } => {
                write!(f, "index {index} is out of bounds for length {len}")
            }
            SnapshotError::BadRange { start, end } => {
                write!(f, "range start {start} is after its end {end}")
            }
        }
    }
}

impl std::error::Error for SnapshotError {}

/// [`Ring::load`](crate::Ring::load) asked for a tick the ring does not hold: never saved, or
/// overwritten since by a tick `ring.len()` later. The state was not touched.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TickNotInRing {
    /// The tick asked for.
    pub tick: u64,
    /// The tick its slot holds now, if any.
    pub holds: Option<u64>,
}

impl fmt::Display for TickNotInRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.holds {
            Some(h) => write!(
                f,
                "tick {} has left the ring: its slot now holds tick {h}",
                self.tick
            ),
            None => write!(f, "tick {} was never saved in the ring", self.tick),
        }
    }
}

impl std::error::Error for TickNotInRing {}
