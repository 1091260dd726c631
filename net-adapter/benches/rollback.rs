//! Save + load + re-simulate 8 frames, the work of one 8-frame rollback, for 1k, 10k and 100k
//! entities: through the adapter's ring (dirty chunks, no allocation) against a clone of the
//! whole state per saved frame (what `bevy_ggrs` does with its snapshot resources).
//!
//! Each frame moves one sixteenth of the entities (the awake ones, a rotating block), so the
//! ring copies only the chunks written since; a game that writes every entity every frame
//! copies everything and gains only the allocations.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tickfold_ggrs::RollbackState;
use tickfold_snapshot::{DoubleBuffer, chunk_checksum};

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
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
