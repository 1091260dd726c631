//! Run-time changes in `bevy_time`'s tests (bevyengine/bevy, `crates/bevy_time/src/`), replayed
//! on tickfold's fold with a fake clock: `Time<Fixed>::set_timestep` while the loop runs is
//! `ClockMut::set_rate`, `Time<Virtual>::set_max_delta` is `set_max_frame_delta`, and
//! `Time::wrap_period` is the period given to `elapsed_wrapped`; and a port of Bevy's
//! `Time<Virtual>` + `Time<Fixed>` pipeline checked against the fold frame by frame, with speed
//! and timestep changes. The fixed-schedule scenarios are in `peer_bevy_time.rs`, which says how
//! Bevy's three clocks map onto the fold.
//!
//! Two differences, both checked below: Bevy's `set_timestep` called from inside a
//! `FixedUpdate` system changes the remaining runs of the same frame, while tickfold's
//! `set_rate` applies from the next step (the step's updates are already decided); and Bevy's
//! `elapsed_wrapped` keeps its old value until the next `advance` after `set_wrap_period`,
//! while tickfold computes it from the period given.

use core::time::Duration;
use tickfold_testing::SplitMix64;

use tickfold_core::{Event, Events, LoopConfig, Nanos, Period, TimeScale};

mod support;

use support::bevy::*;

fn rate_changes(events: &Events<Nanos>) -> Vec<(Period, u64)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::RateChanged {
                period, from_tick, ..
            } => Some((period, from_tick)),
            _ => None,
        })
        .collect()
}

/// bevy `fixed.rs::test_set_timestep`'s values set on a running clock (`set_timestep`,
/// `set_timestep_seconds(0.25)`, `set_timestep_hz(8.0)`), with Bevy's documented rule: the new
/// timestep is used for the next run, "respecting what is currently in `overstep`". After
/// 100 ms at the default 15.625 ms, six ticks ran and 6.25 ms of overstep is carried: at
/// 125 ms the next run comes once 118.75 ms more have passed, at 218.75 ms.
#[test]
fn set_timestep_at_run_time() {
    let mut state = new(LoopConfig::new(period(BEVY_TIMESTEP)).max_frame_delta(None));
    assert_eq!(
        state.clock("main").ok().map(|c| c.rate()),
        Some(period(BEVY_TIMESTEP))
    );
    let e = state.advance(Nanos(100 * MS));
    assert_eq!(e.updates().count(), 6);
    assert_eq!(render(&e).lag.as_nanos(), 6_250_000);

    let steps = [
        Period::from_duration(Duration::from_millis(500)).unwrap(),
        Period::from_secs_ratio(1, 4).unwrap(),
        Period::from_hz_f64(8.0).unwrap(),
    ];
    for (rate, ms) in steps.into_iter().zip([500, 250, 125]) {
        state.clock_mut("main").unwrap().set_rate(rate);
        assert_eq!(
            state.clock("main").ok().map(|c| c.rate()),
            Some(period(ms * MS))
        );
    }
    let e = state.advance(Nanos(218_750_000 - 1));
    // Every change is reported, in order, all from tick 6 (none ran in between).
    assert_eq!(
        rate_changes(&e),
        steps.into_iter().map(|p| (p, 6)).collect::<Vec<_>>()
    );
    assert_eq!(e.updates().count(), 0);
    assert_eq!(render(&e).lag.as_nanos(), 125_000_000 - 1);
    let e = state.advance(Nanos(218_750_000));
    let ticks: Vec<_> = e.updates().map(|t| (t.index, t.t.0, t.dt)).collect();
    // Tick 6 starts where tick 5 ended (6 × 15.625 ms) and lasts 125 ms.
    assert_eq!(ticks, [(6, 93_750_000, steps[2])]);
    assert_eq!(render(&e).lag.as_nanos(), 0);
    // Setting the rate the clock already has changes nothing and reports nothing.
    state.clock_mut("main").unwrap().set_rate(steps[2]);
    assert!(rate_changes(&state.advance(Nanos(300 * MS))).is_empty());
}

