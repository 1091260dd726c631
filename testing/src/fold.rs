//! Folding a user simulation over a schedule: [`Sim`], [`Run`], [`Trace`] and [`Driver`].

use super::fnv::Fnv1a;
use super::replay::hash_event;
use super::{KitError, Schedule};
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period, Tick};

/// A main loop the kit can drive: anything that turns a `now` into loop events.
///
/// Implemented for tickfold's [`LoopState<Nanos>`](LoopState). Implement it for another loop
/// (a float accumulator, a port of your engine's loop) to put that loop through the same
/// checks; the worked tests do this with a deliberately float-accumulating loop.
pub trait Driver: Clone {
    /// The (main) tick rate: the reference run steps once per tick of it.
    fn tick_rate(&self) -> Period;

    /// Advances the loop to `now` and appends what happened to `events`, in order. The kit
    /// runs [`Event::Update`] ticks through the user's update and treats
    /// [`Event::Deferred`] as "call again at the same `now` to work off a backlog".
    fn drive(&mut self, now: Nanos, events: &mut Vec<Event<Nanos>>);
}

impl Driver for LoopState<Nanos> {
    fn tick_rate(&self) -> Period {
        // The alpha clock always exists (a loop keeps at least one clock).
        self.clock(self.alpha_clock())
            .map_or(Period::ONE_SECOND, |c| c.rate())
    }

    fn drive(&mut self, now: Nanos, events: &mut Vec<Event<Nanos>>) {
        events.extend(self.advance(now));
    }
}

/// A user simulation: an initial state, a fixed `update(&mut S, &Tick)` and the loop that
/// drives it (by default a tickfold [`LoopState`] starting at `Nanos(0)`).
///
/// The update sees only the state and the [`Tick`]. A simulation is schedule-independent if
/// its state after each tick depends only on the ticks' `index`, `t` and `dt`; reading
/// `tick.lag` or `tick.last_in_step`, or keeping state outside `S`, is what the checks catch.
///
/// # Examples
///
/// ```
/// use tickfold_testing::{Schedule, Sim};
/// use tickfold_core::{LoopConfig, Period};
///
/// let sim = Sim::new(LoopConfig::new(Period::from_hz(50)?), 0u64, |n: &mut u64, _| *n += 1)?;
/// let run = sim.fold(&Schedule::from_millis(&[16.0; 6])?);
/// assert_eq!(run.state, 4); // 96 ms hold four 20 ms ticks
/// assert_eq!(run.trace.update_count(), 4);
/// assert_eq!(run.trace.len(), 6);
/// # Ok::<(), tickfold_testing::KitError>(())
/// ```
#[derive(Clone)]
pub struct Sim<S, F, D = LoopState<Nanos>> {
    pub(crate) driver: D,
    pub(crate) init: S,
    pub(crate) update: F,
    pub(crate) diff: Option<fn(&S, &S) -> Option<String>>,
}

impl<S: Clone, F: Fn(&mut S, &Tick)> Sim<S, F> {
    /// A simulation driven by a tickfold loop with `config`, starting at `Nanos(0)`.
    ///
    /// For schedule checks prefer `config.max_frame_delta(None)`: the default 250 ms clamp
    /// discards time in long frames (as documented on [`Event::DiscardedTime`]), so a
    /// schedule with a stall runs fewer ticks than one without, and the check says so. The
    /// per-step update cap is fine: deferred ticks run later.
    ///
    /// # Errors
    ///
    /// [`KitError::Config`] when the loop refuses the configuration.
    pub fn new(config: LoopConfig, init: S, update: F) -> Result<Sim<S, F>, KitError> {
        Ok(Sim::with_driver(
            LoopState::new(config, Nanos::ZERO)?,
            init,
            update,
        ))
    }
}

impl<S: Clone, F: Fn(&mut S, &Tick), D: Driver> Sim<S, F, D> {
    /// A simulation driven by any [`Driver`], in the state given (it is cloned for each run).
    pub fn with_driver(driver: D, init: S, update: F) -> Sim<S, F, D> {
        Sim {
            driver,
            init,
            update,
            diff: None,
        }
    }

