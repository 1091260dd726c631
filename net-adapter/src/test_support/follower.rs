//! A follower of the rollback game: a ggrs spectator, or a late joiner on the adapter's
//! [`Feed`], with its own `LoopState`, the adapter, a [`CatchUp`], and a log of confirmed
//! checksums: the shell of the facade's `examples/rollback.rs -- --spectate` and of this
//! crate's spectator tests. It runs the players' unchanged [`game::step`].

use std::net::SocketAddr;

use ggrs::{Frame, NonBlockingSocket, SessionBuilder, SessionState, SpectatorSession};
use tickfold_core::{ClockStats, Event, LoopConfig, LoopState, Nanos, Period};

use crate::{CatchUp, Feed, FrameInputs, NetError, NetEvent, Refusal, Rollback, Session};

use super::game::{self, Config, Game, GameHandover, Input};

/// A follower's refused tick (the host's inputs had not arrived) is dropped, not retried:
/// its frame clock's grid slips behind the arrivals until they come before the ticks, a
/// playout delay the jitter sets, instead of keeping a backlog that runs in bursts as the
/// inputs come.
const FOLLOWER_REFUSAL: Refusal = Refusal::Drop;

/// What the fold and the adapter reported to a follower, summed over its steps.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FollowerReport {
    /// Frame-clock ticks that ran a frame.
    pub frames: u64,
    /// Frame-clock ticks refused back to the loop (the host's inputs had not arrived).
    pub refused: u64,
    /// Ticks the loop deferred to later steps (`Event::Deferred`): the cap at work while
    /// catching up.
    pub deferred: u64,
    /// Ticks the loop dropped (`Event::DroppedTicks`), and ticks of time it gave up
    /// (`Event::DiscardedTime`).
    pub dropped: u64,
    /// The most frame-clock ticks run in one step.
    pub max_ticks_per_step: u32,
    /// Frames run while the loop ran at the [`CatchUp`]'s speed.
    pub catch_up_frames: u64,
    /// Steps whose last frame-clock tick ran a frame: the steps the capture rule captures in.
    pub captured_steps: u64,
    /// Updates that returned [`NetError::SpectatorTooFarBehind`].
    pub too_far_reports: u64,
}

/// A follower: a ggrs [`SpectatorSession`] or a late joiner's [`Feed`].
pub struct Follower<S> {
    /// Its session.
    pub session: S,
    /// The adapter.
    pub rollback: Rollback<Config, Game>,
    /// The world.
    pub game: Game,
    /// Its loop: made at the first step (a spectator's) or loaded from a handover (a joiner's).
    pub state: Option<LoopState>,
    /// Its catch-up rule.
    pub catch_up: CatchUp,
    /// Every confirmed frame's checksum, logged as its ring saves it.
    pub confirmed: Vec<(Frame, u64)>,
    /// Every event of a ggrs spectator's session.
    pub events: Vec<NetEvent<SocketAddr>>,
    /// What the fold reported.
    pub report: FollowerReport,
    /// The frame at which its session lost the host's inputs, if it did (reported once by
    /// the adapter as [`NetError::SpectatorTooFarBehind`]).
    pub too_far_behind: Option<Frame>,
}

/// The loop of a follower: the players' 60 Hz frame clock and the loop's defaults (8 ticks
/// per step at most, 250 ms of max frame delta).
fn loop_config() -> Result<LoopConfig, NetError> {
    let rate = Period::from_hz(60).map_err(|_| {
        NetError::Ggrs(ggrs::GgrsError::InvalidRequest {
            info: "60 Hz".into(),
        })
    })?;
    Ok(LoopConfig::new(rate))
}

impl Follower<SpectatorSession<Config>> {
    /// A ggrs spectator of the two-player game hosted at `host`, on `socket`.
    ///
    /// # Errors
    ///
    /// ggrs's, for its settings; the ring's, as [`Rollback::new`].
    pub fn spectator(
        socket: impl NonBlockingSocket<SocketAddr> + 'static,
        host: SocketAddr,
        catch_up: CatchUp,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let session = SessionBuilder::<Config>::new()
            .with_num_players(2)?
            .start_spectator_session(host, socket);
        Follower::from_session(session, catch_up)
    }

    /// A ggrs spectator on a session built elsewhere (with other ggrs settings).
    ///
    /// # Errors
    ///
    /// The ring's, as [`Rollback::new`].
    pub fn from_session(
        session: SpectatorSession<Config>,
        catch_up: CatchUp,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let game = Game::new();
        let rollback = Rollback::new(&game, 8, FOLLOWER_REFUSAL)?;
        Ok(Follower::with(session, rollback, game, None, catch_up))
    }

    /// Whether the handshake with the host is done.
    #[must_use]
    pub fn running(&self) -> bool {
        self.session.current_state() == SessionState::Running
    }

