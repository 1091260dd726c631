//! The adapter on the core's contracts, against a scripted session (every answer chosen, so
//! every count is exact): the one capture rule (`Columns::before_update`), refused ticks given
//! back with `LoopState::refuse`, and what the `Refusal` policies drop, through the loop.

mod support;

use std::ops::RangeInclusive;
use support::{Answer, Config, Counter, MS, Scripted, add, assert_identity, two_clocks};

use tickfold_core::{ClockId, DropReason, Event, LoopState, Nanos, RefuseError, Tick};
use tickfold_ggrs::ggrs::Frame;
use tickfold_ggrs::{Advance, NetError, Refusal, Rollback, Session};

const FRAMES: ClockId = ClockId(0);

/// A session that refuses the calls in a range and answers the others with a fresh frame.
type Refusing = Scripted<Box<dyn FnMut(u64, Frame) -> Answer>>;

/// A counter on the frame clock, an adapter with `refusal`, a session that refuses the calls
/// in `refused`, and the loop of `two_clocks`.
fn refusing(
    refusal: Refusal,
    refused: RangeInclusive<u64>,
) -> (Counter, Rollback<Config, Counter>, Refusing, LoopState) {
    let world = Counter::new(FRAMES);
    let rollback = Rollback::<Config, Counter>::new(&world, 8, refusal).expect("ring");
    let session: Refusing = Scripted::new(Box::new(move |call, _| {
        if refused.contains(&call) {
            Answer::Refuse
        } else {
            Answer::Fresh
        }
    }));
    (world, rollback, session, two_clocks())
}

/// A frame-clock tick's number, frames advanced and ticks dropped.
type Ran = (u64, u32, u32);

/// Steps `state` to `now` and hands every frame-clock tick to the adapter: the ticks with what
/// became of each, and the step's events.
fn step<S: Session<Config>>(
    state: &mut LoopState,
    now: u64,
    session: &mut S,
    rollback: &mut Rollback<Config, Counter>,
    world: &mut Counter,
) -> (Vec<(Tick, Advance)>, Vec<Event<Nanos>>) {
    let events = state.advance(Nanos(now));
    let mut ran = Vec::new();
    for tick in events.updates().filter(|t| t.clock == FRAMES) {
        let adv = rollback
            .update(state, session, &tick, &[(0, 1)], world, add)
            .expect("update");
        ran.push((tick, adv));
    }
    assert_identity(state);
    (ran, events.into_vec())
}

#[test]
fn captures_follow_the_one_capture_rule() {
    let mut world = Counter::new(FRAMES);
    let mut rollback =
        Rollback::<Config, Counter>::new(&world, 8, Refusal::Retry { max_owed: 100 })
            .expect("ring");
    // Fresh frames, rollbacks, refusals after a rollback and bare refusals, in turn.
    let mut session = Scripted::new(|call, _| match call % 7 {
        2 => Answer::Rollback(3),
        4 => Answer::RefuseAfterRollback(2),
        5 => Answer::Refuse,
        _ => Answer::Fresh,
    });
    let mut state = two_clocks();
    let (mut now, mut fresh, mut captured_steps, mut refused_after_rollback) = (0, 0, 0, 0);
    let frame_ms = [
        16, 40, 0, 17, 50, 16, 33, 16, 16, 70, 5, 16, 16, 16, 16, 120, 16, 16, 90, 3, 16, 16,
    ];
    for (i, ms) in frame_ms.into_iter().enumerate() {
        now += ms * MS;
        let captures = world.captures;
        let (ran, _) = step(&mut state, now, &mut session, &mut rollback, &mut world);
        fresh += ran.iter().map(|(_, a)| u64::from(a.advanced)).sum::<u64>();
        let last_ran = ran.last().is_some_and(|(t, a)| {
            assert!(t.last_in_step);
            refused_after_rollback += u32::from(a.advanced == 0 && a.resimulated > 0);
            a.advanced == 1
        });
        // Once per step, before the step's last update of the frame clock, if it ran; never
        // before a re-simulated frame or a refused tick.
        assert_eq!(world.captures - captures, u64::from(last_ran), "step {i}");
        captured_steps += u64::from(last_ran);
        // `note_update` once per update run, through `Columns::before_update`.
        assert_eq!(world.noted, fresh, "step {i}");
        if last_ran {
            // Captured after the re-simulation, just before the new frame: the render blends
            // the last two corrected frames.
            let frame = i64::from(rollback.frame());
            assert_eq!(world.drawn(), (frame - 1, frame), "step {i}");
        }
    }
    assert_eq!(world.captures, captured_steps);
    // The script's teeth: rollbacks, refusals, and steps whose last tick re-simulated frames
    // and was then refused (no capture there).
    assert!(rollback.stats().rollbacks > 3 && rollback.stats().refused > 3);
    assert!(refused_after_rollback > 0);
    let frames = state.clock(FRAMES).expect("clock").stats();
    assert_eq!(frames.ticks_run, fresh);
    assert_eq!(
        frames.ticks_run,
        u64::try_from(rollback.frame()).expect("frame")
    );
}

