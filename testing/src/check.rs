//! `same_across_schedules`: the schedule check and its failure report.

use core::cell::RefCell;
use core::fmt;

use super::fold::{Driver, Run, Sim, Trace};
use super::timestep::TimestepReport;
use super::{KitError, Schedule, debug_diff, fmt_ms};
use tickfold_core::{Event, Nanos, Period, Tick};

/// Why a check failed. `Display` and `Debug` both print the full report, so a quickcheck
/// property can return `Result<(), Failure>` and the shrunk counterexample's report is what
/// quickcheck prints.
#[non_exhaustive]
pub enum Failure {
    /// The input was invalid; nothing ran.
    Input(KitError),
    /// A schedule gave different ticks or a different state than the reference run.
    Schedule(Box<ScheduleMismatch>),
    /// Two tick rates gave results further apart than the tolerance.
    Timestep(Box<TimestepReport>),
}

/// What differed between a schedule's run and the reference run.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum MismatchKind {
    /// By the common end time the runs made different numbers of updates: the loop's tick
    /// count depends on how frames slice time (a float accumulator does this), or ticks were
    /// dropped.
    TickCount {
        /// Updates the schedule's run made.
        schedule: u64,
        /// Updates the reference run made.
        reference: u64,
    },
    /// The same update got a different tick (index, time or length): one run dropped or
    /// skipped ticks.
    Tick {
        /// The schedule's tick.
        schedule: Tick,
        /// The reference's tick.
        reference: Tick,
    },
    /// The runs made the same ticks, but the simulation state differs.
    State,
}

/// The report of a failed schedule check.
#[derive(Clone, Debug)]
pub struct ScheduleMismatch {
    /// Position of the failing schedule in the checked list.
    pub index: usize,
    /// The failing schedule.
    pub schedule: Schedule,
    /// The common end time both runs were brought to.
    pub end: Nanos,
    /// What differed.
    pub kind: MismatchKind,
    /// The first update (counted from 0) after which the runs differ, when known.
    pub update: Option<u64>,
    /// The step of the schedule's run in which that happened.
    pub step: Option<usize>,
    /// The step of the reference run in which that happened.
    pub reference_step: Option<usize>,
    /// The first differing field, `schedule vs reference`.
    pub field: Option<String>,
    /// Context: the step's events, backwards time, drops, settle steps.
    pub notes: Vec<String>,
}

