//! Rollback netcode for tickfold over [ggrs](https://github.com/gschup/ggrs), the Rust
//! reimagining of GGPO: each tick of one clock of the fold, the frame clock, is one ggrs
//! frame; saves and loads go through the snapshot ring of `tickfold-snapshot` (only the chunks
//! written since, no clone per frame, no allocation once warm), the ring's XXH3 checksum is
//! ggrs's checksum, and a peer that runs ahead slows its loop by an exact time scale. The
//! adapter stands on the core's contracts: a tick ggrs refuses goes back to the loop with
//! [`LoopState::refuse`](tickfold_core::LoopState::refuse), and the previous state a render
//! blends from is captured by [`Columns::before_update`](tickfold_core::Columns::before_update).
//!
//! ```
//! use ggrs::{InputStatus, SessionBuilder};
//! use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
//! use tickfold_ggrs::{GgrsConfig, Refusal, Rollback};
//! use tickfold_snapshot::DoubleBuffer;
//!
//! type Config = GgrsConfig<u8>; // one byte of input per player
//!
//! // Two players' positions: the whole rollback state. Its clock (the loop's main clock,
//! // as for any `DoubleBuffer` not told otherwise) is the frame clock.
//! let mut world = DoubleBuffer::new(vec![0_i64; 2]);
//! // A sync test re-simulates the last 7 frames every frame and compares checksums.
//! let mut session = SessionBuilder::<Config>::new()
//!     .with_num_players(2)?
//!     .with_check_distance(7)
//!     .start_synctest_session()?;
//! let mut rollback = Rollback::<Config, _>::new(&world, 8, Refusal::default())?;
//! // Frames at 60 Hz, and a 10 Hz clock beside them whose ticks are not frames.
//! let config = LoopConfig::new(Period::from_hz(60)?)
//!     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
//! let mut state = LoopState::new(config, Nanos(0))?;
//! let mut ai_ticks = 0;
//! for frame in 1..=60 {
//!     let events = state.advance(Nanos(frame * 16_666_667));
//!     for tick in events.updates() {
//!         if tick.clock != rollback.frame_clock() {
//!             ai_ticks += 1; // the game's other systems
//!             continue;
//!         }
//!         let local = [(0, 1), (1, 2)];
//!         let step = rollback.update(&mut state, &mut session, &tick, &local, &mut world, |w, inputs, _| {
//!             for (p, (input, _status)) in inputs.iter().enumerate() {
//!                 w[p] += i64::from(*input);
//!             }
//!         })?;
//!         assert_eq!(step.advanced, 1); // a sync test never refuses
//!     }
//! }
//! assert_eq!(world.current(), [60, 120]);
//! assert_eq!(ai_ticks, 10);
//! let frames = state.clock(rollback.frame_clock()).map(|c| c.stats().ticks_run).ok();
//! assert_eq!(frames, Some(rollback.stats().frames)); // one frame per frame-clock tick
//! assert!(rollback.stats().resimulated > 0); // the sync test rolled back every frame
//! assert_eq!(world.stats().captures, 60); // one capture per step, by the core's rule
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
//!   Before the one that simulates the tick's new frame (after any re-simulation), the core's
//!   capture rule, [`Columns::before_update`](tickfold_core::Columns::before_update).
//! - No `AdvanceFrame` for the new frame (ggrs 0.13 at its prediction window, or a session not
//!   yet synchronised): the tick did not happen. It goes back to the loop with
//!   [`LoopState::refuse`](tickfold_core::LoopState::refuse), with the step's later ticks of
//!   the frame clock, and runs again at the next step with the same number; [`Refusal`] says
//!   when the loop drops that backlog instead. The loop's
//!   [`ClockStats`](tickfold_core::ClockStats) keep its accounting identity, and
//!   [`RollbackStats`] keeps `ticks == frames + refused + lost`.
//! - A tick of another clock than the frame clock: [`NetError::NotFrameClock`], nothing runs.
//!
//! Followers, who watch without playing, run on the same [`Rollback::update`] with the game's
//! unchanged simulation, one frame per tick: ggrs's `SpectatorSession` (the host forwards
//! its confirmed inputs), and a late joiner that loads a host's [`Handover`] and follows its
//! [`Feed`] (ggrs has no mid-game join). The adapter saves their frames into the ring itself
//! (ggrs asks a follower for no saves), so their checksums are compared as a player's; a
//! [`CatchUp`] turns frames behind into extra ticks of the loop, under its cap.
//!
//! # Features
//!
//! Documented in the `[features]` table of this crate's `Cargo.toml`, and listed here when the
//! docs are built with the `document-features` feature (docs.rs builds them with all features).
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

mod catch_up;
mod error;
mod feed;
mod handover;
mod refusal;
mod rollback;
mod session;
mod state;
mod sync;
#[cfg(feature = "test-support")]
#[cfg_attr(docsrs, doc(cfg(feature = "test-support")))]
pub mod test_support;

pub use catch_up::{CatchUp, SPECTATOR_BUFFER};
pub use error::{NetError, NetEvent};
pub use feed::{Feed, FrameInputs};
pub use ggrs;
pub use handover::{FrameValues, Handover};
pub use refusal::{Advance, Refusal, RollbackStats};
pub use rollback::Rollback;
pub use session::{GgrsConfig, Saved, Session};
pub use state::RollbackState;
pub use sync::TimeSync;
