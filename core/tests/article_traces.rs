//! Golden traces and figures from published loops: both printed traces of the purely functional
//! Scheme loop article, the three figures of the "Constant Rate Loop" article (plus its loop code
//! as an oracle), and the spike table of simloop's README, each compared with what the fold
//! emits on a fake clock.

use core::time::Duration;
use tickfold_testing::SplitMix64;

use tickfold_core::{DropReason, Event, LoopConfig, LoopState, Nanos, Period, Policy};

const MS: u64 = 1_000_000;

/// The Scheme loop article's first printed trace: Δt = 500 ms, frames of 1 s, eleven frames.
const SCHEME_TRACE_1: &str = include_str!("golden/scheme_1.txt");

/// The Scheme loop article's second printed trace: Δt = 20 ms (50 Hz), frames of 16 ms. It prints
/// sixteen frames (sixteen `Rendering...` lines).
const SCHEME_TRACE_2: &str = include_str!("golden/scheme_2.txt");

/// Nanoseconds as whole milliseconds, or with an `ns` suffix so a sub-ms error shows in a diff.
fn ms(ns: u64) -> String {
    if ns % MS == 0 {
        (ns / MS).to_string()
    } else {
        format!("{ns}ns")
    }
}

/// Steps a fresh loop at `frame_ms`, `2·frame_ms`, … and prints its events as the Scheme
/// program does; also returns every render's alpha and exact lag.
fn scheme_run(config: LoopConfig, frame_ms: u64, frames: u64) -> (String, Vec<(f64, i64)>) {
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut out = String::new();
    let mut renders = Vec::new();
    for f in 1..=frames {
        let (next, events) = state.step(Nanos(f * frame_ms * MS));
        state = next;
        for event in &events {
            match event {
                Event::Update(t) => out.push_str(&format!(
                    "Simulating with t={}, Δt={}, lag={}\n",
                    ms(t.t.0),
                    ms(t.dt.floor_nanos()),
                    ms(t.lag.behind().0)
                )),
                Event::Render(r) => {
                    out.push_str("Rendering...\n");
                    renders.push((r.alpha, (r.lag.as_nanos() as i64)));
                }
                other => panic!("frame {f}: unexpected event {other:?}"),
            }
        }
    }
    (out, renders)
}

#[test]
fn scheme_trace_1_two_updates_per_one_second_frame() {
    let config = LoopConfig::new(Period::from_duration(Duration::from_millis(500)).unwrap())
        .max_updates(None)
        .max_frame_delta(None);
    let (printed, renders) = scheme_run(config, 1000, 11);
    assert_eq!(printed, SCHEME_TRACE_1);
    // Every frame uses up its whole lag: render(lag/Δt) = 0/500.
    assert_eq!(renders.len(), 11);
    assert!(renders.iter().all(|&(alpha, lag)| alpha == 0.0 && lag == 0));
}

#[test]
fn scheme_trace_2_fifty_hz_ticks_sixteen_ms_frames() {
    // Default options: no cap or clamp is hit by 16 ms frames, and phase/hysteresis are off.
    let config = LoopConfig::new(Period::from_hz(50).unwrap());
    let (printed, renders) = scheme_run(config, 16, 16);
    assert_eq!(printed, SCHEME_TRACE_2);
    // The lag each frame leaves, read off the trace: a frame adds 16, an update takes 20.
    let lags_ms = [16, 12, 8, 4, 0, 16, 12, 8, 4, 0, 16, 12, 8, 4, 0, 16];
    assert_eq!(renders.len(), lags_ms.len());
    for (frame, (&(alpha, lag_ns), lag)) in renders.iter().zip(lags_ms).enumerate() {
        assert_eq!(lag_ns, lag * 1_000_000, "frame {}", frame + 1);
        let expected = lag as f64 / 20.0;
        assert!(
            (alpha - expected).abs() < 1e-12,
            "frame {}: alpha {alpha} != {expected}",
            frame + 1
        );
    }
    // Frame 1: 16 ms of lag and no update yet, so alpha = 16/20.
    assert!((renders[0].0 - 0.8).abs() < 1e-12);
}

