//! The web shell's logic on the host: first frames, bad, backwards and repeated stamps, a
//! ten-minute hidden gap in each mode, 30, 60 and 144 Hz displays and random frame schedules.

use quickcheck::{QuickCheck, TestResult};
use tickfold_testing::SplitMix64;

use super::*;
use tickfold_core::{LoopConfig, Period};

const TICK_MS: f64 = 50.0; // 20 Hz, the demo's rate

fn new(hidden: Hidden) -> WebLoop {
    let state = LoopState::new(LoopConfig::new(Period::from_hz(20).unwrap()), Nanos(0)).unwrap();
    WebLoop::new(state, hidden).unwrap()
}

/// What the handler saw.
#[derive(Default, Debug)]
struct Seen {
    updates: u64,
    renders: u64,
    alphas_ok: bool,
    dropped: u64,
    paused: u64,
    resumed: u64,
    backwards: u64,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            alphas_ok: true,
            ..Seen::default()
        }
    }

    fn see(&mut self, event: &Event<Nanos>) {
        match event {
            Event::Update(_) => self.updates += 1,
            Event::Render(r) => {
                self.renders += 1;
                self.alphas_ok &= (0.0..=1.0).contains(&r.alpha);
            }
            Event::DiscardedTime { ticks, .. } => self.dropped += ticks,
            Event::Paused => self.paused += 1,
            Event::Resumed => self.resumed += 1,
            Event::TimeBackwards { .. } => self.backwards += 1,
            _ => {}
        }
    }
}

/// Frames of a `hz` display from `from` ms to `to` ms (both included when on the grid).
fn frames(web: &mut WebLoop, seen: &mut Seen, from: f64, to: f64, hz: f64) {
    let mut i = 0.0;
    while from + i * 1000.0 / hz <= to {
        web.frame(from + i * 1000.0 / hz, |e, _| seen.see(e))
            .unwrap();
        i += 1.0;
    }
}

fn ticks_for(ms: f64) -> u64 {
    (ms / TICK_MS).floor() as u64
}

#[test]
fn the_first_frame_has_no_previous_stamp_and_steps_by_zero() {
    let mut web = new(Hidden::Pause);
    let mut seen = Seen::new();
    // The page was open 5 s before its first frame: those 5 s are not game time.
    web.frame(5_000.0, |e, _| seen.see(e)).unwrap();
    assert_eq!((seen.updates, seen.renders), (0, 1));
    assert_eq!(web.state().real_time().elapsed(), Nanos(0));
    assert_eq!(web.events().render().map(|r| r.alpha), Some(0.0));
    web.frame(5_000.0 + TICK_MS, |e, _| seen.see(e)).unwrap();
    assert_eq!(seen.updates, 1);
}

#[test]
fn a_resumed_state_goes_on_from_its_latest_time() {
    let mut web = new(Hidden::Pause);
    web.frame(0.0, |_, _| {}).unwrap();
    web.frame(1_000.0, |_, _| {}).unwrap();
    let saved = web.into_state();
    // A new page (its stamps start again near 0) goes on from the saved state's second 1.
    let mut web = WebLoop::new(saved, Hidden::Pause).unwrap();
    let mut seen = Seen::new();
    web.frame(300.0, |e, _| seen.see(e)).unwrap();
    web.frame(300.0 + TICK_MS, |e, _| seen.see(e)).unwrap();
    assert_eq!((seen.updates, seen.backwards), (1, 0));
    assert_eq!(web.state().real_time().elapsed(), Nanos::from_millis(1_050));
}

#[test]
fn bad_stamps_are_refused_and_do_not_step() {
    let mut web = new(Hidden::Pause);
    for bad in [f64::NAN, f64::INFINITY, -1.0] {
        let mut called = false;
        let refused = web.frame(bad, |_, _| called = true);
        assert!(matches!(refused, Err(BadStamp(_))), "{bad}");
        assert!(!called);
        assert!(matches!(web.timer_tick(bad, |_, _| {}), Err(BadStamp(_))));
    }
    assert!(web.events().is_empty());
}

