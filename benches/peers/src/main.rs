//! tickfold side by side with the loops users would pick instead, in one run:
//! `game-loop` 1.3.0 on a fake clock, `bevy_time` 0.20.1 in a minimal Bevy `App` driven by
//! `TimeUpdateStrategy::ManualInstant`, and Piston's `pistoncore-event_loop` 1.0.0 in bench
//! mode (and on the real clock for the stall, which bench mode cannot have); and, for the
//! run-time controls, `spin_sleep_util` 0.1.1's `Interval` on the real clock.
//!
//! ```sh
//! cargo run --release --manifest-path benches/peers/Cargo.toml            # writes BENCHMARKS.md
//! cargo run --release --manifest-path benches/peers/Cargo.toml -- --quick # a quick look, no file
//! cargo run --release --manifest-path benches/peers/Cargo.toml -- --callgrind # instructions only
//! cargo run --release --manifest-path benches/peers/Cargo.toml -- --defaults  # defaults table only
//! cargo test --manifest-path benches/peers/Cargo.toml                     # the drivers' checks
//! ```
//!
//! It measures (1) per-frame cost in ns and allocations, in two regimes measured in one
//! interleaved run (every loop's frame inlinable into its timing loop, as in a user's crate; and
//! every frame behind an `#[inline(never)]` call), against `game-loop` and against a floor
//! written here (`floor.rs`: the least a loop must compute to report what tickfold reports),
//! plus 1,000 updates in one frame, 1 / 4 / 16 clocks and the `size_of` of tickfold's value
//! types; instructions per frame under callgrind (`callgrind.rs`, when valgrind is installed);
//! (2) steps-per-frame histograms under jitter at 60 and 59.94 Hz, every loop's defaults
//! against the others' (`defaults.rs`), the tick grid's drift after
//! an hour and a 5 s stall; (3) run-time controls against the peers that have them (Bevy's
//! `set_timestep` mid-run, `spin_sleep_util`'s `MissedTickBehavior::Delay` on the real clock,
//! `controls.rs`). It prints a markdown report with ratios and the targets (met or
//! missed, computed from the run), which it also writes to `BENCHMARKS.md` at the repository
//! root.
#![forbid(unsafe_code)]

mod behaviour;
mod callgrind;
mod controls;
mod defaults;
mod drivers;
mod floor;
mod report;
mod report_controls;
mod report_cost;
#[cfg(test)]
mod tests;
mod timing;

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use behaviour::{HIST_FRAMES, HZ_59_94, HZ_60, histogram, hour, jittered, smoothed, stall, web};
use drivers::{
    BevyDriver, Driver, FloorDriver, GameLoopDriver, Grid, Options, PistonBench, TickfoldInPlace,
    TickfoldStep, clocks_config, uncapped_config,
};
use report::{Clocks, HistRows, Instructions, Results};
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

/// 1,000 updates per frame: frames every 1,000/60 s, half a tick off the boundaries.
const MANY: Grid = Grid {
    offset: HALF_TICK,
    num: 1_000_000_000_000,
    den: 60,
};

/// The loops measured for instructions and in both regimes, by name.
pub const CORE_LOOPS: [&str; 4] = ["advance_into", "step", "game-loop", "floor"];

/// Clock counts of the several-clocks case.
pub const CLOCK_COUNTS: [usize; 3] = [1, 4, 16];

/// One of the loops of [`CORE_LOOPS`] (or the uncapped and several-clocks variants), on `grid`.
fn core_bench(name: &str, grid: Grid, call: bool) -> Option<Box<dyn Batch>> {
    fn boxed<D: Driver + 'static, F: Fn() -> D + 'static>(
        make: F,
        grid: Grid,
        call: bool,
    ) -> Box<dyn Batch> {
        if call {
            Box::new(Bench::behind_call(make, grid))
        } else {
            Box::new(Bench::new(make, grid))
        }
    }
    let clocks = |n: &str| n.parse::<usize>().ok().filter(|n| (1..=16).contains(n));
    Some(match name {
        "advance_into" => boxed(|| TickfoldInPlace::new(Options::Plain), grid, call),
        "step" => boxed(TickfoldStep::new, grid, call),
        "game-loop" => boxed(GameLoopDriver::new, grid, call),
        "floor" => boxed(FloorDriver::new, grid, call),
        "advance_into-uncapped" => boxed(
            || TickfoldInPlace::with_config(uncapped_config()),
            grid,
            call,
        ),
        "step-uncapped" => boxed(|| TickfoldStep::with_config(uncapped_config()), grid, call),
        "floor-uncapped" => boxed(FloorDriver::uncapped, grid, call),
        n => {
            if let Some(k) = n.strip_prefix("advance_into-clocks").and_then(clocks) {
                boxed(
                    move || TickfoldInPlace::with_config(clocks_config(k)),
                    grid,
                    call,
                )
            } else if let Some(k) = n.strip_prefix("step-clocks").and_then(clocks) {
                boxed(
                    move || TickfoldStep::with_config(clocks_config(k)),
                    grid,
                    call,
                )
            } else {
                return None;
            }
        }
    })
}

