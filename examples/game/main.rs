//! A complete game, the one the guide's tutorial (`tickfold::guide::tutorial`) builds step by
//! step, at full size: a hecs world of 10,000
//! bodies (`Position(Vec3)` and `Rotation(Quat)` blended through `#[derive(Interpolate)]`, a
//! `Velocity(Vec3)` and a spin that are not), simulated at a fixed 30 Hz and rendered with
//! interpolation at the display's rate (the runner's default 60 Hz, or `--render-hz`) on the
//! real clock, sleeping between frames. It runs headless: a frame "draws" by blending every
//! position into an instance buffer and summing it, reading every rotation and sampling one
//! body, and the program prints per-second figures. With `--save-at SECONDS` it saves the game
//! mid-run (loop state, components and both trackers through `serde_json`), drops it, loads
//! the save into a fresh world and loop, and goes on. It exits after `--seconds N` (default 2)
//! through `ctl.exit()`. Headless is the default; with the facade's `winit` feature on,
//! `--window` runs the same game in a window instead (`window.rs`: `tickfold::winit::App`
//! drives the runner from winit's event loop; the title shows the per-second figures, the
//! contents stay blank, since the facade has nothing to draw pixels with; `--save-at` is
//! headless only).
//!
//! The game itself (components, update, render, save file) is `world.rs`, checked by the
//! example's tests (`tests.rs`, run by `cargo test`): the tick count and a hand-computed blend
//! on a fake clock, determinism over arbitrary frame schedules, and a bit-identical resume
//! from a save. Its bodies (`examples/game-bodies`, the `tickfold-game-bodies` crate) are
//! shared with the same program on `game-loop` and on a
//! hand-written "Fix Your Timestep" loop (`benches/peers/examples/`); the `// glue:` regions
//! mark the loop, interpolation and pacing code that `benches/peers/count_glue.sh` counts in
//! all three.
//!
//! ```text
//! cargo run --release --example game --features hecs,glam,serde,derive -- --seconds 4 --save-at 1.5
//! cargo run --release --example game --features hecs,glam,serde,derive,winit -- --window
//! ```

#[cfg(feature = "winit")]
mod window;
mod world;

#[cfg(test)]
mod tests;

use tickfold::runner::{RealNanos, Runner, SleepOn, SpinSleep};
use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
use world::{Figures, Game, Position};

const BODIES: usize = 10_000;
const TICK_HZ: u64 = 30;

/// The runner this program uses: `LoopState<Nanos>` on the real clock, so the state saves as
/// it is, sleeping with `SpinSleep`.
type RealRunner = Runner<Nanos, RealNanos, SleepOn<SpinSleep>>;

/// The game and what this headless "renderer" keeps between frames.
struct Session {
    game: Game,
    buffer: Vec<Position>,
    /// Stop at the first render at or after this loop time.
    until: Nanos,
    figures: Figures,
}

fn arg(args: &[String], name: &str) -> Option<f64> {
    let i = args.iter().position(|a| a == name)?;
    let value = args.get(i + 1)?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name}: not a number: {value}")),
    )
}

fn runner_for(state: LoopState<Nanos>, clock: RealNanos, render_hz: Option<u64>) -> RealRunner {
    // glue: pacing
    let runner = Runner::new(state, clock, clock.sleeper(SpinSleep::default()));
    // end glue
    // `--render-hz`, which the other versions do not have (they draw at 60 Hz, as this does
    // by default: a sleeping runner caps renders at 60 Hz unless told otherwise).
    match render_hz {
        Some(hz) => runner.with_render_rate(Some(Period::from_hz(hz).expect("a render rate"))),
        None => runner,
    }
}

/// Runs the loop until the session's `until`: updates the game on `Update`, draws on `Render`.
fn play(runner: &mut RealRunner, session: &mut Session) {
    // glue: loop
    runner.run_with(session, |s, event, state, ctl| match event {
        Event::Update(tick) => s.game.update(tick),
        Event::Render(frame) => {
            // end glue
            // glue: interpolation
            let drawn = s.game.render(frame.alpha, &mut s.buffer);
            // end glue
            let (now, ticks) = (
                state.real_time().elapsed(),
                state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
            );
            let (secs, wraps) = (now.0 as f64 * 1e-9, s.game.wraps);
            let line = s
                .figures
                .render(secs, ticks, frame.alpha, &s.buffer, drawn.first, wraps);
            if let Some(line) = line {
                println!("{line}");
            }
            // glue: loop
            if now >= s.until {
                ctl.exit(); // after a render: nothing is left pending, the state is the game's
            }
        }
        _ => {}
    });
    // end glue
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let seconds = arg(&args, "--seconds").unwrap_or(2.0);
    let save_at = arg(&args, "--save-at").filter(|&s| s < seconds);
    let render_hz = arg(&args, "--render-hz").map(|hz| hz as u64);
    let secs = |s: f64| Nanos((s * 1e9) as u64);
    if args.iter().any(|a| a == "--window") {
        if save_at.is_some() {
            eprintln!("--save-at: headless only, ignored with --window");
        }
        return windowed(seconds, render_hz);
    }

    let game = Game::new(BODIES);
    let mut session = Session {
        game,
        buffer: Vec::with_capacity(BODIES),
        until: secs(save_at.unwrap_or(seconds)),
        figures: Figures::new(),
    };
    println!("{BODIES} bodies, {TICK_HZ} Hz ticks, rendering on the real clock for {seconds} s");
    // glue: loop
    let state = LoopState::new(LoopConfig::new(Period::from_hz(TICK_HZ)?), Nanos(0))?;
    let mut runner = runner_for(state, RealNanos::new(), render_hz);
    play(&mut runner, &mut session);
    // end glue

    if save_at.is_some() {
        let json = world::save(&session.game, runner.state())?;
        drop(runner);
        let (game, state) = world::load(&json)?;
        println!(
            "saved at {:.3} s ({} ticks, {} KB of JSON) and loaded into a fresh world",
            state.real_time().elapsed().0 as f64 * 1e-9,
            state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
            json.len() / 1024
        );
        session.game = game;
        session.until = secs(seconds);
        // The clock reads the state's latest time at once: no time passes across the load.
        let clock = RealNanos::resuming(&state);
        runner = runner_for(state, clock, render_hz);
        play(&mut runner, &mut session);
    }
    let state = runner.state();
    println!(
        "done: {} ticks in {:.3} s of loop time ({} expected at {TICK_HZ} Hz), {} wraps",
        state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
        state.real_time().elapsed().0 as f64 * 1e-9,
        state.real_time().elapsed().0 * TICK_HZ / 1_000_000_000,
        session.game.wraps
    );
    Ok(())
}

/// `--window`: the same game in a winit window (`window.rs`).
#[cfg(feature = "winit")]
fn windowed(seconds: f64, render_hz: Option<u64>) -> Result<(), Box<dyn std::error::Error>> {
    window::run(Game::new(BODIES), TICK_HZ, seconds, render_hz)
}

/// `--window` without the feature: say how to get it.
#[cfg(not(feature = "winit"))]
fn windowed(_seconds: f64, _render_hz: Option<u64>) -> Result<(), Box<dyn std::error::Error>> {
    Err("--window needs the `winit` feature: --features hecs,glam,serde,derive,winit".into())
}
