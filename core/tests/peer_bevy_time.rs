//! Scenarios ported from `bevy_time`'s own tests (bevyengine/bevy, `crates/bevy_time/src/`:
//! `fixed.rs`, `virt.rs`, `real.rs`, `time.rs`, `lib.rs`), replayed on tickfold's fold with a
//! fake clock.
//!
//! Bevy splits time into `Time<Real>` (wall clock), `Time<Virtual>` (scaled, paused, clamped to a
//! max delta) and `Time<Fixed>` (an overstep accumulator expended one timestep at a time). In
//! tickfold the first two are the fold's real and virtual time and the third is the main clock:
//! an expend is an `Event::Update`, the overstep is `Render::lag` and the overstep fraction is
//! `Render::alpha`.
//!
//! Run-time changes (`set_timestep`, `set_max_delta` and `wrap_period` on a running loop) and
//! a port of Bevy's whole fixed pipeline checked frame by frame are in
//! `peer_bevy_time_runtime.rs`.
//!
//! Not ported: `lib.rs::events_get_dropped_regression_test_11528` /
//! `event_update_should_wait_for_fixed_main`'s message bookkeeping (an ECS concern; their
//! fixed-update counts are ported below).

use core::time::Duration;

use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period, RateError, TimeScale};

mod support;

use support::bevy::*;

/// bevy `lib.rs::fixed_main_schedule_should_run_with_time_plugin_enabled`: frames of just over
/// half the default timestep. Frame 0 is the first update (no time has passed), then the fixed
/// schedule has run 0, 1, 1, 2 times after frames 1 to 4.
#[test]
fn fixed_update_runs_after_two_half_timestep_frames() {
    let frame = BEVY_TIMESTEP / 2 + MS;
    let mut state = new(LoopConfig::new(period(BEVY_TIMESTEP)));
    let mut counts = Vec::new();
    for k in 0..5 {
        let events = state.advance(Nanos(k * frame));
        assert!(events.render().is_some(), "frame {k} renders");
        counts.push(state.clock("main").unwrap().stats().ticks_run);
    }
    assert_eq!(counts, [0, 0, 1, 1, 2]);
    assert_eq!(Period::from_hz(64).unwrap(), period(BEVY_TIMESTEP));
}

/// bevy `lib.rs::event_update_should_wait_for_fixed_main`: the same frames for ten updates; the
/// fixed count after frame k is `floor(k · frame / timestep)` and each fixed update is seen at
/// the first frame that reaches its end.
#[test]
fn fixed_update_count_follows_accumulated_frames() {
    let frame = BEVY_TIMESTEP / 2 + MS;
    let mut state = new(LoopConfig::new(period(BEVY_TIMESTEP)));
    for k in 0..10u64 {
        let events = state.advance(Nanos(k * frame));
        assert_eq!(
            state.clock("main").unwrap().stats().ticks_run,
            k * frame / BEVY_TIMESTEP,
            "frame {k}"
        );
        for tick in events.updates() {
            assert!(
                tick.lag.behind().0 >= BEVY_TIMESTEP && tick.lag.behind().0 < BEVY_TIMESTEP + frame
            );
        }
    }
}

/// bevy `lib.rs::events_get_dropped_regression_test_11528` drives the app with
/// `TimeUpdateStrategy::ManualDuration(timestep)`: every frame lands exactly on a tick boundary
/// and must run exactly one fixed update (never 0 then 2).
#[test]
fn frames_of_exactly_one_timestep_run_one_update_each() {
    let mut state = new(LoopConfig::new(period(BEVY_TIMESTEP)));
    assert_eq!(state.advance(Nanos(0)).updates().count(), 0);
    for k in 1..=10u64 {
        let events = state.advance(Nanos(k * BEVY_TIMESTEP));
        let ticks: Vec<u64> = events.updates().map(|t| t.index).collect();
        assert_eq!(ticks, [k - 1], "frame {k}");
        assert_eq!(render(&events).alpha, 0.0);
        assert_eq!(render(&events).lag.as_nanos(), 0);
    }
}

