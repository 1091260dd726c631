//! What a capture of a plain-data world costs, against a raw `memcpy` of the same bytes.
//!
//! The element is a 512-byte object, `#[repr(C)] struct Obj([u64; 64])`, the article's "0.5 KB
//! per object"; the dirty chunks are the default 4 KiB (8 objects). A write touches one word
//! of an object. Write patterns are precomputed with a fixed-seed splitmix64 (64 patterns per
//! kind, used in turn, so successive ticks touch different places):
//!
//! * `random1`: 1% of the objects at random indices (with replacement);
//! * `clustered1`: 1% of the objects as one contiguous run at a random start
//!   (through `slice_mut`);
//! * `random10`: 10% of the objects at random indices.
//!
//! Groups (every comparison runs in the same process, one after the other):
//!
//! * `full`: `DoubleBuffer` full capture (`front_mut()` marks everything dirty, then
//!   `capture()`) against `dst.copy_from_slice(&src)`, at 64 KiB (128 objects), 8 MB
//!   (16,000 objects, 8,192,000 bytes) and 64 MiB (131,072 objects).
//! * `dirty`, the article's napkin world of 16,000 objects: per pattern, `writes_untracked` (the
//!   same writes on a plain `Vec`), `writes_only` (the writes through `DoubleBuffer`, no
//!   capture), `writes+capture` (writes, then `capture()`), `writes+full` (the same with the
//!   full-copy threshold at 0, so every capture copies everything), and `capture` /
//!   `full_capture`, which time only the `capture()` call after untimed writes
//!   (`iter_custom`). Capture cost is read two ways: `capture` directly, or
//!   `writes+capture` − `writes_only`.
//! * `persistent`: `Persistent` (`im::Vector`) with the same writes then `capture()`, the
//!   writes alone (no capture, so no node stays shared), and `im::Vector::clone` alone.
//! * `ring`: a `Ring` of 8 over a `Tracked` world of 16,000 objects. `save` times
//!   `Ring::save` after a tick's untimed writes (it copies the chunks written since that slot's
//!   previous save, eight ticks back, and hashes them). `load_4_back` times `Ring::load` of a
//!   tick after four ticks of untimed writes: a load copies back the chunks stamped since the
//!   slot was saved (or last loaded), and saving other ticks in between does not change that
//!   set, so the four ticks are written without saving them (keeping the untimed part small).
//!
//! Run with `cargo bench -p tickfold-snapshot --bench capture` (defaults set here: 1 s warm-up,
//! 2 s measurement, 50 samples; the `full` group samples flat, 10 samples at 64 MiB so those
//! cases stay short). It takes about two minutes.

use std::hint::black_box;
use std::ops::Range;
use std::time::{Duration, Instant};
use tickfold_testing::SplitMix64;

use bytemuck::NoUninit;
use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use tickfold_snapshot::{DoubleBuffer, Persistent, Ring, Tracked};

/// The 0.5 KB object of the napkin budget in "Main Loops, Refresh Rates, and Determinism".
#[derive(Copy, Clone, NoUninit)]
#[repr(C)]
struct Obj([u64; 64]);

/// That article's napkin world: 16,000 objects of 512 bytes (8,192,000 bytes).
const WORLD: usize = 16_000;
/// Precomputed write patterns per kind, used in turn.
const PATTERNS: usize = 64;

fn obj(i: usize) -> Obj {
    let mut o = Obj([0; 64]);
    for (k, w) in o.0.iter_mut().enumerate() {
        *w = (i * 64 + k) as u64;
    }
    o
}

fn world(n: usize) -> Vec<Obj> {
    (0..n).map(obj).collect()
}

