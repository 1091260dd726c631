//! Run-time controls against the peers that have them: Bevy's `Time<Fixed>::set_timestep` in
//! the middle of a run (fake clock, a minimal `App`) and `spin_sleep_util`'s `Interval` with
//! `MissedTickBehavior::Delay` (real clock: it reads `Instant::now()` itself), each replayed on
//! tickfold (`ClockMut::set_rate`, `Policy::Delay`) with the same times.

use std::time::{Duration, Instant};

use bevy_app::{App, FixedUpdate};
use bevy_ecs::prelude::{Res, ResMut, Resource};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use spin_sleep_util::{MissedTickBehavior, interval_at};
use tickfold::{Event, LoopConfig, LoopState, Nanos, Period, Policy};

use tickfold_testing::SplitMix64;

const MS: u64 = 1_000_000;

/// Frames of the `set_timestep` run.
pub const TIMESTEP_FRAMES: u64 = 150;
/// The first timestep, ns.
pub const FIRST_TIMESTEP: u64 = 20 * MS;
/// The timestep changes: (after frame, new timestep in ns).
pub const TIMESTEP_CHANGES: [(u64, u64); 2] = [(40, 10 * MS), (90, 25 * MS)];

/// The `set_timestep` run: every fixed update of both loops as (frame, virtual time at the
/// end of the tick), and the overstep after every frame.
#[derive(Clone, Debug)]
pub struct TimestepRun {
    /// Frame times, ns since the start (frame 0 at 0 is the first update).
    pub frames: Vec<u64>,
    /// Bevy's `FixedUpdate` runs: (frame, `Time<Fixed>::elapsed()` in ns as the system sees it).
    pub bevy: Vec<(u64, u64)>,
    /// tickfold's updates: (frame, `t + dt` in ns).
    pub tickfold: Vec<(u64, u64)>,
    /// Bevy's `Time<Fixed>::overstep()` after every frame, ns.
    pub bevy_overstep: Vec<u64>,
    /// tickfold's `Render::lag` after every frame, ns.
    pub tickfold_lag: Vec<u64>,
    /// The overstep carried over each change (Bevy's, after the frame it follows), ns.
    pub carried: Vec<u64>,
    /// `Event::RateChanged` events tickfold reported.
    pub rate_changed: usize,
}

impl TimestepRun {
    /// Fixed updates that fire in the same frame at the same virtual time in both loops.
    pub fn same(&self) -> usize {
        self.bevy
            .iter()
            .zip(&self.tickfold)
            .filter(|(a, b)| a == b)
            .count()
    }

    /// Frames after which both loops carry the same overstep.
    pub fn same_overstep(&self) -> usize {
        self.bevy_overstep
            .iter()
            .zip(&self.tickfold_lag)
            .filter(|(a, b)| a == b)
            .count()
    }
}

#[derive(Resource, Default)]
struct FixedRuns(Vec<u64>);

fn record_fixed(time: Res<Time<Fixed>>, mut runs: ResMut<FixedRuns>) {
    runs.0.push(time.elapsed().as_nanos() as u64);
}

/// The frame times: 150 frames of 12 to 20 ms (splitmix64, fixed seed), so the changes after
/// frames 40 and 90 fall inside ticks and carry an overstep.
pub fn timestep_frames() -> Vec<u64> {
    let mut rng = SplitMix64::new(17);
    let mut t = 0;
    let mut frames = vec![0];
    for _ in 0..TIMESTEP_FRAMES {
        t += 12 * MS + rng.next_u64() % (8 * MS + 1);
        frames.push(t);
    }
    frames
}

fn period(ns: u64) -> Period {
    Period::from_duration(Duration::from_nanos(ns)).expect("a non-zero period")
}

