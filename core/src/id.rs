//! The one leaf every layer names clocks by.

/// Which clock an event belongs to. Clock 0 is the loop's main clock; further clocks are
/// numbered in declaration order.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct ClockId(pub u16);
