//! The adapter's documented behaviours, one scenario each: one capture per catch-up step,
//! teleports in either order, spawns, recycled ids, blend modes, bad input.

use hecs::World;
use tickfold_core::{ClockId, Event, Lag, LoopConfig, LoopState, Nanos, Period, Tick};
use tickfold_hecs::{BlendMode, Discrete, Error, Interpolated, Previous, Sample, Stamp, Tracker};

#[derive(Copy, Clone, Debug, PartialEq)]
struct Velocity(f64);

fn value(interp: &Interpolated<f64>, world: &World, e: hecs::Entity, alpha: f64) -> f64 {
    interp.sample(world, e, alpha).unwrap().into_value()
}

/// A main-clock update marked last in its step: the rule captures before it.
fn last_update() -> Tick {
    Tick {
        clock: ClockId(0),
        index: 0,
        t: Nanos(0),
        dt: Period::ONE_SECOND,
        lag: Lag::ZERO,
        last_in_step: true,
    }
}

fn tracked() -> (World, Interpolated<f64>) {
    (World::new(), Interpolated::new())
}

#[test]
fn a_catch_up_step_captures_once_before_its_last_update() {
    let (mut world, mut interp) = tracked();
    let e = interp.spawn(&mut world, (0.0_f64, Velocity(1.0)));
    let config = LoopConfig::new(Period::from_hz(10).unwrap()).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    // One frame of 350 ms: three updates and a render at α = 0.5.
    let (next, events) = state.step(Nanos::from_millis(350));
    state = next;
    let mut rendered = None;
    for event in &events {
        match event {
            Event::Update(tick) => {
                interp.before_update(&mut world, &tick);
                for (x, v) in world.query_mut::<(&mut f64, &Velocity)>() {
                    *x += v.0;
                }
            }
            Event::Render(r) => rendered = Some(value(&interp, &world, e, r.alpha)),
            _ => {}
        }
    }
    assert_eq!(
        state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
        3
    );
    assert_eq!(interp.stats().captures, 1);
    assert_eq!(interp.stats().updates, 3);
    // Between tick values 2 and 3, not between 0 and 3.
    assert_eq!(rendered, Some(2.5));
    assert_eq!(
        *world.get::<&f64>(e).unwrap(),
        3.0,
        "the gameplay value is a tick value"
    );
}

#[test]
fn a_teleport_shows_the_newest_value_whatever_the_order_of_bump_and_move() {
    for bump_first in [true, false] {
        let (mut world, mut interp) = tracked();
        let e = interp.spawn(&mut world, (0.0_f64,));
        interp.capture(&mut world);
        *world.get::<&mut f64>(e).unwrap() = 1.0;
        interp.capture(&mut world);
        if bump_first {
            interp.teleport(&world, e).unwrap();
        }
        *world.get::<&mut f64>(e).unwrap() = 100.0;
        if !bump_first {
            interp.teleport(&world, e).unwrap();
        }
        interp.teleport(&world, e).unwrap(); // twice is the same as once
        for alpha in [0.0, 0.3, 1.0] {
            assert_eq!(value(&interp, &world, e, alpha), 100.0);
        }
        // The next tick blends again, from the arrival point.
        interp.capture(&mut world);
        *world.get::<&mut f64>(e).unwrap() = 102.0;
        assert_eq!(value(&interp, &world, e, 0.5), 101.0);
    }
}

#[test]
fn a_teleport_early_in_a_step_is_history_by_the_render() {
    let (mut world, mut interp) = tracked();
    let e = interp.spawn(&mut world, (0.0_f64,));
    interp.capture(&mut world);
    // Update 1 teleports, updates 2 and 3 move on: the render blends updates 2 → 3.
    *world.get::<&mut f64>(e).unwrap() = 50.0;
    world
        .get::<&mut Stamp<f64>>(e)
        .unwrap()
        .teleport(interp.epoch());
    for x in [51.0, 52.0] {
        interp.capture(&mut world);
        *world.get::<&mut f64>(e).unwrap() = x;
    }
    assert_eq!(value(&interp, &world, e, 0.5), 51.5);
}

#[test]
fn spawned_entities_show_their_newest_value_and_keep_their_archetype() {
    let (mut world, mut interp) = tracked();
    let e = interp.spawn(&mut world, (7.0_f64, Velocity(1.0)));
    assert!(world.entity(e).unwrap().has::<Previous<f64>>());
    assert!(world.entity(e).unwrap().has::<Stamp<f64>>());
    let archetypes = world.archetypes().len();
    assert_eq!(interp.sample(&world, e, 0.0).unwrap(), Sample::Value(7.0));
    for _ in 0..3 {
        interp.capture(&mut world);
    }
    assert_eq!(world.archetypes().len(), archetypes, "no archetype move");
    assert_eq!(interp.stats().adopted, 0);
}

