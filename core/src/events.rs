//! The events of one step as a compact description: a run per clock that updated, the rare
//! events in two short lists and the render. The [`Event`]s and [`Tick`]s are produced on
//! demand, in the order the shell must handle them.

use core::fmt;

use smallvec::SmallVec;

use crate::clock::due_time;
use crate::event::{ClockId, Event, Render, Tick};
use crate::few::Few;
use crate::rate::{GridPoint, GridStep};
use crate::time::{Lag, Nanos};

/// How many events other than updates and the render one step holds without allocating: one
/// of those that come before the updates (a control, a backwards clock, discarded time, a drop,
/// a sleep) and one of those that come after them (a deferral, the end of time). A
/// single-clock step with scale 1 and no pause never has more; updates never count.
pub const INLINE_EVENTS: usize = 2;

/// One clock's updates in one step: `count` consecutive ticks from the grid point `start`.
/// Everything a [`Tick`] carries, and the due time the merge across clocks orders by, follows
/// exactly from it and the step's virtual time. Runs are kept in the clocks' declaration
/// order, so a run's place in the list breaks ties between clocks.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Run {
    pub(crate) clock: ClockId,
    pub(crate) constant_rate: bool,
    pub(crate) count: u32,
    pub(crate) origin: u64,
    pub(crate) phase_ns: u64,
    /// The tick number and simulation time of the clock's grid point 0 (see `Clock::base`).
    pub(crate) base: u64,
    pub(crate) base_t: u64,
    /// `k`·dt for the first tick `k` (its index is `start.m`).
    pub(crate) start: GridPoint,
    pub(crate) step: GridStep,
}

impl Run {
    /// The tick that starts at grid point `g`, fired at virtual time `v` (see
    /// [`Tick::lag`]).
    #[inline(always)]
    fn tick(&self, g: GridPoint, v: u64, last_in_step: bool) -> Tick {
        Tick {
            clock: self.clock,
            index: self.base.saturating_add(g.m),
            t: Nanos(self.base_t.saturating_add(g.floor())),
            dt: self.step.rate(),
            lag: self.lag(g, v),
            last_in_step,
        }
    }

    /// [`Tick::lag`] of the tick starting at `g`, at virtual time `v`.
    #[inline(always)]
    fn lag(&self, g: GridPoint, v: u64) -> Lag {
        let Some(l) = v.checked_sub(self.origin) else {
            return Lag::ZERO;
        };
        if self.constant_rate {
            // The time since the slot started, 0 when the shell slept until it.
            return Lag::from(Nanos(
                l.saturating_add(self.phase_ns).saturating_sub(g.ceil()),
            ));
        }
        // A tick that fires is due by u64::MAX, so its start k·dt is exact in the grid.
        Lag::between(
            u128::from(l) + u128::from(self.phase_ns),
            u128::from(g.ceil()),
        )
    }

    /// The grid point of the run's tick `j` (0 for the first): one division past the first.
    #[inline]
    fn point(&self, j: u32) -> GridPoint {
        if j == 0 {
            self.start
        } else {
            GridPoint::at(self.step.rate(), self.start.m + u64::from(j))
        }
    }

    /// The due time of the tick starting at `g` (the merge order).
    #[inline]
    fn due(&self, g: GridPoint) -> u64 {
        let mut end = g;
        end.advance_by(self.step);
        due_time(
            self.step.rate(),
            self.origin,
            self.phase_ns,
            self.constant_rate,
            g,
            end,
        )
    }
}

/// How many clocks can update in one step before the description of a step spills to the
/// heap, and before reading the step's merged updates needs the heap.
pub(crate) const INLINE_RUNS: usize = 4;

/// The runs of one step, in the clocks' declaration order.
pub(crate) type Runs = Few<Run, SmallVec<[Run; INLINE_RUNS]>>;

