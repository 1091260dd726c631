//! `Runner::with_smoothing`: jittered vsync frames run one update each once smoothed, a hidden
//! tab's 10-minute gap reaches the fold unsmoothed (its discarded time reported, not spread
//! over later frames), and the smoother's state is readable through the runner.

use tickfold::runner::{NoSleep, Runner, TimeSource};
use tickfold::{DeltaSmoother, Event, LoopConfig, LoopState, Nanos, Period};
use tickfold_testing::SplitMix64;

/// Frame stamps from a list, one per read.
struct Stamps(Vec<u64>, usize);

impl TimeSource<Nanos> for Stamps {
    fn now(&mut self) -> Nanos {
        let t = self.0[self.1.min(self.0.len() - 1)];
        self.1 += 1;
        Nanos(t)
    }
}

fn stamps() -> Vec<u64> {
    let mut rng = SplitMix64::new(37);
    let mut out = Vec::new();
    for k in 1..=1_200u64 {
        let noise = rng.below(1_600_001);
        let gap = if k > 600 { 600_000_000_000 } else { 0 }; // a hidden tab after 10 s
        out.push((k * 1_000_000_000 / 60 + gap + noise - 800_000) / 100_000 * 100_000);
    }
    out
}

/// Per frame: the updates run, and whether anything was reported dropped or discarded.
fn run(smooth: bool) -> (Vec<u32>, u32, Runner<Nanos, Stamps, NoSleep>) {
    let state = LoopState::new(LoopConfig::new(Period::from_hz(60).unwrap()), Nanos(0)).unwrap();
    let mut runner = Runner::new(state, Stamps(stamps(), 0), NoSleep)
        .with_smoothing(smooth.then(DeltaSmoother::new));
    let (mut updates, mut reports) = (Vec::new(), 0);
    for _ in 0..1_200 {
        let mut n = 0;
        runner.frame(|event, _| match event {
            Event::Update(_) => n += 1,
            Event::DroppedTicks { .. } | Event::DiscardedTime { .. } => reports += 1,
            _ => {}
        });
        updates.push(n);
    }
    (updates, reports, runner)
}

#[test]
fn smoothing_evens_out_updates_and_passes_a_hidden_tab_through() {
    let (raw, raw_reports, _) = run(false);
    let (smoothed, reports, runner) = run(true);
    let irregular = |u: &[u32]| u.iter().filter(|&&n| n != 1).count();
    assert!(
        irregular(&raw[20..600]) > 100,
        "{}",
        irregular(&raw[20..600])
    );
    assert!(
        irregular(&smoothed[20..600]) <= 5,
        "{}",
        irregular(&smoothed[20..600])
    );
    // The gap reaches the fold as it was: the same report as without smoothing.
    assert!(raw_reports >= 1);
    assert_eq!(reports, raw_reports);
    assert_eq!(raw[600], smoothed[600]);
    assert!(
        irregular(&smoothed[601..]) <= 5,
        "{}",
        irregular(&smoothed[601..])
    );
    let s = runner.smoother().expect("smoothing is on");
    assert!(s.interval().unwrap().0.abs_diff(16_666_667) < 1_000);
    assert!(s.stats().passed >= 1);
}

#[test]
fn smoothing_is_off_by_default() {
    let (_, _, runner) = run(false);
    assert!(runner.smoother().is_none());
}
