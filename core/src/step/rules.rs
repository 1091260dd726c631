//! The rules every path of the step shares, written once: the lone clock's fast path
//! (`step/lone.rs`), the merged body (`step/merged.rs`), the general path (`step/general.rs`)
//! and single-stepping (`step/stepping.rs`) all call down into them
//! (none of them calls back): the Deferred rule and the cap's total order, the end-of-time
//! report, the render event, the wake and the deadline, the skip of missed constant-rate
//! slots and the max frame delta.

use crate::clock::Clock;
use crate::config::Policy;
use crate::events::Events;
use crate::events::few::{Pool, Sink};
use crate::state::Inner;
use crate::step::path::Path;
use crate::time::virtual_time::Virtual;
use crate::values::event::{Event, Render};
use crate::values::time::{Lag, Nanos, Timestamp};

/// The span the coming step starts from, recorded at the top of every step (read by the real
/// and virtual deltas and by [`InputQueue`](crate::InputQueue)).
impl<T> Inner<T> {
    /// Records the span the coming step starts from (the hook at the top of every step).
    #[inline(always)]
    pub(crate) fn begin_span(&mut self) {
        self.span = self.virt.span_from(self.real.now());
    }

    /// [`begin_span`](Self::begin_span) on the fast path, where virtual time is real time
    /// (see [`Virtual::is_plain`](crate::time::virtual_time::Virtual::is_plain)): the plain mapping
    /// is not copied.
    #[inline(always)]
    pub(crate) fn begin_plain_span(&mut self) {
        self.span.begin_plain(self.real.now(), self.virt.now());
    }
}

/// Where a step stands once real and virtual time have moved (see [`Inner::start_step`]).
pub(crate) struct Start {
    /// Whether this is the loop's first step.
    pub(crate) first: bool,
    /// The real ns the step moved.
    pub(crate) elapsed: u64,
    /// How far `now` is behind the latest `now` (the clock went backwards).
    pub(crate) behind: u64,
    /// Virtual time before the step.
    pub(crate) before: u64,
    /// Virtual time after it.
    pub(crate) v: u64,
}

impl Start {
    /// The end of a step on either fast path: the render, if the step renders, with the alpha
    /// clock's (`alpha`) alpha, and the deadline `after` ns past the latest `now` (see
    /// [`wake_after`]).
    #[inline(always)]
    pub(crate) fn finish<T: Timestamp>(
        &self,
        now: T,
        alpha: Option<&Clock>,
        after: Option<u64>,
        ev: &mut Events<T>,
    ) {
        if renders(self.first, self.elapsed) {
            ev.render = Some(render_of(alpha, self.v, false, Nanos(self.v - self.before)));
        }
        ev.deadline = after.map(|after| deadline_from(now, self.behind, after));
    }
}

impl<T: Timestamp> Inner<T> {
    /// The start of every step: the controls reported and each clock's step begun (on the
    /// general path: no control waits and no clock needs it on a fast path), then `now` read
    /// (reporting time going backwards) and virtual time moved by the real time elapsed,
    /// unless paused, applying the time scale and the max frame delta (at a scale of 1 on a
    /// fast path, the virtual advance is the real one). Sets the events' virtual time.
    #[inline(always)]
    pub(crate) fn start_step<P: Path>(&mut self, now: T, ev: &mut Events<T>) -> Start {
        if !P::PLAIN {
            self.emit_controls(ev);
            for clock in &mut self.clocks {
                clock.start_step();
            }
        }
        let first = self.real.latest().is_none();
        let (elapsed, behind) = self.real.read(now, ev.sink(&mut self.pool));
        let before = self.virt.now();
        if elapsed > 0 && (P::PLAIN || !self.virt.is_paused()) {
            if P::PLAIN && self.real.max_delta().is_none_or(|max| elapsed <= max) {
                self.virt.advance_unscaled(elapsed);
            } else {
                self.add_real(elapsed, ev);
            }
            self.virt.record_frame(before);
        }
        let v = self.virt.now();
        ev.v = v;
        Start {
            first,
            elapsed,
            behind,
            before,
            v,
        }
    }

