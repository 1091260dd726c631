//! The measured figures: the fold against the peers, pacing, the demo.
//!
//! One command measures the fold against `game-loop`, a floor written in the bench, Bevy's fixed
//! loop and Piston, in one interleaved run, and writes `BENCHMARKS.md` (its figures below):
//!
//! ```sh
//! cargo run --release --manifest-path benches/peers/Cargo.toml            # about a minute once built
//! cargo run --release --manifest-path benches/peers/Cargo.toml -- --callgrind  # instruction counts only
//! ```
//!
//! Every loop's frame is inlinable into its timing loop, as in a user's crate (a second table in
//! `BENCHMARKS.md` puts every loop behind an `#[inline(never)]` call instead). The **floor** is a
//! minimal exact-integer loop in the bench that reports what tickfold's events report for one
//! catch-up clock (index, `t`, `dt`, lag and `last_in_step` per update; alpha, exact lag and tick
//! count for the render; the deadline; drops and deferrals). Instruction counts come from
//! callgrind and repeat exactly on a loaded machine; the ns medians are from one run on this
//! project's shared 2-core machine, so compare ratios, not absolute figures.
//!
//! | per frame, 0 / 1 / 8 updates + render | before the rework | after the compact `Events` | last round | compact `Events` merged | one flag, latest tick | now |
//! |---|---|---|---|---|---|---|
//! | `advance_into` (in place), instructions | 359 / 514 / 1,539 | 253 / 477 / 1,172 | 214 / 422 / 874 | 240 / 445 / 869 | 208 / 411 / 838 | 209 / 412 / 839 |
//! | `step` (by value), instructions | 876 / 1,031 / 2,056 | 381 / 680 / 1,424 | 355 / 559 / 1,011 | 281 / 483 / 907 | 249 / 449 / 876 | 251 / 451 / 878 |
//! | `game-loop` 1.3 inlined, instructions | 58 / 76 / 139 | 58 / 76 / 139 | 59 / 77 / 140 | 59 / 77 / 140 | 59 / 77 / 140 | 59 / 77 / 140 |
//! | floor, instructions | 151 / 211 / 576 | 152 / 212 / 577 | 152 / 212 / 577 | 152 / 212 / 577 | 152 / 212 / 577 | 152 / 212 / 577 |
//! | `advance_into`, median ns (ratio to `game-loop`) | 44.3 / 63.4 / 192.6 (4.6 / 5.1 / 9.2) | 30.0 / 35.4 / 143.4 (3.2 / 3.0 / 6.7) | 20.0 / 56.4 / 107.5 (3.2 / 4.5 / 5.0) | 35.2 / 56.5 / 102.9 (3.6 / 4.5 / 5.0) | 19.8 / 37.8 / 89.1 (3.1 / 3.2 / 4.4) | 28.4 / 47.7 / 91.0 (3.1 / 4.0 / 4.4) |
//! | `step`, median ns (ratio to `game-loop`) | 111.1 / 136.2 / 269.6 (11.5 / 11.0 / 12.8) | 56.1 / 65.1 / 196.3 (6.0 / 5.5 / 9.2) | 38.9 / 76.7 / 129.9 (6.3 / 6.1 / 6.1) | 47.1 / 74.5 / 125.3 (4.9 / 6.0 / 6.1) | 29.6 / 50.4 / 115.8 (4.6 / 4.3 / 5.7) | 40.5 / 52.7 / 106.4 (4.4 / 4.4 / 5.1) |
//!
//! Each column is one run of the peers bench at that state of the core ("before": before the
//! compact `Events` and the boxed `LoopState`, on a busier machine). The instruction counts
//! repeat exactly; the nanoseconds do not: on this shared machine the same code measured 20.7
//! and 35.2 ns at 0 updates in two runs minutes apart, so read the ns columns as ratios within
//! one run, and the instruction counts as the change.
//!
//! The "compact `Events` merged" column trades the two APIs against each other. `Events` now holds one
//! clock's run inline and lends several clocks' runs and the rare events from buffers the state
//! keeps, so it is 184 bytes instead of 896: by-value `step` copies 29 instructions out of the
//! call instead of 112, and is 74 to 104 instructions a frame cheaper; any number of clocks
//! steps without allocating. In place, `advance_into` pays for the lending (a look at the lent
//! buffers when the events are cleared and settled) and for the step written once (the fast
//! path calls the same helpers as the general step for the deferral, the end of time, the
//! render and the deadline): 22 to 23 more instructions at 0 and 1 update, 5 fewer at 8, where
//! the due ticks are now counted with a 64-bit division when the time fits. That misses this
//! round's aim of no increase at 0 and 1 update; the callgrind breakdown in `BENCHMARKS.md`
//! shows where the instructions are (the check that the fast path applies, about 18; copying
//! the step's span record, about 16).
//!
//! The "one flag, latest tick" column takes those two out. Whether the fast path applies is one flag the step
//! leaves in the state, forgotten by every `&mut` reach of it (every control, clock added or
//! removed, refusal), so only a step keeps it; the fast path records where its span starts and
//! marks the plain mapping instead of copying it. Several clocks' merged order is sorted in
//! one list the walk reads directly. The clock now also notes its latest tick each step that
//! runs ticks (for [`ClockHandle::latest_tick`](tickfold_core::ClockHandle::latest_tick)), a
//! compare and two stores.
//!
//! The last column (now) is about several clocks. A loop whose clocks are all plain (catch-up,
//! late firing, no hysteresis, none with refused ticks waiting) at real-time scale, with no
//! render cap and not paused, takes a fast path of its own: the general step without what such
//! a loop never uses, each clock worked off with the lone clock's one-tick catch-up (a property
//! test checks it against the general path on random schedules of two to five clocks). The
//! merged order keys each run by the due time its clock noted when it fired the run's first
//! tick, instead of working it out from the grid again, and sorts up to 24 ticks by insertion,
//! inline; the merged walk computes lags in 64 bits where they fit, as a single clock's walk
//! does. 4 clocks now cost 1.20 times four single-clock loops in instructions and 16 clocks
//! 1.05 (`step`: 1.10 and 0.96), where the target is 1.25 (in that run's nanoseconds, 1.34 and
//! 1.07; `step` 1.08 and 0.90). One clock's step moved by one or two instructions. Against the
//! floor the fold is still 1.38 / 1.94 / 1.45 times its instructions (`advance_into`): the
//! targets of `BENCHMARKS.md` that are marked missed.
//!
//! | other cases, instructions per frame in the peers bench | after the compact `Events` | last round | compact `Events` merged | now |
//! |---|---|---|---|---|
//! | 1,000 catch-up updates in one step (no cap), stepping and reading them | 68,624 | 34,929 | 34,918 | 34,888 (the floor: 52,826) |
//! | 1 / 4 / 16 clocks, one update each, stepping and reading (`advance_into`) | 477 / 2,295 / 8,556 | 422 / 2,377 / 9,123 | 445 / 2,489 / 8,684 | 412 / 1,971 / 6,939 |
//! | 1,000 updates: allocations per step (`advance_into` / `step`) | 0 / 0 | 0 / 0 | 0 / 0 | 0 / 0 |
//! | 1, 4, 16 and 64 clocks: allocations per step (stepping and reading, any rare events) | 0 only up to 4 | 0 only up to 4 | 0 | 0 |
//!
//! (Before the compact `Events`, 1,000 updates spilled to the heap and several clocks allocated
//! every step.)
//!
//! `size_of` on 64-bit targets: `LoopState<Nanos>` and `LoopState<Instant>` 8 (a box), `Events`
//! 184 (one clock's run inline, whatever the number of updates; several clocks' runs and the
//! rare events in buffers the state reuses from step to step), `Event<Nanos>` 48, `Tick` 48,
//! `Render` 40, `Lag` 12, `Period` 16, `Nanos` 8.
//!
//! What the figures say, honestly:
//!
//! * **Missed: ≤ 1.2× `game-loop` at 0, 1 and 8 updates.** In this run `advance_into` is
//!   3.6–5.0× and `step` 4.9–6.1× the inlined `game-loop`. The floor, which reports what
//!   tickfold reports and nothing else, is itself 1.9–4.2× `game-loop` in ns and 2.6–4.1× in
//!   instructions: that is what the extra information costs (per update an index, `t`, an exact
//!   lag and `last_in_step` the shell reads; an exact integer grid instead of one `f64` add; a
//!   render with an exact lag and tick count; a deadline), so no loop that reports it can meet
//!   1.2× `game-loop` here. `advance_into` is 1.6 / 2.1 / 1.5× the floor in instructions (`step` 1.8 / 2.3 / 1.6×; 1.2–2.4× in
//!   ns for `advance_into`). From the callgrind breakdown in `BENCHMARKS.md`: the compiler keeps
//!   `advance_into` out of line (a call and reloads per frame); the fast path still checks what
//!   the floor does not have (several clocks, scale, pause, render cap, run-time controls, the end
//!   of time, generic timestamps) and builds an `Events` value the shell reads back; and
//!   by-value `step` copies the `Events` out of the call (184 bytes, 29 instructions of `memcpy`;
//!   896 bytes and 112 instructions before).
//!   Forcing `advance_into` inline cut it by 5 % but made `step` 28 % dearer, so it stays as the
//!   compiler chooses.
//! * **Met: O(1) steps.** A step's cost does not grow with its catch-up updates: the fold counts
//!   them with one division and the result is a compact description; only reading the updates
//!   costs per update (about 35 instructions each). 1,000 updates never touch the heap, and
//!   stepping and reading them costs less than the floor, which walks its grid tick by tick.
//! * **Missed: 4 clocks ≤ 2× one clock.** Four clocks cost 4.3–5.3× one clock in ns, 4.8× in
//!   instructions (each clock is worked off on its own and merged lazily, O(clocks + updates)):
//!   four clocks do four clocks' work, so the fair measure is the next target, 4 and 16 clocks
//!   against as many single-clock loops, met in instructions (above).
//!   Stepping and reading any number of clocks never allocates (past four updating clocks the
//!   step works out the merged order in a buffer it reuses).
//! * **Met: zero allocations per step** for 1, 4, 16 and 64 clocks, in both APIs, however many
//!   updates and whatever else the step reports: several clocks' runs and the rare events go to
//!   buffers the state made for its clocks and reuses, shared with the step's `Events` (a step
//!   takes a new buffer only while the shell still holds the previous step's events), and the
//!   run-time clock controls' reports are moved there with their list, never copied.
//!
//! ## Replays with seek
//!
//! `examples/replay.rs` (see [`replays`](super::replays)) records the tutorial's game, 10,000
//! hecs bodies with their trackers, for 10 minutes at 60 Hz, and times a seek to the middle
//! (tick 18,000 of 36,000) against replaying from the start to it, medians of 5 runs on a
//! loaded 2-core machine:
//!
//! | keyframe every | seek to the middle | one keyframe load | replay from the start to the middle |
//! |---|---:|---:|---:|
//! | 10 s (600 ticks) | 236.5 ms | 34.5 ms | 6,212.7 ms (26×) |
//! | 2 s (120 ticks) | 64.4 ms | 24.7 ms | 6,233.9 ms (97×) |
//!
//! A seek costs one keyframe load plus at most one interval of ticks, whatever the recording's
//! length. `cargo run --release --example replay --features hecs,glam,serde,derive,quickcheck`
//! (`-- --save-every 2` for the second row); the repository's `BENCHMARKS.md` has the details.
//!
//! ## Pacing and the demo
//!
//! `cargo run --release --example pacing` runs three 60 Hz loops with 1 ms of work per
//! iteration, the constant-rate loop article's naive `sleep(1/60)`, `spin_sleep_util::Interval` and the tickfold runner,
//! interleaved in rotating rounds so that load bursts on the shared machine fall on all three
//! alike (`--seconds` per loop, default 10; `--rounds`, default 5), pools each loop's wake-up
//! lateness over the rounds, and writes `pacing.svg` (drift per iteration in the first round)
//! into the target directory (`target/pacing.svg`, or under `CARGO_TARGET_DIR`), or to `--svg PATH`.
//! The headline run, on an idle machine, 60 s per loop in 30 rounds (3,600 wake-ups each):
//!
//! ```sh
//! cargo run --release --example pacing -- --seconds 60 --rounds 30
//! ```
//!
//! | loop | lateness p50 | p99 | max | drift of a round's last iteration (worst) | CPU time |
//! |---|---|---|---|---|---|
//! | naive `sleep(1/60)` (the constant-rate loop article's first loop) | 162.9 µs | 278.2 µs | 3085.3 µs | +145.143 ms | 3.812 s |
//! | `spin_sleep_util::Interval` | 39.7 µs | 190.5 µs | 3570.2 µs | +1.391 ms | 3.821 s |
//! | tickfold runner | 38.0 µs | 148.2 µs | 4723.1 µs | +0.074 ms | 3.821 s |
//!
//! * The naive loop drifts linearly, about 70 ms per second of running (its sleep ignores the work
//!   and the oversleep; a round of 2 s ends about 145 ms late). The runner's drift does not grow:
//!   it waits for exact due times on the fold's grid.
//! * **p99 target met in this run, but only just separable from noise.** The runner's p99 was
//!   148.2 µs against `Interval`'s 190.5 µs at the same CPU time; both sleep with `spin_sleep`'s
//!   default sleeper, so they should be close. Three shorter runs (10 s per loop, 600 wake-ups,
//!   where p99 is the 6th-worst wake-up) gave 167.5 vs 163.3 µs, 161.5 vs 124.4 µs and 627.9 vs
//!   274.9 µs (runner vs `Interval`): in short runs a single burst decides p99 either way.
//!
//! The demo's summary from a release build (`cargo run --release --example demo --features hecs,glam -- --headless`,
//! or any run whose output is not a terminal):
//!
//! ```text
//! summary (4.00 s wall)
//!   ticks      79 (20 Hz)
//!   frames     480 (cap 120 Hz)
//!   drops      0
//!   wake-ups   480: lateness p50 38.9 µs, p99 102.7 µs, max 253.9 µs
//!   cpu time   0.031 s (0.8% of one core)
//! ```
//!
//! The demo's build: every example of the facade builds all its dev-dependencies (serde_json
//! and the serde and bytemuck derives among them), 40 crates. An earlier measurement, from an
//! empty `CARGO_TARGET_DIR` with `CARGO_BUILD_JOBS=2` on the shared 2-core machine:
//! `cargo build --release --example demo --features hecs,glam` took 151 s; it built 145 crates
//! in 372 s while the window example's winit and softbuffer and the benchmarks' criterion were
//! dev-dependencies of every example (they now live in `examples/window/` and `testing/`). The
//! README gives the current figures of both set-up commands. The features are the facade's: the
//! demo reaches the hecs adapter and glam as your code would, through `tickfold::hecs_adapter`
//! and `tickfold::glam`.
//!
//! The side-by-side comparison with the peers (`game-loop`, `bevy_time`, Piston) follows under
//! [Against the peers](#against-the-peers); its full tables are in `BENCHMARKS.md`.
//!
//! ## Against the peers
//!
//! One command times tickfold and the loops users would pick instead, in the same run on the same
//! machine, prints a markdown report with ratios tickfold / peer and writes it to `BENCHMARKS.md`
//! (about a minute once built; the first build compiles Bevy's crates):
//!
//! ```sh
//! cargo run --release --manifest-path benches/peers/Cargo.toml
//! ```
//!
//! The bench crate `benches/peers/` is excluded from the workspace, so the test command never
//! builds Bevy (CI runs the bench crate's own tests as its last step). It pins `game-loop` 1.3.0 (driven by a fake clock through its `TimeTrait`),
//! `bevy_time` 0.20.1 in a minimal `App` (`TimePlugin`, one `FixedUpdate` system, time fed by
//! `TimeUpdateStrategy::ManualInstant`) and Piston's `pistoncore-event_loop` 1.0.0 (bench mode,
//! which has no clock to fake; its stall runs on the real clock). It measures ns and allocations
//! per frame (0, 1 and 8 updates), steps-per-frame histograms at 60 Hz ticks with 60 Hz and
//! 59.94 Hz frames ±50 µs (seeded jitter, 36,000 frames), the tick grid's drift after one
//! simulated hour, a 5 s stall, and the run-time controls the peers have: Bevy's `set_timestep`
//! mid-run against `set_rate`, and `spin_sleep_util` 0.1.1's `Interval` with
//! `MissedTickBehavior::Delay` on the real clock against `Policy::Delay`. The headline rows of one
//! run:
//!
//! | target | tickfold | peers | |
//! |---|---|---|---|
//! | ≥ 100× faster than Bevy's fixed loop (`advance_into`, worst case) | 58.6 ns | 7.38 µs | **met**: 126× |
//! | zero allocations per frame (1 to 4 clocks, both APIs) | 0 | game-loop 0, Bevy 0, Piston 0 | **met** |
//! | zero drift of the tick grid after 1 h at 60 Hz | 0 ns | game-loop 0 ns, Bevy +72,000 ns, Piston −144,000 ns | **met** |
//! | fewer irregular frames (0 or 2+ updates) than every peer, 60 Hz ±50 µs, 36,000 frames | 0 (tickfold `.phase(0.5)`) | game-loop 18,070, Bevy 17,743 | **met** |
//! | fewer irregular frames (0 or 2+ updates) than every peer, 59.94 Hz ±50 µs, 36,000 frames | 37 (tickfold `.hysteresis(0.5)`) | game-loop 69, Bevy 73 | **met** |
//! | every tick dropped by a 5 s stall is reported | 286 of 286 | game-loop 0 of 286, Bevy 0 of 286, Piston 0 of 299 | **met** |
//! | the same fixed runs as Bevy across `set_timestep` at run time (20 → 10 → 25 ms, 150 frames) | 148 of 148 at the same frame and virtual time, same overstep after every frame | Bevy `Time<Fixed>` | **met** |
//! | the same schedule as `spin_sleep`'s `MissedTickBehavior::Delay` (real clock, 5 ms, 30 calls, 4 late) | every tick offset only by the gap between the two clock readings (at most 1,373 ns); fed the interval's own reading, 30 of 30 at the same instant | `spin_sleep_util` `Interval` | **met** |
//!
//! * The per-frame cost against `game-loop` is in the first section of this page: missed.
//! * `game-loop` shows no measurable drift at matched 60/60 rates either (its `f64` accumulator
//!   stays below one tick); Bevy's 16,666,667 ns tick and Piston's 16,666,666 ns tick do.
//! * Piston has no jitter rows: neither of its modes can replay a schedule.
//! * `set_rate` and Bevy's `set_timestep` follow the same rule between frames (Bevy spends its
//!   overstep with the new timestep; tickfold restarts the grid at the boundary the lag is
//!   measured from). `spin_sleep_util`'s `Interval` reads the clock again inside `tick()`, so
//!   after each late call its grid sits that gap (under 2 µs) later than tickfold's, until the
//!   next late call.
