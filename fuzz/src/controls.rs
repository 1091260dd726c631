//! Target `controls`: every run-time control of `LoopState` between steps at hostile `now`s,
//! with an input queue beside the loop. The controls: rate changes, the setters (cap, phase,
//! hysteresis, max frame delta, render rate; invalid and non-finite values included), added
//! and discarded lag, grid resets, refused ticks, single-stepping, pause, scale, and clocks
//! added and removed. Any policy, `Policy::Delay` included.
//!
//! Checked after every call, with no model of the grid (the `fold` target models a fixed
//! grid; these controls move it):
//! * nothing panics;
//! * each clock's accounting identity, `ticks_run + ticks_dropped + pending == ticks_due +
//!   ticks_early`;
//! * a refused setter leaves its getter's value as it was;
//! * a step's events come in the documented order (controls and drops, updates, deferrals
//!   and the end of time, the render), its deadline is not before its `now`;
//! * per clock, tick numbers only move forward, except to run a refused tick again; within a
//!   step they rise by one and only the last update of a clock is `last_in_step`; no drop
//!   covers a tick that runs in the same step;
//! * every input comes out of the queue to a tick of its clock, and again only after the shell
//!   refused that tick (the queue gives a refused tick's inputs back).

use std::time::Duration;

use arbitrary::Arbitrary;
use tickfold::{
    ClockId, DropReason, Event, Events, InputQueue, LoopConfig, LoopState, Nanos, Policy, Tick,
    TimeScale,
};

use crate::fold::{ClockSpec, RateSpec};

/// Names of the declared and added clocks.
const NAMES: [&str; 8] = ["main", "b", "c", "d", "e", "f", "g", "h"];

/// The fuzz input: up to four clocks and what to do with the loop.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    clocks: Vec<(ClockSpec, bool)>,
    max_frame_delta: Option<u64>,
    ops: Vec<Op>,
}

/// One call on the loop (clock numbers past the loop's clocks name unknown clocks).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Op {
    /// Step to the latest `now` plus this many ns.
    Forward(u32),
    /// Step forward by any amount (saturating).
    Leap(u64),
    /// Step back by this many ns.
    Backward(u32),
    /// Step to the latest `now` again.
    Repeat,
    SetRate(u8, RateSpec),
    SetMaxUpdates(u8, Option<u32>),
    SetPhase(u8, f64),
    SetHysteresis(u8, f64),
    SetMaxFrameDelta(Option<u64>),
    SetRenderRate(Option<RateSpec>),
    Accumulate(u8, u64),
    Discard(u8, u64),
    ResetGrid(u8),
    /// Refuse the latest step's updates from the last one back, this many.
    Refuse(u8),
    /// Refuse a tick the loop never ran (or ran long ago).
    RefuseOther(u8, u64),
    StepTicks(u16),
    SetPaused(bool),
    SetScale(u32, u32),
    AddClock(ClockSpec, bool, Option<u64>),
    RemoveClock(u8),
    /// Queue an input stamped this many ns after (or before, if negative) the latest `now`.
    Input(i32),
}

struct Harness {
    state: LoopState,
    queue: InputQueue<u32>,
    /// The latest `now`.
    now: u64,
    /// The latest step's updates, in order.
    latest: Vec<Tick>,
    /// Per clock id, the lowest tick number the next update of that clock may have.
    next_seen: Vec<u64>,
    /// Inputs pushed so far, and the tick each came out to (if any).
    pushed: u32,
    given: Vec<Option<(ClockId, u64)>>,
    /// Ticks refused so far: an input given to one of them comes out again, once, for its
    /// re-run (or, if a control then drops it, for the next tick that runs).
    refused: Vec<(ClockId, u64)>,
    added: usize,
}

/// Runs one input: builds the loop (a configuration error ends the run), then applies the ops.
pub fn run(input: Input) {
    let mut config: Option<LoopConfig> = None;
    for (i, (spec, delay)) in input.clocks.iter().take(4).enumerate() {
        let Ok((mut c, _)) = spec.build(NAMES[i]) else {
            return;
        };
        if *delay {
            c = c.policy(Policy::Delay).phase(0.0).hysteresis(0.0);
        }
        config = Some(match config {
            None => LoopConfig::from_clock(c),
            Some(l) => l.clock(c),
        });
    }
    let Some(config) = config else { return };
    let config = config.max_frame_delta(input.max_frame_delta.map(Duration::from_nanos));
    let Ok(state) = LoopState::new(config, Nanos(0)) else {
        return;
    };
    let queue = InputQueue::new(&state);
    let clocks = input.clocks.len().min(4);
    let mut h = Harness {
        state,
        queue,
        now: 0,
        latest: Vec::new(),
        next_seen: vec![0; 64],
        pushed: 0,
        given: Vec::new(),
        refused: Vec::new(),
        added: clocks,
    };
    for op in input.ops.iter().take(200) {
        h.apply(*op);
        h.check_identity(op);
    }
}

