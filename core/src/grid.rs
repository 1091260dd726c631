//! The one home of a clock's grid on the virtual time axis. A grid segment puts grid point 0
//! at virtual time `origin − shift`; everything else follows from four facts, each written
//! once here:
//!
//! * **start**: grid point `m` starts at `origin + ceil(m·dt) − shift` ([`start`], clamped to
//!   the time axis by [`start_time`]);
//! * **due**: a tick is due at the end of its interval (catch-up) or the start of its slot
//!   (the constant-rate policies) ([`due_time`]);
//! * **the inverse**: how many ticks are due by virtual time `v` ([`Grid::ticks_due`], on the
//!   grid's own axis [`due_count`]; the grid point holding a time, [`point_at`]);
//! * **the lag**: how far `v` is past a grid point's start ([`lag`]; `v` on the grid's own
//!   axis is [`local`]).
//!
//! A clock's grid segment ([`Grid`]) applies them to a tick number for the input queue and
//! single-stepping, the clock to its walked grid points, and a step's [`Run`] to the ticks it
//! reports (their `t` and `lag` too): nothing else computes a start, a due time, a due count
//! or a lag.
//!
//! A leaf under `clock` and `events`. May call: `values`. Called by: `clock`, `events`.

use crate::values::event::Tick;
use crate::values::id::ClockId;
use crate::values::rate::{GridPoint, GridStep, Period};
use crate::values::time::{Lag, Nanos};

/// Virtual time `v` on a grid's own axis, where grid point `m` starts at `ceil(m·dt)`:
/// `v − origin + shift`, exactly (it may pass `u64::MAX` by the shift); `None` before
/// `origin` (nothing of the grid is due there).
#[inline(always)]
pub(crate) fn local(origin: u64, shift: u64, v: u64) -> Option<u128> {
    v.checked_sub(origin)
        .map(|l| u128::from(l) + u128::from(shift))
}

/// [`local`] in 64 bits, for the hot paths: `Some(None)` when it is past `u64::MAX`.
#[inline(always)]
pub(crate) fn local_u64(origin: u64, shift: u64, v: u64) -> Option<Option<u64>> {
    v.checked_sub(origin).map(|l| l.checked_add(shift))
}

/// The start fact: the virtual time at which grid point `g` starts,
/// `origin + ceil(m·dt) − shift`, exactly (negative when the shift puts it before the loop's
/// start).
#[inline]
pub(crate) fn start(rate: Period, origin: u64, shift: u64, g: GridPoint) -> i128 {
    let at = i128::try_from(g.ceil_exact(rate)).unwrap_or(i128::MAX);
    i128::from(origin)
        .saturating_add(at)
        .saturating_sub(i128::from(shift))
}

/// [`start`] on the time axis: 0 before the loop's start, `u64::MAX` past the end of time.
/// Out of line: the catch-up due time, on the hot paths, has its own 64-bit form.
#[inline(never)]
pub(crate) fn start_time(rate: Period, origin: u64, shift: u64, g: GridPoint) -> u64 {
    u64::try_from(start(rate, origin, shift, g).max(0)).unwrap_or(u64::MAX)
}

/// The inverse of the start fact: the grid point whose interval holds `x` on the grid's own
/// axis (see [`local`]), the last one started by then: the largest `m` with
/// `ceil(m·dt) ≤ x`, saturating.
#[inline]
pub(crate) fn point_at(rate: Period, x: u128) -> u64 {
    match u64::try_from(x) {
        Ok(x) => rate.ticks_in(x),
        Err(_) => rate.ticks_in_wide(x),
    }
}

/// The inverse of the due fact: how many ticks of a grid segment are due at `x` on the
/// grid's own axis (see [`local`]): the intervals ended by then (catch-up), or the slots
/// started (the constant-rate policies).
#[inline]
pub(crate) fn due_count(rate: Period, constant_rate: bool, x: u128) -> u64 {
    let m = point_at(rate, x);
    if constant_rate {
        m.saturating_add(1)
    } else {
        m
    }
}

