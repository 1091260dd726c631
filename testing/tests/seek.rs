//! Replays with seek, as a game uses them: record a run with periodic saves, then seek back,
//! forward, to the middle, to the end and past it, and play at several speeds, paused and one
//! tick at a time through the loop that drives the player. Every place the player lands is
//! compared with a reference run of the same `now`s and inputs (a plain loop, handed on as of
//! each tick), world and virtual time alike.

use core::cell::Cell;
use core::num::NonZeroU64;

use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period, Tick, TimeScale};
use tickfold_testing::{
    Player, Position, Recorder, Recording, ReplayError, Rewind, SeekError, SplitMix64,
};

/// A world that is not `Clone`: it comes back through its own save and load.
#[derive(Debug)]
struct World {
    cells: Box<[u64]>,
}

/// What a keyframe keeps of it.
#[derive(Clone, Debug, PartialEq)]
struct Saved {
    cells: Vec<u64>,
}

impl Rewind for World {
    type Save = Saved;
    type Error = String;
    fn save(&self) -> Saved {
        Saved {
            cells: self.cells.to_vec(),
        }
    }
    fn load(save: &Saved) -> Result<World, String> {
        if save.cells.is_empty() {
            return Err("no cells".into());
        }
        Ok(World {
            cells: save.cells.clone().into_boxed_slice(),
        })
    }
}

fn world() -> World {
    World {
        cells: vec![1, 2, 3, 4].into_boxed_slice(),
    }
}

/// Mixes everything a tick carries (clock, index, start, length, lag, last in step) and the
/// step's input into the world, so that any tick handed on differently shows.
fn update(w: &mut World, tick: &Tick, push: &u8) {
    let cell = (tick.index as usize + usize::from(*push)) % w.cells.len();
    let (num, den) = tick.dt.as_nanos_ratio();
    let mix = [
        u64::from(tick.clock.0),
        tick.index,
        tick.t.0,
        num ^ den,
        tick.lag.as_nanos() as u64,
        u64::from(tick.last_in_step),
        u64::from(*push),
    ];
    for m in mix {
        w.cells[cell] = (w.cells[cell] ^ m).wrapping_mul(0x0000_0100_0000_01b3);
    }
}

const EVERY: u64 = 120;

/// `frames` jittered frames of 4 to 40 ms from 1 ms, with a 2 s stall at frame 900 (the max
/// frame delta drops its ticks), and a seeded input per frame.
fn frames(frames: usize) -> Vec<(Nanos, u8)> {
    let mut rng = SplitMix64::new(44);
    let mut now = 1_000_000u64;
    (0..frames)
        .map(|i| {
            now += if i == 900 {
                2_000_000_000
            } else {
                4_000_000 + rng.below(36_000_000)
            };
            (Nanos(now), rng.below(4) as u8)
        })
        .collect()
}

/// What the original run had right after each tick of the alpha clock: the tick, the virtual
/// time as of it, the world's save. A plain loop handing on each step as of each event.
fn reference(config: &LoopConfig, run: &[(Nanos, u8)]) -> Vec<(u64, Nanos, Saved)> {
    let mut state = LoopState::new(config.clone(), Nanos(1_000_000)).unwrap();
    let alpha = state.alpha_clock();
    let mut w = world();
    let mut out = Vec::new();
    for &(now, push) in run {
        let events = state.advance(now);
        state
            .hand_on(&events, |event, state| {
                if let Event::Update(tick) = event {
                    update(&mut w, &tick, &push);
                    if tick.clock == alpha {
                        let time = state.virtual_time().elapsed();
                        out.push((tick.index, time, w.save()));
                    }
                }
            })
            .unwrap();
    }
    out
}

fn record(config: &LoopConfig, run: &[(Nanos, u8)]) -> Recording<World, u8, Saved> {
    let mut rec = Recorder::new(config.clone(), Nanos(1_000_000), world())
        .unwrap()
        .with_saves(NonZeroU64::new(EVERY).unwrap());
    for &(now, push) in run {
        rec.step(now, push, update);
    }
    rec.finish()
}

fn config() -> LoopConfig {
    LoopConfig::new(Period::from_hz(60).unwrap())
}

/// Checks that the player stands where the original run stood right after tick `tick`.
fn same(player: &Player<World, u8>, at: Position, expected: &[(u64, Nanos, Saved)], tick: u64) {
    let i = expected
        .iter()
        .position(|e| e.0 >= tick)
        .expect("a tick at or after it");
    let (index, time, saved) = &expected[i];
    assert_eq!(at.tick, Some(*index), "asked for {tick}");
    assert_eq!(at.virtual_time, *time, "virtual time as of tick {index}");
    assert_eq!(player.position(), at);
    assert_eq!(
        &player.world().save(),
        saved,
        "the world after tick {index}"
    );
}

