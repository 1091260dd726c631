//! The lists a step's description is made of, cheap to create (nothing but markers is written)
//! and to clear (a cleared list writes its length and keeps any heap capacity):
//!
//! * [`Few`]: usually zero or one item (the runs: one clock that updated), inline, more in a
//!   spill list (a `SmallVec` that holds a few more inline);
//! * [`Rare`]: the rare events, those before the updates then those after them, packed into
//!   one list of words ([`codec`]) with inline room for every event a step of one to four
//!   clocks makes.

use alloc::vec::Vec;
use smallvec::SmallVec;

use crate::event::Event;
use crate::report::Report;

/// Where a [`Few`] keeps its items once it has two or more.
pub(crate) trait Spill<E>: Default {
    fn push(&mut self, e: E);
    fn as_slice(&self) -> &[E];
    fn clear(&mut self);
    /// Whether the list has ever needed the heap.
    fn spilled(&self) -> bool;
}

impl<E, const N: usize> Spill<E> for SmallVec<[E; N]> {
    #[inline]
    fn push(&mut self, e: E) {
        SmallVec::push(self, e);
    }
    #[inline]
    fn as_slice(&self) -> &[E] {
        self
    }
    #[inline]
    fn clear(&mut self) {
        SmallVec::clear(self);
    }
    #[inline]
    fn spilled(&self) -> bool {
        SmallVec::spilled(self)
    }
}

/// A list of usually zero or one item: the item inline, more in a spill list.
#[derive(Clone, Debug)]
pub(crate) struct Few<E, S> {
    /// The only item, while `len` is 1 (left behind otherwise).
    one: Option<E>,
    /// Every item, while `len` is 2 or more (left behind otherwise, and emptied only when it
    /// is needed again: clearing the list writes nothing but `len`).
    more: S,
    len: u32,
}

