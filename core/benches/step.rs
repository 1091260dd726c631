//! ns per step of the fold against the yardstick of game-loop 1.3's accumulator, both inlinable
//! into this crate:
//!
//! * `step/*` and `advance_into/*`: 0, 1 and 8 updates + render per step, through `step` (state
//!   and events moved by value, the pure fold) and through `advance_into` (state in place,
//!   events into a reused buffer), every event read back;
//! * `game_loop/*`: the same frames through an inlined copy of game-loop 1.3's `next_frame`
//!   logic (an `f64` accumulator: `acc += delta; while acc >= dt { update; acc -= dt }`, render
//!   with `acc / dt`);
//! * `thousand/*`: one step of 1,000 catch-up updates (no cap), without and with reading them;
//! * `clocks/*`: 1, 4 and 16 clocks at 60, 61, 62 … Hz, frames of 1/60 s.
//!
//! Run with `cargo bench -p tickfold-core --bench step`. Figures on a shared machine are noisy:
//! compare medians of one run side by side, and count instructions with
//! `valgrind --tool=callgrind` on the `step_count` example for repeatable figures.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickfold_core::{ClockConfig, Event, Events, LoopConfig, LoopState, Nanos, Period};

/// 60 Hz ticks; the phase of ½ keeps 60 Hz frames off the tick boundaries.
fn state() -> LoopState {
    LoopState::new(
        LoopConfig::new(Period::from_hz(60).unwrap()).phase(0.5),
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

/// Reads every event, as a shell does.
#[inline]
fn consume(events: &Events<Nanos>) -> f64 {
    let mut sum = 0.0;
    for e in events {
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
            b.iter_custom(|iters| {
                let mut s = state();
                let mut events = Events::new();
                let start = std::time::Instant::now();
                for frame in 1..=iters {
                    s.advance_into(Nanos(frame * num / den), &mut events);
                    black_box(consume(&events));
                }
                start.elapsed()
            });
        });
    }
    group.finish();
}

/// game-loop 1.3's `GameLoop::next_frame`, reduced to its arithmetic and inlined: the same
/// frames, one update per whole `dt` in the accumulator, a render with the blending factor.
fn game_loop(c: &mut Criterion) {
    let mut group = c.benchmark_group("game_loop");
    for (name, num, den) in CASES {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let dt = 1.0 / 60.0;
                let (mut acc, mut last, mut ticks) = (0.0f64, 0.0f64, 0u64);
                let start = std::time::Instant::now();
                for frame in 1..=iters {
                    let now = black_box((frame * num / den) as f64 / 1e9);
                    acc += now - last;
                    last = now;
                    let mut sum = 0.0;
                    while acc >= dt {
                        sum += ticks as f64;
                        ticks += 1;
                        acc -= dt;
                    }
                    black_box(sum + acc / dt);
                }
                start.elapsed()
            });
        });
    }
    group.finish();
}

/// One step of 1,000 updates (1 kHz, a 1 s frame, no cap, no clamp): the step alone, then the
/// step and reading every update.
fn thousand(c: &mut Criterion) {
    let config = LoopConfig::new(Period::from_hz(1_000).unwrap())
        .max_updates(None)
        .max_frame_delta(None);
    let mut group = c.benchmark_group("thousand");
    for (name, read) in [("step_only", false), ("step_and_read", true)] {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut s = LoopState::new(config.clone(), Nanos(0)).unwrap();
                let mut events = Events::new();
                let start = std::time::Instant::now();
                for frame in 1..=iters {
                    s.advance_into(Nanos(frame * 1_000_000_000), &mut events);
                    if read {
                        black_box(consume(&events));
                    } else {
                        black_box(events.render().map(|r| r.alpha));
                    }
                }
                start.elapsed()
            });
        });
    }
    group.finish();
}

const NAMES: [&str; 16] = [
    "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13", "c14",
    "c15",
];

fn clocks(c: &mut Criterion) {
    let mut group = c.benchmark_group("clocks");
    for n in [1usize, 4, 16] {
        let hz = |k: usize| Period::from_hz(60 + k as u64).unwrap();
        let mut config = LoopConfig::from_clock(ClockConfig::new("main", hz(0)).phase(0.5));
        for (k, name) in NAMES.iter().enumerate().take(n).skip(1) {
            config = config.clock(ClockConfig::new(*name, hz(k)));
        }
        group.bench_function(format!("{n}_clocks"), |b| {
            b.iter_custom(|iters| {
                let mut s = LoopState::new(config.clone(), Nanos(0)).unwrap();
                let mut events = Events::new();
                let start = std::time::Instant::now();
                for frame in 1..=iters {
                    s.advance_into(Nanos(frame * 1_000_000_000 / 60), &mut events);
                    black_box(consume(&events));
                }
                start.elapsed()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, by_value, in_place, game_loop, thousand, clocks);
criterion_main!(benches);
