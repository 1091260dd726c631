//! One driver per loop under test, all behind the same small interface: run a frame at a given
//! time (ns since the loop's start), run a batch of frames on a regular grid (for timing), and
//! say where the loop's own tick grid stands (for the drift).
//!
//! Every driver does the same per-frame work with what its loop reports: each update is counted
//! and what the loop says about it (tickfold and the floor: index, `t`, lag, `last_in_step`) is
//! folded into an integer checksum, the render's interpolation factor (and exact lag and tick
//! count where the loop has them) and the deadline too. The checksum goes to `black_box`, so
//! nothing is optimised away. The timing loops themselves are in `timing.rs`
//! ([`run_frames`], [`fold_frames`]): each driver's frame function comes in an
//! `#[inline(always)]` form (the inlinable regime) and an `#[inline(never)]` one (behind a call).

use std::hint::black_box;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bevy_app::{App, FixedUpdate};
use bevy_ecs::prelude::{ResMut, Resource};
use bevy_time::{Fixed, Real, Time, TimePlugin, TimeUpdateStrategy, Virtual};
use event_loop::{EventSettings, Events as PistonEvents};
use game_loop::{GameLoop, TimeTrait};
use input::{Event as PistonEvent, Loop};
use tickfold::{ClockConfig, Event, Events, LoopConfig, LoopState, Nanos, Period};
use window::{NoWindow, WindowSettings};

use crate::floor::{FloorLoop, FloorStep};
use crate::timing::{Regime, fold_frames, run_frames};

/// The tick rate every loop runs at, in Hz.
pub const TICK_HZ: u64 = 60;

/// The max frame delta every loop is given (Bevy's default; tickfold's default).
pub const MAX_FRAME: Duration = Duration::from_millis(250);

/// Frames on a regular grid: frame `k` at `offset + k·num/den` ns.
#[derive(Copy, Clone, Debug)]
pub struct Grid {
    /// ns added to every frame time.
    pub offset: u64,
    /// Numerator of the frame period in ns.
    pub num: u64,
    /// Denominator of the frame period.
    pub den: u64,
}

impl Grid {
    /// The time of frame `k`, ns since the start.
    #[inline(always)]
    pub fn at(&self, k: u64) -> u64 {
        self.offset + k * self.num / self.den
    }
}

/// What one frame did.
#[derive(Copy, Clone, Debug, Default)]
pub struct Frame {
    /// Fixed updates run in this frame.
    pub updates: u64,
    /// Ticks this frame reported as dropped (only tickfold reports any).
    pub reported_dropped: u64,
}

/// Where a loop's tick grid stands after a run: its ticks run, and when, relative to the last
/// frame, it would consider tick number `n` complete.
#[derive(Copy, Clone, Debug)]
pub struct GridState {
    /// Updates run so far.
    pub ticks_run: u64,
    /// Due time of the end of tick `n` on the loop's own grid, in ns after the last frame
    /// (kept relative so that a float grid's sub-nanosecond error is not lost against the
    /// 3.6·10¹² ns of an hour).
    pub ahead_ns: f64,
}

/// The interface every loop under test offers.
pub trait Driver {
    /// Runs one frame at `now` (ns since the start).
    fn frame(&mut self, now: u64) -> Frame;
    /// Runs frames `ks` of `grid` as fast as it can, each frame inlinable into the loop or
    /// behind an `#[inline(never)]` call; returns a checksum.
    fn run(&mut self, grid: Grid, ks: Range<u64>, regime: Regime) -> u64;
    /// The loop's grid after its last frame: ticks run, due time of tick `n`'s end.
    fn grid_state(&self, n: u64) -> GridState;
}

/// Which tickfold options a driver uses.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Options {
    /// Defaults (as the Scheme article's accumulator).
    Plain,
    /// `.phase(0.5)`: the accumulator starts half a tick in.
    Phase,
    /// `.hysteresis(0.5)`: Godot's `physics_jitter_fix` at ½ tick.
    Hysteresis,
}

/// The 60 Hz configuration with the given options and a 250 ms max frame delta.
pub fn tickfold_config(options: Options) -> LoopConfig {
    let rate = Period::from_hz(TICK_HZ).expect("60 Hz is a valid rate");
    let config = LoopConfig::new(rate).max_frame_delta(Some(MAX_FRAME));
    match options {
        Options::Plain => config,
        Options::Phase => config.phase(0.5),
        Options::Hysteresis => config.hysteresis(0.5),
    }
}

