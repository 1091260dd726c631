//! Target `fold`: arbitrary loop configurations and operations on `LoopState`, stepped as
//! `Nanos`, `Duration` and `Instant` copies in lockstep, with every documented invariant checked
//! after every step (see [`crate::fold_checks`]).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use tickfold::{
    ClockConfig, ClockId, ConfigError, Event, Events, Firing, LoopConfig, LoopState, Nanos, Period,
    Policy, RateError, RemoveClockError, TimeScale, Timestamp,
};

use crate::fold_checks::{self, Before, ModelClock, Settings, Step, VirtModel};

/// Clock names: the main clock, then the declared and added ones.
const NAMES: [&str; 33] = [
    "main", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13",
    "c14", "c15", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12",
    "a13", "a14", "a15", "a16",
];

/// The longest tick generated: 10⁹ s (a little more through `SecsRatio`).
const MAX_PERIOD_NS: u64 = 1_000_000_000_000_000_000;

/// A tick rate, built through one of the public constructors (invalid ones included).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum RateSpec {
    /// `from_hz`.
    Hz(u16),
    /// `from_hz_ratio`.
    HzRatio(u32, u32),
    /// `from_duration` in ns, up to 10⁹ s (0 is invalid).
    PeriodNs(u64),
    /// `from_secs_ratio`.
    SecsRatio(u32, u32),
}

impl RateSpec {
    pub(crate) fn build(self) -> Result<Period, RateError> {
        match self {
            RateSpec::Hz(hz) => Period::from_hz(u64::from(hz)),
            RateSpec::HzRatio(n, d) => Period::from_hz_ratio(u64::from(n), u64::from(d)),
            RateSpec::PeriodNs(ns) => {
                Period::from_duration(Duration::from_nanos(ns % (MAX_PERIOD_NS + 1)))
            }
            RateSpec::SecsRatio(n, d) => Period::from_secs_ratio(u64::from(n), u64::from(d)),
        }
    }
}

/// One clock's settings, invalid ones included.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct ClockSpec {
    rate: RateSpec,
    /// 1 to 10 (small caps keep runs fast), 254: 1,000, 255: no cap (up to
    /// `MAX_UPDATES_PER_STEP`); 0 is invalid.
    cap: u8,
    policy: u8,
    /// `raw / 60000` of a tick: ≥ 1 (invalid) from 60000 on.
    phase: Option<u16>,
    /// `raw / 120000` of a tick: > ½ (invalid) above 60000.
    hysteresis: Option<u16>,
    nearest: bool,
    /// 0: keep a phase or hysteresis on a constant-rate clock (a `CatchUpOnly` error);
    /// otherwise they apply to catch-up clocks only, so most inputs build a loop.
    misconfigure: u8,
}

impl ClockSpec {
    pub(crate) fn build(self, name: &'static str) -> Result<(ClockConfig, Settings), ConfigError> {
        let cap = match self.cap {
            0 => Some(0),
            254 => Some(1_000),
            255 => None,
            c => Some(u32::from(c % 10) + 1),
        };
        let policy = match self.policy % 3 {
            0 => Policy::CatchUp,
            1 => Policy::DropAndRest,
            _ => Policy::KeepWorking,
        };
        let firing = if self.nearest {
            Firing::Nearest
        } else {
            Firing::Late
        };
        let fractional = policy == Policy::CatchUp || self.misconfigure == 0;
        let settings = Settings {
            cap,
            policy,
            phase: self
                .phase
                .filter(|_| fractional)
                .map_or(0.0, |p| f64::from(p) / 60_000.0),
            hysteresis: self
                .hysteresis
                .filter(|_| fractional)
                .map_or(0.0, |h| f64::from(h) / 120_000.0),
            firing,
        };
        let config = ClockConfig::new(name, self.rate.build()?)
            .max_updates(cap)
            .policy(policy)
            .phase(settings.phase)
            .hysteresis(settings.hysteresis)
            .firing(firing);
        Ok((config, settings))
    }
}

/// The loop's settings.
#[derive(Arbitrary, Debug, Clone)]
pub struct LoopSpec {
    main: ClockSpec,
    /// Up to 15 more clocks (1 to 16 in all).
    more: Vec<ClockSpec>,
    alpha_clock: Option<u8>,
    /// ns; 0 is invalid.
    max_frame_delta: Option<u64>,
    render_rate: Option<RateSpec>,
    scale: Option<(u32, u32)>,
    paused: bool,
    /// The loop's start, ns after the common base.
    start: u64,
}

