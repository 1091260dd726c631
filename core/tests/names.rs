//! Clock names are owned: a name made at run time needs no `'static` (no leak), every lookup
//! takes a borrowed or owned name, and loading saves keeps no table of names (what a loaded
//! state allocates for its names is freed with it).

use std::borrow::Cow;

use tickfold_core::{
    ClockConfig, ClockRef, ConfigError, LoopConfig, LoopState, Nanos, NoSuchClock, Period,
};

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

#[test]
fn a_name_made_at_run_time_adds_looks_up_counts_and_removes() {
    let mut state = LoopState::new(LoopConfig::new(hz(60)), Nanos(0)).unwrap();
    let names: Vec<String> = (0..3).map(|i| format!("enemy-{i}")).collect();
    let ids: Vec<_> = names
        .iter()
        .map(|name| {
            let config = ClockConfig::new(name.clone(), hz(10));
            state.add_clock(config, None).unwrap()
        })
        .collect();
    assert_eq!(
        state.clock_names().collect::<Vec<_>>(),
        ["main", "enemy-0", "enemy-1", "enemy-2"]
    );
    // Looked up by `&str`, `&String`, `String`, a `Cow` and the id.
    assert_eq!(state.clock(&names[1]).map(|c| c.id()), Ok(ids[1]));
    assert_eq!(state.clock(ids[2]).unwrap().name(), "enemy-2");
    state.clock_mut(&names[0]).unwrap().set_rate(hz(20));
    state.clock_mut(names[1].clone()).unwrap().set_rate(hz(40));
    state
        .clock_mut(Cow::Borrowed(names[2].as_str()))
        .unwrap()
        .set_rate(hz(5));
    assert_eq!(
        state.clock(names[0].as_str()).ok().map(|c| c.rate()),
        Some(hz(20))
    );
    assert_eq!(state.clock(ids[1]).ok().map(|c| c.rate()), Some(hz(40)));
    assert_eq!(state.clock_mut(&names[2]).unwrap().name(), "enemy-2");

    // 10 ms frames (a single long one would hit the max frame delta).
    for ms in (10..=500).step_by(10) {
        let _ = state.advance(Nanos::from_millis(ms));
    }
    let stats = state.clock(ids[0]).unwrap().stats();
    assert_eq!((stats.name.as_ref(), stats.ticks_run), ("enemy-0", 10));
    // The stats own their name: they outlive the steps after them.
    for ms in (510..=1_000).step_by(10) {
        let _ = state.advance(Nanos::from_millis(ms));
    }
    let later = state.clock(ids[0]).unwrap().stats();
    assert_eq!(
        (stats.name, stats.ticks_run, later.ticks_run),
        (later.name, 10, 20)
    );

    // Removal by an owned name; the name is gone with the clock.
    assert_eq!(state.remove_clock(names[1].clone()), Ok(ids[1]));
    assert_eq!(state.clock(&names[1]).ok().map(|c| c.id()), None);
    assert_eq!(
        state.remove_clock(&names[1]),
        Err(NoSuchClock::Name(names[1].clone().into()).into())
    );
    assert_eq!(state.remove_clock(ids[2]), Ok(ids[2]));
    assert_eq!(state.clock_names().collect::<Vec<_>>(), ["main", "enemy-0"]);
}

#[test]
fn clock_refs_convert_from_every_kind_of_name() {
    let owned = String::from("physics");
    let from_string = ClockRef::from(owned.clone());
    let from_ref = ClockRef::from(&owned);
    let from_str = ClockRef::from("physics");
    assert_eq!(from_string, from_ref);
    assert_eq!(from_ref, from_str);
    assert!(matches!(from_string, ClockRef::Name(Cow::Owned(ref n)) if n == "physics"));
    assert!(matches!(from_ref, ClockRef::Name(Cow::Borrowed("physics"))));
}

