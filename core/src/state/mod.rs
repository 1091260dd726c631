//! `LoopState`: the loop's whole state as a value (a handle to one box), its construction, and
//! every method a user calls on it but the step (which is `step/`'s):
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | [`LoopState`], its parts (`Inner`: real and virtual time, the span, the clocks, the render cap, the event pool) and `new` |
//! | `virtual_view.rs`, `real_view.rs` | the virtual-time and real-time views and handles (pause, scale, single steps; max frame delta, render cap) |
//! | `clock_view.rs` (+ `clock_view/controls.rs`) | one clock's view and handle; [`ClockMut`](crate::ClockMut)'s per-clock controls |
//! | `stats.rs` | the clocks' numbers ([`ClockStats`](crate::ClockStats)) and which clock is which |
//! | `add_remove.rs`, `refuse.rs` | adding and removing clocks at run time; refusing a tick |
//! | `anchor.rs` | moving a state to another time axis (`rebase`, `resume_at`) |
//! | `as_of.rs`, `cursor.rs` | reading the state as of one event of a step (`as_of`, `hand_on`) |
//! | `traced.rs` | feature `tracing`: the step's and the handlers' spans, the step's reports as `tracing` events |
//!
//! May call: `values`, `error`, `config`, `events`, `clock`, `clocks`, `time`, `access`. The
//! views change a layer's fields only through that layer's methods. Called by: `step`,
//! `input`, `save`.

pub(crate) mod virtual_view;

pub(crate) mod real_view;

pub(crate) mod clock_view;

pub(crate) mod stats;

pub(crate) mod add_remove;

pub(crate) mod refuse;

pub(crate) mod anchor;
pub(crate) mod as_of;
pub(crate) mod cursor;
#[cfg(feature = "tracing")]
pub(crate) mod traced;

use alloc::boxed::Box;
use core::ops::{Deref, DerefMut};

use crate::clock::Clock;
use crate::clocks::ClockSet;
use crate::config::LoopConfig;
use crate::error::{ConfigError, NoSuchClock};
use crate::events::few::Pool;
use crate::state::cursor::Cursor;
use crate::time::real::Real;
use crate::time::render_cap::RenderCap;
use crate::time::span::StepSpan;
use crate::time::virtual_time::Virtual;
use crate::values::id::ClockId;
use crate::values::time::{Nanos, Timestamp};

/// A clock control (rate change, discarded ticks) waits in the clocks' reports (its bit in the
/// saved `pending_controls`, beside the virtual layer's).
#[cfg(feature = "serde")]
pub(crate) const PENDING_CLOCKS: u8 = 8;

