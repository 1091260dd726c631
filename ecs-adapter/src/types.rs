//! The data the adapter keeps next to gameplay components, and what a render reads back.

use core::cell::Cell;
use core::marker::PhantomData;

use hecs::Entity;
use tickfold_core::Interpolate;

/// What a render shows of a tracked component, between the previous tick (α = 0) and the
/// current one (α = 1). Named apart from tickfold-core's overload `Policy`.
///
/// Whatever the mode, an entity spawned (or given the component) since the last capture, and an
/// entity without a [`Previous`], show the newest value: there is no previous tick to blend from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BlendMode {
    /// Blend `previous → current` at α with [`Interpolate`]; a teleport shows the newest value.
    #[default]
    Interpolate,
    /// Blend like [`BlendMode::Interpolate`], but a teleport yields [`Sample::Crossfade`]
    /// (`from`, `to`, α) so the renderer can fade the old place out and the new one in.
    Crossfade,
    /// Always the current tick's value (least latency; the natural mode of [`Discrete`] values).
    Newest,
    /// Always the previous tick's value (one tick late, the same on every display).
    Previous,
    /// The previous value for α < ½, the current one from α = ½ on.
    Nearest,
}

/// A wrapper marking a component as discrete: it has no in-between values, so its
/// [`Interpolate`] switches from the previous to the current value at α = ½ (the contract's
/// ends stay exact). Track it with [`BlendMode::Newest`] to show the newest value at once.
///
/// # Examples
///
/// ```
/// use tickfold_hecs::{Discrete, Interpolate};
///
/// assert_eq!(Discrete(1_u8).interpolate(&Discrete(2), 0.4), Discrete(1));
/// assert_eq!(Discrete(1_u8).interpolate(&Discrete(2), 0.5), Discrete(2));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Discrete<T>(pub T);

impl<T: Clone> Interpolate for Discrete<T> {
    #[inline]
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        if alpha >= 0.5 {
            next.clone()
        } else {
            self.clone()
        }
    }
}

/// A tracker's capture counter: even, advanced by 2 at every capture, wrapping.
///
/// An entity's [`Stamp`] is bumped by setting it to the current `Epoch`, a value no earlier
/// capture interval has used, so it matches the counter exactly when the bump happened since
/// the last capture: in any order relative to the move, any number of times. The odd value
/// `epoch + 1` marks a component created since the last capture (no previous value yet). After
/// 2³¹ captures the counter wraps; an entity last bumped exactly 2³¹ captures earlier then
/// shows its newest value until the next capture, which is harmless.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Epoch(pub(crate) u32);

/// Where a component stands relative to the last capture: the one place stamps are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Continuity {
    /// Captured and not bumped since: blend.
    Settled,
    /// Teleported since the last capture.
    Jumped,
    /// Created since the last capture (or its stamp is missing).
    Fresh,
}

impl Epoch {
    /// The raw counter value.
    #[must_use]
    pub fn get(self) -> u32 {
        self.0
    }

    pub(crate) fn fresh(self) -> u32 {
        self.0 | 1
    }

    pub(crate) fn next(self) -> Epoch {
        Epoch(self.0.wrapping_add(2))
    }

    /// How a component stamped `stamp` stands now.
    #[inline]
    pub(crate) fn classify(self, stamp: Option<u32>) -> Continuity {
        match stamp {
            Some(s) if s == self.0 => Continuity::Jumped,
            Some(s) if s != self.fresh() => Continuity::Settled,
            _ => Continuity::Fresh,
        }
    }
}

/// The value a tracked component `T` had before the step's last update, kept by the adapter in
/// the entity next to `T` (as hecs's own `ChangeTracker` keeps its private `Previous`), so
/// despawning the entity drops it and a recycled entity id never sees its predecessor's data.
/// Only the adapter writes it; game code may read it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Previous<T>(pub(crate) T);

impl<T> Previous<T> {
    /// The value `T` had at the last capture.
    #[must_use]
    pub fn get(&self) -> &T {
        &self.0
    }
}

/// When `T` last jumped or was created, as an [`Epoch`] value: a separate component from
/// [`Previous`], so a capture copies a column of exactly `T`'s layout (a `Quat` and a `u32`
/// together would take 32 bytes, twice the rotation).
#[derive(Debug)]
pub struct Stamp<T> {
    pub(crate) epoch: u32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Clone for Stamp<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Stamp<T> {}

impl<T> PartialEq for Stamp<T> {
    fn eq(&self, other: &Self) -> bool {
        self.epoch == other.epoch
    }
}

impl<T> Stamp<T> {
    pub(crate) fn new(epoch: u32) -> Stamp<T> {
        Stamp {
            epoch,
            marker: PhantomData,
        }
    }

