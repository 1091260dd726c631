//! The schedules a frame's ticks run, taken out of `Schedules` once for the frame and put back
//! after it, as Bevy's own loop takes `FixedMain` out once a frame.

use core::any::TypeId;
use core::fmt;

use bevy_app::{FixedMain, FixedMainScheduleOrder};
use bevy_ecs::schedule::{InternedScheduleLabel, Schedule, ScheduleLabel, Schedules};
use bevy_ecs::system::IntoSystem;
use bevy_ecs::world::World;

/// A schedule run before every tick of every tickfold clock, before the clock's own schedule,
/// with [`CurrentTick`](crate::CurrentTick) and `Time` already set for that tick. [`TransformInterpolationPlugin`](crate::TransformInterpolationPlugin)
/// captures there (on the one capture rule); add your own systems for anything that must
/// happen before a tick's gameplay.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BeforeTick;

/// The schedules of one frame's ticks, by label, each taken once (`None`: the app has no such
/// schedule, so nothing runs). Kept in [`Tickfold`](crate::Tickfold) between frames with its
/// labels and no schedule, so that a frame whose labels are those of the frame before (the
/// usual case) reuses the slots as they are.
pub(crate) struct Taken {
    slots: Vec<(InternedScheduleLabel, Option<Schedule>)>,
    /// Per slot: `Schedules` had no such schedule when last looked up.
    missing: Vec<bool>,
    /// How many schedules `Schedules` held when `missing` was found: while it holds as many,
    /// the missing labels are not looked up again (a lookup that misses costs about as much
    /// as one that finds). A schedule added since makes the count differ.
    count: Option<usize>,
    /// What one tick of the main clock runs, in order: `FixedMain`'s sub-schedules in
    /// `FixedMainScheduleOrder`'s order (a label listed twice runs twice), or `FixedMain`
    /// itself when it is not Bevy's own.
    main: Vec<usize>,
    /// The labels `main` was made from (`FixedMain` alone for the fallback).
    main_labels: Vec<InternedScheduleLabel>,
    /// The extra clocks' labels the slots were made with, in the clocks' order.
    clock_labels: Vec<InternedScheduleLabel>,
    /// The extra clocks' labels changed since the slots were made.
    clocks_changed: bool,
    /// `BeforeTick`'s slot.
    before_slot: usize,
    /// `BeforeTick`, interned once.
    before: InternedScheduleLabel,
    /// `FixedMain`, interned once.
    fixed_main: InternedScheduleLabel,
    /// Bevy's `FixedMain::run_fixed_main` system type.
    bevys_fixed_main: TypeId,
}

impl Default for Taken {
    fn default() -> Self {
        Taken {
            slots: Vec::new(),
            missing: Vec::new(),
            count: None,
            main: Vec::new(),
            main_labels: Vec::new(),
            clock_labels: Vec::new(),
            clocks_changed: true,
            before_slot: 0,
            before: BeforeTick.intern(),
            fixed_main: FixedMain.intern(),
            bevys_fixed_main: IntoSystem::system_type_id(&FixedMain::run_fixed_main),
        }
    }
}

impl fmt::Debug for Taken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Taken")
            .field("slots", &self.slots.len())
            .finish_non_exhaustive()
    }
}

/// The same interned label: the same reference (a fast path that never says yes wrongly: a
/// reference and its vtable are one label's), or equal values.
#[inline]
fn same(a: InternedScheduleLabel, b: InternedScheduleLabel) -> bool {
    core::ptr::eq(a.0, b.0) || a == b
}

fn same_labels(a: &[InternedScheduleLabel], b: &[InternedScheduleLabel]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&a, &b)| same(a, b))
}

