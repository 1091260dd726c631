//! One body thrown on a ballistic arc by a 20 Hz physics clock, drawn at 60 fps three ways:
//! interpolated (one tick behind, never wrong), extrapolated (no latency) and Hermite (the
//! curve through both ticks with their velocities as slopes). The fixed schedule moves the
//! `Transform` and only ever sees tick values; `PostUpdate` writes the blend before transform
//! propagation. It prints each frame's alpha and the three rendered heights against the exact
//! arc at the frame's time, one tick late for the interpolated modes.
//!
//! Run with: `cargo run --manifest-path bevy-adapter/Cargo.toml --example interpolated_transform`

use core::time::Duration;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use tickfold_bevy::tickfold_core::glam::Vec3;
use tickfold_bevy::{
    ClockConfig, CurrentTick, Period, Tickfold, TickfoldPlugin, TransformEasing,
    TransformInterpolation, TransformInterpolationPlugin, TransformVelocity,
    TransformVelocityPlugin,
};

#[derive(Component, Clone, Copy)]
struct Velocity(Vec3);

impl TransformVelocity for Velocity {
    fn linear(&self) -> Vec3 {
        self.0
    }
}

const G: f32 = -9.8;

/// Exact integration of constant gravity over one tick.
fn fall(tick: Res<CurrentTick>, mut bodies: Query<(&mut Transform, &mut Velocity)>) {
    let dt = tick.dt_secs() as f32;
    for (mut t, mut v) in &mut bodies {
        t.translation += v.0 * dt + Vec3::Y * (0.5 * G * dt * dt);
        v.0.y += G * dt;
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .add_plugins(
            TickfoldPlugin::new().main_clock(ClockConfig::new("physics", Period::from_hz(20)?)),
        )
        .add_plugins(TransformInterpolationPlugin::default())
        .add_plugins(TransformVelocityPlugin::<Velocity>::default())
        .add_systems(FixedUpdate, fall)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_micros(
            16_667,
        )));
    let throw = Velocity(Vec3::new(2.0, 10.0, 0.0));
    let bodies = [
        TransformEasing::Interpolate,
        TransformEasing::Extrapolate,
        TransformEasing::Hermite,
    ]
    .map(|easing| {
        let marked = TransformInterpolation::translation_only().easing(easing);
        app.world_mut()
            .spawn((Transform::default(), marked, throw))
            .id()
    });
    app.update(); // Bevy's first update starts its clock
    println!(" frame  alpha   exact(t-dt)  interpolated  hermite   exact(t)  extrapolated");
    for n in 1..=30 {
        app.update();
        let alpha = app
            .world()
            .resource::<Tickfold>()
            .render()
            .map_or(1.0, |r| r.alpha);
        let y = |i: usize| {
            app.world()
                .get::<Transform>(bodies[i])
                .map_or(f32::NAN, |t| t.translation.y)
        };
        let exact = |s: f64| 10.0 * s + 0.5 * f64::from(G) * s * s;
        let t = n as f64 * 0.016_667;
        println!(
            "{n:>6}  {alpha:.3}  {:>11.4}  {:>12.4}  {:>7.4}  {:>9.4}  {:>12.4}",
            exact(t - 0.05),
            y(0),
            y(2),
            exact(t),
            y(1)
        );
    }
    Ok(())
}
