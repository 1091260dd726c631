//! Regression tests for the fuzzing findings of issue 13, against the public API: exact time
//! scales, the max frame delta in virtual time, scale 0, the end of time, saturating counters,
//! deadlines never before `now`, one exact lag type, the accounting identity for every clock,
//! and typed refusals.

use core::time::Duration;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    ClockConfig, ClockId, Event, Events, Firing, Lag, LoopConfig, LoopState, Nanos, Period, Policy,
    RateError, TimeScale,
};

const MS: u64 = 1_000_000;
const SEC: u64 = 1_000_000_000;

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn scale(num: u32, den: u32) -> TimeScale {
    TimeScale::ratio(num, den).unwrap()
}

/// Checks `ticks_run + ticks_dropped + pending == ticks_due + ticks_early` on every clock.
fn identity_holds<T: tickfold_core::Timestamp>(state: &LoopState<T>) -> Result<(), String> {
    for name in state.clock_names() {
        let id = state.clock(name).unwrap().id();
        let s = state.clock(id).unwrap().stats();
        let lhs = u128::from(s.ticks_run) + u128::from(s.ticks_dropped) + u128::from(s.pending);
        let rhs = u128::from(s.ticks_due) + u128::from(s.ticks_early);
        if lhs != rhs {
            return Err(format!("{name}: {s:?}"));
        }
    }
    Ok(())
}

// 1. Time scale changes are exact.

#[test]
fn scale_toggling_keeps_every_nanosecond() {
    let mut state = LoopState::new(LoopConfig::new(hz(60)), Nanos(0)).unwrap();
    let mut events = Events::new();
    state.advance_into(Nanos(0), &mut events);
    for frame in 1..=6_000u64 {
        state.virtual_time_mut().set_scale(if frame % 2 == 1 {
            scale(1, 3)
        } else {
            TimeScale::ONE
        });
        state.advance_into(Nanos(frame * 16_666_667), &mut events);
    }
    // 3,000 frames at 1/3 and 3,000 at 1: 16,666,667,000 + 50,000,001,000 ns.
    assert_eq!(state.virtual_time().elapsed(), Nanos(66_666_668_000));
}

#[test]
fn many_coprime_scales_stay_exact() {
    // Seven scales with coprime denominators, 1 ms of real time each, 300 rounds.
    let scales = [(1, 3), (2, 7), (5, 11), (1, 13), (3, 17), (1, 2), (4, 1)];
    let config = LoopConfig::new(hz(60)).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    state.advance(Nanos(0));
    let mut now = 0u64;
    // Exact virtual time in units of 1/lcm(3, 7, 11, 13, 17, 2) ns.
    let lcm: u128 = 3 * 7 * 11 * 13 * 17 * 2;
    let mut exact: u128 = 0;
    for _ in 0..300 {
        for (n, d) in scales {
            state.virtual_time_mut().set_scale(scale(n, d));
            now += 1_000_001;
            state.advance(Nanos(now));
            exact += 1_000_001 * u128::from(n) * lcm / u128::from(d);
        }
    }
    assert_eq!(u128::from(state.virtual_time().elapsed().0), exact / lcm);
}

// 2. The max frame delta bounds virtual time.

#[test]
fn the_clamp_bounds_virtual_time_at_a_high_scale() {
    let config = LoopConfig::new(hz(60))
        .max_updates(None)
        .time_scale(scale(2_000, 1));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    state.advance(Nanos(0));
    let mut reported = 0;
    for frame in 1..=2u64 {
        let events = state.advance(Nanos(frame * 16 * MS));
        // 250 ms of virtual time at 60 Hz: 15 ticks, whatever the 32 s the frame scaled to.
        assert_eq!(events.updates().count(), 15, "frame {frame}");
        assert!(events.iter().any(|e| matches!(
            e,
            Event::DiscardedTime { time, ticks, .. } if time.0 > 31 * SEC && ticks > 1_900
        )));
        reported += events.dropped_ticks();
    }
    assert_eq!(state.clock("main").unwrap().stats().pending, 0);
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, reported);
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run + reported,
        state.clock("main").unwrap().stats().ticks_due
    );
}

