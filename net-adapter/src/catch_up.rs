//! Catching up through the fold: a follower that falls behind the host speeds its loop up by an
//! exact time scale, so the extra frames are extra ticks under the loop's own rules.

use ggrs::GgrsError;
use tickfold_core::{LoopState, TimeScale, Timestamp};

/// ggrs buffers this many frames of the host's inputs for a spectator (its
/// `SPECTATOR_BUFFER_SIZE`, a second at 60 Hz); a spectator further behind loses them.
pub const SPECTATOR_BUFFER: usize = 60;

/// Speeds a follower's loop up while it is behind the host, so that it catches up with extra
/// ticks of the frame clock, one frame each, and never with a second loop.
///
/// ggrs's `SpectatorSession` catches up by returning `catchup_speed` frames from one
/// `advance_frame` once it is more than `max_frames_behind` frames behind. On tickfold a frame
/// is a tick, so `CatchUp` keeps those two settings (named as ggrs names them) and applies them
/// to the loop instead: past `max_frames_behind` frames behind
/// ([`Rollback::frames_behind`](crate::Rollback::frames_behind), read before each step) it
/// sets the loop's
/// time scale to `catchup_speed` (exactly: `catchup_speed` ticks come due per tick of real
/// time), and back to 1 once the follower is `max_frames_behind / 2` frames behind or fewer,
/// a dead zone as in [`TimeSync`](crate::TimeSync). The extra ticks obey the fold's rules:
/// the per-step cap runs at most its count per step and reports the rest as
/// [`Event::Deferred`](tickfold_core::Event::Deferred); time past the max frame delta is given
/// up and reported; a tick whose inputs have not arrived is refused back to the loop
/// ([`Refusal`](crate::Refusal)). Nothing is dropped silently. Leave ggrs's own
/// `with_catchup_speed` at 1 (its default) so that each of its calls is one frame. It owns the
/// follower's time scale as [`TimeSync`](crate::TimeSync) owns a player's: a loop has one of
/// them, never both.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TimeScale};
/// use tickfold_ggrs::CatchUp;
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// let mut catch_up = CatchUp::new(10, 2)?;
/// assert!(!catch_up.apply(10, &mut state)); // 10 behind: within the bound
/// assert!(catch_up.apply(11, &mut state)); // past it: twice as many ticks
/// assert_eq!(state.virtual_time().scale(), TimeScale::ratio(2, 1)?);
/// assert!(!catch_up.apply(6, &mut state)); // still catching up
/// assert!(catch_up.apply(5, &mut state)); // caught up: real time again
/// assert_eq!(state.virtual_time().scale(), TimeScale::ONE);
/// assert!(CatchUp::new(60, 2).is_err()); // ggrs buffers only 60 frames
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CatchUp {
    max_frames_behind: usize,
    speed: TimeScale,
    catching_up: bool,
    changes: u64,
}

impl CatchUp {
    /// Catch up at `catchup_speed` times real time once more than `max_frames_behind` frames
    /// behind.
    ///
    /// # Errors
    ///
    /// As ggrs's `with_max_frames_behind` and `with_catchup_speed`: `max_frames_behind` must
    /// be in `1..60` (ggrs buffers 60 frames), `catchup_speed` at least 1 (1 never catches
    /// up, as in ggrs) and at most the largest time scale.
    pub fn new(max_frames_behind: usize, catchup_speed: u32) -> Result<CatchUp, GgrsError> {
        if max_frames_behind == 0 || max_frames_behind >= SPECTATOR_BUFFER {
            return Err(GgrsError::InvalidRequest {
                info: format!(
                    "max_frames_behind must be in 1..{SPECTATOR_BUFFER}, not {max_frames_behind}"
                ),
            });
        }
        let speed = (catchup_speed >= 1)
            .then(|| TimeScale::ratio(catchup_speed, 1).ok())
            .flatten()
            .ok_or_else(|| GgrsError::InvalidRequest {
                info: format!(
                    "catchup_speed must be at least 1 and a valid time scale, not {catchup_speed}"
                ),
            })?;
        Ok(CatchUp {
            max_frames_behind,
            speed,
            catching_up: false,
            changes: 0,
        })
    }

    /// The bound past which it catches up, in frames.
    #[must_use]
    pub fn max_frames_behind(&self) -> usize {
        self.max_frames_behind
    }

    /// The time scale while catching up.
    #[must_use]
    pub fn catchup_speed(&self) -> TimeScale {
        self.speed
    }

    /// Feeds the latest frames-behind figure; returns the scale to set when it changes.
    pub fn observe(&mut self, frames_behind: usize) -> Option<TimeScale> {
        let catching_up = if self.catching_up {
            frames_behind > self.max_frames_behind / 2
        } else {
            frames_behind > self.max_frames_behind
        };
        (catching_up != self.catching_up).then(|| {
            self.catching_up = catching_up;
            self.changes += 1;
            self.scale()
        })
    }

    /// [`observe`](CatchUp::observe) and set the new scale on `state`; `true` when it changed.
    pub fn apply<T: Timestamp>(&mut self, frames_behind: usize, state: &mut LoopState<T>) -> bool {
        self.observe(frames_behind)
            .map(|scale| {
                state.virtual_time_mut().set_scale(scale);
            })
            .is_some()
    }

    /// The scale in force.
    #[must_use]
    pub fn scale(&self) -> TimeScale {
        if self.catching_up {
            self.speed
        } else {
            TimeScale::ONE
        }
    }

    /// Whether it is catching up now.
    #[must_use]
    pub fn is_catching_up(&self) -> bool {
        self.catching_up
    }

    /// How many times the scale changed.
    #[must_use]
    pub fn changes(&self) -> u64 {
        self.changes
    }
}
