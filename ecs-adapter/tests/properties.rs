//! Random sequences of spawns, despawns, teleports, inserts, removes, updates and renders,
//! checked after every render against a naive model of what each entity must show.
//!
//! Three tracked types cover the policies that look at the previous tick: `f64` interpolates
//! (with ghosts and a render-only copy), `f32` crossfades on teleports (adoption off) and
//! `Discrete<i64>` switches at α = ½.

use std::collections::HashMap;

use approx::abs_diff_eq;
use hecs::{Entity, World};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{ClockId, Lag, Nanos, Period, Tick};
use tickfold_hecs::{BlendMode, Discrete, Interpolated, Rendered, Sample, Tracker};

/// The three trackers: `f64` (ghosts, render-only copy), `f32` (crossfade, no adoption),
/// `Discrete<i64>` (nearest).
type Trackers = (
    Interpolated<f64>,
    Interpolated<f32>,
    Interpolated<Discrete<i64>>,
);

/// An update that captures: the naive rule, one capture before every update.
fn every_update() -> Tick {
    Tick {
        clock: ClockId(0),
        index: 0,
        t: Nanos(0),
        dt: Period::ONE_SECOND,
        lag: Lag::ZERO,
        last_in_step: true,
    }
}

const LANES: usize = 3;
const GHOST_TICKS: u32 = 3;

#[derive(Copy, Clone, Debug, PartialEq)]
enum State {
    Settled,
    Jumped,
    Fresh,
}

#[derive(Copy, Clone, Debug)]
struct Comp {
    prev: f64,
    state: State,
}

/// What the model knows about one entity and one tracked type.
#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    value: Option<f64>,
    comp: Option<Comp>,
}

#[derive(Clone, Debug)]
enum Op {
    /// Spawn through the adapter (`helper`) or raw, with the lanes in `mask`.
    Spawn {
        helper: bool,
        mask: u8,
        value: i16,
    },
    Despawn {
        helper: bool,
        who: usize,
    },
    /// Continuous move by `delta`.
    Move {
        lane: u8,
        who: usize,
        delta: i16,
    },
    /// Jump to `value`, bumping the epoch before or after the move.
    Teleport {
        lane: u8,
        who: usize,
        value: i16,
        bump_first: bool,
    },
    Insert {
        helper: bool,
        lane: u8,
        who: usize,
        value: i16,
    },
    Remove {
        helper: bool,
        lane: u8,
        who: usize,
    },
    Update,
    Render(Alpha),
}

#[derive(Copy, Clone, Debug)]
struct Alpha(f64);

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Op {
        let who = usize::arbitrary(g);
        let lane = u8::arbitrary(g) % LANES as u8;
        let value = i16::arbitrary(g) % 512;
        match u8::arbitrary(g) % 16 {
            0 | 1 => Op::Spawn {
                helper: u8::arbitrary(g) % 4 != 0,
                mask: u8::arbitrary(g),
                value,
            },
            2 => Op::Despawn {
                helper: bool::arbitrary(g),
                who,
            },
            3..=5 => Op::Move {
                lane,
                who,
                delta: i16::arbitrary(g) % 64,
            },
            6 => Op::Teleport {
                lane,
                who,
                value,
                bump_first: bool::arbitrary(g),
            },
            7 => Op::Insert {
                helper: u8::arbitrary(g) % 3 != 0,
                lane,
                who,
                value,
            },
            8 => Op::Remove {
                helper: u8::arbitrary(g) % 3 != 0,
                lane,
                who,
            },
            9..=11 => Op::Update,
            _ => Op::Render(Alpha(
                *g.choose(&[0.0, 1.0, f64::NAN, -0.5, 1.5, 0.5, 0.25])
                    .unwrap_or(&0.0)
                    * if bool::arbitrary(g) {
                        1.0
                    } else {
                        f64::from(u16::arbitrary(g)) / 65535.0
                    },
            )),
        }
    }
}

/// Per-lane access to the world, with every value stored as `f64` in the model.
trait LaneOps {
    fn add(b: &mut hecs::EntityBuilder, v: f64);
    fn insert_raw(world: &mut World, e: Entity, v: f64);
    fn insert_helper(interp: &Trackers, world: &mut World, e: Entity, v: f64);
    fn remove_raw(world: &mut World, e: Entity);
    fn remove_helper(interp: &Trackers, world: &mut World, e: Entity);
    fn set(world: &World, e: Entity, v: f64);
    fn teleport(interp: &Trackers, world: &World, e: Entity);
}