fn core(name: &str, grid: Grid, call: bool) -> Box<dyn Batch> {
    core_bench(name, grid, call).expect("a known loop")
}

/// Per-frame costs: (inlinable rows as `report::INLINABLE`, behind-a-call rows as
/// `report::BEHIND_CALL`), both regimes interleaved in one run per case.
fn per_frame(budget: Budget) -> (Vec<[Cost; 3]>, Vec<[Cost; 3]>) {
    let n_in = report::INLINABLE.len();
    let mut rows = vec![Vec::new(); n_in + report::BEHIND_CALL.len()];
    for (c, (grid, (ups, fps))) in CASES.into_iter().enumerate() {
        eprintln!("timing case {}: {}", c + 1, report::CASES[c]);
        let mut benches: Vec<Box<dyn Batch>> =
            CORE_LOOPS.iter().map(|n| core(n, grid, false)).collect();
        benches.push(Box::new(Bench::new(BevyDriver::new, grid)));
        benches.push(Box::new(Bench::new(
            move || PistonBench::new(ups, fps),
            grid,
        )));
        benches.extend(CORE_LOOPS.iter().map(|n| core(n, grid, true)));
        for (row, cost) in rows.iter_mut().zip(measure_case(&mut benches, budget)) {
            row.push(cost);
        }
    }
    let mut rows: Vec<[Cost; 3]> = rows.into_iter().map(|r| [r[0], r[1], r[2]]).collect();
    let behind = rows.split_off(n_in);
    (rows, behind)
}

/// 1,000 updates per frame, no cap: `advance_into`, `step`, the floor.
fn many_updates(budget: Budget) -> [Cost; 3] {
    eprintln!("timing 1,000 updates per frame");
    let mut benches: Vec<Box<dyn Batch>> = ["advance_into", "step", "floor"]
        .iter()
        .map(|n| core(&format!("{n}-uncapped"), MANY, false))
        .collect();
    let c = measure_case(&mut benches, budget);
    [c[0], c[1], c[2]]
}

/// 1, 4 and 16 clocks, both APIs, 60 Hz frames.
fn several_clocks(budget: Budget) -> Clocks {
    eprintln!("timing several clocks");
    let grid = CASES[1].0;
    let mut benches: Vec<Box<dyn Batch>> = Vec::new();
    for api in ["advance_into", "step"] {
        for n in CLOCK_COUNTS {
            benches.push(core(&format!("{api}-clocks{n}"), grid, false));
        }
    }
    let c = measure_case(&mut benches, budget);
    [[c[0], c[1], c[2]], [c[3], c[4], c[5]]]
}

