//! Saves (feature `serde`): the whole [`LoopState`](crate::LoopState) as a
//! [`SavedState`](crate::SavedState) (`state.rs`), serde for the value types (`values.rs`),
//! and the checks a loaded save passes before it becomes a state ([`StateError`](crate::StateError),
//! `check.rs`), so that a save can only hold a state the fold could have built.
//!
//! The top layer with `input`. Beside `check.rs`, the checks of a loaded save are written
//! where the data lives: `state.rs` (the version, the clocks, the render cap), the clock's
//! part in `clock/saved.rs`, virtual time's in `time/virtual_time.rs` and `time/span.rs`.
//!
//! May call: `values`, `config`, `error`, `events`, `clock`, `clocks`, `time`, `state`.
//! Called by: nothing.

pub(crate) mod check;
pub(crate) mod state;
pub(crate) mod values;
