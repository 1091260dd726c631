//! Checksums, bad input, the fold glue and the documented edge rules.

use quickcheck::{QuickCheck, TestResult};
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
use tickfold_snapshot::{
    Double, DoubleBuffer, Ring, SnapshotError, TickNotInRing, Tracked, chunk_checksum,
    state_checksum,
};
use tickfold_testing::SplitMix64;

#[test]
fn the_checksum_changes_if_and_only_if_a_byte_changes() {
    // Random data and a random single-byte edit: the checksum of the saved tick changes exactly
    // when the byte's value changes, and returns when the edit is undone.
    fn prop(data: Vec<u8>, at: usize, byte: u8, chunk_shift: u8) -> TestResult {
        if data.is_empty() {
            return TestResult::discard();
        }
        let chunk_bytes = 1 << (chunk_shift % 10);
        let at = at % data.len();
        let old = data[at];
        let mut world = Tracked::with_chunk_bytes(data, chunk_bytes).unwrap();
        let mut ring = Ring::new(3, &world).unwrap();
        let _ = ring.save(0, &mut world);
        world.set(at, byte).unwrap();
        let _ = ring.save(1, &mut world);
        let changed = ring.checksum(0) != ring.checksum(1);
        // Chunk checksums agree everywhere but in the edited chunk.
        let (c0, c1) = (
            ring.chunk_checksums(0).unwrap(),
            ring.chunk_checksums(1).unwrap(),
        );
        let differing: Vec<usize> = (0..c0.len()).filter(|&c| c0[c] != c1[c]).collect();
        world.set(at, old).unwrap();
        let _ = ring.save(2, &mut world);
        let restored = ring.checksum(2) == ring.checksum(0);
        let expect: Vec<usize> = if byte == old {
            vec![]
        } else {
            vec![at / world.chunk_len()]
        };
        TestResult::from_bool(changed == (byte != old) && differing == expect && restored)
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(Vec<u8>, usize, u8, u8) -> TestResult);
}

#[test]
fn checksums_are_xxh3_of_the_bytes_and_fixed_across_versions() {
    // XXH3-64 with seed 0 of the empty input is a published constant of the algorithm.
    assert_eq!(chunk_checksum::<u8>(&[]), 0x2D06_8005_38D3_94C2);
    // u32s hash as their native-endian bytes.
    let words = [1_u32, 2, 3];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
    assert_eq!(chunk_checksum(&words), chunk_checksum(&bytes));
    // The state checksum depends on the element count as well as the chunk hashes.
    assert_ne!(state_checksum(&[1, 2], 8), state_checksum(&[1, 2], 9));
}

#[test]
fn bad_configuration_gives_typed_errors() {
    assert_eq!(
        Tracked::with_chunk_bytes(vec![0_u8; 8], 0).err(),
        Some(SnapshotError::ChunkSizeZero)
    );
    assert_eq!(
        Tracked::with_chunk_bytes(vec![0_u8; 8], 3000).err(),
        Some(SnapshotError::ChunkSizeNotPowerOfTwo { bytes: 3000 })
    );
    let world = Tracked::new(vec![0_u8; 8]);
    assert_eq!(Ring::new(0, &world).err(), Some(SnapshotError::EmptyRing));
    // A hostile slot count is refused before anything is allocated, instead of aborting.
    assert_eq!(
        Ring::new(usize::MAX, &world).err(),
        Some(SnapshotError::RingTooLarge { slots: usize::MAX })
    );
    let big = Tracked::new(vec![0_u64; 1 << 20]); // 8 MiB a slot
    // More slots than the address space holds: 8 EiB on 64-bit targets, 32 GiB on wasm32.
    let slots = usize::try_from(1_u64 << 40).unwrap_or(1 << 12);
    assert_eq!(
        Ring::new(slots, &big).err(),
        Some(SnapshotError::RingTooLarge { slots })
    );
    let mut w = world.clone();
    assert_eq!(
        w.set_full_copy_percent(101),
        Err(SnapshotError::BadThreshold { percent: 101 })
    );
    let mut buf = DoubleBuffer::new(vec![1_u8, 2, 3]);
    assert_eq!(
        buf.write(&[1, 2]),
        Err(SnapshotError::LengthMismatch {
            expected: 3,
            got: 2
        })
    );
    assert_eq!(buf.current(), [1, 2, 3], "a refused write changes nothing");
    // The messages say what was wrong.
    assert_eq!(
        SnapshotError::ChunkSizeNotPowerOfTwo { bytes: 3000 }.to_string(),
        "the dirty-chunk size must be a power of two bytes, got 3000"
    );
}

#[test]
fn writes_outside_the_bounds_are_errors_not_panics() {
    let mut buf = DoubleBuffer::new(vec![0_u16; 10]);
    assert_eq!(
        buf.set(10, 1),
        Err(SnapshotError::OutOfBounds { index: 10, len: 10 })
    );
    assert_eq!(buf.get_mut(99), None);
    assert_eq!(
        buf.slice_mut(5..11).err(),
        Some(SnapshotError::OutOfBounds { index: 11, len: 10 })
    );
    #[allow(clippy::reversed_empty_ranges)]
    let backwards = 6..5;
    assert_eq!(
        buf.slice_mut(backwards).err(),
        Some(SnapshotError::BadRange { start: 6, end: 5 })
    );
    assert_eq!(
        buf.swap_remove(10),
        Err(SnapshotError::OutOfBounds { index: 10, len: 10 })
    );
    // Nothing was written, so nothing is dirty.
    assert_eq!(buf.capture().chunks, 0);
}

