//! Save games: what a tracker keeps about a world, as plain data that loads into a fresh world
//! whose entities have new ids.

use std::collections::HashSet;

use hecs::{Component, Entity, EntityBuilder, World};
use tickfold_core::{ClockId, Interpolate};

use crate::binding::{Binding, Saved as SavedBinding};
use crate::error::Error;
use crate::interpolated::{Interpolated, Stats};
use crate::types::{BlendMode, Epoch, Ghost, Previous, Rendered, Stamp};

/// Everything an [`Interpolated<T>`] keeps for a world, as plain data: the tracker's settings,
/// its capture counter ([`Epoch`]), its [`Stats`] and [`Ghost`]s, and each entity's
/// [`Previous<T>`], [`Stamp<T>`] and [`Rendered<T>`], keyed by the entity's handle at save time
/// ([`Entity::to_bits`]). Made by [`Interpolated::save`], turned back into a tracker (and the
/// companions written into a loaded world) by [`Interpolated::load`]. With the feature `serde`
/// it implements `Serialize` and `Deserialize` when `T` does.
///
/// Save it next to the loop's `LoopState` and your own components, between two steps (after a
/// step's events are handled): every render after the load then is bit for bit the render of
/// the run that never stopped, the first one included (it blends from the saved previous tick,
/// not from the value the entity was respawned with).
///
/// # Why an old → new entity map, not an id component
///
/// A loaded hecs world gives its entities new handles, so the saved companions are keyed by
/// the handles at save time, and [`load`](Interpolated::load) asks a function for each one's
/// new handle. Your loader already knows that map: it respawns every entity, and it must remap
/// every component that holds an `Entity` anyway. A stable id component kept by the adapter
/// would cost every tracked entity another component (a wider archetype, a copy on every
/// spawn) for the sake of one load, and ghosts (despawned entities) have no component to carry
/// it. A loader that keeps the handles (hecs's `World::spawn_at`, as hecs's own `serialize`
/// module does) passes `Some` as the map. If your game has its own stable ids, build the map
/// from them.
///
/// # Examples
///
/// A run saved after its third frame and loaded into a world whose entities have other ids:
/// every later render matches the run that never stopped.
///
/// ```
/// # #[cfg(feature = "serde")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::collections::HashMap;
/// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
/// use tickfold_hecs::{Interpolated, SavedTracker, hecs::{Entity, World}};
///
/// // One step: updates move every position by 1, renders blend into `drawn`.
/// fn frame(state: &mut LoopState<Nanos>, world: &mut World, pos: &mut Interpolated<f32>, ms: u64) -> Vec<f32> {
///     let mut drawn = Vec::new();
///     for event in &state.advance(Nanos::from_millis(ms)) {
///         match event {
///             Event::Update(tick) => {
///                 pos.before_update(world, &tick);
///                 world.query_mut::<&mut f32>().into_iter().for_each(|x| *x += 1.0);
///             }
///             Event::Render(r) => _ = pos.extract(world, r.alpha, &mut drawn),
///             _ => {}
///         }
///     }
///     drawn
/// }
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// let (mut world, mut pos) = (World::new(), Interpolated::<f32>::new());
/// pos.spawn(&mut world, (0.0_f32,));
/// pos.spawn(&mut world, (10.0_f32,));
/// for ms in [16, 48, 64] {
///     frame(&mut state, &mut world, &mut pos, ms);
/// }
///
/// // Save: the loop, your components (keyed by handle), the tracker.
/// let values: Vec<(u64, f32)> =
///     world.query_mut::<(Entity, &f32)>().into_iter().map(|(e, x)| (e.to_bits().get(), *x)).collect();
/// let file = serde_json::to_string(&(&state, &values, pos.save(&world)))?;
///
/// // Load into a fresh world, where the same bodies get other handles.
/// let (mut loaded_state, values, saved): (LoopState<Nanos>, Vec<(u64, f32)>, SavedTracker<f32>) =
///     serde_json::from_str(&file)?;
/// let mut loaded = World::new();
/// loaded.spawn(("a stranger, so the handles differ",));
/// let mut map = HashMap::new();
/// for (old, x) in values {
///     map.insert(Entity::from_bits(old).unwrap(), loaded.spawn((x,)));
/// }
/// let mut loaded_pos = Interpolated::load(saved, &mut loaded, |old| map.get(&old).copied())?;
///
/// // Both runs render the same values from here on, the first frame included.
/// for ms in [80, 100, 150] {
///     let a = frame(&mut state, &mut world, &mut pos, ms);
///     let b = frame(&mut loaded_state, &mut loaded, &mut loaded_pos, ms);
///     assert_eq!(a, b);
/// }
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "serde"))]
/// # fn main() {}
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SavedTracker<T> {
    mode: BlendMode,
    adopt: bool,
    ghost_ticks: u32,
    rendered: bool,
    clock: ClockId,
    /// How `clock` was bound; saves from before the binding rule have none and load as bound
    /// with `.clock(id)`, which is what they did.
    #[cfg_attr(feature = "serde", serde(default))]
    binding: SavedBinding,
    epoch: u32,
    captured_this_update: bool,
    stats: Stats,
    ghosts: Vec<SavedGhost<T>>,
    entities: Vec<SavedEntity<T>>,
}

/// One entity's companions; `entity` is its handle at save time ([`Entity::to_bits`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct SavedEntity<T> {
    entity: u64,
    previous: Option<T>,
    stamp: Option<u32>,
    rendered: Option<T>,
}

/// A [`Ghost`] with its handle as bits.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct SavedGhost<T> {
    entity: u64,
    previous: T,
    last: T,
    age: u32,
}