/// bevy `fixed.rs::test_expend`: a 2 s timestep. One second accumulates half a step (fraction
/// ½, nothing expended); another second makes one step (elapsed 2 s, overstep 0); a call with
/// no new time expends nothing; one more second is half a step again.
#[test]
fn expend_half_then_full_then_half() {
    let mut state = new(LoopConfig::new(period(2 * SEC)).max_frame_delta(None));
    let first = state.advance(Nanos(0));
    assert_eq!(render(&first).alpha, 0.0);
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 0);

    let e = state.advance(Nanos(SEC));
    assert_eq!(e.updates().count(), 0);
    assert_eq!(
        (render(&e).alpha, render(&e).lag.as_nanos()),
        (0.5, SEC as i128)
    );

    let e = state.advance(Nanos(2 * SEC));
    let ticks: Vec<_> = e
        .updates()
        .map(|t| (t.index, t.t.0, t.lag.behind().0))
        .collect();
    assert_eq!(ticks, [(0, 0, 2 * SEC)]);
    assert_eq!((render(&e).alpha, render(&e).lag.as_nanos()), (0.0, 0));
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 1);

    // Bevy's second `expend()` with no new overstep returns false: a step at the same `now`
    // runs nothing (and tickfold does not even re-render).
    let e = state.advance(Nanos(2 * SEC));
    assert_eq!(e.updates().count(), 0);
    assert!(e.render().is_none());
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 1);

    let e = state.advance(Nanos(3 * SEC));
    assert_eq!(e.updates().count(), 0);
    assert_eq!(
        (render(&e).alpha, render(&e).lag.as_nanos()),
        (0.5, SEC as i128)
    );
}

/// bevy `fixed.rs::test_expend_multiple`: 7 s accumulated at once with a 2 s timestep expends
/// three times (elapsed 2, 4, 6 s; overstep 5, 3, 1 s) and keeps 1 s of overstep.
#[test]
fn expend_multiple_in_one_frame() {
    let mut state = new(LoopConfig::new(period(2 * SEC)).max_frame_delta(None));
    let e = state.advance(Nanos(7 * SEC));
    let ticks: Vec<_> = e
        .updates()
        .map(|t| (t.index, t.t.0, t.lag.behind().0))
        .collect();
    // `lag` is the overstep *before* each expend: 7, 5, 3 s.
    assert_eq!(
        ticks,
        [
            (0, 0, 7 * SEC),
            (1, 2 * SEC, 5 * SEC),
            (2, 4 * SEC, 3 * SEC)
        ]
    );
    let last: Vec<bool> = e.updates().map(|t| t.last_in_step).collect();
    assert_eq!(last, [false, false, true]);
    assert_eq!(
        (render(&e).alpha, render(&e).lag.as_nanos()),
        (0.5, SEC as i128)
    );
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 3);
}

/// bevy `fixed.rs::test_set_timestep`: the timestep built from a duration, from seconds and from
/// hertz (the same values set at run time: `set_timestep_at_run_time`), and a zero timestep (a
/// panic in Bevy) is a typed error.
#[test]
fn timestep_constructors_agree() {
    assert_eq!(period(BEVY_TIMESTEP).as_nanos_ratio(), (15_625_000, 1));
    assert_eq!(
        Period::from_duration(Duration::from_millis(500)).unwrap(),
        Period::from_hz(2).unwrap()
    );
    assert_eq!(
        Period::from_secs_ratio(1, 4).unwrap(),
        Period::from_duration(Duration::from_millis(250)).unwrap()
    );
    assert_eq!(
        Period::from_hz_f64(8.0).unwrap(),
        Period::from_duration(Duration::from_millis(125)).unwrap()
    );
    assert_eq!(Period::from_duration(Duration::ZERO), Err(RateError::Zero));
    assert_eq!(Period::from_hz_f64(0.0), Err(RateError::Zero));
}

