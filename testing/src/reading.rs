//! [`ReadingSim`]: the schedule check for a simulation whose update also reads the loop (the
//! virtual time, another clock's latest tick) through the `&LoopState` a shell hands it.

use core::fmt;

use super::check::{Failure, ScheduleMismatch};
use super::{KitError, Schedule, debug_diff};
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Tick};

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
    config: LoopConfig,
    init: S,
    update: F,
}

impl<S: fmt::Debug, F> fmt::Debug for ReadingSim<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadingSim")
            .field("config", &self.config)
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
        LoopState::new(config.clone(), Nanos::ZERO)?;
        Ok(ReadingSim {
            config,
            init,
            update,
        })
    }

    /// Folds the simulation over `schedule`, then steps at the schedule's end until no
    /// backlog is left; every update is handed the state as of its tick. Returns the final
    /// state.
    #[must_use]
    pub fn fold(&self, schedule: &Schedule) -> S {
        self.fold_to(schedule, schedule.end())
    }

    fn fold_to(&self, schedule: &Schedule, end: Nanos) -> S {
        let Ok(mut state) = LoopState::new(self.config.clone(), Nanos::ZERO) else {
            return self.init.clone();
        };
        let mut sim = self.init.clone();
        let mut step = |state: &mut LoopState<Nanos>, now: Nanos| {
            let events = state.advance(now);
            let ran = events.update_count() > 0;
            let deferred = events.iter().any(|e| matches!(e, Event::Deferred { .. }));
            // `hand_on` fails only for events that are not the latest step's: these are.
            let _ = state.hand_on(&events, |event, state| {
                if let Event::Update(tick) = event {
                    (self.update)(&mut sim, &tick, state);
                }
            });
            ran && deferred
        };
        let mut high = Nanos::ZERO;
        for now in schedule.nows() {
            high = high.max(now);
            step(&mut state, now);
        }
        // Bring the run to `end` and work off any backlog the caps deferred.
        while step(&mut state, end.max(high)) {}
        sim
    }

    /// Checks that every schedule gives the same final state (under `PartialEq`) as a
    /// reference run of one frame per tick of the alpha clock, each run brought to the latest
    /// end of all schedules and worked off to no backlog.
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
        let schedules: Vec<&Schedule> = schedules.into_iter().collect();
        let end = schedules
            .iter()
            .map(|s| s.end())
            .max()
            .ok_or(Failure::Input(KitError::NoSchedules))?;
        let rate = LoopState::new(self.config.clone(), Nanos::ZERO)
            .ok()
            .and_then(|s| s.clock(s.alpha_clock()).ok().map(|c| c.rate()))
            .unwrap_or(tickfold_core::Period::ONE_SECOND);
        let reference = Schedule::one_per_tick(rate, end)
            .unwrap_or_else(|| Schedule::single(i64::try_from(end.0).unwrap_or(i64::MAX)));
        let expected = self.fold_to(&reference, end);
        for (index, schedule) in schedules.iter().enumerate() {
            let got = self.fold_to(schedule, end);
            if got != expected {
                let mut m = ScheduleMismatch::of(index, schedule, end);
                m.field = debug_diff(&got, &expected);
                m.notes.push(
                    "the update read the loop as of each tick (LoopState::hand_on), so what \
                     depends on the frames is something the update took from the frame: \
                     `Tick::last_in_step` (it marks the last update of each step, so it moves \
                     with the frames), a reading made at the step's end (`..._at_step_end`), \
                     or state kept outside the simulation"
                        .into(),
                );
                return Err(Failure::Schedule(Box::new(m)));
            }
        }
        Ok(())
    }
}
