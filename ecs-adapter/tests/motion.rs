//! Velocity reads: extrapolation and Hermite blending through a velocity component, driven by
//! a real fold, checked against the formulas written out here.

use hecs::{Entity, World};
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};
use tickfold_hecs::{Interpolate, Interpolated, Motion, Tracker, VelocityOf};
use tickfold_testing::SplitMix64;

/// A velocity that is itself tracked (so Hermite has the previous tick's velocity).
#[derive(Copy, Clone, Debug, PartialEq)]
struct Vel(f64);

impl Interpolate for Vel {
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        Vel(self.0.interpolate(&next.0, alpha))
    }
}

impl VelocityOf<f64> for Vel {
    fn velocity(&self) -> f64 {
        self.0
    }
}

/// The textbook Hermite, in the operation order the core documents (`h00 = 1 − h01`).
fn hermite(p0: f64, p1: f64, v0: f64, v1: f64, dt: f64, t: f64) -> f64 {
    if t >= 1.0 {
        return p1;
    }
    if t <= 0.0 {
        return p0;
    }
    let (t2, t3) = (t * t, t * t * t);
    let (h01, h10, h11) = (3.0 * t2 - 2.0 * t3, t3 - 2.0 * t2 + t, t3 - t2);
    p0 + (p1 - p0) * h01 + (v0 * h10 + v1 * h11) * dt
}

/// Runs a seeded schedule of frames; each update accelerates (so velocities differ between
/// ticks), some teleport. At every render, compares both velocity reads to the formulas, with
/// the previous values kept by hand beside the world.
#[test]
fn extrapolation_and_hermite_follow_their_formulas_over_a_seeded_run() {
    let period = Period::from_hz(50).unwrap();
    let dt = period.dt_secs_f64();
    let mut state = LoopState::new(LoopConfig::new(period), Nanos(0)).unwrap();
    let mut world = World::new();
    let mut trackers = (Interpolated::<f64>::new(), Interpolated::<Vel>::new());
    let ids: Vec<Entity> = (0..4)
        .map(|i| trackers.spawn(&mut world, (f64::from(i), Vel(1.0 + f64::from(i)))))
        .collect();
    // By hand: (previous x, previous v, jumped since the capture) per entity.
    let mut shadow: Vec<Option<(f64, f64, bool)>> = vec![None; ids.len()];
    let (mut rng, mut now, mut checked, mut teleports) = (SplitMix64::new(7), 0_u64, 0, 0);
    for _ in 0..2_000 {
        now += 5_000_000 + rng.below(40) * 1_000_000;
        let events = state.advance(Nanos(now));
        for event in &events {
            match event {
                Event::Update(tick) => {
                    if trackers.before_update(&mut world, &tick) {
                        for (k, &e) in ids.iter().enumerate() {
                            let x = *world.get::<&f64>(e).unwrap();
                            let v = world.get::<&Vel>(e).unwrap().0;
                            shadow[k] = Some((x, v, false));
                        }
                    }
                    for (k, &e) in ids.iter().enumerate() {
                        let jump = rng.below(50) == 0;
                        let (mut x, mut v) = (
                            world.get::<&mut f64>(e).unwrap(),
                            world.get::<&mut Vel>(e).unwrap(),
                        );
                        v.0 += 3.0 * dt * (k as f64 - 1.5);
                        *x += v.0 * dt;
                        if jump {
                            *x += 100.0;
                            drop((x, v));
                            trackers.0.teleport(&world, e).unwrap();
                            if tick.last_in_step {
                                if let Some(s) = &mut shadow[k] {
                                    s.2 = true;
                                }
                                teleports += 1;
                            }
                        }
                    }
                }
                Event::Render(r) => {
                    let ex = trackers.0.with_velocity::<Vel>(Motion::Extrapolate, dt);
                    let he = trackers.0.with_velocity::<Vel>(Motion::Hermite, dt);
                    for (k, &e) in ids.iter().enumerate() {
                        let x = *world.get::<&f64>(e).unwrap();
                        let v = world.get::<&Vel>(e).unwrap().0;
                        let want_ex = if r.alpha > 0.0 {
                            x + v * (r.alpha * dt)
                        } else {
                            x
                        };
                        assert_eq!(
                            ex.sample(&world, e, r.alpha).unwrap().to_bits(),
                            want_ex.to_bits()
                        );
                        let want_he = match shadow[k] {
                            Some((p, v0, false)) => hermite(p, x, v0, v, dt, r.alpha),
                            _ => x, // fresh or teleported: the newest value, never a blend
                        };
                        let got = he.sample(&world, e, r.alpha).unwrap();
                        assert_eq!(got.to_bits(), want_he.to_bits(), "alpha {}", r.alpha);
                        checked += 1;
                    }
                    let mut out = Vec::new();
                    let counts = he.extract(&world, r.alpha, &mut out);
                    assert_eq!(counts.total(), ids.len() as u64);
                }
                _ => {}
            }
        }
    }
    assert!(
        checked > 4_000 && teleports > 10,
        "{checked} samples, {teleports} teleports"
    );
}

#[test]
fn hermite_without_a_tracked_velocity_uses_the_current_one_at_both_ends() {
    let mut world = World::new();
    let mut xs = Interpolated::<f64>::new();
    let e = xs.spawn(&mut world, (0.0_f64, Vel(2.0)));
    xs.capture(&mut world);
    *world.get::<&mut f64>(e).unwrap() = 1.0;
    let he = xs.with_velocity::<Vel>(Motion::Hermite, 0.5);
    for k in 0..=10 {
        let t = f64::from(k) / 10.0;
        let want = hermite(0.0, 1.0, 2.0, 2.0, 0.5, t);
        assert_eq!(he.sample(&world, e, t).unwrap(), want);
    }
    // An entity without the velocity component reads as the tracker's blend mode says.
    let still = xs.spawn(&mut world, (5.0_f64,));
    xs.capture(&mut world);
    *world.get::<&mut f64>(still).unwrap() = 7.0;
    let he = xs.with_velocity::<Vel>(Motion::Hermite, 0.5);
    assert_eq!(he.sample(&world, still, 0.5).unwrap(), 6.0);
    let ex = xs.with_velocity::<Vel>(Motion::Extrapolate, 0.5);
    assert_eq!(ex.sample(&world, still, 0.5).unwrap(), 6.0);
    assert_eq!(
        ex.sample(&world, e, f64::NAN).unwrap(),
        1.0,
        "NaN alpha: the current value"
    );
}