/// Runs the frames through Bevy's `App` (`TimeUpdateStrategy::ManualInstant`) and through
/// tickfold, changing the timestep after the frames of [`TIMESTEP_CHANGES`].
pub fn timestep_run() -> TimestepRun {
    let frames = timestep_frames();
    let base = Instant::now();
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .insert_resource(Time::<Fixed>::from_duration(Duration::from_nanos(
            FIRST_TIMESTEP,
        )))
        .init_resource::<FixedRuns>()
        .add_systems(FixedUpdate, record_fixed);
    let config = LoopConfig::new(period(FIRST_TIMESTEP)).max_updates(None);
    let mut state = LoopState::new(config, Nanos(0)).expect("a valid configuration");
    let mut run = TimestepRun {
        frames: frames.clone(),
        bevy: Vec::new(),
        tickfold: Vec::new(),
        bevy_overstep: Vec::new(),
        tickfold_lag: Vec::new(),
        carried: Vec::new(),
        rate_changed: 0,
    };
    for (k, &now) in (0u64..).zip(&frames) {
        app.insert_resource(TimeUpdateStrategy::ManualInstant(
            base + Duration::from_nanos(now),
        ));
        app.update();
        let ran = std::mem::take(&mut app.world_mut().resource_mut::<FixedRuns>().0);
        run.bevy.extend(ran.into_iter().map(|e| (k, e)));
        let overstep = app.world().resource::<Time<Fixed>>().overstep().as_nanos() as u64;
        run.bevy_overstep.push(overstep);

        let events = state.advance(Nanos(now));
        run.tickfold
            .extend(events.updates().map(|t| (k, t.t.0 + t.dt.floor_nanos())));
        run.rate_changed += events
            .iter()
            .filter(|e| matches!(e, Event::RateChanged { .. }))
            .count();
        let lag = events.render().map_or(0, |r| r.lag.as_nanos() as u64);
        run.tickfold_lag.push(lag);

        if let Some(&(_, step)) = TIMESTEP_CHANGES.iter().find(|(after, _)| *after == k) {
            run.carried.push(overstep);
            app.world_mut()
                .resource_mut::<Time<Fixed>>()
                .set_timestep(Duration::from_nanos(step));
            state
                .clock_mut("main")
                .expect("the main clock")
                .set_rate(period(step));
        }
    }
    run
}

/// The `Delay` run's period.
pub const DELAY_PERIOD: Duration = Duration::from_millis(5);
/// Work per call, ms: mostly 1 ms, and four calls with more work than the period (three of
/// them make the next call late).
pub const DELAY_WORK_MS: [u64; 30] = [
    1, 1, 1, 1, 12, 1, 1, 1, 1, 1, 7, 1, 1, 1, 3, 1, 1, 1, 23, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
];

/// One `tick()` call of the `Delay` run, ns since the interval's start.
#[derive(Copy, Clone, Debug)]
pub struct DelayCall {
    /// `Instant::now()` just before `tick()`: what tickfold is fed.
    pub before: u64,
    /// `Instant::now()` just after `tick()` returned.
    pub after: u64,
    /// Whether the interval found the tick missed (its next tick is not one period after this
    /// one).
    pub spin_late: bool,
    /// Where the interval's grid puts this call's tick: the tick it returned when on time, the
    /// reading it took inside `tick()` (its next tick less a period) when late.
    pub spin_slot: u64,
    /// Whether tickfold ran the update at once (no `Event::Sleep`).
    pub tickfold_late: bool,
    /// Where tickfold's grid puts it: the `Sleep` deadline when on time, the step's `now` (the
    /// late slot starts then) when late.
    pub tickfold_slot: u64,
    /// The same, with tickfold fed the interval's own reading for the late calls.
    pub tickfold_slot_same_reading: u64,
    /// The tick number tickfold ran.
    pub index: u64,
}

/// The `Delay` run on the real clock.
#[derive(Clone, Debug)]
pub struct DelayRun {
    /// The calls compared (one more was made, to learn whether the last was late).
    pub calls: Vec<DelayCall>,
    /// Ticks tickfold dropped (`Policy::Delay` never drops).
    pub dropped: u64,
}

/// What the comparison found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DelaySummary {
    /// Calls compared.
    pub calls: usize,
    /// Late calls, by the interval.
    pub spin_late: usize,
    /// Late calls, by tickfold.
    pub tickfold_late: usize,
    /// Calls whose lateness differs because the tick fell between the two loops' readings.
    pub late_differs: usize,
    /// Calls whose lateness differs for any other reason (none expected).
    pub late_unexplained: usize,
    /// Calls whose tick is at exactly the same instant.
    pub same: usize,
    /// Calls whose offset (interval − tickfold) is exactly the gap between the two loops'
    /// readings at the latest late call, that gap lying within that call's read window.
    pub explained: usize,
    /// The largest offset, ns.
    pub max_offset: u64,
    /// The largest read window (`after − before`) of a late call, ns.
    pub max_window: u64,
    /// Calls at the same instant when tickfold is fed the interval's own reading.
    pub same_with_its_reading: usize,
    /// Calls whose tickfold tick number is the call's number (no tick skipped).
    pub in_order: usize,
}

