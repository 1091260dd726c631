//! Checks that the drivers do what the report says they do, on short runs.

use crate::behaviour::{HZ_59_94, HZ_60, histogram, jittered, stall};
use crate::controls::{DELAY_WORK_MS, delay_run, timestep_run};
use crate::report_controls::{delay_explained, timestep_agrees};
use tickfold::{Event, Events, LoopState, Nanos};
use tickfold_testing::SplitMix64;

use crate::drivers::{
    BevyDriver, Driver, FloorDriver, GameLoopDriver, Grid, Options, PistonBench, TickfoldInPlace,
    TickfoldStep, clocks_config, tickfold_config, uncapped_config,
};
use crate::floor::FloorLoop;
use crate::timing::{Batch, Bench, Budget, GridWalk, allocations_during};

/// Frame `k` at `k/60 s` plus half a tick: every loop runs exactly one update per frame.
fn mid_tick(k: u64) -> u64 {
    k * 1_000_000_000 / 60 + 1_000_000_000 / 120
}

fn one_update_per_frame(d: &mut impl Driver, frames: u64) {
    for k in 1..=frames {
        assert_eq!(d.frame(mid_tick(k)).updates, 1, "frame {k}");
    }
}

#[test]
fn every_fake_clock_loop_runs_one_update_per_mid_tick_frame() {
    one_update_per_frame(&mut TickfoldInPlace::new(Options::Plain), 120);
    one_update_per_frame(&mut TickfoldStep::new(), 120);
    one_update_per_frame(&mut GameLoopDriver::new(), 120);
    one_update_per_frame(&mut BevyDriver::new(), 120);
    one_update_per_frame(&mut FloorDriver::new(), 120);
}

/// The floor and tickfold (default configuration) report the same thing, frame by frame:
/// updates with index, `t`, lag and `last_in_step`; the render's alpha, lag and tick count; the
/// deadline; discarded and deferred ticks.
fn floor_matches_tickfold(times: &[u64]) {
    let mut state = LoopState::new(tickfold_config(Options::Plain), Nanos(0)).expect("valid");
    let mut floor = FloorLoop::new(1_000_000_000, 60, 8, 250_000_000);
    let mut events: Events<Nanos> = Events::new();
    for (k, &now) in times.iter().enumerate() {
        state.advance_into(Nanos(now), &mut events);
        floor.step(now);
        let f = &floor.out;
        let tf: Vec<(u64, u64, i64, bool)> = events
            .updates()
            .map(|t| (t.index, t.t.0, t.lag.as_nanos() as i64, t.last_in_step))
            .collect();
        for t in events.updates() {
            // The same fraction (tickfold's is reduced).
            let ((a, b), (c, d)) = (t.dt.as_nanos_ratio(), f.dt());
            assert_eq!(
                u128::from(a) * u128::from(d),
                u128::from(b) * u128::from(c),
                "dt, frame {k}"
            );
        }
        let fl: Vec<(u64, u64, i64, bool)> = f
            .ticks()
            .map(|t| (t.index, t.t, t.lag, t.last_in_step))
            .collect();
        assert_eq!(tf, fl, "updates of frame {k} at {now}");
        let render = events
            .render()
            .map(|r| (r.alpha.to_bits(), r.lag.as_nanos() as i64, r.ticks));
        let floor_render = f.renders.then_some((f.alpha.to_bits(), f.lag, f.ticks));
        assert_eq!(render, floor_render, "render of frame {k} at {now}");
        assert_eq!(
            events.deadline().map(|d| d.0),
            Some(f.deadline),
            "deadline, frame {k}"
        );
        let (mut discarded, mut deferred, mut backwards) = (None, 0, 0);
        for e in &events {
            match e {
                Event::DiscardedTime {
                    first, ticks, time, ..
                } => discarded = Some((first, ticks, time.0)),
                Event::Deferred { ticks, .. } => deferred = ticks,
                Event::TimeBackwards { by } => backwards = by.0,
                _ => {}
            }
        }
        assert_eq!(
            discarded.unwrap_or((0, 0, 0)),
            f.discarded,
            "discarded, frame {k}"
        );
        assert_eq!(deferred, f.deferred, "deferred, frame {k}");
        assert_eq!(backwards, f.backwards, "backwards, frame {k}");
    }
}

