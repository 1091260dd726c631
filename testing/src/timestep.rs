//! Timestep independence: the same span at several tick rates, compared within tolerances.

use core::fmt;
use core::time::Duration;

use super::fold::Sim;
use super::{Failure, IntoPeriod, KitError, Schedule, fmt_hz, fmt_ms};
use tickfold_core::{LoopConfig, Nanos, Period, Tick};

/// How far apart two results may be: `approx`'s `relative_eq` (equal if the difference is at
/// most `epsilon`, or at most `max_relative` times the larger magnitude).
///
/// # Examples
///
/// ```
/// use tickfold_testing::Tolerance;
///
/// assert!(Tolerance::relative(1e-9).accepts(1.0, 1.0 + 1e-12));
/// assert!(!Tolerance::relative(1e-9).accepts(1.0, 1.001));
/// assert!(Tolerance::absolute(0.01).accepts(0.0, 0.005));
/// assert!(!Tolerance::EXACT.accepts(f64::NAN, f64::NAN));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute difference always accepted.
    pub epsilon: f64,
    /// Difference accepted relative to the larger magnitude.
    pub max_relative: f64,
}

impl Tolerance {
    /// Only bit-equal values (and `+0.0` with `-0.0`) pass.
    pub const EXACT: Tolerance = Tolerance {
        epsilon: 0.0,
        max_relative: 0.0,
    };

    /// Both bounds.
    #[must_use]
    pub const fn new(epsilon: f64, max_relative: f64) -> Tolerance {
        Tolerance {
            epsilon,
            max_relative,
        }
    }

    /// An absolute bound only.
    #[must_use]
    pub const fn absolute(epsilon: f64) -> Tolerance {
        Tolerance::new(epsilon, 0.0)
    }

    /// A relative bound only.
    #[must_use]
    pub const fn relative(max_relative: f64) -> Tolerance {
        Tolerance::new(0.0, max_relative)
    }

    /// Whether `a` and `b` are within this tolerance (`NaN` never is).
    #[must_use]
    pub fn accepts(self, a: f64, b: f64) -> bool {
        approx::relative_eq!(
            a,
            b,
            epsilon = self.epsilon,
            max_relative = self.max_relative
        )
    }
}

/// One observed field at one tick rate against the reference rate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Deviation {
    /// The field's name, as the observer gave it.
    pub field: &'static str,
    /// The tick rate.
    pub rate: Period,
    /// The value at that rate.
    pub value: f64,
    /// The value at the reference (first) rate.
    pub reference: f64,
    /// `|value - reference|` (`NaN` if either is).
    pub abs: f64,
    /// `abs` over the larger magnitude (0 when both are 0).
    pub relative: f64,
    /// Whether the tolerance accepts it.
    pub within: bool,
}

/// What a timestep check saw: every rate's observations and the largest deviation.
#[derive(Clone, Debug, PartialEq)]
pub struct TimestepReport {
    /// The simulated span.
    pub span: Nanos,
    /// The tolerance applied.
    pub tolerance: Tolerance,
    /// Each rate and its observed fields after the span; the first is the reference.
    pub observed: Vec<(Period, Vec<(&'static str, f64)>)>,
    /// The largest absolute deviation from the reference (`NaN` counts as largest), if any
    /// rate besides the reference was run.
    pub largest: Option<Deviation>,
    /// The first deviation outside the tolerance, if any.
    pub failed: Option<Deviation>,
}

/// The check of the question "Main Loops, Refresh Rates, and Determinism" asks, whether `Update(1/30)` equals `Update(1/60)` twice: run
/// the same span at several tick rates and compare what the simulation ends with.
///
/// Each rate runs through a tickfold loop (no cap, no clamp) stepped to the end of the span,
/// so the update sees real [`Tick`]s. The span must be a whole number of ticks at every rate
/// (1 s for 30/60/120/240 Hz), so that all runs end at the same simulated time.
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use tickfold_testing::{Timestep, Tolerance, smooth};
///
/// let check = Timestep::new(Duration::from_secs(1), &[30u64, 60, 144, 240])?
///     .tolerance(Tolerance::relative(1e-9));
/// let report = check.check(&0.0_f64, |x, tick| *x = smooth(*x, 1.0, 5.0, tick.dt_secs()), |x| {
///     vec![("x", *x)]
/// })?;
/// assert!(report.largest.unwrap().abs < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Timestep {
    span: Nanos,
    rates: Vec<Period>,
    tolerance: Tolerance,
}

impl Timestep {
    /// A check over `span` at `rates`; the first rate is the reference. The tolerance
    /// defaults to a relative `1e-9`.
    ///
    /// # Errors
    ///
    /// [`KitError::ZeroSpan`], [`KitError::NoRates`], [`KitError::Config`] for a zero rate,
    /// [`KitError::SpanNotWhole`] when a rate does not divide the span.
    pub fn new<R: IntoPeriod + Copy>(span: Duration, rates: &[R]) -> Result<Timestep, KitError> {
        let span = Nanos::from(span);
        if span == Nanos::ZERO {
            return Err(KitError::ZeroSpan);
        }
        if rates.is_empty() {
            return Err(KitError::NoRates);
        }
        let rates = rates
            .iter()
            .map(|r| r.into_tick_rate())
            .collect::<Result<Vec<_>, _>>()?;
        for &rate in &rates {
            let (num, den) = rate.as_nanos_ratio();
            if (u128::from(span.0) * u128::from(den)) % u128::from(num) != 0 {
                return Err(KitError::SpanNotWhole {
                    rate,
                    span_ns: span.0,
                });
            }
        }
        Ok(Timestep {
            span,
            rates,
            tolerance: Tolerance::relative(1e-9),
        })
    }

