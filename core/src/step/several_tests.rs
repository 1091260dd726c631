//! The fast path for several plain clocks (`step/merged.rs` compiled for `Plain`) against the
//! general path: on random schedules of two to five catch-up clocks (any rates among a few
//! awkward ones, caps, phases, alpha clock and max frame delta), both give the same events and
//! leave the same state after every step.

use core::time::Duration;

use alloc::format;
use alloc::vec::Vec;
use quickcheck::{Arbitrary, Gen, QuickCheck};

use crate::state::{FastPath, Inner};
use crate::step::fast_path_tests::{fast_path_is_general, frames, shrink_frames};
use crate::{ClockConfig, LoopConfig, LoopState, Nanos, Period};

/// One clock: its rate (Hz as a ratio), its cap and its phase.
type ClockCase = ((u64, u64), Option<u32>, f64);

#[derive(Clone, Debug)]
struct Case {
    clocks: Vec<ClockCase>,
    alpha: usize,
    clamp: Option<u64>,
    /// Frame deltas in ns; negative steps back.
    frames: Vec<i64>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let n = 2 + usize::arbitrary(g) % 4;
        let clocks = (0..n)
            .map(|_| {
                let hz = *g
                    .choose(&[
                        (60, 1),
                        (60_000, 1_001),
                        (144, 1),
                        (7, 3),
                        (1_000, 1),
                        (50, 1),
                    ])
                    .unwrap_or(&(60, 1));
                let cap = bool::arbitrary(g).then(|| 1 + u32::arbitrary(g) % 6);
                let phase = *g.choose(&[0.0, 0.5, 0.25]).unwrap_or(&0.0);
                (hz, cap, phase)
            })
            .collect();
        let len = usize::arbitrary(g) % 60;
        Case {
            clocks,
            alpha: usize::arbitrary(g) % n,
            clamp: bool::arbitrary(g).then(|| 1 + u64::arbitrary(g) % 300_000_000),
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

fn config(case: &Case) -> LoopConfig {
    let clock = |i: usize, &(hz, cap, phase): &ClockCase| {
        ClockConfig::new(format!("c{i}"), Period::from_hz_ratio(hz.0, hz.1).unwrap())
            .max_updates(cap)
            .phase(phase)
    };
    let mut config = LoopConfig::from_clock(clock(0, &case.clocks[0]));
    for (i, c) in case.clocks.iter().enumerate().skip(1) {
        config = config.clock(clock(i, c));
    }
    config
        .alpha_clock(format!("c{}", case.alpha))
        .max_frame_delta(case.clamp.map(Duration::from_nanos))
}

fn same_paths(case: Case) -> bool {
    let fast = LoopState::new(config(&case), Nanos(0)).unwrap();
    fast_path_is_general(
        fast,
        &case.frames,
        FastPath::SEVERAL,
        Inner::advance_plain_several,
    )
}

#[test]
fn the_fast_path_for_several_clocks_is_the_general_path() {
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(same_paths as fn(Case) -> bool);
}

/// The cap defers a tick on one clock while another runs past it: the loop's total order
/// holds the later clock's ticks back on both paths (the deferral's rebuild of the runs).
#[test]
fn a_deferral_among_several_clocks_is_the_same_on_both_paths() {
    let case = Case {
        clocks: alloc::vec![
            ((60, 1), Some(1), 0.0),
            ((144, 1), None, 0.5),
            ((50, 1), Some(2), 0.25)
        ],
        alpha: 1,
        clamp: None,
        frames: alloc::vec![100_000_000, 16_666_666, 0, 250_000_000, 1],
    };
    assert!(same_paths(case));
}

#[test]
fn the_fast_path_for_several_clocks_is_taken_only_for_plain_clocks() {
    let rate = Period::from_hz(60).unwrap();
    let two = LoopConfig::new(rate).clock(ClockConfig::new("b", rate));
    let state = LoopState::new(two.clone(), Nanos(0)).unwrap();
    assert_eq!(state.inner.fast_path().0, FastPath::SEVERAL.0);
    let one = LoopState::new(LoopConfig::new(rate), Nanos(0)).unwrap();
    assert_eq!(one.inner.fast_path().0, FastPath::ONE.0);
    let nearest = two
        .clone()
        .clock(ClockConfig::new("c", rate).firing(crate::Firing::Nearest));
    let state = LoopState::new(nearest, Nanos(0)).unwrap();
    assert_eq!(state.inner.fast_path().0, FastPath::UNKNOWN.0);
    let capped = two.clone().render_rate(Some(rate));
    let state = LoopState::new(capped, Nanos(0)).unwrap();
    assert_eq!(state.inner.fast_path().0, FastPath::UNKNOWN.0);
    let mut paused = LoopState::new(two, Nanos(0)).unwrap();
    paused.virtual_time_mut().set_paused(true);
    assert_eq!(paused.inner.fast_path().0, FastPath::UNKNOWN.0);
}
