//! A refused constant-rate slot run late, and the order of a step's events (`Events`' docs):
//! a refused slot run late can be refused again; its drop of the slots that passed meanwhile
//! comes after its update, with the Deferreds, in declaration order, on every path
//! (merged, lone, single-stepping); a constant-rate slot held back by another clock's
//! deferral is reported `Deferred`; `Events::is_empty` agrees with `len`. The property at the
//! end checks the stream over random schedules with random refusals.

use core::time::Duration;

use tickfold_core::{
    ClockConfig, ClockId, ClockStats, DropReason, Event, Events, LoopConfig, LoopState, Nanos,
    Period, Policy,
};

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn ms(n: u64) -> Nanos {
    Nanos::from_millis(n)
}

fn stats(state: &LoopState, clock: &str) -> ClockStats {
    state.clock(clock).unwrap().stats()
}

fn identity(s: &ClockStats) {
    assert_eq!(
        s.ticks_run + s.ticks_dropped + s.pending,
        s.ticks_due + s.ticks_early,
        "{s:?}"
    );
}

/// A short name for each event, with the clock and the tick numbers it covers.
fn label(state: &LoopState, e: &Event<Nanos>) -> String {
    let name = |c: ClockId| state.clock(c).unwrap().name().to_owned();
    match *e {
        Event::Update(t) => format!("update {} {}", name(t.clock), t.index),
        Event::DroppedTicks {
            clock,
            first,
            count,
            reason,
        } => format!("drop {} {first}+{count} {reason:?}", name(clock)),
        Event::Deferred { clock, ticks } => format!("deferred {} {ticks}", name(clock)),
        Event::Render(_) => "render".to_owned(),
        ref other => format!("{other:?}"),
    }
}

fn labels(state: &LoopState, events: &Events<Nanos>) -> Vec<String> {
    events.iter().map(|e| label(state, &e)).collect()
}

/// Issue 36 §4.1: 7 ms slots beside a 60 Hz main clock; slot 0 runs at 2.81 ms and is
/// refused; at 10.68 ms it runs again and slot 1 is dropped; it can be refused again, and it
/// runs at the next step (the drop undone with the run, then made again).
#[test]
fn a_refused_slot_run_late_can_be_refused_again() {
    for policy in [Policy::DropAndRest, Policy::KeepWorking] {
        let b = ClockConfig::new(
            "b",
            Period::from_duration(Duration::from_millis(7)).unwrap(),
        )
        .policy(policy);
        let mut state = LoopState::new(LoopConfig::new(hz(60)).clock(b), Nanos(0)).unwrap();
        let events = state.advance(Nanos(2_810_000));
        assert!(labels(&state, &events).contains(&"update b 0".to_owned()));
        state.refuse("b", 0).unwrap();
        let events = state.advance(Nanos(10_680_000));
        let l = labels(&state, &events);
        assert!(l.contains(&"update b 0".to_owned()), "{policy:?}: {l:?}");
        assert!(l.contains(&"drop b 1+1 SlotMissed".to_owned()), "{l:?}");
        assert_eq!(state.refuse("b", 0), Ok(()), "{policy:?}: refused twice");
        let s = stats(&state, "b");
        assert_eq!((s.ticks_refused, s.next_tick), (2, 0), "{policy:?}");
        identity(&s);
        // At 15 ms slots 1 (7 ms) and 2 (14 ms) have started: slot 0 runs, they are dropped.
        let events = state.advance(ms(15));
        let l = labels(&state, &events);
        let b_events: Vec<&String> = l.iter().filter(|e| e.contains(" b ")).collect();
        assert_eq!(
            b_events,
            ["update b 0", "drop b 1+2 SlotMissed"],
            "{policy:?}"
        );
        let s = stats(&state, "b");
        assert_eq!(
            (s.pending, s.ticks_dropped, s.ticks_run),
            (0, 2, 1),
            "{policy:?}"
        );
        identity(&s);
    }
}

/// The loop of issue 36 §5.1: main 10 Hz catch-up (cap 8) and "net" 10 Hz `KeepWorking`,
/// max frame delta off, `net_first` declaring net first.
fn garbled_case(net_first: bool) -> (LoopState, Events<Nanos>) {
    let main = ClockConfig::new("main", hz(10)).max_updates(Some(8));
    let net = ClockConfig::new("net", hz(10)).policy(Policy::KeepWorking);
    let config = if net_first {
        LoopConfig::from_clock(net).clock(main)
    } else {
        LoopConfig::from_clock(main).clock(net)
    }
    .max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let _ = state.advance(ms(100));
    state.refuse("net", 1).unwrap();
    let events = state.advance(ms(1000));
    (state, events)
}

