//! tickfold as Bevy's fixed loop: `FixedMain` on an exact grid, extra clocks beside it,
//! nothing dropped silently.
//!
//! ```
//! use bevy_app::prelude::*;
//! use bevy_ecs::prelude::*;
//! use bevy_ecs::schedule::ScheduleLabel;
//! use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
//! use core::time::Duration;
//! use tickfold_bevy::{ClockConfig, ClockSystems, CurrentTick, Period, TickfoldPlugin};
//!
//! #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
//! struct FixedAi;
//!
//! #[derive(Resource, Default)]
//! struct Log(Vec<(String, u64, Duration)>);
//!
//! fn record(tick: Res<CurrentTick>, time: Res<Time>, fixed: Res<Time<Fixed>>, mut log: ResMut<Log>) {
//!     // Inside a clock's run, `Time` and `Time<Fixed>` are that clock's, as Bevy sets them
//!     // in FixedUpdate: elapsed is the end of this tick.
//!     assert_eq!(time.elapsed(), fixed.elapsed());
//!     log.0.push((tick.name().to_owned(), tick.index, time.elapsed()));
//! }
//!
//! let mut app = App::new();
//! app.add_plugins(TimePlugin) // Bevy's time first: the plugin replaces its fixed loop
//!     // The main clock runs Bevy's own FixedMain (FixedFirst … FixedLast), here at an exact
//!     // 60 Hz; an extra clock at 10 Hz runs its own schedule.
//!     .add_plugins(
//!         TickfoldPlugin::new()
//!             .main_clock(ClockConfig::new("physics", Period::from_hz(60)?).max_updates(None))
//!             .clock(FixedAi, ClockConfig::new("ai", Period::from_hz(10)?)),
//!     )
//!     .init_resource::<Log>()
//!     .add_systems(FixedUpdate, record)
//!     .add_systems(FixedAi, record.in_set(ClockSystems::Update))
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
//! # Bevy's fixed loop, run by tickfold
//!
//! [`TickfoldPlugin`] keeps one tickfold [`LoopState`] in the [`Tickfold`] resource. It removes
//! Bevy's own `run_fixed_main_schedule` from `RunFixedMainLoop` (so Bevy's accumulator never
//! runs beside it) and puts its own system in the same place
//! (`RunFixedMainLoopSystems::FixedMainLoop`, between `PreUpdate` and `Update`). Once a frame
//! it steps the loop to `Time<Virtual>`'s elapsed time and runs, in the fold's one total order
//! (due time, ties by declaration order), one schedule per tick:
//!
//! * **The main clock** runs Bevy's `FixedMain`, so `FixedFirst`, `FixedPreUpdate`,
//!   `FixedUpdate`, `FixedPostUpdate` and `FixedLast` work unchanged, and so do third-party
//!   plugins that add systems there (physics engines, `bevy_transform_interpolation`). By
//!   default its rate is `Time<Fixed>`'s timestep (64 Hz unless the app sets it, before or
//!   after adding the plugin; writing `Time<Fixed>`'s timestep later changes the clock's rate
//!   at the next frame) and it has no update cap, as Bevy's loop has none.
//!   [`TickfoldPlugin::main_clock`] sets its name, exact rate, cap, phase or hysteresis.
//! * **Extra clocks** ([`TickfoldPlugin::clock`]) each run their own schedule, whose
//!   [`ClockSystems`] sets (`First`, `PreUpdate`, `Update`, `PostUpdate`, `Last`, chained) stand
//!   for `FixedMain`'s five sub-schedules. A clock added at run time
//!   ([`Tickfold::add_clock`]) gets the same order, and an empty schedule if the app
//!   has none.
//!
//! Inside each run, `Res<Time<Fixed>>` and `Res<Time>` are that clock's, set as Bevy's loop
//! sets them: `Time<Fixed>`'s elapsed is the end of the tick, its delta and timestep the
//! tick's length in whole ns, its overstep the virtual time still past the tick (its wrap
//! period the one the app set on `Time<Fixed>`); `Time` is
//! `Time<Fixed>`'s generic copy. Start, end and number of each tick are tickfold's own
//! answers ([`Tick::t`](tickfold_core::Tick::t),
//! [`Events::tick_end`](tickfold_core::Events::tick_end), [`Tick::index`](tickfold_core::Tick::index)): the plugin keeps no grid. Elapsed
//! never goes backwards, and moves by more than the delta only where simulation time does:
//! over dropped ticks, and by 1 ns when the first tick after a rate change starts at the old
//! grid's boundary rounded up (elapsed is the exact tick end, not a sum of deltas). Between the runs `Time<Fixed>` is the main clock's, with its
//! overstep reaching the frame's virtual time (so `overstep_fraction()` is the main clock's
//! blend, the alpha of tickfold's render), and `Time` is `Time<Virtual>` again, as Bevy leaves
//! them. [`Tickfold::fixed_time`] holds every clock's `Time<Fixed>` for reading outside its
//! runs; [`CurrentTick`] holds the tick being run (clock, exact index, start, lag,
//! `last_in_step`). A catch-up clock's runs (the main clock's, as in Bevy's loop, and every
//! clock on [`Policy::CatchUp`]) never see time ahead of the frame's `Time<Virtual>`, after
//! a `load_world` too (it puts the saved `Time<Virtual>` back); a constant-rate
//! clock ([`Policy::KeepWorking`], [`Policy::DropAndRest`], [`Policy::Delay`]) runs each slot
//! at its start, so inside the run `Time` is the slot's end, up to one period ahead of
//! `Time<Virtual>`; and an overstep accumulated (`Time<Fixed>::accumulate_overstep`) puts
//! simulation time ahead, as it does in Bevy's loop.
//!
//! # One virtual time: Bevy's
//!
//! The loop's `now` is `Time<Virtual>`'s elapsed time, and tickfold's own pause, scale and
//! max frame delta stay off. `Time<Virtual>::pause()` stops every clock,
//! `set_relative_speed(..)` slows or speeds all of them, `set_max_delta(..)` is the limit on a
//! frame. What a frame longer than the max delta does is [`VirtualTime`]'s choice:
//!
//! * [`VirtualTime::Bevy`] (default): Bevy clamps virtual time to 250 ms (its `max_delta`) and
//!   the rest of the frame is lost; the plugin reports the exact time lost as a
//!   [`VirtualTimeClamped`] message (Bevy's own loop writes a `debug!` line). Tick numbers do
//!   not jump; virtual time falls behind real time.
//! * [`VirtualTime::KeepReal`]: virtual time stays equal to real time (times the speed); the
//!   clocks drop the ticks past `max_frame_delta` instead, reported as [`TimeDiscarded`] with
//!   their numbers. Run counts and `Time` then differ from Bevy's own loop after a stall.
//!
//! An update cap ([`ClockConfig::max_updates`], `Some(8)` for a `ClockConfig::new` unless
//! changed) spreads a backlog over frames, reported as [`TicksDeferred`]; the main clock's
//! default has none, as Bevy.
//!
//! # Parity with Bevy's loop, and where it ends on purpose
//!
//! With only `TickfoldPlugin::new()` added to an app on Bevy's defaults (64 Hz `Time<Fixed>`,
//! 250 ms max delta), every frame runs `FixedMain` the same number of times as Bevy's own
//! loop, and each run and each `Update` sees the same `Time`, `Time<Fixed>` (elapsed, delta,
//! timestep, overstep) and `overstep_fraction()`, bit for bit, through stalls of 0.3–3 s and
//! zero-length frames: the crate's `tests/parity.rs` checks this over 10,000 seeded frames.
//! The condition is a timestep Bevy represents exactly: 64 Hz is 15,625,000 ns. At 60 Hz
//! Bevy rounds its timestep to 16,666,667 ns and its grid drifts 20 ns a second (one tick
//! short after an hour); tickfold's 60 Hz ticks are 16,666,666 or 16,666,667 ns long, 60 of
//! them exactly one second, so `Time<Fixed>` rightly differs from Bevy's there.
//!
//! # Writing `Time<Fixed>`, as in Bevy
//!
//! Bevy's loop reads `Time<Fixed>` between runs, and so does the plugin: `set_timestep(..)`,
//! `accumulate_overstep(..)` and `discard_overstep(..)` written in `First`, `PreUpdate`,
//! `Update` or later count from the next frame; written in a run (`FixedUpdate` or any fixed
//! schedule; inside an extra clock's run, `Time<Fixed>` is that clock's) they count from the
//! clock's next run, in the same frame. A timestep is the clock's new rate from its current
//! tick boundary ([`ClockMut::set_rate`](tickfold_core::ClockMut::set_rate)), an overstep
//! grown or shrunk moves the clock's grid earlier or later
//! ([`ClockMut::accumulate_overstep`](tickfold_core::ClockMut::accumulate_overstep),
//! [`ClockMut::discard_overstep`](tickfold_core::ClockMut::discard_overstep)). To count a
//! write from the next run of the same frame, the plugin takes the frame's step again from
//! before it, with the written clock capped at its runs so far (the cap keeps one total order,
//! so every later run of every clock waits), applies the write there and steps again at the
//! same time; a frame that may run some clock twice or more keeps a copy of the loop for that
//! (one clone a frame, only then). `tests/fixed_writes.rs` checks the runs, timestep and
//! overstep against Bevy's own loop over 3,000 seeded frames with stalls, for timesteps set in
//! `FixedUpdate` and oversteps grown and shrunk in `PreUpdate`, `Update` and `FixedUpdate`.
//! Where it differs, on purpose:
//!
//! * **A discard of a whole tick or more** drops those ticks: their numbers are skipped, they
//!   are reported ([`TicksDropped`], [`DropReason::Discarded`]) and `elapsed` goes on past
//!   them, as simulation time does over any dropped tick; Bevy's `elapsed` only sums the runs'
//!   timesteps. Run counts and overstep stay Bevy's. (Less than a tick, the usual
//!   `discard_overstep(overstep())` in `Update`, leaves `elapsed` as Bevy's too.)
//! * **With extra clocks**, the runs a write in a frame's only run of its clock makes due (a
//!   shorter timestep, an overstep grown) run after the other clocks' runs of that frame,
//!   not interleaved with them by due time: the plugin keeps no copy of the loop for a frame
//!   that runs each clock at most once. Bevy has one fixed clock.
//! * **A `Time<Fixed>` inserted anew** (`insert_resource(Time::<Fixed>::from_hz(30.0))`)
//!   is read as writes: its timestep is the main clock's new rate and its overstep (none)
//!   moves the clock's grid, so the runs, delta, timestep and overstep stay Bevy's; its
//!   elapsed does not restart at 0 as Bevy's does, but goes on from the simulation time
//!   reached (elapsed is the core's exact tick end, which a save keeps).
//!   `tests/extra_clocks.rs` checks this against Bevy's loop.
//! * **A main clock given a cap** ([`TickfoldPlugin::main_clock`]) gets it afresh for the runs
//!   after a write in a run. Bevy's loop has no cap.
//!
//! # Third-party plugins, tested
//!
//! `bevy-adapter/ecosystem/` (its own workspace, outside the default build; run it with
//! `bash .ci/bevy-ecosystem`) runs avian2d 0.8 with its `PhysicsInterpolationPlugin`
//! (`bevy_transform_interpolation` 0.6), unchanged, on the main clock beside a 10 Hz tickfold
//! clock: over 2,000 seeded frames at 64 Hz with stalls and zero-length frames, every body's
//! `Position`, `Rotation` and drawn `Transform` equal, bit for bit, the same app on Bevy's own
//! fixed loop. Its clean build (`cargo test --no-run`, CI's settings) compiled 144 crates,
//! 988 MB of target, in 1,326 s wall on this shared 2-core machine at a load average of about
//! 5: too long for the 45-minute CI run, so it stays a separate script.
//!
//! # Cost
//!
//! `benches/overhead.rs`: the same app (`TimePlugin`, one trivial `FixedUpdate` system, manual
//! time, 1 and 8 updates a frame) on Bevy's own fixed loop at its default `Time<Fixed>`
//! (nothing disabled) and with `TickfoldPlugin::new()` added, side by side in one criterion
//! run. Medians of 5 runs on a shared 2-core machine (load average 2.4–5.0): 4.32 µs against
//! Bevy's 4.67 µs a frame at 1 update (0.93×; each run 0.86–0.95×), 5.87 µs against 12.64 µs
//! at 8 (0.46×; each run 0.44–0.51×); instruction counts (callgrind, 2,000 frames) agree: 30,689 against 32,947 a
//! frame (0.93×) and 48,557 against 98,364 (0.49×). Since the plugin honours writes to
//! `Time<Fixed>` in runs (above), a frame that may run a clock twice or more keeps a copy of
//! the loop: measured with callgrind over 2,000 frames (the difference of 3,000 and 1,000), 31,039
//! against Bevy's 32,945 instructions a frame at 1 update (0.94×; 30,553 before) and 51,164
//! against 98,347 at 8 (0.52×; 48,256 before). Keeping message buffers for every clock and
//! checking for a clamped frame in a system of its own in `First` (see Messages) cost about
//! 750 more, measured the same way with the code before and after side by side: 31,793
//! against 31,051 at 1 update (0.97× Bevy's) and 51,944 against 51,192 at 8 (0.53×), of
//! which about 460 are Bevy's dispatch of that one more system. What makes the plugin's
//! frame cheaper than Bevy's is the dispatch of `FixedMain`: Bevy's `FixedMain` system takes
//! `FixedMainScheduleOrder` out of the world and each of the five sub-schedules out of
//! `Schedules` and back on every tick; the plugin runs the same sub-schedules, in the same
//! order, taking each out once a frame (as Bevy's loop takes `FixedMain` itself), so while the
//! frame's ticks run, `FixedFirst` … `FixedLast`, the extra clocks' schedules and
//! `BeforeTick` are out of `Schedules` (a system in one of them cannot run another by label),
//! and a `FixedMain` holding systems of its own besides Bevy's runs whole on each tick instead.
//!
//! # Messages
//!
//! Nothing is dropped silently: lost virtual time, drops, discarded time, deferrals and the
//! end of time are Bevy messages with exact tick numbers and counts ([`VirtualTimeClamped`],
//! [`TicksDropped`], [`TimeDiscarded`], [`TicksDeferred`], [`ClockEnded`]); the other events
//! of a step (rate changes, a clock that went backwards) are [`LoopNotice`]s.
//!
//! **Messages read in any clock's schedule.** Bevy updates its message buffers (in `First`)
//! only after a fixed run has happened, so a slow `FixedUpdate` reader still sees every
//! message. The plugin lets them update only once every clock has run a tick since the last
//! update (a clock past the end of its time axis excepted): each clock's readers see every
//! message, as a `FixedUpdate` reader at that clock's rate does, and `Update` readers see each
//! once, as in Bevy. Messages are kept until the slowest clock's next tick, so a clock that
//! runs rarely or starts later holds them that long, as Bevy's own loop does before a slow
//! fixed run. An app that sets `ShouldUpdateMessages::Always` keeps it. [`VirtualTimeClamped`]
//! is written in `First`, right after Bevy's time update, with the max delta and speed that
//! clamped the frame (a system changing them later in the frame does not hide it).
//! `tests/extra_clocks.rs` checks both against Bevy's loop at the same rates.
//!
//! # More
//!
//! **Input.** [`TickInputApp::add_tick_input`] gives every Bevy message of a type to exactly
//! one tick of a clock, through tickfold's [`InputQueue`](tickfold_core::InputQueue), stamped
//! with the frame's `Time<Virtual>`: see [`TickInputs`] for the rule and its accuracy.
//!
//! **Determinism and save games.** With the feature `testing`, `AppSim` runs the determinism
//! kit's frame schedules through a real `App` and compares the worlds; with `serde`,
//! `save_world` and `load_world` save the loop and the components you name, nothing else (each
//! clock's `Time<Fixed>` between frames is read back from the loop), and load them into a
//! fresh `App` that goes on bit for bit, `Time<Fixed>` included, frame by frame.
//!
//! **Controls.** Through `ResMut<Tickfold>`: [`Tickfold::clock_mut`] for one clock's rate,
//! cap, phase, hysteresis, overstep and grid; [`Tickfold::add_clock`] and
//! [`Tickfold::remove_clock`] at run time. They take effect at the next frame. Pause and speed
//! are `Time<Virtual>`'s. The main clock cannot be removed ([`RemoveError::MainClock`]):
//! it runs `FixedMain` and is `Time<Fixed>` between the runs.
//!
//! **Interpolated transforms.** With [`TransformInterpolationPlugin`], an entity marked
//! [`TransformInterpolation`] (translation, rotation, scale, each optional) is drawn between
//! the previous and current tick of the clock it follows: captured on tickfold's one capture rule
//! (before a step's last update, in the [`BeforeTick`] schedule), restored to its tick value
//! in `First` so gameplay never sees a blend, blended in `PostUpdate` before transform
//! propagation. Teleports ([`TransformHistory::teleport`]) and spawns show the current
//! transform. [`TransformEasing::Extrapolate`] and [`TransformEasing::Hermite`] draw from a
//! velocity component you name ([`TransformVelocity`], [`TransformVelocityPlugin`]). A save
//! game keeps [`TransformHistory`] (and [`VelocityHistory`]) with the `Transform`. A
//! `Transform` written outside the clocks' schedules (`PreUpdate`, `Update`) is taken as a
//! teleport by comparison with the simulated value, so it shows at once;
//! [`TransformInterpolationPlugin::every_entity`] marks every entity with a `Transform`.
//! Each entity follows one clock, captured on its ticks and drawn at its alpha: by default the
//! alpha clock ([`TickfoldPlugin::alpha_clock`], the main clock unless changed), or any clock with
//! [`TransformInterpolation::on`], so entities moved at 60 Hz and at 10 Hz are each drawn between their
//! own ticks.
//!
//! **`GlobalTransform` in gameplay** is not the simulated one: Bevy propagates transforms once
//! a frame, in `PostUpdate` after the blend, so a clock's schedule reads last frame's drawn
//! `GlobalTransform`. Re-propagating before every tick would cost a full propagation per
//! tick; gameplay that needs world positions reads `Transform` (always the simulated value in
//! the clocks' runs, since the blend is restored in `First`) and composes parents itself, or
//! runs Bevy's propagation systems in `FixedPostUpdate`. Bevy's own
//! `bevy_transform_interpolation` (and avian's `PhysicsInterpolationPlugin`, built on it) also
//! runs unchanged on the main clock, since it reads `Time<Fixed>`.

