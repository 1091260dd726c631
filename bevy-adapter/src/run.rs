//! The per-frame system: step the fold once to Bevy's virtual time, then run each update's
//! clock schedule in the fold's order, with `Time<Fixed>`, `Time` and [`CurrentTick`] set
//! for it, as Bevy's own `run_fixed_main_schedule` sets them.

use core::mem;
use core::time::Duration;
use std::sync::Arc;

use bevy_ecs::world::World;
use bevy_time::{Fixed, Real, Time, Virtual};
use tickfold_core::{Event, Events, Nanos, Period, Tick};

use crate::messages::{
    ClockEnded, LoopNotice, TicksDeferred, TicksDropped, TimeDiscarded, VirtualTimeClamped,
};
use crate::resource::{CurrentTick, Tickfold};
use crate::schedules::Taken;

/// Steps the [`Tickfold`] loop to `Time<Virtual>`'s elapsed time and handles the step's
/// events in order: each update runs its clock's schedule once (for the main clock,
/// `FixedMain`'s sub-schedules in `FixedMainScheduleOrder`'s order, as `FixedMain` runs them;
/// the schedules are taken out of `Schedules` once for the frame), every other event becomes
/// a message. Added by
/// [`TickfoldPlugin`](crate::TickfoldPlugin) to `RunFixedMainLoop` in place of Bevy's own
/// `run_fixed_main_schedule`; call it yourself only in a world without the plugin's system.
pub fn run_tickfold_clocks(world: &mut World) {
    let Some(virt) = world.get_resource::<Time<Virtual>>().copied() else {
        return;
    };
    report_clamp(world, &virt);
    let written = world
        .get_resource::<Time<Fixed>>()
        .map(|t| (t.timestep(), t.wrap_period()));
    let Some(mut tf) = world.get_resource_mut::<Tickfold>() else {
        return;
    };
    let tf = &mut *tf;
    follow_timestep(tf, written);
    let now = tf.loop_now(virt.elapsed());
    tf.state.advance_into(now, &mut tf.events);
    tf.now = now;
    tf.frame_updates = 0;
    for c in &mut tf.clocks {
        c.frame_updates = 0;
    }
    let mut events = mem::take(&mut tf.events);
    let mut taken = mem::take(&mut tf.taken);
    // The schedules the ticks run are taken out of `Schedules` once a frame (as Bevy's own loop
    // takes `FixedMain`), when the frame has ticks, and put back after them.
    let ticks = events.updates().next().is_some();
    if ticks {
        // The extra clocks' schedules (the main clock's, `FixedMain`, is taken by its parts).
        taken.set_clocks(tf.clocks.iter().skip(1).filter_map(|c| c.label));
        taken.take(world);
    }
    for event in &events {
        handle(world, &events, event, &mut taken);
    }
    if ticks {
        taken.put_back(world);
    }
    let mut tf = world.resource_mut::<Tickfold>();
    // Keep the events' and schedules' buffers for the next frame.
    mem::swap(&mut tf.events, &mut events);
    mem::swap(&mut tf.taken, &mut taken);
    // Every clock's overstep now reaches the frame's virtual time; `Time<Fixed>` is the main
    // clock's again and `Time` is `Time<Virtual>`, as `run_fixed_main_schedule` leaves them.
    let now = tf.now;
    for c in &mut tf.clocks {
        c.settle(now);
    }
    let main = tf.clocks.first().map(|c| c.fixed);
    if ticks {
        if let Some(mut current) = world.get_resource_mut::<CurrentTick>() {
            current.running = false;
        }
    }
    if let Some(main) = main {
        set_resource(world, main);
    }
    set_resource(world, virt.as_generic());
}

