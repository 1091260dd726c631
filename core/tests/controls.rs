//! The run-time controls against a naive model over random schedules: rate changes, overstep
//! accumulated and discarded, grid resets and refused ticks on a catch-up clock (the model walks
//! the grid tick by tick with exact rationals), the Delay policy (the model measures each slot
//! from the previous one or from now), and the accounting identity under every control,
//! policy, cap and clamp.

use core::time::Duration;

use quickcheck::{Arbitrary, Gen, QuickCheck};

mod support;
use support::grid_model::{Model, ceil_mul, merge_drop};
use tickfold_core::{
    ClockStats, Event, InputQueue, LoopConfig, LoopState, Nanos, Period, Policy, RefuseError, Tick,
};

const RATES: [(u64, u64); 5] = [(60, 1), (60_000, 1_001), (144, 1), (7, 3), (30, 1)];

#[derive(Clone, Debug)]
enum Op {
    /// Advance real time by this many ns and step.
    Frame(u64),
    /// Change the rate to `RATES[i]`.
    SetRate(usize),
    Accumulate(u64),
    Discard(u64),
    Reset,
    /// Refuse the latest update of the latest step, if there was one.
    Refuse,
    /// Push an input stamped this many ns after 20 ms before the latest `now` (late or early).
    Input(u64),
    /// Save the state and load it back (feature `serde`).
    SaveLoad,
}

impl Op {
    /// A control that moves the grid: a step's inputs may be drained after it.
    fn moves_grid(&self) -> bool {
        matches!(
            self,
            Op::SetRate(_) | Op::Accumulate(_) | Op::Discard(_) | Op::Reset
        )
    }
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Op {
        match u8::arbitrary(g) % 16 {
            0 => Op::SetRate(usize::arbitrary(g) % RATES.len()),
            1 => Op::Accumulate(u64::arbitrary(g) % 200_000_000),
            2 => Op::Discard(u64::arbitrary(g) % 100_000_000),
            3 => Op::Reset,
            4 | 5 => Op::Refuse,
            6 => Op::Frame(u64::arbitrary(g) % 500_000_000),
            8..=10 => Op::Input(u64::arbitrary(g) % 60_000_000),
            11 => Op::SaveLoad,
            7 => Op::Frame(0),
            _ => Op::Frame(16_666_666 + u64::arbitrary(g) % 200_001 - 100_000),
        }
    }
}

#[derive(Clone, Debug)]
struct Schedule(Vec<Op>);

