//! Trackers follow the clock they are handed: a tracker made without `.clock(id)` binds to the
//! clock of the first tick handed to `before_update`; ticks of another clock are counted, never
//! dropped without a trace; saves keep the binding (and saves from before the rule load as
//! they ran).

use hecs::World;
use tickfold_core::{
    ClockConfig, ClockId, Event, Interpolate, LoopConfig, LoopState, Nanos, Period, Tick,
};
use tickfold_hecs::{Interpolated, Tracker};

#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Position(f64);

impl Interpolate for Position {
    fn interpolate(&self, next: &Position, alpha: f64) -> Position {
        Position(self.0.interpolate(&next.0, alpha))
    }
}

/// AI (10 Hz) declared BEFORE physics (30 Hz), no alpha clock named.
fn ai_first() -> LoopState {
    let config = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10).unwrap()))
        .clock(ClockConfig::new("physics", Period::from_hz(30).unwrap()));
    LoopState::new(config, Nanos(0)).unwrap()
}

/// One step to 130 ms: physics ticks 0, 1, 2 (each adds 1 to the position), AI tick 0 (tied
/// with physics tick 2 at 100 ms, first: declared first). Hands `tracker` the ticks `pass`
/// lets through; returns what the render draws with the render's alpha and the tracker's.
fn run(tracker: &mut Interpolated<Position>, pass: impl Fn(&Tick, ClockId) -> bool) -> (f64, f64) {
    let mut state = ai_first();
    let physics = state.clock("physics").unwrap().id();
    let mut world = World::new();
    let body = tracker.spawn(&mut world, (Position(0.0),));
    // Settle the spawn: the first step's capture adopts nothing new.
    let events = state.advance(Nanos::from_millis(130));
    let mut render = None;
    for event in &events {
        match event {
            Event::Update(tick) => {
                if pass(&tick, physics) {
                    tracker.before_update(&mut world, &tick);
                }
                if tick.clock == physics {
                    world.get::<&mut Position>(body).unwrap().0 += 1.0;
                }
            }
            Event::Render(r) => render = Some(r.alpha),
            _ => {}
        }
    }
    let alpha = render.unwrap();
    let drawn = |a| tracker.sample(&world, body, a).unwrap().into_value().0;
    (drawn(alpha), drawn(tracker.alpha(&state).unwrap()))
}

#[test]
fn physics_ticks_handed_to_a_new_tracker_are_captured_with_ai_declared_first() {
    let mut tracker = Interpolated::<Position>::new();
    let (by_render, by_tracker) = run(&mut tracker, |t, physics| t.clock == physics);
    // 30 of 33.3 ms into physics tick 3: the blend of 2.0 and 3.0, not the newest tick.
    assert!((by_render - 2.9).abs() < 1e-9, "drew {by_render}");
    assert!((by_tracker - 2.9).abs() < 1e-9, "drew {by_tracker}");
    let stats = tracker.stats();
    assert_eq!(
        (stats.captures, stats.updates, stats.other_clock_ticks),
        (1, 3, 0)
    );
    assert_eq!(tracker.bound_clock(), Some(ClockId(1)));
    assert_eq!(tracker.clock_id(), ClockId(1));
}

#[test]
fn every_tick_handed_binds_to_the_first_and_counts_the_others() {
    let mut tracker = Interpolated::<Position>::new();
    let (by_render, _) = run(&mut tracker, |_, _| true);
    assert!((by_render - 2.9).abs() < 1e-9, "drew {by_render}");
    let stats = tracker.stats();
    // AI tick 0 came after physics tick 0 had bound the tracker: counted, not acted on.
    assert_eq!(
        (stats.captures, stats.updates, stats.other_clock_ticks),
        (1, 3, 1)
    );
    assert_eq!(tracker.bound_clock(), Some(ClockId(1)));
}

#[test]
fn an_explicit_clock_keeps_ignoring_other_clocks_but_counts_them() {
    // Bound to AI by the user: physics ticks are not its business, and are counted.
    let mut tracker = Interpolated::<Position>::new().clock(ClockId(0));
    let (_, by_tracker) = run(&mut tracker, |_, _| true);
    // Captured before AI tick 0 (after physics ticks 0 and 1), drawn at AI's alpha (0.3).
    assert!((by_tracker - 2.3).abs() < 1e-9, "drew {by_tracker}");
    let stats = tracker.stats();
    assert_eq!((stats.updates, stats.other_clock_ticks), (1, 3));
    assert_eq!(tracker.bound_clock(), Some(ClockId(0)));
}

#[test]
fn an_unbound_tracker_reads_the_loops_alpha_clock_and_an_id_no_clock_has() {
    let mut state = ai_first();
    let tracker = Interpolated::<Position>::new();
    assert_eq!(tracker.bound_clock(), None);
    assert_eq!(tracker.clock_id(), ClockId(u16::MAX));
    let events = state.advance(Nanos::from_millis(130));
    let render = events.render().unwrap();
    assert_eq!(tracker.alpha(&state), Ok(render.alpha));
    assert_eq!(
        state.clock(tracker.clock_id()).ok().map(|c| c.alpha()),
        None
    );
}

