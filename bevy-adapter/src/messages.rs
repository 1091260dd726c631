//! What the fold reports besides updates and renders, as Bevy messages with exact counts.
//!
//! Each is written in the frame whose step reported it, in the fold's order, before (drops,
//! discarded time, controls) or after (deferrals, the end of time) the schedule runs of that
//! frame, so a clock's own systems see the drops that precede their ticks;
//! [`VirtualTimeClamped`] is written earlier, in `First`. Read them with a `MessageReader` in
//! the clock schedules or in `Update`: every clock's readers see every message (the plugin
//! lets Bevy update its message buffers only once every clock has run since the last update).

use std::sync::Arc;

use bevy_ecs::message::{Message, MessageWriter};
use bevy_ecs::system::Res;
use bevy_time::{Real, Time, Virtual};
use tickfold_core::{ClockId, DropReason, Event, Nanos};

/// Ticks `first .. first + count` of a clock will never run: a control dropped them
/// (`discard_overstep`, `reset_grid`) or a constant-rate clock missed their slots
/// ([`Event::DroppedTicks`]).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TicksDropped {
    /// The clock.
    pub clock: ClockId,
    /// Its name (shared with the adapter's own copy: no allocation per message).
    pub name: Arc<str>,
    /// The first dropped tick number.
    pub first: u64,
    /// How many consecutive ticks were dropped.
    pub count: u64,
    /// Why.
    pub reason: DropReason,
}

/// A frame moved virtual time further than the max frame delta, and a clock lost ticks to
/// it ([`Event::DiscardedTime`]): Bevy's own fixed loop loses the same time with only a
/// `debug!` line. Tick numbers jump over `first .. first + ticks`.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TimeDiscarded {
    /// The clock.
    pub clock: ClockId,
    /// Its name (shared with the adapter's own copy: no allocation per message).
    pub name: Arc<str>,
    /// The virtual time discarded for this clock.
    pub time: Nanos,
    /// The first dropped tick number.
    pub first: u64,
    /// How many ticks were dropped.
    pub ticks: u64,
}

/// The per-step update cap stopped this frame with `ticks` ticks of a clock still due: they
/// run in the next frames ([`Event::Deferred`]).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TicksDeferred {
    /// The clock.
    pub clock: ClockId,
    /// Its name (shared with the adapter's own copy: no allocation per message).
    pub name: Arc<str>,
    /// Ticks due but not yet run.
    pub ticks: u64,
}

/// A clock reached the end of its time axis: tick `next_tick` and every later one never run
/// ([`Event::EndOfTime`]). Written once per clock.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ClockEnded {
    /// The clock.
    pub clock: ClockId,
    /// Its name (shared with the adapter's own copy: no allocation per message).
    pub name: Arc<str>,
    /// The first tick that never comes due.
    pub next_tick: u64,
}

/// Every other event of a step, as the fold gave it: the controls seen
/// ([`Event::Paused`], [`Event::Resumed`], [`Event::ScaleChanged`], [`Event::RateChanged`]),
/// a clock that went backwards ([`Event::TimeBackwards`]), and kinds added to tickfold later.
/// Updates and renders are not sent: updates run the clock schedules, and the latest render
/// is kept on the [`Tickfold`](crate::Tickfold) resource.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct LoopNotice(pub Event<Nanos>);

/// Bevy's `Time<Virtual>` clamped this frame's delta to its `max_delta` (250 ms by default):
/// virtual time, and so every tickfold clock, lost `lost` for good, which Bevy itself reports
/// with only a `debug!` line. `lost` is exact: `real_delta` scaled by the relative speed, less
/// `max_delta`. Written in `First`, right after Bevy's time update clamped the frame (with
/// the max delta and speed it used, whatever a later system of the frame sets), by the
/// default [`VirtualTime::Bevy`](crate::VirtualTime::Bevy); with
/// [`VirtualTime::KeepReal`](crate::VirtualTime::KeepReal) nothing is clamped and the ticks
/// dropped instead come as [`TimeDiscarded`].
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct VirtualTimeClamped {
    /// `Time<Real>`'s delta of the frame.
    pub real_delta: core::time::Duration,
    /// `Time<Virtual>`'s max delta, which its delta was clamped to.
    pub max_delta: core::time::Duration,
    /// The virtual time lost.
    pub lost: core::time::Duration,
}

/// Bevy's `Time<Virtual>` clamps a frame longer than its `max_delta` and loses the rest with
/// only a `debug!` line: the same time, exactly, as a [`VirtualTimeClamped`] message. Runs in
/// `First` right after Bevy's `TimeSystems`, so the max delta and relative speed are those
/// the clamp used, whatever a later system of the frame sets.
pub(crate) fn report_clamp(
    virt: Res<Time<Virtual>>,
    real: Res<Time<Real>>,
    mut clamped: MessageWriter<VirtualTimeClamped>,
) {
    let max = virt.max_delta();
    // A clamped frame's delta is the max delta: any other frame is not looked at further.
    if virt.delta() != max {
        return;
    }
    let raw = real.delta();
    // `Time<Virtual>::advance_with_raw_delta`'s own rule, which Bevy does not expose.
    let speed = if virt.is_paused() {
        0.0
    } else {
        virt.relative_speed_f64()
    };
    let scaled = if speed == 1.0 {
        raw
    } else {
        raw.mul_f64(speed)
    };
    if scaled > max {
        clamped.write(VirtualTimeClamped {
            real_delta: raw,
            max_delta: max,
            lost: scaled - max,
        });
    }
}
