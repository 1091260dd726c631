//! Several fixed-rate clocks in one loop (the "looping in time" article's fixed-frequency loops):
//! no drift, the error bounds of the *late* and *nearest* firing rules, the eventually-collision
//! rule, the total order of updates, a naive oracle (each clock alone, then merged), quickcheck
//! properties, and bad input.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    ClockConfig, ClockId, ConfigError, Event, Firing, LoopConfig, LoopState, Nanos, NoSuchClock,
    Period, Policy, RateError, RemoveClockError,
};

const SEC: u64 = 1_000_000_000;

/// `ceil(k·dt)` in ns: when tick `k − 1` of a catch-up clock becomes due.
fn ceil_mul(rate: Period, k: u64) -> u64 {
    let (num, den) = rate.as_nanos_ratio();
    let p = u128::from(k) * u128::from(num);
    u64::try_from(p.div_ceil(u128::from(den))).unwrap()
}

/// Steps `state` at `now = X, 2X, …, steps·X` and records (clock, tick, fire time) per update.
fn run_outer(mut state: LoopState, x: u64, steps: u64) -> Vec<(ClockId, u64, u64)> {
    let mut fired = Vec::new();
    for s in 1..=steps {
        let (next, events) = state.step(Nanos(s * x));
        state = next;
        fired.extend(events.updates().map(|t| (t.clock, t.index, s * x)));
    }
    fired
}

fn four_clocks(firing: Firing) -> LoopConfig {
    let hz = |n| Period::from_hz(n).unwrap();
    LoopConfig::from_clock(
        ClockConfig::new("main", hz(60))
            .firing(firing)
            .max_updates(None),
    )
    .max_frame_delta(None)
    .clock(ClockConfig::new("fast", hz(144)).firing(firing))
    .clock(ClockConfig::new("p23", Period::from_millis_f64(23.0).unwrap()).firing(firing))
    .clock(ClockConfig::new("p37", Period::from_millis_f64(37.0).unwrap()).firing(firing))
}

/// The article's claims: every clock fires exactly floor(10 s / P) times, the late rule is off by
/// at most one outer period, and the nearest rule by at most half of one.
fn no_drift(firing: Firing, bound: u64) {
    let x = 5_000_000; // 5 ms outer loop; none of the clock periods is a multiple of it
    let state = LoopState::new(four_clocks(firing), Nanos(0)).unwrap();
    let rates: Vec<Period> = ["main", "fast", "p23", "p37"]
        .iter()
        .map(|n| state.clock(*n).unwrap().stats().rate)
        .collect();
    let fired = run_outer(state, x, 10 * SEC / x);
    for (c, rate) in rates.iter().enumerate() {
        let mine: Vec<_> = fired.iter().filter(|f| f.0 == ClockId(c as u16)).collect();
        let due_in_span = mine
            .iter()
            .filter(|f| ceil_mul(*rate, f.1 + 1) <= 10 * SEC)
            .count() as u64;
        assert_eq!(due_in_span, rate.ticks_in(10 * SEC), "clock {c}");
        // Nearest may fire the tick due just after 10 s at the last step, early.
        assert!(mine.len() as u64 - due_in_span <= u64::from(firing == Firing::Nearest));
        for (i, f) in mine.iter().enumerate() {
            assert_eq!(f.1, i as u64, "clock {c}: consecutive tick numbers");
            let due = ceil_mul(*rate, f.1 + 1);
            assert!(
                f.2.abs_diff(due) <= bound,
                "clock {c} tick {}: fired {} due {due}",
                f.1,
                f.2
            );
            if firing == Firing::Late {
                assert!(f.2 >= due, "late never fires early");
            }
        }
    }
}

#[test]
fn late_firing_has_no_drift_and_errs_at_most_one_outer_period() {
    no_drift(Firing::Late, 5_000_000);
}

#[test]
fn nearest_firing_has_no_drift_and_errs_at_most_half_an_outer_period() {
    no_drift(Firing::Nearest, 2_500_000);
}

