//! The storage side of interpolation: a column of current values, a column of previous ones,
//! and the capture rule of [`Tick::last_in_step`] applied to them.

use crate::error::NoSuchClock;
use crate::state::LoopState;
use crate::values::event::Tick;
use crate::values::id::ClockId;

/// Storage that keeps, next to every current value, the value it had before the last update of
/// the latest step (a column of current values and a column of previous ones), and blends the
/// two at render. Any storage can implement it: `tickfold-snapshot`'s `DoubleBuffer` is a
/// `Vec` of plain structs, `tickfold-hecs`'s `Interpolated<T>` the `T` columns of a hecs world.
///
/// An implementation provides [`capture`](Columns::capture), and [`BlendColumns`] the render
/// side; [`before_update`](Columns::before_update) is the capture
/// rule documented on [`Tick::last_in_step`], written once here for every storage. The trait
/// lives in the core because it needs nothing but [`Tick`], so adapters for any ECS can
/// implement it without depending on each other.
///
/// # Examples
///
/// A plain `Vec` of positions, captured by the rule and blended at render:
///
/// ```
/// use tickfold_core::{BlendColumns, Columns, Event, Interpolate, LoopConfig, LoopState, Nanos, Period};
///
/// struct Positions { current: Vec<f32>, previous: Vec<f32> }
///
/// impl Columns for Positions {
///     fn capture(&mut self) {
///         self.previous.clone_from(&self.current);
///     }
/// }
/// impl BlendColumns for Positions {
///     type Item = f32;
///     fn blend_into<E: Extend<f32>>(&self, alpha: f64, out: &mut E) {
///         out.extend(self.previous.iter().zip(&self.current).map(|(p, c)| p.interpolate(c, alpha)));
///     }
/// }
///
/// let mut world = Positions { current: vec![0.0; 3], previous: vec![0.0; 3] };
/// let config = LoopConfig::new(Period::from_hz(10)?).max_frame_delta(None);
/// let state = LoopState::new(config, Nanos(0))?;
/// let (_, events) = state.step(Nanos::from_millis(350)); // three updates, α = 0.5
/// let (mut captures, mut drawn) = (0, Vec::new());
/// for event in &events {
///     match event {
///         Event::Update(tick) => {
///             captures += usize::from(world.before_update(&tick)); // only before the last
///             world.current.iter_mut().for_each(|x| *x += 1.0);
///         }
///         Event::Render(r) => world.blend_into(r.alpha, &mut drawn),
///         _ => {}
///     }
/// }
/// assert_eq!((captures, drawn[0]), (1, 2.5)); // between the 2nd and 3rd update
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
pub trait Columns {
    /// Copies every current value into its previous slot, unconditionally.
    fn capture(&mut self);

    /// The clock whose updates change this state; its renders use this clock's alpha
    /// ([`ClockHandle::alpha`](crate::ClockHandle::alpha)), which is `Render::alpha` when it is the
    /// loop's alpha clock ([`LoopConfig::alpha_clock`](crate::LoopConfig::alpha_clock): the
    /// fastest clock unless one is named). Default `ClockId(0)`, the first clock declared,
    /// whatever its rate: override it in a loop of several clocks (the hecs adapter's tracker
    /// overrides [`before_update`](Columns::before_update) instead, binding to the clock of the
    /// first tick it is handed).
    fn clock(&self) -> ClockId {
        ClockId::default()
    }

    /// The alpha to blend this storage at after a step: its [`clock`](Columns::clock)'s
    /// ([`ClockHandle::alpha`](crate::ClockHandle::alpha)), which is `Render::alpha` only
    /// when that clock is the loop's alpha clock. The check that the storage follows a clock
    /// the loop has: such storage sees no tick of its clock, so it never captures, and only
    /// this reading can say so.
    ///
    /// # Errors
    ///
    /// [`NoSuchClock::Id`] when `state` has no clock with this id (an id of another loop, a
    /// removed clock, or a number assumed from declaration order). Look ids up by name,
    /// `state.clock("physics")?.id()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, ClockId, Columns, LoopConfig, LoopState, Nanos, Period};
    ///
    /// struct Positions { clock: ClockId, current: Vec<f32>, previous: Vec<f32> }
    /// impl Columns for Positions {
    ///     fn capture(&mut self) { self.previous.clone_from(&self.current); }
    ///     fn clock(&self) -> ClockId { self.clock }
    /// }
    ///
    /// let config = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10)?))
    ///     .clock(ClockConfig::new("physics", Period::from_hz(50)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let _ = state.advance(Nanos::from_millis(130));
    /// let physics = state.clock("physics")?.id();
    /// let bodies = Positions { clock: physics, current: vec![], previous: vec![] };
    /// assert_eq!(bodies.alpha(&state), Ok(0.5)); // 10 of physics' 20 ms
    /// let lost = Positions { clock: ClockId(9), ..bodies };
    /// assert!(lost.alpha(&state).is_err()); // no clock 9: refused, not a silent 1
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn alpha<U>(&self, state: &LoopState<U>) -> Result<f64, NoSuchClock>
    where
        Self: Sized,
    {
        state.clock(self.clock()).map(|c| c.alpha())
    }

    /// Bookkeeping before every update of [`clock`](Columns::clock), captured or not (the hecs
    /// adapter ages the ghosts of despawned entities here, so a fade lasts a number of ticks).
    /// Does nothing by default.
    fn note_update(&mut self) {}

    /// The capture rule: call it before running each update. It ignores ticks of other clocks,
    /// runs [`note_update`](Columns::note_update), and [`capture`](Columns::capture)s only when
    /// `tick` is the last update of its step ([`Tick::last_in_step`]). Returns whether it
    /// captured.
    fn before_update(&mut self, tick: &Tick) -> bool {
        if tick.clock != self.clock() {
            return false;
        }
        self.note_update();
        if tick.last_in_step {
            self.capture();
        }
        tick.last_in_step
    }
}

/// The render side of [`Columns`]: every element drawn between its previous and current value.
/// Separate from the capture side so that storage of values without a blend (integers, ids)
/// still follows the capture rule.
pub trait BlendColumns: Columns {
    /// What one blended element is.
    type Item;

    /// Appends every element drawn at `alpha` (0: previous, 1: current) to `out`, in storage
    /// order.
    fn blend_into<E: Extend<Self::Item>>(&self, alpha: f64, out: &mut E);
}
