//! [`Interpolate`] for glam's vectors and rotations (feature `glam`: glam 0.33, the series Bevy 0.20 uses).
//!
//! Every impl keeps the trait's contract: `prev` exactly at `alpha <= 0` and for a NaN alpha,
//! `next` exactly at `alpha >= 1`, and `prev` bit for bit whenever `prev == next`, so a value
//! that did not move never jitters. Vectors blend as `prev + (next − prev)·alpha` per lane.
//!
//! Rotations: [`Quat`] takes the shortest-arc slerp between the normalized inputs
//! (`q` and `−q` are the same rotation; the path never takes the long way round, and opposite
//! inputs never panic). [`Nlerp`] is the cheaper normalized lerp, also along the shortest arc,
//! whose speed varies slightly over the arc. glam is built with `libm`, so the transcendental
//! functions slerp needs give the same bits on every platform.
//!
//! [`Extrapolate`]: vectors move by their own type as velocity; a [`Quat`] by an angular
//! velocity (`Vec3`, radians per second, world frame), extrapolated as
//! `exp(ω·secs)·q` and blended by the cubic quaternion curve of Kim, Kim and Shin ("A General
//! Construction Scheme for Unit Quaternion Curves with Simple High Order Derivatives",
//! SIGGRAPH 1995), the curve `bevy_transform_interpolation` uses for rotations.

use ::glam::{Quat, Vec2, Vec3, Vec3A, Vec4};

use crate::values::extrapolate::hermite_weights;
use crate::values::interpolate::by_alpha;
use crate::{Extrapolate, Interpolate};

macro_rules! vector {
    ($($t:ty),+) => {$(
        impl Interpolate for $t {
            #[inline]
            fn interpolate(&self, next: &Self, alpha: f64) -> Self {
                by_alpha(self, next, alpha, || *self + (*next - *self) * (alpha as f32))
            }
        }
    )+};
}

vector!(Vec2, Vec3, Vec3A, Vec4);

crate::values::extrapolate::linear_motion!(f32; Vec2, Vec3, Vec3A, Vec4);

impl Extrapolate for Quat {
    /// Angular velocity: axis times rate, radians per second, in the world frame.
    type Velocity = Vec3;

    /// `exp(ω·secs)·q`, normalized: `Quat::from_scaled_axis(ω·secs) * q`. Exactly `self` when
    /// `ω·secs` is zero (or `secs <= 0`, NaN).
    #[inline]
    fn extrapolate(&self, velocity: &Vec3, secs: f64) -> Quat {
        let turn = *velocity * (secs as f32);
        if secs > 0.0 && turn != Vec3::ZERO {
            (Quat::from_scaled_axis(turn) * *self).normalize()
        } else {
            *self
        }
    }

    /// The cumulative-basis cubic of Kim, Kim and Shin (1995) with world-frame angular
    /// velocities: with `a = ω0·dt/3` and `b = ω1·dt/3`, the control rotations are
    /// `q1 = exp(a)·q0` and `q2 = exp(−b)·qn`, the middle third turns by
    /// `m = log(q2·q1⁻¹)` (shifted by whole turns along its axis to lie nearest `(a + b)/2`, so
    /// a fast spin of more than half a turn per tick keeps its direction), and at `t`
    /// the rotation is `exp(β3·b)·exp(β2·m)·exp(β1·a)·q0`, normalized, with the cumulative
    /// Bernstein weights `β1 = 1 − (1 − t)³`, `β2 = 3t² − 2t³`, `β3 = t³`. Exact at both ends.
    fn hermite(&self, next: &Quat, v0: &Vec3, v1: &Vec3, dt_secs: f64, alpha: f64) -> Quat {
        by_alpha(self, next, alpha, || {
            if *self == *next && *v0 == Vec3::ZERO && *v1 == Vec3::ZERO {
                return *self;
            }
            let third = (dt_secs / 3.0) as f32;
            let (a, b) = (*v0 * third, *v1 * third);
            let m = quat_hermite_middle(*self, *next, a, b);
            let t = alpha;
            let s = 1.0 - t;
            let (beta1, beta2, beta3) = (
                (1.0 - s * s * s) as f32,
                hermite_weights(t).0 as f32,
                (t * t * t) as f32,
            );
            (Quat::from_scaled_axis(b * beta3)
                * Quat::from_scaled_axis(m * beta2)
                * Quat::from_scaled_axis(a * beta1)
                * self.normalize())
            .normalize()
        })
    }
}

/// The middle third of the rotation Hermite, unwrapped to the whole turn nearest `(a + b)/2`.
#[inline]
fn quat_hermite_middle(q0: Quat, qn: Quat, a: Vec3, b: Vec3) -> Vec3 {
    let q1 = Quat::from_scaled_axis(a) * q0.normalize();
    let q2 = Quat::from_scaled_axis(-b) * qn.normalize();
    let m = (q2 * q1.inverse()).to_scaled_axis();
    let axis = m.normalize_or_zero();
    let turn = core::f32::consts::TAU;
    let wanted = (a + b) * 0.5;
    let extra = axis.dot(wanted - m);
    m + axis * (turn * round(extra / turn))
}