#[test]
fn eventually_collision_rule_breaks_ties_by_declaration_order() {
    // 50 Hz and 20 Hz collide every 100 ms.
    for (first, second) in [((50, "a"), (20, "b")), ((20, "a"), (50, "b"))] {
        let config = LoopConfig::from_clock(
            ClockConfig::new("main", Period::from_hz(first.0).unwrap()).max_updates(None),
        )
        .clock(ClockConfig::new(second.1, Period::from_hz(second.0).unwrap()).max_updates(None))
        .max_frame_delta(None);
        let state = LoopState::new(config, Nanos(0)).unwrap();
        // One step over 200 ms: all ten 50 Hz ticks and four 20 Hz ticks, in due order.
        let (_, events) = state.step(Nanos::from_millis(200));
        let order: Vec<(u16, u64)> = events
            .updates()
            .map(|t| (t.clock.0, ceil_mul(t.dt, t.index + 1)))
            .collect();
        assert_eq!(order.len(), 14);
        for w in order.windows(2) {
            assert!(
                w[0].1 < w[1].1 || (w[0].1 == w[1].1 && w[0].0 < w[1].0),
                "{w:?}"
            );
        }
        let at_100: Vec<u16> = order
            .iter()
            .filter(|o| o.1 == 100_000_000)
            .map(|o| o.0)
            .collect();
        assert_eq!(
            at_100,
            [0, 1],
            "the collision at 100 ms runs the first-declared clock first"
        );
    }
}

#[test]
fn last_in_step_is_per_clock() {
    let config = LoopConfig::new(Period::from_hz(100).unwrap())
        .clock(ClockConfig::new("slow", Period::from_hz(30).unwrap()));
    let (_, events) = LoopState::new(config, Nanos(0))
        .unwrap()
        .step(Nanos::from_millis(70));
    for clock in [ClockId(0), ClockId(1)] {
        let flags: Vec<bool> = events
            .updates()
            .filter(|t| t.clock == clock)
            .map(|t| t.last_in_step)
            .collect();
        assert!(!flags.is_empty());
        assert_eq!(flags.iter().filter(|f| **f).count(), 1);
        assert!(flags[flags.len() - 1]);
    }
}

#[test]
fn deadline_is_the_earliest_clock_or_render_slot() {
    let config = LoopConfig::new(Period::from_hz(10).unwrap())
        .clock(ClockConfig::new("b", Period::from_hz(3).unwrap()))
        .render_rate(Some(Period::from_hz(7).unwrap()));
    let (state, events) = LoopState::new(config, Nanos(0)).unwrap().step(Nanos(1));
    // Render slots every 142,857,142.86 ns: the next after the first render is ceil(1/7 s).
    assert_eq!(events.deadline(), Some(&Nanos(100_000_000)));
    let (_, events) = state.step(Nanos(100_000_000));
    assert_eq!(events.deadline(), Some(&Nanos(142_857_143)));
}

#[test]
fn render_alpha_follows_the_designated_clock() {
    let config = LoopConfig::from_clock(
        ClockConfig::new("main", Period::from_hz(100).unwrap()).max_updates(None),
    )
    .clock(ClockConfig::new("ai", Period::from_hz(10).unwrap()))
    .alpha_clock("ai");
    let (state, events) = LoopState::new(config, Nanos(0))
        .unwrap()
        .step(Nanos::from_millis(125));
    let ai = state.clock("ai").unwrap().stats();
    let main = state.clock(ClockId(0)).unwrap().stats();
    assert_eq!(events.render().unwrap().alpha, ai.alpha);
    assert!((ai.alpha - 0.25).abs() < 1e-12);
    assert!((main.alpha - 0.5).abs() < 1e-12);
    assert_eq!(
        state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
        1,
        "single-clock accessors describe the alpha clock"
    );
}

#[test]
fn clocks_join_and_leave_a_running_loop() {
    let config = LoopConfig::new(Period::from_hz(10).unwrap()).max_frame_delta(None);
    let (mut state, _) = LoopState::new(config, Nanos(0))
        .unwrap()
        .step(Nanos::from_millis(1_000));
    // Starting now: tick 0 covers [1 s, 1.1 s).
    let now_id = state
        .add_clock(ClockConfig::new("now", Period::from_hz(10).unwrap()), None)
        .unwrap();
    // Starting 2 s in the past: a catch-up clock catches up at most its cap per step.
    let past = ClockConfig::new("past", Period::from_hz(10).unwrap()).max_updates(Some(8));
    let past_id = state.add_clock(past, Some(Nanos(0))).unwrap();
    // A constant-rate clock starting in the past drops the slots that passed.
    let slots = ClockConfig::new("slots", Period::from_hz(10).unwrap()).policy(Policy::KeepWorking);
    let slots_id = state.add_clock(slots, Some(Nanos(0))).unwrap();
    let (mut state, events) = state.step(Nanos::from_millis(1_100));
    let count = |c| events.updates().filter(|t| t.clock == c).count();
    // The cap defers "past"'s tick 8 (due at 0.9 s): "now"'s tick 0 and the slot in progress,
    // due at 1.1 s, wait behind it (a step runs a prefix of the due-time order).
    assert_eq!(count(now_id), 0);
    assert_eq!(count(slots_id), 0);
    assert_eq!(count(past_id), 8);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Deferred { clock, ticks: 1 } if clock == now_id))
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Deferred { clock, ticks: 3 } if clock == past_id))
    );
    assert!(events.iter().any(
        |e| matches!(e, Event::DroppedTicks { clock, first: 0, count: 11, .. } if clock == slots_id)
    ));
    assert_eq!(
        events.deadline(),
        Some(&Nanos::from_millis(1_100)),
        "a backlog asks to be called at once"
    );
    assert_eq!(state.remove_clock("past"), Ok(past_id));
    assert_eq!(
        state.remove_clock("past"),
        Err(RemoveClockError::NoSuchClock(NoSuchClock::Name(
            "past".into()
        )))
    );
    assert_eq!(
        state.clock_names().collect::<Vec<_>>(),
        ["main", "now", "slots"]
    );
    let dup = state.add_clock(ClockConfig::new("now", Period::from_hz(1).unwrap()), None);
    assert_eq!(dup, Err(ConfigError::DuplicateClock("now".into())));
    state.remove_clock("now").unwrap();
    state.remove_clock("slots").unwrap();
    assert_eq!(state.remove_clock("main"), Err(RemoveClockError::LastClock));
}

