//! serde (feature `serde`): a state saved mid-run and loaded back folds the rest of any
//! schedule exactly as the original does; corrupted saves are errors, never panics.
#![cfg(feature = "serde")]

use core::sync::atomic::{AtomicUsize, Ordering};
use core::time::Duration;
use tickfold_testing::SplitMix64;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    ClockConfig, ClockId, ClockStats, Event, Events, Firing, LoopConfig, LoopState, Nanos, Period,
    Policy, SavedState, TimeScale,
};

/// Several clocks (catch-up with hysteresis, with a phase, the nearest rule, a constant-rate
/// one), a render cap and a max frame delta: every part of the state that a step carries over.
fn busy_config(variant: u8) -> LoopConfig {
    let mut config = LoopConfig::from_clock(
        ClockConfig::new("physics", Period::from_hz(60).unwrap()).hysteresis(0.25),
    )
    .clock(ClockConfig::new("ai", Period::from_hz_ratio(30_000, 1_001).unwrap()).phase(0.5))
    .clock(
        ClockConfig::new("net", Period::from_hz(20).unwrap())
            .firing(Firing::Nearest)
            .max_updates(Some(2)),
    )
    .render_rate(Some(Period::from_hz(50).unwrap()))
    .max_frame_delta(Some(Duration::from_millis(100)));
    if variant % 2 == 1 {
        config = config.clock(
            ClockConfig::new("audio", Period::from_hz(7).unwrap()).policy(Policy::KeepWorking),
        );
    }
    if variant % 3 == 0 {
        config = config.alpha_clock("ai");
    }
    config
}

/// One frame of a schedule: how far the clock moves (possibly 0 or backwards) and a control
/// applied before the step.
#[derive(Clone, Debug)]
struct Frame {
    delta_us: i64,
    control: u8,
}

impl Arbitrary for Frame {
    fn arbitrary(g: &mut Gen) -> Frame {
        let delta_us = match u8::arbitrary(g) % 10 {
            0 => 0,
            1 => -(i64::from(u16::arbitrary(g)) % 5_000),
            2 => i64::from(u32::arbitrary(g) % 400_000),
            _ => 4_000 + i64::from(u16::arbitrary(g)) % 30_000,
        };
        Frame {
            delta_us,
            control: u8::arbitrary(g),
        }
    }
}

#[derive(Clone, Debug)]
struct Case {
    variant: u8,
    frames: Vec<Frame>,
    save_at: usize,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let frames: Vec<Frame> = (0..(usize::arbitrary(g) % 120 + 2))
            .map(|_| Frame::arbitrary(g))
            .collect();
        let save_at = usize::arbitrary(g) % frames.len();
        Case {
            variant: u8::arbitrary(g),
            frames,
            save_at,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let c = self.clone();
        Box::new(
            self.frames
                .shrink()
                .filter(|f| !f.is_empty())
                .map(move |frames| Case {
                    save_at: c.save_at.min(frames.len() - 1),
                    variant: c.variant,
                    frames,
                }),
        )
    }
}

