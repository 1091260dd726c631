//! The general step: the controls, time scales, pauses and the render cap around one of three
//! bodies: the merged step of `step/merged.rs` (several clocks merged by due time, with the
//! constant-rate policies, hysteresis and the nearest rule), a lone constant-rate clock's
//! slot (here) or single-stepping (`step/stepping.rs`).

use crate::config::Policy;
use crate::events::Events;
use crate::state::Inner;
use crate::step::path::General;
use crate::step::rules::{
    Start, close_clock_step, deadline_from, render_of, renders, report_end_of_time,
};
use crate::values::event::Event;
use crate::values::time::Timestamp;

impl<T: Timestamp> Inner<T> {
    /// The step for every configuration.
    #[cold]
    #[inline(never)]
    pub(crate) fn advance_general(&mut self, now: T, ev: &mut Events<T>) {
        let Start {
            first,
            elapsed,
            behind,
            ..
        } = self.start_step::<General>(now, ev);
        let paused = self.virt.is_paused();
        // The nearest rule expects the next frame to last as long as the one that just ended.
        let x_est = self.virt.last_frame();
        let now_real = self.real.now();
        let stepped = paused && self.virt.step_request() > 0;
        let mut deadline_real = if paused {
            self.run_stepping(ev, now_real)
        } else if self.clocks.len() == 1 && self.clocks[0].config().policy != Policy::CatchUp {
            self.run_lone_constant_rate(ev, now, behind, now_real)
        } else {
            let v = self.virt.now();
            self.run_merged::<General>(v, x_est, ev)
                .map(|r| now_real.saturating_add(r))
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
        close_clock_step::<T, General>(clock, v, true, None, &mut 0, ev, &mut self.pool);
        // The next slot needs a step at once (it sleeps there), if virtual time can reach it.
        if clock.ended() || self.virt.scale().as_ratio().0 == 0 {
            None
        } else {
            Some(now_real)
        }
    }
}
