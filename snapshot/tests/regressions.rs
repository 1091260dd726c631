//! Minimal inputs found by fuzzing, each pinned as a regression test: a rollback to a state of
//! another length, a ring shared by two chunk sizes, zero-sized elements, and `IndexMut` on a
//! double buffer.

use tickfold_snapshot::{DoubleBuffer, Ring, Tracked, chunk_checksum, state_checksum};

/// The whole-state checksum computed from scratch.
fn naive_checksum(data: &[u32], chunk_len: usize) -> u64 {
    let hashes: Vec<u64> = data.chunks(chunk_len).map(chunk_checksum).collect();
    state_checksum(&hashes, data.len())
}

/// Ten `u32`s in 4-byte chunks, saved as tick 0, truncated to 5, then rolled back to tick 0.
fn rolled_back_to_a_longer_state() -> (DoubleBuffer<u32>, Ring<u32>) {
    let data: Vec<u32> = (0..10).collect();
    let mut buf = DoubleBuffer::from_tracked(Tracked::with_chunk_bytes(data, 4).unwrap());
    let mut ring = Ring::new(2, buf.tracked()).unwrap();
    let _ = ring.save_buffer(0, &mut buf);
    buf.truncate(5);
    ring.load_buffer(0, &mut buf).unwrap();
    (buf, ring)
}

#[test]
fn a_load_of_another_length_keeps_front_and_back_the_same_length() {
    let (buf, _) = rolled_back_to_a_longer_state();
    let loaded: Vec<u32> = (0..10).collect();
    assert_eq!(buf.current(), &loaded[..]);
    // The back cannot keep the shorter pre-rollback state: index i must name the same entity in
    // both, so it becomes the loaded state.
    assert_eq!(buf.previous(), &loaded[..]);
    assert_eq!(buf.len(), 10);
}

#[test]
fn after_a_load_of_another_length_swap_remove_does_not_panic() {
    let (mut buf, _) = rolled_back_to_a_longer_state();
    assert_eq!(buf.swap_remove(7), Ok(7));
    assert_eq!(buf.current(), &[0, 1, 2, 3, 4, 5, 6, 9, 8][..]);
    assert_eq!(buf.previous(), buf.current());
}

#[test]
fn after_a_load_of_another_length_set_after_publish_does_not_panic() {
    let (mut buf, _) = rolled_back_to_a_longer_state();
    buf.publish();
    assert_eq!(buf.set(9, 90), Ok(()));
    assert_eq!(buf.current()[9], 90);
    assert_eq!(buf.current().len(), buf.previous().len());
}

#[test]
fn after_a_load_of_another_length_save_buffer_covers_the_whole_state() {
    let (mut buf, mut ring) = rolled_back_to_a_longer_state();
    buf.publish();
    let _ = ring.save_buffer(1, &mut buf);
    let front = buf.current().to_vec();
    assert_eq!(front.len(), 10);
    assert_eq!(ring.get(1), Some(&front[..]));
    assert_eq!(ring.checksum(1), Some(naive_checksum(&front, 1)));
    assert_eq!(ring.chunk_checksums(1).map(<[u64]>::len), Some(10));
}

#[test]
fn a_ring_shared_by_two_chunk_sizes_rehashes_after_a_cross_layout_load() {
    let data: Vec<u32> = (0..64).collect();
    let mut small = Tracked::with_chunk_bytes(data.clone(), 16).unwrap(); // 4 per chunk
    let mut large = Tracked::with_chunk_bytes(data.clone(), 256).unwrap(); // 64 per chunk
    let mut ring = Ring::new(1, &small).unwrap();
    let _ = ring.save(0, &mut small);
    assert_eq!(ring.checksum(0), Some(naive_checksum(&data, 4)));
    ring.load(0, &mut large).unwrap();
    // The tick's checksums stay those of the layout that saved it until it is saved again.
    assert_eq!(ring.checksum(0), Some(naive_checksum(&data, 4)));
    let _ = ring.save(0, &mut large); // nothing written: still a full rehash in the new layout
    let one_chunk = [chunk_checksum(&data)];
    assert_eq!(ring.chunk_checksums(0), Some(&one_chunk[..]));
    assert_eq!(ring.checksum(0), Some(naive_checksum(&data, 64)));
    // And back again.
    ring.load(0, &mut small).unwrap();
    let _ = ring.save(0, &mut small);
    assert_eq!(ring.checksum(0), Some(naive_checksum(&data, 4)));
    assert_eq!(ring.chunk_checksums(0).map(<[u64]>::len), Some(16));
}

#[test]
fn zero_sized_elements_are_one_chunk_and_allocate_no_stamps() {
    let mut tracked = Tracked::new(vec![(); 1000]);
    assert_eq!(tracked.chunk_count(), 1);
    assert_eq!(tracked.set(999, ()), Ok(()));
    assert!(tracked.set(1000, ()).is_err());
    tracked.push(());
    tracked.resize(5, ());
    assert_eq!(tracked.len(), 5);
    let mut ring = Ring::new(3, &tracked).unwrap();
    let _ = ring.save(0, &mut tracked);
    tracked.truncate(0);
    assert_eq!(tracked.chunk_count(), 0);
    ring.load(0, &mut tracked).unwrap();
    assert_eq!(tracked.len(), 5);
    let hashes = [chunk_checksum::<()>(&[])];
    assert_eq!(ring.chunk_checksums(0), Some(&hashes[..]));
    assert_eq!(ring.checksum(0), Some(state_checksum(&hashes, 5)));

    let mut buf = DoubleBuffer::new(vec![(); 7]);
    buf.push(());
    let copied = buf.capture();
    assert_eq!((copied.bytes, buf.previous().len()), (0, 8));
    assert_eq!(buf.swap_remove(3), Ok(()));
    let _ = ring.save_buffer(1, &mut buf);
    assert_eq!(ring.get(1).map(<[()]>::len), Some(7));
    assert!(Tracked::with_chunk_bytes(vec![(); 3], 64).is_ok());
}

#[test]
fn a_double_buffer_indexes_its_front_and_index_mut_stamps_the_chunk() {
    let tracked = Tracked::with_chunk_bytes(vec![0_u32; 1024], 1024).unwrap(); // 4 chunks
    let mut buf = DoubleBuffer::from_tracked(tracked);
    buf[700] = 7;
    assert_eq!(buf[700], 7);
    assert_eq!(buf.previous()[700], 0);
    let copied = buf.capture();
    assert_eq!((copied.chunks, copied.bytes, copied.full), (1, 1024, false));
    assert_eq!(buf.previous()[700], 7);
}

#[test]
fn a_capture_after_writing_the_back_without_publishing_restores_the_back() {
    // Found by the hostile model: `back_mut` then `capture`, no publish in between.
    let mut buf =
        DoubleBuffer::from_tracked(Tracked::with_chunk_bytes(vec![1_u32; 24], 16).unwrap());
    buf.back_mut()[20] = 9;
    let _ = buf.capture();
    assert_eq!(buf.previous(), buf.current());
}
