//! The live state: a `Vec<T>` whose writes stamp fixed-size chunks with the epoch they happened in.

use core::ops::{Deref, Index, IndexMut, Range};
use core::sync::atomic::{AtomicU64, Ordering};

use crate::error::SnapshotError;

/// The default dirty-chunk size: 4 KiB, one memory page.
pub const DEFAULT_CHUNK_BYTES: usize = 4096;

/// The default full-copy threshold: above half the chunks dirty, one straight copy is faster
/// than many short ones.
pub const DEFAULT_FULL_COPY_PERCENT: u8 = 50;

/// Every `Tracked` gets its own id, so a snapshot knows whether its stamps refer to it.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Called with each copied chunk's index and new contents (the ring hashes them).
pub(crate) type ChunkVisitor<'a, T> = &'a mut dyn FnMut(usize, &[T]);

/// What one capture, save or load copied.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Capture {
    /// Chunks copied.
    pub chunks: usize,
    /// Bytes copied.
    pub bytes: usize,
    /// `true` when the whole state was copied in one go: the first copy, a copy after a length
    /// change or a publish, or more chunks dirty than the full-copy threshold.
    pub full: bool,
}

/// How elements group into chunks: `1 << shift` elements per chunk.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Layout {
    shift: u32,
}

impl Layout {
    fn new<T>(chunk_bytes: usize) -> Result<Layout, SnapshotError> {
        if chunk_bytes == 0 {
            return Err(SnapshotError::ChunkSizeZero);
        }
        if !chunk_bytes.is_power_of_two() {
            return Err(SnapshotError::ChunkSizeNotPowerOfTwo { bytes: chunk_bytes });
        }
        Ok(Layout::of::<T>(chunk_bytes))
    }

    /// Whole elements per chunk, rounded down to a power of two so the chunk of an index is a
    /// shift; at least one element per chunk (`chunk_bytes` may be anything here). Zero-sized
    /// elements have no bytes to copy or hash: the whole state is one chunk (two past 2^63
    /// elements), so the stamps stay tiny however large the `Vec<()>` claims its capacity is.
    fn of<T>(chunk_bytes: usize) -> Layout {
        if size_of::<T>() == 0 {
            return Layout {
                shift: usize::BITS - 1,
            };
        }
        let per = (chunk_bytes / size_of::<T>()).max(1);
        Layout {
            shift: usize::BITS - 1 - per.leading_zeros(),
        }
    }

    #[inline]
    fn per(self) -> usize {
        1 << self.shift
    }

    #[inline]
    fn chunk_of(self, index: usize) -> usize {
        index >> self.shift
    }

    fn chunks(self, len: usize) -> usize {
        len.div_ceil(self.per())
    }

    fn range(self, chunk: usize, len: usize) -> Range<usize> {
        let start = chunk << self.shift;
        start..start.saturating_add(self.per()).min(len)
    }
}

/// Live plain-data state whose writes are tracked per chunk.
///
/// Elements are grouped into chunks of [`DEFAULT_CHUNK_BYTES`] (configurable, a power of two;
/// a chunk holds the largest power-of-two count of whole elements that fits, at least one; a
/// state of zero-sized elements is a single chunk).
/// Every write through this API stamps its chunk with the current *epoch*; every capture, save
/// or load into or out of a snapshot closes the epoch. A snapshot taken at epoch `e` then differs
/// from the live state only in chunks stamped after `e`, so [`DoubleBuffer`](crate::DoubleBuffer)
/// and [`Ring`](crate::Ring) copy just those. Epochs count captures rather than reuse tick
/// numbers, because a rollback runs the same tick numbers again.
///
/// Reads go through `Deref<Target = [T]>`. Writes: [`set`](Tracked::set),
/// [`get_mut`](Tracked::get_mut), [`slice_mut`](Tracked::slice_mut) and `IndexMut` stamp the
/// chunks they touch; [`as_mut_slice`](Tracked::as_mut_slice) marks everything dirty.
///
/// # Examples
///
/// A write stamps its chunk; a capture copies only that chunk.
///
/// ```
/// use tickfold_snapshot::{DoubleBuffer, Tracked};
///
/// let world = Tracked::with_chunk_bytes(vec![0_u32; 4096], 1024)?; // 256 u32 per chunk
/// let mut buf = DoubleBuffer::from_tracked(world);
/// buf.set(1000, 7)?;
/// let copied = buf.capture();
/// assert_eq!((copied.chunks, copied.bytes, copied.full), (1, 1024, false));
/// assert_eq!(buf.previous()[1000], 7);
/// # Ok::<(), tickfold_snapshot::SnapshotError>(())
/// ```
#[derive(Debug)]
pub struct Tracked<T> {
    data: Vec<T>,
    stamps: Vec<u64>,
    /// Every chunk counts as written at least at this epoch (set by whole-slice writes).
    floor: u64,
    epoch: u64,
    layout: Layout,
    full_copy_percent: u8,
    id: u64,
}

