//! A small two-player game as plain data, for rollback: ships with integer physics (1/256 px,
//! so every machine computes the same bits), bullets, and an RNG, all in snapshot buffers.
//! The game of the facade's `examples/rollback.rs` and of this crate's tests.

use ggrs::{Frame, InputStatus};
use tickfold_core::{ClockId, Columns};
use tickfold_snapshot::{
    DoubleBuffer, Ring, SnapshotError, Tracked, chunk_checksum, state_checksum,
};
use tickfold_testing::SplitMix64;

use crate::{FrameValues, GgrsConfig, RollbackState};

/// One byte of input per player: bits for thrust up, down, left, right, and fire.
pub type Input = u8;
/// The ggrs configuration of the game (input `u8`, UDP or in-memory socket addresses).
pub type Config = GgrsConfig<Input>;
/// A host's save of the game for a late joiner.
pub type GameHandover = crate::Handover<<Game as FrameValues>::Values, Input>;

/// Input bit: thrust up.
pub const UP: u8 = 1;
/// Input bit: thrust down.
pub const DOWN: u8 = 2;
/// Input bit: thrust left.
pub const LEFT: u8 = 4;
/// Input bit: thrust right.
pub const RIGHT: u8 = 8;
/// Input bit: fire (every 8 frames at most).
pub const FIRE: u8 = 16;

/// Arena side in 1/256 px (a 1024 px square that wraps around).
const ARENA: i32 = 1024 * 256;
const THRUST: i32 = 24;
const MAX_SPEED: i32 = 1200;
const BULLET_SPEED: i32 = 2400;
const BULLET_TTL: u32 = 90;
const COOLDOWN: u32 = 8;
/// Bullets in flight at most (the bullet buffer never grows past it).
pub const MAX_BULLETS: usize = 256;
const HIT_RADIUS: i32 = 12 * 256;

/// A ship, in 1/256 px and 1/256 px per frame.
#[derive(
    Copy,
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    bytemuck::NoUninit,
    serde::Serialize,
    serde::Deserialize,
)]
#[repr(C)]
pub struct Ship {
    /// Position.
    pub x: i32,
    /// Position.
    pub y: i32,
    /// Velocity.
    pub vx: i32,
    /// Velocity.
    pub vy: i32,
    /// Frames until it may fire again.
    pub cooldown: u32,
    /// Hits taken.
    pub hits: u32,
}

/// A bullet, in 1/256 px and 1/256 px per frame.
#[derive(
    Copy,
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    bytemuck::NoUninit,
    serde::Serialize,
    serde::Deserialize,
)]
#[repr(C)]
pub struct Bullet {
    /// Position.
    pub x: i32,
    /// Position.
    pub y: i32,
    /// Velocity.
    pub vx: i32,
    /// Velocity.
    pub vy: i32,
    /// The player who fired it.
    pub owner: u32,
    /// Frames left to live.
    pub ttl: u32,
}

/// The whole rollback state: three parts, one checksum; the ships and bullets are drawn
/// between ticks, blended from their state before the step's last update.
#[derive(Debug)]
pub struct Game {
    /// The two ships, player 0's first.
    pub ships: DoubleBuffer<Ship>,
    /// The bullets in flight.
    pub bullets: DoubleBuffer<Bullet>,
    /// The game's own generator, [`SplitMix64`]'s state ([`SplitMix64::state`]), rolled back
    /// with the rest.
    pub rng: Tracked<u64>,
    /// The clock whose ticks are frames (the loop's main clock unless set).
    pub clock: ClockId,
}

impl Game {
    /// Two ships facing each other, no bullets, the RNG seeded.
    #[must_use]
    pub fn new() -> Game {
        let ship = |x| Ship {
            x,
            y: ARENA / 2,
            ..Ship::default()
        };
        Game {
            ships: DoubleBuffer::new(vec![ship(ARENA / 4), ship(3 * ARENA / 4)]),
            bullets: DoubleBuffer::new(Vec::with_capacity(MAX_BULLETS)),
            rng: Tracked::new(vec![0x005E_ED0F_5EED]),
            clock: ClockId::default(),
        }
    }

    /// A checksum of the current state: ships, bullets and generator, each part's XXH3
    /// combined as `tickfold-snapshot` combines them.
    #[must_use]
    pub fn checksum(&self) -> u64 {
        let parts = [
            chunk_checksum(self.ships.current()),
            chunk_checksum(self.bullets.current()),
            chunk_checksum(self.rng.as_slice()),
        ];
        state_checksum(&parts, 3)
    }

