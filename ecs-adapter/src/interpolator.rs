//! The registry of tracked component types, the per-tick capture and the per-frame reads.

use std::any::TypeId;
use std::fmt;

use hecs::{ComponentError, DynamicBundle, Entity, EntityBuilder, World};

use crate::error::Error;
use crate::lane::{Lane, TypedLane, sample};
use crate::types::{Blend, Companion, Counts, Epoch, Ghost, Policy, Rendered, Sample};

/// How to track one component type: its [`Policy`] and what to do about entities without a
/// companion, ghosts and render-only copies.
///
/// # Examples
///
/// ```
/// use tickfold_hecs::{Policy, Track};
///
/// let track = Track::new().policy(Policy::Crossfade).ghosts(6).adopt(false);
/// assert_eq!(track, Track::new().adopt(false).ghosts(6).policy(Policy::Crossfade));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Track {
    policy: Option<Policy>,
    no_adopt: bool,
    ghost_ticks: u32,
    rendered: bool,
}

impl Track {
    /// The type's own [`Blend::POLICY`], adoption on, no ghosts, no render-only copy.
    #[must_use]
    pub fn new() -> Track {
        Track::default()
    }

    /// Overrides the type's default policy.
    #[must_use]
    pub fn policy(mut self, policy: Policy) -> Track {
        self.policy = Some(policy);
        self
    }

    /// Whether [`Interpolator::capture`] gives a companion to entities that have the component
    /// but none (default `true`). Either way such an entity shows its newest value until it has
    /// one. Adoption moves the entity to another archetype once (80–230 ns per entity).
    #[must_use]
    pub fn adopt(mut self, adopt: bool) -> Track {
        self.no_adopt = !adopt;
        self
    }

    /// Keeps a [`Ghost`] of each entity despawned through [`Interpolator::despawn`] for `ticks`
    /// captures, for fade-outs (default 0: despawned entities simply vanish).
    #[must_use]
    pub fn ghosts(mut self, ticks: u32) -> Track {
        self.ghost_ticks = ticks;
        self
    }

    /// Whether [`Interpolator::spawn`], [`Interpolator::insert`] and adoption also add a
    /// [`Rendered`] copy for [`Interpolator::write_rendered`] (default `false`).
    #[must_use]
    pub fn rendered(mut self, rendered: bool) -> Track {
        self.rendered = rendered;
        self
    }
}

/// What the adapter has done since it was created.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Calls to [`Interpolator::capture`] (one per update).
    pub captures: u64,
    /// Component values copied into companions, over all types and captures.
    pub values_captured: u64,
    /// Entities given a companion at a capture because they had none.
    pub adopted: u64,
    /// Ghosts recorded by [`Interpolator::despawn`].
    pub ghosts: u64,
}

/// Captures each tracked component's previous tick and blends it with the current one at
/// render, without ever writing the blend into the gameplay component.
///
/// The calls, in order, for each event of the fold:
/// 1. `Event::Update(tick)`: [`capture`](Self::capture) — before **every** update, also when a
///    step runs several — then run the update. [`update`](Self::update) does both. Inside the
///    update, spawn through [`spawn`](Self::spawn) (or with [`companion`](Self::companion) in
///    the bundle), bump epochs with [`teleport`](Self::teleport) on jumps, despawn through
///    [`despawn`](Self::despawn) if you want ghosts.
/// 2. `Event::Render(frame)`: read blended values at `frame.alpha` with
///    [`for_each`](Self::for_each) (a visitor), [`extract`](Self::extract) (into a reused
///    buffer) or [`write_rendered`](Self::write_rendered) (into the opt-in [`Rendered`]
///    component).
///
/// Capturing only before the update marked `Tick::last_in_step` would save copies when a step
/// catches up, but then a capture skipped by a misread flag (or by a second clock's update)
/// silently blends across two ticks, the bug of `bevy_rapier` #638. The capture costs about a
/// nanosecond per entity (see the crate's README section), so the adapter does it every time.
///
/// Alpha: NaN counts as 0 and values outside `[0, 1]` are clamped, as `Interpolate` does.
pub struct Interpolator {
    lanes: Vec<(TypeId, Box<dyn Lane>)>,
    epoch: Epoch,
    builder: EntityBuilder,
    stats: Stats,
}

impl fmt::Debug for Interpolator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.lanes.iter().map(|(_, l)| l.type_name()).collect();
        f.debug_struct("Interpolator")
            .field("tracked", &names)
            .field("epoch", &self.epoch)
            .field("stats", &self.stats)
            .finish()
    }
}

impl Default for Interpolator {
    fn default() -> Self {
        Interpolator::new()
    }
}

