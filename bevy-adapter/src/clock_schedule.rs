//! The clocks' schedules: the sets an extra clock's schedule is ordered by, and the one place
//! that gives a clock's schedule that order, for clocks declared on the plugin and clocks
//! added at run time alike.

use bevy_ecs::schedule::{InternedScheduleLabel, IntoScheduleConfigs, Schedules, SystemSet};
use bevy_ecs::world::World;

use crate::resource::Tickfold;

/// The system sets of an extra clock's schedule, in this order, as `FixedMain` runs
/// `FixedFirst`, `FixedPreUpdate`, `FixedUpdate`, `FixedPostUpdate`, `FixedLast`: a system
/// added with `.in_set(ClockSystems::Update)` runs after every `First` and `PreUpdate` system
/// of the same tick. Systems outside the sets are unordered with respect to them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockSystems {
    /// Like `FixedFirst`.
    First,
    /// Like `FixedPreUpdate`.
    PreUpdate,
    /// Like `FixedUpdate`.
    Update,
    /// Like `FixedPostUpdate`.
    PostUpdate,
    /// Like `FixedLast`.
    Last,
}

/// Gives each clock not yet seen here its schedule, ordered by [`ClockSystems`] (the
/// schedule is made, empty, if the app has none), once per clock: the plugin calls it when it
/// is added (for the declared clocks) and at each frame before the clocks run (for those
/// [`Tickfold::add_clock`] added since). The main clock runs Bevy's `FixedMain`, which keeps
/// Bevy's own order.
pub(crate) fn prepare_clock_schedules(world: &mut World) {
    let Some(mut tf) = world.get_resource_mut::<Tickfold>() else {
        return;
    };
    if !tf.unprepared {
        return;
    }
    tf.unprepared = false;
    let labels: Vec<InternedScheduleLabel> = tf
        .clocks
        .iter_mut()
        .filter(|c| !c.prepared)
        .filter_map(|c| {
            c.prepared = true;
            c.label
        })
        .collect();
    let mut schedules = world.get_resource_or_init::<Schedules>();
    for label in labels {
        schedules.entry(label).configure_sets(
            (
                ClockSystems::First,
                ClockSystems::PreUpdate,
                ClockSystems::Update,
                ClockSystems::PostUpdate,
                ClockSystems::Last,
            )
                .chain(),
        );
    }
}
