//! The same schedules through every loop, compared for behaviour: steps-per-frame histograms
//! under jitter, drift of the tick grid after an hour, and a 5 s stall.

use std::time::{Duration, Instant};

use event_loop::{EventSettings, Events as PistonEvents};
use input::{Event as PistonEvent, Loop};
use window::{NoWindow, WindowSettings};

use crate::drivers::{Driver, TICK_HZ};
use tickfold_testing::SplitMix64;

/// Frames in a histogram run: 10 minutes at 60 Hz.
pub const HIST_FRAMES: u64 = 36_000;
/// Jitter amplitude: each frame lands uniformly within ±50 µs of its slot.
pub const JITTER_NS: u64 = 50_000;
/// One hour of ticks at 60 Hz.
pub const HOUR_TICKS: u64 = 216_000;
/// The stall.
pub const STALL: Duration = Duration::from_secs(5);

/// A frame rate as an exact period `num/den` ns.
#[derive(Copy, Clone, Debug)]
pub struct FrameRate {
    /// Period numerator, ns.
    pub num: u64,
    /// Period denominator.
    pub den: u64,
}

/// 60 Hz frames.
pub const HZ_60: FrameRate = FrameRate {
    num: 1_000_000_000,
    den: 60,
};
/// NTSC's 59.94 Hz (60000/1001) frames.
pub const HZ_59_94: FrameRate = FrameRate {
    num: 1_001_000_000_000,
    den: 60_000,
};

/// The frame times of a jittered run: frame `k` (1-based) at `k·period ± 50 µs`, the same
/// sequence for every loop.
pub fn jittered(rate: FrameRate, frames: u64, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    (1..=frames)
        .map(|k| {
            let slot = k * rate.num / rate.den;
            let j = rng.next_u64() % (2 * JITTER_NS + 1);
            slot + j - JITTER_NS
        })
        .collect()
}

/// A browser's frame stamps: `requestAnimationFrame` jitters around the refresh by up to
/// ±1 ms.
pub const WEB_JITTER_NS: u64 = 1_000_000;
/// `performance.now()` without cross-origin isolation is coarsened to 100 µs.
pub const WEB_GRAIN_NS: u64 = 100_000;

/// Browser-like frame times: frame `k` (1-based) at `k·period ± 1 ms` (uniform), coarsened to
/// 100 µs, the same sequence for every loop.
pub fn web(rate: FrameRate, frames: u64, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    (1..=frames)
        .map(|k| {
            let slot = k * rate.num / rate.den + WEB_JITTER_NS;
            let j = rng.next_u64() % (2 * WEB_JITTER_NS + 1);
            (slot + j - 2 * WEB_JITTER_NS) / WEB_GRAIN_NS * WEB_GRAIN_NS
        })
        .collect()
}

/// `times` through tickfold's `DeltaSmoother` (the frame times a smoothing shell hands the fold).
pub fn smoothed(times: &[u64]) -> Vec<u64> {
    let mut s = tickfold::DeltaSmoother::new();
    times
        .iter()
        .map(|&t| s.smooth(tickfold::Nanos(t)).0)
        .collect()
}

/// Frames with 0, 1, 2 and 3+ updates, and the updates run.
#[derive(Copy, Clone, Debug, Default)]
pub struct Histogram {
    /// Frames by update count: 0, 1, 2, 3 or more.
    pub frames: [u64; 4],
    /// Updates run in total.
    pub updates: u64,
}

impl Histogram {
    /// Frames that ran 0 or 2+ updates.
    pub fn irregular(&self) -> u64 {
        self.frames[0] + self.frames[2] + self.frames[3]
    }
}

/// Runs `times` through `d` and counts updates per frame.
pub fn histogram(d: &mut impl Driver, times: &[u64]) -> Histogram {
    let mut h = Histogram::default();
    for &t in times {
        let u = d.frame(t).updates;
        h.frames[u.min(3) as usize] += 1;
        h.updates += u;
    }
    h
}

/// The tick grid after one hour.
#[derive(Copy, Clone, Debug)]
pub struct Drift {
    /// Updates run by the frame at exactly 3600 s.
    pub ticks_run: u64,
    /// When the loop's own grid has tick 216,000 end, less 3600 s, in ns.
    pub drift_ns: f64,
}

