//! [`InWorld`]: an [`Interpolated<T>`] bound to its world, as tickfold-core's storage traits;
//! and the column copy a capture makes.

use std::fmt;

use hecs::{Component, World};
use tickfold_core::{BlendColumns, ClockId, Columns, Interpolate, Tick};

use crate::interpolated::Interpolated;
use crate::types::Previous;

impl<T: Interpolate + Component + Clone> Interpolated<T> {
    /// This tracker bound to `world`, as tickfold-core's storage traits see it:
    /// [`Columns`] (capture and the rule) and [`BlendColumns`] (blend into any `Extend`).
    pub fn in_world<'a>(&'a mut self, world: &'a mut World) -> InWorld<'a, T> {
        InWorld {
            tracker: self,
            world,
        }
    }
}

/// An [`Interpolated<T>`] bound to its world: the hecs implementation of tickfold-core's
/// storage traits, [`Columns`] and [`BlendColumns`] (the other in this workspace is
/// tickfold-snapshot's `DoubleBuffer`, a `Vec` of plain structs).
pub struct InWorld<'a, T> {
    pub(crate) tracker: &'a mut Interpolated<T>,
    pub(crate) world: &'a mut World,
}

impl<T> fmt::Debug for InWorld<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InWorld")
            .field("tracker", &self.tracker)
            .field("entities", &self.world.len())
            .finish()
    }
}

impl<T: Interpolate + Component + Clone> Columns for InWorld<'_, T> {
    fn capture(&mut self) {
        self.tracker.capture(self.world);
    }

    fn clock(&self) -> ClockId {
        self.tracker.clock_id()
    }

    fn note_update(&mut self) {
        self.tracker.note_update();
    }

    /// The capture rule, after the tracker's binding: an unbound tracker binds to `tick`'s
    /// clock; a tick of another clock is counted ([`Stats::other_clock_ticks`]) and not acted
    /// on.
    ///
    /// [`Stats::other_clock_ticks`]: crate::Stats::other_clock_ticks
    fn before_update(&mut self, tick: &Tick) -> bool {
        if !self.tracker.binding.follows(tick) {
            self.tracker.stats.other_clock_ticks += 1;
            return false;
        }
        self.note_update();
        if tick.last_in_step {
            self.capture();
        }
        tick.last_in_step
    }
}

impl<T: Interpolate + Component + Clone> BlendColumns for InWorld<'_, T> {
    type Item = T;

    fn blend_into<E: Extend<T>>(&self, alpha: f64, out: &mut E) {
        let _ = self.tracker.blend_into(self.world, alpha, out);
    }
}

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
