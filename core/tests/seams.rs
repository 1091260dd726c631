//! Regression tests for bugs found where two features meet: input attribution, single-stepping,
//! `Tick::t`, refusals and the end of time after a control moved a clock's grid. Each test
//! reproduces a reported case and failed before its fix.

use core::time::Duration;

use tickfold_core::{
    ClockConfig, Event, InputQueue, LoopConfig, LoopState, Nanos, Period, Policy, Tick,
};

const MS: u64 = 1_000_000;

fn ten_hz() -> LoopState {
    let config = LoopConfig::new(Period::from_hz(10).unwrap()).max_frame_delta(None);
    LoopState::new(config, Nanos(0)).unwrap()
}

/// Steps to `now`, drains every update of the queue's clock, and returns (tick, inputs).
fn step_and_drain(
    state: &mut LoopState,
    queue: &mut InputQueue<char>,
    now: u64,
) -> Vec<(u64, String)> {
    let events = state.advance(Nanos(now));
    queue.observe(state);
    events
        .updates()
        .map(|t| (t.index, queue.drain(&t, state).collect()))
        .collect()
}

fn owned(v: &[(u64, &str)]) -> Vec<(u64, String)> {
    v.iter().map(|(k, s)| (*k, (*s).to_string())).collect()
}

#[test]
fn inputs_follow_the_grid_after_reset_grid() {
    let mut s = ten_hz();
    let mut q = InputQueue::new(&s);
    step_and_drain(&mut s, &mut q, 250 * MS);
    s.clock_mut("main").unwrap().reset_grid(); // tick 2 due 350 ms, tick 3 due 450 ms
    q.push(Nanos(260 * MS), 'a');
    q.push(Nanos(355 * MS), 'b');
    let got = step_and_drain(&mut s, &mut q, 460 * MS);
    assert_eq!(got, owned(&[(2, "a"), (3, "b")]));
}

#[test]
fn inputs_follow_the_grid_after_accumulated_overstep() {
    let mut s = ten_hz();
    let mut q = InputQueue::new(&s);
    step_and_drain(&mut s, &mut q, 250 * MS);
    // The grid moves 30 ms earlier: tick 2 is due at 270 ms, tick 3 at 370 ms.
    s.clock_mut("main")
        .unwrap()
        .accumulate_overstep(Nanos(30 * MS));
    q.push(Nanos(265 * MS), 'a');
    q.push(Nanos(275 * MS), 'b');
    let got = step_and_drain(&mut s, &mut q, 380 * MS);
    assert_eq!(got, owned(&[(2, "a"), (3, "b")]));
}

/// Inputs of a timeline with a rate change, attributed in steps cut at `cuts` (ms).
fn rate_change_timeline(cuts: &[u64]) -> Vec<(u64, String)> {
    let config = LoopConfig::new(Period::from_secs_ratio(1, 7).unwrap()).max_frame_delta(None);
    let mut s = LoopState::new(config, Nanos(0)).unwrap();
    let mut q = InputQueue::new(&s);
    let inputs = [
        (300, 'a'),
        (445, 'b'),
        (460, 'c'),
        (462, 'd'),
        (479, 'e'),
        (520, 'f'),
    ];
    let mut got = Vec::new();
    let mut last = 0;
    for (i, &cut) in cuts.iter().enumerate() {
        for &(ms, key) in inputs.iter().filter(|(ms, _)| (last..cut).contains(ms)) {
            q.push(Nanos(ms * MS), key);
        }
        got.extend(step_and_drain(&mut s, &mut q, cut * MS));
        if i == 0 {
            // At 430 ms: ticks 0..=1 ran (due 142.9 and 285.7 ms), tick 2 was due at
            // 428.6 ms and ran; tick 3 starts at 428.57 ms and now lasts 1/59.94 s.
            s.clock_mut("main")
                .unwrap()
                .set_rate(Period::from_hz_ratio(60_000, 1_001).unwrap());
        }
        last = cut;
    }
    got
}

#[test]
fn inputs_after_a_rate_change_do_not_depend_on_the_slicing() {
    let given = |cuts: &[u64]| -> Vec<(u64, String)> {
        let mut v = rate_change_timeline(cuts);
        v.retain(|(_, s)| !s.is_empty());
        v
    };
    let one = given(&[430, 600, 700]);
    assert_eq!(one, given(&[430, 446, 461, 470, 480, 600, 700]));
    // Tick 3 starts at 3/7 s, rounded up to 428,571,429 ns, and is due 16,683,334 ns later
    // (445,254,763); tick 4 at 461,938,096, tick 5 at 478,621,429, tick 8 at 528,671,429.
    assert_eq!(
        one,
        owned(&[(2, "a"), (3, "b"), (4, "c"), (5, "d"), (6, "e"), (8, "f")])
    );
}

