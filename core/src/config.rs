//! Loop configuration, checked once at construction: [`LoopConfig`], [`ClockConfig`] and the
//! checked settings a clock keeps (`Checked`).
//!
//! May call: `values`, `error`. Called by: `clock`, `clocks`, `state`, `step`, `save`.

use alloc::borrow::Cow;
use core::time::Duration;

use crate::error::ConfigError;
use crate::values::rate::{Period, TimeScale};
use crate::values::time::Nanos;

use smallvec::SmallVec;

/// The most updates one step runs when the cap is disabled with [`LoopConfig::max_updates`]`(None)`.
///
/// Without any cap a gap of years would ask for billions of updates in one step. With the cap
/// disabled the fold still stops after this many, keeps the backlog, reports it with
/// [`Event::Deferred`](crate::Event::Deferred) and asks to be called again at once.
pub const MAX_UPDATES_PER_STEP: u32 = 1 << 16;

/// What the loop does when it falls behind its tick grid.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Policy {
    /// Fixed-timestep accumulator ("Fix Your Timestep"): run every due tick, up to the per-step
    /// cap, carry the rest as lag, and render with `alpha = lag / dt`. Tick *k* covers
    /// `[k·dt, (k+1)·dt)` and runs once real time has reached its end.
    #[default]
    CatchUp,
    /// Constant rate, *drop & rest*: one update per step at the start of its slot. A slot whose
    /// start has passed before its update could run is lost; the loop sleeps until the next
    /// slot starts and the tick number jumps over the lost ones.
    DropAndRest,
    /// Constant rate, *keep working*: one update per step, at the start of its slot when ahead;
    /// when behind, the slot in progress runs at once and only slots that passed entirely are lost.
    KeepWorking,
    /// Constant rate, *delay* (tokio's and `spin_sleep`'s `MissedTickBehavior::Delay`): one update
    /// per step at the start of its slot, sleeping until then when ahead. When late, the slot
    /// runs at once and the grid moves with it: the next slot starts one period after this
    /// one ran, so no tick is ever dropped and none runs in a burst. The max frame delta
    /// drops nothing on this clock (it never owes a backlog).
    Delay,
}

/// When a clock's tick may fire relative to its due time (the fixed-frequency sub-loops of "looping in time").
///
/// Both rules pay time forward: the schedule stays on the exact grid `origin + k·dt`, so firing
/// late or early never shifts later ticks and nothing drifts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Firing {
    /// Never early: a tick fires at the first step at or after its due time. The error is at
    /// most one outer-loop period.
    #[default]
    Late,
    /// Fire at the step nearest the due time: now, if `now` is closer to the due time than the
    /// next step is expected to be (the estimate is the length of the frame that just ended,
    /// counted as at most two ticks, so at most one tick per step runs early, by less than a
    /// tick). The error is at most half an outer-loop period when frames are regular. An early tick's
    /// [`Tick::lag`](crate::Tick::lag) is still `now − k·dt` (positive, less than one tick): it
    /// runs before `(k+1)·dt`, its due time, but after `k·dt`. The step's deadline is still the
    /// due time: a shell that sleeps until the deadline wakes exactly on time (error 0), and
    /// the early firing only applies to steps that come for other reasons (vsync, input).
    Nearest,
}

/// One fixed-rate clock's settings: a builder, checked when the clock joins a loop.
///
/// Defaults: [`Policy::CatchUp`], at most 8 updates per step, no phase, no hysteresis,
/// [`Firing::Late`].
///
/// # Examples
///
/// ```
/// use tickfold_core::{ClockConfig, Firing, LoopConfig, LoopState, Nanos, Period};
///
/// let config = LoopConfig::new(Period::from_hz(120)?) // the main clock: physics
///     .clock(ClockConfig::new("ai", Period::from_hz(10)?))
///     .clock(ClockConfig::new("net", Period::from_hz(30)?).firing(Firing::Nearest));
/// let state = LoopState::new(config, Nanos(0))?;
/// assert_eq!(state.clock_names().collect::<Vec<_>>(), ["main", "ai", "net"]);
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ClockConfig {
    pub(crate) name: Cow<'static, str>,
    pub(crate) rate: Period,
    pub(crate) max_updates: Option<u32>,
    pub(crate) policy: Policy,
    pub(crate) phase: f64,
    pub(crate) hysteresis: f64,
    pub(crate) firing: Firing,
}

