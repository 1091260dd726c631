//! Saves (TODO doc)

pub(crate) mod check;
pub(crate) mod state;
pub(crate) mod values;