#[test]
fn seeks_land_exactly_where_the_original_run_stood() {
    let config = config();
    let run = frames(2_000);
    let expected = reference(&config, &run);
    let mut player = Player::new(record(&config, &run)).unwrap();
    let last = expected.last().unwrap().0;
    assert_eq!(player.last_tick(), Some(last));
    assert_eq!(player.position().tick, None);

    // The middle, back, forward a little, far forward, the first tick, the end, the start.
    for tick in [last / 2, 10, 11, 250, last - 3, 0, last] {
        let at = player.seek(tick, update).unwrap();
        same(&player, at, &expected, tick);
    }
    assert!(player.at_end());
    assert_eq!(player.next_tick(update), None, "the end stays the end");
    let start = player.rewind().unwrap();
    assert_eq!(
        (start.tick, start.virtual_time, start.steps),
        (None, Nanos(0), 0)
    );
    assert_eq!(player.world().save(), world().save());

    // Many seeks in random order, each against the original.
    let mut rng = SplitMix64::new(7);
    for _ in 0..300 {
        let tick = rng.below(last + 1);
        let at = player.seek(tick, update).unwrap();
        same(&player, at, &expected, tick);
    }
}

#[test]
fn a_tick_the_original_run_dropped_lands_on_the_next_that_ran() {
    let config = config();
    let run = frames(1_200);
    let expected = reference(&config, &run);
    // The stall at frame 900 dropped ticks: find the first gap.
    let gap = expected
        .windows(2)
        .find(|w| w[1].0 > w[0].0 + 1)
        .map(|w| (w[0].0, w[1].0))
        .expect("the stall dropped ticks");
    let mut player = Player::new(record(&config, &run)).unwrap();
    let at = player.seek(gap.0 + 1, update).unwrap();
    assert_eq!(at.tick, Some(gap.1));
    same(&player, at, &expected, gap.0 + 1);
}

#[test]
fn past_the_end_is_a_typed_error_and_the_player_does_not_move() {
    let config = config();
    let run = frames(300);
    let mut player = Player::new(record(&config, &run)).unwrap();
    let last = player.last_tick().unwrap();
    let at = player.seek(last / 2, update).unwrap();
    let world_before = player.world().save();
    assert_eq!(
        player.seek(last + 1, update),
        Err(SeekError::PastEnd {
            requested: last + 1,
            last: Some(last)
        })
    );
    assert_eq!(player.position(), at);
    assert_eq!(player.world().save(), world_before);
    let err = player.seek(u64::MAX, update).unwrap_err();
    assert!(err.to_string().contains("past the recording's last tick"));
}

#[test]
fn a_seek_folds_at_most_a_save_interval() {
    // Counted, not timed: the updates a seek hands on.
    let config = config();
    let run = frames(4_000);
    let mut player = Player::new(record(&config, &run)).unwrap();
    let last = player.last_tick().unwrap();
    assert!(last > 10 * EVERY, "a long recording: {last} ticks");
    let handed = Cell::new(0u64);
    let counted = |w: &mut World, t: &Tick, p: &u8| {
        handed.set(handed.get() + 1);
        update(w, t, p);
    };
    let cap = 8; // the default update cap per step
    for tick in [last / 2, last / 3, last - 1, last / 2 + 1, 5] {
        handed.set(0);
        player.seek(tick, counted).unwrap();
        assert!(
            handed.get() <= EVERY + cap,
            "seek to {tick} handed on {} updates",
            handed.get()
        );
    }
    // Replaying from the start to the middle hands on every tick before it.
    player.rewind().unwrap();
    handed.set(0);
    while player.position().tick.is_none_or(|t| t < last / 2) {
        player.next_tick(counted).unwrap();
    }
    assert!(handed.get() > last / 2 - 200);
}

