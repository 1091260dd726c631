//! Two buffers: the current state, which the simulation writes (the front buffer), and the
//! previous state, from before the step's last update (the back buffer), for rendering between
//! them.

use core::ops::{Deref, DerefMut, Index, IndexMut, Range};

use tickfold_core::{BlendColumns, ClockId, Columns, Interpolate, Tick};

use crate::error::SnapshotError;
use crate::tracked::{Capture, Tracked};

/// Running totals of what a buffer's captures copied.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CaptureStats {
    /// Captures made.
    pub captures: u64,
    /// Of those, how many copied the whole state.
    pub full: u64,
    /// Chunks copied in total.
    pub chunks: u64,
    /// Bytes copied in total.
    pub bytes: u64,
}

impl CaptureStats {
    fn add(&mut self, c: Capture) {
        self.captures += 1;
        self.full += u64::from(c.full);
        self.chunks += c.chunks as u64;
        self.bytes += c.bytes as u64;
    }
}

/// A double buffer over a slice of plain data: the front buffer holds the [`current`] state,
/// the back buffer the [`previous`] one, to interpolate from.
///
/// [`current`]: DoubleBuffer::current
/// [`previous`]: DoubleBuffer::previous
///
/// Two ways to keep the previous state one tick behind, both without allocating after
/// construction:
///
/// - **In place.** Mutate the current state through the tracked writes ([`set`](DoubleBuffer::set),
///   [`get_mut`](DoubleBuffer::get_mut), [`slice_mut`](DoubleBuffer::slice_mut), `buf[i] = x`
///   through `IndexMut`, or [`current_mut`](DoubleBuffer::current_mut) for everything) and call
///   [`capture`](DoubleBuffer::capture) before the update whose previous state you want, which
///   copies into the back only the chunks written since the last capture (`copy_from_slice` per
///   run of dirty chunks, or one full copy above the threshold).
///   [`before_update`](DoubleBuffer::before_update) applies the capture rule of
///   [`Tick::last_in_step`] (through [`Columns`]): it captures only before the last update of
///   a step, so a step of N catch-up updates copies once, not N times.
/// - **Publish.** Compute the next state from the front into the back, then swap them in O(1):
///   [`write`](DoubleBuffer::write) a whole slice, or fill [`back_mut`](DoubleBuffer::back_mut)
///   and [`publish`](DoubleBuffer::publish), or use the [`write_guard`](DoubleBuffer::write_guard)
///   that publishes when dropped. After a publish the back holds the old front, which is the
///   previous state; the next in-place capture copies in full.
///
/// Render with [`blend`](DoubleBuffer::blend): `previous[i].interpolate(&current[i], alpha)`.
/// With several clocks, [`set_clock`](DoubleBuffer::set_clock) names the one whose updates
/// change this state (the main clock by default).
///
/// **Length changes** are explicit and apply to both buffers at once, so index `i` names the
/// same entity in both: [`push`](DoubleBuffer::push) writes the new element into both (a
/// spawned entity renders at its spawn point, not blended from garbage),
/// [`swap_remove`](DoubleBuffer::swap_remove), [`truncate`](DoubleBuffer::truncate) and
/// [`resize`](DoubleBuffer::resize) likewise. They allocate only past the capacity reserved
/// at construction (pass a `Vec` with spare capacity).
///
/// # Examples
///
/// In place, with the fold's events deciding when to capture:
///
/// ```
/// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
/// use tickfold_snapshot::DoubleBuffer;
///
/// let mut xs = DoubleBuffer::new(vec![0.0_f32; 1000]);
/// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// // A 40 ms frame: two updates are due, one capture is enough.
/// let (_state, events) = state.step(Nanos(40_000_000));
/// for event in &events {
///     match event {
///         Event::Update(tick) => {
///             xs.before_update(&tick);
///             *xs.get_mut(0).unwrap() += 1.0;
///         }
///         Event::Render(r) => {
///             let drawn: Vec<f32> = xs.blend(r.alpha).take(1).collect();
///             assert!(drawn[0] > 1.0 && drawn[0] < 2.0);
///         }
///         _ => {}
///     }
/// }
/// assert_eq!((xs.previous()[0], xs.current()[0]), (1.0, 2.0));
/// assert_eq!(xs.stats().captures, 1);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
///
/// Publishing whole states:
///
/// ```
/// use tickfold_snapshot::DoubleBuffer;
///
/// let mut buf = DoubleBuffer::new(vec![1_u8, 2, 3]);
/// buf.write(&[4, 5, 6])?;                 // tier 1: a whole value
/// buf.back_mut().copy_from_slice(&[7, 8, 9]);
/// buf.publish();                           // tier 2: fill the back, then swap
/// {
///     let mut next = buf.write_guard();    // tier 3: a guard that publishes on drop
///     for (n, p) in next.iter_mut().zip([7, 8, 9]) {
///         *n = p * 2;
///     }
/// }
/// assert_eq!((buf.previous(), buf.current()), (&[7, 8, 9][..], &[14, 16, 18][..]));
/// # Ok::<(), tickfold_snapshot::SnapshotError>(())
/// ```
#[derive(Debug)]
pub struct DoubleBuffer<T> {
    front: Tracked<T>,
    back: Vec<T>,
    /// The front's epoch when the back last equalled it; 0 when unknown.
    back_taken: u64,
    stats: CaptureStats,
    last: Capture,
    clock: ClockId,
}

