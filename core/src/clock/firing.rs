//! A clock's firing rules: when its next tick runs (the catch-up cap, the *nearest* rule,
//! hysteresis, the constant-rate policies' slots), how a step fires ticks and ends, and when
//! the clock next wants a step.

use super::Clock;
use crate::clock::jitter::Snap;
use crate::config::{Firing, Policy};
use crate::events::few::Sink;
use crate::grid::{self, Run, due_time};
use crate::values::event::{DropReason, Event};
use crate::values::rate::GridPoint;

impl Clock {
    /// Whether the next tick fires in this step at virtual time `v`, with `x_est` the expected
    /// length of the next frame (virtual ns).
    #[inline]
    pub(crate) fn ready(&self, v: u64, x_est: u64) -> bool {
        if v < self.origin {
            return false;
        }
        let due = self.due();
        if self.constant_rate() {
            // One update per step: the slot in progress (or, late, the latest started slot).
            // (A lone constant-rate clock sleeps until its slot instead: see
            // `step/general.rs`.)
            return self.count == 0 && (v >= due || self.near(due, v, x_est));
        }
        if self.count >= self.checked.cap {
            return false;
        }
        let h = self.checked.hysteresis_ns;
        if h == 0 {
            return v >= due || self.near(due, v, x_est);
        }
        self.snap.fires(self.count, v, due, h)
    }

    /// The *nearest* rule: `now` is closer to `due` than the next step is expected to be. The
    /// expected frame counts for at most two ticks, so the window before `due` is shorter than
    /// one tick: at most one tick per step runs early, and never before its interval began
    /// (after a long frame, half of it would otherwise reach many ticks into the future).
    #[inline]
    fn near(&self, due: u64, v: u64, x_est: u64) -> bool {
        let two_ticks = u128::from(self.rate().floor_nanos()) * 2;
        self.config.firing == Firing::Nearest
            && u128::from(due - v.min(due)) * 2 < u128::from(x_est).min(two_ticks)
    }

    /// For the constant-rate policies: skips the slots that passed before `v` and reports them.
    /// Returns the virtual time the update must wait for (a lone clock sleeps until then).
    /// With several clocks nobody sleeps, so both policies run the slot in progress.
    pub(crate) fn skip_missed<T>(
        &mut self,
        v: u64,
        single: bool,
        out: &mut impl Extend<Event<T>>,
    ) -> u64 {
        let rate = self.rate();
        let local_v = self.local(v).unwrap_or(0);
        let slot = u128::from(self.tick_start.ceil());
        // A refused slot runs late rather than being dropped (see `LoopState::refuse`); under
        // `Delay` nothing is dropped anyway: the late slot starts now.
        if local_v > slot && (self.spare == 0 || self.config.policy == Policy::Delay) {
            let j = match self.config.policy {
                // Late: the slot starts now and the grid moves with it (nothing is dropped).
                Policy::Delay => {
                    self.restart_grid(self.rate(), i128::from(v));
                    return v;
                }
                // The first slot that has not started yet (a slot starting exactly now is on
                // time): the slots started before `v`.
                Policy::DropAndRest if single => grid::due_count(rate, true, local_v - 1),
                // The slot in progress.
                _ => grid::point_at(rate, local_v),
            }
            .saturating_add(self.base);
            out.extend(self.drop_slots_before(j));
        }
        grid::start_time(rate, self.origin, self.shift, self.tick_start)
    }

    /// Notes the step's latest tick once its `count` updates are final (after
    /// [`hold_after`](Self::hold_after), before anything drops the slots after them): the one
    /// before the next. The general paths call it; [`end_step`](Self::end_step) does on the
    /// fast path.
    #[inline(always)]
    pub(crate) fn note_latest(&mut self, count: u32) {
        if count > 0 {
            self.prior = self.latest;
            self.latest = self.next_tick;
        }
    }

