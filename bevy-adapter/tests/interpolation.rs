//! Interpolated `Transform`s in a real `App`: every rendered transform against a reference
//! computed here from a shadow of the simulation, over a seeded frame schedule.

mod common;

use core::time::Duration;
use std::collections::HashMap;

use bevy_app::{App, FixedUpdate, Update};
use bevy_ecs::prelude::*;
use bevy_time::Time;
use bevy_transform::components::Transform;
use common::{Frame, Rng, base_app, frame};
use tickfold_bevy::tickfold_core::glam::{Quat, Vec3};
use tickfold_bevy::{
    ClockConfig, CurrentTick, Period, Tickfold, TickfoldPlugin, TransformEasing, TransformHistory,
    TransformInterpolation, TransformInterpolationPlugin, TransformVelocity,
    TransformVelocityPlugin,
};

/// What the test knows of one entity, kept by hand: the transform at the last capture (the
/// capture rule written out: before the step's last update), the tick value, whether it
/// jumped since the capture, and the linear velocity at the capture.
#[derive(Clone, Copy, Debug)]
struct Shadowed {
    prev: Option<Transform>,
    cur: Transform,
    jumped: bool,
    v0: Vec3,
}

#[derive(Resource)]
struct Shadow {
    map: HashMap<Entity, Shadowed>,
    rng: Rng,
    /// Ticks in which gameplay read a marked entity's `Transform`.
    reads: u64,
    teleports_in_last_update: u64,
    spawns: u64,
}

impl Default for Shadow {
    fn default() -> Self {
        Shadow {
            map: HashMap::new(),
            rng: Rng::new(23),
            reads: 0,
            teleports_in_last_update: 0,
            spawns: 0,
        }
    }
}

#[derive(Component, Clone, Copy)]
struct Spin(f32);

#[derive(Component, Clone, Copy, Default)]
struct Velocity {
    linear: Vec3,
    angular: Vec3,
}

impl TransformVelocity for Velocity {
    fn linear(&self) -> Vec3 {
        self.linear
    }
    fn angular(&self) -> Vec3 {
        self.angular
    }
}

/// Gameplay in the fixed schedule: checks it reads the tick value (never a blend), moves,
/// sometimes teleports, sometimes spawns.
fn simulate(
    tick: Res<CurrentTick>,
    mut shadow: ResMut<Shadow>,
    mut query: Query<(
        Entity,
        &mut Transform,
        &mut TransformHistory,
        &Spin,
        Option<&mut Velocity>,
    )>,
    mut commands: Commands,
) {
    let dt = tick.dt_secs() as f32;
    let sh = &mut *shadow;
    for (entity, mut t, mut history, spin, velocity) in &mut query {
        let s = sh
            .map
            .get_mut(&entity)
            .expect("every marked entity is shadowed");
        assert_eq!(*t, s.cur, "gameplay reads the tick value, never a blend");
        sh.reads += 1;
        if tick.last_in_step {
            s.prev = Some(*t);
            s.jumped = false;
        }
        match velocity {
            Some(mut v) => {
                if tick.last_in_step {
                    s.v0 = v.linear;
                }
                v.linear += Vec3::new(0.0, -9.8, 0.5 * spin.0) * dt; // a ballistic arc
                t.translation += v.linear * dt;
                t.rotation = (Quat::from_scaled_axis(v.angular * dt) * t.rotation).normalize();
            }
            None => {
                t.translation += Vec3::new(1.0 + spin.0, -0.5, 0.25 * spin.0) * dt;
                t.rotation = (Quat::from_rotation_z((1.0 + spin.0) * dt) * t.rotation).normalize();
                t.scale = Vec3::splat(1.0 + 0.5 * (tick.index as f32 * 0.1).sin());
                if sh.rng.range(0, 40) == 0 {
                    t.translation.x += 50.0;
                    history.teleport();
                    if tick.last_in_step {
                        s.jumped = true;
                        sh.teleports_in_last_update += 1;
                    }
                }
            }
        }
        s.cur = *t;
    }
    if sh.spawns < 30 && sh.rng.range(0, 25) == 0 {
        let k = sh.spawns as f32;
        let t = Transform::from_xyz(k, -k, 2.0 * k).with_rotation(Quat::from_rotation_y(k));
        let e = commands
            .spawn((t, TransformInterpolation::default(), Spin(k * 0.1)))
            .id();
        sh.map.insert(
            e,
            Shadowed {
                prev: None,
                cur: t,
                jumped: false,
                v0: Vec3::ZERO,
            },
        );
        sh.spawns += 1;
    }
}

fn lerp(p: Vec3, c: Vec3, a: f64) -> Vec3 {
    if a >= 1.0 {
        c
    } else if a > 0.0 {
        p + (c - p) * (a as f32)
    } else {
        p
    }
}

