//! The virtual-time layer: virtual time since the start (whole ns and the exact fraction a
//! time scale leaves), the scale, pause, debug stepping and the controls of these not yet
//! reported. Only this module writes them; the fold moves virtual time through
//! [`Virtual::advance`] and friends, the controls through [`Virtual::set_paused`],
//! [`Virtual::set_scale`] and [`Virtual::request_steps`]. Its public face is
//! [`VirtualTimeMut`](crate::VirtualTimeMut).

use alloc::vec::Vec;

use crate::time::span::StepSpan;
use crate::time::sub_nanos::SubNanos;
use crate::values::event::Event;
use crate::values::id::ClockId;
use crate::values::rate::TimeScale;

/// A pause not yet reported (saved in the `pending_controls` bits).
pub(crate) const PENDING_PAUSED: u8 = 1;
/// A resume not yet reported.
pub(crate) const PENDING_RESUMED: u8 = 2;
/// A scale change not yet reported.
pub(crate) const PENDING_SCALE: u8 = 4;
/// Every bit this layer owns.
#[cfg(feature = "serde")]
pub(crate) const PENDING_VIRTUAL: u8 = PENDING_PAUSED | PENDING_RESUMED | PENDING_SCALE;

/// Virtual time as the loop keeps it: real time less pauses, scaled exactly.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Virtual {
    /// Virtual time since the start, in whole ns.
    now: u64,
    /// The exact fraction of a ns virtual time carries beyond `now`.
    rem: SubNanos,
    /// Virtual length of the last frame that advanced time: the *nearest* rule's estimate.
    last_frame: u64,
    paused: bool,
    scale: TimeScale,
    /// The scale the latest step used (a change back to it before the next step cancels out).
    reported_scale: TimeScale,
    /// Alpha-clock ticks still to run while paused (see `step/stepping.rs`); 0 unless paused.
    step_request: u64,
    /// `PENDING_*` bits: pause, resume and scale changes the next step reports.
    pending: u8,
    /// Virtual time in which clocks lost ticks to the max frame delta, in total: each step's
    /// largest `DiscardedTime::time`.
    discarded: u64,
    /// What the latest step that gave up a backlog counted into `discarded` (see
    /// [`Virtual::count_shed`]), so that a refusal takes back exactly that (see
    /// [`Virtual::undo_shed`]).
    shed: Shed,
}

/// The latest step that gave up a backlog after its updates (the overload bound), as the
/// loop's total counted it: the step added the largest of `before` and the `clocks`' times. A
/// refusal that undoes one clock's give-up sets its time to 0 and takes back what the largest
/// lost. Written only by a step that gave ticks up (rare), read only by a refusal that undid a
/// give-up, which is always of the latest step (only its updates can be refused), so an older
/// record is never read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Shed {
    /// The largest `DiscardedTime` of the step before its updates (the max frame delta's).
    pub(crate) before: u64,
    /// Each clock's give-up after the updates still in effect (0 once a refusal undid it).
    pub(crate) clocks: Vec<(ClockId, u64)>,
}

impl Shed {
    /// What the step counts into the loop's total: its largest `DiscardedTime` in effect.
    pub(crate) fn counted(&self) -> u64 {
        self.clocks
            .iter()
            .map(|&(_, time)| time)
            .fold(self.before, u64::max)
    }
}

/// The virtual layer as saved (feature `serde`): the fields of the save format, mapped here
/// so that the format's names stay what they were.
#[cfg(feature = "serde")]
#[derive(Clone, Debug)]
pub(crate) struct SavedVirtual<S = Shed> {
    pub(crate) virt: u64,
    pub(crate) virt_rem: SubNanos,
    pub(crate) last_frame_v: u64,
    pub(crate) paused: bool,
    pub(crate) scale: TimeScale,
    pub(crate) reported_scale: TimeScale,
    pub(crate) step_request: u64,
    /// Only the [`PENDING_VIRTUAL`] bits are kept.
    pub(crate) pending: u8,
    pub(crate) discarded: u64,
    /// What the latest step that gave a backlog up counted (`&Shed` when written).
    pub(crate) shed: S,
}

impl Virtual {
    /// Virtual time 0 at `scale`, paused or not (a loop's start).
    pub(crate) fn new(scale: TimeScale, paused: bool) -> Virtual {
        Virtual {
            now: 0,
            rem: SubNanos::new(scale),
            last_frame: 0,
            paused,
            scale,
            reported_scale: scale,
            step_request: 0,
            pending: 0,
            discarded: 0,
            shed: Shed::default(),
        }
    }

    /// A loaded layer; `None` if its fraction of a ns breaks the invariants for its scale.
    #[cfg(feature = "serde")]
    pub(crate) fn loaded(s: SavedVirtual) -> Option<Virtual> {
        s.virt_rem.is_valid_for(s.scale).then_some(Virtual {
            now: s.virt,
            rem: s.virt_rem,
            last_frame: s.last_frame_v,
            paused: s.paused,
            scale: s.scale,
            reported_scale: s.reported_scale,
            step_request: s.step_request,
            pending: s.pending & PENDING_VIRTUAL,
            discarded: s.discarded,
            shed: s.shed,
        })
    }

