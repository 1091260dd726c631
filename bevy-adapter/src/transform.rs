//! Interpolated `Transform`s: the components, the capture on the one capture rule, the restore
//! before gameplay runs and the blend before transform propagation.

use bevy_app::{
    App, First, Plugin, PostUpdate, PreUpdate, RunFixedMainLoop, RunFixedMainLoopSystems,
};
use bevy_ecs::prelude::*;
use bevy_transform::TransformSystems;
use bevy_transform::components::Transform;
use tickfold_core::glam::Vec3;
use tickfold_core::{ClockId, Columns, Extrapolate, Interpolate};

use crate::resource::{CurrentTick, Tickfold};
use crate::schedules::BeforeTick;

/// Marks an entity's `Transform` for blending between the previous tick and the current one
/// of the clock it follows: by default the alpha clock (the clock whose alpha the render
/// carries, the main clock unless
/// [`TickfoldPlugin::alpha_clock`](crate::TickfoldPlugin::alpha_clock) chose another), or any
/// clock with [`on`](Self::on). Move the entity in that clock's schedule: it is captured on
/// that clock's ticks (the one capture rule) and drawn at that clock's alpha
/// ([`ClockHandle::alpha`](tickfold_core::ClockHandle::alpha)), so entities moved by a 60 Hz
/// clock and by a 10 Hz one are each drawn between their own ticks. Which parts blend
/// (translation, rotation, scale), and how ([`TransformEasing`]).
///
/// Requires [`TransformHistory`] (added with it). Needs [`TransformInterpolationPlugin`].
///
/// # Examples
///
/// ```
/// use tickfold_bevy::tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
/// use tickfold_bevy::{TransformEasing, TransformInterpolation};
///
/// let all = TransformInterpolation::default(); // translation, rotation and scale, linear
/// assert!(all.translation && all.rotation && all.scale);
/// assert_eq!(all.clock, None); // the alpha clock's ticks and alpha
/// let moved = TransformInterpolation::translation_only().easing(TransformEasing::Extrapolate);
/// assert!(moved.translation && !moved.rotation);
/// // Another clock's, by its id looked up by name (in a game, `Tickfold::state()`'s): ids
/// // are handed out in declaration order, so never write one down as a number.
/// let config = LoopConfig::new(Period::from_hz(60)?).clock(ClockConfig::new("ai", Period::from_hz(10)?));
/// let ai = LoopState::new(config, Nanos(0))?.clock("ai")?.id();
/// let on_ai = TransformInterpolation::default().on(ai);
/// assert_eq!(on_ai.clock, Some(ai));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[require(TransformHistory)]
pub struct TransformInterpolation {
    /// Blend the translation.
    pub translation: bool,
    /// Blend the rotation (shortest-arc slerp).
    pub rotation: bool,
    /// Blend the scale.
    pub scale: bool,
    /// How the parts are drawn.
    pub easing: TransformEasing,
    /// The clock whose ticks move the entity and whose alpha draws it: `None` (the default)
    /// for the alpha clock. A clock the loop no longer has draws the current transform.
    #[cfg_attr(feature = "serde", serde(default))]
    pub clock: Option<ClockId>,
}

impl Default for TransformInterpolation {
    fn default() -> Self {
        TransformInterpolation {
            translation: true,
            rotation: true,
            scale: true,
            easing: TransformEasing::Interpolate,
            clock: None,
        }
    }
}

impl TransformInterpolation {
    /// The translation only.
    #[must_use]
    pub fn translation_only() -> Self {
        TransformInterpolation {
            rotation: false,
            scale: false,
            ..Default::default()
        }
    }

    /// The rotation only.
    #[must_use]
    pub fn rotation_only() -> Self {
        TransformInterpolation {
            translation: false,
            scale: false,
            ..Default::default()
        }
    }

    /// Sets the easing.
    #[must_use]
    pub fn easing(mut self, easing: TransformEasing) -> Self {
        self.easing = easing;
        self
    }

