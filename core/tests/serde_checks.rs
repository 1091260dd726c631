//! serde (feature `serde`): a save that breaks the fold's invariants does not load, whatever
//! the route, and the typed route ([`SavedState`]) names the rule it breaks. One edit per
//! test, each to a save the fold wrote; the property over random saves is in `serde.rs`.
#![cfg(feature = "serde")]

use core::time::Duration;

use serde_json::{Value, json};
use tickfold_core::{
    ClockConfig, ClockId, ConfigError, LoopConfig, LoopState, Nanos, Period, Policy, SavedState,
    StateError,
};

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

/// A loop that ran, dropped slots and lost ticks to the max frame delta, then had a clock
/// removed and controls set that the next step will report: a rate change of "ai" (clock 3)
/// and the ticks a grid reset of "physics" (clock 0) dropped. "gone" (clock 2) is removed.
fn busy_save() -> Value {
    let config = LoopConfig::from_clock(ClockConfig::new("physics", hz(60)))
        .clock(ClockConfig::new("slots", hz(20)).policy(Policy::KeepWorking))
        .clock(ClockConfig::new("gone", hz(10)))
        .clock(ClockConfig::new("ai", hz(30)))
        .max_frame_delta(Some(Duration::from_millis(100)))
        .render_rate(Some(hz(50)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    for ms in [16, 33, 50, 400, 416, 433] {
        let _ = state.advance(Nanos::from_millis(ms));
    }
    state.remove_clock("gone").unwrap();
    state.clock_mut("ai").unwrap().set_rate(hz(15));
    state
        .clock_mut("physics")
        .unwrap()
        .accumulate_overstep(Nanos::from_millis(100));
    state.clock_mut("physics").unwrap().reset_grid();
    let save = serde_json::to_value(&state).unwrap();
    // What the edits below rely on: every counter in use, both kinds of report pending.
    let physics = &save["clocks"][0];
    assert!(physics["ran"].as_u64() > Some(0) && physics["clamp_dropped"].as_u64() > Some(0));
    assert!(save["clocks"][1]["dropped_slots"].as_u64() > Some(0));
    assert_eq!(save["clocks"][2]["id"], 3);
    assert_eq!(save["reports"][0]["Rate"]["clock"], 3);
    assert_eq!(save["reports"][1]["Dropped"]["clock"], 0);
    save
}

/// The same save with `edit` applied: `Err` with the typed error, after checking that the
/// direct load refuses it too, with the same message.
fn load(save: &Value, edit: impl FnOnce(&mut Value)) -> Result<LoopState, StateError> {
    let mut save = save.clone();
    edit(&mut save);
    let saved: SavedState = serde_json::from_value(save.clone()).expect("the save still parses");
    let typed = LoopState::try_from(saved);
    let direct = serde_json::from_value::<LoopState>(save);
    match (&typed, direct) {
        (Ok(a), Ok(b)) => assert_eq!(*a, b),
        (Err(e), Err(d)) => assert_eq!(d.to_string(), e.to_string()),
        (typed, direct) => panic!("the routes disagree: {typed:?} and {direct:?}"),
    }
    typed
}

/// One change to a save.
type Edit = fn(&mut Value);

/// Adds `by` to the number at `path` (indices and keys) in the save.
fn bump(path: &'static [&'static str], by: i64) -> impl FnOnce(&mut Value) {
    move |save| {
        let mut v = save;
        for key in path {
            v = match key.parse::<usize>() {
                Ok(i) => &mut v[i],
                Err(_) => &mut v[*key],
            };
        }
        *v = v.as_u64().unwrap().checked_add_signed(by).unwrap().into();
    }
}

#[test]
fn the_busy_save_loads() {
    let save = busy_save();
    assert!(load(&save, |_| {}).is_ok());
}

#[test]
fn one_more_tick_run_is_refused() {
    let save = busy_save();
    let err = load(&save, bump(&["clocks", "0", "ran"], 1));
    assert_eq!(err.unwrap_err(), StateError::Accounting(ClockId(0)));
}

#[test]
fn one_more_tick_number_is_refused() {
    let save = busy_save();
    let err = load(&save, bump(&["clocks", "1", "next_tick"], 1));
    assert_eq!(err.unwrap_err(), StateError::Accounting(ClockId(1)));
}

#[test]
fn one_more_dropped_slot_is_refused() {
    let save = busy_save();
    let err = load(&save, bump(&["clocks", "1", "dropped_slots"], 1));
    assert_eq!(err.unwrap_err(), StateError::Accounting(ClockId(1)));
}

#[test]
fn one_more_tick_lost_to_the_max_frame_delta_is_refused() {
    let save = busy_save();
    let err = load(&save, bump(&["clocks", "0", "clamp_dropped"], 1));
    assert_eq!(err.unwrap_err(), StateError::Accounting(ClockId(0)));
}

#[test]
fn a_report_naming_a_clock_the_loop_does_not_have_is_refused() {
    let save = busy_save();
    // An id never handed out, and the id of the removed clock.
    for id in [9, 2] {
        let err = load(&save, |s| s["reports"][0]["Rate"]["clock"] = id.into());
        assert_eq!(
            err.unwrap_err(),
            StateError::UnknownReportClock(ClockId(id))
        );
    }
    // So no step can report a rate change for it.
    assert!(load(&save, |_| {}).is_ok());
}

#[test]
fn the_latest_step_cannot_have_run_more_than_the_clock_did() {
    let save = busy_save();
    // "physics" restarted its grid at its next tick: no update of the step is on it.
    let err = load(&save, |s| s["clocks"][0]["last_count"] = 1.into());
    assert_eq!(err.unwrap_err(), StateError::BadStepCount(ClockId(0)));
    // "slots" ran fewer updates than the count claims.
    let ran = save["clocks"][1]["ran"].as_u64().unwrap();
    let err = load(&save, |s| s["clocks"][1]["last_count"] = (ran + 1).into());
    assert_eq!(err.unwrap_err(), StateError::BadStepCount(ClockId(1)));
}

#[test]
fn a_grid_segment_the_fold_never_builds_is_refused() {
    let save = busy_save();
    // The end of time moved before a tick the clock has not reached.
    let err = load(&save, bump(&["clocks", "1", "end"], -1));
    assert_eq!(err.unwrap_err(), StateError::BadGrid(ClockId(1)));
    // Simulation time on the first segment, which starts at 0.
    let err = load(&save, |s| s["clocks"][1]["base_t"] = 5.into());
    assert_eq!(err.unwrap_err(), StateError::BadGrid(ClockId(1)));
    // A segment starting after the next tick.
    let err = load(&save, bump(&["clocks", "0", "base"], 1));
    assert_eq!(err.unwrap_err(), StateError::BadGrid(ClockId(0)));
}

#[test]
fn a_report_its_clock_contradicts_is_refused() {
    let save = busy_save();
    let cases: [(&str, Edit); 4] = [
        ("dropped ticks not counted as dropped", |s| {
            s["reports"][1]["Dropped"]["count"] = 1_000.into();
        }),
        ("dropped ticks not reached yet", |s| {
            s["reports"][1]["Dropped"]["first"] = 10_000.into();
        }),
        ("a rate change from a later tick", |s| {
            s["reports"][0]["Rate"]["from_tick"] = 10_000.into();
        }),
        ("a rate change to another rate", |s| {
            s["reports"][0]["Rate"]["period"] = json!({ "num": 1_000_000, "den": 1 });
        }),
    ];
    for (what, edit) in cases {
        let clock = if what.contains("rate") { 3 } else { 0 };
        assert_eq!(
            load(&save, edit).unwrap_err(),
            StateError::BadReport(ClockId(clock)),
            "{what}"
        );
    }
}

#[test]
fn pending_control_bits_the_state_contradicts_are_refused() {
    let save = busy_save();
    let cases: [(&str, Edit); 4] = [
        ("reports without their flag", |s| {
            s["pending_controls"] = 0.into();
        }),
        ("a pause reported for a running loop", |s| {
            s["pending_controls"] = 9.into();
        }),
        ("a scale change to the scale reported", |s| {
            s["pending_controls"] = 12.into();
        }),
        ("a scale change without its flag", |s| {
            s["reported_scale"] = json!({ "num": 1, "den": 2 });
        }),
    ];
    for (what, edit) in cases {
        let err = load(&save, edit).unwrap_err();
        assert!(matches!(err, StateError::BadControls(_)), "{what}: {err:?}");
        assert!(err.to_string().contains("contradict"), "{what}: {err}");
    }
    let err = load(&save, |s| s["render_next"] = Value::Null).unwrap_err();
    assert_eq!(err, StateError::MissingRenderSlot);
}

/// Settings `LoopState::new` refuses come back with its own error, wrapped: the one home of
/// each case (issue 38: no error variant repeated across types).
#[test]
fn settings_new_refuses_are_refused_with_its_error() {
    let save = busy_save();
    let err = load(&save, |s| {
        s["clocks"][1]["config"]["name"] = json!("physics")
    });
    assert_eq!(
        err.unwrap_err(),
        StateError::Config(ConfigError::DuplicateClock("physics".into()))
    );
    let err = load(&save, |s| s["max_delta"] = json!(0));
    assert_eq!(
        err.unwrap_err(),
        StateError::Config(ConfigError::ZeroMaxFrameDelta)
    );
    // The message names the setting, as `LoopState::new`'s does.
    let new_says = ConfigError::ZeroMaxFrameDelta.to_string();
    let err = load(&save, |s| s["max_delta"] = json!(0)).unwrap_err();
    assert!(err.to_string().contains(&new_says), "{err}");
}
