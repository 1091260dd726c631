//! One fixed-rate clock inside a loop: its exact grid, its accounting and its firing rules.
//!
//! The clock layer owns its fields: they are private to this module and its submodules
//! (`firing.rs`: when ticks run and how a step fires them; `regrid.rs`: the run-time controls'
//! grid moves; `saved.rs`: the clock's part of a save), and every other module reads and
//! changes a clock through its methods. `overload.rs` is the backlog bound under sustained
//! overload; `jitter.rs` the hysteresis band's memory of recent frames.
//!
//! May call: `values`, `config`, `grid` (every start, due time and lag), `events` (the rare
//! events a clock rule reports, pushed through a `Sink`). Called by: `clocks`, `step`,
//! `state` (the views), `save`.

pub(crate) mod jitter;

use alloc::boxed::Box;

use crate::clock::jitter::Snap;
use crate::config::{Checked, ClockConfig, Firing, Policy};
use crate::grid::{self, Grid, due_time, segment_end};
use crate::values::event::TickSpan;
use crate::values::id::ClockId;
use crate::values::rate::{GridPoint, GridStep, Period};
use crate::values::time::{Lag, Nanos};

mod firing;
mod overload;
mod regrid;
#[cfg(feature = "serde")]
mod saved;

#[cfg(feature = "serde")]
pub(crate) use saved::{Broken, ClockIn};

/// A clock's state. All times here are virtual nanoseconds since the loop's start.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Clock {
    id: ClockId,
    config: ClockConfig,
    checked: Checked,
    /// Virtual time at which the current grid segment starts (tick `base`, less `shift`).
    origin: u64,
    /// How far the grid is shifted ahead of `origin` (ns): the phase, plus lag a control added.
    shift: u64,
    /// The tick number of the segment's grid point 0: the grid restarts there after a rate
    /// change or a reset (see `regrid.rs`). Grid points are relative to it.
    base: u64,
    /// Simulation time (`Tick::t`) at grid point 0 of the segment: `base_t + base_r/den` ns
    /// exactly (`den` the period's denominator; `base_r < den`).
    base_t: u64,
    base_r: u64,
    /// Ticks a shell refused ([`LoopState::refuse`](crate::LoopState::refuse)).
    refused: u64,
    /// Ticks the max frame delta has dropped from this clock, in total.
    clamp_dropped: u64,
    /// The virtual time of those drops, in total: the sum of the `time` of this clock's
    /// `DiscardedTime` events.
    clamp_time: u64,
    next_tick: u64,
    /// How many ticks can ever run: tick `end` and later would be due past `u64::MAX` ns of
    /// virtual time, or (1 ns constant-rate slots) carry the number `u64::MAX`, which no tick
    /// runs with although its slot starts at exactly `u64::MAX` ns (the end of the time axis).
    /// Once `EndOfTime` is reported it never grows again (see `regrid.rs`).
    end: u64,
    /// Whether [`Event::EndOfTime`] has been reported.
    end_reported: bool,
    /// `k·dt` and `(k+1)·dt` for the next tick `base + k`, relative to `origin`.
    tick_start: GridPoint,
    tick_end: GridPoint,
    ran: u64,
    dropped_slots: u64,
    /// Hysteresis: the recent update pattern and frame jitter (unused when it is off).
    snap: Snap,
    /// Updates run so far in the current step.
    count: u32,
    /// Updates the latest step ran for this clock (the ones a shell may still refuse).
    last_count: u32,
    /// [`due`](Self::due), kept up to date whenever the grid moves: `u64::MAX` once the clock
    /// has ended, so one comparison `v >= due_at` rules out both "not yet" and "never".
    due_at: u64,
    /// The tick length's numerator and denominator (ns) as floats, for alpha.
    num_f: f64,
    den_f: f64,
    /// The tick length split for walking the grid without a division.
    step: GridStep,
    /// A catch-up clock with late firing and no hysteresis: the fold's fast path applies.
    plain: bool,
    /// The grid the latest step's ticks ran on, kept when a control moved the grid after
    /// that step (so their inputs are still attributed by the due times they ran with);
    /// `None` when the grid has not moved since, and cleared by the next step.
    stepped: Option<Grid>,
    /// How many of the next ticks were refused ([`LoopState::refuse`](crate::LoopState::refuse)):
    /// they run at the next steps whatever happened to their slot or to the frame's length
    /// (no drop covers them); counted down as steps run them.
    spare: u32,
    /// The lowest tick the latest refusals undid (with `refused`, what an
    /// [`InputQueue`](crate::InputQueue) asks to give those ticks' inputs back).
    undone: u64,
    /// Whether this step held back due ticks behind another clock's deferred tick (see
    /// `hold_after`); cleared when the step ends.
    held: bool,
    /// 1 + the number of the latest tick run (0: none yet), set when a step that ran ticks
    /// ends, and `latest` before that step (what a refusal of that step's only tick brings
    /// back).
    latest: u64,
    prior: u64,
    /// The span of the latest tick when a control restarted the grid after it (the current
    /// segment no longer describes it); boxed, as it is rare and the clock is copied whole.
    earlier: Option<Box<TickSpan>>,
}

