//! The plugin and its builder.

use core::time::Duration;
use std::borrow::Cow;

use bevy_app::{App, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::schedule::{InternedScheduleLabel, IntoScheduleConfigs, ScheduleLabel};
use bevy_time::{Real, Time};
use tickfold_core::{ClockConfig, ConfigError, LoopConfig, LoopState, Nanos, TimeScale};

use crate::messages::{ClockEnded, LoopNotice, TicksDeferred, TicksDropped, TimeDiscarded};
use crate::resource::Tickfold;
use crate::run::run_tickfold_clocks;

/// Runs one schedule per tickfold clock, exactly, in one total order: see the crate docs.
///
/// Register each clock with the schedule it runs ([`clock`](Self::clock)); the first is the
/// alpha clock unless [`alpha_clock`](Self::alpha_clock) says otherwise. Loop settings
/// default to tickfold's (and Bevy's) 250 ms max frame delta, scale 1, not paused; each
/// clock keeps its [`ClockConfig`] (by default at most 8 updates per frame, the rest deferred
/// and reported).
///
/// Needs Bevy's `TimePlugin` (in `MinimalPlugins` and `DefaultPlugins`): the loop reads
/// `Time<Real>`.
#[derive(Clone, Debug)]
pub struct TickfoldPlugin {
    clocks: Vec<(InternedScheduleLabel, ClockConfig)>,
    max_frame_delta: Option<Duration>,
    scale: TimeScale,
    paused: bool,
    alpha_clock: Option<Cow<'static, str>>,
}

impl Default for TickfoldPlugin {
    fn default() -> Self {
        TickfoldPlugin::new()
    }
}

impl TickfoldPlugin {
    /// A plugin with no clocks yet (add at least one).
    #[must_use]
    pub fn new() -> TickfoldPlugin {
        TickfoldPlugin {
            clocks: Vec::new(),
            max_frame_delta: Some(Duration::from_millis(250)),
            scale: TimeScale::ONE,
            paused: false,
            alpha_clock: None,
        }
    }

    /// Adds a clock that runs schedule `label` once per tick, e.g.
    /// `.clock(FixedPhysics, ClockConfig::new("physics", Period::from_hz(60)?))`.
    #[must_use]
    pub fn clock(mut self, label: impl ScheduleLabel, config: ClockConfig) -> TickfoldPlugin {
        self.clocks.push((label.intern(), config));
        self
    }

    /// The most virtual time one frame may owe (see [`LoopConfig::max_frame_delta`]);
    /// default 250 ms, Bevy's `Time<Virtual>` max delta. Ticks past it are dropped and
    /// reported as [`TimeDiscarded`].
    #[must_use]
    pub fn max_frame_delta(mut self, max: Option<Duration>) -> TickfoldPlugin {
        self.max_frame_delta = max;
        self
    }

    /// The initial time scale. Default 1.
    #[must_use]
    pub fn time_scale(mut self, scale: TimeScale) -> TickfoldPlugin {
        self.scale = scale;
        self
    }

    /// Start paused. Default `false`.
    #[must_use]
    pub fn paused(mut self, paused: bool) -> TickfoldPlugin {
        self.paused = paused;
        self
    }

    /// Which clock's alpha the render carries. Default: the first.
    #[must_use]
    pub fn alpha_clock(mut self, name: impl Into<Cow<'static, str>>) -> TickfoldPlugin {
        self.alpha_clock = Some(name.into());
        self
    }

    /// The loop this plugin starts, checked.
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] of an invalid setting; [`ConfigError::UnknownClock`]`("")` when no
    /// clock was added.
    pub fn build_state(&self) -> Result<LoopState, ConfigError> {
        let (first, rest) = self
            .clocks
            .split_first()
            .ok_or(ConfigError::UnknownClock("".into()))?;
        let mut config = LoopConfig::from_clock(first.1.clone())
            .max_frame_delta(self.max_frame_delta)
            .time_scale(self.scale)
            .paused(self.paused);
        for (_, clock) in rest {
            config = config.clock(clock.clone());
        }
        if let Some(name) = &self.alpha_clock {
            config = config.alpha_clock(name.clone());
        }
        LoopState::new(config, Nanos(0))
    }
}

impl Plugin for TickfoldPlugin {
    fn build(&self, app: &mut App) {
        let state = match self.build_state() {
            Ok(state) => state,
            Err(e) if self.clocks.is_empty() => {
                panic!("TickfoldPlugin needs at least one clock ({e})")
            }
            Err(e) => panic!("TickfoldPlugin: invalid configuration: {e}"),
        };
        let labels: Vec<InternedScheduleLabel> = self.clocks.iter().map(|c| c.0).collect();
        for &label in &labels {
            app.init_schedule(label);
        }
        app.insert_resource(Tickfold::new(state, &labels))
            .add_message::<TicksDropped>()
            .add_message::<TimeDiscarded>()
            .add_message::<TicksDeferred>()
            .add_message::<ClockEnded>()
            .add_message::<LoopNotice>()
            .add_systems(
                RunFixedMainLoop,
                run_tickfold_clocks
                    .in_set(RunFixedMainLoopSystems::FixedMainLoop)
                    .after(bevy_time::run_fixed_main_schedule),
            );
    }

    fn finish(&self, app: &mut App) {
        assert!(
            app.world().contains_resource::<Time<Real>>(),
            "TickfoldPlugin reads Time<Real>: add Bevy's TimePlugin (or MinimalPlugins)"
        );
    }
}
