//! `examples/game/` on a hand-written loop, Glenn Fiedler's "Fix Your Timestep" accumulator:
//! the same 10,000 bodies and update (`examples/game-bodies`), 30 Hz updates, renders at
//! `alpha = accumulator / dt` between the previous and current state, a 250 ms cap on a
//! frame's time (the article's), renders paced at 60 Hz by sleeping to a fixed grid, the same
//! per-second figures, exit after `--seconds N` (default 2).
//!
//! What the loop leaves out, as the article's does: a report of the time it drops past the
//! 250 ms cap, tick numbers and times beyond a count, exact time (an `f64` accumulator), and a
//! state to save and resume (the example's `--save-at`). The `// glue:` regions are what
//! `count_glue.sh` counts.
//!
//! ```text
//! cargo run --release --manifest-path benches/peers/Cargo.toml --example game_fiedler -- --seconds 2
//! ```

use std::time::{Duration, Instant};

use tickfold_game_bodies::hand::HandGame;
use tickfold_game_bodies::{Figures, Position};

const BODIES: usize = 10_000;
const TICK_HZ: u32 = 30;
// glue: pacing
const RENDER_HZ: u32 = 60;
// end glue

/// The game and what this headless "renderer" keeps between frames.
struct Session {
    game: HandGame,
    buffer: Vec<Position>,
    figures: Figures,
    /// Stop at the first render at or after this loop time, in seconds.
    seconds: f64,
    // glue: loop
    ticks: u64,
    // end glue
}

/// Runs the loop on a clock read by `now` (the time since any fixed instant) that `sleep`
/// waits on; returns the loop time, in seconds.
fn play(s: &mut Session, now: impl Fn() -> Duration, sleep: impl Fn(Duration)) -> f64 {
    // glue: loop
    let dt = 1.0 / f64::from(TICK_HZ);
    let (mut t, mut accumulator, mut current_time) = (0.0, 0.0, now());
    // end glue
    // glue: pacing
    let (period, mut next_render) = (Duration::from_secs(1) / RENDER_HZ, now());
    // end glue
    // glue: loop
    loop {
        let new_time = now();
        let frame_time = (new_time - current_time).as_secs_f64().min(0.25);
        current_time = new_time;
        t += frame_time;
        accumulator += frame_time;
        while accumulator >= dt {
            s.game.update(dt as f32);
            s.ticks += 1;
            accumulator -= dt;
        }
        // end glue
        // glue: interpolation
        let alpha = accumulator / dt;
        let first = s.game.render(alpha, &mut s.buffer);
        // end glue
        let line = s
            .figures
            .render(t, s.ticks, alpha, &s.buffer, first, s.game.wraps);
        if let Some(line) = line {
            println!("{line}");
        }
        // glue: loop
        if t >= s.seconds {
            return t;
        }
        // end glue
        // glue: pacing
        next_render += period;
        match next_render.checked_sub(now()) {
            Some(wait) => sleep(wait),
            None => next_render = now(), // late: the next slot starts now
        }
        // end glue
        // glue: loop
    }
    // end glue
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds = match args.iter().position(|a| a == "--seconds") {
        Some(i) => args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .expect("--seconds N"),
        None => 2.0,
    };
    let mut session = Session {
        game: HandGame::new(BODIES),
        buffer: Vec::with_capacity(BODIES),
        figures: Figures::new(),
        seconds,
        // glue: loop
        ticks: 0,
        // end glue
    };
    println!(
        "{BODIES} bodies, {TICK_HZ} Hz ticks, a hand-written loop on the real clock for {seconds} s"
    );
    // glue: loop
    let start = Instant::now();
    let t = play(&mut session, || start.elapsed(), std::thread::sleep);
    // end glue
    println!(
        "done: {} ticks in {t:.3} s of loop time ({} expected at {TICK_HZ} Hz), {} wraps",
        session.ticks,
        (t * f64::from(TICK_HZ)) as u64,
        session.game.wraps
    );
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn on_a_fake_clock_the_loop_runs_a_tick_per_thirtieth_and_renders_at_60_hz() {
        let mut session = Session {
            game: HandGame::new(200),
            buffer: Vec::new(),
            figures: Figures::new(),
            seconds: 2.0,
            ticks: 0,
        };
        // A clock that moves only when the loop sleeps.
        let (now, sleeps) = (Cell::new(Duration::ZERO), Cell::new(0_u64));
        let sleep = |d: Duration| {
            now.set(now.get() + d);
            sleeps.set(sleeps.get() + 1);
        };
        let t = play(&mut session, || now.get(), sleep);
        assert!(
            (2.0..2.0 + 1.5 / f64::from(RENDER_HZ)).contains(&t),
            "stopped at {t} s"
        );
        // An f64 accumulator: whole ticks of the loop time, give or take its rounding.
        let ticks = session.ticks;
        assert!(
            (ticks as f64 - t * f64::from(TICK_HZ)).abs() < 1.0,
            "{ticks} ticks in {t} s"
        );
        // A render per 1/60 s slot of the grid, none skipped: each slept to the next.
        assert_eq!(sleeps.get(), (t * f64::from(RENDER_HZ)).round() as u64);
        // The loop ran exactly `ticks` updates of one tick each: the same world as a plain run.
        let mut plain = HandGame::new(200);
        for _ in 0..ticks {
            plain.update(1.0 / TICK_HZ as f32);
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        assert_eq!(session.game.render(1.0, &mut a), plain.render(1.0, &mut b));
        assert_eq!(a, b);
        assert_eq!(session.game.wraps, plain.wraps);
    }
}
