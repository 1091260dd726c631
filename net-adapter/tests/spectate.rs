//! Followers on the adapter: a ggrs spectator of two players, and a late joiner that loads the
//! host's handover and follows its feed, over the in-memory network on simulated time. Each
//! runs the players' unchanged game code, one frame per tick of its frame clock.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ggrs::SpectatorSession;
use tickfold_core::Nanos;
use tickfold_ggrs::test_support::follower::Follower;
use tickfold_ggrs::test_support::game::{Config, GameHandover};
use tickfold_ggrs::test_support::peer::{Peer, PeerOptions, compare};
use tickfold_ggrs::test_support::{LinkConfig, MemoryNet, SimClock};
use tickfold_ggrs::{CatchUp, Feed, NetEvent, ggrs};

const MS: u64 = 1_000_000;

fn addr(port: u16) -> SocketAddr {
    SocketAddr::from(([10, 0, 0, 1], port))
}

struct Match {
    clock: SimClock,
    a: Peer,
    b: Peer,
    s: Follower<SpectatorSession<Config>>,
    t: u64,
}

/// Two players (player 0 hosts the spectator) and a ggrs spectator, 30 ms ± 10 ms one way
/// and 2 % loss on every link, synchronised.
fn start(catch_up: CatchUp) -> Match {
    start_with(catch_up, |b| b)
}

/// As [`start`], with other ggrs settings for the spectator's session.
fn start_with(
    catch_up: CatchUp,
    ggrs: impl FnOnce(ggrs::SessionBuilder<Config>) -> ggrs::SessionBuilder<Config>,
) -> Match {
    let clock = SimClock::new();
    let net = MemoryNet::new(clock.clone());
    let (aa, ab, as_) = (addr(1), addr(2), addr(3));
    let opts = |spectator| PeerOptions {
        spectator,
        ..PeerOptions::default()
    };
    let a = Peer::new(
        0,
        net.socket(aa, LinkConfig::new(30, 10, 2, 1)),
        ab,
        opts(Some(as_)),
    );
    let b = Peer::new(
        1,
        net.socket(ab, LinkConfig::new(30, 10, 2, 2)),
        aa,
        opts(None),
    );
    let session = ggrs(ggrs::SessionBuilder::new())
        .start_spectator_session(aa, net.socket(as_, LinkConfig::new(30, 10, 2, 3)));
    let s = Follower::from_session(session, catch_up);
    let mut m = Match {
        clock,
        a: a.expect("a"),
        b: b.expect("b"),
        s: s.expect("spectator"),
        t: 0,
    };
    let begun = Instant::now();
    while !(m.a.running() && m.b.running() && m.s.running()) {
        assert!(begun.elapsed() < Duration::from_secs(10), "no handshake");
        m.t += 2 * MS;
        m.clock.set(m.t);
        m.a.poll();
        m.b.poll();
        m.s.poll();
        std::thread::sleep(Duration::from_micros(200));
    }
    m
}

impl Match {
    /// Steps everyone every 2 ms of simulated time until `until`; the spectator only polls
    /// (a stalled game whose network still runs) while `stalled(t)`. Returns the players'
    /// lead over the spectator in frames, sampled every step.
    fn run(&mut self, until: u64, stalled: impl Fn(u64) -> bool) -> Vec<i32> {
        let mut lead = Vec::new();
        while self.t < until {
            self.t += 2 * MS;
            self.clock.set(self.t);
            self.a.step(Nanos(self.t)).expect("a");
            self.b.step(Nanos(self.t)).expect("b");
            if stalled(self.t) {
                self.s.poll();
            } else {
                self.s.step(Nanos(self.t)).expect("spectator");
            }
            lead.push(
                self.a.rollback.frame().min(self.b.rollback.frame()) - self.s.rollback.frame(),
            );
        }
        lead
    }
}

#[test]
fn a_spectator_runs_the_players_frames_one_per_tick_with_their_checksums() {
    let mut m = start(CatchUp::new(10, 2).expect("catch-up"));
    let t0 = m.t;
    let lead = m.run(t0 + 20_000 * MS, |_| false);
    let s = &m.s;
    let stats = s.rollback.stats();
    assert!(stats.frames > 1_100, "{stats:?}");
    // One ggrs frame per tick of the frame clock: every tick either ran one or was refused.
    let clock = s.frame_clock_stats().expect("the loop ran");
    assert_eq!(clock.ticks_run, stats.frames, "{clock:?} {stats:?}");
    assert_eq!(clock.ticks_refused, stats.refused);
    assert_eq!(stats.ticks, stats.frames + stats.refused + stats.lost);
    assert_eq!(
        (stats.rollbacks, stats.lost),
        (0, 0),
        "a spectator never rolls back"
    );
    // Its ring saved every frame, so its checksums are there as for a player, and equal.
    for player in [&m.a.confirmed, &m.b.confirmed] {
        let (common, equal) = compare(&s.confirmed, player);
        assert!(common > 1_100, "only {common} frames compared");
        assert_eq!(
            common, equal,
            "the spectator's world differs from a player's"
        );
    }
    // Its lag behind the players, after the first second: the bound documented in the guide,
    // max prediction (8) + max_frames_behind (10) + one-way latency and jitter (3 frames) + 2.
    // Interpolated renders: the capture rule ran once per step that ran a frame.
    assert_eq!(s.game.ships.stats().captures, s.report.captured_steps);
    let worst = lead[500..].iter().copied().max().unwrap_or(0);
    eprintln!(
        "spectator: {stats:?} {:?}; lead after 1 s: worst {worst}, min {:?}",
        s.report,
        lead[500..].iter().min()
    );
    assert!(
        worst <= 8 + 10 + 3 + 2,
        "the spectator lagged {worst} frames behind"
    );
    assert_eq!(m.s.too_far_behind, None);
}

