//! Scenarios ported from `spin_sleep` (alexheretic/spin-sleep): the tests and documented examples
//! of `spin_sleep_util::Interval` and its `MissedTickBehavior` (`util/src/interval.rs`), the
//! sleep-accuracy tests of `spin_sleep::SpinSleeper` (`src/lib.rs`) and the `LoopHelper` tests
//! (`src/loop_helper.rs`), replayed on tickfold's fold and runner with fake clocks.
//!
//! An `Interval` ticks at `start + k·period`; its first tick returns at once. tickfold's
//! constant-rate policies do the same: one update per step at the start of its slot, after an
//! `Event::Sleep` until then. `MissedTickBehavior::Skip` is `Policy::KeepWorking` (the slot in
//! progress runs at once, only slots that passed entirely are lost), `Burst` is the catch-up
//! policy (every missed tick runs, back to back, on the original grid). tickfold reports every
//! lost slot as `Event::DroppedTicks`; `spin_sleep` skips them silently.
//! Small ports of `Interval::tick` (Skip and Burst, on integer nanoseconds) serve as
//! oracles on random work durations.
//!
//! `MissedTickBehavior::Delay` (a late tick re-phases the grid to the late call) is
//! `Policy::Delay`, ported from its doc example and against a third small port of
//! `Interval::tick`. `Interval::set_period` is `ClockMut::set_rate` (both keep the next
//! scheduled tick and use the new period after it) and `LoopHelper::set_target_rate` is too.
//! `Interval::reset` is `reset_grid` under `Policy::Delay`, with one difference: `reset`
//! schedules the next tick a period after the call, `reset_grid` starts a slot at once (one
//! tick sooner); under `Policy::DropAndRest` that slot runs only if the next step comes at its
//! start, and is dropped and reported otherwise (so the next update comes a period after the
//! reset, as with `reset`). `LoopHelper`'s rate
//! reporting (`rate_reporting_using_duration`, `…_seconds`) measures the caller's own loop and
//! has no fold counterpart.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use tickfold_testing::SplitMix64;

use tickfold::runner::{ManualTime, Runner, Sleeper};
use tickfold::{
    ClockId, DropReason, Event, Events, LoopConfig, LoopState, Nanos, Period, Policy, RateError,
};

const US: u64 = 1_000;
const MS: u64 = 1_000_000;

fn interval(period_ms: u64, policy: Policy) -> LoopState {
    let rate = Period::from_duration(Duration::from_millis(period_ms)).unwrap();
    LoopState::new(LoopConfig::new(rate).policy(policy), Nanos(0)).unwrap()
}

fn updates(e: &Events<Nanos>) -> Vec<u64> {
    e.updates().map(|t| t.index).collect()
}

fn sleeps(e: &Events<Nanos>) -> Vec<u64> {
    e.iter()
        .filter_map(|e| match e {
            Event::Sleep { until } => Some(until.0),
            _ => None,
        })
        .collect()
}

fn dropped(e: &Events<Nanos>) -> Vec<(u64, u64)> {
    e.iter()
        .filter_map(|e| match e {
            Event::DroppedTicks {
                clock: ClockId(0),
                first,
                count,
                reason: DropReason::SlotMissed,
            } => Some((first, count)),
            _ => None,
        })
        .collect()
}

/// `spin_sleep_util` `interval` / `interval_at` docs: "The first tick returns immediately", then
/// every tick after sleeping until `start + k·period`. Work of 10 ms per tick at a 50 ms period
/// sleeps 40 ms each time and never drifts.
#[test]
fn first_tick_is_immediate_then_ticks_on_schedule() {
    for policy in [Policy::DropAndRest, Policy::KeepWorking] {
        let mut state = interval(50, policy);
        let e = state.advance(Nanos(0));
        assert_eq!(updates(&e), [0], "{policy:?}");
        assert!(
            sleeps(&e).is_empty(),
            "{policy:?}: the first tick does not sleep"
        );
        let mut now = 0;
        for k in 1..=20u64 {
            now += 10 * MS; // the tick's work
            let e = state.advance(Nanos(now));
            assert_eq!(sleeps(&e), [k * 50 * MS], "{policy:?} tick {k}");
            let sleep_at = e.iter().position(|e| matches!(e, Event::Sleep { .. }));
            let update_at = e.iter().position(|e| matches!(e, Event::Update(_)));
            assert!(sleep_at < update_at, "sleep first, then the update");
            assert_eq!(updates(&e), [k]);
            assert_eq!(e.updates().next().unwrap().t, Nanos(k * 50 * MS));
            now = k * 50 * MS; // the shell slept until the slot
        }
        assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
    }
}

