//! avian2d 0.8 and bevy_transform_interpolation 0.6, unchanged, on tickfold's main clock:
//! bodies' positions and the interpolated `Transform`s equal, bit for bit, the same app on
//! Bevy's own fixed loop, over 2,000 seeded frames at 64 Hz (Bevy's default timestep, which
//! it represents exactly), stalls and zero-length frames included; a second tickfold clock
//! at 10 Hz runs beside them without changing a bit.

use core::time::Duration;
use tickfold_testing::SplitMix64;

use avian2d::prelude::*;
use bevy_app::{App, PluginGroup, TaskPoolPlugin};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_math::Vec2;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::TransformPlugin;
use bevy_transform::components::Transform;
use tickfold_bevy::{ClockConfig, ClockSystems, Period, TickfoldPlugin};

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FixedAi;

/// Counts the AI clock's ticks and checks its time is its own.
#[derive(Resource, Default)]
struct AiTicks(u64);

fn ai_tick(time: Res<Time>, fixed: Res<Time<Fixed>>, mut ticks: ResMut<AiTicks>) {
    assert_eq!(fixed.timestep(), Duration::from_millis(100));
    assert_eq!(time.delta(), Duration::from_millis(100));
    ticks.0 += 1;
}

/// The frame schedule's and the bodies' seeded noise: the determinism kit's generator.
struct Rng(SplitMix64);
impl Rng {
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.0.below(hi - lo + 1)
    }
}

fn app(tickfold: bool) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        PhysicsPlugins::default().set(PhysicsInterpolationPlugin::interpolate_all()),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO))
    .insert_resource(Gravity(Vec2::NEG_Y * 9.81));
    if tickfold {
        let ai = ClockConfig::new("ai", Period::from_hz(10).unwrap());
        app.add_plugins(TickfoldPlugin::new().clock(FixedAi, ai))
            .init_resource::<AiTicks>()
            .add_systems(FixedAi, ai_tick.in_set(ClockSystems::Update));
    }
    // A floor and a pile of boxes and balls, the same in both apps.
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(200.0, 2.0),
        Transform::from_xyz(0.0, -1.0, 0.0),
    ));
    let mut rng = Rng(SplitMix64::new(0xa71a_0029));
    for i in 0..24 {
        let x = rng.range(0, 4000) as f32 / 100.0 - 20.0;
        let y = 2.0 + i as f32 * 1.5;
        let collider = if i % 2 == 0 {
            Collider::rectangle(1.0, 1.0)
        } else {
            Collider::circle(0.5)
        };
        app.world_mut().spawn((
            RigidBody::Dynamic,
            collider,
            Transform::from_xyz(x, y, 0.0),
            LinearVelocity(Vec2::new(rng.range(0, 200) as f32 / 100.0 - 1.0, 0.0)),
        ));
    }
    app.finish();
    app.cleanup();
    app
}

/// Every dynamic body's position, rotation and drawn transform, in spawn order, as bits.
fn bodies(app: &mut App) -> Vec<[u32; 6]> {
    let mut q = app
        .world_mut()
        .query_filtered::<(Entity, &Position, &Rotation, &Transform), With<RigidBody>>();
    let mut v: Vec<(Entity, [u32; 6])> = q
        .iter(app.world())
        .map(|(e, p, r, t)| {
            (
                e,
                [
                    p.x.to_bits(),
                    p.y.to_bits(),
                    r.sin.to_bits(),
                    t.translation.x.to_bits(),
                    t.translation.y.to_bits(),
                    t.rotation.z.to_bits(),
                ],
            )
        })
        .collect();
    v.sort_by_key(|e| e.0);
    v.into_iter().map(|e| e.1).collect()
}

fn frame(app: &mut App, d: Duration) {
    *app.world_mut().resource_mut::<TimeUpdateStrategy>() = TimeUpdateStrategy::ManualDuration(d);
    app.update();
}

#[test]
fn avian_and_transform_interpolation_on_the_main_clock_equal_bevys_loop_bit_for_bit() {
    let mut bevy = app(false);
    let mut tf = app(true);
    let mut rng = Rng(SplitMix64::new(0x5eed_a71a));
    let (mut moved, mut blended) = (0, 0);
    let mut last = bodies(&mut bevy);
    for n in 0..2_000 {
        let d = match rng.range(0, 99) {
            0..=2 => Duration::ZERO,
            3 => Duration::from_micros(rng.range(300_000, 1_000_000)),
            _ => Duration::from_micros(rng.range(0, 40_000)),
        };
        frame(&mut bevy, d);
        frame(&mut tf, d);
        let (b, t) = (bodies(&mut bevy), bodies(&mut tf));
        assert_eq!(b, t, "frame {n}");
        moved += usize::from(b != last);
        // bevy_transform_interpolation draws between ticks: the drawn x is not the body's.
        blended += usize::from(t.iter().any(|e| e[0] != e[3]));
        last = b;
    }
    // The pile moved in most frames (not a world at rest), and the AI clock ran beside.
    assert!(moved > 1_000 && blended > 1_000, "{moved} {blended}");
    let virt = tf.world().resource::<Time<bevy_time::Virtual>>().elapsed();
    let ai = tf.world().resource::<AiTicks>().0;
    assert_eq!(ai, (virt.as_millis() / 100) as u64);
}
