//! The step, `(LoopState, now) -> (LoopState, Events)`, and which body runs it (here). The
//! plain configuration (one catch-up clock, late firing, no hysteresis, scale 1, no render
//! cap, not paused) takes the fast path of `step/lone.rs`. Any other loop that ticks by due
//! time runs the merged body of `step/merged.rs`, compiled once for several plain clocks and
//! once for the general path (`step/general.rs`), which also holds a lone constant-rate
//! clock's slot and leads to single-stepping (`step/stepping.rs`). `step/path.rs` holds the
//! one switch between the compiles, a type. The rules every body shares are in
//! `step/rules.rs`.
//!
//! Four bodies. A body is kept apart from the merged one only where its instruction count
//! proves it or where what it does is not a merge; the counts are callgrind's, per frame, on
//! the bench of `benches/peers` (`BENCHMARKS.md`), at 0 / 1 / 8 updates a frame:
//!
//! | body | runs when | kept apart because | kept equal to the general path by |
//! |---|---|---|---|
//! | `advance_plain` (`lone.rs`) | one catch-up clock, late firing, no hysteresis, nothing refused; scale 1, no render cap, not paused | its count: it counts the due ticks at once with no merge, no loop over clocks and no end of a merged step. 212 / 416 / 836 instructions; the same loop through the merged body's fast compile cost 310 / 527 / 992 (+46 / +27 / +19 %) | `step/fast_path_tests.rs` (random schedules, both paths side by side) |
//! | `run_merged::<P>` (`merged.rs`), one body compiled twice | `Plain` (through `advance_plain_several`): two or more such clocks. `General` (through `advance_general`): every other loop, neither paused nor a lone constant-rate clock | — (the one general body). The `Plain` compile leaves out the slots, tick-by-tick firing, the refusals and the scale: 4 and 16 clocks cost 1,965 / 6,909 instructions a frame against 2,148 / 7,191 through `General` (−9 / −4 %) | `step/several_tests.rs` |
//! | `run_lone_constant_rate` (`general.rs`) | one constant-rate clock | what it does: it sleeps until the slot and runs it (the `Sleep` event, and a deadline of "now" so the shell sleeps). In the merged body that would be a runtime switch in each of its three stages (slots, firing, wake); here it is 40 lines on the cold path | `core/tests/oracle.rs` against the naive loops |
//! | `run_stepping` (`stepping.rs`) | a single-step request while paused | what it does: its ticks are asked for, not due (virtual time jumps to them, the alpha clock is capped by the request, the request counts down) | `core/tests/stepping.rs` |
//!
//! Every body ends each clock's step through the same rules in `rules.rs` (the Deferred rule,
//! the backlog bound, the end-of-time report, the wake and the deadline).
//!
//! May call: `values`, `config`, `events`, `clock`, `time`, `state`. Called by: nothing (the
//! crate root only).

#[cfg(test)]
mod fast_path_tests;
pub(crate) mod general;
pub(crate) mod lone;
pub(crate) mod merged;
pub(crate) mod path;
pub(crate) mod rules;
#[cfg(test)]
mod several_tests;
pub(crate) mod stepping;

use crate::events::Events;
use crate::state::{FastPath, Inner, LoopState};
use crate::values::time::Timestamp;

impl<T: Timestamp> LoopState<T> {
    /// Advances the loop to `now` and says what happened: the pure fold.
    ///
    /// Returns the next state and the events, in the order the shell must handle them. See the
    /// type-level docs for the call order and the rules for `now` going backwards, big gaps and
    /// repeated `now`s. Never panics. Allocates nothing, however many clocks and updates and
    /// whatever else the step reports, as long as the previous step's events were dropped
    /// (see [`Events`]). Moves 8 bytes of state in and out, and the 184-byte events out.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// // 45 ms later: ticks 0 and 1 (20 ms each) are due, 5 ms are carried as lag.
    /// let (state, events) = state.step(Nanos::from_millis(45));
    /// let mut ran = Vec::new();
    /// for event in &events {
    ///     match event {
    ///         Event::Update(tick) => ran.push(tick.index), // run one fixed update here
    ///         // Draw 5/20 of the way from the state before tick 1 to the one after it.
    ///         Event::Render(r) => assert_eq!(r.alpha, 0.25),
    ///         _ => {} // sleeps, drops, controls: see `Event`
    ///     }
    /// }
    /// assert_eq!(ran, [0, 1]);
    /// assert_eq!(events.deadline(), Some(&Nanos::from_millis(60))); // when tick 2 is due
    /// assert_eq!(state.clock("main").map(|c| c.stats().ticks_run), Ok(2));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use = "the returned state replaces the old one; dropping it loses the step"]
    #[inline]
    pub fn step(self, now: T) -> (LoopState<T>, Events<T>) {
        // The state and the events in locals of their own, paired at the end: the state stays
        // in a register across the step (built in the pair, it went through memory; measured
        // under callgrind, two instructions a step). New events need no clearing.
        let mut state = self;
        let mut events = Events::new();
        state.advance_new(now, &mut events);
        (state, events)
    }

