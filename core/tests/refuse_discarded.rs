//! A refusal that undoes the overload bound's give-up (see `LoopState::refuse`) takes back from
//! the loop's `VirtualTimeHandle::time_discarded` exactly what the step counted for it, and no
//! more: the loop's total is, per step, the largest `DiscardedTime` of the step still in
//! effect (issue 43, §4, found by fuzzing).

use core::time::Duration;

use quickcheck::QuickCheck;
use tickfold_core::{ClockConfig, ClockId, Event, LoopConfig, LoopState, Nanos, Period};
use tickfold_testing::SplitMix64;

const MS: u64 = 1_000_000;

fn total(state: &LoopState) -> u64 {
    state.virtual_time().time_discarded().0
}

fn clock_time(state: &LoopState, clock: ClockId) -> u64 {
    state.clock(clock).unwrap().stats().time_discarded.0
}

/// One 1 kHz clock: the step to 20 s drops 9.75 s before its updates (the max frame delta)
/// and gives up 359 ms of backlog after them (the overload bound). The loop counts the step's
/// largest, 9.75 s; refusing the step's last update undoes the 359 ms give-up, which the loop
/// never counted, so its total must not move (it read 359 ms less).
#[test]
fn refusing_a_give_up_smaller_than_the_step_drop_keeps_the_loop_total() {
    let mut state =
        LoopState::new(LoopConfig::new(Period::from_hz(1_000).unwrap()), Nanos(0)).unwrap();
    let _ = state.advance(Nanos(0));
    let _ = state.advance(Nanos(10_000 * MS));
    let before_step = total(&state);
    let events = state.advance(Nanos(20_000 * MS));
    let times: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            Event::DiscardedTime { time, .. } => Some(time.0),
            _ => None,
        })
        .collect();
    assert_eq!(times.len(), 2, "{times:?}");
    assert_eq!(times[0], 9_750 * MS);
    assert!(times[1] > 0 && times[1] < times[0], "{times:?}");
    assert_eq!(total(&state) - before_step, 9_750 * MS);
    let counted = total(&state);
    let main = state.clock("main").unwrap().id();
    let own = clock_time(&state, main);
    let last = events.updates().last().unwrap();
    state.refuse(last.clock, last.index).unwrap();
    // The clock's own count takes its give-up back; the loop's keeps the step's 9.75 s.
    assert_eq!(clock_time(&state, main), own - times[1]);
    assert_eq!(
        total(&state),
        counted,
        "the loop's total lost {} ns the step never counted",
        counted.saturating_sub(total(&state))
    );
}

