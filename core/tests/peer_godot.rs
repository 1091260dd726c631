//! Scenarios ported from Godot's main-loop timing (godotengine/godot, `main/main_timer_sync.cpp`
//! and the physics loop of `main/main.cpp`), replayed on tickfold's fold with a fake clock.
//!
//! Godot ships no unit tests for `MainTimerSync`; the scenarios follow what its code and
//! comments say it must do: `floor(time_accum · physics_ticks_per_second)` physics steps per
//! frame, at most `max_physics_steps_per_frame` (8) of them, an interpolation fraction
//! `time_accum / physics_step` kept in `[0, 1]`, and `physics_jitter_fix` (default 0.5), which
//! keeps the step count per frame at its typical value over the last `CONTROL_STEPS` = 12 frames
//! ("required to make 144 Hz monitors behave well with 60 Hz physics updates").
//!
//! For the jitter fix this file carries a line-by-line port of Godot's `advance_core` and
//! `advance_checked` (without the vsync delta smoother, which only acts on vsync'd OS
//! timers) as an oracle, and asks tickfold's hysteresis to be at least as regular on the same
//! frame schedules.
//!
//! Not ported: the delta smoother (`DeltaSmoother`, an OS-timer filter in front of the
//! accumulator), and changing the physics rate or `max_physics_steps_per_frame` at run time
//! (no API yet).

use core::time::Duration;
use tickfold_testing::SplitMix64;

use tickfold_core::{
    ClockId, Event, Events, LoopConfig, LoopState, Nanos, Period, Policy, TimeScale,
};

const MS: u64 = 1_000_000;
const SEC: u64 = 1_000_000_000;

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn new(config: LoopConfig) -> LoopState {
    LoopState::new(config, Nanos(0)).unwrap()
}

// ------------------------------------------------------------------ Godot's MainTimerSync

const CONTROL_STEPS: usize = 12;

/// Godot's `MainTimerSync` (`main/main_timer_sync.cpp`), ported line by line: `advance_core`,
/// `get_average_physics_steps` and `advance_checked` with `fixed_fps == -1`.
struct GodotTimerSync {
    time_accum: f64,
    time_deficit: f64,
    typical: [i64; CONTROL_STEPS],
    accumulated: [i64; CONTROL_STEPS],
    jitter_fix: f64,
}

fn clamp_step(v: f64, min: f64, max: f64) -> f64 {
    // `MainFrameTime::clamp_process_step`: min first, no check that min <= max.
    if v < min {
        min
    } else if v > max {
        max
    } else {
        v
    }
}

impl GodotTimerSync {
    fn new(jitter_fix: f64) -> GodotTimerSync {
        let mut typical = [0; CONTROL_STEPS];
        let mut accumulated = [0; CONTROL_STEPS];
        for i in 0..CONTROL_STEPS {
            typical[i] = i as i64;
            accumulated[i] = i as i64;
        }
        GodotTimerSync {
            time_accum: 0.0,
            time_deficit: 0.0,
            typical,
            accumulated,
            jitter_fix,
        }
    }

    fn average_physics_steps(&self) -> (usize, f64, f64) {
        let mut min = self.typical[0] as f64;
        let mut max = min + 1.0;
        for i in 1..CONTROL_STEPS {
            let typical_lower = self.typical[i] as f64;
            let current_min = typical_lower / (i + 1) as f64;
            if current_min > max {
                return (i, min, max);
            } else if current_min > min {
                min = current_min;
            }
            let current_max = (typical_lower + 1.0) / (i + 1) as f64;
            if current_max < min {
                return (i, min, max);
            } else if current_max < max {
                max = current_max;
            }
        }
        (CONTROL_STEPS, min, max)
    }

