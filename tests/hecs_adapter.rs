//! The hecs adapter driven by the fold through the public API: frames of every length
//! (zero-length, sub-tick, spikes that run several catch-up updates, spikes past the max frame
//! delta), one capture per step with updates (before its last), and every render equal to
//! the exact motion at the render's alpha.

use approx::assert_relative_eq;
use tickfold::{Event, Events, LoopConfig, LoopState, Nanos, Period};
use tickfold_hecs::Interpolated;
use tickfold_hecs::hecs::World;
use tickfold_testing::SplitMix64;

struct Speed(f64);

/// Seeded frame lengths between 0 and 3 ticks, with a 1 s spike now and then.
fn frames(seed: u64, count: usize) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let x = rng.next_u64();
            match x % 20 {
                0 => 0,
                1 => 1_000_000_000,
                _ => x % 50_000_000,
            }
        })
        .collect()
}

#[test]
fn every_render_shows_the_exact_motion_at_its_alpha() {
    for seed in 1..=8_u64 {
        let mut world = World::new();
        let mut interp = Interpolated::<f64>::new();
        let speeds = [1.0, -2.5, 0.0, 40.0];
        for s in speeds {
            interp.spawn(&mut world, (0.0_f64, Speed(s)));
        }
        let config = LoopConfig::new(Period::from_hz(60).unwrap());
        let mut state = LoopState::new(config, Nanos(0)).unwrap();
        let (mut events, mut now, mut drawn) = (Events::new(), 0_u64, Vec::new());
        let (mut updates, mut renders, mut catch_up) = (0_u64, 0_u64, 0_u64);
        let mut steps_with_updates = 0_u64;
        for len in frames(seed, 400) {
            now += len;
            state.advance_into(Nanos(now), &mut events);
            let n = events.updates().count();
            catch_up += u64::from(n > 1);
            steps_with_updates += u64::from(n > 0);
            for event in events.iter() {
                match event {
                    Event::Update(tick) => {
                        updates += 1;
                        interp.before_update(&mut world, &tick);
                        for (x, s) in world.query_mut::<(&mut f64, &Speed)>() {
                            *x += s.0 * tick.dt_secs();
                        }
                    }
                    Event::Render(r) => {
                        renders += 1;
                        interp.extract(&world, r.alpha, &mut drawn);
                        // The current state is after `updates` updates, the previous one after
                        // one fewer; before the first update there is only the spawn value.
                        let shown = if updates == 0 {
                            0.0
                        } else {
                            updates as f64 - 1.0 + r.alpha
                        };
                        for (x, s) in drawn.iter().zip(speeds) {
                            let want = s * shown / 60.0;
                            assert_relative_eq!(*x, want, epsilon = 1e-9, max_relative = 1e-9);
                        }
                    }
                    _ => {}
                }
            }
        }
        assert_eq!(
            interp.stats().captures,
            steps_with_updates,
            "one capture per step with updates"
        );
        assert_eq!(updates, state.clock("main").unwrap().stats().ticks_run);
        assert!(
            renders > 300 && catch_up > 10,
            "seed {seed}: {renders} renders, {catch_up} catch-ups"
        );
    }
}

#[cfg(feature = "hecs")]
#[test]
fn the_facade_re_exports_the_adapter() {
    use tickfold::hecs_adapter::{BlendMode, Interpolated};
    let interp = Interpolated::<f32>::new().mode(BlendMode::Nearest);
    assert_eq!(interp.blend_mode(), BlendMode::Nearest);
}
