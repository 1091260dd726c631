//! Measures hysteresis against frame jitter: for every refresh rate from 30 to 360 Hz against
//! tick rates from 20 to 240 Hz, with ±50 µs and ±500 µs of frame jitter, prints the irregular
//! frames and the drawn-time error of plain tickfold, `.hysteresis(0.5)` and a model of Godot's
//! `physics_jitter_fix = 0.5` on the same seeded frames.
//!
//! Run with `cargo run --release -p tickfold-core --example hysteresis [-- FRAMES]`
//! (default 14,400 frames per row).

use tickfold_jitter_sim::{Outcome, REFRESH, TICKS, row};

fn cell(o: &Outcome) -> String {
    format!(
        "{:>5} {:>5} {:>7.3}",
        o.irregular,
        o.over_1ms,
        o.worst_ns / 1e6
    )
}

fn main() {
    let frames: u64 = std::env::args()
        .nth(1)
        .map_or(14_400, |a| a.parse().expect("FRAMES must be a number"));
    println!(
        "{frames} frames per row; each cell: irregular frames, frames > 1 ms off, worst error (ms)"
    );
    println!(
        "{:>7} {:>5} {:>6} | {:^19} | {:^19} | {:^19}",
        "refresh", "ticks", "jitter", "plain", "hysteresis(0.5)", "Godot jitter_fix 0.5"
    );
    let (mut worse, mut better, mut rows) = (0, 0, 0);
    for amp in [50_000, 500_000] {
        for refresh in REFRESH {
            for ticks in TICKS {
                let r = row(refresh, ticks, amp, frames);
                rows += 1;
                let h = &r.hysteresis;
                let p = &r.plain;
                let mark = if h.irregular > p.irregular || h.over_1ms > p.over_1ms {
                    worse += 1;
                    " WORSE"
                } else if h.irregular < p.irregular {
                    better += 1;
                    ""
                } else {
                    ""
                };
                println!(
                    "{:>7} {:>5} {:>4}µs | {} | {} | {}{mark}",
                    refresh.label(),
                    ticks,
                    amp / 1_000,
                    cell(p),
                    cell(h),
                    cell(&r.godot)
                );
            }
        }
    }
    println!(
        "{rows} rows: hysteresis has fewer irregular frames than plain in {better}, is worse in {worse}"
    );
}
