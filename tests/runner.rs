//! The runner on a fake clock with a sleeper that records its calls (no real sleeps): it
//! waits for exactly the fold's deadlines, carries out `Sleep` events before the events after
//! them, never drifts however late it wakes, and passes dropped slots to user code so a
//! frame-indexed animation stays in sync (seed 000's "synchronization on drops").

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use tickfold::runner::{Clock, NoSleep, Runner, Sleeper};
use tickfold::{Event, LoopConfig, LoopState, Nanos, Policy, TickRate};

const MS: u64 = 1_000_000;

/// A clock the test moves by hand.
#[derive(Clone, Default)]
struct FakeClock(Rc<Cell<u64>>);

impl Clock<Nanos> for FakeClock {
    fn now(&mut self) -> Nanos {
        Nanos(self.0.get())
    }
}

impl FakeClock {
    fn advance(&self, ns: u64) {
        self.0.set(self.0.get() + ns);
    }
}

/// Records every deadline and "sleeps" by moving the fake clock there, `late` ns too far.
struct Recorder {
    clock: FakeClock,
    calls: Rc<RefCell<Vec<u64>>>,
    late: u64,
}

impl Sleeper<Nanos> for Recorder {
    fn sleep_until(&mut self, deadline: Nanos) {
        self.calls.borrow_mut().push(deadline.0);
        let now = self.clock.0.get();
        self.clock.0.set(now.max(deadline.0 + self.late));
    }
}

type FakeRunner = Runner<Nanos, FakeClock, Recorder>;
type Calls = Rc<RefCell<Vec<u64>>>;

fn runner(config: LoopConfig, late: u64) -> (FakeRunner, FakeClock, Calls) {
    let clock = FakeClock::default();
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
    let rate = TickRate::from_hz(60).unwrap();
    let (mut r, clock, calls) = runner(LoopConfig::new(rate), 300_000);
    let mut updates = Vec::new();
    r.run(
        |e, _| {
            if let Event::Update(t) = e {
                updates.push(t.index);
            }
        },
        |s| s.real_time().0 < 3_600 * 1_000 * MS,
    );
    let (num, den) = rate.period_ratio();
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
    assert!(clock.0.get() > r.state().real_time().0);
    assert_eq!(
        r.state().ticks_run(),
        rate.ticks_in(r.state().real_time().0)
    );
}

#[test]
fn wait_until_reports_the_lateness() {
    let (mut r, _clock, _) = runner(LoopConfig::new(TickRate::from_hz(60).unwrap()), 42);
    assert_eq!(r.wait_until(Nanos(5 * MS)), 42);
    // A deadline already passed: no sleep, and the lateness is how far past it the clock is.
    assert_eq!(r.wait_until(Nanos(MS)), 5 * MS + 42 - MS);
}

#[test]
fn sleep_events_are_carried_out_before_the_update_they_schedule() {
    let config =
        LoopConfig::new(TickRate::from_period_ms_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    let (mut r, clock, calls) = runner(config, 0);
    let mut seen = Vec::new();
    for _ in 0..5 {
        let c = clock.clone();
        r.frame(|e, _| {
            if let Event::Update(t) = e {
                seen.push((t.index, c.0.get()));
                c.advance(3 * MS); // the update's work
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
        LoopConfig::new(TickRate::from_period_ms_f64(10.0).unwrap()).policy(Policy::DropAndRest);
    let (mut r, clock, _) = runner(config, 0);
    let (mut naive, mut dropped, mut draws) = (0u64, 0u64, 0u64);
    for _ in 0..200 {
        let c = clock.clone();
        r.frame(|e, _| match e {
            Event::DroppedTicks { count, .. } => dropped += count,
            Event::Update(t) => {
                // The animation frame for this slot, from the tick number the loop passes.
                let synced = t.index % FRAMES;
                let wall = c.0.get() / (10 * MS) % FRAMES;
                assert_eq!(synced, wall, "tick {} drawn at {} ns", t.index, c.0.get());
                naive += 1; // the seed's out-of-sync draw() that counts its own calls
                draws += 1;
                c.advance(if draws % 4 == 0 { 25 * MS } else { 2 * MS });
            }
            _ => {}
        });
    }
    let s = r.state();
    assert!(dropped > 0);
    assert_eq!(
        s.next_tick(),
        draws + dropped,
        "every lost slot was reported"
    );
    assert_eq!(s.ticks_dropped(), dropped);
    assert_ne!(
        naive % FRAMES,
        s.next_tick() % FRAMES,
        "the naive counter fell out of sync"
    );
}

#[test]
fn no_sleep_leaves_pacing_to_the_caller() {
    let clock = FakeClock::default();
    let state = LoopState::new(LoopConfig::new(TickRate::from_hz(50).unwrap()), Nanos(0)).unwrap();
    let mut r = Runner::new(state, clock.clone(), NoSleep);
    let mut renders = 0;
    // A vsync at 144 Hz: the caller calls `frame` per vsync; the runner never waits.
    for _ in 0..144 {
        clock.advance(1_000_000_000 / 144);
        let deadline = r.frame(|e, _| renders += u32::from(matches!(e, Event::Render(_))));
        assert!(deadline.is_some());
    }
    assert_eq!(renders, 144);
    assert_eq!(r.state().ticks_run(), 49, "50 Hz over 143/144 s");
}
