//! The per-frame system: step the fold once, then run each update's clock schedule in the
//! fold's order, with `Time` and [`CurrentTick`] set for it.

use core::mem;
use std::sync::Arc;

use bevy_ecs::world::World;
use bevy_time::{Real, Time, Virtual};
use tickfold_core::{Event, Nanos, Tick};

use crate::messages::{ClockEnded, LoopNotice, TicksDeferred, TicksDropped, TimeDiscarded};
use crate::resource::{CurrentTick, Tickfold, fixed_time};
use crate::transform::BeforeTick;

/// Steps the [`Tickfold`] loop to `Time<Real>`'s elapsed time and handles the step's events in
/// order: each update runs its clock's schedule once, every other event becomes a message.
/// Added by [`TickfoldPlugin`](crate::TickfoldPlugin) to `RunFixedMainLoop`, after Bevy's own
/// `run_fixed_main_schedule`; call it yourself only in a world without the plugin's system.
pub fn run_tickfold_clocks(world: &mut World) {
    let elapsed = world.resource::<Time<Real>>().elapsed();
    let mut events = {
        let mut tf = world.resource_mut::<Tickfold>();
        let tf = &mut *tf;
        let now = tf.loop_now(elapsed);
        tf.state.advance_into(now, &mut tf.events);
        tf.frame_updates = 0;
        for c in &mut tf.clocks {
            c.frame_updates = 0;
        }
        mem::take(&mut tf.events)
    };
    for event in &events {
        handle(world, event);
    }
    let mut tf = world.resource_mut::<Tickfold>();
    // Keep the events' buffers for the next frame.
    mem::swap(&mut tf.events, &mut events);
    if let Some(mut current) = world.get_resource_mut::<CurrentTick>() {
        current.running = false;
    }
    // As `run_fixed_main_schedule` leaves it.
    if let Some(virt) = world.get_resource::<Time<Virtual>>() {
        let generic = virt.as_generic();
        world.insert_resource(generic);
    }
}

fn handle(world: &mut World, event: Event<Nanos>) {
    let name = |world: &World, clock| world.resource::<Tickfold>().name_of(clock);
    match event {
        Event::Update(tick) => run_tick(world, &tick),
        Event::Render(render) => world.resource_mut::<Tickfold>().render = Some(render),
        Event::DroppedTicks {
            clock,
            first,
            count,
            reason,
        } => {
            let name = name(world, clock);
            world.write_message(TicksDropped {
                clock,
                name,
                first,
                count,
                reason,
            });
        }
        Event::DiscardedTime {
            clock,
            time,
            first,
            ticks,
        } => {
            let name = name(world, clock);
            world.write_message(TimeDiscarded {
                clock,
                name,
                time,
                first,
                ticks,
            });
        }
        Event::Deferred { clock, ticks } => {
            let name = name(world, clock);
            world.write_message(TicksDeferred { clock, name, ticks });
        }
        Event::EndOfTime { clock, next_tick } => {
            let name = name(world, clock);
            world.write_message(ClockEnded {
                clock,
                name,
                next_tick,
            });
        }
        other => {
            if let Event::RateChanged {
                clock, from_tick, ..
            } = other
            {
                world
                    .resource_mut::<Tickfold>()
                    .entry(clock)
                    .rate_changed(from_tick);
            }
            world.write_message(LoopNotice(other));
        }
    }
}

fn run_tick(world: &mut World, tick: &Tick) {
    let (label, span, name) = {
        let mut tf = world.resource_mut::<Tickfold>();
        tf.frame_updates += 1;
        let entry = tf.entry(tick.clock);
        entry.frame_updates += 1;
        entry.ticks_run += 1;
        (entry.label, entry.span(tick), Arc::clone(&entry.name))
    };
    world.insert_resource(CurrentTick {
        tick: *tick,
        name,
        running: true,
    });
    world.insert_resource(fixed_time(span.0, span.1));
    crate::input::before_tick(world, tick);
    // Captures for interpolation and other pre-tick work; an app without it has no schedule.
    let _ = world.try_run_schedule(BeforeTick);
    if let Some(label) = label {
        // A clock whose schedule has no systems yet has no schedule either: nothing to run.
        let _ = world.try_run_schedule(label);
    }
}
