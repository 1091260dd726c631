//! The pacing benchmark: three loops that want to run every 1/60 s for 10 s each, side by side
//! on this machine, doing the same 1 ms of work per iteration:
//!
//! * (a) the naive loop the constant-rate loop article starts from, `work(); sleep(1/60)`,
//!   which never looks at the clock;
//! * (b) `spin_sleep_util::Interval` (a spin-sleeping interval timer, `Skip` on missed ticks);
//! * (c) tickfold's runner: the fold says when the next tick is due, `spin_sleep` waits for it.
//!
//! The loops take turns: the run is cut into `--rounds` rounds (default 5) and each round runs
//! all three loops for `seconds / rounds`, in an order that rotates from round to round, so a
//! burst of load on the machine falls on all three alike rather than on whichever loop happened
//! to be running. For each loop it prints the wake-up lateness against the time the loop itself
//! asked for (p50, p99, max, pooled over the rounds), the drift of each round's last iteration
//! from its exact due time `start + i/60 s` (the worst round), and the CPU time used; then it
//! writes an SVG with the drift of every iteration of the first round for the three loops, like
//! the constant-rate loop article's clock-drift figure.
//!
//! The SVG goes to `--svg PATH` if given, else to `pacing.svg` in the target directory the
//! example was built in (`target/pacing.svg`, or under `CARGO_TARGET_DIR` when that is set):
//! never into the working tree, where an untracked file would stop `cargo package`.
//!
//! ```text
//! cargo run --release --example pacing                       # 3 × 10 s in 5 rounds, writes target/pacing.svg
//! cargo run --release --example pacing -- --seconds 2 --rounds 1 --svg /tmp/pacing.svg
//! ```

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use tickfold::runner::{RealTime, Runner, SpinSleep};
use tickfold::{Event, LoopConfig, LoopState, Period};

/// 1/60 s, exactly, as a fraction of nanoseconds.
const NUM: u128 = 1_000_000_000;
const DEN: u128 = 60;

/// The exact due time of iteration `i`, in ns after the start.
fn due(i: u64) -> u64 {
    (u128::from(i) * NUM / DEN) as u64
}

/// 1 ms of busy work, the same in all three loops.
fn work() {
    let end = Instant::now() + Duration::from_millis(1);
    let mut x = 0u64;
    while Instant::now() < end {
        x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
}

struct Run {
    name: &'static str,
    /// How late each wake-up was against the time the loop asked for (ns).
    lateness: Vec<u64>,
    /// Each iteration's start minus its exact due time `i/60 s` (ns, signed).
    drift: Vec<i64>,
    cpu: Duration,
}

fn signed(a: Instant, start: Instant, i: u64) -> i64 {
    a.duration_since(start).as_nanos() as i64 - due(i) as i64
}

fn naive(iterations: u64) -> Run {
    let cpu = cpu_time::ProcessTime::now();
    let (start, mut lateness, mut drift) = (Instant::now(), Vec::new(), Vec::new());
    for i in 0..iterations {
        drift.push(signed(Instant::now(), start, i));
        work();
        let asked = Instant::now() + Duration::from_nanos(16_666_667);
        std::thread::sleep(Duration::from_nanos(16_666_667));
        lateness.push(Instant::now().saturating_duration_since(asked).as_nanos() as u64);
    }
    Run {
        name: "naive sleep(1/60)",
        lateness,
        drift,
        cpu: cpu.elapsed(),
    }
}

fn interval(iterations: u64) -> Run {
    let cpu = cpu_time::ProcessTime::now();
    let (start, mut lateness, mut drift) = (Instant::now(), Vec::new(), Vec::new());
    let mut timer = spin_sleep_util::interval_at(start, Duration::from_nanos(16_666_667));
    for i in 0..iterations {
        let tick = timer.tick();
        lateness.push(Instant::now().saturating_duration_since(tick).as_nanos() as u64);
        drift.push(signed(Instant::now(), start, i));
        work();
    }
    Run {
        name: "spin_sleep_util::Interval",
        lateness,
        drift,
        cpu: cpu.elapsed(),
    }
}

fn tickfold(iterations: u64) -> Result<Run, String> {
    let cpu = cpu_time::ProcessTime::now();
    let start = Instant::now();
    let config = LoopConfig::new(Period::from_hz(60).map_err(|e| e.to_string())?);
    let state = LoopState::new(config, start).map_err(|e| e.to_string())?;
    let mut runner = Runner::new(state, RealTime, SpinSleep::default());
    let (mut lateness, mut drift) = (Vec::new(), Vec::new());
    while (drift.len() as u64) < iterations {
        let deadline = runner.frame(|event, _| {
            if let Event::Update(tick) = event {
                // Tick k is due at (k+1)/60 s: it is this loop's iteration k+1.
                drift.push(signed(Instant::now(), start, tick.index + 1));
                work();
            }
        });
        if let Some(d) = deadline {
            lateness.push(runner.wait_until(d));
        }
    }
    Ok(Run {
        name: "tickfold runner",
        lateness,
        drift,
        cpu: cpu.elapsed(),
    })
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1e3
}

fn svg(runs: &[Run]) -> String {
    let (w, h, pad) = (800.0, 360.0, 50.0);
    let n = runs.iter().map(|r| r.drift.len()).max().unwrap_or(1).max(2) as f64;
    let lo = runs
        .iter()
        .flat_map(|r| r.drift.iter())
        .copied()
        .min()
        .unwrap_or(0)
        .min(0) as f64
        / 1e6;
    let hi = runs
        .iter()
        .flat_map(|r| r.drift.iter())
        .copied()
        .max()
        .unwrap_or(1)
        .max(1) as f64
        / 1e6;
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / (n - 1.0);
    let y = |ms: f64| h - pad - (h - 2.0 * pad) * (ms - lo) / (hi - lo).max(1e-9);
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="{pad}" y="20">Drift of each iteration from start + i/60 s (ms), 60 Hz, {n} iterations</text>
<line x1="{pad}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#999"/>
<text x="5" y="{ylo}">{lo:.2}</text><text x="5" y="{yhi}">{hi:.2}</text>
"##,
        y0 = y(0.0),
        x1 = w - pad,
        ylo = y(lo),
        yhi = y(hi) + 10.0,
    );
    for (run, colour) in runs.iter().zip(["#d62728", "#1f77b4", "#2ca02c"]) {
        let points: Vec<String> = run
            .drift
            .iter()
            .enumerate()
            .map(|(i, d)| format!("{:.1},{:.1}", x(i), y(*d as f64 / 1e6)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{}"/>"#,
            points.join(" ")
        );
    }
    for (k, (run, colour)) in runs
        .iter()
        .zip(["#d62728", "#1f77b4", "#2ca02c"])
        .enumerate()
    {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" fill="{colour}">{}</text>"#,
            pad + 10.0,
            40.0 + 15.0 * k as f64,
            run.name
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Adds one round of a loop to its pooled figures; the first round's drift is kept for the plot.
fn merge(total: &mut Run, round: Run, last_drift: &mut i64) {
    let last = round.drift.last().copied().unwrap_or(0);
    if last.abs() > last_drift.abs() {
        *last_drift = last;
    }
    if total.drift.is_empty() {
        total.drift = round.drift;
    }
    total.lateness.extend(round.lateness);
    total.cpu += round.cpu;
}

/// `pacing.svg` in the target directory this example was built in: the binary is
/// `<target>/<profile>/examples/pacing` (`<target>/<triple>/<profile>/…` with `--target`), so
/// `CARGO_TARGET_DIR` and `--target-dir` are honoured. `target/pacing.svg` if that fails.
fn default_svg_path() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.join("pacing.svg")))
        .unwrap_or_else(|| PathBuf::from("target").join("pacing.svg"))
}

