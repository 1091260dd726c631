//! Sustained overload: with the max frame delta on, no clock's backlog grows past the max frame
//! delta's worth of ticks, the ticks given up are reported exactly (`DiscardedTime`), and every
//! due tick is run, reported given up, or still owed. With it off the backlog may grow.

use core::time::Duration;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period};

const MS: u64 = 1_000_000;

/// What one clock's events said, summed over the steps.
#[derive(Clone, Copy, Default, Debug)]
struct Seen {
    ran: u64,
    given_up: u64,
    time: u64,
}

/// Steps `state` to `now`, adding what the events said to `seen` (by clock id) and returning
/// the step's largest `DiscardedTime` time after the updates and the one before them.
fn step(state: &mut LoopState, now: u64, seen: &mut [Seen]) -> u64 {
    let events = state.advance(Nanos(now));
    let mut most = 0;
    for e in events.iter() {
        match e {
            Event::Update(tick) => seen[usize::from(tick.clock.0)].ran += 1,
            Event::DiscardedTime {
                clock, time, ticks, ..
            } => {
                let s = &mut seen[usize::from(clock.0)];
                s.given_up += ticks;
                s.time += time.0;
                most = most.max(time.0);
            }
            Event::DroppedTicks { clock, count, .. } => {
                seen[usize::from(clock.0)].given_up += count
            }
            _ => {}
        }
    }
    most
}

/// The issue's loop: main 60 Hz, physics 240 Hz, AI 10 Hz, every default (cap 8, 250 ms max
/// frame delta).
fn issue_loop(max: Option<Duration>) -> LoopState {
    let config = LoopConfig::new(Period::from_hz(60).unwrap())
        .clock(ClockConfig::new("physics", Period::from_hz(240).unwrap()))
        .clock(ClockConfig::new("ai", Period::from_hz(10).unwrap()))
        .max_frame_delta(max);
    LoopState::new(config, Nanos(0)).unwrap()
}

/// Frames at 20 fps for `secs` seconds: 12 physics ticks due per frame, 8 may run.
fn run_20_fps(state: &mut LoopState, secs: u64, seen: &mut [Seen]) {
    for frame in 1..=secs * 20 {
        let _ = step(state, frame * 50 * MS, seen);
    }
}

#[test]
fn the_issue_scenario_keeps_the_lag_bounded() {
    for secs in [10, 60] {
        let mut state = issue_loop(Some(Duration::from_millis(250)));
        let mut seen = [Seen::default(); 3];
        run_20_fps(&mut state, secs, &mut seen);
        for (i, (name, hz)) in [("main", 60), ("physics", 240), ("ai", 10)]
            .into_iter()
            .enumerate()
        {
            let stats = state.clock(name).unwrap().stats();
            // Everything due is accounted for, by the events alone.
            assert_eq!(stats.ticks_due, secs * hz, "{name}");
            assert_eq!(seen[i].ran, stats.ticks_run, "{name}");
            assert_eq!(seen[i].given_up, stats.ticks_dropped, "{name}");
            assert_eq!(seen[i].time, stats.time_discarded.0, "{name}");
            assert_eq!(
                seen[i].ran + seen[i].given_up + stats.pending,
                stats.ticks_due,
                "{name}"
            );
            // Owed: at most the 250 ms before now (the bound), never more.
            assert!(
                stats.pending <= hz / 4 + 1,
                "{name}: owes {}",
                stats.pending
            );
            // The world as a whole is at most 250 ms behind, plus the tick in progress: every
            // clock's lag (measured from the start of its oldest owed tick).
            assert!(
                stats.lag.behind() <= Nanos(250 * MS + 1_000_000_000 / hz),
                "{name}: {}",
                stats.lag
            );
            // It ran slower than real time and gave the rest up, reported.
            assert!(stats.ticks_dropped > 0, "{name}");
            assert!(stats.ticks_run >= secs * hz / 2, "{name}");
        }
        // Physics ran its cap every frame: 8 ticks of 12.
        let physics = state.clock("physics").unwrap().stats();
        assert_eq!(physics.ticks_run, secs * 20 * 8);
    }
}

#[test]
fn without_the_max_frame_delta_the_backlog_grows() {
    let mut state = issue_loop(None);
    let mut seen = [Seen::default(); 3];
    run_20_fps(&mut state, 60, &mut seen);
    // The issue's numbers: 2/3 of the ticks run, 20 s behind, nothing given up.
    let main = state.clock("main").unwrap().stats();
    assert_eq!((main.ticks_run, main.pending), (2_400, 1_200));
    assert_eq!(main.ticks_dropped, 0);
    assert_eq!(state.virtual_time().time_discarded(), Nanos(0));
}

