//! Frame-rate independent exponential smoothing, next to the naive rule that is not.
//!
//! The "Main Loops, Refresh Rates, and Determinism" article uses
//! `current += (target - current) * rate` for interface animation. With a
//! constant `rate` the result after one second depends on how many frames the second had;
//! so it does with `rate = c·dt`. With `rate = 1 - 2^(-k·dt)` it does not: after any split
//! of a span `T` into frames, the remaining distance is the initial one times
//! `2^(-k·dt₁)·2^(-k·dt₂)·… = 2^(-k·T)`, so the distance halves every `1/k` seconds at any
//! refresh rate (up to floating-point rounding). The worked tests put both through
//! [`Timestep`](super::Timestep): the naive rule fails, this one passes.

/// The fraction of the remaining distance to cover in a step of `dt_secs` seconds so that the
/// distance halves every `1/k` seconds: `1 - 2^(-k·dt)`.
///
/// 0 for `dt_secs == 0` (a zero-length frame moves nothing), approaching 1 for long steps.
/// Uses std's `f64::exp2`, deterministic on one platform; use it for presentation (camera
/// follow, UI animation), not for simulation state that must match across machines.
///
/// # Examples
///
/// ```
/// use tickfold_testing::smoothing_rate;
///
/// assert_eq!(smoothing_rate(10.0, 0.1), 0.5); // k = 10: half the distance every 100 ms
/// assert_eq!(smoothing_rate(10.0, 0.0), 0.0);
/// ```
#[must_use]
pub fn smoothing_rate(k: f64, dt_secs: f64) -> f64 {
    1.0 - (-k * dt_secs).exp2()
}

/// Moves `current` towards `target` by [`smoothing_rate`]`(k, dt_secs)` of the distance:
/// frame-rate independent.
///
/// # Examples
///
/// One second at 30 Hz and at 240 Hz ends in the same place (to rounding):
///
/// ```
/// use tickfold_testing::smooth;
///
/// let run = |hz: u32| (0..hz).fold(0.0, |x, _| smooth(x, 1.0, 5.0, 1.0 / f64::from(hz)));
/// assert!((run(30) - run(240)).abs() < 1e-12);
/// assert!((run(30) - (1.0 - 2f64.powi(-5))).abs() < 1e-12);
/// ```
#[must_use]
pub fn smooth(current: f64, target: f64, k: f64, dt_secs: f64) -> f64 {
    current + (target - current) * smoothing_rate(k, dt_secs)
}

/// The naive rule, `current + (target - current) * rate`: **not** frame-rate independent.
///
/// After `n` steps the remaining distance is `(1 - rate)^n`, so a constant `rate` converges
/// eight times faster at 240 Hz than at 30 Hz, and `rate = c·dt` still depends on the step
/// (`(1 - c·dt)^(T/dt)` only tends to `e^(-c·T)` as `dt` shrinks). Kept for comparison.
///
/// # Examples
///
/// ```
/// use tickfold_testing::smooth_naive;
///
/// let run = |hz: u32| (0..hz).fold(0.0, |x, _| smooth_naive(x, 1.0, 3.5 / f64::from(hz)));
/// assert!((run(30) - run(240)).abs() > 1e-3); // rate = c·dt still depends on dt
/// ```
#[must_use]
pub fn smooth_naive(current: f64, target: f64, rate: f64) -> f64 {
    current + (target - current) * rate
}
