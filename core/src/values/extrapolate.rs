//! Drawing a value from its velocity: extrapolation past the current tick, and cubic Hermite
//! blending between the previous tick and the current one.

use crate::Interpolate;

/// A value a renderer can also draw from a velocity (units per second): the two modes beside
/// plain [`Interpolate`] that Jondolf's `bevy_transform_interpolation` offers.
///
/// * **Extrapolation** draws the *current* tick's value moved on by its velocity:
///   `value + velocity·secs`, with `secs = alpha·dt` (how far virtual time is past the current
///   tick). No tick of latency, at the price of a small snap when the prediction was wrong
///   (a collision, a turn).
/// * **Hermite** blends the previous tick's value `p0` and the current one `p1` along the cubic
///   whose slopes at the two ends are the velocities there, `v0` and `v1`: with `t = alpha`,
///   `h01 = 3t² − 2t³`, `h10 = t³ − 2t² + t`, `h11 = t³ − t²`, it is
///   `p0 + h01·(p1 − p0) + dt·(h10·v0 + h11·v1)`, the textbook
///   `h00·p0 + h10·dt·v0 + h01·p1 + h11·dt·v1` with `h00 = 1 − h01` folded in, so that a value
///   that does not move (`p0 == p1`, zero velocities) never jitters. A path that curves
///   (an orbit, a ballistic arc) stays on its curve between ticks, where a straight-line blend
///   cuts the corners.
///
/// Both keep [`Interpolate`]'s contract at the ends: `extrapolate` returns `self` exactly for
/// `secs <= 0` or NaN; `hermite` returns `self` exactly at `alpha <= 0` (and NaN), `next`
/// exactly at `alpha >= 1`.
///
/// Implemented for `f32`, `f64` (velocity: the same type), arrays of them (velocity: an array
/// of velocities) and, with the feature `glam`, glam 0.33's `Vec2`, `Vec3`, `Vec3A`, `Vec4`
/// (velocity: the same type) and `Quat` (velocity: a `Vec3` angular velocity in radians per
/// second, world frame, as physics engines integrate it: `q ← exp(ω·dt)·q`).
///
/// # Examples
///
/// ```
/// use tickfold_core::Extrapolate;
///
/// // A value at 2.0 moving at 10 units/s, drawn 30 % into a 50 ms tick: 2.0 + 10·0.015.
/// assert_eq!(2.0_f64.extrapolate(&10.0, 0.3 * 0.05), 2.0 + 10.0 * (0.3 * 0.05));
/// assert_eq!(2.0_f64.extrapolate(&10.0, 0.0), 2.0);
///
/// // Hermite: exact at the ends, and on a path that is a cubic (here x = s³ over a tick of
/// // 1 s from s = 0 to s = 1, velocity 3s²), exact in between too.
/// let (p0, p1, v0, v1) = (0.0_f64, 1.0, 0.0, 3.0);
/// assert_eq!(p0.hermite(&p1, &v0, &v1, 1.0, 0.0), p0);
/// assert_eq!(p0.hermite(&p1, &v0, &v1, 1.0, 1.0), p1);
/// assert!((p0.hermite(&p1, &v0, &v1, 1.0, 0.5) - 0.125).abs() < 1e-15);
/// ```
pub trait Extrapolate: Interpolate {
    /// The rate of change of the value, per second.
    type Velocity;

    /// The value `secs` seconds after `self` at a constant `velocity`: `self` exactly for
    /// `secs <= 0` or NaN. A render passes `alpha·dt`.
    #[must_use]
    fn extrapolate(&self, velocity: &Self::Velocity, secs: f64) -> Self;

    /// The cubic Hermite blend at `alpha` between `self` (the previous tick, velocity `v0`) and
    /// `next` (the current tick, velocity `v1`), the two `dt_secs` apart (see the trait docs).
    #[must_use]
    fn hermite(
        &self,
        next: &Self,
        v0: &Self::Velocity,
        v1: &Self::Velocity,
        dt_secs: f64,
        alpha: f64,
    ) -> Self;
}

/// The Hermite weights at `t`: `(h01, h10, h11)` (`h00 = 1 − h01` is folded into the blend).
#[inline]
pub(crate) fn hermite_weights(t: f64) -> (f64, f64, f64) {
    let t2 = t * t;
    let t3 = t2 * t;
    (3.0 * t2 - 2.0 * t3, t3 - 2.0 * t2 + t, t3 - t2)
}