    /// Names the first differing field of two states in failure messages, replacing the
    /// default (the first differing line of their `{:#?}` output, see
    /// [`debug_diff`](super::debug_diff)). Return `None` when you see no difference.
    #[must_use]
    pub fn with_diff(mut self, diff: fn(&S, &S) -> Option<String>) -> Sim<S, F, D> {
        self.diff = Some(diff);
        self
    }

    /// The initial state.
    #[must_use]
    pub fn init(&self) -> &S {
        &self.init
    }

    /// Folds the simulation over `schedule`: one step per frame, every `Update` run through
    /// the user's update in order. Returns the final state and the event trace. Never panics
    /// (unless the update does); allocates only the trace.
    #[must_use]
    pub fn fold(&self, schedule: &Schedule) -> Run<S> {
        self.fold_to(schedule, None)
    }

    /// [`fold`](Sim::fold), then, if `end` is given, one more step at `end` (when the schedule
    /// ends earlier) and as many steps at `end` as it takes to work off a backlog the cap
    /// deferred. These settle steps are marked in the trace.
    pub(crate) fn fold_to(&self, schedule: &Schedule, end: Option<Nanos>) -> Run<S> {
        fold_with(&self.driver, self.init.clone(), &self.update, schedule, end)
    }
}

/// Folds `update` over `schedule` from `state` with a clone of `driver`, every update of a
/// step run through `update` in order (see [`fold_steps`]). Shared by [`Sim`] and
/// [`WorldSim`](super::WorldSim).
pub(crate) fn fold_with<S, D: Driver>(
    driver: &D,
    state: S,
    update: &impl Fn(&mut S, &Tick),
    schedule: &Schedule,
    end: Option<Nanos>,
) -> Run<S> {
    let step = |driver: &mut D, state: &mut S, now: Nanos, events: &mut Vec<Event<Nanos>>| {
        let from = events.len();
        driver.drive(now, events);
        for e in &events[from..] {
            if let Event::Update(tick) = e {
                update(state, tick);
            }
        }
    };
    fold_steps(driver, state, &step, schedule, end)
}

/// Folds a simulation over `schedule` from `state` with a clone of `driver`: one call of `step`
/// per frame (it drives the loop to `now`, appends the step's events and runs the simulation),
/// then, if `end` is given, one more step at `end` (when the schedule ends earlier) and as many
/// steps at `end` as it takes to work off a backlog the cap deferred (the settle steps, marked in
/// the trace). The one fold of every schedule check: [`Sim`], [`WorldSim`](super::WorldSim)
/// and [`FrameSim`](super::FrameSim) differ only in `step`.
pub(crate) fn fold_steps<S, D: Driver>(
    driver: &D,
    state: S,
    step: &impl Fn(&mut D, &mut S, Nanos, &mut Vec<Event<Nanos>>),
    schedule: &Schedule,
    end: Option<Nanos>,
) -> Run<S> {
    let mut run = Run {
        state,
        trace: Trace::with_capacity(schedule.len()),
    };
    let mut driver = driver.clone();
    let mut one = |run: &mut Run<S>, now: Nanos| {
        step(&mut driver, &mut run.state, now, &mut run.trace.events);
        run.trace.steps.push((now, run.trace.events.len()));
    };
    let mut high = Nanos::ZERO;
    for now in schedule.nows() {
        high = high.max(now);
        one(&mut run, now);
    }
    run.trace.frames = run.trace.len();
    if let Some(end) = end {
        if high < end || run.trace.deferred_last() {
            one(&mut run, end.max(high));
        }
        // Each settle step runs at least one deferred tick (of any clock), so this ends; a
        // settle step that runs nothing stops it (a driver that keeps deferring without
        // running anything).
        while run.trace.deferred_last() {
            let before = run.trace.events.len();
            one(&mut run, end.max(high));
            let ran = run.trace.events[before..]
                .iter()
                .any(|e| matches!(e, Event::Update(_)));
            if !ran {
                break;
            }
        }
    }
    run
}

