//! Folds one hour of 144 Hz frames (518,400 steps) through the determinism kit with a trivial
//! simulation: the cost of one long property-test case.

use core::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickfold_core::{Events, LoopConfig, LoopState, Nanos, Period, Tick};
use tickfold_testing::{Schedule, Sim};

fn fold_hour(c: &mut Criterion) {
    let schedule = Schedule::vsync(144u64, 518_400).expect("144 Hz is valid");
    let config = LoopConfig::new(Period::from_hz(60).expect("60 Hz is valid"));
    let update = |x: &mut f64, tick: &Tick| *x += tick.dt_secs();
    let sim = Sim::new(config.clone(), 0.0_f64, update).expect("valid config");
    let mut group = c.benchmark_group("fold_hour_144hz");
    group.sample_size(10);
    group.bench_function("fold", |b| {
        b.iter(|| black_box(sim.fold(black_box(&schedule))))
    });
    // The same hour driven by hand with `advance_into` and no trace: what the kit adds.
    let nows: Vec<Nanos> = schedule.nows().collect();
    group.bench_function("advance_into_without_kit", |b| {
        b.iter(|| {
            let mut state = LoopState::new(config.clone(), Nanos(0)).expect("valid config");
            let mut events = Events::new();
            let mut x = 0.0_f64;
            for &now in &nows {
                state.advance_into(black_box(now), &mut events);
                for tick in events.updates() {
                    update(&mut x, &tick);
                }
            }
            black_box(x)
        })
    });
    group.bench_function("fold_and_hash", |b| {
        b.iter(|| black_box(sim.fold(black_box(&schedule)).trace.hash()))
    });
    group.finish();
}

criterion_group!(benches, fold_hour);
criterion_main!(benches);
