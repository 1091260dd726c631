//! Copies of plain-data worlds for tickfold: the previous tick for interpolation, at close to
//! the cost of a raw `memcpy`, and a ring of saved ticks for rollback.
//!
//! - [`DoubleBuffer`] over a `Vec<T: Copy>`: the current and the previous state in two
//!   buffers, an O(1) publish-swap, and an in-place [`capture`](DoubleBuffer::capture) that
//!   copies only the 4 KiB chunks written since the last one ([`Tracked`] stamps them).
//!   [`Double`] is the same for one value.
//! - [`Ring`] of N saved ticks with `save`/`load` and XXH3-64 checksums per chunk and per state.
//! - [`Persistent`] on `im::Vector` (the `imbl` fork): O(1) captures by structural sharing.
//!
//! All three follow the capture rule of
//! [`Tick::last_in_step`](tickfold_core::Tick::last_in_step) through
//! [`Columns::before_update`](tickfold_core::Columns::before_update): only the state before a
//! step's last update is drawn, so `before_update` captures once per step, however many
//! catch-up updates run. They implement tickfold-core's [`Columns`](tickfold_core::Columns) and
//! [`BlendColumns`](tickfold_core::BlendColumns), the storage traits the hecs adapter
//! implements too, so code driving captures and blends can be written once for both.
//!
//! ```
//! use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
//! use tickfold_snapshot::DoubleBuffer;
//!
//! #[derive(Copy, Clone, Debug, PartialEq)]
//! struct Particle { x: f32, v: f32 }
//!
//! let mut world = DoubleBuffer::new(vec![Particle { x: 0.0, v: 1.0 }; 10_000]);
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Nanos(0))?;
//! for frame in 1..=10 {
//!     let events;
//!     (state, events) = state.step(Nanos(frame * 25_000_000)); // 40 fps: 2 or 3 updates
//!     for event in &events {
//!         if let Event::Update(tick) = event {
//!             world.before_update(&tick);                // one capture per step
//!             for p in world.current_mut() {
//!                 p.x += p.v * tick.dt_secs() as f32;
//!             }
//!         }
//!         if let Event::Render(r) = event {
//!             let (prev, cur) = (world.previous()[0].x, world.current()[0].x);
//!             let drawn = prev + (cur - prev) * r.alpha as f32;
//!             assert!(prev <= drawn && drawn <= cur);
//!         }
//!     }
//! }
//! assert_eq!(world.stats().captures, 10);                // 25 updates, 10 captures
//! # Ok::<(), tickfold_core::ConfigError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

mod double;
mod error;
mod persistent;
mod ring;
mod tracked;

pub use bytemuck;
pub use double::{CaptureStats, Double, DoubleBuffer, WriteGuard};
pub use error::{SnapshotError, TickNotInRing};
pub use im;
pub use persistent::Persistent;
pub use ring::{Ring, chunk_checksum, state_checksum};
pub use tracked::{Capture, DEFAULT_CHUNK_BYTES, DEFAULT_FULL_COPY_PERCENT, Tracked};
