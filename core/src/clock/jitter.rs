//! Hysteresis against frame-time jitter: which frame a tick runs in, decided from the frames'
//! typical update pattern instead of from one noisy timestamp.
//!
//! A plain accumulator runs a tick in the first frame that reaches its due time. When a frame
//! lands within its jitter of a tick boundary, the tick falls into the frame before or after at
//! random: 0 and 2 updates at matched rates, two updates bunched into adjacent frames at 60 Hz
//! ticks on 144 Hz frames.
//!
//! The idea comes from Godot's `physics_jitter_fix` (`main/main_timer_sync.cpp`). Godot keeps,
//! for the last 12 frames, the range of physics-step totals that has been typical over the
//! last 1, 2, …, 12 frames, and from it the range the coming frame may run to keep every one
//! of those totals typical. When the plain accumulator's count falls outside that range, Godot
//! takes the nearest count inside it, as long as its accumulator is within `physics_jitter_fix`
//! of a step of allowing that count; otherwise it takes the plain count and widens the typical
//! ranges to include it. It then adjusts the frame's process delta (carrying the difference to
//! later frames, within `physics_jitter_fix` of a step) so that its interpolation fraction stays
//! in `[0, 1]`: a tick moves by up to `physics_jitter_fix` of a step (half a step by default),
//! and the game's clock moves with it.
//!
//! Here the pattern follows from the average frame length `P` and the exact tick length `dt`
//! (any `L` consecutive frames run `⌊L·P/dt⌋` or `⌈L·P/dt⌉` updates), checked against the
//! counts of the last few frames. Two rules keep the nudge from making rendering worse than no
//! hysteresis:
//!
//! * a tick only moves when the count the clock gives is outside the typical range, and then
//!   only to the nearest typical count;
//! * it moves by at most the **budget**: the smaller of the configured band (`fraction`·dt)
//!   and the frame jitter measured so far. Virtual time is not moved (unlike Godot's clock),
//!   and the render's alpha is clamped to `[0, 1]`, so a tick run `e` early or late shows the
//!   state `e` away from the clock; keeping `e` within the measured jitter keeps that error
//!   as small as the jitter itself, and perfectly regular frames are never nudged at all.
//!
//! The jitter is measured where it matters, on the frames' timestamps: how far each frame
//! lands from a steady frame grid (the average length, phase-locked to the frames), the
//! largest such deviation over the last few hundred frames. A tick that a frame `n` ns early
//! leaves undue must move `n` to stay in the pattern, and `n` is that deviation. (Measuring
//! the jitter on frame *lengths* instead and forgetting it frame by frame, as before, let the
//! budget sink below the deviations a ±50 µs display keeps producing, so at matched rates some
//! frames still ran 0 and 2 updates where Godot runs 1.)
//!
//! Everything is integer nanoseconds and update counts, so the decision is a pure function
//! of the frames seen.

/// Frame lengths measured before the budget starts (Godot's `CONTROL_STEPS`); until then
/// ticks run as without hysteresis.
const WINDOW: usize = 12;

/// The jitter is the largest deviation of a frame from the frame grid over the last `SPAN` to
/// `2·SPAN` frames (two windows of `SPAN` frames, the older one dropped as a new one starts):
/// long enough to hold the extremes of the frames' own noise, short enough to forget a noisy
/// spell within a few seconds.
const SPAN: u8 = 128;

/// How slowly the frame grid follows the frames' phase: after a running mean over the first
/// frames since the grid was anchored, it moves `1/LOCK` of the way towards each frame.
const LOCK: u8 = 16;

/// Frames since the grid was anchored before deviations count: the first few are measured
/// against a grid that has barely seen the frames (the deviation of the `k`-th is measured
/// against the mean phase of the `k` before it).
const SETTLE: u8 = 6;

/// Fixed-point scale of the average frame length.
const FIXED: u64 = 256;

/// The average frame length follows each new frame by `1/FOLLOW` of the difference.
const FOLLOW: u8 = 128;

/// A window's average count within `1/TOLERANCE` of a whole number counts as that number.
const TOLERANCE: u128 = 16;

fn sat(x: u128) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

/// The longest window, in frames, whose count the coming frame must keep typical.
const SHORT: usize = WINDOW / 2;