#[test]
fn a_slow_scale_is_not_over_clamped() {
    // At 1/100, a 2 s frame moves virtual time by 20 ms: one tick, nothing to clamp.
    let config = LoopConfig::new(hz(60)).time_scale(scale(1, 100));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    state.advance(Nanos(0));
    let events = state.advance(Nanos(2 * SEC));
    assert_eq!(events.updates().count(), 1);
    assert_eq!(events.dropped_ticks(), 0);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::DiscardedTime { .. }))
    );
}

// 8. A shell that sleeps until each deadline never loses a tick.

fn sleep_to_deadlines(rate: Period, s: TimeScale) -> (u64, u64, u64) {
    let config = LoopConfig::new(rate).time_scale(s);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut events = state.advance(Nanos(0));
    let mut dropped = events.dropped_ticks();
    let mut steps = 0;
    while let Some(&d) = events.deadline() {
        if d.0 > 10 * SEC {
            break;
        }
        events = state.advance(d);
        dropped += events.dropped_ticks();
        steps += 1;
        assert!(steps < 1_000, "the deadline does not move");
    }
    (
        state.clock("main").unwrap().stats().ticks_run,
        dropped,
        state.clock("main").unwrap().stats().ticks_due,
    )
}

#[test]
fn a_shell_sleeping_to_each_deadline_runs_every_slow_tick() {
    for (rate, s, expected) in [
        (hz(1), TimeScale::ONE, 10),
        (hz(2), TimeScale::ONE, 20),
        (hz(3), TimeScale::ONE, 30),
        // 10 s at 1/3 is 3.33 s of virtual time: 23 ticks of 1/7 s.
        (hz(7), scale(1, 3), 23),
    ] {
        let (run, dropped, due) = sleep_to_deadlines(rate, s);
        assert_eq!(
            (run, dropped, due),
            (expected, 0, expected),
            "{rate:?} at {s:?}"
        );
    }
}

#[test]
fn a_real_stall_still_discards_and_reports() {
    let mut state = LoopState::new(LoopConfig::new(hz(60)), Nanos(0)).unwrap();
    let mut now = 0;
    for _ in 0..10 {
        now += 16_666_667;
        state.advance(Nanos(now));
    }
    let before = state.clock("main").unwrap().stats().ticks_run;
    now += 5 * SEC;
    let events = state.advance(Nanos(now));
    let (time, ticks) = events
        .iter()
        .find_map(|e| match e {
            Event::DiscardedTime { time, ticks, .. } => Some((time.0, ticks)),
            _ => None,
        })
        .expect("a 5 s stall is discarded");
    assert_eq!(time, 5 * SEC - 250 * MS);
    assert_eq!(ticks, 285);
    assert_eq!(state.clock("main").unwrap().stats().ticks_run - before, 8);
    assert_eq!(state.clock("main").unwrap().stats().pending, 7);
}

// 4. A time scale of 0 runs nothing on a constant-rate clock.

#[test]
fn scale_zero_stops_constant_rate_clocks() {
    for policy in [Policy::KeepWorking, Policy::DropAndRest] {
        let config = LoopConfig::new(hz(1))
            .policy(policy)
            .time_scale(scale(0, 1));
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        let mut updates = 0;
        for n in 0..100u64 {
            let events = state.advance(Nanos(n));
            updates += events.updates().count();
            assert_eq!(events.deadline(), None, "{policy:?} step {n}");
        }
        assert_eq!(state.virtual_time().elapsed(), Nanos(0));
        // The slot due at virtual 0 may run once.
        assert!(
            updates <= 1,
            "{policy:?}: {updates} updates at a scale of 0"
        );
        identity_holds(&state).unwrap();
    }
}

// 5. The end of time.

fn check_indices(events: &Events<Nanos>, next: &mut [Option<u64>; 4]) {
    for e in events.iter() {
        if let Event::Update(t) = e {
            let slot = &mut next[usize::from(t.clock.0)];
            assert!(slot.is_none_or(|n| t.index >= n), "tick {t:?} repeats");
            *slot = Some(t.index + 1);
        }
        if let Event::DiscardedTime {
            clock,
            first,
            ticks,
            ..
        } = e
        {
            next[usize::from(clock.0)] = Some(first + ticks);
        }
    }
}