#[test]
fn the_floor_reports_what_tickfold_reports() {
    // Jittered 60 Hz and 59.94 Hz frames.
    floor_matches_tickfold(&jittered(HZ_60, 2_000, 3));
    floor_matches_tickfold(&jittered(HZ_59_94, 2_000, 4));
    // The three timed cases and the stall: 1 s of frames, 5 s gap, 2 s of frames.
    for grid in [
        (0, 10_000, 1),
        (8_333_333, 1_000_000_000, 60),
        (8_333_333, 8_000_000_000, 60),
    ] {
        let times: Vec<u64> = (0..3_000).map(|k| grid.0 + k * grid.1 / grid.2).collect();
        floor_matches_tickfold(&times);
    }
    let mut times: Vec<u64> = (0..=60)
        .map(|k| k * 1_000_000_000 / 60 + 8_333_333)
        .collect();
    times.extend((0..120).map(|k| 6_000_000_000 + k * 1_000_000_000 / 60 + 8_333_333));
    floor_matches_tickfold(&times);
    // Random gaps up to 600 ms (past the max frame delta, past the cap), repeats and a clock
    // that goes backwards.
    let mut rng = SplitMix64::new(11);
    let mut t = 0u64;
    let mut times = Vec::new();
    for _ in 0..20_000 {
        let r = rng.next_u64();
        t = match r % 16 {
            0 => t.saturating_sub(r % 50_000_000),
            1 => t,
            2 => t + r % 600_000_000,
            _ => t + r % 40_000_000,
        };
        times.push(t);
    }
    floor_matches_tickfold(&times);
}

#[test]
fn the_grid_walk_gives_the_grid() {
    let grid = Grid {
        offset: 5,
        num: 1_001_000_000_000,
        den: 60_000,
    };
    let mut w = GridWalk::new(grid, 7);
    for k in 7..10_000 {
        assert_eq!(w.next_time(), grid.at(k), "frame {k}");
    }
}

#[test]
fn the_extra_cases_do_what_they_say() {
    let many = Grid {
        offset: 1_000_000_000 / 120,
        num: 1_000_000_000_000,
        den: 60,
    };
    let mut t = TickfoldInPlace::with_config(uncapped_config());
    let mut f = FloorDriver::uncapped();
    for k in 1..=5 {
        assert_eq!(t.frame(many.at(k)).updates, 1_000, "frame {k}");
        assert_eq!(f.frame(many.at(k)).updates, 1_000, "frame {k}");
    }
    // Several clocks: each clock runs about one update per 60 Hz frame.
    for n in [1, 4, 16] {
        let mut t = TickfoldInPlace::with_config(clocks_config(n));
        let updates: u64 = (1..=600)
            .map(|k| {
                t.frame(k * 1_000_000_000 / 60 + 1_000_000_000 / 120)
                    .updates
            })
            .sum();
        assert!(
            updates.abs_diff(600 * n as u64) <= n as u64 * 2,
            "{n} clocks: {updates}"
        );
    }
}

#[test]
fn piston_bench_mode_runs_its_own_grid() {
    // 60 ups, 60 fps: one update before every render after the first.
    let mut p = PistonBench::new(60, 60);
    for _ in 0..120 {
        assert_eq!(p.frame(0).updates, 1);
    }
    // 480 ups, 60 fps: the first frame after the initial render holds two frames' worth.
    let mut p = PistonBench::new(480, 60);
    assert_eq!(p.frame(0).updates, 16);
    assert_eq!(p.frame(0).updates, 8);
}

#[test]
fn bevy_rounds_60_hz_and_tickfold_does_not() {
    assert_eq!(BevyDriver::new().timestep().as_nanos(), 16_666_667);
    // After 3 s of frames at exactly k/60 s, tickfold's grid is exactly on time.
    let mut t = TickfoldInPlace::new(Options::Plain);
    for k in 1..=180 {
        t.frame(k * 1_000_000_000 / 60);
    }
    let g = t.grid_state(180);
    assert_eq!((g.ticks_run, g.ahead_ns), (180, 0.0));
}

#[test]
fn jitter_is_deterministic_and_bounded() {
    let (a, b) = (SplitMix64::new(7).next_u64(), SplitMix64::new(7).next_u64());
    assert_eq!(a, b);
    for rate in [HZ_60, HZ_59_94] {
        let times = jittered(rate, 1000, 1);
        assert_eq!(times, jittered(rate, 1000, 1));
        for (k, t) in (1..).zip(&times) {
            let slot = k * rate.num / rate.den;
            assert!(t.abs_diff(slot) <= 50_000, "frame {k}");
        }
    }
}