/// The nearest whole number, halves away from zero, without `std` (an `as` cast saturates, so
/// a huge or NaN input gives a huge or zero shift, never a panic).
#[inline]
fn round(x: f32) -> f32 {
    let half = if x >= 0.0 { 0.5 } else { -0.5 };
    ((x + half) as i64) as f32
}

impl Interpolate for Quat {
    /// Shortest-arc slerp between the normalized rotations; exact at both ends.
    #[inline]
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        by_alpha(self, next, alpha, || {
            if *self == *next {
                *self
            } else {
                // glam's slerp flips `next` when the dot product is negative (shortest arc) and
                // falls back to a normalized lerp when the two are nearly parallel.
                self.normalize().slerp(next.normalize(), alpha as f32)
            }
        })
    }
}

/// (Feature `glam`.) A rotation blended by normalized lerp instead of slerp: cheaper (no trigonometry), along the
/// same shortest arc, with a small speed variation across the arc (none at the ends).
///
/// # Examples
///
/// The ends are exact and the midpoint of a quarter turn matches slerp's.
///
/// ```
/// use glam::Quat;
/// use tickfold_core::{Interpolate, Nlerp};
///
/// let (a, b) = (Nlerp(Quat::IDENTITY), Nlerp(Quat::from_rotation_z(1.0)));
/// assert_eq!(a.interpolate(&b, 1.0), b);
/// let mid = a.interpolate(&b, 0.5).0;
/// assert!(mid.angle_between(Quat::from_rotation_z(0.5)) < 1e-3);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Nlerp(pub Quat);

