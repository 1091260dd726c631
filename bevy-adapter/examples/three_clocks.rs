//! Three exact fixed schedules in one headless Bevy `App`: physics at 60 Hz, networking at
//! 30 Hz and AI at 10 Hz, each a schedule of its own (`FixedPhysics`, `FixedNet`, `FixedAi`)
//! that `TickfoldPlugin` runs as many times per frame as the tickfold fold says, in one total
//! order (due time, ties by declaration order). Frames are simulated (Bevy's
//! `TimeUpdateStrategy::ManualDuration`, 8 to 25 ms, seeded) for ten seconds with a 1 s stall
//! at 4 s; at 6 s the AI is re-rated to 20 Hz through the clock handle. It prints, per clock,
//! the ticks run and the ticks dropped as the plugin reported them (the stall loses 750 ms of
//! ticks past the 250 ms max frame delta: Bevy's own fixed loop would lose them with only a
//! `debug!` line), and checks the counts add up: every tick due was run or reported.
//!
//! Run with: `cargo run --manifest-path bevy-adapter/Cargo.toml --example three_clocks`

use core::time::Duration;
use std::collections::BTreeMap;
use tickfold_testing::SplitMix64;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use tickfold_bevy::{
    ClockConfig, CurrentTick, Period, Tickfold, TickfoldPlugin, TicksDeferred, TicksDropped,
    TimeDiscarded,
};

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedPhysics;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedNet;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedAi;

/// Per clock: ticks run, ticks dropped (reported), ticks deferred (reported), last tick seen.
#[derive(Resource, Default)]
struct Tally(BTreeMap<String, (u64, u64, u64, u64)>);

fn count_tick(tick: Res<CurrentTick>, mut tally: ResMut<Tally>) {
    let e = tally.0.entry(tick.name().to_owned()).or_default();
    e.0 += 1;
    e.3 = tick.index;
}

fn count_reports(
    mut discarded: MessageReader<TimeDiscarded>,
    mut dropped: MessageReader<TicksDropped>,
    mut deferred: MessageReader<TicksDeferred>,
    mut tally: ResMut<Tally>,
) {
    for m in discarded.read() {
        println!(
            "  {:>7}: {} ticks dropped ({:.3} s of virtual time past the max frame delta), ticks {}..{}",
            m.name,
            m.ticks,
            m.time.as_secs_f64(),
            m.first,
            m.first + m.ticks
        );
        tally.0.entry(m.name.to_string()).or_default().1 += m.ticks;
    }
    for m in dropped.read() {
        tally.0.entry(m.name.to_string()).or_default().1 += m.count;
    }
    for m in deferred.read() {
        tally.0.entry(m.name.to_string()).or_default().2 += m.ticks;
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .add_plugins(
            TickfoldPlugin::new()
                .clock(
                    FixedPhysics,
                    ClockConfig::new("physics", Period::from_hz(60)?),
                )
                .clock(FixedNet, ClockConfig::new("net", Period::from_hz(30)?))
                .clock(FixedAi, ClockConfig::new("ai", Period::from_hz(10)?)),
        )
        .init_resource::<Tally>()
        .add_systems(FixedPhysics, count_tick)
        .add_systems(FixedNet, count_tick)
        .add_systems(FixedAi, count_tick)
        .add_systems(Update, count_reports)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    app.update(); // Bevy's first update starts its clock

    let mut rng = SplitMix64::new(23);
    let mut real = Duration::ZERO;
    let (mut stalled, mut rerated) = (false, false);
    println!("10 s of frames, a 1 s stall at 4 s, AI re-rated to 20 Hz at 6 s:");
    while real < Duration::from_secs(10) {
        let mut d = Duration::from_micros(8_000 + rng.below(17_000));
        if !stalled && real >= Duration::from_secs(4) {
            (stalled, d) = (true, Duration::from_secs(1));
        }
        if !rerated && real >= Duration::from_secs(6) {
            rerated = true;
            let mut tf = app.world_mut().resource_mut::<Tickfold>();
            tf.clock_mut("ai")?.set_rate(Period::from_hz(20)?);
        }
        real += d;
        *app.world_mut().resource_mut::<TimeUpdateStrategy>() =
            TimeUpdateStrategy::ManualDuration(d);
        app.update();
    }

    let state = app.world().resource::<Tickfold>().state().clone();
    println!(
        "after {:.3} s of virtual time ({:.3} s real):",
        state.virtual_time().elapsed().as_secs_f64(),
        real.as_secs_f64()
    );
    let tally = &app.world().resource::<Tally>().0;
    for name in ["physics", "net", "ai"] {
        let (run, dropped, deferred, last) = tally.get(name).copied().unwrap_or_default();
        let stats = state.clock(name)?.stats();
        println!(
            "  {name:>7}: {run:>4} ticks run, {dropped:>3} dropped (reported), {deferred} deferred, last tick #{last}, {} due",
            stats.ticks_due
        );
        // Nothing unaccounted for: every tick due ran or was reported dropped.
        assert_eq!(run + dropped, stats.ticks_due, "{name}");
    }
    Ok(())
}