/// The events of one step, in the order the shell must handle them, and when to step next.
///
/// A compact description, not a list: each clock that updated is one run (its first tick, the
/// count and what it takes to compute every [`Tick`] exactly), the rarer events sit in a short
/// list and the render in a field. Iterating (`for event in &events`, [`Events::iter`],
/// [`Events::updates`]) produces the [`Event`]s by value, in this order:
///
/// 1. controls ([`Event::Paused`], [`Event::Resumed`], [`Event::ScaleChanged`]),
///    [`Event::TimeBackwards`], [`Event::DiscardedTime`]s, [`Event::DroppedTicks`],
///    [`Event::Sleep`];
/// 2. the [`Event::Update`]s of every clock, merged by due time, ties going to the clock
///    declared first;
/// 3. [`Event::Deferred`]s and [`Event::EndOfTime`]s;
/// 4. [`Event::Render`].
///
/// So a step costs the same whatever its number of updates: 1,000 catch-up updates take no more
/// room than one. Only reading them costs per update. The value takes 672 bytes for
/// `Events<Nanos>` on 64-bit targets (room for four clocks' runs) and allocates only past
/// [`INLINE_EVENTS`] rare events or when more than four clocks update in the same step (a
/// reused buffer keeps its capacity, so
/// [`LoopState::advance_into`](crate::LoopState::advance_into) allocates then only the first
/// time). Iterating merges the clocks lazily and allocates nothing when up to four clocks
/// updated; it allocates the merge's cursors (one per clock that updated) only when more
/// than four did, or when two or more did and one of them ran the full
/// [`MAX_UPDATES_PER_STEP`](crate::MAX_UPDATES_PER_STEP) backstop of updates.
///
/// [`Events::into_vec`] gives the list as a `Vec<Event>`.
#[derive(Clone)]
pub struct Events<T> {
    /// The events before the updates and after them.
    pub(crate) before: Few<Event<T>>,
    pub(crate) after: Few<Event<T>>,
    /// One run per clock that updated, in declaration order.
    pub(crate) runs: Runs,
    /// Virtual time of the step, in ns since the start: every update's lag follows from it.
    pub(crate) v: u64,
    pub(crate) render: Option<Render>,
    pub(crate) deadline: Option<T>,
}

impl<T> Events<T> {
    /// No events, for [`LoopState::advance_into`](crate::LoopState::advance_into).
    #[must_use]
    #[inline]
    pub fn new() -> Events<T> {
        Events {
            before: Few::new(),
            after: Few::new(),
            runs: Few::new(),
            v: 0,
            render: None,
            deadline: None,
        }
    }

    /// Empties the events, keeping any heap capacity.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.before.clear();
        self.after.clear();
        self.runs.clear();
        self.render = None;
        self.deadline = None;
    }

    /// When the shell should call `step` again: the next tick due, the next render slot, or
    /// `now` itself when a backlog or a constant-rate loop wants to go on at once. Never earlier
    /// than the step's `now`. `None` when nothing will happen by the passage of time alone
    /// (paused with no render cap, a time scale of 0, or every clock at the end of time).
    #[must_use]
    #[inline]
    pub fn deadline(&self) -> Option<&T> {
        self.deadline.as_ref()
    }

    /// The render of this step, if any.
    #[must_use]
    #[inline]
    pub fn render(&self) -> Option<&Render> {
        self.render.as_ref()
    }

    /// Ticks this step reports as dropped or discarded, in total, saturating at `u64::MAX`.
    #[must_use]
    pub fn dropped_ticks(&self) -> u64 {
        let (before, after) = self.split();
        before
            .iter()
            .chain(after)
            .map(|e| match e {
                Event::DroppedTicks { count, .. } => *count,
                Event::DiscardedTime { ticks, .. } => *ticks,
                _ => 0,
            })
            .fold(0, u64::saturating_add)
    }

    /// How many updates this step holds, over every clock (no iteration).
    #[must_use]
    #[inline]
    pub fn update_count(&self) -> u64 {
        self.runs
            .as_slice()
            .iter()
            .map(|r| u64::from(r.count))
            .sum()
    }

    /// How many events the step holds (updates included); O(1) per clock, not per update.
    #[must_use]
    pub fn len(&self) -> usize {
        let updates = usize::try_from(self.update_count()).unwrap_or(usize::MAX);
        (self.before.len() + self.after.len())
            .saturating_add(updates)
            .saturating_add(usize::from(self.render.is_some()))
    }

    /// Whether the step holds no event at all.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.before.len() == 0
            && self.after.len() == 0
            && self.runs.len() == 0
            && self.render.is_none()
    }

    /// Whether the description spilled to the heap: more than one event before the updates or
    /// after them (see [`INLINE_EVENTS`]), or updates from two or more clocks. Never because of
    /// the number of updates.
    #[must_use]
    pub fn spilled(&self) -> bool {
        self.before.spilled() || self.after.spilled() || self.runs.spilled()
    }
}

