//! The out-of-line parts of a step's description, reused from step to step so that stepping
//! never allocates once a loop has been built:
//!
//! * [`Runs`]: usually zero or one run (one clock updated), inline in the events; two or more
//!   in a [`RunsBuf`] (with the merged order of their ticks);
//! * [`Rare`]: the rare events, those before the updates then those after them, packed into
//!   one list of words ([`codec`]) in a [`RareBuf`].
//!
//! The buffers are shared (`Arc`) between the state's [`Pool`] and the events of the latest
//! step that used them. A step takes a buffer from the pool only when it writes to it (a
//! second run, a rare event: see [`Sink`]), so the common step of one clock with nothing rare
//! touches no buffer at all. If the shell still holds the events that last used the buffer,
//! the step takes a new one (the only allocation); else it clears the buffer and fills it
//! again. At the end of the step ([`Pool::settle`]) the buffer is shared with the pool.

use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::events::report::Report;
use crate::events::walk::{self, UNNOTED};
use crate::grid::Run;
use crate::values::event::Event;

/// Bits of [`RareBuf::meta`] for a count of words.
const LEN_BITS: u32 = 24;
const LEN_MASK: u64 = (1 << LEN_BITS) - 1;

/// The rare events of a step, packed into words (see [`codec`]): those before the updates,
/// then those after them; a sleep (always the last event before the updates) and the clock
/// controls' reports (moved here with their list, never copied) beside the words.
#[derive(Clone, Debug)]
pub(crate) struct RareBuf<T> {
    /// The words in use (low 24 bits), those of them after the updates (the next 24), the
    /// flags [`SLEEP`] and [`MOVED`] (the next 8) and where the moved reports go (the top 8).
    meta: u64,
    words: Vec<u64>,
    sleep: Option<T>,
    reports: Vec<Report>,
}

/// The step sleeps until [`RareBuf::sleep`] after the other events before the updates.
const SLEEP: u8 = 1;
/// The reports in [`RareBuf::reports`] come before the word at the mark.
const MOVED: u8 = 2;

impl<T> RareBuf<T> {
    fn with_capacity(words: usize, reports: usize) -> RareBuf<T> {
        RareBuf {
            meta: 0,
            words: Vec::with_capacity(words),
            sleep: None,
            reports: Vec::with_capacity(reports),
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

    fn clear(&mut self) {
        self.meta = 0;
        self.words.clear();
    }

    /// The words in use.
    #[inline]
    fn as_slice(&self) -> &[u64] {
        self.words.get(..self.len() as usize).unwrap_or(&[])
    }

    /// The words before the updates.
    #[inline]
    fn before_words(&self) -> &[u64] {
        let words = self.as_slice();
        &words[..words.len().saturating_sub(self.after_len() as usize)]
    }

    /// Appends `event` (never an update, a render or a sleep, which have no words), after the
    /// updates or before them (no event before the updates follows one after them).
    fn push<U>(&mut self, event: &Event<U>, after: bool) {
        // Every step pushes the events before the updates first: one pushed after those
        // that follow them would be read as some of them (issue 36's garbled stream).
        debug_assert!(
            after || self.after_len() == 0,
            "an event before the updates pushed after those after them"
        );
        let Some((words, n)) = codec::encode(event, self.before_words()) else {
            return;
        };
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

/// The buffer `mine` (the events' handle) holds for this step's writes: on the step's first
/// write, the pool's (`pool`, taken from it, emptied with `clear`), or a new one (`make`) if
/// the pool has none or the shell still holds events that share it. Always `Some`: the step's
/// events alone hold the buffer until the step ends (see [`Pool::settle`]).
#[inline]
fn acquire<'a, B>(
    mine: &'a mut Option<Arc<B>>,
    pool: &mut Option<Arc<B>>,
    make: impl FnOnce() -> B,
    clear: impl FnOnce(&mut B),
) -> Option<&'a mut B> {
    if mine.is_none() {
        *mine = Some(match pool.take() {
            Some(mut b) => match Arc::get_mut(&mut b) {
                Some(buf) => {
                    clear(buf);
                    b
                }
                None => Arc::new(make()),
            },
            None => Arc::new(make()),
        });
    }
    mine.as_mut().and_then(Arc::get_mut)
}

/// The rare events of a step: a handle on the [`RareBuf`] that holds them, `None` while the
/// step has none (the common case: such a step never touches a buffer).
#[derive(Clone, Debug)]
pub(crate) struct Rare<T> {
    buf: Option<Arc<RareBuf<T>>>,
}

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
        Rare { buf: None }
    }

