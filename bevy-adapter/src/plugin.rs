//! The plugin and its builder.

use core::time::Duration;
use std::borrow::Cow;

use bevy_app::{App, First, FixedMain, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::message::message_update_system;
use bevy_ecs::schedule::{
    InternedScheduleLabel, IntoScheduleConfigs, ScheduleCleanupPolicy, ScheduleLabel,
};
use bevy_time::{Fixed, Real, Time, TimeSystems, Virtual};
use tickfold_core::{ClockConfig, ConfigError, LoopConfig, LoopState, Nanos, Period};

use crate::clock_schedule::prepare_clock_schedules;
use crate::messages::{
    ClockEnded, LoopNotice, TicksDeferred, TicksDropped, TimeDiscarded, VirtualTimeClamped,
    report_clamp,
};
use crate::resource::Tickfold;
use crate::run::run_tickfold_clocks;

/// Where the loop's virtual time comes from: always Bevy's `Time<Virtual>` (its pause,
/// relative speed and max delta are the loop's); the two choices differ in what a frame longer
/// than the max delta does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VirtualTime {
    /// Bevy's behaviour (the default): `Time<Virtual>` clamps the frame's delta to its
    /// `max_delta` (250 ms unless you set it) and the rest of the frame is lost for good,
    /// reported as [`VirtualTimeClamped`] with the exact time lost. Tick numbers never jump,
    /// virtual time falls behind real time, and every run of the main clock equals Bevy's own
    /// fixed loop, frame by frame.
    #[default]
    Bevy,
    /// Virtual time equal to real time (times the relative speed): the plugin sets
    /// `Time<Virtual>`'s max delta to `Duration::MAX` so it never clamps, and each clock drops
    /// the ticks a frame longer than `max_frame_delta` would owe (`None`: never), reported as
    /// [`TimeDiscarded`] with the dropped tick numbers (which the clock then jumps over).
    /// `Time<Virtual>` and every `Time<Fixed>` stay on real time through stalls; run counts
    /// differ from Bevy's own loop from the first stall on.
    KeepReal {
        /// The most virtual time one frame may owe; tickfold's (and Bevy's) usual 250 ms.
        max_frame_delta: Option<Duration>,
    },
}

/// Bevy's fixed loop, run by tickfold: see the crate docs.
///
/// The main clock runs Bevy's own `FixedMain` (`FixedFirst` … `FixedLast`) in place of
/// Bevy's `run_fixed_main_schedule`, at `Time<Fixed>`'s timestep unless
/// [`main_clock`](Self::main_clock) says otherwise, with no update cap. Each extra clock
/// ([`clock`](Self::clock)) runs its own schedule, ordered by
/// [`ClockSystems`](crate::ClockSystems). The main clock is the alpha clock unless
/// [`alpha_clock`](Self::alpha_clock) says otherwise.
///
/// Add Bevy's `TimePlugin` (in `MinimalPlugins` and `DefaultPlugins`) first: the plugin
/// replaces its fixed loop and reads `Time<Virtual>`.
#[derive(Clone, Debug, Default)]
pub struct TickfoldPlugin {
    main: Option<ClockConfig>,
    clocks: Vec<(InternedScheduleLabel, ClockConfig)>,
    virtual_time: VirtualTime,
    alpha_clock: Option<Cow<'static, str>>,
}

impl TickfoldPlugin {
    /// The main clock at `Time<Fixed>`'s timestep, no extra clock, Bevy's virtual time.
    #[must_use]
    pub fn new() -> TickfoldPlugin {
        TickfoldPlugin::default()
    }

    /// The main clock's configuration (name, exact rate, cap, phase, …), which runs
    /// `FixedMain`. By default it is `ClockConfig::new("main", timestep).max_updates(None)`
    /// with `Time<Fixed>`'s timestep, as Bevy's loop (which has no cap).
    #[must_use]
    pub fn main_clock(mut self, config: ClockConfig) -> TickfoldPlugin {
        self.main = Some(config);
        self
    }

    /// Adds a clock that runs schedule `label` once per tick, e.g.
    /// `.clock(FixedAi, ClockConfig::new("ai", Period::from_hz(10)?))`.
    #[must_use]
    pub fn clock(mut self, label: impl ScheduleLabel, config: ClockConfig) -> TickfoldPlugin {
        self.clocks.push((label.intern(), config));
        self
    }

    /// What a frame longer than `Time<Virtual>`'s max delta does: see [`VirtualTime`].
    #[must_use]
    pub fn virtual_time(mut self, mode: VirtualTime) -> TickfoldPlugin {
        self.virtual_time = mode;
        self
    }

