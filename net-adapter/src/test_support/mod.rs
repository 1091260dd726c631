//! Test support (feature `test-support`): an in-memory lossy network on a simulated clock, a
//! loopback UDP socket with the same seeded impairments, and the two-player game, its peer
//! shell and its sync test, which the facade's `rollback` example and this crate's tests run.
//!
//! None of it is needed to ship a game: a game's sockets are ggrs's own (or the engine's), and
//! its world and shell are its own. It is here so that tests, benches and examples of games
//! built on the adapter can drive two peers deterministically, without copying the network or
//! the game.
//!
//! ggrs reads the wall clock itself (handshake retries, keep-alives every 200 ms, the
//! disconnect timer, round-trip times), so a [`MemoryNet`] on a [`SimClock`] makes the network
//! deterministic but not ggrs's timers: checksum equality is tested on simulated time, the
//! convergence of the frame advantage on a short real-time loopback run.
//!
//! # Examples
//!
//! Two peers of the example game on an in-memory network with 20 ms of latency, stepped on
//! simulated time until both have confirmed frames, which must carry equal checksums:
//!
//! ```
//! use std::net::SocketAddr;
//! use tickfold_core::Nanos;
//! use tickfold_ggrs::test_support::peer::{Peer, PeerOptions, compare};
//! use tickfold_ggrs::test_support::{LinkConfig, MemoryNet, SimClock};
//!
//! let clock = SimClock::new();
//! let net = MemoryNet::new(clock.clone());
//! let (aa, ab): (SocketAddr, SocketAddr) = ("10.0.0.1:7000".parse()?, "10.0.0.2:7000".parse()?);
//! let mut a = Peer::new(0, net.socket(aa, LinkConfig::new(20, 0, 0, 1)), ab, PeerOptions::default())?;
//! let mut b = Peer::new(1, net.socket(ab, LinkConfig::new(20, 0, 0, 2)), aa, PeerOptions::default())?;
//! for ms in 1..=3_000u64 {
//!     clock.set(ms * 1_000_000);
//!     a.step(Nanos::from_millis(ms))?;
//!     b.step(Nanos::from_millis(ms))?;
//!     if a.confirmed.len() > 60 && b.confirmed.len() > 60 {
//!         break;
//!     }
//! }
//! let (common, equal) = compare(&a.confirmed, &b.confirmed);
//! assert!(common > 60);
//! assert_eq!(equal, common);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod follower;
pub mod game;
mod net;
pub mod peer;
pub mod sync_test;

pub use net::{LinkConfig, LoopbackSocket, MemoryNet, MemorySocket, SimClock, SocketStats};
