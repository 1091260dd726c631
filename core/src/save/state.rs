//! The whole [`LoopState`] as a save (feature `serde`): written with every private field, read
//! back checked against the rules every state the fold builds keeps (see `save/check.rs`; a
//! clock's own rules in `clock/saved.rs`).

use alloc::vec::Vec;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::clock::{Broken, Clock, ClockIn};
use crate::clocks::ClockSet;
use crate::error::ConfigError;
use crate::events::few::Pool;
use crate::events::report::Report;
use crate::save::check::{FORMAT, StateError, check_controls, check_reports};
use crate::state::{Contents, FastPath, Inner, LoopState, PENDING_CLOCKS};
use crate::time::real::Real;
use crate::time::render_cap::RenderCap;
use crate::time::span::StepSpan;
use crate::time::sub_nanos::SubNanos;
use crate::time::virtual_time::{SavedVirtual, Shed, Virtual};
use crate::values::id::ClockId;
use crate::values::rate::{Period, TimeScale};
use crate::values::time::Nanos;

struct ClocksOut<'a>(&'a [Clock]);

impl Serialize for ClocksOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Clock::saved))
    }
}

/// The loop's save, written by reference (see [`StateOut`]) and read back owned (see
/// [`StateIn`]): one list of fields for both, generic over what is borrowed when writing.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "LoopState")]
#[serde(bound(
    deserialize = "T: Deserialize<'de>, C: Deserialize<'de>, R: Deserialize<'de> + Default, P: Deserialize<'de>, D: Deserialize<'de> + Default"
))]
struct Saved<T, C, R, P, D> {
    version: u32,
    start: T,
    clocks: C,
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
    #[serde(default)]
    reports: R,
    /// The latest step's span (per-step deltas, input attribution); absent means no step yet.
    #[serde(default)]
    span: Option<P>,
    #[serde(default)]
    step_request: u64,
    discarded: u64,
    /// What the latest step that gave a backlog up counted into `discarded`, for a refusal
    /// of its updates (absent in saves written before it was kept: none).
    #[serde(default)]
    shed: D,
}

/// The save as written.
type StateOut<'a, T> = Saved<&'a T, ClocksOut<'a>, &'a [Report], &'a StepSpan, &'a Shed>;

/// The save as read, not yet checked.
type StateIn<T> = Saved<T, Vec<ClockIn>, Vec<Report>, StepSpan, Shed>;

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
        let v = i.virt.saved();
        let c = i.clocks.saved();
        let (render_rate, render_next) = i.render.saved();
        let clocks_bit = if c.pending { PENDING_CLOCKS } else { 0 };
        StateOut::<T> {
            version: FORMAT,
            start: i.real.start(),
            clocks: ClocksOut(c.clocks),
            alpha_clock: c.alpha_clock,
            next_id: c.next_id,
            max_delta: i.real.max_delta(),
            render_rate,
            render_next,
            last_real: i.real.latest(),
            virt: v.virt,
            virt_rem: v.virt_rem,
            last_frame_v: v.last_frame_v,
            paused: v.paused,
            scale: v.scale,
            reported_scale: v.reported_scale,
            pending_controls: v.pending | clocks_bit,
            reports: c.reports,
            span: Some(&i.span),
            step_request: v.step_request,
            discarded: v.discarded,
            shed: v.shed,
        }
        .serialize(s)
    }
}

/// A [`LoopState`] as saved, read but not yet checked: the typed route to a [`StateError`]
/// (feature `serde`).
///
/// Deserializing a `LoopState` refuses a broken save with the format's own error, whose
/// message is the [`StateError`]'s. To tell a file that does not parse (the format's error)
/// from one that parses but that no run of the fold could have written (a corrupted or edited
/// save), deserialize a `SavedState` instead and check it with `LoopState::try_from` (its
/// [`TryFrom`] impl). Both read the same data and apply the same checks; nothing else can be
/// done with a `SavedState`.
///
/// # Examples
///
/// A save whose clock claims one more update run than its tick numbers allow:
///
/// ```
/// use tickfold_core::{ClockId, LoopConfig, LoopState, Nanos, Period, SavedState, StateError};
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// let _ = state.advance(Nanos::from_millis(100)); // ticks 0 to 5 run
/// let mut save = serde_json::to_value(&state)?;
/// save["clocks"][0]["ran"] = 7.into();
///
/// // It parses, so the format has nothing to say; the check names what is wrong.
/// let saved: SavedState = serde_json::from_value(save.clone())?;
/// let refused = LoopState::try_from(saved).unwrap_err();
/// assert_eq!(refused, StateError::Accounting(ClockId(0)));
/// // Loading the `LoopState` directly refuses it too, with the same message.
/// let err = serde_json::from_value::<LoopState>(save).unwrap_err();
/// assert_eq!(err.to_string(), refused.to_string());
///
/// // An intact save passes both.
/// let saved: SavedState = serde_json::from_value(serde_json::to_value(&state)?)?;
/// assert_eq!(LoopState::try_from(saved)?, state);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Deserialize)]
#[serde(transparent)]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub struct SavedState<T = Nanos>(StateIn<T>);