mod buffers;
mod clock_schedule;
mod input;
mod messages;
mod plugin;
mod resource;
mod run;
#[cfg(feature = "serde")]
mod save;
mod schedules;
#[cfg(feature = "testing")]
mod testing;
mod transform;
mod writes;

pub use clock_schedule::ClockSystems;
pub use input::{TickInputApp, TickInputs};
pub use messages::{
    ClockEnded, LoopNotice, TicksDeferred, TicksDropped, TimeDiscarded, VirtualTimeClamped,
};
pub use plugin::{TickfoldPlugin, VirtualTime};
pub use resource::{CurrentTick, RemoveError, Tickfold};
pub use run::run_tickfold_clocks;
#[cfg(feature = "serde")]
pub use save::{ComponentSet, LoadError, Saved, SavedRow, WorldSave, load_world, save_world};
pub use schedules::BeforeTick;
#[cfg(feature = "testing")]
pub use testing::{AppMismatch, AppSim};
/// tickfold's core, re-exported: the types the plugin and its messages use.
pub use tickfold_core;
pub use tickfold_core::{
    ClockConfig, ClockId, DropReason, Event, LoopState, Nanos, Period, Policy, Render, Tick,
    TimeScale,
};
pub use transform::{
    TransformEasing, TransformHistory, TransformInterpolation, TransformInterpolationPlugin,
    TransformInterpolationSystems, TransformVelocity, TransformVelocityPlugin, VelocityHistory,
};
