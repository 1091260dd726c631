//! Scenarios ported from Piston's event loop (PistonDevelopers/piston,
//! `src/event_loop/src/lib.rs`: `EventSettings` and the `Events` state machine), replayed on
//! tickfold's fold with a fake clock.
//!
//! The event-loop crate ships no tests of its own, so each scenario here follows a documented
//! setting instead: `ups` ("the fixed update rate on average over time"), `max_fps` (frames
//! scheduled from the previous frame, so they "slip"), `ups_reset` ("the number of delayed
//! updates before skipping them to catch up"; 0 = always catch up), `bench_mode` ("render and
//! update without sleep … pretend FPS is perfect"), `lazy` (render only on input, no updates),
//! the `Idle` event (time until the next frame or update) and `RenderArgs::ext_dt` (time since
//! the last update, to extrapolate).
//!
//! Not ported: `swap_buffers` (a window concern), the `async` variant, and changing settings
//! on a running loop (`set_event_settings` rebuilds the loop; tickfold has no run-time rate
//! change yet).

use core::time::Duration;

use tickfold_core::{Event, Events, LoopConfig, LoopState, Nanos, Period, RateError, Render};

const MS: u64 = 1_000_000;
const SEC: u64 = 1_000_000_000;

/// Piston's `DEFAULT_UPS`, `DEFAULT_MAX_FPS` and `DEFAULT_UPS_RESET`.
const UPS: u64 = 120;
const MAX_FPS: u64 = 60;

fn hz(n: u64) -> Period {
    Period::from_hz(n).unwrap()
}

fn new(config: LoopConfig) -> LoopState {
    LoopState::new(config, Nanos(0)).unwrap()
}

fn render(events: &Events<Nanos>) -> Render {
    *events.render().expect("the step renders")
}

fn deadline(events: &Events<Nanos>) -> u64 {
    events.deadline().expect("a deadline").0
}

/// `ups`: Piston keeps the update period as `1e9 / ups` whole nanoseconds (8,333,333 ns at 120)
/// while handing `dt = 1/120` to each update, so its 432,000th update of an hour comes 144 µs
/// early. tickfold's 120 Hz is exact: the hour holds exactly 432,000 ticks, the last one due at
/// exactly 3,600 s, and every update carries `dt = 1/120`.
#[test]
fn ups_is_exact_over_an_hour() {
    let hour = 3_600 * SEC;
    assert_eq!(hz(UPS).tick_start_nanos(432_000), hour);
    assert_ne!(
        432_000 * (SEC / UPS),
        hour,
        "Piston's truncated period drifts"
    );

    let config = LoopConfig::new(hz(UPS)).max_frame_delta(None);
    let mut state = new(config);
    state.advance(Nanos(hour - 1));
    assert_eq!(state.clock("main").unwrap().stats().ticks_due, 431_999);
    state.advance(Nanos(hour));
    assert_eq!(state.clock("main").unwrap().stats().ticks_due, 432_000);

    let mut state = new(LoopConfig::new(hz(UPS)));
    let e = state.advance(Nanos(25 * MS));
    assert_eq!(e.updates().count(), 3);
    assert!(e.updates().all(|t| t.dt_secs() == 1.0 / 120.0));
}

/// `bench_mode`: no sleeping, and "pretend FPS is perfect": the clock jumps straight to each
/// next event. Piston's next event is `min(next_frame, next_update)`; tickfold's deadline is
/// the same minimum. Driven from deadline to deadline for 60 s at the default 120 ups and 60
/// fps, the loop runs exactly 7,200 updates and 3,601 renders (one at the start).
#[test]
fn bench_mode_jumps_from_deadline_to_deadline() {
    let config = LoopConfig::new(hz(UPS)).render_rate(Some(hz(MAX_FPS)));
    let mut state = new(config);
    let (mut updates, mut renders, mut steps) = (0u64, 0u64, 0u64);
    let mut now = 0;
    while now <= 60 * SEC {
        let e = state.advance(Nanos(now));
        steps += 1;
        updates += e.updates().count() as u64;
        renders += u64::from(e.render().is_some());
        let next_update =
            hz(UPS).tick_start_nanos(state.clock("main").unwrap().stats().next_tick + 1);
        let next = deadline(&e);
        assert!(next > now, "the deadline is in the future");
        assert!(next <= next_update + 1, "never later than the next update");
        now = next;
    }
    assert_eq!(updates, 7_200);
    assert_eq!(renders, 3_601);
    assert_eq!(steps, 7_201, "every step has something to do");
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
}

