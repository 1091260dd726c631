//! The fold's documented invariants, one function each, checked after every step.
//!
//! The rules come from the rustdoc of `LoopState`, `Event`, `Tick`, `Render`, `ClockStats` and
//! `LoopState::ticks_due`. When a rule's documentation changes, change its function here.

use std::collections::HashMap;

use tickfold::{
    ClockConfig, ClockId, ClockStats, Event, Events, Firing, LoopState, MAX_UPDATES_PER_STEP,
    Nanos, Policy, TimeScale,
};

/// The settings of a clock the model needs (the config's fields are private).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// `max_updates`.
    pub cap: Option<u32>,
    /// The policy.
    pub policy: Policy,
    /// Phase, as a fraction of a tick.
    pub phase: f64,
    /// Hysteresis, as a fraction of a tick.
    pub hysteresis: f64,
    /// The firing rule.
    pub firing: Firing,
}

/// What the model knows about one clock of the loop.
#[derive(Debug, Clone)]
pub struct ModelClock {
    /// The id the loop gave it.
    pub id: ClockId,
    /// Its configuration (name and rate).
    pub config: ClockConfig,
    /// Its settings.
    pub settings: Settings,
    /// Virtual ns since the loop's start at which its tick 0 starts.
    pub origin: u64,
    /// The phase in whole ns, rounded as `ClockConfig::phase` describes (once, down).
    pub phase_ns: u64,
}

impl ModelClock {
    /// A clock that joined at virtual time `origin`.
    pub fn new(id: ClockId, config: ClockConfig, settings: Settings, origin: u64) -> ModelClock {
        let (num, den) = config.rate().as_nanos_ratio();
        let phase_ns = ((num as f64 / den as f64) * settings.phase) as u64;
        ModelClock {
            id,
            config,
            settings,
            origin,
            phase_ns,
        }
    }

    fn constant_rate(&self) -> bool {
        self.settings.policy != Policy::CatchUp
    }

    /// The most updates one step may run for this clock.
    fn cap(&self) -> u64 {
        if self.constant_rate() {
            1
        } else {
            u64::from(
                self.settings
                    .cap
                    .unwrap_or(MAX_UPDATES_PER_STEP)
                    .min(MAX_UPDATES_PER_STEP),
            )
        }
    }

    /// `k`·dt rounded up, saturating at `u64::MAX` like every time in the fold.
    fn ceil_ticks(&self, k: u128) -> u64 {
        let (num, den) = self.config.rate().as_nanos_ratio();
        let v = (k * u128::from(num)).div_ceil(u128::from(den));
        u64::try_from(v).unwrap_or(u64::MAX)
    }

    /// When tick `k` is due (virtual ns): the end of its interval less the phase for catch-up,
    /// the start of its slot for the constant-rate policies.
    fn due(&self, k: u64) -> u64 {
        let local = if self.constant_rate() {
            self.ceil_ticks(u128::from(k))
        } else {
            self.ceil_ticks(u128::from(k) + 1)
                .saturating_sub(self.phase_ns)
        };
        self.origin.saturating_add(local)
    }

    /// `Tick::lag` of tick `k` fired at virtual time `v`: how far simulation time (`k`·dt) was
    /// behind virtual time on the clock's own axis, rounded down, 0 when early. Exact for
    /// catch-up ticks even where the clock's axis (`v` plus the phase) runs past `u64::MAX` ns
    /// ("exact at any distance"); only the result saturates.
    fn lag(&self, k: u64, v: u64) -> u64 {
        let Some(local) = v.checked_sub(self.origin) else {
            return 0;
        };
        if self.constant_rate() {
            return local.saturating_sub(self.ceil_ticks(u128::from(k)));
        }
        let (num, den) = self.config.rate().as_nanos_ratio();
        let start = (u128::from(k) * u128::from(num)).div_ceil(u128::from(den));
        let lag = (u128::from(local) + u128::from(self.phase_ns)).saturating_sub(start);
        u64::try_from(lag).unwrap_or(u64::MAX)
    }
}

/// The state before a step, per model clock.
pub struct Before {
    /// Virtual time.
    pub virt: u64,
    /// Each model clock's stats, in the model's order.
    pub stats: Vec<ClockStats>,
}

impl Before {
    /// Reads it from the loop.
    pub fn of(state: &LoopState<Nanos>, clocks: &[ModelClock]) -> Before {
        Before {
            virt: state.virtual_time().elapsed().0,
            stats: clocks.iter().map(|c| stats(state, c)).collect(),
        }
    }
}

fn stats(state: &LoopState<Nanos>, c: &ModelClock) -> ClockStats {
    let s = state.clock(c.id).ok().map(|c| c.stats());
    check!(
        s.is_some(),
        "clock {:?} ({}) has no stats",
        c.id,
        c.config.name()
    );
    s.unwrap_or_default()
}

