//! Plain-data worlds: double buffers with dirty chunks and a rollback ring (`tickfold-snapshot`).
//!
//! Many worlds are plain data: arrays of `Copy` structs, no ECS. To draw between ticks you need the
//! state before the last update and the current one; `tickfold-snapshot` (feature `snapshot`,
//! re-exported as `tickfold::snapshot`) keeps both at close to the cost of a raw `memcpy`, and
//! keeps a ring of saved ticks for rollback.
//!
//! ```rust
//! # #[cfg(feature = "snapshot")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//! use tickfold::snapshot::DoubleBuffer; // feature `snapshot`
//!
//! let mut xs = DoubleBuffer::new(vec![0.0_f32; 100_000]);      // ~400 KB, 98 chunks of 4 KiB
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
//! let events;
//! (state, events) = state.step(Nanos::from_millis(70));          // a stall: 4 catch-up updates
//! for event in &events {
//!     match event {
//!         Event::Update(tick) => {
//!             xs.before_update(&tick);                            // captures before the last only
//!             xs.slice_mut(0..1_000)?.iter_mut().for_each(|x| *x += 1.0); // stamps 1 chunk
//!         }
//!         Event::Render(r) => assert_eq!(xs.blended(0, r.alpha), Some(3.0 + r.alpha as f32)),
//!         _ => {}
//!     }
//! }
//! assert_eq!((xs.stats().captures, xs.stats().bytes), (1, 4096)); // one capture, one chunk
//! # let _ = state;
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "snapshot"))]
//! # fn main() {}
//! ```
//!
//! * **`DoubleBuffer<T: Copy>`**: the front is the current state, the back the state to blend from
//!   (`blend(alpha)` iterates `back[i].interpolate(&front[i], alpha)` without allocating). Two ways
//!   to keep the back one tick behind, neither allocating after construction:
//!   * *in place*: write the front through `set`, `get_mut`, `slice_mut` or `buf[i] = x`
//!     (`IndexMut`, like on a `Tracked`), which stamp the 4 KiB chunks they touch (the size is
//!     configurable, a power of two; `front_mut()` marks everything), and `capture()` copies into
//!     the back only the chunks written since the last capture, one `copy_from_slice` per run of
//!     dirty chunks, or the whole state in one go when more than half the chunks are dirty
//!     (`set_full_copy_percent`);
//!   * *publish*: compute the next state from the front into the back and swap them in O(1):
//!     `write(&next)`, or `back_mut()` then `publish()`, or `write_guard()`, which publishes when
//!     dropped, or `write_with(|front, back| …)`.
//!
//!   `Double<T>` offers the same for a single value.
//! * **One capture per step.** Only the state before a step's *last* update is ever drawn, so
//!   `before_update(tick)` captures only when `tick.last_in_step`: a step of N catch-up updates
//!   copies once, and only what changed since the previous capture.
//! * **Entities added or removed** change both buffers at once, so index `i` names the same entity
//!   in both: `push` writes the new element into both (a spawn is drawn where it spawned, not
//!   blended from garbage), `swap_remove`, `truncate` and `resize` likewise. They allocate only
//!   past the capacity of the `Vec` you built the buffer from.
//! * **`Ring<T>` for rollback**: `save(tick, &mut state)` into slot `tick mod N`, `load(tick, &mut
//!   state)` back, both copying only the chunks written since that slot was last in sync (with
//!   scattered writes and a long ring most chunks end up dirty, and it falls back to one full copy).
//!   Each saved tick carries an XXH3-64 checksum per chunk, recomputed only for copied chunks, and
//!   a whole-state checksum built from them (`checksum(tick)`, `chunk_checksums(tick)`), over the
//!   element bytes as they lie in memory: `T: bytemuck::NoUninit` guarantees they hold no padding,
//!   so equal states hash equally (on machines of the same endianness). Loading a tick of another
//!   length into a `DoubleBuffer` (`load_buffer`) makes the back a copy of it too, so both sides
//!   keep one length; a ring may serve states of different chunk sizes, each tick's checksums
//!   following the chunk size it was saved with.
//! * **`Persistent<T: Clone>`** on `im::Vector` (the `imbl` fork): `capture()` is an O(1) clone that
//!   shares every node; a write then copies the 64-element leaf it lands in and the path to it, and
//!   allocates. Cheap when changes cluster in a large state, dearer than dirty chunks when they
//!   scatter.
//! * **Bad input** gets a typed `SnapshotError` with a message: a chunk size of 0 or not a power of
//!   two, a ring of 0 slots, a threshold above 100 %, a whole-slice write of the wrong length, an
//!   index or range past the end (the checked writes never panic; `IndexMut` panics like a slice),
//!   and loading a tick that has left the ring (or was never saved), which leaves the state as it
//!   was.
//!
//! `cargo run --release --example plain_world --features snapshot` folds 60,000 particles in 60 clouds on a fake
//! clock (144 Hz frames with jitter, a 70 ms stall every 90th frame), moves only the clouds that are
//! awake, spawns and despawns within the reserved capacity, prints the captures and bytes copied per
//! step, checks the back against a naive clone, and draws the last frame from blended positions;
//! its step loop is the generic one the `hecs_world` example runs too. From one run:
//!
//! ```text
//! 60000 particles of 24 B (1.44 MB), 469 chunks of 128 particles
//! 1440 steps, 660 updates, 609 captures (0 full), 65.69 MB copied in all
//! per step: 0.423 captures, 45.6 KB copied; a full copy before every update would copy 660.0 KB per step (14x more)
//! ```
//!
//!
//! ## Snapshots
//!
//! ```sh
//! cargo bench -p tickfold-snapshot --bench capture           # about 2 min
//! cargo run --release -p tickfold-snapshot --example napkin  # about 30 s; `-- --quick` about 7 s
//! cargo run --release -p tickfold-snapshot --example napkin -- --chunk-bytes 512
//! ```
//!
//! Objects of 512 bytes (`[u64; 64]`), the default 4 KiB chunks (8 objects each); a write changes
//! one word of an object, at indices from a fixed-seed generator. Medians from one bench run
//! (another process held about one core during it, so compare within a group, where cases ran
//! back to back).
//!
//! | full capture against raw `copy_from_slice` of the same bytes | 64 KiB | 8 MB | 64 MiB |
//! |---|---|---|---|
//! | `DoubleBuffer::capture` (everything dirty) | 1.217 µs | 283.7 µs | 6.847 ms |
//! | `copy_from_slice` (the physical limit) | 1.360 µs | 289.0 µs | 6.775 ms |
//! | capture throughput / raw | 1.12× | 1.02× | **0.99×** (target ≥ 0.9×: met) |
//!
//! | 16,000 objects (8 MB), `capture()` alone | 1% clustered | 1% random | 10% random |
//! |---|---|---|---|
//! | dirty chunks | 4.36 µs | 35.8 µs | 309.0 µs (55% of chunks dirty: falls back to a full copy) |
//! | forced full copy | 334.9 µs | 274.2 µs | 345.7 µs |
//! | full / dirty | **76.9×** (target ≥ 20×: met) | 7.7× | 1.1× |
//! | the writes themselves, tracked / untracked `Vec` | 0.185 / 0.189 µs | 0.235 / 0.211 µs | 2.863 / 2.203 µs |
//!
//! | same writes + capture | 1% clustered | 1% random | 10% random |
//! |---|---|---|---|
//! | `DoubleBuffer` (dirty chunks) | 4.50 µs | 44.7 µs | 290.5 µs |
//! | `Persistent` (`im::Vector`) | 18.29 µs | 374.2 µs | 1.741 ms |
//! | `Ring` of 8, `save` (with checksums of the copied chunks) | 91.4 µs | 768 µs | |
//! | `Ring` of 8, `load` of the tick 4 saves back | 10.5 µs | 204.5 µs | |
//!
//! The napkin budget of "Main Loops, Refresh Rates, and Determinism": at 5 GB/s, 10% of a 60 Hz step (1.67 ms) copies 8.3 MB, about
//! 16,000 objects of 0.5 KB. The `napkin` example searches, per write pattern, the largest world
//! whose median `capture()` fits 1.67 ms here (boundaries good to about 10%; runs differ by 10 to
//! 20%). Two runs one after the other, the default 4 KiB chunks and `-- --chunk-bytes 512` (one
//! object per chunk):
//!
//! | capture | cost at 16,000 objects, 4 KiB / 512 B chunks | objects in 1.67 ms, 4 KiB chunks | × the article's 16,000 | objects in 1.67 ms, 512 B chunks | × the article |
//! |---|---|---|---|---|---|
//! | full copy | 238.0 / 279.0 µs | 46,000 | 2.9× | 36,000 | 2.2× |
//! | 1% random dirty | 62.1 / 40.9 µs | 256,000 | **16.0×** | 424,000 | **26.5×** |
//! | 1% clustered dirty | 9.0 / 15.4 µs | 2,976,000 | **186×** | 1,568,000 | **98×** |
//! | 10% random dirty | 218.9 / 137.6 µs | 50,000 | 3.1× | 104,000 | 6.5× |
//! | 10% clustered dirty | 26.6 / 52.6 µs | 360,000 | **22.5×** | 288,000 | **18.0×** |
//!
//! * Copy bandwidth here: 28.9 GB/s for 8 MB (in the 32 MiB L3), 8.9 GB/s for 64 MB; so a full
//!   copy fits only 2 to 3× the article's count, because worlds past the cache copy at a third of the
//!   speed.
//! * **Missed for 10% random writes** (3.1× with 4 KiB chunks, 6.5× with 512 B chunks; goal 10×):
//!   10% of 512-byte objects at random dirty about 57% of the 4 KiB chunks (1 − 0.9⁸), so the
//!   capture falls back to copying everything. Chunks of one object copy only the written 10%, but
//!   as 1,600 scattered 512-byte copies, at about 6 GB/s. Smaller chunks help scattered writes and
//!   cost clustered ones (more stamps to scan, more runs): choose with `Tracked::with_chunk_bytes`.
//! * The persistent variant loses to dirty chunks on these objects: each scattered write copies
//!   a 64-element leaf (32 KiB of 512-byte objects). Its capture alone is a 30 ns clone.
//! * A ring save costs more than a double-buffer capture: at 1% random, 947 of 2,000 chunks
//!   (47%) differ from the state 8 ticks earlier, eight 8 MB slots do not fit in the cache, and
//!   XXH3 hashes the copied chunks at about 21.5 GB/s. DESIGN's "99% of chunks dirty with a ring
//!   of 8" did not reproduce with this pattern (1 − 0.923⁸ ≈ 47% is what 1% random writes predict).