/// 60 Hz with neither the update cap nor the max frame delta: a frame may run 1,000 updates.
pub fn uncapped_config() -> LoopConfig {
    LoopConfig::from_clock(ClockConfig::new(CLOCK_NAMES[0], clock_rate(0)))
        .max_updates(None)
        .max_frame_delta(None)
}

/// Names for the several-clocks case.
pub const CLOCK_NAMES: [&str; 16] = [
    "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13", "c14",
    "c15",
];

/// Clock `i`'s rate in the several-clocks case: `60 + 0.013·i` Hz, so all are distinct and
/// each runs about one update per 60 Hz frame (clock 0 is exactly 60 Hz).
pub fn clock_rate(i: usize) -> Period {
    Period::from_hz_ratio(60_000 + 13 * i as u64, 1_000).expect("a valid rate")
}

/// `n` catch-up clocks at [`clock_rate`]`(0 .. n)`, 250 ms max frame delta.
pub fn clocks_config(n: usize) -> LoopConfig {
    let mut config = LoopConfig::from_clock(ClockConfig::new(CLOCK_NAMES[0], clock_rate(0)))
        .max_frame_delta(Some(MAX_FRAME));
    for (i, name) in CLOCK_NAMES.iter().enumerate().take(n).skip(1) {
        config = config.clock(ClockConfig::new(*name, clock_rate(i)));
    }
    config
}

fn tickfold_state(config: LoopConfig) -> LoopState {
    LoopState::new(config, Nanos(0)).expect("a valid configuration")
}

/// Mixes `x` into a checksum (one add and one rotate: cheap next to any loop's work).
#[inline(always)]
pub fn mix(acc: u64, x: u64) -> u64 {
    acc.rotate_left(5).wrapping_add(x)
}

/// What the shell reads of a tickfold step, through `updates()`, `render()` and `deadline()`
/// only: every update's index, `t`, lag and `last_in_step`, the render's alpha, exact lag and
/// tick count, the deadline.
#[inline(always)]
fn checksum(events: &Events<Nanos>) -> u64 {
    let mut acc = 0;
    for t in events.updates() {
        acc = mix(
            acc,
            t.index ^ t.t.0 ^ (t.lag.as_nanos() as u64) ^ u64::from(t.last_in_step),
        );
    }
    if let Some(r) = events.render() {
        acc = mix(acc, r.alpha.to_bits() ^ r.ticks ^ (r.lag.as_nanos() as u64));
    }
    if let Some(d) = events.deadline() {
        acc = mix(acc, d.0);
    }
    acc
}

/// Updates run and ticks reported as dropped or discarded, by walking the events.
fn counts(events: &Events<Nanos>) -> Frame {
    let mut f = Frame::default();
    for e in events {
        match e {
            Event::Update(_) => f.updates += 1,
            Event::DiscardedTime { ticks, .. } => f.reported_dropped += ticks,
            Event::DroppedTicks { count, .. } => f.reported_dropped += count,
            _ => {}
        }
    }
    f
}

/// tickfold through `LoopState::advance_into`: the state in place, the events into a reused
/// buffer.
pub struct TickfoldInPlace {
    state: LoopState,
    events: Events<Nanos>,
    lag_ns: i64,
}

impl TickfoldInPlace {
    /// A 60 Hz loop with the given options, started at 0.
    pub fn new(options: Options) -> Self {
        Self::with_config(tickfold_config(options))
    }

    /// A loop with this configuration, started at 0.
    pub fn with_config(config: LoopConfig) -> Self {
        TickfoldInPlace {
            state: tickfold_state(config),
            events: Events::new(),
            lag_ns: 0,
        }
    }

    #[inline(always)]
    fn frame_inline(&mut self, now: u64) -> u64 {
        self.state.advance_into(Nanos(now), &mut self.events);
        checksum(&self.events)
    }

    #[inline(never)]
    fn frame_call(&mut self, now: u64) -> u64 {
        self.frame_inline(now)
    }
}

impl Driver for TickfoldInPlace {
    fn frame(&mut self, now: u64) -> Frame {
        self.state.advance_into(Nanos(now), &mut self.events);
        if let Some(r) = self.events.render() {
            self.lag_ns = r.lag.as_nanos() as i64;
        }
        counts(&self.events)
    }

    fn run(&mut self, grid: Grid, ks: Range<u64>, regime: Regime) -> u64 {
        match regime {
            Regime::Inlinable => run_frames(self, grid, ks, Self::frame_inline),
            Regime::BehindCall => run_frames(self, grid, ks, Self::frame_call),
        }
    }