/// The whole state of a main loop, as a value: step it with [`LoopState::step`].
///
/// `LoopState` never reads a clock and never sleeps: it is the pure fold
/// `(LoopState, now) -> (LoopState, Events)` of the purely functional Scheme loop article, with
/// the fixed timestep and interpolation of Glenn Fiedler's "Fix Your Timestep!".
///
/// # First steps
///
/// Make it with [`new`](LoopState::new), step it with the time now, run an update for each
/// [`Event::Update`](crate::Event::Update), draw at the render's `alpha`, and read the clock's
/// numbers with [`clock`](LoopState::clock) and the time with
/// [`virtual_time`](LoopState::virtual_time) and [`real_time`](LoopState::real_time):
///
/// ```
/// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
/// let events;
/// (state, events) = state.step(Nanos::from_millis(50)); // a fake clock: 50 ms after the start
/// for event in &events {
///     match event {
///         Event::Update(tick) => assert_eq!(tick.dt_secs(), 0.02), // ticks 0 and 1
///         Event::Render(render) => assert_eq!(render.alpha, 0.5), // 10 ms into tick 2's 20
///         _ => {}
///     }
/// }
/// let main = state.clock("main")?.stats(); // a loop's first clock is named "main"
/// assert_eq!((main.ticks_run, main.alpha), (2, 0.5));
/// assert_eq!(state.virtual_time().elapsed(), Nanos::from_millis(50)); // the time readings
/// assert_eq!(state.real_time().elapsed(), Nanos::from_millis(50));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The controls (pause, time scale, rates, caps) come after, on the handles listed below.
///
/// # The shell's contract
///
/// The shell that drives it (a window loop, a server tick, a test, a replay) makes these calls,
/// in this order, every frame:
///
/// 1. **Read the clock** once: `Instant::now()`, a vsync timestamp, a replay log, a fake clock.
/// 2. **Step**: [`step`](LoopState::step) (by value) or [`advance_into`](LoopState::advance_into)
///    (in place, into a reused [`Events`](crate::Events)) with that `now`. This returns at once;
///    nothing else changes the state but the controls (on the handles
///    [`virtual_time_mut`](LoopState::virtual_time_mut),
///    [`real_time_mut`](LoopState::real_time_mut) and [`clock_mut`](LoopState::clock_mut), and
///    [`add_clock`](LoopState::add_clock), [`remove_clock`](LoopState::remove_clock)), which
///    take effect at the next step.
/// 3. **Handle the events in order** (iterate the [`Events`](crate::Events)):
///    * [`Event::Sleep`](crate::Event::Sleep): wait until then before going on (a lone
///      constant-rate clock);
///    * [`Event::Update`](crate::Event::Update): run one fixed update with the
///      [`Tick`](crate::Tick) it carries. A shell that interpolates captures the state to draw
///      from just before the update marked [`Tick::last_in_step`](crate::Tick::last_in_step)
///      (one per clock per step), never before the others;
///    * the others only inform: drops and discarded time (with exact tick counts), a deferred
///      backlog, a backwards clock, the end of time, controls seen.
/// 4. **Render** on [`Event::Render`](crate::Event::Render) (always last), drawing at its
///    `alpha` between the captured state and the current one.
/// 5. **Wait** until [`Events::deadline`](crate::Events::deadline) (or the next vsync, or
///    input) and start again. `None` means only a control or an outside event will make
///    anything happen.
///
/// What never happens: a step never panics, never allocates (see [`Events`](crate::Events) for
/// the one exception: the previous step's events still held), never reads
/// a clock, never runs a tick twice or skips one without reporting it, and never returns a
/// deadline earlier than its `now`.
///
/// # Time rules at the boundaries
///
/// * The first step always renders, even at `now == start`.
/// * A step whose `now` equals the latest `now` renders nothing: time did not advance.
/// * A `now` earlier than the latest `now` (or than `start`) means no time passed: the step
///   reports [`Event::TimeBackwards`](crate::Event::TimeBackwards), renders nothing (unless
///   it is the first step, which always renders), makes no new tick due (only a backlog the
///   cap left behind keeps running), and the next step measures from the latest `now`, so no
///   span is counted twice.
/// * A step that moves virtual time further than the max frame delta works off only as many
///   ticks as came due within it (or by the deadline the fold gave, if that is later), the
///   newest; the older ones are dropped and reported as
///   [`Event::DiscardedTime`](crate::Event::DiscardedTime) with their numbers (see
///   [`LoopConfig::max_frame_delta`](crate::LoopConfig::max_frame_delta)). With the clamp
///   off, gaps of centuries are still fine: each step runs at most the update cap (or
///   [`MAX_UPDATES_PER_STEP`](crate::MAX_UPDATES_PER_STEP)), reporting the rest as
///   [`Event::Deferred`](crate::Event::Deferred).
/// * Time ends at `u64::MAX` ns of virtual time (584 years): a tick whose exact due time does
///   not fit never comes due, nor does tick number `u64::MAX` (where tick numbers end), the
///   clock's grid stops there, and
///   [`Event::EndOfTime`](crate::Event::EndOfTime) says so once. Tick indices never repeat and
///   the deadline becomes `None` when no clock can tick.
///
/// A loop holds one or more named clocks, each with its own exact rate, cap, policy and firing
/// rule (the fixed-frequency sub-loops of "looping in time"). Within a step, updates come out
/// ordered by due time, ties broken by declaration order, so replays are bit-identical. Each
/// clock's numbers are in its [`clock`](LoopState::clock)`(c)?.stats()`.
///
/// # Its methods, in the order a shell meets them
///
/// * Make it and step it: [`new`](LoopState::new), then [`step`](LoopState::step),
///   [`advance`](LoopState::advance) or [`advance_into`](LoopState::advance_into).
/// * Read it through `&self`, with a read-only view for each layer of time, as Bevy keeps
///   `Time<Virtual>`, `Time<Real>` and `Time<Fixed>`: [`virtual_time`](LoopState::virtual_time)
///   (pause, time scale, elapsed and delta), [`real_time`](LoopState::real_time) (the clock
///   readings, the max frame delta, the render cap) and [`clock`](LoopState::clock) (one
///   clock's rate, cap, phase, hysteresis and numbers). A handler that gets `&LoopState` reads
///   every time and clock value there.
/// * Control it through the same layers with `&mut self`: [`virtual_time_mut`](LoopState::virtual_time_mut)
///   (pause, time scale, debug stepping), [`real_time_mut`](LoopState::real_time_mut) (the max
///   frame delta, the render cap) and [`clock_mut`](LoopState::clock_mut) (one clock's rate,
///   cap, phase, hysteresis, overstep). Each handle reads as its view does.
/// * Find the clocks: [`clock`](LoopState::clock) (by name or id; its id, name, numbers and
///   alpha), [`alpha_clock`](LoopState::alpha_clock), [`clock_names`](LoopState::clock_names).
/// * Change the set of clocks, refuse a tick, move the state to another time axis:
///   [`add_clock`](LoopState::add_clock), [`remove_clock`](LoopState::remove_clock),
///   [`refuse`](LoopState::refuse), [`rebase`](LoopState::rebase).
///
/// # Size and cost
///
/// A `LoopState` is one pointer (8 bytes on 64-bit targets) to a box holding the clocks and
/// the loop's time, so moving it through [`step`](LoopState::step) copies 8 bytes. Stepping
/// never allocates. Cloning allocates two blocks (the box and the list of clocks) and
/// copies every clock (a few hundred bytes each): a clone is an independent value, and
/// `==` compares the contents, so tests and replays can keep every state.
///
/// # Examples
///
/// The second printed trace of the purely functional Scheme loop article: 50 Hz ticks, frames of 16 ms.
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
///
/// let config = LoopConfig::new(Period::from_hz(50)?).max_updates(None).max_frame_delta(None);
/// let mut state = LoopState::new(config, Nanos(0))?;
/// let mut lags = Vec::new();
/// for frame in 1..=6 {
///     let (next, events) = state.step(Nanos::from_millis(16 * frame));
///     state = next;
///     lags.extend(events.updates().map(|t| t.lag.behind().0 / 1_000_000));
///     assert!(events.render().is_some());
/// }
/// assert_eq!(lags, [32, 28, 24, 20]);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LoopState<T = Nanos> {
    pub(crate) inner: Contents<T>,
}