/// `Extrapolate` for types with `+`, `-` and `* scalar` (the floats, glam's vectors), `$s` the
/// scalar: one body for every such type.
macro_rules! linear_motion {
    ($s:ty; $($t:ty),+) => {$(
        impl $crate::Extrapolate for $t {
            type Velocity = $t;

            #[inline]
            fn extrapolate(&self, velocity: &$t, secs: f64) -> $t {
                if secs > 0.0 {
                    *self + *velocity * (secs as $s)
                } else {
                    *self
                }
            }

            #[inline]
            fn hermite(&self, next: &$t, v0: &$t, v1: &$t, dt_secs: f64, alpha: f64) -> $t {
                $crate::values::interpolate::by_alpha(self, next, alpha, || {
                    let (h01, h10, h11) = $crate::values::extrapolate::hermite_weights(alpha);
                    let (h01, h10, h11, dt) = (h01 as $s, h10 as $s, h11 as $s, dt_secs as $s);
                    *self + (*next - *self) * h01 + (*v0 * h10 + *v1 * h11) * dt
                })
            }
        }
    )+};
}
#[cfg(feature = "glam")]
pub(crate) use linear_motion;

linear_motion!(f32; f32);
linear_motion!(f64; f64);

impl<T: Extrapolate + Clone, const N: usize> Extrapolate for [T; N] {
    type Velocity = [T::Velocity; N];

    fn extrapolate(&self, velocity: &Self::Velocity, secs: f64) -> Self {
        core::array::from_fn(|i| self[i].extrapolate(&velocity[i], secs))
    }

    fn hermite(
        &self,
        next: &Self,
        v0: &Self::Velocity,
        v1: &Self::Velocity,
        dt_secs: f64,
        alpha: f64,
    ) -> Self {
        core::array::from_fn(|i| self[i].hermite(&next[i], &v0[i], &v1[i], dt_secs, alpha))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook form, written out independently of the implementation's order.
    fn textbook(p0: f64, p1: f64, v0: f64, v1: f64, dt: f64, t: f64) -> f64 {
        let h00 = 2.0 * t.powi(3) - 3.0 * t.powi(2) + 1.0;
        let h10 = t.powi(3) - 2.0 * t.powi(2) + t;
        let h01 = -2.0 * t.powi(3) + 3.0 * t.powi(2);
        let h11 = t.powi(3) - t.powi(2);
        h00 * p0 + h10 * dt * v0 + h01 * p1 + h11 * dt * v1
    }

    #[test]
    fn extrapolation_is_value_plus_velocity_times_time() {
        for k in 0..=100 {
            let alpha = f64::from(k) / 100.0;
            let secs = alpha * (1.0 / 60.0);
            let got = 3.25_f64.extrapolate(&-7.5, secs);
            let want = if secs > 0.0 { 3.25 + -7.5 * secs } else { 3.25 };
            assert_eq!(got.to_bits(), want.to_bits());
            let got = 3.25_f32.extrapolate(&-7.5, secs);
            assert_eq!(got.to_bits(), (3.25_f32 + -7.5_f32 * secs as f32).to_bits());
        }
        assert_eq!(1.5_f64.extrapolate(&9.0, f64::NAN), 1.5);
        assert_eq!(1.5_f64.extrapolate(&9.0, -1.0), 1.5);
        assert_eq!([1.0_f32, 2.0].extrapolate(&[2.0, -4.0], 0.5), [2.0, 0.0]);
    }

    #[test]
    fn hermite_matches_the_textbook_cubic_and_is_exact_at_the_ends() {
        let (p0, p1, v0, v1, dt) = (0.3_f64, 1.7, -2.0, 5.0, 0.05);
        assert_eq!(p0.hermite(&p1, &v0, &v1, dt, 0.0), p0);
        assert_eq!(p0.hermite(&p1, &v0, &v1, dt, f64::NAN), p0);
        assert_eq!(p0.hermite(&p1, &v0, &v1, dt, 1.0), p1);
        assert_eq!(p0.hermite(&p1, &v0, &v1, dt, 1.5), p1);
        for k in 1..100 {
            let t = f64::from(k) / 100.0;
            let got = p0.hermite(&p1, &v0, &v1, dt, t);
            // Same polynomial, another order of operations: within a few ulps of 1.
            assert!((got - textbook(p0, p1, v0, v1, dt, t)).abs() < 1e-14, "{t}");
            // At rest, never a jitter.
            assert_eq!(p0.hermite(&p0, &0.0, &0.0, dt, t).to_bits(), p0.to_bits());
            let f = 0.3_f32.hermite(&0.3, &0.0, &0.0, dt, t);
            assert_eq!(f.to_bits(), 0.3_f32.to_bits());
        }
        // A cubic path is reproduced: x(s) = s³ − s over one tick of 2 s from s = 1 to s = 3.
        let x = |s: f64| s * s * s - s;
        let v = |s: f64| 3.0 * s * s - 1.0;
        for k in 1..10 {
            let t = f64::from(k) / 10.0;
            let got = x(1.0).hermite(&x(3.0), &v(1.0), &v(3.0), 2.0, t);
            assert!((got - x(1.0 + 2.0 * t)).abs() < 1e-12, "{t}");
        }
        let got = [0.0_f64, 1.0].hermite(&[1.0, 1.0], &[0.0, 0.0], &[3.0, 0.0], 1.0, 0.5);
        assert_eq!(got[1], 1.0);
        assert!((got[0] - 0.125).abs() < 1e-15);
    }
}