    fn grid_state(&self, n: u64) -> GridState {
        let run = self
            .state
            .clock(self.state.alpha_clock())
            .unwrap()
            .stats()
            .ticks_run;
        // Exact: tick n ends at n·dt; the lag says how far the grid is behind the last frame.
        let rate = self
            .state
            .clock(self.state.alpha_clock())
            .unwrap()
            .stats()
            .rate;
        let (pn, pd) = rate.as_nanos_ratio();
        let ahead = (n as f64 - run as f64) * pn as f64 / pd as f64;
        GridState {
            ticks_run: run,
            ahead_ns: -(self.lag_ns as f64) + ahead,
        }
    }
}

/// tickfold through the pure `LoopState::step`: state and events moved by value, `state = next`.
pub struct TickfoldStep {
    state: Option<LoopState>,
}

impl TickfoldStep {
    /// A 60 Hz loop with default options, started at 0.
    pub fn new() -> Self {
        Self::with_config(tickfold_config(Options::Plain))
    }

    /// A loop with this configuration, started at 0.
    pub fn with_config(config: LoopConfig) -> Self {
        TickfoldStep {
            state: Some(tickfold_state(config)),
        }
    }

    #[inline(always)]
    fn frame_inline(state: LoopState, now: u64) -> (LoopState, u64) {
        let (next, events) = state.step(Nanos(now));
        let sum = checksum(&events);
        // The events exist in full, as a shell would hold them.
        black_box(&events);
        (next, sum)
    }

    #[inline(never)]
    fn frame_call(state: LoopState, now: u64) -> (LoopState, u64) {
        Self::frame_inline(state, now)
    }
}

impl Driver for TickfoldStep {
    fn frame(&mut self, now: u64) -> Frame {
        let (next, events) = self.state.take().expect("state present").step(Nanos(now));
        self.state = Some(next);
        counts(&events)
    }

    fn run(&mut self, grid: Grid, ks: Range<u64>, regime: Regime) -> u64 {
        // A plain fold in a local, as a user writes it.
        let s = self.state.take().expect("state present");
        let (s, sum) = match regime {
            Regime::Inlinable => fold_frames(s, grid, ks, Self::frame_inline),
            Regime::BehindCall => fold_frames(s, grid, ks, Self::frame_call),
        };
        self.state = Some(s);
        sum
    }

    fn grid_state(&self, _n: u64) -> GridState {
        unreachable!("the behaviour runs use TickfoldInPlace")
    }
}

// ---- the floor -------------------------------------------------------------------------------

/// The floor of `floor.rs`, with the same shell work as tickfold's drivers.
pub struct FloorDriver {
    f: FloorLoop,
}

impl FloorDriver {
    /// 60 Hz, cap 8, max frame delta 250 ms: tickfold's defaults.
    pub fn new() -> Self {
        FloorDriver {
            f: FloorLoop::new(1_000_000_000, TICK_HZ, 8, MAX_FRAME.as_nanos() as u64),
        }
    }

    /// 60 Hz with no cap and no max frame delta.
    pub fn uncapped() -> Self {
        FloorDriver {
            f: FloorLoop::new(1_000_000_000, TICK_HZ, u64::MAX, u64::MAX),
        }
    }

    #[inline(always)]
    fn sum(out: &FloorStep) -> u64 {
        let mut acc = 0;
        for t in out.ticks() {
            acc = mix(
                acc,
                t.index ^ t.t ^ (t.lag as u64) ^ u64::from(t.last_in_step),
            );
        }
        if out.renders {
            acc = mix(acc, out.alpha.to_bits() ^ out.ticks ^ (out.lag as u64));
        }
        mix(acc, out.deadline)
    }

    #[inline(always)]
    fn frame_inline(&mut self, now: u64) -> u64 {
        self.f.step(now);
        Self::sum(&self.f.out)
    }

    #[inline(never)]
    fn frame_call(&mut self, now: u64) -> u64 {
        self.frame_inline(now)
    }
}

impl Driver for FloorDriver {
    fn frame(&mut self, now: u64) -> Frame {
        self.f.step(now);
        Frame {
            updates: self.f.out.count,
            reported_dropped: self.f.out.discarded.1,
        }
    }

    fn run(&mut self, grid: Grid, ks: Range<u64>, regime: Regime) -> u64 {
        match regime {
            Regime::Inlinable => run_frames(self, grid, ks, Self::frame_inline),
            Regime::BehindCall => run_frames(self, grid, ks, Self::frame_call),
        }
    }

    fn grid_state(&self, n: u64) -> GridState {
        let run = self.f.ticks_run();
        let (num, den) = self.f.out.dt();
        GridState {
            ticks_run: run,
            ahead_ns: -(self.f.out.lag as f64) + (n as f64 - run as f64) * num as f64 / den as f64,
        }
    }
}