fn histograms() -> Vec<(&'static str, HistRows)> {
    let mut out = Vec::new();
    for (label, rate, seed, browser) in [
        ("60 Hz ±50 µs", HZ_60, 60, false),
        ("59.94 Hz ±50 µs", HZ_59_94, 5994, false),
        ("60 Hz web stamps (±1 ms, 100 µs grain)", HZ_60, 6060, true),
    ] {
        eprintln!("histograms at {label}");
        let times = if browser {
            web(rate, HIST_FRAMES, seed)
        } else {
            jittered(rate, HIST_FRAMES, seed)
        };
        let mut rows: HistRows = vec![
            (
                "tickfold plain",
                Ok(histogram(&mut TickfoldInPlace::new(Options::Plain), &times)),
            ),
            (
                "tickfold plain, `DeltaSmoother`",
                Ok(histogram(
                    &mut TickfoldInPlace::new(Options::Plain),
                    &smoothed(&times),
                )),
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
        out.push((label, rows));
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

fn run_controls() -> report_controls::Controls {
    eprintln!(
        "run-time controls: Bevy's set_timestep, spin_sleep's Delay (real clock, about 0.2 s)"
    );
    report_controls::Controls {
        timestep: controls::timestep_run(),
        delay: controls::delay_run(),
    }
}

/// `size_of` of tickfold's public value types.
fn sizes() -> Vec<(&'static str, usize)> {
    use std::mem::size_of;
    use tickfold::{Event, Events, Lag, LoopState, Nanos, Period, Render, Tick};
    vec![
        ("LoopState<Nanos>", size_of::<LoopState<Nanos>>()),
        ("LoopState<Instant>", size_of::<LoopState<Instant>>()),
        ("Events<Nanos>", size_of::<Events<Nanos>>()),
        ("Events<Instant>", size_of::<Events<Instant>>()),
        ("Event<Nanos>", size_of::<Event<Nanos>>()),
        ("Tick", size_of::<Tick>()),
        ("Render", size_of::<Render>()),
        ("Nanos", size_of::<Nanos>()),
        ("Lag", size_of::<Lag>()),
        ("Period", size_of::<Period>()),
    ]
}

/// The grid of a case given as `0`, `1`, `2` (as [`CASES`]) or `many`.
fn case_grid(case: &str) -> Option<Grid> {
    match case {
        "many" => Some(MANY),
        c => c
            .parse::<usize>()
            .ok()
            .and_then(|i| CASES.get(i))
            .map(|c| c.0),
    }
}

/// The child side of [`callgrind::count`]: NAME CASE REGIME FRAMES.
fn callgrind_region(args: &[String]) -> ExitCode {
    let [name, case, regime, frames] = args else {
        eprintln!("--callgrind-region takes LOOP CASE inline|call FRAMES");
        return ExitCode::FAILURE;
    };
    let (Some(grid), Ok(frames)) = (case_grid(case), frames.parse::<u64>()) else {
        eprintln!("bad case or frame count");
        return ExitCode::FAILURE;
    };
    let Some(mut b) = core_bench(name, grid, regime == "call") else {
        eprintln!("unknown loop {name}");
        return ExitCode::FAILURE;
    };
    // Set-up frames, not counted.
    black_box(b.batch(if case == "many" { 20 } else { 1_000 }));
    callgrind::consume(callgrind::region(b.as_mut(), frames));
    ExitCode::SUCCESS
}

/// Instructions per frame under callgrind, for the loops of [`CORE_LOOPS`] in both regimes,
/// the uncapped and several-clocks cases, and the breakdown by source file.
fn instructions(quick: bool) -> Result<Instructions, String> {
    if !callgrind::available() {
        return Err("valgrind is not installed".to_string());
    }
    let frames: u64 = if quick { 2_000 } else { 20_000 };
    let per = |name: &str, case: &str, regime: &str, frames: u64| -> Result<f64, String> {
        let args = [name, case, regime, &frames.to_string()].map(String::from);
        let (total, _, _) = callgrind::count(&args, false)?;
        Ok(total as f64 / frames as f64)
    };
    eprintln!("counting instructions under callgrind");
    let mut per_frame = [[[0.0; 3]; 4]; 2];
    for (r, regime) in ["inline", "call"].into_iter().enumerate() {
        for (l, name) in CORE_LOOPS.iter().enumerate() {
            for (c, slot) in per_frame[r][l].iter_mut().enumerate() {
                *slot = per(name, &c.to_string(), regime, frames)?;
            }
        }
    }
    let many_frames = if quick { 20 } else { 200 };
    let mut many = [0.0; 3];
    for (i, name) in ["advance_into", "step", "floor"].into_iter().enumerate() {
        many[i] = per(&format!("{name}-uncapped"), "many", "inline", many_frames)?;
    }
    let mut clocks = [[0.0; 3]; 2];
    for (a, api) in ["advance_into", "step"].into_iter().enumerate() {
        for (i, n) in CLOCK_COUNTS.into_iter().enumerate() {
            clocks[a][i] = per(&format!("{api}-clocks{n}"), "1", "inline", frames)?;
        }
    }
    let mut breakdown = Vec::new();
    for name in CORE_LOOPS {
        let args = [name, "1", "inline", &frames.to_string()].map(String::from);
        let (_, files, fns) = callgrind::count(&args, true)?;
        let per = |v: Vec<(String, u64)>| -> Vec<(String, f64)> {
            v.into_iter()
                .map(|(f, ir)| (f, ir as f64 / frames as f64))
                .collect()
        };
        breakdown.push((name, per(files), per(fns)));
    }
    Ok(Instructions {
        frames,
        many_frames,
        per_frame,
        many,
        clocks,
        breakdown,
    })
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
    if args.first().is_some_and(|a| a == "--callgrind-region") {
        return callgrind_region(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "--callgrind") {
        return match instructions(args.iter().any(|a| a == "--quick")) {
            Ok(i) => {
                println!("{}", report::instructions_text(&i));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.first().is_some_and(|a| a == "--defaults") {
        eprintln!("defaults against defaults");
        println!("{}", defaults::section());
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!(
            "usage: cargo run --release --manifest-path benches/peers/Cargo.toml [-- --quick] [-- --no-write]\n\
             --quick      short batches, for a look while iterating (implies --no-write)\n\
             --no-write   print the report without writing BENCHMARKS.md\n\
             --callgrind  only count instructions per frame under valgrind (add --quick for fewer frames)\n\
             --defaults   only the defaults-against-defaults table (fake clocks, deterministic)"
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
    let (inlinable, behind_call) = per_frame(budget);
    let results = Results {
        inlinable,
        behind_call,
        many: many_updates(budget),
        clocks: several_clocks(budget),
        sizes: sizes(),
        instructions: instructions(quick),
        histograms: histograms(),
        defaults: {
            eprintln!("defaults against defaults");
            defaults::section()
        },
        drift: drift(),
        stall: stalls(),
        controls: run_controls(),
        rustc: rustc_version(),
        quick,
    };
    let text = report::render(&results);
    println!("{text}");
    if write {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../BENCHMARKS.md");
        // The sections other programs measure (each names its command) follow this heading
        // at the end of the file: kept as they are.
        const OTHERS: &str = "\n## Measured by other programs\n";
        let kept = std::fs::read_to_string(&path)
            .ok()
            .and_then(|old| old.find(OTHERS).map(|at| old[at..].to_string()))
            .unwrap_or_default();
        let text = format!("{}\n{kept}", text.trim_end_matches('\n'));
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("could not write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
