//! Parity with Bevy's own fixed loop: an app that adds only the plugin runs `FixedUpdate` on
//! tickfold's main clock exactly as Bevy's `run_fixed_main_schedule` would (same runs in the
//! same frames, same `Time<Fixed>`, `Time` and `overstep_fraction`), through stalls longer than
//! Bevy's 250 ms max delta and zero-length frames, with the time Bevy loses reported; and the
//! two differences on purpose: an exact 60 Hz grid, and virtual time kept on real time on
//! request.

mod common;

use core::time::Duration;

use bevy_app::{App, FixedUpdate, Update};
use bevy_ecs::message::Messages;
use bevy_ecs::prelude::*;
use bevy_time::{Fixed, Real, Time, Virtual};
use common::{Frame, Log, Rng, base_app, frame, record_bevy};
use tickfold_bevy::{
    ClockConfig, Period, Tickfold, TickfoldPlugin, TimeDiscarded, VirtualTime, VirtualTimeClamped,
};

/// What a system sees of time, in a run of `FixedUpdate` (`fixed`) or in `Update`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Seen {
    frame: u64,
    fixed: bool,
    elapsed: Duration,
    delta: Duration,
    fixed_elapsed: Duration,
    fixed_delta: Duration,
    timestep: Duration,
    overstep: Duration,
    fraction: f32,
    virtual_elapsed: Duration,
}

#[derive(Resource, Default)]
struct Seens(Vec<Seen>);

fn see_fixed(
    frame: Res<Frame>,
    time: Res<Time>,
    f: Res<Time<Fixed>>,
    v: Res<Time<Virtual>>,
    seen: ResMut<Seens>,
) {
    see(true, &frame, &time, &f, &v, seen);
}

fn see_update(
    frame: Res<Frame>,
    time: Res<Time>,
    f: Res<Time<Fixed>>,
    v: Res<Time<Virtual>>,
    seen: ResMut<Seens>,
) {
    see(false, &frame, &time, &f, &v, seen);
}

fn see(
    fixed: bool,
    frame: &Frame,
    time: &Time,
    f: &Time<Fixed>,
    v: &Time<Virtual>,
    mut seen: ResMut<Seens>,
) {
    seen.0.push(Seen {
        frame: frame.0,
        fixed,
        elapsed: time.elapsed(),
        delta: time.delta(),
        fixed_elapsed: f.elapsed(),
        fixed_delta: f.delta(),
        timestep: f.timestep(),
        overstep: f.overstep(),
        fraction: f.overstep_fraction(),
        virtual_elapsed: v.elapsed(),
    });
}

fn app(plugin: Option<TickfoldPlugin>) -> App {
    let mut app = base_app();
    app.init_resource::<Seens>()
        .add_systems(FixedUpdate, (see_fixed, record_bevy))
        .add_systems(Update, see_update);
    if let Some(plugin) = plugin {
        app.add_plugins(plugin);
    }
    app
}

fn take(app: &mut App) -> Vec<Seen> {
    core::mem::take(&mut app.world_mut().resource_mut::<Seens>().0)
}

fn clamped(app: &App) -> Vec<VirtualTimeClamped> {
    let messages = app.world().resource::<Messages<VirtualTimeClamped>>();
    messages.iter_current_update_messages().copied().collect()
}

#[test]
fn only_the_plugin_added_same_fixed_loop_as_bevys_over_10_000_frames_with_stalls() {
    let mut bevy = app(None);
    let mut tf = app(Some(TickfoldPlugin::new()));
    let mut rng = Rng::new(0x5eed_0029);
    let (mut stalls, mut zeros, mut runs) = (0, 0, 0);
    for n in 0..10_000 {
        // Mostly 0 to 40 ms; one frame in 40 of zero length, one in 60 a stall of 0.3 to 3 s.
        let d = match rng.range(0, 119) {
            0..=2 => Duration::ZERO,
            3..=4 => Duration::from_micros(rng.range(300_000, 3_000_000)),
            _ => Duration::from_micros(rng.range(0, 40_000)),
        };
        frame(&mut bevy, n, d);
        frame(&mut tf, n, d);
        let (b, t) = (take(&mut bevy), take(&mut tf));
        assert_eq!(b, t, "frame {n} ({d:?})");
        runs += t.iter().filter(|s| s.fixed).count();
        // Bevy loses a stall's time past its 250 ms max delta with a `debug!` line; the
        // plugin reports exactly that time.
        let lost = clamped(&tf);
        if n > 0 && d > Duration::from_millis(250) {
            stalls += 1;
            assert_eq!(lost.len(), 1, "frame {n}");
            assert_eq!(lost[0].lost, d - Duration::from_millis(250), "frame {n}");
        } else {
            assert!(lost.is_empty(), "frame {n}: {lost:?}");
            zeros += usize::from(d.is_zero());
        }
        // The blend the plugin's render carries is `Time<Fixed>`'s overstep fraction.
        let alpha = tf.world().resource::<Tickfold>().render().map(|r| r.alpha);
        let fraction = tf.world().resource::<Time<Fixed>>().overstep_fraction_f64();
        if let Some(alpha) = alpha {
            assert!(
                (alpha - fraction).abs() < 1e-12,
                "frame {n}: {alpha} {fraction}"
            );
        }
        // Within a frame no schedule sees time ahead of `Update`'s.
        let update = t.iter().find(|s| !s.fixed).map(|s| s.elapsed).unwrap();
        assert!(
            t.iter()
                .all(|s| s.elapsed <= update && s.fixed_elapsed <= update)
        );
    }
    assert!(
        stalls > 100 && zeros > 200 && runs > 10_000,
        "{stalls} {zeros} {runs}"
    );
    // Virtual time fell behind real time by exactly the reported losses, as Bevy's did.
    let w = tf.world();
    let behind = w.resource::<Time<Real>>().elapsed() - w.resource::<Time<Virtual>>().elapsed();
    assert_eq!(
        behind,
        bevy.world().resource::<Time<Real>>().elapsed()
            - bevy.world().resource::<Time<Virtual>>().elapsed()
    );
    assert!(behind > Duration::from_secs(100));
    // Bevy's own loop did not run beside the plugin's: one record per tick.
    assert_eq!(
        bevy.world().resource::<Log>().0.len(),
        tf.world().resource::<Log>().0.len()
    );
}

