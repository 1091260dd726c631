//! Reads that use a velocity: extrapolation past the current tick and Hermite blending, from a
//! velocity component the user names.

use core::marker::PhantomData;
use std::fmt;

use hecs::{Component, ComponentError, Entity, World};
use tickfold_core::Extrapolate;

use crate::error::Error;
use crate::interpolated::Interpolated;
use crate::types::{Continuity, Counts, Previous, Stamp, draw};

/// A component that holds the velocity (per second) of a tracked component `T`: implement it
/// for your velocity component to read `T` with [`Motion::Extrapolate`] or [`Motion::Hermite`]
/// through [`Interpolated::with_velocity`].
///
/// # Examples
///
/// ```
/// use tickfold_hecs::VelocityOf;
///
/// #[derive(Clone, Copy)]
/// struct Velocity([f32; 2]);
///
/// impl VelocityOf<[f32; 2]> for Velocity {
///     fn velocity(&self) -> [f32; 2] {
///         self.0
///     }
/// }
/// ```
pub trait VelocityOf<T: Extrapolate>: Component {
    /// The velocity of the entity's `T`, in `T`'s units per second.
    fn velocity(&self) -> T::Velocity;
}

/// How a velocity read draws `T` (see [`Extrapolate`] for the formulas).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Motion {
    /// The current tick's value moved on by its velocity for `alpha·dt`: no tick of latency,
    /// a small snap when the prediction was wrong. It never reads the previous tick, so a
    /// teleported or newly spawned entity extrapolates from its new value.
    #[default]
    Extrapolate,
    /// The cubic Hermite blend between the previous tick's value and the current one, with the
    /// velocities at both ends as slopes: curved paths stay curved between ticks. Teleported
    /// and newly spawned entities show their newest value, as [`BlendMode::Interpolate`] does.
    ///
    /// The velocity at the previous tick is the entity's [`Previous<V>`], kept when `V` is
    /// tracked too (an [`Interpolated<V>`] beside the [`Interpolated<T>`], e.g. in a tuple of
    /// trackers); without it, the current velocity serves at both ends.
    ///
    /// [`BlendMode::Interpolate`]: crate::BlendMode::Interpolate
    Hermite,
}

/// A tracker read through a velocity component `V`: see [`Interpolated::with_velocity`].
pub struct WithVelocity<'a, T, V> {
    tracker: &'a Interpolated<T>,
    motion: Motion,
    dt_secs: f64,
    velocity: PhantomData<fn() -> V>,
}

impl<T, V> fmt::Debug for WithVelocity<'_, T, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WithVelocity")
            .field("tracker", self.tracker)
            .field("velocity", &std::any::type_name::<V>())
            .field("motion", &self.motion)
            .field("dt_secs", &self.dt_secs)
            .finish()
    }
}

impl<T: Extrapolate + Component + Clone> Interpolated<T> {
    /// Reads `T` through the velocity component `V` with `motion`, for a clock whose ticks are
    /// `dt_secs` long (the tracker's clock: `Period::dt_secs_f64`). Entities without a `V` are
    /// drawn as the tracker's [`BlendMode`](crate::BlendMode) says; the capture, teleports and
    /// spawns work as for every read.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_hecs::{Interpolated, Motion, VelocityOf, hecs::World};
    ///
    /// struct Speed(f32);
    /// impl VelocityOf<f32> for Speed {
    ///     fn velocity(&self) -> f32 {
    ///         self.0
    ///     }
    /// }
    ///
    /// let (mut world, mut xs) = (World::new(), Interpolated::<f32>::new());
    /// let e = xs.spawn(&mut world, (1.0_f32, Speed(4.0)));
    /// xs.capture(&mut world);
    /// *world.get::<&mut f32>(e)? = 2.0; // the update: 4 units/s over a 0.25 s tick
    /// // Drawn a quarter of a tick past the current value: 2.0 + 4.0·(0.25·0.25).
    /// let ahead = xs.with_velocity::<Speed>(Motion::Extrapolate, 0.25).sample(&world, e, 0.25)?;
    /// assert_eq!(ahead, 2.25);
    /// // Hermite between 1.0 and 2.0 with slopes 4·0.25 = 1 at both ends: the straight line.
    /// let curve = xs.with_velocity::<Speed>(Motion::Hermite, 0.25).sample(&world, e, 0.5)?;
    /// assert_eq!(curve, 1.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_velocity<V: VelocityOf<T>>(
        &self,
        motion: Motion,
        dt_secs: f64,
    ) -> WithVelocity<'_, T, V> {
        WithVelocity {
            tracker: self,
            motion,
            dt_secs,
            velocity: PhantomData,
        }
    }
}