impl DelayRun {
    /// Compares the two grids call by call.
    pub fn summary(&self) -> DelaySummary {
        let mut s = DelaySummary {
            calls: self.calls.len(),
            spin_late: 0,
            tickfold_late: 0,
            late_differs: 0,
            late_unexplained: 0,
            same: 0,
            explained: 0,
            max_offset: 0,
            max_window: 0,
            same_with_its_reading: 0,
            in_order: 0,
        };
        // The gap between the two readings of the latest late call, and its read window.
        let (mut gap, mut window) = (0, 0);
        let period = DELAY_PERIOD.as_nanos() as u64;
        // Where tickfold's grid had this call's tick before the call (0 for the first).
        let mut scheduled = 0;
        for (k, c) in (0u64..).zip(&self.calls) {
            s.in_order += usize::from(c.index == k);
            s.spin_late += usize::from(c.spin_late);
            s.tickfold_late += usize::from(c.tickfold_late);
            // The lateness can only differ when the tick fell between the two loops' readings:
            // tickfold's, and the interval's (at most `after`, and `gap` later than tickfold's
            // grid when on time).
            let race = scheduled + gap >= c.before && scheduled <= c.after;
            scheduled = c.tickfold_slot + period;
            if c.spin_late != c.tickfold_late {
                if race {
                    s.late_differs += 1;
                } else {
                    s.late_unexplained += 1;
                }
            }
            if c.spin_late || c.tickfold_late {
                gap = c.spin_slot.wrapping_sub(c.tickfold_slot);
                window = c.after - c.before;
                s.max_window = s.max_window.max(window);
            }
            s.same += usize::from(c.spin_slot == c.tickfold_slot);
            if let Some(offset) = c.spin_slot.checked_sub(c.tickfold_slot) {
                s.max_offset = s.max_offset.max(offset);
                s.explained += usize::from(offset == gap && gap <= window);
            }
            s.same_with_its_reading += usize::from(c.spin_slot == c.tickfold_slot_same_reading);
        }
        s
    }
}

fn since(start: Instant, t: Instant) -> u64 {
    t.saturating_duration_since(start).as_nanos() as u64
}

/// One tickfold step of the `Delay` comparison: (late, slot, tick index).
fn delay_step(state: &mut LoopState, now: u64) -> (bool, u64, u64) {
    let events = state.advance(Nanos(now));
    let sleep = events.iter().find_map(|e| match e {
        Event::Sleep { until } => Some(until.0),
        _ => None,
    });
    let index = events.updates().map(|t| t.index).next().unwrap_or(u64::MAX);
    (sleep.is_none(), sleep.unwrap_or(now), index)
}

/// Runs an `Interval` with `MissedTickBehavior::Delay` on the real clock (about 0.2 s), sleeping
/// [`DELAY_WORK_MS`] between calls, then feeds the readings to a `Policy::Delay` loop.
pub fn delay_run() -> DelayRun {
    let start = Instant::now();
    let mut interval =
        interval_at(start, DELAY_PERIOD).with_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut raw = Vec::new();
    for work in DELAY_WORK_MS.iter().copied().chain([0]) {
        let before = Instant::now();
        let tick = interval.tick();
        let after = Instant::now();
        raw.push((
            since(start, before),
            since(start, after),
            since(start, tick),
        ));
        std::thread::sleep(Duration::from_millis(work));
    }
    let period = DELAY_PERIOD.as_nanos() as u64;
    let config =
        LoopConfig::new(Period::from_duration(DELAY_PERIOD).expect("5 ms")).policy(Policy::Delay);
    let mut state = LoopState::new(config.clone(), Nanos(0)).expect("a valid configuration");
    let mut same_reading = LoopState::new(config, Nanos(0)).expect("a valid configuration");
    let mut calls = Vec::new();
    for w in raw.windows(2) {
        let ((before, after, tick), (_, _, next)) = (w[0], w[1]);
        // On time, the interval's next tick is one period after this one; late, one period
        // after its own reading.
        let spin_late = next != tick + period;
        let spin_slot = if spin_late { next - period } else { tick };
        let (tickfold_late, tickfold_slot, index) = delay_step(&mut state, before);
        let reading = if spin_late { spin_slot } else { before };
        let (_, tickfold_slot_same_reading, _) = delay_step(&mut same_reading, reading);
        calls.push(DelayCall {
            before,
            after,
            spin_late,
            spin_slot,
            tickfold_late,
            tickfold_slot,
            tickfold_slot_same_reading,
            index,
        });
    }
    DelayRun {
        calls,
        dropped: state
            .clock(state.alpha_clock())
            .unwrap()
            .stats()
            .ticks_dropped,
    }
}
