//! Dropped time is counted where the step reports it: each clock's `time_discarded` is the sum
//! of the `time` of its `DiscardedTime` events, the loop's total the sum of each step's largest,
//! and both survive a save and a load (feature `serde`).

use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period, Policy};
use tickfold_testing::SplitMix64;

const MS: u64 = 1_000_000;

fn config() -> LoopConfig {
    with_clocks(LoopConfig::new(Period::from_hz(60).unwrap()))
}

/// The other three clocks after `main` (set `main` up on its `ClockConfig`: `LoopConfig`'s
/// per-clock setters are refused in a loop of several clocks).
fn with_clocks(main: LoopConfig) -> LoopConfig {
    main.clock(ClockConfig::new("ai", Period::from_hz(7).unwrap()).phase(0.25))
        .clock(ClockConfig::new("net", Period::from_hz(20).unwrap()).policy(Policy::DropAndRest))
        .clock(ClockConfig::new("late", Period::from_hz(2).unwrap()))
}

/// Frames of 16 ms with stalls of 300 ms to 2.1 s between them (`SplitMix64` picks them).
fn frames() -> Vec<u64> {
    let mut rng = SplitMix64::new(0x2545_f491);
    let mut now = 0;
    (0..400)
        .map(|_| {
            now += if rng.below(9) == 0 {
                300 * MS + rng.below(1_800 * MS)
            } else {
                16 * MS
            };
            now
        })
        .collect()
}

/// Steps through `frames`, returning per clock the sum of its `DiscardedTime` times and the
/// sum over steps of the largest one.
fn run(state: &mut LoopState, frames: &[u64], sums: &mut [u64; 4], most: &mut u64) {
    for &now in frames {
        let events = state.advance(Nanos(now));
        let mut step_most = 0;
        for e in events.iter() {
            if let Event::DiscardedTime { clock, time, .. } = e {
                sums[usize::from(clock.0)] += time.0;
                step_most = step_most.max(time.0);
            }
        }
        *most += step_most;
    }
}

#[test]
fn dropped_time_is_the_sum_of_the_reported_time() {
    let mut state = LoopState::new(config(), Nanos(0)).unwrap();
    let (mut sums, mut most) = ([0; 4], 0);
    run(&mut state, &frames(), &mut sums, &mut most);
    let per_clock: Vec<u64> = state
        .clock_names()
        .map(|name| state.clock(name).unwrap().stats().time_discarded.0)
        .collect();
    assert_eq!(per_clock, sums);
    assert_eq!(state.virtual_time().time_discarded(), Nanos(most));
    // The stalls did discard time for every clock, and the loop's total is the largest per
    // step, not the sum over clocks. (A clock's own total can exceed the loop's: a step can
    // report two of its drops, the long frame's before the updates and the overload bound's
    // after them, and the loop counts only the step's largest.)
    assert!(sums.iter().all(|&t| t > 0), "{sums:?}");
    assert!(most >= *sums.iter().min().unwrap() && most < sums.iter().sum::<u64>());
}

#[test]
fn without_a_max_frame_delta_nothing_is_discarded() {
    let main = ClockConfig::new("main", Period::from_hz(60).unwrap()).max_updates(None);
    let config = with_clocks(LoopConfig::from_clock(main)).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let (mut sums, mut most) = ([0; 4], 0);
    run(&mut state, &frames(), &mut sums, &mut most);
    assert_eq!((sums, most), ([0; 4], 0));
    assert_eq!(state.virtual_time().time_discarded(), Nanos(0));
    assert_eq!(
        state.clock("main").unwrap().stats().time_discarded,
        Nanos(0)
    );
}

#[cfg(feature = "serde")]
#[test]
fn dropped_time_survives_a_save_and_a_load() {
    let frames = frames();
    let (first, rest) = frames.split_at(200);
    let mut whole = LoopState::new(config(), Nanos(0)).unwrap();
    let (mut sums, mut most) = ([0; 4], 0);
    run(&mut whole, &frames, &mut sums, &mut most);

    let mut state = LoopState::new(config(), Nanos(0)).unwrap();
    let (mut part_sums, mut part_most) = ([0; 4], 0);
    run(&mut state, first, &mut part_sums, &mut part_most);
    assert!(part_most > 0, "the first half discards time");
    let saved = serde_json::to_string(&state).unwrap();
    let mut loaded: LoopState = serde_json::from_str(&saved).unwrap();
    assert_eq!(loaded, state);
    assert_eq!(loaded.virtual_time().time_discarded(), Nanos(part_most));
    run(&mut loaded, rest, &mut part_sums, &mut part_most);
    assert_eq!(loaded, whole);
    assert_eq!(loaded.virtual_time().time_discarded(), Nanos(most));
    for name in ["main", "ai", "net", "late"] {
        assert_eq!(
            loaded.clock(name).unwrap().stats().time_discarded,
            whole.clock(name).unwrap().stats().time_discarded
        );
    }
}
