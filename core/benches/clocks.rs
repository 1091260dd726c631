//! Several clocks in one loop: ns per step with 1, 4 and 16 clocks, the cost of cloning a
//! `LoopState` with 16 clocks, and the data-structure question behind it — an inline array
//! (`SmallVec`; `LoopState` keeps a plain `Vec` in its box) against a persistent `im::Vector` for a list of
//! clock-sized records that every step mutates.
//!
//! Run with `cargo bench -p tickfold-core --bench clocks`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use smallvec::SmallVec;
use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};

const NAMES: [&str; 16] = [
    "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13", "c14",
    "c15",
];

/// `n` clocks at 60, 61, 62 … Hz: one frame of 1/60 s runs about one update per clock.
fn state(n: usize) -> LoopState {
    let hz = |k: usize| Period::from_hz(60 + k as u64).unwrap();
    let mut config = LoopConfig::from_clock(ClockConfig::new("main", hz(0)).phase(0.5));
    for (k, name) in NAMES.iter().enumerate().take(n).skip(1) {
        config = config.clock(ClockConfig::new(*name, hz(k)));
    }
    LoopState::new(config, Nanos(0)).unwrap()
}

fn per_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("clocks_step");
    for n in [1usize, 4, 16] {
        group.bench_function(format!("{n}_clocks"), |b| {
            let mut s = state(n);
            let mut frame = 0u64;
            b.iter(|| {
                frame += 1;
                let events = s.advance(Nanos(frame * 1_000_000_000 / 60));
                black_box(events.updates().count())
            });
        });
    }
    group.finish();
}

/// A stand-in with the size of one clock's state (208 bytes), for the container comparison.
#[derive(Clone, Copy)]
struct Record([u64; 26]);

fn clone_cost(c: &mut Criterion) {
    let mut group = c.benchmark_group("clocks_clone");
    let s = state(16);
    group.bench_function("loop_state_16_clocks", |b| b.iter(|| black_box(s.clone())));
    // What a step does after a clone: touch every clock. The persistent vector shares
    // structure on clone but copies on the first write; the inline array copies up front.
    let records: SmallVec<[Record; 2]> = (0..16).map(|i| Record([i; 26])).collect();
    group.bench_function("smallvec_clone_then_mutate_16", |b| {
        b.iter_batched_ref(
            || (),
            |_| {
                let mut copy = records.clone();
                for r in copy.iter_mut() {
                    r.0[0] += 1;
                }
                black_box(copy)
            },
            BatchSize::SmallInput,
        );
    });
    let persistent: im::Vector<Record> = (0..16).map(|i| Record([i; 26])).collect();
    group.bench_function("im_vector_clone_only_16", |b| {
        b.iter(|| black_box(persistent.clone()))
    });
    group.bench_function("im_vector_clone_then_mutate_16", |b| {
        b.iter(|| {
            let mut copy = persistent.clone();
            for r in copy.iter_mut() {
                r.0[0] += 1;
            }
            black_box(copy)
        });
    });
    group.finish();
}

criterion_group!(benches, per_step, clone_cost);
criterion_main!(benches);
