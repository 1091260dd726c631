//! The reference model of the hecs adapter: what every entity's tracked components hold, what
//! each tracker has captured, and what a read must show, written from the documentation and
//! not from the adapter's code (no epochs, no archetypes: a status per component).
//!
//! Each component is modelled twice: `companion` captures by the rule of `Tick::last_in_step`
//! (as the adapter should), `naive` before every update of the tracker's clock. Right after a
//! step the two must draw the same thing; the adapter is compared with `companion` at every
//! read.

use std::collections::HashMap;
use std::fmt::Debug;

use tickfold::ClockId;
use tickfold::hecs_adapter::hecs::{Component, Entity};
use tickfold::hecs_adapter::{
    BlendMode, Counts, Discrete, Ghost, Interpolate, Interpolated, Sample, Stats,
};

/// The live entities of the model.
pub(super) type Live = HashMap<Entity, EntityModel>;

/// The two trackers under test, driven together through `Tracker`.
pub(super) type Trackers = (Interpolated<f64>, Interpolated<Discrete<u8>>);

/// Where a component's `Previous`/`Stamp` pair stands relative to the latest capture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Status {
    /// Created since the latest capture: the newest value shows.
    Fresh,
    /// Captured: blend from the previous value.
    Settled,
    /// Teleported since the latest capture.
    Jumped,
}

/// A `Previous` value and its stamp's status; `None` when the entity has no companions.
pub(super) type Companion<T> = Option<(T, Status)>;

/// One tracked component of one entity.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot<T> {
    /// The gameplay component, if the entity has it.
    pub cur: Option<T>,
    /// The companions, captured by the rule.
    pub companion: Companion<T>,
    /// The companions of a world that captures before every update of the clock.
    pub naive: Companion<T>,
    /// Whether the entity has a `Rendered<T>`.
    pub rendered: bool,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            cur: None,
            companion: None,
            naive: None,
            rendered: false,
        }
    }
}

impl<T: Copy> Slot<T> {
    /// Fresh companions for `v` (spawned with them, or `insert`ed).
    pub fn fresh(&mut self, v: T) {
        self.cur = Some(v);
        self.companion = Some((v, Status::Fresh));
        self.naive = Some((v, Status::Fresh));
    }

    /// A teleport: every captured status becomes `Jumped`; a fresh one stays fresh.
    pub fn teleport(&mut self) {
        for (_, s) in [&mut self.companion, &mut self.naive].into_iter().flatten() {
            if *s != Status::Fresh {
                *s = Status::Jumped;
            }
        }
    }
}

/// One entity: both tracked types.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct EntityModel {
    pub pos: Slot<f64>,
    pub tag: Slot<Discrete<u8>>,
}

/// A tracked type the model knows.
pub(super) trait Tracked: Interpolate + Component + Copy + PartialEq + Debug {
    fn slot(e: &EntityModel) -> &Slot<Self>;
    fn slot_mut(e: &mut EntityModel) -> &mut Slot<Self>;
    fn tracker(t: &Trackers) -> &Interpolated<Self>;
    fn tracker_mut(t: &mut Trackers) -> &mut Interpolated<Self>;
    fn lane(l: &Lanes) -> &Lane<Self>;
    fn make(v: i16) -> Self;
    /// The blend as `Interpolate` documents it for this type, written out here.
    fn blend(prev: Self, cur: Self, alpha: f64) -> Self;
}

impl Tracked for f64 {
    fn slot(e: &EntityModel) -> &Slot<Self> {
        &e.pos
    }
    fn slot_mut(e: &mut EntityModel) -> &mut Slot<Self> {
        &mut e.pos
    }
    fn tracker(t: &Trackers) -> &Interpolated<Self> {
        &t.0
    }
    fn tracker_mut(t: &mut Trackers) -> &mut Interpolated<Self> {
        &mut t.0
    }
    fn lane(l: &Lanes) -> &Lane<Self> {
        &l.pos
    }
    fn make(v: i16) -> Self {
        f64::from(v)
    }
    fn blend(prev: f64, cur: f64, alpha: f64) -> f64 {
        // `prev` at 0 (and NaN), `cur` at 1, the straight line strictly in between.
        if alpha >= 1.0 {
            cur
        } else if alpha > 0.0 {
            prev + (cur - prev) * alpha
        } else {
            prev
        }
    }
}