/// bevy `virt.rs::test_default`: not paused, speed 1, max delta 250 ms, nothing elapsed. The
/// 250 ms default is observable: a frame of exactly 250 ms loses nothing, and a frame one tick
/// longer loses exactly that tick. (Bevy clamps the time itself; tickfold keeps virtual time
/// whole and drops the ticks beyond the max delta, so a sliver past it that costs no tick is
/// not a loss and is not reported.)
#[test]
fn virtual_defaults() {
    let mut state = new(LoopConfig::new(Period::from_hz(1_000).unwrap()).max_updates(None));
    assert!(!state.virtual_time().is_paused());
    assert_eq!(state.virtual_time().scale(), TimeScale::ONE);
    assert_eq!(state.virtual_time().elapsed(), Nanos(0));
    let e = state.advance(Nanos(250 * MS));
    assert!(discarded(&e).is_empty());
    assert_eq!(e.updates().count(), 250);
    let e = state.advance(Nanos(500 * MS + 1));
    assert!(
        discarded(&e).is_empty(),
        "1 ns past the max delta costs no tick"
    );
    assert_eq!(e.updates().count(), 250);
    let e = state.advance(Nanos(751 * MS + 1));
    assert_eq!(
        discarded(&e),
        [(MS, 500, 1)],
        "1 ms past the max delta: tick 500 is dropped"
    );
    assert_eq!(e.updates().count(), 250);
}

/// bevy `virt.rs::test_advance`: four raw deltas of 125 ms give virtual elapsed 125, 250, 375,
/// 500 ms.
#[test]
fn virtual_time_advances_by_raw_delta() {
    let mut state = new(LoopConfig::new(Period::from_hz(8).unwrap()));
    for k in 1..=4u64 {
        let e = state.advance(Nanos(k * 125 * MS));
        assert_eq!(state.virtual_time().elapsed(), Nanos(k * 125 * MS));
        assert_eq!(state.real_time().elapsed(), Nanos(k * 125 * MS));
        // 8 Hz: exactly one tick per 125 ms frame.
        assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [k - 1]);
    }
}

/// bevy `virt.rs::test_relative_speed`: 250 ms at speed 1 (elapsed 250), then speed 2 (delta
/// 500, elapsed 750), then speed ½ (delta 125, elapsed 875). A speed change applies from the
/// next frame on, not to the frame already measured.
#[test]
fn relative_speed_scales_the_following_frames() {
    let config = LoopConfig::new(Period::from_hz(8).unwrap())
        .max_frame_delta(Some(Duration::from_secs(1)))
        .max_updates(None);
    let mut state = new(config);
    state.advance(Nanos(250 * MS));
    assert_eq!(state.virtual_time().elapsed(), Nanos(250 * MS));

    state
        .virtual_time_mut()
        .set_scale(TimeScale::from_f64(2.0).unwrap());
    let e = state.advance(Nanos(500 * MS));
    assert!(e.contains(&Event::ScaleChanged(TimeScale::ratio(2, 1).unwrap())));
    assert_eq!(state.virtual_time().elapsed(), Nanos(750 * MS));
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        6,
        "750 ms of 125 ms ticks"
    );

    state
        .virtual_time_mut()
        .set_scale(TimeScale::from_f64(0.5).unwrap());
    let e = state.advance(Nanos(750 * MS));
    assert!(e.contains(&Event::ScaleChanged(TimeScale::ratio(1, 2).unwrap())));
    assert_eq!(state.virtual_time().elapsed(), Nanos(875 * MS));
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 7);
    assert_eq!(state.real_time().elapsed(), Nanos(750 * MS));
}

/// bevy `virt.rs::test_pause`: 250 ms, pause, 250 ms (virtual delta 0, elapsed stays 250),
/// unpause, 250 ms (elapsed 500). Ported with a fixed clock in the middle of an accumulation: a
/// 200 ms timestep is 50 ms into its second tick when the pause starts, and resumes from there.
#[test]
fn pause_freezes_virtual_time_and_the_accumulator() {
    let mut state = new(LoopConfig::new(Period::from_hz(5).unwrap()));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(250 * MS));
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 1);
    let before = render(&e);
    assert_eq!(before.lag.as_nanos(), 50 * MS as i128);

    state.virtual_time_mut().set_paused(true);
    assert!(state.virtual_time().is_paused());
    let e = state.advance(Nanos(500 * MS));
    assert_eq!(e.iter().next(), Some(Event::Paused));
    assert_eq!(e.updates().count(), 0);
    assert_eq!(state.virtual_time().elapsed(), Nanos(250 * MS));
    let paused = render(&e);
    assert!(paused.paused);
    assert_eq!(
        (paused.alpha, paused.lag.as_nanos()),
        (before.alpha, before.lag.as_nanos())
    );
    assert_eq!(e.deadline(), None, "nothing is due while paused");

    state.virtual_time_mut().set_paused(false);
    let e = state.advance(Nanos(750 * MS));
    assert_eq!(e.iter().next(), Some(Event::Resumed));
    assert_eq!(state.virtual_time().elapsed(), Nanos(500 * MS));
    assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [1]);
    assert_eq!(render(&e).lag.as_nanos(), 100 * MS as i128);
    assert!(!render(&e).paused);
}