impl Taken {
    /// The extra clocks' schedules, in the clocks' order, for [`take`](Self::take).
    pub(crate) fn set_clocks(&mut self, labels: impl Iterator<Item = InternedScheduleLabel>) {
        let mut n = 0;
        for label in labels {
            match self.clock_labels.get(n) {
                Some(&had) if same(had, label) => {}
                _ => {
                    self.clock_labels.truncate(n);
                    self.clock_labels.push(label);
                    self.clocks_changed = true;
                }
            }
            n += 1;
        }
        if self.clock_labels.len() != n {
            self.clock_labels.truncate(n);
            self.clocks_changed = true;
        }
    }

    /// Takes out of the world's `Schedules` what this frame's ticks run: `FixedMain`'s
    /// schedules, `BeforeTick` and the extra clocks' (see [`set_clocks`](Self::set_clocks)).
    ///
    /// `FixedMain`'s own system ([`FixedMain::run_fixed_main`]) runs the labels of
    /// `FixedMainScheduleOrder` in order, each through `World::try_run_schedule`, which takes the
    /// schedule out of `Schedules` and puts it back on every tick. When `FixedMain` holds that
    /// system alone, as Bevy builds it, the same schedules are taken once here and run in the
    /// same order on each tick; otherwise `FixedMain` itself runs on each tick.
    pub(crate) fn take(&mut self, world: &mut World) {
        let order = match world.get_resource::<FixedMainScheduleOrder>() {
            Some(order) if self.is_bevys_fixed_main(world) => order.labels.as_slice(),
            _ => core::slice::from_ref(&self.fixed_main),
        };
        if self.clocks_changed || !same_labels(order, &self.main_labels) {
            self.main_labels.clear();
            self.main_labels.extend_from_slice(order);
            self.clocks_changed = false;
            self.relabel();
        }
        let Some(mut schedules) = world.get_resource_mut::<Schedules>() else {
            return;
        };
        // `Schedules::iter` is exact-sized: its length costs nothing.
        let count = schedules.iter().size_hint().0;
        let recheck = self.count != Some(count);
        self.count = Some(count);
        for ((label, slot), missing) in self.slots.iter_mut().zip(&mut self.missing) {
            if *missing && !recheck {
                continue;
            }
            // Written only when found: moving a `None` costs a schedule's size.
            match schedules.remove_temporarily(*label) {
                Some(schedule) => {
                    *slot = Some(schedule);
                    *missing = false;
                }
                None => *missing = true,
            }
        }
    }

    /// The slots anew from `main_labels`, `before` and `clock_labels`, one per label.
    #[cold]
    fn relabel(&mut self) {
        self.slots.clear();
        self.missing.clear();
        self.main.clear();
        self.count = None;
        for k in 0..self.main_labels.len() {
            let i = self.slot(self.main_labels[k]);
            self.main.push(i);
        }
        self.before_slot = self.slot(self.before);
        for k in 0..self.clock_labels.len() {
            self.slot(self.clock_labels[k]);
        }
    }

    /// The slot of `label`, added (empty) if new.
    fn slot(&mut self, label: InternedScheduleLabel) -> usize {
        match self.slots.iter().position(|s| same(s.0, label)) {
            Some(i) => i,
            None => {
                self.slots.push((label, None));
                self.missing.resize(self.slots.len(), false);
                self.slots.len() - 1
            }
        }
    }

    /// Puts every taken schedule back into `Schedules` (one added there meanwhile under the
    /// same label is replaced, as `World::try_schedule_scope` does); the slots keep their
    /// labels.
    pub(crate) fn put_back(&mut self, world: &mut World) {
        let Some(mut schedules) = world.get_resource_mut::<Schedules>() else {
            self.slots.iter_mut().for_each(|s| s.1 = None);
            return;
        };
        for (_, slot) in &mut self.slots {
            if let Some(schedule) = slot.take() {
                let _ = schedules.reinsert(schedule);
            }
        }
    }

    /// Runs one tick of the main clock: `FixedMain`'s schedules in order.
    #[inline]
    pub(crate) fn run_main(&mut self, world: &mut World) {
        for k in 0..self.main.len() {
            if let Some(schedule) = &mut self.slots[self.main[k]].1 {
                schedule.run(world);
            }
        }
    }

