//! Replays with seek: a [`Recording`] with periodic [`Keyframe`]s, played back by a [`Player`]
//! that jumps to any tick by loading the nearest keyframe and folding forward, and that plays
//! one recorded tick per update of the loop that drives it (so the loop's own time scale,
//! pause and single-stepping are the replay's speed, pause and step).

use core::fmt;

use tickfold_core::{ClockId, Event, Events, LoopState, Nanos, Period, Tick};

use crate::keyframe::{Keyframe, Rewind};
use crate::replay::Recording;
use crate::replay_file::ReplayError;

/// Where a [`Player`] stands: just after one tick of the recording's alpha clock, exactly as
/// the recorded run stood after handling it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The alpha clock's tick last handled; `None` before its first.
    pub tick: Option<u64>,
    /// The recorded loop's virtual time as of that tick (its due time, as
    /// [`LoopState::as_of`] reads it); before the first tick, the virtual time at the start.
    pub virtual_time: Nanos,
    /// The recorded steps folded to get here: the tick ran in step `steps - 1`.
    pub steps: usize,
}

/// Why a [`Player`] could not be built or could not seek.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SeekError<E> {
    /// The recording has no keyframes (record with [`Recorder::with_saves`](crate::Recorder::with_saves)),
    /// or they break the rules of a recording (see [`ReplayError`]).
    Recording(ReplayError),
    /// The tick asked for is after the recording's last tick of the alpha clock (`None`:
    /// the recording runs no tick at all). The player has not moved.
    PastEnd {
        /// The tick asked for.
        requested: u64,
        /// The recording's last tick.
        last: Option<u64>,
    },
    /// The world refused a keyframe's save ([`Rewind::load`]). The player has not moved.
    Load(E),
}

impl<E: fmt::Display> fmt::Display for SeekError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeekError::Recording(e) => write!(f, "the recording cannot be played: {e}"),
            SeekError::PastEnd {
                requested,
                last: Some(last),
            } => write!(
                f,
                "tick {requested} is past the recording's last tick, {last}"
            ),
            SeekError::PastEnd {
                requested,
                last: None,
            } => write!(f, "tick {requested} asked of a recording that runs no tick"),
            SeekError::Load(e) => write!(f, "the world refused a keyframe: {e}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for SeekError<E> {}

/// What [`Player::play`] did with one step of the loop that drives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Recorded ticks played (one per update of the driving loop).
    pub ticks: u64,
    /// Updates of the driving loop that found the recording at its end: nothing was played
    /// for them. Pause the driving loop once this is not zero.
    pub past_end: u64,
    /// Where the player stands now.
    pub at: Position,
}