impl Interpolator {
    /// An interpolator tracking nothing yet.
    #[must_use]
    pub fn new() -> Interpolator {
        Interpolator {
            lanes: Vec::new(),
            epoch: Epoch(0),
            builder: EntityBuilder::new(),
            stats: Stats::default(),
        }
    }

    /// Registers `T` with the settings of `track`.
    ///
    /// # Errors
    ///
    /// [`Error::AlreadyTracked`] if `T` is registered already.
    pub fn track<T: Blend>(&mut self, track: Track) -> Result<&mut Self, Error> {
        if self.find(TypeId::of::<T>()).is_some() {
            return Err(Error::AlreadyTracked {
                type_name: std::any::type_name::<T>(),
            });
        }
        let lane = TypedLane::<T>::new(
            track.policy.unwrap_or(T::POLICY),
            !track.no_adopt,
            track.ghost_ticks,
            track.rendered,
        );
        self.lanes.push((TypeId::of::<T>(), Box::new(lane)));
        Ok(self)
    }

    /// `T`'s policy, or `None` if it is not tracked.
    #[must_use]
    pub fn policy<T: Blend>(&self) -> Option<Policy> {
        self.lane::<T>().ok().map(|l| l.policy)
    }

    /// The current capture counter, for [`Companion::teleport`].
    #[must_use]
    pub fn epoch(&self) -> Epoch {
        self.epoch
    }

    /// Counters since creation.
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Records every tracked component's current value as the previous tick. Call it before
    /// every update (or use [`update`](Self::update)).
    ///
    /// Per archetype holding `T` and its companion, one pass copies the `T` column into the
    /// companion column. Entities with `T` but no companion are adopted (given one) if their
    /// type's [`Track::adopt`] is on; companions whose `T` was removed are reset so that a
    /// re-inserted `T` shows its newest value. Ghosts age by one tick. Allocates nothing
    /// unless entities are adopted.
    pub fn capture(&mut self, world: &mut World) {
        let next = Epoch(self.epoch.0.wrapping_add(2));
        for (_, lane) in &mut self.lanes {
            let (captured, adopted) = lane.capture(world, next);
            self.stats.values_captured += captured;
            self.stats.adopted += adopted;
        }
        self.epoch = next;
        self.stats.captures += 1;
    }

    /// Captures, then runs one update: the driver glue for `Event::Update`.
    ///
    /// The closure gets the world and the interpolator back, for [`spawn`](Self::spawn),
    /// [`teleport`](Self::teleport) and [`despawn`](Self::despawn).
    pub fn update<R>(
        &mut self,
        world: &mut World,
        update: impl FnOnce(&mut World, &mut Interpolator) -> R,
    ) -> R {
        self.capture(world);
        update(world, self)
    }

    /// Calls `visit` with each entity holding `T` and what to draw for it at `alpha`: first the
    /// entities with a companion, then those without, each in the world's archetype order.
    /// Returns how the samples came out.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`] if `T` is not tracked.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if `T` or its companion is uniquely borrowed elsewhere at the time.
    pub fn for_each<T: Blend>(
        &self,
        world: &World,
        alpha: f64,
        mut visit: impl FnMut(Entity, Sample<T>),
    ) -> Result<Counts, Error> {
        let lane = self.lane::<T>()?;
        let (alpha, now, mut counts) = (crate::clamp_alpha(alpha), self.epoch, Counts::default());
        let mut tracked = world.query::<(Entity, &T, &Companion<T>)>();
        for (entity, current, companion) in tracked.iter() {
            let s = sample(
                lane.policy,
                now,
                current,
                Some(companion),
                alpha,
                &mut counts,
            );
            visit(entity, s);
        }
        let mut untracked = world.query::<(Entity, &T)>().without::<&Companion<T>>();
        for (entity, current) in untracked.iter() {
            counts.untracked += 1;
            visit(entity, Sample::Value(current.clone()));
        }
        Ok(counts)
    }

    /// Clears `out` and fills it with the value to draw for each entity holding `T`, in the same
    /// order as [`for_each`](Self::for_each): an instance buffer. Reads whole archetype columns;
    /// allocates only when `out` must grow. A crossfade contributes its `to` value.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`] if `T` is not tracked.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if `T` or its companion is uniquely borrowed elsewhere at the time.
    pub fn extract<T: Blend>(
        &self,
        world: &World,
        alpha: f64,
        out: &mut Vec<T>,
    ) -> Result<Counts, Error> {
        let lane = self.lane::<T>()?;
        let (alpha, now, mut counts) = (crate::clamp_alpha(alpha), self.epoch, Counts::default());
        out.clear();
        // Archetypes with companions first, then those without: the visitor's order.
        for arch in world.archetypes() {
            let (Some(current), Some(companions)) = (arch.get::<&T>(), arch.get::<&Companion<T>>())
            else {
                continue;
            };
            out.reserve(current.len());
            if lane.policy == Policy::Interpolate {
                interpolate_column(now, alpha, &current, &companions, out, &mut counts);
            } else {
                out.extend(current.iter().zip(companions.iter()).map(|(v, c)| {
                    sample(lane.policy, now, v, Some(c), alpha, &mut counts).into_value()
                }));
            }
        }
        for arch in world.archetypes() {
            if arch.has::<Companion<T>>() {
                continue;
            }
            if let Some(current) = arch.get::<&T>() {
                counts.untracked += current.len() as u64;
                out.extend(current.iter().cloned());
            }
        }
        Ok(counts)
    }