impl Clock {
    pub(crate) fn new(id: ClockId, config: ClockConfig, checked: Checked, origin: u64) -> Clock {
        let end = segment_end(
            config.rate,
            origin,
            checked.phase_ns,
            config.policy != Policy::CatchUp,
        );
        let mut clock = Clock {
            id,
            checked,
            origin,
            shift: checked.phase_ns,
            base: 0,
            base_t: 0,
            base_r: 0,
            refused: 0,
            last_count: 0,
            clamp_dropped: 0,
            clamp_time: 0,
            next_tick: 0,
            end,
            end_reported: false,
            tick_start: GridPoint::at(config.rate, 0),
            tick_end: GridPoint::at(config.rate, 1),
            ran: 0,
            dropped_slots: 0,
            snap: Snap::new(),
            count: 0,
            due_at: 0,
            num_f: config.rate.as_nanos_ratio().0 as f64,
            den_f: config.rate.as_nanos_ratio().1 as f64,
            step: GridStep::of(config.rate),
            plain: is_plain(&config, &checked),
            stepped: None,
            spare: 0,
            undone: 0,
            held: false,
            latest: 0,
            prior: 0,
            earlier: None,
            config,
        };
        clock.due_at = clock.compute_due();
        clock
    }

    #[inline]
    pub(crate) fn rate(&self) -> Period {
        self.config.rate
    }

    #[inline]
    pub(crate) fn id(&self) -> ClockId {
        self.id
    }

    #[inline]
    pub(crate) fn config(&self) -> &ClockConfig {
        &self.config
    }

    /// The configuration's derived limits (update cap, phase and hysteresis in ns).
    #[inline]
    pub(crate) fn checked(&self) -> &Checked {
        &self.checked
    }

    /// Replaces the configuration but the name (a control checked it): whether the fast path applies
    /// follows it. The grid is the caller's to move (a new phase shifts it).
    pub(crate) fn reconfigure(&mut self, config: ClockConfig, checked: Checked) {
        self.plain = is_plain(&config, &checked);
        // The clock keeps its name: `config`'s is ignored, so an owned name is never copied.
        let name = core::mem::take(&mut self.config.name);
        self.config = ClockConfig { name, ..config };
        self.checked = checked;
    }

    /// The next tick's number: every tick below it ran or was dropped.
    #[inline]
    pub(crate) fn next_tick(&self) -> u64 {
        self.next_tick
    }

    /// The tick number of the current grid segment's point 0 (see `regrid.rs`).
    #[cfg(feature = "serde")]
    #[inline]
    pub(crate) fn segment_base(&self) -> u64 {
        self.base
    }

    /// Ticks run so far.
    #[inline]
    pub(crate) fn ran(&self) -> u64 {
        self.ran
    }

