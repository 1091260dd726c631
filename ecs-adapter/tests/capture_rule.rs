//! The capture rule of `Tick::last_in_step`, checked against the naive rule: random steps of
//! one to four updates, with spawns (through the tracker or bare), despawns (with ghosts or
//! not), moves and teleports in any update, and a second clock whose updates (marked last in
//! their step, after the main clock's last) the tracker must ignore. One world captures by the
//! rule (`before_update`), the other before every update of the main clock; after every step
//! both must draw the same thing for every entity and every ghost.

use std::collections::HashMap;

use hecs::{Entity, World};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{ClockId, Lag, Nanos, Period, Tick};
use tickfold_hecs::{BlendMode, Interpolated, Sample, Tracker};

#[derive(Clone, Debug)]
enum Op {
    Spawn { tracked: bool, x: i16 },
    Despawn { who: u8, ghost: bool },
    Move { who: u8, by: i8 },
    Teleport { who: u8, to: i16, bump_first: bool },
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Op {
        let who = u8::arbitrary(g);
        match u8::arbitrary(g) % 8 {
            0 | 1 => Op::Spawn {
                tracked: u8::arbitrary(g) % 4 != 0,
                x: i16::arbitrary(g) % 1000,
            },
            2 => Op::Despawn {
                who,
                ghost: bool::arbitrary(g),
            },
            3 | 4 => Op::Teleport {
                who,
                to: i16::arbitrary(g) % 1000,
                bump_first: bool::arbitrary(g),
            },
            _ => Op::Move {
                who,
                by: i8::arbitrary(g),
            },
        }
    }
}

/// One step: its updates (each a list of ops), whether a second clock ticks after them, and
/// the render's alpha.
#[derive(Clone, Debug)]
struct Step {
    updates: Vec<Vec<Op>>,
    other_clock: bool,
    alpha: u8,
}

impl Arbitrary for Step {
    fn arbitrary(g: &mut Gen) -> Step {
        let n = usize::from(u8::arbitrary(g) % 5); // 0 to 4 updates
        Step {
            updates: (0..n)
                .map(|_| {
                    let k = usize::from(u8::arbitrary(g) % 4);
                    (0..k).map(|_| Op::arbitrary(g)).collect()
                })
                .collect(),
            other_clock: bool::arbitrary(g),
            alpha: u8::arbitrary(g),
        }
    }
}

struct Side {
    world: World,
    tracked: (Interpolated<f64>, Interpolated<f32>),
    alive: Vec<Entity>,
}

impl Side {
    fn new(mode: BlendMode) -> Side {
        Side {
            world: World::new(),
            // Both follow clock 0 by choice: a step may hand clock 1's tick first, which
            // would bind an unbound tracker to clock 1.
            tracked: (
                Interpolated::new().keep_ghosts(3).clock(ClockId(0)),
                Interpolated::new()
                    .mode(mode)
                    .adopt(false)
                    .clock(ClockId(0)),
            ),
            alive: Vec::new(),
        }
    }

    fn pick(&self, who: u8) -> Option<Entity> {
        (!self.alive.is_empty()).then(|| self.alive[usize::from(who) % self.alive.len()])
    }

