//! [`Interpolate`] for mint's interchange types (feature `mint`): `Vector2`, `Vector3` and
//! `Vector4` of `f32` or `f64` blend lane by lane like the crate's arrays; `Quaternion<f32>` and
//! `Quaternion<f64>` take the shortest-arc normalized lerp (a quaternion and its negation are
//! the same rotation, so the blend never goes the long way round). Every impl keeps the trait's
//! contract: `prev` exactly at `alpha <= 0` and for a NaN alpha, `next` exactly at `alpha >= 1`.

use mint::{Quaternion, Vector2, Vector3, Vector4};

use crate::Interpolate;
use crate::values::interpolate::by_alpha;

macro_rules! vector {
    ($v:ident { $($f:ident),+ }) => {
        impl<T: Interpolate + Copy> Interpolate for $v<T> {
            #[inline]
            fn interpolate(&self, next: &Self, alpha: f64) -> Self {
                $v { $($f: self.$f.interpolate(&next.$f, alpha)),+ }
            }
        }
    };
}

vector!(Vector2 { x, y });
vector!(Vector3 { x, y, z });
vector!(Vector4 { x, y, z, w });

macro_rules! quaternion {
    ($($t:ty),+) => {$(
        impl Interpolate for Quaternion<$t> {
            /// Normalized lerp along the shortest arc; exact at both ends.
            #[inline]
            fn interpolate(&self, next: &Self, alpha: f64) -> Self {
                by_alpha(self, next, alpha, || {
                    let (a, b) = (*self, *next);
                    if a == b {
                        return a;
                    }
                    let dot = a.s * b.s + a.v.x * b.v.x + a.v.y * b.v.y + a.v.z * b.v.z;
                    let sign: $t = if dot < 0.0 { -1.0 } else { 1.0 };
                    let t = alpha as $t;
                    let lerp = |x: $t, y: $t| x + (y * sign - x) * t;
                    let q = [
                        lerp(a.v.x, b.v.x),
                        lerp(a.v.y, b.v.y),
                        lerp(a.v.z, b.v.z),
                        lerp(a.s, b.s),
                    ];
                    let len2 = q.iter().map(|c| c * c).sum::<$t>();
                    if len2 > 0.0 {
                        // A square root that needs neither `std` nor `libm`.
                        let inv = 1.0 / sqrt(len2 as f64) as $t;
                        Quaternion {
                            v: Vector3 { x: q[0] * inv, y: q[1] * inv, z: q[2] * inv },
                            s: q[3] * inv,
                        }
                    } else {
                        a
                    }
                })
            }
        }
    )+};
}

quaternion!(f32, f64);

/// A square root without `std` or `libm`: six Newton steps on `f64` from a first guess within
/// a factor of two (the halved exponent), accurate to about an ulp; the same bits everywhere.
fn sqrt(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return x;
    }
    // Halving the exponent gives a first guess within a factor of two.
    let mut y = f64::from_bits((x.to_bits() >> 1) + (1023_u64 << 51));
    for _ in 0..6 {
        y = 0.5 * (y + x / y);
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_blend_lane_by_lane_and_are_exact_at_the_ends() {
        let a = Vector3 {
            x: 0.0_f32,
            y: 2.0,
            z: -4.0,
        };
        let b = Vector3 {
            x: 1.0_f32,
            y: 2.0,
            z: 4.0,
        };
        assert_eq!(
            a.interpolate(&b, 0.25),
            Vector3 {
                x: 0.25,
                y: 2.0,
                z: -2.0
            }
        );
        assert_eq!(a.interpolate(&b, 0.0), a);
        assert_eq!(a.interpolate(&b, f64::NAN), a);
        assert_eq!(a.interpolate(&b, 1.5), b);
        let p = Vector2 { x: 1.0_f64, y: 3.0 };
        assert_eq!(
            p.interpolate(&Vector2 { x: 3.0, y: 3.0 }, 0.5),
            Vector2 { x: 2.0, y: 3.0 }
        );
        let w = Vector4 {
            x: 0.0_f32,
            y: 0.0,
            z: 0.0,
            w: 0.0,
        };
        let one = Vector4 {
            x: 2.0_f32,
            y: 2.0,
            z: 2.0,
            w: 2.0,
        };
        assert_eq!(
            w.interpolate(&one, 0.5),
            Vector4 {
                x: 1.0,
                y: 1.0,
                z: 1.0,
                w: 1.0
            }
        );
    }

    fn about_z(angle: f64) -> Quaternion<f64> {
        let (s, c) = ((angle / 2.0).sin(), (angle / 2.0).cos());
        Quaternion {
            v: Vector3 {
                x: 0.0,
                y: 0.0,
                z: s,
            },
            s: c,
        }
    }

    #[test]
    fn quaternions_take_the_shortest_arc_and_stay_unit_length() {
        let (a, b) = (about_z(0.2), about_z(1.0));
        assert_eq!(a.interpolate(&b, 0.0), a);
        assert_eq!(a.interpolate(&b, 1.0), b);
        assert_eq!(
            a.interpolate(&a, 0.3),
            a,
            "a rotation that did not turn never jitters"
        );
        let mid = a.interpolate(&b, 0.5);
        let want = about_z(0.6);
        assert!((mid.s - want.s).abs() < 1e-12 && (mid.v.z - want.v.z).abs() < 1e-12);
        // -b is the same rotation as b: the blend must not go the long way round.
        let neg = Quaternion {
            v: Vector3 {
                x: -b.v.x,
                y: -b.v.y,
                z: -b.v.z,
            },
            s: -b.s,
        };
        let mid = a.interpolate(&neg, 0.5);
        assert!((mid.s - want.s).abs() < 1e-12 && (mid.v.z - want.v.z).abs() < 1e-12);
        let q32 = Quaternion {
            v: Vector3 {
                x: 0.0_f32,
                y: 0.0,
                z: 0.0,
            },
            s: 1.0,
        };
        let r32 = Quaternion {
            v: Vector3 {
                x: 1.0_f32,
                y: 0.0,
                z: 0.0,
            },
            s: 0.0,
        };
        let h = q32.interpolate(&r32, 0.5);
        let len = (h.s * h.s + h.v.x * h.v.x).sqrt();
        assert!((len - 1.0).abs() < 1e-6);
        assert!((sqrt(2.0) - core::f64::consts::SQRT_2).abs() < 1e-15);
    }
}
