//! The glue: one fold tick is one ggrs frame; saves and loads go through the snapshot ring.

use core::fmt;
use core::marker::PhantomData;

use ggrs::{Config, Frame, GgrsError, GgrsRequest, InputStatus, P2PSession, PlayerHandle};
use tickfold_core::Tick;
use tickfold_snapshot::SnapshotError;

use crate::error::{NetError, NetEvent};
use crate::session::{Saved, Session};
use crate::state::RollbackState;

/// Confirmed checksums held for [`Rollback::drain_confirmed`] between two drains.
const PENDING: usize = 64;

/// What to do with a tick ggrs refuses (the session reached its prediction window, or is not
/// synchronised yet): the tick did not happen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// The tick stays owed and runs with the next tick (before it), up to `max_owed` ticks;
    /// past that the oldest are dropped and counted. The game catches up once ggrs lets it.
    Retry {
        /// The most ticks held; more are dropped.
        max_owed: u32,
    },
    /// The tick is dropped and counted: the game falls behind the fold's clock by one frame.
    Drop,
}

impl Default for Refusal {
    /// Retry up to 8 ticks (ggrs's default prediction window).
    fn default() -> Refusal {
        Refusal::Retry { max_owed: 8 }
    }
}

/// What one call of [`Rollback::update`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct Advance {
    /// New frames simulated: 1, more when owed ticks caught up, 0 when refused.
    pub advanced: u32,
    /// Frames re-simulated after a rollback in this call (the depth of the rollback). When it
    /// is not 0 the state drawn next may jump: the blend is between corrected states, but the
    /// frame drawn before was a mispredicted one; a game may smooth over that.
    pub resimulated: u32,
    /// Whether ggrs refused a tick in this call (see [`Refusal`]).
    pub refused: bool,
    /// Ticks dropped in this call.
    pub dropped: u32,
}

/// Totals since the adapter was made. `ticks == frames + owed + dropped` always holds, and
/// `frames` is the session's current frame (see [`Rollback::frame`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RollbackStats {
    /// Ticks the fold gave the adapter.
    pub ticks: u64,
    /// New frames simulated.
    pub frames: u64,
    /// Ticks held for a retry right now.
    pub owed: u64,
    /// Ticks dropped.
    pub dropped: u64,
    /// Calls in which ggrs refused a tick.
    pub refusals: u64,
    /// Rollbacks (loads).
    pub rollbacks: u64,
    /// Frames re-simulated in all.
    pub resimulated: u64,
    /// The deepest rollback, in frames.
    pub max_depth: u32,
    /// Saves into the ring.
    pub saves: u64,
    /// Confirmed frames whose checksum was handed out by [`Rollback::drain_confirmed`].
    pub confirmed_logged: u64,
    /// Confirmed frames whose checksum could not be queued (the queue of 64 was full, or the
    /// frame had left the ring): drain every step.
    pub confirmed_missed: u64,
    /// Desyncs ggrs reported.
    pub desyncs: u64,
    /// Peers that disconnected.
    pub disconnects: u64,
    /// The latest frames-ahead figure read by [`Rollback::poll_events`].
    pub frames_ahead: i32,
}

/// Rollback glue between the fold, a ggrs session and a [`RollbackState`] world.
///
/// Each fold [`Tick`] is one ggrs frame: call [`update`](Rollback::update) for every
/// `Event::Update`; it adds the local inputs, advances the session and answers its requests
/// in order: `SaveGameState` saves into the ring (only the chunks written since that slot was
/// saved; the ring's checksum is the ggrs checksum), `LoadGameState` restores only the chunks
/// written since, `AdvanceFrame` runs your simulation. Before the last `AdvanceFrame` of the
/// tick marked `last_in_step` the world's previous state is captured, so after a rollback
/// the render blends two corrected states.
pub struct Rollback<C: Config, W: RollbackState> {
    ring: W::Ring,
    slots: usize,
    frame: Frame,
    last_saved: Frame,
    /// The latest frame whose checksum was queued for [`Rollback::drain_confirmed`].
    logged: Frame,
    /// Confirmed (frame, checksum) pairs not drained yet: a fixed ring, no allocation.
    pending: [(Frame, u64); PENDING],
    pending_head: usize,
    pending_len: usize,
    refusal: Refusal,
    stats: RollbackStats,
    _config: PhantomData<fn() -> C>,
}

