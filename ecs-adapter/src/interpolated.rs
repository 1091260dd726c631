//! One tracked component type: its settings, its capture pass, its reads and its ghosts.

use core::marker::PhantomData;
use std::fmt;

use hecs::{Component, ComponentError, DynamicBundle, Entity, EntityBuilder, World};
use tickfold_core::{Columns, Interpolate, LoopState, NoSuchClock, Tick};

use crate::binding::Binding;
use crate::column_copy::copy_column;
use crate::error::Error;
use crate::types::{
    BlendMode, Companions, Continuity, Counts, Epoch, Ghost, Previous, Rendered, Sample, Stamp,
    draw,
};

/// What a tracker has done since it was created.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stats {
    /// Captures made (one per step with updates when driven by
    /// [`before_update`](Interpolated::before_update)).
    pub captures: u64,
    /// Updates seen by [`before_update`](Interpolated::before_update) on the tracker's clock.
    pub updates: u64,
    /// Ticks of another clock handed to [`before_update`](Interpolated::before_update), which
    /// it did not act on (see [`Interpolated::clock`]). Not 0 on a tracker made without
    /// `.clock(id)` means it was handed ticks of two clocks and follows the first one's: if
    /// that is not the clock whose updates change `T`, bind it with `.clock(id)`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub other_clock_ticks: u64,
    /// Component values copied into [`Previous`] columns.
    pub values_captured: u64,
    /// Entities given a [`Previous`] at a capture because they had none.
    pub adopted: u64,
    /// Ghosts recorded by [`despawn`](Interpolated::despawn).
    pub ghosts: u64,
}

/// Tracks one component type `T` of a hecs world for interpolation, the way hecs's
/// `ChangeTracker<T>` tracks changes: the previous value lives in the entity as a [`Previous<T>`]
/// (with a [`Stamp<T>`] for teleports and spawns), the blend is read at render and never written
/// into `T`. Several types at once: a tuple of trackers, `(Interpolated<A>, Interpolated<B>)`,
/// through the [`Tracker`](crate::Tracker) trait.
///
/// The calls, in order, for each event of the fold:
/// 1. `Event::Update(tick)`: [`before_update`](Self::before_update), then run the update. It
///    follows the capture rule of [`Tick::last_in_step`]: only before the step's last update
///    of the tracker's clock is the column copied (a step of N catch-up updates copies once).
///    Inside the update, spawn through [`spawn`](Self::spawn) (or with
///    [`companions`](Self::companions) in the bundle), mark jumps with
///    [`teleport`](Self::teleport), despawn through [`despawn`](Self::despawn) for ghosts.
/// 2. `Event::Render(frame)`: read at `frame.alpha` with [`for_each`](Self::for_each),
///    [`extract`](Self::extract) or [`write_rendered`](Self::write_rendered).
///
/// Alpha: NaN counts as 0 and values outside `[0, 1]` are clamped, as `Interpolate` does.
///
/// # Examples
///
/// ```
/// use tickfold_hecs::{BlendMode, Interpolated};
///
/// let tracker = Interpolated::<f32>::new().mode(BlendMode::Crossfade).keep_ghosts(6).adopt(false);
/// assert_eq!(tracker.blend_mode(), BlendMode::Crossfade);
/// ```
pub struct Interpolated<T> {
    pub(crate) mode: BlendMode,
    pub(crate) adopt: bool,
    pub(crate) ghost_ticks: u32,
    pub(crate) rendered: bool,
    pub(crate) binding: Binding,
    pub(crate) epoch: Epoch,
    /// Whether the `Previous` column holds the state before the current update.
    pub(crate) captured_this_update: bool,
    pub(crate) ghosts: Vec<Ghost<T>>,
    adopt_buf: Vec<(Entity, T)>,
    builder: Option<EntityBuilder>,
    pub(crate) stats: Stats,
}

impl<T> fmt::Debug for Interpolated<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interpolated")
            .field("type", &std::any::type_name::<T>())
            .field("mode", &self.mode)
            .field("clock", &self.binding)
            .field("epoch", &self.epoch)
            .field("stats", &self.stats)
            .finish()
    }
}

impl<T: Interpolate + Component + Clone> Default for Interpolated<T> {
    fn default() -> Self {
        Interpolated::new()
    }
}

