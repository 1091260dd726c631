//! Frame-delta smoothing: raw frame timestamps snapped to the display's measured refresh
//! interval, the remainder carried so the smoothed time never strays from the raw time by more
//! than a stated bound.
//!
//! The idea is Godot's "delta smoothing" (`main/main_timer_sync.cpp`, its pull request 48390):
//! a vsync-paced loop's frames really are whole refresh intervals apart, but the timestamps it
//! reads are not (the OS wakes the thread late, the browser jitters `requestAnimationFrame` and
//! coarsens `performance.now()` to 100 µs). Godot estimates the refresh rate, then hands the game
//! `units · vsync_delta` with the rest carried to the next frame; it passes deltas over a second
//! through unchanged, and frames with deltas below 1 ms. Here the same scheme works in integer
//! nanoseconds on timestamps (not deltas), with a hard bound on the carry instead of Godot's
//! measured on/off switch, so that the total is exact within the bound whatever the input.

use crate::Nanos;

/// Valid frame deltas measured before the refresh interval is first estimated (their median).
const WARM: usize = 15;

/// Valid warm-up deltas (this frame's included) before warm-up frames snap to the interval
/// measured so far.
const PROVISIONAL: usize = 2;

/// A delta longer than this many refresh intervals is a gap (a hidden tab, a suspend, a
/// hitch), passed through unsmoothed.
const MAX_UNITS: u64 = 4;

/// While no interval is known, a delta longer than this is a gap, not a frame.
const MAX_FRAME: u64 = 250_000_000;

/// A delta shorter than this is not a display frame (Godot's 1 ms): passed through.
const MIN_FRAME: u64 = 1_000_000;

/// Frames in a row that cannot be snapped (or that all span 2+ intervals) before the interval
/// is estimated afresh: the display's refresh rate changed.
const RESTART: u16 = 30;

/// Frames since the warm-up (the one that completed it included) at which the interval is
/// first refined by least squares (then at each power of two): early, so that the warm-up estimate's error (a coarsened stamp's 100 µs
/// over 15 deltas) does not carry the smoothed time across a tick boundary.
const FIRST_REFINE: u64 = 16;

/// Frames of the least-squares refinement of the interval; after that it stays as it is, as
/// Godot's estimate locks (a refresh change still restarts it).
const REFINE: u64 = 1 << 14;

/// Fixed-point scale of the interval and the smoothed time (1/65536 ns).
const SHIFT: u32 = 16;

