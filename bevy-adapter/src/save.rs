//! Save games (feature `serde`): the plugin's loop with the components you name, loaded into a
//! fresh `App` to go on bit for bit as the run that was never interrupted.

use core::fmt;
use core::marker::PhantomData;
use core::time::Duration;

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::{EntityRef, EntityWorldMut, World};
use bevy_time::{Time, Virtual};
use serde::de::{self, DeserializeOwned, IgnoredAny, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tickfold_core::{LoopState, Nanos, Period};

use crate::resource::Tickfold;

/// Marks an entity whose components a save keeps, with an id of yours that stays the same
/// across runs (Bevy's `Entity` numbers do not): the load finds the entity by it.
#[derive(
    Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Saved(pub u64);

/// The components a save keeps: a tuple of one to six component types, each `Clone` and
/// serde. Its [`Values`](ComponentSet::Values) are the tuple of `Option`s an entity has.
///
/// A component another plugin keeps for its own state (the previous value an interpolation
/// reads, a tracker's stamp) is saved the same way: name it in the tuple, e.g.
/// `save_world::<(Position, PreviousPosition)>`, and the loaded world renders as the original.
pub trait ComponentSet {
    /// What one entity holds: `(Option<A>, Option<B>, ..)`. A save writes it through
    /// [`SavedRow`] (each component's presence explicit), not through its own `Serialize`.
    type Values: Serialize + DeserializeOwned + SavedRow;
    /// The components `entity` has, cloned.
    fn read(entity: &EntityRef<'_>) -> Self::Values;
    /// Inserts the components present in `values` and removes those absent.
    fn write(values: Self::Values, entity: &mut EntityWorldMut<'_>);
}

/// How one entity's [`ComponentSet::Values`] is written in a save: a tuple with one slot per
/// component, each slot a sequence of no value (the entity does not have the component) or
/// one (it does). Presence is written explicitly, never through `Option`'s own serde: in
/// `serde_json` and other self-describing formats `Option<T>` of a unit struct (`struct
/// Player;`), of a zero-sized or an `Option`-valued component writes `Some` and `None` alike
/// (`null`), so a marker would vanish (or appear) on load. With a slot, `Some(Player)` is
/// `[null]` and `None` is `[]` in JSON, and in a binary format such as bincode the slot's
/// length (0 or 1) comes first. Implemented for the tuples of `Option`s the
/// [`ComponentSet`] tuples use.
pub trait SavedRow: Sized {
    /// Writes the row.
    ///
    /// # Errors
    ///
    /// The serializer's.
    fn serialize_row<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
    /// Reads a row written by [`serialize_row`](Self::serialize_row).
    ///
    /// # Errors
    ///
    /// The deserializer's, and a slot with more than one value.
    fn deserialize_row<'de, De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error>;
}

/// One component slot, written: a sequence of zero or one values.
struct Slot<'a, T>(&'a Option<T>);

impl<T: Serialize> Serialize for Slot<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(usize::from(self.0.is_some())))?;
        if let Some(value) = self.0 {
            seq.serialize_element(value)?;
        }
        seq.end()
    }
}

/// One component slot, read back.
struct SlotOwned<T>(Option<T>);

impl<'de, T: DeserializeOwned> Deserialize<'de> for SlotOwned<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SlotVisitor<T>(PhantomData<T>);
        impl<'de, T: DeserializeOwned> Visitor<'de> for SlotVisitor<T> {
            type Value = SlotOwned<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a component slot: a sequence of zero or one values")
            }
            fn visit_seq<Sq: SeqAccess<'de>>(self, mut seq: Sq) -> Result<Self::Value, Sq::Error> {
                let value = seq.next_element::<T>()?;
                if value.is_some() && seq.next_element::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(2, &self));
                }
                Ok(SlotOwned(value))
            }
        }
        deserializer.deserialize_seq(SlotVisitor(PhantomData))
    }
}

/// A row, borrowed for writing.
struct RowRef<'a, V>(&'a V);

impl<V: SavedRow> Serialize for RowRef<'_, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_row(serializer)
    }
}

/// A row, read back.
struct RowOwned<V>(V);

impl<'de, V: SavedRow> Deserialize<'de> for RowOwned<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        V::deserialize_row(deserializer).map(RowOwned)
    }
}

