//! The napkin budget of "Main Loops, Refresh Rates, and Determinism", measured on this machine: how many 512-byte objects can the
//! previous-state copy afford in 10% of a 60 Hz step, as a full copy and with dirty chunks?
//!
//! The article assumes a 5 GB/s `memcpy`: 83 MB per 16.67 ms step, of which 10% (1.67 ms, 8.3 MB)
//! goes to copying the state, so about 16,000 objects of 0.5 KB. Here the objects are
//! `[u64; 64]` (512 bytes) in a `DoubleBuffer` with the default 4 KiB chunks (8 objects each).
//! Each sample applies one tick of writes (untimed, one word per written object, indices from
//! a fixed-seed splitmix64), then times `capture()` alone with `Instant`; a figure is the median
//! of the samples. Write patterns: `full` (`current_mut()`, everything dirty), 1% and 10% of the
//! objects at random indices, and 1% and 10% as one contiguous run at a random start.
//!
//! For each pattern the program searches the world size whose median capture cost fits the
//! 1.67 ms budget: it starts at 16,000 objects, doubles (or halves) until the budget is crossed,
//! then bisects between the last size that fit and the first that did not, to within 1,000
//! objects or a fixed number of steps. Every size is measured on a freshly built world; sizes
//! stop at a memory cap, and a pattern that still fits there is reported as "at least" the cap.
//! The answer is the largest measured size that fit; the table also shows the smallest that
//! did not. Near the budget the medians are noisy (a shared machine, page placement), so the
//! boundary is good to about 10%, not to 1,000 objects. Small worlds sit in cache (8 MB here, on
//! a 32 MiB L3), large ones do not, so the cost per object is not constant: hence a search
//! rather than one division.
//!
//! Run in release: `cargo run --release -p tickfold-snapshot --example napkin` (under a
//! minute; allocates up to 2 × 2 GiB), or add `-- --quick` for fewer samples and a 512 MiB cap,
//! and `-- --chunk-bytes 512` (any power of two) to try another dirty-chunk size.

use std::hint::black_box;
use std::time::{Duration, Instant};
use tickfold_testing::SplitMix64;

use tickfold_snapshot::{DEFAULT_CHUNK_BYTES, DoubleBuffer, Tracked};

/// The article's 0.5 KB object.
type Obj = [u64; 64];

/// The article's figure: 8.3 MB per step / 0.5 KB.
const SEED_OBJECTS: usize = 16_000;
/// Ten percent of a 60 Hz step.
const BUDGET: Duration = Duration::from_nanos(1_666_667);
/// Captures run before the timed samples of each size.
const WARM_UP: usize = 3;

/// A reproducible index below `n` (the kit's seeded generator).
fn below(rng: &mut SplitMix64, n: usize) -> usize {
    rng.below(n as u64) as usize
}

#[derive(Copy, Clone)]
enum Mode {
    Full,
    Random(usize),
    Clustered(usize),
}

impl Mode {
    fn name(self) -> String {
        match self {
            Mode::Full => "full copy".to_string(),
            Mode::Random(p) => format!("dirty {p}% random"),
            Mode::Clustered(p) => format!("dirty {p}% clustered"),
        }
    }

    /// One tick of writes on a world of `buf.len()` objects.
    fn write(self, buf: &mut DoubleBuffer<Obj>, rng: &mut SplitMix64) {
        let n = buf.len();
        match self {
            Mode::Full => {
                buf.current_mut();
            }
            Mode::Random(p) => {
                for _ in 0..n * p / 100 {
                    if let Some(o) = buf.get_mut(below(rng, n)) {
                        o[0] = o[0].wrapping_add(1);
                    }
                }
            }
            Mode::Clustered(p) => {
                let len = n * p / 100;
                let start = below(rng, n - len + 1);
                if let Ok(run) = buf.slice_mut(start..start + len) {
                    for o in run {
                        o[0] = o[0].wrapping_add(1);
                    }
                }
            }
        }
    }
}