/// One operation on the loop.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Op {
    /// Step to the latest `now` plus this many ns.
    Forward(u32),
    /// Step forward by any amount (saturating).
    Leap(u64),
    /// Step backwards by this many ns.
    Backward(u32),
    /// Step to the same `now` again.
    Repeat,
    /// Step to this absolute offset from the base.
    At(u64),
    /// Step to the end of time, `u64::MAX` ns after the base.
    EndOfTime,
    /// Clone the `Nanos` loop; the clone is stepped along with it from now on.
    Fork,
    /// Compare the clone with the loop and drop it.
    Join,
    /// Add a clock starting at this virtual time (or now).
    AddClock(ClockSpec, Option<u64>),
    /// Remove the clock at this position.
    RemoveClock(u8),
    /// Pause or resume.
    SetPaused(bool),
    /// Change the time scale to `num / den` (small ratios: their remainders matter).
    SetScale(u8, u8),
    /// Change the time scale to any `num / den`.
    SetAnyScale(u32, u32),
}

/// The fuzz input: a loop and what to do with it.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    spec: LoopSpec,
    ops: Vec<Op>,
}

fn base() -> Instant {
    static BASE: OnceLock<Instant> = OnceLock::new();
    *BASE.get_or_init(Instant::now)
}

/// Offsets from the common base, as `u128` so nothing saturates when comparing.
trait Offset: Timestamp {
    fn at(ns: u64) -> Self;
    fn offset(&self) -> u128;
}

impl Offset for Nanos {
    fn at(ns: u64) -> Self {
        Nanos(ns)
    }
    fn offset(&self) -> u128 {
        u128::from(self.0)
    }
}

impl Offset for Duration {
    fn at(ns: u64) -> Self {
        Duration::from_nanos(ns)
    }
    fn offset(&self) -> u128 {
        self.as_nanos()
    }
}

impl Offset for Instant {
    fn at(ns: u64) -> Self {
        // At most 2·584 years after the base: far inside `Instant`'s range on the targets
        // fuzzing runs on (64-bit seconds).
        base() + Duration::from_nanos(ns)
    }
    fn offset(&self) -> u128 {
        self.duration_since(base()).as_nanos()
    }
}

/// An event with its timestamps as offsets from the base, saturated at `u64::MAX` ns as
/// `Nanos` saturates: the form in which the three copies must agree.
fn normalize<T: Offset>(events: &Events<T>) -> (Vec<Event<u64>>, Option<u64>) {
    let sat = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    let list = events
        .iter()
        .map(|e| e.map_time(|until| sat(until.offset())))
        .collect();
    (list, events.deadline().map(|d| sat(d.offset())))
}

/// The three copies of the loop and everything the checks need to know about them.
struct Harness {
    nanos: LoopState<Nanos>,
    duration: LoopState<Duration>,
    instant: LoopState<Instant>,
    fork: Option<LoopState<Nanos>>,
    buffer: Events<Nanos>,
    clocks: Vec<ModelClock>,
    start: u64,
    /// The latest `now` passed, as an offset from the base; `None` before the first step.
    latest: Option<u64>,
    /// The cursor the relative steps move from (may be behind `latest` after a backwards step).
    cursor: u64,
    render_capped: bool,
    virt: VirtModel,
    reported_paused: bool,
    reported_scale: TimeScale,
    next_added: usize,
}

/// Runs one input: builds the loop (a configuration error ends the run), then applies the ops.
pub fn run(input: Input) {
    let Some(mut h) = Harness::new(&input.spec) else {
        return;
    };
    for op in input.ops.iter().take(256) {
        h.apply(*op);
    }
}

