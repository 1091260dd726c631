//! Several trackers at once: a tuple of [`Interpolated`] trackers acts as one.

use hecs::{Component, DynamicBundle, Entity, EntityBuilder, World};
use tickfold_core::{Interpolate, Tick};

use crate::error::Error;
use crate::interpolated::Interpolated;

/// One or several component trackers driven together: [`Interpolated<T>`] and tuples of up to
/// eight of them, as hecs takes tuples of components in queries.
///
/// A tuple of component types, `Interpolated<(A, B)>`, would be ambiguous: tickfold-core
/// implements `Interpolate` for tuples, so `(A, B)` is itself one blendable component. A
/// tuple of trackers says which reading is meant, keeps each type's settings apart, and is
/// read type by type with no lookup (`trackers.0.extract(..)`).
///
/// # Examples
///
/// ```
/// use tickfold_hecs::{Interpolated, Tracker, hecs::World};
///
/// let mut world = World::new();
/// let mut tracked = (Interpolated::<[f32; 2]>::new(), Interpolated::<f32>::new().keep_ghosts(3));
/// let e = tracked.spawn(&mut world, ([0.0_f32, 0.0], 1.5_f32, "name"));
/// tracked.capture(&mut world); // both columns
/// *world.get::<&mut f32>(e)? = 2.5;
/// assert_eq!(tracked.1.sample(&world, e, 0.5)?.into_value(), 2.0);
/// tracked.despawn(&mut world, e)?; // a ghost for the `f32` tracker only
/// assert_eq!((tracked.0.ghosts().len(), tracked.1.ghosts().len()), (0, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Tracker {
    /// The capture rule of [`Tick::last_in_step`] for every tracker (each for its own clock);
    /// returns whether any captured.
    fn before_update(&mut self, world: &mut World, tick: &Tick) -> bool;

    /// Captures every tracked column now, whatever the tick.
    fn capture(&mut self, world: &mut World);

    /// Adds every tracker's companions to a bundle under construction.
    fn complete(&self, builder: &mut EntityBuilder);

    /// Records each tracker's ghost of `entity`, before a despawn.
    #[doc(hidden)]
    fn record_ghosts(&mut self, world: &World, entity: Entity);

    #[doc(hidden)]
    fn take_builder(&mut self) -> EntityBuilder;

    #[doc(hidden)]
    fn put_builder(&mut self, builder: EntityBuilder);

    /// Spawns `bundle` with the companions of every tracked component it holds, so the entity
    /// never moves archetype for the adapter. Reuses one builder: no allocation once warm.
    fn spawn(&mut self, world: &mut World, bundle: impl DynamicBundle) -> Entity {
        let mut builder = self.take_builder();
        builder.add_bundle(bundle);
        self.complete(&mut builder);
        let entity = world.spawn(builder.build());
        self.put_builder(builder);
        entity
    }

    /// Despawns `entity`, keeping a ghost for every tracker that keeps them.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchEntity`].
    fn despawn(&mut self, world: &mut World, entity: Entity) -> Result<(), Error> {
        if !world.contains(entity) {
            return Err(Error::NoSuchEntity(entity));
        }
        self.record_ghosts(world, entity);
        world
            .despawn(entity)
            .map_err(|_| Error::NoSuchEntity(entity))
    }
}

impl<T: Interpolate + Component + Clone> Tracker for Interpolated<T> {
    fn before_update(&mut self, world: &mut World, tick: &Tick) -> bool {
        Interpolated::before_update(self, world, tick)
    }

    fn capture(&mut self, world: &mut World) {
        Interpolated::capture(self, world);
    }

    fn complete(&self, builder: &mut EntityBuilder) {
        Interpolated::complete(self, builder);
    }

    fn record_ghosts(&mut self, world: &World, entity: Entity) {
        let _ = self.record_ghost(world, entity);
    }

    fn take_builder(&mut self) -> EntityBuilder {
        Interpolated::take_builder(self)
    }

    fn put_builder(&mut self, builder: EntityBuilder) {
        Interpolated::put_builder(self, builder);
    }
}

macro_rules! tuple {
    ($first:ident $(, $name:ident)*) => {
        impl<$first: Tracker $(, $name: Tracker)*> Tracker for ($first, $($name,)*) {
            #[allow(non_snake_case)]
            fn before_update(&mut self, world: &mut World, tick: &Tick) -> bool {
                let ($first, $($name,)*) = self;
                let any = $first.before_update(world, tick);
                $(let any = $name.before_update(world, tick) | any;)*
                any
            }

            #[allow(non_snake_case)]
            fn capture(&mut self, world: &mut World) {
                let ($first, $($name,)*) = self;
                $first.capture(world);
                $($name.capture(world);)*
            }

            #[allow(non_snake_case)]
            fn complete(&self, builder: &mut EntityBuilder) {
                let ($first, $($name,)*) = self;
                $first.complete(builder);
                $($name.complete(builder);)*
            }

            #[allow(non_snake_case)]
            fn record_ghosts(&mut self, world: &World, entity: Entity) {
                let ($first, $($name,)*) = self;
                $first.record_ghosts(world, entity);
                $($name.record_ghosts(world, entity);)*
            }

            fn take_builder(&mut self) -> EntityBuilder {
                self.0.take_builder()
            }

            fn put_builder(&mut self, builder: EntityBuilder) {
                self.0.put_builder(builder);
            }
        }
    };
}

tuple!(A);
tuple!(A, B);
tuple!(A, B, C);
tuple!(A, B, C, D);
tuple!(A, B, C, D, E);
tuple!(A, B, C, D, E, F);
tuple!(A, B, C, D, E, F, G);
tuple!(A, B, C, D, E, F, G, H);
