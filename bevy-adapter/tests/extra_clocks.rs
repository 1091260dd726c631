//! Extra clocks behave like `FixedUpdate` in every respect, each checked against a plain Bevy
//! `App` whose `FixedUpdate` runs at the same rate (Bevy's own fixed loop): messages read in
//! every clock's schedule, the main clock kept, clocks added at run time ordered as declared
//! ones, clamped frames reported whatever the frame's systems do to the max delta.

mod common;

use core::time::Duration;

use bevy_app::{
    App, FixedFirst, FixedLast, FixedPostUpdate, FixedPreUpdate, FixedUpdate, PreUpdate, Update,
};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{ScheduleLabel, Schedules};
use bevy_time::{Fixed, Real, Time, Virtual};
use common::{FixedAi, FixedNet, Frame, Rng, base_app, frame};
use tickfold_bevy::{
    ClockConfig, ClockSystems, CurrentTick, Period, RemoveError, Tickfold, TickfoldPlugin,
    VirtualTimeClamped,
};

#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
struct Ping(u64);

/// How many `Ping`s the writer writes this frame (set by the test), and the next number.
#[derive(Resource, Default)]
struct ToWrite {
    now: u64,
    next: u64,
}

/// What each reader saw, run by run: (reader, frame, the numbers of the `Ping`s read).
#[derive(Resource, Default)]
struct Reads(Vec<(&'static str, u64, Vec<u64>)>);

/// Writes and reads in the order they happened (`Ok`: written, `Err`: read by a clock).
#[derive(Resource, Default)]
struct Order(Vec<Result<u64, Vec<u64>>>);

fn write_pings(mut to: ResMut<ToWrite>, mut pings: MessageWriter<Ping>) {
    for _ in 0..to.now {
        pings.write(Ping(to.next));
        to.next += 1;
    }
}

/// One `Ping` per run (the main clock's `FixedUpdate`), logged in [`Order`].
fn write_one_ping(
    mut to: ResMut<ToWrite>,
    mut pings: MessageWriter<Ping>,
    mut order: ResMut<Order>,
) {
    pings.write(Ping(to.next));
    order.0.push(Ok(to.next));
    to.next += 1;
}

fn reader(name: &'static str) -> impl FnMut(Res<Frame>, MessageReader<Ping>, ResMut<Reads>) {
    move |frame: Res<Frame>, mut pings: MessageReader<Ping>, mut reads: ResMut<Reads>| {
        let seen = pings.read().map(|p| p.0).collect();
        reads.0.push((name, frame.0, seen));
    }
}

fn ordered_reader(mut pings: MessageReader<Ping>, mut order: ResMut<Order>) {
    order.0.push(Err(pings.read().map(|p| p.0).collect()));
}

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn ping_app() -> App {
    let mut app = base_app();
    app.add_message::<Ping>()
        .init_resource::<ToWrite>()
        .init_resource::<Reads>()
        .init_resource::<Order>();
    app
}

/// Seeded frames of 1–60 ms, one in 40 a stall of 0.3–3 s (clamped to Bevy's 250 ms), each
/// with 0–3 `Ping`s to write.
fn frames(seed: u64, n: usize) -> Vec<(Duration, u64)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let ms = if rng.range(0, 39) == 0 {
                rng.range(300, 3_000)
            } else {
                rng.range(1, 60)
            };
            (Duration::from_millis(ms), rng.range(0, 3))
        })
        .collect()
}

fn drive(app: &mut App, frames: &[(Duration, u64)]) {
    frame(app, 0, Duration::ZERO);
    for (n, &(d, pings)) in frames.iter().enumerate() {
        app.world_mut().resource_mut::<ToWrite>().now = pings;
        frame(app, n as u64 + 1, d);
    }
}

fn reads_of(app: &App, name: &str) -> Vec<(u64, Vec<u64>)> {
    app.world()
        .resource::<Reads>()
        .0
        .iter()
        .filter(|r| r.0 == name)
        .map(|r| (r.1, r.2.clone()))
        .collect()
}

fn read_count(reads: &[(u64, Vec<u64>)]) -> usize {
    reads.iter().map(|r| r.1.len()).sum()
}

