//! The run-time controls through the `Tickfold` resource: rate, clocks added and removed,
//! Bevy's pause and relative speed, and the messages for deferred and discarded ticks.

mod common;

use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::message::{Message, Messages};
use bevy_time::{Time, Virtual};
use common::{FixedAi, FixedNet, FixedPhysics, Log, Run, base_app, frame, record_tick};
use tickfold_bevy::{
    ClockConfig, DropReason, Event, LoopNotice, Period, Tickfold, TickfoldPlugin, TicksDeferred,
    TicksDropped,
};

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn app(plugin: TickfoldPlugin) -> App {
    let mut app = base_app();
    app.add_plugins(plugin)
        .add_systems(FixedPhysics, record_tick)
        .add_systems(FixedNet, record_tick)
        .add_systems(FixedAi, record_tick);
    frame(&mut app, 0, Duration::ZERO);
    app
}

fn tickfold(app: &mut App) -> bevy_ecs::world::Mut<'_, Tickfold> {
    app.world_mut().resource_mut::<Tickfold>()
}

fn runs(app: &App, n: u64) -> Vec<Run> {
    let log = &app.world().resource::<Log>().0;
    log.iter().filter(|r| r.frame == n).copied().collect()
}

fn messages<M: Message + Clone>(app: &App) -> Vec<M> {
    let m = app.world().resource::<Messages<M>>();
    m.iter_current_update_messages().cloned().collect()
}

#[test]
fn rate_change_add_and_remove_at_run_time() {
    let mut app =
        app(TickfoldPlugin::new().clock(FixedPhysics, ClockConfig::new("physics", hz(10))));
    frame(&mut app, 1, Duration::from_millis(250)); // ticks 0, 1; 50 ms of lag
    assert_eq!(runs(&app, 1).len(), 2);

    tickfold(&mut app)
        .clock_mut("physics")
        .unwrap()
        .set_rate(hz(20));
    let net = tickfold(&mut app)
        .add_clock(FixedNet, ClockConfig::new("net", hz(40)), None)
        .unwrap();
    frame(&mut app, 2, Duration::from_millis(50));
    // Physics at 20 Hz from its tick boundary at 200 ms: tick 2 is [200, 250) ms, due at
    // once. Net starts at the latest virtual time, 250 ms: its ticks come due at 275 and
    // 300 ms; at 300 ms the tie goes to physics, declared first. Each clock's `Time` is its
    // own simulation time (net's first tick ends at 25 ms).
    let r = runs(&app, 2);
    let seen: Vec<_> = r
        .iter()
        .map(|r| (r.clock, r.index, r.elapsed.as_millis()))
        .collect();
    assert_eq!(
        seen,
        [
            ("physics", 2, 250),
            ("net", 0, 25),
            ("physics", 3, 300),
            ("net", 1, 50)
        ]
    );
    assert_eq!(r[0].delta, Duration::from_millis(50));
    assert_eq!(r[1].delta, Duration::from_millis(25));
    let notices = messages::<LoopNotice>(&app);
    assert!(matches!(
        notices[..],
        [LoopNotice(Event::RateChanged { from_tick: 2, .. })]
    ));

    frame(&mut app, 3, Duration::from_millis(50));
    let seen: Vec<_> = runs(&app, 3)
        .iter()
        .map(|r| (r.clock, r.index, r.elapsed.as_millis()))
        .collect();
    assert_eq!(seen, [("net", 2, 75), ("physics", 4, 350), ("net", 3, 100)]);
    assert_eq!(tickfold(&mut app).clock_ticks_run(net), 4);

    tickfold(&mut app).remove_clock("net").unwrap();
    frame(&mut app, 4, Duration::from_millis(50));
    let seen: Vec<_> = runs(&app, 4).iter().map(|r| r.clock).collect();
    assert_eq!(seen, ["physics"]);
}

fn virt(app: &mut App) -> bevy_ecs::world::Mut<'_, Time<Virtual>> {
    app.world_mut().resource_mut::<Time<Virtual>>()
}