/// The constant-rate policies on a fake clock: handles the events in order (`Sleep` waits, an
/// update costs the next entry of `work_ms`, renders are free) and returns `(iteration, start ms)`
/// per update and `(first, count)` per reported drop.
fn constant_rate(policy: Policy, work_ms: &[u64], updates: usize) -> ConstantRun {
    let rate = Period::from_duration(Duration::from_millis(10)).unwrap();
    let mut state = LoopState::new(LoopConfig::new(rate).policy(policy), Nanos(0)).unwrap();
    let mut now = 0u64;
    let mut run = ConstantRun::default();
    for _ in 0..updates {
        let (next, events) = state.step(Nanos(now));
        state = next;
        for event in &events {
            match event {
                Event::Sleep { until } => now = now.max(until.0),
                Event::Update(t) => {
                    // The constant-rate article passes the iteration number so `draw(it)` stays in
                    // sync: the slot an update belongs to is the one its index names.
                    assert_eq!(t.t.0, t.index * 10 * MS, "tick time is index·rate");
                    run.starts.push((t.index, now / MS));
                    now += work_ms[(run.starts.len() - 1) % work_ms.len()] * MS;
                }
                Event::DroppedTicks {
                    first,
                    count,
                    reason,
                    ..
                } => {
                    assert_eq!(reason, DropReason::SlotMissed);
                    run.drops.push((first, count));
                }
                Event::Render(_) => {}
                other => panic!("unexpected event {other:?}"),
            }
        }
    }
    // A lone constant-rate clock runs exactly one update per step.
    assert_eq!(run.starts.len(), updates);
    assert_eq!(
        state.clock("main").unwrap().stats().ticks_dropped,
        run.drops.iter().map(|d| d.1).sum()
    );
    run
}

#[derive(Default, Debug, PartialEq)]
struct ConstantRun {
    starts: Vec<(u64, u64)>,
    drops: Vec<(u64, u64)>,
}

/// The constant-rate article's own loops, transliterated with a fake clock in whole ms: `func(it)`
/// costs the next entry of `work`, `sleep` advances the clock. Returns `(iteration, start ms)`.
fn article_loop(keep_working: bool, rate: i64, work: &[u64], n: usize) -> Vec<(u64, u64)> {
    let (mut now, mut it, mut out) = (0i64, 0i64, Vec::new());
    let mut t1 = now;
    for k in 0..n {
        out.push((it as u64, now as u64));
        now += work[k % work.len()] as i64;
        let t2 = now;
        let mut rest = rate - (t2 - t1);
        if rest < 0 {
            let behind = -rest;
            let lost = if keep_working {
                behind - behind % rate
            } else {
                rest = rate - behind % rate;
                behind + rest
            };
            t1 += lost;
            it += lost / rate;
        }
        if !keep_working || rest >= 0 {
            now += rest;
        }
        t1 += rate;
        it += 1;
    }
    out
}

#[test]
fn constant_rate_rest_drop_figure() {
    // Drop & rest, work 3, 15, 3, 3: iteration 1 overruns, iteration 2 is lost, iteration 3
    // starts at the beginning of a new slot.
    let run = constant_rate(Policy::DropAndRest, &[3, 15, 3, 3], 4);
    assert_eq!(run.starts, [(0, 0), (1, 10), (3, 30), (4, 40)]);
    assert_eq!(run.drops, [(2, 1)]);
    assert_eq!(run.starts, article_loop(false, 10, &[3, 15, 3, 3], 4));
}

#[test]
fn constant_rate_norest_nolost_figure() {
    // Keep working, work 3, 15, 3, 3: iteration 2 runs as soon as iteration 1 ends, at 25 ms.
    let run = constant_rate(Policy::KeepWorking, &[3, 15, 3, 3], 4);
    assert_eq!(run.starts, [(0, 0), (1, 10), (2, 25), (3, 30)]);
    assert!(run.drops.is_empty());
    assert_eq!(run.starts, article_loop(true, 10, &[3, 15, 3, 3], 4));
}