impl<T: Copy> DoubleBuffer<T> {
    /// Both buffers start as `data`, with 4 KiB dirty chunks. The back gets the same capacity
    /// as `data`.
    #[must_use]
    pub fn new(data: Vec<T>) -> DoubleBuffer<T> {
        DoubleBuffer::from_tracked(Tracked::new(data))
    }

    /// Both buffers start as the tracked data, keeping its chunk size and threshold.
    #[must_use]
    pub fn from_tracked(mut front: Tracked<T>) -> DoubleBuffer<T> {
        let mut back = Vec::with_capacity(front.capacity());
        back.extend_from_slice(&front);
        let back_taken = front.seal();
        DoubleBuffer {
            front,
            back,
            back_taken,
            stats: CaptureStats::default(),
            last: Capture::default(),
            clock: ClockId::default(),
        }
    }

    /// The current state.
    #[must_use]
    pub fn current(&self) -> &[T] {
        &self.front
    }

    /// The previous state: the current one as it was at the last capture, or before the last
    /// publish.
    #[must_use]
    pub fn previous(&self) -> &[T] {
        &self.back
    }

    /// The front with its chunk stamps, for [`Ring`](crate::Ring) and diagnostics.
    #[must_use]
    pub fn tracked(&self) -> &Tracked<T> {
        &self.front
    }

    /// Number of elements.
    #[must_use]
    pub fn len(&self) -> usize {
        self.back.len()
    }

