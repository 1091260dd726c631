//! The clock set (TODO doc)

pub(crate) mod view;

pub(crate) mod stats;

pub(crate) mod add_remove;

pub(crate) mod refuse;

pub(crate) mod id;
pub(crate) mod set;