    /// Which clock's alpha the render carries. Default: the main clock.
    #[must_use]
    pub fn alpha_clock(mut self, name: impl Into<Cow<'static, str>>) -> TickfoldPlugin {
        self.alpha_clock = Some(name.into());
        self
    }

    /// The main clock's configuration for a `Time<Fixed>` timestep of `timestep`.
    fn main_config(&self, timestep: Duration) -> Result<ClockConfig, ConfigError> {
        match &self.main {
            Some(config) => Ok(config.clone()),
            None => {
                Ok(ClockConfig::new("main", Period::from_duration(timestep)?).max_updates(None))
            }
        }
    }

    /// The loop this plugin starts, checked, for `Time<Fixed>`'s timestep `timestep`: the
    /// main clock first, then the extra clocks.
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] of an invalid setting.
    pub fn build_state(&self, timestep: Duration) -> Result<LoopState, ConfigError> {
        let max_frame_delta = match self.virtual_time {
            VirtualTime::Bevy => None,
            VirtualTime::KeepReal { max_frame_delta } => max_frame_delta,
        };
        let main = self.main_config(timestep)?;
        // The main clock (Bevy's `Time<Fixed>`) is the alpha clock unless one is named, as
        // Bevy's overstep fraction is `Time<Fixed>`'s: named here, since tickfold-core's own
        // default is the fastest clock.
        let alpha = match &self.alpha_clock {
            Some(name) => name.clone(),
            None => Cow::Owned(main.name().to_owned()),
        };
        let mut config = LoopConfig::from_clock(main).max_frame_delta(max_frame_delta);
        for (_, clock) in &self.clocks {
            config = config.clock(clock.clone());
        }
        config = config.alpha_clock(alpha);
        LoopState::new(config, Nanos(0))
    }
}

impl Plugin for TickfoldPlugin {
    fn build(&self, app: &mut App) {
        let Some(timestep) = app
            .world()
            .get_resource::<Time<Fixed>>()
            .map(Time::timestep)
        else {
            panic!(
                "TickfoldPlugin replaces Bevy's fixed loop: add TimePlugin (or MinimalPlugins, DefaultPlugins) first"
            );
        };
        let state = match self.build_state(timestep) {
            Ok(state) => state,
            Err(e) => panic!("TickfoldPlugin: invalid configuration: {e}"),
        };
        if let VirtualTime::KeepReal { .. } = self.virtual_time {
            if let Some(mut virt) = app.world_mut().get_resource_mut::<Time<Virtual>>() {
                virt.set_max_delta(Duration::MAX);
            }
        }
        let mut labels: Vec<InternedScheduleLabel> = vec![FixedMain.intern()];
        labels.extend(self.clocks.iter().map(|c| c.0));
        let tickfold = Tickfold::new(state, &labels);
        let main = tickfold.clocks[0].fixed;
        *app.world_mut().resource_mut::<Time<Fixed>>() = main;
        remove_bevys_fixed_loop(app);
        app.insert_resource(tickfold);
        // The declared clocks' schedules, as a clock added at run time gets its own.
        prepare_clock_schedules(app.world_mut());
        app.add_message::<TicksDropped>()
            .add_message::<TimeDiscarded>()
            .add_message::<TicksDeferred>()
            .add_message::<ClockEnded>()
            .add_message::<LoopNotice>()
            .add_message::<VirtualTimeClamped>()
            // Right after Bevy's `time_system` clamped the frame, with the max delta and speed
            // it used (a later system of the frame may change them); after the frame's
            // message update, so the message is the frame's own.
            .add_systems(
                First,
                report_clamp.after(TimeSystems).after(message_update_system),
            )
            .add_systems(
                RunFixedMainLoop,
                run_tickfold_clocks.in_set(RunFixedMainLoopSystems::FixedMainLoop),
            );
    }

    fn finish(&self, app: &mut App) {
        assert!(
            app.world().contains_resource::<Time<Real>>(),
            "TickfoldPlugin reads Time<Virtual>: add Bevy's TimePlugin (or MinimalPlugins)"
        );
        // In case a plugin added Bevy's loop again after ours.
        remove_bevys_fixed_loop(app);
    }
}

/// Bevy's own `run_fixed_main_schedule` must not run beside the main clock: it goes, and
/// `run_tickfold_clocks` takes its place in `RunFixedMainLoopSystems::FixedMainLoop`.
fn remove_bevys_fixed_loop(app: &mut App) {
    // `Err` when it is not there (removed already): nothing to do.
    let _ = app.remove_systems_in_set(
        RunFixedMainLoop,
        bevy_time::run_fixed_main_schedule,
        ScheduleCleanupPolicy::RemoveSystemsOnly,
    );
}
