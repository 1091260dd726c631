//! Save games with a hecs world (features `serde` and `glam`): a run saved between two frames
//! (the loop state, the test's own components and the tracker, each through `serde_json`) and
//! loaded into a fresh world, tracker and loop renders every later frame bit for bit as the
//! run that never stopped, over random save points, frame schedules and tick rates.
//!
//! The world moves, teleports, spawns (through the adapter and raw, for adoption) and despawns
//! (with ghosts), so the saved previous values, stamps, capture counter and ghosts all matter.

use std::collections::{HashMap, HashSet};

use glam::Vec3;
use hecs::{Entity, World};
use quickcheck::{QuickCheck, TestResult};
use serde::{Deserialize, Serialize};
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period, Tick};
use tickfold_hecs::{Counts, Error, Interpolated, SavedTracker, Stats};
use tickfold_testing::Schedule;

#[derive(Copy, Clone, Debug)]
struct Vel(Vec3);

/// The game's own name for a body: picks who teleports and who is despawned, whatever the
/// storage order.
#[derive(Copy, Clone, Debug)]
struct Name(u32);

const GHOST_TICKS: u32 = 4;

struct Game {
    state: LoopState<Nanos>,
    world: World,
    pos: Interpolated<Vec3>,
    next_name: u32,
}

/// One render, as bits: the instance buffer, each ghost's value and fade, the counts.
#[derive(Clone, Debug, PartialEq)]
struct Drawn {
    bodies: Vec<[u32; 3]>,
    ghosts: Vec<([u32; 3], u64)>,
    counts: Counts,
}

