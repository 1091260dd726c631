//! Writes to `Time<Fixed>` (its timestep and its overstep) from the app's systems, honoured
//! as Bevy's own fixed loop honours them: the same runs in the same frames, with the same
//! `Time<Fixed>` timestep and overstep, whether the write comes from `Update`, `PreUpdate` or a
//! system in `FixedUpdate` (where it counts from the next run of the same frame).

mod common;

use core::time::Duration;

use bevy_app::{App, FixedUpdate, PreUpdate, Update};
use bevy_ecs::prelude::*;
use bevy_time::{Fixed, Time};
use common::{Frame, Rng, base_app, frame};
use tickfold_bevy::TickfoldPlugin;

/// One system's view of `Time<Fixed>`: (frame, in a fixed run, elapsed, delta, timestep,
/// overstep).
type View = (u64, bool, Duration, Duration, Duration, Duration);

#[derive(Resource, Default)]
struct Views(Vec<View>);

/// How many `FixedUpdate` runs so far (what the writing systems key on).
#[derive(Resource, Default)]
struct Runs(u64);

fn view(frame: &Frame, fixed: bool, f: &Time<Fixed>, views: &mut Views) {
    views.0.push((
        frame.0,
        fixed,
        f.elapsed(),
        f.delta(),
        f.timestep(),
        f.overstep(),
    ));
}

fn view_fixed(
    frame: Res<Frame>,
    f: Res<Time<Fixed>>,
    mut views: ResMut<Views>,
    mut runs: ResMut<Runs>,
) {
    runs.0 += 1;
    view(&frame, true, &f, &mut views);
}

fn view_update(frame: Res<Frame>, f: Res<Time<Fixed>>, mut views: ResMut<Views>) {
    view(&frame, false, &f, &mut views);
}

/// The same app on Bevy's own loop (`false`) or with the plugin (`true`), `writes` added.
fn app<M>(
    plugin: bool,
    writes: impl IntoScheduleConfigs<bevy_ecs::system::ScheduleSystem, M>,
    schedule: impl bevy_ecs::schedule::ScheduleLabel,
) -> App {
    let mut app = base_app();
    app.init_resource::<Views>()
        .init_resource::<Runs>()
        .add_systems(FixedUpdate, view_fixed)
        .add_systems(Update, view_update)
        .add_systems(schedule, writes);
    if plugin {
        app.add_plugins(TickfoldPlugin::new());
    }
    app
}

/// Mostly 0 to 40 ms; one frame in 40 of zero length, one in 60 a stall of 0.1 to 1 s
/// (several runs in one frame: a write in a run that is not the frame's last).
fn frames(seed: u64, n: usize) -> Vec<Duration> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| match rng.range(0, 119) {
            0..=2 => Duration::ZERO,
            3..=4 => Duration::from_micros(rng.range(100_000, 1_000_000)),
            _ => Duration::from_micros(rng.range(0, 40_000)),
        })
        .collect()
}

/// Runs both apps over `frames`; the frames whose views differ, and the first of them.
fn compare(
    bevy: &mut App,
    tf: &mut App,
    frames: &[Duration],
    elapsed: bool,
) -> (usize, Option<String>) {
    let mut differ = 0;
    let mut first = None;
    for (n, &d) in frames.iter().enumerate() {
        frame(bevy, n as u64, d);
        frame(tf, n as u64, d);
        let mut b = core::mem::take(&mut bevy.world_mut().resource_mut::<Views>().0);
        let mut t = core::mem::take(&mut tf.world_mut().resource_mut::<Views>().0);
        if !elapsed {
            for v in b.iter_mut().chain(t.iter_mut()) {
                v.2 = Duration::ZERO;
            }
        }
        if b != t {
            differ += 1;
            first.get_or_insert_with(|| format!("frame {n} ({d:?}):\n bevy {b:?}\n   tf {t:?}"));
        }
    }
    (differ, first)
}

fn fixed_runs(app: &App) -> u64 {
    app.world().resource::<Runs>().0
}

fn set_20_ms(mut f: ResMut<Time<Fixed>>) {
    f.set_timestep(Duration::from_millis(20));
}

