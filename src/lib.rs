#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use tickfold_core::*;

#[cfg(feature = "std")]
pub mod runner;
#[cfg(feature = "quickcheck")]
pub mod testing;
/// Rollback netcode over ggrs (feature `ggrs`): the `tickfold-ggrs` crate — each tick is one
/// ggrs frame, saves and loads through the snapshot ring, time sync through the fold. See the
/// README's "Multiplayer: rollback with ggrs".
#[cfg(feature = "ggrs")]
pub use tickfold_ggrs as ggrs_adapter;
/// The hecs adapter (feature `hecs`): the `tickfold-hecs` crate — capture tracked components
/// before every update, read blended values at render. See the README's "hecs worlds".
#[cfg(feature = "hecs")]
pub use tickfold_hecs as hecs_adapter;
/// Snapshots of plain-data worlds (feature `snapshot`): the `tickfold-snapshot` crate —
/// double buffers with dirty chunks, a rollback ring with checksums, `im::Vector` captures.
/// See the README's "Plain-data worlds".
#[cfg(feature = "snapshot")]
pub use tickfold_snapshot as snapshot;