/// `WorldSave::entities` through [`SavedRow`].
fn serialize_entities<V: SavedRow, S: Serializer>(
    entities: &[(u64, V)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(entities.iter().map(|(id, row)| (id, RowRef(row))))
}

fn deserialize_entities<'de, V: SavedRow, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<(u64, V)>, D::Error> {
    let rows = Vec::<(u64, RowOwned<V>)>::deserialize(deserializer)?;
    Ok(rows.into_iter().map(|(id, row)| (id, row.0)).collect())
}

macro_rules! component_set {
    ($n:literal; $($c:ident $v:ident),+) => {
        impl<$($c),+> ComponentSet for ($($c,)+)
        where
            $($c: Component + Clone + Serialize + DeserializeOwned),+
        {
            type Values = ($(Option<$c>,)+);
            fn read(entity: &EntityRef<'_>) -> Self::Values {
                ($(entity.get::<$c>().cloned(),)+)
            }
            fn write(values: Self::Values, entity: &mut EntityWorldMut<'_>) {
                let ($($v,)+) = values;
                $(match $v {
                    Some(value) => {
                        entity.insert(value);
                    }
                    None => {
                        entity.remove::<$c>();
                    }
                })+
            }
        }

        impl<$($c),+> SavedRow for ($(Option<$c>,)+)
        where
            $($c: Serialize + DeserializeOwned),+
        {
            fn serialize_row<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let ($($v,)+) = self;
                let mut tuple = serializer.serialize_tuple($n)?;
                $(tuple.serialize_element(&Slot($v))?;)+
                tuple.end()
            }

            fn deserialize_row<'de, De: Deserializer<'de>>(
                deserializer: De,
            ) -> Result<Self, De::Error> {
                struct Row<$($c),+>(PhantomData<($($c,)+)>);
                impl<'de, $($c: DeserializeOwned),+> Visitor<'de> for Row<$($c),+> {
                    type Value = ($(Option<$c>,)+);
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        write!(f, "a row of {} component slots", $n)
                    }
                    fn visit_seq<Sq: SeqAccess<'de>>(self, mut seq: Sq) -> Result<Self::Value, Sq::Error> {
                        let mut read = 0;
                        $(
                            let $v = match seq.next_element::<SlotOwned<$c>>()? {
                                Some(slot) => slot.0,
                                None => return Err(de::Error::invalid_length(read, &self)),
                            };
                            read += 1;
                        )+
                        let _ = read;
                        Ok(($($v,)+))
                    }
                }
                deserializer.deserialize_tuple($n, Row(PhantomData))
            }
        }
    };
}

component_set!(1; A a);
component_set!(2; A a, B b);
component_set!(3; A a, B b, C c);
component_set!(4; A a, B b, C c, D d);
component_set!(5; A a, B b, C c, D d, E e);
component_set!(6; A a, B b, C c, D d, E e, F f);

/// A save: the plugin's whole [`LoopState`] (every private field, tickfold-core's `serde`)
/// and the components `C` of every entity marked [`Saved`], nothing else. Write it with
/// [`save_world`], read it back with any serde format and give it to [`load_world`].
///
/// Each tick's start, end and number come from the loop itself, and so does each clock's
/// `Time<Fixed>` between frames (its latest tick, [`ClockHandle::latest_tick`]): the save
/// holds no grid or time of the plugin's, and a loaded run sets every `Time` from the loop as
/// the original did.
///
/// [`ClockHandle::latest_tick`]: tickfold_core::ClockHandle::latest_tick
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct WorldSave<C: ComponentSet> {
    /// The loop.
    pub state: LoopState,
    /// The entities by their [`Saved`] id, with their components. Each entity's components
    /// are written with their presence explicit ([`SavedRow`]), so no component is lost or
    /// invented by a save and a load in any serde format, unit-struct markers included.
    #[serde(
        serialize_with = "serialize_entities",
        deserialize_with = "deserialize_entities"
    )]
    pub entities: Vec<(u64, C::Values)>,
}

impl<C: ComponentSet> fmt::Debug for WorldSave<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorldSave")
            .field("state", &self.state)
            .field("entities", &self.entities.len())
            .finish_non_exhaustive()
    }
}

