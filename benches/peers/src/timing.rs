//! Per-frame cost: ns per frame as the median over repeated batches (criterion's approach
//! without its statistics: warm up, size each loop's batch to about 2 ms, time many batches,
//! keep the median and the spread), and allocations per frame counted in separate, untimed
//! runs by the `allocation-counter` crate's global allocator, which counts only the measuring
//! thread's allocations (the loops run on it; none of them starts threads in these runs).
//!
//! The loops of one case are timed interleaved: round after round, one batch of each loop.
//! On a machine shared with other work, a burst of load then hits every loop alike instead of
//! whichever happened to be running, which keeps the ratios honest.

use std::hint::black_box;
use std::ops::Range;
use std::time::{Duration, Instant};

use crate::drivers::{Driver, Grid};

/// How a loop's frame function meets the timing loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Regime {
    /// Monomorphised and `#[inline(always)]` into the timing loop, as in a user's crate (the
    /// loop's own functions are then inlined or not by the compiler, as in a user's crate).
    Inlinable,
    /// Every frame through an `#[inline(never)]` function, for every loop alike.
    BehindCall,
}

/// Frame times `offset + ⌊k·num/den⌋` for consecutive `k`, walked with one add and one compare
/// per frame (a 64-bit division per frame would cost more than some loops' whole frame).
#[derive(Copy, Clone, Debug)]
pub struct GridWalk {
    t: u64,
    r: u64,
    pq: u64,
    pr: u64,
    den: u64,
}

impl GridWalk {
    /// Starts at frame `k`.
    #[inline(always)]
    pub fn new(grid: Grid, k: u64) -> GridWalk {
        let x = u128::from(k) * u128::from(grid.num);
        let den = u128::from(grid.den);
        GridWalk {
            t: grid.offset + (x / den) as u64,
            r: (x % den) as u64,
            pq: grid.num / grid.den,
            pr: grid.num % grid.den,
            den: grid.den,
        }
    }

    /// This frame's time; moves to the next frame.
    #[inline(always)]
    pub fn next_time(&mut self) -> u64 {
        let t = self.t;
        self.t += self.pq;
        self.r += self.pr;
        if self.r >= self.den {
            self.r -= self.den;
            self.t += 1;
        }
        t
    }
}

/// The timing loop of an in-place driver: frames `ks` of `grid` through `frame`, checksums
/// mixed. The grid goes through `black_box` (no frame time is known at compile time) and so
/// does the driver after every frame, as if opaque game code ran between frames: its state
/// must be in memory, and may have changed.
#[inline(always)]
pub fn run_frames<S>(
    s: &mut S,
    grid: Grid,
    ks: Range<u64>,
    mut frame: impl FnMut(&mut S, u64) -> u64,
) -> u64 {
    let mut walk = GridWalk::new(black_box(grid), ks.start);
    let mut sum = 0u64;
    for _ in ks {
        sum = sum.rotate_left(5).wrapping_add(frame(s, walk.next_time()));
        black_box(&mut *s);
    }
    sum
}

/// The timing loop of a by-value fold: `s = frame(s, now)`, the state a local of the loop,
/// opaque between frames as in [`run_frames`].
#[inline(always)]
pub fn fold_frames<S>(
    mut s: S,
    grid: Grid,
    ks: Range<u64>,
    mut frame: impl FnMut(S, u64) -> (S, u64),
) -> (S, u64) {
    let mut walk = GridWalk::new(black_box(grid), ks.start);
    let mut sum = 0u64;
    for _ in ks {
        let (next, c) = frame(s, walk.next_time());
        s = next;
        sum = sum.rotate_left(5).wrapping_add(c);
        black_box(&mut s);
    }
    (s, sum)
}

/// How long to time each loop, and how.
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    /// Warm-up time of each loop before the batches.
    pub warm_up: Duration,
    /// Target time of one batch.
    pub batch: Duration,
    /// Number of rounds, one batch per loop each (odd, so the median is one of them).
    pub rounds: usize,
    /// Frames run before counting allocations (construction and first-frame set-up); at least
    /// one simulated second's worth is run in any case.
    pub alloc_warm_up: u64,
    /// Frames in the allocation-counting run.
    pub alloc_frames: u64,
}

impl Budget {
    /// The figures BENCHMARKS.md reports.
    pub const FULL: Budget = Budget {
        warm_up: Duration::from_millis(200),
        batch: Duration::from_millis(2),
        rounds: 61,
        alloc_warm_up: 1_000,
        alloc_frames: 10_000,
    };
    /// A quick look while iterating.
    pub const QUICK: Budget = Budget {
        warm_up: Duration::from_millis(30),
        batch: Duration::from_millis(1),
        rounds: 11,
        alloc_warm_up: 1_000,
        alloc_frames: 2_000,
    };
}

