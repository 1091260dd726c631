//! The fold's fast path against its general path: on random schedules and plain
//! configurations (one catch-up clock, late firing, no hysteresis, scale 1, no render cap),
//! both give the same events and leave the same state after every step.

use core::time::Duration;

use alloc::vec::Vec;
use quickcheck::{Arbitrary, Gen, QuickCheck};

use crate::state::{FastPath, Inner};
use crate::{Events, LoopConfig, LoopState, Nanos, Period};

#[derive(Clone, Debug)]
struct Case {
    hz: (u64, u64),
    cap: Option<u32>,
    clamp: Option<u64>,
    phase: f64,
    /// Frame deltas in ns; negative steps back.
    frames: Vec<i64>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let hz = *g
            .choose(&[(60, 1), (60_000, 1_001), (144, 1), (7, 3), (1_000, 1)])
            .unwrap_or(&(60, 1));
        let len = usize::arbitrary(g) % 80;
        Case {
            hz,
            cap: bool::arbitrary(g).then(|| 1 + u32::arbitrary(g) % 12),
            clamp: bool::arbitrary(g).then(|| 1 + u64::arbitrary(g) % 300_000_000),
            phase: if bool::arbitrary(g) { 0.5 } else { 0.0 },
            frames: frames(g, len),
        }
    }

    fn shrink(&self) -> alloc::boxed::Box<dyn Iterator<Item = Case>> {
        shrink_frames(self, &self.frames, |me, frames| Case {
            frames,
            ..me.clone()
        })
    }
}

/// `len` frame deltas as the fast paths' properties draw them, in ns (negative steps back):
/// mostly a 60 Hz frame with ±0.1 ms of jitter, some empty, some backwards, some long.
pub(crate) fn frames(g: &mut Gen, len: usize) -> Vec<i64> {
    (0..len)
        .map(|_| match u8::arbitrary(g) % 12 {
            0 => 0,
            1 => -(i64::arbitrary(g).rem_euclid(30_000_000)),
            2 => i64::arbitrary(g).rem_euclid(2_000_000_000),
            3 => i64::arbitrary(g).rem_euclid(200_000_000),
            _ => 16_666_666 + i64::arbitrary(g).rem_euclid(200_001) - 100_000,
        })
        .collect()
}

/// A case shrunk by shrinking its `frames` (`with` puts shrunk frames in a copy of `me`).
pub(crate) fn shrink_frames<C: Clone + 'static>(
    me: &C,
    frames: &[i64],
    with: fn(&C, Vec<i64>) -> C,
) -> alloc::boxed::Box<dyn Iterator<Item = C>> {
    let me = me.clone();
    alloc::boxed::Box::new(frames.to_vec().shrink().map(move |f| with(&me, f)))
}

/// The case's loop twice: one for the fast path, one forced onto the general path.
fn two_loops(case: &Case) -> (LoopState<Nanos>, LoopState<Nanos>) {
    let config = LoopConfig::new(Period::from_hz_ratio(case.hz.0, case.hz.1).unwrap())
        .max_updates(case.cap)
        .max_frame_delta(case.clamp.map(Duration::from_nanos))
        .phase(case.phase);
    let fast = LoopState::new(config, Nanos(0)).unwrap();
    let general = fast.clone();
    (fast, general)
}

fn same_paths(case: Case) -> bool {
    let (fast, _) = two_loops(&case);
    fast_path_is_general(fast, &case.frames, FastPath::ONE, Inner::advance_plain)
}

/// Steps `fast` through `frames` (ns deltas; negative steps back) on its fast path `path`
/// (`step`), and a copy of it on the general path: whether the path applies before every
/// step and both agree after it (see [`same_step`]).
pub(crate) fn fast_path_is_general(
    mut fast: LoopState<Nanos>,
    frames: &[i64],
    path: FastPath,
    step: fn(&mut Inner<Nanos>, Nanos, &mut Events<Nanos>),
) -> bool {
    let mut general = fast.clone();
    let (mut ef, mut eg) = (Events::new(), Events::new());
    let mut now = 0u64;
    for &d in frames {
        now = if d < 0 {
            now.saturating_sub(d.unsigned_abs())
        } else {
            now.saturating_add(d.unsigned_abs())
        };
        if fast.inner.fast_path().0 != path.0 {
            return false;
        }
        ef.clear();
        eg.clear();
        // As `advance_new` does: the step's span first (the render's delta reads it), the
        // fast path's by the plain mapping; the events settled at the end.
        fast.inner.begin_plain_span();
        general.inner.begin_span();
        step(&mut fast.inner, Nanos(now), &mut ef);
        general.inner.advance_general(Nanos(now), &mut eg);
        ef.settle(&mut fast.inner.pool);
        eg.settle(&mut general.inner.pool);
        if !same_step(&fast, &general, &ef, &eg) {
            return false;
        }
    }
    true
}

