//! The runner on a fake clock with a sleeper that records its calls (no real sleeps): it
//! waits for exactly the fold's deadlines, carries out `Sleep` events before the events after
//! them, never drifts however late it wakes, and passes dropped slots to user code so a
//! frame-indexed animation stays in sync (the constant-rate loop article's "synchronization on
//! drops"). A sleeper that wakes early is asked again; one that cannot get there leaves the
//! update for a later frame, never running it before its slot.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use tickfold::runner::{DEFAULT_RENDER_HZ, ManualTime, NoSleep, Runner, Sleeper, TimeSource};
use tickfold::{Event, LoopConfig, LoopState, Nanos, Period, Policy};

const MS: u64 = 1_000_000;

/// Records every deadline and "sleeps" by moving the fake clock there, `late` ns too far.
struct Recorder {
    clock: ManualTime,
    calls: Rc<RefCell<Vec<u64>>>,
    late: u64,
}

impl Sleeper<Nanos> for Recorder {
    fn sleep_until(&mut self, deadline: Nanos) {
        self.calls.borrow_mut().push(deadline.0);
        let now = self.clock.now().0;
        self.clock.set(Nanos(now.max(deadline.0 + self.late)));
    }
}

type FakeRunner = Runner<Nanos, ManualTime, Recorder>;
type Calls = Rc<RefCell<Vec<u64>>>;

fn runner(config: LoopConfig, late: u64) -> (FakeRunner, ManualTime, Calls) {
    let clock = ManualTime::default();
    let calls = Rc::new(RefCell::new(Vec::new()));
    let sleeper = Recorder {
        clock: clock.clone(),
        calls: calls.clone(),
        late,
    };
    let state = LoopState::new(config, Nanos(0)).unwrap();
    (Runner::new(state, clock.clone(), sleeper), clock, calls)
}

#[test]
fn waits_for_exactly_the_deadlines_and_never_drifts() {
    // Every wake-up is 300 µs late, yet tick k still runs for due time ceil((k+1)/60 s).
    let rate = Period::from_hz(60).unwrap();
    let (mut r, clock, calls) = runner(LoopConfig::new(rate), 300_000);
    let mut updates = Vec::new();
    r.run(
        |e, _| {
            if let Event::Update(t) = e {
                updates.push(t.index);
            }
        },
        |s| s.real_time().elapsed().0 < 3_600 * 1_000 * MS,
    );
    let (num, den) = rate.as_nanos_ratio();
    let due = |k: u64| {
        u64::try_from((u128::from(k + 1) * u128::from(num)).div_ceil(u128::from(den))).unwrap()
    };
    let calls = calls.borrow();
    // One hour: 216,000 ticks, each waited for at its exact due time.
    assert_eq!(updates.len(), 216_000);
    assert!(updates.iter().enumerate().all(|(i, k)| *k == i as u64));
    for (k, d) in calls.iter().take(1_000).enumerate() {
        assert_eq!(*d, due(k as u64), "wait {k}");
    }
    // The clock is past the last frame by the final wait; the fold saw up to its latest `now`.
    assert!(clock.now().0 > r.state().real_time().elapsed().0);
    assert_eq!(
        r.state()
            .clock(r.state().alpha_clock())
            .unwrap()
            .stats()
            .ticks_run,
        rate.ticks_in(r.state().real_time().elapsed().0)
    );
}

#[test]
fn wait_until_reports_the_lateness() {
    let (mut r, _clock, _) = runner(LoopConfig::new(Period::from_hz(60).unwrap()), 42);
    assert_eq!(r.wait_until(Nanos(5 * MS)), 42);
    // A deadline already passed: no sleep, and the lateness is how far past it the clock is.
    assert_eq!(r.wait_until(Nanos(MS)), 5 * MS + 42 - MS);
}

