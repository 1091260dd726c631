//! Blending a value between the previous tick and the current one, for rendering.

/// A value a renderer can draw between two ticks.
///
/// `prev.interpolate(&next, alpha)` returns `prev` exactly at `alpha <= 0` (and for a NaN
/// alpha), `next` exactly at `alpha >= 1`, and in between the straight-line blend
/// `prev + (next − prev)·alpha`, which returns `prev` bit for bit whenever `prev == next`, so a
/// value that did not move never jitters. Alpha comes from [`Render::alpha`](crate::Render).
///
/// Implemented for `f32`, `f64`, arrays of interpolatable values and tuples of up to four;
/// with the feature `glam`, for glam **0.33**'s `Vec2`, `Vec3`, `Vec3A`, `Vec4` and `Quat`, and
/// with `mint`, for mint 0.5's vectors and quaternions. A glam of another version (0.30, say) is
/// another crate whose `Vec3` does not implement it: use the glam tickfold re-exports,
/// `tickfold::glam` (`tickfold_core::glam`), or depend on glam 0.33 yourself.
///
/// For your own types, `#[derive(Interpolate)]` (the facade's feature `derive`) blends a struct
/// field by field; or implement it by hand, field by field, with a shortest-arc slerp for
/// rotations.
///
/// # Examples
///
/// ```
/// use tickfold_core::Interpolate;
///
/// let (prev, next) = ([0.0_f32, 10.0], [1.0_f32, 10.0]);
/// assert_eq!(prev.interpolate(&next, 0.25), [0.25, 10.0]);
/// assert_eq!(prev.interpolate(&next, 1.0), next);
/// assert_eq!((1.0_f64, 2.0_f32).interpolate(&(3.0, 4.0), 0.5), (2.0, 3.0));
/// assert_eq!(0.1_f64.interpolate(&0.7, f64::NAN), 0.1);
/// ```
#[diagnostic::on_unimplemented(
    note = "tickfold implements `Interpolate` for `f32`, `f64`, arrays and tuples, and, with its \
            feature `glam`, for glam 0.33's `Vec2`, `Vec3`, `Vec3A`, `Vec4` and `Quat`: a glam \
            of another version is another crate, so use the re-export `tickfold::glam`",
    note = "for your own structs, `#[derive(Interpolate)]` (tickfold's feature `derive`)"
)]
pub trait Interpolate: Sized {
    /// The value at `alpha` between `self` (the previous tick) and `next` (the current one).
    #[must_use]
    fn interpolate(&self, next: &Self, alpha: f64) -> Self;
}

/// The rule every straight-line blend shares: `next` at `alpha >= 1`, `prev` at `alpha <= 0` or
/// NaN, and `mid()` (the blend itself) only strictly in between.
#[inline]
pub(crate) fn by_alpha<T: Copy>(prev: &T, next: &T, alpha: f64, mid: impl FnOnce() -> T) -> T {
    if alpha >= 1.0 {
        *next
    } else if alpha > 0.0 {
        mid()
    } else {
        *prev
    }
}

macro_rules! float {
    ($t:ty) => {
        impl Interpolate for $t {
            #[inline]
            fn interpolate(&self, next: &Self, alpha: f64) -> Self {
                by_alpha(self, next, alpha, || {
                    *self + (*next - *self) * (alpha as $t)
                })
            }
        }
    };
}

float!(f32);
float!(f64);

impl<T: Interpolate, const N: usize> Interpolate for [T; N] {
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        core::array::from_fn(|i| self[i].interpolate(&next[i], alpha))
    }
}

macro_rules! tuple {
    ($($name:ident $i:tt),+) => {
        impl<$($name: Interpolate),+> Interpolate for ($($name,)+) {
            fn interpolate(&self, next: &Self, alpha: f64) -> Self {
                ($(self.$i.interpolate(&next.$i, alpha),)+)
            }
        }
    };
}

tuple!(A 0);
tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_exact_and_equal_values_never_move() {
        let (a, b) = (0.1_f64, 0.7_f64);
        assert_eq!(a.interpolate(&b, 0.0), a);
        assert_eq!(a.interpolate(&b, 1.0), b);
        assert_eq!(a.interpolate(&b, 2.0), b);
        assert_eq!(a.interpolate(&b, -1.0), a);
        assert_eq!(a.interpolate(&b, f64::NAN), a);
        for k in 0..=1000 {
            let alpha = f64::from(k) / 1000.0;
            assert_eq!(a.interpolate(&a, alpha).to_bits(), a.to_bits());
            let v = a.interpolate(&b, alpha);
            assert!((a..=b).contains(&v), "{v} at {alpha}");
            let f = 3.3_f32.interpolate(&3.3, alpha);
            assert_eq!(f.to_bits(), 3.3_f32.to_bits());
        }
    }

    #[test]
    fn arrays_and_tuples_blend_each_part() {
        let p = [[0.0_f32, 1.0], [2.0, 3.0]];
        let n = [[1.0_f32, 1.0], [4.0, 3.0]];
        assert_eq!(p.interpolate(&n, 0.5), [[0.5, 1.0], [3.0, 3.0]]);
        let t = (0.0_f64, 1.0_f32, [0.0_f64; 2], 8.0_f32);
        let u = (2.0_f64, 3.0_f32, [4.0_f64; 2], 8.0_f32);
        assert_eq!(t.interpolate(&u, 0.5), (1.0, 2.0, [2.0; 2], 8.0));
    }
}