    /// Follows clock `clock` (its id: `Tickfold::state().clock(name)?.id()`, or what
    /// [`Tickfold::add_clock`](crate::Tickfold::add_clock) returned): captured on its ticks,
    /// drawn at its alpha. Move the entity in that clock's schedule.
    #[must_use]
    pub fn on(mut self, clock: ClockId) -> Self {
        self.clock = Some(clock);
        self
    }
}

/// How a marked `Transform` is drawn at render; the formulas are tickfold-core's
/// [`Interpolate`] and [`Extrapolate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TransformEasing {
    /// `previous + alpha·(current − previous)` for translation and scale, shortest-arc slerp
    /// for rotation: one tick of latency, never a wrong position.
    #[default]
    Interpolate,
    /// The current tick's translation moved on by the linear velocity for `alpha·dt`
    /// (`current + v·alpha·dt`), its rotation turned by the angular velocity
    /// (`exp(ω·alpha·dt)·current`); scale interpolates. Needs a velocity component
    /// ([`TransformVelocity`], registered with [`TransformVelocityPlugin`]); an entity without
    /// one interpolates. It never reads the previous tick, so a teleport or a spawn
    /// extrapolates from the new value.
    Extrapolate,
    /// The cubic Hermite between the previous and current tick, with the velocities at both
    /// ends as slopes (for rotation, the cubic quaternion curve of Kim, Kim and Shin, 1995);
    /// scale interpolates. Needs a velocity component as [`TransformEasing::Extrapolate`] does.
    Hermite,
}

/// What the plugin keeps of a marked entity: its transform at the last capture, and its
/// simulation transform while `Transform` holds the blend. Added with
/// [`TransformInterpolation`]; game code calls [`teleport`](Self::teleport) on it.
///
/// **Save games** (feature `serde`): save it with the `Transform`, e.g.
/// `save_world::<(Transform, TransformInterpolation, TransformHistory, VelocityHistory,
/// MyVelocity)>` (see `save_world`).
/// Between frames `Transform` holds the render's blend and the history the simulated value
/// (restored into `Transform` in the next `First`) and the previous capture; loaded together,
/// every later render and tick is bit for bit the uninterrupted run's. A `Transform` loaded
/// without its history is taken for the simulated value: the blend becomes the simulation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TransformHistory {
    previous: Option<Transform>,
    current: Transform,
    blended: bool,
    jumped: bool,
}

impl TransformHistory {
    /// Marks a jump (a teleport) during the current tick, before or after the move: renders
    /// until the next capture show the current transform instead of a blend across the jump.
    /// A jump in one of a step's earlier updates is history by the render (the capture comes
    /// after it), so the call only matters in the step's last update or outside the ticks.
    pub fn teleport(&mut self) {
        self.jumped = true;
    }

    /// The transform at the last capture: `None` until the entity's first capture.
    #[must_use]
    pub fn previous(&self) -> Option<&Transform> {
        self.previous.as_ref()
    }

    /// Whether a teleport was marked since the last capture.
    #[must_use]
    pub fn jumped(&self) -> bool {
        self.jumped
    }
}

/// A component holding an entity's velocity, for [`TransformEasing::Extrapolate`] and
/// [`TransformEasing::Hermite`]: implement it for your velocity component and add
/// [`TransformVelocityPlugin`] for it.
///
/// # Examples
///
/// ```
/// use bevy_ecs::prelude::*;
/// use tickfold_bevy::TransformVelocity;
/// use tickfold_bevy::tickfold_core::glam::Vec3;
///
/// #[derive(Component, Default)]
/// struct Velocity { linear: Vec3, angular: Vec3 }
///
/// impl TransformVelocity for Velocity {
///     fn linear(&self) -> Vec3 { self.linear }
///     fn angular(&self) -> Vec3 { self.angular }
/// }
/// ```
pub trait TransformVelocity: Component {
    /// Linear velocity, units per second.
    fn linear(&self) -> Vec3;
    /// Angular velocity: axis times radians per second, world frame. Zero by default.
    fn angular(&self) -> Vec3 {
        Vec3::ZERO
    }
}