/// bevy `virt.rs::test_max_delta` (first half): max delta 500 ms; frames of 250 ms and exactly
/// 500 ms pass unclamped, a 750 ms frame is clamped to 500 ms (Bevy: virtual elapsed 1,250 ms).
///
/// Bevy shortens virtual time silently (a debug log). tickfold keeps virtual time whole and
/// drops the oldest ticks beyond the max delta instead, reported as `DiscardedTime` with their
/// numbers: with a 250 ms timestep the simulation still ends up 5 ticks in, as Bevy's does.
#[test]
fn max_delta_clamps_a_long_frame_and_reports_it() {
    let config = LoopConfig::new(Period::from_hz(4).unwrap())
        .max_frame_delta(Some(Duration::from_millis(500)));
    let mut state = new(config);
    let e = state.advance(Nanos(250 * MS));
    assert!(discarded(&e).is_empty());
    let e = state.advance(Nanos(750 * MS));
    assert!(
        discarded(&e).is_empty(),
        "a frame of exactly max delta is not clamped"
    );
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 3);

    let e = state.advance(Nanos(1_500 * MS));
    assert_eq!(discarded(&e), [(250 * MS, 3, 1)]);
    assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [4, 5]);
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        5,
        "Bevy: 1,250 ms of virtual time is 5 ticks"
    );
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 1);
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(
        stats.ticks_run + stats.ticks_dropped + stats.pending,
        stats.ticks_due
    );
}

/// bevy `virt.rs::test_max_delta_clamps_after_relative_speed`: speed 2,000, max delta 1 s, a raw
/// delta of 16 ms: the *scaled* delta (32 s) is clamped to 1 s. In tickfold the max delta bounds
/// the work owed in virtual time whatever the scale: at 60 Hz at most 60 ticks are worked off,
/// and the other 1,860 of the 32 s are reported dropped.
#[test]
fn max_delta_clamps_virtual_time_after_speed() {
    let config = LoopConfig::new(Period::from_hz(60).unwrap())
        .max_frame_delta(Some(Duration::from_secs(1)))
        .max_updates(None)
        .time_scale(TimeScale::from_f64(2_000.0).unwrap());
    let mut state = new(config);
    let e = state.advance(Nanos(16 * MS));
    assert_eq!(e.updates().count(), 60);
    assert_eq!(e.dropped_ticks(), 32 * 60 - 60);
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(stats.ticks_run + stats.ticks_dropped, stats.ticks_due);
}

/// bevy `virt.rs::test_dont_overclamp_at_low_speed`: speed 0.01, max delta 10 ms, a raw delta of
/// 16 ms is 160 µs of virtual time, far under the max delta: nothing is clamped.
#[test]
fn max_delta_does_not_overclamp_at_low_speed() {
    let config = LoopConfig::new(period(20_000))
        .max_frame_delta(Some(Duration::from_millis(10)))
        .time_scale(TimeScale::ratio(1, 100).unwrap());
    let mut state = new(config);
    let e = state.advance(Nanos(16 * MS));
    assert_eq!(state.virtual_time().elapsed(), Nanos(160_000));
    assert!(discarded(&e).is_empty(), "{e:?}");
    assert_eq!(e.updates().count(), 8, "160 µs of 20 µs ticks");
}

