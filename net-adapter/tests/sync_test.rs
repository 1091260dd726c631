//! ggrs's `SyncTestSession` on the example game: every frame it rolls back `check distance`
//! frames, re-simulates them and compares the checksums the ring gives.

use std::cell::Cell;

use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
use tickfold_ggrs::ggrs::{Frame, InputStatus, SessionBuilder};
use tickfold_ggrs::test_support::game::{self, Config, Game};
use tickfold_ggrs::test_support::sync_test::SyncTest;
use tickfold_ggrs::{NetError, Refusal, Rollback};

const FRAMES: u64 = 10_000;

/// Runs the fold at 60 Hz with one-tick frames for `frames` ticks through a sync test with
/// check distance 7, each tick one frame of `sim`.
fn run(
    frames: u64,
    mut sim: impl FnMut(&mut Game, &[(u8, InputStatus)], Frame),
) -> Result<(Rollback<Config, Game>, Game), NetError> {
    let mut test = SyncTest::new(7, Refusal::Drop).expect("session and ring");
    assert_eq!(test.rollback.slots(), 9);
    let config = LoopConfig::new(Period::from_hz(60).expect("rate")).phase(0.5);
    let mut state = LoopState::new(config, Nanos(0)).expect("config");
    for f in 1..=frames {
        let events = state.advance(Nanos(f * 1_000_000_000 / 60));
        for tick in events.updates() {
            let adv = test.update(&mut state, &tick, &mut sim)?;
            assert_eq!(adv.advanced, 1, "a sync test never refuses");
        }
    }
    Ok((test.rollback, test.game))
}

#[test]
fn ten_thousand_frames_check_distance_7_no_mismatch() {
    let (rollback, world) = run(FRAMES, game::step).expect("no mismatch");
    let stats = rollback.stats();
    assert_eq!(stats.ticks, FRAMES);
    assert_eq!(stats.frames, FRAMES);
    // From frame 8 on, every frame rolls back 7 frames.
    assert_eq!(stats.resimulated, (FRAMES - 8) * 7);
    assert_eq!(stats.max_depth, 7);
    // The game did something worth checking: ships moved, bullets flew and hit.
    let hits: u32 = world.ships.current().iter().map(|s| s.hits).sum();
    assert!(hits > 0, "no hits in {FRAMES} frames");
    // One save per frame, plus 6 re-saves per rollback (the loaded frame is not re-saved).
    assert_eq!(stats.saves, FRAMES + (FRAMES - 8) * 6);
}

#[test]
fn a_simulation_reading_outside_its_state_is_caught_with_its_frame() {
    // A counter outside the saved state: re-simulating a frame gives another result.
    let outside = Cell::new(0_i32);
    let result = run(200, |world, inputs, frame| {
        game::step(world, inputs, frame);
        outside.set(outside.get() + 1);
        if let Some(ship) = world.ships.get_mut(0) {
            ship.x += outside.get() % 3;
        }
    });
    match result {
        Err(NetError::Mismatch {
            current_frame,
            first_frame,
            frames,
        }) => {
            assert!(frames > 0);
            assert!(first_frame <= current_frame);
            // The first check happens once the session is past the check distance.
            assert!(
                (8..=12).contains(&current_frame),
                "found at {current_frame}"
            );
        }
        other => panic!(
            "expected a mismatch, got {:?}",
            other.map(|(r, _)| r.stats())
        ),
    }
}

#[test]
fn a_ring_shorter_than_the_check_distance_is_a_typed_error() {
    let mut session = SessionBuilder::<Config>::new()
        .with_num_players(2)
        .expect("players")
        .with_check_distance(7)
        .start_synctest_session()
        .expect("session");
    let mut world = Game::new();
    // A ring of 5 frames for a session that rolls back 7.
    let mut rollback = Rollback::<Config, Game>::new(&world, 4, Refusal::Drop).expect("ring");
    let config = LoopConfig::new(Period::from_hz(60).expect("rate")).phase(0.5);
    let mut state = LoopState::new(config, Nanos(0)).expect("config");
    let mut error = None;
    for f in 1..=20 {
        for tick in state.advance(Nanos(f * 1_000_000_000 / 60)).updates() {
            let inputs = [(0, 0), (1, 0)];
            let result = rollback.update(
                &mut state,
                &mut session,
                &tick,
                &inputs,
                &mut world,
                game::step,
            );
            if let Err(e) = result {
                error.get_or_insert(e);
            }
        }
    }
    assert_eq!(error, Some(NetError::FrameNotInRing { frame: 1 }));
    // The failed ticks went back to the loop, which dropped them (Refusal::Drop).
    let stats = rollback.stats();
    let main = state.clock(rollback.frame_clock()).expect("clock").stats();
    assert_eq!(stats.ticks, stats.frames + stats.refused + stats.lost);
    assert_eq!(stats.lost, 0);
    assert!(stats.refused > 0);
    assert_eq!(
        (main.ticks_run, main.ticks_refused, main.ticks_dropped),
        (stats.frames, stats.refused, stats.dropped)
    );
}