/// The velocities of an entity with a [`TransformVelocity`] component: at the last capture
/// (Hermite's start slope) and at the latest render. Added with the velocity component by
/// [`TransformVelocityPlugin`]. Save it with the velocity component (see [`TransformHistory`]).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VelocityHistory {
    previous: Option<(Vec3, Vec3)>,
    current: (Vec3, Vec3),
}

/// The system sets of transform interpolation, in `PostUpdate`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransformInterpolationSystems {
    /// Reads the velocity components (before [`Blend`](Self::Blend)).
    Velocities,
    /// Writes the blended `Transform`s, before `TransformSystems::Propagate`.
    Blend,
}

/// Interpolated `Transform`s for entities marked [`TransformInterpolation`]. Add it after
/// [`TickfoldPlugin`](crate::TickfoldPlugin).
///
/// * **Capture**: before each tick, of the entities that follow its clock (the alpha clock, or
///   the one [`TransformInterpolation::on`] names), on the one capture rule of tickfold-core
///   ([`Columns::before_update`]: only before the step's last update), in [`BeforeTick`].
/// * **Restore**: in `First`, every blended `Transform` gets its simulation value back, so
///   everything from `First` to `PostUpdate` (the clock schedules, `Update`) sees and writes
///   tick values, never a blend.
/// * **Blend**: in `PostUpdate`, before `TransformSystems::Propagate`, at the alpha of the
///   clock each entity follows ([`ClockHandle::alpha`](tickfold_core::ClockHandle::alpha) after
///   the frame's step: for the alpha clock, the render's).
/// * **Teleports** ([`TransformHistory::teleport`]) show the current transform until the next
///   capture; an entity **spawned** since the last capture (no previous transform yet) shows
///   its current one. What happens in a step's earlier updates never reaches the render.
///
/// A `Transform` written **outside the clock's schedules** (in `PreUpdate`, `Update`, …) is
/// taken as a teleport, as `bevy_transform_interpolation` resets its easing on change: the
/// plugin notes each marked entity's simulated transform after the clocks' runs and before
/// them, and a different value at the next run or at the blend marks the jump, so a write in
/// `Update` shows at once instead of being smeared across a tick.
///
/// [`every_entity`](Self::every_entity) marks every entity with a `Transform`.
#[derive(Clone, Copy, Debug, Default)]
pub struct TransformInterpolationPlugin {
    every_entity: bool,
}

impl TransformInterpolationPlugin {
    /// Interpolate every entity with a `Transform` (opt-in; default only the entities marked
    /// [`TransformInterpolation`]): each one without the marker gets
    /// `TransformInterpolation::default()` in `PreUpdate` of the frame it appears.
    #[must_use]
    pub fn every_entity() -> TransformInterpolationPlugin {
        TransformInterpolationPlugin { every_entity: true }
    }
}

impl Plugin for TransformInterpolationPlugin {
    fn build(&self, app: &mut App) {
        app.init_schedule(BeforeTick)
            .configure_sets(
                PostUpdate,
                (
                    TransformInterpolationSystems::Velocities,
                    TransformInterpolationSystems::Blend,
                )
                    .chain()
                    .before(TransformSystems::Propagate),
            )
            .add_systems(First, restore_transforms)
            .add_systems(BeforeTick, capture_transforms)
            .add_systems(
                RunFixedMainLoop,
                (
                    detect_writes.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
                    note_simulated.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
                ),
            )
            .add_systems(
                PostUpdate,
                (detect_writes, blend_transforms)
                    .chain()
                    .in_set(TransformInterpolationSystems::Blend),
            );
        if self.every_entity {
            app.add_systems(PreUpdate, mark_every_entity);
        }
    }
}

/// Extrapolation and Hermite easing from the velocity component `V` (see
/// [`TransformVelocity`]). Add it beside [`TransformInterpolationPlugin`], once per velocity
/// type.
#[derive(Debug)]
pub struct TransformVelocityPlugin<V>(core::marker::PhantomData<fn() -> V>);