#[test]
fn a_recycled_entity_id_never_blends_with_its_predecessor() {
    let mut interp = Interpolated::<f64>::new().keep_ghosts(2);
    let mut world = World::new();
    let old = interp.spawn(&mut world, (1.0_f64,));
    interp.capture(&mut world);
    *world.get::<&mut f64>(old).unwrap() = 2.0;
    interp.despawn(&mut world, old).unwrap();
    let new = interp.spawn(&mut world, (500.0_f64,));
    assert_eq!(new.id(), old.id(), "hecs recycled the id");
    assert_ne!(new, old);
    for alpha in [0.0, 0.5, 1.0] {
        assert_eq!(value(&interp, &world, new, alpha), 500.0);
    }
    assert_eq!(
        interp.sample(&world, old, 0.5),
        Err(Error::NoSuchEntity(old))
    );
    let ghosts = interp.ghosts();
    assert_eq!(ghosts.len(), 1);
    assert_eq!(
        (ghosts[0].entity, ghosts[0].previous, ghosts[0].last),
        (old, 1.0, 2.0)
    );
    assert_eq!(ghosts[0].fade(0.5, 2), 0.75);
    interp.before_update(&mut world, &last_update());
    assert_eq!(interp.ghosts()[0].age, 1);
    interp.before_update(&mut world, &last_update());
    assert!(interp.ghosts().is_empty(), "gone after 2 ticks");
}

/// Found by the `hecs` fuzz target (input under fuzz/regressions/hecs): a ghost recorded in a
/// step's last update blended from the value before a teleport in that update, and from the
/// spawn value of an entity spawned in it, where the live entity showed its newest value.
#[test]
fn a_ghost_blends_only_where_its_entity_did() {
    let mut interp = Interpolated::<f64>::new().keep_ghosts(2);
    let mut world = World::new();
    let (moved, jumped) = (
        interp.spawn(&mut world, (0.0_f64,)),
        interp.spawn(&mut world, (0.0_f64,)),
    );
    interp.before_update(&mut world, &last_update());
    // The step's last update: a move, a teleport, a spawn, each despawned with its ghost.
    *world.get::<&mut f64>(moved).unwrap() = 10.0;
    interp.teleport(&world, jumped).unwrap();
    *world.get::<&mut f64>(jumped).unwrap() = 100.0;
    let fresh = interp.spawn(&mut world, (3.0_f64,));
    *world.get::<&mut f64>(fresh).unwrap() = 50.0;
    let drawn: Vec<f64> = [moved, jumped, fresh]
        .iter()
        .map(|e| value(&interp, &world, *e, 0.5))
        .collect();
    assert_eq!(drawn, [5.0, 100.0, 50.0]);
    for e in [moved, jumped, fresh] {
        interp.despawn(&mut world, e).unwrap();
    }
    let ghosts: Vec<f64> = interp.ghosts().iter().map(|g| g.value(0.5)).collect();
    assert_eq!(ghosts, drawn, "each ghost draws what its entity drew");
}

#[test]
fn blend_modes_choose_their_end_and_crossfade_on_teleports() {
    let mut world = World::new();
    let mut t = (
        Interpolated::<f32>::new().mode(BlendMode::Crossfade),
        Interpolated::<Discrete<u8>>::new().mode(BlendMode::Newest),
        Interpolated::<Discrete<u16>>::new().mode(BlendMode::Previous),
        Interpolated::<Discrete<u32>>::new().mode(BlendMode::Nearest),
        Interpolated::<Discrete<u64>>::new(),
    );
    assert_eq!(t.1.blend_mode(), BlendMode::Newest);
    let e = t.spawn(
        &mut world,
        (
            0.0_f32,
            Discrete(1_u8),
            Discrete(1_u16),
            Discrete(1_u32),
            Discrete(1_u64),
        ),
    );
    t.capture(&mut world);
    world
        .insert(
            e,
            (
                4.0_f32,
                Discrete(2_u8),
                Discrete(2_u16),
                Discrete(2_u32),
                Discrete(2_u64),
            ),
        )
        .unwrap();
    let at = |a| {
        (
            t.0.sample(&world, e, a).unwrap(),
            t.1.sample(&world, e, a).unwrap().into_value().0,
            t.2.sample(&world, e, a).unwrap().into_value().0,
            t.3.sample(&world, e, a).unwrap().into_value().0,
            t.4.sample(&world, e, a).unwrap().into_value().0,
        )
    };
    // A discrete value interpolates by switching at one half, as the nearest mode does.
    assert_eq!(at(0.25), (Sample::Value(1.0), 2, 1, 1, 1));
    assert_eq!(at(0.5), (Sample::Value(2.0), 2, 1, 2, 2));
    t.0.teleport(&world, e).unwrap();
    assert_eq!(
        at(0.25).0,
        Sample::Crossfade {
            from: 0.0,
            to: 4.0,
            alpha: 0.25
        }
    );
}

