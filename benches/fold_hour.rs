//! Folds one hour of 144 Hz frames (518,400 steps) through the determinism kit with a trivial
//! simulation: the cost of one long property-test case.

use core::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickfold::testing::{Schedule, Sim};
use tickfold::{LoopConfig, Tick, TickRate};

fn fold_hour(c: &mut Criterion) {
    let schedule = Schedule::vsync(144u64, 518_400).expect("144 Hz is valid");
    let config = LoopConfig::new(TickRate::from_hz(60).expect("60 Hz is valid"));
    let update = |x: &mut f64, tick: &Tick| *x += tick.dt_secs();
    let sim = Sim::new(config, 0.0_f64, update).expect("valid config");
    let mut group = c.benchmark_group("fold_hour_144hz");
    group.sample_size(10);
    group.bench_function("fold", |b| {
        b.iter(|| black_box(sim.fold(black_box(&schedule))))
    });
    group.bench_function("fold_and_hash", |b| {
        b.iter(|| black_box(sim.fold(black_box(&schedule)).trace.hash()))
    });
    group.finish();
}

criterion_group!(benches, fold_hour);
criterion_main!(benches);
