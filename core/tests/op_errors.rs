//! Each operation's error has exactly the cases that operation can have: a lookup fails by
//! name or by id ([`NoSuchClock`]), adding a clock asks what [`LoopState::new`] asks of the same
//! clock set ([`ConfigError`]), removing one can also find it is the last
//! ([`RemoveClockError`]), refusing a tick can also find it is not refusable
//! ([`RefuseError`]). The messages read right, `source()` chains to the lookup, `?` converts,
//! and the lookups by id and by name agree.

use std::error::Error;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    ClockConfig, ClockId, ConfigError, LoopConfig, LoopState, Nanos, NoSuchClock, Period,
    RefuseError, RemoveClockError,
};

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn two_clocks() -> LoopState {
    let config = LoopConfig::new(hz(60)).clock(ClockConfig::new("ai", hz(10)));
    LoopState::new(config, Nanos(0)).unwrap()
}

#[test]
fn a_lookup_fails_by_name_or_by_id_and_nothing_else() {
    let mut state = two_clocks();
    assert_eq!(
        state.clock("physics").err(),
        Some(NoSuchClock::Name("physics".into()))
    );
    assert_eq!(
        state.clock(ClockId(7)).err(),
        Some(NoSuchClock::Id(ClockId(7)))
    );
    let ai = state.remove_clock("ai").unwrap();
    // A removed clock's id is gone with it.
    assert_eq!(state.clock(ai).err(), Some(NoSuchClock::Id(ai)));
    assert_eq!(state.clock_mut(ai).err(), Some(NoSuchClock::Id(ai)));
    assert_eq!(
        state.clock_mut(String::from("ai")).err(),
        Some(NoSuchClock::Name("ai".into()))
    );
    // The two cases are all there is: an exhaustive match needs no wildcard.
    let what = |e: NoSuchClock| match e {
        NoSuchClock::Name(name) => format!("name {name}"),
        NoSuchClock::Id(id) => format!("id {}", id.0),
    };
    assert_eq!(what(state.clock("x").unwrap_err()), "name x");
}

#[test]
fn adding_a_clock_asks_what_new_asks_of_the_same_set() {
    let mut state = two_clocks();
    let before = state.clone();
    let dup = state.add_clock(ClockConfig::new("ai", hz(20)), None);
    assert_eq!(dup, Err(ConfigError::DuplicateClock("ai".into())));
    // The setting's own variant, not wrapped.
    let capped = ClockConfig::new("net", hz(20)).max_updates(Some(0));
    assert_eq!(
        state.add_clock(capped, None),
        Err(ConfigError::ZeroUpdateCap {
            clock: "net".into()
        })
    );
    assert_eq!(state, before, "a refused add changes nothing");
    // The same answers as building the loop with that clock declared.
    let built = LoopConfig::new(hz(60))
        .clock(ClockConfig::new("ai", hz(10)))
        .clock(ClockConfig::new("ai", hz(20)));
    assert_eq!(
        LoopState::new(built, Nanos(0)).err(),
        Some(ConfigError::DuplicateClock("ai".into()))
    );
}

#[test]
fn adding_past_the_last_id_is_too_many_clocks() {
    let mut state = LoopState::new(LoopConfig::new(hz(60)), Nanos(0)).unwrap();
    // Ids are never reused: 65,535 over the loop's life, its first clock's among them.
    for _ in 1..u16::MAX {
        let id = state
            .add_clock(ClockConfig::new("again", hz(10)), None)
            .unwrap();
        state.remove_clock(id).unwrap();
    }
    let err = state
        .add_clock(ClockConfig::new("again", hz(10)), None)
        .unwrap_err();
    assert_eq!(err, ConfigError::TooManyClocks);
    assert_eq!(
        err.to_string(),
        "a loop can have at most 65,535 clocks over its life (clock ids are never reused)"
    );
}

#[test]
fn removing_fails_for_no_such_clock_or_the_last_one() {
    let mut state = two_clocks();
    assert_eq!(
        state.remove_clock("physics"),
        Err(RemoveClockError::NoSuchClock(NoSuchClock::Name(
            "physics".into()
        )))
    );
    assert_eq!(
        state.remove_clock(ClockId(9)),
        Err(RemoveClockError::NoSuchClock(NoSuchClock::Id(ClockId(9))))
    );
    state.remove_clock("ai").unwrap();
    let before = state.clone();
    assert_eq!(state.remove_clock("main"), Err(RemoveClockError::LastClock));
    assert_eq!(state, before);
}

#[test]
fn refusing_fails_for_no_such_clock_or_a_tick_it_cannot_take_back() {
    let mut state = two_clocks();
    let events = state.advance(Nanos::from_millis(40));
    let last = events.updates().last().unwrap();
    assert_eq!(
        state.refuse(ClockId(9), 0),
        Err(RefuseError::NoSuchClock(NoSuchClock::Id(ClockId(9))))
    );
    assert_eq!(
        state.refuse("physics", 0),
        Err(RefuseError::NoSuchClock(NoSuchClock::Name(
            "physics".into()
        )))
    );
    assert_eq!(
        state.refuse(last.clock, last.index + 1),
        Err(RefuseError::NotRefusable {
            clock: last.clock,
            index: last.index + 1,
        })
    );
    assert_eq!(state.refuse(last.clock, last.index), Ok(()));
}

