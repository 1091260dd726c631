//! Where a state's readings stand while a handler holds it: the position that
//! [`LoopState::as_of`](crate::LoopState::as_of) sets and clears. A leaf: the state keeps one,
//! `state/as_of.rs` moves it; it needs neither (no import loop).

/// Where the readings of a state stand while a handler holds it: `None` at the end of the
/// latest step (always, but inside [`LoopState::as_of`](crate::LoopState::as_of)). Not part of the state's value: never
/// saved, and two states compare equal whatever theirs (as [`FastPath`](crate::state::FastPath)).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Cursor(pub(crate) Option<At>);

impl PartialEq for Cursor {
    fn eq(&self, _: &Cursor) -> bool {
        true
    }
}

/// An update of the latest step, as the readings see it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct At {
    /// The place of the update's clock in declaration order (the merge's tie-break).
    pub(crate) clock: usize,
    /// The update's tick number.
    pub(crate) index: u64,
    /// The virtual time at which it came due: the key the merged walk orders it by.
    pub(crate) due: u64,
    /// Its length in whole ns (`end − t`, see [`Events::tick_end`](crate::Events::tick_end)).
    pub(crate) length: u64,
}
