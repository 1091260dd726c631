//! The example game in a ggrs sync test, fed through the adapter's one path.

use std::error::Error;

use ggrs::{Frame, InputStatus, SessionBuilder, SyncTestSession};
use tickfold_core::{LoopState, Tick};

use super::game::{self, Config, Game, Input};
use crate::{Advance, NetError, Refusal, Rollback};

/// The example [`Game`] in a ggrs `SyncTestSession` (two local players, prediction window 8,
/// so a ring of 9 frames): every frame past the check distance rolls back that many frames,
/// re-simulates them and compares the ring's checksums. Each tick of the frame clock goes
/// through [`Rollback::update`] with both players' [`scripted_input`](game::scripted_input).
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
/// use tickfold_ggrs::Refusal;
/// use tickfold_ggrs::test_support::game;
/// use tickfold_ggrs::test_support::sync_test::SyncTest;
///
/// let mut test = SyncTest::new(7, Refusal::Drop)?;
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// for f in 1..=120u64 {
///     for tick in state.advance(Nanos(f * 1_000_000_000 / 60)).updates() {
///         let advance = test.update(&mut state, &tick, game::step)?;
///         assert_eq!(advance.advanced, 1); // a sync test never refuses
///     }
/// }
/// assert_eq!(test.rollback.stats().frames, 120);
/// assert_eq!(test.rollback.stats().max_depth, 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SyncTest {
    /// The session.
    pub session: SyncTestSession<Config>,
    /// The adapter.
    pub rollback: Rollback<Config, Game>,
    /// The world, from [`Game::new`].
    pub game: Game,
}

impl SyncTest {
    /// A sync test that rolls back `check_distance` frames every frame, with `refusal` for
    /// the ticks it cannot run.
    ///
    /// # Errors
    ///
    /// ggrs's, for a check distance past the prediction window; the ring's, as
    /// [`Rollback::new`].
    pub fn new(check_distance: usize, refusal: Refusal) -> Result<SyncTest, Box<dyn Error>> {
        let session = SessionBuilder::<Config>::new()
            .with_num_players(2)?
            .with_max_prediction_window(8)
            .with_check_distance(check_distance)
            .start_synctest_session()?;
        let game = Game::new();
        let rollback = Rollback::new(&game, 8, refusal)?;
        Ok(SyncTest {
            session,
            rollback,
            game,
        })
    }

    /// One tick of the frame clock of `state`, the loop that stepped: both players' scripted
    /// inputs, `sim` the frame ([`game::step`], or a variant a test breaks on purpose).
    ///
    /// # Errors
    ///
    /// As [`Rollback::update`]; a checksum that differs on re-simulation is
    /// [`NetError::Mismatch`].
    pub fn update<T>(
        &mut self,
        state: &mut LoopState<T>,
        tick: &Tick,
        sim: impl FnMut(&mut Game, &[(Input, InputStatus)], Frame),
    ) -> Result<Advance, NetError> {
        let frame = self.rollback.frame();
        let inputs = [
            (0, game::scripted_input(0, frame)),
            (1, game::scripted_input(1, frame)),
        ];
        self.rollback
            .update(state, &mut self.session, tick, &inputs, &mut self.game, sim)
    }
}