#[test]
fn constant_rate_norest_lost_figure() {
    // Keep working, work 3, 25, 3, 3: iteration 1 spans slot 2 entirely, so slot 2 is lost and
    // iteration 3 runs at once, at 35 ms.
    let run = constant_rate(Policy::KeepWorking, &[3, 25, 3, 3], 4);
    assert_eq!(run.starts, [(0, 0), (1, 10), (3, 35), (4, 40)]);
    assert_eq!(run.drops, [(2, 1)]);
    assert_eq!(run.starts, article_loop(true, 10, &[3, 25, 3, 3], 4));
}

#[test]
fn constant_rate_figures_under_the_other_policy() {
    // Drop & rest on the norest-lost work: slots 2 and 3 have started by 35 ms, so both are
    // lost and the loop rests until slot 4 (the article: behind 15, rest 5, lost 20).
    let run = constant_rate(Policy::DropAndRest, &[3, 25, 3, 3], 4);
    assert_eq!(run.starts, [(0, 0), (1, 10), (4, 40), (5, 50)]);
    assert_eq!(run.drops, [(2, 2)]);
    assert_eq!(run.starts, article_loop(false, 10, &[3, 25, 3, 3], 4));
    // Keep working on the rest-drop work is the norest-nolost figure; with no overrun both
    // policies are the same happy path (rest-nodrop).
    for policy in [Policy::DropAndRest, Policy::KeepWorking] {
        let run = constant_rate(policy, &[3], 5);
        assert_eq!(run.starts, [(0, 0), (1, 10), (2, 20), (3, 30), (4, 40)]);
        assert!(run.drops.is_empty());
    }
}

#[test]
fn constant_rate_sync_on_drops_tick_numbers_jump_over_lost_slots() {
    // The constant-rate article's `draw(it)` picks frame `it % n`: it stays in sync with the wall
    // clock only if the iteration number jumps over lost slots. Work far above the rate for a
    // while.
    let work = [3, 47, 3, 3, 31, 3, 12, 3, 3, 3];
    for (policy, keep) in [(Policy::DropAndRest, false), (Policy::KeepWorking, true)] {
        let run = constant_rate(policy, &work, 40);
        assert_eq!(run.starts, article_loop(keep, 10, &work, 40), "{policy:?}");
        let mut expected_next = 0;
        let mut drops = run.drops.iter();
        for &(index, start) in &run.starts {
            // The update runs inside the slot its number names.
            assert_eq!(start / 10, index, "{policy:?}: tick {index} at {start} ms");
            if index != expected_next {
                let &(first, count) = drops.next().expect("a jump without a reported drop");
                assert_eq!((first, first + count), (expected_next, index), "{policy:?}");
            }
            expected_next = index + 1;
        }
        assert!(drops.next().is_none(), "{policy:?}: a drop without a jump");
        assert!(!run.drops.is_empty(), "{policy:?}: the work must overrun");
    }
}

#[test]
fn constant_rate_random_work_matches_the_article_loops() {
    let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next_u64();
    for _ in 0..50 {
        // Work of exactly 20 or 30 ms makes the article's drop & rest code rest a whole extra
        // slot (see the boundary test below), so those costs are left out here.
        let work: Vec<u64> = (0..16)
            .map(|_| match next() % 36 + 1 {
                20 | 30 => 7,
                w => w,
            })
            .collect();
        for (policy, keep) in [(Policy::DropAndRest, false), (Policy::KeepWorking, true)] {
            let run = constant_rate(policy, &work, 32);
            assert_eq!(
                run.starts,
                article_loop(keep, 10, &work, 32),
                "{policy:?} work {work:?}"
            );
        }
    }
}