/// Bevy's default max delta (250 ms) with a slow fixed clock, `Time::<Fixed>::from_hz(1.0)`: a
/// shell that sleeps until the fold's deadline wakes exactly when tick 0 is due. That tick is on
/// schedule, so the max delta must not eat it.
#[test]
fn slow_fixed_clock_driven_by_deadlines_keeps_its_ticks() {
    let mut state = new(LoopConfig::new(Period::from_hz(1).unwrap()));
    let mut now = state.advance(Nanos(0)).deadline().copied().unwrap();
    assert_eq!(now, Nanos(SEC));
    for k in 0..5u64 {
        let e = state.advance(now);
        assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [k]);
        assert_eq!(e.dropped_ticks(), 0);
        now = e.deadline().copied().unwrap();
    }
}

/// bevy `real.rs::test_update_with_duration` / `test_update_with_instant`: Bevy's first update
/// only records the instant (delta 0, elapsed 0); later deltas are measured from it.
///
/// tickfold measures from the explicit start given to `LoopState::new`, so the same behaviour
/// comes from starting the loop at the first frame's time: then the first step has nothing to
/// count, renders alpha 0, and later frames count from it. Starting earlier counts the gap.
#[test]
fn first_update_counts_from_the_explicit_start() {
    let config = LoopConfig::new(Period::from_hz(2).unwrap()).max_frame_delta(None);
    let mut bevy_like = LoopState::new(config.clone(), Nanos(SEC)).unwrap();
    let e = bevy_like.advance(Nanos(SEC));
    assert_eq!((e.updates().count(), render(&e).alpha), (0, 0.0));
    assert_eq!(bevy_like.virtual_time().elapsed(), Nanos(0));
    bevy_like.advance(Nanos(2 * SEC));
    assert_eq!(bevy_like.virtual_time().elapsed(), Nanos(SEC));
    bevy_like.advance(Nanos(3 * SEC));
    assert_eq!(bevy_like.virtual_time().elapsed(), Nanos(2 * SEC));
    assert_eq!(
        bevy_like
            .clock(bevy_like.alpha_clock())
            .unwrap()
            .stats()
            .ticks_run,
        4
    );

    let mut from_zero = LoopState::new(config, Nanos(0)).unwrap();
    let e = from_zero.advance(Nanos(SEC));
    assert_eq!(e.updates().count(), 2, "the gap since the start is counted");
    assert_eq!(from_zero.virtual_time().elapsed(), Nanos(SEC));
}

/// bevy `time.rs::test_advance_to`: advancing to the same time gives a zero delta and keeps the
/// elapsed time; `test_advance_to_backwards_panics`: going backwards panics. tickfold never
/// panics on the hot path: a repeated `now` renders nothing, an earlier one is reported as
/// `TimeBackwards` and no time passes.
#[test]
fn zero_delta_and_backwards_time() {
    let mut state = new(LoopConfig::new(Period::from_hz(4).unwrap()).max_frame_delta(None));
    state.advance(Nanos(250 * MS));
    let e = state.advance(Nanos(750 * MS));
    assert_eq!(e.updates().count(), 2);
    assert_eq!(state.virtual_time().elapsed(), Nanos(750 * MS));

    let e = state.advance(Nanos(750 * MS));
    assert!(e.is_empty(), "zero delta: nothing happens, {e:?}");
    assert_eq!(state.virtual_time().elapsed(), Nanos(750 * MS));

    let e = state.advance(Nanos(250 * MS));
    assert_eq!(
        e.iter().next(),
        Some(Event::TimeBackwards {
            by: Nanos(500 * MS)
        })
    );
    assert!(e.render().is_none());
    assert_eq!(e.updates().count(), 0);
    assert_eq!(state.virtual_time().elapsed(), Nanos(750 * MS));
    // The next frame is measured from the latest `now` (750 ms), not from 250 ms.
    state.advance(Nanos(1_000 * MS));
    assert_eq!(state.virtual_time().elapsed(), Nanos(1_000 * MS));
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 4);
}

