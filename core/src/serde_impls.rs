//! serde support (feature `serde`): the value types, the configurations, the events and the
//! whole [`LoopState`], which loads back checked.
//!
//! Clock names are `&'static str` everywhere else in the crate, so a loaded name has to live
//! for the rest of the program: each distinct name is allocated once and kept (with `std`, a
//! global table returns the same `&'static str` for a name seen before, so loading the same
//! save a thousand times allocates nothing more; without `std`, every loaded name is a new
//! allocation that is never freed).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::clock::Clock;
use crate::config::{ClockConfig, Firing, LoopConfig, Policy};
use crate::controls::Report;
use crate::deltas::StepSpan;
use crate::error::ConfigError;
use crate::event::ClockId;
use crate::events::Events;
use crate::grid::Grid;
use crate::jitter::Snap;
use crate::rate::{GridPoint, Period, TimeScale};
use crate::state::{
    Inner, LoopState, PENDING_CLOCKS, PENDING_PAUSED, PENDING_RESUMED, PENDING_SCALE,
};
use crate::stats::ClockStats;
use crate::time::{Lag, Nanos};
use crate::virt::SubNanos;

/// The version of the [`LoopState`] format written by this crate.
const FORMAT: u32 = 1;

/// A clock name loaded from a serialized value, made `'static` (see the module docs).
struct Name(&'static str);

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        Ok(Name(intern(String::deserialize(d)?)))
    }
}

#[cfg(feature = "std")]
fn intern(name: String) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    // A panic while the table was locked cannot leave it inconsistent (one insert).
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(known) = names.get(name.as_str()) {
        return known;
    }
    let leaked: &'static str = alloc::boxed::Box::leak(name.into_boxed_str());
    names.insert(leaked);
    leaked
}

#[cfg(not(feature = "std"))]
fn intern(name: String) -> &'static str {
    alloc::boxed::Box::leak(name.into_boxed_str())
}

// ---- values -------------------------------------------------------------------------------

#[derive(Serialize, Deserialize)]
#[serde(rename = "Period")]
struct PeriodRepr {
    /// The tick length is `num / den` ns.
    num: u64,
    den: u64,
}

/// A tick length as `{ num, den }`, exactly `num / den` nanoseconds; loading checks it as
/// the constructors do (and reduces the fraction).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for Period {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (num, den) = self.as_nanos_ratio();
        PeriodRepr { num, den }.serialize(s)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for Period {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Period, D::Error> {
        let r = PeriodRepr::deserialize(d)?;
        Period::from_ns_ratio(u128::from(r.num), u128::from(r.den)).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "TimeScale")]
struct ScaleRepr {
    num: u32,
    den: u32,
}

/// A time scale as `{ num, den }`; loading checks it as [`TimeScale::ratio`] does.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for TimeScale {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (num, den) = self.as_ratio();
        ScaleRepr { num, den }.serialize(s)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for TimeScale {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TimeScale, D::Error> {
        let r = ScaleRepr::deserialize(d)?;
        TimeScale::ratio(r.num, r.den).map_err(D::Error::custom)
    }
}

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
    name: Name,
    rate: Period,
    next_tick: u64,
    ticks_run: u64,
    ticks_dropped: u64,
    pending: u64,
    ticks_due: u64,
    ticks_early: u64,
    #[serde(default)]
    ticks_refused: u64,
    alpha: f64,
    lag: Lag,
}

/// A report loaded back as it was written (its name made `'static`, see
/// [`LoopState`]'s `Deserialize` impl).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for ClockStats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClockStats, D::Error> {
        let s = StatsIn::deserialize(d)?;
        Ok(ClockStats {
            id: s.id,
            name: s.name.0,
            rate: s.rate,
            next_tick: s.next_tick,
            ticks_run: s.ticks_run,
            ticks_dropped: s.ticks_dropped,
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
    name: Name,
    rate: Period,
    max_updates: Option<u32>,
    policy: Policy,
    phase: f64,
    hysteresis: f64,
    firing: Firing,
}

/// All settings, by name. Loading does not check them (a [`ClockConfig`] is a builder):
/// [`LoopState::new`] and [`LoopState::add_clock`] do, as for any other. A loaded name is
/// kept for the rest of the program (see the crate's serde notes on
/// [`LoopState`]'s `Deserialize` impl).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for ClockConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ClockConfigOut {
            name: self.name,
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
            name: c.name.0,
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
    alpha_clock: Option<Name>,
    max_frame_delta: Option<Duration>,
    render_rate: Option<Period>,
    scale: TimeScale,
    paused: bool,
}

