//! Input attribution against a naive model: random timelines (running at several time
//! scales, paused, single-stepped while paused), random inputs (some before the start, some
//! on segment boundaries), each timeline cut into frames two random ways. Every input goes to
//! exactly the tick the model computes from exact rational virtual time, none is lost or
//! doubled, and both slicings give the same tick → inputs map.

use std::collections::BTreeMap;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{Event, InputQueue, LoopConfig, LoopState, Nanos, Period, TimeScale};

const START: u64 = 1_000_000_000;
/// Time scales whose denominators divide 6: the model counts virtual time in sixths of a ns.
const SCALES: [(u32, u32); 5] = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 2)];
const RATES: [(u64, u64); 5] = [(60, 1), (240, 1), (60_000, 1_001), (7, 1), (100, 1)];

#[derive(Clone, Debug)]
enum Seg {
    Run { len: u64, scale: (u32, u32) },
    Pause { len: u64 },
    Step { n: u64, len: u64 },
}

impl Seg {
    fn len(&self) -> u64 {
        match *self {
            Seg::Run { len, .. } | Seg::Pause { len } | Seg::Step { len, .. } => len,
        }
    }
}

#[derive(Clone, Debug)]
struct Case {
    rate: (u64, u64),
    cap: Option<u32>,
    segs: Vec<Seg>,
    /// Input timestamps in ns relative to the start (negative: before it), in push order.
    inputs: Vec<i64>,
    /// Two frame patterns, used cyclically (ns; 0 repeats `now`, -1 steps the clock back
    /// 3 ms; the last entry is positive, so time moves on).
    frames_a: Vec<i64>,
    frames_b: Vec<i64>,
}

/// A frame pattern: lengths in ns, 0 (a repeated `now`) and -1 (the clock steps back). Frames
/// that advance are at least 50 µs long, so that no case runs millions of frames (quickcheck
/// often draws 0, which would otherwise make 1 ns frames over seconds of time).
fn frames(g: &mut Gen) -> Vec<i64> {
    let last = 50_000 + i64::arbitrary(g).rem_euclid(40_000_000);
    let n = 1 + usize::arbitrary(g) % 12;
    (0..n)
        .map(|_| match u8::arbitrary(g) % 10 {
            0 => 0,
            1 => -1,
            2 => 50_000 + i64::arbitrary(g).rem_euclid(200_000_000),
            _ => 50_000 + i64::arbitrary(g).rem_euclid(40_000_000),
        })
        .collect::<Vec<i64>>()
        .into_iter()
        .chain([last])
        .collect()
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let with_steps = bool::arbitrary(g);
        let nsegs = 1 + usize::arbitrary(g) % 6;
        let mut segs: Vec<Seg> = (0..nsegs)
            .map(|_| {
                let len = u64::arbitrary(g) % 400_000_000;
                match u8::arbitrary(g) % 4 {
                    0 => Seg::Pause { len },
                    1 if with_steps => Seg::Step {
                        n: 1 + u64::arbitrary(g) % 5,
                        len,
                    },
                    _ => Seg::Run {
                        len,
                        scale: *g.choose(&SCALES).unwrap(),
                    },
                }
            })
            .collect();
        // End running, so that both slicings end with the same ticks run.
        segs.push(Seg::Run {
            len: 1_000_000,
            scale: (1, 1),
        });
        let total: u64 = segs.iter().map(Seg::len).sum();
        let bounds: Vec<u64> = segs
            .iter()
            .scan(0, |t, s| {
                *t += s.len();
                Some(*t)
            })
            .collect();
        let inputs = (0..usize::arbitrary(g) % 40)
            .map(|_| match u8::arbitrary(g) % 8 {
                0 => -(i64::arbitrary(g).rem_euclid(START as i64)),
                1 => *g.choose(&bounds).unwrap() as i64,
                _ => (u64::arbitrary(g) % (total + 1)) as i64,
            })
            .collect();
        Case {
            rate: *g.choose(&RATES).unwrap(),
            // A single step's target depends on the backlog a cap leaves, which depends on the
            // frames: caps only without single steps.
            cap: (!with_steps && bool::arbitrary(g)).then(|| 1 + u32::arbitrary(g) % 3),
            segs,
            inputs,
            frames_a: frames(g),
            frames_b: frames(g),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let me = self.clone();
        Box::new(self.inputs.shrink().map(move |inputs| Case {
            inputs,
            ..me.clone()
        }))
    }
}