#[test]
fn one_ns_ticks_at_the_end_of_time_never_repeat() {
    // A 1 ns clock whose tick 0 starts 18 ns before the end: ticks 0..18 are due by u64::MAX,
    // tick 18 would be due at u64::MAX + 1 and never is. Four steps at u64::MAX, cap 8.
    let config = LoopConfig::new(hz(1)).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let ns = Period::from_hz(1_000_000_000).unwrap();
    let late = state
        .add_clock(ClockConfig::new("late", ns), Some(Nanos(u64::MAX - 18)))
        .unwrap();
    // The main clock's backlog (18·10⁹ ticks, cap 8) would hold the late clock's ticks, due
    // after its deferred one, back for good (a step runs a prefix of the due-time order).
    state.remove_clock("main").unwrap();
    let mut next = [None; 4];
    let mut run = 0;
    for _ in 0..4 {
        let events = state.advance(Nanos(u64::MAX));
        check_indices(&events, &mut next);
        run += events.updates().filter(|t| t.clock == late).count() as u64;
        identity_holds(&state).unwrap();
    }
    let s = state.clock(late).unwrap().stats();
    assert_eq!((s.ticks_run, s.ticks_due, s.next_tick), (18, 18, 18));
    assert_eq!(run, 18);
}

#[test]
fn a_clock_reaches_the_end_of_time_once() {
    // Ticks of u64::MAX/4 ns: ticks 0..4 are due by 4·dt = u64::MAX − 3; tick 4 never is.
    let rate = Period::from_duration(Duration::from_nanos(u64::MAX / 4)).unwrap();
    let config = LoopConfig::new(rate).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let events = state.advance(Nanos(u64::MAX));
    let indices: Vec<u64> = events.updates().map(|t| t.index).collect();
    assert_eq!(indices, [0, 1, 2, 3]);
    assert!(events.contains(&Event::EndOfTime {
        clock: ClockId(0),
        next_tick: 4
    }));
    assert_eq!(events.deadline(), None);
    for _ in 0..3 {
        let events = state.advance(Nanos(u64::MAX));
        assert_eq!(events.updates().count(), 0);
        assert!(!events.iter().any(|e| matches!(e, Event::EndOfTime { .. })));
        assert_eq!(events.deadline(), None);
        identity_holds(&state).unwrap();
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 4);
}

#[test]
fn sixty_hz_with_phase_and_hysteresis_stops_at_the_end_of_time() {
    for (phase, hysteresis, firing) in [
        (0.0, 0.0, Firing::Late),
        (0.5, 0.0, Firing::Late),
        (0.5, 0.25, Firing::Late),
        (0.3, 0.0, Firing::Nearest),
    ] {
        let config = LoopConfig::new(hz(60))
            .phase(phase)
            .hysteresis(hysteresis)
            .firing(firing);
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        let mut next = [None; 4];
        let mut last_t = None;
        let mut now = u64::MAX - 3 * SEC;
        let mut ended = 0;
        for _ in 0..400 {
            let events = state.advance(Nanos(now));
            check_indices(&events, &mut next);
            for t in events.updates() {
                assert!(last_t.is_none_or(|l| t.t > l), "t repeats: {t:?}");
                last_t = Some(t.t);
            }
            ended += events
                .iter()
                .filter(|e| matches!(e, Event::EndOfTime { .. }))
                .count();
            identity_holds(&state).unwrap();
            now = now.saturating_add(16_666_667);
        }
        assert_eq!(ended, 1, "phase {phase} hysteresis {hysteresis} {firing:?}");
        let s = state.clock(ClockId(0)).unwrap().stats();
        // Every tick that fits has come due, and none past it.
        assert_eq!(s.pending, 0);
        assert_eq!(state.advance(Nanos(u64::MAX)).deadline(), None);
    }
}

// 6. The dropped-tick total saturates.

#[test]
fn dropped_ticks_saturates() {
    let ns = Period::from_hz(1_000_000_000).unwrap();
    let config = LoopConfig::new(ns).clock(ClockConfig::new("other", ns));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    state.advance(Nanos(0));
    let events = state.advance(Nanos(u64::MAX));
    assert_eq!(events.dropped_ticks(), u64::MAX);
}

