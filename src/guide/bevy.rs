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
//! # Bevy's fixed loop, run by tickfold
//!
//! `TickfoldPlugin` keeps one tickfold `LoopState` in the `Tickfold` resource. It removes
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
//!   `TickfoldPlugin::main_clock` sets its name, exact rate, cap, phase or hysteresis.
//! * **Extra clocks** (`TickfoldPlugin::clock`) each run their own schedule, whose
//!   `ClockSystems` sets (`First`, `PreUpdate`, `Update`, `PostUpdate`, `Last`, chained) stand
//!   for `FixedMain`'s five sub-schedules. A clock added at run time
//!   (`Tickfold::add_clock`) gets the same order, and an empty schedule if the app
//!   has none.
//!
//! Inside each run, `Res<Time<Fixed>>` and `Res<Time>` are that clock's, set as Bevy's loop
//! sets them: `Time<Fixed>`'s elapsed is the end of the tick, its delta and timestep the
//! tick's length in whole ns, its overstep the virtual time still past the tick (its wrap
//! period the one the app set on `Time<Fixed>`); `Time` is
//! `Time<Fixed>`'s generic copy. Start, end and number of each tick are tickfold's own
//! answers (`Tick::t`, `Events::tick_end`, `Tick::index`): the plugin keeps no grid. Elapsed
//! never goes backwards, and moves by more than the delta only where simulation time does:
//! over dropped ticks, and by 1 ns when the first tick after a rate change starts at the old
//! grid's boundary rounded up (elapsed is the exact tick end, not a sum of deltas). Between the runs `Time<Fixed>` is the main clock's, with its
//! overstep reaching the frame's virtual time (so `overstep_fraction()` is the main clock's
//! blend, the alpha of tickfold's render), and `Time` is `Time<Virtual>` again, as Bevy leaves
//! them. `Tickfold::fixed_time` holds every clock's `Time<Fixed>` for reading outside its
//! runs; `CurrentTick` holds the tick being run (clock, exact index, start, lag,
//! `last_in_step`). A catch-up clock's runs (the main clock's, as in Bevy's loop, and every
//! clock on `Policy::CatchUp`) never see time ahead of the frame's `Time<Virtual>`, after a
//! `load_world` too (it puts the saved `Time<Virtual>` back); a constant-rate clock
//! (`Policy::KeepWorking`, `DropAndRest`, `Delay`) runs each slot at its start, so inside
//! the run `Time` is the slot's end, up to one period ahead of `Time<Virtual>`; and an
//! overstep accumulated (`Time<Fixed>::accumulate_overstep`) puts simulation time ahead, as
//! it does in Bevy's loop.
//!
//! # One virtual time: Bevy's
//!
//! The loop's `now` is `Time<Virtual>`'s elapsed time, and tickfold's own pause, scale and
//! max frame delta stay off. `Time<Virtual>::pause()` stops every clock,
//! `set_relative_speed(..)` slows or speeds all of them, `set_max_delta(..)` is the limit on a
//! frame. What a frame longer than the max delta does is `VirtualTime`'s choice:
//!
//! * `VirtualTime::Bevy` (default): Bevy clamps virtual time to 250 ms (its `max_delta`) and
//!   the rest of the frame is lost; the plugin reports the exact time lost as a
//!   `VirtualTimeClamped` message (Bevy's own loop writes a `debug!` line). Tick numbers do
//!   not jump; virtual time falls behind real time.
//! * `VirtualTime::KeepReal`: virtual time stays equal to real time (times the speed); the
//!   clocks drop the ticks past `max_frame_delta` instead, reported as `TimeDiscarded` with
//!   their numbers. Run counts and `Time` then differ from Bevy's own loop after a stall.
//!
//! An update cap (`ClockConfig::max_updates`, `Some(8)` for a `ClockConfig::new` unless
//! changed) spreads a backlog over frames, reported as `TicksDeferred`; the main clock's
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
//! tick boundary (`ClockMut::set_rate`), an overstep
//! grown or shrunk moves the clock's grid earlier or later
//! (`ClockMut::accumulate_overstep`,
//! `ClockMut::discard_overstep`). To count a
//! write from the next run of the same frame, the plugin takes the frame's step again from
//! before it, with the written clock capped at its runs so far (the cap keeps one total order,
//! so every later run of every clock waits), applies the write there and steps again at the
//! same time; a frame that may run some clock twice or more keeps a copy of the loop for that
//! (one clone a frame, only then). The crate's `tests/fixed_writes.rs` checks the runs, timestep and
//! overstep against Bevy's own loop over 3,000 seeded frames with stalls, for timesteps set in
//! `FixedUpdate` and oversteps grown and shrunk in `PreUpdate`, `Update` and `FixedUpdate`.
//! Where it differs, on purpose:
//!
//! * **A discard of a whole tick or more** drops those ticks: their numbers are skipped, they
//!   are reported (`TicksDropped`, `DropReason::Discarded`) and `elapsed` goes on past
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
//! * **A main clock given a cap** (`TickfoldPlugin::main_clock`) gets it afresh for the runs
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
//! `benches/overhead.rs` runs the same app (`TimePlugin`, one trivial `FixedUpdate` system,
//! 1 and 8 updates a frame) on Bevy's own fixed loop at its default `Time<Fixed>` (nothing
//! disabled) and with `TickfoldPlugin::new()` added, side by side in one criterion run: a frame
//! costs less with the plugin (below 1× Bevy's at 1 update, about half at 8), because it takes
//! `FixedMain`'s sub-schedules out of `Schedules` once a frame instead of once a tick. The
//! figures, the instruction counts and what the once-a-frame dispatch means for a system that
//! runs a fixed schedule by label are in tickfold-bevy's crate docs, section "Cost" (one home,
//! regenerated with the bench).
//!
//! # Messages
//!
//! Nothing is dropped silently: lost virtual time, drops, discarded time, deferrals and the
//! end of time are Bevy messages with exact tick numbers and counts (`VirtualTimeClamped`,
//! `TicksDropped`, `TimeDiscarded`, `TicksDeferred`, `ClockEnded`); the other events
//! of a step (rate changes, a clock that went backwards) are `LoopNotice`s.
//!
//! **Messages read in any clock's schedule.** Bevy updates its message buffers (in `First`)
//! only after a fixed run has happened, so a slow `FixedUpdate` reader still sees every
//! message. The plugin lets them update only once every clock has run a tick since the last
//! update (a clock past the end of its time axis excepted): each clock's readers see every
//! message, as a `FixedUpdate` reader at that clock's rate does, and `Update` readers see each
//! once, as in Bevy. Messages are kept until the slowest clock's next tick, so a clock that
//! runs rarely or starts later holds them that long, as Bevy's own loop does before a slow
//! fixed run. An app that sets `ShouldUpdateMessages::Always` keeps it. `VirtualTimeClamped`
//! is written in `First`, right after Bevy's time update, with the max delta and speed that
//! clamped the frame (a system changing them later in the frame does not hide it).
//! `tests/extra_clocks.rs` checks both against Bevy's loop at the same rates.
//!
//! # Input, determinism, saves, controls, interpolated transforms
//!
//! **Input.** `TickInputApp::add_tick_input` gives every Bevy message of a type to exactly
//! one tick of a clock, through tickfold's `InputQueue`, stamped
//! with the frame's `Time<Virtual>`: see `TickInputs` for the rule and its accuracy.
//!
//! **Determinism and save games.** With the feature `testing`, `AppSim` runs the determinism
//! kit's frame schedules through a real `App` and compares the worlds; with `serde`,
//! `save_world` and `load_world` save the loop and the components you name, nothing else (each
//! clock's `Time<Fixed>` between frames is read back from the loop), and load them into a
//! fresh `App` that goes on bit for bit, `Time<Fixed>` included, frame by frame.
//!
//! **Controls.** Through `ResMut<Tickfold>`: `Tickfold::clock_mut` for one clock's rate,
//! cap, phase, hysteresis, overstep and grid; `Tickfold::add_clock` and
//! `Tickfold::remove_clock` at run time. They take effect at the next frame. Pause and speed
//! are `Time<Virtual>`'s. The main clock cannot be removed (`RemoveError::MainClock`):
//! it runs `FixedMain` and is `Time<Fixed>` between the runs.
//!
//! **Interpolated transforms.** With `TransformInterpolationPlugin`, an entity marked
//! `TransformInterpolation` (translation, rotation, scale, each optional) is drawn between
//! the previous and current tick of the clock it follows: captured on tickfold's one capture rule
//! (before a step's last update, in the `BeforeTick` schedule), restored to its tick value
//! in `First` so gameplay never sees a blend, blended in `PostUpdate` before transform
//! propagation. Teleports (`TransformHistory::teleport`) and spawns show the current
//! transform. `TransformEasing::Extrapolate` and `TransformEasing::Hermite` draw from a
//! velocity component you name (`TransformVelocity`, `TransformVelocityPlugin`). A save
//! game keeps `TransformHistory` (and `VelocityHistory`) with the `Transform`. A
//! `Transform` written outside the clocks' schedules (`PreUpdate`, `Update`) is taken as a
//! teleport by comparison with the simulated value, so it shows at once;
//! `TransformInterpolationPlugin::every_entity` marks every entity with a `Transform`.
//! Each entity follows one clock, captured on its ticks and drawn at its alpha: by default the
//! alpha clock (`TickfoldPlugin::alpha_clock`, the main clock unless changed), or any clock with
//! `TransformInterpolation::on`, so entities moved at 60 Hz and at 10 Hz are each drawn between their
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
//!
//! # Examples and tests of the plugin
//!
//! * `cargo run --manifest-path bevy-adapter/Cargo.toml --example three_clocks`: three exact
//!   clocks (60, 30, 10 Hz) in one headless `App`, the main one on `FixedMain`.
//! * `cargo run --manifest-path bevy-adapter/Cargo.toml --example interpolated_transform`:
//!   `Transform`s interpolated, extrapolated and Hermite-blended.
//! * `bash .ci/bevy`: the crate's format, lints, docs and tests (parity with Bevy's loop over
//!   10,000 frames with stalls, pause and speed through `Time<Virtual>`, tick input, saves,
//!   interpolation, extra clocks against Bevy's `FixedUpdate` at their rates, messages
//!   included); `bash .ci/bevy-ecosystem`: avian2d and `bevy_transform_interpolation`.