#[test]
fn a_stalled_spectator_catches_up_with_extra_ticks_under_the_cap() {
    let mut m = start(CatchUp::new(10, 3).expect("catch-up"));
    let t0 = m.t;
    // Half a second without a step (the network still polled): 30 frames behind.
    let stall = (t0 + 3_000 * MS)..(t0 + 3_500 * MS);
    let lead = m.run(t0 + 8_000 * MS, |t| stall.contains(&t));
    let r = m.s.report;
    eprintln!(
        "stalled spectator: {r:?} {:?} lead max {:?}",
        m.s.rollback.stats(),
        lead.iter().max()
    );
    // The first step after the stall runs the cap's 8 ticks and reports the rest: the loop's
    // max frame delta (250 ms) gave up half the stall, the cap deferred what it kept.
    assert_eq!(r.max_ticks_per_step, 8, "{r:?}");
    assert!(r.dropped > 0 && r.deferred > 0, "{r:?}");
    // Then it caught up at 3 ticks per 60 Hz period, each tick one frame.
    assert!(r.catch_up_frames > 10, "{r:?}");
    assert!(
        m.s.catch_up.changes() >= 2,
        "it never went back to real time"
    );
    assert!(!m.s.catch_up.is_catching_up());
    let stats = m.s.rollback.stats();
    assert!(stats.frames_behind <= 10, "{stats:?}");
    let clock = m.s.frame_clock_stats().expect("the loop ran");
    assert_eq!(clock.ticks_run, stats.frames);
    let worst_after = lead[lead.len() - 500..].iter().copied().max().unwrap_or(0);
    assert!(
        worst_after <= 8 + 10 + 3 + 2,
        "still {worst_after} frames behind"
    );
    let (common, equal) = compare(&m.s.confirmed, &m.a.confirmed);
    assert!(
        common > 400 && common == equal,
        "{common} compared, {equal} equal"
    );
    assert_eq!(m.s.too_far_behind, None);
}

#[test]
fn ggrs_catching_up_several_frames_per_call_still_runs_one_frame_per_tick() {
    // A spectator whose ggrs session catches up by itself, 4 frames per call past 5 behind:
    // the adapter runs one per tick and keeps the rest for the next ticks.
    let mut m = start_with(CatchUp::new(10, 2).expect("catch-up"), |b| {
        b.with_max_frames_behind(5)
            .and_then(|b| b.with_catchup_speed(4))
            .expect("ggrs settings")
    });
    let t0 = m.t;
    let stall = (t0 + 2_000 * MS)..(t0 + 2_400 * MS);
    let _ = m.run(t0 + 6_000 * MS, |t| stall.contains(&t));
    let stats = m.s.rollback.stats();
    let clock = m.s.frame_clock_stats().expect("the loop ran");
    assert_eq!(clock.ticks_run, stats.frames, "{clock:?} {stats:?}");
    assert_eq!(m.s.report.max_ticks_per_step, 8);
    assert!(m.s.report.catch_up_frames > 0, "{:?}", m.s.report);
    let (common, equal) = compare(&m.s.confirmed, &m.a.confirmed);
    assert!(
        common > 300 && common == equal,
        "{common} compared, {equal} equal"
    );
}

/// The host's handover, through serde (bincode, a binary format) as it would cross a socket.
fn over_the_wire(h: &GameHandover) -> GameHandover {
    let bytes = bincode::serialize(h).expect("serialize");
    bincode::deserialize(&bytes).expect("deserialize")
}