/// All settings and clocks, by name; checked by [`LoopState::new`] as usual, not on loading.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for LoopConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LoopConfigOut {
            clocks: &self.clocks,
            alpha_clock: self.alpha_clock,
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
            alpha_clock: c.alpha_clock.map(|n| n.0),
            max_frame_delta: c.max_frame_delta,
            render_rate: c.render_rate,
            scale: c.scale,
            paused: c.paused,
        })
    }
}

// ---- the loop state -----------------------------------------------------------------------

/// Why a loaded [`LoopState`] was refused: it breaks a rule every state built by the fold
/// keeps, so stepping it could go wrong. Deserializers report it as their own error, with
/// this message.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
#[non_exhaustive]
pub enum StateError {
    /// The data was written by a format version this crate does not read.
    UnsupportedVersion(u32),
    /// The state has no clock.
    NoClocks,
    /// A clock's settings are invalid (as [`LoopState::new`] would refuse them).
    InvalidClock(ClockId, ConfigError),
    /// Two clocks share an id, or an id is not below the next id to hand out.
    BadClockId(ClockId),
    /// Two clocks share a name.
    DuplicateClock(&'static str),
    /// The alpha clock is not one of the clocks.
    UnknownAlphaClock(ClockId),
    /// A zero max frame delta.
    ZeroMaxFrameDelta,
    /// A render slot without a render rate.
    RenderSlotWithoutRate,
    /// The sub-nanosecond remainder of virtual time is not a proper fraction in units of the
    /// time scale.
    BadRemainder,
    /// Unknown bits in the pending controls.
    BadControls(u8),
    /// A clock's grid segment (from a rate change, a reset or added lag) starts after its next
    /// tick or ends later than its grid allows.
    BadGrid(ClockId),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "loop state format version {v} is not supported (this crate reads {FORMAT})"
                )
            }
            StateError::NoClocks => f.write_str("loop state has no clock"),
            StateError::InvalidClock(id, e) => write!(f, "clock {}: {e}", id.0),
            StateError::BadClockId(id) => {
                write!(f, "clock id {} is repeated or out of range", id.0)
            }
            StateError::DuplicateClock(n) => write!(f, "two clocks are called {n:?}"),
            StateError::UnknownAlphaClock(id) => write!(f, "alpha clock {} does not exist", id.0),
            StateError::ZeroMaxFrameDelta => f.write_str("max frame delta is zero"),
            StateError::RenderSlotWithoutRate => f.write_str("render slot without a render rate"),
            StateError::BadRemainder => {
                f.write_str("virtual time remainder is not a proper fraction")
            }
            StateError::BadControls(b) => write!(f, "unknown pending control bits {b:#04x}"),
            StateError::BadGrid(id) => {
                write!(f, "clock {}: its grid segment is inconsistent", id.0)
            }
        }
    }
}

impl core::error::Error for StateError {}

#[derive(Serialize)]
#[serde(rename = "Clock")]
struct ClockOut<'a> {
    id: ClockId,
    config: &'a ClockConfig,
    origin: u64,
    /// The grid segment a run-time control started (see `regrid.rs`): its lead over
    /// `origin`, its first tick number and simulation time, and where time ends for it.
    shift: u64,
    base: u64,
    base_t: u64,
    /// The fraction of a ns `base_t` carries, over the period's denominator.
    base_r: u64,
    end: u64,
    refused: u64,
    last_count: u32,
    /// Refused ticks the next steps must run whatever happens to their slots.
    spare: u32,
    /// The lowest tick the latest refusals undid.
    undone: u64,
    /// The grid the latest step ran on, if a control has moved it since.
    stepped: Option<Grid>,
    next_tick: u64,
    ran: u64,
    dropped_slots: u64,
    clamp_dropped: u64,
    end_reported: bool,
    snap: &'a Snap,
}