#[test]
fn a_refused_tick_takes_the_rest_of_its_step_back_to_the_loop() {
    let (mut world, mut rollback, mut session, mut state) = refusing(Refusal::default(), 1..=1);
    let (ran, _) = step(&mut state, 17 * MS, &mut session, &mut rollback, &mut world);
    assert_eq!(ran.len(), 1);
    // Ticks 1, 2 and 3 are due; the session refuses tick 1, so 2 and 3 cannot run before it
    // and are refused without asking the session.
    let (ran, _) = step(&mut state, 67 * MS, &mut session, &mut rollback, &mut world);
    let seen: Vec<(u64, u32, bool)> = ran
        .iter()
        .map(|(t, a)| (t.index, a.advanced, a.refused))
        .collect();
    assert_eq!(seen, [(1, 0, true), (2, 0, true), (3, 0, true)]);
    assert_eq!(
        session.calls, 2,
        "the session was asked once for the refused step"
    );
    let frames = state.clock(FRAMES).expect("clock").stats();
    assert_eq!(
        (frames.ticks_run, frames.ticks_refused, frames.pending),
        (1, 3, 3)
    );
    assert_eq!(frames.next_tick, 1);
    // The next step runs them again, with the same numbers.
    let (ran, _) = step(&mut state, 68 * MS, &mut session, &mut rollback, &mut world);
    let seen: Vec<(u64, u32)> = ran.iter().map(|(t, a)| (t.index, a.advanced)).collect();
    assert_eq!(seen, [(1, 1), (2, 1), (3, 1)]);
    let frames = state.clock(FRAMES).expect("clock").stats();
    assert_eq!((frames.ticks_run, frames.ticks_refused), (4, 3));
    let s = rollback.stats();
    assert_eq!((s.ticks, s.frames, s.refused, s.lost), (7, 4, 3, 0));
    assert_eq!(s.refusals, 1);
}

