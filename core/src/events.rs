//! The events of one step as a compact description: a run per clock that updated, the rare
//! events packed into one short list of words and the render. The [`Event`]s and [`Tick`]s
//! are produced on demand, in the order the shell must handle them.

use core::fmt;

use smallvec::SmallVec;

use crate::event::{Event, Render, Tick};
use crate::few::{BeforeCursor, Few, Rare};
use crate::grid::Run;
use crate::time::Nanos;
use crate::walk::{INLINE_RUNS, Walk};

/// The most events other than updates and the render that one step of one to four clocks makes
/// by itself: 2 + 3 per clock, one more for a lone constant-rate clock's sleep (6 for one
/// clock, 14 for four). [`Events`] holds them all without allocating; updates never count.
///
/// Before the updates come a pause or a resume (not both), a scale change, then either a
/// backwards clock (and no discarded time) or per clock its discarded time past the max frame
/// delta, then per constant-rate clock the slots it missed, then the sleep; after the updates,
/// per clock a deferral or its end of time (never both). Each kind comes at most once per
/// clock and step, and four constant-rate clocks reach every count at once: resumed at a new
/// scale in a step that drops past the max frame delta, misses slots and reaches the end of
/// time.
///
/// The reports of the run-time clock controls ([`Event::RateChanged`], and
/// [`Event::DroppedTicks`] from [`ClockMut::discard_overstep`](crate::ClockMut::discard_overstep)
/// and [`ClockMut::reset_grid`](crate::ClockMut::reset_grid)) come on top, one per call at
/// most, however many calls the shell made since the previous step. They never make a step
/// allocate either: they are copied into the room the step's own events cannot need, and when
/// they do not fit, the events take the state's list of them as it is (the next control then
/// allocates a new list, unless a buffer reused with
/// [`LoopState::advance_into`](crate::LoopState::advance_into) handed its previous one back).
pub const INLINE_EVENTS: usize = 14;

/// The runs of one step, in the clocks' declaration order.
pub(crate) type Runs = Few<Run, SmallVec<[Run; INLINE_RUNS]>>;

