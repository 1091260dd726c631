//! Two peers of the example game in one process, over the in-memory network on simulated
//! time (fast, the network part deterministic). The real-time run over loopback UDP is in
//! `udp_realtime.rs`, its own test binary, so no other test competes with it for the CPU.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tickfold_core::Nanos;
use tickfold_ggrs::test_support::peer::{Peer, PeerOptions, compare};
use tickfold_ggrs::test_support::{LinkConfig, MemoryNet, SimClock};
use tickfold_ggrs::{NetEvent, Refusal};

const MS: u64 = 1_000_000;

fn addr(port: u16) -> SocketAddr {
    SocketAddr::from(([10, 0, 0, 1], port))
}

fn pair(link: [LinkConfig; 2], opts: PeerOptions) -> (SimClock, MemoryNet, Peer, Peer) {
    let clock = SimClock::new();
    let net = MemoryNet::new(clock.clone());
    let (a, b) = (addr(1), addr(2));
    let pa = Peer::new(0, net.socket(a, link[0]), b, opts).expect("peer a");
    let pb = Peer::new(1, net.socket(b, link[1]), a, opts).expect("peer b");
    (clock, net, pa, pb)
}

/// Steps both peers every `dt` of simulated time until both run (the handshake's retries
/// after a lost packet wait 200 ms of real time, so this may sleep a little).
fn synchronise(clock: &SimClock, a: &mut Peer, b: &mut Peer, dt: u64) -> u64 {
    let start = Instant::now();
    let mut t = clock.now();
    while !(a.running() && b.running()) {
        assert!(start.elapsed() < Duration::from_secs(10), "no handshake");
        t += dt;
        clock.set(t);
        a.poll();
        b.poll();
        std::thread::sleep(Duration::from_micros(200));
    }
    t
}

fn check_accounting(p: &Peer) {
    if let Err(e) = p.check_accounting() {
        panic!("{e}");
    }
}

#[test]
fn sixty_simulated_seconds_lossy_link_same_confirmed_checksums() {
    // 80 ms ± 20 ms one way, 5 % loss, each direction with its own seed.
    let link = [LinkConfig::new(80, 20, 5, 1), LinkConfig::new(80, 20, 5, 2)];
    let (clock, _net, mut a, mut b) = pair(link, PeerOptions::default());
    let dt = 2 * MS;
    let t0 = synchronise(&clock, &mut a, &mut b, dt);
    let mut t = t0;
    while t < t0 + 60_000 * MS {
        t += dt;
        clock.set(t);
        a.step(Nanos(t)).expect("a");
        b.step(Nanos(t)).expect("b");
    }
    for p in [&a, &b] {
        check_accounting(p);
        let s = p.rollback.stats();
        assert!(s.frames > 3_500, "{s:?}");
        assert!(s.rollbacks > 0, "the lossy link never caused a rollback");
        assert_eq!(s.desyncs, 0);
        assert_eq!(s.confirmed_missed, 0);
        assert!(
            !p.events
                .iter()
                .any(|e| matches!(e, NetEvent::Desync { .. }))
        );
    }
    let (common, equal) = compare(&a.confirmed, &b.confirmed);
    assert!(common > 3_400, "only {common} confirmed frames in common");
    assert_eq!(common, equal, "confirmed checksums differ");
}