impl<T> Events<T> {
    /// The updates of this step, in order (merged across clocks by due time), by value.
    #[inline]
    pub fn updates(&self) -> Updates<'_> {
        Updates {
            runs: self.runs.as_slice(),
            v: self.v,
            walk: Walk::new(self.runs.as_slice()),
        }
    }

    /// The events before the updates and after them.
    fn split(&self) -> (&[Event<T>], &[Event<T>]) {
        (self.before.as_slice(), self.after.as_slice())
    }
}

impl<T: Copy> Events<T> {
    /// The events, in order, produced by value.
    #[inline]
    pub fn iter(&self) -> Iter<'_, T> {
        Iter {
            events: self,
            cursor: Cursor::new(self),
        }
    }

    /// The events as a `Vec<Event>`, in order.
    #[must_use]
    pub fn into_vec(self) -> alloc::vec::Vec<Event<T>> {
        self.iter().collect()
    }
}

impl<T: PartialEq> Events<T> {
    /// Whether the step holds `event` (an update is found without producing the others).
    #[must_use]
    pub fn contains(&self, event: &Event<T>) -> bool {
        match event {
            Event::Update(tick) => self.updates().any(|t| t == *tick),
            Event::Render(render) => self.render.as_ref() == Some(render),
            e => {
                let (before, after) = self.split();
                before.contains(e) || after.contains(e)
            }
        }
    }
}

impl<T> Default for Events<T> {
    fn default() -> Self {
        Events::new()
    }
}

impl<T: fmt::Debug> fmt::Debug for Events<T> {
    /// The events as a list, then the deadline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Events")
            .field("list", &Listed(self))
            .field("deadline", &self.deadline)
            .finish()
    }
}

/// The events as a debug list.
struct Listed<'a, T>(&'a Events<T>);

impl<T: fmt::Debug> fmt::Debug for Listed<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (pre, post) = self.0.split();
        let mut list = f.debug_list();
        list.entries(pre);
        for tick in self.0.updates() {
            list.entry(&Event::<T>::Update(tick));
        }
        list.entries(post);
        if let Some(render) = self.0.render {
            list.entry(&Event::<T>::Render(render));
        }
        list.finish()
    }
}

impl<T: PartialEq> PartialEq for Events<T> {
    /// Equal when they give the same events in the same order and the same deadline. (The
    /// kinds that come before the updates never come after them, so the parts compare apart.)
    fn eq(&self, other: &Events<T>) -> bool {
        self.deadline == other.deadline
            && self.split() == other.split()
            && self.render == other.render
            && self.updates().eq(other.updates())
    }
}

/// Where a merge with cursors on the heap (more than [`INLINE_RUNS`] runs, or a run past
/// `u16::MAX` ticks) stands in one run: the ticks left and the due time of the next one. Its
/// grid point is recomputed from the tick number when it fires (one division).
#[derive(Copy, Clone, Debug)]
struct Head {
    left: u32,
    due: u64,
}

/// How many ticks of a merge of up to [`INLINE_RUNS`] runs one plan orders (2 bits each, below
/// a marker bit in a `u64`).
const PLANNED: u32 = 31;

// A run's place in a plan takes 2 bits.
const _: () = assert!(INLINE_RUNS <= 4);

/// A merge of up to [`INLINE_RUNS`] runs of at most `u16::MAX` ticks each (one tick short of
/// the [`MAX_UPDATES_PER_STEP`](crate::MAX_UPDATES_PER_STEP) backstop), in 16 bytes: how
/// many ticks of each run have fired, and the order of the next ones as run places, worked
/// out [`PLANNED`] at a time. A tick's grid point is recomputed from its number when it fires
/// (one division).
///
/// It goes to the merge's code and back by value, in two registers: a pointer into the walk
/// would pin the whole iterator to memory, and reading a single clock's updates (the common
/// case) would slow down. Counts of 32 bits would take 24 bytes, passed through memory, which
/// measurably slows the single-clock read too.
#[derive(Copy, Clone, Debug)]
struct FewHeads {
    taken: [u16; INLINE_RUNS],
    /// The places of the next runs to fire, 2 bits each from the lowest, below a marker bit:
    /// 1 once the plan is spent.
    plan: u64,
}

