//! The fast path for several plain clocks: every clock catch-up with late firing and no
//! hysteresis, none with refused ticks waiting, real-time scale, no render cap, not paused and
//! no control to report. It is [`advance_general`](Inner::advance_general) without what such a
//! loop never uses: no controls to emit, no per-step reset (no control has touched a clock
//! since the step that set the fast path), no pause or single-stepping, no constant-rate slot
//! to skip, no scale arithmetic, no refusal to spend, no render slot. Each clock is worked off
//! with the one-tick catch-up of the lone clock's fast path, and a clock not yet due costs one
//! comparison. The rules both paths share are the helpers of `step/rules.rs`, called here as
//! on the general path and in the same order, so the events come out the same (a property
//! test in `step/several_tests.rs` checks it on random schedules of two to five clocks).

use crate::events::Events;
use crate::state::Inner;
use crate::step::rules::{report_end_of_time, wake_after};
use crate::values::time::Timestamp;

impl<T: Timestamp> Inner<T> {
    /// The step for several plain clocks (see the module docs). Out of line and cold: the lone
    /// clock's fast path, which shares its helpers, keeps its registers (measured: 5 more
    /// instructions in the lone clock's step without `#[cold]`).
    #[cold]
    #[inline(never)]
    pub(crate) fn advance_plain_several(&mut self, now: T, ev: &mut Events<T>) {
        let at = self.start_plain_step(now, ev);
        let v = at.v;
        // Each clock worked off on its own; the merge of `Events` orders the runs by due time.
        let mut capped = false;
        for clock in &mut self.clocks {
            let due = clock.due();
            if v < due {
                continue;
            }
            // The catch-up moves only the grid point among the run's fields: the run is built
            // after it, as on the lone clock's fast path.
            let start = clock.tick_start();
            let n = clock.catch_up(v);
            if n > 0 {
                ev.runs
                    .push_inline(clock.run_from(start, n), due, &mut self.pool);
            }
            capped |= n >= clock.checked().cap;
        }
        let (backlog, wake) = self.end_merged_step::<true>(capped, v, ev);
        // After every clock's deferral, as on the general path. An ended clock is due at
        // `u64::MAX` (see `Clock::due`).
        for clock in &mut self.clocks {
            if clock.due() == u64::MAX {
                report_end_of_time(clock, ev.sink(&mut self.pool));
            }
        }
        let after = wake_after(backlog, || wake, v, None);
        at.finish(now, self.clocks.alpha_clock_ref(), after, ev);
    }
}