#[test]
fn constant_rate_slot_is_late_only_strictly_after_its_start() {
    // Iteration 1 starts at 10 ms and works exactly 20 ms: it ends exactly when slot 3 starts.
    // Slot 2 is lost; slot 3 is on time, so it runs at 30 ms with nothing else lost.
    for policy in [Policy::DropAndRest, Policy::KeepWorking] {
        let run = constant_rate(policy, &[3, 20, 3, 3], 4);
        assert_eq!(
            run.starts,
            [(0, 0), (1, 10), (3, 30), (4, 40)],
            "{policy:?}"
        );
        assert_eq!(run.drops, [(2, 1)], "{policy:?}");
    }
    // Work of exactly one slot is not late either: the next slot runs on time.
    for policy in [Policy::DropAndRest, Policy::KeepWorking] {
        let run = constant_rate(policy, &[10], 4);
        assert_eq!(
            run.starts,
            [(0, 0), (1, 10), (2, 20), (3, 30)],
            "{policy:?}"
        );
        assert!(run.drops.is_empty());
    }
    // (The article's drop & rest code computes `rest = rate - behind % rate`, which is a whole
    // slot when `behind` is an exact multiple: it would also lose slot 3 and run 4 at 40 ms.)
    assert_eq!(
        article_loop(false, 10, &[3, 20, 3, 3], 3),
        [(0, 0), (1, 10), (4, 40)]
    );
}

/// Simloop's spike: ticks of 10 ms, every update costs 20 ms of clock, the first frame 10 ms.
/// Returns per step `(clock ms, updates, sim time ms of its first update)`, stepping `steps`
/// times after the initial step at 0.
fn spike(config: LoopConfig, steps: usize) -> (Vec<(u64, u64, Option<u64>)>, LoopState) {
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut now = 0;
    let mut rows = Vec::new();
    for i in 0..=steps {
        let (next, events) = state.step(Nanos(now));
        state = next;
        let updates = events.updates().count() as u64;
        let first = events.updates().next().map(|t| t.t.0 / MS);
        rows.push((now / MS, updates, first));
        now += if i == 0 { 10 * MS } else { updates * 20 * MS };
    }
    (rows, state)
}

#[test]
fn simloop_spike_table_unbounded_queue_doubles() {
    // Option (a) of simloop's README: queue every due update. Clock 0, 10, 30, 70, 150; queue 1, 2,
    // 4, 8 updates; sim time 0, 10, 30, 70 at the start of each.
    let config = LoopConfig::new(Period::from_hz(100).unwrap())
        .max_updates(None)
        .max_frame_delta(None);
    let (rows, _) = spike(config, 4);
    assert_eq!(
        rows,
        [
            (0, 0, None),
            (10, 1, Some(0)),
            (30, 2, Some(10)),
            (70, 4, Some(30)),
            (150, 8, Some(70)),
        ]
    );
    // ... and it diverges: 16, 32, 64, … updates per step.
    let config = LoopConfig::new(Period::from_hz(100).unwrap())
        .max_updates(None)
        .max_frame_delta(None);
    let (rows, _) = spike(config, 8);
    let counts: Vec<u64> = rows.iter().map(|r| r.1).collect();
    assert_eq!(counts, [0, 1, 2, 4, 8, 16, 32, 64, 128]);
}