    /// Empties the list, letting go of its buffer.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.buf = None;
    }

    /// The address of the buffer the list holds, 0 for none (see [`held`]).
    #[inline(always)]
    fn addr(&self) -> usize {
        addr(self.buf.as_ref())
    }

    /// A cursor before the first event.
    #[inline]
    pub(crate) fn start(&self) -> BeforeCursor {
        BeforeCursor {
            word: 0,
            report: 0,
            slept: false,
            live: self
                .buf
                .as_deref()
                .is_some_and(|b| b.len() != b.after_len() || b.flags() != 0),
        }
    }
}

/// Where a step writes its rare events: the events' handle, and the state's pool it takes a
/// buffer from at the first write (see [`acquire`]).
pub(crate) struct Sink<'a, T> {
    rare: &'a mut Rare<T>,
    pool: &'a mut Pool<T>,
}

impl<'a, T> Sink<'a, T> {
    #[inline(always)]
    pub(crate) fn new(rare: &'a mut Rare<T>, pool: &'a mut Pool<T>) -> Sink<'a, T> {
        Sink { rare, pool }
    }

    /// The same sink for one more push, keeping this one (a rule that reports two events).
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> Sink<'_, T> {
        Sink::new(&mut *self.rare, &mut *self.pool)
    }

    /// The buffer to write to (see [`acquire`]).
    fn buf(self) -> Option<&'a mut RareBuf<T>> {
        let [_, _, words, reports] = self.pool.room;
        acquire(
            &mut self.rare.buf,
            &mut self.pool.rare,
            || RareBuf::with_capacity(words, reports),
            RareBuf::clear,
        )
    }

    /// Appends an event before the updates. (By value: the sink stays in registers.)
    #[inline(never)]
    pub(crate) fn push(self, event: Event<T>) {
        let Some(b) = self.buf() else { return };
        if let Event::Sleep { until } = event {
            b.sleep = Some(until);
            b.add_flags(SLEEP);
        } else {
            b.push(&event, false);
        }
    }

    /// Appends an event after the updates.
    #[inline(never)]
    pub(crate) fn push_after(self, event: Event<T>) {
        if let Some(b) = self.buf() {
            b.push(&event, true);
        }
    }

    /// Moves `reports` here with their list (no copy, no allocation): they come after the
    /// events pushed so far. `reports` is left with the buffer's previous (emptied) list.
    pub(crate) fn take_reports(self, reports: &mut Vec<Report>) {
        let Some(b) = self.buf() else { return };
        b.reports.clear();
        core::mem::swap(&mut b.reports, reports);
        let mark = u8::try_from(b.len()).unwrap_or(u8::MAX);
        b.meta = b.meta & !(u64::from(u8::MAX) << 56) | u64::from(mark) << 56;
        b.add_flags(MOVED);
    }
}

impl<T> Extend<Event<T>> for Sink<'_, T> {
    fn extend<I: IntoIterator<Item = Event<T>>>(&mut self, iter: I) {
        for e in iter {
            Sink::new(&mut *self.rare, &mut *self.pool).push(e);
        }
    }
}

impl<T> Rare<T> {
    /// Words after the updates: 0 when there is no event after them.
    #[inline]
    pub(crate) fn after_len(&self) -> usize {
        self.buf.as_deref().map_or(0, |b| b.after_len() as usize)
    }