#[derive(Deserialize)]
#[serde(rename = "Clock")]
struct ClockIn {
    id: ClockId,
    config: ClockConfig,
    origin: u64,
    /// The grid segment a run-time control started (see `regrid.rs`): its lead over
    /// `origin`, its first tick number and simulation time, and where time ends for it.
    shift: u64,
    base: u64,
    base_t: u64,
    #[serde(default)]
    base_r: u64,
    end: u64,
    refused: u64,
    last_count: u32,
    #[serde(default)]
    spare: u32,
    #[serde(default)]
    undone: u64,
    #[serde(default)]
    stepped: Option<Grid>,
    next_tick: u64,
    ran: u64,
    dropped_slots: u64,
    clamp_dropped: u64,
    end_reported: bool,
    snap: Snap,
}

struct ClocksOut<'a>(&'a [Clock]);

impl Serialize for ClocksOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|c| ClockOut {
            id: c.id,
            config: &c.config,
            origin: c.origin,
            shift: c.shift,
            base: c.base,
            base_t: c.base_t,
            base_r: c.base_r,
            end: c.end,
            refused: c.refused,
            last_count: c.last_count,
            spare: c.spare,
            undone: c.undone,
            stepped: c.stepped,
            next_tick: c.next_tick,
            ran: c.ran,
            dropped_slots: c.dropped_slots,
            clamp_dropped: c.clamp_dropped,
            end_reported: c.end_reported,
            snap: &c.snap,
        }))
    }
}

#[derive(Serialize)]
#[serde(rename = "LoopState")]
struct StateOut<'a, T> {
    version: u32,
    start: &'a T,
    clocks: ClocksOut<'a>,
    alpha_clock: ClockId,
    next_id: u16,
    max_delta: Option<u64>,
    render_rate: Option<Period>,
    /// The next render slot's index on the render grid.
    render_next: Option<u64>,
    last_real: Option<u64>,
    virt: u64,
    virt_rem: SubNanos,
    last_frame_v: u64,
    paused: bool,
    scale: TimeScale,
    reported_scale: TimeScale,
    pending_controls: u8,
    reports: &'a [Report],
    span: Option<&'a StepSpan>,
    step_request: u64,
}

#[derive(Deserialize)]
#[serde(rename = "LoopState")]
struct StateIn<T> {
    version: u32,
    start: T,
    clocks: Vec<ClockIn>,
    alpha_clock: ClockId,
    next_id: u16,
    max_delta: Option<u64>,
    render_rate: Option<Period>,
    render_next: Option<u64>,
    last_real: Option<u64>,
    virt: u64,
    virt_rem: SubNanos,
    last_frame_v: u64,
    paused: bool,
    scale: TimeScale,
    reported_scale: TimeScale,
    pending_controls: u8,
    #[serde(default)]
    reports: Vec<Report>,
    /// The latest step's span (per-step deltas, input attribution); absent means no step yet.
    #[serde(default)]
    span: Option<StepSpan>,
    #[serde(default)]
    step_request: u64,
}

/// The whole state, every private field included, so that a loaded copy folds the rest of
/// any schedule exactly as the original would (same events, same state). The grid positions
/// and the values derived from the settings are not written: loading recomputes them.
///
/// The format is a versioned struct (`version`, `start`, `clocks`, …); its field names are
/// not an API, but every later version of this crate will read it or say why not.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T: Serialize> Serialize for LoopState<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let i = &*self.inner;
        StateOut {
            version: FORMAT,
            start: &i.start,
            clocks: ClocksOut(&i.clocks),
            alpha_clock: i.alpha_clock,
            next_id: i.next_id,
            max_delta: i.max_delta,
            render_rate: i.render_rate,
            render_next: i.render_next.map(|p| p.m),
            last_real: i.last_real,
            virt: i.virt,
            virt_rem: i.virt_rem,
            last_frame_v: i.last_frame_v,
            paused: i.paused,
            scale: i.scale,
            reported_scale: i.reported_scale,
            pending_controls: i.pending_controls,
            reports: &i.reports,
            span: Some(&i.span),
            step_request: i.step_request,
        }
        .serialize(s)
    }
}

/// Loads a state written by the `Serialize` impl, checked: a state that breaks one of the
/// fold's invariants (corrupted or edited data) is refused with a [`StateError`] (as the
/// deserializer's error), never accepted to fail later. Clock names are made `'static` once
/// per distinct name (with `std`; without it, once per load).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T: Deserialize<'de>> Deserialize<'de> for LoopState<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LoopState<T>, D::Error> {
        let saved = StateIn::<T>::deserialize(d)?;
        restore(saved).map_err(D::Error::custom)
    }
}