#[test]
fn simloop_spike_default_cap_bounds_work_and_reports_backlog() {
    // The default cap of 8 (simloop's "small constant N") stops the doubling: each step runs at
    // most 8 updates (160 ms of clock), and the backlog is reported as Deferred.
    let (rows, state) = spike(LoopConfig::new(Period::from_hz(100).unwrap()), 20);
    let counts: Vec<u64> = rows.iter().map(|r| r.1).collect();
    let mut expected = vec![0, 1, 2, 4];
    expected.extend([8; 17]);
    assert_eq!(counts, expected);
    // The clock only ever moves 160 ms per step, below the 250 ms clamp, but updates can never
    // catch up (20 ms of work per 10 ms tick): the max frame delta also bounds the backlog the
    // cap leaves, so the oldest ticks are given up (reported as `DiscardedTime`) and at most
    // the max frame delta's worth stays owed: due = run + given up + owed.
    assert_eq!(rows.last().unwrap().0, 150 + 16 * 160);
    let stats = state.clock("main").unwrap().stats();
    let due = state.real_time().elapsed().0 / (10 * MS);
    assert_eq!(stats.ticks_due, due);
    assert_eq!(stats.ticks_run, 1 + 2 + 4 + 8 * 17);
    assert!(stats.ticks_dropped > 0);
    assert_eq!(stats.time_discarded.0, stats.ticks_dropped * 10 * MS);
    assert_eq!(stats.pending, due - stats.ticks_run - stats.ticks_dropped);
    assert!(stats.pending <= 26, "{stats:?}");

    // Each capped step reports exactly the ticks it leaves due.
    let mut state = LoopState::new(LoopConfig::new(Period::from_hz(100).unwrap()), Nanos(0))
        .unwrap()
        .step(Nanos(0))
        .0;
    let mut now = 10 * MS;
    let mut deferred_steps = 0;
    for _ in 0..12 {
        let (next, events) = state.step(Nanos(now));
        state = next;
        let ran = events.updates().count() as u64;
        assert!(ran <= 8);
        let deferred: Vec<u64> = events
            .iter()
            .filter_map(|e| match e {
                Event::Deferred { ticks, .. } => Some(ticks),
                _ => None,
            })
            .collect();
        let stats = state.clock("main").unwrap().stats();
        let left = now / (10 * MS) - stats.ticks_run - stats.ticks_dropped;
        if left > 0 {
            assert_eq!(deferred, [left]);
            assert_eq!(
                events.deadline(),
                Some(&Nanos(now)),
                "a backlog asks to go on now"
            );
            deferred_steps += 1;
        } else {
            assert!(deferred.is_empty());
        }
        now += ran * 20 * MS;
    }
    assert!(deferred_steps >= 7);
}

#[test]
fn simloop_spike_default_clamp_discards_a_long_stall() {
    // A debugger stall of 1 s at 10 ms ticks: the default 250 ms clamp keeps 25 ticks of it,
    // discards 750 ms (75 ticks) and says so; the cap runs 8 and defers 17; cheap updates
    // (1 ms) then catch up within a few frames.
    let mut state = LoopState::new(LoopConfig::new(Period::from_hz(100).unwrap()), Nanos(0))
        .unwrap()
        .step(Nanos(0))
        .0;
    let (next, events) = state.step(Nanos(1000 * MS));
    state = next;
    let discarded: Vec<(u64, u64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::DiscardedTime { time, ticks, .. } => Some((time.0, ticks)),
            _ => None,
        })
        .collect();
    assert_eq!(discarded, [(750 * MS, 75)]);
    assert_eq!(events.updates().count(), 8);
    assert!(events.contains(&Event::Deferred {
        clock: tickfold_core::ClockId(0),
        ticks: 17
    }));
    let mut now = 1000 * MS;
    let mut ran = events.updates().count() as u64;
    let mut more = Vec::new();
    for _ in 0..6 {
        now += ran.max(1) * MS;
        let (next, ev) = state.step(Nanos(now));
        state = next;
        ran = ev.updates().count() as u64;
        more.push(ran);
        assert!(ev.iter().all(|e| !matches!(e, Event::DiscardedTime { .. })));
    }
    // Virtual time 258, 266, 274 ms …: 25 + 0, then 26, 27 ticks due.
    assert_eq!(more[..3], [8, 8, 3]);
    assert_eq!(
        state.clock("main").unwrap().stats().pending,
        0,
        "caught up after {more:?}"
    );
    let stats = state.clock("main").unwrap().stats();
    assert_eq!(
        stats.ticks_run + stats.ticks_dropped + stats.pending,
        now / (10 * MS)
    );
    assert_eq!(state.clock("main").unwrap().stats().ticks_dropped, 75);
}
