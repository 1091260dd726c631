//! The glue: one tick of the frame clock is one ggrs frame; saves and loads go through the
//! snapshot ring; refused ticks go back to the fold; the capture rule is the core's.

use core::fmt;
use core::marker::PhantomData;
use std::collections::VecDeque;

use ggrs::{Config, Frame, GgrsError, GgrsRequest, InputStatus, P2PSession, PlayerHandle};
use tickfold_core::{ClockId, Columns, LoopState, Tick};
use tickfold_snapshot::SnapshotError;

use crate::error::{NetError, NetEvent};
use crate::feed::FrameInputs;
use crate::refusal::{Advance, Refusal, RollbackStats};
use crate::session::{Saved, Session};
use crate::state::RollbackState;

/// Confirmed checksums held for [`Rollback::drain_confirmed`] between two drains.
const PENDING: usize = 64;
/// Confirmed frames' inputs held for [`Rollback::drain_feed`] between two drains.
const FEED_LIMIT: usize = 1024;

/// One frame's inputs and statuses.
type Inputs<C> = Vec<(<C as Config>::Input, InputStatus)>;

/// Rollback glue between the fold, a ggrs session and a [`RollbackState`] world.
///
/// **Frames come from one clock**, the frame clock: the world's
/// [`Columns::clock`](tickfold_core::Columns::clock) when the adapter is made (the loop's main
/// clock unless the world names another, as
/// [`DoubleBuffer::set_clock`](tickfold_snapshot::DoubleBuffer::set_clock) does). Each of its
/// [`Tick`]s is one ggrs frame: call [`update`](Rollback::update) for every `Event::Update` of
/// that clock; a tick of another clock is [`NetError::NotFrameClock`] and touches nothing (run
/// that clock's systems yourself). `update` adds the local inputs, advances the session and
/// answers its requests in order: `SaveGameState` saves into the ring (only the chunks
/// written since that slot was saved; the ring's checksum is the ggrs checksum),
/// `LoadGameState` restores only the chunks written since, `AdvanceFrame` runs your
/// simulation.
///
/// **The capture rule is the core's.** Before the `AdvanceFrame` that simulates the tick's new
/// frame (after any re-simulation), the adapter calls
/// [`Columns::before_update`](tickfold_core::Columns::before_update) with the tick: once per
/// fold update, never for a re-simulated frame or a refused tick, capturing only before the
/// step's last update of the frame clock. So after a rollback the render blends two
/// corrected states.
///
/// **Refused ticks go back to the fold** through
/// [`LoopState::refuse`](tickfold_core::LoopState::refuse): when ggrs does not advance a tick,
/// it and the step's later ticks of the frame clock run again at the next step with the same
/// numbers, and the fold's [`ClockStats`](tickfold_core::ClockStats) count them (see
/// [`Refusal`]).
///
/// **Followers run the same way.** A spectator (ggrs's `SpectatorSession`) or a late joiner
/// (the adapter's [`Feed`](crate::Feed)) is driven by the same `update`, with no local
/// inputs and the game's unchanged simulation: one frame per tick of the frame clock, the
/// capture rule, the ring and its checksums (the adapter saves each frame itself, as ggrs asks
/// a follower for none); a tick whose inputs have not arrived is refused back to the loop.
/// When a session hands out several frames at once (ggrs's `catchup_speed` above 1), the
/// extra ones wait in the adapter for the next ticks and count in
/// [`RollbackStats::frames_behind`]; a [`CatchUp`](crate::CatchUp) turns that figure into
/// extra ticks of the loop. A host hands its confirmed frames to late joiners with
/// [`handover`](Rollback::handover) and [`drain_feed`](Rollback::drain_feed).
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
    /// The frame clock.
    clock: ClockId,
    /// The first tick of the current step that did not run: the step's ticks from there on
    /// are refused once its last tick of the frame clock is handed over.
    refusing: Option<u64>,
    /// The latest frame-clock tick handed over.
    last_index: Option<u64>,
    /// The latest confirmed frame the session reported.
    confirmed: Frame,
    /// The inputs each frame in the ring was last simulated with, by slot (buffers reused).
    inputs: Vec<(Frame, Inputs<C>)>,
    /// Frames a follower's session handed out ahead of the ticks that run them.
    spare: VecDeque<Inputs<C>>,
    /// A spectator's session lost the host's inputs: reported once, not asked again.
    too_far: bool,
    /// The next confirmed frame to queue for followers, once a handover started the feed.
    feed_next: Option<Frame>,
    feed: VecDeque<FrameInputs<C::Input>>,
    stats: RollbackStats,
    _config: PhantomData<fn() -> C>,
}

