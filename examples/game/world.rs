//! The game of `examples/game/` on tickfold's hecs adapter: the bodies (`examples/game-bodies`,
//! the `tickfold-game-bodies` crate, shared with the same program on `game-loop` and on a
//! hand-written loop) with their two trackers, the fixed update with the capture rule, what a
//! frame "draws", the save file (also a replay's keyframes) and
//! the fingerprint the tests and the replay example compare. The example's tests (`tests.rs`) check this very code. The `// glue:` regions are what `benches/peers/count_glue.sh` counts.
#![allow(dead_code)] // the example and the tests each use part of it

use std::collections::HashMap;
use std::hash::Hasher;

use serde::{Deserialize, Serialize};
use tickfold::hecs_adapter::hecs::{Entity, World};
use tickfold::hecs_adapter::{Counts, Interpolated, SavedTracker, Tracker};
use tickfold::{LoopState, Nanos, Tick};

use tickfold::glam::Vec3;
#[allow(unused_imports)] // the example and the tests each use part of it
pub(crate) use tickfold_game_bodies::{
    Figures, HALF_BOX, Position, Rotation, Spin, Velocity, bodies, step, sum,
};
use tickfold_testing::{Fnv1a, Rewind};

// glue: interpolation
/// The two trackers, driven together through the `Tracker` tuple.
pub(crate) type Trackers = (Interpolated<Position>, Interpolated<Rotation>);
// end glue

/// The world and its trackers: everything the game owns.
pub(crate) struct Game {
    pub(crate) world: World,
    // glue: interpolation
    pub(crate) trackers: Trackers,
    // end glue
    /// Wraps (teleports) so far, for the example's figures.
    pub(crate) wraps: u64,
}

/// What one render drew: the sum of the blended positions and rotations (the "draw call"), one
/// blended position sampled, and how the trackers blended.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Drawn {
    pub(crate) sum: Vec3,
    pub(crate) turn: f32,
    pub(crate) first: Option<Vec3>,
    pub(crate) positions: Counts,
    pub(crate) rotations: Counts,
}

impl Drawn {
    /// Every rendered value as bits, for bit-for-bit comparisons.
    pub(crate) fn bits(&self) -> Vec<u32> {
        let mut out = vec![self.sum.x, self.sum.y, self.sum.z, self.turn];
        out.extend(self.first.map_or([f32::NAN; 3], |p| p.to_array()));
        out.into_iter().map(f32::to_bits).collect()
    }
}

impl Game {
    /// `n` bodies at seeded places, speeds and spins.
    pub(crate) fn new(n: usize) -> Game {
        let mut game = Game {
            world: World::new(),
            // glue: interpolation
            trackers: (Interpolated::new(), Interpolated::new()),
            // end glue
            wraps: 0,
        };
        for body in bodies(n) {
            // glue: interpolation
            // The bundle helper adds both trackers' companions: no archetype move later.
            game.trackers.spawn(&mut game.world, body);
            // end glue
        }
        game
    }

    /// The first body spawned (the tests follow it).
    pub(crate) fn first(&self) -> Option<Entity> {
        self.world.iter().next().map(|e| e.entity())
    }

    /// One fixed update: the capture rule, then move, turn and wrap (`bodies::step`).
    pub(crate) fn update(&mut self, tick: &Tick) {
        let mut wrapped = Vec::new();
        // glue: interpolation
        self.trackers.before_update(&mut self.world, tick);
        // end glue
        step(&mut self.world, tick.dt_secs() as f32, &mut wrapped);
        self.wraps += wrapped.len() as u64;
        // glue: interpolation
        for e in wrapped {
            // Leaving the box is a jump rather than a motion: draw it without blending.
            let tracked = self.trackers.0.teleport(&self.world, e);
            tracked.expect("a tracked body");
        }
        // end glue
    }

    /// One render at `alpha`: blends every position into `buffer` (the instance buffer a
    /// renderer would upload) and sums it, reads the rotations through the visitor, samples
    /// the first body.
    pub(crate) fn render(&self, alpha: f64, buffer: &mut Vec<Position>) -> Drawn {
        let mut turn = 0.0_f32;
        // glue: interpolation
        let positions = self.trackers.0.extract(&self.world, alpha, buffer);
        let rotations = self
            .trackers
            .1
            .for_each(&self.world, alpha, |_, r| turn += r.into_value().0.w.abs());
        let first = self.first().map(|e| {
            let sample = self.trackers.0.sample(&self.world, e, alpha);
            sample.expect("a tracked body").into_value().0
        });
        // end glue
        Drawn {
            sum: sum(buffer),
            turn,
            first,
            positions,
            rotations,
        }
    }
}

/// A gust of wind every body feels during one frame's ticks, in units per second² on each
/// axis: the replay example's input (a player's input, in a real game).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Gust(pub(crate) [i8; 3]);

