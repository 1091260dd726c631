//! Target `hecs`: the hecs adapter against a model of its documented reads, for every policy.
//!
//! Two tracked types (`f64`, an `Interpolate` type, and `Discrete<u8>`), each with an arbitrary
//! policy, adoption, ghosts and render-only copy. Spawns (through the adapter, with a
//! companion in the bundle, or bare), despawns (through the adapter or the world), teleports,
//! writes, inserts and removals (through the adapter or behind its back) happen in any order
//! between captures; every render compares `for_each`, `extract`, `extract_with_entities`,
//! `sample`, `write_rendered`, the counts and the ghosts with the model.

use std::collections::HashMap;
use std::fmt::Debug;

use arbitrary::Arbitrary;
use tickfold::hecs_adapter::hecs::{Entity, World};
use tickfold::hecs_adapter::{
    Blend, Counts, Discrete, Error, Ghost, Interpolator, Policy, Rendered, Sample, Track,
};

/// How one type is tracked.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct TrackSpec {
    /// 0–4: a policy; otherwise the type's default.
    policy: u8,
    adopt: bool,
    ghosts: u8,
    rendered: bool,
}

impl TrackSpec {
    fn policy<T: Blend>(self) -> Policy {
        match self.policy {
            0 => Policy::Interpolate,
            1 => Policy::Crossfade,
            2 => Policy::Newest,
            3 => Policy::Previous,
            4 => Policy::Nearest,
            _ => T::POLICY,
        }
    }

    fn track<T: Blend>(self) -> Track {
        let t = Track::new()
            .adopt(self.adopt)
            .ghosts(u32::from(self.ghosts % 4))
            .rendered(self.rendered);
        if self.policy < 5 {
            t.policy(self.policy::<T>())
        } else {
            t
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
    /// `Interpolator::spawn`.
    Adapter,
    /// `World::spawn` with `Interpolator::companion` in the bundle.
    Companion,
    /// `World::spawn` without companions.
    Bare,
}

/// One operation.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Op {
    /// `capture`: the next update begins.
    Capture,
    /// Spawn an entity with a position and/or a tag and/or an untracked `u16`.
    Spawn(SpawnHow, Option<i16>, Option<u8>, Option<u16>),
    /// Despawn entity `i` (of all ever spawned) through the adapter or the world.
    Despawn(u8, bool),
    /// Write a new value into entity `i`'s component.
    Write(u8, Kind, i16),
    /// `teleport`.
    Teleport(u8, Kind),
    /// `Interpolator::insert`.
    Insert(u8, Kind, i16),
    /// `Interpolator::remove`.
    Remove(u8, Kind),
    /// `World::remove_one` behind the adapter's back (the companion stays).
    RemoveRaw(u8, Kind),
    /// `World::insert_one` without a companion.
    InsertRaw(u8, Kind, i16),
    /// Read everything at this alpha and compare with the model.
    Render(f64),
}

/// The fuzz input.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    pos: TrackSpec,
    tag: TrackSpec,
    ops: Vec<Op>,
}

/// Where a companion stands relative to the latest capture.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Status {
    /// Created since the latest capture: the newest value shows.
    Fresh,
    /// Captured: blend from `prev`.
    Settled,
    /// Teleported since the latest capture.
    Jumped,
}