    /// Polls the network and reads the session's events without stepping the loop.
    pub fn poll(&mut self) {
        self.session.poll_remote_clients();
        self.events
            .extend(self.session.events().map(NetEvent::from));
    }
}

impl Follower<Feed<Config>> {
    /// A late joiner: a fresh world loads `handover` (the host's save, as it arrived through
    /// serde), its loop is the host's moved onto this follower's axis so that its latest
    /// reading is `now`, and it follows the host's feed from the handed-over frame.
    ///
    /// # Errors
    ///
    /// As [`Rollback::join`]; the ring's, as [`Rollback::new`].
    pub fn join(
        handover: &GameHandover,
        now: Nanos,
        catch_up: CatchUp,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let mut game = Game::new();
        let mut rollback = Rollback::new(&game, 8, FOLLOWER_REFUSAL)?;
        let feed = rollback.join(&mut game, handover)?;
        let elapsed = handover.state.real_time().elapsed();
        let mut state = handover
            .state
            .clone()
            .rebase(Nanos(now.0.saturating_sub(elapsed.0)));
        // The host's scale is its own (a TimeSync may have slowed it): follow at ours.
        let _ = state.virtual_time_mut().set_scale(catch_up.scale());
        Ok(Follower::with(feed, rollback, game, Some(state), catch_up))
    }

    /// Hands the host's confirmed inputs to the feed, in order.
    ///
    /// # Errors
    ///
    /// [`NetError::FeedGap`] when some are missing.
    pub fn push(&mut self, inputs: &[FrameInputs<Input>]) -> Result<(), NetError> {
        for frame in inputs {
            let _ = self.session.push(frame.clone())?;
        }
        Ok(())
    }
}

impl<S: Session<Config>> Follower<S> {
    fn with(
        session: S,
        rollback: Rollback<Config, Game>,
        game: Game,
        state: Option<LoopState>,
        catch_up: CatchUp,
    ) -> Self {
        Follower {
            session,
            rollback,
            game,
            state,
            catch_up,
            confirmed: Vec::new(),
            events: Vec::new(),
            report: FollowerReport::default(),
            too_far_behind: None,
        }
    }

    /// One frame of the shell at `now`: set the catch-up scale from the frames behind, step
    /// the fold, run each frame-clock tick as one frame of the players' unchanged game code
    /// (no local inputs), then log newly confirmed checksums.
    ///
    /// # Errors
    ///
    /// The adapter's, as [`Rollback::update`], except [`NetError::SpectatorTooFarBehind`],
    /// which is kept in [`too_far_behind`](Follower::too_far_behind).
    pub fn step(&mut self, now: Nanos) -> Result<(), NetError> {
        let state = match &mut self.state {
            Some(state) => state,
            None => {
                let state = LoopState::new(loop_config()?, now).map_err(|_| {
                    NetError::Ggrs(ggrs::GgrsError::InvalidRequest {
                        info: "loop config".into(),
                    })
                })?;
                self.state.insert(state)
            }
        };
        let behind = self.rollback.frames_behind(&self.session);
        let _ = self.catch_up.apply(behind, state);
        let events = state.advance(now);
        let mut ran = 0;
        for event in &events {
            match event {
                Event::Deferred { ticks, .. } => self.report.deferred += ticks,
                Event::DroppedTicks { count, .. } => self.report.dropped += count,
                Event::DiscardedTime { ticks, .. } => self.report.dropped += ticks,
                _ => {}
            }
        }
        let mut failure = None;
        for tick in events.updates() {
            let result = self.rollback.update(
                state,
                &mut self.session,
                &tick,
                &[],
                &mut self.game,
                game::step,
            );
            match result {
                Ok(adv) => {
                    ran += adv.advanced;
                    self.report.refused += u64::from(adv.refused);
                    if tick.last_in_step && adv.advanced > 0 {
                        self.report.captured_steps += 1;
                    }
                }
                Err(NetError::SpectatorTooFarBehind { frame }) => {
                    self.too_far_behind = Some(frame);
                    self.report.too_far_reports += 1;
                }
                // Hand over the step's remaining ticks so the refusal reaches the loop.
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        self.report.frames += u64::from(ran);
        self.report.max_ticks_per_step = self.report.max_ticks_per_step.max(ran);
        if self.catch_up.is_catching_up() {
            self.report.catch_up_frames += u64::from(ran);
        }
        let log = &mut self.confirmed;
        self.rollback.drain_confirmed(|f, sum| log.push((f, sum)));
        failure.map_or(Ok(()), Err)
    }

    /// The frame clock's accounting (`None` before the first step).
    #[must_use]
    pub fn frame_clock_stats(&self) -> Option<ClockStats> {
        let clock = self.rollback.frame_clock();
        self.state
            .as_ref()
            .and_then(|s| s.clock(clock).ok().map(|c| c.stats()))
    }
}