#[test]
fn a_control_after_the_step_does_not_move_that_steps_inputs() {
    // Two copies of one timeline: one drains before calling reset_grid, one after.
    let mut runs = Vec::new();
    for control_first in [false, true] {
        let mut s = ten_hz();
        let mut q = InputQueue::new(&s);
        q.push(Nanos(150 * MS), 'a');
        q.push(Nanos(190 * MS), 'b');
        let events = s.advance(Nanos(250 * MS));
        q.observe(&s);
        if control_first {
            s.clock_mut("main").unwrap().reset_grid();
        }
        let got: Vec<(u64, String)> = events
            .updates()
            .map(|t| (t.index, q.drain(&t, &s).collect()))
            .collect();
        if !control_first {
            s.clock_mut("main").unwrap().reset_grid();
        }
        runs.push(got);
    }
    assert_eq!(runs[0], owned(&[(0, ""), (1, "ab")]));
    assert_eq!(runs[0], runs[1]);
}

/// `advance(250 ms)` on 10 Hz, a control, `step_ticks(2)`: (virtual time, pending request).
fn stepped_after(control: impl FnOnce(&mut LoopState)) -> (u64, u64, Vec<u64>) {
    let mut s = ten_hz();
    let _ = s.advance(Nanos(250 * MS));
    control(&mut s);
    s.virtual_time_mut().step_ticks(2);
    let events = s.advance(Nanos(260 * MS));
    let ticks = events.updates().map(|t| t.index).collect();
    (
        s.virtual_time().elapsed().0 / 1_000,
        s.virtual_time().step_ticks_pending(),
        ticks,
    )
}

#[test]
fn step_ticks_lands_on_the_grid_after_a_grid_control() {
    let twenty = Period::from_hz(20).unwrap();
    // µs of virtual time, request left, ticks run.
    assert_eq!(
        stepped_after(|s| {
            s.clock_mut("main").unwrap().set_rate(twenty);
        }),
        (300_000, 0, vec![2, 3])
    );
    assert_eq!(
        stepped_after(|s| {
            s.clock_mut("main").unwrap().reset_grid();
        }),
        (450_000, 0, vec![2, 3])
    );
    assert_eq!(
        stepped_after(|s| {
            s.clock_mut("main")
                .unwrap()
                .accumulate_overstep(Nanos(30 * MS));
        }),
        (370_000, 0, vec![2, 3])
    );
}

#[test]
fn step_ticks_after_a_long_run_and_a_rate_change_steps_one_tick() {
    let mut s = ten_hz();
    for frame in 1..=100 {
        let _ = s.advance(Nanos(frame * 100 * MS));
    }
    assert_eq!(s.clock(s.alpha_clock()).unwrap().stats().next_tick, 100);
    s.clock_mut("main")
        .unwrap()
        .set_rate(Period::from_hz(20).unwrap());
    let before = s.virtual_time().elapsed();
    s.virtual_time_mut().step_ticks(1);
    let events = s.advance(Nanos(10_001 * MS));
    assert_eq!(events.updates().map(|t| t.index).collect::<Vec<_>>(), [100]);
    assert_eq!(s.virtual_time().elapsed().0 - before.0, 50 * MS);
    let stats = s.clock(s.alpha_clock()).unwrap().stats();
    assert_eq!(stats.pending, 0);
}

#[test]
fn t_and_lag_agree_after_a_rate_change_at_a_fractional_boundary() {
    let config = LoopConfig::new(Period::from_hz(144).unwrap())
        .max_updates(None)
        .max_frame_delta(None);
    let mut s = LoopState::new(config, Nanos(0)).unwrap();
    let _ = s.advance(Nanos(1_510 * MS));
    s.clock_mut("main")
        .unwrap()
        .set_rate(Period::from_hz_ratio(60_000, 1_001).unwrap());
    let now = 1_600 * MS;
    let events = s.advance(Nanos(now));
    let ticks: Vec<Tick> = events.updates().collect();
    assert!(!ticks.is_empty());
    for t in &ticks {
        // t is rounded down, lag rounded down: together one short of now at most.
        let sum = i128::from(t.t.0) + t.lag.as_nanos();
        assert!(
            sum == i128::from(now) || sum == i128::from(now) - 1,
            "tick {}: t {} + lag {} = {sum}, now {now}",
            t.index,
            t.t.0,
            t.lag.as_nanos()
        );
    }
    // Tick 217 starts at 217/144 s = 1,506,944,444.4 ns, rounded up; tick 218 a 59.94 Hz
    // period (16,683,333.3 ns) later.
    let t218 = ticks.iter().find(|t| t.index == 218).unwrap();
    assert_eq!(t218.t.0, 1_506_944_445 + 16_683_333);
}

