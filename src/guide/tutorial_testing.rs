//! Tutorial, part two: test the game on a fake clock, check its determinism, save and resume it.
//!
//! This continues [part one](super::tutorial), which built the game: a hecs world of bodies moved
//! by a 30 Hz "physics" clock and steered by a 5 Hz "ai" clock, interpolated on the real clock.
//! Each example below starts from that game (its code is hidden here; part one's step 3 shows it
//! whole).
//!
//! # 5. A test on a fake clock
//!
//! [`ManualTime`](crate::runner::ManualTime) is a clock and a sleeper at once: sleeping jumps to
//! the deadline. Two seconds of the game run in a moment, exactly: 60 physics ticks, 10 AI ticks,
//! 121 renders (the first, then 60 a second), and a render's blend can be checked by hand.
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
//! use tickfold::runner::{ManualTime, Runner};
//!
//! struct Seen {
//!     game: Game,
//!     frame: Frame,
//!     around_update: (Vec3, Vec3), // the first body before and after the latest physics update
//!     renders: u32,
//!     eighth: Option<(f64, (Vec3, Vec3), Vec3)>, // render 8: alpha, around, drawn
//! }
//!
//! let clock = ManualTime::new();
//! let mut runner = Runner::new(LoopState::new(config(), Nanos(0))?, clock.clone(), clock);
//! let game = Game::new(100, Clocks::of(runner.state())?);
//! let first = game.world.iter().next().map(|e| e.entity()).ok_or("no body")?;
//! let at = |g: &Game| g.world.get::<&Position>(first).map(|p| p.0);
//! let mut seen = Seen {
//!     game, frame: Frame::default(), around_update: (Vec3::NAN, Vec3::NAN), renders: 0, eighth: None,
//! };
//! runner.run_with(&mut seen, |s, event, state, ctl| match event {
//!     Event::Update(tick) => {
//!         let before = at(&s.game).expect("the first body");
//!         s.game.update(tick);
//!         if tick.clock == s.game.clocks.physics {
//!             s.around_update = (before, at(&s.game).expect("the first body"));
//!         }
//!     }
//!     Event::Render(r) => {
//!         s.renders += 1;
//!         s.game.render(r.alpha, &mut s.frame);
//!         if s.renders == 8 {
//!             s.eighth = Some((r.alpha, s.around_update, s.frame.positions[0].0));
//!         }
//!         if state.real_time().elapsed() >= Nanos::from_secs(2) {
//!             ctl.exit(); // the render at 2 s, just after tick 59
//!         }
//!     }
//!     _ => {}
//! });
//! let ticks = |name| runner.state().clock(name).map(|clock| clock.stats().ticks_run);
//! assert_eq!((ticks("physics")?, ticks("ai")?, seen.renders), (60, 10, 121));
//! // Render 8 is at 116.7 ms, halfway between physics tick 2 (100 ms) and tick 3 (133.3 ms).
//! let (alpha, (previous, current), drawn) = seen.eighth.ok_or("no 8th render")?;
//! assert!((alpha - 0.5).abs() < 1e-6);
//! let by_hand = previous + (current - previous) * alpha as f32;
//! assert_eq!(drawn.to_array().map(f32::to_bits), by_hand.to_array().map(f32::to_bits));
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde")))]
//! # fn main() {}
//! ```
//!
//! (The first body spawned is the first in the buffer: one archetype, spawn order.)
//!
//! # 6. Determinism: the same game however frames fall
//!
//! The loop guarantees the tick count never depends on how frames slice time. Whether *your game*
//! ends the same is a property of your code, and the determinism kit (feature `quickcheck`)
//! checks it: [`WorldSim`](crate::testing::WorldSim) builds a fresh world for every run, folds
//! it over each frame [`Schedule`](crate::testing::Schedule) (vsync at 30 to 360 Hz with jitter,
//! hitches, stalls, zero-length frames, time going backwards; quickcheck makes them) and compares
//! a fingerprint of the end with a run of one frame per tick. Put the rendered values in the
//! fingerprint and the check covers the trackers' capture rule too.
//!
//! One setting belongs to the checked game: no max frame delta (it drops the time of a long frame
//! by design, so such a run *should* differ). The per-step caps stay at their defaults (8 per
//! clock): a step runs a prefix of the loop's one order of ticks (by due time, ties to the clock
//! declared first), so when a cap defers a physics tick, every later tick of every clock waits
//! with it, and the AI steers at the same physics tick however frames fall. The property below
//! passes with the default caps on both clocks. See [`falling_behind`](super::falling_behind).
//!
//! ```rust
//! # #[cfg(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde", feature = "quickcheck"))]
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
//! use std::hash::Hasher;
//! use tickfold::testing::quickcheck::QuickCheck;
//! use tickfold::testing::{Failure, Fnv1a, Schedule, WorldSim};
//!
//! fn checked_config() -> LoopConfig {
//!     // The default caps (8 updates per step on each clock); only the max frame delta is off.
//!     let physics = ClockConfig::new("physics", Period::from_hz(30).unwrap());
//!     let ai = ClockConfig::new("ai", Period::from_hz(5).unwrap());
//!     LoopConfig::from_clock(physics).clock(ai).max_frame_delta(None)
//! }
//!
//! /// The gameplay state and what a render at `alpha` draws, by their bits.
//! fn fingerprint(game: &Game, alpha: f64) -> u64 {
//!     let mut h = Fnv1a::new();
//!     let mut frame = Frame::default();
//!     game.render(alpha, &mut frame);
//!     let drawn = frame.positions.iter().map(|p| p.0.to_array());
//!     let velocities = game.world.query::<&Velocity>().iter().map(|v| v.0.to_array()).collect::<Vec<_>>();
//!     for x in drawn.chain(velocities).flatten() {
//!         h.write_u32(x.to_bits());
//!     }
//!     for r in &frame.rotations {
//!         r.0.to_array().iter().for_each(|x| h.write_u32(x.to_bits()));
//!     }
//!     h.finish()
//! }
//!
//! fn property(schedule: Schedule) -> Result<(), Failure> {
//!     // The ids the loop of this configuration gives its clocks, looked up by name.
//!     let state = LoopState::new(checked_config(), Nanos(0)).expect("a valid configuration");
//!     let clocks = Clocks::of(&state).expect("physics and AI are declared");
//!     let sim = WorldSim::new(checked_config(), move || Game::new(20, clocks), Game::update)
//!         .expect("a valid configuration");
//!     sim.same_across_schedules([&schedule], fingerprint)
//! }
//! QuickCheck::new().tests(50).quickcheck(property as fn(Schedule) -> Result<(), Failure>);
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde", feature = "quickcheck")))]
//! # fn main() {}
//! ```
//!
//! A failure prints the shrunk schedule, the first difference and a line to reproduce it. The
//! [`determinism`](super::determinism) chapter shows how to read one, and the kit's other checks
//! (timestep independence, frame-rate independent smoothing, record and replay).
//!
//! `WorldSim` runs `Game::update` through the kit's own walk over the events. To check the walk
//! *you* wrote (step 3's `hand_on` loop, or one that hands an update `state`), give it to
//! [`FrameSim`](crate::testing::FrameSim): after each step it calls your
//! `frame(&mut game, &mut state, &events)`, and a plain `for event in &events` loop that passes
//! `&state` to an update (which then reads the end of the frame, not its tick) fails the check.
//! `FrameSim` clones the game for each run; a hecs world is not `Clone`, and
//! [`ThroughSave`](crate::testing::ThroughSave) clones it through the save and load of step 7
//! and compares games by a fingerprint, here step 6's at a fixed alpha:
//!
//! ```text
//! let clock = LoopState::new(checked_config(), Nanos(0))?; // step 7's save holds a loop state
//! let game = ThroughSave::new(
//!     Game::new(20),
//!     move |game| save(game, &clock),
//!     |json| load(&json).map(|(game, _)| game),
//!     |game| fingerprint(game, 0.5),
//! )?;
//! ```
//!
//! The [`determinism`](super::determinism) chapter shows both at work.
//!
//! # 7. Save and resume
//!
//! With the feature `serde` the whole `LoopState` saves: every clock's tick number, grid and
//! counters, the render slot, pauses and scales. Save it with your components and the trackers'
//! state (`SavedTracker`, so the first render after the load blends from the right previous
//! tick), and the loaded game goes on bit for bit as the run that never stopped. hecs gives
//! loaded entities new handles: the save keeps the old ones, and the load maps them.
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
//! #[derive(Serialize, Deserialize)]
//! struct SaveFile {
//!     clock: LoopState<Nanos>,
//!     bodies: Vec<(u64, Position, Rotation, Velocity)>,
//!     positions: SavedTracker<Position>,
//!     rotations: SavedTracker<Rotation>,
//! }
//!
//! fn save(game: &Game, state: &LoopState<Nanos>) -> Result<String, serde_json::Error> {
//!     let mut query = game.world.query::<(Entity, &Position, &Rotation, &Velocity)>();
//!     let bodies = query.iter().map(|(e, p, r, v)| (e.to_bits().get(), *p, *r, *v)).collect();
//!     serde_json::to_string(&SaveFile {
//!         clock: state.clone(),
//!         bodies,
//!         positions: game.trackers.0.save(&game.world),
//!         rotations: game.trackers.1.save(&game.world),
//!     })
//! }
//!
//! fn load(json: &str) -> Result<(Game, LoopState<Nanos>), Box<dyn std::error::Error>> {
//!     let file: SaveFile = serde_json::from_str(json)?;
//!     let mut world = World::new();
//!     let mut new_handle = HashMap::new(); // hecs gives loaded entities new handles
//!     for (old, p, r, v) in file.bodies {
//!         let old = Entity::from_bits(old).ok_or("not a hecs handle")?;
//!         new_handle.insert(old, world.spawn((p, r, v)));
//!     }
//!     let map = |old: Entity| new_handle.get(&old).copied();
//!     let positions = Interpolated::load(file.positions, &mut world, map)?;
//!     let rotations = Interpolated::load(file.rotations, &mut world, map)?;
//!     let clocks = Clocks::of(&file.clock)?;
//!     Ok((Game { world, trackers: (positions, rotations), clocks }, file.clock))
//! }
//!
//! // Every event and every rendered value of a run over 60 frames, saved and loaded (JSON,
//! // a fresh world and loop) after frame `save_after` if given.
//! fn run(save_after: Option<u64>) -> Result<Vec<String>, Box<dyn std::error::Error>> {
//!     let mut state = LoopState::new(config(), Nanos(0))?;
//!     let mut game = Game::new(100, Clocks::of(&state)?);
//!     let (mut frame, mut seen) = (Frame::default(), Vec::new());
//!     for k in 1..=60u64 {
//!         let events = state.advance(Nanos::from_millis(17 * k));
//!         state.hand_on(&events, |event, _state| {
//!             if let tickfold::Event::Update(tick) = event {
//!                 game.update(&tick);
//!             }
//!             if let tickfold::Event::Render(r) = event {
//!                 game.render(r.alpha, &mut frame);
//!                 let bits = frame.positions.iter().flat_map(|p| p.0.to_array().map(f32::to_bits));
//!                 seen.push(format!("{:?}", bits.collect::<Vec<_>>()));
//!             }
//!             seen.push(format!("{event:?}"));
//!         })?;
//!         if save_after == Some(k) {
//!             let json = save(&game, &state)?;
//!             drop(game); // as if the process ended here
//!             (game, state) = load(&json)?;
//!         }
//!     }
//!     Ok(seen)
//! }
//! // Saved at 442 ms, just after tick 12 ran; the next frame (459 ms) runs no tick, so its
//! // render blends from the previous values the save kept. Resumed, every event and every
//! // drawn value is the uninterrupted run's, to the bit.
//! assert_eq!(run(Some(26))?, run(None)?);
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde")))]
//! # fn main() {}
//! ```
//!
//! In a real game the state runs on `RealNanos`, and a new process resumes the loaded state at
//! its saved time, as if no time had passed between the save and the load:
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
//! # #[derive(Serialize, Deserialize)]
//! # struct SaveFile {
//! #     clock: LoopState<Nanos>,
//! #     bodies: Vec<(u64, Position, Rotation, Velocity)>,
//! #     positions: SavedTracker<Position>,
//! #     rotations: SavedTracker<Rotation>,
//! # }
//! #
//! # fn save(game: &Game, state: &LoopState<Nanos>) -> Result<String, serde_json::Error> {
//! #     let mut query = game.world.query::<(Entity, &Position, &Rotation, &Velocity)>();
//! #     let bodies = query.iter().map(|(e, p, r, v)| (e.to_bits().get(), *p, *r, *v)).collect();
//! #     serde_json::to_string(&SaveFile {
//! #         clock: state.clone(),
//! #         bodies,
//! #         positions: game.trackers.0.save(&game.world),
//! #         rotations: game.trackers.1.save(&game.world),
//! #     })
//! # }
//! #
//! # fn load(json: &str) -> Result<(Game, LoopState<Nanos>), Box<dyn std::error::Error>> {
//! #     let file: SaveFile = serde_json::from_str(json)?;
//! #     let mut world = World::new();
//! #     let mut new_handle = HashMap::new(); // hecs gives loaded entities new handles
//! #     for (old, p, r, v) in file.bodies {
//! #         let old = Entity::from_bits(old).ok_or("not a hecs handle")?;
//! #         new_handle.insert(old, world.spawn((p, r, v)));
//! #     }
//! #     let map = |old: Entity| new_handle.get(&old).copied();
//! #     let positions = Interpolated::load(file.positions, &mut world, map)?;
//! #     let rotations = Interpolated::load(file.rotations, &mut world, map)?;
//! #     let clocks = Clocks::of(&file.clock)?;
//! #     Ok((Game { world, trackers: (positions, rotations), clocks }, file.clock))
//! # }
//! use tickfold::runner::{RealNanos, Runner, SpinSleep};
//! # let fresh = LoopState::new(config(), Nanos(0))?;
//! # let json = save(&Game::new(10, Clocks::of(&fresh)?), &fresh)?;
//!
//! let (mut game, state) = load(&json)?; // the file the previous process wrote
//! let clock = RealNanos::resuming(&state); // reads the state's latest time at once
//! let mut runner = Runner::new(state, clock, clock.sleeper(SpinSleep::default()));
//! let mut frame = Frame::default();
//! runner.run(
//!     |event, _state| match event {
//!         tickfold::Event::Update(tick) => game.update(tick),
//!         tickfold::Event::Render(r) => game.render(r.alpha, &mut frame),
//!         _ => {}
//!     },
//!     |state| state.clock("physics").is_ok_and(|physics| physics.stats().ticks_run < 3),
//! );
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "hecs", feature = "glam", feature = "derive", feature = "serde")))]
//! # fn main() {}
//! ```
//!
//! A game on `Instant`s saves with `rebase` and loads with `resume_at`; the [`saves`](super::saves)
//! chapter has both, and what a load checks.
//!
//! # Where next
//!
//! - The policies when the loop falls behind, and what they report: [`falling_behind`](super::falling_behind).
//! - Pause, time scale, rate changes while running: [`controls`](super::controls).
//! - Input given to exactly one tick: [`input`](super::input).
//! - The same game on Bevy, `game-loop` or a hand-written loop: [`coming_from`](super::coming_from).