    /// Sets the tolerance.
    #[must_use]
    pub fn tolerance(mut self, tolerance: Tolerance) -> Timestep {
        self.tolerance = tolerance;
        self
    }

    /// Runs `update` from `init` over the span at every rate and compares the fields
    /// `observe` picks (by position) with the reference rate's.
    ///
    /// # Errors
    ///
    /// [`Failure::Timestep`] with the report when a field is outside the tolerance.
    pub fn check<S, F, O>(&self, init: &S, update: F, observe: O) -> Result<TimestepReport, Failure>
    where
        S: Clone,
        F: Fn(&mut S, &Tick),
        O: Fn(&S) -> Vec<(&'static str, f64)>,
    {
        let mut observed = Vec::with_capacity(self.rates.len());
        let span = Schedule::single(i64::try_from(self.span.0).unwrap_or(i64::MAX));
        for &rate in &self.rates {
            let config = LoopConfig::new(rate)
                .max_updates(None)
                .max_frame_delta(None);
            let sim = Sim::new(config, init.clone(), &update)?;
            let run = sim.fold_to(&span, Some(self.span));
            observed.push((rate, observe(&run.state)));
        }
        let mut largest: Option<Deviation> = None;
        let mut failed = None;
        let (_, reference) = &observed[0];
        for (rate, fields) in &observed[1..] {
            for (&(field, value), &(_, r)) in fields.iter().zip(reference) {
                let abs = (value - r).abs();
                let scale = value.abs().max(r.abs());
                let d = Deviation {
                    field,
                    rate: *rate,
                    value,
                    reference: r,
                    abs,
                    relative: if scale == 0.0 { 0.0 } else { abs / scale },
                    within: self.tolerance.accepts(value, r),
                };
                let replace = match largest {
                    None => true,
                    Some(l) => !l.abs.is_nan() && (abs.is_nan() || abs > l.abs),
                };
                if replace {
                    largest = Some(d);
                }
                if !d.within && failed.is_none() {
                    failed = Some(d);
                }
            }
        }
        let report = TimestepReport {
            span: self.span,
            tolerance: self.tolerance,
            observed,
            largest,
            failed,
        };
        if report.failed.is_some() {
            Err(Failure::Timestep(Box::new(report)))
        } else {
            Ok(report)
        }
    }
}

impl fmt::Display for Deviation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` at {} Hz: {} vs {} (abs {:.3e}, relative {:.3e})",
            self.field,
            fmt_hz(self.rate),
            self.value,
            self.reference,
            self.abs,
            self.relative
        )
    }
}

impl fmt::Display for TimestepReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.failed.is_some() {
            "timestep check failed"
        } else {
            "timestep check passed"
        };
        let rates: Vec<String> = self
            .observed
            .iter()
            .map(|(r, _)| format!("{} Hz", fmt_hz(*r)))
            .collect();
        writeln!(
            f,
            "{verdict}: {} ms simulated at {} (reference: the first), tolerance abs {:e} / \
             relative {:e}",
            fmt_ms(i128::from(self.span.0)),
            rates.join(", "),
            self.tolerance.epsilon,
            self.tolerance.max_relative
        )?;
        if let Some(d) = &self.failed {
            writeln!(f, "  first outside the tolerance: {d}")?;
        }
        match &self.largest {
            Some(d) => writeln!(f, "  largest deviation: {d}")?,
            None => writeln!(f, "  only one rate: nothing to compare")?,
        }
        for (rate, fields) in &self.observed {
            let list: Vec<String> = fields.iter().map(|(n, v)| format!("{n} = {v:?}")).collect();
            writeln!(f, "  {:>7} Hz: {}", fmt_hz(*rate), list.join(", "))?;
        }
        Ok(())
    }
}