/// Bevy's `set_timestep` doc: the new value is used "for the very next `FixedUpdate`, even if it
/// is still during the same frame". tickfold decides a step's updates when it folds, so a
/// `set_rate` while handling them applies from the boundary after the step's last update.
/// A 20 ms timestep, one frame of 45 ms, and the first fixed run switches to 10 ms: Bevy runs
/// [0, 20), [20, 30), [30, 40) in that frame; tickfold runs [0, 20), [20, 40) and its 10 ms
/// ticks start at 40 ms. Both keep 5 ms of overstep and agree from there on.
#[test]
fn set_timestep_inside_a_fixed_run_applies_from_the_next_step() {
    // Bevy's `run_fixed_main_schedule`, with the system setting the timestep on its first run.
    let (mut overstep, mut timestep, mut elapsed) = (45 * MS, 20 * MS, 0);
    let mut bevy_ends = Vec::new();
    while let Some(rest) = overstep.checked_sub(timestep) {
        overstep = rest;
        elapsed += timestep;
        bevy_ends.push(elapsed);
        timestep = 10 * MS;
    }
    assert_eq!(bevy_ends, [20 * MS, 30 * MS, 40 * MS]);

    let mut state = new(LoopConfig::new(period(20 * MS)));
    state.advance(Nanos(0));
    let e = state.advance(Nanos(45 * MS));
    let mut ends = Vec::new();
    for (i, tick) in e.updates().enumerate() {
        ends.push(tick.t.0 + tick.dt.floor_nanos());
        if i == 0 {
            state.clock_mut("main").unwrap().set_rate(period(10 * MS));
        }
    }
    assert_eq!(ends, [20 * MS, 40 * MS]);
    assert_eq!(
        (render(&e).lag.as_nanos(), overstep),
        (5 * MS as i128, 5 * MS)
    );
    let e = state.advance(Nanos(55 * MS));
    assert_eq!(rate_changes(&e), [(period(10 * MS), 2)]);
    let ends: Vec<u64> = e.updates().map(|t| t.t.0 + t.dt.floor_nanos()).collect();
    assert_eq!(ends, [50 * MS]);
}

/// bevy `virt.rs::test_max_delta` (second half): the first half's three frames, then
/// `set_max_delta(1 s)` at run time: a 750 ms frame passes unclamped (Bevy: elapsed 2,000 ms)
/// and a 1,250 ms frame is clamped to 1 s (elapsed 3,000 ms). With 250 ms ticks tickfold ends
/// 12 ticks in, as Bevy's 3,000 ms are, and reports the one tick it dropped at each clamp.
#[test]
fn max_delta_changed_at_run_time() {
    let config = LoopConfig::new(Period::from_hz(4).unwrap())
        .max_frame_delta(Some(Duration::from_millis(500)));
    let mut state = new(config);
    state.advance(Nanos(250 * MS));
    state.advance(Nanos(750 * MS));
    let e = state.advance(Nanos(1_500 * MS));
    assert_eq!(discarded(&e), [(250 * MS, 3, 1)]);
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        5,
        "Bevy: 1,250 ms"
    );

    state
        .real_time_mut()
        .set_max_frame_delta(Some(Duration::from_secs(1)))
        .unwrap();
    assert_eq!(
        state.real_time().max_frame_delta(),
        Some(Duration::from_secs(1))
    );
    let e = state.advance(Nanos(2_250 * MS));
    assert!(
        discarded(&e).is_empty(),
        "750 ms is under the new max delta"
    );
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        8,
        "Bevy: 2,000 ms"
    );

    let e = state.advance(Nanos(3_500 * MS));
    // The oldest tick beyond the max delta is dropped, as in the first half.
    assert_eq!(discarded(&e), [(250 * MS, 9, 1)]);
    assert_eq!(
        e.updates().map(|t| t.index).collect::<Vec<_>>(),
        [10, 11, 12, 13]
    );
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        12,
        "Bevy: 3,000 ms is 12 ticks"
    );
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(
        stats.ticks_run + stats.ticks_dropped + stats.pending,
        stats.ticks_due
    );
    // A zero max delta is refused (Bevy accepts it and stops virtual time); `None` lifts it.
    assert!(
        state
            .real_time_mut()
            .set_max_frame_delta(Some(Duration::ZERO))
            .map(|_| ())
            .is_err()
    );
    assert_eq!(
        state.real_time().max_frame_delta(),
        Some(Duration::from_secs(1))
    );
    state.real_time_mut().set_max_frame_delta(None).unwrap();
    let e = state.advance(Nanos(13_500 * MS));
    assert!(discarded(&e).is_empty());
    assert_eq!(state.real_time().max_frame_delta(), None);
}