/// The model: each input's virtual time from exact rational arithmetic (sixths of a ns), and
/// its tick, the first whose due time `ceil((k+1)·dt)` is after it: `floor(v·den/num)`.
fn model(case: &Case) -> Vec<u64> {
    let (num, den) = period(case).as_nanos_ratio();
    let (num, den) = (u128::from(num), u128::from(den));
    let ticks_due = |v: u128| v * den / num;
    // Virtual time at each segment start (sixths), and the mapping within each segment.
    let mut v6: u128 = 0;
    let mut t = 0u64;
    let mut starts = Vec::new();
    for seg in &case.segs {
        starts.push((t, v6));
        t += seg.len();
        match *seg {
            Seg::Run { len, scale: (n, d) } => {
                v6 += u128::from(len) * 6 * u128::from(n) / u128::from(d);
            }
            Seg::Pause { .. } => {}
            Seg::Step { n, .. } => {
                let next = ticks_due(v6 / 6);
                let target = ((next + u128::from(n)) * num).div_ceil(den);
                if target > v6 / 6 {
                    v6 = target * 6 + v6 % 6;
                }
            }
        }
    }
    case.inputs
        .iter()
        .map(|&r| {
            let r = r.max(0) as u64;
            // The segment whose span (start, end] holds r (the first one for r = 0).
            let i = starts.iter().rposition(|&(s, _)| s < r).unwrap_or(0);
            let (s, v0) = starts[i];
            let v6 = match case.segs[i] {
                Seg::Run { scale: (n, d), .. } => {
                    v0 + u128::from(r - s) * 6 * u128::from(n) / u128::from(d)
                }
                _ => v0,
            };
            u64::try_from(ticks_due(v6 / 6)).unwrap()
        })
        .collect()
}

fn period(case: &Case) -> Period {
    Period::from_hz_ratio(case.rate.0, case.rate.1).unwrap()
}

/// Runs the timeline cut by `pattern`; returns each input's tick (`None`: still queued), the
/// ticks run and the inputs left in the queue.
fn run(case: &Case, pattern: &[i64]) -> (Vec<Option<u64>>, u64, usize) {
    let config = LoopConfig::new(period(case))
        .max_updates(case.cap)
        .max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(START)).unwrap();
    // Keys are input numbers: the test checks each comes out once.
    let mut queue: InputQueue<usize> = InputQueue::with_capacity(&state, 8);
    let mut got: Vec<Option<u64>> = vec![None; case.inputs.len()];
    let mut pushed = vec![false; case.inputs.len()];
    let mut at = 0u64;
    let mut p = 0usize;
    let mut step = |state: &mut LoopState, queue: &mut InputQueue<usize>, now: u64| -> bool {
        for (i, &r) in case.inputs.iter().enumerate() {
            if !pushed[i] && r <= now as i64 {
                pushed[i] = true;
                queue.push(Nanos((START as i64 + r) as u64), i);
            }
        }
        let events = state.advance(Nanos(START + now));
        queue.observe(state);
        let mut deferred = false;
        for event in &events {
            match event {
                Event::Update(tick) => {
                    for i in queue.drain(&tick, state) {
                        assert!(got[i].is_none(), "input {i} given twice");
                        got[i] = Some(tick.index);
                    }
                }
                Event::Deferred { .. } => deferred = true,
                _ => {}
            }
        }
        deferred
    };
    for seg in &case.segs {
        match *seg {
            Seg::Run { scale: (n, d), .. } => {
                state.virtual_time_mut().set_paused(false);
                state
                    .virtual_time_mut()
                    .set_scale(TimeScale::ratio(n, d).unwrap());
            }
            Seg::Pause { .. } => {
                state.virtual_time_mut().set_paused(true);
            }
            Seg::Step { n, .. } => {
                state.virtual_time_mut().step_ticks(n);
            }
        }
        let end = at + seg.len();
        if let Seg::Step { .. } = seg {
            // The jump comes at the end of the step's span: one frame, so that it falls at the
            // same instant in both slicings.
            step(&mut state, &mut queue, end);
        } else {
            let mut now = at;
            while now < end {
                let f = pattern[p % pattern.len()];
                p += 1;
                let frame_end = if f < 0 {
                    // The clock steps back, then on again.
                    step(&mut state, &mut queue, now.saturating_sub(3_000_000));
                    now
                } else {
                    (now + f as u64).min(end)
                };
                step(&mut state, &mut queue, frame_end);
                now = frame_end;
            }
            step(&mut state, &mut queue, end);
        }
        at = end;
    }
    // Work off a capped backlog at the final instant.
    while step(&mut state, &mut queue, at) {}
    (
        got,
        state.clock("main").unwrap().stats().next_tick,
        queue.len(),
    )
}

