//! Scenarios ported from game-loop's own tests (tuzz/game-loop, `tests/game_loop.rs`, and the
//! accumulator in `src/base.rs`), replayed on tickfold's fold with a fake clock.
//!
//! game-loop's `next_frame` measures the time since the previous frame, clamps it to
//! `max_frame_time`, adds it to an `f64` accumulator, runs `update` while the accumulator holds a
//! whole `1 / updates_per_second`, and renders with `blending_factor = accumulated / step`. Its
//! tests run the real loop and sleep; here each frame is a fold step at a chosen `now`, so
//! "as fast as possible" becomes frames of a few microseconds.
//!
//! Not ported: the `exit()` tests (`it_can_exit_the_game_loop_from_the_update_or_render_closure`,
//! `it_returns_the_control_struct_after_the_game_loop_exits`) and the closure-argument tests
//! (`it_provides_game_to_the_closures`) have no counterpart, since tickfold returns events
//! and never owns control flow; `set_updates_per_second` needs a run-time timestep change (no API
//! yet); `window_occluded` (sleep one step instead of rendering) is the shell's business.

use core::time::Duration;
use tickfold_testing::SplitMix64;

use tickfold_core::{Event, Events, LoopConfig, LoopState, Nanos, Period, Render};

const US: u64 = 1_000;
const MS: u64 = 1_000_000;
const SEC: u64 = 1_000_000_000;

/// `game_loop(GAME, 100, 1.0, …)`: 100 updates per second, a max frame time of 1 s, and no
/// per-frame update cap (game-loop has none).
fn game_loop_config(ups: u64, max_frame_time: Duration) -> LoopConfig {
    LoopConfig::new(Period::from_hz(ups).unwrap())
        .max_frame_delta(Some(max_frame_time))
        .max_updates(None)
}

fn new(config: LoopConfig) -> LoopState {
    LoopState::new(config, Nanos(0)).unwrap()
}

fn render(events: &Events<Nanos>) -> Render {
    *events.render().expect("the step renders")
}

/// Frames of `frame` ns from 0 to `until` (the last one shorter if need be). Returns one
/// observation per update, (tick index, real time of the step, lag before the tick), and the
/// number of renders.
fn run_tiny_frames(frame: u64, until: u64) -> (LoopState, Vec<(u64, u64, u64)>, u64) {
    let mut state = new(game_loop_config(100, Duration::from_secs(1)));
    let mut seen = Vec::new();
    let mut renders = 0;
    let mut now = 0;
    loop {
        let e = state.advance(Nanos(now));
        seen.extend(e.updates().map(|t| (t.index, now, t.lag.behind().0)));
        renders += u64::from(e.render().is_some());
        if now == until {
            return (state, seen, renders);
        }
        now = (now + frame).min(until);
    }
}

/// game-loop `it_provides_number_of_updates_to_the_closures`: inside update *i*,
/// `number_of_updates()` is *i* (the count before it). tickfold's `Tick::index` is that count.
#[test]
fn update_index_counts_the_updates_before_it() {
    let (state, seen, _) = run_tiny_frames(50 * US, 100 * MS);
    for (i, (index, _, _)) in seen.iter().enumerate() {
        assert_eq!(*index, i as u64);
    }
    assert_eq!(seen.len(), 10);
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 10);
}

/// game-loop `it_provides_number_of_renders_to_the_closures` and
/// `it_calls_the_render_function_as_quickly_as_possible` (more than 1,000 renders in 0.1 s):
/// every frame that moved time renders, once, and `Render::ticks` counts the updates so far.
#[test]
fn every_frame_renders_once() {
    let (_, _, renders) = run_tiny_frames(20 * US, 100 * MS);
    assert_eq!(renders, 100 * MS / (20 * US) + 1);
    assert!(renders > 1_000);

    let mut state = new(game_loop_config(100, Duration::from_secs(1)));
    for k in 0..=30u64 {
        let e = state.advance(Nanos(k * MS));
        let r = render(&e);
        assert_eq!(r.ticks, k / 10, "frame {k}");
        assert_eq!(r.ticks, state.clock("main").unwrap().stats().ticks_run);
        assert_eq!(
            e.iter().filter(|e| matches!(e, Event::Render(_))).count(),
            1
        );
    }
}

/// game-loop `it_provides_running_time_to_the_closures`: update *i* runs when the running time
/// is about `0.01 · (i + 1)` s. In tickfold update *i* runs at the first frame at or after the
/// end of its interval, so its frame's time is in `[(i + 1)·dt, (i + 1)·dt + frame)`.
#[test]
fn update_runs_when_its_interval_has_passed() {
    for frame in [US, 50 * US, 3 * MS] {
        let (_, seen, _) = run_tiny_frames(frame, 100 * MS);
        assert_eq!(seen.len(), 10, "frame {frame}");
        for (i, now, _) in seen {
            let end = (i + 1) * 10 * MS;
            assert!(
                now >= end && now < end + frame,
                "tick {i} at {now} (frame {frame})"
            );
        }
    }
}

