//! Target `runner`: `tickfold::runner::Runner` on a fake clock, with a sleeper that wakes on
//! time, early, late or never and updates that take time. Checks: no panic, no update handed
//! to user code before its slot, `wait_until` reports the lateness exactly, progress after
//! every wake that was not early, and a bounded number of iterations.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use arbitrary::Arbitrary;
use tickfold::runner::{Runner, Sleeper, TimeSource};
use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Policy};

use crate::fold::RateSpec;

/// How the sleeper wakes for one call.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Wake {
    /// Exactly at the deadline.
    OnTime,
    /// This many ns before the deadline.
    Early(u32),
    /// This many ns after it.
    Late(u32),
    /// At once, without the clock moving.
    Never,
}

/// One clock of the loop (late firing, no phase or hysteresis: updates must not run early).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct RunnerClock {
    rate: RateSpec,
    policy: u8,
    cap: u8,
}

/// The fuzz input.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    main: RunnerClock,
    second: Option<RunnerClock>,
    max_frame_delta: Option<u32>,
    /// ns each update takes on the fake clock.
    work: u16,
    /// How the sleeper wakes, call after call (cycling).
    wake: Wake,
    more_wakes: Vec<Wake>,
}

/// The fake clock, shared with the sleeper.
#[derive(Clone, Default)]
struct FakeTime(Rc<Cell<u64>>);

impl TimeSource<Nanos> for FakeTime {
    fn now(&mut self) -> Nanos {
        Nanos(self.0.get())
    }
}

/// Wakes as the input says, cycling through its list; records whether the last wake was early.
struct FuzzSleeper {
    clock: FakeTime,
    wakes: Rc<Vec<Wake>>,
    next: usize,
    early: Rc<Cell<bool>>,
}

impl Sleeper<Nanos> for FuzzSleeper {
    fn sleep_until(&mut self, deadline: Nanos) {
        let wake = if self.wakes.is_empty() {
            Wake::OnTime
        } else {
            self.wakes[self.next % self.wakes.len()]
        };
        self.next += 1;
        let now = self.clock.0.get();
        let target = match wake {
            Wake::OnTime => deadline.0,
            Wake::Early(d) => deadline.0.saturating_sub(u64::from(d)),
            Wake::Late(d) => deadline.0.saturating_add(u64::from(d)),
            Wake::Never => now,
        };
        let woke = now.max(target);
        self.early.set(woke < deadline.0);
        self.clock.0.set(woke);
    }
}

const FRAMES: usize = 120;

impl RunnerClock {
    fn build(self, name: &'static str) -> Option<(ClockConfig, bool)> {
        let policy = match self.policy % 3 {
            0 => Policy::CatchUp,
            1 => Policy::DropAndRest,
            _ => Policy::KeepWorking,
        };
        let cap = (self.cap != 0).then_some(u32::from(self.cap));
        let config = ClockConfig::new(name, self.rate.build().ok()?)
            .policy(policy)
            .max_updates(cap.or(Some(8)));
        Some((config, policy != Policy::CatchUp))
    }
}

