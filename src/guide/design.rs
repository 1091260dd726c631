//! Design and exactness notes for the curious: architecture, the peers, fuzzing, layout, MSRV.
//!
//! # Architecture
//!
//! One frame, left to right: only the shell reads the clock, only the fold decides, and your code
//! (through an adapter or not) owns the world.
//!
//! ```text
//!   clock ──now──▶   fold ──Events──▶        adapters, updates ──▶   render
//!   Instant, a fake  LoopState::step         Update(tick): capture   Render { alpha }:
//!   clock or a       (tickfold-core):        the world before the    draw previous +
//!   replay's times   the next state and      step's last update      alpha·(current −
//!                    the events in order:    (tickfold-hecs,         previous); then wait
//!                    Update, Sleep, drops,   tickfold-snapshot),     for the deadline
//!                    Render, the deadline    run it at a fixed dt
//!   └─ tickfold::runner: read the clock, step, hand on the events, sleep ───────────────┘
//! ```
//!
//! The crates, each arrow a dependency (the facade's optional ones behind its features); none
//! points back up, and the core depends on no other tickfold crate:
//!
//! ```text
//!                                               tickfold
//!                                   (the facade: re-exports, the runner)
//!           │               │               │                 │                   │                 │
//! feature   │ quickcheck    │ hecs          │ ggrs            │ snapshot          │ derive          │ always
//!           ▼               ▼               ▼                 ▼                   ▼                 │
//!   tickfold-testing  tickfold-hecs   tickfold-ggrs ─▶ tickfold-snapshot   tickfold-derive          │
//!    quickcheck,      hecs, glam      ggrs, serde,      imbl, bytemuck,    syn, quote,              │
//!    approx                           bincode           xxhash-rust        proc-macro2;             │
//!           │               │               │                 │            no tickfold              │
//!           ▼               ▼               ▼                 ▼            crate                    ▼
//!   ┌───────────────────────────────────────────────────────────────────────────────────────────────────┐
//!   │ tickfold-core: the fold; smallvec, glam optional; no_std without its `std` feature                │
//!   └───────────────────────────────────────────────────────────────────────────────────────────────────┘
//! ```
//!
//! `tickfold-ggrs` (feature `ggrs`, re-exported as `tickfold::ggrs_adapter`) keeps ggrs's saved
//! frames in `tickfold-snapshot`'s rollback ring; see [`rollback`](super::rollback).
//! `tickfold-derive` (feature `derive`) is a proc-macro crate that depends on no tickfold crate:
//! the code it generates names the facade's `::tickfold::Interpolate`.
//!
//! Each crate carries its own tests (`cargo test -p tickfold-core` tests the fold alone, against
//! the published loops it reproduces and the peers it is compared with); the facade's `tests/` keep
//! what needs the facade (the runner). `examples/window/` is a separate package, so the facade's
//! examples compile only small dependencies; the layout table is under [Layout](#layout).
//!
//!
//! # Compared with the peers
//!
//! | | tickfold | `bevy_time` | `game-loop` | Piston event loop | ggez | `spin_sleep` |
//! |---|---|---|---|---|---|---|
//! | time passed in by the caller | yes (`Instant`, `Nanos`, `Duration`) | `update_with_instant`, inside a Bevy `World` | no, owns the loop | no, owns the loop | no, owns the loop | n/a (sleeping only) |
//! | exact tick length | exact fraction (60 Hz = 50,000,000/3 ns) | rounded to 16,666,667 ns (+20 ns/s) | `f64` seconds accumulator | truncated to 16,666,666 ns (−40 ns/s) | rounded to 16,666,667 ns | n/a |
//! | interpolation alpha | `Render::alpha`, always in `[0, 1]` | `overstep_fraction` | `blending_factor` | `ext_dt` | `remaining_update_time` (you divide) | n/a |
//! | dropped time reported | every tick and span, as events with counts | clamped to `max_delta`, logged at debug level | silent | silent reset | never gives up (ggez #640) | `MissedTickBehavior::Skip` by default, silent |
//! | constant-rate drop & rest / keep working / delay | all three, tick numbers jump over lost slots (delay loses none) | no | no | no | no | skip / burst / delay |
//! | several fixed rates in one loop | named clocks, one total order, late/nearest firing | no (bevy #18486, won't fix) | no | no | no | no |
//! | anti-aliasing at matched rates | phase and hysteresis | no | no | no | no | n/a |
//!
//!
//! # Fuzzing
//!
//! `fuzz/` holds five [cargo-fuzz](https://rust-fuzz.github.io/book/cargo-fuzz.html) targets
//! (libFuzzer, inputs built with `arbitrary`). It is its own workspace, excluded from the main one,
//! so the normal build and tests never compile it. Each target compares the library with a naive
//! model and checks the documented invariants after every operation (the checks live in
//! `fuzz/src/`, one function per rule; `controls` checks invariants only, as its controls move the
//! grid a model would have to follow):
//!
//! | target | drives | checks |
//! |---|---|---|
//! | `fold` | 1 to 16 clocks (1 ns to 10⁹ s ticks, caps, phase, hysteresis, firing rules, policies), max frame delta, render cap, time scale, pause; steps forwards, backwards, repeated and to `u64::MAX`, clones, added and removed clocks, pause and scale changes | `Nanos`, `Duration` and `Instant` copies give the same events; `advance_into` equals `step`; a clone stepped alike stays equal; alpha in `[0, 1]`; tick numbers jump only across reported drops; updates in due-time order, ties by declaration; `last_in_step`; the per-step cap; render rules for the first, repeated and backwards steps; `TimeBackwards` makes nothing due; deadlines never before `now`; `Tick::t` and `Tick::lag`; the accounting identity of `ClockStats`; virtual time equals the exact scaled sum |
//! | `snapshot` | `Tracked`, `DoubleBuffer`, `Ring` (two of them, shared by three states) and `Persistent` over `u32`, `u8`, `[u16; 3]` and `()`, with valid and invalid chunk sizes, length changes, publish, save/load and their buffer forms, out-of-range indices | every value against a `Vec` model; typed errors, never panics; ring checksums recomputed from scratch (XXH3-64 per chunk, then of the chunk checksums seeded with the length); both halves of a buffer keep one length |
//! | `hecs` | the hecs adapter with every policy, adoption, ghosts and `Rendered` copies: spawns (three ways), despawns (two ways), teleports, writes, inserts and removals (through the adapter and behind its back) between captures | `for_each`, `extract`, `extract_with_entities`, `sample` and `write_rendered` against the policy table above, the counts, the ghosts, the stats, the errors |
//! | `controls` | 1 to 4 clocks of any policy (`Delay` included) and every run-time control between hostile steps: `set_rate`, the cap, phase, hysteresis, max frame delta and render-rate setters (invalid and non-finite values included), `accumulate_overstep`, `discard_overstep`, `reset_grid`, `refuse` (of the latest ticks and of any other), `step_ticks`, pause, scale, added and removed clocks, and an `InputQueue` fed inputs at any time | the accounting identity after every call; a refused setter leaves its getter unchanged; event order; deadlines never before `now`; tick numbers move forward except to re-run a refused tick, rise by one within a step, `last_in_step` on each clock's last; no drop covers a tick that ran; only the latest tick of a clock can be refused; every input comes out at most once, to a tick of its clock |
//! | `runner` | `tickfold::runner::Runner` on a fake clock with a sleeper that wakes on time, early, late or never, and updates that take time | no update handed over before its slot, `wait_until`'s lateness, progress after every wake that was not early, bounded iterations |
//!
//! CI (`.ci/fuzz-smoke`, called by `.ci/run`) replays the saved reproducers and runs every target
//! for 30 s when a nightly toolchain is present (it installs cargo-fuzz if needed), and prints
//! `fuzz smoke: SKIPPED (no nightly toolchain)` otherwise. To fuzz longer, from the repository root:
//!
//! ```sh
//! cargo install cargo-fuzz                                        # once
//! cargo +nightly fuzz run fold -- -max_total_time=600             # likewise controls, snapshot, hecs, runner
//! cargo +nightly fuzz run fold -- -max_total_time=600 -fork=2 -ignore_crashes=1  # collect many findings
//! FUZZ_SECONDS=300 bash .ci/fuzz-smoke                            # every target, 5 min each
//! ```
//!
//! A finding is written to `fuzz/artifacts/<target>/`. Minimise it with
//! `cargo +nightly fuzz tmin <target> <file>`, print it with `cargo +nightly fuzz fmt <target> <file>`,
//! and save the minimal input under `fuzz/regressions/<target>/` (not in `fuzz/corpus/`, which
//! fuzzing rewrites): CI replays every file there. `TICKFOLD_FUZZ_SKIP=lag,zst` (names of checks,
//! see `fuzz/src/`) switches checks off to look past a known bug while it is being fixed; CI never
//! sets it.
//!
//! # Layout
//!
//! | path | package | status |
//! |---|---|---|
//! | `core/` | `tickfold-core` | the pure fold and its clocks; `#![no_std]` with default features off; its behaviour tests and golden traces in `core/tests/` |
//! | `snapshot/` | `tickfold-snapshot` | plain-data snapshots: double buffer with 4 KiB dirty chunks, rollback ring with XXH3 checksums, `im::Vector` persistent variant (feature `snapshot`) |
//! | `ecs-adapter/` | `tickfold-hecs` | hecs adapter: per-tick capture into companions, policies, epochs, ghosts, blended reads (feature `hecs`) |
//! | `net-adapter/` | `tickfold-ggrs` | ggrs 0.13 adapter: one ggrs frame per tick, refused ticks back to the loop, saves and loads through the snapshot ring, loopback and lossy sockets (feature `ggrs`; Rust 1.87) |
//! | `derive/` | `tickfold-derive` | `#[derive(Interpolate)]`, a proc-macro crate (syn, quote); its tests compare derived impls with hand-written ones bit for bit (feature `derive`) |
//! | `testing/` | `tickfold-testing` | the determinism kit: arbitrary frame schedules, schedule and timestep checks, replay (feature `quickcheck`) |
//! | `src/lib.rs` | `tickfold` | the facade: re-exports, the runner and its winit glue (feature `winit`); owns `examples/` and `tests/` (the runner's, the hecs adapter's through the facade) |
//! | `examples/window/` | `tickfold-window` | the demo's world in a winit window, through the feature `winit`; not published |
//! | `fuzz/` | `tickfold-fuzz` | cargo-fuzz targets `fold`, `controls`, `snapshot`, `hecs`, `runner` with their models and invariant checks; its own workspace (nightly) |
//! | `bevy-adapter/` | `tickfold-bevy` | Bevy 0.20 plugin: one exact schedule per tickfold clock in one `App`, drops as messages; its own workspace, so the default build never compiles Bevy |
//! | `benches/peers/` | `tickfold-peers` | side-by-side benchmarks against `game-loop`, `bevy_time` and Piston; its own workspace, so the default build never compiles Bevy; writes `BENCHMARKS.md` |
//!
//! # Minimum supported Rust version
//!
//! The workspace declares `rust-version = "1.86"`. CI (`.ci/msrv`, a step of `.ci/run`) installs
//! Rust 1.86 when it can, tests `tickfold-core` on it (with and without `std`) and type-checks
//! `tickfold-snapshot`, `tickfold-testing` and the facade library (`quickcheck`, `snapshot`, `glam`
//! and `derive` features). Two crates need more, because their dependencies do:
//!
//! * `tickfold-hecs`: hecs 0.11.2 declares Rust 1.81 but needs 1.89 to compile, so the adapter, the
//!   facade's `hecs` feature and the facade's tests and examples (which use the adapter) need 1.89;
//! * `tickfold-ggrs` declares `rust-version = "1.87"`, as ggrs 0.13 does.
//!
//! Where 1.86 cannot be installed, the step falls back to clippy's `incompatible_msrv` lint, which
//! flags std APIs newer than `rust-version` but not newer language features, and says so.
