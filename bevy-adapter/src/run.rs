//! The per-frame system: step the fold once to Bevy's virtual time, then run each update's
//! clock schedule in the fold's order, with `Time<Fixed>`, `Time` and [`CurrentTick`] set
//! for it, as Bevy's own `run_fixed_main_schedule` sets them.

use core::mem;
use std::sync::Arc;

use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use bevy_time::{Fixed, Time, Virtual};
use tickfold_core::{Event, Events, Nanos, Tick};

use crate::clock_schedule::prepare_clock_schedules;
use crate::messages::{ClockEnded, LoopNotice, TicksDeferred, TicksDropped, TimeDiscarded};
use crate::resource::{CurrentTick, Tickfold};
use crate::schedules::Taken;
use crate::writes::{self, Written};

/// Steps the [`Tickfold`] loop to `Time<Virtual>`'s elapsed time and handles the step's
/// events in order: each update runs its clock's schedule once (for the main clock,
/// `FixedMain`'s sub-schedules in `FixedMainScheduleOrder`'s order, as `FixedMain` runs them;
/// the schedules are taken out of `Schedules` once for the frame), every other event becomes
/// a message. Added by
/// [`TickfoldPlugin`](crate::TickfoldPlugin) to `RunFixedMainLoop` in place of Bevy's own
/// `run_fixed_main_schedule`; call it yourself only in a world without the plugin's system
/// (the plugin's other system, which reports a clamped frame as
/// [`VirtualTimeClamped`](crate::VirtualTimeClamped) in `First`, is not part of it). After the
/// runs it lets Bevy update its message buffers at the next `First` only if every clock has
/// run since the last update, so every clock's readers see every message.
pub fn run_tickfold_clocks(world: &mut World) {
    let Some(virt) = world.get_resource::<Time<Virtual>>().copied() else {
        return;
    };
    let written = world.get_resource::<Time<Fixed>>().copied();
    let Some(mut tf) = world.get_resource_mut::<Tickfold>() else {
        return;
    };
    if tf.lent {
        tf.check_main_clock();
    }
    if tf.unprepared {
        // Clocks added since the previous frame get their schedule's order before they run.
        prepare_clock_schedules(world);
        tf = world.resource_mut::<Tickfold>();
    }
    let tf = &mut *tf;
    // What the app wrote to `Time<Fixed>` since the previous frame is the main clock's.
    if let (Some(written), Some(main)) = (written, tf.clocks.first()) {
        if let Some(w) = writes::written(main.id, &main.fixed, &written) {
            tf.apply_written(w);
        }
    }
    let now = tf.loop_now(virt.elapsed());
    tf.now = now;
    tf.frame_updates = 0;
    for c in &mut tf.clocks {
        c.frame_updates = 0;
    }
    let mut events = mem::take(&mut tf.events);
    let mut taken = mem::take(&mut tf.taken);
    // The schedules the ticks run are taken out of `Schedules` once a frame (as Bevy's own loop
    // takes `FixedMain`), when the frame has ticks, and put back after them.
    let mut took = false;
    loop {
        let mut tf = world.resource_mut::<Tickfold>();
        let deadline = events.deadline().copied();
        tf.keep_for_step(deadline, now);
        tf.state.advance_into(now, &mut events);
        if took && tf.unprepared {
            // A clock added in a run, stepped again: its schedule, ordered, is taken too.
            taken.put_back(world);
            prepare_clock_schedules(world);
            took = false;
        }
        if !took && events.updates().next().is_some() {
            // The extra clocks' schedules (the main clock's, `FixedMain`, is taken by its parts).
            let tf = world.resource::<Tickfold>();
            taken.set_clocks(tf.clocks.iter().skip(1).filter_map(|c| c.label));
            taken.take(world);
            took = true;
        }
        match run_events(world, (&events, now), (0, false), &mut taken) {
            Pass::Done => break,
            // Written in the step's last run: applied; step again at the same time.
            Pass::Again => {}
            Pass::Back {
                runs,
                tick,
                written,
            } => {
                back_to_run(world, (&events, now), runs, &tick, written, &mut taken);
            }
        }
    }
    if took {
        taken.put_back(world);
    }
    let mut tf = world.resource_mut::<Tickfold>();
    // Keep the events' and schedules' buffers for the next frame.
    mem::swap(&mut tf.events, &mut events);
    mem::swap(&mut tf.taken, &mut taken);
    // Every clock's overstep now reaches the frame's virtual time; `Time<Fixed>` is the main
    // clock's again and `Time` is `Time<Virtual>`, as `run_fixed_main_schedule` leaves them.
    let tf = &mut *tf;
    let now = tf.now;
    for c in &mut tf.clocks {
        // A clock whose grid a written overstep moved: the loop's own lag.
        let lag = if c.moved {
            tf.state.clock(c.id).map(|c| c.stats().lag).ok()
        } else {
            None
        };
        c.settle(now, lag);
    }
    let main = tf.clocks.first().map(|c| c.fixed);
    let ready = tf.buffers_ready();
    if took {
        if let Some(mut current) = world.get_resource_mut::<CurrentTick>() {
            current.running = false;
        }
    }
    if let Some(main) = main {
        set_resource(world, main);
    }
    set_resource(world, virt.as_generic());
    // Bevy's message buffers update once every clock has run since the last update.
    crate::buffers::signal(world, ready);
}