#[test]
fn the_policies_drop_through_the_loop() {
    // Drop: the refused tick is dropped at once, reported by the loop at the next step.
    let (mut world, mut rollback, mut session, mut state) = refusing(Refusal::Drop, 1..=1);
    let mut indices = Vec::new();
    let mut events = Vec::new();
    for now in [17, 34, 51] {
        let (ran, ev) = step(
            &mut state,
            now * MS,
            &mut session,
            &mut rollback,
            &mut world,
        );
        indices.extend(ran.iter().map(|(t, a)| (t.index, a.advanced, a.dropped)));
        events.extend(ev);
    }
    assert_eq!(indices, [(0, 1, 0), (1, 0, 1), (2, 1, 0)]);
    assert!(events.contains(&Event::DroppedTicks {
        clock: FRAMES,
        first: 1,
        count: 1,
        reason: DropReason::Discarded,
    }));
    let frames = state.clock(FRAMES).expect("clock").stats();
    let s = rollback.stats();
    assert_eq!(
        (frames.ticks_run, frames.ticks_refused, frames.ticks_dropped),
        (2, 1, 1)
    );
    assert_eq!((s.frames, s.refused, s.dropped), (2, 1, 1));

    // Retry: refused ticks stay owed, up to `max_owed`; past that the loop drops the backlog.
    let (mut world, mut rollback, mut session, mut state) =
        refusing(Refusal::Retry { max_owed: 2 }, 1..=3);
    let mut seen = Vec::new();
    for now in [17, 34, 51, 68, 85] {
        let (ran, _) = step(
            &mut state,
            now * MS,
            &mut session,
            &mut rollback,
            &mut world,
        );
        let owed = state.clock(FRAMES).expect("clock").stats().pending;
        let ran: Vec<Ran> = ran
            .iter()
            .map(|(t, a)| (t.index, a.advanced, a.dropped))
            .collect();
        seen.push((ran, owed));
    }
    let expected: [(&[Ran], u64); 5] = [
        (&[(0, 1, 0)], 0),
        (&[(1, 0, 0)], 1),                       // owed: 1
        (&[(1, 0, 0), (2, 0, 0)], 2),            // tick 1 again, same number; owed: 2
        (&[(1, 0, 0), (2, 0, 0), (3, 0, 3)], 0), // 3 > 2: the loop drops all three
        (&[(4, 1, 0)], 0),
    ];
    for (i, ((ran, owed), (want, want_owed))) in seen.iter().zip(expected).enumerate() {
        assert_eq!((ran.as_slice(), *owed), (want, want_owed), "step {i}");
    }
    let frames = state.clock(FRAMES).expect("clock").stats();
    assert_eq!(
        (frames.ticks_run, frames.ticks_refused, frames.ticks_dropped),
        (2, 6, 3)
    );
    let s = rollback.stats();
    assert_eq!((s.frames, s.refused, s.dropped), (2, 6, 3));
}

#[test]
fn a_step_cut_short_after_a_refusal_counts_its_ticks_lost_and_runs_nothing_extra() {
    let (mut world, mut rollback, mut session, mut state) = refusing(Refusal::default(), 1..=1);
    let _ = step(&mut state, 17 * MS, &mut session, &mut rollback, &mut world);
    // Ticks 1, 2 and 3 are due; the shell hands over tick 1 (refused) and stops there, so
    // the refusal never reaches the loop, which counts the three as run.
    let events = state.advance(Nanos(67 * MS));
    let first = events
        .updates()
        .find(|t| t.clock == FRAMES)
        .expect("tick 1");
    let adv = rollback
        .update(&mut state, &mut session, &first, &[(0, 1)], &mut world, add)
        .expect("refused");
    assert_eq!((first.index, adv.advanced, adv.refused), (1, 0, true));
    // The next step's tick runs one frame, never the refused one on top of it.
    let (ran, _) = step(&mut state, 84 * MS, &mut session, &mut rollback, &mut world);
    let seen: Vec<(u64, u32)> = ran.iter().map(|(t, a)| (t.index, a.advanced)).collect();
    assert_eq!(seen, [(4, 1)]);
    let s = rollback.stats();
    assert_eq!((s.ticks, s.frames, s.refused, s.lost), (3, 2, 0, 1));
    assert_eq!(state.clock(FRAMES).expect("clock").stats().ticks_refused, 0);
}

#[test]
fn a_refusal_the_loop_will_not_take_is_a_typed_error() {
    let mut world = Counter::new(FRAMES);
    let mut rollback =
        Rollback::<Config, Counter>::new(&world, 8, Refusal::default()).expect("ring");
    let mut session = Scripted::new(|_, _| Answer::Refuse);
    let mut state = two_clocks();
    let events = state.advance(Nanos(17 * MS));
    let tick = events
        .updates()
        .find(|t| t.clock == FRAMES)
        .expect("tick 0");
    // The shell steps the loop again before handing the tick over: too late to refuse it.
    let _ = state.advance(Nanos(18 * MS));
    let result = rollback.update(&mut state, &mut session, &tick, &[(0, 1)], &mut world, add);
    assert_eq!(
        result,
        Err(NetError::Clock(RefuseError::NotRefusable {
            clock: FRAMES,
            index: 0,
        }))
    );
    let s = rollback.stats();
    assert_eq!((s.ticks, s.frames, s.refused, s.lost), (1, 0, 0, 1));
    assert_identity(&state);
}
