//! Single-stepping while paused (debug stepping, like Bevy's `Stepping`): the next step runs
//! exactly N ticks of the alpha clock, moving virtual time by exactly those ticks, then the
//! loop stays paused.

use crate::config::Policy;
use crate::events::Events;
use crate::state::Inner;
use crate::step::path::General;
use crate::step::rules::close_clock_step;
use crate::values::time::Timestamp;

impl<T: Timestamp> Inner<T> {
    /// The paused step: runs a pending
    /// [`VirtualTimeMut::step_ticks`](crate::VirtualTimeMut::step_ticks) request, if any. Returns the
    /// real deadline: "now" while some of the request is left, else `None` (paused).
    pub(crate) fn run_stepping(&mut self, ev: &mut Events<T>, now_real: u64) -> Option<u64> {
        let request = self.virt.step_request();
        if request == 0 {
            return None;
        }
        let Some(a) = self.clocks.alpha_index() else {
            self.virt.cancel_steps();
            return None;
        };
        let alpha = &self.clocks[a];
        if alpha.ended() {
            self.virt.cancel_steps();
            return None;
        }
        let constant_rate = alpha.config().policy != Policy::CatchUp;
        // One slot per step for a constant-rate clock; else the n-th next tick's due time.
        let ahead = if constant_rate { 0 } else { request - 1 };
        let target = alpha.due_of(alpha.next_tick().saturating_add(ahead));
        // The fraction of a ns virtual time carries is kept: the jump is whole ns.
        self.virt.jump_to(target);
        let v = self.virt.now();
        ev.v = v;
        let limit = request.min(u64::from(alpha.checked().cap));
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        self.skip_missed_slots(v, ev);
        // Each clock is worked off on its own; the lazy merge of `Events` orders the runs by
        // due time (ties to the clock declared first), as on the general path.
        for (i, clock) in self.clocks.iter_mut().enumerate() {
            let cap = if clock.config().policy != Policy::CatchUp {
                1
            } else if i == a {
                limit
            } else {
                clock.checked().cap
            };
            let mut run = clock.run();
            while !clock.ended() && v >= clock.due() && clock.count() < cap {
                clock.fire();
            }
            if clock.count() > 0 {
                run.count = clock.count();
                ev.runs.push(run, &mut self.pool);
            }
        }
        // Another clock's deferred tick may hold the alpha clock's back (the loop's order):
        // only the ticks that ran count then.
        let deferred = self.hold_after_deferral(ev, v);
        let ran = u64::from(self.clocks[a].count());
        if self.clocks[a].ended() {
            self.virt.cancel_steps();
        } else {
            self.virt
                .steps_taken(if deferred { ran } else { ran.max(1) });
        }
        // A backlog the cap left is reported only while the request goes on (the deadline is
        // then "now"); once it is done the loop stays paused and the backlog waits, counted
        // in `ClockStats::pending`, for the loop to resume.
        // The backlog bound does not apply here: the ticks owed are the ones the request
        // asked for (the first step after the loop resumes bounds what is left).
        let going_on = self.virt.step_request() > 0;
        // A refused slot run late drops the slots that passed meanwhile here too, reported
        // whether or not the request goes on.
        for clock in &mut self.clocks {
            close_clock_step::<T, General>(clock, v, going_on, None, &mut 0, ev, &mut self.pool);
        }
        going_on.then_some(now_real)
    }
}
