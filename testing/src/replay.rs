//! Record the `now` and inputs of every step, replay them, compare trace hashes.

use core::hash::{Hash, Hasher};
use core::num::NonZeroU64;

use super::KitError;
use crate::fnv::{FNV_OFFSET, Fnv1a};
use crate::keyframe::{Keyframe, Rewind};
use tickfold_core::{DropReason, Event, Events, LoopConfig, LoopState, Nanos, Tick};

/// Feeds one event in the kit's fixed encoding: a tag byte, then every field as
/// little-endian integers (floats by their bits, `bool`s as one byte).
pub(crate) fn hash_event(h: &mut Fnv1a, e: &Event<Nanos>) {
    match e {
        Event::TimeBackwards { by } => {
            h.write_u8(0);
            h.write_u64(by.0);
        }
        Event::DiscardedTime {
            clock,
            time,
            first,
            ticks,
        } => {
            h.write_u8(1);
            h.write_u16(clock.0);
            h.write_u64(time.0);
            h.write_u64(*first);
            h.write_u64(*ticks);
        }
        Event::DroppedTicks {
            clock,
            first,
            count,
            reason,
        } => {
            h.write_u8(2);
            h.write_u16(clock.0);
            h.write_u64(*first);
            h.write_u64(*count);
            h.write_u8(match reason {
                DropReason::SlotMissed => 0,
                // A reason added later: one tag for all until the encoding names it.
                _ => u8::MAX,
            });
        }
        Event::Sleep { until } => {
            h.write_u8(3);
            h.write_u64(until.0);
        }
        Event::Update(t) => {
            h.write_u8(4);
            h.write_u16(t.clock.0);
            h.write_u64(t.index);
            h.write_u64(t.t.0);
            let (num, den) = t.dt.as_nanos_ratio();
            h.write_u64(num);
            h.write_u64(den);
            // Two's complement of the exact lag: the same bytes as before `Lag` for every lag
            // that fits an i64.
            h.write_u64(t.lag.as_nanos() as u64);
            h.write_u8(u8::from(t.last_in_step));
        }
        Event::Deferred { clock, ticks } => {
            h.write_u8(5);
            h.write_u16(clock.0);
            h.write_u64(*ticks);
        }
        Event::Render(r) => {
            h.write_u8(6);
            h.write_u64(r.alpha.to_bits());
            h.write_u64(r.lag.as_nanos() as u64);
            h.write_u64(r.ticks);
            h.write_u8(u8::from(r.paused));
        }
        Event::Paused => h.write_u8(7),
        Event::Resumed => h.write_u8(8),
        Event::ScaleChanged(s) => {
            h.write_u8(9);
            let (num, den) = s.as_ratio();
            h.write_u32(num);
            h.write_u32(den);
        }
        Event::EndOfTime { clock, next_tick } => {
            h.write_u8(10);
            h.write_u16(clock.0);
            h.write_u64(*next_tick);
        }
        // An event kind added later: one tag for all until the encoding names it.
        _ => h.write_u8(u8::MAX),
    }
}

/// One recorded step: the `now` given to the fold and the inputs gathered for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RecordedStep<I> {
    /// The `now` of the step.
    pub now: Nanos,
    /// The inputs handed to every update of the step.
    pub inputs: I,
}

/// Hashes one step (now, inputs, events, optional state checksum) into `h`.
fn hash_step<S, I: Hash>(
    h: &mut Fnv1a,
    now: Nanos,
    inputs: &I,
    events: &Events<Nanos>,
    state: &S,
    checksum: Option<fn(&S) -> u64>,
) {
    h.write_u64(now.0);
    inputs.hash(h);
    h.write_u64(events.len() as u64);
    for e in events {
        hash_event(h, &e);
    }
    if let Some(c) = checksum {
        h.write_u64(c(state));
    }
}

/// Steps a tickfold loop and a simulation together while recording each step's `now` and
/// inputs, for a bit-exact [`Recording::replay`].
///
/// The update is `update(&mut S, &Tick, &I)`: every update of a step sees that step's inputs,
/// and a step that runs no update hands its inputs to nobody (the "heterogeneous iterations" of
/// the "Main Loops, Refresh Rates, and Determinism" article), so latch one-shot inputs such as "jump pressed" in your state. The trace
/// hash covers each step's `now`, the inputs (through their `Hash` impl fed to [`Fnv1a`]),
/// the loop's events and, with [`with_checksum`](Recorder::with_checksum), your state.
///
/// # Examples
///
/// ```
/// use tickfold_testing::Recorder;
/// use tickfold_core::{LoopConfig, Nanos, Tick, Period};
///
/// fn update(x: &mut i64, _tick: &Tick, push: &i64) { *x += push; }
///
/// let config = LoopConfig::new(Period::from_hz(60)?);
/// let mut rec = Recorder::new(config, Nanos(0), 0i64)?.with_checksum(|x| *x as u64);
/// for (frame, push) in [(1u64, 1i64), (2, -1), (3, 5), (4, 0)] {
///     rec.step(Nanos::from_millis(17 * frame), push, update);
/// }
/// let recording = rec.finish();
/// let replayed = recording.replay(0i64, update)?;
/// assert_eq!(replayed.hash, recording.hash());
/// assert_eq!(replayed.state, 5);
/// assert_eq!(replayed.first_difference, None);
/// # Ok::<(), tickfold_testing::KitError>(())
/// ```
pub struct Recorder<S, I, W = ()> {
    recording: Recording<S, I, W>,
    loop_state: LoopState<Nanos>,
    state: S,
    hash: Fnv1a,
    events: Events<Nanos>,
    /// With [`with_saves`](Recorder::with_saves): the interval in ticks of the alpha clock,
    /// the tick number at or after which the next keyframe is saved, and how.
    saves: Option<Saves<S, W>>,
}

