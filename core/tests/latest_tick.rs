//! `ClockView::latest_tick` against the events themselves: after every step, each clock's
//! latest tick is the last update the steps so far produced for it (with the end
//! `Events::tick_end` gave it), less the ticks a shell refused, under random slicings of time,
//! several clocks of every policy, caps, and controls between steps (rate changes, grid
//! resets, phase changes, added and discarded lag, refusals). With `serde`, a save and a load
//! after every step answer the same.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    ClockConfig, Firing, LoopConfig, LoopState, Nanos, Period, Policy, Tick, TickSpan,
};

const RATES: [(u64, u64); 5] = [(60, 1), (60_000, 1_001), (144, 1), (7, 3), (64, 1)];
const POLICIES: [Policy; 4] = [
    Policy::CatchUp,
    Policy::DropAndRest,
    Policy::KeepWorking,
    Policy::Delay,
];

fn rate(i: usize) -> Period {
    let (a, b) = RATES[i % RATES.len()];
    Period::from_hz_ratio(a, b).unwrap()
}

#[derive(Clone, Debug)]
enum Control {
    Rate(usize, usize),
    Reset(usize),
    Phase(usize, u8),
    Accumulate(usize, u64),
    Discard(usize, u64),
    /// Refuse the clock's latest update of the latest step, if it had one.
    Refuse(usize),
}

#[derive(Clone, Debug)]
struct Schedule {
    /// (rate, policy, cap, nearest firing) per clock.
    clocks: Vec<(usize, usize, Option<u32>, bool)>,
    /// Frame lengths in ns, each with the controls used before the step.
    frames: Vec<(u64, Vec<Control>)>,
}

impl Arbitrary for Schedule {
    fn arbitrary(g: &mut Gen) -> Schedule {
        let n = 1 + usize::arbitrary(g) % 3;
        let clocks = (0..n)
            .map(|_| {
                let cap = match u8::arbitrary(g) % 3 {
                    0 => None,
                    1 => Some(1 + u32::arbitrary(g) % 3),
                    _ => Some(8),
                };
                (
                    usize::arbitrary(g) % RATES.len(),
                    usize::arbitrary(g) % POLICIES.len(),
                    cap,
                    bool::arbitrary(g),
                )
            })
            .collect();
        let frames = (0..usize::arbitrary(g) % 50)
            .map(|_| {
                let len = match u8::arbitrary(g) % 4 {
                    0 => 0,
                    1 => u64::arbitrary(g) % 1_000_000,
                    2 => u64::arbitrary(g) % 40_000_000,
                    _ => u64::arbitrary(g) % 400_000_000,
                };
                let mut controls = Vec::new();
                for _ in 0..usize::arbitrary(g) % 3 {
                    if u8::arbitrary(g) % 3 != 0 {
                        continue;
                    }
                    let c = usize::arbitrary(g) % n;
                    controls.push(match u8::arbitrary(g) % 6 {
                        0 => Control::Rate(c, usize::arbitrary(g)),
                        1 => Control::Reset(c),
                        2 => Control::Phase(c, u8::arbitrary(g)),
                        3 => Control::Accumulate(c, u64::arbitrary(g) % 50_000_000),
                        4 => Control::Discard(c, u64::arbitrary(g) % 50_000_000),
                        _ => Control::Refuse(c),
                    });
                }
                (len, controls)
            })
            .collect();
        Schedule { clocks, frames }
    }
}

fn name(c: usize) -> String {
    if c == 0 {
        "main".to_owned()
    } else {
        format!("c{c}")
    }
}

/// Every update each clock ran and no refusal undid, with its end, in order.
type Ran = Vec<Vec<TickSpan>>;

fn span(tick: &Tick, end: Nanos) -> TickSpan {
    let mut s = latest_template();
    s.index = tick.index;
    s.t = tick.t;
    s.end = end;
    s.dt = tick.dt;
    s
}

/// A `TickSpan` to fill in (the struct is `#[non_exhaustive]`: taken from a real loop).
fn latest_template() -> TickSpan {
    let state = LoopState::new(LoopConfig::new(Period::from_hz(1).unwrap()), Nanos(0)).unwrap();
    let (state, _) = state.step(Nanos(1_000_000_000));
    state.clock("main").unwrap().latest_tick().unwrap()
}