/// How many ticks of a grid segment starting at `origin` (shifted ahead by `shift`) can ever
/// come due: those due by `u64::MAX` ns (the end of the time axis), see [`due_count`].
pub(crate) fn segment_end(rate: Period, origin: u64, shift: u64, constant_rate: bool) -> u64 {
    let x = u128::from(u64::MAX - origin) + u128::from(shift);
    due_count(rate, constant_rate, x)
}

/// The lag fact: how far `x` on a grid's own axis (see [`local`]) is past `s`, the start
/// `ceil(m·dt)` of a grid point on it: `x − s` ns, negative when early (rounded down, as `x`
/// is whole). In 64 bits when both fit.
#[inline(always)]
pub(crate) fn lag(x: u128, s: u128) -> Lag {
    match (u64::try_from(x), u64::try_from(s)) {
        (Ok(x), Ok(s)) => lag_u64(x, s),
        _ => Lag::between(x, s),
    }
}

/// [`lag`] when both fit in 64 bits (the hot paths).
#[inline(always)]
pub(crate) fn lag_u64(x: u64, s: u64) -> Lag {
    Lag::between_u64(x, s)
}

/// One clock's grid segment: the tick length, where the segment's grid point 0 lies on the
/// virtual time axis, and which tick it is. Tick `k` of the segment starts at grid point
/// `m = k − base`, that is at virtual time `origin + ceil(m·dt) − shift`.
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Grid {
    pub(crate) rate: Period,
    /// Virtual time of grid point 0, before the shift (see `Clock::origin`).
    pub(crate) origin: u64,
    /// How far the grid is ahead of `origin` (see `Clock::shift`).
    pub(crate) shift: u64,
    /// The tick number at grid point 0.
    pub(crate) base: u64,
    /// Constant-rate policies: a tick is due at the start of its slot, not at its end.
    pub(crate) constant_rate: bool,
}

impl Grid {
    /// The grid point `(k − base)·dt` where tick `k` starts (tick numbers below `base` belong
    /// to an earlier segment and are taken as its grid point 0).
    #[inline]
    pub(crate) fn point(&self, k: u64) -> GridPoint {
        GridPoint::at(self.rate, k.saturating_sub(self.base))
    }

    /// The virtual time (ns since the loop's start) at which tick `k` comes due: the end of
    /// its interval for catch-up, the start of its slot for the constant-rate policies.
    /// `u64::MAX` past the end of time.
    #[inline]
    pub(crate) fn due(&self, k: u64) -> u64 {
        let start = self.point(k);
        let end = GridPoint::at(self.rate, start.m.saturating_add(1));
        due_time(
            self.rate,
            self.origin,
            self.shift,
            self.constant_rate,
            start,
            end,
        )
    }

    /// The inverse of [`due`](Self::due): how many ticks are due by virtual time `v`, counting
    /// from tick 0 (the segment's first tick is `base`), whether or not they ran; `base`
    /// before the segment's origin. Not capped at the end of time (the clock caps it).
    #[inline]
    pub(crate) fn ticks_due(&self, v: u64) -> u64 {
        match local(self.origin, self.shift, v) {
            None => self.base,
            Some(x) => due_count(self.rate, self.constant_rate, x).saturating_add(self.base),
        }
    }
}

/// The virtual time at which the tick whose interval is `[start, end)` on a clock's grid comes
/// due: the [`start`] of `end` for catch-up, of `start` for the constant-rate policies,
/// clamped to the time axis (`u64::MAX` past the end of time). Shared by the clock and the lazy merge of
/// [`Events`](crate::Events), so both order ticks by the same due times.
#[inline(always)]
pub(crate) fn due_time(
    rate: Period,
    origin: u64,
    phase_ns: u64,
    constant_rate: bool,
    start: GridPoint,
    end: GridPoint,
) -> u64 {
    // `phase_ns` is the clock's lead (its phase, plus lag a control added). A slot is due at
    // its start (out of line: the constant-rate policies are off the hot paths).
    if constant_rate {
        return start_time(rate, origin, phase_ns, start);
    }
    // A tick is due at its interval's end: the start fact in 64 bits, exact on every grid a
    // clock keeps (its `origin` is 0, or its lead is a phase below one tick, so below
    // `end`'s; `the_due_time_is_the_start_of_the_due_point` checks it).
    if !end.saturated() {
        return origin.saturating_add(end.ceil().saturating_sub(phase_ns));
    }
    // (k+1)·dt is past u64::MAX but the phase may bring the due time back below it.
    let exact = (rate.ceil_wide(end.m) + u128::from(origin)).saturating_sub(u128::from(phase_ns));
    u64::try_from(exact).unwrap_or(u64::MAX)
}