impl Arbitrary for Schedule {
    fn arbitrary(g: &mut Gen) -> Schedule {
        let len = usize::arbitrary(g) % 100;
        Schedule((0..len).map(|_| Op::arbitrary(g)).collect())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Schedule>> {
        Box::new(self.0.shrink().map(Schedule))
    }
}

fn rate(i: usize) -> Period {
    Period::from_hz_ratio(RATES[i].0, RATES[i].1).unwrap()
}

fn matches_model(schedule: Schedule) -> bool {
    let config = LoopConfig::new(rate(0))
        .max_updates(None)
        .max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut model = Model {
        dt: rate(0).as_nanos_ratio(),
        origin: 0,
        base: 0,
        base_t: 0,
        next: 0,
        ran: 0,
        dropped: 0,
        refused: 0,
        v: 0,
        expect: Vec::new(),
    };
    let mut now = 0u64;
    let mut latest: Option<Tick> = None;
    let mut inputs = Inputs::new(&state);
    // A step's ticks and their model due times, when their inputs are drained after the
    // next op (a control that moves the grid).
    let mut undrained: Option<(Vec<Tick>, Vec<i128>)> = None;
    let ops = schedule.0;
    for (i, op) in ops.iter().cloned().enumerate() {
        match op {
            Op::Frame(d) => {
                now += d;
                model.v = now;
                merge_drop(&mut model.expect);
                let ticked = model.step_due();
                let ticks: Vec<(u64, u64)> = ticked.iter().map(|&(k, t, _)| (k, t)).collect();
                let events = state.advance(Nanos(now));
                inputs.queue.observe(&state);
                inputs.stepped(now);
                let dues = ticked.iter().map(|&(_, _, due)| due).collect();
                undrained = Some((events.updates().collect(), dues));
                let got: Vec<(u64, u64)> = events.updates().map(|t| (t.index, t.t.0)).collect();
                if got != ticks {
                    eprintln!("updates {got:?} != model {ticks:?}");
                    return false;
                }
                let reports: Vec<Event<Nanos>> = events
                    .iter()
                    .filter(|e| matches!(e, Event::RateChanged { .. } | Event::DroppedTicks { .. }))
                    .collect();
                if reports != model.expect {
                    eprintln!("reports {reports:?} != model {:?}", model.expect);
                    return false;
                }
                model.expect.clear();
                latest = events.updates().last();
                // Odd frames drain after a grid control that follows them.
                let late = d % 2 == 1 && ops.get(i + 1).is_some_and(Op::moves_grid);
                if !late && !inputs.drain(&state, undrained.take()) {
                    return false;
                }
                continue;
            }
            Op::Input(d) => {
                inputs.push(now, d);
                continue;
            }
            Op::SaveLoad => {
                #[cfg(feature = "serde")]
                {
                    let saved = serde_json::to_string(&state).unwrap();
                    let loaded: LoopState = serde_json::from_str(&saved).unwrap();
                    if loaded != state {
                        eprintln!("the loaded state differs");
                        return false;
                    }
                    state = loaded;
                }
                continue;
            }
            Op::SetRate(i) => {
                state.clock_mut("main").unwrap().set_rate(rate(i));
                if rate(i).as_nanos_ratio() != model.dt {
                    let at = model.start(model.m());
                    model.restart(at);
                    let whole = model.base_t.div_ceil(u128::from(model.dt.1));
                    model.dt = rate(i).as_nanos_ratio();
                    model.base_t = whole * u128::from(model.dt.1);
                    model.expect.push(Event::RateChanged {
                        clock: tickfold_core::ClockId(0),
                        period: rate(i),
                        from_tick: model.next,
                    });
                }
                latest = None;
            }
            Op::Accumulate(d) => {
                state
                    .clock_mut("main")
                    .unwrap()
                    .accumulate_overstep(Nanos(d));
                model.origin -= i128::from(d);
                latest = None;
            }
            Op::Discard(d) => {
                let got = state
                    .clock_mut("main")
                    .unwrap()
                    .discard_overstep(Nanos(d))
                    .0;
                let from = model.start(model.m());
                let lag = (i128::from(model.v) - from).max(0) as u64;
                let d = d.min(lag);
                if got != d {
                    eprintln!("discarded {got} != model {d}");
                    return false;
                }
                if d > 0 {
                    // Whole ticks inside the discarded span are dropped, one by one.
                    let mut w = 0;
                    while model.start(model.m() + w + 1) <= from + i128::from(d) {
                        w += 1;
                    }
                    model.drop_to(model.next + w);
                    let moved = model.start(model.m()) - from;
                    model.origin += i128::from(d) - moved;
                    latest = None;
                }
            }
            Op::Reset => {
                state.clock_mut("main").unwrap().reset_grid();
                let mut next = model.next;
                while model.due(next) <= i128::from(model.v) {
                    next += 1;
                }
                model.drop_to(next);
                model.restart(i128::from(model.v));
                latest = None;
            }
            Op::Refuse => {
                let Some(tick) = latest.take() else {
                    let fake = Tick {
                        clock: tickfold_core::ClockId(0),
                        index: model.next,
                        t: Nanos(0),
                        dt: rate(0),
                        lag: tickfold_core::Lag::ZERO,
                        last_in_step: true,
                    };
                    let before = state.clone();
                    if !matches!(
                        state.refuse(fake.clock, fake.index),
                        Err(RefuseError::NotRefusable { .. })
                    ) || state != before
                    {
                        return false;
                    }
                    continue;
                };
                state.refuse(tick.clock, tick.index).unwrap();
                model.next -= 1;
                model.ran -= 1;
                model.refused += 1;
                inputs.refused(tick.index);
            }
        }
        // A step's inputs drained after the control that followed it.
        if !inputs.drain(&state, undrained.take()) {
            return false;
        }
        let s = state.clock("main").unwrap().stats();
        if !identity(&s)
            || s.next_tick != model.next
            || s.ticks_run != model.ran
            || s.ticks_dropped != model.dropped
            || s.ticks_refused != model.refused
        {
            eprintln!("stats {s:?}, model next {} ran {}", model.next, model.ran);
            return false;
        }
    }
    true
}

/// The input queue under test beside the model's attribution: an input stamped at real time
/// `r` has the virtual time `max(r, latest now when pushed)` (scale 1, never paused: late
/// inputs count from the latest `now`), and tick `k` takes every input left with a virtual time
/// before its model due time, in order of virtual time, ties in the order the steps covered
/// them, then by stamp, then by push.
struct Inputs {
    queue: InputQueue<u32>,
    /// (virtual time, the step that covered it, stamp, id) of the inputs the model has not
    /// given out.
    left: Vec<Input>,
    /// The model's inputs of the latest tick drained (a refusal gives them back).
    latest: (u64, Vec<Input>),
    next_id: u32,
    steps: u64,
}

type Input = (i128, u64, u64, u32);

impl Inputs {
    fn new(state: &LoopState) -> Inputs {
        Inputs {
            queue: InputQueue::new(state),
            left: Vec::new(),
            latest: (u64::MAX, Vec::new()),
            next_id: 0,
            steps: 0,
        }
    }

