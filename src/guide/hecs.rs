//! hecs worlds: the `tickfold-hecs` adapter tracks components and blends them at render.
//!
//! `tickfold-hecs` (feature `hecs`, re-exported as `tickfold::hecs_adapter`; feature `glam` adds
//! `Interpolate` for glam's `Vec2`, `Vec3`, `Vec3A`, `Vec4` and `Quat`, glam 0.33 (the series
//! Bevy 0.20 uses) built with `libm`; `tickfold_hecs::glam` is that glam crate) plugs the fold
//! into a [hecs](https://docs.rs/hecs/0.11.2) world. One `Interpolated<T>` tracks one component
//! type, the way hecs's own `ChangeTracker<T>` does: the previous value lives in the entity as a
//! `Previous<T>` component (with a `Stamp<T>` for teleports and spawns); several types at once
//! are a tuple of trackers, driven together through the `Tracker` trait. At render it reads the
//! blend through a visitor, into a reused instance buffer, or into an opt-in render-only
//! `Rendered<T>` component. The blended value is never written into the gameplay component, so
//! game code querying the world only ever sees tick values.
//!
//! **One capture rule for every adapter**, stated on `Tick::last_in_step` and applied by
//! `tickfold_core::Columns::before_update`: a render blends the state before the step's last
//! update with the state after it, so only that update is preceded by a capture. A step of N
//! catch-up updates copies once, not N times, in exactly the steps where the machine is already
//! behind. Whatever happens in the earlier updates (teleports, spawns, despawns) is history by
//! then; the flag is per clock, and each tracker follows one: the clock of the first tick it is
//! handed, or the one given to `Interpolated::clock`; ticks of other clocks are counted in
//! `Stats::other_clock_ticks`, never acted on. A property
//! test compares random multi-update steps against a tracker that captures before every update:
//! the renders are equal.
//!
//! With `tickfold = { version = "0.1", features = ["hecs"] }` in `Cargo.toml`:
//!
//! ```rust
//! # #[cfg(feature = "hecs")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::hecs_adapter::{Interpolated, hecs::World};
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! struct Velocity(f32);
//! // A position, blended by `Interpolate`.
//! let (mut world, mut pos, mut drawn) = (World::new(), Interpolated::<[f32; 2]>::new(), Vec::new());
//! let ball = pos.spawn(&mut world, ([0.0_f32, 1.0], Velocity(3.0))); // companions included
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
//! let mut steps_with_updates = 0;
//! for frame in 1..=6 {
//!     let (next, events) = state.step(Nanos::from_millis(16 * frame));
//!     state = next;
//!     steps_with_updates += u64::from(events.updates().next().is_some());
//!     for event in &events {
//!         match event {
//!             Event::Update(tick) => {
//!                 pos.before_update(&mut world, &tick); // captures before the step's last only
//!                 let mut p = world.get::<&mut [f32; 2]>(ball)?;
//!                 p[0] += 3.0 * tick.dt_secs() as f32;
//!                 if p[0] > 0.1 {
//!                     p[0] = 0.0; // a jump, not a motion: mark it (before or after the move)
//!                     drop(p);
//!                     pos.teleport(&world, ball)?;
//!                 }
//!             }
//!             Event::Render(r) => _ = pos.extract(&world, r.alpha, &mut drawn),
//!             _ => {}
//!         }
//!     }
//! }
//! assert_eq!(pos.stats().captures, steps_with_updates); // one capture per step with updates
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "hecs"))]
//! # fn main() {}
//! ```
//!
//! | `BlendMode` | between two ticks | after a teleport (this capture interval) |
//! |---|---|---|
//! | `Interpolate` (default) | `prev.interpolate(current, α)` | the newest value |
//! | `Crossfade` | `prev.interpolate(current, α)` | `Sample::Crossfade { from, to, alpha }` |
//! | `Newest` | current | current |
//! | `Previous` | previous | previous |
//! | `Nearest` | previous for α < ½, then current | the same |
//!
//! `Discrete<T>` implements `Interpolate` by switching at α = ½; track it with
//! `BlendMode::Newest` to show the newest value at once.
//!
//! * **Discontinuities.** A teleport bumps the entity's `Stamp<T>` (`teleport`, or
//!   `Stamp::teleport` inside a query) anywhere in the update, before or after the move. An
//!   entity spawned (or given the component) since the last capture shows its newest value. A
//!   despawned entity vanishes; `keep_ghosts(n)` keeps its last values for `n` updates for
//!   fade-outs (`Ghost::value`, `Ghost::fade`). The companions live in the entity, so a recycled
//!   entity id (a new generation) never meets its predecessor's data; ghosts keep the full
//!   `Entity`.
//! * **No archetype moves.** `spawn` adds the companions to the bundle, or put the fields of
//!   `tracker.companions(&value)` in your own bundle (the cheaper route, see below).
//! * **Capture cost.** `Previous<T>` has exactly `T`'s layout (the stamp is a separate
//!   component), so a capture is a column copy of `T`'s stride.
//! * **Rotations.** `Quat` uses shortest-arc slerp on normalized inputs; `tickfold::Nlerp`
//!   is the cheaper normalized lerp. Every blend returns `next` exactly at α = 1 and never
//!   jitters when the two ticks are equal. Feature `mint` adds `Interpolate` for mint's vectors
//!   and quaternions.
//! * **ECS-agnostic code.** `tracker.in_world(&mut world)` implements tickfold-core's `Columns`
//!   and `BlendColumns`, as tickfold-snapshot's `DoubleBuffer` does for a `Vec` of structs.
//! * **Save games.** With the feature `serde`, `tracker.save(&world)` is the tracker's state (each
//!   entity's `Previous<T>` and `Stamp<T>` keyed by `Entity::to_bits`, the capture counter, the
//!   ghosts) as a serializable `SavedTracker<T>`; save it beside the `LoopState` and your own
//!   components, and `Interpolated::load(saved, &mut world, |old| map.get(&old).copied())` writes
//!   it into the loaded world through your old → new entity map (hecs gives loaded entities new
//!   handles; pass `Some` if you restored them with `World::spawn_at`), so every render after the
//!   resume is bit for bit the uninterrupted run's (`ecs-adapter/tests/save_load.rs` checks this
//!   over random save points and frame schedules). Respawning at the current values instead
//!   makes the first render blend from the wrong previous tick.
//! * **Bad input.** An entity with the component but no companion shows its newest value and is
//!   given one at the next capture (`adopt(false)` turns that off); a missing entity or component
//!   is a typed `Error`; a NaN α counts as 0 and α is clamped to `[0, 1]`.
//!
//! `examples/hecs_world.rs` runs 4,000 moving, wrapping (teleporting), spawning and despawning
//! entities on a fake 144 Hz clock with stalls and prints what the adapter did
//! (`cargo run --release --example hecs_world --features hecs,glam`). Its loop code is the `plain_world` example's:
//! both hand each step's events to one generic function over `Columns`/`BlendColumns`
//! (`examples/drive`), which captures by the rule and blends into an instance buffer
//! whatever the storage is, a `Vec` of structs or a hecs world with its trackers. The demo's balls live in a hecs world too.
//!
//! Capture, measured with
//!
//! ```sh
//! cargo bench -p tickfold-hecs --features glam --bench capture -- capture_ --warm-up-time 1 --measurement-time 2
//! ```
//!
//! run three times in a row on this project's shared 2-core machine (AMD EPYC, 512 KiB L2 per
//! core, 32 MiB L3), four archetypes, rotations on half of the entities; each cell is the median
//! of the three runs' medians. "memcpy" is one `copy_from_slice` of the same bytes between two
//! `Vec`s (the bandwidth floor), "limit" a hand-written element loop over the same flat arrays,
//! "naive" a `Previous<T>` component per entity read and written through `World::get`.
//!
//! | capture, per tick | 10k | 100k | 1M | target |
//! |---|---|---|---|---|
//! | `Quat`: adapter / memcpy | 2.15 / 2.10 µs = **1.02×** | 29.0 / 25.8 µs = **1.12×** | 595 / 363 µs = **1.64×** | ≤ 1.5×: met at 10k and 100k, **missed at 1M** (runs: 1.42×, 1.95×, 1.64×) |
//! | `Quat`: limit / memcpy | 0.98× | 1.02× | 1.34× | |
//! | `Vec3`: adapter / memcpy | 3.49 / 3.03 µs = **1.15×** | 45.8 / 39.9 µs = **1.15×** | 1.35 / 0.84 ms = **1.61×** | |
//! | `Vec3`: limit / memcpy | 2.33× | 1.76× | 1.63× | |
//! | `Vec3`: naive / memcpy | 144× | 142× | 54× | |
//! | `Vec3`: `query_mut` companion / memcpy | 3.10× | 1.97× | 2.15× | (the other route) |
//!
//! Blend and spawn, from an earlier single run of the whole bench (same machine,
//! `-- --warm-up-time 1 --measurement-time 2`):
//!
//! | per frame | 10k | 100k | 1M | target |
//! |---|---|---|---|---|
//! | blend `Vec3` into a buffer (`extract`): adapter / limit | 16.4 / 11.4 µs = **1.44×** | 153 / 115 µs = **1.33×** | 2.55 / 2.18 ms = **1.17×** | ≤ 1.5×, met |
//! | blend `Vec3` through the visitor (`for_each`) / limit | 5.66× | 4.49× | 3.97× | |
//! | blend `Vec3`: naive / limit | 29× | 33× | 19× | |
//! | blend `Quat` (slerp): adapter / limit | 153 / 148 µs = **1.03×** | 1.72 / 1.78 ms = **0.97×** | 19.0 / 17.5 ms = **1.08×** | ≤ 1.5×, met |
//! | blend `Quat`: naive / limit | 2.25× | 2.10× | 2.37× | |
//!
//! | spawning 10k entities (position + velocity) | ns per entity |
//! |---|---|
//! | plain `World::spawn`, no companion | 51.6 |
//! | companions in the bundle (`tracker.companions(&p)`) | 54.5 |
//! | `Interpolated::spawn` (dynamic bundle helper) | 145.5 |
//! | spawn, then `insert_one` the companion (archetype move) | 135.0 |
//!
//! * **How a capture copies.** `Previous<T>` has exactly `T`'s layout (the epoch lives in its own
//!   `Stamp<T>` column), so a capture is a column copy per archetype. The copy runs in a function
//!   of its own, so the compiler sees two non-overlapping slices and emits `memcpy` (inlined into
//!   the archetype loop it stayed an element loop: the "limit" row, 1.6–2.3× memcpy for `Vec3`),
//!   in blocks of at most 1 KiB: one large `memcpy` between the two same-sized `Quat` columns of
//!   an archetype ran 8–10× slower than between two `Vec`s here (16.7 µs at 10k, 271 µs at 100k,
//!   with a large copy's other code path, whose speed depends on how the two addresses line up),
//!   while 1 KiB copies stay on the path that runs at cache speed.
//! * **The 1M floor.** At 1M the two `Quat` columns are 8 MB each: every copy streams 16 MB
//!   through the L3 cache that the other processes on the machine share, and the ratio swings
//!   between runs (1.42–1.95×); the hand-written element loop over flat arrays does no better
//!   (1.34×). The one-shot `memcpy` between two `Vec`s keeps an edge there that block copies
//!   of hecs columns do not reach; at 100k (1.6 MB, L3-resident) and 10k they are within 12 %.
//! * The visitor hands out full `Entity` handles; a plain hecs query with `Entity` over the same
//!   data costs 2.5–3.7× the limit on its own, so the visitor's overhead is mostly hecs's
//!   per-entity iteration. Use `extract` for instance buffers.
//! * The dynamic bundle helper costs about 90 ns per spawn more than a static bundle (hecs's
//!   `EntityBuilder` copies, sorts and hashes the component types), which is as much as the
//!   archetype move it avoids; for bulk spawns put the fields of `tracker.companions(&value)` in a static bundle,
//!   which costs 3 ns over a plain spawn. Either way the entity never moves archetype later.