/// `MissedTickBehavior::Skip`'s doc example: 50 ms period, a 75 ms task. The late tick resolves
/// at once; the next one 25 ms later, at 100 ms, "the closest multiple of period from the
/// start". With `Policy::KeepWorking` slot 1 (50..100 ms) is in progress at 75 ms, so it runs
/// at once and nothing is lost.
#[test]
fn skip_runs_the_slot_in_progress_then_returns_to_the_grid() {
    let mut state = interval(50, Policy::KeepWorking);
    state.advance(Nanos(0));
    let e = state.advance(Nanos(75 * MS));
    assert_eq!(updates(&e), [1]);
    assert!(sleeps(&e).is_empty(), "the late tick resolves immediately");
    assert!(dropped(&e).is_empty());
    let e = state.advance(Nanos(76 * MS));
    assert_eq!(sleeps(&e), [100 * MS]);
    assert_eq!(updates(&e), [2]);
}

/// `Skip` after a 200 ms task at a 50 ms period: one tick at once (the slot starting at 200 ms)
/// and the next at 250 ms. Slots 1, 2 and 3 passed entirely; tickfold says so.
#[test]
fn skip_after_a_long_task_reports_the_slots_it_skipped() {
    for policy in [Policy::KeepWorking, Policy::DropAndRest] {
        let mut state = interval(50, policy);
        state.advance(Nanos(0));
        let e = state.advance(Nanos(200 * MS));
        assert_eq!(dropped(&e), [(1, 3)], "{policy:?}");
        assert_eq!(updates(&e), [4], "{policy:?}");
        assert!(sleeps(&e).is_empty(), "{policy:?}");
        let e = state.advance(Nanos(201 * MS));
        assert_eq!(sleeps(&e), [250 * MS], "{policy:?}");
        assert_eq!(updates(&e), [5]);
        assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 3);
        assert_eq!(state.clock("main").unwrap().stats().ticks_run, 3);
    }
}

/// The 75 ms task again under `Policy::DropAndRest`, tickfold's stricter variant: the slot that
/// started before its update could run (50 ms) is dropped and reported; the loop rests until
/// the next slot (100 ms). The tick times stay on the same grid as `Skip`'s.
#[test]
fn drop_and_rest_drops_the_started_slot_instead() {
    let mut state = interval(50, Policy::DropAndRest);
    state.advance(Nanos(0));
    let e = state.advance(Nanos(75 * MS));
    assert_eq!(dropped(&e), [(1, 1)]);
    assert_eq!(sleeps(&e), [100 * MS]);
    assert_eq!(updates(&e), [2]);
}

/// `MissedTickBehavior::Burst`'s doc example: 50 ms period, a 200 ms task, then the missed
/// ticks fire back to back ("as fast as possible until caught up") on the original grid, and
/// the following one waits until 250 ms. tickfold's catch-up policy runs them in one step.
///
/// The counts differ by one by convention: an `Interval`'s tick marks the start of a period and
/// its first tick is at `start`; a catch-up tick covers a whole period and runs at its end, so
/// by 200 ms it has run 4 (ending at 50, 100, 150, 200 ms) where the interval has returned 5.
#[test]
fn burst_runs_every_missed_tick_on_the_original_grid() {
    let mut state = interval(50, Policy::CatchUp);
    assert!(updates(&state.advance(Nanos(0))).is_empty());
    let e = state.advance(Nanos(200 * MS));
    assert_eq!(updates(&e), [0, 1, 2, 3]);
    let times: Vec<u64> = e.updates().map(|t| t.t.0).collect();
    assert_eq!(times, [0, 50 * MS, 100 * MS, 150 * MS]);
    assert_eq!(e.dropped_ticks(), 0);
    assert_eq!(e.deadline(), Some(&Nanos(250 * MS)));
    let e = state.advance(Nanos(250 * MS));
    assert_eq!(updates(&e), [4]);
}