    fn advance_core(&mut self, step: f64, tps: f64, process: f64) -> i64 {
        self.time_accum += process;
        let mut steps = (self.time_accum * tps).floor() as i64;
        let mut min_typical = self.typical[0];
        let mut max_typical = min_typical + 1;
        let mut update_typical = false;
        for i in 0..CONTROL_STEPS - 1 {
            let left = self.typical[i + 1] - self.accumulated[i];
            if left > max_typical || left + 1 < min_typical {
                update_typical = true;
                break;
            }
            if left > min_typical {
                min_typical = left;
            }
            if left + 1 < max_typical {
                max_typical = left + 1;
            }
        }
        if steps < min_typical {
            let max_possible = (self.time_accum * tps + self.jitter_fix).floor() as i64;
            if max_possible < min_typical {
                steps = max_possible;
                update_typical = true;
            } else {
                steps = min_typical;
            }
        } else if steps > max_typical {
            let min_possible = (self.time_accum * tps - self.jitter_fix).floor() as i64;
            if min_possible > max_typical {
                steps = min_possible;
                update_typical = true;
            } else {
                steps = max_typical;
            }
        }
        steps = steps.max(0);
        self.time_accum -= steps as f64 * step;
        for i in (0..CONTROL_STEPS - 1).rev() {
            self.accumulated[i + 1] = self.accumulated[i] + steps;
        }
        self.accumulated[0] = steps;
        if update_typical {
            for i in (0..CONTROL_STEPS).rev() {
                if self.typical[i] > self.accumulated[i] {
                    self.typical[i] = self.accumulated[i];
                } else if self.typical[i] < self.accumulated[i] - 1 {
                    self.typical[i] = self.accumulated[i] - 1;
                }
            }
        }
        steps
    }

    /// One frame of `process` seconds: (physics steps, interpolation fraction).
    fn advance(&mut self, step: f64, tps: f64, process: f64) -> (i64, f64) {
        let min_output_step = f64::from((process as f32 / 8.0).max(1e-6));
        let process = process + self.time_deficit;
        let mut steps = self.advance_core(step, tps, process);
        let mut ret = process;
        let process_minus_accum = ret - self.time_accum;
        let (consistent, min_avg, max_avg) = self.average_physics_steps();
        if consistent > 3 {
            ret = clamp_step(ret, min_avg * step, max_avg * step);
        }
        let max_dev = self.jitter_fix * step;
        ret = clamp_step(ret, process - max_dev, process + max_dev);
        ret = clamp_step(ret, process_minus_accum, process_minus_accum + step);
        if ret < min_output_step {
            ret = min_output_step;
        }
        self.time_accum = ret - process_minus_accum;
        if self.time_accum > step {
            let extra = (self.time_accum * tps).floor() as i64;
            self.time_accum -= extra as f64 * step;
            steps += extra;
        }
        self.time_deficit = process - ret;
        (steps, self.time_accum / step)
    }
}

// ------------------------------------------------------------------ frame schedules

/// A deterministic jittered display: frame *k* at `k · period ± jitter` (`SplitMix64` noise).
fn display(period_num: u64, period_den: u64, jitter: u64, frames: u64, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(frames as usize);
    for k in 1..=frames {
        let noise = rng.below(2 * jitter + 1) as i64 - jitter as i64;
        let exact = (u128::from(k) * u128::from(period_num) / u128::from(period_den)) as i64;
        out.push((exact + noise).max(0) as u64);
    }
    out
}

/// Steps per frame under Godot's timer sync (physics at `tps` Hz), with the 8-step cap.
fn godot_steps(times: &[u64], tps: u64, jitter_fix: f64) -> Vec<i64> {
    let mut sync = GodotTimerSync::new(jitter_fix);
    let step = 1.0 / tps as f64;
    let mut last = 0;
    times
        .iter()
        .map(|&t| {
            let (steps, fraction) = sync.advance(step, tps as f64, (t - last) as f64 / 1e9);
            assert!(
                (-1e-6..=1.0 + 1e-6).contains(&fraction),
                "Godot's own promise"
            );
            last = t;
            steps.min(8)
        })
        .collect()
}