    /// [`note_latest`](Self::note_latest) for the general paths, which count in the clock.
    #[inline]
    pub(crate) fn note_latest_step(&mut self) {
        self.note_latest(self.count);
    }

    /// For the drop policies, after a refused slot ran late in this step: the slots that
    /// started meanwhile (the one in progress included) are dropped now, so no slot is left
    /// pending after a step that ran the clock (see `ClockStats::pending`). The drop is
    /// reported after the updates (`out.push_after`), as the clock's tick numbers come in
    /// the stream: the refused slot's update, then the slots after it.
    #[inline]
    pub(crate) fn drop_passed_after_refused<T>(&mut self, v: u64, out: Sink<'_, T>) {
        if self.spare == 0 {
            return;
        }
        self.drop_passed_after_refused_slow(v, out);
    }

    #[cold]
    #[inline(never)]
    fn drop_passed_after_refused_slow<T>(&mut self, v: u64, out: Sink<'_, T>) {
        let ran_refused = self.count > 0 && self.spare <= self.count;
        if !ran_refused || !self.constant_rate() || self.config.policy == Policy::Delay {
            return;
        }
        let j = self.ticks_at(v);
        if !self.ended() {
            if let Some(drop) = self.drop_slots_before(j) {
                out.push_after(drop);
            }
        }
    }

    /// The one place missed slots are dropped: the slots from the next tick up to (not
    /// including) slot `j`, counted; returns the [`DropReason::SlotMissed`] event that
    /// reports them (the caller puts it in its place in the stream).
    fn drop_slots_before<T>(&mut self, j: u64) -> Option<Event<T>> {
        if j <= self.next_tick {
            return None;
        }
        let count = j - self.next_tick;
        let event = Event::DroppedTicks {
            clock: self.id,
            first: self.next_tick,
            count,
            reason: DropReason::SlotMissed,
        };
        self.dropped_slots = self.dropped_slots.saturating_add(count);
        self.jump_to(j);
        Some(event)
    }

    /// The description of a run of updates starting at this clock's next tick: the lazily
    /// produced [`Tick`](crate::Tick)s of [`Events`](crate::Events) are computed from it.
    #[inline]
    pub(crate) fn run(&self) -> Run {
        Run {
            clock: self.id,
            count: 0,
            constant_rate: self.constant_rate(),
            origin: self.origin,
            phase_ns: self.shift,
            base: self.base,
            base_t: self.base_t,
            base_r: self.base_r,
            start: self.offset(self.tick_start),
            step: self.step,
        }
    }

    /// [`run`](Self::run) of `count` ticks from the grid point `start` (where the clock stood
    /// before a catch-up that changed nothing else the run holds).
    #[inline(always)]
    pub(crate) fn run_from(&self, start: GridPoint, count: u32) -> Run {
        Run {
            start: self.offset(start),
            count,
            ..self.run()
        }
    }

    /// Fires the next tick (at a virtual time that may precede its due time under the
    /// constant-rate sleep, the nearest rule or hysteresis): the grid moves one tick on. The
    /// tick itself is described by the step's [`Run`] and produced when the events are read.
    // Always inlined: the fast path calls it once per step or tick.
    #[inline(always)]
    pub(crate) fn fire(&mut self) {
        let mut end = self.tick_end;
        end.advance_by(self.step);
        self.move_one(end, 0);
        self.due_at = self.compute_due();
    }

    /// The grid moves one tick on, to the interval ending at `end`, and the next tick is due
    /// at `due`: the one home of a fired tick's bookkeeping ([`fire`](Self::fire) and the
    /// one-tick branch of [`catch_up`](Self::catch_up), which knows both already).
    #[inline(always)]
    fn move_one(&mut self, end: GridPoint, due: u64) {
        self.next_tick = self.next_tick.saturating_add(1);
        self.ran = self.ran.saturating_add(1);
        self.tick_start = self.tick_end;
        self.tick_end = end;
        self.count += 1;
        self.due_at = due;
    }

