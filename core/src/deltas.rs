//! What the latest step covered, exactly: its real and virtual deltas, the real→virtual
//! mapping it applied (for [`InputQueue`](crate::InputQueue)), and virtual time wrapped
//! around a period for shaders.

use crate::rate::Period;
use crate::span::StepSpan;
use crate::state::{Inner, LoopState};
use crate::time::Nanos;

impl<T> Inner<T> {
    /// Records the span the coming step starts from (the hook at the top of every step).
    #[inline(always)]
    pub(crate) fn begin_span(&mut self) {
        self.span = StepSpan {
            real0: self.real.now(),
            virt0: self.virt,
            rem0: self.virt_rem,
            scale: self.scale,
            paused: self.paused,
        };
    }
}

/// Per-step deltas and wrapped time: exact integer accessors, never accumulated floats.
impl<T> LoopState<T> {
    /// The real time the latest step covered: its `now` less the previous `now` (the first
    /// step measures from the start). 0 before the first step, for a step whose `now` repeats
    /// the latest one, and for one whose clock went backwards (no time passed).
    ///
    /// Exact, and the real deltas of all steps add up to [`real_time`](Self::real_time).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period, TimeScale};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// state.set_time_scale(TimeScale::ratio(1, 3)?);
    /// let _ = state.advance(Nanos(10));
    /// let _ = state.advance(Nanos(20));
    /// assert_eq!(state.real_delta(), Nanos(10));
    /// // 20/3 ns of virtual time so far: 3 (rounded down) after the first step, 6 now.
    /// assert_eq!(state.virtual_delta(), Nanos(3));
    /// assert_eq!(state.virtual_time(), Nanos(6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn real_delta(&self) -> Nanos {
        let s = &*self.inner;
        Nanos(s.real.now().saturating_sub(s.span.real0))
    }

    /// The virtual time the latest step covered: real time less pauses, scaled exactly, plus
    /// any ticks single-stepped while paused ([`step_ticks`](Self::step_ticks)). It is the
    /// difference of the whole ns of [`virtual_time`](Self::virtual_time) before and after the
    /// step (the fraction of a ns a time scale leaves is carried, never lost), so the virtual
    /// deltas of all steps add up to `virtual_time()` exactly, and a pause gives 0.
    ///
    /// Like Bevy's `Time<Virtual>::delta`, but exact: use `virtual_delta().as_secs_f64()` for
    /// effects that want seconds, never a sum of float deltas.
    #[must_use]
    pub fn virtual_delta(&self) -> Nanos {
        let s = &*self.inner;
        Nanos(s.virt.saturating_sub(s.span.virt0))
    }

    /// Virtual time since the start modulo `period`, rounded down to whole ns: in
    /// `[0, period)`, exact at any distance (no float ever accumulates), like Bevy's
    /// `Time::elapsed_wrapped` with its `wrap_period`. Feed it to shaders that animate
    /// periodically: an `f32` of seconds since the start loses precision after hours, this
    /// does not.
    ///
    /// `period` is an exact [`Period`], so wrapping at 1/60 s or 1/3 s does not drift.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// // A day and 1.25 s later (the max frame delta drops ticks, not virtual time).
    /// let _ = state.advance(Nanos(86_401_250_000_000));
    /// let wrap = Period::from_secs_ratio(1, 1)?;
    /// assert_eq!(state.elapsed_wrapped(wrap), Nanos::from_millis(250));
    /// assert_eq!(state.elapsed_secs_wrapped(wrap), 0.25);
    /// // A third of a second, exactly: 86 401.25 s is 259 203 thirds and 0.25 s.
    /// let third = Period::from_secs_ratio(1, 3)?;
    /// assert_eq!(state.elapsed_wrapped(third), Nanos(250_000_000));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn elapsed_wrapped(&self, period: Period) -> Nanos {
        Nanos(wrap(self.inner.virt, period))
    }

    /// [`elapsed_wrapped`](Self::elapsed_wrapped) in seconds as an `f32`, for a shader
    /// uniform: computed from the exact wrapped ns, so its precision depends on the period,
    /// never on how long the loop has run (like Bevy's `elapsed_secs_wrapped`).
    #[must_use]
    pub fn elapsed_secs_wrapped(&self, period: Period) -> f32 {
        (wrap(self.inner.virt, period) as f64 / 1e9) as f32
    }
}

/// `floor(v mod period)` for a period of `num/den` ns: `v − ceil(k·num/den)` with `k` the
/// whole periods in `v` (`k·num ≤ v·den < 2^128`, so nothing overflows).
fn wrap(v: u64, period: Period) -> u64 {
    let (num, den) = period.as_nanos_ratio();
    let k = u128::from(v) * u128::from(den) / u128::from(num);
    let start = (k * u128::from(num)).div_ceil(u128::from(den));
    // start ≤ v since k·num/den ≤ v.
    v - u64::try_from(start).unwrap_or(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_is_exact_for_fractional_periods() {
        let third = Period::from_secs_ratio(1, 3).unwrap();
        // 1/3 s = 333 333 333.33… ns: 1 s is exactly three periods.
        assert_eq!(wrap(1_000_000_000, third), 0);
        assert_eq!(wrap(999_999_999, third), 333_333_332);
        assert_eq!(wrap(333_333_334, third), 0);
        assert_eq!(wrap(333_333_333, third), 333_333_333);
        assert_eq!(
            wrap(u64::MAX, Period::from_hz(1).unwrap()),
            u64::MAX % 1_000_000_000
        );
    }
}