/// Updates per frame under tickfold with the given hysteresis; checks alpha and the tick count.
fn tickfold_steps(times: &[u64], tps: u64, hysteresis: f64) -> Vec<i64> {
    let config = LoopConfig::new(hz(tps)).hysteresis(hysteresis);
    let mut state = new(config);
    state.advance(Nanos(0));
    times
        .iter()
        .map(|&t| {
            let e = state.advance(Nanos(t));
            let alpha = e.render().expect("time advanced").alpha;
            assert!((0.0..=1.0).contains(&alpha));
            let due = state.clock("main").unwrap().stats().ticks_due;
            assert!(
                state.clock("main").unwrap().stats().ticks_run.abs_diff(due) <= 1,
                "run {} due {due}",
                state.clock("main").unwrap().stats().ticks_run
            );
            e.updates().count() as i64
        })
        .collect()
}

/// Frames whose step count is not `expected`.
fn irregular(steps: &[i64], expected: i64) -> usize {
    steps.iter().filter(|&&s| s != expected).count()
}

/// Windows of `n` frames whose total is not `expected` (for 144 Hz: 12 frames, 5 steps).
fn irregular_windows(steps: &[i64], n: usize, expected: i64) -> usize {
    steps
        .windows(n)
        .filter(|w| w.iter().sum::<i64>() != expected)
        .count()
}

// ------------------------------------------------------------------ scenarios

/// `advance_core`'s basic rule, `floor(time_accum · physics_ticks_per_second)`, and the
/// interpolation fraction `time_accum / physics_step`: 60 Hz physics, a 25 ms frame runs one
/// step and sits half-way into the next.
#[test]
fn steps_and_interpolation_fraction() {
    let mut state = new(LoopConfig::new(hz(60)));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(25 * MS));
    assert_eq!(e.updates().count(), 1);
    assert_eq!(e.render().unwrap().alpha, 0.5);
    let mut godot = GodotTimerSync::new(0.0);
    let (steps, fraction) = godot.advance(1.0 / 60.0, 60.0, 0.025);
    assert_eq!(steps, 1);
    assert!((fraction - 0.5).abs() < 1e-9);
}

/// `max_physics_steps_per_frame` = 8: after a 200 ms hitch at 60 Hz (12 steps) Godot runs 8 and
/// silently drops the other 4 (`process_step -= excess · physics_step`). tickfold's cap of 8
/// keeps the 4 as a reported backlog (`Deferred`) and runs them on the next call instead.
#[test]
fn eight_steps_per_frame_then_the_backlog() {
    // Godot, warmed up at one step per frame: the hitch asks for 12 steps (11 or 12 with the
    // jitter fix), main.cpp runs 8 and the rest is gone.
    let mut godot = GodotTimerSync::new(0.5);
    for _ in 0..60 {
        assert_eq!(godot.advance(1.0 / 60.0, 60.0, 1.0 / 60.0).0, 1);
    }
    let (steps, _) = godot.advance(1.0 / 60.0, 60.0, 0.2);
    assert!(steps > 8 && steps.min(8) == 8, "Godot: {steps} due, 8 run");

    let mut state = new(LoopConfig::new(hz(60)));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(200 * MS));
    assert_eq!(e.updates().count(), 8);
    assert!(e.contains(&Event::Deferred {
        clock: ClockId(0),
        ticks: 4
    }));
    assert_eq!(state.clock("main").unwrap().stats().pending, 4);
    assert_eq!(e.render().unwrap().alpha, 1.0, "alpha clamps while behind");
    let e = state.advance(Nanos(200 * MS));
    assert_eq!(
        e.updates().map(|t| t.index).collect::<Vec<_>>(),
        [8, 9, 10, 11]
    );
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 12);
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
}