impl<S: Clone, F: Fn(&mut S, &Tick), D: Driver> Sim<S, F, D> {
    /// Checks that every schedule gives bit-identical results (under `PartialEq`) to a
    /// reference run with one frame per tick. Takes anything that yields `&Schedule`:
    /// `[&schedule]`, `&[a, b]`, `&vec`.
    ///
    /// Each run, the reference included, is brought to the same end time (the latest `now`
    /// of all schedules) by one more step at that time, then stepped at that time until no
    /// backlog is left; then the runs must have made the same ticks (index, `t`, `dt`) and
    /// end in equal states. On failure the [`Failure::Schedule`] report names the schedule,
    /// the step and the first differing field (from [`with_diff`](Sim::with_diff) or
    /// [`debug_diff`]). Time going backwards follows the fold's rule (no time passes, the
    /// step reports `TimeBackwards`), and the report says so when the schedule has any.
    ///
    /// # Errors
    ///
    /// [`Failure::Input`]`(`[`KitError::NoSchedules`]`)` for an empty list;
    /// [`Failure::Schedule`] for the first schedule that differs.
    pub fn same_across_schedules<'a>(
        &self,
        schedules: impl IntoIterator<Item = &'a Schedule>,
    ) -> Result<(), Failure>
    where
        S: PartialEq + fmt::Debug,
    {
        let diff = self.diff;
        self.check(schedules, &|a, b| a == b, &|a, b| match diff {
            Some(d) => d(a, b),
            None => debug_diff(a, b),
        })
    }

    /// [`same_across_schedules`](Sim::same_across_schedules) comparing states by a checksum
    /// (for states without `PartialEq`, or to compare floats by their bits so that `NaN`
    /// equals itself). The first differing field comes from [`with_diff`](Sim::with_diff)
    /// if set, otherwise the report gives both checksums.
    ///
    /// # Errors
    ///
    /// As for [`same_across_schedules`](Sim::same_across_schedules).
    pub fn same_across_schedules_by<'a>(
        &self,
        schedules: impl IntoIterator<Item = &'a Schedule>,
        checksum: impl Fn(&S) -> u64,
    ) -> Result<(), Failure> {
        let diff = self.diff;
        self.check(
            schedules,
            &|a, b| checksum(a) == checksum(b),
            &|a, b| match diff {
                Some(d) => d(a, b),
                None => Some(format!(
                    "checksum {:#018x} vs {:#018x}",
                    checksum(a),
                    checksum(b)
                )),
            },
        )
    }

    fn check<'a>(
        &self,
        schedules: impl IntoIterator<Item = &'a Schedule>,
        eq: &dyn Fn(&S, &S) -> bool,
        describe: &dyn Fn(&S, &S) -> Option<String>,
    ) -> Result<(), Failure> {
        let Opening {
            schedules,
            end,
            reference: reference_schedule,
        } = Opening::new(schedules, self.driver.tick_rate())?;
        let reference = self.fold_to(&reference_schedule, Some(end));
        for (index, schedule) in schedules.iter().enumerate() {
            let run = self.fold_to(schedule, Some(end));
            let mut m = ScheduleMismatch::of(index, schedule, end);
            if m.ticks_differ(&run.trace, &reference.trace) {
                // The ticks part first: the report says where.
            } else if !eq(&run.state, &reference.state) {
                // Find the first update after which the states part.
                let mine = self.states(schedule, end);
                let theirs = self.states(&reference_schedule, end);
                let n = mine.iter().zip(&theirs).position(|(a, b)| !eq(a, b));
                if let Some(n) = n {
                    m.update = Some(n as u64);
                    m.step = run.trace.step_of_update(n as u64).map(|s| s.step);
                    m.reference_step = reference.trace.step_of_update(n as u64).map(|s| s.step);
                    m.field = describe(&mine[n], &theirs[n]);
                } else {
                    m.field = describe(&run.state, &reference.state);
                    m.notes.push(
                        "every per-update state compared equal, only the final ones differ: \
                         the update is not a function of (state, tick), or the state holds NaN"
                            .into(),
                    );
                }
            } else {
                continue;
            }
            if m.kind == MismatchKind::State && m.field.is_none() {
                m.notes.push(
                    "the states compare unequal but show no differing field: NaN never equals \
                     itself under PartialEq; compare with same_across_schedules_by and a \
                     checksum over to_bits()"
                        .into(),
                );
            }
            m.notes.extend(notes(&m, &run, schedule));
            return Err(Failure::Schedule(Box::new(m)));
        }
        Ok(())
    }

    /// The state after each update of a run to `end`.
    fn states(&self, schedule: &Schedule, end: Nanos) -> Vec<S> {
        let update = &self.update;
        let out = RefCell::new(Vec::new());
        let record = |s: &mut S, t: &Tick| {
            update(s, t);
            out.borrow_mut().push(s.clone());
        };
        let sim = Sim {
            driver: self.driver.clone(),
            init: self.init.clone(),
            update: record,
            diff: None,
        };
        let _ = sim.fold_to(schedule, Some(end));
        drop(sim);
        out.into_inner()
    }
}

/// The opening every schedule check shares: the schedules as a list, the common end time every
/// run is brought to (the latest `now` of all schedules) and the reference schedule, one frame
/// per tick of the driver's (alpha) clock up to that end (one frame at the end when the span is
/// shorter than a tick).
pub(crate) struct Opening<'a> {
    /// The schedules to check, in the order given.
    pub(crate) schedules: Vec<&'a Schedule>,
    /// The common end time.
    pub(crate) end: Nanos,
    /// One frame per tick of `rate`, up to `end`.
    pub(crate) reference: Schedule,
}

