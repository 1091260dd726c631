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

impl Tickfold {
    /// After the frame's runs: whether every clock has run since Bevy last updated its message
    /// buffers (a clock that ended, or that the loop no longer has since a removal through
    /// `state_mut`, never runs again and does not count). If so, the buffers update at the next
    /// `First`, before any run, so every clock is owed a run again from now on.
    pub(crate) fn buffers_ready(&mut self) -> bool {
        let ready = self
            .clocks
            .iter()
            .all(|c| c.ran || c.ended || self.state.clock(c.id).is_err());
        if ready {
            for c in &mut self.clocks {
                c.ran = false;
            }
        }
        ready
    }
}

/// Lets Bevy update its message buffers at the next `First` (`Ready`) or not (`Waiting`),
/// overriding the main clock's own signal in `FixedPostUpdate`; an app on `Always` keeps it.
pub(crate) fn signal(world: &mut World, ready: bool) {
    let Some(mut registry) = world.get_resource_mut::<MessageRegistry>() else {
        return;
    };
    let want = match registry.should_update {
        ShouldUpdateMessages::Always => return,
        _ if ready => ShouldUpdateMessages::Ready,
        _ => ShouldUpdateMessages::Waiting,
    };
    if registry.should_update != want {
        registry.should_update = want;
    }
}
