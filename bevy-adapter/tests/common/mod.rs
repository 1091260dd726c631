//! Shared by the integration tests: a seeded frame schedule, schedule labels and a recorder.

#![allow(dead_code, unreachable_pub)]

use core::time::Duration;

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_time::{Time, TimePlugin, TimeUpdateStrategy};
use tickfold_bevy::CurrentTick;
use tickfold_testing::SplitMix64;

/// The tests' seeded noise: the determinism kit's generator (the workspace's one), with the
/// range the schedules draw from.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.0.below(hi - lo + 1)
    }
}

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FixedPhysics;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FixedNet;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FixedAi;

/// The frame the test is driving (set before each `app.update()`).
#[derive(Resource, Default)]
pub struct Frame(pub u64);

/// One fixed run as a system saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub frame: u64,
    /// `Time::elapsed()` inside the run.
    pub elapsed: Duration,
    /// `Time::delta()` inside the run.
    pub delta: Duration,
    /// Clock name (`""` for Bevy's own fixed loop).
    pub clock: &'static str,
    pub index: u64,
    pub t: u64,
    pub last_in_step: bool,
}

#[derive(Resource, Default)]
pub struct Log(pub Vec<Run>);

/// The tests' clock names as `&'static str`, so a log entry compares with a literal in tuples
/// (`CurrentTick::name` borrows from the resource).
pub fn test_clock(name: &str) -> &'static str {
    ["main", "physics", "ai", "net", "fixed"]
        .into_iter()
        .find(|known| *known == name)
        .unwrap_or_else(|| panic!("a clock name the tests do not use: {name:?}"))
}

/// Records a run of a tickfold clock schedule.
pub fn record_tick(
    frame: Res<Frame>,
    time: Res<Time>,
    tick: Res<CurrentTick>,
    mut log: ResMut<Log>,
) {
    assert!(tick.is_running());
    log.0.push(Run {
        frame: frame.0,
        elapsed: time.elapsed(),
        delta: time.delta(),
        clock: test_clock(tick.name()),
        index: tick.index,
        t: tick.t.0,
        last_in_step: tick.last_in_step,
    });
}

/// Records a run of Bevy's `FixedUpdate` (counting its runs as tick numbers).
pub fn record_bevy(frame: Res<Frame>, time: Res<Time>, mut log: ResMut<Log>) {
    let index = log.0.len() as u64;
    log.0.push(Run {
        frame: frame.0,
        elapsed: time.elapsed(),
        delta: time.delta(),
        clock: "",
        index,
        t: 0,
        last_in_step: false,
    });
}

/// An app with Bevy's `TimePlugin`, time fed by `ManualDuration`, and the recorder's resources.
pub fn base_app() -> App {
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .init_resource::<Frame>()
        .init_resource::<Log>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    app
}

/// One frame of `d` (Bevy's first update only starts its clock, whatever `d`).
pub fn frame(app: &mut App, n: u64, d: Duration) {
    app.world_mut().resource_mut::<Frame>().0 = n;
    *app.world_mut().resource_mut::<TimeUpdateStrategy>() = TimeUpdateStrategy::ManualDuration(d);
    app.update();
}