/// Plays a [`Recording`] with keyframes back: seeks to any tick, forwards or back, and plays
/// one recorded tick per update of the loop that drives it.
///
/// **Seeking** ([`seek`](Player::seek)) loads the latest keyframe before the tick (unless the
/// player already stands between it and the tick) and folds the recorded `now`s and inputs
/// forward through the recorded loop and your `update`, stopping right after the tick: its
/// cost is bounded by the save interval (plus one step's ticks), not by the recording's
/// length. It lands exactly where the recorded run stood after that tick, world and loop
/// alike, and says so with a [`Position`] (the tick number, the virtual time as of it).
///
/// **Playing** ([`play`](Player::play), or [`next_tick`](Player::next_tick) per update) is
/// driven by your own loop: give it a loop at the recording's rate ([`rate`](Player::rate))
/// and call `play` with each step's events (or, in a shell that hands you one event at a
/// time, such as the `tickfold` runner, `next_tick` on each `Event::Update`). The loop's run-time controls are then the replay's:
/// `set_scale(TimeScale::ratio(1, 4)?)` plays at 0.25×, `TimeScale::ratio(8, 1)?` at 8×,
/// `pause()` pauses it and `step_ticks(1)` plays exactly one tick (see the guide's controls
/// and stepping pages). Your loop's renders blend with its own alpha.
///
/// Every recorded update is handed the tick as it ran in the recorded run (its index, `t`,
/// `dt`, lag and `last_in_step`) with the inputs recorded for its step, whatever loop drives
/// the player, so the world is the recorded run's exactly. (An interpolation tracker then
/// captures as in the recorded run, before each recorded step's last update: a render between
/// two ticks of one recorded step, which the recorded run never drew, blends from that
/// step's capture.)
///
/// # Examples
///
/// ```
/// use core::num::NonZeroU64;
/// use tickfold_testing::{Player, Recorder, Rewind};
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, Tick, TimeScale};
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Sum(i64);
/// impl Rewind for Sum {
///     type Save = Sum;
///     type Error = core::convert::Infallible;
///     fn save(&self) -> Sum { self.clone() }
///     fn load(save: &Sum) -> Result<Sum, Self::Error> { Ok(save.clone()) }
/// }
/// fn update(s: &mut Sum, tick: &Tick, push: &i64) { s.0 = s.0 * 3 % 1_000_003 + push + tick.index as i64; }
///
/// // Record 10 s at 60 Hz with a keyframe every second.
/// let config = LoopConfig::new(Period::from_hz(60)?);
/// let mut rec = Recorder::new(config, Nanos(0), Sum(0))?.with_saves(NonZeroU64::new(60).unwrap());
/// for frame in 1..=600u64 {
///     rec.step(Nanos::from_millis(frame * 50 / 3), (frame % 7) as i64, update);
/// }
/// let mut player = Player::new(rec.finish())?;
///
/// // Jump to tick 450, then back to 120.
/// let at = player.seek(450, update)?;
/// // Tick 450 comes due at the end of its 1/60 s: 451/60 s, to the ns.
/// assert_eq!((at.tick, at.virtual_time), (Some(450), Nanos(7_516_666_667)));
/// let at = player.seek(119, update)?;
/// assert_eq!(at.tick, Some(119));
///
/// // Play at 0.25× from there: 1 s of the viewer's time is 15 recorded ticks.
/// let mut viewer = LoopState::new(LoopConfig::new(player.rate()), Nanos(0))?;
/// viewer.virtual_time_mut().set_scale(TimeScale::ratio(1, 4)?);
/// let mut played = 0;
/// for frame in 1..=60u64 {
///     let events = viewer.advance(Nanos::from_millis(frame * 50 / 3));
///     played += player.play(&events, update).ticks;
/// }
/// assert_eq!((played, player.position().tick), (15, Some(134)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Player<S: Rewind, I> {
    recording: Recording<S, I, S::Save>,
    /// The recording's alpha clock (its first keyframe's): whose ticks the player counts.
    clock: ClockId,
    /// For each keyframe, the alpha clock's next tick number there (ticks below it ran or
    /// were dropped): nondecreasing.
    reached: Vec<u64>,
    /// The recording's last tick of the alpha clock.
    last: Option<u64>,
    /// The recorded loop, after `folded` steps.
    loop_state: LoopState<Nanos>,
    /// The events of the latest folded step.
    events: Events<Nanos>,
    folded: usize,
    /// The updates of the latest folded step already handed to the world.
    applied: usize,
    world: S,
    at: Position,
}

impl<S: Rewind, I> fmt::Debug for Player<S, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Player")
            .field("at", &self.at)
            .field("last", &self.last)
            .field("keyframes", &self.reached.len())
            .finish_non_exhaustive()
    }
}