    /// The fast path's catch-up (a plain clock: catch-up, late firing, no hysteresis, nothing
    /// run yet this step): fires every tick due by `v`, up to the cap, and returns how many.
    /// O(1) in the number of ticks: one comparison when none is due, two when one is, one
    /// division for the count and one for the new grid point when more are.
    #[inline(always)]
    pub(crate) fn catch_up(&mut self, v: u64) -> u32 {
        if v < self.due_at || self.ended() {
            // `ended` only runs when `v == due_at == u64::MAX`.
            return 0;
        }
        let cap = self.checked.cap;
        let mut second_end = self.tick_end;
        second_end.advance_by(self.step);
        let second_due = due_time(
            self.rate(),
            self.origin,
            self.shift,
            false,
            self.tick_end,
            second_end,
        );
        let last = self.next_tick.saturating_add(1) >= self.end;
        if cap == 1 || v < second_due || last {
            // One tick: the grid moves on by one and the next due time is already known.
            self.move_one(second_end, if last { u64::MAX } else { second_due });
            return 1;
        }
        self.catch_up_many(v)
    }

    /// [`catch_up`](Self::catch_up) when two or more ticks are due: counted at once (out of
    /// line, so that the one-tick step keeps its registers).
    #[inline(never)]
    fn catch_up_many(&mut self, v: u64) -> u32 {
        // `ticks_at` is capped by `end`.
        let due = self.ticks_at(v).saturating_sub(self.next_tick);
        let n = due.min(u64::from(self.checked.cap)) as u32;
        let j = self.next_tick.saturating_add(u64::from(n));
        self.ran = self.ran.saturating_add(u64::from(n));
        self.count = n;
        self.jump_to(j);
        n
    }

    /// [`catch_up`](Self::catch_up) as the whole of a fast-path step: the per-step count is
    /// left at 0 and the step's count is given to [`end_step`](Self::end_step).
    #[inline(always)]
    pub(crate) fn catch_up_alone(&mut self, v: u64) -> u32 {
        let n = self.catch_up(v);
        self.count = 0;
        n
    }

    /// Starts a general step: the previous step's updates can no longer be refused, and the
    /// grid it ran on is no longer asked for (see `InputQueue`).
    #[inline]
    pub(crate) fn start_step(&mut self) {
        self.last_count = 0;
        self.stepped = None;
    }

    /// Refused ticks are spared until steps run them (a paused step may not): the latest
    /// step's updates ran that many of them.
    #[inline]
    pub(crate) fn spend_spare(&mut self) {
        self.spare = self.spare.saturating_sub(self.last_count);
    }

    /// The due time of the tick the cap defers in this step at `v`: `Some` when the cap
    /// stopped this catch-up clock (or [`hold_after`](Self::hold_after) held it back) with a
    /// tick that a step at the same `v` runs. A step runs a prefix of the loop's due-time
    /// order: every tick due after this one, of any clock, waits for a later step.
    #[inline]
    pub(crate) fn deferred(&self, v: u64) -> Option<u64> {
        let capped =
            !self.constant_rate() && (self.count >= self.checked.cap || self.held) && !self.ended();
        if !capped {
            return None;
        }
        let h = self.checked.hysteresis_ns;
        let mut snap = self.snap;
        if h > 0 {
            snap.record(v, self.count, h, self.rate().as_nanos_ratio());
        }
        self.runs_again(&snap, v, h).then_some(self.due())
    }

    /// Whether a step at `v` runs this clock's next tick, with `snap` the hysteresis band's
    /// memory once the step ending at `v` is recorded (the next step joins this frame) and
    /// `h` the band (0: none). Under hysteresis the rule decides: a tick it holds is no
    /// backlog, and `wake` gives the time the rule lets it run. The one home of the "again"
    /// test of [`deferred`](Self::deferred) and [`end_step`](Self::end_step).
    #[inline(always)]
    fn runs_again(&self, snap: &Snap, v: u64, h: u64) -> bool {
        if h > 0 {
            snap.fires(0, v, self.due(), h)
        } else {
            v >= self.due()
        }
    }