#[test]
fn stamps_going_backwards_or_repeating_are_reported_once_and_lose_no_tick() {
    // Unsmoothed, to count exactly; `every_loop` covers the default smoothing too.
    let mut web = new(Hidden::Pause).with_smoothing(None);
    let mut seen = Seen::new();
    for stamp in [100.0, 180.0, 180.0, 160.0, 170.0, 260.0, 300.0] {
        web.frame(stamp, |e, _| seen.see(e)).unwrap();
    }
    // 160 is before the latest stamp (180): reported, no time passes, and the axis moves to
    // it (160 is now loop time 80 ms), so 170 is 10 ms later, not another step back.
    assert_eq!(seen.backwards, 1);
    // No render on a step that went backwards or repeated the latest stamp (no time passed:
    // the picture has not changed), one on each other frame, the first included.
    assert_eq!(seen.renders, 5);
    assert_eq!(seen.updates, ticks_for(300.0 - 100.0 + 20.0));
    assert_eq!(web.state().real_time().elapsed(), Nanos::from_millis(220));
}

/// Every mode, smoothing off and on.
fn every_loop() -> Vec<(Hidden, bool, WebLoop)> {
    let mut all = Vec::new();
    for hidden in [Hidden::Pause, Hidden::Report, Hidden::KeepTicking] {
        for smooth in [false, true] {
            let web = new(hidden).with_smoothing(smooth.then(DeltaSmoother::new));
            all.push((hidden, smooth, web));
        }
    }
    all
}

#[test]
fn the_frame_after_a_hidden_stretch_renders_and_is_no_time_backwards() {
    let mut rng = SplitMix64::new(43);
    for (hidden, smooth, mut web) in every_loop() {
        let mut seen = Seen::new();
        frames(&mut web, &mut seen, 0.0, 2_000.0, 60.0);
        for round in 0..20 {
            let from = 2_000.0 + f64::from(round) * 10_000.0;
            web.set_visible(false, |e, _| seen.see(e));
            // Beats up to 5 s later (KeepTicking only; the others ignore them), as late as a
            // busy main thread makes them.
            let mut t = from + 400.0;
            while t < from + 5_000.0 {
                web.timer_tick(t, |e, _| seen.see(e)).unwrap();
                t += KEEP_TICKING_MS + rng.below(40) as f64 / 10.0;
            }
            web.set_visible(true, |e, _| seen.see(e));
            // The first frame back began 15 ms before the latest beat was handled (Chromium:
            // up to a frame earlier than a `performance.now()` taken in a handler).
            let mut after = Seen::new();
            web.frame(t - 15.0, |e, _| after.see(e)).unwrap();
            assert_eq!(
                (after.renders, after.backwards),
                (1, 0),
                "{hidden:?}, smoothing {smooth}, switch {round}"
            );
            frames(&mut web, &mut seen, t, from + 10_000.0 - 20.0, 60.0);
        }
        assert_eq!(seen.backwards, 0, "{hidden:?}, smoothing {smooth}");
    }
}

#[test]
fn paused_reaches_the_game_when_the_page_hides_and_resumed_with_the_first_frame_back() {
    let mut web = new(Hidden::Pause);
    let mut seen = Seen::new();
    frames(&mut web, &mut seen, 0.0, 1_000.0, 60.0);
    let mut at_hiding = Seen::new();
    web.set_visible(false, |e, _| at_hiding.see(e));
    assert_eq!(
        (at_hiding.paused, at_hiding.renders, at_hiding.updates),
        (1, 0, 0)
    );
    let mut at_showing = Seen::new();
    web.set_visible(true, |e, _| at_showing.see(e));
    assert_eq!(at_showing.paused + at_showing.resumed, 0);
    let mut back = Seen::new();
    web.frame(61_000.0, |e, _| back.see(e)).unwrap();
    assert_eq!((back.paused, back.resumed, back.renders), (0, 1, 1));
    assert!(!web.state().virtual_time().is_paused());
}