impl<S: Rewind, I> Player<S, I> {
    /// A player of `recording`, standing at its start (the first keyframe's world).
    ///
    /// # Errors
    ///
    /// [`SeekError::Recording`] for a recording without keyframes (made without
    /// [`Recorder::with_saves`](crate::Recorder::with_saves)) or whose keyframes break the
    /// rules a loaded replay file is checked against ([`ReplayError`]), and
    /// [`SeekError::Load`] when the world refuses the first keyframe.
    pub fn new(recording: Recording<S, I, S::Save>) -> Result<Player<S, I>, SeekError<S::Error>> {
        recording.check().map_err(SeekError::Recording)?;
        let first = recording
            .keyframes
            .first()
            .ok_or(SeekError::Recording(ReplayError::NoKeyframes))?;
        let clock = first.loop_state.alpha_clock();
        let reached_at = |k: &Keyframe<S::Save>| {
            k.loop_state
                .clock(clock)
                .map(|c| c.stats_at_step_end().next_tick)
                .ok()
        };
        let reached: Option<Vec<u64>> = recording.keyframes.iter().map(reached_at).collect();
        let reached = reached.ok_or(SeekError::Recording(ReplayError::ClockRemoved(clock)))?;
        let last = recording.keyframes.last().and_then(|k| {
            let c = k.loop_state.clock(clock).ok()?;
            c.latest_tick_at_step_end().map(|t| t.index)
        });
        let world = S::load(&first.world).map_err(SeekError::Load)?;
        let loop_state = first.loop_state.clone();
        let at = Position {
            tick: None,
            virtual_time: loop_state.virtual_time().elapsed_at_step_end(),
            steps: first.step,
        };
        Ok(Player {
            clock,
            reached,
            last,
            loop_state,
            events: Events::new(),
            folded: first.step,
            applied: 0,
            world,
            at,
            recording,
        })
    }

    /// The recording played.
    #[must_use]
    pub fn recording(&self) -> &Recording<S, I, S::Save> {
        &self.recording
    }

    /// The world as the recorded run had it at [`position`](Player::position).
    #[must_use]
    pub fn world(&self) -> &S {
        &self.world
    }

    /// The recorded loop, after the steps folded so far (its readings are the end of the
    /// latest step; the player may stand before that step's last update).
    #[must_use]
    pub fn loop_state(&self) -> &LoopState<Nanos> {
        &self.loop_state
    }

    /// Where the player stands.
    #[must_use]
    pub fn position(&self) -> Position {
        self.at
    }

    /// The recording's last tick of the alpha clock; `None` if it runs none.
    #[must_use]
    pub fn last_tick(&self) -> Option<u64> {
        self.last
    }

    /// Whether the player stands at the recording's last tick (or the recording runs none).
    #[must_use]
    pub fn at_end(&self) -> bool {
        self.at.tick == self.last
    }

    /// The recording's alpha clock's rate as the player stands: the rate to give the loop
    /// that drives [`play`](Player::play) for playback at 1×.
    #[must_use]
    pub fn rate(&self) -> Period {
        self.loop_state
            .clock(self.clock)
            .map_or(Period::ONE_SECOND, |c| c.rate())
    }

    /// Jumps to just after tick `tick` of the alpha clock, forwards or back, and says where it
    /// landed: at `tick`, or at the first tick after it that ran when the recorded run dropped
    /// `tick` (the [`Position`] says which). Loads the latest keyframe before `tick` unless
    /// the player already stands between that keyframe and `tick`, then folds forward.
    ///
    /// # Errors
    ///
    /// [`SeekError::PastEnd`] for a tick after the recording's last (seek to
    /// [`last_tick`](Player::last_tick) for the end), [`SeekError::Load`] when the world
    /// refuses the keyframe; the player has not moved in either case.
    pub fn seek(
        &mut self,
        tick: u64,
        update: impl Fn(&mut S, &Tick, &I),
    ) -> Result<Position, SeekError<S::Error>> {
        let last = match self.last {
            Some(last) if tick <= last => last,
            last => {
                return Err(SeekError::PastEnd {
                    requested: tick,
                    last,
                });
            }
        };
        debug_assert!(tick <= last);
        if self.at.tick == Some(tick) {
            return Ok(self.at);
        }
        // The latest keyframe before `tick` ran (reached[0] is 0, so there is one).
        let k = self
            .reached
            .partition_point(|&r| r <= tick)
            .saturating_sub(1);
        let next = self.at.tick.map_or(0, |t| t + 1);
        if next > tick || next < self.reached[k] {
            self.load(k)?;
        }
        Ok(self.forward_to(tick, &update).unwrap_or(self.at))
    }