impl<E, S: Spill<E>> Few<E, S> {
    /// An empty list.
    #[inline]
    pub(crate) fn new() -> Few<E, S> {
        Few {
            one: None,
            more: S::default(),
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, e: E) {
        if self.len == 0 {
            self.one = Some(e);
            self.len = 1;
        } else {
            self.push_more(e);
        }
    }

    /// [`push`](Self::push) of the item `f` makes, made where it goes: into the list's own
    /// slot when it is empty (no copy through the stack, as the fast path's run would take).
    #[inline(always)]
    pub(crate) fn push_with(&mut self, f: impl FnOnce() -> E) {
        if self.len == 0 {
            self.one = Some(f());
            self.len = 1;
        } else {
            self.push_more(f());
        }
    }

    /// [`push`](Self::push) onto one item or more: the items go to `more`.
    fn push_more(&mut self, e: E) {
        if self.len == 1 {
            self.more.clear();
            if let Some(first) = self.one.take() {
                self.more.push(first);
            }
        }
        self.more.push(e);
        self.len = self.len.saturating_add(1);
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[E] {
        match self.len {
            0 => &[],
            1 => self.one.as_slice(),
            _ => self.more.as_slice(),
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Empties the list, keeping the heap capacity.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Whether the list has ever needed the heap.
    #[inline]
    pub(crate) fn spilled(&self) -> bool {
        self.more.spilled()
    }
}

impl<E, S: Spill<E>> Extend<E> for Few<E, S> {
    fn extend<I: IntoIterator<Item = E>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

/// Words of inline room before the updates: the events before the updates of a step of one
/// to four clocks never need more than 27 (see [`INLINE_EVENTS`](crate::INLINE_EVENTS)): a
/// resume (1 word) and a scale change (2), then per clock discarded time (4) and the slots it
/// then missed (2, their first tick following the discarded ones), or a backwards clock (2)
/// and per clock missed slots (3). Exactly that: the word a 28th would take went to
/// [`Render::delta`](crate::Render::delta), keeping `Events<Nanos>` at 896 bytes.
pub(crate) const BEFORE_WORDS: usize = 27;

/// Words of inline room after the updates: per clock a deferral or the end of time (2 each).
/// [`Rare`] holds `BEFORE_WORDS + AFTER_WORDS` words inline.
pub(crate) const AFTER_WORDS: usize = 8;

/// Bits of [`Words::meta`] for a count of words.
const LEN_BITS: u32 = 24;
const LEN_MASK: u64 = (1 << LEN_BITS) - 1;

/// A list of rare events packed into words (see [`codec`]), emptied lazily: clearing writes
/// one word (the length and flags), the words are dropped when the next event is pushed.
#[derive(Clone, Debug)]
#[repr(C)]
pub(crate) struct Words<const N: usize> {
    /// The words in use (low 24 bits), those of them after the updates (the next 24),
    /// [`Rare`]'s flags (the next 8) and where its moved reports go (the top 8): 0 when the
    /// list is empty.
    meta: u64,
    words: SmallVec<[u64; N]>,
}

impl<const N: usize> Words<N> {
    #[inline]
    fn new() -> Words<N> {
        Words {
            words: SmallVec::new(),
            meta: 0,
        }
    }

    #[inline]
    fn len(&self) -> u32 {
        (self.meta & LEN_MASK) as u32
    }

    #[inline]
    fn after_len(&self) -> u32 {
        ((self.meta >> LEN_BITS) & LEN_MASK) as u32
    }

    #[inline]
    fn flags(&self) -> u8 {
        (self.meta >> 48) as u8
    }

    #[inline]
    fn add_flags(&mut self, flags: u8) {
        self.meta |= u64::from(flags) << 48;
    }

    #[inline]
    fn mark(&self) -> u16 {
        (self.meta >> 56) as u16
    }

    /// Empties the list and its flags.
    #[inline]
    fn clear(&mut self) {
        self.meta = 0;
    }

    /// The words in use.
    #[inline]
    fn as_slice(&self) -> &[u64] {
        if self.len() == 0 { &[] } else { &self.words }
    }

    /// Appends `event` (never an update, a render or a sleep, which have no words), after the
    /// updates or before them (no event before the updates follows one after them).
    fn push<T>(&mut self, event: &Event<T>, after: bool) {
        let before = self.as_slice();
        let before = &before[..before.len().saturating_sub(self.after_len() as usize)];
        let Some((words, n)) = codec::encode(event, before) else {
            return;
        };
        if self.len() == 0 {
            self.words.clear();
        }
        self.words.extend_from_slice(&words[..n]);
        let len = (self.words.len() as u64).min(LEN_MASK);
        let after_len = if after {
            (u64::from(self.after_len()) + n as u64).min(LEN_MASK)
        } else {
            u64::from(self.after_len())
        };
        self.meta = self.meta & !(LEN_MASK | LEN_MASK << LEN_BITS) | len | after_len << LEN_BITS;
    }
}

/// The rare events of a step, those before the updates then those after them: packed in words,
/// but for a sleep (always the last event before the updates) and the clock controls' reports
/// when they are moved here with their list.
#[derive(Clone, Debug)]
pub(crate) struct Rare<T> {
    /// The words, with the flags [`SLEEP`] and [`MOVED`] (cleared with the words, so the
    /// fields below are read only while their flag is set) and where moved reports go.
    words: Words<{ BEFORE_WORDS + AFTER_WORDS }>,
    sleep: Option<T>,
    reports: Vec<Report>,
}

/// The step sleeps until [`Rare::sleep`] after the other events before the updates.
const SLEEP: u8 = 1;
/// The reports in [`Rare::reports`] come before the word at the mark.
const MOVED: u8 = 2;

/// Where an iteration over the events before the updates stands.
#[derive(Copy, Clone, Debug)]
pub(crate) struct BeforeCursor {
    word: u32,
    report: u32,
    slept: bool,
    /// Events may be left (checked once per event while iterating: usually `false` at once).
    pub(crate) live: bool,
}

impl<T> Rare<T> {
    #[inline]
    pub(crate) fn new() -> Rare<T> {
        Rare {
            words: Words::new(),
            sleep: None,
            reports: Vec::new(),
        }
    }

    /// Empties the list (writes its length and flags).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.words.clear();
    }

    /// Whether there is any rare event (before the updates or after them).
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.words.meta != 0
    }

    /// A cursor before the first event.
    #[inline]
    pub(crate) fn start(&self) -> BeforeCursor {
        BeforeCursor {
            word: 0,
            report: 0,
            slept: false,
            live: self.words.len() != self.words.after_len() || self.words.flags() != 0,
        }
    }

    #[inline(never)]
    pub(crate) fn push(&mut self, event: Event<T>) {
        if let Event::Sleep { until } = event {
            self.sleep = Some(until);
            self.words.add_flags(SLEEP);
        } else {
            self.words.push(&event, false);
        }
    }

    /// Appends an event after the updates.
    #[inline(never)]
    pub(crate) fn push_after(&mut self, event: Event<T>) {
        self.words.push(&event, true);
    }

    /// Words after the updates: 0 when there is no event after them.
    #[inline]
    pub(crate) fn after_len(&self) -> usize {
        self.words.after_len() as usize
    }

    /// The event after the updates at word `at` of them, and its length in words.
    #[inline]
    pub(crate) fn after_get<U>(&self, at: usize) -> Option<(Event<U>, u32)> {
        let words = self.words.as_slice();
        let start = words.len().saturating_sub(self.after_len());
        codec::decode(&words[start..], at)
    }

    /// The events after the updates from their word `at` on.
    pub(crate) fn after_iter<U>(&self, mut at: usize) -> impl Iterator<Item = Event<U>> + '_ {
        core::iter::from_fn(move || {
            let (e, n) = self.after_get(at)?;
            at += n as usize;
            Some(e)
        })
    }

    /// Whether `reports` fit in the inline room, leaving `keep` words free.
    pub(crate) fn fits(&self, reports: &[Report], keep: usize) -> bool {
        let need: usize = reports.iter().map(|r| codec::report_words(*r)).sum();
        self.words.len() as usize + need + keep <= BEFORE_WORDS
    }

    /// Moves `reports` here with their list (no copy, no allocation): they come after the
    /// events pushed so far. `reports` is left with this list's previous (emptied) one.
    pub(crate) fn take_reports(&mut self, reports: &mut Vec<Report>) {
        self.reports.clear();
        core::mem::swap(&mut self.reports, reports);
        let mark = u8::try_from(self.words.len()).unwrap_or(u8::MAX);
        self.words.meta = self.words.meta & !(u64::from(u8::MAX) << 56) | u64::from(mark) << 56;
        self.words.add_flags(MOVED);
    }

    /// Whether the list has ever needed the heap for its words.
    pub(crate) fn spilled(&self) -> bool {
        self.words.words.spilled()
    }

    /// The next event after `at`, with `sleep` turning the sleep's time into `U` (a copy or a
    /// reference).
    #[inline(never)]
    pub(crate) fn next<'a, U>(
        &'a self,
        at: &mut BeforeCursor,
        sleep: impl FnOnce(&'a T) -> U,
    ) -> Option<Event<U>> {
        let words = self.words.as_slice();
        let words = &words[..words.len().saturating_sub(self.words.after_len() as usize)];
        if self.words.flags() & MOVED != 0 && at.word == u32::from(self.words.mark()) {
            if let Some(r) = self.reports.get(at.report as usize) {
                at.report = at.report.saturating_add(1);
                return Some(r.event());
            }
        }
        if let Some((e, n)) = codec::decode(words, at.word as usize) {
            at.word = at.word.saturating_add(n);
            return Some(e);
        }
        if self.words.flags() & SLEEP != 0 && !at.slept {
            at.slept = true;
            if let Some(t) = &self.sleep {
                return Some(Event::Sleep { until: sleep(t) });
            }
        }
        at.live = false;
        None
    }

    /// The events from `at` on, by reference.
    pub(crate) fn iter(&self, mut at: BeforeCursor) -> impl Iterator<Item = Event<&T>> + '_ {
        core::iter::from_fn(move || {
            if at.live {
                self.next(&mut at, |t| t)
            } else {
                None
            }
        })
    }

    /// How many events are left from `at` on.
    pub(crate) fn remaining(&self, at: BeforeCursor) -> usize {
        self.iter(at).count()
    }
}

impl<T> Extend<Event<T>> for Rare<T> {
    fn extend<I: IntoIterator<Item = Event<T>>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

/// The rare events as words: a header (the kind in the low byte, the clock above it), then
/// the event's numbers, one word each.
pub(crate) mod codec {
    use crate::event::{DropReason, Event};
    use crate::id::ClockId;
    use crate::rate::{Period, TimeScale};
    use crate::report::Report;
    use crate::time::Nanos;