#[test]
fn a_drop_gives_up_half_the_max_frame_delta_at_once() {
    // One 60 Hz clock, cap 2, max frame delta 100 ms, frames of 50 ms: 3 ticks come due per
    // frame (one every 16.67 ms), 2 run, the backlog grows by one a frame until it would hold
    // more than 100 ms of ticks.
    let config = LoopConfig::new(Period::from_hz(60).unwrap())
        .max_updates(Some(2))
        .max_frame_delta(Some(Duration::from_millis(100)));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut seen = [Seen::default()];
    let mut given = Vec::new();
    for frame in 1..=40u64 {
        let before = state.clock("main").unwrap().stats().next_tick;
        let events = state.advance(Nanos(frame * 50 * MS));
        for e in events.iter() {
            if let Event::DiscardedTime {
                first, ticks, time, ..
            } = e
            {
                given.push((frame, first, ticks, time.0));
            }
            if let Event::Update(_) = e {
                seen[0].ran += 1;
            }
        }
        let stats = state.clock("main").unwrap().stats();
        // Never more than 100 ms of ticks owed (six 16.67 ms ticks), never more than 50 ms
        // (three) after a drop.
        assert!(stats.pending <= 6, "frame {frame}: {}", stats.pending);
        if given.last().is_some_and(|g| g.0 == frame) {
            assert!(stats.pending <= 3, "frame {frame}: {}", stats.pending);
            assert!(stats.lag.behind() <= Nanos(50 * MS + 16_666_667));
        }
        assert!(stats.next_tick >= before);
    }
    // The first drop comes once the oldest owed tick is more than 100 ms behind; then half
    // the max frame delta's worth goes at once: the backlog keeps the ticks due in the last
    // 50 ms.
    let (frame, first, ticks, time) = given[0];
    assert!(frame > 1 && first > 0 && ticks >= 1);
    // Each drop's time is the grid span of its ticks: 4 × 16.67 ms.
    assert_eq!(ticks, 4);
    assert!((66_666_666..=66_666_667).contains(&time), "{time}");
    for g in &given {
        assert_eq!(g.2, 4);
    }
    assert!(given.len() < 40 / 2, "fewer, larger drops: {}", given.len());
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(
        given.iter().map(|g| g.2).sum::<u64>(),
        stats.ticks_dropped,
        "every drop reported"
    );
    assert_eq!(
        given.iter().map(|g| g.3).sum::<u64>(),
        stats.time_discarded.0
    );
    assert_eq!(stats.ticks_run, seen[0].ran);
    assert_eq!(
        stats.ticks_run + stats.ticks_dropped + stats.pending,
        stats.ticks_due
    );
}

/// Rates as Hz ratios: the issue's, NTSC's 59.94, and an awkward one.
const RATES: [(u64, u64); 6] = [
    (240, 1),
    (60, 1),
    (10, 1),
    (60_000, 1_001),
    (144, 1),
    (7, 3),
];

#[derive(Clone, Debug)]
struct Case {
    clocks: Vec<((u64, u64), Option<u32>)>,
    max: Option<u64>,
    /// Frame lengths in ns.
    frames: Vec<u64>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let n = 1 + usize::arbitrary(g) % 4;
        let clocks = (0..n)
            .map(|_| {
                let rate = *g.choose(&RATES).unwrap();
                let cap = (u8::arbitrary(g) % 5 != 0).then(|| 1 + u32::arbitrary(g) % 8);
                (rate, cap)
            })
            .collect();
        let max = (u8::arbitrary(g) % 6 != 0).then(|| 1 + u64::arbitrary(g) % (400 * MS));
        let mut frames = Vec::new();
        while frames.len() < usize::arbitrary(g) % 200 {
            // Runs of one kind of frame: steady, sustained overload, stalls, tiny.
            let len = 1 + usize::arbitrary(g) % 40;
            let kind = u8::arbitrary(g) % 4;
            for _ in 0..len {
                frames.push(match kind {
                    0 => 16 * MS + u64::arbitrary(g) % (2 * MS),
                    1 => 40 * MS + u64::arbitrary(g) % (80 * MS),
                    2 => u64::arbitrary(g) % (2_000 * MS),
                    _ => u64::arbitrary(g) % MS,
                });
            }
        }
        Case {
            clocks,
            max,
            frames,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let me = self.clone();
        Box::new(self.frames.shrink().map(move |frames| Case {
            frames,
            ..me.clone()
        }))
    }
}

