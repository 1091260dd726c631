//! The loop on a fake clock, as a tool: folds `LoopState` over a scripted schedule of frame,
//! update and render costs and prints every step and event, one JSON object per line, in the
//! order the fold decides them (or the lines of the purely functional Scheme loop article with
//! `--format text`). It reproduces that article's two printed traces and the constant-rate loop
//! article's drop & rest and keep-working figures, and shows exactly what the fold decides for
//! any schedule, with no real clock and no sleeping.
//!
//! ```text
//! cargo run --example trace -- --tick-ms 500 --frame-ms 1000 --max-frame-ms none --max-updates none --steps 11 --format text
//! cargo run --example trace -- --policy drop-and-rest --tick-ms 10 --update-ms 3,15,3,3 --steps 4
//! ```

use std::borrow::Cow;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

mod timeline;
use timeline::Mark;

use tickfold::{ClockConfig, Event, Firing, LoopConfig, LoopState, Nanos, Period, Policy};

const HELP: &str = "\
trace: fold the tickfold loop on a fake clock and print every event.

The fake clock starts at 0 and the loop is created at 0. Then, --steps times:
  1. now += the next frame cost;
  2. step(now);
  3. for each event, in order: `sleep` sets now = max(now, until); `update` adds the next
     update cost; `render` adds the next render cost.
Elapsed time therefore includes the costs of the updates and renders.

Flags:
  --tick-ms F | --tick-hz N[/D]   tick length in ms, or rate in Hz (N/D Hz exactly; decimals ok)
  --clock NAME=HZ | NAME=ms:F      a named clock (repeatable); replaces --tick-*; the first is
                                   the main clock, whose alpha the renders carry
  --policy P                       catch-up (default) | drop-and-rest | keep-working | delay
                                   (delay: constant rate; a late slot runs at once and the
                                   grid moves with it, so nothing is dropped)
  --firing R                       late (default) | nearest
  --max-updates N|none             per-step update cap (default 8)
  --max-frame-ms F|none            max frame delta (default 250)
  --phase F                        start the accumulator F of a tick in (default 0)
  --hysteresis F                   keep frames on their steady update pattern despite jitter:
                                   a tick runs early or waits for the next frame, moved by at
                                   most F of a tick and no more than the frame jitter measured
                                   on the timestamps; in [0, 0.5], catch-up only (default 0: off)
  --render-hz N[/D]                cap renders to a fixed grid at this rate (default: no cap)
  --frame-ms LIST                  frame costs, comma-separated ms, used cyclically (default 0)
  --update-ms LIST                 update costs, likewise (default 0)
  --render-ms LIST                 render costs, likewise (default 0)
  --steps N                        how many steps (default 10)
  --format jsonl|text|svg          output format (default jsonl); svg draws a timeline like
                                   the constant-rate loop article's figures: a row per step,
                                   updates in their slots,
                                   renders with α, dropped slots in red, sleeps as dashed gaps
  --help                           this text

JSON lines, in the order of the decisions: each step opens with a `step` line at the `now` it
was called with, then the events it decided, in order. Every line has `at_ns` (the fake clock
when the step is called or the event is handled) and `event`:
  step            step, deadline_ns: when to call the next step, decided with this step's events
                  (null: nothing is due by time alone; equal to at_ns: at once, when these
                  events are handled, as a constant-rate loop or a capped backlog asks)
  update          clock, tick, t_ns, lag_ns (the lag before this tick, floored), last_in_step
  render          alpha, ticks, paused
  dropped         clock, ticks, first, reason \"slot_missed\"
                  or clock, time_ns, ticks, first, reason \"max_frame_delta\" (the oldest due
                  ticks beyond the max frame delta, skipped; time_ns is the excess real time)
  sleep           until_ns
  deferred        clock, ticks (backlog kept by the cap)
  clock_backwards by_ns
  paused | resumed | scale_changed (num, den)

Reference scenarios:
  the purely functional Scheme loop article's two printed traces:
  --tick-ms 500 --frame-ms 1000 --max-frame-ms none --max-updates none --steps 11 --format text
  --tick-ms 20 --frame-ms 16 --max-frame-ms none --max-updates none --steps 16 --format text
  the constant-rate loop article's figures: drop & rest (slot 2 lost, slot 3 on time), keep
  working (slot 2 run late), keep working with slot 2 lost:
  --policy drop-and-rest --tick-ms 10 --update-ms 3,15,3,3 --steps 4
  --policy keep-working --tick-ms 10 --update-ms 3,15,3,3 --steps 4
  --policy keep-working --tick-ms 10 --update-ms 3,25,3,3 --steps 4