    /// The raw epoch value (see [`Epoch`]).
    #[must_use]
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Marks `T` as having jumped during the current tick (a teleport): renders until the next
    /// capture show the newest value (or a crossfade) instead of a blend across the jump. `now`
    /// is the tracker's [`epoch`](crate::Interpolated::epoch). Call it before or after the move,
    /// as often as you like within the tick. A component created since the last capture stays
    /// fresh.
    pub fn teleport(&mut self, now: Epoch) {
        if now.classify(Some(self.epoch)) != Continuity::Fresh {
            self.epoch = now.0;
        }
    }

    /// Whether `T` jumped or was created since the last capture.
    #[must_use]
    pub fn is_discontinuous(&self, now: Epoch) -> bool {
        now.classify(Some(self.epoch)) != Continuity::Settled
    }
}

/// The two components that make an entity's `T` tracked, for a spawn bundle you build
/// yourself: put both fields in it (`(x, c.previous, c.stamp)`). The struct itself is not a
/// component (it is not `Sync`), so it cannot end up in a bundle by mistake.
#[derive(Debug)]
pub struct Companions<T> {
    /// The previous value (the spawn value).
    pub previous: Previous<T>,
    /// The stamp marking the component as fresh until the next capture.
    pub stamp: Stamp<T>,
    pub(crate) not_a_component: PhantomData<Cell<()>>,
}

/// An opt-in render-only copy of a tracked component, written by
/// [`Interpolated::write_rendered`](crate::Interpolated::write_rendered) for renderers that
/// query the world. Game code should never read it: it holds the last render's blend, not a
/// tick value. The gameplay component itself is never written by the adapter.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Rendered<T>(pub T);

/// One blended read of a tracked component.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Sample<T> {
    /// The value to draw.
    Value(T),
    /// [`BlendMode::Crossfade`] after a teleport: draw `from` with opacity `1 − alpha` and `to`
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
/// [`Interpolated::despawn`](crate::Interpolated::despawn), kept for fade-outs when the tracker
/// keeps ghosts ([`Interpolated::keep_ghosts`](crate::Interpolated::keep_ghosts)).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ghost<T> {
    /// The despawned entity (full handle, generation included).
    pub entity: Entity,
    /// The value to blend from while `age` is 0: the value before the update that despawned
    /// the entity when that update was its step's last (the only case a render can see at
    /// age 0) and the entity would have blended from it; otherwise `last` (also after a
    /// teleport in that update, or for a component created in it).
    pub previous: T,
    /// Its last tick value.
    pub last: T,
    /// Updates run since the despawn: 0 during the update it was despawned in.
    pub age: u32,
}

impl<T: Interpolate + Clone> Ghost<T> {
    /// Where to draw the ghost: blended from `previous` to `last` at age 0, `last` after.
    #[must_use]
    pub fn value(&self, alpha: f64) -> T {
        if self.age == 0 {
            self.previous
                .interpolate(&self.last, crate::clamp_alpha(alpha))
        } else {
            self.last.clone()
        }
    }
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
    /// One end chosen by a discrete mode (newest, previous or nearest).
    pub held: u64,
    /// Newest value because the component teleported since the last capture.
    pub teleports: u64,
    /// Crossfade samples ([`BlendMode::Crossfade`] after a teleport).
    pub crossfades: u64,
    /// Newest value because the component was created since the last capture.
    pub fresh: u64,
    /// Newest value because the entity has no [`Previous`] (yet).
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

/// The render read of one entity, the one place the blending rules live. `alpha` is already
/// clamped to `[0, 1]`; `prev` is `None` for an entity without a [`Previous`].
#[inline(always)]
pub(crate) fn draw<T: Interpolate + Clone>(
    mode: BlendMode,
    now: Epoch,
    current: &T,
    prev: Option<(&Previous<T>, Option<&Stamp<T>>)>,
    alpha: f64,
    counts: &mut Counts,
) -> Sample<T> {
    let Some((p, stamp)) = prev else {
        counts.untracked += 1;
        return Sample::Value(current.clone());
    };
    let continuity = now.classify(stamp.map(|s| s.epoch));
    match (continuity, mode) {
        (Continuity::Fresh, _) => {
            counts.fresh += 1;
            Sample::Value(current.clone())
        }
        (Continuity::Settled, BlendMode::Interpolate | BlendMode::Crossfade) => {
            counts.interpolated += 1;
            Sample::Value(p.0.interpolate(current, alpha))
        }
        (Continuity::Jumped, BlendMode::Interpolate) => {
            counts.teleports += 1;
            Sample::Value(current.clone())
        }
        (Continuity::Jumped, BlendMode::Crossfade) => {
            counts.crossfades += 1;
            Sample::Crossfade {
                from: p.0.clone(),
                to: current.clone(),
                alpha,
            }
        }
        (_, BlendMode::Newest) => {
            counts.held += 1;
            Sample::Value(current.clone())
        }
        (_, BlendMode::Previous) => {
            counts.held += 1;
            Sample::Value(p.0.clone())
        }
        (_, BlendMode::Nearest) => {
            counts.held += 1;
            Sample::Value(if alpha < 0.5 {
                p.0.clone()
            } else {
                current.clone()
            })
        }
    }
}
