#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use tickfold_core::*;

#[cfg(feature = "std")]
pub mod runner;
#[cfg(feature = "quickcheck")]
pub mod testing;
