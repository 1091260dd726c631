//! Input attribution: every timestamped input goes to exactly one tick, by time, whatever the
//! frames (Bevy issue #6183: input in a frame with no tick is lost, input in a frame with two
//! ticks is seen twice).
//!
//! [`InputQueue`] (this file) and the columns of blended values (`columns.rs`).
//!
//! May call: `values`, `error` (`NoSuchClock`, for a tracker bound to a clock the loop lacks),
//! `state` (through its methods: the clock by id, the latest reading, the latest step's span;
//! never its fields). Called by: nothing.

pub(crate) mod columns;

use alloc::collections::VecDeque;

use crate::state::LoopState;
use crate::values::event::Tick;
use crate::values::id::ClockId;
use crate::values::time::{Nanos, Timestamp};

/// A queue that gives every timestamped input to exactly one tick of one clock, by time.
///
/// The shell pushes each input with its timestamp (its own clock reading when the input was
/// polled, or the OS event time), in the loop's timestamp type. After each step, each
/// [`Event::Update`](crate::Event::Update) of the queue's clock asks
/// [`drain`](InputQueue::drain) for its inputs. The fold's exact real→virtual mapping decides:
///
/// **The rule.** An input stamped at real time `r` has the virtual time `v(r)` the loop's
/// virtual clock showed at `r` (pauses and time scale included, exactly, rounded down to whole
/// ns). Tick `k` takes every input not given to an earlier tick with `v(r) < due(k)`, where
/// `due(k)` is the virtual time at which tick `k` comes due: the end of its interval
/// `(k+1)·dt` (less the phase) for catch-up, the start of its slot `k·dt` for the
/// constant-rate policies. So with catch-up and no phase, tick `k` sees the inputs of
/// `[k·dt, (k+1)·dt)`, plus any older input not yet given out.
///
/// What follows:
///
/// * **Nothing lost, nothing doubled.** Each input leaves the queue once, to the tick draining
///   it. An input whose ticks were dropped (a max frame delta, a missed constant-rate slot)
///   goes to the next tick that runs. One not due yet stays queued ([`len`](Self::len)).
/// * **Any slicing, same attribution.** The mapping is exact, so with the default *late*
///   firing the tick → inputs map is identical however the same timeline (the same inputs,
///   and the same controls at the same instants) is cut into frames, across catch-up,
///   deferred backlogs, pauses and time scales. The one exception: a tick that runs **before
///   its due time** (the *nearest* firing rule, hysteresis) takes only the inputs the shell had
///   pushed by then; inputs from the rest of its interval go to the next tick. Those ticks'
///   attribution depends on the frames, as their firing does.
/// * **Monotone in time.** A later input never goes to an earlier tick; the inputs of a tick
///   come out in timestamp order (ties in push order).
/// * **Paused.** Virtual time stands still, so inputs during a pause go to the next tick that
///   runs; during a [`step_ticks`](crate::VirtualTimeMut::step_ticks) step (virtual time jumps at the end
///   of the step), to the first tick it runs.
/// * **Before the start** (a timestamp earlier than the loop's start): taken as the start, so
///   it goes to tick 0 (or the first tick to run).
/// * **In the future** (stamped after the latest `now`): kept until a step covers its
///   timestamp, then attributed by the rule. Never given out early.
/// * **Late** (pushed after the step that covered its timestamp): the one rule for late input
///   is *by its stamp, among the ticks not yet drained*. An input stamped inside the latest
///   step's span is attributed by its timestamp, as if it had been pushed before that step,
///   except that it never goes to a tick already drained: it goes to the first tick not yet
///   drained whose due time is after its virtual time (10 Hz, a step at 250 ms, tick 0
///   drained, then an input stamped 50 ms pushed: tick 1 gets it; pushed after tick 1 was
///   drained too, tick 2). An input stamped before the latest step's span (the step that
///   covered it was not [`observe`](Self::observe)d) is taken as stamped at that span's
///   start, so it goes to the first tick of the latest step not yet drained.
///
/// # The shell's contract
///
/// Push each input before the step whose `now` is at or after its timestamp (read the clock,
/// push what was polled, step), then call [`observe`](Self::observe) once after every step
/// (a [`drain`](Self::drain) does it too, so only steps without updates need the call).
///
/// # Cost
///
/// Allocation-free per step: `push` appends to a ring buffer (it allocates only when the
/// queue grows past its capacity, see [`with_capacity`](Self::with_capacity)); an input
/// stamped earlier than one already queued is inserted in order (it moves the later ones).
/// `observe` touches only the inputs it attributes; `drain` pops from the front.
///
/// # ggrs: one local input per frame
///
/// A rollback session wants exactly one local input per simulation frame. Drain the tick's
/// inputs and fold them into that one value (buttons or-ed, the latest stick), then hand it
/// to `add_local_input` before advancing the frame: no press is lost between two frames
/// without a tick, and none counts twice in a frame with two ticks.
///
/// # Examples
///
/// ```
/// use tickfold_core::{Event, InputQueue, LoopConfig, LoopState, Nanos, Period};
///
/// // 10 Hz ticks, frames of 250 ms: some frames run two ticks, some none.
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
/// let mut queue = InputQueue::new(&state);
/// let presses = [(30, 'a'), (120, 'b'), (160, 'c'), (420, 'd')]; // ms
/// let mut seen = Vec::new();
/// for frame in 1..=2u64 {
///     let now = Nanos::from_millis(250 * frame);
///     for &(ms, key) in presses.iter().filter(|(ms, _)| (250 * (frame - 1)..250 * frame).contains(ms)) {
///         queue.push(Nanos::from_millis(ms), key);
///     }
///     let events = state.advance(now);
///     queue.observe(&state);
///     for event in &events {
///         if let Event::Update(tick) = event {
///             // One local input per tick: here, the keys pressed during it.
///             let keys: String = queue.drain(&tick, &state).collect();
///             seen.push((tick.index, keys));
///         }
///     }
/// }
/// let seen: Vec<(u64, &str)> = seen.iter().map(|(k, s)| (*k, s.as_str())).collect();
/// assert_eq!(seen, [(0, "a"), (1, "bc"), (2, ""), (3, ""), (4, "d")]);
/// assert!(queue.is_empty());
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct InputQueue<I, T = Nanos> {
    start: T,
    clock: ClockId,
    /// Inputs no step has covered yet: (real ns since start, input), by real time.
    waiting: VecDeque<(u64, I)>,
    /// Inputs with their virtual time, by virtual time.
    ready: VecDeque<(u64, I)>,
    /// Inputs given to the latest step's ticks: (tick, virtual time, input), kept so that a
    /// tick the shell refuses gets them again when it runs again.
    given: VecDeque<(u64, u64, I)>,
    /// The clock's count of refused ticks when the queue last looked.
    refusals_seen: u64,
}

