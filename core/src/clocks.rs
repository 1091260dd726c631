//! The clocks layer of a loop: its clocks in declaration order, which one drives the render's
//! alpha, the next id, and what the run-time controls did to them since the latest step (the
//! reports the next step gives). The one home of "which clock" (by id, by name, the alpha
//! clock) and of the controls' reports; its fields are private, the step and the handles
//! reach the clocks through the methods below.
//!
//! May call: `values`, `config`, `error`, `events` (the reports), `clock`. Called by:
//! `state`, `save` (the step reaches the set through `state`'s `Inner`).

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::ops::{Index, IndexMut};

use crate::clock::Clock;
use crate::config::{Checked, ClockConfig};
use crate::error::{NoSuchClock, RemoveClockError};
use crate::events::few::Sink;
use crate::events::report::Report;
use crate::values::id::ClockId;
use crate::values::id::ClockRef;

/// The clocks of a loop and their pending reports (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ClockSet {
    /// The clocks, in declaration order.
    clocks: Vec<Clock>,
    /// The clock whose alpha the Render event carries.
    alpha_clock: ClockId,
    /// Where `alpha_clock` stands in `clocks`, kept with it (set where it is set, and at a
    /// removal), so the step's render reaches the alpha clock without a search.
    alpha_at: usize,
    next_id: u16,
    /// Whether a clock control's report waits in `reports` (or a refusal waits for the general
    /// path's step).
    pending: bool,
    /// What the clock controls did since the latest step, reported at the next one (see
    /// `events/report.rs`; the controls are `ClockMut`'s, in `state/clock_view.rs`). Empty, without capacity, unless a control was used.
    reports: Vec<Report>,
}

/// A [`ClockSet`]'s fields, borrowed for the save (`save/state.rs`).
#[cfg(feature = "serde")]
pub(crate) struct SavedClocks<'a> {
    pub(crate) clocks: &'a [Clock],
    pub(crate) alpha_clock: ClockId,
    pub(crate) next_id: u16,
    pub(crate) pending: bool,
    pub(crate) reports: &'a [Report],
}

impl ClockSet {
    /// No clocks yet, room for `n`.
    pub(crate) fn with_capacity(n: usize) -> ClockSet {
        ClockSet {
            clocks: Vec::with_capacity(n),
            alpha_clock: ClockId(0),
            alpha_at: 0,
            next_id: 0,
            pending: false,
            reports: Vec::new(),
        }
    }

    /// A loaded save's clocks, already checked (see `save/state.rs`).
    #[cfg(feature = "serde")]
    pub(crate) fn loaded(
        clocks: Vec<Clock>,
        alpha_clock: ClockId,
        next_id: u16,
        pending: bool,
        reports: Vec<Report>,
    ) -> ClockSet {
        let alpha_at = clocks
            .iter()
            .position(|c| c.id() == alpha_clock)
            .unwrap_or(0);
        ClockSet {
            clocks,
            alpha_clock,
            alpha_at,
            next_id,
            pending,
            reports,
        }
    }

