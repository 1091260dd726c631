//! Bad input and limits: typed config errors with clear messages, a clock going backwards,
//! gaps of centuries with and without the max-frame-delta clamp (and the accounting identity),
//! and the next deadline the fold asks for.

use core::time::Duration;
use tickfold_testing::SplitMix64;

use tickfold_core::{
    ClockId, ConfigError, Event, Events, LoopConfig, LoopState, MAX_UPDATES_PER_STEP, Nanos,
    Period, Policy, RateError, TimeScale,
};

const MS: u64 = 1_000_000;
const SEC: u64 = 1_000_000_000;

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn new(config: LoopConfig) -> LoopState {
    LoopState::new(config, Nanos(0)).unwrap()
}

// ---------------------------------------------------------------- bad input

#[test]
fn config_errors_are_typed_and_explained() {
    let build = |c: LoopConfig| LoopState::new(c, Nanos(0)).map(|_| ());
    let base = || LoopConfig::new(hz(60));
    let cases: Vec<(Result<(), ConfigError>, ConfigError, &str)> = vec![
        (
            Period::from_hz(0).map(|_| ()).map_err(ConfigError::from),
            ConfigError::Rate(RateError::Zero),
            "zero",
        ),
        (
            Period::from_hz_f64(-60.0)
                .map(|_| ())
                .map_err(ConfigError::from),
            ConfigError::Rate(RateError::Invalid),
            "positive",
        ),
        (
            Period::from_hz_f64(f64::NAN)
                .map(|_| ())
                .map_err(ConfigError::from),
            ConfigError::Rate(RateError::Invalid),
            "finite",
        ),
        (
            build(base().max_updates(Some(0))),
            ConfigError::ZeroUpdateCap {
                clock: "main".into(),
            },
            "at least 1",
        ),
        (
            build(base().max_frame_delta(Some(Duration::ZERO))),
            ConfigError::ZeroMaxFrameDelta,
            "frame delta",
        ),
        (
            TimeScale::from_f64(f64::NAN)
                .map(|_| ())
                .map_err(ConfigError::from),
            ConfigError::Rate(RateError::InvalidScale),
            "scale",
        ),
        (
            build(base().phase(1.0)),
            ConfigError::InvalidPhase {
                clock: "main".into(),
                phase: 1.0,
            },
            "[0, 1)",
        ),
        (
            build(base().hysteresis(0.6)),
            ConfigError::InvalidHysteresis {
                clock: "main".into(),
                hysteresis: 0.6,
            },
            "[0, 0.5]",
        ),
        (
            build(base().policy(Policy::DropAndRest).phase(0.5)),
            ConfigError::CatchUpOnly {
                clock: "main".into(),
                setting: "phase",
            },
            "catch-up",
        ),
    ];
    for (got, want, keyword) in cases {
        assert_eq!(got, Err(want.clone()));
        let message = want.to_string();
        assert!(
            message.contains(keyword),
            "{want:?}: {message:?} lacks {keyword:?}"
        );
        let _: &dyn std::error::Error = &want;
    }
    // A NaN phase is refused too (NaN equals nothing, so matched rather than compared).
    let nan = build(base().phase(f64::NAN));
    assert!(
        matches!(&nan, Err(ConfigError::InvalidPhase { clock, phase }) if clock == "main" && phase.is_nan()),
        "{nan:?}"
    );
    assert!(nan.unwrap_err().to_string().contains("NaN"));
}

#[test]
fn clock_going_backwards_is_reported_and_never_double_counted() {
    let run = |cap: Option<u32>, nows: &[u64]| {
        let mut state = new(LoopConfig::new(hz(100)).max_updates(cap));
        let (mut ticks, mut backwards, mut latest) = (Vec::new(), Vec::new(), 0);
        for &ms in nows {
            let events = state.advance(Nanos(ms * MS));
            ticks.extend(events.updates().map(|t| (t.index, t.t)));
            latest = latest.max(ms);
            for e in &events {
                if let Event::TimeBackwards { by } = e {
                    backwards.push(by.0 / MS);
                    assert!(events.render().is_none(), "rendered going backwards");
                    // Nothing new: at most the backlog due by the latest `now` runs.
                    let new_work = events.updates().filter(|t| t.index >= latest / 10);
                    assert_eq!(new_work.count(), 0);
                    if cap.is_none() {
                        assert_eq!(events.updates().count(), 0);
                    }
                }
            }
        }
        (
            ticks,
            backwards,
            state.clock("main").unwrap().stats().ticks_run,
        )
    };
    for cap in [None, Some(8)] {
        let (mono, none, mono_ticks) = run(cap, &[0, 100, 130, 200]);
        let (back, by, back_ticks) = run(cap, &[0, 100, 40, 130, 70, 200]);
        assert!(none.is_empty());
        assert_eq!(by, [60, 60]);
        assert_eq!((mono_ticks, back_ticks), (20, 20));
        assert_eq!(back, mono, "the same ticks, none counted twice");
    }
    // Before the start: `by` counts from the latest now.
    let config = LoopConfig::new(hz(100)).max_updates(None);
    let mut state = LoopState::new(config, Nanos(SEC)).unwrap();
    state.advance(Nanos(SEC + 100 * MS));
    let events = state.advance(Nanos(SEC - 50 * MS));
    assert_eq!(
        events.into_vec(),
        [Event::TimeBackwards {
            by: Nanos(150 * MS)
        }]
    );
}

/// 500 years (of 365 days) in ns: fits in u64, which covers 584 years.
const CENTURIES: u64 = 500 * 365 * 86_400 * SEC;

fn deferred(events: &Events<Nanos>) -> Vec<u64> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Deferred { ticks, .. } => Some(ticks),
            _ => None,
        })
        .collect()
}