#[test]
fn delay_keeps_simulation_time_exact_across_late_slots() {
    let rate = Period::from_hz(144).unwrap();
    let config = LoopConfig::new(rate)
        .policy(Policy::Delay)
        .max_frame_delta(None);
    let mut s = LoopState::new(config, Nanos(0)).unwrap();
    let mut now = 0;
    for k in 0..2_000u64 {
        // Every third step comes 1 ms late: the slot starts there and the grid moves.
        now += 6_944_444 + if k % 3 == 0 { MS } else { 0 };
        let events = s.advance(Nanos(now));
        for t in events.updates() {
            assert_eq!(t.t.0, rate.tick_start_nanos(t.index), "tick {}", t.index);
        }
        if let Some(Event::Sleep { until }) =
            events.iter().find(|e| matches!(e, Event::Sleep { .. }))
        {
            now = now.max(until.0);
        }
    }
}

#[test]
fn reset_grid_keeps_simulation_time_exact() {
    let rate = Period::from_hz(144).unwrap();
    let mut s = LoopState::new(LoopConfig::new(rate).max_frame_delta(None), Nanos(0)).unwrap();
    for k in 1..=300u64 {
        let events = s.advance(Nanos(k * 7_000_003));
        for t in events.updates() {
            assert_eq!(t.t.0, rate.tick_start_nanos(t.index), "tick {}", t.index);
        }
        if k % 7 == 0 {
            s.clock_mut("main").unwrap().reset_grid();
        }
    }
}

#[test]
fn a_refused_tick_gets_its_inputs_again() {
    let mut s = ten_hz();
    let mut q = InputQueue::new(&s);
    q.push(Nanos(50 * MS), 'a');
    q.push(Nanos(150 * MS), 'b');
    let events = s.advance(Nanos(250 * MS));
    q.observe(&s);
    let ticks: Vec<Tick> = events.updates().collect();
    let first: Vec<String> = ticks.iter().map(|t| q.drain(t, &s).collect()).collect();
    assert_eq!(first, ["a", "b"]);
    // The shell refuses both, from the last one back.
    s.refuse(ticks[1].clock, ticks[1].index).unwrap();
    s.refuse(ticks[0].clock, ticks[0].index).unwrap();
    let got = step_and_drain(&mut s, &mut q, 260 * MS);
    assert_eq!(got, owned(&[(0, "a"), (1, "b")]));
    assert!(q.is_empty());
}

#[test]
fn a_refused_slot_runs_even_after_its_slot_passed() {
    for policy in [Policy::KeepWorking, Policy::DropAndRest] {
        let config = LoopConfig::new(Period::from_hz(10).unwrap())
            .policy(policy)
            .max_frame_delta(None);
        let mut s = LoopState::new(config, Nanos(0)).unwrap();
        let events = s.advance(Nanos(0));
        let tick = events.updates().next().unwrap();
        s.refuse(tick.clock, tick.index).unwrap();
        // The next step comes long after the refused slot (and two more) passed.
        let events = s.advance(Nanos(350 * MS));
        let ran: Vec<u64> = events.updates().map(|t| t.index).collect();
        assert_eq!(ran, [0], "{policy:?}");
        let stats = s.clock(s.alpha_clock()).unwrap().stats();
        assert_eq!(stats.ticks_refused, 1);
    }
}