impl<'a> Opening<'a> {
    /// The opening for `schedules` checked against a loop ticking at `rate`.
    ///
    /// # Errors
    ///
    /// [`Failure::Input`]`(`[`KitError::NoSchedules`]`)` for an empty list.
    pub(crate) fn new(
        schedules: impl IntoIterator<Item = &'a Schedule>,
        rate: Period,
    ) -> Result<Opening<'a>, Failure> {
        let schedules: Vec<&Schedule> = schedules.into_iter().collect();
        let end = schedules
            .iter()
            .map(|s| s.end())
            .max()
            .ok_or(Failure::Input(KitError::NoSchedules))?;
        let reference = Schedule::one_per_tick(rate, end)
            .unwrap_or_else(|| Schedule::single(i64::try_from(end.0).unwrap_or(i64::MAX)));
        Ok(Opening {
            schedules,
            end,
            reference,
        })
    }
}

impl ScheduleMismatch {
    /// The report for run `index` (of `schedule`, folded to `end`), before anything differs.
    pub(crate) fn of(index: usize, schedule: &Schedule, end: Nanos) -> ScheduleMismatch {
        ScheduleMismatch {
            index,
            schedule: schedule.clone(),
            end,
            kind: MismatchKind::State,
            update: None,
            step: None,
            reference_step: None,
            field: None,
            notes: Vec::new(),
        }
    }

    /// Fills in where the run's ticks first part from the reference's; `false` if they never
    /// do.
    pub(crate) fn ticks_differ(&mut self, run: &Trace, reference: &Trace) -> bool {
        let Some((n, kind)) = first_tick_difference(run, reference) else {
            return false;
        };
        self.kind = kind;
        self.update = Some(n);
        self.step = run
            .step_of_update(n)
            .or_else(|| run.step(run.len().saturating_sub(1)))
            .map(|s| s.step);
        self.reference_step = reference.step_of_update(n).map(|s| s.step);
        true
    }
}

/// The first update whose tick differs (ignoring the schedule-dependent `lag` and
/// `last_in_step`), or a difference in count.
pub(crate) fn first_tick_difference(run: &Trace, reference: &Trace) -> Option<(u64, MismatchKind)> {
    let key = |t: &Tick| (t.clock, t.index, t.t, t.dt);
    let mut a = run.updates();
    let mut b = reference.updates();
    let mut n = 0u64;
    loop {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (Some(x), Some(y)) if key(x) == key(y) => n += 1,
            (Some(x), Some(y)) => {
                let kind = MismatchKind::Tick {
                    schedule: *x,
                    reference: *y,
                };
                return Some((n, kind));
            }
            _ => {
                let kind = MismatchKind::TickCount {
                    schedule: run.update_count(),
                    reference: reference.update_count(),
                };
                return Some((n, kind));
            }
        }
    }
}

/// One line describing step `i` of a run.
pub(crate) fn describe_step(trace: &Trace, i: usize, schedule: Option<&Schedule>) -> String {
    let Some(s) = trace.step(i) else {
        return format!("step {i} (not reached)");
    };
    let mut out = format!("step {i}: now {} ms", fmt_ms(i128::from(s.now.0)));
    match schedule.and_then(|sc| sc.frames().get(i)) {
        Some(&f) if !s.settle => out += &format!(", frame {} ms", fmt_ms(i128::from(f))),
        _ => out += " (a settle step at the common end time)",
    }
    let ticks: Vec<u64> = s
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Update(t) => Some(t.index),
            _ => None,
        })
        .collect();
    out += &match ticks.as_slice() {
        [] => ", no update".to_owned(),
        [t] => format!(", 1 update (tick {t})"),
        [a, .., b] => format!(", {} updates (ticks {a} to {b})", ticks.len()),
    };
    for e in s.events {
        match e {
            Event::TimeBackwards { by } => {
                out += &format!(", TimeBackwards by {} ms", fmt_ms(i128::from(by.0)));
            }
            Event::DiscardedTime { time, ticks, .. } => {
                out += &format!(
                    ", DiscardedTime {} ms ({ticks} ticks)",
                    fmt_ms(i128::from(time.0))
                );
            }
            Event::DroppedTicks { count, .. } => out += &format!(", DroppedTicks {count}"),
            Event::Deferred { ticks, .. } => out += &format!(", Deferred {ticks}"),
            _ => {}
        }
    }
    out
}

