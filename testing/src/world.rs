//! Schedule checks for a state the kit builds for each run instead of cloning: an ECS world
//! with its interpolation trackers (a hecs `World` and `Interpolated<T>` are not `Clone`).

use core::fmt;

use super::check::{Failure, Opening, ScheduleMismatch, notes};
use super::fold::{Driver, Run, Trace, fold_with};
use super::{KitError, Schedule};
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Tick};

/// A simulation whose state is built by `make` for every run rather than cloned from an
/// initial state, and compared by a fingerprint the user computes rather than `PartialEq`: the
/// schedule check for an ECS world together with its trackers, whose interpolation state (the
/// previous tick, teleport stamps, ghosts) lives in the world and in trackers that cannot be
/// cloned.
///
/// `make` must build the same world every time (same entities spawned in the same order);
/// `update(&mut W, &Tick)` runs one tick, the trackers' capture rule included
/// (`tracker.before_update(&mut world, tick)` first, as a game's loop does).
/// [`same_across_schedules`](WorldSim::same_across_schedules) folds each schedule and a
/// reference run of one frame per tick to a common end time and compares
/// `fingerprint(&world, alpha)`, where `alpha` is a render's at the end time: hash the gameplay
/// components and what the trackers render at that alpha. The render at the end depends only
/// on the ticks when the trackers follow the capture rule, so a tracker driven wrongly (a
/// capture once per frame instead of before the step's last update, a ghost aged per frame)
/// is caught along with a simulation that depends on how frames fall. Leave out what
/// legitimately depends on the frames: the trackers' capture counters (tickfold-hecs's `Stats`,
/// `Epoch` and raw stamp values count captures, one per step with updates). Keep a render every
/// step (the default, no render rate cap), so that the last render is the one at the end.
///
/// Only the end states are compared (a world is not cloned after every update), so a report
/// names the schedule and the fingerprints but not the first differing update; the shrunk
/// schedule quickcheck prints is the short way to it.
///
/// # Examples
///
/// A hecs world with an interpolation tracker, checked with the rendered values in the
/// fingerprint (the kit itself does not depend on hecs):
///
/// ```
/// use std::hash::Hasher;
/// use tickfold_core::{LoopConfig, Period, Tick};
/// use tickfold_hecs::{Interpolated, hecs::World};
/// use tickfold_testing::{Fnv1a, Schedule, WorldSim};
///
/// struct Game { world: World, pos: Interpolated<f32> }
///
/// let make = || {
///     let (mut world, mut pos) = (World::new(), Interpolated::new());
///     pos.spawn(&mut world, (0.0_f32,));
///     Game { world, pos }
/// };
/// let update = |g: &mut Game, tick: &Tick| {
///     g.pos.before_update(&mut g.world, tick); // the capture rule
///     for x in g.world.query_mut::<&mut f32>() {
///         *x += 2.0 * tick.dt_secs() as f32;
///     }
/// };
/// let fingerprint = |g: &Game, alpha: f64| {
///     let mut h = Fnv1a::new();
///     let mut drawn = Vec::new();
///     g.pos.extract(&g.world, alpha, &mut drawn); // what the renderer would draw
///     drawn.iter().for_each(|x| h.write_u32(x.to_bits()));
///     h.finish()
/// };
/// let config = LoopConfig::new(Period::from_hz(60)?).max_frame_delta(None);
/// let sim = WorldSim::new(config, make, update)?;
/// let schedules = [Schedule::vsync(144u64, 100)?, Schedule::from_millis(&[16.7, 0.0, 250.0, 3.0])?];
/// sim.same_across_schedules(&schedules, fingerprint)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct WorldSim<M, F, D = LoopState<Nanos>> {
    driver: D,
    make: M,
    update: F,
}

impl<M, F, D: fmt::Debug> fmt::Debug for WorldSim<M, F, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorldSim")
            .field("driver", &self.driver)
            .finish_non_exhaustive()
    }
}