/// The box holding a [`LoopState`]'s contents. Every mutable reach into it (a control, a
/// clock added or removed, a refused tick) forgets whether the fast path applies
/// ([`Inner::fast`]); only the step reaches in without forgetting ([`Contents::for_step`]), and
/// its general path works the answer out again. So no control can leave the fast path
/// taken where it no longer applies, whatever it changes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Contents<T>(Box<Inner<T>>);

impl<T> Contents<T> {
    pub(crate) fn new(inner: Inner<T>) -> Contents<T> {
        Contents(Box::new(inner))
    }

    /// The contents, out of their box.
    pub(crate) fn into_inner(self) -> Inner<T> {
        *self.0
    }

    /// The step's reach into the contents: the one that keeps [`Inner::fast`].
    #[inline(always)]
    pub(crate) fn for_step(&mut self) -> &mut Inner<T> {
        &mut self.0
    }
}

impl<T> Deref for Contents<T> {
    type Target = Inner<T>;

    #[inline(always)]
    fn deref(&self) -> &Inner<T> {
        &self.0
    }
}

impl<T> DerefMut for Contents<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Inner<T> {
        self.0.fast = FastPath::UNKNOWN;
        &mut self.0
    }
}

/// Which fast path the next step may take: [`Inner::fast_path`] as the latest step left it,
/// forgotten ([`UNKNOWN`](Self::UNKNOWN)) at any mutable reach into the state since (see
/// [`Contents`]). A cache of what the state says, so never saved, and two states compare
/// equal whatever theirs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct FastPath(pub(crate) u8);

