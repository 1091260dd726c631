//! Tutorial: a complete game, step by step, from an empty project to a saved two-clock world.
//!
//! We build a small game: a hecs world of bodies that move at a fixed 30 Hz ("physics") and
//! steer at 5 Hz ("ai"), drawn between ticks with interpolation on the real clock; [part
//! two](super::tutorial_testing) tests it on a fake clock, checks it for determinism over
//! arbitrary frame schedules, and saves and resumes it exactly. The finished program, with 10,000 bodies, a window mode and per-second figures, is
//! the repository's `examples/game/` (`cargo run --release --example game --features
//! hecs,glam,serde,derive -- --seconds 4 --save-at 1.5`), and `examples/game/tests.rs` holds its tests.
//!
//! # 0. A project
//!
//! ```sh
//! cargo new drift && cd drift
//! ```
//!
//! tickfold is not on crates.io yet: depend on a local copy of the workspace by path. Once it is
//! published, `tickfold = { version = "0.1", features = [...] }` does the same.
//!
//! ```toml
//! [dependencies]
//! tickfold = { path = "../tickfold", features = ["hecs", "glam", "derive", "serde"] }
//! serde = { version = "1", features = ["derive"] }
//! serde_json = { version = "1", features = ["float_roundtrip"] }
//!
//! [dev-dependencies]
//! tickfold = { path = "../tickfold", features = ["quickcheck"] }
//! ```
//!
//! `hecs` is the ECS adapter (`tickfold::hecs_adapter`, with hecs itself re-exported), `glam`
//! blends glam's vectors and quaternions (`tickfold::glam`), `derive` gives
//! `#[derive(Interpolate)]`, `serde` saves the loop, and `quickcheck` (for tests) is the
//! determinism kit. The features are listed on the [crate page](crate#features).
//!
//! # 1. The loop
//!
//! The loop is a fold: [`LoopState::step`](crate::LoopState::step) takes the state and the time
//! now, and gives back the next state and the [`Events`](crate::Events) to handle, in order. It
//! never reads a clock: here the frames come from a fake one, 16 ms apart.
//!
//! ```rust
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(30)?), Nanos(0))?;
//! let (mut updates, mut renders) = (0, 0);
//! for frame in 1..=10u64 {
//!     let events;
//!     (state, events) = state.step(Nanos::from_millis(16 * frame));
//!     // Each event in order, with the state as of it (see below).
//!     state.hand_on(&events, |event, state| match event {
//!         Event::Update(tick) => updates += 1, // run one fixed update of tick.dt_secs()
//!         Event::Render(r) => renders += 1,    // draw, blending at r.alpha
//!         _ => {}                              // sleeps, drops, pauses: see `Event`
//!     })?;
//! }
//! // 160 ms hold 4 whole ticks of 33.3 ms (the rest is carried as lag); every frame renders.
//! assert_eq!((updates, renders), (4, 10));
//! assert_eq!(state.clock("main")?.stats().ticks_run, 4);
//! assert_eq!(state.virtual_time().elapsed(), Nanos::from_millis(160)); // time, exactly
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Two readings matter before anything else: every `Update` carries a [`Tick`](crate::Tick)
//! (its clock, its number `index`, its exact start `t`, its length `dt`), and every `Render`
//! carries `alpha`, how far the loop is between the latest tick and the next one (0 to 1).
//! [`clock`](crate::LoopState::clock) reads a clock's numbers after any step, and
//! [`virtual_time`](crate::LoopState::virtual_time) and [`real_time`](crate::LoopState::real_time)
//! the loop's time.
//! `state.advance(now)` is the same step in place, when you would rather not move the state.
//! [`hand_on`](crate::LoopState::hand_on) hands each event to your closure with the state *as of
//! it*, as the [runner](super::runner) and winit hand it to your handler: read from that `state`
//! while an update is handled, the time and the clocks' numbers are those of that tick:
//! `virtual_time().elapsed()` is the time the tick came due, not the frame's end, so what your
//! update reads never depends on how frames fall. A plain `for event in &events` loop also runs
//! every update, but an update handed `&state` there reads the end of the step, which changes
//! with the frame rate; the outer `state` cannot be read inside `hand_on`'s closure (it is
//! borrowed), so the walk above cannot mix the two up. Part two's determinism check runs *your*
//! loop and catches the plain one.
//!
//! ```rust
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(30)?), Nanos(0))?;
//! let events = state.advance(Nanos::from_millis(100)); // ticks 0 to 2, one frame
//! let mut times = Vec::new();
//! state.hand_on(&events, |event, state| {
//!     if let Event::Update(_) = event {
//!         let time = state.virtual_time();
//!         times.push((time.elapsed().0 / 1_000_000, time.elapsed_at_step_end().0 / 1_000_000));
//!     }
//! })?;
//! assert_eq!(times, [(33, 100), (66, 100), (100, 100)]); // each tick's due time; the frame's end
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # 2. Two clocks
//!
//! Physics runs at 30 Hz and the AI at 5 Hz, both in one loop, each on its own exact grid. A step
//! gives the updates of all clocks in one order (by due time, ties in declaration order), so a
//! replay is the same run. Each tick says its clock by id (`tick.clock`, a [`ClockId`](crate::ClockId)): look the
//! ids up by name once the loop exists, `state.clock("physics")?.id()`. Ids are handed out in
//! declaration order, so a number written down (`ClockId(0)`) names another clock as soon as a
//! game declares its clocks in another order, and nothing would say so.
//!
//! ```rust
//! use tickfold::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
//!
//! let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
//!     .clock(ClockConfig::new("ai", Period::from_hz(5)?));
//! let mut state = LoopState::new(config, Nanos(0))?;
//! let (physics, ai) = (state.clock("physics")?.id(), state.clock("ai")?.id());
//!
//! let events = state.advance(Nanos::from_millis(210));
//! let name = |id| if id == physics { "physics" } else if id == ai { "ai" } else { "?" };
//! let order: Vec<(&str, u64)> = events.updates().map(|t| (name(t.clock), t.index)).collect();
//! // A tick is due once its whole length has passed: physics ticks 0 to 5 (due every 33.3 ms,
//! // up to 200 ms) and AI tick 0 (due at 200 ms, tied with physics tick 5: declared second).
//! let physics_ticks = (0..6).map(|k| ("physics", k));
//! assert_eq!(order, physics_ticks.chain([("ai", 0)]).collect::<Vec<_>>());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The render's `alpha` belongs to the fastest clock, here physics, whatever order the clocks are
//! declared in (choose another with [`LoopConfig::alpha_clock`](crate::LoopConfig::alpha_clock)).
//! Settings such as the update cap go on each `ClockConfig`: in a loop of two clocks or more,
//! `LoopConfig::max_updates` and the other per-clock setters on the `LoopConfig` are refused
//! with [`ConfigError::ClockSettingOnLoop`](crate::ConfigError::ClockSettingOnLoop), whether
//! called before or after the clocks are added, since they would set the first clock only. The [`clocks`](super::clocks) chapter has the rest: firing
//! rules, caps per clock, clocks added at run time.
//!
//! # 3. The world, and interpolation
//!
//! The game lives in a hecs world. `Position` and `Rotation` are drawn, so they are blended
//! between ticks (`#[derive(Interpolate)]` blends a struct field by field; glam's `Quat` by
//! shortest-arc slerp); `Velocity` is not drawn. One tracker per blended component keeps the
//! previous tick's value beside it in the entity.
//!
//! The one rule to follow: **call `before_update` before every update**. It captures the state
//! only before the step's last update (a render blends the state before that update with the
//! state after it), so a step of five catch-up updates copies once. A tracker follows one clock:
//! made with `Interpolated::new()`, it binds to the clock of the first tick it is handed (here
//! physics: only physics ticks reach it); `.clock(state.clock("physics")?.id())` binds it by hand. A tick of another
//! clock is not acted on and is counted in `stats().other_clock_ticks`, so a tracker handed the
//! wrong clock's ticks shows it. A jump that is not a motion
//! (a body wrapping around the box) is marked with `teleport`, and is drawn without blending.
//!
//! ```rust
//! # #[cfg(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde"))]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::collections::HashMap;
//!
//! use serde::{Deserialize, Serialize};
//! use tickfold::glam::{Quat, Vec3};
//! use tickfold::hecs_adapter::hecs::{Entity, World};
//! use tickfold::hecs_adapter::{Interpolated, SavedTracker, Tracker};
//! use tickfold::{ClockConfig, ClockId, Interpolate, LoopConfig, LoopState, Nanos, Period, Tick};
//!
//! /// Where a body is: blended between ticks.
//! #[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
//! struct Position(Vec3);
//!
//! /// Which way it faces: blended by shortest-arc slerp.
//! #[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
//! struct Rotation(Quat);
//!
//! /// Units per second. Not drawn, so not blended.
//! #[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
//! struct Velocity(Vec3);
//!
//! const HALF_BOX: f32 = 50.0;
//! /// The clocks' ids, looked up by name once the loop exists. An id is the loop's handle for
//! /// a clock, handed out in declaration order: never write one down as a number (a game that
//! /// declares AI first gives AI the id `ClockId(0)`).
//! #[derive(Copy, Clone, Debug)]
//! struct Clocks {
//!     physics: ClockId,
//!     ai: ClockId,
//! }
//!
//! impl Clocks {
//!     fn of(state: &LoopState<Nanos>) -> Result<Clocks, tickfold::NoSuchClock> {
//!         Ok(Clocks { physics: state.clock("physics")?.id(), ai: state.clock("ai")?.id() })
//!     }
//! }
//!
//! fn config() -> LoopConfig {
//!     let physics = ClockConfig::new("physics", Period::from_hz(30).unwrap());
//!     let ai = ClockConfig::new("ai", Period::from_hz(5).unwrap());
//!     LoopConfig::from_clock(physics).clock(ai)
//! }
//!
//! struct Game {
//!     world: World,
//!     trackers: (Interpolated<Position>, Interpolated<Rotation>),
//!     clocks: Clocks,
//! }
//!
//! impl Game {
//!     fn new(bodies: usize, clocks: Clocks) -> Game {
//!         let mut world = World::new();
//!         let mut trackers = (Interpolated::new(), Interpolated::new());
//!         for i in 0..bodies {
//!             let x = i as f32 - bodies as f32 / 2.0;
//!             let body = (
//!                 Position(Vec3::new(x, 0.0, 0.0)),
//!                 Rotation(Quat::IDENTITY),
//!                 Velocity(Vec3::new(3.0, 1.0 + x, 0.0)),
//!             );
//!             trackers.spawn(&mut world, body); // adds the trackers' companions
//!         }
//!         Game { world, trackers, clocks }
//!     }
//!
//!     fn update(&mut self, tick: &Tick) {
//!         if tick.clock == self.clocks.ai {
//!             // Steering, five times a second: a quarter turn for every velocity.
//!             let turn = Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
//!             for v in self.world.query_mut::<&mut Velocity>() {
//!                 v.0 = turn * v.0;
//!             }
//!             return;
//!         }
//!         // Physics, 30 times a second. The capture rule first: before the step's last update.
//!         self.trackers.before_update(&mut self.world, tick);
//!         let dt = tick.dt_secs() as f32;
//!         let mut wrapped = Vec::new();
//!         let spin = Quat::from_rotation_z(dt);
//!         for (e, p, r, v) in
//!             self.world.query_mut::<(Entity, &mut Position, &mut Rotation, &Velocity)>()
//!         {
//!             p.0 += v.0 * dt;
//!             r.0 = (r.0 * spin).normalize();
//!             let outside = p.0.abs().cmpgt(Vec3::splat(HALF_BOX));
//!             if outside.any() {
//!                 p.0 = Vec3::select(outside, p.0 - p.0.signum() * 2.0 * HALF_BOX, p.0);
//!                 wrapped.push(e);
//!             }
//!         }
//!         for e in wrapped {
//!             // Leaving the box is a jump, not a motion: draw it without blending.
//!             self.trackers.0.teleport(&self.world, e).expect("a tracked body");
//!         }
//!     }
//!
//!     fn render(&self, alpha: f64, frame: &mut Frame) {
//!         self.trackers.0.extract(&self.world, alpha, &mut frame.positions);
//!         self.trackers.1.extract(&self.world, alpha, &mut frame.rotations);
//!     }
//! }
//!
//! /// What a renderer would upload: the blended instances, reused from frame to frame.
//! #[derive(Default)]
//! struct Frame {
//!     positions: Vec<Position>,
//!     rotations: Vec<Rotation>,
//! }
//!
//! let mut state = LoopState::new(config(), Nanos(0))?;
//! let mut game = Game::new(100, Clocks::of(&state)?);
//! let mut frame = Frame::default();
//! for k in 1..=30u64 {
//!     let events = state.advance(Nanos::from_millis(16 * k));
//!     state.hand_on(&events, |event, state| match event {
//!         // An update that reads the loop takes `state` too: here it is as of this tick.
//!         tickfold::Event::Update(tick) => game.update(&tick),
//!         tickfold::Event::Render(r) => game.render(r.alpha, &mut frame),
//!         _ => {}
//!     })?;
//! }
//! assert_eq!(frame.positions.len(), 100); // one blended instance per body
//! assert_eq!(game.trackers.0.stats().captures, 14); // once per step that ran physics
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde")))]
//! # fn main() {}
//! ```
//!
//! The blended values go only into the buffers a renderer uploads: gameplay code that queries the
//! world only ever sees tick values. More in the [`hecs`](super::hecs) and
//! [`interpolation`](super::interpolation) chapters.
//!
//! # 4. On the real clock
//!
//! A real game passes the real time and sleeps until the fold's deadline. The
//! [`Runner`](crate::runner::Runner) does both: it reads a clock, steps, hands each event to
//! your code and sleeps. `RealNanos` is the real clock as `Nanos` since the runner started, so
//! the state stays a `LoopState<Nanos>`, which saves as it is ([part
//! two](super::tutorial_testing), step 7). A sleeping runner draws at 60 Hz unless told
//! otherwise ([`Runner::with_render_rate`](crate::runner::Runner::with_render_rate)), so
//! renders fall between ticks and `alpha` moves smoothly from 0 to 1.
//!
//! ```rust
//! # #[cfg(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde"))]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # use std::collections::HashMap;
//! #
//! # use serde::{Deserialize, Serialize};
//! # use tickfold::glam::{Quat, Vec3};
//! # use tickfold::hecs_adapter::hecs::{Entity, World};
//! # use tickfold::hecs_adapter::{Interpolated, SavedTracker, Tracker};
//! # use tickfold::{ClockConfig, ClockId, Interpolate, LoopConfig, LoopState, Nanos, Period, Tick};
//! #
//! # /// Where a body is: blended between ticks.
//! # #[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
//! # struct Position(Vec3);
//! #
//! # /// Which way it faces: blended by shortest-arc slerp.
//! # #[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
//! # struct Rotation(Quat);
//! #
//! # /// Units per second. Not drawn, so not blended.
//! # #[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
//! # struct Velocity(Vec3);
//! #
//! # const HALF_BOX: f32 = 50.0;
//! # /// The clocks' ids, looked up by name once the loop exists. An id is the loop's handle for
//! # /// a clock, handed out in declaration order: never write one down as a number (a game that
//! # /// declares AI first gives AI the id `ClockId(0)`).
//! # #[derive(Copy, Clone, Debug)]
//! # struct Clocks {
//! #     physics: ClockId,
//! #     ai: ClockId,
//! # }
//! #
//! # impl Clocks {
//! #     fn of(state: &LoopState<Nanos>) -> Result<Clocks, tickfold::NoSuchClock> {
//! #         Ok(Clocks { physics: state.clock("physics")?.id(), ai: state.clock("ai")?.id() })
//! #     }
//! # }
//! #
//! # fn config() -> LoopConfig {
//! #     let physics = ClockConfig::new("physics", Period::from_hz(30).unwrap());
//! #     let ai = ClockConfig::new("ai", Period::from_hz(5).unwrap());
//! #     LoopConfig::from_clock(physics).clock(ai)
//! # }
//! #
//! # struct Game {
//! #     world: World,
//! #     trackers: (Interpolated<Position>, Interpolated<Rotation>),
//! #     clocks: Clocks,
//! # }
//! #
//! # impl Game {
//! #     fn new(bodies: usize, clocks: Clocks) -> Game {
//! #         let mut world = World::new();
//! #         let mut trackers = (Interpolated::new(), Interpolated::new());
//! #         for i in 0..bodies {
//! #             let x = i as f32 - bodies as f32 / 2.0;
//! #             let body = (
//! #                 Position(Vec3::new(x, 0.0, 0.0)),
//! #                 Rotation(Quat::IDENTITY),
//! #                 Velocity(Vec3::new(3.0, 1.0 + x, 0.0)),
//! #             );
//! #             trackers.spawn(&mut world, body); // adds the trackers' companions
//! #         }
//! #         Game { world, trackers, clocks }
//! #     }
//! #
//! #     fn update(&mut self, tick: &Tick) {
//! #         if tick.clock == self.clocks.ai {
//! #             // Steering, five times a second: a quarter turn for every velocity.
//! #             let turn = Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
//! #             for v in self.world.query_mut::<&mut Velocity>() {
//! #                 v.0 = turn * v.0;
//! #             }
//! #             return;
//! #         }
//! #         // Physics, 30 times a second. The capture rule first: before the step's last update.
//! #         self.trackers.before_update(&mut self.world, tick);
//! #         let dt = tick.dt_secs() as f32;
//! #         let mut wrapped = Vec::new();
//! #         let spin = Quat::from_rotation_z(dt);
//! #         for (e, p, r, v) in
//! #             self.world.query_mut::<(Entity, &mut Position, &mut Rotation, &Velocity)>()
//! #         {
//! #             p.0 += v.0 * dt;
//! #             r.0 = (r.0 * spin).normalize();
//! #             let outside = p.0.abs().cmpgt(Vec3::splat(HALF_BOX));
//! #             if outside.any() {
//! #                 p.0 = Vec3::select(outside, p.0 - p.0.signum() * 2.0 * HALF_BOX, p.0);
//! #                 wrapped.push(e);
//! #             }
//! #         }
//! #         for e in wrapped {
//! #             // Leaving the box is a jump, not a motion: draw it without blending.
//! #             self.trackers.0.teleport(&self.world, e).expect("a tracked body");
//! #         }
//! #     }
//! #
//! #     fn render(&self, alpha: f64, frame: &mut Frame) {
//! #         self.trackers.0.extract(&self.world, alpha, &mut frame.positions);
//! #         self.trackers.1.extract(&self.world, alpha, &mut frame.rotations);
//! #     }
//! # }
//! #
//! # /// What a renderer would upload: the blended instances, reused from frame to frame.
//! # #[derive(Default)]
//! # struct Frame {
//! #     positions: Vec<Position>,
//! #     rotations: Vec<Rotation>,
//! # }
//! use tickfold::Event;
//! use tickfold::runner::{RealNanos, Runner, SpinSleep};
//!
//! struct Session {
//!     game: Game,
//!     frame: Frame,
//!     renders: u32,
//! }
//!
//! let clock = RealNanos::new();
//! let state = LoopState::new(config(), Nanos(0))?;
//! let game = Game::new(100, Clocks::of(&state)?);
//! let mut runner = Runner::new(state, clock, clock.sleeper(SpinSleep::default()));
//! let mut session = Session { game, frame: Frame::default(), renders: 0 };
//! runner.run_with(&mut session, |s, event, _state, ctl| match event {
//!     Event::Update(tick) => s.game.update(tick),
//!     Event::Render(r) => {
//!         s.game.render(r.alpha, &mut s.frame); // a real game draws s.frame here
//!         s.renders += 1;
//!         if s.renders == 12 {
//!             ctl.exit(); // after a render: nothing is left pending
//!         }
//!     }
//!     _ => {} // a real game logs the drops a long frame reports
//! });
//! // Renders come at most at 60 Hz from 0, so the 12th comes 11/60 s in or later
//! // (later on a busy machine: the runner never draws ahead of the render rate).
//! assert!(runner.state().real_time().elapsed() >= Nanos(183_333_333));
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde")))]
//! # fn main() {}
//! ```
//!
//! In a window, the [`runner`](super::runner) chapter shows the same runner inside winit's event
//! loop (feature `winit`).
//!
//! # Next: test it, check it, save it
//!
//! [Part two](super::tutorial_testing) tests this game on a fake clock, checks that it is the same
//! however frames fall, and saves and resumes it exactly.
