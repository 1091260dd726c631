//! Values (TODO doc)

pub(crate) mod event;
pub(crate) mod extrapolate;
#[cfg(feature = "glam")]
pub(crate) mod glam;
pub(crate) mod id;
pub(crate) mod interpolate;
#[cfg(feature = "mint")]
pub(crate) mod mint;
pub(crate) mod rate;
pub(crate) mod time;