    const PAUSED: u64 = 1;
    const RESUMED: u64 = 2;
    const SCALE: u64 = 3;
    const BACKWARDS: u64 = 4;
    const DISCARDED_TIME: u64 = 5;
    const SLOT_MISSED: u64 = 6;
    /// Missed slots whose first tick follows the same clock's discarded time in this list.
    const SLOT_MISSED_NEXT: u64 = 7;
    const DISCARDED_TICKS: u64 = 8;
    const RATE: u64 = 9;
    const DEFERRED: u64 = 10;
    const END_OF_TIME: u64 = 11;

    /// How many words an event of `kind` takes (0: not a kind).
    fn size(kind: u64) -> usize {
        match kind {
            PAUSED | RESUMED => 1,
            SCALE | BACKWARDS | SLOT_MISSED_NEXT | DEFERRED | END_OF_TIME => 2,
            SLOT_MISSED | DISCARDED_TICKS => 3,
            DISCARDED_TIME | RATE => 4,
            _ => 0,
        }
    }

    fn header(kind: u64, clock: ClockId) -> u64 {
        kind | u64::from(clock.0) << 8
    }

    /// The tick after the last ticks discarded for `clock` in `words`, if any.
    fn after_discarded(words: &[u64], clock: ClockId) -> Option<u64> {
        let mut at = 0;
        let mut next = None;
        while let Some(&h) = words.get(at) {
            let n = size(h & 0xff);
            if n == 0 {
                break;
            }
            if h == header(DISCARDED_TIME, clock) {
                let first = words.get(at + 2).copied().unwrap_or(0);
                let ticks = words.get(at + 3).copied().unwrap_or(0);
                next = first.checked_add(ticks);
            }
            at += n;
        }
        next
    }