/// Item 1: `Ping`s written in `Update`. Bevy's loop at 64 Hz and at 10 Hz each read every one
/// in `FixedUpdate`; with the plugin the 64 Hz main clock's `FixedUpdate` and the 10 Hz `ai`
/// clock's schedule read the same ones in the same frames, and an `Update` reader sees each
/// once, as in Bevy.
#[test]
fn every_clock_reads_every_message_written_in_update_as_bevys_fixed_update_at_its_rate() {
    let frames = frames(0x43_0201, 2_000);
    let bevy = |hz: f64| {
        let mut app = ping_app();
        app.insert_resource(Time::<Fixed>::from_hz(hz))
            .add_systems(Update, (write_pings, reader("update")).chain())
            .add_systems(FixedUpdate, reader("fixed"));
        drive(&mut app, &frames);
        app
    };
    let (bevy64, bevy10) = (bevy(64.0), bevy(10.0));
    let mut app = ping_app();
    app.add_plugins(TickfoldPlugin::new().clock(FixedAi, ClockConfig::new("ai", hz(10))))
        .add_systems(Update, (write_pings, reader("update")).chain())
        .add_systems(FixedUpdate, reader("fixed"))
        .add_systems(FixedAi, reader("ai").in_set(ClockSystems::Update));
    drive(&mut app, &frames);

    let written = app.world().resource::<ToWrite>().next;
    assert!(written > 2_000, "{written} written");
    let (bevy10, ai) = (reads_of(&bevy10, "fixed"), reads_of(&app, "ai"));
    assert!(bevy10.len() > 300, "{} runs", bevy10.len());
    // Bevy's 10 Hz reader misses nothing written before its last run.
    let last = bevy10
        .iter()
        .rev()
        .find_map(|r| r.1.last())
        .copied()
        .unwrap();
    assert!(read_count(&bevy10) as u64 == last + 1 && last + 100 > written);
    assert_eq!(
        (read_count(&ai), ai.len()),
        (read_count(&bevy10), bevy10.len()),
        "Pings read and runs by the 10 Hz clock, against Bevy's 10 Hz FixedUpdate"
    );
    assert_eq!(ai, bevy10);
    assert_eq!(reads_of(&app, "fixed"), reads_of(&bevy64, "fixed"));
    let update = reads_of(&app, "update");
    assert_eq!(read_count(&update) as u64, written, "Update sees each once");
    assert_eq!(update, reads_of(&bevy64, "update"));
}

/// Item 1: `Ping`s written in the main clock's `FixedUpdate`, one a tick. The 10 Hz clock
/// reads, at each of its ticks, exactly the ones written by the main clock's ticks before it
/// in the fold's order (as a reader after the writer in Bevy's `FixedUpdate` reads them);
/// `Update` reads each once, in the frames Bevy's loop gives them.
#[test]
fn a_slow_clock_reads_every_message_written_in_the_main_clocks_fixed_update() {
    let frames = frames(0x43_0202, 2_000);
    let mut bevy = ping_app();
    bevy.add_systems(FixedUpdate, write_one_ping)
        .add_systems(Update, reader("update"));
    drive(&mut bevy, &frames);
    let mut app = ping_app();
    app.add_plugins(TickfoldPlugin::new().clock(FixedAi, ClockConfig::new("ai", hz(10))))
        .add_systems(FixedUpdate, write_one_ping)
        .add_systems(Update, reader("update"))
        .add_systems(FixedAi, ordered_reader.in_set(ClockSystems::Update));
    drive(&mut app, &frames);

    let order = &app.world().resource::<Order>().0;
    let mut since = Vec::new();
    let (mut reads, mut read, mut lost) = (0, 0, 0);
    for entry in order {
        match entry {
            Ok(n) => since.push(*n),
            Err(seen) => {
                reads += 1;
                read += seen.len();
                if *seen != since {
                    lost += since.len() - seen.len().min(since.len());
                }
                since.clear();
            }
        }
    }
    assert!(reads > 300, "{reads} runs of the 10 Hz clock");
    assert_eq!(
        lost,
        0,
        "lost {lost} of {} written before a run",
        read + lost
    );
    let written = app.world().resource::<ToWrite>().next;
    let update = reads_of(&app, "update");
    assert_eq!(read_count(&update) as u64, written, "Update sees each once");
    assert_eq!(update, reads_of(&bevy, "update"));
}

/// Runs of each clock schedule (and of `FixedUpdate`).
#[derive(Resource, Default)]
struct Count(Vec<(String, Duration)>);

fn count_fixed(time: Res<Time>, mut count: ResMut<Count>) {
    count.0.push(("FixedUpdate".into(), time.delta()));
}