/// Why a save was not loaded; the world is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// The world has no [`TickfoldPlugin`](crate::TickfoldPlugin).
    NoPlugin,
    /// The saved loop has a clock the app's plugin does not run (build the app with the
    /// plugin the save was made with, and add clocks added at run time again first).
    UnknownClock(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NoPlugin => f.write_str("the world has no TickfoldPlugin"),
            LoadError::UnknownClock(name) => {
                write!(
                    f,
                    "the saved loop's clock {name:?} has no schedule in this app"
                )
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Saves the plugin's loop and the components `C` of every entity marked [`Saved`], in the
/// order of their ids. Call it between frames (not from a system of a clock schedule).
///
/// Not in the save: messages read but not yet given to a tick ([`TickInputs`](crate::TickInputs)
/// queues, at most the input of the frames since the clock's latest tick; a load empties the
/// queues), resources (save yours beside it), and `CurrentTick`.
///
/// An entity with interpolated transforms
/// ([`TransformInterpolation`](crate::TransformInterpolation)) is saved with its history:
/// `save_world::<(Transform, TransformInterpolation,
/// TransformHistory, VelocityHistory, MyVelocity)>` (`VelocityHistory` and your velocity for
/// the velocity easings). Between frames `Transform` holds the render's blend, the
/// [`TransformHistory`](crate::TransformHistory) the simulated value and the previous capture;
/// a `Transform` saved without its history loads the blend as the simulated value.
///
/// # Examples
///
/// ```
/// use bevy_app::prelude::*;
/// use bevy_ecs::prelude::*;
/// use bevy_ecs::schedule::ScheduleLabel;
/// use bevy_time::{TimePlugin, TimeUpdateStrategy};
/// use core::time::Duration;
/// use serde::{Deserialize, Serialize};
/// use tickfold_bevy::{ClockConfig, Period, Saved, TickfoldPlugin, WorldSave, load_world, save_world};
///
/// #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
/// struct FixedPhysics;
/// #[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
/// struct Height(f64);
///
/// fn fall(mut q: Query<&mut Height>) {
///     q.iter_mut().for_each(|mut h| h.0 -= 0.1);
/// }
/// let app = || {
///     let mut app = App::new();
///     let clock = ClockConfig::new("physics", Period::from_hz(60).unwrap());
///     app.add_plugins((TimePlugin, TickfoldPlugin::new().clock(FixedPhysics, clock)))
///         .add_systems(FixedPhysics, fall)
///         .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(40)));
///     app.update(); // starts Bevy's clock
///     app
/// };
/// let mut a = app();
/// a.world_mut().spawn((Saved(1), Height(10.0)));
/// a.update();
/// let file = serde_json::to_string(&save_world::<(Height,)>(a.world_mut()))?;
///
/// let mut b = app(); // a fresh app: its clock at 0, the loaded loop at 40 ms
/// let save: WorldSave<(Height,)> = serde_json::from_str(&file)?;
/// load_world(b.world_mut(), save)?;
/// for app in [&mut a, &mut b] {
///     app.update();
/// }
/// let h = |app: &mut App| app.world_mut().query::<&Height>().single(app.world()).unwrap().0;
/// assert_eq!(h(&mut a).to_bits(), h(&mut b).to_bits()); // 4 ticks each
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn save_world<C: ComponentSet>(world: &mut World) -> WorldSave<C> {
    let mut entities: Vec<(u64, C::Values)> = world
        .query::<(EntityRef, &Saved)>()
        .iter(world)
        .map(|(e, saved)| (saved.0, C::read(&e)))
        .collect();
    entities.sort_by_key(|e| e.0);
    let state = match world.get_resource::<Tickfold>() {
        Some(tf) => tf.state.clone(),
        None => empty_state(),
    };
    WorldSave { state, entities }
}

/// `Time<Virtual>` (and `Time`, which is `Time<Virtual>` between frames) at the loaded loop's
/// latest reading `now`, reached by a frame of `delta`, as the saved app showed it; the app's
/// own pause, speed, max delta and wrap period stay. Virtual time may go back (a fresh app
/// that ran longer than the save): the resource is made anew.
fn restore_virtual(world: &mut World, now: Nanos, delta: Nanos) {
    let Some(virt) = world.get_resource::<Time<Virtual>>() else {
        return;
    };
    let mut restored = Time::new_with(*virt.context());
    restored.set_wrap_period(virt.wrap_period());
    let (now, delta) = (Duration::from_nanos(now.0), Duration::from_nanos(delta.0));
    restored.advance_to(now.saturating_sub(delta));
    restored.advance_to(now);
    world.insert_resource(restored);
    world.insert_resource(restored.as_generic());
}

/// A loop for a world without the plugin: nothing to save but the components.
fn empty_state() -> LoopState {
    let period = Period::ONE_SECOND;
    let config = tickfold_core::LoopConfig::new(period);
    match LoopState::new(config, Nanos(0)) {
        Ok(state) => state,
        Err(_) => unreachable!("a one-second clock is a valid configuration"),
    }
}

/// Loads `save` into a world built by the same plugin: the loop goes on from the save's
/// latest reading as if no time had passed, with `Time<Virtual>` (and `Time`) put back at
/// that reading and its latest frame's delta, as the original showed them (the app's pause,
/// relative speed, max delta and wrap period stay; virtual time goes back if the app had run
/// longer), so the next frame of `d` steps the loop at that reading plus `d` and no catch-up
/// clock's run sees time ahead of `Update`'s; each clock's `Time<Fixed>` (and the
/// world's, the main clock's) is the one the original showed between frames, read from the
/// loaded loop (its latest tick's elapsed and delta, the timestep of a rate changed since, the
/// overstep reaching the loop's latest reading; the app's wrap period stays), and every entity marked [`Saved`] gets the saved components `C` (inserted, or removed
/// when the save has none). A saved id with no entity is spawned; an entity whose `Saved` id
/// the save does not hold is despawned. From the next frame on, the same frames run the same
/// ticks with the same `Time` and the same components as the original run, and every frame
/// reads the same `Time<Fixed>`. [`Tickfold::render`](crate::Tickfold::render) is `None`
/// until the next frame in which time passes (interpolated transforms read the loop's alpha,
/// which the save holds).
///
/// # Errors
///
/// [`LoadError`]: no plugin, or a saved clock the app does not run. The world is unchanged.
pub fn load_world<C: ComponentSet>(
    world: &mut World,
    mut save: WorldSave<C>,
) -> Result<(), LoadError> {
    let Some(mut tf) = world.get_resource_mut::<Tickfold>() else {
        return Err(LoadError::NoPlugin);
    };
    for name in save.state.clock_names() {
        let id = save.state.clock(name).ok().map(|c| c.id());
        if id.is_none_or(|id| !tf.clocks.iter().any(|c| c.id == id && c.label.is_some())) {
            return Err(LoadError::UnknownClock(name.to_owned()));
        }
    }
    // The loop's `now` is `Time<Virtual>`'s elapsed time: the save's latest reading (and the
    // delta of its latest frame) goes back into `Time<Virtual>` below, so no schedule sees
    // time ahead of the frame's `Time<Virtual>` after a load either.
    let reading = save.state.real_time();
    let (now, delta) = (reading.elapsed(), reading.delta());
    tf.state = save.state.rebase(Nanos(0));
    tf.touch();
    tf.render = None;
    tf.now = now;
    let tf = &mut *tf;
    for entry in &mut tf.clocks {
        // Each clock's `Time<Fixed>` as the original showed it between frames: its latest
        // tick's, from the loaded loop, on the app's wrap period.
        if let Ok(clock) = tf.state.clock(entry.id) {
            // A catch-up clock's grid may have moved from its latest tick (an overstep
            // written to `Time<Fixed>`): its lag says where it stands. A slot ran at its
            // start: its overstep is virtual time past the slot's end.
            let lag = (clock.policy() == tickfold_core::Policy::CatchUp)
                .then(|| tf.state.clock(entry.id).map(|c| c.stats().lag).ok())
                .flatten();
            entry.restore(clock.latest_tick(), clock.rate(), tf.now, lag);
        }
    }
    let main = tf.clocks.first().map(|c| c.fixed);
    if let Some(main) = main {
        world.insert_resource(main);
    }
    restore_virtual(world, now, delta);
    crate::run::TickInputHooks::reset_queues(world);
    save.entities.sort_by_key(|e| e.0);
    let existing: Vec<(Entity, u64)> = world
        .query::<(Entity, &Saved)>()
        .iter(world)
        .map(|(e, s)| (e, s.0))
        .collect();
    for &(entity, id) in &existing {
        if save.entities.binary_search_by_key(&id, |e| e.0).is_err() {
            world.despawn(entity);
        }
    }
    for (id, values) in save.entities {
        let found = existing.iter().find(|e| e.1 == id).map(|e| e.0);
        let mut entity = match found {
            Some(entity) => world.entity_mut(entity),
            None => world.spawn(Saved(id)),
        };
        C::write(values, &mut entity);
    }
    Ok(())
}
