//! A counting allocator proves that stepping a single-clock loop allocates nothing, whatever
//! the number of updates (a step's events are a compact description), that stepping and
//! reading loops of 1, 4, 16 and 64 clocks allocate nothing either, by value and in place, and
//! that it does see the new buffers a step takes while the shell holds the previous step's
//! events. Cloning a `LoopState` allocates its box,
//! so every clone happens outside the measured region. The counter is the `allocation-counter` crate's: it counts only the
//! allocations of the thread that measures, so the test harness or another test running on
//! another thread can never be counted, and this file needs no `unsafe`.

use tickfold_core::{
    ClockConfig, ClockId, DropReason, Event, Events, LoopConfig, LoopState, MAX_UPDATES_PER_STEP,
    Nanos, Period, Policy, Tick, TimeScale,
};
use tickfold_testing::SplitMix64;

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
    let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    let (allocations, (steps_with_8, spikes, most_events, updates)) = allocations_during(|| {
        let (mut now, mut steps_with_8, mut spikes, mut most_events, mut updates) = (0, 0, 0, 0, 0);
        for i in 0..100_000u64 {
            now += match i % 1_000 {
                // 8 ticks and 1 ms: a catch-up step at the default cap.
                500 => 8 * 16_666_667 + MS,
                // A 2 s stall: discarded time, 8 updates, a deferral and a render.
                999 => 2_000 * MS,
                // 60 Hz frames with ±50 µs of jitter.
                _ => 16_666_667 - 50_000 + rng.below(100_001),
            };
            // Pause for 40 frames now and then: Paused and Resumed events.
            match i % 5_000 {
                100 => {
                    state.virtual_time_mut().set_paused(true);
                }
                140 => {
                    state.virtual_time_mut().set_paused(false);
                }
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
        }
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
    assert_eq!(events.updates().count(), 1_000);
    assert_eq!(events.len(), 1_001);
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 1_000);
    let (allocations, last) = allocations_during(|| events.updates().last());
    assert_eq!(allocations, 0, "reading the updates allocated");
    assert_eq!(last.map(|t| (t.index, t.last_in_step)), Some((999, true)));
}

/// A loop of `n` clocks at 100 Hz each, stepped once at 0.
fn clocks(n: usize) -> LoopState {
    let rate = Period::from_hz(100).unwrap();
    let mut config = LoopConfig::new(rate);
    for i in 1..n {
        config = config.clock(ClockConfig::new(format!("c{i}"), rate));
    }
    LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0
}

/// Steps a loop of `n` clocks (at 100 Hz, 99 Hz, 98 Hz, … so that they drift apart) through
/// 2,000 frames of 60 Hz with jitter and a stall now and then, by value and in place, reading
/// every event; returns the allocations of each way and the updates seen.
fn frames_of(n: usize) -> (u64, u64, usize) {
    let hz = |k: usize| Period::from_hz(100 - (k as u64 % 50)).unwrap();
    let mut config = LoopConfig::new(hz(0));
    for i in 1..n {
        config = config.clock(ClockConfig::new(format!("c{i}"), hz(i)));
    }
    let state = LoopState::new(config, Nanos(0)).unwrap();
    let mut in_place = state.clone();
    let mut buffer = Events::new();
    let now = |i: u64| i * 16_666_667 + (i * 7_919 % 100_000) + (i / 500) * 300 * MS;
    let (by_value, (state, seen)) = allocations_during(|| {
        let (mut state, mut seen) = (state, 0);
        for i in 1..=2_000 {
            let (next, events) = state.step(Nanos(now(i)));
            state = next;
            seen += read_all(&events).0;
        }
        (state, seen)
    });
    let (into, seen_into) = allocations_during(|| {
        let mut seen = 0;
        for i in 1..=2_000 {
            in_place.advance_into(Nanos(now(i)), &mut buffer);
            seen += read_all(&buffer).0;
        }
        seen
    });
    assert_eq!(seen, seen_into);
    assert_eq!(state, in_place);
    (by_value, into, seen)
}

#[test]
fn one_clock_never_allocates_by_value_or_in_place() {
    let (by_value, into, seen) = frames_of(1);
    assert_eq!((by_value, into), (0, 0));
    assert!(seen > 2_000, "only {seen} updates");
}

#[test]
fn four_clocks_never_allocate_by_value_or_in_place() {
    let (by_value, into, seen) = frames_of(4);
    assert_eq!((by_value, into), (0, 0));
    assert!(seen > 8_000, "only {seen} updates");
}

#[test]
fn sixteen_clocks_never_allocate_by_value_or_in_place() {
    let (by_value, into, seen) = frames_of(16);
    assert_eq!((by_value, into), (0, 0));
    assert!(seen > 32_000, "only {seen} updates");
}

#[test]
fn sixty_four_clocks_never_allocate_by_value_or_in_place() {
    let (by_value, into, seen) = frames_of(64);
    assert_eq!((by_value, into), (0, 0));
    assert!(seen > 128_000, "only {seen} updates");
}

#[test]
fn four_clocks_updating_in_one_step_never_allocate() {
    // Four clocks' runs live in the state's reused buffer, by value and in place.
    let state = clocks(4);
    let mut in_place = state.clone();
    let mut buffer = tickfold_core::Events::new();
    let (allocations, (_, events)) = allocations_during(|| state.step(Nanos(20 * MS)));
    assert_eq!(allocations, 0, "stepping four clocks by value allocated");
    assert_eq!(events.update_count(), 8);
    let (allocations, ()) =
        allocations_during(|| in_place.advance_into(Nanos(20 * MS), &mut buffer));
    assert_eq!(allocations, 0, "stepping four clocks in place allocated");
    assert_eq!(buffer, events);
}

#[test]
fn a_step_while_the_previous_events_are_held_takes_new_buffers() {
    // The control: sixteen clocks' runs live in the state's buffer, shared with the events
    // of the step that used it; holding those events makes the next step take a new one,
    // and the counter sees it. Dropped, the buffer is reused.
    let state = clocks(16);
    let (allocations, (state, held)) = allocations_during(|| state.step(Nanos(20 * MS)));
    assert_eq!((allocations, held.update_count()), (0, 32));
    let (allocations, (state, events)) = allocations_during(|| state.step(Nanos(40 * MS)));
    assert!(allocations > 0, "the new buffer went unnoticed");
    assert_eq!(events.update_count(), 32);
    drop((held, events));
    let (allocations, (_, events)) = allocations_during(|| state.step(Nanos(60 * MS)));
    assert_eq!((allocations, events.update_count()), (0, 32));
}

/// Reads every event of a step, in all the ways a shell can: by reference, through `iter`,
/// the updates alone, and by value. Returns the number of updates seen and a checksum.
fn read_all(events: &Events<Nanos>) -> (usize, u64) {
    let (mut updates, mut sum) = (0, 0u64);
    for e in events {
        if let Event::Update(t) = e {
            updates += 1;
            sum = sum
                .wrapping_mul(31)
                .wrapping_add(t.index ^ u64::from(t.clock.0));
        }
    }
    let via_iter = events
        .iter()
        .filter(|e| matches!(e, Event::Update(_)))
        .count();
    let mut check = 0u64;
    for t in events.updates() {
        check = check
            .wrapping_mul(31)
            .wrapping_add(t.index ^ u64::from(t.clock.0));
    }
    let last = events.updates().last().map(|t| t.last_in_step);
    assert_eq!(
        (via_iter, check, last.unwrap_or(true)),
        (updates, sum, true)
    );
    (updates, sum)
}

/// `ceil(k·dt)` in ns: when tick `k − 1` of a catch-up clock becomes due.
fn ceil_mul(rate: Period, k: u64) -> u64 {
    let (num, den) = rate.as_nanos_ratio();
    let p = u128::from(k) * u128::from(num);
    u64::try_from(p.div_ceil(u128::from(den))).unwrap()
}

/// The merge's order in one step of catch-up clocks started at 0 with no phase: by due time,
/// ties to the clock declared first, each clock's ticks in a row.
fn assert_merged(ticks: &[Tick]) {
    let key = |t: &Tick| (ceil_mul(t.dt, t.index + 1), t.clock.0);
    for pair in ticks.windows(2) {
        assert!(key(&pair[0]) < key(&pair[1]), "out of order: {pair:?}");
    }
    for c in 0..16 {
        let mine: Vec<u64> = ticks
            .iter()
            .filter(|t| t.clock == ClockId(c))
            .map(|t| t.index)
            .collect();
        assert!(mine.windows(2).all(|w| w[1] == w[0] + 1), "clock {c}");
        let lasts = ticks
            .iter()
            .filter(|t| t.clock == ClockId(c) && t.last_in_step)
            .count();
        assert_eq!(lasts, usize::from(!mine.is_empty()), "clock {c}");
    }
}

#[test]
fn reading_a_step_of_four_clocks_never_allocates() {
    // Four clocks tie on every tick: the merge goes c0, c1, c2, c3, c0, … without a cursor
    // on the heap.
    let state = clocks(4);
    let (_, events) = state.step(Nanos(20 * MS));
    let (allocations, (updates, _)) = allocations_during(|| read_all(&events));
    assert_eq!(allocations, 0, "reading four clocks' updates allocated");
    assert_eq!(updates, 8);
    let order: Vec<(u16, u64)> = events.updates().map(|t| (t.clock.0, t.index)).collect();
    let expected: Vec<(u16, u64)> = (0..2).flat_map(|i| (0..4).map(move |c| (c, i))).collect();
    assert_eq!(order, expected);
    // By value too: the iterator owns the events, already built (8 updates and the render).
    let len = events.len();
    let (allocations, count) = allocations_during(|| events.into_iter().count());
    assert_eq!((allocations, count, len), (0, len, 9));
}

#[test]
fn reading_a_long_merge_of_four_clocks_never_allocates() {
    // Four uncapped clocks at different rates over 50 ms: about 200 updates, more than the
    // merge orders at a time, in due order.
    let hz = |n: u64| Period::from_hz_ratio(n, 1).unwrap();
    let mut config = LoopConfig::from_clock(ClockConfig::new("main", hz(1_000)).max_updates(None))
        .max_frame_delta(None);
    for (name, rate) in [("b", 999), ("c", 1_001), ("d", 997)] {
        config = config.clock(ClockConfig::new(name, hz(rate)).max_updates(None));
    }
    let (_, events) = LoopState::new(config, Nanos(0))
        .unwrap()
        .step(Nanos(50 * MS));
    let (allocations, (updates, _)) = allocations_during(|| read_all(&events));
    assert_eq!(allocations, 0, "reading a long merge allocated");
    assert!(updates > 190, "only {updates} updates");
    assert_merged(&events.updates().collect::<Vec<_>>());
}

#[test]
fn reading_a_step_of_sixteen_clocks_never_allocates() {
    // The walk follows the order the step worked out in its buffer.
    let (_, events) = clocks(16).step(Nanos(20 * MS));
    let (allocations, (updates, _)) = allocations_during(|| read_all(&events));
    assert_eq!(allocations, 0, "reading sixteen clocks' updates allocated");
    assert_eq!(updates, 32);
    assert_merged(&events.updates().collect::<Vec<_>>());
}

#[test]
fn a_clock_at_the_update_backstop_merges_along_the_steps_order() {
    // A clock with its cap lifted that runs the full backstop of updates in one step while
    // another clock updates too: past what the walk merges as it reads, without allocating.
    let config = LoopConfig::from_clock(
        ClockConfig::new("main", Period::from_hz(1_000_000).unwrap()).max_updates(None),
    )
    .max_frame_delta(None)
    // Uncapped too: a cap deferring "slow" would hold "main" back behind it.
    .clock(ClockConfig::new("slow", Period::from_hz(1_000).unwrap()).max_updates(None));
    let (_, events) = LoopState::new(config, Nanos(0))
        .unwrap()
        .step(Nanos(70 * MS));
    let ticks: Vec<Tick> = events.updates().collect();
    let main = ticks.iter().filter(|t| t.clock == ClockId(0)).count();
    assert_eq!(main, MAX_UPDATES_PER_STEP as usize);
    assert_merged(&ticks);
    let (allocations, _) = allocations_during(|| read_all(&events));
    assert_eq!(allocations, 0, "reading the backstop's merge allocated");
}

/// The events of a step other than its updates and its render.
fn rare(events: &Events<Nanos>) -> Vec<Event<Nanos>> {
    events
        .iter()
        .filter(|e| !matches!(e, Event::Update(_) | Event::Render(_)))
        .collect()
}

/// Steps a copy of `state` at `now` both ways, measuring each: by value, and in place into a
/// new buffer (the buffer's first use, so nothing it kept from earlier steps can hide an
/// allocation). Returns both allocation counts and the events, checked equal.
fn step_both(state: &LoopState, now: u64) -> (u64, u64, Events<Nanos>) {
    let (by_value, mut in_place) = (state.clone(), state.clone());
    let mut buffer = Events::new();
    let (a_step, (_, events)) = allocations_during(|| by_value.step(Nanos(now)));
    let (a_into, ()) = allocations_during(|| in_place.advance_into(Nanos(now), &mut buffer));
    assert_eq!(buffer, events);
    (a_step, a_into, events)
}

#[test]
fn a_constant_rate_loop_that_drops_and_sleeps_never_allocates() {
    // Issue 21: a 60 Hz `DropAndRest` loop stepped at 0 then at 40 ms drops a slot and sleeps
    // before its update: two events before the updates.
    let config = LoopConfig::new(Period::from_hz(60).unwrap()).policy(Policy::DropAndRest);
    let state = LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0;
    let (a_step, a_into, events) = step_both(&state, 40 * MS);
    assert!(matches!(
        rare(&events)[..],
        [Event::DroppedTicks { .. }, Event::Sleep { .. }]
    ));
    assert_eq!((a_step, a_into), (0, 0), "{events:?}");
}

#[test]
fn keep_working_after_a_stall_never_allocates() {
    // Issue 21: `KeepWorking` after a 1 s stall discards time past the max frame delta and
    // sleeps until its slot.
    let config = LoopConfig::new(Period::from_hz(60).unwrap()).policy(Policy::KeepWorking);
    let state = LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0;
    let (a_step, a_into, events) = step_both(&state, 1_000 * MS);
    // The slots between the max frame delta and now are missed, then the update runs on time.
    assert!(matches!(
        rare(&events)[..],
        [Event::DiscardedTime { .. }, Event::DroppedTicks { .. }]
    ));
    assert_eq!((a_step, a_into), (0, 0), "{events:?}");
}

#[test]
fn three_capped_clocks_deferring_in_one_step_never_allocate() {
    // Issue 21: three catch-up clocks capped at 2 updates per step, 10 ticks behind each: every
    // clock defers in the same step, three events after the updates.
    let rate = Period::from_hz(100).unwrap();
    let config = LoopConfig::from_clock(ClockConfig::new("main", rate).max_updates(Some(2)))
        .clock(ClockConfig::new("b", rate).max_updates(Some(2)))
        .clock(ClockConfig::new("c", rate).max_updates(Some(2)));
    let state = LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0;
    let (a_step, a_into, events) = step_both(&state, 100 * MS);
    let deferred = rare(&events)
        .iter()
        .filter(|e| matches!(e, Event::Deferred { ticks: 8, .. }))
        .count();
    assert_eq!((deferred, events.update_count()), (3, 6));
    assert_eq!((a_step, a_into), (0, 0), "{events:?}");
}

/// Four clocks of `policy` at 60 Hz, the main one the alpha clock, stepped at 0 and 100 ms.
fn four_clocks(policies: [Policy; 4]) -> LoopState {
    let rate = Period::from_hz(60).unwrap();
    let mut config = LoopConfig::from_clock(ClockConfig::new("main", rate).policy(policies[0]));
    for (name, policy) in ["b", "c", "d"].into_iter().zip(&policies[1..]) {
        config = config.clock(ClockConfig::new(name, rate).policy(*policy));
    }
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    for now in [0, 100 * MS] {
        let _ = state.advance(Nanos(now));
    }
    state
}

#[test]
fn the_worst_steps_of_four_clocks_never_allocate() {
    // Every rare event four clocks can make, as many as one step can hold: the paused step
    // with a backwards clock, then the step that resumes at a new scale after every clock
    // control, drops past the max frame delta, misses slots and reaches the end of time.
    use Policy::{DropAndRest as Rest, KeepWorking as Keep};
    let mut state = four_clocks([Keep, Rest, Keep, Rest]);
    let ids: Vec<ClockId> = ["main", "b", "c", "d"]
        .iter()
        .map(|n| state.clock(*n).unwrap().id())
        .collect();
    state
        .virtual_time_mut()
        .set_scale(TimeScale::ratio(1, 2).unwrap());
    state.virtual_time_mut().step_ticks(1); // pauses
    let (a_step, a_into, events) = step_both(&state, 50 * MS);
    assert!(matches!(
        rare(&events)[..],
        [
            Event::Paused,
            Event::ScaleChanged(_),
            Event::TimeBackwards { .. }
        ]
    ));
    assert_eq!((a_step, a_into), (0, 0), "{events:?}");
    state.advance_into(Nanos(50 * MS), &mut Events::new());
    // Per clock: a dropped tick, a rate change, the rest of its backlog dropped.
    for id in &ids {
        state
            .clock_mut(*id)
            .unwrap()
            .accumulate_overstep(Nanos(100 * MS));
        state
            .clock_mut(*id)
            .unwrap()
            .discard_overstep(Nanos(20 * MS));
        state
            .clock_mut(*id)
            .unwrap()
            .set_rate(Period::from_hz(50).unwrap());
        state.clock_mut(*id).unwrap().reset_grid();
    }
    state
        .virtual_time_mut()
        .set_scale(TimeScale::ratio(4_000, 1).unwrap());
    state.virtual_time_mut().set_paused(false);
    // 4,000 times this is past the end of the time axis.
    let (a_step, a_into, events) = step_both(&state, u64::MAX / 4_000 + 200 * MS);
    let rare = rare(&events);
    let kinds: Vec<u8> = rare
        .iter()
        .map(|e| match e {
            Event::Resumed => 0,
            Event::ScaleChanged(_) => 1,
            Event::RateChanged { .. } => 2,
            Event::DroppedTicks {
                reason: DropReason::Discarded,
                ..
            } => 3,
            Event::DiscardedTime { .. } => 4,
            Event::DroppedTicks {
                reason: DropReason::SlotMissed,
                ..
            } => 5,
            Event::EndOfTime { .. } => 6,
            _ => 7,
        })
        .collect();
    let expected: Vec<u8> = [0, 1]
        .into_iter()
        .chain([3, 2, 3].repeat(4))
        .chain([4; 4])
        .chain([5; 4])
        .chain([6; 4])
        .collect();
    assert_eq!(kinds, expected, "{rare:?}");
    assert_eq!((a_step, a_into), (0, 0), "{events:?}");
}

#[test]
fn four_catching_up_clocks_with_controls_every_step_never_allocate() {
    // Four catch-up clocks capped at 2, each step after a rate change of two of them and a
    // 1 s stall: two rate changes, eight discarded times (each clock's for the long frame,
    // before the updates, and its overload bound's, after them: 2 of the 15 ticks a frame
    // brings run, so the backlog left by the cap is soon more than the max frame delta
    // behind), four deferrals. The reports are
    // copied into the events, so the state keeps its list: after the first change neither
    // the controls nor the steps allocate.
    let rate = Period::from_hz(60).unwrap();
    let mut config = LoopConfig::from_clock(ClockConfig::new("main", rate).max_updates(Some(2)));
    for name in ["b", "c", "d"] {
        config = config.clock(ClockConfig::new(name, rate).max_updates(Some(2)));
    }
    let mut state = LoopState::new(config, Nanos(0)).unwrap().step(Nanos(0)).0;
    let rates = [Period::from_hz(50).unwrap(), Period::from_hz(60).unwrap()];
    let frame = |mut state: LoopState, i: u64| {
        for id in [ClockId(1), ClockId(3)] {
            state
                .clock_mut(id)
                .unwrap()
                .set_rate(rates[(i % 2) as usize]);
        }
        let (state, events) = state.step(Nanos(i * 1_000 * MS));
        // Rate changes, discarded times and deferrals, counted without allocating.
        let mut kinds = [0; 3];
        for e in &events {
            match e {
                Event::RateChanged { .. } => kinds[0] += 1,
                Event::DiscardedTime { .. } => kinds[1] += 1,
                Event::Deferred { .. } => kinds[2] += 1,
                _ => {}
            }
        }
        (state, kinds)
    };
    // The first rate change allocates the state's list of reports, and the first after a
    // clock's tick the box that keeps its latest tick's span (`ClockView::latest_tick`), both
    // kept from then on.
    state = frame(state, 2).0;
    state = frame(state, 3).0;
    let (allocations, kinds) = allocations_during(|| {
        let mut kinds = Vec::with_capacity(48);
        for i in 4..52 {
            let (next, k) = frame(state, i);
            state = next;
            kinds.push(k);
        }
        kinds
    });
    assert!(kinds.iter().all(|k| *k == [2, 8, 4]), "{kinds:?}");
    // The list of counts is the one allocation.
    assert_eq!(allocations, 1);
}