// 7. Deadlines are never before `now`.

#[cfg(feature = "std")]
#[test]
fn instant_deadlines_near_the_end_are_never_before_now() {
    use std::time::Instant;
    // The latest Instant, found by doubling and halving.
    let mut end = Instant::now();
    let mut step = Duration::from_secs(1);
    loop {
        match end.checked_add(step) {
            Some(t) => {
                end = t;
                step = step.saturating_mul(2);
            }
            None if step > Duration::from_nanos(1) => step /= 2,
            None => break,
        }
    }
    let start = end - Duration::from_secs(1);
    let mut state = LoopState::new(LoopConfig::new(hz(60)), start).unwrap();
    for now in [start, end - Duration::from_millis(5), end] {
        let events = state.advance(now);
        let deadline = *events.deadline().unwrap();
        assert!(deadline >= now, "deadline {deadline:?} before now {now:?}");
    }
}

#[test]
fn a_backwards_step_keeps_the_deadline() {
    // Measured from `now`, the deadline still lands where the latest `now` put it.
    for config in [
        LoopConfig::new(hz(60)),
        LoopConfig::new(hz(60)).clock(ClockConfig::new("b", hz(7))),
    ] {
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        state.advance(Nanos(0));
        let ahead = *state.advance(Nanos(100 * MS)).deadline().unwrap();
        let back = state.advance(Nanos(40 * MS));
        assert!(
            back.iter()
                .any(|e| matches!(e, Event::TimeBackwards { .. }))
        );
        assert_eq!(back.deadline(), Some(&ahead));
    }
}

// 9. The lag is one exact type.

#[test]
fn lag_is_exact_far_behind() {
    let gap = u64::MAX / 2 + 5 * SEC;
    let config = LoopConfig::new(hz(60)).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let events = state.advance(Nanos(gap));
    let first = events.updates().next().unwrap();
    assert_eq!(first.lag.as_nanos(), 9_223_372_041_854_775_807);
    assert_eq!(first.lag.behind(), Nanos(gap));
    let render = events.render().unwrap();
    let eight_ticks = 8 * 50_000_000 / 3;
    assert_eq!(render.lag.as_nanos(), i128::from(gap) - eight_ticks - 1);
    assert_eq!(state.clock(ClockId(0)).unwrap().stats().lag, render.lag);
}

#[test]
fn a_nearest_early_tick_reports_its_lag() {
    // 60 Hz ticks, 10 ms frames: at 30 ms, tick 1 (due 33.3 ms) is nearer now than the next
    // frame, so it fires early; its lag is 30 ms − 16.67 ms, not 0.
    let config = LoopConfig::new(hz(60)).firing(Firing::Nearest);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    state.advance(Nanos(0));
    state.advance(Nanos(10 * MS));
    state.advance(Nanos(20 * MS));
    let events = state.advance(Nanos(30 * MS));
    let tick = events.updates().last().unwrap();
    assert_eq!(tick.index, 1);
    assert_eq!(tick.lag, Lag::from(Nanos(30 * MS - 16_666_667)));
    assert_eq!(state.clock("main").unwrap().stats().ticks_early, 1);
    identity_holds(&state).unwrap();
}

