//! Capture and blend of glam `Vec3` positions and `Quat` rotations in a hecs world of 10k, 100k
//! and 1M entities spread over four archetypes, against
//! * `limit`: a hand-written loop over flat arrays of the same values (the bound);
//! * `memcpy`: one `copy_from_slice` of the same bytes (capture groups: the bandwidth floor);
//! * `naive`: a `Previous<T>` component per entity, read and written one entity at a time
//!   through `World::get`;
//! * `query_mut`: a user-side companion of the same layout filled by `World::query_mut` (the
//!   other capture route the adapter could take);
//! * `hecs_query`: a plain `World::query` with `Entity` over a user-side `Previous<Vec3>`
//!   (what the visitor costs at least, since it hands out entity handles).
//!
//! Plus the structural cost of spawning through the adapter's bundle helper against adding
//! the companion after spawn. Run with
//! `cargo bench -p tickfold-hecs --features glam --bench capture -- --warm-up-time 1 --measurement-time 2`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use hecs::{Entity, World};
use tickfold_hecs::{Interpolate, Interpolated, Tracker};

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];
const ALPHA: f64 = 0.37;

#[derive(Copy, Clone)]
struct Velocity(#[allow(dead_code)] Vec3);
#[derive(Copy, Clone)]
struct Tag(#[allow(dead_code)] u32);
#[derive(Copy, Clone)]
struct Wide(#[allow(dead_code)] [u64; 2]);

/// The naive baseline's companion, and (with the epoch) the `query_mut` route's.
#[derive(Copy, Clone)]
struct Previous<T> {
    value: T,
    /// Not read: it gives the `query_mut` route the adapter's companion layout.
    #[allow(dead_code)]
    epoch: u32,
}

struct Setup {
    world: World,
    interp: (Interpolated<Vec3>, Interpolated<Quat>),
    entities: Vec<Entity>,
    with_rotation: Vec<Entity>,
    flat_pos: (Vec<Vec3>, Vec<Vec3>),
    flat_rot: (Vec<Quat>, Vec<Quat>),
}

fn value(i: usize) -> (Vec3, Quat) {
    let f = i as f32;
    let p = Vec3::new(f * 0.5, (f * 0.25).sin(), -f);
    (p, Quat::from_rotation_y(f * 0.001).normalize())
}

/// `n` entities over four archetypes: two with a rotation, all with a position, each with the
/// adapter's companions and the baselines' `Previous` components.
fn setup(n: usize) -> Setup {
    let mut world = World::new();
    let mut interp = (Interpolated::<Vec3>::new(), Interpolated::<Quat>::new());
    let (mut entities, mut with_rotation) = (Vec::with_capacity(n), Vec::new());
    for i in 0..n {
        let (p, q) = value(i);
        let prev = Previous { value: p, epoch: 0 };
        let prev_q = Previous { value: q, epoch: 0 };
        let e = match i % 4 {
            0 => interp.spawn(&mut world, (p, prev, Velocity(p))),
            1 => interp.spawn(&mut world, (p, prev, Velocity(p), q, prev_q)),
            2 => interp.spawn(&mut world, (p, prev, Tag(i as u32))),
            _ => interp.spawn(&mut world, (p, prev, q, prev_q, Wide([i as u64; 2]))),
        };
        entities.push(e);
        if i % 2 == 1 {
            with_rotation.push(e);
        }
    }
    interp.capture(&mut world);
    perturb(&mut world);
    let cur: Vec<Vec3> = (0..n).map(|i| value(i).0 + Vec3::ONE).collect();
    let rot: Vec<Quat> = (0..n / 2).map(|i| value(i).1).collect();
    Setup {
        world,
        interp,
        entities,
        with_rotation,
        flat_pos: (
            cur.iter().map(|p| *p - Vec3::new(1.0, 0.5, 0.25)).collect(),
            cur,
        ),
        flat_rot: (
            rot.clone(),
            rot.iter()
                .map(|q| *q * Quat::from_rotation_x(0.1))
                .collect(),
        ),
    }
}

/// Moves everything once so that previous and current values differ (a capture bench leaves
/// them equal, and equal rotations skip the slerp).
fn perturb(world: &mut World) {
    for (p, q) in world.query_mut::<(&mut Vec3, Option<&mut Quat>)>() {
        *p += Vec3::new(1.0, 0.5, 0.25);
        if let Some(q) = q {
            *q = (*q * Quat::from_rotation_x(0.1)).normalize();
        }
    }
}

fn capture_and_blend(c: &mut Criterion) {
    for n in SIZES {
        let mut s = setup(n);
        let mut g = c.benchmark_group("capture_vec3");
        tune(&mut g, n);
        g.throughput(Throughput::Elements(n as u64));
        let mut only_pos = Interpolated::<Vec3>::new();
        g.bench_function(BenchmarkId::new("adapter", n), |b| {
            b.iter(|| only_pos.capture(black_box(&mut s.world)))
        });
        g.bench_function(BenchmarkId::new("query_mut", n), |b| {
            b.iter(|| {
                for (prev, cur) in s.world.query_mut::<(&mut Previous<Vec3>, &Vec3)>() {
                    prev.value = *cur;
                }
            })
        });
        g.bench_function(BenchmarkId::new("memcpy", n), |b| {
            // The same bytes as one `copy_from_slice`: the memory-bandwidth floor.
            let (mut prev, cur) = (s.flat_pos.0.clone(), &s.flat_pos.1);
            b.iter(|| {
                prev.copy_from_slice(cur);
                black_box(&prev);
            })
        });
        g.bench_function(BenchmarkId::new("limit", n), |b| {
            // Into a scratch copy: the blend's flat arrays must keep differing values.
            let (mut prev, cur) = (s.flat_pos.0.clone(), &s.flat_pos.1);
            b.iter(|| {
                for (p, c) in prev.iter_mut().zip(cur.iter()) {
                    *p = *c;
                }
                black_box(&prev);
            })
        });
        g.bench_function(BenchmarkId::new("naive", n), |b| {
            b.iter(|| {
                for &e in &s.entities {
                    let cur = *s.world.get::<&Vec3>(e).unwrap();
                    s.world.get::<&mut Previous<Vec3>>(e).unwrap().value = cur;
                }
            })
        });
        g.finish();

        perturb(&mut s.world);
        let mut g = c.benchmark_group("blend_vec3");
        tune(&mut g, n);
        g.throughput(Throughput::Elements(n as u64));
        let mut out: Vec<Vec3> = Vec::with_capacity(n);
        g.bench_function(BenchmarkId::new("adapter_extract", n), |b| {
            b.iter(|| s.interp.0.extract(&s.world, black_box(ALPHA), &mut out))
        });
        g.bench_function(BenchmarkId::new("adapter_visit", n), |b| {
            b.iter(|| {
                out.clear();
                s.interp
                    .0
                    .for_each(&s.world, black_box(ALPHA), |_, v| out.push(v.into_value()))
            })
        });
        g.bench_function(BenchmarkId::new("hecs_query", n), |b| {
            b.iter(|| {
                out.clear();
                let mut q = s.world.query::<(Entity, &Vec3, &Previous<Vec3>)>();
                for (e, cur, prev) in q.iter() {
                    black_box(e);
                    out.push(prev.value.interpolate(cur, black_box(ALPHA)));
                }
            })
        });
        g.bench_function(BenchmarkId::new("limit", n), |b| {
            let (prev, cur) = &s.flat_pos;
            b.iter(|| {
                let a = black_box(ALPHA) as f32;
                out.clear();
                out.extend(prev.iter().zip(cur).map(|(p, c)| *p + (*c - *p) * a));
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("naive", n), |b| {
            b.iter(|| {
                out.clear();
                for &e in &s.entities {
                    let cur = *s.world.get::<&Vec3>(e).unwrap();
                    let prev = s.world.get::<&Previous<Vec3>>(e).unwrap().value;
                    out.push(prev.interpolate(&cur, black_box(ALPHA)));
                }
            })
        });
        g.finish();

        let half = n / 2;
        let mut g = c.benchmark_group("capture_quat");
        tune(&mut g, n);
        g.throughput(Throughput::Elements(half as u64));
        let mut only_rot = Interpolated::<Quat>::new();
        g.bench_function(BenchmarkId::new("adapter", n), |b| {
            b.iter(|| only_rot.capture(black_box(&mut s.world)))
        });
        g.bench_function(BenchmarkId::new("query_mut", n), |b| {
            b.iter(|| {
                for (prev, cur) in s.world.query_mut::<(&mut Previous<Quat>, &Quat)>() {
                    prev.value = *cur;
                }
            })
        });
        g.bench_function(BenchmarkId::new("limit", n), |b| {
            let (mut prev, cur) = (s.flat_rot.0.clone(), &s.flat_rot.1);
            b.iter(|| {
                for (p, c) in prev.iter_mut().zip(cur.iter()) {
                    *p = *c;
                }
                black_box(&prev);
            })
        });
        g.bench_function(BenchmarkId::new("memcpy", n), |b| {
            // The same bytes as one `copy_from_slice`: the memory-bandwidth floor.
            let (mut prev, cur) = (s.flat_rot.0.clone(), &s.flat_rot.1);
            b.iter(|| {
                prev.copy_from_slice(cur);
                black_box(&prev);
            })
        });
        g.bench_function(BenchmarkId::new("naive", n), |b| {
            b.iter(|| {
                for &e in &s.with_rotation {
                    let cur = *s.world.get::<&Quat>(e).unwrap();
                    s.world.get::<&mut Previous<Quat>>(e).unwrap().value = cur;
                }
            })
        });
        g.finish();

        perturb(&mut s.world);
        let mut g = c.benchmark_group("blend_quat");
        tune(&mut g, n);
        g.throughput(Throughput::Elements(half as u64));
        let mut out: Vec<Quat> = Vec::with_capacity(half);
        g.bench_function(BenchmarkId::new("adapter_extract", n), |b| {
            b.iter(|| s.interp.1.extract(&s.world, black_box(ALPHA), &mut out))
        });
        g.bench_function(BenchmarkId::new("limit", n), |b| {
            let (prev, cur) = &s.flat_rot;
            b.iter(|| {
                let a = black_box(ALPHA);
                out.clear();
                out.extend(prev.iter().zip(cur).map(|(p, c)| p.interpolate(c, a)));
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("naive", n), |b| {
            b.iter(|| {
                out.clear();
                for &e in &s.with_rotation {
                    let cur = *s.world.get::<&Quat>(e).unwrap();
                    let prev = s.world.get::<&Previous<Quat>>(e).unwrap().value;
                    out.push(prev.interpolate(&cur, black_box(ALPHA)));
                }
            })
        });
        g.finish();
    }
}

fn tune(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, n: usize) {
    if n >= 1_000_000 {
        g.sample_size(10);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));
    }
}

/// Spawning 10k entities with a position and a velocity, three ways.
fn structural(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut g = c.benchmark_group("spawn");
    g.throughput(Throughput::Elements(N as u64));
    let fresh = || (World::new(), Interpolated::<Vec3>::new());
    g.bench_function(BenchmarkId::new("bundle_helper", N), |b| {
        b.iter_batched(
            fresh,
            |(mut world, mut interp)| {
                for i in 0..N {
                    let (p, _) = value(i);
                    interp.spawn(&mut world, (p, Velocity(p)));
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function(BenchmarkId::new("companion_in_bundle", N), |b| {
        b.iter_batched(
            fresh,
            |(mut world, interp)| {
                for i in 0..N {
                    let (p, _) = value(i);
                    let c = interp.companions(&p);
                    world.spawn((p, c.previous, c.stamp, Velocity(p)));
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function(BenchmarkId::new("insert_after_spawn", N), |b| {
        b.iter_batched(
            fresh,
            |(mut world, interp)| {
                for i in 0..N {
                    let (p, _) = value(i);
                    let e = world.spawn((p, Velocity(p)));
                    let c = interp.companions(&p);
                    world.insert(e, (c.previous, c.stamp)).unwrap();
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function(BenchmarkId::new("plain_spawn", N), |b| {
        b.iter_batched(
            fresh,
            |(mut world, _)| {
                for i in 0..N {
                    let (p, _) = value(i);
                    world.spawn((p, Velocity(p)));
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, capture_and_blend, structural);
criterion_main!(benches);
