//! Parity with Bevy's own fixed loop: configured like Bevy's default (one 64 Hz clock, 250 ms
//! max delta, no cap), the plugin runs its schedule the same number of times, in the same
//! frames, at the same virtual times, with the same `Time` inside; and the two differences on
//! purpose: an exact 60 Hz grid, and time lost to the max delta reported as a message.

mod common;

use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::message::Messages;
use bevy_time::{Fixed, Real, Time, Virtual};
use common::{FixedPhysics, Lcg, Log, Run, base_app, frame, record_bevy, record_tick};
use tickfold_bevy::{ClockConfig, Period, TickfoldPlugin, TimeDiscarded};

fn bevy_app(fixed: Time<Fixed>) -> App {
    let mut app = base_app();
    app.insert_resource(fixed)
        .add_systems(FixedUpdate, record_bevy);
    app
}

fn tickfold_app(hz: u64) -> App {
    let mut app = base_app();
    // Bevy's fixed loop has no per-frame cap; tickfold's default is 8.
    let clock = ClockConfig::new("fixed", Period::from_hz(hz).unwrap()).max_updates(None);
    app.add_plugins(TickfoldPlugin::new().clock(FixedPhysics, clock))
        .add_systems(FixedPhysics, record_tick);
    app
}

fn log(app: &App) -> &[Run] {
    &app.world().resource::<Log>().0
}

/// What both loops are compared on: frame, `Time::elapsed` and `Time::delta` of every run.
fn seen(runs: &[Run]) -> Vec<(u64, Duration, Duration)> {
    runs.iter().map(|r| (r.frame, r.elapsed, r.delta)).collect()
}

#[test]
fn same_runs_as_bevys_fixed_loop_over_10_000_seeded_frames() {
    let mut bevy = bevy_app(Time::<Fixed>::default()); // 64 Hz: 15,625 µs, exact
    let mut tf = tickfold_app(64);
    let mut rng = Lcg(0x5eed_0023);
    let mut real = Duration::ZERO;
    for n in 0..10_000 {
        // Mostly 0 to 40 ms; one frame in 50 a hitch of up to 250 ms (Bevy's max delta,
        // which neither loop clamps at exactly 250 ms).
        let ms = if rng.range(0, 49) == 0 {
            rng.range(40, 250)
        } else {
            rng.range(0, 40)
        };
        let d = Duration::from_micros(ms * 1000 + rng.range(0, 999));
        let d = d.min(Duration::from_millis(250));
        frame(&mut bevy, n, d);
        frame(&mut tf, n, d);
        if n > 0 {
            real += d;
        }
        // Same virtual time every frame: the tickfold loop's and Bevy's `Time<Virtual>`.
        let v = bevy.world().resource::<Time<Virtual>>().elapsed();
        let tv = tf
            .world()
            .resource::<tickfold_bevy::Tickfold>()
            .state()
            .virtual_time()
            .elapsed();
        assert_eq!(Duration::from(tv), v, "virtual time at frame {n}");
        // And the same count so far, frame by frame.
        assert_eq!(log(&bevy).len(), log(&tf).len(), "runs by frame {n}");
    }
    assert_eq!(bevy.world().resource::<Time<Real>>().elapsed(), real);
    let (b, t) = (seen(log(&bevy)), seen(log(&tf)));
    assert!(b.len() > 10_000, "only {} runs", b.len());
    assert_eq!(b, t);
    // Every run: delta one timestep, elapsed its end.
    assert!(
        t.iter()
            .enumerate()
            .all(|(i, r)| r.2 == Duration::from_micros(15_625)
                && r.1 == Duration::from_micros(15_625) * (i as u32 + 1))
    );
}

#[test]
fn exact_60_hz_where_bevy_drifts_20_ns_a_second() {
    // One hour of 100 ms frames.
    let mut bevy = bevy_app(Time::<Fixed>::from_hz(60.0));
    let mut tf = tickfold_app(60);
    assert_eq!(
        bevy.world().resource::<Time<Fixed>>().timestep(),
        Duration::from_nanos(16_666_667)
    );
    for n in 0..=36_000 {
        let d = Duration::from_millis(100);
        frame(&mut bevy, n, d);
        frame(&mut tf, n, d);
    }
    let (b, t) = (log(&bevy), log(&tf));
    // tickfold: 216,000 ticks, the last one ends at exactly 3,600 s; its deltas alternate
    // between 16,666,666 and 16,666,667 ns on the exact grid.
    assert_eq!(t.len(), 216_000);
    assert_eq!(t.last().unwrap().elapsed, Duration::from_secs(3600));
    assert_eq!(t.last().unwrap().t, 3_599_983_333_333);
    let deltas: Vec<u128> = t[..3].iter().map(|r| r.delta.as_nanos()).collect();
    assert_eq!(deltas, [16_666_666, 16_666_667, 16_666_667]);
    // Bevy: one tick short after an hour, its grid 72 µs behind (20 ns a second).
    assert_eq!(b.len(), 215_999);
    assert_eq!(
        b.last().unwrap().elapsed,
        Duration::from_nanos(3_599_983_405_333)
    );
    let late = Duration::from_nanos(16_666_667) * 216_000 - Duration::from_secs(3600);
    assert_eq!(late, Duration::from_micros(72));
}

#[test]
fn a_stall_bevy_clamps_silently_is_reported_with_exact_counts() {
    let mut bevy = bevy_app(Time::<Fixed>::default());
    let mut tf = tickfold_app(64);
    let frames = [0, 10, 1_010, 10]; // a 1 s stall in frame 2
    for (n, ms) in frames.into_iter().enumerate() {
        frame(&mut bevy, n as u64, Duration::from_millis(ms));
        frame(&mut tf, n as u64, Duration::from_millis(ms));
        if n == 2 {
            // Same number of runs in the stalled frame: 250 ms worth (+ the 10 ms before).
            let count = |app: &App| log(app).iter().filter(|r| r.frame == 2).count();
            assert_eq!((count(&bevy), count(&tf)), (16, 16));
            // Bevy's only trace: virtual time fell 760 ms behind real time for good.
            let w = bevy.world();
            let lost =
                w.resource::<Time<Real>>().elapsed() - w.resource::<Time<Virtual>>().elapsed();
            assert_eq!(lost, Duration::from_millis(760));
            // tickfold: the message, with the dropped tick numbers.
            let messages = tf.world().resource::<Messages<TimeDiscarded>>();
            let got: Vec<_> = messages.iter_current_update_messages().cloned().collect();
            assert_eq!(got.len(), 1);
            let m = &got[0];
            assert_eq!((&*m.name, m.first, m.ticks), ("fixed", 0, 49));
            // Tick numbers jump over them: the ticks that ran are the newest due.
            let ran: Vec<u64> = log(&tf)
                .iter()
                .filter(|r| r.frame == 2)
                .map(|r| r.index)
                .collect();
            assert_eq!(ran, (49..65).collect::<Vec<u64>>());
        }
    }
}