impl ClockConfig {
    /// A clock called `name` (unique within its loop) ticking at `rate`, with default settings.
    ///
    /// The name is a literal (`"physics"`, kept as a `&'static str`, no allocation) or a name
    /// chosen at run time (a `String`, owned by the config and then by the loop, freed with
    /// it). Lookups by name ([`LoopState::clock`](crate::LoopState::clock), the
    /// controls) take any `&str`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let physics = ClockConfig::new("physics", Period::from_hz(120)?).max_updates(Some(4));
    /// assert_eq!((physics.name(), physics.rate()), ("physics", Period::from_hz(120)?));
    /// // As the main clock of a loop, or added beside it with `LoopConfig::clock`.
    /// let state = LoopState::new(LoopConfig::from_clock(physics), Nanos(0))?;
    /// assert_eq!(state.clock_names().collect::<Vec<_>>(), ["physics"]);
    ///
    /// // A name made at run time: no `'static` needed.
    /// let enemy = ClockConfig::new(format!("enemy-{}", 7), Period::from_hz(10)?);
    /// assert_eq!(enemy.name(), "enemy-7");
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn new(name: impl Into<Cow<'static, str>>, rate: Period) -> ClockConfig {
        ClockConfig {
            name: name.into(),
            rate,
            max_updates: Some(8),
            policy: Policy::CatchUp,
            phase: 0.0,
            hysteresis: 0.0,
            firing: Firing::Late,
        }
    }

    /// The most updates one step may run for this clock before it keeps the rest as backlog
    /// (simloop's N). `None` lifts the cap, up to the backstop [`MAX_UPDATES_PER_STEP`].
    /// Default `Some(8)`. `Some(0)` is rejected.
    ///
    /// The cap is set per clock (each clock counts its own updates), but what it defers holds
    /// the whole loop: a step runs a prefix of the loop's one order of ticks (by due time, ties
    /// to the clock declared first). Once the cap defers a tick of this clock, no tick of any
    /// clock due after it runs in that step; the step reports [`Event::Deferred`](crate::Event::Deferred) for every
    /// clock left with due ticks, and its deadline is "now". So with caps on, the ticks run,
    /// and their order, are the same however frames slice time (drops aside, which are
    /// reported). Under sustained overload the backlog is bounded by the max frame delta
    /// ([`LoopConfig::max_frame_delta`]): older ticks are given up, reported as
    /// [`Event::DiscardedTime`](crate::Event::DiscardedTime); with it off the backlog may grow.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // Physics at 30 Hz (cap 8) and AI at 10 Hz, then one 577 ms frame: physics runs ticks
    /// // 0..8 and defers tick 8 (due at 300 ms); AI runs the ticks due before it (100, 200 ms)
    /// // and waits with its tick 2, due at 300 ms too (the tie goes to physics, declared first).
    /// let config = LoopConfig::new(Period::from_hz(30)?)
    ///     .max_frame_delta(None) // keep every tick of the long frame
    ///     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let ai = state.clock("ai").unwrap().id();
    /// let events = state.advance(Nanos::from_millis(577));
    /// let ran: Vec<u64> = events.updates().filter(|t| t.clock == ai).map(|t| t.index).collect();
    /// assert_eq!(ran, [0, 1]);
    /// assert_eq!(events.updates().count(), 10);
    /// assert_eq!(events.deadline(), Some(&Nanos::from_millis(577))); // "now": the backlog
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn max_updates(mut self, cap: Option<u32>) -> ClockConfig {
        self.max_updates = cap;
        self
    }

    /// What to do when behind. Default [`Policy::CatchUp`].
    #[must_use]
    pub fn policy(mut self, policy: Policy) -> ClockConfig {
        self.policy = policy;
        self
    }

