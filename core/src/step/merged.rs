//! The merged step: every clock's due ticks, merged by (due time, declaration order). One
//! body, [`run_merged`](Inner::run_merged), compiled for two paths (see `step/path.rs`):
//!
//! - the general path's ([`General`](crate::step::path::General)), for any loop of clocks
//!   that is neither paused nor a lone constant-rate clock: constant-rate slots, the
//!   *nearest* rule and hysteresis fire tick by tick, plain clocks are caught up at once, and
//!   the wake is scaled to real time;
//! - the fast path for several plain clocks ([`Plain`], entered by
//!   [`advance_plain_several`](Inner::advance_plain_several)): every clock catch-up with late
//!   firing and no hysteresis, none with refused ticks waiting, real-time scale, no render
//!   cap, not paused and no control to report. The body then leaves out what such a loop
//!   never uses: no slot to skip, no tick fired tick by tick, no refusal to spend, no scale
//!   arithmetic, and a clock not yet due costs one comparison. Its start and end leave out
//!   the controls, the per-step reset (no control has touched a clock since the step that
//!   set the fast path), the pause and the render slot. Measured, this compile costs 4 and 16
//!   clocks 1,965 / 6,909 instructions a frame against 2,148 / 7,191 through the general one.
//!
//! Both end each clock's step through the same rules in `step/rules.rs`, in the same order, so
//! the events come out the same (a property test in `step/several_tests.rs` checks it on
//! random schedules of two to five clocks).

use crate::events::Events;
use crate::state::Inner;
use crate::step::path::{Path, Plain};
use crate::step::rules::{report_end_of_time, wake_after};
use crate::values::time::Timestamp;

impl<T: Timestamp> Inner<T> {
    /// The step for several plain clocks (see the module docs): the merged body on the fast
    /// path. Out of line and cold: the lone clock's fast path, which shares its helpers, keeps
    /// its registers (measured: 5 more instructions in the lone clock's step without
    /// `#[cold]`).
    #[cold]
    #[inline(never)]
    pub(crate) fn advance_plain_several(&mut self, now: T, ev: &mut Events<T>) {
        let at = self.start_step::<Plain>(now, ev);
        let after = self.run_merged::<Plain>(at.v, 0, ev);
        // After every clock's deferral, as on the general path. An ended clock is due at
        // `u64::MAX` (see `Clock::due`).
        for clock in &mut self.clocks {
            if clock.due() == u64::MAX {
                report_end_of_time(clock, ev.sink(&mut self.pool));
            }
        }
        at.finish(now, self.clocks.alpha_clock_ref(), after, ev);
    }

    /// Every clock's due ticks at virtual time `v`, merged by (due time, declaration order),
    /// then each clock's step ended (the cap's deferral, the backlog bound, the Deferred
    /// rule). `x_est` is the expected length of the next frame, for the *nearest* rule.
    /// Returns when the clocks next want a step, in real ns after the latest `now` (see
    /// [`wake_after`]).
    ///
    /// Each clock's ticks depend on that clock alone, so each clock is worked off on its own
    /// (O(1) for a plain clock, O(its updates) otherwise) and the lazy merge of `Events`
    /// orders the runs by due time: O(clocks + updates) in all.
    #[inline(always)]
    pub(crate) fn run_merged<P: Path>(
        &mut self,
        v: u64,
        x_est: u64,
        ev: &mut Events<T>,
    ) -> Option<u64> {
        if !P::PLAIN {
            self.skip_missed_slots(v, ev);
        }
        let mut capped = false;
        for clock in &mut self.clocks {
            let due = clock.due();
            if P::PLAIN && v < due {
                continue;
            }
            // A catch-up moves only the grid point among the run's fields, and firing tick by
            // tick only the grid point too: the run is built after it, straight into the
            // events.
            let start = clock.tick_start();
            let n = if P::PLAIN || clock.plain() {
                clock.catch_up(v)
            } else {
                while !clock.ended() && clock.ready(v, x_est) {
                    clock.fire();
                }
                clock.count()
            };
            if n > 0 {
                ev.runs
                    .push_inline(clock.run_from(start, n), due, &mut self.pool);
            }
            capped |= n >= clock.checked().cap;
        }
        let (backlog, wake) = self.end_merged_step::<P>(capped, v, ev);
        wake_after::<P>(backlog, || wake, v, &self.virt)
    }
}
