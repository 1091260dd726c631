//! One fixed-rate clock inside a loop: its exact grid, its accounting and its firing rules.

use crate::config::{Checked, ClockConfig, Firing, Policy};
use crate::event::{ClockId, DropReason, Event, Tick};
use crate::jitter::Snap;
use crate::rate::{GridPoint, GridStep, TickRate};
use crate::time::Nanos;

/// A clock's state. All times here are virtual nanoseconds since the loop's start.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Clock {
    pub(crate) id: ClockId,
    pub(crate) config: ClockConfig,
    pub(crate) checked: Checked,
    /// Virtual time at which tick 0 starts.
    pub(crate) origin: u64,
    /// Ticks the max frame delta has dropped from this clock, in total.
    pub(crate) clamp_dropped: u64,
    pub(crate) next_tick: u64,
    /// `k·dt` and `(k+1)·dt` for the next tick `k`, relative to `origin`.
    tick_start: GridPoint,
    tick_end: GridPoint,
    pub(crate) ran: u64,
    pub(crate) dropped_slots: u64,
    /// Hysteresis: the recent update pattern and frame jitter (unused when it is off).
    snap: Snap,
    /// Updates run so far in the current step.
    pub(crate) count: u32,
    /// Index in the event list of this clock's latest update in the current step.
    last_event: usize,
    /// The tick length's numerator and denominator (ns) as floats, for alpha.
    num_f: f64,
    den_f: f64,
    /// The tick length split for walking the grid without a division.
    step: GridStep,
    /// A catch-up clock with late firing and no hysteresis: the fold's fast path applies.
    pub(crate) plain: bool,
}

impl Clock {
    pub(crate) fn new(id: ClockId, config: ClockConfig, checked: Checked, origin: u64) -> Clock {
        Clock {
            id,
            config,
            checked,
            origin,
            clamp_dropped: 0,
            next_tick: 0,
            tick_start: GridPoint::at(config.rate, 0),
            tick_end: GridPoint::at(config.rate, 1),
            ran: 0,
            dropped_slots: 0,
            snap: Snap::new(),
            count: 0,
            last_event: 0,
            num_f: config.rate.period_ratio().0 as f64,
            den_f: config.rate.period_ratio().1 as f64,
            step: GridStep::of(config.rate),
            plain: config.policy == Policy::CatchUp
                && config.firing == Firing::Late
                && checked.hysteresis_ns == 0,
        }
    }

    #[inline]
    pub(crate) fn rate(&self) -> TickRate {
        self.config.rate
    }

    #[inline]
    fn constant_rate(&self) -> bool {
        self.config.policy != Policy::CatchUp
    }

    /// Virtual time `v` on this clock's own axis, shifted by its phase; `None` before its origin.
    #[inline]
    fn local(&self, v: u64) -> Option<u64> {
        v.checked_sub(self.origin)
            .map(|l| l.saturating_add(self.checked.phase_ns))
    }

    /// Virtual time at which the next tick is due: the end of its interval for catch-up (less
    /// the phase), the start of its slot for the constant-rate policies.
    #[inline]
    pub(crate) fn due(&self) -> u64 {
        let local = if self.constant_rate() {
            self.tick_start.ceil()
        } else {
            self.tick_end.ceil().saturating_sub(self.checked.phase_ns)
        };
        self.origin.saturating_add(local)
    }

    /// How many ticks the clock has made due by virtual time `v` (ignoring hysteresis).
    #[inline]
    fn ticks_at(&self, v: u64) -> u64 {
        match self.local(v) {
            None => 0,
            Some(l) if self.constant_rate() => self.rate().ticks_in(l).saturating_add(1),
            Some(l) => self.rate().ticks_in(l),
        }
    }

    /// The max frame delta: virtual time went from `before` to `now` but only `allowed` of it
    /// may be worked off. Drops the oldest due ticks beyond that, moving the tick number past
    /// them, and returns `(first, count)` of the dropped ticks.
    pub(crate) fn clamp(&mut self, before: u64, allowed: u64, now: u64) -> (u64, u64) {
        let limit = self.ticks_at(before.saturating_add(allowed));
        let count = self.ticks_at(now).saturating_sub(limit);
        let first = self.next_tick;
        if count > 0 {
            self.jump_to(first.saturating_add(count));
            self.clamp_dropped = self.clamp_dropped.saturating_add(count);
        }
        (first, count)
    }

    /// Makes tick `j` the next one (after a drop).
    fn jump_to(&mut self, j: u64) {
        let rate = self.rate();
        self.next_tick = j;
        self.tick_start = GridPoint::at(rate, j);
        self.tick_end = GridPoint::at(rate, j.saturating_add(1));
    }

    /// Ticks due by virtual time `v`: `ticks_run + ticks_dropped + pending` for a catch-up clock
    /// without hysteresis or the nearest rule.
    pub(crate) fn ticks_due(&self, v: u64) -> u64 {
        self.ticks_at(v)
    }