fn slerp(p: Quat, c: Quat, a: f64) -> Quat {
    if a >= 1.0 {
        c
    } else if a <= 0.0 || p == c {
        p
    } else {
        p.normalize().slerp(c.normalize(), a as f32)
    }
}

fn app(velocities: bool) -> App {
    let mut app = base_app();
    app.add_plugins(
        TickfoldPlugin::new().main_clock(ClockConfig::new("physics", Period::from_hz(60).unwrap())),
    )
    .add_plugins(TransformInterpolationPlugin::default())
    .init_resource::<Shadow>()
    .add_systems(FixedUpdate, simulate);
    if velocities {
        app.add_plugins(TransformVelocityPlugin::<Velocity>::default());
    }
    app
}

fn alpha(app: &App) -> f64 {
    app.world()
        .resource::<Tickfold>()
        .render()
        .map_or(1.0, |r| r.alpha)
}

fn rendered(app: &App, e: Entity) -> Transform {
    *app.world().get::<Transform>(e).expect("a live entity")
}

#[test]
fn rendered_transforms_are_the_reference_blend_to_the_last_bit() {
    let mut app = app(false);
    for i in 0..4 {
        {
            let t = Transform::from_xyz(i as f32, 0.0, 0.0);
            let marked = match i {
                0 => TransformInterpolation::default(),
                1 => TransformInterpolation::translation_only(),
                2 => TransformInterpolation::rotation_only(),
                _ => TransformInterpolation {
                    scale: false,
                    ..Default::default()
                },
            };
            let e = app.world_mut().spawn((t, marked, Spin(i as f32))).id();
            let shadowed = Shadowed {
                prev: None,
                cur: t,
                jumped: false,
                v0: Vec3::ZERO,
            };
            app.world_mut()
                .resource_mut::<Shadow>()
                .map
                .insert(e, shadowed);
        }
    }
    let mut frames = Rng::new(0x5eed_0023);
    let (mut blended, mut held_by_jump, mut held_fresh) = (0, 0, 0);
    for n in 0..3_000 {
        let ms = frames.range(4, 40);
        frame(&mut app, n, Duration::from_millis(ms));
        let a = alpha(&app);
        let shadow: Vec<(Entity, Shadowed)> = app
            .world()
            .resource::<Shadow>()
            .map
            .iter()
            .map(|(e, s)| (*e, *s))
            .collect();
        for (e, s) in shadow {
            let marked = *app.world().get::<TransformInterpolation>(e).unwrap();
            let want = match s.prev {
                Some(p) if !s.jumped => {
                    if a > 0.0 && a < 1.0 && p != s.cur {
                        blended += 1;
                    }
                    let mut w = s.cur;
                    if marked.translation {
                        w.translation = lerp(p.translation, s.cur.translation, a);
                    }
                    if marked.rotation {
                        w.rotation = slerp(p.rotation, s.cur.rotation, a);
                    }
                    if marked.scale {
                        w.scale = lerp(p.scale, s.cur.scale, a);
                    }
                    w
                }
                Some(_) => {
                    held_by_jump += 1;
                    s.cur // a teleport never blends
                }
                None => {
                    held_fresh += 1;
                    s.cur // spawned since the last capture: its current transform
                }
            };
            assert_eq!(
                rendered(&app, e),
                want,
                "frame {n}, entity {e:?}, alpha {a}"
            );
        }
    }
    let shadow = app.world().resource::<Shadow>();
    assert!(shadow.reads > 10_000, "{} reads", shadow.reads);
    assert!(shadow.teleports_in_last_update > 20 && held_by_jump > 20);
    assert!(shadow.spawns == 30 && held_fresh > 0, "{held_fresh}");
    assert!(blended > 50_000, "{blended}");
}