#[test]
fn bevys_pause_and_relative_speed_drive_every_clock() {
    let mut app = app(TickfoldPlugin::new()
        .clock(FixedPhysics, ClockConfig::new("physics", hz(10)))
        .clock(FixedAi, ClockConfig::new("ai", hz(5))));
    app.add_systems(FixedUpdate, record_tick);
    virt(&mut app).pause();
    frame(&mut app, 1, Duration::from_secs(1));
    // Paused: no clock runs, the main clock's `FixedUpdate` included.
    assert!(runs(&app, 1).is_empty());
    assert_eq!(virt(&mut app).elapsed(), Duration::ZERO);

    // Half speed: 400 ms of real time is 200 ms of virtual time. Physics 1 and AI 0 both end
    // at 200 ms (physics first, declared first); the 64 Hz main clock runs 12 ticks.
    virt(&mut app).unpause();
    virt(&mut app).set_relative_speed(0.5);
    frame(&mut app, 2, Duration::from_millis(400));
    let r = runs(&app, 2);
    let seen: Vec<_> = r
        .iter()
        .filter(|r| r.clock != "main")
        .map(|r| (r.clock, r.index))
        .collect();
    assert_eq!(seen, [("physics", 0), ("physics", 1), ("ai", 0)]);
    assert_eq!(r.iter().filter(|r| r.clock == "main").count(), 12);
    assert_eq!(virt(&mut app).elapsed(), Duration::from_millis(200));
    // Every clock's time stays at or behind the frame's virtual time.
    assert!(r.iter().all(|r| r.elapsed <= Duration::from_millis(200)));
}

#[test]
fn deferred_and_dropped_ticks_arrive_as_messages() {
    let physics = ClockConfig::new("physics", hz(100)).max_updates(Some(4));
    let mut app = app(TickfoldPlugin::new().clock(FixedPhysics, physics));
    frame(&mut app, 1, Duration::from_millis(100)); // 10 due, 4 run
    assert_eq!(runs(&app, 1).len(), 4);
    let deferred = messages::<TicksDeferred>(&app);
    let deferred: Vec<_> = deferred.iter().map(|d| (&*d.name, d.ticks)).collect();
    // Physics' cap defers its tick due at 50 ms, and a step runs a prefix of the loop's
    // due-time order: the main clock's ticks due after it (62.5, 78.1, 93.8 ms) wait too.
    assert_eq!(deferred, [("main", 3), ("physics", 6)]);

    // Throw the backlog away: 6 ticks, reported with their numbers at the next frame.
    let dropped = tickfold(&mut app)
        .clock_mut("physics")
        .unwrap()
        .discard_overstep(Duration::from_secs(1).into());
    assert_eq!(dropped, Duration::from_millis(60).into());
    frame(&mut app, 2, Duration::from_millis(10));
    let got = messages::<TicksDropped>(&app);
    assert_eq!(got.len(), 1);
    let m = &got[0];
    assert_eq!((m.first, m.count, m.reason), (4, 6, DropReason::Discarded));
    let seen: Vec<u64> = runs(&app, 2).iter().map(|r| r.index).collect();
    assert_eq!(seen, [10]);
    // The tick after the gap still sits on the exact grid: [100, 110) ms.
    assert_eq!(runs(&app, 2)[0].elapsed, Duration::from_millis(110));
}

/// Across rate changes `Time<Fixed>` inside each run is the core's tick: elapsed its end
/// (`t + delta`), delta its whole-ns length; elapsed never goes backwards, and where the first
/// tick of a new period starts 1 ns after the old period's last tick ended (the new period
/// starts at the old boundary rounded up), elapsed moves by that 1 ns with no delta.
#[test]
fn time_fixed_elapsed_is_the_ticks_end_across_rate_changes() {
    let mut app =
        app(TickfoldPlugin::new().clock(FixedPhysics, ClockConfig::new("physics", hz(60))));
    let rates = [90, 60, 7, 144, 60, 30];
    for n in 1..=120u64 {
        if n % 20 == 0 {
            let hz_now = rates[(n / 20) as usize % rates.len()];
            tickfold(&mut app)
                .clock_mut("physics")
                .unwrap()
                .set_rate(hz(hz_now));
        }
        frame(&mut app, n, Duration::from_micros(23_456 + 1_000 * (n % 7)));
    }
    let log: Vec<Run> = app.world().resource::<Log>().0.clone();
    assert!(log.len() > 150, "{} ticks", log.len());
    let mut gaps = 0;
    for (i, run) in log.iter().enumerate() {
        assert_eq!(
            run.elapsed.as_nanos(),
            u128::from(run.t) + run.delta.as_nanos(),
            "tick {i}"
        );
        if let Some(prev) = i.checked_sub(1).map(|p| log[p]) {
            // Ticks start where the previous one ended, or 1 ns later after a rate change.
            let gap = u128::from(run.t) - prev.elapsed.as_nanos();
            assert!(gap <= 1, "tick {i}: starts {gap} ns after the previous end");
            gaps += usize::try_from(gap).unwrap();
        }
    }
    assert!(gaps >= 1, "no rate change left a 1 ns gap");
}
