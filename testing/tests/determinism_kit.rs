//! The determinism kit's reports, bad input and replay: what a user
//! sees when a check fails, and the typed errors for input the kit refuses.

use core::time::Duration;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{ConfigError, LoopConfig, Nanos, Period, RateError, Tick};
use tickfold_testing::{
    Failure, KitError, MismatchKind, Recorder, Schedule, Sim, Timestep, debug_diff,
};

#[derive(Clone, Debug, PartialEq)]
struct Body {
    pos: [f64; 2],
    vel: [f64; 2],
}

const START: Body = Body {
    pos: [0.0, 0.0],
    vel: [1.0, 0.0],
};

type Update = fn(&mut Body, &Tick);

fn step(b: &mut Body, dt: f64) {
    b.pos[0] += b.vel[0] * dt;
    b.pos[1] += b.vel[1] * dt;
}

/// Fine: reads only `dt`.
fn good(b: &mut Body, tick: &Tick) {
    b.vel[1] -= 9.81 * tick.dt_secs();
    step(b, tick.dt_secs());
}

/// The "Main Loops, Refresh Rates, and Determinism" article's "heterogeneous iterations" bug: a
/// kick applied once per *frame* (on the last update of each step) instead of once per tick, so it
/// depends on how frames fall.
fn per_frame_kick(b: &mut Body, tick: &Tick) {
    if tick.last_in_step {
        b.vel[0] += 0.5;
    }
    step(b, tick.dt_secs());
}

fn config() -> LoopConfig {
    LoopConfig::new(Period::from_hz(60).unwrap()).max_frame_delta(None)
}

#[test]
fn a_failure_names_the_schedule_the_step_and_the_first_differing_field() {
    let sim = Sim::new(config(), START, per_frame_kick as Update).unwrap();
    // 30 Hz frames: two ticks per step, so the kick runs every other tick.
    let schedule = Schedule::vsync(30u64, 6).unwrap();
    let Err(Failure::Schedule(m)) = sim.same_across_schedules([&schedule]) else {
        panic!("a per-frame kick passed the schedule check");
    };
    eprintln!("{m}");
    assert_eq!(m.kind, MismatchKind::State);
    assert_eq!(m.index, 0);
    assert_eq!(m.schedule, schedule);
    // Frame 0 ends 1/3 ns before tick 1 is due, so step 0 runs tick 0 alone; step 1 runs ticks
    // 1 and 2, and update #1 (tick 1) is the first of them: the reference kicked, the
    // schedule did not. The position is the first field to show it.
    assert_eq!(m.update, Some(1));
    assert_eq!(m.step, Some(1));
    assert_eq!(m.reference_step, Some(1));
    assert_eq!(
        m.field.as_deref(),
        Some("`pos[0]`: 0.05 vs 0.058333333333333334")
    );
    let text = m.to_string();
    for part in [
        "schedule #0 gives a different state",
        "Schedule @ 30 Hz, 6 frames",
        "first difference after update #1",
        "step: 1 of the schedule, 1 of the reference",
        "first differing field (schedule vs reference): `pos[0]`: 0.05 vs 0.058333333333333334",
        "the schedule's step 1: now 66.666666 ms, frame 33.333333 ms, 2 updates (ticks 1 to 2)",
        "reproduce: Schedule::from_nanos(vec![33333333, 33333333, 33333334,",
    ] {
        assert!(text.contains(part), "missing {part:?} in\n{text}");
    }
}

#[test]
fn backwards_time_follows_the_fold_rule_and_the_report_says_so() {
    // Backwards time alone changes nothing for a good simulation...
    let back = Schedule::from_millis(&[16.0, 17.0, -5.0, 0.0, 40.0, -1.0, 16.0]).unwrap();
    // Step 3 (a zero frame) is still before the latest `now`: backwards too.
    let expected = [(2, 5_000_000), (3, 5_000_000), (5, 1_000_000)].map(|(i, n)| (i, Nanos(n)));
    assert_eq!(back.backwards(), expected);
    Sim::new(config(), START, good as Update)
        .unwrap()
        .same_across_schedules([&back])
        .unwrap();
    // ...and the step that went backwards ran no update and reported it.
    let run = Sim::new(config(), START, good as Update)
        .unwrap()
        .fold(&back);
    let s = run.trace.step(2).unwrap();
    assert_eq!(s.update_count(), 0);
    assert!(s.events.iter().any(|e| matches!(
        e,
        tickfold_core::Event::TimeBackwards { by } if *by == Nanos(5_000_000)
    )));
    // A failing simulation on that schedule: the report explains the rule.
    let sim = Sim::new(config(), START, per_frame_kick as Update).unwrap();
    let text = sim.same_across_schedules(&[back]).unwrap_err().to_string();
    assert!(
        text.contains(
            "time goes backwards 3 times (step 2 by 5 ms, step 3 by 5 ms, step 5 by 1 ms)"
        ),
        "{text}"
    );
    assert!(
        text.contains("no time passes, the step reports TimeBackwards"),
        "{text}"
    );
}

