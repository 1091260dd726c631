//! Per-frame cost of the plugin against Bevy's own fixed loop, the same app otherwise: one
//! trivial system in `FixedUpdate`, 1 and 8 updates per frame, manual time (no sleeping):
//!
//! * `bare`: `TimePlugin` alone (Bevy's fixed loop never due): the frame's own cost;
//! * `bevy_fixed`: Bevy's `Time<Fixed>` at its default (64 Hz), nothing disabled, the system
//!   in `FixedUpdate` (run through `RunFixedMainLoop` → `FixedMain` → `FixedFirst` ..
//!   `FixedLast`);
//! * `tickfold`: the same app plus `TickfoldPlugin::new()` (which replaces Bevy's loop: its
//!   main clock at `Time<Fixed>`'s 64 Hz runs `FixedMain`), nothing else changed.
//!
//! `cargo bench --manifest-path bevy-adapter/Cargo.toml --bench overhead -- --warm-up-time 1 --measurement-time 2`

#![allow(missing_docs)]

use core::hint::black_box;
use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use tickfold_bevy::TickfoldPlugin;

#[derive(Resource, Default)]
struct Counter(u64);

fn bump(mut counter: ResMut<Counter>) {
    counter.0 += 1;
}

const STEP: Duration = Duration::from_micros(15_625); // 64 Hz, exact in both loops

#[derive(Clone, Copy)]
enum Loop {
    Bare,
    BevyFixed,
    Tickfold,
}

fn app(kind: Loop, per_frame: u32) -> App {
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .init_resource::<Counter>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP * per_frame));
    match kind {
        Loop::Bare => {
            app.insert_resource(Time::<Fixed>::from_seconds(1e9));
        }
        Loop::BevyFixed => {
            app.add_systems(FixedUpdate, bump);
        }
        Loop::Tickfold => {
            app.add_plugins(TickfoldPlugin::new())
                .add_systems(FixedUpdate, bump);
        }
    }
    app.finish();
    app.cleanup();
    app.update(); // Bevy's first update starts its clock
    app
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    for per_frame in [1u32, 8] {
        for (name, kind) in [
            ("bare", Loop::Bare),
            ("bevy_fixed", Loop::BevyFixed),
            ("tickfold", Loop::Tickfold),
        ] {
            let mut app = app(kind, per_frame);
            group.bench_function(BenchmarkId::new(name, per_frame), |b| {
                b.iter(|| app.update());
            });
            // Each loop ran its system `per_frame` times a frame (none for the bare frame).
            let frames = app
                .world()
                .resource::<Time<bevy_time::Real>>()
                .elapsed()
                .as_nanos()
                / (STEP * per_frame).as_nanos();
            let runs = u128::from(black_box(app.world().resource::<Counter>().0));
            let want = match kind {
                Loop::Bare => 0,
                _ => frames * u128::from(per_frame),
            };
            assert_eq!(runs, want, "{name} at {per_frame} updates a frame");
        }
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