/// How the events of one step were run.
enum Pass {
    /// All of them.
    Done,
    /// All of them; a write to `Time<Fixed>` in a run was applied where the loop stands, so
    /// the loop is stepped again at the same time.
    Again,
    /// Up to the `runs`-th update, `tick`, whose run wrote `Time<Fixed>` with updates after
    /// it in the step, and the loop as it was before the step is kept: back to it.
    Back {
        runs: usize,
        tick: Tick,
        written: Written,
    },
}

/// Runs `events` (one step's, to virtual time `step`) in order, from after the `skip`-th
/// update (the events up to it ran already). In a step `cut` short by [`back_to_run`], the
/// deferrals are the cut's own and are not reported.
fn run_events(
    world: &mut World,
    (events, step): (&Events<Nanos>, Nanos),
    (skip, cut): (usize, bool),
    taken: &mut Taken,
) -> Pass {
    let mut runs = 0;
    let mut again = false;
    let mut iter = events.iter();
    if skip > 0 {
        for event in iter.by_ref() {
            if matches!(event, Event::Update(_)) {
                runs += 1;
                if runs == skip {
                    break;
                }
            }
        }
    }
    while let Some(event) = iter.next() {
        let Event::Update(tick) = event else {
            if !(cut && matches!(event, Event::Deferred { .. })) {
                handle(world, event);
            }
            continue;
        };
        runs += 1;
        // The core's own answer for where the tick ends (its next tick's start while the
        // period holds); every update of the step has one.
        let end = events.tick_end(&tick).map_or(tick.t.0, |end| end.0);
        let Some(written) = run_tick(world, &tick, (end, step), taken) else {
            continue;
        };
        let later = iter.clone().any(|e| matches!(e, Event::Update(_)));
        let mut tf = world.resource_mut::<Tickfold>();
        if later && tf.snapshot.is_some() {
            return Pass::Back {
                runs,
                tick,
                written,
            };
        }
        tf.apply_written(written);
        again = true;
    }
    if again { Pass::Again } else { Pass::Done }
}

