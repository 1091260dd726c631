//! Time (TODO doc)

pub(crate) mod real;
pub(crate) mod smooth;
pub(crate) mod span;
pub(crate) mod virt;
pub(crate) mod virtual_time;
