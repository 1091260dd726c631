//! [`FrameSim`]: the schedule check for the user's own frame code, the loop they write over a
//! step's [`Events`], run exactly as their game runs it after each step.

use core::cell::{Cell, RefCell};
use core::fmt;

use super::check::{Failure, Opening, ScheduleMismatch, notes};
use super::fold::{Driver, Run, fold_steps};
use super::{KitError, Schedule, debug_diff};
use tickfold_core::{AsOfError, Event, Events, LoopConfig, LoopState, Nanos};

/// The user's frame code under the schedule check: after each step the kit calls
/// `frame(&mut S, &mut LoopState, &Events)` with the step's events and the loop state, as a game's
/// main loop does after `let events = state.advance(now)`, and checks that the result does not
/// depend on how frames slice time.
///
/// This is the check for the loop you write by hand. [`ReadingSim`](super::ReadingSim) hands
/// each update the state as of its tick itself; `FrameSim` runs *your* walk over the events, so
/// it catches the walk that reads the loop at the wrong moment: a plain
/// `for event in events { ... update(tick, state) }` hands every update the state at the end of
/// the step (the frame's time, every clock's latest tick of the frame), which depends on the
/// frames, where `state.hand_on(events, |event, state| ...)` hands each event the state as of
/// it (see [`LoopState::as_of`]). The frame code returns what `hand_on` returns; an error (events
/// handed on after a control changed the step's updates) fails the check and names the step.
///
/// The compared state is `S`, under `PartialEq`, at a common end time after a backlog is worked
/// off (see [`Sim::same_across_schedules`](super::Sim::same_across_schedules)). Keep in it what
/// the ticks decide, and leave out what legitimately depends on the frames: a count of renders,
/// or what the last render drew (the settle steps that work off a backlog at the end time do not
/// render). A world that is not `Clone` reaches this check through
/// [`ThroughSave`](super::ThroughSave).
///
/// # Examples
///
/// Physics at 30 Hz and AI at 10 Hz; every AI tick logs the time it reads from the loop. The
/// frame code hands the events on with `hand_on`, so each AI tick reads its own due time, the same
/// under every schedule:
///
/// ```
/// use tickfold_core::{ClockConfig, Event, Events, LoopConfig, LoopState, Nanos, Period, Tick};
/// use tickfold_testing::{Failure, FrameSim, Schedule};
///
/// #[derive(Clone, Debug, PartialEq, Default)]
/// struct Ai { log: Vec<u64> } // the times (in ms) the AI ticks saw
///
/// impl Ai {
///     fn update(&mut self, tick: &Tick, state: &LoopState) {
///         if state.clock(tick.clock).is_ok_and(|c| c.name() == "ai") {
///             self.log.push(state.virtual_time().elapsed().0 / 1_000_000);
///         }
///     }
/// }
///
/// let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
///     .clock(ClockConfig::new("ai", Period::from_hz(10)?))
///     .max_frame_delta(None);
/// let schedules = [Schedule::from_millis(&[250.0])?, Schedule::from_millis(&[10.0; 25])?];
///
/// // The frame code a game runs after each step: each event with the state as of it.
/// let frame = |ai: &mut Ai, state: &mut LoopState, events: &Events<Nanos>| {
///     state.hand_on(events, |event, state| {
///         if let Event::Update(tick) = event {
///             ai.update(&tick, state);
///         }
///     })
/// };
/// FrameSim::new(config.clone(), Ai::default(), frame)?.same_across_schedules(&schedules)?;
///
/// // The plain loop compiles and runs, but hands every update the end of the step: in one
/// // 250 ms frame the AI's ticks 0 and 1 both read 250 ms. The kit says so.
/// let plain = |ai: &mut Ai, state: &mut LoopState, events: &Events<Nanos>| {
///     for event in events {
///         if let Event::Update(tick) = event {
///             ai.update(&tick, state);
///         }
///     }
///     Ok(())
/// };
/// let failure = FrameSim::new(config, Ai::default(), plain)?.same_across_schedules(&schedules);
/// assert!(matches!(failure, Err(Failure::Schedule(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FrameSim<S, F> {
    state: LoopState<Nanos>,
    init: S,
    frame: F,
}

