//! Which clock a tracker follows: unbound until the first tick it is handed (then bound to that
//! tick's clock), or bound by the user with [`Interpolated::clock`](crate::Interpolated::clock).
//! The one home of the rule; `before_update` and the reads ask it.

use tickfold_core::{ClockId, LoopState, NoSuchClock, Tick};

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
    /// to: the fastest clock's tick comes first). A bound clock the loop does not have (an
    /// id from another loop, a removed clock, a number assumed from declaration order) is the
    /// lookup's error: such a tracker never captures, and says so here.
    pub(crate) fn alpha<U>(self, state: &LoopState<U>) -> Result<f64, NoSuchClock> {
        state
            .clock(self.clock().unwrap_or_else(|| state.alpha_clock()))
            .map(|c| c.alpha())
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
