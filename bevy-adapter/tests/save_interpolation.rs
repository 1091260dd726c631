//! Save and load of interpolated transforms: a seeded run with blended, teleporting,
//! extrapolating and Hermite entities, saved through JSON after several frames and loaded into
//! a fresh `App`, renders every later frame (the blended `Transform`s) and runs every later
//! tick bit for bit as the run that was never interrupted; a save without `TransformHistory`
//! does not.

mod common;

use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use common::{Rng, base_app, frame};
use serde::{Deserialize, Serialize};
use tickfold_bevy::tickfold_core::glam::{Quat, Vec3};
use tickfold_bevy::{
    ClockConfig, CurrentTick, Period, Saved, TickfoldPlugin, TransformEasing, TransformHistory,
    TransformInterpolation, TransformInterpolationPlugin, TransformVelocity,
    TransformVelocityPlugin, VelocityHistory, WorldSave, load_world, save_world,
};

#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
struct MyVelocity {
    linear: Vec3,
    angular: Vec3,
}

impl TransformVelocity for MyVelocity {
    fn linear(&self) -> Vec3 {
        self.linear
    }
    fn angular(&self) -> Vec3 {
        self.angular
    }
}

/// What a save of interpolated entities holds.
type Tracked = (
    Transform,
    TransformInterpolation,
    TransformHistory,
    VelocityHistory,
    MyVelocity,
);
/// The same without the history: the blend is loaded as the simulated value.
type NoHistory = (
    Transform,
    TransformInterpolation,
    VelocityHistory,
    MyVelocity,
);

/// An entity's transform as bits: translation, rotation, scale.
type Bits = [u32; 10];

fn bits(t: &Transform) -> Bits {
    let mut out = [0; 10];
    let all = t
        .translation
        .to_array()
        .into_iter()
        .chain(t.rotation.to_array())
        .chain(t.scale.to_array());
    for (o, x) in out.iter_mut().zip(all) {
        *o = x.to_bits();
    }
    out
}

/// Every saved entity's transform, in id order.
type Scene = Vec<(u64, Bits)>;

/// Every tick: its number, start, and the scene after it.
#[derive(Resource, Default)]
struct Ticks(Vec<(u64, u64, Scene)>);

/// Teleports made in a step's last update (they show in the render).
#[derive(Resource, Default)]
struct Teleports(u64);

/// Gameplay: depends only on the tick and the saved components, never on query order.
fn simulate(
    tick: Res<CurrentTick>,
    mut teleports: ResMut<Teleports>,
    mut q: Query<(
        &Saved,
        &mut Transform,
        &mut TransformHistory,
        Option<&mut MyVelocity>,
    )>,
    mut commands: Commands,
) {
    let dt = tick.dt_secs() as f32;
    for (saved, mut t, mut history, velocity) in &mut q {
        let k = saved.0 as f32;
        match velocity {
            Some(mut v) => {
                v.linear += Vec3::new(0.0, -9.8, 0.3 * k) * dt;
                if t.translation.y < -20.0 {
                    v.linear.y = v.linear.y.abs(); // a bounce
                }
                t.translation += v.linear * dt;
                t.rotation = (Quat::from_scaled_axis(v.angular * dt) * t.rotation).normalize();
            }
            None => {
                t.translation += Vec3::new(1.0 + k, -0.5, 0.25 * k) * dt;
                t.rotation = (Quat::from_rotation_z((1.0 + 0.1 * k) * dt) * t.rotation).normalize();
                t.scale = Vec3::splat(1.0 + 0.5 * (tick.index as f32 * 0.1 + k).sin());
                if (tick.index + saved.0) % 37 == 0 {
                    t.translation.x += 50.0;
                    history.teleport();
                    if tick.last_in_step {
                        teleports.0 += 1;
                    }
                }
            }
        }
    }
    if tick.index == 90 {
        let t = Transform::from_xyz(3.0, -1.0, 2.0).with_rotation(Quat::from_rotation_y(0.5));
        commands.spawn((Saved(100), t, TransformInterpolation::default()));
    }
}

fn log(tick: Res<CurrentTick>, q: Query<(&Saved, &Transform)>, mut ticks: ResMut<Ticks>) {
    let mut all: Scene = q.iter().map(|(s, t)| (s.0, bits(t))).collect();
    all.sort_unstable();
    ticks.0.push((tick.index, tick.t.0, all));
}

