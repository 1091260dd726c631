//! The adapter's documented behaviours, one scenario each: capture before every update of a
//! catch-up step, teleports in either order, spawns, recycled ids, policies, bad input.

use approx::assert_abs_diff_eq;
use glam::{Quat, Vec3};
use hecs::World;
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, TickRate};
use tickfold_hecs::{Companion, Discrete, Error, Interpolator, Policy, Rendered, Sample, Track};

#[derive(Copy, Clone, Debug, PartialEq)]
struct Velocity(f64);

fn value(interp: &Interpolator, world: &World, e: hecs::Entity, alpha: f64) -> f64 {
    interp.sample::<f64>(world, e, alpha).unwrap().into_value()
}

fn tracked() -> (World, Interpolator) {
    let mut interp = Interpolator::new();
    interp.track::<f64>(Track::new()).unwrap();
    (World::new(), interp)
}

#[test]
fn a_catch_up_step_captures_before_every_update() {
    let (mut world, mut interp) = tracked();
    let e = interp.spawn(&mut world, (0.0_f64, Velocity(1.0)));
    let config = LoopConfig::new(TickRate::from_hz(10).unwrap()).max_frame_delta(None);
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    // One frame of 350 ms: three updates and a render at α = 0.5.
    let (next, events) = state.step(Nanos::from_millis(350));
    state = next;
    let mut rendered = None;
    for event in &events {
        match event {
            Event::Update(_) => interp.update(&mut world, |w, _| {
                for (x, v) in w.query_mut::<(&mut f64, &Velocity)>() {
                    *x += v.0;
                }
            }),
            Event::Render(r) => rendered = Some(value(&interp, &world, e, r.alpha)),
            _ => {}
        }
    }
    assert_eq!(state.ticks_run(), 3);
    assert_eq!(interp.stats().captures, 3);
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
            interp.teleport::<f64>(&world, e).unwrap();
        }
        *world.get::<&mut f64>(e).unwrap() = 100.0;
        if !bump_first {
            interp.teleport::<f64>(&world, e).unwrap();
        }
        interp.teleport::<f64>(&world, e).unwrap(); // twice is the same as once
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
        .get::<&mut Companion<f64>>(e)
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
    assert!(world.entity(e).unwrap().has::<Companion<f64>>());
    let archetypes = world.archetypes().len();
    assert_eq!(
        interp.sample::<f64>(&world, e, 0.0).unwrap(),
        Sample::Value(7.0)
    );
    for _ in 0..3 {
        interp.capture(&mut world);
    }
    assert_eq!(world.archetypes().len(), archetypes, "no archetype move");
    assert_eq!(interp.stats().adopted, 0);
}

#[test]
fn a_recycled_entity_id_never_blends_with_its_predecessor() {
    let mut interp = Interpolator::new();
    interp.track::<f64>(Track::new().ghosts(2)).unwrap();
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
        interp.sample::<f64>(&world, old, 0.5),
        Err(Error::NoSuchEntity(old))
    );
    let ghosts = interp.ghosts::<f64>().unwrap();
    assert_eq!(ghosts.len(), 1);
    assert_eq!(
        (ghosts[0].entity, ghosts[0].previous, ghosts[0].last),
        (old, 1.0, 2.0)
    );
    assert_eq!(ghosts[0].fade(0.5, 2), 0.75);
    interp.capture(&mut world);
    interp.capture(&mut world);
    assert!(
        interp.ghosts::<f64>().unwrap().is_empty(),
        "gone after 2 ticks"
    );
}

