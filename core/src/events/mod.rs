//! The events of one step as a compact description: a run per clock that updated, the rare
//! events packed into one short list of words and the render. The [`Event`]s and [`Tick`]s
//! are produced on demand, in the order the shell must handle them.
//!
//! Owns the buffers of a step's events: [`Events`] (this file: the total order and its
//! iterators), the preallocated pool and the sink the rules push into (`few.rs`, packed words
//! in `few/codec.rs`), the walk that turns a run into its ticks (`walk.rs`) and what a clock
//! control did, to be reported (`report.rs`). Nothing allocates per frame once the pool is
//! built.
//!
//! May call: `values` (the event vocabulary), `grid` (a run's ticks). Called by: `clock`,
//! `clocks`, `state`, `step`, `save` (the layers that report an event or read one).

pub(crate) mod few;
pub(crate) mod report;
pub(crate) mod walk;

use core::fmt;

use crate::events::few::{Pool, Rare, Runs, Sink};
use crate::events::walk::Walk;
use crate::values::event::{Event, Render, Tick};
use crate::values::time::Nanos;

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
/// 3. after the updates, per clock in declaration order: the [`Event::DroppedTicks`] with
///    [`DropReason::SlotMissed`](crate::DropReason::SlotMissed) of a refused constant-rate
///    slot that ran late (the slots that started while it waited, see
///    [`LoopState::refuse`](crate::LoopState::refuse)), then the [`Event::DiscardedTime`] of
///    the overload bound (the oldest ticks of a catch-up clock's backlog given up, see
///    [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)), then the clock's
///    [`Event::Deferred`]; then the [`Event::EndOfTime`]s, in declaration order;
/// 4. [`Event::Render`].
///
/// So each clock's tick numbers ascend through the stream, one by one across its updates and
/// drops: a drop before the updates covers slots before the clock's first update of the
/// step, a drop after them the slots after its last. Every path of the step (one clock or
/// several, running or single-stepping) gives this order.
///
/// So a step costs the same whatever its number of updates: 1,000 catch-up updates take no more
/// room than one. Only reading them costs per update. The value is small (184 bytes for
/// `Events<Nanos>` on 64-bit targets): a single clock's run sits inline; several clocks' runs
/// and the rare events sit in buffers the [`LoopState`](crate::LoopState) made with room for
/// every step of its clocks and reuses from step to step, shared with the events of the step
/// that used them. So once the state is built, stepping allocates nothing, whatever the number
/// of clocks and whatever the step reports, as long as the shell drops (or, with
/// [`LoopState::advance_into`](crate::LoopState::advance_into), reuses) each step's events
/// before the next step: a step whose previous events are still held (or cloned) takes new
/// buffers. Reading the events allocates nothing either: several clocks' updates are read
/// along the merged order the step worked out once in its buffer.
///
/// [`Events::into_vec`] gives the list as a `Vec<Event>`.
#[derive(Clone)]
pub struct Events<T> {
    /// One run per clock that updated, in declaration order.
    pub(crate) runs: Runs,
    /// The events other than updates and the render, before the updates and after them (the
    /// steps push the former into `before`, the latter with `before.push_after`).
    pub(crate) before: Rare<T>,
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
            runs: Runs::new(),
            before: Rare::new(),
            v: 0,
            render: None,
            deadline: None,
        }
    }

    /// Empties the events, letting go of the buffers they shared with the state (so that the
    /// state's next step can reuse them).
    #[inline]
    pub(crate) fn clear(&mut self) {
        // The common step held no buffer: one look, and no drop code on the way.
        if crate::events::few::held(&self.runs, &self.before) {
            self.let_go();
        }
        self.runs.reset();
        self.render = None;
        self.deadline = None;
    }

    #[cold]
    #[inline(never)]
    fn let_go(&mut self) {
        self.before.clear();
        self.runs.clear();
    }

    /// Where the step writes its rare events, taking a buffer from `pool` at the first.
    #[inline(always)]
    pub(crate) fn sink<'a>(&'a mut self, pool: &'a mut Pool<T>) -> Sink<'a, T> {
        Sink::new(&mut self.before, pool)
    }

    /// Shares the buffers the step took with the state after the step (see `few::Pool`).
    #[inline(always)]
    pub(crate) fn settle(&mut self, pool: &mut Pool<T>) {
        pool.settle(&mut self.runs, &mut self.before);
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
        // The events the list holds, not the buffer's bookkeeping: `len() == 0` exactly.
        self.runs.len() == 0 && self.render.is_none() && self.rare().next().is_none()
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
            runs: &self.runs,
            v: self.v,
            walk: Walk::new(&self.runs, self.v),
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
    pub(crate) fn rare(&self) -> impl Iterator<Item = Event<&T>> + '_ {
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
    runs: &'a Runs,
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
    before: crate::events::few::BeforeCursor,
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
            walk: Walk::new(&ev.runs, ev.v),
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
        if let Some(tick) = self.walk.next(&ev.runs, ev.v) {
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
