//! Coming from Bevy's `FixedUpdate`, the `game-loop` crate or a hand-written accumulator.
//!
//! `examples/game/` puts the pieces together, written from this guide and the rustdoc alone: a
//! hecs world of 10,000 bodies (`Position(Vec3)` and `Rotation(Quat)` with
//! `#[derive(Interpolate)]`), 30 Hz ticks, interpolated renders at the display's rate on the real
//! clock (`Runner` with `RealNanos` and `SpinSleep`, the default 60 Hz render cap), headless by
//! default: it prints per-second figures and stops after `--seconds N` through `ctl.exit()`.
//! `--save-at S` saves mid-run (loop state, components and both trackers as JSON) and resumes in a
//! fresh world. With the `winit` feature on, `--window` runs the same game in a window, driven by
//! `tickfold::winit::App` (each redraw blends the 10,000 bodies; the title bar shows the
//! per-second figures; the contents stay blank, since the facade depends on nothing that draws
//! pixels: the window example `tickfold-window` draws with softbuffer). CI runs both modes for a
//! few seconds, the window under Xvfb. Its game code (`examples/game/world.rs`) is shared with
//! `tests/game.rs`: exact ticks and a hand-computed blend on `ManualTime`, `WorldSim` over
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
//! bodies and update (`examples/game/bodies.rs`), 30 Hz ticks, 60 Hz interpolated renders, a
//! 250 ms cap on a frame's time, the same per-second figures, exit after `--seconds N`; the two
//! peers keep the previous state by hand (`shared/hand_game.rs`). Lines of glue (neither blank
//! nor comments) inside the `// glue:` regions of each:
//!
//! | program | loop | interpolation | pacing | glue in all |
//! |---|---:|---:|---:|---:|
//! | tickfold (`examples/game/main.rs`, `world.rs`) | 12 | 19 | 1 | 32 |
//! | game-loop 1.3 (`benches/peers/examples/game_gameloop.rs`, `shared/hand_game.rs`) | 10 | 24 | 7 | 41 |
//! | hand-written Fiedler loop (`benches/peers/examples/game_fiedler.rs`, `shared/hand_game.rs`) | 21 | 24 | 7 | 52 |
//!
//! The shared game code all three reuse, `examples/game/bodies.rs`, is 101 lines. tickfold's
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
//!  1.00 s  ticks  30  renders  61  mean alpha 0.255  mean position   -0.442   -0.673   -0.062  body 0 at   47.904  -46.237    3.085  wraps 2994
//!  2.00 s  ticks  30  renders  60  mean alpha 0.264  mean position   -0.693   -0.340   -0.002  body 0 at   22.972  -72.251   10.306  wraps 5963
//! done: 60 ticks in 2.002 s of loop time (60 expected at 30 Hz), 5963 wraps
//! 10000 bodies, 30 Hz ticks, game-loop on the real clock for 2 s
//!  1.00 s  ticks  30  renders  61  mean alpha 0.374  mean position   -0.442   -0.673   -0.062  body 0 at   47.862  -46.281    3.097  wraps 2994
//!  2.01 s  ticks  30  renders  59  mean alpha 0.501  mean position   -0.694   -0.340   -0.002  body 0 at   22.792  -72.438   10.358  wraps 5963
//! done: 60 ticks in 2.009 s of loop time (60 expected at 30 Hz), 5963 wraps
//! 10000 bodies, 30 Hz ticks, a hand-written loop on the real clock for 2 s
//!  1.00 s  ticks  30  renders  61  mean alpha 0.257  mean position   -0.442   -0.673   -0.062  body 0 at   47.901  -46.240    3.085  wraps 2994
//!  2.00 s  ticks  30  renders  60  mean alpha 0.261  mean position   -0.693   -0.340   -0.002  body 0 at   23.018  -72.203   10.292  wraps 5963
//! done: 60 ticks in 2.000 s of loop time (60 expected at 30 Hz), 5963 wraps
//! ```
//!
//! ```sh
//! bash benches/peers/count_glue.sh   # the table
//! cargo run --release --manifest-path benches/peers/Cargo.toml --example game_gameloop -- --seconds 2
//! cargo run --release --manifest-path benches/peers/Cargo.toml --example game_fiedler -- --seconds 2
//! ```