fn world(n: usize) -> Vec<Obj> {
    (0..n)
        .map(|i| core::array::from_fn(|k| (i * 64 + k) as u64))
        .collect()
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

/// One measured size: median capture time, mean bytes copied, share of full copies.
#[derive(Copy, Clone)]
struct Point {
    n: usize,
    median: Duration,
    bytes: f64,
    full: f64,
}

fn measure(n: usize, mode: Mode, set: &Settings, rng: &mut SplitMix64) -> Point {
    let samples = set.samples;
    let tracked = Tracked::with_chunk_bytes(world(n), set.chunk_bytes)
        .expect("the chunk size was checked in main");
    let mut buf = DoubleBuffer::from_tracked(tracked);
    for _ in 0..WARM_UP {
        mode.write(&mut buf, rng);
        black_box(buf.capture());
    }
    let before = buf.stats();
    let mut times = Vec::with_capacity(samples);
    for _ in 0..samples {
        mode.write(&mut buf, rng);
        let start = Instant::now();
        let copied = buf.capture();
        times.push(start.elapsed());
        black_box(copied);
    }
    let after = buf.stats();
    let timed = samples as f64;
    Point {
        n,
        median: median(times),
        bytes: (after.bytes - before.bytes) as f64 / timed,
        full: (after.full - before.full) as f64 / timed,
    }
}

fn memcpy(n: usize, samples: usize) -> Duration {
    let src = world(n);
    let mut dst = world(n + 1);
    dst.truncate(n);
    let mut times = Vec::with_capacity(samples);
    for _ in 0..WARM_UP + samples {
        let start = Instant::now();
        dst.copy_from_slice(black_box(&src));
        times.push(start.elapsed());
        black_box(&mut dst);
    }
    times.drain(..WARM_UP);
    median(times)
}

struct Fit {
    /// Largest measured size within the budget (0: none).
    objects: usize,
    /// Whether the search stopped at the memory cap with the budget not reached.
    capped: bool,
    /// Smallest measured size over the budget (0: none, when capped).
    over: usize,
    at_seed: Point,
}

struct Settings {
    samples: usize,
    cap: usize,
    bisect: usize,
    chunk_bytes: usize,
}

fn report(p: &Point, mode: Mode) {
    println!(
        "  {:<22} {:>9} objects: {:>10.1} µs  ({} copied, {:.0}% full){}",
        mode.name(),
        p.n,
        p.median.as_secs_f64() * 1e6,
        mb(p.bytes),
        p.full * 100.0,
        if p.median <= BUDGET { "  fits" } else { "" }
    );
}

fn fit(mode: Mode, set: &Settings, rng: &mut SplitMix64) -> Fit {
    let at_seed = measure(SEED_OBJECTS, mode, set, rng);
    report(&at_seed, mode);
    let (mut lo, mut hi, mut capped);
    if at_seed.median <= BUDGET {
        lo = SEED_OBJECTS;
        hi = 0;
        capped = false;
        while hi == 0 {
            if lo >= set.cap {
                capped = true;
                break;
            }
            let n = (lo * 2).min(set.cap);
            let p = measure(n, mode, set, rng);
            report(&p, mode);
            if p.median <= BUDGET { lo = n } else { hi = n }
        }
    } else {
        capped = false;
        hi = SEED_OBJECTS;
        lo = 0;
        while lo == 0 && hi > 1_000 {
            let n = hi / 2;
            let p = measure(n, mode, set, rng);
            report(&p, mode);
            if p.median <= BUDGET { lo = n } else { hi = n }
        }
    }
    if !capped {
        for _ in 0..set.bisect {
            if hi - lo <= 1_000 {
                break;
            }
            let mid = (lo + hi) / 2 / 1_000 * 1_000;
            let mid = if mid <= lo { lo + 1_000 } else { mid };
            let p = measure(mid, mode, set, rng);
            report(&p, mode);
            if p.median <= BUDGET {
                lo = mid
            } else {
                hi = mid
            }
        }
    }
    Fit {
        objects: lo,
        capped,
        over: hi,
        at_seed,
    }
}

fn mb(bytes: f64) -> String {
    format!("{:.2} MB", bytes / 1e6)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let chunk_bytes = match args.iter().position(|a| a == "--chunk-bytes") {
        Some(i) => match args.get(i + 1).and_then(|v| v.parse::<usize>().ok()) {
            Some(b) => b,
            None => {
                eprintln!("--chunk-bytes needs a number of bytes (a power of two)");
                std::process::exit(2);
            }
        },
        None => DEFAULT_CHUNK_BYTES,
    };
    if let Err(e) = Tracked::with_chunk_bytes(Vec::<Obj>::new(), chunk_bytes) {
        eprintln!("--chunk-bytes {chunk_bytes}: {e}");
        std::process::exit(2);
    }
    let set = if quick {
        Settings {
            samples: 9,
            cap: 1 << 20,
            bisect: 3,
            chunk_bytes,
        }
    } else {
        Settings {
            samples: 31,
            cap: 1 << 22,
            bisect: 6,
            chunk_bytes,
        }
    };
    let obj = size_of::<Obj>();
    println!(
        "budget: 10% of a 60 Hz step = {:.3} ms; the article: 5 GB/s memcpy -> 8.3 MB -> ~{SEED_OBJECTS} objects of {obj} B",
        BUDGET.as_secs_f64() * 1e3
    );
    println!(
        "samples per size: {} (median), memory cap: {} objects ({} per buffer){}",
        set.samples,
        set.cap,
        mb((set.cap * obj) as f64),
        if quick { ", --quick" } else { "" }
    );
    println!(
        "dirty chunks of {chunk_bytes} B ({} objects each; `--chunk-bytes N` to change)",
        (chunk_bytes / size_of::<Obj>()).max(1)
    );
    for n in [SEED_OBJECTS, 8 * SEED_OBJECTS] {
        let d = memcpy(n, set.samples);
        println!(
            "memcpy (copy_from_slice) of {n} objects ({}): {:.1} µs = {:.1} GB/s",
            mb((n * obj) as f64),
            d.as_secs_f64() * 1e6,
            (n * obj) as f64 / d.as_secs_f64() / 1e9
        );
    }
    println!("search (median capture cost per measured size):");
    let modes = [
        Mode::Full,
        Mode::Random(1),
        Mode::Clustered(1),
        Mode::Random(10),
        Mode::Clustered(10),
    ];
    let mut rng = SplitMix64::new(0x0003_5EED);
    let fits: Vec<(Mode, Fit)> = modes.iter().map(|&m| (m, fit(m, &set, &mut rng))).collect();
    println!();
    println!(
        "{:<22} | {:>16} | {:>14} | {:>20} | {:>10} | {:>12}",
        "capture", "cost @ 16,000", "copied", "objects in 1.67 ms", "x article", "first over"
    );
    println!(
        "{:-<22}-+-{:-<16}-+-{:-<14}-+-{:-<20}-+-{:-<10}-+-{:-<12}",
        "", "", "", "", "", ""
    );
    for (mode, f) in &fits {
        println!(
            "{:<22} | {:>13.1} µs | {:>14} | {:>20} | {:>9.1}x | {:>12}",
            mode.name(),
            f.at_seed.median.as_secs_f64() * 1e6,
            mb(f.at_seed.bytes),
            if f.capped {
                format!(">= {}", f.objects)
            } else {
                f.objects.to_string()
            },
            f.objects as f64 / SEED_OBJECTS as f64,
            if f.capped {
                "-".to_string()
            } else {
                f.over.to_string()
            }
        );
    }
}
