//! Typed errors and events of a rollback session.

use core::fmt;

use ggrs::{Frame, GgrsError, GgrsEvent};
use tickfold_core::{ClockId, RefuseError};

/// Why a frame could not be handled. Nothing here panics: each case is a value the game decides
/// about (log it, end the match, resynchronise).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetError {
    /// ggrs asked to load a frame the ring no longer holds (or never saved): the ring is too
    /// short for the session's prediction window, or a save was skipped. The state is untouched.
    FrameNotInRing {
        /// The frame ggrs asked for.
        frame: Frame,
    },
    /// ggrs asked to save or load a frame the adapter did not expect: the adapter and the
    /// session disagree on the current frame (requests were handled out of order or dropped).
    FrameMismatch {
        /// The frame ggrs named.
        requested: Frame,
        /// The frame the adapter was at.
        expected: Frame,
    },
    /// A sync test re-simulated frames and got other checksums than the first time: the
    /// simulation is not deterministic (it reads something outside the saved state).
    Mismatch {
        /// The frame the session was at when it compared.
        current_frame: Frame,
        /// The first frame whose checksum differed.
        first_frame: Frame,
        /// How many frames in the checked window differed.
        frames: usize,
    },
    /// Any other error ggrs returned (an invalid player handle, a missing local input).
    Ggrs(GgrsError),
    /// A tick of another clock than the adapter's frame clock: only the frame clock's ticks
    /// are frames. Nothing ran and nothing changed (the session, the world, the adapter's
    /// counts): run that clock's systems yourself.
    NotFrameClock {
        /// The tick's clock.
        clock: ClockId,
        /// The tick's number.
        index: u64,
        /// The adapter's frame clock ([`Rollback::frame_clock`](crate::Rollback::frame_clock)).
        frame_clock: ClockId,
    },
    /// The loop refused a control the adapter made on the frame clock: a refused tick could
    /// not go back ([`LoopState::refuse`](tickfold_core::LoopState::refuse): the loop was
    /// stepped, or a control moved the frame clock's grid, between the step and the tick's
    /// update), or the frame clock is not the loop's. The ticks not given back are counted in
    /// [`RollbackStats::lost`](crate::RollbackStats::lost).
    Clock(RefuseError),
    /// A spectator fell further behind the host than ggrs buffers (60 frames, about a second):
    /// the host's inputs for `frame` are gone, so its ggrs session can never advance again.
    /// Reported once, by the update whose tick found it; the adapter stops asking that session
    /// and refuses the frame clock's ticks as [`Refusal`](crate::Refusal) says. Follow again
    /// from a save of the host ([`Rollback::handover`](crate::Rollback::handover)).
    SpectatorTooFarBehind {
        /// The frame the spectator needed next.
        frame: Frame,
    },
    /// A [`Feed`](crate::Feed) was handed the inputs of another frame than the next one it
    /// lacks: a message was lost or reordered on the way (the feed needs a reliable, ordered
    /// channel). Nothing was queued.
    FeedGap {
        /// The frame the feed needed next.
        expected: Frame,
        /// The frame it was handed.
        got: Frame,
    },
    /// A [`Handover`](crate::Handover) loaded into the world does not give the checksum the
    /// host saved for its frame: the two worlds are built differently (another game version,
    /// other buffer sizes). The world holds the loaded values; do not follow from it.
    HandoverMismatch {
        /// The handed-over frame.
        frame: Frame,
        /// The host's checksum.
        expected: u64,
        /// The checksum of the loaded world.
        got: u64,
    },
}