/// The hysteresis state of one clock: its recent update counts and the frame jitter. Counts
/// are `u16` and saturate: with thousands of updates per frame the pattern means nothing, and
/// the budget still bounds every move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Snap {
    /// `recent[i]`: updates run in the last `i + 1` frames.
    recent: [u16; SHORT - 1],
    /// Virtual time of the latest frame (`u64::MAX` before the first).
    last_v: u64,
    /// The largest deviation (virtual ns) from the frame grid in the current window.
    spread: u64,
    /// The same over the previous window.
    #[cfg_attr(feature = "serde", serde(default))]
    spread_old: u64,
    /// Frames measured in the current window.
    #[cfg_attr(feature = "serde", serde(default))]
    window: u8,
    /// The latest frame's deviation from the frame grid, in 1/[`FIXED`] ns.
    #[cfg_attr(feature = "serde", serde(default))]
    phase: i64,
    /// Frames since the frame grid was anchored (saturates at [`LOCK`]); 0 after a hitch.
    #[cfg_attr(feature = "serde", serde(default))]
    anchor: u8,
    /// The remainder (1/[`FIXED`] ns) of the average's latest step, carried to the next.
    #[cfg_attr(feature = "serde", serde(default))]
    carry: i8,
    /// Average frame length in 1/[`FIXED`] ns, 0 before the first frame length.
    period: u64,
    /// Frame lengths averaged so far (saturates at [`FOLLOW`]).
    lengths: u8,
    /// Frames in a row far off the average length.
    outliers: u8,
    /// The coming frame's typical update counts (see [`Snap::bounds`]).
    lo: u32,
    hi: u32,
}

impl Snap {
    /// No history yet: the budget is 0, so nothing moves until frames show jitter.
    pub(crate) fn new() -> Snap {
        Snap {
            recent: [0; SHORT - 1],
            last_v: u64::MAX,
            spread: 0,
            spread_old: 0,
            window: 0,
            phase: 0,
            anchor: 0,
            carry: 0,
            period: 0,
            lengths: 0,
            outliers: 0,
            lo: 0,
            hi: u32::MAX,
        }
    }

    /// How far (ns) a tick may move in time: the band, but no more than the measured jitter;
    /// nothing before [`WINDOW`] frame lengths.
    #[inline]
    pub(crate) fn budget(&self, band: u64) -> u64 {
        if usize::from(self.lengths) < WINDOW {
            return 0;
        }
        self.spread.max(self.spread_old).min(band)
    }

    /// The counts the coming frame may run and stay typical. Frames of the average length `P`
    /// at ticks of `dt` run `r = P/dt` updates each on average, and a steady pattern runs
    /// `⌊L·r⌋` or `⌈L·r⌉` in any `L` consecutive frames (just `L·r` when that is within
    /// [`TOLERANCE`] of a whole number, as at matched rates). The bounds keep every window of
    /// up to [`SHORT`] frames that ends with the coming frame in that range; when the windows
    /// disagree (the pattern is changing) the shortest ones win. `(num, den)` is `dt` in ns.
    fn bounds(&self, (num, den): (u64, u64)) -> (u64, u64) {
        let (mut lo, mut hi) = (0, u64::MAX);
        if self.period == 0 {
            return (lo, hi);
        }
        // L·r = L·period·den / (FIXED·num).
        let d = u128::from(FIXED) * u128::from(num);
        let per = u128::from(self.period) * u128::from(den);
        for len in 1..=SHORT {
            let x = per * len as u128;
            let near = (x + d / 2) / d;
            let (wlo, whi) = if x.abs_diff(near * d) * TOLERANCE <= d {
                (near, near)
            } else {
                (x / d, x.div_ceil(d))
            };
            let (wlo, whi) = (sat(wlo), sat(whi));
            let had = if len == 1 {
                0
            } else {
                u64::from(self.recent[len - 2])
            };
            if whi < had {
                break;
            }
            let (need_lo, need_hi) = (wlo.saturating_sub(had), whi - had);
            if need_lo > hi || need_hi < lo {
                break;
            }
            lo = lo.max(need_lo);
            hi = hi.min(need_hi);
        }
        (lo, hi)
    }

