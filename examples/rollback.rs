//! Rollback netcode over ggrs: a two-player game of ships and bullets as plain data, driven
//! by the fold, each tick of the 60 Hz frame clock one ggrs frame, saves and loads through the
//! snapshot ring, refused ticks given back to the loop.
//!
//! ```text
//! cargo run --release --example rollback --features ggrs-test-support                 # two peers over loopback UDP, 5 s
//! cargo run --release --example rollback --features ggrs-test-support -- --peers 2 --seconds 10
//! cargo run --release --example rollback --features ggrs-test-support -- --sync-test
//! cargo run --release --example rollback --features ggrs-test-support -- --spectate --seconds 3
//! ```
//!
//! The game (`tickfold::ggrs_adapter::test_support::game`), the peer shell (`…::peer`), the
//! sync test (`…::sync_test`) and the loopback socket are the adapter's test support (feature `ggrs-test-support`), which the
//! adapter's own tests run too: read them in `net-adapter/src/test_support/`.
//!
//! `--peers 2` (the default) runs two peers in this process over `127.0.0.1` only, each with
//! its own `LoopState` and a socket whose link adds 40 ms ± 15 ms latency (so packets
//! reorder) and 3 % loss; peer 1 starts its loop 100 ms late, so time sync has work to do.
//! Each loop has a 10 Hz clock beside the frame clock, whose ticks are not frames. It prints
//! frames, refused ticks, rollbacks, frames re-simulated, rollback depths, frames ahead over
//! time, confirmed checksums compared and desyncs, and checks each peer's counts against its
//! loop's. `--spectate` adds a ggrs spectator hosted by peer 0 and, a third of the way in, a
//! late joiner that loads peer 0's handover (through serde, as bytes) and follows its feed;
//! both run the players' unchanged game code, one frame per tick, and it prints their frames,
//! how far they lagged behind the players (checked against the bound in the guide), what
//! their loops reported, and their confirmed checksums against the players'. `--sync-test` runs 10,000 frames in a ggrs `SyncTestSession` (every frame rolled
//! back 7 frames and checked).

use std::time::{Duration, Instant};

use tickfold::ggrs_adapter::test_support::follower::Follower;
use tickfold::ggrs_adapter::test_support::game::{self, GameHandover};
use tickfold::ggrs_adapter::test_support::peer::{Peer, PeerOptions, compare};
use tickfold::ggrs_adapter::test_support::sync_test::SyncTest;
use tickfold::ggrs_adapter::test_support::{LinkConfig, LoopbackSocket};
use tickfold::ggrs_adapter::{CatchUp, FrameInputs, Refusal};
use tickfold::{LoopConfig, LoopState, Nanos, Period};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    if args.iter().any(|a| a == "--sync-test") {
        return sync_test();
    }
    let seconds = value("--seconds").unwrap_or(5).clamp(1, 60);
    if args.iter().any(|a| a == "--spectate") {
        return spectate(Duration::from_secs(seconds));
    }
    let peers = value("--peers").unwrap_or(2);
    if peers != 2 {
        return Err("only --peers 2 is supported".into());
    }
    two_peers(Duration::from_secs(seconds))
}

fn sync_test() -> Result<(), Box<dyn std::error::Error>> {
    // Each tick goes through `Rollback::update` with both players' scripted inputs (see
    // `SyncTest::update`).
    let mut test = SyncTest::new(7, Refusal::Drop)?;
    let config = LoopConfig::new(Period::from_hz(60)?).phase(0.5);
    let mut state = LoopState::new(config, Nanos(0))?;
    let start = Instant::now();
    for f in 1..=10_000u64 {
        let events = state.advance(Nanos(f * 1_000_000_000 / 60));
        for tick in events.updates() {
            let _ = test.update(&mut state, &tick, game::step)?;
        }
    }
    let (rollback, world) = (&test.rollback, &test.game);
    let s = rollback.stats();
    if state.clock(state.alpha_clock()).unwrap().stats().ticks_run != s.frames {
        return Err("the loop's ticks and the frames disagree".into());
    }
    println!(
        "sync test, check distance 7: {} frames, {} re-simulated, 0 mismatches, {:.2?}",
        s.frames,
        s.resimulated,
        start.elapsed()
    );
    let hits: Vec<u32> = world.ships.current().iter().map(|s| s.hits).collect();
    println!(
        "hits taken by each ship: {hits:?}, bullets in flight: {}",
        world.bullets.len()
    );
    Ok(())
}

