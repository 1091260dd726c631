//! Replays with seek on the game of `examples/game/` (the tutorial's hecs world, 10,000 bodies
//! and their interpolation trackers by default): records a run at 60 Hz on jittered 60 Hz
//! frames with a gust of wind as each frame's input and a keyframe every 10 s
//! (`Recorder::with_saves`), writes the recording as a replay file (JSON) and loads it back,
//! checked, then plays it with a `Player`: seeks to the middle, back, forward and to the end,
//! and plays from the middle at 0.25×, 1× and 8×, paused and one tick at a time, through a
//! viewer loop's own time scale, pause and `step_ticks`. Every state the player lands on is
//! compared with the recorded run's at that tick (a fingerprint of every component's bits and
//! of a render at alpha 0.5, the trackers included); a difference stops the program.
//!
//! Then the figures (medians of `--runs`, default 5): the time to seek to the middle of the
//! recording from its start, the worst seek (the tick just before a keyframe), and replaying
//! from the start to the middle instead, which is what a recording without keyframes costs.
//!
//! ```text
//! cargo run --release --example replay --features hecs,glam,serde,derive,quickcheck
//! cargo run --release --example replay --features hecs,glam,serde,derive,quickcheck -- --minutes 1 --bodies 1000
//! ```
//!
//! Options: `--minutes M` (10), `--bodies N` (10,000), `--save-every S` seconds (10),
//! `--runs R` (5).

#[path = "game/world.rs"]
mod world;

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::num::NonZeroU64;
use std::time::{Duration, Instant};

use tickfold::testing::{Player, Recorder, Recording, SplitMix64};
use tickfold::{LoopConfig, LoopState, Nanos, Period, Tick, TimeScale};
use world::{Game, Gust, WorldSave, fingerprint};

const TICK_HZ: u64 = 60;

fn arg(args: &[String], name: &str, default: f64) -> f64 {
    let Some(i) = args.iter().position(|a| a == name) else {
        return default;
    };
    let value = args.get(i + 1).map(String::as_str).unwrap_or("");
    value
        .parse()
        .unwrap_or_else(|_| panic!("{name}: not a number: {value:?}"))
}