    /// Like [`extract`](Self::extract), and also fills `entities` with the matching handles.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`] if `T` is not tracked.
    pub fn extract_with_entities<T: Blend>(
        &self,
        world: &World,
        alpha: f64,
        out: &mut Vec<T>,
        entities: &mut Vec<Entity>,
    ) -> Result<Counts, Error> {
        out.clear();
        entities.clear();
        self.for_each(world, alpha, |e, s: Sample<T>| {
            entities.push(e);
            out.push(s.into_value());
        })
    }

    /// Writes the value to draw into the [`Rendered<T>`] of every entity that has one (see
    /// [`Track::rendered`]). `T` itself is never written: game code reading `T` only ever
    /// sees tick values.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`] if `T` is not tracked.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if one of the three components is borrowed elsewhere at the time.
    pub fn write_rendered<T: Blend>(&self, world: &World, alpha: f64) -> Result<Counts, Error> {
        let lane = self.lane::<T>()?;
        let (alpha, now, mut counts) = (crate::clamp_alpha(alpha), self.epoch, Counts::default());
        for arch in world.archetypes() {
            let (Some(current), Some(mut rendered)) =
                (arch.get::<&T>(), arch.get::<&mut Rendered<T>>())
            else {
                continue;
            };
            let companions = arch.get::<&Companion<T>>();
            for (i, (v, r)) in current.iter().zip(rendered.iter_mut()).enumerate() {
                let c = companions.as_ref().map(|c| &c[i]);
                r.0 = sample(lane.policy, now, v, c, alpha, &mut counts).into_value();
            }
        }
        Ok(counts)
    }

    /// What to draw for one entity's `T` at `alpha`.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`], [`Error::NoSuchEntity`], [`Error::MissingComponent`].
    pub fn sample<T: Blend>(
        &self,
        world: &World,
        entity: Entity,
        alpha: f64,
    ) -> Result<Sample<T>, Error> {
        let lane = self.lane::<T>()?;
        let current = world
            .get::<&T>(entity)
            .map_err(|e| missing::<T>(e, entity))?;
        let companion = world.get::<&Companion<T>>(entity).ok();
        let alpha = crate::clamp_alpha(alpha);
        let mut counts = Counts::default();
        Ok(sample(
            lane.policy,
            self.epoch,
            &current,
            companion.as_deref(),
            alpha,
            &mut counts,
        ))
    }

    /// A companion for `value`, to put in a spawn bundle next to it: the entity then never
    /// changes archetype for the adapter's sake, and shows `value` until the next capture.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_hecs::{Interpolator, Track};
    ///
    /// let (mut world, mut interp) = (hecs::World::new(), Interpolator::new());
    /// interp.track::<f32>(Track::new())?;
    /// let x = 3.0_f32;
    /// let e = world.spawn((x, interp.companion(&x)));
    /// assert_eq!(interp.sample::<f32>(&world, e, 0.5)?.into_value(), 3.0);
    /// # Ok::<(), tickfold_hecs::Error>(())
    /// ```
    #[must_use]
    pub fn companion<T: Blend>(&self, value: &T) -> Companion<T> {
        Companion {
            prev: value.clone(),
            epoch: self.epoch.fresh(),
        }
    }

    /// Spawns `bundle` with a companion for every tracked component it holds (and a
    /// [`Rendered`] copy where configured), so the entity never moves archetype for the adapter.
    /// Reuses one builder: no allocation once warm. It shows its newest values until the next
    /// capture.
    pub fn spawn(&mut self, world: &mut World, bundle: impl DynamicBundle) -> Entity {
        self.builder.add_bundle(bundle);
        for (_, lane) in &self.lanes {
            lane.complete(&mut self.builder, self.epoch);
        }
        world.spawn(self.builder.build())
    }

