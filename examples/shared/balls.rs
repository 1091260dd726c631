//! The bouncing-ball world shared by the `demo` and `window` examples: plain `Copy` data in a
//! `Vec`, advanced by a fixed `dt`, with a deterministic start.

/// Width of the box, in cells.
pub(crate) const W: usize = 78;
/// Height of the box, in cells.
pub(crate) const H: usize = 20;

/// One ball: position in cells, velocity in cells per second.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Ball {
    /// Horizontal position.
    pub(crate) x: f32,
    /// Vertical position.
    pub(crate) y: f32,
    /// Horizontal velocity.
    pub(crate) vx: f32,
    /// Vertical velocity.
    pub(crate) vy: f32,
}

/// A deterministic spread of balls (xorshift, no randomness from the OS).
pub(crate) fn spawn(n: usize) -> Vec<Ball> {
    let mut x = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 40) as f32 / (1u64 << 24) as f32
    };
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
pub(crate) fn update(world: &mut [Ball], dt: f32) {
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
pub(crate) fn blend(prev: &Ball, cur: &Ball, alpha: f32) -> (f32, f32) {
    (
        prev.x + (cur.x - prev.x) * alpha,
        prev.y + (cur.y - prev.y) * alpha,
    )
}
