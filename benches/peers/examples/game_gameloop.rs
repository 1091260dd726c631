//! `examples/game/` written on `game-loop` 1.3 instead of tickfold: the same 10,000 bodies and
//! update (`examples/game-bodies`), 30 Hz updates, renders blended at `blending_factor()`
//! and paced at 60 Hz on the real clock, a 250 ms cap on a frame's time (`max_frame_time`),
//! the same per-second figures, exit after `--seconds N` (default 2) through `exit()`.
//!
//! What `game-loop` leaves to the game: keeping the state before each update and blending it
//! (`tickfold_game_bodies::hand`, as the hand-written loop does), and pacing: its headless loop
//! renders as often as it can, so the render itself sleeps out the rest of 1/60 s since the
//! previous one (a frame limiter: sleep overshoot adds up, about 59 renders a second). It has
//! no report of time it drops past `max_frame_time`, no tick numbers or times beyond a count,
//! and no state to save and resume (the example's `--save-at`). The `// glue:` regions are
//! what `count_glue.sh` counts.
//!
//! ```text
//! cargo run --release --manifest-path benches/peers/Cargo.toml --example game_gameloop -- --seconds 2
//! ```

use game_loop::{GameLoop, Time, TimeTrait};
use tickfold_game_bodies::hand::HandGame;
use tickfold_game_bodies::{Figures, Position};

const BODIES: usize = 10_000;
const TICK_HZ: u32 = 30;
// glue: pacing
const RENDER_HZ: f64 = 60.0;
// end glue

/// The game and what this headless "renderer" keeps between frames.
struct Session<T> {
    game: HandGame,
    buffer: Vec<Position>,
    figures: Figures,
    /// Stop at the first render at or after this loop time, in seconds.
    seconds: f64,
    // glue: pacing
    /// When the latest render's wait ended: the next waits out the rest of 1/60 s from there.
    last_render: Option<T>,
    // end glue
}

/// Runs the loop (`game_loop::game_loop`'s own body, generic over the clock for the test).
fn play<T: TimeTrait>(g: &mut GameLoop<Session<T>, T, ()>) {
    // glue: loop
    while g.next_frame(
        |g| g.game.game.update(g.fixed_time_step() as f32),
        |g| {
            // end glue
            let (now, ticks) = (g.running_time(), g.number_of_updates());
            // glue: interpolation
            let alpha = g.blending_factor();
            let first = g.game.game.render(alpha, &mut g.game.buffer);
            // end glue
            let s = &mut g.game;
            let line = s
                .figures
                .render(now, ticks, alpha, &s.buffer, first, s.game.wraps);
            if let Some(line) = line {
                println!("{line}");
            }
            // glue: loop
            if now >= g.game.seconds {
                g.exit();
            }
            // end glue
            let s = &mut g.game;
            // glue: pacing
            if let Some(at) = s.last_render {
                T::sleep((1.0 / RENDER_HZ - T::now().sub(&at)).max(0.0));
            }
            s.last_render = Some(T::now());
            // end glue
            // glue: loop
        },
    ) {}
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
    let session = Session {
        game: HandGame::new(BODIES),
        buffer: Vec::with_capacity(BODIES),
        figures: Figures::new(),
        seconds,
        // glue: pacing
        last_render: None,
        // end glue
    };
    println!("{BODIES} bodies, {TICK_HZ} Hz ticks, game-loop on the real clock for {seconds} s");
    // glue: loop
    let mut g = GameLoop::<_, Time, ()>::new(session, TICK_HZ, 0.25, ());
    play(&mut g);
    // end glue
    println!(
        "done: {} ticks in {:.3} s of loop time ({} expected at {TICK_HZ} Hz), {} wraps",
        g.number_of_updates(),
        g.running_time(),
        (g.running_time() * f64::from(TICK_HZ)) as u64,
        g.game.game.wraps
    );
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    thread_local! {
        /// The fake clock's time, in seconds: it moves only when the loop sleeps.
        static NOW: Cell<f64> = const { Cell::new(0.0) };
    }

    #[derive(Copy, Clone)]
    struct Fake(f64);

    impl TimeTrait for Fake {
        fn now() -> Self {
            Fake(NOW.with(Cell::get))
        }
        fn sub(&self, other: &Self) -> f64 {
            self.0 - other.0
        }
        fn supports_sleep() -> bool {
            true
        }
        fn sleep(seconds: f64) {
            NOW.with(|t| t.set(t.get() + seconds));
        }
    }

    #[test]
    fn on_a_fake_clock_the_loop_runs_a_tick_per_thirtieth_and_renders_at_60_hz() {
        let session = Session {
            game: HandGame::new(200),
            buffer: Vec::new(),
            figures: Figures::new(),
            seconds: 2.0,
            last_render: None,
        };
        let mut g = GameLoop::<_, Fake, ()>::new(session, TICK_HZ, 0.25, ());
        play(&mut g);
        let (t, ticks) = (g.running_time(), g.number_of_updates());
        assert!(
            (2.0..2.0 + 1.5 / RENDER_HZ).contains(&t),
            "stopped at {t} s"
        );
        // An f64 accumulator: whole ticks of the loop time, give or take its rounding.
        assert!(
            (ticks as f64 - t * f64::from(TICK_HZ)).abs() < 1.0,
            "{ticks} ticks in {t} s"
        );
        // Renders wait out 1/60 s each (the first two run at once: nothing to wait for yet).
        assert_eq!(g.number_of_renders(), (t * RENDER_HZ).round() as u64 + 2);
        // The loop ran exactly `ticks` updates of one tick each: the same world as a plain run.
        let mut plain = HandGame::new(200);
        for _ in 0..ticks {
            plain.update(1.0 / TICK_HZ as f32);
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        assert_eq!(g.game.game.render(1.0, &mut a), plain.render(1.0, &mut b));
        assert_eq!(a, b);
        assert_eq!(g.game.game.wraps, plain.wraps);
    }
}
