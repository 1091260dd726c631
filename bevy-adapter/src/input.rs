//! Bevy messages as timestamped input: each message of a registered type goes to exactly one
//! tick of one clock, through tickfold's [`InputQueue`].
//!
//! Bevy's input messages carry no timestamp (bevyengine/bevy #6183, open since 2022): so each
//! message is stamped with the `Time<Virtual>` reading of the frame that reads it, the `now` the
//! plugin steps the loop at. See [`TickInputs`] for what that means for accuracy.

use core::slice;

use bevy_app::{App, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::message::{Message, MessageReader};
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::IntoScheduleConfigs;
use bevy_ecs::system::{Res, ResMut};
use bevy_ecs::world::World;
use bevy_time::{Time, Virtual};
use tickfold_core::{ClockId, InputQueue, Tick};

use crate::resource::Tickfold;
use crate::run::{TickInputHooks, run_tickfold_clocks};

/// The messages of type `M` given to the tick being run of one clock, read in that clock's
/// schedule as `Res<TickInputs<M>>`. Registered by [`TickInputApp::add_tick_input`].
///
/// **How messages are stamped.** Once per frame, in `RunFixedMainLoop` just before the plugin
/// steps the loop, a system reads every `M` written since its previous read (a
/// `MessageReader<M>`, so each message once) and pushes it into an [`InputQueue`] stamped with
/// the frame's `Time<Virtual>` elapsed time: the very `now` the loop is stepped at. Bevy's input
/// messages have no time of their own: `KeyboardInput`, `MouseButtonInput` and the others are
/// plain data (key, state, window), written by `bevy_winit` from the events winit delivered
/// since the previous frame, just before `app.update()`, and `Time<Virtual>` is read afterwards,
/// in `First`. So the stamp is an upper bound: the event happened during the frame before
/// (between the previous reading and this one), never later.
///
/// **The rule.** All the messages read in a frame whose `Time<Virtual>` is `r` go to the first
/// tick of the clock whose due time is strictly after `v(r)`, the loop's virtual time at `r`
/// (with catch-up and no phase, the tick `k` with `k·dt ≤ v(r) < (k+1)·dt`, which runs in a
/// later frame); every tick the frame itself runs is due at or before `v(r)`, so none of them
/// takes the frame's own messages. A frame that runs no tick of the clock leaves its messages
/// queued for the next tick that runs; a frame that runs several gives all its messages to
/// one of them. This is [`InputQueue`]'s rule applied to the frame's time: each message goes
/// to exactly one tick, and the same timeline cut into other frames gives each tick the same
/// messages as long as every message is read in a frame with the same `Time<Virtual>`.
///
/// **Accuracy.** Frame-accurate, not event-accurate: an event is placed up to one frame (plus
/// the OS's and winit's own delay) later than it happened, so while frames are no longer than
/// a tick a key press lands at most one tick after the tick of its real instant. Exact per-event attribution needs the OS event time, which neither winit nor
/// Bevy passes on; push those stamps into your own `InputQueue` if a platform layer has them.
///
/// Messages written after `RunFixedMainLoop` (in `Update`, `PostUpdate`, `Last`) are read and
/// stamped in the next frame.
///
/// **Reading.** In the clock's schedule, [`iter`](Self::iter) gives this tick's messages in
/// the order they were written; [`tick`](Self::tick) says which tick they belong to. The list
/// stays until the clock's next tick: read it only from the clock's own schedule, or check
/// `tick()`, so that no message is handled twice.
///
/// # Examples
///
/// A message type of your own (Bevy's `KeyboardInput` works the same way, with `bevy_input`):
///
/// ```
/// use bevy_app::prelude::*;
/// use bevy_ecs::prelude::*;
/// use bevy_ecs::schedule::ScheduleLabel;
/// use bevy_time::{TimePlugin, TimeUpdateStrategy};
/// use core::time::Duration;
/// use tickfold_bevy::{ClockConfig, Period, TickInputApp, TickInputs, TickfoldPlugin};
///
/// #[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
/// struct FixedPhysics;
/// #[derive(Message, Clone, Debug)]
/// struct Jump(u32);
/// #[derive(Resource, Default)]
/// struct Seen(Vec<(u64, u32)>);
///
/// fn handle(inputs: Res<TickInputs<Jump>>, mut seen: ResMut<Seen>) {
///     let tick = inputs.tick().expect("in the physics schedule");
///     seen.0.extend(inputs.iter().map(|j| (tick.index, j.0)));
/// }
///
/// let mut app = App::new();
/// app.add_plugins(TimePlugin)
///     .add_plugins(TickfoldPlugin::new().clock(FixedPhysics, ClockConfig::new("physics", Period::from_hz(10)?)))
///     .add_tick_input::<Jump>("physics")
///     .init_resource::<Seen>()
///     .add_systems(FixedPhysics, handle)
///     .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(250)));
/// app.update(); // Bevy's first update starts the clock: time 0, no tick
/// app.world_mut().write_message(Jump(1)); // read in a frame at 250 ms: ticks 0 and 1 run
/// app.update();
/// app.update(); // 500 ms: ticks 2 to 4 run; the jump (v = 250 ms) is tick 2's
/// assert_eq!(app.world().resource::<Seen>().0, [(2, 1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Resource, Debug)]
pub struct TickInputs<M> {
    queue: InputQueue<M>,
    current: Vec<M>,
    tick: Option<Tick>,
    name: &'static str,
}

impl<M> TickInputs<M> {
    /// The messages of the latest tick of the clock (the tick being run, inside its
    /// schedule), in the order they were written.
    pub fn iter(&self) -> slice::Iter<'_, M> {
        self.current.iter()
    }

    /// The same messages as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[M] {
        &self.current
    }

    /// The tick the messages belong to: the clock's latest tick run (`None` before its first).
    #[must_use]
    pub fn tick(&self) -> Option<Tick> {
        self.tick
    }

    /// The clock the messages go to.
    #[must_use]
    pub fn clock(&self) -> ClockId {
        self.queue.clock()
    }

    /// Its name.
    #[must_use]
    pub fn clock_name(&self) -> &'static str {
        self.name
    }

    /// Messages read and stamped but not yet given to a tick.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.queue.len()
    }
}