#[test]
fn the_max_frame_delta_clamp_shows_up_as_dropped_ticks() {
    // The default config clamps frames at 250 ms: a 1 s stall discards 750 ms of ticks.
    let clamped = LoopConfig::new(Period::from_hz(60).unwrap());
    let sim = Sim::new(clamped, START, good as Update).unwrap();
    let stall = Schedule::from_millis(&[16.0, 1_000.0, 16.0]).unwrap();
    let Err(Failure::Schedule(m)) = sim.same_across_schedules(&[stall]) else {
        panic!("a clamped stall passed");
    };
    assert!(
        matches!(
            m.kind,
            MismatchKind::Tick { .. } | MismatchKind::TickCount { .. }
        ),
        "{m}"
    );
    let text = m.to_string();
    assert!(text.contains("DiscardedTime 750 ms (45 ticks)"), "{text}");
    assert!(text.contains("max_frame_delta(None)"), "{text}");
}

#[test]
fn checksums_compare_states_without_partial_eq_and_nan_by_bits() {
    let nan_sim = Sim::new(config(), f64::NAN, |x: &mut f64, t: &Tick| {
        *x += t.dt_secs()
    });
    let nan_sim = nan_sim.unwrap();
    let s = Schedule::vsync(144u64, 40).unwrap();
    // NaN != NaN: PartialEq fails even against itself, and the report says why.
    let text = nan_sim.same_across_schedules([&s]).unwrap_err().to_string();
    assert!(text.contains("NaN never equals itself"), "{text}");
    // By bits, the runs agree.
    nan_sim
        .same_across_schedules_by([&s], |x| x.to_bits())
        .unwrap();
    // A checksum failure without a field diff prints both checksums...
    // (30 Hz frames: the per-frame kick misses every other tick.)
    let s = Schedule::vsync(30u64, 6).unwrap();
    let kick = Sim::new(config(), START, per_frame_kick as Update).unwrap();
    let sum = |b: &Body| b.vel[0].to_bits() ^ b.pos[0].to_bits().rotate_left(17);
    let Err(Failure::Schedule(m)) = kick.same_across_schedules_by([&s], sum) else {
        panic!("passed");
    };
    assert!(
        m.field.as_deref().unwrap().starts_with("checksum 0x"),
        "{m}"
    );
    // ...and with one, the user's field.
    let named = kick
        .with_diff(|a, b| (a.vel != b.vel).then(|| format!("velocity {:?} vs {:?}", a.vel, b.vel)));
    let Err(Failure::Schedule(m)) = named.same_across_schedules_by(&[s], sum) else {
        panic!("passed");
    };
    assert!(m.field.as_deref().unwrap().starts_with("velocity ["), "{m}");
}

