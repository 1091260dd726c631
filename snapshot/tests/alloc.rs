//! A counting allocator (the `allocation-counter` crate's, no `unsafe` of ours) proves that a
//! tick of writes, capture, ring save, checksum, load and blended reads allocates nothing once
//! the buffers are built, and that it does see allocations where they happen: pushing past the
//! reserved capacity, and the persistent variant's copy-on-write. It counts only the
//! allocations of the thread that measures, so the test harness and other tests on other
//! threads are never counted.

use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
use tickfold_snapshot::{DoubleBuffer, Persistent, Ring, Tracked};

/// Runs `f` and returns how many allocations (reallocations included) this thread made
/// meanwhile.
fn allocations_during<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(f()));
    (info.count_total, result.expect("measure runs its closure"))
}

#[test]
fn the_counter_sees_a_real_allocation() {
    // The control: a zero below must come from the buffers, not from a counter that counts
    // nothing.
    let (allocations, b) = allocations_during(|| std::hint::black_box(Box::new(7_u64)));
    assert_eq!((allocations, *b), (1, 7));
}

#[test]
fn ticks_allocate_nothing_and_the_counter_sees_what_does() {
    let rate = Period::from_hz(60).unwrap();
    let mut state = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    let mut world = DoubleBuffer::new(Vec::with_capacity(40_000));
    world.resize(30_000, [0.0_f32; 4]);
    let mut tracked = Tracked::new(vec![0_u64; 30_000]);
    let mut ring = Ring::new(8, &tracked).unwrap();
    let mut sum = 0.0_f32;

    let (allocs, ticks) = allocations_during(|| {
        let mut ticks = 0_u64;
        for frame in 1..=600_u64 {
            let events;
            (state, events) = state.step(Nanos(frame * 23_000_000));
            for event in &events {
                match event {
                    Event::Update(tick) => {
                        world.before_update(&tick);
                        let i = (tick.index * 7919 % 30_000) as usize;
                        world.get_mut(i).unwrap()[0] += 1.0;
                        world.slice_mut(i / 2..i / 2 + 100).unwrap()[0][1] = 2.0;
                        tracked.set(i, tick.index).unwrap();
                        let _ = ring.save(tick.index, &mut tracked);
                        if tick.index % 50 == 49 {
                            ring.load(tick.index - 3, &mut tracked).unwrap();
                            assert!(ring.checksum(tick.index - 3).is_some());
                        }
                        ticks += 1;
                    }
                    Event::Render(r) => sum += world.blend(r.alpha).map(|p| p[0]).sum::<f32>(),
                    _ => {}
                }
            }
            // Spawns and despawns within the reserved capacity.
            if frame % 10 == 0 {
                world.push([1.0; 4]);
                world.swap_remove(5).unwrap();
            }
        }
        ticks
    });
    assert!(ticks > 800 && sum > 0.0, "{ticks} ticks");
    assert_eq!(allocs, 0, "allocations over {ticks} ticks");

    // The counter does see allocations: past the capacity, and copy-on-write of shared nodes.
    let (grow, ()) = allocations_during(|| {
        for _ in 0..20_000 {
            world.push([0.0; 4]);
        }
    });
    assert!(grow > 0);
    let mut persistent: Persistent<u64> = (0..10_000).collect();
    let (cow, ()) = allocations_during(|| {
        persistent.capture();
        persistent.set(5000, 1).unwrap();
    });
    assert!(
        cow > 0,
        "a write after an O(1) capture copies the shared leaf"
    );
}
