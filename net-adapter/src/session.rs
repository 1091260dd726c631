//! The ggrs side: the configuration, the token ggrs keeps per saved frame, and the calls the
//! adapter makes on a session.

use core::fmt;
use core::hash::Hash;
use core::marker::PhantomData;
use std::net::SocketAddr;

use ggrs::{
    Config, Frame, GgrsError, GgrsRequest, P2PSession, PlayerHandle, PredictRepeatLast,
    SpectatorSession, SyncTestSession,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What ggrs keeps in its own cells for a saved frame: the frame and its checksum, 16 bytes.
/// The state itself stays in the adapter's ring, so nothing is cloned per frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Saved {
    /// The frame saved.
    pub frame: Frame,
    /// Its checksum (the ring's XXH3-64).
    pub checksum: u64,
}

/// A ready-made [`ggrs::Config`]: input `I`, addresses `A`, ggrs's state a [`Saved`] token,
/// inputs predicted by repeating the last one.
pub struct GgrsConfig<I, A = SocketAddr>(PhantomData<fn() -> (I, A)>);

impl<I, A> fmt::Debug for GgrsConfig<I, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GgrsConfig")
    }
}

impl<I, A> Config for GgrsConfig<I, A>
where
    I: Copy + PartialEq + Default + Serialize + DeserializeOwned + 'static,
    A: Clone + PartialEq + Eq + Hash + fmt::Debug + 'static,
{
    type Input = I;
    type InputPredictor = PredictRepeatLast;
    type State = Saved;
    type Address = A;
}

/// The calls the adapter makes on a ggrs session: implemented for the players'
/// [`P2PSession`], the [`SyncTestSession`], and for the sessions that only follow a match,
/// ggrs's [`SpectatorSession`] and the adapter's own [`Feed`](crate::Feed) (a late joiner's).
///
/// A follower never predicts, so it never rolls back and ggrs asks it for no saves: for such a
/// session ([`requests_saves`](Session::requests_saves) is `false`) the adapter saves each
/// frame into the ring itself, before simulating it, so that its checksums are there as for a
/// player.
pub trait Session<C: Config> {
    /// Queues a local player's input for the current frame.
    ///
    /// # Errors
    ///
    /// As the session's `add_local_input`.
    fn add_local_input(&mut self, handle: PlayerHandle, input: C::Input) -> Result<(), GgrsError>;
    /// Asks the session for the requests of one frame.
    ///
    /// # Errors
    ///
    /// As the session's `advance_frame`.
    fn advance_frame(&mut self) -> Result<Vec<GgrsRequest<C>>, GgrsError>;
    /// The latest frame whose inputs are final for every player still connected.
    fn confirmed_frame(&self) -> Frame;
    /// Whether the session asks for saves (`SaveGameState`): `true` for players and the sync
    /// test, `false` for followers, which the adapter saves itself.
    fn requests_saves(&self) -> bool {
        true
    }
    /// Frames whose final inputs the session holds and has not handed out yet: how far a
    /// follower is behind what it could run (ggrs's
    /// [`frames_behind_host`](SpectatorSession::frames_behind_host)); 0 for players.
    fn frames_behind(&self) -> usize {
        0
    }
}

impl<C: Config> Session<C> for P2PSession<C> {
    fn add_local_input(&mut self, handle: PlayerHandle, input: C::Input) -> Result<(), GgrsError> {
        P2PSession::add_local_input(self, handle, input)
    }
    fn advance_frame(&mut self) -> Result<Vec<GgrsRequest<C>>, GgrsError> {
        P2PSession::advance_frame(self)
    }
    fn confirmed_frame(&self) -> Frame {
        P2PSession::confirmed_frame(self)
    }
}

impl<C: Config> Session<C> for SyncTestSession<C> {
    fn add_local_input(&mut self, handle: PlayerHandle, input: C::Input) -> Result<(), GgrsError> {
        SyncTestSession::add_local_input(self, handle, input)
    }
    fn advance_frame(&mut self) -> Result<Vec<GgrsRequest<C>>, GgrsError> {
        SyncTestSession::advance_frame(self)
    }
    fn confirmed_frame(&self) -> Frame {
        // Frames older than the check distance are never re-simulated again.
        let distance = Frame::try_from(self.check_distance()).unwrap_or(Frame::MAX);
        self.current_frame()
            .saturating_sub(distance)
            .saturating_sub(1)
    }
}

/// A ggrs spectator: it receives the host's confirmed inputs and never sends any. Every
/// `AdvanceFrame` it returns is a new frame, run one per tick of the frame clock (see
/// [`Rollback`](crate::Rollback)); catching up is the loop's business ([`CatchUp`](crate::CatchUp)),
/// so leave ggrs's `with_catchup_speed` at 1, its default.
impl<C: Config> Session<C> for SpectatorSession<C> {
    fn add_local_input(&mut self, _: PlayerHandle, _: C::Input) -> Result<(), GgrsError> {
        Err(GgrsError::InvalidRequest {
            info: "a spectator has no local players".into(),
        })
    }
    fn advance_frame(&mut self) -> Result<Vec<GgrsRequest<C>>, GgrsError> {
        SpectatorSession::advance_frame(self)
    }
    fn confirmed_frame(&self) -> Frame {
        // Every frame it was handed is final.
        self.current_frame()
    }
    fn requests_saves(&self) -> bool {
        false
    }
    fn frames_behind(&self) -> usize {
        self.frames_behind_host()
    }
}
