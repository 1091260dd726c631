//! One registered component type: its policy, its capture pass and its ghosts.

use std::any::Any;

use hecs::{Entity, EntityBuilder, World};

use crate::types::{Blend, Companion, Counts, Epoch, Ghost, Policy, Rendered, Sample};

/// The type-erased face of a [`TypedLane`], so the registry can capture every type in turn.
pub(crate) trait Lane: Any + Send + Sync {
    /// Copies the current values into the companions; adopts untracked entities if configured.
    /// Returns (values captured, entities adopted).
    fn capture(&mut self, world: &mut World, next: Epoch) -> (u64, u64);
    /// Adds the companion (and the render-only copy) to a bundle holding the component.
    fn complete(&self, builder: &mut EntityBuilder, now: Epoch);
    /// Records a ghost of an entity about to be despawned; `true` if one was kept.
    fn record_ghost(&mut self, world: &World, entity: Entity) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn type_name(&self) -> &'static str;
}

/// Settings and ghosts of one tracked type.
pub(crate) struct TypedLane<T> {
    pub(crate) policy: Policy,
    pub(crate) adopt: bool,
    pub(crate) ghost_ticks: u32,
    pub(crate) rendered: bool,
    pub(crate) ghosts: Vec<Ghost<T>>,
    adopt_buf: Vec<(Entity, T)>,
}

impl<T: Blend> TypedLane<T> {
    pub(crate) fn new(policy: Policy, adopt: bool, ghost_ticks: u32, rendered: bool) -> Self {
        TypedLane {
            policy,
            adopt,
            ghost_ticks,
            rendered,
            ghosts: Vec::new(),
            adopt_buf: Vec::new(),
        }
    }
}

impl<T: Blend> Lane for TypedLane<T> {
    fn capture(&mut self, world: &mut World, next: Epoch) -> (u64, u64) {
        let mut captured = 0_u64;
        for arch in world.archetypes() {
            if arch.is_empty() {
                continue;
            }
            let Some(mut companions) = arch.get::<&mut Companion<T>>() else {
                continue;
            };
            match arch.get::<&T>() {
                // The fast route: one pass over two columns of the same archetype.
                Some(current) => {
                    for (c, v) in companions.iter_mut().zip(current.iter()) {
                        c.prev.clone_from(v);
                    }
                    captured += current.len() as u64;
                }
                // The component was removed behind the adapter's back: if it comes back, it
                // must not blend with the value it had before it left.
                None => {
                    for c in companions.iter_mut() {
                        c.epoch = next.fresh();
                    }
                }
            }
        }
        for ghost in &mut self.ghosts {
            ghost.age = ghost.age.saturating_add(1);
        }
        let keep = self.ghost_ticks;
        self.ghosts.retain(|g| g.age < keep);
        if !self.adopt {
            return (captured, 0);
        }
        self.adopt_buf.clear();
        for (entity, value) in world.query_mut::<(Entity, &T)>().without::<&Companion<T>>() {
            self.adopt_buf.push((entity, value.clone()));
        }
        let adopted = self.adopt_buf.len() as u64;
        // An epoch from before `next`: the adopted value blends from the next render on.
        let settled = next.0.wrapping_sub(2);
        for (entity, value) in self.adopt_buf.drain(..) {
            let rendered = self.rendered.then(|| Rendered(value.clone()));
            let companion = Companion {
                prev: value,
                epoch: settled,
            };
            // The entity was just listed by a query on this world: it exists.
            let _ = match rendered {
                Some(r) => world.insert(entity, (companion, r)),
                None => world.insert_one(entity, companion),
            };
        }
        (captured + adopted, adopted)
    }

    fn complete(&self, builder: &mut EntityBuilder, now: Epoch) {
        if builder.has::<Companion<T>>() {
            return;
        }
        let Some(value) = builder.get::<&T>().cloned() else {
            return;
        };
        if self.rendered && !builder.has::<Rendered<T>>() {
            builder.add(Rendered(value.clone()));
        }
        builder.add(Companion {
            prev: value,
            epoch: now.fresh(),
        });
    }

    fn record_ghost(&mut self, world: &World, entity: Entity) -> bool {
        if self.ghost_ticks == 0 {
            return false;
        }
        let Ok(last) = world.get::<&T>(entity) else {
            return false;
        };
        let previous = world
            .get::<&Companion<T>>(entity)
            .map_or_else(|_| (*last).clone(), |c| c.prev.clone());
        self.ghosts.push(Ghost {
            entity,
            previous,
            last: (*last).clone(),
            age: 0,
        });
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn type_name(&self) -> &'static str {
        std::any::type_name::<T>()
    }
}

/// The render read of one entity. `alpha` is already clamped to `[0, 1]`.
#[inline(always)]
pub(crate) fn sample<T: Blend>(
    policy: Policy,
    now: Epoch,
    current: &T,
    companion: Option<&Companion<T>>,
    alpha: f64,
    counts: &mut Counts,
) -> Sample<T> {
    let Some(c) = companion else {
        counts.untracked += 1;
        return Sample::Value(current.clone());
    };
    if c.epoch == now.fresh() {
        counts.fresh += 1;
        return Sample::Value(current.clone());
    }
    let jumped = c.epoch == now.0;
    match policy {
        Policy::Interpolate | Policy::Crossfade if !jumped => {
            counts.interpolated += 1;
            Sample::Value(c.prev.blend(current, alpha))
        }
        Policy::Interpolate => {
            counts.teleports += 1;
            Sample::Value(current.clone())
        }
        Policy::Crossfade => {
            counts.crossfades += 1;
            Sample::Crossfade {
                from: c.prev.clone(),
                to: current.clone(),
                alpha,
            }
        }
        Policy::Newest => {
            counts.held += 1;
            Sample::Value(current.clone())
        }
        Policy::Previous => {
            counts.held += 1;
            Sample::Value(c.prev.clone())
        }
        Policy::Nearest => {
            counts.held += 1;
            Sample::Value(if alpha < 0.5 {
                c.prev.clone()
            } else {
                current.clone()
            })
        }
    }
}
