//! One peer of the rollback game: its own `LoopState`, a ggrs P2P session, the adapter, time
//! sync, and a log of confirmed checksums: the shell of the facade's `examples/rollback.rs` and
//! of this crate's tests.

use std::net::SocketAddr;
use std::time::Duration;

use ggrs::{
    DesyncDetection, Frame, GgrsError, NonBlockingSocket, P2PSession, PlayerType, SessionBuilder,
    SessionState,
};
use tickfold_core::{ClockConfig, ClockStats, LoopConfig, LoopState, Nanos, Period};

use crate::{FrameInputs, NetError, NetEvent, Refusal, Rollback, TimeSync};

use super::game::{self, Config, Game, GameHandover, Input};

/// How a peer's session is set up.
#[derive(Copy, Clone, Debug)]
pub struct PeerOptions {
    /// ggrs's prediction window (and the ring's frames, one more).
    pub max_prediction: usize,
    /// ggrs's input delay, in frames.
    pub input_delay: usize,
    /// What becomes of the ticks ggrs refuses.
    pub refusal: Refusal,
    /// ggrs's disconnect timeout.
    pub disconnect_timeout: Duration,
    /// ggrs's delay before it warns of a disconnect.
    pub disconnect_notify: Duration,
    /// Whether [`TimeSync`] slows the loop of a peer that runs ahead.
    pub time_sync: bool,
    /// A second clock beside the 60 Hz frame clock (the loop's main clock): its ticks are
    /// not frames, the peer counts them as the game's other systems would run them.
    pub second_clock: Option<Period>,
    /// A ggrs spectator this peer hosts (its handle is 2): the host's session forwards its
    /// confirmed inputs there, and starts only once the spectator answered too.
    pub spectator: Option<SocketAddr>,
}

impl Default for PeerOptions {
    fn default() -> PeerOptions {
        PeerOptions {
            max_prediction: 8,
            input_delay: 2,
            refusal: Refusal::default(),
            disconnect_timeout: Duration::from_secs(2),
            disconnect_notify: Duration::from_millis(500),
            time_sync: true,
            second_clock: None,
            spectator: None,
        }
    }
}

/// One peer: player 0 or 1, its session, adapter, world and loop, and what it logged.
pub struct Peer {
    /// Its player handle.
    pub handle: usize,
    /// Its ggrs session.
    pub session: P2PSession<Config>,
    /// The adapter.
    pub rollback: Rollback<Config, Game>,
    /// The world.
    pub game: Game,
    /// Its loop, made at the first step after the handshake.
    pub state: Option<LoopState>,
    /// Its time sync.
    pub sync: TimeSync,
    /// Whether time sync is on.
    pub time_sync: bool,
    /// Every confirmed frame's checksum, logged when the frame is confirmed.
    pub confirmed: Vec<(Frame, u64)>,
    /// Every event of the session.
    pub events: Vec<NetEvent<SocketAddr>>,
    /// (frame, frames ahead), one sample per 60 frames.
    pub ahead: Vec<(Frame, i32)>,
    /// Rollback depths seen (frames re-simulated per update that rolled back).
    pub depths: Vec<u32>,
    /// Frame-clock ticks refused (each runs again later with the same number).
    pub refused: u64,
    /// Every frame-clock tick handed to the adapter: its number, and whether it ran.
    pub log: Vec<(u64, bool)>,
    /// Ticks of the second clock run.
    pub other_ticks: u64,
    /// Steps whose last frame-clock tick ran: the steps the capture rule captures in.
    pub captured_steps: u64,
    /// The confirmed inputs queued for late joiners since the first [`handover`](Peer::handover)
    /// (the host's outbox: a test hands them to each joiner's feed and clears it).
    pub feed: Vec<FrameInputs<Input>>,
    second_clock: Option<Period>,
    next_sample: Frame,
}

impl Peer {
    /// Player `handle` (0 or 1) on `socket`, playing against `remote`.
    ///
    /// # Errors
    ///
    /// ggrs's, when it refuses the session's settings; the ring's, as [`Rollback::new`].
    pub fn new(
        handle: usize,
        socket: impl NonBlockingSocket<SocketAddr> + 'static,
        remote: SocketAddr,
        opts: PeerOptions,
    ) -> Result<Peer, Box<dyn std::error::Error>> {
        let mut builder = SessionBuilder::<Config>::new()
            .with_num_players(2)?
            .with_max_prediction_window(opts.max_prediction)
            .with_input_delay(opts.input_delay)
            .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
            .with_disconnect_timeout(opts.disconnect_timeout)
            .with_disconnect_notify_delay(opts.disconnect_notify)
            .add_player(PlayerType::Local, handle)?
            .add_player(PlayerType::Remote(remote), 1 - handle)?;
        if let Some(addr) = opts.spectator {
            builder = builder.add_player(PlayerType::Spectator(addr), 2)?;
        }
        let session = builder.start_p2p_session(socket)?;
        let game = Game::new();
        let rollback = Rollback::new(&game, opts.max_prediction, opts.refusal)?;
        Ok(Peer {
            handle,
            session,
            rollback,
            game,
            state: None,
            sync: TimeSync::new(),
            time_sync: opts.time_sync,
            confirmed: Vec::new(),
            events: Vec::new(),
            ahead: Vec::new(),
            depths: Vec::new(),
            refused: 0,
            log: Vec::new(),
            other_ticks: 0,
            captured_steps: 0,
            feed: Vec::new(),
            second_clock: opts.second_clock,
            next_sample: 0,
        })
    }

    /// Whether the handshake is done.
    #[must_use]
    pub fn running(&self) -> bool {
        self.session.current_state() == SessionState::Running
    }

