//! Time (TODO doc)

pub(crate) mod virtual_view;

pub(crate) mod real_view;

pub(crate) mod anchor;
pub(crate) mod deltas;
pub(crate) mod real;
pub(crate) mod smooth;
pub(crate) mod span;
pub(crate) mod virt;
pub(crate) mod virtual_time;