impl Tracked for Discrete<u8> {
    fn slot(e: &EntityModel) -> &Slot<Self> {
        &e.tag
    }
    fn slot_mut(e: &mut EntityModel) -> &mut Slot<Self> {
        &mut e.tag
    }
    fn tracker(t: &Trackers) -> &Interpolated<Self> {
        &t.1
    }
    fn tracker_mut(t: &mut Trackers) -> &mut Interpolated<Self> {
        &mut t.1
    }
    fn lane(l: &Lanes) -> &Lane<Self> {
        &l.tag
    }
    fn make(v: i16) -> Self {
        Discrete(v as u8)
    }
    fn blend(prev: Self, cur: Self, alpha: f64) -> Self {
        // Switches at one half.
        if alpha >= 0.5 { cur } else { prev }
    }
}

/// How one tracker is set up.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settings {
    /// `None`: the default (`BlendMode::Interpolate`), never set.
    pub mode: Option<BlendMode>,
    pub adopt: bool,
    pub ghost_ticks: u32,
    pub rendered: bool,
    pub clock: ClockId,
}

impl Settings {
    pub fn mode(&self) -> BlendMode {
        self.mode.unwrap_or(BlendMode::Interpolate)
    }

    pub fn tracker<T: Interpolate + Component + Clone>(&self) -> Interpolated<T> {
        let t = Interpolated::new()
            .adopt(self.adopt)
            .keep_ghosts(self.ghost_ticks)
            .rendered(self.rendered)
            .clock(self.clock);
        match self.mode {
            Some(m) => t.mode(m),
            None => t,
        }
    }
}

/// The model of one tracker.
pub(super) struct Lane<T> {
    pub settings: Settings,
    /// The ghosts by the rule, as the adapter must hold them.
    pub ghosts: Vec<Ghost<T>>,
    /// The ghosts of the naive world (compared by what they draw only).
    pub naive_ghosts: Vec<Ghost<T>>,
    /// Whether the rule's previous values are the state before the current update.
    pub captured: bool,
    /// The same for the naive world.
    pub naive_captured: bool,
    pub stats: Stats,
}

/// Both lanes.
pub(super) struct Lanes {
    pub pos: Lane<f64>,
    pub tag: Lane<Discrete<u8>>,
}

impl<T: Tracked> Lane<T> {
    pub fn new(settings: Settings) -> Lane<T> {
        Lane {
            settings,
            ghosts: Vec::new(),
            naive_ghosts: Vec::new(),
            captured: false,
            naive_captured: false,
            stats: Stats::default(),
        }
    }

    /// `before_update`'s bookkeeping for an update of this lane's clock: the naive world
    /// captures before every one, the rule only before the step's last. Returns whether the
    /// rule captured.
    pub fn before_update(&mut self, last_in_step: bool, live: &mut Live) -> bool {
        self.stats.updates += 1;
        self.captured = false;
        for ghosts in [&mut self.ghosts, &mut self.naive_ghosts] {
            for g in ghosts.iter_mut() {
                g.age = g.age.saturating_add(1);
            }
            let keep = self.settings.ghost_ticks;
            ghosts.retain(|g| g.age < keep);
        }
        self.capture_naive(live);
        if last_in_step {
            self.capture(live);
        }
        last_in_step
    }

    /// A capture by the rule (or a direct `capture` call).
    pub fn capture(&mut self, live: &mut Live) {
        let (adopt, rendered) = (self.settings.adopt, self.settings.rendered);
        for slot in live.values_mut().map(T::slot_mut) {
            match (slot.cur, &mut slot.companion) {
                (Some(v), Some(c)) => {
                    *c = (v, Status::Settled);
                    self.stats.values_captured += 1;
                }
                // `T` was removed behind the adapter's back: reset, so it comes back fresh.
                (None, Some(c)) => c.1 = Status::Fresh,
                (Some(v), None) if adopt => {
                    slot.companion = Some((v, Status::Settled));
                    slot.rendered |= rendered;
                    self.stats.values_captured += 1;
                    self.stats.adopted += 1;
                }
                _ => {}
            }
        }
        self.captured = true;
        self.stats.captures += 1;
    }

