//! The readings as of each tick (`LoopState::as_of`, `hand_on`): while an update is handled,
//! the virtual time, every clock's latest tick and its counts are those of the tick's place in
//! the total order, the same under every slicing of time; the end-of-step readings stay under
//! their own names, and the state is back at the end of the step after every event.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    AsOfError, ClockConfig, Event, Events, LoopConfig, LoopState, Nanos, Period, Policy,
};

fn physics_ai(ai_first: bool) -> LoopState {
    let physics = ClockConfig::new("physics", Period::from_hz(30).unwrap());
    let ai = ClockConfig::new("ai", Period::from_hz(10).unwrap());
    let config = if ai_first {
        LoopConfig::from_clock(ai).clock(physics)
    } else {
        LoopConfig::from_clock(physics).clock(ai)
    };
    LoopState::new(config, Nanos(0)).unwrap()
}

/// What AI tick 0's handler reads: physics' latest tick, virtual elapsed and delta, physics'
/// ticks run and AI's.
fn ai_tick0_reading(
    state: &mut LoopState,
    events: &Events<Nanos>,
) -> (u64, Nanos, Nanos, u64, u64) {
    let ai = state.clock("ai").unwrap().id();
    let tick = events
        .updates()
        .find(|t| t.clock == ai && t.index == 0)
        .unwrap();
    state
        .as_of(events, &Event::Update(tick), |s| {
            let physics = s.clock("physics").unwrap();
            (
                physics.latest_tick().unwrap().index,
                s.virtual_time().elapsed(),
                s.virtual_time().delta(),
                physics.stats().ticks_run,
                s.clock("ai").unwrap().stats().ticks_run,
            )
        })
        .unwrap()
}

#[test]
fn the_issue_scenario_through_the_pure_api() {
    // One 250 ms frame, physics 30 Hz declared first, AI 10 Hz: AI's tick 0 is due at 100 ms,
    // tied with physics' tick 2 (declared first, so before it) and before physics' tick 3.
    let mut state = physics_ai(false);
    let events = state.advance(Nanos::from_millis(250));
    let (latest, elapsed, delta, physics_run, ai_run) = ai_tick0_reading(&mut state, &events);
    assert_eq!(latest, 2, "physics' latest tick as of AI tick 0");
    assert_eq!(elapsed, Nanos::from_millis(100));
    assert_eq!(delta, Nanos::from_millis(100), "AI's tick length");
    assert_eq!((physics_run, ai_run), (3, 1));
    // The end of the step, outside the handler and under the names that say so.
    assert_eq!(
        state.clock("physics").unwrap().latest_tick().unwrap().index,
        6
    );
    assert_eq!(state.virtual_time().elapsed(), Nanos::from_millis(250));
    let end = state
        .as_of(
            &events,
            &Event::Update(events.updates().nth(3).unwrap()),
            |s| {
                (
                    s.clock("physics")
                        .unwrap()
                        .latest_tick_at_step_end()
                        .unwrap()
                        .index,
                    s.virtual_time().elapsed_at_step_end(),
                    s.virtual_time().delta_at_step_end(),
                    s.clock("physics").unwrap().stats_at_step_end().ticks_run,
                )
            },
        )
        .unwrap();
    assert_eq!(
        end,
        (6, Nanos::from_millis(250), Nanos::from_millis(250), 7)
    );
}

#[test]
fn a_tie_goes_to_the_clock_declared_first() {
    // AI declared first: its tick 0 (due at 100 ms) comes before physics' tick 2 (also 100 ms).
    let mut state = physics_ai(true);
    let events = state.advance(Nanos::from_millis(250));
    let (latest, elapsed, ..) = ai_tick0_reading(&mut state, &events);
    assert_eq!((latest, elapsed), (1, Nanos::from_millis(100)));
}

#[test]
fn the_same_in_one_frame_or_in_many() {
    // AI tick 0 handled in a step of its own (frames of 10 ms) reads what it reads in one
    // 250 ms frame.
    let mut state = physics_ai(false);
    let mut seen = None;
    for ms in (10..=250).step_by(10) {
        let events = state.advance(Nanos::from_millis(ms));
        if events
            .updates()
            .any(|t| t.clock == state.clock("ai").unwrap().id() && t.index == 0)
        {
            seen = Some(ai_tick0_reading(&mut state, &events));
        }
    }
    let (latest, elapsed, delta, physics_run, ai_run) = seen.unwrap();
    assert_eq!(
        (latest, elapsed, delta),
        (2, Nanos::from_millis(100), Nanos::from_millis(100))
    );
    assert_eq!((physics_run, ai_run), (3, 1));
}