fn count_clock(tick: Res<CurrentTick>, time: Res<Time>, mut count: ResMut<Count>) {
    count.0.push((tick.name().to_owned(), time.delta()));
}

/// Item 2: the main clock runs `FixedMain` and is `Time<Fixed>`: removing it is refused,
/// and the other clocks keep their own schedules and rates; a second later `FixedUpdate`
/// ran as often as Bevy's loop and `ai` its 10 ticks.
#[test]
fn the_main_clock_cannot_be_removed_and_the_others_keep_their_schedules() {
    let run = |plugin: bool| {
        let mut app = base_app();
        app.init_resource::<Count>()
            .add_systems(FixedUpdate, count_fixed)
            .add_systems(FixedAi, count_clock);
        if plugin {
            app.add_plugins(TickfoldPlugin::new().clock(FixedAi, ClockConfig::new("ai", hz(10))));
        }
        frame(&mut app, 0, Duration::ZERO);
        for n in 1..=100 {
            frame(&mut app, n, Duration::from_millis(10));
        }
        if plugin {
            let mut tf = app.world_mut().resource_mut::<Tickfold>();
            let main = tf.state().clock("main").unwrap().id();
            assert_eq!(tf.remove_clock("main"), Err(RemoveError::MainClock(main)));
            assert!(tf.state().clock("main").is_ok());
        }
        app.world_mut().resource_mut::<Count>().0.clear();
        for n in 101..=200 {
            frame(&mut app, n, Duration::from_millis(10));
        }
        let count = app.world().resource::<Count>().0.clone();
        let of = |name: &str| count.iter().filter(|c| c.0 == name).count();
        (of("FixedUpdate"), of("ai"), count)
    };
    let (bevy_fixed, _, _) = run(false);
    assert_eq!(bevy_fixed, 64);
    let (fixed, ai, count) = run(true);
    assert_eq!(
        (fixed, ai),
        (64, 10),
        "FixedUpdate and ai runs in the second after"
    );
    assert!(
        count
            .iter()
            .all(|c| c.1 == Duration::from_micros(if c.0 == "ai" { 100_000 } else { 15_625 })),
        "each at its own rate"
    );
}

/// Item 2: removed through `state_mut` (which hands out the loop itself), the main clock's
/// absence is loud at the next frame instead of stopping `FixedMain` silently.
#[test]
#[should_panic(expected = "the main clock \"main\" was removed through Tickfold::state_mut")]
fn the_main_clock_removed_through_state_mut_panics_at_the_next_frame() {
    let mut app = base_app();
    app.add_plugins(TickfoldPlugin::new().clock(FixedAi, ClockConfig::new("ai", hz(10))));
    frame(&mut app, 0, Duration::ZERO);
    frame(&mut app, 1, Duration::from_millis(10));
    let mut tf = app.world_mut().resource_mut::<Tickfold>();
    tf.state_mut().remove_clock("main").unwrap();
    frame(&mut app, 2, Duration::from_millis(10));
}