";

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Jsonl,
    Text,
    Svg,
}

struct Args {
    clocks: Vec<(String, Period)>,
    policy: Policy,
    firing: Firing,
    max_updates: Option<u32>,
    max_frame: Option<Duration>,
    phase: f64,
    hysteresis: f64,
    render_rate: Option<Period>,
    frame: Vec<u64>,
    update: Vec<u64>,
    render: Vec<u64>,
    steps: u64,
    format: Format,
}

fn ms_to_ns(ms: &str) -> Result<u64, String> {
    let v: f64 = ms
        .trim()
        .parse()
        .map_err(|_| format!("not a number of ms: {ms:?}"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("not a non-negative number of ms: {ms:?}"));
    }
    Ok((v * 1e6).round() as u64)
}

fn ms_list(list: &str) -> Result<Vec<u64>, String> {
    list.split(',').map(ms_to_ns).collect()
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn hz(text: &str) -> Result<Period, String> {
    if let Some((n, d)) = text.split_once('/') {
        let n = n.parse().map_err(|_| format!("bad rate {text:?}"))?;
        let d = d.parse().map_err(|_| format!("bad rate {text:?}"))?;
        return Period::from_hz_ratio(n, d).map_err(err);
    }
    match text.parse::<u64>() {
        Ok(n) => Period::from_hz(n).map_err(err),
        Err(_) => {
            let f: f64 = text.parse().map_err(|_| format!("bad rate {text:?}"))?;
            Period::from_hz_f64(f).map_err(err)
        }
    }
}

fn tick_ms(text: &str) -> Result<Period, String> {
    let f: f64 = text
        .parse()
        .map_err(|_| format!("bad tick length {text:?}"))?;
    Period::from_millis_f64(f).map_err(err)
}

fn parse_clock(spec: &str) -> Result<(String, Period), String> {
    let (name, rate) = spec
        .split_once('=')
        .ok_or(format!("--clock wants NAME=HZ or NAME=ms:F, got {spec:?}"))?;
    let rate = match rate.strip_prefix("ms:") {
        Some(ms) => tick_ms(ms)?,
        None => hz(rate)?,
    };
    Ok((name.to_owned(), rate))
}

fn parse(argv: &[String]) -> Result<Option<Args>, String> {
    let mut a = Args {
        clocks: Vec::new(),
        policy: Policy::CatchUp,
        firing: Firing::Late,
        max_updates: Some(8),
        max_frame: Some(Duration::from_millis(250)),
        phase: 0.0,
        hysteresis: 0.0,
        render_rate: None,
        frame: vec![0],
        update: vec![0],
        render: vec![0],
        steps: 10,
        format: Format::Jsonl,
    };
    let mut tick: Option<Period> = None;
    let mut it = argv.iter();
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let none_or = |v: &str| {
            if v == "none" {
                None
            } else {
                Some(v.to_owned())
            }
        };
        match flag.as_str() {
            "--tick-ms" => tick = Some(tick_ms(value)?),
            "--tick-hz" => tick = Some(hz(value)?),
            "--clock" => a.clocks.push(parse_clock(value)?),
            "--policy" => {
                a.policy = match value.as_str() {
                    "catch-up" => Policy::CatchUp,
                    "drop-and-rest" => Policy::DropAndRest,
                    "keep-working" => Policy::KeepWorking,
                    "delay" => Policy::Delay,
                    _ => return Err(format!("unknown policy {value:?}")),
                }
            }
            "--firing" => {
                a.firing = match value.as_str() {
                    "late" => Firing::Late,
                    "nearest" => Firing::Nearest,
                    _ => return Err(format!("unknown firing rule {value:?}")),
                }
            }
            "--max-updates" => {
                a.max_updates = match none_or(value) {
                    None => None,
                    Some(v) => Some(v.parse().map_err(|_| format!("bad --max-updates {v:?}"))?),
                }
            }
            "--max-frame-ms" => {
                a.max_frame = match none_or(value) {
                    None => None,
                    Some(v) => Some(Duration::from_nanos(ms_to_ns(&v)?)),
                }
            }
            "--phase" => {
                a.phase = value
                    .parse()
                    .map_err(|_| format!("bad --phase {value:?}"))?
            }
            "--hysteresis" => {
                a.hysteresis = value
                    .parse()
                    .map_err(|_| format!("bad --hysteresis {value:?}"))?
            }
            "--render-hz" => a.render_rate = Some(hz(value)?),
            "--frame-ms" => a.frame = ms_list(value)?,
            "--update-ms" => a.update = ms_list(value)?,
            "--render-ms" => a.render = ms_list(value)?,
            "--steps" => {
                a.steps = value
                    .parse()
                    .map_err(|_| format!("bad --steps {value:?}"))?
            }
            "--format" => {
                a.format = match value.as_str() {
                    "jsonl" => Format::Jsonl,
                    "text" => Format::Text,
                    "svg" => Format::Svg,
                    _ => return Err(format!("unknown format {value:?}")),
                }
            }
            _ => return Err(format!("unknown flag {flag:?} (see --help)")),
        }
    }
    if a.clocks.is_empty() {
        a.clocks.push((
            "main".to_owned(),
            tick.ok_or("give --tick-ms, --tick-hz or --clock")?,
        ));
    }
    Ok(Some(a))
}

