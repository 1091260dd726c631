//! hecs integration for tickfold: keep each tracked component's previous tick next to it, and
//! read blended values at render, without ever writing them into the gameplay component.
//!
//! The whole loop, on a fake clock: the fold's events drive the world; the tracker captures
//! before a step's last update (the capture rule of `Tick::last_in_step`) and fills a reused
//! instance buffer at each render.
//!
//! ```
//! use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
//! use tickfold_hecs::{Interpolated, hecs::World};
//!
//! struct Velocity(f32);
//! // Positions, blended by `Interpolate`.
//! let (mut world, mut positions, mut drawn) = (World::new(), Interpolated::<[f32; 2]>::new(), Vec::new());
//! positions.spawn(&mut world, ([0.0_f32, 1.0], Velocity(2.0))); // companions included
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(50)?), Nanos(0))?;
//! for frame in 1..=6 {
//!     let (next, events) = state.step(Nanos::from_millis(16 * frame)); // read a clock here
//!     state = next;
//!     for event in &events {
//!         match event {
//!             // 1. the capture rule, 2. the user's update
//!             Event::Update(tick) => {
//!                 positions.before_update(&mut world, &tick);
//!                 for (p, v) in world.query_mut::<(&mut [f32; 2], &Velocity)>() {
//!                     p[0] += v.0 * tick.dt_secs() as f32;
//!                 }
//!             }
//!             // 3. read blended values at render, into a reused buffer
//!             Event::Render(r) => _ = positions.extract(&world, r.alpha, &mut drawn),
//!             _ => {}
//!         }
//!     }
//! }
//! let tick_value = world.query_mut::<&[f32; 2]>().into_iter().next().map(|p| p[0]);
//! assert_eq!(tick_value, Some(0.16)); // 4 ticks of 20 ms at 2 units/s; never a blend
//! assert!(drawn[0][0] > 0.12 && drawn[0][0] < 0.16); // 16 ms of lag: α = 0.8
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! * **Tracking**: one [`Interpolated<T>`] per component type, with a [`BlendMode`]
//!   (interpolate, crossfade, newest, previous, nearest), adoption of entities without a
//!   [`Previous`], ghosts, an opt-in [`Rendered`] copy, and the clock it follows. Several types
//!   at once: a tuple of trackers, through [`Tracker`].
//! * **Capture**: [`Interpolated::before_update`] applies the capture rule (only before the
//!   step's last update of its clock); [`Interpolated::capture`] copies each archetype's `T`
//!   column into its [`Previous<T>`] column. Spawn with [`Interpolated::spawn`] or
//!   [`Interpolated::companions`] so entities never move archetype.
//! * **Reads**: [`Interpolated::for_each`] (visitor with [`Sample`]s),
//!   [`Interpolated::extract`] (instance buffer), [`Interpolated::write_rendered`]
//!   (render-only component). The gameplay component only ever holds tick values.
//! * **Velocity reads**: [`Interpolated::with_velocity`] draws `T` from a velocity component
//!   you name ([`VelocityOf`]) by [`Motion::Extrapolate`] (`current + v·alpha·dt`, no tick of
//!   latency) or [`Motion::Hermite`] (the cubic through both ticks with the velocities as
//!   slopes), the two modes of `bevy_transform_interpolation`; the formulas are
//!   tickfold-core's [`Extrapolate`].
//! * **ECS-agnostic code**: [`Interpolated::in_world`] is tickfold-core's [`Columns`] and
//!   [`BlendColumns`], the storage traits tickfold-snapshot's `DoubleBuffer` implements for a
//!   `Vec` of plain structs.
//! * **Discontinuities**: [`Interpolated::teleport`] bumps the entity's [`Stamp<T>`] (in any
//!   order relative to the move); entities spawned since the last capture show their newest
//!   value; despawned ones vanish, or leave a [`Ghost`]; recycled entity ids never see their
//!   predecessor (the companions live in the entity; ghosts keep the full [`hecs::Entity`]).
//!   What happens in a step's earlier updates never reaches the render.
//! * **Save games**: [`Interpolated::save`] gives the tracker's state for a world (each
//!   entity's previous value and stamp, the capture counter, the ghosts) as a [`SavedTracker`]
//!   (serde with the feature `serde`); [`Interpolated::load`] writes it into a loaded world
//!   through your old → new entity map, so every render after a resume is the uninterrupted
//!   run's, bit for bit. Don't respawn at the current values instead: the first render would
//!   blend from the wrong previous tick.
//! * **Bad input**: an entity without a [`Previous`] shows its newest value (and is adopted at
//!   the next capture unless adoption is off); a NaN alpha counts as 0 and alpha is clamped to
//!   `[0, 1]`.
//!
//! Feature `serde`: `Serialize` and `Deserialize` for [`SavedTracker`] (when `T` has them),
//! [`BlendMode`], [`Stats`] and [`Discrete`]; with `glam`, glam's vectors and quaternions too.
//!
//! Feature `glam`: `Interpolate` for glam's `Vec2`, `Vec3`, `Vec3A`, `Vec4` and `Quat`
//! (shortest-arc slerp) and the [`Nlerp`] rotation newtype, from tickfold-core, for glam 0.33
//! (the series Bevy 0.20 uses).
//!
//! # Features
//!
//! Documented in the `[features]` table of this crate's `Cargo.toml`, and listed here when the
//! docs are built with the `document-features` feature (docs.rs builds them with all features).
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

mod binding;
mod column_copy;
mod error;
mod following;
mod in_world;
mod interpolated;
mod motion;
mod save;
mod tracker;
mod types;

pub use error::Error;
pub use in_world::InWorld;
pub use interpolated::{Interpolated, Stats};
pub use motion::{Motion, VelocityOf, WithVelocity};
pub use save::SavedTracker;
pub use tracker::Tracker;
pub use types::{
    BlendMode, Companions, Counts, Discrete, Epoch, Ghost, Previous, Rendered, Sample, Stamp,
};

/// The glam crate itself (feature `glam`), re-exported at the version tickfold-core's
/// `Interpolate` impls are built for (0.33), so `tickfold_hecs::glam::Vec3` is the type they
/// blend. The rotation newtype is [`Nlerp`], at this crate's root.
#[cfg(feature = "glam")]
pub use glam;
/// The hecs version the adapter is built against (0.11.2), so your `World` is the same type.
pub use hecs;
/// Drawing from a velocity: what [`Interpolated::with_velocity`] needs of `T`.
pub use tickfold_core::Extrapolate;
/// The blending trait every tracked component implements.
pub use tickfold_core::Interpolate;
/// A rotation blended by normalized lerp (feature `glam`).
#[cfg(feature = "glam")]
pub use tickfold_core::Nlerp;
/// tickfold-core's storage traits, implemented by [`InWorld`].
pub use tickfold_core::{BlendColumns, Columns};

/// Alpha as every read uses it: NaN counts as 0 (the previous tick, as `Interpolate` does),
/// anything else is clamped to `[0, 1]`.
#[inline]
pub(crate) fn clamp_alpha(alpha: f64) -> f64 {
    if alpha.is_nan() {
        0.0
    } else {
        alpha.clamp(0.0, 1.0)
    }
}
