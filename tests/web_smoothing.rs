//! The web shell's default smoothing, on the host: `WebLoop::new` with nothing else, 60 Hz
//! ticks on 60 Hz `requestAnimationFrame` stamps that jitter by ±1 ms and are coarsened to
//! 100 µs, runs one update a frame once the refresh is measured, with every tick run once and
//! the tick count exact; `with_smoothing(None)` turns it off.

use tickfold::web::{Hidden, WebLoop};
use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
use tickfold_testing::SplitMix64;

/// rAF stamps in ms: frame `k` at `start + k/60 s` ± 1 ms, coarsened to 0.1 ms.
fn stamps(start_ms: u64, frames: u64, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    (0..frames)
        .map(|k| {
            let ns = start_ms * 1_000_000 + k * 1_000_000_000 / 60;
            (ns + rng.below(2_000_001) - 1_000_000) / 100_000 * 100_000
        })
        .collect()
}

/// Ticks of an exact 60 Hz grid in `t` ns.
fn due(t: u64) -> u64 {
    t * 60 / 1_000_000_000
}

/// Updates per frame of a page built as `WebLoop::new(state, Hidden::Pause)` (and `off`:
/// `.with_smoothing(None)`), checking that every tick runs once, in order, and nothing is
/// dropped; and the page.
fn run(stamps: &[u64], off: bool) -> (Vec<u32>, WebLoop) {
    let state = LoopState::new(LoopConfig::new(Period::from_hz(60).unwrap()), Nanos(0)).unwrap();
    let mut page = WebLoop::new(state, Hidden::Pause).unwrap();
    if off {
        page = page.with_smoothing(None);
    }
    let (mut updates, mut next_index) = (Vec::new(), 0);
    for &ns in stamps {
        let mut n = 0;
        page.frame(ns as f64 / 1e6, |event, _| match event {
            Event::Update(tick) => {
                assert_eq!(tick.index, next_index, "every tick once, in order");
                next_index += 1;
                n += 1;
            }
            Event::Render(_) => {}
            other => panic!("nothing is dropped, discarded or deferred: {other:?}"),
        })
        .unwrap();
        // Never more than the smoother's bound (4 ms, a quarter tick) from the page's time.
        assert!(next_index.abs_diff(due(ns - stamps[0])) <= 1);
        updates.push(n);
    }
    (updates, page)
}

fn irregular(updates: &[u32]) -> usize {
    updates.iter().filter(|&&n| n != 1).count()
}

#[test]
fn the_web_shell_smooths_by_default_at_equal_rates() {
    let mut stamps = stamps(1_234, 3_600, 9_173);
    // A last frame half a refresh after the one before: off the refresh grid, so it passes
    // through unsmoothed and the loop's time is the page's.
    stamps.push(stamps[3_599] + 8_300_000);
    let (updates, page) = run(&stamps, false);
    let (early, late) = (irregular(&updates[..120]), irregular(&updates[120..3_600]));
    assert!(
        early <= 15 && late == 0,
        "irregular frames: {early} in the first 2 s, {late} after"
    );
    let ticks = page.state().clock("main").unwrap().stats().ticks_run;
    assert_eq!(
        ticks,
        due(stamps[3_600] - stamps[0]),
        "the tick count is the page's time's"
    );
    let s = page.smoother().expect("the web shell smooths by default");
    assert!(s.interval().unwrap().0.abs_diff(16_666_667) < 1_000);
}

#[test]
fn with_smoothing_none_turns_it_off() {
    let stamps = stamps(1_234, 3_600, 9_173);
    let (updates, page) = run(&stamps, true);
    assert!(page.smoother().is_none());
    assert!(
        irregular(&updates[60..]) > 100,
        "{}",
        irregular(&updates[60..])
    );
}

/// Headless Chromium's `requestAnimationFrame` stamps are an exact 60 Hz frame clock coarsened
/// to 100 µs, with no other noise: with the first stamp on the 100 µs grid, every third stamp
/// after it lands exactly on a 60 Hz tick boundary. The smoothed time must not start on such
/// a stamp (the frames snapped from it would sit on the boundaries too, their updates decided
/// by the rounding to whole ns: 1, 0, 2, 1, 0, 2, ...).
#[test]
fn exact_stamps_on_the_tick_boundaries_run_one_update_a_frame() {
    let stamps: Vec<u64> = (0..600u64)
        .map(|k| (278_500_000 + k * 1_000_000_000 / 60) / 100_000 * 100_000)
        .collect();
    let (updates, page) = run(&stamps, false);
    let after_warm_up = irregular(&updates[17..]);
    assert_eq!(after_warm_up, 0, "{:?}", &updates[..120]);
    assert!(page.smoother().and_then(|s| s.interval()).is_some());
}