/// Context lines for a mismatch: the steps involved, backwards time, drops, settle steps.
pub(crate) fn notes<S>(m: &ScheduleMismatch, run: &Run<S>, schedule: &Schedule) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(i) = m.step {
        out.push(format!(
            "the schedule's {}",
            describe_step(&run.trace, i, Some(schedule))
        ));
    }
    let back = schedule.backwards();
    if !back.is_empty() {
        let list: Vec<String> = back
            .iter()
            .take(8)
            .map(|(i, by)| format!("step {i} by {} ms", fmt_ms(i128::from(by.0))))
            .collect();
        out.push(format!(
            "time goes backwards {} time{} ({}{}); the fold's rule: no time passes, the step \
             reports TimeBackwards and renders nothing, and the next step measures from the \
             latest `now`",
            back.len(),
            if back.len() == 1 { "" } else { "s" },
            list.join(", "),
            if back.len() > 8 { ", …" } else { "" }
        ));
    }
    let drops: Vec<String> = run
        .trace
        .steps()
        .filter(|s| {
            s.events.iter().any(|e| {
                matches!(e, Event::DiscardedTime { ticks, .. } if *ticks > 0)
                    || matches!(e, Event::DroppedTicks { .. })
            })
        })
        .take(4)
        .map(|s| describe_step(&run.trace, s.step, Some(schedule)))
        .collect();
    if !drops.is_empty() {
        out.push(format!(
            "the loop dropped ticks in this run ({}); the max frame delta clamp and the \
             constant-rate policies drop ticks by design: check determinism with \
             `max_frame_delta(None)` and `Policy::CatchUp`",
            drops.join("; ")
        ));
    }
    out
}

impl fmt::Display for ScheduleMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            MismatchKind::TickCount { .. } => "a different number of updates",
            MismatchKind::Tick { .. } => "different ticks",
            MismatchKind::State => "a different state",
        };
        writeln!(
            f,
            "determinism check failed: schedule #{} gives {what} than the reference \
             (one frame per tick)",
            self.index
        )?;
        writeln!(f, "  schedule: {}", self.schedule)?;
        writeln!(
            f,
            "  both runs end at now = {} ms (settle steps at that `now` work off any backlog)",
            fmt_ms(i128::from(self.end.0))
        )?;
        match self.kind {
            MismatchKind::TickCount {
                schedule,
                reference,
            } => writeln!(
                f,
                "  updates: the schedule made {schedule}, the reference {reference}: the tick \
                 count depends on how frames slice time"
            )?,
            MismatchKind::Tick {
                schedule,
                reference,
            } => writeln!(
                f,
                "  update #{}: the schedule ran tick {} (t = {} ms), the reference tick {} \
                 (t = {} ms)",
                self.update.unwrap_or(0),
                schedule.index,
                fmt_ms(i128::from(schedule.t.0)),
                reference.index,
                fmt_ms(i128::from(reference.t.0))
            )?,
            MismatchKind::State => {
                if let Some(n) = self.update {
                    writeln!(f, "  first difference after update #{n}")?;
                }
            }
        }
        match (self.step, self.reference_step) {
            (Some(s), Some(r)) => {
                writeln!(f, "  step: {s} of the schedule, {r} of the reference")?;
            }
            (Some(s), None) => writeln!(f, "  step: {s} of the schedule")?,
            _ => {}
        }
        if let Some(field) = &self.field {
            writeln!(
                f,
                "  first differing field (schedule vs reference): {field}"
            )?;
        }
        for n in &self.notes {
            writeln!(f, "  note: {n}")?;
        }
        write!(f, "  reproduce: {:#}", self.schedule)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(e) => write!(f, "determinism check refused its input: {e}"),
            Failure::Schedule(m) => m.fmt(f),
            Failure::Timestep(r) => r.fmt(f),
        }
    }
}

impl fmt::Debug for Failure {
    /// The same report as `Display`, so quickcheck and `unwrap` print it readably.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Failure::Input(e) => Some(e),
            _ => None,
        }
    }
}

impl From<KitError> for Failure {
    fn from(e: KitError) -> Failure {
        Failure::Input(e)
    }
}
