//! The walk over a step's updates: the ticks of one run in order, or several runs merged by
//! due time (ties to the clock declared first), produced one at a time without allocating for
//! up to [`INLINE_RUNS`] runs.

use crate::event::Tick;
use crate::grid::{self, Run};
use crate::rate::GridPoint;

/// How many clocks can update in one step before the description of a step spills to the
/// heap, and before reading the step's merged updates needs the heap.
pub(crate) const INLINE_RUNS: usize = 4;

/// Where a merge with cursors on the heap (more than [`INLINE_RUNS`] runs, or a run past
/// `u16::MAX` ticks) stands in one run: the ticks left and the due time of the next one. Its
/// grid point is recomputed from the tick number when it fires (one division).
#[derive(Copy, Clone, Debug)]
struct Head {
    left: u32,
    due: u64,
}

/// How many ticks of a merge of up to [`INLINE_RUNS`] runs one plan orders (2 bits each, below
/// a marker bit in a `u64`).
const PLANNED: u32 = 31;

// A run's place in a plan takes 2 bits.
const _: () = assert!(INLINE_RUNS <= 4);

/// A merge of up to [`INLINE_RUNS`] runs of at most `u16::MAX` ticks each (one tick short of
/// the [`MAX_UPDATES_PER_STEP`](crate::MAX_UPDATES_PER_STEP) backstop), in 16 bytes: how
/// many ticks of each run have fired, and the order of the next ones as run places, worked
/// out [`PLANNED`] at a time. A tick's grid point is recomputed from its number when it fires
/// (one division).
///
/// It goes to the merge's code and back by value, in two registers: a pointer into the walk
/// would pin the whole iterator to memory, and reading a single clock's updates (the common
/// case) would slow down. Counts of 32 bits would take 24 bytes, passed through memory, which
/// measurably slows the single-clock read too.
#[derive(Copy, Clone, Debug)]
struct FewHeads {
    taken: [u16; INLINE_RUNS],
    /// The places of the next runs to fire, 2 bits each from the lowest, below a marker bit:
    /// 1 once the plan is spent.
    plan: u64,
}

impl FewHeads {
    /// The next tick, planning the next ones when the plan is spent.
    #[inline(never)]
    fn next(mut self, runs: &[Run], v: u64) -> (FewHeads, Option<Tick>) {
        if self.plan <= 1 {
            self.plan = self.make_plan(runs);
        }
        let i = (self.plan & 0b11) as usize;
        let (Some(run), Some(taken), true) = (runs.get(i), self.taken.get_mut(i), self.plan > 1)
        else {
            return (self, None);
        };
        self.plan >>= 2;
        let g = run.point(u32::from(*taken));
        *taken += 1;
        let last = u32::from(*taken) == run.count;
        (self, Some(run.tick(g, v, last)))
    }

    /// The order of the next [`PLANNED`] ticks at most: the earliest due first, ties to the
    /// clock declared first (the runs are in declaration order).
    fn make_plan(&self, runs: &[Run]) -> u64 {
        let mut left = [0u32; INLINE_RUNS];
        let mut at = [GridPoint::ZERO; INLINE_RUNS];
        let mut due = [0u64; INLINE_RUNS];
        for ((((run, &t), l), g), d) in runs
            .iter()
            .zip(&self.taken)
            .zip(&mut left)
            .zip(&mut at)
            .zip(&mut due)
        {
            *l = run.count.saturating_sub(u32::from(t));
            if *l > 0 {
                *g = run.point(u32::from(t));
                *d = run.due(*g);
            }
        }
        let mut plan = 0u64;
        let mut n = 0;
        while n < PLANNED {
            let mut best: Option<(u64, usize)> = None;
            for (i, (&l, &d)) in left.iter().zip(&due).enumerate() {
                if l > 0 && best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, i));
                }
            }
            let Some((_, i)) = best else { break };
            let (Some(run), Some(l), Some(g), Some(d)) =
                (runs.get(i), left.get_mut(i), at.get_mut(i), due.get_mut(i))
            else {
                break;
            };
            plan |= (i as u64) << (2 * n);
            n += 1;
            *l -= 1;
            if *l > 0 {
                g.advance_by(run.step);
                *d = run.due(*g);
            }
        }
        plan | 1 << (2 * n)
    }
}