/// One tracked component of one entity.
#[derive(Debug, Clone, Copy)]
struct Slot<T> {
    cur: Option<T>,
    companion: Option<(T, Status)>,
    rendered: bool,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            cur: None,
            companion: None,
            rendered: false,
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct EntityModel {
    pos: Slot<f64>,
    tag: Slot<Discrete<u8>>,
}

/// A tracked type the model knows.
trait Tracked: Blend + Copy + PartialEq + Debug + Send + Sync {
    fn slot(e: &EntityModel) -> &Slot<Self>;
    fn slot_mut(e: &mut EntityModel) -> &mut Slot<Self>;
    fn make(v: i16) -> Self;
}

impl Tracked for f64 {
    fn slot(e: &EntityModel) -> &Slot<Self> {
        &e.pos
    }
    fn slot_mut(e: &mut EntityModel) -> &mut Slot<Self> {
        &mut e.pos
    }
    fn make(v: i16) -> Self {
        f64::from(v)
    }
}

impl Tracked for Discrete<u8> {
    fn slot(e: &EntityModel) -> &Slot<Self> {
        &e.tag
    }
    fn slot_mut(e: &mut EntityModel) -> &mut Slot<Self> {
        &mut e.tag
    }
    fn make(v: i16) -> Self {
        Discrete(v as u8)
    }
}

/// What a read must show for `slot` at (clamped) `alpha` under `policy`, and how it counts.
fn expected<T: Tracked>(
    policy: Policy,
    slot: &Slot<T>,
    cur: T,
    alpha: f64,
    counts: &mut Counts,
) -> Sample<T> {
    let Some((prev, status)) = slot.companion else {
        counts.untracked += 1;
        return Sample::Value(cur);
    };
    match (status, policy) {
        (Status::Fresh, _) => {
            counts.fresh += 1;
            Sample::Value(cur)
        }
        (Status::Settled, Policy::Interpolate | Policy::Crossfade) => {
            counts.interpolated += 1;
            Sample::Value(prev.blend(&cur, alpha))
        }
        (Status::Jumped, Policy::Interpolate) => {
            counts.teleports += 1;
            Sample::Value(cur)
        }
        (Status::Jumped, Policy::Crossfade) => {
            counts.crossfades += 1;
            Sample::Crossfade {
                from: prev,
                to: cur,
                alpha,
            }
        }
        (_, Policy::Newest) => {
            counts.held += 1;
            Sample::Value(cur)
        }
        (_, Policy::Previous) => {
            counts.held += 1;
            Sample::Value(prev)
        }
        (_, Policy::Nearest) => {
            counts.held += 1;
            Sample::Value(if alpha < 0.5 { prev } else { cur })
        }
    }
}

/// Alpha as the adapter documents it: NaN counts as 0, the rest is clamped to `[0, 1]`.
fn clamp_alpha(alpha: f64) -> f64 {
    if alpha.is_nan() {
        0.0
    } else {
        alpha.clamp(0.0, 1.0)
    }
}

struct Lane<T> {
    spec: TrackSpec,
    policy: Policy,
    ghosts: Vec<Ghost<T>>,
}

struct Harness {
    world: World,
    interp: Interpolator,
    all: Vec<Entity>,
    live: HashMap<Entity, EntityModel>,
    pos: Lane<f64>,
    tag: Lane<Discrete<u8>>,
    captures: u64,
    adopted: u64,
    ghosts_recorded: u64,
}

/// Runs one input.
pub fn run(input: Input) {
    let mut interp = Interpolator::new();
    check!(
        interp.track::<f64>(input.pos.track::<f64>()).is_ok(),
        "tracking f64 failed"
    );
    check!(
        interp
            .track::<Discrete<u8>>(input.tag.track::<Discrete<u8>>())
            .is_ok(),
        "tracking Discrete<u8> failed"
    );
    check!(
        matches!(
            interp.track::<f64>(Track::new()),
            Err(Error::AlreadyTracked { .. })
        ),
        "tracking f64 twice was not AlreadyTracked"
    );
    check!(
        matches!(
            interp.extract::<f32>(&World::new(), 0.5, &mut Vec::new()),
            Err(Error::Unregistered { .. })
        ),
        "reading an unregistered type was not Unregistered"
    );
    let mut h = Harness {
        world: World::new(),
        interp,
        all: Vec::new(),
        live: HashMap::new(),
        pos: Lane {
            spec: input.pos,
            policy: input.pos.policy::<f64>(),
            ghosts: Vec::new(),
        },
        tag: Lane {
            spec: input.tag,
            policy: input.tag.policy::<Discrete<u8>>(),
            ghosts: Vec::new(),
        },
        captures: 0,
        adopted: 0,
        ghosts_recorded: 0,
    };
    check!(
        h.interp.policy::<f64>() == Some(h.pos.policy)
            && h.interp.policy::<Discrete<u8>>() == Some(h.tag.policy),
        "registered policies differ from the Track's"
    );
    for op in input.ops.iter().take(300) {
        h.apply(*op);
    }
    h.render(0.5);
}

impl Harness {
    fn entity(&self, i: u8) -> Option<Entity> {
        (!self.all.is_empty()).then(|| self.all[usize::from(i) % self.all.len()])
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Capture => self.capture(),
            Op::Spawn(how, pos, tag, extra) => self.spawn(how, pos, tag, extra),
            Op::Despawn(i, adapter) => {
                let Some(e) = self.entity(i) else { return };
                if !adapter {
                    let r = self.world.despawn(e);
                    check!(r.is_ok() == self.live.contains_key(&e), "world despawn");
                    self.live.remove(&e);
                    return;
                }
                let r = self.interp.despawn(&mut self.world, e);
                match self.live.remove(&e) {
                    None => check!(
                        r == Err(Error::NoSuchEntity(e)),
                        "despawn of a dead entity: {r:?}"
                    ),
                    Some(m) => {
                        check!(r.is_ok(), "despawn of a live entity failed: {r:?}");
                        self.ghosts_recorded += u64::from(ghost(&mut self.pos, e, &m.pos));
                        self.ghosts_recorded += u64::from(ghost(&mut self.tag, e, &m.tag));
                    }
                }
            }
            Op::Write(i, Kind::Pos, v) => self.write::<f64>(i, v),
            Op::Write(i, Kind::Tag, v) => self.write::<Discrete<u8>>(i, v),
            Op::Teleport(i, Kind::Pos) => self.teleport::<f64>(i),
            Op::Teleport(i, Kind::Tag) => self.teleport::<Discrete<u8>>(i),
            Op::Insert(i, Kind::Pos, v) => self.insert::<f64>(i, v),
            Op::Insert(i, Kind::Tag, v) => self.insert::<Discrete<u8>>(i, v),
            Op::Remove(i, Kind::Pos) => self.remove::<f64>(i),
            Op::Remove(i, Kind::Tag) => self.remove::<Discrete<u8>>(i),
            Op::RemoveRaw(i, Kind::Pos) => self.remove_raw::<f64>(i),
            Op::RemoveRaw(i, Kind::Tag) => self.remove_raw::<Discrete<u8>>(i),
            Op::InsertRaw(i, Kind::Pos, v) => self.insert_raw::<f64>(i, v),
            Op::InsertRaw(i, Kind::Tag, v) => self.insert_raw::<Discrete<u8>>(i, v),
            Op::Render(alpha) => self.render(alpha),
        }
    }