fn restore<T>(s: StateIn<T>) -> Result<LoopState<T>, StateError> {
    if s.version != FORMAT {
        return Err(StateError::UnsupportedVersion(s.version));
    }
    if s.clocks.is_empty() {
        return Err(StateError::NoClocks);
    }
    if s.max_delta == Some(0) {
        return Err(StateError::ZeroMaxFrameDelta);
    }
    let render_next = match (s.render_rate, s.render_next) {
        (_, None) => None,
        (Some(rate), Some(m)) => Some(GridPoint::at(rate, m)),
        (None, Some(_)) => return Err(StateError::RenderSlotWithoutRate),
    };
    if !s.virt_rem.is_valid_for(s.scale) {
        return Err(StateError::BadRemainder);
    }
    let span = s.span.unwrap_or_else(|| StepSpan::new(s.scale, s.paused));
    if !span.rem0.is_valid_for(span.scale) {
        return Err(StateError::BadRemainder);
    }
    if s.pending_controls & !(PENDING_PAUSED | PENDING_RESUMED | PENDING_SCALE | PENDING_CLOCKS)
        != 0
        || s.pending_controls & (PENDING_PAUSED | PENDING_RESUMED)
            == PENDING_PAUSED | PENDING_RESUMED
    {
        return Err(StateError::BadControls(s.pending_controls));
    }
    let mut clocks: Vec<Clock> = Vec::with_capacity(s.clocks.len());
    for c in s.clocks {
        if c.id.0 >= s.next_id || clocks.iter().any(|k| k.id == c.id) {
            return Err(StateError::BadClockId(c.id));
        }
        if clocks.iter().any(|k| k.config.name == c.config.name) {
            return Err(StateError::DuplicateClock(c.config.name));
        }
        let checked = c
            .config
            .validate()
            .map_err(|e| StateError::InvalidClock(c.id, e))?;
        let mut clock = Clock::new(c.id, c.config, checked, c.origin);
        clock.ran = c.ran;
        clock.dropped_slots = c.dropped_slots;
        clock.clamp_dropped = c.clamp_dropped;
        clock.end_reported = c.end_reported;
        clock.snap = c.snap;
        clock.refused = c.refused;
        clock.last_count = c.last_count;
        // The grid segment: where it starts, and where time ends on it (never past the end
        // its origin and lead allow; earlier only where the clock already ended).
        let segment_end = c.base.saturating_add(crate::clock::segment_end(
            clock.rate(),
            c.origin,
            c.shift,
            clock.constant_rate(),
        ));
        let den = clock.rate().as_nanos_ratio().1;
        let spare_ok = u64::from(c.spare) <= c.refused && u64::from(c.spare) <= u64::from(u32::MAX);
        if c.base > c.next_tick || c.end > segment_end || c.base_r >= den || !spare_ok {
            return Err(StateError::BadGrid(c.id));
        }
        clock.shift = c.shift;
        clock.base = c.base;
        clock.base_t = c.base_t;
        clock.base_r = c.base_r;
        clock.spare = c.spare;
        clock.undone = c.undone;
        clock.stepped = c.stepped;
        clock.end = c.end;
        // The grid, the due time and the end-of-time flag follow from the tick number.
        clock.jump_to(c.next_tick);
        clocks.push(clock);
    }
    if !clocks.iter().any(|c| c.id == s.alpha_clock) {
        return Err(StateError::UnknownAlphaClock(s.alpha_clock));
    }
    Ok(LoopState {
        inner: alloc::boxed::Box::new(Inner {
            start: s.start,
            clocks,
            alpha_clock: s.alpha_clock,
            next_id: s.next_id,
            max_delta: s.max_delta,
            render_rate: s.render_rate,
            last_real: s.last_real,
            virt: s.virt,
            virt_rem: s.virt_rem,
            last_frame_v: s.last_frame_v,
            render_next,
            paused: s.paused,
            scale: s.scale,
            reported_scale: s.reported_scale,
            pending_controls: s.pending_controls,
            reports: s.reports,
            span,
            step_request: s.step_request,
        }),
    })
}
