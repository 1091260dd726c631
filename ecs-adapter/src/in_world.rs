//! [`InWorld`]: an [`Interpolated<T>`] bound to its world, as tickfold-core's storage traits;
//! and the column copy a capture makes.

use std::fmt;

use hecs::{Component, World};
use tickfold_core::{BlendColumns, ClockId, Columns, Interpolate, Tick};

use crate::interpolated::Interpolated;

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
