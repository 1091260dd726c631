//! The data the adapter keeps next to gameplay components, and what a render reads back.

use hecs::{Component, Entity};
use tickfold_core::Interpolate;

/// What a render shows of a tracked component, between the previous tick (α = 0) and the
/// current one (α = 1).
///
/// Whatever the policy, an entity spawned (or given the component) since the last capture, and an
/// entity without a [`Companion`], show the newest value: there is no previous tick to blend from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Blend `previous → current` at α; a teleport (epoch bump) shows the newest value.
    #[default]
    Interpolate,
    /// Blend like [`Policy::Interpolate`], but a teleport yields [`Sample::Crossfade`] (`from`,
    /// `to`, α) so the renderer can fade the old place out and the new one in.
    Crossfade,
    /// Always the current tick's value (the default of [`Discrete`] types: least latency).
    Newest,
    /// Always the previous tick's value (one tick late, the same on every display).
    Previous,
    /// The previous value for α < ½, the current one from α = ½ on.
    Nearest,
}

/// A component type the adapter can capture and blend.
///
/// Implemented for every [`Interpolate`] component (policy [`Policy::Interpolate`]) and for
/// [`Discrete`]. Implement it for your own discrete types (an animation frame, a colour index)
/// with the policy they should default to.
///
/// # Examples
///
/// A discrete component that switches halfway between ticks unless told otherwise.
///
/// ```
/// use tickfold_hecs::{Blend, Policy};
///
/// #[derive(Clone, Debug, PartialEq)]
/// enum Frame { Idle, Run }
///
/// impl Blend for Frame {
///     const POLICY: Policy = Policy::Nearest;
///     fn blend(&self, next: &Self, alpha: f64) -> Self {
///         if alpha < 0.5 { self.clone() } else { next.clone() }
///     }
/// }
/// assert_eq!(Frame::Idle.blend(&Frame::Run, 0.75), Frame::Run);
/// ```
pub trait Blend: Component + Clone {
    /// The policy [`Track::new`](crate::Track::new) registers the type with.
    const POLICY: Policy;
    /// The value at `alpha` in `[0, 1]` between `self` (previous tick) and `next` (current):
    /// `self` at 0, `next` at 1. Used by [`Policy::Interpolate`] and [`Policy::Crossfade`].
    #[must_use]
    fn blend(&self, next: &Self, alpha: f64) -> Self;
}

impl<T: Interpolate + Component + Clone> Blend for T {
    const POLICY: Policy = Policy::Interpolate;
    #[inline]
    fn blend(&self, next: &Self, alpha: f64) -> Self {
        self.interpolate(next, alpha)
    }
}

/// A wrapper marking a component as discrete: it has no in-between values, so it shows the
/// newest value by default ([`Policy::Newest`]). Registered with another policy it switches at
/// α = ½ wherever a blend is asked for.
///
/// # Examples
///
/// ```
/// use tickfold_hecs::{Blend, Discrete, Policy};
///
/// assert_eq!(<Discrete<u8> as Blend>::POLICY, Policy::Newest);
/// assert_eq!(Discrete(1_u8).blend(&Discrete(2), 0.4), Discrete(1));
/// assert_eq!(Discrete(1_u8).blend(&Discrete(2), 0.5), Discrete(2));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Discrete<T>(pub T);

impl<T: Component + Clone> Blend for Discrete<T> {
    const POLICY: Policy = Policy::Newest;
    #[inline]
    fn blend(&self, next: &Self, alpha: f64) -> Self {
        if alpha < 0.5 {
            self.clone()
        } else {
            next.clone()
        }
    }
}

/// The adapter's capture counter: even, advanced by 2 at every capture, wrapping.
///
/// An entity's per-component epoch ([`Companion::epoch`]) is bumped by setting it to the current
/// `Epoch`, a value no earlier tick has used, so the previous tick and the current one disagree
/// on it exactly when the bump happened since the last capture: in any order relative to the
/// move, any number of times. The odd value `epoch + 1` marks a companion created since the
/// last capture (a fresh entity, no previous value). After 2³¹ captures (a year at 60 Hz) the
/// counter wraps; an entity last bumped exactly 2³¹ captures earlier then shows its newest value
/// for one tick, which is harmless.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Epoch(pub(crate) u32);

impl Epoch {
    /// The raw counter value.
    #[must_use]
    pub fn get(self) -> u32 {
        self.0
    }

    pub(crate) fn fresh(self) -> u32 {
        self.0 | 1
    }
}