    /// Start the accumulator this fraction of a tick in (anti-aliasing, default 0).
    ///
    /// With ticks and frames at the same rate, frames land right on tick boundaries and jitter
    /// makes them alternate between 0 and 2 updates. A phase of ½ moves the boundaries half a
    /// frame away from the frames. Must be in `[0, 1)`; only for [`Policy::CatchUp`].
    #[must_use]
    pub fn phase(mut self, fraction: f64) -> ClockConfig {
        self.phase = fraction;
        self
    }

    /// Keep frames on their steady update pattern despite frame-time jitter (default 0 = off).
    ///
    /// Without it, a frame that lands within its jitter of a tick boundary runs that tick or
    /// leaves it to the next frame at random: 0 and 2 updates at matched rates, a stray 0 or 2
    /// around the one frame in a thousand that needs two updates at 59.94 Hz. With it, the
    /// clock knows the steady pattern of update counts from the average frame length and the
    /// exact tick length: when a frame's count would break that pattern over the last 1 to 6
    /// frames, a tick runs early or waits for the next frame instead.
    ///
    /// The idea is Godot's `physics_jitter_fix` (`main/main_timer_sync.cpp`). Godot remembers
    /// the range of physics-step totals that has been typical over the last 1 to 12 frames;
    /// when the plain accumulator's count for a frame falls outside the range that keeps those
    /// totals typical, it takes the nearest count inside, provided its accumulator is within
    /// `physics_jitter_fix` of a step of allowing it, and otherwise takes the plain count and
    /// widens the ranges. It then shifts the frame's delta, carrying the difference to later
    /// frames, so the interpolation fraction stays in `[0, 1]`: a step moves by up to
    /// `physics_jitter_fix` of a step (half a step by default), and the game clock with it.
    ///
    /// Here virtual time does not move, so a tick moves by less: by at most `fraction`·dt, and
    /// by no more than the frame jitter the clock has measured. That jitter is taken on the
    /// frames' timestamps: the largest distance of a frame from a steady grid of frames (the
    /// average frame length, phase-locked to the frames) over the last 128 to 256 frames,
    /// which is what a tick must move to stay in the pattern when a frame lands that far off.
    /// For timestamps jittered uniformly by ±J it settles between J and 1.5·J once a few
    /// hundred frames have been seen (it may reach 2·J before). It used to be ¾ of the largest
    /// recent deviation of a frame's *length*, forgotten by 1/256 per frame; that sank below
    /// the deviations such a display keeps producing, so at matched rates with ±50 µs of
    /// jitter a frame every minute or two still ran 0 or 2 updates where Godot runs 1,
    /// whatever the `fraction`. With the timestamp measure none does after the first frames.
    ///
    /// The render, whose alpha is clamped to `[0, 1]` while the exact lag stays in
    /// `Render::lag`, draws the state at most that far from the clock. Perfectly regular
    /// frames (whole-nanosecond timestamps of an exact rate) are never moved, the first 13
    /// frames run as without hysteresis, every tick still runs and is reported, and the tick
    /// count stays what virtual time gives (a held tick runs once it is later than that). The
    /// decision is integer arithmetic on the frames seen, so runs replay exactly. Must be in
    /// `[0, 0.5]`; only for [`Policy::CatchUp`].
    ///
    /// The clock's share of the step's deadline is the time at which the rule runs its next
    /// tick (up to the budget before or after the due time), and a step at that deadline runs
    /// it. A tick the rule holds is no backlog, even when the cap stopped the step with that
    /// tick due: [`Event::Deferred`](crate::Event::Deferred) and a deadline of "now" come only
    /// when a step at the same time runs the tick.
    #[must_use]
    pub fn hysteresis(mut self, fraction: f64) -> ClockConfig {
        self.hysteresis = fraction;
        self
    }

    /// When a tick may fire relative to its due time. Default [`Firing::Late`].
    #[must_use]
    pub fn firing(mut self, firing: Firing) -> ClockConfig {
        self.firing = firing;
        self
    }

    /// The clock's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The clock's tick rate.
    #[must_use]
    pub fn rate(&self) -> Period {
        self.rate
    }