/// Pause, resume, time scales whose steps leave a sub-nanosecond remainder (1/3, 7/11), rate
/// changes, added and discarded lag, and a grid reset.
fn apply(state: &mut LoopState<Nanos>, control: u8) {
    match control % 16 {
        0 => {
            state.virtual_time_mut().set_paused(true);
        }
        1 => {
            state.virtual_time_mut().set_paused(false);
        }
        2 => {
            state
                .virtual_time_mut()
                .set_scale(TimeScale::ratio(1, 3).unwrap());
        }
        3 => {
            state
                .virtual_time_mut()
                .set_scale(TimeScale::ratio(7, 11).unwrap());
        }
        4 => {
            state.virtual_time_mut().set_scale(TimeScale::ONE);
        }
        5 => {
            state
                .virtual_time_mut()
                .set_scale(TimeScale::ratio(5, 2).unwrap());
        }
        // The run-time controls: each starts a new grid segment or shifts the grid.
        6 => {
            let _ = state.clock_mut(ClockId(0)).map(|mut h| {
                h.set_rate(Period::from_hz_ratio(60_000, 1_001).unwrap());
            });
        }
        7 => {
            let _ = state.clock_mut(ClockId(0)).map(|mut h| {
                h.set_rate(Period::from_hz(45).unwrap());
            });
        }
        8 => {
            let _ = state.clock_mut(ClockId(1)).map(|mut h| {
                h.accumulate_overstep(Nanos(23_456_789));
            });
        }
        9 => {
            let _ = state
                .clock_mut(ClockId(0))
                .map(|mut h| h.discard_overstep(Nanos(7_000_000)));
        }
        10 => {
            let _ = state.clock_mut(ClockId(2)).map(|mut h| {
                h.reset_grid();
            });
        }
        // Single-stepping (takes effect only while paused).
        12 => {
            state.virtual_time_mut().step_ticks(3);
        }
        // Clocks removed and added at run time (a clock's pending reports go with it).
        13 => {
            let _ = state.remove_clock(if control & 16 == 0 { "ai" } else { "late" });
        }
        14 => {
            let policy = if control & 16 == 0 {
                Policy::CatchUp
            } else {
                Policy::DropAndRest
            };
            let late = ClockConfig::new("late", Period::from_hz(25).unwrap()).policy(policy);
            let start = state
                .virtual_time()
                .elapsed()
                .0
                .saturating_sub(u64::from(control) << 20);
            let _ = state.add_clock(late, Some(Nanos(start)));
        }
        _ => {}
    }
}

/// [`busy_config`], that with a constant-rate clock of any policy, or such a clock alone (the
/// lone constant-rate path, which sleeps until its slots).
fn any_config(variant: u8) -> LoopConfig {
    let policy =
        [Policy::DropAndRest, Policy::KeepWorking, Policy::Delay][usize::from(variant / 4) % 3];
    let slots = ClockConfig::new("slots", Period::from_hz(24).unwrap()).policy(policy);
    match variant % 4 {
        0 | 1 => busy_config(variant / 4),
        2 => busy_config(variant / 4).clock(slots),
        _ => LoopConfig::from_clock(slots).max_frame_delta(Some(Duration::from_millis(250))),
    }
}

/// Folds `frames`, starting from `state` at clock reading `now`, returning every event and the
/// final state.
fn fold(
    state: LoopState<Nanos>,
    now: i64,
    frames: &[Frame],
) -> (Vec<Vec<Event<Nanos>>>, LoopState<Nanos>) {
    fold_with(state, now, frames, |_| {})
}

/// [`fold`], showing `visit` every state it passes through: after each control, each step
/// and each refusal.
fn fold_with(
    mut state: LoopState<Nanos>,
    mut now: i64,
    frames: &[Frame],
    mut visit: impl FnMut(&LoopState<Nanos>),
) -> (Vec<Vec<Event<Nanos>>>, LoopState<Nanos>) {
    let mut events = Events::new();
    let mut out = Vec::new();
    for f in frames {
        apply(&mut state, f.control);
        visit(&state);
        now = (now + f.delta_us * 1_000).max(0);
        state.advance_into(Nanos(now as u64), &mut events);
        out.push(events.iter().collect());
        visit(&state);
        if f.control % 16 == 11 {
            // A shell that could not run the step's last update refuses it.
            if let Some(t) = events.updates().last() {
                if state.refuse(t.clock, t.index).is_ok() {
                    visit(&state);
                }
            }
        }
    }
    (out, state)
}

fn now_after(frames: &[Frame]) -> i64 {
    frames
        .iter()
        .fold(5_000_000i64, |now, f| (now + f.delta_us * 1_000).max(0))
}

