//! Which clock a tracker follows: unbound until the first tick it is handed (then bound to that
//! tick's clock), or bound by the user with [`Interpolated::clock`](crate::Interpolated::clock).
//! The one home of the rule; `before_update` and the reads ask it.

use hecs::Component;
use tickfold_core::{ClockId, Interpolate, LoopState, Tick};

use crate::interpolated::Interpolated;

/// What [`Interpolated::clock_id`](crate::Interpolated::clock_id) returns while the tracker is
/// unbound: an id no clock ever has (a loop's ids stop at 65,534), so nothing reads another
/// clock's numbers through it.
pub(crate) const UNBOUND: ClockId = ClockId(u16::MAX);

/// A tracker's clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Binding {
    /// Made without `.clock(id)` and handed no tick yet: the first tick handed binds it.
    Unbound,
    /// Bound to the clock of the first tick handed (made without `.clock(id)`).
    Implicit(ClockId),
    /// Bound with `.clock(id)`.
    Explicit(ClockId),
}

impl Binding {
    /// The clock followed, if bound.
    #[inline]
    pub(crate) fn clock(self) -> Option<ClockId> {
        match self {
            Binding::Unbound => None,
            Binding::Implicit(c) | Binding::Explicit(c) => Some(c),
        }
    }

    /// Whether `tick` is one of the followed clock's, binding an unbound tracker to its clock.
    #[inline]
    pub(crate) fn follows(&mut self, tick: &Tick) -> bool {
        match *self {
            Binding::Unbound => {
                *self = Binding::Implicit(tick.clock);
                true
            }
            Binding::Implicit(c) | Binding::Explicit(c) => c == tick.clock,
        }
    }

    /// The alpha to read a tracker with this binding at: its clock's, or while unbound the
    /// loop's alpha clock's (the clock whose ticks an unbound tracker will most likely bind
    /// to: the fastest clock's tick comes first); 1 if the loop has no such clock.
    pub(crate) fn alpha<U>(self, state: &LoopState<U>) -> f64 {
        state
            .alpha(self.clock().unwrap_or_else(|| state.alpha_clock()))
            .unwrap_or(1.0)
    }
}

/// How a [`SavedTracker`](crate::SavedTracker) records the binding beside its clock. Saves
/// written before the binding rule hold none and load as [`Saved::Explicit`]: they followed
/// their clock, whatever else they were handed, and still do.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Saved {
    /// Bound with `.clock(id)` (and every save from before the rule).
    #[default]
    Explicit,
    /// Bound by the first tick handed.
    Implicit,
    /// Not bound yet (the saved clock is meaningless).
    Unbound,
}

impl Binding {
    /// The binding as saved: its kind and the clock (`UNBOUND` while unbound).
    pub(crate) fn saved(self) -> (Saved, ClockId) {
        match self {
            Binding::Unbound => (Saved::Unbound, UNBOUND),
            Binding::Implicit(c) => (Saved::Implicit, c),
            Binding::Explicit(c) => (Saved::Explicit, c),
        }
    }

    /// The binding a save describes.
    pub(crate) fn loaded(kind: Saved, clock: ClockId) -> Binding {
        match kind {
            Saved::Unbound => Binding::Unbound,
            Saved::Implicit => Binding::Implicit(clock),
            Saved::Explicit => Binding::Explicit(clock),
        }
    }
}

/// The binding, as a tracker's builder and readings.
impl<T: Interpolate + Component + Clone> Interpolated<T> {
    /// Follows `clock`'s updates, and only those: use the clock whose updates change `T`.
    /// Reads then blend with that clock's alpha, [`alpha`](Self::alpha), which is not
    /// `Render::alpha` when another clock is the loop's alpha clock.
    ///
    /// Without it, a tracker binds itself to the clock of the first tick handed to
    /// [`before_update`](Self::before_update) and follows that clock from then on. Either way
    /// a tick of another clock is not acted on (no capture, no ghost ageing) and is counted
    /// in [`Stats::other_clock_ticks`]: handing a tracker every update of a loop of several
    /// clocks is fine when the tracker is bound to the right one. On a tracker that bound
    /// itself such ticks are most likely a mistake (it follows whichever clock's tick came
    /// first: with every update handed, the clock whose tick is due first, the fastest), so
    /// check the count, or bind it with this method.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    /// use tickfold_hecs::{Interpolated, hecs::World};
    ///
    /// // AI (10 Hz) declared before physics (30 Hz); bodies move on physics.
    /// let config = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10)?))
    ///     .clock(ClockConfig::new("physics", Period::from_hz(30)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let physics = state.clock_id("physics").expect("declared");
    /// let mut world = World::new();
    /// let (mut bound, mut by_first) = (Interpolated::<f32>::new().clock(physics), Interpolated::<f32>::new());
    /// assert_eq!((bound.bound_clock(), by_first.bound_clock()), (Some(physics), None));
    /// let _ = (bound.spawn(&mut world, (0.0_f32,)), by_first.spawn(&mut world, (0_u8,)));
    /// let events = state.advance(Nanos::from_millis(120)); // physics 0, 1, AI 0, physics 2
    /// for tick in events.updates() {
    ///     bound.before_update(&mut world, &tick);
    ///     by_first.before_update(&mut world, &tick);
    /// }
    /// // The first tick was physics tick 0: the unbound tracker bound itself to physics.
    /// assert_eq!(by_first.bound_clock(), Some(physics));
    /// assert_eq!((bound.stats().updates, bound.stats().other_clock_ticks), (3, 1));
    /// assert_eq!((by_first.stats().updates, by_first.stats().other_clock_ticks), (3, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn clock(mut self, clock: ClockId) -> Self {
        self.binding = Binding::Explicit(clock);
        self
    }

    /// The clock this tracker captures on: the one given to [`clock`](Self::clock), or the
    /// one it bound itself to. While a tracker made without `.clock(id)` has been handed no
    /// tick, `ClockId(u16::MAX)`, an id no clock of any loop has (ids stop at 65,534), so
    /// that nothing reads another clock's numbers through it; ask
    /// [`bound_clock`](Self::bound_clock) to tell.
    #[must_use]
    pub fn clock_id(&self) -> ClockId {
        self.binding.clock().unwrap_or(UNBOUND)
    }

    /// The clock this tracker follows, or `None` while it is unbound (made without
    /// [`clock`](Self::clock) and handed no tick yet).
    #[must_use]
    pub fn bound_clock(&self) -> Option<ClockId> {
        self.binding.clock()
    }
}