    /// The fields the save writes.
    #[cfg(feature = "serde")]
    pub(crate) fn saved(&self) -> SavedClocks<'_> {
        SavedClocks {
            clocks: &self.clocks,
            alpha_clock: self.alpha_clock,
            next_id: self.next_id,
            pending: self.pending,
            reports: &self.reports,
        }
    }

    /// The number of clocks (at least one once the loop is built).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.clocks.len()
    }

    /// The clocks, in declaration order.
    #[inline]
    pub(crate) fn iter(&self) -> core::slice::Iter<'_, Clock> {
        self.clocks.iter()
    }

    /// The clocks, in declaration order, to step or control.
    #[inline]
    pub(crate) fn iter_mut(&mut self) -> core::slice::IterMut<'_, Clock> {
        self.clocks.iter_mut()
    }

    /// The clocks as a slice, in declaration order.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Clock] {
        &self.clocks
    }

    /// The clock whose alpha the render carries.
    #[inline]
    pub(crate) fn alpha_clock(&self) -> ClockId {
        self.alpha_clock
    }

    /// Makes `id` (a clock of this set) the alpha clock.
    pub(crate) fn set_alpha_clock(&mut self, id: ClockId) {
        self.alpha_clock = id;
        self.alpha_at = self.clocks.iter().position(|c| c.id() == id).unwrap_or(0);
    }

    /// The default alpha clock: the fastest clock (the shortest period, compared exactly),
    /// ties to the one declared first. `None` while the set is empty. The one home of the
    /// rule (see [`LoopConfig::alpha_clock`](crate::LoopConfig::alpha_clock)): the loop's
    /// construction and a removal of the alpha clock ask it; nothing on the step path does.
    pub(crate) fn fastest(&self) -> Option<ClockId> {
        let mut best: Option<&Clock> = None;
        for c in &self.clocks {
            if best.is_none_or(|b| c.rate().is_shorter_than(b.rate())) {
                best = Some(c);
            }
        }
        best.map(Clock::id)
    }

    /// Whether this set alone allows the fast path for several clocks: two or more, every one
    /// plain, none with refused ticks waiting, and nothing pending.
    #[inline]
    pub(crate) fn is_plain_several(&self) -> bool {
        self.clocks.len() >= 2
            && !self.pending
            && self.clocks.iter().all(|c| c.plain() && !c.spares())
    }

    /// Whether this set alone allows the fast path: one plain clock and nothing pending.
    #[inline]
    pub(crate) fn is_plain(&self) -> bool {
        self.clocks.len() == 1
            && self.clocks[0].plain()
            && !self.clocks[0].spares()
            && !self.pending
    }

    #[inline]
    pub(crate) fn clock_ref(&self, id: ClockId) -> Option<&Clock> {
        self.clocks.iter().find(|c| c.id() == id)
    }

    #[inline]
    pub(crate) fn alpha_clock_ref(&self) -> Option<&Clock> {
        self.clocks.get(self.alpha_at)
    }

    /// Where the alpha clock stands in declaration order.
    #[inline]
    pub(crate) fn alpha_index(&self) -> Option<usize> {
        (self.alpha_at < self.clocks.len()).then_some(self.alpha_at)
    }

    pub(crate) fn clock_id(&self, name: &str) -> Option<ClockId> {
        self.clocks
            .iter()
            .find(|c| c.config().name == name)
            .map(|c| c.id())
    }

    pub(crate) fn position(&self, clock: ClockRef<'_>) -> Result<usize, NoSuchClock> {
        match clock {
            ClockRef::Id(id) => self
                .clocks
                .iter()
                .position(|c| c.id() == id)
                .ok_or(NoSuchClock::Id(id)),
            ClockRef::Name(name) => self
                .clocks
                .iter()
                .position(|c| c.config().name == name)
                .ok_or_else(|| NoSuchClock::Name(Cow::Owned(name.into_owned()))),
        }
    }

    /// Appends a checked clock whose tick 0 starts at `origin`; `None` when ids ran out.
    pub(crate) fn push_clock(
        &mut self,
        config: ClockConfig,
        checked: Checked,
        origin: u64,
    ) -> Option<ClockId> {
        let id = ClockId(self.next_id);
        self.next_id = self.next_id.checked_add(1)?;
        self.clocks.push(Clock::new(id, config, checked, origin));
        Some(id)
    }

    /// Removes clock `i` and its unreported reports; if it drove the alpha, the fastest
    /// remaining clock does ([`ClockSet::fastest`]). Refused for the last clock.
    pub(crate) fn remove(&mut self, i: usize) -> Result<ClockId, RemoveClockError> {
        if self.clocks.len() == 1 {
            return Err(RemoveClockError::LastClock);
        }
        let id = self.clocks.remove(i).id();
        self.reports.retain(|r| r.clock() != id);
        let alpha = if id == self.alpha_clock {
            self.fastest().unwrap_or(self.clocks[0].id())
        } else {
            self.alpha_clock
        };
        // Its place moves too when an earlier clock goes.
        self.set_alpha_clock(alpha);
        Ok(id)
    }

    /// Clock `i`, about to have its grid moved by a control: the grid its latest step ran on
    /// is kept (input attribution of that step's ticks asks it), and the next step takes the
    /// general path, which lets it go.
    pub(crate) fn moving(&mut self, i: usize) -> &mut Clock {
        self.pending = true;
        let c = &mut self.clocks[i];
        c.keep_stepped_grid();
        c
    }

    /// Refuses tick `index` of clock `i` (see `LoopState::refuse`): the virtual time given up
    /// that the refusal undid (see `Clock::refuse`), `None` when it could not.
    pub(crate) fn refuse(&mut self, i: usize, index: u64) -> Option<u64> {
        let undone = self.clocks[i].refuse(index)?;
        // The next step spares the refused tick (see `Clock::spare`) on the general path.
        self.pending = true;
        Some(undone)
    }

    pub(crate) fn report(&mut self, report: Report) {
        self.pending = true;
        // Consecutive drops of one clock merge into one event.
        if let (
            Report::Dropped {
                clock,
                first,
                count,
            },
            Some(Report::Dropped {
                clock: c,
                first: f,
                count: n,
            }),
        ) = (report, self.reports.last_mut())
        {
            if *c == clock && f.saturating_add(*n) == first {
                *n = n.saturating_add(count);
                return;
            }
        }
        self.reports.push(report);
    }

    pub(crate) fn report_drop(&mut self, clock: ClockId, dropped: Option<(u64, u64)>) {
        if let Some((first, count)) = dropped {
            self.report(Report::Dropped {
                clock,
                first,
                count,
            });
        }
    }

    /// Gives the controls' reports to the step's events (moved with their list, swapped for
    /// the buffer's previous one, never copied), if any wait; nothing is pending after.
    #[inline]
    pub(crate) fn emit_reports<T>(&mut self, out: Sink<'_, T>) {
        if self.pending {
            // A control that reported nothing (a refusal, a cap) leaves the events empty.
            if !self.reports.is_empty() {
                out.take_reports(&mut self.reports);
            }
            self.pending = false;
        }
    }
}

impl Index<usize> for ClockSet {
    type Output = Clock;

    #[inline]
    fn index(&self, i: usize) -> &Clock {
        &self.clocks[i]
    }
}

impl IndexMut<usize> for ClockSet {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Clock {
        &mut self.clocks[i]
    }
}

impl<'a> IntoIterator for &'a ClockSet {
    type Item = &'a Clock;
    type IntoIter = core::slice::Iter<'a, Clock>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.clocks.iter()
    }
}

impl<'a> IntoIterator for &'a mut ClockSet {
    type Item = &'a mut Clock;
    type IntoIter = core::slice::IterMut<'a, Clock>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.clocks.iter_mut()
    }
}
