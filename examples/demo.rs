//! The demo: a few hundred balls bouncing in a box, simulated at a fixed 20 Hz and drawn in the
//! terminal (ANSI) at up to 120 Hz in real time. With interpolation (the default) each frame
//! draws the balls between their previous and current tick with the fold's `alpha`, so motion
//! is smooth although the simulation only ticks 20 times a second; `--no-interp` draws the
//! latest tick and the balls visibly jump. The runner reads the clock, sleeps with
//! `spin_sleep` until the fold's deadline, and at the end the demo prints what happened: ticks,
//! frames, drops, wake-up lateness (p50, p99, max) and the CPU time used. `--headless` skips
//! the drawing and prints only the summary.
//!
//! The world is plain data (a `Vec` of `Copy` balls); the previous tick is copied once per step,
//! before the update marked `last_in_step`.
//!
//! ```text
//! cargo run --release --example demo                 # 4 s in the terminal
//! cargo run --release --example demo -- --headless   # summary only
//! ```

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use tickfold::runner::{Runner, SpinSleep, SystemClock};
use tickfold::{Event, LoopConfig, LoopState, TickRate};

#[path = "shared/balls.rs"]
mod balls;
use balls::{Ball, H, W, spawn, update};

struct Options {
    seconds: f64,
    tick_hz: u64,
    render_hz: u64,
    balls: usize,
    interpolate: bool,
    headless: bool,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        seconds: 4.0,
        tick_hz: 20,
        render_hz: 120,
        balls: 300,
        interpolate: true,
        headless: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match flag.as_str() {
            "--seconds" => o.seconds = value("--seconds")?.parse().map_err(|_| "bad --seconds")?,
            "--tick-hz" => o.tick_hz = value("--tick-hz")?.parse().map_err(|_| "bad --tick-hz")?,
            "--render-hz" => {
                o.render_hz = value("--render-hz")?
                    .parse()
                    .map_err(|_| "bad --render-hz")?
            }
            "--balls" => o.balls = value("--balls")?.parse().map_err(|_| "bad --balls")?,
            "--no-interp" => o.interpolate = false,
            "--headless" => o.headless = true,
            "--help" | "-h" => {
                return Err("usage: demo [--seconds F] [--tick-hz N] [--render-hz N] [--balls N] [--no-interp] [--headless]".into());
            }
            _ => return Err(format!("unknown flag {flag:?}")),
        }
    }
    if !(o.seconds.is_finite() && o.seconds > 0.0) {
        return Err("--seconds must be positive".into());
    }
    Ok(o)
}

fn draw(
    out: &mut impl Write,
    prev: &[Ball],
    cur: &[Ball],
    alpha: f32,
    header: &str,
) -> io::Result<()> {
    let mut grid = vec![b' '; W * H];
    for (p, c) in prev.iter().zip(cur) {
        let (x, y) = balls::blend(p, c, alpha);
        let (col, row) = (
            x.clamp(0.0, W as f32 - 1.0) as usize,
            y.clamp(0.0, H as f32 - 1.0) as usize,
        );
        grid[row * W + col] = b'o';
    }
    write!(out, "\x1b[H{header}\x1b[K\r\n+{}+\r\n", "-".repeat(W))?;
    for row in grid.chunks(W) {
        out.write_all(b"|")?;
        out.write_all(row)?;
        out.write_all(b"|\r\n")?;
    }
    write!(out, "+{}+\r\n", "-".repeat(W))?;
    out.flush()
}

#[derive(Default)]
struct Stats {
    ticks: u64,
    frames: u64,
    dropped: u64,
    lateness: Vec<u64>,
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn run(o: &Options) -> Result<(), String> {
    let config = LoopConfig::new(TickRate::from_hz(o.tick_hz).map_err(|e| e.to_string())?)
        .render_rate(Some(
            TickRate::from_hz(o.render_hz).map_err(|e| e.to_string())?,
        ));
    let start = Instant::now();
    let state = LoopState::new(config, start).map_err(|e| e.to_string())?;
    let mut runner = Runner::new(state, SystemClock, SpinSleep::default());
    let (mut world, mut prev) = (spawn(o.balls), vec![Ball::default(); o.balls]);
    prev.copy_from_slice(&world);
    let mut stats = Stats {
        lateness: Vec::with_capacity((o.seconds * o.render_hz as f64 * 2.0) as usize + 16),
        ..Stats::default()
    };
    let mut out = BufWriter::new(io::stdout().lock());
    if !o.headless {
        write!(out, "\x1b[2J\x1b[?25l").map_err(|e| e.to_string())?;
    }
    let cpu = cpu_time::ProcessTime::now();
    let end = start + Duration::from_secs_f64(o.seconds);
    let mut draw_error = None;
    while Instant::now() < end {
        let deadline = runner.frame(|event, state| match event {
            Event::Update(tick) => {
                if tick.last_in_step {
                    // Only the state before the step's last update is needed for rendering.
                    prev.copy_from_slice(&world);
                }
                update(&mut world, tick.dt.dt_secs_f32());
                stats.ticks += 1;
            }
            Event::DroppedTicks { count, .. } => stats.dropped += count,
            Event::DiscardedTime { ticks, .. } => stats.dropped += ticks,
            Event::Render(r) => {
                stats.frames += 1;
                if !o.headless && draw_error.is_none() {
                    let alpha = if o.interpolate { r.alpha as f32 } else { 1.0 };
                    let header = format!(
                        "tickfold demo: {} balls, {} Hz ticks, renders <= {} Hz, interpolation {} | tick {} alpha {:.2}",
                        o.balls,
                        o.tick_hz,
                        o.render_hz,
                        if o.interpolate { "on" } else { "off (--no-interp)" },
                        state.ticks_run(),
                        alpha
                    );
                    draw_error = draw(&mut out, &prev, &world, alpha, &header).err();
                }
            }
            _ => {}
        });
        if let Some(e) = draw_error.take() {
            return Err(format!("drawing failed: {e}"));
        }
        if let Some(d) = deadline {
            stats.lateness.push(runner.wait_until(d));
        }
    }
    let cpu = cpu.elapsed();
    let wall = start.elapsed();
    if !o.headless {
        write!(out, "\x1b[?25h").map_err(|e| e.to_string())?;
    }
    stats.lateness.sort_unstable();
    let us = |ns: u64| ns as f64 / 1e3;
    writeln!(
        out,
        "\nsummary ({:.2} s wall)\n  ticks      {} ({} Hz)\n  frames     {} (cap {} Hz)\n  drops      {}\n  wake-ups   {}: lateness p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs\n  cpu time   {:.3} s ({:.1}% of one core)",
        wall.as_secs_f64(),
        stats.ticks,
        o.tick_hz,
        stats.frames,
        o.render_hz,
        stats.dropped,
        stats.lateness.len(),
        us(percentile(&stats.lateness, 0.5)),
        us(percentile(&stats.lateness, 0.99)),
        us(stats.lateness.last().copied().unwrap_or(0)),
        cpu.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64(),
    )
    .map_err(|e| e.to_string())?;
    Ok(())
}

fn main() -> ExitCode {
    match parse().and_then(|o| run(&o)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("demo: {e}");
            ExitCode::from(2)
        }
    }
}
