//! Messages as tick input: every message reaches exactly one tick, and the tick is the one
//! tickfold-core's own `InputQueue` picks for the same stamps (the frame's `Time<Real>`).

mod common;

use core::time::Duration;

use bevy_app::App;
use bevy_ecs::prelude::*;
use common::{FixedAi, FixedPhysics, Rng, base_app, frame, test_clock};
use tickfold_bevy::tickfold_core::{InputQueue, Tick};
use tickfold_bevy::{
    ClockConfig, CurrentTick, Event, Nanos, Period, TickInputApp, TickInputs, TickfoldPlugin,
};

#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
struct Press(u32);

#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
struct Order(u32);

/// What each tick's systems saw: (clock, tick, ids), one entry per tick run.
#[derive(Resource, Default)]
struct Seen(Vec<(&'static str, u64, Vec<u32>)>);

fn see_presses(tick: Res<CurrentTick>, inputs: Res<TickInputs<Press>>, mut seen: ResMut<Seen>) {
    assert_eq!(inputs.tick().map(|t| t.index), Some(tick.index));
    let ids = inputs.iter().map(|p| p.0).collect();
    seen.0.push((test_clock(tick.name()), tick.index, ids));
}

fn see_orders(tick: Res<CurrentTick>, inputs: Res<TickInputs<Order>>, mut seen: ResMut<Seen>) {
    let ids = inputs.iter().map(|o| o.0).collect();
    seen.0.push((test_clock(tick.name()), tick.index, ids));
}

fn plugin() -> TickfoldPlugin {
    // 60 Hz with the default cap of 8 (long frames defer ticks), 7 Hz constant-rate AI.
    TickfoldPlugin::new()
        .clock(
            FixedPhysics,
            ClockConfig::new("physics", Period::from_hz(60).unwrap()),
        )
        .clock(FixedAi, ClockConfig::new("ai", Period::from_hz(7).unwrap()))
        .virtual_time(tickfold_bevy::VirtualTime::KeepReal {
            max_frame_delta: None,
        })
}

fn app() -> App {
    let mut app = base_app();
    app.add_plugins(plugin())
        .add_tick_input::<Press>("physics")
        .add_tick_input::<Order>("ai")
        .init_resource::<Seen>()
        .add_systems(FixedPhysics, see_presses)
        .add_systems(FixedAi, see_orders);
    app
}

/// tickfold-core on its own, fed the same stamps: each frame's messages pushed at the frame's
/// `now`, one step, each update of the queue's clock drained.
struct Mirror {
    state: tickfold_bevy::LoopState,
    presses: InputQueue<u32>,
    orders: InputQueue<u32>,
    seen: Vec<(&'static str, u64, Vec<u32>)>,
}

impl Mirror {
    fn new() -> Mirror {
        let state = plugin().build_state(Duration::from_micros(15_625)).unwrap();
        let physics = state.clock("physics").unwrap().id();
        let ai = state.clock("ai").unwrap().id();
        Mirror {
            presses: InputQueue::for_clock(&state, physics, 0),
            orders: InputQueue::for_clock(&state, ai, 0),
            state,
            seen: Vec::new(),
        }
    }

    fn frame(&mut self, now: Nanos, presses: &[u32], orders: &[u32]) {
        presses.iter().for_each(|&p| self.presses.push(now, p));
        orders.iter().for_each(|&o| self.orders.push(now, o));
        let events = self.state.advance(now);
        self.presses.observe(&self.state);
        self.orders.observe(&self.state);
        for event in &events {
            if let Event::Update(tick) = event {
                let clock = self.state.clock(tick.clock).unwrap();
                let name = test_clock(clock.name());
                let queue = match name {
                    "physics" => &mut self.presses,
                    "ai" => &mut self.orders,
                    _ => continue, // the main clock, which takes no input here
                };
                let ids = queue.drain(&tick, &self.state).collect();
                self.seen.push((name, tick.index, ids));
            }
        }
    }
}

#[test]
fn every_message_reaches_exactly_one_tick_the_one_core_picks() {
    let mut app = app();
    let mut mirror = Mirror::new();
    let mut rng = Rng::new(0x1234_0023);
    let (mut next_id, mut real) = (0u32, Duration::ZERO);
    let (mut empty_frames, mut busy_frames) = (0, 0);
    for n in 0..3_000u64 {
        // Mostly 0 to 40 ms (several ticks, or none), zero-length frames, a 300 ms hitch
        // now and then (deferred by the cap of 8).
        let d = match rng.range(0, 39) {
            0 => Duration::ZERO,
            1 => Duration::from_millis(300),
            _ => Duration::from_micros(rng.range(0, 40_000)),
        };
        let mut sent = |rng: &mut Rng| -> Vec<u32> {
            (0..rng.range(0, 3))
                .map(|_| {
                    next_id += 1;
                    next_id
                })
                .collect()
        };
        let (presses, orders) = (sent(&mut rng), sent(&mut rng));
        for &p in &presses {
            app.world_mut().write_message(Press(p));
        }
        for &o in &orders {
            app.world_mut().write_message(Order(o));
        }
        let before = app.world().resource::<Seen>().0.len();
        frame(&mut app, n, d);
        if n > 0 {
            real += d; // Bevy's first update only starts its clock
        }
        mirror.frame(Nanos::from(real), &presses, &orders);
        let ran = app.world().resource::<Seen>().0[before..]
            .iter()
            .filter(|s| s.0 == "physics")
            .count();
        match ran {
            0 => empty_frames += 1,
            2.. => busy_frames += 1,
            1 => {}
        }
    }
    let seen = &app.world().resource::<Seen>().0;
    assert!(
        empty_frames > 100 && busy_frames > 100,
        "{empty_frames} {busy_frames}"
    );
    // The same ticks, each with the same messages, as core's queue fed the same stamps.
    assert_eq!(seen.len(), mirror.seen.len());
    for (got, want) in seen.iter().zip(&mirror.seen) {
        assert_eq!(got, want);
    }
    // Each message once: given to a tick, or still queued for the next one.
    let mut given: Vec<u32> = seen.iter().flat_map(|s| s.2.iter().copied()).collect();
    given.sort_unstable();
    let pending = app.world().resource::<TickInputs<Press>>().pending()
        + app.world().resource::<TickInputs<Order>>().pending();
    assert_eq!(given.len() + pending, next_id as usize);
    given.dedup();
    assert_eq!(given.len() + pending, next_id as usize, "a message twice");
    assert!(given.len() > 5_000);
    // Most ticks ran with no input and some with several: the check is not vacuous.
    assert!(seen.iter().any(|s| s.2.len() >= 3));
}

#[test]
fn a_message_in_a_frame_without_a_tick_waits_for_the_next_tick() {
    let mut app = base_app();
    let clock = ClockConfig::new("physics", Period::from_hz(10).unwrap());
    app.add_plugins(TickfoldPlugin::new().clock(FixedPhysics, clock))
        .add_tick_input::<Press>("physics")
        .init_resource::<Seen>()
        .add_systems(FixedPhysics, see_presses);
    frame(&mut app, 0, Duration::ZERO); // starts the clock at 0
    app.world_mut().write_message(Press(7));
    frame(&mut app, 1, Duration::from_millis(30)); // 30 ms: no tick (tick 0 is due at 100 ms)
    frame(&mut app, 2, Duration::from_millis(30)); // 60 ms: none either
    assert!(app.world().resource::<Seen>().0.is_empty());
    assert_eq!(app.world().resource::<TickInputs<Press>>().pending(), 1);
    // 250 ms: ticks 0 and 1 run; the press, stamped 30 ms, is tick 0's alone.
    frame(&mut app, 3, Duration::from_millis(190));
    let seen = &app.world().resource::<Seen>().0;
    assert_eq!(seen, &[("physics", 0, vec![7]), ("physics", 1, vec![])]);
    assert_eq!(app.world().resource::<TickInputs<Press>>().pending(), 0);
    // A message read in a frame that runs a tick does not go to it: its stamp (350 ms) is
    // after tick 2's due time (300 ms), so it is the next tick's (tick 3, due at 400 ms).
    app.world_mut().write_message(Press(8));
    frame(&mut app, 4, Duration::from_millis(100));
    frame(&mut app, 5, Duration::from_millis(50));
    let seen = &app.world().resource::<Seen>().0;
    assert_eq!(seen[2..], [("physics", 2, vec![]), ("physics", 3, vec![8])]);
    let last: Option<Tick> = app.world().resource::<TickInputs<Press>>().tick();
    assert_eq!(last.map(|t| t.index), Some(3));
}