/// What the step was asked to do, and the loop's controls as the step saw them.
pub struct Step {
    /// The step's `now`, ns after the base.
    pub now: u64,
    /// The loop's start, ns after the base.
    pub start: u64,
    /// The latest `now` before this step; `None` before the first step.
    pub latest: Option<u64>,
    /// Renders are capped by a render rate.
    pub render_capped: bool,
    /// Paused during the step.
    pub paused: bool,
    /// The scale during the step.
    pub scale: TimeScale,
    /// Paused as the previous step reported it.
    pub reported_paused: bool,
    /// The scale the previous step used.
    pub reported_scale: TimeScale,
}

impl Step {
    /// The latest time the loop has seen, as an offset from the base (at least its start).
    fn latest_abs(&self) -> u64 {
        self.latest.map_or(self.start, |l| l.max(self.start))
    }
}

/// Every per-step invariant.
pub fn check_step(
    step: &Step,
    before: &Before,
    clocks: &[ModelClock],
    events: &Events<Nanos>,
    state: &LoopState<Nanos>,
) {
    let after: Vec<ClockStats> = clocks.iter().map(|c| stats(state, c)).collect();
    let v = state.virtual_time().elapsed().0;
    let checks: [(&str, &dyn Fn()); 9] = [
        ("numbering", &|| {
            check_numbering(before, clocks, events, &after)
        }),
        ("updates", &|| check_updates(clocks, events)),
        ("lag", &|| check_lag(clocks, events, v)),
        ("last_in_step", &|| check_last_in_step(events)),
        ("renders", &|| check_renders(step, events, state)),
        ("backwards", &|| {
            check_backwards(step, before, events, state, &after)
        }),
        ("deadline", &|| check_deadline(step, events)),
        ("controls", &|| check_controls(step, events)),
        // Summing the reported drops must not overflow (the sum is public API).
        ("dropped_sum", &|| _ = events.dropped_ticks()),
    ];
    for (name, check) in checks {
        if !crate::skipped(name) {
            check();
        }
    }
    for (c, s) in clocks.iter().zip(&after) {
        if !crate::skipped("identity") {
            accounting_identity(c, s);
        }
        check!(
            (0.0..=1.0).contains(&s.alpha),
            "clock {} alpha {} outside [0, 1]",
            c.config.name(),
            s.alpha
        );
        // As documented on `LoopState::pending`: a constant-rate clock keeps no backlog after
        // a step that runs it (a paused or stopped one may have a started slot pending).
        if c.constant_rate() && events.updates().any(|t| t.clock == c.id) {
            check!(
                s.pending == 0,
                "constant-rate clock {} ran and still has a backlog of {}",
                c.config.name(),
                s.pending
            );
        }
    }
}

/// The accounting identity of `ClockStats`, as documented: `ticks_run + ticks_dropped +
/// pending == ticks_due + ticks_early` after every step, for every clock and configuration, and
/// at most one of `pending` and `ticks_early` is non-zero. Keep this the one place that states it.
pub fn accounting_identity(c: &ModelClock, s: &ClockStats) {
    let lhs = u128::from(s.ticks_run) + u128::from(s.ticks_dropped) + u128::from(s.pending);
    let rhs = u128::from(s.ticks_due) + u128::from(s.ticks_early);
    check!(
        lhs == rhs,
        "clock {}: ticks_run {} + ticks_dropped {} + pending {} != ticks_due {} + ticks_early {}",
        c.config.name(),
        s.ticks_run,
        s.ticks_dropped,
        s.pending,
        s.ticks_due,
        s.ticks_early
    );
    check!(
        s.pending == 0 || s.ticks_early == 0,
        "clock {}: pending {} and ticks_early {} at once",
        c.config.name(),
        s.pending,
        s.ticks_early
    );
}

/// Tick numbers go 0, 1, 2, … per clock, jumping only across reported drops
/// (`DroppedTicks`, `DiscardedTime`), and the loop's `next_tick` follows them.
fn check_numbering(
    before: &Before,
    clocks: &[ModelClock],
    events: &Events<Nanos>,
    after: &[ClockStats],
) {
    let mut next: HashMap<ClockId, u64> = clocks
        .iter()
        .zip(&before.stats)
        .map(|(c, s)| (c.id, s.next_tick))
        .collect();
    let mut jump = |clock: ClockId, first: u64, count: u64, what: &str| {
        let n = next.get_mut(&clock);
        check!(n.is_some(), "{what} for unknown clock {clock:?}");
        if let Some(n) = n {
            check!(
                first == *n,
                "{what} of clock {clock:?} starts at {first}, next tick is {n}"
            );
            let end = first.checked_add(count);
            check!(
                end.is_some(),
                "{what} of clock {clock:?}: {first} + {count} overflows"
            );
            *n = end.unwrap_or(u64::MAX);
        }
    };
    for e in events.iter() {
        match e {
            Event::DroppedTicks {
                clock,
                first,
                count,
                ..
            } => jump(clock, first, count, "DroppedTicks"),
            Event::DiscardedTime {
                clock,
                first,
                ticks,
                ..
            } => jump(clock, first, ticks, "DiscardedTime"),
            Event::Update(t) => jump(t.clock, t.index, 1, "Update"),
            _ => {}
        }
    }
    for (c, s) in clocks.iter().zip(after) {
        check!(
            next[&c.id] == s.next_tick,
            "clock {}: events end at tick {}, the loop says next is {}",
            c.config.name(),
            next[&c.id],
            s.next_tick
        );
    }
}