    fn apply(&mut self, op: &Op) {
        match *op {
            Op::Spawn { tracked, x } => {
                let x = f64::from(x);
                let bundle = (x, x as f32);
                let e = if tracked {
                    self.tracked.spawn(&mut self.world, bundle)
                } else {
                    self.world.spawn(bundle)
                };
                self.alive.push(e);
            }
            Op::Despawn { who, ghost } => {
                let Some(e) = self.pick(who) else { return };
                self.alive.retain(|a| *a != e);
                if ghost {
                    self.tracked.despawn(&mut self.world, e).unwrap();
                } else {
                    self.world.despawn(e).unwrap();
                }
            }
            Op::Move { who, by } => {
                let Some(e) = self.pick(who) else { return };
                *self.world.get::<&mut f64>(e).unwrap() += f64::from(by);
                *self.world.get::<&mut f32>(e).unwrap() += f32::from(by);
            }
            Op::Teleport {
                who,
                to,
                bump_first,
            } => {
                let Some(e) = self.pick(who) else { return };
                let (t, w) = (&self.tracked, &self.world);
                if bump_first {
                    t.0.teleport(w, e).unwrap();
                    t.1.teleport(w, e).unwrap();
                }
                *w.get::<&mut f64>(e).unwrap() = f64::from(to);
                *w.get::<&mut f32>(e).unwrap() = f32::from(to);
                if !bump_first {
                    t.0.teleport(w, e).unwrap();
                    t.1.teleport(w, e).unwrap();
                }
            }
        }
    }

    /// What the render draws: every entity's samples, every ghost's place and fade.
    #[allow(clippy::type_complexity)]
    fn drawn(
        &self,
        alpha: f64,
    ) -> (
        HashMap<Entity, Sample<f64>>,
        HashMap<Entity, Sample<f32>>,
        Vec<(Entity, u64, f64)>,
        Vec<u64>,
    ) {
        let (mut a, mut b) = (HashMap::new(), HashMap::new());
        self.tracked.0.for_each(&self.world, alpha, |e, s| {
            a.insert(e, s);
        });
        self.tracked.1.for_each(&self.world, alpha, |e, s| {
            b.insert(e, s);
        });
        let ghosts = self
            .tracked
            .0
            .ghosts()
            .iter()
            .map(|g| (g.entity, g.value(alpha).to_bits(), g.fade(alpha, 3)))
            .collect();
        let mut out = Vec::new();
        self.tracked.0.extract(&self.world, alpha, &mut out);
        let mut bits: Vec<u64> = out.iter().map(|v| v.to_bits()).collect();
        bits.sort_unstable();
        (a, b, ghosts, bits)
    }
}

fn tick(clock: u16, last_in_step: bool) -> Tick {
    Tick {
        clock: ClockId(clock),
        index: 0,
        t: Nanos(0),
        dt: Period::ONE_SECOND,
        lag: Lag::ZERO,
        last_in_step,
    }
}

fn run(steps: &[Step], mode: BlendMode) -> Result<(), String> {
    let (mut rule, mut naive) = (Side::new(mode), Side::new(mode));
    let (mut steps_with_updates, mut updates) = (0_u64, 0_u64);
    for (k, step) in steps.iter().enumerate() {
        let n = step.updates.len();
        for (i, ops) in step.updates.iter().enumerate() {
            rule.tracked
                .before_update(&mut rule.world, &tick(0, i + 1 == n));
            naive
                .tracked
                .before_update(&mut naive.world, &tick(0, true));
            for op in ops {
                rule.apply(op);
                naive.apply(op);
            }
        }
        if step.other_clock {
            // The second clock's last update comes after the main clock's: a tracker that
            // captured here would blend nothing.
            rule.tracked.before_update(&mut rule.world, &tick(1, true));
            naive
                .tracked
                .before_update(&mut naive.world, &tick(1, true));
        }
        steps_with_updates += u64::from(n > 0);
        updates += n as u64;
        let alpha = f64::from(step.alpha) / 255.0;
        let (got, want) = (rule.drawn(alpha), naive.drawn(alpha));
        if got != want {
            return Err(format!(
                "step {k} at alpha {alpha}: by the rule {got:?}, naive {want:?}"
            ));
        }
    }
    let (r, nv) = (rule.tracked.0.stats(), naive.tracked.0.stats());
    if r.captures != steps_with_updates || nv.captures != updates {
        return Err(format!("captures: rule {r:?}, naive {nv:?}"));
    }
    Ok(())
}

