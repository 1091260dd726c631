//! The fold gives bit-identical events on every target for the same timestamps: a recorded
//! trace (`x86_64`, `golden/cross_target.txt`) of jittered, smoothed, spiking and backward frames
//! through two clocks, every event printed with `{:?}` (floats print their exact value), is
//! compared line by line. CI runs this test on wasm32-wasip1 too (`.ci/wasm-tests`).
//!
//! Record it again after an intended change of the fold's output:
//! `TICKFOLD_BLESS=1 cargo test -p tickfold-core --test cross_target`.

use core::fmt::Write;
use tickfold_testing::SplitMix64;

use tickfold_core::{ClockConfig, DeltaSmoother, LoopConfig, LoopState, Nanos, Period};

const RECORDED: &str = include_str!("golden/cross_target.txt");

fn trace() -> String {
    let config = LoopConfig::new(Period::from_hz(60).unwrap())
        .clock(ClockConfig::new("physics", Period::from_hz(144).unwrap()).hysteresis(0.5))
        .render_rate(Some(Period::from_hz(120).unwrap()));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut smoother = DeltaSmoother::new();
    let mut rng = SplitMix64::new(0x5EED);
    let mut rand = move || rng.next_u64();
    let mut out = String::new();
    let mut t: u64 = 0;
    for frame in 0..400u64 {
        let r = rand();
        t = match r % 50 {
            0 => t.saturating_sub(r % 5_000_000),  // backwards
            1 => t + 300_000_000 + r % 90_000_000, // a spike
            _ => t + 16_666_667 + r % 2_000_001 - 1_000_000,
        } / 100_000
            * 100_000;
        let now = if frame % 2 == 0 {
            smoother.smooth(Nanos(t))
        } else {
            Nanos(t)
        };
        let (next, events) = state.step(now);
        state = next;
        let _ = writeln!(out, "frame {frame} at {}", now.0);
        for event in &events {
            let _ = writeln!(out, "{event:?}");
        }
    }
    out
}

#[test]
fn events_are_bit_identical_to_the_recorded_trace() {
    let got = trace();
    #[cfg(not(target_family = "wasm"))]
    if std::env::var_os("TICKFOLD_BLESS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/cross_target.txt");
        std::fs::write(path, &got).unwrap();
        return;
    }
    let mut lines = 0;
    for (i, (g, r)) in got.lines().zip(RECORDED.lines()).enumerate() {
        assert_eq!(g, r, "line {} differs from the recorded trace", i + 1);
        lines += 1;
    }
    assert_eq!(got.lines().count(), RECORDED.lines().count());
    assert!(
        lines > 1_000,
        "the recorded trace is too short: {lines} lines"
    );
}
