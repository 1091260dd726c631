//! Save and load: the plugin's loop with named components, saved mid-run through JSON and
//! loaded into a fresh `App`, runs every later tick (clock, number, start, `Time`) and ends
//! with every component bit for bit as the run that was never interrupted.

mod common;

use core::time::Duration;

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_time::Time;
use common::{FixedAi, FixedPhysics, Rng, base_app, frame, test_clock};
use serde::{Deserialize, Serialize};
use tickfold_bevy::{
    ClockConfig, CurrentTick, LoadError, Period, Policy, Saved, TickInputApp, TickInputs, Tickfold,
    TickfoldPlugin, WorldSave, load_world, save_world,
};

#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Pos(f64);
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Vel(f64);
/// Tick input: a push on every body, from the tick that takes it.
#[derive(Message, Clone, Copy, Debug)]
struct Nudge(f64);

/// Present on some entities only: the load must remove it where the save has none.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Boost(u32);

type Tracked = (Pos, Vel, Boost);

/// Every tick run: clock, number, start, `Time` inside, the sum of positions after it and the
/// nudges it took.
#[derive(Resource, Default)]
struct Ticks(Vec<(&'static str, u64, u64, Duration, Duration, u64, usize)>);

fn integrate(
    time: Res<Time>,
    nudges: Res<TickInputs<Nudge>>,
    mut q: Query<(&mut Pos, &Vel, Option<&Boost>)>,
) {
    let dt = time.delta_secs_f64();
    let push: f64 = nudges.iter().map(|n| n.0).sum();
    for (mut p, v, boost) in &mut q {
        p.0 += v.0 * dt * boost.map_or(1.0, |b| f64::from(b.0)) + push;
    }
}

fn steer(mut commands: Commands, tick: Res<CurrentTick>, mut q: Query<(Entity, &Pos, &mut Vel)>) {
    for (e, p, mut v) in &mut q {
        v.0 = -p.0 * 0.5 + (tick.index % 3) as f64;
        if tick.index % 4 == 1 {
            commands.entity(e).insert(Boost(2));
        } else if tick.index % 4 == 3 {
            commands.entity(e).remove::<Boost>();
        }
    }
}

fn log(
    tick: Res<CurrentTick>,
    time: Res<Time>,
    nudges: Res<TickInputs<Nudge>>,
    q: Query<(&Saved, &Pos)>,
    mut ticks: ResMut<Ticks>,
) {
    let took = match tick.name() {
        "physics" => nudges.as_slice().len(),
        _ => 0,
    };
    // Summed in id order: the query's order is the tables', which a load may change.
    let mut all: Vec<(u64, f64)> = q.iter().map(|(s, p)| (s.0, p.0)).collect();
    all.sort_by_key(|e| e.0);
    let sum: f64 = all.iter().map(|e| e.1).sum();
    let entry = (
        test_clock(tick.name()),
        tick.index,
        tick.t.0,
        time.elapsed(),
        time.delta(),
        sum.to_bits(),
        took,
    );
    ticks.0.push(entry);
}

fn app() -> App {
    let mut app = base_app();
    let plugin = TickfoldPlugin::new()
        .clock(
            FixedPhysics,
            ClockConfig::new("physics", Period::from_hz(60).unwrap()),
        )
        .clock(
            FixedAi,
            ClockConfig::new("ai", Period::from_hz(7).unwrap()).policy(Policy::DropAndRest),
        );
    app.add_plugins(plugin)
        .add_tick_input::<Nudge>("physics")
        .init_resource::<Ticks>()
        .add_systems(FixedPhysics, (integrate, log).chain())
        .add_systems(FixedAi, (steer, log).chain());
    app
}

fn frames(seed: u64, n: usize) -> Vec<Duration> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| match rng.range(0, 29) {
            0 => Duration::from_millis(rng.range(100, 400)), // a hitch: clamped, deferred
            1 => Duration::ZERO,
            _ => Duration::from_micros(rng.range(1_000, 35_000)),
        })
        .collect()
}

/// An entity's id and its components' bits.
type Row = (u64, Option<u64>, Option<u64>, Option<u32>);

fn components(app: &mut App) -> Vec<Row> {
    let world = app.world_mut();
    let mut q = world.query::<(&Saved, Option<&Pos>, Option<&Vel>, Option<&Boost>)>();
    let mut out: Vec<_> = q
        .iter(world)
        .map(|(s, p, v, b)| {
            (
                s.0,
                p.map(|p| p.0.to_bits()),
                v.map(|v| v.0.to_bits()),
                b.map(|b| b.0),
            )
        })
        .collect();
    out.sort_unstable();
    out
}

