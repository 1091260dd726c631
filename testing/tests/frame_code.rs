//! The kit on the user's own frame code (`FrameSim`, issue 43 §3.1) and on a world that is not
//! `Clone` whose update reads the loop (`ThroughSave`, §3.7).
//!
//! The planted bug is the loop a user writes by hand: `for event in events { if let
//! Event::Update(t) = event { game.update(&t, state) } }` compiles, runs, and hands the update the
//! end of the step. An AI that logs the time and physics' latest tick it reads then logs
//! something else in one 250 ms frame than in 10 ms frames. `ReadingSim` hands the update the
//! state as of its tick itself, so it cannot see the bug; `FrameSim` runs the user's loop and
//! catches it, while the loop the README and the tutorial teach (`state.hand_on`) passes.

use std::collections::HashMap;
use std::hash::Hasher;

use quickcheck::{QuickCheck, TestResult};
use serde::{Deserialize, Serialize};
use tickfold_core::{ClockConfig, Event, Events, LoopConfig, LoopState, Nanos, Period, Tick};
use tickfold_hecs::hecs::{Entity, World};
use tickfold_hecs::{Interpolated, SavedTracker};
use tickfold_testing::{
    Failure, Fnv1a, FrameSim, KitError, ReadingSim, Schedule, ScheduleMismatch, ThroughSave,
};

fn config() -> LoopConfig {
    LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30).unwrap()))
        .clock(ClockConfig::new("ai", Period::from_hz(10).unwrap()))
        .max_frame_delta(None)
}

/// The AI: each of its ticks logs its number, the time and physics' latest tick it reads.
#[derive(Clone, Debug, Default, PartialEq)]
struct Ai {
    log: Vec<(u64, u64, Option<u64>)>,
}

impl Ai {
    fn update(&mut self, tick: &Tick, state: &LoopState) {
        if state.clock(tick.clock).is_ok_and(|c| c.name() == "ai") {
            let ms = state.virtual_time().elapsed().0 / 1_000_000;
            let physics = state.clock("physics").ok().and_then(|c| c.latest_tick());
            self.log.push((tick.index, ms, physics.map(|t| t.index)));
        }
    }
}

/// The loop the README and the tutorial teach: each event with the state as of it.
fn handed_on(
    ai: &mut Ai,
    state: &mut LoopState,
    events: &Events<Nanos>,
) -> Result<(), tickfold_core::AsOfError> {
    state.hand_on(events, |event, state| {
        if let Event::Update(tick) = event {
            ai.update(&tick, state);
        }
    })
}

/// The planted bug: the plain loop, handing every update the state at the end of the step.
fn plain(
    ai: &mut Ai,
    state: &mut LoopState,
    events: &Events<Nanos>,
) -> Result<(), tickfold_core::AsOfError> {
    for event in events {
        if let Event::Update(tick) = event {
            ai.update(&tick, state);
        }
    }
    Ok(())
}

fn mismatch(result: Result<(), Failure>) -> Box<ScheduleMismatch> {
    match result {
        Err(Failure::Schedule(m)) => m,
        other => panic!("expected a schedule failure, got {other:?}"),
    }
}

#[test]
fn the_plain_loop_reads_the_step_end_and_the_kit_catches_it() {
    let one_frame = Schedule::from_millis(&[250.0]).unwrap();
    let frames = Schedule::from_millis(&[10.0; 25]).unwrap();
    let schedules = [&one_frame, &frames];

    // What the AI logged: in one 250 ms frame, its ticks 0 and 1 read the frame's end.
    let bug = FrameSim::new(config(), Ai::default(), plain).unwrap();
    assert_eq!(
        bug.fold(&one_frame).unwrap().state.log,
        [(0, 250, Some(6)), (1, 250, Some(6))]
    );
    assert_eq!(
        bug.fold(&frames).unwrap().state.log,
        [(0, 100, Some(2)), (1, 200, Some(5))]
    );

    let report = mismatch(bug.same_across_schedules(schedules));
    let text = report.to_string();
    eprintln!("{text}");
    assert_eq!(
        report.index, 0,
        "the one-frame schedule is the first to differ"
    );
    assert!(text.contains("`log[0][1]`: 250 vs 100"), "{text}");
    assert_eq!(
        (report.step, report.reference_step),
        (Some(0), Some(6)),
        "{text}"
    );
    assert!(
        text.contains("state.hand_on(events, |event, state| ...)"),
        "{text}"
    );

    // The loop the docs teach passes, and logs each tick's own moment.
    let right = FrameSim::new(config(), Ai::default(), handed_on).unwrap();
    right.same_across_schedules(schedules).unwrap();
    assert_eq!(
        right.fold(&one_frame).unwrap().state.log,
        [(0, 100, Some(2)), (1, 200, Some(5))]
    );

    // The update alone passes `ReadingSim`, which hands it on itself: the kit could not see
    // the game's own loop before `FrameSim`.
    let update = |ai: &mut Ai, tick: &Tick, state: &LoopState| ai.update(tick, state);
    let reading = ReadingSim::new(config(), Ai::default(), update).unwrap();
    reading.same_across_schedules(schedules).unwrap();
}

