//! Features composed under any slicing of time: one to four catch-up clocks, run-time controls
//! (rate, grid reset, overstep, phase, pause, time scale), timestamped input on every clock and
//! save/load, all on one timeline. The timeline is cut into steps two ways (only at the
//! controls' instants, and at many more instants besides, with a save and load at one of them):
//! every clock must run the same ticks with the same `t`, and every input must go to the same
//! tick, whatever the cuts. (Late firing, no update cap and no max frame delta: the settings
//! under which the fold promises that the slicing cannot matter.)

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{ClockConfig, InputQueue, LoopConfig, LoopState, Nanos, Period, TimeScale};

const RATES: [(u64, u64); 5] = [(60, 1), (60_000, 1_001), (144, 1), (7, 3), (30, 1)];

#[derive(Clone, Debug)]
enum Control {
    SetRate(usize, usize),
    Reset(usize),
    Accumulate(usize, u64),
    Discard(usize, u64),
    Phase(usize, u8),
    Pause(bool),
    Scale(u8),
}

#[derive(Clone, Debug)]
struct Timeline {
    clocks: Vec<usize>,
    /// (instant in ns, control), in time order.
    controls: Vec<(u64, Control)>,
    /// (stamp in ns, clock), pushed in time order.
    inputs: Vec<(u64, usize)>,
    /// Extra cuts (ns) and the index of the cut at which the state is saved and loaded.
    cuts: Vec<u64>,
    save_at: usize,
    end: u64,
}

impl Arbitrary for Timeline {
    fn arbitrary(g: &mut Gen) -> Timeline {
        let n = 1 + usize::arbitrary(g) % 4;
        let clocks = (0..n).map(|_| usize::arbitrary(g) % RATES.len()).collect();
        let end = 200_000_000 + u64::arbitrary(g) % 1_000_000_000;
        let at = |g: &mut Gen| u64::arbitrary(g) % end;
        let mut controls: Vec<(u64, Control)> = (0..usize::arbitrary(g) % 12)
            .map(|_| {
                let c = usize::arbitrary(g) % n;
                let control = match u8::arbitrary(g) % 7 {
                    0 => Control::SetRate(c, usize::arbitrary(g) % RATES.len()),
                    1 => Control::Reset(c),
                    2 => Control::Accumulate(c, u64::arbitrary(g) % 100_000_000),
                    3 => Control::Discard(c, u64::arbitrary(g) % 100_000_000),
                    4 => Control::Phase(c, u8::arbitrary(g) % 100),
                    5 => Control::Pause(bool::arbitrary(g)),
                    _ => Control::Scale(u8::arbitrary(g) % 4),
                };
                (at(g), control)
            })
            .collect();
        controls.sort_by_key(|(t, _)| *t);
        let mut inputs: Vec<(u64, usize)> = (0..usize::arbitrary(g) % 40)
            .map(|_| (at(g), usize::arbitrary(g) % n))
            .collect();
        inputs.sort_by_key(|(t, _)| *t);
        let mut cuts: Vec<u64> = (0..usize::arbitrary(g) % 60).map(|_| at(g)).collect();
        cuts.sort_unstable();
        let save_at = usize::arbitrary(g);
        Timeline {
            clocks,
            controls,
            inputs,
            cuts,
            save_at,
            end,
        }
    }
}

fn name(c: usize) -> &'static str {
    ["c0", "c1", "c2", "c3"][c]
}

fn rate(i: usize) -> Period {
    Period::from_hz_ratio(RATES[i].0, RATES[i].1).unwrap()
}

/// (clock, tick, t, inputs) of every update, in the order the fold reported them per clock.
type Record = Vec<(usize, u64, u64, Vec<u32>)>;