    /// Checks the settings and turns the fractional ones into exact nanoseconds; an error
    /// names the clock.
    pub(crate) fn validate(&self) -> Result<Checked, ConfigError> {
        self.validate_as(&self.name)
    }

    /// [`validate`](Self::validate) for the clock called `name` (a run-time control checks a
    /// copy of the settings that leaves the name in the clock).
    // A `&Cow`, not a `&str`: an error clones the name as it is (a literal stays borrowed).
    #[allow(clippy::ptr_arg)]
    pub(crate) fn validate_as(&self, name: &Cow<'static, str>) -> Result<Checked, ConfigError> {
        let clock = || name.clone();
        if name.is_empty() {
            return Err(ConfigError::EmptyClockName);
        }
        if self.max_updates == Some(0) {
            return Err(ConfigError::ZeroUpdateCap { clock: clock() });
        }
        // −0.0 is in the range by comparison, but not a fraction of a tick in it.
        if !(0.0..1.0).contains(&self.phase) || self.phase.is_sign_negative() {
            return Err(ConfigError::InvalidPhase {
                clock: clock(),
                phase: self.phase,
            });
        }
        if !(0.0..=0.5).contains(&self.hysteresis) || self.hysteresis.is_sign_negative() {
            return Err(ConfigError::InvalidHysteresis {
                clock: clock(),
                hysteresis: self.hysteresis,
            });
        }
        if self.policy != Policy::CatchUp {
            for (setting, value) in [("phase", self.phase), ("hysteresis", self.hysteresis)] {
                if value != 0.0 {
                    return Err(ConfigError::CatchUpOnly {
                        clock: clock(),
                        setting,
                    });
                }
            }
        }
        let (num, den) = self.rate.as_nanos_ratio();
        // Rounded once here; from now on everything is integer. phase < 1 so this is < dt.
        // Truncation is the floor for these non-negative values.
        let of_tick = |f: f64| ((num as f64 / den as f64) * f) as u64;
        Ok(Checked {
            cap: self
                .max_updates
                .unwrap_or(MAX_UPDATES_PER_STEP)
                .min(MAX_UPDATES_PER_STEP),
            phase_ns: of_tick(self.phase),
            hysteresis_ns: of_tick(self.hysteresis),
        })
    }
}

/// The tickfold loop's settings: a builder, checked by [`LoopState::new`](crate::LoopState::new).
///
/// The loop has a main clock, named `"main"`, built from the rate given to [`LoopConfig::new`]
/// (or any [`ClockConfig`] given to [`LoopConfig::from_clock`]);
/// the per-clock methods here ([`max_updates`](LoopConfig::max_updates),
/// [`policy`](LoopConfig::policy), [`phase`](LoopConfig::phase),
/// [`hysteresis`](LoopConfig::hysteresis), [`firing`](LoopConfig::firing)) are shorthands for
/// a loop of that one clock. [`LoopConfig::clock`] adds more clocks, each with its own
/// settings on its [`ClockConfig`]; in a loop of two or more clocks a per-clock method here
/// would read as a setting for the whole loop (or for whichever clock came first), before or
/// after the other clocks are added, so [`LoopState::new`](crate::LoopState::new) refuses it
/// with [`ConfigError::ClockSettingOnLoop`], naming the setting and the one clock it would
/// set. Give each clock its settings on its [`ClockConfig`] (the first one's before
/// [`LoopConfig::from_clock`]). The rest applies to the whole loop.
///
/// Defaults: [`Policy::CatchUp`], at most 8 updates per step, a 250 ms max frame delta, no
/// phase, no hysteresis, no render cap, time scale 1, not paused, the fastest clock drives the
/// render alpha (see [`alpha_clock`](LoopConfig::alpha_clock)).
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
/// use core::time::Duration;
///
/// let config = LoopConfig::new(Period::from_hz(60)?)
///     .max_updates(Some(4))
///     .max_frame_delta(Some(Duration::from_millis(100)))
///     .phase(0.5);
/// let state = LoopState::new(config, Nanos(0))?;
/// # let _ = state;
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LoopConfig {
    pub(crate) clocks: SmallVec<[ClockConfig; 1]>,
    pub(crate) alpha_clock: Option<Cow<'static, str>>,
    pub(crate) max_frame_delta: Option<Duration>,
    pub(crate) render_rate: Option<Period>,
    pub(crate) scale: TimeScale,
    pub(crate) paused: bool,
    /// The first per-clock setter called on the config (it set the first clock): refused by
    /// `LoopState::new` when the loop has two or more clocks
    /// ([`ConfigError::ClockSettingOnLoop`]).
    pub(crate) clock_setting_on_loop: Option<&'static str>,
}

