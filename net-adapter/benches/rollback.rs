//! Save + load + re-simulate 8 frames, the work of one 8-frame rollback, for 1k, 10k and 100k
//! entities: through the adapter's ring (dirty chunks, no allocation) against a clone of the
//! whole state per saved frame (what `bevy_ggrs` does with its snapshot resources), and against
//! a hecs 0.11 world holding the same data as `Pos` and `Vel` components, rolled back whole.
//!
//! Each frame moves one sixteenth of the entities (the awake ones, a rotating block), so the
//! ring copies only the chunks written since; a game that writes every entity every frame
//! copies everything and gains only the allocations.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tickfold_ggrs::RollbackState;
use tickfold_snapshot::{DoubleBuffer, chunk_checksum, state_checksum};

#[derive(Copy, Clone, Debug, Default, PartialEq, bytemuck::NoUninit)]
#[repr(C)]
struct Body {
    pos: [f32; 2],
    vel: [f32; 2],
}

fn awake(n: usize, frame: u64) -> core::ops::Range<usize> {
    let block = n / 16;
    let from = (frame as usize % 16) * block;
    from..from + block
}

fn simulate(bodies: &mut [Body]) {
    for b in bodies {
        b.pos[0] += b.vel[0] / 60.0;
        b.pos[1] += b.vel[1] / 60.0;
        b.vel[1] -= 9.81 / 60.0;
    }
}

#[derive(Copy, Clone, Debug, Default, PartialEq, bytemuck::NoUninit)]
#[repr(C)]
struct Pos([f32; 2]);

#[derive(Copy, Clone, Debug, Default, PartialEq, bytemuck::NoUninit)]
#[repr(C)]
struct Vel([f32; 2]);

/// The same step as `simulate`, on hecs's component columns.
fn simulate_columns(pos: &mut [Pos], vel: &mut [Vel]) {
    for (p, v) in pos.iter_mut().zip(vel.iter_mut()) {
        p.0[0] += v.0[0] / 60.0;
        p.0[1] += v.0[1] / 60.0;
        v.0[1] -= 9.81 / 60.0;
    }
}

/// Moves the awake block of a world spawned in one batch: one archetype, row `i` is entity `i`
/// (the column slices are the cheapest access hecs offers; a query cannot skip to a block).
fn simulate_world(world: &mut hecs::World, range: core::ops::Range<usize>) {
    for arch in world.archetypes() {
        if let (Some(mut pos), Some(mut vel)) = (arch.get::<&mut Pos>(), arch.get::<&mut Vel>()) {
            simulate_columns(&mut pos[range.clone()], &mut vel[range.clone()]);
        }
    }
}

/// One saved frame of a hecs world rolled back whole: every archetype's entity ids and every
/// component column, concatenated in archetype order, into buffers reused from frame to frame
/// (no allocation once warm, the cheapest correct copy hecs allows: a memcpy per column).
#[derive(Default)]
struct WorldSave {
    ids: Vec<u32>,
    pos: Vec<Pos>,
    vel: Vec<Vel>,
    checksum: u64,
}

impl WorldSave {
    fn save(&mut self, world: &hecs::World) {
        self.ids.clear();
        self.pos.clear();
        self.vel.clear();
        for arch in world.archetypes().filter(|a| !a.is_empty()) {
            self.ids.extend_from_slice(arch.ids());
            if let Some(pos) = arch.get::<&Pos>() {
                self.pos.extend_from_slice(&pos);
            }
            if let Some(vel) = arch.get::<&Vel>() {
                self.vel.extend_from_slice(&vel);
            }
        }
        let sums = [
            chunk_checksum(&self.ids),
            chunk_checksum(&self.pos),
            chunk_checksum(&self.vel),
        ];
        self.checksum = state_checksum(&sums, self.ids.len());
    }