/// Issue 36 §5.1 and §5.4: main runs 1..=8 and defers 9; net runs slot 1 again and drops
/// 2..=10, reported after its update, with the Deferreds in declaration order; nothing else.
#[test]
fn a_late_refused_slot_beside_a_deferral_keeps_the_stream_whole() {
    for net_first in [false, true] {
        let (state, events) = garbled_case(net_first);
        let l = labels(&state, &events);
        let updates: Vec<&String> = l.iter().filter(|e| e.starts_with("update")).collect();
        let mut want_updates = vec!["update net 1".to_owned()];
        want_updates.extend((1..=8).map(|k| format!("update main {k}")));
        assert_eq!(updates, want_updates.iter().collect::<Vec<_>>());
        let tail: Vec<&str> = l[9..].iter().map(String::as_str).collect();
        let (drop, deferred) = ("drop net 2+9 SlotMissed", "deferred main 1");
        let want = if net_first {
            [drop, deferred, "render"]
        } else {
            [deferred, drop, "render"]
        };
        assert_eq!(tail, want, "net first: {net_first}: {l:?}");
        assert_eq!(l.len(), 12, "{l:?}");
        assert!(!events.iter().any(|e| matches!(e, Event::Resumed)));
        assert_eq!(events.dropped_ticks(), 9);
        assert_eq!(events.len(), 12);
        let net = stats(&state, "net");
        assert_eq!((net.next_tick, net.pending), (11, 0));
        identity(&net);
    }
}

/// Issue 36 §5.2: main 10 Hz catch-up, cap 1, beside "net" 10 Hz `KeepWorking`; at 500 ms
/// main runs tick 0 and defers tick 1 (due at 200 ms), which holds back net's slot 5
/// (starting at 500 ms): net is reported `Deferred` too, and runs the slot at the next step.
#[test]
fn a_slot_held_back_by_another_clocks_deferral_is_deferred() {
    for policy in [Policy::KeepWorking, Policy::DropAndRest, Policy::Delay] {
        let net = ClockConfig::new("net", hz(10)).policy(policy);
        let config = LoopConfig::from_clock(ClockConfig::new("main", hz(10)).max_updates(Some(1)))
            .clock(net)
            .max_frame_delta(None);
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        let events = state.advance(ms(500));
        let l = labels(&state, &events);
        assert!(!l.iter().any(|e| e.starts_with("update net")), "{l:?}");
        assert!(
            l.contains(&"deferred net 1".to_owned()),
            "{policy:?}: {l:?}"
        );
        assert_eq!(stats(&state, "net").pending, 1);
        assert_eq!(events.deadline(), Some(&ms(500)));
    }
}

/// Issue 36 §5.3: single-stepping runs a late refused slot and drops the slots that passed
/// meanwhile, as a running step does: nothing is left pending.
#[test]
fn single_stepping_a_late_refused_slot_leaves_nothing_pending() {
    let net = ClockConfig::new("net", hz(10)).policy(Policy::KeepWorking);
    let mut state = LoopState::new(LoopConfig::new(hz(10)).clock(net), Nanos(0)).unwrap();
    let _ = state.advance(ms(100));
    state.refuse("net", 1).unwrap();
    state.virtual_time_mut().pause();
    let _ = state.advance(ms(100));
    state.virtual_time_mut().step_ticks(3);
    let events = state.advance(ms(150));
    let l = labels(&state, &events);
    // Main's ticks 1..=3 (due by 400 ms); net's slot 1 again, then slots 2..=4 dropped.
    assert_eq!(
        l,
        [
            "update net 1",
            "update main 1",
            "update main 2",
            "update main 3",
            "drop net 2+3 SlotMissed",
            "render"
        ]
    );
    let s = stats(&state, "net");
    assert_eq!((s.pending, s.next_tick), (0, 5));
    identity(&s);
}

