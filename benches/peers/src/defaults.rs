//! Defaults against defaults: what each loop does at 60 Hz ticks when nobody tunes it, on the
//! same frame schedules, in one run. tickfold appears as the bare fold (`LoopConfig::new`), as
//! the runner a vsync-paced game builds (`Runner::new(state, clock, NoSleep)`) and as the web
//! shell (`WebLoop::new`), each with its defaults as they are now and with its smoothing turned
//! off (the defaults before issue 43's item 7); beside them a hand-written accumulator as in
//! Fiedler's "Fix Your Timestep!", `game-loop`, `bevy_time`, and the model of Godot's timer
//! sync from `tickfold-jitter-sim`. The options a default could be made of come last.
//!
//! A frame is *irregular* when it, or a run of 2 to 4 frames ending with it, holds an update
//! count that a steady pattern never gives (`tickfold_jitter_sim::irregular`): at equal rates
//! every frame with 0 or 2+ updates and the frame after it; at 60 Hz ticks on 144 Hz frames
//! two updates in adjacent frames or three frames in a row without one.

use std::cell::Cell as SharedCell;
use std::fmt::Write as _;
use std::rc::Rc;

use tickfold::runner::{NoSleep, Runner, TimeSource};
use tickfold::web::{Hidden, WebLoop};
use tickfold::{DeltaSmoother, Event, LoopConfig, LoopState, Nanos, Period};
use tickfold_jitter_sim::{Hz, godot_run, irregular};

use crate::behaviour::{FrameRate, HIST_FRAMES, jittered, smoothed, web};
use crate::drivers::{
    BevyDriver, Driver, GameLoopDriver, MAX_FRAME, Options, TICK_HZ, TickfoldInPlace,
};
use crate::report::int;

/// One frame schedule: its label, the display's rate, the frame times (ns since the start).
pub struct Schedule {
    /// For the table's header.
    pub label: &'static str,
    /// The display's refresh rate.
    pub refresh: Hz,
    /// The runs, each from a fresh loop: frame `k` at about `k / refresh` s.
    pub runs: Vec<Vec<u64>>,
}

/// `requestAnimationFrame` stamps recorded in headless Chromium, five fresh pages of 10 s
/// (`data/record_raf.mjs`), as ns from each page's first stamp.
fn chromium() -> Vec<Vec<u64>> {
    [
        include_str!("../data/chromium-raf-0.txt"),
        include_str!("../data/chromium-raf-1.txt"),
        include_str!("../data/chromium-raf-2.txt"),
        include_str!("../data/chromium-raf-3.txt"),
        include_str!("../data/chromium-raf-4.txt"),
    ]
    .iter()
    .map(|text| {
        let ms: Vec<f64> = text.lines().map(|l| l.parse().expect("a stamp")).collect();
        ms.iter()
            .map(|&t| ((t - ms[0]) * 1e6).round() as u64)
            .collect()
    })
    .collect()
}

/// The schedules: equal rates first (web stamps, ±50 µs at 60 and 59.94 Hz), then 60 Hz ticks
/// on 144 Hz (web stamps and ±50 µs) and 50 Hz displays.
pub fn schedules() -> Vec<Schedule> {
    let rate = |h: Hz| FrameRate {
        num: 1_000_000_000 * h.1,
        den: h.0,
    };
    let web_at = |label, h: Hz, seed| Schedule {
        label,
        refresh: h,
        runs: vec![web(rate(h), HIST_FRAMES, seed)],
    };
    let jit_at = |label, h: Hz, seed| Schedule {
        label,
        refresh: h,
        runs: vec![jittered(rate(h), HIST_FRAMES, seed)],
    };
    vec![
        Schedule {
            label: "headless Chromium, 5 × 10 s recorded",
            refresh: Hz(60, 1),
            runs: chromium(),
        },
        // The seeds of the histogram section's schedules, so the rows agree with it.
        web_at("60 Hz web stamps", Hz(60, 1), 6060),
        jit_at("60 Hz ±50 µs", Hz(60, 1), 60),
        jit_at("59.94 Hz ±50 µs", Hz(60_000, 1_001), 5994),
        web_at("59.94 Hz web stamps", Hz(60_000, 1_001), 59_940),
        web_at("144 Hz web stamps", Hz(144, 1), 14_414),
        jit_at("144 Hz ±50 µs", Hz(144, 1), 144),
        jit_at("50 Hz ±50 µs", Hz(50, 1), 50),
    ]
}