impl Interpolate for Nlerp {
    #[inline]
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        by_alpha(self, next, alpha, || {
            if self.0 == next.0 {
                *self
            } else {
                // glam's `lerp` negates `next` when the dot product is negative and normalizes.
                Nlerp(self.0.normalize().lerp(next.0.normalize(), alpha as f32))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_are_exact_at_the_ends_and_never_jitter() {
        let (a, b) = (Vec3::new(0.1, -2.0, 7.3), Vec3::new(4.0, -2.0, 1.0));
        assert_eq!(a.interpolate(&b, 0.0), a);
        assert_eq!(a.interpolate(&b, f64::NAN), a);
        assert_eq!(a.interpolate(&b, 1.0), b);
        assert_eq!(a.interpolate(&b, 1.5), b);
        for k in 0..=100 {
            let alpha = f64::from(k) / 100.0;
            assert_eq!(a.interpolate(&a, alpha), a);
            let v = a.interpolate(&b, alpha);
            assert_eq!(v.y, -2.0, "an unchanged lane never moves");
            assert!((0.1..=4.0).contains(&v.x));
        }
        let (p, q) = (Vec2::new(1.0, 2.0), Vec2::new(3.0, 2.0));
        assert_eq!(p.interpolate(&q, 0.5), Vec2::new(2.0, 2.0));
        let (p, q) = (Vec3A::ZERO, Vec3A::ONE);
        assert_eq!(p.interpolate(&q, 0.25), Vec3A::splat(0.25));
        let (p, q) = (Vec4::ZERO, Vec4::splat(2.0));
        assert_eq!(p.interpolate(&q, 0.5), Vec4::ONE);
    }

    #[test]
    fn quat_slerp_takes_the_shortest_arc_and_is_exact_at_the_ends() {
        let a = Quat::from_rotation_y(0.3);
        let b = Quat::from_rotation_y(1.3);
        assert_eq!(a.interpolate(&b, 0.0), a);
        assert_eq!(a.interpolate(&b, f64::NAN), a);
        assert_eq!(a.interpolate(&b, 1.0), b);
        let mid = a.interpolate(&b, 0.5);
        assert!(mid.angle_between(Quat::from_rotation_y(0.8)) < 1e-4);
        // -b is the same rotation as b: the blend must not go the long way round.
        let mid_neg = a.interpolate(&-b, 0.5);
        assert!(mid_neg.angle_between(Quat::from_rotation_y(0.8)) < 1e-4);
        // Opposite rotations (a half turn apart) never panic and stay unit length.
        let c = Quat::from_rotation_x(core::f32::consts::PI);
        let h = Quat::IDENTITY.interpolate(&c, 0.5);
        assert!((h.length() - 1.0).abs() < 1e-4);
        for k in 0..=100 {
            let alpha = f64::from(k) / 100.0;
            assert_eq!(a.interpolate(&a, alpha), a, "equal rotations never jitter");
            assert_eq!(Nlerp(a).interpolate(&Nlerp(a), alpha), Nlerp(a));
        }
        let n = Nlerp(a).interpolate(&Nlerp(-b), 0.5).0;
        assert!(n.angle_between(Quat::from_rotation_y(0.8)) < 1e-3);
        assert_eq!(Nlerp(a).interpolate(&Nlerp(b), 1.0), Nlerp(b));
    }

    #[test]
    fn vector_motion_matches_the_formulas_bit_for_bit() {
        let (p, q) = (Vec3::new(0.5, -1.0, 2.0), Vec3::new(1.0, -0.5, 2.5));
        let (v0, v1, dt) = (
            Vec3::new(3.0, 0.0, -1.0),
            Vec3::new(2.0, 4.0, 0.5),
            1.0 / 60.0,
        );
        for k in 0..=64 {
            let alpha = f64::from(k) / 64.0;
            let want = if alpha > 0.0 {
                q + v1 * ((alpha * dt) as f32)
            } else {
                q
            };
            assert_eq!(q.extrapolate(&v1, alpha * dt), want);
            let h = p.hermite(&q, &v0, &v1, dt, alpha);
            if k == 0 || k == 64 {
                assert_eq!(h, if k == 0 { p } else { q });
                continue;
            }
            let t = alpha;
            let (t2, t3) = (t * t, t * t * t);
            let (h01, h10, h11) = (3.0 * t2 - 2.0 * t3, t3 - 2.0 * t2 + t, t3 - t2);
            let want =
                p + (q - p) * (h01 as f32) + (v0 * (h10 as f32) + v1 * (h11 as f32)) * (dt as f32);
            assert_eq!(h, want, "{alpha}");
            assert_eq!(p.hermite(&p, &Vec3::ZERO, &Vec3::ZERO, dt, alpha), p);
        }
        let (a, b) = (Vec2::ONE, Vec2::ZERO);
        assert_eq!(a.extrapolate(&Vec2::X, 2.0), Vec2::new(3.0, 1.0));
        assert_eq!(
            a.hermite(&b, &Vec2::ZERO, &Vec2::ZERO, 1.0, 0.5),
            Vec2::splat(0.5)
        );
        assert_eq!(
            Vec3A::ZERO.extrapolate(&Vec3A::ONE, 0.25),
            Vec3A::splat(0.25)
        );
        assert_eq!(Vec4::ZERO.extrapolate(&Vec4::ONE, -0.25), Vec4::ZERO);
    }

    #[test]
    fn rotation_extrapolation_integrates_the_angular_velocity() {
        let q = Quat::from_rotation_x(0.4);
        let w = Vec3::new(0.0, 0.0, 3.0);
        for k in 1..=10 {
            let secs = f64::from(k) * 0.01;
            let want = (Quat::from_scaled_axis(w * secs as f32) * q).normalize();
            assert_eq!(q.extrapolate(&w, secs), want);
            let spun = Quat::from_rotation_z(3.0 * secs as f32) * q;
            assert!(q.extrapolate(&w, secs).angle_between(spun) < 1e-5);
        }
        assert_eq!(q.extrapolate(&w, 0.0), q);
        assert_eq!(q.extrapolate(&Vec3::ZERO, 0.5), q);
    }

    #[test]
    fn rotation_hermite_is_exact_at_the_ends_and_follows_a_steady_spin() {
        let dt = 0.1;
        let w = Vec3::new(0.0, 2.0, 0.0);
        let q0 = Quat::from_rotation_x(0.3);
        let q1 = (Quat::from_scaled_axis(w * dt as f32) * q0).normalize();
        assert_eq!(q0.hermite(&q1, &w, &w, dt, 0.0), q0);
        assert_eq!(q0.hermite(&q1, &w, &w, dt, 1.0), q1);
        for k in 1..20 {
            let t = f64::from(k) / 20.0;
            // A steady spin is its own Hermite curve: the blend is exp(ω·t·dt)·q0.
            let want = Quat::from_scaled_axis(w * (t * dt) as f32) * q0;
            let got = q0.hermite(&q1, &w, &w, dt, t);
            // Each component within 1e-5 (`angle_between` goes through `acos`, whose f32
            // result is too coarse near 0 for this check).
            let close = |q: Quat| got.abs_diff_eq(q, 1e-5);
            assert!(close(want) || close(-want), "{t}: {got:?} {want:?}");
            assert!((got.length() - 1.0).abs() < 1e-5);
            assert_eq!(q0.hermite(&q0, &Vec3::ZERO, &Vec3::ZERO, dt, t), q0);
        }
        // Three quarters of a turn per tick: the middle third unwraps, so the blend turns the
        // way the velocity says, not back the short way.
        let fast = Vec3::new(0.0, 0.0, 1.5 * core::f32::consts::PI / dt as f32);
        let end = Quat::from_scaled_axis(fast * dt as f32) * q0;
        let want = Quat::from_scaled_axis(fast * (0.5 * dt) as f32) * q0;
        let got = q0.hermite(&end, &fast, &fast, dt, 0.5);
        let close = |q: Quat| got.abs_diff_eq(q, 1e-5);
        assert!(close(want) || close(-want), "{got:?} {want:?}");
    }
}
