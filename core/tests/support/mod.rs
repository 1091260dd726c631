//! Support shared by tickfold-core's integration tests: a test declares `mod support;` and
//! uses the part it needs (`support::bevy` for the ports of `bevy_time`'s tests,
//! `support::grid_model` for the controls' oracle).
#![allow(dead_code)] // each test uses part of it

pub(crate) mod bevy;
pub(crate) mod grid_model;