fn two_peers(run: Duration) -> Result<(), Box<dyn std::error::Error>> {
    let links = [LinkConfig::new(40, 15, 3, 1), LinkConfig::new(40, 15, 3, 2)];
    let sa = LoopbackSocket::bind(links[0])?;
    let sb = LoopbackSocket::bind(links[1])?;
    let (aa, ab) = (sa.local_addr(), sb.local_addr());
    let (stats_a, stats_b) = (sa.stats_handle(), sb.stats_handle());
    let opts = PeerOptions {
        second_clock: Some(Period::from_hz(10)?),
        ..PeerOptions::default()
    };
    let mut a = Peer::new(0, sa, ab, opts)?;
    let mut b = Peer::new(1, sb, aa, opts)?;
    println!("peer 0 on {aa}, peer 1 on {ab}: 40 ms ± 15 ms one way, 3 % loss");
    let start = Instant::now();
    let now = || Nanos(u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX));
    while !(a.running() && b.running()) {
        if start.elapsed() > Duration::from_secs(5) {
            return Err("no handshake within 5 s".into());
        }
        a.poll();
        b.poll();
        std::thread::sleep(Duration::from_millis(1));
    }
    let synced = start.elapsed();
    println!("synchronised after {synced:.2?}");
    while start.elapsed() < synced + run {
        a.step(now())?;
        if start.elapsed() > synced + Duration::from_millis(100) {
            b.step(now())?;
        } else {
            b.poll();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    for (i, p) in [&a, &b].into_iter().enumerate() {
        let s = p.rollback.stats();
        let depth_mean = if p.depths.is_empty() {
            0.0
        } else {
            p.depths.iter().map(|&d| f64::from(d)).sum::<f64>() / p.depths.len() as f64
        };
        let owed = p.frame_clock_stats().map_or(0, |c| c.pending);
        println!(
            "peer {i}: {} frame-clock ticks, {} frames, {} ticks refused back to the loop \
             ({} refusals by ggrs, {owed} owed now, {} dropped), {} ticks of the 10 Hz clock; \
             {} rollbacks, {} frames re-simulated, depth mean {depth_mean:.2} max {}; \
             desyncs {}; time-scale changes {}",
            s.ticks,
            s.frames,
            s.refused,
            s.refusals,
            s.dropped,
            p.other_ticks,
            s.rollbacks,
            s.resimulated,
            s.max_depth,
            s.desyncs,
            p.sync.changes()
        );
        let ahead: Vec<i32> = p.ahead.iter().map(|s| s.1).collect();
        println!("peer {i}: frames ahead, once per second: {ahead:?}");
    }
    for (i, st) in [stats_a, stats_b].into_iter().enumerate() {
        let st = *st.borrow();
        println!(
            "peer {i} socket: {} sent, {} lost by the link, {} received, {} malformed, {} OS errors",
            st.sent, st.lost, st.received, st.malformed, st.io_errors
        );
    }
    for (i, p) in [&a, &b].into_iter().enumerate() {
        p.check_accounting()
            .map_err(|e| format!("peer {i}'s counts disagree with its loop's: {e}"))?;
    }
    println!("each peer's counts agree with its loop's (one frame per frame-clock tick)");
    let (common, equal) = compare(&a.confirmed, &b.confirmed);
    println!("confirmed-frame checksums compared: {common}, equal: {equal}");
    if common != equal || a.rollback.stats().desyncs + b.rollback.stats().desyncs > 0 {
        return Err("the peers desynchronised".into());
    }
    Ok(())
}

/// The prediction window of the players, the spectators' catch-up bound, and the links'
/// latency and jitter (ms). The lag bound of the guide, in frames, is
/// `MAX_PREDICTION + MAX_FRAMES_BEHIND + ⌈(latency + jitter) / frame⌉ + 2`.
const MAX_PREDICTION: i32 = 8;
const MAX_FRAMES_BEHIND: usize = 10;
const LATENCY_MS: u64 = 40;
const JITTER_MS: u64 = 15;

fn spectate(run: Duration) -> Result<(), Box<dyn std::error::Error>> {
    let link = |seed| LinkConfig::new(LATENCY_MS, JITTER_MS, 3, seed);
    let (sa, sb, ss) = (
        LoopbackSocket::bind(link(1))?,
        LoopbackSocket::bind(link(2))?,
        LoopbackSocket::bind(link(3))?,
    );
    let (aa, ab, as_) = (sa.local_addr(), sb.local_addr(), ss.local_addr());
    let opts = PeerOptions {
        max_prediction: MAX_PREDICTION as usize,
        ..PeerOptions::default()
    };
    let mut a = Peer::new(
        0,
        sa,
        ab,
        PeerOptions {
            spectator: Some(as_),
            ..opts
        },
    )?;
    let mut b = Peer::new(1, sb, aa, opts)?;
    let catch_up = CatchUp::new(MAX_FRAMES_BEHIND, 2)?;
    let mut s = Follower::spectator(ss, aa, catch_up)?;
    println!(
        "players on {aa} and {ab}, spectator on {as_}: {LATENCY_MS} ms ± {JITTER_MS} ms one way, 3 % loss"
    );
    let start = Instant::now();
    let now = || Nanos(u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX));
    while !(a.running() && b.running() && s.running()) {
        if start.elapsed() > Duration::from_secs(5) {
            return Err("no handshake within 5 s".into());
        }
        a.poll();
        b.poll();
        s.poll();
        std::thread::sleep(Duration::from_millis(1));
    }
    let synced = start.elapsed();
    println!("synchronised after {synced:.2?}");
    let frame_ms = 1000.0 / 60.0;
    let transit = ((LATENCY_MS + JITTER_MS) as f64 / frame_ms).ceil() as i32;
    let bound = MAX_PREDICTION + MAX_FRAMES_BEHIND as i32 + transit + 2;
    let mut late: Option<Follower<_>> = None;
    let mut handover_at = None;
    let mut handover_frame = 0;
    let (mut lag, mut late_lag) = (Vec::new(), Vec::new());
    let mut bytes_sent = 0usize;
    while start.elapsed() < synced + run {
        let t = now();
        a.step(t)?;
        b.step(t)?;
        s.step(t)?;
        if handover_at.is_none() && start.elapsed() > synced + run / 3 {
            if let Some(handover) = a.handover() {
                handover_at = Some((handover, start.elapsed()));
            }
        }
        // The save takes 300 ms to reach the newcomer (the host's feed waits meanwhile).
        let arrived = handover_at
            .as_ref()
            .is_some_and(|(_, at)| start.elapsed() > *at + Duration::from_millis(300));
        if late.is_none() && arrived {
            if let Some((handover, _)) = handover_at.as_ref() {
                // Through serde, as it would cross the game's own channel.
                let wire = serde_json::to_vec(&handover)?;
                bytes_sent += wire.len();
                let handover: GameHandover = serde_json::from_slice(&wire)?;
                handover_frame = handover.frame;
                println!(
                    "late joiner: handover of frame {} ({} bytes), loaded 300 ms later at the \
                     host's frame {}",
                    handover.frame,
                    wire.len(),
                    a.rollback.frame()
                );
                late = Some(Follower::join(&handover, t, catch_up)?);
            }
        }
        if let Some(l) = late.as_mut() {
            let wire = serde_json::to_vec(&a.feed)?;
            bytes_sent += wire.len();
            let feed: Vec<FrameInputs<game::Input>> = serde_json::from_slice(&wire)?;
            a.feed.clear();
            l.push(&feed)?;
            l.step(t)?;
        }
        // Lag behind the slower player: the spectator's after the first second, the late
        // joiner's once it is not catching up.
        let players = a.rollback.frame().min(b.rollback.frame());
        if start.elapsed() > synced + Duration::from_secs(1) {
            lag.push(players - s.rollback.frame());
        }
        if let Some(l) = late.as_ref().filter(|l| !l.catch_up.is_catching_up()) {
            late_lag.push(players - l.rollback.frame());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let late = late.ok_or("no confirmed frame to hand over")?;
    for (name, f, lags) in [
        ("spectator", &s.rollback, &lag),
        ("late joiner", &late.rollback, &late_lag),
    ] {
        let st = f.stats();
        let max = lags.iter().copied().max().unwrap_or(0);
        let mean = lags.iter().map(|&l| f64::from(l)).sum::<f64>() / lags.len().max(1) as f64;
        println!(
            "{name}: {} frames ({} ticks refused, the host's inputs not there yet), lag behind \
             the players mean {mean:.1} max {max} frames (bound {bound})",
            st.frames, st.refused
        );
        if max > bound {
            return Err(
                format!("the {name} lagged {max} frames behind, past the bound {bound}").into(),
            );
        }
    }
    for (name, r) in [("spectator", s.report), ("late joiner", late.report)] {
        println!(
            "{name}'s loop: at most {} ticks per step, {} frames run catching up, {} ticks \
             deferred by the cap, {} dropped or given up",
            r.max_ticks_per_step, r.catch_up_frames, r.deferred, r.dropped
        );
    }
    println!("handover and feed: {bytes_sent} bytes through serde (JSON)");
    let mut bad = false;
    for (name, log) in [
        ("spectator", &s.confirmed),
        ("late joiner", &late.confirmed),
    ] {
        for (player, p) in [("peer 0", &a), ("peer 1", &b)] {
            let (common, equal) = compare(log, &p.confirmed);
            println!(
                "{name} against {player}: {common} confirmed checksums compared, {equal} equal"
            );
            bad |= common != equal || common == 0;
        }
    }
    let (common, equal) = compare(&late.confirmed, &s.confirmed);
    println!(
        "late joiner (from frame {handover_frame}) against the spectator: {common} compared, {equal} equal"
    );
    if bad || common != equal || s.too_far_behind.is_some() {
        return Err("a follower's world differs from the players'".into());
    }
    Ok(())
}