    /// Whether there are no elements.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.back.is_empty()
    }

    /// Elements both buffers hold without allocating.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.front.capacity().min(self.back.capacity())
    }

    /// Element `index` of the front, mutable; stamps its chunk. `None` past the end.
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.front.get_mut(index)
    }

    /// Writes `value` at `index` of the front.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::OutOfBounds`] past the end; nothing is written.
    #[inline]
    pub fn set(&mut self, index: usize, value: T) -> Result<(), SnapshotError> {
        self.front.set(index, value)
    }

    /// The front's elements in `range`, mutable; stamps the chunks it touches.
    ///
    /// # Errors
    ///
    /// As [`Tracked::slice_mut`].
    pub fn slice_mut(&mut self, range: Range<usize>) -> Result<&mut [T], SnapshotError> {
        self.front.slice_mut(range)
    }

    /// The whole current state, mutable; the next capture copies in full.
    pub fn current_mut(&mut self) -> &mut [T] {
        self.front.as_mut_slice()
    }

    /// Copies the front into the back, chunks written since the last capture only.
    pub fn capture(&mut self) -> Capture {
        let copied = self
            .front
            .copy_into(&mut self.back, self.back_taken, true, None);
        self.back_taken = self.front.seal();
        self.stats.add(copied);
        self.last = copied;
        copied
    }

    /// The capture rule of [`Tick::last_in_step`] ([`Columns::before_update`]): captures only
    /// if `tick` is the last update of its step on this buffer's [clock](DoubleBuffer::set_clock),
    /// the only one whose previous state a render needs. Call it before running each update;
    /// returns what the capture copied, if it captured.
    pub fn before_update(&mut self, tick: &Tick) -> Option<Capture> {
        Columns::before_update(self, tick).then_some(self.last)
    }

    /// Follows `clock`'s updates instead of the main clock's (see [`Tick::last_in_step`]).
    pub fn set_clock(&mut self, clock: ClockId) {
        self.clock = clock;
    }

    /// The back, to fill with the next state before [`publish`](DoubleBuffer::publish). It
    /// holds stale data (the previous state) until then. A [`capture`](DoubleBuffer::capture)
    /// instead of the publish copies the whole front, since the back may differ anywhere.
    pub fn back_mut(&mut self) -> &mut [T] {
        self.back_taken = 0;
        &mut self.back
    }

    /// Swaps front and back in O(1): the freshly written back becomes the current state and
    /// the old front the previous one.
    pub fn publish(&mut self) {
        self.front.swap_data(&mut self.back);
        // The front changed everywhere as far as the stamps know.
        self.back_taken = 0;
    }

    /// Copies `next` into the back and publishes it.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::LengthMismatch`] when `next` has another length; nothing changes.
    pub fn write(&mut self, next: &[T]) -> Result<(), SnapshotError> {
        if next.len() != self.back.len() {
            return Err(SnapshotError::LengthMismatch {
                expected: self.back.len(),
                got: next.len(),
            });
        }
        self.back.copy_from_slice(next);
        self.publish();
        Ok(())
    }

    /// Runs `f(front, back)` to compute the next state into the back, then publishes it.
    pub fn write_with<R>(&mut self, f: impl FnOnce(&[T], &mut [T]) -> R) -> R {
        let r = f(&self.front, &mut self.back);
        self.publish();
        r
    }

    /// A guard that dereferences to the back and publishes it when dropped.
    pub fn write_guard(&mut self) -> WriteGuard<'_, T> {
        WriteGuard { buf: self }
    }

    /// Appends `value` to both buffers.
    pub fn push(&mut self, value: T) {
        self.front.push(value);
        self.back.push(value);
    }

    /// Removes element `index` from both buffers, moving the last element into its place.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::OutOfBounds`] past the end; nothing is removed.
    pub fn swap_remove(&mut self, index: usize) -> Result<T, SnapshotError> {
        let removed = self.front.swap_remove(index)?;
        self.back.swap_remove(index);
        Ok(removed)
    }

    /// Shortens both buffers to `len`.
    pub fn truncate(&mut self, len: usize) {
        self.front.truncate(len);
        self.back.truncate(len);
    }

    /// Resizes both buffers to `len`, new elements `value` in both.
    pub fn resize(&mut self, len: usize, value: T) {
        self.front.resize(len, value);
        self.back.resize(len, value);
    }

    /// Element `index` drawn at `alpha` between back and front; `None` past the end.
    #[must_use]
    pub fn blended(&self, index: usize, alpha: f64) -> Option<T>
    where
        T: Interpolate,
    {
        Some(
            self.back
                .get(index)?
                .interpolate(self.front.get(index)?, alpha),
        )
    }

    /// Every element drawn at `alpha`, in order, without allocating.
    pub fn blend(&self, alpha: f64) -> impl ExactSizeIterator<Item = T> + '_
    where
        T: Interpolate,
    {
        self.back
            .iter()
            .zip(self.front.iter())
            .map(move |(p, c)| p.interpolate(c, alpha))
    }

    /// What the captures copied so far.
    #[must_use]
    pub fn stats(&self) -> CaptureStats {
        self.stats
    }

    /// The front's stamps, for saving into a [`Ring`](crate::Ring).
    pub(crate) fn tracked_mut(&mut self) -> &mut Tracked<T> {
        &mut self.front
    }

    /// Restores the front from a ring slot. The back keeps the state from before the rollback
    /// while the length is unchanged; a back of another length cannot stand for the same
    /// entities index by index, so it becomes a copy of the loaded front.
    pub(crate) fn restore_front(
        &mut self,
        load: impl FnOnce(&mut Tracked<T>) -> Capture,
    ) -> Capture {
        let copied = load(&mut self.front);
        if self.back.len() != self.front.len() {
            let _ = self.front.copy_into(&mut self.back, 0, false, None);
            self.back_taken = self.front.seal();
        }
        copied
    }
}

/// The `Vec`-of-structs implementation of the storage trait: [`capture`](Columns::capture) is
/// [`DoubleBuffer::capture`] (dirty chunks only), [`blend_into`](BlendColumns::blend_into) appends
/// [`DoubleBuffer::blend`].
impl<T: Copy> Columns for DoubleBuffer<T> {
    fn capture(&mut self) {
        let _ = DoubleBuffer::capture(self);
    }

    fn clock(&self) -> ClockId {
        self.clock
    }
}

impl<T: Copy + Interpolate> BlendColumns for DoubleBuffer<T> {
    type Item = T;

    fn blend_into<E: Extend<T>>(&self, alpha: f64, out: &mut E) {
        out.extend(self.blend(alpha));
    }
}