    /// Reports the controls applied since the previous step (the general path's first act).
    fn emit_controls(&mut self, ev: &mut Events<T>) {
        if self.virt.has_pending() {
            self.virt.emit_controls(&mut ev.sink(&mut self.pool));
        }
        self.clocks.emit_reports(ev.sink(&mut self.pool));
    }

    /// The end of a step of several clocks merged by due time (the general path's and the
    /// fast path's for several plain clocks): the cap's deferral, if some clock reached its
    /// cap (`capped`), then each clock's end: its latest tick noted, the slots dropped after a
    /// refused one, the Deferred rule. Returns whether the cap left a backlog, and the
    /// earliest wake of the clocks that can still tick. On a fast path ([`Path::PLAIN`])
    /// every clock is plain with no refused ticks waiting, so none drops slots after a
    /// refused one and each wakes when its next tick is due (measured: 31 instructions a step
    /// of 4 clocks).
    #[inline(always)]
    pub(crate) fn end_merged_step<P: Path>(
        &mut self,
        capped: bool,
        v: u64,
        ev: &mut Events<T>,
    ) -> (bool, Option<u64>) {
        // Only a step in which some clock reached its cap can defer a tick.
        if capped {
            let _ = self.hold_after_deferral(ev, v);
        }
        let mut wake: Option<u64> = None;
        let mut backlog = false;
        // The backlog bound, for every clock at one point (only a capped step has a backlog).
        let floor = if capped {
            let oldest = self
                .clocks
                .iter()
                .filter(|c| c.config().policy == Policy::CatchUp)
                .map(Clock::due)
                .min()
                .unwrap_or(u64::MAX);
            overload_floor(self.real.max_delta(), v, oldest)
        } else {
            None
        };
        let mut most = 0;
        for clock in &mut self.clocks {
            backlog |=
                close_clock_step::<T, P>(clock, v, true, floor, &mut most, ev, &mut self.pool);
            if clock.live() {
                let w = if P::PLAIN { clock.due() } else { clock.wake() };
                wake = Some(wake.map_or(w, |x| x.min(w)));
            }
        }
        if most > 0 {
            count_shed(&mut self.virt, ev);
        }
        (backlog, wake)
    }

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
/// without a backlog). `virt` scales the virtual span to real time; on a fast path (a scale of
/// 1 with no fraction of a ns carried) it is the span itself.
#[inline(always)]
pub(crate) fn wake_after<P: Path>(
    backlog: bool,
    wake: impl FnOnce() -> Option<u64>,
    v: u64,
    virt: &Virtual,
) -> Option<u64> {
    if backlog {
        return Some(0);
    }
    let ahead = wake()?.saturating_sub(v);
    if P::PLAIN {
        Some(ahead)
    } else {
        virt.real_needed(ahead)
    }
}

/// The end of `clock`'s step at `v` on every path that counts in the clock (the general
/// path's merged and lone constant-rate steps, single-stepping, and the fast path for several
/// plain clocks): the step's latest tick noted (once its count is final, after the cap's
/// deferral), the slots that passed while a refused slot waited dropped (reported after its
/// update, see [`Events`]), then the Deferred rule ([`end_clock_step`], reported if `report`
/// says so). Returns whether the cap left a backlog. On a fast path ([`Path::PLAIN`]) no
/// refused slot waits, so nothing is dropped.
#[inline(always)]
pub(crate) fn close_clock_step<T, P: Path>(
    clock: &mut Clock,
    v: u64,
    report: bool,
    floor: Option<u64>,
    most: &mut u64,
    ev: &mut Events<T>,
    pool: &mut Pool<T>,
) -> bool {
    clock.note_latest_step();
    if !P::PLAIN {
        clock.drop_passed_after_refused(v, ev.sink(pool));
    }
    end_clock_step(clock, v, report, floor, most, ev.sink(pool))
}

/// The Deferred rule, on every path: ends `clock`'s step at `v`. When the cap left ticks that
/// a step at the same `v` would run (or held them behind another clock's deferred tick), they
/// are reported after the updates as [`Event::Deferred`] if `report` says so, and the step's
/// deadline is "now": returns whether they were. The rare rest, once the cap left a backlog,
/// is [`defer`] (the lone plain clock's fast path calls `Clock::end_step` with its own count,
/// then `Inner::defer_lone` in `step/lone.rs`).
#[inline(always)]
pub(crate) fn end_clock_step<T>(
    clock: &mut Clock,
    v: u64,
    report: bool,
    floor: Option<u64>,
    most: &mut u64,
    out: Sink<'_, T>,
) -> bool {
    let Some(ticks) = clock.end_step(v, None) else {
        return false;
    };
    defer(clock, v, report, ticks, floor, most, out)
}

/// The Deferred rule once the cap left `ticks` owed. The backlog bound first (see
/// [`overload_floor`]): when `floor` gives a point, the ticks of the backlog due by it are
/// given up, reported as [`Event::DiscardedTime`] (before the `Deferred`), and the time given
/// up is raised into `most` (the loop's count takes the largest of a step's). Then the ticks
/// still owed are reported as [`Event::Deferred`] if `report` says so; returns whether any are.
#[cold]
#[inline(never)]
pub(crate) fn defer<T>(
    clock: &mut Clock,
    v: u64,
    report: bool,
    mut ticks: u64,
    floor: Option<u64>,
    most: &mut u64,
    mut out: Sink<'_, T>,
) -> bool {
    if let Some(floor) = floor {
        match shed_backlog(clock, v, floor, most, out.reborrow()) {
            Some(0) => return false,
            Some(left) => ticks = left,
            None => {}
        }
    }
    if report {
        out.push_after(Event::Deferred {
            clock: clock.id(),
            ticks,
        });
    }
    true
}

/// The backlog bound under sustained overload (see
/// [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)): when a step ends at
/// `v` with a backlog whose oldest tick (due at `oldest`) is more than the max frame delta
/// `max` behind, the loop gives up every tick due at or before `v − max/2`. Every clock sheds
/// at that one point, so the kept backlogs start together in the loop's total order; giving
/// up half the max frame delta at once (not a sliver every frame) keeps the world's time
/// continuous for several frames between drops, so a slow clock's ticks are not the ones that
/// always fall in the gaps. `None`: nothing to give up (no max frame delta, or not that far
/// behind).
#[inline]
pub(crate) fn overload_floor(max: Option<u64>, v: u64, oldest: u64) -> Option<u64> {
    let max = max?;
    (oldest <= v.checked_sub(max)?).then(|| v - max / 2)
}

/// Counts the time the overload bound gave up in a step (its [`Event::DiscardedTime`]s after
/// the updates) into the loop's total, which takes each step's largest `DiscardedTime` (see
/// [`VirtualTimeHandle::time_discarded`](crate::VirtualTimeHandle::time_discarded)): the
/// max frame delta's drops before the updates of the same step already counted theirs, and
/// the virtual layer keeps what the step counted, for a refusal of its updates (see
/// `Virtual::count_shed`). Rare: a step that gave ticks up.
#[cold]
#[inline(never)]
pub(crate) fn count_shed<T>(virt: &mut Virtual, ev: &Events<T>) {
    let before = ev
        .before
        .iter(ev.before.start())
        .filter_map(|e| match e {
            Event::DiscardedTime { time, .. } => Some(time.0),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let given_up = ev.before.after_iter::<&T>(0).filter_map(|e| match e {
        Event::DiscardedTime { clock, time, .. } => Some((clock, time.0)),
        _ => None,
    });
    virt.count_shed(before, given_up);
}

/// Gives up `clock`'s ticks due by `floor` (see [`overload_floor`]), reporting them as
/// [`Event::DiscardedTime`] and raising the time given up into `most`. Returns the ticks
/// still owed after a drop (0: none, the clock is no longer behind), `None` when nothing was
/// given up.
#[cold]
#[inline(never)]
fn shed_backlog<T>(
    clock: &mut Clock,
    v: u64,
    floor: u64,
    most: &mut u64,
    out: Sink<'_, T>,
) -> Option<u64> {
    let (first, ticks, time) = clock.shed_backlog(floor)?;
    *most = (*most).max(time);
    out.push_after(Event::DiscardedTime {
        clock: clock.id(),
        time: Nanos(time),
        first,
        ticks,
    });
    Some(if v >= clock.due() {
        clock.pending(v).max(1)
    } else {
        0
    })
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