#[test]
fn a_late_joiner_ends_identical_to_a_spectator_that_watched_from_the_start() {
    let mut m = start(CatchUp::new(10, 2).expect("catch-up"));
    let t0 = m.t;
    let _ = m.run(t0 + 3_000 * MS, |_| false);
    let handover = m.a.handover().expect("a confirmed frame in the ring");
    eprintln!(
        "handover of frame {} ({} inputs) at host frame {}",
        handover.frame,
        handover.inputs.len(),
        m.a.rollback.frame()
    );
    assert!(handover.frame > 150, "handed over frame {}", handover.frame);
    // The save takes half a second to arrive; the host's feed waits for the newcomer.
    let _ = m.run(m.t + 500 * MS, |_| false);
    let mut late: Follower<Feed<Config>> = Follower::join(
        &over_the_wire(&handover),
        Nanos(m.t),
        CatchUp::new(10, 2).expect("catch-up"),
    )
    .expect("join");
    while m.t < t0 + 12_000 * MS {
        let _ = m.run(m.t + 2 * MS, |_| false);
        late.push(&m.a.feed).expect("the feed has no gap");
        m.a.feed.clear();
        late.step(Nanos(m.t)).expect("late joiner");
    }
    let (s, l) = (&m.s, &late);
    eprintln!(
        "late: {:?} {:?} frames s {} l {}",
        l.report,
        l.rollback.stats(),
        s.rollback.frame(),
        l.rollback.frame()
    );
    // It started at the handed-over frame and caught up with the spectator.
    assert_eq!(l.confirmed.first().map(|c| c.0), Some(handover.frame));
    assert!(l.report.catch_up_frames > 20, "{:?}", l.report);
    assert!(
        (s.rollback.frame() - l.rollback.frame()).abs() <= 10,
        "spectator at {}, late joiner at {}",
        s.rollback.frame(),
        l.rollback.frame()
    );
    // The same world at every frame both saw, to the last.
    let (common, equal) = compare(&l.confirmed, &s.confirmed);
    let frames = usize::try_from(l.rollback.frame() - handover.frame).expect("frames");
    assert!(
        common + 12 > frames && common > 400,
        "{common} of {frames} frames compared"
    );
    assert_eq!(
        common, equal,
        "the late joiner's world differs from the spectator's"
    );
    let (common, equal) = compare(&l.confirmed, &m.a.confirmed);
    assert!(common > 400 && common == equal);
    assert_eq!(
        l.rollback.stats().feed_missed + m.a.rollback.stats().feed_missed,
        0
    );
}

#[test]
fn a_spectator_too_far_behind_is_reported_once_and_follows_again_from_a_handover() {
    let mut m = start(CatchUp::new(10, 2).expect("catch-up"));
    let t0 = m.t;
    // Two seconds without a step: 120 frames behind, past ggrs's buffer of 60.
    let stall = (t0 + 2_000 * MS)..(t0 + 4_000 * MS);
    let _ = m.run(t0 + 5_000 * MS, |t| stall.contains(&t));
    let lost_at = m.s.too_far_behind.expect("reported");
    eprintln!(
        "too far at {lost_at}: {:?} {:?}",
        m.s.report,
        m.s.rollback.stats()
    );
    // Reported once: the adapter stopped asking the dead session, and the fold reports the
    // ticks it refuses (dropped past the `Refusal`'s backlog), so nothing is frozen silently.
    let stats = m.s.rollback.stats();
    assert_eq!(m.s.report.too_far_reports, 1);
    assert_eq!(m.s.rollback.frame(), lost_at);
    assert!(stats.refused > 0 && stats.dropped > 0, "{stats:?}");
    assert!(
        !m.s.events
            .iter()
            .any(|e| matches!(e, NetEvent::Disconnected { .. })),
        "the host dropped the spectator"
    );
    // It follows again from a handover, and ends identical to the players.
    let handover = over_the_wire(&m.a.handover().expect("a confirmed frame in the ring"));
    let mut again: Follower<Feed<Config>> = Follower::join(
        &handover,
        Nanos(m.t),
        CatchUp::new(10, 2).expect("catch-up"),
    )
    .expect("join");
    while m.t < t0 + 9_000 * MS {
        let _ = m.run(m.t + 2 * MS, |_| false);
        again.push(&m.a.feed).expect("the feed has no gap");
        m.a.feed.clear();
        again.step(Nanos(m.t)).expect("rejoined");
    }
    let (common, equal) = compare(&again.confirmed, &m.b.confirmed);
    assert!(
        common > 150 && common == equal,
        "{common} compared, {equal} equal"
    );
    assert!(again.rollback.frame() > handover.frame + 200);
    // The dead spectator kept stepping all along and reported its loss only once.
    assert_eq!(m.s.report.too_far_reports, 1);
    assert_eq!(m.s.rollback.frame(), lost_at);
}

#[test]
fn a_handover_that_does_not_load_to_the_hosts_checksum_is_refused() {
    let mut m = start(CatchUp::new(10, 2).expect("catch-up"));
    let t0 = m.t;
    let _ = m.run(t0 + 1_000 * MS, |_| false);
    let mut handover = over_the_wire(&m.a.handover().expect("a confirmed frame in the ring"));
    handover.world.0[0].x += 1; // another game's world, or a corrupted save
    let refused = Follower::join(
        &handover,
        Nanos(m.t),
        CatchUp::new(10, 2).expect("catch-up"),
    );
    let err = refused.err().expect("refused").to_string();
    assert!(
        err.contains(&format!("handover of frame {}", handover.frame)),
        "{err}"
    );
}

#[test]
fn catch_up_settings_are_checked_as_ggrs_checks_them() {
    assert!(CatchUp::new(0, 2).is_err());
    assert!(CatchUp::new(60, 2).is_err());
    assert!(CatchUp::new(10, 0).is_err());
    let err = CatchUp::new(60, 2).expect_err("60 frames");
    assert!(matches!(err, ggrs::GgrsError::InvalidRequest { .. }));
}
