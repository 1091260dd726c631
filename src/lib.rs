#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use tickfold_core::*;

#[cfg(feature = "std")]
pub mod runner;
/// The hecs adapter (feature `hecs`): the `tickfold-hecs` crate — capture tracked components
/// before every update, read blended values at render. See the README's "hecs worlds".
#[cfg(feature = "hecs")]
pub use tickfold_hecs as hecs_adapter;
/// Snapshots of plain-data worlds (feature `snapshot`): the `tickfold-snapshot` crate —
/// double buffers with dirty chunks, a rollback ring with checksums, `im::Vector` captures.
/// See the README's "Plain-data worlds".
#[cfg(feature = "snapshot")]
pub use tickfold_snapshot as snapshot;
/// The determinism kit (feature `quickcheck`): the `tickfold-testing` crate — arbitrary frame
/// schedules, bit-for-bit schedule checks, timestep checks, record and replay.
#[cfg(feature = "quickcheck")]
pub use tickfold_testing as testing;
