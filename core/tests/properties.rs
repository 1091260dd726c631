//! Properties of the fold over arbitrary frame schedules (vsync frames from 30 to 360 Hz,
//! jitter, zero-length frames, spikes, time going backwards, gaps near the end of `u64`) and
//! arbitrary valid configurations: no panic, alpha in [0, 1], at most the cap per step, tick
//! numbers consecutive except across reported drops, the accounting identity, determinism
//! however a span is sliced into frames, and the high-water rule for backwards time.

use core::time::Duration;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    Event, Firing, LoopConfig, LoopState, MAX_UPDATES_PER_STEP, Nanos, Period, Policy,
};

/// Frame deltas in ns; negative means `now` goes backwards by that much.
#[derive(Clone, Debug)]
struct Schedule(Vec<i64>);

impl Arbitrary for Schedule {
    fn arbitrary(g: &mut Gen) -> Schedule {
        let vsync = [30.0, 59.94, 60.0, 75.0, 120.0, 144.0, 240.0, 360.0];
        let hz = *g.choose(&vsync).unwrap();
        let frame = (1e9 / hz) as i64;
        let len = usize::arbitrary(g) % 120;
        Schedule(
            (0..len)
                .map(|_| match u8::arbitrary(g) % 20 {
                    0 => 0,
                    1 => -(i64::arbitrary(g).rem_euclid(50_000_000)),
                    2 => 100_000_000 + i64::arbitrary(g).rem_euclid(10_000_000_000),
                    // A year: huge, yet 120 of them stay far from the 584-year saturation.
                    3 => 31_536_000_000_000_000,
                    _ => frame + i64::arbitrary(g).rem_euclid(200_001) - 100_000,
                })
                .collect(),
        )
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Schedule>> {
        Box::new(self.0.shrink().map(Schedule))
    }
}

/// A valid configuration.
#[derive(Clone, Debug)]
struct Config {
    hz: (u64, u64),
    policy: Policy,
    cap: Option<u32>,
    clamp: Option<u64>,
    phase: f64,
    hysteresis: f64,
    firing: Firing,
}

impl Arbitrary for Config {
    fn arbitrary(g: &mut Gen) -> Config {
        let hz = *g
            .choose(&[
                (60, 1),
                (60_000, 1_001),
                (144, 1),
                (20, 1),
                (1_000, 1),
                (7, 3),
            ])
            .unwrap();
        let policy = *g
            .choose(&[
                Policy::CatchUp,
                Policy::CatchUp,
                Policy::DropAndRest,
                Policy::KeepWorking,
            ])
            .unwrap();
        let catch_up = policy == Policy::CatchUp;
        Config {
            hz,
            policy,
            // Cap off is rarer: after a year-long gap every later step then runs the
            // 65,536-update safety bound, which is slow in a debug build.
            cap: (u8::arbitrary(g) % 8 != 0).then(|| 1 + u32::arbitrary(g) % 16),
            clamp: bool::arbitrary(g).then(|| 1 + u64::arbitrary(g) % 1_000_000_000),
            phase: if catch_up && bool::arbitrary(g) {
                0.5
            } else {
                0.0
            },
            hysteresis: if catch_up && u8::arbitrary(g) % 3 == 0 {
                0.25
            } else {
                0.0
            },
            firing: *g.choose(&[Firing::Late, Firing::Nearest]).unwrap(),
        }
    }
}

impl Config {
    fn build(&self) -> LoopConfig {
        LoopConfig::new(Period::from_hz_ratio(self.hz.0, self.hz.1).unwrap())
            .policy(self.policy)
            .max_updates(self.cap)
            .max_frame_delta(self.clamp.map(Duration::from_nanos))
            .phase(self.phase)
            .hysteresis(self.hysteresis)
            .firing(self.firing)
    }
}

/// Folds `schedule` and checks every per-step property; returns a failure description.
fn check(config: &Config, schedule: &Schedule) -> Result<(), String> {
    let mut state = LoopState::new(config.build(), Nanos(0)).map_err(|e| e.to_string())?;
    let mut now: u64 = 0;
    let (mut seen_updates, mut seen_dropped, mut next_index) = (0u64, 0u64, 0u64);
    let cap = u64::from(config.cap.unwrap_or(MAX_UPDATES_PER_STEP));
    for (step, &d) in schedule.0.iter().enumerate() {
        let backwards = d < 0;
        now = if backwards {
            now.saturating_sub(d.unsigned_abs())
        } else {
            now.saturating_add(d as u64)
        };
        let before = state.real_time().elapsed().0;
        let events = state.advance(Nanos(now));
        let fail = |what: &str| {
            Err(format!(
                "step {step} (now {now}): {what}; events {:?}",
                events.clone().into_vec()
            ))
        };
        let mut updates = 0;
        for e in &events {
            match e {
                Event::Update(t) => {
                    if t.index != next_index {
                        return fail(&format!("tick {} where {next_index} was next", t.index));
                    }
                    next_index += 1;
                    updates += 1;
                }
                Event::DroppedTicks { first, count, .. } => {
                    if first != next_index {
                        return fail("a drop that does not start at the next tick");
                    }
                    next_index += count;
                    seen_dropped += count;
                }
                Event::DiscardedTime { first, ticks, .. } => {
                    if ticks > 0 && first != next_index {
                        return fail("a clamp drop that does not start at the next tick");
                    }
                    next_index += ticks;
                    seen_dropped += ticks;
                }
                Event::Render(r) => {
                    if !(0.0..=1.0).contains(&r.alpha) {
                        return fail("alpha outside [0, 1]");
                    }
                    if step > 0 && now <= before {
                        return fail("rendered although time did not advance");
                    }
                }
                _ => {}
            }
        }
        seen_updates += updates;
        if updates > cap {
            return fail("more updates than the cap");
        }
        if seen_updates != state.clock("main").unwrap().stats().ticks_run
            || seen_dropped != state.clock("main").unwrap().stats().ticks_dropped
        {
            return fail("events and counters disagree");
        }
        if config.policy == Policy::CatchUp && config.firing == Firing::Late {
            let lhs = state.clock("main").unwrap().stats().ticks_run
                + state.clock("main").unwrap().stats().ticks_dropped
                + state.clock("main").unwrap().stats().pending;
            let slack = u64::from(config.hysteresis > 0.0);
            if lhs.abs_diff(state.clock("main").unwrap().stats().ticks_due) > slack {
                return fail(&format!(
                    "identity: {lhs} vs due {}",
                    state.clock("main").unwrap().stats().ticks_due
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn prop_every_step_keeps_the_invariants() {
    fn prop(config: Config, schedule: Schedule) -> quickcheck::TestResult {
        match check(&config, &schedule) {
            Ok(()) => quickcheck::TestResult::passed(),
            Err(e) => quickcheck::TestResult::error(e),
        }
    }
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(prop as fn(Config, Schedule) -> quickcheck::TestResult);
}

/// (tick, t) of every update when stepping at the given absolute times.
fn ticks_at(config: LoopConfig, nows: &[u64]) -> Vec<(u64, u64)> {
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    nows.iter()
        .flat_map(|n| {
            state
                .advance(Nanos(*n))
                .updates()
                .map(|t| (t.index, t.t.0))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn prop_the_tick_sequence_does_not_depend_on_how_a_span_is_sliced() {
    fn prop(a: Vec<u32>, b: Vec<u32>, hz: u8) -> bool {
        // Two slicings of the same span end at the same time; with no cap and no clamp the
        // updates are identical, and equal to one single step over the whole span.
        let rate = Period::from_hz(u64::from(hz) * 4 + 1).unwrap();
        let config = || {
            LoopConfig::new(rate)
                .max_updates(None)
                .max_frame_delta(None)
        };
        let cut = |v: &[u32]| {
            let mut acc = 0u64;
            v.iter()
                .map(|x| {
                    acc += u64::from(*x % 50_000_000);
                    acc
                })
                .collect::<Vec<_>>()
        };
        let (mut sa, mut sb) = (cut(&a), cut(&b));
        let end = sa
            .last()
            .copied()
            .unwrap_or(0)
            .max(sb.last().copied().unwrap_or(0));
        sa.push(end);
        sb.push(end);
        let one = ticks_at(config(), &[end]);
        ticks_at(config(), &sa) == one && ticks_at(config(), &sb) == one
    }
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(prop as fn(Vec<u32>, Vec<u32>, u8) -> bool);
}

#[test]
fn prop_backwards_time_changes_nothing_but_the_report() {
    fn prop(forward: Vec<u32>, back: Vec<(u8, u32)>) -> bool {
        // Insert backwards `now`s into a monotone schedule: same updates, one report each.
        let rate = Period::from_hz(60).unwrap();
        let config = || LoopConfig::new(rate).max_updates(None);
        let mut acc = 0u64;
        let nows: Vec<u64> = forward
            .iter()
            .map(|f| {
                acc += u64::from(*f % 40_000_000);
                acc
            })
            .collect();
        // Each backwards `now` goes right after the forward one it steps back from.
        let mut with_back = Vec::with_capacity(nows.len() + back.len());
        for (i, n) in nows.iter().enumerate() {
            with_back.push(*n);
            for (at, by) in &back {
                if usize::from(*at) % nows.len() == i {
                    with_back.push(n.saturating_sub(1 + u64::from(*by % 10_000_000)));
                }
            }
        }
        let mut state = LoopState::new(config(), Nanos(0)).unwrap();
        let mut reports = 0;
        let mut seq = Vec::new();
        for n in &with_back {
            let events = state.advance(Nanos(*n));
            reports += events
                .iter()
                .filter(|e| matches!(e, Event::TimeBackwards { .. }))
                .count();
            seq.extend(events.updates().map(|t| (t.index, t.t.0)));
        }
        let mut high = 0u64;
        let truly_back = with_back
            .iter()
            .filter(|n| {
                let b = **n < high;
                high = high.max(**n);
                b
            })
            .count();
        seq == ticks_at(config(), &nows) && reports == truly_back
    }
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(prop as fn(Vec<u32>, Vec<(u8, u32)>) -> bool);
}