macro_rules! lane_ops {
    ($name:ident, $t:ty, $i:tt, $make:expr) => {
        struct $name;
        impl LaneOps for $name {
            fn add(b: &mut hecs::EntityBuilder, v: f64) {
                b.add($make(v));
            }
            fn insert_raw(world: &mut World, e: Entity, v: f64) {
                world.insert_one(e, $make(v)).unwrap();
            }
            fn insert_helper(interp: &Trackers, world: &mut World, e: Entity, v: f64) {
                interp.$i.insert(world, e, $make(v)).unwrap();
            }
            fn remove_raw(world: &mut World, e: Entity) {
                world.remove_one::<$t>(e).unwrap();
            }
            fn remove_helper(interp: &Trackers, world: &mut World, e: Entity) {
                interp.$i.remove(world, e).unwrap();
            }
            fn set(world: &World, e: Entity, v: f64) {
                *world.get::<&mut $t>(e).unwrap() = $make(v);
            }
            fn teleport(interp: &Trackers, world: &World, e: Entity) {
                interp.$i.teleport(world, e).unwrap();
            }
        }
    };
}

lane_ops!(L0, f64, 0, |v: f64| v);
lane_ops!(L1, f32, 1, |v: f64| v as f32);
lane_ops!(L2, Discrete<i64>, 2, |v: f64| Discrete(v as i64));

/// Runs `$body` with `$L` naming the lane's `LaneOps` type.
macro_rules! on_lane {
    ($lane:expr, $L:ident => $body:expr) => {
        match $lane {
            0 => {
                type $L = L0;
                $body
            }
            1 => {
                type $L = L1;
                $body
            }
            _ => {
                type $L = L2;
                $body
            }
        }
    };
}

struct Run {
    world: World,
    interp: Trackers,
    model: HashMap<Entity, [Slot; LANES]>,
    order: Vec<Entity>,
    ghosts: Vec<(Entity, f64, u32)>,
    adopt: [bool; LANES],
}

impl Run {
    fn new() -> Run {
        let interp = (
            Interpolated::new().keep_ghosts(GHOST_TICKS).rendered(true),
            Interpolated::new().mode(BlendMode::Crossfade).adopt(false),
            Interpolated::new().mode(BlendMode::Nearest),
        );
        Run {
            world: World::new(),
            interp,
            model: HashMap::new(),
            order: Vec::new(),
            ghosts: Vec::new(),
            adopt: [true, false, true],
        }
    }

    fn pick(&self, who: usize) -> Option<Entity> {
        (!self.order.is_empty()).then(|| self.order[who % self.order.len()])
    }