impl<'a, M> IntoIterator for &'a TickInputs<M> {
    type Item = &'a M;
    type IntoIter = slice::Iter<'a, M>;
    fn into_iter(self) -> slice::Iter<'a, M> {
        self.current.iter()
    }
}

/// Registers message types as tick input: see [`TickInputs`].
pub trait TickInputApp {
    /// Gives every message of type `M` to exactly one tick of clock `clock` (registering the
    /// message type if the app has not): each tick of the clock finds its messages in
    /// `Res<TickInputs<M>>`. Add [`TickfoldPlugin`](crate::TickfoldPlugin) first.
    ///
    /// # Panics
    ///
    /// At setup, when the plugin is missing, the loop has no clock `clock`, or `M` is already
    /// registered.
    fn add_tick_input<M: Message + Clone>(&mut self, clock: &'static str) -> &mut Self;
}

impl TickInputApp for App {
    fn add_tick_input<M: Message + Clone>(&mut self, clock: &'static str) -> &mut App {
        let world = self.world();
        let Some(tf) = world.get_resource::<Tickfold>() else {
            panic!("add_tick_input: add the TickfoldPlugin first");
        };
        let Ok(id) = tf.state.clock(clock).map(|c| c.id()) else {
            panic!("add_tick_input: the loop has no clock {clock:?}");
        };
        assert!(
            !world.contains_resource::<TickInputs<M>>(),
            "add_tick_input: {} is already tick input",
            core::any::type_name::<M>()
        );
        let inputs = TickInputs::<M> {
            queue: InputQueue::for_clock(&tf.state, id, 64),
            current: Vec::new(),
            tick: None,
            name: clock,
        };
        self.insert_resource(inputs)
            .init_resource::<TickInputHooks>()
            .add_message::<M>();
        self.world_mut()
            .resource_mut::<TickInputHooks>()
            .push(drain_for_tick::<M>, reset_queue::<M>);
        self.add_systems(
            RunFixedMainLoop,
            (
                stamp_messages::<M>.before(run_tickfold_clocks),
                observe_step::<M>.after(run_tickfold_clocks),
            )
                .in_set(RunFixedMainLoopSystems::FixedMainLoop),
        )
    }
}

/// Reads the frame's messages and queues them stamped at the `now` the loop is stepped at.
fn stamp_messages<M: Message + Clone>(
    time: Res<Time<Virtual>>,
    tf: Res<Tickfold>,
    mut reader: MessageReader<M>,
    mut inputs: ResMut<TickInputs<M>>,
) {
    let now = tf.loop_now(time.elapsed());
    for message in reader.read() {
        inputs.queue.push(now, message.clone());
    }
}

/// The queue's contract: observe every step (a drain observes too, so this matters only for
/// steps that ran no tick of the clock).
fn observe_step<M: Message + Clone>(tf: Res<Tickfold>, mut inputs: ResMut<TickInputs<M>>) {
    inputs.queue.observe(&tf.state);
}

fn drain_for_tick<M: Message + Clone>(world: &mut World, tick: &Tick) {
    world.try_resource_scope::<TickInputs<M>, ()>(|world, mut inputs| {
        if tick.clock != inputs.queue.clock() {
            return;
        }
        let inputs = &mut *inputs;
        inputs.current.clear();
        let state = &world.resource::<Tickfold>().state;
        inputs.current.extend(inputs.queue.drain(tick, state));
        inputs.tick = Some(*tick);
    });
}

fn reset_queue<M: Message + Clone>(world: &mut World) {
    world.try_resource_scope::<TickInputs<M>, ()>(|world, mut inputs| {
        let state = &world.resource::<Tickfold>().state;
        inputs.queue = InputQueue::for_clock(state, inputs.queue.clock(), 64);
        inputs.current.clear();
        inputs.tick = None;
    });
}
