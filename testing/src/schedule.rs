//! Frame schedules: the `now`s a shell passes to the fold, as frame lengths.

use core::fmt;

use quickcheck::{Arbitrary, Gen};

use super::{IntoPeriod, KitError, fmt_hz, fmt_ms};
use tickfold_core::{Nanos, Period};

/// Refresh rates `Arbitrary` picks from, as exact `(num, den)` hertz: 30 to 360 Hz, NTSC's
/// 59.94 Hz included.
const REFRESH: [(u64, u64); 12] = [
    (30, 1),
    (48, 1),
    (50, 1),
    (60_000, 1_001),
    (60, 1),
    (75, 1),
    (90, 1),
    (120, 1),
    (144, 1),
    (165, 1),
    (240, 1),
    (360, 1),
];

/// Frames at least this long are printed as stalls.
const STALL_NS: i64 = 500_000_000;

/// A run of frames: each frame moves `now` forward (or, if negative, backwards) by its length
/// in nanoseconds. The fold starts at `Nanos(0)` and is stepped once per frame.
///
/// A schedule always has at least one frame. `now` saturates at 0 going backwards and at
/// `u64::MAX` going forwards. The optional refresh rate only labels the schedule (and tells
/// the printer which frames are plain vsync frames).
///
/// `Arbitrary` (for quickcheck) picks a refresh rate from 30, 48, 50, 59.94, 60, 75, 90, 120,
/// 144, 165, 240 and 360 Hz, a jitter amplitude (none, 20 µs, 100 µs, 0.5 ms or 2 ms) and 1 to
/// `Gen::size()` frames (uniformly): mostly vsync frames on the exact refresh grid plus jitter, and about
/// 4% each zero-length frames, time going backwards (1 µs to 20 ms) and missed vsyncs (2 to 8
/// periods), 2% hitches (20 to 250 ms) and 2% long stalls (0.5 to 5 s). Shrinking removes
/// frames (halves first, then one at a time), merges neighbours (which keeps the end time),
/// turns backwards frames into zero-length ones,
/// other frames into one exact refresh period, halves long ones and rounds to whole
/// milliseconds, so a minimal failing schedule is short and reads well.
///
/// `Display` and `Debug` print the frames in milliseconds with markers, for example
/// `Schedule @ 60 Hz, 4 frames, ends at 263.666666 ms: [16.666666, 0 (zero), -3 (backwards),
/// 250 (hitch)] ms`; the alternate form (`{:#}`) prints Rust code that rebuilds it.
///
/// # Examples
///
/// ```
/// use tickfold_testing::Schedule;
/// use tickfold_core::Nanos;
///
/// let s = Schedule::from_millis(&[16.0, 0.0, -3.0, 250.0])?;
/// assert_eq!(s.end(), Nanos(263_000_000)); // the latest `now`
/// assert_eq!(s.nows().collect::<Vec<_>>().len(), 4);
/// assert_eq!(s.to_string(), "Schedule, 4 frames, ends at 263 ms: [16, 0 (zero), -3 (backwards), 250 (hitch)] ms");
/// assert!(Schedule::from_nanos(vec![]).is_err());
/// # Ok::<(), tickfold_testing::KitError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Schedule {
    refresh: Option<Period>,
    frames: Vec<i64>,
}

impl Schedule {
    /// A schedule of frame lengths in nanoseconds; negative lengths move `now` backwards.
    ///
    /// # Errors
    ///
    /// [`KitError::EmptySchedule`] for no frames.
    pub fn from_nanos(frames: impl Into<Vec<i64>>) -> Result<Schedule, KitError> {
        let frames = frames.into();
        if frames.is_empty() {
            return Err(KitError::EmptySchedule);
        }
        Ok(Schedule {
            refresh: None,
            frames,
        })
    }

    /// A schedule of one frame.
    pub(crate) fn single(ns: i64) -> Schedule {
        Schedule {
            refresh: None,
            frames: vec![ns],
        }
    }

    /// A schedule of frame lengths in milliseconds, each rounded once to whole nanoseconds.
    ///
    /// # Errors
    ///
    /// [`KitError::EmptySchedule`] for no frames, [`KitError::InvalidFrame`] for a NaN or
    /// infinite frame.
    pub fn from_millis(frames: &[f64]) -> Result<Schedule, KitError> {
        let ns = frames
            .iter()
            .enumerate()
            .map(|(index, ms)| {
                let ns = (ms * 1e6).round();
                if ns.is_finite() && ns.abs() < 9.2e18 {
                    Ok(ns as i64)
                } else {
                    Err(KitError::InvalidFrame { index })
                }
            })
            .collect::<Result<Vec<i64>, KitError>>()?;
        Schedule::from_nanos(ns)
    }

