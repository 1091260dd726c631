//! Three clocks at 60, 30 and 10 Hz over an hour of seeded frames: exact tick counts, the
//! fold's one total order across the three schedules, and no drift.

mod common;

use core::time::Duration;

use bevy_ecs::message::Messages;
use common::{FixedAi, FixedNet, FixedPhysics, Log, Rng, base_app, frame, record_tick};
use tickfold_bevy::{
    ClockConfig, Period, TickfoldPlugin, TicksDeferred, TicksDropped, TimeDiscarded,
};

#[test]
fn an_hour_of_three_clocks_is_exact() {
    let hz = |n| Period::from_hz(n).unwrap();
    let mut app = base_app();
    app.add_plugins(
        TickfoldPlugin::new()
            .clock(FixedPhysics, ClockConfig::new("physics", hz(60)))
            .clock(FixedNet, ClockConfig::new("net", hz(30)))
            .clock(FixedAi, ClockConfig::new("ai", hz(10))),
    )
    .add_systems(FixedPhysics, record_tick)
    .add_systems(FixedNet, record_tick)
    .add_systems(FixedAi, record_tick);

    // Frames of 1 to 60 ms (at most 4 physics ticks each, under the default cap of 8), the
    // last one cut to end at exactly one hour.
    let hour = Duration::from_secs(3600);
    let mut rng = Rng::new(23);
    let mut real = Duration::ZERO;
    let mut n = 0;
    frame(&mut app, n, Duration::ZERO);
    let mut problems = 0;
    while real < hour {
        n += 1;
        let d = Duration::from_micros(rng.range(1_000, 60_000)).min(hour - real);
        real += d;
        frame(&mut app, n, d);
        let w = app.world();
        problems += w
            .resource::<Messages<TimeDiscarded>>()
            .iter_current_update_messages()
            .count()
            + w.resource::<Messages<TicksDropped>>()
                .iter_current_update_messages()
                .count()
            + w.resource::<Messages<TicksDeferred>>()
                .iter_current_update_messages()
                .count();
    }
    assert!(n > 100_000, "{n} frames");
    assert_eq!(problems, 0, "no drops, discards or deferrals");

    let log = &app.world().resource::<Log>().0;
    let runs = |name| log.iter().filter(move |r| r.clock == name);
    assert_eq!(runs("physics").count(), 216_000);
    assert_eq!(runs("net").count(), 108_000);
    assert_eq!(runs("ai").count(), 36_000);

    // No drift: each clock's ticks are numbered 0, 1, 2, … with t = index·dt exactly, Time's
    // elapsed the next tick's t, and the last tick ends at exactly one hour.
    for (name, rate) in [("physics", hz(60)), ("net", hz(30)), ("ai", hz(10))] {
        for (k, r) in runs(name).enumerate() {
            let k = k as u64;
            assert_eq!(r.index, k);
            assert_eq!(r.t, rate.tick_start_nanos(k));
            assert_eq!(
                r.elapsed,
                Duration::from_nanos(rate.tick_start_nanos(k + 1))
            );
            assert_eq!(r.delta, r.elapsed - Duration::from_nanos(r.t));
        }
        let last = runs(name).next_back().unwrap();
        assert_eq!(last.elapsed, hour, "{name}");
    }
    assert_eq!(runs("physics").next_back().unwrap().t, 3_599_983_333_333);
    assert_eq!(runs("net").next_back().unwrap().t, 3_599_966_666_666);
    assert_eq!(runs("ai").next_back().unwrap().t, 3_599_900_000_000);

    // The fold's total order: by due time (the tick's end), ties by declaration order
    // (physics, net, ai), across frames and schedules.
    let order = |name| {
        ["physics", "net", "ai"]
            .iter()
            .position(|&c| c == name)
            .unwrap()
    };
    for w in log.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert!(a.frame <= b.frame);
        assert!(
            (a.elapsed, order(a.clock)) < (b.elapsed, order(b.clock)),
            "{a:?} then {b:?}"
        );
    }
    // Every whole 100 ms is a three-way tie, run physics, net, ai.
    let tie: Vec<_> = log
        .iter()
        .filter(|r| r.elapsed == Duration::from_millis(1_800_000))
        .map(|r| r.clock)
        .collect();
    assert_eq!(tie, ["physics", "net", "ai"]);
    // One update per clock per frame is marked last in its step.
    let frames_with_physics = {
        let mut f: Vec<u64> = runs("physics").map(|r| r.frame).collect();
        f.dedup();
        f.len()
    };
    assert_eq!(
        runs("physics").filter(|r| r.last_in_step).count(),
        frames_with_physics
    );
}