impl FastPath {
    /// Not known, or no fast path applies: the next step takes the general path, which works
    /// it out.
    pub(crate) const UNKNOWN: FastPath = FastPath(0);
    /// One plain clock (see [`Inner::fast_path`]): the fast path of `step/lone.rs`.
    pub(crate) const ONE: FastPath = FastPath(1);
    /// Several plain clocks (see [`Inner::fast_path`]): the merged body's fast compile (`step/merged.rs`).
    pub(crate) const SEVERAL: FastPath = FastPath(2);
}

impl PartialEq for FastPath {
    fn eq(&self, _: &FastPath) -> bool {
        true
    }
}

/// The contents of a [`LoopState`]: the loop's layers of state, one field each. Every layer
/// is a type of its own module whose fields are private to it (the one home of what it
/// knows); the rest of the crate asks it through its methods. The layers are fields, not
/// accessors, so that the step can hold a clock and the event buffers at once (disjoint
/// borrows of two layers), which methods taking `&mut self` would forbid.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Inner<T> {
    /// Real time: the start, the latest reading, the max frame delta (see `time/real.rs`).
    pub(crate) real: Real<T>,
    /// Virtual time: its position, scale, pause and debug stepping (see `time/virtual_time.rs`).
    pub(crate) virt: Virtual,
    /// The clocks, the alpha clock and the controls' reports (see `clocks.rs`).
    pub(crate) clocks: ClockSet,
    /// The render cap and its next slot (see `time/render_cap.rs`).
    pub(crate) render: RenderCap,
    /// What the latest step covered (see `time/span.rs`).
    pub(crate) span: StepSpan,
    /// The buffers the steps' events reuse (see `events/few.rs`).
    pub(crate) pool: Pool<T>,
    /// Whether the next step may take the fast path (see [`FastPath`]).
    pub(crate) fast: FastPath,
    /// Where the readings stand while a handler holds the state (see `state/as_of.rs`): never
    /// saved, never read by the step.
    pub(crate) cursor: Cursor,
}

/// What the layers above the state (the input queue) read of it, through the layers' own
/// methods rather than its fields.
impl<T> LoopState<T> {
    /// The clock with id `id`, if the loop has it.
    pub(crate) fn clock_by_id(&self, id: ClockId) -> Option<&Clock> {
        self.inner.clocks.clock_ref(id)
    }

    /// The latest real-time reading, in ns since the start (`None` before the first step).
    pub(crate) fn latest_real(&self) -> Option<u64> {
        self.inner.real.latest()
    }

    /// What the latest step covered (see `time/span.rs`).
    pub(crate) fn latest_span(&self) -> &StepSpan {
        &self.inner.span
    }
}

