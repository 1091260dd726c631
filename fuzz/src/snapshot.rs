//! Target `snapshot`: `Tracked`, `DoubleBuffer`, `Ring` and `Persistent` against `Vec`-clone
//! models, with the ring's checksums recomputed from scratch (XXH3-64 of each chunk's bytes,
//! then XXH3-64 of the chunk checksums seeded with the element count, as `chunk_checksum` and
//! `state_checksum` document), arbitrary chunk sizes (invalid ones must be typed errors),
//! length changes, two states sharing the rings, and out-of-range indices (errors, never panics).

use std::fmt::Debug;

use arbitrary::Arbitrary;
use bytemuck::NoUninit;
use tickfold::snapshot::im;
use tickfold::snapshot::{DoubleBuffer, Persistent, Ring, SnapshotError, TickNotInRing, Tracked};
use tickfold::{ClockId, Nanos, Period, Tick};
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

mod world;

/// The element types the target runs with: small, odd-sized and zero-sized.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ElemType {
    /// `u32`.
    U32,
    /// `u8`.
    U8,
    /// `[u16; 3]`: six bytes, not a power of two.
    Triple,
    /// `()`: zero-sized.
    Unit,
}

/// Which tracked state an operation applies to.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Which {
    /// The first `Tracked`.
    A,
    /// The second `Tracked` (shares the rings with the first).
    B,
    /// The front of the `DoubleBuffer`.
    Buf,
}

/// One operation.
#[derive(Arbitrary, Debug, Clone)]
pub enum Op {
    /// `set(index, value)`.
    Set(Which, u16, u32),
    /// `get_mut(index)` then write.
    GetMut(Which, u16, u32),
    /// `IndexMut` (only in range: it panics past the end, as documented).
    IndexMut(Which, u16, u32),
    /// `slice_mut(start..end)`, filled with a value.
    SliceMut(Which, u16, u16, u32),
    /// `as_mut_slice` / `front_mut`, one element written.
    WholeMut(Which, u16, u32),
    /// `push`.
    Push(Which, u32),
    /// `swap_remove`.
    SwapRemove(Which, u16),
    /// `truncate`.
    Truncate(Which, u16),
    /// `resize`.
    Resize(Which, u16, u32),
    /// `set_full_copy_percent` (above 100 is an error).
    Threshold(Which, u8),
    /// `DoubleBuffer::capture`.
    Capture,
    /// `DoubleBuffer::before_update` with a tick that is (or is not) the last of its step.
    BeforeUpdate(bool),
    /// Write one element of `back_mut`, then `publish`.
    Publish(u16, u32),
    /// `DoubleBuffer::write` (a length mismatch is an error).
    Write(Vec<u32>),
    /// `write_with`: next = front + 1 everywhere.
    WriteWith,
    /// `write_guard`: write one element, publish on drop.
    WriteGuard(u16, u32),
    /// `Ring::save` / `save_buffer` of a state into ring 0 or 1.
    Save(bool, Which, u16),
    /// `Ring::load` / `load_buffer`.
    Load(bool, Which, u16),
    /// `Persistent` operations.
    Persist(PersistOp),
}

/// An operation on the `Persistent`.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum PersistOp {
    /// `set`.
    Set(u16, u32),
    /// `get_mut`.
    GetMut(u16, u32),
    /// `push`.
    Push(u32),
    /// `remove`.
    Remove(u16),
    /// `swap_remove`.
    SwapRemove(u16),
    /// `truncate`.
    Truncate(u16),
    /// `capture`.
    Capture,
    /// `before_update`.
    BeforeUpdate(bool),
}

/// The fuzz input.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    elem: ElemType,
    len_a: u16,
    len_b: u16,
    len_buf: u16,
    /// Chunk sizes in bytes (0 and non-powers of two are invalid).
    chunk_a: u32,
    chunk_b: u32,
    chunk_buf: u32,
    ring_lens: (u8, u8),
    ops: Vec<Op>,
}

/// An element built from a `u32`.
pub trait Elem: Copy + NoUninit + PartialEq + Debug + 'static {
    /// The element for `v`.
    fn make(v: u32) -> Self;
    /// Some change of `self` (for `write_with`).
    fn bump(self) -> Self;
}

impl Elem for u32 {
    fn make(v: u32) -> Self {
        v
    }
    fn bump(self) -> Self {
        self.wrapping_add(1)
    }
}

impl Elem for u8 {
    fn make(v: u32) -> Self {
        v as u8
    }
    fn bump(self) -> Self {
        self.wrapping_add(1)
    }
}

impl Elem for [u16; 3] {
    fn make(v: u32) -> Self {
        [v as u16, (v >> 16) as u16, v as u16 ^ 0x5a5a]
    }
    fn bump(self) -> Self {
        [self[0].wrapping_add(1), self[1], self[2]]
    }
}

impl Elem for () {
    fn make(_: u32) -> Self {}
    fn bump(self) -> Self {}
}

/// Lengths are kept small so each run is fast.
const MAX_LEN: usize = 3000;

/// Runs one input.
pub fn run(input: Input) {
    match input.elem {
        ElemType::U32 => run_with::<u32>(&input),
        ElemType::U8 => run_with::<u8>(&input),
        ElemType::Triple => run_with::<[u16; 3]>(&input),
        ElemType::Unit if !crate::skipped("zst") => run_with::<()>(&input),
        ElemType::Unit => {}
    }
}