/// Whether a step on a fast path (`fast`, its events `ef`) and the same step on the general
/// path (`general`, `eg`) agree: the same state, the same lazily produced events (compared
/// one by one, then as the whole sequence with the deadline), the same updates and counts,
/// and the same save (the fast paths' span, recorded without its mapping, saves as the
/// general path's).
pub(crate) fn same_step(
    fast: &LoopState<Nanos>,
    general: &LoopState<Nanos>,
    ef: &Events<Nanos>,
    eg: &Events<Nanos>,
) -> bool {
    if fast != general || ef != eg || ef.len() != eg.len() {
        return false;
    }
    if !ef.iter().eq(eg.iter()) || !ef.updates().eq(eg.updates()) {
        return false;
    }
    if ef.clone().into_vec() != eg.clone().into_vec() {
        return false;
    }
    #[cfg(feature = "serde")]
    if serde_json::to_string(fast).ok() != serde_json::to_string(general).ok() {
        return false;
    }
    true
}

#[test]
fn the_fast_path_is_the_general_path() {
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(same_paths as fn(Case) -> bool);
}

#[test]
fn the_fast_path_is_taken_only_for_plain_loops() {
    let rate = Period::from_hz(60).unwrap();
    let plain = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    assert!(plain.inner.is_plain());
    let capped = LoopConfig::new(rate).render_rate(Some(rate));
    assert!(!LoopState::new(capped, Nanos(0)).unwrap().inner.is_plain());
    let hysteresis = LoopConfig::new(rate).hysteresis(0.25);
    assert!(
        !LoopState::new(hysteresis, Nanos(0))
            .unwrap()
            .inner
            .is_plain()
    );
    let mut paused = plain.clone();
    paused.virtual_time_mut().set_paused(true);
    assert!(!paused.inner.is_plain());
}

/// A plain clock's catch-up (O(1): the count at once) against firing its ticks one by one,
/// the way the general path fires every other clock: the same count and the same clock after.
fn catch_up_is_tick_by_tick(
    hz: (u64, u64),
    cap: Option<u32>,
    phase: bool,
    jumps: Vec<u32>,
) -> bool {
    let hz = [(60, 1), (60_000, 1_001), (7, 3), (1_000, 1)][(hz.0 % 4) as usize];
    let _ = hz.1;
    let config = LoopConfig::new(Period::from_hz_ratio(hz.0, hz.1).unwrap())
        // Caps past the catch-up's tick-by-tick walk too (16), where it counts with a division.
        .max_updates(cap.map(|c| 1 + c % 40))
        .phase(if phase { 0.5 } else { 0.0 });
    let state = LoopState::<Nanos>::new(config, Nanos(0)).unwrap();
    let mut fast = state.inner.clocks[0].clone();
    let mut slow = fast.clone();
    assert!(fast.plain());
    let mut v = 0u64;
    for j in jumps {
        v = v.saturating_add(u64::from(j) * 1_000);
        let n = fast.catch_up_alone(v);
        while !slow.ended() && slow.ready(v, 0) {
            slow.fire();
        }
        if n != slow.count() {
            return false;
        }
        // The plain clock's end of step (the fast path's) against the general one.
        slow.note_latest_step();
        if fast.end_step(v, Some(n)) != slow.end_step(v, None) || fast != slow {
            return false;
        }
    }
    true
}

#[test]
fn catching_up_at_once_is_firing_tick_by_tick() {
    QuickCheck::new().tests(1_000).quickcheck(
        catch_up_is_tick_by_tick as fn((u64, u64), Option<u32>, bool, Vec<u32>) -> bool,
    );
}