    /// The event after the updates at word `at` of them, and its length in words.
    #[inline]
    pub(crate) fn after_get<U>(&self, at: usize) -> Option<(Event<U>, u32)> {
        let b = self.buf.as_deref()?;
        let words = b.as_slice();
        let start = words.len().saturating_sub(b.after_len() as usize);
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

    /// The next event after `at`, with `sleep` turning the sleep's time into `U` (a copy or a
    /// reference).
    #[inline(never)]
    pub(crate) fn next<'a, U>(
        &'a self,
        at: &mut BeforeCursor,
        sleep: impl FnOnce(&'a T) -> U,
    ) -> Option<Event<U>> {
        let Some(b) = self.buf.as_deref() else {
            at.live = false;
            return None;
        };
        let words = b.before_words();
        if b.flags() & MOVED != 0 && at.word == u32::from(b.mark()) {
            if let Some(r) = b.reports.get(at.report as usize) {
                at.report = at.report.saturating_add(1);
                return Some(r.event());
            }
        }
        if let Some((e, n)) = codec::decode(words, at.word as usize) {
            at.word = at.word.saturating_add(n);
            return Some(e);
        }
        if b.flags() & SLEEP != 0 && !at.slept {
            at.slept = true;
            if let Some(t) = &b.sleep {
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

/// The address of a shared buffer, 0 for none: what [`held`] ors.
#[inline(always)]
fn addr<B>(buf: Option<&Arc<B>>) -> usize {
    buf.map_or(0, |b| Arc::as_ptr(b).cast::<u8>() as usize)
}

/// Whether `runs` or `rare` holds a buffer: one look at both handles' addresses (or'ed),
/// where asking each took two.
#[inline(always)]
pub(crate) fn held<T>(runs: &Runs, rare: &Rare<T>) -> bool {
    runs.addr() | rare.addr() != 0
}

/// The runs of a step with two or more, and the merged order of their ticks (see
/// [`walk::order`]).
#[derive(Clone, Debug)]
pub(crate) struct RunsBuf {
    pub(crate) runs: Vec<Run>,
    /// Per tick in due order, its due time and its place: its run's place (high 32 bits) and
    /// its place in the run.
    pub(crate) order: Vec<(u64, u64)>,
}

impl RunsBuf {
    fn with_capacity(runs: usize, order: usize) -> RunsBuf {
        RunsBuf {
            runs: Vec::with_capacity(runs),
            order: Vec::with_capacity(order),
        }
    }

    fn clear(&mut self) {
        self.runs.clear();
        self.order.clear();
    }
}

/// The runs of one step, in the clocks' declaration order: one inline, two or more in a
/// [`RunsBuf`].
#[derive(Clone, Debug)]
pub(crate) struct Runs {
    /// The only run, while `len` is 1 (left behind otherwise).
    one: Option<Run>,
    buf: Option<Arc<RunsBuf>>,
    len: u32,
}

impl Runs {
    #[inline]
    pub(crate) fn new() -> Runs {
        Runs {
            one: None,
            buf: None,
            len: 0,
        }
    }

    /// Appends `run`: inline when the list is empty, else into a buffer taken from `pool`.
    /// Its first tick's due time is not noted (see [`UNNOTED`]).
    #[inline]
    pub(crate) fn push<T>(&mut self, run: Run, pool: &mut Pool<T>) {
        if self.len == 0 {
            self.one = Some(run);
            self.len = 1;
            pool.first_due = UNNOTED;
        } else {
            self.push_more(run, UNNOTED, pool);
        }
    }

    /// [`push`](Self::push) of the run `f` makes, made where it goes: into the inline slot
    /// (no copy through the stack). Only the fast path's lone clock pushes this way, as the
    /// step's only run, whose due time no merge asks for: nothing is noted.
    #[inline(always)]
    pub(crate) fn push_with<T>(&mut self, f: impl FnOnce() -> Run, pool: &mut Pool<T>) {
        if self.len == 0 {
            self.one = Some(f());
            self.len = 1;
        } else {
            self.push_more(f(), UNNOTED, pool);
        }
    }

    /// [`push`](Self::push) inlined, for the general path, where a step of several clocks
    /// pushes several runs (a call each cost more than the push), noting the run's first
    /// tick's due time `due` (the clock's, before it fired), which the merge then need not
    /// work out.
    #[inline(always)]
    pub(crate) fn push_inline<T>(&mut self, run: Run, due: u64, pool: &mut Pool<T>) {
        if self.len == 0 {
            self.one = Some(run);
            self.len = 1;
            pool.first_due = due;
        } else {
            self.append(run, due, pool);
        }
    }

    /// [`push`](Self::push) onto one run or more: the runs go to the buffer.
    #[cold]
    #[inline(never)]
    fn push_more<T>(&mut self, run: Run, due: u64, pool: &mut Pool<T>) {
        self.append(run, due, pool);
    }

    /// [`push_more`](Self::push_more)'s work.
    #[inline(always)]
    fn append<T>(&mut self, run: Run, due: u64, pool: &mut Pool<T>) {
        // Gathered in the pool's own lists during the step (no shared buffer to look at per
        // run), handed to a shared buffer once, when the step ends (see `Pool::settle`).
        if self.len == 1 {
            pool.scratch.clear();
            pool.scratch.extend(self.one.take());
            pool.dues.clear();
            pool.dues.push(pool.first_due);
        }
        pool.scratch.push(run);
        pool.dues.push(due);
        self.len = self.len.saturating_add(1);
    }

    /// The address of the buffer the list holds, 0 for none (see [`held`]).
    #[inline(always)]
    fn addr(&self) -> usize {
        addr(self.buf.as_ref())
    }

    /// Empties the list to fill it again in the same step, keeping its buffer.
    #[inline]
    pub(crate) fn reset(&mut self) {
        // `one` is read only while `len` is 1 (see `Source::first`).
        self.len = 0;
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[Run] {
        match self.len {
            0 => &[],
            1 => self.one.as_slice(),
            _ => self.buf.as_deref().map_or(&[], |b| &b.runs),
        }
    }

    /// The merged order of the ticks (empty for one run or none).
    #[inline]
    pub(crate) fn order(&self) -> &[(u64, u64)] {
        match self.len {
            0 | 1 => &[],
            _ => self.buf.as_deref().map_or(&[], |b| &b.order),
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Empties the list, letting go of its buffer.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.buf = None;
    }
}

impl walk::Source for Runs {
    /// The only run: the walk asks for it only when there is exactly one (a second run takes
    /// it out of `one`), so the count is not looked at (a look per tick, measured).
    #[inline(always)]
    fn first(&self) -> Option<&Run> {
        self.one.as_ref()
    }
    #[inline(always)]
    fn all(&self) -> &[Run] {
        self.as_slice()
    }
    #[inline]
    fn order(&self) -> &[(u64, u64)] {
        Runs::order(self)
    }
}

/// The state's buffers for the out-of-line parts of its steps' events (see the module docs),
/// made with the room a step of the loop's clocks needs. Cloning makes new buffers of the
/// same room; two pools always compare equal (they hold no state of the loop).
#[derive(Debug)]
pub(crate) struct Pool<T> {
    runs: Option<Arc<RunsBuf>>,
    /// A step's runs while it has two or more, until it ends.
    scratch: Vec<Run>,
    /// The first tick's due time of each run in `scratch`, as the step noted it, or
    /// [`UNNOTED`].
    dues: Vec<u64>,
    /// The same for the step's first run, while it is the only one (inline in [`Runs`]).
    /// Set by every push onto an empty list but the fast path's, which never has a second.
    first_due: u64,
    rare: Option<Arc<RareBuf<T>>>,
    /// The room: runs, ticks of a merged order, words, reports.
    room: [usize; 4],
}

impl<T> Pool<T> {
    /// Buffers with room for a step of clocks with these caps (each clock's `Checked::cap`): all their runs, the merged order of their
    /// capped ticks, and every rare event such a step makes (a resume and a scale change,
    /// then per clock discarded time and missed slots, a deferral or its end of time, and a
    /// report of each kind).
    pub(crate) fn for_clocks(caps: impl ExactSizeIterator<Item = u32>) -> Pool<T> {
        let n = caps.len();
        let ticks = if n > 1 {
            caps.map(|cap| cap.min(1 << 12) as usize).sum()
        } else {
            0
        };
        Pool::with_room([n, ticks, 3 + 12 * n, 2 * n])
    }

    fn with_room(room: [usize; 4]) -> Pool<T> {
        let [runs, ticks, words, reports] = room;
        Pool {
            runs: (runs > 1).then(|| Arc::new(RunsBuf::with_capacity(runs, ticks))),
            scratch: Vec::with_capacity(if runs > 1 { runs } else { 0 }),
            dues: Vec::with_capacity(if runs > 1 { runs } else { 0 }),
            first_due: UNNOTED,
            rare: Some(Arc::new(RareBuf::with_capacity(words, reports))),
            room,
        }
    }

    /// The same room for timestamps of another type.
    pub(crate) fn rebase<U>(&self) -> Pool<U> {
        Pool::with_room(self.room)
    }
}

impl<T> Clone for Pool<T> {
    fn clone(&self) -> Pool<T> {
        self.rebase()
    }
}

impl<T> PartialEq for Pool<T> {
    fn eq(&self, _: &Pool<T>) -> bool {
        true
    }
}

/// Taking the buffers a step's events used back into the pool.
impl<T> Pool<T> {
    /// After the step: a buffer the events took from the pool is shared with it (a merged
    /// order worked out first if the walk needs one), or given back if they did not use it.
    /// A step that took none (the common case) costs one look.
    #[inline(always)]
    pub(crate) fn settle(&mut self, runs: &mut Runs, rare: &mut Rare<T>) {
        // Two or more runs, or a rare event's buffer: one look at both (or'ed).
        if (runs.len >> 1) as usize | rare.addr() != 0 {
            self.settle_taken(runs, rare);
        }
    }

    #[cold]
    #[inline(never)]
    fn settle_taken(&mut self, runs: &mut Runs, rare: &mut Rare<T>) {
        if runs.len >= 2 {
            self.settle_runs(runs);
        }
        if rare.buf.is_some() {
            self.rare.clone_from(&rare.buf);
        }
    }

    /// The step's runs go to a shared buffer (the pool's, or a new one while the shell still
    /// holds the events that last used it), in exchange for its previous list.
    #[inline(never)]
    fn settle_runs(&mut self, runs: &mut Runs) {
        let [n, ticks, _, _] = self.room;
        if let Some(b) = acquire(
            &mut runs.buf,
            &mut self.runs,
            || RunsBuf::with_capacity(n, ticks),
            RunsBuf::clear,
        ) {
            core::mem::swap(&mut b.runs, &mut self.scratch);
            walk::order(&b.runs, &self.dues, &mut b.order);
        }
        self.runs.clone_from(&runs.buf);
    }
}

pub(crate) mod codec;