#[test]
fn alpha_is_clamped_and_nan_counts_as_zero() {
    let (mut world, mut interp) = tracked();
    let e = interp.spawn(&mut world, (0.0_f64,));
    interp.capture(&mut world);
    *world.get::<&mut f64>(e).unwrap() = 8.0;
    assert_eq!(value(&interp, &world, e, f64::NAN), 0.0);
    assert_eq!(value(&interp, &world, e, -3.0), 0.0);
    assert_eq!(value(&interp, &world, e, 3.0), 8.0);
    assert_eq!(value(&interp, &world, e, 1.0), 8.0);
}

#[test]
fn missing_entities_and_components_are_typed_errors() {
    let (mut world, interp) = tracked();
    let e = world.spawn((1.0_f32,));
    assert_eq!(
        interp.sample(&world, e, 0.5),
        Err(Error::MissingComponent {
            entity: e,
            type_name: "f64"
        })
    );
    world.despawn(e).unwrap();
    assert_eq!(interp.teleport(&world, e), Err(Error::NoSuchEntity(e)));
    assert_eq!(
        interp.insert(&mut world, e, 1.0),
        Err(Error::NoSuchEntity(e))
    );
    assert!(
        Error::NoSuchEntity(e)
            .to_string()
            .contains("no such entity")
    );
}

#[test]
fn entities_without_companions_show_the_newest_value_until_adopted() {
    for adopt in [true, false] {
        let mut interp = Interpolated::<f64>::new().adopt(adopt);
        let mut world = World::new();
        let e = world.spawn((3.0_f64,));
        let counts = interp.for_each(&world, 0.5, |_, s| assert_eq!(s, Sample::Value(3.0)));
        assert_eq!(counts.untracked, 1);
        interp.capture(&mut world);
        *world.get::<&mut f64>(e).unwrap() = 5.0;
        let want = if adopt { 4.0 } else { 5.0 };
        assert_eq!(value(&interp, &world, e, 0.5), want);
        assert_eq!(interp.stats().adopted, u64::from(adopt));
    }
}

/// glam's types, which are `Interpolate` with the `glam` feature only.
#[cfg(feature = "glam")]
mod glam_types {
    use approx::assert_abs_diff_eq;
    use glam::{Quat, Vec3};
    use hecs::World;
    use tickfold_hecs::{Interpolated, Previous, Rendered};

    #[test]
    fn the_render_only_component_gets_the_blend_and_the_gameplay_one_keeps_the_tick() {
        let mut interp = Interpolated::<Vec3>::new().rendered(true);
        let mut world = World::new();
        let e = interp.spawn(&mut world, (Vec3::ZERO,));
        interp.capture(&mut world);
        *world.get::<&mut Vec3>(e).unwrap() = Vec3::new(2.0, 4.0, 0.0);
        let counts = interp.write_rendered(&world, 0.5);
        assert_eq!(counts.interpolated, 1);
        assert_eq!(
            world.get::<&Rendered<Vec3>>(e).unwrap().0,
            Vec3::new(1.0, 2.0, 0.0)
        );
        assert_eq!(*world.get::<&Vec3>(e).unwrap(), Vec3::new(2.0, 4.0, 0.0));
    }

    #[test]
    fn rotations_take_the_shortest_arc_and_are_exact_at_the_ends() {
        let mut interp = Interpolated::<Quat>::new();
        let mut world = World::new();
        let a = Quat::from_rotation_z(0.2);
        let e = interp.spawn(&mut world, (a,));
        interp.capture(&mut world);
        let b = -Quat::from_rotation_z(0.6); // the same rotation as +b, the other hemisphere
        *world.get::<&mut Quat>(e).unwrap() = b;
        let q = |alpha| interp.sample(&world, e, alpha).unwrap().into_value();
        assert_eq!(q(0.0), a);
        assert_eq!(q(1.0), b);
        assert_abs_diff_eq!(
            q(0.5).angle_between(Quat::from_rotation_z(0.4)),
            0.0,
            epsilon = 1e-4
        );
    }

    #[test]
    fn the_previous_column_has_the_layout_of_the_component() {
        // The capture copies one column into another of the same stride (issue: a Quat with its
        // epoch took 32 bytes, twice the rotation).
        assert_eq!(size_of::<Previous<Quat>>(), size_of::<Quat>());
        assert_eq!(size_of::<Previous<Vec3>>(), size_of::<Vec3>());
    }
}