/// A reproducible index below `n` (the kit's seeded generator).
fn below(rng: &mut SplitMix64, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// One tick's writes.
enum Writes {
    Scattered(Vec<usize>),
    Run(Range<usize>),
}

#[derive(Copy, Clone)]
enum Pattern {
    Random1,
    Clustered1,
    Random10,
}

const ALL: [Pattern; 3] = [Pattern::Random1, Pattern::Clustered1, Pattern::Random10];

impl Pattern {
    fn name(self) -> &'static str {
        match self {
            Pattern::Random1 => "random1",
            Pattern::Clustered1 => "clustered1",
            Pattern::Random10 => "random10",
        }
    }

    /// `PATTERNS` ticks of writes over `n` objects.
    fn ticks(self, n: usize, seed: u64) -> Vec<Writes> {
        let mut rng = SplitMix64::new(seed);
        (0..PATTERNS)
            .map(|_| match self {
                Pattern::Random1 => {
                    Writes::Scattered((0..n / 100).map(|_| below(&mut rng, n)).collect())
                }
                Pattern::Random10 => {
                    Writes::Scattered((0..n / 10).map(|_| below(&mut rng, n)).collect())
                }
                Pattern::Clustered1 => {
                    let len = n / 100;
                    let start = below(&mut rng, n - len + 1);
                    Writes::Run(start..start + len)
                }
            })
            .collect()
    }
}

#[inline]
fn touch(o: &mut Obj) {
    o.0[0] = o.0[0].wrapping_add(1);
}

/// Something the writes can land in.
trait Target {
    fn one(&mut self, i: usize);
    fn run(&mut self, r: Range<usize>);

    fn apply(&mut self, w: &Writes) {
        match w {
            Writes::Scattered(ix) => ix.iter().for_each(|&i| self.one(i)),
            Writes::Run(r) => self.run(r.clone()),
        }
    }
}

impl Target for Vec<Obj> {
    fn one(&mut self, i: usize) {
        if let Some(o) = self.get_mut(i) {
            touch(o);
        }
    }
    fn run(&mut self, r: Range<usize>) {
        if let Some(s) = self.get_mut(r) {
            s.iter_mut().for_each(touch);
        }
    }
}

/// The two buffers with `get_mut` and `slice_mut`.
macro_rules! sliced_target {
    ($($buffer:ty),*) => {$(
        impl Target for $buffer {
            fn one(&mut self, i: usize) {
                if let Some(o) = self.get_mut(i) {
                    touch(o);
                }
            }
            fn run(&mut self, r: Range<usize>) {
                if let Ok(s) = self.slice_mut(r) {
                    s.iter_mut().for_each(touch);
                }
            }
        }
    )*};
}

sliced_target!(DoubleBuffer<Obj>, Tracked<Obj>);

impl Target for Persistent<Obj> {
    fn one(&mut self, i: usize) {
        if let Some(o) = self.get_mut(i) {
            touch(o);
        }
    }
    fn run(&mut self, r: Range<usize>) {
        for i in r {
            self.one(i);
        }
    }
}

/// Cycles through a pattern's ticks.
struct Ticks<'a> {
    all: &'a [Writes],
    next: usize,
}

impl<'a> Ticks<'a> {
    fn new(all: &'a [Writes]) -> Ticks<'a> {
        Ticks { all, next: 0 }
    }

    fn next(&mut self) -> &'a Writes {
        let w = &self.all[self.next];
        self.next = (self.next + 1) % self.all.len();
        w
    }
}

fn full(c: &mut Criterion) {
    let mut g = c.benchmark_group("full");
    g.sampling_mode(SamplingMode::Flat);
    for (label, n, samples) in [
        ("64KiB", 128, 50),
        ("8MB", WORLD, 50),
        ("64MiB", 131_072, 10),
    ] {
        g.sample_size(samples);
        g.throughput(Throughput::Bytes((n * size_of::<Obj>()) as u64));
        let mut buf = DoubleBuffer::new(world(n));
        g.bench_function(BenchmarkId::new("double_buffer", label), |b| {
            b.iter(|| {
                buf.current_mut();
                black_box(buf.capture())
            });
        });
        assert!(buf.stats().full == buf.stats().captures);
        drop(buf);
        let src = world(n);
        let mut dst = world(n + 1);
        dst.truncate(n);
        g.bench_function(BenchmarkId::new("copy_from_slice", label), |b| {
            b.iter(|| {
                dst.copy_from_slice(black_box(&src));
                black_box(&mut dst);
            });
        });
    }
    g.finish();
}