impl<T> SavedTracker<T> {
    /// The handles (at save time) of the entities whose companions were saved, in the order
    /// [`load`](Interpolated::load) writes them (the world's order at save time). Every one
    /// needs a new handle when loading.
    pub fn entities(&self) -> impl Iterator<Item = Entity> + '_ {
        self.entities
            .iter()
            .filter_map(|s| Entity::from_bits(s.entity))
    }

    /// The capture counter at save time.
    #[must_use]
    pub fn epoch(&self) -> Epoch {
        Epoch(self.epoch)
    }
}

impl<T: Interpolate + Component + Clone> Interpolated<T> {
    /// Everything this tracker keeps for `world`, as plain data for a save game (see
    /// [`SavedTracker`]): call it between two steps, next to saving the loop's state and your
    /// components. Visits every entity of the world once.
    ///
    /// # Panics
    ///
    /// Only as hecs does: if a companion is uniquely borrowed elsewhere at the time.
    #[must_use]
    pub fn save(&self, world: &World) -> SavedTracker<T> {
        let mut entities = Vec::new();
        for e in world.iter() {
            let previous = e.get::<&Previous<T>>().map(|p| p.0.clone());
            let stamp = e.get::<&Stamp<T>>().map(|s| s.epoch);
            let rendered = e.get::<&Rendered<T>>().map(|r| r.0.clone());
            if previous.is_some() || stamp.is_some() || rendered.is_some() {
                entities.push(SavedEntity {
                    entity: e.entity().to_bits().get(),
                    previous,
                    stamp,
                    rendered,
                });
            }
        }
        let ghosts = self
            .ghosts
            .iter()
            .map(|g| SavedGhost {
                entity: g.entity.to_bits().get(),
                previous: g.previous.clone(),
                last: g.last.clone(),
                age: g.age,
            })
            .collect();
        let (binding, clock) = self.binding.saved();
        SavedTracker {
            mode: self.mode,
            adopt: self.adopt,
            ghost_ticks: self.ghost_ticks,
            rendered: self.rendered,
            clock,
            binding,
            epoch: self.epoch.0,
            captured_this_update: self.captured_this_update,
            stats: self.stats,
            ghosts,
            entities,
        }
    }

    /// The tracker `saved` was made from, with its settings, capture counter, stats and
    /// ghosts, after writing each saved entity's companions into `world` at the handle
    /// `new_handle(old)` gives (see [`SavedTracker`] for why a map). Restore your own
    /// components first, without the adapter's (`World::spawn`, not
    /// [`spawn`](Self::spawn)): this adds them, replacing any already there, in the order they
    /// were saved. Respawn your entities in the order they had at save time (`World::iter`)
    /// and the instance buffers come out in the same order too.
    ///
    /// Ghosts name despawned entities: their handles go through `new_handle` as well and keep
    /// the saved handle where it returns `None` (a ghost's handle only identifies it to your
    /// renderer).
    ///
    /// Checked before anything is written: on an error the world is unchanged.
    ///
    /// # Errors
    ///
    /// [`Error::Unmapped`] for a saved entity `new_handle` has no handle for,
    /// [`Error::NoSuchEntity`] for a handle it gave that `world` does not hold,
    /// [`Error::InvalidSave`] for data no tracker saves (an odd capture counter, a handle
    /// hecs never makes, two saved entities given one handle, a ghost past its fade).
    pub fn load(
        saved: SavedTracker<T>,
        world: &mut World,
        mut new_handle: impl FnMut(Entity) -> Option<Entity>,
    ) -> Result<Interpolated<T>, Error> {
        if saved.epoch % 2 != 0 {
            return Err(Error::InvalidSave("an odd capture counter"));
        }
        let bad_handle = Error::InvalidSave("an entity handle hecs never makes");
        let mut targets = Vec::with_capacity(saved.entities.len());
        let mut seen = HashSet::with_capacity(saved.entities.len());
        for s in &saved.entities {
            let old = Entity::from_bits(s.entity).ok_or(bad_handle)?;
            let new = new_handle(old).ok_or(Error::Unmapped(old))?;
            if !world.contains(new) {
                return Err(Error::NoSuchEntity(new));
            }
            if !seen.insert(new) {
                return Err(Error::InvalidSave("two saved entities given one handle"));
            }
            targets.push(new);
        }
        let mut ghosts = Vec::with_capacity(saved.ghosts.len());
        for g in saved.ghosts {
            if g.age >= saved.ghost_ticks {
                return Err(Error::InvalidSave("a ghost past its fade"));
            }
            let old = Entity::from_bits(g.entity).ok_or(bad_handle)?;
            ghosts.push(Ghost {
                entity: new_handle(old).unwrap_or(old),
                previous: g.previous,
                last: g.last,
                age: g.age,
            });
        }
        let mut builder = EntityBuilder::new();
        for (s, entity) in saved.entities.into_iter().zip(targets) {
            if let Some(p) = s.previous {
                builder.add(Previous(p));
            }
            if let Some(epoch) = s.stamp {
                builder.add(Stamp::<T>::new(epoch));
            }
            if let Some(r) = s.rendered {
                builder.add(Rendered(r));
            }
            // Checked above: the entity exists.
            world
                .insert(entity, builder.build())
                .map_err(|_| Error::NoSuchEntity(entity))?;
        }
        let mut tracker = Interpolated::new()
            .mode(saved.mode)
            .adopt(saved.adopt)
            .keep_ghosts(saved.ghost_ticks)
            .rendered(saved.rendered);
        tracker.binding = Binding::loaded(saved.binding, saved.clock);
        tracker.epoch = Epoch(saved.epoch);
        tracker.captured_this_update = saved.captured_this_update;
        tracker.stats = saved.stats;
        tracker.ghosts = ghosts;
        Ok(tracker)
    }
}