impl<S: fmt::Debug, F> fmt::Debug for FrameSim<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameSim")
            .field("state", &self.state)
            .field("init", &self.init)
            .finish_non_exhaustive()
    }
}

/// The frame code's signature: the simulation, the loop state whose latest step the events
/// are, the events.
pub(crate) trait Frame<S>:
    Fn(&mut S, &mut LoopState<Nanos>, &Events<Nanos>) -> Result<(), AsOfError>
{
}

impl<S, F: Fn(&mut S, &mut LoopState<Nanos>, &Events<Nanos>) -> Result<(), AsOfError>> Frame<S>
    for F
{
}

impl<S: Clone, F: Fn(&mut S, &mut LoopState<Nanos>, &Events<Nanos>) -> Result<(), AsOfError>>
    FrameSim<S, F>
{
    /// The frame code `frame` over a tickfold loop with `config`, starting at `Nanos(0)`, from
    /// the state `init` (cloned for each run). As for [`Sim::new`](super::Sim::new), prefer
    /// `config.max_frame_delta(None)`; caps are fine.
    ///
    /// # Errors
    ///
    /// [`KitError::Config`] when the loop refuses the configuration.
    pub fn new(config: LoopConfig, init: S, frame: F) -> Result<FrameSim<S, F>, KitError> {
        Ok(FrameSim {
            state: LoopState::new(config, Nanos::ZERO)?,
            init,
            frame,
        })
    }

    /// Folds the frame code over `schedule`: one step per frame, the frame code called after
    /// each with the step's events. Returns the final state and the event trace.
    ///
    /// # Errors
    ///
    /// The first error the frame code returned (the fold goes on after it, so that the
    /// error is the earliest).
    pub fn fold(&self, schedule: &Schedule) -> Result<Run<S>, AsOfError> {
        match fold_frames(&self.state, self.init.clone(), &self.frame, schedule, None) {
            (run, None) => Ok(run),
            (_, Some((_, e))) => Err(e),
        }
    }

    /// Checks that every schedule gives the same ticks and the same final state (under
    /// `PartialEq`) as a reference run of one frame per tick of the alpha clock, each run
    /// brought to the latest end of all schedules and worked off to no backlog, as
    /// [`Sim::same_across_schedules`](super::Sim::same_across_schedules) does.
    ///
    /// # Errors
    ///
    /// [`Failure::Input`]`(`[`KitError::NoSchedules`]`)` for an empty list;
    /// [`Failure::Schedule`] for the first schedule whose run differs or whose frame code
    /// returned an error. For a state difference the report names the first step at whose end
    /// the state differs from the reference's at the end of a step with as many updates, and
    /// the first differing field there (from [`debug_diff`]).
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
            &self.frame,
            schedules,
            "the kit ran the frame code after each step with the step's events: an update \
             handed the state in a plain `for event in events` loop reads the step's end (the \
             frame's time, each clock's latest tick of the frame), which depends on how frames \
             fall; `state.hand_on(events, |event, state| ...)` hands each update the state as \
             of its tick",
        )
    }
}

/// Folds `frame` over `schedule` from `init` with a clone of `state` (see `fold_steps`); also
/// the first step whose frame code failed, with the error.
pub(crate) fn fold_frames<S>(
    state: &LoopState<Nanos>,
    init: S,
    frame: &impl Frame<S>,
    schedule: &Schedule,
    end: Option<Nanos>,
) -> (Run<S>, Option<(usize, AsOfError)>) {
    let failed = Cell::new(None);
    let steps = Cell::new(0usize);
    let step = |loop_state: &mut LoopState<Nanos>,
                sim: &mut S,
                now: Nanos,
                out: &mut Vec<Event<Nanos>>| {
        let events = loop_state.advance(now);
        if let Err(e) = frame(sim, loop_state, &events) {
            if failed.get().is_none() {
                failed.set(Some((steps.get(), e)));
            }
        }
        out.extend(&events);
        steps.set(steps.get() + 1);
    };
    let run = fold_steps(state, init, &step, schedule, end);
    (run, failed.get())
}

