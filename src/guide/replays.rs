//! Replays with seek: watch a recorded run at 0.25× to 8×, pause it, step it one tick at a
//! time, and jump to any tick, forwards or back (features `quickcheck` for the kit, `serde` for
//! replay files).
//!
//! A recording is the `now` of every step and the inputs gathered for it (the determinism
//! kit's `Recorder`, see [`determinism`](super::determinism)): folding them again through the
//! same configuration and the same update gives the same run, bit for bit. That is enough to
//! replay from the start, but a replay you watch needs more: a seek to the middle of a
//! ten-minute recording must not fold five minutes of ticks. So the recorder also keeps
//! **keyframes**, periodic saves of the loop state and of your world, and a seek loads the
//! latest keyframe before the tick and folds forward from there: its cost is bounded by the
//! save interval, not by the recording's length (the idea of a video's keyframes, and of the
//! periodic checkpoints Unreal Engine's replay system scrubs from).
//!
//! **1. Say how your world is saved.** `Rewind` gives the kit a save and a load for your
//! world, so a world that is not `Clone` (a hecs `World` with its trackers) works through its
//! own save: the game of the [tutorial](super::tutorial) saves its components and both
//! trackers' `SavedTracker`s, the same data as its save game (`examples/game/world.rs`).
//!
//! **2. Record with saves.** `Recorder::with_saves(every)` saves a keyframe before the first
//! step, after the first step that reaches every `every`-th tick of the alpha clock, and at
//! `finish`. Call it before the first step.
//!
//! **3. Play.** `Player::new(recording)` stands at the start. `seek(tick, update)` lands right
//! after tick `tick` of the alpha clock, exactly where the recorded run stood after handling
//! it, and says where with a `Position`: the tick number, the virtual time as of that tick
//! (what `LoopState::as_of` reads there), the recorded steps folded. A tick the recorded run
//! dropped (a stall past the max frame delta) lands on the first tick after it that ran; a
//! tick after the last one is `SeekError::PastEnd` and the player does not move. `rewind()`
//! goes back before the first tick.
//!
//! **4. Speed, pause and step come from your loop.** The player plays one recorded tick per
//! update of the loop that drives it (`play(&events, update)`, or `next_tick(update)` per
//! update): give that loop the recording's rate (`player.rate()`) and its own run-time
//! controls become the replay's, with nothing new to learn. `set_scale(TimeScale::ratio(1, 4)?)`
//! plays at 0.25× and `TimeScale::ratio(8, 1)?` at 8× (see [`controls`](super::controls)),
//! `pause()` pauses, and `step_ticks(1)` plays exactly one tick (see
//! [`stepping`](super::stepping)). Your loop's renders blend with its own alpha as usual. The
//! recorded updates are handed the ticks as they ran in the recording (index, `t`, `dt`, lag,
//! `last_in_step`) with the inputs recorded for their step, whatever loop drives the player.
//! So an interpolation tracker captures as it did in the recorded run (before each recorded
//! step's last update): where one recorded step ran several ticks, a render between them
//! blends from that step's capture, across more than one tick. The world is exact either way;
//! only such in-between renders, which the recorded run never drew, can look coarser.
//!
//! ```rust
//! # #[cfg(feature = "quickcheck")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::num::NonZeroU64;
//! use tickfold::testing::{Player, Recorder, Rewind};
//! use tickfold::{LoopConfig, LoopState, Nanos, Period, Tick, TimeScale};
//!
//! /// A world that is not `Clone`: it comes back through its own save.
//! struct Cells(Box<[u64]>);
//!
//! impl Rewind for Cells {
//!     type Save = Vec<u64>;
//!     type Error = &'static str;
//!     fn save(&self) -> Vec<u64> {
//!         self.0.to_vec()
//!     }
//!     fn load(save: &Vec<u64>) -> Result<Cells, &'static str> {
//!         if save.is_empty() { Err("no cells") } else { Ok(Cells(save.clone().into())) }
//!     }
//! }
//!
//! fn update(c: &mut Cells, tick: &Tick, input: &u8) {
//!     let i = tick.index as usize % c.0.len();
//!     c.0[i] = c.0[i].wrapping_mul(31) + u64::from(*input);
//! }
//!
//! // Record a minute at 60 Hz, a keyframe every 5 s (300 ticks).
//! let config = LoopConfig::new(Period::from_hz(60)?);
//! let start = Cells(vec![1; 8].into());
//! let mut rec = Recorder::new(config, Nanos(0), start)?.with_saves(NonZeroU64::new(300).unwrap());
//! for frame in 1..=3_600u64 {
//!     rec.step(Nanos::from_millis(frame * 50 / 3), (frame % 5) as u8, update);
//! }
//! let mut player = Player::new(rec.finish())?;
//!
//! // Jump to the middle, then back: each folds at most one save interval.
//! assert_eq!(player.seek(1_800, update)?.tick, Some(1_800));
//! let at = player.seek(420, update)?;
//! assert_eq!((at.tick, at.virtual_time), (Some(420), Nanos(7_016_666_667))); // 421/60 s
//! assert!(player.seek(5_000, update).is_err()); // past the end: the player stays at 420
//!
//! // Watch from there at 0.25x through a viewer loop, then pause and step one tick.
//! let mut viewer = LoopState::new(LoopConfig::new(player.rate()), Nanos(0))?;
//! viewer.virtual_time_mut().set_scale(TimeScale::ratio(1, 4)?);
//! let mut now = Nanos(0);
//! for _ in 0..60 {
//!     now = Nanos(now.0 + 16_666_667); // a 60 Hz display
//!     player.play(&viewer.advance(now), update);
//! }
//! assert_eq!(player.position().tick, Some(435)); // a quarter of 60 ticks
//! viewer.virtual_time_mut().pause();
//! viewer.virtual_time_mut().step_ticks(1);
//! let played = player.play(&viewer.advance(Nanos(now.0 + 16_666_667)), update);
//! assert_eq!((played.ticks, played.at.tick), (1, Some(436)));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "quickcheck"))]
//! # fn main() {}
//! ```
//!
//! **5. Replay files.** With `serde` a recording, keyframes included, is a replay file. It is
//! versioned and checked on load like a save game: a format tag, a version, the recording and a
//! digest of it (64-bit FNV-1a over its serde data, so the same in every format). A file that
//! does not parse (a truncated one, a save game) is the format's own error; one that parses but
//! is another tool's, another version's, or was edited (an input, a `now`, a world in a
//! keyframe, a step hash) is refused with a `ReplayError`, and a keyframe's loop state is
//! checked as a save is (`ReplayError::Keyframe`, with the `StateError`). Deserialize a
//! `SavedRecording` and call `Recording::try_from` for the typed error; deserializing the
//! `Recording` directly gives the same message through the format's error. A file never
//! becomes a wrong world.
//!
//! ```rust
//! # #[cfg(all(feature = "quickcheck", feature = "serde"))]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::num::NonZeroU64;
//! use tickfold::testing::{Player, Recorder, Recording, ReplayError, Rewind, SavedRecording};
//! use tickfold::{LoopConfig, Nanos, Period, Tick};
//!
//! #[derive(Clone, Debug, PartialEq)]
//! struct Score(i64);
//! impl Rewind for Score {
//!     type Save = i64;
//!     type Error = std::convert::Infallible;
//!     fn save(&self) -> i64 { self.0 }
//!     fn load(save: &i64) -> Result<Score, Self::Error> { Ok(Score(*save)) }
//! }
//! fn update(s: &mut Score, _: &Tick, points: &i64) { s.0 += points; }
//!
//! let config = LoopConfig::new(Period::from_hz(60)?);
//! let mut rec = Recorder::new(config, Nanos(0), Score(0))?.with_saves(NonZeroU64::new(60).unwrap());
//! for frame in 1..=300u64 {
//!     rec.step(Nanos::from_millis(frame * 50 / 3), 2, update);
//! }
//! let file = serde_json::to_string(&rec.finish())?;
//!
//! // Loaded, checked, played.
//! let recording: Recording<Score, i64, i64> = serde_json::from_str(&file)?;
//! let mut player = Player::new(recording)?;
//! player.seek(99, update)?;
//! assert_eq!(player.world(), &Score(200));
//!
//! // One input edited: refused, with a typed error on the typed route.
//! let mut edited: serde_json::Value = serde_json::from_str(&file)?;
//! edited["steps"][40]["inputs"] = 1_000.into();
//! let saved: SavedRecording<i64, i64> = serde_json::from_value(edited)?;
//! let refused = Recording::<Score, i64, i64>::try_from(saved).unwrap_err();
//! assert!(matches!(refused, ReplayError::Digest { .. }));
//! // Cut short: it does not parse.
//! let cut = serde_json::from_str::<Recording<Score, i64, i64>>(&file[..file.len() / 2]);
//! assert!(cut.unwrap_err().is_eof());
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "quickcheck", feature = "serde")))]
//! # fn main() {}
//! ```
//!
//! **The game, end to end.** `examples/replay.rs` records the tutorial's hecs game (10,000
//! bodies and their interpolation trackers, a gust of wind as each frame's input) for ten
//! minutes at 60 Hz with a keyframe every 10 s, writes and loads the replay file, seeks to the
//! middle, back, forward and to the end, plays from the middle at 0.25×, 1× and 8×, paused and
//! one tick at a time, and checks every state it lands on against the recorded run's (every
//! component's bits and a render at alpha 0.5). It then times a seek to the middle against
//! replaying from the start; the figures are in [`performance`](super::performance) and the
//! repository's `BENCHMARKS.md`.
//!
//! ```text
//! cargo run --release --example replay --features hecs,glam,serde,derive,quickcheck
//! ```
//!
//! The player lives in the determinism kit, beside the recording format it plays (one home
//! for the format, its hash and its checks). Memory is the cost of seeking: one keyframe per
//! interval (the game's world is about 4.3 MB of JSON per keyframe at 10,000 bodies), so choose
//! the interval from the seek time you want: a seek loads one keyframe and folds at most one
//! interval's ticks.
