//! The main clock runs `FixedMain` as Bevy's own loop does: its sub-schedules in
//! `FixedMainScheduleOrder`'s order on every tick (a schedule the app inserts there included),
//! and a `FixedMain` with systems of its own runs whole. Each app is compared with the same app
//! on Bevy's own fixed loop.

mod common;

use core::time::Duration;

use bevy_app::{
    App, FixedFirst, FixedLast, FixedMain, FixedMainScheduleOrder, FixedPostUpdate, FixedPreUpdate,
    FixedUpdate,
};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_time::{Fixed, Time};
use common::{Rng, base_app, frame};
use tickfold_bevy::TickfoldPlugin;

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedCustom;

/// Every run of every fixed schedule: which one and `Time`'s elapsed inside it.
#[derive(Resource, Default)]
struct Runs(Vec<(&'static str, Duration)>);

fn mark(name: &'static str) -> impl FnMut(Res<Time>, ResMut<Runs>) {
    move |time: Res<Time>, mut runs: ResMut<Runs>| runs.0.push((name, time.elapsed()))
}

fn app(tickfold: bool, own_fixed_main_system: bool) -> App {
    let mut app = base_app();
    app.init_resource::<Runs>()
        .insert_resource(Time::<Fixed>::from_hz(64.0))
        .add_systems(FixedFirst, mark("first"))
        .add_systems(FixedPreUpdate, mark("pre"))
        .add_systems(FixedUpdate, mark("update"))
        .add_systems(FixedCustom, mark("custom"))
        .add_systems(FixedPostUpdate, mark("post"))
        .add_systems(FixedLast, mark("last"));
    app.world_mut()
        .resource_mut::<FixedMainScheduleOrder>()
        .insert_after(FixedUpdate, FixedCustom);
    if own_fixed_main_system {
        app.add_systems(FixedMain, mark("fixed_main"));
    }
    if tickfold {
        app.add_plugins(TickfoldPlugin::new());
    }
    app
}

fn run(app: &mut App) -> Vec<(&'static str, Duration)> {
    let mut rng = Rng::new(0x00f1_9ed0);
    for n in 0..300 {
        let ms = match rng.range(0, 9) {
            0 => 0,
            1 => rng.range(40, 120),
            _ => rng.range(1, 30),
        };
        frame(app, n, Duration::from_millis(ms));
    }
    app.world().resource::<Runs>().0.clone()
}

#[test]
fn fixed_main_runs_its_schedules_in_order_as_bevys_loop_does() {
    for own in [false, true] {
        let bevy = run(&mut app(false, own));
        let tickfold = run(&mut app(true, own));
        assert!(bevy.len() > 1_000, "{}", bevy.len());
        // Every sub-schedule, the inserted one in its place, on every tick.
        let ticks = bevy.iter().filter(|r| r.0 == "update").count();
        assert_eq!(bevy.iter().filter(|r| r.0 == "custom").count(), ticks);
        assert_eq!(
            bevy.iter().filter(|r| r.0 == "fixed_main").count(),
            if own { ticks } else { 0 }
        );
        let first_diff = bevy.iter().zip(&tickfold).position(|(a, b)| a != b);
        assert_eq!(
            first_diff.map(|i| (i, bevy[i], tickfold[i])),
            None,
            "FixedMain with a system of its own: {own}"
        );
        assert_eq!(bevy.len(), tickfold.len());
    }
}

/// A wrap period the app sets on `Time<Fixed>` (after the plugin is added) holds inside the
/// runs, as in Bevy's loop: the plugin sets the resource's fields, it does not replace it.
#[test]
fn the_apps_wrap_period_holds() {
    fn wrapped(time: Res<Time>, mut runs: ResMut<Runs>) {
        runs.0.push(("wrapped", time.elapsed_wrapped()));
    }
    let run_with = |tickfold: bool| {
        let mut app = base_app();
        app.init_resource::<Runs>()
            .add_systems(FixedUpdate, wrapped);
        if tickfold {
            app.add_plugins(TickfoldPlugin::new());
        }
        frame(&mut app, 0, Duration::ZERO);
        app.world_mut()
            .resource_mut::<Time<Fixed>>()
            .set_wrap_period(Duration::from_millis(100));
        for n in 1..40 {
            frame(&mut app, n, Duration::from_millis(37));
        }
        app.world().resource::<Runs>().0.clone()
    };
    let bevy = run_with(false);
    assert!(bevy.iter().all(|r| r.1 < Duration::from_millis(100)));
    assert!(bevy.len() > 80, "{}", bevy.len());
    assert_eq!(run_with(true), bevy);
}