#[test]
fn a_tuple_of_trackers_binds_each() {
    let mut state = ai_first();
    let physics = state.clock("physics").unwrap().id();
    let mut world = World::new();
    let mut trackers = (Interpolated::<Position>::new(), Interpolated::<f32>::new());
    let _ = trackers.spawn(&mut world, (Position(0.0), 0.0_f32));
    let events = state.advance(Nanos::from_millis(130));
    for tick in events.updates().filter(|t| t.clock == physics) {
        trackers.before_update(&mut world, &tick);
    }
    assert_eq!(trackers.0.bound_clock(), Some(physics));
    assert_eq!(trackers.1.bound_clock(), Some(physics));
    assert_eq!(
        (trackers.0.stats().captures, trackers.1.stats().captures),
        (1, 1)
    );
}

#[cfg(feature = "serde")]
mod saves {
    use super::*;

    fn round_trip(tracker: &Interpolated<Position>, world: &mut World) -> Interpolated<Position> {
        let saved = tracker.save(world);
        let json = serde_json::to_string(&saved).unwrap();
        let back: tickfold_hecs::SavedTracker<Position> = serde_json::from_str(&json).unwrap();
        Interpolated::load(back, world, Some).unwrap()
    }

    #[test]
    fn the_binding_survives_a_save() {
        let mut world = World::new();
        let unbound = Interpolated::<Position>::new();
        assert_eq!(round_trip(&unbound, &mut world).bound_clock(), None);

        let mut implicit = Interpolated::<Position>::new();
        let mut state = ai_first();
        let events = state.advance(Nanos::from_millis(50));
        let tick = events.updates().next().unwrap(); // physics tick 0
        let _ = implicit.before_update(&mut world, &tick);
        let mut loaded = round_trip(&implicit, &mut world);
        assert_eq!(loaded.bound_clock(), Some(tick.clock));
        // Still bound implicitly: an AI tick is counted, as before the save.
        let events = state.advance(Nanos::from_millis(100));
        for tick in events.updates() {
            let _ = loaded.before_update(&mut world, &tick);
        }
        assert_eq!(loaded.stats().other_clock_ticks, 1);

        let explicit = Interpolated::<Position>::new().clock(ClockId(0));
        assert_eq!(
            round_trip(&explicit, &mut world).bound_clock(),
            Some(ClockId(0))
        );
    }

    #[test]
    fn a_tracker_saved_before_the_rule_follows_the_clock_it_followed() {
        // Written by tickfold-hecs at 63fb199: `Interpolated::<f32>::new()` in the loop of
        // `ai_first`, handed every tick; it followed clock 0 (AI) then.
        let old = include_str!("golden/tracker_63fb199_new.json");
        let saved: tickfold_hecs::SavedTracker<f32> = serde_json::from_str(old).unwrap();
        let mut world = World::new();
        let e = world.spawn((0.6_f32,));
        let old_entity = saved.entities().next().unwrap();
        let tracker =
            Interpolated::load(saved, &mut world, |o| (o == old_entity).then_some(e)).unwrap();
        assert_eq!(tracker.bound_clock(), Some(ClockId(0)));
        assert_eq!(tracker.stats().other_clock_ticks, 0);
        assert_eq!(tracker.stats().captures, 2);
        // The loop saved beside it keeps AI as its alpha clock, so the pair draws as before.
        let state: LoopState =
            serde_json::from_str(include_str!("golden/state_63fb199_ai_first.json")).unwrap();
        assert_eq!(state.alpha_clock(), ClockId(0));
    }
}

/// Issue 43, 3.3: a tracker bound to a clock the loop does not have never captures; reading
/// its alpha from the loop says so (the lookup's error naming the id), never a silent 1.0
/// (which it read while the render's alpha was 0.9).
#[test]
fn a_tracker_bound_to_a_clock_the_loop_lacks_is_refused_when_read() {
    let mut tracker = Interpolated::<Position>::new().clock(ClockId(9));
    let mut state = ai_first();
    let events = state.advance(Nanos::from_millis(130));
    let mut world = World::new();
    let _ = tracker.spawn(&mut world, (Position(0.0),));
    for tick in events.updates() {
        assert!(!tracker.before_update(&mut world, &tick));
    }
    assert_eq!(tracker.stats().other_clock_ticks, 4);
    let read = format!("{:?}", tracker.alpha(&state));
    assert!(
        read.contains("Err") && read.contains("ClockId(9)"),
        "{read}"
    );
    // Bound by name, the same tracker follows physics and reads its alpha.
    let physics = state.clock("physics").unwrap().id();
    let bound = Interpolated::<Position>::new().clock(physics);
    assert_eq!(
        bound.alpha(&state),
        Ok(state.clock(physics).unwrap().alpha())
    );
}