    fn apply(&mut self, op: &Op) -> Result<(), String> {
        match *op {
            Op::Spawn {
                helper,
                mask,
                value,
            } => {
                let v = f64::from(value);
                let mut b = hecs::EntityBuilder::new();
                let mut slots = [Slot::default(); LANES];
                for (lane, slot) in slots.iter_mut().enumerate() {
                    if mask & (1 << lane) != 0 {
                        let v = v + lane as f64;
                        on_lane!(lane, L => L::add(&mut b, v));
                        slot.value = Some(v);
                        slot.comp = helper.then_some(Comp {
                            prev: v,
                            state: State::Fresh,
                        });
                    }
                }
                let e = if helper {
                    self.interp.spawn(&mut self.world, b.build())
                } else {
                    self.world.spawn(b.build())
                };
                if self.model.insert(e, slots).is_some() {
                    return Err(format!("{e:?} handed out twice"));
                }
                self.order.push(e);
            }
            Op::Despawn { helper, who } => {
                let Some(e) = self.pick(who) else {
                    return Ok(());
                };
                let slots = self.model.remove(&e).unwrap();
                self.order.retain(|x| *x != e);
                if helper {
                    self.interp.despawn(&mut self.world, e).unwrap();
                    if let Some(v) = slots[0].value {
                        self.ghosts.push((e, v, 0));
                    }
                } else {
                    self.world.despawn(e).unwrap();
                }
            }
            Op::Move { lane, who, delta } => {
                let (lane, Some(e)) = (lane as usize, self.pick(who)) else {
                    return Ok(());
                };
                let slot = &mut self.model.get_mut(&e).unwrap()[lane];
                if let Some(v) = slot.value.as_mut() {
                    *v += f64::from(delta);
                    let v = *v;
                    on_lane!(lane, L => L::set(&self.world, e, v));
                }
            }
            Op::Teleport {
                lane,
                who,
                value,
                bump_first,
            } => {
                let (lane, Some(e)) = (lane as usize, self.pick(who)) else {
                    return Ok(());
                };
                let slot = &mut self.model.get_mut(&e).unwrap()[lane];
                let bump = |w: &World, i: &Trackers| on_lane!(lane, L => L::teleport(i, w, e));
                if bump_first {
                    bump(&self.world, &self.interp);
                }
                if slot.value.is_some() {
                    let v = f64::from(value);
                    slot.value = Some(v);
                    on_lane!(lane, L => L::set(&self.world, e, v));
                }
                if !bump_first {
                    bump(&self.world, &self.interp);
                }
                if let Some(c) = slot.comp.as_mut().filter(|c| c.state != State::Fresh) {
                    c.state = State::Jumped;
                }
            }
            Op::Insert {
                helper,
                lane,
                who,
                value,
            } => {
                let (lane, Some(e)) = (lane as usize, self.pick(who)) else {
                    return Ok(());
                };
                let v = f64::from(value);
                let slot = &mut self.model.get_mut(&e).unwrap()[lane];
                let (w, i) = (&mut self.world, &self.interp);
                if helper {
                    on_lane!(lane, L => L::insert_helper(i, w, e, v));
                    slot.comp = Some(Comp {
                        prev: v,
                        state: State::Fresh,
                    });
                } else {
                    on_lane!(lane, L => L::insert_raw(w, e, v));
                }
                slot.value = Some(v);
            }
            Op::Remove { helper, lane, who } => {
                let (lane, Some(e)) = (lane as usize, self.pick(who)) else {
                    return Ok(());
                };
                let slot = &mut self.model.get_mut(&e).unwrap()[lane];
                if slot.value.is_none() {
                    return Ok(());
                }
                let (w, i) = (&mut self.world, &self.interp);
                if helper {
                    on_lane!(lane, L => L::remove_helper(i, w, e));
                    slot.comp = None;
                } else {
                    on_lane!(lane, L => L::remove_raw(w, e));
                }
                slot.value = None;
            }
            Op::Update => {
                self.interp.before_update(&mut self.world, &every_update());
                for slots in self.model.values_mut() {
                    for (lane, slot) in slots.iter_mut().enumerate() {
                        match (slot.value, slot.comp.as_mut()) {
                            (Some(v), Some(c)) => {
                                *c = Comp {
                                    prev: v,
                                    state: State::Settled,
                                }
                            }
                            (Some(v), None) if self.adopt[lane] => {
                                slot.comp = Some(Comp {
                                    prev: v,
                                    state: State::Settled,
                                });
                            }
                            (None, Some(c)) => c.state = State::Fresh,
                            _ => {}
                        }
                    }
                }
                for g in &mut self.ghosts {
                    g.2 += 1;
                }
                self.ghosts.retain(|g| g.2 < GHOST_TICKS);
            }
            Op::Render(Alpha(alpha)) => self.check_render(alpha)?,
        }
        Ok(())
    }

    /// What the model says entity `e` must show for `lane` at the clamped alpha `a`.
    fn expected(slot: &Slot, lane: usize, a: f64) -> Option<Sample<f64>> {
        let cur = slot.value?;
        let Some(c) = slot.comp else {
            return Some(Sample::Value(cur));
        };
        Some(match (c.state, lane) {
            (State::Fresh, _) => Sample::Value(cur),
            (State::Jumped, 0) => Sample::Value(cur),
            (State::Jumped, 1) => Sample::Crossfade {
                from: c.prev,
                to: cur,
                alpha: a,
            },
            (_, 2) => Sample::Value(if a < 0.5 { c.prev } else { cur }),
            // A blend: marked by a NaN `to`, checked below.
            (State::Settled, _) => Sample::Crossfade {
                from: c.prev,
                to: cur,
                alpha: f64::NAN,
            },
            (State::Jumped, _) => unreachable!(),
        })
    }

