//! The tests of the `game` example, on its own code (`world.rs`), run by `cargo test` (the
//! example is built with `test = true`): the tick count
//! and a hand-computed blend on the runner's fake clock, determinism of the world and its
//! trackers over arbitrary frame schedules (the kit's `WorldSim`, rendered values in the
//! fingerprint), a save at a random point loaded into a fresh world and loop that goes on
//! bit for bit as the run that never stopped, and a replay with seeks that lands on the
//! recorded run's world at every tick it is asked for.

use std::cell::RefCell;
use std::num::NonZeroU64;

use crate::world::{self, Game, Gust, Position, fingerprint};
use tickfold::glam::Vec3;
use tickfold::runner::{ManualTime, Runner};
use tickfold::{AsOfError, Event, Events, LoopConfig, LoopState, Nanos, Period, Tick};
use tickfold_testing::quickcheck::{QuickCheck, TestResult};
use tickfold_testing::{
    Failure, FrameSim, Player, Recorder, Recording, Schedule, SplitMix64, ThroughSave, WorldSim,
};

/// Fewer bodies than the example's 10,000, so the properties run hundreds of cases.
const BODIES: usize = 300;

fn config() -> LoopConfig {
    LoopConfig::new(Period::from_hz(30).unwrap())
}

#[test]
fn the_fake_clock_gives_exact_ticks_and_a_blend_computed_by_hand() {
    let clock = ManualTime::new(); // sleeps exactly to each deadline
    let state = LoopState::new(config(), Nanos(0)).unwrap();
    let mut runner = Runner::new(state, clock.clone(), clock); // 60 Hz renders by default
    struct Seen {
        game: Game,
        buffer: Vec<Position>,
        /// The first body before and after the latest update.
        around_update: (Vec3, Vec3),
        renders: u32,
        /// The 8th render: its alpha, the body around the last update, what was drawn.
        chosen: Option<(f64, (Vec3, Vec3), Vec3)>,
    }
    let game = Game::new(BODIES);
    let first = game.first().unwrap();
    let mut seen = Seen {
        game,
        buffer: Vec::new(),
        around_update: (Vec3::NAN, Vec3::NAN),
        renders: 0,
        chosen: None,
    };
    let at = |g: &Game| g.world.get::<&Position>(first).unwrap().0;
    runner.run_with(&mut seen, |s, event, state, ctl| match event {
        Event::Update(tick) => {
            let before = at(&s.game);
            s.game.update(tick);
            s.around_update = (before, at(&s.game));
        }
        Event::Render(frame) => {
            s.renders += 1;
            let drawn = s.game.render(frame.alpha, &mut s.buffer);
            if s.renders == 8 {
                s.chosen = Some((frame.alpha, s.around_update, drawn.first.unwrap()));
            }
            if state.real_time().elapsed() >= Nanos::from_secs(2) {
                ctl.exit();
            }
        }
        _ => {}
    });
    // 2 s at 30 Hz: exactly 60 ticks, and 121 renders (the first, then 60 a second).
    assert_eq!(runner.state().real_time().elapsed(), Nanos::from_secs(2));
    assert_eq!(
        runner
            .state()
            .clock(runner.state().alpha_clock())
            .unwrap()
            .stats()
            .ticks_run,
        60
    );
    assert_eq!(seen.renders, 121);
    // Render 8 is at 116.7 ms, halfway between tick 2 (run at 100 ms) and tick 3 (133.3 ms).
    let (alpha, (previous, current), drawn) = seen.chosen.unwrap();
    assert!((alpha - 0.5).abs() < 1e-6, "alpha {alpha}");
    assert!(
        previous.abs().max_element() < world::HALF_BOX - 10.0,
        "no wrap near frame 8"
    );
    assert_ne!(previous, current);
    let by_hand = previous + (current - previous) * alpha as f32;
    assert_eq!(
        drawn.to_array().map(f32::to_bits),
        by_hand.to_array().map(f32::to_bits)
    );
}

#[test]
fn the_world_and_its_trackers_are_the_same_under_every_frame_schedule() {
    fn property(schedule: Schedule) -> Result<(), Failure> {
        let make = || Game::new(BODIES);
        let update = |g: &mut Game, tick: &Tick| g.update(tick);
        let sim = WorldSim::new(config().max_frame_delta(None), make, update).unwrap();
        sim.same_across_schedules([&schedule], fingerprint)
    }
    QuickCheck::new()
        .tests(100)
        .quickcheck(property as fn(Schedule) -> Result<(), Failure>);
}

/// The game's frame code, the tutorial's step-3 loop: each event handed on with the state as
/// of it.
fn frame(
    game: &mut ThroughSave<Game>,
    state: &mut LoopState,
    events: &Events<Nanos>,
) -> Result<(), AsOfError> {
    let mut buffer = Vec::new();
    state.hand_on(events, |event, _state| match event {
        Event::Update(tick) => game.update(&tick),
        Event::Render(r) => _ = game.render(r.alpha, &mut buffer),
        _ => {}
    })
}

