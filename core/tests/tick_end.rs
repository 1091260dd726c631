//! `Events::tick_end` against a naive oracle: on a clock that starts at 0 and never changes
//! period, tick `k` of a clock at `a/b` Hz starts at `floor(k·b·10⁹/a)` ns and ends where tick
//! `k + 1` starts, under any slicing of time and with several clocks updating in one step.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{ClockConfig, ClockId, LoopConfig, LoopState, Nanos, Period, Tick};

const RATES: [(u64, u64); 5] = [(60, 1), (60_000, 1_001), (144, 1), (7, 3), (64, 1)];

/// `floor(k·b·10⁹/a)`: where tick `k` of a clock at `a/b` Hz starts.
fn start(k: u64, (a, b): (u64, u64)) -> u64 {
    u64::try_from(u128::from(k) * u128::from(b) * 1_000_000_000 / u128::from(a)).unwrap()
}

#[derive(Clone, Debug)]
struct Schedule {
    clocks: Vec<usize>,
    /// Frame lengths in ns (0 included: empty frames).
    frames: Vec<u64>,
}

impl Arbitrary for Schedule {
    fn arbitrary(g: &mut Gen) -> Schedule {
        let n = 1 + usize::arbitrary(g) % 3;
        Schedule {
            clocks: (0..n).map(|_| usize::arbitrary(g) % RATES.len()).collect(),
            frames: (0..usize::arbitrary(g) % 60)
                .map(|_| match u8::arbitrary(g) % 4 {
                    0 => 0,
                    1 => u64::arbitrary(g) % 1_000_000,
                    2 => u64::arbitrary(g) % 40_000_000,
                    _ => u64::arbitrary(g) % 700_000_000,
                })
                .collect(),
        }
    }
}

fn ends_match_the_oracle(s: Schedule) -> bool {
    let rate = |i: usize| Period::from_hz_ratio(RATES[i].0, RATES[i].1).unwrap();
    let mut config =
        LoopConfig::from_clock(ClockConfig::new("main", rate(s.clocks[0])).max_updates(None))
            .max_frame_delta(None);
    for (c, &r) in s.clocks.iter().enumerate().skip(1) {
        config = config.clock(ClockConfig::new(format!("c{c}"), rate(r)).max_updates(None));
    }
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut now = 0u64;
    for frame in s.frames {
        now += frame;
        let (next, events) = state.step(Nanos(now));
        state = next;
        for tick in events.updates() {
            let hz = RATES[s.clocks[usize::from(tick.clock.0)]];
            let end = events.tick_end(&tick);
            if tick.t.0 != start(tick.index, hz) || end != Some(Nanos(start(tick.index + 1, hz))) {
                return false;
            }
            // A tick this step did not run has no end here.
            let other = Tick {
                index: tick.index + u64::from(u32::MAX),
                ..tick
            };
            if events.tick_end(&other).is_some() {
                return false;
            }
        }
    }
    // A step with no updates answers nothing.
    let (_, events) = state.step(Nanos(now));
    let probe = Tick {
        clock: ClockId(0),
        index: 0,
        t: Nanos(0),
        dt: rate(s.clocks[0]),
        lag: tickfold_core::Lag::ZERO,
        last_in_step: true,
    };
    events.updates().count() == 0 && events.tick_end(&probe).is_none()
}

#[test]
fn tick_ends_follow_the_exact_grid_under_any_slicing() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(ends_match_the_oracle as fn(Schedule) -> bool);
}

#[test]
fn sixty_ticks_at_sixty_hertz_end_at_one_second() {
    let state = LoopState::new(
        LoopConfig::new(Period::from_hz(60).unwrap())
            .max_updates(None)
            .max_frame_delta(None),
        Nanos(0),
    )
    .unwrap();
    let (_, events) = state.step(Nanos::from_millis(1_010));
    let ticks: Vec<Tick> = events.updates().collect();
    assert_eq!(ticks.len(), 60);
    let lengths: Vec<u64> = ticks
        .iter()
        .map(|t| events.tick_end(t).unwrap().0 - t.t.0)
        .collect();
    assert!(lengths.iter().all(|&l| l == 16_666_666 || l == 16_666_667));
    assert_eq!(lengths.iter().sum::<u64>(), 1_000_000_000);
}