fn round_trip(case: Case) -> bool {
    let start = Nanos(5_000_000);
    let state = LoopState::new(busy_config(case.variant), start).unwrap();
    let (head, rest) = case.frames.split_at(case.save_at);
    let (_, mid) = fold(state, start.0 as i64, head);
    let saved = serde_json::to_string(&mid).unwrap();
    let loaded: LoopState<Nanos> = serde_json::from_str(&saved).unwrap();
    // The loaded copy writes the same save, and reports the same accounting.
    assert_eq!(serde_json::to_string(&loaded).unwrap(), saved);
    for id in 0..5 {
        assert_eq!(
            loaded.clock(ClockId(id)).ok().map(|c| c.stats()),
            mid.clock(ClockId(id)).ok().map(|c| c.stats())
        );
    }
    // A binary format that is not self-describing loads the same state.
    let binary: LoopState<Nanos> =
        bincode::deserialize(&bincode::serialize(&mid).unwrap()).unwrap();
    assert_eq!(serde_json::to_string(&binary).unwrap(), saved);
    let now = now_after(head);
    let (a_events, a) = fold(mid, now, rest);
    let (b_events, b) = fold(loaded, now, rest);
    let (c_events, c) = fold(binary, now, rest);
    assert_eq!(a_events, b_events);
    assert_eq!(a_events, c_events);
    let a = serde_json::to_string(&a).unwrap();
    assert_eq!(a, serde_json::to_string(&b).unwrap());
    assert_eq!(a, serde_json::to_string(&c).unwrap());
    true
}

#[test]
fn a_state_saved_mid_run_folds_the_rest_identically() {
    QuickCheck::new()
        .tests(300)
        .quickcheck(round_trip as fn(Case) -> bool);
}

#[test]
fn the_round_trip_covers_what_it_claims() {
    // The schedule below pauses, scales by 1/3 (a remainder is carried at the save),
    // builds up hysteresis history and a render slot: check those are really in the save.
    let frames: Vec<Frame> = (0..60)
        .map(|k| Frame {
            delta_us: 16_667 + (k % 5) * 300,
            control: match k {
                10 => 0,
                12 => 1,
                20 => 2,
                _ => 15,
            },
        })
        .collect();
    let mut with_remainder = 0;
    for save_at in 21..60 {
        let state = LoopState::new(busy_config(1), Nanos(5_000_000)).unwrap();
        let (_, mid) = fold(state, 5_000_000, &frames[..save_at]);
        let json: serde_json::Value = serde_json::to_value(&mid).unwrap();
        assert_eq!(json["scale"], serde_json::json!({ "num": 1, "den": 3 }));
        assert!(json["render_next"].as_u64().is_some());
        assert!(json["clocks"][0]["snap"]["lengths"].as_u64().unwrap() > 0);
        if json["virt_rem"]["rem"] != 0 {
            with_remainder += 1;
        }
        assert!(round_trip(Case {
            variant: 1,
            frames: frames.clone(),
            save_at,
        }));
    }
    assert!(with_remainder > 10, "{with_remainder}");
}

#[test]
fn the_save_of_a_fresh_state_loads_equal() {
    let state = LoopState::new(busy_config(0), Nanos(7)).unwrap();
    let loaded: LoopState<Nanos> =
        serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
    assert_eq!(loaded, state);
}