#[test]
fn other_events_and_the_state_afterwards_read_the_end_of_the_step() {
    let mut state = physics_ai(false);
    let events = state.advance(Nanos::from_millis(250));
    let mut kinds = Vec::new();
    state
        .hand_on(&events, |event, s| {
            kinds.push((
                matches!(event, Event::Update(_)),
                s.as_of_tick().is_some(),
                s.virtual_time().elapsed(),
            ));
        })
        .unwrap();
    let (updates, others): (Vec<&(bool, bool, Nanos)>, Vec<_>) = kinds.iter().partition(|k| k.0);
    assert!(
        updates
            .iter()
            .all(|k| k.1 && k.2 <= Nanos::from_millis(250))
    );
    assert!(!others.is_empty());
    assert!(
        others
            .iter()
            .all(|k| !k.1 && k.2 == Nanos::from_millis(250))
    );
    assert_eq!(state.as_of_tick(), None);
    assert_eq!(
        state.clock("physics").unwrap().latest_tick().unwrap().index,
        6
    );
    // A positioned state never leaks into a clone or a comparison.
    let copy = state.clone();
    assert_eq!(copy, state);
}

#[test]
#[cfg_attr(
    not(panic = "unwind"),
    ignore = "needs unwinding; panics abort on this target (wasm)"
)]
fn a_handler_that_unwinds_leaves_the_state_at_the_step_end() {
    let mut state = physics_ai(false);
    let events = state.advance(Nanos::from_millis(250));
    let tick = events.updates().next().unwrap();
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = state.as_of(&events, &Event::Update(tick), |_| panic!("a handler's bug"));
    }));
    assert!(unwound.is_err());
    assert_eq!(state.as_of_tick(), None);
    assert_eq!(state.virtual_time().elapsed(), Nanos::from_millis(250));
}

#[test]
fn stale_events_are_refused_loudly() {
    let mut state = physics_ai(false);
    let old = state.advance(Nanos::from_millis(250));
    let tick = old.updates().next().unwrap();
    let _new = state.advance(Nanos::from_millis(400));
    assert_eq!(
        state.as_of(&old, &Event::Update(tick), |_| ()),
        Err(AsOfError::NotLatestStep)
    );
    assert_eq!(
        state.hand_on(&old, |_, _| ()),
        Err(AsOfError::NotLatestStep)
    );
    // A refusal since the step changes its updates too.
    let mut state = physics_ai(false);
    let events = state.advance(Nanos::from_millis(250));
    let last = events.updates().last().unwrap();
    state.refuse(last.clock, last.index).unwrap();
    assert_eq!(
        state.as_of(&events, &Event::Update(last), |_| ()),
        Err(AsOfError::NotLatestStep)
    );
    // An update that is not one of the events.
    let mut state = physics_ai(false);
    let events = state.advance(Nanos::from_millis(250));
    let mut other = events.updates().next().unwrap();
    other.index = 99;
    assert_eq!(
        state.as_of(&events, &Event::Update(other), |_| ()),
        Err(AsOfError::NotInEvents)
    );
}

/// What a handler reads as of one update: its clock and number, the virtual time and delta,
/// and per clock its latest tick and counts.
type Reading = (
    u16,
    u64,
    u64,
    u64,
    Vec<(Option<u64>, u64, u64, u64, u64, u64)>,
);

/// Steps `config` at `frames` (cumulative ns), then at the last `now` until nothing is left,
/// reading every update as of it (`as_of`) or at the step's end.
fn readings(config: &LoopConfig, frames: &[u64], as_of: bool) -> Vec<Reading> {
    let mut state = LoopState::new(config.clone(), Nanos(0)).unwrap();
    let names: Vec<String> = state.clock_names().map(String::from).collect();
    let mut out = Vec::new();
    let last = frames.last().copied().unwrap_or(0);
    let mut settle = 0;
    let mut frames = frames.iter().copied();
    loop {
        let now = match frames.next() {
            Some(now) => now,
            None if settle < 1_000 => {
                settle += 1;
                last
            }
            None => break,
        };
        let events = state.advance(Nanos(now));
        if settle > 0 && events.update_count() == 0 {
            break;
        }
        state
            .hand_on(&events, |event, s| {
                let Event::Update(tick) = event else { return };
                let time = s.virtual_time();
                let (elapsed, delta) = if as_of {
                    (time.elapsed(), time.delta())
                } else {
                    (time.elapsed_at_step_end(), time.delta_at_step_end())
                };
                let clocks = names
                    .iter()
                    .map(|name| {
                        let c = s.clock(name.as_str()).unwrap();
                        let (latest, stats) = if as_of {
                            (c.latest_tick(), c.stats())
                        } else {
                            (c.latest_tick_at_step_end(), c.stats_at_step_end())
                        };
                        // The accounting identity holds as of the tick too.
                        assert_eq!(
                            stats.ticks_run + stats.ticks_dropped + stats.pending,
                            stats.ticks_due + stats.ticks_early
                        );
                        (
                            latest.map(|t| t.index),
                            stats.ticks_run,
                            stats.next_tick,
                            stats.ticks_due,
                            stats.pending,
                            stats.ticks_early,
                        )
                    })
                    .collect();
                out.push((tick.clock.0, tick.index, elapsed.0, delta.0, clocks));
            })
            .unwrap();
    }
    out
}