    /// Keeps only the ticks this step fired that come before the deferred tick `held` (due at
    /// `due`, on the clock declared at `place`) in the loop's order of (due time, declaration
    /// order); this clock is declared at `me`. The others are put back: they stay due, and
    /// run in a later step in their place in the order. Returns whether any was put back.
    pub(crate) fn hold_after(&mut self, due: u64, place: usize, me: usize) -> bool {
        if me == place || self.count == 0 {
            return false;
        }
        let first = self.next_tick - u64::from(self.count);
        // Ticks due by `limit` come first: a tie goes to the clock declared first.
        let keep = if me < place {
            self.ticks_at(due)
        } else {
            due.checked_sub(1)
                .map_or(first, |limit| self.ticks_at(limit))
        }
        .clamp(first, self.next_tick);
        let back = self.next_tick - keep;
        if back == 0 {
            return false;
        }
        // `back` is at most this step's count.
        self.count -= back as u32;
        self.ran = self.ran.saturating_sub(back);
        self.jump_to(keep);
        self.held = true;
        true
    }

    /// The run of the ticks this step fired (after [`hold_after`](Self::hold_after) put some
    /// back): one division.
    pub(crate) fn step_run(&self) -> Run {
        let first = self.next_tick - u64::from(self.count);
        self.run_from(self.grid().point(first), self.count)
    }

    /// Ends the step: remembers the update count and resets the per-step counters. Returns the
    /// backlog if the cap stopped a catch-up clock with a tick that a step at the same `v`
    /// runs, or held it back behind another clock's deferred tick (the deadline is then
    /// "now"). `plain`: on the fast path, the count [`catch_up_alone`](Self::catch_up_alone)
    /// returned (the clock is catch-up, late firing, without hysteresis and alone, so nothing
    /// holds it back), for which the rule needs fewer looks.
    // Always inlined: the fast path calls it once per step.
    #[inline(always)]
    pub(crate) fn end_step(&mut self, v: u64, plain: Option<u32>) -> Option<u64> {
        let count = plain.unwrap_or(self.count);
        let h = if plain.is_some() {
            0
        } else {
            self.checked.hysteresis_ns
        };
        let held = plain.is_none() && core::mem::take(&mut self.held);
        if h > 0 {
            self.snap.record(v, count, h, self.rate().as_nanos_ratio());
        }
        self.last_count = count;
        self.count = 0;
        if let Some(n) = plain {
            self.note_latest(n);
        }
        let again = self.runs_again(&self.snap, v, h);
        // Asked after `again`, usually false, which rules the rest out at once. A catch-up
        // clock's own cap, or any clock's ticks held behind another clock's deferred tick (a
        // constant-rate slot among them: it stays due, and the step reports it).
        if !again {
            return None;
        }
        let capped = (count >= self.checked.cap && (plain.is_some() || !self.constant_rate())
            || held)
            && !self.ended();
        capped.then(|| self.pending(v).max(1))
    }

    /// The virtual time at which this clock next wants a step.
    ///
    /// For the nearest rule this is the due time itself, not half a frame before it: a shell
    /// that sleeps until the deadline then wakes exactly on time, which no early firing can
    /// beat. (Waking half an estimated frame early found nothing to do, shortened the estimate
    /// and closed in on the due time a dozen wake-ups per tick.) The rule still fires a tick
    /// early when a step comes, for its own reasons (vsync, input), within half a frame of it.
    #[inline]
    pub(crate) fn wake(&self) -> u64 {
        let due = self.due();
        let h = self.checked.hysteresis_ns;
        if h == 0 || self.constant_rate() {
            due
        } else {
            self.snap.wake(due, h)
        }
    }
}
