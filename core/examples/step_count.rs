//! A driver for instruction counts: runs `N` steps of one case so that
//! `valgrind --tool=callgrind` can count instructions per step (run it with N and 2·N and
//! divide the difference by N). Not a timing tool.
//!
//! `cargo run --release -p tickfold-core --example step_count -- <case> <N>` with `<case>` one
//! of `step0`, `step1`, `step8`, `into0`, `into1`, `into8`, `gl0`, `gl1`, `gl8`, `k1000`,
//! `clocks1`, `clocks4`, `clocks16`.

use std::hint::black_box;

use tickfold_core::{ClockConfig, Event, Events, LoopConfig, LoopState, Nanos, Period};

const NAMES: [&str; 16] = [
    "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13", "c14",
    "c15",
];

fn state(clocks: usize) -> LoopState {
    let hz = |k: usize| Period::from_hz(60 + k as u64).unwrap();
    let mut config = LoopConfig::from_clock(ClockConfig::new("main", hz(0)).phase(0.5));
    for (k, name) in NAMES.iter().enumerate().take(clocks).skip(1) {
        config = config.clock(ClockConfig::new(*name, hz(k)));
    }
    LoopState::new(config, Nanos(0)).unwrap()
}

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

/// game-loop 1.3's `next_frame` accumulator, inlined.
#[inline(never)]
fn game_loop(n: u64, num: u64, den: u64) -> f64 {
    let dt = 1.0 / 60.0;
    let (mut acc, mut last, mut sum, mut ticks) = (0.0f64, 0.0f64, 0.0, 0u64);
    for frame in 1..=n {
        let now = black_box((frame * num / den) as f64 / 1e9);
        acc += now - last;
        last = now;
        while acc >= dt {
            ticks += 1;
            sum += ticks as f64;
            acc -= dt;
        }
        sum += acc / dt;
    }
    sum
}

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "step1".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let (num, den) = match case.chars().last() {
        Some('0') if !case.starts_with('k') => (1_000_000_000, 240),
        Some('8') => (8_000_000_000, 60),
        _ => (1_000_000_000, 60),
    };
    let mut total = 0.0;
    match case.as_str() {
        "step0" | "step1" | "step8" => {
            let mut s = state(1);
            for frame in 1..=n {
                let (next, events) = s.step(Nanos(frame * num / den));
                s = next;
                total += consume(&events);
            }
        }
        "into0" | "into1" | "into8" => {
            let mut s = state(1);
            let mut events = Events::new();
            for frame in 1..=n {
                s.advance_into(Nanos(frame * num / den), &mut events);
                total += consume(&events);
            }
        }
        "gl0" | "gl1" | "gl8" => total = game_loop(n, num, den),
        "k1000" => {
            let config = LoopConfig::new(Period::from_hz(1_000).unwrap())
                .max_updates(None)
                .max_frame_delta(None);
            let mut s = LoopState::new(config, Nanos(0)).unwrap();
            let mut events = Events::new();
            for frame in 1..=n {
                s.advance_into(Nanos(frame * 1_000_000_000), &mut events);
                total += consume(&events);
            }
        }
        c if c.starts_with("clocks") => {
            let k: usize = c["clocks".len()..].parse().unwrap_or(1);
            let mut s = state(k);
            let mut events = Events::new();
            for frame in 1..=n {
                s.advance_into(Nanos(frame * 1_000_000_000 / 60), &mut events);
                total += consume(&events);
            }
        }
        other => panic!("unknown case {other}"),
    }
    black_box(total);
}
