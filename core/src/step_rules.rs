//! The rules every path of the step shares, written once: the fast path (`step.rs`), the
//! general path (`general.rs`) and single-stepping (`stepping.rs`) all call down into them
//! (none of them calls back): the Deferred rule and the cap's total order, the end-of-time
//! report, the render event, the wake and the deadline, the skip of missed constant-rate
//! slots and the max frame delta.

use crate::clock::Clock;
use crate::event::{Event, Render};
use crate::events::Events;
use crate::few::Sink;
use crate::state::Inner;
use crate::time::{Lag, Nanos, Timestamp};
use crate::virtual_time::Virtual;

impl<T: Timestamp> Inner<T> {
    /// The constant-rate clocks of a loop of several (or single-stepped) skip the slots that
    /// passed before `v`, reporting them; nobody sleeps, so each runs the slot in progress.
    pub(crate) fn skip_missed_slots(&mut self, v: u64, ev: &mut Events<T>) {
        for clock in &mut self.clocks {
            if clock.constant_rate() && !clock.ended() {
                clock.skip_missed(v, false, &mut ev.sink(&mut self.pool));
            }
        }
    }

    /// Moves virtual time by `elapsed` real ns (scaled exactly), applying the max frame delta
    /// to the virtual advance: beyond it, each clock drops its oldest due ticks (see
    /// [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)).
    pub(crate) fn add_real(&mut self, elapsed: u64, ev: &mut Events<T>) {
        let before = self.virt.now();
        self.virt.advance(elapsed);
        let after = self.virt.now();
        if let Some(max) = self.real.max_delta().filter(|max| after - before > *max) {
            let limit = before.saturating_add(max);
            let mut most = 0;
            for clock in &mut self.clocks {
                if let Some((first, ticks, time)) = clock.clamp(limit, after) {
                    most = most.max(time);
                    ev.sink(&mut self.pool).push(Event::DiscardedTime {
                        clock: clock.id(),
                        time: Nanos(time),
                        first,
                        ticks,
                    });
                }
            }
            self.virt.add_discarded(most);
        }
    }

    /// The cap and the loop's one total order: a step runs a prefix of the loop's order of
    /// (due time, declaration order). When the cap defers a clock's tick, the ticks this step
    /// fired that come after it in that order, of every clock, are put back (they run in a
    /// later step, in their place), so the ticks run are the same however frames slice time.
    /// Rare: only a step the cap stopped rebuilds its runs. Returns whether the cap deferred
    /// a tick.
    pub(crate) fn hold_after_deferral(&mut self, ev: &mut Events<T>, v: u64) -> bool {
        if self.clocks.len() < 2 {
            return false;
        }
        let mut first: Option<(u64, usize)> = None;
        for (i, clock) in self.clocks.iter().enumerate() {
            if let Some(due) = clock.deferred(v) {
                if first.is_none_or(|(d, _)| due < d) {
                    first = Some((due, i));
                }
            }
        }
        let Some((due, place)) = first else {
            return false;
        };
        let mut moved = false;
        for (i, clock) in self.clocks.iter_mut().enumerate() {
            moved |= clock.hold_after(due, place, i);
        }
        if moved {
            ev.runs.reset();
            for clock in &self.clocks {
                if clock.count() > 0 {
                    ev.runs.push(clock.step_run(), &mut self.pool);
                }
            }
        }
        true
    }
}

/// When the clocks next want a step, in real ns after the latest `now`: at once when the cap
/// left a backlog (see [`end_clock_step`]); `None` when no clock can tick any more (`wake`
/// gives `None`) or virtual time never reaches the wake (a time scale of 0); else when virtual
/// time, now at `v`, reaches `wake`, the earliest time a clock wants a step (asked only
/// without a backlog). `virt` scales the virtual span to real time; `None` on the fast path (a
/// scale of 1 with no fraction of a ns carried), where it is the span itself.
#[inline(always)]
pub(crate) fn wake_after(
    backlog: bool,
    wake: impl FnOnce() -> Option<u64>,
    v: u64,
    virt: Option<&Virtual>,
) -> Option<u64> {
    if backlog {
        return Some(0);
    }
    let ahead = wake()?.saturating_sub(v);
    match virt {
        None => Some(ahead),
        Some(virt) => virt.real_needed(ahead),
    }
}

/// The Deferred rule, on every path: ends `clock`'s step at `v`. When the cap left ticks that
/// a step at the same `v` would run (or held them behind another clock's deferred tick), they
/// are reported after the updates as [`Event::Deferred`] if `report` says so, and the step's
/// deadline is "now": returns whether they were. `plain`: the fast path's count (see
/// `Clock::end_step`).
#[inline(always)]
pub(crate) fn end_clock_step<T>(
    clock: &mut Clock,
    v: u64,
    report: bool,
    plain: Option<u32>,
    out: Sink<'_, T>,
) -> bool {
    let Some(ticks) = clock.end_step(v, plain) else {
        return false;
    };
    if report {
        out.push_after(Event::Deferred {
            clock: clock.id(),
            ticks,
        });
    }
    true
}

/// The end-of-time report, on every path: [`Event::EndOfTime`] after the updates, once per
/// clock, at the first step that finds `clock` at the end of the time axis.
#[inline(always)]
pub(crate) fn report_end_of_time<T>(clock: &mut Clock, out: Sink<'_, T>) {
    if let Some(next_tick) = clock.end_of_time() {
        out.push_after(Event::EndOfTime {
            clock: clock.id(),
            next_tick,
        });
    }
}

/// Whether a step renders (before the render cap, if any, has its say): the first step
/// always does, then every step that moved real time (`elapsed` ns).
#[inline(always)]
pub(crate) fn renders(first: bool, elapsed: u64) -> bool {
    first || elapsed > 0
}

/// The render event of a step that left virtual time at `v`: the alpha clock's (`clock`)
/// alpha, lag and ticks run, whether the loop is paused, and the virtual time the step moved
/// (`delta`).
#[inline(always)]
pub(crate) fn render_of(clock: Option<&Clock>, v: u64, paused: bool, delta: Nanos) -> Render {
    let (alpha, lag) = clock.map_or((0.0, Lag::ZERO), |c| c.alpha(v));
    Render {
        alpha,
        lag,
        ticks: clock.map_or(0, Clock::ran),
        paused,
        delta,
    }
}

/// A deadline `after` ns past the latest `now`, as a timestamp measured from the step's `now`
/// (which is `behind` ns before the latest `now` if the clock went backwards), so that it is
/// never earlier than `now`, even where `start + deadline` would not fit the timestamp type.
#[inline]
pub(crate) fn deadline_from<T: Timestamp>(now: T, behind: u64, after: u64) -> T {
    now.add_nanos(after.saturating_add(behind))
}
