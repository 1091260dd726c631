//! Target `hecs`: the hecs adapter against a reference model of its documented reads, for
//! every blend mode, driven by steps of several updates on two clocks.
//!
//! Two tracked types (`f64`, blended by `Interpolate`, and `Discrete<u8>`, which switches at
//! α = ½), each with an arbitrary blend mode, adoption, ghosts, render-only copy and clock.
//! Each step runs up to six updates of either clock, marked `last_in_step` as the fold marks
//! them, and calls `before_update` (through the `Tracker` tuple or each tracker's `Columns`)
//! before each. Inside the updates, spawns (through the tuple, one tracker, companions in the
//! bundle, or bare), despawns (through the tuple, one tracker or the world), moves, teleports
//! (through the tracker or the stamp), inserts and removals (through the adapter or behind its
//! back), direct captures and reads happen in any order. Every read compares `for_each`,
//! `extract`, `extract_with_entities`, `sample`, `blend_into`, `write_rendered`, the counts, the
//! ghosts and the stats with the model; after each step, the model's rule must also draw what
//! capturing before every update draws.

use std::collections::HashMap;

use arbitrary::Arbitrary;
use tickfold::hecs_adapter::hecs::{Entity, EntityBuilder, World};
use tickfold::hecs_adapter::{BlendMode, Columns, Discrete, Error, Stamp, Tracker};
use tickfold::{ClockId, Lag, Nanos, Period, Tick};

mod model;
mod reads;

use model::{EntityModel, Lane, Lanes, Live, Settings, Slot, Tracked, Trackers};

/// How one type is tracked.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct TrackSpec {
    /// 0–4: a blend mode; otherwise the default, never set.
    mode: u8,
    adopt: bool,
    /// Ghosts kept for `ghosts % 4` updates.
    ghosts: u8,
    rendered: bool,
    /// Follows the second clock instead of the main one.
    second_clock: bool,
}

impl TrackSpec {
    fn settings(self) -> Settings {
        let mode = match self.mode {
            0 => Some(BlendMode::Interpolate),
            1 => Some(BlendMode::Crossfade),
            2 => Some(BlendMode::Newest),
            3 => Some(BlendMode::Previous),
            4 => Some(BlendMode::Nearest),
            _ => None,
        };
        Settings {
            mode,
            adopt: self.adopt,
            ghost_ticks: u32::from(self.ghosts % 4),
            rendered: self.rendered,
            clock: ClockId(u16::from(self.second_clock)),
        }
    }
}

/// Which tracked type an operation is about.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Kind {
    /// `f64`.
    Pos,
    /// `Discrete<u8>`.
    Tag,
}

/// How an entity is spawned.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum SpawnHow {
    /// `Tracker::spawn` on the tuple of both trackers.
    Both,
    /// `Interpolated::<f64>::spawn`: the tag gets no companions.
    PosOnly,
    /// `World::spawn` with `Interpolated::companions` in the bundle.
    Companions,
    /// `World::spawn` without companions.
    Bare,
}

/// How an entity is despawned.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum DespawnHow {
    /// `Tracker::despawn` on the tuple: a ghost for each type that keeps them.
    Both,
    /// `Interpolated::<f64>::despawn`: a ghost of the position only.
    PosOnly,
    /// `World::despawn`: no ghost.
    World,
}

/// One operation inside an update.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Op {
    /// Spawn an entity with a position and/or a tag and/or an untracked `u16`.
    Spawn(SpawnHow, Option<i16>, Option<u8>, Option<u16>),
    /// Despawn entity `i` (of all ever spawned).
    Despawn(u8, DespawnHow),
    /// Write a new value into entity `i`'s component (a move).
    Write(u8, Kind, i16),
    /// A teleport: through `Interpolated::teleport`, or `Stamp::teleport` with the tracker's
    /// epoch when the flag is set.
    Teleport(u8, Kind, bool),
    /// `Interpolated::insert`.
    Insert(u8, Kind, i16),
    /// `Interpolated::remove`.
    Remove(u8, Kind),
    /// `World::remove_one` behind the adapter's back (the companions stay).
    RemoveRaw(u8, Kind),
    /// `World::insert_one` without companions.
    InsertRaw(u8, Kind, i16),
    /// `Tracker::capture` on the tuple, whatever the tick.
    Capture,
    /// Read everything at this alpha and compare with the model.
    Render(f64),
}