/// Turns raw frame timestamps into smoothed ones: each frame's delta a whole number of the
/// display's refresh intervals, the remainder carried to later frames.
///
/// Feed it the timestamp of every presented frame (a `requestAnimationFrame` stamp, the time
/// read after a blocking present) as [`Nanos`] since any origin, and step the fold with what
/// [`smooth`](DeltaSmoother::smooth) returns. It is pure (no clock, no allocation, `no_std`)
/// and costs a few dozen integer operations a frame.
///
/// # The guarantees
///
/// With `raw` the latest timestamp fed in (the largest so far, see the rules below) and `out`
/// the value returned:
///
/// * **bounded**: `|out − raw| ≤ bound` after every call ([`DEFAULT_BOUND`](Self::DEFAULT_BOUND)
///   4 ms, or [`with_bound`](Self::with_bound)); so over any run the smoothed total equals the
///   raw total within the bound, and the smoothed time never drifts from real time;
/// * **monotonic**: `out` never goes backwards (a snapped frame always moves it forward);
/// * **snapped**: once the interval is known, a frame whose delta lands within the bound of a
///   whole number (1 to 4) of intervals advances `out` by exactly that many intervals.
///
/// # The rules
///
/// * The first stamp comes back unchanged.
/// * A stamp earlier than the latest one, or equal to it (rAF repeats or reorders stamps under
///   devtools throttling), is a repeat: `out` stays where it is, and it counts in
///   [`SmootherStats::backwards`].
/// * The refresh interval is measured from the first 15 deltas between 1 ms and 250 ms (the
///   warm-up): their total over the intervals they span, counted against their median (a
///   dropped frame spans two); it is then refined by least squares over the frames since,
///   first 15 frames later, then each time they double, up to 16,384. During the warm-up the first such delta's frame
///   passes through unchanged; from the second on, each frame snaps the same way to the
///   interval the deltas so far give (within the same bound, or it passes through), so the
///   first frames are as even as the later ones, as Godot's jitter fix acts from the first
///   frame. The frame that completes the warm-up starts the smoothed time on the grid the
///   warm-up frames sit on (their mean distance from a grid of that interval, within the bound;
///   forward only), not on its own stamp: a stamp coarsened to 100 µs may sit exactly on a tick
///   boundary, and every frame snapped from it would too.
/// * A gap (a delta over 4 intervals: a hidden tab's 10 minutes, a suspend, a hitch) passes
///   through unsmoothed: `out` jumps to the raw time, so the fold sees the gap as it was and
///   reports what it drops. It is never spread over later frames.
/// * A frame that cannot be snapped (a delta under 1 ms, or one that would leave `out` more than
///   the bound from `raw`) passes through too (`out` moves to `raw`, or stays if it is ahead),
///   and counts in [`SmootherStats::passed`].
/// * After 30 such frames in a row, or 30 in a row that all span 2+ intervals, the display's
///   rate has changed (60 → 144 Hz, 60 → 30 Hz): the interval is estimated afresh, the stamps
///   passing through meanwhile.
///
/// # Examples
///
/// ```
/// use tickfold_core::{DeltaSmoother, Nanos};
///
/// let mut smoother = DeltaSmoother::new();
/// // 60 Hz frames whose stamps jitter by up to ±0.8 ms and are coarsened to 100 µs.
/// let jitter = [300_000i64, -800_000, 500_000, 0, -200_000, 700_000, -600_000];
/// let mut last = None;
/// for k in 1..=300u64 {
///     let exact = k * 1_000_000_000 / 60;
///     let raw = (exact as i64 + jitter[k as usize % jitter.len()]) as u64 / 100_000 * 100_000;
///     let out = smoother.smooth(Nanos(raw));
///     assert!(out.0.abs_diff(raw) <= DeltaSmoother::DEFAULT_BOUND.0);
///     if k > 150 {
///         // Once the refresh interval is measured (from the 16th frame, refined by least
///         // squares at the 31st, 47th, 79th and 143rd), every delta is one interval, to
///         // within 1 µs.
///         let delta = out.0 - last.unwrap_or(out.0);
///         assert!(delta.abs_diff(16_666_667) <= 1_000, "{delta}");
///     }
///     last = Some(out.0);
/// }
/// let interval = smoother.interval().unwrap();
/// assert!(interval.0.abs_diff(16_666_667) <= 1_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeltaSmoother {
    bound: u64,
    /// The latest (largest) raw stamp, `None` before the first.
    raw: Option<u64>,
    /// The smoothed time in 1/2^SHIFT ns.
    out: u128,
    /// The refresh interval in 1/2^SHIFT ns; 0 while unknown.
    interval: u128,
    /// Warm-up deltas collected so far.
    warm: [u64; WARM],
    warm_len: u8,
    /// Warm-up deltas in a row with no delta left out between them (the latest ones).
    warm_run: u8,
    /// Snappable frames (or 2+ interval frames) in a row.
    odd: u16,
    multi: u16,
    /// Least-squares sums over (units since the anchor, ns since the anchor).
    anchor: u64,
    units: u64,
    n: u64,
    sum_u: u128,
    sum_uu: u128,
    sum_t: u128,
    sum_ut: u128,
    stats: SmootherStats,
}

/// What a [`DeltaSmoother`] did with the stamps fed to it, for logs and tests: nothing it does
/// to a stamp goes uncounted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SmootherStats {
    /// Frames advanced by a whole number of refresh intervals.
    pub snapped: u64,
    /// Frames passed through unsmoothed after the interval was known (gaps, frames that could
    /// not be snapped within the bound); warm-up frames are counted neither here nor in
    /// `snapped`.
    pub passed: u64,
    /// Stamps earlier than or equal to the latest one, treated as repeats.
    pub backwards: u64,
    /// Times the refresh interval was estimated afresh after a rate change.
    pub restarts: u64,
}

impl Default for DeltaSmoother {
    fn default() -> DeltaSmoother {
        DeltaSmoother::new()
    }
}

impl DeltaSmoother {
    /// The default bound on `|smoothed − raw|`: 4 ms, above the ±1 ms a browser's frame stamps
    /// jitter by and a quarter of a 60 Hz frame.
    pub const DEFAULT_BOUND: Nanos = Nanos(4_000_000);

    /// A smoother with the [`DEFAULT_BOUND`](Self::DEFAULT_BOUND).
    #[must_use]
    pub const fn new() -> DeltaSmoother {
        DeltaSmoother {
            bound: DeltaSmoother::DEFAULT_BOUND.0,
            raw: None,
            out: 0,
            interval: 0,
            warm: [0; WARM],
            warm_len: 0,
            warm_run: 0,
            odd: 0,
            multi: 0,
            anchor: 0,
            units: 0,
            n: 0,
            sum_u: 0,
            sum_uu: 0,
            sum_t: 0,
            sum_ut: 0,
            stats: SmootherStats {
                snapped: 0,
                passed: 0,
                backwards: 0,
                restarts: 0,
            },
        }
    }

