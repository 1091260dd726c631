//! A hecs world driven by the fold and interpolated by `tickfold-hecs`, on a fake clock, with
//! the same loop code as the plain `Vec` world of the `plain_world` example: the step's events
//! go through `apply_step` (`examples/drive`, the `tickfold-drive` crate), one generic function over tickfold-core's
//! `Columns`/`BlendColumns` traits. Here the storage is the world and its trackers (a tuple of
//! two `Interpolated`, one per component type), which take part through those two traits in a
//! dozen lines (`Scene` below); there it is a `DoubleBuffer`.
//!
//! 4,000 entities move at a fixed 60 Hz (positions as glam `Vec3`, rotations as `Quat`), wrap
//! around the edges of their box (a teleport: the epoch is bumped, so the wrap is drawn at its
//! newest place instead of being smeared across the box), and live for a random number of
//! ticks before being despawned (with ghosts for fade-outs) and replaced by new spawns. Frames
//! come at 144 Hz with jitter, and every 90th frame stalls for 70 ms, so the fold runs several
//! catch-up updates in one step; the trackers capture only before each step's last update,
//! the rule of `Tick::last_in_step`. At every render the shared code blends the positions into
//! one reused instance buffer, and the rotations are read through the visitor. At the end it
//! prints entities, captures against updates, blended samples by reason, and teleports bumped
//! and honoured, and checks that exactly one capture was made per step with updates and that
//! the instance buffer held every live entity.
//!
//! ```text
//! cargo run --release --example hecs_world --features hecs,glam
//! ```

use tickfold::glam::{Quat, Vec3};
use tickfold::hecs_adapter::hecs::{Entity, World};
use tickfold::hecs_adapter::{Counts, Interpolated, Tracker};
use tickfold::{BlendColumns, Columns, LoopConfig, LoopState, Nanos, Period};

/// Positions (with ghosts for fade-outs) and rotations, tracked together.
type Trackers = (Interpolated<Vec3>, Interpolated<Quat>);

const ENTITIES: usize = 4_000;
const HALF_BOX: f32 = 50.0;
const FRAMES: u64 = 1_440; // 10 s at 144 Hz

struct Velocity(Vec3);
struct Spin(Quat);
struct Expires(u64);

use tickfold_drive::apply_step;
use tickfold_testing::SplitMix64;

/// Uniform in `[-1, 1)`.
fn signed(rng: &mut SplitMix64) -> f32 {
    rng.unit_f32() * 2.0 - 1.0
}

/// The world and its trackers as one storage for the shared loop code: a capture copies both
/// tracked columns through the `Tracker` tuple, every update ages the ghosts, and the blend is
/// the positions' instance buffer.
struct Scene {
    world: World,
    trackers: Trackers,
}

impl Columns for Scene {
    fn capture(&mut self) {
        self.trackers.capture(&mut self.world);
    }

    fn note_update(&mut self) {
        self.trackers.0.in_world(&mut self.world).note_update();
        self.trackers.1.in_world(&mut self.world).note_update();
    }
}

impl BlendColumns for Scene {
    type Item = Vec3;

    fn blend_into<E: Extend<Vec3>>(&self, alpha: f64, out: &mut E) {
        let _ = self.trackers.0.blend_into(&self.world, alpha, out);
    }
}

fn spawn_one(world: &mut World, interp: &mut Trackers, rng: &mut SplitMix64, tick: u64) -> Entity {
    let position = Vec3::new(signed(rng), signed(rng), signed(rng)) * HALF_BOX;
    let velocity = Vec3::new(signed(rng), signed(rng), signed(rng)) * 20.0;
    let spin = Quat::from_rotation_y(signed(rng) * 0.2);
    let life = 60 + rng.next_u64() % 600;
    // The bundle helper adds both trackers' companions: the entity never moves archetype.
    interp.spawn(
        world,
        (
            position,
            Quat::IDENTITY,
            Velocity(velocity),
            Spin(spin),
            Expires(tick + life),
        ),
    )
}

#[derive(Default)]
struct Totals {
    updates: u64,
    steps_with_catch_up: u64,
    steps_with_updates: u64,
    spawned: u64,
    despawned: u64,
    teleports_bumped: u64,
    positions: Counts,
    rotations: Counts,
    ghosts_drawn: u64,
    frames: u64,
}