impl<C: Config, W: RollbackState> fmt::Debug for Rollback<C, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rollback")
            .field("slots", &self.slots)
            .field("frame", &self.frame)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<C: Config<State = Saved>, W: RollbackState> Rollback<C, W> {
    /// An adapter for a session with prediction window `max_prediction` (ggrs's
    /// `with_max_prediction_window`, 8 by default): the ring holds `max_prediction + 1` frames,
    /// as ggrs's own cells do, sized for `world`'s capacity now.
    ///
    /// # Errors
    ///
    /// As [`Ring::new`](tickfold_snapshot::Ring::new).
    pub fn new(
        world: &W,
        max_prediction: usize,
        refusal: Refusal,
    ) -> Result<Rollback<C, W>, SnapshotError> {
        let slots = max_prediction.saturating_add(1).max(2);
        Ok(Rollback {
            ring: world.ring(slots)?,
            slots,
            frame: 0,
            last_saved: -1,
            logged: -1,
            pending: [(0, 0); PENDING],
            pending_head: 0,
            pending_len: 0,
            refusal,
            stats: RollbackStats::default(),
            _config: PhantomData,
        })
    }

    /// The frame the world is at: the next frame to simulate.
    #[must_use]
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// Frames the ring holds.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Totals so far.
    #[must_use]
    pub fn stats(&self) -> RollbackStats {
        self.stats
    }

    /// The checksum saved for `frame`, while the ring holds it.
    #[must_use]
    pub fn checksum(&self, frame: Frame) -> Option<u64> {
        u64::try_from(frame)
            .ok()
            .and_then(|f| W::checksum(&self.ring, f))
    }

    /// Runs one fold tick as one ggrs frame (and owed ticks before it, see [`Refusal`]).
    ///
    /// `local` are this peer's inputs for the frame; `sim` advances the world by one frame
    /// with every player's input and status, and is told the frame number.
    ///
    /// # Errors
    ///
    /// A [`NetError`]; the tick is then counted as owed or dropped, never lost. After an
    /// error the session and the adapter may disagree on the frame: end the match or resync.
    pub fn update<S: Session<C>>(
        &mut self,
        session: &mut S,
        tick: &Tick,
        local: &[(PlayerHandle, C::Input)],
        world: &mut W,
        mut sim: impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> Result<Advance, NetError> {
        self.stats.ticks += 1;
        let attempts = 1 + self.stats.owed;
        let mut adv = Advance::default();
        let mut outcome = Ok(());
        while u64::from(adv.advanced) < attempts {
            match self.attempt(session, local, tick.last_in_step, world, &mut sim) {
                Ok((fresh, resim)) => {
                    adv.resimulated += resim;
                    self.queue_confirmed(session.confirmed_frame());
                    if fresh {
                        adv.advanced += 1;
                    } else {
                        break;
                    }
                }
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        let missing = attempts - u64::from(adv.advanced);
        self.stats.frames += u64::from(adv.advanced);
        if missing > 0 {
            adv.refused = true;
            self.stats.refusals += 1;
        }
        let keep = match self.refusal {
            Refusal::Retry { max_owed } => missing.min(u64::from(max_owed)),
            Refusal::Drop => 0,
        };
        self.stats.owed = keep;
        let dropped = missing - keep;
        self.stats.dropped += dropped;
        adv.dropped = u32::try_from(dropped).unwrap_or(u32::MAX);
        outcome.map(|()| adv)
    }

    fn attempt<S: Session<C>>(
        &mut self,
        session: &mut S,
        local: &[(PlayerHandle, C::Input)],
        capture: bool,
        world: &mut W,
        sim: &mut impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> Result<(bool, u32), NetError> {
        for &(handle, input) in local {
            session.add_local_input(handle, input)?;
        }
        let requests = match session.advance_frame() {
            Ok(requests) => requests,
            // 0.13 no longer returns PredictionThreshold (it returns no AdvanceFrame), but
            // older sessions did; both mean the tick did not happen.
            Err(GgrsError::PredictionThreshold | GgrsError::NotSynchronized) => Vec::new(),
            Err(e) => return Err(e.into()),
        };
        let before = self.frame;
        let advances = self.handle(requests, world, capture, sim)?;
        let fresh = self.frame == before + 1;
        Ok((fresh, advances - u32::from(fresh)))
    }

    /// Answers ggrs's requests in order, without allocating: saves into the ring, loads from
    /// it, runs `sim` for each `AdvanceFrame`; when `capture` is set, captures the previous
    /// state before the last `AdvanceFrame`. Returns how many frames were simulated.
    /// [`update`](Rollback::update) calls this; call it yourself to drive a session by hand.
    ///
    /// # Errors
    ///
    /// [`NetError::FrameNotInRing`] when a load names a frame the ring lost,
    /// [`NetError::FrameMismatch`] when a save or load names another frame than the
    /// adapter's. The requests after it are not handled.
    pub fn handle(
        &mut self,
        requests: Vec<GgrsRequest<C>>,
        world: &mut W,
        capture: bool,
        sim: &mut impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> Result<u32, NetError> {
        let last_advance = if capture {
            requests
                .iter()
                .rposition(|r| matches!(r, GgrsRequest::AdvanceFrame { .. }))
        } else {
            None
        };
        let mut advances = 0;
        for (i, request) in requests.into_iter().enumerate() {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let checksum = self.save(world, frame)?;
                    cell.save(
                        frame,
                        Some(Saved { frame, checksum }),
                        Some(checksum.into()),
                    );
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    if let Some(saved) = cell.data().map(|s| *s) {
                        if saved.frame != frame {
                            return Err(NetError::FrameMismatch {
                                requested: frame,
                                expected: saved.frame,
                            });
                        }
                    }
                    self.load(world, frame)?;
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    if last_advance == Some(i) {
                        world.capture_previous();
                    }
                    sim(world, &inputs, self.frame);
                    self.frame += 1;
                    advances += 1;
                }
            }
        }
        Ok(advances)
    }

    /// Saves the world as `frame` (which must be the adapter's frame) and returns its checksum.
    ///
    /// # Errors
    ///
    /// [`NetError::FrameMismatch`] for another frame.
    pub fn save(&mut self, world: &mut W, frame: Frame) -> Result<u64, NetError> {
        let at = u64::try_from(frame)
            .ok()
            .filter(|_| frame == self.frame)
            .ok_or(NetError::FrameMismatch {
                requested: frame,
                expected: self.frame,
            })?;
        self.stats.saves += 1;
        self.last_saved = frame;
        Ok(world.save(&mut self.ring, at))
    }

    /// Rolls the world back to `frame` (restoring only the chunks written since it was saved).
    ///
    /// # Errors
    ///
    /// [`NetError::FrameNotInRing`] when the ring no longer holds it; the world is untouched.
    pub fn load(&mut self, world: &mut W, frame: Frame) -> Result<(), NetError> {
        let loaded = u64::try_from(frame)
            .ok()
            .is_some_and(|at| world.load(&mut self.ring, at));
        if !loaded {
            return Err(NetError::FrameNotInRing { frame });
        }
        let depth = u32::try_from(self.frame - frame).unwrap_or(0);
        self.stats.rollbacks += 1;
        self.stats.resimulated += u64::from(depth);
        self.stats.max_depth = self.stats.max_depth.max(depth);
        self.frame = frame;
        self.last_saved = self.last_saved.min(frame);
        Ok(())
    }

    /// Queues the checksums of frames newly confirmed: the state saved as frame `f` is final
    /// once the inputs of frame `f − 1` are confirmed and the requests that followed (a
    /// rollback correcting it) were handled, which is the case right after each attempt.
    fn queue_confirmed(&mut self, confirmed_frame: Frame) {
        let upto = confirmed_frame.saturating_add(1).min(self.last_saved);
        while self.logged < upto {
            self.logged += 1;
            match self.checksum(self.logged) {
                Some(sum) if self.pending_len < PENDING => {
                    let at = (self.pending_head + self.pending_len) % PENDING;
                    self.pending[at] = (self.logged, sum);
                    self.pending_len += 1;
                }
                _ => self.stats.confirmed_missed += 1,
            }
        }
    }

    /// Hands out each newly confirmed frame with its checksum, once, in order (frames are
    /// queued as they are confirmed, inside [`update`](Rollback::update)). Call it after every
    /// step; past 64 undrained frames the newest are counted in
    /// [`RollbackStats::confirmed_missed`] instead. Two peers that log these see the same pairs.
    pub fn drain_confirmed(&mut self, mut f: impl FnMut(Frame, u64)) {
        while self.pending_len > 0 {
            let (frame, sum) = self.pending[self.pending_head];
            self.pending_head = (self.pending_head + 1) % PENDING;
            self.pending_len -= 1;
            self.stats.confirmed_logged += 1;
            f(frame, sum);
        }
    }

    /// Drains the session's events into `f` as [`NetEvent`]s, counting desyncs and disconnects
    /// and reading [`P2PSession::frames_ahead`] into the stats. Call it once per step.
    pub fn poll_events(
        &mut self,
        session: &mut P2PSession<C>,
        mut f: impl FnMut(NetEvent<C::Address>),
    ) {
        for event in session.events() {
            let event = NetEvent::from(event);
            match event {
                NetEvent::Desync { .. } => self.stats.desyncs += 1,
                NetEvent::Disconnected { .. } => self.stats.disconnects += 1,
                _ => {}
            }
            f(event);
        }
        self.stats.frames_ahead = session.frames_ahead();
    }
}
