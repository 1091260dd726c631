//! `Runner::with_smoothing`: jittered vsync frames run one update each once smoothed, a hidden
//! tab's 10-minute gap reaches the fold unsmoothed (its discarded time reported, not spread
//! over later frames), and the smoother's state is readable through the runner. The default:
//! a vsync-paced runner (`NoSleep`, no render cap) smooths, 60 Hz ticks on 60 Hz frames then
//! run one update a frame with the tick count exact; a sleeping runner, or one with a render
//! cap, does not; `with_smoothing(None)` turns it off.

use tickfold::runner::{ManualTime, NoSleep, Runner, TimeSource};
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
fn with_smoothing_none_turns_it_off() {
    let (updates, _, runner) = run(false);
    assert!(runner.smoother().is_none());
    assert!(updates[20..600].iter().filter(|&&n| n != 1).count() > 100);
}

/// 60 Hz vsync frames read with ±1 ms of jitter, coarsened to 100 µs (the web stamps of
/// BENCHMARKS.md's tables): frame `k` at `k/60 s` + noise.
fn vsync_stamps(frames: u64, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    (1..=frames)
        .map(|k| (k * 1_000_000_000 / 60 + rng.below(2_000_001) - 1_000_000) / 100_000 * 100_000)
        .collect()
}

/// Ticks of an exact 60 Hz grid from 0 to `t` ns.
fn due(t: u64) -> u64 {
    t * 60 / 1_000_000_000
}

/// A runner as a vsync-paced game builds it (`Runner::new(state, clock, NoSleep)`, nothing
/// else), 60 Hz ticks on 3,600 jittered 60 Hz frames: one update a frame once the refresh is
/// measured, every tick run once and in order, none reported lost, and the count exact.
#[test]
fn a_vsync_paced_runner_smooths_by_default_at_equal_rates() {
    let mut stamps = vsync_stamps(3_600, 4_307);
    // A last frame half a refresh after the one before: off the refresh grid, so it passes
    // through unsmoothed and the loop's time is the time read.
    stamps.push(stamps[3_599] + 8_333_333);
    let state = LoopState::new(LoopConfig::new(Period::from_hz(60).unwrap()), Nanos(0)).unwrap();
    let mut runner = Runner::new(state, Stamps(stamps.clone(), 0), NoSleep);
    assert!(runner.smoother().is_some(), "on from the start");
    let (mut updates, mut next_index) = (Vec::new(), 0);
    for &raw in &stamps {
        let mut n = 0;
        runner.frame(|event, _| match event {
            Event::Update(tick) => {
                assert_eq!(tick.index, next_index, "every tick once, in order");
                next_index += 1;
                n += 1;
            }
            Event::Render(_) | Event::Sleep { .. } => {}
            other => panic!("nothing is dropped, discarded or deferred: {other:?}"),
        });
        // Never more than the smoother's bound (4 ms, a quarter tick) from the time read.
        assert!(
            next_index.abs_diff(due(raw)) <= 1,
            "{next_index} ticks at {raw} ns"
        );
        updates.push(n);
    }
    let irregular = |u: &[u32]| u.iter().filter(|&&n| n != 1).count();
    let early = irregular(&updates[..120]);
    let late = irregular(&updates[120..3_600]);
    // The frames sit on the tick boundaries (the worst phase): a refinement of the measured
    // interval may carry the smoothed time across one once (frame 223 here, since the first
    // refinement moved to the 31st frame; about one page in seven, with or without it).
    assert!(
        early <= 15 && late <= 1,
        "irregular frames: {early} in the first 2 s, {late} after"
    );
    assert_eq!(
        next_index,
        due(stamps[3_600]),
        "the tick count is the time read's"
    );
    let s = runner
        .smoother()
        .expect("a vsync-paced runner smooths by default");
    assert!(s.interval().unwrap().0.abs_diff(16_666_667) < 1_000);
}

/// The default is for runners that something else paces: a sleeping runner wakes at its own
/// deadlines, and a render cap says the deadlines pace the frames (an outer event loop).
#[test]
fn sleeping_or_capped_runners_do_not_smooth_by_default() {
    let config = || LoopConfig::new(Period::from_hz(60).unwrap());
    let clock = ManualTime::new();
    let state = LoopState::new(config(), Nanos(0)).unwrap();
    let mut sleeping = Runner::new(state, clock.clone(), clock.clone());
    let state = LoopState::new(
        config().render_rate(Some(Period::from_hz(144).unwrap())),
        Nanos(0),
    );
    let mut capped = Runner::new(state.unwrap(), clock.clone(), NoSleep);
    let state = LoopState::new(config(), Nanos(0)).unwrap();
    // The cap set after `new` counts as much as one in the configuration.
    let mut capped_later = Runner::new(state, clock.clone(), NoSleep)
        .with_render_rate(Some(Period::from_hz(144).unwrap()));
    let state = LoopState::new(config(), Nanos(0)).unwrap();
    let mut explicit =
        Runner::new(state, clock.clone(), clock.clone()).with_smoothing(Some(DeltaSmoother::new()));
    assert!(
        capped_later.smoother().is_none(),
        "the cap turned the default off"
    );
    // A cap set on the state after the first frame leaves the decision as it was.
    let state = LoopState::new(config(), Nanos(0)).unwrap();
    let mut decided = Runner::new(state, clock.clone(), NoSleep);
    decided.frame(|_, _| {});
    let cap = Some(Period::from_hz(144).unwrap());
    decided.state_mut().real_time_mut().set_render_rate(cap);
    for _ in 0..100 {
        clock.advance(Nanos(16_666_667));
        decided.frame(|_, _| {});
        sleeping.frame(|_, _| {});
        capped.frame(|_, _| {});
        capped_later.frame(|_, _| {});
        explicit.frame(|_, _| {});
    }
    assert!(sleeping.smoother().is_none());
    assert!(capped.smoother().is_none());
    assert!(capped_later.smoother().is_none());
    assert!(explicit.smoother().is_some(), "an explicit choice wins");
    assert!(decided.smoother().is_some(), "decided at the first frame");
}