#[test]
fn a_bogus_stamp_far_ahead_costs_one_frame_and_the_game_goes_on() {
    for (hidden, smooth, mut web) in every_loop() {
        let mut seen = Seen::new();
        frames(&mut web, &mut seen, 0.0, 1_000.0, 60.0);
        // An hour ahead: a forward jump like a hidden tab's gap, reported by the max frame
        // delta; then the honest stamps, each earlier than it.
        web.frame(1_000.0 + 3_600_000.0, |e, _| seen.see(e))
            .unwrap();
        let (dropped, updates_before) = (seen.dropped, seen.updates);
        assert!(
            dropped > 70_000,
            "{hidden:?}, smoothing {smooth}: {dropped}"
        );
        let mut after = Seen::new();
        frames(&mut web, &mut after, 1_016.0, 11_016.0, 60.0);
        let frames_after = 601;
        assert_eq!(after.backwards, 1, "{hidden:?}, smoothing {smooth}");
        assert_eq!(
            after.renders,
            frames_after - 1,
            "{hidden:?}, smoothing {smooth}"
        );
        assert!(
            after.updates.abs_diff(ticks_for(10_000.0)) <= 1,
            "{hidden:?}, smoothing {smooth}: {} updates after ({updates_before} before)",
            after.updates
        );
    }
}

#[test]
fn a_stamp_too_far_for_the_loop_is_refused_and_changes_nothing() {
    for (hidden, smooth, mut web) in every_loop() {
        let mut seen = Seen::new();
        frames(&mut web, &mut seen, 0.0, 1_000.0, 60.0);
        for far in [1.85e13, 2e13, 1e300, f64::MAX] {
            assert_eq!(web.frame(far, |_, _| panic!("no step")), Err(BadStamp(far)));
        }
        let mut after = Seen::new();
        frames(&mut web, &mut after, 1_016.0, 2_016.0, 60.0);
        assert_eq!(
            (after.backwards, after.renders),
            (0, 61),
            "{hidden:?}, smoothing {smooth}"
        );
        assert_eq!(
            after.updates,
            ticks_for(1_000.0),
            "{hidden:?}, smoothing {smooth}"
        );
    }
    // Just under 2^64 ns fits, on a loop that starts at 0 with it.
    assert!(stamp_to_nanos(1.8e13).is_some());
    assert_eq!(stamp_to_nanos(18_446_744_073_709.6), None);
}

#[test]
fn the_rule_for_hidden_tabs_changes_at_the_next_hiding() {
    let mut web = new(Hidden::Pause);
    assert!(!web.keeps_ticking());
    web.frame(0.0, |_, _| {}).unwrap();
    web.set_hidden(Hidden::KeepTicking).unwrap();
    assert!(!web.keeps_ticking()); // visible: the frames drive the loop
    web.set_visible(false, |_, _| {});
    assert!(web.keeps_ticking());
    web.set_hidden(Hidden::Pause).unwrap(); // the stretch under way keeps its rule
    assert!(web.timer_tick(100.0, |_, _| {}).unwrap());
    web.set_visible(true, |_, _| {});
    assert!(!web.keeps_ticking());
    let mut seen = Seen::new();
    web.set_visible(false, |e, _| seen.see(e));
    assert_eq!((seen.paused, web.keeps_ticking()), (1, false));
    // Report needs a max frame delta, as `new` says.
    let config = LoopConfig::new(Period::from_hz(20).unwrap()).max_frame_delta(None);
    let mut web = WebLoop::new(LoopState::new(config, Nanos(0)).unwrap(), Hidden::Pause).unwrap();
    assert_eq!(
        web.set_hidden(Hidden::Report),
        Err(WebError::ReportNeedsMaxFrameDelta)
    );
    assert_eq!(web.hidden(), Hidden::Pause);
}