#[test]
fn the_handed_on_loop_is_the_same_under_every_slicing() {
    fn prop(a: Schedule, b: Schedule) -> TestResult {
        let sim = FrameSim::new(config(), Ai::default(), handed_on).unwrap();
        match sim.same_across_schedules([&a, &b]) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e.to_string()),
        }
    }
    QuickCheck::new()
        .tests(60)
        .quickcheck(prop as fn(Schedule, Schedule) -> TestResult);
}

#[test]
fn frame_code_that_hands_on_stale_events_fails_the_check_and_names_the_step() {
    // A frame that refuses the step's last update before handing the events on.
    let frame = |ai: &mut Ai, state: &mut LoopState, events: &Events<Nanos>| {
        if let Some(last) = events.updates().last() {
            state.refuse(last.clock, last.index).unwrap();
        }
        handed_on(ai, state, events)
    };
    let sim = FrameSim::new(config(), Ai::default(), frame).unwrap();
    let one_frame = Schedule::from_millis(&[250.0]).unwrap();
    assert_eq!(
        sim.fold(&one_frame).err(),
        Some(tickfold_core::AsOfError::NotLatestStep)
    );
    let report = mismatch(sim.same_across_schedules([&Schedule::from_millis(&[250.0]).unwrap()]));
    let text = report.to_string();
    assert_eq!(report.step, Some(0), "{text}");
    assert!(
        text.contains("the frame code returned an error at step 0"),
        "{text}"
    );
}

// §3.7: a hecs world with a tracker (not `Clone`) whose AI reads the loop, brought to the kit
// through the game's own JSON save.

#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Vel(f32);

/// Positions are `f32` components blended by the tracker; velocities are steered by the AI.
struct Game {
    world: World,
    pos: Interpolated<f32>,
}

#[derive(Serialize, Deserialize)]
struct SaveFile {
    bodies: Vec<(u64, f32, Vel)>,
    pos: SavedTracker<f32>,
}

impl Game {
    fn new() -> Game {
        let (mut world, mut pos) = (World::new(), Interpolated::new());
        for i in 0..4 {
            pos.spawn(&mut world, (i as f32, Vel(1.0)));
        }
        Game { world, pos }
    }

    fn update(&mut self, tick: &Tick, state: &LoopState) {
        let clock = state.clock(tick.clock).unwrap();
        if clock.name() == "ai" {
            // Steer by physics' latest tick, as read from the loop.
            let physics = state
                .clock("physics")
                .unwrap()
                .latest_tick()
                .map_or(0, |t| t.index);
            for v in self.world.query_mut::<&mut Vel>() {
                v.0 = (physics % 7) as f32 - 3.0;
            }
            return;
        }
        self.pos.before_update(&mut self.world, tick);
        let dt = tick.dt_secs() as f32;
        for (x, v) in self.world.query_mut::<(&mut f32, &Vel)>() {
            *x += v.0 * dt;
        }
    }

    fn save(&self, velocities: bool) -> Result<String, serde_json::Error> {
        let mut query = self.world.query::<(Entity, &f32, &Vel)>();
        let bodies = query
            .iter()
            .map(|(e, x, v)| {
                (
                    e.to_bits().get(),
                    *x,
                    if velocities { *v } else { Vel(0.0) },
                )
            })
            .collect();
        serde_json::to_string(&SaveFile {
            bodies,
            pos: self.pos.save(&self.world),
        })
    }

