//! A plain-data world of 60,000 particles in a `Vec`, folded on a fake clock and drawn by
//! interpolation through `tickfold-snapshot`'s `DoubleBuffer`. The loop code is not specific
//! to that storage: the step's events go through `apply_step` (`examples/drive`, the `tickfold-drive` crate), one generic
//! function over tickfold-core's `Columns`/`BlendColumns` traits, and the same function drives
//! the hecs world of the `hecs_world` example, where the storage is the adapter's tracked
//! columns instead of a `Vec` of structs.
//!
//! The particles live in 60 clouds; each 60 Hz tick only the clouds that are awake move
//! (writes go through `slice_mut`, which stamps 4 KiB chunks), a few particles are spawned and
//! despawned within the reserved capacity, and frames arrive at 144 Hz with jitter and an
//! occasional 70 ms stall, so some steps run several catch-up updates. `before_update`
//! captures only before a step's last update, and only the chunks written since the previous
//! capture. The example prints, for the first steps and in total, how many captures were made
//! and how many bytes they copied per step, against a full copy before every update; then it
//! draws the last frame as an ASCII density map from the blended positions. It checks itself:
//! one capture per step with updates, the back against a naive clone of the state before the
//! last update, and the instance buffer against the blend.
//!
//! ```text
//! cargo run --release --example plain_world --features snapshot
//! ```

use tickfold::snapshot::DoubleBuffer;
use tickfold::{Interpolate, LoopConfig, LoopState, Nanos, Period};

const CLOUDS: usize = 60;
const PER_CLOUD: usize = 1_000;
const FRAMES: u64 = 1_440; // 10 s at 144 Hz
const MAP: (usize, usize) = (64, 16);

#[derive(Copy, Clone, Debug, PartialEq)]
struct Particle {
    pos: [f32; 2],
    vel: [f32; 2],
    age: u32,
    cloud: u32,
}

impl Interpolate for Particle {
    /// Positions blend; everything else is the current tick's.
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        Particle {
            pos: self.pos.interpolate(&next.pos, alpha),
            ..*next
        }
    }
}

use tickfold_drive::apply_step;
use tickfold_testing::SplitMix64;

/// Uniform in `[-1, 1)`.
fn signed(rng: &mut SplitMix64) -> f32 {
    rng.unit_f32() * 2.0 - 1.0
}

fn particle(rng: &mut SplitMix64, cloud: usize) -> Particle {
    let angle = cloud as f32 * 0.618 * std::f32::consts::TAU;
    let centre = [angle.cos() * 0.6, angle.sin() * 0.6];
    Particle {
        pos: [centre[0] + signed(rng) * 0.1, centre[1] + signed(rng) * 0.1],
        vel: [signed(rng) * 0.3, signed(rng) * 0.3],
        age: 0,
        cloud: cloud as u32,
    }
}

/// One fixed update: the awake clouds move (a contiguous range each, stamped by
/// `slice_mut`), bounce off the unit box, and age.
fn update(world: &mut DoubleBuffer<Particle>, tick: u64, dt: f32) {
    for cloud in 0..CLOUDS {
        // A cloud is awake for 20 ticks out of every 300, staggered.
        if (tick + cloud as u64 * 37) % 300 >= 20 {
            continue;
        }
        let start = cloud * PER_CLOUD;
        let end = (start + PER_CLOUD).min(world.len());
        let Ok(slice) = world.slice_mut(start..end) else {
            continue;
        };
        for p in slice {
            for k in 0..2 {
                p.pos[k] += p.vel[k] * dt;
                if p.pos[k].abs() > 1.0 {
                    p.vel[k] = -p.vel[k];
                    p.pos[k] = p.pos[k].clamp(-1.0, 1.0);
                }
            }
            p.age += 1;
        }
    }
}