/// `spin_sleep_util` `interval::test::zero_period` / `at_zero_period`: a zero period panics.
/// tickfold refuses it with a typed error at construction, as it does `LoopHelper`'s
/// `build_with_target_rate(f64::INFINITY)` (a period shorter than any clock can measure).
#[test]
fn zero_period_is_a_typed_error() {
    assert_eq!(Period::from_duration(Duration::ZERO), Err(RateError::Zero));
    assert_eq!(Period::from_millis_f64(0.0), Err(RateError::Zero));
    assert_eq!(Period::from_hz_f64(f64::INFINITY), Err(RateError::Invalid));
    assert_eq!(Period::from_hz(2_000_000_000), Err(RateError::TooHigh));
}

/// `spin_sleep` `loop_helper_test::loop_sleep_already_past_target`: sleeping when the target has
/// already passed must not panic (nor sleep). A constant-rate step far past its slot emits no
/// `Sleep`, runs the slot in progress and reports the rest.
#[test]
fn already_past_the_target_does_not_sleep() {
    for policy in [Policy::DropAndRest, Policy::KeepWorking] {
        let rate = Period::from_hz(1_000_000_000).unwrap(); // 1 ns slots
        let mut state = LoopState::new(LoopConfig::new(rate).policy(policy), Nanos(0)).unwrap();
        state.advance(Nanos(0));
        let e = state.advance(Nanos(5 * MS));
        assert!(sleeps(&e).is_empty(), "{policy:?}");
        assert_eq!(e.updates().count(), 1);
        let stats = state.clock("main").unwrap().stats();
        assert_eq!(stats.ticks_run + stats.ticks_dropped, stats.next_tick);
    }
}

/// `spin_sleep` `LoopHelper::builder().build_with_target_rate(100.0)` and `target_rate()`: the
/// rate given as a float comes back as that rate, and as an exact period.
#[test]
fn target_rate_as_float_is_exact() {
    let rate = Period::from_hz_f64(100.0).unwrap();
    assert_eq!(rate.hz_f64(), 100.0);
    assert_eq!(rate.as_nanos_ratio(), (10 * MS, 1));
    let rate = Period::from_hz_f64(150.0).unwrap();
    assert!((rate.hz_f64() - 150.0).abs() < 1e-9);
    assert_eq!(rate.tick_start_nanos(150), 1_000_000_000);
}

/// `spin_sleep_util::Interval` with `MissedTickBehavior::Skip`, ported on integer nanoseconds
/// (`Interval::tick_with_spin` and `MissedTickBehavior::next_tick`): `tick(now)` returns when
/// the call returns (after sleeping, or at once when the tick was missed).
struct SkipInterval {
    next_tick: u64,
    period: u64,
}

impl SkipInterval {
    fn tick(&mut self, now: u64) -> u64 {
        let tick = self.next_tick;
        if now > tick {
            self.next_tick = now + self.period - (now - tick) % self.period;
            return now;
        }
        self.next_tick = tick + self.period;
        tick
    }
}

