//! A late joiner's session: the host's confirmed inputs, handed over on the game's own channel.

use std::collections::VecDeque;

use ggrs::{Config, Frame, GgrsError, GgrsRequest, InputStatus, PlayerHandle};
use serde::{Deserialize, Serialize};

use crate::error::NetError;
use crate::session::Session;

/// The final inputs of one frame, as a host hands them to its followers
/// ([`Rollback::drain_feed`](crate::Rollback::drain_feed)) and a [`Feed`] takes them: plain
/// values, so that they cross any channel through `serde`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FrameInputs<I> {
    /// The frame.
    pub frame: Frame,
    /// Every player's input, player 0 first, and whether that player was disconnected at that
    /// frame (its input is then a dummy, [`InputStatus::Disconnected`]).
    pub inputs: Vec<(I, bool)>,
}

impl<I: Copy> FrameInputs<I> {
    /// The inputs with their status as a follower sees them: confirmed, or disconnected.
    #[must_use]
    pub fn statuses(&self) -> Vec<(I, InputStatus)> {
        self.inputs
            .iter()
            .map(|&(input, gone)| {
                let status = if gone {
                    InputStatus::Disconnected
                } else {
                    InputStatus::Confirmed
                };
                (input, status)
            })
            .collect()
    }
}

/// The adapter's own follower session, for a late joiner: ggrs has no mid-game join (a
/// `SpectatorSession` starts at frame 0 and the host registers its spectators before the match
/// starts), so a newcomer loads a [`Handover`](crate::Handover) from the host and follows the
/// host's confirmed inputs from its frame, [`push`](Feed::push)ed as they arrive.
///
/// It is a [`Session`] like ggrs's `SpectatorSession`: one frame per tick of the frame clock
/// while it holds the next frame's inputs; a tick it cannot run is refused back to the loop
/// (the inputs have not arrived yet); [`frames_behind`](Session::frames_behind) is what it holds
/// and has not run, which a [`CatchUp`](crate::CatchUp) turns into extra ticks.
///
/// The channel must be reliable and ordered (a TCP stream, the game's own relay): a gap is a
/// [`NetError::FeedGap`], never skipped.
///
/// # Examples
///
/// ```
/// use tickfold_ggrs::{FrameInputs, Feed, GgrsConfig, Session};
///
/// let mut feed = Feed::<GgrsConfig<u8>>::new(120); // a handover of frame 120
/// feed.push(FrameInputs { frame: 120, inputs: vec![(3, false), (0, true)] })?;
/// assert_eq!(feed.frames_behind(), 1);
/// let requests = feed.advance_frame()?; // one frame: 120
/// assert_eq!(requests.len(), 1);
/// assert!(feed.advance_frame()?.is_empty()); // 121 has not arrived: the tick is refused
/// assert!(feed.push(FrameInputs { frame: 122, inputs: vec![] }).is_err()); // a gap
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Feed<C: Config> {
    /// The next frame to hand out.
    next: Frame,
    queue: VecDeque<FrameInputs<C::Input>>,
}

impl<C: Config> core::fmt::Debug for Feed<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Feed")
            .field("next", &self.next)
            .field("queued", &self.queue.len())
            .finish()
    }
}

impl<C: Config> Feed<C> {
    /// A feed whose first frame is `frame` (the handover's).
    #[must_use]
    pub fn new(frame: Frame) -> Feed<C> {
        Feed {
            next: frame,
            queue: VecDeque::new(),
        }
    }

    /// The next frame it will hand out.
    #[must_use]
    pub fn next_frame(&self) -> Frame {
        self.next
    }

    /// Queues the inputs of the frame after the last one queued. Frames already run or
    /// queued are ignored (a resent message); `Ok(false)` says so.
    ///
    /// # Errors
    ///
    /// [`NetError::FeedGap`] when frames are missing in between.
    pub fn push(&mut self, inputs: FrameInputs<C::Input>) -> Result<bool, NetError> {
        let expected = self.next + Frame::try_from(self.queue.len()).unwrap_or(Frame::MAX);
        if inputs.frame < expected {
            return Ok(false);
        }
        if inputs.frame > expected {
            return Err(NetError::FeedGap {
                expected,
                got: inputs.frame,
            });
        }
        self.queue.push_back(inputs);
        Ok(true)
    }
}

impl<C: Config> Session<C> for Feed<C> {
    fn add_local_input(&mut self, _: PlayerHandle, _: C::Input) -> Result<(), GgrsError> {
        Err(GgrsError::InvalidRequest {
            info: "a follower has no local players".into(),
        })
    }
    fn advance_frame(&mut self) -> Result<Vec<GgrsRequest<C>>, GgrsError> {
        Ok(match self.queue.pop_front() {
            Some(frame) => {
                self.next += 1;
                vec![GgrsRequest::AdvanceFrame {
                    inputs: frame.statuses(),
                }]
            }
            None => Vec::new(),
        })
    }
    fn confirmed_frame(&self) -> Frame {
        self.next - 1
    }
    fn requests_saves(&self) -> bool {
        false
    }
    fn frames_behind(&self) -> usize {
        self.queue.len()
    }
}