    fn check_render(&self, alpha: f64) -> Result<(), String> {
        let a = if alpha.is_nan() {
            0.0
        } else {
            alpha.clamp(0.0, 1.0)
        };
        let (w, i) = (&self.world, &self.interp);
        let mut seen = [0_usize; LANES];
        let mut check = |lane: usize, e: Entity, got: Sample<f64>| -> Result<(), String> {
            seen[lane] += 1;
            let slot = self.model.get(&e).ok_or(format!("{e:?} is not alive"))?[lane];
            let want = Self::expected(&slot, lane, a).ok_or(format!("{e:?} has no lane {lane}"))?;
            let ok = match (want, got) {
                (Sample::Crossfade { from, to, alpha }, Sample::Value(v)) if alpha.is_nan() => {
                    let tol = 1e-4 * (1.0 + from.abs().max(to.abs()));
                    if a == 0.0 {
                        v == from
                    } else if a == 1.0 {
                        v == to
                    } else {
                        abs_diff_eq!(v, from + (to - from) * a, epsilon = tol)
                            && v >= from.min(to) - tol
                            && v <= from.max(to) + tol
                    }
                }
                (want, got) => want == got,
            };
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "{e:?} lane {lane} at {alpha}: want {want:?}, got {got:?}"
                ))
            }
        };
        let mut res = Ok(());
        i.0.for_each(w, alpha, |e, s| res = res.clone().and(check(0, e, s)));
        i.1.for_each(w, alpha, |e, s| {
            let s = match s {
                Sample::Value(v) => Sample::Value(f64::from(v)),
                Sample::Crossfade { from, to, alpha } => Sample::Crossfade {
                    from: f64::from(from),
                    to: f64::from(to),
                    alpha,
                },
            };
            res = res.clone().and(check(1, e, s));
        });
        i.2.for_each(w, alpha, |e, s| {
            res = res
                .clone()
                .and(check(2, e, Sample::Value(s.into_value().0 as f64)))
        });
        res?;
        for (lane, n) in seen.iter().enumerate() {
            let want = self
                .model
                .values()
                .filter(|s| s[lane].value.is_some())
                .count();
            if *n != want {
                return Err(format!("lane {lane}: visited {n}, alive {want}"));
            }
        }
        // The instance buffer holds the visitor's values, in the same order.
        let (mut out, mut ents, mut plain) = (Vec::new(), Vec::new(), Vec::new());
        let counts = i.0.extract_with_entities(w, alpha, &mut out, &mut ents);
        let counts2 = i.0.extract(w, alpha, &mut plain);
        if out
            .iter()
            .map(|v| v.to_bits())
            .ne(plain.iter().map(|v| v.to_bits()))
            || counts != counts2
        {
            return Err("extract and for_each disagree".into());
        }
        // The render-only copy gets the blend; the gameplay component keeps the tick value.
        i.0.write_rendered(w, alpha);
        for (e, v) in ents.iter().zip(&out) {
            let tick = *w.get::<&f64>(*e).unwrap();
            if Some(tick) != self.model[e][0].value {
                return Err(format!("{e:?}: gameplay value changed by a render"));
            }
            if let Ok(r) = w.get::<&Rendered<f64>>(*e) {
                if r.0.to_bits() != v.to_bits() {
                    return Err(format!("{e:?}: Rendered {} but extracted {v}", r.0));
                }
            }
        }
        let ghosts: Vec<(Entity, f64, u32)> =
            i.0.ghosts()
                .iter()
                .map(|g| (g.entity, g.last, g.age))
                .collect();
        if ghosts != self.ghosts {
            return Err(format!("ghosts {ghosts:?}, model {:?}", self.ghosts));
        }
        Ok(())
    }
}

fn run(ops: Vec<Op>) -> Result<(), String> {
    let mut r = Run::new();
    for (k, op) in ops.iter().enumerate() {
        r.apply(op)
            .map_err(|e| format!("after op {k} {op:?}: {e}"))?;
    }
    r.check_render(0.5)
}

#[test]
fn random_sequences_match_the_model() {
    fn prop(ops: Vec<Op>) -> Result<(), String> {
        run(ops)
    }
    QuickCheck::new()
        .tests(400)
        .rng(Gen::new(120))
        .quickcheck(prop as fn(Vec<Op>) -> Result<(), String>);
}