impl<T: Copy> Tracked<T> {
    /// Tracks `data` with 4 KiB chunks. Reserve spare capacity in `data` to push without
    /// allocating later.
    #[must_use]
    pub fn new(data: Vec<T>) -> Tracked<T> {
        Tracked::with_layout(data, Layout::of::<T>(DEFAULT_CHUNK_BYTES))
    }

    /// Tracks `data` with chunks of `chunk_bytes`.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::ChunkSizeZero`] or [`SnapshotError::ChunkSizeNotPowerOfTwo`].
    pub fn with_chunk_bytes(data: Vec<T>, chunk_bytes: usize) -> Result<Tracked<T>, SnapshotError> {
        Ok(Tracked::with_layout(data, Layout::new::<T>(chunk_bytes)?))
    }

    fn with_layout(data: Vec<T>, layout: Layout) -> Tracked<T> {
        let mut stamps = Vec::with_capacity(layout.chunks(data.capacity()));
        stamps.resize(layout.chunks(data.len()), 1);
        Tracked {
            data,
            stamps,
            floor: 1,
            epoch: 1,
            layout,
            full_copy_percent: DEFAULT_FULL_COPY_PERCENT,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Sets the full-copy threshold: a capture copies everything in one go when more than
    /// `percent` of the chunks are dirty (default 50). `0` always copies in full; `100` never
    /// falls back.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::BadThreshold`] above 100.
    pub fn set_full_copy_percent(&mut self, percent: u8) -> Result<(), SnapshotError> {
        if percent > 100 {
            return Err(SnapshotError::BadThreshold { percent });
        }
        self.full_copy_percent = percent;
        Ok(())
    }

    /// The data, read-only (also available through `Deref`).
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }

    /// Elements per chunk.
    #[must_use]
    pub fn chunk_len(&self) -> usize {
        self.layout.per()
    }

    /// Number of chunks covering the data.
    #[must_use]
    pub fn chunk_count(&self) -> usize {
        self.stamps.len()
    }

    /// Element capacity reserved: pushing up to it allocates nothing.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.data.capacity()
    }

    /// The current write epoch: 1 at creation, plus one per capture, save or load.
    #[must_use]
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// How many chunks a snapshot taken at `epoch` would copy now.
    #[must_use]
    pub fn dirty_chunks_since(&self, epoch: u64) -> usize {
        if self.floor > epoch {
            return self.stamps.len();
        }
        self.stamps.iter().filter(|&&s| s > epoch).count()
    }

