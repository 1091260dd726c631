//! When Bevy may update its message buffers: once every clock has run since the last update,
//! as Bevy's own loop waits for its one fixed run.
//!
//! A `Messages<M>` keeps a message through two buffer updates (`Messages::update`), and a
//! `MessageReader` reads each message once. Bevy updates the buffers in `First`
//! (`message_update_system`), but with `TimePlugin` only after a fixed run has happened: its
//! `FixedPostUpdate` sets `MessageRegistry::should_update` to `Ready`
//! (`signal_message_update_system`), the update sets it back to `Waiting`. So a message
//! written anywhere stays until a fixed run after the next update has read it, and a
//! `FixedUpdate` reader at any rate sees every message.
//!
//! With several clocks the same must hold for each: the plugin leaves `Ready` after a frame's
//! runs only when every clock has run a tick since the last update (a clock at the end of its
//! time axis never runs again and does not count), and `Waiting` otherwise, overriding the
//! main clock's own signal. A message then lives until every clock has run after the update
//! that follows its writing, so each clock's readers see it. `Update` readers see each message
//! once, as in Bevy: their cursors do not depend on when the buffers update, only how long
//! messages are kept does (until the slowest clock's next tick, as Bevy keeps them until its
//! next fixed run). With the main clock alone this is Bevy's rule exactly. An app that set
//! `ShouldUpdateMessages::Always` keeps it.

use bevy_ecs::message::{MessageRegistry, ShouldUpdateMessages};
use bevy_ecs::world::World;

use crate::resource::Tickfold;

/// Before the frame's runs: if Bevy updated the buffers since the plugin let it (the update
/// sets `Waiting`), every clock is owed a run again.
pub(crate) fn before_runs(world: &mut World) {
    let Some(updated) = world
        .get_resource::<MessageRegistry>()
        .map(|r| r.should_update != ShouldUpdateMessages::Ready)
    else {
        return;
    };
    let Some(mut tf) = world.get_resource_mut::<Tickfold>() else {
        return;
    };
    if tf.signaled && updated {
        tf.signaled = false;
        for c in &mut tf.clocks {
            c.ran = false;
        }
    }
}

/// After the frame's runs: `Ready` when every clock ran since the last update, else `Waiting`.
pub(crate) fn after_runs(world: &mut World) {
    let Some(tf) = world.get_resource::<Tickfold>() else {
        return;
    };
    // A clock the loop no longer has (removed through `Tickfold::state_mut`) does not count.
    let ready = tf
        .clocks
        .iter()
        .all(|c| c.ran || c.ended || tf.state.clock(c.id).is_err());
    let Some(mut registry) = world.get_resource_mut::<MessageRegistry>() else {
        return;
    };
    if registry.should_update == ShouldUpdateMessages::Always {
        return;
    }
    let want = if ready {
        ShouldUpdateMessages::Ready
    } else {
        ShouldUpdateMessages::Waiting
    };
    if registry.should_update != want {
        registry.should_update = want;
    }
    world.resource_mut::<Tickfold>().signaled = ready;
}