fn latest_ticks_follow_the_events(s: Schedule) -> bool {
    let config_of = |c: usize| {
        let (r, p, cap, nearest) = s.clocks[c];
        let policy = POLICIES[p];
        let mut cfg = ClockConfig::new(name(c), rate(r))
            .policy(policy)
            .max_updates(cap);
        if nearest && policy == Policy::CatchUp {
            cfg = cfg.firing(Firing::Nearest);
        }
        cfg
    };
    let mut config = LoopConfig::from_clock(config_of(0));
    for c in 1..s.clocks.len() {
        config = config.clock(config_of(c));
    }
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut ran: Ran = vec![Vec::new(); s.clocks.len()];
    // The latest step's updates of each clock (the ones a refusal may undo).
    let mut last_step: Vec<Vec<u64>> = vec![Vec::new(); s.clocks.len()];
    let mut now = 0u64;
    for (len, controls) in s.frames {
        for control in controls {
            match control {
                Control::Rate(c, r) => {
                    state.clock_mut(name(c).as_str()).unwrap().set_rate(rate(r));
                }
                Control::Reset(c) => {
                    state.clock_mut(name(c).as_str()).unwrap().reset_grid();
                }
                Control::Phase(c, f) => {
                    let mut clock = state.clock_mut(name(c).as_str()).unwrap();
                    let _ = clock.set_phase(f64::from(f % 4) / 4.0);
                }
                Control::Accumulate(c, d) => {
                    let mut clock = state.clock_mut(name(c).as_str()).unwrap();
                    clock.accumulate_overstep(Nanos(d));
                }
                Control::Discard(c, d) => {
                    let mut clock = state.clock_mut(name(c).as_str()).unwrap();
                    let _ = clock.discard_overstep(Nanos(d));
                }
                Control::Refuse(c) => {
                    let Some(&index) = last_step[c].last() else {
                        continue;
                    };
                    if state.refuse(name(c).as_str(), index).is_ok() {
                        last_step[c].pop();
                        let undone = ran[c].pop().map(|t| t.index);
                        if undone != Some(index) {
                            return false;
                        }
                    }
                }
            }
        }
        now += len;
        let (next, events) = state.step(Nanos(now));
        state = next;
        for steps in &mut last_step {
            steps.clear();
        }
        for tick in events.updates() {
            let c = usize::from(tick.clock.0);
            let Some(end) = events.tick_end(&tick) else {
                return false;
            };
            ran[c].push(span(&tick, end));
            last_step[c].push(tick.index);
        }
        #[cfg(feature = "serde")]
        {
            let saved = serde_json::to_string(&state).unwrap();
            let loaded: LoopState = serde_json::from_str(&saved).unwrap();
            for c in 0..s.clocks.len() {
                let n = name(c);
                if loaded.clock(n.as_str()).unwrap().latest_tick()
                    != state.clock(n.as_str()).unwrap().latest_tick()
                {
                    return false;
                }
            }
        }
        for (c, ticks) in ran.iter().enumerate() {
            let latest = state.clock(name(c).as_str()).unwrap().latest_tick();
            if latest != ticks.last().copied() {
                eprintln!("clock {c}: {latest:?} against {:?}", ticks.last());
                return false;
            }
        }
    }
    true
}

#[test]
fn the_latest_tick_is_the_last_update_run_under_any_slicing_and_controls() {
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(latest_ticks_follow_the_events as fn(Schedule) -> bool);
}

#[test]
fn a_refused_only_update_gives_back_the_tick_before_it_and_a_rate_change_keeps_it() {
    let mut state =
        LoopState::new(LoopConfig::new(Period::from_hz(60).unwrap()), Nanos(0)).unwrap();
    let _ = state.advance(Nanos::from_millis(40)); // ticks 0 and 1
    let _ = state.advance(Nanos::from_millis(50)); // tick 2
    let latest = |s: &LoopState| {
        let t = s.clock("main").unwrap().latest_tick().unwrap();
        (t.index, t.t.0, t.end.0)
    };
    assert_eq!(latest(&state), (2, 33_333_333, 50_000_000));
    state.refuse("main", 2).unwrap();
    assert_eq!(latest(&state), (1, 16_666_666, 33_333_333));
    // Runs tick 2 again, then the grid restarts at 50 Hz after it: tick 2 stays as it ran.
    let _ = state.advance(Nanos::from_millis(51));
    state
        .clock_mut("main")
        .unwrap()
        .set_rate(Period::from_hz(50).unwrap());
    assert_eq!(latest(&state), (2, 33_333_333, 50_000_000));
    let _ = state.advance(Nanos::from_millis(80)); // tick 3, 20 ms long from 50 ms
    assert_eq!(latest(&state), (3, 50_000_000, 70_000_000));
}