#[test]
fn report_needs_a_max_frame_delta() {
    let config = LoopConfig::new(Period::from_hz(20).unwrap()).max_frame_delta(None);
    let state = LoopState::new(config, Nanos(0)).unwrap();
    assert_eq!(
        WebLoop::new(state.clone(), Hidden::Report).err(),
        Some(WebError::ReportNeedsMaxFrameDelta)
    );
    assert!(WebLoop::new(state.clone(), Hidden::Pause).is_ok());
    assert!(WebLoop::new(state, Hidden::KeepTicking).is_ok());
}

const GAP_MS: f64 = 600_000.0; // ten minutes hidden

/// 1 s visible, hidden at 1 010 ms for ten minutes (no frames), then 1 s visible again.
fn hidden_gap(hidden: Hidden, timer: bool) -> (WebLoop, Seen, Seen) {
    let mut web = new(hidden);
    let mut seen = Seen::new();
    frames(&mut web, &mut seen, 0.0, 1_000.0, 60.0);
    let mut while_hidden = Seen::new();
    web.set_visible(false, |e, _| while_hidden.see(e));
    if timer {
        let mut t = 1_010.0 + KEEP_TICKING_MS;
        while t < 1_010.0 + GAP_MS {
            web.timer_tick(t, |e, _| while_hidden.see(e)).unwrap();
            t += KEEP_TICKING_MS;
        }
    }
    web.set_visible(true, |e, _| while_hidden.see(e));
    frames(
        &mut web,
        &mut seen,
        1_020.0 + GAP_MS,
        2_020.0 + GAP_MS,
        60.0,
    );
    (web, seen, while_hidden)
}

/// The keep-alive timer's beat the tests use (the glue's own, on wasm32).
const KEEP_TICKING_MS: f64 = 10.0;

#[test]
fn pause_pauses_virtual_time_for_exactly_the_hidden_stretch() {
    let (web, seen, while_hidden) = hidden_gap(Hidden::Pause, false);
    let all = seen.updates + while_hidden.updates;
    // Virtual time: 0..1 000 ms (the latest frame before hiding) and from 1 ns before the
    // first frame back (1 020 ms + gap) to 2 020 ms + gap; the gap never counts.
    assert_eq!(all, ticks_for(1_000.0 + 1_000.0));
    assert_eq!((while_hidden.paused, seen.resumed), (1, 1));
    assert_eq!(seen.dropped + while_hidden.dropped, 0);
    assert!(!web.state().virtual_time().is_paused());
    assert_eq!(web.state().virtual_time().elapsed(), Nanos(2_000_000_001));
    assert!(seen.alphas_ok);
}

#[test]
fn pause_leaves_a_pause_of_the_game_alone() {
    let mut web = new(Hidden::Pause);
    web.frame(0.0, |_, _| {}).unwrap();
    web.state_mut().virtual_time_mut().pause(); // the game's menu
    web.set_visible(false, |_, _| {});
    web.set_visible(true, |_, _| {});
    web.frame(5_100.0, |_, _| {}).unwrap();
    assert!(web.state().virtual_time().is_paused()); // still the menu's pause
    // Telling it twice does nothing.
    web.set_visible(true, |_, _| panic!("no step"));
}

#[test]
fn report_drops_the_gap_beyond_the_max_frame_delta_with_the_exact_count() {
    let (web, seen, while_hidden) = hidden_gap(Hidden::Report, false);
    let stats = web.state().clock("main").unwrap().stats();
    let due = ticks_for(2_020.0 + GAP_MS);
    assert_eq!(stats.ticks_run + stats.ticks_dropped, due);
    assert_eq!(seen.dropped, stats.ticks_dropped);
    assert_eq!(seen.updates + while_hidden.updates, stats.ticks_run);
    // The first frame back kept at most the max frame delta's worth (250 ms: 5 ticks, and the
    // one due when the step began).
    let kept = web
        .state()
        .real_time()
        .max_frame_delta()
        .unwrap()
        .as_millis() as f64;
    assert!(stats.ticks_run <= ticks_for(2_020.0 + kept) + 1);
    assert!(stats.ticks_dropped >= ticks_for(GAP_MS - kept) - 1);
    assert_eq!((seen.paused, seen.resumed), (0, 0));
}