fn main() -> ExitCode {
    let mut seconds = 10.0f64;
    let mut rounds = 5u64;
    let mut path = default_svg_path();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match (flag.as_str(), args.next()) {
            ("--seconds", Some(v)) => seconds = v.parse().unwrap_or(seconds),
            ("--rounds", Some(v)) => rounds = v.parse().unwrap_or(rounds).max(1),
            ("--svg", Some(v)) => path = PathBuf::from(v),
            _ => {
                eprintln!("usage: pacing [--seconds F] [--rounds N] [--svg PATH]");
                return ExitCode::from(2);
            }
        }
    }
    let per_round = ((seconds * 60.0) / rounds as f64).round().max(2.0) as u64;
    let empty = |name| Run {
        name,
        lateness: Vec::new(),
        drift: Vec::new(),
        cpu: Duration::ZERO,
    };
    let mut runs = [
        empty("naive sleep(1/60)"),
        empty("spin_sleep_util::Interval"),
        empty("tickfold runner"),
    ];
    let mut last_drift = [0i64; 3];
    for round in 0..rounds {
        for k in 0..3 {
            let which = ((round + k) % 3) as usize;
            let run = match which {
                0 => naive(per_round),
                1 => interval(per_round),
                _ => match tickfold(per_round) {
                    Ok(run) => run,
                    Err(e) => {
                        eprintln!("pacing: {e}");
                        return ExitCode::from(2);
                    }
                },
            };
            merge(&mut runs[which], run, &mut last_drift[which]);
        }
    }
    println!(
        "60 Hz for {seconds} s per loop in {rounds} interleaved round(s) of {per_round} iterations, \
         1 ms of work per iteration\n"
    );
    println!(
        "| loop | lateness p50 | p99 | max | drift of a round's last iteration (worst) | CPU time |"
    );
    println!("|---|---|---|---|---|---|");
    for (r, last) in runs.iter().zip(last_drift) {
        let mut l = r.lateness.clone();
        l.sort_unstable();
        println!(
            "| {} | {:.1} µs | {:.1} µs | {:.1} µs | {:+.3} ms | {:.3} s |",
            r.name,
            pct(&l, 0.5),
            pct(&l, 0.99),
            pct(&l, 1.0),
            last as f64 / 1e6,
            r.cpu.as_secs_f64()
        );
    }
    match std::fs::write(&path, svg(&runs)) {
        Ok(()) => println!("\ndrift plot (first round) written to {}", path.display()),
        Err(e) => eprintln!("could not write {}: {e}", path.display()),
    }
    ExitCode::SUCCESS
}
