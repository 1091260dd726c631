//! The determinism kit over a Bevy `App` (feature `testing`): tickfold-testing's schedule
//! property, with the plugin and your systems in the loop.

use core::fmt;
use core::time::Duration;

use bevy_app::App;
use bevy_ecs::message::Messages;
use bevy_ecs::world::World;
use bevy_time::TimeUpdateStrategy;
use tickfold_core::Nanos;
use tickfold_testing::Schedule;

use crate::messages::TicksDeferred;
use crate::resource::Tickfold;

/// Runs a Bevy `App` with the [`TickfoldPlugin`](crate::TickfoldPlugin) over the kit's frame
/// [`Schedule`]s and checks that every schedule ends in the same world: the kit's schedule
/// property ([`Sim::same_across_schedules`](tickfold_testing::Sim::same_across_schedules))
/// for an app, whose world is neither `Clone` nor `PartialEq`, compared by a fingerprint you
/// compute (hash the components that matter, as for
/// [`WorldSim`](tickfold_testing::WorldSim)).
///
/// `make` builds the same app every time: Bevy's `TimePlugin`, the plugin with
/// `.virtual_time(tickfold_bevy::VirtualTime::KeepReal { max_frame_delta: None })` (the default 250 ms clamp discards time in long frames, so a
/// schedule with a stall would rightly run fewer ticks) and your systems. Each run drives it
/// with `TimeUpdateStrategy::ManualDuration`: one `app.update()` to start Bevy's clock, then
/// one per frame of the schedule. `Time<Real>` cannot go back, so a backwards frame is a frame
/// of zero length and the later frames catch up from the highest `now` (as tickfold's loop
/// itself does with time that goes backwards). The run then steps to the common end time and
/// keeps stepping there while the per-frame cap defers ticks.
///
/// The reference run steps once per tick of the alpha clock (frames at ⌈k·dt⌉). A schedule
/// passes when every clock ran as many ticks as in the reference and the fingerprints agree.
///
/// # Examples
///
/// ```
/// use bevy_app::prelude::*;
/// use bevy_ecs::prelude::*;
/// use bevy_ecs::schedule::ScheduleLabel;
/// use bevy_time::TimePlugin;
/// use tickfold_bevy::{AppSim, ClockConfig, CurrentTick, Period, TickfoldPlugin};
/// use tickfold_testing::Schedule;
///
/// #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
/// struct FixedPhysics;
/// #[derive(Component)]
/// struct Height(f64);
///
/// fn fall(tick: Res<CurrentTick>, mut q: Query<&mut Height>) {
///     q.iter_mut().for_each(|mut h| h.0 -= 9.81 * tick.dt_secs());
/// }
/// let sim = AppSim::new(|| {
///     let mut app = App::new();
///     let clock = ClockConfig::new("physics", Period::from_hz(60).unwrap());
///     app.add_plugins((TimePlugin, TickfoldPlugin::new().clock(FixedPhysics, clock).virtual_time(tickfold_bevy::VirtualTime::KeepReal { max_frame_delta: None })))
///         .add_systems(FixedPhysics, fall);
///     app.world_mut().spawn(Height(100.0));
///     app
/// });
/// let fingerprint = |world: &mut World| {
///     let mut q = world.query::<&Height>();
///     q.iter(world).map(|h| h.0.to_bits()).fold(0, |a, b| a ^ b)
/// };
/// let schedules = [Schedule::vsync(144u64, 100)?, Schedule::from_millis(&[16.7, 0.0, 250.0, -3.0, 3.0])?];
/// sim.same_across_schedules(&schedules, fingerprint)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct AppSim<M> {
    make: M,
}

impl<M> fmt::Debug for AppSim<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AppSim").finish_non_exhaustive()
    }
}

impl<M: Fn() -> App> AppSim<M> {
    /// A check of the apps `make` builds.
    pub fn new(make: M) -> AppSim<M> {
        AppSim { make }
    }

    /// Builds an app and runs it over `schedule`, then (if `end` is given) to `end` and on
    /// at `end` while ticks are deferred. Returns the app after its last frame.
    pub fn run(&self, schedule: &Schedule, end: Option<Nanos>) -> App {
        let mut app = (self.make)();
        frame(&mut app, Duration::ZERO); // Bevy's first update starts its clock at 0
        let mut high = Nanos::ZERO;
        for now in schedule.nows() {
            let d = now.0.saturating_sub(high.0);
            high = high.max(now);
            frame(&mut app, Duration::from_nanos(d));
        }
        if let Some(end) = end {
            let d = end.0.saturating_sub(high.0);
            if d > 0 || deferred(app.world()) {
                frame(&mut app, Duration::from_nanos(d));
            }
            // Each settle frame runs at least one deferred tick; the bound guards the rest.
            let mut settles = 0u64;
            while deferred(app.world()) && settles < 1_000_000 {
                frame(&mut app, Duration::ZERO);
                settles += 1;
            }
        }
        app
    }

