//! tickfold side by side with the loops users would pick instead, in one run:
//! `game-loop` 1.3.0 on a fake clock, `bevy_time` 0.20.1 in a minimal Bevy `App` driven by
//! `TimeUpdateStrategy::ManualInstant`, and Piston's `pistoncore-event_loop` 1.0.0 in bench
//! mode (and on the real clock for the stall, which bench mode cannot have).
//!
//! ```sh
//! cargo run --release --manifest-path benches/peers/Cargo.toml            # writes BENCHMARKS.md
//! cargo run --release --manifest-path benches/peers/Cargo.toml -- --quick # a quick look, no file
//! cargo test --manifest-path benches/peers/Cargo.toml                     # the drivers' checks
//! ```
//!
//! It measures (1) per-frame cost in ns and allocations, (2) steps-per-frame histograms under
//! jitter at 60 and 59.94 Hz, the tick grid's drift after an hour and a 5 s stall, and prints a
//! markdown report with ratios tickfold / peer, which it also writes to `BENCHMARKS.md` at the
//! repository root.
#![forbid(unsafe_code)]

mod behaviour;
mod drivers;
mod report;
#[cfg(test)]
mod tests;
mod timing;

use std::path::PathBuf;
use std::process::ExitCode;

use behaviour::{HIST_FRAMES, HZ_59_94, HZ_60, histogram, hour, jittered, stall};
use drivers::{
    BevyDriver, Driver, GameLoopDriver, Grid, Options, PistonBench, TickfoldInPlace, TickfoldStep,
};
use report::{HistRows, Results};
use timing::{Batch, Bench, Budget, Cost, measure_case};

const HALF_TICK: u64 = 1_000_000_000 / 120;

/// The three per-frame cases: tickfold/game-loop/Bevy frame grid, and Piston's (ups, fps).
const CASES: [(Grid, (u64, u64)); 3] = [
    (
        Grid {
            offset: 0,
            num: 10_000,
            den: 1,
        },
        (60, 100_000),
    ),
    (
        Grid {
            offset: HALF_TICK,
            num: 1_000_000_000,
            den: 60,
        },
        (60, 60),
    ),
    (
        Grid {
            offset: HALF_TICK,
            num: 8_000_000_000,
            den: 60,
        },
        (480, 60),
    ),
];

fn per_frame(budget: Budget) -> Vec<[Cost; 3]> {
    let mut rows = vec![Vec::new(); report::TIMED.len()];
    for (c, (grid, (ups, fps))) in CASES.into_iter().enumerate() {
        eprintln!("timing case {}: {}", c + 1, report::CASES[c]);
        // In the order of `report::TIMED`.
        let mut benches: Vec<Box<dyn Batch>> = vec![
            Box::new(Bench::new(|| TickfoldInPlace::new(Options::Plain), grid)),
            Box::new(Bench::new(TickfoldStep::new, grid)),
            Box::new(Bench::new(GameLoopDriver::new, grid)),
            Box::new(Bench::new(BevyDriver::new, grid)),
            Box::new(Bench::new(move || PistonBench::new(ups, fps), grid)),
        ];
        for (row, cost) in rows.iter_mut().zip(measure_case(&mut benches, budget)) {
            row.push(cost);
        }
    }
    rows.into_iter().map(|r| [r[0], r[1], r[2]]).collect()
}

fn histograms() -> Vec<(&'static str, HistRows)> {
    let mut out = Vec::new();
    for (rate, seed) in [(HZ_60, 60), (HZ_59_94, 5994)] {
        eprintln!("histograms at {}", rate.label);
        let times = jittered(rate, HIST_FRAMES, seed);
        let mut rows: HistRows = vec![
            (
                "tickfold plain",
                Ok(histogram(&mut TickfoldInPlace::new(Options::Plain), &times)),
            ),
            (
                "tickfold `.phase(0.5)`",
                Ok(histogram(&mut TickfoldInPlace::new(Options::Phase), &times)),
            ),
            (
                "tickfold `.hysteresis(0.5)`",
                Ok(histogram(
                    &mut TickfoldInPlace::new(Options::Hysteresis),
                    &times,
                )),
            ),
            (
                "`game-loop`",
                Ok(histogram(&mut GameLoopDriver::new(), &times)),
            ),
            ("`bevy_time`", Ok(histogram(&mut BevyDriver::new(), &times))),
        ];
        rows.push((
            "Piston (bench mode)",
            Err(if rate.den == 60 {
                "bench mode puts frames on a perfect grid, so jitter cannot be injected; without jitter it runs 1 update in every frame"
            } else {
                "bench mode cannot take jitter, and `max_fps` is an integer, so 59.94 Hz cannot be expressed"
            }),
        ));
        out.push((rate.label, rows));
    }
    out
}