impl<T: Extrapolate + Component + Clone, V: VelocityOf<T>> WithVelocity<'_, T, V> {
    /// The one place a velocity read decides what to draw. `alpha` is already clamped.
    fn draw_one(
        &self,
        current: &T,
        prev: Option<(&Previous<T>, Option<&Stamp<T>>)>,
        velocity: Option<(&V, Option<&Previous<V>>)>,
        alpha: f64,
        counts: &mut Counts,
    ) -> T {
        let tracker = self.tracker;
        let Some((v, v0)) = velocity else {
            return draw(tracker.mode, tracker.epoch, current, prev, alpha, counts).into_value();
        };
        let v1 = v.velocity();
        match self.motion {
            Motion::Extrapolate => {
                counts.interpolated += 1;
                current.extrapolate(&v1, alpha * self.dt_secs)
            }
            Motion::Hermite => {
                let Some((p, stamp)) = prev else {
                    counts.untracked += 1;
                    return current.clone();
                };
                match tracker.epoch.classify(stamp.map(|s| s.epoch)) {
                    Continuity::Settled => {
                        counts.interpolated += 1;
                        let v0 = v0.map_or_else(|| v.velocity(), |p| p.get().velocity());
                        p.get().hermite(current, &v0, &v1, self.dt_secs, alpha)
                    }
                    Continuity::Jumped => {
                        counts.teleports += 1;
                        current.clone()
                    }
                    Continuity::Fresh => {
                        counts.fresh += 1;
                        current.clone()
                    }
                }
            }
        }
    }

    /// Calls `visit` with each entity holding `T` and the value to draw at `alpha` (NaN counts
    /// as 0, clamped to `[0, 1]`), in the world's archetype order. Returns how the samples came
    /// out: the samples drawn from a velocity count as `interpolated`.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if one of the components is uniquely borrowed elsewhere at the time.
    pub fn for_each(&self, world: &World, alpha: f64, mut visit: impl FnMut(Entity, T)) -> Counts {
        let (alpha, mut counts) = (crate::clamp_alpha(alpha), Counts::default());
        let mut query = world.query::<(
            Entity,
            &T,
            Option<&Previous<T>>,
            Option<&Stamp<T>>,
            Option<&V>,
            Option<&Previous<V>>,
        )>();
        for (entity, current, p, s, v, v0) in query.iter() {
            let prev = p.map(|p| (p, s));
            let velocity = v.map(|v| (v, v0));
            visit(
                entity,
                self.draw_one(current, prev, velocity, alpha, &mut counts),
            );
        }
        counts
    }

    /// Clears `out` and fills it with the value to draw for each entity holding `T`, in the
    /// order of [`for_each`](Self::for_each): an instance buffer, grown only when needed.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if one of the components is uniquely borrowed elsewhere at the time.
    pub fn extract(&self, world: &World, alpha: f64, out: &mut Vec<T>) -> Counts {
        out.clear();
        self.for_each(world, alpha, |_, value| out.push(value))
    }

    /// The value to draw for one entity's `T` at `alpha`.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`], [`Error::MissingComponent`] (no `T`).
    pub fn sample(&self, world: &World, entity: Entity, alpha: f64) -> Result<T, Error> {
        let current = world.get::<&T>(entity).map_err(|e| match e {
            ComponentError::NoSuchEntity => Error::NoSuchEntity(entity),
            ComponentError::MissingComponent(_) => Error::MissingComponent {
                entity,
                type_name: std::any::type_name::<T>(),
            },
        })?;
        let previous = world.get::<&Previous<T>>(entity).ok();
        let stamp = world.get::<&Stamp<T>>(entity).ok();
        let v = world.get::<&V>(entity).ok();
        let v0 = world.get::<&Previous<V>>(entity).ok();
        let prev = previous.as_deref().map(|p| (p, stamp.as_deref()));
        let velocity = v.as_deref().map(|v| (v, v0.as_deref()));
        let alpha = crate::clamp_alpha(alpha);
        Ok(self.draw_one(&current, prev, velocity, alpha, &mut Counts::default()))
    }
}
