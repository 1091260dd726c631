//! Two peers over loopback UDP in real time: the frame advantage settles within ±1 frame.
//!
//! This is the one test that needs the wall clock (ggrs times its sync and frame advantage
//! itself), so it lives in its own test binary: cargo runs test binaries one after another,
//! and nothing else in this process competes with it. On a loaded machine the peers' frames
//! come late and unevenly, so the test does not sample a fixed instant: it runs for up to
//! 10 s and passes as soon as, after the late start, both peers' last two once-per-second
//! samples are within ±1 frame and peer a has slowed down at least once.

use std::time::{Duration, Instant};

use tickfold_core::Nanos;
use tickfold_ggrs::test_support::peer::{Peer, PeerOptions, compare};
use tickfold_ggrs::test_support::{LinkConfig, LoopbackSocket};

fn settled(p: &Peer) -> bool {
    p.ahead.len() >= 3 && p.ahead.iter().rev().take(2).all(|s| s.1.abs() <= 1)
}

/// b starts its loop 100 ms late, so a runs ~6 frames ahead (within its prediction window
/// of 8); the exact time scale brings the frame advantage back within ±1 frame.
#[test]
fn loopback_udp_frame_advantage_settles_within_one_frame() {
    let link = [LinkConfig::new(15, 5, 2, 11), LinkConfig::new(15, 5, 2, 12)];
    let sa = LoopbackSocket::bind(link[0]).expect("bind a");
    let sb = LoopbackSocket::bind(link[1]).expect("bind b");
    let (aa, ab) = (sa.local_addr(), sb.local_addr());
    let mut a = Peer::new(0, sa, ab, PeerOptions::default()).expect("a");
    let mut b = Peer::new(1, sb, aa, PeerOptions::default()).expect("b");
    let start = Instant::now();
    let now = || Nanos(u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX));
    while !(a.running() && b.running()) {
        assert!(start.elapsed() < Duration::from_secs(10), "no handshake");
        a.poll();
        b.poll();
        std::thread::sleep(Duration::from_millis(1));
    }
    let synced = start.elapsed();
    let late = Duration::from_millis(100);
    let mut settled_at = None;
    while start.elapsed() < synced + Duration::from_secs(10) {
        a.step(now()).expect("a");
        if start.elapsed() > synced + late {
            b.step(now()).expect("b");
        } else {
            b.poll();
        }
        if a.sync.changes() > 0 && settled(&a) && settled(&b) {
            settled_at = Some(start.elapsed() - synced);
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    eprintln!(
        "settled after {settled_at:?}\nframes ahead, a: {:?}\nframes ahead, b: {:?}",
        a.ahead, b.ahead
    );
    for p in [&a, &b] {
        if let Err(e) = p.check_accounting() {
            panic!("{e}");
        }
        assert_eq!(p.rollback.stats().desyncs, 0);
    }
    assert!(
        settled_at.is_some(),
        "the frame advantage never settled within ±1 in 10 s: a {:?}, b {:?}",
        a.ahead,
        b.ahead
    );
    let (common, equal) = compare(&a.confirmed, &b.confirmed);
    assert!(common > 60, "only {common} confirmed frames compared");
    assert_eq!(common, equal);
}
