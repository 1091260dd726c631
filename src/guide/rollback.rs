//! Rollback netcode over ggrs: the `tickfold-ggrs` adapter.
//!
//! The `tickfold-ggrs` crate (`net-adapter/`, feature `ggrs`, re-exported as
//! `tickfold::ggrs_adapter`; it needs Rust 1.87, as ggrs 0.13 does) integrates
//! [ggrs](https://github.com/gschup/ggrs), the Rust reimagining of GGPO. It stays a thin glue:
//!
//! - **Frames come from one clock.** The frame clock is the world's `Columns::clock` (the loop's
//!   main clock unless the world names another). For each `Event::Update` of that clock,
//!   `Rollback::update` adds the local input, calls ggrs's `advance_frame` and answers every
//!   request in order; a tick of another clock is `NetError::NotFrameClock` and touches nothing.
//! - **Saves and loads through the snapshot ring.** `SaveGameState` saves into a `Ring` of
//!   `max_prediction + 1` frames (only the chunks written since that slot was saved, no allocation
//!   once warm); ggrs keeps only a 16-byte token and the ring's XXH3 checksum as its `u128`.
//!   `LoadGameState` restores only the chunks written since. A composite state (ships, bullets,
//!   the RNG) is a tuple of `Tracked`/`DoubleBuffer` parts, or a struct implementing
//!   `RollbackState` by delegating to one, with one checksum over all parts.
//! - **Interpolation survives rollbacks, by the core's capture rule.** The adapter calls
//!   `Columns::before_update` with the tick just before the `AdvanceFrame` of its new frame,
//!   after any re-simulation: once per fold update, capturing only before the step's last update
//!   of the frame clock, never before a re-simulated frame or a refused tick. So the render
//!   blends two corrected states; `Advance::resimulated` says how deep the step rolled back, for
//!   games that smooth the jump from the mispredicted frame drawn before.
//! - **Refused ticks go back to the loop.** At its prediction window ggrs 0.13 returns no
//!   `AdvanceFrame` (not an error, despite its doc comment): the tick did not happen. The adapter
//!   gives it back with `LoopState::refuse`, with the step's later ticks of the frame clock
//!   (refused without asking the session), and they run again at the next step with the same
//!   numbers. `Refusal::Retry { max_owed }` keeps up to `max_owed` ticks due; past that, and
//!   after every refusal with `Refusal::Drop`, the loop drops the frame clock's backlog with
//!   `reset_grid` (reported as `DroppedTicks`). The loop's accounting identity holds for every
//!   clock, `ClockStats::ticks_refused` counts the refusals, and `RollbackStats` keeps
//!   `ticks == frames + refused + lost`, where `frames` is ggrs's current frame and the frame
//!   clock's `ticks_run`.
//! - **Time sync through the fold.** `TimeSync` sets the loop's exact time scale to 10/11 (each
//!   tick 11/10 as long, as `bevy_ggrs` does) at 2 frames ahead or more and back to 1 at 0 or less,
//!   a dead zone instead of toggling; a `WaitRecommendation` slows down at once. No sleeping.
//! - **Desyncs and bad input are values.** Desync detection on: `NetEvent::Desync` carries the
//!   frame and both checksums. A load of a frame the ring lost is `NetError::FrameNotInRing`; a
//!   sync-test mismatch is `NetError::Mismatch` with the first frame; disconnects are
//!   `NetEvent::Disconnected` while the survivor runs on; malformed datagrams and OS errors are
//!   counted in `SocketStats`.
//! - **Sockets, for tests and examples** (`tickfold::ggrs_adapter::test_support`, feature
//!   `ggrs-test-support`). `LoopbackSocket` binds `127.0.0.1:0` (ggrs's `UdpNonBlockingSocket` binds every
//!   interface on a fixed port and cannot report its address); `MemoryNet` is an in-memory
//!   network on a simulated clock; both take a seeded `LinkConfig` (latency, jitter, so
//!   reordering, loss). ggrs itself reads the wall clock (handshake retries, keep-alives, the
//!   disconnect timer, round trips), so simulated time proves checksum equality and a short
//!   real-time loopback run proves the frame advantage settles.
//!
//! ```text
//! cargo run --release --example rollback --features ggrs-test-support                 # two peers over loopback UDP, 5 s
//! cargo run --release --example rollback --features ggrs-test-support -- --sync-test  # 10,000 frames, check distance 7
//! ```
//!
//! One run of the two-peer example (40 ms ± 15 ms, 3 % loss, peer 1 starting 100 ms late, a
//! 10 Hz clock beside each 60 Hz frame clock): 293 frames each, 48 ticks of the 10 Hz clock each
//! (none of them frames), 118 frame-clock ticks refused back to peer 0's loop while it waited for
//! peer 1 (67 refusals by ggrs), 18 rollbacks each, 45 and 23 frames re-simulated (mean depth 2.5
//! and 1.3, max 7 and 3), frames ahead per second `[0, 4, 0, -1, 0]` and `[0, -4, 0, 1, 0]`, each
//! peer's counts equal to its loop's, 293 confirmed checksums compared, all equal, no desync.
//! The sync test: 10,000 frames, 69,944 re-simulated, 0 mismatches, 82 ms.
//!
//! # Spectators and late joiners
//!
//! A spectator watches without playing: ggrs's `SpectatorSession` receives the confirmed
//! inputs a host forwards, buffers about a second of them (60 frames) and reports
//! `frames_behind_host()`. The host registers it before its session starts
//! (`add_player(PlayerType::Spectator(addr), handle)`, a handle past the players'; the host's
//! session runs only once the spectator answered too), and the spectator starts
//! `start_spectator_session(host, socket)`.
//!
//! - **The same adapter, the same game code.** A spectator is driven by `Rollback::update`
//!   like a player, with no local inputs and the game's unchanged simulation: one frame per
//!   tick of the frame clock, the capture rule, so renders blend as a player's do, and the
//!   ring. ggrs asks a follower for no saves (it never rolls back), so the adapter saves each
//!   frame itself before simulating it (`Session::requests_saves`): `drain_confirmed` hands out
//!   the same (frame, checksum) pairs as the players', and comparing them checks the
//!   spectator's world at every confirmed frame.
//! - **Waiting for the host is a refusal.** A tick whose inputs have not arrived is refused
//!   back to the loop. With `Refusal::Drop` the frame clock's grid slips behind the arrivals
//!   until they come before the ticks: a playout delay that the jitter sets, after which each
//!   step runs one frame (the test support's follower does this; with `Refusal::Retry` the
//!   backlog runs in bursts as inputs arrive).
//! - **Catching up is the loop's business.** ggrs catches a spectator up by returning
//!   `catchup_speed` frames from one call once it is more than `max_frames_behind` behind: a
//!   second loop inside a tick. `CatchUp` keeps those two settings (checked as ggrs checks them)
//!   and speeds the loop up instead: past `max_frames_behind` it sets the loop's exact time
//!   scale to `catchup_speed`, back to 1 at half of it. The extra ticks are ordinary ticks: the
//!   per-step cap runs at most 8 and reports the rest as `Deferred`, time past the max frame
//!   delta is given up as `DiscardedTime`. Feed it `Rollback::frames_behind(&session)` before
//!   each step and leave ggrs's own `with_catchup_speed` at 1; a session that hands out
//!   several frames anyway has the extra ones kept in the adapter for the next ticks (counted
//!   in `frames_behind`), never run in one tick.
//! - **Too far behind is reported, not frozen.** Past ggrs's 60 buffered frames the host's
//!   inputs are gone and the spectator's session can never advance again. The adapter returns
//!   `NetError::SpectatorTooFarBehind` once, stops asking that session, and refuses the frame
//!   clock's ticks as the `Refusal` says, so the loop reports them. The spectator follows
//!   again from a handover, as a late joiner does.
//!
//! **Late joiners.** ggrs has no mid-game join: a spectator session starts at frame 0, and a
//! host registers its spectators before the match. The adapter gives one with its own parts.
//! The host's `Rollback::handover(&state)` makes a `Handover`: its loop state (on a `Nanos`
//! axis), the latest confirmed frame its ring holds (a state no rollback will change, as
//! `FrameValues`, with its checksum), and the inputs the feed handed out since; from then on
//! `Rollback::drain_feed` hands out every confirmed frame's inputs as `FrameInputs`. Both are
//! serde values, sent on the game's own reliable channel. The newcomer's `Rollback::join`
//! loads the frame into its world, checks the checksum, and returns a `Feed`: the adapter's
//! own follower session, which hands out one pushed frame per tick, refuses a tick it has no
//! inputs for, reports a gap as `NetError::FeedGap`, and reports what it holds as frames
//! behind, so `CatchUp` brings the newcomer up to the host. It ends identical to a spectator
//! that watched from the start (`net-adapter/tests/spectate.rs` compares their checksums at
//! every frame both saw). Here the host is a sync test and the feed is a `Vec`:
//!
//! ```rust
//! # #[cfg(feature = "ggrs")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::ggrs_adapter::ggrs::{Frame, InputStatus, SessionBuilder};
//! use tickfold::ggrs_adapter::{CatchUp, GgrsConfig, Handover, Refusal, Rollback};
//! use tickfold::snapshot::DoubleBuffer;
//! use tickfold::{LoopConfig, LoopState, Nanos, Period};
//!
//! type Config = GgrsConfig<u8>;
//! fn step(w: &mut DoubleBuffer<i64>, inputs: &[(u8, InputStatus)], _: Frame) {
//!     for (p, (input, _)) in inputs.iter().enumerate() {
//!         w.current_mut()[p] = w.current()[p] * 3 % 1_000_003 + i64::from(*input);
//!     }
//! }
//! let at = |frame: u64| Nanos(frame * 1_000_000_000 / 60);
//!
//! // The host: two local players in a sync test, 2 s of play.
//! let mut host_world = DoubleBuffer::new(vec![0_i64; 2]);
//! let mut host = SessionBuilder::<Config>::new().with_num_players(2)?.start_synctest_session()?;
//! let mut rollback = Rollback::<Config, _>::new(&host_world, 8, Refusal::default())?;
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
//! let (mut wire, mut feed_out) = (String::new(), Vec::new());
//! for f in 1..=120 {
//!     for tick in state.advance(at(f)).updates() {
//!         let input = (rollback.frame() % 7) as u8;
//!         let local = [(0, input), (1, input * 2)];
//!         let _ = rollback.update(&mut state, &mut host, &tick, &local, &mut host_world, step)?;
//!     }
//!     if f == 60 {
//!         // Someone asks to watch: a save, through serde (here JSON).
//!         wire = serde_json::to_string(&rollback.handover(&state).ok_or("nothing confirmed yet")?)?;
//!     }
//!     rollback.drain_feed(|inputs| feed_out.push(inputs)); // to every follower, in order
//! }
//!
//! // The newcomer loads it, then follows the feed and catches up, one frame per tick.
//! let handover: Handover<Vec<i64>, u8> = serde_json::from_str(&wire)?;
//! let mut world = DoubleBuffer::new(vec![0_i64; 2]);
//! let mut follower = Rollback::<Config, _>::new(&world, 8, Refusal::Drop)?;
//! let mut feed = follower.join(&mut world, &handover)?;
//! for inputs in feed_out {
//!     feed.push(inputs)?;
//! }
//! let mut state = handover.state.clone(); // the host's loop; here on the same time axis
//! let mut catch_up = CatchUp::new(10, 4)?;
//! let mut f = 60;
//! while follower.frames_behind(&feed) > 0 {
//!     f += 1;
//!     let _ = catch_up.apply(follower.frames_behind(&feed), &mut state);
//!     for tick in state.advance(at(f)).updates() {
//!         let _ = follower.update(&mut state, &mut feed, &tick, &[], &mut world, step)?;
//!     }
//! }
//! assert!(catch_up.changes() > 0 && f < 90); // 4 ticks a frame while far behind
//! // The newcomer's world is the host's at the last frame it saved.
//! let last = follower.frame() - 1;
//! assert!(last > 100);
//! assert_eq!(follower.checksum(last), rollback.checksum(last));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "ggrs"))]
//! # fn main() {}
//! ```
//!
//! **The lag bound.** Once running (not while catching up from a stall), a spectator's frame
//! is behind the slower player's by at most this many frames:
//! `max_prediction + max_frames_behind + ⌈(latency + jitter) / frame⌉ + 2`. The terms: the
//! host's frames not yet confirmed (its prediction window), the frames the spectator may hold
//! before `CatchUp` speeds it up, the confirmed inputs' trip to it, and one frame each for the
//! playout slip and a lost packet resent with the next. The example checks it, and the tests on simulated time too:
//!
//! ```text
//! cargo run --example rollback --features ggrs-test-support -- --spectate --seconds 3
//! ```
//!
//! One run of that command, a debug build as CI runs it (40 ms ± 15 ms one way, 3 % loss,
//! prediction window 8, `CatchUp::new(10, 2)`, so a bound of 24 frames; two more runs gave
//! maxima of 8 and 10 for the spectator, 8 and 7 for the late joiner): the spectator ran 170 frames behind the players by 9.3 frames on
//! average and 10 at most; a late joiner given frame 58 a third of the way in, 300 ms late,
//! ran 26 frames catching up and then followed 6.8 frames behind on average, 7 at most; every
//! confirmed checksum of both (170 and 114 frames) equalled both players'. On simulated time
//! (`net-adapter/tests/spectate.rs`, 30 ms ± 10 ms, 2 % loss, a bound of 23) a spectator
//! stayed 5 to 6 frames behind for 20 s, ran exactly one frame per tick (1,194 frames, 5
//! ticks refused and dropped at the start), and after a 500 ms stall caught up at 3× under
//! the cap of 8 ticks a step.
//!
//! Allocations (`net-adapter/tests/alloc.rs`, measuring thread only): the adapter's save, load and
//! re-simulate path makes **0** allocations per frame once warm; ggrs's own `advance_frame` in a
//! sync test at check distance 7 makes **11.0** per frame (its request list, input vectors,
//! checksum history), and its UDP socket allocates per packet.
//!
//! Save + load + re-simulate 8 frames, each frame moving one sixteenth of the entities: the ring
//! against a clone of the whole state per saved frame (what `bevy_ggrs` does) and against a hecs
//! world rolled back whole. Medians of one run of all three on the shared 2-core machine (load
//! average about 2.5; the 95 % ranges are wide, e.g. 2.1–3.6 ms for the clone at 100k):
//!
//! ```sh
//! cargo bench -p tickfold-ggrs --bench rollback -- --warm-up-time 1 --measurement-time 2
//! ```
//!
//! | entities | ring | clone per frame | hecs whole | clone / ring | hecs / ring |
//! |---:|---:|---:|---:|---:|---:|
//! | 1,000 | 14.7 µs | 15.5 µs | 20.1 µs | 1.05 | 1.37 |
//! | 10,000 | 130 µs | 139 µs | 175 µs | 1.07 | 1.35 |
//! | 100,000 | 2.32 ms | 2.88 ms | 2.92 ms | 1.24 | 1.26 |
//!
//! The ring saves only the chunks written since the last save, but each frame here moves a
//! rotating sixteenth of the entities, so re-simulating 8 frames dirties half the state, which the
//! ring copies out and back; its lead over cloning stays small (an earlier run on a busier
//! machine even had the clone ahead at 1k: 28.5 µs against 25.7 µs). Its other gains hold at any
//! size: no allocation per frame once warm, and the checksum ggrs needs comes from the same pass.
//!
//! A hecs world can be rolled back whole, but it costs more than the ring at every size and
//! about as much as a clone per frame: hecs has no per-chunk change stamps, so each save copies
//! every component of every entity out and each load writes every one back. The `hecs_whole`
//! case holds the same data as `Pos` and `Vel` components of a hecs 0.11 world and makes the
//! cheapest correct copy hecs allows: each archetype's entity ids and component columns
//! (`Archetype::get`), one memcpy each, into buffers reused from frame to frame (no allocation),
//! plus the checksum; the load checks the entity ids are unchanged and copies every column back.
//! Its entity set never changes, so it leaves out the clear-and-respawn a game that spawns or
//! despawns inside the rollback window would pay at a load: a lower bound.
//!
//! So keep the rolled-back state (positions, velocities, health, RNG) in plain-data buffers behind
//! the ring and let the hecs world hold what rollback does not touch (render handles, audio, UI),
//! rebuilt from that state after a load.
//!
//! Limits we hit in ggrs 0.13: it allocates in every `advance_frame`; the refused tick's local
//! input is kept by ggrs and a new one for the same frame is ignored; its timers read the wall
//! clock, so simulated-time tests cannot check time sync; `frames_ahead()` is a 30-frame average
//! refreshed from quality reports every 200 ms. Two of its dependencies carry `RustSec`
//! "unmaintained" advisories: `bincode` 1.3 and `instant` 0.1 (check
//! `cargo audit` for the current entries); this crate also uses `bincode` 1.3 to encode ggrs's messages on its
//! sockets, the wire format ggrs's own socket uses.
