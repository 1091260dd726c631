//! [`ReadingSim`]: the schedule check for a simulation whose update also reads the loop (the
//! virtual time, another clock's latest tick) through the `&LoopState` a shell hands it.

use core::fmt;

use super::check::Failure;
use super::frame::{check_frames, fold_frames};
use super::{KitError, Schedule};
use tickfold_core::{AsOfError, Event, Events, LoopConfig, LoopState, Nanos, Tick};

/// A simulation whose `update(&mut S, &Tick, &LoopState)` reads the loop as a runner or
/// winit handler does: the state is handed on with [`LoopState::hand_on`], so every reading
/// is the value as of the tick in the loop's total order (see [`LoopState::as_of`]).
/// [`same_across_schedules`](ReadingSim::same_across_schedules) checks that the result does
/// not depend on how frames slice time, as [`Sim`](super::Sim)'s check does for an update
/// that sees only the tick.
///
/// # Examples
///
/// ```
/// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period, Tick};
/// use tickfold_testing::{ReadingSim, Schedule};
///
/// // Physics at 30 Hz, AI at 10 Hz: each AI tick notes the time and physics' latest tick.
/// let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
///     .clock(ClockConfig::new("ai", Period::from_hz(10)?))
///     .max_frame_delta(None);
/// let update = |seen: &mut Vec<(u64, Option<u64>)>, tick: &Tick, state: &LoopState| {
///     if state.clock(tick.clock).is_ok_and(|c| c.name() == "ai") {
///         let physics = state.clock("physics").ok().and_then(|c| c.latest_tick());
///         seen.push((state.virtual_time().elapsed().0, physics.map(|t| t.index)));
///     }
/// };
/// let sim = ReadingSim::new(config, Vec::new(), update)?;
/// sim.same_across_schedules(&[Schedule::vsync(60u64, 120)?, Schedule::from_millis(&[250.0; 8])?])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ReadingSim<S, F> {
    state: LoopState<Nanos>,
    init: S,
    update: F,
}

impl<S: fmt::Debug, F> fmt::Debug for ReadingSim<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadingSim")
            .field("state", &self.state)
            .field("init", &self.init)
            .finish_non_exhaustive()
    }
}

impl<S: Clone, F: Fn(&mut S, &Tick, &LoopState<Nanos>)> ReadingSim<S, F> {
    /// A simulation driven by a tickfold loop with `config`, starting at `Nanos(0)`. As for
    /// [`Sim::new`](super::Sim::new), prefer `config.max_frame_delta(None)`; caps are fine.
    ///
    /// # Errors
    ///
    /// [`KitError::Config`] when the loop refuses the configuration.
    pub fn new(config: LoopConfig, init: S, update: F) -> Result<ReadingSim<S, F>, KitError> {
        Ok(ReadingSim {
            state: LoopState::new(config, Nanos::ZERO)?,
            init,
            update,
        })
    }

    /// Folds the simulation over `schedule`, then steps at the schedule's end until no
    /// backlog is left; every update is handed the state as of its tick. Returns the final
    /// state.
    #[must_use]
    pub fn fold(&self, schedule: &Schedule) -> S {
        let end = Some(schedule.end());
        fold_frames(&self.state, self.init.clone(), &self.frame(), schedule, end)
            .0
            .state
    }

    /// The frame code the kit runs for this simulation: every update handed on with the
    /// state as of its tick.
    fn frame(
        &self,
    ) -> impl Fn(&mut S, &mut LoopState<Nanos>, &Events<Nanos>) -> Result<(), AsOfError> + '_ {
        |sim, state, events| {
            state.hand_on(events, |event, state| {
                if let Event::Update(tick) = event {
                    (self.update)(sim, &tick, state);
                }
            })
        }
    }

    /// Checks that every schedule gives the same ticks and the same final state (under
    /// `PartialEq`) as a reference run of one frame per tick of the alpha clock, each run
    /// brought to the latest end of all schedules and worked off to no backlog.
    ///
    /// # Errors
    ///
    /// [`Failure::Input`]`(`[`KitError::NoSchedules`]`)` for an empty list;
    /// [`Failure::Schedule`] for the first schedule whose result differs, with the first
    /// differing field.
    pub fn same_across_schedules<'a>(
        &self,
        schedules: impl IntoIterator<Item = &'a Schedule>,
    ) -> Result<(), Failure>
    where
        S: PartialEq + fmt::Debug,
    {
        check_frames(
            &self.state,
            &self.init,
            &self.frame(),
            schedules,
            "the update read the loop as of each tick (LoopState::hand_on), so what \
             depends on the frames is something the update took from the frame: \
             `Tick::last_in_step` (it marks the last update of each step, so it moves \
             with the frames), a reading made at the step's end (`..._at_step_end`), \
             or state kept outside the simulation",
        )
    }
}