#[test]
fn capturing_before_the_last_update_draws_what_capturing_before_every_update_draws() {
    fn prop(steps: Vec<Step>) -> Result<(), String> {
        run(&steps, BlendMode::Interpolate)?;
        run(&steps, BlendMode::Crossfade)
    }
    QuickCheck::new()
        .tests(300)
        .rng(Gen::new(40))
        .quickcheck(prop as fn(Vec<Step>) -> Result<(), String>);
}

#[test]
fn a_tracker_following_the_wrong_clock_would_fail_the_comparison() {
    // The property's teeth: a tracker that captures on the second clock's flag blends a
    // state with itself after a step whose main-clock updates moved an entity.
    let steps = vec![
        Step {
            updates: vec![vec![Op::Spawn {
                tracked: true,
                x: 0,
            }]],
            other_clock: false,
            alpha: 0,
        },
        Step {
            updates: vec![vec![Op::Move { who: 0, by: 10 }]],
            other_clock: true,
            alpha: 128,
        },
    ];
    assert_eq!(run(&steps, BlendMode::Interpolate), Ok(()));
    let mut world = World::new();
    let mut wrong = Interpolated::<f64>::new().clock(ClockId(1));
    let e = wrong.spawn(&mut world, (0.0_f64,));
    wrong.before_update(&mut world, &tick(0, true));
    *world.get::<&mut f64>(e).unwrap() += 10.0;
    wrong.before_update(&mut world, &tick(1, true)); // captures: it follows clock 1
    assert_eq!(wrong.sample(&world, e, 0.5).unwrap(), Sample::Value(10.0));
}

/// Interpolation follows the clock it captures on (issue 27): AI declared before physics
/// drives `Render::alpha`, yet bodies moved by physics blend with physics' alpha. Each frame
/// draws exactly where a body was at the frame's virtual time, one physics tick behind
/// (a body moving one unit per physics tick of 20 ms).
#[test]
fn physics_bodies_blend_with_physics_alpha_when_ai_is_declared_first() {
    use tickfold_core::{ClockConfig, Event, LoopConfig, LoopState};

    // AI chosen as the alpha clock (by default the faster physics would be), so that
    // `Render::alpha` is not the bodies' alpha.
    let config = LoopConfig::new(Period::from_hz(10).unwrap())
        .max_frame_delta(None)
        .clock(ClockConfig::new("physics", Period::from_hz(50).unwrap()))
        .alpha_clock("main");
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let physics = state.clock("physics").unwrap().id();
    let mut world = World::new();
    let mut bodies = Interpolated::<f64>::new().clock(physics);
    let body = bodies.spawn(&mut world, (0.0_f64,));
    let mut differs = 0;
    for frame in 1..=40u64 {
        let now = 7 * frame; // ms, off both grids
        let events = state.advance(Nanos::from_millis(now));
        let mut drawn = None;
        for event in &events {
            match event {
                Event::Update(tick) if tick.clock == physics => {
                    bodies.before_update(&mut world, &tick);
                    *world.get::<&mut f64>(body).unwrap() += 1.0;
                }
                Event::Render(r) => {
                    let at = bodies.alpha(&state).unwrap();
                    drawn = Some(bodies.sample(&world, body, at).unwrap().into_value());
                    let wrong = bodies.sample(&world, body, r.alpha).unwrap().into_value();
                    differs += usize::from(wrong != drawn.unwrap());
                }
                _ => {}
            }
        }
        // Physics has run floor(now / 20) ticks; the body drawn one tick behind virtual time:
        // (now − 20) / 20 units, from the frame after the first tick on.
        let want = (now as f64 - 20.0) / 20.0;
        if now >= 20 {
            let drawn = drawn.expect("every frame renders");
            assert!(
                (drawn - want).abs() < 1e-9,
                "at {now} ms: drew {drawn}, want {want}"
            );
        }
    }
    // AI's alpha would have drawn most frames elsewhere.
    assert!(differs > 30, "only {differs} frames differ");
}