/// The schedule check of [`FrameSim`] and [`ReadingSim`](super::ReadingSim): ticks first, then
/// the states; `note` explains a state difference.
pub(crate) fn check_frames<'a, S: Clone + PartialEq + fmt::Debug>(
    state: &LoopState<Nanos>,
    init: &S,
    frame: &impl Frame<S>,
    schedules: impl IntoIterator<Item = &'a Schedule>,
    note: &str,
) -> Result<(), Failure> {
    let Opening {
        schedules,
        end,
        reference: reference_schedule,
    } = Opening::new(schedules, state.tick_rate())?;
    let (reference, reference_failed) =
        fold_frames(state, init.clone(), frame, &reference_schedule, Some(end));
    for (index, schedule) in schedules.iter().enumerate() {
        let (run, failed) = fold_frames(state, init.clone(), frame, schedule, Some(end));
        let mut m = ScheduleMismatch::of(index, schedule, end);
        if let Some((step, e)) = failed {
            m.step = Some(step);
            m.notes.push(format!(
                "the frame code returned an error at step {step}: {e} (hand a step's events on \
                 before any control of the state)"
            ));
        } else if let Some((step, e)) = reference_failed {
            m.reference_step = Some(step);
            m.notes.push(format!(
                "the frame code returned an error at step {step} of the reference run: {e} \
                 (hand a step's events on before any control of the state)"
            ));
        } else if m.ticks_differ(&run.trace, &reference.trace) {
            // The ticks part first: the report says where.
        } else if run.state != reference.state {
            m.field = debug_diff(&run.state, &reference.state);
            if let Some((step, reference_step, updates, field)) =
                first_differing_step(state, init, frame, schedule, &reference_schedule, end)
            {
                (m.step, m.reference_step) = (Some(step), Some(reference_step));
                m.field = field.or(m.field);
                m.notes.push(format!(
                    "the states first differ at the end of the schedule's step {step}, against \
                     the reference's step {reference_step}, both after {updates} updates"
                ));
            }
            m.notes.push(note.into());
        } else {
            continue;
        }
        m.notes.extend(notes(&m, &run, schedule));
        return Err(Failure::Schedule(Box::new(m)));
    }
    Ok(())
}

/// The first step of `schedule`'s run whose state differs from the reference run's at the end of
/// a step with as many updates: the step, the reference's step, the count of updates and the
/// first differing field. Each step's state is cloned, so this runs only once a check failed.
fn first_differing_step<S: Clone + PartialEq + fmt::Debug>(
    state: &LoopState<Nanos>,
    init: &S,
    frame: &impl Frame<S>,
    schedule: &Schedule,
    reference: &Schedule,
    end: Nanos,
) -> Option<(usize, usize, u64, Option<String>)> {
    let ends = |schedule: &Schedule| {
        let seen = RefCell::new((0u64, Vec::new()));
        let recording = |sim: &mut S, loop_state: &mut LoopState<Nanos>, events: &Events<Nanos>| {
            let result = frame(sim, loop_state, events);
            let (updates, ends) = &mut *seen.borrow_mut();
            *updates += events.update_count();
            ends.push((*updates, sim.clone()));
            result
        };
        let _ = fold_frames(state, init.clone(), &recording, schedule, Some(end));
        seen.into_inner().1
    };
    let (mine, theirs) = (ends(schedule), ends(reference));
    mine.iter().enumerate().find_map(|(step, (updates, sim))| {
        let (reference_step, (_, expected)) = theirs
            .iter()
            .enumerate()
            .find(|(_, (count, _))| count == updates)?;
        (sim != expected).then(|| (step, reference_step, *updates, debug_diff(sim, expected)))
    })
}