/// The walk over the runs' ticks. A single catch-up run (the common case) is walked directly:
/// its cursor and its lag's minuend sit in plain fields, set up once, so reading it needs no
/// look at the merge's state and computes each lag in 64 bits. Anything else (several runs
/// merged by due time, see [`FewHeads`] and [`Head`], or a single run the direct walk does not
/// cover) goes through [`Merge`]. The fields stay apart, not variants of one enum, so that
/// the direct walk keeps its cursor in registers whatever the merge's code does, and it is
/// told apart by a flag, not by the merge's state (which lives in memory). The run's other
/// constants are read from the run itself: copied here, they cost more at set-up than they
/// save per tick (measured).
#[derive(Clone, Debug)]
pub(crate) struct Walk {
    /// Ticks left over every run.
    left: u64,
    /// The next tick's grid point, when there is a single run.
    g: GridPoint,
    /// The lag's minuend `v − origin + phase`, which fits in 64 bits (direct walk).
    x: u64,
    /// Whether the walk is direct.
    direct: bool,
    merge: Merge,
}

/// The state of a merge of several runs (see [`Walk`]).
#[derive(Clone, Debug)]
enum Merge {
    /// A single run, or none.
    None,
    Few(FewHeads),
    Many(alloc::vec::Vec<Head>),
}

impl Walk {
    /// The walk over `runs`' ticks, at virtual time `v`.
    #[inline(always)]
    pub(crate) fn new(runs: &[Run], v: u64) -> Walk {
        match runs {
            [] => Walk {
                left: 0,
                g: GridPoint::ZERO,
                x: 0,
                direct: false,
                merge: Merge::None,
            },
            [run] => {
                // Direct for a catch-up run whose lag's minuend fits in 64 bits.
                let x = grid::local_u64(run.origin, run.phase_ns, v)
                    .flatten()
                    .filter(|_| !run.constant_rate);
                Walk {
                    left: u64::from(run.count),
                    g: run.start,
                    x: x.unwrap_or(0),
                    direct: x.is_some(),
                    merge: Merge::None,
                }
            }
            runs => Walk {
                left: runs.iter().map(|r| u64::from(r.count)).sum(),
                g: GridPoint::ZERO,
                x: 0,
                direct: false,
                merge: Walk::merge(runs),
            },
        }
    }

    /// The merge's state: inline for up to [`INLINE_RUNS`] runs of at most `u16::MAX` ticks
    /// each, cursors on the heap (one per run) past that.
    #[cold]
    #[inline(never)]
    fn merge(runs: &[Run]) -> Merge {
        if runs.len() <= INLINE_RUNS && runs.iter().all(|r| u16::try_from(r.count).is_ok()) {
            return Merge::Few(FewHeads {
                taken: [0; INLINE_RUNS],
                plan: 1,
            });
        }
        Merge::Many(
            runs.iter()
                .map(|r| Head {
                    left: r.count,
                    due: r.due(r.start),
                })
                .collect(),
        )
    }

