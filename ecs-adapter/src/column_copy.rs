//! The capture's inner loop: a `T` column copied into its `Previous<T>` column. A leaf, used
//! by [`Interpolated::capture`](crate::Interpolated::capture).

use crate::types::Previous;

/// The most a capture copies in one go (see [`copy_column`]).
const COPY_BLOCK_BYTES: usize = 1024;

/// Copies a `T` column into its `Previous<T>` column (the same layout), returning the count.
///
/// A function of its own so that the two columns arrive as distinct references: the compiler
/// then knows they do not overlap and turns each block's loop over a `Copy` type into a
/// `memcpy` (inlined into `capture`, over slices built from hecs's column pointers, the loop
/// stays element by element). Blocks of at most 1 KiB: one large `memcpy` between two hecs
/// columns of the same size ran about 10× slower than a copy of the same bytes between two
/// `Vec`s on the machine the benchmarks ran on (a large `memcpy` takes another path, whose speed
/// depends on how the two addresses line up), while small ones always run at the speed of
/// the cache.
#[inline(never)]
pub(crate) fn copy_column<T: Clone>(previous: &mut [Previous<T>], current: &[T]) -> u64 {
    let n = previous.len().min(current.len());
    let per_block = (COPY_BLOCK_BYTES / size_of::<T>().max(1)).max(1);
    let blocks = previous[..n]
        .chunks_mut(per_block)
        .zip(current[..n].chunks(per_block));
    for (p, c) in blocks {
        for (p, c) in p.iter_mut().zip(c) {
            p.0.clone_from(c);
        }
    }
    n as u64
}
