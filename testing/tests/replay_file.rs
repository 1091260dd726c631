//! Replay files (feature `serde`): a recording written to JSON and read back replays to the
//! recorder's hash, step for step.
#![cfg(feature = "serde")]

use tickfold_core::{LoopConfig, Nanos, Period, Tick, TimeScale};
use tickfold_testing::{Recorder, Recording, Schedule, Sim, Trace};

fn update(x: &mut i64, tick: &Tick, push: &i64) {
    *x = x.wrapping_mul(31).wrapping_add(*push + tick.index as i64);
}

fn recording() -> (Recording<i64, i64>, i64) {
    let config = LoopConfig::new(Period::from_hz(60).unwrap())
        .time_scale(TimeScale::ratio(2, 3).unwrap())
        .max_frame_delta(None);
    let mut rec = Recorder::new(config, Nanos(1_000), 0i64)
        .unwrap()
        .with_checksum(|x| *x as u64);
    for frame in 1..200u64 {
        let push = (frame * 7 % 5) as i64 - 2;
        rec.step(Nanos(1_000 + frame * 16_777_216), push, update);
    }
    let state = *rec.state();
    (rec.finish(), state)
}

#[test]
fn a_replay_file_replays_to_the_recorded_hash() {
    let (rec, state) = recording();
    let file = serde_json::to_string(&rec).unwrap();
    let loaded: Recording<i64, i64> = serde_json::from_str(&file).unwrap();
    assert_eq!(loaded.hash(), rec.hash());
    assert_eq!(loaded.steps(), rec.steps());
    let replayed = loaded
        .with_checksum(|x| *x as u64)
        .replay(0, update)
        .unwrap();
    assert_eq!(replayed.hash, rec.hash());
    assert_eq!(replayed.first_difference, None);
    assert_eq!(replayed.state, state);
}

#[test]
fn a_replay_file_without_its_checksum_is_told_apart() {
    // The checksum is a function and is not in the file: replaying without it hashes less,
    // and the replay says where it first differs instead of passing silently.
    let (rec, _) = recording();
    let loaded: Recording<i64, i64> =
        serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    let replayed = loaded.replay(0, update).unwrap();
    assert_eq!(replayed.first_difference, Some(0));
}

#[test]
fn a_trace_round_trips() {
    fn tick(x: &mut u64, t: &Tick) {
        *x += t.index;
    }
    let sim = Sim::new(LoopConfig::new(Period::from_hz(50).unwrap()), 0u64, tick).unwrap();
    let run = sim.fold(&Schedule::vsync(144u64, 100).unwrap());
    let back: Trace = serde_json::from_str(&serde_json::to_string(&run.trace).unwrap()).unwrap();
    assert_eq!(back, run.trace);
}