/// The cost of one frame of one loop.
#[derive(Copy, Clone, Debug, Default)]
pub struct Cost {
    /// Median ns per frame over the batches.
    pub median_ns: f64,
    /// 10th percentile of the batches' ns per frame.
    pub p10_ns: f64,
    /// 90th percentile of the batches' ns per frame.
    pub p90_ns: f64,
    /// Heap allocations plus reallocations per frame, after the warm-up frames.
    pub allocs_per_frame: f64,
    /// Heap allocations plus reallocations while constructing a loop and running its set-up
    /// frames.
    pub first_frames_allocs: u64,
    /// Updates per frame seen in the allocation run (checks the case does what it says).
    pub updates_per_frame: f64,
}

/// One loop of a case, ready to be timed batch by batch.
pub trait Batch {
    /// Runs `n` more frames; returns a checksum.
    fn batch(&mut self, n: u64) -> u64;
    /// Counts allocations on a new loop of the same kind: (first frames, per frame after,
    /// updates per frame).
    fn allocs(&self, budget: Budget) -> (u64, f64, f64);
}

/// A driver on a frame grid, numbering frames from 1.
pub struct Bench<D, F> {
    make: F,
    driver: D,
    grid: Grid,
    next: u64,
    regime: Regime,
}

impl<D: Driver, F: Fn() -> D> Bench<D, F> {
    /// A new loop from `make`, on `grid`, inlinable into the timing loop.
    pub fn new(make: F, grid: Grid) -> Self {
        Bench {
            driver: make(),
            make,
            grid,
            next: 1,
            regime: Regime::Inlinable,
        }
    }

    /// The same, each frame behind an `#[inline(never)]` call.
    pub fn behind_call(make: F, grid: Grid) -> Self {
        Bench {
            regime: Regime::BehindCall,
            ..Bench::new(make, grid)
        }
    }
}

impl<D: Driver, F: Fn() -> D> Batch for Bench<D, F> {
    fn batch(&mut self, n: u64) -> u64 {
        let r = self
            .driver
            .run(self.grid, self.next..self.next + n, self.regime);
        self.next += n;
        r
    }

    fn allocs(&self, budget: Budget) -> (u64, f64, f64) {
        // Through the same `run` path that is timed, on a new loop.
        // Set-up: at least one simulated second, so that every schedule has run its first
        // update (Bevy builds its `FixedMain` schedule on first use).
        let second = (1_000_000_000 * self.grid.den).div_ceil(self.grid.num);
        let warm = budget.alloc_warm_up.max(second);
        let (first, mut d) = allocations_during(|| {
            let mut d = (self.make)();
            black_box(d.run(self.grid, 1..warm + 1, self.regime));
            d
        });
        let start = warm + 1;
        let (steady, _) = allocations_during(|| {
            black_box(d.run(self.grid, start..start + budget.alloc_frames, self.regime));
        });
        let steady = steady as f64 / budget.alloc_frames as f64;
        // What the case does, frame by frame, on another new loop.
        let mut d = (self.make)();
        let updates: u64 = (1..=budget.alloc_frames)
            .map(|j| d.frame(self.grid.at(j)).updates)
            .sum();
        (first, steady, updates as f64 / budget.alloc_frames as f64)
    }
}

/// Runs `f` and returns how many allocations (reallocations included) this thread made
/// meanwhile.
pub fn allocations_during<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(f()));
    (info.count_total, result.expect("measure runs its closure"))
}

/// Times the loops of one case interleaved; one [`Cost`] per loop, in order.
pub fn measure_case(benches: &mut [Box<dyn Batch + '_>], budget: Budget) -> Vec<Cost> {
    // Warm up each loop in doubling chunks, and estimate its cost per frame.
    let mut sizes = Vec::new();
    for b in benches.iter_mut() {
        let mut chunk = 16u64;
        let warm = Instant::now();
        let (mut frames, mut spent) = (0u64, Duration::ZERO);
        while warm.elapsed() < budget.warm_up {
            let t = Instant::now();
            black_box(b.batch(chunk));
            spent += t.elapsed();
            frames += chunk;
            chunk = (chunk * 2).min(1 << 20);
        }
        let est_ns = (spent.as_nanos() as f64 / frames.max(1) as f64).max(0.1);
        sizes.push(((budget.batch.as_nanos() as f64 / est_ns) as u64).max(1));
    }

    let mut samples = vec![Vec::with_capacity(budget.rounds); benches.len()];
    for _ in 0..budget.rounds {
        for (i, b) in benches.iter_mut().enumerate() {
            let t = Instant::now();
            black_box(b.batch(sizes[i]));
            samples[i].push(t.elapsed().as_nanos() as f64 / sizes[i] as f64);
        }
    }

    benches
        .iter()
        .zip(samples)
        .map(|(b, mut s)| {
            s.sort_by(f64::total_cmp);
            let pick = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize];
            let (first, steady, updates) = b.allocs(budget);
            Cost {
                median_ns: pick(0.5),
                p10_ns: pick(0.1),
                p90_ns: pick(0.9),
                allocs_per_frame: steady,
                first_frames_allocs: first,
                updates_per_frame: updates,
            }
        })
        .collect()
}
