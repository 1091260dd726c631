//! [`ThroughSave`]: a world that is not `Clone` (a hecs `World` with its trackers), brought to the
//! checks that clone their state by cloning it through its own save and load.

use core::fmt;
use core::ops::{Deref, DerefMut};
use std::rc::Rc;

use super::KitError;
use crate::keyframe::Rewind;

/// A save and a load, composed: the world loaded from the world's save, or why not.
type RoundTrip<W> = dyn Fn(&W) -> Result<W, String>;

/// A world cloned through its save and load, and compared by a fingerprint: `Clone`,
/// `PartialEq` and `Debug` for a world that has none of them, so that it reaches
/// [`ReadingSim`](super::ReadingSim), [`FrameSim`](super::FrameSim) or [`Sim`](super::Sim)
/// with the save and load the game already has.
///
/// * `Clone` saves the world with `save` and loads the copy with `load` (serde with any format,
///   or plain Rust values: the kit sees only the two functions);
/// * `==` compares `fingerprint(&world)`: hash the gameplay state and what a render draws at a
///   fixed alpha, and leave out what legitimately depends on the frames (a tracker's capture
///   counters, its `Stats` and `Epoch`, count steps);
/// * `Debug` prints the fingerprint, so a failed check names both;
/// * it dereferences to the world, so an update written for the world runs on it unchanged.
///
/// [`new`](ThroughSave::new) clones the world once and refuses a save that loses something: the
/// loaded world must have the world's fingerprint.
///
/// [`WorldSim`](super::WorldSim) needs none of this for an update that sees only the tick: it
/// builds a fresh world for every run. `ThroughSave` is for the checks that clone: an update that
/// reads the loop, the user's own frame code, a world you have (loaded from a save) rather than
/// one you can build, or `Sim`'s report of the first differing update, which clones the state
/// after every update.
///
/// # Panics
///
/// `clone` panics if the save or the load fails or the loaded world's fingerprint is not the
/// world's, with the reason: [`new`](ThroughSave::new) has checked both once, on the world it
/// was given.
///
/// # Examples
///
/// A hecs world with an interpolation tracker (neither is `Clone`) whose update reads the loop:
/// the save is a plain list of values here, a game's own save (serde, JSON) works the same.
///
/// ```
/// use std::hash::Hasher;
/// use tickfold_core::{LoopConfig, LoopState, Period, Tick};
/// use tickfold_hecs::{Interpolated, hecs::World};
/// use tickfold_testing::{Fnv1a, ReadingSim, Schedule, ThroughSave};
///
/// struct Game { world: World, pos: Interpolated<f32> }
///
/// impl Game {
///     fn new(xs: &[f32]) -> Game {
///         let (mut world, mut pos) = (World::new(), Interpolated::new());
///         xs.iter().for_each(|&x| { pos.spawn(&mut world, (x,)); });
///         Game { world, pos }
///     }
///     fn update(&mut self, tick: &Tick, state: &LoopState) {
///         self.pos.before_update(&mut self.world, tick); // the capture rule
///         let seconds = state.virtual_time().elapsed().0 as f32 * 1e-9; // as of the tick
///         for x in self.world.query_mut::<&mut f32>() {
///             *x += seconds;
///         }
///     }
/// }
///
/// let save = |g: &Game| Ok::<_, String>(g.world.query::<&f32>().iter().copied().collect::<Vec<_>>());
/// let load = |xs: Vec<f32>| Ok::<_, String>(Game::new(&xs));
/// let fingerprint = |g: &Game| {
///     let mut h = Fnv1a::new();
///     let mut drawn = Vec::new();
///     g.pos.extract(&g.world, 0.5, &mut drawn); // halfway from the previous tick
///     drawn.iter().for_each(|x| h.write_u32(x.to_bits()));
///     h.finish()
/// };
/// let game = ThroughSave::new(Game::new(&[0.0, 1.0, 2.0]), save, load, fingerprint)?;
/// let config = LoopConfig::new(Period::from_hz(60)?).max_frame_delta(None);
/// let sim = ReadingSim::new(config, game, |g: &mut ThroughSave<Game>, tick: &Tick, state: &LoopState| {
///     g.update(tick, state)
/// })?;
/// sim.same_across_schedules(&[Schedule::vsync(144u64, 100)?, Schedule::from_millis(&[250.0, 3.0])?])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ThroughSave<W> {
    world: W,
    round_trip: Rc<RoundTrip<W>>,
    fingerprint: Rc<dyn Fn(&W) -> u64>,
}