/// `Skip` against `Policy::KeepWorking` on random work durations (0 to 3 periods): a shell that
/// sleeps on every `Sleep` event runs each update exactly when the interval's `tick()` would
/// have returned, and the update's slot is the one in progress at that moment.
#[test]
fn keep_working_returns_exactly_when_skip_does() {
    let period = 50 * MS;
    let mut rng = SplitMix64::new(0x5eed_1234_abcd_ef01);
    let mut oracle = SkipInterval {
        next_tick: 0,
        period,
    };
    let mut state = interval(50, Policy::KeepWorking);
    let (mut t_oracle, mut t_fold) = (0u64, 0u64);
    for call in 0..5_000 {
        let returned = oracle.tick(t_oracle);
        let e = state.advance(Nanos(t_fold));
        if let Some(until) = sleeps(&e).first() {
            t_fold = *until;
        }
        let ticks: Vec<_> = e.updates().collect();
        assert_eq!(ticks.len(), 1, "call {call}");
        assert_eq!(t_fold, returned, "call {call}");
        let slot = ticks[0].t.0;
        assert!(slot <= t_fold && t_fold < slot + period, "call {call}");
        let x = rng.next_u64();
        let work = match x % 10 {
            0 => 0,
            1..=6 => x % period,
            7 => period,
            _ => x % (3 * period),
        };
        t_oracle = returned + work;
        t_fold += work;
    }
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(
        stats.ticks_run + stats.ticks_dropped,
        stats.next_tick,
        "every skipped slot was reported"
    );
    assert!(state.clock("main").unwrap().stats().ticks_dropped > 0);
}