#[test]
fn extrapolation_and_hermite_follow_their_formulas() {
    let mut app = app(true);
    let spin = Vec3::new(0.0, 0.0, 2.5);
    let spawn = |app: &mut App, easing| {
        let t = Transform::from_xyz(0.0, 10.0, 0.0).with_rotation(Quat::from_rotation_x(0.5));
        let v = Velocity {
            linear: Vec3::new(3.0, 4.0, 0.0),
            angular: spin,
        };
        let marked = TransformInterpolation::default().easing(easing);
        let e = app.world_mut().spawn((t, marked, v, Spin(1.0))).id();
        let shadowed = Shadowed {
            prev: None,
            cur: t,
            jumped: false,
            v0: v.linear,
        };
        app.world_mut()
            .resource_mut::<Shadow>()
            .map
            .insert(e, shadowed);
        e
    };
    let ex = spawn(&mut app, TransformEasing::Extrapolate);
    let he = spawn(&mut app, TransformEasing::Hermite);
    let dt = Period::from_hz(60).unwrap().dt_secs_f64();
    let mut frames = Rng::new(0x0e47);
    let mut checked = 0;
    for n in 0..1_500 {
        frame(&mut app, n, Duration::from_millis(frames.range(4, 40)));
        let a = alpha(&app);
        let shadow = app.world().resource::<Shadow>().map.clone();
        // Extrapolation: the current tick moved on by the velocity for alpha·dt.
        let s = shadow[&ex];
        let v = *app.world().get::<Velocity>(ex).unwrap();
        let secs = a * dt;
        let mut want = s.cur;
        if secs > 0.0 {
            want.translation = s.cur.translation + v.linear * (secs as f32);
            want.rotation =
                (Quat::from_scaled_axis(v.angular * secs as f32) * s.cur.rotation).normalize();
        }
        assert_eq!(rendered(&app, ex), want, "frame {n}, alpha {a}");
        // Hermite: the textbook cubic for translation (bit for bit, in the documented order);
        // for a steady spin the rotation curve is the spin itself (each component within 1e-5).
        let s = shadow[&he];
        let v1 = app.world().get::<Velocity>(he).unwrap().linear;
        let got = rendered(&app, he);
        match s.prev {
            Some(p) if a > 0.0 && a < 1.0 => {
                let (t2, t3) = (a * a, a * a * a);
                let (h01, h10, h11) = (3.0 * t2 - 2.0 * t3, t3 - 2.0 * t2 + a, t3 - t2);
                let want = p.translation
                    + (s.cur.translation - p.translation) * (h01 as f32)
                    + (s.v0 * (h10 as f32) + v1 * (h11 as f32)) * (dt as f32);
                assert_eq!(got.translation, want, "frame {n}, alpha {a}");
                let spun = Quat::from_scaled_axis(spin * (a * dt) as f32) * p.rotation;
                let close = |q: Quat| got.rotation.abs_diff_eq(q, 1e-5);
                assert!(
                    close(spun) || close(-spun),
                    "frame {n}: {:?} {spun:?}",
                    got.rotation
                );
                checked += 1;
            }
            Some(p) if a <= 0.0 => assert_eq!(got, p),
            _ => assert_eq!(got, s.cur),
        }
        // The simulation value is untouched: the next tick reads it (checked in `simulate`).
    }
    assert!(checked > 1_000, "{checked}");
}

#[test]
fn an_entity_spawned_outside_the_ticks_shows_its_spawn_transform() {
    #[derive(Resource, Default)]
    struct Spawned(Option<(Entity, Transform)>);
    fn spawn_at_frame_2(mut commands: Commands, frame: Res<Frame>, mut spawned: ResMut<Spawned>) {
        if frame.0 == 2 {
            let t = Transform::from_xyz(7.0, 8.0, 9.0);
            spawned.0 = Some((
                commands.spawn((t, TransformInterpolation::default())).id(),
                t,
            ));
        }
    }
    let mut app = base_app();
    app.add_plugins(
        TickfoldPlugin::new().main_clock(ClockConfig::new("physics", Period::from_hz(60).unwrap())),
    )
    .add_plugins(TransformInterpolationPlugin::default())
    .init_resource::<Spawned>()
    .add_systems(Update, spawn_at_frame_2);
    for n in 0..3 {
        frame(&mut app, n, Duration::from_millis(20)); // alpha 0.2, 0.4, 0.6
    }
    let (e, t) = app.world().resource::<Spawned>().0.unwrap();
    let a = alpha(&app);
    assert!(a > 0.0 && a < 1.0, "{a}");
    let history = *app.world().get::<TransformHistory>(e).unwrap();
    assert_eq!(history.previous(), None, "spawned after the frame's ticks");
    assert_eq!(
        rendered(&app, e),
        t,
        "no previous tick yet: no blend from garbage"
    );
    frame(&mut app, 3, Duration::from_millis(20));
    let history = *app.world().get::<TransformHistory>(e).unwrap();
    assert_eq!(
        history.previous(),
        Some(&t),
        "captured before the step's last update"
    );
    assert_eq!(rendered(&app, e), t);
}

/// Moves the marked entity one unit a tick (in the main clock's `FixedUpdate`).
fn walk(mut q: Query<&mut Transform, With<TransformInterpolation>>) {
    for mut t in &mut q {
        t.translation.x += 1.0;
    }
}

/// Frame 6 writes x = 1000 in `Update`, without `teleport()`.
fn move_in_update(frame: Res<Frame>, mut q: Query<&mut Transform, With<TransformInterpolation>>) {
    if frame.0 == 6 {
        for mut t in &mut q {
            t.translation.x = 1000.0;
        }
    }
}

