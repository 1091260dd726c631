//! The loop code the facade's `plain_world` and `hecs_world` examples share, written once
//! against tickfold-core's storage traits: it knows nothing of `Vec`s or hecs, only
//! [`BlendColumns`]. A workspace-internal crate, not published.
#![forbid(unsafe_code)]

use tickfold_core::{BlendColumns, Event, Events, Nanos, Tick};

/// What one step did to the storage.
#[derive(Copy, Clone, Debug, Default)]
pub struct Stepped {
    /// Updates run.
    pub updates: u64,
    /// Captures made (at most one per step: before its last update).
    pub captures: u64,
    /// The render's alpha, if the step rendered.
    pub alpha: Option<f64>,
}

/// Applies one step's events to any storage: before each update the capture rule of
/// `Tick::last_in_step` (`Columns::before_update`), then the game's `update`; at the render,
/// every element blended at the frame's alpha into `drawn`, a reused instance buffer.
pub fn apply_step<S: BlendColumns>(
    events: &Events<Nanos>,
    storage: &mut S,
    mut update: impl FnMut(&mut S, &Tick),
    drawn: &mut Vec<S::Item>,
) -> Stepped {
    let mut stepped = Stepped::default();
    for event in events.iter() {
        match event {
            Event::Update(tick) => {
                stepped.captures += u64::from(storage.before_update(&tick));
                update(storage, &tick);
                stepped.updates += 1;
            }
            Event::Render(frame) => {
                drawn.clear();
                storage.blend_into(frame.alpha, drawn);
                stepped.alpha = Some(frame.alpha);
            }
            _ => {}
        }
    }
    stepped
}