/// Found by the fold fuzz target: with frames longer than two ticks the nearest rule's window
/// (half the last frame) reached past a whole tick, so after a long frame it fired ticks before
/// their interval even began (a negative lag, up to the cap of ticks into the future). The
/// window is at most one tick: at most one tick per step runs early, always with a positive lag.
#[test]
fn the_nearest_rule_moves_at_most_one_tick_after_a_long_frame() {
    let config = LoopConfig::new(hz(60))
        .firing(Firing::Nearest)
        .max_updates(None)
        .max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    state.advance(Nanos(0));
    let events = state.advance(Nanos(SEC));
    assert!(events.updates().all(|t| !t.lag.is_early()), "{events:?}");
    assert!(
        events.updates().count() <= 61,
        "{}",
        events.updates().count()
    );
    assert!(state.clock("main").unwrap().stats().ticks_early <= 1);
    identity_holds(&state).unwrap();
    // The fuzzer's input: 89 Hz, a 97 ms max frame delta and a leap of 7.48e17 ns.
    let config = LoopConfig::new(hz(89))
        .firing(Firing::Nearest)
        .max_updates(Some(97))
        .max_frame_delta(Some(Duration::from_millis(97)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    state.advance(Nanos(0));
    let events = state.advance(Nanos(748_057_134_003_912_704));
    assert!(events.updates().all(|t| !t.lag.is_early()), "{events:?}");
    assert!(state.clock("main").unwrap().stats().ticks_early <= 1);
    identity_holds(&state).unwrap();
}

// 13. The accounting identity, for every clock and configuration, after every step.

#[derive(Clone, Debug)]
struct ClockCase {
    hz: (u64, u64),
    policy: Policy,
    cap: Option<u32>,
    phase: f64,
    hysteresis: f64,
    firing: Firing,
    start: Option<u64>,
}

#[derive(Clone, Debug)]
enum Op {
    Frame(i64),
    Scale(u32, u32),
    Pause(bool),
}

#[derive(Clone, Debug)]
struct Case {
    clocks: Vec<ClockCase>,
    clamp: Option<u64>,
    render: bool,
    ops: Vec<Op>,
}

impl Arbitrary for ClockCase {
    fn arbitrary(g: &mut Gen) -> ClockCase {
        let hz = *g
            .choose(&[
                (60, 1),
                (60_000, 1_001),
                (1, 1),
                (7, 3),
                (1_000, 1),
                (144, 1),
            ])
            .unwrap();
        let policy = *g
            .choose(&[Policy::CatchUp, Policy::DropAndRest, Policy::KeepWorking])
            .unwrap();
        let catch_up = policy == Policy::CatchUp;
        ClockCase {
            hz,
            policy,
            cap: bool::arbitrary(g).then(|| 1 + u32::arbitrary(g) % 10),
            phase: if catch_up {
                *g.choose(&[0.0, 0.3, 0.5]).unwrap()
            } else {
                0.0
            },
            hysteresis: if catch_up {
                *g.choose(&[0.0, 0.1, 0.25, 0.5]).unwrap()
            } else {
                0.0
            },
            firing: *g.choose(&[Firing::Late, Firing::Nearest]).unwrap(),
            start: bool::arbitrary(g).then(|| u64::arbitrary(g) % (2 * SEC)),
        }
    }
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let n = 1 + usize::arbitrary(g) % 3;
        let len = usize::arbitrary(g) % 100;
        Case {
            clocks: (0..n).map(|_| ClockCase::arbitrary(g)).collect(),
            clamp: bool::arbitrary(g).then(|| 1 + u64::arbitrary(g) % (300 * MS)),
            render: bool::arbitrary(g),
            ops: (0..len)
                .map(|_| match u8::arbitrary(g) % 16 {
                    0 => Op::Scale(
                        *g.choose(&[0, 1, 1, 2, 3, 7, 2_000]).unwrap(),
                        *g.choose(&[1, 2, 3, 100]).unwrap(),
                    ),
                    1 => Op::Pause(bool::arbitrary(g)),
                    2 => Op::Frame(-(i64::arbitrary(g).rem_euclid(30_000_000))),
                    3 => Op::Frame(i64::arbitrary(g).rem_euclid(3_000_000_000)),
                    4 => Op::Frame(0),
                    // Now and then a leap towards the end of time.
                    5 if u8::arbitrary(g) % 8 == 0 => Op::Frame(i64::MAX),
                    _ => {
                        Op::Frame(16_666_667 + i64::arbitrary(g).rem_euclid(4_000_001) - 2_000_000)
                    }
                })
                .collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let me = self.clone();
        let n = self.ops.len();
        // Shorter prefixes, then each op left out.
        let prefixes = [n / 2, n.saturating_sub(1)]
            .into_iter()
            .filter(move |&k| k < n);
        let cut = prefixes.map({
            let me = me.clone();
            move |k| Case {
                ops: me.ops[..k].to_vec(),
                ..me.clone()
            }
        });
        let without = (0..n).map(move |i| {
            let mut ops = me.ops.clone();
            ops.remove(i);
            Case { ops, ..me.clone() }
        });
        Box::new(cut.chain(without))
    }
}

const NAMES: [&str; 3] = ["main", "b", "c"];

fn identity_after_every_step(case: Case) -> Result<(), String> {
    let clock = |i: usize, c: &ClockCase| {
        ClockConfig::new(NAMES[i], Period::from_hz_ratio(c.hz.0, c.hz.1).unwrap())
            .policy(c.policy)
            .max_updates(c.cap)
            .phase(c.phase)
            .hysteresis(c.hysteresis)
            .firing(c.firing)
    };
    let mut config = LoopConfig::from_clock(clock(0, &case.clocks[0]))
        .max_frame_delta(case.clamp.map(Duration::from_nanos));
    if case.render {
        config = config.render_rate(Some(hz(30)));
    }
    let mut state = LoopState::new(config, Nanos(0)).map_err(|e| e.to_string())?;
    for (i, c) in case.clocks.iter().enumerate().skip(1) {
        state
            .add_clock(clock(i, c), c.start.map(Nanos))
            .map_err(|e| e.to_string())?;
    }
    let mut now = 0u64;
    let mut events = Events::new();
    let mut next = [None; 4];
    for op in &case.ops {
        match *op {
            Op::Scale(n, d) => {
                state.virtual_time_mut().set_scale(scale(n, d));
            }
            Op::Pause(p) => {
                state.virtual_time_mut().set_paused(p);
            }
            Op::Frame(d) => {
                now = if d < 0 {
                    now.saturating_sub(d.unsigned_abs())
                } else {
                    now.saturating_add(d.unsigned_abs())
                };
                state.advance_into(Nanos(now), &mut events);
                for e in events.iter() {
                    let id = match e {
                        Event::Update(t) => Some((t.clock, t.index, 1)),
                        Event::DiscardedTime {
                            clock,
                            first,
                            ticks,
                            ..
                        } => Some((clock, first, ticks)),
                        Event::DroppedTicks {
                            clock,
                            first,
                            count,
                            ..
                        } => Some((clock, first, count)),
                        _ => None,
                    };
                    if let Some((clock, first, count)) = id {
                        let slot = &mut next[usize::from(clock.0)];
                        if slot.is_some_and(|n| first < n) {
                            return Err(format!("{e:?} repeats a tick (next {slot:?})"));
                        }
                        *slot = Some(first + count);
                    }
                    if let Some(d) = events.deadline() {
                        if d.0 < now {
                            return Err(format!("deadline {d:?} before now {now}"));
                        }
                    }
                }
                identity_holds(&state)?;
            }
        }
    }
    Ok(())
}

#[test]
fn the_accounting_identity_holds_for_every_clock_after_every_step() {
    fn prop(case: Case) -> bool {
        match identity_after_every_step(case.clone()) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("{e}\n{case:?}");
                false
            }
        }
    }
    QuickCheck::new()
        .tests(1_500)
        .quickcheck(prop as fn(Case) -> bool);
}