/// Each update's `lag`: how far simulation time was behind virtual time, rounded down.
fn check_lag(clocks: &[ModelClock], events: &Events<Nanos>, v: u64) {
    for t in events.updates() {
        let Some(c) = clocks.iter().find(|c| c.id == t.clock) else {
            continue;
        };
        let lag = c.lag(t.index, v);
        check!(
            t.lag.as_nanos() == i128::from(lag),
            "tick {} of {} at virtual {v}: lag {} (expected {lag})",
            t.index,
            c.config.name(),
            t.lag
        );
    }
}

/// Updates come in due-time order across clocks (ties by declaration order), at most the cap
/// per clock per step, each with its clock's `dt` and `t = index·dt`.
fn check_updates(clocks: &[ModelClock], events: &Events<Nanos>) {
    let mut count: HashMap<ClockId, u64> = HashMap::new();
    let mut prev: Option<(u64, usize)> = None;
    for t in events.updates() {
        let Some(pos) = clocks.iter().position(|c| c.id == t.clock) else {
            check!(false, "update of unknown clock {:?}", t.clock);
            return;
        };
        let c = &clocks[pos];
        let n = count.entry(t.clock).or_default();
        *n += 1;
        check!(
            *n <= c.cap(),
            "clock {} ran {} updates in one step, cap {}",
            c.config.name(),
            n,
            c.cap()
        );
        check!(t.dt == c.config.rate(), "update with the wrong dt");
        let (num, den) = c.config.rate().as_nanos_ratio();
        let t_exact = u128::from(t.index) * u128::from(num) / u128::from(den);
        check!(
            u128::from(t.t.0) == t_exact.min(u128::from(u64::MAX)),
            "tick {} of {} has t = {}, index·dt = {t_exact}",
            t.index,
            c.config.name(),
            t.t.0
        );
        let key = (c.due(t.index), pos);
        if let Some(p) = prev {
            check!(
                p <= key,
                "updates out of due-time order: (due, clock) {p:?} before {key:?}"
            );
        }
        prev = Some(key);
    }
}

/// `last_in_step` is set on exactly each clock's last update of the step.
fn check_last_in_step(events: &Events<Nanos>) {
    let ticks: Vec<_> = events.updates().collect();
    let mut last_of: HashMap<ClockId, usize> = HashMap::new();
    for (i, t) in ticks.iter().enumerate() {
        last_of.insert(t.clock, i);
    }
    for (i, t) in ticks.iter().enumerate() {
        let last = last_of[&t.clock] == i;
        check!(
            t.last_in_step == last,
            "tick {} of clock {:?}: last_in_step {} but is{} the clock's last update",
            t.index,
            t.clock,
            t.last_in_step,
            if last { "" } else { " not" }
        );
    }
}

/// The first step renders; a step whose `now` is not after the latest renders nothing; without
/// a render cap every step that advances time renders; alpha is in `[0, 1]`, never NaN.
fn check_renders(step: &Step, events: &Events<Nanos>, state: &LoopState<Nanos>) {
    let renders: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Render(r) => Some(r),
            _ => None,
        })
        .collect();
    check!(renders.len() <= 1, "{} renders in one step", renders.len());
    let first = step.latest.is_none();
    if first {
        check!(renders.len() == 1, "the first step did not render");
    } else if step.now <= step.latest_abs() {
        check!(
            renders.is_empty(),
            "a step at {} (latest {}) rendered",
            step.now,
            step.latest_abs()
        );
    } else if !step.render_capped {
        check!(
            renders.len() == 1,
            "a step that advanced time rendered nothing"
        );
    }
    for r in renders {
        check!(
            (0.0..=1.0).contains(&r.alpha),
            "render alpha {} outside [0, 1] or NaN",
            r.alpha
        );
        check!(r.paused == step.paused, "render paused flag is wrong");
        check!(
            r.ticks == state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
            "render says {} ticks, the alpha clock ran {}",
            r.ticks,
            state.clock(state.alpha_clock()).unwrap().stats().ticks_run
        );
    }
}