    /// The layer as saved.
    #[cfg(feature = "serde")]
    pub(crate) fn saved(&self) -> SavedVirtual<&Shed> {
        SavedVirtual {
            virt: self.now,
            virt_rem: self.rem,
            last_frame_v: self.last_frame,
            paused: self.paused,
            scale: self.scale,
            reported_scale: self.reported_scale,
            step_request: self.step_request,
            pending: self.pending,
            discarded: self.discarded,
            shed: &self.shed,
        }
    }

    /// Virtual time in which clocks lost ticks to the max frame delta, in total.
    #[inline]
    pub(crate) fn discarded(&self) -> u64 {
        self.discarded
    }

    /// Counts a step's discarded time: the largest `time` of its `DiscardedTime` events.
    pub(crate) fn add_discarded(&mut self, time: u64) {
        self.discarded = self.discarded.saturating_add(time);
    }

    /// Counts the give-ups of a step's overload bound (`clock`, `time` of each of its
    /// `DiscardedTime`s after the updates) into the total, which takes each step's largest
    /// `DiscardedTime`: the max frame delta's drops before the updates already counted
    /// theirs (the largest, `before`), so only what the largest give-up exceeds it by is
    /// added. Keeps what it counted for [`undo_shed`](Virtual::undo_shed). Rare: a step that
    /// gave ticks up.
    #[cold]
    #[inline(never)]
    pub(crate) fn count_shed(&mut self, before: u64, clocks: impl Iterator<Item = (ClockId, u64)>) {
        self.shed.before = before;
        self.shed.clocks.clear();
        self.shed.clocks.extend(clocks);
        self.add_discarded(self.shed.counted().saturating_sub(before));
    }

    /// A refusal undid `clock`'s give-up of the latest step (see `LoopState::refuse`): the
    /// step's count becomes the largest `DiscardedTime` still in effect, and the total takes
    /// back what it loses (nothing while a drop before the updates or another clock's
    /// give-up is as large).
    #[cold]
    #[inline(never)]
    pub(crate) fn undo_shed(&mut self, clock: ClockId) {
        let counted = self.shed.counted();
        if let Some(entry) = self.shed.clocks.iter_mut().find(|(c, _)| *c == clock) {
            entry.1 = 0;
        }
        let lost = counted - self.shed.counted();
        self.discarded = self.discarded.saturating_sub(lost);
    }

    /// Virtual time since the start, in whole ns (rounded down).
    #[inline]
    pub(crate) fn now(&self) -> u64 {
        self.now
    }

    /// Whether virtual time is paused.
    #[inline]
    pub(crate) fn is_paused(&self) -> bool {
        self.paused
    }

    /// The current time scale.
    #[inline]
    pub(crate) fn scale(&self) -> TimeScale {
        self.scale
    }

    /// Whether virtual time is real time less nothing: the plain mapping (running, at scale
    /// 1, with no fraction of a ns carried, kept in whole-ns units: see
    /// [`StepSpan::plain_mapping`]) and no pause or scale change to report (what the fast path
    /// needs).
    #[inline]
    pub(crate) fn is_plain(&self) -> bool {
        self.pending == 0 && (self.rem, self.scale, self.paused) == StepSpan::plain_mapping()
    }

    /// Whether a pause, resume or scale change waits to be reported.
    #[inline]
    pub(crate) fn has_pending(&self) -> bool {
        self.pending != 0
    }

    /// The virtual length of the last frame that advanced time (the *nearest* rule's estimate
    /// of the next one).
    #[inline]
    pub(crate) fn last_frame(&self) -> u64 {
        self.last_frame
    }

    /// Alpha-clock ticks a debug-stepping request still has to run.
    #[inline]
    pub(crate) fn step_request(&self) -> u64 {
        self.step_request
    }

    /// The span a step starts from at real time `real0` (see `time/span.rs`).
    #[inline(always)]
    pub(crate) fn span_from(&self, real0: u64) -> StepSpan {
        StepSpan::mapped(real0, self.now, (self.rem, self.scale, self.paused))
    }

    /// Moves virtual time by `real` ns of real time, scaled exactly (the fraction of a ns is
    /// carried); saturates at `u64::MAX`.
    #[inline]
    pub(crate) fn advance(&mut self, real: u64) {
        let dv = self.rem.advance(self.scale, real);
        self.now = self.now.saturating_add(dv);
    }

    /// [`advance`](Self::advance) when [`is_plain`](Self::is_plain): the virtual advance is
    /// the real one.
    #[inline]
    pub(crate) fn advance_unscaled(&mut self, real: u64) {
        self.now = self.now.saturating_add(real);
    }

    /// Records the frame that just moved virtual time from `before` to now as the estimate of
    /// the next one.
    #[inline]
    pub(crate) fn record_frame(&mut self, before: u64) {
        self.last_frame = self.now - before;
    }

