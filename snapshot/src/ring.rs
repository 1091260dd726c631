//! A ring of N saved states for rollback, with per-chunk and whole-state checksums.

use bytemuck::NoUninit;
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

use crate::double::DoubleBuffer;
use crate::error::{SnapshotError, TickNotInRing};
use crate::tracked::{Capture, Tracked};

/// Hashes one chunk: XXH3-64 (seed 0) of its bytes as they lie in memory.
///
/// `T: NoUninit` guarantees those bytes hold no padding, so equal values hash equally.
/// The bytes are native-endian: checksums agree across machines of the same endianness.
#[must_use]
pub fn chunk_checksum<T: NoUninit>(chunk: &[T]) -> u64 {
    xxh3_64(bytemuck::cast_slice(chunk))
}

/// Combines chunk checksums into a whole-state checksum: XXH3-64 of the chunk checksums'
/// native-endian bytes, seeded with the element count.
#[must_use]
pub fn state_checksum(chunk_checksums: &[u64], len: usize) -> u64 {
    xxh3_64_with_seed(bytemuck::cast_slice(chunk_checksums), len as u64)
}

#[derive(Debug)]
struct Slot<T> {
    tick: Option<u64>,
    /// The source's epoch when this slot last equalled it; 0: never.
    taken: u64,
    source: u64,
    data: Vec<T>,
    hashes: Vec<u64>,
    checksum: u64,
}

/// A ring of N snapshots of a [`Tracked`] state, for rollback: [`save`](Ring::save) tick `t`
/// into slot `t mod N`, [`load`](Ring::load) it back while it is still there.
///
/// A save copies only the chunks written since that slot was last saved (or everything when
/// more than the threshold changed, as it will with scattered writes across a long ring), and
/// recomputes the [`chunk_checksum`] of just those chunks; [`checksum`](Ring::checksum) is the
/// [`state_checksum`] of the chunk checksums, for comparing runs the way ggrs's sync test does.
/// A load copies back only the chunks written since the save. One ring may serve several
/// states, even of different chunk sizes: a tick's checksums follow the chunk size of the state
/// that saved it, and a save after another state's save or load copies and rehashes the whole
/// state. Slots are allocated with the state's capacity at construction, so saving and loading
/// allocate nothing while the length stays within it.
///
/// # Examples
///
/// ```
/// use tickfold_snapshot::{Ring, TickNotInRing, Tracked};
///
/// let mut world = Tracked::new(vec![0_u64; 10_000]);
/// let mut ring = Ring::new(4, &world)?;
/// for tick in 0..6 {
///     world.set(tick as usize, tick)?;
///     ring.save(tick, &mut world);
/// }
/// let at_5 = ring.checksum(5);
/// ring.load(3, &mut world)?;               // roll back to the end of tick 3
/// assert_eq!((world[4], world[3]), (0, 3));
/// world.set(4, 4)?;                        // re-simulate tick 4 and 5
/// world.set(5, 5)?;
/// ring.save(5, &mut world);
/// assert_eq!(ring.checksum(5), at_5);      // same state, same checksum
/// assert_eq!(
///     ring.load(1, &mut world),            // tick 1's slot now holds tick 5
///     Err(TickNotInRing { tick: 1, holds: Some(5) })
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Ring<T> {
    slots: Box<[Slot<T>]>,
}