    /// `frames` frames at exactly the refresh rate `rate`: frame *k* ends at ⌊(k+1)·period⌋ ns,
    /// so a 59.94 Hz schedule alternates 16,683,333 and 16,683,334 ns frames without drifting.
    ///
    /// # Errors
    ///
    /// [`KitError::EmptySchedule`] for 0 frames, [`KitError::Config`] for a zero rate.
    pub fn vsync(rate: impl IntoPeriod, frames: usize) -> Result<Schedule, KitError> {
        let rate = rate.into_tick_rate()?;
        if frames == 0 {
            return Err(KitError::EmptySchedule);
        }
        let frames = (0..frames as u64)
            .map(|k| {
                let len = rate.tick_start_nanos(k + 1) - rate.tick_start_nanos(k);
                i64::try_from(len).unwrap_or(i64::MAX)
            })
            .collect();
        Ok(Schedule {
            refresh: Some(rate),
            frames,
        })
    }

    /// This schedule labelled with a refresh rate (it changes no frame).
    #[must_use]
    pub fn with_refresh(mut self, rate: Period) -> Schedule {
        self.refresh = Some(rate);
        self
    }

    /// One frame per tick of `rate` up to `end`, each at ⌈k·dt⌉ (the first whole ns at which
    /// tick `k` has ended), so that a catch-up loop stepped on it runs exactly one update per
    /// step: the kit's reference run, against which every other schedule is compared. `None`
    /// when `end` is shorter than one tick.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Nanos, Period};
    /// use tickfold_testing::Schedule;
    ///
    /// let s = Schedule::one_per_tick(Period::from_hz(3)?, Nanos(1_000_000_000)).expect("3 ticks");
    /// assert_eq!(s.frames(), [333_333_334, 333_333_333, 333_333_333]);
    /// assert_eq!(Schedule::one_per_tick(Period::from_hz(3)?, Nanos(1_000)), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn one_per_tick(rate: Period, end: Nanos) -> Option<Schedule> {
        let mut prev = 0u64;
        let mut frames = Vec::new();
        for k in 1..=rate.ticks_in(end.0) {
            let at = rate.tick_start_nanos(k);
            let at = if rate.ticks_in(at) < k { at + 1 } else { at };
            frames.push(i64::try_from(at - prev).unwrap_or(i64::MAX));
            prev = at;
        }
        Schedule::from_nanos(frames).ok()
    }

    /// This schedule with one more frame of `ns` nanoseconds at the end.
    #[must_use]
    pub fn then(mut self, ns: i64) -> Schedule {
        self.frames.push(ns);
        self
    }

    /// The refresh rate label, if any.
    #[must_use]
    pub fn refresh(&self) -> Option<Period> {
        self.refresh
    }

    /// The frame lengths in nanoseconds.
    #[must_use]
    pub fn frames(&self) -> &[i64] {
        &self.frames
    }

    /// How many frames (steps) the schedule has; never 0.
    #[must_use]
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Always `false`: a schedule has at least one frame.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The `now` passed to each step, starting from `Nanos(0)`.
    pub fn nows(&self) -> impl Iterator<Item = Nanos> + '_ {
        self.frames.iter().scan(0u64, |now, &d| {
            *now = if d < 0 {
                now.saturating_sub(d.unsigned_abs())
            } else {
                now.saturating_add(d.unsigned_abs())
            };
            Some(Nanos(*now))
        })
    }

    /// The latest `now` of the schedule: where the fold's real time ends (backwards frames
    /// never move it back).
    #[must_use]
    pub fn end(&self) -> Nanos {
        self.nows().max().unwrap_or(Nanos::ZERO)
    }

    /// The steps at which `now` goes backwards (before the latest `now`), with how far.
    #[must_use]
    pub fn backwards(&self) -> Vec<(usize, Nanos)> {
        let mut high = 0u64;
        self.nows()
            .enumerate()
            .filter_map(|(i, n)| {
                let back = (n.0 < high).then(|| (i, Nanos(high - n.0)));
                high = high.max(n.0);
                back
            })
            .collect()
    }

    /// The refresh period's two whole-nanosecond lengths (floor and ceiling), if labelled.
    fn vsync_lengths(&self) -> Option<(i64, i64)> {
        let r = self.refresh?;
        let floor = i64::try_from(r.floor_nanos()).ok()?;
        let (num, den) = r.as_nanos_ratio();
        // A ceiling of i64::MAX + 1 ns is no frame length; the floor still is.
        Some((floor, floor.saturating_add(i64::from(num % den != 0))))
    }

    /// A marker for a frame, or "" for an ordinary one.
    fn marker(&self, ns: i64) -> &'static str {
        // In i128: 1.5 periods and 64 periods of a refresh near i64::MAX ns overflow an i64.
        let period = i128::from(self.vsync_lengths().map_or(16_666_667, |(_, c)| c));
        let wide = i128::from(ns);
        if ns == 0 {
            " (zero)"
        } else if ns < 0 {
            " (backwards)"
        } else if ns >= STALL_NS {
            " (stall)"
        } else if wide > period + period / 2 {
            let missed = self.vsync_lengths().is_some_and(|(f, c)| {
                (2..=64).any(|m| wide == m * i128::from(f) || wide == m * i128::from(c))
            });
            if missed {
                " (missed vsync)"
            } else {
                " (hitch)"
            }
        } else {
            ""
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "Schedule::from_nanos(vec!{:?})?", self.frames)?;
            if let Some(r) = self.refresh {
                let (num, den) = r.as_nanos_ratio();
                // A period of num/den ns is 1e9·den/num Hz.
                let (hz_num, hz_den) = (u128::from(den) * 1_000_000_000, u128::from(num));
                let (mut x, mut y) = (hz_num, hz_den);
                while y != 0 {
                    (x, y) = (y, x % y);
                }
                let (hz_num, hz_den) = (hz_num / x, hz_den / x);
                write!(
                    f,
                    ".with_refresh(Period::from_hz_ratio({hz_num}, {hz_den})?)"
                )?;
            }
            return Ok(());
        }
        f.write_str("Schedule")?;
        if let Some(r) = self.refresh {
            write!(f, " @ {} Hz", fmt_hz(r))?;
        }
        write!(
            f,
            ", {} frame{}, ends at {} ms: [",
            self.frames.len(),
            if self.frames.len() == 1 { "" } else { "s" },
            fmt_ms(i128::from(self.end().0))
        )?;
        for (i, &ns) in self.frames.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}{}", fmt_ms(i128::from(ns)), self.marker(ns))?;
        }
        f.write_str("] ms")
    }
}