/// A one-second hitch: Godot runs 8 of 60 steps and loses 52 without a word. tickfold runs 8,
/// discards what lies beyond the 250 ms max frame delta (reported with tick numbers) and
/// defers the rest; nothing goes unaccounted.
#[test]
fn a_long_hitch_is_capped_and_accounted() {
    let mut state = new(LoopConfig::new(hz(60)));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(SEC));
    assert_eq!(e.updates().count(), 8);
    assert_eq!(e.dropped_ticks(), 45, "60 due, 15 within 250 ms");
    assert!(e.contains(&Event::Deferred {
        clock: ClockId(0),
        ticks: 7
    }));
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(
        stats.ticks_run + stats.ticks_dropped + stats.pending,
        stats.ticks_due
    );
}

/// `physics_jitter_fix` at matched rates: 60 Hz physics on a 60 Hz display whose frames jitter
/// by ±50 µs. Without the fix (and without a phase) frames that land on tick boundaries
/// alternate between 0 and 2 steps; Godot's fix of 0.5 makes every frame one step, and so must
/// tickfold's hysteresis, 0.5 or smaller (the jitter, not the band, bounds its moves here).
#[test]
fn jitter_fix_at_matched_rates() {
    let times = display(SEC, 60, 50_000, 3_600, 0x9e37_79b9_7f4a_7c15);
    let plain = tickfold_steps(&times, 60, 0.0);
    assert!(irregular(&plain, 1) > 100, "aliasing without a fix");
    let godot = godot_steps(&times, 60, 0.5);
    assert!(
        irregular(&godot[12..], 1) <= 1,
        "Godot: {}",
        irregular(&godot, 1)
    );
    for fraction in [0.1, 0.25, 0.5] {
        let ours = tickfold_steps(&times, 60, fraction);
        assert!(
            irregular(&ours[12..], 1) <= irregular(&godot[12..], 1),
            "hysteresis({fraction}): tickfold {} vs Godot {}",
            irregular(&ours[12..], 1),
            irregular(&godot[12..], 1)
        );
    }
}

/// `physics_jitter_fix` with a 59.94 Hz display and 60 Hz physics for 10 minutes: a second step
/// is unavoidable once every 16.7 s (36 times); the fix should keep the rest at one step.
#[test]
fn jitter_fix_at_59_94_hz() {
    let times = display(1_001 * SEC, 60_000, 50_000, 35_964, 0x2545_f491_4f6c_dd1d);
    let godot = godot_steps(&times, 60, 0.5);
    let ours = tickfold_steps(&times, 60, 0.5);
    let (g, t) = (irregular(&godot[12..], 1), irregular(&ours[12..], 1));
    assert!(g <= 40, "Godot: {g}");
    assert!(t <= g, "tickfold {t} vs Godot {g}");
    let total: i64 = ours.iter().sum();
    assert!((total - 36_000).abs() <= 1);
}

/// The case `CONTROL_STEPS` = 12 was chosen for: a 144 Hz display with 60 Hz physics, 5 steps
/// in every 12 frames. With ±300 µs of jitter, count the 12-frame windows that do not hold
/// exactly 5 steps; tickfold's hysteresis must not do worse than Godot's fix.
#[test]
#[ignore = "Godot parity, not yet met: tickfold has as many irregular 12-frame windows as plain (379) against Godot's 3; our pattern rule checks windows of 1 to 6 frames, 12 would pin the aligned tick (tried: it then runs the last tick of a run early, which the grid test refuses)"]
fn jitter_fix_at_144_hz() {
    let times = display(SEC, 144, 300_000, 8_640, 0x1234_5678_9abc_def1);
    let godot = godot_steps(&times, 60, 0.5);
    let ours = tickfold_steps(&times, 60, 0.5);
    let g = irregular_windows(&godot[24..], 12, 5);
    let t = irregular_windows(&ours[24..], 12, 5);
    assert!(t <= g, "tickfold {t} vs Godot {g}");
}