/// `MissedTickBehavior::Burst` against the catch-up policy capped at one update per step (one
/// `tick()` call is one step), on random work durations. A burst tick marks the start of a
/// period and a catch-up tick its end, so burst tick *k* + 1 returns exactly when catch-up tick
/// *k* runs; both keep the original grid and lose nothing.
#[test]
fn one_update_per_step_catch_up_returns_exactly_when_burst_does() {
    let period = 50 * MS;
    let mut rng = SplitMix64::new(0x0bad_cafe_f00d_d00d);
    let mut next_burst = 0u64;
    let mut burst = |now: u64| {
        let tick = next_burst;
        next_burst = tick + period;
        now.max(tick)
    };
    let config = LoopConfig::new(Period::from_duration(Duration::from_millis(50)).unwrap())
        .max_updates(Some(1))
        .max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut t_oracle = burst(0);
    let mut t_fold = 0u64;
    for k in 0..5_000u64 {
        let returned = burst(t_oracle);
        let mut e = state.advance(Nanos(t_fold));
        if e.updates().count() == 0 {
            t_fold = e.deadline().unwrap().0; // sleep until the tick is due
            e = state.advance(Nanos(t_fold));
        }
        assert_eq!(updates(&e), [k], "call {k}");
        assert_eq!(t_fold, returned, "call {k}");
        let x = rng.next_u64();
        let work = match x % 10 {
            0..=6 => x % period,
            7 => 0,
            _ => x % (4 * period),
        };
        t_oracle = returned + work;
        t_fold += work;
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
}

/// A sleeper that wakes `early` ns before the deadline (an OS timer with coarse slack, or a
/// spin that gave up) or `late` ns after it.
struct Inexact {
    clock: ManualTime,
    early: u64,
    late: u64,
    /// The deadline of the previous sleep: a second sleep for the same deadline (the runner
    /// asking again after an early wake-up) is accurate, as a short re-sleep or spin is.
    last: Option<u64>,
}

impl Sleeper<Nanos> for Inexact {
    fn sleep_until(&mut self, deadline: Nanos) {
        let early = if self.last == Some(deadline.0) {
            0
        } else {
            self.early
        };
        self.last = Some(deadline.0);
        let target = deadline.0.saturating_sub(early) + self.late;
        let now = self.clock.now().0;
        self.clock.set(Nanos(now.max(target)));
    }
}

/// Runs `frames` frames of a 50 ms drop-and-rest loop whose updates take 10 ms; returns
/// (tick index, slot start, clock when the update ran) per update, and the Sleep deadlines.
fn run_interval(early: u64, late: u64, frames: usize) -> (Vec<(u64, u64, u64)>, Vec<u64>) {
    let clock = ManualTime::default();
    let sleeper = Inexact {
        clock: clock.clone(),
        early,
        late,
        last: None,
    };
    let mut runner = Runner::new(interval(50, Policy::DropAndRest), clock.clone(), sleeper);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let asked = Rc::new(RefCell::new(Vec::new()));
    for _ in 0..frames {
        let (c, s, a) = (clock.clone(), seen.clone(), asked.clone());
        runner.frame(move |e, _| match e {
            Event::Update(t) => {
                s.borrow_mut().push((t.index, t.t.0, c.now().0));
                c.advance(Nanos(10 * MS));
            }
            Event::Sleep { until } => a.borrow_mut().push(until.0),
            _ => {}
        });
    }
    let seen = seen.borrow().clone();
    let asked = asked.borrow().clone();
    (seen, asked)
}

/// `spin_sleep` `sleep_small` / `sleep_big`: a sleep lasts at least the requested time (to within
/// 50 µs late). Ported to the runner: with a sleeper 50 µs late every update still runs for its
/// own slot, and the slots stay on the exact grid (no drift from the lateness).
#[test]
fn late_wakeups_never_shift_the_grid() {
    let (seen, asked) = run_interval(0, 50 * US, 40);
    assert_eq!(seen.len(), 40);
    for (k, (index, slot, ran)) in seen.iter().enumerate() {
        assert_eq!(*index, k as u64);
        assert_eq!(*slot, k as u64 * 50 * MS);
        assert!(
            *ran >= *slot && *ran <= *slot + 50 * US,
            "tick {k} ran at {ran}"
        );
    }
    let grid: Vec<u64> = (1..40u64).map(|k| k * 50 * MS).collect();
    assert_eq!(asked, grid);
}

/// The other half of `spin_sleep`'s accuracy tests: a sleep must not return early. A sleeper whose
/// first sleep for each deadline wakes 1 ms early (a coarse OS timer; the re-sleep is accurate)
/// must not make the runner run an update before its slot starts: the runner reads the clock
/// again and sleeps again until the slot has begun. (A sleeper that *always* wakes before the
/// deadline never lets time reach a slot; the runner then stops before the sleep instead, which
/// `tests/runner.rs` checks.)
#[test]
fn early_wakeups_never_run_an_update_before_its_slot() {
    let (seen, _) = run_interval(MS, 0, 20);
    assert!(seen.len() >= 10, "{seen:?}");
    for (index, slot, ran) in seen {
        assert!(ran >= slot, "tick {index} of slot {slot} ran at {ran}");
    }
}

/// `MissedTickBehavior::Delay`'s doc example: a 50 ms period and a task of more than 50 ms
/// (75 ms here) before the first tick. That tick resolves at once; the next one "will not
/// resolve until 50ms after the call to `tick` up above", at 125 ms, and later ticks keep the
/// new phase. Nothing is dropped: the grid moved instead.
#[test]
fn delay_runs_the_late_tick_and_moves_the_grid() {
    let mut state = interval(50, Policy::Delay);
    let e = state.advance(Nanos(75 * MS));
    assert_eq!(updates(&e), [0]);
    assert!(sleeps(&e).is_empty(), "the late tick resolves immediately");
    assert!(dropped(&e).is_empty());
    // A constant-rate step asks to be called again at once: the next one sleeps if early.
    assert_eq!(e.deadline(), Some(&Nanos(75 * MS)));
    let e = state.advance(Nanos(80 * MS));
    assert_eq!(sleeps(&e), [125 * MS]);
    assert_eq!(updates(&e), [1]);
    let e = state.advance(Nanos(130 * MS));
    assert_eq!(sleeps(&e), [175 * MS]);
    assert_eq!(updates(&e), [2]);
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
}

/// The doc's diagram of `Delay` against `Skip` and `Burst`: after the same 200 ms task at a
/// 50 ms period, `Delay` (tickfold `Policy::Delay`) runs one tick at once and the next a full
/// period later, at 250 ms, with no tick lost and no short period; `Skip`
/// (`Policy::KeepWorking`) runs the slot starting at 200 ms and the next at 250 ms, losing
/// three; `Burst` (catch-up) runs every missed tick at once.
#[test]
fn delay_never_shortens_a_period_nor_loses_a_tick() {
    let mut delay = interval(50, Policy::Delay);
    delay.advance(Nanos(0));
    let e = delay.advance(Nanos(210 * MS));
    assert_eq!((updates(&e), sleeps(&e)), (vec![1], vec![]));
    let e = delay.advance(Nanos(220 * MS));
    assert_eq!((sleeps(&e), updates(&e)), (vec![260 * MS], vec![2]));

    let mut skip = interval(50, Policy::KeepWorking);
    skip.advance(Nanos(0));
    let e = skip.advance(Nanos(210 * MS));
    assert_eq!((updates(&e), dropped(&e)), (vec![4], vec![(1, 3)]));
    let e = skip.advance(Nanos(220 * MS));
    assert_eq!(
        sleeps(&e),
        [250 * MS],
        "a short period: 40 ms after the late call"
    );

    let mut burst = interval(50, Policy::CatchUp);
    burst.advance(Nanos(0));
    assert_eq!(updates(&burst.advance(Nanos(210 * MS))), [0, 1, 2, 3]);
}

/// `spin_sleep_util::Interval` with `MissedTickBehavior::Delay`, ported on integer nanoseconds:
/// `tick(now)` returns when the call returns; a missed tick schedules the next at `now + period`.
struct DelayInterval {
    next_tick: u64,
    period: u64,
}

impl DelayInterval {
    fn tick(&mut self, now: u64) -> u64 {
        let tick = self.next_tick;
        if now > tick {
            self.next_tick = now + self.period;
            return now;
        }
        self.next_tick = tick + self.period;
        tick
    }
}

/// `Delay` against `Policy::Delay` on random work durations (0 to 3 periods): a shell that
/// sleeps on every `Sleep` event runs each update exactly when the interval's `tick()` would
/// have returned (so it sleeps until the interval's next scheduled tick), tick numbers never
/// jump and no two updates are less than a period apart.
#[test]
fn policy_delay_returns_exactly_when_delay_does() {
    let period = 50 * MS;
    let mut rng = SplitMix64::new(0x0de1_a7ed_5eed_0017);
    let mut oracle = DelayInterval {
        next_tick: 0,
        period,
    };
    let mut state = interval(50, Policy::Delay);
    let (mut t, mut previous, mut late) = (0u64, None::<u64>, 0);
    for call in 0..5_000u64 {
        late += u64::from(t > oracle.next_tick);
        let returned = oracle.tick(t);
        let e = state.advance(Nanos(t));
        if let Some(until) = sleeps(&e).first() {
            t = *until;
        }
        assert_eq!(t, returned, "call {call}");
        assert_eq!(updates(&e), [call], "call {call}");
        if let Some(p) = previous {
            assert!(t - p >= period, "call {call}: a period of {} ns", t - p);
        }
        previous = Some(t);
        let x = rng.next_u64();
        t += match x % 10 {
            0 => 0,
            1..=6 => x % period,
            7 => period,
            _ => x % (3 * period),
        };
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
    assert!(late > 500, "{late} late calls");
}

/// `Interval::set_period` "does not affect the existing scheduled next tick": at a 50 ms period,
/// ticks at 0 and 50 ms, then a period of 1 s: the next tick stays at 100 ms and the one after
/// comes at 1,100 ms. `set_rate` on a constant-rate clock does the same (the next slot keeps its
/// start, tick numbers continue) and reports the change.
#[test]
fn set_period_keeps_the_next_scheduled_tick() {
    for policy in [Policy::DropAndRest, Policy::KeepWorking, Policy::Delay] {
        let mut state = interval(50, policy);
        state.advance(Nanos(0));
        let e = state.advance(Nanos(10 * MS));
        assert_eq!((sleeps(&e), updates(&e)), (vec![50 * MS], vec![1]));
        let second = Period::from_duration(Duration::from_secs(1)).unwrap();
        state.clock_mut("main").unwrap().set_rate(second);
        assert_eq!(
            state.clock("main").ok().map(|c| c.rate()),
            Some(second),
            "{policy:?}"
        );
        let e = state.advance(Nanos(60 * MS));
        assert!(e.iter().any(|e| e
            == Event::RateChanged {
                clock: ClockId(0),
                period: second,
                from_tick: 2
            }));
        assert_eq!(
            (sleeps(&e), updates(&e)),
            (vec![100 * MS], vec![2]),
            "{policy:?}"
        );
        let e = state.advance(Nanos(110 * MS));
        assert_eq!(
            (sleeps(&e), updates(&e)),
            (vec![1_100 * MS], vec![3]),
            "{policy:?}"
        );
    }
}

/// `Interval::reset` "resets the scheduled next tick to one period after the current time".
/// Under `Policy::Delay`, `reset_grid` restarts the slots where the shell is (here at tick 1's
/// slot, 100 ms, which the shell slept until), so a later step is late and re-phases the grid
/// to itself, then ticks come a full period apart. At a 100 ms period, ticks at 0 and
/// 100 ms, and a reset when the work of the 100 ms tick ends at 120 ms: `reset` ticks next at
/// 220 ms, 320 ms; tickfold at 120 ms (one tick sooner: the slot `reset_grid` starts), then
/// 220 ms, 320 ms.
#[test]
fn reset_grid_under_delay_restarts_the_period_at_the_next_step() {
    let mut state = interval(100, Policy::Delay);
    state.advance(Nanos(0));
    let e = state.advance(Nanos(20 * MS));
    assert_eq!((sleeps(&e), updates(&e)), (vec![100 * MS], vec![1]));
    state.clock_mut("main").unwrap().reset_grid();
    let e = state.advance(Nanos(120 * MS));
    assert_eq!((sleeps(&e), updates(&e)), (vec![], vec![2]));
    assert!(dropped(&e).is_empty());
    for (k, at) in [(3, 220), (4, 320)] {
        let e = state.advance(Nanos((at - 50) * MS));
        assert_eq!((sleeps(&e), updates(&e)), (vec![at * MS], vec![k]));
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
}

/// `reset_grid` under `Policy::DropAndRest`, after a step that slept until tick 1's slot at
/// 100 ms: the restarted slot starts there (where the shell is), not at the step's own 20 ms,
/// so no slot starts before one that already ran. A step at the slot's start runs it; a later
/// one finds it missed, reports the drop and rests until the next slot, a period after the
/// reset: then the next update comes one period after the reset, as with `Interval::reset`.
/// (Before this was found, the grid restarted at 20 ms, and even a step at 100 ms dropped the
/// restarted slot.)
#[test]
fn reset_grid_under_drop_and_rest_restarts_where_the_shell_slept_to() {
    let slept = || {
        let mut state = interval(100, Policy::DropAndRest);
        state.advance(Nanos(0));
        let e = state.advance(Nanos(20 * MS));
        assert_eq!((sleeps(&e), updates(&e)), (vec![100 * MS], vec![1]));
        state.clock_mut("main").unwrap().reset_grid();
        state
    };
    // On time: the restarted slot runs.
    let mut state = slept();
    let e = state.advance(Nanos(100 * MS));
    assert!(dropped(&e).is_empty(), "{e:?}");
    assert_eq!((sleeps(&e), updates(&e)), (vec![], vec![2]));
    // Late: dropped and reported, the next slot a period after the reset.
    let mut state = slept();
    let e = state.advance(Nanos(120 * MS));
    assert_eq!(dropped(&e), [(2, 1)]);
    assert_eq!((sleeps(&e), updates(&e)), (vec![200 * MS], vec![3]));
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 1);
}

/// `spin_sleep` `loop_helper_test::get_set_target_rate`: 100 per second, then 150; tickfold's
/// rate is exact both ways.
#[test]
fn set_target_rate_at_run_time() {
    let mut state = LoopState::new(
        LoopConfig::new(Period::from_hz_f64(100.0).unwrap()).policy(Policy::Delay),
        Nanos(0),
    )
    .unwrap();
    assert_eq!(
        state.clock("main").ok().map(|c| c.rate()).unwrap().hz_f64(),
        100.0
    );
    state
        .clock_mut("main")
        .unwrap()
        .set_rate(Period::from_hz_f64(150.0).unwrap());
    let rate = state.clock("main").ok().map(|c| c.rate()).unwrap();
    assert!((rate.hz_f64() - 150.0).abs() < 1e-9);
    assert_eq!(rate, Period::from_hz(150).unwrap());
}