impl FewHeads {
    /// The next tick, planning the next ones when the plan is spent.
    #[inline(never)]
    fn next(mut self, runs: &[Run], v: u64) -> (FewHeads, Option<Tick>) {
        if self.plan <= 1 {
            self.plan = self.make_plan(runs);
        }
        let i = (self.plan & 0b11) as usize;
        let (Some(run), Some(taken), true) = (runs.get(i), self.taken.get_mut(i), self.plan > 1)
        else {
            return (self, None);
        };
        self.plan >>= 2;
        let g = run.point(u32::from(*taken));
        *taken += 1;
        let last = u32::from(*taken) == run.count;
        (self, Some(run.tick(g, v, last)))
    }

    /// The order of the next [`PLANNED`] ticks at most: the earliest due first, ties to the
    /// clock declared first (the runs are in declaration order).
    fn make_plan(&self, runs: &[Run]) -> u64 {
        let mut left = [0u32; INLINE_RUNS];
        let mut at = [GridPoint::ZERO; INLINE_RUNS];
        let mut due = [0u64; INLINE_RUNS];
        for ((((run, &t), l), g), d) in runs
            .iter()
            .zip(&self.taken)
            .zip(&mut left)
            .zip(&mut at)
            .zip(&mut due)
        {
            *l = run.count.saturating_sub(u32::from(t));
            if *l > 0 {
                *g = run.point(u32::from(t));
                *d = run.due(*g);
            }
        }
        let mut plan = 0u64;
        let mut n = 0;
        while n < PLANNED {
            let mut best: Option<(u64, usize)> = None;
            for (i, (&l, &d)) in left.iter().zip(&due).enumerate() {
                if l > 0 && best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, i));
                }
            }
            let Some((_, i)) = best else { break };
            let (Some(run), Some(l), Some(g), Some(d)) =
                (runs.get(i), left.get_mut(i), at.get_mut(i), due.get_mut(i))
            else {
                break;
            };
            plan |= (i as u64) << (2 * n);
            n += 1;
            *l -= 1;
            if *l > 0 {
                g.advance_by(run.step);
                *d = run.due(*g);
            }
        }
        plan | 1 << (2 * n)
    }
}

/// The walk over the runs' ticks: how many are left over every run, the next grid point of a
/// single run, and the state of a merge of several by due time (see [`FewHeads`] and
/// [`Head`]). The fields stay apart, not variants of one enum, so that the walk over a single
/// run keeps its cursor in registers whatever the merge's code does.
#[derive(Clone, Debug)]
struct Walk {
    left: u64,
    g: GridPoint,
    merge: Merge,
}

/// The state of a merge of several runs (see [`Walk`]).
#[derive(Clone, Debug)]
enum Merge {
    /// A single run, or none.
    None,
    Few(FewHeads),
    Many(alloc::vec::Vec<Head>),
}

impl Walk {
    #[inline(always)]
    fn new(runs: &[Run]) -> Walk {
        match runs {
            [] => Walk {
                left: 0,
                g: GridPoint::ZERO,
                merge: Merge::None,
            },
            [run] => Walk {
                left: u64::from(run.count),
                g: run.start,
                merge: Merge::None,
            },
            runs => Walk {
                left: runs.iter().map(|r| u64::from(r.count)).sum(),
                g: GridPoint::ZERO,
                merge: Walk::merge(runs),
            },
        }
    }

    /// The merge's state: inline for up to [`INLINE_RUNS`] runs of at most `u16::MAX` ticks
    /// each, cursors on the heap (one per run) past that.
    #[cold]
    #[inline(never)]
    fn merge(runs: &[Run]) -> Merge {
        if runs.len() <= INLINE_RUNS && runs.iter().all(|r| u16::try_from(r.count).is_ok()) {
            return Merge::Few(FewHeads {
                taken: [0; INLINE_RUNS],
                plan: 1,
            });
        }
        Merge::Many(
            runs.iter()
                .map(|r| Head {
                    left: r.count,
                    due: r.due(r.start),
                })
                .collect(),
        )
    }

