//! Replay files (feature `serde`): a recording written to JSON and read back replays to the
//! recorder's hash, step for step, and with keyframes plays back as recorded; a truncated,
//! edited or foreign file is refused with a typed error.
#![cfg(feature = "serde")]

use std::num::NonZeroU64;

use tickfold_core::{LoopConfig, Nanos, Period, Tick, TimeScale};
use tickfold_testing::{
    Player, Recorder, Recording, ReplayError, Rewind, SavedRecording, Schedule, SeekError, Sim,
    Trace,
};

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

#[test]
fn an_edited_replay_file_is_refused_on_load() {
    // One recorded `now` changed by a nanosecond: the file still parses, but it is not the
    // run that was recorded, so loading must refuse it rather than replay a different world.
    let (rec, _) = recording();
    let mut file: serde_json::Value = serde_json::to_value(&rec).unwrap();
    let now = file["steps"][100]["now"].as_u64().unwrap();
    file["steps"][100]["now"] = (now + 1).into();
    let loaded = serde_json::from_value::<Recording<i64, i64>>(file);
    assert!(loaded.is_err(), "an edited replay file loaded");
}

/// A world for the keyframed replay files: its save is plain serde data.
#[derive(Debug, PartialEq)]
struct Cells(Vec<i64>);

impl Rewind for Cells {
    type Save = Vec<i64>;
    type Error = std::convert::Infallible;
    fn save(&self) -> Vec<i64> {
        self.0.clone()
    }
    fn load(save: &Vec<i64>) -> Result<Cells, Self::Error> {
        Ok(Cells(save.clone()))
    }
}

fn mix(c: &mut Cells, tick: &Tick, push: &i64) {
    let i = tick.index as usize % c.0.len();
    c.0[i] = c.0[i]
        .wrapping_mul(31)
        .wrapping_add(*push + tick.lag.as_nanos() as i64);
}

fn keyframed() -> Recording<Cells, i64, Vec<i64>> {
    let mut rec = Recorder::new(
        LoopConfig::new(Period::from_hz(60).unwrap()),
        Nanos(0),
        Cells(vec![0; 5]),
    )
    .unwrap()
    .with_saves(NonZeroU64::new(30).unwrap());
    for frame in 1..400u64 {
        rec.step(Nanos(frame * 16_777_216), (frame % 3) as i64, mix);
    }
    rec.finish()
}

#[test]
fn a_keyframed_replay_file_plays_back_as_recorded() {
    let rec = keyframed();
    let loaded: Recording<Cells, i64, Vec<i64>> =
        serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    assert_eq!(loaded.keyframes(), rec.keyframes());
    let (mut from_file, mut original) = (Player::new(loaded).unwrap(), Player::new(rec).unwrap());
    for tick in [200, 3, 391, 150] {
        assert_eq!(
            from_file.seek(tick, mix).unwrap(),
            original.seek(tick, mix).unwrap()
        );
        assert_eq!(from_file.world(), original.world());
    }
}

#[test]
fn a_truncated_replay_file_does_not_parse() {
    let file = serde_json::to_string(&keyframed()).unwrap();
    let cut = &file[..file.len() * 2 / 3];
    let err = serde_json::from_str::<Recording<Cells, i64, Vec<i64>>>(cut).unwrap_err();
    assert!(err.is_eof(), "{err}");
    let err = serde_json::from_str::<SavedRecording<i64, Vec<i64>>>(cut).unwrap_err();
    assert!(err.is_eof(), "{err}");
}

/// Loads `file` through the typed route.
fn checked(file: serde_json::Value) -> Result<Recording<Cells, i64, Vec<i64>>, ReplayError> {
    let saved: SavedRecording<i64, Vec<i64>> = serde_json::from_value(file).unwrap();
    Recording::try_from(saved)
}

#[test]
fn an_edited_replay_file_is_a_typed_error() {
    let file = serde_json::to_value(keyframed()).unwrap();
    // An input, a keyframe's world, a step hash, a keyframe's step: each changed alone.
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 4] = [
        ("input", |f| f["steps"][10]["inputs"] = 7.into()),
        ("world", |f| f["keyframes"][2]["world"][1] = 12345.into()),
        ("hash", |f| f["step_hashes"][5] = 1.into()),
        ("keyframe step", |f| f["keyframes"][3]["step"] = 2.into()),
    ];
    for (what, edit) in edits {
        let mut edited = file.clone();
        edit(&mut edited);
        let err = checked(edited.clone()).unwrap_err();
        assert!(matches!(err, ReplayError::Digest { .. }), "{what}: {err}");
        let direct = serde_json::from_value::<Recording<Cells, i64, Vec<i64>>>(edited);
        assert_eq!(direct.unwrap_err().to_string(), err.to_string(), "{what}");
    }
    // A keyframe's loop state that no run of the fold could have made is refused as a save is.
    let mut edited = file.clone();
    edited["keyframes"][1]["state"]["clocks"][0]["ran"] = 1_000_000.into();
    let err = checked(edited).unwrap_err();
    assert!(
        matches!(err, ReplayError::Keyframe { index: 1, .. }),
        "{err}"
    );
}

#[test]
fn a_foreign_file_is_a_typed_error() {
    // A save game is not a replay.
    let state =
        tickfold_core::LoopState::new(LoopConfig::new(Period::from_hz(60).unwrap()), Nanos(0))
            .unwrap();
    let save = serde_json::to_string(&state).unwrap();
    assert!(serde_json::from_str::<Recording<Cells, i64, Vec<i64>>>(&save).is_err());
    // A file of the same shape from another tool, or a later version of this format.
    let file = serde_json::to_value(keyframed()).unwrap();
    let mut other = file.clone();
    other["format"] = "another replay".into();
    assert_eq!(
        checked(other).unwrap_err(),
        ReplayError::Foreign("another replay".into())
    );
    let mut later = file;
    later["version"] = 2.into();
    assert_eq!(
        checked(later).unwrap_err(),
        ReplayError::UnsupportedVersion(2)
    );
}

#[test]
fn a_replay_file_without_keyframes_is_refused_by_the_player() {
    // Recorded without saves, loaded as a game that has them: the file is sound, but there
    // is nothing to seek from.
    let (plain, _) = recording();
    let file = serde_json::to_string(&plain).unwrap();
    let loaded: Recording<Cells, i64, Vec<i64>> = serde_json::from_str(&file).unwrap();
    assert!(loaded.keyframes().is_empty());
    assert!(matches!(
        Player::new(loaded),
        Err(SeekError::Recording(ReplayError::NoKeyframes))
    ));
}