/// A `now` before the latest reports `TimeBackwards` by the difference and makes nothing new
/// due: virtual time and every clock's `ticks_due` stay as they were.
fn check_backwards(
    step: &Step,
    before: &Before,
    events: &Events<Nanos>,
    state: &LoopState<Nanos>,
    after: &[ClockStats],
) {
    let latest = step.latest_abs();
    let reported: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            Event::TimeBackwards { by } => Some(by.0),
            _ => None,
        })
        .collect();
    if step.now < latest {
        check!(
            reported == [latest - step.now],
            "now {} before latest {latest}: reported {reported:?}",
            step.now
        );
        check!(
            state.virtual_time().elapsed().0 == before.virt,
            "virtual time moved on a backwards step"
        );
        for (b, a) in before.stats.iter().zip(after) {
            check!(
                a.ticks_due == b.ticks_due,
                "a backwards step made ticks of {} due ({} -> {})",
                a.name,
                b.ticks_due,
                a.ticks_due
            );
        }
    } else {
        check!(
            reported.is_empty(),
            "TimeBackwards on a step that did not go back"
        );
    }
}

/// The deadline, and every `Sleep`, is never earlier than the step's `now`.
fn check_deadline(step: &Step, events: &Events<Nanos>) {
    if let Some(d) = events.deadline() {
        check!(d.0 >= step.now, "deadline {} before now {}", d.0, step.now);
    }
    for e in events.iter() {
        if let Event::Sleep { until } = e {
            check!(
                until.0 >= step.now,
                "sleep until {} before now {}",
                until.0,
                step.now
            );
        }
    }
}

/// `Paused`, `Resumed` and `ScaleChanged` report exactly the changes since the previous step.
fn check_controls(step: &Step, events: &Events<Nanos>) {
    let count = |f: &dyn Fn(&Event<Nanos>) -> bool| events.iter().filter(|e| f(e)).count();
    let paused = count(&|e| matches!(e, Event::Paused));
    let resumed = count(&|e| matches!(e, Event::Resumed));
    let scaled: Vec<TimeScale> = events
        .iter()
        .filter_map(|e| match e {
            Event::ScaleChanged(s) => Some(s),
            _ => None,
        })
        .collect();
    check!(
        paused == usize::from(step.paused && !step.reported_paused),
        "Paused reported {paused} times"
    );
    check!(
        resumed == usize::from(!step.paused && step.reported_paused),
        "Resumed reported {resumed} times"
    );
    if step.scale == step.reported_scale {
        check!(scaled.is_empty(), "ScaleChanged without a change");
    } else {
        check!(
            scaled == [step.scale],
            "scale change reported as {scaled:?}"
        );
    }
}

/// Virtual time as an exact fraction: real time while not paused, times the scale in force.
pub struct VirtModel {
    whole: u128,
    num: u128,
    den: u128,
    /// False once the fraction's denominator no longer fits (the check is then skipped).
    exact: bool,
}

impl Default for VirtModel {
    fn default() -> Self {
        VirtModel::new()
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl VirtModel {
    /// Zero.
    pub fn new() -> VirtModel {
        VirtModel {
            whole: 0,
            num: 0,
            den: 1,
            exact: true,
        }
    }

    /// Adds `real` ns at `scale`.
    pub fn add(&mut self, real: u64, scale: TimeScale) {
        let (sn, sd) = scale.as_ratio();
        let (sn, sd) = (u128::from(sn), u128::from(sd));
        let p = u128::from(real) * sn;
        self.whole = self.whole.saturating_add(p / sd);
        let r = p % sd;
        if r == 0 {
            return;
        }
        let l = self.den / gcd(self.den, sd);
        let Some(l) = l.checked_mul(sd).filter(|l| *l < 1 << 96) else {
            self.exact = false;
            return;
        };
        self.num = self.num * (l / self.den) + r * (l / sd);
        self.whole = self.whole.saturating_add(self.num / l);
        self.num %= l;
        let g = gcd(self.num, l).max(1);
        self.num /= g;
        self.den = l / g;
    }
}

/// Virtual time is the exact scaled sum, rounded down: "no nanosecond is ever lost or invented"
/// (`TimeScale`), a scale change "applies to all real time after the latest now, exactly".
pub fn check_virtual_time(model: &VirtModel, state: &LoopState<Nanos>) {
    if !model.exact || crate::skipped("virtual_time") {
        return;
    }
    let expected = model.whole.min(u128::from(u64::MAX));
    check!(
        u128::from(state.virtual_time().elapsed().0) == expected,
        "virtual time {} ns, the exact scaled sum is {} + {}/{} ns",
        state.virtual_time().elapsed().0,
        model.whole,
        model.num,
        model.den
    );
}
