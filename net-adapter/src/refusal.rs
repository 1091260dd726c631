//! What happens to a tick ggrs refuses, and what one update did.

/// What happens to ticks ggrs refuses (the session reached its prediction window, or is not
/// synchronised yet, or failed): the tick did not happen, so the adapter gives it back to the
/// fold with [`LoopState::refuse`](tickfold_core::LoopState::refuse), and the fold's own
/// accounting ([`ClockStats`](tickfold_core::ClockStats)) says what became of it.
///
/// A refused tick takes the rest of its step with it: the step's later ticks of the frame
/// clock cannot run before it, so the adapter refuses them too, without asking the session,
/// from the last one back (as `LoopState::refuse` requires) once the step's last tick of the
/// frame clock ([`Tick::last_in_step`](tickfold_core::Tick::last_in_step)) is handed over.
/// Then the policy applies:
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// The refused ticks stay due and run again at the next step, with the same numbers (the
    /// fold's per-step cap and max frame delta bound the catch-up, as for any backlog). Once
    /// more than `max_owed` ticks of the frame clock are due and not run after a refusal, the
    /// fold drops that whole backlog with
    /// [`ClockMut::reset_grid`](tickfold_core::ClockMut::reset_grid): it is reported as
    /// [`Event::DroppedTicks`](tickfold_core::Event::DroppedTicks) at the next step and counted
    /// in `ticks_dropped`, and the frame clock's grid restarts at the step's time.
    Retry {
        /// The most frame-clock ticks left due after a refusal; past that they are dropped.
        max_owed: u32,
    },
    /// The refused ticks are dropped at once: the frame clock's backlog is dropped with
    /// [`ClockMut::reset_grid`](tickfold_core::ClockMut::reset_grid) after every refusal, so
    /// the game falls behind the fold's clock by the ticks ggrs refused.
    Drop,
}

impl Default for Refusal {
    /// Retry up to 8 ticks (ggrs's default prediction window).
    fn default() -> Refusal {
        Refusal::Retry { max_owed: 8 }
    }
}

impl Refusal {
    /// Whether the frame clock's backlog is dropped when `pending` ticks are due and not run
    /// after a refusal.
    pub(crate) fn drops(self, pending: u64) -> bool {
        match self {
            Refusal::Retry { max_owed } => pending > u64::from(max_owed),
            Refusal::Drop => true,
        }
    }
}

/// What one call of [`Rollback::update`](crate::Rollback::update) did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct Advance {
    /// New frames simulated: 1, or 0 when the tick was refused.
    pub advanced: u32,
    /// Frames re-simulated after a rollback in this call (the depth of the rollback). When it
    /// is not 0 the state drawn next may jump: the blend is between corrected states, but the
    /// frame drawn before was a mispredicted one; a game may smooth over that.
    pub resimulated: u32,
    /// Whether the tick was refused: ggrs did not advance it, or an earlier tick of its step
    /// was refused (see [`Refusal`]).
    pub refused: bool,
    /// Ticks the fold dropped in this call (see [`Refusal`]).
    pub dropped: u32,
}

/// Totals since the adapter was made.
///
/// After each step's last tick of the frame clock, `ticks == frames + refused + lost`; with an
/// adapter made with the loop, `frames` is the frame clock's
/// [`ClockStats::ticks_run`](tickfold_core::ClockStats::ticks_run), `refused` its
/// `ticks_refused` and, for a player, `frames` the session's current frame (see
/// [`Rollback::frame`](crate::Rollback::frame)). A late joiner's counts start at its
/// handover ([`Rollback::join`](crate::Rollback::join)): its `frames` are the frames it ran
/// since.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RollbackStats {
    /// Frame-clock ticks the fold gave the adapter (a refused tick that runs again counts
    /// again).
    pub ticks: u64,
    /// New frames simulated.
    pub frames: u64,
    /// Ticks given back to the fold with
    /// [`LoopState::refuse`](tickfold_core::LoopState::refuse).
    pub refused: u64,
    /// Ticks the fold dropped at the adapter's request (see [`Refusal`]).
    pub dropped: u64,
    /// Ticks ggrs did not advance (it refused, or failed): each is refused, with the step's
    /// later ticks of the frame clock.
    pub refusals: u64,
    /// Ticks that did not run and could not be given back to the fold: the shell stopped
    /// handing over a step's ticks after an error, or the loop would not take a refusal
    /// ([`NetError::Clock`](crate::NetError::Clock)). The fold counts them as run; the game
    /// never ran them.
    pub lost: u64,
    /// Rollbacks (loads).
    pub rollbacks: u64,
    /// Frames re-simulated in all.
    pub resimulated: u64,
    /// The deepest rollback, in frames.
    pub max_depth: u32,
    /// Saves into the ring.
    pub saves: u64,
    /// Confirmed frames whose checksum was handed out by
    /// [`Rollback::drain_confirmed`](crate::Rollback::drain_confirmed).
    pub confirmed_logged: u64,
    /// Confirmed frames whose checksum could not be queued (the queue of 64 was full, or the
    /// frame had left the ring): drain every step.
    pub confirmed_missed: u64,
    /// Desyncs ggrs reported.
    pub desyncs: u64,
    /// Peers that disconnected.
    pub disconnects: u64,
    /// The latest frames-ahead figure read by
    /// [`Rollback::poll_events`](crate::Rollback::poll_events).
    pub frames_ahead: i32,
    /// A follower's frames whose final inputs it holds and has not run, after its latest
    /// update: its session's [`Session::frames_behind`](crate::Session::frames_behind) and
    /// the frames the adapter keeps for the next ticks (0 for a player). A
    /// [`CatchUp`](crate::CatchUp) reads it.
    pub frames_behind: usize,
    /// Confirmed frames whose inputs could not be queued for followers (the queue of 1,024
    /// was full, or the frame had left the ring): drain [`Rollback::drain_feed`](crate::Rollback::drain_feed) every step.
    pub feed_missed: u64,
}