#[test]
fn speeds_pause_and_single_steps_come_from_the_driving_loop() {
    let config = config();
    let run = frames(2_000);
    let expected = reference(&config, &run);
    let mut player = Player::new(record(&config, &run)).unwrap();
    let start = player.seek(100, update).unwrap();
    assert_eq!(start.tick, Some(100));

    // The viewer's loop, at the recording's rate, on 144 Hz frames.
    let mut viewer = LoopState::new(LoopConfig::new(player.rate()), Nanos(0)).unwrap();
    let mut now = Nanos(0);
    let mut second = |viewer: &mut LoopState<Nanos>, player: &mut Player<World, u8>| {
        let mut ticks = 0;
        for _ in 0..144 {
            now = Nanos(now.0 + 1_000_000_000 / 144);
            let events = viewer.advance(now);
            let played = player.play(&events, update);
            assert_eq!(played.past_end, 0);
            ticks += played.ticks;
        }
        ticks
    };
    for (num, den, per_second) in [(1, 4, 15), (1, 2, 30), (1, 1, 60), (2, 1, 120), (8, 1, 480)] {
        viewer
            .virtual_time_mut()
            .set_scale(TimeScale::ratio(num, den).unwrap());
        let before = player.position().tick.unwrap();
        let ticks = second(&mut viewer, &mut player);
        // Within one tick: the viewer's grid does not start on its frames.
        assert!(
            ticks.abs_diff(per_second) <= 1,
            "{num}/{den}: {ticks} ticks in a second"
        );
        let at = player.position();
        assert_eq!(at.tick, Some(before + ticks));
        same(&player, at, &expected, at.tick.unwrap());
    }

    // Paused: nothing plays.
    viewer.virtual_time_mut().pause();
    let paused_at = player.position();
    assert_eq!(second(&mut viewer, &mut player), 0);
    assert_eq!(player.position(), paused_at);

    // One tick at a time.
    for _ in 0..3 {
        let before = player.position().tick.unwrap();
        viewer.virtual_time_mut().step_ticks(1);
        now = Nanos(now.0 + 7_000_000);
        let played = player.play(&viewer.advance(now), update);
        assert_eq!(played.ticks, 1);
        same(&player, played.at, &expected, before + 1);
    }
}

#[test]
fn playing_past_the_end_says_so() {
    let config = config();
    let run = frames(200);
    let mut player = Player::new(record(&config, &run)).unwrap();
    let last = player.last_tick().unwrap();
    player.seek(last - 2, update).unwrap();
    let mut viewer = LoopState::new(LoopConfig::new(player.rate()), Nanos(0)).unwrap();
    let played = player.play(&viewer.advance(Nanos::from_millis(100)), update);
    assert_eq!((played.ticks, played.past_end), (2, 4));
    assert_eq!(played.at.tick, Some(last));
    assert!(player.at_end());
}

#[test]
fn a_second_clock_is_handed_on_up_to_the_tick() {
    // Physics at 60 Hz (the alpha clock) and AI at 7 Hz: landing after physics' tick k means
    // AI's ticks due before it ran, and none after.
    let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(60).unwrap()))
        .clock(ClockConfig::new("ai", Period::from_hz(7).unwrap()));
    let run = frames(800);
    let expected = reference(&config, &run);
    let mut player = Player::new(record(&config, &run)).unwrap();
    let last = player.last_tick().unwrap();
    let mut rng = SplitMix64::new(3);
    for _ in 0..100 {
        let tick = rng.below(last + 1);
        let at = player.seek(tick, update).unwrap();
        same(&player, at, &expected, tick);
    }
}

#[test]
fn saves_turned_on_after_the_first_step_cannot_be_played() {
    // The first keyframe is not the start: nothing to seek back to before it. (A recording
    // without saves has no keyframe type to give a player; a replay file of one is refused
    // by the player, see tests/replay_file.rs.)
    let config = config();
    let run = frames(50);
    let mut late = Recorder::new(config, Nanos(1_000_000), world()).unwrap();
    late.step(run[0].0, run[0].1, update);
    let mut late = late.with_saves(NonZeroU64::new(EVERY).unwrap());
    for &(now, push) in &run[1..] {
        late.step(now, push, update);
    }
    assert!(matches!(
        Player::new(late.finish()),
        Err(SeekError::Recording(ReplayError::FirstKeyframe))
    ));
}

#[test]
fn a_world_that_refuses_its_save_is_a_typed_error() {
    struct Picky(u64);
    impl Rewind for Picky {
        type Save = u64;
        type Error = String;
        fn save(&self) -> u64 {
            self.0
        }
        fn load(save: &u64) -> Result<Picky, String> {
            if *save > 5 {
                Err(format!("{save} is too many"))
            } else {
                Ok(Picky(*save))
            }
        }
    }
    let step = |p: &mut Picky, _: &Tick, _: &()| p.0 += 1;
    let mut rec = Recorder::new(config(), Nanos(0), Picky(0))
        .unwrap()
        .with_saves(NonZeroU64::new(4).unwrap());
    for frame in 1..=30 {
        rec.step(Nanos::from_millis(17 * frame), (), step);
    }
    let mut player = Player::new(rec.finish()).unwrap();
    let at = player.seek(3, step).unwrap();
    // Tick 20's keyframe holds about 20 ticks' worth: the world refuses it, the player stays.
    let refused = player.seek(20, step);
    assert!(
        matches!(&refused, Err(SeekError::Load(why)) if why.ends_with("is too many")),
        "{refused:?}"
    );
    assert_eq!(player.position(), at);
    assert_eq!(player.world().0, 4);
}