impl<I, T: Timestamp> InputQueue<I, T> {
    /// An empty queue for `state`'s alpha clock (the one whose ticks the renderer
    /// interpolates, usually the simulation's).
    #[must_use]
    pub fn new(state: &LoopState<T>) -> InputQueue<I, T> {
        InputQueue::for_clock(state, state.alpha_clock(), 0)
    }

    /// An empty queue for `state`'s alpha clock with room for `capacity` inputs before it
    /// allocates: pushing more inputs than that at once (queued and not yet drained) grows
    /// the buffer, which allocates.
    #[must_use]
    pub fn with_capacity(state: &LoopState<T>, capacity: usize) -> InputQueue<I, T> {
        InputQueue::for_clock(state, state.alpha_clock(), capacity)
    }

    /// An empty queue whose inputs go to the ticks of `clock`, with room for `capacity`
    /// inputs. A drain for another clock's tick gives nothing; if `clock` does not exist (or
    /// is removed), inputs stay queued.
    #[must_use]
    pub fn for_clock(state: &LoopState<T>, clock: ClockId, capacity: usize) -> InputQueue<I, T> {
        InputQueue {
            start: *state.real_time().start(),
            clock,
            waiting: VecDeque::with_capacity(capacity),
            ready: VecDeque::with_capacity(capacity),
            given: VecDeque::with_capacity(capacity),
            refusals_seen: state.clock_by_id(clock).map_or(0, |c| c.refused()),
        }
    }

    /// The clock whose ticks take the inputs.
    #[must_use]
    pub fn clock(&self) -> ClockId {
        self.clock
    }