/// A run (the `runs`-th update of `events`, `tick`) wrote `Time<Fixed>` and the step has runs
/// after it: the loop goes back to where it was before the step (kept by
/// [`Tickfold::keep_for_step`]) and takes the same step with `tick`'s clock capped at the
/// number of its runs up to `tick`: the cap keeps one total order, so the step runs the same
/// runs up to `tick` (which ran already) and defers every later one of every clock. The
/// write applies there, at the frame's time, with the clock's lag still owed (an overstep
/// shrunk drops that much of it, as Bevy's loop has that much less time for the frame's later
/// runs; grown, it adds to it), the cap is the clock's own again, and the caller steps again
/// at the same time for the runs deferred. Should the capped step not give the same runs, the
/// loop stays as it was after the whole step, the write applies there and the step's other
/// runs go on as they are.
fn back_to_run(
    world: &mut World,
    (events, now): (&Events<Nanos>, Nanos),
    runs: usize,
    tick: &Tick,
    written: Written,
    taken: &mut Taken,
) {
    let mut tf = world.resource_mut::<Tickfold>();
    let tf = &mut *tf;
    let Some(kept) = tf.snapshot.take() else {
        return;
    };
    let after = mem::replace(&mut tf.state, kept);
    // The clock's runs up to `tick`, in this step.
    let own = events
        .updates()
        .take(runs)
        .filter(|t| t.clock == tick.clock)
        .count();
    let cap = tf.state.clock(tick.clock).map(|c| c.max_updates());
    let capped = match (tf.state.clock_mut(tick.clock), u32::try_from(own)) {
        (Ok(mut clock), Ok(own)) => clock.set_max_updates(Some(own)).is_ok(),
        _ => false,
    };
    let mut sub = mem::take(&mut tf.scratch);
    if capped {
        tf.state.advance_into(now, &mut sub);
    }
    if let (Ok(cap), Ok(mut clock)) = (cap, tf.state.clock_mut(tick.clock)) {
        let _ = clock.set_max_updates(cap);
    }
    if !capped || !writes::same_updates(events, &sub, runs) {
        tf.snapshot = Some(mem::replace(&mut tf.state, after));
        tf.scratch = sub;
        tf.apply_written(written);
        // The step's other runs as they are (a write in them applies where the loop stands).
        let _ = run_events(world, (events, now), (runs, false), taken);
        return;
    }
    // The capped step's runs after `tick`, if any (its deferrals are this cut's, not the
    // frame's: the runs deferred run in the next step, at the same time).
    let _ = run_events(world, (&sub, now), (runs, true), taken);
    let mut tf = world.resource_mut::<Tickfold>();
    tf.scratch = sub;
    tf.apply_written(written);
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

/// Handles an event other than an update.
fn handle(world: &mut World, event: Event<Nanos>) {
    let name = |world: &World, clock| world.resource::<Tickfold>().name_of(clock);
    match event {
        Event::Update(_) => {}
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
            // It never runs again: the message buffers no longer wait for it.
            world.resource_mut::<Tickfold>().entry(clock).ended = true;
            let name = name(world, clock);
            world.write_message(ClockEnded {
                clock,
                name,
                next_tick,
            });
        }
        Event::RateChanged { clock, period, .. } => {
            // The timestep shows the new rate at once, as Bevy's `set_timestep` does.
            let mut tf = world.resource_mut::<Tickfold>();
            tf.min_tick = None;
            tf.entry(clock).rate_changed(period);
            world.write_message(LoopNotice(event));
        }
        other => {
            world.write_message(LoopNotice(other));
        }
    }
}

/// Runs `tick`'s schedule; what the run wrote to `Time<Fixed>`, if anything.
fn run_tick(
    world: &mut World,
    tick: &Tick,
    (end, step): (u64, Nanos),
    taken: &mut Taken,
) -> Option<Written> {
    let (is_main, label, fixed, name) = {
        let mut tf = world.resource_mut::<Tickfold>();
        let now = tf.now;
        tf.frame_updates += 1;
        let entry = tf.entry(tick.clock);
        entry.frame_updates += 1;
        entry.run((tick.t.0, end), step, tick.lag, now);
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
    TickInputHooks::before_tick(world, tick);
    // Captures for interpolation and other pre-tick work; an app without it has no schedule.
    taken.run_before(world);
    if is_main {
        taken.run_main(world);
    } else if let Some(label) = label {
        // A clock whose schedule has no systems yet has no schedule: nothing to run.
        taken.run(label, world);
    }
    writes::written_in_run(world, tick.clock, &fixed)
}

/// Per registered message type (see [`TickInputApp`](crate::TickInputApp)): its drain, run
/// before each clock schedule, and its reset, run when a save is loaded. Kept here, beside the
/// run that calls the drains; `input.rs` pushes the hooks.
#[derive(Resource, Default)]
pub(crate) struct TickInputHooks(Vec<(DrainHook, ResetHook)>);

type DrainHook = fn(&mut World, &Tick);
type ResetHook = fn(&mut World);

impl TickInputHooks {
    /// Registers one message type's drain and reset.
    pub(crate) fn push(&mut self, drain: DrainHook, reset: ResetHook) {
        self.0.push((drain, reset));
    }

    /// Before a clock schedule runs: every registered type's inputs for this tick.
    fn before_tick(world: &mut World, tick: &Tick) {
        let mut i = 0;
        while let Some(hook) = world
            .get_resource::<TickInputHooks>()
            .and_then(|h| h.0.get(i).map(|h| h.0))
        {
            hook(world, tick);
            i += 1;
        }
    }

    /// Empties every registered type's queue and makes it anew for the loop the world holds
    /// now (a loaded save's).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn reset_queues(world: &mut World) {
        let mut i = 0;
        while let Some(reset) = world
            .get_resource::<TickInputHooks>()
            .and_then(|h| h.0.get(i).map(|h| h.1))
        {
            reset(world);
            i += 1;
        }
    }
}