#[test]
fn phase_removes_aliasing_that_plain_shows() {
    let times = jittered(HZ_60, 600, 60);
    let plain = histogram(&mut TickfoldInPlace::new(Options::Plain), &times);
    let phase = histogram(&mut TickfoldInPlace::new(Options::Phase), &times);
    assert!(plain.irregular() > 0);
    assert_eq!(phase.irregular(), 0);
    assert_eq!(plain.updates, 600);
}

#[test]
fn tickfold_reports_every_tick_the_stall_loses() {
    let s = stall(&mut TickfoldInPlace::new(Options::Plain));
    assert!(s.lost > 250, "{s:?}");
    assert_eq!(s.reported, s.lost);
    let s = stall(&mut GameLoopDriver::new());
    assert_eq!((s.lost > 250, s.reported), (true, 0));
}

#[test]
fn the_allocation_counter_sees_a_real_allocation() {
    // The control: the zeros below must come from the loops, not from a counter that counts
    // nothing.
    let (allocations, b) = allocations_during(|| std::hint::black_box(Box::new(7_u64)));
    assert_eq!((allocations, *b), (1, 7));
}

#[test]
fn tickfold_frames_allocate_nothing_after_set_up() {
    // 60 Hz ticks, frames every 1/60 s half a tick off the boundaries: the report's middle case.
    let grid = Grid {
        offset: 1_000_000_000 / 120,
        num: 1_000_000_000,
        den: 60,
    };
    let budget = Budget::QUICK;
    let plain = Bench::new(|| TickfoldInPlace::new(Options::Plain), grid).allocs(budget);
    let step = Bench::new(TickfoldStep::new, grid).allocs(budget);
    let plain_call =
        Bench::behind_call(|| TickfoldInPlace::new(Options::Plain), grid).allocs(budget);
    let step_call = Bench::behind_call(TickfoldStep::new, grid).allocs(budget);
    for (first, per_frame, updates) in [plain, step, plain_call, step_call] {
        assert_eq!(
            per_frame, 0.0,
            "allocations per frame after {first} in set-up"
        );
        assert_eq!(updates, 1.0);
    }
}

#[test]
fn tickfold_set_rate_fires_where_bevy_set_timestep_does() {
    let run = timestep_run();
    // The changes fall inside ticks: the overstep they carry is what the comparison is about.
    assert_eq!(run.carried.len(), 2);
    assert!(run.carried.iter().all(|&c| c > 0), "{:?}", run.carried);
    assert!(run.bevy.len() > 100, "{} runs", run.bevy.len());
    assert_eq!(run.tickfold, run.bevy);
    assert_eq!(run.tickfold_lag, run.bevy_overstep);
    assert_eq!(run.rate_changed, 2);
    assert!(timestep_agrees(&run));
    // Each change moves the step between runs to the new timestep, from the boundary on.
    let ends: Vec<u64> = run.bevy.iter().map(|r| r.1).collect();
    let steps: std::collections::BTreeSet<u64> = ends.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(
        steps.into_iter().collect::<Vec<_>>(),
        [10_000_000, 20_000_000, 25_000_000]
    );
}

#[test]
fn policy_delay_schedules_where_spin_sleep_delay_does() {
    let run = delay_run();
    let s = run.summary();
    assert_eq!(s.calls, DELAY_WORK_MS.len());
    // 12, 7 and 23 ms of work at a 5 ms period make the next call late (a busy machine may add
    // more; 3 ms never does on its own).
    assert!(s.spin_late >= 3, "{s:?}");
    assert_eq!(s.late_unexplained, 0, "{s:?}");
    assert_eq!(s.explained, s.calls, "{s:?}");
    assert_eq!(s.same_with_its_reading, s.calls, "{s:?}");
    assert_eq!(s.in_order, s.calls, "{s:?}");
    assert_eq!(run.dropped, 0);
    // The interval's first tick "returns immediately": its start is a reading taken before the
    // first call, so both loops find call 0 late and start their grids at their own reading.
    let first = run.calls[0];
    assert!(first.spin_late && first.tickfold_late, "{first:?}");
    assert_eq!(first.tickfold_slot, first.before);
    assert!(first.before <= first.spin_slot && first.spin_slot <= first.after);
    // No tick lost, none less than a period after the previous one, in either grid.
    for (k, w) in run.calls.windows(2).enumerate() {
        assert_eq!(w[1].index, k as u64 + 1);
        assert!(
            w[1].tickfold_slot - w[0].tickfold_slot >= 5_000_000,
            "call {k}"
        );
        assert!(w[1].spin_slot - w[0].spin_slot >= 5_000_000, "call {k}");
    }
    assert!(delay_explained(&s));
}