/// game-loop `it_provides_accumulated_time_to_the_closures`: inside each update the accumulated
/// time is about one step (0.01 s), before the update subtracts it. tickfold reports that as
/// `Tick::lag`: at least one step, less than one step plus one frame.
#[test]
fn lag_before_each_update_is_about_one_step() {
    let frame = 50 * US;
    let (_, seen, _) = run_tiny_frames(frame, 100 * MS);
    for (i, _, lag) in seen {
        assert!(
            lag >= 10 * MS && lag < 10 * MS + frame,
            "tick {i}: lag {lag}"
        );
    }
}

/// game-loop `it_calls_the_update_function_according_to_updates_per_second`: running until
/// 0.1 s at 100 updates per second gives 10 updates. With exact time the 10th tick is due at
/// exactly 100 ms, not a nanosecond before.
#[test]
fn hundred_updates_per_second_run_ten_in_a_tenth() {
    let mut state = new(game_loop_config(100, Duration::from_secs(1)));
    let mut now = 0;
    while now < 100 * MS - 1 {
        state.advance(Nanos(now));
        now += 7 * US;
    }
    state.advance(Nanos(100 * MS - 1));
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 9);
    let e = state.advance(Nanos(100 * MS));
    assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [9]);
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 10);
}

/// game-loop `it_limits_the_maximum_frame_time_which_reduces_the_number_of_updates`: 100 ups,
/// `max_frame_time` 0.1 s, and a first render that takes 0.2 s: 10 updates instead of 20.
///
/// game-loop clamps silently and the simulation stays 0.1 s behind real time for good. tickfold
/// also runs 10, but reports the 10 ticks it gave up (`DiscardedTime`) and numbers the updates
/// that run after them (10..20), so the simulation stays in step with the clock.
#[test]
fn max_frame_time_limits_the_updates_of_a_long_frame() {
    let mut state = new(game_loop_config(100, Duration::from_millis(100)));
    let first = state.advance(Nanos(0));
    assert!(first.render().is_some());
    let e = state.advance(Nanos(200 * MS));
    assert_eq!(e.updates().count(), 10, "instead of 20");
    assert_eq!(
        e.iter().next(),
        Some(Event::DiscardedTime {
            clock: tickfold_core::ClockId(0),
            time: Nanos(100 * MS),
            first: 0,
            ticks: 10,
        })
    );
    assert_eq!(
        e.updates().map(|t| t.index).collect::<Vec<_>>(),
        (10..20).collect::<Vec<_>>()
    );
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 10);
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 10);
    assert_eq!(render(&e).alpha, 0.0);
}

/// The same long frame under tickfold's default per-step cap of 8 (game-loop has no cap): 8
/// updates run, the other 2 are deferred to the next call, none is lost to the cap.
#[test]
fn max_frame_time_with_the_default_update_cap() {
    let config = game_loop_config(100, Duration::from_millis(100)).max_updates(Some(8));
    let mut state = new(config);
    state.advance(Nanos(0));
    let e = state.advance(Nanos(200 * MS));
    assert_eq!(e.updates().count(), 8);
    assert!(e.contains(&Event::Deferred {
        clock: tickfold_core::ClockId(0),
        ticks: 2
    }));
    assert_eq!(e.deadline(), Some(&Nanos(200 * MS)), "call again at once");
    let e = state.advance(Nanos(200 * MS));
    assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [18, 19]);
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 10);
    assert_eq!(state.clock("main").unwrap().stats().pending, 0);
}

/// game-loop `it_provides_blending_factor_so_that_render_can_interpolate_between_frames`: the
/// first render, a moment after the loop started, has a blending factor in `(0, 0.0001)`.
#[test]
fn first_render_blends_a_tiny_fraction_in() {
    let mut state = new(game_loop_config(100, Duration::from_secs(1)));
    let e = state.advance(Nanos(500));
    let alpha = render(&e).alpha;
    assert!(alpha > 0.0 && alpha < 0.0001, "alpha {alpha}");
    assert_eq!(render(&e).lag.as_nanos(), 500);
    assert_eq!(e.updates().count(), 0);
}

/// game-loop `it_can_re_measure_how_much_time_has_accumulated_mid_way_through_a_render`: a
/// render that takes 0.2 s, then `re_accumulate()`: accumulated 0.2 s, blending factor about 20.
///
/// tickfold has no re-measure: the next step counts the 0.2 s and runs the 20 updates it
/// holds. A blending factor above 1 would extrapolate past the newest state; tickfold's alpha
/// stays in `[0, 1]`.
#[test]
fn a_long_render_is_worked_off_by_the_next_step() {
    let mut state = new(game_loop_config(100, Duration::from_secs(1)));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(200 * MS + 3 * MS));
    assert_eq!(e.updates().count(), 20);
    assert_eq!(state.real_time().elapsed(), Nanos(203 * MS));
    let alpha = render(&e).alpha;
    assert!((alpha - 0.3).abs() < 1e-12, "alpha {alpha}");
}

