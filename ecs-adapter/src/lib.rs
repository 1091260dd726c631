//! hecs integration for tickfold: capture each tracked component's previous tick before every
//! update, and read blended values at render — without ever writing them into the gameplay
//! component.
//!
//! The whole loop, on a fake clock: the fold's events drive the world; the interpolator
//! captures before each update and fills a reused instance buffer at each render.
//!
//! ```
//! use tickfold_core::{Event, LoopConfig, LoopState, Nanos, TickRate};
//! use tickfold_hecs::{Interpolator, Track, hecs::World};
//!
//! struct Velocity(f32);
//! let (mut world, mut interp, mut drawn) = (World::new(), Interpolator::new(), Vec::new());
//! interp.track::<[f32; 2]>(Track::new())?; // positions, blended by `Interpolate`
//! interp.spawn(&mut world, ([0.0_f32, 1.0], Velocity(2.0))); // companion included
//! let mut state = LoopState::new(LoopConfig::new(TickRate::from_hz(50)?), Nanos(0))?;
//! for frame in 1..=6 {
//!     let (next, events) = state.step(Nanos::from_millis(16 * frame)); // read a clock here
//!     state = next;
//!     for event in &events {
//!         match event {
//!             // 1. capture before *each* update, 2. run the user's update
//!             Event::Update(tick) => interp.update(&mut world, |world, _interp| {
//!                 for (p, v) in world.query_mut::<(&mut [f32; 2], &Velocity)>() {
//!                     p[0] += v.0 * tick.dt_secs() as f32;
//!                 }
//!             }),
//!             // 3. read blended values at render, into a reused buffer
//!             Event::Render(r) => _ = interp.extract::<[f32; 2]>(&world, r.alpha, &mut drawn)?,
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
//! * **Registration**: [`Interpolator::track`] with a [`Track`]: a [`Policy`] (interpolate,
//!   crossfade, newest, previous, nearest; [`Discrete`] types default to newest), adoption of
//!   entities without a [`Companion`], ghosts, an opt-in [`Rendered`] copy.
//! * **Capture**: [`Interpolator::capture`] (or [`Interpolator::update`]) copies each
//!   archetype's `T` column into its [`Companion<T>`] column. Spawn with
//!   [`Interpolator::spawn`] or [`Interpolator::companion`] so entities never move archetype.
//! * **Reads**: [`Interpolator::for_each`] (visitor with [`Sample`]s),
//!   [`Interpolator::extract`] (instance buffer), [`Interpolator::write_rendered`]
//!   (render-only component). The gameplay component only ever holds tick values.
//! * **Discontinuities**: [`Interpolator::teleport`] bumps a per-entity, per-component epoch
//!   (in any order relative to the move); entities spawned since the last capture show their
//!   newest value; despawned ones vanish, or leave a [`Ghost`]; recycled entity ids never see
//!   their predecessor (the companion lives in the entity; side tables compare the full
//!   [`hecs::Entity`]).
//! * **Bad input**: an entity without a companion shows its newest value (and is adopted at the
//!   next capture unless [`Track::adopt`] is off); reading an unregistered type is
//!   [`Error::Unregistered`]; a NaN alpha counts as 0 and alpha is clamped to `[0, 1]`.
//!
//! Feature `glam`: `Interpolate` for glam's `Vec2`, `Vec3`, `Vec3A`, `Vec4` and `Quat`
//! (shortest-arc slerp) and the [`Nlerp`] rotation newtype, from `tickfold-core`.
#![forbid(unsafe_code)]

mod error;
mod interpolator;
mod lane;
mod types;

pub use error::Error;
pub use interpolator::{Interpolator, Stats, Track};
pub use types::{Blend, Companion, Counts, Discrete, Epoch, Ghost, Policy, Rendered, Sample};

/// glam, at the version the `Interpolate` impls are built for (feature `glam`).
#[cfg(feature = "glam")]
pub use glam;
/// The hecs version the adapter is built against (0.11.2), so your `World` is the same type.
pub use hecs;
/// The blending trait every interpolated component implements.
pub use tickfold_core::Interpolate;
/// A rotation blended by normalized lerp (feature `glam`).
#[cfg(feature = "glam")]
pub use tickfold_core::glam::Nlerp;

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