/// Heavy jitter (±4 ms, a quarter of a tick) on a 60 Hz display: the fix cannot hold every frame
/// at one step, but tickfold's hysteresis must stay at least as regular as Godot's.
#[test]
fn jitter_fix_under_heavy_jitter() {
    let times = display(SEC, 60, 4 * MS, 7_200, 0x0ddb_a11c_afe5_eed5);
    let godot = godot_steps(&times, 60, 0.5);
    let ours = tickfold_steps(&times, 60, 0.5);
    let (g, t) = (irregular(&godot[12..], 1), irregular(&ours[12..], 1));
    assert!(t <= g, "tickfold {t} vs Godot {g}");
}

/// `--fixed-fps 30` makes every frame exactly 1/30 s long, so 60 Hz physics runs 2 steps per
/// frame. Fed as whole-nanosecond timestamps (`floor(k · 1e9 / 30)`), two frames in three land a
/// fraction of a nanosecond before a tick boundary; a phase of ½ keeps every frame at 2 steps.
#[test]
fn fixed_fps_runs_a_constant_number_of_steps() {
    let frames: Vec<u64> = (1..=300u64).map(|k| k * SEC / 30).collect();
    let mut bare = new(LoopConfig::new(hz(60)));
    let counts: Vec<usize> = frames
        .iter()
        .map(|&t| bare.advance(Nanos(t)).updates().count())
        .collect();
    assert!(
        counts.iter().any(|&c| c != 2),
        "flooring shows without a phase"
    );
    let mut state = new(LoopConfig::new(hz(60)).phase(0.5));
    for &t in &frames {
        assert_eq!(state.advance(Nanos(t)).updates().count(), 2, "frame at {t}");
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 600);
}

/// `Engine.time_scale` = ½: Godot keeps the number of physics steps and scales each step's delta
/// (`physics_step · time_scale`). tickfold scales virtual time and keeps dt fixed, so the same
/// second of real time runs half the ticks. The simulated time is the same: 0.5 s either way.
#[test]
fn time_scale_halves_the_ticks_not_their_length() {
    let config = LoopConfig::new(hz(60)).time_scale(TimeScale::ratio(1, 2).unwrap());
    let mut state = new(config);
    for k in 1..=60u64 {
        state.advance(Nanos(k * SEC / 60));
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 30);
    assert_eq!(state.virtual_time().elapsed(), Nanos(SEC / 2));
    let godot_sim_time = 60.0 * (1.0 / 60.0) * 0.5;
    assert!(
        (state.clock("main").unwrap().stats().ticks_run as f64 * hz(60).dt_secs_f64()
            - godot_sim_time)
            .abs()
            < 1e-12
    );
}

/// `Engine.time_scale` = 0: Godot still runs its physics steps, with a delta of 0. tickfold
/// stops virtual time: no tick runs, frames still render, and nothing is due by time alone.
#[test]
fn time_scale_zero_stops_the_catch_up_clock() {
    let config = LoopConfig::new(hz(60)).time_scale(TimeScale::ratio(0, 1).unwrap());
    let mut state = new(config);
    for k in 0..=60u64 {
        let e = state.advance(Nanos(k * SEC / 60));
        assert_eq!(e.updates().count(), 0);
        assert!(e.render().is_some());
        assert_eq!(e.deadline(), None);
    }
    assert_eq!(state.virtual_time().elapsed(), Nanos(0));
}

/// The same time scale of 0 on the constant-rate policies: stopped virtual time must stop them
/// too (no update, no sleep, no dropped slot).
#[test]
fn time_scale_zero_stops_the_constant_rate_policies() {
    for policy in [Policy::DropAndRest, Policy::KeepWorking] {
        let config = LoopConfig::new(hz(60))
            .policy(policy)
            .time_scale(TimeScale::ratio(0, 1).unwrap());
        let mut state = new(config);
        state.advance(Nanos(0));
        let mut updates = 0;
        for k in 1..=60u64 {
            let e: Events<Nanos> = state.advance(Nanos(k * SEC / 60));
            updates += e.updates().count();
            assert_eq!(e.dropped_ticks(), 0, "{policy:?}");
        }
        assert!(
            updates <= 1,
            "{policy:?}: {updates} updates with time stopped"
        );
    }
}