/// The run-time controls move a clock's grid (a new segment, a lead, a refused tick): the fast
/// path must follow the moved grid exactly as the general path does. A control with something
/// to report keeps the next step off the fast path.
fn same_paths_with_controls(case: Case, ops: Vec<(u8, u32)>) -> bool {
    let (mut fast, mut general) = two_loops(&case);
    let (mut ef, mut eg) = (Events::new(), Events::new());
    let mut now = 0u64;
    for (i, d) in case.frames.into_iter().enumerate() {
        let (op, x) = ops.get(i).copied().unwrap_or((0, 0));
        let x = u64::from(x);
        for s in [&mut fast, &mut general] {
            let _ = match op % 8 {
                1 => s.clock_mut("main").map(|mut h| {
                    h.set_rate(Period::from_hz(30 + x % 200).unwrap());
                }),
                2 => s.clock_mut("main").map(|mut h| {
                    h.accumulate_overstep(Nanos(x % 100_000_000));
                }),
                3 => s
                    .clock_mut("main")
                    .map(|mut h| h.discard_overstep(Nanos(x % 100_000_000)))
                    .map(|_| ()),
                4 => s.clock_mut("main").map(|mut h| {
                    h.reset_grid();
                }),
                5 => s.clock_mut("main").map(|mut h| {
                    let _ = h.set_phase((x % 4) as f64 / 4.0);
                }),
                _ => Ok(()),
            };
        }
        if op % 8 == 6 {
            if let Some(t) = ef.updates().last() {
                if fast.refuse(t.clock, t.index).is_err()
                    || general.refuse(t.clock, t.index).is_err()
                {
                    return false;
                }
            }
        }
        now = if d < 0 {
            now.saturating_sub(d.unsigned_abs())
        } else {
            now.saturating_add(d.unsigned_abs())
        };
        ef.clear();
        eg.clear();
        general.inner.begin_span();
        if fast.inner.is_plain() {
            fast.inner.begin_plain_span();
            fast.inner.advance_plain(Nanos(now), &mut ef);
        } else {
            fast.inner.begin_span();
            fast.inner.advance_general(Nanos(now), &mut ef);
        }
        general.inner.advance_general(Nanos(now), &mut eg);
        if fast != general || ef != eg || !ef.iter().eq(eg.iter()) {
            return false;
        }
    }
    true
}

#[test]
fn the_fast_path_follows_the_controls() {
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(same_paths_with_controls as fn(Case, Vec<(u8, u32)>) -> bool);
}

#[test]
fn a_control_with_a_report_takes_the_general_path() {
    let rate = Period::from_hz(60).unwrap();
    let mut state = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    state
        .clock_mut("main")
        .unwrap()
        .set_rate(Period::from_hz(30).unwrap());
    assert!(!state.inner.is_plain());
    let _ = state.advance(Nanos(1));
    assert!(state.inner.is_plain());
    state
        .clock_mut("main")
        .unwrap()
        .set_hysteresis(0.25)
        .unwrap();
    assert!(!state.inner.is_plain());
}