/// Runs one hour of 60 Hz frames (frame `k` at `⌊k·10⁹/60⌋` ns, the last at exactly 3600 s).
pub fn hour(d: &mut impl Driver) -> Drift {
    let frames = 3600 * 60;
    for k in 1..=frames {
        d.frame(k * 1_000_000_000 / 60);
    }
    let g = d.grid_state(HOUR_TICKS);
    Drift {
        ticks_run: g.ticks_run,
        drift_ns: g.ahead_ns,
    }
}

/// What a loop did about a stall.
#[derive(Clone, Debug)]
pub struct StallReport {
    /// Updates in the frame after the stall and the next few frames.
    pub after: Vec<u64>,
    /// Updates in all frames from the stall on (the catch-up work).
    pub work: u64,
    /// Ticks that were due by the end but never ran and never will (measured).
    pub lost: u64,
    /// Ticks the loop reported as dropped.
    pub reported: u64,
}

/// The fake-clock stall: 1 s of 60 Hz frames at mid-tick, then no frame for 5 s, then 2 s of
/// frames again. Frame `k` at `k/60 s + ½ tick`; frames 61..=360 never happen, so frame 361
/// comes 5 s + 1/60 s after frame 60.
pub fn stall(d: &mut impl Driver) -> StallReport {
    let at = |k: u64| k * 1_000_000_000 / 60 + 1_000_000_000 / 120;
    let skipped = STALL.as_secs() * TICK_HZ;
    for k in 1..=TICK_HZ {
        d.frame(at(k));
    }
    let (first, last) = (TICK_HZ + skipped + 1, 3 * TICK_HZ + skipped);
    let mut report = StallReport {
        after: Vec::new(),
        work: 0,
        lost: 0,
        reported: 0,
    };
    for k in first..=last {
        let f = d.frame(at(k));
        if report.after.len() < 4 {
            report.after.push(f.updates);
        }
        report.work += f.updates;
        report.reported += f.reported_dropped;
    }
    // Ticks due by the last frame on an exact 60 Hz grid, against ticks run: by then every
    // loop has long caught up, so the difference is what was thrown away.
    let wall = at(last);
    let due = wall * TICK_HZ / 1_000_000_000;
    let run = d.grid_state(due).ticks_run;
    report.lost = due.saturating_sub(run);
    report
}

/// Piston's normal (not bench) mode on the real clock, since its bench mode has no clock to
/// stall: 60 updates and 60 frames per second, a 5 s `thread::sleep` inside an update after
/// 1 s, then 1 s more. Takes about 7 s of real time.
pub fn piston_real_stall() -> StallReport {
    let settings = EventSettings {
        ups: TICK_HZ,
        max_fps: TICK_HZ,
        ..EventSettings::new()
    };
    let mut window = NoWindow::new(&WindowSettings::new("peers", [64, 64]));
    let start = Instant::now();
    let mut events = PistonEvents::new(settings);
    let (mut current, mut total) = (0u64, 0u64);
    let mut stalled_at: Option<u64> = None;
    let mut report = StallReport {
        after: Vec::new(),
        work: 0,
        lost: 0,
        reported: 0,
    };
    let mut frames_after = 0u64;
    while let Some(e) = events.next(&mut window) {
        match e {
            PistonEvent::Loop(Loop::Update(_)) => {
                current += 1;
                total += 1;
                if stalled_at.is_none() && start.elapsed() >= Duration::from_secs(1) {
                    std::thread::sleep(STALL);
                    stalled_at = Some(total);
                }
            }
            PistonEvent::Loop(Loop::Render(_)) => {
                if let Some(before) = stalled_at {
                    frames_after += 1;
                    if frames_after == 1 {
                        // The update that stalled belongs to the frame before; count what
                        // ran after it.
                        current = total - before;
                    }
                    if report.after.len() < 4 {
                        report.after.push(current);
                    }
                    if frames_after >= TICK_HZ {
                        break;
                    }
                }
                current = 0;
            }
            _ => {}
        }
    }
    let wall = start.elapsed();
    let due = (wall.as_nanos() * u128::from(TICK_HZ) / 1_000_000_000) as u64;
    report.work = total - stalled_at.unwrap_or(total);
    report.lost = due.saturating_sub(total);
    report
}