fn update(
    world: &mut World,
    interp: &mut Trackers,
    rng: &mut SplitMix64,
    tick: u64,
    dt: f32,
    totals: &mut Totals,
) {
    let mut wrapped = Vec::new();
    let mut expired = Vec::new();
    for (e, p, q, v, s, x) in
        world.query_mut::<(Entity, &mut Vec3, &mut Quat, &Velocity, &Spin, &Expires)>()
    {
        *p += v.0 * dt;
        *q = (*q * s.0).normalize();
        // Leaving the box: wrap to the other side. That is a jump, not a motion.
        let outside = p.abs().cmpgt(Vec3::splat(HALF_BOX));
        if outside.any() {
            *p = Vec3::select(
                outside,
                -p.signum() * HALF_BOX + (*p - p.signum() * HALF_BOX),
                *p,
            );
            wrapped.push(e);
        }
        if x.0 <= tick {
            expired.push(e);
        }
    }
    for e in wrapped {
        // Bumped after the move here; before would work the same.
        interp.0.teleport(world, e).expect("a live, tracked entity");
        totals.teleports_bumped += 1;
    }
    for e in expired {
        interp.despawn(world, e).expect("a live entity");
        totals.despawned += 1;
    }
    while world.len() < ENTITIES as u32 {
        spawn_one(world, interp, rng, tick);
        totals.spawned += 1;
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut scene = Scene {
        world: World::new(),
        trackers: (Interpolated::new().keep_ghosts(6), Interpolated::new()),
    };
    let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..ENTITIES {
        spawn_one(&mut scene.world, &mut scene.trackers, &mut rng, 0);
    }

    let config = LoopConfig::new(Period::from_hz(60)?);
    let mut state = LoopState::new(config, Nanos(0))?;
    let mut events = tickfold::Events::new();
    let (mut instances, mut read) = (Vec::with_capacity(ENTITIES), Vec::with_capacity(ENTITIES));
    let mut totals = Totals::default();
    let mut now = Nanos(0);
    let mut captures = 0;
    for frame in 1..=FRAMES {
        // A fake clock: 144 Hz with ±0.5 ms jitter, and a 70 ms stall every 90th frame.
        let jitter = (rng.next_u64() % 1_000_000) as i64 - 500_000;
        let stall = if frame % 90 == 0 { 70_000_000 } else { 0 };
        now = Nanos(now.0 + (1_000_000_000 / 144 + jitter + stall) as u64);
        state.advance_into(now, &mut events);
        let stepped = apply_step(
            &events,
            &mut scene,
            |scene, tick| {
                let (world, trackers) = (&mut scene.world, &mut scene.trackers);
                let dt = tick.dt_secs() as f32;
                update(world, trackers, &mut rng, tick.index, dt, &mut totals);
            },
            &mut instances,
        );
        totals.updates += stepped.updates;
        totals.steps_with_catch_up += u64::from(stepped.updates > 1);
        totals.steps_with_updates += u64::from(stepped.updates > 0);
        captures += stepped.captures;
        let Some(alpha) = stepped.alpha else { continue };
        // The instance buffer the shared code filled, and what else this renderer reads.
        let (world, trackers) = (&scene.world, &scene.trackers);
        totals.frames += 1;
        totals
            .positions
            .add(&trackers.0.extract(world, alpha, &mut read));
        assert!(read == instances && instances.len() == world.len() as usize);
        let mut turned = 0.0_f32;
        let rotations = trackers
            .1
            .for_each(world, alpha, |_, q| turned += q.into_value().w.abs());
        totals.rotations.add(&rotations);
        totals.ghosts_drawn += trackers
            .0
            .ghosts()
            .iter()
            .filter(|g| g.fade(alpha, 6) > 0.0)
            .count() as u64;
        assert!(turned.is_finite());
    }
    let (world, interp) = (&scene.world, &scene.trackers);
    assert_eq!(captures, totals.steps_with_updates);
    let stats = interp.0.stats();
    assert_eq!(
        (stats.captures, stats.updates),
        (totals.steps_with_updates, totals.updates),
        "one capture per step with updates, before its last"
    );
    let p = &totals.positions;
    println!(
        "hecs world, 60 Hz ticks, {} frames at ~144 Hz with a 70 ms stall every 90th",
        totals.frames
    );
    println!(
        "  entities        {} live; {} spawned, {} despawned (ghosts recorded: {})",
        world.len(),
        totals.spawned + ENTITIES as u64,
        totals.despawned,
        stats.ghosts
    );
    println!(
        "  updates         {} in {} frames; {} steps ran catch-up updates",
        totals.updates, totals.frames, totals.steps_with_catch_up
    );
    println!(
        "  captures        {} for {} updates ({} values copied, {} adopted)",
        stats.captures, totals.updates, stats.values_captured, stats.adopted
    );
    println!(
        "  position reads  {}: {} blended, {} newest after spawn, {} newest after teleport",
        p.total(),
        p.interpolated,
        p.fresh,
        p.teleports
    );
    println!(
        "  rotation reads  {}: {} blended (slerp), {} newest after spawn",
        totals.rotations.total(),
        totals.rotations.interpolated,
        totals.rotations.fresh
    );
    println!(
        "  teleports       {} bumped; honoured in {} position reads (newest place until the next capture)",
        totals.teleports_bumped, p.teleports
    );
    println!("  ghosts drawn    {}", totals.ghosts_drawn);
    Ok(())
}