    fn capture(&mut self) {
        self.interp.capture(&mut self.world);
        self.captures += 1;
        let (pa, ta) = (self.pos.spec.adopt, self.tag.spec.adopt);
        let (pr, tr) = (self.pos.spec.rendered, self.tag.spec.rendered);
        for m in self.live.values_mut() {
            self.adopted += u64::from(capture_slot(&mut m.pos, pa, pr));
            self.adopted += u64::from(capture_slot(&mut m.tag, ta, tr));
        }
        age(&mut self.pos);
        age(&mut self.tag);
        let s = self.interp.stats();
        check!(s.captures == self.captures, "stats.captures {}", s.captures);
        check!(
            s.adopted == self.adopted,
            "stats.adopted {} (model {})",
            s.adopted,
            self.adopted
        );
        check!(
            s.ghosts == self.ghosts_recorded,
            "stats.ghosts {}",
            s.ghosts
        );
    }

    fn spawn(&mut self, how: SpawnHow, pos: Option<i16>, tag: Option<u8>, extra: Option<u16>) {
        if self.all.len() >= 200 {
            return;
        }
        let pos = pos.map(f64::from);
        let tag = tag.map(Discrete);
        let mut b = tickfold::hecs_adapter::hecs::EntityBuilder::new();
        if let Some(p) = pos {
            b.add(p);
        }
        if let Some(t) = tag {
            b.add(t);
        }
        if let Some(x) = extra {
            b.add(x);
        }
        let mut m = EntityModel::default();
        m.pos.cur = pos;
        m.tag.cur = tag;
        let e = match how {
            SpawnHow::Adapter => {
                let e = self.interp.spawn(&mut self.world, b.build());
                if let Some(p) = pos {
                    m.pos.companion = Some((p, Status::Fresh));
                    m.pos.rendered = self.pos.spec.rendered;
                }
                if let Some(t) = tag {
                    m.tag.companion = Some((t, Status::Fresh));
                    m.tag.rendered = self.tag.spec.rendered;
                }
                e
            }
            SpawnHow::Companion => {
                if let Some(p) = pos {
                    b.add(self.interp.companion(&p));
                    m.pos.companion = Some((p, Status::Fresh));
                }
                if let Some(t) = tag {
                    b.add(self.interp.companion(&t));
                    m.tag.companion = Some((t, Status::Fresh));
                }
                self.world.spawn(b.build())
            }
            SpawnHow::Bare => self.world.spawn(b.build()),
        };
        check!(!self.live.contains_key(&e), "spawn returned a live entity");
        self.all.push(e);
        self.live.insert(e, m);
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

    fn teleport<T: Tracked>(&mut self, i: u8) {
        let Some(e) = self.entity(i) else { return };
        let r = self.interp.teleport::<T>(&self.world, e);
        let Some(m) = self.live.get_mut(&e) else {
            check!(
                r == Err(Error::NoSuchEntity(e)),
                "teleport of a dead entity: {r:?}"
            );
            return;
        };
        check!(r.is_ok(), "teleport of a live entity failed: {r:?}");
        if let Some((_, s)) = &mut T::slot_mut(m).companion
            && *s != Status::Fresh
        {
            *s = Status::Jumped;
        }
    }

    fn insert<T: Tracked>(&mut self, i: u8, v: i16) {
        let Some(e) = self.entity(i) else { return };
        let r = self.interp.insert::<T>(&mut self.world, e, T::make(v));
        let rendered = self.lane_rendered::<T>();
        let Some(m) = self.live.get_mut(&e) else {
            check!(
                r == Err(Error::NoSuchEntity(e)),
                "insert on a dead entity: {r:?}"
            );
            return;
        };
        check!(r.is_ok(), "insert on a live entity failed: {r:?}");
        let slot = T::slot_mut(m);
        slot.cur = Some(T::make(v));
        slot.companion = Some((T::make(v), Status::Fresh));
        slot.rendered |= rendered;
    }

    fn remove<T: Tracked>(&mut self, i: u8) {
        let Some(e) = self.entity(i) else { return };
        let r = self.interp.remove::<T>(&mut self.world, e);
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

    fn lane_rendered<T: Tracked>(&self) -> bool {
        if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f64>() {
            self.pos.spec.rendered
        } else {
            self.tag.spec.rendered
        }
    }

    fn render(&mut self, alpha: f64) {
        let (pp, tp) = (self.pos.policy, self.tag.policy);
        self.render_type::<f64>(alpha, pp);
        self.render_type::<Discrete<u8>>(alpha, tp);
        check!(
            self.interp.ghosts::<f64>().ok() == Some(&self.pos.ghosts[..]),
            "f64 ghosts differ: {:?} vs model {:?}",
            self.interp.ghosts::<f64>(),
            self.pos.ghosts
        );
        check!(
            self.interp.ghosts::<Discrete<u8>>().ok() == Some(&self.tag.ghosts[..]),
            "Discrete ghosts differ"
        );
    }

    fn render_type<T: Tracked>(&mut self, raw_alpha: f64, policy: Policy) {
        let alpha = clamp_alpha(raw_alpha);
        // for_each: every entity holding T once, companions first, each as the model says.
        let mut seen: Vec<(Entity, Sample<T>)> = Vec::new();
        let counts = self
            .interp
            .for_each::<T>(&self.world, raw_alpha, |e, s| seen.push((e, s)));
        let mut want = Counts::default();
        let mut untracked_started = false;
        for (e, s) in &seen {
            let m = self.live.get(e);
            check!(m.is_some(), "for_each visited dead entity {e:?}");
            let Some(m) = m else { return };
            let slot = T::slot(m);
            check!(
                slot.cur.is_some(),
                "for_each visited {e:?} without the component"
            );
            let Some(cur) = slot.cur else { return };
            if slot.companion.is_none() {
                untracked_started = true;
            } else {
                check!(
                    !untracked_started,
                    "for_each visited an entity with a companion after one without"
                );
            }
            let x = expected(policy, slot, cur, alpha, &mut want);
            check!(
                *s == x,
                "{e:?} ({policy:?}, {:?}) at alpha {raw_alpha}: read {s:?}, model {x:?}",
                slot.companion.map(|c| c.1)
            );
            let one = self.interp.sample::<T>(&self.world, *e, raw_alpha);
            check!(
                one.as_ref() == Ok(s),
                "sample({e:?}) {one:?} differs from for_each"
            );
        }
        let holding = self
            .live
            .values()
            .filter(|m| T::slot(m).cur.is_some())
            .count();
        check!(
            seen.len() == holding,
            "for_each visited {} entities, {holding} hold the component",
            seen.len()
        );
        check!(
            counts == Ok(want),
            "for_each counts {counts:?}, model {want:?}"
        );
        // extract and extract_with_entities: the same values in the same order.
        let mut out = Vec::new();
        let c = self.interp.extract::<T>(&self.world, raw_alpha, &mut out);
        check!(c == Ok(want), "extract counts {c:?}, model {want:?}");
        let values: Vec<T> = seen.iter().map(|(_, s)| s.into_value()).collect();
        check!(out == values, "extract differs from for_each");
        let (mut out2, mut ents) = (Vec::new(), Vec::new());
        let c =
            self.interp
                .extract_with_entities::<T>(&self.world, raw_alpha, &mut out2, &mut ents);
        check!(c == Ok(want), "extract_with_entities counts");
        let order: Vec<Entity> = seen.iter().map(|(e, _)| *e).collect();
        check!(
            out2 == values && ents == order,
            "extract_with_entities differs"
        );
        // write_rendered: every entity with T and a Rendered<T> gets the read value.
        check!(
            self.interp
                .write_rendered::<T>(&self.world, raw_alpha)
                .is_ok(),
            "write_rendered failed"
        );
        for (e, s) in &seen {
            let slot = T::slot(&self.live[e]);
            let r = self.world.get::<&Rendered<T>>(*e).map(|r| r.0);
            check!(
                r.is_ok() == slot.rendered,
                "{e:?} has a Rendered copy: {}, model {}",
                r.is_ok(),
                slot.rendered
            );
            if let Ok(r) = r {
                let v = s.into_value();
                check!(r == v, "Rendered of {e:?} is {r:?}, read {v:?}");
            }
        }
        // Dead entities are NoSuchEntity; live ones without T are MissingComponent.
        for e in &self.all {
            let r = self.interp.sample::<T>(&self.world, *e, raw_alpha);
            match self.live.get(e) {
                None => check!(r == Err(Error::NoSuchEntity(*e)), "sample of dead {e:?}"),
                Some(m) if T::slot(m).cur.is_none() => check!(
                    matches!(r, Err(Error::MissingComponent { .. })),
                    "sample of {e:?} without the component: {r:?}"
                ),
                Some(_) => {}
            }
        }
    }
}

/// The model of one capture for one slot; returns whether the entity was adopted.
fn capture_slot<T: Copy>(slot: &mut Slot<T>, adopt: bool, rendered: bool) -> bool {
    match (slot.cur, &mut slot.companion) {
        (Some(v), Some(c)) => *c = (v, Status::Settled),
        // The component was removed behind the adapter's back: reset, so it comes back fresh.
        (None, Some(c)) => c.1 = Status::Fresh,
        (Some(v), None) if adopt => {
            slot.companion = Some((v, Status::Settled));
            slot.rendered |= rendered;
            return true;
        }
        _ => {}
    }
    false
}

/// A ghost of a despawned entity's component, if the type keeps ghosts.
fn ghost<T: Tracked>(lane: &mut Lane<T>, entity: Entity, slot: &Slot<T>) -> bool {
    let (true, Some(last)) = (!lane.spec.ghosts.is_multiple_of(4), slot.cur) else {
        return false;
    };
    let previous = slot.companion.map_or(last, |(p, _)| p);
    lane.ghosts.push(Ghost {
        entity,
        previous,
        last,
        age: 0,
    });
    true
}

fn age<T>(lane: &mut Lane<T>) {
    let keep = u32::from(lane.spec.ghosts % 4);
    for g in &mut lane.ghosts {
        g.age = g.age.saturating_add(1);
    }
    lane.ghosts.retain(|g| g.age < keep);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spawns three ways, a capture, writes, a teleport, a raw removal and renders: every read
    /// matches the model.
    #[test]
    fn a_small_world_passes_every_check() {
        for policy in 0..6 {
            let spec = TrackSpec {
                policy,
                adopt: true,
                ghosts: 2,
                rendered: true,
            };
            run(Input {
                pos: spec,
                tag: spec,
                ops: vec![
                    Op::Spawn(SpawnHow::Adapter, Some(1), Some(2), None),
                    Op::Spawn(SpawnHow::Companion, Some(3), None, Some(9)),
                    Op::Spawn(SpawnHow::Bare, Some(5), Some(6), None),
                    Op::Render(0.25),
                    Op::Capture,
                    Op::Write(0, Kind::Pos, 11),
                    Op::Write(1, Kind::Pos, 13),
                    Op::Teleport(1, Kind::Pos),
                    Op::Render(0.75),
                    Op::RemoveRaw(2, Kind::Tag),
                    Op::Capture,
                    Op::InsertRaw(2, Kind::Tag, 7),
                    Op::Despawn(0, true),
                    Op::Render(f64::NAN),
                    Op::Capture,
                    Op::Render(0.5),
                ],
            });
        }
    }
}