#[test]
fn the_games_own_frame_loop_is_the_same_under_every_frame_schedule() {
    fn property(schedule: Schedule) -> Result<(), Failure> {
        // The hecs world and its trackers are not `Clone`: the kit clones them through the
        // game's own JSON save, and compares them by the fingerprint at a fixed alpha.
        let clock = LoopState::new(config(), Nanos(0)).unwrap();
        let game = ThroughSave::new(
            Game::new(BODIES),
            move |game| world::save(game, &clock),
            |json| world::load(&json).map(|(game, _)| game),
            |game| fingerprint(game, 0.5),
        )?;
        let sim = FrameSim::new(config().max_frame_delta(None), game, frame)?;
        sim.same_across_schedules([&schedule])
    }
    QuickCheck::new()
        .tests(20)
        .quickcheck(property as fn(Schedule) -> Result<(), Failure>);
}

/// Every event of every frame (as text) and every render's values (as bits), with the game
/// saved and loaded (JSON, a fresh world and loop) after frame `save_at` when given.
fn run(schedule: &Schedule, save_at: Option<usize>) -> Vec<(String, Vec<u32>)> {
    let mut game = Game::new(BODIES);
    let mut state = LoopState::new(config(), Nanos(0)).unwrap();
    let mut buffer = Vec::new();
    let mut seen = Vec::new();
    for (k, now) in schedule.nows().enumerate() {
        for event in &state.advance(now) {
            let drawn = match event {
                Event::Update(tick) => {
                    game.update(&tick);
                    Vec::new()
                }
                Event::Render(frame) => {
                    let drawn = game.render(frame.alpha, &mut buffer);
                    let mut bits = drawn.bits();
                    bits.extend(buffer.iter().flat_map(|p| p.0.to_array().map(f32::to_bits)));
                    bits
                }
                _ => Vec::new(),
            };
            seen.push((format!("{event:?}"), drawn));
        }
        if save_at == Some(k) {
            let json = world::save(&game, &state).unwrap();
            drop(game);
            (game, state) = world::load(&json).unwrap();
        }
    }
    seen
}

#[test]
fn a_save_at_a_random_point_resumes_bit_for_bit() {
    fn property(schedule: Schedule, at: usize) -> TestResult {
        let at = at % schedule.len();
        let plain = run(&schedule, None);
        let resumed = run(&schedule, Some(at));
        if !plain.iter().any(|(e, _)| e.starts_with("Update")) {
            return TestResult::discard();
        }
        match plain.iter().zip(&resumed).position(|(a, b)| a != b) {
            None if plain.len() == resumed.len() => TestResult::passed(),
            None => TestResult::error("a different number of events"),
            Some(i) => TestResult::error(format!(
                "event {i} (saved after frame {at}): {:?} vs {:?}",
                plain[i].0, resumed[i].0
            )),
        }
    }
    QuickCheck::new()
        .tests(100)
        .quickcheck(property as fn(Schedule, usize) -> TestResult);
}

/// A recording of the game with a keyframe every `every` ticks: `frames` jittered frames of
/// 5 to 45 ms with a gust each, and the fingerprint after every tick of the recorded run.
fn recorded(frames: usize, every: u64) -> (Recording<Game, Gust, world::WorldSave>, Vec<u64>) {
    let after = RefCell::new(Vec::new());
    let mut rec = Recorder::new(config(), Nanos(0), Game::new(BODIES))
        .unwrap()
        .with_saves(NonZeroU64::new(every).unwrap());
    let mut rng = SplitMix64::new(0x5EE4);
    let mut now = 0;
    for _ in 0..frames {
        now += 5_000_000 + rng.below(40_000_000);
        let gust = Gust([0, 1, 2].map(|_| rng.below(9) as i8 - 4));
        rec.step(Nanos(now), gust, |game, tick, gust| {
            game.update_with(tick, gust);
            let mut after = after.borrow_mut();
            assert_eq!(after.len() as u64, tick.index, "no tick dropped");
            after.push(fingerprint(game, 0.5));
        });
    }
    (rec.finish(), after.into_inner())
}

#[test]
fn a_replay_lands_on_the_recorded_world_at_every_seek() {
    let (recording, after) = recorded(600, 45);
    let update = |game: &mut Game, tick: &Tick, gust: &Gust| game.update_with(tick, gust);
    // Through the replay file, as a game loads one.
    let file = serde_json::to_string(&recording).unwrap();
    let loaded: Recording<Game, Gust, world::WorldSave> = serde_json::from_str(&file).unwrap();
    let mut player = Player::new(loaded).unwrap();
    let last = player.last_tick().unwrap();
    assert_eq!(last + 1, after.len() as u64);
    let mut rng = SplitMix64::new(9);
    let targets = [last / 2, 3, last, 0, last / 2 + 1, last - 50];
    let random = (0..40).map(|_| rng.below(last + 1));
    for tick in targets.into_iter().chain(random) {
        let at = player.seek(tick, update).unwrap();
        assert_eq!(at.tick, Some(tick));
        let tick = tick as usize;
        assert_eq!(fingerprint(player.world(), 0.5), after[tick], "tick {tick}");
    }
    // Played on from there, tick by tick, at 8x through a viewer loop.
    let mut viewer = LoopState::new(LoopConfig::new(player.rate()), Nanos(0)).unwrap();
    viewer
        .virtual_time_mut()
        .set_scale(tickfold::TimeScale::ratio(8, 1).unwrap());
    player.seek(100, update).unwrap();
    for frame in 1..=30u64 {
        let played = player.play(&viewer.advance(Nanos::from_millis(frame * 16)), update);
        let tick = played.at.tick.unwrap() as usize;
        assert_eq!(fingerprint(player.world(), 0.5), after[tick], "tick {tick}");
    }
}