// ---- game-loop -------------------------------------------------------------------------------

/// The fake clock behind game-loop's `TimeTrait::now()`, which takes no receiver: a global.
static FAKE_NOW_NS: AtomicU64 = AtomicU64::new(0);

/// game-loop's time type on the fake clock: ns since the start.
#[derive(Copy, Clone, Debug)]
pub struct FakeTime(u64);

impl TimeTrait for FakeTime {
    fn now() -> Self {
        FakeTime(FAKE_NOW_NS.load(Ordering::Relaxed))
    }

    fn sub(&self, other: &Self) -> f64 {
        // As game-loop's own `Time` does: `duration_since(..).as_secs_f64()`.
        Duration::from_nanos(self.0.saturating_sub(other.0)).as_secs_f64()
    }

    fn supports_sleep() -> bool {
        false
    }

    fn sleep(_seconds: f64) {}
}

/// The game state game-loop hands to its callbacks.
#[derive(Default)]
pub struct Counter {
    updates: u64,
    sum: u64,
}

/// `game-loop` 1.3.0 driven by [`FakeTime`].
pub struct GameLoopDriver {
    g: GameLoop<Counter, FakeTime, ()>,
}

impl GameLoopDriver {
    /// 60 updates per second, max frame time 0.25 s, started at 0.
    pub fn new() -> Self {
        FAKE_NOW_NS.store(0, Ordering::Relaxed);
        GameLoopDriver {
            g: GameLoop::new(
                Counter::default(),
                TICK_HZ as u32,
                MAX_FRAME.as_secs_f64(),
                (),
            ),
        }
    }

    /// One frame, as a user's crate calls it: `next_frame` is generic, so it is instantiated
    /// here and inlinable. Each update mixes in its number (game-loop's only per-update
    /// information), the render the blending factor.
    #[inline(always)]
    fn frame_inline(&mut self, now: u64) -> u64 {
        FAKE_NOW_NS.store(now, Ordering::Relaxed);
        self.g.next_frame(
            |g| {
                g.game.updates += 1;
                g.game.sum = mix(g.game.sum, g.game.updates);
            },
            |g| g.game.sum = mix(g.game.sum, g.blending_factor().to_bits()),
        );
        self.g.game.sum
    }

    #[inline(never)]
    fn frame_call(&mut self, now: u64) -> u64 {
        self.frame_inline(now)
    }
}

impl Driver for GameLoopDriver {
    fn frame(&mut self, now: u64) -> Frame {
        let before = self.g.game.updates;
        self.frame_inline(now);
        Frame {
            updates: self.g.game.updates - before,
            reported_dropped: 0,
        }
    }

    fn run(&mut self, grid: Grid, ks: Range<u64>, regime: Regime) -> u64 {
        match regime {
            Regime::Inlinable => run_frames(self, grid, ks, Self::frame_inline),
            Regime::BehindCall => run_frames(self, grid, ks, Self::frame_call),
        }
    }

    fn grid_state(&self, n: u64) -> GridState {
        let run = self.g.number_of_updates();
        let step = self.g.fixed_time_step();
        let due_s = -self.g.accumulated_time() + (n as f64 - run as f64) * step;
        GridState {
            ticks_run: run,
            ahead_ns: due_s * 1e9,
        }
    }
}

// ---- bevy_time -------------------------------------------------------------------------------

#[derive(Resource, Default)]
struct FixedCount(u64);

fn count_fixed(mut c: ResMut<FixedCount>) {
    c.0 += 1;
}

/// A minimal Bevy `App`: `TimePlugin`, `Time<Fixed>` at 60 Hz, one `FixedUpdate` system,
/// time fed through `TimeUpdateStrategy::ManualInstant`.
pub struct BevyDriver {
    app: App,
    base: Instant,
}

impl BevyDriver {
    /// The app, after its first update at the start (Bevy's first update only records the
    /// instant).
    pub fn new() -> Self {
        let base = Instant::now();
        let mut app = App::new();
        app.add_plugins(TimePlugin)
            .insert_resource(Time::<Fixed>::from_hz(TICK_HZ as f64))
            .init_resource::<FixedCount>()
            .add_systems(FixedUpdate, count_fixed)
            .insert_resource(TimeUpdateStrategy::ManualInstant(base));
        app.world_mut()
            .resource_mut::<Time<Virtual>>()
            .set_max_delta(MAX_FRAME);
        app.update();
        BevyDriver { app, base }
    }

