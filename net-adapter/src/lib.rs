//! Rollback netcode for tickfold over [ggrs](https://github.com/gschup/ggrs), the Rust
//! reimagining of GGPO: each fixed tick of the fold is one ggrs frame, saves and loads go
//! through the snapshot ring of `tickfold-snapshot` (only the chunks written since, no clone
//! per frame, no allocation once warm), the ring's XXH3 checksum is ggrs's checksum, and a peer
//! that runs ahead slows its loop by an exact time scale.
//!
//! ```
//! use ggrs::{InputStatus, SessionBuilder};
//! use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
//! use tickfold_ggrs::{GgrsConfig, Refusal, Rollback};
//! use tickfold_snapshot::DoubleBuffer;
//!
//! type Config = GgrsConfig<u8>; // one byte of input per player
//!
//! // Two players' positions: the whole rollback state.
//! let mut world = DoubleBuffer::new(vec![0_i64; 2]);
//! // A sync test re-simulates the last 7 frames every frame and compares checksums.
//! let mut session = SessionBuilder::<Config>::new()
//!     .with_num_players(2)?
//!     .with_check_distance(7)
//!     .start_synctest_session()?;
//! let mut rollback = Rollback::<Config, _>::new(&world, 8, Refusal::default())?;
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
//! for frame in 1..=60 {
//!     let events = state.advance(Nanos(frame * 16_666_667));
//!     for tick in events.updates() {
//!         let local = [(0, 1), (1, 2)];
//!         let step = rollback.update(&mut session, &tick, &local, &mut world, |w, inputs, _| {
//!             for (p, (input, _status)) in inputs.iter().enumerate() {
//!                 w[p] += i64::from(*input);
//!             }
//!         })?;
//!         assert_eq!(step.advanced, 1);
//!     }
//! }
//! assert_eq!(world.current(), [60, 120]);
//! assert_eq!(rollback.stats().frames, 60);
//! assert!(rollback.stats().resimulated > 0); // the sync test rolled back every frame
//! # let _ = InputStatus::Confirmed;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What ggrs asks for, and what the adapter does with it:
//!
//! - `SaveGameState`: [`RollbackState::save`] into the ring; ggrs keeps only a [`Saved`]
//!   token (frame and checksum) and the checksum as `u128` for its desync detection.
//! - `LoadGameState`: [`RollbackState::load`]; a frame the ring no longer holds is a
//!   [`NetError::FrameNotInRing`], not a panic.
//! - `AdvanceFrame`: your simulation, with every player's input and [`ggrs::InputStatus`].
//! - No `AdvanceFrame` at all (ggrs 0.13 at its prediction window, or a session not yet
//!   synchronised): the tick did not happen; [`Refusal`] says whether it is retried with the
//!   next tick or dropped, and [`RollbackStats`] keeps `ticks == frames + owed + dropped`.
//!
//! ggrs reads the wall clock itself (handshake retries, keep-alives every 200 ms, the
//! disconnect timer, round-trip times), so a [`MemoryNet`] on a [`SimClock`] makes the network
//! deterministic but not ggrs's timers: checksum equality is tested on simulated time, the
//! convergence of the frame advantage on a short real-time loopback run.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

mod error;
mod rollback;
mod session;
mod socket;
mod state;
mod sync;

pub use error::{NetError, NetEvent};
pub use ggrs;
pub use rollback::{Advance, Refusal, Rollback, RollbackStats};
pub use session::{GgrsConfig, Saved, Session};
pub use socket::{LinkConfig, LoopbackSocket, MemoryNet, MemorySocket, SimClock, SocketStats};
pub use state::RollbackState;
pub use sync::TimeSync;
