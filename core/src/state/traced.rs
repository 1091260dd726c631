//! The loop in `tracing` (feature `tracing`): a span per step, per update and per render, and
//! the step's losses and controls as `tracing` events, for a profiler (Tracy, puffin, a Chrome
//! trace) or a log. Compiled only with the feature; without it no line of the step changes.
//!
//! The names, fields and levels, written once here (the guide's profiling chapter shows them):
//!
//! * span `step` (INFO), around the fold: `updates`, the step's updates over every clock, and
//!   `by_clock`, each clock's count in declaration order (`"physics: 2, ai: 1"`), recorded when
//!   the step ends; the step's events below are its children;
//! * span `update` (INFO), around a handler given an update ([`LoopState::as_of`] and
//!   [`LoopState::hand_on`], so every shell): `clock` (its name) and `tick` (its index);
//! * span `render` (INFO), around a handler given the render: `alpha`;
//! * events, target `tickfold` like the spans: WARN for what the loop lost or could not do
//!   ([`Event::DroppedTicks`] for missed slots, [`Event::DiscardedTime`],
//!   [`Event::TimeBackwards`], [`Event::EndOfTime`]), INFO for ticks a control discarded on
//!   request, DEBUG for deferrals (nothing is lost: they run in later steps) and the controls
//!   (pause, resume, scale, rate).
//!
//! [`LoopState::as_of`]: crate::LoopState::as_of
//! [`LoopState::hand_on`]: crate::LoopState::hand_on

use core::fmt;

use tracing::field::{Empty, display};
use tracing::level_filters::LevelFilter;
use tracing::span::EnteredSpan;
use tracing::{debug, info, info_span, warn};

use crate::clocks::ClockSet;
use crate::events::Events;
use crate::values::event::{DropReason, Event};
use crate::values::id::ClockId;

/// The name of clock `id`, or `"?"` for a clock removed since (a handler may remove one).
fn name(clocks: &ClockSet, id: ClockId) -> &str {
    clocks.clock_ref(id).map_or("?", |c| c.config().name())
}

/// Opens and enters the step's span, which [`Events::trace`] fills in and closes; `None`
/// without a subscriber (every level off), for one load of `tracing`'s maximum level.
#[inline]
pub(crate) fn step_span() -> Option<EnteredSpan> {
    if LevelFilter::current() == LevelFilter::OFF {
        None
    } else {
        Some(open_step_span())
    }
}

#[inline(never)]
fn open_step_span() -> EnteredSpan {
    info_span!(target: "tickfold", "step", updates = Empty, by_clock = Empty).entered()
}

/// The span a handler of `event` runs in: `update` or `render`, none for the other events
/// and without a subscriber.
#[inline]
pub(crate) fn handler_span<T>(clocks: &ClockSet, event: &Event<T>) -> Option<EnteredSpan> {
    if LevelFilter::current() == LevelFilter::OFF {
        return None;
    }
    match event {
        Event::Update(tick) => Some(
            info_span!(target: "tickfold", "update", clock = name(clocks, tick.clock), tick = tick.index)
                .entered(),
        ),
        Event::Render(render) => {
            Some(info_span!(target: "tickfold", "render", alpha = render.alpha).entered())
        }
        _ => None,
    }
}

/// Each clock's updates in a step, in declaration order: `"physics: 2, ai: 1"`.
struct ByClock<'a, T> {
    clocks: &'a ClockSet,
    events: &'a Events<T>,
}

impl<T> fmt::Display for ByClock<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let runs = self.events.runs.as_slice();
        for (i, c) in self.clocks.iter().enumerate() {
            let count = runs
                .iter()
                .find(|run| run.clock == c.id())
                .map_or(0, |run| run.count);
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{}: {count}", c.config().name())?;
        }
        Ok(())
    }
}

impl<T> Events<T> {
    /// Records the step's update counts in its span (opened by `step_span`), emits its
    /// losses, deferrals and controls as `tracing` events, children of the span, then closes
    /// the span.
    #[inline(never)]
    pub(crate) fn trace(&self, span: EnteredSpan, clocks: &ClockSet) {
        if !span.is_disabled() {
            span.record("updates", self.update_count());
            span.record(
                "by_clock",
                display(ByClock {
                    clocks,
                    events: self,
                }),
            );
        }
        for event in self.rare() {
            match event {
                Event::TimeBackwards { by } => {
                    warn!(target: "tickfold", by_ns = by.0, "time went backwards: no time passes");
                }
                Event::DiscardedTime {
                    clock,
                    time,
                    first,
                    ticks,
                } => warn!(
                    target: "tickfold",
                    clock = name(clocks, clock),
                    time_ns = time.0,
                    first,
                    ticks,
                    "ticks dropped: the step passed the max frame delta"
                ),
                Event::DroppedTicks {
                    clock,
                    first,
                    count,
                    reason: DropReason::SlotMissed,
                } => warn!(
                    target: "tickfold",
                    clock = name(clocks, clock),
                    first,
                    count,
                    "ticks dropped: their slots passed"
                ),
                Event::DroppedTicks {
                    clock,
                    first,
                    count,
                    reason: DropReason::Discarded,
                } => info!(
                    target: "tickfold",
                    clock = name(clocks, clock),
                    first,
                    count,
                    "ticks discarded on request"
                ),
                Event::EndOfTime { clock, next_tick } => warn!(
                    target: "tickfold",
                    clock = name(clocks, clock),
                    next_tick,
                    "the clock reached the end of time"
                ),
                Event::Deferred { clock, ticks } => debug!(
                    target: "tickfold",
                    clock = name(clocks, clock),
                    ticks,
                    "ticks deferred to the next step"
                ),
                Event::Paused => debug!(target: "tickfold", "paused"),
                Event::Resumed => debug!(target: "tickfold", "resumed"),
                Event::ScaleChanged(scale) => {
                    debug!(target: "tickfold", scale = ?scale, "time scale changed");
                }
                Event::RateChanged {
                    clock,
                    period,
                    from_tick,
                } => debug!(
                    target: "tickfold",
                    clock = name(clocks, clock),
                    period = ?period,
                    from_tick,
                    "tick rate changed"
                ),
                Event::Sleep { .. } | Event::Update(_) | Event::Render(_) => {}
            }
        }
    }
}
