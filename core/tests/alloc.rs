//! A counting allocator proves that stepping a single-clock loop allocates nothing, whatever
//! the number of updates (a step's events are a compact description), and that it does see
//! the spill when two clocks update in the same step. Cloning a `LoopState` allocates its box,
//! so every clone happens outside the measured region. The counter is the `allocation-counter` crate's: it counts only the
//! allocations of the thread that measures, so the test harness or another test running on
//! another thread can never be counted, and this file needs no `unsafe`.

use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};

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
    let rate = Period::from_hz(60).unwrap();
    let mut state = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    let (allocations, (steps_with_8, spikes, most_events, updates)) = allocations_during(|| {
        let (mut now, mut steps_with_8, mut spikes, mut most_events, mut updates) = (0, 0, 0, 0, 0);
        let mut spilled = false;
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
            let (next, events) = state.step(Nanos(now));
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
            spilled |= events.spilled();
        }
        assert!(!spilled, "a single-clock step spilled");
        (steps_with_8, spikes, most_events, updates)
    });
    assert_eq!(allocations, 0, "the fold allocated under the cap");
    assert!(steps_with_8 >= 100, "only {steps_with_8} catch-up steps");
    assert!(spikes >= 90, "only {spikes} spikes");
    // 8 updates, discarded time, a deferral and a render.
    assert_eq!(most_events, 11);
    assert!(updates > 90_000);
}

#[test]
fn a_thousand_updates_never_allocate() {
    // A 1 s gap at 1 kHz with no cap: 1,000 updates in one step, described in a few words.
    let rate = Period::from_hz(1_000).unwrap();
    let config = LoopConfig::new(rate)
        .max_updates(None)
        .max_frame_delta(None);
    let state = LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0;
    let (allocations, (state, events)) = allocations_during(|| state.step(Nanos(1_000 * MS)));
    assert_eq!(allocations, 0, "1,000 updates allocated");
    assert!(!events.spilled());
    assert_eq!(events.updates().count(), 1_000);
    assert_eq!(events.len(), 1_001);
    assert_eq!(state.ticks_run(), 1_000);
    let (allocations, last) = allocations_during(|| events.updates().last());
    assert_eq!(allocations, 0, "reading the updates allocated");
    assert_eq!(last.map(|t| (t.index, t.last_in_step)), Some((999, true)));
}

/// A loop of `n` clocks at 100 Hz each, stepped once at 0.
fn clocks(n: usize) -> LoopState {
    const NAMES: [&str; 16] = [
        "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13",
        "c14", "c15",
    ];
    let rate = Period::from_hz(100).unwrap();
    let mut config = LoopConfig::new(rate);
    for name in NAMES.iter().take(n).skip(1) {
        config = config.clock(ClockConfig::new(name, rate));
    }
    LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0
}

#[test]
fn four_clocks_updating_in_one_step_never_allocate() {
    // Up to four clocks' runs live inline in the events, by value and in place.
    let state = clocks(4);
    let mut in_place = state.clone();
    let mut buffer = tickfold_core::Events::new();
    let (allocations, (_, events)) = allocations_during(|| state.step(Nanos(20 * MS)));
    assert_eq!(allocations, 0, "stepping four clocks by value allocated");
    assert!(!events.spilled());
    assert_eq!(events.update_count(), 8);
    let (allocations, ()) =
        allocations_during(|| in_place.advance_into(Nanos(20 * MS), &mut buffer));
    assert_eq!(allocations, 0, "stepping four clocks in place allocated");
    assert!(!buffer.spilled());
    assert_eq!(buffer, events);
}

#[test]
fn sixteen_clocks_updating_in_one_step_do_allocate() {
    // The control: past the inline room the description spills, and the counter sees it.
    let state = clocks(16);
    let (allocations, (_, events)) = allocations_during(|| state.step(Nanos(20 * MS)));
    assert_eq!(events.update_count(), 32);
    assert!(events.spilled());
    assert!(allocations > 0, "the spill went unnoticed");
}