/// Bevy's fixed timestep with many tiny frames versus one big frame (the accumulator is a
/// `Duration`, so both agree in Bevy; they must in tickfold too): 1 s in 1,000 frames of 1 ms
/// and 1 s in one frame run the same 64 ticks and end with the same overstep.
#[test]
fn many_tiny_frames_equal_one_big_frame() {
    let config = LoopConfig::new(period(BEVY_TIMESTEP))
        .max_frame_delta(None)
        .max_updates(None);
    let mut tiny = new(config.clone());
    let mut indices = Vec::new();
    for k in 1..=1_000u64 {
        indices.extend(tiny.advance(Nanos(k * MS)).updates().map(|t| t.index));
    }
    let mut big = new(config);
    let e = big.advance(Nanos(SEC));
    assert_eq!(e.updates().count(), 64);
    assert_eq!(indices, (0..64).collect::<Vec<_>>());
    assert_eq!(
        tiny.clock(tiny.alpha_clock()).unwrap().stats().ticks_run,
        big.clock(big.alpha_clock()).unwrap().stats().ticks_run
    );
    assert_eq!(tiny.virtual_time().elapsed(), big.virtual_time().elapsed());
    assert_eq!(
        tiny.clock(tiny.alpha_clock())
            .unwrap()
            .stats()
            .lag
            .as_nanos(),
        render(&e).lag.as_nanos()
    );
}

/// bevy `virt.rs::test_relative_speed` with speed changes in the middle of an accumulation and
/// frames too short for whole virtual nanoseconds: 1 ns at speed ⅓, 1 ns at ½ and 1 ns at ⅙ add
/// up to exactly 1 ns of virtual time. Bevy scales each `Duration` with an `f64` and rounds every
/// frame; tickfold promises exact scaled time, so a thousand such cycles are exactly 1 µs.
#[test]
fn speed_changes_keep_sub_nanosecond_remainders() {
    let config = LoopConfig::new(Period::from_hz(1_000_000).unwrap());
    let mut state = new(config);
    state.advance(Nanos(0));
    let scales = [(1, 3), (1, 2), (1, 6)];
    let mut now = 0;
    for _ in 0..1_000 {
        for (num, den) in scales {
            state
                .virtual_time_mut()
                .set_scale(TimeScale::ratio(num, den).unwrap());
            now += 1;
            state.advance(Nanos(now));
        }
    }
    assert_eq!(state.virtual_time().elapsed(), Nanos(1_000));
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 1);
}

/// bevy `real.rs::test_update_with_instant`: `Time<Real>` driven by explicit `Instant`s (no
/// clock read inside): delta and elapsed follow the instants given. tickfold takes
/// `std::time::Instant` as a timestamp the same way (feature `std`); its deadlines come back
/// as instants.
#[cfg(feature = "std")]
#[test]
fn real_time_from_explicit_instants() {
    let startup = std::time::Instant::now();
    let mut state = LoopState::new(LoopConfig::new(Period::from_hz(4).unwrap()), startup).unwrap();
    let first = state.advance(startup);
    assert_eq!(
        first.deadline(),
        Some(&(startup + Duration::from_millis(250)))
    );
    let second = startup + Duration::from_millis(300);
    let e = state.advance(second);
    assert_eq!(e.updates().count(), 1);
    assert_eq!(state.real_time().elapsed(), Nanos(300 * MS));
    assert_eq!(e.deadline(), Some(&(startup + Duration::from_millis(500))));
    let e = state.advance(startup + Duration::from_millis(200));
    assert!(matches!(e.iter().next(), Some(Event::TimeBackwards { by }) if by == Nanos(100 * MS)));
}

/// bevy `TimeUpdateStrategy::ManualDuration` / `real.rs::test_update_with_duration`: time given
/// as durations since an epoch. tickfold takes `Duration` as a timestamp too.
#[test]
fn real_time_from_durations() {
    let mut state = LoopState::new(
        LoopConfig::new(period(BEVY_TIMESTEP)),
        Duration::from_secs(1),
    )
    .unwrap();
    state.advance(Duration::from_secs(1));
    let mut fixed = 0;
    for k in 1..=64u64 {
        let now = Duration::from_secs(1) + Duration::from_nanos(k * BEVY_TIMESTEP);
        let e = state.advance(now);
        fixed += e.updates().count();
        assert_eq!(
            e.deadline(),
            Some(&(now + Duration::from_nanos(BEVY_TIMESTEP)))
        );
    }
    assert_eq!(fixed, 64);
    assert_eq!(state.virtual_time().elapsed(), Nanos(SEC));
}
