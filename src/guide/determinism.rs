//! The determinism kit: test that your own simulation is the same however frames fall.
//!
//! The fold guarantees that the tick count never depends on how frames slice time. Whether *your*
//! simulation gives the same result however frames fall is a property of your code, and
//! `tickfold::testing` (feature `quickcheck`) lets your own test suite check it. Add to your
//! `Cargo.toml`:
//!
//! ```toml
//! [dev-dependencies]
//! tickfold = { version = "0.1", features = ["quickcheck"] }
//! ```
//!
//! The kit re-exports the quickcheck it is built with as `tickfold::testing::quickcheck` (use it, or
//! add `quickcheck = "1"` yourself). On `tickfold-core` alone, depend on `tickfold-testing` instead:
//! it is the same kit.
//!
//! **1. Write the update as a function of the state and the tick.** Use `tick.dt_secs()` (a
//! constant, never summed) and `tick.index`; do not read `tick.lag` or `tick.last_in_step` for
//! game logic, and keep nothing outside the state.
//!
//! **2. Check it over random frame schedules.** `Schedule` is quickcheck-`Arbitrary`: vsync at
//! 30–360 Hz (59.94 Hz included) with jitter, missed vsyncs, hitches, zero-length frames, stalls
//! of up to 5 s and time going backwards. `same_across_schedules` folds your update over each
//! schedule, brings the run to the same end time as a reference run with one frame per tick
//! (stepping again at that time until no deferred backlog is left) and requires the same ticks and
//! a bit-identical state (`PartialEq`, or `same_across_schedules_by` with a checksum).
//!
//! ```rust
//! # #[cfg(feature = "quickcheck")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::testing::quickcheck::{Gen, QuickCheck};
//! use tickfold::testing::{Failure, Schedule, Sim};
//! use tickfold::{LoopConfig, Tick, Period};
//!
//! #[derive(Clone, Debug, PartialEq)]
//! struct Ball { pos: [f64; 2], vel: [f64; 2] }
//!
//! fn update(b: &mut Ball, tick: &Tick) {
//!     let dt = tick.dt_secs(); // semi-implicit Euler: velocity first, then position
//!     b.vel[1] -= 9.81 * dt;
//!     b.pos[0] += b.vel[0] * dt;
//!     b.pos[1] += b.vel[1] * dt;
//! }
//!
//! fn sim() -> Sim<Ball, fn(&mut Ball, &Tick)> {
//!     // No max-frame-delta clamp: a stall must not discard ticks. The cap stays (backlogs run later).
//!     let config = LoopConfig::new(Period::from_hz(60).unwrap()).max_frame_delta(None);
//!     Sim::new(config, Ball { pos: [0.0, 2.0], vel: [3.0, 6.0] }, update as fn(&mut Ball, &Tick)).unwrap()
//! }
//!
//! fn prop(schedule: Schedule) -> Result<(), Failure> {
//!     sim().same_across_schedules([&schedule])
//! }
//! QuickCheck::new()
//!     .tests(200)
//!     .rng(Gen::new(40)) // up to 40 frames per schedule
//!     .quickcheck(prop as fn(Schedule) -> Result<(), Failure>);
//!
//! // Hand-written schedules work too: six refresh rates, and one with 0, 1 and 8 updates per step.
//! let rates: [(u64, u64); 6] = [(30, 1), (60_000, 1_001), (60, 1), (144, 1), (240, 1), (360, 1)];
//! let mut schedules: Vec<Schedule> =
//!     rates.iter().map(|&(n, d)| Schedule::vsync((n, d), 600)).collect::<Result<_, _>>()?;
//! schedules.push(Schedule::from_millis(&[6.9, 6.9, 33.3, 400.0, 0.0, -5.0, 16.7])?);
//! sim().same_across_schedules(&schedules)?;
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "quickcheck"))]
//! # fn main() {}
//! ```
//!
//! **3. Read a failure.** quickcheck shrinks a failing schedule (removing frames, merging
//! neighbours, which keeps the end time, and rounding to whole milliseconds) and prints the
//! kit's report. The report names the schedule, the step and the first differing field. The
//! field comes from `Sim::with_diff` if you set one, otherwise from the first differing line of
//! the two states' `{:#?}` output. Here an update applies a kick once per *frame* (`if
//! tick.last_in_step`) instead of once per tick, on 30 Hz frames:
//!
//! ```text
//! determinism check failed: schedule #0 gives a different state than the reference (one frame per tick)
//!   schedule: Schedule @ 30 Hz, 6 frames, ends at 200 ms: [33.333333, 33.333333, 33.333334, 33.333333, 33.333333, 33.333334] ms
//!   both runs end at now = 200 ms (settle steps at that `now` work off any backlog)
//!   first difference after update #1
//!   step: 1 of the schedule, 1 of the reference
//!   first differing field (schedule vs reference): `pos[0]`: 0.05 vs 0.058333333333333334
//!   note: the schedule's step 1: now 66.666666 ms, frame 33.333333 ms, 2 updates (ticks 1 to 2)
//!   reproduce: Schedule::from_nanos(vec![33333333, 33333333, 33333334, 33333333, 33333333, 33333334])?.with_refresh(Period::from_hz_ratio(30, 1)?)
//! ```
//!
//! Backwards time goes through the fold's rule (no time passes, `TimeBackwards` is reported,
//! nothing renders), and a report on such a schedule says so in a `note:` line. A report that
//! lists `DiscardedTime` means the max frame delta clamp dropped ticks, which it does by design.
//! Check with `max_frame_delta(None)`.
//!
//! **Why the loop must be integer-based.** `Driver` puts any loop through the same check. The
//! worked test `testing/tests/determinism.rs` drives the projectile with the `F32` accumulator of
//! the "Main Loops, Refresh Rates, and Determinism" article (after Glenn Fiedler's "Fix Your
//! Timestep") (`acc += frame; while acc >= dt { update; acc -= dt }`). About 40% of random schedules that
//! end just past a tick boundary fail, and quickcheck's shrinking gets them down to two frames:
//!
//! ```text
//! determinism check failed: schedule #0 gives a different number of updates than the reference (one frame per tick)
//!   schedule: Schedule @ 165 Hz, 2 frames, ends at 16.666667 ms: [6.060606, 10.606061 (hitch)] ms
//!   updates: the schedule made 0, the reference 1: the tick count depends on how frames slice time
//! ```
//!
//! tickfold's loop passes the same schedule.
//!
//! **An ECS world with its trackers.** `Sim` clones its state; a hecs `World` and its
//! `Interpolated<T>` trackers are not `Clone`. `WorldSim::new(config, make, update)` builds a fresh
//! world with `make` for every run, and `same_across_schedules(&schedules, fingerprint)` compares
//! the runs' ends by `fingerprint(&world, alpha)`, with `alpha` a render's at the common end time:
//! hash the gameplay components and what the trackers render there (`extract`, the ghosts). The
//! check then covers the adapter too: `testing/tests/hecs_world.rs` passes a game that follows the
//! capture rule over arbitrary schedules and catches one that captures once per frame, which a
//! fingerprint of the gameplay components alone lets through. Leave the trackers' capture counters
//! (`Stats`, `Epoch`, raw stamps) out of the fingerprint: they count steps, not ticks.
//!
//! **Your own frame loop.** `Sim` and `WorldSim` run your update through the kit's own walk over
//! the events. `FrameSim::new(config, init, frame)` runs *yours*: after each step it calls
//! `frame(&mut S, &mut LoopState, &Events)` with the step's events, as your main loop does after
//! `state.advance(now)`, and compares the runs' ends (`PartialEq`). It catches the loop that hands
//! an update the wrong moment. A plain `for event in events` loop that passes `state` to an update
//! hands it the end of the step; `state.hand_on(events, |event, state| ...)` hands each update the
//! state as of its tick (the loop the [tutorial](super::tutorial) teaches):
//!
//! ```rust
//! # #[cfg(feature = "quickcheck")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::testing::{Failure, FrameSim, Schedule};
//! use tickfold::{AsOfError, ClockConfig, Event, Events, LoopConfig, LoopState, Nanos, Period, Tick};
//!
//! /// Each AI tick logs the time it reads from the loop, in ms.
//! fn update(log: &mut Vec<u64>, tick: &Tick, state: &LoopState) {
//!     if state.clock(tick.clock).is_ok_and(|c| c.name() == "ai") {
//!         log.push(state.virtual_time().elapsed().0 / 1_000_000);
//!     }
//! }
//! fn frame(log: &mut Vec<u64>, state: &mut LoopState, events: &Events<Nanos>) -> Result<(), AsOfError> {
//!     state.hand_on(events, |event, state| {
//!         if let Event::Update(tick) = event {
//!             update(log, &tick, state);
//!         }
//!     })
//! }
//! fn plain(log: &mut Vec<u64>, state: &mut LoopState, events: &Events<Nanos>) -> Result<(), AsOfError> {
//!     for event in events {
//!         if let Event::Update(tick) = event {
//!             update(log, &tick, state); // the end of the step, whatever the tick
//!         }
//!     }
//!     Ok(())
//! }
//!
//! let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30)?))
//!     .clock(ClockConfig::new("ai", Period::from_hz(10)?))
//!     .max_frame_delta(None);
//! let schedules = [Schedule::from_millis(&[250.0])?, Schedule::from_millis(&[10.0; 25])?];
//! FrameSim::new(config.clone(), Vec::new(), frame)?.same_across_schedules(&schedules)?;
//! let caught = FrameSim::new(config, Vec::new(), plain)?.same_across_schedules(&schedules);
//! assert!(matches!(caught, Err(Failure::Schedule(_))));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "quickcheck"))]
//! # fn main() {}
//! ```
//!
//! The plain loop's report names the step after which the states part (the states are compared
//! at the ends of steps with as many updates), the first differing entry of the log, the AI's
//! tick 0 reading the 250 ms frame's end instead of its due time, and why:
//!
//! ```text
//! determinism check failed: schedule #0 gives a different state than the reference (one frame per tick)
//!   schedule: Schedule, 1 frame, ends at 250 ms: [250 (hitch)] ms
//!   both runs end at now = 250 ms (settle steps at that `now` work off any backlog)
//!   step: 0 of the schedule, 6 of the reference
//!   first differing field (schedule vs reference): `[0]`: 250 vs 100
//!   note: the states first differ at the end of the schedule's step 0, against the reference's step 6, both after 9 updates
//!   note: the kit ran the frame code after each step with the step's events: an update handed the state in a plain `for event in events` loop reads the step's end (the frame's time, each clock's latest tick of the frame), which depends on how frames fall; `state.hand_on(events, |event, state| ...)` hands each update the state as of its tick
//!   note: the schedule's step 0: now 250 ms, frame 250 ms, 9 updates (ticks 0 to 6)
//!   reproduce: Schedule::from_nanos(vec![250000000])?
//! ```
//!
//! Keep in the compared state what the ticks decide; a count of renders, or what the last render
//! drew, depends on the frames (the settle steps at the end time do not render).
//! `ReadingSim::new(config, init, update)` is the same check for an update alone, handed on by
//! the kit (`update(&mut S, &Tick, &LoopState)`).
//!
//! **A world that is not `Clone`, whose update reads the loop.** `FrameSim`, `ReadingSim` and
//! `Sim` clone their state; `WorldSim` builds a fresh world but hands the update only the tick.
//! `ThroughSave::new(world, save, load, fingerprint)` makes any world `Clone` through the save
//! and load your game already has (serde in any format, or plain values), and compares worlds by
//! `fingerprint(&world)`. It checks one round trip when made: a save that loses something the
//! fingerprint sees is a `KitError::RoundTrip`. The world it wraps is the world (`Deref`), so
//! the update runs unchanged:
//!
//! ```rust
//! # #[cfg(all(feature = "quickcheck", feature = "hecs"))]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::hash::Hasher;
//! use tickfold::hecs_adapter::{Interpolated, hecs::World};
//! use tickfold::testing::{Fnv1a, ReadingSim, Schedule, ThroughSave};
//! use tickfold::{LoopConfig, LoopState, Period, Tick};
//!
//! struct Game { world: World, pos: Interpolated<f32> } // neither is `Clone`
//!
//! impl Game {
//!     fn new(xs: &[f32]) -> Game {
//!         let (mut world, mut pos) = (World::new(), Interpolated::new());
//!         xs.iter().for_each(|&x| { pos.spawn(&mut world, (x,)); });
//!         Game { world, pos }
//!     }
//!     fn update(&mut self, tick: &Tick, state: &LoopState) {
//!         self.pos.before_update(&mut self.world, tick);
//!         let t = state.virtual_time().elapsed().0 as f32 * 1e-9; // as of the tick
//!         self.world.query_mut::<&mut f32>().into_iter().for_each(|x| *x += t);
//!     }
//!     fn save(&self) -> Result<Vec<f32>, String> { // a game's own save: JSON, bincode, ...
//!         Ok(self.world.query::<&f32>().iter().copied().collect())
//!     }
//!     fn fingerprint(&self) -> u64 { // the positions a render draws halfway between ticks
//!         let (mut h, mut drawn) = (Fnv1a::new(), Vec::new());
//!         self.pos.extract(&self.world, 0.5, &mut drawn);
//!         drawn.iter().for_each(|x| h.write_u32(x.to_bits()));
//!         h.finish()
//!     }
//! }
//!
//! let load = |xs: Vec<f32>| Ok::<_, String>(Game::new(&xs));
//! let game = ThroughSave::new(Game::new(&[0.0, 1.0]), Game::save, load, Game::fingerprint)?;
//! let config = LoopConfig::new(Period::from_hz(60)?).max_frame_delta(None);
//! let update = |g: &mut ThroughSave<Game>, tick: &Tick, state: &LoopState| g.update(tick, state);
//! let sim = ReadingSim::new(config, game, update)?;
//! sim.same_across_schedules(&[Schedule::vsync(144u64, 100)?, Schedule::from_millis(&[250.0])?])?;
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "quickcheck", feature = "hecs")))]
//! # fn main() {}
//! ```
//!
//! `testing/tests/frame_code.rs` does the same with a game that saves as JSON, through
//! `FrameSim` and its own frame loop.
//!
//! **4. Timestep independence.** The "Main Loops, Refresh Rates, and Determinism" article asks whether `Update(1/30)` equals `Update(1/60)` twice.
//! `Timestep` runs the same span at several tick rates and compares the fields you pick within
//! `approx` tolerances (`relative_eq`). It reports the largest deviation whether the check passes
//! or fails. The span must be a whole number of ticks at every rate (1 s for 30/60/120/240 Hz;
//! 1.001 s for 59.94 Hz).
//!
//! **5. Frame-rate independent smoothing.** The naive rule `current += (target - current) * rate`
//! depends on the frame count, even with `rate = c·dt`. `smooth(current, target, k, dt)` uses
//! `rate = 1 - 2^(-k·dt)` (`smoothing_rate`), so the distance halves every `1/k` seconds at any rate:
//!
//! ```rust
//! # #[cfg(feature = "quickcheck")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use core::time::Duration;
//! use tickfold::testing::{Failure, Timestep, Tolerance, smooth, smooth_naive};
//!
//! let check = Timestep::new(Duration::from_secs(1), &[30u64, 60, 120, 240])?
//!     .tolerance(Tolerance::relative(1e-9));
//! let observe = |x: &f64| vec![("x", *x)];
//! let naive = check.check(&0.0, |x, t| *x = smooth_naive(*x, 1.0, 10.0 * t.dt_secs()), observe);
//! assert!(matches!(naive, Err(Failure::Timestep(_)))); // largest deviation 3.1e-5, at 240 Hz
//! let report = check.check(&0.0, |x, t| *x = smooth(*x, 1.0, 10.0, t.dt_secs()), observe)?;
//! assert!(report.largest.unwrap().abs < 1e-12); // here all four rates agree to the bit
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "quickcheck"))]
//! # fn main() {}
//! ```
//!
//! **6. Replay.** `Recorder` steps the loop and your simulation, and records each step's `now` and
//! inputs. `Recording::replay` feeds them to a fresh loop. Both hash every step's `now`, the
//! inputs (their `Hash` impl), the loop's events and, optionally, a checksum of your state. The
//! hash is 64-bit FNV-1a (`Fnv1a`) over a fixed little-endian encoding, the same on every
//! platform. A replay with the same hash is exact, and `first_difference` names the first step
//! that is not. Inputs are handed to every update of their step. A step that runs no update
//! passes its inputs to nobody (the "heterogeneous iterations" of "Main Loops, Refresh Rates, and
//! Determinism"), so latch one-shot inputs in
//! your state.
//!
//! ```rust
//! # #[cfg(feature = "quickcheck")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::testing::Recorder;
//! use tickfold::{LoopConfig, Nanos, Tick, Period};
//!
//! fn update(x: &mut f64, tick: &Tick, push: &i8) { *x += f64::from(*push) * tick.dt_secs(); }
//!
//! let config = LoopConfig::new(Period::from_hz(60)?);
//! let mut rec = Recorder::new(config, Nanos(0), 0.0_f64)?.with_checksum(|x| x.to_bits());
//! for (frame, push) in [(1u64, 1i8), (2, -1), (3, 4), (4, 0), (6, 2)] {
//!     rec.step(Nanos::from_millis(16 * frame), push, update); // in a game: the clock and the pad
//! }
//! let recording = rec.finish();
//! let replayed = recording.replay(0.0, update)?;
//! assert_eq!((replayed.hash, replayed.first_difference), (recording.hash(), None));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "quickcheck"))]
//! # fn main() {}
//! ```
//!
//! **Cost.** The worked property test checks 10,000 random schedules of up to 40 frames in
//! about 1.5 s in a debug build (1.4 to 1.6 s in three runs here). Each case folds the schedule and the reference run. Folding one
//! hour of 144 Hz frames (518,400 steps, 60 Hz ticks, a one-line simulation) with the kit, trace
//! included, takes 47.5 ms (92 ns per step) in release (10.0 ms for the same hour driven by hand with
//! `advance_into` and no trace: the kit's trace costs the difference). Hashing the trace as well
//! brings it to 81.6 ms. Medians from one criterion run (`sample_size(10)`) on this project's
//! 2-core machine:
//!
//! ```sh
//! cargo bench -p tickfold-testing --bench fold_hour -- --warm-up-time 1 --measurement-time 2
//! ```
