//! The run-time controls' refusals: invalid settings are typed errors that change nothing, the
//! getters read back what the setters set, and a refused tick runs again with its number.

use core::time::Duration;

use tickfold_core::{
    ClockStats, ConfigError, LoopConfig, LoopState, Nanos, NoSuchClock, Period, Policy,
    RefuseError, Tick,
};

fn rate(i: usize) -> Period {
    const RATES: [(u64, u64); 5] = [(60, 1), (60_000, 1_001), (144, 1), (7, 3), (30, 1)];
    Period::from_hz_ratio(RATES[i].0, RATES[i].1).unwrap()
}

/// Every tick due (or run early) is run, dropped or pending.
fn identity(s: &ClockStats) -> bool {
    s.ticks_run + s.ticks_dropped + s.pending == s.ticks_due + s.ticks_early
}

#[test]
fn invalid_settings_are_typed_errors_and_change_nothing() {
    let config = LoopConfig::new(rate(0))
        .clock(tickfold_core::ClockConfig::new("slots", rate(4)).policy(Policy::DropAndRest));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let _ = state.advance(Nanos(50_000_000));
    let before = state.clone();
    // The settings can only be wrong: a `ConfigError`, the variant the setting names.
    let mut main = state.clock_mut("main").unwrap();
    assert_eq!(
        main.set_max_updates(Some(0)).map(|_| ()),
        Err(ConfigError::ZeroUpdateCap {
            clock: "main".into()
        })
    );
    assert_eq!(
        main.set_phase(1.0).map(|_| ()),
        Err(ConfigError::InvalidPhase {
            clock: "main".into(),
            phase: 1.0
        })
    );
    assert!(matches!(
        main.set_hysteresis(f64::NAN).map(|_| ()),
        Err(ConfigError::InvalidHysteresis { clock, hysteresis }) if clock == "main" && hysteresis.is_nan()
    ));
    let mut slots = state.clock_mut("slots").unwrap();
    assert_eq!(
        slots.set_phase(0.5).map(|_| ()),
        Err(ConfigError::CatchUpOnly {
            clock: "slots".into(),
            setting: "phase"
        })
    );
    assert_eq!(
        state
            .real_time_mut()
            .set_max_frame_delta(Some(Duration::ZERO))
            .map(|_| ()),
        Err(ConfigError::ZeroMaxFrameDelta)
    );
    assert_eq!(
        state.clock_mut("nope").map(|mut h| {
            h.set_rate(rate(1));
        }),
        Err(NoSuchClock::Name("nope".into()))
    );
    let gone = tickfold_core::ClockId(9);
    assert_eq!(
        state.clock_mut(gone).map(|mut h| {
            h.reset_grid();
        }),
        Err(NoSuchClock::Id(gone))
    );
    assert_eq!(state, before);
    // The getters read back what the setters set.
    state
        .clock_mut("main")
        .unwrap()
        .set_max_updates(Some(3))
        .unwrap();
    state.clock_mut("main").unwrap().set_phase(0.25).unwrap();
    state
        .clock_mut("main")
        .unwrap()
        .set_hysteresis(0.125)
        .unwrap();
    state
        .real_time_mut()
        .set_max_frame_delta(Some(Duration::from_millis(40)))
        .unwrap();
    state.real_time_mut().set_render_rate(Some(rate(4)));
    assert_eq!(
        state.clock("main").ok().map(|c| c.max_updates()),
        Some(Some(3))
    );
    assert_eq!(state.clock("main").ok().map(|c| c.phase()), Some(0.25));
    assert_eq!(
        state.clock("main").ok().map(|c| c.hysteresis()),
        Some(0.125)
    );
    assert_eq!(
        state.real_time().max_frame_delta(),
        Some(Duration::from_millis(40))
    );
    assert_eq!(state.real_time().render_rate(), Some(rate(4)));
    assert_eq!(state.clock("slots").ok().map(|c| c.rate()), Some(rate(4)));
    assert_eq!(state.clock("nope").ok().map(|c| c.max_updates()), None);
}

#[test]
fn a_refused_tick_runs_again_with_its_number() {
    let config = LoopConfig::new(rate(0));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let events = state.advance(Nanos(40_000_000)); // ticks 0 and 1
    let ticks: Vec<Tick> = events.updates().collect();
    assert_eq!(ticks.len(), 2);
    // Only the latest update can be refused, then the one before it.
    assert!(matches!(
        state.refuse(ticks[0].clock, ticks[0].index),
        Err(RefuseError::NotRefusable { index: 0, .. })
    ));
    state.refuse(ticks[1].clock, ticks[1].index).unwrap();
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 1);
    assert_eq!(state.clock("main").unwrap().stats().pending, 1);
    let again: Vec<u64> = state
        .advance(Nanos(40_000_000))
        .updates()
        .map(|t| t.index)
        .collect();
    assert_eq!(again, [1]);
    let s = state.clock("main").unwrap().stats();
    assert_eq!((s.ticks_run, s.ticks_refused), (2, 1));
    assert!(identity(&s));
    // A tick from an older step cannot be refused.
    let _ = state.advance(Nanos(41_000_000));
    assert!(state.refuse(ticks[1].clock, ticks[1].index).is_err());
}
