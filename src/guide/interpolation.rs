//! How a shell drives the fold, and interpolation: `Interpolate`, glam, mint, velocities, the derive.
//!
//! Every frame: (1) read the clock; (2) `step`; (3) handle the events in order — `Sleep` means wait
//! until then, `Update` means run one fixed update with its `Tick` (index, `t = index·dt`, `dt`,
//! lag); (4) snapshot the state before the update marked `last_in_step` if you interpolate; (5) on
//! `Render`, draw with `alpha` between the previous tick (0) and the current one (1); (6) wait until
//! `events.deadline()` (or vsync) and go again.
//!
//! # Interpolation
//!
//! `Interpolate` blends the previous tick's value and the current one at the render's `alpha`:
//! exactly the previous value at 0 (and for a NaN alpha), exactly the current one at 1, and a value
//! that did not move never jitters. It is implemented for `f32`, `f64`, arrays and tuples; derive it
//! (below) or implement it field by field for your own types.
//!
//! ```rust
//! use tickfold::Interpolate;
//!
//! let (previous, current) = ([0.0_f32, 2.0], [4.0_f32, 2.0]);
//! assert_eq!(previous.interpolate(&current, 0.25), [1.0, 2.0]);
//! assert_eq!(previous.interpolate(&current, 1.0), current);
//! ```
//!
//! ## glam and mint
//!
//! The feature `glam` implements `Interpolate` for **glam 0.33**'s `Vec2`, `Vec3`, `Vec3A`, `Vec4`
//! and `Quat` (shortest-arc slerp; `Nlerp` for the cheaper normalized lerp), the series Bevy 0.20
//! uses, built with `libm`. A glam of another version is another crate, whose `Vec3` does not
//! implement the trait (the compiler's note says so): use the re-export `tickfold::glam`, or depend
//! on glam 0.33 yourself. With `serde` as well, glam's own `serde` feature is on, so
//! `tickfold::glam::Vec3` serializes without a glam dependency of your own. The feature `mint`
//! implements it for mint 0.5's vectors and quaternions.
//!
//! ## From a velocity: extrapolation and Hermite
//!
//! `Extrapolate` adds the two modes of `bevy_transform_interpolation` that draw from a velocity
//! (per second): `current.extrapolate(&v, alpha * dt)` is `current + v·alpha·dt` (no tick of
//! latency, a small snap when the prediction was wrong), and `previous.hermite(&current, &v0, &v1,
//! dt, alpha)` is the cubic Hermite through both ticks with the velocities there as slopes,
//! `p0 + h01·(p1 − p0) + dt·(h10·v0 + h11·v1)` (a ballistic arc stays on its parabola between ticks,
//! where a straight-line blend cuts under it). Both keep `Interpolate`'s exact ends. Implemented for
//! `f32`, `f64`, arrays and, with `glam`, the vectors and `Quat`, whose velocity is an angular
//! velocity (`Vec3`, rad/s, world frame): extrapolated as `exp(ω·alpha·dt)·q`, blended by the cubic
//! quaternion curve of Kim, Kim and Shin (1995). The hecs adapter reads through a velocity
//! component you name: `positions.with_velocity::<Velocity>(Motion::Hermite, dt).extract(..)`
//! (implement `VelocityOf<Position>` for it; track `Velocity` too for the previous tick's slope).
//!
//! ## Deriving Interpolate
//!
//! With the feature `derive`, `use tickfold::Interpolate;` brings the trait and
//! `#[derive(Interpolate)]`, which blends a struct field by field (`struct Position(Vec3);` is the
//! usual component). Newtypes, tuple structs, named fields and generic structs are supported (a
//! blended field of type `T` adds `T: Interpolate`). A field that has no in-between values takes
//! `#[interpolate(switch)]`: the previous value below alpha ½ and the current one from ½ on,
//! the rule of the hecs adapter's `Discrete`. `#[interpolate(newest)]` always takes the current
//! value and `#[interpolate(skip)]` the previous one; those two need only `Clone`, and break one
//! end of the trait's contract unless the field is equal in both ticks. An enum is refused with an
//! error at `enum`: mark an enum field `switch` instead.
//!
//! ```rust
//! # #[cfg(feature = "derive")]
//! # fn main() {
//! use tickfold::Interpolate;
//!
//! #[derive(Clone, Debug, PartialEq, Interpolate)]
//! struct Sprite {
//!     at: [f32; 2],
//!     angle: f32,
//!     #[interpolate(switch)]
//!     frame: u16,
//! }
//!
//! let previous = Sprite { at: [0.0, 0.0], angle: 0.0, frame: 1 };
//! let current = Sprite { at: [4.0, 2.0], angle: 1.0, frame: 2 };
//! let early = previous.interpolate(&current, 0.25);
//! assert_eq!(early, Sprite { at: [1.0, 0.5], angle: 0.25, frame: 1 });
//! assert_eq!(previous.interpolate(&current, 0.5).frame, 2); // switched at one half
//! assert_eq!(previous.interpolate(&current, 1.0), current);
//! # }
//! # #[cfg(not(feature = "derive"))]
//! # fn main() {}
//! ```