/// The events of one step, in the order the shell must handle them, and when to step next.
///
/// A compact description, not a list: each clock that updated is one run (its first tick, the
/// count and what it takes to compute every [`Tick`] exactly), the rarer events are packed into
/// one short list of words and the render sits in a field. Iterating (`for event in &events`,
/// [`Events::iter`], [`Events::updates`]) produces the [`Event`]s by value, in this order:
///
/// 1. before the updates, in this order:
///    * the controls since the previous step: [`Event::Paused`] or [`Event::Resumed`], then
///      [`Event::ScaleChanged`], then the clock controls' [`Event::RateChanged`]s and
///      [`Event::DroppedTicks`] with [`DropReason::Discarded`](crate::DropReason::Discarded)
///      (from `discard_overstep` and `reset_grid`), in the order the controls were called
///      (consecutive drops of one clock merged into one event);
///    * [`Event::TimeBackwards`];
///    * [`Event::DiscardedTime`]s (the max frame delta), one per clock that lost ticks, in
///      declaration order;
///    * [`Event::DroppedTicks`] with [`DropReason::SlotMissed`](crate::DropReason::SlotMissed),
///      one per constant-rate clock that missed slots, in declaration order;
///    * [`Event::Sleep`] (a lone constant-rate clock);
/// 2. the [`Event::Update`]s of every clock, merged by due time, ties going to the clock
///    declared first;
/// 3. [`Event::Deferred`]s, then [`Event::EndOfTime`]s, each in declaration order;
/// 4. [`Event::Render`].
///
/// So a step costs the same whatever its number of updates: 1,000 catch-up updates take no more
/// room than one. Only reading them costs per update. The value takes 896 bytes for
/// `Events<Nanos>` on 64-bit targets: room for four clocks' runs and for every other event a
/// step of one to four clocks can make ([`INLINE_EVENTS`]: at most 14 events, 35 words, all
/// inline). So a step of one to four clocks never allocates, whatever it reports. A step of
/// more clocks allocates only when more than four of them update, or make rare events, at
/// once (a reused buffer keeps its capacity, so
/// [`LoopState::advance_into`](crate::LoopState::advance_into) allocates then only the first
/// time). Iterating merges the clocks lazily and allocates nothing when up to four clocks
/// updated; it allocates the merge's cursors (one per clock that updated) only when more
/// than four did, or when two or more did and one of them ran the full
/// [`MAX_UPDATES_PER_STEP`](crate::MAX_UPDATES_PER_STEP) backstop of updates.
///
/// [`Events::into_vec`] gives the list as a `Vec<Event>`.
#[derive(Clone)]
pub struct Events<T> {
    /// The events other than updates and the render, before the updates and after them (the
    /// steps push the former into `before`, the latter with `before.push_after`).
    pub(crate) before: Rare<T>,
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
            before: Rare::new(),
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
        self.runs.clear();
        self.render = None;
        self.deadline = None;
    }

    /// When the shell should call `step` again: the next tick due, the next render slot, or
    /// `now` itself when a backlog or a constant-rate loop wants to go on at once. Never earlier
    /// than the step's `now`. `None` when nothing will happen by the passage of time alone
    /// (paused with no render cap, a time scale of 0, or every clock at the end of time).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(35));
    /// // Tick 3 covers [30 ms, 40 ms) and comes due at its end: sleep until then (or vsync).
    /// assert_eq!(events.deadline(), Some(&Nanos::from_millis(40)));
    /// state.virtual_time_mut().pause();
    /// let events = state.advance(Nanos::from_millis(36));
    /// assert_eq!(events.deadline(), None); // paused: only a control or input changes anything
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn deadline(&self) -> Option<&T> {
        self.deadline.as_ref()
    }

    /// The render of this step, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Nanos(0))?;
    /// let (state, events) = state.step(Nanos::from_millis(35));
    /// let render = events.render().expect("time advanced, so the step renders");
    /// assert_eq!(render.alpha, 0.5); // 5 ms into a 10 ms tick
    /// assert_eq!(render.ticks, 3);
    /// // A step at the same `now` renders nothing: time did not advance.
    /// let (_, again) = state.step(Nanos::from_millis(35));
    /// assert!(again.render().is_none());
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn render(&self) -> Option<&Render> {
        self.render.as_ref()
    }

    /// Ticks this step reports as dropped or discarded, in total, saturating at `u64::MAX`.
    #[must_use]
    pub fn dropped_ticks(&self) -> u64 {
        self.rare()
            .map(|e| match e {
                Event::DroppedTicks { count, .. } => count,
                Event::DiscardedTime { ticks, .. } => ticks,
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
        self.rare()
            .count()
            .saturating_add(updates)
            .saturating_add(usize::from(self.render.is_some()))
    }

    /// Whether the step holds no event at all.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        !self.before.any()
            && self.before.after_len() == 0
            && self.runs.len() == 0
            && self.render.is_none()
    }

    /// Whether the description spilled to the heap: updates from more than four clocks, or
    /// more rare events than a step of four clocks makes (see [`INLINE_EVENTS`]). Never
    /// because of the number of updates, and never for reports moved here from the state.
    #[must_use]
    pub fn spilled(&self) -> bool {
        self.before.spilled() || self.runs.spilled()
    }
}

impl<T> Events<T> {
    /// The updates of this step, in order (merged across clocks by due time), by value.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Nanos(0))?;
    /// let (_, events) = state.step(Nanos::from_millis(35));
    /// let ticks: Vec<(u64, Nanos)> = events.updates().map(|tick| (tick.index, tick.t)).collect();
    /// let ms = Nanos::from_millis;
    /// assert_eq!(ticks, [(0, ms(0)), (1, ms(10)), (2, ms(20))]);
    /// // Only the last one is marked: capture the state to interpolate from just before it.
    /// let marked: Vec<bool> = events.updates().map(|tick| tick.last_in_step).collect();
    /// assert_eq!(marked, [false, false, true]);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[inline(always)]
    pub fn updates(&self) -> Updates<'_> {
        Updates {
            runs: self.runs.as_slice(),
            v: self.v,
            walk: Walk::new(self.runs.as_slice(), self.v),
        }
    }

    /// Where `tick`, one of this step's updates, ends: the simulation time at the start of the
    /// grid point after it, exact and rounded down like [`Tick::t`]. While the clock's period
    /// holds it is the next tick's `t`, so `end − t` is the tick's length in whole ns (`dt`
    /// rounded down or up) and the lengths of consecutive ticks add up exactly: 60 ticks at
    /// 60 Hz end at exactly 1 s. (The first tick after
    /// [`set_rate`](crate::ClockMut::set_rate) starts at the old grid's boundary rounded *up*,
    /// so it may start 1 ns after the last tick of the old period ends.) A shell that keeps a
    /// clock's elapsed time, as Bevy's `Time<Fixed>` does, reads it here instead of keeping a
    /// grid of its own. `None` when `tick` is not one of this step's updates.
    ///
    /// Computed on demand from the step's description (one division): reading the updates
    /// costs nothing more for shells that never ask.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let (_, events) = state.step(Nanos::from_millis(40));
    /// let spans: Vec<(u64, u64)> = events
    ///     .updates()
    ///     .map(|tick| (tick.t.0, events.tick_end(&tick).unwrap().0))
    ///     .collect();
    /// // Ticks of 16,666,666.67 ns: each ends where the next starts, lengths 16,666,666 or 16,666,667.
    /// assert_eq!(spans, [(0, 16_666_666), (16_666_666, 33_333_333)]);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn tick_end(&self, tick: &Tick) -> Option<Nanos> {
        self.runs
            .as_slice()
            .iter()
            .filter(|run| run.clock == tick.clock)
            .find_map(|run| run.end(tick.index))
    }

    /// The events before the updates, then those after them, by reference.
    fn rare(&self) -> impl Iterator<Item = Event<&T>> + '_ {
        self.before
            .iter(self.before.start())
            .chain(self.before.after_iter(0))
    }
}