    /// Writes every component back. Returns false, writing nothing, if the entity set or its
    /// layout changed since the save: the bench's world never spawns or despawns, so it never
    /// pays for the clear-and-respawn a game with spawns would need then.
    fn load(&self, world: &mut hecs::World) -> bool {
        let mut at = 0;
        for arch in world.archetypes().filter(|a| !a.is_empty()) {
            let ids = arch.ids();
            if self.ids.get(at..at + ids.len()) != Some(ids) {
                return false;
            }
            at += ids.len();
        }
        if at != self.ids.len() {
            return false;
        }
        let (mut p, mut v) = (0, 0);
        for arch in world.archetypes().filter(|a| !a.is_empty()) {
            if let Some(mut pos) = arch.get::<&mut Pos>() {
                let len = pos.len();
                pos.copy_from_slice(&self.pos[p..p + len]);
                p += len;
            }
            if let Some(mut vel) = arch.get::<&mut Vel>() {
                let len = vel.len();
                vel.copy_from_slice(&self.vel[v..v + len]);
                v += len;
            }
        }
        true
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("rollback_8_frames");
    for n in [1_000usize, 10_000, 100_000] {
        let init: Vec<Body> = (0..n)
            .map(|i| Body {
                pos: [i as f32, 0.0],
                vel: [1.0, 2.0],
            })
            .collect();

        // The adapter's path: ring of 9 frames, save each frame, load 8 back, re-simulate.
        let mut world = DoubleBuffer::new(init.clone());
        let mut ring = world.ring(9).expect("ring");
        let mut frame = 0u64;
        for _ in 0..9 {
            let _ = world.save(&mut ring, frame);
            simulate(world.slice_mut(awake(n, frame)).expect("in range"));
            frame += 1;
        }
        group.bench_with_input(BenchmarkId::new("ring", n), &n, |b, _| {
            b.iter(|| {
                let to = frame - 8;
                assert!(world.load(&mut ring, to));
                for f in to..frame {
                    if f > to {
                        black_box(world.save(&mut ring, f));
                    }
                    simulate(world.slice_mut(awake(n, f)).expect("in range"));
                }
                black_box(world.save(&mut ring, frame));
            });
        });

        // Clone per frame: a Vec clone for each save (plus a checksum, as ggrs needs one),
        // a clone back for the load.
        let mut state = init.clone();
        let mut saved: Vec<Option<(Vec<Body>, u64)>> = vec![None; 9];
        for f in 0..9u64 {
            saved[f as usize % 9] = Some((state.clone(), chunk_checksum(&state)));
            simulate(&mut state[awake(n, f)]);
        }
        let end = 9u64;
        group.bench_with_input(BenchmarkId::new("clone", n), &n, |b, _| {
            b.iter(|| {
                let to = end - 8;
                if let Some((s, _)) = &saved[to as usize % 9] {
                    state = s.clone();
                }
                for f in to..end {
                    if f > to {
                        saved[f as usize % 9] = Some((state.clone(), chunk_checksum(&state)));
                    }
                    simulate(&mut state[awake(n, f)]);
                }
                saved[end as usize % 9] = Some((state.clone(), chunk_checksum(&state)));
            });
        });

        // A hecs world rolled back whole: the same data as `Pos` and `Vel` components, each
        // save copies every component of every entity out, each load writes every one back.
        let mut world = hecs::World::new();
        world.spawn_batch(init.iter().map(|b| (Pos(b.pos), Vel(b.vel))));
        let mut saves: Vec<WorldSave> = (0..9).map(|_| WorldSave::default()).collect();
        for f in 0..9u64 {
            saves[f as usize % 9].save(&world);
            simulate_world(&mut world, awake(n, f));
        }
        let mut check = WorldSave::default();
        check.save(&world);
        assert!(
            check
                .pos
                .iter()
                .zip(&check.vel)
                .map(|(p, v)| (p.0, v.0))
                .eq(state.iter().map(|b| (b.pos, b.vel))),
            "the hecs world and the cloned state simulate the same frames"
        );
        group.bench_with_input(BenchmarkId::new("hecs_whole", n), &n, |b, _| {
            b.iter(|| {
                let to = end - 8;
                assert!(saves[to as usize % 9].load(&mut world));
                for f in to..end {
                    if f > to {
                        saves[f as usize % 9].save(&world);
                        black_box(saves[f as usize % 9].checksum);
                    }
                    simulate_world(&mut world, awake(n, f));
                }
                saves[end as usize % 9].save(&world);
                black_box(saves[end as usize % 9].checksum);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