/// Checks a save against the rules every state the fold builds keeps.
///
/// # Errors
///
/// The first rule the save breaks, as a [`StateError`].
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T> TryFrom<SavedState<T>> for LoopState<T> {
    type Error = StateError;

    fn try_from(saved: SavedState<T>) -> Result<LoopState<T>, StateError> {
        restore(saved.0)
    }
}

/// Loads a state written by the `Serialize` impl, checked: a state that breaks one of the
/// fold's invariants (corrupted or edited data) is refused with a [`StateError`] (as the
/// deserializer's error, with its message; [`SavedState`] gives the typed error), never
/// accepted to fail later. Clock names load as owned `String`s, freed with the state.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T: Deserialize<'de>> Deserialize<'de> for LoopState<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LoopState<T>, D::Error> {
        let saved = SavedState::<T>::deserialize(d)?;
        LoopState::try_from(saved).map_err(D::Error::custom)
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
        return Err(StateError::Config(ConfigError::ZeroMaxFrameDelta));
    }
    let render = RenderCap::loaded(match (s.render_rate, s.render_next) {
        (None, None) => None,
        (Some(rate), Some(next)) => Some((rate, next)),
        (None, Some(_)) => return Err(StateError::RenderSlotWithoutRate),
        (Some(_), None) => return Err(StateError::MissingRenderSlot),
    });
    // A refusal takes back at most what the latest step counted, which the total holds.
    if s.shed.counted() > s.discarded {
        return Err(StateError::BadDiscarded);
    }
    let virt = Virtual::loaded(SavedVirtual {
        virt: s.virt,
        virt_rem: s.virt_rem,
        last_frame_v: s.last_frame_v,
        paused: s.paused,
        scale: s.scale,
        reported_scale: s.reported_scale,
        step_request: s.step_request,
        pending: s.pending_controls,
        discarded: s.discarded,
        shed: s.shed,
    })
    .ok_or(StateError::BadRemainder)?;
    let span = s.span.unwrap_or_else(|| StepSpan::new(s.scale, s.paused));
    if !span.is_valid() {
        return Err(StateError::BadRemainder);
    }
    check_controls(
        s.pending_controls,
        s.paused,
        s.scale,
        s.reported_scale,
        &s.reports,
    )?;
    let mut clocks: Vec<Clock> = Vec::with_capacity(s.clocks.len());
    for c in s.clocks {
        if c.id.0 >= s.next_id || clocks.iter().any(|k| k.id() == c.id) {
            return Err(StateError::BadClockId(c.id));
        }
        if clocks.iter().any(|k| k.config().name == c.config.name) {
            return Err(StateError::Config(ConfigError::DuplicateClock(
                c.config.name,
            )));
        }
        let checked = c
            .config
            .validate()
            .map_err(|e| StateError::InvalidClock(c.id, e))?;
        let id = c.id;
        let clock = Clock::load(c, checked).map_err(|broken| match broken {
            Broken::Accounting => StateError::Accounting(id),
            Broken::Grid => StateError::BadGrid(id),
            Broken::StepCount => StateError::BadStepCount(id),
        })?;
        clocks.push(clock);
    }
    if !clocks.iter().any(|c| c.id() == s.alpha_clock) {
        return Err(StateError::UnknownAlphaClock(s.alpha_clock));
    }
    check_reports(&clocks, &s.reports)?;
    let pool = Pool::for_clocks(clocks.iter().map(|c| c.checked().cap));
    Ok(LoopState {
        inner: Contents::new(Inner {
            real: Real::loaded(s.start, s.last_real, s.max_delta),
            virt,
            clocks: ClockSet::loaded(
                clocks,
                s.alpha_clock,
                s.next_id,
                s.pending_controls & PENDING_CLOCKS != 0,
                s.reports,
            ),
            render,
            span,
            pool,
            fast: FastPath::UNKNOWN,
            cursor: crate::state::cursor::Cursor::default(),
        }),
    })
}