#[test]
fn gap_of_centuries_without_clamp_is_bounded_per_step() {
    let due = 500 * 365 * 86_400 * 60; // 60 Hz ticks in 500 years, computed by hand
    for (cap, per_step) in [(Some(8), 8), (None, u64::from(MAX_UPDATES_PER_STEP))] {
        let mut state = new(LoopConfig::new(hz(60))
            .max_updates(cap)
            .max_frame_delta(None));
        state.advance(Nanos(0));
        let events = state.advance(Nanos(CENTURIES));
        assert_eq!(events.updates().count() as u64, per_step, "{cap:?}");
        assert_eq!(deferred(&events), [due - per_step], "{cap:?}");
        assert_eq!(events.deadline(), Some(&Nanos(CENTURIES)), "go on at once");
        assert_eq!(state.clock("main").unwrap().stats().ticks_due, due);
        let stats = state.clock("main").unwrap().stats();
        assert_eq!(stats.ticks_run + stats.ticks_dropped + stats.pending, due);
        // The backlog keeps running at most the cap per step, with no new render.
        let events = state.advance(Nanos(CENTURIES));
        assert_eq!(events.updates().count() as u64, per_step);
        assert!(events.render().is_none());
        assert_eq!(events.updates().last().unwrap().index, 2 * per_step - 1);
    }
}

#[test]
fn gap_with_clamp_reports_discarded_time_and_ticks() {
    // 10 s gap at 60 Hz, default 250 ms clamp and cap 8: 600 ticks due by the clock, the
    // oldest 585 dropped with 9.75 s, the newest 15 kept (8 run now, 7 pending).
    let mut state = new(LoopConfig::new(hz(60)));
    state.advance(Nanos(0));
    let events = state.advance(Nanos(10 * SEC));
    let discarded: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, Event::DiscardedTime { .. }))
        .collect();
    assert_eq!(
        discarded,
        [Event::DiscardedTime {
            clock: ClockId(0),
            time: Nanos(9_750 * MS),
            first: 0,
            ticks: 585
        }]
    );
    let run: Vec<u64> = events.updates().map(|t| t.index).collect();
    assert_eq!(
        run,
        (585..593).collect::<Vec<_>>(),
        "the tick number jumps over the drop"
    );
    assert_eq!(events.dropped_ticks(), 585);
    assert_eq!(deferred(&events), [7]);
    assert_eq!(
        (
            state.clock("main").unwrap().stats().ticks_run,
            state.clock("main").unwrap().stats().ticks_dropped,
            state.clock("main").unwrap().stats().pending
        ),
        (8, 585, 7)
    );
    assert_eq!(state.clock("main").unwrap().stats().ticks_due, 600);
    // A second, odd gap keeps the identity exact.
    state.advance(Nanos(10 * SEC + 3_333_333_333));
    let due = (10 * SEC + 3_333_333_333) * 60 / SEC;
    assert_eq!(state.clock("main").unwrap().stats().ticks_due, due);
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(stats.ticks_run + stats.ticks_dropped + stats.pending, due);
}

// ---------------------------------------------------------------- deadlines

#[test]
fn deadline_is_exactly_when_the_next_tick_is_due() {
    let mut x = SplitMix64::new(1234);
    let mut rng = move || x.next_u64();
    let mut state = new(LoopConfig::new(hz(60)));
    let mut now = 0;
    let (mut catch_ups, mut backlogs) = (0, 0);
    for step in 0..3_000u64 {
        now += match step % 50 {
            17 => 120 * MS + rng() % MS, // 7 ticks: a catch-up step under the cap
            33 => 180 * MS,              // 10 or 11 ticks: a backlog
            _ => 16 * MS + rng() % (2 * MS),
        };
        let events = state.advance(Nanos(now));
        let deadline = events.deadline().copied().unwrap().0;
        if state.clock("main").unwrap().stats().pending > 0 {
            backlogs += 1;
            assert_eq!(deadline, now, "a backlog asks to go on at once");
            continue;
        }
        catch_ups += u32::from(events.updates().count() > 1);
        // Tick k is due once (k + 1)/60 s have passed: ceil((k + 1)·10⁹/60) ns.
        let due = (u128::from(state.clock("main").unwrap().stats().next_tick + 1)
            * u128::from(SEC))
        .div_ceil(60);
        assert_eq!(u128::from(deadline), due, "step {step}");
        let (_, before) = state.clone().step(Nanos(deadline - 1));
        assert_eq!(before.updates().count(), 0, "step {step}: 1 ns early");
        let (_, at) = state.clone().step(Nanos(deadline));
        assert_eq!(at.updates().count(), 1, "step {step}: at the deadline");
    }
    assert!(catch_ups >= 50 && backlogs >= 50, "{catch_ups} {backlogs}");
}

#[test]
fn deadline_when_paused_and_with_a_render_cap() {
    let mut state = new(LoopConfig::new(hz(60)).paused(true));
    assert_eq!(state.advance(Nanos(5 * MS)).deadline(), None);
    // Paused with a render cap of 50 Hz: wake for the next render slot (20 ms).
    let mut state = new(LoopConfig::new(hz(60))
        .paused(true)
        .render_rate(Some(hz(50))));
    assert_eq!(
        state.advance(Nanos(5 * MS)).deadline(),
        Some(&Nanos(20 * MS))
    );
    // Running with the cap: whichever comes first, tick 0 (16.67 ms) or slot 1 (20 ms).
    let mut state = new(LoopConfig::new(hz(60)).render_rate(Some(hz(50))));
    assert_eq!(
        state.advance(Nanos(5 * MS)).deadline(),
        Some(&Nanos(16_666_667))
    );
    assert_eq!(
        state.advance(Nanos(17 * MS)).deadline(),
        Some(&Nanos(20 * MS))
    );
}
