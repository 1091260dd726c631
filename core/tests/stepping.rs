//! Single-stepping while paused and the per-step deltas, against naive models over random
//! schedules: `step_ticks(n)` runs exactly `n` alpha-clock updates with consecutive indices,
//! moves virtual time to exactly the `n`-th tick's due time, stays paused and keeps the stats
//! identity, whatever the firing rule, hysteresis, cap or policy; `real_delta`,
//! `virtual_delta` and `elapsed_wrapped` match exact rational arithmetic across pauses and
//! time scales.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{
    ClockConfig, Event, Firing, LoopConfig, LoopState, Nanos, Period, Policy, TimeScale,
};

const SCALES: [(u32, u32); 5] = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 2)];
const RATES: [(u64, u64); 4] = [(60, 1), (60_000, 1_001), (7, 1), (100, 1)];

#[derive(Clone, Debug)]
enum Op {
    /// Frame of this many ns (negative: back).
    Frame(i64),
    Pause(bool),
    Scale((u32, u32)),
    Step(u64),
}

#[derive(Clone, Debug)]
struct Case {
    rate: (u64, u64),
    cap: Option<u32>,
    firing: Firing,
    hysteresis: f64,
    phase: f64,
    policy: Policy,
    /// A second clock at 25 Hz.
    second: bool,
    ops: Vec<Op>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let policy = *g
            .choose(&[
                Policy::CatchUp,
                Policy::CatchUp,
                Policy::DropAndRest,
                Policy::KeepWorking,
            ])
            .unwrap();
        let catch_up = policy == Policy::CatchUp;
        Case {
            rate: *g.choose(&RATES).unwrap(),
            cap: bool::arbitrary(g).then(|| 1 + u32::arbitrary(g) % 4),
            firing: if catch_up && bool::arbitrary(g) {
                Firing::Nearest
            } else {
                Firing::Late
            },
            hysteresis: if catch_up && bool::arbitrary(g) {
                0.25
            } else {
                0.0
            },
            phase: if catch_up && bool::arbitrary(g) {
                0.5
            } else {
                0.0
            },
            policy,
            second: bool::arbitrary(g),
            ops: (0..usize::arbitrary(g) % 60)
                .map(|_| match u8::arbitrary(g) % 12 {
                    0 => Op::Pause(bool::arbitrary(g)),
                    1 => Op::Scale(*g.choose(&SCALES).unwrap()),
                    2 | 3 => Op::Step(u64::arbitrary(g) % 7),
                    4 => Op::Frame(-(i64::arbitrary(g).rem_euclid(5_000_000))),
                    5 => Op::Frame(0),
                    _ => Op::Frame(i64::arbitrary(g).rem_euclid(60_000_000)),
                })
                .collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let me = self.clone();
        // Shorter prefixes of the schedule.
        let n = self.ops.len();
        Box::new((0..n).rev().map(move |k| Case {
            ops: me.ops[..k].to_vec(),
            ..me.clone()
        }))
    }
}

fn config(case: &Case) -> LoopConfig {
    let rate = Period::from_hz_ratio(case.rate.0, case.rate.1).unwrap();
    let mut c = LoopConfig::from_clock(
        ClockConfig::new("main", rate)
            .policy(case.policy)
            .max_updates(case.cap)
            .firing(case.firing)
            .hysteresis(case.hysteresis)
            .phase(case.phase),
    )
    .max_frame_delta(None);
    if case.second {
        // The model below is of "main" (its policy, phase, cap): keep it the alpha clock
        // (by default the faster of the two is).
        c = c
            .clock(ClockConfig::new("second", Period::from_hz(25).unwrap()))
            .alpha_clock("main");
    }
    c
}

fn identity(state: &LoopState) -> bool {
    state.clock_names().all(|name| {
        let s = state.clock(name).unwrap().stats();
        s.ticks_run + s.ticks_dropped + s.pending == s.ticks_due + s.ticks_early
    })
}