/// One clock's updates in one step: `count` consecutive ticks from the grid point `start`.
/// Everything a [`Tick`] carries, and the due time the merge across clocks orders by, follows
/// exactly from it and the step's virtual time. Runs are kept in the clocks' declaration
/// order, so a run's place in the list breaks ties between clocks.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Run {
    pub(crate) clock: ClockId,
    pub(crate) constant_rate: bool,
    pub(crate) count: u32,
    pub(crate) origin: u64,
    pub(crate) phase_ns: u64,
    /// The tick number and simulation time of the clock's grid point 0 (see `Clock::base`).
    pub(crate) base: u64,
    pub(crate) base_t: u64,
    /// The fraction `base_r/den` of a ns that `base_t` carries (`den` the period's
    /// denominator). Every grid point of the run, `start` included, carries it too
    /// ([`GridPoint::with_offset`]), so a tick's `t` is `base_t` plus its point's whole ns,
    /// and its start on the grid is [`GridPoint::ceil_from`]`(base_r)`.
    pub(crate) base_r: u64,
    /// `k`·dt for the first tick `k` (its index is `base + start.m`), with the offset
    /// `base_r` (see there).
    pub(crate) start: GridPoint,
    pub(crate) step: GridStep,
}

impl Run {
    /// The tick that starts at grid point `g`, fired at virtual time `v` (see
    /// [`Tick::lag`]).
    #[inline(always)]
    pub(crate) fn tick(&self, g: GridPoint, v: u64, last_in_step: bool) -> Tick {
        Tick {
            clock: self.clock,
            index: self.base.saturating_add(g.m),
            t: self.t(g),
            dt: self.step.rate(),
            lag: self.lag(g, v),
            last_in_step,
        }
    }

    /// [`tick`](Self::tick) for a catch-up run, given `x`, the step's virtual time on the
    /// run's axis ([`local`]) when it fits in 64 bits: the same tick, its lag in 64 bits.
    #[inline(always)]
    pub(crate) fn tick_direct(&self, g: GridPoint, x: u64, last_in_step: bool) -> Tick {
        Tick {
            clock: self.clock,
            index: self.base.saturating_add(g.m),
            t: self.t(g),
            dt: self.step.rate(),
            lag: lag_u64(x, g.ceil_from(self.base_r)),
            last_in_step,
        }
    }

    /// [`Tick::t`] of the tick starting at `g`: the simulation time at its start, exact
    /// (see `Clock::base_t`), rounded down.
    #[inline(always)]
    pub(crate) fn t(&self, g: GridPoint) -> Nanos {
        Nanos(self.base_t.saturating_add(g.floor()))
    }

    /// [`Tick::lag`] of the tick starting at `g`, at virtual time `v`: the [`lag`] of its
    /// start (never negative for a constant-rate slot: 0 when the shell slept until it).
    #[inline(always)]
    pub(crate) fn lag(&self, g: GridPoint, v: u64) -> Lag {
        let Some(x) = local(self.origin, self.phase_ns, v) else {
            return Lag::ZERO;
        };
        let lag = lag(x, u128::from(g.ceil_from(self.base_r)));
        if self.constant_rate {
            Lag::from(lag.behind())
        } else {
            lag
        }
    }

    /// Where the run's tick `index` ends: the simulation time at the start of the grid point
    /// after it, exact and rounded down like [`t`](Self::t) (so it is the next tick's `t` while
    /// the period holds). `None` when `index` is not one of the run's ticks.
    pub(crate) fn end(&self, index: u64) -> Option<Nanos> {
        let j = index.checked_sub(self.base.saturating_add(self.start.m))?;
        let j = u32::try_from(j).ok().filter(|&j| j < self.count)?;
        let mut g = self.point(j);
        g.advance_by(self.step);
        Some(self.t(g))
    }

