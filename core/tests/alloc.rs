//! A counting allocator proves that stepping the loop allocates nothing while a step's events
//! fit in `INLINE_EVENTS` (always, under the default cap), and that it does see the spill when
//! a step emits more. The counter is the `allocation-counter` crate's: it counts only the
//! allocations of the thread that measures, so the test harness or another test running on
//! another thread can never be counted, and this file needs no `unsafe`.

use tickfold_core::{Event, INLINE_EVENTS, LoopConfig, LoopState, Nanos, TickRate};

/// Runs `f` and returns how many allocations (reallocations included) this thread made
/// meanwhile.
fn allocations_during<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(f()));
    (info.count_total, result.expect("measure runs its closure"))
}

#[test]
fn the_counter_sees_a_real_allocation() {
    // The control: a zero below must come from the fold, not from a counter that counts nothing.
    let (allocations, b) = allocations_during(|| std::hint::black_box(Box::new(7_u64)));
    assert_eq!((allocations, *b), (1, 7));
}

const MS: u64 = 1_000_000;

#[test]
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

#[test]
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