/// Bevy's `Time<Virtual>` clamps a frame longer than its `max_delta` and loses the rest with
/// only a `debug!` line: the same time, exactly, as a message.
fn report_clamp(world: &mut World, virt: &Time<Virtual>) {
    // A clamped frame's delta is the max delta: any other frame is not looked at further.
    if virt.delta() != virt.max_delta() {
        return;
    }
    let Some(real) = world.get_resource::<Time<Real>>() else {
        return;
    };
    let raw = real.delta();
    // `Time<Virtual>::advance_with_raw_delta`'s own rule, which Bevy does not expose.
    let speed = if virt.is_paused() {
        0.0
    } else {
        virt.relative_speed_f64()
    };
    let scaled = if speed == 1.0 {
        raw
    } else {
        raw.mul_f64(speed)
    };
    let max = virt.max_delta();
    if scaled > max && virt.delta() == max {
        world.write_message(VirtualTimeClamped {
            real_delta: raw,
            max_delta: max,
            lost: scaled - max,
        });
    }
}

/// A user who writes `Time<Fixed>`'s timestep (as a Bevy app configures its fixed rate) sets
/// the main clock's rate: the resource's (`written`) differs from the value the plugin last
/// wrote. A wrap period written there is the main clock's from then on, as in Bevy's loop.
fn follow_timestep(tf: &mut Tickfold, written: Option<(Duration, Duration)>) {
    let Some((written, wrap)) = written else {
        return;
    };
    let Some(main) = tf.clocks.first_mut() else {
        return;
    };
    if main.fixed.wrap_period() != wrap {
        main.fixed.set_wrap_period(wrap);
    }
    if main.fixed.timestep() == written {
        return;
    }
    main.fixed.set_timestep(written);
    if let Ok(period) = Period::from_duration(written) {
        if let Ok(mut clock) = tf.state.clock_mut(main.id) {
            clock.set_rate(period);
        }
    }
}

/// Overwrites resource `R` in place (Bevy's own loop assigns through `ResMut`), or inserts it.
fn set_resource<
    R: bevy_ecs::resource::Resource
        + bevy_ecs::component::Component<Mutability = bevy_ecs::component::Mutable>,
>(
    world: &mut World,
    value: R,
) {
    match world.get_resource_mut::<R>() {
        Some(mut r) => *r = value,
        None => world.insert_resource(value),
    }
}

fn handle(world: &mut World, events: &Events<Nanos>, event: Event<Nanos>, taken: &mut Taken) {
    let name = |world: &World, clock| world.resource::<Tickfold>().name_of(clock);
    match event {
        Event::Update(tick) => {
            // The core's own answer for where the tick ends (its next tick's start while the
            // period holds); every update of the step has one.
            let end = events.tick_end(&tick).map_or(tick.t.0, |end| end.0);
            run_tick(world, &tick, end, taken);
        }
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
        Event::RateChanged { clock, period, .. } => {
            // The timestep shows the new rate at once, as Bevy's `set_timestep` does.
            world
                .resource_mut::<Tickfold>()
                .entry(clock)
                .rate_changed(period);
            world.write_message(LoopNotice(event));
        }
        other => {
            world.write_message(LoopNotice(other));
        }
    }
}

fn run_tick(world: &mut World, tick: &Tick, end: u64, taken: &mut Taken) {
    let (is_main, label, fixed, name) = {
        let mut tf = world.resource_mut::<Tickfold>();
        let now = tf.now;
        tf.frame_updates += 1;
        let entry = tf.entry(tick.clock);
        entry.frame_updates += 1;
        entry.run(tick.t.0, end, now);
        let (label, fixed, name) = (entry.label, entry.fixed, Arc::clone(&entry.name));
        (tf.clocks[0].id == tick.clock, label, fixed, name)
    };
    match world.get_resource_mut::<CurrentTick>() {
        Some(mut current) => {
            current.tick = *tick;
            if !Arc::ptr_eq(&current.name, &name) {
                current.name = name;
            }
            current.running = true;
        }
        None => world.insert_resource(CurrentTick {
            tick: *tick,
            name,
            running: true,
        }),
    }
    // Inside the run, `Time<Fixed>` and `Time` are this clock's, as Bevy's loop sets them.
    set_resource(world, fixed);
    set_resource(world, fixed.as_generic());
    crate::input::before_tick(world, tick);
    // Captures for interpolation and other pre-tick work; an app without it has no schedule.
    taken.run_before(world);
    if is_main {
        taken.run_main(world);
    } else if let Some(label) = label {
        // A clock whose schedule has no systems yet has no schedule: nothing to run.
        taken.run(label, world);
    }
}