/// When and how a recorder saves keyframes.
struct Saves<S, W> {
    every: NonZeroU64,
    next: u64,
    save: fn(&S) -> W,
}

impl<S, I: Hash> Recorder<S, I> {
    /// A recorder for a loop with `config` starting at `start`, and a simulation in `state`.
    ///
    /// # Errors
    ///
    /// [`KitError::Config`] when the loop refuses the configuration.
    pub fn new(config: LoopConfig, start: Nanos, state: S) -> Result<Recorder<S, I>, KitError> {
        Ok(Recorder {
            loop_state: LoopState::new(config.clone(), start)?,
            recording: Recording {
                config,
                start,
                steps: Vec::new(),
                step_hashes: Vec::new(),
                keyframes: Vec::new(),
                checksum: None,
            },
            state,
            hash: Fnv1a::new(),
            events: Events::new(),
            saves: None,
        })
    }

    /// Also saves a keyframe (the loop state and `S::save` of the world, see [`Rewind`])
    /// before the first step, after the first step that reaches tick `every`, `2·every`, … of
    /// the alpha clock, and at [`finish`](Recorder::finish): the periodic saves a
    /// [`Player`](crate::Player) seeks from, so that a seek folds at most about `every` ticks
    /// (plus one step's) whatever the recording's length.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::num::NonZeroU64;
    /// use tickfold_testing::{Recorder, Rewind};
    /// use tickfold_core::{LoopConfig, Nanos, Period, Tick};
    ///
    /// #[derive(Clone)]
    /// struct Counter(u64);
    /// impl Rewind for Counter {
    ///     type Save = Counter;
    ///     type Error = core::convert::Infallible;
    ///     fn save(&self) -> Counter { self.clone() }
    ///     fn load(save: &Counter) -> Result<Counter, Self::Error> { Ok(save.clone()) }
    /// }
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?);
    /// let every = NonZeroU64::new(60).expect("not zero"); // one save a second
    /// let mut rec = Recorder::new(config, Nanos(0), Counter(0))?.with_saves(every);
    /// for frame in 1..=180u64 {
    ///     rec.step(Nanos::from_millis(1000 * frame / 60 + 1), (), |c, _: &Tick, _: &()| c.0 += 1);
    /// }
    /// // Before the first step, at ticks 60 and 120, and at the end.
    /// assert_eq!(rec.finish().keyframes().len(), 4);
    /// # Ok::<(), tickfold_testing::KitError>(())
    /// ```
    #[must_use]
    pub fn with_saves(self, every: NonZeroU64) -> Recorder<S, I, S::Save>
    where
        S: Rewind,
    {
        let Recording {
            config,
            start,
            steps,
            step_hashes,
            keyframes: _,
            checksum,
        } = self.recording;
        let mut rec = Recorder {
            recording: Recording {
                config,
                start,
                steps,
                step_hashes,
                keyframes: Vec::new(),
                checksum,
            },
            loop_state: self.loop_state,
            state: self.state,
            hash: self.hash,
            events: self.events,
            saves: Some(Saves {
                every,
                next: 0,
                save: S::save,
            }),
        };
        rec.save_if_due();
        rec
    }
}

impl<S, I: Hash, W> Recorder<S, I, W> {
    /// Saves a keyframe if the alpha clock has reached the next save's tick.
    fn save_if_due(&mut self) {
        let Some(saves) = &mut self.saves else {
            return;
        };
        let reached = self
            .loop_state
            .clock(self.loop_state.alpha_clock())
            .map_or(0, |c| c.stats_at_step_end().next_tick);
        let step = self.recording.steps.len();
        if reached < saves.next && step > 0 {
            return;
        }
        saves.next = (reached / saves.every.get())
            .saturating_add(1)
            .saturating_mul(saves.every.get());
        let world = (saves.save)(&self.state);
        self.recording.keyframes.push(Keyframe {
            step,
            loop_state: self.loop_state.clone(),
            world,
        });
    }

    /// Also hashes `checksum(&state)` after every step, so a replay must reproduce the state,
    /// not only the loop's events.
    #[must_use]
    pub fn with_checksum(mut self, checksum: fn(&S) -> u64) -> Recorder<S, I, W> {
        self.recording.checksum = Some(checksum);
        self
    }