fn drift() -> Vec<(&'static str, String, behaviour::Drift)> {
    eprintln!("one simulated hour");
    let bevy = BevyDriver::new();
    let bevy_step = bevy.timestep().as_nanos();
    let mut bevy = bevy;
    // Bench mode's first render comes at 1 s with no update before it (its first frame is
    // `start + 1/max_fps`); each later render at `k` s follows the updates due before it, so
    // the 3,599th `frame` call returns the render at exactly 3600 s.
    let mut piston = PistonBench::new(60, 1);
    for _ in 0..3599 {
        piston.frame(0);
    }
    let g = piston.grid_state(behaviour::HOUR_TICKS);
    let piston_drift = behaviour::Drift {
        ticks_run: g.ticks_run,
        drift_ns: g.ahead_ns,
    };
    vec![
        (
            "tickfold",
            "exactly 50,000,000/3 ns".to_string(),
            hour(&mut TickfoldInPlace::new(Options::Plain)),
        ),
        (
            "`game-loop`",
            "`1.0 / 60.0` s, `f64` accumulator".to_string(),
            hour(&mut GameLoopDriver::new()),
        ),
        (
            "`bevy_time`",
            format!(
                "{} ns (`Time::<Fixed>::from_hz(60.0)`)",
                report::int(bevy_step as u64)
            ),
            hour(&mut bevy),
        ),
        (
            "Piston (bench mode, 1 frame/s)",
            format!(
                "{} ns, reported to the game as dt = 1/60 s",
                report::int(1_000_000_000 / 60)
            ),
            piston_drift,
        ),
    ]
}

fn stalls() -> Vec<(&'static str, behaviour::StallReport, String)> {
    eprintln!("the 5 s stall (Piston's takes about 7 s of real time)");
    let tf = stall(&mut TickfoldInPlace::new(Options::Plain));
    let tf_says = format!(
        "`Event::DiscardedTime` with the exact tick count ({} ticks), `Event::Deferred` for the capped backlog",
        tf.reported
    );
    let gl = stall(&mut GameLoopDriver::new());
    let mut bevy = BevyDriver::new();
    let bv = stall(&mut bevy);
    let bevy_says = format!(
        "nothing: a `debug!` log line; comparing `Time<Real>` with `Time<Virtual>` shows {:.3} s gone",
        bevy.real_minus_virtual().as_secs_f64()
    );
    let piston = behaviour::piston_real_stall();
    vec![
        ("tickfold", tf, tf_says),
        (
            "`game-loop`",
            gl,
            "nothing: `max_frame_time` clamps silently".to_string(),
        ),
        ("`bevy_time`", bv, bevy_says),
        (
            "Piston (normal mode, real clock)",
            piston,
            "nothing: `ups_reset` resets `last_update` silently".to_string(),
        ),
    ]
}

fn rustc_version() -> String {
    std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!(
            "usage: cargo run --release --manifest-path benches/peers/Cargo.toml [-- --quick] [-- --no-write]\n\
             --quick     short batches, for a look while iterating (implies --no-write)\n\
             --no-write  print the report without writing BENCHMARKS.md"
        );
        return ExitCode::SUCCESS;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let write = !quick && !args.iter().any(|a| a == "--no-write");
    if let Some(bad) = args
        .iter()
        .find(|a| !["--quick", "--no-write"].contains(&a.as_str()))
    {
        eprintln!("unknown argument {bad}; try --help");
        return ExitCode::FAILURE;
    }
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build; timings mean nothing without --release");
    }

    let budget = if quick { Budget::QUICK } else { Budget::FULL };
    let results = Results {
        costs: per_frame(budget),
        histograms: histograms(),
        drift: drift(),
        stall: stalls(),
        rustc: rustc_version(),
        quick,
    };
    let text = report::render(&results);
    println!("{text}");
    if write {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../BENCHMARKS.md");
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("could not write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
