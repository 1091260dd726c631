//! Issue 43, items 3.2, 3.4 and 3.6: a loop-level per-clock setting in a loop of several
//! clocks is refused whatever the order of the calls; the errors' messages (`Display`, what a
//! `?` in `main` prints) name the clock and the value refused, the alpha clock's name, and
//! what `remove_clock` and `refuse` did not find; a phase of −0.0 and an empty clock name are
//! refused.

use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period, Policy};

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn message(config: LoopConfig) -> String {
    match LoopState::new(config, Nanos(0)) {
        Ok(_) => String::from("accepted"),
        Err(e) => e.to_string(),
    }
}

/// 3.2: the old message said to call the setter "on the `LoopConfig` before adding clocks";
/// doing so lifted only AI's cap, silently. Now both orders are refused, naming the clock the
/// call would set, and the message no longer suggests the order that hid it.
#[test]
fn a_loop_level_clock_setting_before_the_other_clocks_is_refused_too() {
    let before = LoopConfig::from_clock(ClockConfig::new("ai", hz(10)))
        .max_updates(None)
        .clock(ClockConfig::new("physics", hz(30)));
    let text = message(before);
    assert!(
        text.contains("max_updates")
            && text.contains("\"ai\"")
            && text.contains("each ClockConfig"),
        "{text}"
    );
    let after = LoopConfig::from_clock(ClockConfig::new("ai", hz(10)))
        .clock(ClockConfig::new("physics", hz(30)))
        .max_updates(None);
    let text = message(after);
    assert!(
        text.contains("\"ai\"") && !text.contains("before adding clocks"),
        "{text}"
    );
    // One clock: the shorthand sets it, as documented.
    let one = LoopConfig::new(hz(60)).max_updates(None).phase(0.5);
    assert_eq!(message(one), "accepted");
}

/// 3.4: each per-clock error names the clock and the value.
#[test]
fn per_clock_errors_name_the_clock_and_the_value() {
    let with = |clock: ClockConfig| message(LoopConfig::new(hz(60)).clock(clock));
    let text = with(ClockConfig::new("ai", hz(10)).phase(1.5));
    assert!(text.contains("\"ai\"") && text.contains("1.5"), "{text}");
    let text = with(ClockConfig::new("ai", hz(10)).hysteresis(0.75));
    assert!(text.contains("\"ai\"") && text.contains("0.75"), "{text}");
    let text = with(ClockConfig::new("ai", hz(10)).max_updates(Some(0)));
    assert!(text.contains("\"ai\"") && text.contains('0'), "{text}");
    let text = with(
        ClockConfig::new("ai", hz(10))
            .policy(Policy::DropAndRest)
            .phase(0.25),
    );
    assert!(text.contains("\"ai\"") && text.contains("phase"), "{text}");

    // The run-time controls name the clock too.
    let config = LoopConfig::new(hz(60)).clock(ClockConfig::new("ai", hz(10)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let text = state
        .clock_mut("ai")
        .unwrap()
        .set_phase(2.0)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(text.contains("\"ai\"") && text.contains('2'), "{text}");
    let text = state
        .clock_mut("ai")
        .unwrap()
        .set_max_updates(Some(0))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(text.contains("\"ai\""), "{text}");
}

/// 3.4: the alpha clock's error names the clock; `remove_clock` and `refuse` name what they
/// did not find, in the message itself (not only in `Debug` or `source()`).
#[test]
fn lookups_that_fail_name_what_was_not_found() {
    let text = message(LoopConfig::new(hz(60)).alpha_clock("physics"));
    assert!(text.contains("\"physics\""), "{text}");
    let mut state = LoopState::new(LoopConfig::new(hz(60)), Nanos(0)).unwrap();
    let text = state.remove_clock("ai").unwrap_err().to_string();
    assert!(text.contains("\"ai\""), "{text}");
    let text = state.refuse("ai", 0).unwrap_err().to_string();
    assert!(text.contains("\"ai\""), "{text}");
    let gone = tickfold_core::ClockId(7);
    let text = state.refuse(gone, 0).unwrap_err().to_string();
    assert!(text.contains('7'), "{text}");
}

/// 3.6: −0.0 is not a phase in `[0, 1)` (nor a hysteresis in `[0, 0.5]`), and a clock needs
/// a name to be looked up by.
#[test]
fn a_negative_zero_phase_and_an_empty_name_are_refused() {
    assert_ne!(message(LoopConfig::new(hz(60)).phase(-0.0)), "accepted");
    assert_ne!(
        message(LoopConfig::new(hz(60)).hysteresis(-0.0)),
        "accepted"
    );
    let mut state = LoopState::new(LoopConfig::new(hz(60)), Nanos(0)).unwrap();
    assert!(state.clock_mut("main").unwrap().set_phase(-0.0).is_err());
    let empty = LoopConfig::from_clock(ClockConfig::new("", hz(60)));
    let text = message(empty);
    assert!(text.contains("name"), "{text}");
    assert!(state.add_clock(ClockConfig::new("", hz(10)), None).is_err());
}
