//! Moving one clock's grid at run time, for the controls of [`ClockMut`](crate::ClockMut) (`state/clock_view.rs`) and a refusal (`state/refuse.rs`): a rate change or a
//! reset restarts the grid at a boundary (tick numbers continue), added or discarded lag
//! shifts it, a refused tick steps it back. Every change keeps the clock's accounting exact:
//! every tick below `next_tick` ran or was dropped, and the due count follows the new grid.

use super::Clock;
use crate::clock::jitter::Snap;
use crate::grid::{self, segment_end};
use crate::values::rate::{GridPoint, GridStep, Period};
use crate::values::time::Lag;

impl Clock {
    /// Where the next tick's interval (catch-up) or slot (constant rate) starts, in virtual ns
    /// since the loop's start, rounded up to a whole ns (the instant virtual time reaches it).
    /// Negative when added lag put it before the loop's start.
    pub(crate) fn boundary(&self) -> i128 {
        self.start_of(self.tick_start)
    }

    /// Where grid point `g` of the current segment starts (see [`grid::start`]).
    fn start_of(&self, g: GridPoint) -> i128 {
        grid::start(self.rate(), self.origin, self.shift, g)
    }

    /// How far the clock's grid is ahead of virtual time: its axis reads `v + lead` at `v`.
    fn lead(&self) -> i128 {
        i128::from(self.shift) - i128::from(self.origin)
    }

    /// Sets the lead (see [`lead`](Self::lead)) in the one form the grid arithmetic expects:
    /// a grid that starts before the loop does is shifted (`origin` 0), one that starts later
    /// waits for its origin (`shift` 0). Refreshes the end of time and the due time.
    fn set_lead(&mut self, lead: i128) {
        if lead >= 0 {
            self.origin = 0;
            self.shift = u64::try_from(lead).unwrap_or(u64::MAX);
        } else {
            self.origin = u64::try_from(-lead).unwrap_or(u64::MAX);
            self.shift = 0;
        }
        let end = self.base.saturating_add(segment_end(
            self.rate(),
            self.origin,
            self.shift,
            self.constant_rate(),
        ));
        // Once reported, the end of time stays where it was: the tick `EndOfTime` named never
        // runs, and the report comes once per clock, whatever control moves the grid after.
        self.end = if self.end_reported {
            end.min(self.end)
        } else {
            end
        };
        self.due_at = self.compute_due();
    }

    /// Restarts the grid at `rate`, with the next tick's interval or slot starting at virtual
    /// time `at`: tick numbers and simulation time continue from there.
    ///
    /// Simulation time (`Tick::t`) stays exact: at the same rate the restart keeps the
    /// fraction of a ns the boundary carries (so every tick's `t` is `index·dt` rounded down,
    /// however often a reset or a late `Delay` slot restarts the grid). A new rate starts its
    /// ticks at the old boundary rounded up to a whole ns, the same instant its virtual due
    /// times are measured from (so `t` and `lag` agree).
    pub(crate) fn restart_grid(&mut self, rate: Period, at: i128) {
        self.keep_latest_span();
        let (whole, rem) = self.sim_time_at(self.tick_start);
        self.base = self.next_tick;
        if rate == self.rate() {
            self.base_t = whole;
            self.base_r = rem;
        } else {
            self.base_t = whole.saturating_add(u64::from(rem > 0));
            self.base_r = 0;
            self.config.rate = rate;
            // Phase and hysteresis are fractions of a tick: their lengths follow the new one
            // (the grid's current shift stays as it is; only later changes use them).
            if let Ok(checked) = self.config.validate() {
                self.checked = checked;
            }
            self.step = GridStep::of(rate);
            let (num, den) = rate.as_nanos_ratio();
            self.num_f = num as f64;
            self.den_f = den as f64;
            // The hysteresis pattern was measured in ticks of the old length.
            self.snap = Snap::new();
        }
        self.tick_start = GridPoint::ZERO;
        self.tick_end = GridPoint::at(rate, 1);
        self.set_lead(-at);
    }

    /// Changes the tick length from the current boundary on.
    pub(crate) fn change_rate(&mut self, rate: Period) {
        let at = self.boundary();
        self.restart_grid(rate, at);
    }

    /// Restarts the grid at virtual time `v`, dropping every tick due by then that has not
    /// run. Returns the dropped ticks `(first, count)`. A constant-rate clock whose latest
    /// slot started after `v` (a lone clock runs its slot at the step before it starts, the
    /// shell sleeping until then) restarts at that slot's start instead: the shell is at least
    /// there, and no slot may start before one that already ran.
    pub(crate) fn reset_at(&mut self, v: u64) -> Option<(u64, u64)> {
        let at = i128::from(v).max(self.latest_slot_start());
        let dropped = self.drop_ticks(self.pending(v));
        self.restart_grid(self.rate(), at);
        dropped
    }