fn bits(v: Vec3) -> [u32; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

/// How many bodies the world holds (a loaded world holds strangers too).
fn bodies(world: &World) -> usize {
    world.query::<&Name>().iter().count()
}

/// The body with the smallest name.
fn first(world: &World) -> Option<Entity> {
    let mut q = world.query::<(Entity, &Name)>();
    q.iter().min_by_key(|(_, n)| n.0).map(|(e, _)| e)
}

impl Game {
    fn new(rate: Period) -> Game {
        let mut game = Game {
            state: LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap(),
            world: World::new(),
            pos: Interpolated::new().keep_ghosts(GHOST_TICKS),
            next_name: 0,
        };
        for i in 0..4 {
            game.spawn(true, i as f32);
        }
        game
    }

    fn spawn(&mut self, tracked: bool, x: f32) {
        let body = (
            Vec3::new(x, 0.5 * x, -x),
            Vel(Vec3::new(1.0 + x, -0.25 * x, 0.125)),
            Name(self.next_name),
        );
        self.next_name += 1;
        if tracked {
            self.pos.spawn(&mut self.world, body);
        } else {
            self.world.spawn(body); // adopted at the next capture
        }
    }

    fn update(&mut self, tick: &Tick) {
        self.pos.before_update(&mut self.world, tick);
        let dt = tick.dt_secs() as f32;
        for (p, v) in self.world.query_mut::<(&mut Vec3, &Vel)>() {
            *p += v.0 * dt;
        }
        let i = tick.index;
        if i % 5 == 2 {
            if let Some(e) = first(&self.world) {
                *self.world.get::<&mut Vec3>(e).unwrap() = Vec3::splat(i as f32 * 0.01);
                self.pos.teleport(&self.world, e).unwrap();
            }
        }
        if i % 7 == 3 {
            self.spawn(true, i as f32 * 0.1);
        }
        if i % 11 == 6 {
            self.spawn(false, i as f32 * -0.1);
        }
        if i % 6 == 5 && bodies(&self.world) > 3 {
            let e = first(&self.world).unwrap();
            self.pos.despawn(&mut self.world, e).unwrap();
        }
    }

    /// Between frames after frame `k`: sometimes the player removes a body outside any update
    /// (its ghost blends from the previous tick only if the last step captured).
    fn input(&mut self, k: usize) {
        if k % 9 == 4 && bodies(&self.world) > 3 {
            let e = first(&self.world).unwrap();
            self.pos.despawn(&mut self.world, e).unwrap();
        }
    }

    /// One frame: every event of the step at `now`, each render drawn.
    fn frame(&mut self, now: Nanos) -> Vec<Drawn> {
        let mut drawn = Vec::new();
        for event in &self.state.advance(now) {
            match event {
                Event::Update(tick) => self.update(&tick),
                Event::Render(r) => {
                    let mut out = Vec::new();
                    let counts = self.pos.extract(&self.world, r.alpha, &mut out);
                    let ghosts = self.pos.ghosts().iter();
                    drawn.push(Drawn {
                        bodies: out.into_iter().map(bits).collect(),
                        ghosts: ghosts
                            .map(|g| (bits(g.value(r.alpha)), g.fade(r.alpha, 4).to_bits()))
                            .collect(),
                        counts,
                    });
                }
                _ => {}
            }
        }
        drawn
    }
}

/// The test's own serde of its components.
#[derive(Serialize, Deserialize)]
struct Body {
    handle: u64,
    pos: Vec3,
    vel: Vec3,
    name: u32,
}

#[derive(Serialize, Deserialize)]
struct SaveGame {
    clock: LoopState<Nanos>,
    bodies: Vec<Body>,
    next_name: u32,
    tracker: SavedTracker<Vec3>,
}

fn save(game: &Game) -> String {
    let bodies = game
        .world
        .iter()
        .map(|e| Body {
            handle: e.entity().to_bits().get(),
            pos: *e.get::<&Vec3>().unwrap(),
            vel: e.get::<&Vel>().unwrap().0,
            name: e.get::<&Name>().unwrap().0,
        })
        .collect();
    let file = SaveGame {
        clock: game.state.clone(),
        bodies,
        next_name: game.next_name,
        tracker: game.pos.save(&game.world),
    };
    serde_json::to_string(&file).unwrap()
}

/// A fresh world whose handles differ from the saved ones: the entities with saved companions
/// respawned first, in the saved order, then the tracker loaded, then the others (so both
/// groups keep their storage order, see `Interpolated::load`).
fn load(file: &str) -> Game {
    let file: SaveGame = serde_json::from_str(file).unwrap();
    let mut world = World::new();
    let strangers: Vec<Entity> = (0..3_u8).map(|i| world.spawn((i,))).collect();
    world.despawn(strangers[1]).unwrap();
    let tracked: HashSet<Entity> = file.tracker.entities().collect();
    let mut map = HashMap::new();
    let respawn = |world: &mut World, map: &mut HashMap<Entity, Entity>, b: &Body| {
        let new = world.spawn((b.pos, Vel(b.vel), Name(b.name)));
        map.insert(Entity::from_bits(b.handle).unwrap(), new);
    };
    let old = |b: &Body| Entity::from_bits(b.handle).unwrap();
    for b in file.bodies.iter().filter(|b| tracked.contains(&old(b))) {
        respawn(&mut world, &mut map, b);
    }
    let pos = Interpolated::load(file.tracker, &mut world, |e| map.get(&e).copied()).unwrap();
    for b in file.bodies.iter().filter(|b| !tracked.contains(&old(b))) {
        respawn(&mut world, &mut map, b);
    }
    Game {
        state: file.clock,
        world,
        pos,
        next_name: file.next_name,
    }
}

/// Every frame's renders, with the game saved and loaded after frame `save_at` when given, and
/// the tracker's stats at the end.
fn run(rate: Period, schedule: &Schedule, save_at: Option<usize>) -> (Vec<Vec<Drawn>>, Stats) {
    let mut game = Game::new(rate);
    let mut frames = Vec::new();
    for (k, now) in schedule.nows().enumerate() {
        frames.push(game.frame(now));
        if save_at == Some(k) {
            game = load(&save(&game));
        }
        game.input(k);
    }
    (frames, game.pos.stats())
}

const RATES: [u64; 4] = [30, 60, 144, 240];

fn resumes_exactly(schedule: Schedule, at: usize, rate: u8) -> TestResult {
    let rate = Period::from_hz(RATES[usize::from(rate) % RATES.len()]).unwrap();
    let at = at % schedule.len();
    let (plain, plain_stats) = run(rate, &schedule, None);
    let (resumed, resumed_stats) = run(rate, &schedule, Some(at));
    for (k, (a, b)) in plain.iter().zip(&resumed).enumerate() {
        if a != b {
            return TestResult::error(format!(
                "frame {k} (saved after frame {at}) differs:\n  plain   {a:?}\n  resumed {b:?}"
            ));
        }
    }
    if plain_stats != resumed_stats {
        return TestResult::error(format!("stats {plain_stats:?} vs {resumed_stats:?}"));
    }
    TestResult::passed()
}

#[test]
fn every_render_after_a_load_is_bit_identical() {
    QuickCheck::new()
        .tests(200)
        .quickcheck(resumes_exactly as fn(Schedule, usize, u8) -> TestResult);
}

/// The fixed schedule the trap was found with: 60 Hz ticks under 144 Hz frames with a hitch.
fn trap_schedule() -> Schedule {
    let mut ms = vec![6.944_444; 40];
    ms[20] = 120.0;
    ms.extend([6.944_444; 46]);
    Schedule::from_millis(&ms).unwrap()
}

#[test]
fn a_load_before_a_blend_from_a_teleport_and_a_ghost_resumes_exactly() {
    let rate = Period::from_hz(60).unwrap();
    let schedule = trap_schedule();
    let (plain, _) = run(rate, &schedule, None);
    // The run blends, shows teleports, fresh spawns and ghosts: the save points below fall
    // before each of them.
    let total = plain.iter().flatten().fold(Counts::default(), |mut c, d| {
        c.add(&d.counts);
        c
    });
    assert!(total.interpolated > 0 && total.teleports > 0 && total.fresh > 0);
    assert!(plain.iter().flatten().any(|d| !d.ghosts.is_empty()));
    for at in 0..schedule.len() {
        let (resumed, _) = run(rate, &schedule, Some(at));
        assert_eq!(plain, resumed, "saved after frame {at}");
    }
}

/// The trap itself: respawning the bodies with fresh companions at their current values (all
/// a user could do without the saved tracker) changes the first render after the load.
#[test]
fn a_load_without_the_tracker_state_renders_differently() {
    let rate = Period::from_hz(60).unwrap();
    let schedule = trap_schedule();
    let (plain, _) = run(rate, &schedule, None);
    let mut game = Game::new(rate);
    let mut differing = 0;
    for (k, now) in schedule.nows().enumerate() {
        differing += usize::from(game.frame(now) != plain[k]);
        if k == 30 {
            let mut loaded = load(&save(&game));
            let pos = Interpolated::new().keep_ghosts(GHOST_TICKS);
            let bodies: Vec<_> = loaded
                .world
                .query_mut::<(Entity, &Vec3)>()
                .into_iter()
                .map(|(e, p)| (e, *p))
                .collect();
            for (e, p) in bodies {
                pos.insert(&mut loaded.world, e, p).unwrap();
            }
            loaded.pos = pos;
            game = loaded;
        }
        game.input(k);
    }
    assert!(differing > 0, "the naive load rendered the same");
}

#[test]
fn a_load_refuses_what_it_cannot_place_and_leaves_the_world_alone() {
    let rate = Period::from_hz(60).unwrap();
    let mut game = Game::new(rate);
    for now in trap_schedule().nows().take(10) {
        game.frame(now);
    }
    let saved = game.pos.save(&game.world);
    let handles: Vec<Entity> = saved.entities().collect();
    assert!(handles.len() >= 4);
    let mut fresh = World::new();
    let news: Vec<Entity> = handles.iter().map(|_| fresh.spawn((Vec3::ZERO,))).collect();
    let map: HashMap<Entity, Entity> = handles.iter().copied().zip(news.iter().copied()).collect();

    // A handle the map does not know.
    let missing = handles[2];
    let err = Interpolated::load(saved.clone(), &mut fresh, |e| {
        (e != missing).then(|| map[&e])
    });
    assert_eq!(err.unwrap_err(), Error::Unmapped(missing));
    // A handle the world does not hold.
    fresh.despawn(news[1]).unwrap();
    let err = Interpolated::load(saved.clone(), &mut fresh, |e| map.get(&e).copied());
    assert_eq!(err.unwrap_err(), Error::NoSuchEntity(news[1]));
    // Two saved entities given one handle.
    let err = Interpolated::load(saved.clone(), &mut fresh, |_| Some(news[0]));
    assert!(matches!(err.unwrap_err(), Error::InvalidSave(_)));
    // Tampered data: an odd capture counter.
    let json = serde_json::to_string(&saved).unwrap();
    let epoch = saved.epoch().get();
    let tampered = json.replace(
        &format!("\"epoch\":{epoch},"),
        &format!("\"epoch\":{},", epoch + 1),
    );
    assert_ne!(json, tampered);
    let tampered: SavedTracker<Vec3> = serde_json::from_str(&tampered).unwrap();
    let err = Interpolated::load(tampered, &mut fresh, |e| map.get(&e).copied());
    assert_eq!(
        err.unwrap_err(),
        Error::InvalidSave("an odd capture counter")
    );
    // Nothing was written by the refused loads.
    assert_eq!(
        fresh
            .query_mut::<&tickfold_hecs::Previous<Vec3>>()
            .into_iter()
            .count(),
        0
    );

    // The round trip through JSON is lossless.
    let back: SavedTracker<Vec3> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, saved);
}