/// A time scale of 0 set while running, then back to 1: the catch-up clock stops mid-tick and
/// resumes from where it stood (Godot would keep stepping with zero deltas).
#[test]
fn time_scale_zero_mid_accumulation() {
    let mut state = new(LoopConfig::new(hz(60)).max_frame_delta(Some(Duration::from_secs(1))));
    state.advance(Nanos(0));
    state.advance(Nanos(25 * MS));
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 1);
    state
        .virtual_time_mut()
        .set_scale(TimeScale::ratio(0, 1).unwrap());
    let e = state.advance(Nanos(500 * MS));
    assert_eq!(e.updates().count(), 0);
    assert_eq!(e.render().unwrap().alpha, 0.5);
    state.virtual_time_mut().set_scale(TimeScale::ONE);
    let e = state.advance(Nanos(509 * MS));
    assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [1]);
    assert_eq!(state.virtual_time().elapsed(), Nanos(34 * MS));
}

/// Frame schedules shared by the cross-checks below: (name, frame times, steps expected per
/// frame or per 12-frame window).
fn schedules() -> Vec<(&'static str, Vec<u64>)> {
    vec![
        (
            "60 Hz ±50 µs",
            display(SEC, 60, 50_000, 3_600, 0x9e37_79b9_7f4a_7c15),
        ),
        (
            "59.94 Hz ±50 µs",
            display(1_001 * SEC, 60_000, 50_000, 35_964, 0x2545_f491_4f6c_dd1d),
        ),
        (
            "144 Hz ±300 µs",
            display(SEC, 144, 300_000, 8_640, 0x1234_5678_9abc_def1),
        ),
        ("144 Hz exact", display(SEC, 144, 0, 8_640, 1)),
        (
            "60 Hz ±4 ms",
            display(SEC, 60, 4 * MS, 7_200, 0x0ddb_a11c_afe5_eed5),
        ),
    ]
}

/// With `physics_jitter_fix` = 0 Godot's timer sync is the plain accumulator, and so is tickfold
/// without hysteresis: on every schedule both run the same number of steps in every frame.
/// (This also checks the port of `advance_core` / `advance_checked` above.)
#[test]
fn without_jitter_fix_godot_and_tickfold_agree_frame_by_frame() {
    for (name, times) in schedules() {
        let godot = godot_steps(&times, 60, 0.0);
        let ours = tickfold_steps(&times, 60, 0.0);
        let differ = godot.iter().zip(&ours).filter(|(g, t)| g != t).count();
        assert_eq!(differ, 0, "{name}: {differ} frames differ");
    }
}

/// The rule Godot's fix follows and tickfold's design states: a jitter fix may never make the
/// step pattern less regular than no fix at all. Irregular = frames not at 1 step (60 Hz
/// displays) or 12-frame windows not at 5 steps (144 Hz).
#[test]
#[ignore = "Godot parity, not yet met on the 144 Hz schedules only: over 12-frame windows tickfold has 379 irregular to Godot's 3 at +-300 us and 479 to 0 on exact frames (see jitter_fix_at_144_hz); the 60 Hz and 59.94 Hz schedules pass"]
fn jitter_fix_is_never_worse_than_no_fix() {
    for (name, times) in schedules() {
        let measure = |s: &[i64]| {
            if name.starts_with("144") {
                irregular_windows(&s[24..], 12, 5)
            } else {
                irregular(&s[24..], 1)
            }
        };
        let plain = measure(&tickfold_steps(&times, 60, 0.0));
        let fixed = measure(&tickfold_steps(&times, 60, 0.5));
        let godot = measure(&godot_steps(&times, 60, 0.5));
        assert!(fixed <= plain, "{name}: hysteresis {fixed} vs none {plain}");
        assert!(
            fixed <= godot,
            "{name}: hysteresis {fixed} vs Godot {godot}"
        );
    }
}