/// The per-entity companion of a tracked component `T`: the previous tick's value and `T`'s
/// epoch. It lives in the entity, next to `T`, so despawning the entity drops it and a recycled
/// entity id never sees its predecessor's data.
///
/// Spawn entities with it already in place ([`Interpolator::spawn`](crate::Interpolator::spawn)
/// or [`Interpolator::companion`](crate::Interpolator::companion)): adding it later moves the
/// entity to another archetype. Its fields are private: game code can read the previous value
/// and bump the epoch, nothing else.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Companion<T> {
    pub(crate) prev: T,
    pub(crate) epoch: u32,
}

impl<T> Companion<T> {
    /// The value `T` had at the last capture (before the latest update).
    #[must_use]
    pub fn previous(&self) -> &T {
        &self.prev
    }

    /// The capture interval in which `T` last jumped or was created (see [`Epoch`]).
    #[must_use]
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Marks `T` as having jumped during the current tick (a teleport): renders until the next
    /// capture show the newest value (or a crossfade) instead of a blend across the jump. `now`
    /// is [`Interpolator::epoch`](crate::Interpolator::epoch). Call it before or after the move,
    /// as often as you like within the tick.
    pub fn teleport(&mut self, now: Epoch) {
        if self.epoch != now.fresh() {
            self.epoch = now.0;
        }
    }

    /// Whether `T` jumped or was created since the last capture.
    #[must_use]
    pub fn is_discontinuous(&self, now: Epoch) -> bool {
        self.epoch & !1 == now.0
    }
}

/// An opt-in render-only copy of a tracked component, written by
/// [`Interpolator::write_rendered`](crate::Interpolator::write_rendered) for renderers that
/// query the world. Game code should never read it: it holds the last render's blend, not a
/// tick value. The gameplay component itself is never written by the adapter.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Rendered<T>(pub T);

/// One blended read of a tracked component.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Sample<T> {
    /// The value to draw.
    Value(T),
    /// [`Policy::Crossfade`] after a teleport: draw `from` with opacity `1 − alpha` and `to`
    /// with opacity `alpha`.
    Crossfade {
        /// The previous tick's value (before the jump).
        from: T,
        /// The current tick's value (after the jump).
        to: T,
        /// The render's alpha, clamped to `[0, 1]`.
        alpha: f64,
    },
}

impl<T> Sample<T> {
    /// The single value to draw: the value, or a crossfade's `to` (the newest).
    #[must_use]
    pub fn into_value(self) -> T {
        match self {
            Sample::Value(v) | Sample::Crossfade { to: v, .. } => v,
        }
    }
}

/// The last tick values of an entity despawned through
/// [`Interpolator::despawn`](crate::Interpolator::despawn), kept for fade-outs when the type is
/// registered with [`Track::ghosts`](crate::Track::ghosts).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ghost<T> {
    /// The despawned entity (full handle, generation included).
    pub entity: Entity,
    /// The value before its last update.
    pub previous: T,
    /// Its last tick value.
    pub last: T,
    /// Captures since the despawn: 0 during the tick it was despawned in.
    pub age: u32,
}

impl<T> Ghost<T> {
    /// Remaining opacity for a fade over `ticks` ticks: 1 at the despawn, falling linearly to 0
    /// `ticks` ticks later. `alpha` is the render's (NaN counts as 0); `ticks == 0` gives 0.
    #[must_use]
    pub fn fade(&self, alpha: f64, ticks: u32) -> f64 {
        if ticks == 0 {
            return 0.0;
        }
        let gone = f64::from(self.age) + crate::clamp_alpha(alpha);
        (1.0 - gone / f64::from(ticks)).clamp(0.0, 1.0)
    }
}

/// How one render read came out, by reason. Every sample falls into exactly one count.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Blended between the previous and current tick.
    pub interpolated: u64,
    /// One end chosen by a discrete policy (newest, previous or nearest).
    pub held: u64,
    /// Newest value because the epoch was bumped since the last capture (teleports honoured).
    pub teleports: u64,
    /// Crossfade samples ([`Policy::Crossfade`] after a teleport).
    pub crossfades: u64,
    /// Newest value because the companion was created since the last capture.
    pub fresh: u64,
    /// Newest value because the entity has no [`Companion`] (yet).
    pub untracked: u64,
}

impl Counts {
    /// All samples.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.interpolated
            + self.held
            + self.teleports
            + self.crossfades
            + self.fresh
            + self.untracked
    }

    /// Adds another read's counts.
    pub fn add(&mut self, other: &Counts) {
        self.interpolated += other.interpolated;
        self.held += other.held;
        self.teleports += other.teleports;
        self.crossfades += other.crossfades;
        self.fresh += other.fresh;
        self.untracked += other.untracked;
    }
}