impl<W, M: Fn() -> W, F: Fn(&mut W, &Tick)> WorldSim<M, F> {
    /// A world simulation driven by a tickfold loop with `config`, starting at `Nanos(0)`.
    /// As for [`Sim::new`](super::Sim::new), prefer `config.max_frame_delta(None)`.
    ///
    /// # Errors
    ///
    /// [`KitError::Config`] when the loop refuses the configuration.
    pub fn new(config: LoopConfig, make: M, update: F) -> Result<WorldSim<M, F>, KitError> {
        Ok(WorldSim::with_driver(
            LoopState::new(config, Nanos::ZERO)?,
            make,
            update,
        ))
    }
}

impl<W, M: Fn() -> W, F: Fn(&mut W, &Tick), D: Driver> WorldSim<M, F, D> {
    /// A world simulation driven by any [`Driver`] (cloned for each run).
    pub fn with_driver(driver: D, make: M, update: F) -> WorldSim<M, F, D> {
        WorldSim {
            driver,
            make,
            update,
        }
    }

    /// Builds a world and folds the simulation over `schedule`, as [`Sim::fold`](super::Sim::fold)
    /// does: the final world and the event trace.
    #[must_use]
    pub fn fold(&self, schedule: &Schedule) -> Run<W> {
        self.fold_to(schedule, None)
    }

    fn fold_to(&self, schedule: &Schedule, end: Option<Nanos>) -> Run<W> {
        fold_with(&self.driver, (self.make)(), &self.update, schedule, end)
    }

    /// Checks that every schedule ends, at the common end time, with the ticks and the
    /// `fingerprint(&world, alpha)` of a reference run with one frame per tick. `alpha` is the
    /// alpha of a render at the end time, the same for every run that made the same ticks: the
    /// reference run's last render, which its last step at the end time always makes (0 if it
    /// rendered nothing). A run's own last render can be earlier: settle steps at an unchanged
    /// `now` work off a backlog without rendering. Runs are brought to the end time as
    /// [`Sim::same_across_schedules`](super::Sim::same_across_schedules) describes.
    ///
    /// # Errors
    ///
    /// [`Failure::Input`]`(`[`KitError::NoSchedules`]`)` for an empty list;
    /// [`Failure::Schedule`] for the first schedule that differs, its `field` giving both
    /// fingerprints.
    pub fn same_across_schedules<'a>(
        &self,
        schedules: impl IntoIterator<Item = &'a Schedule>,
        fingerprint: impl Fn(&W, f64) -> u64,
    ) -> Result<(), Failure> {
        let Opening {
            schedules,
            end,
            reference: reference_schedule,
        } = Opening::new(schedules, self.driver.tick_rate())?;
        let reference = self.fold_to(&reference_schedule, Some(end));
        let alpha = last_alpha(&reference.trace);
        let expected = fingerprint(&reference.state, alpha);
        for (index, schedule) in schedules.iter().enumerate() {
            let run = self.fold_to(schedule, Some(end));
            let mut m = ScheduleMismatch::of(index, schedule, end);
            if m.ticks_differ(&run.trace, &reference.trace) {
                // The ticks part first: the report says where.
            } else {
                let got = fingerprint(&run.state, alpha);
                if got == expected {
                    continue;
                }
                m.field = Some(format!(
                    "fingerprint {got:#018x} vs {expected:#018x} (at alpha {alpha})"
                ));
                m.notes.push(
                    "the world is built afresh for each run and only the end states are \
                     compared, so the first differing update is not known: a shorter failing \
                     schedule (quickcheck shrinks to one) narrows it down; a fingerprint that \
                     differs only with the rendered values in it points at the trackers' \
                     capture rule"
                        .into(),
                );
            }
            m.notes.extend(notes(&m, &run, schedule));
            return Err(Failure::Schedule(Box::new(m)));
        }
        Ok(())
    }
}

/// The alpha of the last render of a run, 0 if it rendered nothing.
fn last_alpha(trace: &Trace) -> f64 {
    trace
        .events()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Render(r) => Some(r.alpha),
            _ => None,
        })
        .unwrap_or(0.0)
}