    /// Queues `input`, stamped at `at` (the shell's clock reading or the OS event time, on
    /// the loop's time axis). A timestamp before the loop's start counts as the start.
    pub fn push(&mut self, at: T, input: I) {
        let real = at.nanos_since(self.start).unwrap_or(0);
        // In order of real time, ties in push order: usually at the back.
        let mut i = self.waiting.len();
        while i > 0 && self.waiting.get(i - 1).is_some_and(|(r, _)| *r > real) {
            i -= 1;
        }
        self.waiting.insert(i, (real, input));
    }

    /// Attributes the inputs the latest step of `state` covered (stamped up to its `now`):
    /// call it once after every step. Calling it again for the same step attributes only the
    /// inputs pushed since, by the rule for late input (see **Late** in the
    /// [type's docs](InputQueue)).
    pub fn observe(&mut self, state: &LoopState<T>) {
        let Some(now) = state.latest_real() else {
            return;
        };
        let span = state.latest_span();
        while let Some(&(real, _)) = self.waiting.front() {
            if real > now {
                break;
            }
            // A late input (stamped before the span) is taken as the span's start.
            let v = span.virtual_at(real.max(span.real_start()));
            if let Some((_, input)) = self.waiting.pop_front() {
                self.ready.push_back((v, input));
            }
        }
    }

    /// The inputs of `tick` (an update of this queue's clock that `state`'s latest step
    /// reported), in timestamp order: every queued input whose virtual time is before the
    /// tick's due time (see the rule above). Observes `state` first. Inputs the iterator does
    /// not reach (dropped early) stay queued and go to the next tick drained.
    ///
    /// The due time is the one the tick ran with: a control called after the step (a rate
    /// change, a grid reset, overstep) moves later ticks only. A tick the shell
    /// [refused](LoopState::refuse) after draining it gets the same inputs again when it runs
    /// again, which is why the queue keeps a copy of the latest step's inputs (`I: Clone`).
    pub fn drain<'a>(&'a mut self, tick: &Tick, state: &LoopState<T>) -> TickInputs<'a, I>
    where
        I: Clone,
    {
        self.observe(state);
        let clock = state.clock_by_id(self.clock);
        let before = match clock {
            Some(c) if tick.clock == self.clock => {
                if c.refused() != self.refusals_seen {
                    self.refusals_seen = c.refused();
                    self.take_back(c.undone());
                }
                self.let_go(c.next_tick().saturating_sub(u64::from(c.last_count())));
                c.due_in_latest_step(tick.index)
            }
            _ => 0,
        };
        TickInputs {
            ready: &mut self.ready,
            given: &mut self.given,
            tick: tick.index,
            before,
        }
    }

    /// The shell refused ticks `undone..` after draining them: their inputs go back to the
    /// queue, for those ticks when they run again (or, if a control dropped them, for the
    /// next tick that runs).
    fn take_back(&mut self, undone: u64) {
        while self.given.back().is_some_and(|&(k, _, _)| k >= undone) {
            if let Some((_, v, input)) = self.given.pop_back() {
                // Given out from the front, in order: back in order of virtual time.
                let at = self.ready.partition_point(|(w, _)| *w < v);
                self.ready.insert(at, (v, input));
            }
        }
    }

    /// Lets go of the copies kept for ticks before `first` (the latest step's first tick:
    /// those ran for good and can no longer be refused).
    fn let_go(&mut self, first: u64) {
        while self.given.front().is_some_and(|&(k, _, _)| k < first) {
            self.given.pop_front();
        }
    }

    /// Inputs queued and not yet given to a tick (those given to the latest step's ticks,
    /// kept in case the shell refuses them, do not count).
    #[must_use]
    pub fn len(&self) -> usize {
        self.waiting.len() + self.ready.len()
    }

    /// Whether every input pushed has been given to a tick.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The inputs of one tick, from [`InputQueue::drain`], in timestamp order.
#[derive(Debug)]
pub struct TickInputs<'a, I> {
    ready: &'a mut VecDeque<(u64, I)>,
    given: &'a mut VecDeque<(u64, u64, I)>,
    tick: u64,
    before: u64,
}

impl<I: Clone> Iterator for TickInputs<'_, I> {
    type Item = I;

    #[inline]
    fn next(&mut self) -> Option<I> {
        if self.ready.front().is_some_and(|(v, _)| *v < self.before) {
            let (v, input) = self.ready.pop_front()?;
            self.given.push_back((self.tick, v, input.clone()));
            Some(input)
        } else {
            None
        }
    }
}