/// What a loop did over a schedule: updates per frame, and the ticks due by the last frame's
/// time on the loop's own axis (for the tick count check).
pub struct Run {
    /// Updates in each frame.
    pub counts: Vec<u64>,
    /// Ticks an exact 60 Hz grid holds by the last frame, on the loop's time axis.
    pub due: u64,
}

impl Run {
    /// Updates run in total.
    pub fn ticks(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// Ticks of an exact 60 Hz grid from 0 to `t` ns.
fn due(t: u64) -> u64 {
    t * TICK_HZ / 1_000_000_000
}

fn driver(mut d: impl Driver, times: &[u64]) -> Run {
    Run {
        counts: times.iter().map(|&t| d.frame(t).updates).collect(),
        due: due(times.last().copied().unwrap_or(0)),
    }
}

fn fold(times: &[u64]) -> Run {
    let config = LoopConfig::new(Period::from_hz(TICK_HZ).expect("60 Hz"));
    driver(TickfoldInPlace::with_config(config), times)
}

/// The time a vsync-paced runner reads: set before each frame.
#[derive(Clone, Default)]
struct Replay(Rc<SharedCell<u64>>);

impl TimeSource<Nanos> for Replay {
    fn now(&mut self) -> Nanos {
        Nanos(self.0.get())
    }
}

/// `Runner::new(state, clock, NoSleep)`, one `frame` per presented frame; `smoothing` as given
/// to `with_smoothing`, or `None` for the runner's own default.
fn runner(times: &[u64], smoothing: Option<Option<DeltaSmoother>>) -> Run {
    let clock = Replay::default();
    let config = LoopConfig::new(Period::from_hz(TICK_HZ).expect("60 Hz"));
    let state = LoopState::new(config, Nanos(0)).expect("a valid configuration");
    let mut runner = Runner::new(state, clock.clone(), NoSleep);
    if let Some(s) = smoothing {
        runner = runner.with_smoothing(s);
    }
    let counts = times
        .iter()
        .map(|&t| {
            clock.0.set(t);
            let mut n = 0;
            runner.frame(|e, _| n += u64::from(matches!(e, Event::Update(_))));
            n
        })
        .collect();
    Run {
        counts,
        due: due(times.last().copied().unwrap_or(0)),
    }
}

/// `WebLoop::new(state, Hidden::Pause)` fed the times as `requestAnimationFrame` stamps (ms);
/// `smoothing` as given to `with_smoothing`, or `None` for the shell's own default. The shell
/// maps the first stamp to the loop's start.
fn web_shell(times: &[u64], smoothing: Option<Option<DeltaSmoother>>) -> Run {
    let config = LoopConfig::new(Period::from_hz(TICK_HZ).expect("60 Hz"));
    let state = LoopState::new(config, Nanos(0)).expect("a valid configuration");
    let mut page = WebLoop::new(state, Hidden::Pause).expect("Pause takes any state");
    if let Some(s) = smoothing {
        page = page.with_smoothing(s);
    }
    let counts = times
        .iter()
        .map(|&t| {
            let mut n = 0;
            page.frame(t as f64 / 1e6, |e, _| {
                n += u64::from(matches!(e, Event::Update(_)));
            })
            .expect("a finite stamp");
            n
        })
        .collect();
    let span = times.last().unwrap_or(&0) - times.first().unwrap_or(&0);
    Run {
        counts,
        due: due(span),
    }
}

/// Fiedler's accumulator ("Fix Your Timestep!"), written by hand in `f64` seconds: the frame
/// time clamped to 0.25 s, added up, one update per whole `dt` in it.
fn fiedler(times: &[u64]) -> Run {
    let dt = 1.0 / TICK_HZ as f64;
    let (mut acc, mut last) = (0.0_f64, 0.0_f64);
    let counts = times
        .iter()
        .map(|&t| {
            let now = t as f64 / 1e9;
            acc += (now - last).min(MAX_FRAME.as_secs_f64());
            last = now;
            let mut n = 0;
            while acc >= dt {
                acc -= dt;
                n += 1;
            }
            n
        })
        .collect();
    Run {
        counts,
        due: due(times.last().copied().unwrap_or(0)),
    }
}

fn godot(times: &[u64]) -> Run {
    Run {
        counts: godot_run(TICK_HZ, 0.5, times).0,
        due: due(times.last().copied().unwrap_or(0)),
    }
}

/// One row: its label and how it runs a schedule.
pub type Row = (&'static str, fn(&[u64]) -> Run);

/// The rows: each loop's defaults, then the options a default could be made of.
pub const ROWS: [Row; 14] = [
    ("tickfold's fold, `LoopConfig::new`", fold),
    ("tickfold runner, `Runner::new(.., NoSleep)`", |t| {
        runner(t, None)
    }),
    (
        "tickfold runner, `.with_smoothing(None)` (the default before)",
        |t| runner(t, Some(None)),
    ),
    ("tickfold web shell, `WebLoop::new`", |t| web_shell(t, None)),
    (
        "tickfold web shell, `.with_smoothing(None)` (the default before)",
        |t| web_shell(t, Some(None)),
    ),
    ("hand-written accumulator (Fiedler)", fiedler),
    ("`game-loop` 1.3", |t| driver(GameLoopDriver::new(), t)),
    ("`bevy_time` 0.20", |t| driver(BevyDriver::new(), t)),
    ("Godot 4 timer sync, `physics_jitter_fix` ½ (model)", godot),
    (
        "Godot 4 defaults (model): its delta smoothing (`DeltaSmoother` standing in) and jitter fix ½",
        |t| godot(&smoothed(t)),
    ),
    ("option: fold `.phase(0.5)`", |t| {
        driver(TickfoldInPlace::new(Options::Phase), t)
    }),
    ("option: fold + `DeltaSmoother`", |t| fold(&smoothed(t))),
    ("option: fold `.hysteresis(0.5)`", |t| {
        driver(TickfoldInPlace::new(Options::Hysteresis), t)
    }),
    ("option: fold `.hysteresis(0.5)` + `DeltaSmoother`", |t| {
        driver(TickfoldInPlace::new(Options::Hysteresis), &smoothed(t))
    }),
];

/// One cell: irregular frames in the whole run and after its first 2 s (the smoother's
/// warm-up), and ticks run less ticks due by the last frame.
#[derive(Copy, Clone, Debug)]
pub struct Cell {
    /// Irregular frames of the 36,000.
    pub irregular: u64,
    /// Of those, the frames from 2 s on (the pattern still looks back over earlier frames).
    pub after_2s: u64,
    /// Ticks run less ticks due by the last frame, on the loop's own time axis.
    pub off: i64,
}

/// The table's cells, one row per [`ROWS`] entry, one cell per schedule.
pub fn measure(schedules: &[Schedule]) -> Vec<Vec<Cell>> {
    ROWS.iter()
        .map(|(_, run)| {
            schedules
                .iter()
                .map(|s| {
                    let mut cell = Cell {
                        irregular: 0,
                        after_2s: 0,
                        off: 0,
                    };
                    for times in &s.runs {
                        let r = run(times);
                        let late = times.partition_point(|&t| t < times[0] + 2_000_000_000);
                        let flags = irregular_frames(&r.counts, s.refresh);
                        cell.irregular += flags.iter().filter(|&&b| b).count() as u64;
                        cell.after_2s += flags[late..].iter().filter(|&&b| b).count() as u64;
                        let off = r.ticks() as i64 - r.due as i64;
                        if off.abs() > cell.off.abs() {
                            cell.off = off;
                        }
                    }
                    cell
                })
                .collect()
        })
        .collect()
}

/// Which frames are irregular: frame `k` is when `irregular` counts one more on the counts up
/// to `k` than up to `k − 1` (the rule looks back over at most 4 frames, so this asks it
/// about the last 4 only).
fn irregular_frames(counts: &[u64], refresh: Hz) -> Vec<bool> {
    (0..counts.len())
        .map(|k| {
            let from = k.saturating_sub(3);
            let with = irregular(&counts[from..=k], TICK_HZ, refresh);
            let without = irregular(&counts[from..k], TICK_HZ, refresh);
            with > without
        })
        .collect()
}

/// The markdown table.
pub fn table(schedules: &[Schedule], cells: &[Vec<Cell>]) -> String {
    let mut out = String::new();
    let _ = write!(out, "| loop, as constructed |");
    for s in schedules {
        let _ = write!(out, " {} |", s.label);
    }
    let _ = write!(out, " ticks run − due |\n|---|");
    for _ in schedules {
        let _ = write!(out, "---|");
    }
    out.push_str("---|\n");
    for ((label, _), row) in ROWS.iter().zip(cells) {
        let _ = write!(out, "| {label} |");
        for c in row {
            let _ = write!(out, " {} ({}) |", int(c.irregular), int(c.after_2s));
        }
        let (lo, hi) = row
            .iter()
            .fold((0, 0), |(lo, hi), c| (c.off.min(lo), c.off.max(hi)));
        let _ = match (lo, hi) {
            (0, 0) => writeln!(out, " 0 |"),
            (lo, 0) => writeln!(out, " {lo} |"),
            (0, hi) => writeln!(out, " +{hi} |"),
            (lo, hi) => writeln!(out, " {lo} to +{hi} |"),
        };
    }
    out
}

/// The report's section: heading, method, table, what it says.
pub fn section() -> String {
    let schedules = schedules();
    let cells = measure(&schedules);
    let mut out = String::new();
    let _ = writeln!(out, "### Defaults against defaults\n");
    let _ = writeln!(
        out,
        "What each loop does when nobody tunes it: 60 Hz ticks, every loop as its documentation \
         builds it, on the same schedules: `requestAnimationFrame` stamps recorded in headless \
         Chromium (five fresh pages of 10 s, `benches/peers/data/`, recorded with \
         `record_raf.mjs` there; each run rebased to its first stamp), then 36,000 frames each \
         of seeded noise (the jitter section's seeds at 60 and 59.94 Hz; web stamps at ±1 ms \
         and 100 µs grain, as there). tickfold's rows: the bare \
         fold (`LoopConfig::new`, whose defaults stay exact and off, so the Scheme article's \
         traces reproduce), the runner a vsync-paced game builds (`Runner::new(state, clock, \
         NoSleep)`, one `frame` per presented frame) and the web shell (`WebLoop::new`, fed the \
         times as `requestAnimationFrame` stamps; it maps the first stamp to the loop's start, \
         so its frames sit differently against the ticks than the others'), each with its \
         default and with `.with_smoothing(None)`, which was the default before. Beside them a \
         hand-written accumulator as in Fiedler's \"Fix Your Timestep!\" (`f64` seconds, \
         0.25 s clamp), `game-loop` 1.3, `bevy_time` 0.20 (`Time::<Fixed>::from_hz(60.0)`) and \
         the model of Godot 4's `MainTimerSync` in `core/jitter-sim` (`physics_jitter_fix` ½, \
         Godot's default; for Godot's defaults, which also smooth vsync deltas, the stamps go \
         through `DeltaSmoother` first, standing in for Godot's own smoother). The last rows are \
         the options a default could be made of.\n\n\
         A frame is irregular when it, or a run of 2 to 4 frames ending with it, holds an update \
         count that a steady pattern never gives (`tickfold_jitter_sim::irregular`): at equal \
         rates each frame with 0 or 2+ updates and the frames whose short runs it unbalances (so \
         about twice the 0-or-2 count of the jitter section), at 59.94 Hz not the 2-update \
         frames the rate needs, at 144 Hz two updates in adjacent frames or three frames in a \
         row without one. In brackets: those from the run's third second on, after the \
         smoother's warm-up (15 frame deltas, its frames snapped from the second delta on to \
         the interval measured so far; then refined by least squares from the 31st frame on). The last column: ticks run less ticks due by the last frame's time on the \
         loop's own axis, the worst over the schedules.\n"
    );
    out.push_str(&table(&schedules, &cells));
    // What hysteresis adds to the smoothing: the fewest and most frames it saves.
    let row = |label: &str| ROWS.iter().position(|(l, _)| *l == label).expect("a row");
    let (smooth, both) = (
        &cells[row("option: fold + `DeltaSmoother`")],
        &cells[row("option: fold `.hysteresis(0.5)` + `DeltaSmoother`")],
    );
    // The seeded schedules (the recorded one, first, is told apart below).
    let saved = smooth[1..]
        .iter()
        .zip(&both[1..])
        .map(|(a, b)| a.irregular as i64 - b.irregular as i64);
    let (rec_smooth, rec_both) = (smooth[0], both[0]);
    let (least, most) = saved.fold((i64::MAX, i64::MIN), |(l, m), d| (l.min(d), m.max(d)));
    // The warm-up on the seeded equal-rate schedules (60 and 59.94 Hz, columns 1 to 4): the
    // most irregular frames of the shells' defaults, and of Godot's jitter fix.
    let worst = |label: &str| {
        cells[row(label)][1..5]
            .iter()
            .map(|c| c.irregular)
            .max()
            .unwrap_or(0)
    };
    let shells = worst("tickfold runner, `Runner::new(.., NoSleep)`")
        .max(worst("tickfold web shell, `WebLoop::new`"));
    let godot_row = "Godot 4 timer sync, `physics_jitter_fix` ½ (model)";
    let godot = worst(godot_row);
    let (rec_default, rec_godot) = (
        cells[row("tickfold web shell, `WebLoop::new`")][0],
        cells[row(godot_row)][0],
    );
    let _ = writeln!(
        out,
        "\nThe shells' default is smoothing alone. It is the whole gain over the plain fold: \
         from the third second on no smoothed row has an irregular frame on any seeded schedule; the \
         frames before are the warm-up, where Godot's jitter fix, acting from the first frame \
         with ½ tick of slack, does better (at most {godot} there, against {shells}). Adding `.hysteresis(0.5)` to the smoothing saves {least} to {most} of \
         those warm-up frames and nothing after (on the recorded Chromium stamps {} against {}, \
         {} against {} from the third second on), but would change the game's own configuration (a \
         save keeps it; a constant-rate clock refuses it), so the shells do not set it. \
         `.phase(0.5)` is no default: it helps only while frames and ticks keep their phase \
         (0 at 60 Hz, and the fewest on headless Chromium's exact 60 Hz frame clock), and on a \
         display a little off 60 Hz (59.94) it does about as badly as nothing. On the recorded \
         Chromium stamps the smoothed default does as well as Godot's jitter fix ({} against \
         {}; {} and {} from the third second on): the smoother snaps each page's frames from \
         the third on to the interval measured so far, where it used to pass the first 15 \
         through while it measured; from the third second on, every loop's count there is mostly the frames \
         Chromium dropped (a 33 or 50 ms delta that needs 2 or 3 updates). \
         Smoothing moves each frame's time by at most the smoother's bound (4 ms, a quarter of \
         a 60 Hz tick), so a tick runs at most 4 ms earlier or later than unsmoothed and the \
         tick count is the raw time's within one tick (the last column), never a tick lost or \
         invented over a run; gaps (a hidden tab) pass through whole. For the others: \
         `.hysteresis(0.5)` runs a tick early or late by at most the smaller of ½ tick \
         (8.3 ms) and the frame jitter it has measured, its count that of virtual time within \
         one; `.phase(0.5)` runs every tick half a tick (8.3 ms) early, one tick ahead of an \
         unphased grid (its +1). On unequal rates (144 and 50 Hz displays) the defaults change \
         nothing. Reproduce this table alone with \
         `cargo run --release --manifest-path benches/peers/Cargo.toml -- --defaults`.\n",
        int(rec_both.irregular),
        int(rec_smooth.irregular),
        int(rec_both.after_2s),
        int(rec_smooth.after_2s),
        int(rec_default.irregular),
        int(rec_godot.irregular),
        int(rec_default.after_2s),
        int(rec_godot.after_2s),
    );
    out
}