#[test]
fn an_unknown_alpha_clock_is_a_failed_lookup_in_the_config_error() {
    let config = LoopConfig::new(hz(60)).alpha_clock("physics");
    let err = LoopState::new(config, Nanos(0)).unwrap_err();
    assert_eq!(
        err,
        ConfigError::AlphaClock(NoSuchClock::Name("physics".into()))
    );
    assert_eq!(
        err.to_string(),
        "the alpha clock is not one of the loop's clocks: no clock is named \"physics\""
    );
    let source = err.source().map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("no clock is named \"physics\""));
}

#[test]
fn messages_read_right_and_sources_chain_to_the_lookup() {
    let name = NoSuchClock::Name("ai".into());
    assert_eq!(name.to_string(), "no clock is named \"ai\"");
    assert_eq!(NoSuchClock::Id(ClockId(3)).to_string(), "no clock has id 3");
    assert!(name.source().is_none());

    let remove = RemoveClockError::from(name.clone());
    assert_eq!(
        remove.to_string(),
        "nothing to remove: no clock is named \"ai\""
    );
    let source = remove.source().map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("no clock is named \"ai\""));
    let last = RemoveClockError::LastClock;
    assert_eq!(
        last.to_string(),
        "the loop's only clock cannot be removed: a loop needs a clock"
    );
    assert!(last.source().is_none());

    let refuse = RefuseError::from(name);
    assert_eq!(
        refuse.to_string(),
        "no tick to refuse: no clock is named \"ai\""
    );
    let source = refuse.source().map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("no clock is named \"ai\""));
    let not = RefuseError::NotRefusable {
        clock: ClockId(1),
        index: 4,
    };
    assert!(
        not.to_string()
            .starts_with("tick 4 of clock 1 cannot be refused")
    );
    assert!(not.source().is_none());

    // One message for a duplicate, whether the loop is built or a clock is added.
    assert_eq!(
        ConfigError::DuplicateClock("ai".into()).to_string(),
        "the clock name \"ai\" is taken: a loop's clock names are unique"
    );
}

/// `?` on a lookup converts into each operation's error that wraps it.
fn remove_by_lookup(state: &mut LoopState, name: &str) -> Result<ClockId, RemoveClockError> {
    let id = state.clock(name)?.id();
    state.remove_clock(id)
}

fn refuse_latest(state: &mut LoopState, name: &str) -> Result<(), RefuseError> {
    let index = state.clock(name)?.stats().next_tick.saturating_sub(1);
    state.refuse(name, index)
}

#[test]
fn question_mark_converts_a_lookup_into_the_operation_s_error() {
    let mut state = two_clocks();
    let _ = state.advance(Nanos::from_millis(20));
    assert_eq!(
        remove_by_lookup(&mut state, "net"),
        Err(RemoveClockError::NoSuchClock(NoSuchClock::Name(
            "net".into()
        )))
    );
    assert_eq!(remove_by_lookup(&mut state, "ai"), Ok(ClockId(1)));
    assert_eq!(
        refuse_latest(&mut state, "ai"),
        Err(RefuseError::NoSuchClock(NoSuchClock::Name("ai".into())))
    );
    assert_eq!(refuse_latest(&mut state, "main"), Ok(()));
}

/// A loop of up to four clocks, some removed, and a frame schedule.
#[derive(Clone, Debug)]
struct Case {
    rates: Vec<u64>,
    removed: Vec<bool>,
    frames: Vec<u32>,
    probe: u16,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let n = 1 + usize::arbitrary(g) % 4;
        Case {
            rates: (0..n).map(|_| 1 + u64::arbitrary(g) % 240).collect(),
            removed: (0..n).map(|_| bool::arbitrary(g)).collect(),
            frames: (0..1 + usize::arbitrary(g) % 30)
                .map(|_| u32::arbitrary(g) % 50_000_000)
                .collect(),
            probe: u16::arbitrary(g) % 6,
        }
    }
}

/// The lookups by id and by name agree (`clock(id)` and `clock(name)` give the same
/// clock's stats and alpha; a removed clock or an id that never existed is `NoSuchClock`),
/// for every clock, after every step of random schedules; and the view's alpha is the
/// render's for the alpha clock.
#[test]
fn lookups_by_id_and_by_name_agree() {
    fn prop(case: Case) -> bool {
        let names: Vec<String> = (0..case.rates.len()).map(|i| format!("c{i}")).collect();
        let mut config =
            LoopConfig::from_clock(ClockConfig::new(names[0].clone(), hz(case.rates[0])));
        for (name, &rate) in names.iter().zip(&case.rates).skip(1) {
            config = config.clock(ClockConfig::new(name.clone(), hz(rate)));
        }
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        for (i, &gone) in case.removed.iter().enumerate() {
            if gone {
                let _ = state.remove_clock(names[i].as_str());
            }
        }
        let mut now = 0u64;
        for d in case.frames {
            now += u64::from(d);
            let events = state.advance(Nanos(now));
            let alpha_clock = state.alpha_clock();
            if let Some(render) = events.render() {
                if state.clock(alpha_clock).map(|c| c.alpha()) != Ok(render.alpha) {
                    return false;
                }
            }
            for name in &names {
                let by_name = state.clock(name);
                match &by_name {
                    Ok(view) => {
                        let by_id = state.clock(view.id());
                        if by_id.as_ref().map(|c| (c.stats(), c.alpha()))
                            != Ok((view.stats(), view.alpha()))
                        {
                            return false;
                        }
                    }
                    Err(e) => {
                        if *e != NoSuchClock::Name(name.clone().into()) {
                            return false;
                        }
                    }
                }
            }
            for id in 0..=case.probe {
                let id = ClockId(id);
                if let Err(e) = state.clock(id) {
                    if e != NoSuchClock::Id(id) {
                        return false;
                    }
                }
            }
        }
        true
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Case) -> bool);
}