impl<V> Default for TransformVelocityPlugin<V> {
    fn default() -> Self {
        TransformVelocityPlugin(core::marker::PhantomData)
    }
}

impl<V: TransformVelocity> Plugin for TransformVelocityPlugin<V> {
    fn build(&self, app: &mut App) {
        let _ = app.try_register_required_components::<V, VelocityHistory>();
        app.add_systems(BeforeTick, capture_velocities::<V>)
            .add_systems(
                PostUpdate,
                sample_velocities::<V>.in_set(TransformInterpolationSystems::Velocities),
            );
    }
}

/// The clock whose ticks move marked entities and whose alpha the render carries.
fn alpha_clock(tf: &Tickfold) -> ClockId {
    tf.state().alpha_clock()
}

/// The clock an entity follows: its own, or the alpha clock.
#[inline]
fn followed(marked: Option<&TransformInterpolation>, alpha: ClockId) -> ClockId {
    marked.and_then(|m| m.clock).unwrap_or(alpha)
}

/// The one capture rule applied to a query: [`Columns`] implemented by a closure's effect.
/// Applied with the tick's own clock: the closure captures the entities that follow it.
struct Capture<F: FnMut()> {
    clock: ClockId,
    copy: F,
}

impl<F: FnMut()> Columns for Capture<F> {
    fn capture(&mut self) {
        (self.copy)();
    }

    fn clock(&self) -> ClockId {
        self.clock
    }
}

fn capture_transforms(
    tick: Res<CurrentTick>,
    tf: Res<Tickfold>,
    mut query: Query<(
        &Transform,
        &mut TransformHistory,
        Option<&TransformInterpolation>,
    )>,
) {
    let alpha = alpha_clock(&tf);
    let mut rule = Capture {
        clock: tick.clock,
        copy: || {
            for (transform, mut history, marked) in &mut query {
                if followed(marked, alpha) != tick.clock {
                    continue;
                }
                let now = if history.blended {
                    history.current
                } else {
                    *transform
                };
                history.previous = Some(now);
                history.jumped = false;
            }
        },
    };
    rule.before_update(&tick);
}

fn capture_velocities<V: TransformVelocity>(
    tick: Res<CurrentTick>,
    tf: Res<Tickfold>,
    mut query: Query<(&V, &mut VelocityHistory, Option<&TransformInterpolation>)>,
) {
    let alpha = alpha_clock(&tf);
    let mut rule = Capture {
        clock: tick.clock,
        copy: || {
            for (v, mut history, marked) in &mut query {
                if followed(marked, alpha) == tick.clock {
                    history.previous = Some((v.linear(), v.angular()));
                }
            }
        },
    };
    rule.before_update(&tick);
}

fn sample_velocities<V: TransformVelocity>(mut query: Query<(&V, &mut VelocityHistory)>) {
    for (v, mut history) in &mut query {
        history.current = (v.linear(), v.angular());
    }
}

/// A marked `Transform` that differs from the simulated value noted after (or restored before)
/// the clocks' runs was written outside them: a teleport.
fn detect_writes(mut query: Query<(&Transform, &mut TransformHistory)>) {
    for (transform, mut history) in &mut query {
        if !history.blended && !history.jumped && *transform != history.current {
            history.jumped = true;
        }
    }
}

/// After the clocks' runs: the simulated value that later writes are compared with.
fn note_simulated(mut query: Query<(&Transform, &mut TransformHistory)>) {
    for (transform, mut history) in &mut query {
        if !history.blended && history.current != *transform {
            history.current = *transform;
        }
    }
}

fn mark_every_entity(
    mut commands: Commands,
    query: Query<Entity, (With<Transform>, Without<TransformInterpolation>)>,
) {
    for entity in &query {
        commands
            .entity(entity)
            .insert(TransformInterpolation::default());
    }
}