#[test]
fn a_peer_that_stops_answering_is_reported_and_the_survivor_runs_on() {
    let opts = PeerOptions {
        disconnect_timeout: Duration::from_millis(300),
        disconnect_notify: Duration::from_millis(100),
        ..PeerOptions::default()
    };
    let link = [LinkConfig::new(20, 0, 0, 1), LinkConfig::new(20, 0, 0, 2)];
    let (clock, _net, mut a, mut b) = pair(link, opts);
    let dt = 4 * MS;
    let mut t = synchronise(&clock, &mut a, &mut b, dt);
    let t0 = t;
    while t < t0 + 2_000 * MS {
        t += dt;
        clock.set(t);
        a.step(Nanos(t)).expect("a");
        b.step(Nanos(t)).expect("b");
    }
    let before = a.rollback.frame();
    // b goes silent. a stalls at its prediction window, then (after 300 ms of real time,
    // ggrs's timer) hears of the disconnect and runs on alone.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        t += dt;
        clock.set(t);
        a.step(Nanos(t)).expect("a");
        if a.rollback.frame() > before + 120 {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        a.events
            .iter()
            .any(|e| matches!(e, NetEvent::Disconnected { addr } if *addr == self::addr(2))),
        "{:?}",
        a.events
    );
    assert!(
        a.events
            .iter()
            .any(|e| matches!(e, NetEvent::Interrupted { .. }))
    );
    assert_eq!(a.rollback.stats().disconnects, 1);
    assert!(a.rollback.frame() > before + 120, "the survivor stopped");
    assert!(
        a.refused > 0,
        "the survivor should have waited at its prediction window"
    );
    check_accounting(&a);
}

#[test]
fn forced_stall_ticks_run_plus_refused_or_dropped_equal_ticks_due() {
    for refusal in [Refusal::Retry { max_owed: 8 }, Refusal::Drop] {
        let opts = PeerOptions {
            refusal,
            time_sync: false,
            ..PeerOptions::default()
        };
        let (clock, _net, mut a, mut b) = pair([LinkConfig::PERFECT; 2], opts);
        let dt = 4 * MS;
        let mut t = synchronise(&clock, &mut a, &mut b, dt);
        let t0 = t;
        while t < t0 + 6_000 * MS {
            t += dt;
            clock.set(t);
            a.step(Nanos(t)).expect("a");
            // b stalls for half a second in the middle: a reaches its prediction window.
            let stalled = (2_000 * MS..2_500 * MS).contains(&(t - t0));
            if !stalled {
                b.step(Nanos(t)).expect("b");
            }
            check_accounting(&a);
            // What the loop still owes the game after a refusal is bounded by the policy.
            let owed = a.frame_clock_stats().map_or(0, |c| c.pending);
            match refusal {
                Refusal::Retry { max_owed } => assert!(owed <= u64::from(max_owed)),
                Refusal::Drop => assert_eq!(owed, 0),
            }
        }
        let s = a.rollback.stats();
        assert!(s.refusals > 0, "{refusal:?}: the stall was not felt: {s:?}");
        assert!(s.refused > 0 && s.dropped > 0, "{s:?}");
        check_accounting(&a);
        check_accounting(&b);
        let (common, equal) = compare(&a.confirmed, &b.confirmed);
        assert!(common > 100);
        assert_eq!(common, equal);
    }
}

#[test]
fn a_malformed_packet_is_counted_not_fatal() {
    let clock = SimClock::new();
    let net = MemoryNet::new(clock.clone());
    let (sa, sb) = (
        net.socket(addr(1), LinkConfig::PERFECT),
        net.socket(addr(2), LinkConfig::PERFECT),
    );
    let stats = sa.stats_handle();
    let mut a = Peer::new(0, sa, addr(2), PeerOptions::default()).expect("a");
    let mut b = Peer::new(1, sb, addr(1), PeerOptions::default()).expect("b");
    let dt = 4 * MS;
    let mut t = synchronise(&clock, &mut a, &mut b, dt);
    for _ in 0..200 {
        net.inject(addr(2), addr(1), vec![0xFF; 7]);
        t += dt;
        clock.set(t);
        a.step(Nanos(t)).expect("a");
        b.step(Nanos(t)).expect("b");
    }
    assert_eq!(stats.borrow().malformed, 200);
    assert!(stats.borrow().received > 100);
    assert!(a.rollback.frame() > 40);
    let (common, equal) = compare(&a.confirmed, &b.confirmed);
    assert!(common > 20);
    assert_eq!(common, equal);
}
