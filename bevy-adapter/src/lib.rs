//! tickfold in Bevy: several exact fixed-rate schedules in one `App`.
//!
//! ```
//! use bevy_app::prelude::*;
//! use bevy_ecs::prelude::*;
//! use bevy_ecs::schedule::ScheduleLabel;
//! use bevy_time::{Time, TimePlugin, TimeUpdateStrategy};
//! use core::time::Duration;
//! use tickfold_bevy::{ClockConfig, CurrentTick, Period, TickfoldPlugin};
//!
//! #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
//! struct FixedPhysics;
//! #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
//! struct FixedAi;
//!
//! #[derive(Resource, Default)]
//! struct Log(Vec<(String, u64, Duration)>);
//!
//! fn record(tick: Res<CurrentTick>, time: Res<Time>, mut log: ResMut<Log>) {
//!     // `Time` is set as in Bevy's FixedUpdate: elapsed is the end of this tick.
//!     log.0.push((tick.name().to_owned(), tick.index, time.elapsed()));
//! }
//!
//! let mut app = App::new();
//! app.add_plugins(TimePlugin)
//!     .add_plugins(
//!         TickfoldPlugin::new()
//!             .clock(FixedPhysics, ClockConfig::new("physics", Period::from_hz(60)?))
//!             .clock(FixedAi, ClockConfig::new("ai", Period::from_hz(10)?)),
//!     )
//!     .init_resource::<Log>()
//!     .add_systems(FixedPhysics, record)
//!     .add_systems(FixedAi, record)
//!     // Frames of exactly 50 ms (a test's clock; a game leaves Bevy's real clock on).
//!     .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(50)));
//! for _ in 0..=20 {
//!     app.update(); // Bevy's first update only starts the clock
//! }
//! let log = &app.world().resource::<Log>().0;
//! // One second: exactly 60 physics ticks and 10 AI ticks, in one total order (due time,
//! // then declaration order: physics tick 5 and AI tick 0 both end at 100 ms).
//! assert_eq!(log.iter().filter(|e| e.0 == "physics").count(), 60);
//! assert_eq!(log.iter().filter(|e| e.0 == "ai").count(), 10);
//! let entry = |i: usize| (log[i].0.as_str(), log[i].1, log[i].2);
//! assert_eq!([entry(5), entry(6)], [("physics", 5, Duration::from_millis(100)), ("ai", 0, Duration::from_millis(100))]);
//! assert_eq!(entry(log.len() - 1), ("ai", 9, Duration::from_secs(1)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Bevy runs one fixed schedule (`FixedMain`) at one rate; a request for several was closed
//! (bevyengine/bevy #18486). Its `Time<Fixed>::from_hz(60.0)` is 16,666,667 ns, so its grid
//! drifts 20 ns a second, and a frame longer than the max delta loses time with only a
//! `debug!` line. [`TickfoldPlugin`] keeps one tickfold [`LoopState`] in the [`Tickfold`]
//! resource and steps it once per frame from `Time<Real>`, in `RunFixedMainLoop` (where Bevy's
//! own fixed loop runs, between `PreUpdate` and `Update`). Each clock runs its own schedule,
//! as many times as the fold says, in the fold's one total order of ticks (due time, ties by
//! declaration order). Inside a run:
//!
//! * [`CurrentTick`] holds the tick: clock, exact index, start `t`, `dt`, lag,
//!   `last_in_step`;
//! * Bevy's generic `Time` is set as `run_fixed_main_schedule` sets it from `Time<Fixed>`:
//!   `elapsed` is the end of the tick on the clock's exact grid, `delta` the tick's length in
//!   whole ns (16,666,666 or 16,666,667 ns at 60 Hz, 60 of them exactly one second), so
//!   systems that read `Res<Time>` keep working. After the runs `Time` is `Time<Virtual>`
//!   again, as Bevy leaves it.
//!
//! Nothing is dropped silently: drops, discarded time, deferrals and the end of time are
//! Bevy messages with exact tick numbers and counts ([`TicksDropped`], [`TimeDiscarded`],
//! [`TicksDeferred`], [`ClockEnded`]); the other events of a step (pause, scale and rate
//! changes, a clock that went backwards) are [`LoopNotice`]s.
//!
//! **Input.** [`TickInputApp::add_tick_input`] gives every Bevy message of a type to exactly
//! one tick of a clock, through tickfold's [`InputQueue`](tickfold_core::InputQueue), stamped
//! with the frame's `Time<Real>`: see [`TickInputs`] for the rule and its accuracy.
//!
//! **Determinism and save games.** With the feature `testing`, `AppSim` runs the determinism
//! kit's frame schedules through a real `App` and compares the worlds; with `serde`,
//! `save_world` and `load_world` save the loop with the components you name and load them into
//! a fresh `App` that goes on bit for bit.
//!
//! **Controls.** Through `ResMut<Tickfold>`: [`Tickfold::clock_mut`] for one clock's rate,
//! cap, phase, hysteresis, overstep and grid; [`Tickfold::add_clock`] and
//! [`Tickfold::remove_clock`] at run time; [`Tickfold::set_paused`],
//! [`Tickfold::set_time_scale`] and [`Tickfold::step_ticks`] for the loop. They take effect at
//! the next frame. They are tickfold's controls, not Bevy's: the loop reads `Time<Real>`, so
//! pausing `Time<Virtual>` does not stop the tickfold clocks, and Bevy's own `FixedMain` keeps
//! running at `Time<Fixed>`'s rate beside them.
//!
//! **Interpolated transforms.** With [`TransformInterpolationPlugin`], an entity marked
//! [`TransformInterpolation`] (translation, rotation, scale, each optional) is drawn between
//! the alpha clock's previous and current tick: captured on tickfold's one capture rule
//! (before a step's last update, in the [`BeforeTick`] schedule), restored to its tick value
//! in `First` so gameplay never sees a blend, blended in `PostUpdate` before transform
//! propagation. Teleports ([`TransformHistory::teleport`]) and spawns show the current
//! transform. [`TransformEasing::Extrapolate`] and [`TransformEasing::Hermite`] draw from a
//! velocity component you name ([`TransformVelocity`], [`TransformVelocityPlugin`]). A save
//! game keeps [`TransformHistory`] (and [`VelocityHistory`]) with the `Transform`.

mod input;
mod messages;
mod plugin;
mod resource;
mod run;
#[cfg(feature = "serde")]
mod save;
#[cfg(feature = "testing")]
mod testing;
mod transform;

pub use input::{TickInputApp, TickInputs};
pub use messages::{ClockEnded, LoopNotice, TicksDeferred, TicksDropped, TimeDiscarded};
pub use plugin::TickfoldPlugin;
pub use resource::{CurrentTick, Tickfold};
pub use run::run_tickfold_clocks;
#[cfg(feature = "serde")]
pub use save::{ComponentSet, LoadError, Saved, WorldSave, load_world, save_world};
#[cfg(feature = "testing")]
pub use testing::{AppMismatch, AppSim};
/// tickfold's core, re-exported: the types the plugin and its messages use.
pub use tickfold_core;
pub use tickfold_core::{
    ClockConfig, ClockId, DropReason, Event, LoopState, Nanos, Period, Policy, Render, Tick,
    TimeScale,
};
pub use transform::{
    BeforeTick, TransformEasing, TransformHistory, TransformInterpolation,
    TransformInterpolationPlugin, TransformInterpolationSystems, TransformVelocity,
    TransformVelocityPlugin, VelocityHistory,
};