#[test]
fn keep_ticking_runs_every_tick_while_hidden_and_draws_nothing() {
    let (web, seen, while_hidden) = hidden_gap(Hidden::KeepTicking, true);
    assert_eq!(while_hidden.renders, 0);
    assert_eq!(seen.dropped + while_hidden.dropped, 0);
    assert_eq!(
        seen.updates + while_hidden.updates,
        ticks_for(2_020.0 + GAP_MS)
    );
    assert!(while_hidden.updates >= ticks_for(GAP_MS) - 1);
    assert!(web.is_visible());
}

#[test]
fn the_timer_does_nothing_while_visible_or_in_the_other_modes() {
    for hidden in [Hidden::Pause, Hidden::Report, Hidden::KeepTicking] {
        let mut web = new(hidden);
        web.frame(0.0, |_, _| {}).unwrap();
        assert!(!web.timer_tick(500.0, |_, _| panic!("visible")).unwrap());
        web.set_visible(false, |_, _| {});
        let stepped = web.timer_tick(700.0, |_, _| {}).unwrap();
        assert_eq!(stepped, hidden == Hidden::KeepTicking);
    }
}

#[test]
fn displays_at_30_60_and_144_hz_tick_at_the_rate_and_draw_every_frame() {
    for hz in [30.0, 60.0, 144.0] {
        let mut web = new(Hidden::default());
        let mut seen = Seen::new();
        frames(&mut web, &mut seen, 250.0, 10_250.0, hz);
        assert_eq!(seen.updates, ticks_for(10_000.0), "{hz} Hz");
        assert_eq!(seen.renders, (10.0 * hz) as u64 + 1, "{hz} Hz");
        assert!(seen.alphas_ok);
    }
}

/// Random frame schedules: display rates from 24 to 240 Hz with jitter, repeated and
/// backwards stamps and hidden stretches, in every mode. The ticks run plus the ticks dropped
/// are the ticks due in the virtual time that counted, renders happen only while visible,
/// alpha stays in [0, 1], and a pause is reported and undone.
#[test]
fn random_schedules_account_for_every_tick() {
    fn prop(hz: u8, jitter: Vec<(u8, u8)>, mode: u8) -> TestResult {
        let hz = 24.0 + f64::from(hz % 217);
        let hidden = [Hidden::Pause, Hidden::Report, Hidden::KeepTicking][usize::from(mode % 3)];
        // Smoothing (the default) or not: a smoothed frame moves the loop's time, and so
        // draws, whenever its stamp is later than the latest by more than the smoother's
        // bound (within it the smoothed time may already be ahead).
        let smooth = mode % 2 == 0;
        let mut web = new(hidden);
        if !smooth {
            web = web.with_smoothing(None);
        }
        let bound = DeltaSmoother::DEFAULT_BOUND.0 as f64 / 1e6;
        let later = |stamp: f64, latest: f64| stamp > latest + if smooth { bound } else { 0.0 };
        let mut seen = Seen::new();
        let mut stamp = 1_000.0;
        let mut latest: f64 = stamp;
        for (jit, what) in jitter {
            let wobble = (f64::from(jit) - 128.0) / 128.0 * 2.0; // ±2 ms
            match what % 16 {
                0 => stamp -= 3.0, // backwards (devtools throttling)
                1 => {}            // repeated
                2 => {
                    // hidden for up to 25 s
                    web.set_visible(false, |e, _| seen.see(e));
                    let back = latest + f64::from(jit) * 100.0;
                    let mut t = latest;
                    while hidden == Hidden::KeepTicking && t + KEEP_TICKING_MS < back {
                        t += KEEP_TICKING_MS;
                        web.timer_tick(t, |e, _| seen.see(e)).unwrap();
                    }
                    web.set_visible(true, |e, _| seen.see(e));
                    stamp = back;
                    latest = latest.max(back); // the loop stepped to it
                }
                _ => stamp += 1000.0 / hz + wobble,
            }
            let renders = seen.renders;
            web.frame(stamp, |e, _| seen.see(e)).unwrap();
            let drew = seen.renders - renders;
            if (later(stamp, latest) && drew != 1) || drew > 1 {
                return TestResult::error("a later frame that did not draw exactly once");
            }
            latest = latest.max(stamp);
        }
        let stats = web.state().clock("main").unwrap().stats();
        let virt = web.state().virtual_time().elapsed();
        let due = virt.0 / 50_000_000;
        TestResult::from_bool(
            seen.alphas_ok
                && stats.ticks_run + stats.ticks_dropped + stats.pending == due
                && seen.updates == stats.ticks_run
                && seen.dropped == stats.ticks_dropped
                && seen.paused == seen.resumed
                && !web.state().virtual_time().is_paused()
                && (hidden == Hidden::Report || stats.ticks_dropped == 0),
        )
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u8, Vec<(u8, u8)>, u8) -> TestResult);
}