    /// `event` as words, after the words `prior` of the same list; `None` for the events that
    /// have none (updates, renders, sleeps).
    pub(crate) fn encode<T>(event: &Event<T>, prior: &[u64]) -> Option<([u64; 4], usize)> {
        let words = match *event {
            Event::Paused => [PAUSED, 0, 0, 0],
            Event::Resumed => [RESUMED, 0, 0, 0],
            Event::ScaleChanged(s) => {
                let (num, den) = s.as_ratio();
                [SCALE, u64::from(num) << 32 | u64::from(den), 0, 0]
            }
            Event::TimeBackwards { by } => [BACKWARDS, by.0, 0, 0],
            Event::DiscardedTime {
                clock,
                time,
                first,
                ticks,
            } => [header(DISCARDED_TIME, clock), time.0, first, ticks],
            Event::DroppedTicks {
                clock,
                first,
                count,
                reason: DropReason::SlotMissed,
            } => {
                if after_discarded(prior, clock) == Some(first) {
                    [header(SLOT_MISSED_NEXT, clock), count, 0, 0]
                } else {
                    [header(SLOT_MISSED, clock), first, count, 0]
                }
            }
            Event::DroppedTicks {
                clock,
                first,
                count,
                reason: DropReason::Discarded,
            } => [header(DISCARDED_TICKS, clock), first, count, 0],
            Event::RateChanged {
                clock,
                period,
                from_tick,
            } => {
                let (num, den) = period.as_nanos_ratio();
                [header(RATE, clock), num, den, from_tick]
            }
            Event::Deferred { clock, ticks } => [header(DEFERRED, clock), ticks, 0, 0],
            Event::EndOfTime { clock, next_tick } => [header(END_OF_TIME, clock), next_tick, 0, 0],
            Event::Sleep { .. } | Event::Update(_) | Event::Render(_) => return None,
        };
        Some((words, size(words[0] & 0xff)))
    }

    /// The event at word `at` of `words` and its length in words; `None` past the end.
    #[inline(never)]
    pub(crate) fn decode<U>(words: &[u64], at: usize) -> Option<(Event<U>, u32)> {
        let h = *words.get(at)?;
        let kind = h & 0xff;
        let n = size(kind);
        let w = words.get(at..at.checked_add(n)?)?;
        let clock = ClockId((h >> 8) as u16);
        let word = |i: usize| w.get(i).copied().unwrap_or(0);
        let event = match kind {
            PAUSED => Event::Paused,
            RESUMED => Event::Resumed,
            SCALE => {
                let ratio = word(1);
                Event::ScaleChanged(TimeScale::ratio((ratio >> 32) as u32, ratio as u32).ok()?)
            }
            BACKWARDS => Event::TimeBackwards { by: Nanos(word(1)) },
            DISCARDED_TIME => Event::DiscardedTime {
                clock,
                time: Nanos(word(1)),
                first: word(2),
                ticks: word(3),
            },
            SLOT_MISSED | SLOT_MISSED_NEXT => {
                let (first, count) = if kind == SLOT_MISSED {
                    (word(1), word(2))
                } else {
                    (after_discarded(&words[..at], clock)?, word(1))
                };
                Event::DroppedTicks {
                    clock,
                    first,
                    count,
                    reason: DropReason::SlotMissed,
                }
            }
            DISCARDED_TICKS => Event::DroppedTicks {
                clock,
                first: word(1),
                count: word(2),
                reason: DropReason::Discarded,
            },
            RATE => Event::RateChanged {
                clock,
                period: Period::from_ns_ratio(u128::from(word(1)), u128::from(word(2))).ok()?,
                from_tick: word(3),
            },
            DEFERRED => Event::Deferred {
                clock,
                ticks: word(1),
            },
            END_OF_TIME => Event::EndOfTime {
                clock,
                next_tick: word(1),
            },
            _ => return None,
        };
        Some((event, n as u32))
    }

    /// How many words `report` takes as an event.
    pub(crate) fn report_words(report: Report) -> usize {
        match report {
            Report::Rate { .. } => size(RATE),
            Report::Dropped { .. } => size(DISCARDED_TICKS),
        }
    }
}