/// Issue 36 §5.4: other clocks' missed slots come before the updates, a late refused slot's
/// drop after its own update: each clock's tick numbers ascend in the stream.
#[test]
fn a_late_refused_slots_drop_follows_its_update() {
    let a = ClockConfig::new("a", hz(10)).policy(Policy::KeepWorking);
    let b = ClockConfig::new("b", hz(10)).policy(Policy::DropAndRest);
    // The max frame delta off: it would drop the oldest ticks of a 350 ms frame.
    let config = LoopConfig::new(hz(10))
        .clock(a)
        .clock(b)
        .max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let _ = state.advance(ms(100));
    state.refuse("b", 1).unwrap();
    let events = state.advance(ms(450));
    assert_eq!(
        labels(&state, &events),
        [
            "drop a 2+2 SlotMissed",
            "update b 1",
            "update main 1",
            "update main 2",
            "update main 3",
            "update a 4",
            "drop b 2+3 SlotMissed",
            "render"
        ]
    );
}

/// Issue 36 §5.5: a control that reported nothing leaves a step with no event empty.
#[test]
fn a_step_with_no_event_is_empty() {
    let mut state = LoopState::new(LoopConfig::new(hz(50)), Nanos(0)).unwrap();
    let _ = state.advance(ms(40));
    state
        .clock_mut("main")
        .unwrap()
        .accumulate_overstep(Nanos(0));
    let events = state.advance(ms(40));
    assert_eq!(events.len(), 0, "{events:?}");
    assert!(events.is_empty());
    // A refusal reports nothing either: the step that runs the tick again holds only it.
    let _ = state.advance(ms(60));
    state.refuse("main", 2).unwrap();
    let events = state.advance(ms(60));
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(!events.is_empty());
}

mod property {
    use super::*;
    use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

    /// A loop of one to four clocks (catch-up beside constant-rate ones), frames and refusals.
    #[derive(Clone, Debug)]
    struct Case {
        /// Per clock: rate (Hz), policy (0 catch-up, 1 drop & rest, 2 keep working, 3 delay),
        /// cap.
        clocks: Vec<(u64, u8, u32)>,
        max_frame_delta: bool,
        /// Per step: the frame (µs), and how many of the latest updates to refuse (from the
        /// last back) of the clock picked by the third number.
        steps: Vec<(u32, u8, u8)>,
    }

    impl Arbitrary for Case {
        fn arbitrary(g: &mut Gen) -> Case {
            let n = 1 + usize::arbitrary(g) % 4;
            let rates = [7, 10, 24, 30, 60, 144];
            let clocks = (0..n)
                .map(|_| {
                    (
                        *g.choose(&rates).unwrap(),
                        u8::arbitrary(g) % 4,
                        1 + u32::arbitrary(g) % 8,
                    )
                })
                .collect();
            let len = usize::arbitrary(g) % 40;
            let steps = (0..len)
                .map(|_| {
                    let frame = match u8::arbitrary(g) % 6 {
                        0 => 0,
                        1 => 300_000 + u32::arbitrary(g) % 1_500_000,
                        _ => u32::arbitrary(g) % 120_000,
                    };
                    let refusals = match u8::arbitrary(g) % 4 {
                        0 | 1 => 0,
                        2 => 1,
                        _ => 2,
                    };
                    (frame, refusals, u8::arbitrary(g))
                })
                .collect();
            Case {
                clocks,
                max_frame_delta: bool::arbitrary(g),
                steps,
            }
        }

        fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
            let me = self.clone();
            Box::new(self.steps.shrink().map(move |steps| Case {
                steps,
                ..me.clone()
            }))
        }
    }

    fn policy(p: u8) -> Policy {
        match p {
            0 => Policy::CatchUp,
            1 => Policy::DropAndRest,
            2 => Policy::KeepWorking,
            _ => Policy::Delay,
        }
    }

    fn run(case: &Case) -> Result<(), String> {
        let mut config: Option<LoopConfig> = None;
        for (i, &(rate, p, cap)) in case.clocks.iter().enumerate() {
            let c = ClockConfig::new(format!("c{i}"), hz(rate))
                .policy(policy(p))
                .max_updates(Some(cap));
            config = Some(match config {
                None => LoopConfig::from_clock(c),
                Some(l) => l.clock(c),
            });
        }
        let mut config = config.ok_or("no clock")?;
        if !case.max_frame_delta {
            config = config.max_frame_delta(None);
        }
        let ids: Vec<ClockId> = (0..case.clocks.len())
            .map(|i| ClockId(u16::try_from(i).unwrap()))
            .collect();
        let mut state = LoopState::new(config, Nanos(0)).map_err(|e| e.to_string())?;
        let mut now = 0u64;
        for &(frame, refusals, pick) in &case.steps {
            now += u64::from(frame) * 1_000;
            let before: Vec<ClockStats> = ids
                .iter()
                .map(|&c| state.clock(c).unwrap().stats())
                .collect();
            let events = state.advance(Nanos(now));
            let after: Vec<ClockStats> = ids
                .iter()
                .map(|&c| state.clock(c).unwrap().stats())
                .collect();
            check(&events, &before, &after).map_err(|e| format!("at {now}: {e}: {events:?}"))?;
            // Refuse the picked clock's latest updates of this step, from the last one back:
            // each is its clock's latest update not yet refused, so each refusal must hold.
            let c = ids[usize::from(pick) % ids.len()];
            let mut mine: Vec<u64> = events
                .updates()
                .filter(|t| t.clock == c)
                .map(|t| t.index)
                .collect();
            for _ in 0..refusals {
                let Some(index) = mine.pop() else { break };
                state
                    .refuse(c, index)
                    .map_err(|e| format!("at {now}: refuse({c:?}, {index}): {e}"))?;
            }
            for &c in &ids {
                let s = state.clock(c).unwrap().stats();
                if s.ticks_run + s.ticks_dropped + s.pending != s.ticks_due + s.ticks_early {
                    return Err(format!("identity after refusals: {s:?}"));
                }
            }
        }
        Ok(())
    }

    /// The stream is well formed: each clock's tick numbers ascend one by one from where the
    /// clock stood to where it stands, through its updates and drops (no gap a drop does not
    /// report), the drops add up to `dropped_ticks()` and to the clocks' counts, no pause
    /// event comes without a pause control, a `Deferred` comes for every clock left with due
    /// ticks (and only those, with their number), and `len`/`is_empty` agree with the list.
    fn check(
        events: &Events<Nanos>,
        before: &[ClockStats],
        after: &[ClockStats],
    ) -> Result<(), String> {
        let list: Vec<Event<Nanos>> = events.iter().collect();
        if list.len() != events.len() || events.is_empty() != list.is_empty() {
            return Err(format!(
                "len {} is_empty {}",
                events.len(),
                events.is_empty()
            ));
        }
        let mut next: Vec<u64> = before.iter().map(|s| s.next_tick).collect();
        let mut deferred = vec![None; before.len()];
        let mut dropped = 0u64;
        let mut take = |clock: ClockId, first: u64, count: u64| -> Result<(), String> {
            let n = &mut next[usize::from(clock.0)];
            if first != *n {
                return Err(format!("{clock:?}: tick {first} where {n} was next"));
            }
            *n = first + count;
            Ok(())
        };
        for e in &list {
            match *e {
                Event::Update(t) => take(t.clock, t.index, 1)?,
                Event::DroppedTicks {
                    clock,
                    first,
                    count,
                    reason,
                } => {
                    if reason != DropReason::SlotMissed {
                        return Err(format!("{reason:?} with no control"));
                    }
                    take(clock, first, count)?;
                    dropped += count;
                }
                Event::DiscardedTime {
                    clock,
                    first,
                    ticks,
                    ..
                } => {
                    take(clock, first, ticks)?;
                    dropped += ticks;
                }
                Event::Deferred { clock, ticks } => deferred[usize::from(clock.0)] = Some(ticks),
                Event::Paused | Event::Resumed => return Err("pause event".into()),
                _ => {}
            }
        }
        if events.dropped_ticks() != dropped {
            return Err(format!(
                "dropped_ticks {} != {dropped}",
                events.dropped_ticks()
            ));
        }
        let counted: u64 = after
            .iter()
            .zip(before)
            .map(|(a, b)| a.ticks_dropped - b.ticks_dropped)
            .sum();
        if counted != dropped {
            return Err(format!(
                "clocks counted {counted} dropped, events {dropped}"
            ));
        }
        for (i, s) in after.iter().enumerate() {
            if next[i] != s.next_tick {
                return Err(format!(
                    "clock {i}: stream ends at {}, clock at {s:?}",
                    next[i]
                ));
            }
            let want = (s.pending > 0).then_some(s.pending);
            if deferred[i] != want {
                return Err(format!("clock {i}: Deferred {:?}, {s:?}", deferred[i]));
            }
        }
        Ok(())
    }

    #[test]
    fn prop_the_stream_is_well_formed_with_refusals() {
        fn prop(case: Case) -> TestResult {
            match run(&case) {
                Ok(()) => TestResult::passed(),
                Err(e) => TestResult::error(e),
            }
        }
        QuickCheck::new()
            .tests(300)
            .quickcheck(prop as fn(Case) -> TestResult);
    }
}