/// Runs `frames` on `app` from frame number `from`; at frame `rate_at`, changes the physics
/// rate with tickfold's control (so the saved `Time` grid is not the one the clock started
/// on), and at the next frame the main clock's by writing `Time<Fixed>`'s timestep, as a Bevy
/// app does. Every tenth frame sends a nudge.
fn run(app: &mut App, frames: &[Duration], from: usize, rate_at: usize) {
    for (i, &d) in frames.iter().enumerate() {
        let n = from + i;
        if n % 10 == 0 {
            app.world_mut().write_message(Nudge(n as f64 * 1e-3));
        }
        if n == rate_at {
            let mut tf = app.world_mut().resource_mut::<Tickfold>();
            tf.clock_mut("physics")
                .unwrap()
                .set_rate(Period::from_hz(90).unwrap());
        }
        if n == rate_at + 1 {
            let mut fixed = app.world_mut().resource_mut::<Time<bevy_time::Fixed>>();
            fixed.set_timestep(Duration::from_millis(20));
        }
        frame(app, n as u64, d);
    }
}

fn spawn(app: &mut App) {
    for i in 0..5u32 {
        let mut e = app
            .world_mut()
            .spawn((Saved(u64::from(i) * 10), Pos(f64::from(i)), Vel(1.0)));
        if i % 2 == 0 {
            e.insert(Boost(3));
        }
    }
}

#[test]
fn a_loaded_app_goes_on_bit_for_bit_from_any_save_point() {
    for seed in 0..6u64 {
        let frames = frames(0xface_0000 + seed, 400);
        let rate_at = 60 + seed as usize * 20;
        let mut whole = app();
        spawn(&mut whole);
        run(&mut whole, &frames, 0, rate_at);
        let whole_ticks = whole.world().resource::<Ticks>().0.clone();

        // The same run, saved after frame `k` and loaded into an app that has never run.
        // Five frames after a nudge: no nudge waits for a tick (the save does not hold them).
        let k = 35 + seed as usize * 50;
        let mut first = app();
        spawn(&mut first);
        run(&mut first, &frames[..k], 0, rate_at);
        let done = first.world().resource::<Ticks>().0.len();
        let file = serde_json::to_string(&save_world::<Tracked>(first.world_mut())).unwrap();
        drop(first);

        let mut second = app();
        frame(&mut second, 0, Duration::ZERO); // Bevy's first update: the app's clock at 0
        if seed % 2 == 1 {
            // An app that has run longer than the save's loop, with nudges of its own (a
            // load drops them): the loop goes on from the save's reading all the same.
            for n in 1..=80 {
                second.world_mut().write_message(Nudge(1.0));
                frame(&mut second, n, Duration::from_millis(100));
            }
        }
        // An entity the save does not know, and one missing a component it has.
        second.world_mut().spawn((Saved(999), Pos(5.0), Vel(5.0)));
        second.world_mut().spawn((Saved(10), Pos(0.0)));
        let save: WorldSave<Tracked> = serde_json::from_str(&file).unwrap();
        load_world(second.world_mut(), save).unwrap();
        second.world_mut().resource_mut::<Ticks>().0.clear();
        run(&mut second, &frames[k..], k, rate_at);

        let after = &whole_ticks[done..];
        assert!(after.len() > 100, "seed {seed}: {} ticks", after.len());
        let got = &second.world().resource::<Ticks>().0;
        let first_diff = got.iter().zip(after).position(|(a, b)| a != b);
        assert_eq!(
            first_diff.map(|i| (i, got[i], after[i])),
            None,
            "seed {seed}: the first tick that differs after the load"
        );
        assert_eq!(got.len(), after.len(), "seed {seed}");
        assert_eq!(
            components(&mut second),
            components(&mut whole),
            "seed {seed}"
        );
        let (a, b) = (
            whole.world().resource::<Tickfold>().state(),
            second.world().resource::<Tickfold>().state(),
        );
        assert_eq!(a.virtual_time().elapsed(), b.virtual_time().elapsed());
        assert_eq!(a.real_time().elapsed(), b.real_time().elapsed());
        // Nudges reached ticks after the load, the same ones as in the whole run.
        assert!(after.iter().filter(|t| t.6 > 0).count() > 3, "seed {seed}");
    }
}