// 14, 15. Typed refusals.

#[test]
fn scales_above_4000_are_refused() {
    assert_eq!(TimeScale::ratio(u32::MAX, 1), Err(RateError::InvalidScale));
    assert_eq!(TimeScale::ratio(8_002, 2), Err(RateError::InvalidScale));
    assert!(TimeScale::ratio(8_000, 2).is_ok());
    assert!(TimeScale::ratio(4_000 * 1_073_741, 1_073_741).is_ok());
    assert!(TimeScale::ratio(u32::MAX, u32::MAX / 4_000).is_err());
}

#[test]
fn float_rate_refusals_name_their_cause() {
    assert_eq!(Period::from_hz_f64(1e-9), Err(RateError::TooLow));
    assert_eq!(Period::from_millis_f64(1e-7), Err(RateError::TooHigh));
    assert_eq!(Period::from_hz_f64(0.0), Err(RateError::Zero));
    assert_eq!(Period::from_millis_f64(0.0), Err(RateError::Zero));
    let zero = RateError::Zero.to_string();
    for e in [RateError::TooLow, RateError::TooHigh] {
        assert_ne!(e.to_string(), zero);
    }
    assert!(RateError::TooLow.to_string().contains("µHz"));
    assert!(RateError::TooHigh.to_string().contains("1 ns"));
}