impl fmt::Debug for Schedule {
    /// The same as `Display`: quickcheck prints failing arguments with `Debug`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Every byte value, for drawing uniform bytes with `Gen::choose`.
const BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// A uniform `u64`. (`u64::arbitrary` returns 0, 1 or `u64::MAX` one time in ten, which
/// would skew the mix of frame kinds.)
fn uniform(g: &mut Gen) -> u64 {
    (0..8).fold(0, |acc, _| {
        acc << 8 | u64::from(*g.choose(&BYTES).unwrap_or(&0))
    })
}

/// A uniform integer in `lo..=hi` (for `hi - lo` far below `u64::MAX`).
fn between(g: &mut Gen, lo: i64, hi: i64) -> i64 {
    let width = (hi - lo) as u64 + 1;
    lo + (uniform(g) % width) as i64
}

impl Arbitrary for Schedule {
    fn arbitrary(g: &mut Gen) -> Schedule {
        let &(num, den) = g.choose(&REFRESH).unwrap_or(&(60, 1));
        let rate = Period::from_hz_ratio(num, den).unwrap_or(Period::ONE_SECOND);
        let jitter = *g
            .choose(&[0, 20_000, 100_000, 500_000, 2_000_000])
            .unwrap_or(&0);
        let len = 1 + (uniform(g) % g.size().max(1) as u64) as usize;
        // Vsync frames land on the exact grid k·period plus a per-frame timing error, so
        // jitter does not accumulate.
        let grid = |k: u64| i64::try_from(rate.tick_start_nanos(k)).unwrap_or(i64::MAX);
        let period = grid(1);
        let (mut k, mut err) = (0u64, 0i64);
        let mut frames = Vec::with_capacity(len);
        for _ in 0..len {
            let frame = match uniform(g) % 100 {
                0..4 => 0,
                4..8 => -between(g, 1_000, 20_000_000),
                8..16 => {
                    // Missed vsyncs: the frame ends on a later grid line.
                    let m = if uniform(g) % 2 == 0 {
                        uniform(g) % 7 + 2
                    } else {
                        1
                    };
                    let e = between(g, -jitter, jitter);
                    let d = grid(k + m) - grid(k) + e - err;
                    k += m;
                    err = e;
                    d
                }
                16..18 => between(g, 20, 250) * 1_000_000 + between(g, 0, period),
                18..20 => between(g, 500, 5_000) * 1_000_000,
                _ => {
                    let e = between(g, -jitter, jitter);
                    let d = grid(k + 1) - grid(k) + e - err;
                    k += 1;
                    err = e;
                    d
                }
            };
            frames.push(frame);
        }
        Schedule {
            refresh: Some(rate),
            frames,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Schedule>> {
        let mut out = Vec::new();
        let n = self.frames.len();
        let with = |frames: Vec<i64>| Schedule {
            refresh: self.refresh,
            frames,
        };
        if n > 1 {
            // Halves, then quarters, then single frames: the removals come first so the
            // schedule gets short before its frames get simple.
            let mut chunk = n / 2;
            while chunk >= 1 {
                let mut start = 0;
                while start < n {
                    let end = (start + chunk).min(n);
                    if end - start < n {
                        let mut f = self.frames[..start].to_vec();
                        f.extend_from_slice(&self.frames[end..]);
                        out.push(with(f));
                    }
                    start = end;
                }
                if chunk == 1 {
                    break;
                }
                chunk = (chunk / 2).max(1);
                if n > 64 && chunk < n / 16 {
                    // Long schedules: stop at sixteenths; the next round starts shorter.
                    break;
                }
            }
        }
        // Merging two neighbours keeps the end time: what a determinism failure depends on.
        for i in 0..n.saturating_sub(1) {
            let mut f = self.frames.clone();
            let merged = f[i].saturating_add(f[i + 1]);
            f.splice(i..i + 2, [merged]);
            out.push(with(f));
        }
        let vsync = self.vsync_lengths();
        for (i, &x) in self.frames.iter().enumerate() {
            for y in simpler(x, vsync) {
                let mut f = self.frames.clone();
                f[i] = y;
                out.push(with(f));
            }
        }
        Box::new(out.into_iter())
    }
}

/// Simpler values for one frame, each strictly "simpler" so shrinking terminates: backwards
/// becomes zero, anything else one refresh period, long frames are halved, and odd lengths
/// are rounded to whole milliseconds.
fn simpler(x: i64, vsync: Option<(i64, i64)>) -> Vec<i64> {
    let mut out = Vec::new();
    let is_vsync = vsync.is_some_and(|(f, c)| x == f || x == c);
    if x < 0 {
        out.push(0);
        if x <= -2_000_000 {
            out.push(x / 2_000_000 * 1_000_000);
        }
        let r = x.saturating_sub(500_000) / 1_000_000 * 1_000_000;
        if r != x && r != 0 && r != x / 2_000_000 * 1_000_000 {
            out.push(r);
        }
    } else if x > 0 && !is_vsync {
        let long = vsync.map_or(2_000_000, |(_, c)| c.saturating_mul(2));
        if let Some((f, _)) = vsync {
            out.push(f);
        }
        if x > long {
            out.push(x / 2);
        }
        let r = x.saturating_add(500_000) / 1_000_000 * 1_000_000;
        if r != x && r != 0 && vsync.is_none_or(|(f, c)| r != f && r != c) {
            out.push(r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn vsync_at_59_94_stays_on_the_exact_grid() {
        let s = Schedule::vsync((60_000u64, 1_001u64), 60_000).unwrap();
        // 60,000 frames at 59.94 Hz are exactly 1,001 s.
        assert_eq!(s.end(), Nanos::from_secs(1_001));
        assert!(
            s.frames()
                .iter()
                .all(|&f| f == 16_683_333 || f == 16_683_334)
        );
        assert_eq!(s.marker(16_683_333), "");
        assert_eq!(s.marker(2 * 16_683_334), " (missed vsync)");
    }

    #[test]
    fn arbitrary_schedules_cover_every_kind_of_frame() {
        let mut g = Gen::from_size_and_seed(100, 7);
        let mut kinds = [0usize; 5];
        let mut rates = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let s = Schedule::arbitrary(&mut g);
            assert!(!s.is_empty() && s.len() <= 100);
            rates.insert(fmt_hz(s.refresh().unwrap()));
            for &f in s.frames() {
                let m = s.marker(f);
                let i = [" (zero)", " (backwards)", " (stall)", " (missed vsync)", ""]
                    .iter()
                    .position(|k| *k == m)
                    .unwrap_or(4);
                kinds[i] += 1;
            }
        }
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
        assert_eq!(rates.len(), REFRESH.len(), "{rates:?}");
        assert!(rates.contains("59.94") && rates.contains("30") && rates.contains("360"));
    }

    #[test]
    fn shrinking_terminates_and_gets_simpler() {
        // Shrink greedily towards a failure "some frame goes backwards" and check the result.
        let mut g = Gen::from_size_and_seed(100, 3);
        let mut s = loop {
            let s = Schedule::arbitrary(&mut g);
            if !s.backwards().is_empty() && s.len() > 20 {
                break s;
            }
        };
        let fails = |s: &Schedule| !s.backwards().is_empty();
        let mut rounds = 0;
        while let Some(next) = s.shrink().find(fails) {
            s = next;
            rounds += 1;
            assert!(rounds < 10_000, "shrinking does not terminate");
        }
        assert_eq!(s.len(), 2, "{s}");
        assert!((-1_000_000..0).contains(&s.frames()[1]), "{s}");
        assert!(s.to_string().contains(" (backwards)]"), "{s}");
    }

    #[test]
    fn display_survives_extreme_refresh_periods() {
        // Periods from 1 ns to u64::MAX ns (0 is no rate at all), whole and fractional, around
        // i64::MAX where the vsync lengths stop fitting a frame, with frames at the i64 edges.
        let max = i64::MAX as u64;
        let rates = [
            (Period::from_hz(1_000_000_000).unwrap(), "1000000000"),
            (
                Period::from_duration(Duration::from_nanos(2)).unwrap(),
                "500000000",
            ),
            (
                Period::from_duration(Duration::from_nanos(max)).unwrap(),
                "1.084e-10",
            ),
            // i64::MAX + 1/2 ns: the ceiling no longer fits an i64.
            (
                Period::from_secs_ratio(2 * max + 1, 2_000_000_000).unwrap(),
                "1.084e-10",
            ),
            (
                Period::from_duration(Duration::from_nanos(max + 1)).unwrap(),
                "1.084e-10",
            ),
            (
                Period::from_duration(Duration::from_nanos(u64::MAX)).unwrap(),
                "5.421e-11",
            ),
        ];
        assert_eq!(
            Period::from_duration(Duration::ZERO),
            Err(tickfold_core::RateError::Zero)
        );
        let frames = [0, 1, -1, 16_666_667, i64::MAX / 2, i64::MAX, i64::MIN];
        for (rate, hz) in rates {
            let s = Schedule::from_nanos(frames).unwrap().with_refresh(rate);
            let text = s.to_string();
            assert!(
                text.starts_with(&format!("Schedule @ {hz} Hz, 7 frames")),
                "{text}"
            );
            assert!(text.contains("9223372036854.775807"), "{text}");
            assert!(format!("{s:#}").contains(".with_refresh(Period::from_hz_ratio("));
            for f in frames {
                // Every frame gets some marker without overflowing.
                let _ = s.marker(f);
            }
            assert_eq!(s.marker(i64::MIN), " (backwards)");
            assert_eq!(s.marker(0), " (zero)");
            assert_eq!(s.marker(i64::MAX), " (stall)");
            // Shrinking the same extremes stays in range too.
            assert!(s.shrink().count() > 0);
        }
        // 1 ns vsync: a frame of 64 periods is a missed vsync, of 65 a hitch.
        let fast = Schedule::from_nanos([64, 65])
            .unwrap()
            .with_refresh(rates[0].0);
        assert_eq!(fast.marker(64), " (missed vsync)");
        assert_eq!(fast.marker(65), " (hitch)");
    }

    #[test]
    fn alternate_display_is_code() {
        let s = Schedule::from_nanos(vec![5, -2]).unwrap();
        assert_eq!(format!("{s:#}"), "Schedule::from_nanos(vec![5, -2])?");
        assert_eq!(
            Schedule::vsync(0u64, 3),
            Err(KitError::Config(tickfold_core::ConfigError::Rate(
                tickfold_core::RateError::Zero
            )))
        );
        assert_eq!(Schedule::vsync(60u64, 0), Err(KitError::EmptySchedule));
        assert_eq!(
            Schedule::from_millis(&[1.0, f64::NAN]),
            Err(KitError::InvalidFrame { index: 1 })
        );
    }
}
