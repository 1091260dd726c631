//! The determinism kit's schedules on a rollback game (features `ggrs-test-support` and
//! `quickcheck`): the example game, run tick by tick through a ggrs sync test (every frame
//! rolled back 7 frames and re-simulated) on the adapter's one path, `Rollback::update` lent
//! the loop that stepped, ends in the same state however the frames of the fold fall.
//!
//! The kit's `Sim` hands its update the state and the tick but not the loop, which
//! `Rollback::update` needs to give refused ticks back; so this test steps a loop itself over
//! each of the kit's `Schedule`s and compares the end with the kit's reference schedule of one
//! frame per tick (`Schedule::one_per_tick`), every run brought to the same end time.
#![cfg(feature = "quickcheck")]

use tickfold::ggrs_adapter::Refusal;
use tickfold::ggrs_adapter::test_support::game;
use tickfold::ggrs_adapter::test_support::sync_test::SyncTest;
use tickfold::testing::Schedule;
use tickfold::{LoopConfig, LoopState, Nanos, Period};

type Error = Box<dyn std::error::Error>;

/// What a run ends with: the frames simulated and the game's checksum.
#[derive(Debug, PartialEq, Eq)]
struct End {
    frames: u64,
    checksum: u64,
}

/// Steps a 60 Hz loop at each `now` of `schedule`, then at `end`, each frame-clock tick one
/// frame of a fresh sync test session (check distance 7) through the adapter.
fn run(schedule: &Schedule, end: Nanos) -> Result<End, Error> {
    // No per-step cap worth the name and no frame clamp: every schedule runs every tick
    // due by `end` by its last step (the 1.7 s stall below is 102 ticks in one step).
    let config = LoopConfig::new(Period::from_hz(60)?)
        .max_frame_delta(None)
        .max_updates(None);
    let mut state = LoopState::new(config, Nanos(0))?;
    let mut test = SyncTest::new(7, Refusal::Drop)?;
    for now in schedule.nows().chain([end]) {
        let events = state.advance(now);
        for tick in events.updates() {
            let adv = test.update(&mut state, &tick, game::step)?;
            if adv.advanced != 1 {
                return Err(format!("the sync test refused tick {}: {adv:?}", tick.index).into());
            }
        }
    }
    Ok(End {
        frames: test.rollback.stats().frames,
        checksum: test.game.checksum(),
    })
}

#[test]
fn a_rollback_game_is_the_same_across_frame_schedules() -> Result<(), Error> {
    let schedules = [
        Schedule::vsync(144u64, 288)?,
        Schedule::vsync((60_000u64, 1_001u64), 120)?,
        Schedule::from_millis(&[16.7, 0.0, -3.0, 250.0, 1700.0])?,
    ];
    let end = schedules
        .iter()
        .map(Schedule::end)
        .max()
        .unwrap_or(Nanos(0));
    let rate = Period::from_hz(60)?;
    let reference = Schedule::one_per_tick(rate, end).ok_or("no tick by the end")?;
    let expected = run(&reference, end)?;
    // Every tick whole by the end ran as a frame (2.002 s of 59.94 Hz hold 120 ticks of 60 Hz).
    assert_eq!(expected.frames, rate.ticks_in(end.0), "{expected:?}");
    for (i, schedule) in schedules.iter().enumerate() {
        assert_eq!(run(schedule, end)?, expected, "schedule {i}: {schedule:?}");
    }
    Ok(())
}
