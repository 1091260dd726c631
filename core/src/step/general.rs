//! The general step: several clocks merged by due time, constant-rate policies, pauses, time
//! scales, hysteresis, the nearest rule and the render cap.

use crate::config::Policy;
use crate::events::Events;
use crate::state::Inner;
use crate::step::rules::{
    close_clock_step, deadline_from, render_of, renders, report_end_of_time, wake_after,
};
use crate::values::event::Event;
use crate::values::time::Timestamp;

impl<T: Timestamp> Inner<T> {
    /// The step for every configuration.
    #[cold]
    #[inline(never)]
    pub(crate) fn advance_general(&mut self, now: T, ev: &mut Events<T>) {
        self.emit_controls(ev);
        for clock in &mut self.clocks {
            clock.start_step();
        }
        let first = self.real.latest().is_none();
        let (elapsed, behind) = self.real.read(now, ev.sink(&mut self.pool));
        let paused = self.virt.is_paused();
        if !paused && elapsed > 0 {
            let before = self.virt.now();
            self.add_real(elapsed, ev);
            self.virt.record_frame(before);
        }
        ev.v = self.virt.now();
        // The nearest rule expects the next frame to last as long as the one that just ended.
        let x_est = self.virt.last_frame();
        let now_real = self.real.now();
        let stepped = paused && self.virt.step_request() > 0;
        let mut deadline_real = if paused {
            self.run_stepping(ev, now_real)
        } else if self.clocks.len() == 1 && self.clocks[0].config().policy != Policy::CatchUp {
            self.run_lone_constant_rate(ev, now, behind, now_real)
        } else {
            self.run_merged(ev, now_real, x_est)
        };
        for clock in &mut self.clocks {
            clock.spend_spare();
            report_end_of_time(clock, ev.sink(&mut self.pool));
        }
        if (renders(first, elapsed) || stepped) && self.render.open_at(now_real) {
            ev.render = Some(render_of(
                self.clocks.alpha_clock_ref(),
                self.virt.now(),
                self.virt.is_paused(),
                self.delta_at_step_end(),
            ));
        }
        if let Some(r) = self.render.next_slot() {
            deadline_real = Some(deadline_real.map_or(r, |d| d.min(r)));
        }
        ev.deadline = deadline_real.map(|d| deadline_from(now, behind, d.saturating_sub(now_real)));
    }

    fn emit_controls(&mut self, ev: &mut Events<T>) {
        if self.virt.has_pending() {
            self.virt.emit_controls(&mut ev.sink(&mut self.pool));
        }
        self.clocks.emit_reports(ev.sink(&mut self.pool));
    }

    /// Every clock's due ticks, merged by (due time, declaration order). Returns the real
    /// deadline (ns since start).
    fn run_merged(&mut self, ev: &mut Events<T>, now_real: u64, x_est: u64) -> Option<u64> {
        let v = self.virt.now();
        self.skip_missed_slots(v, ev);
        // Each clock's ticks depend on that clock alone, so each clock is worked off on its
        // own (O(1) for a plain clock, O(its updates) otherwise) and the lazy merge of
        // `Events` orders the runs by due time: O(clocks + updates) in all.
        let mut capped = false;
        for clock in &mut self.clocks {
            let mut run = clock.run();
            let due = clock.due();
            let n = if clock.plain() {
                clock.catch_up(v)
            } else {
                while !clock.ended() && clock.ready(v, x_est, false) {
                    clock.fire();
                }
                clock.count()
            };
            if n > 0 {
                run.count = n;
                ev.runs.push_inline(run, due, &mut self.pool);
            }
            capped |= n >= clock.checked().cap;
        }
        let (backlog, wake) = self.end_merged_step::<false>(capped, v, ev);
        wake_after(backlog, || wake, v, Some(&self.virt)).map(|r| now_real.saturating_add(r))
    }

    /// A loop with one constant-rate clock: one update per step at the start of its slot, with a
    /// [`Event::Sleep`] until then (the *drop & rest* and *keep working* constant-rate loops).
    /// A slot that virtual time can never reach (a time scale of 0, the end of time) does not
    /// run: the deadline is then `None`. Returns the real deadline.
    fn run_lone_constant_rate(
        &mut self,
        ev: &mut Events<T>,
        now: T,
        behind: u64,
        now_real: u64,
    ) -> Option<u64> {
        let v = self.virt.now();
        let clock = &mut self.clocks[0];
        if clock.ended() {
            return None;
        }
        let slot = clock.skip_missed(v, true, &mut ev.sink(&mut self.pool));
        if clock.ended() {
            return None;
        }
        if v < slot {
            let real = self.virt.real_needed(slot - v)?;
            let until = deadline_from(now, behind, real);
            ev.sink(&mut self.pool).push(Event::Sleep { until });
        }
        let mut run = clock.run();
        clock.fire();
        run.count = 1;
        ev.runs.push(run, &mut self.pool);
        close_clock_step::<T, false>(clock, v, true, None, &mut 0, ev, &mut self.pool);
        // The next slot needs a step at once (it sleeps there), if virtual time can reach it.
        if clock.ended() || self.virt.scale().as_ratio().0 == 0 {
            None
        } else {
            Some(now_real)
        }
    }
}
