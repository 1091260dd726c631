//! The one leaf every layer names clocks by: a [`ClockId`], or a [`ClockRef`] (an id or a
//! name) where a control takes either.

use alloc::borrow::Cow;
use alloc::string::String;

/// Which clock an event belongs to. Clock 0 is the loop's main clock; further clocks are
/// numbered in declaration order.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct ClockId(pub u16);

/// A clock of a loop, by id or by name: what the per-clock controls take.
///
/// A [`ClockId`], a `&str`, a `&String` or a `String` converts into it, so
/// `state.clock("main")`, `state.clock(&name)` and `state.clock_mut(id)` all work. A name is borrowed for the call (a `String` is
/// taken and dropped): looking a clock up allocates nothing.
///
/// # Examples
///
/// ```
/// use tickfold_core::{ClockConfig, ClockRef, LoopConfig, LoopState, Nanos, Period};
///
/// let name = format!("wave-{}", 3); // chosen at run time
/// let config = LoopConfig::new(Period::from_hz(60)?)
///     .clock(ClockConfig::new(name.clone(), Period::from_hz(10)?));
/// let mut state = LoopState::new(config, Nanos(0))?;
/// state.clock_mut(&name)?.set_rate(Period::from_hz(20)?);
/// assert_eq!(state.clock(name.as_str())?.rate(), Period::from_hz(20)?);
/// assert_eq!(ClockRef::from(name.clone()), ClockRef::from("wave-3"));
/// let id = state.clock("wave-3").expect("added above").id();
/// assert_eq!(state.remove_clock(name), Ok(id)); // by name, id or `ClockRef`
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClockRef<'a> {
    /// The clock with this id.
    Id(ClockId),
    /// The clock with this name.
    Name(Cow<'a, str>),
}

impl From<ClockId> for ClockRef<'_> {
    fn from(id: ClockId) -> Self {
        ClockRef::Id(id)
    }
}

impl<'a> From<&'a str> for ClockRef<'a> {
    fn from(name: &'a str) -> Self {
        ClockRef::Name(Cow::Borrowed(name))
    }
}

impl<'a> From<&'a String> for ClockRef<'a> {
    fn from(name: &'a String) -> Self {
        ClockRef::Name(Cow::Borrowed(name))
    }
}

impl From<String> for ClockRef<'_> {
    fn from(name: String) -> Self {
        ClockRef::Name(Cow::Owned(name))
    }
}

impl<'a> From<Cow<'a, str>> for ClockRef<'a> {
    fn from(name: Cow<'a, str>) -> Self {
        ClockRef::Name(name)
    }
}