/// Elements per chunk as `Tracked` documents it: the largest power-of-two count of whole
/// elements that fits in `bytes`, at least one.
fn chunk_len_of<T>(bytes: usize) -> usize {
    // Zero-sized elements: the whole state is one chunk, as documented on `Tracked`.
    if size_of::<T>() == 0 {
        return 1 << (usize::BITS - 1);
    }
    let per = (bytes / size_of::<T>()).max(1);
    1 << (usize::BITS - 1 - per.leading_zeros())
}

fn tracked<T: Elem>(len: u16, chunk: u32, seed: u32) -> Option<Tracked<T>> {
    let data: Vec<T> = (0..usize::from(len) % MAX_LEN)
        .map(|i| T::make(seed.wrapping_add(i as u32)))
        .collect();
    let bytes = chunk as usize;
    let t = Tracked::with_chunk_bytes(data, bytes);
    match &t {
        Err(SnapshotError::ChunkSizeZero) => check!(bytes == 0, "ChunkSizeZero for {bytes}"),
        Err(SnapshotError::ChunkSizeNotPowerOfTwo { bytes: b }) => check!(
            *b == bytes && bytes != 0 && !bytes.is_power_of_two(),
            "ChunkSizeNotPowerOfTwo for {bytes}"
        ),
        Err(e) => check!(false, "unexpected error {e:?} for chunk size {bytes}"),
        Ok(t) => {
            check!(bytes.is_power_of_two(), "chunk size {bytes} accepted");
            check!(
                t.chunk_len() == chunk_len_of::<T>(bytes),
                "chunk_len {} for {bytes} bytes of {}-byte elements",
                t.chunk_len(),
                size_of::<T>()
            );
        }
    }
    t.ok()
}

/// A ring slot as the model sees it.
#[derive(Clone)]
struct SavedSlot<T> {
    tick: u64,
    data: Vec<T>,
    chunk_len: usize,
}

struct RingModel<T> {
    slots: Vec<Option<SavedSlot<T>>>,
}

impl<T: Elem> RingModel<T> {
    fn slot(&self, tick: u64) -> usize {
        (tick % self.slots.len() as u64) as usize
    }

    fn holds(&self, tick: u64) -> Option<&SavedSlot<T>> {
        self.slots[self.slot(tick)]
            .as_ref()
            .filter(|s| s.tick == tick)
    }
}

/// The checksums of `data` from scratch: XXH3-64 (seed 0) per chunk of native-endian bytes;
/// the state checksum is XXH3-64 of those, seeded with the element count.
fn checksums<T: Elem>(data: &[T], chunk_len: usize) -> (Vec<u64>, u64) {
    let chunks: Vec<u64> = data
        .chunks(chunk_len)
        .map(|c| xxh3_64(bytemuck::cast_slice(c)))
        .collect();
    let state = xxh3_64_with_seed(bytemuck::cast_slice(&chunks), data.len() as u64);
    (chunks, state)
}

/// The target's world: the structures under test and their models.
struct World<T: Elem> {
    a: Tracked<T>,
    b: Tracked<T>,
    buf: DoubleBuffer<T>,
    rings: [Ring<T>; 2],
    persistent: Persistent<T>,
    model_a: Vec<T>,
    model_b: Vec<T>,
    front: Vec<T>,
    back: Vec<T>,
    ring_models: [RingModel<T>; 2],
    cur: Vec<T>,
    prev: Vec<T>,
}

fn run_with<T: Elem>(input: &Input) {
    let (Some(a), Some(b), Some(front)) = (
        tracked::<T>(input.len_a, input.chunk_a, 0),
        tracked::<T>(input.len_b, input.chunk_b, 1_000_000),
        tracked::<T>(input.len_buf, input.chunk_buf, 2_000_000),
    ) else {
        return;
    };
    let ring = |len: u8, state: &Tracked<T>| {
        let r = Ring::new(usize::from(len % 9), state);
        if len.is_multiple_of(9) {
            check!(
                matches!(r, Err(SnapshotError::EmptyRing)),
                "a ring of 0 slots was not EmptyRing"
            );
        }
        r.ok()
    };
    let (Some(r0), Some(r1)) = (ring(input.ring_lens.0, &a), ring(input.ring_lens.1, &b)) else {
        return;
    };
    let model_a = a.to_vec();
    let model_b = b.to_vec();
    let buf = DoubleBuffer::from_tracked(front);
    let front = buf.current().to_vec();
    let cur: Vec<T> = model_a.clone();
    let ring_models = [
        RingModel {
            slots: vec![None; r0.len()],
        },
        RingModel {
            slots: vec![None; r1.len()],
        },
    ];
    let mut w = World {
        persistent: Persistent::new(cur.iter().copied().collect::<im::Vector<T>>()),
        a,
        b,
        back: front.clone(),
        buf,
        rings: [r0, r1],
        model_a,
        model_b,
        front,
        ring_models,
        prev: cur.clone(),
        cur,
    };
    for op in input.ops.iter().take(200) {
        w.apply(op);
        w.check();
    }
}

fn oob(index: usize, len: usize) -> SnapshotError {
    SnapshotError::OutOfBounds { index, len }
}