    /// The virtual time at which the run's tick `index` came due: the key the merged walk
    /// orders it by ([`due`](Self::due)). `None` when `index` is not one of the run's ticks.
    pub(crate) fn due_of_index(&self, index: u64) -> Option<u64> {
        let j = index.checked_sub(self.base.saturating_add(self.start.m))?;
        let j = u32::try_from(j).ok().filter(|&j| j < self.count)?;
        Some(self.due(self.point(j)))
    }

    /// The grid point of the run's tick `j` (0 for the first): one division past the first.
    #[inline]
    pub(crate) fn point(&self, j: u32) -> GridPoint {
        if j == 0 {
            self.start
        } else {
            GridPoint::at(self.step.rate(), self.start.m + u64::from(j))
                .with_offset(self.base_r, self.step.den())
        }
    }

    /// The due time of the tick starting at `g` (the merge order).
    #[inline]
    pub(crate) fn due(&self, g: GridPoint) -> u64 {
        let g = g.without_offset(self.base_r, self.step.den());
        let mut end = g;
        end.advance_by(self.step);
        due_time(
            self.step.rate(),
            self.origin,
            self.phase_ns,
            self.constant_rate,
            g,
            end,
        )
    }
}

#[cfg(test)]
mod tests {
    use quickcheck::{Arbitrary, Gen, QuickCheck};

    use super::*;
    use crate::events::walk::tests::{a_rate, anywhere};

    /// A grid segment as a clock keeps it (`origin` 0, or `shift` 0, or a catch-up phase below
    /// one tick), a tick number on it and a virtual time, anywhere on the time axis.
    #[derive(Clone, Debug)]
    struct Case {
        grid: Grid,
        k: u64,
        v: u64,
    }

    impl Arbitrary for Case {
        fn arbitrary(g: &mut Gen) -> Case {
            let rate = a_rate(g);
            let (num, den) = rate.as_nanos_ratio();
            let constant_rate = bool::arbitrary(g);
            let (origin, shift) = match u8::arbitrary(g) % 3 {
                0 => (0, anywhere(g)),
                1 => (anywhere(g), 0),
                _ if !constant_rate => (anywhere(g), u64::arbitrary(g) % (num / den)),
                _ => (anywhere(g), 0),
            };
            Case {
                grid: Grid {
                    rate,
                    origin,
                    shift,
                    base: 0,
                    constant_rate,
                },
                k: anywhere(g) / (num / den).max(1),
                v: anywhere(g),
            }
        }
    }

    /// The due time in 64 bits is the start fact at the due point (the end of the tick's
    /// interval for catch-up, the start of its slot otherwise), exactly, clamped to the axis.
    #[test]
    fn the_due_time_is_the_start_of_the_due_point() {
        fn prop(case: Case) -> bool {
            let Grid {
                rate,
                origin,
                shift,
                constant_rate,
                ..
            } = case.grid;
            let start = GridPoint::at(rate, case.k);
            let end = GridPoint::at(rate, case.k.saturating_add(1));
            let at = if constant_rate { start } else { end };
            due_time(rate, origin, shift, constant_rate, start, end)
                == start_time(rate, origin, shift, at)
        }
        QuickCheck::new()
            .tests(5_000)
            .quickcheck(prop as fn(Case) -> bool);
    }

    /// The inverse: of the ticks due by `v` (on the grid's axis), the last is due by `v` and
    /// the next one after it.
    #[test]
    fn the_due_count_inverts_the_due_time() {
        fn prop(case: Case) -> bool {
            let grid = case.grid;
            if case.v < grid.origin {
                return grid.ticks_due(case.v) == grid.base;
            }
            let n = grid.ticks_due(case.v);
            let last_due = n.checked_sub(1).is_none_or(|k| grid.due(k) <= case.v);
            let next_later = n == u64::MAX || grid.due(n) > case.v || grid.due(n) == u64::MAX;
            last_due && next_later
        }
        QuickCheck::new()
            .tests(5_000)
            .quickcheck(prop as fn(Case) -> bool);
    }
}