    /// Records `now` and `inputs`, steps the loop, runs every update of the step through
    /// `update` and returns the step's events (to render from, for example).
    pub fn step(
        &mut self,
        now: Nanos,
        inputs: I,
        update: impl Fn(&mut S, &Tick, &I),
    ) -> &Events<Nanos> {
        self.loop_state.advance_into(now, &mut self.events);
        for tick in self.events.updates() {
            update(&mut self.state, &tick, &inputs);
        }
        hash_step(
            &mut self.hash,
            now,
            &inputs,
            &self.events,
            &self.state,
            self.recording.checksum,
        );
        self.recording.step_hashes.push(self.hash.value());
        self.recording.steps.push(RecordedStep { now, inputs });
        self.save_if_due();
        &self.events
    }

    /// The simulation state so far.
    #[must_use]
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The trace hash so far.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash.value()
    }

    /// Ends the recording; with [`with_saves`](Recorder::with_saves), after a last keyframe
    /// of the final state (unless one was just saved).
    #[must_use]
    pub fn finish(mut self) -> Recording<S, I, W> {
        let step = self.recording.steps.len();
        if let Some(saves) = &self.saves {
            if self
                .recording
                .keyframes
                .last()
                .is_none_or(|k| k.step != step)
            {
                let world = (saves.save)(&self.state);
                self.recording.keyframes.push(Keyframe {
                    step,
                    loop_state: self.loop_state.clone(),
                    world,
                });
            }
        }
        self.recording
    }
}

/// A recorded run: the loop configuration and start, each step's `now` and inputs, the
/// running trace hash after each step, and (with [`Recorder::with_saves`]) the periodic
/// [`Keyframe`]s a [`Player`](crate::Player) seeks from. `W` is what a keyframe holds of the
/// world ([`Rewind::Save`]); `()` without saves.
///
/// With the `serde` feature a recording is a replay file, versioned and checked on load like
/// a save: it serializes as a format tag, a version, its configuration, start, steps, step
/// hashes and keyframes, and a digest of all of them, and loading it refuses a file it cannot
/// vouch for with a [`ReplayError`](crate::ReplayError) (see there). The state checksum is a
/// function, so it is not written: give it back with
/// [`with_checksum`](Recording::with_checksum) after loading.
#[derive(Clone, Debug)]
pub struct Recording<S, I, W = ()> {
    pub(crate) config: LoopConfig,
    pub(crate) start: Nanos,
    pub(crate) steps: Vec<RecordedStep<I>>,
    pub(crate) step_hashes: Vec<u64>,
    pub(crate) keyframes: Vec<Keyframe<W>>,
    pub(crate) checksum: Option<fn(&S) -> u64>,
}

/// The outcome of [`Recording::replay`].
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed<S> {
    /// The simulation state after the last replayed step.
    pub state: S,
    /// The replay's trace hash; equal to [`Recording::hash`] when the replay is exact.
    pub hash: u64,
    /// The first step whose running hash differs from the recording's, if any.
    pub first_difference: Option<usize>,
}

impl<S, I: Hash, W> Recording<S, I, W> {
    /// Hashes `checksum(&state)` after every step of a replay, as the recorder did: needed
    /// for a recording loaded from a replay file when the recorder used
    /// [`Recorder::with_checksum`] (functions are not serialized).
    #[must_use]
    pub fn with_checksum(mut self, checksum: fn(&S) -> u64) -> Recording<S, I, W> {
        self.checksum = Some(checksum);
        self
    }

    /// The recorded steps, in order.
    #[must_use]
    pub fn steps(&self) -> &[RecordedStep<I>] {
        &self.steps
    }

    /// The periodic saves, in step order: empty without [`Recorder::with_saves`]; with it,
    /// the first is before the first step and the last after the last step.
    #[must_use]
    pub fn keyframes(&self) -> &[Keyframe<W>] {
        &self.keyframes
    }

    /// The recording's trace hash (64-bit FNV-1a; the empty hash for no steps).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.step_hashes.last().copied().unwrap_or(FNV_OFFSET)
    }

    /// Replays the recorded `now`s and inputs through a fresh loop and `update`, starting from
    /// `init`, and hashes the run the same way.
    ///
    /// # Errors
    ///
    /// [`KitError::Config`] when the loop refuses the recorded configuration (not possible
    /// for a recording made by [`Recorder`]).
    pub fn replay(
        &self,
        init: S,
        update: impl Fn(&mut S, &Tick, &I),
    ) -> Result<Replayed<S>, KitError> {
        let mut loop_state = LoopState::new(self.config.clone(), self.start)?;
        let mut state = init;
        let mut h = Fnv1a::new();
        let mut events = Events::new();
        let mut first_difference = None;
        for (i, step) in self.steps.iter().enumerate() {
            loop_state.advance_into(step.now, &mut events);
            for tick in events.updates() {
                update(&mut state, &tick, &step.inputs);
            }
            hash_step(
                &mut h,
                step.now,
                &step.inputs,
                &events,
                &state,
                self.checksum,
            );
            if first_difference.is_none() && self.step_hashes[i] != h.value() {
                first_difference = Some(i);
            }
        }
        Ok(Replayed {
            state,
            hash: h.value(),
            first_difference,
        })
    }
}