    /// Whether the frame at virtual time `v`, having run `count` updates, runs the next tick,
    /// due at `due`. Inside the typical bounds a tick runs when it is due, as without
    /// hysteresis; below them it may run up to the budget early, above them it waits until it
    /// is later than the budget.
    #[inline]
    pub(crate) fn fires(&self, count: u32, v: u64, due: u64, band: u64) -> bool {
        let (count, budget) = (u64::from(count), self.budget(band));
        if v >= due {
            count < u64::from(self.hi) || v >= due.saturating_add(budget)
        } else {
            count < u64::from(self.lo) && v.saturating_add(budget) >= due
        }
    }

    /// When the coming frame runs the next tick, due at `due`: up to the budget early if the
    /// pattern expects an update, up to the budget late if it expects none.
    #[inline]
    pub(crate) fn wake(&self, due: u64, band: u64) -> u64 {
        let budget = self.budget(band);
        if self.lo >= 1 {
            due.saturating_sub(budget)
        } else if self.hi == 0 {
            due.saturating_add(budget)
        } else {
            due
        }
    }

    /// Records a finished step at virtual time `v` that ran `count` updates, on a clock whose
    /// tick lasts `dt = num/den` ns. A step in which no time passed (a backlog step) joins the
    /// previous frame.
    pub(crate) fn record(&mut self, v: u64, count: u32, band: u64, dt: (u64, u64)) {
        let count = u16::try_from(count).unwrap_or(u16::MAX);
        if self.last_v != u64::MAX && v <= self.last_v {
            for r in &mut self.recent {
                *r = r.saturating_add(count);
            }
        } else {
            self.record_frame(v, count, band);
        }
        let (lo, hi) = self.bounds(dt);
        self.lo = u32::try_from(lo).unwrap_or(u32::MAX);
        self.hi = u32::try_from(hi).unwrap_or(u32::MAX);
    }

    /// The deviation of a frame `fixed` (1/[`FIXED`] ns) after the previous one from the
    /// frame grid: where the grid expects it (the previous frame's place on the grid, one
    /// average length on) against where it is. The largest deviation in the window is the
    /// jitter. Deviations of 1 ns are the rounding of whole-ns timestamps, not jitter.
    fn measure(&mut self, fixed: u64, band: u64) {
        self.anchor = self.anchor.saturating_add(1).min(LOCK);
        let lock = i64::from(self.anchor);
        let length = i64::try_from(fixed).unwrap_or(i64::MAX);
        let average = i64::try_from(self.period).unwrap_or(i64::MAX);
        // The grid moves 1/lock of the way to the previous frame, so that frame's deviation
        // carries over less that part.
        self.phase = length
            .saturating_sub(average)
            .saturating_add(self.phase - self.phase / lock);
        if self.anchor < SETTLE {
            return;
        }
        let jitter = (self.phase.unsigned_abs() / FIXED).saturating_sub(1);
        self.spread = self.spread.max(jitter.min(band));
        self.window += 1;
        if self.window >= SPAN {
            self.spread_old = self.spread;
            self.spread = 0;
            self.window = 0;
        }
    }

