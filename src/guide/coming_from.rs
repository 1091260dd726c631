//! Coming from Bevy's `FixedUpdate`, the `game-loop` crate or a hand-written accumulator.
//!
//! All four run the same small program: a ball moving at 2 units a second, updated at a fixed
//! 50 Hz, drawn between updates with interpolation, with a cap of 250 ms on the time one frame
//! may owe. What changes is who owns the clock, how exact the tick length is, and what happens to
//! time the loop gives up.
//!
//! # A hand-written "Fix Your Timestep!" accumulator
//!
//! Glenn Fiedler's loop, on a fake clock so that it runs here (a real one reads `Instant::now()`):
//!
//! ```rust
//! let frames = [0.016, 0.032, 0.048, 0.064, 0.080, 0.480, 0.496]; // seconds; a 400 ms stall
//! let dt = 1.0 / 50.0;
//! let (mut accumulator, mut last) = (0.0_f64, 0.0_f64);
//! let (mut previous, mut current, mut ticks) = (0.0_f64, 0.0_f64, 0);
//! for now in frames {
//!     let frame_time = (now - last).min(0.25); // the clamp: the rest of a stall is lost, silently
//!     last = now;
//!     accumulator += frame_time;
//!     while accumulator >= dt {
//!         previous = current;
//!         current += 2.0 * dt; // the update
//!         accumulator -= dt;
//!         ticks += 1;
//!     }
//!     let alpha = accumulator / dt;
//!     let _drawn = previous + (current - previous) * alpha; // the render
//! }
//! // 80 ms of frames, then the clamp: 80 + 250 + 16 = 346 ms, 17 whole ticks (here the f64
//! // sums land on the right side of each boundary; they need not). The stall's other 150 ms
//! // are gone without a trace, and the grid has moved by them.
//! assert_eq!(ticks, 17);
//! ```
//!
//! # The `game-loop` crate
//!
//! `game-loop` 1.3 owns the loop: it reads the clock, calls your update and render closures, and
//! renders once per iteration. Not a dependency of this crate, so shown as text:
//!
//! ```text
//! use game_loop::game_loop;
//!
//! struct Ball { previous: f64, current: f64 }
//!
//! fn main() {
//!     let ball = Ball { previous: 0.0, current: 0.0 };
//!     // 50 updates per second, a 250 ms max frame time (the rest is dropped, silently)
//!     game_loop(ball, 50, 0.25, |g| {
//!         g.game.previous = g.game.current;
//!         g.game.current += 2.0 * g.fixed_time_step();
//!     }, |g| {
//!         let alpha = g.blending_factor();
//!         let _drawn = g.game.previous + (g.game.current - g.game.previous) * alpha;
//!         // draw; game-loop does not sleep: the render (or vsync) paces the loop
//!     });
//! }
//! ```
//!
//! # Bevy's `FixedUpdate`
//!
//! Bevy runs `FixedUpdate` from its own fixed loop inside the `App`; `Time<Fixed>` holds the
//! timestep and the overstep. Shown as text (Bevy is not a dependency of this crate):
//!
//! ```text
//! use bevy::prelude::*;
//!
//! #[derive(Component)]
//! struct Ball { previous: f32, current: f32 }
//!
//! fn main() {
//!     App::new()
//!         .add_plugins(DefaultPlugins)
//!         .insert_resource(Time::<Fixed>::from_hz(50.0)) // 20,000,000 ns; 60 Hz would round
//!         .add_systems(Startup, |mut commands: Commands| { commands.spawn(Ball { previous: 0.0, current: 0.0 }); })
//!         .add_systems(FixedUpdate, move_ball)
//!         .add_systems(Update, draw_ball)
//!         .run();
//! }
//!
//! fn move_ball(time: Res<Time>, mut balls: Query<&mut Ball>) {
//!     for mut ball in &mut balls {
//!         ball.previous = ball.current;
//!         ball.current += 2.0 * time.delta_secs(); // Time is Time<Fixed> inside FixedUpdate
//!     }
//! }
//!
//! fn draw_ball(fixed: Res<Time<Fixed>>, balls: Query<&Ball>) {
//!     let alpha = fixed.overstep_fraction();
//!     for ball in &balls {
//!         let _drawn = ball.previous + (ball.current - ball.previous) * alpha;
//!     }
//! }
//! ```
//!
//! To keep Bevy and get tickfold's clocks, the [`bevy`](super::bevy) chapter's plugin runs one
//! Bevy schedule per tickfold clock. What a Bevy app writes to `Time<Fixed>` still counts:
//! `set_timestep(..)` or `discard_overstep(..)` in `Update` from the next frame, in
//! `FixedUpdate` from the next run of the same frame, as in Bevy's loop (the chapter lists
//! where it differs, and why). Its save games write each component's presence explicitly, so
//! a unit-struct marker survives serde_json.
//!
//! # tickfold
//!
//! The same program, on the same fake frames. The loop never reads a clock: you pass `now`. The
//! 250 ms cap is the default, and the time it gives up comes back as an event.
//!
//! ```rust
//! use tickfold::{Event, Interpolate, LoopConfig, LoopState, Nanos, Period};
//!
//! let frames = [16, 32, 48, 64, 80, 480, 496].map(Nanos::from_millis);
//! let config = LoopConfig::new(Period::from_hz(50)?); // max_frame_delta: 250 ms by default
//! let mut state = LoopState::new(config, Nanos(0))?;
//! let (mut previous, mut current, mut discarded) = (0.0_f64, 0.0_f64, 0);
//! for now in frames {
//!     for event in &state.advance(now) {
//!         match event {
//!             Event::Update(tick) => (previous, current) = (current, current + 2.0 * tick.dt_secs()),
//!             Event::Render(r) => _ = previous.interpolate(&current, r.alpha),
//!             Event::DiscardedTime { ticks, .. } => discarded += ticks, // what the clamp dropped
//!             _ => {}
//!         }
//!     }
//! }
//! let main = state.clock("main")?.stats();
//! // 4 ticks, then the stall: 250 ms keep 12 of its 20 ticks, the newest, on a grid that
//! // never moves (the accumulator's clamp moved its grid by the 150 ms it lost instead); the
//! // 17th tick is due at 500 ms. The 8 others are reported, with their numbers.
//! assert_eq!((main.ticks_run, discarded), (16, 8));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! In a real program the [`Runner`](crate::runner::Runner) reads the clock and sleeps until the
//! fold's deadline (the [`runner`](super::runner) chapter), and `Instant` works as the timestamp
//! as well as `Nanos`.
//!
//! # What maps to what
//!
//! | | hand-written | `game-loop` 1.3 | Bevy `FixedUpdate` | tickfold |
//! |---|---|---|---|---|
//! | tick length | `dt: f64` | updates per second, `f64` seconds | `Time::<Fixed>::from_hz`, rounded to whole ns | `Period::from_hz`: an exact fraction of a ns |
//! | the update | `while accumulator >= dt` | the update closure, `fixed_time_step()` | a `FixedUpdate` system, `Res<Time>` | `Event::Update(tick)`, `tick.dt_secs()`, `tick.index`, `tick.t` |
//! | time at the tick's end | `t + dt` | `(number_of_updates() + 1) as f64 * fixed_time_step()` in the update | `Time<Fixed>::elapsed()` in the tick | [`events.tick_end(&tick)`](crate::Events::tick_end): exact, the next tick's `t` |
//! | the latest tick, between frames | your variables | `number_of_updates()` | `Time<Fixed>::elapsed()`, `delta()` outside the tick | [`state.clock("main")?.latest_tick()`](crate::ClockHandle::latest_tick): number, start, end, saved with the state |
//! | the time a tick's system reads | `t` in the loop | the loop's fields, the frame's | `Res<Time>` in `FixedUpdate`: the tick's own (elapsed at its end, delta its timestep) | the handler's `&LoopState` ([runner](super::runner), winit, [`hand_on`](crate::LoopState::hand_on)) reads as of the tick: `virtual_time().elapsed()` its due time, `delta()` its length, every clock's `latest_tick()` and `stats()` at its place in the total order; the frame's under `elapsed_at_step_end` and the like |
//! | alpha | `accumulator / dt` | `blending_factor()` | `Time<Fixed>::overstep_fraction()` | `Event::Render(r)`, `r.alpha` |
//! | the accumulator | `accumulator` | none | `Time<Fixed>::overstep()` | `r.lag` (`Render::lag`, within one tick: 50 ms at 10 Hz and 250 ms). Not `tick.lag`: a tick's lag is measured from its start, so a catch-up tick's is at least `dt` (250 and 150 ms for that step's two ticks); how late it ran is `lag − dt` |
//! | alpha with several rates | by hand | no | one fixed schedule | the fastest clock's, whatever the declaration order (`LoopConfig::alpha_clock` picks another); `Interpolated::new()` follows the clock of the first tick it is handed, `.clock(id)` a chosen one |
//! | settings per rate | by hand | no | one `Time<Fixed>` | on each `ClockConfig`; `LoopConfig::max_updates` and the other per-clock setters in a loop of several clocks are a `ConfigError::ClockSettingOnLoop` |
//! | who reads the clock | you | the loop | the `App` (`Time<Real>`) | you pass `now` (or the runner does) |
//! | a long frame | your clamp, silent | `max_frame_time`, silent | `Time<Virtual>` max delta, a `debug!` line | `max_frame_delta`, `Event::DiscardedTime` with the tick count |
//! | updates per frame | unbounded | unbounded | unbounded | `max_updates` (8), the rest `Event::Deferred`, never lost |
//! | sleeping | by hand | none | the event loop, vsync | `Event::Sleep`, `Events::deadline`, the runner |
//! | pause, time scale | by hand | no | `Time<Virtual>` | `virtual_time_mut()`: exact scale, reported |
//! | several rates | by hand | no | one fixed schedule | named clocks in one total order |
//! | tests on a fake clock | restructure | its `TimeTrait` | `TimeUpdateStrategy::ManualDuration` | any `Nanos`, `runner::ManualTime`, the determinism kit |
//! | save and resume the loop | by hand | no | no | serde, exact |
//! | in the browser | `requestAnimationFrame` by hand | its wasm shell: `game_loop` with a winit window, driven by `requestAnimationFrame` | `WinitPlugin` on wasm; a hidden tab's gap clamped by the max delta | `tickfold::web` (feature `web`): rAF stamps, never sleeps; hidden tabs paused, reported or kept ticking by a Worker (the [`web`](super::web) chapter) |
//!
//! # The complete game in three loops
//!
//! `examples/game/` puts the pieces together, the game the [`tutorial`](super::tutorial) builds, complete: a
//! hecs world of 10,000 bodies (`Position(Vec3)` and `Rotation(Quat)` with
//! `#[derive(Interpolate)]`), 30 Hz ticks, interpolated renders at the display's rate on the real
//! clock (`Runner` with `RealNanos` and `SpinSleep`, the default 60 Hz render cap), headless by
//! default: it prints per-second figures and stops after `--seconds N` through `ctl.exit()`.
//! `--save-at S` saves mid-run (loop state, components and both trackers as JSON) and resumes in a
//! fresh world. With the `winit` feature on, `--window` runs the same game in a window, driven by
//! `tickfold::winit::App` (each redraw blends the 10,000 bodies; the title bar shows the
//! per-second figures; the contents stay blank, since the facade depends on nothing that draws
//! pixels: the window example `tickfold-window` draws with softbuffer). CI runs both modes for a
//! few seconds, the window under Xvfb. Its game code (`examples/game/world.rs`) is checked by
//! the example's own tests (`examples/game/tests.rs`, run by `cargo test`): exact ticks and a hand-computed blend on `ManualTime`, `WorldSim` over
//! arbitrary schedules, a bit-identical resume.
//!
//! ```sh
//! cargo run --release --example game --features hecs,glam,serde,derive -- --seconds 4 --save-at 1.5
//! cargo run --release --example game --features hecs,glam,serde,derive,winit -- --window
//! ```
//!
//! **The same program on `game-loop` and on a hand-written loop.** `benches/peers/examples/`
//! holds the example twice more, compiled and tested on fake clocks by the bench crate's
//! `cargo test`: on `game-loop` 1.3 (`game_gameloop.rs`) and on Fiedler's "Fix Your Timestep"
//! accumulator written by hand (`game_fiedler.rs`: `Instant`, `alpha = accumulator / dt`, a
//! previous-state copy before each update, sleeping to a 60 Hz grid). All three run the same
//! bodies and update (`examples/game-bodies`), 30 Hz ticks, 60 Hz interpolated renders, a
//! 250 ms cap on a frame's time, the same per-second figures, exit after `--seconds N`; the two
//! peers keep the previous state by hand (`game-bodies/src/hand.rs`). Lines of glue (neither blank
//! nor comments) inside the `// glue:` regions of each:
//!
//! | program | loop | interpolation | pacing | glue in all |
//! |---|---:|---:|---:|---:|
//! | tickfold (`examples/game/main.rs`, `world.rs`) | 12 | 19 | 1 | 32 |
//! | game-loop 1.3 (`benches/peers/examples/game_gameloop.rs`, `game-bodies/src/hand.rs`) | 10 | 24 | 7 | 41 |
//! | hand-written Fiedler loop (`benches/peers/examples/game_fiedler.rs`, `game-bodies/src/hand.rs`) | 21 | 24 | 7 | 52 |
//!
//! The shared game code all three reuse, `examples/game-bodies/src/lib.rs`, is 114 lines. tickfold's
//! interpolation counts its two trackers (created, spawned with, captured before an update, told
//! of a wrap, read at render: `extract`, the rotations' visitor and a `sample` of the first body);
//! its `#[derive(Interpolate)]` is one word on the shared components' derive lines. tickfold's
//! pacing is the sleeper it is given; its 60 Hz render cap and 250 ms frame cap are defaults, and
//! `--render-hz` (not in the peers) is not counted. What the counts leave out: tickfold reports the
//! ticks a long frame drops (`Event::DroppedTicks`, `DiscardedTime`; the example only ignores
//! them), keeps exact integer time,
//! numbers its ticks, and saves and resumes its loop state (`--save-at`: 16 more lines in `main.rs`,
//! 56 for the save file in `world.rs`); `game-loop` drops time past `max_frame_time`
//! silently and has no render cap (its render sleeps the rest of 1/60 s itself, so renders drift
//! to about 59 per second); the hand-written loop clamps silently too and its `f64` accumulator
//! rounds. One 2 s run of each, in release:
//!
//! ```text
//! 10000 bodies, 30 Hz ticks, rendering on the real clock for 2 s
//!  1.00 s  ticks  30  renders  61  mean alpha 0.248  mean position    0.642    0.777   -0.524  body 0 at   -6.694   33.749    4.796  wraps 3068
//!  2.00 s  ticks  30  renders  60  mean alpha 0.251  mean position    0.226    0.673   -0.597  body 0 at   -7.385   11.824   37.927  wraps 6023
//! done: 60 ticks in 2.000 s of loop time (60 expected at 30 Hz), 6023 wraps
//! 10000 bodies, 30 Hz ticks, game-loop on the real clock for 2 s
//!  1.01 s  ticks  30  renders  62  mean alpha 0.419  mean position    0.638    0.774   -0.525  body 0 at   -6.703   33.484    5.197  wraps 3068
//!  2.01 s  ticks  30  renders  59  mean alpha 0.461  mean position    0.224    0.672   -0.598  body 0 at   -7.389   11.685   38.137  wraps 6023
//! done: 60 ticks in 2.006 s of loop time (60 expected at 30 Hz), 6023 wraps
//! 10000 bodies, 30 Hz ticks, a hand-written loop on the real clock for 2 s
//!  1.00 s  ticks  30  renders  61  mean alpha 0.251  mean position    0.642    0.777   -0.524  body 0 at   -6.694   33.747    4.799  wraps 3068
//!  2.00 s  ticks  30  renders  60  mean alpha 0.255  mean position    0.226    0.673   -0.597  body 0 at   -7.385   11.821   37.932  wraps 6023
//! done: 60 ticks in 2.000 s of loop time (60 expected at 30 Hz), 6023 wraps
//! ```
//!
//! ```sh
//! bash benches/peers/count_glue.sh   # the table
//! cargo run --release --manifest-path benches/peers/Cargo.toml --example game_gameloop -- --seconds 2
//! cargo run --release --manifest-path benches/peers/Cargo.toml --example game_fiedler -- --seconds 2
//! ```