    #[inline(always)]
    fn next(&mut self, runs: &[Run], v: u64) -> Option<Tick> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        match &mut self.merge {
            Merge::None => {
                let run = runs.first()?;
                let tick = run.tick(self.g, v, self.left == 0);
                self.g.advance_by(run.step);
                Some(tick)
            }
            // By value (see `FewHeads`).
            Merge::Few(heads) => {
                let (next, tick) = heads.next(runs, v);
                *heads = next;
                tick
            }
            Merge::Many(heads) => Walk::next_many(heads, runs, v),
        }
    }

    /// The next tick of a merge with cursors on the heap: the earliest due, ties to the clock
    /// declared first (the runs are in declaration order).
    #[inline(never)]
    fn next_many(heads: &mut [Head], runs: &[Run], v: u64) -> Option<Tick> {
        let mut best: Option<(u64, usize)> = None;
        for (i, h) in heads.iter().enumerate() {
            if h.left > 0 && best.is_none_or(|(due, _)| h.due < due) {
                best = Some((h.due, i));
            }
        }
        let (_, i) = best?;
        let h = heads.get_mut(i)?;
        let run = runs.get(i)?;
        let g = run.point(run.count - h.left);
        h.left -= 1;
        if h.left > 0 {
            let mut next = g;
            next.advance_by(run.step);
            h.due = run.due(next);
        }
        Some(run.tick(g, v, h.left == 0))
    }

    fn remaining(&self) -> usize {
        usize::try_from(self.left).unwrap_or(usize::MAX)
    }
}

/// The updates of one step, by value: see [`Events::updates`].
#[derive(Clone, Debug)]
pub struct Updates<'a> {
    runs: &'a [Run],
    v: u64,
    walk: Walk,
}

impl Iterator for Updates<'_> {
    type Item = Tick;

    #[inline]
    fn next(&mut self) -> Option<Tick> {
        self.walk.next(self.runs, self.v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.walk.remaining();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Updates<'_> {}

/// Where an iteration over a step's events stands: the events before the updates are read up
/// to `before`, the updates walk on, then those after them up to `after`, then the render.
#[derive(Clone, Debug)]
struct Cursor {
    before: usize,
    after: usize,
    walk: Walk,
    render: bool,
}

impl Cursor {
    #[inline]
    fn new<T>(ev: &Events<T>) -> Cursor {
        Cursor {
            before: 0,
            after: 0,
            walk: Walk::new(ev.runs.as_slice()),
            render: true,
        }
    }

    #[inline]
    fn next<T: Copy>(&mut self, ev: &Events<T>) -> Option<Event<T>> {
        if let Some(e) = ev.before.as_slice().get(self.before) {
            self.before += 1;
            return Some(*e);
        }
        if let Some(tick) = self.walk.next(ev.runs.as_slice(), ev.v) {
            return Some(Event::Update(tick));
        }
        if let Some(e) = ev.after.as_slice().get(self.after) {
            self.after += 1;
            return Some(*e);
        }
        if self.render {
            self.render = false;
            return ev.render.map(Event::Render);
        }
        None
    }

    fn remaining<T>(&self, ev: &Events<T>) -> usize {
        let render = usize::from(self.render && ev.render.is_some());
        let before = ev.before.len().saturating_sub(self.before);
        let after = ev.after.len().saturating_sub(self.after);
        (render + before + after).saturating_add(self.walk.remaining())
    }
}

/// The events of one step, by value: see [`Events::iter`].
#[derive(Clone)]
pub struct Iter<'a, T> {
    events: &'a Events<T>,
    cursor: Cursor,
}

impl<T: Copy> Iterator for Iter<'_, T> {
    type Item = Event<T>;

    #[inline]
    fn next(&mut self) -> Option<Event<T>> {
        self.cursor.next(self.events)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.cursor.remaining(self.events);
        (n, Some(n))
    }
}

impl<T: Copy> ExactSizeIterator for Iter<'_, T> {}

/// The events of one step, owned: see [`Events`].
#[derive(Clone)]
pub struct IntoIter<T> {
    events: Events<T>,
    cursor: Cursor,
}

impl<T: Copy> Iterator for IntoIter<T> {
    type Item = Event<T>;

    #[inline]
    fn next(&mut self) -> Option<Event<T>> {
        self.cursor.next(&self.events)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.cursor.remaining(&self.events);
        (n, Some(n))
    }
}

impl<T: Copy> ExactSizeIterator for IntoIter<T> {}

impl<T: Copy> IntoIterator for Events<T> {
    type Item = Event<T>;
    type IntoIter = IntoIter<T>;
    #[inline]
    fn into_iter(self) -> IntoIter<T> {
        IntoIter {
            cursor: Cursor::new(&self),
            events: self,
        }
    }
}

impl<'a, T: Copy> IntoIterator for &'a Events<T> {
    type Item = Event<T>;
    type IntoIter = Iter<'a, T>;
    #[inline]
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}