#[test]
fn configs_values_and_events_round_trip() {
    let config = busy_config(3).time_scale(TimeScale::ratio(1, 2).unwrap());
    let json = serde_json::to_string(&config).unwrap();
    let back: LoopConfig = serde_json::from_str(&json).unwrap();
    assert_eq!(back, config);
    // The loaded config builds the same loop.
    assert_eq!(
        LoopState::new(back, Nanos(0)).unwrap(),
        LoopState::new(config, Nanos(0)).unwrap()
    );
    assert_eq!(
        serde_json::to_string(&Period::from_hz(60).unwrap()).unwrap(),
        r#"{"num":50000000,"den":3}"#
    );
    assert!(serde_json::from_str::<Period>(r#"{"num":0,"den":3}"#).is_err());
    assert!(serde_json::from_str::<TimeScale>(r#"{"num":1,"den":0}"#).is_err());
    let (state, events) = LoopState::new(busy_config(1), Nanos(0))
        .unwrap()
        .step(Nanos::from_millis(400));
    let listed: Vec<Event<Nanos>> =
        serde_json::from_str(&serde_json::to_string(&events).unwrap()).unwrap();
    assert_eq!(listed, events.iter().collect::<Vec<_>>());
    let stats = state.clock(ClockId(1)).unwrap().stats();
    let back: tickfold_core::ClockStats =
        serde_json::from_str(&serde_json::to_string(&stats).unwrap()).unwrap();
    assert_eq!(back, stats);
}

fn mid_run_json() -> serde_json::Value {
    let frames: Vec<Frame> = (0..40)
        .map(|k| Frame {
            delta_us: 9_000 + (k % 7) * 2_000,
            control: if k == 30 { 3 } else { 15 },
        })
        .collect();
    let state = LoopState::new(busy_config(1), Nanos(0)).unwrap();
    serde_json::to_value(fold(state, 0, &frames).1).unwrap()
}

fn load(v: &serde_json::Value) -> Result<LoopState<Nanos>, String> {
    serde_json::from_value(v.clone()).map_err(|e| e.to_string())
}

#[test]
fn broken_invariants_are_named_errors() {
    let good = mid_run_json();
    assert!(load(&good).is_ok());
    type Corrupt = fn(&mut serde_json::Value);
    let cases: [(&str, Corrupt); 10] = [
        ("version", |v| v["version"] = 2.into()),
        ("no clock", |v| v["clocks"] = serde_json::json!([])),
        ("alpha clock", |v| v["alpha_clock"] = 77.into()),
        ("repeated", |v| v["clocks"][1]["id"] = 0.into()),
        ("out of range", |v| v["next_id"] = 1.into()),
        ("two clocks", |v| {
            v["clocks"][1]["config"]["name"] = "physics".into()
        }),
        ("phase", |v| v["clocks"][1]["config"]["phase"] = 1.5.into()),
        ("remainder", |v| v["virt_rem"]["rem"] = 1_000.into()),
        ("render slot", |v| {
            v["render_rate"] = serde_json::Value::Null
        }),
        ("pending control", |v| v["pending_controls"] = 64.into()),
    ];
    for (what, corrupt) in cases {
        let mut v = good.clone();
        corrupt(&mut v);
        let err = load(&v).expect_err(what);
        assert!(!err.is_empty(), "{what}");
    }
    let mut v = good.clone();
    v["max_delta"] = 0.into();
    // The save names the setting with `LoopState::new`'s own message (one home per case).
    let new_says = tickfold_core::ConfigError::ZeroMaxFrameDelta.to_string();
    assert!(load(&v).unwrap_err().contains(&new_says));
}

/// How many numbers, booleans and nulls `v` holds.
fn leaves(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(a) => a.iter().map(leaves).sum(),
        serde_json::Value::Object(o) => o.values().map(leaves).sum(),
        serde_json::Value::String(_) => 0,
        _ => 1,
    }
}

/// Steps a loaded state through a rough schedule: it must not panic, whatever it loaded.
fn exercise(mut state: LoopState<Nanos>, rng: &mut SplitMix64) {
    let mut now = state.real_time().elapsed().0;
    let mut events = Events::new();
    for _ in 0..50 {
        now = now.saturating_add(match rng.below(4) {
            0 => 0,
            1 => rng.below(50_000_000),
            2 => rng.next_u64(),
            _ => 16_666_667,
        });
        state.advance_into(Nanos(now), &mut events);
        let _ = events.iter().count();
        let _ = events.render();
        for id in 0..6 {
            let _ = state.clock(ClockId(id)).ok().map(|c| c.stats());
        }
    }
}

#[test]
fn corrupted_saves_never_panic() {
    let good = mid_run_json();
    let text = serde_json::to_string(&good).unwrap();
    let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let (mut loaded, mut refused) = (0, 0);
    // Field values replaced by extreme or random ones, loaded and then stepped.
    for _ in 0..3_000 {
        let mut v = good.clone();
        let n = leaves(&v) as u64;
        for _ in 0..(1 + rng.below(3)) {
            let i = rng.below(n) as usize;
            let value: serde_json::Value = match rng.below(6) {
                0 => 0.into(),
                1 => u64::MAX.into(),
                2 => rng.below(1_000).into(),
                3 => rng.next_u64().into(),
                4 => true.into(),
                _ => serde_json::Value::Null,
            };
            set_leaf(&mut v, i, value);
        }
        match load(&v) {
            Ok(state) => {
                loaded += 1;
                exercise(state, &mut rng);
            }
            Err(_) => refused += 1,
        }
    }
    // Bytes of the text flipped: most of these do not parse, the rest load checked.
    for _ in 0..3_000 {
        let mut bytes = text.clone().into_bytes();
        let i = rng.below(bytes.len() as u64) as usize;
        bytes[i] = b"0123456789,:{}[]\"-ex9"[rng.below(21) as usize];
        if let Ok(state) = serde_json::from_slice::<LoopState<Nanos>>(&bytes) {
            loaded += 1;
            exercise(state, &mut rng);
        } else {
            refused += 1;
        }
    }
    // Both outcomes happened, so the test exercised the checks and the stepping of odd states.
    assert!(
        loaded > 100 && refused > 100,
        "{loaded} loaded, {refused} refused"
    );
}

/// Replaces the `i`-th leaf (in the order of [`leaves`]) of `v`.
fn set_leaf(v: &mut serde_json::Value, i: usize, value: serde_json::Value) {
    fn walk(v: &mut serde_json::Value, i: &mut usize, value: &mut Option<serde_json::Value>) {
        match v {
            serde_json::Value::Number(_) | serde_json::Value::Bool(_) | serde_json::Value::Null => {
                if *i == 0 {
                    if let Some(x) = value.take() {
                        *v = x;
                    }
                }
                *i = i.wrapping_sub(1);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| walk(x, i, value)),
            serde_json::Value::Object(o) => o.values_mut().for_each(|x| walk(x, i, value)),
            serde_json::Value::String(_) => {}
        }
    }
    let mut i = i;
    walk(v, &mut i, &mut Some(value));
}

/// A clock of `state` whose accounting identity fails (exactly, see `ClockStats`), if any.
fn broken_identity(state: &LoopState<Nanos>) -> Option<ClockStats> {
    state
        .clock_names()
        .filter_map(|name| state.clock(name).ok().map(|c| c.stats()))
        .find(|s| {
            let [run, dropped, pending, due, early] = [
                s.ticks_run,
                s.ticks_dropped,
                s.pending,
                s.ticks_due,
                s.ticks_early,
            ]
            .map(u128::from);
            run + dropped + pending != due + early
        })
}

/// Every state a run passes through (after controls, steps and refusals, with clocks added and
/// removed) loads back equal: the load-time checks refuse nothing the fold builds.
#[test]
fn every_state_of_a_run_loads_back_equal() {
    fn prop(case: Case) -> bool {
        let state = LoopState::new(any_config(case.variant), Nanos(5_000_000)).unwrap();
        fold_with(state, 5_000_000, &case.frames, |state| {
            let save = serde_json::to_value(state).unwrap();
            let saved: SavedState = serde_json::from_value(save).unwrap();
            match LoopState::try_from(saved) {
                Ok(loaded) => assert!(loaded == *state, "loaded differently"),
                Err(e) => panic!("refused: {e}"),
            }
        });
        true
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(Case) -> bool);
}

/// Every counter a clock keeps in a save (the tick numbers, the accounting, the grid segment
/// and the latest step's updates).
const COUNTERS: [&str; 11] = [
    "ran",
    "next_tick",
    "dropped_slots",
    "clamp_dropped",
    "refused",
    "last_count",
    "base",
    "base_t",
    "end",
    "shift",
    "origin",
];

/// Tampered saves that loaded and that were refused, over the whole property.
static LOADED: AtomicUsize = AtomicUsize::new(0);
static REFUSED: AtomicUsize = AtomicUsize::new(0);

/// Loads `save`; if that works, the accounting identity holds for every clock, and keeps
/// holding through the rest of the schedule, which folds without panicking.
fn load_tampered(save: serde_json::Value, now: i64, rest: &[Frame]) {
    let Ok(state) = serde_json::from_value::<LoopState<Nanos>>(save) else {
        REFUSED.fetch_add(1, Ordering::Relaxed);
        return;
    };
    LOADED.fetch_add(1, Ordering::Relaxed);
    if let Some(s) = broken_identity(&state) {
        panic!("a save loaded with a broken identity: {s:?}");
    }
    fold_with(state, now, rest, |state| {
        if let Some(s) = broken_identity(state) {
            panic!("a loaded save folded into a broken identity: {s:?}");
        }
    });
}

/// Values to put in place of `old`: one off either way, the extremes, a flipped bit, a jump.
fn tampered(old: u64, seed: u64) -> impl Iterator<Item = u64> {
    [
        old.wrapping_add(1),
        old.wrapping_sub(1),
        0,
        u64::MAX,
        old ^ (1 << (seed % 64)),
        old.wrapping_add(seed % 1_000),
    ]
    .into_iter()
    .filter(move |&new| new != old)
}

/// Every counter of every clock, and every number of every pending report, of saves taken
/// mid-run (right after a control the next step would report) changed one at a time: a save
/// that loads keeps the accounting identity for every clock, then and through the rest of the
/// schedule. Before the load-time checks, `ran`, `next_tick`, `dropped_slots` or
/// `clamp_dropped` one off loaded and broke it at once.
#[test]
fn tampered_saves_that_load_keep_the_identity() {
    fn prop(case: Case, seed: u64) -> bool {
        let state = LoopState::new(any_config(case.variant), Nanos(5_000_000)).unwrap();
        let (head, rest) = case.frames.split_at(case.save_at);
        let (_, mut mid) = fold(state, 5_000_000, head);
        apply(&mut mid, [6, 7, 9, 10, 13, 15][(seed % 6) as usize]);
        let good = serde_json::to_value(&mid).unwrap();
        let now = now_after(head);
        let rest = &rest[..rest.len().min(25)];
        for c in 0..good["clocks"].as_array().unwrap().len() {
            for field in COUNTERS {
                let old = good["clocks"][c][field].as_u64().unwrap();
                for new in tampered(old, seed) {
                    let mut save = good.clone();
                    save["clocks"][c][field] = new.into();
                    load_tampered(save, now, rest);
                }
            }
        }
        for r in 0..good["reports"].as_array().unwrap().len() {
            let (kind, body) = good["reports"][r]
                .as_object()
                .unwrap()
                .iter()
                .next()
                .unwrap();
            for (key, value) in body.as_object().unwrap() {
                let Some(old) = value.as_u64() else { continue };
                for new in tampered(old, seed).chain(0..6) {
                    let mut save = good.clone();
                    save["reports"][r][kind][key] = new.into();
                    load_tampered(save, now, rest);
                }
            }
        }
        true
    }
    QuickCheck::new()
        .tests(150)
        .quickcheck(prop as fn(Case, u64) -> bool);
    let (loaded, refused) = (
        LOADED.load(Ordering::Relaxed),
        REFUSED.load(Ordering::Relaxed),
    );
    // Both outcomes happened: the refusals are selective, and loaded saves were stepped.
    assert!(
        loaded > 1_000 && refused > 1_000,
        "{loaded} loaded, {refused} refused"
    );
}