fn main() {
    let rate = Period::from_hz(60).expect("60 Hz is a valid rate");
    let mut state = LoopState::new(LoopConfig::new(rate), Nanos(0)).expect("valid config");
    let mut rng = SplitMix64::new(0x5EED_1234_ABCD_0001);
    let count = CLOUDS * PER_CLOUD;
    // Spare capacity so spawns never allocate.
    let mut particles = Vec::with_capacity(count + 1_000);
    particles.extend((0..count).map(|i| particle(&mut rng, i / PER_CLOUD)));
    let mut world = DoubleBuffer::new(particles);
    let bytes = world.len() * size_of::<Particle>();
    println!(
        "{} particles of {} B ({:.2} MB), {} chunks of {} particles",
        world.len(),
        size_of::<Particle>(),
        bytes as f64 / 1e6,
        world.tracked().chunk_count(),
        world.tracked().chunk_len()
    );
    println!("\nstep  frame ms  updates  captures  chunks copied  bytes copied  alpha");

    let (mut now, mut steps, mut updates, mut naive_bytes) = (0_u64, 0_u64, 0_u64, 0_u64);
    let (mut last_alpha, mut steps_with_updates, mut captures) = (0.0, 0_u64, 0_u64);
    let mut before_last = Vec::new();
    let mut drawn = Vec::with_capacity(world.capacity());
    let mut checked = 0_u64;
    for frame in 1..=FRAMES {
        let jitter = rng.next_u64() % 1_000_000;
        let delta = if frame % 90 == 0 {
            70_000_000
        } else {
            6_444_444 + jitter
        };
        now += delta;
        let before = world.stats();
        let events;
        (state, events) = state.step(Nanos(now));
        let oracle = frame % 100 == 0;
        let stepped = apply_step(
            &events,
            &mut world,
            |world, tick| {
                if tick.last_in_step && oracle {
                    before_last = world.current().to_vec(); // the naive oracle, now and then
                }
                update(world, tick.index, tick.dt_secs() as f32);
                // Every 30 ticks one particle expires and one is born, in both buffers (and
                // so in the oracle of the back, too).
                if tick.index % 30 == 0 {
                    let gone = (rng.next_u64() as usize) % world.len();
                    let cloud = (rng.next_u64() as usize) % CLOUDS;
                    let born = particle(&mut rng, cloud);
                    let _ = world.swap_remove(gone);
                    world.push(born);
                    if tick.last_in_step && oracle {
                        before_last.swap_remove(gone);
                        before_last.push(born);
                    }
                }
                naive_bytes += (world.len() * size_of::<Particle>()) as u64;
            },
            &mut drawn,
        );
        if stepped.updates > 0 && oracle {
            assert!(
                world.previous() == before_last,
                "frame {frame}: the back is not the state before the last update"
            );
            checked += 1;
        }
        if let Some(alpha) = stepped.alpha {
            last_alpha = alpha;
            assert!(
                drawn.iter().copied().eq(world.blend(alpha)),
                "frame {frame}: instances"
            );
        }
        steps += 1;
        steps_with_updates += u64::from(stepped.updates > 0);
        updates += stepped.updates;
        captures += stepped.captures;
        let after = world.stats();
        if frame <= 8 || frame % 90 == 0 && frame <= 270 {
            println!(
                "{frame:>4}  {:>8.2}  {:>7}  {:>8}  {:>13}  {:>12}  {last_alpha:.3}",
                delta as f64 / 1e6,
                stepped.updates,
                after.captures - before.captures,
                after.chunks - before.chunks,
                after.bytes - before.bytes,
            );
        }
    }
    assert_eq!(
        captures, steps_with_updates,
        "one capture per step with updates, before its last"
    );

    let stats = world.stats();
    println!(
        "\n{steps} steps, {updates} updates, {} captures ({} full), {:.2} MB copied in all",
        stats.captures,
        stats.full,
        stats.bytes as f64 / 1e6
    );
    println!(
        "per step: {:.3} captures, {:.1} KB copied; a full copy before every update would copy {:.1} KB per step ({:.0}x more)",
        stats.captures as f64 / steps as f64,
        stats.bytes as f64 / steps as f64 / 1e3,
        naive_bytes as f64 / steps as f64 / 1e3,
        naive_bytes as f64 / stats.bytes.max(1) as f64
    );
    println!(
        "the back matched a naive clone of the state before the last update in {checked} checked steps"
    );

    // Draw the last frame from blended positions.
    let mut density = vec![0_u32; MAP.0 * MAP.1];
    for p in &drawn {
        let x = ((p.pos[0] + 1.0) / 2.0 * (MAP.0 - 1) as f32).round() as usize;
        let y = ((p.pos[1] + 1.0) / 2.0 * (MAP.1 - 1) as f32).round() as usize;
        density[y.min(MAP.1 - 1) * MAP.0 + x.min(MAP.0 - 1)] += 1;
    }
    println!("\nlast frame at alpha {last_alpha:.3}:");
    for row in density.chunks(MAP.0) {
        let line: String = row
            .iter()
            .map(|&n| match n {
                0 => ' ',
                1..=20 => '.',
                21..=200 => 'o',
                _ => '@',
            })
            .collect();
        println!("|{line}|");
    }
}