/// Runs one input.
pub fn run(input: Input) {
    let Some((main, main_const)) = input.main.build("main") else {
        return;
    };
    let mut config = LoopConfig::from_clock(main.clone())
        .max_frame_delta(input.max_frame_delta.map(|d| Nanos(u64::from(d)).into()));
    let mut constant = vec![main_const];
    let mut clocks = vec![main];
    if let Some(s) = input.second {
        let Some((c, k)) = s.build("second") else {
            return;
        };
        config = config.clock(c.clone());
        constant.push(k);
        clocks.push(c);
    }
    let Ok(state) = LoopState::new(config, Nanos(0)) else {
        return;
    };
    let clock = FakeTime::default();
    let early = Rc::new(Cell::new(false));
    let sleeper = FuzzSleeper {
        clock: clock.clone(),
        wakes: Rc::new([input.wake].into_iter().chain(input.more_wakes).collect()),
        next: 0,
        early: early.clone(),
    };
    // Deadlines here are the ticks' own: the runner's default render cap (a render slot every
    // 1/60 s for a sleeping runner) would add wakes that rightly run no update; its behaviour
    // is tested in tests/runner.rs.
    let mut runner = Runner::new(state, clock.clone(), sleeper).with_render_rate(None);
    let work = u64::from(input.work);
    let violation: Rc<RefCell<Option<String>>> = Rc::default();
    let mut after_good_wake = false;
    for _ in 0..FRAMES {
        let mut updates = 0_u64;
        let mut drops = false;
        let mut last_sleep: Option<u64> = None;
        early.set(false);
        let frame_now = clock.0.get();
        let deadline = runner.frame(|event, _state| {
            let now = clock.0.get();
            match *event {
                Event::Sleep { until } => last_sleep = Some(until.0),
                Event::DroppedTicks { .. } | Event::DiscardedTime { .. } => drops = true,
                Event::Update(t) => {
                    updates += 1;
                    let i = usize::from(t.clock.0);
                    let (num, den) = clocks[i].rate().as_nanos_ratio();
                    // The slot's start (constant rate) or the tick's end (catch-up), real time:
                    // scale 1 and no pauses here, so virtual time is real time.
                    let k = u128::from(t.index) + u128::from(!constant[i]);
                    let slot = (k * u128::from(num)).div_ceil(u128::from(den));
                    let slot = u64::try_from(slot).unwrap_or(u64::MAX);
                    let early_update = now < slot || last_sleep.is_some_and(|s| now < s);
                    if early_update && !crate::skipped("slot") {
                        violation.borrow_mut().get_or_insert(format!(
                            "update {} of clock {i} handed over at {now} ns, before its slot at \
                             {slot} ns (last Sleep until {last_sleep:?}, the sleeper woke early: {})",
                            t.index,
                            early.get()
                        ));
                    }
                    clock.0.set(now.saturating_add(work));
                }
                _ => {}
            }
        });
        if let Some(v) = violation.borrow_mut().take() {
            check!(false, "{v}");
        }
        // A frame after a wake at or after the deadline makes progress, unless a sleep inside
        // it (a constant-rate loop's `Sleep` before its update) could not reach its slot: then
        // the runner rightly stops before the update (`early` is the last sleep's outcome).
        check!(
            !after_good_wake || drops || updates > 0 || early.get(),
            "a frame after a wake at or after the deadline ran no update and dropped nothing"
        );
        let now = clock.0.get();
        if let Some(d) = deadline {
            check!(
                d.0 >= frame_now,
                "deadline {} before the frame's now {frame_now}",
                d.0
            );
        }
        let target = deadline.map_or(now.saturating_add(16_666_667), |d| d.0);
        let late = runner.wait_until(Nanos(target));
        let woke = clock.0.get();
        check!(
            late == woke.saturating_sub(target),
            "wait_until reported {late} ns late, woke at {woke} for {target}"
        );
        after_good_wake = deadline.is_some() && woke >= target && woke > now;
    }
    // `run` itself, bounded by its `keep_going`.
    let mut frames = 0;
    runner.run(
        |_, _| {},
        |_| {
            frames += 1;
            frames <= 20
        },
    );
    check!(
        frames == 21,
        "run asked keep_going {frames} times for 20 frames"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lone drop-and-rest clock at 60 Hz with an on-time sleeper passes every check.
    #[test]
    fn an_on_time_sleeper_passes_every_check() {
        run(Input {
            main: RunnerClock {
                rate: RateSpec::Hz(60),
                policy: 1,
                cap: 0,
            },
            second: None,
            max_frame_delta: None,
            work: 1_000,
            wake: Wake::OnTime,
            more_wakes: vec![Wake::Late(5_000)],
        });
    }
}