    /// Polls the network and reads events without stepping the loop (during the handshake,
    /// or to start this peer's loop later than the other's).
    pub fn poll(&mut self) {
        self.session.poll_remote_clients();
        let events = &mut self.events;
        self.rollback
            .poll_events(&mut self.session, |e| events.push(e));
    }

    /// One frame of the shell at `now`: poll the network, read events, adjust the time scale,
    /// step the fold and run each tick as a ggrs frame, then log newly confirmed checksums.
    /// The loop starts at the first `now` after the handshake.
    ///
    /// # Errors
    ///
    /// The adapter's, as [`Rollback::update`].
    pub fn step(&mut self, now: Nanos) -> Result<(), NetError> {
        self.session.poll_remote_clients();
        let mut recommended = false;
        let events = &mut self.events;
        self.rollback.poll_events(&mut self.session, |e| {
            recommended |= matches!(e, NetEvent::WaitRecommendation { .. });
            events.push(e);
        });
        if !self.running() {
            return Ok(());
        }
        let state = match &mut self.state {
            Some(state) => state,
            None => {
                let invalid =
                    |info: &str| NetError::Ggrs(GgrsError::InvalidRequest { info: info.into() });
                let mut config =
                    LoopConfig::new(Period::from_hz(60).map_err(|_| invalid("60 Hz"))?);
                if let Some(rate) = self.second_clock {
                    config = config.clock(ClockConfig::new("second", rate));
                }
                let state = LoopState::new(config, now).map_err(|_| invalid("loop config"))?;
                self.state.insert(state)
            }
        };
        if self.time_sync {
            if recommended {
                if let Some(scale) = self.sync.recommend() {
                    state.virtual_time_mut().set_scale(scale);
                }
            }
            let _ = self.sync.apply(self.rollback.stats().frames_ahead, state);
        }
        let events = state.advance(now);
        for tick in events.updates() {
            if tick.clock != self.rollback.frame_clock() {
                self.other_ticks += 1;
                continue;
            }
            let input = game::scripted_input(self.handle, self.rollback.frame());
            let adv = self.rollback.update(
                state,
                &mut self.session,
                &tick,
                &[(self.handle, input)],
                &mut self.game,
                game::step,
            )?;
            if adv.resimulated > 0 {
                self.depths.push(adv.resimulated);
            }
            self.refused += u64::from(adv.refused);
            self.log.push((tick.index, adv.advanced > 0));
            if tick.last_in_step && adv.advanced > 0 {
                self.captured_steps += 1;
            }
        }
        let log = &mut self.confirmed;
        self.rollback.drain_confirmed(|f, sum| log.push((f, sum)));
        let feed = &mut self.feed;
        self.rollback.drain_feed(|inputs| feed.push(inputs));
        let frame = self.rollback.frame();
        if frame >= self.next_sample {
            self.ahead.push((frame, self.session.frames_ahead()));
            self.next_sample = frame + 60;
        }
        Ok(())
    }

    /// The adapter's counts against the loop's, as the contracts say they are: the adapter's
    /// `ticks == frames + refused + lost` with nothing lost, one ggrs frame per frame-clock
    /// tick run, its refusals the loop's, and the accounting identity of every clock.
    ///
    /// # Errors
    ///
    /// What disagrees, in words.
    pub fn check_accounting(&self) -> Result<(), String> {
        let s = self.rollback.stats();
        let mut wrong = Vec::new();
        if s.ticks != s.frames + s.refused + s.lost || s.lost != 0 {
            wrong.push(format!("ticks != frames + refused, or ticks lost: {s:?}"));
        }
        let (session, adapter) = (self.session.current_frame(), self.rollback.frame());
        if session != adapter || u64::try_from(adapter).ok() != Some(s.frames) {
            wrong.push(format!(
                "session frame {session}, adapter frame {adapter}: {s:?}"
            ));
        }
        if let Some(state) = &self.state {
            for c in state
                .clock_names()
                .filter_map(|n| state.clock(n).ok().map(|c| c.stats()))
            {
                if c.ticks_run + c.ticks_dropped + c.pending != c.ticks_due + c.ticks_early {
                    wrong.push(format!("the accounting identity fails: {c:?}"));
                }
            }
            let f = self.frame_clock_stats().unwrap_or_default();
            // The loop may drop ticks of its own (a step longer than the max frame delta).
            if f.ticks_run != s.frames
                || f.ticks_refused != s.refused
                || f.ticks_dropped < s.dropped
            {
                wrong.push(format!("frame clock {f:?} against adapter {s:?}"));
            }
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(wrong.join("; "))
        }
    }

    /// A save for a late joiner ([`Rollback::handover`]): `None` before the loop started or
    /// while no confirmed frame is in the ring. From then on [`step`](Peer::step) queues the
    /// confirmed inputs in [`feed`](Peer::feed).
    pub fn handover(&mut self) -> Option<GameHandover> {
        let state = self.state.as_ref()?;
        self.rollback.handover(state)
    }

    /// The frame clock's accounting (`None` before the handshake).
    #[must_use]
    pub fn frame_clock_stats(&self) -> Option<ClockStats> {
        let clock = self.rollback.frame_clock();
        self.state
            .as_ref()
            .and_then(|s| s.clock(clock).ok().map(|c| c.stats()))
    }
}

/// Confirmed frames both peers logged, and how many of those had equal checksums.
#[must_use]
pub fn compare(a: &[(Frame, u64)], b: &[(Frame, u64)]) -> (usize, usize) {
    let mut common = 0;
    let mut equal = 0;
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                equal += usize::from(a[i].1 == b[j].1);
                i += 1;
                j += 1;
            }
        }
    }
    (common, equal)
}
