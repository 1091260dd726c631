//! Frames come from one clock: a loop with a 60 Hz frame clock and a 10 Hz second clock runs
//! one ggrs frame per frame-clock tick, gives refused ticks back to the loop, and refuses a
//! tick of the other clock with a typed error.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
use tickfold_ggrs::ggrs::SessionBuilder;
use tickfold_ggrs::test_support::game::{self, Config, Game};
use tickfold_ggrs::test_support::peer::{Peer, PeerOptions, compare};
use tickfold_ggrs::test_support::{LinkConfig, MemoryNet, SimClock};
use tickfold_ggrs::{NetError, Refusal, Rollback};

const MS: u64 = 1_000_000;

fn addr(port: u16) -> SocketAddr {
    SocketAddr::from(([10, 0, 0, 1], port))
}

fn check(p: &Peer) {
    if let Err(e) = p.check_accounting() {
        panic!("peer {}: {e}", p.handle);
    }
}

#[test]
fn a_second_clock_runs_beside_one_ggrs_frame_per_frame_clock_tick() {
    let opts = PeerOptions {
        // Nothing dropped: every refused tick must run again.
        refusal: Refusal::Retry { max_owed: 10_000 },
        time_sync: false,
        second_clock: Some(Period::from_hz(10).expect("rate")),
        ..PeerOptions::default()
    };
    let clock = SimClock::new();
    let net = MemoryNet::new(clock.clone());
    let link = LinkConfig::new(20, 5, 0, 3);
    let mut a = Peer::new(0, net.socket(addr(1), link), addr(2), opts).expect("a");
    let mut b = Peer::new(1, net.socket(addr(2), link), addr(1), opts).expect("b");
    let start = Instant::now();
    let mut t = 0;
    while !(a.running() && b.running()) {
        assert!(start.elapsed() < Duration::from_secs(10), "no handshake");
        t += 4 * MS;
        clock.set(t);
        a.poll();
        b.poll();
        std::thread::sleep(Duration::from_micros(200));
    }
    let t0 = t;
    while t < t0 + 4_000 * MS {
        t += 4 * MS;
        clock.set(t);
        a.step(Nanos(t)).expect("a");
        // b stalls for half a second: a reaches its prediction window, ggrs refuses its ticks.
        if !(1_500 * MS..2_000 * MS).contains(&(t - t0)) {
            b.step(Nanos(t)).expect("b");
        }
        check(&a);
        check(&b);
    }
    for p in [&a, &b] {
        let state = p.state.as_ref().expect("running");
        let second = state
            .clock("second")
            .ok()
            .map(|c| c.id())
            .and_then(|id| state.clock(id).ok().map(|c| c.stats()))
            .expect("second clock");
        // The 10 Hz clock's ticks are not frames; nothing refused them.
        assert_eq!(second.ticks_run, p.other_ticks);
        assert_eq!(second.ticks_refused, 0);
        assert!(second.ticks_run > 30, "{second:?}");
        // One ggrs frame per frame-clock tick run (`check` compared ggrs's current frame, the
        // adapter's and the loop's `ticks_run`); each tick ran once, in order, and the numbers
        // skipped are the ones the loop dropped (b's loop drops some after its stall, over the
        // max frame delta; a's none).
        let frames = p.frame_clock_stats().expect("running");
        let ran: Vec<u64> = p.log.iter().filter(|e| e.1).map(|e| e.0).collect();
        assert!(ran.windows(2).all(|w| w[0] < w[1]), "{:?}", p.log);
        assert_eq!(ran.len() as u64 + frames.ticks_dropped, frames.next_tick);
        // A refused tick ran again later with the same number (or is still owed: the loop's
        // next tick of the frame clock).
        let next = frames.next_tick;
        for (i, &(index, advanced)) in p.log.iter().enumerate() {
            let again = p.log[i..].contains(&(index, true)) || index >= next;
            assert!(advanced || again, "tick {index}");
        }
        // The core's capture rule: one capture per step whose last frame-clock tick ran.
        assert_eq!(p.game.ships.stats().captures, p.captured_steps);
    }
    let frames = a.frame_clock_stats().expect("running");
    let s = a.rollback.stats();
    assert!(
        frames.ticks_refused > 20,
        "the stall was not felt: {frames:?}"
    );
    assert_eq!((frames.ticks_refused, frames.ticks_dropped), (s.refused, 0));
    assert_eq!(frames.ticks_run, s.frames);
    assert!(s.frames > 200, "{s:?}");
    let (common, equal) = compare(&a.confirmed, &b.confirmed);
    assert!(common > 150, "only {common} confirmed frames in common");
    assert_eq!(common, equal, "confirmed checksums differ");
}

#[test]
fn a_tick_of_another_clock_is_a_typed_error_and_touches_nothing() {
    // The frame clock is the second clock declared; the main clock is a 10 Hz "ai" clock.
    let config = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10).expect("rate")))
        .clock(ClockConfig::new(
            "frames",
            Period::from_hz(60).expect("rate"),
        ))
        .alpha_clock("frames");
    let mut state = LoopState::new(config, Nanos(0)).expect("config");
    let (ai, frames) = (
        state.clock("ai").expect("ai").id(),
        state.clock("frames").expect("frames").id(),
    );
    let mut world = Game::new();
    world.clock = frames;
    let mut session = SessionBuilder::<Config>::new()
        .with_num_players(2)
        .and_then(|b| b.with_check_distance(2).start_synctest_session())
        .expect("session");
    let mut rollback = Rollback::<Config, Game>::new(&world, 8, Refusal::Drop).expect("ring");
    assert_eq!(rollback.frame_clock(), frames);
    let (mut ai_ticks, mut errors) = (0, 0);
    for f in 1..=30 {
        let events = state.advance(Nanos(f * 1_000_000_000 / 30));
        for tick in events.updates() {
            let inputs = [(0, 1), (1, 2)];
            let before = (
                rollback.stats(),
                session.current_frame(),
                world.ships.current().to_vec(),
            );
            let result = rollback.update(
                &mut state,
                &mut session,
                &tick,
                &inputs,
                &mut world,
                game::step,
            );
            if tick.clock == ai {
                ai_ticks += 1;
                let e = result.expect_err("a tick of the ai clock is not a frame");
                assert_eq!(
                    e,
                    NetError::NotFrameClock {
                        clock: ai,
                        index: tick.index,
                        frame_clock: frames,
                    }
                );
                assert!(e.to_string().contains("frames come from clock 1"), "{e}");
                let after = (
                    rollback.stats(),
                    session.current_frame(),
                    world.ships.current().to_vec(),
                );
                assert_eq!(
                    before, after,
                    "a refused tick of another clock changed something"
                );
                errors += 1;
            } else {
                assert_eq!(result.map(|a| a.advanced), Ok(1));
            }
        }
    }
    assert_eq!((ai_ticks, errors), (10, 10));
    let ai_stats = state.clock(ai).expect("ai").stats();
    assert_eq!((ai_stats.ticks_run, ai_stats.ticks_refused), (10, 0));
    let frame_stats = state.clock(frames).expect("frames").stats();
    assert_eq!(frame_stats.ticks_run, 60);
    assert_eq!(rollback.stats().frames, 60);
    assert_eq!(i64::from(session.current_frame()), 60);
}