impl Harness {
    fn new(spec: &LoopSpec) -> Option<Harness> {
        let mut specs = vec![spec.main];
        specs.extend(spec.more.iter().take(15).copied());
        let mut clocks = Vec::new();
        let mut config: Option<LoopConfig> = None;
        for (i, s) in specs.iter().enumerate() {
            let (c, settings) = s.build(NAMES[i]).ok()?;
            clocks.push(ModelClock::new(ClockId(i as u16), c.clone(), settings, 0));
            config = Some(match config {
                None => LoopConfig::from_clock(c),
                Some(l) => l.clock(c),
            });
        }
        let mut config = config?
            .max_frame_delta(spec.max_frame_delta.map(Duration::from_nanos))
            .paused(spec.paused);
        if let Some(r) = spec.render_rate {
            config = config.render_rate(Some(r.build().ok()?));
        }
        if let Some((n, d)) = spec.scale {
            config = config.time_scale(TimeScale::ratio(n, d).ok()?);
        }
        if let Some(a) = spec.alpha_clock {
            // 255 names a clock that does not exist (a `NoSuchClock` error).
            let i = if a == 255 {
                32
            } else {
                usize::from(a) % specs.len()
            };
            config = config.alpha_clock(NAMES[i]);
        }
        let start = spec.start;
        let nanos = LoopState::new(config.clone(), Nanos::at(start));
        let duration = LoopState::new(config.clone(), Duration::at(start));
        let instant = LoopState::new(config.clone(), Instant::at(start));
        check!(
            nanos.as_ref().err() == duration.as_ref().err()
                && nanos.as_ref().err() == instant.as_ref().err(),
            "the three timestamp types disagree on the configuration"
        );
        let nanos = nanos.ok()?;
        let scale = nanos.virtual_time().scale();
        Some(Harness {
            duration: duration.ok()?,
            instant: instant.ok()?,
            fork: None,
            buffer: Events::new(),
            clocks,
            start,
            latest: None,
            cursor: start,
            render_capped: spec.render_rate.is_some(),
            virt: VirtModel::new(),
            reported_paused: nanos.virtual_time().is_paused(),
            reported_scale: scale,
            next_added: 0,
            nanos,
        })
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Forward(d) => self.step(self.cursor.saturating_add(u64::from(d))),
            Op::Leap(d) => self.step(self.cursor.saturating_add(d)),
            Op::Backward(d) => self.step(self.cursor.saturating_sub(u64::from(d))),
            Op::Repeat => self.step(self.cursor),
            Op::At(t) => self.step(t),
            Op::EndOfTime => self.step(u64::MAX),
            Op::Fork => self.fork = Some(self.nanos.clone()),
            Op::Join => {
                if let Some(f) = self.fork.take() {
                    check!(
                        f == self.nanos,
                        "a clone stepped identically ended in another state"
                    );
                }
            }
            Op::AddClock(spec, at) => self.add_clock(spec, at),
            Op::RemoveClock(i) => self.remove_clock(i),
            Op::SetPaused(p) => {
                self.nanos.virtual_time_mut().set_paused(p);
                self.duration.virtual_time_mut().set_paused(p);
                self.instant.virtual_time_mut().set_paused(p);
                if let Some(f) = &mut self.fork {
                    f.virtual_time_mut().set_paused(p);
                }
            }
            Op::SetScale(n, d) => self.apply(Op::SetAnyScale(n.into(), d.into())),
            Op::SetAnyScale(n, d) => {
                let Ok(s) = TimeScale::ratio(n, d) else {
                    return;
                };
                self.nanos.virtual_time_mut().set_scale(s);
                self.duration.virtual_time_mut().set_scale(s);
                self.instant.virtual_time_mut().set_scale(s);
                if let Some(f) = &mut self.fork {
                    f.virtual_time_mut().set_scale(s);
                }
            }
        }
    }

    fn add_clock(&mut self, spec: ClockSpec, at: Option<u64>) {
        if self.next_added >= 17 || self.clocks.len() >= 16 {
            return;
        }
        let name = NAMES[16 + self.next_added];
        let Ok((config, settings)) = spec.build(name) else {
            return;
        };
        let start = at.map(Nanos);
        let origin = at.unwrap_or(self.nanos.virtual_time().elapsed().0);
        let a = self.nanos.add_clock(config.clone(), start);
        let b = self.duration.add_clock(config.clone(), start);
        let c = self.instant.add_clock(config.clone(), start);
        check!(
            a == b && a == c,
            "add_clock differs between timestamp types"
        );
        if let Some(f) = &mut self.fork {
            check!(
                f.add_clock(config.clone(), start) == a,
                "add_clock differs on the clone"
            );
        }
        if let Ok(id) = a {
            self.next_added += 1;
            self.clocks
                .push(ModelClock::new(id, config, settings, origin));
        }
    }

    fn remove_clock(&mut self, i: u8) {
        let Some(name) = self
            .clocks
            .get(usize::from(i) % self.clocks.len())
            .map(|c| c.config.name().to_owned())
        else {
            return;
        };
        let a = self.nanos.remove_clock(&name);
        check!(
            a == self.duration.remove_clock(&name) && a == self.instant.remove_clock(&name),
            "remove_clock differs between timestamp types"
        );
        if let Some(f) = &mut self.fork {
            check!(
                f.remove_clock(&name) == a,
                "remove_clock differs on the clone"
            );
        }
        match a {
            Ok(_) => self.clocks.retain(|c| c.config.name() != name),
            Err(e) => check!(
                e == RemoveClockError::LastClock && self.clocks.len() == 1,
                "remove_clock({name}) failed with {e:?} though {} clocks remain",
                self.clocks.len()
            ),
        }
    }

    fn step(&mut self, now: u64) {
        self.cursor = now;
        let before = Before::of(&self.nanos, &self.clocks);
        let paused = self.nanos.virtual_time().is_paused();
        let scale = self.nanos.virtual_time().scale();

        // advance_into into a reused buffer must equal step.
        let mut copy = self.nanos.clone();
        copy.advance_into(Nanos::at(now), &mut self.buffer);
        let (next, events) = self.nanos.clone().step(Nanos::at(now));
        check!(
            crate::skipped("advance_into") || (copy == next && self.buffer == events),
            "advance_into differs from step at now={now}"
        );
        self.nanos = next;

        let dur = self.duration.advance(Duration::at(now));
        let ins = self.instant.advance(Instant::at(now));
        let n = normalize(&events);
        let lockstep = !crate::skipped("lockstep");
        check!(
            !lockstep || n == normalize(&dur),
            "Nanos and Duration copies disagree at now={now}:\n{n:?}\n{:?}",
            normalize(&dur)
        );
        check!(
            !lockstep || n == normalize(&ins),
            "Nanos and Instant copies disagree at now={now}:\n{n:?}\n{:?}",
            normalize(&ins)
        );
        if let Some(f) = self.fork.take() {
            let (f, fe) = f.step(Nanos::at(now));
            check!(
                fe == events,
                "a clone stepped identically gave other events"
            );
            self.fork = Some(f);
        }

        // The exact virtual-time model: real time since the latest `now`, scaled, unless paused.
        let latest_abs = self.latest.map_or(self.start, |l| l.max(self.start));
        if now > latest_abs && !paused {
            self.virt.add(now - latest_abs, scale);
        }

        let step = Step {
            now,
            start: self.start,
            latest: self.latest,
            render_capped: self.render_capped,
            paused,
            scale,
            reported_paused: self.reported_paused,
            reported_scale: self.reported_scale,
        };
        fold_checks::check_step(&step, &before, &self.clocks, &events, &self.nanos);
        fold_checks::check_virtual_time(&self.virt, &self.nanos);

        self.latest = Some(self.latest.map_or(now, |l| l.max(now)));
        self.reported_paused = paused;
        self.reported_scale = scale;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    /// Two clocks, steps forwards, backwards and repeated, pause and scale changes: every check
    /// holds (flipping any one of them makes this fail).
    fn a_plain_two_clock_run_passes_every_check() {
        let c = |rate| ClockSpec {
            rate,
            cap: 3,
            policy: 0,
            phase: None,
            hysteresis: None,
            nearest: false,
            misconfigure: 1,
        };
        let spec = LoopSpec {
            main: c(RateSpec::Hz(60)),
            more: vec![c(RateSpec::Hz(50))],
            alpha_clock: None,
            max_frame_delta: Some(250_000_000),
            render_rate: None,
            scale: None,
            paused: false,
            start: 1_000,
        };
        let mut ops = vec![Op::Repeat];
        for _ in 0..5 {
            ops.extend([Op::Forward(40_000_000), Op::Backward(5), Op::Repeat]);
        }
        ops.extend([
            Op::SetPaused(true),
            Op::Forward(1_000),
            Op::SetAnyScale(1, 3),
        ]);
        ops.extend([
            Op::Forward(10),
            Op::SetPaused(false),
            Op::Forward(7),
            Op::Forward(40_000_000),
        ]);
        run(Input { spec, ops });
    }
}
