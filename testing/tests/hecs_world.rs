//! The kit on a hecs world with its trackers (`WorldSim`): no clone of the world, no wrapper
//! that respawns it. A deterministic game passes the schedule property over arbitrary frame
//! schedules; a game that captures once per frame (a rule that depends on the number of
//! updates per frame) is caught, and only because the fingerprint holds the rendered values.

use std::hash::Hasher;

use glam::Vec3;
use quickcheck::QuickCheck;
use tickfold_core::{LoopConfig, Period, Tick};
use tickfold_hecs::hecs::{Entity, World};
use tickfold_hecs::{Interpolated, Tracker};
use tickfold_testing::{Failure, Fnv1a, MismatchKind, Schedule, WorldSim};

#[derive(Copy, Clone, Debug)]
struct Vel(Vec3);

#[derive(Copy, Clone, Debug)]
struct Name(u32);

/// How the game drives its trackers.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Capture {
    /// `before_update` before every update: the capture rule.
    Rule,
    /// The planted bug: one capture before the first update of each frame, as a
    /// variable-rate loop would; blends across every update of a multi-update step.
    OncePerFrame,
}

struct Game {
    world: World,
    /// Positions (ghosts kept for fades) and a scalar heat that only interpolates.
    trackers: (Interpolated<Vec3>, Interpolated<f32>),
    next_name: u32,
    capture: Capture,
    /// Whether the previous update was its step's last (the next one starts a frame).
    frame_start: bool,
}

fn make(capture: Capture) -> Game {
    let mut game = Game {
        world: World::new(),
        trackers: (Interpolated::new().keep_ghosts(3), Interpolated::new()),
        next_name: 0,
        capture,
        frame_start: true,
    };
    for i in 0..5 {
        game.spawn(i as f32);
    }
    game
}

impl Game {
    fn spawn(&mut self, x: f32) {
        let body = (
            Vec3::new(x, -x, 0.5 * x),
            Vel(Vec3::new(1.0 + 0.1 * x, 0.3, -0.2 * x)),
            x * 10.0,
            Name(self.next_name),
        );
        self.next_name += 1;
        self.trackers.spawn(&mut self.world, body);
    }

    fn oldest(&self) -> Option<Entity> {
        let mut q = self.world.query::<(Entity, &Name)>();
        q.iter().min_by_key(|(_, n)| n.0).map(|(e, _)| e)
    }
}

/// One tick: the trackers' capture, motion, and every few ticks a teleport, a spawn and a
/// despawn (with a ghost).
fn update(g: &mut Game, tick: &Tick) {
    match g.capture {
        Capture::Rule => _ = g.trackers.before_update(&mut g.world, tick),
        Capture::OncePerFrame => {
            if g.frame_start {
                g.trackers.capture(&mut g.world);
            }
            g.frame_start = tick.last_in_step;
        }
    }
    let dt = tick.dt_secs() as f32;
    for (p, v, heat) in g.world.query_mut::<(&mut Vec3, &Vel, &mut f32)>() {
        *p += v.0 * dt;
        *heat = (*heat + dt).min(50.0);
    }
    let i = tick.index;
    if i % 9 == 4 {
        if let Some(e) = g.oldest() {
            *g.world.get::<&mut Vec3>(e).unwrap() = Vec3::splat(i as f32 * 0.01);
            g.trackers.0.teleport(&g.world, e).unwrap();
        }
    }
    if i % 13 == 7 {
        g.spawn(i as f32 * 0.05);
    }
    if i % 17 == 11 {
        if let Some(e) = g.oldest() {
            g.trackers.despawn(&mut g.world, e).unwrap();
        }
    }
}

/// The gameplay components (positions and heat, by their bits).
fn gameplay(g: &Game, h: &mut Fnv1a) {
    let mut q = g.world.query::<(&Name, &Vec3, &f32)>();
    for (n, p, heat) in q.iter() {
        h.write_u32(n.0);
        [p.x, p.y, p.z, *heat]
            .iter()
            .for_each(|x| h.write_u32(x.to_bits()));
    }
}