impl<T: Interpolate + Component + Clone> Interpolated<T> {
    /// A tracker with [`BlendMode::Interpolate`], adoption on, no ghosts, no render-only copy,
    /// and not bound to a clock yet: it follows the clock of the first tick handed to
    /// [`before_update`](Self::before_update) (see [`clock`](Self::clock)).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_hecs::{BlendMode, Interpolated, hecs::World};
    ///
    /// let mut world = World::new();
    /// let mut positions = Interpolated::<[f32; 2]>::new(); // one tracker per component type
    /// assert_eq!(positions.blend_mode(), BlendMode::Interpolate);
    /// // Spawn through the tracker: the entity gets its `Previous` and `Stamp` in the same archetype.
    /// let e = positions.spawn(&mut world, ([1.0_f32, 2.0],));
    /// // Spawned since the last capture: it shows its newest value, whatever the alpha.
    /// assert_eq!(positions.sample(&world, e, 0.5)?.into_value(), [1.0, 2.0]);
    /// # Ok::<(), tickfold_hecs::Error>(())
    /// ```
    #[must_use]
    pub fn new() -> Interpolated<T> {
        Interpolated {
            mode: BlendMode::Interpolate,
            adopt: true,
            ghost_ticks: 0,
            rendered: false,
            binding: Binding::Unbound,
            epoch: Epoch(0),
            captured_this_update: false,
            ghosts: Vec::new(),
            adopt_buf: Vec::new(),
            builder: Some(EntityBuilder::new()),
            stats: Stats::default(),
        }
    }

    /// Sets how renders read `T`.
    #[must_use]
    pub fn mode(mut self, mode: BlendMode) -> Self {
        self.mode = mode;
        self
    }

    /// Whether a capture gives a [`Previous`] to entities that have `T` but none (default
    /// `true`). Either way such an entity shows its newest value until it has one. Adoption
    /// moves the entity to another archetype once.
    #[must_use]
    pub fn adopt(mut self, adopt: bool) -> Self {
        self.adopt = adopt;
        self
    }

    /// Keeps a [`Ghost`] of each entity despawned through [`despawn`](Self::despawn) for
    /// `ticks` updates, for fade-outs (default 0: despawned entities simply vanish).
    #[must_use]
    pub fn keep_ghosts(mut self, ticks: u32) -> Self {
        self.ghost_ticks = ticks;
        self
    }

    /// Whether [`spawn`](Self::spawn), [`insert`](Self::insert) and adoption also add a
    /// [`Rendered`] copy for [`write_rendered`](Self::write_rendered) (default `false`).
    #[must_use]
    pub fn rendered(mut self, rendered: bool) -> Self {
        self.rendered = rendered;
        self
    }