/// The result of folding a simulation over a schedule.
#[derive(Clone, Debug)]
pub struct Run<S> {
    /// The simulation state after the last step.
    pub state: S,
    /// Every step's `now` and events.
    pub trace: Trace,
}

/// Every step of a run: its `now` and the loop's events, in order.
///
/// Stored flat (one `Vec` of events and one of step boundaries), so a trace of an hour of
/// 144 Hz frames costs two allocations that grow geometrically, not one per step.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Trace {
    /// (now, end of this step's events in `events`).
    steps: Vec<(Nanos, usize)>,
    events: Vec<Event<Nanos>>,
    /// How many steps came from the schedule; the rest are settle steps.
    frames: usize,
}

/// One step of a [`Trace`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TraceStep<'a> {
    /// The step's position in the run, from 0.
    pub step: usize,
    /// The `now` it was given.
    pub now: Nanos,
    /// What the loop reported, in order.
    pub events: &'a [Event<Nanos>],
    /// `true` for a step the checks added after the schedule to reach a common end time or to
    /// work off a deferred backlog.
    pub settle: bool,
}

impl TraceStep<'_> {
    /// How many updates this step ran.
    #[must_use]
    pub fn update_count(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Update(_)))
            .count()
    }
}

impl Trace {
    fn with_capacity(steps: usize) -> Trace {
        Trace {
            steps: Vec::with_capacity(steps),
            events: Vec::with_capacity(steps * 2),
            frames: 0,
        }
    }

    fn deferred_last(&self) -> bool {
        self.steps
            .last()
            .and_then(|_| self.step(self.steps.len() - 1))
            .is_some_and(|s| s.events.iter().any(|e| matches!(e, Event::Deferred { .. })))
    }

    /// How many steps the run made.
    #[must_use]
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the run made no step.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Step `i`, if the run made it.
    #[must_use]
    pub fn step(&self, i: usize) -> Option<TraceStep<'_>> {
        let &(now, end) = self.steps.get(i)?;
        let start = if i == 0 { 0 } else { self.steps[i - 1].1 };
        Some(TraceStep {
            step: i,
            now,
            events: &self.events[start..end],
            settle: i >= self.frames,
        })
    }

    /// Every step, in order.
    pub fn steps(&self) -> impl Iterator<Item = TraceStep<'_>> + '_ {
        (0..self.steps.len()).filter_map(|i| self.step(i))
    }

    /// Every event of the run, in order.
    #[must_use]
    pub fn events(&self) -> &[Event<Nanos>] {
        &self.events
    }

    /// Every update of the run, in order.
    pub fn updates(&self) -> impl Iterator<Item = &Tick> + '_ {
        self.events.iter().filter_map(|e| match e {
            Event::Update(t) => Some(t),
            _ => None,
        })
    }

    /// How many updates the run made.
    #[must_use]
    pub fn update_count(&self) -> u64 {
        self.updates().count() as u64
    }

    /// The step that ran the `n`-th update (counting from 0), if there was one.
    #[must_use]
    pub fn step_of_update(&self, n: u64) -> Option<TraceStep<'_>> {
        let mut seen = 0u64;
        self.steps().find(|s| {
            seen += s.update_count() as u64;
            seen > n
        })
    }

    /// The trace's hash: 64-bit FNV-1a over every step's `now` and the fixed little-endian
    /// encoding of its events (see [`Fnv1a`]). Equal traces hash equal on every platform.
    #[must_use]
    pub fn hash(&self) -> u64 {
        let mut h = Fnv1a::new();
        for s in self.steps() {
            h.write_u64_le(s.now.0);
            h.write_u64_le(s.events.len() as u64);
            for e in s.events {
                hash_event(&mut h, e);
            }
        }
        h.value()
    }
}