    /// Ticks dropped by missed slots and by controls (not by the max frame delta).
    #[inline]
    pub(crate) fn dropped_slots(&self) -> u64 {
        self.dropped_slots
    }

    /// Ticks the max frame delta dropped.
    #[inline]
    pub(crate) fn clamp_dropped(&self) -> u64 {
        self.clamp_dropped
    }

    /// The virtual time the max frame delta discarded for this clock, in total.
    #[inline]
    pub(crate) fn clamp_time(&self) -> u64 {
        self.clamp_time
    }

    /// Ticks a shell refused, in total.
    #[inline]
    pub(crate) fn refused(&self) -> u64 {
        self.refused
    }

    /// The lowest tick the latest refusals undid.
    #[inline]
    pub(crate) fn undone(&self) -> u64 {
        self.undone
    }

    /// Updates run so far in the current step.
    #[inline]
    pub(crate) fn count(&self) -> u32 {
        self.count
    }

    /// Updates the latest step ran (the ones a shell may still refuse).
    #[inline]
    pub(crate) fn last_count(&self) -> u32 {
        self.last_count
    }

    /// The latest tick this clock ran (and no refusal undid): its number and where it starts
    /// and ends in simulation time. On the current segment it is computed from the grid (two
    /// divisions); a tick the grid was restarted after was kept when it was.
    pub(crate) fn latest_tick(&self) -> Option<TickSpan> {
        self.span_of_ran(self.latest.checked_sub(1)?)
    }

    /// The latest tick this clock had run when `back` of the latest step's updates were
    /// still to come (0: [`latest_tick`](Self::latest_tick); the step's count or more: the
    /// latest tick before that step). What a handler reads as of an update of that step.
    pub(crate) fn latest_tick_back(&self, back: u64) -> Option<TickSpan> {
        let count = u64::from(self.last_count);
        let latest = if back == 0 || count == 0 {
            self.latest
        } else if back < count {
            self.latest - back
        } else {
            self.prior
        };
        self.span_of_ran(latest.checked_sub(1)?)
    }

    /// 1 + the number of the latest tick run (0: none yet).
    #[inline]
    pub(crate) fn latest_end(&self) -> u64 {
        self.latest
    }

    /// The span of tick `index`, one this clock ran: computed from the current segment, or
    /// the span kept when a control restarted the grid after it.
    fn span_of_ran(&self, index: u64) -> Option<TickSpan> {
        if index < self.base {
            return self
                .earlier
                .as_deref()
                .copied()
                .filter(|s| s.index == index);
        }
        Some(self.span_on_segment(index))
    }

    /// The span of tick `index` of the current segment (`index >= base`).
    fn span_on_segment(&self, index: u64) -> TickSpan {
        let rate = self.rate();
        let m = index - self.base;
        let t = self.sim_time_at(GridPoint::at(rate, m)).0;
        let end = self.sim_time_at(GridPoint::at(rate, m.saturating_add(1))).0;
        TickSpan {
            index,
            t: Nanos(t),
            end: Nanos(end),
            dt: rate,
        }
    }

    /// Before a control restarts the grid: keeps the latest tick's span if the current segment
    /// holds it (an earlier restart kept it otherwise).
    pub(crate) fn keep_latest_span(&mut self) {
        if let Some(index) = self.latest.checked_sub(1).filter(|&k| k >= self.base) {
            let span = self.span_on_segment(index);
            // Allocated by the first restart after a tick, reused by every later one.
            match &mut self.earlier {
                Some(kept) => **kept = span,
                None => self.earlier = Some(Box::new(span)),
            }
        }
    }

    /// Forgets the latest step's updates: a control moved the grid they ran on, so they can no
    /// longer be refused.
    #[inline]
    pub(crate) fn forget_latest_step(&mut self) {
        self.last_count = 0;
    }