impl Game {
    /// One fixed update under a gust: the wind changes every velocity, then [`Game::update`].
    pub(crate) fn update_with(&mut self, tick: &Tick, gust: &Gust) {
        let push = Vec3::from(gust.0.map(f32::from)) * tick.dt_secs() as f32;
        for v in self.world.query_mut::<&mut Velocity>() {
            v.0 += push;
        }
        self.update(tick);
    }
}

/// One body in the save file, under its handle at save time.
#[derive(Clone, Serialize, Deserialize)]
struct Body {
    handle: u64,
    position: Position,
    rotation: Rotation,
    velocity: Velocity,
    spin: Spin,
}

/// The game without its loop: the components and both trackers' state. A save game holds it
/// beside the loop state; a replay's keyframes hold it alone (the `Rewind` impl below).
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct WorldSave {
    bodies: Vec<Body>,
    positions: SavedTracker<Position>,
    rotations: SavedTracker<Rotation>,
    wraps: u64,
}

/// A save game: the loop state and the world (the same JSON fields as one flat struct).
#[derive(Serialize, Deserialize)]
struct SaveFile {
    clock: LoopState<Nanos>,
    #[serde(flatten)]
    world: WorldSave,
}

impl Game {
    /// The world as a save, between two frames.
    pub(crate) fn saved(&self) -> WorldSave {
        let mut query = self
            .world
            .query::<(Entity, &Position, &Rotation, &Velocity, &Spin)>();
        let bodies = query
            .iter()
            .map(|(e, &position, &rotation, &velocity, &spin)| Body {
                handle: e.to_bits().get(),
                position,
                rotation,
                velocity,
                spin,
            })
            .collect();
        WorldSave {
            bodies,
            positions: self.trackers.0.save(&self.world),
            rotations: self.trackers.1.save(&self.world),
            wraps: self.wraps,
        }
    }

    /// A fresh world (new entity handles, mapped from the saved ones) from a save.
    pub(crate) fn from_save(save: WorldSave) -> Result<Game, Box<dyn std::error::Error>> {
        let mut world = World::new();
        let mut map = HashMap::with_capacity(save.bodies.len());
        for b in &save.bodies {
            let new = world.spawn((b.position, b.rotation, b.velocity, b.spin));
            let old = Entity::from_bits(b.handle).ok_or("a handle hecs never makes")?;
            map.insert(old, new);
        }
        let positions = Interpolated::load(save.positions, &mut world, |e| map.get(&e).copied())?;
        let rotations = Interpolated::load(save.rotations, &mut world, |e| map.get(&e).copied())?;
        Ok(Game {
            world,
            trackers: (positions, rotations),
            wraps: save.wraps,
        })
    }
}

/// Saves the game and its loop between two frames, as JSON.
pub(crate) fn save(game: &Game, state: &LoopState<Nanos>) -> Result<String, serde_json::Error> {
    serde_json::to_string(&SaveFile {
        clock: state.clone(),
        world: game.saved(),
    })
}

/// Loads a save into a fresh world and loop.
pub(crate) fn load(json: &str) -> Result<(Game, LoopState<Nanos>), Box<dyn std::error::Error>> {
    let file: SaveFile = serde_json::from_str(json)?;
    Ok((Game::from_save(file.world)?, file.clock))
}

/// A replay's keyframes (the determinism kit's `Recorder::with_saves` and `Player`) save and
/// load the world through the same save as the save game.
impl Rewind for Game {
    type Save = WorldSave;
    type Error = Box<dyn std::error::Error>;
    fn save(&self) -> WorldSave {
        self.saved()
    }
    fn load(save: &WorldSave) -> Result<Game, Self::Error> {
        Game::from_save(save.clone())
    }
}

/// The gameplay components and everything a render draws at `alpha`, by their bits (not the
/// trackers' capture counters, which count steps).
pub(crate) fn fingerprint(game: &Game, alpha: f64) -> u64 {
    let mut h = Fnv1a::new();
    let mut query = game.world.query::<(&Position, &Rotation)>();
    for (p, r) in query.iter() {
        p.0.to_array()
            .iter()
            .chain(&r.0.to_array())
            .for_each(|x| h.write_u32(x.to_bits()));
    }
    let mut buffer = Vec::new();
    let drawn = game.render(alpha, &mut buffer);
    for p in &buffer {
        p.0.to_array().iter().for_each(|x| h.write_u32(x.to_bits()));
    }
    drawn.bits().iter().for_each(|&b| h.write_u32(b));
    for c in [drawn.positions, drawn.rotations] {
        [c.interpolated, c.teleports, c.fresh, c.untracked]
            .iter()
            .for_each(|&n| h.write_u64(n));
    }
    h.finish()
}