#[test]
fn each_update_reads_the_state_as_of_its_tick() {
    use tickfold_core::ClockConfig;
    // Physics 30 Hz and AI 10 Hz, one 250 ms frame: AI's tick 0 (due at 100 ms) sees physics'
    // tick 2 and 100 ms of virtual time, not the end of the frame (tick 6, 250 ms).
    let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(30).unwrap()))
        .clock(ClockConfig::new("ai", Period::from_hz(10).unwrap()));
    let state = LoopState::new(config, Nanos(0)).unwrap();
    let ai = state.clock("ai").unwrap().id();
    let mut web = WebLoop::new(state, Hidden::Pause).unwrap();
    let mut seen = Vec::new();
    for stamp in [1000.0, 1250.0] {
        web.frame(stamp, |event, state| {
            if let Event::Update(tick) = event {
                if tick.clock == ai {
                    let physics = state.clock("physics").unwrap().latest_tick();
                    let ms = state.virtual_time().elapsed().0 / 1_000_000;
                    seen.push((tick.index, physics.map(|t| t.index), ms));
                }
            }
        })
        .unwrap();
    }
    assert_eq!(seen, [(0, Some(2), 100), (1, Some(5), 200)]);
    // Outside the handlers, the end of the step.
    let end = web.state().clock("physics").unwrap().latest_tick().unwrap();
    assert_eq!(
        (end.index, web.state().virtual_time().elapsed()),
        (6, Nanos::from_millis(250))
    );
}

#[test]
fn smoothed_stamps_never_go_backwards_and_stay_within_the_bound() {
    let mut web = new(Hidden::Pause).with_smoothing(Some(DeltaSmoother::new()));
    let bound = web.smoother().unwrap().bound().0;
    let (mut rng, mut previous, mut first) = (SplitMix64::new(3), Nanos(0), None);
    for frame in 0..2_000_u32 {
        let jitter = rng.below(21) as f64 / 10.0 - 1.0;
        let stamp = (f64::from(frame) * 1000.0 / 60.0 + jitter).max(0.0);
        web.frame(stamp, |_, _| {}).unwrap();
        let now = web
            .state()
            .real_time()
            .start()
            .add_nanos(web.state().real_time().elapsed().0);
        assert!(
            now >= previous,
            "frame {frame}: {now:?} before {previous:?}"
        );
        // The first stamp maps to the loop's start (0 here).
        let stamp_ns = stamp_to_nanos(stamp).unwrap().0;
        let raw = stamp_ns.saturating_sub(*first.get_or_insert(stamp_ns));
        assert!(
            now.0.abs_diff(raw) <= bound,
            "frame {frame}: {} from the stamp",
            now.0.abs_diff(raw)
        );
        previous = now;
    }
    assert!(web.smoother().unwrap().stats().snapped > 1_500);
}
