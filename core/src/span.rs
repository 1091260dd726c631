//! The span of real time the latest step covered and its exact real→virtual mapping: the
//! real-time layer's record of a step, read by the deltas and by input attribution.

use crate::rate::TimeScale;
use crate::virt::SubNanos;

/// The span of real time the latest step covered and the exact mapping it applied to it:
/// recorded at the start of every step (one small copy), before anything moves.
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct StepSpan {
    /// Real time (ns since start) at the start of the step: the previous `now`.
    real0: u64,
    /// Virtual time (whole ns) at the start of the step.
    virt0: u64,
    /// The exact fraction of a ns virtual time carried at the start of the step.
    rem0: SubNanos,
    /// The scale the step applied (constant within a step).
    scale: TimeScale,
    /// Whether virtual time was frozen over the step (a single step while paused moves it
    /// only at the step's end).
    paused: bool,
}

impl StepSpan {
    /// Before the first step: nothing covered yet.
    pub(crate) fn new(scale: TimeScale, paused: bool) -> StepSpan {
        StepSpan {
            real0: 0,
            virt0: 0,
            rem0: SubNanos::new(scale),
            scale,
            paused,
        }
    }

    /// The span recorded at the start of a step, from real time `real0` (ns since start) and
    /// virtual time `virt0` carrying `rem0`, under `scale`, frozen if `paused`.
    #[inline(always)]
    pub(crate) fn at(
        real0: u64,
        virt0: u64,
        rem0: SubNanos,
        scale: TimeScale,
        paused: bool,
    ) -> StepSpan {
        StepSpan {
            real0,
            virt0,
            rem0,
            scale,
            paused,
        }
    }

    /// Real time (ns since start) at the start of the latest step: the previous `now`.
    #[inline]
    pub(crate) fn real_start(&self) -> u64 {
        self.real0
    }

    /// Virtual time (whole ns) at the start of the latest step.
    #[inline]
    pub(crate) fn virtual_start(&self) -> u64 {
        self.virt0
    }

    /// Whether the fraction of a ns carried fits the scale (a loaded save is checked).
    #[cfg(feature = "serde")]
    pub(crate) fn is_valid(&self) -> bool {
        self.rem0.is_valid_for(self.scale)
    }

    /// The virtual time (whole ns, rounded down) of real time `real` (ns since start), by this
    /// step's mapping: real time before the span is taken as its start.
    #[inline]
    pub(crate) fn virtual_at(&self, real: u64) -> u64 {
        if self.paused {
            return self.virt0;
        }
        let mut rem = self.rem0;
        let dv = rem.advance(self.scale, real.saturating_sub(self.real0));
        self.virt0.saturating_add(dv)
    }
}
