//! The cap keeps the loop's one total order: with two or three clocks at their default cap of
//! 8 updates per step, every frame schedule runs the same ticks in the same order as the
//! reference run of one frame per main tick (a step runs a prefix of the due-time order; a tick
//! the cap defers holds back every tick due after it, whatever its clock).

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{ClockConfig, LoopConfig, Period, Tick};
use tickfold_testing::{Failure, Schedule, Sim};

/// Tick rates (Hz as a ratio) the clocks are drawn from.
const RATES: [(u64, u64); 6] = [(10, 1), (30, 1), (60, 1), (60_000, 1_001), (144, 1), (7, 3)];

/// Two or three clocks (indices into [`RATES`]) and a frame schedule.
#[derive(Clone, Debug)]
struct Case {
    rates: Vec<usize>,
    schedule: Schedule,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let n = 2 + usize::arbitrary(g) % 2;
        Case {
            rates: (0..n).map(|_| usize::arbitrary(g) % RATES.len()).collect(),
            schedule: Schedule::arbitrary(g),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let rates = self.rates.clone();
        Box::new(self.schedule.shrink().map(move |schedule| Case {
            rates: rates.clone(),
            schedule,
        }))
    }
}

fn rate(i: usize) -> Period {
    let (num, den) = RATES[i];
    Period::from_hz_ratio(num, den).unwrap()
}

/// Every update, in order: (clock, tick index).
type Order = Vec<(u16, u64)>;

fn record(order: &mut Order, tick: &Tick) {
    order.push((tick.clock.0, tick.index));
}

type Update = fn(&mut Order, &Tick);

fn sim(rates: &[usize]) -> Sim<Order, Update> {
    // No max-frame-delta clamp: it drops ticks (reported), which no slicing can agree on.
    let mut config = LoopConfig::new(rate(rates[0])).max_frame_delta(None);
    for (c, &r) in rates.iter().enumerate().skip(1) {
        let name = ["ai", "audio"][c - 1];
        config = config.clock(ClockConfig::new(name, rate(r)));
    }
    Sim::new(config, Vec::new(), record as Update).unwrap()
}

#[test]
fn two_and_three_clocks_under_default_caps_tick_alike_across_schedules() {
    fn prop(case: Case) -> Result<(), Failure> {
        sim(&case.rates).same_across_schedules([&case.schedule])
    }
    QuickCheck::new()
        .tests(2_000)
        .max_tests(2_000)
        .rng(Gen::new(40))
        .quickcheck(prop as fn(Case) -> Result<(), Failure>);
}

/// The case: physics at 30 Hz (cap 8) and AI at 10 Hz. One 577 ms frame makes 17
/// physics ticks due; the cap runs 8 and defers physics tick 8 (due at 300 ms), so AI ticks
/// due after it (tick 2 at 300 ms ties and goes to physics, declared first) wait too.
#[test]
fn one_long_frame_runs_a_prefix_of_the_due_time_order() {
    let order = sim(&[1, 0])
        .fold(&Schedule::from_millis(&[577.0]).unwrap())
        .state;
    let ai: Vec<u64> = order.iter().filter(|(c, _)| *c == 1).map(|t| t.1).collect();
    let physics = order.iter().filter(|(c, _)| *c == 0).count();
    assert_eq!(physics, 8);
    // AI ticks 0 and 1 are due at 100 and 200 ms, before physics tick 8 (300 ms); tick 2 is
    // due at 300 ms too, after physics tick 8 in the order.
    assert_eq!(ai, [0, 1]);
}