impl<C: Config, W: RollbackState> fmt::Debug for Rollback<C, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rollback")
            .field("slots", &self.slots)
            .field("frame", &self.frame)
            .field("clock", &self.clock)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<C: Config<State = Saved>, W: RollbackState + Columns> Rollback<C, W> {
    /// An adapter for a session with prediction window `max_prediction` (ggrs's
    /// `with_max_prediction_window`, 8 by default): the ring holds `max_prediction + 1` frames,
    /// as ggrs's own cells do, sized for `world`'s capacity now. The frame clock is
    /// `world`'s [`Columns::clock`].
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
            clock: world.clock(),
            refusing: None,
            last_index: None,
            confirmed: -1,
            inputs: (0..slots).map(|_| (-1, Vec::new())).collect(),
            spare: VecDeque::new(),
            too_far: false,
            feed_next: None,
            feed: VecDeque::new(),
            stats: RollbackStats::default(),
            _config: PhantomData,
        })
    }

    /// The frame clock: the only clock whose ticks are frames.
    #[must_use]
    pub fn frame_clock(&self) -> ClockId {
        self.clock
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

    /// A follower's frames whose final inputs it holds and has not run, now: its session's
    /// [`Session::frames_behind`] and the frames the adapter keeps for the next ticks (see
    /// [`RollbackStats::frames_behind`], the figure after the latest update). 0 for a player.
    /// Feed it to a [`CatchUp`](crate::CatchUp) before each step.
    #[must_use]
    pub fn frames_behind<S: Session<C>>(&self, session: &S) -> usize {
        session.frames_behind() + self.spare.len()
    }

    /// The ring (for the handover).
    pub(crate) fn ring(&self) -> &W::Ring {
        &self.ring
    }

    /// The latest confirmed frame the session reported.
    pub(crate) fn confirmed_frame(&self) -> Frame {
        self.confirmed
    }

    /// The next frame the feed queues, once started.
    pub(crate) fn feed_start(&self) -> Option<Frame> {
        self.feed_next
    }

    /// Queues confirmed frames' inputs for followers from `frame` on (if not already).
    pub(crate) fn start_feed(&mut self, frame: Frame) {
        let _ = self.feed_next.get_or_insert(frame);
    }

    /// A newcomer's adapter starts at `frame`, a handed-over confirmed frame.
    pub(crate) fn start_at(&mut self, frame: Frame) {
        // Whatever an earlier session left (a dead spectator's) is not this feed's.
        self.spare.clear();
        self.too_far = false;
        self.frame = frame;
        self.last_saved = frame - 1;
        self.logged = frame - 1;
        self.confirmed = frame - 1;
    }

    /// The checksum saved for `frame`, while the ring holds it.
    #[must_use]
    pub fn checksum(&self, frame: Frame) -> Option<u64> {
        u64::try_from(frame)
            .ok()
            .and_then(|f| W::checksum(&self.ring, f))
    }

    /// Runs one tick of the frame clock as one ggrs frame; `state` is the loop that stepped
    /// (refused ticks go back to it).
    ///
    /// `local` are this peer's inputs for the frame; `sim` advances the world by one frame
    /// with every player's input and status, and is told the frame number. Hand over every
    /// tick of the frame clock of a step, in order, and step the loop only after the step's
    /// last one ([`Tick::last_in_step`]): a refusal reaches the loop then.
    ///
    /// # Errors
    ///
    /// [`NetError::NotFrameClock`] for a tick of another clock (nothing is touched). Any other
    /// [`NetError`] leaves the tick refused like one ggrs refused; hand over the step's
    /// remaining ticks of the frame clock so that the refusal reaches the loop, or they are
    /// counted in [`RollbackStats::lost`]. After a session error the session and the adapter
    /// may disagree on the frame: end the match or resync.
    pub fn update<T, S: Session<C>>(
        &mut self,
        state: &mut LoopState<T>,
        session: &mut S,
        tick: &Tick,
        local: &[(PlayerHandle, C::Input)],
        world: &mut W,
        mut sim: impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> Result<Advance, NetError> {
        self.check_clock(tick)?;
        self.forget_stale(tick);
        let (mut adv, mut outcome) = self.run_tick(session, tick, local, world, &mut sim);
        if adv.advanced == 0 {
            let _ = self.refusing.get_or_insert(tick.index);
        }
        if tick.last_in_step {
            if let Some(first) = self.refusing.take() {
                match self.refuse_step(state, tick, first) {
                    Ok(dropped) => adv.dropped = dropped,
                    Err(e) => outcome = outcome.and(Err(e)),
                }
            }
        }
        outcome.map(|()| adv)
    }

    fn check_clock(&self, tick: &Tick) -> Result<(), NetError> {
        if tick.clock == self.clock {
            Ok(())
        } else {
            Err(NetError::NotFrameClock {
                clock: tick.clock,
                index: tick.index,
                frame_clock: self.clock,
            })
        }
    }

    /// A refused step whose last tick never came (the shell stopped after an error): its
    /// ticks can no longer go back to the fold.
    fn forget_stale(&mut self, tick: &Tick) {
        if let (Some(first), Some(last)) = (self.refusing, self.last_index) {
            if last.checked_add(1) != Some(tick.index) {
                self.stats.lost += last.saturating_sub(first) + 1;
                self.refusing = None;
            }
        }
    }

    /// Asks the session for the tick's frame, unless an earlier tick of the step was refused.
    fn run_tick<S: Session<C>>(
        &mut self,
        session: &mut S,
        tick: &Tick,
        local: &[(PlayerHandle, C::Input)],
        world: &mut W,
        sim: &mut impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> (Advance, Result<(), NetError>) {
        self.stats.ticks += 1;
        self.last_index = Some(tick.index);
        let mut adv = Advance::default();
        if self.refusing.is_some() {
            adv.refused = true;
            return (adv, Ok(()));
        }
        let before = self.frame;
        let outcome = if session.requests_saves() {
            self.attempt(session, local, tick, world, sim)
        } else {
            self.follow(session, tick, world, sim)
        };
        self.queue_confirmed(session.confirmed_frame());
        self.stats.frames_behind = self.frames_behind(session);
        let fresh = self.frame == before + 1;
        if fresh {
            adv.advanced = 1;
            self.stats.frames += 1;
        } else {
            adv.refused = true;
            self.stats.refusals += 1;
        }
        adv.resimulated = outcome.as_ref().map_or(0, |n| n - u32::from(fresh));
        (adv, outcome.map(|_| ()))
    }

    fn attempt<S: Session<C>>(
        &mut self,
        session: &mut S,
        local: &[(PlayerHandle, C::Input)],
        tick: &Tick,
        world: &mut W,
        sim: &mut impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> Result<u32, NetError> {
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
        self.handle(requests, world, Some(tick), sim)
    }

    /// One frame of a follower (its session asks for no saves, every frame it hands out is
    /// new): the next frame it handed out, saved first so that its checksum is there as for a
    /// player. Frames beyond the first wait for the next ticks.
    fn follow<S: Session<C>>(
        &mut self,
        session: &mut S,
        tick: &Tick,
        world: &mut W,
        sim: &mut impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> Result<u32, NetError> {
        if self.spare.is_empty() && !self.too_far {
            match session.advance_frame() {
                Ok(requests) => {
                    for request in requests {
                        let GgrsRequest::AdvanceFrame { inputs } = request else {
                            return Err(NetError::Ggrs(GgrsError::InvalidRequest {
                                info: "a follower's session asked for a save or a load".into(),
                            }));
                        };
                        self.spare.push_back(inputs);
                    }
                }
                // The host's inputs for the next frame have not arrived (ggrs says
                // PredictionThreshold), or the handshake is not done: the tick is refused.
                Err(GgrsError::PredictionThreshold | GgrsError::NotSynchronized) => {}
                Err(GgrsError::SpectatorTooFarBehind) => {
                    self.too_far = true;
                    return Err(NetError::SpectatorTooFarBehind { frame: self.frame });
                }
                Err(e) => return Err(e.into()),
            }
        }
        let Some(inputs) = self.spare.pop_front() else {
            return Ok(0);
        };
        let _ = self.save(world, self.frame)?;
        self.advance(world, Some(tick), &inputs, sim);
        Ok(1)
    }

    /// Simulates the adapter's frame with `inputs` (recording them for the feed), capturing
    /// first by the core's rule when `tick` is given.
    fn advance(
        &mut self,
        world: &mut W,
        tick: Option<&Tick>,
        inputs: &[(C::Input, InputStatus)],
        sim: &mut impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) {
        if let Some(tick) = tick {
            let _ = Columns::before_update(world, tick);
        }
        if let Some(slot) = usize::try_from(self.frame)
            .ok()
            .and_then(|f| self.inputs.get_mut(f % self.slots))
        {
            slot.0 = self.frame;
            slot.1.clear();
            slot.1.extend_from_slice(inputs);
        }
        sim(world, inputs, self.frame);
        self.frame += 1;
    }

    /// Gives the step's ticks `first ..= last.index` back to the loop, from the last one
    /// back, then drops the frame clock's backlog if the [`Refusal`] says so. Returns the
    /// ticks dropped.
    fn refuse_step<T>(
        &mut self,
        state: &mut LoopState<T>,
        last: &Tick,
        first: u64,
    ) -> Result<u32, NetError> {
        for index in (first..=last.index).rev() {
            if let Err(e) = state.refuse(last.clock, index) {
                self.stats.lost += index - first + 1;
                return Err(NetError::Clock(e));
            }
            self.stats.refused += 1;
        }
        let Some(before) = state.clock(self.clock).ok().map(|c| c.stats()) else {
            return Ok(0);
        };
        if !self.refusal.drops(before.pending) {
            return Ok(0);
        }
        state
            .clock_mut(self.clock)
            .map_err(|e| NetError::Clock(e.into()))?
            .reset_grid();
        let after = state
            .clock(self.clock)
            .ok()
            .map(|c| c.stats())
            .map_or(before.ticks_dropped, |c| c.ticks_dropped);
        let dropped = after.saturating_sub(before.ticks_dropped);
        self.stats.dropped += dropped;
        Ok(u32::try_from(dropped).unwrap_or(u32::MAX))
    }

    /// Answers ggrs's requests in order, without allocating: saves into the ring, loads from
    /// it, runs `sim` for each `AdvanceFrame`. Before the `AdvanceFrame` that simulates the
    /// adapter's next frame (the one after any re-simulation), the capture rule runs for
    /// `tick`: [`Columns::before_update`](tickfold_core::Columns::before_update). Returns how
    /// many frames were simulated. [`update`](Rollback::update) calls this; call it yourself
    /// to drive a session by hand (with `None`, nothing is captured).
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
        tick: Option<&Tick>,
        sim: &mut impl FnMut(&mut W, &[(C::Input, InputStatus)], Frame),
    ) -> Result<u32, NetError> {
        let next = self.frame;
        let mut advances = 0;
        for request in requests {
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
                    let capture = tick.filter(|_| self.frame == next);
                    self.advance(world, capture, &inputs, sim);
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
        self.confirmed = confirmed_frame;
        self.queue_feed();
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

    /// Queues the inputs of frames newly confirmed and simulated for followers, once a
    /// handover started the feed.
    fn queue_feed(&mut self) {
        let Some(mut next) = self.feed_next else {
            return;
        };
        let upto = self.confirmed.min(self.frame - 1);
        while next <= upto {
            match self.frame_inputs(next) {
                Some(inputs) if self.feed.len() < FEED_LIMIT => self.feed.push_back(inputs),
                _ => self.stats.feed_missed += 1,
            }
            next += 1;
        }
        self.feed_next = Some(next);
    }

    /// The inputs `frame` was last simulated with, while the record holds them, as a
    /// follower takes them (final once the frame is confirmed).
    pub(crate) fn frame_inputs(&self, frame: Frame) -> Option<FrameInputs<C::Input>> {
        let (_, inputs) = usize::try_from(frame)
            .ok()
            .and_then(|f| self.inputs.get(f % self.slots))
            .filter(|slot| slot.0 == frame)?;
        Some(FrameInputs {
            frame,
            inputs: inputs
                .iter()
                .map(|&(i, s)| (i, s == InputStatus::Disconnected))
                .collect(),
        })
    }

    /// Hands out the final inputs of each newly confirmed frame, once, in order, from the
    /// frame of the first [`handover`](Rollback::handover) on (nothing before it): send them
    /// to every follower on the game's own reliable channel, whose [`Feed`](crate::Feed)
    /// takes them. Call it after every step; past 1,024 undrained frames the newest are
    /// counted in [`RollbackStats::feed_missed`] instead (and followers stop at the gap).
    pub fn drain_feed(&mut self, mut f: impl FnMut(FrameInputs<C::Input>)) {
        while let Some(frame) = self.feed.pop_front() {
            f(frame);
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