fn update(game: &mut Game, tick: &Tick, gust: &Gust) {
    game.update_with(tick, gust);
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let minutes = arg(&args, "--minutes", 10.0);
    let bodies = arg(&args, "--bodies", 10_000.0) as usize;
    let every_s = arg(&args, "--save-every", 10.0);
    let runs = (arg(&args, "--runs", 5.0) as usize).max(1);
    if minutes < 1.0 {
        // The playback from the middle needs about 20 s after it.
        return Err("--minutes: at least 1".into());
    }
    let every = NonZeroU64::new((every_s * TICK_HZ as f64) as u64).ok_or("--save-every: 0")?;
    let ticks = (minutes * 60.0 * TICK_HZ as f64) as u64;
    let mid = ticks / 2;

    // The ticks whose recorded state is kept to compare with: seek targets, and the stretch
    // from the middle that the playback at several speeds goes through.
    let mut rng = SplitMix64::new(0x5EE4);
    let mut targets: BTreeSet<u64> = (mid..mid + 40 * TICK_HZ).collect();
    targets.extend([0, 1, 10 * TICK_HZ, ticks / 3, ticks - 2 * TICK_HZ]);
    targets.extend((0..20).map(|_| rng.below(ticks - 2 * TICK_HZ)));
    let targets: Vec<u64> = targets
        .into_iter()
        .filter(|&t| t < ticks - TICK_HZ)
        .collect();

    // Record: 60 Hz frames jittered by up to ±2 ms, a gust per frame.
    println!(
        "recording {minutes} min at {TICK_HZ} Hz: {bodies} bodies, a keyframe every {every_s} s"
    );
    let config = LoopConfig::new(Period::from_hz(TICK_HZ)?);
    let seen = RefCell::new(HashMap::new());
    let wanted: std::collections::HashSet<u64> = targets.iter().copied().collect();
    let mut rec = Recorder::new(config, Nanos(0), Game::new(bodies))?.with_saves(every);
    let started = Instant::now();
    let period = 1_000_000_000 / 60;
    for frame in 1..=ticks + 1 {
        let jitter = rng.below(4_000_001) as i64 - 2_000_000;
        let now = Nanos((frame * period).saturating_add_signed(jitter));
        let gust = Gust([0, 1, 2].map(|_| rng.below(9) as i8 - 4));
        rec.step(now, gust, |game, tick, gust| {
            update(game, tick, gust);
            if wanted.contains(&tick.index) {
                seen.borrow_mut().insert(tick.index, fingerprint(game, 0.5));
            }
        });
    }
    // The state after the last tick, to compare the end with.
    let at_end = fingerprint(rec.state(), 0.5);
    let recording = rec.finish();
    let mut seen = seen.into_inner();
    println!(
        "  {} frames, {} keyframes, recorded in {:.2} s",
        recording.steps().len(),
        recording.keyframes().len(),
        started.elapsed().as_secs_f64()
    );

    // The replay file: written and loaded back, checked (format, version, digest, saves).
    let started = Instant::now();
    let file = serde_json::to_string(&recording)?;
    let written = started.elapsed();
    let started = Instant::now();
    let loaded: Recording<Game, Gust, WorldSave> = serde_json::from_str(&file)?;
    println!(
        "  replay file: {} MB of JSON, written in {}, loaded and checked in {}",
        file.len() / 1_000_000,
        ms(written),
        ms(started.elapsed())
    );
    drop((file, recording));

    let mut player = Player::new(loaded).map_err(|e| e.to_string())?;
    let last = player.last_tick().ok_or("no tick recorded")?;
    seen.insert(last, at_end);
    let same = |player: &Player<Game, Gust>, what: &str| {
        let tick = player.position().tick.expect("a tick");
        let recorded = seen
            .get(&tick)
            .unwrap_or_else(|| panic!("{what}: tick {tick} not kept"));
        assert_eq!(
            fingerprint(player.world(), 0.5),
            *recorded,
            "{what}: tick {tick} differs from the recorded run"
        );
    };

    // Seeks: the middle, back, forward, the end, and the random targets.
    let mut checked = 0;
    for (what, tick) in [
        ("middle", mid),
        ("back", 10 * TICK_HZ),
        ("forward", ticks / 3),
    ]
    .into_iter()
    .chain([("end", last), ("start", 0)])
    .chain(targets.iter().map(|&t| ("random", t)).step_by(37))
    {
        let at = player.seek(tick, update).map_err(|e| e.to_string())?;
        assert_eq!(at.tick, Some(tick), "{what}");
        same(&player, what);
        checked += 1;
    }
    let refused = player
        .seek(last + 1, update)
        .map_err(|e| e.to_string())
        .unwrap_err();
    println!("  {checked} seeks landed on the recorded states; past the end: {refused}");

    // Playback from the middle through a viewer loop on 144 Hz frames: its time scale, pause
    // and single steps are the replay's.
    player.seek(mid, update).map_err(|e| e.to_string())?;
    let mut viewer = LoopState::new(LoopConfig::new(player.rate()), Nanos(0))?;
    let mut now = 0u64;
    let mut frames = |viewer: &mut LoopState<Nanos>, player: &mut Player<Game, Gust>, n: u64| {
        let mut played = 0;
        for _ in 0..n {
            now += 1_000_000_000 / 144;
            played += player.play(&viewer.advance(Nanos(now)), update).ticks;
            same(player, "playback");
        }
        played
    };
    let mut line = String::from("  played from the middle:");
    for (num, den) in [(1, 4), (1, 1), (8, 1)] {
        viewer
            .virtual_time_mut()
            .set_scale(TimeScale::ratio(num, den)?);
        let played = frames(&mut viewer, &mut player, 2 * 144);
        line += &format!(" {num}/{den}x {played} ticks in 2 s,");
    }
    viewer.virtual_time_mut().pause();
    let paused = frames(&mut viewer, &mut player, 144);
    let mut stepped = 0;
    for _ in 0..3 {
        viewer.virtual_time_mut().step_ticks(1);
        stepped += frames(&mut viewer, &mut player, 1);
    }
    println!("{line} paused {paused} ticks in 1 s, stepped {stepped} ticks in 3 steps");
    println!("  every state landed on equals the recorded run's");

    // Figures: seek to the middle from the start; the worst seek (just before a keyframe);
    // replaying from the start to the middle.
    let clock = player.recording().keyframes()[0].loop_state().alpha_clock();
    let reached: Vec<u64> = player
        .recording()
        .keyframes()
        .iter()
        .map(|k| {
            k.loop_state()
                .clock(clock)
                .map_or(0, |c| c.stats_at_step_end().next_tick)
        })
        .collect();
    let worst = reached
        .windows(2)
        .filter(|w| w[1] <= ticks)
        .max_by_key(|w| w[1] - w[0])
        .map_or(mid, |w| w[1] - 1);
    let timed = |player: &mut Player<Game, Gust>, tick: u64, from_start: bool| {
        player.rewind().map_err(|e| e.to_string())?;
        let started = Instant::now();
        if from_start {
            while player.position().tick.is_none_or(|t| t < tick) {
                player.next_tick(update).ok_or("the end")?;
            }
        } else {
            player.seek(tick, update).map_err(|e| e.to_string())?;
        }
        let took = started.elapsed();
        assert_eq!(player.position().tick, Some(tick));
        Ok::<Duration, Box<dyn std::error::Error>>(took)
    };
    // A keyframe's own tick near the middle: the cost of loading it (and one tick).
    let keyframe = reached[reached.partition_point(|&r| r <= mid).saturating_sub(1)];
    let mut seek_mid = Vec::new();
    let mut seek_worst = Vec::new();
    let mut seek_keyframe = Vec::new();
    let mut replay_mid = Vec::new();
    for _ in 0..runs {
        seek_mid.push(timed(&mut player, mid, false)?);
        same(&player, "timed seek");
        seek_worst.push(timed(&mut player, worst, false)?);
        seek_keyframe.push(timed(&mut player, keyframe, false)?);
        replay_mid.push(timed(&mut player, mid, true)?);
        same(&player, "timed replay");
    }
    let (seek_mid, seek_worst, seek_keyframe, replay_mid) = (
        median(seek_mid),
        median(seek_worst),
        median(seek_keyframe),
        median(replay_mid),
    );
    // The ticks a seek folds after loading its keyframe.
    let folded = |tick: u64| tick + 1 - reached[reached.partition_point(|&r| r <= tick) - 1];
    println!(
        "seek to the middle (tick {mid} of {ticks}, loading a keyframe and folding {} ticks): {} (median of \
         {runs}); worst seek (tick {worst}, folding {} ticks): {}; replaying from the \
         start to the middle: {} ({:.0}x the seek to the middle); seek to a keyframe's tick \
         (tick {keyframe}, loading it and folding {} tick): {}",
        folded(mid),
        ms(seek_mid),
        folded(worst),
        ms(seek_worst),
        ms(replay_mid),
        replay_mid.as_secs_f64() / seek_mid.as_secs_f64(),
        folded(keyframe),
        ms(seek_keyframe),
    );
    Ok(())
}