    /// The same smoother with another bound on `|smoothed − raw|`. A bound below the stamps'
    /// jitter lets few frames snap; with 0 only stamps that land exactly on the refresh grid snap.
    #[must_use]
    pub const fn with_bound(mut self, bound: Nanos) -> DeltaSmoother {
        self.bound = bound.0;
        self
    }

    /// The bound on `|smoothed − raw|`.
    #[must_use]
    pub const fn bound(&self) -> Nanos {
        Nanos(self.bound)
    }

    /// The measured refresh interval (rounded to whole ns), `None` until known.
    #[must_use]
    pub fn interval(&self) -> Option<Nanos> {
        (self.interval != 0).then(|| Nanos(sat(round_fp(self.interval))))
    }

    /// What the smoother did so far.
    #[must_use]
    pub const fn stats(&self) -> SmootherStats {
        self.stats
    }

    /// The smoothed time for a frame stamped `raw` (see the type's rules).
    pub fn smooth(&mut self, raw: Nanos) -> Nanos {
        let raw = raw.0;
        let Some(last) = self.raw else {
            self.raw = Some(raw);
            self.out = u128::from(raw) << SHIFT;
            return Nanos(raw);
        };
        if raw <= last {
            self.stats.backwards += 1;
            return self.current();
        }
        self.raw = Some(raw);
        let delta = raw - last;
        if self.interval == 0 {
            let Some(offset) = self.warm_up(delta, raw) else {
                return self.provisional(delta, raw);
            };
            // The smoothed time starts on the grid the warm-up frames sit on, not on this
            // one stamp: a stamp coarsened to 100 µs can sit exactly on a tick boundary, and
            // the frames snapped from it with it (0 and 2 updates by the ns rounding).
            let bound = i128::from(self.bound) << SHIFT;
            let start = (i128::from(raw) << SHIFT) + offset.clamp(-bound, bound);
            self.out = self.out.max(u128::try_from(start).unwrap_or(0));
            return self.current();
        }
        let (next, units) = self.snap(raw, self.interval);
        let snaps = delta >= MIN_FRAME && units != 0;
        // The intervals the raw delta spans, for the refinement of the interval.
        let spans = ((u128::from(delta) << SHIFT) + self.interval / 2) / self.interval;
        if !snaps {
            self.odd += 1;
            self.stats.passed += 1;
            if self.odd >= RESTART {
                self.restart();
            } else if (1..=MAX_UNITS as u128).contains(&spans) {
                self.refine(spans as u64, raw);
            }
            return self.pass(raw);
        }
        self.odd = 0;
        self.multi = if units >= 2 { self.multi + 1 } else { 0 };
        if self.multi >= RESTART {
            self.restart();
            return self.pass(raw);
        }
        self.out = next;
        self.stats.snapped += 1;
        self.refine(spans.clamp(1, MAX_UNITS as u128) as u64, raw);
        self.current()
    }

    /// Where a frame stamped `raw` lands snapped to `interval` (fixed point) from the smoothed
    /// time, and the whole intervals it advances; 0 intervals when it cannot snap (more than
    /// [`MAX_UNITS`], or further than the bound from `raw`).
    fn snap(&self, raw: u64, interval: u128) -> (u128, u128) {
        let raw_fp = u128::from(raw) << SHIFT;
        // The frame's share: the time since the smoothed time, in whole intervals.
        let units = (raw_fp.saturating_sub(self.out) + interval / 2) / interval;
        let next = self.out + units * interval;
        let snaps = (1..=MAX_UNITS as u128).contains(&units)
            && next.abs_diff(raw_fp) <= u128::from(self.bound) << SHIFT
            && round_fp(next) > round_fp(self.out);
        if snaps { (next, units) } else { (self.out, 0) }
    }

    /// A warm-up frame: once [`PROVISIONAL`] deltas are in, snapped to the interval they
    /// give so far (as [`warm_up`](Self::warm_up) measures it), else passed through.
    fn provisional(&mut self, delta: u64, raw: u64) -> Nanos {
        let len = usize::from(self.warm_len);
        if len < PROVISIONAL || !(MIN_FRAME..=MAX_FRAME).contains(&delta) {
            return self.pass(raw);
        }
        let interval = estimate(&self.warm[..len]).0;
        match self.snap(raw, interval) {
            (_, 0) => self.pass(raw),
            (next, _) => {
                self.out = next;
                self.current()
            }
        }
    }

    fn current(&self) -> Nanos {
        Nanos(sat(round_fp(self.out)))
    }

