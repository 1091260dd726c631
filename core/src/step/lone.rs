//! The lone plain clock's step, the fast path of the default configuration: one catch-up
//! clock, late firing, no hysteresis, no refused tick waiting, at a scale of 1, with no render
//! cap, not paused and no control to report. It is kept apart from the merged body of
//! `step/merged.rs` by its instruction count (the table in `step/mod.rs`): it counts the due
//! ticks at once, with no merge, no loop over clocks and no end of a merged step. It shares
//! the rules of `step/rules.rs` with every other body, and a property test
//! (`step/fast_path_tests.rs`) checks it against the general path on random schedules.

use crate::events::Events;
use crate::state::Inner;
use crate::step::path::Plain;
use crate::step::rules::{count_shed, defer, overload_floor, report_end_of_time, wake_after};
use crate::values::time::Timestamp;

impl<T: Timestamp> Inner<T> {
    /// [`advance_general`](Self::advance_general) specialised to the lone plain clock (see
    /// [`fast_path`](Self::fast_path)):
    /// no clock merging, no scale arithmetic, no render slot, and the due ticks counted at
    /// once instead of one by one. The rules every path shares are the helpers of
    /// `step/rules.rs`, called here as on the general path.
    #[inline]
    pub(crate) fn advance_plain(&mut self, now: T, ev: &mut Events<T>) {
        let at = self.start_step::<Plain>(now, ev);
        let v = at.v;
        let clock = &mut self.clocks[0];
        let owed = if v >= clock.due() {
            // The catch-up moves only the grid point among the run's fields: the run is built
            // after it, straight into the events.
            let start = clock.tick_start();
            let n = clock.catch_up_alone(v);
            if n > 0 {
                ev.runs
                    .push_with(|| clock.run_from(start, n), &mut self.pool);
            }
            clock.end_step(v, Some(n))
        } else {
            // The same rule, which finds no tick due (the branch lets it know).
            clock.end_step(v, Some(0))
        };
        // The Deferred rule's rare rest, out of line (see `end_clock_step`).
        let (backlog, clock) = match owed {
            None => (false, clock),
            Some(ticks) => (self.defer_lone(v, ticks, ev), &mut self.clocks[0]),
        };
        // An ended clock is due at `u64::MAX` (see `Clock::due`): the common case asks that
        // one comparison, here and in the wake.
        if clock.due() == u64::MAX {
            report_end_of_time(clock, ev.sink(&mut self.pool));
        }
        let after =
            wake_after::<Plain>(backlog, || clock.live().then(|| clock.due()), v, &self.virt);
        at.finish(now, Some(clock), after, ev);
    }

    /// The lone plain clock's Deferred rule once the cap left `ticks` owed (the fast path's
    /// [`end_clock_step`](crate::step::rules::end_clock_step), whose common case, no backlog,
    /// stays inline there): the backlog bound's point taken from the clock itself, the time
    /// it gave up counted, then [`defer`]. Returns whether ticks are still owed.
    #[cold]
    #[inline(never)]
    pub(crate) fn defer_lone(&mut self, v: u64, ticks: u64, ev: &mut Events<T>) -> bool {
        let clock = &mut self.clocks[0];
        let mut most = 0;
        let floor = overload_floor(self.real.max_delta(), v, clock.due());
        let backlog = defer(
            clock,
            v,
            true,
            ticks,
            floor,
            &mut most,
            ev.sink(&mut self.pool),
        );
        if most > 0 {
            count_shed(&mut self.virt, ev);
        }
        backlog
    }
}