/// The case: 10 ms frames for 1 s, `set_timestep(20 ms)` in `FixedUpdate`.
#[test]
fn set_timestep_in_fixed_update_counts_from_the_next_run_as_in_bevy() {
    let mut bevy = app(false, set_20_ms, FixedUpdate);
    let mut tf = app(true, set_20_ms, FixedUpdate);
    let frames = vec![Duration::from_millis(10); 101];
    let (differ, first) = compare(&mut bevy, &mut tf, &frames, true);
    assert_eq!(differ, 0, "{first:?}");
    assert_eq!((fixed_runs(&bevy), fixed_runs(&tf)), (50, 50));
    let step = |app: &App| app.world().resource::<Time<Fixed>>().timestep();
    assert_eq!(
        (step(&bevy), step(&tf)),
        (Duration::from_millis(20), Duration::from_millis(20))
    );
}

/// Every fifth run sets another timestep, in frames of several runs too.
fn cycle_timestep(runs: Res<Runs>, mut f: ResMut<Time<Fixed>>) {
    const STEPS: [u64; 4] = [20_000, 7_000, 15_625, 33_000];
    if runs.0 % 5 == 0 {
        f.set_timestep(Duration::from_micros(STEPS[(runs.0 / 5 % 4) as usize]));
    }
}

#[test]
fn set_timestep_in_fixed_runs_over_3000_frames_with_stalls_is_bevys() {
    let mut bevy = app(false, cycle_timestep.after(view_fixed), FixedUpdate);
    let mut tf = app(true, cycle_timestep.after(view_fixed), FixedUpdate);
    let (differ, first) = compare(&mut bevy, &mut tf, &frames(0x5e7_0001, 3_000), true);
    assert_eq!(differ, 0, "{first:?}");
    assert!(fixed_runs(&tf) > 3_000);
}

fn discard_all(mut f: ResMut<Time<Fixed>>) {
    let over = f.overstep();
    f.discard_overstep(over);
}

/// The case: `discard_overstep(overstep())` in `Update`: the same runs, with the same
/// `Time<Fixed>` (elapsed too: less than a tick is discarded each time).
#[test]
fn discarding_the_overstep_in_update_is_bevys() {
    let mut bevy = app(false, discard_all, Update);
    let mut tf = app(true, discard_all, Update);
    let (differ, first) = compare(&mut bevy, &mut tf, &frames(0x5e7_0002, 3_000), true);
    assert_eq!(differ, 0, "{first:?}");
    assert_eq!(fixed_runs(&bevy), fixed_runs(&tf));
}

/// Overstep written everywhere Bevy reads it: grown in `PreUpdate`, shrunk in `Update`, and
/// both in `FixedUpdate` runs (counting from the next run of the same frame).
fn pre_grow(frame: Res<Frame>, mut f: ResMut<Time<Fixed>>) {
    if frame.0 % 7 == 3 {
        f.accumulate_overstep(Duration::from_micros(frame.0 % 23 * 1_000));
    }
}

fn update_shrink(frame: Res<Frame>, mut f: ResMut<Time<Fixed>>) {
    if frame.0 % 5 == 1 {
        f.discard_overstep(Duration::from_micros(frame.0 % 11 * 1_000));
    }
}

fn fixed_both(runs: Res<Runs>, mut f: ResMut<Time<Fixed>>) {
    match runs.0 % 9 {
        2 => f.accumulate_overstep(Duration::from_millis(runs.0 % 13)),
        6 => f.discard_overstep(Duration::from_millis(runs.0 % 17)),
        _ => {}
    }
}

#[test]
fn overstep_written_in_pre_update_update_and_fixed_runs_is_bevys() {
    let build = |plugin| {
        let mut app = app(plugin, pre_grow, PreUpdate);
        app.add_systems(Update, update_shrink.after(view_update))
            .add_systems(FixedUpdate, fixed_both.after(view_fixed));
        app
    };
    let (mut bevy, mut tf) = (build(false), build(true));
    // `elapsed` aside: a discard of a tick or more (up to 16 ms here, at 15.625 ms ticks)
    // drops the whole ticks in it, reported, and simulation time goes on past them, where
    // Bevy's `elapsed` sums the runs' timesteps (see the crate docs).
    let (differ, first) = compare(&mut bevy, &mut tf, &frames(0x5e7_0003, 3_000), false);
    assert_eq!(differ, 0, "{first:?}");
    assert_eq!(fixed_runs(&bevy), fixed_runs(&tf));
}