    /// The alpha to read this tracker at after a step: its own clock's
    /// ([`ClockHandle::alpha`](tickfold_core::ClockHandle::alpha)), the one its captures follow; `Render::alpha` is the loop's
    /// alpha clock's, right only when that is this tracker's clock. While unbound, the loop's
    /// alpha clock's. Allocates nothing.
    ///
    /// # Errors
    ///
    /// [`NoSuchClock::Id`](tickfold_core::NoSuchClock::Id) when the tracker is bound to a
    /// clock `state` does not have (an id of another loop, a removed clock, or a number
    /// assumed from declaration order, as in `.clock(ClockId(9))`): such a tracker never
    /// captures, since no tick of its clock ever comes. Look ids up by name,
    /// `state.clock("physics")?.id()`, and the error cannot happen.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
    /// use tickfold_hecs::{Interpolated, hecs::World};
    ///
    /// // Bodies move on physics (50 Hz); `Render::alpha` is AI's (10 Hz), chosen by name.
    /// let config = LoopConfig::new(Period::from_hz(10)?)
    ///     .clock(ClockConfig::new("physics", Period::from_hz(50)?))
    ///     .alpha_clock("main");
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let physics = state.clock("physics").expect("declared").id();
    /// let (mut world, mut bodies) = (World::new(), Interpolated::<f32>::new().clock(physics));
    /// let body = bodies.spawn(&mut world, (0.0_f32,));
    /// let events = state.advance(Nanos::from_millis(150));
    /// for tick in events.updates().filter(|t| t.clock == physics) {
    ///     bodies.before_update(&mut world, &tick);
    ///     *world.get::<&mut f32>(body)? += 1.0; // one unit per physics tick
    /// }
    /// let render = events.render().expect("a frame");
    /// assert_eq!(render.alpha, 0.5); // AI's: 50 of 100 ms
    /// assert_eq!(bodies.alpha(&state)?, 0.5); // physics': 10 of 20 ms
    /// // Seven ticks ran (the last at 140 ms): drawn halfway from 6 to 7.
    /// assert_eq!(bodies.sample(&world, body, bodies.alpha(&state)?)?.into_value(), 6.5);
    ///
    /// // A clock the loop does not have: refused, never a silent alpha of 1.
    /// let lost = Interpolated::<f32>::new().clock(tickfold_core::ClockId(9));
    /// assert!(lost.alpha(&state).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alpha<U>(&self, state: &LoopState<U>) -> Result<f64, NoSuchClock> {
        self.binding.alpha(state)
    }

    /// How renders read `T`.
    #[must_use]
    pub fn blend_mode(&self) -> BlendMode {
        self.mode
    }

    /// The current capture counter, for [`Stamp::teleport`].
    #[must_use]
    pub fn epoch(&self) -> Epoch {
        self.epoch
    }

    /// Counters since creation.
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The capture rule of [`Tick::last_in_step`], through
    /// [`Columns::before_update`]: call it before running each update. Binds a tracker made
    /// without [`clock`](Self::clock) to the clock of the first tick it is handed; does not act
    /// on ticks of another clock than the one followed, counting them in
    /// [`Stats::other_clock_ticks`]; ages ghosts by one update; captures only before the step's
    /// last update. Returns whether it captured.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    /// use tickfold_hecs::{Interpolated, hecs::World};
    ///
    /// let (mut world, mut xs) = (World::new(), Interpolated::<f32>::new());
    /// let e = xs.spawn(&mut world, (0.0_f32,));
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(35)); // three updates in one step
    /// let mut captured = Vec::new();
    /// for tick in events.updates() {
    ///     captured.push(xs.before_update(&mut world, &tick)); // first, before the update
    ///     *world.get::<&mut f32>(e)? += 1.0; // then the update itself
    /// }
    /// assert_eq!(captured, [false, false, true]); // one copy, before the step's last update
    /// // The render blends the value before that update (2.0) with the one after it (3.0).
    /// let alpha = events.render().map_or(1.0, |r| r.alpha);
    /// assert_eq!((alpha, xs.sample(&world, e, alpha)?.into_value()), (0.5, 2.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn before_update(&mut self, world: &mut World, tick: &Tick) -> bool {
        self.in_world(world).before_update(tick)
    }

    /// Copies the `T` column of every archetype into its [`Previous<T>`] column, now, whatever
    /// the tick ([`before_update`](Self::before_update) calls it when the rule says so).
    ///
    /// Entities with `T` but no `Previous<T>` are adopted if [`adopt`](Self::adopt) is on;
    /// stamps of entities whose `T` was removed behind the adapter's back are reset, so that a
    /// re-inserted `T` shows its newest value. Allocates nothing unless entities are adopted.
    pub fn capture(&mut self, world: &mut World) {
        let next = self.epoch.next();
        let mut captured = 0_u64;
        for arch in world.archetypes() {
            if arch.is_empty() {
                continue;
            }
            let Some(mut previous) = arch.get::<&mut Previous<T>>() else {
                continue;
            };
            match arch.get::<&T>() {
                // One pass over two columns of the same layout: a column copy.
                Some(current) => captured += copy_column(&mut previous, &current),
                None => {
                    if let Some(mut stamps) = arch.get::<&mut Stamp<T>>() {
                        for s in stamps.iter_mut() {
                            s.epoch = next.fresh();
                        }
                    }
                }
            }
        }
        if self.adopt {
            captured += self.adopt_all(world, next);
        }
        self.epoch = next;
        self.captured_this_update = true;
        self.stats.captures += 1;
        self.stats.values_captured += captured;
    }

    fn adopt_all(&mut self, world: &mut World, next: Epoch) -> u64 {
        self.adopt_buf.clear();
        for (entity, value) in world.query_mut::<(Entity, &T)>().without::<&Previous<T>>() {
            self.adopt_buf.push((entity, value.clone()));
        }
        let adopted = self.adopt_buf.len() as u64;
        // An epoch from before `next`: the adopted value blends from the next render on.
        let settled = next.0.wrapping_sub(2);
        for (entity, value) in self.adopt_buf.drain(..) {
            let rendered = self.rendered.then(|| Rendered(value.clone()));
            let pair = (Previous(value), Stamp::<T>::new(settled));
            // The entity was just listed by a query on this world: it exists.
            let _ = match rendered {
                Some(r) => world.insert(entity, (pair.0, pair.1, r)),
                None => world.insert(entity, pair),
            };
        }
        self.stats.adopted += adopted;
        adopted
    }

    pub(crate) fn note_update(&mut self) {
        self.stats.updates += 1;
        self.captured_this_update = false;
        for ghost in &mut self.ghosts {
            ghost.age = ghost.age.saturating_add(1);
        }
        let keep = self.ghost_ticks;
        self.ghosts.retain(|g| g.age < keep);
    }

    /// Calls `visit` with each entity holding `T` and what to draw for it at `alpha`: first the
    /// entities with a [`Previous`], then those without, each in the world's archetype order.
    /// Returns how the samples came out.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if `T` or its companions are uniquely borrowed elsewhere at the time.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_hecs::{Interpolated, hecs::World};
    ///
    /// let (mut world, mut xs) = (World::new(), Interpolated::<f32>::new());
    /// let e = xs.spawn(&mut world, (1.0_f32,));
    /// xs.capture(&mut world);
    /// *world.get::<&mut f32>(e)? = 3.0; // the update
    /// let mut drawn = Vec::new();
    /// xs.for_each(&world, 0.5, |entity, sample| drawn.push((entity, sample.into_value())));
    /// assert_eq!(drawn, [(e, 2.0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each(
        &self,
        world: &World,
        alpha: f64,
        mut visit: impl FnMut(Entity, Sample<T>),
    ) -> Counts {
        let (alpha, now, mut counts) = (crate::clamp_alpha(alpha), self.epoch, Counts::default());
        let mut tracked = world.query::<(Entity, &T, &Previous<T>, Option<&Stamp<T>>)>();
        for (entity, current, p, s) in tracked.iter() {
            visit(
                entity,
                draw(self.mode, now, current, Some((p, s)), alpha, &mut counts),
            );
        }
        let mut untracked = world.query::<(Entity, &T)>().without::<&Previous<T>>();
        for (entity, current) in untracked.iter() {
            visit(
                entity,
                draw(self.mode, now, current, None, alpha, &mut counts),
            );
        }
        counts
    }

    /// Clears `out` and fills it with the value to draw for each entity holding `T`, in the same
    /// order as [`for_each`](Self::for_each): an instance buffer. Reads whole archetype columns;
    /// allocates only when `out` must grow. A crossfade contributes its `to` value.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if `T` or its companions are uniquely borrowed elsewhere at the time.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_hecs::{Interpolated, hecs::World};
    ///
    /// let (mut world, mut positions) = (World::new(), Interpolated::<[f32; 2]>::new());
    /// positions.spawn(&mut world, ([0.0_f32, 0.0],));
    /// positions.spawn(&mut world, ([10.0_f32, 0.0],));
    /// positions.capture(&mut world); // what `before_update` does before a step's last update
    /// for p in world.query_mut::<&mut [f32; 2]>() {
    ///     p[1] += 4.0; // the update
    /// }
    /// let mut instances = Vec::new(); // keep it between frames: it allocates only to grow
    /// let counts = positions.extract(&world, 0.25, &mut instances);
    /// assert_eq!(instances, [[0.0, 1.0], [10.0, 1.0]]);
    /// assert_eq!(counts.interpolated, 2);
    /// # Ok::<(), tickfold_hecs::Error>(())
    /// ```
    pub fn extract(&self, world: &World, alpha: f64, out: &mut Vec<T>) -> Counts {
        out.clear();
        self.blend_into(world, alpha, out)
    }

    /// Appends to `out` (any `Extend`) what [`extract`](Self::extract) would hold, in the same
    /// order, without clearing it: the reading of [`BlendColumns::blend_into`](tickfold_core::BlendColumns::blend_into) when the world
    /// is only borrowed.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if `T` or its companions are uniquely borrowed elsewhere at the time.
    pub fn blend_into<E: Extend<T>>(&self, world: &World, alpha: f64, out: &mut E) -> Counts {
        let (alpha, now, mut counts) = (crate::clamp_alpha(alpha), self.epoch, Counts::default());
        let mode = self.mode;
        for arch in world.archetypes() {
            let (Some(current), Some(previous)) = (arch.get::<&T>(), arch.get::<&Previous<T>>())
            else {
                continue;
            };
            let stamps = arch.get::<&Stamp<T>>();
            let c = &mut counts;
            out.extend(
                current
                    .iter()
                    .zip(previous.iter())
                    .enumerate()
                    .map(|(i, (v, p))| {
                        let s = stamps.as_ref().map(|s| &s[i]);
                        draw(mode, now, v, Some((p, s)), alpha, c).into_value()
                    }),
            );
        }
        for arch in world.archetypes() {
            if arch.has::<Previous<T>>() {
                continue;
            }
            if let Some(current) = arch.get::<&T>() {
                counts.untracked += current.len() as u64;
                out.extend(current.iter().cloned());
            }
        }
        counts
    }

    /// Like [`extract`](Self::extract), and also fills `entities` with the matching handles.
    pub fn extract_with_entities(
        &self,
        world: &World,
        alpha: f64,
        out: &mut Vec<T>,
        entities: &mut Vec<Entity>,
    ) -> Counts {
        out.clear();
        entities.clear();
        self.for_each(world, alpha, |e, s| {
            entities.push(e);
            out.push(s.into_value());
        })
    }

    /// Writes the value to draw into the [`Rendered<T>`] of every entity that has one (see
    /// [`rendered`](Self::rendered)). `T` itself is never written: game code reading `T` only
    /// ever sees tick values.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if one of the components is borrowed elsewhere at the time.
    pub fn write_rendered(&self, world: &World, alpha: f64) -> Counts {
        let (alpha, now, mut counts) = (crate::clamp_alpha(alpha), self.epoch, Counts::default());
        for arch in world.archetypes() {
            let (Some(current), Some(mut rendered)) =
                (arch.get::<&T>(), arch.get::<&mut Rendered<T>>())
            else {
                continue;
            };
            let previous = arch.get::<&Previous<T>>();
            let stamps = arch.get::<&Stamp<T>>();
            for (i, (v, r)) in current.iter().zip(rendered.iter_mut()).enumerate() {
                let p = previous
                    .as_ref()
                    .map(|p| (&p[i], stamps.as_ref().map(|s| &s[i])));
                r.0 = draw(self.mode, now, v, p, alpha, &mut counts).into_value();
            }
        }
        counts
    }

    /// What to draw for one entity's `T` at `alpha`.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`], [`Error::MissingComponent`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_hecs::{Error, Interpolated, hecs::World};
    ///
    /// let (mut world, mut xs) = (World::new(), Interpolated::<f32>::new());
    /// let e = xs.spawn(&mut world, (1.0_f32,));
    /// xs.capture(&mut world);
    /// if let Ok(mut x) = world.get::<&mut f32>(e) {
    ///     *x = 3.0; // the update
    /// }
    /// assert_eq!(xs.sample(&world, e, 0.25)?.into_value(), 1.5);
    /// let other = world.spawn(("no f32 here",));
    /// assert!(matches!(xs.sample(&world, other, 0.25), Err(Error::MissingComponent { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn sample(&self, world: &World, entity: Entity, alpha: f64) -> Result<Sample<T>, Error> {
        let current = world
            .get::<&T>(entity)
            .map_err(|e| missing::<T>(e, entity))?;
        let previous = world.get::<&Previous<T>>(entity).ok();
        let stamp = world.get::<&Stamp<T>>(entity).ok();
        let p = previous.as_deref().map(|p| (p, stamp.as_deref()));
        let alpha = crate::clamp_alpha(alpha);
        Ok(draw(
            self.mode,
            self.epoch,
            &current,
            p,
            alpha,
            &mut Counts::default(),
        ))
    }

    /// The [`Previous`] and [`Stamp`] for `value`, to put in a spawn bundle next to it: the
    /// entity then never changes archetype for the adapter's sake, and shows `value` until the
    /// next capture.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_hecs::Interpolated;
    ///
    /// let (mut world, tracker) = (hecs::World::new(), Interpolated::<f32>::new());
    /// let x = 3.0_f32;
    /// let c = tracker.companions(&x);
    /// let e = world.spawn((x, c.previous, c.stamp));
    /// assert_eq!(tracker.sample(&world, e, 0.5)?.into_value(), 3.0);
    /// # Ok::<(), tickfold_hecs::Error>(())
    /// ```
    #[must_use]
    pub fn companions(&self, value: &T) -> Companions<T> {
        Companions {
            previous: Previous(value.clone()),
            stamp: Stamp::new(self.epoch.fresh()),
            not_a_component: PhantomData,
        }
    }

    /// Adds `T`'s companions (and the [`Rendered`] copy where configured) to a bundle under
    /// construction that holds `T` and has no [`Previous<T>`] yet.
    pub fn complete(&self, builder: &mut EntityBuilder) {
        if builder.has::<Previous<T>>() {
            return;
        }
        let Some(value) = builder.get::<&T>().cloned() else {
            return;
        };
        if self.rendered && !builder.has::<Rendered<T>>() {
            builder.add(Rendered(value.clone()));
        }
        let c = self.companions(&value);
        builder.add(c.previous).add(c.stamp);
    }

    /// Spawns `bundle` with `T`'s companions (see [`complete`](Self::complete)), so the entity
    /// never moves archetype for the adapter. Reuses one builder: no allocation once warm. It
    /// shows its newest values until the next capture.
    pub fn spawn(&mut self, world: &mut World, bundle: impl DynamicBundle) -> Entity {
        crate::Tracker::spawn(self, world, bundle)
    }

    /// Inserts (or replaces) `T` on `entity` together with fresh companions: the entity shows
    /// `value` until the next capture, then blends from there.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`].
    pub fn insert(&self, world: &mut World, entity: Entity, value: T) -> Result<(), Error> {
        let c = self.companions(&value);
        let done = if self.rendered {
            let r = Rendered(value.clone());
            world.insert(entity, (value, c.previous, c.stamp, r))
        } else {
            world.insert(entity, (value, c.previous, c.stamp))
        };
        done.map_err(|_| Error::NoSuchEntity(entity))
    }

    /// Removes `T` and its companions (and [`Rendered`] copy) from `entity`, returning `T`.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`], [`Error::MissingComponent`].
    pub fn remove(&self, world: &mut World, entity: Entity) -> Result<T, Error> {
        let value = world
            .remove_one::<T>(entity)
            .map_err(|e| missing::<T>(e, entity))?;
        let _ = world.remove::<(Previous<T>, Stamp<T>)>(entity);
        let _ = world.remove_one::<Previous<T>>(entity);
        let _ = world.remove_one::<Stamp<T>>(entity);
        let _ = world.remove_one::<Rendered<T>>(entity);
        Ok(value)
    }

    /// Despawns `entity`, first keeping a [`Ghost`] of its `T` if ghosts are kept. A plain
    /// `World::despawn` is fine too: the entity then just vanishes.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`].
    pub fn despawn(&mut self, world: &mut World, entity: Entity) -> Result<(), Error> {
        crate::Tracker::despawn(self, world, entity)
    }

    /// Records a ghost of `entity`'s `T` if ghosts are kept; `true` if one was.
    pub(crate) fn record_ghost(&mut self, world: &World, entity: Entity) -> bool {
        if self.ghost_ticks == 0 {
            return false;
        }
        let Ok(last) = world.get::<&T>(entity) else {
            return false;
        };
        // The previous column holds the state before this update only if it was captured
        // before it (otherwise a render never sees this ghost at age 0), and the ghost blends
        // from it only where the entity itself would have: not across a teleport, not from the
        // spawn value of a component created since the capture.
        let stamp = world.get::<&Stamp<T>>(entity).ok().map(|s| s.epoch);
        let settled = self.epoch.classify(stamp) == Continuity::Settled;
        let previous = match world.get::<&Previous<T>>(entity) {
            Ok(p) if self.captured_this_update && settled => p.0.clone(),
            _ => (*last).clone(),
        };
        self.ghosts.push(Ghost {
            entity,
            previous,
            last: (*last).clone(),
            age: 0,
        });
        self.stats.ghosts += 1;
        true
    }

    /// Marks `entity`'s `T` as having jumped during the current update: renders until the next
    /// capture show its newest value (or a crossfade) rather than a blend across the jump. Call
    /// it before or after the move, any number of times. An entity without companions shows its
    /// newest value anyway; the call then does nothing.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`].
    pub fn teleport(&self, world: &World, entity: Entity) -> Result<(), Error> {
        match world.get::<&mut Stamp<T>>(entity) {
            Ok(mut s) => {
                s.teleport(self.epoch);
                Ok(())
            }
            Err(ComponentError::MissingComponent(_)) => Ok(()),
            Err(ComponentError::NoSuchEntity) => Err(Error::NoSuchEntity(entity)),
        }
    }

    /// The ghosts still within their fade (see [`keep_ghosts`](Self::keep_ghosts)), oldest
    /// first.
    #[must_use]
    pub fn ghosts(&self) -> &[Ghost<T>] {
        &self.ghosts
    }

    pub(crate) fn take_builder(&mut self) -> EntityBuilder {
        self.builder.take().unwrap_or_default()
    }

    pub(crate) fn put_builder(&mut self, builder: EntityBuilder) {
        self.builder = Some(builder);
    }
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
