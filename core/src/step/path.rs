//! What a body of the step knows about the loop before it runs, as a type: the step's one
//! switch between its fast paths and its general path. Each answer is a constant, so each
//! body is compiled once per path with the questions its path never asks left out (the table
//! in `step/mod.rs` says which body runs when).

/// What a body of the step knows about the loop before it runs (see the module docs).
pub(crate) trait Path {
    /// Every clock is plain (catch-up, late firing, no hysteresis, no refused tick waiting),
    /// virtual time is real time (a scale of 1 with no fraction of a ns carried, not paused),
    /// there is no render cap and no control to report: what
    /// [`Inner::fast_path`](crate::state::Inner::fast_path) checked before the step.
    const PLAIN: bool;
}

/// The fast paths' loops: every clock plain (see [`Path::PLAIN`]).
pub(crate) enum Plain {}

impl Path for Plain {
    const PLAIN: bool = true;
}

/// Any loop: the general path.
pub(crate) enum General {}

impl Path for General {
    const PLAIN: bool = false;
}