/// The sets each tick ran, in order: (clock, set).
#[derive(Resource, Default)]
struct Sets(Vec<(String, &'static str)>);

fn mark_set(set: &'static str) -> impl FnMut(Option<Res<CurrentTick>>, ResMut<Sets>) {
    move |tick: Option<Res<CurrentTick>>, mut sets: ResMut<Sets>| {
        let clock = tick.map_or_else(|| "bevy".to_owned(), |t| t.name().to_owned());
        sets.0.push((clock, set));
    }
}

fn add_ai_clock(frame: Res<Frame>, mut tf: ResMut<Tickfold>) {
    if frame.0 == 1 {
        tf.add_clock(FixedAi, ClockConfig::new("ai", hz(10)), None)
            .unwrap();
    }
}

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedEmpty;

/// Item 3: a clock added at run time runs its sets in `FixedMain`'s order, as a declared clock
/// does and as Bevy's loop runs `FixedFirst` … `FixedLast`; and `add_clock` makes the schedule
/// when the app has none.
#[test]
fn a_clock_added_at_run_time_runs_its_sets_in_order_as_a_declared_one() {
    let sets = [
        (ClockSystems::Last, "last"),
        (ClockSystems::PreUpdate, "pre"),
        (ClockSystems::PostUpdate, "post"),
        (ClockSystems::First, "first"),
        (ClockSystems::Update, "update"),
    ];
    let mut bevy = base_app();
    bevy.init_resource::<Sets>()
        .add_systems(FixedLast, mark_set("last"))
        .add_systems(FixedPreUpdate, mark_set("pre"))
        .add_systems(FixedPostUpdate, mark_set("post"))
        .add_systems(FixedFirst, mark_set("first"))
        .add_systems(FixedUpdate, mark_set("update"));
    let mut app = base_app();
    app.init_resource::<Sets>()
        .add_plugins(TickfoldPlugin::new().clock(FixedNet, ClockConfig::new("net", hz(10))))
        .add_systems(Update, add_ai_clock);
    for (set, name) in sets {
        app.add_systems(FixedAi, mark_set(name).in_set(set))
            .add_systems(FixedNet, mark_set(name).in_set(set));
    }
    for app in [&mut bevy, &mut app] {
        frame(app, 0, Duration::ZERO);
        for n in 1..=200 {
            frame(app, n, Duration::from_millis(16));
        }
    }
    let order = |app: &App, clock: &str| -> Vec<&'static str> {
        let sets = &app.world().resource::<Sets>().0;
        sets.iter().filter(|s| s.0 == clock).map(|s| s.1).collect()
    };
    let bevys = order(&bevy, "bevy");
    assert_eq!(bevys[..5], ["first", "pre", "update", "post", "last"]);
    let ticks = |sets: &[&str]| sets.chunks(5).filter(|t| *t == &bevys[..5]).count();
    let (ai, net) = (order(&app, "ai"), order(&app, "net"));
    assert_eq!(ai.len(), 31 * 5, "ai's 31 ticks");
    assert_eq!(ticks(&net), net.len() / 5, "declared: every tick in order");
    assert_eq!(
        ticks(&ai),
        31,
        "added at run time: {} of 31 ticks in order",
        ticks(&ai)
    );

    // A clock added for a label the app has no schedule for: the schedule exists (empty) by
    // the next frame, ready for systems.
    app.world_mut()
        .resource_mut::<Tickfold>()
        .add_clock(FixedEmpty, ClockConfig::new("empty", hz(10)), None)
        .unwrap();
    frame(&mut app, 201, Duration::from_millis(16));
    assert!(app.world().resource::<Schedules>().contains(FixedEmpty));
}

/// Items 1 and 3: a clock added at run time takes part in the message buffers as a declared
/// one: its reader sees every `Ping` written in `Update`, once, up to its last tick (one a
/// frame, `Ping` k in frame k, read by the first tick in a later frame).
#[test]
fn a_clock_added_at_run_time_reads_every_message() {
    let mut app = ping_app();
    app.add_plugins(TickfoldPlugin::new())
        .add_systems(Update, (add_ai_clock, write_pings).chain())
        .add_systems(FixedAi, reader("ai").in_set(ClockSystems::Update));
    app.world_mut().resource_mut::<ToWrite>().now = 1;
    frame(&mut app, 0, Duration::ZERO);
    for n in 1..=300 {
        frame(&mut app, n, Duration::from_millis(16));
    }
    let ai = reads_of(&app, "ai");
    assert_eq!(ai.len(), 47, "ai's ticks");
    let seen: Vec<u64> = ai.iter().flat_map(|r| r.1.iter().copied()).collect();
    let last_run = ai.last().unwrap().0;
    let want: Vec<u64> = (seen[0]..last_run).collect();
    assert_eq!(
        seen, want,
        "every Ping up to the last tick's frame, once, in order"
    );
}

/// The time lost in every `VirtualTimeClamped` read in `Update`.
#[derive(Resource, Default)]
struct Clamped(Vec<Duration>);

fn read_clamps(mut clamps: MessageReader<VirtualTimeClamped>, mut seen: ResMut<Clamped>) {
    seen.0.extend(clamps.read().map(|c| c.lost));
}

fn raise_max_delta(frame: Res<Frame>, mut virt: ResMut<Time<Virtual>>) {
    if frame.0 == 2 {
        virt.set_max_delta(Duration::from_secs(2));
    }
}

/// Item 4: a 3 s frame, clamped to 250 ms by Bevy, in which a `PreUpdate` or `Update` system
/// raises the max delta to 2 s: the 2.75 s Bevy's own loop loses are reported, once.
#[test]
fn a_clamped_frame_is_reported_when_the_frame_changes_the_max_delta() {
    for late in [false, true] {
        let run = |plugin: bool| {
            let mut app = base_app();
            if late {
                app.add_systems(Update, raise_max_delta);
            } else {
                app.add_systems(PreUpdate, raise_max_delta);
            }
            if plugin {
                app.add_plugins(TickfoldPlugin::new())
                    .init_resource::<Clamped>()
                    .add_systems(Update, read_clamps);
            }
            frame(&mut app, 0, Duration::ZERO);
            frame(&mut app, 1, Duration::from_millis(16));
            frame(&mut app, 2, Duration::from_secs(3));
            app
        };
        let bevy = run(false);
        let lost = bevy.world().resource::<Time<Real>>().delta()
            - bevy.world().resource::<Time<Virtual>>().delta();
        assert_eq!(lost, Duration::from_millis(2_750));
        let app = run(true);
        let reported = &app.world().resource::<Clamped>().0;
        assert_eq!(*reported, [lost], "max delta raised in Update: {late}");
    }
}

/// Every `FixedUpdate` run: (frame, elapsed, delta, timestep), and `Time<Fixed>` in `Last`.
#[derive(Resource, Default)]
struct FixedRuns(
    Vec<(u64, Duration, Duration, Duration)>,
    Vec<(u64, Duration, Duration)>,
);

fn log_fixed(frame: Res<Frame>, time: Res<Time<Fixed>>, mut runs: ResMut<FixedRuns>) {
    runs.0
        .push((frame.0, time.elapsed(), time.delta(), time.timestep()));
}

fn log_last(frame: Res<Frame>, time: Res<Time<Fixed>>, mut runs: ResMut<FixedRuns>) {
    runs.1.push((frame.0, time.elapsed(), time.overstep()));
}

fn reinsert(frame: Res<Frame>, mut commands: Commands) {
    if frame.0 == 50 {
        commands.insert_resource(Time::<Fixed>::from_hz(30.0));
    }
}

/// Item 5: `Time<Fixed>` inserted anew in `Update` (a 30 Hz one). Bevy's loop starts it
/// afresh: the plugin runs the same ticks in the same frames with the same delta, timestep and
/// overstep, but its elapsed goes on from the simulation time reached, where Bevy's restarts
/// at 0 (a documented difference: the elapsed is the core's exact tick end).
#[test]
fn a_time_fixed_inserted_anew_runs_as_in_bevys_loop_its_elapsed_going_on() {
    let run = |plugin: bool| {
        let mut app = base_app();
        app.init_resource::<FixedRuns>()
            .add_systems(FixedUpdate, log_fixed)
            .add_systems(Update, reinsert)
            .add_systems(bevy_app::Last, log_last);
        if plugin {
            app.add_plugins(TickfoldPlugin::new());
        }
        let mut rng = Rng::new(0x43_0205);
        frame(&mut app, 0, Duration::ZERO);
        for n in 1..400 {
            let ms = if rng.range(0, 29) == 0 {
                rng.range(300, 1_000)
            } else {
                rng.range(1, 60)
            };
            frame(&mut app, n, Duration::from_millis(ms));
        }
        let runs = app.world_mut().remove_resource::<FixedRuns>().unwrap();
        (runs.0, runs.1)
    };
    let (bevy, bevy_last) = run(false);
    let (tickfold, tickfold_last) = run(true);
    // The simulation time reached when the app inserted it (after frame 50's runs), from
    // which the plugin's elapsed goes on (frame 50's `Last` sees the app's new resource in
    // both).
    let before = bevy.iter().rev().find(|r| r.0 <= 50).unwrap().1;
    assert!(before > Duration::from_millis(500), "{before:?}");
    let shifted = |frame: u64, elapsed: Duration, from: u64| {
        if frame >= from {
            elapsed + before
        } else {
            elapsed
        }
    };
    let bevy: Vec<_> = bevy
        .iter()
        .map(|r| (r.0, shifted(r.0, r.1, 51), r.2, r.3))
        .collect();
    assert!(bevy.iter().filter(|r| r.0 > 50).count() > 300);
    assert_eq!(bevy.len(), tickfold.len());
    let first = bevy.iter().zip(&tickfold).position(|(a, b)| a != b);
    assert_eq!(first, None, "{:?}", first.map(|i| (&bevy[i], &tickfold[i])));
    let bevy_last: Vec<_> = bevy_last
        .iter()
        .map(|l| (l.0, shifted(l.0, l.1, 51), l.2))
        .collect();
    assert_eq!(bevy_last, tickfold_last);
}