impl<T: Copy + NoUninit> Ring<T> {
    /// A ring of `len` empty slots sized for `state` (its capacity and chunk count).
    ///
    /// The memory is reserved up front, so saves and loads within that capacity never
    /// allocate; a size that cannot be reserved is refused rather than aborting the process.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::EmptyRing`] when `len` is 0, [`SnapshotError::RingTooLarge`] when the
    /// slots cannot be reserved.
    pub fn new(len: usize, state: &Tracked<T>) -> Result<Ring<T>, SnapshotError> {
        if len == 0 {
            return Err(SnapshotError::EmptyRing);
        }
        let too_large = SnapshotError::RingTooLarge { slots: len };
        let chunks = state
            .capacity()
            .div_ceil(state.chunk_len())
            .max(state.chunk_count());
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).map_err(|_| too_large)?;
        for _ in 0..len {
            let mut data = Vec::new();
            let mut hashes = Vec::new();
            data.try_reserve_exact(state.capacity())
                .and_then(|()| hashes.try_reserve_exact(chunks))
                .map_err(|_| too_large)?;
            slots.push(Slot {
                tick: None,
                taken: 0,
                source: 0,
                data,
                hashes,
                checksum: 0,
            });
        }
        Ok(Ring {
            slots: slots.into_boxed_slice(),
        })
    }

    /// Number of slots.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always `false`: a ring has at least one slot.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    fn slot_of(&self, tick: u64) -> usize {
        // The remainder is below the slot count, a usize.
        (tick % self.slots.len() as u64) as usize
    }

    fn find(&self, tick: u64) -> Result<&Slot<T>, TickNotInRing> {
        let slot = &self.slots[self.slot_of(tick)];
        if slot.tick == Some(tick) {
            Ok(slot)
        } else {
            Err(TickNotInRing {
                tick,
                holds: slot.tick,
            })
        }
    }

    /// Saves `state` as tick `tick`, replacing whatever its slot held (tick − N, or an
    /// abandoned future after a rollback).
    pub fn save(&mut self, tick: u64, state: &mut Tracked<T>) -> Capture {
        let i = self.slot_of(tick);
        let Slot {
            tick: slot_tick,
            taken,
            source,
            data,
            hashes,
            checksum,
        } = &mut self.slots[i];
        let chunks = state.chunk_count();
        // Only chunks copied are rehashed, so the others' hashes must be this state's, in its
        // layout: after a save or load by another state, or by one with another chunk size,
        // everything is copied and hashed afresh. (Chunk sizes are powers of two, so two
        // layouts give the same chunk count only when that is 0 or 1, and then the same hashes.)
        let in_sync = *source == state.id() && hashes.len() == chunks;
        if !in_sync {
            hashes.clear();
            hashes.resize(chunks, 0);
        }
        let copied = state.copy_into(
            data,
            *taken,
            in_sync,
            Some(&mut |c, chunk| hashes[c] = chunk_checksum(chunk)),
        );
        if copied.full || copied.chunks > 0 {
            *checksum = state_checksum(hashes, data.len());
        }
        *slot_tick = Some(tick);
        *source = state.id();
        *taken = state.seal();
        copied
    }

    /// Restores tick `tick` into `state`, copying back only the chunks written since it was
    /// saved; those chunks count as written for every other snapshot of `state`.
    ///
    /// # Errors
    ///
    /// [`TickNotInRing`] when the tick was never saved or its slot has been reused; `state` is
    /// untouched.
    pub fn load(&mut self, tick: u64, state: &mut Tracked<T>) -> Result<Capture, TickNotInRing> {
        self.find(tick)?;
        Ok(self.load_found(tick, state))
    }

    /// [`load`](Ring::load) once `find(tick)` succeeded. The slot's checksums keep the layout
    /// of the state that saved it: they describe the tick as saved, and the next save into the
    /// slot by a state of another chunk size rehashes everything (see [`save`](Ring::save)).
    fn load_found(&mut self, tick: u64, state: &mut Tracked<T>) -> Capture {
        let i = self.slot_of(tick);
        let slot = &mut self.slots[i];
        let copied = state.restore_from(&slot.data, slot.taken, slot.source == state.id());
        slot.source = state.id();
        slot.taken = state.seal();
        copied
    }

    /// Saves the front of a [`DoubleBuffer`] as tick `tick`.
    pub fn save_buffer(&mut self, tick: u64, buf: &mut DoubleBuffer<T>) -> Capture {
        self.save(tick, buf.tracked_mut())
    }

    /// Restores tick `tick` into the front of a [`DoubleBuffer`]. The back keeps the state
    /// from before the rollback until the next capture; capture before re-simulating as usual.
    /// When the saved state has another length than the front had (entities spawned or removed
    /// since), the back becomes a copy of the loaded state, so both keep one length and index
    /// `i` names the same entity in both.
    ///
    /// # Errors
    ///
    /// As [`Ring::load`].
    pub fn load_buffer(
        &mut self,
        tick: u64,
        buf: &mut DoubleBuffer<T>,
    ) -> Result<Capture, TickNotInRing> {
        self.find(tick)?;
        Ok(buf.restore_front(|front| self.load_found(tick, front)))
    }

    /// The state saved as `tick`, if its slot still holds it.
    #[must_use]
    pub fn get(&self, tick: u64) -> Option<&[T]> {
        self.find(tick).ok().map(|s| &s.data[..])
    }

    /// Whether the ring holds `tick`.
    #[must_use]
    pub fn contains(&self, tick: u64) -> bool {
        self.find(tick).is_ok()
    }

    /// The whole-state checksum of `tick`, if held.
    #[must_use]
    pub fn checksum(&self, tick: u64) -> Option<u64> {
        self.find(tick).ok().map(|s| s.checksum)
    }

    /// The per-chunk checksums of `tick`, if held: where two runs diverge, chunk by chunk.
    #[must_use]
    pub fn chunk_checksums(&self, tick: u64) -> Option<&[u64]> {
        self.find(tick).ok().map(|s| &s.hashes[..])
    }

    /// The ticks held, in slot order.
    pub fn ticks(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().filter_map(|s| s.tick)
    }
}