    /// A new frame: the jitter, the average length and the recent counts.
    fn record_frame(&mut self, v: u64, count: u16, band: u64) {
        if self.last_v != u64::MAX {
            let fixed = (v - self.last_v).saturating_mul(FIXED);
            let off = fixed.abs_diff(self.period);
            if off.saturating_mul(2) >= self.period {
                // Off by half the average or more: a hitch or a dropped frame, which changes
                // neither the budget nor the average, unless it lasts (the refresh rate
                // changed): then the average starts over. The frame grid is anchored anew
                // at this frame (its place on the old grid is unknown).
                self.outliers = self.outliers.saturating_add(1);
                self.anchor = 0;
                if self.period == 0 || usize::from(self.outliers) >= WINDOW {
                    *self = Snap {
                        period: fixed,
                        lengths: 1,
                        recent: self.recent,
                        ..Snap::new()
                    };
                }
            } else {
                self.outliers = 0;
                self.measure(fixed, band);
                // A running mean at first, then an exponential one. The part of a step below
                // the fixed-point unit is carried to the next, so the mean has no bias (which
                // would show as a drift of the frames from the grid).
                self.lengths = self.lengths.saturating_add(1).min(FOLLOW);
                let n = i128::from(self.lengths);
                let d = i128::from(fixed) - i128::from(self.period) + i128::from(self.carry);
                self.carry = i8::try_from(d % n).unwrap_or(0);
                self.period = u64::try_from(i128::from(self.period) + d / n).unwrap_or(0);
            }
        }
        self.last_v = v;
        for i in (0..SHORT - 2).rev() {
            self.recent[i + 1] = self.recent[i].saturating_add(count);
        }
        self.recent[0] = count;
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::vec::Vec;

    use super::*;

    #[test]
    fn a_steady_pattern_is_consistent_and_bounds_the_next_count() {
        // One update per frame for a while: the next frame should run exactly one.
        let mut s = Snap::new();
        for k in 0..20u64 {
            s.record(k * 1_000, 1, 500, (1_000, 1));
        }
        assert_eq!((s.lo, s.hi), (1, 1));
        // Five ticks every twelve frames (60 Hz ticks, 144 Hz frames): the bounds always admit
        // the steady count, and never a second update right after one.
        let mut s = Snap::new();
        let steady = |k: u64| (k + 1) * 5 / 12 - k * 5 / 12;
        for k in 0..60u64 {
            if k > 1 {
                let (lo, hi) = (u64::from(s.lo), u64::from(s.hi));
                assert!(lo <= steady(k) && steady(k) <= hi, "frame {k}: {lo}..={hi}");
                assert!(steady(k - 1) == 0 || hi == 0, "frame {k}: {lo}..={hi}");
            }
            s.record(k * 1_200, steady(k) as u32, 500, (2_880, 1));
        }
    }

    /// `wake` is not a second rule: it is the first time at which `fires` runs the tick in a
    /// step that has run nothing yet, whatever the frames seen (the step's deadline and what a
    /// step at that deadline does agree).
    #[test]
    fn wake_is_the_first_time_the_rule_fires() {
        use quickcheck::{QuickCheck, TestResult};
        fn prop(frames: Vec<(u16, u8)>, band: u16, due: u32) -> TestResult {
            let mut s = Snap::new();
            let mut v = 0u64;
            for (len, count) in frames {
                // Jittered frames around 1 µs, now and then a step at the same time.
                v += u64::from(len % 400) + if len % 7 == 0 { 0 } else { 800 };
                s.record(v, u32::from(count % 4), u64::from(band), (1_000, 1));
                let due = v + u64::from(due % 3_000);
                let band = u64::from(band);
                let w = s.wake(due, band);
                if !s.fires(0, w, due, band) || (w > 0 && s.fires(0, w - 1, due, band)) {
                    return TestResult::error(format!("{s:?}: due {due}, wake {w}"));
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(2_000)
            .quickcheck(prop as fn(Vec<(u16, u8)>, u16, u32) -> TestResult);
    }

    /// A 60 Hz display whose timestamps jitter uniformly by ±50 µs: once the first window is
    /// measured the budget covers every frame's deviation from its exact time (a tick such a
    /// frame leaves undue or makes due can move into the pattern), and after a few windows it
    /// stays less than half the amplitude above it.
    #[test]
    fn the_budget_covers_the_jitter_of_a_display() {
        let (amp, band) = (50_000u64, 8_000_000);
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut s = Snap::new();
        for k in 1..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = (x % (2 * amp + 1)) as i64 - amp as i64;
            let budget = s.budget(band);
            if k > 200 {
                assert!(
                    budget >= n.unsigned_abs(),
                    "frame {k}: {n} ns, budget {budget}"
                );
            }
            if k > 1_000 {
                assert!(budget <= amp * 3 / 2, "frame {k}: budget {budget}");
            }
            s.record(
                (k * 16_666_667).wrapping_add_signed(n),
                1,
                band,
                (16_666_667, 1),
            );
        }
    }

    #[test]
    fn regular_frames_give_no_budget() {
        let mut s = Snap::new();
        for k in 0..50u64 {
            s.record(k * 1_000, 1, 500, (1_000, 1));
        }
        assert_eq!(s.budget(500), 0);
    }

    #[test]
    fn the_budget_follows_the_jitter_and_never_exceeds_the_band() {
        let mut s = Snap::new();
        let lens = [1_000u64, 1_060, 940, 1_000, 1_050];
        let mut v = 0;
        for len in lens.iter().cycle().take(40) {
            v += len;
            s.record(v, 1, 10_000, (1_000, 1));
        }
        assert!(
            (40..=70).contains(&s.budget(10_000)),
            "{}",
            s.budget(10_000)
        );
        assert_eq!(s.budget(7), 7);
    }
}
