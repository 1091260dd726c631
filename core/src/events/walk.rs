//! The walk over a step's updates: the ticks of one run in order, or several runs merged by
//! due time (ties to the clock declared first) along the order the step worked out once in a
//! reused buffer (see `few::RunsBuf`), produced one at a time without allocating.

use crate::grid::{self, Run};
use crate::values::event::Tick;
use crate::values::rate::GridPoint;

/// The walk over the runs' ticks. A single catch-up run (the common case) is walked directly:
/// its cursor and its lag's minuend sit in plain fields, set up once, so reading it needs no
/// look at the merge's state and computes each lag in 64 bits. Anything else (several runs
/// merged by due time along the step's [`order`], or a single run the direct walk does not
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
    /// The place in the order the step worked out.
    Order(usize),
}

/// Where a walk reads its runs: the only one (asked for only when there is exactly one), all
/// of them, and the merged order when there are several. The events' runs (`few::Runs`) answer the first
/// without looking at how many there are, which keeps a single run's walk in registers.
pub(crate) trait Source {
    fn first(&self) -> Option<&Run>;
    fn all(&self) -> &[Run];
    fn order(&self) -> &[(u64, u64)];
}

impl Source for [Run] {
    #[inline(always)]
    fn first(&self) -> Option<&Run> {
        <[Run]>::first(self)
    }
    #[inline(always)]
    fn all(&self) -> &[Run] {
        self
    }
    fn order(&self) -> &[(u64, u64)] {
        &[]
    }
}

/// A run's first tick's due time that the step did not note (see [`order`]).
pub(crate) const UNNOTED: u64 = u64::MAX;

/// The merged order of `runs`' ticks into `out`: per tick its due time and its place (its
/// run's place in the high 32 bits and its place in the run in the low ones), the earliest
/// due first, ties to the clock declared first (the runs are in declaration order). Sorted
/// once (O(ticks · log ticks), where picking the earliest run tick by tick cost
/// O(ticks · runs); by insertion up to [`SHORT`] ticks).
///
/// `dues` holds each run's first tick's due time as the step noted it when the clock fired
/// the tick (one home: the clock's own due time), or [`UNNOTED`], and then it is worked out
/// from the grid (which gives `UNNOTED` itself for a tick truly due then). The ticks after a
/// run's first are keyed from the grid.
pub(crate) fn order(runs: &[Run], dues: &[u64], out: &mut alloc::vec::Vec<(u64, u64)>) {
    out.clear();
    debug_assert_eq!(runs.len(), dues.len());
    for (i, (run, &due)) in runs.iter().zip(dues).enumerate() {
        if run.count == 0 {
            continue;
        }
        let at = (i as u64) << 32;
        let due = if due == UNNOTED {
            run.due(run.start)
        } else {
            due
        };
        debug_assert_eq!(due, run.due(run.start), "a noted due time is the grid's");
        out.push((due, at));
        if run.count > 1 {
            more_keys(run, at, out);
        }
    }
    // The places make every key distinct, so an unstable sort is exact: by due time, then
    // by the run's place (the clock declared first), then in the run's own order.
    if out.len() <= SHORT {
        insertion_sort(out);
    } else {
        out.sort_unstable();
    }
}

/// Up to this many ticks, [`order`] sorts them by insertion, inline: the keys come mostly in
/// order (each run's ticks are, and the runs are as the clocks are declared), and the
/// library's sort, out of line, cost more for a handful (measured under callgrind).
const SHORT: usize = 24;

/// Sorts `keys` by insertion (see [`SHORT`]).
#[inline(always)]
fn insertion_sort(keys: &mut [(u64, u64)]) {
    for i in 1..keys.len() {
        let key = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = key;
    }
}

/// The keys of `run`'s ticks after its first (see [`order`]): out of line, so that the usual
/// run of one tick per step keeps [`order`]'s loop in registers.
#[inline(never)]
fn more_keys(run: &Run, at: u64, out: &mut alloc::vec::Vec<(u64, u64)>) {
    let mut g = run.start;
    for j in 1..run.count {
        g.advance_by(run.step);
        out.push((run.due(g), at | u64::from(j)));
    }
}

impl Walk {
    /// The walk over `src`'s ticks, at virtual time `v`.
    #[inline(always)]
    pub(crate) fn new<S: Source + ?Sized>(src: &S, v: u64) -> Walk {
        match src.all() {
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
            _ => Walk::several(src.order().len()),
        }
    }

    /// The walk over several runs' `ticks`, along the step's order (which holds one entry a
    /// tick; out of line: the common single run's walk stays small).
    #[cold]
    #[inline(never)]
    fn several(ticks: usize) -> Walk {
        Walk {
            left: ticks as u64,
            g: GridPoint::ZERO,
            x: 0,
            direct: false,
            merge: Merge::Order(0),
        }
    }