impl<T: Timestamp> LoopState<T> {
    /// A loop that starts at `start`, checked against its configuration.
    ///
    /// The start is explicit: no clock is read. Tick 0 of every configured clock covers
    /// `[start, start + dt)`.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the first invalid setting (and the clock it belongs to): a
    /// per-clock setting made on the `LoopConfig` of a loop of two or more clocks
    /// ([`ConfigError::ClockSettingOnLoop`]), a zero update cap, a zero max frame delta, a
    /// phase outside `[0, 1)`, a hysteresis outside `[0, ½]`, a phase or hysteresis on a
    /// constant-rate policy, an empty clock name, two clocks with one name, or an alpha clock
    /// that does not exist. (Invalid rates and scales are refused by their own constructors, with a
    /// [`RateError`](crate::RateError).)
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ConfigError, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // The start is a timestamp of your clock: `Nanos` here, `Instant::now()` in a real loop.
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let main = state.clock("main").expect("the clock `LoopConfig::new` declares").stats();
    /// assert_eq!((main.ticks_run, main.next_tick), (0, 0));
    ///
    /// // Invalid settings are refused here, never at a later step.
    /// let bad = LoopConfig::new(Period::from_hz(60)?).max_updates(Some(0));
    /// let err = LoopState::new(bad, Nanos(0)).unwrap_err();
    /// assert_eq!(err, ConfigError::ZeroUpdateCap { clock: "main".into() });
    /// assert!(err.to_string().starts_with("clock \"main\": max updates per step"));
    /// # Ok::<(), ConfigError>(())
    /// ```
    pub fn new(config: LoopConfig, start: T) -> Result<LoopState<T>, ConfigError> {
        if let (Some(setting), [first, _, ..]) = (config.clock_setting_on_loop, &config.clocks[..])
        {
            return Err(ConfigError::ClockSettingOnLoop {
                setting,
                clock: first.name.clone(),
                clocks: config.clocks.len(),
            });
        }
        let max_delta = config.checked_max_delta()?;
        let mut clocks = ClockSet::with_capacity(config.clocks.len());
        for clock in config.clocks {
            let checked = clock.validate()?;
            if clocks.clock_id(&clock.name).is_some() {
                return Err(ConfigError::DuplicateClock(clock.name));
            }
            clocks
                .push_clock(clock, checked, 0)
                .ok_or(ConfigError::TooManyClocks)?;
        }
        // The alpha clock is resolved once, here: the one named, else the fastest (ties to the
        // first declared). The step reads the stored clock, never the rule.
        let alpha = match config.alpha_clock {
            Some(name) => clocks
                .clock_id(&name)
                .ok_or(ConfigError::AlphaClock(NoSuchClock::Name(name)))?,
            None => clocks.fastest().unwrap_or_default(),
        };
        clocks.set_alpha_clock(alpha);
        let pool = Pool::for_clocks(clocks.iter().map(|c| c.checked().cap));
        Ok(LoopState {
            inner: Contents::new(Inner {
                real: Real::new(start, max_delta),
                virt: Virtual::new(config.scale, config.paused),
                clocks,
                render: RenderCap::new(config.render_rate),
                span: StepSpan::new(config.scale, config.paused),
                pool,
                fast: FastPath::UNKNOWN,
                cursor: Cursor::default(),
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Events;

    #[test]
    fn values_stay_small() {
        // Moving a state through `step` copies one pointer; the events are a compact
        // description whatever the number of updates (sizes documented on the types). One
        // pointer: 8 bytes on 64-bit targets, 4 on wasm32.
        let pointer = core::mem::size_of::<usize>();
        assert_eq!(core::mem::size_of::<LoopState<Nanos>>(), pointer);
        #[cfg(target_pointer_width = "64")]
        assert_eq!(pointer, 8);
        #[cfg(target_pointer_width = "32")]
        assert_eq!(pointer, 4);
        let events = core::mem::size_of::<Events<Nanos>>();
        // One run inline (carrying its grid segment for the run-time controls and the fraction
        // of a ns its simulation time carries), the render, the deadline and two pointers to
        // the state's reused buffers for several clocks' runs and the rare events.
        assert!(events <= 184, "Events<Nanos> grew to {events} bytes");
    }
}