/// Every kind of control, on a loop of one clock or two: whether the step takes the fast path
/// is the state's cached answer ([`FastPath`](crate::state::FastPath)), which must never say
/// "fast" where the recomputed answer says otherwise, and must be the recomputed answer after
/// every step. The loop stepped by `advance_into` (taking the fast path on the cached answer)
/// and its twin stepped always on the general path stay the same.
fn the_cached_answer_is_the_recomputed_one(case: Case, ops: Vec<(u8, u32)>) -> bool {
    use crate::{ClockConfig, TimeScale};
    let (mut fast, mut general) = two_loops(&case);
    let (mut ef, mut eg) = (Events::new(), Events::new());
    let mut now = 0u64;
    let mut took_fast = 0;
    let steps = case.frames.len();
    let controls = ops
        .iter()
        .take(steps)
        .any(|(op, _)| (1..=12).contains(&(op % 16)));
    for (i, d) in case.frames.into_iter().enumerate() {
        let (op, x) = ops.get(i).copied().unwrap_or((0, 0));
        let x64 = u64::from(x);
        for s in [&mut fast, &mut general] {
            match op % 16 {
                1 => {
                    s.virtual_time_mut().set_paused(x % 2 == 0);
                }
                2 => {
                    let scale = *[(1, 1), (1, 2), (2, 1), (1, 3)]
                        .get(x as usize % 4)
                        .unwrap_or(&(1, 1));
                    s.virtual_time_mut()
                        .set_scale(TimeScale::ratio(scale.0, scale.1).unwrap());
                }
                3 => {
                    s.virtual_time_mut().step_ticks(x64 % 3);
                }
                4 => {
                    let rate = (x % 2 == 0).then(|| Period::from_hz(30 + x64 % 100).unwrap());
                    s.real_time_mut().set_render_rate(rate);
                }
                5 => {
                    let max = (x % 2 == 0).then(|| Duration::from_millis(1 + x64 % 300));
                    let _ = s.real_time_mut().set_max_frame_delta(max);
                }
                6 => {
                    let _ = s.add_clock(
                        ClockConfig::new("extra", Period::from_hz(10 + x64 % 50).unwrap()),
                        None,
                    );
                }
                7 => {
                    let _ = s.remove_clock("extra");
                }
                8 => {
                    let _ = s.clock_mut("main").map(|mut h| {
                        h.set_rate(Period::from_hz(30 + x64 % 200).unwrap());
                    });
                }
                9 => {
                    let _ = s.clock_mut("main").map(|mut h| {
                        let _ = h.set_hysteresis((x % 3) as f64 / 8.0);
                    });
                }
                10 => {
                    let _ = s.clock_mut("main").map(|mut h| {
                        let _ = h.set_max_updates(Some(1 + x % 5));
                    });
                }
                11 => {
                    let _ = s.clock_mut("main").map(|mut h| {
                        h.discard_overstep(Nanos(x64 % 100_000_000));
                    });
                }
                _ => {}
            }
        }
        if op % 16 == 12 {
            if let Some(t) = ef.updates().last() {
                let _ = fast.refuse(t.clock, t.index);
                let _ = general.refuse(t.clock, t.index);
            }
        }
        // Never a fast path where it does not apply, whatever the control did: the cached
        // answer is "unknown" or the recomputed one.
        let cached = fast.inner.fast.0;
        if cached != 0 && cached != fast.inner.fast_path().0 {
            return false;
        }
        now = if d < 0 {
            now.saturating_sub(d.unsigned_abs())
        } else {
            now.saturating_add(d.unsigned_abs())
        };
        took_fast += usize::from(fast.inner.fast.0 != 0);
        fast.advance_into(Nanos(now), &mut ef);
        eg.clear();
        general.inner.begin_span();
        general.inner.advance_general(Nanos(now), &mut eg);
        eg.settle(&mut general.inner.pool);
        if fast.inner.fast.0 != fast.inner.fast_path().0 {
            return false;
        }
        if fast != general || ef != eg || !ef.iter().eq(eg.iter()) {
            return false;
        }
    }
    // A loop without controls takes the fast path from its second step on.
    controls || steps < 2 || took_fast == steps - 1
}

#[test]
fn the_fast_path_is_taken_on_the_cached_answer() {
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(the_cached_answer_is_the_recomputed_one as fn(Case, Vec<(u8, u32)>) -> bool);
}

/// Found by the property above (CI, 2026-11-28): a tick refused while the loop was plain ran
/// again on the fast path, which never spends the refusal, so the clock kept sparing a tick
/// that had run (the general twin spent it).
#[test]
fn a_refused_tick_run_again_is_spent_on_either_path() {
    let case = Case {
        hz: (144, 1),
        cap: None,
        clamp: None,
        phase: 0.5,
        frames: alloc::vec![0, 0, 0, 0, 1],
    };
    let ops = alloc::vec![(99, 1), (156, 0), (11, 1), (1, 3)];
    assert!(the_cached_answer_is_the_recomputed_one(case, ops));
}

/// Issue 36 §3, found by `the_fast_path_follows_the_controls`: a 1 kHz clock (cap 10) with
/// overstep accumulated, a frame exactly as long as the max frame delta, then the last update
/// refused: the backlog bound must give up the same ticks on both paths.
#[test]
fn the_overload_bound_is_the_same_on_both_paths() {
    let case = Case {
        hz: (1000, 1),
        cap: Some(10),
        clamp: Some(75_857_154),
        phase: 0.5,
        frames: alloc::vec![0, 0, 75_857_154, 0],
    };
    let ops = alloc::vec![(0, 0), (0, 0), (2, 10_500_000), (86, 0)];
    assert!(same_paths_with_controls(case, ops));
}