#[test]
fn exact_60_hz_where_bevy_drifts_20_ns_a_second() {
    // One hour of 100 ms frames.
    let mut bevy = app(None);
    bevy.insert_resource(Time::<Fixed>::from_hz(60.0));
    let main = ClockConfig::new("main", Period::from_hz(60).unwrap()).max_updates(None);
    let mut tf = app(Some(TickfoldPlugin::new().main_clock(main)));
    assert_eq!(
        bevy.world().resource::<Time<Fixed>>().timestep(),
        Duration::from_nanos(16_666_667)
    );
    for n in 0..=36_000 {
        let d = Duration::from_millis(100);
        frame(&mut bevy, n, d);
        frame(&mut tf, n, d);
        take(&mut bevy);
        take(&mut tf);
    }
    let (b, t) = (
        &bevy.world().resource::<Log>().0,
        &tf.world().resource::<Log>().0,
    );
    // tickfold: 216,000 ticks, the last one ends at exactly 3,600 s; its deltas alternate
    // between 16,666,666 and 16,666,667 ns on the exact grid.
    assert_eq!(t.len(), 216_000);
    assert_eq!(t.last().unwrap().elapsed, Duration::from_secs(3600));
    let deltas: Vec<u128> = t[..3].iter().map(|r| r.delta.as_nanos()).collect();
    assert_eq!(deltas, [16_666_666, 16_666_667, 16_666_667]);
    // Bevy: one tick short after an hour, its grid 72 µs behind (20 ns a second).
    assert_eq!(b.len(), 215_999);
    assert_eq!(
        b.last().unwrap().elapsed,
        Duration::from_nanos(3_599_983_405_333)
    );
}

#[test]
fn keep_real_drops_ticks_instead_and_reports_them() {
    let plugin = TickfoldPlugin::new().virtual_time(VirtualTime::KeepReal {
        max_frame_delta: Some(Duration::from_millis(250)),
    });
    let mut bevy = app(None);
    let mut tf = app(Some(plugin));
    let frames = [0, 10, 1_010, 10]; // a 1 s stall in frame 2
    for (n, ms) in frames.into_iter().enumerate() {
        frame(&mut bevy, n as u64, Duration::from_millis(ms));
        frame(&mut tf, n as u64, Duration::from_millis(ms));
        let (b, t) = (take(&mut bevy), take(&mut tf));
        if n == 2 {
            // Same number of runs in the stalled frame: 250 ms worth (+ the 10 ms before).
            let runs = |s: &[Seen]| s.iter().filter(|s| s.fixed).count();
            assert_eq!((runs(&b), runs(&t)), (16, 16));
            // Bevy's virtual time fell 760 ms behind real time for good; tickfold's did not.
            let behind = |app: &App| {
                let w = app.world();
                w.resource::<Time<Real>>().elapsed() - w.resource::<Time<Virtual>>().elapsed()
            };
            assert_eq!(
                (behind(&bevy), behind(&tf)),
                (Duration::from_millis(760), Duration::ZERO)
            );
            assert!(clamped(&tf).is_empty());
            // The ticks dropped instead: the message, with their numbers.
            let messages = tf.world().resource::<Messages<TimeDiscarded>>();
            let got: Vec<_> = messages.iter_current_update_messages().cloned().collect();
            assert_eq!(got.len(), 1);
            assert_eq!((&*got[0].name, got[0].first, got[0].ticks), ("main", 0, 49));
            // `Time<Fixed>` jumped over them: the last run ends at the frame's virtual time
            // less its overstep.
            let last = t.iter().rfind(|s| s.fixed).unwrap();
            assert_eq!(last.fixed_elapsed, Duration::from_micros(15_625 * 65));
        }
    }
}
