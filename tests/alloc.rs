//! A counting global allocator proves that stepping the loop allocates nothing while a step's
//! events fit in `INLINE_EVENTS` (always, under the default cap), and that it does see the
//! spill when a step emits more. The counter is `stats_alloc`'s instrumented system allocator,
//! so this file needs no `unsafe`.

use std::alloc::System;
use std::sync::Mutex;

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use tickfold::{Event, INLINE_EVENTS, LoopConfig, LoopState, Nanos, TickRate};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The counter is process-wide: measurements run one at a time, from a single test, so the
/// harness reporting another test's result cannot be counted.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn the_fold_allocates_only_when_events_spill() {
    exceeding_inline_events_does_allocate();
    stepping_under_the_cap_never_allocates();
}

/// Runs `f` and returns how many allocations and reallocations happened meanwhile.
fn allocations_during<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let region = Region::new(GLOBAL);
    let result = f();
    let change = region.change();
    (change.allocations + change.reallocations, result)
}

const MS: u64 = 1_000_000;

fn stepping_under_the_cap_never_allocates() {
    // Everything that may allocate is built before measuring.
    let rate = TickRate::from_hz(60).unwrap();
    let mut state = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    let (allocations, (steps_with_8, spikes, most_events, updates)) = allocations_during(|| {
        let (mut now, mut steps_with_8, mut spikes, mut most_events, mut updates) = (0, 0, 0, 0, 0);
        for i in 0..100_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            now += match i % 1_000 {
                // 8 ticks and 1 ms: a catch-up step at the default cap.
                500 => 8 * 16_666_667 + MS,
                // A 2 s stall: discarded time, 8 updates, a deferral and a render.
                999 => 2_000 * MS,
                // 60 Hz frames with ±50 µs of jitter.
                _ => 16_666_667 - 50_000 + x % 100_001,
            };
            // Pause for 40 frames now and then: Paused and Resumed events.
            match i % 5_000 {
                100 => state.set_paused(true),
                140 => state.set_paused(false),
                _ => {}
            }
            let (next, events) = state.clone().step(Nanos(now));
            state = next;
            let n = events.updates().count();
            updates += n;
            steps_with_8 += usize::from(n == 8);
            spikes += usize::from(
                events
                    .iter()
                    .any(|e| matches!(e, Event::DiscardedTime { .. })),
            );
            most_events = most_events.max(events.len());
        }
        (steps_with_8, spikes, most_events, updates)
    });
    assert_eq!(allocations, 0, "the fold allocated under the cap");
    assert!(steps_with_8 >= 100, "only {steps_with_8} catch-up steps");
    assert!(spikes >= 90, "only {spikes} spikes");
    assert!(
        (11..=INLINE_EVENTS).contains(&most_events),
        "{most_events} events"
    );
    assert!(updates > 90_000);
}

fn exceeding_inline_events_does_allocate() {
    // The counter works: a 1 s gap at 1 kHz with no cap emits 1,000 updates in one step.
    let rate = TickRate::from_hz(1_000).unwrap();
    let config = LoopConfig::new(rate)
        .max_updates(None)
        .max_frame_delta(None);
    let state = LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0;
    let (allocations, events) = allocations_during(|| state.step(Nanos(1_000 * MS)).1);
    assert_eq!(events.updates().count(), 1_000);
    assert!(events.spilled());
    assert!(allocations > 0, "the spill went unnoticed");
}
