//! Saves (feature `serde`): the whole [`LoopState`](crate::LoopState) as a
//! [`SavedState`](crate::SavedState) (`state.rs`), serde for the value types (`values.rs`),
//! and the checks a loaded save passes before it becomes a state ([`StateError`](crate::StateError),
//! `check.rs`), so that a save can only hold a state the fold could have built.
//!
//! The top layer with `input`: it may call every layer below; nothing calls it.

pub(crate) mod check;
pub(crate) mod state;
pub(crate) mod values;