    /// A catch-up clock with late firing and no hysteresis: the fold's fast path applies.
    #[inline]
    pub(crate) fn plain(&self) -> bool {
        self.plain
    }

    /// Whether refused ticks wait to run (see `spare`): only the general path spends them, so
    /// the fast path does not apply until they have run.
    #[inline]
    pub(crate) fn spares(&self) -> bool {
        self.spare > 0
    }

    /// Where the next tick's interval (or slot) starts on the current grid segment.
    #[inline(always)]
    pub(crate) fn tick_start(&self) -> GridPoint {
        self.tick_start
    }

    /// Simulation time at grid point `g` of the current segment: whole ns and the remainder
    /// over the period's denominator.
    #[inline]
    pub(crate) fn sim_time_at(&self, g: GridPoint) -> (u64, u64) {
        let g = g.with_offset(self.base_r, self.step.den());
        (self.base_t.saturating_add(g.floor()), g.remainder())
    }

    /// Grid point `g` of the current segment with the fraction of a ns its simulation time
    /// carries (see [`Run::base_r`](crate::grid::Run)): `g` itself in the usual case of none.
    #[inline(always)]
    fn offset(&self, g: GridPoint) -> GridPoint {
        if self.base_r == 0 {
            g
        } else {
            g.with_offset(self.base_r, self.step.den())
        }
    }

    /// The clock's current grid segment: the one home of every tick's due time.
    #[inline]
    pub(crate) fn grid(&self) -> Grid {
        Grid {
            rate: self.rate(),
            origin: self.origin,
            shift: self.shift,
            base: self.base,
            constant_rate: self.constant_rate(),
        }
    }

    /// The virtual time at which tick `k` comes due on the current grid (see [`Grid::due`]).
    #[inline]
    pub(crate) fn due_of(&self, k: u64) -> u64 {
        self.grid().due(k)
    }

    /// The virtual time at which tick `k` of the latest step came due: on the grid that step
    /// ran on, even when a control has moved the grid since.
    pub(crate) fn due_in_latest_step(&self, k: u64) -> u64 {
        self.stepped.unwrap_or_else(|| self.grid()).due(k)
    }

    /// Called by every control before it moves the grid: keeps the grid the latest step ran
    /// on (the first control after a step keeps it; later ones find it kept).
    pub(crate) fn keep_stepped_grid(&mut self) {
        if self.stepped.is_none() {
            self.stepped = Some(self.grid());
        }
    }

    #[inline]
    pub(crate) fn constant_rate(&self) -> bool {
        self.config.policy != Policy::CatchUp
    }

    /// Virtual time `v` on this clock's own axis, shifted by its phase, exactly (it may pass
    /// `u64::MAX` by the phase); `None` before its origin.
    #[inline]
    fn local(&self, v: u64) -> Option<u128> {
        grid::local(self.origin, self.shift, v)
    }

    /// Whether the clock has reached the end of the time axis: its next tick would be due past
    /// `u64::MAX` ns, so it never comes due.
    #[inline]
    pub(crate) fn ended(&self) -> bool {
        self.next_tick >= self.end
    }

    /// Whether the clock can still tick ([`ended`](Self::ended) negated), asked through its
    /// due time first: an ended clock is due at `u64::MAX`, so the common case is one
    /// comparison.
    #[inline(always)]
    pub(crate) fn live(&self) -> bool {
        self.due() != u64::MAX || !self.ended()
    }

    /// Virtual time at which the next tick is due: the end of its interval for catch-up (less
    /// the phase), the start of its slot for the constant-rate policies. Exact while the clock
    /// has not [`ended`](Self::ended); `u64::MAX` after.
    #[inline]
    pub(crate) fn due(&self) -> u64 {
        self.due_at
    }

    /// [`due`](Self::due) from the grid (called whenever the grid moves).
    #[inline]
    pub(crate) fn compute_due(&self) -> u64 {
        if self.ended() {
            return u64::MAX;
        }
        due_time(
            self.rate(),
            self.origin,
            self.shift,
            self.constant_rate(),
            self.tick_start,
            self.tick_end,
        )
    }