    fn load(json: &str) -> Result<Game, Box<dyn std::error::Error>> {
        let file: SaveFile = serde_json::from_str(json)?;
        let mut world = World::new();
        let mut new_handle = HashMap::new();
        for (old, x, v) in file.bodies {
            let old = Entity::from_bits(old).ok_or("not a hecs handle")?;
            new_handle.insert(old, world.spawn((x, v)));
        }
        let pos = Interpolated::load(file.pos, &mut world, |old| new_handle.get(&old).copied())?;
        Ok(Game { world, pos })
    }

    /// The velocities and what a render halfway from the previous tick draws.
    fn fingerprint(&self) -> u64 {
        let mut h = Fnv1a::new();
        let mut drawn = Vec::new();
        self.pos.extract(&self.world, 0.5, &mut drawn);
        drawn.iter().for_each(|x| h.write_u32(x.to_bits()));
        for v in self.world.query::<&Vel>().iter() {
            h.write_u32(v.0.to_bits());
        }
        h.finish()
    }
}

fn through_save() -> Result<ThroughSave<Game>, KitError> {
    ThroughSave::new(
        Game::new(),
        |g| g.save(true),
        |json| Game::load(&json),
        Game::fingerprint,
    )
}

type GameFrame = fn(
    &mut ThroughSave<Game>,
    &mut LoopState,
    &Events<Nanos>,
) -> Result<(), tickfold_core::AsOfError>;

fn game_handed_on(
    g: &mut ThroughSave<Game>,
    state: &mut LoopState,
    events: &Events<Nanos>,
) -> Result<(), tickfold_core::AsOfError> {
    state.hand_on(events, |event, state| {
        if let Event::Update(tick) = event {
            g.update(&tick, state);
        }
    })
}

fn game_plain(
    g: &mut ThroughSave<Game>,
    state: &mut LoopState,
    events: &Events<Nanos>,
) -> Result<(), tickfold_core::AsOfError> {
    for event in events {
        if let Event::Update(tick) = event {
            g.update(&tick, state);
        }
    }
    Ok(())
}

#[test]
fn a_world_that_is_not_clone_reaches_the_kit_through_its_save() {
    let one_frame = Schedule::from_millis(&[250.0, 50.0]).unwrap();
    let frames = Schedule::vsync(144u64, 60).unwrap();
    let schedules = [&one_frame, &frames];

    // The update alone, the state as of each tick: `ReadingSim` clones the world through JSON.
    let update = |g: &mut ThroughSave<Game>, tick: &Tick, state: &LoopState| g.update(tick, state);
    let reading = ReadingSim::new(config(), through_save().unwrap(), update).unwrap();
    reading.same_across_schedules(schedules).unwrap();

    // The game's own frame code: the loop the docs teach passes, the plain loop is caught.
    let sim = |frame: GameFrame| FrameSim::new(config(), through_save().unwrap(), frame).unwrap();
    sim(game_handed_on)
        .same_across_schedules(schedules)
        .unwrap();
    let report = mismatch(sim(game_plain).same_across_schedules(schedules));
    let text = report.to_string();
    eprintln!("{text}");
    assert!(text.contains("`fingerprint`: 0x"), "{text}");

    // Property: any two schedules.
    fn prop(a: Schedule, b: Schedule) -> TestResult {
        let sim = FrameSim::new(config(), through_save().unwrap(), game_handed_on).unwrap();
        match sim.same_across_schedules([&a, &b]) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e.to_string()),
        }
    }
    QuickCheck::new()
        .tests(30)
        .quickcheck(prop as fn(Schedule, Schedule) -> TestResult);
}

#[test]
fn a_save_that_loses_something_is_refused_when_the_world_is_brought() {
    let lossy = ThroughSave::new(
        Game::new(),
        |g| g.save(false),
        |json| Game::load(&json),
        Game::fingerprint,
    );
    let Err(KitError::RoundTrip(why)) = lossy else {
        panic!("a lossy save was accepted");
    };
    assert!(
        why.contains("the save loses something the fingerprint sees"),
        "{why}"
    );
    let broken = ThroughSave::new(
        Game::new(),
        |g| g.save(true),
        |_| Game::load("not json"),
        Game::fingerprint,
    );
    let Err(e @ KitError::RoundTrip(_)) = broken else {
        panic!("a failing load was accepted");
    };
    assert!(
        e.to_string()
            .starts_with("the world's clone through its save and load failed: the load failed:"),
        "{e}"
    );
}