impl<T> Index<usize> for DoubleBuffer<T> {
    type Output = T;
    /// Element `index` of the front.
    ///
    /// # Panics
    ///
    /// Past the end, like a slice; [`DoubleBuffer::current`]`().get(index)` does not panic.
    fn index(&self, index: usize) -> &T {
        &self.front[index]
    }
}

impl<T: Copy> IndexMut<usize> for DoubleBuffer<T> {
    /// Element `index` of the front, mutable; stamps its chunk, as [`DoubleBuffer::get_mut`].
    ///
    /// # Panics
    ///
    /// Past the end, like a slice; [`DoubleBuffer::set`] and [`DoubleBuffer::get_mut`] do not
    /// panic.
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.front[index]
    }
}

/// Dereferences to the back of a [`DoubleBuffer`]; publishes it when dropped.
#[derive(Debug)]
pub struct WriteGuard<'a, T: Copy> {
    buf: &'a mut DoubleBuffer<T>,
}

impl<T: Copy> WriteGuard<'_, T> {
    /// The current state, to compute the next one from.
    #[must_use]
    pub fn current(&self) -> &[T] {
        self.buf.current()
    }
}

impl<T: Copy> Deref for WriteGuard<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.buf.back
    }
}

impl<T: Copy> DerefMut for WriteGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf.back
    }
}

impl<T: Copy> Drop for WriteGuard<'_, T> {
    fn drop(&mut self) {
        self.buf.publish();
    }
}

/// A double buffer over one `Copy` value: the same tiers as [`DoubleBuffer`], without chunks.
///
/// # Examples
///
/// ```
/// use tickfold_snapshot::Double;
///
/// let mut camera = Double::new([0.0_f32, 0.0]);
/// camera.capture();            // in place: back = front …
/// camera.current_mut()[0] = 4.0; // … then update the front
/// assert_eq!(camera.blended(0.25), [1.0, 0.0]);
/// camera.write([8.0, 0.0]);    // or publish a whole value
/// assert_eq!((*camera.previous(), *camera.current()), ([4.0, 0.0], [8.0, 0.0]));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Double<T> {
    bufs: [T; 2],
    front: usize,
}

impl<T: Copy> Double<T> {
    /// Front and back both `value`.
    #[must_use]
    pub fn new(value: T) -> Double<T> {
        Double {
            bufs: [value; 2],
            front: 0,
        }
    }

    /// The current value.
    #[must_use]
    pub fn current(&self) -> &T {
        &self.bufs[self.front]
    }

    /// The previous value.
    #[must_use]
    pub fn previous(&self) -> &T {
        &self.bufs[1 - self.front]
    }

    /// The current value, to update in place after a [`capture`](Double::capture).
    pub fn current_mut(&mut self) -> &mut T {
        &mut self.bufs[self.front]
    }

    /// Copies the front into the back.
    pub fn capture(&mut self) {
        self.bufs[1 - self.front] = self.bufs[self.front];
    }

    /// The capture rule of [`Tick::last_in_step`] ([`Columns::before_update`], main clock):
    /// captures only if `tick` is the last update of its step; returns whether it did.
    pub fn before_update(&mut self, tick: &Tick) -> bool {
        Columns::before_update(self, tick)
    }

    /// The back, to fill before [`publish`](Double::publish).
    pub fn back_mut(&mut self) -> &mut T {
        &mut self.bufs[1 - self.front]
    }

    /// Swaps front and back.
    pub fn publish(&mut self) {
        self.front = 1 - self.front;
    }

    /// Makes `value` the front and the old front the back.
    pub fn write(&mut self, value: T) {
        *self.back_mut() = value;
        self.publish();
    }

    /// The value drawn at `alpha` between back and front.
    #[must_use]
    pub fn blended(&self, alpha: f64) -> T
    where
        T: Interpolate,
    {
        self.previous().interpolate(self.current(), alpha)
    }
}

/// One value as storage: [`capture`](Columns::capture) copies it,
/// [`blend_into`](BlendColumns::blend_into) appends [`Double::blended`].
impl<T: Copy> Columns for Double<T> {
    fn capture(&mut self) {
        Double::capture(self);
    }
}

impl<T: Copy + Interpolate> BlendColumns for Double<T> {
    type Item = T;

    fn blend_into<E: Extend<T>>(&self, alpha: f64, out: &mut E) {
        out.extend(core::iter::once(self.blended(alpha)));
    }
}