/// bevy `time.rs::test_wrapping`: a wrap period of 3 s; elapsed 2, 4, 6 and 9.25 s wrap to 2 s,
/// 1 s, 0 and 250 ms, in `Duration` and in `f32` seconds.
#[test]
fn elapsed_wraps_at_the_period() {
    let wrap = Period::from_duration(Duration::from_secs(3)).unwrap();
    let mut state = new(LoopConfig::new(Period::from_hz(4).unwrap()).max_frame_delta(None));
    for (now, wrapped, secs) in [
        (2 * SEC, 2 * SEC, 2.0),
        (4 * SEC, SEC, 1.0),
        (6 * SEC, 0, 0.0),
        (9_250 * MS, 250 * MS, 0.25),
    ] {
        state.advance(Nanos(now));
        assert_eq!(state.virtual_time().elapsed_wrapped(wrap), Nanos(wrapped));
        assert_eq!(state.virtual_time().elapsed_secs_wrapped(wrap), secs);
    }
}

/// bevy `time.rs::test_wrapping_change`: elapsed 8 s wraps to 3 s at 5 s. Bevy keeps 3 s after
/// `set_wrap_period(2 s)` until the next `advance_by` (then 0); tickfold takes the period with
/// each call, so 8 s at 2 s is 0 at once: the wrap of the full elapsed time, as Bevy's test
/// documents it lands after the next advance.
#[test]
fn changing_the_wrap_period_wraps_the_full_elapsed_time() {
    let mut state = new(LoopConfig::new(Period::from_hz(4).unwrap()).max_frame_delta(None));
    state.advance(Nanos(8 * SEC));
    let five = Period::from_duration(Duration::from_secs(5)).unwrap();
    let two = Period::from_duration(Duration::from_secs(2)).unwrap();
    assert_eq!(state.virtual_time().elapsed_wrapped(five), Nanos(3 * SEC));
    assert_eq!(state.virtual_time().elapsed_secs_wrapped(five), 3.0);
    assert_eq!(state.virtual_time().elapsed_wrapped(two), Nanos(0));
    assert_eq!(state.virtual_time().elapsed_secs_wrapped(two), 0.0);
    // Bevy's `advance_by(Duration::ZERO)`: a step with no new time changes nothing.
    state.advance(Nanos(8 * SEC));
    assert_eq!(state.virtual_time().elapsed_wrapped(two), Nanos(0));
}

/// `bevy_time`'s `Time<Virtual>` + `Time<Fixed>` pipeline (`virt.rs::advance_with_raw_delta`,
/// `fixed.rs::run_fixed_main_schedule`, `accumulate_overstep`, `expend`), ported on integer
/// nanoseconds for a timestep that is a whole number of them (Bevy's default, 15,625 µs):
/// paused frames add nothing, a frame longer than the max delta adds the max delta.
struct BevyFixed {
    timestep: u64,
    max_delta: u64,
    paused: bool,
    overstep: u64,
    expended: u64,
    /// `Time<Fixed>::elapsed()`: the timesteps expended, summed.
    elapsed: u64,
}

impl BevyFixed {
    fn new(timestep: u64, max_delta: u64) -> BevyFixed {
        BevyFixed {
            timestep,
            max_delta,
            paused: false,
            overstep: 0,
            expended: 0,
            elapsed: 0,
        }
    }

    /// One `app.update()` with a raw delta: returns how many times `FixedMain` ran.
    fn update(&mut self, raw_delta: u64) -> u64 {
        self.update_elapsed(raw_delta).len() as u64
    }

    /// One `app.update()`: `Time<Fixed>::elapsed()` as each `FixedMain` run sees it.
    fn update_elapsed(&mut self, raw_delta: u64) -> Vec<u64> {
        let delta = if self.paused {
            0
        } else {
            raw_delta.min(self.max_delta)
        };
        self.overstep += delta;
        let mut runs = Vec::new();
        while let Some(rest) = self.overstep.checked_sub(self.timestep) {
            self.overstep = rest;
            self.expended += 1;
            self.elapsed += self.timestep;
            runs.push(self.elapsed);
        }
        runs
    }

    fn overstep_fraction_f64(&self) -> f64 {
        self.overstep as f64 / self.timestep as f64
    }
}

