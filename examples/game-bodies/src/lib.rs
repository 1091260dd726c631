//! The bodies of `examples/game/`: their components, how the world is seeded, one fixed update
//! (move, turn, wrap) and the per-second figures. This is the game code the example shares with
//! the same program written on `game-loop` and on a hand-written "Fix Your Timestep" loop
//! (`benches/peers/examples/game_gameloop.rs`, `game_fiedler.rs`), so that the programs differ
//! only in their loop, interpolation and pacing glue. A workspace-internal crate, not published.
//!
//! It depends on tickfold-core, not on the facade (which dev-depends on this crate for its
//! `game` example: a facade dependency would turn the example's features on in every test
//! build of the facade), under the facade's name, so the derive's `::tickfold::Interpolate`
//! and the paths below read as in a game.
#![forbid(unsafe_code)]

pub mod hand;

use serde::{Deserialize, Serialize};
use tickfold::glam::{Quat, Vec3};
use tickfold_derive::Interpolate;
use tickfold_hecs::hecs::{Entity, World};
use tickfold_testing::SplitMix64;

/// Where a body is: blended between ticks by the derived `Interpolate`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
pub struct Position(
    /// The place.
    pub Vec3,
);

/// Its orientation: blended by shortest-arc slerp (glam's `Quat`).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, Interpolate)]
pub struct Rotation(
    /// The orientation.
    pub Quat,
);

/// Units per second; not drawn, so not blended.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Velocity(
    /// Units per second.
    pub Vec3,
);

/// The turn per tick.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spin(
    /// The turn per tick.
    pub Quat,
);

/// Half the side of the box the bodies wrap around in.
pub const HALF_BOX: f32 = 100.0;

/// A vector with each coordinate uniform in `[-1, 1)`.
fn vec3(rng: &mut SplitMix64) -> Vec3 {
    let mut signed = || rng.unit_f32() * 2.0 - 1.0;
    Vec3::new(signed(), signed(), signed())
}

/// `n` bodies at seeded places, speeds and spins, the same in every run and every program.
/// (The seed starts body 0 well inside the box, 55 units from the centre at most, so the game
/// example's hand-computed blend of it never meets a wrap.)
pub fn bodies(n: usize) -> impl Iterator<Item = (Position, Rotation, Velocity, Spin)> {
    let mut rng = SplitMix64::new(0x0B0D_1E50);
    (0..n).map(move |_| {
        (
            Position(vec3(&mut rng) * HALF_BOX),
            Rotation(Quat::IDENTITY),
            Velocity(vec3(&mut rng) * 40.0),
            Spin(Quat::from_axis_angle(
                vec3(&mut rng).normalize_or(Vec3::Y),
                0.1,
            )),
        )
    })
}

/// One fixed update of `dt` seconds: every body moves, turns and, leaving the box, reappears
/// on the other side. The bodies that wrapped are appended to `wrapped`: a jump rather than a
/// motion, which a renderer must not blend across.
pub fn step(world: &mut World, dt: f32, wrapped: &mut Vec<Entity>) {
    for (e, p, r, v, s) in
        world.query_mut::<(Entity, &mut Position, &mut Rotation, &Velocity, &Spin)>()
    {
        p.0 += v.0 * dt;
        r.0 = (r.0 * s.0).normalize();
        let outside = p.0.abs().cmpgt(Vec3::splat(HALF_BOX));
        if outside.any() {
            p.0 = Vec3::select(outside, p.0 - p.0.signum() * 2.0 * HALF_BOX, p.0);
            wrapped.push(e);
        }
    }
}

/// The sum of the blended positions: the headless "draw call" of every program.
#[must_use]
pub fn sum(buffer: &[Position]) -> Vec3 {
    buffer.iter().fold(Vec3::ZERO, |s, p| s + p.0)
}

/// The figures each program prints once per second of loop time.
#[derive(Clone, Debug)]
pub struct Figures {
    /// The end of the second in progress, in seconds of loop time.
    second_end: f64,
    /// Ticks run before it began.
    ticks_before: u64,
    renders: u64,
    alpha_sum: f64,
}

impl Default for Figures {
    fn default() -> Figures {
        Figures::new()
    }
}

impl Figures {
    /// The figures of the first second.
    #[must_use]
    pub fn new() -> Figures {
        Figures {
            second_end: 1.0,
            ticks_before: 0,
            renders: 0,
            alpha_sum: 0.0,
        }
    }

    /// Counts one render at `alpha`, `now` seconds into the loop and `ticks` ticks in all,
    /// that drew the bodies `buffer` holds (their blended positions) with the first at
    /// `first`. Once `now` reaches the end of the second in progress, returns that second's
    /// line and starts the next.
    pub fn render(
        &mut self,
        now: f64,
        ticks: u64,
        alpha: f64,
        buffer: &[Position],
        first: Option<Vec3>,
        wraps: u64,
    ) -> Option<String> {
        self.renders += 1;
        self.alpha_sum += alpha;
        if now < self.second_end {
            return None;
        }
        let mean = sum(buffer) / buffer.len().max(1) as f32;
        let first = first.unwrap_or_default();
        let line = format!(
            "{now:5.2} s  ticks {:3}  renders {:3}  mean alpha {:.3}  mean position {:8.3} {:8.3} {:8.3}  body 0 at {:8.3} {:8.3} {:8.3}  wraps {wraps}",
            ticks - self.ticks_before,
            self.renders,
            self.alpha_sum / self.renders as f64,
            mean.x,
            mean.y,
            mean.z,
            first.x,
            first.y,
            first.z,
        );
        self.second_end += 1.0;
        (self.ticks_before, self.renders, self.alpha_sum) = (ticks, 0, 0.0);
        Some(line)
    }
}