#[test]
fn loading_a_tick_that_left_the_ring_is_an_error_and_changes_nothing() {
    let mut world = Tracked::new(vec![0_u32; 100]);
    let mut ring = Ring::new(3, &world).unwrap();
    assert_eq!(
        ring.load(0, &mut world),
        Err(TickNotInRing {
            tick: 0,
            holds: None
        })
    );
    for t in 0..5_u32 {
        world.set(0, t).unwrap();
        let _ = ring.save(u64::from(t), &mut world);
    }
    assert_eq!(ring.ticks().collect::<Vec<_>>(), [3, 4, 2]);
    assert_eq!(
        ring.load(1, &mut world),
        Err(TickNotInRing {
            tick: 1,
            holds: Some(4)
        })
    );
    assert_eq!(world[0], 4);
    assert!(ring.load(2, &mut world).is_ok());
    assert_eq!(world[0], 2);
    assert!(!ring.contains(1) && ring.contains(2));
}

#[test]
fn one_capture_per_step_gives_the_state_before_the_last_update() {
    // A 60 Hz loop with frames of 5 to 70 ms: steps of 0 to 4 updates. `before_update` on the
    // events must leave in the back exactly the state before each step's last update, which a
    // naive run keeping a clone before every update knows.
    let rate = Period::from_hz(60).unwrap();
    let mut state = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    const N: u64 = 100_000; // 196 chunks of 512 u64
    let mut buf = DoubleBuffer::new(vec![0_u64; N as usize]);
    let mut naive = vec![0_u64; N as usize];
    let mut naive_before_last = naive.clone();
    let (mut now, mut updates, mut rng) = (0_u64, 0_u64, SplitMix64::new(7));
    for _ in 0..300 {
        now += 5_000_000 + rng.below(65_000_000);
        let events;
        (state, events) = state.step(Nanos(now));
        for event in &events {
            if let Event::Update(tick) = event {
                buf.before_update(&tick);
                if tick.last_in_step {
                    naive_before_last = naive.clone();
                }
                // The update: a few scattered writes.
                for k in 0..5 {
                    let i = ((tick.index * 131 + k * 19_777) % N) as usize;
                    naive[i] += tick.index;
                    *buf.get_mut(i).unwrap() += tick.index;
                }
                updates += 1;
            }
        }
        assert_eq!(buf.current(), naive);
        assert_eq!(buf.previous(), naive_before_last);
    }
    let stats = buf.stats();
    assert!(updates > stats.captures, "{updates} updates, {stats:?}");
    assert!(
        stats.full == 0,
        "scattered writes never needed a full copy: {stats:?}"
    );
}

#[test]
fn length_changes_keep_indices_aligned_and_spawns_render_at_their_spawn_point() {
    let mut buf = DoubleBuffer::new(Vec::with_capacity(8));
    buf.push(1.0_f32);
    buf.push(2.0);
    let _ = buf.capture();
    buf.set(0, 3.0).unwrap();
    buf.push(10.0); // spawned mid-tick: in both buffers
    assert_eq!(buf.blended(2, 0.5), Some(10.0));
    assert_eq!(buf.blended(3, 0.5), None);
    assert_eq!(buf.blended(0, 0.5), Some(2.0));
    assert_eq!(buf.swap_remove(0), Ok(3.0)); // entity 2 moves to index 0 in both
    assert_eq!(
        (buf.previous(), buf.current()),
        (&[10.0, 2.0][..], &[10.0, 2.0][..])
    );
    buf.resize(4, 0.5);
    buf.truncate(3);
    assert_eq!(buf.current(), [10.0, 2.0, 0.5]);
    assert_eq!(buf.blend(1.0).collect::<Vec<_>>(), [10.0, 2.0, 0.5]);
}

#[test]
fn a_full_slice_write_or_publish_makes_the_next_capture_full() {
    let mut buf = DoubleBuffer::new(vec![0_u8; 3 * 4096]);
    buf.current_mut()[0] = 1;
    let c = buf.capture();
    assert!(c.full && c.bytes == 3 * 4096, "{c:?}");
    buf.set(5000, 9).unwrap();
    assert_eq!(buf.capture().chunks, 1);
    buf.write_guard()[0] = 2; // the back was [1, …]; now it is the front
    assert_eq!(
        (buf.previous()[0], buf.current()[0], buf.current()[5000]),
        (1, 2, 9)
    );
    assert!(buf.capture().full);
    assert_eq!(buf.previous(), buf.current());
}

#[test]
fn double_follows_the_same_rules_for_one_value() {
    let mut d = Double::new(1.0_f64);
    let rate = Period::from_hz(10).unwrap();
    let state = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    let (_, events) = state.step(Nanos(250_000_000)); // 2 updates, alpha 0.5
    for t in events.updates() {
        assert_eq!(d.before_update(&t), t.last_in_step);
        *d.current_mut() += 1.0;
    }
    assert_eq!((*d.previous(), *d.current()), (2.0, 3.0));
    assert_eq!(d.blended(events.render().unwrap().alpha), 2.5);
    *d.back_mut() = 7.0;
    d.publish();
    assert_eq!((*d.previous(), *d.current()), (3.0, 7.0));
}

#[test]
fn a_ring_fed_by_another_state_copies_in_full() {
    let mut a = Tracked::new(vec![1_u8; 10_000]);
    let mut b = a.clone();
    b.set(0, 2).unwrap();
    let mut ring = Ring::new(1, &a).unwrap();
    let _ = ring.save(0, &mut a);
    let c = ring.save(0, &mut b);
    assert!(
        c.full,
        "stamps of another state say nothing about this slot: {c:?}"
    );
    assert_eq!(ring.get(0).unwrap()[0], 2);
    ring.load(0, &mut a).unwrap();
    assert_eq!(a[0], 2);
}