/// Bevy's pipeline against the fold on random frames (0 to 250 ms, so the max delta never
/// clamps, including frames of exactly 250 ms and of exactly one timestep) with random pauses:
/// the same number of fixed updates in every frame, the overstep equal to `Render::lag`,
/// and the overstep fraction equal to `Render::alpha`.
#[test]
fn bevy_fixed_pipeline_agrees_frame_by_frame() {
    let mut bevy = BevyFixed::new(BEVY_TIMESTEP, 250 * MS);
    let mut state = new(LoopConfig::new(period(BEVY_TIMESTEP)).max_updates(None));
    state.advance(Nanos(0));
    let mut now = 0;
    let mut rng = SplitMix64::new(0x00c0_ffee_1234_5678);
    for frame in 0..20_000 {
        let x = rng.next_u64();
        if x % 97 == 0 {
            bevy.paused = !bevy.paused;
            state.virtual_time_mut().set_paused(bevy.paused);
        }
        let raw = match x % 20 {
            0 => 250 * MS,
            1 => BEVY_TIMESTEP,
            2 => 1,
            _ => x % (40 * MS),
        };
        now += raw;
        let runs = bevy.update(raw);
        let e = state.advance(Nanos(now));
        assert_eq!(e.updates().count() as u64, runs, "frame {frame}");
        let r = render(&e);
        assert_eq!(r.lag.as_nanos(), bevy.overstep as i128, "frame {frame}");
        assert!((r.alpha - bevy.overstep_fraction_f64()).abs() < 1e-12);
        assert_eq!(r.paused, bevy.paused);
    }
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        bevy.expended
    );
}

/// The same pipeline with `set_relative_speed` changes between frames (speeds ½, 1 and 2 on
/// even raw deltas, so Bevy's `Duration::mul_f64` is exact) and a 1 s max delta that no frame
/// reaches: speed changes in the middle of an accumulation keep the overstep, frame by frame.
#[test]
fn bevy_fixed_pipeline_with_speed_changes_agrees_frame_by_frame() {
    let mut bevy = BevyFixed::new(BEVY_TIMESTEP, SEC);
    let config = LoopConfig::new(period(BEVY_TIMESTEP))
        .max_updates(None)
        .max_frame_delta(Some(Duration::from_secs(1)));
    let mut state = new(config);
    state.advance(Nanos(0));
    let speeds = [(1, 2), (1, 1), (2, 1)];
    let mut speed = (1u64, 1u64);
    let (mut now, mut rng) = (0u64, SplitMix64::new(0x00fa_ce0f_f5e7));
    for frame in 0..20_000 {
        let x = rng.next_u64();
        if x % 13 == 0 {
            let (num, den) = speeds[(x / 13 % 3) as usize];
            speed = (u64::from(num), u64::from(den));
            state
                .virtual_time_mut()
                .set_scale(TimeScale::ratio(num, den).unwrap());
        }
        let raw = (x % (125 * MS)) & !1;
        now += raw;
        let runs = bevy.update(raw * speed.0 / speed.1);
        let e = state.advance(Nanos(now));
        assert_eq!(e.updates().count() as u64, runs, "frame {frame}");
        assert_eq!(
            render(&e).lag.as_nanos(),
            bevy.overstep as i128,
            "frame {frame}"
        );
    }
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        bevy.expended
    );
}

/// The same pipeline with `Time<Fixed>::set_timestep` between frames (timesteps of 1 ms to
/// 25 ms, all whole nanoseconds as Bevy's `Duration` is, including Bevy's default), on random
/// frames of up to 40 ms: every fixed run happens in the same frame, at the same
/// `Time<Fixed>::elapsed()` (tickfold: the tick's `t + dt`), and the overstep carried over each
/// change stays equal to `Render::lag`, frame by frame.
#[test]
fn bevy_fixed_pipeline_with_timestep_changes_agrees_frame_by_frame() {
    let mut bevy = BevyFixed::new(BEVY_TIMESTEP, 250 * MS);
    let config = LoopConfig::new(period(BEVY_TIMESTEP)).max_updates(None);
    let mut state = new(config);
    state.advance(Nanos(0));
    let timesteps = [BEVY_TIMESTEP, MS, 7 * MS, 10 * MS, 20 * MS, 25 * MS];
    let (mut now, mut rng) = (0u64, SplitMix64::new(0x0005_e7de_1717));
    let mut changes = 0;
    for frame in 0..20_000 {
        let x = rng.next_u64();
        if x % 11 == 0 {
            let step = timesteps[(x / 11 % 6) as usize];
            if step != bevy.timestep {
                changes += 1;
            }
            bevy.timestep = step;
            state.clock_mut("main").unwrap().set_rate(period(step));
        }
        now += x % (40 * MS);
        let runs = bevy.update_elapsed(x % (40 * MS));
        let e = state.advance(Nanos(now));
        let ends: Vec<u64> = e.updates().map(|t| t.t.0 + t.dt.floor_nanos()).collect();
        assert_eq!(ends, runs, "frame {frame}");
        assert_eq!(
            render(&e).lag.as_nanos(),
            bevy.overstep as i128,
            "frame {frame}"
        );
    }
    assert!(changes > 1_000, "{changes} changes");
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_run,
        bevy.expended
    );
}