#[test]
fn a_transform_written_in_update_is_a_teleport_and_every_entity_can_be_marked() {
    let mut app = base_app();
    // 20 Hz main clock, 16 ms frames: most frames run no tick and draw a blend.
    app.add_plugins(
        TickfoldPlugin::new().main_clock(ClockConfig::new("physics", Period::from_hz(20).unwrap())),
    )
    .add_plugins(TransformInterpolationPlugin::every_entity())
    .add_systems(FixedUpdate, walk)
    .add_systems(Update, move_in_update);
    // No marker: `every_entity` adds it.
    let e = app.world_mut().spawn(Transform::default()).id();
    let mut drawn = Vec::new();
    for n in 0..12 {
        frame(&mut app, n, Duration::from_millis(16));
        assert!(app.world().get::<TransformInterpolation>(e).is_some());
        drawn.push(app.world().get::<Transform>(e).unwrap().translation.x);
    }
    // From frame 6 on, nothing between the old position and 1000 is ever drawn: 1000 at
    // once, then 1001 after the next tick, blended from there.
    assert!(drawn[..6].iter().all(|&x| x < 10.0), "{drawn:?}");
    assert_eq!(drawn[6], 1000.0, "{drawn:?}");
    assert!(drawn[6..].iter().all(|&x| x >= 1000.0), "{drawn:?}");
    assert!(
        drawn[..6].iter().any(|&x| x.fract() != 0.0),
        "a blend is drawn: {drawn:?}"
    );
}

#[derive(bevy_ecs::schedule::ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedSlow;
#[derive(Component)]
struct OnMain;
#[derive(Component)]
struct OnSlow;

/// Units per second: each entity's tick value is this times its clock's simulation time.
const SPEED: f64 = 3.0;

/// In a clock's run `Time`'s elapsed is the tick's end: the entity's tick value is the exact
/// position of a constant-speed path there (set, not accumulated, so f32 sums do not drift).
fn place<M: Component>(time: Res<Time>, mut q: Query<&mut Transform, With<M>>) {
    for mut t in &mut q {
        t.translation.x = (time.elapsed_secs_f64() * SPEED) as f32;
    }
}

/// Two clocks at different rates, an entity on each: each is captured on its own clock's ticks
/// and drawn at its own clock's alpha, so a constant-speed path is drawn one tick of *its*
/// clock behind virtual time: `SPEED · (v − dt)`, the analytic blend.
#[test]
fn each_entity_follows_its_own_clock() {
    let mut app = base_app();
    let slow = ClockConfig::new("slow", Period::from_hz(7).unwrap());
    app.add_plugins(
        TickfoldPlugin::new()
            .main_clock(ClockConfig::new("main", Period::from_hz(60).unwrap()))
            .clock(FixedSlow, slow),
    )
    .add_plugins(TransformInterpolationPlugin::default())
    .add_systems(FixedUpdate, place::<OnMain>)
    .add_systems(FixedSlow, place::<OnSlow>);
    let slow_id = app
        .world()
        .resource::<Tickfold>()
        .state()
        .clock("slow")
        .unwrap()
        .id();
    let on_main = app
        .world_mut()
        .spawn((
            Transform::default(),
            TransformInterpolation::default(),
            OnMain,
        ))
        .id();
    let on_slow = app
        .world_mut()
        .spawn((
            Transform::default(),
            TransformInterpolation::translation_only().on(slow_id),
            OnSlow,
        ))
        .id();
    let mut rng = Rng::new(0x0007_0060);
    let (mut checked, mut between) = (0, 0);
    for n in 0..1_500 {
        let ms = if rng.range(0, 19) == 0 {
            0
        } else {
            rng.range(1, 40)
        };
        frame(&mut app, n, Duration::from_millis(ms));
        let v = app
            .world()
            .resource::<Time<bevy_time::Virtual>>()
            .elapsed_secs_f64();
        for (e, hz) in [(on_main, 60.0), (on_slow, 7.0)] {
            let dt = 1.0 / hz;
            if v < dt {
                continue; // before the clock's first tick: nothing to blend from
            }
            let got = f64::from(rendered(&app, e).translation.x);
            let want = SPEED * (v - dt);
            assert!(
                (got - want).abs() < 1e-4,
                "frame {n}, {hz} Hz: drawn {got}, analytic {want}"
            );
            checked += 1;
            let sim = app.world().get::<TransformHistory>(e).unwrap().previous();
            if sim.is_some_and(|p| f64::from(p.translation.x) < got - 1e-3) {
                between += 1;
            }
        }
    }
    assert!(checked > 2_500, "{checked}");
    assert!(
        between > 1_000,
        "{between} frames drawn strictly past the previous tick"
    );
}
