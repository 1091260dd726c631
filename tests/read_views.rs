//! A `Runner` handler gets `&LoopState` and reads every time and clock value through the
//! `&self` views (`virtual_time()`, `real_time()`, `clock(..)`): the same values the `&mut`
//! handles read, on a loop with three clocks, half speed, a max frame delta and a render rate.

use tickfold::runner::{ManualTime, Runner};
use tickfold::{Event, LoopConfig, LoopState, Nanos, Period, Policy};

const MS: u64 = 1_000_000;

/// Everything a handler reads through `&LoopState`, in one comparable value.
#[derive(Debug, PartialEq)]
struct Reading {
    virt: VirtualReading,
    real: RealReading,
    clocks: Vec<ClockReading>,
}

#[derive(Debug, PartialEq)]
struct VirtualReading {
    paused: bool,
    scale: tickfold::TimeScale,
    step_ticks_pending: u64,
    elapsed: Nanos,
    delta: Nanos,
    wrapped: Nanos,
    wrapped_secs: f32,
}

#[derive(Debug, PartialEq)]
struct RealReading {
    start: Nanos,
    elapsed: Nanos,
    delta: Nanos,
    max_frame_delta: Option<std::time::Duration>,
    render_rate: Option<Period>,
}

#[derive(Debug, PartialEq)]
struct ClockReading {
    id: tickfold::ClockId,
    name: String,
    rate: Period,
    config: tickfold::ClockConfig,
    max_updates: Option<u32>,
    phase: f64,
    hysteresis: f64,
    policy: Policy,
    firing: tickfold::Firing,
    stats: tickfold::ClockStats,
}

// Views and handles share their readers, so one reading serves both.

macro_rules! virtual_reading {
    ($t:expr) => {{
        let t = $t;
        let wrap = Period::from_hz(3).unwrap();
        VirtualReading {
            paused: t.is_paused(),
            scale: t.scale(),
            step_ticks_pending: t.step_ticks_pending(),
            elapsed: t.elapsed(),
            delta: t.delta(),
            wrapped: t.elapsed_wrapped(wrap),
            wrapped_secs: t.elapsed_secs_wrapped(wrap),
        }
    }};
}

macro_rules! real_reading {
    ($r:expr) => {{
        let r = $r;
        RealReading {
            start: *r.start(),
            elapsed: r.elapsed(),
            delta: r.delta(),
            max_frame_delta: r.max_frame_delta(),
            render_rate: r.render_rate(),
        }
    }};
}

macro_rules! clock_reading {
    ($c:expr) => {{
        let c = $c;
        ClockReading {
            id: c.id(),
            name: c.name().to_owned(),
            rate: c.rate(),
            config: c.config().clone(),
            max_updates: c.max_updates(),
            phase: c.phase(),
            hysteresis: c.hysteresis(),
            policy: c.policy(),
            firing: c.firing(),
            stats: c.stats(),
        }
    }};
}

/// The readings through the `&self` views.
fn read_all(state: &LoopState<Nanos>) -> Reading {
    Reading {
        virt: virtual_reading!(state.virtual_time()),
        real: real_reading!(state.real_time()),
        clocks: state
            .clock_names()
            .map(|name| clock_reading!(state.clock(name).unwrap()))
            .collect(),
    }
}

/// The same readings through the `&mut` handles.
fn read_all_mut(state: &mut LoopState<Nanos>) -> Reading {
    let names: Vec<String> = state.clock_names().map(str::to_owned).collect();
    Reading {
        clocks: names
            .iter()
            .map(|name| clock_reading!(state.clock_mut(name).unwrap()))
            .collect(),
        virt: virtual_reading!(state.virtual_time_mut()),
        real: real_reading!(state.real_time_mut()),
    }
}

#[test]
fn a_handler_reads_every_time_and_clock_value_through_a_shared_state() {
    use tickfold::{ClockConfig, Firing, TimeScale};
    let config = LoopConfig::new(Period::from_hz(50).unwrap())
        .clock(
            ClockConfig::new("ai", Period::from_hz(10).unwrap())
                .max_updates(Some(3))
                .phase(0.5)
                .hysteresis(0.25)
                .firing(Firing::Nearest),
        )
        .clock(ClockConfig::new("net", Period::from_hz(20).unwrap()).policy(Policy::DropAndRest))
        .time_scale(TimeScale::ratio(1, 2).unwrap())
        .max_frame_delta(Some(std::time::Duration::from_millis(100)))
        .render_rate(Some(Period::from_hz(25).unwrap()));
    let clock = ManualTime::starting_at(Nanos(7));
    let state = LoopState::new(config, clock.now()).unwrap();
    let mut runner = Runner::new(state, clock.clone(), clock.clone());
    let mut seen = None;
    runner.run(
        |event, state| {
            if let Event::Render(_) = event {
                seen = Some(read_all(state)); // a `&LoopState`, as every handler gets
            }
        },
        |state| state.real_time().elapsed() < Nanos(1_030 * MS),
    );
    let seen = seen.expect("the runner rendered");
    // Taken at the latest render; nothing stepped since (the loop stopped right after it).
    assert_eq!(seen, read_all_mut(runner.state_mut()));
    // The figures themselves: half speed, 25 Hz renders from 7 ns on.
    assert!(!seen.virt.paused && seen.virt.step_ticks_pending == 0);
    assert_eq!(seen.virt.scale, TimeScale::ratio(1, 2).unwrap());
    assert_eq!(
        (seen.real.start, seen.real.elapsed),
        (Nanos(7), Nanos(1_040 * MS))
    );
    assert_eq!(seen.real.delta, Nanos(40 * MS));
    assert_eq!(
        (seen.virt.elapsed, seen.virt.delta),
        (Nanos(520 * MS), Nanos(20 * MS))
    );
    // 520 ms less 1/3 s is 186,666,666 2/3 ns, rounded down.
    assert_eq!(seen.virt.wrapped, Nanos(186_666_666));
    assert_eq!(seen.virt.wrapped_secs, (186_666_666.0_f64 / 1e9) as f32);
    assert_eq!(
        seen.real.max_frame_delta,
        Some(std::time::Duration::from_millis(100))
    );
    assert_eq!(seen.real.render_rate, Some(Period::from_hz(25).unwrap()));
    let names: Vec<&str> = seen.clocks.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["main", "ai", "net"]);
    let ai = &seen.clocks[1];
    assert_eq!(runner.state().clock("ai").map(|c| c.id()), Ok(ai.id));
    assert_eq!(
        (ai.rate, ai.max_updates),
        (Period::from_hz(10).unwrap(), Some(3))
    );
    assert_eq!((ai.phase, ai.hysteresis), (0.5, 0.25));
    assert_eq!((ai.policy, ai.firing), (Policy::CatchUp, Firing::Nearest));
    assert_eq!(ai.stats, runner.state().clock("ai").unwrap().stats());
    assert_eq!(seen.clocks[0].stats.ticks_run, 26); // 520 ms of 20 ms ticks
    assert_eq!(seen.clocks[2].policy, Policy::DropAndRest);
}