impl<T: Copy> Events<T> {
    /// The events, in order, produced by value.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(100)?), Nanos(0))?;
    /// let (state, events) = state.step(Nanos::from_millis(25));
    /// let kinds: Vec<&str> = events
    ///     .iter()
    ///     .map(|event| match event {
    ///         Event::Update(_) => "update",
    ///         Event::Render(_) => "render",
    ///         _ => "other",
    ///     })
    ///     .collect();
    /// assert_eq!(kinds, ["update", "update", "render"]); // the render always comes last
    /// // A clock that went back 5 ms: no time passes, nothing renders.
    /// let (_, events) = state.step(Nanos::from_millis(20));
    /// let backwards = Event::TimeBackwards { by: Nanos::from_millis(5) };
    /// assert_eq!(events.iter().collect::<Vec<_>>(), [backwards]);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
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
                let e = e.map_time(|until| until);
                self.rare().any(|r| r == e)
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
        let mut list = f.debug_list();
        list.entries(self.0.before.iter(self.0.before.start()));
        for tick in self.0.updates() {
            list.entry(&Event::<T>::Update(tick));
        }
        list.entries(self.0.before.after_iter::<&T>(0));
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
            && self
                .before
                .iter(self.before.start())
                .eq(other.before.iter(other.before.start()))
            && self
                .before
                .after_iter::<&T>(0)
                .eq(other.before.after_iter::<&T>(0))
            && self.render == other.render
            && self.updates().eq(other.updates())
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

    #[inline(always)]
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
/// to `before`, the updates walk on, then those after them up to the word `after`, then the
/// render.
#[derive(Clone, Debug)]
struct Cursor {
    before: BeforeCursor,
    after: usize,
    walk: Walk,
    render: bool,
}

impl Cursor {
    #[inline]
    fn new<T>(ev: &Events<T>) -> Cursor {
        Cursor {
            before: ev.before.start(),
            after: 0,
            walk: Walk::new(ev.runs.as_slice(), ev.v),
            render: true,
        }
    }

    #[inline]
    fn next<T: Copy>(&mut self, ev: &Events<T>) -> Option<Event<T>> {
        if self.before.live {
            if let Some(e) = ev.before.next(&mut self.before, |t| *t) {
                return Some(e);
            }
        }
        if let Some(tick) = self.walk.next(ev.runs.as_slice(), ev.v) {
            return Some(Event::Update(tick));
        }
        if self.after < ev.before.after_len() {
            if let Some((e, n)) = ev.before.after_get(self.after) {
                self.after += n as usize;
                return Some(e);
            }
        }
        if self.render {
            self.render = false;
            return ev.render.map(Event::Render);
        }
        None
    }

    fn remaining<T>(&self, ev: &Events<T>) -> usize {
        let render = usize::from(self.render && ev.render.is_some());
        let before = ev.before.remaining(self.before);
        let after = if self.after < ev.before.after_len() {
            ev.before.after_iter::<T>(self.after).count()
        } else {
            0
        };
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
