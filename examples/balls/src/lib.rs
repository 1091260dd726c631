//! The bouncing-ball world shared by the facade's `demo` example, the window example
//! (`examples/window`) and the web demo (`examples/web`): plain `Copy` data in a `Vec`,
//! advanced by a fixed `dt`, with a deterministic start. A workspace-internal crate, not
//! published; no dependencies, so it builds for `wasm32-unknown-unknown` too.
#![forbid(unsafe_code)]

/// Width of the box, in cells.
pub const W: usize = 78;
/// Height of the box, in cells.
pub const H: usize = 20;

/// One ball: position in cells, velocity in cells per second.
#[derive(Copy, Clone, Debug, Default)]
pub struct Ball {
    /// Horizontal position.
    pub x: f32,
    /// Vertical position.
    pub y: f32,
    /// Horizontal velocity.
    pub vx: f32,
    /// Vertical velocity.
    pub vy: f32,
}

/// The next number in `[0, 1)` of `SplitMix64` (24 bits): the determinism kit's generator
/// (`tickfold_testing::SplitMix64::unit_f32`), written out because the kit (through
/// quickcheck's `getrandom`) does not build for `wasm32-unknown-unknown`; a test checks the
/// two agree.
fn unit(state: &mut u64) -> f32 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
}

/// The seed of [`spawn`]'s spread.
const SEED: u64 = 0x2545_F491_4F6C_DD1D;

/// A deterministic spread of `n` balls (seeded `SplitMix64`, no randomness from the OS).
#[must_use]
pub fn spawn(n: usize) -> Vec<Ball> {
    let mut state = SEED;
    let mut next = move || unit(&mut state);
    (0..n)
        .map(|_| Ball {
            x: next() * W as f32,
            y: next() * H as f32,
            vx: (next() - 0.5) * 40.0,
            vy: (next() - 0.5) * 20.0,
        })
        .collect()
}

/// One fixed step: move and bounce off the walls. `dt` is the constant tick length.
pub fn update(world: &mut [Ball], dt: f32) {
    for b in world {
        b.x += b.vx * dt;
        b.y += b.vy * dt;
        if b.x < 0.0 || b.x >= W as f32 {
            b.vx = -b.vx;
            b.x = b.x.clamp(0.0, W as f32 - 0.001);
        }
        if b.y < 0.0 || b.y >= H as f32 {
            b.vy = -b.vy;
            b.y = b.y.clamp(0.0, H as f32 - 0.001);
        }
    }
}

/// Where a ball is drawn at `alpha` between its previous and current tick.
#[must_use]
pub fn blend(prev: &Ball, cur: &Ball, alpha: f32) -> (f32, f32) {
    (
        prev.x + (cur.x - prev.x) * alpha,
        prev.y + (cur.y - prev.y) * alpha,
    )
}

#[cfg(test)]
mod tests {
    use tickfold_testing::SplitMix64;

    use super::{H, SEED, W, spawn, unit};

    #[test]
    fn the_spread_draws_the_kits_numbers() {
        let (mut state, mut kit) = (SEED, SplitMix64::new(SEED));
        for _ in 0..10_000 {
            assert_eq!(unit(&mut state), kit.unit_f32());
        }
        let mut kit = SplitMix64::new(SEED);
        for b in spawn(100) {
            assert_eq!(b.x, kit.unit_f32() * W as f32);
            assert_eq!(b.y, kit.unit_f32() * H as f32);
            assert_eq!(b.vx, (kit.unit_f32() - 0.5) * 40.0);
            assert_eq!(b.vy, (kit.unit_f32() - 0.5) * 20.0);
        }
    }
}