/// game-loop `it_provides_fixed_time_step_to_the_closures`, `…updates_per_second…` and
/// `…max_frame_time…`: 100 ups is a step of 0.01 s, handed to every update.
#[test]
fn fixed_time_step_is_handed_to_each_update() {
    let mut state = new(game_loop_config(100, Duration::from_secs(1)));
    let e = state.advance(Nanos(30 * MS));
    assert_eq!(e.updates().count(), 3);
    for tick in e.updates() {
        assert_eq!(tick.dt_secs(), 0.01);
        assert_eq!(tick.dt.as_nanos_ratio(), (10 * MS, 1));
        assert_eq!(tick.t, Nanos(tick.index * 10 * MS));
    }
    assert_eq!(state.clock("main").unwrap().stats().rate.hz_f64(), 100.0);
}

/// game-loop accumulates `f64` seconds (`accumulated_time -= fixed_time_step`), so its count
/// depends on how frames slice time. tickfold counts in integer nanoseconds: an hour at 60 ups
/// sliced into 7 ms frames runs exactly 216,000 updates, the same as 1 s frames, and ends with
/// no lag at all.
#[test]
fn an_hour_of_frames_runs_exactly_ups_times_seconds() {
    let hour = 3_600 * SEC;
    let config = LoopConfig::new(Period::from_hz(60).unwrap()).max_updates(None);
    let mut small = new(config.clone());
    let mut now = 0;
    let mut indices_ok = true;
    let mut expected = 0;
    while now < hour {
        now = (now + 7 * MS).min(hour);
        for tick in small.advance(Nanos(now)).updates() {
            indices_ok &= tick.index == expected;
            expected += 1;
        }
    }
    assert!(indices_ok);
    assert_eq!(
        small.clock(small.alpha_clock()).unwrap().stats().ticks_run,
        216_000
    );
    assert_eq!(
        small
            .clock(small.alpha_clock())
            .unwrap()
            .stats()
            .lag
            .as_nanos(),
        0
    );

    let mut big = new(config.max_frame_delta(None));
    for s in 1..=3_600u64 {
        big.advance(Nanos(s * SEC));
    }
    assert_eq!(
        big.clock(big.alpha_clock()).unwrap().stats().ticks_run,
        216_000
    );
    assert_eq!(
        big.clock(big.alpha_clock()).unwrap().stats().ticks_dropped
            + small
                .clock(small.alpha_clock())
                .unwrap()
                .stats()
                .ticks_dropped,
        0
    );
}

/// game-loop's `GameLoop::next_frame` accumulator (`src/base.rs`), ported as is: `f64`
/// seconds, the elapsed time clamped to `max_frame_time`, `update` while the accumulator holds
/// a whole step, `blending_factor = accumulated / step`.
struct GameLoopAccumulator {
    fixed_time_step: f64,
    max_frame_time: f64,
    accumulated_time: f64,
}

impl GameLoopAccumulator {
    fn next_frame(&mut self, elapsed: f64) -> (u64, f64) {
        let elapsed = elapsed.min(self.max_frame_time);
        self.accumulated_time += elapsed;
        let mut updates = 0;
        while self.accumulated_time >= self.fixed_time_step {
            self.accumulated_time -= self.fixed_time_step;
            updates += 1;
        }
        (updates, self.accumulated_time / self.fixed_time_step)
    }
}

/// game-loop's accumulator against the fold on 20,000 random frames (0 to 30 ms, with many of
/// exactly 10 ms, 3 ms and 7 ms, which land on step boundaries): the same number of updates in
/// every frame, and the blending factor equal to alpha away from float noise at the boundaries.
/// (On this schedule game-loop's `f64` sums never round across a boundary; tickfold's integer
/// time cannot.)
#[test]
fn game_loop_accumulator_agrees_frame_by_frame() {
    let mut peer = GameLoopAccumulator {
        fixed_time_step: 1.0 / 100.0,
        max_frame_time: 1.0,
        accumulated_time: 0.0,
    };
    let mut state = new(game_loop_config(100, Duration::from_secs(1)));
    state.advance(Nanos(0));
    let (mut now, mut rng) = (0u64, SplitMix64::new(0x7777_1234_5678_9abc));
    let mut peer_total = 0;
    for frame in 0..20_000 {
        let x = rng.next_u64();
        let dt = match x % 8 {
            0 | 1 => 10 * MS,
            2 => 3 * MS,
            3 => 7 * MS,
            _ => x % (30 * MS),
        };
        now += dt;
        let (updates, blend) = peer.next_frame(dt as f64 / 1e9);
        peer_total += updates;
        let e = state.advance(Nanos(now));
        assert_eq!(e.updates().count() as u64, updates, "frame {frame}");
        let r = render(&e);
        if r.lag.as_nanos() > 1_000 && r.lag.as_nanos() < 10 * MS as i128 - 1_000 {
            assert!((r.alpha - blend).abs() < 1e-6, "frame {frame}");
        }
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, peer_total);
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        now / (10 * MS),
        "exactly floor(now / step)"
    );
}