#[test]
fn bad_input_gives_typed_errors() {
    assert_eq!(Schedule::from_nanos(vec![]), Err(KitError::EmptySchedule));
    assert_eq!(Schedule::from_millis(&[]), Err(KitError::EmptySchedule));
    assert_eq!(Schedule::vsync(144u64, 0), Err(KitError::EmptySchedule));
    assert_eq!(
        Schedule::vsync(0u64, 10),
        Err(KitError::Config(ConfigError::Rate(RateError::Zero)))
    );
    let sim = Sim::new(config(), START, good as Update).unwrap();
    let err = sim.same_across_schedules(Vec::new()).unwrap_err();
    assert!(matches!(err, Failure::Input(KitError::NoSchedules)));
    assert_eq!(
        err.to_string(),
        "determinism check refused its input: the check needs at least one schedule"
    );
    assert_eq!(
        Sim::new(config().max_updates(Some(0)), START, good as Update).err(),
        Some(KitError::Config(ConfigError::ZeroUpdateCap {
            clock: "main".into()
        }))
    );
    let second = Duration::from_secs(1);
    assert_eq!(
        Timestep::new(second, &[60u64, 0]).err(),
        Some(KitError::Config(ConfigError::Rate(RateError::Zero)))
    );
    assert_eq!(
        Timestep::new(second, &[(60u64, 0u64)]).err(),
        Some(KitError::Config(ConfigError::Rate(RateError::Zero)))
    );
    assert_eq!(
        Timestep::new(second, &[] as &[u64]).err(),
        Some(KitError::NoRates)
    );
    assert_eq!(
        Timestep::new(Duration::ZERO, &[60u64]).err(),
        Some(KitError::ZeroSpan)
    );
    let not_whole = Timestep::new(second, &[(60_000u64, 1_001u64)]).unwrap_err();
    assert!(matches!(not_whole, KitError::SpanNotWhole { .. }));
    assert!(not_whole.to_string().contains("59.94 Hz"), "{not_whole}");
    // 1.001 s is 60 ticks at 59.94 Hz.
    assert!(Timestep::new(Duration::from_millis(1_001), &[(60_000u64, 1_001u64)]).is_ok());
}

/// One recorded input per frame: a horizontal push in [-4, 4].
fn thrust(b: &mut Body, tick: &Tick, push: &i8) {
    b.vel[0] += f64::from(*push) * tick.dt_secs();
    good(b, tick);
}

fn record(schedule: &Schedule, pushes: &[i8]) -> tickfold_testing::Recording<Body, i8> {
    let mut rec = Recorder::new(config(), Nanos(0), START)
        .unwrap()
        .with_checksum(|b| b.pos[0].to_bits() ^ b.vel[0].to_bits().rotate_left(32));
    for (now, push) in schedule.nows().zip(pushes.iter().cycle()) {
        rec.step(now, push % 5, thrust);
    }
    rec.finish()
}

#[test]
fn replays_reproduce_the_trace_hash() {
    fn prop(schedule: Schedule, pushes: Vec<i8>) -> bool {
        let pushes = if pushes.is_empty() { vec![1] } else { pushes };
        let recording = record(&schedule, &pushes);
        let replayed = recording.replay(START, thrust).unwrap();
        replayed.hash == recording.hash()
            && replayed.first_difference.is_none()
            && recording.steps().len() == schedule.len()
    }
    QuickCheck::new()
        .tests(300)
        .rng(Gen::new(40))
        .quickcheck(prop as fn(Schedule, Vec<i8>) -> bool);
}

#[test]
fn a_replay_that_diverges_names_the_first_differing_step() {
    let schedule = Schedule::from_millis(&[5.0, 5.0, 10.0, 16.7, 16.7, 33.3]).unwrap();
    let recording = record(&schedule, &[3, -2, 4]);
    let same = recording.replay(START, thrust).unwrap();
    assert_eq!(same.hash, recording.hash());
    // A replay whose update ignores the inputs: its state first differs in step 2, the first
    // step that runs an update (10 ms after 5 + 5 ms crosses the 16.7 ms tick).
    let ignores_inputs = |b: &mut Body, t: &Tick, _: &i8| good(b, t);
    let other = recording.replay(START, ignores_inputs).unwrap();
    assert_ne!(other.hash, recording.hash());
    assert_eq!(other.first_difference, Some(2));
    assert_ne!(other.state, same.state);
}

#[test]
fn traces_hash_alike_only_when_equal() {
    let sim = Sim::new(config(), START, good as Update).unwrap();
    let mut g = Gen::from_size_and_seed(40, 11);
    let a = Schedule::arbitrary(&mut g);
    let b = Schedule::arbitrary(&mut g);
    let (ra, ra2, rb) = (sim.fold(&a), sim.fold(&a), sim.fold(&b));
    assert_eq!(ra.trace, ra2.trace);
    assert_eq!(ra.trace.hash(), ra2.trace.hash());
    assert_ne!(ra.trace.hash(), rb.trace.hash());
    assert_eq!(ra.trace.len(), a.len());
    // Debug-based diffs of whole runs work too.
    assert_eq!(debug_diff(&ra.state, &ra2.state), None);
}
