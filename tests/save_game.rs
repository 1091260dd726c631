//! A real-time loop (`LoopState<Instant>`, on a fake `Instant` clock for determinism) saved
//! mid-run through `serde_json` and loaded into a "new process" whose `Instant`s have another
//! origin: it goes on with exactly the events of the run that was never interrupted.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use tickfold::runner::{ManualTime, Runner, Sleeper, TimeSource};
use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period, Policy, Timestamp};

/// `base` plus a manual clock; each sleep wakes late by a pseudo-random amount (up to 3 ms),
/// from a count of sleeps the test carries over to the new process.
#[derive(Clone)]
struct FakeInstant {
    base: Instant,
    clock: ManualTime,
    sleeps: Rc<Cell<u64>>,
}

impl TimeSource<Instant> for FakeInstant {
    fn now(&mut self) -> Instant {
        self.base + Duration::from(self.clock.now())
    }
}

impl Sleeper<Instant> for FakeInstant {
    fn sleep_until(&mut self, deadline: Instant) {
        let n = self.sleeps.get();
        self.sleeps.set(n + 1);
        let late = (n * 7_919) % 3_001 * 1_000;
        let target = deadline.nanos_since(self.base).unwrap_or(0) + late;
        self.clock.set(Nanos(self.clock.now().0.max(target)));
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct SaveGame {
    clock: LoopState<Nanos>,
    /// The fake sleeper's count, so the new process wakes as the old one would have.
    sleeps: u64,
}

/// Runs until `draws` more renders; the events, with `Sleep` times relative to the start.
fn run(runner: &mut Runner<Instant, FakeInstant, FakeInstant>, draws: u32) -> Vec<String> {
    let mut seen = Vec::new();
    let mut left = draws;
    runner.run_with(&mut seen, |seen, event, state, ctl| {
        seen.push(match event {
            Event::Sleep { until } => {
                format!("Sleep({:?})", until.nanos_since(*state.real_time().start()))
            }
            other => format!("{other:?}"),
        });
        if let Event::Render(_) = event {
            left -= 1;
            if left == 0 {
                ctl.exit();
            }
        }
    });
    seen
}

fn fake(base: Instant, sleeps: u64) -> FakeInstant {
    FakeInstant {
        base,
        clock: ManualTime::new(),
        sleeps: Rc::new(Cell::new(sleeps)),
    }
}

fn new_runner(time: &FakeInstant) -> Runner<Instant, FakeInstant, FakeInstant> {
    let config = LoopConfig::new(Period::from_hz(30).unwrap())
        .clock(ClockConfig::new("ai", Period::from_hz(7).unwrap()).policy(Policy::DropAndRest));
    let state = LoopState::new(config, time.base).unwrap();
    Runner::new(state, time.clone(), time.clone())
}

#[test]
fn a_real_time_loop_saved_mid_run_resumes_in_a_new_process_with_the_same_events() {
    let origin = Instant::now();
    let time = fake(origin, 0);
    let mut whole = new_runner(&time);
    let expected = run(&mut whole, 300);

    let time = fake(origin, 0);
    let mut first = new_runner(&time);
    let mut got = run(&mut first, 120);
    assert!(!first.has_pending_events());
    let file = serde_json::to_string(&SaveGame {
        clock: first.state().clone().rebase(Nanos::ZERO),
        sleeps: time.sleeps.get(),
    })
    .unwrap();
    drop(first);

    // The new process: its Instants have another origin, and its clock starts from scratch.
    let loaded: SaveGame = serde_json::from_str(&file).unwrap();
    let mut time = fake(origin + Duration::from_secs(86_400), loaded.sleeps);
    let state = loaded.clock.resume_at(time.now()).unwrap();
    let mut second = Runner::new(state, time.clone(), time.clone());
    got.extend(run(&mut second, 180));

    assert!(expected.len() > 400, "{} events", expected.len());
    assert_eq!(got, expected);
    assert_eq!(
        second.into_state().rebase(Nanos::ZERO),
        whole.into_state().rebase(Nanos::ZERO)
    );
}
