//! What a replay saves of a run: [`Rewind`], a world's own save and load, and [`Keyframe`],
//! one periodic save of the loop and the world. A leaf: the recorder writes keyframes, the
//! player and the replay file read them.

use tickfold_core::{LoopState, Nanos};

/// A world a replay can save and load: the periodic saves of [`Recorder::with_saves`]
/// (`crate::Recorder::with_saves`) and what a [`Player`](crate::Player) loads when it seeks.
///
/// The world need not be `Clone`: `save` writes what the world needs to go on exactly (for a
/// hecs world, its components and its trackers' saves, the hecs adapter's `SavedTracker`s),
/// `load` builds a fresh world from it. For a replay file, `Save` is what serde writes
/// (feature `serde`). The same save and load bring the world to the determinism checks that
/// clone it: [`ThroughSave::rewind`](crate::ThroughSave::rewind).
///
/// [`Recorder::with_saves`]: crate::Recorder::with_saves
///
/// # Examples
///
/// A world that is `Clone` saves itself:
///
/// ```
/// use tickfold_testing::Rewind;
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Ball { y: f64, vy: f64 }
///
/// impl Rewind for Ball {
///     type Save = Ball;
///     type Error = core::convert::Infallible;
///     fn save(&self) -> Ball { self.clone() }
///     fn load(save: &Ball) -> Result<Ball, Self::Error> { Ok(save.clone()) }
/// }
/// let ball = Ball { y: 1.0, vy: 0.5 };
/// assert_eq!(Ball::load(&ball.save()), Ok(ball));
/// ```
pub trait Rewind: Sized {
    /// What a keyframe holds of the world.
    type Save;
    /// Why [`load`](Rewind::load) refused a save.
    type Error;
    /// The world as a save, between two steps (after a step's updates).
    fn save(&self) -> Self::Save;
    /// A fresh world from a save: it must go on exactly as the saved one would.
    ///
    /// # Errors
    ///
    /// Your own, for a save your world cannot be built from.
    fn load(save: &Self::Save) -> Result<Self, Self::Error>;
}

/// One periodic save of a [`Recording`](crate::Recording): the recorded loop's [`LoopState`] and the world's
/// [`Rewind::Save`] after `step` steps (0: before the first).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Keyframe<W> {
    pub(crate) step: usize,
    #[cfg_attr(feature = "serde", serde(rename = "state"))]
    pub(crate) loop_state: LoopState<Nanos>,
    pub(crate) world: W,
}

impl<W> Keyframe<W> {
    /// The number of recorded steps folded before this save.
    #[must_use]
    pub fn step(&self) -> usize {
        self.step
    }

    /// The recorded loop as it was after those steps.
    #[must_use]
    pub fn loop_state(&self) -> &LoopState<Nanos> {
        &self.loop_state
    }

    /// The world's save.
    #[must_use]
    pub fn world(&self) -> &W {
        &self.world
    }
}
