//! What the fold reports, as its docs say: `Event::EndOfTime` comes once per clock and the
//! tick it names never runs (nor is dropped), whatever control moves the grid afterwards; a
//! refused constant-rate slot that runs late leaves nothing pending; the order of events;
//! the causes of `ClockStats::ticks_early`.

use tickfold_core::{
    ClockId, DropReason, Event, LoopConfig, LoopState, Nanos, Period, Policy, TimeScale,
};

/// What a control does to the clock after it reported the end of time.
#[derive(Copy, Clone, Debug)]
enum Control {
    Phase,
    ResetGrid,
    Rate,
    Overstep,
}

fn apply(state: &mut LoopState, control: Control) {
    let mut clock = state.clock_mut("main").unwrap();
    match control {
        Control::Phase => {
            // Catch-up only: a constant-rate clock has no phase.
            let _ = clock.set_phase(0.5);
        }
        Control::ResetGrid => {
            clock.reset_grid();
        }
        Control::Rate => {
            clock.set_rate(Period::from_hz(2).unwrap());
        }
        Control::Overstep => {
            clock.accumulate_overstep(Nanos::from_millis(700));
        }
    }
}

fn ends(events: &tickfold_core::Events<Nanos>) -> Vec<u64> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::EndOfTime { next_tick, .. } => Some(next_tick),
            _ => None,
        })
        .collect()
}

#[test]
fn end_of_time_comes_once_and_its_tick_never_runs_after_any_control() {
    let controls = [
        Control::Phase,
        Control::ResetGrid,
        Control::Rate,
        Control::Overstep,
    ];
    for policy in [Policy::CatchUp, Policy::DropAndRest, Policy::KeepWorking] {
        for control in controls {
            // The max frame delta (250 ms) drops the ticks between: the clock reaches the
            // end of time in one step.
            let config = LoopConfig::new(Period::from_hz(1).unwrap()).policy(policy);
            let mut state = LoopState::new(config, Nanos(0)).unwrap();
            let mut reported = Vec::new();
            let mut steps = 0;
            while reported.is_empty() && steps < 10 {
                reported = ends(&state.advance(Nanos(u64::MAX)));
                steps += 1;
            }
            let case = format!("{policy:?} {control:?}");
            assert_eq!(reported.len(), 1, "{case}: no EndOfTime");
            let end = reported[0];
            let before = state.clock(ClockId(0)).unwrap().stats();
            assert_eq!(before.next_tick, end, "{case}");
            apply(&mut state, control);
            for _ in 0..3 {
                let events = state.advance(Nanos(u64::MAX));
                assert_eq!(ends(&events), Vec::<u64>::new(), "{case}: EndOfTime again");
                let late: Vec<_> = events.updates().filter(|t| t.index >= end).collect();
                assert!(late.is_empty(), "{case}: ran {late:?}");
                assert!(
                    !events
                        .iter()
                        .any(|e| matches!(e, Event::DroppedTicks { .. })),
                    "{case}: dropped ticks past the end"
                );
                assert_eq!(events.deadline(), None, "{case}");
            }
            let after = state.clock(ClockId(0)).unwrap().stats();
            assert_eq!(after.next_tick, end, "{case}");
            assert_eq!(
                (after.ticks_run, after.ticks_dropped),
                (before.ticks_run, before.ticks_dropped),
                "{case}"
            );
        }
    }
}