    /// How many ticks the clock has made due by virtual time `v` (ignoring hysteresis and the
    /// nearest rule); never more than [`end`](Self::end).
    #[inline]
    pub(crate) fn ticks_at(&self, v: u64) -> u64 {
        self.grid().ticks_due(v).min(self.end)
    }

    /// The max frame delta, in virtual time: virtual time went to `now` in a step that may work
    /// off only up to `limit` (the step's start plus the max frame delta). Ticks due at or
    /// before `limit`, or at or before the due time this clock asked the shell to wait for
    /// (the due time of its next tick at the start of the step), are kept; the oldest of the
    /// rest are dropped and the tick number moves past them. Returns `(first, count, time)` of
    /// the drop, `time` being the virtual time discarded for this clock; `None` when nothing
    /// is dropped.
    pub(crate) fn clamp(&mut self, limit: u64, now: u64) -> Option<(u64, u64, u64)> {
        if self.config.policy == Policy::Delay {
            // Delay never owes a backlog: a late slot moves the grid instead.
            return None;
        }
        let limit = if self.ended() {
            limit
        } else {
            limit.max(self.due())
        };
        if now <= limit {
            return None;
        }
        // Never past what is due by `now`: ticks run early stay run.
        let kept = self.ticks_at(limit).max(self.next_tick);
        let count = self.ticks_at(now).saturating_sub(kept);
        if count == 0 {
            return None;
        }
        let first = self.next_tick;
        self.jump_to(first.saturating_add(count));
        self.clamp_dropped = self.clamp_dropped.saturating_add(count);
        // Counted where it is reported: the step reports this `time` as it is.
        self.clamp_time = self.clamp_time.saturating_add(now - limit);
        // The oldest ticks go first: refused ones among them (see `LoopState::refuse`).
        self.spare = self
            .spare
            .saturating_sub(u32::try_from(count).unwrap_or(u32::MAX));
        Some((first, count, now - limit))
    }

    /// Makes tick `j` the next one (after a drop, or after a run of catch-up ticks): one
    /// division, whatever the distance.
    pub(crate) fn jump_to(&mut self, j: u64) {
        let rate = self.rate();
        self.next_tick = j;
        let m = j.saturating_sub(self.base);
        self.tick_start = GridPoint::at(rate, m);
        if m == u64::MAX {
            // The grid saturates here (both points are `u64::MAX`·dt).
            self.tick_end = self.tick_start;
        } else {
            self.tick_end = self.tick_start;
            self.tick_end.advance_by(self.step);
        }
        self.due_at = self.compute_due();
    }

    /// Ticks due by virtual time `v` (slots started, for the constant-rate policies).
    pub(crate) fn ticks_due(&self, v: u64) -> u64 {
        self.ticks_at(v)
    }

    /// Ticks due by virtual time `v` that have neither run nor been dropped.
    #[inline]
    pub(crate) fn pending(&self, v: u64) -> u64 {
        self.ticks_at(v).saturating_sub(self.next_tick)
    }

    /// Ticks run (or dropped) before virtual time `v` made them due: the *nearest* rule,
    /// hysteresis and a lone constant-rate clock's sleep run ticks early. Every tick below
    /// `next_tick` ran or was dropped, so `ran + dropped + pending == due + early`, exactly.
    #[inline]
    pub(crate) fn early(&self, v: u64) -> u64 {
        self.next_tick.saturating_sub(self.ticks_at(v))
    }

    /// `Some(next_tick)` the first time the clock is found at the end of the time axis.
    #[inline]
    pub(crate) fn end_of_time(&mut self) -> Option<u64> {
        if self.ended() && !self.end_reported {
            self.end_reported = true;
            return Some(self.next_tick);
        }
        None
    }