    fn next_random(&mut self) -> u64 {
        let mut rng = SplitMix64::new(self.rng.as_slice()[0]);
        let x = rng.next_u64();
        let _ = self.rng.set(0, rng.state());
        x
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

type Parts = (DoubleBuffer<Ship>, DoubleBuffer<Bullet>, Tracked<u64>);

impl RollbackState for Game {
    type Ring = (Ring<Ship>, Ring<Bullet>, Ring<u64>);

    fn ring(&self, slots: usize) -> Result<Self::Ring, SnapshotError> {
        Ok((
            self.ships.ring(slots)?,
            self.bullets.ring(slots)?,
            self.rng.ring(slots)?,
        ))
    }
    fn save(&mut self, ring: &mut Self::Ring, frame: u64) -> u64 {
        (&mut self.ships, &mut self.bullets, &mut self.rng).save(ring, frame)
    }
    fn load(&mut self, ring: &mut Self::Ring, frame: u64) -> bool {
        (&mut self.ships, &mut self.bullets, &mut self.rng).load(ring, frame)
    }
    fn holds(ring: &Self::Ring, frame: u64) -> bool {
        Parts::holds(ring, frame)
    }
    fn checksum(ring: &Self::Ring, frame: u64) -> Option<u64> {
        Parts::checksum(ring, frame)
    }
}

/// A frame of the game as values, for a late joiner's [`Handover`](crate::Handover).
impl FrameValues for Game {
    type Values = <Parts as FrameValues>::Values;

    fn values(ring: &Self::Ring, frame: u64) -> Option<Self::Values> {
        Parts::values(ring, frame)
    }
    fn restore(&mut self, values: &Self::Values) {
        (&mut self.ships, &mut self.bullets, &mut self.rng).restore(values);
    }
}

/// What a render blends: the ships and bullets (the RNG is not drawn). The adapter applies
/// the core's capture rule through this.
impl Columns for Game {
    fn capture(&mut self) {
        let _ = self.ships.capture();
        let _ = self.bullets.capture();
    }
    fn clock(&self) -> ClockId {
        self.clock
    }
}

fn wrap(v: i32) -> i32 {
    v.rem_euclid(ARENA)
}

/// One frame of the game, with every player's input (a disconnected player drifts).
pub fn step(game: &mut Game, inputs: &[(Input, InputStatus)], _frame: Frame) {
    for (p, &(input, status)) in inputs.iter().enumerate() {
        let input = if status == InputStatus::Disconnected {
            0
        } else {
            input
        };
        let spread = (game.next_random() % 65) as i32 - 32;
        let Some(ship) = game.ships.get_mut(p) else {
            continue;
        };
        let ax = i32::from(input & RIGHT != 0) - i32::from(input & LEFT != 0);
        let ay = i32::from(input & DOWN != 0) - i32::from(input & UP != 0);
        ship.vx = (ship.vx + ax * THRUST).clamp(-MAX_SPEED, MAX_SPEED);
        ship.vy = (ship.vy + ay * THRUST).clamp(-MAX_SPEED, MAX_SPEED);
        ship.vx -= ship.vx / 64;
        ship.vy -= ship.vy / 64;
        ship.x = wrap(ship.x + ship.vx);
        ship.y = wrap(ship.y + ship.vy);
        ship.cooldown = ship.cooldown.saturating_sub(1);
        let fire = input & FIRE != 0 && ship.cooldown == 0;
        if fire {
            ship.cooldown = COOLDOWN;
        }
        let ship = *ship;
        if fire && game.bullets.len() < MAX_BULLETS {
            let dir = if p == 0 { 1 } else { -1 };
            game.bullets.push(Bullet {
                x: ship.x,
                y: ship.y,
                vx: dir * BULLET_SPEED + ship.vx,
                vy: spread * 8 + ship.vy,
                owner: p as u32,
                ttl: BULLET_TTL,
            });
        }
    }
    let mut i = 0;
    while i < game.bullets.len() {
        let Some(b) = game.bullets.get_mut(i) else {
            break;
        };
        b.x = wrap(b.x + b.vx);
        b.y = wrap(b.y + b.vy);
        b.ttl = b.ttl.saturating_sub(1);
        let b = *b;
        let hit = game
            .ships
            .current()
            .iter()
            .position(|s| (s.x - b.x).abs() < HIT_RADIUS && (s.y - b.y).abs() < HIT_RADIUS);
        match hit {
            Some(target) if target as u32 != b.owner => {
                if let Some(s) = game.ships.get_mut(target) {
                    s.hits += 1;
                }
                let _ = game.bullets.swap_remove(i);
            }
            _ if b.ttl == 0 => {
                let _ = game.bullets.swap_remove(i);
            }
            _ => i += 1,
        }
    }
}

/// A scripted player: a random input held for 12 frames, then another, so the other peer's
/// predictions (repeat the last input) are wrong now and then, as with a human.
#[must_use]
pub fn scripted_input(player: usize, frame: Frame) -> Input {
    let block = u64::from(frame.max(0).unsigned_abs() / 12);
    let x = SplitMix64::new(((player as u64) << 32) ^ block).next_u64();
    (x >> 8) as u8 & (UP | DOWN | LEFT | RIGHT | FIRE)
}