#[test]
fn a_save_from_another_loop_is_refused_and_changes_nothing() {
    let mut a = app();
    spawn(&mut a);
    frame(&mut a, 0, Duration::ZERO);
    frame(&mut a, 1, Duration::from_millis(50));
    let save = save_world::<Tracked>(a.world_mut());

    // An app whose loop has only a physics clock does not run the save's AI clock.
    let mut b = base_app();
    let clock = ClockConfig::new("physics", Period::from_hz(60).unwrap());
    b.add_plugins(TickfoldPlugin::new().clock(FixedPhysics, clock));
    b.world_mut().spawn((Saved(0), Pos(42.0)));
    let before = components(&mut b);
    assert_eq!(
        load_world(b.world_mut(), save),
        Err(LoadError::UnknownClock("ai".to_owned()))
    );
    assert_eq!(components(&mut b), before);
    assert_eq!(
        b.world()
            .resource::<Tickfold>()
            .state()
            .real_time()
            .elapsed(),
        tickfold_bevy::Nanos(0)
    );
}

/// Every clock's `Time<Fixed>` after a frame (the world's resource is the main clock's), as
/// `(elapsed, delta, timestep, overstep)` in ns.
type FixedTimes = Vec<(u128, u128, u128, u128)>;

fn fixed_times(app: &App) -> FixedTimes {
    let world = app.world();
    let tf = world.resource::<Tickfold>();
    let read = |t: &Time<bevy_time::Fixed>| {
        (
            t.elapsed().as_nanos(),
            t.delta().as_nanos(),
            t.timestep().as_nanos(),
            t.overstep().as_nanos(),
        )
    };
    let mut out: FixedTimes = ["main", "physics", "ai"]
        .into_iter()
        .map(|clock| read(tf.fixed_time(clock).unwrap()))
        .collect();
    out.push(read(world.resource::<Time<bevy_time::Fixed>>()));
    out
}

/// The frames of `run` one by one, with every clock's `Time<Fixed>` after each.
fn run_fixed(app: &mut App, frames: &[Duration], from: usize, rate_at: usize) -> Vec<FixedTimes> {
    (0..frames.len())
        .map(|i| {
            run(app, &frames[i..=i], from + i, rate_at);
            fixed_times(app)
        })
        .collect()
}

/// Runs `frames` whole, and cut at frame `k` by a save loaded into a fresh app (which ran
/// `warm` frames of its own first): every clock's `Time<Fixed>` must be the unbroken run's
/// right after the load and after every later frame. Returns those of the resumed run.
fn resume_times(frames: &[Duration], k: usize, rate_at: usize, warm: u64) -> Vec<FixedTimes> {
    let mut whole = app();
    spawn(&mut whole);
    let whole_times = run_fixed(&mut whole, frames, 0, rate_at);

    let mut first = app();
    spawn(&mut first);
    run(&mut first, &frames[..k], 0, rate_at);
    let file = serde_json::to_string(&save_world::<Tracked>(first.world_mut())).unwrap();
    drop(first);
    // The save is the loop and the components, nothing the plugin keeps besides.
    let keys: Vec<String> = match serde_json::from_str::<serde_json::Value>(&file).unwrap() {
        serde_json::Value::Object(map) => map.keys().cloned().collect(),
        other => panic!("a save is an object, not {other}"),
    };
    assert_eq!(keys, ["entities", "state"]);

    let mut second = app();
    frame(&mut second, 0, Duration::ZERO);
    for n in 1..=warm {
        frame(&mut second, n, Duration::from_millis(30));
    }
    let save: WorldSave<Tracked> = serde_json::from_str(&file).unwrap();
    load_world(second.world_mut(), save).unwrap();
    assert_eq!(
        fixed_times(&second),
        whole_times[k - 1],
        "cut at {k}: right after the load"
    );
    let got = run_fixed(&mut second, &frames[k..], k, rate_at);
    let want = &whole_times[k..];
    let first_diff = got.iter().zip(want).position(|(a, b)| a != b);
    assert_eq!(
        first_diff.map(|i| (k + i, &got[i], &want[i])),
        None,
        "cut at {k}: the first frame whose Time<Fixed> differs after the load"
    );
    got
}

#[test]
fn a_loaded_apps_time_fixed_equals_the_unbroken_ones_frame_by_frame() {
    for seed in 0..4u64 {
        let frames = frames(0xf1ed_0000 + seed, 300);
        let rate_at = 40 + seed as usize * 30;
        let k = 50 + seed as usize * 45;
        let got = resume_times(&frames, k, rate_at, seed * 7);
        // The AI clock (7 Hz) waits several frames for its next tick after the load: those
        // frames read its `Time<Fixed>` from the loop's latest tick, the overstep grown since.
        let ai_still = got.iter().take_while(|t| t[2].0 == got[0][2].0).count();
        assert!(ai_still > 1, "seed {seed}: {ai_still} frames");
    }
}