fn run(tl: &Timeline, extra: bool) -> Record {
    let mut config =
        LoopConfig::from_clock(ClockConfig::new("main", rate(tl.clocks[0])).max_updates(None))
            .max_frame_delta(None);
    // The main clock is called "main"; the others are added under their own names.
    for (c, &r) in tl.clocks.iter().enumerate().skip(1) {
        config = config.clock(ClockConfig::new(name(c), rate(r)).max_updates(None));
    }
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let ids: Vec<_> = (0..tl.clocks.len())
        .map(|c| {
            let n = if c == 0 { "main" } else { name(c) };
            state.clock(n).unwrap().id()
        })
        .collect();
    let mut queues: Vec<InputQueue<u32>> = ids
        .iter()
        .map(|&id| InputQueue::for_clock(&state, id, 0))
        .collect();
    let mut cuts: Vec<u64> = tl.controls.iter().map(|(t, _)| *t).collect();
    if extra {
        cuts.extend(&tl.cuts);
    }
    cuts.push(tl.end);
    cuts.sort_unstable();
    cuts.dedup();
    let save_at = extra.then(|| tl.save_at % cuts.len());
    let mut record: Record = Vec::new();
    let (mut next_input, mut next_control) = (0, 0);
    for (k, &cut) in cuts.iter().enumerate() {
        while let Some(&(at, c)) = tl.inputs.get(next_input).filter(|(at, _)| *at <= cut) {
            queues[c].push(Nanos(at), next_input as u32);
            next_input += 1;
        }
        let events = state.advance(Nanos(cut));
        for queue in &mut queues {
            queue.observe(&state);
        }
        for tick in events.updates() {
            let c = ids.iter().position(|&id| id == tick.clock).unwrap();
            let inputs = queues[c].drain(&tick, &state).collect();
            record.push((c, tick.index, tick.t.0, inputs));
        }
        while let Some((_, control)) = tl.controls.get(next_control).filter(|(t, _)| *t == cut) {
            apply(&mut state, &ids, control);
            next_control += 1;
        }
        if save_at == Some(k) {
            state = save_and_load(state);
        }
    }
    // Per clock, in tick order (the merge across clocks is checked by the fold's own tests).
    record.sort_by_key(|(c, k, _, _)| (*c, *k));
    record
}

fn apply(state: &mut LoopState, ids: &[tickfold_core::ClockId], control: &Control) {
    match *control {
        Control::SetRate(c, r) => {
            state.clock_mut(ids[c]).unwrap().set_rate(rate(r));
        }
        Control::Reset(c) => {
            state.clock_mut(ids[c]).unwrap().reset_grid();
        }
        Control::Accumulate(c, d) => {
            state
                .clock_mut(ids[c])
                .unwrap()
                .accumulate_overstep(Nanos(d));
        }
        Control::Discard(c, d) => {
            let _ = state.clock_mut(ids[c]).unwrap().discard_overstep(Nanos(d));
        }
        Control::Phase(c, p) => {
            let _ = state
                .clock_mut(ids[c])
                .unwrap()
                .set_phase(f64::from(p) / 100.0);
        }
        Control::Pause(p) => {
            state.virtual_time_mut().set_paused(p);
        }
        Control::Scale(s) => {
            state
                .virtual_time_mut()
                .set_scale(TimeScale::ratio(u32::from(s), 2).unwrap());
        }
    }
}

#[cfg(feature = "serde")]
fn save_and_load(state: LoopState) -> LoopState {
    let saved = serde_json::to_string(&state).unwrap();
    let loaded: LoopState = serde_json::from_str(&saved).unwrap();
    assert_eq!(loaded, state);
    loaded
}

#[cfg(not(feature = "serde"))]
fn save_and_load(state: LoopState) -> LoopState {
    state
}

#[test]
fn any_slicing_gives_the_same_ticks_and_inputs() {
    fn prop(tl: Timeline) -> bool {
        let coarse = run(&tl, false);
        let fine = run(&tl, true);
        if coarse != fine {
            let first = coarse.iter().zip(&fine).position(|(a, b)| a != b);
            eprintln!(
                "differ at {first:?}: {:?} vs {:?}",
                first.and_then(|i| coarse.get(i)),
                first.and_then(|i| fine.get(i))
            );
        }
        coarse == fine
    }
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(prop as fn(Timeline) -> bool);
}