/// `max_fps`: Piston schedules the next frame from the previous one, so a frame 5 ms late moves
/// every later frame by 5 ms ("the frames slip"). tickfold's render cap keeps a fixed grid of
/// slots: after a late frame the next slot is still `2/60` s.
#[test]
fn max_fps_renders_on_a_grid_that_never_slips() {
    let config = LoopConfig::new(hz(UPS)).render_rate(Some(hz(MAX_FPS)));
    let mut state = new(config);
    assert!(state.advance(Nanos(0)).render().is_some());
    let e = state.advance(Nanos(10 * MS));
    assert!(
        e.render().is_none(),
        "before the next slot (16.7 ms) nothing renders"
    );
    assert_eq!(e.updates().count(), 1);

    let late = hz(MAX_FPS).tick_start_nanos(1) + 5 * MS;
    let e = state.advance(Nanos(late));
    assert!(e.render().is_some());
    assert_eq!(deadline(&e), 25 * MS, "update 2 comes first");
    assert!(state.advance(Nanos(25 * MS)).render().is_none());
    // Next slot: 2/60 s, ceiled to whole ns (not 21.7 + 16.7 = 38.3 ms).
    assert!(state.advance(Nanos(33_333_333)).render().is_none());
    assert!(state.advance(Nanos(33_333_334)).render().is_some());

    let mut renders = 0;
    let mut now = 33 * MS;
    while now < SEC {
        now += MS;
        renders += u64::from(state.advance(Nanos(now)).render().is_some());
    }
    assert_eq!(renders, 58, "slots 3..=60 (50 ms to 1 s)");
}

/// `ups_reset` (default 2): more than 2 updates behind, Piston runs one update and resets its
/// update clock to now, silently giving up the rest and moving the grid. tickfold's nearest
/// knob is a max frame delta of two periods: a 100 ms stall at 120 ups works off 2 ticks,
/// reports the 10 older ones as discarded, and keeps the original grid.
#[test]
fn ups_reset_gives_up_the_backlog_and_says_so() {
    let two_periods = Duration::from_nanos(hz(UPS).tick_start_nanos(2) + 1);
    let config = LoopConfig::new(hz(UPS)).max_frame_delta(Some(two_periods));
    let mut state = new(config);
    state.advance(Nanos(0));
    let e = state.advance(Nanos(100 * MS));
    assert_eq!(e.dropped_ticks(), 10);
    assert!(matches!(
        e.iter().next(),
        Some(Event::DiscardedTime {
            first: 0,
            ticks: 10,
            ..
        })
    ));
    assert_eq!(e.updates().map(|t| t.index).collect::<Vec<_>>(), [10, 11]);
    assert_eq!(
        deadline(&e),
        108_333_334,
        "tick 12 ends on the original grid"
    );
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(stats.ticks_run + stats.ticks_dropped, stats.ticks_due);
}

/// `ups_reset = 0`: "it will always try to catch up": no max frame delta and no cap, the same
/// 100 ms stall runs all 12 updates in one step.
#[test]
fn ups_reset_zero_always_catches_up() {
    let config = LoopConfig::new(hz(UPS))
        .max_frame_delta(None)
        .max_updates(None);
    let mut state = new(config);
    state.advance(Nanos(0));
    let e = state.advance(Nanos(100 * MS));
    assert_eq!(
        e.updates().map(|t| t.index).collect::<Vec<_>>(),
        (0..12).collect::<Vec<_>>()
    );
    assert_eq!(e.dropped_ticks(), 0);
}

/// `ups = 0` disables update events in Piston. tickfold has no loop without a tick rate: a
/// zero rate is refused at construction.
#[test]
fn zero_ups_is_refused() {
    assert_eq!(Period::from_hz(0), Err(RateError::Zero));
}

