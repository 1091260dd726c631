//! The determinism kit's schedule property over a Bevy world: the same final components
//! however the same timeline is cut into frames (quickcheck's arbitrary schedules: vsync rates,
//! jitter, zero-length frames, stalls, time going backwards), and a slicing-dependent system
//! that the property catches.

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_time::{Time, TimePlugin};
use std::hash::Hasher;
use tickfold_bevy::{AppMismatch, AppSim, ClockConfig, CurrentTick, Period, TickfoldPlugin};
use tickfold_testing::quickcheck::{Gen, QuickCheck};
use tickfold_testing::{Fnv1a, Schedule};

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedPhysics;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedAi;

#[derive(Component)]
struct Body {
    y: f64,
    vy: f64,
}

/// What the AI clock decided at each of its ticks, from the bodies it saw.
#[derive(Resource, Default)]
struct Decisions(Vec<(u64, u64)>);

/// Semi-implicit Euler on `Time::delta` (the plugin's exact per-tick span).
fn fall(time: Res<Time>, mut bodies: Query<&mut Body>) {
    let dt = time.delta_secs_f64();
    for mut b in &mut bodies {
        b.vy -= 9.81 * dt;
        b.y += b.vy * dt;
        if b.y < 0.0 {
            b.vy = -b.vy * 0.9;
            b.y = -b.y;
        }
    }
}

/// Reads the physics state at its own ticks: the total order of the two clocks' ticks is part
/// of what must not depend on the frames.
fn decide(tick: Res<CurrentTick>, bodies: Query<&Body>, mut out: ResMut<Decisions>) {
    let sum: f64 = bodies.iter().map(|b| b.y).sum();
    out.0.push((tick.index, sum.to_bits()));
}

/// The planted bug: a kick once per frame, on the frame's last physics tick.
fn kick_per_frame(tick: Res<CurrentTick>, mut bodies: Query<&mut Body>) {
    if tick.last_in_step {
        bodies.iter_mut().for_each(|mut b| b.vy += 0.01);
    }
}

fn app(buggy: bool) -> App {
    let mut app = App::new();
    // No per-frame cap: a cap defers one clock's ticks while the other's run, which moves
    // the AI's reads relative to the physics ticks (a frame-dependent order, by design).
    let physics = ClockConfig::new("physics", Period::from_hz(60).unwrap()).max_updates(None);
    let ai = ClockConfig::new("ai", Period::from_hz(7).unwrap()).max_updates(None);
    let plugin = TickfoldPlugin::new()
        .clock(FixedPhysics, physics)
        .clock(FixedAi, ai)
        .virtual_time(tickfold_bevy::VirtualTime::KeepReal {
            max_frame_delta: None,
        });
    app.add_plugins((TimePlugin, plugin))
        .init_resource::<Decisions>()
        .add_systems(FixedPhysics, fall)
        .add_systems(FixedAi, decide);
    if buggy {
        app.add_systems(FixedPhysics, kick_per_frame.after(fall));
    }
    for i in 0..4 {
        app.world_mut().spawn(Body {
            y: 10.0 + f64::from(i),
            vy: f64::from(i),
        });
    }
    app
}

fn fingerprint(world: &mut World) -> u64 {
    let mut h = Fnv1a::new();
    let mut q = world.query::<&Body>();
    for b in q.iter(world) {
        h.write_u64(b.y.to_bits());
        h.write_u64(b.vy.to_bits());
    }
    for &(k, s) in &world.resource::<Decisions>().0 {
        h.write_u64(k);
        h.write_u64(s);
    }
    h.finish()
}

fn prop_sound(schedule: Schedule) -> Result<(), AppMismatch> {
    AppSim::new(|| app(false)).same_across_schedules([&schedule], fingerprint)
}

fn prop_buggy(schedule: Schedule) -> Result<(), AppMismatch> {
    AppSim::new(|| app(true)).same_across_schedules([&schedule], fingerprint)
}

#[test]
fn same_world_under_any_frame_slicing() {
    let passed = QuickCheck::new()
        .rng(Gen::new(24))
        .tests(60)
        .quicktest(prop_sound as fn(Schedule) -> Result<(), AppMismatch>);
    // quicktest returns the failing case; `quickcheck` would print it shrunk.
    if passed.is_err() {
        QuickCheck::new()
            .rng(Gen::new(24))
            .tests(60)
            .quickcheck(prop_sound as fn(Schedule) -> Result<(), AppMismatch>);
    }
    assert_eq!(passed.ok(), Some(60));
}

#[test]
fn hand_picked_schedules_agree_and_the_world_moved() {
    let sim = AppSim::new(|| app(false));
    let schedules = [
        Schedule::vsync(144u64, 300).unwrap(),
        Schedule::vsync((60_000u64, 1_001u64), 120).unwrap(),
        Schedule::from_millis(&[16.7, 0.0, -3.0, 250.0, 1700.0, 3.0]).unwrap(),
    ];
    sim.same_across_schedules(&schedules, fingerprint).unwrap();
    // Not vacuous: the bodies fell and the AI decided, as the fingerprint covers.
    let mut run = sim.run(&schedules[0], None);
    let ticks = run.world().resource::<Decisions>().0.len();
    assert_eq!(ticks, 14); // 300 frames at 144 Hz: 2.083 s, 7 Hz
    let fresh = fingerprint(app(false).world_mut());
    assert_ne!(fingerprint(run.world_mut()), fresh);
}

#[test]
fn the_property_catches_a_system_that_depends_on_the_frames() {
    // One 100 ms frame runs six ticks and one "last in step"; the reference runs six frames.
    let one_frame = Schedule::from_millis(&[100.0]).unwrap();
    let err = prop_buggy(one_frame).unwrap_err();
    assert_eq!(err.index, Some(0));
    assert!(err.what.starts_with("fingerprint"), "{err}");
    // And quickcheck finds it on arbitrary schedules.
    let found = QuickCheck::new()
        .rng(Gen::new(12))
        .tests(50)
        .quicktest(prop_buggy as fn(Schedule) -> Result<(), AppMismatch>);
    assert!(found.is_err(), "the planted bug went unnoticed");
}