    /// Ticks due by virtual time `v` that have neither run nor been dropped.
    #[inline]
    pub(crate) fn pending(&self, v: u64) -> u64 {
        if self.constant_rate() {
            return 0;
        }
        self.ticks_at(v).saturating_sub(self.next_tick)
    }

    /// Whether the next tick fires in this step at virtual time `v`, with `x_est` the expected
    /// length of the next frame (virtual ns).
    #[inline]
    pub(crate) fn ready(&self, v: u64, x_est: u64, single: bool) -> bool {
        if v < self.origin {
            return false;
        }
        let due = self.due();
        if self.constant_rate() {
            // One update per step. A lone clock sleeps until its slot; with several clocks the
            // slot in progress (or, late, the latest started slot) runs.
            return self.count == 0 && (single || v >= due || self.near(due, v, x_est));
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

    /// The *nearest* rule: `now` is closer to `due` than the next step is expected to be.
    #[inline]
    fn near(&self, due: u64, v: u64, x_est: u64) -> bool {
        self.config.firing == Firing::Nearest
            && u128::from(due - v.min(due)) * 2 < u128::from(x_est)
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
        let local_v = v.saturating_sub(self.origin);
        let slot = self.tick_start.ceil();
        if local_v > slot {
            let j = match self.config.policy {
                // The first slot that has not started yet (a slot starting exactly now is on time).
                Policy::DropAndRest if single => rate.ticks_in(local_v - 1).saturating_add(1),
                // The slot in progress.
                _ => rate.ticks_in(local_v),
            };
            if j > self.next_tick {
                let count = j - self.next_tick;
                out.extend(Some(Event::DroppedTicks {
                    clock: self.id,
                    first: self.next_tick,
                    count,
                    reason: DropReason::SlotMissed,
                }));
                self.dropped_slots = self.dropped_slots.saturating_add(count);
                self.jump_to(j);
            }
        }
        self.origin.saturating_add(self.tick_start.ceil())
    }

    /// Fires the next tick at virtual time `v` (which may precede its due time under the
    /// constant-rate sleep or the nearest rule; the lag then reads 0).
    #[inline]
    pub(crate) fn fire(&mut self, v: u64, event_index: usize) -> Tick {
        let rate = self.rate();
        let lag = match self.local(v) {
            Some(l) if self.constant_rate() => l.saturating_sub(self.tick_start.ceil()),
            Some(l) => u64::try_from(self.tick_start.lag_floor(l)).unwrap_or(0),
            None => 0,
        };
        let tick = Tick {
            clock: self.id,
            index: self.next_tick,
            t: Nanos(self.tick_start.floor()),
            dt: rate,
            lag: Nanos(lag),
            last_in_step: true,
        };
        self.next_tick = self.next_tick.saturating_add(1);
        self.ran = self.ran.saturating_add(1);
        self.tick_start = self.tick_end;
        self.tick_end.advance_by(self.step);
        self.count += 1;
        self.last_event = event_index;
        tick
    }

    /// This step's previous update event, which is no longer the last of the step.
    #[inline]
    pub(crate) fn previous_event(&self) -> Option<usize> {
        (self.count > 0).then_some(self.last_event)
    }

    /// Ends the step: remembers the update count and resets the per-step counters. Returns the
    /// backlog if the cap stopped a catch-up clock with ticks still due.
    #[inline]
    pub(crate) fn end_step(&mut self, v: u64) -> Option<u64> {
        let h = self.checked.hysteresis_ns;
        if h > 0 {
            self.snap
                .record(v, self.count, h, self.rate().period_ratio());
        }
        let capped = !self.constant_rate() && self.count >= self.checked.cap;
        self.count = 0;
        (capped && v >= self.due()).then(|| self.pending(v).max(1))
    }

    /// The virtual time at which this clock next wants a step (before hysteresis and nearest
    /// adjustments are applied by the caller).
    #[inline]
    pub(crate) fn wake(&self, x_est: u64) -> u64 {
        let due = self.due();
        let h = self.checked.hysteresis_ns;
        let due = if h == 0 || self.constant_rate() {
            due
        } else {
            self.snap.wake(due, h)
        };
        if self.config.firing == Firing::Nearest {
            due.saturating_sub(x_est / 2)
        } else {
            due
        }
    }

    /// Where a renderer stands between this clock's previous and current tick, in `[0, 1]`,
    /// and the exact lag in ns (rounded down; negative when a tick ran early).
    #[inline]
    pub(crate) fn alpha(&self, v: u64) -> (f64, i64) {
        if self.constant_rate() {
            return (1.0, 0);
        }
        let Some(l) = self.local(v) else {
            return (0.0, 0);
        };
        (
            self.tick_start
                .lag_fraction(self.num_f, self.den_f, l)
                .clamp(0.0, 1.0),
            self.tick_start.lag_floor(l),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_stays_small() {
        // Cloning a LoopState copies every clock: keep one within five cache lines (280 bytes
        // now, 48 of them the hysteresis state).
        let size = core::mem::size_of::<Clock>();
        assert!(size <= 320, "Clock grew to {size} bytes");
    }
}