    /// Moves virtual time forward to `target` whole ns, if it is behind (debug stepping; the
    /// fraction of a ns is kept).
    #[inline]
    pub(crate) fn jump_to(&mut self, target: u64) {
        self.now = self.now.max(target);
    }

    /// Real ns it takes virtual time to advance `virt` whole ns at the current scale, given
    /// the fraction carried; `None` at a scale of 0.
    #[inline]
    pub(crate) fn real_needed(&self, virt: u64) -> Option<u64> {
        self.rem.real_needed(self.scale, virt)
    }

    /// Pauses or resumes; a change undone before the next step reports nothing. Resuming
    /// cancels a debug-stepping request not taken yet.
    pub(crate) fn set_paused(&mut self, paused: bool) {
        if paused == self.paused {
            return;
        }
        self.paused = paused;
        self.step_request = 0;
        let (flag, opposite) = if paused {
            (PENDING_PAUSED, PENDING_RESUMED)
        } else {
            (PENDING_RESUMED, PENDING_PAUSED)
        };
        // Undone before the next step: no step saw the change, so nothing is reported.
        if self.pending & opposite != 0 {
            self.pending &= !opposite;
        } else {
            self.pending |= flag;
        }
    }

    /// Changes the scale for all real time after the latest `now`, keeping the carried
    /// fraction of a ns exactly (see [`SubNanos`]).
    pub(crate) fn set_scale(&mut self, scale: TimeScale) {
        if scale == self.scale {
            return;
        }
        self.rem.rescale(scale);
        self.scale = scale;
        if scale == self.reported_scale {
            self.pending &= !PENDING_SCALE;
        } else {
            self.pending |= PENDING_SCALE;
        }
    }

    /// Asks the next step to run `n` more alpha-clock ticks (pausing first); `n = 0` cancels.
    pub(crate) fn request_steps(&mut self, n: u64) {
        if n == 0 {
            self.step_request = 0;
            return;
        }
        self.set_paused(true);
        self.step_request = self.step_request.saturating_add(n);
    }

    /// Drops what is left of a debug-stepping request (the alpha clock ended or is gone).
    #[inline]
    pub(crate) fn cancel_steps(&mut self) {
        self.step_request = 0;
    }

    /// A stepping step ran `n` of the requested ticks.
    #[inline]
    pub(crate) fn steps_taken(&mut self, n: u64) {
        self.step_request = self.step_request.saturating_sub(n);
    }

    /// Reports the pause, resume and scale change since the latest step (in that order).
    pub(crate) fn emit_controls<T>(&mut self, out: &mut impl Extend<Event<T>>) {
        if self.pending & PENDING_PAUSED != 0 {
            out.extend(Some(Event::Paused));
        }
        if self.pending & PENDING_RESUMED != 0 {
            out.extend(Some(Event::Resumed));
        }
        if self.pending & PENDING_SCALE != 0 {
            out.extend(Some(Event::ScaleChanged(self.scale)));
            self.reported_scale = self.scale;
        }
        self.pending = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Events;
    use crate::values::time::Nanos;

    fn s(num: u32, den: u32) -> TimeScale {
        TimeScale::ratio(num, den).unwrap()
    }

    #[test]
    fn a_control_undone_before_a_step_is_not_reported() {
        let mut v = Virtual::new(TimeScale::ONE, false);
        v.set_paused(true);
        v.set_paused(false);
        v.set_scale(s(1, 2));
        v.set_scale(TimeScale::ONE);
        assert!(!v.has_pending() && v.is_plain());
        v.set_scale(s(1, 2));
        let mut ev = Events::<Nanos>::new();
        let mut pool = crate::events::few::Pool::for_clocks(core::iter::empty());
        v.emit_controls(&mut ev.sink(&mut pool));
        assert_eq!(
            ev.iter().collect::<alloc::vec::Vec<_>>(),
            [Event::ScaleChanged(s(1, 2))]
        );
        assert!(!v.has_pending());
    }

    #[test]
    fn steps_pause_and_resuming_cancels_them() {
        let mut v = Virtual::new(TimeScale::ONE, false);
        v.request_steps(2);
        v.request_steps(3);
        assert!(v.is_paused());
        assert_eq!(v.step_request(), 5);
        v.steps_taken(4);
        assert_eq!(v.step_request(), 1);
        v.set_paused(false);
        assert_eq!(v.step_request(), 0);
    }

    #[test]
    fn a_third_scale_advances_exactly() {
        let mut v = Virtual::new(s(1, 3), false);
        for _ in 0..3 {
            v.advance(1);
        }
        assert_eq!(v.now(), 1);
        let before = v.now();
        v.advance(7);
        v.record_frame(before);
        assert_eq!((v.now(), v.last_frame()), (3, 2));
        // One ns more of virtual time needs 2 real ns (1/3 is carried).
        assert_eq!(v.real_needed(1), Some(2));
        v.jump_to(2);
        assert_eq!(v.now(), 3);
    }
}