    /// A capture of the naive world.
    pub fn capture_naive(&mut self, live: &mut Live) {
        for slot in live.values_mut().map(T::slot_mut) {
            match (slot.cur, &mut slot.naive) {
                (Some(v), Some(c)) => *c = (v, Status::Settled),
                (None, Some(c)) => c.1 = Status::Fresh,
                (Some(v), None) if self.settings.adopt => slot.naive = Some((v, Status::Settled)),
                _ => {}
            }
        }
        self.naive_captured = true;
    }

    /// A despawn through the tracker: a ghost in both worlds if ghosts are kept. Returns
    /// whether the adapter must have recorded one.
    pub fn record_ghost(&mut self, entity: Entity, slot: &Slot<T>) -> bool {
        let (true, Some(last)) = (self.settings.ghost_ticks > 0, slot.cur) else {
            return false;
        };
        // The ghost draws at age 0 what the entity drew: a blend only from a value captured
        // before this very update, and only across no teleport or spawn.
        let from = |c: Companion<T>, captured: bool| match c {
            Some((p, Status::Settled)) if captured => p,
            _ => last,
        };
        let ghost = |previous| Ghost {
            entity,
            previous,
            last,
            age: 0,
        };
        self.ghosts.push(ghost(from(slot.companion, self.captured)));
        self.naive_ghosts
            .push(ghost(from(slot.naive, self.naive_captured)));
        self.stats.ghosts += 1;
        true
    }
}

/// Alpha as the adapter documents it: NaN counts as 0, the rest is clamped to `[0, 1]`.
pub(super) fn clamp_alpha(alpha: f64) -> f64 {
    if alpha.is_nan() {
        0.0
    } else {
        alpha.clamp(0.0, 1.0)
    }
}

/// What a read must show of `cur` with companions `companion` at (clamped) `alpha` under
/// `mode`, and how it counts.
pub(super) fn expected<T: Tracked>(
    mode: BlendMode,
    companion: Companion<T>,
    cur: T,
    alpha: f64,
    counts: &mut Counts,
) -> Sample<T> {
    let Some((prev, status)) = companion else {
        counts.untracked += 1;
        return Sample::Value(cur);
    };
    match (status, mode) {
        (Status::Fresh, _) => {
            counts.fresh += 1;
            Sample::Value(cur)
        }
        (Status::Settled, BlendMode::Interpolate | BlendMode::Crossfade) => {
            counts.interpolated += 1;
            Sample::Value(T::blend(prev, cur, alpha))
        }
        (Status::Jumped, BlendMode::Interpolate) => {
            counts.teleports += 1;
            Sample::Value(cur)
        }
        (Status::Jumped, BlendMode::Crossfade) => {
            counts.crossfades += 1;
            Sample::Crossfade {
                from: prev,
                to: cur,
                alpha,
            }
        }
        (_, BlendMode::Newest) => {
            counts.held += 1;
            Sample::Value(cur)
        }
        (_, BlendMode::Previous) => {
            counts.held += 1;
            Sample::Value(prev)
        }
        (_, BlendMode::Nearest) => {
            counts.held += 1;
            Sample::Value(if alpha < 0.5 { prev } else { cur })
        }
    }
}

/// What a ghost draws at `alpha`: its place and its fade over the kept ticks.
pub(super) fn ghost_drawn<T: Tracked>(
    g: &Ghost<T>,
    alpha: f64,
    ticks: u32,
) -> (Entity, u32, T, u64) {
    (
        g.entity,
        g.age,
        g.value(alpha),
        g.fade(alpha, ticks).to_bits(),
    )
}
