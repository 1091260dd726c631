#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use tickfold_core::*;

#[cfg(feature = "std")]
pub mod runner;
#[cfg(feature = "quickcheck")]
pub mod testing;
/// The hecs adapter (feature `hecs`): the `tickfold-hecs` crate — capture tracked components
/// before every update, read blended values at render. See the README's "hecs worlds".
#[cfg(feature = "hecs")]
pub use tickfold_hecs as hecs_adapter;
/// Snapshots of plain-data worlds (feature `snapshot`): the `tickfold-snapshot` crate —
/// double buffers with dirty chunks, a rollback ring with checksums, `im::Vector` captures.
/// See the README's "Plain-data worlds".
#[cfg(feature = "snapshot")]
pub use tickfold_snapshot as snapshot;