#[test]
fn a_removed_clock_s_pending_controls_are_not_reported() {
    let hz = |n| Period::from_hz(n).unwrap();
    let config = LoopConfig::new(hz(60))
        .clock(ClockConfig::new("ai", hz(30)))
        .clock(ClockConfig::new("net", hz(20)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let _ = state.advance(Nanos::from_millis(500));
    let (ai, net) = (
        state.clock("ai").unwrap().id(),
        state.clock("net").unwrap().id(),
    );
    state.clock_mut("ai").unwrap().set_rate(hz(10));
    // 250 ms of lag, dropped by the reset: two ticks of 100 ms.
    state
        .clock_mut("ai")
        .unwrap()
        .accumulate_overstep(Nanos::from_millis(250));
    state.clock_mut("ai").unwrap().reset_grid();
    state.clock_mut("net").unwrap().set_rate(hz(40));
    state.remove_clock("ai").unwrap();
    let events = state.advance(Nanos::from_millis(600));
    let named: Vec<ClockId> = events
        .iter()
        .filter_map(|e| match e {
            Event::RateChanged { clock, .. } | Event::DroppedTicks { clock, .. } => Some(clock),
            _ => None,
        })
        .collect();
    // Only the remaining clock's change is reported; none names the removed one.
    assert_eq!(named, [net]);
    assert!(!events.updates().any(|t| t.clock == ai));
}

#[test]
fn bad_clock_configs_are_typed_errors() {
    let hz = |n| Period::from_hz(n).unwrap();
    let dup = LoopConfig::new(hz(60)).clock(ClockConfig::new("main", hz(10)));
    assert_eq!(
        LoopState::new(dup, Nanos(0)).err(),
        Some(ConfigError::DuplicateClock("main".into()))
    );
    let alpha = LoopConfig::new(hz(60)).alpha_clock("nope");
    assert_eq!(
        LoopState::new(alpha, Nanos(0)).err(),
        Some(ConfigError::AlphaClock(NoSuchClock::Name("nope".into())))
    );
    let cap = LoopConfig::new(hz(60)).clock(ClockConfig::new("x", hz(10)).max_updates(Some(0)));
    assert_eq!(
        LoopState::new(cap, Nanos(0)).err(),
        Some(ConfigError::ZeroUpdateCap { clock: "x".into() })
    );
    assert_eq!(Period::from_hz_f64(f64::NAN), Err(RateError::Invalid));
    assert_eq!(Period::from_hz(0), Err(RateError::Zero));
    assert!(
        !ConfigError::DuplicateClock("main".into())
            .to_string()
            .is_empty()
    );
}

/// A few clock rates (ns ratio) and frame slicings for the properties.
#[derive(Clone, Debug)]
struct Case {
    rates_hz: Vec<(u64, u64)>,
    frames: Vec<u64>,
    other_frames: Vec<u64>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let pick = |g: &mut Gen| {
            *g.choose(&[
                (60, 1),
                (144, 1),
                (50, 1),
                (60_000, 1_001),
                (10, 1),
                (7, 3),
                (240, 1),
            ])
            .unwrap()
        };
        let n = 1 + usize::arbitrary(g) % 4;
        let rates_hz = (0..n).map(|_| pick(g)).collect();
        let frames = (0..(1 + usize::arbitrary(g) % 60))
            .map(|_| u64::arbitrary(g) % 40_000_000)
            .collect();
        let other_frames = (0..(1 + usize::arbitrary(g) % 60))
            .map(|_| u64::arbitrary(g) % 40_000_000)
            .collect();
        Case {
            rates_hz,
            frames,
            other_frames,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let me = self.clone();
        Box::new(self.frames.shrink().map(move |frames| Case {
            frames,
            ..me.clone()
        }))
    }
}

fn config_of(rates_hz: &[(u64, u64)]) -> LoopConfig {
    const NAMES: [&str; 4] = ["c0", "c1", "c2", "c3"];
    let rate = |(n, d): (u64, u64)| Period::from_hz_ratio(n, d).unwrap();
    let mut config =
        LoopConfig::from_clock(ClockConfig::new("main", rate(rates_hz[0])).max_updates(None))
            .max_frame_delta(None);
    for (i, r) in rates_hz.iter().enumerate().skip(1) {
        config = config.clock(ClockConfig::new(NAMES[i], rate(*r)).max_updates(None));
    }
    config
}

/// Every update as (clock, tick, t, due) in emission order, folding frame lengths `frames`.
fn fold(config: LoopConfig, frames: &[u64]) -> Vec<(u16, u64, u64, u64)> {
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut now = 0;
    let mut out = Vec::new();
    for f in frames {
        now += f;
        let (next, events) = state.step(Nanos(now));
        state = next;
        for t in events.updates() {
            out.push((t.clock.0, t.index, t.t.0, ceil_mul(t.dt, t.index + 1)));
        }
        for c in 0..4u16 {
            if let Some(s) = state.clock(ClockId(c)).ok().map(|c| c.stats()) {
                assert_eq!(
                    s.ticks_run + s.ticks_dropped + s.pending,
                    s.ticks_due,
                    "identity, clock {c}"
                );
            }
        }
    }
    out
}

/// The naive oracle: each clock alone, then merged by (due time, declaration order) within
/// each step.
fn oracle(rates_hz: &[(u64, u64)], frames: &[u64]) -> Vec<(u16, u64, u64, u64)> {
    let mut alone: Vec<LoopState> = rates_hz
        .iter()
        .map(|r| LoopState::new(config_of(&[*r]), Nanos(0)).unwrap())
        .collect();
    let mut now = 0;
    let mut out = Vec::new();
    for f in frames {
        now += f;
        let mut step: Vec<(u64, u16, u64, u64)> = Vec::new();
        for (c, s) in alone.iter_mut().enumerate() {
            for t in s.advance(Nanos(now)).updates() {
                step.push((ceil_mul(t.dt, t.index + 1), c as u16, t.index, t.t.0));
            }
        }
        step.sort();
        out.extend(step.into_iter().map(|(due, c, i, t)| (c, i, t, due)));
    }
    out
}

#[test]
fn prop_merged_clocks_match_the_oracle_and_keep_the_identity() {
    fn prop(case: Case) -> bool {
        fold(config_of(&case.rates_hz), &case.frames) == oracle(&case.rates_hz, &case.frames)
    }
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(prop as fn(Case) -> bool);
}

#[test]
fn prop_late_ticks_do_not_depend_on_slicing_or_other_clocks() {
    fn prop(case: Case) -> bool {
        // Same total span, two slicings; compare each clock's own sequence of (tick, t).
        let total: u64 = case.frames.iter().sum();
        let mut other = case.other_frames.clone();
        let other_total: u64 = other.iter().sum();
        if other_total < total {
            other.push(total - other_total);
        } else {
            // Re-slice `other` so it ends exactly at `total`.
            let mut acc = 0;
            other.retain(|f| {
                acc += f;
                acc <= total
            });
            let sum: u64 = other.iter().sum();
            other.push(total - sum);
        }
        let a = fold(config_of(&case.rates_hz), &case.frames);
        let b = fold(config_of(&case.rates_hz), &other);
        (0..case.rates_hz.len() as u16).all(|c| {
            let own = |v: &[(u16, u64, u64, u64)]| {
                v.iter()
                    .filter(|x| x.0 == c)
                    .map(|x| (x.1, x.2))
                    .collect::<Vec<_>>()
            };
            let alone = fold(
                config_of(&case.rates_hz[c as usize..=c as usize]),
                &case.frames,
            );
            let alone: Vec<_> = alone.iter().map(|x| (x.1, x.2)).collect();
            own(&a) == own(&b) && own(&a) == alone
        })
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Case) -> bool);
}