#[test]
fn a_run_time_name_checks_duplicates_and_the_alpha_clock() {
    let name = format!("ai-{}", 2);
    let dup = LoopConfig::new(hz(60))
        .clock(ClockConfig::new(name.clone(), hz(10)))
        .clock(ClockConfig::new("ai-2", hz(20)));
    assert_eq!(
        LoopState::<Nanos>::new(dup, Nanos(0)).err(),
        Some(ConfigError::DuplicateClock("ai-2".into()))
    );
    let alpha = LoopConfig::new(hz(60))
        .clock(ClockConfig::new(name.clone(), hz(10)))
        .alpha_clock(name.clone());
    let state = LoopState::new(alpha, Nanos(0)).unwrap();
    assert_eq!(state.clock(state.alpha_clock()).unwrap().name(), "ai-2");
    let unknown = LoopConfig::new(hz(60)).alpha_clock(format!("ai-{}", 3));
    assert_eq!(
        LoopState::<Nanos>::new(unknown, Nanos(0)).err(),
        Some(ConfigError::AlphaClock(NoSuchClock::Name("ai-3".into())))
    );
}

#[cfg(feature = "serde")]
mod saves {
    use super::*;

    /// A loop with a clock named `name`, stepped for a while, as JSON.
    fn save(name: &str) -> String {
        let config = LoopConfig::new(hz(60)).clock(ClockConfig::new(name.to_owned(), hz(10)));
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        let _ = state.advance(Nanos::from_millis(250));
        serde_json::to_string(&state).unwrap()
    }

    #[test]
    fn a_loaded_state_keeps_its_names() {
        let json = save("wave-7");
        let loaded: LoopState<Nanos> = serde_json::from_str(&json).unwrap();
        assert_eq!(loaded.clock_names().collect::<Vec<_>>(), ["main", "wave-7"]);
        let id = loaded.clock("wave-7").unwrap().id();
        assert_eq!(loaded.clock(id).unwrap().stats().name, "wave-7");
        // Saved again, the same text.
        assert_eq!(serde_json::to_string(&loaded).unwrap(), json);
        // A config and a stats report round-trip their names too.
        let config = LoopConfig::new(hz(60))
            .clock(ClockConfig::new(String::from("net"), hz(30)))
            .alpha_clock(String::from("net"));
        let back: LoopConfig =
            serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
        assert_eq!(back, config);
        let stats = loaded.clock(id).unwrap().stats();
        let back: tickfold_core::ClockStats =
            serde_json::from_str(&serde_json::to_string(&stats).unwrap()).unwrap();
        assert_eq!(back, stats);
    }

    #[test]
    fn loading_a_thousand_saves_keeps_no_name_behind() {
        let saves: Vec<(String, String)> = (0..1_000)
            .map(|i| {
                let name = format!("player-{i}");
                let json = save(&name);
                (name, json)
            })
            .collect();
        // Every load allocates its state and its names, and dropping it frees them all: the
        // net count of live allocations comes back to zero (a global table, or a leaked
        // name, would leave one per distinct name).
        let info = allocation_counter::measure(|| {
            for (name, json) in &saves {
                let loaded: LoopState<Nanos> = serde_json::from_str(json).unwrap();
                // Names are per state: this one has its own clock and no other load's.
                assert_eq!(
                    loaded.clock_names().collect::<Vec<_>>(),
                    ["main", name.as_str()]
                );
            }
        });
        assert!(
            info.count_total >= 1_000,
            "{} allocations",
            info.count_total
        );
        assert_eq!(
            info.count_current, 0,
            "allocations still live after the loads"
        );

        // The same save loaded twice gives two copies of the name, not one shared entry.
        let a: LoopState<Nanos> = serde_json::from_str(&saves[0].1).unwrap();
        let b: LoopState<Nanos> = serde_json::from_str(&saves[0].1).unwrap();
        let id = a.clock("player-0").unwrap().id();
        let (va, vb) = (a.clock(id).unwrap(), b.clock(id).unwrap());
        let (na, nb) = (va.name(), vb.name());
        assert_eq!(na, nb);
        assert_ne!(na.as_ptr(), nb.as_ptr());
    }
}