fn attribution(case: Case) -> bool {
    let want = model(&case);
    let (a, next_a, left_a) = run(&case, &case.frames_a);
    let (b, next_b, left_b) = run(&case, &case.frames_b);
    // The same ticks run, the same map, whatever the frames.
    assert_eq!((next_a, &a, left_a), (next_b, &b, left_b));
    // Exactly the model's tick for each input that ran; the others still queued.
    for (i, (&k, got)) in want.iter().zip(&a).enumerate() {
        let expect = (k < next_a).then_some(k);
        assert_eq!(*got, expect, "input {i} at {}", case.inputs[i]);
    }
    // Nothing lost: given out or queued.
    assert_eq!(a.iter().filter(|g| g.is_none()).count(), left_a);
    true
}

#[test]
fn every_input_goes_to_exactly_its_tick_under_any_slicing() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(attribution as fn(Case) -> bool);
}

#[test]
fn monotone_in_time() {
    // Inputs pushed out of order come out in timestamp order, later ones never to earlier
    // ticks.
    let config = LoopConfig::new(Period::from_hz(10).unwrap()).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut queue = InputQueue::new(&state);
    for ms in [250u64, 30, 120, 90, 199, 200] {
        queue.push(Nanos::from_millis(ms), ms);
    }
    let events = state.advance(Nanos::from_millis(300));
    let mut seen = BTreeMap::new();
    for tick in events.updates() {
        seen.insert(tick.index, queue.drain(&tick, &state).collect::<Vec<_>>());
    }
    let want = BTreeMap::from([(0, vec![30, 90]), (1, vec![120, 199]), (2, vec![200, 250])]);
    assert_eq!(seen, want);
    assert!(queue.is_empty());
}

#[test]
fn future_inputs_wait_and_late_ones_go_to_the_next_tick() {
    let config = LoopConfig::new(Period::from_hz(10).unwrap());
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut queue = InputQueue::new(&state);
    queue.push(Nanos::from_millis(450), "future");
    let events = state.advance(Nanos::from_millis(250));
    for tick in events.updates() {
        assert_eq!(queue.drain(&tick, &state).count(), 0);
    }
    assert_eq!(queue.len(), 1);
    // Stamped at 50 ms but pushed after the step that covered it: not given to tick 0 or 1,
    // which already ran, but to the first tick due after the next step's start (tick 2).
    queue.push(Nanos::from_millis(50), "late");
    let events = state.advance(Nanos::from_millis(500));
    let got: Vec<(u64, Vec<&str>)> = events
        .updates()
        .map(|t| (t.index, queue.drain(&t, &state).collect()))
        .collect();
    assert_eq!(got, [(2, vec!["late"]), (3, vec![]), (4, vec!["future"])]);
}

/// The one rule for late input (`InputQueue`'s docs, **Late**): 10 Hz, a step at 250 ms
/// runs ticks 0 and 1; tick 0 is drained, then an input stamped 50 ms is pushed: it goes by
/// its stamp to the first tick not yet drained, tick 1 (not to tick 2, the first tick due
/// after the next step's start). Pushed after tick 1 was drained too, it goes to tick 2.
#[test]
fn late_input_goes_by_its_stamp_to_the_first_tick_not_yet_drained() {
    for drained_both in [false, true] {
        let mut state =
            LoopState::new(LoopConfig::new(Period::from_hz(10).unwrap()), Nanos(0)).unwrap();
        let mut queue: InputQueue<char> = InputQueue::new(&state);
        let events = state.advance(Nanos::from_millis(250));
        let ticks: Vec<_> = events.updates().collect();
        assert_eq!(ticks.len(), 2);
        assert_eq!(queue.drain(&ticks[0], &state).count(), 0);
        if drained_both {
            assert_eq!(queue.drain(&ticks[1], &state).count(), 0);
        }
        queue.push(Nanos::from_millis(50), 'x');
        let mut got = Vec::new();
        if !drained_both {
            got.extend(queue.drain(&ticks[1], &state).map(|c| (1, c)));
        }
        let events = state.advance(Nanos::from_millis(300));
        for tick in events.updates() {
            got.extend(queue.drain(&tick, &state).map(|c| (tick.index, c)));
        }
        let want = if drained_both { 2 } else { 1 };
        assert_eq!(got, [(want, 'x')], "drained both first: {drained_both}");
    }
}