#[test]
fn sleep_events_are_carried_out_before_the_update_they_schedule() {
    let config =
        LoopConfig::new(Period::from_millis_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    let (mut r, clock, calls) = runner(config, 0);
    let mut seen = Vec::new();
    for _ in 0..5 {
        let c = clock.clone();
        r.frame(|e, _| {
            if let Event::Update(t) = e {
                seen.push((t.index, c.now().0));
                c.advance(Nanos(3 * MS)); // the update's work
            }
        });
    }
    // Each update runs at the start of its slot: the runner slept until then first.
    assert_eq!(
        seen,
        [
            (0, 0),
            (1, 10 * MS),
            (2, 20 * MS),
            (3, 30 * MS),
            (4, 40 * MS)
        ]
    );
    assert_eq!(*calls.borrow(), [10 * MS, 20 * MS, 30 * MS, 40 * MS]);
}

#[test]
fn dropped_slots_keep_a_frame_indexed_animation_in_sync() {
    // An 8-frame animation drawn at 10 ms slots; every 4th draw takes 25 ms and loses slots.
    const FRAMES: u64 = 8;
    let config =
        LoopConfig::new(Period::from_millis_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    let (mut r, clock, _) = runner(config, 0);
    let (mut naive, mut dropped, mut draws) = (0u64, 0u64, 0u64);
    for _ in 0..200 {
        let c = clock.clone();
        r.frame(|e, _| match e {
            Event::DroppedTicks { count, .. } => dropped += count,
            Event::Update(t) => {
                // The animation frame for this slot, from the tick number the loop passes.
                let synced = t.index % FRAMES;
                let wall = c.now().0 / (10 * MS) % FRAMES;
                assert_eq!(synced, wall, "tick {} drawn at {} ns", t.index, c.now().0);
                naive += 1; // the article's out-of-sync draw() that counts its own calls
                draws += 1;
                c.advance(Nanos(if draws % 4 == 0 { 25 * MS } else { 2 * MS }));
            }
            _ => {}
        });
    }
    let s = r.state();
    assert!(dropped > 0);
    assert_eq!(
        s.clock(s.alpha_clock()).unwrap().stats().next_tick,
        draws + dropped,
        "every lost slot was reported"
    );
    assert_eq!(
        s.clock(s.alpha_clock()).unwrap().stats().ticks_dropped,
        dropped
    );
    assert_ne!(
        naive % FRAMES,
        s.clock(s.alpha_clock()).unwrap().stats().next_tick % FRAMES,
        "the naive counter fell out of sync"
    );
}

#[test]
fn no_sleep_leaves_pacing_to_the_caller() {
    let clock = ManualTime::default();
    let state = LoopState::new(LoopConfig::new(Period::from_hz(50).unwrap()), Nanos(0)).unwrap();
    let mut r = Runner::new(state, clock.clone(), NoSleep);
    let mut renders = 0;
    // A vsync at 144 Hz: the caller calls `frame` per vsync; the runner never waits.
    for _ in 0..144 {
        clock.advance(Nanos(1_000_000_000 / 144));
        let deadline = r.frame(|e, _| renders += u32::from(matches!(e, Event::Render(_))));
        assert!(deadline.is_some());
    }
    assert_eq!(renders, 144);
    assert_eq!(
        r.state()
            .clock(r.state().alpha_clock())
            .unwrap()
            .stats()
            .ticks_run,
        49,
        "50 Hz over 143/144 s"
    );
}

/// Wakes `early` ns before the deadline on its first `early_times` calls, then on time (or
/// never moves the clock at all when `frozen`).
struct EarlyWaker {
    clock: ManualTime,
    calls: Rc<RefCell<Vec<u64>>>,
    early: u64,
    early_times: usize,
    frozen: bool,
}

impl Sleeper<Nanos> for EarlyWaker {
    fn sleep_until(&mut self, deadline: Nanos) {
        let mut calls = self.calls.borrow_mut();
        calls.push(deadline.0);
        if self.frozen {
            return;
        }
        let wake = if calls.len() <= self.early_times {
            deadline.0 - self.early
        } else {
            deadline.0
        };
        self.clock.set(Nanos(self.clock.now().0.max(wake)));
    }
}

/// A drop-and-rest loop at 10 ms slots whose updates take 3 ms, driven by `sleeper`.
fn rest_runner<S: Sleeper<Nanos>>(clock: &ManualTime, sleeper: S) -> Runner<Nanos, ManualTime, S> {
    let config =
        LoopConfig::new(Period::from_millis_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    Runner::new(
        LoopState::new(config, Nanos(0)).unwrap(),
        clock.clone(),
        sleeper,
    )
}

/// One frame; returns the deadline and each update's tick with the clock when it ran.
fn frame_updates<S: Sleeper<Nanos>>(
    r: &mut Runner<Nanos, ManualTime, S>,
    clock: &ManualTime,
) -> (Option<Nanos>, Vec<(u64, u64)>) {
    let mut seen = Vec::new();
    let deadline = r.frame(|e, _| {
        if let Event::Update(t) = e {
            seen.push((t.index, clock.now().0));
            clock.advance(Nanos(3 * MS));
        }
    });
    (deadline, seen)
}

#[test]
fn a_sleeper_that_wakes_early_is_asked_again_before_the_update() {
    let clock = ManualTime::default();
    let calls = Calls::default();
    let sleeper = EarlyWaker {
        clock: clock.clone(),
        calls: calls.clone(),
        early: 2 * MS,
        early_times: 3,
        frozen: false,
    };
    let mut r = rest_runner(&clock, sleeper);
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.extend(frame_updates(&mut r, &clock).1);
    }
    // The first three sleeps wake 2 ms early; the runner asks again until the clock reads
    // 10 ms, so each update still runs at its slot's start.
    assert_eq!(seen, [(0, 0), (1, 10 * MS), (2, 20 * MS)]);
    assert_eq!(
        *calls.borrow(),
        [10 * MS, 10 * MS, 10 * MS, 10 * MS, 20 * MS]
    );
}

#[test]
fn a_sleeper_that_never_wakes_in_time_leaves_the_update_for_a_later_frame() {
    let clock = ManualTime::default();
    let calls = Calls::default();
    let sleeper = EarlyWaker {
        clock: clock.clone(),
        calls: calls.clone(),
        early: 0,
        early_times: 0,
        frozen: true,
    };
    let mut r = rest_runner(&clock, sleeper);
    assert_eq!(frame_updates(&mut r, &clock).1, vec![(0, 0)]);
    // The sleeper never moves the clock: the runner gives up after a bounded number of tries
    // and returns the slot's time instead of running tick 1 at 3 ms.
    let (deadline, seen) = frame_updates(&mut r, &clock);
    assert_eq!((deadline, seen), (Some(Nanos(10 * MS)), vec![]));
    let tries = calls.borrow().len();
    assert!((2..=64).contains(&tries), "{tries} sleeps");
    assert_eq!(
        r.state()
            .clock(r.state().alpha_clock())
            .unwrap()
            .stats()
            .ticks_run,
        2,
        "the fold was stepped once for tick 1"
    );
    // Still early: nothing runs and the fold is not stepped again.
    clock.advance(Nanos(6 * MS));
    assert_eq!(frame_updates(&mut r, &clock).1, vec![]);
    assert_eq!(
        r.state()
            .clock(r.state().alpha_clock())
            .unwrap()
            .stats()
            .ticks_run,
        2
    );
    // At the slot the pending update runs, then the loop goes on as usual. The fold decided
    // its deadline back at 3 ms (a constant-rate loop asks to be called again at once); handed
    // on at 10 ms, that deadline comes back as the frame's own clock reading, never in the past
    // (found by the runner fuzz target).
    clock.advance(Nanos(MS));
    assert_eq!(
        frame_updates(&mut r, &clock),
        (Some(Nanos(10 * MS)), vec![(1, 10 * MS)])
    );
    clock.advance(Nanos(7 * MS));
    assert_eq!(frame_updates(&mut r, &clock).1, vec![(2, 20 * MS)]);
}

#[test]
fn no_sleep_never_runs_a_rest_update_before_its_slot() {
    // A vsync-paced shell with a drop-and-rest loop: `frame` per vsync, nothing sleeps.
    let clock = ManualTime::default();
    let mut r = rest_runner(&clock, NoSleep);
    let mut seen = Vec::new();
    for _ in 0..12 {
        let (deadline, s) = frame_updates(&mut r, &clock);
        seen.extend(s);
        assert!(deadline.is_some());
        clock.advance(Nanos(1_000_000_000 / 144));
    }
    assert!(seen.len() >= 4, "{seen:?}");
    for (k, at) in &seen {
        assert!(
            *at >= k * 10 * MS,
            "tick {k} ran at {at} ns, before its slot"
        );
    }
}

#[test]
fn a_late_sleeper_runs_the_update_late_and_keeps_the_grid() {
    let config =
        LoopConfig::new(Period::from_millis_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    let (mut r, clock, calls) = runner(config, 4 * MS);
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.extend(frame_updates(&mut r, &clock).1);
    }
    // Woken 4 ms late each time, the updates run late but their slots stay on the 10 ms grid.
    assert_eq!(seen, [(0, 0), (1, 14 * MS), (2, 24 * MS)]);
    assert_eq!(*calls.borrow(), [10 * MS, 20 * MS]);
}

/// Reads a script of times, one per call, then its last time forever.
struct Script(VecDeque<u64>, u64);

impl TimeSource<Nanos> for Script {
    fn now(&mut self) -> Nanos {
        if let Some(t) = self.0.pop_front() {
            self.1 = t;
        }
        Nanos(self.1)
    }
}

#[test]
fn a_frame_that_stops_at_a_sleep_never_returns_a_time_before_its_first_reading() {
    // A drop-and-rest loop at 10 ms slots, paced by the caller. Frame 1 reads 0 and runs tick
    // 0; frame 2 reads 3 ms, steps the fold (sleep until 10 ms) and stops there. Frame 3 reads
    // 15 ms, then the time source goes back to 5 ms within the frame: at that reading the slot
    // has not come, so the frame stops again, but it returns its first reading, not 10 ms.
    let config =
        LoopConfig::new(Period::from_millis_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    let state = LoopState::new(config, Nanos(0)).unwrap();
    let readings = VecDeque::from([0, 3 * MS, 3 * MS, 15 * MS, 5 * MS, 20 * MS]);
    let mut r = Runner::new(state, Script(readings, 0), NoSleep);
    let mut updates = Vec::new();
    let mut frame = |r: &mut Runner<Nanos, Script, NoSleep>| {
        r.frame(|e, _| {
            if let Event::Update(t) = e {
                updates.push(t.index);
            }
        })
    };
    assert_eq!(frame(&mut r), Some(Nanos(0)));
    assert_eq!(frame(&mut r), Some(Nanos(10 * MS)));
    assert_eq!(frame(&mut r), Some(Nanos(15 * MS)));
    // At 20 ms (read at the start of the frame and again at the sleep) tick 1 runs.
    assert!(frame(&mut r).is_some());
    assert_eq!(updates, [0, 1]);
}

#[test]
fn manual_time_is_both_the_clock_and_the_sleeper() {
    // One shared fake clock, no hand-written sleeper: sleeping jumps to the deadline, so each
    // drop-and-rest update runs at the start of its slot and a whole minute runs at once.
    let clock = ManualTime::new();
    let config =
        LoopConfig::new(Period::from_millis_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    let state = LoopState::new(config, Nanos(0)).unwrap();
    let mut r = Runner::new(state, clock.clone(), clock.clone());
    let mut seen = Vec::new();
    r.run(
        |e, _| {
            if let Event::Update(t) = e {
                seen.push((t.index, clock.now().0));
                clock.advance(std::time::Duration::from_millis(3)); // the update's work
            }
        },
        |s| s.clock(s.alpha_clock()).unwrap().stats().ticks_run < 6_000,
    );
    assert_eq!(seen.len(), 6_000);
    for (k, (index, at)) in seen.iter().enumerate() {
        assert_eq!((*index, *at), (k as u64, k as u64 * 10 * MS));
    }
    assert_eq!(
        r.state()
            .clock(r.state().alpha_clock())
            .unwrap()
            .stats()
            .ticks_dropped,
        0
    );
}

#[test]
fn a_handler_that_exits_after_n_updates_stops_exactly_there() {
    // A 100 Hz loop whose draws take 35 ms: the steps run updates 0-2, 3-6 and 7-9.
    // The handler exits in the middle of a step; the rest waits in the runner, not lost.
    struct Game {
        updates: Vec<u64>,
        renders: u32,
    }
    let clock = ManualTime::new();
    let state = LoopState::new(LoopConfig::new(Period::from_hz(100).unwrap()), Nanos(0)).unwrap();
    let mut r = Runner::new(state, clock.clone(), clock.clone());
    let mut game = Game {
        updates: Vec::new(),
        renders: 0,
    };
    let draw = clock.clone();
    r.run_with(&mut game, |game, event, _state, ctl| match event {
        Event::Update(t) => {
            game.updates.push(t.index);
            if game.updates.len() == 9 {
                ctl.exit();
            }
        }
        Event::Render(_) => {
            game.renders += 1;
            draw.advance(Nanos(35 * MS));
        }
        _ => {}
    });
    assert_eq!(game.updates, (0..9).collect::<Vec<u64>>());
    assert_eq!(game.renders, 3, "drawn at 0, 35 and 70 ms; not at 105 ms");
    assert!(r.has_pending_events(), "update 8 was not its step's last");
    let ran = r
        .state()
        .clock(r.state().alpha_clock())
        .unwrap()
        .stats()
        .ticks_run;
    assert_eq!(ran, 10, "the step at 105 ms ran ticks 7 to 9");
    // The next frame hands on the rest of that step first, without stepping the fold again.
    let mut rest = Vec::new();
    r.frame(|e, _| {
        if let Event::Update(t) = e {
            rest.push(t.index);
        }
    });
    assert_eq!(rest, (9..ran).collect::<Vec<u64>>());
    assert_eq!(
        r.state()
            .clock(r.state().alpha_clock())
            .unwrap()
            .stats()
            .ticks_run,
        ran
    );
    assert!(!r.has_pending_events());
}

#[test]
fn a_sleeping_runner_draws_at_the_display_rate_with_alphas_spread_over_a_tick() {
    // A 20 Hz simulation with no render cap, on a sleeper that wakes exactly on time. Were the
    // runner to sleep from tick to tick, it would draw 20 times a second at alpha 0, and
    // interpolation would do nothing; it draws at the default display rate instead.
    let clock = ManualTime::new();
    let state = LoopState::new(LoopConfig::new(Period::from_hz(20).unwrap()), Nanos(0)).unwrap();
    let mut r = Runner::new(state, clock.clone(), clock.clone());
    assert_eq!(
        r.state().real_time().render_rate(),
        Some(Period::from_hz(DEFAULT_RENDER_HZ).unwrap())
    );
    let mut alphas = Vec::new();
    r.run(
        |e, _| {
            if let Event::Render(frame) = e {
                alphas.push(frame.alpha);
            }
        },
        |s| s.real_time().elapsed() < Nanos::from_secs(1),
    );
    // Draws at 0, 1/60, ..., 1 s: 61 in all, three per tick, at alphas 0, 1/3 and 2/3.
    assert_eq!(alphas.len(), 61);
    for (i, a) in alphas.iter().enumerate() {
        let want = (i % 3) as f64 / 3.0;
        assert!((a - want).abs() < 1e-6, "draw {i}: alpha {a}, want {want}");
    }
    // NoSleep (vsync or an outer event loop paces the draws) and an explicit choice are kept.
    let state = LoopState::new(LoopConfig::new(Period::from_hz(20).unwrap()), Nanos(0)).unwrap();
    assert_eq!(
        Runner::new(state.clone(), clock.clone(), NoSleep)
            .state()
            .real_time()
            .render_rate(),
        None
    );
    let r = Runner::new(state, clock.clone(), clock.clone()).with_render_rate(None);
    assert_eq!(r.state().real_time().render_rate(), None);
}

#[test]
fn manual_time_resuming_goes_on_exactly_as_a_run_that_never_saved() {
    // One run of 3 s, and one saved at 1.25 s and resumed on a new fake clock: the same
    // events, each at the same time.
    fn run_until(
        runner: &mut Runner<Nanos, ManualTime, ManualTime>,
        until: Nanos,
        log: &mut Vec<(Nanos, Event<Nanos>)>,
    ) {
        runner.run(
            |event, state| log.push((state.real_time().elapsed(), *event)),
            |state| state.real_time().elapsed() < until,
        );
    }
    let config = || {
        LoopConfig::new(Period::from_hz(30).unwrap()).clock(tickfold::ClockConfig::new(
            "ai",
            Period::from_hz(7).unwrap(),
        ))
    };
    let start = Nanos::from_millis(900);
    let new_runner = |clock: ManualTime| {
        let state = LoopState::new(config(), start).unwrap();
        Runner::new(state, clock.clone(), clock)
    };
    let mut whole = Vec::new();
    run_until(
        &mut new_runner(ManualTime::starting_at(start)),
        Nanos::from_secs(3),
        &mut whole,
    );

    let mut parts = Vec::new();
    let mut first = new_runner(ManualTime::starting_at(start));
    run_until(&mut first, Nanos::from_millis(1_250), &mut parts);
    let saved = first.into_state();
    let clock = ManualTime::resuming(&saved);
    assert_eq!(clock.now().0, start.0 + saved.real_time().elapsed().0);
    let mut second = Runner::new(saved, clock.clone(), clock);
    run_until(&mut second, Nanos::from_secs(3), &mut parts);
    assert_eq!(parts, whole);
    // A clock that does not resume (a fresh one at the start) replays the loop's whole past
    // as one long frame: not the same run.
    let mut from_start = Vec::new();
    let mut first = new_runner(ManualTime::starting_at(start));
    run_until(&mut first, Nanos::from_millis(1_250), &mut from_start);
    let saved = first.into_state();
    let clock = ManualTime::starting_at(Nanos(start.0 + 1));
    let mut second = Runner::new(saved, clock.clone(), clock);
    run_until(&mut second, Nanos::from_secs(3), &mut from_start);
    assert_ne!(from_start, whole);
}
