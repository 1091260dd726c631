//! The determinism kit on a rollback game (feature `quickcheck`): the example game, run tick
//! by tick through a ggrs sync test (every frame rolled back 7 frames and re-simulated), ends
//! in the same state however the frames of the fold fall.
#![cfg(feature = "quickcheck")]

#[path = "../examples/shared/rollback_game.rs"]
mod game;

use std::fmt;

use game::{Config, Game};
use tickfold::testing::{Schedule, Sim};
use tickfold::{LoopConfig, Period, Tick};
use tickfold_ggrs::ggrs::{SessionBuilder, SyncTestSession};
use tickfold_ggrs::{Refusal, Rollback};
use tickfold_snapshot::{chunk_checksum, state_checksum};

/// A game inside a sync test session. The kit clones only the initial state; a clone starts a
/// fresh session and adapter at the cloned game.
struct Rolling {
    game: Game,
    session: SyncTestSession<Config>,
    rollback: Rollback<Config, Game>,
}

impl Rolling {
    fn new(game: Game) -> Rolling {
        let session = SessionBuilder::<Config>::new()
            .with_num_players(2)
            .and_then(|b| b.with_check_distance(7).start_synctest_session())
            .expect("sync test session");
        let rollback = Rollback::new(&game, 8, Refusal::Drop).expect("ring");
        Rolling {
            game,
            session,
            rollback,
        }
    }

    fn checksum(&self) -> u64 {
        let parts = [
            chunk_checksum(self.game.ships.current()),
            chunk_checksum(self.game.bullets.current()),
            chunk_checksum(self.game.rng.as_slice()),
        ];
        state_checksum(&parts, 3)
    }
}

impl Clone for Rolling {
    fn clone(&self) -> Rolling {
        let mut game = Game::new();
        game.ships
            .write(self.game.ships.current())
            .expect("same length");
        Rolling::new(game)
    }
}

impl fmt::Debug for Rolling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "frame {} checksum {:#x}",
            self.rollback.frame(),
            self.checksum()
        )
    }
}

fn update(r: &mut Rolling, tick: &Tick) {
    let frame = r.rollback.frame();
    let inputs = [
        (0, game::scripted_input(0, frame)),
        (1, game::scripted_input(1, frame)),
    ];
    // The kit does not lend its loop state, and a sync test never refuses a tick.
    let adv = r
        .rollback
        .update_without_loop(&mut r.session, tick, &inputs, &mut r.game, game::step)
        .expect("deterministic under rollback");
    assert_eq!(adv.advanced, 1);
}

#[test]
fn a_rollback_game_is_the_same_across_frame_schedules() -> Result<(), Box<dyn std::error::Error>> {
    let config = LoopConfig::new(Period::from_hz(60)?).max_frame_delta(None);
    let sim = Sim::new(config, Rolling::new(Game::new()), update)?;
    let schedules = [
        Schedule::vsync(144u64, 288)?,
        Schedule::vsync((60_000u64, 1_001u64), 120)?,
        Schedule::from_millis(&[16.7, 0.0, -3.0, 250.0, 1700.0])?,
    ];
    sim.same_across_schedules_by(&schedules, Rolling::checksum)?;
    Ok(())
}