fn dirty(c: &mut Criterion) {
    let mut g = c.benchmark_group("dirty");
    for (k, p) in ALL.into_iter().enumerate() {
        let ticks = p.ticks(WORLD, 0xD1B7 + k as u64);
        let name = p.name();

        let mut plain = world(WORLD);
        let mut t = Ticks::new(&ticks);
        g.bench_function(BenchmarkId::new("writes_untracked", name), |b| {
            b.iter(|| plain.apply(t.next()));
        });
        black_box(&plain);
        drop(plain);

        let mut buf = DoubleBuffer::new(world(WORLD));
        let mut t = Ticks::new(&ticks);
        g.bench_function(BenchmarkId::new("writes_only", name), |b| {
            b.iter(|| buf.apply(t.next()));
        });
        buf.capture();
        g.bench_function(BenchmarkId::new("writes+capture", name), |b| {
            b.iter(|| {
                buf.apply(t.next());
                black_box(buf.capture())
            });
        });
        g.bench_function(BenchmarkId::new("capture", name), |b| {
            b.iter_custom(|iters| timed_captures(&mut buf, &mut t, iters));
        });

        let mut tracked = Tracked::new(world(WORLD));
        let _ = tracked.set_full_copy_percent(0);
        let mut fbuf = DoubleBuffer::from_tracked(tracked);
        g.bench_function(BenchmarkId::new("writes+full", name), |b| {
            b.iter(|| {
                fbuf.apply(t.next());
                black_box(fbuf.capture())
            });
        });
        g.bench_function(BenchmarkId::new("full_capture", name), |b| {
            b.iter_custom(|iters| timed_captures(&mut fbuf, &mut t, iters));
        });
        assert_eq!(fbuf.stats().full, fbuf.stats().captures);
    }
    g.finish();
}

/// Applies a tick of writes (untimed), then times `capture()`, `iters` times.
fn timed_captures(buf: &mut DoubleBuffer<Obj>, t: &mut Ticks<'_>, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        buf.apply(t.next());
        let start = Instant::now();
        black_box(buf.capture());
        total += start.elapsed();
    }
    total
}

fn persistent(c: &mut Criterion) {
    let mut g = c.benchmark_group("persistent");
    for (k, p) in ALL.into_iter().enumerate() {
        let ticks = p.ticks(WORLD, 0xD1B7 + k as u64);
        let name = p.name();
        let mut t = Ticks::new(&ticks);
        let mut per: Persistent<Obj> = world(WORLD).into();
        g.bench_function(BenchmarkId::new("writes+capture", name), |b| {
            b.iter(|| {
                per.apply(t.next());
                per.capture();
            });
        });
        let mut per: Persistent<Obj> = world(WORLD).into();
        g.bench_function(BenchmarkId::new("writes_only", name), |b| {
            b.iter(|| per.apply(t.next()));
        });
    }
    let v: tickfold_snapshot::im::Vector<Obj> = world(WORLD).into();
    g.bench_function("im_vector_clone", |b| b.iter(|| black_box(v.clone())));
    g.finish();
}

fn ring(c: &mut Criterion) {
    let mut g = c.benchmark_group("ring");
    for (k, p) in [Pattern::Random1, Pattern::Clustered1]
        .into_iter()
        .enumerate()
    {
        let ticks = p.ticks(WORLD, 0x5EED + k as u64);
        let name = p.name();
        let mut t = Ticks::new(&ticks);
        let mut state = Tracked::new(world(WORLD));
        let Ok(mut ring) = Ring::new(8, &state) else {
            unreachable!("8 slots")
        };
        let mut tick = 0_u64;
        // Fill the ring, so saves measure the steady state.
        for _ in 0..16 {
            state.apply(t.next());
            ring.save(tick, &mut state);
            tick += 1;
        }
        g.bench_function(BenchmarkId::new("save", name), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    state.apply(t.next());
                    let start = Instant::now();
                    black_box(ring.save(tick, &mut state));
                    total += start.elapsed();
                    tick += 1;
                }
                total
            });
        });
        let back = tick - 1;
        g.bench_function(BenchmarkId::new("load_4_back", name), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    for _ in 0..4 {
                        state.apply(t.next());
                    }
                    let start = Instant::now();
                    let loaded = ring.load(back, &mut state);
                    total += start.elapsed();
                    assert!(loaded.is_ok());
                }
                total
            });
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = full, dirty, persistent, ring
}
criterion_main!(benches);
