//! The demo: a few hundred balls bouncing in a box, simulated at a fixed 20 Hz and drawn in the
//! terminal (ANSI) at up to 120 Hz in real time. With interpolation (the default) each frame
//! draws the balls between their previous and current tick with the fold's `alpha`, so motion
//! is smooth although the simulation only ticks 20 times a second; `--no-interp` draws the
//! latest tick and the balls visibly jump. The runner reads the clock, sleeps with
//! `spin_sleep` until the fold's deadline, and at the end the demo prints what happened: ticks,
//! frames, drops, wake-up lateness (p50, p99, max) and the CPU time used. `--headless` skips
//! the drawing and prints only the summary; so does a run whose output is not a terminal (a
//! pipe, a file, CI), which would otherwise receive about a megabyte of ANSI frames.
//!
//! The world is a hecs world: each ball is an entity with a glam `Vec2` position and a velocity,
//! spawned through `tickfold-hecs`'s bundle helper (the companion holding the previous tick is
//! in place from the start). Every update goes through the adapter's `before_update`, which
//! applies the capture rule of `Tick::last_in_step`: it copies the positions only before the
//! step's last update (a catch-up step of several updates copies once, never before the
//! others), and at each render the adapter blends them into one reused buffer that the drawing
//! reads; the position components themselves only ever hold tick values.
//!
//! It reaches the adapter and glam as a user of `tickfold` does, through the facade
//! (`tickfold::hecs_adapter`, `tickfold::glam`), so it needs the features `hecs` and `glam`:
//!
//! ```text
//! cargo run --release --example demo --features hecs,glam                 # 4 s in the terminal
//! cargo run --release --example demo --features hecs,glam -- --headless   # summary only
//! ```

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use tickfold::glam::Vec2;
use tickfold::hecs_adapter::Interpolated;
use tickfold::hecs_adapter::hecs::World;
use tickfold::runner::{RealTime, Runner, SpinSleep};
use tickfold::{Event, LoopConfig, LoopState, Period};

// Only the start positions and the box size are used here; the motion lives in `update` below.
#[allow(dead_code)]
use tickfold_balls::{H, W, spawn};

/// A ball's velocity, in cells per second.
struct Velocity(Vec2);

/// The hecs world of `n` balls, each spawned with its position's companion in place.
fn world(n: usize, interp: &mut Interpolated<Vec2>) -> World {
    let mut world = World::new();
    for b in spawn(n) {
        interp.spawn(
            &mut world,
            (Vec2::new(b.x, b.y), Velocity(Vec2::new(b.vx, b.vy))),
        );
    }
    world
}

/// One fixed step: move and bounce off the walls. `dt` is the constant tick length.
fn update(world: &mut World, dt: f32) {
    let size = Vec2::new(W as f32, H as f32);
    for (p, v) in world.query_mut::<(&mut Vec2, &mut Velocity)>() {
        *p += v.0 * dt;
        if p.x < 0.0 || p.x >= size.x {
            v.0.x = -v.0.x;
            p.x = p.x.clamp(0.0, size.x - 0.001);
        }
        if p.y < 0.0 || p.y >= size.y {
            v.0.y = -v.0.y;
            p.y = p.y.clamp(0.0, size.y - 0.001);
        }
    }
}

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

fn draw(out: &mut impl Write, positions: &[Vec2], header: &str) -> io::Result<()> {
    let mut grid = vec![b' '; W * H];
    for &Vec2 { x, y } in positions {
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
    let config = LoopConfig::new(Period::from_hz(o.tick_hz).map_err(|e| e.to_string())?)
        .render_rate(Some(
            Period::from_hz(o.render_hz).map_err(|e| e.to_string())?,
        ));
    let start = Instant::now();
    let state = LoopState::new(config, start).map_err(|e| e.to_string())?;
    let mut runner = Runner::new(state, RealTime, SpinSleep::default());
    let mut interp = Interpolated::<Vec2>::new();
    let mut world = world(o.balls, &mut interp);
    let mut positions: Vec<Vec2> = Vec::with_capacity(o.balls);
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
                // The capture rule first: `before_update` copies the positions only before
                // the step's last update (`tick.last_in_step`), then the update runs.
                interp.before_update(&mut world, tick);
                update(&mut world, tick.dt.dt_secs_f32());
                stats.ticks += 1;
            }
            Event::DroppedTicks { count, .. } => stats.dropped += count,
            Event::DiscardedTime { ticks, .. } => stats.dropped += ticks,
            Event::Render(r) => {
                stats.frames += 1;
                // The blended positions, into one reused buffer (α = 1: the latest tick). Done
                // headless too, so the summary's CPU time includes the adapter's work.
                let alpha = if o.interpolate { r.alpha } else { 1.0 };
                interp.extract(&world, alpha, &mut positions);
                if !o.headless && draw_error.is_none() {
                    let header = format!(
                        "tickfold demo: {} balls, {} Hz ticks, renders <= {} Hz, interpolation {} | tick {} alpha {:.2}",
                        o.balls,
                        o.tick_hz,
                        o.render_hz,
                        if o.interpolate { "on" } else { "off (--no-interp)" },
                        state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
                        alpha
                    );
                    draw_error = draw(&mut out, &positions, &header).err();
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
    let options = parse().map(|mut o| {
        // Frames only make sense on a terminal; anywhere else print the summary alone.
        if !o.headless && !io::stdout().is_terminal() {
            o.headless = true;
            eprintln!("demo: output is not a terminal, printing the summary only (as --headless)");
        }
        o
    });
    match options.and_then(|o| run(&o)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("demo: {e}");
            ExitCode::from(2)
        }
    }
}