impl LoopConfig {
    /// The default settings with one clock, `"main"`, at tick rate `rate`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?);
    /// assert_eq!(config.rate(), Period::from_hz(60)?);
    /// assert_eq!(config.clocks()[0].name(), "main");
    /// let state = LoopState::new(config, Nanos(0))?;
    /// assert_eq!(state.clock("main").map(|c| c.id()), Ok(state.alpha_clock()));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn new(rate: Period) -> LoopConfig {
        LoopConfig::from_clock(ClockConfig::new("main", rate))
    }

    /// The default loop settings with `clock` as its first (main) clock.
    #[must_use]
    pub fn from_clock(clock: ClockConfig) -> LoopConfig {
        let mut clocks = SmallVec::new();
        clocks.push(clock);
        LoopConfig {
            clocks,
            alpha_clock: None,
            max_frame_delta: Some(Duration::from_millis(250)),
            render_rate: None,
            scale: TimeScale::ONE,
            paused: false,
            clock_setting_on_loop: None,
        }
    }

    /// Applies a per-clock setter to the clock the config was made with, and records the
    /// first such call: in a loop of two or more clocks (whenever they are added) the call is
    /// ambiguous, and `LoopState::new` refuses the config.
    fn main_clock(
        mut self,
        setting: &'static str,
        f: impl FnOnce(ClockConfig) -> ClockConfig,
    ) -> LoopConfig {
        if self.clock_setting_on_loop.is_none() {
            self.clock_setting_on_loop = Some(setting);
        }
        if let Some(c) = self.clocks.first_mut() {
            // `f` sets a number: the name stays in place, so an owned one is never copied.
            let name = core::mem::take(&mut c.name);
            *c = ClockConfig {
                name,
                ..f(ClockConfig {
                    name: Cow::Borrowed(""),
                    ..*c
                })
            };
        }
        self
    }

    /// The update cap of a loop of one clock (`LoopConfig::new`'s `"main"`, or the clock given
    /// to [`from_clock`](LoopConfig::from_clock)). Default `Some(8)`. The cap is per clock; a
    /// tick it defers holds back every tick of every clock due after it (see
    /// [`ClockConfig::max_updates`]).
    ///
    /// A loop of two or more clocks sets each clock's cap on its [`ClockConfig`]: with a
    /// [`clock`](LoopConfig::clock) added, before or after this call,
    /// [`LoopState::new`](crate::LoopState::new) refuses the config with
    /// [`ConfigError::ClockSettingOnLoop`] (the call would set only the first clock, whatever
    /// it looks like).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, ConfigError, Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // A 10 ms frame at 1 kHz owes 10 ticks: the cap runs 4 and keeps 6 as backlog.
    /// let config = LoopConfig::new(Period::from_hz(1000)?).max_updates(Some(4));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let events = state.advance(Nanos::from_millis(10));
    /// assert_eq!(events.update_count(), 4);
    /// assert!(events.iter().any(|e| matches!(e, Event::Deferred { ticks: 6, .. })));
    /// assert_eq!(events.deadline(), Some(&Nanos::from_millis(10))); // "now": step again at once
    ///
    /// // With a second clock, before or after the call, it is ambiguous: refused, naming the
    /// // clock it would set and the fix.
    /// let two = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10)?))
    ///     .max_updates(None)
    ///     .clock(ClockConfig::new("physics", Period::from_hz(30)?));
    /// let err = LoopState::new(two, Nanos(0)).unwrap_err();
    /// let clock = "ai".into();
    /// assert_eq!(err, ConfigError::ClockSettingOnLoop { setting: "max_updates", clock, clocks: 2 });
    /// assert!(err.to_string().contains("on each ClockConfig"));
    ///
    /// // Said on each clock, it is what it looks like.
    /// let each = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10)?).max_updates(None))
    ///     .clock(ClockConfig::new("physics", Period::from_hz(30)?).max_updates(None));
    /// let state = LoopState::new(each, Nanos(0))?;
    /// assert_eq!(state.clock("physics").map(|c| c.max_updates()), Ok(None));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn max_updates(self, cap: Option<u32>) -> LoopConfig {
        self.main_clock("max_updates", |c| c.max_updates(cap))
    }

    /// The policy of a loop of one clock (`LoopConfig::new`'s `"main"`, or
    /// [`from_clock`](LoopConfig::from_clock)'s): see [`ClockConfig::policy`]. Default [`Policy::CatchUp`].
    ///
    /// A loop of two or more clocks sets it on each [`ClockConfig`]: with a
    /// [`clock`](LoopConfig::clock) added, before or after this call,
    /// [`LoopState::new`](crate::LoopState::new) refuses the config with
    /// [`ConfigError::ClockSettingOnLoop`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period, Policy};
    ///
    /// // Constant rate: one update per step, at the start of its slot.
    /// let config = LoopConfig::new(Period::from_hz(50)?).policy(Policy::DropAndRest);
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let _ = state.advance(Nanos(0)); // slot 0 runs at once
    /// let events = state.advance(Nanos::from_millis(5));
    /// // Early for slot 1: sleep until it starts (the runner does), then run the update.
    /// let kinds: Vec<Event<Nanos>> = events.iter().take(1).collect();
    /// assert_eq!(kinds, [Event::Sleep { until: Nanos::from_millis(20) }]);
    /// assert_eq!(events.update_count(), 1);
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn policy(self, policy: Policy) -> LoopConfig {
        self.main_clock("policy", |c| c.policy(policy))
    }

    /// The phase of a loop of one clock (`LoopConfig::new`'s `"main"`, or
    /// [`from_clock`](LoopConfig::from_clock)'s): see [`ClockConfig::phase`]. Default 0.
    ///
    /// A loop of two or more clocks sets it on each [`ClockConfig`]: with a
    /// [`clock`](LoopConfig::clock) added, before or after this call,
    /// [`LoopState::new`](crate::LoopState::new) refuses the config with
    /// [`ConfigError::ClockSettingOnLoop`].
    #[must_use]
    pub fn phase(self, fraction: f64) -> LoopConfig {
        self.main_clock("phase", |c| c.phase(fraction))
    }

    /// The hysteresis of a loop of one clock (`LoopConfig::new`'s `"main"`, or
    /// [`from_clock`](LoopConfig::from_clock)'s): see [`ClockConfig::hysteresis`]. Default 0 (off).
    ///
    /// A loop of two or more clocks sets it on each [`ClockConfig`]: with a
    /// [`clock`](LoopConfig::clock) added, before or after this call,
    /// [`LoopState::new`](crate::LoopState::new) refuses the config with
    /// [`ConfigError::ClockSettingOnLoop`].
    #[must_use]
    pub fn hysteresis(self, fraction: f64) -> LoopConfig {
        self.main_clock("hysteresis", |c| c.hysteresis(fraction))
    }

    /// The firing rule of a loop of one clock (`LoopConfig::new`'s `"main"`, or
    /// [`from_clock`](LoopConfig::from_clock)'s): see [`ClockConfig::firing`]. Default [`Firing::Late`].
    ///
    /// A loop of two or more clocks sets it on each [`ClockConfig`]: with a
    /// [`clock`](LoopConfig::clock) added, before or after this call,
    /// [`LoopState::new`](crate::LoopState::new) refuses the config with
    /// [`ConfigError::ClockSettingOnLoop`].
    #[must_use]
    pub fn firing(self, firing: Firing) -> LoopConfig {
        self.main_clock("firing", |c| c.firing(firing))
    }

    /// Adds a clock after the ones already declared. Its tick 0 starts with the loop. Names
    /// must be unique (checked by [`LoopState::new`](crate::LoopState::new)).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(60)?) // "main": physics
    ///     .clock(ClockConfig::new("ai", Period::from_hz(10)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let ai = state.clock("ai").expect("declared above").id();
    /// let events = state.advance(Nanos::from_millis(100));
    /// // The updates of both clocks come merged by due time; `tick.clock` says whose each is.
    /// let ai_ticks = events.updates().filter(|tick| tick.clock == ai).count();
    /// assert_eq!((events.update_count(), ai_ticks), (7, 1));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn clock(mut self, clock: ClockConfig) -> LoopConfig {
        self.clocks.push(clock);
        self
    }

    /// Which clock's alpha the [`Render`](crate::Render) event carries (and
    /// [`LoopState::alpha_clock`](crate::LoopState::alpha_clock) names).
    ///
    /// Default: the fastest clock, the one with the shortest period, so that the render
    /// blends on the finest grid whatever order the clocks are declared in. Clocks of exactly
    /// the same rate tie, and the first declared of them wins: their alpha grids are the same
    /// up to phase, so nothing but a constant offset depends on the order. With one clock,
    /// that clock. A name that is not one of the loop's clocks is refused by
    /// [`LoopState::new`](crate::LoopState::new) ([`ConfigError::AlphaClock`]).
    ///
    /// The choice is made once, when the loop is built, and kept: a clock added at run time
    /// ([`LoopState::add_clock`](crate::LoopState::add_clock)), even a faster one, or a rate
    /// changed at run time never moves it (the render would switch to blending on another
    /// clock's grid in the middle of a game). If the alpha clock is removed, the fastest
    /// remaining clock takes over (ties to the first declared). A saved state resumes with the
    /// alpha clock it was saved with.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    ///
    /// // AI (10 Hz) declared before physics (30 Hz): the render still blends on physics.
    /// let config = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10)?))
    ///     .clock(ClockConfig::new("physics", Period::from_hz(30)?));
    /// let mut state = LoopState::new(config.clone(), Nanos(0))?;
    /// assert_eq!(state.clock("physics").map(|c| c.id()), Ok(state.alpha_clock()));
    /// let render = state.advance(Nanos::from_millis(120)).render().cloned().expect("a render");
    /// assert!((render.alpha - 0.6).abs() < 1e-9); // 20 of physics' 33.3 ms, not AI's 0.2
    ///
    /// // Pinned by name, AI's grid it is.
    /// let state = LoopState::new(config.alpha_clock("ai"), Nanos(0))?;
    /// assert_eq!(state.clock("ai").map(|c| c.id()), Ok(state.alpha_clock()));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn alpha_clock(mut self, name: impl Into<Cow<'static, str>>) -> LoopConfig {
        self.alpha_clock = Some(name.into());
        self
    }

    /// The most virtual time one step may owe (default 250 ms, Bevy's), whatever the time
    /// scale: at a scale of 2,000 a 16 ms frame still owes at most 250 ms of ticks, at 0.01 a
    /// 2 s frame owes 20 ms and loses nothing (Bevy clamps virtual time the same way).
    ///
    /// The rule, per clock: a step keeps due as many ticks as were due by the later of (the
    /// step's starting virtual time + this delta) and (the due time of the clock's next tick
    /// when the step began), so a shell that sleeps until the deadline the fold gave it never
    /// loses the tick it woke for, however slow the clock. The others, as many as came due
    /// after that, are dropped oldest first (the clock's next tick numbers), reported as
    /// [`Event::DiscardedTime`](crate::Event::DiscardedTime) with their numbers; the tick
    /// number jumps over them, so the ticks that run are the newest due and the simulation
    /// stays in sync with the clock instead of falling behind for good.
    ///
    /// It also bounds the backlog the per-step cap defers
    /// ([`ClockConfig::max_updates`]) under sustained overload, when every frame brings more
    /// ticks than the cap lets run: when a step ends with a backlog whose oldest tick is more
    /// than this delta behind, every catch-up clock gives up the ticks due by the step's
    /// virtual time less half this delta (one point for all clocks, so they stay together in
    /// the loop's total order), reported as [`Event::DiscardedTime`](crate::Event::DiscardedTime).
    /// After every step a clock owes at most the ticks due within this delta of the step's
    /// virtual time (`p` ticks with `(p − 1)·dt` under the delta + 1 ns). The world runs
    /// slower than real time, as the cap allows, but at most this far behind.
    ///
    /// `None` keeps every tick (the cap still bounds each step), and then the backlog may
    /// grow without bound under sustained overload: main 60 Hz, physics 240 Hz and AI 10 Hz at
    /// 20 fps with the default cap owe 1,200 main ticks (20 s) after 60 s. A zero duration is
    /// rejected at construction.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::time::Duration;
    /// use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
    ///
    /// let config = LoopConfig::new(Period::from_hz(50)?)
    ///     .max_updates(None)
    ///     .max_frame_delta(Some(Duration::from_millis(100)));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// // A 1 s stall (a debugger, a dragged window): 50 ticks came due, 100 ms of them are kept.
    /// let events = state.advance(Nanos::from_secs(1));
    /// assert_eq!(events.update_count(), 5);
    /// let discarded = |e: Event<Nanos>| matches!(e, Event::DiscardedTime { first: 0, ticks: 45, .. });
    /// assert!(events.iter().any(discarded));
    /// assert_eq!(events.updates().next().map(|tick| tick.index), Some(45)); // the newest run
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn max_frame_delta(mut self, max: Option<Duration>) -> LoopConfig {
        self.max_frame_delta = max;
        self
    }

    /// Render at most at `rate`, on a fixed grid of slots that never slips. Default here: no
    /// cap, so a shell that sleeps until the deadline draws once per tick (alpha near 0, no
    /// visible interpolation); the facade's `Runner::new` with a sleeping sleeper sets a 60 Hz
    /// cap unless one is chosen. A shell paced by vsync (no sleeping) needs no cap.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// // Ticks at 100 Hz, frames every 5 ms, renders capped at 50 Hz.
    /// let config = LoopConfig::new(Period::from_hz(100)?).render_rate(Some(Period::from_hz(50)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let mut renders = 0;
    /// for frame in 1..=200u64 {
    ///     let events = state.advance(Nanos::from_millis(5 * frame));
    ///     renders += u32::from(events.render().is_some());
    /// }
    /// assert_eq!(state.clock("main").map(|c| c.stats().ticks_run), Ok(100));
    /// assert_eq!(renders, 51); // the first step's, then one per 20 ms slot (20 ms to 1 s)
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn render_rate(mut self, rate: Option<Period>) -> LoopConfig {
        self.render_rate = rate;
        self
    }

    /// The initial time scale. Default 1.
    #[must_use]
    pub fn time_scale(mut self, scale: TimeScale) -> LoopConfig {
        self.scale = scale;
        self
    }

    /// Start paused. Default `false`.
    #[must_use]
    pub fn paused(mut self, paused: bool) -> LoopConfig {
        self.paused = paused;
        self
    }

    /// The main clock's tick rate.
    #[must_use]
    pub fn rate(&self) -> Period {
        self.clocks.first().map_or(Period::ONE_SECOND, |c| c.rate)
    }

    /// The clocks, in declaration order.
    #[must_use]
    pub fn clocks(&self) -> &[ClockConfig] {
        &self.clocks
    }

    /// The max frame delta in ns, checked.
    pub(crate) fn checked_max_delta(&self) -> Result<Option<u64>, ConfigError> {
        match self.max_frame_delta {
            Some(d) if d.is_zero() => Err(ConfigError::ZeroMaxFrameDelta),
            d => Ok(d.map(|d| Nanos::from(d).0)),
        }
    }
}

/// The validated, integer form of a clock's fractional settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Checked {
    pub(crate) cap: u32,
    pub(crate) phase_ns: u64,
    pub(crate) hysteresis_ns: u64,
}
