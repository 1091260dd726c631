//! The span of real time the latest step covered and its exact real→virtual mapping: the
//! real-time layer's record of a step, read by the deltas and by input attribution.

use core::fmt;

use crate::time::sub_nanos::SubNanos;
use crate::values::rate::TimeScale;

/// The span of real time the latest step covered and the exact mapping it applied to it:
/// recorded at the start of every step, before anything moves. The fast path, where virtual
/// time is real time, records only where the span starts and that the mapping was the plain
/// one ([`begin_plain`](Self::begin_plain)): the mapping's fields are then left as an earlier
/// step wrote them and read as the plain mapping ([`mapping`](Self::mapping)), in comparisons
/// and in the save too, which keeps its fields.
#[derive(Copy, Clone)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "SavedSpan", from = "SavedSpan")
)]
pub(crate) struct StepSpan {
    /// Real time (ns since start) at the start of the step: the previous `now`.
    real0: u64,
    /// Virtual time (whole ns) at the start of the step.
    virt0: u64,
    /// The exact fraction of a ns virtual time carried at the start of the step.
    rem0: SubNanos,
    /// The scale the step applied (constant within a step).
    scale: TimeScale,
    /// Whether virtual time was frozen over the step, or the mapping was the plain one.
    how: How,
}

/// How virtual time moved over a step: by `rem0` and `scale`, or frozen (a single step while
/// paused moves it only at the step's end), or by the plain mapping (`rem0` and `scale` do not
/// count). One field, so the general path writes what it wrote before the plain mapping had
/// a mark.
#[derive(Copy, Clone, Debug, PartialEq)]
enum How {
    Running,
    Paused,
    Plain,
}

/// A step's mapping from real to virtual time: the fraction of a ns carried at its start,
/// the scale, and whether virtual time was frozen.
pub(crate) type Mapping = (SubNanos, TimeScale, bool);

impl StepSpan {
    /// Before the first step: nothing covered yet.
    pub(crate) fn new(scale: TimeScale, paused: bool) -> StepSpan {
        StepSpan::mapped(0, 0, (SubNanos::new(scale), scale, paused))
    }

    /// The span from `real0` real and `virt0` virtual ns, by `mapping`.
    #[inline(always)]
    pub(crate) fn mapped(real0: u64, virt0: u64, mapping: Mapping) -> StepSpan {
        let (rem0, scale, paused) = mapping;
        StepSpan {
            real0,
            virt0,
            rem0,
            scale,
            how: if paused { How::Paused } else { How::Running },
        }
    }

    /// The plain mapping: virtual time is real time (no fraction of a ns, in whole-ns units,
    /// a scale of 1, running).
    #[inline]
    pub(crate) fn plain_mapping() -> Mapping {
        (SubNanos::new(TimeScale::ONE), TimeScale::ONE, false)
    }

    /// Records a span from `real0` real and `virt0` virtual ns by the plain mapping (the fast
    /// path's): three words written, the mapping's own fields left alone.
    #[inline(always)]
    pub(crate) fn begin_plain(&mut self, real0: u64, virt0: u64) {
        self.real0 = real0;
        self.virt0 = virt0;
        self.how = How::Plain;
    }

    /// The mapping the step applied.
    #[inline]
    pub(crate) fn mapping(&self) -> Mapping {
        match self.how {
            How::Plain => StepSpan::plain_mapping(),
            how => (self.rem0, self.scale, how == How::Paused),
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

    /// The virtual time (whole ns, rounded down) of real time `real` (ns since start), by this
    /// step's mapping: real time before the span is taken as its start.
    #[inline]
    pub(crate) fn virtual_at(&self, real: u64) -> u64 {
        let (mut rem, scale, paused) = self.mapping();
        if paused {
            return self.virt0;
        }
        let dv = rem.advance(scale, real.saturating_sub(self.real0));
        self.virt0.saturating_add(dv)
    }

    /// Whether the carried fraction keeps its invariants for the scale (a loaded span).
    #[cfg(feature = "serde")]
    pub(crate) fn is_valid(&self) -> bool {
        let (rem0, scale, _) = self.mapping();
        rem0.is_valid_for(scale)
    }
}

impl PartialEq for StepSpan {
    fn eq(&self, other: &StepSpan) -> bool {
        self.real0 == other.real0 && self.virt0 == other.virt0 && self.mapping() == other.mapping()
    }
}

impl fmt::Debug for StepSpan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rem0, scale, paused) = self.mapping();
        f.debug_struct("StepSpan")
            .field("real0", &self.real0)
            .field("virt0", &self.virt0)
            .field("rem0", &rem0)
            .field("scale", &scale)
            .field("paused", &paused)
            .finish()
    }
}

/// The span as saved: its fields, the mapping always written out.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename = "StepSpan")]
struct SavedSpan {
    real0: u64,
    virt0: u64,
    rem0: SubNanos,
    scale: TimeScale,
    paused: bool,
}

#[cfg(feature = "serde")]
impl From<StepSpan> for SavedSpan {
    fn from(s: StepSpan) -> SavedSpan {
        let (rem0, scale, paused) = s.mapping();
        SavedSpan {
            real0: s.real0,
            virt0: s.virt0,
            rem0,
            scale,
            paused,
        }
    }
}

#[cfg(feature = "serde")]
impl From<SavedSpan> for StepSpan {
    fn from(s: SavedSpan) -> StepSpan {
        StepSpan::mapped(s.real0, s.virt0, (s.rem0, s.scale, s.paused))
    }
}