    /// Where a constant-rate clock's latest slot on this grid segment started (virtual ns);
    /// `i128::MIN` for a catch-up clock or when no slot of the segment has run.
    fn latest_slot_start(&self) -> i128 {
        let m = self.tick_start.m;
        if !self.constant_rate() || m == 0 {
            return i128::MIN;
        }
        self.start_of(GridPoint::at(self.rate(), m - 1))
    }

    /// Moves the grid `d` ns earlier: `d` more ns of lag, as if virtual time had run on.
    pub(crate) fn accumulate(&mut self, d: u64) {
        self.shift_lead(i128::from(d));
    }

    /// Moves the grid `by` ns earlier (later if negative), exactly.
    pub(crate) fn shift_lead(&mut self, by: i128) {
        self.set_lead(self.lead() + by);
    }

    /// Moves the grid up to `d` ns later, but never past `v` (the lag cannot go below 0).
    /// Whole ticks in the discarded span are dropped (tick numbers jump over them, as for every
    /// other drop). Returns the ns discarded and the dropped ticks `(first, count)`.
    pub(crate) fn discard(&mut self, d: u64, v: u64) -> (u64, Option<(u64, u64)>) {
        let lag = self.local(v).map_or(Lag::ZERO, |x| {
            grid::lag(x, self.tick_start.ceil_exact(self.rate()))
        });
        if lag.is_early() {
            return (0, None);
        }
        let lag = lag.behind().0;
        let d = d.min(lag);
        if d == 0 || self.ended() {
            return (0, None);
        }
        // The ticks whose whole interval lies in the discarded span: ceil(j·dt) stays within
        // ceil(m·dt) + d.
        let rate = self.rate();
        let from = self.tick_start.ceil_exact(rate);
        let m = self.tick_start.m;
        let whole = grid::point_at(rate, from + u128::from(d)).saturating_sub(m);
        let dropped = self.drop_ticks(whole);
        let moved = self.tick_start.ceil_exact(rate) - from;
        let rest = u128::from(d).saturating_sub(moved);
        self.set_lead(self.lead() - i128::try_from(rest).unwrap_or(i128::MAX));
        (d, dropped)
    }

    /// Drops the next `count` ticks (never past the end of time). Returns `(first, count)`.
    fn drop_ticks(&mut self, count: u64) -> Option<(u64, u64)> {
        let count = count.min(self.end.saturating_sub(self.next_tick));
        if count == 0 {
            return None;
        }
        let first = self.next_tick;
        self.jump_to(first.saturating_add(count));
        self.dropped_slots = self.dropped_slots.saturating_add(count);
        // A control that drops refused ticks overrides the refusal (the drop is reported).
        self.spare = self
            .spare
            .saturating_sub(u32::try_from(count).unwrap_or(u32::MAX));
        Some((first, count))
    }

    /// Undoes tick `index` if it is the latest update the latest step ran for this clock, and
    /// no control moved the grid since: it stays due and runs at the next step. A refused
    /// slot that ran late had the slots that passed meanwhile dropped after it in that step
    /// (the only way the step leaves the next tick past the latest one run): the drop is
    /// undone with the run, so the accounting identity holds, and the step that runs the slot
    /// again drops them again, reported again.
    ///
    /// A catch-up clock's step leaves the next tick past the latest one run only when the
    /// overload bound gave up the rest of its backlog: that is undone the same way (see
    /// [`Clock::undo_shed`]). Returns the virtual time given up that the refusal undid (0
    /// for none), `None` when the tick cannot be refused.
    pub(crate) fn refuse(&mut self, index: u64) -> Option<u64> {
        let latest = self.latest.checked_sub(1);
        if self.last_count == 0 || latest != Some(index) || index < self.base {
            return None;
        }
        let mut undone = 0;
        if self.next_tick > self.latest {
            if self.constant_rate() {
                let passed = self.next_tick - self.latest;
                self.dropped_slots = self.dropped_slots.saturating_sub(passed);
            } else {
                undone = self.undo_shed();
            }
        }
        self.jump_to(index);
        self.spare = self.spare.saturating_add(1);
        self.undone = index;
        self.ran = self.ran.saturating_sub(1);
        self.refused = self.refused.saturating_add(1);
        self.last_count -= 1;
        // The latest tick run is now the one before (of this step), or the one the step
        // before it ran.
        self.latest = if self.last_count > 0 {
            index
        } else {
            self.prior
        };
        Some(undone)
    }
}