impl From<GgrsError> for NetError {
    fn from(e: GgrsError) -> NetError {
        match e {
            GgrsError::MismatchedChecksum {
                current_frame,
                mismatched_frames,
            } => NetError::Mismatch {
                current_frame,
                first_frame: mismatched_frames
                    .iter()
                    .copied()
                    .min()
                    .unwrap_or(current_frame),
                frames: mismatched_frames.len(),
            },
            other => NetError::Ggrs(other),
        }
    }
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::FrameNotInRing { frame } => {
                write!(f, "frame {frame} is not in the snapshot ring")
            }
            NetError::FrameMismatch {
                requested,
                expected,
            } => write!(
                f,
                "ggrs named frame {requested} where the adapter was at frame {expected}"
            ),
            NetError::Mismatch {
                current_frame,
                first_frame,
                frames,
            } => write!(
                f,
                "checksum mismatch from frame {first_frame} ({frames} frames) found at frame \
                 {current_frame}: the simulation is not deterministic"
            ),
            NetError::Ggrs(e) => write!(f, "ggrs: {e}"),
            NetError::NotFrameClock {
                clock,
                index,
                frame_clock,
            } => write!(
                f,
                "tick {index} of clock {} is not a frame: frames come from clock {}",
                clock.0, frame_clock.0
            ),
            NetError::Clock(e) => write!(f, "the loop refused the adapter's control: {e}"),
            NetError::SpectatorTooFarBehind { frame } => write!(
                f,
                "the spectator fell too far behind the host: its inputs for frame {frame} are \
                 gone; follow again from a handover"
            ),
            NetError::FeedGap { expected, got } => write!(
                f,
                "the feed needs frame {expected} next and was handed frame {got}"
            ),
            NetError::HandoverMismatch {
                frame,
                expected,
                got,
            } => write!(
                f,
                "the handover of frame {frame} loads with checksum {got:#018x}, the host saved \
                 {expected:#018x}"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// What a P2P session reported, as plain values (see [`Rollback::poll_events`]).
///
/// [`Rollback::poll_events`]: crate::Rollback::poll_events
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetEvent<A> {
    /// The handshake with `addr` progressed: `count` of `total` round trips done.
    Synchronizing {
        /// The peer.
        addr: A,
        /// Round trips needed.
        total: u32,
        /// Round trips done.
        count: u32,
    },
    /// The handshake with `addr` is complete.
    Synchronized {
        /// The peer.
        addr: A,
    },
    /// `addr` stopped answering and its timeout ran out: its players are disconnected, their
    /// inputs arrive as [`ggrs::InputStatus::Disconnected`] and the session keeps running.
    Disconnected {
        /// The peer.
        addr: A,
    },
    /// Nothing arrived from `addr` for a while; it is disconnected after `timeout_ms` more.
    Interrupted {
        /// The peer.
        addr: A,
        /// Milliseconds until the disconnect.
        timeout_ms: u128,
    },
    /// Packets from `addr` arrive again.
    Resumed {
        /// The peer.
        addr: A,
    },
    /// ggrs recommends waiting: this peer is `frames` frames ahead (see [`TimeSync`]).
    ///
    /// [`TimeSync`]: crate::TimeSync
    WaitRecommendation {
        /// Frames ahead, as ggrs measured them.
        frames: u32,
    },
    /// The peers computed different states for one confirmed frame.
    Desync {
        /// The frame.
        frame: Frame,
        /// This peer's checksum.
        local: u128,
        /// The other peer's checksum.
        remote: u128,
        /// The other peer.
        addr: A,
    },
}

impl<A, C: ggrs::Config<Address = A>> From<GgrsEvent<C>> for NetEvent<A> {
    fn from(e: GgrsEvent<C>) -> NetEvent<A> {
        match e {
            GgrsEvent::Synchronizing { addr, total, count } => {
                NetEvent::Synchronizing { addr, total, count }
            }
            GgrsEvent::Synchronized { addr } => NetEvent::Synchronized { addr },
            GgrsEvent::Disconnected { addr } => NetEvent::Disconnected { addr },
            GgrsEvent::NetworkInterrupted {
                addr,
                disconnect_timeout,
            } => NetEvent::Interrupted {
                addr,
                timeout_ms: disconnect_timeout,
            },
            GgrsEvent::NetworkResumed { addr } => NetEvent::Resumed { addr },
            GgrsEvent::WaitRecommendation { skip_frames } => NetEvent::WaitRecommendation {
                frames: skip_frames,
            },
            GgrsEvent::DesyncDetected {
                frame,
                local_checksum,
                remote_checksum,
                addr,
            } => NetEvent::Desync {
                frame,
                local: local_checksum,
                remote: remote_checksum,
                addr,
            },
        }
    }
}