#[derive(Clone, Debug)]
struct Case {
    rates: Vec<(u64, u64)>,
    caps: Vec<Option<u32>>,
    /// Two schedules of frame lengths (ns), ending at the same time.
    a: Vec<u64>,
    b: Vec<u64>,
}

const RATES: [(u64, u64); 6] = [(30, 1), (10, 1), (60, 1), (7, 3), (144, 1), (60_000, 1_001)];

fn frames(g: &mut Gen, end: u64) -> Vec<u64> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < end {
        at = (at + 1 + u64::arbitrary(g) % 300_000_000).min(end);
        out.push(at);
    }
    out
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let n = 2 + usize::arbitrary(g) % 2;
        let rates = (0..n)
            .map(|_| RATES[usize::arbitrary(g) % RATES.len()])
            .collect();
        let caps = (0..n).map(|_| Some(1 + u32::arbitrary(g) % 8)).collect();
        let end = 100_000_000 + u64::arbitrary(g) % 1_500_000_000;
        Case {
            rates,
            caps,
            a: frames(g, end),
            b: frames(g, end),
        }
    }
}

fn config(case: &Case) -> LoopConfig {
    let clock = |i: usize| {
        let (num, den) = case.rates[i];
        ClockConfig::new(
            ["a", "b", "c"][i],
            Period::from_secs_ratio(den, num).unwrap(),
        )
        .max_updates(case.caps[i])
    };
    let mut config = LoopConfig::from_clock(clock(0)).max_frame_delta(None);
    for i in 1..case.rates.len() {
        config = config.clock(clock(i));
    }
    config
}

#[test]
fn readings_as_of_each_tick_are_the_same_under_every_slicing() {
    fn prop(case: Case) -> bool {
        let config = config(&case);
        readings(&config, &case.a, true) == readings(&config, &case.b, true)
    }
    QuickCheck::new()
        .tests(150)
        .quickcheck(prop as fn(Case) -> bool);
}

#[test]
fn end_of_step_readings_depend_on_the_slicing() {
    // What a handler read before: the frame's end. One frame against frames of 10 ms.
    let case = Case {
        rates: vec![(30, 1), (10, 1)],
        caps: vec![Some(8), Some(8)],
        a: vec![250_000_000],
        b: (1..=25).map(|i| i * 10_000_000).collect(),
    };
    let config = config(&case);
    assert_ne!(
        readings(&config, &case.a, false),
        readings(&config, &case.b, false)
    );
    assert_eq!(
        readings(&config, &case.a, true),
        readings(&config, &case.b, true)
    );
}

#[test]
fn constant_rate_slots_read_their_start() {
    // A 20 Hz KeepWorking slot beside a 10 Hz catch-up clock: slot k comes due at its start.
    let config = LoopConfig::new(Period::from_hz(10).unwrap())
        .clock(ClockConfig::new("net", Period::from_hz(20).unwrap()).policy(Policy::KeepWorking));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let net = state.clock("net").unwrap().id();
    let mut seen = Vec::new();
    for ms in [120, 260] {
        let events = state.advance(Nanos::from_millis(ms));
        state
            .hand_on(&events, |event, s| {
                if let Event::Update(tick) = event {
                    if tick.clock == net {
                        seen.push((tick.index, s.virtual_time().elapsed().0 / 1_000_000));
                    }
                }
            })
            .unwrap();
    }
    assert!(!seen.is_empty());
    assert!(seen.iter().all(|&(k, ms)| ms == 50 * k), "{seen:?}");
}