    /// Runs the pre-tick schedule, if the app has one.
    #[inline]
    pub(crate) fn run_before(&mut self, world: &mut World) {
        if let Some((_, Some(schedule))) = self.slots.get_mut(self.before_slot) {
            schedule.run(world);
        }
    }

    /// Runs schedule `label` (an extra clock's), if the app has it.
    #[inline]
    pub(crate) fn run(&mut self, label: InternedScheduleLabel, world: &mut World) {
        if let Some((_, Some(schedule))) = self.slots.iter_mut().find(|s| same(s.0, label)) {
            schedule.run(world);
        }
    }

    /// `FixedMain` holds Bevy's own [`FixedMain::run_fixed_main`] alone, with no run condition.
    fn is_bevys_fixed_main(&self, world: &World) -> bool {
        let Some(schedule) = world
            .get_resource::<Schedules>()
            .and_then(|s| s.get(self.fixed_main))
        else {
            return false;
        };
        // Systems not yet built are in the graph; built ones in the executable schedule.
        let mut types = schedule
            .graph()
            .systems
            .iter()
            .map(|(_, system, conditions)| (system.system_type(), conditions.is_empty()))
            .chain(
                schedule
                    .systems()
                    .into_iter()
                    .flatten()
                    .map(|(_, system)| (system.system_type(), true)),
            );
        matches!(
            (types.next(), types.next()),
            (Some((ty, true)), None) if ty == self.bevys_fixed_main
        )
    }
}

#[cfg(test)]
mod tests {
    use bevy_app::{App, FixedLast, FixedMain, FixedMainScheduleOrder, FixedUpdate};
    use bevy_ecs::schedule::ScheduleLabel;

    use super::Taken;

    fn noop() {}

    /// Bevy's own `FixedMain` is run by its parts (one slot per label of the order); one with
    /// a system of its own runs whole.
    #[test]
    fn bevys_fixed_main_is_run_by_its_parts_and_any_other_whole() {
        for own in [false, true] {
            let mut app = App::new();
            app.add_systems(FixedUpdate, noop);
            if own {
                app.add_systems(FixedMain, noop);
            }
            let world = app.world_mut();
            let order = world.resource::<FixedMainScheduleOrder>().labels.len();
            let mut taken = Taken::default();
            taken.take(world);
            let want: Vec<_> = if own {
                vec![FixedMain.intern()]
            } else {
                world.resource::<FixedMainScheduleOrder>().labels.clone()
            };
            assert_eq!(taken.main_labels, want, "own system: {own}");
            assert_eq!(taken.main.len(), if own { 1 } else { order });
            // FixedUpdate (or FixedMain) is out of `Schedules` until put back.
            let label = if own {
                FixedMain.intern()
            } else {
                FixedUpdate.intern()
            };
            assert!(
                !world
                    .resource::<bevy_ecs::schedule::Schedules>()
                    .contains(label)
            );
            taken.put_back(world);
            assert!(
                world
                    .resource::<bevy_ecs::schedule::Schedules>()
                    .contains(label)
            );
        }
    }

    /// A label the app had no schedule for is not looked up again until `Schedules` holds
    /// another number of schedules: a schedule added later is found and run.
    #[test]
    fn a_schedule_added_later_is_taken() {
        let mut app = App::new();
        app.add_systems(FixedUpdate, noop);
        let mut taken = Taken::default();
        let has_last = |app: &App| {
            app.world()
                .resource::<bevy_ecs::schedule::Schedules>()
                .contains(FixedLast)
        };
        assert!(!has_last(&app));
        for _ in 0..3 {
            taken.take(app.world_mut());
            taken.put_back(app.world_mut());
        }
        app.add_systems(FixedLast, noop);
        taken.take(app.world_mut());
        assert!(!has_last(&app), "taken out for the frame");
        taken.put_back(app.world_mut());
        assert!(has_last(&app));
    }
}