/// The app, with its entities spawned as the game's start would (a load overwrites them).
fn app() -> App {
    let mut app = base_app();
    app.add_plugins(
        TickfoldPlugin::new().main_clock(ClockConfig::new("physics", Period::from_hz(60).unwrap())),
    )
    .add_plugins(TransformInterpolationPlugin::default())
    .add_plugins(TransformVelocityPlugin::<MyVelocity>::default())
    .init_resource::<Ticks>()
    .init_resource::<Teleports>()
    .add_systems(FixedUpdate, (simulate, log).chain());
    let world = app.world_mut();
    for i in 1..=4u64 {
        let k = i as f32;
        let t = Transform::from_xyz(k, 2.0 * k, -k).with_rotation(Quat::from_rotation_x(k));
        world.spawn((Saved(i), t, TransformInterpolation::default()));
    }
    world.spawn((
        Saved(5),
        Transform::from_xyz(-3.0, 0.0, 1.0),
        TransformInterpolation::translation_only(),
    ));
    let easings = [
        (6, TransformEasing::Extrapolate),
        (7, TransformEasing::Hermite),
        (8, TransformEasing::Interpolate),
    ];
    for (i, easing) in easings {
        let k = i as f32;
        let v = MyVelocity {
            linear: Vec3::new(k, 8.0, -0.5 * k),
            angular: Vec3::new(0.3, -0.2 * k, 1.0),
        };
        let marked = TransformInterpolation::default().easing(easing);
        world.spawn((Saved(i), Transform::from_xyz(0.0, k, 0.0), marked, v));
    }
    app
}

fn frames(seed: u64, n: usize) -> Vec<Duration> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| match rng.range(0, 29) {
            0 => Duration::from_millis(rng.range(60, 300)), // a hitch
            1 => Duration::ZERO,
            _ => Duration::from_micros(rng.range(1_000, 35_000)),
        })
        .collect()
}

/// The rendered transforms after a frame, in id order.
fn rendered(app: &mut App) -> Scene {
    let world = app.world_mut();
    let mut q = world.query::<(&Saved, &Transform)>();
    let mut out: Vec<_> = q.iter(world).map(|(s, t)| (s.0, bits(t))).collect();
    out.sort_unstable();
    out
}

/// Frames `from..` of `frames` on `app`, with each frame's render and the ticks it ran.
fn run(app: &mut App, frames: &[Duration], from: usize) -> Vec<(Scene, usize)> {
    let mut out = Vec::new();
    for (n, &d) in frames.iter().enumerate().skip(from) {
        frame(app, n as u64, d);
        let ticks = app.world().resource::<Ticks>().0.len();
        out.push((rendered(app), ticks));
    }
    out
}

/// A fresh app (its first update starts Bevy's clock) with `file` loaded into it.
fn loaded<C: tickfold_bevy::ComponentSet>(file: &str) -> App {
    let mut app = app();
    frame(&mut app, 0, Duration::ZERO);
    let save: WorldSave<C> = serde_json::from_str(file).unwrap();
    load_world(app.world_mut(), save).unwrap();
    app.world_mut().resource_mut::<Ticks>().0.clear();
    app
}

#[test]
fn loaded_interpolated_transforms_render_and_tick_bit_for_bit() {
    for seed in 0..3u64 {
        let frames = frames(0x5a7e_0000 + seed, 240);
        let mut whole = app();
        let renders = run(&mut whole, &frames, 0);
        let whole_ticks = &whole.world().resource::<Ticks>().0;
        assert!(whole.world().resource::<Teleports>().0 > 3, "seed {seed}");
        assert!(whole_ticks.len() > 200, "seed {seed}");

        let mut bare_checked = 0;
        for k in [2, 9, 40, 97, 150 + seed as usize * 20] {
            let mut first = app();
            run(&mut first, &frames[..k], 0);
            let file = serde_json::to_string(&save_world::<Tracked>(first.world_mut())).unwrap();
            let partial =
                serde_json::to_string(&save_world::<NoHistory>(first.world_mut())).unwrap();
            drop(first);
            let done = renders[k - 1].1;

            let mut second = loaded::<Tracked>(&file);
            let got = run(&mut second, &frames, k);
            for (n, (g, w)) in got.iter().zip(&renders[k..]).enumerate() {
                assert_eq!(g.0, w.0, "seed {seed}, saved after {k}: frame {}", k + n);
                assert_eq!(
                    g.1,
                    w.1 - done,
                    "seed {seed}, saved after {k}: frame {}",
                    k + n
                );
            }
            let ticks = &second.world().resource::<Ticks>().0;
            assert_eq!(
                ticks[..],
                whole_ticks[done..],
                "seed {seed}, saved after {k}"
            );

            // Without the history, the blend on screen at the save is loaded as the
            // simulated value: once ticks have moved the entities (before them the fresh
            // app's own history holds the spawn values, which are right), the first render
            // after the load is not the original's.
            if done > 0 {
                let mut bare = loaded::<NoHistory>(&partial);
                let got = run(&mut bare, &frames[..=k], k);
                assert_ne!(got[0].0, renders[k].0, "seed {seed}, saved after {k}");
                bare_checked += 1;
            }
        }
        assert!(bare_checked >= 4, "seed {seed}");
    }
}