fn config(a: &Args) -> LoopConfig {
    let clock = |(name, rate): &(String, Period)| {
        ClockConfig::new(name.clone(), *rate)
            .policy(a.policy)
            .firing(a.firing)
            .max_updates(a.max_updates)
            .phase(a.phase)
            .hysteresis(a.hysteresis)
    };
    let mut config = LoopConfig::from_clock(clock(&a.clocks[0]))
        .max_frame_delta(a.max_frame)
        .render_rate(a.render_rate);
    for c in &a.clocks[1..] {
        config = config.clock(clock(c));
    }
    config
}

/// Milliseconds for the text format: whole numbers without decimals, others as needed.
fn ms(ns: u64) -> String {
    if ns % 1_000_000 == 0 {
        (ns / 1_000_000).to_string()
    } else {
        let s = format!("{:.6}", ns as f64 / 1e6);
        s.trim_end_matches('0').to_owned()
    }
}

fn line(state: &LoopState, at: u64, event: &Event<Nanos>, format: Format) -> String {
    let name = |c| {
        state
            .clock(c)
            .ok()
            .map(|c| c.stats())
            .map_or(Cow::Borrowed("?"), |s| s.name)
    };
    let many = state.clock_names().count() > 1;
    match (format, event) {
        (Format::Jsonl | Format::Svg, e) => {
            let body = match e {
                Event::Update(t) => format!(
                    r#""event":"update","clock":"{}","tick":{},"t_ns":{},"lag_ns":{},"last_in_step":{}"#,
                    name(t.clock),
                    t.index,
                    t.t.0,
                    t.lag.as_nanos(),
                    t.last_in_step
                ),
                Event::Render(r) => format!(
                    r#""event":"render","alpha":{},"ticks":{},"paused":{}"#,
                    r.alpha, r.ticks, r.paused
                ),
                Event::DroppedTicks {
                    clock,
                    first,
                    count,
                    ..
                } => format!(
                    r#""event":"dropped","clock":"{}","ticks":{count},"first":{first},"reason":"slot_missed""#,
                    name(*clock)
                ),
                Event::DiscardedTime {
                    clock,
                    time,
                    first,
                    ticks,
                } => format!(
                    r#""event":"dropped","clock":"{}","time_ns":{},"ticks":{ticks},"first":{first},"reason":"max_frame_delta""#,
                    name(*clock),
                    time.0
                ),
                Event::Sleep { until } => format!(r#""event":"sleep","until_ns":{}"#, until.0),
                Event::Deferred { clock, ticks } => format!(
                    r#""event":"deferred","clock":"{}","ticks":{ticks}"#,
                    name(*clock)
                ),
                Event::TimeBackwards { by } => {
                    format!(r#""event":"clock_backwards","by_ns":{}"#, by.0)
                }
                Event::Paused => r#""event":"paused""#.into(),
                Event::Resumed => r#""event":"resumed""#.into(),
                Event::ScaleChanged(s) => {
                    let (n, d) = s.as_ratio();
                    format!(r#""event":"scale_changed","num":{n},"den":{d}"#)
                }
                Event::EndOfTime { clock, next_tick } => format!(
                    r#""event":"end_of_time","clock":"{}","next_tick":{next_tick}"#,
                    name(*clock)
                ),
                other => format!(r#""event":"other","debug":"{other:?}""#),
            };
            format!(r#"{{"at_ns":{at},{body}}}"#)
        }
        (Format::Text, Event::Update(t)) => {
            let who = if many {
                format!(" {}", name(t.clock))
            } else {
                String::new()
            };
            let (num, den) = t.dt.as_nanos_ratio();
            let dt = if num % den == 0 {
                ms(num / den)
            } else {
                format!("{:.6}", t.dt_secs() * 1e3)
            };
            format!(
                "Simulating{who} with t={}, Δt={dt}, lag={}",
                ms(t.t.0),
                ms(t.lag.behind().0)
            )
        }
        (Format::Text, Event::Render(_)) => "Rendering...".into(),
        (Format::Text, Event::Sleep { until }) => format!("Sleeping until {} ms", ms(until.0)),
        (
            Format::Text,
            Event::DroppedTicks {
                clock,
                first,
                count,
                ..
            },
        ) => {
            format!(
                "Dropped {count} tick(s) of {} from {first}: slot missed",
                name(*clock)
            )
        }
        (
            Format::Text,
            Event::DiscardedTime {
                clock, time, ticks, ..
            },
        ) => {
            format!(
                "Discarded {} ms of {} ({ticks} tick(s) lost)",
                ms(time.0),
                name(*clock)
            )
        }
        (Format::Text, Event::Deferred { clock, ticks }) => {
            format!("Deferred {ticks} tick(s) of {}", name(*clock))
        }
        (Format::Text, Event::TimeBackwards { by }) => {
            format!("Clock went backwards by {} ms", ms(by.0))
        }
        (Format::Text, Event::Paused) => "Paused".into(),
        (Format::Text, Event::Resumed) => "Resumed".into(),
        (Format::Text, Event::ScaleChanged(s)) => {
            format!("Time scale changed to {:?}", s.as_ratio())
        }
        (Format::Text, Event::EndOfTime { clock, next_tick }) => {
            format!(
                "End of time for {}: tick {next_tick} never comes due",
                name(*clock)
            )
        }
        (Format::Text, other) => format!("{other:?}"),
    }
}

fn run(a: &Args) -> Result<(), String> {
    let mut out = io::stdout().lock();
    // A closed pipe (`| head`) ends the run quietly.
    let closed = |_| String::new();
    let mut state = LoopState::new(config(a), Nanos(0)).map_err(err)?;
    let (mut frame, mut update, mut render) = (
        a.frame.iter().cycle(),
        a.update.iter().cycle(),
        a.render.iter().cycle(),
    );
    let mut now = 0u64;
    let mut rows: Vec<Vec<Mark>> = Vec::new();
    for step in 0..a.steps {
        now = now.saturating_add(*frame.next().unwrap_or(&0));
        let events = state.advance(Nanos(now));
        if a.format == Format::Jsonl {
            // The fold decides everything at once, at `now`: its events and its deadline.
            let deadline = events
                .deadline()
                .map_or("null".to_owned(), |d| d.0.to_string());
            writeln!(
                out,
                r#"{{"at_ns":{now},"event":"step","step":{step},"deadline_ns":{deadline}}}"#
            )
            .map_err(closed)?;
        }
        let mut row = Vec::new();
        for event in &events {
            if a.format != Format::Svg {
                writeln!(out, "{}", line(&state, now, &event, a.format)).map_err(closed)?;
            }
            let at = now;
            match event {
                Event::Sleep { until } => {
                    now = now.max(until.0);
                    row.push(Mark::Sleep { at, until: now });
                }
                Event::Update(t) => {
                    now = now.saturating_add(*update.next().unwrap_or(&0));
                    let dt = t.dt.floor_nanos();
                    row.push(Mark::Update {
                        index: t.index,
                        slot: t.t.0,
                        dt,
                        at,
                        cost: now - at,
                    });
                }
                Event::Render(r) => {
                    now = now.saturating_add(*render.next().unwrap_or(&0));
                    row.push(Mark::Render { at, alpha: r.alpha });
                }
                Event::DroppedTicks {
                    first,
                    count,
                    clock,
                    ..
                } => {
                    let rate = state.clock(clock).map(|c| c.stats().rate).ok();
                    if let Some(rate) = rate {
                        let (from, to) = (
                            rate.tick_start_nanos(first),
                            rate.tick_start_nanos(first + count),
                        );
                        row.push(Mark::Dropped { from, to });
                    }
                }
                _ => {}
            }
        }
        rows.push(row);
    }
    if a.format == Format::Svg {
        out.write_all(timeline::svg(&rows).as_bytes())
            .map_err(closed)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match parse(&argv).and_then(|a| match a {
        None => {
            print!("{HELP}");
            Ok(())
        }
        Some(a) => run(&a),
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_empty() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("trace: {e}");
            ExitCode::from(2)
        }
    }
}
