//! Helpers shared by the ports of `bevy_time`'s tests (`peer_bevy_time*.rs`).
#![allow(dead_code)]

use core::time::Duration;

use tickfold_core::{Event, Events, LoopConfig, LoopState, Nanos, Period, Render};

pub(crate) const MS: u64 = 1_000_000;
pub(crate) const SEC: u64 = 1_000_000_000;

/// Bevy's `Time::<Fixed>::DEFAULT_TIMESTEP`: 15,625 µs, that is 64 Hz.
pub(crate) const BEVY_TIMESTEP: u64 = 15_625_000;

pub(crate) fn period(ns: u64) -> Period {
    Period::from_duration(Duration::from_nanos(ns)).unwrap()
}

pub(crate) fn new(config: LoopConfig) -> LoopState {
    LoopState::new(config, Nanos(0)).unwrap()
}

pub(crate) fn render(events: &Events<Nanos>) -> Render {
    *events.render().expect("the step renders")
}

pub(crate) fn discarded(events: &Events<Nanos>) -> Vec<(u64, u64, u64)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::DiscardedTime {
                time, first, ticks, ..
            } => Some((time.0, first, ticks)),
            _ => None,
        })
        .collect()
}