#[test]
fn policies_choose_their_end_and_crossfade_on_teleports() {
    let mut world = World::new();
    let mut interp = Interpolator::new();
    interp
        .track::<f32>(Track::new().policy(Policy::Crossfade))
        .unwrap()
        .track::<Discrete<u8>>(Track::new())
        .unwrap()
        .track::<Discrete<u16>>(Track::new().policy(Policy::Previous))
        .unwrap()
        .track::<Discrete<u32>>(Track::new().policy(Policy::Nearest))
        .unwrap();
    assert_eq!(interp.policy::<Discrete<u8>>(), Some(Policy::Newest));
    let e = interp.spawn(
        &mut world,
        (0.0_f32, Discrete(1_u8), Discrete(1_u16), Discrete(1_u32)),
    );
    interp.capture(&mut world);
    world
        .insert(
            e,
            (4.0_f32, Discrete(2_u8), Discrete(2_u16), Discrete(2_u32)),
        )
        .unwrap();
    let at = |a| {
        (
            interp.sample::<f32>(&world, e, a).unwrap(),
            interp
                .sample::<Discrete<u8>>(&world, e, a)
                .unwrap()
                .into_value()
                .0,
            interp
                .sample::<Discrete<u16>>(&world, e, a)
                .unwrap()
                .into_value()
                .0,
            interp
                .sample::<Discrete<u32>>(&world, e, a)
                .unwrap()
                .into_value()
                .0,
        )
    };
    assert_eq!(at(0.25), (Sample::Value(1.0), 2, 1, 1));
    assert_eq!(at(0.5), (Sample::Value(2.0), 2, 1, 2));
    interp.teleport::<f32>(&world, e).unwrap();
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
fn unregistered_types_and_duplicates_are_typed_errors() {
    let (mut world, mut interp) = tracked();
    let e = world.spawn((1.0_f32,));
    let unregistered = Error::Unregistered { type_name: "f32" };
    assert_eq!(
        interp.for_each::<f32>(&world, 0.5, |_, _| {}),
        Err(unregistered)
    );
    assert_eq!(
        interp.extract::<f32>(&world, 0.5, &mut Vec::new()),
        Err(unregistered)
    );
    assert_eq!(interp.teleport::<f32>(&world, e), Err(unregistered));
    assert_eq!(interp.ghosts::<f32>().err(), Some(unregistered));
    assert_eq!(interp.write_rendered::<f32>(&world, 0.5), Err(unregistered));
    assert_eq!(
        interp.track::<f64>(Track::new()).err(),
        Some(Error::AlreadyTracked { type_name: "f64" })
    );
    assert_eq!(
        interp.sample::<f64>(&world, e, 0.5),
        Err(Error::MissingComponent {
            entity: e,
            type_name: "f64"
        })
    );
    assert!(unregistered.to_string().contains("not tracked"));
    interp.capture(&mut world);
}

#[test]
fn entities_without_a_companion_show_the_newest_value_until_adopted() {
    for adopt in [true, false] {
        let mut interp = Interpolator::new();
        interp.track::<f64>(Track::new().adopt(adopt)).unwrap();
        let mut world = World::new();
        let e = world.spawn((3.0_f64,));
        let counts = interp.for_each::<f64>(&world, 0.5, |_, s| assert_eq!(s, Sample::Value(3.0)));
        assert_eq!(counts.unwrap().untracked, 1);
        interp.capture(&mut world);
        *world.get::<&mut f64>(e).unwrap() = 5.0;
        let want = if adopt { 4.0 } else { 5.0 };
        assert_eq!(value(&interp, &world, e, 0.5), want);
        assert_eq!(interp.stats().adopted, u64::from(adopt));
    }
}

#[test]
fn the_render_only_component_gets_the_blend_and_the_gameplay_one_keeps_the_tick() {
    let mut interp = Interpolator::new();
    interp.track::<Vec3>(Track::new().rendered(true)).unwrap();
    let mut world = World::new();
    let e = interp.spawn(&mut world, (Vec3::ZERO,));
    interp.capture(&mut world);
    *world.get::<&mut Vec3>(e).unwrap() = Vec3::new(2.0, 4.0, 0.0);
    let counts = interp.write_rendered::<Vec3>(&world, 0.5).unwrap();
    assert_eq!(counts.interpolated, 1);
    assert_eq!(
        world.get::<&Rendered<Vec3>>(e).unwrap().0,
        Vec3::new(1.0, 2.0, 0.0)
    );
    assert_eq!(*world.get::<&Vec3>(e).unwrap(), Vec3::new(2.0, 4.0, 0.0));
}

#[test]
fn rotations_take_the_shortest_arc_and_are_exact_at_the_ends() {
    let mut interp = Interpolator::new();
    interp.track::<Quat>(Track::new()).unwrap();
    let mut world = World::new();
    let a = Quat::from_rotation_z(0.2);
    let e = interp.spawn(&mut world, (a,));
    interp.capture(&mut world);
    let b = -Quat::from_rotation_z(0.6); // the same rotation as +b, the other hemisphere
    *world.get::<&mut Quat>(e).unwrap() = b;
    let q = |alpha| {
        interp
            .sample::<Quat>(&world, e, alpha)
            .unwrap()
            .into_value()
    };
    assert_eq!(q(0.0), a);
    assert_eq!(q(1.0), b);
    assert_abs_diff_eq!(
        q(0.5).angle_between(Quat::from_rotation_z(0.4)),
        0.0,
        epsilon = 1e-4
    );
}