#[test]
fn a_save_between_a_rate_change_and_the_clocks_next_tick_shows_the_new_timestep() {
    for seed in 0..3u64 {
        let mut frames = frames(0x7a7e_0000 + seed, 120);
        let rate_at = 30 + seed as usize * 20;
        // No time passes in the frames of the two rate changes: no tick runs at the new rates
        // before the saves, which hold each clock's latest tick at its old rate.
        frames[rate_at] = Duration::ZERO;
        frames[rate_at + 1] = Duration::ZERO;
        for k in [rate_at + 1, rate_at + 2] {
            let got = resume_times(&frames, k, rate_at, seed);
            let physics = &got[0][1];
            // The 90 Hz physics clock's next tick is 11,111,111 ns long.
            assert_eq!(physics.2, 11_111_111, "seed {seed}, cut at {k}: {got:?}");
        }
        // The main clock's 20 ms, written as `Time<Fixed>`'s timestep, holds after the load.
        let got = resume_times(&frames, rate_at + 2, rate_at, seed);
        assert_eq!(got[0][0].2, 20_000_000);
        assert_eq!(got[0][3].2, 20_000_000);
    }
}

/// Per frame: the latest `Time` a catch-up clock's schedule saw (main, physics; the AI clock
/// runs its slots at their start, so its `Time` is the slot's end, ahead of virtual time by
/// design), and `Update`'s `Time` and `Time<Virtual>` (elapsed, delta).
#[derive(Resource, Default)]
struct FrameTimes {
    fixed: Duration,
    frames: Vec<(Duration, Duration, Duration, Duration)>,
}

fn see_fixed(time: Res<Time>, mut seen: ResMut<FrameTimes>) {
    seen.fixed = seen.fixed.max(time.elapsed());
}

fn see_update(time: Res<Time>, virt: Res<Time<bevy_time::Virtual>>, mut seen: ResMut<FrameTimes>) {
    let entry = (seen.fixed, time.elapsed(), virt.elapsed(), virt.delta());
    seen.frames.push(entry);
}

fn app_seeing_times() -> App {
    let mut app = app();
    app.init_resource::<FrameTimes>()
        .add_systems(bevy_app::FixedUpdate, see_fixed)
        .add_systems(FixedPhysics, see_fixed)
        .add_systems(bevy_app::Update, see_update);
    app
}

/// After `load_world`, `Time<Virtual>` is the saved app's (its latest reading and delta), so
/// `Update`'s `Time` is never behind the catch-up clocks' runs in the same frame, and every frame reads
/// the times the unbroken run read; whether the fresh app had run for less time than the save
/// or for more.
#[test]
fn after_a_load_no_schedule_sees_time_ahead_of_the_frames_virtual_time() {
    let frames = frames(0x7131_0000, 400);
    let k = 150;
    let mut whole = app_seeing_times();
    spawn(&mut whole);
    run(&mut whole, &frames, 0, NEVER);
    let want = whole.world().resource::<FrameTimes>().frames[k..].to_vec();
    let mut first = app_seeing_times();
    spawn(&mut first);
    run(&mut first, &frames[..k], 0, NEVER);
    let saved_virtual = first
        .world()
        .resource::<Time<bevy_time::Virtual>>()
        .elapsed();
    let file = serde_json::to_string(&save_world::<Tracked>(first.world_mut())).unwrap();
    // A fresh app behind the save (3 frames) and one ahead of it (a minute of frames).
    for warm in [3_u64, 2_000] {
        let mut second = app_seeing_times();
        frame(&mut second, 0, Duration::ZERO);
        for n in 1..=warm {
            frame(&mut second, n, Duration::from_millis(30));
        }
        let save: WorldSave<Tracked> = serde_json::from_str(&file).unwrap();
        load_world(second.world_mut(), save).unwrap();
        let w = second.world();
        assert_eq!(
            w.resource::<Time<bevy_time::Virtual>>().elapsed(),
            saved_virtual
        );
        assert_eq!(w.resource::<Time>().elapsed(), saved_virtual);
        *second.world_mut().resource_mut::<FrameTimes>() = FrameTimes::default();
        run(&mut second, &frames[k..], k, NEVER);
        let got = &second.world().resource::<FrameTimes>().frames;
        let ahead = got.iter().filter(|f| f.0 > f.1).count();
        assert_eq!(
            ahead, 0,
            "warm {warm}: frames whose runs were ahead of Update"
        );
        assert_eq!(got, &want, "warm {warm}");
    }
    assert!(want.iter().all(|f| f.0 <= f.1 && f.1 == f.2));
}

/// A frame number `run` never reaches: no rate change.
const NEVER: usize = 1 << 40;
