//! ns per step of the fold, with 0, 1 and 8 updates per step, through `step` (state and
//! events moved by value, the card's pure fold) and through `advance_into` (state in place,
//! events into a reused buffer). A raw integer accumulator with no events, no alpha and no
//! deadline is the floor to compare with.
//!
//! Run with `cargo bench -p tickfold-core --bench step`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickfold_core::{Event, Events, LoopConfig, LoopState, Nanos, TickRate};

/// 60 Hz ticks; the phase of ½ keeps 60 Hz frames off the tick boundaries.
fn state() -> LoopState {
    LoopState::new(
        LoopConfig::new(TickRate::from_hz(60).unwrap()).phase(0.5),
        Nanos(0),
    )
    .unwrap()
}

/// Frame length (ns) for each case: 1/240 s (0 or 1 update, mostly 0), 1/60 s (exactly 1),
/// 8/60 s (exactly 8, the default cap).
const CASES: [(&str, u64, u64); 3] = [
    ("0_updates", 1_000_000_000, 240),
    ("1_update", 1_000_000_000, 60),
    ("8_updates", 8_000_000_000, 60),
];

fn consume(events: &Events<Nanos>) -> f64 {
    let mut sum = 0.0;
    for e in events.iter() {
        match e {
            Event::Update(t) => sum += t.index as f64,
            Event::Render(r) => sum += r.alpha,
            _ => {}
        }
    }
    sum
}

fn by_value(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    for (name, num, den) in CASES {
        // A plain fold, as a user writes it: `state = next` in a local, timed over many steps.
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut s = state();
                let start = std::time::Instant::now();
                for frame in 1..=iters {
                    let (next, events) = s.step(Nanos(frame * num / den));
                    s = next;
                    black_box(consume(&events));
                }
                start.elapsed()
            });
        });
    }
    group.finish();
}

fn in_place(c: &mut Criterion) {
    let mut group = c.benchmark_group("advance_into");
    for (name, num, den) in CASES {
        group.bench_function(name, |b| {
            let mut s = state();
            let mut events = Events::new();
            let mut frame = 0u64;
            b.iter(|| {
                frame += 1;
                s.advance_into(Nanos(frame * num / den), &mut events);
                black_box(consume(&events))
            });
        });
    }
    group.finish();
}

/// The least a fixed-timestep loop can do: an integer accumulator, a count, an alpha.
fn raw(c: &mut Criterion) {
    let mut group = c.benchmark_group("raw_accumulator");
    group.bench_function("1_update", |b| {
        let (num, den) = (50_000_000u64, 3u64); // 60 Hz in ns, as a fraction
        let (mut last, mut acc, mut ticks, mut frame) = (0u64, 0u64, 0u64, 0u64);
        b.iter(|| {
            frame += 1;
            let now = frame * 1_000_000_000 / 60 + 8_333_333;
            acc += (now - last) * den;
            last = now;
            let mut sum = 0.0;
            while acc >= num {
                acc -= num;
                ticks += 1;
                sum += ticks as f64;
            }
            black_box(sum + acc as f64 / num as f64)
        });
    });
    group.finish();
}

criterion_group!(benches, by_value, in_place, raw);
criterion_main!(benches);
