//! Time sync through the fold: a peer that runs ahead slows its loop by an exact time scale.

use tickfold_core::{LoopState, TimeScale, Timestamp};

/// Slows the loop while this peer runs ahead of the others, so the peers converge without
/// skipping frames (skipping stutters; ggrs's docs prefer slowing down) and without sleeping
/// inside the adapter.
///
/// ggrs's [`frames_ahead`](ggrs::P2PSession::frames_ahead) is an average over 30 frames, and
/// its `WaitRecommendation` event fires at 3 or more frames ahead, at most every 60 frames.
/// `TimeSync` sets the loop's time scale to `slow` (10/11 by default: each tick lasts 11/10
/// as long, as `bevy_ggrs` does) once the peer is `enter` frames ahead or more, and back to 1
/// only once it is `leave` frames ahead or fewer: a dead zone, so the scale does not toggle
/// every frame. The scale is exact (a ratio of integers), so no rounding accumulates.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TimeScale};
/// use tickfold_ggrs::TimeSync;
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// let mut sync = TimeSync::new();
/// assert!(!sync.apply(1, &mut state));                  // inside the dead zone
/// assert!(sync.apply(2, &mut state));                   // ahead: slow down
/// assert_eq!(state.virtual_time().scale(), TimeScale::ratio(10, 11)?);
/// assert!(!sync.apply(1, &mut state));                  // still ahead: hold
/// assert!(sync.apply(0, &mut state));                   // caught up: real time again
/// assert_eq!(state.virtual_time().scale(), TimeScale::ONE);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeSync {
    slow: TimeScale,
    enter: i32,
    leave: i32,
    slowed: bool,
    changes: u64,
}

impl Default for TimeSync {
    fn default() -> TimeSync {
        TimeSync::new()
    }
}

impl TimeSync {
    /// Slow to 10/11 at 2 frames ahead or more, back to 1 at 0 frames ahead or fewer.
    #[must_use]
    pub fn new() -> TimeSync {
        TimeSync {
            slow: TimeScale::ratio(10, 11).unwrap_or(TimeScale::ONE),
            enter: 2,
            leave: 0,
            slowed: false,
            changes: 0,
        }
    }

    /// Another slow scale (below 1 to slow down) and dead zone (`leave < enter`; a `leave` of
    /// `enter` or more is lowered to `enter − 1`).
    #[must_use]
    pub fn with(slow: TimeScale, enter: i32, leave: i32) -> TimeSync {
        TimeSync {
            slow,
            enter,
            leave: leave.min(enter.saturating_sub(1)),
            slowed: false,
            changes: 0,
        }
    }

    /// Feeds the latest frames-ahead figure; returns the scale to set when it changes.
    pub fn observe(&mut self, frames_ahead: i32) -> Option<TimeScale> {
        let slowed = if self.slowed {
            frames_ahead > self.leave
        } else {
            frames_ahead >= self.enter
        };
        (slowed != self.slowed).then(|| {
            self.slowed = slowed;
            self.changes += 1;
            self.scale()
        })
    }

    /// A `WaitRecommendation` arrived: slow down now (until the figure drops to `leave`).
    pub fn recommend(&mut self) -> Option<TimeScale> {
        (!self.slowed).then(|| {
            self.slowed = true;
            self.changes += 1;
            self.slow
        })
    }

    /// [`observe`](TimeSync::observe) and set the new scale on `state`; `true` when it changed.
    pub fn apply<T: Timestamp>(&mut self, frames_ahead: i32, state: &mut LoopState<T>) -> bool {
        self.observe(frames_ahead)
            .map(|scale| {
                state.virtual_time_mut().set_scale(scale);
            })
            .is_some()
    }

    /// The scale in force.
    #[must_use]
    pub fn scale(&self) -> TimeScale {
        if self.slowed {
            self.slow
        } else {
            TimeScale::ONE
        }
    }

    /// Whether the loop is slowed now.
    #[must_use]
    pub fn is_slowed(&self) -> bool {
        self.slowed
    }

    /// How many times the scale changed.
    #[must_use]
    pub fn changes(&self) -> u64 {
        self.changes
    }
}