    /// Moves the smoothed time to `raw`, or keeps it where it is if it is ahead.
    fn pass(&mut self, raw: u64) -> Nanos {
        self.out = self.out.max(u128::from(raw) << SHIFT);
        self.current()
    }

    fn restart(&mut self) {
        self.interval = 0;
        self.warm_len = 0;
        self.warm_run = 0;
        self.odd = 0;
        self.multi = 0;
        self.stats.restarts += 1;
    }

    /// Collects a warm-up delta; with enough, the interval is their median, and the result is
    /// where the grid of the warm-up frames stands against `raw` (fixed point; see
    /// [`grid_offset`](Self::grid_offset)).
    fn warm_up(&mut self, delta: u64, raw: u64) -> Option<i128> {
        if !(MIN_FRAME..=MAX_FRAME).contains(&delta) {
            self.warm_run = 0;
            return None;
        }
        self.warm[usize::from(self.warm_len)] = delta;
        self.warm_len += 1;
        self.warm_run = self.warm_run.saturating_add(1);
        if usize::from(self.warm_len) < WARM {
            return None;
        }
        self.warm_len = 0;
        let (interval, median) = estimate(&self.warm);
        self.interval = interval;
        self.anchor = raw;
        self.units = 0;
        self.n = 1;
        (self.sum_u, self.sum_uu, self.sum_t, self.sum_ut) = (0, 0, 0, 0);
        let offset = self.grid_offset(median);
        self.warm_run = 0;
        Some(offset)
    }

    /// The mean distance of the warm-up frames from a grid of the new interval through the
    /// latest one, in fixed point: where that grid stands once their noise (and the stamps'
    /// coarsening) is averaged out. Only the frames since the last delta left out count.
    fn grid_offset(&self, median: u64) -> i128 {
        let interval = i128::try_from(self.interval).unwrap_or(i128::MAX);
        let (mut back, mut units, mut sum, mut n) = (0i128, 0i128, 0i128, 1i128);
        let run = usize::from(self.warm_run).min(WARM);
        for &d in self.warm[WARM - run..].iter().rev() {
            let u = (d + median / 2) / median;
            if !(1..=MAX_UNITS).contains(&u) {
                break;
            }
            back += i128::from(d) << SHIFT;
            units += i128::from(u);
            // The frame `back` before the latest, against the grid point `units` before it.
            sum += units * interval - back;
            n += 1;
        }
        sum / n
    }

    /// Adds a frame to the least-squares line through (units, time) since the anchor,
    /// and takes its slope as the interval.
    fn refine(&mut self, units: u64, raw: u64) {
        if self.n >= REFINE {
            return;
        }
        self.units += units;
        self.n += 1;
        let (u, t) = (u128::from(self.units), u128::from(raw - self.anchor));
        self.sum_u += u;
        self.sum_uu += u * u;
        self.sum_t += t;
        self.sum_ut += u * t;
        // The interval changes only at 16, 32, 64, … frames: between, deltas are exactly equal.
        if self.n < FIRST_REFINE || !self.n.is_power_of_two() {
            return;
        }
        let n = u128::from(self.n);
        // slope = (n·Σut − Σu·Σt) / (n·Σuu − (Σu)²); both are ≥ 0 for increasing u and t
        // apart from noise, and the sums stay below 2^100 within REFINE frames.
        let den = (n * self.sum_uu).saturating_sub(self.sum_u * self.sum_u);
        let (a, b) = (n * self.sum_ut, self.sum_u * self.sum_t);
        if den == 0 || a <= b {
            return;
        }
        let slope = ((a - b) << SHIFT) / den;
        // A slope far off the current interval is noise from too few frames: keep the interval.
        if slope.abs_diff(self.interval) <= self.interval / 16 {
            self.interval = slope;
        }
    }
}

/// The interval `deltas` give (fixed point), and their median: the median tells how many
/// intervals each delta spans (a dropped frame spans two); the interval is then the deltas'
/// total over the intervals they span.
fn estimate(deltas: &[u64]) -> (u128, u64) {
    let mut sorted = [0; WARM];
    let sorted = &mut sorted[..deltas.len()];
    sorted.copy_from_slice(deltas);
    sorted.sort_unstable();
    let median = sorted[sorted.len() / 2];
    let (mut total, mut units) = (0u128, 0u128);
    for &d in &*sorted {
        let u = (d + median / 2) / median;
        if (1..=MAX_UNITS).contains(&u) {
            total += u128::from(d);
            units += u128::from(u);
        }
    }
    ((total << SHIFT) / units.max(1), median)
}

fn round_fp(x: u128) -> u128 {
    (x + (1 << (SHIFT - 1))) >> SHIFT
}

fn sat(x: u128) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}