    /// The next tick of `src`'s runs, in order.
    #[inline(always)]
    pub(crate) fn next<S: Source + ?Sized>(&mut self, src: &S, v: u64) -> Option<Tick> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if self.direct {
            let run = src.first()?;
            let tick = run.tick_direct(self.g, self.x, self.left == 0);
            self.g.advance_by(run.step);
            return Some(tick);
        }
        match &mut self.merge {
            Merge::None => {
                let run = src.first()?;
                let tick = run.tick(self.g, v, self.left == 0);
                self.g.advance_by(run.step);
                Some(tick)
            }
            // By value: a pointer into the walk would pin the whole iterator to memory, and
            // reading a single clock's updates (the common case) would slow down.
            Merge::Order(at) => {
                let tick = Walk::in_order(*at, src.all(), src.order(), v);
                *at += 1;
                tick
            }
        }
    }

    /// The tick at place `at` of the step's order.
    #[inline(never)]
    fn in_order(at: usize, runs: &[Run], order: &[(u64, u64)], v: u64) -> Option<Tick> {
        let (_, entry) = *order.get(at)?;
        let run = runs.get((entry >> 32) as usize)?;
        let j = entry as u32;
        let (g, last) = (run.point(j), j + 1 == run.count);
        // A catch-up run's lag in 64 bits when its minuend fits, as the direct walk's.
        match grid::local_u64(run.origin, run.phase_ns, v).flatten() {
            Some(x) if !run.constant_rate => Some(run.tick_direct(g, x, last)),
            _ => Some(run.tick(g, v, last)),
        }
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
    use crate::values::id::ClockId;
    use crate::values::rate::{GridStep, Period};

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

    /// One of the rates the grid's and the clock's properties run on: whole and fractional
    /// ns ticks, a rational one, and 1 ns.
    pub(crate) fn a_rate(g: &mut Gen) -> Period {
        let hz = *g
            .choose(&[(60, 1), (60_000, 1_001), (7, 3), (1_000_000_000, 1)])
            .unwrap_or(&(60, 1));
        Period::from_hz_ratio(hz.0, hz.1).expect("a valid rate")
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
            let direct = Walk::new(&runs[..], case.v);
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
            let offset = ticks(Walk::new(&[run][..], case.v), &[run], case.v);
            let flat = ticks(Walk::new(&[plain][..], case.v), &[plain], case.v);
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

    /// The merged order (each run's first tick, then the rest out of line) against every
    /// tick's due time computed from its own grid point, sorted.
    #[test]
    fn the_order_sorts_every_ticks_due_time() {
        fn prop(cases: Vec<Case>) -> bool {
            // Runs as clocks make them: their ticks' numbers fit (a clock stops at the end).
            let runs: Vec<Run> = cases
                .into_iter()
                .take(5)
                .map(|c| c.run)
                .filter(|r| r.start.m.checked_add(u64::from(r.count)).is_some())
                .collect();
            let mut expected: Vec<(u64, u64)> = runs
                .iter()
                .enumerate()
                .flat_map(|(i, run)| {
                    (0..run.count)
                        .map(move |j| (run.due(run.point(j)), (i as u64) << 32 | u64::from(j)))
                })
                .collect();
            expected.sort_unstable();
            // Half the runs' due times noted, as the general path notes them.
            let dues: Vec<u64> = runs
                .iter()
                .enumerate()
                .map(|(i, r)| if i % 2 == 0 { r.due(r.start) } else { UNNOTED })
                .collect();
            let mut out = Vec::new();
            order(&runs, &dues, &mut out);
            out == expected
        }
        QuickCheck::new()
            .tests(2_000)
            .quickcheck(prop as fn(Vec<Case>) -> bool);
    }

    /// A merged walk's tick (its lag in 64 bits where it fits) against the tick worked out
    /// from its run's grid point with the lag in 128 bits, for every place of the order.
    #[test]
    fn the_merged_walk_gives_each_runs_grid_ticks() {
        fn prop(cases: Vec<Case>) -> bool {
            // Half the time past the first run's origin, so the 64-bit lag applies.
            let v = cases.first().map_or(0, |c| c.v);
            let runs: Vec<Run> = cases
                .into_iter()
                .take(4)
                .map(|c| c.run)
                .filter(|r| r.start.m.checked_add(u64::from(r.count)).is_some())
                .collect();
            let dues: Vec<u64> = runs.iter().map(|_| UNNOTED).collect();
            let mut order_out = Vec::new();
            order(&runs, &dues, &mut order_out);
            order_out.iter().enumerate().all(|(at, &(_, entry))| {
                let run = &runs[(entry >> 32) as usize];
                let j = entry as u32;
                let expected = run.tick(run.point(j), v, j + 1 == run.count);
                Walk::in_order(at, &runs, &order_out, v) == Some(expected)
            })
        }
        QuickCheck::new()
            .tests(2_000)
            .quickcheck(prop as fn(Vec<Case>) -> bool);
    }

    /// The short orders' insertion sort against the library's sort, on keys as `order` makes
    /// them (distinct) and on repeated ones.
    #[test]
    fn the_insertion_sort_sorts_like_the_librarys() {
        fn prop(keys: Vec<(u8, u8)>) -> bool {
            let mut keys: Vec<(u64, u64)> = keys
                .into_iter()
                .take(SHORT + 8)
                .map(|(a, b)| (u64::from(a % 16), u64::from(b)))
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            insertion_sort(&mut keys);
            keys == expected
        }
        QuickCheck::new()
            .tests(2_000)
            .quickcheck(prop as fn(Vec<(u8, u8)>) -> bool);
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
        assert!(Walk::new(&[run][..], 20_000_000_000).direct);
        // Before the grid's origin, past 64 bits, or a constant-rate slot: the grid walk.
        assert!(!Walk::new(&[run][..], 999).direct);
        run.origin = 0;
        run.phase_ns = u64::MAX;
        assert!(!Walk::new(&[run][..], 1).direct);
        run.phase_ns = 0;
        run.constant_rate = true;
        assert!(!Walk::new(&[run][..], 1).direct);
    }
}