impl Harness {
    fn clock(&self, i: u8) -> ClockId {
        ClockId(u16::from(i % 10))
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Forward(d) => self.step(self.now.saturating_add(u64::from(d))),
            Op::Leap(d) => self.step(self.now.saturating_add(d)),
            Op::Backward(d) => self.step(self.now.saturating_sub(u64::from(d))),
            Op::Repeat => self.step(self.now),
            Op::SetRate(c, r) => {
                if let Ok(rate) = r.build() {
                    let id = self.clock(c);
                    let before = self.state.clock(id).ok().map(|c| c.rate());
                    if self
                        .state
                        .clock_mut(id)
                        .map(|mut h| {
                            h.set_rate(rate);
                        })
                        .is_err()
                    {
                        check!(
                            self.state.clock(id).ok().map(|c| c.rate()) == before,
                            "a refused set_rate changed the rate"
                        );
                    }
                }
            }
            Op::SetMaxUpdates(c, cap) => {
                let id = self.clock(c);
                let before = self.state.clock(id).ok().map(|c| c.max_updates());
                let cap = cap.map(|c| c % 2_000);
                if self
                    .state
                    .clock_mut(id)
                    .map_or(true, |mut h| h.set_max_updates(cap).is_err())
                {
                    check!(
                        self.state.clock(id).ok().map(|c| c.max_updates()) == before,
                        "a refused cap changed the cap"
                    );
                }
            }
            Op::SetPhase(c, x) => {
                let id = self.clock(c);
                let before = self
                    .state
                    .clock(id)
                    .ok()
                    .map(|c| c.phase())
                    .map(f64::to_bits);
                if self
                    .state
                    .clock_mut(id)
                    .map_or(true, |mut h| h.set_phase(x).is_err())
                {
                    let after = self
                        .state
                        .clock(id)
                        .ok()
                        .map(|c| c.phase())
                        .map(f64::to_bits);
                    check!(after == before, "a refused phase changed the phase");
                }
            }
            Op::SetHysteresis(c, x) => {
                let id = self.clock(c);
                let before = self
                    .state
                    .clock(id)
                    .ok()
                    .map(|c| c.hysteresis())
                    .map(f64::to_bits);
                if self
                    .state
                    .clock_mut(id)
                    .map_or(true, |mut h| h.set_hysteresis(x).is_err())
                {
                    let after = self
                        .state
                        .clock(id)
                        .ok()
                        .map(|c| c.hysteresis())
                        .map(f64::to_bits);
                    check!(after == before, "a refused hysteresis changed it");
                }
            }
            Op::SetMaxFrameDelta(d) => {
                let before = self.state.real_time().max_frame_delta();
                if self
                    .state
                    .real_time_mut()
                    .set_max_frame_delta(d.map(Duration::from_nanos))
                    .map(|_| ())
                    .is_err()
                {
                    check!(
                        self.state.real_time().max_frame_delta() == before,
                        "a refused max frame delta changed it"
                    );
                }
            }
            Op::SetRenderRate(r) => match r.map(RateSpec::build) {
                None => {
                    self.state.real_time_mut().set_render_rate(None);
                }
                Some(Ok(rate)) => {
                    self.state.real_time_mut().set_render_rate(Some(rate));
                }
                Some(Err(_)) => {}
            },
            Op::Accumulate(c, d) => {
                let _ = self.state.clock_mut(self.clock(c)).map(|mut h| {
                    h.accumulate_overstep(Nanos(d));
                });
            }
            Op::Discard(c, d) => {
                let _ = self
                    .state
                    .clock_mut(self.clock(c))
                    .map(|mut h| h.discard_overstep(Nanos(d)));
            }
            Op::ResetGrid(c) => {
                let _ = self.state.clock_mut(self.clock(c)).map(|mut h| {
                    h.reset_grid();
                });
            }
            Op::Refuse(n) => {
                for _ in 0..n % 4 {
                    let Some(t) = self.latest.pop() else { break };
                    if self.state.refuse(t.clock, t.index).is_err() {
                        break;
                    }
                    // The refused tick runs again, with the same number.
                    self.next_seen[usize::from(t.clock.0)] = t.index;
                    self.refused.push((t.clock, t.index));
                }
            }
            Op::RefuseOther(c, index) => {
                let tick = self.latest.first().copied().map(|mut t| {
                    t.clock = self.clock(c);
                    t.index = index;
                    t
                });
                if let Some(t) = tick {
                    let ok = self.state.refuse(t.clock, t.index).is_ok();
                    // Only the latest update of its clock in the latest step can be refused.
                    let last_of_clock = self
                        .latest
                        .iter()
                        .rev()
                        .find(|l| l.clock == t.clock)
                        .is_some_and(|l| l.index == t.index);
                    check!(
                        !ok || last_of_clock,
                        "refused a tick that was not the latest: {t:?}"
                    );
                    if ok {
                        self.next_seen[usize::from(t.clock.0)] = t.index;
                        self.refused.push((t.clock, t.index));
                        self.latest
                            .retain(|l| !(l.clock == t.clock && l.index == t.index));
                    }
                }
            }
            Op::StepTicks(n) => {
                self.state.virtual_time_mut().step_ticks(u64::from(n % 64));
            }
            Op::SetPaused(p) => {
                self.state.virtual_time_mut().set_paused(p);
            }
            Op::SetScale(n, d) => {
                if let Ok(s) = TimeScale::ratio(n, d) {
                    self.state.virtual_time_mut().set_scale(s);
                }
            }
            Op::AddClock(spec, delay, at) => {
                if self.added >= NAMES.len() {
                    return;
                }
                let Ok((mut c, _)) = spec.build(NAMES[self.added]) else {
                    return;
                };
                if delay {
                    c = c.policy(Policy::Delay).phase(0.0).hysteresis(0.0);
                }
                if self.state.add_clock(c, at.map(Nanos)).is_ok() {
                    self.added += 1;
                }
            }
            Op::RemoveClock(i) => {
                let _ = self.state.remove_clock(NAMES[usize::from(i) % NAMES.len()]);
            }
            Op::Input(d) => {
                let at = self.now.saturating_add_signed(i64::from(d));
                self.queue.push(Nanos(at), self.pushed);
                self.pushed += 1;
                self.given.push(None);
            }
        }
    }

    fn step(&mut self, now: u64) {
        let events: Events<Nanos> = self.state.advance(Nanos(now));
        self.queue.observe(&self.state);
        self.now = self.now.max(now);
        check_order(&events);
        if let Some(d) = events.deadline() {
            check!(d.0 >= now, "deadline {d:?} before the step's now {now}");
        }
        self.latest = events.updates().collect();
        for (i, t) in self.latest.iter().enumerate() {
            let seen = &mut self.next_seen[usize::from(t.clock.0)];
            check!(
                t.index >= *seen,
                "tick {t:?} after tick {} of its clock",
                *seen
            );
            *seen = t.index.saturating_add(1);
            let last = !self.latest[i + 1..].iter().any(|l| l.clock == t.clock);
            check!(t.last_in_step == last, "last_in_step wrong on {t:?}");
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
                let end = first.saturating_add(count);
                let covered = self
                    .latest
                    .iter()
                    .any(|t| t.clock == clock && (first..end).contains(&t.index));
                check!(!covered, "{e:?} covers a tick that ran in the same step");
            }
        }
        let ticks = self.latest.clone();
        // A refusal gives its tick's inputs back once: to the tick's re-run (or, dropped by a
        // control meanwhile, to the next tick that runs), both in the next step that runs one.
        let last_run = ticks
            .iter()
            .filter(|t| t.clock == self.queue.clock())
            .map(|t| t.index)
            .max();
        for t in &ticks {
            let clock = self.queue.clock();
            for i in self.queue.drain(t, &self.state) {
                check!(
                    t.clock == clock,
                    "input {i} given to a tick of another clock"
                );
                let given = &mut self.given[i as usize];
                // Again only after the tick it went to was refused.
                if let Some(before) = *given {
                    check!(self.refused.contains(&before), "input {i} given twice");
                }
                *given = Some((t.clock, t.index));
            }
        }
        if let Some(last) = last_run {
            let clock = self.queue.clock();
            self.refused.retain(|&(c, k)| c != clock || k > last);
        }
    }

    fn check_identity(&self, op: &Op) {
        for id in 0..10u16 {
            if let Some(s) = self.state.clock(ClockId(id)).ok().map(|c| c.stats()) {
                check!(
                    s.ticks_run + s.ticks_dropped + s.pending == s.ticks_due + s.ticks_early,
                    "accounting identity broken after {op:?}: {s:?}"
                );
            }
        }
    }
}

/// The documented order of a step's events.
fn check_order(events: &Events<Nanos>) {
    let rank = |e: &Event<Nanos>, previous: u8| match e {
        Event::Update(_) => 1,
        // A refused slot run late: the slots that passed meanwhile, after its update.
        Event::DroppedTicks {
            reason: DropReason::SlotMissed,
            ..
        } if previous >= 1 => 2,
        // The overload bound's give-up, after the updates and before the clock's `Deferred`
        // (the max frame delta's, before the updates, ranks 0).
        Event::DiscardedTime { .. } if previous >= 1 => 2,
        Event::Deferred { .. } | Event::EndOfTime { .. } => 2,
        Event::Render(_) => 3,
        _ => 0,
    };
    let mut previous = 0;
    for e in events {
        let r = rank(&e, previous);
        check!(r >= previous, "{e:?} out of order in {events:?}");
        previous = r;
    }
}