    /// Where a renderer stands between this clock's previous and current tick, in `[0, 1]`,
    /// and the exact lag (rounded down; negative when a tick ran early).
    #[inline]
    pub(crate) fn alpha(&self, v: u64) -> (f64, Lag) {
        if self.constant_rate() {
            return (1.0, Lag::ZERO);
        }
        // The common case in 64 bits: the time on the clock's axis fits, and so does k·dt.
        match grid::local_u64(self.origin, self.shift, v) {
            Some(Some(l)) if !self.tick_start.saturated() => (
                self.tick_start
                    .lag_fraction(self.num_f, self.den_f, l)
                    .clamp(0.0, 1.0),
                grid::lag_u64(l, self.tick_start.ceil()),
            ),
            None => (0.0, Lag::ZERO),
            Some(_) => self.alpha_wide(v),
        }
    }

    /// [`alpha`](Self::alpha) past 64 bits, exactly.
    #[cold]
    #[inline(never)]
    fn alpha_wide(&self, v: u64) -> (f64, Lag) {
        let Some(x) = self.local(v) else {
            return (0.0, Lag::ZERO);
        };
        (
            self.tick_start
                .lag_fraction(self.num_f, self.den_f, u64::try_from(x).unwrap_or(u64::MAX))
                .clamp(0.0, 1.0),
            grid::lag(x, self.tick_start.ceil_exact(self.rate())),
        )
    }
}

/// Whether a clock so configured is plain: catch-up, late firing, no hysteresis (the fold's
/// fast path applies to it).
fn is_plain(config: &ClockConfig, checked: &Checked) -> bool {
    config.policy == Policy::CatchUp && config.firing == Firing::Late && checked.hysteresis_ns == 0
}

#[cfg(test)]
mod tests {
    use quickcheck::{Arbitrary, Gen, QuickCheck};

    use super::*;
    use crate::events::walk::tests::{a_rate, anywhere};
    use crate::{LoopConfig, LoopState, Nanos};

    /// A catch-up clock anywhere on the time axis, and a virtual time.
    #[derive(Clone, Debug)]
    struct Case {
        clock: Clock,
        v: u64,
    }

    impl Arbitrary for Case {
        fn arbitrary(g: &mut Gen) -> Case {
            let rate = a_rate(g);
            let state = LoopState::new(LoopConfig::new(rate), Nanos(0)).expect("a valid loop");
            let mut clock = state.inner.clocks[0].clone();
            clock.origin = anywhere(g);
            clock.shift = if bool::arbitrary(g) { 0 } else { anywhere(g) };
            let (num, _) = rate.as_nanos_ratio();
            clock.tick_start = GridPoint::at(rate, anywhere(g) / num.max(1));
            let v = if bool::arbitrary(g) {
                clock.origin.saturating_add(anywhere(g))
            } else {
                anywhere(g)
            };
            Case { clock, v }
        }
    }

    /// The render's alpha and lag in 64 bits (the common case) against the exact 128-bit
    /// computation, wherever the clock and the virtual time lie on the axis.
    #[test]
    fn the_64_bit_alpha_is_the_exact_one() {
        fn prop(case: Case) -> bool {
            let (a, lag) = case.clock.alpha(case.v);
            let (b, exact) = case.clock.alpha_wide(case.v);
            a.to_bits() == b.to_bits() && lag == exact
        }
        QuickCheck::new()
            .tests(5_000)
            .quickcheck(prop as fn(Case) -> bool);
    }

    #[test]
    fn a_clock_stays_small() {
        // Cloning a LoopState copies every clock: keep one near seven cache lines (456 bytes
        // now, 64 of them the hysteresis state, 36 the grid segment and refusals of the
        // run-time controls, 48 the grid the latest step ran on, kept for input attribution
        // when a control moves the grid before the step's inputs are drained, 24 the latest
        // tick run, its span boxed as only a control that restarts the grid writes it).
        let size = core::mem::size_of::<Clock>();
        assert!(size <= 456, "Clock grew to {size} bytes");
    }
}