fn restore_transforms(mut query: Query<(&mut Transform, &mut TransformHistory)>) {
    for (mut transform, mut history) in &mut query {
        if history.blended {
            history.blended = false;
            transform.set_if_neq(history.current);
        }
    }
}

fn blend_transforms(
    tf: Option<Res<Tickfold>>,
    mut query: Query<(
        &mut Transform,
        &mut TransformHistory,
        &TransformInterpolation,
        Option<&VelocityHistory>,
    )>,
) {
    let Some(tf) = tf else { return };
    let default_clock = alpha_clock(&tf);
    // Each clock's alpha at the latest step's virtual time (the render's for the alpha clock,
    // asked of the loop, so a loaded loop answers before its first render) and tick length,
    // looked up once per run of entities on the same clock.
    let mut seen: Option<(ClockId, f64, f64)> = None;
    for (mut transform, mut history, marked, velocity) in &mut query {
        let clock = followed(Some(marked), default_clock);
        let (alpha, dt) = match seen {
            Some((id, alpha, dt)) if id == clock => (alpha, dt),
            _ => {
                let (alpha, dt) = clock_blend(&tf, clock);
                seen = Some((clock, alpha, dt));
                (alpha, dt)
            }
        };
        let current = if history.blended {
            history.current
        } else {
            *transform
        };
        history.current = current;
        history.blended = true;
        let shown = blend(&history, marked, velocity, alpha, dt);
        transform.set_if_neq(shown);
    }
}

/// Clock `clock`'s alpha (in `[0, 1]`; 1 for a clock the loop does not have: the current
/// transform) and tick length in seconds.
fn clock_blend(tf: &Tickfold, clock: ClockId) -> (f64, f64) {
    let state = tf.state();
    let alpha = state.clock(clock).map_or(1.0, |c| c.alpha());
    let alpha = if alpha.is_nan() {
        0.0
    } else {
        alpha.clamp(0.0, 1.0)
    };
    let dt = state
        .clock(clock)
        .ok()
        .map_or(0.0, |c| c.rate().dt_secs_f64());
    (alpha, dt)
}

/// What to draw for one entity: the one place the blending rules live.
fn blend(
    history: &TransformHistory,
    marked: &TransformInterpolation,
    velocity: Option<&VelocityHistory>,
    alpha: f64,
    dt: f64,
) -> Transform {
    let current = history.current;
    let previous = history.previous.filter(|_| !history.jumped);
    let mut shown = current;
    let (lin1, ang1) = velocity.map_or((Vec3::ZERO, Vec3::ZERO), |v| v.current);
    let (lin0, ang0) = velocity.and_then(|v| v.previous).unwrap_or((lin1, ang1));
    let easing = if velocity.is_some() {
        marked.easing
    } else {
        TransformEasing::Interpolate
    };
    if marked.translation {
        shown.translation = match (easing, previous) {
            (TransformEasing::Extrapolate, _) => current.translation.extrapolate(&lin1, alpha * dt),
            (TransformEasing::Hermite, Some(p)) => {
                p.translation
                    .hermite(&current.translation, &lin0, &lin1, dt, alpha)
            }
            (TransformEasing::Interpolate, Some(p)) => {
                p.translation.interpolate(&current.translation, alpha)
            }
            (_, None) => current.translation,
        };
    }
    if marked.rotation {
        shown.rotation = match (easing, previous) {
            (TransformEasing::Extrapolate, _) => current.rotation.extrapolate(&ang1, alpha * dt),
            (TransformEasing::Hermite, Some(p)) => {
                p.rotation
                    .hermite(&current.rotation, &ang0, &ang1, dt, alpha)
            }
            (TransformEasing::Interpolate, Some(p)) => {
                p.rotation.interpolate(&current.rotation, alpha)
            }
            (_, None) => current.rotation,
        };
    }
    if marked.scale {
        if let Some(p) = previous {
            shown.scale = p.scale.interpolate(&current.scale, alpha);
        }
    }
    shown
}