    /// The next tick, in order.
    #[inline(always)]
    pub(crate) fn next(&mut self, runs: &[Run], v: u64) -> Option<Tick> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if self.direct {
            let run = runs.first()?;
            let tick = run.tick_direct(self.g, self.x, self.left == 0);
            self.g.advance_by(run.step);
            return Some(tick);
        }
        match &mut self.merge {
            Merge::None => {
                let run = runs.first()?;
                let tick = run.tick(self.g, v, self.left == 0);
                self.g.advance_by(run.step);
                Some(tick)
            }
            // By value (see `FewHeads`).
            Merge::Few(heads) => {
                let (next, tick) = heads.next(runs, v);
                *heads = next;
                tick
            }
            Merge::Many(heads) => Walk::next_many(heads, runs, v),
        }
    }

    /// The next tick of a merge with cursors on the heap: the earliest due, ties to the clock
    /// declared first (the runs are in declaration order).
    #[inline(never)]
    fn next_many(heads: &mut [Head], runs: &[Run], v: u64) -> Option<Tick> {
        let mut best: Option<(u64, usize)> = None;
        for (i, h) in heads.iter().enumerate() {
            if h.left > 0 && best.is_none_or(|(due, _)| h.due < due) {
                best = Some((h.due, i));
            }
        }
        let (_, i) = best?;
        let h = heads.get_mut(i)?;
        let run = runs.get(i)?;
        let g = run.point(run.count - h.left);
        h.left -= 1;
        if h.left > 0 {
            let mut next = g;
            next.advance_by(run.step);
            h.due = run.due(next);
        }
        Some(run.tick(g, v, h.left == 0))
    }

    /// Ticks left.
    pub(crate) fn remaining(&self) -> usize {
        usize::try_from(self.left).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use alloc::vec::Vec;

    use quickcheck::{Arbitrary, Gen, QuickCheck};

    use super::*;
    use crate::id::ClockId;
    use crate::rate::{GridStep, Period};

    /// A single catch-up run anywhere on the time axis, and the step's virtual time.
    #[derive(Clone, Debug)]
    struct Case {
        run: Run,
        v: u64,
    }

    /// A value near 0, near 2⁶³ or near `u64::MAX` (also used by the clock's tests).
    pub(crate) fn anywhere(g: &mut Gen) -> u64 {
        let x = u64::arbitrary(g) % 1_000_000_000_000;
        match u8::arbitrary(g) % 4 {
            0 | 1 => x,
            2 => (1u64 << 63).wrapping_add(x),
            _ => u64::MAX - x,
        }
    }

    impl Arbitrary for Case {
        fn arbitrary(g: &mut Gen) -> Case {
            let den = 1 + u64::arbitrary(g) % 5_000;
            let num = den + u64::arbitrary(g) % 100_000_000_000;
            let rate = Period::from_secs_ratio(num, den * 1_000_000_000).expect("a valid period");
            let (num, den_ns) = rate.as_nanos_ratio();
            let origin = anywhere(g);
            // Half the runs carry a fraction of a ns of simulation time (after a restart).
            let base_r = if bool::arbitrary(g) {
                0
            } else {
                u64::arbitrary(g) % den_ns
            };
            let run = Run {
                clock: ClockId(u16::arbitrary(g) % 3),
                constant_rate: false,
                count: 1 + u32::arbitrary(g) % 40,
                origin,
                phase_ns: if bool::arbitrary(g) {
                    0
                } else {
                    u64::arbitrary(g) % num
                },
                base: anywhere(g),
                base_t: anywhere(g),
                base_r,
                start: GridPoint::at(rate, anywhere(g) / num.max(1)).with_offset(base_r, den_ns),
                step: GridStep::of(rate),
            };
            let v = if bool::arbitrary(g) {
                origin.saturating_add(anywhere(g))
            } else {
                anywhere(g)
            };
            Case { run, v }
        }
    }

    fn ticks(mut walk: Walk, runs: &[Run], v: u64) -> Vec<Tick> {
        core::iter::from_fn(|| walk.next(runs, v)).collect()
    }

    /// The direct walk of a single catch-up run (lag in 64 bits) against the walk through the
    /// run's grid points and `Run::tick` (lag in 128 bits), wherever the run lies on the axis.
    #[test]
    fn the_direct_walk_gives_the_grid_walks_ticks() {
        fn prop(case: Case) -> bool {
            let runs = [case.run];
            let direct = Walk::new(&runs, case.v);
            let mut by_grid = direct.clone();
            by_grid.direct = false;
            ticks(direct, &runs, case.v) == ticks(by_grid, &runs, case.v)
        }
        QuickCheck::new()
            .tests(5_000)
            .quickcheck(prop as fn(Case) -> bool);
    }

    /// A run whose simulation time carries a fraction of a ns: the same ticks and lags as
    /// the plain run on the same grid, and each `t` exactly `floor(base_t + (base_r + m·num) /
    /// den)`, computed here in 128 bits.
    #[test]
    fn an_offset_run_carries_t_exactly_and_keeps_the_lags() {
        fn prop(case: Case) -> bool {
            let run = case.run;
            let (num, den) = run.step.rate().as_nanos_ratio();
            let plain_start = run.start.without_offset(run.base_r, den);
            let plain = Run {
                base_r: 0,
                start: plain_start,
                ..run
            };
            let offset = ticks(Walk::new(&[run], case.v), &[run], case.v);
            let flat = ticks(Walk::new(&[plain], case.v), &[plain], case.v);
            offset.len() == flat.len()
                && offset.iter().zip(&flat).enumerate().all(|(j, (a, b))| {
                    let m = u128::from(run.start.m) + j as u128;
                    let exact = u128::from(run.base_t)
                        + (u128::from(run.base_r) + m * u128::from(num)) / u128::from(den);
                    let t = u64::try_from(exact).unwrap_or(u64::MAX);
                    a.index == b.index && a.lag == b.lag && a.t.0 == t
                })
        }
        QuickCheck::new()
            .tests(5_000)
            .quickcheck(prop as fn(Case) -> bool);
    }

    #[test]
    fn the_direct_walk_is_taken_for_catch_up_runs_whose_lag_fits() {
        let rate = Period::from_secs_ratio(50_000_000, 3_000_000_000).expect("a valid period");
        let mut run = Run {
            clock: ClockId(0),
            constant_rate: false,
            count: 8,
            origin: 1_000,
            phase_ns: 7,
            base: 0,
            base_t: 0,
            base_r: 0,
            start: GridPoint::at(rate, 1_000),
            step: GridStep::of(rate),
        };
        assert!(Walk::new(&[run], 20_000_000_000).direct);
        // Before the grid's origin, past 64 bits, or a constant-rate slot: the grid walk.
        assert!(!Walk::new(&[run], 999).direct);
        run.origin = 0;
        run.phase_ns = u64::MAX;
        assert!(!Walk::new(&[run], 1).direct);
        run.phase_ns = 0;
        run.constant_rate = true;
        assert!(!Walk::new(&[run], 1).direct);
    }
}
