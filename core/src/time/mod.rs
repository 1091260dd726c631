//! Real and virtual time, the loop's two time axes: the real clock's readings and the max
//! frame delta (`real.rs`), virtual time with its scale, pause and single-step requests
//! (`virtual_time.rs`, exact sub-ns arithmetic in `sub_nanos.rs`), the span the latest step
//! covered (`span.rs`), the render cap's slot grid (`render_cap.rs`) and the frame-delta
//! smoother a shell may put in front of the fold (`smooth.rs`).
//!
//! Each type owns its fields; the step moves them only through their methods. The max frame
//! delta's setting is kept in `real.rs`; the rule that applies it is the step's.
//!
//! May call: `values`. Called by: `state`, `step`, `save`.

pub(crate) mod real;
pub(crate) mod render_cap;
pub(crate) mod smooth;
pub(crate) mod span;
pub(crate) mod sub_nanos;
pub(crate) mod virtual_time;
