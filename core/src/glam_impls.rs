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

use ::glam::{Quat, Vec2, Vec3, Vec3A, Vec4};

use crate::Interpolate;
use crate::interpolate::by_alpha;

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

/// A rotation blended by normalized lerp instead of slerp: cheaper (no trigonometry), along the
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
}
