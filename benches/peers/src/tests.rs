//! Checks that the drivers do what the report says they do, on short runs.

use crate::behaviour::{HZ_59_94, HZ_60, SplitMix, histogram, jittered, stall};
use crate::drivers::{
    BevyDriver, Driver, GameLoopDriver, Grid, Options, PistonBench, TickfoldInPlace, TickfoldStep,
};
use crate::timing::{Batch, Bench, Budget, allocations_during};

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
    let (a, b) = (SplitMix::new(7).next_u64(), SplitMix::new(7).next_u64());
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
    for (first, per_frame, updates) in [plain, step] {
        assert_eq!(
            per_frame, 0.0,
            "allocations per frame after {first} in set-up"
        );
        assert_eq!(updates, 1.0);
    }
}
