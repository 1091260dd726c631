//! The game of `examples/game/`: its components, its fixed update, what a frame "draws", and
//! its save file. Shared with `tests/game.rs` (included there with `#[path]`), so the tests
//! check the very code the example runs.
#![allow(dead_code)] // the example and the tests each use part of it

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tickfold::glam::{Quat, Vec3};
use tickfold::hecs_adapter::hecs::{Entity, World};
use tickfold::hecs_adapter::{Counts, Interpolated, SavedTracker, Tracker};
use tickfold::{Interpolate, LoopState, Nanos, Tick};

/// Where a body is: blended between ticks by the derived `Interpolate`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
pub(crate) struct Position(pub(crate) Vec3);

/// Its orientation: blended by shortest-arc slerp (glam's `Quat`).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
pub(crate) struct Rotation(pub(crate) Quat);

/// Units per second; not drawn, so not tracked.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Velocity(pub(crate) Vec3);

/// The turn per tick.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Spin(pub(crate) Quat);

/// Half the side of the box the bodies wrap around in.
pub(crate) const HALF_BOX: f32 = 100.0;

/// The two trackers, driven together through the `Tracker` tuple.
pub(crate) type Trackers = (Interpolated<Position>, Interpolated<Rotation>);

/// The world and its trackers: everything the game owns.
pub(crate) struct Game {
    pub(crate) world: World,
    pub(crate) trackers: Trackers,
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

/// A small deterministic generator (xorshift), so every run builds the same world.
struct Rng(u64);

impl Rng {
    fn signed(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.signed(), self.signed(), self.signed())
    }
}

impl Game {
    /// `n` bodies at seeded places, speeds and spins.
    pub(crate) fn new(n: usize) -> Game {
        let mut game = Game {
            world: World::new(),
            trackers: (Interpolated::new(), Interpolated::new()),
            wraps: 0,
        };
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..n {
            let body = (
                Position(rng.vec3() * HALF_BOX),
                Rotation(Quat::IDENTITY),
                Velocity(rng.vec3() * 40.0),
                Spin(Quat::from_axis_angle(rng.vec3().normalize_or(Vec3::Y), 0.1)),
            );
            // The bundle helper adds both trackers' companions: no archetype move later.
            game.trackers.spawn(&mut game.world, body);
        }
        game
    }

    /// The first body spawned (the tests follow it).
    pub(crate) fn first(&self) -> Option<Entity> {
        self.world.iter().next().map(|e| e.entity())
    }

    /// One fixed update: the capture rule, then move, turn and wrap.
    pub(crate) fn update(&mut self, tick: &Tick) {
        self.trackers.before_update(&mut self.world, tick);
        let dt = tick.dt_secs() as f32;
        let mut wrapped = Vec::new();
        for (e, p, r, v, s) in self
            .world
            .query_mut::<(Entity, &mut Position, &mut Rotation, &Velocity, &Spin)>()
        {
            p.0 += v.0 * dt;
            r.0 = (r.0 * s.0).normalize();
            let outside = p.0.abs().cmpgt(Vec3::splat(HALF_BOX));
            if outside.any() {
                // Leaving the box: reappear on the other side, a jump rather than a motion.
                p.0 = Vec3::select(outside, p.0 - p.0.signum() * 2.0 * HALF_BOX, p.0);
                wrapped.push(e);
            }
        }
        for e in wrapped {
            self.trackers
                .0
                .teleport(&self.world, e)
                .expect("a tracked body");
            self.wraps += 1;
        }
    }

    /// One render at `alpha`: blends every position into `buffer` (the instance buffer a
    /// renderer would upload) and sums it, reads the rotations through the visitor, samples
    /// the first body.
    pub(crate) fn render(&self, alpha: f64, buffer: &mut Vec<Position>) -> Drawn {
        let positions = self.trackers.0.extract(&self.world, alpha, buffer);
        let sum = buffer.iter().fold(Vec3::ZERO, |s, p| s + p.0);
        let mut turn = 0.0_f32;
        let rotations = self
            .trackers
            .1
            .for_each(&self.world, alpha, |_, r| turn += r.into_value().0.w.abs());
        let first = self.first().map(|e| {
            let sample = self.trackers.0.sample(&self.world, e, alpha);
            sample.expect("a tracked body").into_value().0
        });
        Drawn {
            sum,
            turn,
            first,
            positions,
            rotations,
        }
    }
}

/// One body in the save file, under its handle at save time.
#[derive(Serialize, Deserialize)]
struct Body {
    handle: u64,
    position: Position,
    rotation: Rotation,
    velocity: Velocity,
    spin: Spin,
}

/// A save game: the loop state, the components and both trackers' state.
#[derive(Serialize, Deserialize)]
struct SaveFile {
    clock: LoopState<Nanos>,
    bodies: Vec<Body>,
    positions: SavedTracker<Position>,
    rotations: SavedTracker<Rotation>,
    wraps: u64,
}

/// Saves the game and its loop between two frames, as JSON.
pub(crate) fn save(game: &Game, state: &LoopState<Nanos>) -> Result<String, serde_json::Error> {
    let mut query = game
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
    serde_json::to_string(&SaveFile {
        clock: state.clone(),
        bodies,
        positions: game.trackers.0.save(&game.world),
        rotations: game.trackers.1.save(&game.world),
        wraps: game.wraps,
    })
}

/// Loads a save into a fresh world (new entity handles, mapped from the saved ones) and loop.
pub(crate) fn load(json: &str) -> Result<(Game, LoopState<Nanos>), Box<dyn std::error::Error>> {
    let file: SaveFile = serde_json::from_str(json)?;
    let mut world = World::new();
    let mut map = HashMap::with_capacity(file.bodies.len());
    for b in &file.bodies {
        let new = world.spawn((b.position, b.rotation, b.velocity, b.spin));
        let old = Entity::from_bits(b.handle).ok_or("a handle hecs never makes")?;
        map.insert(old, new);
    }
    let positions = Interpolated::load(file.positions, &mut world, |e| map.get(&e).copied())?;
    let rotations = Interpolated::load(file.rotations, &mut world, |e| map.get(&e).copied())?;
    let game = Game {
        world,
        trackers: (positions, rotations),
        wraps: file.wraps,
    };
    Ok((game, file.clock))
}
