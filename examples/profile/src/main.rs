//! The loop in a profiler: a two-clock game on the real clock, recorded with the facade's
//! `tracing` feature by `tracing-chrome` into a Chrome trace, and one frame of it drawn as an
//! SVG the way a trace viewer draws it (the picture in the guide's profiling chapter).
//!
//! Physics runs at 60 Hz (about 0.3 ms of work a tick), AI at 10 Hz (1.5 ms), each frame
//! draws for 2 ms, frames at most 100 ms apart count (the max frame delta). Half a second in,
//! one draw stalls for 150 ms (a hitch: a shader compiled, a file loaded), so the next frame
//! drops physics' oldest ticks: a WARN inside its step. The work is the game's own spans
//! (`simulate`, `think`, `draw`), children of tickfold's `update` and `render` spans.
//!
//! ```text
//! cargo run --release -p tickfold-profile -- --trace target/trace.json --svg target/frame.svg
//! ```
//!
//! `trace.json` opens in `ui.perfetto.dev` or `chrome://tracing`; the SVG is the frame that
//! holds the drop.

mod svg;

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use tickfold::runner::{RealTime, Runner, SpinSleep};
use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Period};
use tracing::info_span;
use tracing_chrome::ChromeLayerBuilder;
use tracing_subscriber::layer::SubscriberExt;

/// Spins for `d`: work the profiler sees.
fn busy(d: Duration) {
    let start = Instant::now();
    let mut x = 0_u64;
    while start.elapsed() < d {
        x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
}

/// Runs the game for `seconds` on the real clock, every span recorded into `trace`; returns
/// physics' ticks run and dropped.
fn record(trace: &PathBuf, seconds: f64) -> Result<(u64, u64), Box<dyn Error>> {
    let (chrome, guard) = ChromeLayerBuilder::new()
        .file(trace)
        .include_args(true)
        .build();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(chrome))?;

    let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(60)?))
        .clock(ClockConfig::new("ai", Period::from_hz(10)?))
        .max_frame_delta(Some(Duration::from_millis(100)));
    let start = Instant::now();
    let state = LoopState::new(config, start)?;
    let physics = state.clock("physics")?.id();
    let mut runner = Runner::new(state, RealTime, SpinSleep::default());
    let (mut stalled, mut dropped) = (false, 0);
    while start.elapsed().as_secs_f64() < seconds {
        let deadline = runner.frame(|event, _state| match event {
            Event::Update(tick) if tick.clock == physics => {
                info_span!("simulate").in_scope(|| busy(Duration::from_micros(300)));
            }
            Event::Update(_) => info_span!("think").in_scope(|| busy(Duration::from_micros(1500))),
            Event::Render(_) => info_span!("draw").in_scope(|| {
                busy(Duration::from_millis(2));
                if !stalled && start.elapsed() > Duration::from_millis(500) {
                    stalled = true;
                    info_span!("hitch").in_scope(|| busy(Duration::from_millis(150)));
                }
            }),
            Event::DiscardedTime { ticks, .. } => dropped += ticks,
            _ => {}
        });
        if let Some(deadline) = deadline {
            runner.wait_until(deadline);
        }
    }
    let ticks = runner.state().clock("physics")?.stats().ticks_run;
    drop(guard); // writes the rest of the trace
    Ok((ticks, dropped))
}

fn main() -> ExitCode {
    let mut trace = PathBuf::from("trace.json");
    let mut svg_out = None;
    let mut seconds = 1.0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--trace", Some(v)) => trace = v.into(),
            ("--svg", Some(v)) => svg_out = Some(PathBuf::from(v)),
            ("--seconds", Some(v)) => seconds = v.parse().unwrap_or(seconds),
            _ => {
                eprintln!("usage: profile [--trace PATH] [--svg PATH] [--seconds S]");
                return ExitCode::FAILURE;
            }
        }
    }
    let (ticks, dropped) = match record(&trace, seconds) {
        Ok(counts) => counts,
        Err(e) => {
            eprintln!("profile: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{ticks} physics ticks, {dropped} dropped; trace in {}",
        trace.display()
    );
    if let Some(out) = svg_out {
        let drawn = std::fs::read_to_string(&trace)
            .map_err(Box::<dyn Error>::from)
            .and_then(|json| svg::frame_with_warning(&json))
            .and_then(|svg| Ok(std::fs::write(&out, svg)?));
        if let Err(e) = drawn {
            eprintln!("profile: {e}");
            return ExitCode::FAILURE;
        }
        println!("the frame with the drop in {}", out.display());
    }
    ExitCode::SUCCESS
}
