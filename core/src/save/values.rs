//! serde support (feature `serde`): the value types, the configurations and the events. The
//! whole [`LoopState`](crate::LoopState) is in `save/state.rs`, its load-time checks in
//! `save/check.rs`.
//!
//! A loaded clock name is an owned `String`, kept by the value it was loaded into and freed
//! with it: loading keeps no table of names, so a long-running server that loads saves holds
//! only the names of the states it still has.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::config::{ClockConfig, Firing, LoopConfig, Policy};
use crate::events::Events;
use crate::state::stats::ClockStats;
use crate::values::id::ClockId;
use crate::values::rate::{Period, TimeScale};
use crate::values::time::{Lag, Nanos};

// ---- values -------------------------------------------------------------------------------

/// The serde shape of an exact fraction, written once for the two saved ones: a struct named
/// after the type, `{ num, den }`, checked on load by the type's own constructor.
macro_rules! ratio_serde {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $repr:ident, $int:ty, $to:expr, $from:expr) => {
        #[derive(Serialize, Deserialize)]
        #[serde(rename = $name)]
        struct $repr {
            num: $int,
            den: $int,
        }

        $(#[$doc])*
        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let (num, den) = $to(*self);
                $repr { num, den }.serialize(s)
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let r = $repr::deserialize(d)?;
                $from(r.num, r.den).map_err(D::Error::custom)
            }
        }
    };
}

ratio_serde!(
    /// A tick length as `{ num, den }`, exactly `num / den` nanoseconds; loading checks it as
    /// the constructors do (and reduces the fraction).
    Period,
    "Period",
    PeriodRepr,
    u64,
    Period::as_nanos_ratio,
    |num, den| Period::from_ns_ratio(u128::from(num), u128::from(den))
);

ratio_serde!(
    /// A time scale as `{ num, den }`; loading checks it as [`TimeScale::ratio`] does.
    TimeScale,
    "TimeScale",
    ScaleRepr,
    u32,
    TimeScale::as_ratio,
    TimeScale::ratio
);

#[derive(Serialize, Deserialize)]
#[serde(rename = "Lag")]
struct LagRepr {
    /// Whole ns.
    nanos: u64,
    /// Ahead of virtual time rather than behind.
    early: bool,
}

/// A lag as `{ nanos, early }`.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for Lag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let nanos = u64::try_from(self.as_nanos().unsigned_abs()).unwrap_or(u64::MAX);
        LagRepr {
            nanos,
            early: self.is_early(),
        }
        .serialize(s)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for Lag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Lag, D::Error> {
        let r = LagRepr::deserialize(d)?;
        Ok(if r.early {
            Lag::early_by(Nanos(r.nanos))
        } else {
            Lag::from(Nanos(r.nanos))
        })
    }
}

/// The events of a step, in order, as a list of [`Event`](crate::Event)s (load them back as a
/// `Vec<Event<T>>`).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T: Copy + Serialize> Serialize for Events<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[derive(Deserialize)]
#[serde(rename = "ClockStats")]
struct StatsIn {
    id: ClockId,
    name: String,
    rate: Period,
    next_tick: u64,
    ticks_run: u64,
    ticks_dropped: u64,
    #[serde(default)]
    time_discarded: Nanos,
    pending: u64,
    ticks_due: u64,
    ticks_early: u64,
    #[serde(default)]
    ticks_refused: u64,
    alpha: f64,
    lag: Lag,
}

/// A report loaded back as it was written (its name an owned `String`).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for ClockStats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClockStats, D::Error> {
        let s = StatsIn::deserialize(d)?;
        Ok(ClockStats {
            id: s.id,
            name: Cow::Owned(s.name),
            rate: s.rate,
            next_tick: s.next_tick,
            ticks_run: s.ticks_run,
            ticks_dropped: s.ticks_dropped,
            time_discarded: s.time_discarded,
            pending: s.pending,
            ticks_due: s.ticks_due,
            ticks_early: s.ticks_early,
            ticks_refused: s.ticks_refused,
            alpha: s.alpha,
            lag: s.lag,
        })
    }
}

// ---- configurations -----------------------------------------------------------------------

#[derive(Serialize)]
#[serde(rename = "ClockConfig")]
struct ClockConfigOut<'a> {
    name: &'a str,
    rate: Period,
    max_updates: Option<u32>,
    policy: Policy,
    phase: f64,
    hysteresis: f64,
    firing: Firing,
}

#[derive(Deserialize)]
#[serde(rename = "ClockConfig")]
struct ClockConfigIn {
    name: String,
    rate: Period,
    max_updates: Option<u32>,
    policy: Policy,
    phase: f64,
    hysteresis: f64,
    firing: Firing,
}

/// All settings, by name. Loading does not check them (a [`ClockConfig`] is a builder):
/// [`LoopState::new`](crate::LoopState::new) and [`LoopState::add_clock`](crate::LoopState::add_clock) do, as for any other. A loaded name is
/// an owned `String`, freed with the config (or the loop it joins).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for ClockConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ClockConfigOut {
            name: &self.name,
            rate: self.rate,
            max_updates: self.max_updates,
            policy: self.policy,
            phase: self.phase,
            hysteresis: self.hysteresis,
            firing: self.firing,
        }
        .serialize(s)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for ClockConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClockConfig, D::Error> {
        let c = ClockConfigIn::deserialize(d)?;
        Ok(ClockConfig {
            name: Cow::Owned(c.name),
            rate: c.rate,
            max_updates: c.max_updates,
            policy: c.policy,
            phase: c.phase,
            hysteresis: c.hysteresis,
            firing: c.firing,
        })
    }
}

#[derive(Serialize)]
#[serde(rename = "LoopConfig")]
struct LoopConfigOut<'a> {
    clocks: &'a [ClockConfig],
    alpha_clock: Option<&'a str>,
    max_frame_delta: Option<Duration>,
    render_rate: Option<Period>,
    scale: TimeScale,
    paused: bool,
}

#[derive(Deserialize)]
#[serde(rename = "LoopConfig")]
struct LoopConfigIn {
    clocks: Vec<ClockConfig>,
    alpha_clock: Option<String>,
    max_frame_delta: Option<Duration>,
    render_rate: Option<Period>,
    scale: TimeScale,
    paused: bool,
}

/// All settings and clocks, by name; checked by [`LoopState::new`](crate::LoopState::new) as usual, not on loading.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for LoopConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LoopConfigOut {
            clocks: &self.clocks,
            alpha_clock: self.alpha_clock.as_deref(),
            max_frame_delta: self.max_frame_delta,
            render_rate: self.render_rate,
            scale: self.scale,
            paused: self.paused,
        }
        .serialize(s)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for LoopConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LoopConfig, D::Error> {
        let c = LoopConfigIn::deserialize(d)?;
        if c.clocks.is_empty() {
            return Err(D::Error::custom(
                "a loop configuration needs at least one clock",
            ));
        }
        Ok(LoopConfig {
            clocks: c.clocks.into_iter().collect(),
            alpha_clock: c.alpha_clock.map(Cow::Owned),
            max_frame_delta: c.max_frame_delta,
            render_rate: c.render_rate,
            scale: c.scale,
            paused: c.paused,
            // The file holds each clock's own settings: nothing in it is ambiguous.
            clock_setting_on_loop: None,
        })
    }
}
