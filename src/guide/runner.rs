//! The runner, the thin shell that reads the clock and sleeps, and its winit integration.
//!
//! The fold never reads a clock; `tickfold::runner` is the thin shell that does. `Runner::frame`
//! reads the clock, steps the fold (in place, without allocating), hands each event to your code in
//! order and carries out `Sleep` events (it reads the clock again after each sleep and sleeps
//! again while early, so no update runs before its slot; with `NoSleep`, or a sleeper that keeps
//! waking early, `frame` stops before the `Sleep`, returns its time and hands on the rest of the
//! events at a later call); `Runner::wait_until` sleeps until the fold's deadline and
//! returns how late it woke. `Runner::run` loops the two. The sleeper is pluggable: `SpinSleep`
//! (`spin_sleep`'s hybrid sleep, the default), `ThreadSleep` (plain `thread::sleep`) or `NoSleep`
//! for loops paced by vsync. Nothing takes over control flow: inside winit, call `frame` from
//! `about_to_wait` and pass the deadline to `ControlFlow::WaitUntil` (the feature `winit` does it
//! for you, below).
//!
//! **Draws at the display rate by default.** A runner whose sleeper sleeps (anything but
//! `NoSleep`) sets a render cap of 60 Hz (`runner::DEFAULT_RENDER_HZ`) on a state that has none
//! (`LoopConfig::render_rate`'s "no cap" default): its deadlines then include a render slot every
//! 1/60 s, so it wakes and draws 60 times a second with `alpha` spread over the tick. Without it, a
//! sleeping runner would sleep from tick to tick and draw once per tick at `alpha` ≈ 0 (30 draws a
//! second at 30 Hz): interpolation would silently do nothing. A cap you set is kept; pick another
//! with `Runner::with_render_rate` (`Some(144 Hz)` for a 144 Hz display, `None` to draw only when
//! ticks run). With `NoSleep` the state is left alone: vsync or the outer event loop paces the
//! draws. The cap is part of the state (a save game keeps it).
//!
//! **Stopping from inside.** `Runner::run_with(&mut game, |game, event, state, ctl| ...)` hands
//! your game to the one handler, which stops the loop with `ctl.exit()` (a `runner::Control`):
//! the loop returns right after that event. Exit on a `Render` (always a step's last event) and
//! nothing is left over; exit mid-step and the rest of the step waits in the runner
//! (`has_pending_events`) for the next `frame` or `run`, never lost. `run(on_event, keep_going)`
//! still works, but its stop condition cannot read what the handler changes.
//!
//! **The time as of each tick.** The `&LoopState` a handler gets with an `Event::Update` reads
//! *as of that tick*, as Bevy gives a `FixedUpdate` system the tick's own `Time`:
//! `virtual_time().elapsed()` is the virtual time at which the tick came due on its clock's grid,
//! `delta()` its length, and every clock's `latest_tick()` and `stats()` are those at the tick's
//! place in the loop's total order (by due time, ties to the clock declared first). So game logic
//! that reads them does not depend on how frames fall. The other events (the render, drops,
//! `Deferred`) and the state after the frame read the end of the step, which a handler also gets
//! under names that say so: `elapsed_at_step_end`, `delta_at_step_end`,
//! `latest_tick_at_step_end`, `stats_at_step_end`. The runner does it through
//! `LoopState::as_of`, and a pure fold gets the same with `state.hand_on(&events, ...)`
//! (see [`clocks`](super::clocks)). Physics at 30 Hz and AI at 10 Hz, one 250 ms frame:
//!
//! ```rust
//! # #[cfg(feature = "std")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::runner::{ManualTime, Runner};
//! use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};
//!
//! let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
//!     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
//! let clock = ManualTime::new();
//! let mut runner = Runner::new(LoopState::new(config, Nanos(0))?, clock.clone(), clock.clone())
//!     .with_render_rate(None);
//! let ai = runner.state().clock("ai").expect("declared above").id();
//! clock.advance(Nanos::from_millis(250));
//! let mut seen = Vec::new();
//! runner.frame(|event, state| {
//!     if matches!(event, Event::Update(tick) if tick.clock == ai) {
//!         let physics = state.clock("physics").expect("declared").latest_tick().expect("ran");
//!         seen.push((physics.index, state.virtual_time().elapsed().0 / 1_000_000));
//!     }
//! });
//! // AI's tick 0 (due at 100 ms) sees physics' tick 2, its tick 1 (200 ms) physics' tick 5:
//! // not tick 6 and 250 ms, the frame's end, which depend on how frames fall.
//! assert_eq!(seen, [(2, 100), (5, 200)]);
//! assert_eq!(runner.state().virtual_time().elapsed(), Nanos::from_millis(250)); // after it
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "std"))]
//! # fn main() {}
//! ```
//!
//! **A fake clock for tests.** `runner::ManualTime` is both the time source and the sleeper:
//! sleeping jumps to the deadline, clones share one clock, and `advance` moves it by hand (the
//! time an update or a draw takes), so hours of a loop run in milliseconds, exactly on the fold's
//! deadlines:
//!
//! ```rust
//! # #[cfg(feature = "std")]
//! # fn main() -> Result<(), tickfold::ConfigError> {
//! use tickfold::runner::{ManualTime, Runner};
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! struct Game { x: f64, updates: u32 }
//!
//! let clock = ManualTime::new();
//! let state = LoopState::new(LoopConfig::new(Period::from_hz(30)?), Nanos(0))?;
//! let mut runner = Runner::new(state, clock.clone(), clock.clone());
//! let mut game = Game { x: 0.0, updates: 0 };
//! let mut alphas = Vec::new();
//! runner.run_with(&mut game, |game, event, _state, ctl| match event {
//!     Event::Update(tick) => {
//!         game.x += tick.dt_secs();
//!         game.updates += 1;
//!         clock.advance(Nanos::from_millis(2)); // the update's work
//!     }
//!     Event::Render(_) if game.updates >= 90 => ctl.exit(), // quit after three seconds
//!     Event::Render(frame) => alphas.push(frame.alpha), // drawn at 60 Hz, between ticks
//!     _ => {}
//! });
//! assert_eq!(game.updates, 90);
//! assert!(alphas.len() >= 170 && alphas.iter().any(|a| *a > 0.4));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "std"))]
//! # fn main() {}
//! ```
//!
//! ```rust
//! # #[cfg(feature = "std")]
//! # fn main() -> Result<(), tickfold::ConfigError> {
//! use std::time::Instant;
//! use tickfold::runner::{Runner, SpinSleep, RealTime};
//! use tickfold::{Event, LoopConfig, LoopState, Period};
//!
//! let config = LoopConfig::new(Period::from_hz(100)?).render_rate(Some(Period::from_hz(240)?));
//! let mut runner = Runner::new(LoopState::new(config, Instant::now())?, RealTime, SpinSleep::default());
//! let mut position = 0.0_f64;
//! runner.run(
//!     |event, _state| match event {
//!         Event::Update(tick) => position += 2.0 * tick.dt_secs(),
//!         Event::Render(_frame) => { /* draw, blending with `_frame.alpha` */ }
//!         _ => {}
//!     },
//!     |state| state.clock("main").is_ok_and(|main| main.stats().ticks_run < 5),
//! );
//! assert!(position > 0.09);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "std"))]
//! # fn main() {}
//! ```
//!
//! `examples/pacing.rs` compares the runner with the naive `sleep(1/60)` loop that the constant-rate
//! loop article starts from (it drifts by the work and the oversleep of every iteration) and with
//! `spin_sleep_util::Interval` (figures in [`performance`](super::performance)).
//!
//! ## winit: the feature `winit`
//!
//! `tickfold = { version = "0.1", features = ["winit"] }` adds `tickfold::winit` (winit 0.30; the
//! feature turns on `std`, and builds winit with its `x11` backend only: your own `winit = "0.30"`
//! dependency, with its default features, adds Wayland). Write the game as a `tickfold::winit::Game`
//! and hand it with a `Runner` to `tickfold::winit::App`, winit's `ApplicationHandler`:
//!
//! * `Game::resumed` creates the window, `Game::window` lends it to `App`;
//! * on every `about_to_wait`, `App` calls `Runner::frame`, hands each event to `Game::event`
//!   (updates; keep `Render`'s `alpha`), calls `request_redraw` on the window if the frame
//!   rendered, and sets `ControlFlow::WaitUntil(deadline)` (`ControlFlow::Wait` when nothing is due
//!   by time alone), so the process sleeps until the next tick or render slot, or until input;
//! * `Game::window_event` gets the window events, with the loop's state to pause it or change the
//!   time scale: draw on `RedrawRequested`;
//! * on `WindowEvent::Occluded(true)` (covered, minimised or on another workspace, as the platform
//!   reports it) `App` stops requesting redraws, while the ticks go on at their deadlines and the
//!   loop still sleeps between them; on `Occluded(false)` it requests one at once and resumes;
//! * `Control::exit`, from any of the game's handlers, ends the event loop; `App::exit_requested`,
//!   `App::redraws_requested` and `App::frames` (wake-ups) tell what happened afterwards.
//!
//! Use `NoSleep` as the runner's sleeper (the event loop waits) and give the loop a render cap:
//! without one every frame renders and each redraw wakes the loop again, as fast as the surface
//! presents. winit is compiled only for builds that ask for the feature: the demo and the other
//! examples of the facade never build it.
//!
//! `cargo run --release -p tickfold-window` shows the demo's world in a real window, as such a
//! `Game` (winit 0.30 and softbuffer, no system development packages needed; its own package under
//! `examples/window/`, so the other examples never compile them): `I` toggles interpolation, `Space`
//! pauses, `S` cycles the time scale, and the title bar shows the statistics. Under Xvfb
//! (`Xvfb :99 -screen 0 1024x768x24`, then
//! `DISPLAY=:99 cargo run --release -p tickfold-window -- --seconds 6`) it printed `window closed:
//! 120 ticks, 859 frames drawn, 0 dropped` (the frame count varies a little from run to run;
//! 119 and 855 with the hand-written glue it had before); a frame captured with imagemagick's
//! `import -window root`:
//!
//! ![the window example under Xvfb](examples/window.png)
//!
//! `tests/winit.rs` opens windows on `$DISPLAY` and checks, on the real clock, that half a second
//! at 60 Hz runs the fold's count of ticks with a redraw requested per render and about one
//! wake-up per deadline, that a window covered by another requests no redraws while the ticks go
//! on, and that the loop ends through `Control::exit`. It needs an X server: `bash .ci/winit` starts
//! Xvfb (installing Debian's `xvfb` if needed) and runs it (`bash .ci/winit CMD...` runs any
//! command under that display). Without `DISPLAY` the test fails when `CI` is set and says it
//! skipped otherwise, so `cargo test --workspace --all-features` still passes on a machine without
//! a display.
//!
//! ## Smoothed frame deltas: `DeltaSmoother`
//!
//! A vsync-paced loop's frames are whole refresh intervals apart, but the times it reads are
//! not: the thread wakes late after a present, a browser jitters its `requestAnimationFrame`
//! stamps and coarsens `performance.now()` to 100 µs. With a tick rate equal to the display's
//! (60 Hz on 60 Hz), frames land on the tick boundaries, and that noise alone makes about half
//! of them run 0 or 2 updates. [`DeltaSmoother`](crate::DeltaSmoother) (in `tickfold-core`,
//! `no_std`; after Godot's delta smoothing) measures the refresh interval and snaps each frame's
//! delta to a whole number of intervals, carrying the remainder, so the smoothed time never
//! strays from the time read by more than its bound (4 ms by default). A gap (over 4 intervals:
//! a hidden tab, a suspend) passes through unsmoothed, so the fold reports what it drops;
//! stamps that repeat or go back hold the smoothed time; a refresh-rate change is measured
//! again. A runner that does not sleep and has no render cap (paced by vsync, one `frame` per
//! presented frame) smooths by default, and so does the web shell;
//! [`Runner::with_smoothing`](crate::runner::Runner::with_smoothing) chooses for any runner
//! (`None` turns it off). Any other shell calls
//! [`smooth`](crate::DeltaSmoother::smooth) with each frame's stamp in `Nanos` and steps the
//! fold with the result:
//!
//! ```
//! use tickfold::{DeltaSmoother, LoopConfig, LoopState, Nanos, Period};
//!
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
//! let mut smoother = DeltaSmoother::new();
//! let mut irregular = 0;
//! for k in 1..=600u64 {
//!     // A rAF stamp: the refresh ± up to 0.9 ms, coarsened to 100 µs.
//!     let noise = [0, 900_000, 200_000, 1_700_000, 600_000][k as usize % 5];
//!     let stamp = (k * 1_000_000_000 / 60 + noise - 900_000) / 100_000 * 100_000;
//!     let (next, events) = state.step(smoother.smooth(Nanos(stamp)));
//!     state = next;
//!     irregular += usize::from(events.updates().count() != 1);
//! }
//! assert!(irregular < 20); // a few while the refresh is measured (the warm-up)
//! assert_eq!(smoother.stats().passed, 0);
//! # Ok::<(), tickfold::ConfigError>(())
//! ```
//!
//! In the peers bench (36,000 frames, 60 Hz ticks on 60 Hz stamps jittered by ±1 ms and
//! coarsened to 100 µs) the plain fold behind the smoother runs far fewer irregular frames than
//! game-loop's or Bevy's loop; see `BENCHMARKS.md` for the figures.