/// Two clocks at 60 Hz, capped at 2 updates a step, under 100 ms frames: the backlog grows
/// until the overload bound gives up the same span for both in one step (no drop before the
/// updates). The loop counts that span once. Refusing the first clock's update leaves the
/// second's give-up in effect (the total stays); refusing the second's too brings the total
/// back to what it was before the step, not below.
#[test]
fn refusing_both_equal_give_ups_brings_the_total_back_to_before_the_step() {
    let rate = Period::from_hz(60).unwrap();
    let config = LoopConfig::from_clock(ClockConfig::new("a", rate).max_updates(Some(2)))
        .clock(ClockConfig::new("b", rate).max_updates(Some(2)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let (a, b) = (
        state.clock("a").unwrap().id(),
        state.clock("b").unwrap().id(),
    );
    let mut now = 0;
    let mut shed_steps = 0;
    for _ in 0..200 {
        now += 100 * MS;
        let before_step = total(&state);
        let events = state.advance(Nanos(now));
        let times: Vec<(ClockId, u64)> = events
            .iter()
            .filter_map(|e| match e {
                Event::DiscardedTime { clock, time, .. } => Some((clock, time.0)),
                _ => None,
            })
            .collect();
        if times.len() != 2 {
            continue;
        }
        shed_steps += 1;
        assert_eq!(times[0].1, times[1].1, "{times:?}");
        let given = times[0].1;
        assert_eq!(total(&state), before_step + given);
        let last_of = |clock| {
            events
                .updates()
                .filter(|t| t.clock == clock)
                .last()
                .unwrap()
                .index
        };
        let (last_a, last_b) = (last_of(a), last_of(b));
        // Refuse b's first (the later clock), then a's.
        state.refuse(b, last_b).unwrap();
        assert_eq!(
            total(&state),
            before_step + given,
            "a's give-up is still in effect"
        );
        state.refuse(a, last_a).unwrap();
        assert_eq!(total(&state), before_step, "both give-ups undone");
    }
    assert!(shed_steps > 0, "the schedule must make the bound give up");
}

/// What the loop's total must read: per step, the largest `DiscardedTime` of the step still
/// in effect, a refusal taking back one clock's give-up after the updates.
#[derive(Default)]
struct Model {
    /// The totals of the steps before the latest.
    earlier: u64,
    /// The latest step's `DiscardedTime`s still in effect: (clock, time).
    latest: Vec<(ClockId, u64)>,
}

impl Model {
    fn total(&self) -> u64 {
        self.earlier + self.latest.iter().map(|e| e.1).max().unwrap_or(0)
    }
}

/// Random loops of 1 to 4 catch-up clocks with small caps and a short max frame delta, random
/// frames, and after some steps refusals of the latest updates of random clocks: after every
/// step and every refusal, the loop's total is the model's.
fn refusals_undo_what_was_counted(seed: u64) -> bool {
    let mut rng = SplitMix64::new(seed);
    let n = 1 + rng.below(4) as usize;
    let mut config: Option<LoopConfig> = None;
    for i in 0..n {
        let clock = ClockConfig::new(
            format!("c{i}"),
            Period::from_hz(20 + rng.below(1_000)).unwrap(),
        )
        .max_updates(Some(1 + rng.below(6) as u32));
        config = Some(match config {
            None => LoopConfig::from_clock(clock),
            Some(c) => c.clock(clock),
        });
    }
    let config = config
        .unwrap()
        .max_frame_delta(Some(Duration::from_millis(20 + rng.below(200))));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let ids: Vec<ClockId> = (0..n)
        .map(|i| state.clock(format!("c{i}").as_str()).unwrap().id())
        .collect();
    let mut model = Model::default();
    let mut now = 0;
    for _ in 0..300 {
        now += match rng.below(10) {
            0 => rng.below(2_000) * MS,
            _ => rng.below(100) * MS,
        };
        let events = state.advance(Nanos(now));
        model.earlier = model.total();
        model.latest = events
            .iter()
            .filter_map(|e| match e {
                Event::DiscardedTime { clock, time, .. } => Some((clock, time.0)),
                _ => None,
            })
            .collect();
        if model.total() != total(&state) {
            eprintln!(
                "seed {seed}: step to {now}: {} != {}",
                model.total(),
                total(&state)
            );
            return false;
        }
        if rng.below(2) == 0 {
            continue;
        }
        for &clock in &ids {
            let ticks: Vec<u64> = events
                .updates()
                .filter(|t| t.clock == clock)
                .map(|t| t.index)
                .collect();
            let back = rng.below(ticks.len() as u64 + 1) as usize;
            for &index in ticks.iter().rev().take(back) {
                let own = clock_time(&state, clock);
                state.refuse(clock, index).unwrap();
                let undone = own - clock_time(&state, clock);
                if undone > 0 {
                    let Some(at) = model
                        .latest
                        .iter()
                        .rposition(|&(c, t)| c == clock && t == undone)
                    else {
                        eprintln!("seed {seed}: {clock:?} undid {undone}, not a give-up");
                        return false;
                    };
                    model.latest.remove(at);
                }
                if model.total() != total(&state) {
                    eprintln!(
                        "seed {seed}: refusing {clock:?} {index} at {now}: {} != {}",
                        model.total(),
                        total(&state)
                    );
                    return false;
                }
            }
        }
    }
    true
}

#[test]
fn refusals_take_back_exactly_what_the_loop_counted() {
    QuickCheck::new()
        .tests(200)
        .quickcheck(refusals_undo_what_was_counted as fn(u64) -> bool);
}

/// A save made between the step and the refusal keeps what the step counted: the loaded state
/// takes back the same as the original.
#[cfg(feature = "serde")]
#[test]
fn a_save_between_the_step_and_the_refusal_takes_back_the_same() {
    let rate = Period::from_hz(60).unwrap();
    let config = LoopConfig::from_clock(ClockConfig::new("a", rate).max_updates(Some(2)))
        .clock(ClockConfig::new("b", rate).max_updates(Some(2)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut now = 0;
    loop {
        now += 100 * MS;
        let events = state.advance(Nanos(now));
        let last: Vec<(ClockId, u64)> = ["a", "b"]
            .iter()
            .filter_map(|name| {
                let id = state.clock(*name).unwrap().id();
                events
                    .updates()
                    .filter(|t| t.clock == id)
                    .last()
                    .map(|t| (id, t.index))
            })
            .collect();
        if events
            .iter()
            .any(|e| matches!(e, Event::DiscardedTime { .. }))
        {
            let mut loaded: LoopState =
                serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
            for (clock, index) in last {
                state.refuse(clock, index).unwrap();
                loaded.refuse(clock, index).unwrap();
                assert_eq!(total(&loaded), total(&state));
            }
            break;
        }
    }
}