    /// After a step to `now`: the inputs it covered.
    fn stepped(&mut self, now: u64) {
        self.steps += 1;
        for input in &mut self.left {
            if input.1 == u64::MAX && input.2 <= now {
                input.1 = self.steps;
            }
        }
    }

    fn push(&mut self, now: u64, d: u64) {
        let r = now.saturating_sub(20_000_000) + d;
        self.queue.push(Nanos(r), self.next_id);
        self.left
            .push((i128::from(r.max(now)), u64::MAX, r, self.next_id));
        self.next_id += 1;
    }

    fn refused(&mut self, index: u64) {
        if self.latest.0 == index {
            self.left.append(&mut self.latest.1);
        }
    }

    /// Drains `ticks` and checks each against the model's due times.
    fn drain(&mut self, state: &LoopState, ticks: Option<(Vec<Tick>, Vec<i128>)>) -> bool {
        let Some((ticks, dues)) = ticks else {
            return true;
        };
        for (tick, due) in ticks.iter().zip(dues) {
            let got: Vec<u32> = self.queue.drain(tick, state).collect();
            self.left.sort_unstable();
            let n = self.left.iter().take_while(|(v, ..)| *v < due).count();
            let given: Vec<Input> = self.left.drain(..n).collect();
            let want: Vec<u32> = given.iter().map(|&(.., id)| id).collect();
            if got != want {
                eprintln!(
                    "tick {} (due {due}): inputs {got:?} != model {want:?}",
                    tick.index
                );
                return false;
            }
            self.latest = (tick.index, given);
        }
        true
    }
}

fn identity(s: &ClockStats) -> bool {
    s.ticks_run + s.ticks_dropped + s.pending == s.ticks_due + s.ticks_early
}

#[test]
fn catch_up_controls_match_the_naive_model() {
    QuickCheck::new()
        .tests(1_500)
        .quickcheck(matches_model as fn(Schedule) -> bool);
}

/// Any policy, cap, clamp, firing rule and render cap, any control: nothing panics, the
/// identity holds after every call, and tick numbers only move forward except to re-run a
/// refused tick.
#[derive(Clone, Debug)]
struct Mixed {
    policy: Policy,
    cap: Option<u32>,
    clamp: Option<u64>,
    second: bool,
    ops: Vec<(u8, u64)>,
}

impl Arbitrary for Mixed {
    fn arbitrary(g: &mut Gen) -> Mixed {
        let len = usize::arbitrary(g) % 100;
        Mixed {
            policy: *g
                .choose(&[
                    Policy::CatchUp,
                    Policy::DropAndRest,
                    Policy::KeepWorking,
                    Policy::Delay,
                ])
                .unwrap(),
            cap: bool::arbitrary(g).then(|| 1 + u32::arbitrary(g) % 10),
            clamp: bool::arbitrary(g).then(|| 1 + u64::arbitrary(g) % 300_000_000),
            second: bool::arbitrary(g),
            ops: (0..len)
                .map(|_| (u8::arbitrary(g), u64::arbitrary(g)))
                .collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Mixed>> {
        let me = self.clone();
        Box::new(
            self.ops
                .shrink()
                .map(move |ops| Mixed { ops, ..me.clone() }),
        )
    }
}

fn mixed_holds(case: Mixed) -> bool {
    let mut config = LoopConfig::from_clock(
        tickfold_core::ClockConfig::new("main", rate(0))
            .policy(case.policy)
            .max_updates(case.cap),
    )
    .max_frame_delta(case.clamp.map(Duration::from_nanos));
    if case.second {
        config = config.clock(tickfold_core::ClockConfig::new("ai", rate(4)));
    }
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut now = 0u64;
    let mut latest: Vec<Tick> = Vec::new();
    let mut next_seen = [0u64; 2];
    for (kind, x) in case.ops {
        let clock = if case.second && kind & 1 == 1 {
            "ai"
        } else {
            "main"
        };
        match kind % 14 {
            0 => {
                let _ = state.clock_mut(clock).map(|mut h| {
                    h.set_rate(rate(x as usize % RATES.len()));
                });
            }
            1 => {
                let _ = state.clock_mut(clock).map(|mut h| {
                    h.accumulate_overstep(Nanos(x % 300_000_000));
                });
            }
            2 => {
                let _ = state
                    .clock_mut(clock)
                    .map(|mut h| h.discard_overstep(Nanos(x % 300_000_000)));
            }
            3 => {
                let _ = state.clock_mut(clock).map(|mut h| {
                    h.reset_grid();
                });
            }
            4 => {
                if let Some(t) = latest.pop() {
                    if state.refuse(t.clock, t.index).is_ok() {
                        next_seen[usize::from(t.clock.0)] = t.index;
                    }
                }
            }
            5 => {
                let _ = state.clock_mut(clock).map(|mut h| {
                    let _ = h.set_max_updates((x % 4 != 0).then_some((x % 9) as u32));
                });
            }
            6 => {
                let _ = state
                    .real_time_mut()
                    .set_max_frame_delta(
                        (x % 3 != 0).then(|| Duration::from_nanos(x % 400_000_000)),
                    )
                    .map(|_| ());
            }
            7 => {
                let _ = state.clock_mut(clock).map(|mut h| {
                    let _ = h.set_phase((x % 5) as f64 / 4.0);
                });
            }
            8 => {
                let _ = state.clock_mut(clock).map(|mut h| {
                    let _ = h.set_hysteresis((x % 4) as f64 / 5.0);
                });
            }
            9 => {
                state
                    .real_time_mut()
                    .set_render_rate((x % 2 == 0).then(|| rate(x as usize % RATES.len())));
            }
            10 => {
                state.virtual_time_mut().set_paused(x % 2 == 0);
            }
            _ => {
                now += match x % 5 {
                    0 => x % 2_000_000_000,
                    1 => 0,
                    _ => 16_000_000 + x % 1_000_000,
                };
                let events = state.advance(Nanos(now));
                latest = events.updates().collect();
                for t in &latest {
                    let seen = &mut next_seen[usize::from(t.clock.0)];
                    if t.index < *seen {
                        eprintln!("tick {t:?} after {seen}");
                        return false;
                    }
                    *seen = t.index + 1;
                }
                for e in &events {
                    if let Event::DroppedTicks {
                        clock,
                        first,
                        count,
                        ..
                    }
                    | Event::DiscardedTime {
                        clock,
                        first,
                        ticks: count,
                        ..
                    } = e
                    {
                        // A drop never covers a tick that runs in the same step.
                        let end = first.saturating_add(count);
                        if let Some(t) = latest
                            .iter()
                            .find(|t| t.clock == clock && (first..end).contains(&t.index))
                        {
                            eprintln!("{e:?} covers {t:?}");
                            return false;
                        }
                    }
                }
            }
        }
        for id in 0..=u16::from(case.second) {
            let s = state.clock(tickfold_core::ClockId(id)).unwrap().stats();
            if !identity(&s) {
                eprintln!("identity broken: {s:?}");
                return false;
            }
        }
    }
    true
}

#[test]
fn every_control_keeps_the_accounting_exact() {
    QuickCheck::new()
        .tests(1_500)
        .quickcheck(mixed_holds as fn(Mixed) -> bool);
}

/// A lone Delay clock: each step runs one update; the model's slot starts one period after
/// the previous slot, or at the step's time when that is later (the grid moves).
fn delay_matches(frames: Vec<u32>) -> bool {
    let dt = rate(0).as_nanos_ratio();
    let config = LoopConfig::new(rate(0))
        .policy(Policy::Delay)
        .max_frame_delta(Some(Duration::from_millis(100)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let (mut origin, mut base, mut next) = (0i128, 0u64, 0u64);
    let mut now = 0u64;
    for f in frames {
        now += u64::from(f % 60_000_000);
        let events = state.advance(Nanos(now));
        let mut slot = origin + ceil_mul(next - base, dt);
        if i128::from(now) > slot {
            origin = i128::from(now);
            base = next;
            slot = origin;
        }
        let sleep = events.iter().find_map(|e| match e {
            Event::Sleep { until } => Some(until.0),
            _ => None,
        });
        let expected_sleep = (slot > i128::from(now)).then_some(slot as u64);
        let ticks: Vec<u64> = events.updates().map(|t| t.index).collect();
        let dropped = events
            .iter()
            .any(|e| matches!(e, Event::DroppedTicks { .. } | Event::DiscardedTime { .. }));
        if sleep != expected_sleep || ticks != [next] || dropped {
            eprintln!(
                "now {now}: sleep {sleep:?} vs {expected_sleep:?}, ticks {ticks:?} vs {next}"
            );
            return false;
        }
        next += 1;
        // The shell sleeps until the slot before it runs the update.
        now = now.max(slot as u64);
    }
    true
}

#[test]
fn delay_measures_the_next_slot_from_a_late_one() {
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(delay_matches as fn(Vec<u32>) -> bool);
}

#[test]
fn regression_accumulate_then_rates() {
    use Op::*;
    assert!(matches_model(Schedule(vec![
        Accumulate(95075764),
        SetRate(1),
        Discard(71016306),
        SetRate(0),
        Reset,
        SetRate(4),
        Frame(0),
    ])));
}
