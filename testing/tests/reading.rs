//! The determinism kit's `ReadingSim`: a simulation that reads the time inside its ticks
//! through the documented API (virtual elapsed and delta, another clock's latest tick and
//! counts) gives the same result under every slicing, with two or three clocks and caps on;
//! the same simulation reading the end of the step (what a handler read before) does not.

use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period, Tick};
use tickfold_testing::quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use tickfold_testing::{Failure, ReadingSim, Schedule};

const RATES: [(u64, u64); 5] = [(30, 1), (10, 1), (60, 1), (7, 3), (144, 1)];

#[derive(Clone, Debug)]
struct Clocks(Vec<((u64, u64), u32)>);

impl Arbitrary for Clocks {
    fn arbitrary(g: &mut Gen) -> Clocks {
        let n = 2 + usize::arbitrary(g) % 2;
        Clocks(
            (0..n)
                .map(|_| {
                    (
                        RATES[usize::arbitrary(g) % RATES.len()],
                        1 + u32::arbitrary(g) % 8,
                    )
                })
                .collect(),
        )
    }
}

fn config(clocks: &Clocks) -> LoopConfig {
    let clock = |i: usize| {
        let ((num, den), cap) = clocks.0[i];
        ClockConfig::new(
            ["a", "b", "c"][i],
            Period::from_secs_ratio(den, num).unwrap(),
        )
        .max_updates(Some(cap))
    };
    let mut config = LoopConfig::from_clock(clock(0)).max_frame_delta(None);
    for i in 1..clocks.0.len() {
        config = config.clock(clock(i));
    }
    config
}

/// Per update: its clock and number, the time and every clock's latest tick and ticks run,
/// read as of the tick or at the step's end.
type Log = Vec<(u16, u64, u64, u64, Vec<(Option<u64>, u64)>)>;

fn reads(as_of: bool) -> impl Fn(&mut Log, &Tick, &LoopState) {
    move |log: &mut Log, tick: &Tick, state: &LoopState| {
        let time = state.virtual_time();
        let (elapsed, delta) = if as_of {
            (time.elapsed(), time.delta())
        } else {
            (time.elapsed_at_step_end(), time.delta_at_step_end())
        };
        let clocks = state
            .clock_names()
            .map(|name| {
                let c = state.clock(name).unwrap();
                if as_of {
                    (c.latest_tick().map(|t| t.index), c.stats().ticks_run)
                } else {
                    (
                        c.latest_tick_at_step_end().map(|t| t.index),
                        c.stats_at_step_end().ticks_run,
                    )
                }
            })
            .collect();
        log.push((tick.clock.0, tick.index, elapsed.0, delta.0, clocks));
    }
}

#[test]
fn reading_the_loop_as_of_each_tick_is_the_same_under_every_slicing() {
    fn prop(clocks: Clocks, a: Schedule, b: Schedule) -> TestResult {
        let sim = ReadingSim::new(config(&clocks), Log::new(), reads(true)).unwrap();
        match sim.same_across_schedules([&a, &b]) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e.to_string()),
        }
    }
    QuickCheck::new()
        .tests(60)
        .quickcheck(prop as fn(Clocks, Schedule, Schedule) -> TestResult);
}

#[test]
fn reading_the_step_end_depends_on_the_slicing_and_the_kit_says_so() {
    let clocks = Clocks(vec![((30, 1), 8), ((10, 1), 8)]);
    let one_frame = Schedule::from_millis(&[250.0]).unwrap();
    let frames = Schedule::from_millis(&[10.0; 25]).unwrap();
    let end = ReadingSim::new(config(&clocks), Log::new(), reads(false)).unwrap();
    let failure = end.same_across_schedules([&one_frame, &frames]);
    assert!(matches!(failure, Err(Failure::Schedule(_))), "{failure:?}");
    let as_of = ReadingSim::new(config(&clocks), Log::new(), reads(true)).unwrap();
    as_of.same_across_schedules([&one_frame, &frames]).unwrap();
    // AI's tick 0 (clock 1) saw physics' tick 2 at 100 ms, whatever the frames.
    let log = as_of.fold(&one_frame);
    let ai0 = log.iter().find(|r| r.0 == 1 && r.1 == 0).unwrap();
    assert_eq!((ai0.2, ai0.4[0].0), (Nanos::from_millis(100).0, Some(2)));
}

/// Issue 43, 3.5: an update that acts on `Tick::last_in_step` depends on the frames however it
/// reads the loop; the failure's note names `last_in_step` among the causes, instead of
/// blaming only readings made at the step's end.
#[test]
fn the_note_names_last_in_step_when_the_update_uses_it() {
    let config = LoopConfig::new(Period::from_hz(30).unwrap()).max_frame_delta(None);
    let counts = |n: &mut u32, tick: &Tick, _: &LoopState| *n += u32::from(tick.last_in_step);
    let sim = ReadingSim::new(config, 0_u32, counts).unwrap();
    let one_frame = Schedule::from_millis(&[250.0]).unwrap();
    let frames = Schedule::from_millis(&[10.0; 25]).unwrap();
    let Err(Failure::Schedule(m)) = sim.same_across_schedules([&one_frame, &frames]) else {
        panic!("the count of last updates depends on the frames");
    };
    assert!(
        m.notes.iter().any(|n| n.contains("last_in_step")),
        "{:?}",
        m.notes
    );
}