#[test]
fn a_refused_tick_in_a_stall_is_dropped_with_the_oldest_and_reported() {
    // The documented exception: a step longer than the max frame delta drops the oldest
    // ticks, the refused one among them, and the drop says so.
    let config = LoopConfig::new(Period::from_hz(10).unwrap())
        .max_frame_delta(Some(Duration::from_millis(250)));
    let mut s = LoopState::new(config, Nanos(0)).unwrap();
    let events = s.advance(Nanos(100 * MS));
    let tick = events.updates().next().unwrap();
    s.refuse(tick.clock, tick.index).unwrap();
    let events = s.advance(Nanos(2_000 * MS));
    let drop = events.iter().find_map(|e| match e {
        Event::DiscardedTime { first, ticks, .. } => Some((first, ticks)),
        _ => None,
    });
    assert_eq!(drop, Some((0, 17)));
    let ran: Vec<u64> = events.updates().map(|t| t.index).collect();
    assert_eq!(ran, [17, 18, 19]);
    let stats = s.clock(s.alpha_clock()).unwrap().stats();
    assert_eq!(
        stats.ticks_run + stats.ticks_dropped + stats.pending,
        stats.ticks_due + stats.ticks_early
    );
}

#[test]
fn step_ticks_equal_to_the_cap_reports_no_spurious_deferral() {
    let config = LoopConfig::new(Period::from_hz(10).unwrap())
        .max_updates(Some(2))
        .max_frame_delta(None);
    let mut s = LoopState::new(config, Nanos(0)).unwrap();
    // A backlog: 10 ticks due, 2 run.
    let events = s.advance(Nanos::from_secs(1));
    assert!(events.iter().any(|e| matches!(e, Event::Deferred { .. })));
    s.virtual_time_mut().step_ticks(2);
    let events = s.advance(Nanos(1_001 * MS));
    assert_eq!(events.updates().count(), 2);
    assert_eq!(s.virtual_time().step_ticks_pending(), 0);
    assert!(
        !events.iter().any(|e| matches!(e, Event::Deferred { .. })),
        "the request is done and the loop stays paused: {:?}",
        events.iter().collect::<Vec<_>>()
    );
    assert_eq!(events.deadline(), None);
}

#[test]
fn overstep_on_a_constant_rate_clock_among_several_skips_the_passed_slots() {
    let config = LoopConfig::new(Period::from_hz(10).unwrap())
        .clock(ClockConfig::new("slots", Period::from_hz(10).unwrap()).policy(Policy::KeepWorking))
        .max_frame_delta(None);
    let mut s = LoopState::new(config, Nanos(0)).unwrap();
    s.clock_mut("slots")
        .unwrap()
        .accumulate_overstep(Nanos::from_secs(1));
    // The first step, at the start: virtual time has not left 0.
    let events = s.advance(Nanos(0));
    let slots = s.clock("slots").unwrap().id();
    let ran: Vec<(u64, i128)> = events
        .updates()
        .filter(|t| t.clock == slots)
        .map(|t| (t.index, t.lag.as_nanos()))
        .collect();
    // The grid moved 1 s earlier: slots 0..10 passed and are reported; slot 10 (starting
    // now) runs on time.
    assert_eq!(ran, [(10, 0)]);
    let dropped: u64 = events
        .iter()
        .filter_map(|e| match e {
            Event::DroppedTicks { clock, count, .. } if clock == slots => Some(count),
            _ => None,
        })
        .sum();
    assert_eq!(dropped, 10);
}

/// Once `EndOfTime` is reported, a control that moves the grid back inside the axis does not
/// bring the clock back (issue 27: the report comes once and its tick never runs; before,
/// this tick 0 ran).
#[test]
fn a_grid_moved_back_inside_the_axis_stays_ended() {
    let one_hz = Period::from_hz(1).unwrap();
    let config = LoopConfig::new(one_hz).max_frame_delta(None);
    let mut s = LoopState::new(config, Nanos(0)).unwrap();
    let _ = s.advance(Nanos(u64::MAX - 1_000));
    // Added 1,000 ns before the end of time: its tick 0 would be due 0.75 s later.
    let late = s
        .add_clock(ClockConfig::new("late", one_hz).phase(0.25), None)
        .unwrap();
    let events = s.advance(Nanos(u64::MAX - 999));
    assert!(events.iter().any(|e| e
        == Event::EndOfTime {
            clock: late,
            next_tick: 0
        }));
    // A phase of 0.999999999 brings tick 0 back to 1 ns after the clock's start.
    s.clock_mut("late")
        .unwrap()
        .set_phase(0.999_999_999)
        .unwrap();
    let events = s.advance(Nanos(u64::MAX - 500));
    let ran: Vec<u64> = events
        .updates()
        .filter(|t| t.clock == late)
        .map(|t| t.index)
        .collect();
    assert_eq!(ran, Vec::<u64>::new());
    assert!(!events.iter().any(|e| matches!(e, Event::EndOfTime { .. })));
}