/// After every step, each clock owes at most the ticks due in the max frame delta before the
/// step's virtual time, `p` ticks with `(p − 1)·dt < max + 1 ns`; ticks run + given up (in
/// the events) + owed = due, exactly; the time the events gave up is each clock's
/// `time_discarded`; and the loop's total is the sum of each step's largest.
fn bounded(case: Case) -> bool {
    let mut config = LoopConfig::from_clock(
        ClockConfig::new(
            "main",
            Period::from_hz_ratio(case.clocks[0].0.0, case.clocks[0].0.1).unwrap(),
        )
        .max_updates(case.clocks[0].1),
    )
    .max_frame_delta(case.max.map(Duration::from_nanos));
    for (i, &((num, den), cap)) in case.clocks.iter().enumerate().skip(1) {
        config = config.clock(
            ClockConfig::new(format!("c{i}"), Period::from_hz_ratio(num, den).unwrap())
                .max_updates(cap),
        );
    }
    let Ok(mut state) = LoopState::new(config, Nanos(0)) else {
        return false;
    };
    let mut seen = vec![Seen::default(); case.clocks.len()];
    let mut now = 0;
    let mut loop_total = 0u64;
    for d in &case.frames {
        now += d;
        let before = state.virtual_time().time_discarded().0;
        let most = step(&mut state, now, &mut seen);
        let added = state.virtual_time().time_discarded().0 - before;
        // Two rules can give time up in one step (the long frame's, the backlog's): the loop
        // adds the step's largest `DiscardedTime`, as `time_discarded` documents.
        if added != most {
            return false;
        }
        loop_total += added;
        for (i, &((num, den), _)) in case.clocks.iter().enumerate() {
            let stats = state
                .clock(tickfold_core::ClockId(i as u16))
                .unwrap()
                .stats();
            let s = seen[i];
            if s.ran != stats.ticks_run
                || s.given_up != stats.ticks_dropped
                || s.time != stats.time_discarded.0
                || s.ran + s.given_up + stats.pending != stats.ticks_due
            {
                eprintln!("step to {now}: clock {i} {s:?} {stats:?}");
                return false;
            }
            if let Some(max) = case.max {
                // (p − 1)·dt < max + 1, with dt = 1e9·den/num ns.
                let p = u128::from(stats.pending);
                if p > 0
                    && (p - 1) * 1_000_000_000 * u128::from(den)
                        >= u128::from(max + 1) * u128::from(num)
                {
                    eprintln!("step to {now}: clock {i} owes {p} ({stats:?})");
                    return false;
                }
            }
        }
    }
    loop_total == state.virtual_time().time_discarded().0
}

#[test]
fn the_backlog_stays_bounded_on_any_schedule() {
    QuickCheck::new()
        .tests(300)
        .quickcheck(bounded as fn(Case) -> bool);
}

/// A step that gave up the backlog after its last update, then that update refused (a
/// rollback session not ready): the refusal undoes the drop with the run, so every count
/// still adds up (ran + given up + owed = due) and the loop's discarded time is the clock's;
/// the next step runs the refused tick again, and the bound gives up again only what is
/// then too old.
#[test]
fn refusing_the_last_update_before_a_backlog_given_up_keeps_the_counts() {
    let config = LoopConfig::new(Period::from_hz(1_000).unwrap())
        .max_updates(Some(10))
        .max_frame_delta(Some(Duration::from_nanos(75_857_154)))
        .phase(0.5);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let _ = state.advance(Nanos(0));
    state
        .clock_mut("main")
        .unwrap()
        .accumulate_overstep(Nanos(10_500_000));
    let events = state.advance(Nanos(75_857_154));
    let last = events.updates().last().unwrap();
    assert_eq!(last.index, 9);
    let given: u64 = events
        .iter()
        .map(|e| match e {
            Event::DiscardedTime { ticks, first, .. } => {
                assert_eq!(first, 10);
                ticks
            }
            _ => 0,
        })
        .sum();
    assert!(given > 0, "the step gave up the backlog after tick 9");
    state.refuse(last.clock, last.index).unwrap();
    let counts_add_up = |state: &LoopState<Nanos>| {
        let s = state.clock("main").unwrap().stats();
        assert_eq!(
            s.ticks_run + s.ticks_dropped + s.pending,
            s.ticks_due,
            "{s:?}"
        );
        assert_eq!(state.virtual_time().time_discarded(), s.time_discarded);
    };
    counts_add_up(&state);
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 0);
    let events = state.advance(Nanos(75_857_154));
    let run: Vec<u64> = events.updates().map(|t| t.index).collect();
    assert_eq!(run, (9..19).collect::<Vec<_>>());
    // Tick 19, the oldest now owed, is due within the max frame delta of virtual time: the
    // bound keeps the whole backlog (a later step gives up what falls too far behind).
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::DiscardedTime { .. }))
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Deferred { ticks: 67, .. }))
    );
    counts_add_up(&state);
}