    #[inline(always)]
    fn step(&mut self, now: u64) -> f64 {
        let instant = self.base + Duration::from_nanos(now);
        *self.app.world_mut().resource_mut::<TimeUpdateStrategy>() =
            TimeUpdateStrategy::ManualInstant(instant);
        self.app.update();
        // The render: Bevy's interpolation factor.
        self.app
            .world()
            .resource::<Time<Fixed>>()
            .overstep_fraction_f64()
    }

    fn count(&self) -> u64 {
        self.app.world().resource::<FixedCount>().0
    }

    /// Real time less virtual time: what the max delta clamp threw away, visible only by
    /// comparing two clocks (Bevy logs it at debug level).
    pub fn real_minus_virtual(&self) -> Duration {
        let w = self.app.world();
        w.resource::<Time<Real>>()
            .elapsed()
            .saturating_sub(w.resource::<Time<Virtual>>().elapsed())
    }

    /// Bevy's fixed timestep, as rounded from 60 Hz.
    pub fn timestep(&self) -> Duration {
        self.app.world().resource::<Time<Fixed>>().timestep()
    }
}

impl Driver for BevyDriver {
    fn frame(&mut self, now: u64) -> Frame {
        let before = self.count();
        self.step(now);
        Frame {
            updates: self.count() - before,
            reported_dropped: 0,
        }
    }

    fn run(&mut self, grid: Grid, ks: Range<u64>, _regime: Regime) -> u64 {
        // Bevy's frame is its whole schedule, behind calls either way.
        let sum = run_frames(self, grid, ks, |b, now| b.step(now).to_bits());
        sum.wrapping_add(self.count())
    }

    fn grid_state(&self, n: u64) -> GridState {
        let run = self.count();
        let fixed = self.app.world().resource::<Time<Fixed>>();
        let step = fixed.timestep().as_nanos() as f64;
        let over = fixed.overstep().as_nanos() as f64;
        GridState {
            ticks_run: run,
            ahead_ns: -over + (n as f64 - run as f64) * step,
        }
    }
}

// ---- Piston ----------------------------------------------------------------------------------

/// Piston's event loop in bench mode: no clock, no sleep; frames on a perfect grid of
/// `1e9 / max_fps` ns (integer division) and updates on a grid of `1e9 / ups` ns. The times
/// passed to `frame` and `run` are ignored: the schedule is fixed by the settings.
pub struct PistonBench {
    events: PistonEvents,
    window: NoWindow,
    updates: u64,
    ext_dt: f64,
}

impl PistonBench {
    /// Bench mode at `ups` updates and `fps` frames per second.
    pub fn new(ups: u64, fps: u64) -> Self {
        let settings = EventSettings {
            ups,
            max_fps: fps,
            bench_mode: true,
            ..EventSettings::new()
        };
        let mut window = NoWindow::new(&WindowSettings::new("peers", [64, 64]));
        let mut events = PistonEvents::new(settings);
        // The first event is a render at the start, before any update.
        let first = events.next(&mut window);
        debug_assert!(matches!(first, Some(PistonEvent::Loop(Loop::Render(_)))));
        PistonBench {
            events,
            window,
            updates: 0,
            ext_dt: 0.0,
        }
    }

    /// Events up to and including the next render: (updates, the render's `ext_dt`).
    #[inline(always)]
    fn next_frame(&mut self) -> (u64, f64) {
        let mut updates = 0;
        while let Some(e) = self.events.next(&mut self.window) {
            match e {
                PistonEvent::Loop(Loop::Update(_)) => updates += 1,
                PistonEvent::Loop(Loop::Render(r)) => return (updates, r.ext_dt),
                _ => {}
            }
        }
        (updates, 0.0)
    }
}

impl Driver for PistonBench {
    fn frame(&mut self, _now: u64) -> Frame {
        let (updates, ext_dt) = self.next_frame();
        self.updates += updates;
        self.ext_dt = ext_dt;
        Frame {
            updates,
            reported_dropped: 0,
        }
    }

    fn run(&mut self, grid: Grid, ks: Range<u64>, _regime: Regime) -> u64 {
        // The times are ignored: bench mode keeps its own grid.
        run_frames(self, grid, ks, |p, _now| {
            let (u, ext) = p.next_frame();
            p.updates += u;
            mix(u, ext.to_bits())
        })
    }

    fn grid_state(&self, n: u64) -> GridState {
        // `ext_dt` is frame time less last update time: the lag. Piston's update grid is
        // 1e9/ups ns, truncated; it reports dt = 1/ups s to the game.
        let step_internal = (1_000_000_000 / TICK_HZ) as f64;
        GridState {
            ticks_run: self.updates,
            ahead_ns: -self.ext_dt * 1e9 + (n as f64 - self.updates as f64) * step_internal,
        }
    }
}