/// `lazy`: "rendering only when receiving input; update and idle events are disabled". The
/// tickfold equivalent is a paused loop: nothing is due by time alone (no deadline), no update
/// runs, and a step made on input renders (marked paused).
#[test]
fn lazy_loop_renders_on_input_only() {
    let mut state = new(LoopConfig::new(hz(UPS)).paused(true));
    let e = state.advance(Nanos(0));
    assert!(render(&e).paused);
    assert_eq!(e.deadline(), None);
    for input_at in [40 * MS, 41 * MS, 900 * MS] {
        let e = state.advance(Nanos(input_at));
        assert_eq!(e.updates().count(), 0);
        assert!(render(&e).paused);
        assert_eq!(e.deadline(), None, "wait for the next input");
    }
    assert_eq!(state.clock("main").unwrap().stats().ticks_run, 0);
}

/// The `Idle` event carries the time until the next frame or update. tickfold's deadline gives
/// the same: 3 ms into a 120 Hz tick the next update is 5.33 ms away; with a 60 fps render cap
/// and an update just run, the next event is the earlier of the two.
#[test]
fn idle_time_is_the_time_until_the_next_event() {
    let mut state = new(LoopConfig::new(hz(UPS)));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(3 * MS));
    assert_eq!(deadline(&e) - 3 * MS, 8_333_334 - 3 * MS);

    let mut state = new(LoopConfig::new(hz(UPS)).render_rate(Some(hz(MAX_FPS))));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(9 * MS));
    assert_eq!(e.updates().count(), 1);
    assert_eq!(
        deadline(&e),
        16_666_667,
        "update 1 and frame 1 are both due at 1/60 s"
    );
    let e = state.advance(Nanos(17 * MS));
    assert_eq!(
        deadline(&e),
        25_000_000,
        "update 2, before frame 2 at 33.3 ms"
    );
}

/// Piston's first event is a `Render` (its state machine starts in `State::Render`) with
/// `ext_dt` 0, before any update. tickfold's first step renders too, with alpha 0 and no update.
#[test]
fn first_event_is_a_render_before_any_update() {
    let mut state = new(LoopConfig::new(hz(UPS)));
    let e = state.advance(Nanos(0));
    assert_eq!(e.len(), 1);
    assert_eq!(
        (
            render(&e).alpha,
            render(&e).lag.as_nanos(),
            render(&e).ticks
        ),
        (0.0, 0, 0)
    );
}

/// `RenderArgs::ext_dt`: the time since the last update, for extrapolation. tickfold reports
/// the same span as `Render::lag` (exact, from the end of the last tick run) and interpolates
/// with `alpha = lag / dt` instead of extrapolating: at 20 ms, 120 Hz has run 2 ticks and is
/// 3.33 ms (0.4 of a tick) into the third.
#[test]
fn render_reports_the_time_since_the_last_update() {
    let mut state = new(LoopConfig::new(hz(UPS)));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(20 * MS));
    assert_eq!(e.updates().count(), 2);
    let r = render(&e);
    assert_eq!(r.lag.as_nanos(), 3_333_333);
    assert!((r.alpha - 0.4).abs() < 1e-9, "alpha {}", r.alpha);
    assert_eq!(r.ticks, 2);
}

/// `bench_mode` again, with the *nearest* firing rule on the clock: jumping from deadline to
/// deadline, every wake-up should have something to do (Piston's next event is always an
/// update or a frame). A bug this port found: the nearest rule's deadline was
/// `due − last_frame / 2`, and a wake-up that finds nothing makes the next frame shorter, so the
/// deadlines close in on the due time like Zeno's arrow (16.67 ms, then 25.0, 29.2, 31.3,
/// 32.3, 32.8, … ms towards tick 1 at 33.33 ms): 121 wake-ups for the first 9 ticks at 60 Hz,
/// and each tick still fires at or after its due time, not nearest.
#[test]
fn bench_mode_with_nearest_firing_wakes_only_for_work() {
    let config = LoopConfig::new(hz(60)).firing(tickfold_core::Firing::Nearest);
    let mut state = new(config);
    let mut e = state.advance(Nanos(0));
    let mut steps = 0;
    while state.real_time().elapsed() < Nanos(SEC) {
        let now = deadline(&e);
        e = state.advance(Nanos(now));
        steps += 1;
        assert!(
            steps <= 120,
            "{steps} wake-ups for {} ticks",
            state.clock("main").unwrap().stats().ticks_run
        );
    }
    assert!(state.clock("main").unwrap().stats().ticks_run.abs_diff(60) <= 1);
}