    /// Inserts (or replaces) `T` on `entity` together with a fresh companion: the entity
    /// shows `value` until the next capture, then blends from there.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`] or [`Error::NoSuchEntity`].
    pub fn insert<T: Blend>(
        &self,
        world: &mut World,
        entity: Entity,
        value: T,
    ) -> Result<(), Error> {
        let lane = self.lane::<T>()?;
        let companion = self.companion(&value);
        let done = if lane.rendered {
            let r = Rendered(value.clone());
            world.insert(entity, (value, companion, r))
        } else {
            world.insert(entity, (value, companion))
        };
        done.map_err(|_| Error::NoSuchEntity(entity))
    }

    /// Removes `T` and its companion (and [`Rendered`] copy) from `entity`, returning `T`.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`], [`Error::NoSuchEntity`], [`Error::MissingComponent`].
    pub fn remove<T: Blend>(&self, world: &mut World, entity: Entity) -> Result<T, Error> {
        let _ = self.lane::<T>()?;
        let value = world
            .remove_one::<T>(entity)
            .map_err(|e| missing::<T>(e, entity))?;
        let _ = world.remove_one::<Companion<T>>(entity);
        let _ = world.remove_one::<Rendered<T>>(entity);
        Ok(value)
    }

    /// Despawns `entity`, first keeping a [`Ghost`] of each tracked component registered with
    /// [`Track::ghosts`]. A plain `World::despawn` is fine too: the entity then just vanishes.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`].
    pub fn despawn(&mut self, world: &mut World, entity: Entity) -> Result<(), Error> {
        if !world.contains(entity) {
            return Err(Error::NoSuchEntity(entity));
        }
        for (_, lane) in &mut self.lanes {
            self.stats.ghosts += u64::from(lane.record_ghost(world, entity));
        }
        world
            .despawn(entity)
            .map_err(|_| Error::NoSuchEntity(entity))
    }

    /// Bumps `entity`'s epoch for `T`: `T` jumped during the current tick, so renders until the
    /// next capture show its newest value (or a crossfade) rather than a blend across the jump.
    /// Call it before or after the move, any number of times. An entity without a companion
    /// shows its newest value anyway; the call then does nothing.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`] or [`Error::NoSuchEntity`].
    pub fn teleport<T: Blend>(&self, world: &World, entity: Entity) -> Result<(), Error> {
        let _ = self.lane::<T>()?;
        match world.get::<&mut Companion<T>>(entity) {
            Ok(mut c) => {
                c.teleport(self.epoch);
                Ok(())
            }
            Err(ComponentError::MissingComponent(_)) => Ok(()),
            Err(ComponentError::NoSuchEntity) => Err(Error::NoSuchEntity(entity)),
        }
    }

    /// The ghosts of `T` still within their fade (see [`Track::ghosts`]), oldest first.
    ///
    /// # Errors
    ///
    /// [`Error::Unregistered`] if `T` is not tracked.
    pub fn ghosts<T: Blend>(&self) -> Result<&[Ghost<T>], Error> {
        Ok(&self.lane::<T>()?.ghosts)
    }

    fn find(&self, id: TypeId) -> Option<&dyn Lane> {
        self.lanes
            .iter()
            .find(|(t, _)| *t == id)
            .map(|(_, l)| l.as_ref())
    }

    fn lane<T: Blend>(&self) -> Result<&TypedLane<T>, Error> {
        self.find(TypeId::of::<T>())
            .and_then(|l| l.as_any().downcast_ref::<TypedLane<T>>())
            .ok_or(Error::Unregistered {
                type_name: std::any::type_name::<T>(),
            })
    }
}

/// The hot path of [`Interpolator::extract`] for [`Policy::Interpolate`]: the same results as
/// `sample`, with the counting kept out of the blend.
#[inline]
fn interpolate_column<T: Blend>(
    now: Epoch,
    alpha: f64,
    current: &[T],
    companions: &[Companion<T>],
    out: &mut Vec<T>,
    counts: &mut Counts,
) {
    let (mut fresh, mut jumped) = (0_u64, 0_u64);
    out.extend(current.iter().zip(companions).map(|(v, c)| {
        if c.epoch & !1 == now.0 {
            fresh += u64::from(c.epoch == now.fresh());
            jumped += u64::from(c.epoch == now.0);
            v.clone()
        } else {
            c.prev.blend(v, alpha)
        }
    }));
    counts.fresh += fresh;
    counts.teleports += jumped;
    counts.interpolated += current.len() as u64 - fresh - jumped;
}

fn missing<T>(e: ComponentError, entity: Entity) -> Error {
    match e {
        ComponentError::NoSuchEntity => Error::NoSuchEntity(entity),
        ComponentError::MissingComponent(_) => Error::MissingComponent {
            entity,
            type_name: std::any::type_name::<T>(),
        },
    }
}