impl<W: 'static> ThroughSave<W> {
    /// `world`, cloned with `load(save(&world))` and compared by `fingerprint(&world)`.
    ///
    /// # Errors
    ///
    /// [`KitError::RoundTrip`] if saving or loading `world` fails, or the loaded world's
    /// fingerprint is not `world`'s (the save loses something the fingerprint sees).
    pub fn new<X: 'static, E: fmt::Display + 'static, L: fmt::Display + 'static>(
        world: W,
        save: impl Fn(&W) -> Result<X, E> + 'static,
        load: impl Fn(X) -> Result<W, L> + 'static,
        fingerprint: impl Fn(&W) -> u64 + 'static,
    ) -> Result<ThroughSave<W>, KitError> {
        let fingerprint: Rc<dyn Fn(&W) -> u64> = Rc::new(fingerprint);
        let seen = Rc::clone(&fingerprint);
        let round_trip = move |world: &W| {
            let saved = save(world).map_err(|e| format!("the save failed: {e}"))?;
            let loaded = load(saved).map_err(|e| format!("the load failed: {e}"))?;
            let (before, after) = (seen(world), seen(&loaded));
            if before == after {
                Ok(loaded)
            } else {
                Err(format!(
                    "the loaded world's fingerprint is {after:#018x}, the saved world's \
                     {before:#018x}: the save loses something the fingerprint sees"
                ))
            }
        };
        let round_trip: Rc<RoundTrip<W>> = Rc::new(round_trip);
        round_trip(&world).map_err(KitError::RoundTrip)?;
        Ok(ThroughSave {
            world,
            round_trip,
            fingerprint,
        })
    }

    /// `world`, cloned through its [`Rewind`] save and load (the ones a replay's periodic
    /// saves use), and compared by `fingerprint(&world)`: one save and one load serve the
    /// checks and the replays.
    ///
    /// # Errors
    ///
    /// [`KitError::RoundTrip`], as for [`new`](ThroughSave::new).
    ///
    /// # Examples
    ///
    /// A world that is not `Clone`, with the save a replay already uses:
    ///
    /// ```
    /// use tickfold_testing::{Rewind, ThroughSave};
    ///
    /// struct Ball { y: f64 } // no Clone, no PartialEq, no Debug
    ///
    /// impl Rewind for Ball {
    ///     type Save = f64;
    ///     type Error = core::convert::Infallible;
    ///     fn save(&self) -> f64 { self.y }
    ///     fn load(y: &f64) -> Result<Ball, Self::Error> { Ok(Ball { y: *y }) }
    /// }
    ///
    /// let ball = ThroughSave::rewind(Ball { y: 1.5 }, |b| b.y.to_bits())?;
    /// let copy = ball.clone(); // saved and loaded
    /// assert_eq!(copy, ball);
    /// assert_eq!(copy.y, 1.5); // it dereferences to the world
    /// # Ok::<(), tickfold_testing::KitError>(())
    /// ```
    pub fn rewind(
        world: W,
        fingerprint: impl Fn(&W) -> u64 + 'static,
    ) -> Result<ThroughSave<W>, KitError>
    where
        W: Rewind,
        W::Save: 'static,
        W::Error: fmt::Display + 'static,
    {
        ThroughSave::new(
            world,
            |w: &W| Ok::<_, core::convert::Infallible>(w.save()),
            |save: W::Save| W::load(&save),
            fingerprint,
        )
    }
}

impl<W> ThroughSave<W> {
    /// The world's fingerprint, as `==` compares it.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        (self.fingerprint)(&self.world)
    }

    /// The world.
    #[must_use]
    pub fn into_inner(self) -> W {
        self.world
    }
}

impl<W> Clone for ThroughSave<W> {
    /// Saves the world and loads the copy (see the type's `# Panics`).
    fn clone(&self) -> ThroughSave<W> {
        match (self.round_trip)(&self.world) {
            Ok(world) => ThroughSave {
                world,
                round_trip: Rc::clone(&self.round_trip),
                fingerprint: Rc::clone(&self.fingerprint),
            },
            Err(e) => panic!("ThroughSave could not clone the world through its save: {e}"),
        }
    }
}

impl<W> PartialEq for ThroughSave<W> {
    fn eq(&self, other: &ThroughSave<W>) -> bool {
        self.fingerprint() == other.fingerprint()
    }
}

impl<W> fmt::Debug for ThroughSave<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThroughSave")
            .field("fingerprint", &format_args!("{:#018x}", self.fingerprint()))
            .finish()
    }
}

impl<W> Deref for ThroughSave<W> {
    type Target = W;

    fn deref(&self) -> &W {
        &self.world
    }
}

impl<W> DerefMut for ThroughSave<W> {
    fn deref_mut(&mut self) -> &mut W {
        &mut self.world
    }
}