    /// [`step`](LoopState::step) in place, for shells that keep the state in a field.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// // A shell that keeps the state in a field.
    /// struct Game {
    ///     state: LoopState,
    ///     distance: f64,
    /// }
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
    /// let mut game = Game { state, distance: 0.0 };
    /// for frame in 1..=10u64 {
    ///     let events = game.state.advance(Nanos::from_millis(10 * frame));
    ///     for tick in events.updates() {
    ///         game.distance += 2.0 * tick.dt_secs(); // 2 units/s
    ///     }
    /// }
    /// assert_eq!(game.state.clock("main").map(|c| c.stats().ticks_run), Ok(5)); // 100 ms of 20 ms ticks
    /// assert!((game.distance - 0.2).abs() < 1e-12);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[inline]
    pub fn advance(&mut self, now: T) -> Events<T> {
        let mut events = Events::new();
        self.advance_new(now, &mut events);
        events
    }

    /// [`advance`](LoopState::advance) into a buffer the caller reuses: `events` is cleared,
    /// then filled (keeping any heap capacity it had).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Events, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // 60 Hz ticks, frames every 1/60 s (rounded down to whole ns): the phase of ½ keeps
    /// // the frames off the tick boundaries, so each frame runs exactly one update.
    /// let config = LoopConfig::new(Period::from_hz(60)?).phase(0.5);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let mut events = Events::new();
    /// for frame in 1..=60u64 {
    ///     state.advance_into(Nanos(frame * 1_000_000_000 / 60), &mut events);
    ///     assert_eq!(events.updates().count(), 1);
    /// }
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[inline]
    pub fn advance_into(&mut self, now: T, events: &mut Events<T>) {
        events.clear();
        self.advance_new(now, events);
    }

    /// [`advance_into`](Self::advance_into) into empty events.
    #[inline]
    fn advance_new(&mut self, now: T, events: &mut Events<T>) {
        // The step's span (feature `tracing`, `state/traced.rs`), none without a subscriber;
        // without the feature this function is the same code.
        #[cfg(feature = "tracing")]
        let span = crate::state::traced::step_span();
        let s = self.inner.for_step();
        // The lone clock's fast path first, with the fewest looks (`step/several.rs`'s is out of
        // line and cold: measured, it otherwise cost the lone clock's step 5 instructions).
        if s.fast.0 == FastPath::ONE.0 {
            s.begin_plain_span();
            s.advance_plain(now, events);
        } else if s.fast.0 == FastPath::SEVERAL.0 {
            s.begin_plain_span();
            s.advance_plain_several(now, events);
        } else {
            // The general path, which then works out whether the next step may take a fast
            // path (see `FastPath`).
            s.begin_span();
            s.advance_general(now, events);
            s.fast = s.fast_path();
        }
        events.settle(&mut s.pool);
        #[cfg(feature = "tracing")]
        if let Some(span) = span {
            events.trace(span, &s.clocks);
        }
    }
}

impl<T: Timestamp> Inner<T> {
    /// Whether this step can take the lone clock's fast path (for the tests; the step asks
    /// [`fast_path`](Self::fast_path)).
    #[cfg(test)]
    pub(crate) fn is_plain(&self) -> bool {
        self.fast_path().0 == FastPath::ONE.0
    }

    /// Which fast path, if any, a step of this state can take (see [`FastPath`]): the lone
    /// clock's for one catch-up clock with late firing, no hysteresis and no refused ticks
    /// waiting (the default configuration), that of `step/several.rs` for several such clocks;
    /// either only at real-time scale, with no render cap, not paused and no control to
    /// report. The conditions on time and the render cap are asked once, then the clocks'.
    /// A fast path gives exactly the general path's events and state (properties check it on
    /// random schedules).
    pub(crate) fn fast_path(&self) -> FastPath {
        if !self.virt.is_plain() || self.render.rate().is_some() {
            FastPath::UNKNOWN
        } else if self.clocks.is_plain() {
            FastPath::ONE
        } else if self.clocks.is_plain_several() {
            FastPath::SEVERAL
        } else {
            FastPath::UNKNOWN
        }
    }
}