/// One update: its clock (the second one when set) and what runs in it.
#[derive(Arbitrary, Debug, Clone)]
pub struct Update {
    second_clock: bool,
    ops: Vec<Op>,
}

/// One step of the loop: its updates, and the render after them.
#[derive(Arbitrary, Debug, Clone)]
pub struct Step {
    updates: Vec<Update>,
    /// `before_update` on each tracker as `Columns` rather than on the `Tracker` tuple.
    one_by_one: bool,
    alpha: f64,
}

/// The fuzz input.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    pos: TrackSpec,
    tag: TrackSpec,
    steps: Vec<Step>,
}

struct Harness {
    world: World,
    trackers: Trackers,
    /// Every entity ever spawned, for picking by index.
    all: Vec<Entity>,
    live: Live,
    lanes: Lanes,
}

/// Runs one input.
pub fn run(input: Input) {
    let (pos, tag) = (input.pos.settings(), input.tag.settings());
    let mut h = Harness {
        world: World::new(),
        trackers: (pos.tracker(), tag.tracker()),
        all: Vec::new(),
        live: HashMap::new(),
        lanes: Lanes {
            pos: Lane::new(pos),
            tag: Lane::new(tag),
        },
    };
    check!(
        h.trackers.0.blend_mode() == pos.mode() && h.trackers.1.blend_mode() == tag.mode(),
        "blend modes differ from the settings"
    );
    for step in input.steps.iter().take(64) {
        h.step(step);
    }
    h.render(0.5);
}

fn tick(clock: ClockId, index: u64, last_in_step: bool) -> Tick {
    Tick {
        clock,
        index,
        t: Nanos(0),
        dt: Period::ONE_SECOND,
        lag: Lag::ZERO,
        last_in_step,
    }
}

impl Harness {
    fn step(&mut self, step: &Step) {
        let updates = &step.updates[..step.updates.len().min(6)];
        for (i, update) in updates.iter().enumerate() {
            let clock = ClockId(u16::from(update.second_clock));
            // The fold's marking: the last update of its clock in the step.
            let last = !updates[i + 1..]
                .iter()
                .any(|u| u.second_clock == update.second_clock);
            let t = tick(clock, i as u64, last);
            // A tracker handed another clock's tick does not act on it, and counts it.
            if self.lanes.pos.settings.clock != clock {
                self.lanes.pos.stats.other_clock_ticks += 1;
            }
            if self.lanes.tag.settings.clock != clock {
                self.lanes.tag.stats.other_clock_ticks += 1;
            }
            let want_pos = self.lanes.pos.settings.clock == clock
                && self.lanes.pos.before_update(last, &mut self.live);
            let want_tag = self.lanes.tag.settings.clock == clock
                && self.lanes.tag.before_update(last, &mut self.live);
            if step.one_by_one {
                let got_pos = self.trackers.0.in_world(&mut self.world).before_update(&t);
                let got_tag = self.trackers.1.in_world(&mut self.world).before_update(&t);
                check!(
                    (got_pos, got_tag) == (want_pos, want_tag),
                    "Columns::before_update({t:?}) captured {:?}, model {:?}",
                    (got_pos, got_tag),
                    (want_pos, want_tag)
                );
            } else {
                let got = self.trackers.before_update(&mut self.world, &t);
                check!(
                    got == (want_pos || want_tag),
                    "Tracker::before_update({t:?}) returned {got}"
                );
            }
            for op in update.ops.iter().take(8) {
                self.apply(*op);
            }
        }
        self.render(step.alpha);
        self.check_against_naive(step.alpha);
    }