    /// A mutable reference to element `index`, stamping its chunk; `None` past the end.
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        let slot = self.data.get_mut(index)?;
        self.stamps[index >> self.layout.shift] = self.epoch;
        Some(slot)
    }

    /// Writes `value` at `index`, stamping its chunk.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::OutOfBounds`] past the end; nothing is written.
    #[inline]
    pub fn set(&mut self, index: usize, value: T) -> Result<(), SnapshotError> {
        let len = self.data.len();
        match self.get_mut(index) {
            Some(slot) => {
                *slot = value;
                Ok(())
            }
            None => Err(SnapshotError::OutOfBounds { index, len }),
        }
    }

    /// The elements in `range`, mutable, stamping every chunk the range touches (none for an
    /// empty range).
    ///
    /// # Errors
    ///
    /// [`SnapshotError::BadRange`] when start > end, [`SnapshotError::OutOfBounds`] when the end
    /// is past the length.
    pub fn slice_mut(&mut self, range: Range<usize>) -> Result<&mut [T], SnapshotError> {
        let len = self.data.len();
        if range.start > range.end {
            return Err(SnapshotError::BadRange {
                start: range.start,
                end: range.end,
            });
        }
        if range.end > len {
            return Err(SnapshotError::OutOfBounds {
                index: range.end,
                len,
            });
        }
        if range.start < range.end {
            let first = self.layout.chunk_of(range.start);
            let last = self.layout.chunk_of(range.end - 1);
            self.stamps[first..=last].fill(self.epoch);
        }
        Ok(&mut self.data[range])
    }

    /// All elements, mutable. Marks every chunk dirty in O(1), so the next capture copies in
    /// full; use the finer writes when only part of the state changes.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.floor = self.epoch;
        &mut self.data
    }

    /// Appends an element (allocates only past [`capacity`](Tracked::capacity)).
    pub fn push(&mut self, value: T) {
        self.data.push(value);
        self.grow_stamps();
        self.stamps[self.layout.chunk_of(self.data.len() - 1)] = self.epoch;
    }

    /// Removes element `index` and moves the last element into its place, as
    /// `Vec::swap_remove`; stamps the chunk of `index`.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::OutOfBounds`] past the end; nothing is removed.
    pub fn swap_remove(&mut self, index: usize) -> Result<T, SnapshotError> {
        let len = self.data.len();
        if index >= len {
            return Err(SnapshotError::OutOfBounds { index, len });
        }
        let removed = self.data.swap_remove(index);
        if index < self.data.len() {
            self.stamps[self.layout.chunk_of(index)] = self.epoch;
        }
        self.stamps.truncate(self.layout.chunks(self.data.len()));
        Ok(removed)
    }

    /// Shortens the data to `len` elements; no effect when already shorter.
    pub fn truncate(&mut self, len: usize) {
        self.data.truncate(len);
        self.stamps.truncate(self.layout.chunks(self.data.len()));
    }

    /// Resizes to `len` elements, filling new ones with `value` (stamped).
    pub fn resize(&mut self, len: usize, value: T) {
        let old = self.data.len();
        if len <= old {
            self.truncate(len);
            return;
        }
        self.data.resize(len, value);
        self.grow_stamps();
        let first = self.layout.chunk_of(old);
        let epoch = self.epoch;
        self.stamps[first..].fill(epoch);
    }

    fn grow_stamps(&mut self) {
        let want = self.layout.chunks(self.data.len());
        if self.stamps.len() < want {
            self.stamps.resize(want, self.epoch);
        }
    }

    /// Closes the epoch: a snapshot that now equals the data records the returned epoch.
    pub(crate) fn seal(&mut self) -> u64 {
        let taken = self.epoch;
        self.epoch += 1;
        taken
    }

    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Swaps the data with `other` (same length) and marks everything dirty.
    pub(crate) fn swap_data(&mut self, other: &mut Vec<T>) {
        debug_assert_eq!(self.data.len(), other.len(), "the stamps cover one length");
        core::mem::swap(&mut self.data, other);
        self.floor = self.epoch;
    }

    /// Makes `dst` equal to the data. `dst` was equal at epoch `taken` if `same_source`
    /// (`taken == 0`: never). Copies only chunks written since, or everything in one go when
    /// that is cheaper or nothing is known. `seen`, if given, is called for each copied chunk with its
    /// index and new contents.
    pub(crate) fn copy_into(
        &self,
        dst: &mut Vec<T>,
        taken: u64,
        same_source: bool,
        mut seen: Option<ChunkVisitor<'_, T>>,
    ) -> Capture {
        let len = self.data.len();
        let chunks = self.stamps.len();
        let full = Capture {
            chunks,
            bytes: len * size_of::<T>(),
            full: true,
        };
        if dst.len() != len {
            dst.clear();
            dst.extend_from_slice(&self.data);
        } else if taken == 0 || !same_source || self.floor > taken {
            dst.copy_from_slice(&self.data);
        } else {
            let dirty = self.stamps.iter().filter(|&&s| s > taken).count();
            if dirty == 0 {
                return Capture::default();
            }
            if dirty * 100 <= chunks * usize::from(self.full_copy_percent) {
                return self.copy_runs(dst, taken, dirty, seen);
            }
            dst.copy_from_slice(&self.data);
        }
        if let Some(seen) = seen.as_mut() {
            for c in 0..chunks {
                seen(c, &self.data[self.layout.range(c, len)]);
            }
        }
        full
    }

    /// Copies the runs of consecutive dirty chunks, one `copy_from_slice` per run.
    fn copy_runs(
        &self,
        dst: &mut [T],
        taken: u64,
        dirty: usize,
        mut seen: Option<ChunkVisitor<'_, T>>,
    ) -> Capture {
        let len = self.data.len();
        let chunks = self.stamps.len();
        let mut bytes = 0;
        let mut c = 0;
        while c < chunks {
            if self.stamps[c] <= taken {
                c += 1;
                continue;
            }
            let first = c;
            while c < chunks && self.stamps[c] > taken {
                c += 1;
            }
            let range = self.layout.range(first, len).start..self.layout.range(c - 1, len).end;
            dst[range.clone()].copy_from_slice(&self.data[range.clone()]);
            bytes += range.len() * size_of::<T>();
            if let Some(seen) = seen.as_mut() {
                for k in first..c {
                    seen(k, &self.data[self.layout.range(k, len)]);
                }
            }
        }
        Capture {
            chunks: dirty,
            bytes,
            full: false,
        }
    }

    /// Makes the data equal to `src`, which equalled it at epoch `taken` if `same_source`.
    /// Chunks it rewrites are stamped, so every other snapshot sees them as changed.
    pub(crate) fn restore_from(&mut self, src: &[T], taken: u64, same_source: bool) -> Capture {
        let len = src.len();
        if self.data.len() != len || taken == 0 || !same_source || self.floor > taken {
            self.data.clear();
            self.data.extend_from_slice(src);
            self.stamps.clear();
            self.stamps.resize(self.layout.chunks(len), self.epoch);
            self.floor = self.epoch;
            return Capture {
                chunks: self.stamps.len(),
                bytes: size_of_val(src),
                full: true,
            };
        }
        let mut report = Capture::default();
        for c in 0..self.stamps.len() {
            if self.stamps[c] > taken {
                let range = self.layout.range(c, len);
                self.data[range.clone()].copy_from_slice(&src[range.clone()]);
                self.stamps[c] = self.epoch;
                report.chunks += 1;
                report.bytes += range.len() * size_of::<T>();
            }
        }
        report
    }
}

impl<T: Copy> Clone for Tracked<T> {
    /// A copy with its own identity: snapshots of the original copy in full from the clone.
    fn clone(&self) -> Self {
        Tracked {
            data: self.data.clone(),
            stamps: self.stamps.clone(),
            floor: self.floor,
            epoch: self.epoch,
            layout: self.layout,
            full_copy_percent: self.full_copy_percent,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }
}

impl<T> Deref for Tracked<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.data
    }
}

impl<T> Index<usize> for Tracked<T> {
    type Output = T;
    fn index(&self, index: usize) -> &T {
        &self.data[index]
    }
}

impl<T: Copy> IndexMut<usize> for Tracked<T> {
    /// Stamps the chunk of `index`.
    ///
    /// # Panics
    ///
    /// Past the end, like a slice; [`Tracked::set`] and [`Tracked::get_mut`] do not panic.
    fn index_mut(&mut self, index: usize) -> &mut T {
        let len = self.data.len();
        match self.get_mut(index) {
            Some(slot) => slot,
            None => panic!("index {index} is out of bounds for length {len}"),
        }
    }
}

impl<T: Copy> From<Vec<T>> for Tracked<T> {
    fn from(data: Vec<T>) -> Self {
        Tracked::new(data)
    }
}
