//! Bevy: one exact Bevy schedule per tickfold clock, with the `tickfold-bevy` plugin.
//!
//! **Why the code on this page is text.** `tickfold-bevy` (in `bevy-adapter/`) is a crate of
//! its own, outside this workspace, so that building or testing tickfold never compiles Bevy.
//! This facade does not depend on it, so its doctests cannot compile Bevy code, and this guide
//! runs every Rust block it shows (no `ignore`d blocks): the Bevy code below is shown as text.
//! The plugin's runnable examples are in its own crate docs, compiled and tested against Bevy
//! there: `cargo doc --manifest-path bevy-adapter/Cargo.toml --open`, or `tickfold-bevy` on
//! docs.rs once published, and its examples and tests, listed at the end of this page.
//!
//! Bevy runs one fixed schedule (`FixedMain`) at one rate (a request for several was closed
//! won't-fix, bevyengine/bevy #18486); its `Time<Fixed>::from_hz(60.0)` is 16,666,667 ns, so the
//! grid drifts 20 ns a second (72 µs an hour); and a frame past the 250 ms max delta loses time
//! with only a `debug!` line. `bevy-adapter/` (package `tickfold-bevy`, Bevy 0.20.1: `bevy_app`,
//! `bevy_ecs`, `bevy_time` without default features) runs one Bevy schedule per tickfold clock,
//! exactly, in the fold's one total order:
//!
//! ```text
//! use bevy_ecs::schedule::ScheduleLabel;
//! use tickfold_bevy::{ClockConfig, CurrentTick, Period, TickfoldPlugin};
//!
//! #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
//! struct FixedPhysics;
//! #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
//! struct FixedNet;
//! #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
//! struct FixedAi;
//!
//! app.add_plugins(MinimalPlugins) // (bevy) or DefaultPlugins: TimePlugin, whose Time<Real> it reads
//!     .add_plugins(
//!         TickfoldPlugin::new()
//!             .clock(FixedPhysics, ClockConfig::new("physics", Period::from_hz(60)?))
//!             .clock(FixedNet, ClockConfig::new("net", Period::from_hz(30)?))
//!             .clock(FixedAi, ClockConfig::new("ai", Period::from_hz(10)?)),
//!     )
//!     .add_systems(FixedPhysics, step_bodies) // reads Res<Time> as in FixedUpdate
//!     .add_systems(FixedAi, think);           // or Res<CurrentTick>: clock, index, t, dt, lag
//! ```
//!
//! * **When**: the `Tickfold` resource holds the `LoopState`; once per frame a system in
//!   `RunFixedMainLoop` (where Bevy's own fixed loop runs, between `PreUpdate` and `Update`,
//!   after `run_fixed_main_schedule`) steps it to `Time<Real>`'s elapsed time and runs each
//!   update's schedule, as many times as the fold says.
//! * **Time inside a run**: `CurrentTick` is the tick (clock, exact index, `t`, `dt`, lag,
//!   `last_in_step`); Bevy's generic `Time` is set as `run_fixed_main_schedule` sets it from
//!   `Time<Fixed>` (`elapsed` the end of the tick, `delta` its length: 16,666,666 or 16,666,667 ns
//!   at 60 Hz, 60 of them exactly 1 s) and set back to `Time<Virtual>` after the runs.
//! * **Nothing silent**: `TimeDiscarded` (the max frame delta), `TicksDropped`, `TicksDeferred`
//!   (the per-frame cap) and `ClockEnded` are Bevy messages with exact tick numbers and counts;
//!   the other events of a step (pause, scale and rate changes, a clock that went backwards) are
//!   `LoopNotice`s.
//! * **Controls** on `ResMut<Tickfold>`: `clock_mut("physics")?.set_rate(..)` and the rest of the
//!   clock handle, `add_clock(label, config, start)` and `remove_clock(name)` at run time,
//!   `set_paused`, `set_time_scale` and `step_ticks(n)`, each taking effect at the next frame.
//!   They are tickfold's: the loop reads `Time<Real>`, so pausing Bevy's `Time<Virtual>` does not
//!   stop the tickfold clocks, and Bevy's own `FixedMain` keeps running beside them.
//!
//! **Input, each message to exactly one tick.** `app.add_tick_input::<M>("physics")` (trait
//! `TickInputApp`, any `M: Message + Clone`) feeds Bevy's messages of type `M` into an
//! `InputQueue` owned by the plugin; each tick of the clock finds its own in `Res<TickInputs<M>>`
//! (`inputs.iter()`, `inputs.tick()`), so no press is lost in a frame without a tick or seen twice
//! in a frame with two (bevyengine/bevy #6183, open since 2022).
//!
//! ```text
//! app.add_tick_input::<KeyboardInput>("physics") // bevy_input's message; your own types work too
//!     .add_systems(FixedPhysics, |keys: Res<TickInputs<KeyboardInput>>| {
//!         for key in &keys { /* exactly this tick's presses */ }
//!     });
//! ```
//!
//! Bevy's input messages carry no timestamp: `KeyboardInput` is key code, logical key, state,
//! text, repeat and window (bevy_input `keyboard.rs`), and bevy_winit writes them from the events
//! winit delivered since the previous frame just before `app.update()` (`state.rs`:
//! `window_event` queues `KeyboardInput` into `bevy_window_events`, `run_app_update` calls
//! `forward_bevy_events` then `app.update()`), while `Time<Real>` is read afterwards, in `First`
//! (bevy_time 0.20.1 `time_system`: `Instant::now()`, or the render world's time with pipelined
//! rendering). So the plugin stamps each message with the `Time<Real>` reading of the frame that
//! reads it (a `MessageReader<M>` in `RunFixedMainLoop`, just before the step): the `now` the loop
//! is stepped at, an upper bound on the event's real time. **The rule**: all the messages read in
//! a frame at real time `r` go to the clock's first tick whose due time is strictly after `v(r)`,
//! the loop's virtual time at `r` (with catch-up, the tick whose interval `[k·dt, (k+1)·dt)` holds
//! `v(r)`); none goes to a tick that frame runs (those are due at or before `v(r)`), a frame that
//! runs no tick leaves its messages queued, and messages written after `RunFixedMainLoop` (in
//! `Update`) are read and stamped in the next frame. Attribution is frame-accurate, not
//! event-accurate: a press lands up to one frame (plus the OS's and winit's delay) after the
//! instant it happened, so at most one tick later than the tick of its real instant while frames are no
//! longer than a tick; exact per-event
//! attribution needs OS event times, which neither winit nor Bevy passes on.
//! `bevy-adapter/tests/inputs.rs` sends about 9,000 messages of two types to two clocks over 3,000
//! seeded frames (frames with no tick, with several, zero-length, 300 ms hitches deferred by the
//! cap): each message reaches exactly one tick, and every tick gets the messages tickfold-core's
//! own `InputQueue` gives it when fed the same stamps.
//!
//! **Determinism** (feature `testing`): `AppSim::new(|| build_app()).same_across_schedules(&schedules, fingerprint)`
//! runs the determinism kit's frame `Schedule`s (quickcheck's `Arbitrary` ones included) through
//! a real `App` with the plugin, on `TimeUpdateStrategy::ManualDuration` frames, and compares the
//! tick counts and a fingerprint of the world you compute (hash the components that matter) with
//! a run of one frame per tick. `bevy-adapter/tests/determinism.rs` checks 60 arbitrary
//! schedules (up to 24 frames each) over two clocks, and shows the property failing on a system that kicks once per frame
//! (`last_in_step`). Build the checked app with `.max_frame_delta(None)` (the clamp rightly drops
//! time in long frames) and, with several clocks whose systems read each other's state, without a
//! per-frame cap: the cap defers one clock's ticks while the other's run, so their relative order
//! then depends on the frames.
//!
//! **Save games** (feature `serde`): mark entities `Saved(id)` (a stable id of yours) and
//! `save_world::<(Pos, Vel)>(world)` gives a `WorldSave`: the plugin's whole `LoopState`, each
//! clock's `Time` grid, and those components (as `Option`s) of every marked entity, for any serde
//! format. `load_world(fresh_app.world_mut(), save)` puts it into an app built with the same
//! plugin: the loop goes on from its saved reading whatever the new app's `Time<Real>` shows,
//! components are inserted or removed to match, unknown ids spawned, stale ones despawned.
//! `bevy-adapter/tests/save_load.rs` saves through JSON at six points of seeded runs (a rate
//! change before the save, hitches, a constant-rate second clock, tick input; half of the loads
//! into an app whose own clock has run longer than the save's) and checks that every later
//! tick (clock, number, `t`, `Time::elapsed`, `Time::delta`, the components after it) and the
//! final components are bit for bit the uninterrupted run's. The tuple of components is the
//! extension point: a tracked previous value for interpolation is one more component in it.
//! For interpolated transforms, save `(Transform, TransformInterpolation, TransformHistory,
//! VelocityHistory, YourVelocity)` (the last two for the velocity easings; `Transform` and the
//! history through bevy_transform's `serialize`, turned on by `serde`): between frames
//! `Transform` holds the blend and the history the simulated value, so a `Transform` saved alone
//! loads the blend as the simulation (`bevy-adapter/tests/save_interpolation.rs` checks every
//! later render and tick bit for bit after saves at five points, teleports, extrapolating and
//! Hermite entities included, and that a save without the history renders differently). The
//! save also holds the latest render, which a frame with no time passed redraws.
//! Messages queued for a tick not yet run are not in the save (a load empties the queues): save
//! in a frame that reads none, or resend them.
//!
//! **Overhead** (`bevy-adapter/benches/overhead.rs`, criterion, manual time, one 64 Hz clock, one
//! trivial system, the loops side by side in one run; the shared 2-core machine was busy (load
//! average 3 to 4), so the figures are the median over five runs of each run's median, with the
//! five medians' range):
//!
//! | per frame | bare frame (`TimePlugin`) | Bevy's fixed loop | tickfold plugin | plugin / Bevy |
//! |---|---|---|---|---|
//! | 1 update | 4.25 µs (3.65 to 5.28) | 7.40 µs (7.01 to 8.68) | 6.07 µs (5.33 to 6.98) | 0.82 |
//! | 8 updates | 4.35 µs (3.71 to 5.00) | 20.16 µs (17.82 to 21.88) | 13.40 µs (12.66 to 14.25) | 0.66 |
//!
//! Above the bare frame that is 3.2 µs (Bevy) against 1.8 µs (tickfold) at one update, and
//! 1.8 µs against 1.05 µs per further update: Bevy runs `FixedMain`, which runs five schedules
//! (`FixedFirst` to `FixedLast`) per tick, the plugin one schedule per tick. No dearer than
//! Bevy's loop, so nothing needed fixing. (A single run under a load spike can invert a cell:
//! one run gave 12.4 µs for the plugin's one-update frame; rerun when figures look odd.)
//!
//! ```sh
//! cargo bench --manifest-path bevy-adapter/Cargo.toml --bench overhead -- --warm-up-time 1 --measurement-time 2
//! ```
//!
//! **Interpolated transforms** (`bevy_transform` 0.20.1 without default features): add
//! `TransformInterpolationPlugin` and mark entities `TransformInterpolation` (translation,
//! rotation, scale, each optional; `translation_only()`, `rotation_only()`), moved in the alpha
//! clock's schedule. The previous transform is captured on the one capture rule (before a step's
//! last update, in the `BeforeTick` schedule the plugin runs before every tick), the tick value is
//! restored in `First` so gameplay (the clock schedules, `Update`) never sees a blend, and the blend
//! is written in `PostUpdate` before `TransformSystems::Propagate`, at the render's alpha.
//! `TransformHistory::teleport()` shows the current transform until the next capture; an entity
//! spawned since the last capture shows its current one. `.easing(TransformEasing::Extrapolate)` or
//! `TransformEasing::Hermite` draw from a velocity component you name (`impl TransformVelocity`,
//! plus `TransformVelocityPlugin::<Velocity>`). `tests/interpolation.rs` checks every rendered
//! `Transform` of a seeded 3,000-frame run against `prev + alpha·(cur − prev)` (slerp for rotation)
//! computed from a shadow of the simulation, to the last bit, with teleports and spawns; the
//! example `interpolated_transform` prints the three easings against the exact arc.
//!
//! Configured like Bevy's default fixed loop (one 64 Hz clock, 250 ms max delta, no update cap),
//! the plugin runs its schedule the same number of times, in the same frames, with the same
//! `Time` inside, as Bevy's `RunFixedMainLoop` in a real `App` over 10,000 seeded frames
//! (`bevy-adapter/tests/parity.rs`); the same file shows the two differences on purpose (an
//! exact 60 Hz grid where Bevy's is one tick short after an hour, and a 1 s stall reported as
//! `TimeDiscarded { ticks: 49 }` where Bevy only falls 760 ms behind real time).
//! `tests/three_clocks.rs` runs 60, 30 and 10 Hz for an hour of seeded frames: 216,000, 108,000 and
//! 36,000 ticks, the fold's total order, every tick's `t` and `Time` exact. The headless example
//! prints per-clock tick counts and the drops of a stall:
//!
//! ```sh
//! cargo run --manifest-path bevy-adapter/Cargo.toml --example three_clocks
//! cargo test --manifest-path bevy-adapter/Cargo.toml                  # its tests
//! cargo test --manifest-path bevy-adapter/Cargo.toml --all-features   # + determinism, save games
//! bash .ci/bevy                                                       # what CI runs
//! ```
//!
//! The crate is not a workspace member (root `Cargo.toml` `exclude`, like `benches/peers`), so
//! `cargo build` and `cargo test --workspace` never compile Bevy; `.ci/bevy` (called by `.ci/run`)
//! checks its format, lints, docs, tests and example. Build cost: `cargo build
//! --manifest-path bevy-adapter/Cargo.toml` from an empty `CARGO_TARGET_DIR` compiles 75 crates
//! (13 of them Bevy's own, `bevy_transform` and `bevy_math` for the interpolated transforms among
//! them; tickfold-core and tickfold-bevy included) into 417 MB; it took 226 s of wall time and
//! 258 s of CPU on the shared 2-core machine at a load average of 3 to 4 (other jobs were
//! building), so expect roughly 2 to 3 minutes on two idle cores. The `serde` feature adds three
//! crates (`serde`, `serde_core`, `serde_derive`; `cargo tree -e normal` lists 73 packages without
//! it, 76 with it). Dependencies build at
//! `opt-level = 2` in this crate's dev profile: a debug Bevy schedule run costs tens of µs, and the
//! hour-long tests run about 650,000 of them (67 s for the parity tests alone unoptimised, 4.5 s
//! optimised).