/// The gameplay components and everything the trackers render at `alpha`: both instance
/// buffers, the ghosts' values and fades, the counts.
fn with_renders(g: &Game, alpha: f64) -> u64 {
    let mut h = Fnv1a::new();
    gameplay(g, &mut h);
    let (mut pos, mut heat) = (Vec::new(), Vec::new());
    let c = g.trackers.0.extract(&g.world, alpha, &mut pos);
    let d = g.trackers.1.extract(&g.world, alpha, &mut heat);
    for p in pos {
        [p.x, p.y, p.z]
            .iter()
            .for_each(|x| h.write_u32(x.to_bits()));
    }
    heat.iter().for_each(|x| h.write_u32(x.to_bits()));
    for ghost in g.trackers.0.ghosts() {
        let v = ghost.value(alpha);
        [v.x, v.y, v.z]
            .iter()
            .for_each(|x| h.write_u32(x.to_bits()));
        h.write_u64(ghost.fade(alpha, 3).to_bits());
    }
    for n in [c, d] {
        [n.interpolated, n.teleports, n.fresh, n.untracked]
            .iter()
            .for_each(|&x| h.write_u64(x));
    }
    h.finish()
}

fn gameplay_only(g: &Game, _alpha: f64) -> u64 {
    let mut h = Fnv1a::new();
    gameplay(g, &mut h);
    h.finish()
}

type Make = Box<dyn Fn() -> Game>;

fn sim(capture: Capture) -> WorldSim<Make, fn(&mut Game, &Tick)> {
    // 120 Hz ticks: refresh rates below 120 Hz and every hitch make multi-update frames.
    let config = LoopConfig::new(Period::from_hz(120).unwrap()).max_frame_delta(None);
    let update = update as fn(&mut Game, &Tick);
    WorldSim::new(config, Box::new(move || make(capture)) as Make, update).unwrap()
}

/// The schedule property with the rendered values in the fingerprint.
fn holds(capture: Capture, schedule: &Schedule) -> Result<(), Failure> {
    sim(capture).same_across_schedules([schedule], with_renders)
}

#[test]
fn a_hecs_world_with_its_trackers_is_the_same_under_every_schedule() {
    fn property(schedule: Schedule) -> Result<(), Failure> {
        holds(Capture::Rule, &schedule)
    }
    QuickCheck::new()
        .tests(150)
        .quickcheck(property as fn(Schedule) -> Result<(), Failure>);
}

#[test]
fn a_capture_once_per_frame_is_caught_by_the_rendered_values() {
    let sim = sim(Capture::OncePerFrame);
    // 30 Hz frames: four updates per frame.
    let schedule = Schedule::vsync(30u64, 40).unwrap();
    let Err(Failure::Schedule(m)) = sim.same_across_schedules([&schedule], with_renders) else {
        panic!("a capture once per frame passed the schedule check");
    };
    eprintln!("{m}");
    assert_eq!(m.kind, MismatchKind::State);
    assert!(
        m.field
            .as_deref()
            .is_some_and(|f| f.starts_with("fingerprint"))
    );
    // The simulation itself is deterministic: without the renders the bug goes unseen, as it
    // did behind a wrapper that respawned the world and cloned only the gameplay state.
    assert!(
        sim.same_across_schedules([&schedule], gameplay_only)
            .is_ok()
    );
}

#[test]
fn the_schedule_property_finds_the_planted_bug() {
    fn property(schedule: Schedule) -> Result<(), Failure> {
        holds(Capture::OncePerFrame, &schedule)
    }
    let found = QuickCheck::new()
        .tests(150)
        .quicktest(property as fn(Schedule) -> Result<(), Failure>);
    assert!(
        found.is_err(),
        "150 arbitrary schedules missed a capture once per frame"
    );
}
