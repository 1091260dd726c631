//! The runner hands each update's handler the state as of that tick (`LoopState::as_of`):
//! the scenario on a fake clock, through `frame` and through `run_with`, whose handler
//! exits mid-step and leaves the state at the step's end.

use std::collections::VecDeque;

use tickfold::runner::{NoSleep, Runner, TimeSource};
use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};

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

const MS: u64 = 1_000_000;

fn physics_ai(times: &[u64]) -> Runner<Nanos, Script, NoSleep> {
    let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30).unwrap()))
        .clock(ClockConfig::new("ai", Period::from_hz(10).unwrap()));
    let state = LoopState::new(config, Nanos(0)).unwrap();
    Runner::new(state, Script(times.iter().copied().collect(), 0), NoSleep)
}

/// What each AI tick's handler reads: its number, physics' latest tick, virtual elapsed.
type Seen = Vec<(u64, u64, Nanos)>;

fn read_ai(event: &Event<Nanos>, state: &LoopState<Nanos>, seen: &mut Seen) {
    let ai = state.clock("ai").unwrap().id();
    if let Event::Update(tick) = event {
        if tick.clock == ai {
            let physics = state.clock("physics").unwrap().latest_tick().unwrap();
            seen.push((tick.index, physics.index, state.virtual_time().elapsed()));
        }
    }
}

#[test]
fn ai_tick_0_reads_physics_tick_2_and_100_ms_in_one_250_ms_frame() {
    let mut runner = physics_ai(&[250 * MS]);
    let mut seen = Vec::new();
    runner.frame(|event, state| read_ai(event, state, &mut seen));
    assert_eq!(
        seen,
        [(0, 2, Nanos(100 * MS)), (1, 5, Nanos(200 * MS))],
        "not physics' tick 6 and 250 ms, the step's end"
    );
    // After the frame the state reads the end of the step.
    let state = runner.state();
    assert_eq!(state.as_of_tick(), None);
    assert_eq!(
        state.clock("physics").unwrap().latest_tick().unwrap().index,
        6
    );
    assert_eq!(state.virtual_time().elapsed(), Nanos(250 * MS));
}

#[test]
fn the_readings_do_not_depend_on_how_frames_fall() {
    let mut one = physics_ai(&[250 * MS]);
    let mut many = physics_ai(&(1..=25).map(|i| i * 10 * MS).collect::<Vec<_>>());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    one.frame(|event, state| read_ai(event, state, &mut a));
    for _ in 0..25 {
        many.frame(|event, state| read_ai(event, state, &mut b));
    }
    assert_eq!(a, b);
}

#[test]
fn a_handler_that_exits_mid_step_leaves_the_state_at_the_step_end() {
    let mut runner = physics_ai(&[250 * MS]);
    let mut seen = Vec::new();
    runner.run_with(&mut seen, |seen, event, state, ctl| {
        read_ai(event, state, seen);
        if !seen.is_empty() {
            ctl.exit(); // right after AI's tick 0
        }
    });
    assert_eq!(seen, [(0, 2, Nanos(100 * MS))]);
    assert!(runner.has_pending_events());
    assert_eq!(runner.state().as_of_tick(), None);
    assert_eq!(runner.state().virtual_time().elapsed(), Nanos(250 * MS));
    // The next frame hands on the rest of the step, still as of each tick.
    runner.frame(|event, state| read_ai(event, state, &mut seen));
    assert_eq!(seen, [(0, 2, Nanos(100 * MS)), (1, 5, Nanos(200 * MS))]);
}
