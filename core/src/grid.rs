//! The one home of "tick `k` of a clock: when is it due, where does it start, how many are due
//! by now, and how far behind is virtual time". Each rule is written once here:
//!
//! * where virtual time `v` lies on a grid segment's own axis ([`local`], [`local_u64`]);
//! * where a grid point starts on the virtual time axis ([`start`]);
//! * when a tick comes due ([`due_time`]);
//! * the inverse, how many have come due by a local time ([`point_at`], [`due_count`]), and
//!   how many ever can ([`segment_end`]);
//! * the lag of a grid point ([`lag`], [`lag_u64`]).
//!
//! A clock's grid segment ([`Grid`]) applies them to a tick number for the input queue and
//! single-stepping, the clock (`clock/`) to its walked grid points, its firing rules and its
//! run-time controls, and a step's [`Run`] to the ticks it reports (their `t` and `lag`
//! too): nothing else computes these.

use crate::event::Tick;
use crate::id::ClockId;
use crate::rate::{GridPoint, GridStep, Period};
use crate::time::{Lag, Nanos};

/// Virtual time `v` on a grid segment's own axis: `v − origin + shift`, exactly (it may pass
/// `u64::MAX` by the shift); `None` before the segment's origin.
#[inline(always)]
pub(crate) fn local(origin: u64, shift: u64, v: u64) -> Option<u128> {
    v.checked_sub(origin)
        .map(|l| u128::from(l) + u128::from(shift))
}

/// [`local`] in 64 bits, the common case: `Some(Some(l))` when it fits, `Some(None)` when it
/// passes `u64::MAX`, `None` before the origin.
#[inline(always)]
pub(crate) fn local_u64(origin: u64, shift: u64, v: u64) -> Option<Option<u64>> {
    v.checked_sub(origin).map(|l| l.checked_add(shift))
}

/// Where grid point `g` starts on the virtual time axis: `origin + ceil(g) − shift`, exactly, in
/// signed ns (negative when added lag put it before the loop's start).
#[inline]
pub(crate) fn start(rate: Period, origin: u64, shift: u64, g: GridPoint) -> i128 {
    let at = i128::try_from(g.ceil_exact(rate)).unwrap_or(i128::MAX);
    i128::from(origin) + at - i128::from(shift)
}

/// The grid point whose interval holds local time `l`: `floor(l/dt)`, saturating.
#[inline]
pub(crate) fn point_at(rate: Period, l: u128) -> u64 {
    match u64::try_from(l) {
        Ok(l) => rate.ticks_in(l),
        Err(_) => rate.ticks_in_wide(l),
    }
}

/// The inverse of [`due_time`]: how many grid points of a segment have come due by local time
/// `l` (tick `k` of catch-up is due once its interval `[k·dt, (k+1)·dt)` has passed; slot `k`
/// of the constant-rate policies once it has started).
#[inline]
pub(crate) fn due_count(rate: Period, constant_rate: bool, l: u128) -> u64 {
    point_at(rate, l).saturating_add(u64::from(constant_rate))
}

/// How many ticks of a grid segment starting at `origin` (shifted ahead by `shift`) can ever
/// come due: past that, a tick would be due after `u64::MAX` ns (the end of the time axis).
#[inline]
pub(crate) fn segment_end(rate: Period, origin: u64, shift: u64, constant_rate: bool) -> u64 {
    let room = local(origin, shift, u64::MAX).unwrap_or(0);
    due_count(rate, constant_rate, room)
}

/// The lag of a grid point that starts at `start` on a segment's axis, at local time `l`:
/// `l − start`, rounded down as `l` is whole (negative when the tick ran early).
#[inline(always)]
pub(crate) fn lag(l: u128, start: u128) -> Lag {
    Lag::between(l, start)
}

/// [`lag`] in 64 bits.
#[inline(always)]
pub(crate) fn lag_u64(l: u64, start: u64) -> Lag {
    Lag::between_u64(l, start)
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

    /// Where grid point `g` starts on the virtual time axis (see [`start`]).
    #[inline]
    pub(crate) fn start(&self, g: GridPoint) -> i128 {
        start(self.rate, self.origin, self.shift, g)
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
}

/// The virtual time at which the tick whose interval is `[start, end)` on a clock's grid comes
/// due: `origin + end − phase` for catch-up, `origin + start` for the constant-rate policies.
/// Saturates at `u64::MAX` (past the end of time). Shared by the clock and the lazy merge of
/// [`Events`](crate::Events), so both order ticks by the same due times.
#[inline]
pub(crate) fn due_time(
    rate: Period,
    origin: u64,
    phase_ns: u64,
    constant_rate: bool,
    start: GridPoint,
    end: GridPoint,
) -> u64 {
    if constant_rate {
        // `phase_ns` is the clock's lead (0 unless a control added lag to it).
        return origin.saturating_add(start.ceil()).saturating_sub(phase_ns);
    }
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

    /// [`tick`](Self::tick) for a catch-up run, given `x = v − origin + phase_ns` (when it
    /// fits in 64 bits): the same tick, with the lag computed in 64 bits.
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

    /// [`Tick::lag`] of the tick starting at `g`, at virtual time `v`.
    #[inline(always)]
    pub(crate) fn lag(&self, g: GridPoint, v: u64) -> Lag {
        let Some(l) = local(self.origin, self.phase_ns, v) else {
            return Lag::ZERO;
        };
        // A tick that fires is due by u64::MAX, so its start k·dt is exact in the grid.
        let lag = lag(l, u128::from(g.ceil_from(self.base_r)));
        if self.constant_rate && lag.is_early() {
            // The time since the slot started, 0 when the shell slept until it.
            return Lag::ZERO;
        }
        lag
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