    /// Checks that every schedule ends, at the common end time, with the tick counts and
    /// the `fingerprint` of a reference run with one frame per tick of the alpha clock.
    ///
    /// # Errors
    ///
    /// An [`AppMismatch`] for the first schedule that differs (or for an empty list, or an
    /// app without the plugin).
    pub fn same_across_schedules<'a>(
        &self,
        schedules: impl IntoIterator<Item = &'a Schedule>,
        fingerprint: impl Fn(&mut World) -> u64,
    ) -> Result<(), AppMismatch> {
        let schedules: Vec<&Schedule> = schedules.into_iter().collect();
        let mismatch = |index: Option<usize>, what: String| AppMismatch {
            index,
            schedule: index.map(|i| format!("{:?}", schedules[i])),
            what,
        };
        let Some(end) = schedules.iter().map(|s| s.end()).max() else {
            return Err(mismatch(None, "no schedules".into()));
        };
        let probe = (self.make)();
        let Some(tf) = probe.world().get_resource::<Tickfold>() else {
            return Err(mismatch(None, "the app has no TickfoldPlugin".into()));
        };
        let rate = tf.state.clock(tf.state.alpha_clock()).map(|c| c.rate());
        drop(probe);
        let rate = rate.map_err(|e| mismatch(None, format!("the alpha clock: {e}")))?;
        let reference = reference_schedule(rate, end)
            .map_err(|e| mismatch(None, format!("the reference schedule: {e}")))?;
        let mut want = self.run(&reference, Some(end));
        let want_ticks = ticks(want.world());
        let want_print = fingerprint(want.world_mut());
        for (index, schedule) in schedules.iter().enumerate() {
            let mut app = self.run(schedule, Some(end));
            let got_ticks = ticks(app.world());
            if got_ticks != want_ticks {
                let what = format!("ticks run {got_ticks:?} vs {want_ticks:?}");
                return Err(mismatch(Some(index), what));
            }
            let got = fingerprint(app.world_mut());
            if got != want_print {
                let what = format!("fingerprint {got:#018x} vs {want_print:#018x}");
                return Err(mismatch(Some(index), what));
            }
        }
        Ok(())
    }
}

/// A schedule whose app ended differently from the reference run.
#[derive(Clone, PartialEq, Eq)]
pub struct AppMismatch {
    /// Which schedule (`None`: the check could not start).
    pub index: Option<usize>,
    /// The schedule, as the kit prints it (frame lengths in ms).
    pub schedule: Option<String>,
    /// What differs: the tick counts per clock, or the fingerprints.
    pub what: String,
}

impl fmt::Display for AppMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.index, &self.schedule) {
            (Some(i), Some(s)) => write!(f, "schedule {i} {s}: {}", self.what),
            _ => f.write_str(&self.what),
        }
    }
}

impl fmt::Debug for AppMismatch {
    // quickcheck prints a failure with `Debug`: the readable form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for AppMismatch {}

fn frame(app: &mut App, d: Duration) {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(d));
    app.update();
}

fn deferred(world: &World) -> bool {
    world
        .get_resource::<Messages<TicksDeferred>>()
        .is_some_and(|m| m.iter_current_update_messages().next().is_some())
}

/// Ticks run so far by each clock, in the loop's order.
fn ticks(world: &World) -> Vec<(String, u64)> {
    world
        .get_resource::<Tickfold>()
        .map_or_else(Vec::new, |tf| {
            tf.state
                .clock_names()
                .map(|name| {
                    let id = tf.state.clock(name).ok().map(|c| c.id());
                    (name.to_owned(), id.map_or(0, |id| tf.clock_ticks_run(id)))
                })
                .collect()
        })
}

/// The kit's reference run (one frame per tick of `rate`, `Schedule::one_per_tick`), then a
/// last frame to `end` itself.
fn reference_schedule(
    rate: tickfold_core::Period,
    end: Nanos,
) -> Result<Schedule, tickfold_testing::KitError> {
    let Some(ticks) = Schedule::one_per_tick(rate, end) else {
        return Schedule::from_nanos(vec![i64::try_from(end.0).unwrap_or(i64::MAX)]);
    };
    let rest = end.0.saturating_sub(ticks.end().0);
    Ok(ticks.then(i64::try_from(rest).unwrap_or(i64::MAX)))
}