/// A refused constant-rate slot runs at the next step even when later slots passed
/// meanwhile; those are dropped (reported) in the same step, so no slot is left pending
/// after a step that ran the clock (`ClockStats::pending`'s docs).
#[test]
fn a_refused_slot_that_runs_late_leaves_nothing_pending() {
    for policy in [Policy::DropAndRest, Policy::KeepWorking, Policy::Delay] {
        let config = LoopConfig::new(Period::from_hz(10).unwrap()).policy(policy);
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        let events = state.advance(Nanos(0));
        let slot = events.updates().last().expect("slot 0 runs at once");
        state.refuse(slot.clock, slot.index).unwrap();
        // 950 ms later: slots 1..=9 have started meanwhile (within the max frame delta? no:
        // keep the step inside it, 200 ms, so only the refusal explains the late slot).
        let events = state.advance(Nanos::from_millis(200));
        let ran: Vec<u64> = events.updates().map(|t| t.index).collect();
        assert_eq!(ran, [0], "{policy:?}: the refused slot runs again");
        let s = state.clock(ClockId(0)).unwrap().stats();
        assert_eq!(s.pending, 0, "{policy:?}: {s:?}");
        let dropped: u64 = events
            .iter()
            .filter_map(|e| match e {
                Event::DroppedTicks {
                    first,
                    count,
                    reason: DropReason::SlotMissed,
                    ..
                } => {
                    assert_eq!(first, 1, "{policy:?}");
                    Some(count)
                }
                _ => None,
            })
            .sum();
        let want = match policy {
            // Slots 1 and 2 (starting at 100 and 200 ms) have started: both are dropped.
            Policy::DropAndRest | Policy::KeepWorking => 2,
            // Delay drops nothing: the grid moves to the late slot.
            _ => 0,
        };
        assert_eq!(dropped, want, "{policy:?}");
        assert_eq!(
            s.ticks_run + s.ticks_dropped + s.pending,
            s.ticks_due + s.ticks_early
        );
    }
}

/// `Event::EndOfTime`'s docs: with 1 ns constant-rate slots from the loop's start, slot
/// `u64::MAX` starts at exactly `u64::MAX` ns, yet never runs (its number is the last a tick
/// number can hold): the clock reports the end of time with `next_tick: u64::MAX`.
#[test]
fn one_ns_slot_u64_max_starts_at_the_end_and_never_runs() {
    let config = LoopConfig::new(Period::from_hz(1_000_000_000).unwrap())
        .policy(Policy::KeepWorking)
        .max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut seen = Vec::new();
    for _ in 0..3 {
        let events = state.advance(Nanos(u64::MAX));
        seen.extend(ends(&events));
        assert!(events.updates().all(|t| t.index < u64::MAX));
    }
    assert_eq!(seen, [u64::MAX]);
    let s = state.clock(ClockId(0)).unwrap().stats();
    // Slot u64::MAX has started (u64::MAX + 1 slots are due), and never runs.
    assert_eq!((s.next_tick, s.ticks_due), (u64::MAX, u64::MAX));
}

/// `Events`' docs: the clock controls' reports (a `Discarded` drop from `reset_grid`, a
/// `RateChanged`) come before `TimeBackwards`.
#[test]
fn controls_reports_come_before_time_backwards() {
    // Cap 1: tick 1 is left pending, for `reset_grid` to drop.
    let config = LoopConfig::new(Period::from_hz(10).unwrap()).max_updates(Some(1));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let _ = state.advance(Nanos::from_millis(250));
    state
        .virtual_time_mut()
        .set_scale(TimeScale::ratio(1, 2).unwrap());
    state.clock_mut("main").unwrap().reset_grid();
    state
        .clock_mut("main")
        .unwrap()
        .set_rate(Period::from_hz(20).unwrap());
    let events = state.advance(Nanos::from_millis(200));
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            Event::ScaleChanged(_) => "scale",
            Event::DroppedTicks {
                reason: DropReason::Discarded,
                ..
            } => "discarded",
            Event::RateChanged { .. } => "rate",
            Event::TimeBackwards { .. } => "backwards",
            Event::Render(_) => "render",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["scale", "discarded", "rate", "backwards"]);
}

/// `ClockStats::ticks_early`'s docs: a smaller phase moves the grid later, so a tick that
/// already ran is due later (10 Hz, phase ½: tick 0 runs at 60 ms; then phase 0: run 1, due
/// 0, early 1).
#[test]
fn a_phase_decrease_makes_ticks_early() {
    let config = LoopConfig::new(Period::from_hz(10).unwrap()).phase(0.5);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let events = state.advance(Nanos::from_millis(60));
    assert_eq!(events.updates().count(), 1);
    state.clock_mut("main").unwrap().set_phase(0.0).unwrap();
    let s = state.clock(ClockId(0)).unwrap().stats();
    assert_eq!((s.ticks_run, s.ticks_due, s.ticks_early), (1, 0, 1));
}