    /// Goes back to the start: the first keyframe, before any tick.
    ///
    /// # Errors
    ///
    /// [`SeekError::Load`] when the world refuses the keyframe; the player has not moved.
    pub fn rewind(&mut self) -> Result<Position, SeekError<S::Error>> {
        self.load(0)?;
        Ok(self.at)
    }

    /// Plays the next tick of the alpha clock (and the updates of other clocks before it);
    /// `None` at the end of the recording (the player stays there).
    pub fn next_tick(&mut self, update: impl Fn(&mut S, &Tick, &I)) -> Option<Position> {
        if self.at_end() {
            return None;
        }
        let next = self.at.tick.map_or(0, |t| t + 1);
        self.forward_to(next, &update)
    }

    /// Plays one recorded tick per update in `events` (one step of the loop that drives the
    /// player: give it one clock at [`rate`](Player::rate)) and says how many, and how many
    /// found the recording at its end.
    pub fn play<T>(&mut self, events: &Events<T>, update: impl Fn(&mut S, &Tick, &I)) -> Played {
        let (mut ticks, mut past_end) = (0, 0);
        for _ in events.updates() {
            if self.next_tick(&update).is_some() {
                ticks += 1;
            } else {
                past_end += 1;
            }
        }
        Played {
            ticks,
            past_end,
            at: self.at,
        }
    }

    /// Stands at keyframe `k`: its loop state and a world loaded from its save.
    fn load(&mut self, k: usize) -> Result<(), SeekError<S::Error>> {
        let key = &self.recording.keyframes[k];
        self.world = S::load(&key.world).map_err(SeekError::Load)?;
        self.loop_state.clone_from(&key.loop_state);
        self.events = Events::new();
        self.folded = key.step;
        self.applied = 0;
        let clock = self.loop_state.clock(self.clock).ok();
        self.at = Position {
            tick: clock.and_then(|c| c.latest_tick_at_step_end().map(|t| t.index)),
            virtual_time: self.loop_state.virtual_time().elapsed_at_step_end(),
            steps: key.step,
        };
        Ok(())
    }

    /// Hands the recorded updates on until one of the alpha clock numbered `target` or later
    /// has run, and stands just after it; `None` (standing where the recording ends) if the
    /// recording has no such tick.
    fn forward_to(&mut self, target: u64, update: &impl Fn(&mut S, &Tick, &I)) -> Option<Position> {
        loop {
            let tick = self.next_update(update)?;
            if tick.clock == self.clock && tick.index >= target {
                let virtual_time = self
                    .loop_state
                    .as_of(&self.events, &Event::Update(tick), |s| {
                        s.virtual_time().elapsed()
                    })
                    .unwrap_or_else(|_| {
                        // The events are the latest step's and nothing controlled the state
                        // since: `as_of` cannot refuse them.
                        debug_assert!(false, "as_of refused the latest step's update");
                        self.loop_state.virtual_time().elapsed_at_step_end()
                    });
                self.at = Position {
                    tick: Some(tick.index),
                    virtual_time,
                    steps: self.folded,
                };
                return Some(self.at);
            }
        }
    }

    /// Hands the next recorded update to the world, folding the next recorded step when the
    /// latest one's updates are all handed on; `None` at the end of the recording.
    fn next_update(&mut self, update: &impl Fn(&mut S, &Tick, &I)) -> Option<Tick> {
        loop {
            if let Some(tick) = self.events.updates().nth(self.applied) {
                let inputs = &self.recording.steps[self.folded - 1].inputs;
                update(&mut self.world, &tick, inputs);
                self.applied += 1;
                return Some(tick);
            }
            let step = self.recording.steps.get(self.folded)?;
            self.loop_state.advance_into(step.now, &mut self.events);
            self.folded += 1;
            self.applied = 0;
        }
    }
}