fn stepping(case: Case) -> bool {
    let mut state = LoopState::new(config(&case), Nanos(0)).unwrap();
    let alpha = state.alpha_clock();
    let mut now = 0u64;
    // The model of exact virtual time, in sixths of a ns.
    let mut v6: u128 = 0;
    let mut paused = false;
    let mut scale = (1u32, 1u32);
    let mut real_sum = 0u64;
    let mut virt_sum = 0u64;
    for op in case.ops {
        let frame = match op {
            Op::Pause(p) => {
                state.virtual_time_mut().set_paused(p);
                paused = p;
                continue;
            }
            Op::Scale(s) => {
                state
                    .virtual_time_mut()
                    .set_scale(TimeScale::ratio(s.0, s.1).unwrap());
                scale = s;
                continue;
            }
            Op::Frame(d) => d,
            Op::Step(n) => {
                let n = if state.clock("main").unwrap().stats().pending > 0 {
                    0
                } else {
                    n
                };
                let stats = state.clock(alpha).unwrap().stats();
                let catch_up = case.policy == Policy::CatchUp;
                state.virtual_time_mut().step_ticks(n);
                if n == 0 {
                    continue;
                }
                paused = true;
                // The n-th next tick's due time: (k+1)·dt − phase for catch-up.
                let (num, den) = stats.rate.as_nanos_ratio();
                let due = |k: u64| {
                    let (num, den) = (u128::from(num), u128::from(den));
                    let phase = if case.phase > 0.0 {
                        (num as f64 / den as f64 * case.phase) as u128
                    } else {
                        0
                    };
                    if catch_up {
                        ((u128::from(k) + 1) * num).div_ceil(den) - phase
                    } else {
                        (u128::from(k) * num).div_ceil(den)
                    }
                };
                // Run steps at the same `now` until the request is done.
                let mut got = Vec::new();
                let mut steps = 0;
                while state.virtual_time().step_ticks_pending() > 0 {
                    let v_before = state.virtual_time().elapsed().0;
                    let events = state.advance(Nanos(now));
                    steps += 1;
                    assert!(events.render().is_some_and(|r| r.paused));
                    got.extend(
                        events
                            .updates()
                            .filter(|t| t.clock == alpha)
                            .map(|t| t.index),
                    );
                    virt_sum += state.virtual_time().delta().0;
                    assert_eq!(state.real_time().delta(), Nanos(0));
                    let target = if catch_up {
                        due(stats.next_tick + n - 1)
                    } else {
                        due(stats.next_tick + got.len() as u64 - 1)
                    };
                    let v = u128::from(state.virtual_time().elapsed().0);
                    assert!(
                        v == target.max(u128::from(v_before)),
                        "virt {v} target {target}"
                    );
                    if v6 / 6 < v {
                        v6 = v * 6 + v6 % 6;
                    }
                    assert!(identity(&state) && state.virtual_time().is_paused());
                    assert!(steps <= n, "no progress");
                }
                let want: Vec<u64> = (stats.next_tick..stats.next_tick + n).collect();
                assert_eq!(got, want);
                // A second clock's deferred backlog holds the alpha clock's later ticks back
                // (the loop's one order): more steps then.
                if let Some(cap) = case.cap.filter(|_| catch_up) {
                    let fewest = n.div_ceil(u64::from(cap));
                    if case.second {
                        assert!(steps >= fewest);
                    } else {
                        assert_eq!(steps, fewest);
                    }
                }
                continue;
            }
        };
        let before = now;
        now = if frame < 0 {
            now.saturating_sub(frame.unsigned_abs())
        } else {
            now + frame as u64
        };
        let v_before = v6 / 6;
        let _ = state.advance(Nanos(now));
        let real = now.saturating_sub(before);
        let real = if frame < 0 { 0 } else { real };
        // The clock went back: the next frame measures from the latest now.
        if frame < 0 {
            now = before;
        }
        if !paused {
            v6 += u128::from(real) * 6 * u128::from(scale.0) / u128::from(scale.1);
        }
        assert_eq!(state.real_time().delta(), Nanos(real));
        assert_eq!(u128::from(state.virtual_time().elapsed().0), v6 / 6);
        assert_eq!(
            u128::from(state.virtual_time().delta().0),
            v6 / 6 - v_before
        );
        real_sum += real;
        virt_sum += state.virtual_time().delta().0;
        assert_eq!(state.real_time().elapsed(), Nanos(real_sum));
        assert_eq!(state.virtual_time().elapsed(), Nanos(virt_sum));
        for (pn, pd) in [(1u64, 1u64), (1, 3), (7, 10)] {
            let p = Period::from_secs_ratio(pn, pd).unwrap();
            let (num, den) = p.as_nanos_ratio();
            let v = v6 / 6;
            // floor(v − k·num/den) for the whole periods k in v.
            let k = v * u128::from(den) / u128::from(num);
            let want = (v * u128::from(den) - k * u128::from(num)) / u128::from(den);
            assert_eq!(u128::from(state.virtual_time().elapsed_wrapped(p).0), want);
            let secs = state.virtual_time().elapsed_secs_wrapped(p);
            assert!((f64::from(secs) - want as f64 / 1e9).abs() < 1e-6);
        }
        assert!(identity(&state));
    }
    true
}

#[test]
fn single_steps_and_deltas_match_the_model() {
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(stepping as fn(Case) -> bool);
}

#[test]
fn stepping_reports_pause_and_resume_cancels() {
    let config = LoopConfig::new(Period::from_hz(10).unwrap());
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let _ = state.advance(Nanos::from_millis(50));
    // Running: step_ticks pauses first; the 30 ms since the latest now do not count.
    state.virtual_time_mut().step_ticks(2);
    let events = state.advance(Nanos::from_millis(80));
    let list = events.into_vec();
    assert_eq!(list.first(), Some(&Event::Paused));
    let ticks: Vec<u64> = list
        .iter()
        .filter_map(|e| match e {
            Event::Update(t) => Some(t.index),
            _ => None,
        })
        .collect();
    assert_eq!(ticks, [0, 1]);
    assert_eq!(state.virtual_time().elapsed(), Nanos::from_millis(200));
    assert_eq!(state.virtual_time().delta(), Nanos::from_millis(150));
    assert_eq!(state.real_time().delta(), Nanos::from_millis(30));
    // Resuming cancels a request not taken yet.
    state.virtual_time_mut().step_ticks(5);
    state.virtual_time_mut().set_paused(false);
    assert_eq!(state.virtual_time().step_ticks_pending(), 0);
    let events = state.advance(Nanos::from_millis(180));
    assert_eq!(events.updates().map(|t| t.index).collect::<Vec<_>>(), [2]);
}