    fn entity(&self, i: u8) -> Option<Entity> {
        (!self.all.is_empty()).then(|| self.all[usize::from(i) % self.all.len()])
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Spawn(how, pos, tag, extra) => self.spawn(how, pos, tag, extra),
            Op::Despawn(i, how) => self.despawn(i, how),
            Op::Write(i, Kind::Pos, v) => self.write::<f64>(i, v),
            Op::Write(i, Kind::Tag, v) => self.write::<Discrete<u8>>(i, v),
            Op::Teleport(i, Kind::Pos, s) => self.teleport::<f64>(i, s),
            Op::Teleport(i, Kind::Tag, s) => self.teleport::<Discrete<u8>>(i, s),
            Op::Insert(i, Kind::Pos, v) => self.insert::<f64>(i, v),
            Op::Insert(i, Kind::Tag, v) => self.insert::<Discrete<u8>>(i, v),
            Op::Remove(i, Kind::Pos) => self.remove::<f64>(i),
            Op::Remove(i, Kind::Tag) => self.remove::<Discrete<u8>>(i),
            Op::RemoveRaw(i, Kind::Pos) => self.remove_raw::<f64>(i),
            Op::RemoveRaw(i, Kind::Tag) => self.remove_raw::<Discrete<u8>>(i),
            Op::InsertRaw(i, Kind::Pos, v) => self.insert_raw::<f64>(i, v),
            Op::InsertRaw(i, Kind::Tag, v) => self.insert_raw::<Discrete<u8>>(i, v),
            Op::Capture => {
                self.trackers.capture(&mut self.world);
                self.lanes.pos.capture(&mut self.live);
                self.lanes.pos.capture_naive(&mut self.live);
                self.lanes.tag.capture(&mut self.live);
                self.lanes.tag.capture_naive(&mut self.live);
            }
            Op::Render(alpha) => self.render(alpha),
        }
    }

    fn spawn(&mut self, how: SpawnHow, pos: Option<i16>, tag: Option<u8>, extra: Option<u16>) {
        if self.all.len() >= 200 {
            return;
        }
        let (pos, tag) = (pos.map(f64::from), tag.map(Discrete));
        let mut b = EntityBuilder::new();
        let mut m = EntityModel::default();
        m.pos.cur = pos;
        m.tag.cur = tag;
        if let Some(p) = pos {
            b.add(p);
        }
        if let Some(t) = tag {
            b.add(t);
        }
        if let Some(x) = extra {
            b.add(x);
        }
        let (pr, tr) = (
            self.lanes.pos.settings.rendered,
            self.lanes.tag.settings.rendered,
        );
        let e = match how {
            SpawnHow::Both => {
                let e = self.trackers.spawn(&mut self.world, b.build());
                if let Some(p) = pos {
                    m.pos.fresh(p);
                    m.pos.rendered = pr;
                }
                if let Some(t) = tag {
                    m.tag.fresh(t);
                    m.tag.rendered = tr;
                }
                e
            }
            SpawnHow::PosOnly => {
                let e = self.trackers.0.spawn(&mut self.world, b.build());
                if let Some(p) = pos {
                    m.pos.fresh(p);
                    m.pos.rendered = pr;
                }
                e
            }
            SpawnHow::Companions => {
                if let Some(p) = pos {
                    let c = self.trackers.0.companions(&p);
                    b.add(c.previous).add(c.stamp);
                    m.pos.fresh(p);
                }
                if let Some(t) = tag {
                    let c = self.trackers.1.companions(&t);
                    b.add(c.previous).add(c.stamp);
                    m.tag.fresh(t);
                }
                self.world.spawn(b.build())
            }
            SpawnHow::Bare => self.world.spawn(b.build()),
        };
        check!(!self.live.contains_key(&e), "spawn returned a live entity");
        self.all.push(e);
        self.live.insert(e, m);
    }

    fn despawn(&mut self, i: u8, how: DespawnHow) {
        let Some(e) = self.entity(i) else { return };
        let r = match how {
            DespawnHow::Both => self.trackers.despawn(&mut self.world, e),
            DespawnHow::PosOnly => self.trackers.0.despawn(&mut self.world, e),
            DespawnHow::World => self.world.despawn(e).map_err(|_| Error::NoSuchEntity(e)),
        };
        let Some(m) = self.live.remove(&e) else {
            check!(
                r == Err(Error::NoSuchEntity(e)),
                "despawn of a dead entity: {r:?}"
            );
            return;
        };
        check!(r.is_ok(), "despawn of a live entity failed: {r:?}");
        if !matches!(how, DespawnHow::World) {
            self.lanes.pos.record_ghost(e, &m.pos);
        }
        if matches!(how, DespawnHow::Both) {
            self.lanes.tag.record_ghost(e, &m.tag);
        }
    }

    fn write<T: Tracked>(&mut self, i: u8, v: i16) {
        let Some(e) = self.entity(i) else { return };
        let Some(m) = self.live.get_mut(&e) else {
            return;
        };
        let slot = T::slot_mut(m);
        let r = self.world.get::<&mut T>(e);
        check!(
            r.is_ok() == slot.cur.is_some(),
            "component presence differs"
        );
        if let Ok(mut x) = r {
            *x = T::make(v);
            slot.cur = Some(T::make(v));
        }
    }

    fn teleport<T: Tracked>(&mut self, i: u8, through_stamp: bool) {
        let Some(e) = self.entity(i) else { return };
        let tracker = T::tracker(&self.trackers);
        let live = self.live.get_mut(&e);
        if through_stamp {
            let stamp = self.world.get::<&mut Stamp<T>>(e);
            let Some(m) = live else {
                check!(stamp.is_err(), "a dead entity has a stamp");
                return;
            };
            let slot = T::slot_mut(m);
            check!(
                stamp.is_ok() == slot.companion.is_some(),
                "{e:?} has a stamp: {}, model companions {:?}",
                stamp.is_ok(),
                slot.companion
            );
            if let Ok(mut s) = stamp {
                let now = tracker.epoch();
                let (_, status) = slot.companion.unwrap_or((T::make(0), model::Status::Fresh));
                check!(
                    s.is_discontinuous(now) == (status != model::Status::Settled),
                    "is_discontinuous of {e:?} differs from the model's {status:?}"
                );
                s.teleport(now);
                slot.teleport();
            }
            return;
        }
        let r = tracker.teleport(&self.world, e);
        let Some(m) = live else {
            check!(
                r == Err(Error::NoSuchEntity(e)),
                "teleport of a dead entity: {r:?}"
            );
            return;
        };
        check!(r.is_ok(), "teleport of a live entity failed: {r:?}");
        T::slot_mut(m).teleport();
    }

    fn insert<T: Tracked>(&mut self, i: u8, v: i16) {
        let Some(e) = self.entity(i) else { return };
        let r = T::tracker(&self.trackers).insert(&mut self.world, e, T::make(v));
        let rendered = T::lane(&self.lanes).settings.rendered;
        let Some(m) = self.live.get_mut(&e) else {
            check!(
                r == Err(Error::NoSuchEntity(e)),
                "insert on a dead entity: {r:?}"
            );
            return;
        };
        check!(r.is_ok(), "insert on a live entity failed: {r:?}");
        let slot = T::slot_mut(m);
        slot.fresh(T::make(v));
        slot.rendered |= rendered;
    }

    fn remove<T: Tracked>(&mut self, i: u8) {
        let Some(e) = self.entity(i) else { return };
        let r = T::tracker(&self.trackers).remove(&mut self.world, e);
        let Some(m) = self.live.get_mut(&e) else {
            check!(
                r == Err(Error::NoSuchEntity(e)),
                "remove on a dead entity: {r:?}"
            );
            return;
        };
        let slot = T::slot_mut(m);
        match slot.cur.take() {
            Some(v) => {
                check!(r == Ok(v), "remove gave {r:?}, model {v:?}");
                *slot = Slot::default();
            }
            None => check!(
                matches!(r, Err(Error::MissingComponent { .. })),
                "remove of a missing component: {r:?}"
            ),
        }
    }

    fn remove_raw<T: Tracked>(&mut self, i: u8) {
        let Some(e) = self.entity(i) else { return };
        let r = self.world.remove_one::<T>(e);
        if let Some(m) = self.live.get_mut(&e) {
            let slot = T::slot_mut(m);
            check!(r.ok() == slot.cur.take(), "raw remove differs");
        }
    }

    fn insert_raw<T: Tracked>(&mut self, i: u8, v: i16) {
        let Some(e) = self.entity(i) else { return };
        let r = self.world.insert_one(e, T::make(v));
        if let Some(m) = self.live.get_mut(&e) {
            check!(r.is_ok(), "raw insert on a live entity failed");
            T::slot_mut(m).cur = Some(T::make(v));
        }
    }
}

#[cfg(test)]
mod tests;
