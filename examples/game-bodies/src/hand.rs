//! The game of `examples/game/` without tickfold's trackers, for the same program on
//! `game-loop` (`benches/peers/examples/game_gameloop.rs`) and on a hand-written loop
//! (`game_fiedler.rs`): the bodies and their update are the example's own (the crate root);
//! what tickfold's hecs adapter does there (keep the state before the update, skip the blend across a wrap, blend
//! at render) is written by hand, as Fiedler's "Fix Your Timestep" does it: a copy of the
//! previous state before every update, `previous.lerp(current, alpha)` at render. The
//! `// glue:` regions are what `count_glue.sh` counts.

use tickfold::glam::Vec3;
use tickfold_hecs::hecs::{Entity, World};

use crate::{Position, Rotation, bodies, step};

// glue: interpolation
/// The state before the latest update, kept beside each body.
#[derive(Copy, Clone, Debug)]
struct Previous(Position, Rotation);
// end glue

/// The world, with every body's previous state beside it.
pub struct HandGame {
    world: World,
    wrapped: Vec<Entity>,
    /// Wraps (teleports) so far, for the figures.
    pub wraps: u64,
}

impl HandGame {
    /// `n` bodies at the example's seeded places, speeds and spins.
    #[must_use]
    pub fn new(n: usize) -> HandGame {
        let mut world = World::new();
        for (p, r, v, s) in bodies(n) {
            // glue: interpolation
            world.spawn((p, r, v, s, Previous(p, r)));
            // end glue
        }
        HandGame {
            world,
            wrapped: Vec::new(),
            wraps: 0,
        }
    }

    /// One fixed update of `dt` seconds.
    pub fn update(&mut self, dt: f32) {
        // glue: interpolation
        for (p, r, previous) in self
            .world
            .query_mut::<(&Position, &Rotation, &mut Previous)>()
        {
            *previous = Previous(*p, *r);
        }
        // end glue
        self.wrapped.clear();
        step(&mut self.world, dt, &mut self.wrapped);
        self.wraps += self.wrapped.len() as u64;
        // glue: interpolation
        for &e in &self.wrapped {
            // A wrap is a jump: draw the new place, not a blend across the box.
            if let Ok((p, previous)) = self.world.query_one_mut::<(&Position, &mut Previous)>(e) {
                previous.0 = *p;
            }
        }
        // end glue
    }

    /// One render at `alpha`: every body's blended position into `buffer`, the blended
    /// rotations read, the first body's blended position returned.
    #[must_use]
    pub fn render(&self, alpha: f64, buffer: &mut Vec<Position>) -> Option<Vec3> {
        let mut turn = 0.0_f32;
        // glue: interpolation
        let a = alpha as f32;
        buffer.clear();
        let mut query = self.world.query::<(&Position, &Rotation, &Previous)>();
        for (p, r, previous) in query.iter() {
            buffer.push(Position(previous.0.0.lerp(p.0, a)));
            turn += previous.1.0.slerp(r.0, a).w.abs();
        }
        let first = buffer.first().map(|p| p.0);
        // end glue
        std::hint::black_box(turn); // tickfold's version hands it to its tests
        first
    }
}
